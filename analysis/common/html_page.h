/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_page.h - what every oltpmark HTML page starts and ends with, and
 * the escaper every string from a file goes through. report.html and
 * compare.html both use it; neither page loads anything from the
 * network (the style sheet is inline).
 */
#ifndef OLTPMARK_ANALYSIS_HTML_PAGE_H
#define OLTPMARK_ANALYSIS_HTML_PAGE_H

#include <stddef.h>
#include <stdio.h>

/* Write s HTML-escaped (& < > " ' and control characters). */
void html_page_escape(FILE *f, const char *s);

/* The same for the first len bytes of s. */
void html_page_escape_len(FILE *f, const char *s, size_t len);

/*
 * Start a page: doctype, <head> with the title (escaped) and the inline
 * style sheet, <body>.
 */
void html_page_begin(FILE *f, const char *title);

/* End a page (</body></html>). */
void html_page_end(FILE *f);

#endif
