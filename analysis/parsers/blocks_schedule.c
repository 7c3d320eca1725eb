/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_schedule.c - the A B B A block order, blocks.csv and the
 * measured windows (see blocks_schedule.h). The file is checked
 * strictly, as sys/checkpoints.csv is: a block scored under the wrong
 * arm or over the wrong seconds would bias the effect without a trace,
 * so a file wrong anywhere is refused whole, with the line that is.
 */
#include "analysis/parsers/blocks_schedule.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/file_text.h"

#define BLOCKS_FILE_MAX (16 << 20) /* 300,000 rows: a week of 2-s blocks */
#define BLOCKS_LINE_MAX 256	   /* longer is not a row of ours */
/*
 * Times are written with 3 decimals, so two of them rounded apart may
 * disagree by up to 1 ms; the order checks allow for that much.
 */
#define BLOCKS_ROUNDING_S 0.0015

enum blocks_arm blocks_schedule_arm(size_t k)
{
	return blocks_format_arm(k);
}

size_t blocks_schedule_group(size_t k)
{
	return k / BLOCKS_GROUP;
}

bool blocks_schedule_switches(size_t k)
{
	return k > 0 && blocks_schedule_arm(k) != blocks_schedule_arm(k - 1);
}

const char *blocks_schedule_arm_name(enum blocks_arm arm)
{
	return blocks_format_arm_name(arm);
}

const char *blocks_schedule_use_name(enum blocks_use use)
{
	static const char *const names[BLOCKS_USE_NR] = {
		[BLOCKS_USE_OK] = "ok",
		[BLOCKS_USE_SWITCH_FAILED] = "switch failed",
		[BLOCKS_USE_EMPTY] = "empty",
		[BLOCKS_USE_SHORT] = "short",
	};

	return (unsigned int)use < BLOCKS_USE_NR ? names[use] : "?";
}

/* A time field: a finite, non-negative decimal number, nothing else. */
static bool parse_seconds(const char *s, double *out)
{
	char *end;

	if (*s == '\0' || *s == ' ' || *s == '+' || *s == '-')
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return *end == '\0' && errno == 0 && isfinite(*out) && *out >= 0;
}

/* An unsigned decimal integer no larger than max. */
static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (*s == '\0')
		return false;
	for (; *s; s++) {
		unsigned long d = (unsigned long)(*s - '0');

		if (*s < '0' || *s > '9' || v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static int push(struct blocks_schedule *s, const struct blocks_block *b,
		struct err *err)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct blocks_block *p = realloc(s->items, cap * sizeof(*p));

		if (!p)
			return err_set(err, -ENOMEM, "blocks: out of memory");
		s->items = p;
		s->cap = cap;
	}
	s->items[s->n++] = *b;
	return 0;
}

/*
 * One row (NUL-terminated, no newline) into b, which is block number
 * expect; prev is the row before it or NULL. NULL, or what is wrong.
 */
static const char *parse_row(char *line, size_t expect,
			     const struct blocks_block *prev,
			     struct blocks_block *b, char *why, size_t why_size)
{
	char *field[BLOCKS_FIELDS], *p = line;
	unsigned long block, status;
	size_t n = 0;

	for (;;) {
		char *comma = strchr(p, ',');

		if (n == BLOCKS_FIELDS)
			return "more than 6 fields";
		field[n++] = p;
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	if (n != BLOCKS_FIELDS)
		return "fewer than 6 fields";
	if (!parse_uint(field[0], (unsigned long)-1, &block))
		return "the block is not a number";
	if (block != expect) {
		snprintf(why, why_size, "block %lu where block %zu was due",
			 block, expect);
		return why;
	}
	b->index = expect;
	b->arm = blocks_schedule_arm(expect);
	if (strcmp(field[1], blocks_schedule_arm_name(b->arm)) != 0) {
		snprintf(why, why_size,
			 "arm \"%.8s\" where the order A B B A puts %s",
			 field[1], blocks_schedule_arm_name(b->arm));
		return why;
	}
	if (!parse_seconds(field[2], &b->start_s) ||
	    !parse_seconds(field[3], &b->end_s))
		return "a time is not a number of seconds since the epoch";
	if (!parse_seconds(field[4], &b->switch_s))
		return "the switch time is not a number of seconds";
	if (!parse_uint(field[5], 255, &status))
		return "the status is not an exit status (0 to 255)";
	b->status = (int)status;
	if (b->end_s < b->start_s)
		return "the block ends before it starts";
	if (b->start_s + b->switch_s > b->end_s + BLOCKS_ROUNDING_S)
		return "the block ends before its switch did";
	if (prev && b->start_s + BLOCKS_ROUNDING_S < prev->end_s)
		return "the block starts before the one before it ended";
	return NULL;
}

int blocks_schedule_parse_text(const char *text, const char *name,
			       struct blocks_schedule *out, struct err *err)
{
	const char *p = text;
	unsigned long lineno = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (*p == '\0')
		return err_set(err, -ENODATA,
			       "%s: empty (expected \"" BLOCKS_CSV_HEADER
			       "\" and a row per block)",
			       name);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[BLOCKS_LINE_MAX], why[128];
		const char *bad;
		struct blocks_block b;

		lineno++;
		if (!nl) {
			rc = err_set(err, -EBADMSG,
				     "%s: line %lu: cut short (no newline at "
				     "its end)",
				     name, lineno);
			goto fail;
		}
		if (len && p[len - 1] == '\r')
			len--;
		if (lineno == 1) {
			if (len != strlen(BLOCKS_CSV_HEADER) ||
			    memcmp(p, BLOCKS_CSV_HEADER, len) != 0) {
				rc = err_set(err, -EBADMSG,
					     "%s: line 1: the header is not "
					     "\"" BLOCKS_CSV_HEADER "\"",
					     name);
				goto fail;
			}
			p = nl + 1;
			continue;
		}
		if (len == 0 || len >= sizeof(line)) {
			rc = err_set(err, -EBADMSG, "%s: line %lu: %s", name,
				     lineno, len ? "too long" : "empty");
			goto fail;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		memset(&b, 0, sizeof(b));
		bad = parse_row(line, out->n,
				out->n ? &out->items[out->n - 1] : NULL, &b,
				why, sizeof(why));
		if (bad) {
			rc = err_set(err, -EBADMSG, "%s: line %lu: %s", name,
				     lineno, bad);
			goto fail;
		}
		rc = push(out, &b, err);
		if (rc < 0)
			goto fail;
		p = nl + 1;
	}
	if (out->n == 0) {
		rc = err_set(err, -ENODATA, "%s: no blocks after the header",
			     name);
		goto fail;
	}
	return 0;
fail:
	blocks_schedule_free(out);
	return rc;
}

int blocks_schedule_parse_file(const char *path, const char *name,
			       struct blocks_schedule *out, struct err *err)
{
	char *text;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = file_text_read(path, name, BLOCKS_FILE_MAX, &text, NULL, err);
	if (rc < 0)
		return rc;
	rc = blocks_schedule_parse_text(text, name, out, err);
	free(text);
	return rc;
}

void blocks_schedule_place(struct blocks_schedule *s, double start_epoch_s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		s->items[i].start_s -= start_epoch_s;
		s->items[i].end_s -= start_epoch_s;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int blocks_schedule_windows(const struct blocks_schedule *s, double settle_s,
			    struct blocks_window *w, struct err *err)
{
	double *len, median;
	bool known = true;
	size_t i, m = 0;

	if (!isfinite(settle_s) || settle_s < 0)
		return err_set(err, -EINVAL,
			       "blocks: settle time %g s is not a number of "
			       "seconds",
			       settle_s);
	for (i = 0; i < s->n; i++) {
		const struct blocks_block *b = &s->items[i];

		/* A failed script leaves the setting unknown until a later
		   switch succeeds; a block without a switch inherits it. */
		if (b->status != 0)
			known = false;
		else if (blocks_schedule_switches(b->index))
			known = true;
		w[i].start_s = b->start_s + b->switch_s + settle_s;
		w[i].end_s = b->end_s;
		if (!known)
			w[i].use = BLOCKS_USE_SWITCH_FAILED;
		else if (w[i].end_s <= w[i].start_s)
			w[i].use = BLOCKS_USE_EMPTY;
		else
			w[i].use = BLOCKS_USE_OK;
	}
	len = malloc((s->n ? s->n : 1) * sizeof(*len));
	if (!len)
		return err_set(err, -ENOMEM, "blocks: out of memory");
	for (i = 0; i < s->n; i++)
		if (w[i].use == BLOCKS_USE_OK)
			len[m++] = w[i].end_s - w[i].start_s;
	if (m > 0) {
		qsort(len, m, sizeof(*len), cmp_double);
		median = m % 2 ? len[m / 2] : (len[m / 2 - 1] + len[m / 2]) / 2;
		for (i = 0; i < s->n; i++)
			if (w[i].use == BLOCKS_USE_OK &&
			    w[i].end_s - w[i].start_s < median / 2)
				w[i].use = BLOCKS_USE_SHORT;
	}
	free(len);
	return 0;
}

void blocks_schedule_free(struct blocks_schedule *s)
{
	free(s->items);
	memset(s, 0, sizeof(*s));
}
