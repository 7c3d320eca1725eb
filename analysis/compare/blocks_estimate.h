/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_estimate.h - the effect of a setting from one block run: the
 * log NOTPM of each block, arm A or B in the order A B B A A B B A ...,
 * fitted by least squares as
 *
 *   ln NOTPM = group intercept + b * [arm is B] + c * steal share + e
 *
 * where each A B B A group has an intercept of its own (it follows any
 * drift, smooth or not, that is slow next to a group) and the steal
 * share is the part of the CPU time the host took in the block. The
 * effect is the score 100 * exp(b) with a 95 % interval from a variance
 * that treats the groups as the independent units (cluster-robust), so
 * noise correlated between neighbouring blocks is allowed for; the
 * reasons, and the simulations behind them, are in docs/blocks.md.
 *
 * Beside the score: how much of the variance the steal term removed,
 * the smallest effect this run could have detected (95 % confidence,
 * 80 % power) and how long the same design would need to resolve a
 * given effect. Pure functions; the fit allocates and frees its work
 * arrays; thread-safe except where lgamma() is not (stats.h).
 */
#ifndef OLTPMARK_ANALYSIS_BLOCKS_ESTIMATE_H
#define OLTPMARK_ANALYSIS_BLOCKS_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/parsers/blocks_schedule.h"
#include "src/base/err.h"

/* One measured block. */
struct blocks_estimate_obs {
	size_t block;	     /* block number; its group is block / 4 */
	enum blocks_arm arm; /* the arm in force (blocks_schedule_arm()) */
	double notpm;	     /* New-Orders per minute in its window, > 0 */
	double steal;	     /* steal share of its window, 0..1; NAN when
				unknown (then no steal term is fitted) */
};

/* What to fit and report. */
struct blocks_estimate_opts {
	bool steal_term; /* fit c * steal when every block has its share */
	double block_s;	 /* seconds one block takes, switch and settle
			    included, for resolve_s; NAN to skip it */
	double resolve;	 /* effect to resolve, as a fraction (0.01 = 1 %) */
};

/* The fit. Numbers that cannot be computed are NAN. */
struct blocks_estimate_result {
	size_t n;		/* blocks fitted */
	size_t groups;		/* A B B A groups with blocks fitted */
	size_t complete_groups; /* of those, with all four blocks: only
				   these inform b, the others the steal
				   term alone */
	size_t n_dropped;	/* blocks given but not fitted: alone under
				   their intercept, nothing to compare them
				   with */
	size_t params;		/* coefficients besides the intercepts: 1, 2 */
	bool steal_used;	/* the steal term is in the model */
	double effect_log;	/* b: ln(NOTPM of B / NOTPM of A) */
	double se_log;		/* its cluster-robust standard error */
	double se_iid_log;	/* the standard error b would have if the
				   blocks' residuals were independent with
				   variance var_adj: the bound the run's own
				   residual noise sets, which se_log exceeds
				   by what the noise's correlation and the
				   groups cost */
	double df;		/* groups - params */
	double t_crit;		/* t(df, 0.975) */
	double t;		/* effect_log / se_log */
	double p;		/* two-sided p-value of b != 0 */
	double score;		/* 100 * exp(b) */
	double ci_lo;		/* 100 * exp(b - t_crit * se_log) */
	double ci_hi;		/* 100 * exp(b + t_crit * se_log) */
	bool significant;	/* the interval excludes 100: the '*' */
	double steal_coef;	/* c: change in ln NOTPM per unit of steal
				   share (-1.5: 1 point of steal costs
				   about 1.5 % of NOTPM); NAN without it */
	double steal_se;	/* its cluster-robust standard error */
	double var_raw;		/* residual variance without the steal term */
	double var_adj;		/* with it; var_raw without it */
	double var_removed;	/* 1 - var_adj / var_raw: the share the steal
				   term removed (0 without it; negative
				   when it explains less than the degree
				   of freedom it costs) */
	double mde_log;		/* smallest detectable b: (t(df, 0.975) +
				   t(df, 0.80)) * se_log */
	double mde_pct;		/* the same as a score difference, in %:
				   100 * (exp(mde_log) - 1) */
	double resolve_groups;	/* groups for an MDE of opts->resolve */
	double resolve_s;	/* resolve_groups * 4 * opts->block_s */
};

/*
 * Fit the n blocks of obs (any order) and fill *out. A group that lacks
 * a block informs the steal term only: its arm difference is not
 * balanced against a drift, so each of its arms gets an intercept; a
 * block alone under its intercept is left out. Returns 0; -EINVAL for
 * a NOTPM that is not a positive number, a steal share outside 0..1, an
 * arm out of range, a block given twice or opts->resolve not in (0, 1); -ENODATA when no group has all four
 * blocks or fewer than 2 groups have blocks to fit; -ENOMEM.
 * The steal term is dropped (steal_used false) when a share is NAN, when
 * the shares do not vary within groups, or when it would leave no
 * degree of freedom.
 */
int blocks_estimate_fit(const struct blocks_estimate_obs *obs, size_t n,
			const struct blocks_estimate_opts *opts,
			struct blocks_estimate_result *out, struct err *err);

/*
 * The smallest effect (log scale) a design whose estimate has standard
 * error se and df degrees of freedom detects with 80 % power in a
 * two-sided test at 5 %: (t(df, 0.975) + t(df, 0.80)) * se. NAN for
 * df <= 0.
 */
double blocks_estimate_mde(double se, double df);

/*
 * The number of groups the same design needs to detect an effect of
 * target (log scale, > 0) with 80 % power at 5 %, when one group alone
 * gives a standard error of sigma_group (the se of a run of G groups is
 * sigma_group / sqrt(G)) and params coefficients are fitted: the
 * smallest G > params with blocks_estimate_mde(sigma_group / sqrt(G),
 * G - params) <= target. INFINITY when that is beyond 1e9 groups, NAN
 * for arguments out of range.
 */
double blocks_estimate_groups_needed(double sigma_group, double target,
				     size_t params);

#endif
