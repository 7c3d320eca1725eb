/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_procstat.c - the reader of sys/procstat.csv on the fixture
 * tests/fixtures/procstat.csv (six samples of the project's VM, written
 * by `oltpmark sample-procstat`), on damaged rows that must be skipped,
 * on files that must be refused, on every cut of the fixture, and the
 * window shares: whole intervals exactly, parts in proportion.
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
#include <unistd.h>

#include "analysis/parsers/parse_procstat.h"
#include "tests/unit/fixture_util.h"

#define HEADER PARSE_PROCSTAT_HEADER "\n"

/* a equals b within tol (this cmocka has no assert_double_equal) */
#define assert_near(a, b, tol) assert_true(fabs((double)(a) - (b)) <= (tol))

static int parse_bytes(const void *buf, size_t len, struct procstat_series *s,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_procstat.XXXXXX";
	int rc =
		parse_procstat_file(fixture_write_temp(buf, len, path), s, err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct procstat_series *s,
		     struct err *err)
{
	return parse_bytes(text, strlen(text), s, err);
}

static void test_fixture(void **state)
{
	struct procstat_series s;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_procstat_file(fixture_path("procstat.csv"), &s, &err), 0);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.bad_lines, 0);
	assert_near(s.samples[0].t_s, 1796149526.033, 1e-6);
	assert_int_equal(s.samples[0].cpu.ticks[PROCSTAT_USER], 500178);
	assert_int_equal(s.samples[5].cpu.ticks[PROCSTAT_STEAL], 18896);
	assert_int_equal(s.samples[5].cpu.ticks[PROCSTAT_IOWAIT], 3343);
	parse_procstat_free(&s);
	assert_null(s.samples);
}

/*
 * The window shares against the counters by hand: the whole file is
 * 1796149526.033 .. 531.036; between the first and the last sample
 * user went up 235, nice 502, system 178, idle 2, iowait 5, softirq 7,
 * steal 58: 987 ticks, 58 of them steal.
 */
static void test_window_whole(void **state)
{
	struct procstat_series s;
	struct procstat_shares sh;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_procstat_file(fixture_path("procstat.csv"), &s, &err), 0);
	parse_procstat_place(&s, 1796149526.0);
	assert_near(s.samples[0].t_s, 0.033, 1e-6);
	assert_int_equal(parse_procstat_window(&s, 0, 10, &sh, &err), 0);
	assert_near(sh.total_ticks, 987, 1e-9);
	assert_near(sh.share[PROCSTAT_STEAL], 58.0 / 987, 1e-12);
	assert_near(sh.share[PROCSTAT_IDLE], 2.0 / 987, 1e-12);
	assert_near(sh.busy, (235.0 + 502 + 178 + 7) / 987, 1e-12);
	/* the first interval alone: 40+103+42+0+2+0+1+10 = 198, steal 10
	   (its ends are placed times in floating point: a sliver may differ) */
	assert_int_equal(parse_procstat_window(&s, s.samples[0].t_s,
					       s.samples[1].t_s, &sh, &err),
			 0);
	assert_near(sh.total_ticks, 198, 1e-6);
	assert_near(sh.share[PROCSTAT_STEAL], 10.0 / 198, 1e-9);
	parse_procstat_free(&s);
}

/* Part of an interval counts in proportion to the part inside. */
static void test_window_part(void **state)
{
	static const char text[] = HEADER "100.000,0,0,0,0,0,0,0,0,0,0\n"
					  "101.000,100,0,0,0,0,0,0,100,0,0\n"
					  "102.000,300,0,0,0,0,0,0,100,0,0\n";
	struct procstat_series s;
	struct procstat_shares sh;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &s, &err), 0);
	parse_procstat_place(&s, 100);
	/* half of the first (50 user, 50 steal), all of the second (200) */
	assert_int_equal(parse_procstat_window(&s, 0.5, 2, &sh, &err), 0);
	assert_near(sh.total_ticks, 300, 1e-9);
	assert_near(sh.share[PROCSTAT_STEAL], 50.0 / 300, 1e-12);
	/* a quarter of the second: user only */
	assert_int_equal(parse_procstat_window(&s, 1.5, 1.75, &sh, &err), 0);
	assert_near(sh.total_ticks, 50, 1e-9);
	assert_near(sh.share[PROCSTAT_STEAL], 0, 0);
	/* outside the samples, and an empty window */
	assert_int_equal(parse_procstat_window(&s, 3, 4, &sh, &err), -ENODATA);
	assert_int_equal(parse_procstat_window(&s, 1, 1, &sh, &err), -EINVAL);
	parse_procstat_free(&s);
}

/* A counter that goes back (iowait may) counts 0, not a negative share. */
static void test_window_counter_back(void **state)
{
	static const char text[] = HEADER "0.000,10,0,0,0,50,0,0,0,0,0\n"
					  "1.000,20,0,0,0,40,0,0,0,0,0\n";
	struct procstat_series s;
	struct procstat_shares sh;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &s, &err), 0);
	assert_int_equal(parse_procstat_window(&s, 0, 1, &sh, &err), 0);
	assert_near(sh.total_ticks, 10, 1e-9);
	assert_near(sh.share[PROCSTAT_IOWAIT], 0, 0);
	parse_procstat_free(&s);
}

/* Damaged rows are skipped and counted; the good ones stay. */
static void test_bad_rows_skipped(void **state)
{
	static const char text[] =
		HEADER "1.000,1,2,3,4,5,6,7,8,9,10\n"
		       "2.000,1,2,3,4,5,6,7,8,9\n"	 /* a field short */
		       "3.000,1,2,3,4,5,6,7,8,9,10,11\n" /* a field more */
		       "4.000,1,2,x,4,5,6,7,8,9,10\n"	 /* not a number */
		       "-5.000,1,2,3,4,5,6,7,8,9,10\n"	 /* negative time */
		       "1.000,1,2,3,4,5,6,7,8,9,10\n"	 /* time not after */
		       "6.000,1,2,3,4,5,6,7,8,9,-1\n"	 /* negative counter */
		       "7.000,1,2,3,4,5,6,7,8,9,10\n"	 /* good */
		       "\n"				 /* empty */
		       "8.000,1,2,3,4,5,6,7,8,9,10";	 /* cut: no newline */
	struct procstat_series s;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.bad_lines, 8);
	assert_near(s.samples[1].t_s, 7, 0);
	parse_procstat_free(&s);
}

static void test_refused(void **state)
{
	static const struct {
		const char *text;
		int rc;
	} cases[] = {
		{"", -ENODATA},
		{HEADER, -ENODATA},
		{HEADER "x\n", -ENODATA},
		{"epoch_s,user,nice,system,idle\n1,2,3,4,5\n", -EINVAL},
		{"cpu  1 2 3 4 5 6 7 8 9 10\n", -EINVAL},
		{PARSE_PROCSTAT_HEADER ",extra\n", -EINVAL},
	};
	struct procstat_series s;
	struct err err = {""};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err_clear(&err);
		assert_int_equal(parse_str(cases[i].text, &s, &err),
				 cases[i].rc);
		assert_true(err.msg[0] != '\0');
		assert_null(s.samples);
		assert_int_equal(s.n, 0);
	}
	assert_int_equal(
		parse_procstat_file("/nonexistent/procstat.csv", &s, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/procstat.csv"));
}

/* Every cut of the fixture: an error or a prefix of its samples. */
static void test_every_cut(void **state)
{
	size_t len, cut;
	char *buf = fixture_read_file(fixture_path("procstat.csv"), &len);
	struct procstat_series s;
	struct err err = {""};

	(void)state;
	for (cut = 0; cut <= len; cut++) {
		int rc = parse_bytes(buf, cut, &s, &err);

		if (rc == 0) {
			assert_true(s.n >= 1 && s.n <= 6);
			assert_true(s.bad_lines <= 1);
		} else {
			assert_true(rc == -ENODATA || rc == -EINVAL);
		}
		parse_procstat_free(&s);
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_window_whole),
		cmocka_unit_test(test_window_part),
		cmocka_unit_test(test_window_counter_back),
		cmocka_unit_test(test_bad_rows_skipped),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_every_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
