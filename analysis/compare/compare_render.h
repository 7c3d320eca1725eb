/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_render.h - compare's document (compare_doc.h) as plain text
 * (for a mail to a kernel list: tables sized by their widest cell,
 * paragraphs wrapped at 78 columns), as Markdown, or as one
 * self-contained HTML page (style inline, images linked relatively
 * under CPLOT_DIR/).
 *
 * The renderers only lay out: what the document says is decided when it
 * is built (compare_content.h). Write errors are left on the stream for
 * the caller to check with ferror().
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_RENDER_H
#define OLTPMARK_ANALYSIS_COMPARE_RENDER_H

#include <stdio.h>

#include "analysis/compare/compare_doc.h"

/* Text renderer's line width for paragraphs and list items. */
#define COMPARE_RENDER_TEXT_WIDTH 78

/* Write d to f as text. 0, or -ENOMEM (tables are laid out in memory). */
int compare_render_text(FILE *f, const struct cdoc *d);

/*
 * The text rendering in plain ASCII, for a mail: d's strings are
 * rewritten in place first ('±' -> "+-", '×' -> "x", ...; any other
 * non-ASCII character -> '?'), so columns and wrapping are measured on
 * what is printed. 0 or -ENOMEM.
 */
int compare_render_mail(FILE *f, struct cdoc *d);

/* Write d to f as Markdown (GitHub tables). Returns 0. */
int compare_render_md(FILE *f, const struct cdoc *d);

/* Write d to f as an HTML page titled by its first heading. Returns 0. */
int compare_render_html(FILE *f, const struct cdoc *d);

#endif
