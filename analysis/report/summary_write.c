/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_write.c - a summary (summary.h) as summary.json and as the
 * human summary.txt.
 *
 * Numbers in summary.json are rounded before they are stored (ms to 3
 * decimals, rates and percentages to 2) and printed with 15 significant
 * digits, so the same input always gives the same bytes: the golden
 * tests compare the file exactly.
 */
#include "analysis/report/summary.h"

#include <errno.h>
#include <math.h>

#include "src/base/resfile.h"

#define SUM_TEXT_CKPTS 20 /* checkpoints listed in summary.txt */

static const char *const type_titles[TXN_NR] = {
	[TXN_NEW_ORDER] = "New-Order",	     [TXN_PAYMENT] = "Payment",
	[TXN_ORDER_STATUS] = "Order-Status", [TXN_DELIVERY] = "Delivery",
	[TXN_STOCK_LEVEL] = "Stock-Level",
};

const char *summary_type_title(enum txn_type type)
{
	return (unsigned)type < TXN_NR ? type_titles[type] : "?";
}

/* ---- summary.json ---- */

static json_t *jcount(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

static json_t *jtri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *jstring_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *ms(uint64_t us)
{
	return resfile_real((double)us / 1000.0, 3);
}

static json_t *type_json(const struct summary *s, int t)
{
	const struct sum_type *ty = &s->type[t];
	json_t *o = json_object(), *resp, *svc, *dist, *counts;
	int i;

	json_object_set_new(o, "count", json_integer((json_int_t)ty->count));
	json_object_set_new(o, "share_pct", resfile_real(s->mix[t].value, 2));
	json_object_set_new(o, "ok", json_integer((json_int_t)ty->ok));
	json_object_set_new(o, "rollback",
			    json_integer((json_int_t)ty->rollback));
	json_object_set_new(o, "error", json_integer((json_int_t)ty->error));
	json_object_set_new(o, "retries",
			    jcount(s->retries_scope ? s->run.retries[t] : -1));
	if (ty->count == 0) {
		json_object_set_new(o, "response_ms", json_null());
		json_object_set_new(o, "service_ms", json_null());
		json_object_set_new(o, "rt_distribution", json_null());
		return o;
	}
	resp = json_object();
	json_object_set_new(resp, "mean",
			    resfile_real(hist_mean(&ty->response) / 1000.0, 3));
	json_object_set_new(resp, "p50",
			    ms(hist_percentile(&ty->response, 50)));
	json_object_set_new(resp, "p90",
			    ms(hist_percentile(&ty->response, 90)));
	json_object_set_new(resp, "p95",
			    ms(hist_percentile(&ty->response, 95)));
	json_object_set_new(resp, "p99",
			    ms(hist_percentile(&ty->response, 99)));
	json_object_set_new(resp, "max", ms(ty->response.max));
	json_object_set_new(o, "response_ms", resp);
	svc = json_object();
	json_object_set_new(svc, "mean",
			    resfile_real(hist_mean(&ty->service) / 1000.0, 3));
	json_object_set_new(svc, "p90", ms(hist_percentile(&ty->service, 90)));
	json_object_set_new(o, "service_ms", svc);
	dist = json_object();
	json_object_set_new(dist, "range_ms", ms(ty->dist_limit_us));
	json_object_set_new(dist, "bucket_ms",
			    resfile_real((double)ty->dist_limit_us /
						 SUM_DIST_BUCKETS / 1000.0,
					 6));
	counts = json_array();
	for (i = 0; i < SUM_DIST_BUCKETS; i++)
		json_array_append_new(counts,
				      json_integer((json_int_t)ty->dist[i]));
	json_object_set_new(dist, "counts", counts);
	json_object_set_new(dist, "over",
			    json_integer((json_int_t)ty->dist_over));
	json_object_set_new(o, "rt_distribution", dist);
	return o;
}

static json_t *checks_json(const struct sum_check *c, int ok,
			   const char *value_key, const char *limit_key)
{
	json_t *o = json_object(), *types = json_object();
	int t;

	json_object_set_new(o, "ok", jtri(ok));
	for (t = 0; t < TXN_NR; t++) {
		json_t *e;

		if (!c[t].applies)
			continue;
		e = json_object();
		json_object_set_new(e, value_key, resfile_real(c[t].value, 3));
		json_object_set_new(e, limit_key, resfile_real(c[t].limit, 3));
		json_object_set_new(e, "within", jtri(c[t].within));
		json_object_set_new(types, txn_type_name((enum txn_type)t), e);
	}
	json_object_set_new(o, "types", types);
	return o;
}

/* checks_json() of the mix, with each share's sampling noise */
static json_t *mix_check_json(const struct summary *s)
{
	json_t *o = checks_json(s->mix, s->mix_ok, "share_pct", "min_pct");
	json_t *types = json_object_get(o, "types");
	int t;

	for (t = 0; t < TXN_NR; t++) {
		json_t *e =
			json_object_get(types, txn_type_name((enum txn_type)t));

		if (!e)
			continue;
		json_object_set_new(e, "small_sample",
				    json_boolean(s->mix[t].small_sample));
		json_object_set_new(e, "noise",
				    resfile_real(s->mix[t].noise, 3));
	}
	return o;
}

static json_t *bounds_json(const struct summary *s)
{
	json_t *o = json_object(), *checks = json_object();
	int i;

	json_object_set_new(o, "ok", jtri(s->bounds_ok));
	for (i = 0; i < SUM_BOUND_NR; i++) {
		const struct sum_bound *b = &s->bounds[i];
		json_t *e = json_object();

		json_object_set_new(e, "value", resfile_real(b->value, 3));
		json_object_set_new(e, "min", resfile_real(b->min, 3));
		json_object_set_new(e, "max", resfile_real(b->max, 3));
		json_object_set_new(e, "applies", json_boolean(b->applies));
		json_object_set_new(e, "within", jtri(b->within));
		json_object_set_new(e, "small_sample",
				    json_boolean(b->small_sample));
		json_object_set_new(e, "noise", resfile_real(b->noise, 3));
		json_object_set_new(checks, b->key, e);
	}
	json_object_set_new(o, "checks", checks);
	return o;
}

static double per_txn_us(double cpu_s, uint64_t rows)
{
	return rows && isfinite(cpu_s) ? cpu_s * 1e6 / (double)rows : NAN;
}

static json_t *server_json(const struct summary *s)
{
	const struct sum_run *r = &s->run;
	json_t *o = json_object();

	json_object_set_new(o, "buffer_hit_ratio",
			    resfile_real(s->buffer_hit_ratio, 6));
	json_object_set_new(o, "blks_hit", jcount(r->blks_hit));
	json_object_set_new(o, "blks_read", jcount(r->blks_read));
	json_object_set_new(o, "blks_read_per_s",
			    resfile_real(s->blks_read_per_s, 2));
	json_object_set_new(o, "checkpoints_timed",
			    jcount(r->checkpoints_timed));
	json_object_set_new(o, "checkpoints_req", jcount(r->checkpoints_req));
	json_object_set_new(o, "buffers_checkpoint",
			    jcount(r->buffers_checkpoint));
	json_object_set_new(o, "xact_commit", jcount(r->xact_commit));
	json_object_set_new(o, "xact_rollback", jcount(r->xact_rollback));
	return o;
}

static json_t *checkpoints_json(const struct summary *s)
{
	json_t *a;
	size_t i;

	if (!s->ckpts_known)
		return json_null();
	a = json_array();
	for (i = 0; i < s->ckpts.n; i++) {
		const struct ckpt *c = &s->ckpts.items[i];
		json_t *e = json_object();

		json_object_set_new(e, "start_s", resfile_real(c->start_s, 3));
		json_object_set_new(e, "end_s", resfile_real(c->end_s, 3));
		json_object_set_new(e, "kind", json_string(c->kind));
		json_array_append_new(a, e);
	}
	return a;
}

json_t *summary_to_json(const struct summary *s)
{
	const struct sum_run *r = &s->run;
	json_t *o = json_object(), *w, *tx, *types, *st, *cost, *run, *mc,
	       *notes, *warnings;
	uint64_t ok = 0, rb = 0, er = 0;
	int t, i;

	if (!o)
		return NULL;
	json_object_set_new(o, "format", json_string(RESFILE_TAG_SUMMARY));
	json_object_set_new(o, "label", jstring_or_null(s->meta.label));
	json_object_set_new(o, "config", jstring_or_null(s->meta.config));
	json_object_set_new(o, "diagnostic", jtri(s->meta.diagnostic));
	json_object_set_new(o, "partial", json_boolean(r->partial));
	json_object_set_new(o, "end_reason", jstring_or_null(r->end_reason));
	warnings = json_array();
	for (i = 0; i < s->nwarnings; i++)
		json_array_append_new(warnings, json_string(s->warnings[i]));
	json_object_set_new(o, "warnings", warnings);
	w = json_object();
	json_object_set_new(w, "start_s",
			    resfile_real(s->start_ms / 1000.0, 3));
	json_object_set_new(w, "end_s", resfile_real(s->end_ms / 1000.0, 3));
	json_object_set_new(w, "start_from", json_string(s->start_from));
	json_object_set_new(w, "end_from", json_string(s->end_from));
	json_object_set_new(w, "whole_measured_interval",
			    json_boolean(s->whole_measured));
	json_object_set_new(o, "window", w);
	json_object_set_new(o, "measured_s", resfile_real(s->measured_s, 3));
	json_object_set_new(o, "ramp_up_s", resfile_real(r->ramp_up_s, 3));
	json_object_set_new(o, "notpm", resfile_real(s->notpm, 2));
	json_object_set_new(o, "tpm_total", resfile_real(s->tpm_total, 2));
	tx = json_object();
	for (t = 0; t < TXN_NR; t++) {
		ok += s->type[t].ok;
		rb += s->type[t].rollback;
		er += s->type[t].error;
	}
	json_object_set_new(tx, "count",
			    json_integer((json_int_t)s->rows_in_window));
	json_object_set_new(tx, "ok", json_integer((json_int_t)ok));
	json_object_set_new(tx, "rollback", json_integer((json_int_t)rb));
	json_object_set_new(tx, "error", json_integer((json_int_t)er));
	json_object_set_new(tx, "retries_scope",
			    jstring_or_null(s->retries_scope));
	json_object_set_new(o, "transactions", tx);
	types = json_object();
	for (t = 0; t < TXN_NR; t++)
		json_object_set_new(types, txn_type_name((enum txn_type)t),
				    type_json(s, t));
	json_object_set_new(o, "types", types);
	json_object_set_new(o, "mix_check", mix_check_json(s));
	json_object_set_new(o, "rt_limits",
			    checks_json(s->rt, s->rt_ok, "p90_ms", "limit_ms"));
	json_object_set_new(o, "input_bounds", bounds_json(s));
	st = json_object();
	json_object_set_new(st, "steady", jtri(s->steady.steady));
	json_object_set_new(st, "interval_s",
			    json_integer(SUM_STEADY_INTERVAL_MS / 1000));
	json_object_set_new(st, "intervals",
			    json_integer((json_int_t)s->steady.intervals));
	json_object_set_new(st, "mean_notpm",
			    resfile_real(s->steady.mean_notpm, 2));
	json_object_set_new(st, "slope_notpm_per_min",
			    resfile_real(s->steady.slope_per_min, 3));
	json_object_set_new(st, "change_pct",
			    resfile_real(s->steady.change_pct, 3));
	json_object_set_new(st, "change_ci_pct",
			    resfile_real(s->steady.change_ci_pct, 3));
	json_object_set_new(st, "limit_pct",
			    resfile_real(SUM_STEADY_LIMIT_PCT, 2));
	json_object_set_new(o, "steady_state", st);
	cost = json_object();
	json_object_set_new(cost, "window_start_s",
			    resfile_real(r->cost_start_s, 3));
	json_object_set_new(cost, "window_end_s",
			    resfile_real(r->cost_end_s, 3));
	json_object_set_new(cost, "transactions",
			    isfinite(r->cost_start_s)
				    ? json_integer((json_int_t)s->cost_rows)
				    : json_null());
	json_object_set_new(cost, "client_cpu_s",
			    resfile_real(r->client_cpu_s, 3));
	json_object_set_new(cost, "server_cpu_s",
			    resfile_real(r->server_cpu_s, 3));
	json_object_set_new(
		cost, "client_us_per_txn",
		resfile_real(per_txn_us(r->client_cpu_s, s->cost_rows), 2));
	json_object_set_new(
		cost, "server_us_per_txn",
		resfile_real(per_txn_us(r->server_cpu_s, s->cost_rows), 2));
	json_object_set_new(cost, "server_pid", jcount(r->server_pid));
	json_object_set_new(o, "cost", cost);
	json_object_set_new(o, "server", server_json(s));
	run = json_object();
	json_object_set_new(run, "duration_s", resfile_real(r->duration_s, 3));
	json_object_set_new(run, "elapsed_s", resfile_real(r->elapsed_s, 3));
	json_object_set_new(run, "warehouses", jcount(r->warehouses));
	json_object_set_new(run, "terminals", jcount(r->terminals));
	json_object_set_new(run, "connections", jcount(r->connections));
	json_object_set_new(run, "keying_think",
			    jstring_or_null(r->keying_think));
	json_object_set_new(run, "tx_mode", jstring_or_null(r->tx_mode));
	json_object_set_new(run, "connections_lost",
			    jcount(r->connections_lost));
	json_object_set_new(run, "reconnects", jcount(r->reconnects));
	json_object_set_new(run, "checkpoints", jcount(r->checkpoints));
	json_object_set_new(run, "deliveries_not_done",
			    jcount(r->deliveries_not_done));
	json_object_set_new(o, "run", run);
	json_object_set_new(o, "checkpoints", checkpoints_json(s));
	json_object_set_new(
		o, "checkpoints_in_window",
		s->ckpts_known ? json_integer((json_int_t)s->ckpts_in_window)
			       : json_null());
	mc = json_object();
	json_object_set_new(mc, "rows", json_integer((json_int_t)s->rows));
	json_object_set_new(mc, "truncated_lines",
			    json_integer((json_int_t)s->truncated_lines));
	json_object_set_new(mc, "first_t_s",
			    s->first_t_ms < 0
				    ? json_null()
				    : resfile_real(s->first_t_ms / 1000.0, 3));
	json_object_set_new(mc, "last_t_s",
			    s->last_t_ms < 0
				    ? json_null()
				    : resfile_real(s->last_t_ms / 1000.0, 3));
	json_object_set_new(o, "mixcsv", mc);
	notes = json_array();
	for (i = 0; i < s->nnotes; i++)
		json_array_append_new(notes, json_string(s->notes[i]));
	json_object_set_new(o, "notes", notes);
	return o;
}

int summary_write_json(const struct summary *s, FILE *f, struct err *err)
{
	json_t *j = summary_to_json(s);
	int rc;

	if (!j)
		return err_set(err, -ENOMEM, "summary.json: out of memory");
	rc = resfile_dump(j, f);
	json_decref(j);
	if (rc < 0)
		return err_set(err, rc, "summary.json: write failed");
	return 0;
}

/* ---- summary.txt ---- */

static const char *tri_word(int v)
{
	return v < 0 ? "unknown" : v ? "ok" : "FAILED";
}

/* "%.*f" of x, or "-" when unknown, right-aligned in width. */
static void put_num(FILE *f, int width, int decimals, double x)
{
	if (isfinite(x))
		fprintf(f, "%*.*f", width, decimals, x);
	else
		fprintf(f, "%*s", width, "-");
}

static void put_ms(FILE *f, uint64_t us)
{
	put_num(f, 10, 2, (double)us / 1000.0);
}

static void text_header(const struct summary *s, FILE *f)
{
	const struct sum_run *r = &s->run;
	int i;

	fprintf(f, "oltpmark run summary");
	if (s->meta.label[0])
		fprintf(f, ": %s", s->meta.label);
	if (s->meta.config[0])
		fprintf(f, " / %s", s->meta.config);
	fputc('\n', f);
	if (r->partial)
		fprintf(f, "*** PARTIAL RUN%s%s ***\n",
			r->end_reason[0] ? ": " : "",
			r->end_reason[0] ? r->end_reason : "");
	if (s->meta.diagnostic == 1)
		fprintf(f, "*** diagnostic run: profiling/lock statistics "
			   "were on; not scored ***\n");
	for (i = 0; i < s->nwarnings; i++)
		fprintf(f, "WARNING: %s\n", s->warnings[i]);
	fputc('\n', f);
	fprintf(f, "  window        %.3f .. %.3f s (%.3f s measured",
		s->start_ms / 1000.0, s->end_ms / 1000.0, s->measured_s);
	if (isfinite(r->ramp_up_s))
		fprintf(f, "; ramp-up %g s", r->ramp_up_s);
	fprintf(f, ")\n");
	if (s->meta.terminals[0])
		fprintf(f, "  terminals     %s\n", s->meta.terminals);
	if (s->meta.simulated) {
		fprintf(f, "  simulated NOTPM ");
		put_num(f, 9, 2, s->notpm);
		fprintf(f, "   iosim: New-Orders replayed on files/min\n");
	} else {
		fprintf(f, "  NOTPM        ");
		put_num(f, 12, 2, s->notpm);
		fprintf(f, "   New-Orders done (committed or rolled back)"
			   "/min\n");
	}
	fprintf(f, "  total TPM    ");
	put_num(f, 12, 2, s->tpm_total);
	fprintf(f, "   all types, committed or rolled back\n");
	fprintf(f, "  steady state  ");
	if (s->steady.steady < 0 && isnan(s->steady.change_pct))
		fprintf(f, "unknown");
	else
		fprintf(f,
			"%s: fitted change %+.2f +- %.2f %% over %zu x 10 s "
			"(limit %.0f %%)",
			s->steady.steady > 0	? "yes"
			: s->steady.steady == 0 ? "NO"
						: "unknown (too noisy to tell)",
			s->steady.change_pct, s->steady.change_ci_pct,
			s->steady.intervals, SUM_STEADY_LIMIT_PCT);
	fputs("\n\n", f);
}

static void text_types(const struct summary *s, FILE *f)
{
	uint64_t ok = 0, rb = 0, er = 0;
	int t;

	fprintf(f, "Transactions in the window\n");
	fprintf(f, "  %-13s %10s %7s %10s %9s %7s %8s\n", "type", "count",
		"share%", "ok", "rollback", "error", "retries");
	for (t = 0; t < TXN_NR; t++) {
		const struct sum_type *ty = &s->type[t];
		int64_t retries = s->retries_scope ? s->run.retries[t] : -1;

		fprintf(f, "  %-13s %10llu ",
			summary_type_title((enum txn_type)t),
			(unsigned long long)ty->count);
		put_num(f, 7, 2, s->mix[t].value);
		fprintf(f, " %10llu %9llu %7llu ", (unsigned long long)ty->ok,
			(unsigned long long)ty->rollback,
			(unsigned long long)ty->error);
		if (retries < 0)
			fprintf(f, "%8s\n", "unknown");
		else
			fprintf(f, "%8lld\n", (long long)retries);
		ok += ty->ok;
		rb += ty->rollback;
		er += ty->error;
	}
	fprintf(f, "  %-13s %10llu %7s %10llu %9llu %7llu\n\n", "total",
		(unsigned long long)s->rows_in_window, "",
		(unsigned long long)ok, (unsigned long long)rb,
		(unsigned long long)er);

	fprintf(f, "Response time, ms (due to completed; Delivery: queued "
		   "to completed)\n");
	fprintf(f, "  %-13s%10s%10s%10s%10s%10s%10s\n", "type", "mean", "p50",
		"p90", "p95", "p99", "max");
	for (t = 0; t < TXN_NR; t++) {
		const struct sum_type *ty = &s->type[t];
		static const double pct[] = {50, 90, 95, 99};
		int i;

		fprintf(f, "  %-13s", summary_type_title((enum txn_type)t));
		if (ty->count == 0) {
			fprintf(f, " (none)\n");
			continue;
		}
		put_num(f, 10, 2, hist_mean(&ty->response) / 1000.0);
		for (i = 0; i < 4; i++)
			put_ms(f, hist_percentile(&ty->response, pct[i]));
		put_ms(f, ty->response.max);
		fputc('\n', f);
	}
	fprintf(f, "\nService time, ms (request sent to reply received)\n");
	fprintf(f, "  %-13s%10s%10s\n", "type", "mean", "p90");
	for (t = 0; t < TXN_NR; t++) {
		const struct sum_type *ty = &s->type[t];

		if (ty->count == 0)
			continue;
		fprintf(f, "  %-13s", summary_type_title((enum txn_type)t));
		put_num(f, 10, 2, hist_mean(&ty->service) / 1000.0);
		put_ms(f, hist_percentile(&ty->service, 90));
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void text_checks(const struct summary *s, FILE *f)
{
	int t, i;

	fprintf(f, "Mix against the TPC-C minimums (5.2.3): %s\n",
		tri_word(s->mix_ok));
	for (t = 0; t < TXN_NR; t++) {
		const struct sum_check *c = &s->mix[t];

		if (!c->applies)
			continue;
		fprintf(f, "  %-13s ", summary_type_title((enum txn_type)t));
		put_num(f, 7, 2, c->value);
		fprintf(f, " %%  at least %5.1f %%   %s", c->limit,
			c->small_sample ? "not judged" : tri_word(c->within));
		if (c->small_sample)
			fprintf(f, " (sampling noise +-%.2f %%)", c->noise);
		fputc('\n', f);
	}
	fprintf(f,
		"\n90th-percentile response limits (5.2.5.3, 2.7.2.2): "
		"%s\n",
		tri_word(s->rt_ok));
	for (t = 0; t < TXN_NR; t++) {
		const struct sum_check *c = &s->rt[t];

		fprintf(f, "  %-13s ", summary_type_title((enum txn_type)t));
		put_num(f, 10, 2, c->value);
		fprintf(f, " ms  under %6.0f ms   %s%s\n", c->limit,
			tri_word(c->within),
			t == TXN_DELIVERY ? "  (completion)" : "");
	}
	fprintf(f, "\nInput bounds (5.5.1.5-6, from run.json): %s\n",
		tri_word(s->bounds_ok));
	for (i = 0; i < SUM_BOUND_NR; i++) {
		const struct sum_bound *b = &s->bounds[i];

		fprintf(f, "  %-34s ", b->label);
		if (!b->applies) {
			fprintf(f, "n/a (one warehouse)\n");
			continue;
		}
		put_num(f, 7, 2, b->value);
		fprintf(f, "%s  %5.2f .. %5.2f%s  %s", b->percent ? " %" : "  ",
			b->min, b->max, b->percent ? " %" : "  ",
			b->small_sample ? "not judged" : tri_word(b->within));
		if (b->small_sample)
			fprintf(f, " (sampling noise +-%.2f%s)", b->noise,
				b->percent ? " %" : "");
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void text_cost(const struct summary *s, FILE *f)
{
	const struct sum_run *r = &s->run;

	fprintf(f, "Cost (CPU time in run.json's cost window");
	if (isfinite(r->cost_start_s) && isfinite(r->cost_end_s))
		fprintf(f, " %.1f .. %.1f s, %llu transactions",
			r->cost_start_s, r->cost_end_s,
			(unsigned long long)s->cost_rows);
	fprintf(f, ")\n  client (oltpmark) ");
	put_num(f, 10, 2, r->client_cpu_s);
	fprintf(f, " s ");
	put_num(f, 10, 2, per_txn_us(r->client_cpu_s, s->cost_rows));
	fprintf(f, " us per transaction\n  server            ");
	if (isfinite(r->server_cpu_s)) {
		put_num(f, 10, 2, r->server_cpu_s);
		fprintf(f, " s ");
		put_num(f, 10, 2, per_txn_us(r->server_cpu_s, s->cost_rows));
		fprintf(f, " us per transaction\n");
	} else {
		fprintf(f, "%s\n", r->present ? "not measured" : "unknown");
	}
	fputc('\n', f);
}

/* A count from run.json, "?" when unknown. */
static const char *count_str(int64_t v, char *buf, size_t size)
{
	if (v < 0)
		return "?";
	snprintf(buf, size, "%lld", (long long)v);
	return buf;
}

static void text_run(const struct summary *s, FILE *f)
{
	const struct sum_run *r = &s->run;
	char a[24], b[24], c[24];

	if (!r->present)
		return;
	fprintf(f,
		"Run: %s warehouses, %s terminals, %s connections, "
		"keying/think %s,\n  transactions as %s, ",
		count_str(r->warehouses, a, sizeof(a)),
		count_str(r->terminals, b, sizeof(b)),
		count_str(r->connections, c, sizeof(c)),
		r->keying_think[0] ? r->keying_think : "?",
		r->tx_mode[0] ? r->tx_mode : "?");
	fprintf(f, "connections lost %s, reconnects %s,\n  ",
		count_str(r->connections_lost, a, sizeof(a)),
		count_str(r->reconnects, b, sizeof(b)));
	fprintf(f, "deliveries never executed %s\n\n",
		count_str(r->deliveries_not_done, c, sizeof(c)));
}

static void text_server(const struct summary *s, FILE *f)
{
	const struct sum_run *r = &s->run;
	char a[24], b[24], c[24];

	if (!r->present)
		return;
	fprintf(f, "Server counters (run.json server_stats, over the cost "
		   "window)\n");
	fprintf(f, "  buffer hit ratio   ");
	if (isfinite(s->buffer_hit_ratio))
		fprintf(f, "%.*f %%",
			summary_hit_pct_decimals(100.0 * s->buffer_hit_ratio,
						 2),
			100.0 * s->buffer_hit_ratio);
	else
		fprintf(f, "unknown");
	fprintf(f, " (%s hits, %s blocks read",
		count_str(r->blks_hit, a, sizeof(a)),
		count_str(r->blks_read, b, sizeof(b)));
	if (isfinite(s->blks_read_per_s))
		fprintf(f, ", %.2f/s", s->blks_read_per_s);
	fprintf(f,
		")\n  checkpoints        %s timed, %s requested, %s "
		"buffers written\n",
		count_str(r->checkpoints_timed, a, sizeof(a)),
		count_str(r->checkpoints_req, b, sizeof(b)),
		count_str(r->buffers_checkpoint, c, sizeof(c)));
	fprintf(f, "  transactions       %s committed, %s rolled back\n\n",
		count_str(r->xact_commit, a, sizeof(a)),
		count_str(r->xact_rollback, b, sizeof(b)));
}

static void text_checkpoints(const struct summary *s, FILE *f)
{
	size_t i;

	if (!s->ckpts_known) {
		fprintf(f, "Checkpoints: unknown (no usable "
			   "sys/checkpoints.csv)\n\n");
		return;
	}
	fprintf(f,
		"Checkpoints (sys/checkpoints.csv): %zu in the run, %zu "
		"overlapping the window\n",
		s->ckpts.n, s->ckpts_in_window);
	if (s->ckpts.n == 0) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "  %10s %10s %8s  %-6s %s\n", "start s", "end s", "length",
		"window", "kind");
	for (i = 0; i < s->ckpts.n && i < SUM_TEXT_CKPTS; i++) {
		const struct ckpt *c = &s->ckpts.items[i];

		fprintf(f, "  %10.3f %10.3f %8.3f  %-6s %s\n", c->start_s,
			c->end_s, c->end_s - c->start_s,
			summary_ckpt_in_window(s, c) ? "yes" : "no", c->kind);
	}
	if (s->ckpts.n > SUM_TEXT_CKPTS)
		fprintf(f, "  ... and %zu more (see summary.json)\n",
			s->ckpts.n - SUM_TEXT_CKPTS);
	fputc('\n', f);
}

int summary_write_text(const struct summary *s, FILE *f, struct err *err)
{
	int i;

	text_header(s, f);
	text_types(s, f);
	text_checks(s, f);
	text_cost(s, f);
	text_run(s, f);
	text_server(s, f);
	text_checkpoints(s, f);
	if (s->nnotes) {
		fprintf(f, "Notes\n");
		for (i = 0; i < s->nnotes; i++)
			fprintf(f, "  - %s\n", s->notes[i]);
	}
	if (ferror(f))
		return err_set(err, -EIO, "summary.txt: write failed");
	return 0;
}
