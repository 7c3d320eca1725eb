/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_summary.c - report_summarize() without plots: the golden run
 * directory (tests/golden/run-basic) against its expected summary.json,
 * summary.txt and timeseries.csv byte for byte; NOTPM on a hand-made run
 * whose answer is worked out below; window selection; the steady-state
 * verdict on synthetic trends; partial runs; the input bounds; the exact
 * response-time distribution; bad input refused with the right code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis/report.h"
#include "analysis/summary.h"

/* tests/golden, next to $OLTPMARK_FIXTURES (tests/fixtures). */
static const char *golden(const char *name)
{
	static char path[PATH_MAX];
	const char *fx = getenv("OLTPMARK_FIXTURES");

	snprintf(path, sizeof(path), "%s/../golden/%s",
		 fx ? fx : "tests/fixtures", name);
	return path;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *read_whole(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void copy_file(const char *from, const char *dir, const char *name)
{
	char *text = read_whole(from);

	write_file(dir, name, text);
	free(text);
}

static char *make_dir(void)
{
	char *dir = strdup("/tmp/test_summary.XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static void remove_dir(char *dir)
{
	static const char *const files[] = {
		"mix.csv",	    "meta.json",       "run.json",
		"summary.json",	    "summary.txt",     "timeseries.csv",
		"summary.json.tmp", "summary.txt.tmp", "timeseries.csv.tmp",
	};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

/* Summarise dir with the given window, no plots. */
static int summarize(const char *dir, double start_s, double end_s,
		     struct err *err)
{
	struct report_options o = {
		.ramp_up_s = start_s, .window_end_s = end_s, .plots = false};

	err_clear(err);
	return report_summarize(dir, &o, err);
}

static json_t *load_summary(const char *dir)
{
	char path[PATH_MAX];
	json_error_t jerr;
	json_t *j;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	j = json_load_file(path, 0, &jerr);
	if (!j)
		fail_msg("%s: %s", path, jerr.text);
	return j;
}

/* A number at a dotted path ("types.new_order.count"); NAN if absent. */
static double jpath(const json_t *j, const char *path)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && j;
	     tok = strtok_r(NULL, ".", &save))
		j = json_object_get(j, tok);
	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* The JSON value at a dotted path, or NULL. */
static const json_t *jget(const json_t *j, const char *path)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && j;
	     tok = strtok_r(NULL, ".", &save))
		j = json_object_get(j, tok);
	return j;
}

static const char run_json_fmt[] =
	"{\"format\": \"oltpmark-run/1\", \"partial\": %s, "
	"\"end_reason\": \"%s\", \"ramp_up_s\": %d, \"duration_s\": %d, "
	"\"elapsed_s\": %.1f, \"warehouses\": %d, \"terminals\": 10, "
	"\"connections\": 2, \"keying_think\": \"none\", "
	"\"tx_mode\": \"procedure\", "
	"\"counts\": {%s}, "
	"\"inputs\": {\"new_orders\": 1000, \"rollbacks_requested\": 10, "
	"\"order_lines\": 10000, \"remote_order_lines\": 0, "
	"\"payments\": 1000, \"remote_payments\": 0, "
	"\"payments_by_name\": 600, \"order_status\": 100, "
	"\"order_status_by_name\": 61, \"deliveries_queued\": 50, "
	"\"deliveries_completed\": 50, \"deliveries_not_done\": 0, "
	"\"delivery_skipped_districts\": 3, \"deliveries_with_skips\": 1}, "
	"\"connections_lost\": 0, \"reconnects\": 0, "
	"\"cost\": {\"window_start_s\": 10, \"window_end_s\": 130, "
	"\"client_cpu_s\": 2.0, \"server_cpu_s\": null, "
	"\"server_pid\": null}}\n";

/* run.json's counts: matching hand_mix's window 10 .. 130 s ... */
static const char counts_window[] =
	"\"new_order\": {\"ok\": 4, \"rollback\": 1, \"error\": 1, "
	"\"retries\": 7}, \"payment\": {\"ok\": 4, \"rollback\": 0, "
	"\"error\": 1, \"retries\": 2}, \"order_status\": {\"ok\": 0, "
	"\"rollback\": 0, \"error\": 0, \"retries\": 0}, \"delivery\": "
	"{\"ok\": 0, \"rollback\": 0, \"error\": 0, \"retries\": 0}, "
	"\"stock_level\": {\"ok\": 0, \"rollback\": 0, \"error\": 0, "
	"\"retries\": 0}";
/* ... matching the whole of hand_mix (ramp-up and tail included) ... */
static const char counts_run[] =
	"\"new_order\": {\"ok\": 6, \"rollback\": 1, \"error\": 1, "
	"\"retries\": 9}, \"payment\": {\"ok\": 4, \"rollback\": 0, "
	"\"error\": 1, \"retries\": 2}, \"order_status\": {\"ok\": 0, "
	"\"rollback\": 0, \"error\": 0, \"retries\": 0}, \"delivery\": "
	"{\"ok\": 1, \"rollback\": 0, \"error\": 0, \"retries\": 0}, "
	"\"stock_level\": {\"ok\": 0, \"rollback\": 0, \"error\": 0, "
	"\"retries\": 0}";
/* ... and matching nothing. */
static const char counts_other[] =
	"\"new_order\": {\"ok\": 1, \"rollback\": 1, \"error\": 1, "
	"\"retries\": 7}, \"payment\": {\"retries\": 2}";

static void write_run_json_counts(const char *dir, bool partial, int ramp,
				  int duration, double elapsed, int warehouses,
				  const char *counts)
{
	char text[4096];

	snprintf(text, sizeof(text), run_json_fmt, partial ? "true" : "false",
		 partial ? "interrupted" : "completed", ramp, duration, elapsed,
		 warehouses, counts);
	write_file(dir, "run.json", text);
}

static void write_run_json(const char *dir, bool partial, int ramp,
			   int duration, double elapsed, int warehouses)
{
	write_run_json_counts(dir, partial, ramp, duration, elapsed, warehouses,
			      counts_other);
}

/*
 * The hand-made run: ramp-up 10 s, 120 s measured (10 .. 130 s).
 * New-Orders that count: 10000 (start is inclusive), 20000, 50000,
 * 60000 (rolled back: counts), 129999 = 5 in 2 minutes: NOTPM 2.50.
 * Not counted: 5000 (ramp-up), 70000 (error), 130000 (end is exclusive).
 * Total TPM: 5 New-Orders + 4 Payments ok = 9 / 2 = 4.50.
 */
static const char hand_mix[] =
	MIXCSV_HEADER "\n"
		      "5000,1,new_order,ok,1000,900\n"
		      "20000,2,new_order,ok,2000,1800\n"
		      "10000,1,new_order,ok,3000,2500\n"
		      "50000,3,new_order,ok,4000,3000\n"
		      "60000,4,new_order,rollback,5000,4000\n"
		      "70000,5,new_order,error,6000,5000\n"
		      "129999,6,new_order,ok,7000,6000\n"
		      "130000,7,new_order,ok,8000,7000\n"
		      "11000,1,payment,ok,1000,900\n"
		      "21000,2,payment,ok,1000,900\n"
		      "31000,3,payment,ok,1000,900\n"
		      "41000,4,payment,ok,1000,900\n"
		      "51000,5,payment,error,1000,900\n"
		      "135000,9,delivery,ok,60000000,100\n";

static void test_notpm_by_hand(void **state)
{
	char *dir = make_dir();
	struct err err;
	json_t *s;

	(void)state;
	write_file(dir, "mix.csv", hand_mix);
	write_run_json_counts(dir, false, 10, 120, 136.0, 2, counts_window);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_float_equal(jpath(s, "notpm"), 2.5, 1e-9);
	assert_float_equal(jpath(s, "tpm_total"), 4.5, 1e-9);
	assert_float_equal(jpath(s, "measured_s"), 120.0, 1e-9);
	assert_float_equal(jpath(s, "window.start_s"), 10.0, 1e-9);
	assert_float_equal(jpath(s, "window.end_s"), 130.0, 1e-9);
	assert_true(json_is_true(jget(s, "window.whole_measured_interval")));
	assert_float_equal(jpath(s, "types.new_order.count"), 6, 0);
	assert_float_equal(jpath(s, "types.new_order.rollback"), 1, 0);
	assert_float_equal(jpath(s, "types.new_order.error"), 1, 0);
	assert_float_equal(jpath(s, "types.new_order.retries"), 7, 0);
	assert_float_equal(jpath(s, "types.payment.count"), 5, 0);
	assert_float_equal(jpath(s, "types.payment.retries"), 2, 0);
	assert_float_equal(jpath(s, "types.delivery.retries"), 0, 0);
	assert_float_equal(jpath(s, "transactions.count"), 11, 0);
	/* 6 of 11 rows are New-Orders */
	assert_float_equal(jpath(s, "types.new_order.share_pct"), 54.55, 1e-9);
	assert_true(json_is_false(jget(s, "partial")));
	/* cost: 2 s of client CPU over the 11 rows in 10 .. 130 s */
	assert_float_equal(jpath(s, "cost.transactions"), 11, 0);
	assert_float_equal(jpath(s, "cost.client_us_per_txn"), 181818.18, 1e-6);
	assert_true(json_is_null(jget(s, "cost.server_us_per_txn")));
	/* the Delivery in the tail is outside: no data for it */
	assert_true(json_is_null(jget(s, "types.delivery.response_ms")));
	assert_string_equal(
		json_string_value(jget(s, "transactions.retries_scope")),
		"window");
	json_decref(s);
	/* counts of the whole run: retries are given, said to be the run's */
	write_run_json_counts(dir, false, 10, 120, 136.0, 2, counts_run);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_string_equal(
		json_string_value(jget(s, "transactions.retries_scope")),
		"run");
	assert_float_equal(jpath(s, "types.new_order.retries"), 9, 0);
	json_decref(s);
	/* counts that match nothing: retries unknown */
	write_run_json(dir, false, 10, 120, 136.0, 2);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_null(jget(s, "transactions.retries_scope")));
	assert_true(json_is_null(jget(s, "types.new_order.retries")));
	json_decref(s);
	remove_dir(dir);
}

static void test_window_option(void **state)
{
	char *dir = make_dir();
	struct err err;
	json_t *s;

	(void)state;
	write_file(dir, "mix.csv", hand_mix);
	write_run_json_counts(dir, false, 10, 120, 136.0, 2, counts_window);
	/* 20 .. 80 s: New-Orders 20000, 50000, 60000 (rollback) = 3 in one
	   minute; Payments 21000, 31000, 41000 ok */
	assert_int_equal(summarize(dir, 20, 80, &err), 0);
	s = load_summary(dir);
	assert_float_equal(jpath(s, "notpm"), 3.0, 1e-9);
	assert_float_equal(jpath(s, "tpm_total"), 6.0, 1e-9);
	assert_float_equal(jpath(s, "measured_s"), 60.0, 1e-9);
	assert_string_equal(json_string_value(jget(s, "window.start_from")),
			    "option");
	assert_true(json_is_false(jget(s, "window.whole_measured_interval")));
	/* run.json's counts are another interval's: retries unknown */
	assert_true(json_is_null(jget(s, "types.new_order.retries")));
	assert_true(json_is_null(jget(s, "transactions.retries_scope")));
	json_decref(s);
	/* only a later start: the end stays run.json's 130 s */
	assert_int_equal(summarize(dir, 60, -1, &err), 0);
	s = load_summary(dir);
	/* 60000 (rollback), 129999 = 2 in 70 s */
	assert_float_equal(jpath(s, "notpm"), 2.0 * 60 / 70, 0.005);
	assert_float_equal(jpath(s, "window.end_s"), 130.0, 1e-9);
	json_decref(s);
	/* a window that ends before it starts is bad input */
	assert_int_equal(summarize(dir, 200, -1, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "empty"));
	remove_dir(dir);
}

/* Write a run whose per-10-s New-Order counts are counts[0..n-1]. */
static void write_trend(const char *dir, const int *counts, int n)
{
	char path[PATH_MAX];
	FILE *f;
	int k, i;

	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", MIXCSV_HEADER);
	for (k = 0; k < n; k++)
		for (i = 0; i < counts[k]; i++)
			fprintf(f, "%d,%d,new_order,ok,1000,900\n",
				10000 + k * 10000 + i * 10000 / counts[k], i);
	fclose(f);
	write_run_json(dir, false, 10, n * 10, n * 10 + 10.0, 2);
}

static void test_steady_state(void **state)
{
	int counts[30], k;
	char *dir = make_dir();
	struct err err;
	json_t *s;

	(void)state;
	/* +5 % over the window: 1000 .. 1050 per 10 s */
	for (k = 0; k < 30; k++)
		counts[k] = 1000 + 50 * k / 29;
	write_trend(dir, counts, 30);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_false(jget(s, "steady_state.steady")));
	assert_float_equal(jpath(s, "steady_state.intervals"), 30, 0);
	assert_true(jpath(s, "steady_state.change_pct") > 4.5 &&
		    jpath(s, "steady_state.change_pct") < 5.5);
	json_decref(s);
	/* flat with +-1 % noise: steady */
	for (k = 0; k < 30; k++)
		counts[k] = 1000 + ((k * 7) % 5 - 2) * 5;
	write_trend(dir, counts, 30);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_true(jget(s, "steady_state.steady")));
	assert_true(fabs(jpath(s, "steady_state.change_pct")) < 2);
	json_decref(s);
	/* two intervals: no verdict */
	write_trend(dir, counts, 2);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_null(jget(s, "steady_state.steady")));
	assert_float_equal(jpath(s, "steady_state.intervals"), 2, 0);
	json_decref(s);
	remove_dir(dir);
}

static void test_steady_fit(void **state)
{
	double v[40];
	struct sum_steady st;
	int k;

	(void)state;
	/* exactly linear from 100 to 110 over 10 points: slope 10/9 per
	   interval, change over 10 intervals 100/9 = 11.11 of mean 105 */
	for (k = 0; k < 10; k++)
		v[k] = 100 + 10.0 * k / 9;
	sum_steady_fit(v, 10, &st);
	assert_int_equal(st.steady, 0);
	assert_float_equal(st.mean_notpm, 105, 1e-9);
	assert_float_equal(st.change_pct, 100.0 * (100.0 / 9) / 105, 1e-9);
	assert_float_equal(st.slope_per_min, 10.0 / 9 * 6, 1e-9);
	/* falling 5 %: not steady either */
	for (k = 0; k < 40; k++)
		v[k] = 1000 - 50.0 * k / 39;
	sum_steady_fit(v, 40, &st);
	assert_int_equal(st.steady, 0);
	assert_true(st.change_pct < -4.5);
	/* flat */
	for (k = 0; k < 40; k++)
		v[k] = 500 + (k % 2 ? 3 : -3);
	sum_steady_fit(v, 40, &st);
	assert_int_equal(st.steady, 1);
	/* no New-Orders at all: no verdict rather than a division by 0 */
	memset(v, 0, sizeof(v));
	sum_steady_fit(v, 40, &st);
	assert_int_equal(st.steady, -1);
	sum_steady_fit(v, 2, &st);
	assert_int_equal(st.steady, -1);
	sum_steady_fit(v, 0, &st);
	assert_int_equal(st.steady, -1);
}

static void test_partial(void **state)
{
	char *dir = make_dir();
	struct err err;
	json_t *s;

	(void)state;
	write_file(dir, "mix.csv", hand_mix);
	/* ended at 70 s of a planned 130: the window ends there */
	write_run_json(dir, true, 10, 120, 70.0, 2);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_true(jget(s, "partial")));
	assert_string_equal(json_string_value(jget(s, "end_reason")),
			    "interrupted");
	assert_float_equal(jpath(s, "window.end_s"), 70.0, 1e-9);
	/* 10000, 20000, 50000, 60000 in 60 s */
	assert_float_equal(jpath(s, "notpm"), 4.0, 1e-9);
	json_decref(s);
	/* no run.json at all: partial, window up to the last row */
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/run.json", dir);
		unlink(path);
	}
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_true(jget(s, "partial")));
	assert_float_equal(jpath(s, "window.start_s"), 0, 1e-9);
	assert_float_equal(jpath(s, "window.end_s"), 135.001, 1e-9);
	assert_true(json_is_null(jget(s, "input_bounds.ok")));
	assert_true(json_array_size(jget(s, "notes")) > 0);
	json_decref(s);
	remove_dir(dir);
}

static void test_bounds(void **state)
{
	char *dir = make_dir();
	struct err err;
	json_t *s;

	(void)state;
	write_file(dir, "mix.csv", hand_mix);
	write_run_json(dir, false, 10, 120, 136.0, 1);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_float_equal(jpath(s, "input_bounds.checks.rollback_pct.value"),
			   1.0, 1e-9);
	assert_true(json_is_true(
		jget(s, "input_bounds.checks.rollback_pct.within")));
	assert_float_equal(
		jpath(s, "input_bounds.checks.lines_per_order.value"), 10.0,
		1e-9);
	/* one warehouse: no remote anything */
	assert_true(json_is_false(
		jget(s, "input_bounds.checks.remote_lines_pct.applies")));
	assert_true(json_is_null(
		jget(s, "input_bounds.checks.remote_payments_pct.within")));
	assert_float_equal(
		jpath(s, "input_bounds.checks.order_status_by_name_pct.value"),
		61.0, 1e-9);
	/* 1 Delivery of 50 with skips: 2 % but "at most one" allows it */
	assert_float_equal(
		jpath(s, "input_bounds.checks.skipped_deliveries_pct.value"),
		2.0, 1e-9);
	assert_true(json_is_true(
		jget(s, "input_bounds.checks.skipped_deliveries_pct.within")));
	assert_true(json_is_true(jget(s, "input_bounds.ok")));
	json_decref(s);
	/* two warehouses: 0 % remote is out of bounds */
	write_run_json(dir, false, 10, 120, 136.0, 2);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_false(
		jget(s, "input_bounds.checks.remote_lines_pct.within")));
	assert_true(json_is_false(jget(s, "input_bounds.ok")));
	json_decref(s);
	remove_dir(dir);
}

/* The distribution counts every row exactly once, by its bucket. */
static void test_distribution(void **state)
{
	char *dir = make_dir(), path[PATH_MAX];
	struct err err;
	const json_t *counts;
	double range_us, total = 0;
	uint64_t want[SUM_DIST_BUCKETS] = {0}, over = 0;
	json_t *s;
	FILE *f;
	int i;

	(void)state;
	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", MIXCSV_HEADER);
	for (i = 0; i < 1000; i++)
		fprintf(f, "%d,1,stock_level,ok,%d,1\n", 20000 + i,
			(i * 7919) % 50000 + (i % 50 == 0 ? 400000 : 0));
	fclose(f);
	write_run_json(dir, false, 10, 120, 136.0, 2);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	range_us =
		jpath(s, "types.stock_level.rt_distribution.range_ms") * 1000;
	/* 4 x p90, p90 within the histogram's 0.8 % of the true one */
	assert_true(fabs(range_us / 4 -
			 jpath(s, "types.stock_level.response_ms.p90") * 1000) <
		    1);
	for (i = 0; i < 1000; i++) {
		uint64_t v = (uint64_t)((i * 7919) % 50000 +
					(i % 50 == 0 ? 400000 : 0));

		if (v >= (uint64_t)llround(range_us))
			over++;
		else
			want[v * SUM_DIST_BUCKETS /
			     (uint64_t)llround(range_us)]++;
	}
	counts = jget(s, "types.stock_level.rt_distribution.counts");
	assert_int_equal(json_array_size(counts), SUM_DIST_BUCKETS);
	for (i = 0; i < SUM_DIST_BUCKETS; i++) {
		assert_int_equal(json_integer_value(json_array_get(counts, i)),
				 want[i]);
		total += (double)json_integer_value(json_array_get(counts, i));
	}
	assert_float_equal(jpath(s, "types.stock_level.rt_distribution.over"),
			   (double)over, 0);
	assert_float_equal(total + (double)over, 1000, 0);
	json_decref(s);
	remove_dir(dir);
}

static void test_bad_input(void **state)
{
	char *dir = make_dir(), path[PATH_MAX];
	struct err err;

	(void)state;
	/* no mix.csv: not a run directory */
	assert_int_equal(summarize(dir, -1, -1, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "not a run directory"));
	/* a corrupt row, named by line */
	write_file(dir, "mix.csv",
		   MIXCSV_HEADER "\n1,1,payment,ok,1,1\n"
				 "2,1,payment,maybe,1,1\n");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "line 3"));
	/* a t_ms no run can have */
	write_file(dir, "mix.csv",
		   MIXCSV_HEADER "\n99999999999,1,payment,ok,1,1\n");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "line 2"));
	/* a run.json cut in the middle */
	write_file(dir, "mix.csv", hand_mix);
	write_file(dir, "run.json", "{\"format\": \"oltpmark-run/1\", \"ram");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "run.json"));
	/* a future format */
	write_file(dir, "run.json", "{\"format\": \"oltpmark-run/2\"}");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	write_file(dir, "run.json", "[1, 2]");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	/* nothing was written for the failed attempts */
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	assert_int_not_equal(access(path, F_OK), 0);
	/* not a directory, not there */
	snprintf(path, sizeof(path), "%s/run.json", dir);
	assert_int_equal(summarize(path, -1, -1, &err), -ENOTDIR);
	assert_int_equal(summarize("/nonexistent/run", -1, -1, &err), -ENOENT);
	remove_dir(dir);
}

static void compare_with_expected(const char *dir, const char *name)
{
	char got_path[PATH_MAX], want_path[PATH_MAX];
	char *got, *want;

	snprintf(got_path, sizeof(got_path), "%s/%s", dir, name);
	snprintf(want_path, sizeof(want_path), "%s",
		 golden("run-basic/expected/"));
	strncat(want_path, name, sizeof(want_path) - strlen(want_path) - 1);
	got = read_whole(got_path);
	want = read_whole(want_path);
	if (strcmp(got, want) != 0) {
		size_t i = 0;

		while (got[i] && got[i] == want[i])
			i++;
		fail_msg("%s differs from %s at byte %zu (diff them)", got_path,
			 want_path, i);
	}
	free(got);
	free(want);
}

static void test_golden(void **state)
{
	char *dir = make_dir();
	struct err err;
	int rc;

	(void)state;
	copy_file(golden("run-basic/mix.csv"), dir, "mix.csv");
	copy_file(golden("run-basic/meta.json"), dir, "meta.json");
	copy_file(golden("run-basic/run.json"), dir, "run.json");
	rc = summarize(dir, -1, -1, &err);
	if (rc < 0)
		fail_msg("report: %s", err.msg);
	compare_with_expected(dir, "summary.json");
	compare_with_expected(dir, "summary.txt");
	compare_with_expected(dir, "timeseries.csv");
	/* the same again: deterministic */
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	compare_with_expected(dir, "summary.json");
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notpm_by_hand),
		cmocka_unit_test(test_window_option),
		cmocka_unit_test(test_steady_state),
		cmocka_unit_test(test_steady_fit),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_distribution),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
