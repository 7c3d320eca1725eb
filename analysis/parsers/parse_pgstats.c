/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_pgstats.c - the pg-stats hook's CSV files: wait events added up
 * per (type, event, state), snapshots as names and fields (see
 * parse_pgstats.h).
 *
 * A line is split in place: a quoted field loses its quotes and its
 * doubled quotes, so the fields point into the line. Line breaks inside
 * quotes are not joined: psql quotes none in these views, and a line
 * with an open quote is counted bad rather than guessed at.
 */
#include "analysis/parsers/parse_pgstats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/textline.h"

/* The columns of pg_wait_events.csv, by header name. */
enum pgstats_wait_col {
	PW_TS,	  /* "ts": the sample's time */
	PW_TYPE,  /* "wait_event_type" */
	PW_EVENT, /* "wait_event" */
	PW_STATE, /* "state" */
	PW_COUNT, /* "count": sessions */
	PW_NR,
};

static const char *const pgstats_wait_names[PW_NR] = {
	[PW_TS] = "ts",
	[PW_TYPE] = "wait_event_type",
	[PW_EVENT] = "wait_event",
	[PW_STATE] = "state",
	[PW_COUNT] = "count",
};

/* Declared in parse_pgstats.h; the kernel-cost hook's files use it too. */
size_t parse_pgstats_split(char *line, char **fields, size_t max)
{
	char *p = line, *w;
	size_t n = 0, len = strlen(line);

	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	for (;;) {
		if (n == max)
			return SIZE_MAX;
		fields[n++] = w = p;
		if (*p == '"') {
			p++;
			for (;;) {
				if (*p == '\0')
					return SIZE_MAX;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			if (*p != ',' && *p != '\0')
				return SIZE_MAX;
		} else {
			while (*p && *p != ',')
				*w++ = *p++;
		}
		if (*p == '\0') {
			*w = '\0';
			return n;
		}
		p++;
		*w = '\0';
	}
}

/* A blank line: nothing but spaces, tabs and a CR. */
static bool pgstats_blank(const char *line)
{
	return line[strspn(line, " \t\r")] == '\0';
}

/* --- pg_wait_events.csv */

/*
 * The header: col[k] gets the position of column k. true when every
 * column is there, once.
 */
static bool pgstats_wait_header(char **fld, size_t n, size_t *col)
{
	size_t i, k;

	for (k = 0; k < PW_NR; k++)
		col[k] = SIZE_MAX;
	for (i = 0; i < n; i++)
		for (k = 0; k < PW_NR; k++)
			if (strcmp(fld[i], pgstats_wait_names[k]) == 0) {
				if (col[k] != SIZE_MAX)
					return false;
				col[k] = i;
			}
	for (k = 0; k < PW_NR; k++)
		if (col[k] == SIZE_MAX)
			return false;
	return true;
}

/* The entry of (type, event, state), added when new; NULL on ENOMEM. */
static struct pgstats_wait *pgstats_wait_entry(struct pgstats_waits *w,
					       const char *type,
					       const char *event,
					       const char *state)
{
	struct pgstats_wait *e;
	size_t i;

	for (i = 0; i < w->n; i++) {
		e = &w->v[i];
		if (!strcmp(e->type, type) && !strcmp(e->event, event) &&
		    !strcmp(e->state, state))
			return e;
	}
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 32;

		e = reallocarray(w->v, cap, sizeof(*e));
		if (!e)
			return NULL;
		w->v = e;
		w->cap = cap;
	}
	e = &w->v[w->n];
	e->type = strdup(type);
	e->event = strdup(event);
	e->state = strdup(state);
	e->sessions = 0;
	if (!e->type || !e->event || !e->state) {
		free(e->type);
		free(e->event);
		free(e->state);
		return NULL;
	}
	w->n++;
	return e;
}

int parse_pgstats_waits(FILE *f, struct pgstats_waits *out, struct err *err)
{
	struct textline tl = {0};
	char *fld[PGSTATS_COLS_MAX], *last_ts = NULL;
	size_t col[PW_NR], ncols = 0, n, nonblank = 0;
	struct pgstats_wait *e;
	double count;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (!textline_has_nul(&tl) && pgstats_blank(tl.line))
			continue;
		nonblank++;
		if (textline_has_nul(&tl)) {
			out->bad_lines++;
			continue;
		}
		n = parse_pgstats_split(tl.line, fld, PGSTATS_COLS_MAX);
		if (ncols == 0) {
			/* Only the first line may be the header. */
			if (n == SIZE_MAX || !tl.complete ||
			    !pgstats_wait_header(fld, n, col)) {
				rc = err_set(err, -EINVAL,
					     "line %zu: no header (ts, "
					     "wait_event_type, wait_event, "
					     "state, count)",
					     tl.lineno);
				goto fail;
			}
			ncols = n;
			continue;
		}
		if (!tl.complete || n != ncols) {
			out->bad_lines++;
			continue;
		}
		if (strcmp(fld[col[PW_TS]], pgstats_wait_names[PW_TS]) == 0)
			continue; /* the header again */
		if (!textline_decimal(fld[col[PW_COUNT]], false, &count)) {
			out->bad_lines++;
			continue;
		}
		if (!last_ts || strcmp(last_ts, fld[col[PW_TS]]) != 0) {
			free(last_ts);
			last_ts = strdup(fld[col[PW_TS]]);
			if (!last_ts)
				goto nomem;
			out->samples++;
		}
		e = pgstats_wait_entry(out, fld[col[PW_TYPE]],
				       fld[col[PW_EVENT]], fld[col[PW_STATE]]);
		if (!e)
			goto nomem;
		e->sessions += count;
		out->rows++;
	}
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA, "empty file");
		goto fail;
	}
	free(last_ts);
	textline_free(&tl);
	return 0;
nomem:
	rc = err_set(err, -ENOMEM, "line %zu: out of memory", tl.lineno);
fail:
	free(last_ts);
	textline_free(&tl);
	parse_pgstats_waits_free(out);
	return rc;
}

/* parse_pgstats_waits() with the out that textline_parse_file() hands on. */
static int pgstats_waits_stream(FILE *f, void *out, struct err *err)
{
	return parse_pgstats_waits(f, out, err);
}

int parse_pgstats_waits_file(const char *path, struct pgstats_waits *out,
			     struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, pgstats_waits_stream, out, err);
}

static int pgstats_wait_cmp(const void *a, const void *b)
{
	const struct pgstats_wait *x = a, *y = b;
	int c;

	if (x->sessions != y->sessions)
		return x->sessions < y->sessions ? 1 : -1;
	c = strcmp(x->type, y->type);
	if (!c)
		c = strcmp(x->event, y->event);
	if (!c)
		c = strcmp(x->state, y->state);
	return c;
}

void parse_pgstats_waits_sort(struct pgstats_waits *w)
{
	if (w->n)
		qsort(w->v, w->n, sizeof(*w->v), pgstats_wait_cmp);
}

void parse_pgstats_waits_free(struct pgstats_waits *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		free(w->v[i].type);
		free(w->v[i].event);
		free(w->v[i].state);
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* --- VIEW.start.csv, VIEW.stop.csv */

/* Copies of the n strings of fld in a new array; NULL on ENOMEM. */
static char **pgstats_copy(char **fld, size_t n)
{
	char **v = calloc(n, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		v[i] = strdup(fld[i]);
		if (!v[i]) {
			while (i--)
				free(v[i]);
			free(v);
			return NULL;
		}
	}
	return v;
}

int parse_pgstats_snapshot(FILE *f, struct pgstats_snapshot *out,
			   struct err *err)
{
	struct textline tl = {0};
	char *fld[PGSTATS_COLS_MAX];
	size_t n, nonblank = 0;
	bool header = false;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (!textline_has_nul(&tl) && pgstats_blank(tl.line))
			continue;
		nonblank++;
		n = textline_has_nul(&tl)
			    ? SIZE_MAX
			    : parse_pgstats_split(tl.line, fld,
						  PGSTATS_COLS_MAX);
		if (!header) {
			if (n == SIZE_MAX || !tl.complete ||
			    strcmp(fld[0], "ts") != 0) {
				rc = err_set(err, -EINVAL,
					     "line %zu: no header (ts, ...)",
					     tl.lineno);
				goto fail;
			}
			out->names = pgstats_copy(fld, n);
			if (!out->names)
				goto nomem;
			out->ncols = n;
			header = true;
			continue;
		}
		if (out->values) {
			rc = err_set(err, -EINVAL,
				     "line %zu: a second row (one expected)",
				     tl.lineno);
			goto fail;
		}
		if (n == SIZE_MAX || n != out->ncols || !tl.complete) {
			rc = err_set(err, -EINVAL,
				     "line %zu: row cut short or malformed "
				     "(%zu columns in the header)",
				     tl.lineno, out->ncols);
			goto fail;
		}
		out->values = pgstats_copy(fld, n);
		if (!out->values)
			goto nomem;
	}
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA, "empty file");
		goto fail;
	}
	if (!out->values) {
		rc = err_set(err, -ENODATA, "a header and no row");
		goto fail;
	}
	textline_free(&tl);
	return 0;
nomem:
	rc = err_set(err, -ENOMEM, "line %zu: out of memory", tl.lineno);
fail:
	textline_free(&tl);
	parse_pgstats_snapshot_free(out);
	return rc;
}

/* parse_pgstats_snapshot() with the out textline_parse_file() hands on. */
static int pgstats_snapshot_stream(FILE *f, void *out, struct err *err)
{
	return parse_pgstats_snapshot(f, out, err);
}

int parse_pgstats_snapshot_file(const char *path, struct pgstats_snapshot *out,
				struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, pgstats_snapshot_stream, out, err);
}

int parse_pgstats_snapshot_column(const struct pgstats_snapshot *s,
				  const char *name)
{
	size_t i;

	for (i = 0; i < s->ncols; i++)
		if (strcmp(s->names[i], name) == 0)
			return (int)i;
	return -1;
}

bool parse_pgstats_snapshot_value(const struct pgstats_snapshot *s, int col,
				  double *v)
{
	const char *field;
	char *end;

	if (col < 0 || (size_t)col >= s->ncols || !s->values)
		return false;
	field = s->values[col];
	if (!field[0])
		return false;
	errno = 0;
	*v = strtod(field, &end);
	return errno == 0 && *end == '\0' && isfinite(*v);
}

void parse_pgstats_snapshot_free(struct pgstats_snapshot *s)
{
	size_t i;

	for (i = 0; i < s->ncols; i++) {
		free(s->names ? s->names[i] : NULL);
		free(s->values ? s->values[i] : NULL);
	}
	free(s->names);
	free(s->values);
	memset(s, 0, sizeof(*s));
}
