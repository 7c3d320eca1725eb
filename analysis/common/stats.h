/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - the small statistics `oltpmark compare` needs: mean, standard
 * deviation and coefficient of variation of a few runs, Welch's t-test
 * with Welch-Satterthwaite degrees of freedom, Student's t distribution
 * (CDF and quantile for non-integer df, through the regularized incomplete
 * beta function) and Holm's step-down correction.
 *
 * The sample sizes are a handful of runs, so every function is exact
 * rather than asymptotic, and none allocates. All are pure and
 * thread-safe except where lgamma() is not (glibc's sets signgam).
 */
#ifndef OLTPMARK_ANALYSIS_STATS_H
#define OLTPMARK_ANALYSIS_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Arithmetic mean of x[0..n-1]; NAN when n == 0. */
double stats_mean(const double *x, size_t n);

/* Sample standard deviation (divisor n - 1); NAN when n < 2. */
double stats_sd(const double *x, size_t n);

/*
 * Coefficient of variation sd / mean as a fraction (0.01 = 1 %); NAN when
 * n < 2 or the mean is 0.
 */
double stats_cov(const double *x, size_t n);

/*
 * Regularized incomplete beta function I_x(a, b) for a, b > 0 and
 * 0 <= x <= 1, by its continued fraction (modified Lentz), using the
 * symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges
 * slowly. NAN for arguments out of range.
 */
double stats_betai(double a, double b, double x);

/*
 * P(T <= t) for Student's t with df > 0 degrees of freedom (df may be
 * non-integer, and INFINITY for the normal distribution). NAN for
 * df <= 0 or a NAN argument.
 */
double stats_t_cdf(double t, double df);

/*
 * The p-quantile of Student's t with df degrees of freedom, 0 < p < 1,
 * df > 0 or INFINITY: the t with stats_t_cdf(t, df) == p, found by
 * bisection to full double precision. stats_t_quantile(0.975, 10) is
 * 2.228. NAN for arguments out of range.
 */
double stats_t_quantile(double p, double df);

/* Outcome of Welch's two-sample t-test (stats_welch). */
struct stats_welch {
	double diff;   /* mean(b) - mean(a) */
	double se;     /* sqrt(var(a)/na + var(b)/nb) */
	double df;     /* Welch-Satterthwaite degrees of freedom */
	double t;      /* diff / se; +-INFINITY when se is 0, 0 when both */
	double p;      /* two-sided p-value of diff != 0 */
	double t_crit; /* t(df, 0.975): the 95 % half-width is t_crit * se */
};

/*
 * Welch's t-test of mean(b) against mean(a) (compare passes logarithms).
 * Needs na >= 2 and nb >= 2, else returns -EINVAL and leaves out alone.
 * When both samples have zero variance the test is degenerate: df is then
 * na + nb - 2, se 0, and p is 1 for equal means and 0 otherwise, so an
 * interval of width 0 that excludes the null counts as significant.
 * Returns 0.
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *out);

/*
 * Holm's step-down correction of n p-values: p_adj[i] is the smallest
 * family-wise level at which hypothesis i is rejected, i.e. with the p
 * sorted ascending p(1) <= ... <= p(n), adj(k) = max over j <= k of
 * min(1, (n - j + 1) p(j)). NAN entries are ignored (their p_adj is NAN)
 * and do not count in n. p and p_adj may be the same array. Returns 0,
 * or -ENOMEM when n is too large for the work array on the heap.
 */
int stats_holm(const double *p, size_t n, double *p_adj);

#endif
