/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_doc.h - the document model behind compare's text, Markdown and
 * HTML output: a list of blocks (headings, paragraphs, tables, lists,
 * images) held as data. compare_content.c fills one document from the
 * comparison; compare_render.c turns it into each format. Building once
 * and rendering three times is what keeps the formats saying the same.
 *
 * Out-of-memory is sticky: every builder does nothing once an allocation
 * has failed and sets oom, so callers build the whole document and check
 * oom once. Builders given a NULL table (a failed compare_doc_table())
 * do nothing either.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_DOC_H
#define OLTPMARK_ANALYSIS_COMPARE_DOC_H

#include <stdbool.h>
#include <stddef.h>

/* Kinds of block. */
enum cdoc_kind {
	CDOC_HEADING, /* level 1..3 */
	CDOC_PARA,    /* a paragraph of running text */
	CDOC_TABLE,   /* a table */
	CDOC_LIST,    /* items, one line each */
	CDOC_IMAGES,  /* plots: items are names, titles their captions */
};

/*
 * How a cell stands out (HTML only: a class on its <td>, styled by
 * html_page.c): a significant score above or below the baseline's.
 */
enum cdoc_mark {
	CDOC_MARK_NONE = 0, /* plain */
	CDOC_MARK_BETTER,   /* significantly better: class "better" */
	CDOC_MARK_WORSE,    /* significantly worse: class "worse" */
};

/* A table: headers, optional groups, cells as strings. */
struct cdoc_table {
	size_t ncols;  /* columns */
	char **head;   /* header of each column */
	char **group;  /* title of the column's group, NULL for none */
	int *gid;      /* group id of each column, 0 for none */
	bool *right;   /* right-aligned (numbers) */
	int *gap;      /* spaces before the column in text */
	bool *attach;  /* Markdown, HTML: cell goes after the previous
			    column's, with a space (the star) */
	char **cells;  /* nrows * ncols, NULL for empty */
	char *marks;   /* nrows * ncols, each an enum cdoc_mark */
	char **links;  /* nrows * ncols, NULL for none: links shown after
			  the cell by HTML, one "TEXT\tPATH\n" line each
			  (PATH a file path, encoded when rendered) */
	size_t nrows;  /* rows used */
	size_t cap;    /* rows allocated */
	char *caption; /* a line naming the table, or NULL */
};

/* One block of the document. */
struct cdoc_block {
	enum cdoc_kind kind;	  /* what it is */
	int level;		  /* heading level */
	char *text;		  /* heading or paragraph text */
	struct cdoc_table *table; /* CDOC_TABLE */
	char **items;		  /* CDOC_LIST lines, CDOC_IMAGES plot names */
	char **titles;		  /* CDOC_IMAGES captions (NULLs in lists) */
	size_t nitems;		  /* entries in items (and titles) */
};

/* The whole document. Zero it to start; compare_doc_free() releases it. */
struct cdoc {
	struct cdoc_block *v; /* blocks */
	size_t n, cap;	      /* used, allocated */
	bool oom;	      /* an allocation failed somewhere */
};

/* A new formatted string owned by the caller; NULL (and oom) on failure. */
char *compare_doc_fmt(struct cdoc *d, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/* Add a heading of level 1..3 / a paragraph of running text. */
void compare_doc_heading(struct cdoc *d, int level, const char *f, ...)
	__attribute__((format(printf, 3, 4)));
void compare_doc_para(struct cdoc *d, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Start a list (CDOC_LIST) or a row of images (CDOC_IMAGES); the items
 * added next go to it (to the last block, whatever it is).
 */
void compare_doc_list(struct cdoc *d, enum cdoc_kind kind);

/* An item of the last list. */
void compare_doc_item(struct cdoc *d, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/* An image of the last image block: its caption and plot name. */
void compare_doc_image(struct cdoc *d, const char *title, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Add a table of ncols columns, named by caption (taken over: freed on
 * failure too; NULL for none). Returns the table, or NULL (and oom).
 */
struct cdoc_table *compare_doc_table(struct cdoc *d, size_t ncols,
				     char *caption);

/* Describe column c: header, right alignment, gap before it in text. */
void compare_doc_col(struct cdoc *d, struct cdoc_table *t, size_t c,
		     const char *head, bool right, int gap);

/*
 * Column c is shown after the previous column's cell, in the same cell,
 * by Markdown and HTML (the significance star); text keeps it apart.
 */
void compare_doc_attach(struct cdoc_table *t, size_t c);

/* Put columns c0 .. c0+n-1 in group id gid (> 0) titled title. */
void compare_doc_group(struct cdoc *d, struct cdoc_table *t, size_t c0,
		       size_t n, int gid, const char *title);

/* Add an empty row; returns its index (or SIZE_MAX when out of memory). */
size_t compare_doc_row(struct cdoc *d, struct cdoc_table *t);

/* Set a cell (row SIZE_MAX: nothing, so compare_doc_row()'s failure
 * needs no check). */
void compare_doc_cell(struct cdoc *d, struct cdoc_table *t, size_t row,
		      size_t col, const char *f, ...)
	__attribute__((format(printf, 5, 6)));

/* Mark a cell (row SIZE_MAX: nothing). */
void compare_doc_mark(struct cdoc_table *t, size_t row, size_t col,
		      enum cdoc_mark mark);

/*
 * Add a link after a cell, shown by HTML only: text (no tab or newline)
 * linking the file path (relative to the page, or absolute). Row
 * SIZE_MAX: nothing.
 */
void compare_doc_link(struct cdoc *d, struct cdoc_table *t, size_t row,
		      size_t col, const char *text, const char *path);

/* A number with dec decimals, or "-" when not finite. */
void compare_doc_num(struct cdoc *d, struct cdoc_table *t, size_t row,
		     size_t col, double v, int dec);

/* A signed change with dec decimals that never prints "-0.00". */
void compare_doc_change(struct cdoc *d, struct cdoc_table *t, size_t row,
			size_t col, double v, int dec);

/* Release every block and zero d. */
void compare_doc_free(struct cdoc *d);

#endif
