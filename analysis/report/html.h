/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.h - report.html, the one page a person opens to read a run: the
 * summary and checks, the plots, the evidence the hooks left in sys/
 * (or why they could not), and the run's metadata.
 *
 * The page is self-contained: CSS inline, no script, no font or image
 * from the network; images are relative links into plots/ of the same
 * run directory. Every string that comes from a file is HTML-escaped.
 * The page shell and escaper are in analysis/common/html_page.h.
 */
#ifndef OLTPMARK_ANALYSIS_HTML_H
#define OLTPMARK_ANALYSIS_HTML_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/common/html_page.h"
#include "analysis/report/blockrun.h"
#include "analysis/report/hostshare.h"
#include "analysis/report/plots.h"
#include "analysis/report/summary.h"
#include "src/base/err.h"

/* What report.html is made of. Nothing is owned. */
struct html_input {
	const char *run_dir;		  /* the run directory */
	const struct summary *sum;	  /* figures and checks */
	const json_t *meta;		  /* meta.json, may be NULL */
	const json_t *run;		  /* run.json, may be NULL */
	const struct plots_result *plots; /* what plots_make() drew */
	const struct hostshare *host;	  /* sys/procstat.csv, or NULL */
	const struct blockrun *blocks;	  /* a block run's blocks, or NULL */
	const char *compare_link;	  /* link to the compare page, from
					     run_dir (pagelink.h), or NULL */
};

/*
 * Write run_dir/report.html (under a temporary name, then renamed).
 * Evidence files that do not parse are shown as a note, not an error.
 * 0, or a negative errno when the file cannot be written.
 */
int html_write_report(const struct html_input *in, struct err *err);

#endif
