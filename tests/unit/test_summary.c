/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_summary.c - report_summarize() without plots: the golden run
 * directory (tests/golden/run-basic) against its expected summary.json,
 * summary.txt and timeseries.csv byte for byte; NOTPM on a hand-made run
 * whose answer is worked out below; window selection; the steady-state
 * verdict on synthetic trends; partial runs; the input bounds and the
 * mix check with their small-sample rule; the exact
 * response-time distribution; bad input refused with the right code;
 * sys/checkpoints.csv parsed and placed on the run's clock (times worked
 * out by hand), missing or malformed; the diagnostic flag; the server
 * counters and the warnings they give.
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

#include "analysis/report/checkpoints.h"
#include "analysis/report/report.h"
#include "analysis/report/summary.h"
#include "tests/unit/fixture_util.h"

/* tests/golden, next to $OLTPMARK_FIXTURES (tests/fixtures). */
static const char *golden(const char *name)
{
	static char path[PATH_MAX];
	const char *fx = getenv("OLTPMARK_FIXTURES");

	snprintf(path, sizeof(path), "%s/../golden/%s",
		 fx ? fx : "tests/fixtures", name);
	return path;
}

static void copy_file(const char *from, const char *dir, const char *name)
{
	char *text = fixture_read_file(from, NULL);

	fixture_write_file(dir, name, text);
	free(text);
}

static char *make_dir(void)
{
	char *dir = malloc(PATH_MAX);

	assert_non_null(dir);
	assert_non_null(fixture_temp_dir(dir, PATH_MAX, "test_summary"));
	return dir;
}

static void remove_dir(char *dir)
{
	static const char *const files[] = {"mix.csv",
					    "meta.json",
					    "run.json",
					    "summary.json",
					    "summary.txt",
					    "timeseries.csv",
					    "summary.json.tmp",
					    "summary.txt.tmp",
					    "timeseries.csv.tmp",
					    "sys/checkpoints.csv"};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/sys", dir);
	rmdir(path);
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
	"\"server_pid\": null}%s}\n";

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

/* run.json; extra is "" or more keys, starting with ", ". */
static void write_run_json_extra(const char *dir, bool partial, int ramp,
				 int duration, double elapsed, int warehouses,
				 const char *counts, const char *extra)
{
	char text[4096];

	snprintf(text, sizeof(text), run_json_fmt, partial ? "true" : "false",
		 partial ? "interrupted" : "completed", ramp, duration, elapsed,
		 warehouses, counts, extra);
	fixture_write_file(dir, "run.json", text);
}

static void write_run_json_counts(const char *dir, bool partial, int ramp,
				  int duration, double elapsed, int warehouses,
				  const char *counts)
{
	write_run_json_extra(dir, partial, ramp, duration, elapsed, warehouses,
			     counts, "");
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
	fixture_write_file(dir, "mix.csv", hand_mix);
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
	fixture_write_file(dir, "mix.csv", hand_mix);
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
	summary_steady_fit(v, 10, &st);
	assert_int_equal(st.steady, 0);
	assert_float_equal(st.mean_notpm, 105, 1e-9);
	assert_float_equal(st.change_pct, 100.0 * (100.0 / 9) / 105, 1e-9);
	assert_float_equal(st.slope_per_min, 10.0 / 9 * 6, 1e-9);
	/* falling 5 %: not steady either */
	for (k = 0; k < 40; k++)
		v[k] = 1000 - 50.0 * k / 39;
	summary_steady_fit(v, 40, &st);
	assert_int_equal(st.steady, 0);
	assert_true(st.change_pct < -4.5);
	/* flat */
	for (k = 0; k < 40; k++)
		v[k] = 500 + (k % 2 ? 3 : -3);
	summary_steady_fit(v, 40, &st);
	assert_int_equal(st.steady, 1);
	/* three noisy points: fitted +4.3 %, but with one degree of freedom
	   the 95 % interval is +-138 %: too noisy to tell, not "not steady"
	   (residuals -21.67, 43.33, -21.67; SE of the slope 37.53) */
	v[0] = 1000;
	v[1] = 1080;
	v[2] = 1030;
	summary_steady_fit(v, 3, &st);
	assert_int_equal(st.steady, -1);
	assert_float_equal(st.change_pct, 100.0 * 15 * 3 / (3110.0 / 3), 1e-9);
	assert_float_equal(st.change_ci_pct,
			   100.0 * 12.7062047 * sqrt(2816.6666667 / 2) * 3 /
				   (3110.0 / 3),
			   0.01);
	/* the same +5 % without noise is a drift, even on three points */
	v[0] = 1000;
	v[1] = 1025;
	v[2] = 1050;
	summary_steady_fit(v, 3, &st);
	assert_int_equal(st.steady, 0);
	assert_float_equal(st.change_ci_pct, 0, 1e-9);
	/* no New-Orders at all: no verdict rather than a division by 0 */
	memset(v, 0, sizeof(v));
	summary_steady_fit(v, 40, &st);
	assert_int_equal(st.steady, -1);
	summary_steady_fit(v, 2, &st);
	assert_int_equal(st.steady, -1);
	summary_steady_fit(v, 0, &st);
	assert_int_equal(st.steady, -1);
}

static void test_partial(void **state)
{
	char *dir = make_dir();
	struct err err;
	json_t *s;

	(void)state;
	fixture_write_file(dir, "mix.csv", hand_mix);
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
	fixture_write_file(dir, "mix.csv", hand_mix);
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

/*
 * A short run can miss a bound by sampling noise alone: 16 rollbacks of
 * 1,400 New-Orders (1.14 %) is within three standard errors (0.80 %) of
 * 1 %, so it is not judged; 1,600 of 100,000 (1.6 %, noise 0.094 %) fails.
 */
static void test_bounds_sampling_noise(void **state)
{
	static const struct {
		int new_orders, rollbacks;
		int within; /* 1 ok, 0 failed, -1 null */
		bool small;
	} cases[] = {
		{1400, 16, -1, true},
		{100000, 1600, 0, false},
		{100000, 1000, 1, false},
		{1400, 60, 0, false}, /* 4.3 %: far beyond the noise */
	};
	char *dir = make_dir();
	struct err err;
	size_t i;

	(void)state;
	fixture_write_file(dir, "mix.csv", hand_mix);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[4096], *p;
		const json_t *w;
		json_t *s;

		write_run_json(dir, false, 10, 120, 136.0, 1);
		snprintf(text, sizeof(text), run_json_fmt, "false", "completed",
			 10, 120, 136.0, 1, counts_other, "");
		/* replace the fixed inputs with this case's */
		p = strstr(text,
			   "\"new_orders\": 1000, \"rollbacks_requested\": 10");
		assert_non_null(p);
		{
			char rest[4096], repl[128];

			snprintf(rest, sizeof(rest), "%s",
				 p + strlen("\"new_orders\": 1000, "
					    "\"rollbacks_requested\": 10"));
			snprintf(
				repl, sizeof(repl),
				"\"new_orders\": %d, \"rollbacks_requested\": %d",
				cases[i].new_orders, cases[i].rollbacks);
			snprintf(p, sizeof(text) - (size_t)(p - text), "%s%s",
				 repl, rest);
		}
		fixture_write_file(dir, "run.json", text);
		assert_int_equal(summarize(dir, -1, -1, &err), 0);
		s = load_summary(dir);
		w = jget(s, "input_bounds.checks.rollback_pct.within");
		if (cases[i].within < 0)
			assert_true(json_is_null(w));
		else
			assert_true(json_is_boolean(w) &&
				    json_is_true(w) == (cases[i].within == 1));
		assert_true(
			json_is_true(jget(
				s,
				"input_bounds.checks.rollback_pct.small_sample")) ==
			cases[i].small);
		json_decref(s);
	}
	remove_dir(dir);
}

/* mix.csv with these counts per type, all inside the window 10 .. 130 s */
static void write_mix_counts(const char *dir, const int *count)
{
	size_t size = 64, len;
	char *text;
	int t, i, row = 0;

	for (t = 0; t < TXN_NR; t++)
		size += (size_t)count[t] * 48;
	text = malloc(size);
	assert_non_null(text);
	len = (size_t)snprintf(text, size, "%s\n", MIXCSV_HEADER);
	for (t = 0; t < TXN_NR; t++)
		for (i = 0; i < count[t]; i++, row++)
			len += (size_t)snprintf(
				text + len, size - len,
				"%d,%d,%s,ok,1000,900\n", 10000 + row % 119000,
				row % 10 + 1, txn_type_name((enum txn_type)t));
	fixture_write_file(dir, "mix.csv", text);
	free(text);
}

/*
 * The mix check's small-sample rule: a share below its minimum fails
 * only when it is also more than three standard errors from the deck's
 * share (10/23 for Payment, 1/23 for the others); closer, it is not
 * judged. Payment at 42.9 % of 1,000 rows is 0.58 points from 43.48 %,
 * within the noise of 3 x sqrt(10/23 x 13/23 / 1000) = 4.703 points;
 * of 100,000 rows the noise is 0.470 and it fails. 38 % of 1,000 fails
 * (5.5 points off); Order-Status at 3.8 % of 1,000 is within its noise
 * of 1.935.
 */
static void test_mix_sampling_noise(void **state)
{
	static const struct {
		int count[TXN_NR]; /* new_order .. stock_level */
		const char *type;  /* the type below its minimum, if any */
		int within;	   /* its verdict: 1 ok, 0 failed, -1 null */
		bool small;	   /* not judged */
		double noise;	   /* expected noise, NAN: null */
		int ok;		   /* mix_check.ok: 1, 0, -1 null */
	} cases[] = {
		{{435, 429, 46, 45, 45}, "payment", -1, true, 4.703, -1},
		{{43580, 42900, 4510, 4510, 4500},
		 "payment",
		 0,
		 false,
		 0.470,
		 0},
		{{43380, 43100, 4510, 4510, 4500}, "payment", 1, false, NAN, 1},
		{{484, 380, 46, 45, 45}, "payment", 0, false, 4.703, 0},
		{{440, 437, 38, 43, 42}, "order_status", -1, true, 1.935, -1},
	};
	char *dir = make_dir(), key[128], path[PATH_MAX];
	struct err err;
	size_t i;

	(void)state;
	write_run_json(dir, false, 10, 120, 136.0, 2);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const json_t *w, *ok;
		json_t *s;

		write_mix_counts(dir, cases[i].count);
		assert_int_equal(summarize(dir, -1, -1, &err), 0);
		s = load_summary(dir);
		snprintf(key, sizeof(key), "mix_check.types.%s.within",
			 cases[i].type);
		w = jget(s, key);
		if (cases[i].within < 0)
			assert_true(json_is_null(w));
		else
			assert_true(json_is_boolean(w) &&
				    json_is_true(w) == (cases[i].within == 1));
		snprintf(key, sizeof(key), "mix_check.types.%s.small_sample",
			 cases[i].type);
		assert_true(json_is_true(jget(s, key)) == cases[i].small);
		snprintf(key, sizeof(key), "mix_check.types.%s.noise",
			 cases[i].type);
		if (isnan(cases[i].noise))
			assert_true(json_is_null(jget(s, key)));
		else
			assert_float_equal(jpath(s, key), cases[i].noise, 1e-9);
		ok = jget(s, "mix_check.ok");
		if (cases[i].ok < 0)
			assert_true(json_is_null(ok));
		else
			assert_true(json_is_true(ok) == (cases[i].ok == 1));
		json_decref(s);
		snprintf(path, sizeof(path), "%s/summary.txt", dir);
		assert_true(fixture_file_contains(
				    path, "not judged (sampling noise +-") ==
			    cases[i].small);
	}
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
	fixture_write_file(dir, "mix.csv",
			   MIXCSV_HEADER "\n1,1,payment,ok,1,1\n"
					 "2,1,payment,maybe,1,1\n");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "line 3"));
	/* a t_ms no run can have */
	fixture_write_file(dir, "mix.csv",
			   MIXCSV_HEADER "\n99999999999,1,payment,ok,1,1\n");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "line 2"));
	/* a run.json cut in the middle */
	fixture_write_file(dir, "mix.csv", hand_mix);
	fixture_write_file(dir, "run.json",
			   "{\"format\": \"oltpmark-run/1\", \"ram");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "run.json"));
	/* a future format */
	fixture_write_file(dir, "run.json", "{\"format\": \"oltpmark-run/2\"}");
	assert_int_equal(summarize(dir, -1, -1, &err), -EBADMSG);
	fixture_write_file(dir, "run.json", "[1, 2]");
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

/* meta.json of the hand-made run: started at 1700000000.250 s. */
static void write_meta(const char *dir, const char *config, const char *extra)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"format\": \"oltpmark-meta/1\", \"label\": \"t\", "
		 "\"config\": \"%s\", \"start\": \"2023-11-14T22:13:20Z\", "
		 "\"start_unix_s\": 1700000000.25%s}\n",
		 config, extra);
	fixture_write_file(dir, "meta.json", text);
}

static void write_checkpoints(const char *dir, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/sys", dir);
	mkdir(path, 0755);
	fixture_write_file(dir, "sys/checkpoints.csv", text);
}

/* Whether summary.txt holds text. */
static bool text_has(const char *dir, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	return fixture_file_contains(path, text);
}

/* Whether summary.json "warnings" has one that contains text. */
static bool has_warning(const json_t *s, const char *text)
{
	const json_t *w = jget(s, "warnings"), *v;
	size_t i;

	json_array_foreach(w, i, v)
	{
		if (strstr(json_string_value(v), text))
			return true;
	}
	return false;
}

/* The parser alone: rows, order, and what it refuses. */
static void test_checkpoints_parse(void **state)
{
	static const struct {
		const char *text; /* the file */
		int rc;		  /* expected return */
		size_t n;	  /* checkpoints read */
		const char *msg;  /* part of the error */
	} cases[] = {
		{"", 0, 0, NULL},
		{CKPT_HEADER "\n", 0, 0, NULL},
		{CKPT_HEADER "\r\n10.5,12.25,time\r\n\n", 0, 1, NULL},
		{CKPT_HEADER "\n20,21,wal\n10,11,time", 0, 2, NULL},
		{"start,end,kind\n10,11,time\n", -EBADMSG, 0, "line 1"},
		{"10,11,time\n", -EBADMSG, 0, "line 1"},
		{CKPT_HEADER "\n10,11,time\n10;11;time\n", -EBADMSG, 0,
		 "line 3"},
		{CKPT_HEADER "\n10,11\n", -EBADMSG, 0, "line 2"},
		{CKPT_HEADER "\nten,11,time\n", -EBADMSG, 0, "line 2"},
		{CKPT_HEADER "\n10,11x,time\n", -EBADMSG, 0, "line 2"},
		{CKPT_HEADER "\n-10,11,time\n", -EBADMSG, 0, "line 2"},
		{CKPT_HEADER "\n12,11,time\n", -EBADMSG, 0, "ends before"},
	};
	struct ckpt_list l;
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err_clear(&err);
		assert_int_equal(checkpoints_parse_text(cases[i].text, "x.csv",
							&l, &err),
				 cases[i].rc);
		assert_int_equal(l.n, cases[i].n);
		if (cases[i].msg) {
			assert_non_null(strstr(err.msg, "x.csv"));
			assert_non_null(strstr(err.msg, cases[i].msg));
		}
		checkpoints_free(&l);
	}
	/* sorted by start; CR and the missing last newline dropped */
	assert_int_equal(checkpoints_parse_text(CKPT_HEADER
						"\n20,21,wal\r\n"
						"30,31,time\n"
						"10,11,immediate force "
						"wait",
						"x.csv", &l, &err),
			 0);
	assert_int_equal(l.n, 3);
	assert_float_equal(l.items[0].start_s, 10, 0);
	assert_string_equal(l.items[0].kind, "immediate force wait");
	assert_string_equal(l.items[1].kind, "wal");
	assert_string_equal(l.items[2].kind, "time");
	/* placed on a run that started at 12.5 and ran 10 s: the first
	   ended before it started, the last started after it ended, the
	   second is in it */
	checkpoints_place(&l, 12.5, 10.0);
	assert_int_equal(l.n, 1);
	assert_float_equal(l.items[0].start_s, 7.5, 1e-9);
	assert_float_equal(l.items[0].end_s, 8.5, 1e-9);
	checkpoints_free(&l);
	/* a missing file */
	assert_int_equal(checkpoints_parse_file("/nonexistent/checkpoints.csv",
						"sys/checkpoints.csv", &l,
						&err),
			 -ENOENT);
	assert_int_equal(l.n, 0);
}

/*
 * The hand-made run started at 1700000000.250 s (meta.json); its window
 * is 10 .. 130 s, the run ends at 136 s (run.json's elapsed_s; the last
 * row is at 135 s). The checkpoints, in file order:
 *
 *   1700000125.250 .. 140.000  wal    125.000 .. 139.750  in the window
 *   1700000000.000 .. 005.500  imm.    -0.250 ..   5.250  run, not window
 *   1700000030.750 .. 031.000  time    30.500 ..  30.750  in the window
 *   1699999990.000 .. 000.000  time   -10.250 ..  -0.250  before: dropped
 *   1700000200.000 .. 201.000  time   199.750 .. 200.750  after: dropped
 *   1700000130.250 .. 131.000  time   130.000 .. 130.750  window end is
 *                                                         exclusive: not
 *   1700000008.250 .. 010.250  time     8.000 ..  10.000  ends at the
 *                                                         window's first
 *                                                         instant: in it
 *
 * So 5 in the run, sorted by start, 3 in the window.
 */
static const char hand_checkpoints[] =
	CKPT_HEADER "\n"
		    "1700000125.250,1700000140.000,wal\n"
		    "1700000000.000,1700000005.500,immediate force wait\n"
		    "1700000030.750,1700000031.000,time\n"
		    "1699999990.000,1700000000.000,time\n"
		    "1700000200.000,1700000201.000,time\n"
		    "1700000130.250,1700000131.000,time\n"
		    "1700000008.250,1700000010.250,time\n";

static void test_checkpoints_report(void **state)
{
	static const struct {
		double start_s, end_s; /* on the run's clock */
		const char *kind;
	} want[] = {
		{-0.25, 5.25, "immediate force wait"},
		{8.0, 10.0, "time"},
		{30.5, 30.75, "time"},
		{125.0, 139.75, "wal"},
		{130.0, 130.75, "time"},
	};
	char *dir = make_dir();
	const json_t *a, *e;
	struct err err;
	json_t *s;
	size_t i;

	(void)state;
	fixture_write_file(dir, "mix.csv", hand_mix);
	write_run_json_counts(dir, false, 10, 120, 136.0, 2, counts_window);
	write_meta(dir, "cached", "");
	/* no sys/checkpoints.csv: unknown */
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_null(jget(s, "checkpoints")));
	assert_true(json_is_null(jget(s, "checkpoints_in_window")));
	assert_int_equal(json_array_size(jget(s, "warnings")), 0);
	assert_true(text_has(dir, "Checkpoints: unknown"));
	json_decref(s);
	/* the hand-computed ones */
	write_checkpoints(dir, hand_checkpoints);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	a = jget(s, "checkpoints");
	assert_int_equal(json_array_size(a), 5);
	for (i = 0; i < 5; i++) {
		e = json_array_get(a, i);
		assert_float_equal(jpath(e, "start_s"), want[i].start_s, 1e-9);
		assert_float_equal(jpath(e, "end_s"), want[i].end_s, 1e-9);
		assert_string_equal(json_string_value(jget(e, "kind")),
				    want[i].kind);
	}
	assert_float_equal(jpath(s, "checkpoints_in_window"), 3, 0);
	assert_true(text_has(dir, "5 in the run, 3 overlapping the window"));
	assert_true(text_has(dir, "   125.000    139.750   14.750  yes    "
				  "wal"));
	assert_true(text_has(dir, "   130.000    130.750    0.750  no     "
				  "time"));
	json_decref(s);
	/* a narrower window counts fewer: 20 .. 80 s holds 30.5 only */
	assert_int_equal(summarize(dir, 20, 80, &err), 0);
	s = load_summary(dir);
	assert_int_equal(json_array_size(jget(s, "checkpoints")), 5);
	assert_float_equal(jpath(s, "checkpoints_in_window"), 1, 0);
	json_decref(s);
	/* present and empty: none, and known */
	write_checkpoints(dir, "");
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_array(jget(s, "checkpoints")));
	assert_int_equal(json_array_size(jget(s, "checkpoints")), 0);
	assert_float_equal(jpath(s, "checkpoints_in_window"), 0, 0);
	json_decref(s);
	/* malformed: a warning, not a failure, and unknown */
	write_checkpoints(dir,
			  CKPT_HEADER "\n"
				      "1700000030.750,1700000031.000,time\n"
				      "17000000x,1700000031.000,time\n");
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_null(jget(s, "checkpoints")));
	assert_true(json_is_null(jget(s, "checkpoints_in_window")));
	assert_true(has_warning(s, "sys/checkpoints.csv: line 3: "));
	assert_true(text_has(dir, "WARNING: sys/checkpoints.csv: line 3"));
	/* the message does not name the temporary directory */
	assert_false(has_warning(s, dir));
	json_decref(s);
	/* a meta.json without a start time: the file cannot be placed */
	write_checkpoints(dir, hand_checkpoints);
	fixture_write_file(
		dir, "meta.json",
		"{\"format\": \"oltpmark-meta/1\", \"config\": \"x\"}\n");
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_null(jget(s, "checkpoints")));
	assert_true(text_has(dir, "meta.json has no start time"));
	json_decref(s);
	/* "start" only (whole seconds: 1700000000, 0.25 s before
	   start_unix_s): every time moves 0.25 s later, so the checkpoint
	   that ended at -0.250 s now ends at 0 and is kept, and a note says
	   the times may be late */
	fixture_write_file(
		dir, "meta.json",
		"{\"format\": \"oltpmark-meta/1\", \"config\": \"x\", "
		"\"start\": \"2023-11-14T22:13:20Z\"}\n");
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	a = jget(s, "checkpoints");
	assert_int_equal(json_array_size(a), 6);
	assert_float_equal(jpath(json_array_get(a, 0), "end_s"), 0.0, 1e-9);
	e = json_array_get(a, 4);
	assert_float_equal(jpath(e, "start_s"), 125.25, 1e-9);
	assert_string_equal(json_string_value(jget(e, "kind")), "wal");
	assert_true(text_has(dir, "up to 1 s late"));
	json_decref(s);
	remove_dir(dir);
}

static void test_diagnostic(void **state)
{
	static const struct {
		const char *meta; /* meta.json, NULL: none */
		int want;	  /* 1, 0, -1 null */
	} cases[] = {
		/* run/oltpmark-run's note, a string */
		{"{\"format\": \"oltpmark-meta/1\", \"notes\": "
		 "{\"diagnostic\": \"true\"}}",
		 1},
		/* the note as `oltpmark run` stores it, a boolean, with the
		   first-class flag that missed a string note */
		{"{\"format\": \"oltpmark-meta/1\", \"diagnostic\": false, "
		 "\"notes\": {\"diagnostic\": \"true\"}}",
		 1},
		{"{\"format\": \"oltpmark-meta/1\", \"diagnostic\": true}", 1},
		{"{\"format\": \"oltpmark-meta/1\", \"options\": "
		 "{\"diagnostic\": true}}",
		 1},
		{"{\"format\": \"oltpmark-meta/1\", \"notes\": "
		 "{\"diagnostic\": \"false\"}}",
		 0},
		{"{\"format\": \"oltpmark-meta/1\", \"notes\": {}}", 0},
		{NULL, -1},
	};
	char *dir = make_dir(), path[PATH_MAX];
	struct err err;
	json_t *s;
	size_t i;

	(void)state;
	fixture_write_file(dir, "mix.csv", hand_mix);
	write_run_json_counts(dir, false, 10, 120, 136.0, 2, counts_window);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const json_t *d;

		if (cases[i].meta)
			fixture_write_file(dir, "meta.json", cases[i].meta);
		else
			unlink(path);
		assert_int_equal(summarize(dir, -1, -1, &err), 0);
		s = load_summary(dir);
		d = jget(s, "diagnostic");
		if (cases[i].want < 0)
			assert_true(json_is_null(d));
		else
			assert_true(json_is_boolean(d) &&
				    json_is_true(d) == cases[i].want);
		assert_int_equal(text_has(dir, "diagnostic run: profiling/"
					       "lock statistics were on; not "
					       "scored"),
				 cases[i].want == 1);
		json_decref(s);
	}
	remove_dir(dir);
}

static void test_server_counters(void **state)
{
	static const char stats_fmt[] =
		", \"server_stats\": {\"blks_hit\": %s, \"blks_read\": %s, "
		"\"xact_commit\": 11, \"xact_rollback\": 1, "
		"\"checkpoints_timed\": 2, \"checkpoints_req\": -1, "
		"\"buffers_checkpoint\": null}";
	static const struct {
		const char *config;	/* meta.json config */
		const char *notes;	/* meta.json notes, "" none */
		const char *hit, *read; /* server_stats */
		double ratio;		/* expected, NAN: null */
		const char *warning;	/* expected, NULL: none */
	} cases[] = {
		{"cached", "", "95", "5", 0.95,
		 "cached run with buffer hit ratio 95.0 %: the database did "
		 "not fit or was not pre-warmed"},
		/* exactly 99 %: fine */
		{"cached", "", "99", "1", 0.99, NULL},
		/* 98.996 % shows as such, not as "99.0 %" */
		{"cached", "", "98996", "1004", 0.98996,
		 "cached run with buffer hit ratio 98.996 %"},
		/* a non-cached run is meant to miss */
		{"noncached", ", \"notes\": {\"noncached_enforced\": \"true\"}",
		 "50", "50", 0.5, NULL},
		{"noncached",
		 ", \"notes\": {\"noncached_enforced\": \"false\"}", "50", "50",
		 0.5,
		 "non-cached run without a memory limit: reads may have come "
		 "from the page cache"},
		/* as `oltpmark run` stores the note: a boolean */
		{"noncached", ", \"notes\": {\"noncached_enforced\": false}",
		 "50", "50", 0.5, "non-cached run without a memory limit"},
		/* unknown counters: no ratio, no warning */
		{"cached", "", "-1", "5", NAN, NULL},
		{"cached", "", "0", "0", NAN, NULL},
	};
	char *dir = make_dir(), stats[512];
	struct err err;
	json_t *s;
	size_t i;

	(void)state;
	fixture_write_file(dir, "mix.csv", hand_mix);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(stats, sizeof(stats), stats_fmt, cases[i].hit,
			 cases[i].read);
		write_run_json_extra(dir, false, 10, 120, 136.0, 2,
				     counts_window, stats);
		write_meta(dir, cases[i].config, cases[i].notes);
		assert_int_equal(summarize(dir, -1, -1, &err), 0);
		s = load_summary(dir);
		if (isnan(cases[i].ratio))
			assert_true(json_is_null(
				jget(s, "server.buffer_hit_ratio")));
		else
			assert_float_equal(jpath(s, "server.buffer_hit_ratio"),
					   cases[i].ratio, 1e-9);
		if (cases[i].warning) {
			char line[300];

			assert_int_equal(json_array_size(jget(s, "warnings")),
					 1);
			assert_true(has_warning(s, cases[i].warning));
			snprintf(line, sizeof(line), "WARNING: %s",
				 cases[i].warning);
			assert_true(text_has(dir, line));
		} else {
			assert_int_equal(json_array_size(jget(s, "warnings")),
					 0);
			assert_false(text_has(dir, "WARNING"));
		}
		/* the counters as given; -1 and null are unknown */
		assert_float_equal(jpath(s, "server.checkpoints_timed"), 2, 0);
		assert_true(json_is_null(jget(s, "server.checkpoints_req")));
		assert_true(json_is_null(jget(s, "server.buffers_checkpoint")));
		assert_true(json_is_null(jget(s, "run.checkpoints")));
		assert_float_equal(jpath(s, "server.xact_commit"), 11, 0);
		json_decref(s);
	}
	/* blocks read per second over the 120-s cost window: 60 / 120 */
	snprintf(stats, sizeof(stats), stats_fmt, "950", "60");
	write_run_json_extra(dir, false, 10, 120, 136.0, 2, counts_window,
			     stats);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_float_equal(jpath(s, "server.blks_read_per_s"), 0.5, 1e-9);
	assert_true(text_has(dir, "60 blocks read, 0.50/s"));
	json_decref(s);
	/* no server_stats at all: every figure unknown */
	write_run_json_counts(dir, false, 10, 120, 136.0, 2, counts_window);
	assert_int_equal(summarize(dir, -1, -1, &err), 0);
	s = load_summary(dir);
	assert_true(json_is_null(jget(s, "server.buffer_hit_ratio")));
	assert_true(json_is_null(jget(s, "server.blks_read_per_s")));
	assert_true(json_is_null(jget(s, "server.checkpoints_timed")));
	json_decref(s);
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
	got = fixture_read_file(got_path, NULL);
	want = fixture_read_file(want_path, NULL);
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
	char *dir = make_dir(), sys[PATH_MAX];
	struct err err;
	int rc;

	(void)state;
	copy_file(golden("run-basic/mix.csv"), dir, "mix.csv");
	copy_file(golden("run-basic/meta.json"), dir, "meta.json");
	copy_file(golden("run-basic/run.json"), dir, "run.json");
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	assert_int_equal(mkdir(sys, 0755), 0);
	copy_file(golden("run-basic/sys/checkpoints.csv"), dir,
		  "sys/checkpoints.csv");
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
		cmocka_unit_test(test_bounds_sampling_noise),
		cmocka_unit_test(test_mix_sampling_noise),
		cmocka_unit_test(test_distribution),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_checkpoints_parse),
		cmocka_unit_test(test_checkpoints_report),
		cmocka_unit_test(test_diagnostic),
		cmocka_unit_test(test_server_counters),
		cmocka_unit_test(test_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
