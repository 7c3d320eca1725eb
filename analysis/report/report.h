/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - turning one run directory into its summary, time series,
 * plots and report.html. `oltpmark run` calls report_summarize() without
 * plots when it finishes; `oltpmark report` calls it with plots.
 */
#ifndef OLTPMARK_REPORT_H
#define OLTPMARK_REPORT_H

#include <stdbool.h>

#include "src/base/err.h"

/* Which part of a run to summarise and what to produce. */
struct report_options {
	double ramp_up_s;	  /* window start; < 0: the run's ramp-up
				  from run.json */
	double window_end_s;	  /* window end; < 0: the end of the run */
	bool plots;		  /* also gnuplot plots and report.html */
	const char *compare_page; /* report.html links this compare page
				     (it may not exist yet); NULL: the
				     nearest compare.html found above the
				     run directory, if any */
};

/*
 * Read DIR/mix.csv, meta.json, run.json (and sys/ when plots) and write
 * summary.json, summary.txt and timeseries.csv (and plots/, report.html),
 * each under a temporary name then renamed. 0, or negative with err set.
 */
int report_summarize(const char *run_dir, const struct report_options *opt,
		     struct err *err);

#endif
