/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pacing.c - keying and think times: parsing --keying-think, the
 * constant keying times, the think-time mean, its exponential shape and
 * the cut at 10 times the mean.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "terminals/pacing.h"

static void test_parse_good(void **state)
{
	static const struct {
		const char *text;
		enum pacing_mode mode;
		double scale;
	} cases[] = {
		{"tpcc", PACING_TPCC, 1.0},
		{"none", PACING_NONE, 0.0},
		{"scale=0.01", PACING_SCALE, 0.01},
		{"scale=1", PACING_SCALE, 1.0},
		{"scale=0", PACING_SCALE, 0.0},
		{"scale=2.5", PACING_SCALE, 2.5},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pacing p;
		struct err err;

		assert_int_equal(pacing_parse(cases[i].text, &p, &err), 0);
		assert_int_equal(p.mode, cases[i].mode);
		assert_true(fabs(p.scale - cases[i].scale) < 1e-12);
	}
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"",	     "TPCC",	  "fast",      "scale",
		"scale=",    "scale=-1",  "scale=abc", "scale=1x",
		"scale=nan", "scale=inf", "scale=1e9", "none ",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pacing p;
		struct err err;

		err_clear(&err);
		assert_int_equal(pacing_parse(bad[i], &p, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "--keying-think"));
		assert_null(strchr(err.msg, '\n'));
	}
}

static void test_keying(void **state)
{
	struct pacing tpcc = {PACING_TPCC, 1.0}, none = {PACING_NONE, 0},
		      scaled = {PACING_SCALE, 0.01};

	(void)state;
	assert_int_equal(pacing_keying_us(&tpcc, TXN_NEW_ORDER), 18000000);
	assert_int_equal(pacing_keying_us(&tpcc, TXN_PAYMENT), 3000000);
	assert_int_equal(pacing_keying_us(&tpcc, TXN_ORDER_STATUS), 2000000);
	assert_int_equal(pacing_keying_us(&tpcc, TXN_DELIVERY), 2000000);
	assert_int_equal(pacing_keying_us(&tpcc, TXN_STOCK_LEVEL), 2000000);
	assert_int_equal(pacing_keying_us(&scaled, TXN_NEW_ORDER), 180000);
	assert_int_equal(pacing_keying_us(&none, TXN_NEW_ORDER), 0);
}

/*
 * Over 1,000,000 draws: mean within 0.5 % of the truncated mean
 * mu (1 - e^-10) (standard error 0.1 %), share below the mean within
 * 0.3 % of 1 - 1/e, nothing above 10 mu, and some draws cut exactly
 * at 10 mu (expected e^-10 * 1e6 = 45 of them).
 */
static void check_think(enum txn_type type, double mean_ms)
{
	enum { N = 1000000 };
	struct pacing p = {PACING_TPCC, 1.0};
	double mu = mean_ms * 1000.0, sum = 0, below = 0;
	int64_t cap = (int64_t)llround(10.0 * mu);
	int at_cap = 0, i;
	struct rng r;

	rng_seed(&r, 5, (uint64_t)type);
	for (i = 0; i < N; i++) {
		int64_t t = pacing_think_us(&p, type, &r);

		assert_true(t >= 0);
		assert_true(t <= cap);
		at_cap += t == cap;
		below += t <= mu;
		sum += (double)t;
	}
	assert_true(fabs(sum / N - mu * (1 - exp(-10.0))) < 0.005 * mu);
	assert_true(fabs(below / N - (1 - exp(-1.0))) < 0.003);
	assert_true(at_cap > 5 && at_cap < 120);
}

static void test_think_times(void **state)
{
	(void)state;
	check_think(TXN_NEW_ORDER, 12000);
	check_think(TXN_ORDER_STATUS, 10000);
	check_think(TXN_STOCK_LEVEL, 5000);
}

static void test_think_scaled_and_none(void **state)
{
	struct pacing none = {PACING_NONE, 0}, half = {PACING_SCALE, 0.5},
		      zero = {PACING_SCALE, 0.0};
	struct rng r, before;
	double sum = 0;
	int i;

	(void)state;
	rng_seed(&r, 1, 1);
	before = r;
	for (i = 0; i < 1000; i++) {
		assert_int_equal(pacing_think_us(&none, TXN_PAYMENT, &r), 0);
		assert_int_equal(pacing_think_us(&zero, TXN_PAYMENT, &r), 0);
	}
	/* "none" draws nothing: the stream is untouched */
	assert_memory_equal(&r, &before, sizeof(r));
	for (i = 0; i < 200000; i++)
		sum += (double)pacing_think_us(&half, TXN_PAYMENT, &r);
	assert_true(fabs(sum / 200000 - 6e6) < 0.01 * 6e6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_keying),
		cmocka_unit_test(test_think_times),
		cmocka_unit_test(test_think_scaled_and_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
