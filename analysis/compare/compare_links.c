/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_links.c - the marks and run links of compare.html's score
 * cells (compare_links.h). A run is linked only when its report.html is
 * there (`oltpmark report` writes it; `oltpmark run` alone does not), so
 * every link of the page leads to a file.
 */
#include "analysis/compare/compare_links.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/common/pagelink.h"

/* The last part of a run directory's path ("run-2"), for a link's text. */
static const char *last_part(const char *dir, char *buf, size_t size)
{
	size_t len = strlen(dir);
	const char *start;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	start = dir + len;
	while (start > dir && start[-1] != '/')
		start--;
	snprintf(buf, size, "%.*s", (int)(dir + len - start), start);
	return buf;
}

void compare_links_score(struct cdoc *d, struct cdoc_table *tab, size_t row,
			 size_t col, const struct cout_input *in, size_t l,
			 size_t c)
{
	const struct score_table *t = in->t;
	const struct score_cell *cell = score_cell(t, l, c);
	const struct runset *rs = in->rs;
	char report[PATH_MAX], link[PATH_MAX], name[256];
	size_t i;

	if (cell->has_score && cell->significant && cell->score != 100)
		compare_doc_mark(tab, row, col,
				 cell->score > 100 ? CDOC_MARK_BETTER
						   : CDOC_MARK_WORSE);
	if (!in->out_dir)
		return;
	for (i = 0; i < rs->nruns; i++) {
		const struct runset_run *r = &rs->runs[i];

		if (r->exclusion != RUNSET_SCORED ||
		    strcmp(r->label, t->labels[l]) != 0 ||
		    strcmp(r->config, t->configs[c]) != 0)
			continue;
		if (snprintf(report, sizeof(report), "%s/report.html",
			     r->dir) >= (int)sizeof(report) ||
		    access(report, R_OK) != 0)
			continue;
		pagelink_make(in->out_dir, report, link, sizeof(link));
		if (link[0])
			compare_doc_link(d, tab, row, col,
					 last_part(r->dir, name, sizeof(name)),
					 link);
	}
}

void compare_links_legend(struct cdoc *d, const struct cout_input *in)
{
	compare_doc_para(
		d,
		"A significant score is shaded: green when it is better than "
		"the baseline's, red when worse.%s",
		in->out_dir ? " The run names after a score link the "
			      "report.html of each run it was computed from "
			      "(runs without one, never given to oltpmark "
			      "report, are not linked)."
			    : "");
}
