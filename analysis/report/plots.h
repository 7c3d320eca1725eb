/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plots.h - the plots of one run in DIR/plots/: the workload's (NOTPM
 * over time, response-time distribution per type) and, when the hooks
 * left their files in DIR/sys/, the system's (vmstat, iostat).
 *
 * Each plot is NAME.png and NAME.svg beside the NAME.gp script and its
 * NAME*.dat data (gnuplot.h). A missing sys/ file only means fewer
 * plots; a sys/ file that does not parse, or a gnuplot failure, is a note
 * in the result, never an error: a report is still worth having without
 * one picture. With no gnuplot at all, nothing is drawn and the result
 * says why.
 */
#ifndef OLTPMARK_ANALYSIS_PLOTS_H
#define OLTPMARK_ANALYSIS_PLOTS_H

#include <stdbool.h>

#include <jansson.h>

#include "analysis/report/blockrun.h"
#include "analysis/report/hostshare.h"
#include "analysis/report/summary.h"
#include "analysis/report/timeseries.h"
#include "src/base/err.h"

#define PLOTS_MAX	64  /* plots one report can hold */
#define PLOTS_NOTES_MAX 16  /* notes kept */
#define PLOTS_NOTE_LEN	300 /* longest note */

/* Which section of the report a plot belongs to. */
enum plot_group {
	PLOT_WORKLOAD, /* NOTPM, response times */
	PLOT_VMSTAT,   /* sys/vmstat.txt */
	PLOT_IOSTAT,   /* sys/iostat.json */
	PLOT_GROUP_NR
};

/* One plot that was drawn. */
struct plot_entry {
	char name[64];	       /* file name without extension, in plots/ */
	char title[160];       /* caption */
	enum plot_group group; /* report section */
	bool wide;	       /* drawn for the page's full width, else
				  for half of it (gnuplot.h) */
};

/* What plots_make() produced. */
struct plots_result {
	bool gnuplot;	   /* gnuplot was available */
	char why_not[256]; /* why there are no plots at all */
	bool aligned;	   /* sys/ samples placed on the run's clock
				   (timestamps and meta.json start) */
	struct plot_entry plots[PLOTS_MAX]; /* drawn, in report order */
	int nplots;			    /* entries used */
	char notes[PLOTS_NOTES_MAX][PLOTS_NOTE_LEN]; /* what went wrong */
	int nnotes;				     /* notes used */
};

/*
 * Draw every plot the run's files allow into run_dir/plots/ (created;
 * old .png, .svg, .gp and .dat files there are removed first). meta is
 * meta.json (may be NULL; its "start" places sys/ samples on the run's
 * clock). host (sys/procstat.csv) adds the steal share to the NOTPM plot
 * and blocks (a block run's) shades its B blocks there; either may be
 * NULL or unknown. Every file is written through atomic_file, whole or
 * absent. Fills *out. Returns 0 (problems, gnuplot failing included, are
 * notes in *out), or a negative errno with err set when plots/ cannot be
 * created or one of its files cannot be written (err names the file and
 * the reason, e.g. ENOSPC); the drawing stops at that file, as the
 * report's own files would fail next.
 */
int plots_make(const char *run_dir, const struct summary *s,
	       const struct ts_series *ts, const json_t *meta,
	       const struct hostshare *host, const struct blockrun *blocks,
	       struct plots_result *out, struct err *err);

/*
 * When the run started, in seconds since the epoch, from meta.json:
 * "start_unix_s", else the ISO 8601 "start"; NAN when neither is usable
 * (or meta is NULL).
 */
double plots_run_start(const json_t *meta);

#endif
