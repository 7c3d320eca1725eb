/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.c - report.html (see html.h): one static page, no script.
 *
 * The page is written top to bottom in the order a reader needs it:
 * what ran and whether it is complete, the figures and checks, the
 * plots, then the system evidence hook by hook (a table where a parser
 * exists, the first lines otherwise, the skip reason when the hook could
 * not run) and the metadata. Evidence is read here, not passed in: a
 * broken sys/ file costs its own section, never the report.
 */
#include "analysis/report/html.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/parsers/parse_diskstats.h"
#include "analysis/parsers/parse_interrupts.h"
#include "analysis/parsers/parse_iostat.h"
#include "analysis/parsers/parse_lockstat.h"
#include "analysis/parsers/parse_perf.h"
#include "analysis/parsers/parse_pgstats.h"
#include "analysis/parsers/parse_readprofile.h"
#include "analysis/parsers/parse_vmstat.h"
#include "analysis/report/devices.h"
#include "analysis/report/fidelity.h"
#include "src/base/atomic_file.h"

#define HTML_TOP       20	  /* rows of profile and lock tables */
#define HTML_RAW_LINES 40	  /* lines shown of a file without parser */
#define HTML_TEXT_MAX  (64 << 10) /* bytes shown of a text file */
#define HTML_JSON_ROWS 400	  /* metadata rows shown */
#define HTML_CKPT_ROWS 400	  /* checkpoints listed */

/* What the section writers share. */
struct html_ctx {
	FILE *f;		     /* the page */
	const struct html_input *in; /* what it shows */
	char sys[PATH_MAX];	     /* run_dir/sys */
	double start_epoch_s;	     /* meta.json start, NAN unknown */
};

/* ---- small writers ---- */

static void num(FILE *f, double v, int decimals)
{
	if (isfinite(v))
		fprintf(f, "%.*f", decimals, v);
	else
		fputs("&ndash;", f);
}

/* A count from run.json, "?" when unknown. */
static void count(FILE *f, int64_t v)
{
	if (v < 0)
		fputc('?', f);
	else
		fprintf(f, "%lld", (long long)v);
}

static void td_num(FILE *f, double v, int decimals)
{
	fputs("<td>", f);
	num(f, v, decimals);
	fputs("</td>", f);
}

static void td_text(FILE *f, const char *s)
{
	fputs("<td class=\"l\">", f);
	html_page_escape(f, s);
	fputs("</td>", f);
}

static void td_u64(FILE *f, uint64_t v)
{
	fprintf(f, "<td>%llu</td>", (unsigned long long)v);
}

static void verdict(FILE *f, int v, const char *yes, const char *no)
{
	if (v < 0)
		fputs("<span class=\"unk\">unknown</span>", f);
	else if (v)
		fprintf(f, "<span class=\"ok\">%s</span>", yes);
	else
		fprintf(f, "<span class=\"bad\">%s</span>", no);
}

static void td_verdict(FILE *f, int v)
{
	fputs("<td class=\"l\">", f);
	verdict(f, v, "ok", "FAILED");
	fputs("</td>", f);
}

static void p_note(FILE *f, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A paragraph of escaped text with a class. */
static void p_note(FILE *f, const char *cls, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "<p class=\"%s\">", cls);
	html_page_escape(f, buf);
	fputs("</p>\n", f);
}

static bool sys_path(const struct html_ctx *c, const char *name, char *out,
		     size_t size)
{
	size_t a = strlen(c->sys), b = strlen(name);

	/* by hand: snprintf("%s/%s") into PATH_MAX draws truncation
	   warnings that the length check cannot silence */
	if (a + 1 + b + 1 > size) {
		if (size)
			out[0] = '\0';
		return false;
	}
	memcpy(out, c->sys, a);
	out[a] = '/';
	memcpy(out + a + 1, name, b + 1);
	return true;
}

static bool sys_exists(const struct html_ctx *c, const char *name)
{
	char path[PATH_MAX];

	return sys_path(c, name, path, sizeof(path)) && access(path, F_OK) == 0;
}

/*
 * Show a text file in <pre>: up to max_lines lines (0: all) and
 * HTML_TEXT_MAX bytes, lines starting with skip_prefix left out.
 */
static void pre_file(struct html_ctx *c, const char *path, int max_lines,
		     const char *skip_prefix)
{
	char line[4096];
	size_t bytes = 0;
	int lines = 0;
	bool cut = false;
	FILE *in = fopen(path, "r");

	if (!in) {
		p_note(c->f, "unk", "cannot read %s: %s", path,
		       strerror(errno));
		return;
	}
	fputs("<pre>", c->f);
	while (fgets(line, sizeof(line), in)) {
		if (skip_prefix &&
		    strncmp(line, skip_prefix, strlen(skip_prefix)) == 0)
			continue;
		if ((max_lines && lines >= max_lines) ||
		    bytes >= HTML_TEXT_MAX) {
			cut = true;
			break;
		}
		html_page_escape(c->f, line);
		bytes += strlen(line);
		lines++;
	}
	fputs("</pre>\n", c->f);
	if (cut)
		fputs("<p class=\"sub\">(cut here; the whole file is in "
		      "sys/)</p>\n",
		      c->f);
	fclose(in);
}

/* Seconds between the modification times of two files, NAN if unknown. */
static double mtime_span_s(const char *a, const char *b)
{
	struct stat sa, sb;
	double d;

	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return NAN;
	d = (double)(sb.st_mtim.tv_sec - sa.st_mtim.tv_sec) +
	    (double)(sb.st_mtim.tv_nsec - sa.st_mtim.tv_nsec) / 1e9;
	/* copies (cp, git checkout) give both files about the same time:
	   no rate can be built on that */
	return d >= 1.0 ? d : NAN;
}

/* ---- summary sections ---- */

static void section_head(struct html_ctx *c)
{
	const struct summary *s = c->in->sum;
	const struct sum_run *r = &s->run;
	FILE *f = c->f;
	int i;

	if (r->partial) {
		fputs("<div class=\"banner\">Partial run: ", f);
		if (!r->present)
			fputs("there is no run.json (the run did not finish "
			      "writing its results)",
			      f);
		else if (r->end_reason[0])
			html_page_escape(f, r->end_reason);
		else
			fputs("ended early", f);
		fputs(". The figures cover only what was measured; do not "
		      "score this run.</div>\n",
		      f);
	}
	if (s->meta.diagnostic == 1)
		fputs("<div class=\"diag\">diagnostic run: profiling/lock "
		      "statistics were on; not scored. They perturb the "
		      "kernel: read the evidence, not the figures.</div>\n",
		      f);
	for (i = 0; i < s->nwarnings; i++) {
		fputs("<div class=\"warn\">Warning: ", f);
		html_page_escape(f, s->warnings[i]);
		fputs("</div>\n", f);
	}
	fputs("<h1>oltpmark report</h1>\n<p class=\"sub\">", f);
	if (s->meta.label[0]) {
		fputs("label <b>", f);
		html_page_escape(f, s->meta.label);
		fputs("</b>", f);
	}
	if (s->meta.config[0]) {
		fputs(", configuration <b>", f);
		html_page_escape(f, s->meta.config);
		fputs("</b>", f);
	}
	fputs(" &mdash; run directory <code>", f);
	html_page_escape(f, c->in->run_dir);
	fputs("</code></p>\n<nav><a href=\"#summary\">Summary</a>"
	      "<a href=\"#checks\">Checks</a><a href=\"#plots\">Plots</a>"
	      "<a href=\"#evidence\">System evidence</a>"
	      "<a href=\"#metadata\">Metadata</a></nav>\n",
	      f);
}

/* The server counters of run.json's server_stats, as one row. */
static void row_server(FILE *f, const struct summary *s)
{
	const struct sum_run *r = &s->run;

	fputs("<tr><th>Server</th><td>buffer hit ratio ", f);
	if (isfinite(s->buffer_hit_ratio))
		fprintf(f, "<b>%.*f %%</b>",
			summary_hit_pct_decimals(100.0 * s->buffer_hit_ratio,
						 2),
			100.0 * s->buffer_hit_ratio);
	else
		fputs("unknown", f);
	fputs(" (", f);
	count(f, r->blks_hit);
	fputs(" hits, ", f);
	count(f, r->blks_read);
	fputs(" blocks read", f);
	if (isfinite(s->blks_read_per_s))
		fprintf(f, ", %.2f/s", s->blks_read_per_s);
	fputs("); checkpoints ", f);
	count(f, r->checkpoints_timed);
	fputs(" timed, ", f);
	count(f, r->checkpoints_req);
	fputs(" requested, ", f);
	count(f, r->buffers_checkpoint);
	fputs(" buffers written; ", f);
	count(f, r->xact_commit);
	fputs(" commits, ", f);
	count(f, r->xact_rollback);
	fputs(" rollbacks <span class=\"sub\">(run.json server_stats, over "
	      "the cost window)</span></td></tr>\n",
	      f);
}

/* The checkpoints of the run, when there are any. */
static void table_checkpoints(FILE *f, const struct summary *s)
{
	size_t i;

	if (!s->ckpts_known || s->ckpts.n == 0)
		return;
	fputs("<h3>Checkpoints</h3>\n<table>\n<tr><th>start s</th>"
	      "<th>end s</th><th>length s</th><th class=\"l\">in the "
	      "window</th><th class=\"l\">kind</th></tr>\n",
	      f);
	for (i = 0; i < s->ckpts.n && i < HTML_CKPT_ROWS; i++) {
		const struct ckpt *k = &s->ckpts.items[i];

		fputs("<tr>", f);
		td_num(f, k->start_s, 3);
		td_num(f, k->end_s, 3);
		td_num(f, k->end_s - k->start_s, 3);
		td_text(f, summary_ckpt_in_window(s, k) ? "yes" : "no");
		td_text(f, k->kind);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (s->ckpts.n > HTML_CKPT_ROWS)
		fprintf(f,
			"<p class=\"sub\">(the first %d of %zu; all are in "
			"summary.json)</p>\n",
			HTML_CKPT_ROWS, s->ckpts.n);
	fputs("<p class=\"sub\">Seconds since the start of the run, from "
	      "the server log; a checkpoint that started before the run or "
	      "ended after it is listed with its real times.</p>\n",
	      f);
}

static void section_summary(struct html_ctx *c)
{
	const struct summary *s = c->in->sum;
	const struct sum_run *r = &s->run;
	FILE *f = c->f;
	uint64_t ok = 0, rb = 0, er = 0;
	int t, i;

	fputs("<h2 id=\"summary\">Summary</h2>\n<table class=\"kv\">\n", f);
	fputs(s->meta.simulated ? "<tr><th>simulated NOTPM</th><td><b>"
				: "<tr><th>NOTPM</th><td><b>",
	      f);
	num(f, s->notpm, 2);
	fputs(s->meta.simulated
		      ? "</b> New-Orders replayed by the iosim driver per "
			"minute: not a database's throughput (docs/iosim.md)"
			"</td></tr>\n<tr><th>Total TPM</th><td>"
		      : "</b> New-Orders completed (committed or rolled back) "
			"per minute</td></tr>\n<tr><th>Total TPM</th><td>",
	      f);
	num(f, s->tpm_total, 2);
	fputs(" all types, committed or rolled back</td></tr>\n"
	      "<tr><th>Window</th><td>",
	      f);
	fprintf(f, "%.3f .. %.3f s (%.3f s measured; start from ",
		s->start_ms / 1000.0, s->end_ms / 1000.0, s->measured_s);
	html_page_escape(f, s->start_from);
	fputs(", end from ", f);
	html_page_escape(f, s->end_from);
	fputs(")</td></tr>\n<tr><th>Ramp-up</th><td>", f);
	num(f, r->ramp_up_s, 3);
	fputs(" s</td></tr>\n<tr><th>Steady state</th><td>", f);
	verdict(f, s->steady.steady, "steady", "NOT steady");
	if (!isnan(s->steady.change_pct))
		fprintf(f,
			": fitted change %+.2f &plusmn; %.2f %% of the mean "
			"over %zu intervals of 10 s (limit %.0f %%%s)",
			s->steady.change_pct, s->steady.change_ci_pct,
			s->steady.intervals, SUM_STEADY_LIMIT_PCT,
			s->steady.steady < 0 ? "; too noisy to tell" : "");
	else
		fprintf(f, " (%zu complete 10-s intervals)",
			s->steady.intervals);
	fputs("</td></tr>\n", f);
	if (r->present) {
		fputs("<tr><th>Run</th><td>", f);
		count(f, r->warehouses);
		fputs(" warehouses, ", f);
		count(f, r->terminals);
		fputs(" terminals, ", f);
		count(f, r->connections);
		fputs(" connections, keying/think ", f);
		html_page_escape(f, r->keying_think[0] ? r->keying_think : "?");
		fputs(", transactions as ", f);
		html_page_escape(f, r->tx_mode[0] ? r->tx_mode : "?");
		fputs("; connections lost ", f);
		count(f, r->connections_lost);
		fputs(", reconnects ", f);
		count(f, r->reconnects);
		fputs("</td></tr>\n", f);
		row_server(f, s);
	}
	fputs("<tr><th>Checkpoints</th><td>", f);
	if (s->ckpts_known)
		fprintf(f,
			"%zu in the run, %zu overlapping the window "
			"(<a href=\"sys/checkpoints.csv\">"
			"sys/checkpoints.csv</a>)",
			s->ckpts.n, s->ckpts_in_window);
	else
		fputs("unknown (no usable sys/checkpoints.csv)", f);
	fputs("</td></tr>\n</table>\n", f);

	fputs("<h3>Transactions in the window</h3>\n<table>\n<tr>"
	      "<th class=\"l\">type</th><th>count</th><th>share %</th>"
	      "<th>ok</th><th>rollback</th><th>error</th><th>retries</th>"
	      "<th>mean ms</th><th>p50</th><th>p90</th><th>p95</th>"
	      "<th>p99</th><th>max</th><th>service mean</th>"
	      "<th>service p90</th></tr>\n",
	      f);
	for (t = 0; t < TXN_NR; t++) {
		const struct sum_type *ty = &s->type[t];
		int64_t retries = s->retries_scope ? r->retries[t] : -1;
		static const double pct[] = {50, 90, 95, 99};

		fputs("<tr>", f);
		td_text(f, summary_type_title((enum txn_type)t));
		td_u64(f, ty->count);
		td_num(f, s->mix[t].value, 2);
		td_u64(f, ty->ok);
		td_u64(f, ty->rollback);
		td_u64(f, ty->error);
		if (retries < 0)
			fputs("<td>unknown</td>", f);
		else
			fprintf(f, "<td>%lld</td>", (long long)retries);
		if (ty->count == 0) {
			fputs("<td colspan=\"8\" class=\"l\">none</td></tr>\n",
			      f);
			continue;
		}
		td_num(f, hist_mean(&ty->response) / 1000.0, 2);
		for (i = 0; i < 4; i++)
			td_num(f,
			       (double)hist_percentile(&ty->response, pct[i]) /
				       1000.0,
			       2);
		td_num(f, (double)ty->response.max / 1000.0, 2);
		td_num(f, hist_mean(&ty->service) / 1000.0, 2);
		td_num(f, (double)hist_percentile(&ty->service, 90) / 1000.0,
		       2);
		fputs("</tr>\n", f);
		ok += ty->ok;
		rb += ty->rollback;
		er += ty->error;
	}
	fprintf(f,
		"<tr><th class=\"l\">total</th><th>%llu</th><th></th>"
		"<th>%llu</th><th>%llu</th><th>%llu</th>"
		"<th colspan=\"9\"></th></tr>\n</table>\n",
		(unsigned long long)s->rows_in_window, (unsigned long long)ok,
		(unsigned long long)rb, (unsigned long long)er);
	fputs("<p class=\"sub\">Response time runs from the moment a "
	      "transaction was due to its completion (queueing included); "
	      "Delivery's from queueing to the end of its deferred "
	      "execution. Service time is send to reply.</p>\n",
	      f);
	table_checkpoints(f, s);
}

/*
 * The host's share of the CPU over the window (sys/procstat.csv): steal
 * first, as it is the one a guest cannot see elsewhere and the one
 * compare adjusts for (docs/blocks.md).
 */
static void table_host(FILE *f, const struct hostshare *h)
{
	static const struct {
		enum procstat_field state;
		const char *name;
	} kinds[] = {
		{PROCSTAT_STEAL, "steal"},   {PROCSTAT_USER, "user"},
		{PROCSTAT_NICE, "nice"},     {PROCSTAT_SYSTEM, "system"},
		{PROCSTAT_IRQ, "irq"},	     {PROCSTAT_SOFTIRQ, "softirq"},
		{PROCSTAT_IOWAIT, "iowait"}, {PROCSTAT_IDLE, "idle"},
	};
	size_t i;

	fputs("<h3>Host share of the CPU (sys/procstat.csv)</h3>\n", f);
	if (!h->window_known) {
		p_note(f, "note", "no procstat sample covers the window");
		return;
	}
	fputs("<table>\n<tr>", f);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		fprintf(f, "<th>%s %%</th>", kinds[i].name);
	fputs("</tr>\n<tr>", f);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		td_num(f, 100 * h->window.share[kinds[i].state], 2);
	fputs("</tr>\n</table>\n", f);
	p_note(f, "note",
	       "All CPUs over the measured window %.0f..%.0f s. Steal: time "
	       "the hypervisor ran someone else while this guest was "
	       "runnable; the throughput plot shows it per second.",
	       h->window_start_s, h->window_end_s);
}

/* Per arm of a block run: used blocks, mean NOTPM and mean steal. */
static void table_block_arms(FILE *f, const struct blockrun *b)
{
	double notpm[BLOCKS_ARM_NR] = {0}, steal[BLOCKS_ARM_NR] = {0};
	size_t n[BLOCKS_ARM_NR] = {0}, ns[BLOCKS_ARM_NR] = {0}, i;
	int a;

	for (i = 0; i < b->n; i++) {
		const struct blockrun_block *k = &b->blocks[i];

		if (k->win.use != BLOCKS_USE_OK || !isfinite(k->notpm))
			continue;
		notpm[k->row.arm] += k->notpm;
		n[k->row.arm]++;
		if (isfinite(k->steal)) {
			steal[k->row.arm] += k->steal;
			ns[k->row.arm]++;
		}
	}
	fputs("<table>\n<tr><th>Arm</th><th>Blocks used</th>"
	      "<th>Mean NOTPM</th><th>Mean steal %</th></tr>\n",
	      f);
	for (a = 0; a < BLOCKS_ARM_NR; a++) {
		fputs("<tr>", f);
		td_text(f, blocks_schedule_arm_name((enum blocks_arm)a));
		td_u64(f, n[a]);
		td_num(f, n[a] ? notpm[a] / (double)n[a] : NAN, 1);
		td_num(f, ns[a] ? 100 * steal[a] / (double)ns[a] : NAN, 2);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A block run's blocks: per arm, then every block (folded). */
static void table_blocks(FILE *f, const struct blockrun *b)
{
	size_t i;

	fputs("<h3>Blocks (blocks.csv)</h3>\n", f);
	p_note(f, "note",
	       "Variant %s switched every %g s in the order A B B A A B B A "
	       "...; the first %g s of each block are left out (settle). "
	       "%zu of %zu blocks used. These are raw means: oltpmark "
	       "compare scores the run from its A B B A groups, with the "
	       "steal adjustment (docs/blocks.md).",
	       b->variant[0] ? b->variant : "?", b->block_s, b->settle_s,
	       b->used, b->n);
	table_block_arms(f, b);
	fputs("<details><summary>every block</summary>\n<table>\n"
	      "<tr><th>Block</th><th>Arm</th><th>Window s</th>"
	      "<th>Switch s</th><th>Status</th><th>NOTPM</th>"
	      "<th>Steal %</th><th>Use</th></tr>\n",
	      f);
	for (i = 0; i < b->n; i++) {
		const struct blockrun_block *k = &b->blocks[i];

		fprintf(f, "<tr><td>%zu</td>", k->row.index);
		td_text(f, blocks_schedule_arm_name(k->row.arm));
		if (k->win.end_s > k->win.start_s)
			fprintf(f, "<td>%.1f&ndash;%.1f</td>", k->win.start_s,
				k->win.end_s);
		else
			fputs("<td>&ndash;</td>", f);
		td_num(f, k->row.switch_s, 3);
		fprintf(f, "<td>%d</td>", k->row.status);
		td_num(f, k->notpm, 1);
		td_num(f, isfinite(k->steal) ? 100 * k->steal : NAN, 2);
		td_text(f, blocks_schedule_use_name(k->win.use));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</details>\n", f);
}

/* The host's share and a block run's blocks, under the summary. */
static void section_host(struct html_ctx *c)
{
	if (c->in->host && c->in->host->known)
		table_host(c->f, c->in->host);
	if (c->in->blocks && c->in->blocks->present)
		table_blocks(c->f, c->in->blocks);
}

/*
 * A check's verdict, or "not judged" when the value misses its limit by
 * no more than the sampling noise of a short run (summary.h's
 * small_sample): the mix and the input bounds follow the same rule.
 */
static void td_judged(FILE *f, int within, bool small_sample, double noise)
{
	if (small_sample)
		fprintf(f,
			"<td class=\"l\">not judged (sampling noise "
			"&plusmn;%.2f)</td>",
			noise);
	else
		td_verdict(f, within);
}

static void section_checks(struct html_ctx *c)
{
	const struct summary *s = c->in->sum;
	FILE *f = c->f;
	int t, i;

	fputs("<h2 id=\"checks\">Checks</h2>\n", f);
	fputs("<h3>Mix against the TPC-C minimums (5.2.3): ", f);
	verdict(f, s->mix_ok, "ok", "FAILED");
	fputs("</h3>\n<table>\n<tr><th class=\"l\">type</th><th>share %</th>"
	      "<th>minimum %</th><th class=\"l\">within</th></tr>\n",
	      f);
	for (t = 0; t < TXN_NR; t++) {
		if (!s->mix[t].applies)
			continue;
		fputs("<tr>", f);
		td_text(f, summary_type_title((enum txn_type)t));
		td_num(f, s->mix[t].value, 2);
		td_num(f, s->mix[t].limit, 1);
		td_judged(f, s->mix[t].within, s->mix[t].small_sample,
			  s->mix[t].noise);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"sub\">A share below its minimum by no "
	      "more than three standard errors of its sample is not "
	      "judged.</p>\n",
	      f);
	fputs("<h3>90th-percentile response limits (5.2.5.3, "
	      "2.7.2.2): ",
	      f);
	verdict(f, s->rt_ok, "ok", "FAILED");
	fputs("</h3>\n<table>\n<tr><th class=\"l\">type</th><th>p90 ms</th>"
	      "<th>limit ms</th><th class=\"l\">within</th></tr>\n",
	      f);
	for (t = 0; t < TXN_NR; t++) {
		fputs("<tr>", f);
		td_text(f, t == TXN_DELIVERY
				   ? "Delivery (completion)"
				   : summary_type_title((enum txn_type)t));
		td_num(f, s->rt[t].value, 2);
		td_num(f, s->rt[t].limit, 0);
		td_verdict(f, s->rt[t].within);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<h3>Input bounds (5.5.1.5&ndash;6, from run.json): ",
	      f);
	verdict(f, s->bounds_ok, "ok", "FAILED");
	fputs("</h3>\n<table>\n<tr><th class=\"l\">input</th><th>value</th>"
	      "<th>min</th><th>max</th><th class=\"l\">within</th></tr>\n",
	      f);
	for (i = 0; i < SUM_BOUND_NR; i++) {
		const struct sum_bound *b = &s->bounds[i];

		fputs("<tr>", f);
		td_text(f, b->label);
		if (!b->applies) {
			fputs("<td colspan=\"4\" class=\"l\">n/a (one "
			      "warehouse)</td></tr>\n",
			      f);
			continue;
		}
		td_num(f, b->value, 2);
		td_num(f, b->min, 2);
		td_num(f, b->max, 2);
		td_judged(f, b->within, b->small_sample, b->noise);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"sub\">Percentages except lines per "
	      "order. Skipped Deliveries are allowed up to 1 % or one "
	      "Delivery, whichever is more. A value outside its bounds by no "
	      "more than three standard errors of its sample is not judged: "
	      "the bounds are meant for TPC-C's two-hour interval.</p>\n",
	      f);
}

static void section_cost(struct html_ctx *c)
{
	const struct summary *s = c->in->sum;
	const struct sum_run *r = &s->run;
	FILE *f = c->f;
	double n = (double)s->cost_rows;

	fputs("<h3>Cost</h3>\n<table>\n<tr><th class=\"l\">process</th>"
	      "<th>CPU s</th><th>&micro;s per transaction</th></tr>\n"
	      "<tr><td class=\"l\">client (oltpmark)</td>",
	      f);
	td_num(f, r->client_cpu_s, 2);
	td_num(f, n > 0 ? r->client_cpu_s * 1e6 / n : NAN, 2);
	fputs("</tr>\n<tr><td class=\"l\">server</td>", f);
	td_num(f, r->server_cpu_s, 2);
	td_num(f, n > 0 ? r->server_cpu_s * 1e6 / n : NAN, 2);
	fputs("</tr>\n</table>\n", f);
	if (isfinite(r->cost_start_s) && isfinite(r->cost_end_s))
		fprintf(f,
			"<p class=\"sub\">CPU time over %.1f .. %.1f s, "
			"%llu transactions finished in it.</p>\n",
			r->cost_start_s, r->cost_end_s,
			(unsigned long long)s->cost_rows);
	else
		fputs("<p class=\"sub\">run.json has no cost window.</p>\n", f);
}

/* An iosim run beside its calibration (fidelity.h); read here. */
static void section_fidelity(struct html_ctx *c)
{
	struct fidelity fd;
	struct err err = {""};

	if (fidelity_read(c->in->run_dir, c->in->meta, c->in->run,
			  fidelity_commits(c->in->sum), &fd, &err) < 0)
		p_note(c->f, "unk", "Fidelity not shown: %s", err.msg);
	else
		fidelity_write_html(&fd, c->f);
}

static void section_notes(struct html_ctx *c)
{
	const struct summary *s = c->in->sum;
	const struct plots_result *p = c->in->plots;
	FILE *f = c->f;
	int i;

	if (s->nnotes == 0 && (!p || p->nnotes == 0))
		return;
	fputs("<h3>Notes</h3>\n<ul>\n", f);
	for (i = 0; i < s->nnotes; i++) {
		fputs("<li>", f);
		html_page_escape(f, s->notes[i]);
		fputs("</li>\n", f);
	}
	for (i = 0; p && i < p->nnotes; i++) {
		fputs("<li>", f);
		html_page_escape(f, p->notes[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void section_plots(struct html_ctx *c)
{
	static const char *const group_titles[PLOT_GROUP_NR] = {
		[PLOT_WORKLOAD] = "Workload",
		[PLOT_VMSTAT] = "vmstat",
		[PLOT_IOSTAT] = "iostat",
	};
	const struct plots_result *p = c->in->plots;
	FILE *f = c->f;
	int g, i;

	fputs("<h2 id=\"plots\">Plots</h2>\n", f);
	if (!p || !p->gnuplot) {
		p_note(f, "skip", "Plots skipped: %s.",
		       p && p->why_not[0] ? p->why_not : "not asked for");
		return;
	}
	for (g = 0; g < PLOT_GROUP_NR; g++) {
		bool any = false;

		for (i = 0; i < p->nplots; i++) {
			const struct plot_entry *e = &p->plots[i];

			if ((int)e->group != g)
				continue;
			if (!any)
				fprintf(f, "<h3>%s</h3>\n", group_titles[g]);
			any = true;
			/* NOTPM full width, the rest two by two */
			fprintf(f, "<figure%s><img src=\"plots/",
				strcmp(e->name, "notpm") == 0
					? ""
					: " class=\"half\"");
			html_page_escape(f, e->name);
			fputs(".png\" alt=\"", f);
			html_page_escape(f, e->title);
			fputs("\"><figcaption>", f);
			html_page_escape(f, e->title);
			fputs(" &mdash; <a href=\"plots/", f);
			html_page_escape(f, e->name);
			fputs(".svg\">SVG</a>, <a href=\"plots/", f);
			html_page_escape(f, e->name);
			fputs(".gp\">gnuplot script</a></figcaption>"
			      "</figure>\n",
			      f);
		}
	}
	if (p->nplots == 0)
		p_note(f, "skip", "No plot could be drawn (see the notes).");
}

/* ---- system evidence ---- */

/*
 * Each hook is one row of ev_sources[] below: which files it leaves,
 * how they are read (read(), filling a struct of size bytes, which
 * release() frees) and how the result is shown (show()). A hook without
 * a parser (size 0) has show() read its files itself. section_evidence()
 * does the rest for every hook alike: the skip reason, "no output", the
 * note when read() fails, the problems the hook reported.
 */

/* Mean of a vmstat column over the window (or all samples). */
static double vmstat_window_mean(const struct html_ctx *c,
				 const struct vmstat_series *vs, int col,
				 bool aligned)
{
	const struct summary *s = c->in->sum;
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < vs->nsamples; i++) {
		double v = parse_vmstat_value(vs, i, col);

		if (aligned) {
			double x = (double)vs->time_s[i] - c->start_epoch_s;

			if (x < s->start_ms / 1000.0 || x >= s->end_ms / 1000.0)
				continue;
		}
		if (isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

static int read_vmstat(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];

	sys_path(c, "vmstat.txt", path, sizeof(path));
	return parse_vmstat_file(path, data, err);
}

static void release_vmstat(void *data)
{
	parse_vmstat_free(data);
}

static void show_vmstat(struct html_ctx *c, const void *data)
{
	static const char *const cols[] = {"r",	 "b",	 "in", "cs", "us",
					   "sy", "id",	 "wa", "st", "bi",
					   "bo", "free", "si", "so"};
	const struct vmstat_series *vs = data;
	bool aligned = vs->has_time && isfinite(c->start_epoch_s);
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Means over %s (%zu samples in the file).</p>\n"
		"<table>\n<tr>",
		aligned ? "the measured window" : "the whole file",
		vs->nsamples);
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (parse_vmstat_column(vs, cols[i]) >= 0)
			fprintf(f, "<th>%s</th>", cols[i]);
	fputs("</tr>\n<tr>", f);
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		int k = parse_vmstat_column(vs, cols[i]);

		if (k >= 0)
			td_num(f, vmstat_window_mean(c, vs, k, aligned), 1);
	}
	fputs("</tr>\n</table>\n", f);
}

/* iostat.json, or iostat.txt when only that one is there. */
static int read_iostat(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];

	if (!sys_exists(c, "iostat.json") && sys_exists(c, "iostat.txt"))
		sys_path(c, "iostat.txt", path, sizeof(path));
	else
		sys_path(c, "iostat.json", path, sizeof(path));
	return parse_iostat_file(path, data, err);
}

static void release_iostat(void *data)
{
	parse_iostat_free(data);
}

static void show_iostat(struct html_ctx *c, const void *data)
{
	const struct summary *s = c->in->sum;
	const struct iostat_data *io = data;
	bool aligned = io->has_time && isfinite(c->start_epoch_s);
	size_t d, i;
	FILE *f = c->f;
	int shown = 0;

	fprintf(f,
		"<p>Means over %s, devices with I/O.</p>\n<table>\n"
		"<tr><th class=\"l\">device</th><th>r/s</th><th>w/s</th>"
		"<th>rkB/s</th><th>wkB/s</th><th>await ms</th>"
		"<th>aqu-sz</th><th>util %%</th></tr>\n",
		aligned ? "the measured window" : "the whole file");
	for (d = 0; d < io->ndevices; d++) {
		const struct iostat_device *dv = &io->devices[d];
		double m[7] = {0};
		size_t n = 0;

		for (i = 0; i < dv->nsamples; i++) {
			const struct iostat_sample *sm = &dv->samples[i];
			double x = (double)sm->time_s - c->start_epoch_s;

			if (aligned && (x < s->start_ms / 1000.0 ||
					x >= s->end_ms / 1000.0))
				continue;
			m[0] += isfinite(sm->r_s) ? sm->r_s : 0;
			m[1] += isfinite(sm->w_s) ? sm->w_s : 0;
			m[2] += isfinite(sm->rkb_s) ? sm->rkb_s : 0;
			m[3] += isfinite(sm->wkb_s) ? sm->wkb_s : 0;
			m[4] += isfinite(sm->await_ms) ? sm->await_ms : 0;
			m[5] += isfinite(sm->aqu_sz) ? sm->aqu_sz : 0;
			m[6] += isfinite(sm->util_pct) ? sm->util_pct : 0;
			n++;
		}
		if (n == 0 || m[0] + m[1] <= 0)
			continue;
		fputs("<tr>", f);
		td_text(f, dv->name);
		for (i = 0; i < 7; i++)
			td_num(f, m[i] / (double)n, 2);
		fputs("</tr>\n", f);
		shown++;
	}
	fputs("</table>\n", f);
	if (!shown)
		p_note(f, "sub", "No device did any I/O.");
}

/* The interrupts hook's two snapshots and what changed between them. */
struct ev_interrupts {
	struct irq_snapshot start, stop; /* interrupts.start, .stop */
	struct irq_delta delta;		 /* stop - start, sorted by total */
	double span_s;			 /* seconds apart, NAN unknown */
};

static int read_interrupts(struct html_ctx *c, void *data, struct err *err)
{
	struct ev_interrupts *v = data;
	char pa[PATH_MAX], pb[PATH_MAX];
	int rc;

	sys_path(c, "interrupts.start", pa, sizeof(pa));
	sys_path(c, "interrupts.stop", pb, sizeof(pb));
	rc = parse_interrupts_file(pa, &v->start, err);
	if (rc == 0)
		rc = parse_interrupts_file(pb, &v->stop, err);
	if (rc == 0)
		rc = parse_interrupts_delta(&v->start, &v->stop, &v->delta,
					    err);
	if (rc < 0)
		return rc;
	parse_interrupts_delta_sort(&v->delta);
	v->span_s = mtime_span_s(pa, pb);
	return 0;
}

static void release_interrupts(void *data)
{
	struct ev_interrupts *v = data;

	parse_interrupts_delta_free(&v->delta);
	parse_interrupts_free(&v->start);
	parse_interrupts_free(&v->stop);
}

static void show_interrupts(struct html_ctx *c, const void *data)
{
	const struct ev_interrupts *v = data;
	const struct irq_delta *d = &v->delta;
	size_t i;
	FILE *f = c->f;

	fprintf(f, "<p>Interrupts between the start and stop snapshots");
	if (isfinite(v->span_s))
		fprintf(f, " (%.1f s apart)", v->span_s);
	else
		fprintf(f, " (their times are unknown: no rates)");
	fprintf(f,
		", top %d.</p>\n<table>\n<tr><th class=\"l\">source</th>"
		"<th>count</th><th>per second</th></tr>\n",
		HTML_TOP);
	for (i = 0; i < d->n && i < HTML_TOP; i++) {
		fputs("<tr>", f);
		td_text(f, d->entries[i].name);
		td_u64(f, d->entries[i].total);
		td_num(f, (double)d->entries[i].total / v->span_s, 1);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The diskstats hook's two snapshots and what changed between them. */
struct ev_diskstats {
	struct diskstats_snapshot start, stop; /* diskstats.start, .stop */
	struct diskstats_delta delta;	       /* stop - start */
	double span_s;			       /* seconds apart, NAN unknown */
};

static int read_diskstats(struct html_ctx *c, void *data, struct err *err)
{
	struct ev_diskstats *v = data;
	char pa[PATH_MAX], pb[PATH_MAX];
	int rc;

	sys_path(c, "diskstats.start", pa, sizeof(pa));
	sys_path(c, "diskstats.stop", pb, sizeof(pb));
	rc = parse_diskstats_file(pa, &v->start, err);
	if (rc == 0)
		rc = parse_diskstats_file(pb, &v->stop, err);
	if (rc == 0)
		rc = parse_diskstats_delta(&v->start, &v->stop, &v->delta, err);
	if (rc < 0)
		return rc;
	v->span_s = mtime_span_s(pa, pb);
	return 0;
}

static void release_diskstats(void *data)
{
	struct ev_diskstats *v = data;

	parse_diskstats_delta_free(&v->delta);
	parse_diskstats_free(&v->start);
	parse_diskstats_free(&v->stop);
}

/* Deltas without rates, when the snapshots' times are unknown. */
static void diskstats_counts(struct html_ctx *c,
			     const struct diskstats_delta *d)
{
	FILE *f = c->f;
	size_t i;

	fputs("<p>Changes between the start and stop snapshots, devices "
	      "with I/O (the snapshots' times are unknown: no rates).</p>\n"
	      "<table>\n<tr><th class=\"l\">device</th><th>reads</th>"
	      "<th>writes</th><th>kB read</th><th>kB written</th>"
	      "<th>busy ms</th></tr>\n",
	      f);
	for (i = 0; i < d->ndevs; i++) {
		const struct diskstats_delta_dev *dv = &d->devs[i];

		if (dv->v[DS_READS] + dv->v[DS_WRITES] == 0)
			continue;
		fputs("<tr>", f);
		td_text(f, dv->name);
		td_u64(f, dv->v[DS_READS]);
		td_u64(f, dv->v[DS_WRITES]);
		td_u64(f,
		       dv->v[DS_SECTORS_READ] * DISKSTATS_SECTOR_BYTES / 1024);
		td_u64(f, dv->v[DS_SECTORS_WRITTEN] * DISKSTATS_SECTOR_BYTES /
				  1024);
		td_u64(f, dv->v[DS_IO_TICKS_MS]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void show_diskstats(struct html_ctx *c, const void *data)
{
	const struct ev_diskstats *v = data;
	const struct diskstats_delta *d = &v->delta;
	size_t i;
	FILE *f = c->f;
	int shown = 0;

	if (!isfinite(v->span_s)) {
		diskstats_counts(c, d);
		return;
	}
	fprintf(f,
		"<p>Rates between the start and stop snapshots (%.1f s "
		"apart), devices with I/O.</p>\n<table>\n"
		"<tr><th class=\"l\">device</th><th>r/s</th><th>w/s</th>"
		"<th>rkB/s</th><th>wkB/s</th><th>r_await ms</th>"
		"<th>w_await ms</th><th>aqu-sz</th><th>util %%</th></tr>\n",
		v->span_s);
	for (i = 0; i < d->ndevs; i++) {
		struct diskstats_rates r;

		if (d->devs[i].v[DS_READS] + d->devs[i].v[DS_WRITES] == 0 ||
		    parse_diskstats_rates(&d->devs[i], v->span_s, &r, NULL) < 0)
			continue;
		fputs("<tr>", f);
		td_text(f, d->devs[i].name);
		td_num(f, r.r_s, 2);
		td_num(f, r.w_s, 2);
		td_num(f, r.rkb_s, 1);
		td_num(f, r.wkb_s, 1);
		td_num(f, r.r_await_ms, 2);
		td_num(f, r.w_await_ms, 2);
		td_num(f, r.aqu_sz, 2);
		td_num(f, r.util_pct, 1);
		fputs("</tr>\n", f);
		shown++;
	}
	fputs("</table>\n", f);
	if (!shown)
		p_note(f, "sub", "No device did any I/O.");
}

static int read_readprofile(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	sys_path(c, "readprofile.txt", path, sizeof(path));
	rc = parse_readprofile_file(path, data, err);
	if (rc == 0)
		parse_readprofile_sort_by_ticks(data);
	return rc;
}

static void release_readprofile(void *data)
{
	parse_readprofile_free(data);
}

static void show_readprofile(struct html_ctx *c, const void *data)
{
	const struct rprof_profile *p = data;
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Top %d kernel functions by profile ticks (%llu "
		"ticks in all).</p>\n<table>\n<tr><th>ticks</th>"
		"<th>%% of total</th><th class=\"l\">function</th>"
		"<th>load</th></tr>\n",
		HTML_TOP, (unsigned long long)p->total_ticks);
	for (i = 0; i < p->n && i < HTML_TOP; i++) {
		fputs("<tr>", f);
		td_u64(f, p->entries[i].ticks);
		td_num(f,
		       p->total_ticks ? 100.0 * (double)p->entries[i].ticks /
						(double)p->total_ticks
				      : NAN,
		       2);
		td_text(f, p->entries[i].name);
		td_num(f, p->entries[i].load, 4);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int read_lockstat(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	sys_path(c, "lock_stat.txt", path, sizeof(path));
	rc = parse_lockstat_file(path, data, err);
	if (rc == 0)
		parse_lockstat_sort(data, LS_CONTENTIONS);
	return rc;
}

static void release_lockstat(void *data)
{
	parse_lockstat_free(data);
}

static void lock_row(FILE *f, const struct lockstat_class *k)
{
	static const char *const kinds[] = {"", "-W", "-R"};
	char name[300];

	snprintf(name, sizeof(name), "%s%s", k->name, kinds[k->kind]);
	fprintf(f, "<tr%s>", k->is_storage_lock ? " class=\"storage\"" : "");
	td_text(f, name);
	td_num(f, k->v[LS_CONTENTIONS], 0);
	td_num(f, k->v[LS_WAITTIME_TOTAL], 2);
	td_num(f, k->v[LS_WAITTIME_MAX], 2);
	td_num(f, k->v[LS_ACQUISITIONS], 0);
	td_num(f, k->v[LS_HOLDTIME_TOTAL], 2);
	fputs("</tr>\n", f);
}

static void show_lockstat(struct html_ctx *c, const void *data)
{
	const struct lockstat_data *d = data;
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Top %d lock classes by contentions; the storage locks "
		"(SCSI host lock, block queue locks) are highlighted and "
		"always listed. Times in &micro;s.</p>\n<table>\n"
		"<tr><th class=\"l\">class</th><th>contentions</th>"
		"<th>wait total</th><th>wait max</th>"
		"<th>acquisitions</th><th>hold total</th></tr>\n",
		HTML_TOP);
	for (i = 0; i < d->n; i++)
		if (i < HTML_TOP || d->classes[i].is_storage_lock)
			lock_row(f, &d->classes[i]);
	fputs("</table>\n", f);
}

/* The first HTML_RAW_LINES lines of sys/file, what introducing them. */
static void ev_raw(struct html_ctx *c, const char *file, const char *what)
{
	char path[PATH_MAX];

	sys_path(c, file, path, sizeof(path));
	fprintf(c->f,
		"<p>%s: the first %d lines of <a href=\"sys/%s\">"
		"sys/%s</a>.</p>\n",
		what, HTML_RAW_LINES, file, file);
	pre_file(c, path, HTML_RAW_LINES, "#");
}

static int read_perf(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	sys_path(c, "perf-report.txt", path, sizeof(path));
	rc = parse_perf_file(path, data, err);
	if (rc == 0)
		parse_perf_sort(data);
	return rc;
}

static void release_perf(void *data)
{
	parse_perf_free(data);
}

static void show_perf(struct html_ctx *c, const void *data)
{
	const struct perf_report *r = data;
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Top %d symbols by share of the samples ([k] kernel, [.] "
		"user space), from <a href=\"sys/perf-report.txt\">"
		"sys/perf-report.txt</a>.</p>\n<table>\n<tr><th>overhead "
		"%%</th><th class=\"l\">shared object</th><th "
		"class=\"l\"></th><th class=\"l\">symbol</th></tr>\n",
		HTML_TOP);
	for (i = 0; i < r->n && i < HTML_TOP; i++) {
		char marker[4] = {'[', r->entries[i].marker, ']', '\0'};

		fputs("<tr>", f);
		td_num(f, r->entries[i].overhead_pct, 2);
		td_text(f, r->entries[i].dso);
		td_text(f, marker);
		td_text(f, r->entries[i].symbol);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* perf lock contention has no parser for the page: its first lines. */
static void show_perf_lock(struct html_ctx *c, const void *data)
{
	(void)data;
	ev_raw(c, "perf-lock.txt", "perf lock contention");
}

static void show_sysinfo(struct html_ctx *c, const void *data)
{
	char path[PATH_MAX];

	(void)data;
	sys_path(c, "sysinfo.txt", path, sizeof(path));
	fputs("<details><summary>sys/sysinfo.txt</summary>\n", c->f);
	pre_file(c, path, 0, NULL);
	fputs("</details>\n", c->f);
}

static void ev_wait_events(struct html_ctx *c)
{
	struct pgstats_waits w;
	char path[PATH_MAX];
	struct err err;
	size_t i;
	FILE *f = c->f;

	sys_path(c, "pg_wait_events.csv", path, sizeof(path));
	err_clear(&err);
	if (parse_pgstats_waits_file(path, &w, &err) < 0) {
		p_note(f, "unk", "pg_wait_events.csv does not parse: %s",
		       err.msg);
		return;
	}
	if (w.samples == 0) {
		p_note(f, "sub", "pg_wait_events.csv holds no sample.");
		parse_pgstats_waits_free(&w);
		return;
	}
	parse_pgstats_waits_sort(&w);
	fprintf(f,
		"<p>Server sessions by wait event, mean over %zu samples "
		"(an empty wait event with state active is running on "
		"CPU).</p>\n<table>\n<tr><th class=\"l\">wait type / "
		"event / state</th><th>mean sessions</th></tr>\n",
		w.samples);
	for (i = 0; i < w.n && i < HTML_TOP; i++) {
		const struct pgstats_wait *e = &w.v[i];
		char key[512];

		snprintf(key, sizeof(key), "%s / %s / %s",
			 e->type[0] ? e->type : "(none)",
			 e->event[0] ? e->event : "(none)",
			 e->state[0] ? e->state : "(none)");
		fputs("<tr>", f);
		td_text(f, key);
		td_num(f, e->sessions / (double)w.samples, 2);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	/* One cut last line is how a stopped psql leaves the file. */
	if (w.bad_lines > 1)
		p_note(f, "sub",
		       "%zu lines of pg_wait_events.csv could not be read.",
		       w.bad_lines);
	parse_pgstats_waits_free(&w);
}

/* Start, stop and change of the numeric columns of a snapshot pair. */
static void ev_snapshot_pair(struct html_ctx *c, const char *view)
{
	struct pgstats_snapshot a, b;
	char pa[PATH_MAX], pb[PATH_MAX], name[96];
	struct err err;
	size_t i;
	FILE *f = c->f;

	snprintf(name, sizeof(name), "%s.start.csv", view);
	sys_path(c, name, pa, sizeof(pa));
	snprintf(name, sizeof(name), "%s.stop.csv", view);
	sys_path(c, name, pb, sizeof(pb));
	if (access(pa, F_OK) != 0 && access(pb, F_OK) != 0)
		return;
	fputs("<h4>", f);
	html_page_escape(f, view);
	fputs("</h4>\n", f);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	err_clear(&err);
	if (parse_pgstats_snapshot_file(pa, &a, &err) < 0 ||
	    parse_pgstats_snapshot_file(pb, &b, &err) < 0) {
		p_note(f, "unk", "%s not shown: %s", view, err.msg);
		goto out;
	}
	fputs("<table>\n<tr><th class=\"l\">column</th><th>start</th>"
	      "<th>stop</th><th>change</th></tr>\n",
	      f);
	for (i = 0; i < a.ncols; i++) {
		double va, vb;

		if (!parse_pgstats_snapshot_value(&a, (int)i, &va) ||
		    !parse_pgstats_snapshot_value(
			    &b, parse_pgstats_snapshot_column(&b, a.names[i]),
			    &vb))
			continue;
		fputs("<tr>", f);
		td_text(f, a.names[i]);
		td_num(f, va, 0);
		td_num(f, vb, 0);
		td_num(f, vb - va, 0);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
out:
	parse_pgstats_snapshot_free(&a);
	parse_pgstats_snapshot_free(&b);
}

/*
 * pg-stats leaves up to seven files read two ways; each part is shown,
 * or its problem noted, on its own.
 */
static void show_pgstats(struct html_ctx *c, const void *data)
{
	(void)data;
	if (sys_exists(c, "pg_wait_events.csv"))
		ev_wait_events(c);
	ev_snapshot_pair(c, "pg_stat_database");
	ev_snapshot_pair(c, "pg_stat_bgwriter");
	ev_snapshot_pair(c, "pg_stat_wal");
}

/* The devices under the database, from meta.json and sys/ (devices.h). */
static int read_devices(struct html_ctx *c, void *data, struct err *err)
{
	return devices_read(c->in->run_dir, c->in->meta, c->in->sum, data, err);
}

static void release_devices(void *data)
{
	dbdevices_free(data);
}

static void show_devices(struct html_ctx *c, const void *data)
{
	devices_write_html(c->f, data);
}

/* A hook, the files it leaves in sys/, and how to read and show them. */
struct ev_source {
	const char *hook;     /* hook name: NAME.skipped, NAME.err; NULL for
				 a section made of several hooks' files,
				 always shown */
	const char *from;     /* with hook NULL: what it is made of */
	const char *title;    /* section title */
	const char *files[4]; /* any of these present: the hook ran */
	size_t size;	      /* bytes read() fills; 0: no parser */
	/* parse the hook's files into data (zeroed, size bytes) */
	int (*read)(struct html_ctx *c, void *data, struct err *err);
	void (*release)(void *data); /* free what read() left in data */
	const char *fail;	     /* note when read() fails: "FAIL: why" */
	const char *raw_file;	     /* also shown raw when read() fails */
	const char *raw_what;	     /* ... introduced as this */
	/* the section body: what read() filled (NULL when size is 0) */
	void (*show)(struct html_ctx *c, const void *data);
};

static const struct ev_source ev_sources[] = {
	{.hook = "sysinfo",
	 .title = "System information",
	 .files = {"sysinfo.txt"},
	 .show = show_sysinfo},
	{.hook = "vmstat",
	 .title = "vmstat",
	 .files = {"vmstat.txt"},
	 .size = sizeof(struct vmstat_series),
	 .read = read_vmstat,
	 .release = release_vmstat,
	 .fail = "vmstat.txt does not parse",
	 .show = show_vmstat},
	{.hook = "iostat",
	 .title = "iostat",
	 .files = {"iostat.json", "iostat.txt"},
	 .size = sizeof(struct iostat_data),
	 .read = read_iostat,
	 .release = release_iostat,
	 .fail = "iostat output does not parse",
	 .show = show_iostat},
	{.hook = "interrupts",
	 .title = "Interrupts",
	 .files = {"interrupts.start", "interrupts.stop"},
	 .size = sizeof(struct ev_interrupts),
	 .read = read_interrupts,
	 .release = release_interrupts,
	 .fail = "interrupts not shown",
	 .show = show_interrupts},
	{.hook = "diskstats",
	 .title = "Disk statistics (/proc/diskstats)",
	 .files = {"diskstats.start", "diskstats.stop"},
	 .size = sizeof(struct ev_diskstats),
	 .read = read_diskstats,
	 .release = release_diskstats,
	 .fail = "diskstats not shown",
	 .show = show_diskstats},
	{.title = "Devices under the database",
	 .from = "meta.json server.layout, iostat, diskstats",
	 .size = sizeof(struct dbdevices),
	 .read = read_devices,
	 .release = release_devices,
	 .fail = "devices not shown",
	 .show = show_devices},
	{.hook = "pg-stats",
	 .title = "PostgreSQL statistics",
	 .files = {"pg_wait_events.csv", "pg_stat_database.start.csv",
		   "pg_stat_bgwriter.start.csv"},
	 .show = show_pgstats},
	{.hook = "readprofile",
	 .title = "Kernel profile (readprofile)",
	 .files = {"readprofile.txt"},
	 .size = sizeof(struct rprof_profile),
	 .read = read_readprofile,
	 .release = release_readprofile,
	 .fail = "readprofile.txt does not parse",
	 .show = show_readprofile},
	{.hook = "lockstat",
	 .title = "Lock statistics (/proc/lock_stat)",
	 .files = {"lock_stat.txt"},
	 .size = sizeof(struct lockstat_data),
	 .read = read_lockstat,
	 .release = release_lockstat,
	 .fail = "lock_stat.txt does not parse",
	 .show = show_lockstat},
	{.hook = "perf-profile",
	 .title = "perf profile",
	 .files = {"perf-report.txt"},
	 .size = sizeof(struct perf_report),
	 .read = read_perf,
	 .release = release_perf,
	 .fail = "perf-report.txt does not parse",
	 .raw_file = "perf-report.txt",
	 .raw_what = "perf report by symbol",
	 .show = show_perf},
	{.hook = "perf-lock",
	 .title = "perf lock contention",
	 .files = {"perf-lock.txt"},
	 .show = show_perf_lock},
};

/* Read a hook's files with its parser and show them, or say why not. */
static void ev_show(struct html_ctx *c, const struct ev_source *h)
{
	struct err err;
	void *data;

	if (!h->size) {
		h->show(c, NULL);
		return;
	}
	data = calloc(1, h->size);
	if (!data) {
		p_note(c->f, "unk", "%s: out of memory", h->fail);
		return;
	}
	err_clear(&err);
	if (h->read(c, data, &err) < 0) {
		p_note(c->f, "unk", "%s: %s", h->fail, err.msg);
		if (h->raw_file)
			ev_raw(c, h->raw_file, h->raw_what);
	} else {
		h->show(c, data);
	}
	h->release(data);
	free(data);
}

/* The first line of a small file (a skip reason), "" if unreadable. */
static void first_line(const char *path, char *out, size_t size)
{
	FILE *in = fopen(path, "r");

	out[0] = '\0';
	if (!in)
		return;
	if (fgets(out, (int)size, in))
		out[strcspn(out, "\r\n")] = '\0';
	fclose(in);
}

static void section_evidence(struct html_ctx *c)
{
	FILE *f = c->f;
	struct stat st;
	size_t i;

	fputs("<h2 id=\"evidence\">System evidence</h2>\n", f);
	if (stat(c->sys, &st) < 0 || !S_ISDIR(st.st_mode)) {
		p_note(f, "skip",
		       "No sys/ directory: the run was made "
		       "without hooks, so there is no system "
		       "evidence.");
		return;
	}
	for (i = 0; i < sizeof(ev_sources) / sizeof(ev_sources[0]); i++) {
		const struct ev_source *h = &ev_sources[i];
		char name[96], path[PATH_MAX], reason[512];
		bool any = false;
		int k;

		if (!h->hook) {
			fprintf(f,
				"<h3>%s <span class=\"sub\">(%s)</span></h3>\n",
				h->title, h->from);
			ev_show(c, h);
			continue;
		}
		fprintf(f, "<h3>%s <span class=\"sub\">(hook %s)</span></h3>\n",
			h->title, h->hook);
		snprintf(name, sizeof(name), "%s.skipped", h->hook);
		sys_path(c, name, path, sizeof(path));
		if (access(path, F_OK) == 0) {
			first_line(path, reason, sizeof(reason));
			p_note(f, "skip", "Skipped: %s",
			       reason[0] ? reason : "(no reason given)");
		} else {
			for (k = 0; k < 4 && h->files[k]; k++)
				if (sys_exists(c, h->files[k]))
					any = true;
			if (any)
				ev_show(c, h);
			else
				p_note(f, "sub",
				       "No output (the hook did "
				       "not run).");
		}
		snprintf(name, sizeof(name), "%s.err", h->hook);
		sys_path(c, name, path, sizeof(path));
		if (access(path, F_OK) == 0) {
			fprintf(f,
				"<details><summary>sys/%s: problems the "
				"hook reported</summary>\n",
				name);
			pre_file(c, path, HTML_RAW_LINES, NULL);
			fputs("</details>\n", f);
		}
	}
}

/* ---- metadata ---- */

static void json_rows(FILE *f, const char *prefix, const json_t *j, int *rows)
{
	char key[512];

	if (*rows >= HTML_JSON_ROWS)
		return;
	if (json_is_object(j)) {
		const char *k;
		json_t *v;

		json_object_foreach((json_t *)j, k, v)
		{
			snprintf(key, sizeof(key), "%s%s%s", prefix,
				 prefix[0] ? "." : "", k);
			json_rows(f, key, v, rows);
		}
		return;
	}
	if (json_is_array(j)) {
		size_t i;
		json_t *v;

		json_array_foreach(j, i, v)
		{
			snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
			json_rows(f, key, v, rows);
		}
		return;
	}
	fputs("<tr><th>", f);
	html_page_escape(f, prefix);
	fputs("</th><td>", f);
	if (json_is_string(j)) {
		html_page_escape(f, json_string_value(j));
	} else {
		char *s = json_dumps(j,
				     JSON_ENCODE_ANY | JSON_REAL_PRECISION(12));

		html_page_escape(f, s ? s : "?");
		free(s);
	}
	fputs("</td></tr>\n", f);
	(*rows)++;
}

static void section_metadata(struct html_ctx *c)
{
	static const char *const names[] = {"meta.json", "run.json"};
	const json_t *docs[] = {c->in->meta, c->in->run};
	FILE *f = c->f;
	int i;

	fputs("<h2 id=\"metadata\">Metadata</h2>\n", f);
	for (i = 0; i < 2; i++) {
		int rows = 0;

		fprintf(f, "<h3>%s</h3>\n", names[i]);
		if (!docs[i]) {
			p_note(f, "skip", "There is no %s.", names[i]);
			continue;
		}
		fputs("<table class=\"kv\">\n", f);
		json_rows(f, "", docs[i], &rows);
		fputs("</table>\n", f);
		if (rows >= HTML_JSON_ROWS)
			fprintf(f,
				"<p class=\"sub\">(the first %d values; the "
				"rest is in %s)</p>\n",
				HTML_JSON_ROWS, names[i]);
	}
}

int html_write_report(const struct html_input *in, struct err *err)
{
	struct html_ctx c;
	struct atomic_file af;
	char path[PATH_MAX], title[256];
	int rc = 0;

	memset(&c, 0, sizeof(c));
	c.in = in;
	if (snprintf(c.sys, sizeof(c.sys), "%s/sys", in->run_dir) >=
		    (int)sizeof(c.sys) ||
	    snprintf(path, sizeof(path), "%s/report.html", in->run_dir) >=
		    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s: path too long",
			       in->run_dir);
	c.start_epoch_s = plots_run_start(in->meta);
	rc = atomic_file_open(&af, path, err);
	if (rc < 0)
		return rc;
	c.f = af.f;
	snprintf(title, sizeof(title), "oltpmark report%s%s%s%s",
		 in->sum->meta.label[0] ? ": " : "", in->sum->meta.label,
		 in->sum->meta.config[0] ? " / " : "", in->sum->meta.config);
	html_page_begin(c.f, title);
	section_head(&c);
	section_summary(&c);
	section_host(&c);
	section_checks(&c);
	section_cost(&c);
	section_fidelity(&c);
	section_notes(&c);
	section_plots(&c);
	section_evidence(&c);
	section_metadata(&c);
	html_page_end(c.f);
	return atomic_file_close(&af, 0, err);
}
