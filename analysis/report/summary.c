/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.c - figures of one run over its window, summary.json and
 * summary.txt (see summary.h for the two passes).
 *
 * Numbers in summary.json are rounded before they are stored (ms to 3
 * decimals, rates and percentages to 2) and printed with 15 significant
 * digits, so the same input always gives the same bytes: the golden
 * tests compare the file exactly.
 */
#include "analysis/report/summary.h"
#include "analysis/common/stats.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/timeseries.h"

#define SUM_TEXT_CKPTS 20 /* checkpoints listed in summary.txt */

/* TPC-C 5.2.3 minimum shares, % (New-Order has none). */
static const double mix_min_pct[TXN_NR] = {
	[TXN_NEW_ORDER] = 0,  [TXN_PAYMENT] = 43.0,    [TXN_ORDER_STATUS] = 4.0,
	[TXN_DELIVERY] = 4.0, [TXN_STOCK_LEVEL] = 4.0,
};

/*
 * TPC-C 5.2.5.3 and 2.7.2.2 90th-percentile limits, ms. Delivery's
 * response_us runs from queueing to the end of the deferred execution, so
 * its limit is the 80 s completion limit, not the 5 s queueing one.
 */
static const double rt_limit_ms[TXN_NR] = {
	[TXN_NEW_ORDER] = 5000,	   [TXN_PAYMENT] = 5000,
	[TXN_ORDER_STATUS] = 5000, [TXN_DELIVERY] = 80000,
	[TXN_STOCK_LEVEL] = 20000,
};

static const char *const type_titles[TXN_NR] = {
	[TXN_NEW_ORDER] = "New-Order",	     [TXN_PAYMENT] = "Payment",
	[TXN_ORDER_STATUS] = "Order-Status", [TXN_DELIVERY] = "Delivery",
	[TXN_STOCK_LEVEL] = "Stock-Level",
};

const char *summary_type_title(enum txn_type type)
{
	return (unsigned)type < TXN_NR ? type_titles[type] : "?";
}

/* ---- run.json and meta.json ---- */

static double jnum(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int64_t jint(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (json_is_integer(v))
		return (int64_t)json_integer_value(v);
	if (json_is_real(v) && json_real_value(v) >= 0)
		return (int64_t)json_real_value(v);
	return -1;
}

/* A server counter: -1 when absent, null, or negative (unknown). */
static int64_t jcounter(const json_t *obj, const char *key)
{
	int64_t v = jint(obj, key);

	return v < 0 ? -1 : v;
}

/*
 * A yes/no that meta.json may hold as a JSON boolean (meta.json
 * "diagnostic") or as the string "true" / "false" (notes values): 1, 0,
 * or -1 when absent or something else.
 */
static int jtruth(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (json_is_boolean(v))
		return json_is_true(v);
	if (json_is_string(v)) {
		if (strcmp(json_string_value(v), "true") == 0)
			return 1;
		if (strcmp(json_string_value(v), "false") == 0)
			return 0;
	}
	return -1;
}

static void jstr(const json_t *obj, const char *key, char *out, size_t size)
{
	const json_t *v = json_object_get(obj, key);

	if (json_is_string(v))
		snprintf(out, size, "%s", json_string_value(v));
	else
		out[0] = '\0';
}

static int check_format(const json_t *j, const char *name, const char *want,
			struct err *err)
{
	const json_t *f;

	if (!json_is_object(j))
		return err_set(err, -EBADMSG, "%s: not a JSON object", name);
	f = json_object_get(j, "format");
	if (f &&
	    (!json_is_string(f) || strcmp(json_string_value(f), want) != 0))
		return err_set(err, -EBADMSG,
			       "%s: format is not %s (a newer oltpmark?)", name,
			       want);
	return 0;
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
	const json_t *counts, *in, *cost, *p, *stats;
	int rc, t;

	summary_run_unknown(out);
	rc = check_format(run, "run.json", "oltpmark-run/1", err);
	if (rc < 0)
		return rc;
	out->present = true;
	p = json_object_get(run, "partial");
	out->partial = json_is_boolean(p) ? json_is_true(p) : true;
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
	return 0;
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
	rc = check_format(meta, "meta.json", "oltpmark-meta/1", err);
	if (rc < 0)
		return rc;
	out->present = true;
	jstr(meta, "label", out->label, sizeof(out->label));
	jstr(meta, "config", out->config, sizeof(out->config));
	opts = json_object_get(meta, "options");
	notes = json_object_get(meta, "notes");
	/* any of the three marks makes a diagnostic run (run/oltpmark-run
	   sets the note, `oltpmark run` copies it to "diagnostic"); a
	   meta.json without any mark is not one */
	out->diagnostic = jtruth(meta, "diagnostic") == 1 ||
			  jtruth(opts, "diagnostic") == 1 ||
			  jtruth(notes, "diagnostic") == 1;
	out->noncached_enforced = jtruth(notes, "noncached_enforced");
	out->opt_ramp_up_s = jnum(opts, "ramp-up");
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
	    row->t_ms < llround(s->run.cost_end_s * 1000.0))
		s->cost_rows++;
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

bool summary_ckpt_in_window(const struct summary *s, const struct ckpt *c)
{
	/* the window is [start, end), a checkpoint [start, end] */
	return llround(c->start_s * 1000.0) < s->end_ms &&
	       llround(c->end_s * 1000.0) >= s->start_ms;
}

/* ---- results ---- */

/*
 * Steady state (methodology.md): fit a least-squares line through the
 * per-10-s NOTPM and express its change across the window as a % of the
 * mean. Within 2 %: steady. Beyond 2 %, the verdict "not steady" needs the
 * drift to be real, not noise: the 95 % interval of the change (Student t
 * on the slope, from the residuals) must lie beyond 2 % as a whole. A
 * 30-s window has 3 points and one degree of freedom, so noise of a few
 * % gives fitted changes of several % by chance; without this a short
 * run is "not steady" whatever the system does. Too noisy to tell: -1.
 */
void summary_steady_fit(const double *notpm, size_t n, struct sum_steady *out)
{
	double xm, ym = 0, sxy = 0, sxx = 0, b, sse = 0, se_b;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->intervals = n;
	out->change_pct = NAN;
	out->change_ci_pct = NAN;
	out->slope_per_min = NAN;
	out->mean_notpm = NAN;
	out->steady = -1;
	if (n == 0)
		return;
	for (k = 0; k < n; k++)
		ym += notpm[k];
	ym /= (double)n;
	out->mean_notpm = ym;
	if (n < SUM_STEADY_MIN_INTERVALS)
		return;
	xm = (double)(n - 1) / 2.0;
	for (k = 0; k < n; k++) {
		sxy += ((double)k - xm) * (notpm[k] - ym);
		sxx += ((double)k - xm) * ((double)k - xm);
	}
	b = sxy / sxx; /* NOTPM per interval */
	out->slope_per_min = b * 60000.0 / SUM_STEADY_INTERVAL_MS;
	if (ym <= 0)
		return;
	/* the fitted line from the start of the first interval to the end
	   of the last: n intervals long */
	out->change_pct = 100.0 * b * (double)n / ym;
	for (k = 0; k < n; k++) {
		double fit = ym + b * ((double)k - xm);

		sse += (notpm[k] - fit) * (notpm[k] - fit);
	}
	se_b = sqrt(sse / (double)(n - 2) / sxx);
	out->change_ci_pct = 100.0 * stats_t_quantile(0.975, (double)(n - 2)) *
			     se_b * (double)n / ym;
	if (fabs(out->change_pct) <= SUM_STEADY_LIMIT_PCT)
		out->steady = 1;
	else if (fabs(out->change_pct) - out->change_ci_pct >
		 SUM_STEADY_LIMIT_PCT)
		out->steady = 0;
	else
		out->steady = -1;
}

static void set_bound(struct sum_bound *b, const char *key, const char *label,
		      bool percent, double min, double max)
{
	b->key = key;
	b->label = label;
	b->percent = percent;
	b->min = min;
	b->max = max;
	b->value = NAN;
	b->applies = true;
	b->within = -1;
	b->noise = NAN;
	b->small_sample = false;
}

/*
 * The spec's bounds are meant for a two-hour interval with hundreds of
 * thousands of transactions; a short run can miss them by sampling noise
 * alone (1 % rollbacks over 1,400 New-Orders have a standard error of
 * 0.27 %). So a value outside the bounds fails only when it is also more
 * than three standard errors from what the generator aims at (the middle
 * of the bounds); otherwise it is not judged and says why. sd is the
 * standard deviation of one sample (sqrt(p(1-p)) for a share).
 */
static void bound_noise(struct sum_bound *b, double sd, int64_t n)
{
	double target = (b->min + b->max) / 2;

	if (n <= 0 || !isfinite(b->value) || b->within != 0)
		return;
	b->noise = 3.0 * sd / sqrt((double)n) * (b->percent ? 100.0 : 1.0);
	if (fabs(b->value - target) <= b->noise) {
		b->within = -1;
		b->small_sample = true;
	}
}

/* share: sd of a yes/no sample whose expected share is the bounds' middle */
static void bound_share_noise(struct sum_bound *b, int64_t n)
{
	double p = (b->min + b->max) / 200.0;

	bound_noise(b, sqrt(p * (1 - p)), n);
}

/* value = 100 * num / den (or num / den) when both are known. */
static void bound_ratio(struct sum_bound *b, int64_t num, int64_t den)
{
	if (num < 0 || den <= 0)
		return;
	b->value = (double)num / (double)den * (b->percent ? 100.0 : 1.0);
	/* compare at the precision printed, so that 0.899999 is not
	   rejected against a bound of 0.9 it displays as */
	b->within = round(b->value * 1e6) >= round(b->min * 1e6) &&
		    round(b->value * 1e6) <= round(b->max * 1e6);
}

static void compute_bounds(struct summary *s)
{
	const struct sum_run *r = &s->run;
	struct sum_bound *b = s->bounds;
	bool one_w = r->warehouses == 1;

	set_bound(&b[SUM_BOUND_ROLLBACK], "rollback_pct", "New-Order rollbacks",
		  true, 0.9, 1.1);
	bound_ratio(&b[SUM_BOUND_ROLLBACK], r->rollbacks_requested,
		    r->new_orders);
	bound_share_noise(&b[SUM_BOUND_ROLLBACK], r->new_orders);
	set_bound(&b[SUM_BOUND_LINES], "lines_per_order",
		  "order lines per New-Order", false, 9.5, 10.5);
	bound_ratio(&b[SUM_BOUND_LINES], r->order_lines, r->new_orders);
	/* ol_cnt is uniform over 5..15: variance (11^2 - 1) / 12 */
	bound_noise(&b[SUM_BOUND_LINES], sqrt(10.0), r->new_orders);
	set_bound(&b[SUM_BOUND_REMOTE_LINES], "remote_lines_pct",
		  "remote order lines", true, 0.95, 1.05);
	bound_ratio(&b[SUM_BOUND_REMOTE_LINES], r->remote_order_lines,
		    r->order_lines);
	bound_share_noise(&b[SUM_BOUND_REMOTE_LINES], r->order_lines);
	set_bound(&b[SUM_BOUND_REMOTE_PAYMENTS], "remote_payments_pct",
		  "remote Payments", true, 14.0, 16.0);
	bound_ratio(&b[SUM_BOUND_REMOTE_PAYMENTS], r->remote_payments,
		    r->payments);
	bound_share_noise(&b[SUM_BOUND_REMOTE_PAYMENTS], r->payments);
	if (one_w) {
		/* with one warehouse every line and Payment is home */
		b[SUM_BOUND_REMOTE_LINES].applies = false;
		b[SUM_BOUND_REMOTE_LINES].within = -1;
		b[SUM_BOUND_REMOTE_PAYMENTS].applies = false;
		b[SUM_BOUND_REMOTE_PAYMENTS].within = -1;
	}
	set_bound(&b[SUM_BOUND_PAYMENT_BY_NAME], "payment_by_name_pct",
		  "Payments by last name", true, 57.0, 63.0);
	bound_ratio(&b[SUM_BOUND_PAYMENT_BY_NAME], r->payments_by_name,
		    r->payments);
	bound_share_noise(&b[SUM_BOUND_PAYMENT_BY_NAME], r->payments);
	set_bound(&b[SUM_BOUND_OS_BY_NAME], "order_status_by_name_pct",
		  "Order-Status by last name", true, 57.0, 63.0);
	bound_ratio(&b[SUM_BOUND_OS_BY_NAME], r->order_status_by_name,
		    r->order_status);
	bound_share_noise(&b[SUM_BOUND_OS_BY_NAME], r->order_status);
	set_bound(&b[SUM_BOUND_SKIPPED_DELIVERIES], "skipped_deliveries_pct",
		  "Deliveries with skipped districts", true, 0.0, 1.0);
	bound_ratio(&b[SUM_BOUND_SKIPPED_DELIVERIES], r->deliveries_with_skips,
		    r->deliveries_completed);
	/* 5.5.1.6: at most 1 % of Deliveries or at most one, whichever is
	   greater */
	if (r->deliveries_with_skips >= 0 && r->deliveries_completed >= 0) {
		double allowed = 0.01 * (double)r->deliveries_completed;

		if (allowed < 1)
			allowed = 1;
		b[SUM_BOUND_SKIPPED_DELIVERIES].within =
			(double)r->deliveries_with_skips <= allowed;
	}
}

/* 1 if every applicable item is 1, 0 if any is 0, else -1. */
static int all_ok(const int *within, const bool *applies, int n)
{
	int i, res = 1;

	for (i = 0; i < n; i++) {
		if (!applies[i])
			continue;
		if (within[i] == 0)
			return 0;
		if (within[i] < 0)
			res = -1;
	}
	return res;
}

static void compute_checks(struct summary *s)
{
	/* room for the longer of the two lists checked */
	int within[(int)TXN_NR + (int)SUM_BOUND_NR];
	bool applies[(int)TXN_NR + (int)SUM_BOUND_NR];
	int t, i;

	for (t = 0; t < TXN_NR; t++) {
		struct sum_check *m = &s->mix[t], *r = &s->rt[t];
		const struct sum_type *ty = &s->type[t];

		m->applies = mix_min_pct[t] > 0;
		m->limit = mix_min_pct[t];
		m->value = s->rows_in_window ? 100.0 * (double)ty->count /
						       (double)s->rows_in_window
					     : NAN;
		m->within = isnan(m->value) ? -1
					    : round(m->value * 1e6) >=
						      round(m->limit * 1e6);
		r->applies = true;
		r->limit = rt_limit_ms[t];
		r->value = ty->count ? (double)hist_percentile(&ty->response,
							       90.0) /
					       1000.0
				     : NAN;
		r->within = isnan(r->value) ? -1 : r->value < r->limit;
	}
	for (t = 0; t < TXN_NR; t++) {
		within[t] = s->mix[t].within;
		applies[t] = s->mix[t].applies;
	}
	s->mix_ok = all_ok(within, applies, TXN_NR);
	for (t = 0; t < TXN_NR; t++) {
		within[t] = s->rt[t].within;
		applies[t] = s->rt[t].applies;
	}
	s->rt_ok = all_ok(within, applies, TXN_NR);
	compute_bounds(s);
	for (i = 0; i < SUM_BOUND_NR; i++) {
		within[i] = s->bounds[i].within;
		applies[i] = s->bounds[i].applies;
	}
	s->bounds_ok = all_ok(within, applies, SUM_BOUND_NR);
}

/*
 * run.json's retries are counted over some interval; find which by
 * comparing its per-type counts with the window's and the whole file's.
 */
static const char *find_retries_scope(const struct summary *s)
{
	bool window = true, file = true;
	int t, st;

	if (!s->run.present)
		return NULL;
	for (t = 0; t < TXN_NR; t++) {
		uint64_t in_window[TXN_STATUS_NR] = {
			[TXN_STATUS_OK] = s->type[t].ok,
			[TXN_STATUS_ROLLBACK] = s->type[t].rollback,
			[TXN_STATUS_ERROR] = s->type[t].error,
		};

		if (s->run.retries[t] < 0)
			return NULL;
		for (st = 0; st < TXN_STATUS_NR; st++) {
			int64_t c = s->run.counts[t][st];

			if (c < 0 || (uint64_t)c != in_window[st])
				window = false;
			if (c < 0 || (uint64_t)c != s->file_counts[t][st])
				file = false;
		}
	}
	return window ? "window" : file ? "run" : NULL;
}

static int compute_steady(struct summary *s, struct err *err)
{
	size_t n, k;
	double *v;

	n = s->end_ms > s->start_ms ? (size_t)((s->end_ms - s->start_ms) /
					       SUM_STEADY_INTERVAL_MS)
				    : 0;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return err_set(err, -ENOMEM, "summary: out of memory");
	for (k = 0; k < n; k++)
		v[k] = (k < s->steady_n ? (double)s->steady_no[k] : 0.0) *
		       60000.0 / SUM_STEADY_INTERVAL_MS;
	summary_steady_fit(v, n, &s->steady);
	free(v);
	return 0;
}

int summary_hit_pct_decimals(double pct, int decimals)
{
	while (decimals < 6 && pct < 99.0 &&
	       round(pct * pow(10, decimals)) / pow(10, decimals) >= 99.0)
		decimals++;
	return decimals;
}

/* The server counters' ratios and the warnings they and meta.json give. */
static void compute_server(struct summary *s)
{
	const struct sum_run *r = &s->run;
	double len_s = r->cost_end_s - r->cost_start_s;
	size_t i;

	if (r->blks_hit >= 0 && r->blks_read >= 0 &&
	    r->blks_hit + r->blks_read > 0)
		s->buffer_hit_ratio = (double)r->blks_hit /
				      (double)(r->blks_hit + r->blks_read);
	/* server_stats are differences over the cost window */
	if (r->blks_read >= 0 && isfinite(len_s) && len_s > 0)
		s->blks_read_per_s = (double)r->blks_read / len_s;
	if (strcmp(s->meta.config, "cached") == 0 &&
	    isfinite(s->buffer_hit_ratio) &&
	    s->buffer_hit_ratio < SUM_CACHED_HIT_MIN) {
		double pct = 100.0 * s->buffer_hit_ratio;

		summary_warn(s,
			     "cached run with buffer hit ratio %.*f %%: the "
			     "database did not fit or was not pre-warmed",
			     summary_hit_pct_decimals(pct, 1), pct);
	}
	if (strcmp(s->meta.config, "noncached") == 0 &&
	    s->meta.noncached_enforced == 0)
		summary_warn(s, "non-cached run without a memory limit: reads "
				"may have come from the page cache");
	s->ckpts_in_window = 0;
	for (i = 0; i < s->ckpts.n; i++)
		if (summary_ckpt_in_window(s, &s->ckpts.items[i]))
			s->ckpts_in_window++;
}

int summary_finish(struct summary *s, uint64_t truncated_lines, struct err *err)
{
	uint64_t no = 0, done = 0;
	int t, rc;

	s->truncated_lines = truncated_lines;
	if (s->open_end)
		s->end_ms = s->last_t_ms >= s->start_ms ? s->last_t_ms + 1
							: s->start_ms;
	s->measured_s = (double)(s->end_ms - s->start_ms) / 1000.0;
	for (t = 0; t < TXN_NR; t++)
		done += s->type[t].ok + s->type[t].rollback;
	no = s->type[TXN_NEW_ORDER].ok + s->type[TXN_NEW_ORDER].rollback;
	if (s->measured_s > 0) {
		s->notpm = (double)no * 60.0 / s->measured_s;
		s->tpm_total = (double)done * 60.0 / s->measured_s;
	} else {
		s->notpm = s->tpm_total = NAN;
		summary_note(s, "the window is empty: no rate can be given");
	}
	rc = compute_steady(s, err);
	if (rc < 0)
		return rc;
	compute_checks(s);
	compute_server(s);
	s->retries_scope = find_retries_scope(s);
	if (!s->run.present)
		summary_note(s, "no run.json: the run is incomplete and "
				"counted as partial; retries, input bounds "
				"and cost are unknown");
	else if (s->run.partial)
		summary_note(s,
			     "partial run (%s): the figures cover what "
			     "was measured before it ended",
			     s->run.end_reason[0] ? s->run.end_reason
						  : "no reason given");
	if (truncated_lines)
		summary_note(s, "mix.csv: the last line had no newline "
				"(a run cut off mid-write?) and was ignored");
	if (s->rows_in_window == 0)
		summary_note(s, "no transaction completed in the window");
	else if (!s->open_end &&
		 s->end_ms - s->last_t_ms > 2 * SUM_STEADY_INTERVAL_MS)
		summary_note(s,
			     "the window ends %.1f s after the last "
			     "completion: rates are diluted",
			     (double)(s->end_ms - s->last_t_ms) / 1000.0);
	if (s->retries_scope && strcmp(s->retries_scope, "run") == 0)
		summary_note(s, "retries are run.json's, counted over the "
				"whole run, ramp-up included");
	else if (!s->retries_scope && s->run.present)
		summary_note(s, "retries unknown: run.json's counts match "
				"neither the window nor the whole mix.csv");
	if (!s->whole_measured && s->run.present)
		summary_note(s, "the window differs from the run's measured "
				"interval; the input bounds and cost are still "
				"run.json's");
	if (s->steady.steady < 0 && !isnan(s->steady.change_ci_pct))
		summary_note(
			s,
			"steady state unknown: the fitted change of "
			"%+.2f %% is beyond %.0f %%, but its 95 %% "
			"interval (+-%.2f %%) says noise could explain it; "
			"a longer window tells",
			s->steady.change_pct, SUM_STEADY_LIMIT_PCT,
			s->steady.change_ci_pct);
	else if (s->steady.steady < 0)
		summary_note(s,
			     "steady state unknown: %zu complete 10-s "
			     "intervals (needs %d) or no New-Order",
			     s->steady.intervals, SUM_STEADY_MIN_INTERVALS);
	return 0;
}

/* ---- summary.json ---- */

/* A real rounded to decimals places; null when unknown. */
static json_t *jreal(double x, int decimals)
{
	double scale = pow(10.0, decimals), r;

	if (!isfinite(x))
		return json_null();
	r = round(x * scale) / scale;
	if (r == 0)
		r = 0; /* no "-0.0" */
	return json_real(r);
}

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
	return jreal((double)us / 1000.0, 3);
}

static json_t *type_json(const struct summary *s, int t)
{
	const struct sum_type *ty = &s->type[t];
	json_t *o = json_object(), *resp, *svc, *dist, *counts;
	int i;

	json_object_set_new(o, "count", json_integer((json_int_t)ty->count));
	json_object_set_new(o, "share_pct", jreal(s->mix[t].value, 2));
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
			    jreal(hist_mean(&ty->response) / 1000.0, 3));
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
			    jreal(hist_mean(&ty->service) / 1000.0, 3));
	json_object_set_new(svc, "p90", ms(hist_percentile(&ty->service, 90)));
	json_object_set_new(o, "service_ms", svc);
	dist = json_object();
	json_object_set_new(dist, "range_ms", ms(ty->dist_limit_us));
	json_object_set_new(
		dist, "bucket_ms",
		jreal((double)ty->dist_limit_us / SUM_DIST_BUCKETS / 1000.0,
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
		json_object_set_new(e, value_key, jreal(c[t].value, 3));
		json_object_set_new(e, limit_key, jreal(c[t].limit, 3));
		json_object_set_new(e, "within", jtri(c[t].within));
		json_object_set_new(types, txn_type_name((enum txn_type)t), e);
	}
	json_object_set_new(o, "types", types);
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

		json_object_set_new(e, "value", jreal(b->value, 3));
		json_object_set_new(e, "min", jreal(b->min, 3));
		json_object_set_new(e, "max", jreal(b->max, 3));
		json_object_set_new(e, "applies", json_boolean(b->applies));
		json_object_set_new(e, "within", jtri(b->within));
		json_object_set_new(e, "small_sample",
				    json_boolean(b->small_sample));
		json_object_set_new(e, "noise", jreal(b->noise, 3));
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
			    jreal(s->buffer_hit_ratio, 6));
	json_object_set_new(o, "blks_hit", jcount(r->blks_hit));
	json_object_set_new(o, "blks_read", jcount(r->blks_read));
	json_object_set_new(o, "blks_read_per_s", jreal(s->blks_read_per_s, 2));
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

		json_object_set_new(e, "start_s", jreal(c->start_s, 3));
		json_object_set_new(e, "end_s", jreal(c->end_s, 3));
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
	json_object_set_new(o, "format", json_string(SUM_FORMAT));
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
	json_object_set_new(w, "start_s", jreal(s->start_ms / 1000.0, 3));
	json_object_set_new(w, "end_s", jreal(s->end_ms / 1000.0, 3));
	json_object_set_new(w, "start_from", json_string(s->start_from));
	json_object_set_new(w, "end_from", json_string(s->end_from));
	json_object_set_new(w, "whole_measured_interval",
			    json_boolean(s->whole_measured));
	json_object_set_new(o, "window", w);
	json_object_set_new(o, "measured_s", jreal(s->measured_s, 3));
	json_object_set_new(o, "ramp_up_s", jreal(r->ramp_up_s, 3));
	json_object_set_new(o, "notpm", jreal(s->notpm, 2));
	json_object_set_new(o, "tpm_total", jreal(s->tpm_total, 2));
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
	json_object_set_new(
		o, "mix_check",
		checks_json(s->mix, s->mix_ok, "share_pct", "min_pct"));
	json_object_set_new(o, "rt_limits",
			    checks_json(s->rt, s->rt_ok, "p90_ms", "limit_ms"));
	json_object_set_new(o, "input_bounds", bounds_json(s));
	st = json_object();
	json_object_set_new(st, "steady", jtri(s->steady.steady));
	json_object_set_new(st, "interval_s",
			    json_integer(SUM_STEADY_INTERVAL_MS / 1000));
	json_object_set_new(st, "intervals",
			    json_integer((json_int_t)s->steady.intervals));
	json_object_set_new(st, "mean_notpm", jreal(s->steady.mean_notpm, 2));
	json_object_set_new(st, "slope_notpm_per_min",
			    jreal(s->steady.slope_per_min, 3));
	json_object_set_new(st, "change_pct", jreal(s->steady.change_pct, 3));
	json_object_set_new(st, "change_ci_pct",
			    jreal(s->steady.change_ci_pct, 3));
	json_object_set_new(st, "limit_pct", jreal(SUM_STEADY_LIMIT_PCT, 2));
	json_object_set_new(o, "steady_state", st);
	cost = json_object();
	json_object_set_new(cost, "window_start_s", jreal(r->cost_start_s, 3));
	json_object_set_new(cost, "window_end_s", jreal(r->cost_end_s, 3));
	json_object_set_new(cost, "transactions",
			    isfinite(r->cost_start_s)
				    ? json_integer((json_int_t)s->cost_rows)
				    : json_null());
	json_object_set_new(cost, "client_cpu_s", jreal(r->client_cpu_s, 3));
	json_object_set_new(cost, "server_cpu_s", jreal(r->server_cpu_s, 3));
	json_object_set_new(
		cost, "client_us_per_txn",
		jreal(per_txn_us(r->client_cpu_s, s->cost_rows), 2));
	json_object_set_new(
		cost, "server_us_per_txn",
		jreal(per_txn_us(r->server_cpu_s, s->cost_rows), 2));
	json_object_set_new(cost, "server_pid", jcount(r->server_pid));
	json_object_set_new(o, "cost", cost);
	json_object_set_new(o, "server", server_json(s));
	run = json_object();
	json_object_set_new(run, "duration_s", jreal(r->duration_s, 3));
	json_object_set_new(run, "elapsed_s", jreal(r->elapsed_s, 3));
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
				    : jreal(s->first_t_ms / 1000.0, 3));
	json_object_set_new(mc, "last_t_s",
			    s->last_t_ms < 0 ? json_null()
					     : jreal(s->last_t_ms / 1000.0, 3));
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
	rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(j);
	if (rc < 0 || fputc('\n', f) == EOF || ferror(f))
		return err_set(err, -EIO, "summary.json: write failed");
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
	fprintf(f, "  NOTPM        ");
	put_num(f, 12, 2, s->notpm);
	fprintf(f, "   New-Orders done (committed or rolled back)/min\n");
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
		fprintf(f, " %%  at least %5.1f %%   %s\n", c->limit,
			tri_word(c->within));
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
