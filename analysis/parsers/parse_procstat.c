/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_procstat.c - sys/procstat.csv (see parse_procstat.h): a header,
 * then "epoch_s,user,nice,system,idle,iowait,irq,softirq,steal,guest,
 * guest_nice" rows, one a second.
 */
#include "analysis/parsers/parse_procstat.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/textline.h"

#define PROCSTAT_CSV_FIELDS (1 + PROCSTAT_NR)

/* Fields whose sum is the time that passed (guest is inside user). */
static const enum procstat_field total_fields[] = {
	PROCSTAT_USER,	 PROCSTAT_NICE, PROCSTAT_SYSTEM,  PROCSTAT_IDLE,
	PROCSTAT_IOWAIT, PROCSTAT_IRQ,	PROCSTAT_SOFTIRQ, PROCSTAT_STEAL,
};

/* Split a row at commas into exactly PROCSTAT_CSV_FIELDS fields. */
static bool split_row(char *line, char **tok)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		if (n == PROCSTAT_CSV_FIELDS)
			return false;
		tok[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n == PROCSTAT_CSV_FIELDS;
}

/* One data row into *out; false when it does not fit the format. */
static bool parse_row(char *line, struct procstat_sample *out)
{
	char *tok[PROCSTAT_CSV_FIELDS];
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!split_row(line, tok))
		return false;
	if (!textline_decimal(tok[0], false, &out->t_s))
		return false;
	for (i = 0; i < PROCSTAT_NR; i++)
		if (!textline_uint(tok[1 + i], 10, &out->cpu.ticks[i]))
			return false;
	strcpy(out->cpu.name, "cpu");
	out->cpu.nfields = PROCSTAT_NR;
	return true;
}

static int append(struct procstat_series *s, const struct procstat_sample *x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct procstat_sample *p =
			realloc(s->samples, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->samples = p;
		s->cap = cap;
	}
	s->samples[s->n++] = *x;
	return 0;
}

int parse_procstat(FILE *f, struct procstat_series *out, struct err *err)
{
	struct textline tl = {0};
	struct procstat_sample x;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = textline_read(&tl, f, err);
	if (rc == 0) {
		rc = err_set(err, -ENODATA, "empty file");
		goto fail;
	}
	if (rc < 0)
		goto fail;
	if (textline_has_nul(&tl) ||
	    strcmp(tl.line, PARSE_PROCSTAT_HEADER) != 0) {
		rc = err_set(
			err, -EINVAL,
			"line 1: not the header of a procstat.csv (\"%s\")",
			PARSE_PROCSTAT_HEADER);
		goto fail;
	}
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (!tl.complete || textline_has_nul(&tl) ||
		    !parse_row(tl.line, &x) ||
		    (out->n > 0 && x.t_s <= out->samples[out->n - 1].t_s)) {
			out->bad_lines++;
			continue;
		}
		if (append(out, &x) < 0) {
			rc = err_set(err, -ENOMEM, "out of memory");
			goto fail;
		}
	}
	if (rc < 0)
		goto fail;
	if (out->n == 0) {
		rc = err_set(err, -ENODATA, "no sample after the header");
		goto fail;
	}
	textline_free(&tl);
	return 0;
fail:
	textline_free(&tl);
	parse_procstat_free(out);
	return rc;
}

static int parse_any(FILE *f, void *out, struct err *err)
{
	return parse_procstat(f, out, err);
}

int parse_procstat_file(const char *path, struct procstat_series *out,
			struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, parse_any, out, err);
}

void parse_procstat_free(struct procstat_series *s)
{
	free(s->samples);
	memset(s, 0, sizeof(*s));
}

void parse_procstat_place(struct procstat_series *s, double start_epoch_s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		s->samples[i].t_s -= start_epoch_s;
}

int parse_procstat_window(const struct procstat_series *s, double from_s,
			  double to_s, struct procstat_shares *out,
			  struct err *err)
{
	double sum[PROCSTAT_NR] = {0}, total = 0;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	if (!(to_s > from_s))
		return err_set(err, -EINVAL, "empty window %.3f .. %.3f s",
			       from_s, to_s);
	for (i = 1; i < s->n; i++) {
		const struct procstat_sample *a = &s->samples[i - 1];
		const struct procstat_sample *b = &s->samples[i];
		double lo = fmax(a->t_s, from_s), hi = fmin(b->t_s, to_s);
		double part;

		if (hi <= lo)
			continue;
		part = (hi - lo) / (b->t_s - a->t_s);
		for (k = 0; k < PROCSTAT_NR; k++)
			if (b->cpu.ticks[k] > a->cpu.ticks[k])
				sum[k] += part * (double)(b->cpu.ticks[k] -
							  a->cpu.ticks[k]);
	}
	for (k = 0; k < sizeof(total_fields) / sizeof(total_fields[0]); k++)
		total += sum[total_fields[k]];
	if (total <= 0)
		return err_set(err, -ENODATA,
			       "no CPU time sampled in %.3f .. %.3f s", from_s,
			       to_s);
	for (k = 0; k < PROCSTAT_NR; k++)
		out->share[k] = sum[k] / total;
	out->busy = (sum[PROCSTAT_USER] + sum[PROCSTAT_NICE] +
		     sum[PROCSTAT_SYSTEM] + sum[PROCSTAT_IRQ] +
		     sum[PROCSTAT_SOFTIRQ]) /
		    total;
	out->total_ticks = total;
	return 0;
}
