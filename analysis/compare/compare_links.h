/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_links.h - what compare.html adds to a score cell: a mark when
 * the score is significantly better or worse than the baseline's, and a
 * link to the report.html of each run the score was computed from, so a
 * reader goes from a number to the runs behind it in one click. Text,
 * Markdown and CSV show neither (the star says significance there).
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_LINKS_H
#define OLTPMARK_ANALYSIS_COMPARE_LINKS_H

#include <stddef.h>

#include "analysis/compare/compare_doc.h"
#include "analysis/compare/compare_out.h"

/*
 * Mark cell (row, col) of tab, the score of label l in configuration c:
 * CDOC_MARK_BETTER or CDOC_MARK_WORSE when it is significant (above or
 * below 100). With in->out_dir, link after it the report.html of each
 * scored run of that label and configuration that has one, named by the
 * run directory's last part, relative to in->out_dir when possible
 * (pagelink.h), else absolute. Memory failures set d->oom.
 */
void compare_links_score(struct cdoc *d, struct cdoc_table *tab, size_t row,
			 size_t col, const struct cout_input *in, size_t l,
			 size_t c);

/* The paragraph saying what the marks and links mean (HTML only). */
void compare_links_legend(struct cdoc *d, const struct cout_input *in);

#endif
