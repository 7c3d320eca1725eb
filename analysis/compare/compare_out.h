/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_out.h - writing what `oltpmark compare` found: the score table,
 * the contest table, profile and lock tables, plots, and the runs left
 * out, as text (for a mail to a kernel list), Markdown, CSV (one row per
 * label and configuration), JSON (every number) or one self-contained
 * HTML page.
 *
 * Text, Markdown and HTML are rendered from one document model
 * (compare_doc.h, filled by compare_content.h, rendered by
 * compare_render.h), so they always say the same; CSV and JSON
 * (compare_csv.h, compare_json.h) are written from the numbers directly.
 * Output is deterministic: rows in a fixed order (baseline first, then
 * labels sorted: score_row_label()), numbers in fixed formats.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_OUT_H
#define OLTPMARK_ANALYSIS_COMPARE_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/compare/comparable.h"
#include "analysis/compare/compare_evidence.h"
#include "analysis/compare/compare_plots.h"
#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "src/base/err.h"

/* Output formats, in the order of compare_out_format_names. */
enum cout_format {
	COUT_TEXT, /* plain text tables */
	COUT_MD,   /* Markdown */
	COUT_CSV,  /* one row per label and configuration */
	COUT_JSON, /* RESFILE_TAG_COMPARE, src/base/resfile.h */
	COUT_HTML, /* compare.html */
	COUT_MAIL, /* text for a mail: ASCII, 78 columns, verdicts in words */
	COUT_FORMAT_NR
};

/* "text", "md", "csv", "json", "html", "mail", NULL: for the options
 * table. */
extern const char *const compare_out_format_names[];

/* Everything a writer shows. */
struct cout_input {
	const struct runset *rs;      /* the runs read */
	const struct score_table *t;  /* scores */
	const struct cev *ev;	      /* contest, profiles, locks */
	const struct cplots *plots;   /* plots drawn, NULL when not asked */
	const char *plots_path;	      /* where the plots are, for text and
					JSON ("OUT/compare-plots"); the
					Markdown and HTML files sit in OUT
					and link CPLOT_DIR/ relatively */
	const char *out_dir;	      /* where the output file goes, NULL
					for stdout: the HTML page links
					its runs' report.html from there */
	const char *metric;	      /* summary.json key scored */
	bool baseline_given;	      /* --baseline rather than the default */
	const struct comparable *cmp; /* comparability, differences and
					 provenance; NULL: not known */
	bool mail;		      /* the mail format: set by
					 compare_out_write() */
};

/*
 * Write the comparison to f in format fmt. Returns 0, -ENOMEM, or -EIO
 * when writing failed (err says so).
 */
int compare_out_write(FILE *f, enum cout_format fmt,
		      const struct cout_input *in, struct err *err);

/* File name compare writes for a format with --out: "scores.txt", ... */
const char *compare_out_file_name(enum cout_format fmt);

#endif
