/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checkpoints.c - sys/checkpoints.csv (see checkpoints.h): a header line
 * and one row per checkpoint, read whole (a week-long run with a
 * checkpoint every 30 s is under a megabyte) and checked strictly: a
 * file that is wrong anywhere is not trusted at all, since a checkpoint
 * drawn at the wrong place is worse than none.
 */
#include "analysis/report/checkpoints.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CKPT_FILE_MAX (16 << 20) /* larger is not a checkpoints.csv */

/* A number field of a row: finite, not negative, nothing after it. */
static bool parse_time(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return *end == '\0' && isfinite(*out) && *out >= 0;
}

/* Keep printable ASCII only: the kind ends up in JSON, HTML and gnuplot
   labels, and a cut UTF-8 sequence would make the JSON invalid. */
static void copy_kind(char *out, const char *s, size_t len)
{
	size_t i;

	if (len >= CKPT_KIND_LEN)
		len = CKPT_KIND_LEN - 1;
	for (i = 0; i < len; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[len] = '\0';
}

static int ckpt_cmp(const void *a, const void *b)
{
	const struct ckpt *x = a, *y = b;

	if (x->start_s != y->start_s)
		return x->start_s < y->start_s ? -1 : 1;
	if (x->end_s != y->end_s)
		return x->end_s < y->end_s ? -1 : 1;
	return strcmp(x->kind, y->kind);
}

static int push(struct ckpt_list *l, const struct ckpt *c, struct err *err)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct ckpt *p = realloc(l->items, cap * sizeof(*p));

		if (!p)
			return err_set(err, -ENOMEM,
				       "checkpoints: out of memory");
		l->items = p;
		l->cap = cap;
	}
	l->items[l->n++] = *c;
	return 0;
}

/* One data line (without its newline) into c; false if malformed. */
static bool parse_row(const char *line, size_t len, struct ckpt *c,
		      const char **why)
{
	const char *c1 = memchr(line, ',', len), *c2;

	if (!c1) {
		*why = "expected start_epoch,end_epoch,kind";
		return false;
	}
	c2 = memchr(c1 + 1, ',', len - (size_t)(c1 + 1 - line));
	if (!c2) {
		*why = "expected start_epoch,end_epoch,kind";
		return false;
	}
	if (!parse_time(line, (size_t)(c1 - line), &c->start_s) ||
	    !parse_time(c1 + 1, (size_t)(c2 - c1 - 1), &c->end_s)) {
		*why = "a time is not a number of seconds since the epoch";
		return false;
	}
	if (c->end_s < c->start_s) {
		*why = "the checkpoint ends before it starts";
		return false;
	}
	copy_kind(c->kind, c2 + 1, len - (size_t)(c2 + 1 - line));
	return true;
}

int checkpoints_parse_text(const char *text, const char *name,
			   struct ckpt_list *out, struct err *err)
{
	const char *p = text;
	unsigned long lineno = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *next = nl ? nl + 1 : p + len;
		const char *why = NULL;
		struct ckpt c;

		lineno++;
		if (len && p[len - 1] == '\r')
			len--;
		if (lineno == 1) {
			if (len != strlen(CKPT_HEADER) ||
			    memcmp(p, CKPT_HEADER, len) != 0) {
				rc = err_set(err, -EBADMSG,
					     "%s: line 1: the header is not "
					     "\"" CKPT_HEADER "\"",
					     name);
				goto fail;
			}
		} else if (len > 0) {
			memset(&c, 0, sizeof(c));
			if (!parse_row(p, len, &c, &why)) {
				rc = err_set(err, -EBADMSG, "%s: line %lu: %s",
					     name, lineno, why);
				goto fail;
			}
			rc = push(out, &c, err);
			if (rc < 0)
				goto fail;
		}
		p = next;
	}
	if (out->n > 1)
		qsort(out->items, out->n, sizeof(*out->items), ckpt_cmp);
	return 0;
fail:
	checkpoints_free(out);
	return rc;
}

int checkpoints_parse_file(const char *path, const char *name,
			   struct ckpt_list *out, struct err *err)
{
	FILE *f;
	char *text;
	long size;
	int rc;

	memset(out, 0, sizeof(*out));
	f = fopen(path, "rb");
	if (!f)
		return err_set(err, -errno, "%s: %s", name, strerror(errno));
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		rc = err_set(err, -EIO, "%s: cannot read it", name);
		fclose(f);
		return rc;
	}
	if (size > CKPT_FILE_MAX) {
		fclose(f);
		return err_set(err, -EBADMSG, "%s: %ld bytes, too large", name,
			       size);
	}
	text = malloc((size_t)size + 1);
	if (!text) {
		fclose(f);
		return err_set(err, -ENOMEM, "checkpoints: out of memory");
	}
	if (fread(text, 1, (size_t)size, f) != (size_t)size) {
		rc = err_set(err, -EIO, "%s: cannot read it", name);
		free(text);
		fclose(f);
		return rc;
	}
	fclose(f);
	text[size] = '\0';
	if (strlen(text) != (size_t)size)
		rc = err_set(err, -EBADMSG, "%s: holds a NUL byte", name);
	else
		rc = checkpoints_parse_text(text, name, out, err);
	free(text);
	return rc;
}

void checkpoints_place(struct ckpt_list *l, double start_epoch_s,
		       double run_end_s)
{
	size_t i, k = 0;

	for (i = 0; i < l->n; i++) {
		struct ckpt c = l->items[i];

		c.start_s -= start_epoch_s;
		c.end_s -= start_epoch_s;
		if (c.end_s < 0 || c.start_s > run_end_s)
			continue;
		l->items[k++] = c;
	}
	l->n = k;
}

void checkpoints_free(struct ckpt_list *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}
