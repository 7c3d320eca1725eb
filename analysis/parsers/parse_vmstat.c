/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_vmstat.c - vmstat output to a series of samples (see
 * parse_vmstat.h for what is accepted and why the first line is dropped).
 *
 * One pass over the lines: group-header lines ("procs ---memory---") are
 * skipped, the first column-header line fixes the columns, the first data
 * line after it fixes the layout (with or without a zone name and a
 * trailing date and time) and is dropped as the since-boot average.
 */
#include "analysis/parsers/parse_vmstat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/parsers/textline.h"

#define VMSTAT_TOKENS_MAX 64 /* more fields than this is not vmstat */

/* What parse_vmstat keeps between lines. */
struct vmstat_state {
	char hdr[VMSTAT_COLS_MAX + 1][VMSTAT_NAME_MAX]; /* column header */
	size_t nhdr;	      /* tokens in hdr; 0 until the header is seen */
	bool layout_known;    /* the first data line fixed the layout */
	size_t ntok_data;     /* tokens a data line has */
	bool since_boot_done; /* the since-boot line was consumed */
};

/* "YYYY-MM-DD" and "HH:MM:SS" into tm; false if either is malformed. */
static bool vmstat_date_time(const char *date, const char *clock, struct tm *tm)
{
	int y, mo, d, h, mi, s, n1 = 0, n2 = 0;

	if (sscanf(date, "%4d-%2d-%2d%n", &y, &mo, &d, &n1) != 3 ||
	    date[n1] != '\0')
		return false;
	if (sscanf(clock, "%2d:%2d:%2d%n", &h, &mi, &s, &n2) != 3 ||
	    clock[n2] != '\0')
		return false;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 ||
	    h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60)
		return false;
	memset(tm, 0, sizeof(*tm));
	tm->tm_year = y - 1900;
	tm->tm_mon = mo - 1;
	tm->tm_mday = d;
	tm->tm_hour = h;
	tm->tm_min = mi;
	tm->tm_sec = s;
	tm->tm_isdst = -1;
	return true;
}

/* Is this a group-header line such as "procs -----memory---- ..."? */
static bool vmstat_is_group_header(char **tok, size_t ntok)
{
	return ntok > 0 && strstr(tok[0], "procs") != NULL;
}

/* Does tok hold a column header: names only, with at least r and cs? */
static bool vmstat_is_header(char **tok, size_t ntok)
{
	bool has_r = false, has_cs = false;
	size_t i, j;
	double v;

	if (ntok < 2 || ntok > VMSTAT_COLS_MAX + 1)
		return false;
	for (i = 0; i < ntok; i++) {
		if (strlen(tok[i]) >= VMSTAT_NAME_MAX ||
		    textline_decimal(tok[i], true, &v))
			return false;
		for (j = 0; j < i; j++)
			if (strcmp(tok[i], tok[j]) == 0)
				return false;
		has_r |= strcmp(tok[i], "r") == 0;
		has_cs |= strcmp(tok[i], "cs") == 0;
	}
	return has_r && has_cs;
}

/* Is tok the header already stored? */
static bool vmstat_same_header(const struct vmstat_state *st, char **tok,
			       size_t ntok)
{
	size_t i;

	if (ntok != st->nhdr)
		return false;
	for (i = 0; i < ntok; i++)
		if (strcmp(tok[i], st->hdr[i]) != 0)
			return false;
	return true;
}

/*
 * Fix the layout from the first data line: the same count as the header
 * (no time), one more (-t: the header's last word is the zone, the line
 * ends in date and time) or two more (-t with no zone name printed).
 */
static bool vmstat_layout(struct vmstat_state *st, struct vmstat_series *s,
			  char **tok, size_t ntok)
{
	struct tm tm;
	size_t i, ncols;
	bool has_time = false;

	if (ntok == st->nhdr) {
		ncols = st->nhdr;
	} else if (ntok >= 3 &&
		   (ntok == st->nhdr + 1 || ntok == st->nhdr + 2) &&
		   vmstat_date_time(tok[ntok - 2], tok[ntok - 1], &tm)) {
		has_time = true;
		ncols = ntok - 2;
	} else {
		return false;
	}
	if (ncols == 0 || ncols > VMSTAT_COLS_MAX)
		return false;
	s->ncols = ncols;
	for (i = 0; i < ncols; i++)
		memcpy(s->cols[i], st->hdr[i], VMSTAT_NAME_MAX);
	s->has_time = has_time;
	if (has_time && ntok == st->nhdr + 1)
		memcpy(s->tz, st->hdr[st->nhdr - 1], VMSTAT_NAME_MAX);
	s->tz_utc = strcmp(s->tz, "UTC") == 0 || strcmp(s->tz, "GMT") == 0 ||
		    strcmp(s->tz, "UCT") == 0;
	st->ntok_data = ntok;
	st->layout_known = true;
	return true;
}

/* Room for one more sample. */
static int vmstat_grow(struct vmstat_series *s)
{
	size_t cap;
	double *v;
	int64_t *t;

	if (s->nsamples < s->cap)
		return 0;
	cap = s->cap ? s->cap * 2 : 64;
	v = reallocarray(s->values, cap, s->ncols * sizeof(double));
	if (!v)
		return -ENOMEM;
	s->values = v;
	if (s->has_time) {
		t = reallocarray(s->time_s, cap, sizeof(int64_t));
		if (!t)
			return -ENOMEM;
		s->time_s = t;
	}
	s->cap = cap;
	return 0;
}

/*
 * One data line: 1 when stored, 0 when dropped as bad (counted) or as
 * the since-boot line, or a negative errno.
 */
static int vmstat_data(struct vmstat_state *st, struct vmstat_series *s,
		       char **tok, size_t ntok)
{
	double row[VMSTAT_COLS_MAX];
	bool first = !st->since_boot_done;
	struct tm tm;
	time_t t = 0;
	size_t i;
	int rc;

	st->since_boot_done = true;
	if (!st->layout_known && !vmstat_layout(st, s, tok, ntok))
		goto bad;
	if (ntok != st->ntok_data)
		goto bad;
	for (i = 0; i < s->ncols; i++)
		if (!textline_decimal(tok[i], true, &row[i]))
			goto bad;
	if (s->has_time) {
		if (!vmstat_date_time(tok[ntok - 2], tok[ntok - 1], &tm))
			goto bad;
		t = s->tz_utc ? timegm(&tm) : mktime(&tm);
		if (t == (time_t)-1)
			goto bad;
	}
	if (first)
		return 0;
	rc = vmstat_grow(s);
	if (rc)
		return rc;
	memcpy(s->values + s->nsamples * s->ncols, row,
	       s->ncols * sizeof(double));
	if (s->has_time)
		s->time_s[s->nsamples] = (int64_t)t;
	s->nsamples++;
	return 1;
bad:
	s->bad_lines++;
	return 0;
}

int parse_vmstat(FILE *f, struct vmstat_series *out, struct err *err)
{
	struct textline tl = {0};
	struct vmstat_state st = {.nhdr = 0};
	char *tok[VMSTAT_TOKENS_MAX];
	size_t nonblank = 0, i, ntok;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (textline_has_nul(&tl)) {
			nonblank++;
			out->bad_lines++;
			continue;
		}
		ntok = textline_split(tl.line, tok, VMSTAT_TOKENS_MAX);
		if (ntok == 0)
			continue;
		nonblank++;
		if (!tl.complete || ntok == SIZE_MAX) {
			out->bad_lines++;
			continue;
		}
		if (vmstat_is_group_header(tok, ntok))
			continue;
		if (st.nhdr == 0) {
			if (!vmstat_is_header(tok, ntok)) {
				out->bad_lines++;
				continue;
			}
			for (i = 0; i < ntok; i++)
				strcpy(st.hdr[i], tok[i]);
			st.nhdr = ntok;
			out->headers++;
			continue;
		}
		if (vmstat_same_header(&st, tok, ntok)) {
			out->headers++;
			continue;
		}
		rc = vmstat_data(&st, out, tok, ntok);
		if (rc < 0) {
			err_set(err, rc, "line %zu: out of memory", tl.lineno);
			goto fail;
		}
	}
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA, "empty vmstat output");
		goto fail;
	}
	if (st.nhdr == 0) {
		rc = err_set(err, -EINVAL,
			     "no vmstat header line (one naming r ... cs)");
		goto fail;
	}
	if (out->nsamples == 0) {
		rc = err_set(
			err, -ENODATA,
			"no vmstat sample after the since-boot line (%zu bad lines)",
			out->bad_lines);
		goto fail;
	}
	textline_free(&tl);
	return 0;
fail:
	textline_free(&tl);
	parse_vmstat_free(out);
	return rc;
}

/* parse_vmstat() with the out that textline_parse_file() hands on. */
static int vmstat_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_vmstat(f, out, err);
}

int parse_vmstat_file(const char *path, struct vmstat_series *out,
		      struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, vmstat_parse_stream, out, err);
}

void parse_vmstat_free(struct vmstat_series *s)
{
	free(s->values);
	free(s->time_s);
	memset(s, 0, sizeof(*s));
}

int parse_vmstat_column(const struct vmstat_series *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ncols; i++)
		if (strcmp(s->cols[i], name) == 0)
			return (int)i;
	return -1;
}

double parse_vmstat_value(const struct vmstat_series *s, size_t i, int col)
{
	if (col < 0 || (size_t)col >= s->ncols || i >= s->nsamples)
		return NAN;
	return s->values[i * s->ncols + (size_t)col];
}

int parse_vmstat_mean(const struct vmstat_series *s, int col, size_t first,
		      size_t count, double *mean, struct err *err)
{
	double sum = 0;
	size_t i;

	if (col < 0 || (size_t)col >= s->ncols)
		return err_set(err, -EINVAL, "no vmstat column %d", col);
	if (count == 0 || first >= s->nsamples || count > s->nsamples - first)
		return err_set(
			err, -EINVAL,
			"samples %zu..+%zu outside the %zu vmstat samples",
			first, count, s->nsamples);
	for (i = first; i < first + count; i++)
		sum += s->values[i * s->ncols + (size_t)col];
	*mean = sum / (double)count;
	return 0;
}
