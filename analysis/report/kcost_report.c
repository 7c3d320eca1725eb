/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcost_report.c - the kernel-cost hook's figures per transaction type in
 * summary.json, summary.txt and report.html (see kcost_report.h).
 */
#include "analysis/report/kcost_report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/common/html_page.h"
#include "src/base/resfile.h"

/* The first line of path into buf ("" when there is none). */
static void first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\r\n")] = '\0';
	fclose(f);
}

int kcost_report_read(const char *run_dir, const struct summary *s,
		      struct kcost_report *out)
{
	char sys[PATH_MAX], path[PATH_MAX];
	struct err err;
	int rc, t;

	memset(out, 0, sizeof(*out));
	for (t = 0; t < TXN_NR; t++)
		out->commits[t] = (double)s->cost_commits[t];
	if (snprintf(sys, sizeof(sys), "%s/sys", run_dir) >= (int)sizeof(sys))
		return 0;
	if (snprintf(path, sizeof(path), "%s/kernel-cost.skipped", sys) <
	    (int)sizeof(path))
		first_line(path, out->skipped, sizeof(out->skipped));
	err_clear(&err);
	rc = kcost_read(sys, &out->t, &err);
	if (rc == -ENOMEM)
		return rc;
	out->bcpu = s->run.bcpu;
	if (rc < 0)
		snprintf(out->error, sizeof(out->error), "%s", err.msg);
	/* kcost_read leaves a zeroed table when it read nothing */
	kcost_bcpu_apply(&out->t, &out->bcpu);
	kcost_agree_check(&out->t, &out->bcpu, &out->agree);
	if (rc == 0)
		kcost_check(&out->t, s->run.server_cpu_s, &out->check);
	return 0;
}

bool kcost_report_any(const struct kcost_report *r)
{
	return r->t.present || r->t.bcpu || r->error[0] || r->skipped[0];
}

/* Whether figure f comes from run.json's schedstat figures. */
static bool sched_fig(int f)
{
	return f == KCOST_FIG_BACKEND_CPU_MS || f == KCOST_FIG_RUNQ_WAIT_MS;
}

/* Figure f of type ty per committed transaction, NAN when its source
   is missing. */
static double fig_of(const struct kcost_report *r, int ty, int f)
{
	if (sched_fig(f) ? !r->t.bcpu : !r->t.present)
		return NAN;
	return kcost_figure(&r->t.row[ty], (enum kcost_figure)f,
			    r->commits[ty]);
}

void kcost_report_free(struct kcost_report *r)
{
	kcost_free(&r->t);
	memset(r, 0, sizeof(*r));
}

/* --- summary.json */

static json_t *type_json(const struct kcost_report *rep, int ty)
{
	const struct kcost_row *r = &rep->t.row[ty];
	double commits = rep->commits[ty];
	json_t *o = json_object(), *top = json_array(), *w;
	size_t i;
	int f;

	if (!o || !top) {
		json_decref(o);
		json_decref(top);
		return NULL;
	}
	json_object_set_new(o, "commits", json_integer((json_int_t)commits));
	json_object_set_new(o, "calls",
			    json_integer((json_int_t)r->v[KCOST_CALLS]));
	for (f = 0; f < KCOST_FIG_NR; f++)
		json_object_set_new(o, kcost_figure_key(f),
				    resfile_real(fig_of(rep, ty, f),
						 kcost_figure_decimals(f) + 3));
	json_object_set_new(o, "backend_txns",
			    json_integer((json_int_t)r->bcpu.txns));
	json_object_set_new(o, "backend_timeslices",
			    resfile_real(r->bcpu.txns
						 ? (double)r->bcpu.slices /
							   (double)r->bcpu.txns
						 : NAN,
					 3));
	json_object_set_new(o, "wait_samples",
			    resfile_real(r->wait_samples, 0));
	for (i = 0; i < r->ntop; i++) {
		w = json_pack("{s:s, s:s, s:o}", "event_type", r->top[i].type,
			      "event", r->top[i].event, "share",
			      resfile_real(r->top[i].share, 4));
		if (w)
			json_array_append_new(top, w);
	}
	json_object_set_new(o, "top_waits", top);
	return o;
}

/* control and other: totals over the interval, no commits of their own */
static json_t *total_json(const struct kcost_row *r)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:I}", "calls",
			 (json_int_t)r->v[KCOST_CALLS], "time_ms",
			 resfile_real(r->v[KCOST_TIME_MS], 3), "user_cpu_s",
			 resfile_real(r->v[KCOST_USER_S], 6), "system_cpu_s",
			 resfile_real(r->v[KCOST_SYSTEM_S], 6), "queries",
			 (json_int_t)r->queries);
}

/* A number, or null when it is not one. */
static json_t *real_or_null(double x, int decimals)
{
	return isfinite(x) ? resfile_real(x, decimals) : json_null();
}

static json_t *cpu_json(const struct kcost_cpu *c)
{
	json_t *o, *bg = json_object();
	size_t i;

	if (!bg)
		return NULL;
	for (i = 0; i < c->nbg; i++)
		json_object_set_new(bg, c->bg[i].name,
				    resfile_real(c->bg[i].cpu_s, 3));
	o = json_pack("{s:o, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
		      "terminals_cpu_s", resfile_real(c->terminals_s, 3),
		      "terminals", (json_int_t)c->terminals, "terminals_new",
		      (json_int_t)c->terminals_new, "terminals_gone",
		      (json_int_t)c->terminals_gone, "sessions_cpu_s",
		      resfile_real(c->sessions_s, 3), "background_cpu_s",
		      resfile_real(c->background_s, 3), "background", bg,
		      "ended_cpu_s", resfile_real(c->ended_s, 3), "total_cpu_s",
		      resfile_real(c->total_s, 3));
	return o;
}

static json_t *check_json(const struct kcost_check *c,
			  const struct kcost_cpu *cpu)
{
	json_t *o = json_pack(
		"{s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:f}",
		"kcost_cpu_s", resfile_real(c->kcost_cpu_s, 3), "other_cpu_s",
		resfile_real(c->other_cpu_s, 3), "compared_with",
		c->whole_server ? "server" : "terminal_backends",
		"backends_cpu_s", real_or_null(c->backends_cpu_s, 3),
		"server_cpu_s", real_or_null(c->server_cpu_s, 3),
		"not_attributed_cpu_s",
		c->known && !c->whole_server ? resfile_real(-c->diff_s, 3)
					     : json_null(),
		"diff_s", real_or_null(c->diff_s, 3), "diff_pct",
		real_or_null(c->diff_pct, 1), "agree",
		c->known ? json_boolean(c->agree) : json_null(),
		"tolerance_pct", KCOST_AGREE_PCT);

	if (o && cpu->present)
		json_object_set_new(o, "processes", cpu_json(cpu));
	return o;
}

/*
 * "backend_cpu": whether run.json had the schedstat figures (or why
 * not), their sum, and the check against the process snapshots.
 */
static json_t *bcpu_json(const struct kcost_report *r)
{
	const struct kcost_agree *a = &r->agree;
	json_t *o = json_object(), *c;

	if (!o)
		return NULL;
	json_object_set_new(o, "measured", json_boolean(r->bcpu.measured));
	json_object_set_new(o, "reason",
			    r->bcpu.measured || !r->bcpu.present
				    ? json_null()
				    : json_string(r->bcpu.reason));
	json_object_set_new(o, "cpu_s", real_or_null(a->schedstat_cpu_s, 3));
	json_object_set_new(
		o, "not_measured",
		r->bcpu.measured
			? json_integer((json_int_t)r->bcpu.t.not_measured)
			: json_null());
	c = json_pack("{s:o, s:o, s:o, s:o, s:o, s:f}", "schedstat_cpu_s",
		      real_or_null(a->schedstat_cpu_s, 3), "backends_cpu_s",
		      real_or_null(a->backends_cpu_s, 3), "diff_s",
		      real_or_null(a->diff_s, 3), "diff_pct",
		      real_or_null(a->diff_pct, 1), "agree",
		      a->known ? json_boolean(a->agree) : json_null(),
		      "tolerance_pct", KCOST_AGREE_PCT);
	json_object_set_new(o, "check", c);
	return o;
}

json_t *kcost_report_json(const struct kcost_report *r)
{
	const struct kcost_table *t = &r->t;
	json_t *o = json_object(), *types, *q;
	size_t i;
	int ty;

	if (!o)
		return NULL;
	if (r->skipped[0])
		json_object_set_new(o, "skipped", json_string(r->skipped));
	if (r->error[0])
		json_object_set_new(o, "error", json_string(r->error));
	json_object_set_new(o, "backend_cpu", bcpu_json(r));
	if (!t->present && !t->bcpu)
		return o;
	types = json_object();
	if (!types) {
		json_decref(o);
		return NULL;
	}
	for (ty = 0; ty < TXN_NR; ty++)
		json_object_set_new(types, txn_type_name(ty), type_json(r, ty));
	json_object_set_new(o, "types", types);
	if (!t->present)
		return o;
	json_object_set_new(o, "start", json_string(t->start_ts));
	json_object_set_new(o, "stop", json_string(t->stop_ts));
	q = json_array();
	if (!q) {
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "control",
			    total_json(&t->row[KCOST_TYPE_CONTROL]));
	json_object_set_new(o, "other", total_json(&t->row[KCOST_TYPE_OTHER]));
	json_object_set_new(o, "cpu_check", check_json(&r->check, &t->cpu));
	json_object_set_new(o, "waits", json_boolean(t->waits));
	json_object_set_new(o, "wait_samples",
			    resfile_real(t->wait_samples, 0));
	json_object_set_new(o, "wait_samples_no_query",
			    resfile_real(t->wait_no_query, 0));
	json_object_set_new(o, "resets", json_integer((json_int_t)t->resets));
	json_object_set_new(o, "bad_lines",
			    json_integer((json_int_t)t->bad_lines));
	for (i = 0; i < t->nmap; i++)
		json_array_append_new(
			q, json_pack("{s:I, s:s, s:I}", "queryid",
				     (json_int_t)t->map[i].queryid, "type",
				     parse_kcost_type_key(t->map[i].type),
				     "calls", (json_int_t)t->map[i].calls));
	json_object_set_new(o, "queries", q);
	return o;
}

/* --- summary.txt */

/* A figure in width w, "-" when unknown. */
static void put_fig(FILE *f, int w, double x, int decimals)
{
	if (isfinite(x))
		fprintf(f, " %*.*f", w, decimals, x);
	else
		fprintf(f, " %*s", w, "-");
}

/* "walwriter 1.20 s, checkpointer 0.50 s" into buf. */
static void bg_list(const struct kcost_cpu *c, char *buf, size_t size)
{
	size_t i, n = 0;
	int w;

	buf[0] = '\0';
	for (i = 0; i < c->nbg && n < size; i++) {
		w = snprintf(buf + n, size - n, "%s%s %.2f s", i ? ", " : "",
			     c->bg[i].name, c->bg[i].cpu_s);
		if (w < 0 || (size_t)w >= size - n) {
			buf[n] = '\0';
			break;
		}
		n += (size_t)w;
	}
}

/*
 * A check's verdict and its tolerance, the same words for both checks:
 * in html a span the style sheet colours, in text DISAGREE in capitals so
 * that it stands out in summary.txt.
 */
static void put_verdict(FILE *f, bool agree, bool html)
{
	if (html)
		fprintf(f, "<span class=\"%s\">%s</span>", agree ? "ok" : "bad",
			agree ? "agree" : "disagree");
	else
		fputs(agree ? "agree" : "DISAGREE", f);
	fprintf(f, " (tolerance %.0f%s)", KCOST_AGREE_PCT,
		html ? "&nbsp;%" : " %");
}

/*
 * The check's lines, in text (html false) or as html paragraphs: the two
 * sides and their difference, then where the rest of the server's CPU
 * went.
 */
static void write_check(const struct kcost_check *c,
			const struct kcost_cpu *cpu, bool html, FILE *f)
{
	const char *pct = html ? "&nbsp;%" : " %";
	char bg[512];

	fputs(html ? "<p>" : "  ", f);
	if (!c->known) {
		fprintf(f,
			"CPU check: statements %.3f s; neither the terminals' "
			"backends' CPU (kcost_procs.*.csv) nor the server's "
			"(run.json cost.server_cpu_s) was measured%s\n",
			c->kcost_cpu_s, html ? ".</p>" : "");
		return;
	}
	fprintf(f,
		"CPU check: the workload's statements %.3f s, %s %.3f s, "
		"difference %+.3f s (%+.1f%s): ",
		c->kcost_cpu_s,
		c->whole_server ? "the whole server (run.json cost; the "
				  "processes' CPU was not recorded)"
				: "the terminals' backends",
		c->backends_cpu_s, c->diff_s, c->diff_pct, pct);
	put_verdict(f, c->agree, html);
	if (!c->whole_server)
		fprintf(f,
			"; not attributed to a statement (commit, parse, "
			"bind, the client protocol): %.3f s",
			-c->diff_s);
	fputs(html ? ".</p>\n<p>" : "\n  ", f);
	if (!cpu->present) {
		fprintf(f, "Server processes: %.3f s (run.json)%s\n",
			c->server_cpu_s, html ? ".</p>" : "");
		return;
	}
	bg_list(cpu, bg, sizeof(bg));
	fprintf(f,
		"Server processes, same interval: terminals' backends %.3f s "
		"(%zu, %zu new, %zu ended), background %.3f s (",
		cpu->terminals_s, cpu->terminals, cpu->terminals_new,
		cpu->terminals_gone, cpu->background_s);
	if (html)
		html_page_escape(f, bg);
	else
		fputs(bg, f);
	fprintf(f,
		"), other sessions %.3f s, ended processes %.3f s; all "
		"%.3f s",
		cpu->sessions_s, cpu->ended_s, cpu->total_s);
	if (isfinite(c->server_cpu_s))
		fprintf(f, " (run.json, its own window: %.3f s)",
			c->server_cpu_s);
	fputs(html ? ".</p>\n" : "\n", f);
	if (c->other_cpu_s > 0)
		fprintf(f,
			"%sStatements of no type (hooks, other sessions): "
			"%.3f s, not in the check%s\n",
			html ? "<p class=\"sub\">" : "  ", c->other_cpu_s,
			html ? ".</p>" : "");
}

/*
 * The check of the schedstat figures against the process snapshots, in
 * text or html, or why it cannot be made.
 */
static void write_agree(const struct kcost_report *r, bool html, FILE *f)
{
	const struct kcost_agree *a = &r->agree;
	const char *pct = html ? "&nbsp;%" : " %";

	fputs(html ? "<p>" : "  ", f);
	if (!r->bcpu.measured) {
		fputs("Backend CPU per transaction not measured: ", f);
		if (html)
			html_page_escape(f, r->bcpu.present ? r->bcpu.reason
							    : "no backend_cpu "
							      "in run.json");
		else
			fputs(r->bcpu.present ? r->bcpu.reason
					      : "no backend_cpu in run.json",
			      f);
		fputs(html ? "</p>\n" : "\n", f);
		return;
	}
	if (!a->known) {
		fprintf(f,
			"CPU check (backends): the transactions' backend CPU "
			"(schedstat) %.3f s; the terminals' backends' CPU "
			"(kcost_procs.*.csv) was not recorded%s\n",
			a->schedstat_cpu_s, html ? ".</p>" : "");
		return;
	}
	fprintf(f,
		"CPU check (backends): the transactions' backend CPU "
		"(schedstat) %.3f s, the terminals' backends (kcost_procs) "
		"%.3f s, difference %+.3f s (%+.1f%s): ",
		a->schedstat_cpu_s, a->backends_cpu_s, a->diff_s, a->diff_pct,
		pct);
	put_verdict(f, a->agree, html);
	if (r->bcpu.t.not_measured)
		fprintf(f, "; %llu transactions not measured",
			(unsigned long long)r->bcpu.t.not_measured);
	fputs(html ? ".</p>\n" : "\n", f);
}

/* Width of column k of the text table. */
static int col_width(int k)
{
	int w = k < KCOST_FIG_READ_BYTES ? 11 : 15;
	int n = (int)strlen(kcost_figure_title(k));

	return n > w ? n : w;
}

void kcost_report_write_text(const struct kcost_report *r, FILE *f)
{
	const struct kcost_table *t = &r->t;
	size_t i;
	int ty, k;

	if (!kcost_report_any(r))
		return;
	/* Without the hook's files the figures are the driver's alone. */
	fprintf(f, "\nKernel cost per committed transaction (%s)\n",
		r->t.present || r->skipped[0] || r->error[0]
			? "kernel-cost hook"
			: "backend schedstat");
	if (r->skipped[0])
		fprintf(f, "  skipped: %s\n", r->skipped);
	if (r->error[0])
		fprintf(f, "  not read: %s\n", r->error);
	if (!t->present && !t->bcpu)
		return;
	if (t->present)
		fprintf(f, "  interval %s to %s\n", t->start_ts, t->stop_ts);
	else
		fputs("  backend CPU and run-queue wait only (run.json, "
		      "schedstat): no kernel-cost files\n",
		      f);
	fprintf(f, "  %-13s %8s", "type", "commits");
	for (k = 0; k < KCOST_FIG_NR; k++)
		fprintf(f, " %*s", col_width(k), kcost_figure_title(k));
	fputc('\n', f);
	for (ty = 0; ty < TXN_NR; ty++) {
		fprintf(f, "  %-13s %8.0f", txn_type_name(ty), r->commits[ty]);
		for (k = 0; k < KCOST_FIG_NR; k++)
			put_fig(f, col_width(k), fig_of(r, ty, k),
				kcost_figure_decimals(k));
		fputc('\n', f);
	}
	if (!t->present) {
		write_agree(r, false, f);
		return;
	}
	for (ty = KCOST_TYPE_CONTROL; ty <= KCOST_TYPE_OTHER; ty++) {
		const struct kcost_row *x = &t->row[ty];

		fprintf(f,
			"  %s: %.0f calls, %.3f s server time, %.3f s CPU "
			"(not per transaction)\n",
			ty == KCOST_TYPE_CONTROL ? "BEGIN/COMMIT/ROLLBACK"
						 : "other statements",
			x->v[KCOST_CALLS], x->v[KCOST_TIME_MS] / 1000.0,
			x->v[KCOST_USER_S] + x->v[KCOST_SYSTEM_S]);
	}
	if (t->waits) {
		for (ty = 0; ty < TXN_NR; ty++) {
			const struct kcost_row *x = &t->row[ty];

			fprintf(f, "  waits %-13s %6.0f samples",
				txn_type_name(ty), x->wait_samples);
			for (i = 0; i < x->ntop; i++)
				fprintf(f, "%s %s:%s %.0f %%", i ? "," : ":",
					x->top[i].type, x->top[i].event,
					100.0 * x->top[i].share);
			fputc('\n', f);
		}
		fprintf(f,
			"  wait samples with no query id: %.0f of %.0f "
			"(background processes, idle sessions)\n",
			t->wait_no_query, t->wait_samples);
	} else {
		fputs("  no wait profile (pg_wait_sampling not loaded)\n", f);
	}
	write_agree(r, false, f);
	write_check(&r->check, &t->cpu, false, f);
}

/* --- report.html */

static void html_fig(FILE *f, double x, int decimals)
{
	if (isfinite(x))
		fprintf(f, "<td>%.*f</td>", decimals, x);
	else
		fputs("<td>&ndash;</td>", f);
}

void kcost_report_write_html(const struct kcost_report *r, FILE *f)
{
	const struct kcost_table *t = &r->t;
	const struct kcost_check *c = &r->check;
	size_t i;
	int ty, k;

	if (!kcost_report_any(r))
		return;
	fputs("<h2 id=\"kernel-cost\">Kernel cost per transaction type</h2>\n",
	      f);
	if (r->skipped[0]) {
		fputs("<p class=\"skip\">kernel-cost hook skipped: ", f);
		html_page_escape(f, r->skipped);
		fputs("</p>\n", f);
	}
	if (r->error[0]) {
		fputs("<p class=\"bad\">Not read: ", f);
		html_page_escape(f, r->error);
		fputs("</p>\n", f);
	}
	if (!t->present && !t->bcpu)
		return;
	if (t->present) {
		fputs("<p class=\"sub\">Per committed transaction (mix.csv, "
		      "run.json's cost window), from pg_stat_statements and "
		      "pg_stat_kcache between ",
		      f);
		html_page_escape(f, t->start_ts);
		fputs(" and ", f);
		html_page_escape(f, t->stop_ts);
		fputs(". Off-CPU: server time less user and system CPU.", f);
	} else {
		fputs("<p class=\"sub\">No kernel-cost files: the backends' "
		      "figures of run.json only.",
		      f);
	}
	fputs(" Backend CPU and run-queue wait: the backend's "
	      "/proc/PID/schedstat from one send to the next, per committed "
	      "transaction measured (commit and client protocol "
	      "included).</p>\n",
	      f);
	fputs("<table>\n<tr><th class=\"l\">type</th><th>commits</th>", f);
	for (k = 0; k < KCOST_FIG_NR; k++)
		fprintf(f, "<th>%s</th>", kcost_figure_title(k));
	fputs("<th class=\"l\">top waits (share of its samples)</th></tr>\n",
	      f);
	for (ty = 0; ty < TXN_NR; ty++) {
		const struct kcost_row *x = &t->row[ty];

		fprintf(f, "<tr><td class=\"l\">%s</td><td>%.0f</td>",
			txn_type_name(ty), r->commits[ty]);
		for (k = 0; k < KCOST_FIG_NR; k++)
			html_fig(f, fig_of(r, ty, k), kcost_figure_decimals(k));
		fputs("<td class=\"l\">", f);
		for (i = 0; i < x->ntop; i++) {
			fputs(i ? ", " : "", f);
			html_page_escape(f, x->top[i].type);
			fputc(':', f);
			html_page_escape(f, x->top[i].event);
			fprintf(f, " %.0f&nbsp;%%", 100.0 * x->top[i].share);
		}
		if (!x->ntop)
			fputs(!t->present ? "&ndash;"
			      : t->waits  ? "none sampled"
					  : "no wait profile",
			      f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	write_agree(r, true, f);
	if (t->present)
		write_check(c, &t->cpu, true, f);
}
