/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_perf.c - perf report --stdio output to a list of (dso, symbol,
 * overhead) entries (see parse_perf.h for the accepted forms).
 *
 * perf pads every column to the width of its dotted underline, so once
 * the header and that line are read, a data line is cut at the columns'
 * start offsets. A dso wider than its column (never printed by perf, but
 * cheap to survive) is caught by looking for the symbol's "[x] " marker.
 */
#include "analysis/parsers/parse_perf.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/symbols.h"
#include "analysis/parsers/textline.h"

#define PERF_COLS_MAX 16 /* perf has a dozen sort keys */

/* What a header column holds. */
enum perf_col {
	PERF_COL_OTHER,	   /* a column we do not keep (Samples, ...) */
	PERF_COL_OVERHEAD, /* Overhead, or Self with --children */
	PERF_COL_CHILDREN, /* Children */
	PERF_COL_COMMAND,  /* Command */
	PERF_COL_DSO,	   /* Shared Object */
	PERF_COL_SYMBOL,   /* Symbol */
};

/* Parser state between lines. */
struct perf_state {
	char names[PERF_COLS_MAX][32]; /* last header's column names */
	size_t nnames; /* columns in names; 0: no pending header */
	size_t ncols;  /* columns located; 0 before the dotted line */
	size_t start[PERF_COLS_MAX];	   /* offset of each column in a line */
	enum perf_col kind[PERF_COLS_MAX]; /* what each column holds */
	size_t event;			   /* current event index */
};

/* "2.20%" into *v. */
static bool perf_percent(const char *s, size_t len, double *v)
{
	char buf[32], *end;
	size_t i;
	bool digits = false, dot = false;

	if (len < 2 || len >= sizeof(buf) || s[len - 1] != '%')
		return false;
	for (i = 0; i + 1 < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits = true;
		else if (s[i] == '.' && !dot)
			dot = true;
		else
			return false;
	}
	if (!digits)
		return false;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	*v = strtod(buf, &end);
	return *end == '\0' && isfinite(*v);
}

/* Bounds of s[from, to) without blanks at either end. */
static void perf_trim(const char *s, size_t *from, size_t *to)
{
	while (*from < *to && (s[*from] == ' ' || s[*from] == '\t'))
		(*from)++;
	while (*to > *from &&
	       (s[*to - 1] == ' ' || s[*to - 1] == '\t' || s[*to - 1] == '\r'))
		(*to)--;
}

/*
 * Header comment "# Overhead  Shared Object  Symbol": names are separated
 * by two or more blanks. Fills st->names; false if it is not a header.
 */
static bool perf_header(struct perf_state *st, const char *line)
{
	const char *p = line + 1, *end;
	bool dso = false, sym = false;
	size_t n = 0, len;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		end = p;
		while (*end != '\0' && !(end[0] == ' ' && end[1] == ' ') &&
		       *end != '\t')
			end++;
		len = (size_t)(end - p);
		while (len > 0 && p[len - 1] == ' ')
			len--;
		if (n == PERF_COLS_MAX || len >= sizeof(st->names[0]))
			return false;
		memcpy(st->names[n], p, len);
		st->names[n][len] = '\0';
		dso |= strcmp(st->names[n], "Shared Object") == 0;
		sym |= strcmp(st->names[n], "Symbol") == 0;
		n++;
		p = end;
	}
	if (!dso || !sym)
		return false;
	st->nnames = n;
	st->ncols = 0;
	return true;
}

/* The dotted line under a header: column starts. False if not one. */
static bool perf_dots(struct perf_state *st, const char *line)
{
	const char *p = line + 1;
	size_t n = 0, i;
	bool over = false;

	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		if (*p != '.' || n == st->nnames)
			return false;
		st->start[n++] = (size_t)(p - line);
		while (*p == '.')
			p++;
		if (*p != '\0' && *p != ' ')
			return false;
	}
	if (n != st->nnames)
		return false;
	for (i = 0; i < n; i++) {
		const char *name = st->names[i];

		if (strcmp(name, "Overhead") == 0 ||
		    strcmp(name, "Self") == 0) {
			st->kind[i] = PERF_COL_OVERHEAD;
			over = true;
		} else if (strcmp(name, "Children") == 0) {
			st->kind[i] = PERF_COL_CHILDREN;
		} else if (strcmp(name, "Command") == 0) {
			st->kind[i] = PERF_COL_COMMAND;
		} else if (strcmp(name, "Shared Object") == 0) {
			st->kind[i] = PERF_COL_DSO;
		} else if (strcmp(name, "Symbol") == 0) {
			st->kind[i] = PERF_COL_SYMBOL;
		} else {
			st->kind[i] = PERF_COL_OTHER;
		}
	}
	if (!over)
		return false;
	/* Data lines have no "# ": the first column starts at 0. */
	st->start[0] = 0;
	st->ncols = n;
	st->nnames = 0;
	return true;
}

/* Does s[at..] start a symbol marker "[x] "? */
static bool perf_marker_at(const char *s, size_t at, size_t len)
{
	return at + 4 <= len && s[at] == '[' && s[at + 2] == ']' &&
	       s[at + 3] == ' ' && s[at + 1] != ' ' && s[at + 1] != '\0';
}

/* First " [x] " marker at or after from, preceded by a blank; or len. */
static size_t perf_find_marker(const char *s, size_t from, size_t len)
{
	size_t i;

	for (i = from; i < len; i++)
		if ((i == 0 || s[i - 1] == ' ') && perf_marker_at(s, i, len))
			return i;
	return len;
}

static void perf_entry_free(struct perf_entry *e)
{
	free(e->command);
	free(e->dso);
	free(e->symbol);
}

static int perf_add(struct perf_report *r, struct perf_entry *e)
{
	struct perf_entry *ne;
	size_t cap;

	if (r->n == r->cap) {
		cap = r->cap ? r->cap * 2 : 128;
		ne = reallocarray(r->entries, cap, sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		r->entries = ne;
		r->cap = cap;
	}
	r->entries[r->n++] = *e;
	return 0;
}

/* Fill e's symbol and marker from s[from, to); false if no marker. */
static bool perf_symbol(struct perf_entry *e, const char *s, size_t from,
			size_t to)
{
	perf_trim(s, &from, &to);
	if (!perf_marker_at(s, from, to))
		return false;
	e->marker = s[from + 1];
	from += 4;
	perf_trim(s, &from, &to);
	e->symbol = strndup(s + from, to - from);
	return true;
}

/*
 * A data line cut at the header's columns: 0 stored, 1 not an entry,
 * or -ENOMEM.
 */
static int perf_columns_line(struct perf_state *st, struct perf_report *r,
			     const char *line, size_t len)
{
	struct perf_entry e = {.children_pct = NAN, .event = st->event};
	bool have_over = false, have_dso = false, have_sym = false;
	size_t i, from, to, m;
	double v;

	for (i = 0; i < st->ncols; i++) {
		from = st->start[i] < len ? st->start[i] : len;
		to = i + 1 < st->ncols && st->start[i + 1] < len
			     ? st->start[i + 1]
			     : len;
		if (st->kind[i] == PERF_COL_DSO && i + 1 < st->ncols &&
		    st->kind[i + 1] == PERF_COL_SYMBOL &&
		    !perf_marker_at(line, to, len)) {
			/* The dso overflowed its column: find the marker. */
			m = perf_find_marker(line, from, len);
			if (m < len)
				to = m;
		}
		if (st->kind[i] == PERF_COL_SYMBOL && i > 0 &&
		    st->kind[i - 1] == PERF_COL_DSO && have_dso &&
		    !perf_marker_at(line, from, len))
			from = perf_find_marker(line, st->start[i - 1], len);
		switch (st->kind[i]) {
		case PERF_COL_OVERHEAD:
		case PERF_COL_CHILDREN:
			perf_trim(line, &from, &to);
			if (!perf_percent(line + from, to - from, &v))
				goto not_entry;
			if (st->kind[i] == PERF_COL_OVERHEAD) {
				e.overhead_pct = v;
				have_over = true;
			} else {
				e.children_pct = v;
			}
			break;
		case PERF_COL_COMMAND:
		case PERF_COL_DSO:
			perf_trim(line, &from, &to);
			if (from == to)
				goto not_entry;
			if (st->kind[i] == PERF_COL_DSO) {
				free(e.dso);
				e.dso = strndup(line + from, to - from);
				if (!e.dso)
					goto nomem;
				have_dso = true;
			} else {
				free(e.command);
				e.command = strndup(line + from, to - from);
				if (!e.command)
					goto nomem;
			}
			break;
		case PERF_COL_SYMBOL:
			if (!perf_symbol(&e, line, from, to))
				goto not_entry;
			if (!e.symbol)
				goto nomem;
			have_sym = true;
			break;
		case PERF_COL_OTHER:
			break;
		}
	}
	if (!have_over || !have_dso || !have_sym)
		goto not_entry;
	if (perf_add(r, &e))
		goto nomem;
	return 0;
not_entry:
	perf_entry_free(&e);
	return 1;
nomem:
	perf_entry_free(&e);
	return -ENOMEM;
}

/* A headerless line "2.20%  dso  [k] symbol": 0, 1 not one, -ENOMEM. */
static int perf_plain_line(struct perf_state *st, struct perf_report *r,
			   const char *line, size_t len)
{
	struct perf_entry e = {.children_pct = NAN, .event = st->event};
	size_t from = 0, to, m;

	while (from < len && line[from] == ' ')
		from++;
	to = from;
	while (to < len && line[to] != ' ' && line[to] != '\t')
		to++;
	if (!perf_percent(line + from, to - from, &e.overhead_pct))
		return 1;
	m = perf_find_marker(line, to, len);
	if (m == len)
		return 1;
	from = to;
	to = m;
	perf_trim(line, &from, &to);
	if (from == to)
		return 1;
	e.dso = strndup(line + from, to - from);
	if (!e.dso)
		return -ENOMEM;
	if (!perf_symbol(&e, line, m, len)) {
		perf_entry_free(&e);
		return 1;
	}
	if (!e.symbol || perf_add(r, &e)) {
		perf_entry_free(&e);
		return -ENOMEM;
	}
	return 0;
}

/* "# Samples: 1K of event 'cpu-clock:pppH'": start a new event. */
static int perf_event_line(struct perf_state *st, struct perf_report *r,
			   const char *line)
{
	const char *q = strstr(line, " of event '"), *end;
	char **ne, *name;

	if (strncmp(line, "# Samples:", 10) != 0 || !q)
		return 0;
	q += 11;
	end = strrchr(q, '\'');
	if (!end)
		return 0;
	name = strndup(q, (size_t)(end - q));
	if (!name)
		return -ENOMEM;
	/* Entries before the first "# Samples" line went to event 0. */
	if (r->nevents == 1 && r->n == 0 && r->events[0][0] == '\0') {
		free(r->events[0]);
		r->events[0] = name;
		st->event = 0;
		return 0;
	}
	ne = reallocarray(r->events, r->nevents + 1, sizeof(*ne));
	if (!ne) {
		free(name);
		return -ENOMEM;
	}
	r->events = ne;
	r->events[r->nevents] = name;
	st->event = r->nevents++;
	return 0;
}

int parse_perf(FILE *f, struct perf_report *out, struct err *err)
{
	struct textline tl = {0};
	struct perf_state st = {.nnames = 0};
	size_t nonblank = 0, indent;
	bool header_seen = false;
	int rc;

	memset(out, 0, sizeof(*out));
	out->events = calloc(1, sizeof(*out->events));
	if (!out->events || !(out->events[0] = strdup("")))
		goto nomem;
	out->nevents = 1;
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (tl.line[strspn(tl.line, " \t\r")] == '\0' &&
		    strlen(tl.line) == tl.len)
			continue;
		nonblank++;
		if (!tl.complete || textline_has_nul(&tl)) {
			out->bad_lines++;
			continue;
		}
		if (tl.line[0] == '#') {
			if (perf_event_line(&st, out, tl.line) < 0)
				goto nomem;
			if (st.nnames && perf_dots(&st, tl.line))
				header_seen = true;
			else if (!perf_header(&st, tl.line))
				st.nnames = 0;
			continue;
		}
		if (st.ncols)
			rc = perf_columns_line(&st, out, tl.line, tl.len);
		else if (!header_seen)
			rc = perf_plain_line(&st, out, tl.line, tl.len);
		else
			rc = 1;
		if (rc < 0)
			goto nomem;
		if (rc == 1) {
			/*
			 * Call-graph lines start at or right of the second
			 * column; an entry's overhead ends left of it.
			 */
			indent = strspn(tl.line, " \t");
			if (out->n > 0 &&
			    indent >= (st.ncols > 1 ? st.start[1] : 10))
				out->callgraph_lines++;
			else
				out->bad_lines++;
		}
		rc = 0;
	}
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA, "empty perf report");
		goto fail;
	}
	if (out->n == 0 && !header_seen) {
		rc = err_set(
			err, -EINVAL,
			"no perf report header (Overhead, Shared Object, Symbol) and no entry line");
		goto fail;
	}
	if (out->n == 0) {
		rc = err_set(err, -ENODATA,
			     "perf report has no entries (%zu bad lines)",
			     out->bad_lines);
		goto fail;
	}
	textline_free(&tl);
	return 0;
nomem:
	rc = err_set(err, -ENOMEM, "line %zu: out of memory", tl.lineno);
fail:
	textline_free(&tl);
	parse_perf_free(out);
	return rc;
}

/* parse_perf() with the out that textline_parse_file() hands on. */
static int perf_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_perf(f, out, err);
}

int parse_perf_file(const char *path, struct perf_report *out, struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, perf_parse_stream, out, err);
}

void parse_perf_free(struct perf_report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		perf_entry_free(&r->entries[i]);
	free(r->entries);
	if (r->events)
		for (i = 0; i < r->nevents; i++)
			free(r->events[i]);
	free(r->events);
	memset(r, 0, sizeof(*r));
}

/* NULL-safe string equality (the command column may be absent). */
static bool perf_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

int parse_perf_merge_normalized(struct perf_report *r, struct err *err)
{
	static const char deleted[] = " (deleted)";
	struct perf_entry *out, *e;
	size_t i, j, n = 0, len, dl = sizeof(deleted) - 1;

	if (r->n == 0)
		return 0;
	out = calloc(r->n, sizeof(*out));
	if (!out)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < r->n; i++) {
		struct perf_entry ne = r->entries[i];

		len = strlen(ne.dso);
		if (len > dl && strcmp(ne.dso + len - dl, deleted) == 0)
			len -= dl;
		ne.dso = strndup(ne.dso, len);
		ne.symbol = symbols_normalize_dup(ne.symbol);
		ne.command = ne.command ? strdup(ne.command) : NULL;
		if (!ne.dso || !ne.symbol ||
		    (r->entries[i].command && !ne.command)) {
			perf_entry_free(&ne);
			goto nomem;
		}
		for (j = 0; j < n; j++) {
			e = &out[j];
			if (e->event == ne.event && e->marker == ne.marker &&
			    strcmp(e->dso, ne.dso) == 0 &&
			    strcmp(e->symbol, ne.symbol) == 0 &&
			    perf_same(e->command, ne.command))
				break;
		}
		if (j < n) {
			out[j].overhead_pct += ne.overhead_pct;
			out[j].children_pct += ne.children_pct;
			perf_entry_free(&ne);
		} else {
			out[n++] = ne;
		}
	}
	for (i = 0; i < r->n; i++)
		perf_entry_free(&r->entries[i]);
	free(r->entries);
	r->entries = out;
	r->cap = r->n;
	r->n = n;
	return 0;
nomem:
	for (j = 0; j < n; j++)
		perf_entry_free(&out[j]);
	free(out);
	return err_set(err, -ENOMEM, "out of memory");
}

static int perf_cmp(const void *pa, const void *pb)
{
	const struct perf_entry *a = pa, *b = pb;
	int c;

	if (a->overhead_pct != b->overhead_pct)
		return a->overhead_pct > b->overhead_pct ? -1 : 1;
	c = strcmp(a->dso, b->dso);
	return c ? c : strcmp(a->symbol, b->symbol);
}

void parse_perf_sort(struct perf_report *r)
{
	if (r->n > 1)
		qsort(r->entries, r->n, sizeof(*r->entries), perf_cmp);
}

const struct perf_entry *parse_perf_find(const struct perf_report *r,
					 const char *dso, const char *symbol)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->entries[i].dso, dso) == 0 &&
		    strcmp(r->entries[i].symbol, symbol) == 0)
			return &r->entries[i];
	return NULL;
}
