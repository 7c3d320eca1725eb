/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * score.h - the score table of `oltpmark compare`: for every label and
 * configuration, the ratio of the geometric mean of the metric (NOTPM)
 * to the baseline label's, times 100, with the 95 % confidence interval
 * of that ratio from Welch's t-test on the logarithms of the runs.
 *
 *   score = 100 * exp(mean(ln x_label) - mean(ln x_baseline))
 *   interval = 100 * exp(diff +- t(df, 0.975) * SE), SE and df by Welch
 *
 * A cell is significant when its interval excludes 100 (or, with Holm,
 * when its Holm-adjusted p-value is below 0.05; the family is every cell
 * that has an interval). With one run on either side there is no
 * interval. See docs/compare.md for the reasoning.
 *
 * Two more things decide a cell. Runs whose host took a different share
 * of the CPU (steal, summary.json "host") are adjusted for it: the cost
 * of one unit of steal share in ln(metric) is fitted within labels over
 * every scored run of the configuration, and each run's logarithm moved
 * to what it would have been at no steal, before the Welch test. And a
 * label whose runs are block runs (docs/blocks.md) is scored from its
 * blocks, arm B over arm A inside its own runs (blocks_estimate.h), not
 * against the baseline. Every score carries its resolution: the
 * smallest effect its experiment could have detected, and how long the
 * same design would need to resolve 1 %.
 */
#ifndef OLTPMARK_ANALYSIS_SCORE_H
#define OLTPMARK_ANALYSIS_SCORE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare/runset.h"
#include "src/base/err.h"

/* One label in one configuration. Numbers are NAN when unknown. */
struct score_cell {
	size_t n;	     /* scored runs */
	size_t n_excluded;   /* runs read but not scored (any reason) */
	double mean;	     /* arithmetic mean of the metric */
	double gmean;	     /* geometric mean of the metric */
	double sd;	     /* sample standard deviation, NAN when n < 2 */
	double cov;	     /* sd / mean as a fraction, NAN when n < 2 */
	bool has_score;	     /* n >= 1 here and in the baseline */
	double score;	     /* 100 * gmean / baseline gmean */
	bool has_ci;	     /* n >= 2 here and in the baseline, not baseline */
	double ci_lo;	     /* 95 % interval of the score, lower end */
	double ci_hi;	     /* 95 % interval of the score, upper end */
	double half_width;   /* the larger of score - ci_lo and ci_hi - score */
	double diff_log;     /* mean ln x - mean ln x_baseline */
	double se_log;	     /* Welch standard error of diff_log */
	double df;	     /* Welch-Satterthwaite degrees of freedom */
	double t;	     /* diff_log / se_log */
	double t_crit;	     /* t(df, 0.975) */
	double p;	     /* two-sided p-value, unadjusted */
	double p_holm;	     /* Holm-adjusted p-value (computed always) */
	bool significant;    /* the '*': by the interval, or Holm with --holm */
	bool blocks;	     /* scored from block runs: B over A inside them */
	size_t nblocks;	     /* blocks: blocks fitted */
	size_t groups;	     /* blocks: A B B A groups fitted */
	bool steal_adjusted; /* the steal term is in this score */
	double steal_coef;   /* its cost in ln(metric) per unit of steal
				share (NAN without it) */
	double steal_pct;    /* mean steal % of the cell's runs or blocks,
				NAN unknown */
	double var_removed;  /* share of the residual variance the steal
				term removed (NAN without it) */
	double noise_raw;    /* blocks: residual sd of one block's ln NOTPM
				without the steal term; NAN otherwise */
	double noise_adj;    /* blocks: the same with it (= noise_raw
				without it) */
	double half_width_iid; /* blocks: the half-width the interval would
				  have with independent residuals of sd
				  noise_adj (the residual-noise bound) */
	double mde_pct;	       /* smallest effect detectable at 95 %
				confidence with 80 % power, as a score
				difference in %; NAN without an interval */
	double resolve_runs;   /* whole runs: runs per label for an MDE of
				1 %; NAN for blocks or without an interval */
	double resolve_s;      /* seconds the same design needs for an MDE
				of 1 %: runs of both labels, or the block
				run's groups; NAN unknown, INFINITY beyond */
};

#define SCORE_RESOLVE 0.01 /* the effect every score's resolution names */

/* The whole table. Strings point into the runset it was computed from. */
struct score_table {
	const char **labels;	  /* sorted labels, one row each */
	size_t nlabels;		  /* rows */
	const char **configs;	  /* configurations, one column each */
	size_t nconfigs;	  /* columns */
	size_t baseline;	  /* row of the baseline label */
	bool holm;		  /* stars decided by Holm-adjusted p */
	size_t ncomparisons;	  /* cells with an interval (Holm's family) */
	size_t nblock_cells;	  /* cells scored from block runs */
	size_t nsteal_adjusted;	  /* cells with the steal term */
	struct score_cell *cells; /* [label * nconfigs + config] */
};

/*
 * Choose the baseline label. With wanted non-NULL it must be a label of
 * some run read, else -ENOENT and err names it and lists the labels.
 * Without, the label whose earliest run (meta.json start) started first
 * among labels with at least one scored run (if none has, among all),
 * ties and unknown start times broken by name; labels whose runs are
 * all block runs come last (they are scored against themselves). *baseline points into rs.
 * -ENOENT also when rs holds no runs.
 */
int score_pick_baseline(const struct runset *rs, const char *wanted,
			const char **baseline, struct err *err);

/*
 * Compute the table for rs against baseline (a label of rs). holm makes
 * stars follow Holm-adjusted p-values. t is overwritten; release it with
 * score_free(). 0, -ENOENT for an unknown baseline, or -ENOMEM.
 */
int score_compute(const struct runset *rs, const char *baseline, bool holm,
		  struct score_table *t, struct err *err);

/* The cell of row label, column config. */
const struct score_cell *score_cell(const struct score_table *t, size_t label,
				    size_t config);

/*
 * The label shown in row i (0 .. nlabels-1) of every table compare
 * writes: the baseline first, then the other labels in their sorted
 * order.
 */
size_t score_row_label(const struct score_table *t, size_t i);

/* Index of a label or configuration name in t, or -1. */
int score_label_index(const struct score_table *t, const char *label);
int score_config_index(const struct score_table *t, const char *config);

/* Release what score_compute() allocated and zero t. Safe when zeroed. */
void score_free(struct score_table *t);

#endif
