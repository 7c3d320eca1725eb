/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_merge.c - `oltpmark merge` (analysis/report/merge.h) on two run
 * directories made here: the rows of both on the server's clock (the
 * second part started 250 ms later, its clock 40 ms off), the host
 * column, counts summed, the partial mark carried over, percentiles of
 * the merged file equal to those of the parts' histograms merged; and
 * the refusals: overlapping or gapped ranges, another workload, other
 * NURand constants, starts too far apart, a non-empty output directory.
 * The mix.csv reader takes the merged header and checks the host.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report/merge.h"
#include "analysis/report/mixcsv.h"
#include "src/base/hist.h"
#include "src/base/resfile.h"

/* The temporary tree of one test. */
struct tree {
	char top[64];	   /* /tmp/test_merge.XXXXXX */
	char a[96], b[96]; /* the two parts */
	char out[96];	   /* the merge */
};

/* Server-clock start of part A, us since the epoch. */
#define START_A 1700000000000000LL

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/*
 * A part: meta.json and run.json as `oltpmark run` writes the keys merge
 * reads; mix.csv from rows. seed picks the NURand constants, tx_mode the
 * workload.
 */
static void make_part(const char *dir, const char *host, int first, int last,
		      long long start_server_us, double offset_ms,
		      const char *tx_mode, int c_last, bool partial,
		      const char *rows, int new_order_ok)
{
	char buf[4096];

	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(
		buf, sizeof(buf),
		"{\"format\": \"oltpmark-meta/1\", \"label\": \"k1\", "
		"\"config\": \"custom\", \"host\": \"%s\", "
		"\"start_unix_s\": %.6f, \"end_unix_s\": %.6f, "
		"\"options\": {\"warehouses\": 4, \"connections\": 2}, "
		"\"warehouse_range\": {\"first\": %d, \"last\": %d, \"of\": 4}, "
		"\"clock\": {\"measured\": true, \"offset_ms\": %.3f, "
		"\"uncertainty_ms\": 0.05, \"start_server_unix_us\": %lld}, "
		"\"fingerprint\": {\"format\": 1, \"workload\": "
		"{\"driver\": \"pgsql\", \"tx_mode\": \"%s\", "
		"\"connections\": \"2\", \"warehouses.driven\": \"4\"}}}\n",
		host,
		(double)(start_server_us / 1000) / 1000.0 - offset_ms / 1000,
		(double)(start_server_us / 1000) / 1000.0 + 3 -
			offset_ms / 1000,
		first, last, offset_ms, start_server_us, tx_mode);
	write_text(dir, "meta.json", buf);
	snprintf(buf, sizeof(buf),
		 "{\"format\": \"oltpmark-run/1\", \"partial\": %s, "
		 "\"end_reason\": \"%s\", \"error\": null, \"ramp_up_s\": 1, "
		 "\"duration_s\": 2, \"elapsed_s\": %s, \"finished_s\": 3.1, "
		 "\"warehouses\": 4, \"terminals_per_warehouse\": 10, "
		 "\"terminals\": %d, \"connections\": 2, "
		 "\"nurand_c\": {\"c_last_load\": 7, \"c_last_run\": %d, "
		 "\"c_id\": 1, \"ol_i_id\": 2}, "
		 "\"counts\": {\"new_order\": {\"ok\": %d, \"rollback\": 0, "
		 "\"error\": 0, \"retries\": 1}, \"payment\": {\"ok\": 1, "
		 "\"rollback\": 0, \"error\": 0, \"retries\": 0}}, "
		 "\"inputs\": {\"new_orders\": %d}, \"mix_rows\": %d, "
		 "\"connections_lost\": 0, \"reconnects\": 0, "
		 "\"cost\": {\"window_start_s\": 1.0, \"window_end_s\": 3.0, "
		 "\"client_cpu_s\": 0.5, \"server_cpu_s\": 2.0, "
		 "\"server_pid\": 42}, \"server_stats\": null}\n",
		 partial ? "true" : "false",
		 partial ? "interrupted" : "completed", partial ? "2.5" : "3.0",
		 (last - first + 1) * 10, c_last, new_order_ok, new_order_ok,
		 new_order_ok + 1);
	write_text(dir, "run.json", buf);
	write_text(dir, "mix.csv", rows);
}

static const char rows_a[] = MIXCSV_HEADER "\n"
					   "1000,1,new_order,ok,5000,4000\n"
					   "1500,11,new_order,ok,7000,6000\n"
					   "2000,2,payment,ok,3000,2000\n";
static const char rows_b[] = MIXCSV_HEADER "\n"
					   "1000,21,new_order,ok,9000,8000\n"
					   "2999,31,payment,ok,1000,500\n";

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->top, sizeof(t->top), "/tmp/test_merge.XXXXXX");
	if (!mkdtemp(t->top))
		return -1;
	snprintf(t->a, sizeof(t->a), "%s/a", t->top);
	snprintf(t->b, sizeof(t->b), "%s/b", t->top);
	snprintf(t->out, sizeof(t->out), "%s/out", t->top);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

static json_t *load(const char *dir, const char *name)
{
	char path[PATH_MAX];
	json_t *o = NULL;
	struct err err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(resfile_load(path, name, &o, &err), 0);
	return o;
}

static int merge2(struct tree *t, struct err *err)
{
	const char *dirs[] = {t->a, t->b};
	struct merge_result res;

	err_clear(err);
	return merge_runs(t->out, dirs, 2, &res, err);
}

/* The rows on the server's clock, the host column, the sums. */
static void test_merge_rows(void **state)
{
	struct tree *t = *state;
	const char *dirs[] = {t->b, t->a}; /* any order */
	struct merge_result res;
	struct mixcsv_reader r;
	struct mixcsv_row row;
	char path[PATH_MAX], text[1024];
	json_t *run, *meta, *parts;
	struct err err;
	FILE *f;
	size_t n;

	make_part(t->a, "hosta", 1, 2, START_A, 0.0, "procedure", 9, false,
		  rows_a, 2);
	/* B's clock is 40 ms behind the server; it started 250 ms later on
	   the server's clock: its rows move by 250 ms, not 290 */
	make_part(t->b, "host,b", 3, 4, START_A + 250000, 40.0, "procedure", 9,
		  false, rows_b, 1);
	err_clear(&err);
	assert_int_equal(merge_runs(t->out, dirs, 2, &res, &err), 0);
	assert_int_equal(res.parts, 2);
	assert_int_equal(res.rows, 5);
	assert_false(res.partial);
	assert_true(res.start_spread_ms > 249.9 && res.start_spread_ms < 250.1);

	snprintf(path, sizeof(path), "%s/mix.csv", t->out);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	/* parts in the order given; the comma of a host name made safe */
	assert_string_equal(text, MIXCSV_HEADER_HOST
			    "\n"
			    "1250,21,new_order,ok,9000,8000,host_b\n"
			    "3249,31,payment,ok,1000,500,host_b\n"
			    "1000,1,new_order,ok,5000,4000,hosta\n"
			    "1500,11,new_order,ok,7000,6000,hosta\n"
			    "2000,2,payment,ok,3000,2000,hosta\n");
	/* the report's reader takes it */
	assert_int_equal(mixcsv_open(&r, path, &err), 0);
	assert_true(r.has_host);
	while (mixcsv_next(&r, &row, &err) > 0)
		;
	assert_int_equal(r.rows, 5);
	mixcsv_close(&r);

	run = load(t->out, "run.json");
	assert_int_equal(resfile_get_count(
				 json_object_get(json_object_get(run, "counts"),
						 "new_order"),
				 "ok"),
			 3);
	assert_int_equal(resfile_get_count(
				 json_object_get(json_object_get(run, "counts"),
						 "new_order"),
				 "retries"),
			 2);
	assert_int_equal(
		resfile_get_count(json_object_get(run, "inputs"), "new_orders"),
		3);
	assert_int_equal(resfile_get_count(run, "terminals"), 40);
	assert_int_equal(resfile_get_count(run, "connections"), 4);
	assert_int_equal(resfile_get_count(run, "mix_rows"), 5);
	assert_int_equal(resfile_get_truth(run, "partial"), 0);
	/* the earliest end of the measured interval: A's 3.0 s */
	assert_true(resfile_get_number(run, "elapsed_s") == 3.0);
	assert_true(resfile_get_number(json_object_get(run, "cost"),
				       "client_cpu_s") == 1.0);
	assert_true(resfile_get_number(json_object_get(run, "cost"),
				       "server_cpu_s") == 2.0);
	json_decref(run);

	meta = load(t->out, "meta.json");
	assert_int_equal(
		resfile_get_count(json_object_get(meta, "warehouse_range"),
				  "first"),
		1);
	assert_int_equal(
		resfile_get_count(json_object_get(meta, "warehouse_range"),
				  "last"),
		4);
	/* on the server's clock: A's start, which A's clock read as is */
	assert_true(resfile_get_number(meta, "start_unix_s") ==
		    (double)START_A / 1e6);
	assert_string_equal(
		resfile_get_string(
			json_object_get(json_object_get(meta, "fingerprint"),
					"workload"),
			"connections"),
		"4");
	parts = json_object_get(json_object_get(meta, "merge"), "parts");
	assert_int_equal(json_array_size(parts), 2);
	assert_int_equal(
		resfile_get_count(json_array_get(parts, 0), "shift_ms"), 250);
	assert_string_equal(
		resfile_get_string(json_array_get(parts, 1), "host"), "hosta");
	json_decref(meta);

	/* the output now holds a run: a second merge into it is refused */
	assert_int_equal(merge_runs(t->out, dirs, 2, &res, &err), -EEXIST);
}

/*
 * Give part dir's run.json a backend_cpu: measured with new_order ok
 * figures of txns, cpu_ns (and wait, slices from them), or not measured
 * with reason (NULL: leave it without one).
 */
static void set_bcpu(const char *dir, bool measured, long long txns,
		     long long cpu_ns, const char *reason)
{
	char path[PATH_MAX];
	json_t *run, *o;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	run = json_load_file(path, 0, NULL);
	assert_non_null(run);
	if (measured)
		o = json_pack("{s:b, s:n, s:s, s:I, s:{s:{s:{s:I, s:I, s:I, "
			      "s:I}}}}",
			      "measured", 1, "reason", "source",
			      "/proc/PID/schedstat", "not_measured",
			      (json_int_t)1, "types", "new_order", "ok", "txns",
			      (json_int_t)txns, "cpu_ns", (json_int_t)cpu_ns,
			      "run_wait_ns", (json_int_t)(cpu_ns / 2),
			      "timeslices", (json_int_t)txns);
	else
		o = json_pack("{s:b, s:s, s:n}", "measured", 0, "reason",
			      reason, "types");
	assert_non_null(o);
	json_object_set_new(run, "backend_cpu", o);
	assert_int_equal(json_dump_file(run, path, 0), 0);
	json_decref(run);
}

/* The backends' schedstat totals: summed when every part has them. */
static void test_merge_backend_cpu(void **state)
{
	struct tree *t = *state;
	struct err err;
	json_t *run, *b, *ok;
	char cmd[PATH_MAX + 16];

	make_part(t->a, "hosta", 1, 2, START_A, 0, "procedure", 9, false,
		  rows_a, 2);
	make_part(t->b, "hostb", 3, 4, START_A, 0, "procedure", 9, false,
		  rows_b, 1);
	set_bcpu(t->a, true, 10, 3000000, NULL);
	set_bcpu(t->b, true, 5, 1000000, NULL);
	assert_int_equal(merge2(t, &err), 0);
	run = load(t->out, "run.json");
	b = json_object_get(run, "backend_cpu");
	assert_true(json_is_true(json_object_get(b, "measured")));
	ok = json_object_get(
		json_object_get(json_object_get(b, "types"), "new_order"),
		"ok");
	assert_int_equal(resfile_get_count(ok, "txns"), 15);
	assert_int_equal(resfile_get_count(ok, "cpu_ns"), 4000000);
	assert_int_equal(resfile_get_count(ok, "run_wait_ns"), 2000000);
	assert_int_equal(resfile_get_count(ok, "timeslices"), 15);
	assert_int_equal(resfile_get_count(b, "not_measured"), 2);
	json_decref(run);

	/* the second part without: not measured, and which part says why */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->out);
	assert_int_equal(system(cmd), 0);
	set_bcpu(t->b, false, 0, 0, "the null driver has no server backends");
	assert_int_equal(merge2(t, &err), 0);
	run = load(t->out, "run.json");
	b = json_object_get(run, "backend_cpu");
	assert_true(json_is_false(json_object_get(b, "measured")));
	assert_string_equal(resfile_get_string(b, "reason"),
			    "part 2: the null driver has no server backends");
	assert_true(json_is_null(json_object_get(b, "types")));
	json_decref(run);
}

/* One partial part makes the merge partial, with its end reason. */
static void test_merge_partial(void **state)
{
	struct tree *t = *state;
	const char *dirs[] = {t->a, t->b};
	struct merge_result res;
	struct err err;
	json_t *run;

	make_part(t->a, "h", 1, 2, START_A, 0, "procedure", 9, false, rows_a,
		  2);
	make_part(t->b, "h", 3, 4, START_A, 0, "procedure", 9, true, rows_b, 1);
	assert_int_equal(merge_runs(t->out, dirs, 2, &res, &err), 0);
	assert_true(res.partial);
	run = load(t->out, "run.json");
	assert_int_equal(resfile_get_truth(run, "partial"), 1);
	assert_string_equal(resfile_get_string(run, "end_reason"),
			    "interrupted");
	assert_true(resfile_get_number(run, "elapsed_s") == 2.5);
	json_decref(run);
}

/* What cannot be merged: one line, -EINVAL, nothing written. */
static void test_merge_refused(void **state)
{
	static const struct {
		int b_first, b_last;
		long long b_start;
		const char *b_mode;
		int b_c_last;
		const char *msg;
	} cases[] = {
		{2, 4, START_A, "procedure", 9, "ranges 1-2 and 2-4 overlap"},
		{4, 4, START_A, "procedure", 9,
		 "warehouses 3-3 are in no range"},
		{3, 4, START_A, "sql", 9,
		 "workload: tx_mode 'procedure' and 'sql'"},
		{3, 4, START_A, "procedure", 8,
		 "give every driver the same --seed"},
		{3, 4, START_A + 1500000, "procedure", 9, "1.500 s apart"},
	};
	struct tree *t = *state;
	struct err err;
	char cmd[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s' '%s'", t->a, t->b,
			 t->out);
		assert_int_equal(system(cmd), 0);
		make_part(t->a, "h", 1, 2, START_A, 0, "procedure", 9, false,
			  rows_a, 2);
		make_part(t->b, "h", cases[i].b_first, cases[i].b_last,
			  cases[i].b_start, 0, cases[i].b_mode,
			  cases[i].b_c_last, false, rows_b, 1);
		assert_int_equal(merge2(t, &err), -EINVAL);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg,
				 cases[i].msg);
		assert_null(strchr(err.msg, '\n'));
		assert_int_equal(access(t->out, F_OK), -1);
	}
}

/*
 * Percentiles of a merged run are those of all samples: the merged
 * file's histogram equals the parts' histograms merged, and differs from
 * the mean of the parts' percentiles when the parts differ.
 */
static void test_merge_histograms(void **state)
{
	struct tree *t = *state;
	struct hist ha, hb, hm, all;
	struct mixcsv_reader r;
	struct mixcsv_row row;
	char *ra, *rb, path[PATH_MAX];
	size_t i, la = 0, lb = 0;
	struct err err;

	ra = malloc(1 << 16);
	rb = malloc(1 << 16);
	assert_non_null(ra);
	assert_non_null(rb);
	la += (size_t)sprintf(ra + la, "%s\n", MIXCSV_HEADER);
	lb += (size_t)sprintf(rb + lb, "%s\n", MIXCSV_HEADER);
	assert_int_equal(hist_init(&ha, HIST_BITS_DEFAULT), 0);
	assert_int_equal(hist_init(&hb, HIST_BITS_DEFAULT), 0);
	assert_int_equal(hist_init(&hm, HIST_BITS_DEFAULT), 0);
	assert_int_equal(hist_init(&all, HIST_BITS_DEFAULT), 0);
	/* A fast (1..900 ms), B slow (10..19 s) and fewer */
	for (i = 0; i < 900; i++) {
		la += (size_t)sprintf(ra + la, "%zu,1,new_order,ok,%zu,1\n",
				      i + 1000, (i + 1) * 1000);
		hist_record(&ha, (i + 1) * 1000);
	}
	for (i = 0; i < 100; i++) {
		lb += (size_t)sprintf(rb + lb, "%zu,21,new_order,ok,%zu,1\n",
				      i + 1000, 10000000 + i * 100000);
		hist_record(&hb, 10000000 + i * 100000);
	}
	make_part(t->a, "h", 1, 2, START_A, 0, "procedure", 9, false, ra, 900);
	make_part(t->b, "h", 3, 4, START_A, 0, "procedure", 9, false, rb, 100);
	assert_int_equal(merge2(t, &err), 0);
	snprintf(path, sizeof(path), "%s/mix.csv", t->out);
	assert_int_equal(mixcsv_open(&r, path, &err), 0);
	while (mixcsv_next(&r, &row, &err) > 0)
		hist_record(&all, row.response_us);
	mixcsv_close(&r);
	assert_int_equal(hist_merge(&hm, &ha), 0);
	assert_int_equal(hist_merge(&hm, &hb), 0);
	assert_int_equal(all.total, 1000);
	assert_int_equal(hm.total, all.total);
	assert_int_equal(hist_percentile(&hm, 90), hist_percentile(&all, 90));
	assert_int_equal(hist_percentile(&hm, 95), hist_percentile(&all, 95));
	/* the 90th percentile of all is A's largest values, ~900 ms; the
	   mean of the parts' p90s would be ~5.4 s */
	assert_true(hist_percentile(&all, 90) < 1000000);
	assert_true((hist_percentile(&ha, 90) + hist_percentile(&hb, 90)) / 2 >
		    5000000);
	hist_free(&ha);
	hist_free(&hb);
	hist_free(&hm);
	hist_free(&all);
	free(ra);
	free(rb);
}

/* The reader checks the host column of a merged file. */
static void test_reader_host_column(void **state)
{
	struct tree *t = *state;
	static const struct {
		const char *row;
		bool ok;
	} cases[] = {
		{"1,2,payment,ok,3,2,h1\n", true},
		{"1,2,payment,ok,3,2,\n", false},
		{"1,2,payment,ok,3,2\n", false},
		{"1,2,payment,ok,3,2,h,x\n", false},
	};
	char path[PATH_MAX], text[256];
	size_t i;

	assert_int_equal(mkdir(t->a, 0755), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mixcsv_reader r;
		struct mixcsv_row row;
		struct err err;

		snprintf(text, sizeof(text), "%s\n%s", MIXCSV_HEADER_HOST,
			 cases[i].row);
		write_text(t->a, "mix.csv", text);
		snprintf(path, sizeof(path), "%s/mix.csv", t->a);
		assert_int_equal(mixcsv_open(&r, path, &err), 0);
		assert_int_equal(mixcsv_next(&r, &row, &err),
				 cases[i].ok ? 1 : -EBADMSG);
		if (cases[i].ok)
			assert_int_equal(row.service_us, 2);
		mixcsv_close(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_merge_rows, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_merge_backend_cpu, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_merge_partial, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_merge_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_merge_histograms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_host_column, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
