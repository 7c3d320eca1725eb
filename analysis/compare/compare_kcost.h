/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_kcost.h - the kernel-cost hook's figures per transaction type
 * in `oltpmark compare`: for each configuration, label and type, the
 * mean over the label's scored runs of each figure per committed
 * transaction (summary.json "kernel_cost", analysis/parsers/kcost.h),
 * and for a label other than the baseline its change against the
 * baseline's, as the scores are: 100 * (exp(mean ln b - mean ln a) - 1)
 * with Welch's 95 % interval on the logarithms of the runs, significant
 * (a '*') when the interval excludes 0. A figure that is 0 in some run
 * (major faults, bytes read when cached) has its change from the means,
 * without an interval. Block runs are left out (their figures cover both
 * arms). And per label a line naming what changed most.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_KCOST_H
#define OLTPMARK_ANALYSIS_COMPARE_KCOST_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "analysis/parsers/kcost.h"
#include "src/base/err.h"

struct cdoc;
struct cout_input;

/* One figure of one row. */
struct ckc_fig {
	double mean;	  /* over the runs that have it, NAN none */
	size_t n;	  /* those runs */
	bool has_change;  /* a change against the baseline is known */
	double change;	  /* %, b against the baseline */
	bool has_ci;	  /* the interval is known */
	double lo, hi;	  /* its 95 % interval, % */
	bool significant; /* the interval excludes 0 */
};

/* One type of one label in one configuration. */
struct ckc_row {
	const char *label;		  /* points into the runset */
	const char *config;		  /* points into the runset */
	int type;			  /* TXN_* */
	bool baseline;			  /* the baseline label's row */
	size_t runs;			  /* runs with the hook's figures */
	struct ckc_fig fig[KCOST_FIG_NR]; /* by enum kcost_figure */
};

/* Every label's rows. compare_kcost_free() releases it. */
struct ckcost {
	struct ckc_row *rows; /* by config, label (table order), type */
	size_t n;	      /* rows */
};

/*
 * Read summary.json "kernel_cost" of the scored runs of rs into out,
 * shaped like t. 0 or -ENOMEM; out is overwritten, free it with
 * compare_kcost_free() either way. Labels without the figures have no
 * rows.
 */
int compare_kcost_build(struct ckcost *out, const struct runset *rs,
			const struct score_table *t, struct err *err);

/*
 * The "what changed most" line of label in config into buf ("" when the
 * label is the baseline or has no changes): the type and figure with the
 * largest significant change, then the next two of that label, e.g.
 * "new_order: system CPU ms +18.0 % (+-4.0), involuntary switches
 * +40.0 %". Changes without an interval are used only when no change is
 * significant, and then said so.
 */
void compare_kcost_most(const struct ckcost *k, const char *label,
			const char *config, char *buf, size_t size);

/* The "Kernel cost per transaction type" section, if any rows. */
void compare_kcost_content(struct cdoc *d, const struct cout_input *in);

/* compare.json's "kernel_cost": one object per row. *oom on failure. */
json_t *compare_kcost_json(const struct cout_input *in, bool *oom);

/* Release the rows and zero k. Safe on a zeroed struct. */
void compare_kcost_free(struct ckcost *k);

#endif
