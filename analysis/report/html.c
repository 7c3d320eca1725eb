/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.c - report.html (see html.h): one static page, no script.
 *
 * The page is written top to bottom in the order a reader needs it:
 * what ran and whether it is complete, the figures and checks, the
 * plots, then the system evidence hook by hook (html_evidence.c) and
 * the metadata. The order is one table, sections[] at the end; the
 * small writers every section uses are in html_ctx.c.
 */
#include "analysis/report/html.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/common/pagelink.h"
#include "analysis/report/devices.h"
#include "analysis/report/fidelity.h"
#include "analysis/report/kcost_report.h"
#include "analysis/report/html_ctx.h"
#include "analysis/report/html_evidence.h"
#include "src/base/atomic_file.h"

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
	if (c->in->compare_link) {
		/* back to the experiment's scores (docs/report.md) */
		fputs("<p class=\"sub\">Compared with the other runs in "
		      "<a class=\"compare\" href=\"",
		      f);
		pagelink_href(f, c->in->compare_link);
		fputs("\">", f);
		html_page_escape(f, c->in->compare_link);
		fputs("</a></p>\n", f);
	}
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
	html_ctx_count(f, r->blks_hit);
	fputs(" hits, ", f);
	html_ctx_count(f, r->blks_read);
	fputs(" blocks read", f);
	if (isfinite(s->blks_read_per_s))
		fprintf(f, ", %.2f/s", s->blks_read_per_s);
	fputs("); checkpoints ", f);
	html_ctx_count(f, r->checkpoints_timed);
	fputs(" timed, ", f);
	html_ctx_count(f, r->checkpoints_req);
	fputs(" requested, ", f);
	html_ctx_count(f, r->buffers_checkpoint);
	fputs(" buffers written; ", f);
	html_ctx_count(f, r->xact_commit);
	fputs(" commits, ", f);
	html_ctx_count(f, r->xact_rollback);
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
		html_ctx_td_num(f, k->start_s, 3);
		html_ctx_td_num(f, k->end_s, 3);
		html_ctx_td_num(f, k->end_s - k->start_s, 3);
		html_ctx_td_text(f,
				 summary_ckpt_in_window(s, k) ? "yes" : "no");
		html_ctx_td_text(f, k->kind);
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
	html_ctx_num(f, s->notpm, 2);
	fputs(s->meta.simulated
		      ? "</b> New-Orders replayed by the iosim driver per "
			"minute: not a database's throughput (docs/iosim.md)"
			"</td></tr>\n<tr><th>Total TPM</th><td>"
		      : "</b> New-Orders completed (committed or rolled back) "
			"per minute</td></tr>\n<tr><th>Total TPM</th><td>",
	      f);
	html_ctx_num(f, s->tpm_total, 2);
	fputs(" all types, committed or rolled back</td></tr>\n"
	      "<tr><th>Window</th><td>",
	      f);
	fprintf(f, "%.3f .. %.3f s (%.3f s measured; start from ",
		s->start_ms / 1000.0, s->end_ms / 1000.0, s->measured_s);
	html_page_escape(f, s->start_from);
	fputs(", end from ", f);
	html_page_escape(f, s->end_from);
	fputs(")</td></tr>\n<tr><th>Ramp-up</th><td>", f);
	html_ctx_num(f, r->ramp_up_s, 3);
	fputs(" s</td></tr>\n<tr><th>Steady state</th><td>", f);
	html_ctx_verdict(f, s->steady.steady, "steady", "NOT steady");
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
		html_ctx_count(f, r->warehouses);
		fputs(" warehouses, ", f);
		html_ctx_count(f, r->terminals);
		fputs(" terminals, ", f);
		html_ctx_count(f, r->connections);
		fputs(" connections, keying/think ", f);
		html_page_escape(f, r->keying_think[0] ? r->keying_think : "?");
		fputs(", transactions as ", f);
		html_page_escape(f, r->tx_mode[0] ? r->tx_mode : "?");
		fputs("; connections lost ", f);
		html_ctx_count(f, r->connections_lost);
		fputs(", reconnects ", f);
		html_ctx_count(f, r->reconnects);
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
		html_ctx_td_text(f, summary_type_title((enum txn_type)t));
		html_ctx_td_u64(f, ty->count);
		html_ctx_td_num(f, s->mix[t].value, 2);
		html_ctx_td_u64(f, ty->ok);
		html_ctx_td_u64(f, ty->rollback);
		html_ctx_td_u64(f, ty->error);
		if (retries < 0)
			fputs("<td>unknown</td>", f);
		else
			fprintf(f, "<td>%lld</td>", (long long)retries);
		if (ty->count == 0) {
			fputs("<td colspan=\"8\" class=\"l\">none</td></tr>\n",
			      f);
			continue;
		}
		html_ctx_td_num(f, hist_mean(&ty->response) / 1000.0, 2);
		for (i = 0; i < 4; i++)
			html_ctx_td_num(
				f,
				(double)hist_percentile(&ty->response, pct[i]) /
					1000.0,
				2);
		html_ctx_td_num(f, (double)ty->response.max / 1000.0, 2);
		html_ctx_td_num(f, hist_mean(&ty->service) / 1000.0, 2);
		html_ctx_td_num(
			f, (double)hist_percentile(&ty->service, 90) / 1000.0,
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
		html_ctx_note(f, "note",
			      "no procstat sample covers the window");
		return;
	}
	fputs("<table>\n<tr>", f);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		fprintf(f, "<th>%s %%</th>", kinds[i].name);
	fputs("</tr>\n<tr>", f);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		html_ctx_td_num(f, 100 * h->window.share[kinds[i].state], 2);
	fputs("</tr>\n</table>\n", f);
	html_ctx_note(
		f, "note",
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
		html_ctx_td_text(f,
				 blocks_schedule_arm_name((enum blocks_arm)a));
		html_ctx_td_u64(f, n[a]);
		html_ctx_td_num(f, n[a] ? notpm[a] / (double)n[a] : NAN, 1);
		html_ctx_td_num(f, ns[a] ? 100 * steal[a] / (double)ns[a] : NAN,
				2);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A block run's blocks: per arm, then every block (folded). */
static void table_blocks(FILE *f, const struct blockrun *b)
{
	size_t i;

	fputs("<h3>Blocks (blocks.csv)</h3>\n", f);
	html_ctx_note(
		f, "note",
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
		html_ctx_td_text(f, blocks_schedule_arm_name(k->row.arm));
		if (k->win.end_s > k->win.start_s)
			fprintf(f, "<td>%.1f&ndash;%.1f</td>", k->win.start_s,
				k->win.end_s);
		else
			fputs("<td>&ndash;</td>", f);
		html_ctx_td_num(f, k->row.switch_s, 3);
		fprintf(f, "<td>%d</td>", k->row.status);
		html_ctx_td_num(f, k->notpm, 1);
		html_ctx_td_num(f, isfinite(k->steal) ? 100 * k->steal : NAN,
				2);
		html_ctx_td_text(f, blocks_schedule_use_name(k->win.use));
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
		html_ctx_td_verdict(f, within);
}

static void section_checks(struct html_ctx *c)
{
	const struct summary *s = c->in->sum;
	FILE *f = c->f;
	int t, i;

	fputs("<h2 id=\"checks\">Checks</h2>\n", f);
	fputs("<h3>Mix against the TPC-C minimums (5.2.3): ", f);
	html_ctx_verdict(f, s->mix_ok, "ok", "FAILED");
	fputs("</h3>\n<table>\n<tr><th class=\"l\">type</th><th>share %</th>"
	      "<th>minimum %</th><th class=\"l\">within</th></tr>\n",
	      f);
	for (t = 0; t < TXN_NR; t++) {
		if (!s->mix[t].applies)
			continue;
		fputs("<tr>", f);
		html_ctx_td_text(f, summary_type_title((enum txn_type)t));
		html_ctx_td_num(f, s->mix[t].value, 2);
		html_ctx_td_num(f, s->mix[t].limit, 1);
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
	html_ctx_verdict(f, s->rt_ok, "ok", "FAILED");
	fputs("</h3>\n<table>\n<tr><th class=\"l\">type</th><th>p90 ms</th>"
	      "<th>limit ms</th><th class=\"l\">within</th></tr>\n",
	      f);
	for (t = 0; t < TXN_NR; t++) {
		fputs("<tr>", f);
		html_ctx_td_text(
			f, t == TXN_DELIVERY
				   ? "Delivery (completion)"
				   : summary_type_title((enum txn_type)t));
		html_ctx_td_num(f, s->rt[t].value, 2);
		html_ctx_td_num(f, s->rt[t].limit, 0);
		html_ctx_td_verdict(f, s->rt[t].within);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<h3>Input bounds (5.5.1.5&ndash;6, from run.json): ",
	      f);
	html_ctx_verdict(f, s->bounds_ok, "ok", "FAILED");
	fputs("</h3>\n<table>\n<tr><th class=\"l\">input</th><th>value</th>"
	      "<th>min</th><th>max</th><th class=\"l\">within</th></tr>\n",
	      f);
	for (i = 0; i < SUM_BOUND_NR; i++) {
		const struct sum_bound *b = &s->bounds[i];

		fputs("<tr>", f);
		html_ctx_td_text(f, b->label);
		if (!b->applies) {
			fputs("<td colspan=\"4\" class=\"l\">n/a (one "
			      "warehouse)</td></tr>\n",
			      f);
			continue;
		}
		html_ctx_td_num(f, b->value, 2);
		html_ctx_td_num(f, b->min, 2);
		html_ctx_td_num(f, b->max, 2);
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
	html_ctx_td_num(f, r->client_cpu_s, 2);
	html_ctx_td_num(f, n > 0 ? r->client_cpu_s * 1e6 / n : NAN, 2);
	fputs("</tr>\n<tr><td class=\"l\">server</td>", f);
	html_ctx_td_num(f, r->server_cpu_s, 2);
	html_ctx_td_num(f, n > 0 ? r->server_cpu_s * 1e6 / n : NAN, 2);
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
		html_ctx_note(c->f, "unk", "Fidelity not shown: %s", err.msg);
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
		html_ctx_note(f, "skip", "Plots skipped: %s.",
			      p && p->why_not[0] ? p->why_not
						 : "not asked for");
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
			/* NOTPM full width, the rest two by two: each
			   drawn at that size (plots.c) */
			fprintf(f, "<figure%s><img src=\"plots/",
				e->wide ? "" : " class=\"half\"");
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
		html_ctx_note(f, "skip",
			      "No plot could be drawn (see the notes).");
}

/* The kernel-cost hook per transaction type (kcost_report.h); read here. */
static void section_kcost(struct html_ctx *c)
{
	struct kcost_report r;

	if (kcost_report_read(c->in->run_dir, c->in->sum, &r) == 0)
		kcost_report_write_html(&r, c->f);
	kcost_report_free(&r);
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
			html_ctx_note(f, "skip", "There is no %s.", names[i]);
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

/* ---- the page ---- */

/*
 * report.html's sections, top to bottom. Adding a section is a row here
 * and its function (a static one above, or in a file of its own
 * declaring it in a header of this module, as html_evidence.h does).
 */
static void (*const sections[])(struct html_ctx *c) = {
	section_head,  section_summary,	      section_host,	section_checks,
	section_cost,  section_kcost,	      section_fidelity, section_notes,
	section_plots, html_evidence_section, section_metadata,
};

int html_write_report(const struct html_input *in, struct err *err)
{
	struct html_ctx c;
	struct atomic_file af;
	char path[PATH_MAX], title[256];
	size_t i;
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
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		sections[i](&c);
	html_page_end(c.f);
	return atomic_file_close(&af, 0, err);
}
