/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_kcost_cpu.c - the kernel-cost hook's process snapshots: the
 * reader of kcost_procs.*.csv (a real pair from a W=10 run in
 * tests/fixtures/kcost/procs, cut and garbage rows), and the split of
 * the server's CPU into the terminals' backends, other sessions,
 * background processes by kind and ended processes, on made-up
 * snapshots where every part is known.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/parsers/kcost.h"
#include "analysis/parsers/parse_kcost.h"
#include "tests/unit/fixture_util.h"

static const char header[] = "ts,pid,ppid,starttime,hz,utime,stime,cutime,"
			     "cstime,backend_type,application_name\n";

static int procs_str(const char *text, struct kcost_procs *p, struct err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = parse_kcost_procs(f, p, err);
	fclose(f);
	return rc;
}

static void test_parse(void **state)
{
	char text[1024];
	struct kcost_procs p;
	struct err err;

	(void)state;
	snprintf(text, sizeof(text),
		 "%s"
		 "T,10,1,500,100,20,18,153,698,postmaster,\n"
		 "T,11,10,510,100,5,1,0,0,checkpointer,\n"
		 "T,12,10,520,0,5,1,0,0,walwriter,\n"	 /* hz 0: bad */
		 "T,x,10,520,100,5,1,0,0,walwriter,\n"	 /* bad pid */
		 "T,13,10,530,100,-1,1,0,0,walwriter,\n" /* negative */
		 /* a start time past 64 bits (found by fuzz_kcost_procs) */
		 "T,16,10,195555555555555555555592541,100,1,1,0,0,x,\n"
		 "T,14,10,540,100,127,48,0,0,client backend,oltpmark-run\n"
		 "T,15,10,550,100,1,2", /* cut */
		 header);
	assert_int_equal(procs_str(text, &p, &err), 0);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.bad_lines, 5);
	assert_string_equal(p.ts, "T");
	assert_int_equal(p.p[0].pid, 10);
	assert_float_equal(p.p[0].user_s, 0.20, 1e-9);
	assert_float_equal(p.p[0].child_s, 8.51, 1e-9);
	assert_string_equal(p.p[0].backend_type, "postmaster");
	assert_string_equal(p.p[2].app, "oltpmark-run");
	assert_int_equal(p.p[2].starttime, 540);
	parse_kcost_procs_free(&p);
	assert_int_equal(procs_str("ts,pid\n1,2\n", &p, &err), -EINVAL);
	assert_int_equal(procs_str("", &p, &err), -ENODATA);
	assert_int_equal(procs_str("\x7f"
				   "ELF\x01\x02garbage\n",
				   &p, &err),
			 -EINVAL);
}

/* A row of a made-up snapshot, hz 100. */
#define ROW(pid, start, u, s, cu, cs, type, app)                           \
	"T," #pid ",10," #start ",100," #u "," #s "," #cu "," #cs "," type \
	"," app "\n"

static void test_split(void **state)
{
	struct kcost_procs a, b;
	struct kcost_cpu c;
	struct err err;
	char ta[2048], tb[2048];

	(void)state;
	snprintf(ta, sizeof(ta), "%s%s", header,
		 ROW(10, 1, 100, 100, 50, 50, "postmaster",
		     "") ROW(11, 2, 100, 0, 0, 0, "walwriter",
			     "") ROW(12, 3, 1000, 0, 0, 0, "client backend",
				     "oltpmark-run") ROW(13, 4, 1000, 0, 0, 0,
							 "client backend",
							 "oltpmark-run")
			 ROW(14, 5, 300, 0, 0, 0, "autovacuum worker", "") ROW(
				 15, 6, 10, 0, 0, 0, "client backend", "psql"));
	/* 12 went on (+600 ticks), 13 ended (in cutime with its 1000 +
	   200 more), 16 is new (+50), pid 14 was recycled for another
	   process (start time 9: new, +40), the walwriter +150, psql +5,
	   the postmaster +20 of its own */
	snprintf(tb, sizeof(tb), "%s%s", header,
		 ROW(10, 1, 110, 110, 1250, 350, "postmaster",
		     "") ROW(11, 2, 200, 50, 0, 0, "walwriter",
			     "") ROW(12, 3, 1400, 200, 0, 0, "client backend",
				     "oltpmark-run") ROW(16, 8, 30, 20, 0, 0,
							 "client backend",
							 "oltpmark-run")
			 ROW(14, 9, 40, 0, 0, 0, "autovacuum worker", "") ROW(
				 15, 6, 15, 0, 0, 0, "client backend", "psql"));
	assert_int_equal(procs_str(ta, &a, &err), 0);
	assert_int_equal(procs_str(tb, &b, &err), 0);
	kcost_cpu_compute(&a, &b, &c);
	assert_true(c.present);
	assert_float_equal(c.terminals_s, 6.50, 1e-9);
	assert_int_equal(c.terminals, 2);
	assert_int_equal(c.terminals_new, 1);
	assert_int_equal(c.terminals_gone, 1);
	assert_float_equal(c.sessions_s, 0.05, 1e-9);
	/* walwriter 1.50, autovacuum worker 0.40, postmaster 0.20 */
	assert_float_equal(c.background_s, 2.10, 1e-9);
	assert_int_equal(c.nbg, 3);
	assert_string_equal(c.bg[0].name, "walwriter");
	assert_float_equal(c.bg[0].cpu_s, 1.50, 1e-9);
	assert_string_equal(c.bg[2].name, "postmaster");
	/* cutime + cstime grew by 15.00 s; 13 (10.00 s) and the first 14
	   (3.00 s) had 13.00 s at start: 2.00 s ended in the interval */
	assert_float_equal(c.ended_s, 2.00, 1e-9);
	assert_float_equal(c.total_s, 6.50 + 0.05 + 2.10 + 2.00, 1e-9);
	/* a restarted server: not comparable */
	b.p[0].starttime = 2;
	kcost_cpu_compute(&a, &b, &c);
	assert_false(c.present);
	parse_kcost_procs_free(&a);
	parse_kcost_procs_free(&b);
}

static void test_fixture(void **state)
{
	struct kcost_procs a, b;
	struct kcost_cpu c;
	struct err err;

	(void)state;
	assert_int_equal(
		parse_kcost_procs_file(
			fixture_path("kcost/procs/kcost_procs.start.csv"), &a,
			&err),
		0);
	assert_int_equal(
		parse_kcost_procs_file(
			fixture_path("kcost/procs/kcost_procs.stop.csv"), &b,
			&err),
		0);
	assert_int_equal(a.bad_lines + b.bad_lines, 0);
	kcost_cpu_compute(&a, &b, &c);
	assert_true(c.present);
	assert_true(c.terminals >= 4);
	assert_true(c.terminals_s > c.background_s);
	assert_true(c.background_s > 0);
	parse_kcost_procs_free(&a);
	parse_kcost_procs_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
