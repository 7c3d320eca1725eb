/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_read.c - what a summary is made from (summary.h): run.json and
 * meta.json read into struct sum_run and struct sum_meta, and the rows
 * of mix.csv counted into the window's accumulators (per-type counts and
 * histograms, the per-10-s New-Orders, the response-time distributions
 * of the second pass), plus the notes, warnings and checkpoints handed
 * in. summary_compute.c turns them into figures.
 */
#include "analysis/report/summary.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/timeseries.h"
#include "src/base/resfile.h"

/* ---- run.json and meta.json ---- */

/* The getters of src/base/resfile.h, under the names used below. */
static double jnum(const json_t *obj, const char *key)
{
	return resfile_get_number(obj, key);
}

static int64_t jint(const json_t *obj, const char *key)
{
	return resfile_get_count(obj, key);
}

/* A server counter: -1 when absent, null, or negative (unknown). */
static int64_t jcounter(const json_t *obj, const char *key)
{
	return resfile_get_count(obj, key);
}

/* A yes/no: 1, 0, or -1 when absent or something else. */
static int jtruth(const json_t *obj, const char *key)
{
	return resfile_get_truth(obj, key);
}

static void jstr(const json_t *obj, const char *key, char *out, size_t size)
{
	const char *v = resfile_get_string(obj, key);

	snprintf(out, size, "%s", v ? v : "");
}

void summary_run_unknown(struct sum_run *out)
{
	int t;

	memset(out, 0, sizeof(*out));
	out->partial = true;
	out->ramp_up_s = out->duration_s = out->elapsed_s = NAN;
	out->warehouses = out->terminals = out->connections = -1;
	for (t = 0; t < TXN_NR; t++) {
		out->retries[t] = -1;
		out->counts[t][TXN_STATUS_OK] = -1;
		out->counts[t][TXN_STATUS_ROLLBACK] = -1;
		out->counts[t][TXN_STATUS_ERROR] = -1;
	}
	out->new_orders = out->rollbacks_requested = out->order_lines = -1;
	out->remote_order_lines = out->payments = out->remote_payments = -1;
	out->payments_by_name = out->order_status = -1;
	out->order_status_by_name = out->deliveries_queued = -1;
	out->deliveries_completed = out->deliveries_not_done = -1;
	out->delivery_skipped_districts = out->deliveries_with_skips = -1;
	out->connections_lost = out->reconnects = -1;
	out->checkpoints = -1;
	out->blks_hit = out->blks_read = -1;
	out->xact_commit = out->xact_rollback = -1;
	out->checkpoints_timed = out->checkpoints_req = -1;
	out->buffers_checkpoint = -1;
	out->cost_start_s = out->cost_end_s = NAN;
	out->client_cpu_s = out->server_cpu_s = NAN;
	out->server_pid = -1;
}

int summary_run_from_json(const json_t *run, struct sum_run *out,
			  struct err *err)
{
	const json_t *counts, *in, *cost, *stats;
	int rc, t;

	summary_run_unknown(out);
	rc = resfile_check(run, RESFILE_RUN, "run.json", err);
	if (rc < 0)
		return rc;
	out->present = true;
	out->partial = jtruth(run, "partial") != 0;
	jstr(run, "end_reason", out->end_reason, sizeof(out->end_reason));
	out->ramp_up_s = jnum(run, "ramp_up_s");
	out->duration_s = jnum(run, "duration_s");
	out->elapsed_s = jnum(run, "elapsed_s");
	out->warehouses = jint(run, "warehouses");
	out->terminals = jint(run, "terminals");
	out->connections = jint(run, "connections");
	jstr(run, "keying_think", out->keying_think, sizeof(out->keying_think));
	jstr(run, "tx_mode", out->tx_mode, sizeof(out->tx_mode));
	counts = json_object_get(run, "counts");
	for (t = 0; t < TXN_NR; t++) {
		const json_t *c = json_object_get(
			counts, txn_type_name((enum txn_type)t));

		out->retries[t] = jint(c, "retries");
		out->counts[t][TXN_STATUS_OK] = jint(c, "ok");
		out->counts[t][TXN_STATUS_ROLLBACK] = jint(c, "rollback");
		out->counts[t][TXN_STATUS_ERROR] = jint(c, "error");
	}
	in = json_object_get(run, "inputs");
	out->new_orders = jint(in, "new_orders");
	out->rollbacks_requested = jint(in, "rollbacks_requested");
	out->order_lines = jint(in, "order_lines");
	out->remote_order_lines = jint(in, "remote_order_lines");
	out->payments = jint(in, "payments");
	out->remote_payments = jint(in, "remote_payments");
	out->payments_by_name = jint(in, "payments_by_name");
	out->order_status = jint(in, "order_status");
	out->order_status_by_name = jint(in, "order_status_by_name");
	out->deliveries_queued = jint(in, "deliveries_queued");
	out->deliveries_completed = jint(in, "deliveries_completed");
	out->deliveries_not_done = jint(in, "deliveries_not_done");
	out->delivery_skipped_districts =
		jint(in, "delivery_skipped_districts");
	out->deliveries_with_skips = jint(in, "deliveries_with_skips");
	out->connections_lost = jint(run, "connections_lost");
	out->reconnects = jint(run, "reconnects");
	stats = json_object_get(run, "server_stats");
	out->blks_hit = jcounter(stats, "blks_hit");
	out->blks_read = jcounter(stats, "blks_read");
	out->xact_commit = jcounter(stats, "xact_commit");
	out->xact_rollback = jcounter(stats, "xact_rollback");
	out->checkpoints_timed = jcounter(stats, "checkpoints_timed");
	out->checkpoints_req = jcounter(stats, "checkpoints_req");
	out->buffers_checkpoint = jcounter(stats, "buffers_checkpoint");
	if (out->checkpoints_timed >= 0 && out->checkpoints_req >= 0)
		out->checkpoints =
			out->checkpoints_timed + out->checkpoints_req;
	cost = json_object_get(run, "cost");
	out->cost_start_s = jnum(cost, "window_start_s");
	out->cost_end_s = jnum(cost, "window_end_s");
	out->client_cpu_s = jnum(cost, "client_cpu_s");
	out->server_cpu_s = jnum(cost, "server_cpu_s");
	out->server_pid = jint(cost, "server_pid");
	kcost_bcpu_from_json(json_object_get(run, "backend_cpu"), &out->bcpu);
	return 0;
}

/*
 * Where the terminals ran (notes.terminals of run/oltpmark-run: other-host
 * with --sut, whose sut.* and driver.* notes name both hosts; same-host).
 */
static void terminals_text(const json_t *notes, char *out, size_t size)
{
	char host[64], kernel[64], cpus[16], dhost[64];

	jstr(notes, "terminals", out, size);
	if (strcmp(out, "same-host") == 0) {
		snprintf(out, size, "on the kernel under test");
	} else if (strcmp(out, "other-host") == 0) {
		jstr(notes, "sut.host", host, sizeof(host));
		jstr(notes, "sut.kernel", kernel, sizeof(kernel));
		jstr(notes, "sut.cpus", cpus, sizeof(cpus));
		jstr(notes, "driver.host", dhost, sizeof(dhost));
		snprintf(out, size,
			 "on another host (%s); SUT %s, kernel %s, %s CPUs",
			 dhost[0] ? dhost : "?", host[0] ? host : "?",
			 kernel[0] ? kernel : "?", cpus[0] ? cpus : "?");
	}
}

void summary_meta_unknown(struct sum_meta *out)
{
	memset(out, 0, sizeof(*out));
	out->diagnostic = -1;
	out->noncached_enforced = -1;
	out->opt_ramp_up_s = NAN;
}

int summary_meta_from_json(const json_t *meta, struct sum_meta *out,
			   struct err *err)
{
	const json_t *opts, *notes;
	int rc;

	summary_meta_unknown(out);
	rc = resfile_check(meta, RESFILE_META, "meta.json", err);
	if (rc < 0)
		return rc;
	out->present = true;
	jstr(meta, "label", out->label, sizeof(out->label));
	jstr(meta, "config", out->config, sizeof(out->config));
	out->simulated =
		json_is_string(json_object_get(meta, "driver")) &&
		strcmp(json_string_value(json_object_get(meta, "driver")),
		       "iosim") == 0;
	opts = json_object_get(meta, "options");
	notes = json_object_get(meta, "notes");
	/* the rule compare uses too; a meta.json without a mark is not
	   a diagnostic run */
	out->diagnostic = resfile_meta_diagnostic(meta);
	out->noncached_enforced = jtruth(notes, "noncached_enforced");
	out->opt_ramp_up_s = jnum(opts, "ramp-up");
	terminals_text(notes, out->terminals, sizeof(out->terminals));
	return 0;
}

bool summary_run_measured(const struct sum_run *run, int64_t *start_ms,
			  int64_t *end_ms)
{
	double end_s;

	if (!run->present || !isfinite(run->ramp_up_s) ||
	    !isfinite(run->duration_s) || run->ramp_up_s < 0 ||
	    run->duration_s <= 0)
		return false;
	end_s = run->ramp_up_s + run->duration_s;
	if (isfinite(run->elapsed_s) && run->elapsed_s < end_s)
		end_s = run->elapsed_s;
	*start_ms = llround(run->ramp_up_s * 1000.0);
	*end_ms = llround(end_s * 1000.0);
	return *end_ms > *start_ms;
}

/* ---- accumulation ---- */

int summary_init(struct summary *s, const struct sum_run *run,
		 const struct sum_meta *meta, int64_t start_ms, int64_t end_ms,
		 const char *start_from, const char *end_from, struct err *err)
{
	int64_t m_start, m_end;
	int t;

	memset(s, 0, sizeof(*s));
	s->run = *run;
	s->meta = *meta;
	s->start_ms = start_ms;
	s->end_ms = end_ms;
	s->open_end = end_ms == SUM_OPEN_END;
	s->start_from = start_from;
	s->end_from = end_from;
	if (summary_run_measured(run, &m_start, &m_end))
		s->whole_measured = start_ms == m_start && end_ms == m_end;
	s->first_t_ms = s->last_t_ms = -1;
	s->buffer_hit_ratio = s->blks_read_per_s = NAN;
	for (t = 0; t < TXN_NR; t++) {
		if (hist_init(&s->type[t].response, HIST_BITS_DEFAULT) < 0 ||
		    hist_init(&s->type[t].service, HIST_BITS_DEFAULT) < 0) {
			summary_free(s);
			return err_set(err, -ENOMEM, "summary: out of memory");
		}
	}
	return 0;
}

void summary_free(struct summary *s)
{
	int t;

	for (t = 0; t < TXN_NR; t++) {
		hist_free(&s->type[t].response);
		hist_free(&s->type[t].service);
	}
	free(s->steady_no);
	s->steady_no = NULL;
	s->steady_n = s->steady_cap = 0;
	checkpoints_free(&s->ckpts);
	s->ckpts_known = false;
}

static bool in_window(const struct summary *s, int64_t t_ms)
{
	return t_ms >= s->start_ms && t_ms < s->end_ms;
}

static int steady_count(struct summary *s, int64_t t_ms, struct err *err)
{
	size_t k = (size_t)((t_ms - s->start_ms) / SUM_STEADY_INTERVAL_MS);

	if (k >= s->steady_cap) {
		size_t cap = s->steady_cap ? s->steady_cap : 64;
		uint64_t *p;

		while (cap <= k)
			cap *= 2;
		p = realloc(s->steady_no, cap * sizeof(*p));
		if (!p)
			return err_set(err, -ENOMEM, "summary: out of memory");
		memset(p + s->steady_cap, 0,
		       (cap - s->steady_cap) * sizeof(*p));
		s->steady_no = p;
		s->steady_cap = cap;
	}
	if (k >= s->steady_n)
		s->steady_n = k + 1;
	s->steady_no[k]++;
	return 0;
}

int summary_add(struct summary *s, const struct mixcsv_row *row,
		struct err *err)
{
	struct sum_type *ty;

	if (row->t_ms > TS_MAX_T_MS)
		return err_set(err, -ERANGE,
			       "t_ms %lld is more than 31 days after the start",
			       (long long)row->t_ms);
	s->rows++;
	s->file_counts[row->type][row->status]++;
	if (s->first_t_ms < 0 || row->t_ms < s->first_t_ms)
		s->first_t_ms = row->t_ms;
	if (row->t_ms > s->last_t_ms)
		s->last_t_ms = row->t_ms;
	if (isfinite(s->run.cost_start_s) && isfinite(s->run.cost_end_s) &&
	    row->t_ms >= llround(s->run.cost_start_s * 1000.0) &&
	    row->t_ms < llround(s->run.cost_end_s * 1000.0)) {
		s->cost_rows++;
		if (row->status == TXN_STATUS_OK)
			s->cost_commits[row->type]++;
	}
	if (!in_window(s, row->t_ms))
		return 0;
	s->rows_in_window++;
	ty = &s->type[row->type];
	ty->count++;
	switch (row->status) {
	case TXN_STATUS_OK:
		ty->ok++;
		break;
	case TXN_STATUS_ROLLBACK:
		ty->rollback++;
		break;
	default:
		ty->error++;
		break;
	}
	hist_record(&ty->response, row->response_us);
	hist_record(&ty->service, row->service_us);
	if (row->type == TXN_NEW_ORDER && row->status != TXN_STATUS_ERROR)
		return steady_count(s, row->t_ms, err);
	return 0;
}

void summary_prepare_dist(struct summary *s)
{
	int t;

	for (t = 0; t < TXN_NR; t++) {
		struct sum_type *ty = &s->type[t];
		uint64_t p90 = hist_percentile(&ty->response, 90.0);

		/* a zero p90 (all answers under 1 us) still needs a range;
		   absurd values are capped so that v * buckets cannot
		   overflow */
		if (p90 < 1)
			p90 = 1;
		if (p90 > ((uint64_t)1 << 56))
			p90 = (uint64_t)1 << 56;
		ty->dist_limit_us = 4 * p90;
		memset(ty->dist, 0, sizeof(ty->dist));
		ty->dist_over = 0;
	}
}

void summary_add_dist(struct summary *s, const struct mixcsv_row *row)
{
	struct sum_type *ty;

	if (!in_window(s, row->t_ms))
		return;
	ty = &s->type[row->type];
	if (row->response_us >= ty->dist_limit_us)
		ty->dist_over++;
	else
		ty->dist[row->response_us * SUM_DIST_BUCKETS /
			 ty->dist_limit_us]++;
}

void summary_note(struct summary *s, const char *fmt, ...)
{
	va_list ap;

	if (s->nnotes >= SUM_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(s->notes[s->nnotes], SUM_NOTE_LEN, fmt, ap);
	va_end(ap);
	s->nnotes++;
}

void summary_warn(struct summary *s, const char *fmt, ...)
{
	va_list ap;

	if (s->nwarnings >= SUM_WARNINGS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(s->warnings[s->nwarnings], SUM_NOTE_LEN, fmt, ap);
	va_end(ap);
	s->nwarnings++;
}

void summary_set_checkpoints(struct summary *s, struct ckpt_list *l)
{
	checkpoints_free(&s->ckpts);
	s->ckpts = *l;
	s->ckpts_known = true;
	memset(l, 0, sizeof(*l));
}
