/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_readprofile.c - readprofile output to a list of functions (see
 * parse_readprofile.h for the line forms and why parsing is strict).
 *
 * All lines are read as entries first; the last one is then checked to
 * be the total line and taken off the list.
 */
#include "analysis/parsers/parse_readprofile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/symbols.h"
#include "analysis/parsers/textline.h"

#define RPROF_TOKENS_MAX 5

static int rprof_append(struct rprof_profile *p, const char *name,
			uint64_t ticks, double load, uint64_t addr)
{
	struct rprof_entry *e;
	size_t cap;

	if (p->n == p->cap) {
		cap = p->cap ? p->cap * 2 : 256;
		e = reallocarray(p->entries, cap, sizeof(*e));
		if (!e)
			return -ENOMEM;
		p->entries = e;
		p->cap = cap;
	}
	e = &p->entries[p->n];
	e->name = strdup(name);
	if (!e->name)
		return -ENOMEM;
	e->ticks = ticks;
	e->load = load;
	e->addr = addr;
	p->n++;
	return 0;
}

/* One line: 0, 1 if it is not a readprofile line, or -ENOMEM. */
static int rprof_line(struct rprof_profile *p, char **tok, size_t ntok,
		      bool *verbose_seen, bool *plain_seen)
{
	uint64_t ticks, addr = 0;
	double load;

	if (ntok == 2 && strcmp(tok[1], "*unknown*") == 0) {
		if (p->has_unknown || !textline_uint(tok[0], 10, &ticks))
			return 1;
		p->has_unknown = true;
		p->unknown_ticks = ticks;
		return 0;
	}
	if (ntok == 3) {
		if (!textline_uint(tok[0], 10, &ticks) ||
		    !textline_decimal(tok[2], false, &load))
			return 1;
		*plain_seen = true;
		return rprof_append(p, tok[1], ticks, load, 0);
	}
	if (ntok == 4) {
		if (!textline_uint(tok[0], 16, &addr) ||
		    !textline_uint(tok[2], 10, &ticks) ||
		    !textline_decimal(tok[3], false, &load))
			return 1;
		*verbose_seen = true;
		return rprof_append(p, tok[1], ticks, load, addr);
	}
	return 1;
}

int parse_readprofile(FILE *f, struct rprof_profile *out, struct err *err)
{
	struct textline tl = {0};
	char *tok[RPROF_TOKENS_MAX];
	size_t ntok, i;
	bool verbose = false, plain = false;
	struct rprof_entry *last;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (textline_has_nul(&tl)) {
			rc = err_set(err, -EINVAL, "line %zu: NUL byte",
				     tl.lineno);
			goto fail;
		}
		ntok = textline_split(tl.line, tok, RPROF_TOKENS_MAX);
		if (ntok == 0)
			continue;
		if (!tl.complete) {
			rc = err_set(err, -EINVAL,
				     "line %zu: cut short (no newline)",
				     tl.lineno);
			goto fail;
		}
		rc = ntok == SIZE_MAX
			     ? 1
			     : rprof_line(out, tok, ntok, &verbose, &plain);
		if (rc < 0) {
			err_set(err, rc, "line %zu: out of memory", tl.lineno);
			goto fail;
		}
		if (rc > 0) {
			rc = err_set(
				err, -EINVAL,
				"line %zu: not a readprofile line (ticks function load)",
				tl.lineno);
			goto fail;
		}
	}
	if (rc < 0)
		goto fail;
	if (out->n == 0 && !out->has_unknown) {
		rc = err_set(err, -ENODATA, "empty readprofile output");
		goto fail;
	}
	if (verbose && plain) {
		rc = err_set(err, -EINVAL,
			     "lines with and without addresses (-v) mixed");
		goto fail;
	}
	if (out->n == 0) {
		rc = err_set(err, -EINVAL, "no total line: output cut short?");
		goto fail;
	}
	last = &out->entries[out->n - 1];
	for (i = 0; i + 1 < out->n; i++)
		out->sum_ticks += out->entries[i].ticks;
	if (strcmp(last->name, "total") != 0 && last->ticks != out->sum_ticks) {
		rc = err_set(err, -EINVAL,
			     "no total line at the end: output cut short?");
		goto fail;
	}
	if (last->ticks != out->sum_ticks) {
		rc = err_set(
			err, -EINVAL,
			"total %llu is not the sum of the functions' ticks %llu",
			(unsigned long long)last->ticks,
			(unsigned long long)out->sum_ticks);
		goto fail;
	}
	out->total_ticks = last->ticks;
	out->total_load = last->load;
	free(last->name);
	out->n--;
	out->verbose = verbose;
	textline_free(&tl);
	return 0;
fail:
	textline_free(&tl);
	parse_readprofile_free(out);
	return rc;
}

/* parse_readprofile() with the out that textline_parse_file() hands on. */
static int rprof_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_readprofile(f, out, err);
}

int parse_readprofile_file(const char *path, struct rprof_profile *out,
			   struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, rprof_parse_stream, out, err);
}

void parse_readprofile_free(struct rprof_profile *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->entries[i].name);
	free(p->entries);
	memset(p, 0, sizeof(*p));
}

static int rprof_cmp_ticks(const void *pa, const void *pb)
{
	const struct rprof_entry *a = pa, *b = pb;

	if (a->ticks != b->ticks)
		return a->ticks > b->ticks ? -1 : 1;
	return strcmp(a->name, b->name);
}

void parse_readprofile_sort_by_ticks(struct rprof_profile *p)
{
	if (p->n > 1)
		qsort(p->entries, p->n, sizeof(*p->entries), rprof_cmp_ticks);
}

int parse_readprofile_merge_normalized(struct rprof_profile *p, struct err *err)
{
	struct rprof_entry *out;
	double *size;
	size_t i, j, n = 0, cap = p->n;
	char *name;

	if (p->n == 0)
		return 0;
	out = calloc(p->n, sizeof(*out));
	size = calloc(p->n, sizeof(*size));
	if (!out || !size)
		goto nomem;
	for (i = 0; i < p->n; i++) {
		const struct rprof_entry *e = &p->entries[i];

		name = symbols_normalize_dup(e->name);
		if (!name)
			goto nomem;
		for (j = 0; j < n; j++)
			if (strcmp(out[j].name, name) == 0)
				break;
		if (j == n) {
			out[n].name = name;
			out[n].addr = e->addr;
			n++;
		} else {
			free(name);
			if (e->addr < out[j].addr)
				out[j].addr = e->addr;
		}
		out[j].ticks += e->ticks;
		if (e->load > 0)
			size[j] += (double)e->ticks / e->load;
	}
	for (j = 0; j < n; j++)
		out[j].load = size[j] > 0 ? (double)out[j].ticks / size[j] : 0;
	for (i = 0; i < p->n; i++)
		free(p->entries[i].name);
	free(p->entries);
	free(size);
	p->entries = out;
	p->n = n;
	p->cap = cap;
	return 0;
nomem:
	if (out)
		for (j = 0; j < n; j++)
			free(out[j].name);
	free(out);
	free(size);
	return err_set(err, -ENOMEM, "out of memory");
}

const struct rprof_entry *parse_readprofile_find(const struct rprof_profile *p,
						 const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->entries[i].name, name) == 0)
			return &p->entries[i];
	return NULL;
}
