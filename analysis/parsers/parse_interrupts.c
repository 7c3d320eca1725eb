/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_interrupts.c - /proc/interrupts snapshots and their deltas (see
 * parse_interrupts.h for the keying rules).
 *
 * A line is read by walking it, not by splitting it into a fixed array:
 * a big machine has one count column per CPU, hundreds of them.
 */
#include "analysis/parsers/parse_interrupts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/textline.h"

#define IRQ_LABEL_MAX 32 /* "NMI", "IPI0", "1234": labels are short */

static bool irq_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char *irq_skip_blank(char *p)
{
	while (irq_blank(*p))
		p++;
	return p;
}

/* Parse "CPU0 CPU1 ..." into s->cpus: 1, 0 if the line is not that,
 * or -ENOMEM. */
static int irq_header(char *line, struct irq_snapshot *s)
{
	size_t n = 0, cap = 0;
	char *p = line, *end;
	unsigned long v;
	int *cpus = NULL, *nc;

	for (;;) {
		p = irq_skip_blank(p);
		if (*p == '\0')
			break;
		if (strncmp(p, "CPU", 3) != 0 || p[3] < '0' || p[3] > '9')
			goto not_header;
		errno = 0;
		v = strtoul(p + 3, &end, 10);
		if (errno || v > 1000000 || (*end != '\0' && !irq_blank(*end)))
			goto not_header;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nc = reallocarray(cpus, cap, sizeof(*cpus));
			if (!nc) {
				free(cpus);
				return -ENOMEM;
			}
			cpus = nc;
		}
		cpus[n++] = (int)v;
		p = end;
	}
	if (n == 0)
		goto not_header;
	s->cpus = cpus;
	s->ncpu = n;
	return 1;
not_header:
	free(cpus);
	return 0;
}

/* Is s "<digits>-<letters>", the hwirq and flow of a line with no action? */
static bool irq_is_hwirq_flow(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s || *p != '-' || p[1] == '\0')
		return false;
	for (p++; *p; p++)
		if (*p < 'a' || *p > 'z')
			return false;
	return true;
}

/* The action names in a device line's description, as a new string. */
static char *irq_action(const char *desc, const char *label)
{
	const char *p, *start = desc;
	size_t len = strlen(desc);

	if (len == 0)
		return strdup(label);
	/* After the last run of two or more blanks... */
	for (p = desc; *p; p++)
		if (irq_blank(p[0]) && irq_blank(p[1])) {
			while (irq_blank(*p))
				p++;
			start = p;
			p--;
		}
	/* ...else after the last blank. */
	if (start == desc) {
		p = strrchr(desc, ' ');
		if (p)
			start = p + 1;
	}
	if (irq_is_hwirq_flow(start))
		return strdup(label);
	return strdup(start);
}

/* Trim trailing blanks in place. */
static void irq_rtrim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && irq_blank(s[n - 1]))
		s[--n] = '\0';
}

static void irq_line_free(struct irq_line *l)
{
	free(l->label);
	free(l->name);
	free(l->desc);
	free(l->counts);
}

/* One count line: 1 when stored, 0 when bad, or -ENOMEM. */
static int irq_count_line(char *line, struct irq_snapshot *s)
{
	struct irq_line l = {.label = NULL};
	char *p = irq_skip_blank(line), *colon, *end, *q;
	size_t k = 0, cap;
	uint64_t v, sum = 0;
	bool digits_only = true;
	struct irq_line *nl;

	colon = strchr(p, ':');
	if (!colon || colon == p || (size_t)(colon - p) >= IRQ_LABEL_MAX)
		return 0;
	for (q = p; q < colon; q++) {
		if (irq_blank(*q))
			return 0;
		digits_only &= *q >= '0' && *q <= '9';
	}
	l.counts = calloc(s->ncpu, sizeof(uint64_t));
	if (!l.counts)
		return -ENOMEM;
	q = colon + 1;
	while (k < s->ncpu) {
		q = irq_skip_blank(q);
		if (*q < '0' || *q > '9')
			break;
		errno = 0;
		v = strtoull(q, &end, 10);
		if (errno || (*end != '\0' && !irq_blank(*end)))
			goto bad;
		l.counts[k++] = v;
		if (sum > UINT64_MAX - v)
			goto bad;
		sum += v;
		q = end;
	}
	q = irq_skip_blank(q);
	if (k == 0 || (k < s->ncpu && *q != '\0'))
		goto bad;
	l.per_cpu = k == s->ncpu;
	if (!l.per_cpu) {
		free(l.counts);
		l.counts = NULL;
	}
	l.total = sum;
	l.is_device = digits_only;
	irq_rtrim(q);
	l.label = strndup(p, (size_t)(colon - p));
	l.desc = strdup(q);
	if (!l.label || !l.desc)
		goto nomem;
	l.name = l.is_device ? irq_action(l.desc, l.label) : strdup(l.label);
	if (!l.name)
		goto nomem;
	if (s->nlines == s->cap) {
		cap = s->cap ? s->cap * 2 : 64;
		nl = reallocarray(s->lines, cap, sizeof(*nl));
		if (!nl)
			goto nomem;
		s->lines = nl;
		s->cap = cap;
	}
	s->lines[s->nlines++] = l;
	return 1;
bad:
	irq_line_free(&l);
	return 0;
nomem:
	irq_line_free(&l);
	return -ENOMEM;
}

int parse_interrupts(FILE *f, struct irq_snapshot *out, struct err *err)
{
	struct textline tl = {0};
	size_t nonblank = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (*irq_skip_blank(tl.line) == '\0' &&
		    strlen(tl.line) == tl.len)
			continue;
		nonblank++;
		if (!tl.complete || textline_has_nul(&tl)) {
			out->bad_lines++;
			continue;
		}
		if (out->ncpu == 0) {
			rc = irq_header(tl.line, out);
			if (rc < 0)
				goto nomem;
			if (rc == 0)
				out->bad_lines++;
			continue;
		}
		rc = irq_count_line(tl.line, out);
		if (rc < 0)
			goto nomem;
		if (rc == 0)
			out->bad_lines++;
	}
	textline_free(&tl);
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA, "empty /proc/interrupts snapshot");
		goto fail;
	}
	if (out->ncpu == 0) {
		rc = err_set(
			err, -EINVAL,
			"no \"CPU0 CPU1 ...\" header: not /proc/interrupts");
		goto fail;
	}
	if (out->nlines == 0) {
		rc = err_set(
			err, -ENODATA,
			"no interrupt line after the header (%zu bad lines)",
			out->bad_lines);
		goto fail;
	}
	return 0;
nomem:
	rc = err_set(err, -ENOMEM, "line %zu: out of memory", tl.lineno);
	textline_free(&tl);
fail:
	parse_interrupts_free(out);
	return rc;
}

/* parse_interrupts() with the out that textline_parse_file() hands on. */
static int irq_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_interrupts(f, out, err);
}

int parse_interrupts_file(const char *path, struct irq_snapshot *out,
			  struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, irq_parse_stream, out, err);
}

void parse_interrupts_free(struct irq_snapshot *s)
{
	size_t i;

	for (i = 0; i < s->nlines; i++)
		irq_line_free(&s->lines[i]);
	free(s->lines);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}

/* after - before for a counter the kernel keeps in 32 bits or more. */
static uint64_t irq_counter_delta(uint64_t before, uint64_t after,
				  struct irq_delta *d)
{
	if (after >= before)
		return after - before;
	if (before <= UINT32_MAX) {
		d->wraps++;
		return after + ((uint64_t)UINT32_MAX + 1) - before;
	}
	d->resets++;
	return after;
}

/* The before line with this label and name, or NULL. */
static const struct irq_line *irq_match(const struct irq_snapshot *s,
					const struct irq_line *l)
{
	size_t i;

	for (i = 0; i < s->nlines; i++)
		if (strcmp(s->lines[i].label, l->label) == 0 &&
		    strcmp(s->lines[i].name, l->name) == 0)
			return &s->lines[i];
	return NULL;
}

/* The entry for (name, is_device), appended when new; NULL on ENOMEM. */
static struct irq_delta_entry *irq_entry(struct irq_delta *d, size_t *cap,
					 const struct irq_line *l)
{
	struct irq_delta_entry *e;
	size_t i, ncap;

	for (i = 0; i < d->n; i++)
		if (d->entries[i].is_device == l->is_device &&
		    strcmp(d->entries[i].name, l->name) == 0)
			return &d->entries[i];
	if (d->n == *cap) {
		ncap = *cap ? *cap * 2 : 64;
		e = reallocarray(d->entries, ncap, sizeof(*e));
		if (!e)
			return NULL;
		d->entries = e;
		*cap = ncap;
	}
	e = &d->entries[d->n];
	memset(e, 0, sizeof(*e));
	e->name = strdup(l->name);
	e->counts = calloc(d->ncpu, sizeof(uint64_t));
	if (!e->name || !e->counts) {
		free(e->name);
		free(e->counts);
		return NULL;
	}
	e->is_device = l->is_device;
	e->per_cpu = true;
	d->n++;
	return e;
}

int parse_interrupts_delta(const struct irq_snapshot *before,
			   const struct irq_snapshot *after,
			   struct irq_delta *out, struct err *err)
{
	const struct irq_line *a, *b;
	struct irq_delta_entry *e;
	size_t i, c, cap = 0;
	uint64_t dv, total;

	memset(out, 0, sizeof(*out));
	if (before->ncpu == 0 || after->ncpu == 0)
		return err_set(err, -EINVAL, "an interrupts snapshot is empty");
	if (before->ncpu != after->ncpu ||
	    memcmp(before->cpus, after->cpus,
		   before->ncpu * sizeof(*before->cpus)) != 0)
		return err_set(
			err, -EINVAL,
			"CPU columns differ between the snapshots (%zu and %zu CPUs): a CPU went on- or offline",
			before->ncpu, after->ncpu);
	out->ncpu = after->ncpu;
	out->cpus = malloc(out->ncpu * sizeof(*out->cpus));
	if (!out->cpus)
		goto nomem;
	memcpy(out->cpus, after->cpus, out->ncpu * sizeof(*out->cpus));
	for (i = 0; i < after->nlines; i++) {
		b = &after->lines[i];
		a = irq_match(before, b);
		if (!a)
			out->new_lines++;
		e = irq_entry(out, &cap, b);
		if (!e)
			goto nomem;
		e->lines++;
		if (a && a->per_cpu && b->per_cpu) {
			total = 0;
			for (c = 0; c < out->ncpu; c++) {
				dv = irq_counter_delta(a->counts[c],
						       b->counts[c], out);
				e->counts[c] += dv;
				total += dv;
			}
		} else if (a) {
			total = irq_counter_delta(a->total, b->total, out);
			e->per_cpu = false;
		} else if (b->per_cpu) {
			total = b->total;
			for (c = 0; c < out->ncpu; c++)
				e->counts[c] += b->counts[c];
		} else {
			total = b->total;
			e->per_cpu = false;
		}
		e->total += total;
	}
	for (i = 0; i < out->n; i++)
		if (!out->entries[i].per_cpu) {
			free(out->entries[i].counts);
			out->entries[i].counts = NULL;
		}
	for (i = 0; i < before->nlines; i++)
		if (!irq_match(after, &before->lines[i]))
			out->gone_lines++;
	return 0;
nomem:
	parse_interrupts_delta_free(out);
	return err_set(err, -ENOMEM, "out of memory");
}

void parse_interrupts_delta_free(struct irq_delta *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->entries[i].name);
		free(d->entries[i].counts);
	}
	free(d->entries);
	free(d->cpus);
	memset(d, 0, sizeof(*d));
}

static int irq_entry_cmp(const void *pa, const void *pb)
{
	const struct irq_delta_entry *a = pa, *b = pb;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return strcmp(a->name, b->name);
}

void parse_interrupts_delta_sort(struct irq_delta *d)
{
	if (d->n > 1)
		qsort(d->entries, d->n, sizeof(*d->entries), irq_entry_cmp);
}

const struct irq_delta_entry *
parse_interrupts_delta_find(const struct irq_delta *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->entries[i].name, name) == 0)
			return &d->entries[i];
	return NULL;
}
