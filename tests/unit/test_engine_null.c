/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_engine_null.c - the whole engine with the null driver: a short run
 * writes a mix.csv whose every row is well formed and whose rows agree
 * with the run's counters and run.json; pacing slows terminals down as
 * configured; a stop request ends a run early as a partial one; the
 * mix.csv row formatter writes what the reader expects.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "drivers/driver.h"
#include "src/base/clock.h"
#include "analysis/report/mixcsv.h"
#include "terminals/run.h"
#include "tests/unit/fixture_util.h"

/* A fresh temporary directory for one run's results. */
static void make_dir(char *dir, size_t size)
{
	assert_non_null(fixture_temp_dir(dir, size, "oltpmark-engine"));
}

static void remove_dir(const char *dir)
{
	static const char *const files[] = {"mix.csv", "mix.csv.tmp",
					    "run.json", "run.json.tmp"};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
}

static struct run_config base_config(const char *dir)
{
	struct run_config c;

	memset(&c, 0, sizeof(c));
	c.driver = driver_find("null");
	c.db.tx_mode = DRIVER_TX_PROCEDURE;
	c.max_retries = 3;
	c.warehouses = 2;
	c.terminals_per_w = 10;
	c.connections = 2;
	c.ramp_up_s = 1;
	c.duration_s = 1;
	c.pacing = (struct pacing){PACING_NONE, 0.0};
	c.seed = 1234;
	c.progress_s = 1;
	c.reconnect_s = 90;
	c.drain_s = 5;
	c.out_dir = dir;
	return c;
}

/* The status words of mix.csv and run.json, as docs/formats.md gives them. */
static const char *const status_words[TXN_STATUS_NR] = {
	[TXN_STATUS_OK] = "ok",
	[TXN_STATUS_ROLLBACK] = "rollback",
	[TXN_STATUS_ERROR] = "error",
};

/* The type named name in mix.csv, or -1. */
static int type_index(const char *name)
{
	int i;

	for (i = 0; i < TXN_NR; i++)
		if (strcmp(name, txn_type_name((enum txn_type)i)) == 0)
			return i;
	return -1;
}

/* The status named name in mix.csv, or -1. */
static int status_index(const char *name)
{
	int i;

	for (i = 0; i < TXN_STATUS_NR; i++)
		if (strcmp(name, status_words[i]) == 0)
			return i;
	return -1;
}

/* Counts per (type, status) and sanity of every row of DIR/mix.csv. */
struct mix_counts {
	uint64_t rows;
	uint64_t txn[TXN_NR][TXN_STATUS_NR];
	long long max_t_ms;
};

static void read_mix(const char *dir, int terminals, struct mix_counts *mc)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	memset(mc, 0, sizeof(*mc));
	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, MIXLOG_HEADER);
	while (fgets(line, sizeof(line), f)) {
		char type[32], status[32];
		long long t_ms, resp, svc;
		int term, ti, si, n = 0;

		assert_non_null(strchr(line, '\n'));
		assert_int_equal(
			sscanf(line, "%lld,%d,%31[a-z_],%31[a-z],%lld,%lld%n",
			       &t_ms, &term, type, status, &resp, &svc, &n),
			6);
		assert_string_equal(line + n, "\n");
		ti = type_index(type);
		si = status_index(status);
		assert_true(ti >= 0);
		assert_true(si >= 0);
		assert_in_range(term, 1, terminals);
		assert_true(t_ms >= 0);
		assert_true(resp >= svc);
		assert_true(svc >= 0);
		/* only New-Orders roll back */
		if (si == TXN_STATUS_ROLLBACK)
			assert_int_equal(ti, TXN_NEW_ORDER);
		if (t_ms > mc->max_t_ms)
			mc->max_t_ms = t_ms;
		mc->txn[ti][si]++;
		mc->rows++;
	}
	fclose(f);
}

static uint64_t json_u(json_t *obj, const char *a, const char *b)
{
	json_t *v = json_object_get(obj, a);

	if (b)
		v = json_object_get(v, b);
	assert_true(json_is_integer(v));
	return (uint64_t)json_integer_value(v);
}

static void check_run_json(const char *dir, const struct run_result *r,
			   const struct mix_counts *mc, const char *end)
{
	static const char *const fields[] = {
		"format",	"partial",	    "end_reason", "ramp_up_s",
		"duration_s",	"elapsed_s",	    "warehouses", "terminals",
		"connections",	"keying_think",	    "tx_mode",	  "counts",
		"inputs",	"connections_lost", "reconnects", "cost",
		"server_stats",
	};
	static const char *const inputs[] = {
		"new_orders",
		"rollbacks_requested",
		"order_lines",
		"remote_order_lines",
		"payments",
		"remote_payments",
		"payments_by_name",
		"order_status",
		"order_status_by_name",
		"deliveries_queued",
		"deliveries_completed",
		"deliveries_not_done",
		"delivery_skipped_districts",
		"deliveries_with_skips",
	};
	static const char *const cost[] = {"window_start_s", "window_end_s",
					   "client_cpu_s", "server_cpu_s",
					   "server_pid"};
	char path[PATH_MAX];
	json_error_t jerr;
	json_t *o, *counts, *in;
	size_t i;
	int t, s;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	o = json_load_file(path, 0, &jerr);
	assert_non_null(o);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		assert_non_null(json_object_get(o, fields[i]));
	assert_string_equal(json_string_value(json_object_get(o, "format")),
			    "oltpmark-run/1");
	assert_string_equal(json_string_value(json_object_get(o, "end_reason")),
			    end);
	assert_int_equal(json_is_true(json_object_get(o, "partial")),
			 strcmp(end, "completed") != 0);
	/* the null driver has no server process to read schedstat of */
	assert_true(json_is_false(json_object_get(
		json_object_get(o, "backend_cpu"), "measured")));
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(o, "backend_cpu"), "reason")),
		"the null driver has no server backends");
	assert_true(json_is_null(
		json_object_get(json_object_get(o, "backend_cpu"), "types")));
	counts = json_object_get(o, "counts");
	for (t = 0; t < TXN_NR; t++) {
		json_t *c = json_object_get(counts, txn_type_name(t));

		for (s = 0; s < TXN_STATUS_NR; s++)
			assert_int_equal(json_u(c, status_words[s], NULL),
					 mc->txn[t][s]);
		assert_int_equal(json_u(c, "retries", NULL), 0);
	}
	in = json_object_get(o, "inputs");
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		json_u(in, inputs[i], NULL);
	for (i = 0; i < sizeof(cost) / sizeof(cost[0]); i++)
		assert_non_null(
			json_object_get(json_object_get(o, "cost"), cost[i]));
	assert_int_equal(json_u(o, "mix_rows", NULL), mc->rows);
	assert_int_equal(json_u(in, "new_orders", NULL), r->counts.new_orders);
	json_decref(o);
}

/* Rows, counters, inputs and run.json agree with each other. */
static void check_agreement(const struct run_result *r,
			    const struct mix_counts *mc)
{
	const struct worker_counts *c = &r->counts;
	uint64_t no_rows = 0, dy_rows = 0;
	int t, s;

	assert_int_equal(mc->rows, r->mix_rows);
	for (t = 0; t < TXN_NR; t++)
		for (s = 0; s < TXN_STATUS_NR; s++)
			assert_int_equal(mc->txn[t][s], c->txn[t][s]);
	for (s = 0; s < TXN_STATUS_NR; s++) {
		no_rows += mc->txn[TXN_NEW_ORDER][s];
		dy_rows += mc->txn[TXN_DELIVERY][s];
	}
	/* every New-Order input executed has its row */
	assert_int_equal(c->new_orders, no_rows);
	/* the null driver rolls back exactly the rbk = 1 orders */
	assert_int_equal(c->rollbacks_requested,
			 mc->txn[TXN_NEW_ORDER][TXN_STATUS_ROLLBACK]);
	assert_int_equal(c->payments, mc->txn[TXN_PAYMENT][TXN_STATUS_OK]);
	assert_int_equal(c->order_status,
			 mc->txn[TXN_ORDER_STATUS][TXN_STATUS_OK]);
	/* every queued Delivery ran, or is counted as not done */
	assert_int_equal(c->deliveries_queued,
			 dy_rows + c->deliveries_not_done);
	assert_int_equal(c->deliveries_completed,
			 mc->txn[TXN_DELIVERY][TXN_STATUS_OK]);
	assert_int_equal(c->connections_lost, 0);
}

static int progress_calls;

static void count_progress(void *ctx, const struct run_progress *p)
{
	(void)ctx;
	assert_true(p->elapsed_s > 0);
	assert_true(p->tpm >= p->notpm);
	progress_calls++;
}

/*
 * W = 2 with paced terminals (scale=0.0001: a 2 ms mean cycle), 1 s
 * ramp-up + 2 s: everything is recorded, progress comes each second.
 */
static void test_short_run(void **state)
{
	struct run_config c;
	struct run *run;
	struct err err;
	struct mix_counts mc;
	const struct run_result *r;
	char dir[PATH_MAX];

	(void)state;
	make_dir(dir, sizeof(dir));
	c = base_config(dir);
	c.pacing = (struct pacing){PACING_SCALE, 0.0001};
	c.duration_s = 2;
	c.progress = count_progress;
	progress_calls = 0;
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(run_execute(run, &err), 0);
	r = run_get_result(run);
	assert_int_equal(r->end, RUN_END_COMPLETED);
	assert_false(r->partial);
	assert_true(r->mix_rows > 1000);
	assert_true(r->elapsed_s >= 3.0);
	assert_true(r->finished_s >= r->elapsed_s);
	assert_true(r->window);
	assert_true(r->window_end_s > r->window_start_s);
	assert_true(r->client_cpu_s >= 0);
	assert_int_equal(progress_calls, 2);
	assert_int_equal(run_write_json(run, &err), 0);
	read_mix(dir, 20, &mc);
	assert_true(mc.max_t_ms <= (long long)(r->finished_s * 1000) + 1);
	check_agreement(r, &mc);
	check_run_json(dir, r, &mc, "completed");
	run_close(run);
	remove_dir(dir);
}

/* Back to back (none), one connection: the busy path records all too. */
static void test_back_to_back(void **state)
{
	struct run_config c;
	struct run *run;
	struct err err;
	struct mix_counts mc;
	const struct run_result *r;
	char dir[PATH_MAX];

	(void)state;
	make_dir(dir, sizeof(dir));
	c = base_config(dir);
	c.warehouses = 1;
	c.connections = 1;
	c.ramp_up_s = 0;
	c.progress_s = 0;
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(run_execute(run, &err), 0);
	r = run_get_result(run);
	assert_int_equal(r->end, RUN_END_COMPLETED);
	/* thousands of times what the paced runs do */
	assert_true(r->mix_rows > 50000);
	read_mix(dir, 10, &mc);
	check_agreement(r, &mc);
	run_close(run);
	remove_dir(dir);
}

/*
 * Paced: scale=0.001 makes a terminal's mean cycle 476 ms / 23 = 20.7 ms
 * (keying + think over the deck), so 20 terminals finish about 966
 * transactions a second; the rate must be in that region, not that of
 * back-to-back running.
 */
static void test_paced_rate(void **state)
{
	struct run_config c;
	struct run *run;
	struct err err;
	struct mix_counts mc;
	const struct run_result *r;
	char dir[PATH_MAX];
	double rate;

	(void)state;
	make_dir(dir, sizeof(dir));
	c = base_config(dir);
	c.pacing = (struct pacing){PACING_SCALE, 0.001};
	c.ramp_up_s = 0;
	c.duration_s = 2;
	c.progress_s = 0;
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(run_execute(run, &err), 0);
	r = run_get_result(run);
	assert_int_equal(r->end, RUN_END_COMPLETED);
	rate = (double)r->mix_rows / r->elapsed_s;
	assert_true(rate > 0.5 * 966 && rate < 1.15 * 966);
	read_mix(dir, 20, &mc);
	check_agreement(r, &mc);
	run_close(run);
	remove_dir(dir);
}

static volatile sig_atomic_t stop_now;

static void *raise_stop(void *arg)
{
	(void)arg;
	clock_sleep_until_us(clock_mono_us() + 300000);
	stop_now = 1;
	return NULL;
}

/* A stop request (what SIGINT sets) ends a 60 s run early, partial. */
static void test_stop_request(void **state)
{
	struct run_config c;
	struct run *run;
	struct err err;
	struct mix_counts mc;
	const struct run_result *r;
	char dir[PATH_MAX];
	pthread_t th;
	int64_t t0;

	(void)state;
	make_dir(dir, sizeof(dir));
	c = base_config(dir);
	c.pacing = (struct pacing){PACING_SCALE, 0.01};
	c.duration_s = 60;
	c.stop_flag = &stop_now;
	stop_now = 0;
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(pthread_create(&th, NULL, raise_stop, NULL), 0);
	t0 = clock_mono_us();
	assert_int_equal(run_execute(run, &err), 0);
	assert_true(clock_mono_us() - t0 < 3000000);
	pthread_join(th, NULL);
	r = run_get_result(run);
	assert_int_equal(r->end, RUN_END_INTERRUPTED);
	assert_true(r->partial);
	assert_true(r->elapsed_s < 2.0);
	/* stopped inside the ramp-up: no cost window */
	assert_false(r->window);
	assert_int_equal(run_write_json(run, &err), 0);
	read_mix(dir, 20, &mc);
	check_agreement(r, &mc);
	check_run_json(dir, r, &mc, "interrupted");
	run_close(run);
	remove_dir(dir);
}

/* Bad configurations are refused before anything is connected. */
static void test_bad_config(void **state)
{
	struct run_config c;
	struct run *run;
	struct err err;
	char dir[PATH_MAX];

	(void)state;
	make_dir(dir, sizeof(dir));
	c = base_config(dir);
	c.connections = 21; /* 20 terminals */
	assert_int_equal(run_open(&run, &c, &err), -EINVAL);
	assert_null(run);
	c = base_config(dir);
	c.duration_s = 0;
	assert_int_equal(run_open(&run, &c, &err), -EINVAL);
	c = base_config(dir);
	c.driver = NULL;
	assert_int_equal(run_open(&run, &c, &err), -EINVAL);
	/* a run opened and closed without executing leaves nothing */
	c = base_config(dir);
	assert_int_equal(run_open(&run, &c, &err), 0);
	run_close(run);
	remove_dir(dir);
}

/*
 * A warehouse range: only its terminals, numbered as in the run of all
 * 1..W; started at an agreed instant of the (here absent) server's clock;
 * an instant long gone refused; a range beyond W refused.
 */
static void test_warehouse_range(void **state)
{
	struct run_config c;
	struct run *run;
	struct err err;
	struct mixcsv_reader mr;
	struct mixcsv_row row;
	const struct run_result *r;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	int64_t lo = INT64_MAX, hi = 0;

	(void)state;
	make_dir(dir, sizeof(dir));
	c = base_config(dir);
	c.warehouses = 4;
	c.range = (struct whrange){3, 4};
	c.progress_s = 0;
	c.start_at_us = clock_wall_us() + 300000;
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(run_execute(run, &err), 0);
	r = run_get_result(run);
	assert_int_equal(r->end, RUN_END_COMPLETED);
	assert_false(r->clock.measured); /* null has no server clock */
	assert_true(r->start_wall_us >= c.start_at_us);
	assert_true(r->start_late_us < 200000);
	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	assert_int_equal(mixcsv_open(&mr, path, &err), 0);
	while (mixcsv_next(&mr, &row, &err) > 0) {
		lo = row.terminal < lo ? row.terminal : lo;
		hi = row.terminal > hi ? row.terminal : hi;
	}
	mixcsv_close(&mr);
	assert_int_equal(lo, 21);
	assert_int_equal(hi, 40);
	run_close(run);
	remove_dir(dir);

	make_dir(dir, sizeof(dir));
	c = base_config(dir);
	c.start_at_us = clock_wall_us() - 5000000;
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(run_execute(run, &err), -ETIME);
	assert_non_null(strstr(err.msg, "--start-at"));
	run_close(run);
	c.range = (struct whrange){2, 3}; /* W is 2 */
	assert_int_equal(run_open(&run, &c, &err), -EINVAL);
	remove_dir(dir);
}

static void test_row_format(void **state)
{
	struct mixlog log = {.file.fd = -1};
	struct mixlog_buf b;
	char buf[64], *end;
	int t, s;

	(void)state;
	for (t = 0; t < TXN_NR; t++) {
		snprintf(buf, sizeof(buf), "%s,", txn_type_name(t));
		assert_string_equal(mixlog_type_words[t].text, buf);
		assert_int_equal(mixlog_type_words[t].len, strlen(buf));
	}
	for (s = 0; s < TXN_STATUS_NR; s++) {
		snprintf(buf, sizeof(buf), "%s,", status_words[s]);
		assert_string_equal(mixlog_status_words[s].text, buf);
		assert_int_equal(mixlog_status_words[s].len, strlen(buf));
	}
	end = mixlog_put_u64(buf, 0);
	*end = '\0';
	assert_string_equal(buf, "0");
	end = mixlog_put_u64(buf, UINT64_MAX);
	*end = '\0';
	assert_string_equal(buf, "18446744073709551615");
	assert_int_equal(mixlog_buf_init(&b, &log, 4096), 0);
	assert_int_equal(mixlog_add(&b, 12345, 7, TXN_STOCK_LEVEL,
				    TXN_STATUS_ERROR, 1000000, -5),
			 0);
	assert_int_equal(
		mixlog_add(&b, 0, 1, TXN_NEW_ORDER, TXN_STATUS_ROLLBACK, 0, 0),
		0);
	assert_int_equal(b.rows, 2);
	assert_memory_equal(b.buf,
			    "12345,7,stock_level,error,1000000,0\n"
			    "0,1,new_order,rollback,0,0\n",
			    b.len);
	mixlog_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_format),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_short_run),
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_paced_rate),
		cmocka_unit_test(test_stop_request),
		cmocka_unit_test(test_warehouse_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
