/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_plots.h - the side-by-side evidence plots of `oltpmark compare`:
 * for each configuration and each of vmstat r, in, cs, us+sy, wa, bi and
 * bo one plot with a curve per label, drawn from that label's
 * representative run (the median run by the scored metric), x in seconds
 * since the run's start. As the OSDL kernel reports had them: the same
 * quantity for every kernel on one picture. And, from the kernel-cost
 * hook's figures, one plot per configuration and transaction type of
 * each label's change against the baseline with its interval
 * (compare_kcost_plots.h).
 *
 * Plots go to OUT/compare-plots/ as NAME.png and NAME.svg beside their
 * NAME.gp script and data (analysis/common/gnuplot.h draws them). Nothing here
 * is fatal: no gnuplot, no vmstat, or a failing plot is a note.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_PLOTS_H
#define OLTPMARK_ANALYSIS_COMPARE_PLOTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare/compare_evidence.h"
#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "src/base/err.h"

#define CPLOT_DIR	"compare-plots" /* below the output directory */
#define CPLOT_NOTE_LEN	300		/* longest note */
#define CPLOT_NOTES_MAX 16		/* notes kept */

/* One plot drawn. */
struct cplot {
	const char *config; /* configuration, points into the score table */
	const char *key;    /* vmstat column: "r", "in", ..., "us+sy", or
			       "kcost" */
	int type;	    /* kcost: its TXN_*; vmstat: -1 */
	char name[128];	    /* file name without extension, in CPLOT_DIR */
	char title[200];    /* caption */
};

/* The plots of one compare. compare_plots_free() releases it. */
struct cplots {
	bool gnuplot;	     /* gnuplot was available */
	char why_not[256];   /* why nothing was drawn, "" if something was */
	struct cplot *plots; /* drawn, by configuration then key */
	size_t nplots;	     /* entries in plots */
	char notes[CPLOT_NOTES_MAX][CPLOT_NOTE_LEN]; /* what went wrong */
	size_t nnotes;				     /* notes used */
};

/*
 * The vmstat keys plotted, in order (NULL-terminated), and their
 * captions (parallel to the keys).
 */
extern const char *const compare_plots_keys[];
extern const char *const compare_plots_titles[];

/*
 * Draw the plots into out_dir/compare-plots/ (created; the .png, .svg,
 * .gp and .dat files already there are removed first, so no stale plot
 * survives). Labels without a representative run or without vmstat have
 * no curve; a plot without any curve is not drawn. Every file is written
 * through atomic_file, whole or absent. Returns 0 (problems, gnuplot
 * failing included, are notes in *out); -ENOMEM / -EIO when the
 * directory cannot be made; or the negative errno of a file that could
 * not be written (err names it and the reason, e.g. ENOSPC). err is set
 * on every error.
 */
int compare_plots_make(const char *out_dir, const struct runset *rs,
		       const struct score_table *t, const struct cev *ev,
		       struct cplots *out, struct err *err);

/*
 * Add a drawn plot to p's list: its configuration (pointing into the
 * score table), key, type (-1 for none), file name and caption. 0 or
 * -ENOMEM.
 */
int compare_plots_add(struct cplots *p, const char *config, const char *key,
		      int type, const char *name, const char *title);

/* Add a note (what went wrong) to p; beyond CPLOT_NOTES_MAX, dropped. */
void compare_plots_note(struct cplots *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Whether p has a plot of key in config (NULL: any configuration). */
bool compare_plots_has(const struct cplots *p, const char *config,
		       const char *key);

/* Release the plot list and zero p. Safe on a zeroed struct. */
void compare_plots_free(struct cplots *p);

#endif
