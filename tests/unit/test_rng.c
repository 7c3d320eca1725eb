/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_rng.c - the xoshiro256** generator: inclusive range bounds without
 * bias, reproducibility from (seed, stream), independent streams, and
 * rng_unit_open() never returning 0 or 1.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "src/base/rng.h"

/* Both ends of [lo, hi] occur, nothing outside does. */
static void test_range_bounds_inclusive(void **state)
{
	static const struct {
		int64_t lo, hi;
	} cases[] = {
		{0, 1}, {1, 10},  {5, 15},   {-3, 3},
		{7, 7}, {0, 255}, {1, 3000}, {-1000000, -999990},
	};
	struct rng r;
	size_t i;
	int k;

	(void)state;
	rng_seed(&r, 1, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t lo = cases[i].lo, hi = cases[i].hi;
		bool got_lo = false, got_hi = false;

		for (k = 0; k < 200000; k++) {
			int64_t v = rng_range(&r, lo, hi);

			assert_true(v >= lo && v <= hi);
			got_lo = got_lo || v == lo;
			got_hi = got_hi || v == hi;
		}
		assert_true(got_lo);
		assert_true(got_hi);
	}
}

/* Large spans stay in range, up to the full 64-bit span. */
static void test_range_extremes(void **state)
{
	struct rng r;
	bool high = false, negative = false, positive = false;
	int k;

	(void)state;
	rng_seed(&r, 2, 0);
	for (k = 0; k < 1000; k++) {
		int64_t v = rng_range(&r, 0, INT64_MAX);

		assert_true(v >= 0);
		high = high || v > INT64_MAX / 2;
		v = rng_range(&r, INT64_MIN, -1);
		assert_true(v < 0);
		v = rng_range(&r, INT64_MAX - 1, INT64_MAX);
		assert_true(v >= INT64_MAX - 1);
		/* the whole int64 range: both signs show up */
		v = rng_range(&r, INT64_MIN, INT64_MAX);
		negative = negative || v < 0;
		positive = positive || v > 0;
		v = rng_range(&r, INT64_MIN, INT64_MAX - 1);
		assert_true(v < INT64_MAX);
	}
	assert_true(high && negative && positive);
}

/* rand[1..10]: each value near 10 % (chi-square, 9 d.o.f.). */
static void test_range_uniform(void **state)
{
	enum { N = 1000000, K = 10 };
	long count[K] = {0};
	double chi2 = 0, expect = (double)N / K;
	struct rng r;
	int k;

	(void)state;
	rng_seed(&r, 3, 0);
	for (k = 0; k < N; k++)
		count[rng_range(&r, 1, K) - 1]++;
	for (k = 0; k < K; k++)
		chi2 += (count[k] - expect) * (count[k] - expect) / expect;
	/* p = 0.001 critical value for 9 degrees of freedom is 27.9 */
	assert_true(chi2 < 27.9);
}

/* Same seed and stream, same sequence; another stream, another one. */
static void test_reproducible_streams(void **state)
{
	struct rng a, b, c, d;
	uint64_t va[64], vc[64];
	int k, same_c = 0, same_d = 0;

	(void)state;
	rng_seed(&a, 12345, 7);
	rng_seed(&b, 12345, 7);
	rng_seed(&c, 12345, 8);
	rng_seed(&d, 12346, 7);
	for (k = 0; k < 64; k++) {
		va[k] = rng_next(&a);
		assert_true(va[k] == rng_next(&b));
		vc[k] = rng_next(&c);
		same_c += va[k] == vc[k];
		same_d += va[k] == rng_next(&d);
	}
	assert_int_equal(same_c, 0);
	assert_int_equal(same_d, 0);
	/* Seeding again restarts the sequence. */
	rng_seed(&a, 12345, 7);
	assert_true(rng_next(&a) == va[0]);
	/* Small seeds still give unrelated, non-degenerate states. */
	rng_seed(&a, 0, 0);
	assert_true(a.s[0] | a.s[1] | a.s[2] | a.s[3]);
	assert_memory_not_equal(va, vc, sizeof(va));
}

/* (0, 1) open at both ends, mean about 1/2. */
static void test_unit_open(void **state)
{
	enum { N = 1000000 };
	double sum = 0, lo = 1, hi = 0;
	struct rng r;
	int k;

	(void)state;
	rng_seed(&r, 4, 0);
	for (k = 0; k < N; k++) {
		double u = rng_unit_open(&r);

		assert_true(u > 0.0 && u < 1.0);
		assert_true(isfinite(-log(u)));
		sum += u;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	assert_true(fabs(sum / N - 0.5) < 0.002);
	assert_true(lo < 1e-5 && hi > 1 - 1e-5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_bounds_inclusive),
		cmocka_unit_test(test_range_extremes),
		cmocka_unit_test(test_range_uniform),
		cmocka_unit_test(test_reproducible_streams),
		cmocka_unit_test(test_unit_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
