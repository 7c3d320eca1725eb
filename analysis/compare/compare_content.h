/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_content.h - what compare's text, Markdown and HTML output say:
 * the title and baseline, the score table and its legend, the contest
 * tables, the host probe, the kernel profile and lock tables, the plots,
 * and the runs left out, laid out as one document (compare_doc.h) for
 * the renderers (compare_render.h).
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_CONTENT_H
#define OLTPMARK_ANALYSIS_COMPARE_CONTENT_H

#include <stdbool.h>

#include "analysis/compare/compare_doc.h"
#include "analysis/compare/compare_out.h"

/*
 * Append the comparison in to d (zeroed, or holding blocks to keep).
 * html: the plots are shown on the page, so the paragraph does not name
 * their directory. Check d->oom afterwards.
 */
void compare_content_build(struct cdoc *d, const struct cout_input *in,
			   bool html);

#endif
