/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_kcost_plots.h - the kernel-cost section's plots in `oltpmark
 * compare`: for each configuration and transaction type, one plot of
 * every label's change against the baseline for each figure per
 * committed transaction (compare_kcost.h), a point with its 95 %
 * interval as an error bar (a point alone when the change has no
 * interval), one colour per label, a line at 0. Drawn into the
 * compare-plots directory as CONFIG-kcost-TYPE.{gp,dat,png,svg}; listed
 * in the same struct cplots as the vmstat plots, with their type set.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_KCOST_PLOTS_H
#define OLTPMARK_ANALYSIS_COMPARE_KCOST_PLOTS_H

#include <stddef.h>

#include "analysis/common/gnuplot.h"
#include "analysis/compare/compare_kcost.h"
#include "analysis/compare/compare_plots.h"
#include "analysis/compare/score.h"
#include "src/base/err.h"

/*
 * The plots of configuration c of t (file names starting with stem) into
 * dir: their data and scripts written, each added to p and to batch (the
 * caller draws the batch and drops from p what was not drawn). A type
 * without a change of any label against the baseline has no plot. 0;
 * -ENOMEM, or the negative errno of a file that could not be written
 * (err names it).
 */
int compare_kcost_plots(const char *dir, const struct score_table *t,
			const struct ckcost *k, size_t c, const char *stem,
			struct cplots *p, struct gnuplot_batch *batch,
			struct err *err);

#endif
