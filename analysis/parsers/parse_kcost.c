/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_kcost.c - the kernel-cost hook's CSV snapshots (per query id:
 * counters and the query's text; the wait profile per query id and
 * event), and the mapping of a query's text to its transaction type (see
 * parse_kcost.h). Lines are split with parse_pgstats_split(), the one
 * reader of psql's CSV.
 */
#include "analysis/parsers/parse_kcost.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/parsers/parse_pgstats.h"
#include "analysis/parsers/textline.h"

#define KC_COLS_MAX 32 /* fields of a line we look at; more is bad */

/*
 * Find each of names[0..n) in the header fields fld[0..nf): col[k] its
 * position. false when one is missing or named twice.
 */
static bool kc_header(char **fld, size_t nf, const char *const *names, size_t n,
		      size_t *col)
{
	size_t i, k;

	for (k = 0; k < n; k++)
		col[k] = SIZE_MAX;
	for (i = 0; i < nf; i++)
		for (k = 0; k < n; k++)
			if (strcmp(fld[i], names[k]) == 0) {
				if (col[k] != SIZE_MAX)
					return false;
				col[k] = i;
			}
	for (k = 0; k < n; k++)
		if (col[k] == SIZE_MAX)
			return false;
	return true;
}

/* A query id: a decimal int64, maybe negative, nothing else. */
static bool kc_queryid(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* Copy s into a buffer of size bytes, cut if needed. */
static void kc_copy(char *dst, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Grow an array of elem-byte items to hold one more; -ENOMEM. */
static int kc_grow(void **v, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*v, ncap * elem);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}

/* What one reader of the two files needs to know. */
struct kc_format {
	const char *what;	  /* for messages */
	const char *const *names; /* the columns it needs */
	size_t ncols;		  /* how many */
	/* one data row (fields by column) into the output: 1 kept, 0 bad,
	   -ENOMEM */
	int (*row)(void *out, char **fld, const size_t *col);
	char *ts;	   /* the output's ts buffer (KCOST_TS_MAX) */
	size_t *bad;	   /* the output's bad_lines */
	size_t ts_col_idx; /* index of "ts" in names */
};

/* Read f with format fmt: header, then rows. See parse_kcost(). */
static int kc_read(FILE *f, const struct kc_format *fmt, void *out,
		   struct err *err)
{
	struct textline tl = {0};
	char *fld[KC_COLS_MAX];
	size_t col[KC_COLS_MAX], nf, i;
	bool have_header = false;
	int rc;

	while ((rc = textline_read(&tl, f, err)) == 1) {
		if (!have_header) {
			nf = textline_has_nul(&tl)
				     ? SIZE_MAX
				     : parse_pgstats_split(tl.line, fld,
							   KC_COLS_MAX);
			if (nf == SIZE_MAX ||
			    !kc_header(fld, nf, fmt->names, fmt->ncols, col)) {
				rc = err_set(err, -EINVAL,
					     "line %zu: not the header of %s",
					     tl.lineno, fmt->what);
				goto out;
			}
			have_header = true;
			continue;
		}
		if (!tl.complete || textline_has_nul(&tl)) {
			(*fmt->bad)++;
			continue;
		}
		nf = parse_pgstats_split(tl.line, fld, KC_COLS_MAX);
		if (nf == SIZE_MAX)
			goto bad;
		for (i = 0; i < fmt->ncols; i++)
			if (col[i] >= nf)
				goto bad;
		rc = fmt->row(out, fld, col);
		if (rc < 0) {
			err_set(err, rc, "%s: out of memory", fmt->what);
			goto out;
		}
		if (rc == 0)
			goto bad;
		if (!fmt->ts[0])
			kc_copy(fmt->ts, KCOST_TS_MAX,
				fld[col[fmt->ts_col_idx]]);
		continue;
	bad:
		(*fmt->bad)++;
	}
	if (rc < 0)
		goto out;
	rc = have_header ? 0
			 : err_set(err, -ENODATA, "%s: empty file", fmt->what);
out:
	textline_free(&tl);
	return rc;
}

/* --- kcost.*.csv */

/* Columns: the counters in enum order, then these. */
enum { KC_QUERYID = KCOST_COUNTER_NR, KC_QUERY, KC_TS, KC_NR };

static const char *const kc_names[KC_NR] = {
	[KCOST_CALLS] = "calls",
	[KCOST_TIME_MS] = "time_ms",
	[KCOST_USER_S] = "user_s",
	[KCOST_SYSTEM_S] = "system_s",
	[KCOST_READS_BYTES] = "reads_bytes",
	[KCOST_WRITES_BYTES] = "writes_bytes",
	[KCOST_MINFLTS] = "minflts",
	[KCOST_MAJFLTS] = "majflts",
	[KCOST_NVCSWS] = "nvcsws",
	[KCOST_NIVCSWS] = "nivcsws",
	[KC_QUERYID] = "queryid",
	[KC_QUERY] = "query",
	[KC_TS] = "ts",
};

const char *parse_kcost_counter_name(enum kcost_counter c)
{
	return (unsigned)c < KCOST_COUNTER_NR ? kc_names[c] : NULL;
}

static int kc_query_row(void *out, char **fld, const size_t *col)
{
	struct kcost_snapshot *s = out;
	struct kcost_query q;
	int k;

	memset(&q, 0, sizeof(q));
	if (!kc_queryid(fld[col[KC_QUERYID]], &q.queryid))
		return 0;
	for (k = 0; k < KCOST_COUNTER_NR; k++)
		if (!textline_decimal(fld[col[k]], false, &q.v[k]))
			return 0;
	kc_copy(q.query, sizeof(q.query), fld[col[KC_QUERY]]);
	if (kc_grow((void **)&s->q, &s->cap, s->n, sizeof(*s->q)) < 0)
		return -ENOMEM;
	s->q[s->n++] = q;
	return 1;
}

int parse_kcost(FILE *f, struct kcost_snapshot *out, struct err *err)
{
	struct kc_format fmt = {
		.what = "kcost snapshot",
		.names = kc_names,
		.ncols = KC_NR,
		.row = kc_query_row,
		.ts = out->ts,
		.bad = &out->bad_lines,
		.ts_col_idx = KC_TS,
	};
	int rc;

	memset(out, 0, sizeof(*out));
	rc = kc_read(f, &fmt, out, err);
	if (rc < 0)
		parse_kcost_free(out);
	return rc;
}

static int kc_parse_any(FILE *f, void *out, struct err *err)
{
	return parse_kcost(f, out, err);
}

int parse_kcost_file(const char *path, struct kcost_snapshot *out,
		     struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, kc_parse_any, out, err);
}

void parse_kcost_free(struct kcost_snapshot *s)
{
	free(s->q);
	memset(s, 0, sizeof(*s));
}

/* --- kcost_waits.*.csv */

enum { KW_TS, KW_QUERYID, KW_TYPE, KW_EVENT, KW_COUNT, KW_NR };

static const char *const kw_names[KW_NR] = {
	[KW_TS] = "ts",		  [KW_QUERYID] = "queryid",
	[KW_TYPE] = "event_type", [KW_EVENT] = "event",
	[KW_COUNT] = "count",
};

static int kc_wait_row(void *out, char **fld, const size_t *col)
{
	struct kcost_waits *w = out;
	struct kcost_wait x;

	memset(&x, 0, sizeof(x));
	if (!kc_queryid(fld[col[KW_QUERYID]], &x.queryid) ||
	    !textline_decimal(fld[col[KW_COUNT]], false, &x.count))
		return 0;
	kc_copy(x.type, sizeof(x.type), fld[col[KW_TYPE]]);
	kc_copy(x.event, sizeof(x.event), fld[col[KW_EVENT]]);
	if (kc_grow((void **)&w->w, &w->cap, w->n, sizeof(*w->w)) < 0)
		return -ENOMEM;
	w->w[w->n++] = x;
	return 1;
}

int parse_kcost_waits(FILE *f, struct kcost_waits *out, struct err *err)
{
	struct kc_format fmt = {
		.what = "kcost wait profile",
		.names = kw_names,
		.ncols = KW_NR,
		.row = kc_wait_row,
		.ts = out->ts,
		.bad = &out->bad_lines,
		.ts_col_idx = KW_TS,
	};
	int rc;

	memset(out, 0, sizeof(*out));
	rc = kc_read(f, &fmt, out, err);
	if (rc < 0)
		parse_kcost_waits_free(out);
	return rc;
}

static int kw_parse_any(FILE *f, void *out, struct err *err)
{
	return parse_kcost_waits(f, out, err);
}

int parse_kcost_waits_file(const char *path, struct kcost_waits *out,
			   struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, kw_parse_any, out, err);
}

void parse_kcost_waits_free(struct kcost_waits *w)
{
	free(w->w);
	memset(w, 0, sizeof(*w));
}

/* --- kcost_procs.*.csv */

enum {
	KP_TS,
	KP_PID,
	KP_PPID,
	KP_START,
	KP_HZ,
	KP_UTIME,
	KP_STIME,
	KP_CUTIME,
	KP_CSTIME,
	KP_BTYPE,
	KP_APP,
	KP_NR
};

static const char *const kp_names[KP_NR] = {
	[KP_TS] = "ts",
	[KP_PID] = "pid",
	[KP_PPID] = "ppid",
	[KP_START] = "starttime",
	[KP_HZ] = "hz",
	[KP_UTIME] = "utime",
	[KP_STIME] = "stime",
	[KP_CUTIME] = "cutime",
	[KP_CSTIME] = "cstime",
	[KP_BTYPE] = "backend_type",
	[KP_APP] = "application_name",
};

/* A process id: 1 .. INT_MAX, decimal. */
static bool kc_pid(const char *s, int *out)
{
	int64_t v;

	if (!kc_queryid(s, &v) || v <= 0 || v > INT32_MAX)
		return false;
	*out = (int)v;
	return true;
}

/* A count of clock ticks: decimal digits only, within 64 bits. */
static bool kc_ticks(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static int kc_proc_row(void *out, char **fld, const size_t *col)
{
	struct kcost_procs *ps = out;
	struct kcost_proc x;
	double hz, t[4];
	int k;

	memset(&x, 0, sizeof(x));
	if (!kc_pid(fld[col[KP_PID]], &x.pid) ||
	    !kc_pid(fld[col[KP_PPID]], &x.ppid) ||
	    !kc_ticks(fld[col[KP_START]], &x.starttime) ||
	    !textline_decimal(fld[col[KP_HZ]], false, &hz) || hz < 1)
		return 0;
	for (k = 0; k < 4; k++)
		if (!textline_decimal(fld[col[KP_UTIME + k]], false, &t[k]))
			return 0;
	x.user_s = t[0] / hz;
	x.system_s = t[1] / hz;
	x.child_s = (t[2] + t[3]) / hz;
	kc_copy(x.backend_type, sizeof(x.backend_type), fld[col[KP_BTYPE]]);
	kc_copy(x.app, sizeof(x.app), fld[col[KP_APP]]);
	if (kc_grow((void **)&ps->p, &ps->cap, ps->n, sizeof(*ps->p)) < 0)
		return -ENOMEM;
	ps->p[ps->n++] = x;
	return 1;
}

int parse_kcost_procs(FILE *f, struct kcost_procs *out, struct err *err)
{
	struct kc_format fmt = {
		.what = "kcost process CPU",
		.names = kp_names,
		.ncols = KP_NR,
		.row = kc_proc_row,
		.ts = out->ts,
		.bad = &out->bad_lines,
		.ts_col_idx = KP_TS,
	};
	int rc;

	memset(out, 0, sizeof(*out));
	rc = kc_read(f, &fmt, out, err);
	if (rc < 0)
		parse_kcost_procs_free(out);
	return rc;
}

static int kp_parse_any(FILE *f, void *out, struct err *err)
{
	return parse_kcost_procs(f, out, err);
}

int parse_kcost_procs_file(const char *path, struct kcost_procs *out,
			   struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, kp_parse_any, out, err);
}

void parse_kcost_procs_free(struct kcost_procs *p)
{
	free(p->p);
	memset(p, 0, sizeof(*p));
}

/* --- query text to type */

/* If s starts with word (any case) followed by a non-identifier
   character or the end, the rest after it; else NULL. */
static const char *kc_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	if (strncasecmp(s, word, n) != 0)
		return NULL;
	s += n;
	if (isalnum((unsigned char)*s) || *s == '_')
		return NULL;
	return s;
}

static const char *kc_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The TXN_* whose mix.csv name starts s and is followed by end, or -1. */
static int kc_type_name(const char *s, const char *end)
{
	int t;

	for (t = 0; t < TXN_NR; t++) {
		const char *name = txn_type_name(t);
		size_t n = strlen(name);

		if (strncmp(s, name, n) == 0 &&
		    strncmp(s + n, end, strlen(end)) == 0)
			return t;
	}
	return -1;
}

int parse_kcost_type(const char *query)
{
	static const char tag[] = "/* oltpmark ";
	const char *p = kc_blanks(query), *r;
	int t;

	if (strncmp(p, tag, sizeof(tag) - 1) == 0) {
		t = kc_type_name(p + sizeof(tag) - 1, " */");
		return t >= 0 ? t : KCOST_TYPE_OTHER;
	}
	if (kc_word(p, "BEGIN") || kc_word(p, "COMMIT") ||
	    kc_word(p, "ROLLBACK"))
		return KCOST_TYPE_CONTROL;
	/* "SELECT * FROM name(" or "SELECT name(" */
	r = kc_word(p, "SELECT");
	if (!r)
		return KCOST_TYPE_OTHER;
	r = kc_blanks(r);
	if (*r == '*') {
		r = kc_word(kc_blanks(r + 1), "FROM");
		if (!r)
			return KCOST_TYPE_OTHER;
		r = kc_blanks(r);
	}
	t = kc_type_name(r, "(");
	return t >= 0 ? t : KCOST_TYPE_OTHER;
}

const char *parse_kcost_type_key(int type)
{
	if (type >= 0 && type < TXN_NR)
		return txn_type_name(type);
	if (type == KCOST_TYPE_CONTROL)
		return "control";
	if (type == KCOST_TYPE_OTHER)
		return "other";
	return NULL;
}
