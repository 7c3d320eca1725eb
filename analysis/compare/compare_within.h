/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_within.h - `oltpmark compare --within PCT`: whether the block
 * scores of one configuration are resolved to +-PCT yet. The runner's
 * --resolve repeats a configuration's block runs until they are
 * (docs/blocks.md, "Repeating until the interval is narrow enough"); it
 * asks this instead of reading compare's CSV, so the answer comes from
 * the very numbers of the score table (half_width of struct score_cell,
 * unrounded).
 *
 * The scores looked at are the cells of the configuration for the
 * labels asked, among cells scored from block runs only. The answer is
 * the widest half-width among them, reached when every one is <= PCT,
 * or none when there is no such cell yet or one has no interval yet.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_WITHIN_H
#define OLTPMARK_ANALYSIS_COMPARE_WITHIN_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare/score.h"

/* The answer. */
enum cwithin_verdict {
	CWITHIN_REACHED, /* every selected half-width <= the target */
	CWITHIN_SHORT,	 /* some selected half-width > the target */
	CWITHIN_NONE,	 /* no selected score yet, or one has no interval */
	CWITHIN_NR
};

/* What compare_within_check() found. */
struct cwithin {
	enum cwithin_verdict verdict; /* the answer */
	double widest;		      /* widest half-width in % points
				         (REACHED, SHORT; NAN for NONE) */
	size_t cells;		      /* block scores selected */
	char why[512];		      /* NONE: why, e.g. "no block score of
				         CONFIG yet" or "no interval yet for
				         LABEL..." (labels in row order) */
};

/*
 * Look at the cells of configuration config for the nlabels labels of
 * t (labels not in t select nothing) that were scored from block runs,
 * and compare their widest half-width with target_pct. Fills *out;
 * never fails.
 */
void compare_within_check(const struct score_table *t, const char *config,
			  const char *const *labels, size_t nlabels,
			  double target_pct, struct cwithin *out);

/*
 * Write the one line of the answer to f: "WIDTH reached" or "WIDTH
 * short" (WIDTH with 2 decimals), or "none WHY".
 */
void compare_within_write(FILE *f, const struct cwithin *w);

#endif
