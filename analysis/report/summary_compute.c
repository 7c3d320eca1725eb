/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_compute.c - the figures of one run over its window
 * (summary.h), from what summary_read.c accumulated: rates, the TPC-C
 * checks (mix, 90th-percentile limits, input bounds), the steady-state
 * fit, the server's counters and the checkpoints in the window, and the
 * warnings and notes they give. summary_finish() does it all once.
 */
#include "analysis/report/summary.h"
#include "analysis/common/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* TPC-C 5.2.3 minimum shares, % (New-Order has none). */
static const double mix_min_pct[TXN_NR] = {
	[TXN_NEW_ORDER] = 0,  [TXN_PAYMENT] = 43.0,    [TXN_ORDER_STATUS] = 4.0,
	[TXN_DELIVERY] = 4.0, [TXN_STOCK_LEVEL] = 4.0,
};

/*
 * What the deck deals (terminals/deck.c: 10, 10, 1, 1, 1 of 23 cards), %:
 * the share each type's sampling noise is measured from.
 */
static const double mix_deck_pct[TXN_NR] = {
	[TXN_NEW_ORDER] = 1000.0 / 23,	 [TXN_PAYMENT] = 1000.0 / 23,
	[TXN_ORDER_STATUS] = 100.0 / 23, [TXN_DELIVERY] = 100.0 / 23,
	[TXN_STOCK_LEVEL] = 100.0 / 23,
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

/*
 * Type t's share of the window's n rows against its TPC-C minimum. The
 * deck deals 43.48 % Payments against a minimum of 43 %, so a short
 * window can fall below it by sampling noise alone; as with the input
 * bounds (bound_noise), a share below its minimum fails only when it is
 * also more than three standard errors from the deck's share, and is
 * otherwise not judged.
 */
static void mix_check(struct sum_check *m, int t, uint64_t count, uint64_t n)
{
	double p = mix_deck_pct[t] / 100.0;

	m->applies = mix_min_pct[t] > 0;
	m->limit = mix_min_pct[t];
	m->noise = NAN;
	m->small_sample = false;
	m->value = n ? 100.0 * (double)count / (double)n : NAN;
	m->within = isnan(m->value)
			    ? -1
			    : round(m->value * 1e6) >= round(m->limit * 1e6);
	if (m->within != 0)
		return;
	m->noise = 3.0 * sqrt(p * (1 - p) / (double)n) * 100.0;
	if (fabs(m->value - mix_deck_pct[t]) <= m->noise) {
		m->within = -1;
		m->small_sample = true;
	}
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

		mix_check(m, t, ty->count, s->rows_in_window);
		r->applies = true;
		r->noise = NAN;
		r->small_sample = false;
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
