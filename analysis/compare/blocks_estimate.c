/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_estimate.c - the block run's model (see blocks_estimate.h).
 *
 * The group intercepts are removed by subtracting each group's means
 * (the "within" transformation: by the Frisch-Waugh-Lovell theorem the
 * arm and steal coefficients and the residuals are those of the full
 * regression with one dummy per group), so the least squares have one
 * or two columns however long the run. The variance of b is then
 *
 *   V = G / (G - p) * sum over groups g of u_g^2,
 *   u_g = sum over blocks i of g of a_i e_i,
 *
 * a_i being the weight of block i in b (row of (X'X)^-1 X') and e_i its
 * residual: the cluster-robust ("sandwich") variance with the groups as
 * clusters, referred to Student's t with G - p degrees of freedom. With
 * the arm alone and complete groups it is exactly the one-sample t-test
 * of the G within-group differences mean(B) - mean(A).
 */
#include "analysis/compare/blocks_estimate.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/common/linfit.h"
#include "analysis/common/stats.h"

#define POWER_QUANTILE 0.80  /* 80 % power */
#define CONF_QUANTILE  0.975 /* two-sided 95 % */
#define GROUPS_MAX     1e9   /* beyond this "needs" means "never" */

/* One block as the fit sees it, sorted by block number. */
struct row {
	size_t block; /* block number */
	size_t group; /* block / 4 */
	double y;     /* ln NOTPM */
	double arm;   /* 1 for B, 0 for A */
	double steal; /* share */
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->block < y->block ? -1 : x->block > y->block;
}

double blocks_estimate_mde(double se, double df)
{
	if (!(df > 0) || !(se >= 0))
		return NAN;
	return (stats_t_quantile(CONF_QUANTILE, df) +
		stats_t_quantile(POWER_QUANTILE, df)) *
	       se;
}

double blocks_estimate_groups_needed(double sigma_group, double target,
				     size_t params)
{
	double lo, hi;

	if (!(sigma_group >= 0) || !isfinite(sigma_group) || !(target > 0))
		return NAN;
	lo = (double)params; /* too few: no degree of freedom */
	hi = (double)params + 1;
	while (blocks_estimate_mde(sigma_group / sqrt(hi),
				   hi - (double)params) > target) {
		lo = hi;
		hi *= 2;
		if (hi > GROUPS_MAX)
			return INFINITY;
	}
	/* The MDE falls as groups are added: the smallest integer that
	   meets the target is in (lo, hi]. */
	while (hi - lo > 1) {
		double mid = floor(lo + (hi - lo) / 2);

		if (blocks_estimate_mde(sigma_group / sqrt(mid),
					mid - (double)params) > target)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/*
 * Least squares of the demeaned y on the first p of the demeaned columns
 * (arm, steal) of rows [0, n): x gets the design, e the residuals.
 */
static int fit(const struct row *r, size_t n, size_t p, double *x, double *e,
	       struct linfit *f, struct err *err)
{
	double *y = e + n;
	size_t i;

	for (i = 0; i < n; i++) {
		x[i * p] = r[i].arm;
		if (p > 1)
			x[i * p + 1] = r[i].steal;
		y[i] = r[i].y;
	}
	return linfit_ols(x, y, n, p, f, e, err);
}

/*
 * Cluster-robust variance of coefficient j of f: groups of the rows
 * are consecutive (rows are sorted by block).
 */
static double cluster_var(const struct row *r, size_t n, const double *x,
			  const double *e, const struct linfit *f, size_t j,
			  size_t groups)
{
	double sum = 0, u = 0;
	size_t i, k;

	for (i = 0; i < n; i++) {
		double a = 0;

		for (k = 0; k < f->p; k++)
			a += f->xtx_inv[j][k] * x[i * f->p + k];
		u += a * e[i];
		if (i + 1 == n || r[i + 1].group != r[i].group) {
			sum += u * u;
			u = 0;
		}
	}
	return (double)groups / (double)(groups - f->p) * sum;
}

/* Subtract the means of rows [i, end) whose arm is arm (-1: all). */
static void demean_rows(struct row *r, size_t i, size_t end, double arm)
{
	double my = 0, ma = 0, ms = 0, m = 0;
	size_t j;

	for (j = i; j < end; j++)
		if (arm < 0 || r[j].arm == arm) {
			my += r[j].y;
			ma += r[j].arm;
			ms += r[j].steal;
			m++;
		}
	for (j = i; j < end; j++)
		if (arm < 0 || r[j].arm == arm) {
			r[j].y -= my / m;
			r[j].arm -= ma / m;
			r[j].steal -= ms / m;
		}
}

/* How the blocks kept fall into groups. */
struct layout {
	size_t kept;	   /* rows kept */
	size_t groups;	   /* groups with a row kept */
	size_t complete;   /* of those, with all four blocks */
	size_t intercepts; /* means subtracted: one per complete group, one
			      per arm of the others */
};

/*
 * The intercepts. A complete group gets one: its means are subtracted
 * from y, arm and steal. A group that lacks a block is not symmetric in
 * time any more (A B B without its last A compares B with an earlier A),
 * so a drift would pass for an effect: each of its arms gets an
 * intercept of its own, which leaves it nothing to say about b, only
 * its share of the steal term. A block alone under its intercept says
 * nothing at all and is dropped. Rows are sorted by block; the kept ones
 * are moved to the front. Returns 0, or -EINVAL for a block given twice.
 */
static int arrange(struct row *r, size_t n, struct layout *lay, struct err *err)
{
	size_t i = 0, k;

	memset(lay, 0, sizeof(*lay));
	while (i < n) {
		size_t end = i, count[2] = {0, 0}, first = lay->kept;
		bool complete;

		while (end < n && r[end].group == r[i].group)
			end++;
		for (k = i; k < end; k++) {
			if (k + 1 < end && r[k].block == r[k + 1].block)
				return err_set(err, -EINVAL,
					       "blocks: block %zu given twice",
					       r[k].block);
			count[r[k].arm == 1]++;
		}
		complete = end - i == BLOCKS_GROUP;
		for (k = i; k < end; k++)
			if (complete || count[r[k].arm == 1] >= 2)
				r[lay->kept++] = r[k];
		if (lay->kept == first) {
			i = end;
			continue;
		}
		lay->groups++;
		if (complete) {
			demean_rows(r, first, lay->kept, -1);
			lay->complete++;
			lay->intercepts++;
		} else {
			demean_rows(r, first, lay->kept, 0);
			demean_rows(r, first, lay->kept, 1);
			lay->intercepts += (count[0] >= 2) + (count[1] >= 2);
		}
		i = end;
	}
	return 0;
}

int blocks_estimate_fit(const struct blocks_estimate_obs *obs, size_t n,
			const struct blocks_estimate_opts *opts,
			struct blocks_estimate_result *out, struct err *err)
{
	struct linfit f0, f1, *f;
	struct row *r;
	double *x, *e, v, sigma_group;
	struct layout lay;
	size_t i, m, groups;
	bool steal_known = opts->steal_term;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!(opts->resolve > 0 && opts->resolve < 1))
		return err_set(err, -EINVAL,
			       "blocks: effect to resolve %g is not a fraction "
			       "between 0 and 1",
			       opts->resolve);
	for (i = 0; i < n; i++) {
		if (!(obs[i].notpm > 0) || !isfinite(obs[i].notpm))
			return err_set(err, -EINVAL,
				       "blocks: block %zu: NOTPM %g is not a "
				       "positive number",
				       obs[i].block, obs[i].notpm);
		if ((unsigned int)obs[i].arm >= BLOCKS_ARM_NR)
			return err_set(err, -EINVAL,
				       "blocks: block %zu: arm %d is neither "
				       "A nor B",
				       obs[i].block, (int)obs[i].arm);
		if (isnan(obs[i].steal))
			steal_known = false;
		else if (!(obs[i].steal >= 0 && obs[i].steal <= 1))
			return err_set(err, -EINVAL,
				       "blocks: block %zu: steal share %g is "
				       "not between 0 and 1",
				       obs[i].block, obs[i].steal);
	}
	r = malloc((n ? n : 1) * sizeof(*r));
	/* x: n rows of up to 2 columns; e: residuals, then y (fit()). */
	x = malloc((n ? n : 1) * 4 * sizeof(*x));
	if (!r || !x) {
		free(r);
		free(x);
		return err_set(err, -ENOMEM, "blocks: out of memory");
	}
	e = x + 2 * n;
	for (i = 0; i < n; i++) {
		r[i].block = obs[i].block;
		r[i].group = blocks_schedule_group(obs[i].block);
		r[i].y = log(obs[i].notpm);
		r[i].arm = obs[i].arm == BLOCKS_ARM_B;
		r[i].steal = steal_known ? obs[i].steal : 0;
	}
	qsort(r, n, sizeof(*r), cmp_row);
	rc = arrange(r, n, &lay, err);
	if (rc < 0)
		goto out;
	m = lay.kept;
	groups = lay.groups;
	out->n = m;
	out->groups = groups;
	out->complete_groups = lay.complete;
	out->n_dropped = n - m;
	if (lay.complete == 0) {
		rc = err_set(err, -ENODATA,
			     "blocks: no A B B A group has all its four "
			     "blocks");
		goto out;
	}
	if (groups < 2) {
		rc = err_set(err, -ENODATA,
			     "blocks: %zu A B B A group(s) with blocks to "
			     "compare; at least 2 are needed",
			     groups);
		goto out;
	}
	rc = fit(r, m, 1, x, e, &f0, err);
	if (rc < 0)
		goto out;
	out->var_raw = m > lay.intercepts + 1
			       ? f0.rss / (double)(m - lay.intercepts - 1)
			       : NAN;
	f = &f0;
	if (steal_known && groups > 2) {
		rc = fit(r, m, 2, x, e, &f1, err);
		if (rc == 0)
			f = &f1;
		else if (rc != -EDOM)
			goto out;
		err_clear(err);
	}
	if (f == &f0) /* x and e hold the last fit: redo the one we keep */
		rc = fit(r, m, 1, x, e, &f0, err);
	if (rc < 0)
		goto out;
	out->params = f->p;
	out->steal_used = f->p == 2;
	out->df = (double)(groups - f->p);
	out->effect_log = f->coef[0];
	v = cluster_var(r, m, x, e, f, 0, groups);
	out->se_log = sqrt(v);
	out->t_crit = stats_t_quantile(CONF_QUANTILE, out->df);
	if (out->se_log > 0) {
		out->t = out->effect_log / out->se_log;
		out->p = 2 * (1 - stats_t_cdf(fabs(out->t), out->df));
	} else {
		/* No spread at all: significant unless there is no effect. */
		out->t = out->effect_log == 0
				 ? 0
				 : copysign(INFINITY, out->effect_log);
		out->p = out->effect_log == 0 ? 1 : 0;
	}
	out->score = 100 * exp(out->effect_log);
	out->ci_lo = 100 * exp(out->effect_log - out->t_crit * out->se_log);
	out->ci_hi = 100 * exp(out->effect_log + out->t_crit * out->se_log);
	out->significant = out->ci_lo > 100 || out->ci_hi < 100;
	if (out->steal_used) {
		out->steal_coef = f->coef[1];
		out->steal_se = sqrt(cluster_var(r, m, x, e, f, 1, groups));
		out->var_adj =
			m > lay.intercepts + 2
				? f->rss / (double)(m - lay.intercepts - 2)
				: NAN;
		out->var_removed = 1 - out->var_adj / out->var_raw;
	} else {
		out->steal_coef = NAN;
		out->steal_se = NAN;
		out->var_adj = out->var_raw;
		out->var_removed = 0;
	}
	out->se_iid_log = isfinite(out->var_adj) && out->var_adj >= 0
				  ? sqrt(out->var_adj * f->xtx_inv[0][0])
				  : NAN;
	out->mde_log = blocks_estimate_mde(out->se_log, out->df);
	out->mde_pct = 100 * (exp(out->mde_log) - 1);
	sigma_group = out->se_log * sqrt((double)groups);
	out->resolve_groups = blocks_estimate_groups_needed(
		sigma_group, log1p(opts->resolve), f->p);
	out->resolve_s = out->resolve_groups * BLOCKS_GROUP * opts->block_s;
	rc = 0;
out:
	free(r);
	free(x);
	return rc;
}
