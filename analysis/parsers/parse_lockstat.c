/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_lockstat.c - /proc/lock_stat to a list of lock classes with their
 * contention points (see parse_lockstat.h for the layout).
 *
 * A class line is recognised from its end: as many numbers as the header
 * has columns, preceded by "name:". Class names can hold any character
 * but blanks at the ends, so the name is cut from an untouched copy of
 * the line, not rebuilt from tokens.
 */
#include "analysis/parsers/parse_lockstat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/symbols.h"
#include "analysis/parsers/textline.h"

#define LOCKSTAT_TOKENS_MAX 64 /* 13 in version 0.4 */

static const char *const lockstat_cols[LS_NR] = {
	[LS_CON_BOUNCES] = "con-bounces",
	[LS_CONTENTIONS] = "contentions",
	[LS_WAITTIME_MIN] = "waittime-min",
	[LS_WAITTIME_MAX] = "waittime-max",
	[LS_WAITTIME_TOTAL] = "waittime-total",
	[LS_WAITTIME_AVG] = "waittime-avg",
	[LS_ACQ_BOUNCES] = "acq-bounces",
	[LS_ACQUISITIONS] = "acquisitions",
	[LS_HOLDTIME_MIN] = "holdtime-min",
	[LS_HOLDTIME_MAX] = "holdtime-max",
	[LS_HOLDTIME_TOTAL] = "holdtime-total",
	[LS_HOLDTIME_AVG] = "holdtime-avg",
};

/* Parser state between lines. */
struct lockstat_state {
	size_t ncols; /* numeric columns in the header; 0 before it */
	int col[LOCKSTAT_TOKENS_MAX]; /* header position -> enum, -1 unknown */
	int rules;		      /* dashed rules since the class line */
	bool in_class; /* a class line came and no dotted rule yet */
};

/* Is the (single-token) line made of c only, as rules are? */
static bool lockstat_rule(char **tok, size_t ntok, char c)
{
	const char *p;

	if (ntok != 1)
		return false;
	for (p = tok[0]; *p; p++)
		if (*p != c)
			return false;
	return true;
}

/* Copy of copy[from, to) without blanks at either end; NULL on ENOMEM. */
static char *lockstat_trimmed(const char *copy, size_t from, size_t to)
{
	while (from < to && (copy[from] == ' ' || copy[from] == '\t'))
		from++;
	while (to > from && (copy[to - 1] == ' ' || copy[to - 1] == '\t' ||
			     copy[to - 1] == '\r'))
		to--;
	return strndup(copy + from, to - from);
}

/* The column header: fill st->col; 1 if it is one, 0 if not. */
static int lockstat_header(struct lockstat_state *st, struct lockstat_data *d,
			   char **tok, size_t ntok)
{
	size_t i, k, first = 2;
	bool contentions = false;

	if (ntok < 3 || strcmp(tok[0], "class") != 0 ||
	    strcmp(tok[1], "name") != 0 || ntok - 2 > LOCKSTAT_TOKENS_MAX)
		return 0;
	for (i = first; i < ntok; i++) {
		st->col[i - first] = -1;
		for (k = 0; k < LS_NR; k++)
			if (strcmp(tok[i], lockstat_cols[k]) == 0) {
				st->col[i - first] = (int)k;
				d->has_col[k] = true;
				contentions |= k == LS_CONTENTIONS;
			}
	}
	if (!contentions) {
		memset(d->has_col, 0, sizeof(d->has_col));
		return 0;
	}
	st->ncols = ntok - first;
	return 1;
}

static int lockstat_add_class(struct lockstat_data *d,
			      const struct lockstat_class *c)
{
	struct lockstat_class *nc;
	size_t cap;

	if (d->n == d->cap) {
		cap = d->cap ? d->cap * 2 : 64;
		nc = reallocarray(d->classes, cap, sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		d->classes = nc;
		d->cap = cap;
	}
	d->classes[d->n++] = *c;
	return 0;
}

/* A class line: 0 stored, 1 not a class line, or -ENOMEM. */
static int lockstat_class_line(struct lockstat_state *st,
			       struct lockstat_data *d, const char *copy,
			       const char *line, char **tok, size_t ntok)
{
	struct lockstat_class c = {.kind = LOCKSTAT_EXCL};
	size_t i, first, name_end, len;
	double v;

	if (ntok < st->ncols + 1)
		return 1;
	first = ntok - st->ncols;
	for (i = 0; i < LS_NR; i++)
		c.v[i] = NAN;
	for (i = first; i < ntok; i++) {
		if (!textline_decimal(tok[i], false, &v))
			return 1;
		if (st->col[i - first] >= 0)
			c.v[st->col[i - first]] = v;
	}
	name_end = (size_t)(tok[first] - line);
	c.name = lockstat_trimmed(copy, 0, name_end);
	if (!c.name)
		return -ENOMEM;
	len = strlen(c.name);
	if (len < 2 || c.name[len - 1] != ':') {
		free(c.name);
		return 1;
	}
	c.name[--len] = '\0';
	if (len > 2 && c.name[len - 2] == '-' &&
	    (c.name[len - 1] == 'W' || c.name[len - 1] == 'R')) {
		c.kind =
			c.name[len - 1] == 'W' ? LOCKSTAT_WRITE : LOCKSTAT_READ;
		c.name[len - 2] = '\0';
	}
	c.is_storage_lock = parse_lockstat_is_storage_lock(c.name);
	if (lockstat_add_class(d, &c)) {
		free(c.name);
		return -ENOMEM;
	}
	return 0;
}

/* A point line: 0 stored, 1 not a point line, or -ENOMEM. */
static int lockstat_point_line(struct lockstat_state *st,
			       struct lockstat_data *d, const char *copy,
			       const char *line, char **tok, size_t ntok)
{
	struct lockstat_class *c;
	struct lockstat_point pt = {.count = 0}, *np;
	size_t i, ip = 0, ip_end, len, func_len;
	char *plus;
	double v;

	if (!st->in_class || st->rules < 1 || st->rules > 2 || d->n == 0)
		return 1;
	for (i = 2; i < ntok && !ip; i++) {
		len = strlen(tok[i]);
		if (len >= 4 && strncmp(tok[i], "[<", 2) == 0 &&
		    strcmp(tok[i] + len - 2, ">]") == 0)
			ip = i;
	}
	if (!ip || ip + 1 >= ntok ||
	    !textline_decimal(tok[ip - 1], false, &v) ||
	    strchr(tok[ip - 1], '.') || v > 9007199254740992.0)
		return 1;
	pt.count = (uint64_t)v;
	pt.contending = st->rules == 2;
	ip_end = (size_t)(tok[ip] - line) + strlen(tok[ip]);
	pt.symbol = lockstat_trimmed(copy, ip_end, strlen(copy));
	if (!pt.symbol)
		return -ENOMEM;
	plus = strchr(pt.symbol, '+');
	func_len = plus ? (size_t)(plus - pt.symbol) : strcspn(pt.symbol, " ");
	pt.func = strndup(pt.symbol, symbols_base_len(pt.symbol, func_len));
	if (!pt.func)
		goto nomem;
	c = &d->classes[d->n - 1];
	np = reallocarray(c->points, c->npoints + 1, sizeof(*np));
	if (!np)
		goto nomem;
	c->points = np;
	c->points[c->npoints++] = pt;
	return 0;
nomem:
	free(pt.symbol);
	free(pt.func);
	return -ENOMEM;
}

int parse_lockstat(FILE *f, struct lockstat_data *out, struct err *err)
{
	struct textline tl = {0};
	struct lockstat_state st = {.ncols = 0};
	char *tok[LOCKSTAT_TOKENS_MAX + 2];
	char *copy = NULL;
	size_t nonblank = 0, ntok;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		char *line = tl.line;

		if (textline_has_nul(&tl)) {
			nonblank++;
			out->bad_lines++;
			continue;
		}
		if (strncmp(line + strspn(line, " \t"), "*WARNING*", 9) == 0) {
			rc = err_set(
				err, -EINVAL,
				"line %zu: the kernel says lock debugging was disabled: lock_stat data not valid",
				tl.lineno);
			goto fail;
		}
		free(copy);
		copy = strdup(line);
		if (!copy)
			goto nomem;
		ntok = textline_split(line, tok, LOCKSTAT_TOKENS_MAX + 2);
		if (ntok == 0)
			continue;
		nonblank++;
		if (!tl.complete || ntok == SIZE_MAX) {
			out->bad_lines++;
			continue;
		}
		if (ntok == 3 && strcmp(tok[0], "lock_stat") == 0 &&
		    strcmp(tok[1], "version") == 0) {
			snprintf(out->version, sizeof(out->version), "%s",
				 tok[2]);
			continue;
		}
		if (st.ncols == 0) {
			if (!lockstat_header(&st, out, tok, ntok) &&
			    !lockstat_rule(tok, ntok, '-'))
				out->bad_lines++;
			continue;
		}
		if (lockstat_rule(tok, ntok, '.')) {
			st.in_class = false;
			continue;
		}
		if (lockstat_rule(tok, ntok, '-')) {
			st.rules++;
			continue;
		}
		rc = lockstat_class_line(&st, out, copy, line, tok, ntok);
		if (rc == 0) {
			st.in_class = true;
			st.rules = 0;
			continue;
		}
		if (rc == 1)
			rc = lockstat_point_line(&st, out, copy, line, tok,
						 ntok);
		if (rc < 0)
			goto nomem;
		if (rc == 1)
			out->bad_lines++;
		rc = 0;
	}
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA, "empty lock_stat");
		goto fail;
	}
	if (st.ncols == 0) {
		rc = err_set(
			err, -EINVAL,
			"no \"class name ... contentions ...\" header: not /proc/lock_stat");
		goto fail;
	}
	textline_free(&tl);
	free(copy);
	return 0;
nomem:
	rc = err_set(err, -ENOMEM, "line %zu: out of memory", tl.lineno);
fail:
	textline_free(&tl);
	free(copy);
	parse_lockstat_free(out);
	return rc;
}

/* parse_lockstat() with the out that textline_parse_file() hands on. */
static int lockstat_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_lockstat(f, out, err);
}

int parse_lockstat_file(const char *path, struct lockstat_data *out,
			struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, lockstat_parse_stream, out, err);
}

void parse_lockstat_free(struct lockstat_data *d)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		for (k = 0; k < d->classes[i].npoints; k++) {
			free(d->classes[i].points[k].symbol);
			free(d->classes[i].points[k].func);
		}
		free(d->classes[i].points);
		free(d->classes[i].name);
	}
	free(d->classes);
	memset(d, 0, sizeof(*d));
}

bool parse_lockstat_is_storage_lock(const char *name)
{
	return strstr(name, "host_lock") || strstr(name, "&q->queue_lock") ||
	       strstr(name, "&hctx->lock");
}

const struct lockstat_class *parse_lockstat_find(const struct lockstat_data *d,
						 const char *name,
						 enum lockstat_kind kind)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->classes[i].kind == kind &&
		    strcmp(d->classes[i].name, name) == 0)
			return &d->classes[i];
	return NULL;
}

/* qsort_r comparator; arg points to the column to sort by. */
static int lockstat_cmp(const void *pa, const void *pb, void *arg)
{
	const struct lockstat_class *a = pa, *b = pb;
	enum lockstat_col col = *(const enum lockstat_col *)arg;
	double x = a->v[col], y = b->v[col];

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return x > y ? -1 : 1;
	if (strcmp(a->name, b->name) != 0)
		return strcmp(a->name, b->name);
	return (int)a->kind - (int)b->kind;
}

void parse_lockstat_sort(struct lockstat_data *d, enum lockstat_col col)
{
	if ((int)col < 0 || col >= LS_NR || d->n < 2)
		return;
	qsort_r(d->classes, d->n, sizeof(*d->classes), lockstat_cmp, &col);
}

const char *parse_lockstat_col_name(enum lockstat_col col)
{
	if ((int)col < 0 || col >= LS_NR)
		return NULL;
	return lockstat_cols[col];
}
