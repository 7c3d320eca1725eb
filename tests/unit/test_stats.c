/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stats.c - the statistics behind `oltpmark compare` (analysis/
 * stats.h): Student's t quantiles against the printed table and against
 * the closed forms for 1 and 2 degrees of freedom, the incomplete beta
 * function on values known exactly, Welch's test on a hand-computed
 * example, and Holm's correction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>

#include "analysis/common/stats.h"

/* t(df, 0.975) from a printed table, to three decimals. */
static const struct {
	double df; /* degrees of freedom */
	double t;  /* the table's quantile */
} t_table[] = {
	{1, 12.706}, {2, 4.303},   {3, 3.182},	      {4, 2.776},
	{5, 2.571},  {10, 2.228},  {20, 2.086},	      {30, 2.042},
	{60, 2.000}, {120, 1.980}, {INFINITY, 1.960},
};

static void test_t_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t_table) / sizeof(t_table[0]); i++) {
		double t = stats_t_quantile(0.975, t_table[i].df);

		if (fabs(t - t_table[i].t) >= 0.0005)
			fail_msg("t(%g, 0.975) = %.6f, table says %.3f",
				 t_table[i].df, t, t_table[i].t);
	}
	/* Very large df is the normal distribution. */
	assert_true(fabs(stats_t_quantile(0.975, 1e9) - 1.959964) < 1e-6);
}

/* df = 1 (Cauchy) and df = 2 have closed forms: exact checks. */
static void test_t_closed_forms(void **state)
{
	static const double ps[] = {0.6, 0.75, 0.9, 0.975, 0.995, 0.9995};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double p = ps[i];
		double cauchy = tan(M_PI * (p - 0.5));
		double two = (2 * p - 1) / sqrt(2 * p * (1 - p));

		assert_true(fabs(stats_t_quantile(p, 1) - cauchy) <
			    1e-9 * fmax(1, cauchy));
		assert_true(fabs(stats_t_quantile(p, 2) - two) <
			    1e-9 * fmax(1, two));
		/* Symmetry. */
		assert_true(fabs(stats_t_quantile(1 - p, 2) + two) <
			    1e-9 * fmax(1, two));
	}
	assert_true(stats_t_quantile(0.5, 7) == 0);
}

/* Non-integer df: the quantile inverts the CDF and lies between its
 * integer neighbours. */
static void test_t_fractional_df(void **state)
{
	static const double dfs[] = {1.5, 2.5, 3.7, 5.520788, 12.25};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++) {
		double df = dfs[i], q = stats_t_quantile(0.975, df);

		assert_true(fabs(stats_t_cdf(q, df) - 0.975) < 1e-12);
		assert_true(q < stats_t_quantile(0.975, floor(df)));
		assert_true(q > stats_t_quantile(0.975, ceil(df)));
	}
	assert_true(fabs(stats_t_cdf(0, 3.3) - 0.5) < 1e-15);
	assert_true(fabs(stats_t_cdf(-2, 3.3) + stats_t_cdf(2, 3.3) - 1) <
		    1e-15);
}

static void test_t_bad_arguments(void **state)
{
	(void)state;
	assert_true(isnan(stats_t_quantile(0, 3)));
	assert_true(isnan(stats_t_quantile(1, 3)));
	assert_true(isnan(stats_t_quantile(0.975, 0)));
	assert_true(isnan(stats_t_quantile(0.975, -1)));
	assert_true(isnan(stats_t_quantile(NAN, 3)));
	assert_true(isnan(stats_t_cdf(1, 0)));
	assert_true(isnan(stats_t_cdf(NAN, 3)));
}

static void test_betai(void **state)
{
	(void)state;
	/* I_0.4(2, 3) = sum_{j=2..4} C(4,j) 0.4^j 0.6^(4-j) = 0.5248. */
	assert_true(fabs(stats_betai(2, 3, 0.4) - 0.5248) < 1e-14);
	/* I_x(1, 1) = x and I_x(a, 1) = x^a. */
	assert_true(fabs(stats_betai(1, 1, 0.3) - 0.3) < 1e-14);
	assert_true(fabs(stats_betai(2.5, 1, 0.7) - pow(0.7, 2.5)) < 1e-14);
	/* Symmetry I_x(a, b) = 1 - I_{1-x}(b, a), both branches. */
	assert_true(fabs(stats_betai(3.5, 0.5, 0.9) +
			 stats_betai(0.5, 3.5, 0.1) - 1) < 1e-14);
	assert_true(stats_betai(2, 3, 0) == 0);
	assert_true(stats_betai(2, 3, 1) == 1);
	assert_true(isnan(stats_betai(0, 3, 0.5)));
	assert_true(isnan(stats_betai(2, 3, 1.5)));
}

static void test_descriptive(void **state)
{
	static const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	static const double near[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};

	(void)state;
	assert_true(stats_mean(x, 8) == 5);
	/* Sum of squares 32 over n - 1 = 7. */
	assert_true(fabs(stats_sd(x, 8) - sqrt(32.0 / 7)) < 1e-14);
	assert_true(fabs(stats_cov(x, 8) - sqrt(32.0 / 7) / 5) < 1e-14);
	/* Large values close together keep their spread (two passes). */
	assert_true(fabs(stats_sd(near, 3) - 1) < 1e-6);
	assert_true(isnan(stats_mean(x, 0)));
	assert_true(isnan(stats_sd(x, 1)));
	assert_true(isnan(stats_cov(x, 1)));
}

/*
 * a = {1,2,3,4}: mean 2.5, var 5/3; b = {2,4,6,8,10}: mean 6, var 10.
 * SE^2 = 5/12 + 2 = 29/12. df = (29/12)^2 / ((5/12)^2/3 + 2^2/4)
 * = 2523/457 = 5.5207877...
 */
static void test_welch_hand_example(void **state)
{
	static const double a[] = {1, 2, 3, 4};
	static const double b[] = {2, 4, 6, 8, 10};
	struct stats_welch w;

	(void)state;
	assert_int_equal(stats_welch(a, 4, b, 5, &w), 0);
	assert_true(fabs(w.diff - 3.5) < 1e-14);
	assert_true(fabs(w.se - sqrt(29.0 / 12)) < 1e-14);
	assert_true(fabs(w.df - 2523.0 / 457) < 1e-12);
	assert_true(fabs(w.t - 3.5 / sqrt(29.0 / 12)) < 1e-12);
	assert_true(fabs(w.t_crit - stats_t_quantile(0.975, 2523.0 / 457)) <
		    1e-12);
	/* |t| = 2.2514 < t_crit = 2.50: not significant, p just above 5 %. */
	assert_true(w.p > 0.05 && w.p < 0.1);
	assert_true(fabs(w.p - 2 * (1 - stats_t_cdf(fabs(w.t), w.df))) < 1e-12);
	/* Swapping the samples flips the sign only. */
	assert_int_equal(stats_welch(b, 5, a, 4, &w), 0);
	assert_true(fabs(w.diff + 3.5) < 1e-14);
	assert_true(fabs(w.df - 2523.0 / 457) < 1e-12);
}

static void test_welch_degenerate(void **state)
{
	static const double a[] = {3, 3, 3}, b[] = {3, 3}, c[] = {4, 4};
	static const double d[] = {1, 2, 3};
	struct stats_welch w;

	(void)state;
	assert_int_equal(stats_welch(a, 3, b, 2, &w), 0);
	assert_true(w.se == 0 && w.p == 1 && w.t == 0 && w.df == 3);
	assert_int_equal(stats_welch(a, 3, c, 2, &w), 0);
	assert_true(w.p == 0 && isinf(w.t) && w.t > 0);
	/* One side constant: df from the other side alone (n - 1). */
	assert_int_equal(stats_welch(a, 3, d, 3, &w), 0);
	assert_true(fabs(w.df - 2) < 1e-12);
	assert_int_equal(stats_welch(a, 1, b, 2, &w), -EINVAL);
	assert_int_equal(stats_welch(a, 3, b, 1, &w), -EINVAL);
}

static void test_holm(void **state)
{
	double p[] = {0.01, 0.04, 0.03, 0.005}, adj[4];
	double q[] = {0.01, NAN, 0.04}, qadj[3];
	double big[] = {0.6, 0.7};
	double tie[] = {0.02, 0.02, 0.02};

	(void)state;
	/* Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1
	 * raised to 0.06 by the step-down maximum. */
	assert_int_equal(stats_holm(p, 4, adj), 0);
	assert_true(fabs(adj[0] - 0.03) < 1e-15);
	assert_true(fabs(adj[1] - 0.06) < 1e-15);
	assert_true(fabs(adj[2] - 0.06) < 1e-15);
	assert_true(fabs(adj[3] - 0.02) < 1e-15);
	/* NAN: not a comparison, so m = 2. */
	assert_int_equal(stats_holm(q, 3, qadj), 0);
	assert_true(fabs(qadj[0] - 0.02) < 1e-15);
	assert_true(isnan(qadj[1]));
	assert_true(fabs(qadj[2] - 0.04) < 1e-15);
	/* Capped at 1, in place. */
	assert_int_equal(stats_holm(big, 2, big), 0);
	assert_true(big[0] == 1 && big[1] == 1);
	/* Ties: every one gets the largest step's level. */
	assert_int_equal(stats_holm(tie, 3, tie), 0);
	assert_true(fabs(tie[0] - 0.06) < 1e-15);
	assert_true(fabs(tie[1] - 0.06) < 1e-15);
	assert_true(fabs(tie[2] - 0.06) < 1e-15);
	assert_int_equal(stats_holm(p, 0, adj), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_t_closed_forms),
		cmocka_unit_test(test_t_fractional_df),
		cmocka_unit_test(test_t_bad_arguments),
		cmocka_unit_test(test_betai),
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_welch_hand_example),
		cmocka_unit_test(test_welch_degenerate),
		cmocka_unit_test(test_holm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
