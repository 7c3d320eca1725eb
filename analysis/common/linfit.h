/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linfit.h - ordinary least squares for a handful of columns, by a
 * Householder QR decomposition: the coefficients, their unscaled
 * covariance (X'X)^-1 for standard errors of any kind, the residuals.
 *
 * The block estimator (analysis/compare/blocks_estimate.h) fits two or
 * three columns after removing its group means; a general linear
 * algebra library would be far more than that needs (docs/blocks.md,
 * "Why our own solver"). QR rather than the normal equations because it
 * does not square the condition number: a steal share near constant
 * would otherwise lose half the digits. Pure; thread-safe; the fit
 * allocates a copy of x and frees it before returning.
 */
#ifndef OLTPMARK_ANALYSIS_LINFIT_H
#define OLTPMARK_ANALYSIS_LINFIT_H

#include <stddef.h>

#include "src/base/err.h"

#define LINFIT_COLS_MAX 8 /* columns a fit may have */

/* Outcome of linfit_ols(). */
struct linfit {
	size_t n;		      /* observations */
	size_t p;		      /* columns */
	double coef[LINFIT_COLS_MAX]; /* least-squares coefficients */
	double xtx_inv[LINFIT_COLS_MAX][LINFIT_COLS_MAX]; /* (X'X)^-1 */
	double rss;    /* residual sum of squares */
	size_t df;     /* n - p */
	double sigma2; /* rss / df; NAN when df == 0 */
};

/*
 * Least squares of y (n values) on the p columns of x, stored by rows
 * (x[i * p + j] is observation i, column j); no intercept is added, put
 * a column of ones in x for one. resid, when not NULL, gets the n
 * residuals y - X coef. Returns 0; -EINVAL when p is 0 or more than
 * LINFIT_COLS_MAX, n < p, or a value is not finite; -EDOM when a column
 * is (numerically) a linear combination of the columns before it, err
 * naming the column; -ENOMEM. *out is zeroed on failure.
 */
int linfit_ols(const double *x, const double *y, size_t n, size_t p,
	       struct linfit *out, double *resid, struct err *err);

/*
 * Classical standard error of coefficient j: sqrt(sigma2 * xtx_inv[j][j]).
 * NAN when df == 0 or j >= p.
 */
double linfit_se(const struct linfit *f, size_t j);

#endif
