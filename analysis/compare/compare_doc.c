/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_doc.c - building and freeing the document model of compare's
 * output (compare_doc.h). Every string is the document's own copy; a
 * failed allocation only sets oom, so the caller checks once at the end.
 */
#include "analysis/compare/compare_doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *vfmt(struct cdoc *d, const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0) {
		d->oom = true;
		return NULL;
	}
	return s;
}

char *compare_doc_fmt(struct cdoc *d, const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	s = vfmt(d, f, ap);
	va_end(ap);
	return s;
}

static struct cdoc_block *doc_add(struct cdoc *d, enum cdoc_kind kind)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 32;
		struct cdoc_block *grown = realloc(d->v, cap * sizeof(*grown));

		if (!grown) {
			d->oom = true;
			return NULL;
		}
		d->v = grown;
		d->cap = cap;
	}
	memset(&d->v[d->n], 0, sizeof(d->v[d->n]));
	d->v[d->n].kind = kind;
	return &d->v[d->n++];
}

void compare_doc_heading(struct cdoc *d, int level, const char *f, ...)
{
	struct cdoc_block *b = doc_add(d, CDOC_HEADING);
	va_list ap;

	if (!b)
		return;
	b->level = level;
	va_start(ap, f);
	b->text = vfmt(d, f, ap);
	va_end(ap);
}

void compare_doc_para(struct cdoc *d, const char *f, ...)
{
	struct cdoc_block *b = doc_add(d, CDOC_PARA);
	va_list ap;

	if (!b)
		return;
	va_start(ap, f);
	b->text = vfmt(d, f, ap);
	va_end(ap);
}

/* Start a list (or image) block; items go to the last block. */
void compare_doc_list(struct cdoc *d, enum cdoc_kind kind)
{
	doc_add(d, kind);
}

/* Append an item (title NULL) or an image to the last block. */
static void vitem(struct cdoc *d, const char *title, const char *f, va_list ap)
{
	struct cdoc_block *b;
	char **items, **titles;

	if (d->oom || d->n == 0)
		return;
	b = &d->v[d->n - 1];
	items = realloc(b->items, (b->nitems + 1) * sizeof(*items));
	if (!items) {
		d->oom = true;
		return;
	}
	b->items = items;
	titles = realloc(b->titles, (b->nitems + 1) * sizeof(*titles));
	if (!titles) {
		d->oom = true;
		return;
	}
	b->titles = titles;
	items[b->nitems] = vfmt(d, f, ap);
	titles[b->nitems] = title ? strdup(title) : NULL;
	if (title && !titles[b->nitems])
		d->oom = true;
	b->nitems++;
}

void compare_doc_item(struct cdoc *d, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vitem(d, NULL, f, ap);
	va_end(ap);
}

void compare_doc_image(struct cdoc *d, const char *title, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vitem(d, title, f, ap);
	va_end(ap);
}

/* A new table of ncols columns, added to the document. */
struct cdoc_table *compare_doc_table(struct cdoc *d, size_t ncols,
				     char *caption)
{
	struct cdoc_block *b = doc_add(d, CDOC_TABLE);
	struct cdoc_table *t;

	if (!b) {
		free(caption);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		d->oom = true;
		free(caption);
		return NULL;
	}
	b->table = t;
	t->ncols = ncols;
	t->caption = caption;
	t->head = calloc(ncols, sizeof(*t->head));
	t->group = calloc(ncols, sizeof(*t->group));
	t->gid = calloc(ncols, sizeof(*t->gid));
	t->right = calloc(ncols, sizeof(*t->right));
	t->gap = calloc(ncols, sizeof(*t->gap));
	t->attach = calloc(ncols, sizeof(*t->attach));
	if (!t->head || !t->group || !t->gid || !t->right || !t->gap ||
	    !t->attach) {
		d->oom = true;
		return NULL;
	}
	return t;
}

/* Describe column c: header, right alignment, gap before it in text. */
void compare_doc_col(struct cdoc *d, struct cdoc_table *t, size_t c,
		     const char *head, bool right, int gap)
{
	if (!t)
		return;
	t->head[c] = strdup(head);
	if (!t->head[c])
		d->oom = true;
	t->right[c] = right;
	t->gap[c] = gap;
}

void compare_doc_attach(struct cdoc_table *t, size_t c)
{
	if (t)
		t->attach[c] = true;
}

/* Put columns c0 .. c0+n-1 in group id gid titled title. */
void compare_doc_group(struct cdoc *d, struct cdoc_table *t, size_t c0,
		       size_t n, int gid, const char *title)
{
	size_t c;

	if (!t)
		return;
	for (c = c0; c < c0 + n; c++) {
		t->gid[c] = gid;
		t->group[c] = strdup(title);
		if (!t->group[c])
			d->oom = true;
	}
}

/* Add an empty row; returns its index (or SIZE_MAX when out of memory). */
size_t compare_doc_row(struct cdoc *d, struct cdoc_table *t)
{
	char *marks;

	if (!t || d->oom)
		return SIZE_MAX;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char **grown =
			realloc(t->cells, cap * t->ncols * sizeof(*grown));

		if (!grown) {
			d->oom = true;
			return SIZE_MAX;
		}
		t->cells = grown;
		grown = realloc(t->links, cap * t->ncols * sizeof(*grown));
		if (!grown) {
			d->oom = true;
			return SIZE_MAX;
		}
		t->links = grown;
		marks = realloc(t->marks, cap * t->ncols * sizeof(*marks));
		if (!marks) {
			d->oom = true;
			return SIZE_MAX;
		}
		t->marks = marks;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	memset(&t->links[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->links));
	memset(&t->marks[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->marks));
	return t->nrows++;
}

void compare_doc_cell(struct cdoc *d, struct cdoc_table *t, size_t row,
		      size_t col, const char *f, ...)
{
	va_list ap;

	if (!t || row == SIZE_MAX || d->oom)
		return;
	va_start(ap, f);
	free(t->cells[row * t->ncols + col]);
	t->cells[row * t->ncols + col] = vfmt(d, f, ap);
	va_end(ap);
}

void compare_doc_mark(struct cdoc_table *t, size_t row, size_t col,
		      enum cdoc_mark mark)
{
	if (t && row != SIZE_MAX && row < t->nrows)
		t->marks[row * t->ncols + col] = (char)mark;
}

void compare_doc_link(struct cdoc *d, struct cdoc_table *t, size_t row,
		      size_t col, const char *text, const char *path)
{
	char **slot, *grown;
	size_t had, add;

	if (!t || row == SIZE_MAX || d->oom)
		return;
	slot = &t->links[row * t->ncols + col];
	had = *slot ? strlen(*slot) : 0;
	add = strlen(text) + strlen(path) + 2;
	grown = realloc(*slot, had + add + 1);
	if (!grown) {
		d->oom = true;
		return;
	}
	snprintf(grown + had, add + 1, "%s\t%s\n", text, path);
	*slot = grown;
}

/* A number with dec decimals, or "-" when unknown. */
void compare_doc_num(struct cdoc *d, struct cdoc_table *t, size_t row,
		     size_t col, double v, int dec)
{
	if (isfinite(v))
		compare_doc_cell(d, t, row, col, "%.*f", dec, v);
	else
		compare_doc_cell(d, t, row, col, "-");
}

/* A signed change with dec decimals that never prints "-0.00". */
void compare_doc_change(struct cdoc *d, struct cdoc_table *t, size_t row,
			size_t col, double v, int dec)
{
	double scale = pow(10, dec);

	if (!isfinite(v)) {
		compare_doc_cell(d, t, row, col, "-");
		return;
	}
	v = round(v * scale) / scale;
	compare_doc_cell(d, t, row, col, "%+.*f", dec, v == 0 ? 0.0 : v);
}

static void tab_free(struct cdoc_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++) {
		if (t->head)
			free(t->head[i]);
		if (t->group)
			free(t->group[i]);
	}
	for (i = 0; t->cells && i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (i = 0; t->links && i < t->nrows * t->ncols; i++)
		free(t->links[i]);
	free(t->links);
	free(t->marks);
	free(t->head);
	free(t->group);
	free(t->gid);
	free(t->right);
	free(t->gap);
	free(t->attach);
	free(t->cells);
	free(t->caption);
	free(t);
}

void compare_doc_free(struct cdoc *d)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		struct cdoc_block *b = &d->v[i];

		free(b->text);
		tab_free(b->table);
		for (k = 0; k < b->nitems; k++) {
			free(b->items[k]);
			free(b->titles[k]);
		}
		free(b->items);
		free(b->titles);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
