/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hist.c - the latency histogram: bucket layout, precision bound,
 * percentiles against exact answers, merging, clamping of huge values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "src/base/hist.h"
#include "src/base/rng.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Every value maps into a bucket whose range contains it. */
static void test_bucket_ranges_contain_values(void **state)
{
	struct hist h;
	uint64_t v, lo, hi;
	int prev = -1;

	(void)state;
	assert_int_equal(hist_init(&h, 7), 0);
	for (v = 0; v < 200000; v += 1 + v / 50) {
		int b = hist_bucket_of(&h, v);

		assert_true(b >= prev); /* monotonic */
		prev = b;
		hist_bucket_range(&h, b, &lo, &hi);
		assert_true(lo <= v && v <= hi);
		/* relative width bounded by 2^-bits */
		assert_true((double)(hi - lo) <= (double)lo / 128.0 + 1e-9);
	}
	hist_free(&h);
}

/* Percentiles within the precision bound of the exact order statistics. */
static void test_percentiles_match_sorted(void **state)
{
	enum { N = 50001 };
	static uint64_t values[N];
	static const double ps[] = {50, 90, 95, 99, 99.9};
	struct hist h;
	struct rng r;
	size_t i;

	(void)state;
	rng_seed(&r, 42, 0);
	assert_int_equal(hist_init(&h, 7), 0);
	for (i = 0; i < N; i++) {
		/* long-tailed: exponential with mean 5 ms */
		values[i] = (uint64_t)(-log(rng_unit_open(&r)) * 5000.0);
		hist_record(&h, values[i]);
	}
	qsort(values, N, sizeof(values[0]), cmp_u64);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		size_t rank = (size_t)ceil(ps[i] / 100.0 * N) - 1;
		double exact = (double)values[rank];
		double got = (double)hist_percentile(&h, ps[i]);

		assert_true(fabs(got - exact) <= exact / 128.0 + 1.0);
	}
	assert_int_equal(hist_percentile(&h, 0), values[0]);
	assert_int_equal(hist_percentile(&h, 100), values[N - 1]);
	assert_int_equal(h.total, N);
	hist_free(&h);
}

static void test_small_values_exact(void **state)
{
	struct hist h;
	uint64_t v;

	(void)state;
	assert_int_equal(hist_init(&h, 7), 0);
	for (v = 1; v <= 100; v++)
		hist_record(&h, v);
	assert_int_equal(hist_percentile(&h, 50), 50);
	assert_int_equal(hist_percentile(&h, 90), 90);
	assert_true(fabs(hist_mean(&h) - 50.5) < 1e-9);
	hist_free(&h);
}

static void test_merge(void **state)
{
	struct hist a, b, c;

	(void)state;
	assert_int_equal(hist_init(&a, 7), 0);
	assert_int_equal(hist_init(&b, 7), 0);
	assert_int_equal(hist_init(&c, 4), 0);
	hist_record(&a, 10);
	hist_record(&b, 1000);
	hist_record(&b, 3);
	assert_int_equal(hist_merge(&a, &b), 0);
	assert_int_equal(a.total, 3);
	assert_int_equal(a.min, 3);
	assert_int_equal(a.max, 1000);
	assert_int_equal(hist_merge(&a, &c), -EINVAL);
	hist_free(&a);
	hist_free(&b);
	hist_free(&c);
}

static void test_huge_and_empty(void **state)
{
	struct hist h;

	(void)state;
	assert_int_equal(hist_init(&h, 7), 0);
	assert_int_equal(hist_percentile(&h, 90), 0);
	assert_true(hist_mean(&h) == 0.0);
	hist_record(&h, UINT64_MAX / 2);
	assert_int_equal(hist_bucket_of(&h, UINT64_MAX / 2), h.nbuckets - 1);
	assert_int_equal(hist_percentile(&h, 50), UINT64_MAX / 2);
	hist_reset(&h);
	assert_int_equal(h.total, 0);
	hist_free(&h);
	hist_free(&h); /* twice is safe */
	assert_int_equal(hist_init(&h, 0), -EINVAL);
	assert_int_equal(hist_init(&h, 11), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_ranges_contain_values),
		cmocka_unit_test(test_percentiles_match_sorted),
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_huge_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
