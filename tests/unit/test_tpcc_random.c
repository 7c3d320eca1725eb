/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tpcc_random.c - TPC-C's random functions (clauses 2.1.4-2.1.6,
 * 4.3.2): NURand bounds and skew, the C-Load/C-Run delta rule, last names
 * from syllables, a-strings, n-strings, zip codes and "ORIGINAL".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/tpcc_random.h"

/* NURand(A, x, y) stays in [x, y] for every A of the spec and any C. */
static void test_nurand_bounds(void **state)
{
	static const struct {
		int a, x, y;
	} cases[] = {
		{TPCC_A_C_LAST, 0, 999},
		{TPCC_A_C_ID, 1, 3000},
		{TPCC_A_OL_I_ID, 1, 100000},
	};
	struct rng r;
	size_t i;

	(void)state;
	rng_seed(&r, 5, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int c, k, lo = cases[i].y, hi = cases[i].x;

		for (c = 0; c <= cases[i].a; c += cases[i].a / 7) {
			for (k = 0; k < 20000; k++) {
				int v = tpcc_nurand(&r, cases[i].a, cases[i].x,
						    cases[i].y, c);

				assert_in_range(v, cases[i].x, cases[i].y);
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
		}
		/* it covers (nearly) the whole range */
		assert_true(lo <= cases[i].x + (cases[i].y - cases[i].x) / 100);
		assert_true(hi >= cases[i].y - (cases[i].y - cases[i].x) / 100);
	}
}

/* NURand is non-uniform: the top C_ID is far above the mean frequency. */
static void test_nurand_skew(void **state)
{
	enum { N = 600000 };
	static int count[3001];
	struct rng r;
	int k, max = 0;

	(void)state;
	memset(count, 0, sizeof(count));
	rng_seed(&r, 6, 0);
	for (k = 0; k < N; k++)
		count[tpcc_nurand(&r, TPCC_A_C_ID, 1, 3000, 259)]++;
	for (k = 1; k <= 3000; k++)
		max = count[k] > max ? count[k] : max;
	/* mean is 200; uniform would keep the top well under 2x */
	assert_true(max > 4 * (N / 3000));
}

static void test_c_delta_rule(void **state)
{
	static const struct {
		int load, run;
		bool ok;
	} cases[] = {
		{0, 64, false},	  {0, 65, true},     {0, 119, true},
		{0, 120, false},  {0, 96, false},    {0, 112, false},
		{0, 95, true},	  {0, 97, true},     {0, 111, true},
		{0, 113, true},	  {200, 104, false}, {200, 88, false},
		{157, 223, true}, {223, 157, true},  {100, 100, false},
		{255, 136, true}, {255, 135, false}, {120, 0, false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (tpcc_c_delta_ok(cases[i].load, cases[i].run) != cases[i].ok)
			fail_msg("delta(%d, %d) should be %s", cases[i].load,
				 cases[i].run, cases[i].ok ? "ok" : "refused");
}

/* For every C-Load in 0..255 the drawn C-Run is in range and allowed. */
static void test_c_run_for_every_c_load(void **state)
{
	struct rng r;
	int c_load, k;

	(void)state;
	rng_seed(&r, 7, 0);
	for (c_load = 0; c_load <= TPCC_A_C_LAST; c_load++) {
		for (k = 0; k < 50; k++) {
			int c_run = tpcc_c_run_for(&r, c_load);

			assert_in_range(c_run, 0, TPCC_A_C_LAST);
			assert_true(tpcc_c_delta_ok(c_load, c_run));
		}
	}
}

static void test_c_last(void **state)
{
	static const struct {
		int n;
		const char *name;
	} cases[] = {
		{371, "PRICALLYOUGHT"}, {40, "BARPRESBAR"},
		{0, "BARBARBAR"},	{999, "EINGEINGEING"},
		{123, "OUGHTABLEPRI"},	{578, "ESECALLYATION"},
		{906, "EINGBARANTI"},
	};
	char buf[TPCC_C_LAST_MAX];
	size_t i, longest = 0;
	int n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(tpcc_c_last(cases[i].n, buf),
				 strlen(cases[i].name));
		assert_string_equal(buf, cases[i].name);
	}
	/* All 1000 names differ and fit vt16. */
	for (n = 0; n < 1000; n++) {
		size_t len = tpcc_c_last(n, buf);

		assert_int_equal(len, strlen(buf));
		longest = len > longest ? len : longest;
	}
	assert_int_equal(longest, 15);
	assert_true(longest < TPCC_C_LAST_MAX);
}

/* Lengths uniform in [lo, hi] with both ends reached; alphanumerics only. */
static void test_astring(void **state)
{
	static const struct {
		int lo, hi;
	} cases[] = {{8, 16}, {24, 24}, {26, 50}, {300, 500}, {2, 2}};
	bool chars[256] = {false};
	char buf[512];
	struct rng r;
	size_t i;
	int k, distinct = 0;

	(void)state;
	rng_seed(&r, 8, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool got_lo = false, got_hi = false;

		for (k = 0; k < 20000; k++) {
			size_t len = tpcc_astring(&r, cases[i].lo, cases[i].hi,
						  buf),
			       j;

			assert_in_range(len, cases[i].lo, cases[i].hi);
			assert_int_equal(strlen(buf), len);
			for (j = 0; j < len; j++) {
				assert_true(isalnum((unsigned char)buf[j]));
				chars[(unsigned char)buf[j]] = true;
			}
			got_lo = got_lo || (int)len == cases[i].lo;
			got_hi = got_hi || (int)len == cases[i].hi;
		}
		assert_true(got_lo && got_hi);
	}
	for (k = 0; k < 256; k++)
		distinct += chars[k];
	/* a-z, A-Z and 0-9 all occur (4.3.2.2) */
	assert_int_equal(distinct, 62);
}

static void test_nstring_and_zip(void **state)
{
	bool seen_digit[10] = {false};
	char buf[32];
	struct rng r;
	int k, j, d = 0;

	(void)state;
	rng_seed(&r, 9, 0);
	for (k = 0; k < 10000; k++) {
		assert_int_equal(tpcc_nstring(&r, 16, 16, buf), 16);
		for (j = 0; j < 16; j++) {
			assert_true(isdigit((unsigned char)buf[j]));
			seen_digit[buf[j] - '0'] = true;
		}
		assert_int_equal(buf[16], '\0');
		tpcc_zip(&r, buf);
		assert_int_equal(strlen(buf), 9);
		for (j = 0; j < 4; j++)
			assert_true(isdigit((unsigned char)buf[j]));
		assert_string_equal(buf + 4, "11111");
	}
	for (k = 0; k < 10; k++)
		d += seen_digit[k];
	assert_int_equal(d, 10);
}

/* "ORIGINAL" lands inside the string, at every possible position. */
static void test_put_original(void **state)
{
	char buf[64];
	bool at_start = false, at_end = false;
	struct rng r;
	int k;

	(void)state;
	rng_seed(&r, 10, 0);
	for (k = 0; k < 5000; k++) {
		size_t len = tpcc_astring(&r, 26, 50, buf);
		char *p;

		tpcc_put_original(&r, buf, len);
		assert_int_equal(strlen(buf), len);
		p = strstr(buf, "ORIGINAL");
		assert_non_null(p);
		at_start = at_start || p == buf;
		at_end = at_end || p + 8 == buf + len;
	}
	assert_true(at_start && at_end);
	/* A string of exactly 8 becomes "ORIGINAL". */
	memcpy(buf, "abcdefgh", 9);
	tpcc_put_original(&r, buf, 8);
	assert_string_equal(buf, "ORIGINAL");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nurand_bounds),
		cmocka_unit_test(test_nurand_skew),
		cmocka_unit_test(test_c_delta_rule),
		cmocka_unit_test(test_c_run_for_every_c_load),
		cmocka_unit_test(test_c_last),
		cmocka_unit_test(test_astring),
		cmocka_unit_test(test_nstring_and_zip),
		cmocka_unit_test(test_put_original),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
