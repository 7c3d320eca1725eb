/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_render.c - the text, Markdown and HTML renderers of compare's
 * document (compare_render.h).
 *
 * Tables know their column headers, groups (the configuration over its
 * score columns), alignment and gaps, so the text renderer can size
 * columns by the widest cell (counting UTF-8 characters, not bytes: the
 * '±'). Markdown and HTML put an attached column (the significance star)
 * into the cell before it.
 */
#include "analysis/compare/compare_render.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/common/html_page.h"
#include "analysis/common/pagelink.h"
#include "analysis/compare/compare_plots.h"

/* ------------------------------------------------------------------ */
/* Text                                                                */

/* Characters (not bytes) of a UTF-8 string. */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* One output line, trimmed of trailing blanks when put out. */
struct line {
	char *buf;  /* text */
	size_t len; /* bytes used */
	size_t cap; /* bytes allocated */
	bool oom;   /* an append failed */
};

static void line_add(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		size_t cap = (l->len + n + 1) * 2;
		char *grown = realloc(l->buf, cap);

		if (!grown) {
			l->oom = true;
			return;
		}
		l->buf = grown;
		l->cap = cap;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static void line_pad(struct line *l, size_t n)
{
	while (n--)
		line_add(l, " ", 1);
}

/* s in a field of w characters. */
static void line_cell(struct line *l, const char *s, size_t w, bool right)
{
	size_t sw = width(s);

	if (right)
		line_pad(l, w > sw ? w - sw : 0);
	if (s)
		line_add(l, s, strlen(s));
	if (!right)
		line_pad(l, w > sw ? w - sw : 0);
}

static void line_put(struct line *l, FILE *f)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	if (l->len)
		fwrite(l->buf, 1, l->len, f);
	fputc('\n', f);
	l->len = 0;
	if (l->buf)
		l->buf[0] = '\0';
}

/*
 * Words of text, wrapped at COMPARE_RENDER_TEXT_WIDTH, the first line
 * starting with first_indent, the others with indent.
 */
static void text_wrap(FILE *f, const char *text, const char *indent,
		      const char *first_indent)
{
	const char *p = text, *lead = first_indent;
	size_t col = 0;

	while (*p) {
		const char *w = p;
		size_t n, ww;

		while (*p && *p != ' ')
			p++;
		n = (size_t)(p - w);
		ww = 0;
		for (size_t i = 0; i < n; i++)
			ww += ((unsigned char)w[i] & 0xC0) != 0x80;
		if (col && col + 1 + ww > COMPARE_RENDER_TEXT_WIDTH) {
			fputc('\n', f);
			col = 0;
			lead = indent;
		}
		if (col == 0) {
			fputs(lead, f);
			col = width(lead);
		} else {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, n, f);
		col += ww;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/* Width of the column group (or lone column) starting at sel[i]. */
static size_t unit_end(const struct cdoc_table *t, size_t c)
{
	size_t end = c + 1;

	if (t->gid[c])
		while (end < t->ncols && t->gid[end] == t->gid[c])
			end++;
	return end;
}

/* Text width of columns sel[0..n-1] laid out side by side. */
static size_t cols_width(const struct cdoc_table *t, const size_t *w,
			 const size_t *sel, size_t n)
{
	size_t i, sum = 0;

	for (i = 0; i < n; i++)
		sum += (size_t)t->gap[sel[i]] + w[sel[i]];
	return sum;
}

/* The columns sel[0..n-1] of t (widths w) as one text table. */
static void text_cols(FILE *f, const struct cdoc_table *t, const size_t *w,
		      const size_t *sel, size_t n, struct line *l)
{
	size_t i, r;

	/* Group titles, left-aligned over their first column. */
	for (i = 0; i < n && !t->gid[sel[i]]; i++)
		;
	if (i < n) {
		for (i = 0; i < n; i++) {
			size_t c = sel[i];

			line_pad(l, (size_t)t->gap[c]);
			if (t->gid[c] &&
			    (!i || t->gid[sel[i - 1]] != t->gid[c])) {
				size_t end = i, span = 0;

				while (end < n &&
				       t->gid[sel[end]] == t->gid[c]) {
					span += w[sel[end]] +
						(end > i ? (size_t)t->gap
								   [sel[end]]
							 : 0);
					end++;
				}
				line_cell(l, t->group[c], span, false);
				i = end - 1;
			} else {
				line_pad(l, w[c]);
			}
		}
		line_put(l, f);
	}
	for (i = 0; i < n; i++) {
		line_pad(l, (size_t)t->gap[sel[i]]);
		line_cell(l, t->head[sel[i]], w[sel[i]], t->right[sel[i]]);
	}
	line_put(l, f);
	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < n; i++) {
			line_pad(l, (size_t)t->gap[sel[i]]);
			line_cell(l, t->cells[r * t->ncols + sel[i]], w[sel[i]],
				  t->right[sel[i]]);
		}
		line_put(l, f);
	}
}

/*
 * The leading columns that name a row (the label, and in the devices
 * table the device and its role): left-aligned, outside any group, and
 * together at most half a page, so every part of a cut table still says
 * which row is which. At least the first column.
 */
static size_t key_columns(const struct cdoc_table *t, const size_t *w)
{
	size_t keys = t->ncols ? 1 : 0, used = t->ncols ? w[0] : 0;

	while (keys < t->ncols && !t->right[keys] && !t->gid[keys] &&
	       used + (size_t)t->gap[keys] + w[keys] <=
		       COMPARE_RENDER_TEXT_WIDTH / 2) {
		used += (size_t)t->gap[keys] + w[keys];
		keys++;
	}
	return keys;
}

/*
 * A table wider than COMPARE_RENDER_TEXT_WIDTH is cut into several, one
 * under the other, each repeating the columns that name a row
 * (key_columns(): the label, or the label and the device): whole
 * column groups (a configuration's score columns) stay together, and a
 * last column without a header (the "(baseline)" mark) goes with every
 * part. A part with a single group wider than the page stays whole.
 */
static void text_table(FILE *f, const struct cdoc_table *t, bool *oom)
{
	size_t *w, *sel, c, r, n, start, tail, keys, k;
	struct line l = {0};
	bool first = true;

	w = calloc(t->ncols, sizeof(*w));
	sel = calloc(t->ncols + 1, sizeof(*sel));
	if (!w || !sel) {
		free(w);
		free(sel);
		*oom = true;
		return;
	}
	for (c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (r = 0; r < t->nrows; r++)
			if (width(t->cells[r * t->ncols + c]) > w[c])
				w[c] = width(t->cells[r * t->ncols + c]);
	}
	/* A group title wider than its columns widens the first column. */
	for (c = 0; c < t->ncols; c++) {
		size_t end = c, span = 0;

		if (!t->gid[c] || (c && t->gid[c - 1] == t->gid[c]))
			continue;
		while (end < t->ncols && t->gid[end] == t->gid[c]) {
			span += w[end] + (end > c ? (size_t)t->gap[end] : 0);
			end++;
		}
		if (width(t->group[c]) > span)
			w[c] += width(t->group[c]) - span;
	}
	if (t->caption) {
		fputs(t->caption, f);
		fputc('\n', f);
	}
	/*
	 * the trailing mark column, kept with every part; not a column
	 * attached to the one before it (a figure's significance star),
	 * which belongs to that figure's part only
	 */
	tail = t->ncols > 2 && !t->gid[t->ncols - 1] &&
			       !t->attach[t->ncols - 1] &&
			       !(t->head[t->ncols - 1] &&
				 t->head[t->ncols - 1][0])
		       ? t->ncols - 1
		       : t->ncols;
	keys = key_columns(t, w);
	if (keys > tail)
		keys = tail;
	start = keys;
	while (start < tail || first) {
		n = 0;
		for (k = 0; k < keys; k++)
			sel[n++] = k;
		while (start < tail) {
			size_t end = unit_end(t, start), m = n;

			for (k = start; k < end; k++)
				sel[m++] = k;
			if (tail < t->ncols)
				sel[m] = tail;
			if (n > keys &&
			    cols_width(t, w, sel, m + (tail < t->ncols)) >
				    COMPARE_RENDER_TEXT_WIDTH)
				break;
			n = m;
			start = end;
		}
		if (tail < t->ncols)
			sel[n++] = tail;
		if (!first)
			fputc('\n', f);
		text_cols(f, t, w, sel, n, &l);
		first = false;
	}
	if (l.oom)
		*oom = true;
	free(l.buf);
	free(sel);
	free(w);
}

static int render_text(FILE *f, const struct cdoc *d)
{
	bool oom = false;
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		const struct cdoc_block *b = &d->v[i];

		switch (b->kind) {
		case CDOC_HEADING:
			if (i)
				fputc('\n', f);
			fprintf(f, "%s\n", b->text);
			if (b->level <= 2) {
				for (k = width(b->text); k; k--)
					fputc(b->level == 1 ? '=' : '-', f);
				fputc('\n', f);
			}
			break;
		case CDOC_PARA:
			if (i && d->v[i - 1].kind != CDOC_HEADING)
				fputc('\n', f);
			text_wrap(f, b->text, "", "");
			break;
		case CDOC_TABLE:
			if (i && d->v[i - 1].kind != CDOC_HEADING)
				fputc('\n', f);
			text_table(f, b->table, &oom);
			break;
		case CDOC_LIST:
			for (k = 0; k < b->nitems; k++)
				text_wrap(f, b->items[k], "    ", "  ");
			break;
		case CDOC_IMAGES:
			for (k = 0; k < b->nitems; k++)
				fprintf(f, "  %s.png  %s\n", b->items[k],
					b->titles[k]);
			break;
		}
	}
	return oom ? -ENOMEM : 0;
}

int compare_render_text(FILE *f, const struct cdoc *d)
{
	return render_text(f, d);
}

/* ------------------------------------------------------------------ */
/* Mail: the text rendering in ASCII                                    */

/* UTF-8 sequences compare's text uses and their ASCII spelling. */
static const struct {
	const char *utf8, *ascii;
} ascii_map[] = {
	{"\u00b1", "+-"},  {"\u00d7", "x"},  {"\u2212", "-"},  {"\u2013", "-"},
	{"\u2014", "--"},  {"\u2264", "<="}, {"\u2265", ">="}, {"\u00b5", "u"},
	{"\u2026", "..."}, {"\u2192", "->"}, {"\u00b2", "^2"},
};

/* *s rewritten in ASCII (a new string; the old one freed). */
static int to_ascii(char **s)
{
	const char *p;
	char *out, *q;

	if (!*s)
		return 0;
	out = malloc(strlen(*s) * 2 + 1);
	if (!out)
		return -ENOMEM;
	for (p = *s, q = out; *p;) {
		size_t i, n;

		if (!((unsigned char)*p & 0x80)) {
			*q++ = *p++;
			continue;
		}
		for (i = 0; i < sizeof(ascii_map) / sizeof(ascii_map[0]); i++) {
			n = strlen(ascii_map[i].utf8);
			if (strncmp(p, ascii_map[i].utf8, n) == 0)
				break;
		}
		if (i < sizeof(ascii_map) / sizeof(ascii_map[0])) {
			strcpy(q, ascii_map[i].ascii);
			q += strlen(ascii_map[i].ascii);
			p += n;
			continue;
		}
		/* another character: one '?' for its whole sequence */
		*q++ = '?';
		p++;
		while (((unsigned char)*p & 0xC0) == 0x80)
			p++;
	}
	*q = '\0';
	free(*s);
	*s = out;
	return 0;
}

static int table_to_ascii(struct cdoc_table *t)
{
	size_t c, i;
	int rc = to_ascii(&t->caption);

	for (c = 0; c < t->ncols && rc == 0; c++) {
		rc = to_ascii(&t->head[c]);
		if (rc == 0)
			rc = to_ascii(&t->group[c]);
	}
	for (i = 0; i < t->nrows * t->ncols && rc == 0; i++)
		rc = to_ascii(&t->cells[i]);
	return rc;
}

int compare_render_mail(FILE *f, struct cdoc *d)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < d->n && rc == 0; i++) {
		struct cdoc_block *b = &d->v[i];

		rc = to_ascii(&b->text);
		for (k = 0; k < b->nitems && rc == 0; k++) {
			rc = to_ascii(&b->items[k]);
			if (rc == 0 && b->titles)
				rc = to_ascii(&b->titles[k]);
		}
		if (rc == 0 && b->table)
			rc = table_to_ascii(b->table);
	}
	return rc < 0 ? rc : render_text(f, d);
}

/* ------------------------------------------------------------------ */
/* Markdown                                                            */

static void md_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* A cell with the attached cells after it (Markdown and HTML). */
static void cell_joined(FILE *f, const struct cdoc_table *t, size_t r, size_t c,
			void (*escape)(FILE *, const char *))
{
	size_t k;

	escape(f, t->cells[r * t->ncols + c]);
	for (k = c + 1; k < t->ncols && t->attach[k]; k++)
		if (t->cells[r * t->ncols + k]) {
			fputc(' ', f);
			escape(f, t->cells[r * t->ncols + k]);
		}
}

static void md_table(FILE *f, const struct cdoc_table *t)
{
	size_t c, r;

	if (t->caption) {
		fputs("**", f);
		md_escape(f, t->caption);
		fputs("**\n\n", f);
	}
	fputc('|', f);
	for (c = 0; c < t->ncols; c++) {
		if (t->attach[c])
			continue;
		fputc(' ', f);
		if (t->gid[c] && (!c || t->gid[c - 1] != t->gid[c])) {
			md_escape(f, t->group[c]);
			if (t->head[c][0])
				fputc(' ', f);
		}
		md_escape(f, t->head[c]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (c = 0; c < t->ncols; c++)
		if (!t->attach[c])
			fputs(t->right[c] ? "---:|" : "---|", f);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			if (t->attach[c])
				continue;
			fputc(' ', f);
			cell_joined(f, t, r, c, md_escape);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

int compare_render_md(FILE *f, const struct cdoc *d)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		const struct cdoc_block *b = &d->v[i];

		switch (b->kind) {
		case CDOC_HEADING:
			fprintf(f, "%.*s ", b->level, "###");
			md_escape(f, b->text);
			fputs("\n\n", f);
			break;
		case CDOC_PARA:
			md_escape(f, b->text);
			fputs("\n\n", f);
			break;
		case CDOC_TABLE:
			md_table(f, b->table);
			break;
		case CDOC_LIST:
			for (k = 0; k < b->nitems; k++) {
				fputs("- ", f);
				md_escape(f, b->items[k]);
				fputc('\n', f);
			}
			fputc('\n', f);
			break;
		case CDOC_IMAGES:
			for (k = 0; k < b->nitems; k++) {
				fputs("![", f);
				md_escape(f, b->titles[k]);
				fprintf(f, "](" CPLOT_DIR "/%s.png)\n\n",
					b->items[k]);
			}
			break;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* HTML                                                                */

/* The class a mark adds to its cell (html_page.c styles them). */
static const char *const mark_class[] = {
	[CDOC_MARK_NONE] = "",
	[CDOC_MARK_BETTER] = " better",
	[CDOC_MARK_WORSE] = " worse",
};

/* A cell's links ("TEXT\tPATH\n" lines), after its text. */
static void html_links(FILE *f, const char *links)
{
	const char *p = links;

	if (!p)
		return;
	fputs(" <span class=\"runs\">", f);
	while (*p) {
		size_t tl = strcspn(p, "\t"), pl;

		if (!p[tl])
			break;
		pl = strcspn(p + tl + 1, "\n");
		fputs(p == links ? "<a href=\"" : " <a href=\"", f);
		pagelink_href_len(f, p + tl + 1, pl);
		fputs("\">", f);
		html_page_escape_len(f, p, tl);
		fputs("</a>", f);
		p += tl + 1 + pl;
		if (*p)
			p++;
	}
	fputs("</span>", f);
}

static void html_table(FILE *f, const struct cdoc_table *t)
{
	size_t c, r;

	fputs("<table>\n", f);
	if (t->caption) {
		fputs("<caption>", f);
		html_page_escape(f, t->caption);
		fputs("</caption>\n", f);
	}
	fputs("<thead>\n", f);
	for (c = 0; c < t->ncols && !t->gid[c]; c++)
		;
	if (c < t->ncols) {
		fputs("<tr>", f);
		for (c = 0; c < t->ncols; c++) {
			size_t end = c;

			if (!t->gid[c]) {
				fputs("<th></th>", f);
				continue;
			}
			size_t span = 0;

			while (end < t->ncols && t->gid[end] == t->gid[c])
				span += !t->attach[end++];
			fprintf(f, "<th colspan=\"%zu\" class=\"group\">",
				span);
			html_page_escape(f, t->group[c]);
			fputs("</th>", f);
			c = end - 1;
		}
		fputs("</tr>\n", f);
	}
	fputs("<tr>", f);
	for (c = 0; c < t->ncols; c++) {
		if (t->attach[c])
			continue;
		fputs(t->right[c] ? "<th class=\"n\">" : "<th class=\"l\">", f);
		html_page_escape(f, t->head[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n</thead>\n<tbody>\n", f);
	for (r = 0; r < t->nrows; r++) {
		fputs("<tr>", f);
		for (c = 0; c < t->ncols; c++) {
			if (t->attach[c])
				continue;
			fprintf(f, "<td class=\"%s%s\">",
				t->right[c] ? "n" : "l",
				mark_class[(int)t->marks[r * t->ncols + c]]);
			cell_joined(f, t, r, c, html_page_escape);
			html_links(f, t->links[r * t->ncols + c]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

int compare_render_html(FILE *f, const struct cdoc *d)
{
	size_t i, k;

	html_page_begin(f, d->n && d->v[0].kind == CDOC_HEADING ? d->v[0].text
								: "");
	for (i = 0; i < d->n; i++) {
		const struct cdoc_block *b = &d->v[i];

		switch (b->kind) {
		case CDOC_HEADING:
			fprintf(f, "<h%d>", b->level);
			html_page_escape(f, b->text);
			fprintf(f, "</h%d>\n", b->level);
			break;
		case CDOC_PARA:
			fputs("<p>", f);
			html_page_escape(f, b->text);
			fputs("</p>\n", f);
			break;
		case CDOC_TABLE:
			html_table(f, b->table);
			break;
		case CDOC_LIST:
			fputs("<ul class=\"mono\">\n", f);
			for (k = 0; k < b->nitems; k++) {
				fputs("<li>", f);
				html_page_escape(f, b->items[k]);
				fputs("</li>\n", f);
			}
			fputs("</ul>\n", f);
			break;
		case CDOC_IMAGES:
			for (k = 0; k < b->nitems; k++) {
				fputs("<figure class=\"half\"><a href=\"" CPLOT_DIR
				      "/",
				      f);
				html_page_escape(f, b->items[k]);
				fputs(".svg\"><img src=\"" CPLOT_DIR "/", f);
				html_page_escape(f, b->items[k]);
				fputs(".png\" alt=\"", f);
				html_page_escape(f, b->titles[k]);
				fputs("\"></a><figcaption>", f);
				html_page_escape(f, b->titles[k]);
				fputs("</figcaption></figure>\n", f);
			}
			break;
		}
	}
	html_page_end(f);
	return 0;
}
