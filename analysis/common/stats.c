/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - descriptive statistics, Welch's t-test, Student's t
 * distribution and Holm's correction for `oltpmark compare` (stats.h).
 *
 * Student's t CDF is the regularized incomplete beta function:
 * P(|T| > t) = I_x(df/2, 1/2) with x = df / (df + t^2). I_x is evaluated
 * by its continued fraction (Numerical Recipes' betacf, modified Lentz);
 * the quantile inverts the CDF by bisection, which needs no starting
 * guess and converges for any df > 0, integer or not.
 */
#include "analysis/common/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* Continued fraction steps before giving up; df = 1e7 needs ~3000. */
#define STATS_CF_MAX_ITER 20000
/* Relative accuracy asked of the continued fraction. */
#define STATS_CF_EPS 1e-15
/* Keeps the Lentz denominators away from zero. */
#define STATS_CF_TINY 1e-300
/* Above this many degrees of freedom t is the normal distribution to
 * better than 1e-7 in the quantile; the fraction would be slow there. */
#define STATS_DF_NORMAL 1e7

double stats_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_sd(const double *x, size_t n)
{
	double mean, ss = 0;
	size_t i;

	if (n < 2)
		return NAN;
	mean = stats_mean(x, n);
	/* Two passes: the values are close together (runs of one label),
	 * where the one-pass formula loses every significant digit. */
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

double stats_cov(const double *x, size_t n)
{
	double mean = stats_mean(x, n);

	if (n < 2 || mean == 0)
		return NAN;
	return stats_sd(x, n) / fabs(mean);
}

/* The continued fraction of I_x(a, b), good for x < (a + 1)/(a + b + 2). */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d, h;
	int m;

	d = 1 - qab * x / qap;
	if (fabs(d) < STATS_CF_TINY)
		d = STATS_CF_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= STATS_CF_MAX_ITER; m++) {
		double m2 = 2.0 * m, aa, del;

		/* Even step. */
		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < STATS_CF_TINY)
			d = STATS_CF_TINY;
		c = 1 + aa / c;
		if (fabs(c) < STATS_CF_TINY)
			c = STATS_CF_TINY;
		d = 1 / d;
		h *= d * c;
		/* Odd step. */
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < STATS_CF_TINY)
			d = STATS_CF_TINY;
		c = 1 + aa / c;
		if (fabs(c) < STATS_CF_TINY)
			c = STATS_CF_TINY;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < STATS_CF_EPS)
			return h;
	}
	return h; /* not converged: the best value there is */
}

double stats_betai(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / (a B(a, b)), in logs to survive large a and b. */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0: the upper tail, accurate where the CDF is ~1. */
static double t_upper_tail(double t, double df)
{
	if (isinf(df) || df > STATS_DF_NORMAL)
		return 0.5 * erfc(t / M_SQRT2);
	if (isinf(t))
		return 0;
	return 0.5 * stats_betai(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || isnan(df) || !(df > 0))
		return NAN;
	if (t >= 0)
		return 1 - t_upper_tail(t, df);
	return t_upper_tail(-t, df);
}

double stats_t_quantile(double p, double df)
{
	double tail, lo = 0, hi = 1;
	int i;

	if (!(p > 0) || !(p < 1) || isnan(df) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	tail = 1 - p;
	/* Bracket: the tail falls as t grows; df = 0.1 needs t ~ 1e13. */
	while (t_upper_tail(hi, df) > tail) {
		lo = hi;
		hi *= 2;
		if (hi > 1e300)
			return INFINITY;
	}
	for (i = 0; i < 200; i++) {
		double mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			break; /* adjacent doubles: done */
		if (t_upper_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *out)
{
	double va, vb, qa, qb, se2;
	struct stats_welch w;

	if (na < 2 || nb < 2)
		return -EINVAL;
	va = stats_sd(a, na);
	vb = stats_sd(b, nb);
	va *= va;
	vb *= vb;
	qa = va / (double)na;
	qb = vb / (double)nb;
	se2 = qa + qb;
	w.diff = stats_mean(b, nb) - stats_mean(a, na);
	w.se = sqrt(se2);
	if (se2 > 0) {
		/* Welch-Satterthwaite; a zero-variance side adds nothing. */
		double den = 0;

		if (qa > 0)
			den += qa * qa / (double)(na - 1);
		if (qb > 0)
			den += qb * qb / (double)(nb - 1);
		w.df = se2 * se2 / den;
		w.t = w.diff / w.se;
		w.p = 2 * t_upper_tail(fabs(w.t), w.df);
		if (w.p > 1)
			w.p = 1;
	} else {
		w.df = (double)(na + nb - 2);
		w.t = w.diff == 0 ? 0 : copysign(INFINITY, w.diff);
		w.p = w.diff == 0 ? 1 : 0;
	}
	w.t_crit = stats_t_quantile(0.975, w.df);
	*out = w;
	return 0;
}

/* Sort order for stats_holm: by p, then by index so ties are stable. */
struct holm_item {
	double p;     /* the raw p-value */
	size_t index; /* where it came from */
};

static int holm_cmp(const void *x, const void *y)
{
	const struct holm_item *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

int stats_holm(const double *p, size_t n, double *p_adj)
{
	struct holm_item *items;
	size_t i, m = 0;
	double running = 0;

	if (n == 0)
		return 0;
	items = calloc(n, sizeof(*items));
	if (!items)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			items[m++] = (struct holm_item){p[i], i};
	qsort(items, m, sizeof(*items), holm_cmp);
	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			p_adj[i] = NAN;
	for (i = 0; i < m; i++) {
		double adj = (double)(m - i) * items[i].p;

		if (adj > 1)
			adj = 1;
		/* Step-down: never below an earlier (smaller) p's level. */
		if (adj > running)
			running = adj;
		p_adj[items[i].index] = running;
	}
	free(items);
	return 0;
}
