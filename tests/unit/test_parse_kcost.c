/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_kcost.c - the kernel-cost hook's readers and figures: the
 * snapshots of a real run in each mode (tests/fixtures/kcost/procedure,
 * sql: W=1, 3 s ramp-up, 12 s measured, PostgreSQL 15 with
 * pg_stat_kcache 2.2.1 and pg_wait_sampling 1.1.4), cut and garbage
 * files, the query text to type mapping in both modes, the arithmetic
 * per type and per committed transaction on made-up snapshots, and the
 * CPU check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/kcost.h"
#include "analysis/parsers/parse_kcost.h"
#include "tests/unit/fixture_util.h"

static FILE *open_str(const char *text, size_t len)
{
	FILE *f = len ? fmemopen((void *)text, len, "r")
		      : fopen("/dev/null", "r");

	assert_non_null(f);
	return f;
}

static int kcost_str(const char *text, struct kcost_snapshot *s,
		     struct err *err)
{
	FILE *f = open_str(text, strlen(text));
	int rc = parse_kcost(f, s, err);

	fclose(f);
	return rc;
}

static int waits_str(const char *text, struct kcost_waits *w, struct err *err)
{
	FILE *f = open_str(text, strlen(text));
	int rc = parse_kcost_waits(f, w, err);

	fclose(f);
	return rc;
}

/* --- the mapping */

static void test_type_mapping(void **state)
{
	static const struct {
		const char *query;
		int type;
	} cases[] = {
		/* procedure mode, as the driver calls the functions */
		{"SELECT * FROM new_order($1::int, $2::int, $3::int)",
		 TXN_NEW_ORDER},
		{"SELECT * FROM payment($1::int, $2::int)", TXN_PAYMENT},
		{"SELECT * FROM order_status($1::int)", TXN_ORDER_STATUS},
		{"SELECT * FROM delivery($1::int, $2::int)", TXN_DELIVERY},
		{"SELECT stock_level($1::int, $2::int, $3::int)",
		 TXN_STOCK_LEVEL},
		{"  select   *  from  delivery(1, 2)", TXN_DELIVERY},
		/* sql mode: the driver's comment */
		{"/* oltpmark new_order */ SELECT w_tax FROM warehouse",
		 TXN_NEW_ORDER},
		{"/* oltpmark payment */ UPDATE warehouse SET w_ytd = 1",
		 TXN_PAYMENT},
		{"/* oltpmark order_status */ SELECT 1", TXN_ORDER_STATUS},
		{"/* oltpmark delivery */ DELETE FROM new_order", TXN_DELIVERY},
		{"/* oltpmark stock_level */ SELECT count(*)", TXN_STOCK_LEVEL},
		{"/* oltpmark nothing */ SELECT 1", KCOST_TYPE_OTHER},
		{"/* oltpmark new_order*/ SELECT 1", KCOST_TYPE_OTHER},
		/* transaction control */
		{"BEGIN", KCOST_TYPE_CONTROL},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
		 KCOST_TYPE_CONTROL},
		{"commit", KCOST_TYPE_CONTROL},
		{"ROLLBACK", KCOST_TYPE_CONTROL},
		{"BEGINNING", KCOST_TYPE_OTHER},
		/* not the workload's */
		{"SELECT * FROM new_orders($1)", KCOST_TYPE_OTHER},
		{"SELECT new_order", KCOST_TYPE_OTHER},
		{"SELECT * FROM oltpmark_meta LIMIT $1", KCOST_TYPE_OTHER},
		{"DO $$ BEGIN END $$", KCOST_TYPE_OTHER},
		{"SELECTnew_order(1)", KCOST_TYPE_OTHER},
		{"SELECT * new_order(1)", KCOST_TYPE_OTHER},
		{"", KCOST_TYPE_OTHER},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int t = parse_kcost_type(cases[i].query);

		if (t != cases[i].type)
			fail_msg("'%s': %d, expected %d", cases[i].query, t,
				 cases[i].type);
	}
	assert_string_equal(parse_kcost_type_key(TXN_PAYMENT), "payment");
	assert_string_equal(parse_kcost_type_key(KCOST_TYPE_CONTROL),
			    "control");
	assert_string_equal(parse_kcost_type_key(KCOST_TYPE_OTHER), "other");
	assert_null(parse_kcost_type_key(KCOST_TYPE_NR));
	assert_null(parse_kcost_type_key(-1));
}

/* --- the fixtures of real runs */

/* Read a mode's four files into t through kcost_read(). */
static void read_mode(const char *mode, struct kcost_table *t)
{
	char dir[PATH_MAX];
	struct err err;

	snprintf(dir, sizeof(dir), "%s", fixture_path("kcost"));
	strncat(dir, "/", sizeof(dir) - strlen(dir) - 1);
	strncat(dir, mode, sizeof(dir) - strlen(dir) - 1);
	err_clear(&err);
	assert_int_equal(kcost_read(dir, t, &err), 0);
	assert_true(t->present);
	assert_true(t->waits);
	assert_int_equal(t->bad_lines, 0);
}

static void test_fixture_files(void **state)
{
	struct kcost_snapshot s;
	struct kcost_waits w;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(
		parse_kcost_file(fixture_path("kcost/procedure/kcost.stop.csv"),
				 &s, &err),
		0);
	assert_int_equal(s.n, 113);
	assert_int_equal(s.bad_lines, 0);
	assert_string_equal(s.ts, "2026-12-05T07:35:38.625Z");
	for (i = 0; i < s.n; i++)
		assert_true(s.q[i].v[KCOST_CALLS] >= 1);
	parse_kcost_free(&s);
	assert_int_equal(
		parse_kcost_waits_file(
			fixture_path("kcost/procedure/kcost_waits.stop.csv"),
			&w, &err),
		0);
	assert_int_equal(w.n, 73);
	assert_int_equal(w.bad_lines, 0);
	parse_kcost_waits_free(&w);
}

/* Every type of the workload ran, with CPU; the map holds it. */
static void check_every_type(const struct kcost_table *t)
{
	size_t i;
	int ty;

	for (ty = 0; ty < TXN_NR; ty++) {
		const struct kcost_row *r = &t->row[ty];

		if (!(r->v[KCOST_CALLS] > 0 &&
		      r->v[KCOST_USER_S] + r->v[KCOST_SYSTEM_S] > 0))
			fail_msg("type %s: no calls or no CPU",
				 txn_type_name(ty));
		assert_true(r->v[KCOST_TIME_MS] > 0);
	}
	assert_true(t->nmap >= TXN_NR);
	for (i = 0; i < t->nmap; i++)
		assert_true(t->map[i].type >= 0 &&
			    t->map[i].type <= KCOST_TYPE_CONTROL);
}

static void test_fixture_procedure(void **state)
{
	struct kcost_table t;
	struct kcost_check c;
	int ty;

	(void)state;
	read_mode("procedure", &t);
	check_every_type(&t);
	/* one function per type: one query id each, and no control */
	for (ty = 0; ty < TXN_NR; ty++)
		assert_int_equal(t.row[ty].queries, 1);
	assert_int_equal(t.row[KCOST_TYPE_CONTROL].queries, 0);
	assert_string_equal(t.start_ts, "2026-12-05T07:35:26.767Z");
	assert_string_equal(t.stop_ts, "2026-12-05T07:35:38.625Z");
	/* run.json's server_cpu_s of that run: 3.31 */
	kcost_check(&t, 3.31, &c);
	assert_true(c.known);
	assert_true(c.kcost_cpu_s > 0 && c.kcost_cpu_s < 3.31);
	assert_true(t.wait_samples >= t.wait_no_query);
	kcost_free(&t);
}

static void test_fixture_sql(void **state)
{
	struct kcost_table t;

	(void)state;
	read_mode("sql", &t);
	check_every_type(&t);
	/* New-Order's seven statements, Stock-Level's two */
	assert_int_equal(t.row[TXN_NEW_ORDER].queries, 7);
	assert_int_equal(t.row[TXN_STOCK_LEVEL].queries, 2);
	kcost_free(&t);
}

/* --- damaged files */

static void test_cut_and_garbage(void **state)
{
	struct kcost_snapshot s;
	struct kcost_waits w;
	struct err err;

	(void)state;
	/* a cut last line is one bad row, the rest read */
	assert_int_equal(
		parse_kcost_file(fixture_path("kcost/kcost-cut.csv"), &s, &err),
		0);
	assert_int_equal(s.bad_lines, 1);
	assert_true(s.n > 0);
	parse_kcost_free(&s);
	assert_int_equal(
		parse_kcost_waits_file(
			fixture_path("kcost/kcost-waits-cut.csv"), &w, &err),
		0);
	assert_int_equal(w.bad_lines, 1);
	parse_kcost_waits_free(&w);
	/* garbage and a header without the columns: one error line */
	assert_int_equal(
		parse_kcost_file(fixture_path("kcost/kcost-garbage.csv"), &s,
				 &err),
		-EINVAL);
	assert_non_null(strstr(err.msg, "kcost-garbage.csv"));
	assert_null(strchr(err.msg, '\n'));
	assert_null(s.q);
	assert_int_equal(
		parse_kcost_file(fixture_path("kcost/kcost-no-columns.csv"), &s,
				 &err),
		-EINVAL);
	assert_int_equal(
		parse_kcost_waits_file(fixture_path("kcost/kcost-garbage.csv"),
				       &w, &err),
		-EINVAL);
	assert_int_equal(kcost_str("", &s, &err), -ENODATA);
	assert_int_equal(waits_str("", &w, &err), -ENODATA);
	assert_int_equal(
		parse_kcost_file(fixture_path("kcost/none.csv"), &s, &err),
		-ENOENT);
}

/* Every prefix of a real file: no crash, and never more rows. */
static void test_every_cut(void **state)
{
	size_t len, n;
	char *buf = fixture_read_file(fixture_path("kcost/sql/kcost.stop.csv"),
				      &len);
	struct kcost_snapshot s;
	struct err err;

	(void)state;
	for (n = 0; n < len; n += 7) {
		FILE *f = open_str(buf, n);
		int rc = parse_kcost(f, &s, &err);

		fclose(f);
		assert_true(rc == 0 || rc == -EINVAL || rc == -ENODATA);
		if (rc == 0) {
			assert_true(s.n <= 113);
			parse_kcost_free(&s);
		}
	}
	free(buf);
}

static void test_bad_rows(void **state)
{
	static const char text[] =
		"ts,queryid,calls,time_ms,user_s,system_s,reads_bytes,"
		"writes_bytes,minflts,majflts,nvcsws,nivcsws,query\n"
		/* good, with a quoted query holding commas and quotes */
		"t1,-5,2,1.5,0.001,0.002,0,8192,3,0,1,2,\"SELECT \"\"a\"\", "
		"b\"\n"
		/* an exponent, a negative count, a bad query id */
		"t1,6,2,1e-5,0,0,0,0,0,0,0,0,x\n"
		"t1,7,-2,1,0,0,0,0,0,0,0,0,x\n"
		"t1,8x,2,1,0,0,0,0,0,0,0,0,x\n"
		/* too few fields, an open quote */
		"t1,9,2,1\n"
		"t1,10,2,1,0,0,0,0,0,0,0,0,\"open\n";
	struct kcost_snapshot s;
	struct err err;

	(void)state;
	assert_int_equal(kcost_str(text, &s, &err), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.bad_lines, 5);
	assert_true(s.q[0].queryid == -5);
	assert_string_equal(s.q[0].query, "SELECT \"a\", b");
	assert_true(s.q[0].v[KCOST_WRITES_BYTES] == 8192);
	assert_string_equal(s.ts, "t1");
	parse_kcost_free(&s);
}

/* --- the arithmetic on made-up snapshots */

#define HDR                                                     \
	"ts,queryid,calls,time_ms,user_s,system_s,reads_bytes," \
	"writes_bytes,minflts,majflts,nvcsws,nivcsws,query\n"
#define WHDR "ts,queryid,event_type,event,count\n"

static void test_arithmetic(void **state)
{
	static const char a[] =
		HDR "s,1,10,100,0.1,0.05,0,0,10,0,5,1,SELECT * FROM "
		    "new_order(1)\n"
		    "s,2,5,50,0.02,0.01,0,0,0,0,0,0,SELECT stock_level(1)\n"
		    "s,3,100,10,0.5,0.5,0,0,0,0,0,0,SELECT 1\n"
		    /* gone by the stop: evicted */
		    "s,4,1,1,1,1,1,1,1,1,1,1,SELECT * FROM payment(1)\n";
	static const char b[] =
		HDR /* New-Order: +100 calls, +1000 ms, +0.4 user, +0.1
		       system, +8192 written */
		"e,1,110,1100,0.5,0.15,0,8192,110,1,25,11,SELECT * FROM "
		"new_order(1)\n"
		/* Stock-Level's went backwards: reset, its stop value kept */
		"e,2,3,30,0.01,0.005,0,0,0,0,0,0,SELECT stock_level(1)\n"
		/* other: +0 calls, not counted */
		"e,3,100,10,0.5,0.5,0,0,0,0,0,0,SELECT 1\n"
		/* new at stop: Payment, and a COMMIT */
		"e,5,20,40,0.2,0.1,4096,0,0,0,0,0,/* oltpmark payment */ "
		"UPDATE x\n"
		"e,6,30,3,0,0,0,0,0,0,0,0,COMMIT\n";
	static const char wa[] = WHDR "s,1,Lock,tuple,10\n"
				      "s,0,Activity,WalWriterMain,100\n";
	static const char wb[] = WHDR "e,1,Lock,tuple,40\n"
				      "e,1,IO,DataFileRead,30\n"
				      "e,1,LWLock,WALWrite,20\n"
				      "e,1,IPC,BufferIO,10\n"
				      "e,5,Lock,transactionid,5\n"
				      "e,0,Activity,WalWriterMain,150\n";
	struct kcost_snapshot s0, s1;
	struct kcost_waits w0, w1;
	struct kcost_table t;
	const struct kcost_row *no;
	struct err err;

	(void)state;
	assert_int_equal(kcost_str(a, &s0, &err), 0);
	assert_int_equal(kcost_str(b, &s1, &err), 0);
	assert_int_equal(waits_str(wa, &w0, &err), 0);
	assert_int_equal(waits_str(wb, &w1, &err), 0);
	assert_int_equal(kcost_compute(&s0, &s1, &w0, &w1, &t), 0);
	assert_true(t.present && t.waits);
	no = &t.row[TXN_NEW_ORDER];
	assert_true(no->v[KCOST_CALLS] == 100);
	assert_float_equal(no->v[KCOST_TIME_MS], 1000, 1e-9);
	assert_float_equal(no->v[KCOST_USER_S], 0.4, 1e-9);
	assert_float_equal(no->v[KCOST_SYSTEM_S], 0.1, 1e-9);
	assert_true(no->v[KCOST_WRITES_BYTES] == 8192);
	assert_int_equal(t.resets, 1);
	assert_true(t.row[TXN_STOCK_LEVEL].v[KCOST_CALLS] == 3);
	assert_true(t.row[TXN_PAYMENT].v[KCOST_CALLS] == 20);
	assert_true(t.row[KCOST_TYPE_CONTROL].v[KCOST_CALLS] == 30);
	assert_true(t.row[KCOST_TYPE_OTHER].v[KCOST_CALLS] == 0);
	assert_int_equal(t.row[KCOST_TYPE_OTHER].queries, 0);
	assert_int_equal(t.nmap, 4);
	/* per committed transaction: 80 New-Orders committed */
	assert_float_equal(kcost_figure(no, KCOST_FIG_SERVER_MS, 80), 12.5,
			   1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_USER_MS, 80), 5, 1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_SYSTEM_MS, 80), 1.25,
			   1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_OFFCPU_MS, 80), 6.25,
			   1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_WRITE_BYTES, 80), 102.4,
			   1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_NVCSW, 80), 0.25, 1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_NIVCSW, 80), 0.125, 1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_MAJFLT, 80), 0.0125,
			   1e-9);
	assert_float_equal(kcost_figure(no, KCOST_FIG_MINFLT, 80), 1.25, 1e-9);
	assert_true(isnan(kcost_figure(no, KCOST_FIG_USER_MS, 0)));
	/* waits: New-Order's 30 + 30 + 20 + 10 = 90 samples, top 3 */
	assert_float_equal(no->wait_samples, 90, 1e-9);
	assert_int_equal(no->ntop, KCOST_TOP_WAITS);
	assert_string_equal(no->top[0].event, "tuple");
	assert_float_equal(no->top[0].share, 30.0 / 90, 1e-9);
	assert_string_equal(no->top[1].event, "DataFileRead");
	assert_string_equal(no->top[2].event, "WALWrite");
	assert_float_equal(t.row[TXN_PAYMENT].top[0].share, 1, 1e-9);
	assert_float_equal(t.wait_samples, 145, 1e-9);
	assert_float_equal(t.wait_no_query, 50, 1e-9);
	kcost_free(&t);
	/* without the wait profile */
	assert_int_equal(kcost_compute(&s0, &s1, NULL, NULL, &t), 0);
	assert_false(t.waits);
	assert_int_equal(t.row[TXN_NEW_ORDER].ntop, 0);
	kcost_free(&t);
	parse_kcost_free(&s0);
	parse_kcost_free(&s1);
	parse_kcost_waits_free(&w0);
	parse_kcost_waits_free(&w1);
}

static void test_check(void **state)
{
	struct kcost_table t;
	struct kcost_check c;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.present = true;
	t.row[TXN_NEW_ORDER].v[KCOST_USER_S] = 3;
	t.row[TXN_PAYMENT].v[KCOST_SYSTEM_S] = 1;
	t.row[KCOST_TYPE_CONTROL].v[KCOST_USER_S] = 0.5;
	t.row[KCOST_TYPE_OTHER].v[KCOST_USER_S] = 0.25;
	/* no process snapshots: the whole server of run.json */
	kcost_check(&t, 5, &c);
	assert_true(c.known);
	assert_true(c.whole_server);
	assert_float_equal(c.kcost_cpu_s, 4.5, 1e-9);
	assert_float_equal(c.other_cpu_s, 0.25, 1e-9);
	assert_float_equal(c.diff_s, -0.5, 1e-9);
	assert_float_equal(c.diff_pct, -10, 1e-9);
	assert_true(c.agree);
	kcost_check(&t, 4, &c);
	assert_float_equal(c.diff_pct, 12.5, 1e-9);
	assert_false(c.agree);
	kcost_check(&t, NAN, &c);
	assert_false(c.known);
	assert_true(isnan(c.diff_pct));
	/* with them: the terminals' backends, whatever run.json says */
	t.cpu.present = true;
	t.cpu.terminals_s = 6;
	t.cpu.total_s = 9;
	kcost_check(&t, 9, &c);
	assert_true(c.known);
	assert_false(c.whole_server);
	assert_float_equal(c.backends_cpu_s, 6, 1e-9);
	assert_float_equal(c.server_cpu_s, 9, 1e-9);
	assert_float_equal(c.diff_s, -1.5, 1e-9);
	assert_float_equal(c.diff_pct, -25, 1e-9);
	assert_false(c.agree);
	kcost_check(&t, NAN, &c);
	assert_true(c.known);
	assert_true(isnan(c.server_cpu_s));
	t.present = false;
	kcost_check(&t, 5, &c);
	assert_false(c.known);
}

static void test_read_missing(void **state)
{
	struct kcost_table t;
	struct err err;

	(void)state;
	/* no files: not there, not an error */
	assert_int_equal(kcost_read(fixture_path("kcost"), &t, &err), 0);
	assert_false(t.present);
	kcost_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_mapping),
		cmocka_unit_test(test_fixture_files),
		cmocka_unit_test(test_fixture_procedure),
		cmocka_unit_test(test_fixture_sql),
		cmocka_unit_test(test_cut_and_garbage),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_read_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
