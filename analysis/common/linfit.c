/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linfit.c - least squares by Householder QR (see linfit.h). X = QR with
 * Q orthogonal and R upper triangular p x p; then R coef = (Q'y)[0..p-1]
 * by back substitution, and (X'X)^-1 = R^-1 R^-T. Householder
 * reflections (Golub and Van Loan, Matrix Computations, 5.1 and 5.3) are
 * backward stable; the columns are few, so no pivoting or blocking.
 */
#include "analysis/common/linfit.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * A column whose part orthogonal to the columns before it is below this
 * fraction of its own length is taken as dependent on them: about 2^-33,
 * half the digits of a double, the usual threshold below which the
 * coefficients mean nothing.
 */
#define LINFIT_RANK_TOL 1e-10

int linfit_ols(const double *x, const double *y, size_t n, size_t p,
	       struct linfit *out, double *resid, struct err *err)
{
	double r_inv[LINFIT_COLS_MAX][LINFIT_COLS_MAX] = {{0}};
	double *a, *qty;
	size_t i, j, k;

	memset(out, 0, sizeof(*out));
	if (p == 0 || p > LINFIT_COLS_MAX || n < p)
		return err_set(err, -EINVAL,
			       "least squares: %zu observations of %zu "
			       "columns (at most %d, and no more columns than "
			       "observations)",
			       n, p, LINFIT_COLS_MAX);
	for (i = 0; i < n * p; i++)
		if (!isfinite(x[i]))
			return err_set(err, -EINVAL,
				       "least squares: observation %zu, column "
				       "%zu is not a finite number",
				       i / p, i % p);
	for (i = 0; i < n; i++)
		if (!isfinite(y[i]))
			return err_set(err, -EINVAL,
				       "least squares: observation %zu of y is "
				       "not a finite number",
				       i);
	/* a: the columns of X one after the other; qty: y, then Q'y. */
	a = malloc((n * p + n) * sizeof(*a));
	if (!a)
		return err_set(err, -ENOMEM, "least squares: out of memory");
	qty = a + n * p;
	for (j = 0; j < p; j++)
		for (i = 0; i < n; i++)
			a[j * n + i] = x[i * p + j];
	memcpy(qty, y, n * sizeof(*qty));

	for (k = 0; k < p; k++) {
		double *col = a + k * n, norm_full = 0, norm = 0, alpha, vtv;

		for (i = 0; i < n; i++)
			norm_full += x[i * p + k] * x[i * p + k];
		for (i = k; i < n; i++)
			norm += col[i] * col[i];
		norm_full = sqrt(norm_full);
		norm = sqrt(norm);
		if (norm_full == 0 || norm <= LINFIT_RANK_TOL * norm_full) {
			free(a);
			return err_set(err, -EDOM,
				       "least squares: column %zu is a linear "
				       "combination of the columns before it",
				       k);
		}
		/* Reflect col[k..n-1] onto -sign(col[k]) * norm * e_k; the
		   sign avoids cancellation in v = col - alpha e_k. */
		alpha = col[k] > 0 ? -norm : norm;
		col[k] -= alpha;
		vtv = 0;
		for (i = k; i < n; i++)
			vtv += col[i] * col[i];
		for (j = k + 1; j <= p; j++) {
			double *c = j < p ? a + j * n : qty, dot = 0;

			for (i = k; i < n; i++)
				dot += col[i] * c[i];
			dot = 2 * dot / vtv;
			for (i = k; i < n; i++)
				c[i] -= dot * col[i];
		}
		/* R[k][k] is alpha; R[k][j] for j > k sit in a[j * n + k]. */
		col[k] = alpha;
	}

	/* Back substitution R coef = (Q'y)[0..p-1]; R is a[j * n + i]. */
	for (k = p; k-- > 0;) {
		double s = qty[k];

		for (j = k + 1; j < p; j++)
			s -= a[j * n + k] * out->coef[j];
		out->coef[k] = s / a[k * n + k];
	}
	/* R^-1, upper triangular, column by column. */
	for (j = 0; j < p; j++) {
		r_inv[j][j] = 1 / a[j * n + j];
		for (k = j; k-- > 0;) {
			double s = 0;

			for (i = k + 1; i <= j; i++)
				s += a[i * n + k] * r_inv[i][j];
			r_inv[k][j] = -s / a[k * n + k];
		}
	}
	free(a);
	for (j = 0; j < p; j++)
		for (k = 0; k < p; k++) {
			double s = 0;

			for (i = j > k ? j : k; i < p; i++)
				s += r_inv[j][i] * r_inv[k][i];
			out->xtx_inv[j][k] = s;
		}
	/* Residuals from y and X themselves rather than from Q'y: no
	   rounding of the reflections in them. */
	for (i = 0; i < n; i++) {
		double e = y[i];

		for (j = 0; j < p; j++)
			e -= x[i * p + j] * out->coef[j];
		out->rss += e * e;
		if (resid)
			resid[i] = e;
	}
	out->n = n;
	out->p = p;
	out->df = n - p;
	out->sigma2 = out->df ? out->rss / (double)out->df : NAN;
	return 0;
}

double linfit_se(const struct linfit *f, size_t j)
{
	if (j >= f->p || f->df == 0)
		return NAN;
	return sqrt(f->sigma2 * f->xtx_inv[j][j]);
}
