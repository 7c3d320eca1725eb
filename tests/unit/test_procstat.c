/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_procstat.c - the /proc/stat "cpu" lines (src/base/procstat.h) on
 * two real snapshots of this project's VM taken 5 s apart
 * (tests/fixtures/proc-stat.txt, proc-stat-after.txt), on the shorter
 * lines of older kernels, and on lines that must be refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "src/base/procstat.h"
#include "tests/unit/fixture_util.h"

/* The "cpu" lines of the two fixtures, as the files hold them. */
static const uint64_t before[PROCSTAT_NR] = {56534, 43,	 19547, 19855, 2057,
					     0,	    515, 1154,	0,     0};
static const uint64_t after[PROCSTAT_NR] = {57088, 43,	19818, 19989, 2084,
					    0,	   519, 1157,  0,     0};

static void test_fixture_lines(void **state)
{
	struct procstat_cpu a, b, c1;
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(
		procstat_read(fixture_path("proc-stat.txt"), "cpu", &a, &err),
		0);
	assert_int_equal(procstat_read(fixture_path("proc-stat-after.txt"),
				       "cpu", &b, &err),
			 0);
	assert_string_equal(a.name, "cpu");
	assert_int_equal(a.nfields, 10);
	for (i = 0; i < PROCSTAT_NR; i++) {
		assert_true(a.ticks[i] == before[i]);
		assert_true(b.ticks[i] == after[i]);
	}
	/* "cpu1" is not "cpu", nor "cpu10": the name must end in a blank. */
	assert_int_equal(
		procstat_read(fixture_path("proc-stat.txt"), "cpu1", &c1, &err),
		0);
	assert_string_equal(c1.name, "cpu1");
	assert_true(c1.ticks[PROCSTAT_USER] == 29292);
	assert_true(c1.ticks[PROCSTAT_STEAL] == 580);
	assert_int_equal(
		procstat_read(fixture_path("proc-stat.txt"), "cpu2", &c1, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "no \"cpu2\" line"));
	assert_int_equal(procstat_read("/nonexistent/stat", "cpu", &c1, &err),
			 -ENOENT);
}

/* Deltas: user 554, system 271, idle 134, iowait 27, softirq 4, steal 3. */
static void test_fixture_shares(void **state)
{
	struct procstat_cpu a, b;
	struct procstat_shares s;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		procstat_read(fixture_path("proc-stat.txt"), "cpu", &a, &err),
		0);
	assert_int_equal(procstat_read(fixture_path("proc-stat-after.txt"),
				       "cpu", &b, &err),
			 0);
	assert_int_equal(procstat_shares(&a, &b, &s, &err), 0);
	assert_true(s.total_ticks == 993);
	assert_true(fabs(s.share[PROCSTAT_USER] - 554.0 / 993) < 1e-15);
	assert_true(fabs(s.share[PROCSTAT_SYSTEM] - 271.0 / 993) < 1e-15);
	assert_true(fabs(s.share[PROCSTAT_IDLE] - 134.0 / 993) < 1e-15);
	assert_true(fabs(s.share[PROCSTAT_IOWAIT] - 27.0 / 993) < 1e-15);
	assert_true(fabs(s.share[PROCSTAT_STEAL] - 3.0 / 993) < 1e-15);
	assert_true(s.share[PROCSTAT_NICE] == 0);
	assert_true(fabs(s.busy - (554.0 + 271 + 4) / 993) < 1e-15);
	/* The same snapshot twice: no time passed. */
	assert_int_equal(procstat_shares(&a, &a, &s, &err), -ENODATA);
	assert_non_null(strstr(err.msg, "no time passed"));
}

/* The machine's own /proc/stat parses, when there is one. */
static void test_live(void **state)
{
	struct procstat_cpu a;
	struct err err = {""};

	(void)state;
	if (access("/proc/stat", R_OK) != 0)
		skip();
	assert_int_equal(procstat_read("/proc/stat", "cpu", &a, &err), 0);
	assert_true(a.nfields >= 4);
	assert_true(a.ticks[PROCSTAT_USER] + a.ticks[PROCSTAT_IDLE] > 0);
}

/* Lines that parse: columns of older and newer kernels. */
static const struct {
	const char *line;    /* input */
	const char *name;    /* name expected */
	unsigned int fields; /* nfields expected */
	uint64_t steal;	     /* steal expected (0 when missing) */
	uint64_t last;	     /* ticks[fields - 1] expected */
} good[] = {
	{"cpu  1 2 3 4\n", "cpu", 4, 0, 4},			/* 2.4 */
	{"cpu 1 2 3 4 5 6 7", "cpu", 7, 0, 7},			/* 2.6 */
	{"cpu 1 2 3 4 5 6 7 8", "cpu", 8, 8, 8},		/* 2.6.11 */
	{"cpu7\t1 2 3 4 5 6 7 8 9 10\r\n", "cpu7", 10, 8, 10},	/* tabs */
	{"cpu 1 2 3 4 5 6 7 8 9 10 11 12\n", "cpu", 10, 8, 10}, /* future */
	{"cpu 18446744073709551615 0 0 0\n", "cpu", 4, 0, 0},	/* max */
	{"cpu 0 0 0 0 0 0 0 99 0 0   \n", "cpu", 10, 99, 0},	/* blanks */
};

static void test_good_lines(void **state)
{
	struct procstat_cpu c;
	struct err err = {""};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (procstat_parse_line(good[i].line, &c, &err) != 0)
			fail_msg("line %zu: %s", i, err.msg);
		assert_string_equal(c.name, good[i].name);
		assert_int_equal(c.nfields, good[i].fields);
		assert_true(c.ticks[PROCSTAT_STEAL] == good[i].steal);
		assert_true(c.ticks[c.nfields - 1] == good[i].last);
	}
	assert_true(good[5].last == 0);
	assert_int_equal(procstat_parse_line(good[5].line, &c, &err), 0);
	assert_true(c.ticks[PROCSTAT_USER] == UINT64_MAX);
}

/* Lines that must be refused, and a word of the message each gives. */
static const struct {
	const char *line; /* input */
	const char *why;  /* in the message */
} bad[] = {
	{"intr 1 2 3 4", "not a \"cpu\" line"},
	{"", "not a \"cpu\" line"},
	{"cpu", "not a \"cpu\" line"},
	{"cpux 1 2 3 4", "not a \"cpu\" line"},
	{"cpu1a 1 2 3 4", "not a \"cpu\" line"},
	{"cpu12345678901234 1 2 3 4", "not a \"cpu\" line"},
	{"cpu 1 2 3", "3 counters, expected at least 4"},
	{"cpu\n", "not a \"cpu\" line"},
	{"cpu \n", "0 counters"},
	{"cpu 1 x 3 4", "column 2 is not a counter"},
	{"cpu 1 2 -3 4", "column 3 is not a counter"},
	{"cpu 1 2 3 4.5", "column 4 is not a counter"},
	{"cpu 18446744073709551616 0 0 0", "column 1 is not a counter"},
	{"cpu 1 2 3 4,5", "column 4 is not a counter"},
};

static void test_bad_lines(void **state)
{
	struct procstat_cpu c;
	struct err err = {""};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err_clear(&err);
		if (procstat_parse_line(bad[i].line, &c, &err) != -EINVAL)
			fail_msg("line %zu \"%s\" was accepted", i,
				 bad[i].line);
		if (!strstr(err.msg, bad[i].why))
			fail_msg("line %zu: \"%s\" lacks \"%s\"", i, err.msg,
				 bad[i].why);
		assert_int_equal(c.nfields, 0);
	}
}

/* iowait going backwards counts 0; lines of two CPUs do not mix. */
static void test_shares_edges(void **state)
{
	struct procstat_cpu a, b, other;
	struct procstat_shares s;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		procstat_parse_line("cpu 100 0 100 100 50 0 0 0 0 0", &a, &err),
		0);
	assert_int_equal(procstat_parse_line("cpu 160 0 120 110 40 0 0 10 0 0",
					     &b, &err),
			 0);
	assert_int_equal(procstat_shares(&a, &b, &s, &err), 0);
	assert_true(s.total_ticks == 100);
	assert_true(s.share[PROCSTAT_IOWAIT] == 0);
	assert_true(fabs(s.share[PROCSTAT_STEAL] - 0.1) < 1e-15);
	assert_true(fabs(s.busy - 0.8) < 1e-15);
	/* Guest time is inside user: a share, not added to the total. */
	assert_int_equal(procstat_parse_line("cpu 200 0 120 110 40 0 0 10 30 0",
					     &b, &err),
			 0);
	assert_int_equal(procstat_shares(&a, &b, &s, &err), 0);
	assert_true(s.total_ticks == 140);
	assert_true(fabs(s.share[PROCSTAT_GUEST] - 30.0 / 140) < 1e-15);
	assert_int_equal(procstat_parse_line("cpu0 160 0 120 110 40 0 0 10 0 0",
					     &other, &err),
			 0);
	assert_int_equal(procstat_shares(&a, &other, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cpu and cpu0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_lines),
		cmocka_unit_test(test_fixture_shares),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_good_lines),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_shares_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
