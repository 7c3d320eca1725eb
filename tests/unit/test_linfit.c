/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_linfit.c - the least-squares solver (analysis/common/linfit.h)
 * against NIST's certified values for the Longley data (Statistical
 * Reference Datasets, "higher difficulty": the columns are nearly
 * collinear, so a solver that squares the condition number fails it),
 * against identities every least-squares fit satisfies, and on the
 * inputs it must refuse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "analysis/common/linfit.h"
#include "src/base/rng.h"

/*
 * Longley (1967), as NIST publishes it: y (total employment), then x1..x6
 * (GNP deflator, GNP, unemployed, armed forces, population, year).
 */
static const double longley[16][7] = {
	{60323, 83.0, 234289, 2356, 1590, 107608, 1947},
	{61122, 88.5, 259426, 2325, 1456, 108632, 1948},
	{60171, 88.2, 258054, 3682, 1616, 109773, 1949},
	{61187, 89.5, 284599, 3351, 1650, 110929, 1950},
	{63221, 96.2, 328975, 2099, 3099, 112075, 1951},
	{63639, 98.1, 346999, 1932, 3594, 113270, 1952},
	{64989, 99.0, 365385, 1870, 3547, 115094, 1953},
	{63761, 100.0, 363112, 3578, 3350, 116219, 1954},
	{66019, 101.2, 397469, 2904, 3048, 117388, 1955},
	{67857, 104.6, 419180, 2822, 2857, 118734, 1956},
	{68169, 108.4, 442769, 2936, 2798, 120445, 1957},
	{66513, 110.8, 444546, 4681, 2637, 121950, 1958},
	{68655, 112.6, 482704, 3813, 2552, 123366, 1959},
	{69564, 114.2, 502601, 3931, 2514, 125368, 1960},
	{69331, 115.7, 518173, 4806, 2572, 127852, 1961},
	{70551, 116.9, 554894, 4007, 2827, 130081, 1962},
};

/* NIST's certified values: intercept, then x1..x6. */
static const double longley_coef[7] = {
	-3482258.63459582, 15.0618722713733,  -0.358191792925910E-01,
	-2.02022980381683, -1.03322686717359, -0.511041056535807E-01,
	1829.15146461355,
};
static const double longley_se[7] = {
	890420.383607373,  84.9149257747669,  0.334910077722432E-01,
	0.488399681651699, 0.214274163161675, 0.226073200069370,
	455.478499142212,
};
#define LONGLEY_SIGMA 304.854073561965
#define LONGLEY_RSS   836424.055505915

static void assert_rel(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol * fabs(want)))
		fail_msg("%s: %.15g, expected %.15g (relative %.2g)", what, got,
			 want, fabs(got - want) / fabs(want));
}

static void test_longley(void **state)
{
	double x[16 * 7], y[16], resid[16];
	struct linfit f;
	struct err err = {""};
	size_t i, j;

	(void)state;
	for (i = 0; i < 16; i++) {
		y[i] = longley[i][0];
		x[i * 7] = 1;
		for (j = 1; j < 7; j++)
			x[i * 7 + j] = longley[i][j];
	}
	assert_int_equal(linfit_ols(x, y, 16, 7, &f, resid, &err), 0);
	assert_int_equal(f.df, 9);
	for (j = 0; j < 7; j++) {
		assert_rel(f.coef[j], longley_coef[j], 1e-8, "coefficient");
		assert_rel(linfit_se(&f, j), longley_se[j], 1e-8, "SE");
	}
	assert_rel(sqrt(f.sigma2), LONGLEY_SIGMA, 1e-9, "sigma");
	assert_rel(f.rss, LONGLEY_RSS, 1e-9, "RSS");
	/* The first certified residual (NIST's fitted values). */
	assert_rel(resid[0], 267.340029759711, 1e-6, "residual 0");
	assert_true(isnan(linfit_se(&f, 7)));
}

/*
 * A random problem: the residuals are orthogonal to every column
 * (X'e = 0) and xtx_inv is the inverse of X'X.
 */
static void test_identities(void **state)
{
	enum { N = 40, P = 5 };
	double x[N * P], y[N], e[N];
	struct linfit f;
	struct err err = {""};
	struct rng rng;
	size_t i, j, k;

	(void)state;
	rng_seed(&rng, 7, 0);
	for (i = 0; i < N; i++) {
		for (j = 0; j < P; j++)
			x[i * P + j] = j == 0 ? 1 : rng_unit_open(&rng) * j;
		y[i] = 3 - 2 * x[i * P + 1] + x[i * P + 4] +
		       (rng_unit_open(&rng) - 0.5);
	}
	assert_int_equal(linfit_ols(x, y, N, P, &f, e, &err), 0);
	for (j = 0; j < P; j++) {
		double dot = 0;

		for (i = 0; i < N; i++)
			dot += x[i * P + j] * e[i];
		assert_true(fabs(dot) < 1e-12);
	}
	for (j = 0; j < P; j++)
		for (k = 0; k < P; k++) {
			double s = 0;
			size_t m;

			for (m = 0; m < P; m++) {
				double xtx = 0;

				for (i = 0; i < N; i++)
					xtx += x[i * P + j] * x[i * P + m];
				s += xtx * f.xtx_inv[m][k];
			}
			assert_true(fabs(s - (j == k)) < 1e-10);
			assert_true(f.xtx_inv[j][k] == f.xtx_inv[k][j]);
		}
	/* The coefficients came out near the ones the data were made from. */
	assert_true(fabs(f.coef[1] + 2) < 0.5);
	assert_true(fabs(f.coef[4] - 1) < 0.2);
}

/* A straight line through points on it: exact, zero residuals. */
static void test_exact_line(void **state)
{
	double x[5 * 2], y[5];
	struct linfit f;
	struct err err = {""};
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		x[2 * i] = 1;
		x[2 * i + 1] = (double)i - 1.5;
		y[i] = 2.5 + 0.75 * x[2 * i + 1];
	}
	assert_int_equal(linfit_ols(x, y, 5, 2, &f, NULL, &err), 0);
	assert_true(fabs(f.coef[0] - 2.5) < 1e-15);
	assert_true(fabs(f.coef[1] - 0.75) < 1e-15);
	assert_true(f.rss < 1e-28);
	/* As many observations as columns: no residual degrees of freedom. */
	assert_int_equal(linfit_ols(x, y, 2, 2, &f, NULL, &err), 0);
	assert_int_equal(f.df, 0);
	assert_true(isnan(f.sigma2));
	assert_true(isnan(linfit_se(&f, 0)));
	assert_true(fabs(f.coef[1] - 0.75) < 1e-15);
}

/* Dependent columns: one zero, one a multiple of another. */
static void test_dependent(void **state)
{
	double x[6 * 3], y[6] = {1, 2, 3, 4, 5, 7};
	struct linfit f;
	struct err err = {""};
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++) {
		x[3 * i] = 1;
		x[3 * i + 1] = (double)i;
		x[3 * i + 2] = 2 - 0.1 * (double)i; /* 2 * col 0 - 0.1 col 1 */
	}
	assert_int_equal(linfit_ols(x, y, 6, 3, &f, NULL, &err), -EDOM);
	assert_non_null(strstr(err.msg, "column 2"));
	assert_int_equal(f.p, 0);
	for (i = 0; i < 6; i++)
		x[3 * i + 2] = 0;
	assert_int_equal(linfit_ols(x, y, 6, 3, &f, NULL, &err), -EDOM);
	/* Without the bad column it fits. */
	for (i = 0; i < 6; i++) {
		x[2 * i] = 1;
		x[2 * i + 1] = (double)i;
	}
	assert_int_equal(linfit_ols(x, y, 6, 2, &f, NULL, &err), 0);
}

static void test_refused(void **state)
{
	double x[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, y[10] = {0};
	struct linfit f;
	struct err err = {""};

	(void)state;
	assert_int_equal(linfit_ols(x, y, 3, 0, &f, NULL, &err), -EINVAL);
	assert_int_equal(
		linfit_ols(x, y, 1, LINFIT_COLS_MAX + 1, &f, NULL, &err),
		-EINVAL);
	assert_int_equal(linfit_ols(x, y, 1, 2, &f, NULL, &err), -EINVAL);
	x[3] = NAN;
	assert_int_equal(linfit_ols(x, y, 5, 1, &f, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "observation 3"));
	x[3] = 4;
	y[2] = INFINITY;
	assert_int_equal(linfit_ols(x, y, 5, 1, &f, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "observation 2 of y"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longley),
		cmocka_unit_test(test_identities),
		cmocka_unit_test(test_exact_line),
		cmocka_unit_test(test_dependent),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
