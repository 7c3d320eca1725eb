/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_ctx.h - what the files writing report.html share: the context a
 * section writer gets (the page, what it shows, where sys/ is) and the
 * small writers of numbers, cells, verdicts, notes and files. html.c
 * writes the page section by section, html_evidence.c the system
 * evidence; both through these, so a cell or a note looks the same
 * wherever it is.
 */
#ifndef OLTPMARK_ANALYSIS_HTML_CTX_H
#define OLTPMARK_ANALYSIS_HTML_CTX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/report/html.h"

#define HTML_TOP       20	  /* rows of profile and lock tables */
#define HTML_RAW_LINES 40	  /* lines shown of a file without parser */
#define HTML_TEXT_MAX  (64 << 10) /* bytes shown of a text file */
#define HTML_JSON_ROWS 400	  /* metadata rows shown */
#define HTML_CKPT_ROWS 400	  /* checkpoints listed */

/* What the section writers share. */
struct html_ctx {
	FILE *f;		     /* the page */
	const struct html_input *in; /* what it shows */
	char sys[PATH_MAX];	     /* run_dir/sys */
	double start_epoch_s;	     /* meta.json start, NAN unknown */
};

/* v with decimals, an en dash when not finite. */
void html_ctx_num(FILE *f, double v, int decimals);

/* A count from run.json, "?" when unknown (negative). */
void html_ctx_count(FILE *f, int64_t v);

/* Cells: a number (as html_ctx_num), escaped text (left), a u64. */
void html_ctx_td_num(FILE *f, double v, int decimals);
void html_ctx_td_text(FILE *f, const char *s);
void html_ctx_td_u64(FILE *f, uint64_t v);

/* v < 0 "unknown", else yes (ok style) or no (bad style). */
void html_ctx_verdict(FILE *f, int v, const char *yes, const char *no);

/* A cell "ok" or "FAILED" (or unknown). */
void html_ctx_td_verdict(FILE *f, int v);

/* A paragraph of escaped text (printf format) with class cls. */
void html_ctx_note(FILE *f, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* c->sys/name into out; false (out "") when it does not fit. */
bool html_ctx_sys_path(const struct html_ctx *c, const char *name, char *out,
		       size_t size);

/* Whether c->sys/name exists. */
bool html_ctx_sys_exists(const struct html_ctx *c, const char *name);

/*
 * Show a text file in <pre>: up to max_lines lines (0: all) and
 * HTML_TEXT_MAX bytes, lines starting with skip_prefix (may be NULL)
 * left out; a note when it cannot be read.
 */
void html_ctx_pre_file(struct html_ctx *c, const char *path, int max_lines,
		       const char *skip_prefix);

/* Seconds between the modification times of two files, NAN if unknown. */
double html_ctx_mtime_span_s(const char *a, const char *b);

#endif
