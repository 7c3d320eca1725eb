/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_diskstats.c - /proc/diskstats snapshots, deltas and iostat-like
 * rates (see parse_diskstats.h for the layouts and the counter rules).
 */
#include "analysis/parsers/parse_diskstats.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/textline.h"

#define DISKSTATS_TOKENS_MAX 24 /* 20 fields today */

static const char *const diskstats_names[DS_NR] = {
	[DS_READS] = "reads",
	[DS_READS_MERGED] = "reads_merged",
	[DS_SECTORS_READ] = "sectors_read",
	[DS_READ_MS] = "read_ms",
	[DS_WRITES] = "writes",
	[DS_WRITES_MERGED] = "writes_merged",
	[DS_SECTORS_WRITTEN] = "sectors_written",
	[DS_WRITE_MS] = "write_ms",
	[DS_IN_FLIGHT] = "in_flight",
	[DS_IO_TICKS_MS] = "io_ticks_ms",
	[DS_TIME_IN_QUEUE_MS] = "time_in_queue_ms",
	[DS_DISCARDS] = "discards",
	[DS_DISCARDS_MERGED] = "discards_merged",
	[DS_SECTORS_DISCARDED] = "sectors_discarded",
	[DS_DISCARD_MS] = "discard_ms",
	[DS_FLUSHES] = "flushes",
	[DS_FLUSH_MS] = "flush_ms",
};

/* One line: 1 when stored, 0 when bad, or -ENOMEM. */
static int diskstats_line(struct diskstats_snapshot *s, char **tok, size_t ntok)
{
	struct diskstats_dev d = {.major = 0};
	struct diskstats_dev *nd;
	uint64_t major, minor;
	size_t i, cap;

	if (ntok != 14 && ntok != 18 && ntok != 20)
		return 0;
	d.nfields = ntok - 3;
	if (!textline_uint(tok[0], 10, &major) ||
	    !textline_uint(tok[1], 10, &minor) || major > UINT_MAX ||
	    minor > UINT_MAX)
		return 0;
	for (i = 0; i < d.nfields; i++)
		if (!textline_uint(tok[3 + i], 10, &d.v[i]))
			return 0;
	d.major = (unsigned int)major;
	d.minor = (unsigned int)minor;
	d.name = strdup(tok[2]);
	if (!d.name)
		return -ENOMEM;
	if (s->ndevs == s->cap) {
		cap = s->cap ? s->cap * 2 : 32;
		nd = reallocarray(s->devs, cap, sizeof(*nd));
		if (!nd) {
			free(d.name);
			return -ENOMEM;
		}
		s->devs = nd;
		s->cap = cap;
	}
	s->devs[s->ndevs++] = d;
	return 1;
}

int parse_diskstats(FILE *f, struct diskstats_snapshot *out, struct err *err)
{
	struct textline tl = {0};
	char *tok[DISKSTATS_TOKENS_MAX];
	size_t nonblank = 0, ntok;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (textline_has_nul(&tl)) {
			nonblank++;
			out->bad_lines++;
			continue;
		}
		ntok = textline_split(tl.line, tok, DISKSTATS_TOKENS_MAX);
		if (ntok == 0)
			continue;
		nonblank++;
		if (!tl.complete || ntok == SIZE_MAX) {
			out->bad_lines++;
			continue;
		}
		rc = diskstats_line(out, tok, ntok);
		if (rc < 0) {
			err_set(err, rc, "line %zu: out of memory", tl.lineno);
			goto fail;
		}
		if (rc == 0)
			out->bad_lines++;
		rc = 0;
	}
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA, "empty /proc/diskstats snapshot");
		goto fail;
	}
	if (out->ndevs == 0) {
		rc = err_set(
			err, -EINVAL,
			"no line of 14, 18 or 20 numeric fields: not /proc/diskstats (%zu bad lines)",
			out->bad_lines);
		goto fail;
	}
	textline_free(&tl);
	return 0;
fail:
	textline_free(&tl);
	parse_diskstats_free(out);
	return rc;
}

/* parse_diskstats() with the out that textline_parse_file() hands on. */
static int diskstats_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_diskstats(f, out, err);
}

int parse_diskstats_file(const char *path, struct diskstats_snapshot *out,
			 struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, diskstats_parse_stream, out, err);
}

void parse_diskstats_free(struct diskstats_snapshot *s)
{
	size_t i;

	for (i = 0; i < s->ndevs; i++)
		free(s->devs[i].name);
	free(s->devs);
	memset(s, 0, sizeof(*s));
}

const struct diskstats_dev *
parse_diskstats_find(const struct diskstats_snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ndevs; i++)
		if (strcmp(s->devs[i].name, name) == 0)
			return &s->devs[i];
	return NULL;
}

int parse_diskstats_delta(const struct diskstats_snapshot *before,
			  const struct diskstats_snapshot *after,
			  struct diskstats_delta *out, struct err *err)
{
	const struct diskstats_dev *a, *b;
	struct diskstats_delta_dev *dd;
	size_t i, k, wraps;

	memset(out, 0, sizeof(*out));
	if (after->ndevs == 0)
		return 0;
	out->devs = calloc(after->ndevs, sizeof(*out->devs));
	if (!out->devs)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < after->ndevs; i++) {
		b = &after->devs[i];
		a = parse_diskstats_find(before, b->name);
		if (!a) {
			out->unmatched++;
			continue;
		}
		dd = &out->devs[out->ndevs];
		dd->name = strdup(b->name);
		if (!dd->name) {
			parse_diskstats_delta_free(out);
			return err_set(err, -ENOMEM, "out of memory");
		}
		out->ndevs++;
		dd->nfields = a->nfields < b->nfields ? a->nfields : b->nfields;
		wraps = 0;
		for (k = 0; k < dd->nfields; k++) {
			if (k == DS_IN_FLIGHT || b->v[k] >= a->v[k])
				dd->v[k] = k == DS_IN_FLIGHT
						   ? b->v[k]
						   : b->v[k] - a->v[k];
			else if (a->v[k] <= UINT32_MAX) {
				dd->v[k] = b->v[k] +
					   ((uint64_t)UINT32_MAX + 1) - a->v[k];
				wraps++;
			} else {
				dd->reset = true;
			}
		}
		if (dd->reset)
			memcpy(dd->v, b->v, sizeof(dd->v));
		else
			out->wraps += wraps;
	}
	for (i = 0; i < before->ndevs; i++)
		if (!parse_diskstats_find(after, before->devs[i].name))
			out->unmatched++;
	return 0;
}

void parse_diskstats_delta_free(struct diskstats_delta *d)
{
	size_t i;

	for (i = 0; i < d->ndevs; i++)
		free(d->devs[i].name);
	free(d->devs);
	memset(d, 0, sizeof(*d));
}

const struct diskstats_delta_dev *
parse_diskstats_delta_find(const struct diskstats_delta *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->ndevs; i++)
		if (strcmp(d->devs[i].name, name) == 0)
			return &d->devs[i];
	return NULL;
}

int parse_diskstats_rates(const struct diskstats_delta_dev *dd,
			  double interval_s, struct diskstats_rates *out,
			  struct err *err)
{
	const uint64_t *v = dd->v;

	if (!(interval_s > 0))
		return err_set(err, -EINVAL, "interval %g s is not positive",
			       interval_s);
	out->r_s = (double)v[DS_READS] / interval_s;
	out->w_s = (double)v[DS_WRITES] / interval_s;
	out->rkb_s = (double)v[DS_SECTORS_READ] * DISKSTATS_SECTOR_BYTES /
		     1024 / interval_s;
	out->wkb_s = (double)v[DS_SECTORS_WRITTEN] * DISKSTATS_SECTOR_BYTES /
		     1024 / interval_s;
	out->r_await_ms =
		v[DS_READS] ? (double)v[DS_READ_MS] / (double)v[DS_READS] : 0;
	out->w_await_ms =
		v[DS_WRITES] ? (double)v[DS_WRITE_MS] / (double)v[DS_WRITES]
			     : 0;
	out->aqu_sz = (double)v[DS_TIME_IN_QUEUE_MS] / (interval_s * 1000);
	out->util_pct = (double)v[DS_IO_TICKS_MS] / (interval_s * 1000) * 100;
	return 0;
}

const char *parse_diskstats_field_name(enum diskstats_field f)
{
	if ((int)f < 0 || f >= DS_NR)
		return NULL;
	return diskstats_names[f];
}
