/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procstat.c - "cpu" lines of /proc/stat (see procstat.h). The format is
 * proc(5)'s: a name, then counters in USER_HZ ticks separated by spaces;
 * kernels added columns at the end over the years (iowait, irq, softirq
 * in 2.6; steal 2.6.11; guest 2.6.24; guest_nice 2.6.33), so the count
 * varies and missing ones are 0.
 */
#include "src/base/procstat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROCSTAT_MIN_FIELDS 4 /* user nice system idle: Linux 2.4 */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_end(char c)
{
	return c == '\0' || c == '\n' || c == '\r';
}

/* An unsigned decimal counter at *p, advancing *p past it. */
static bool parse_counter(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (!is_blank(*s) && !is_end(*s))
		return false;
	*p = s;
	*out = v;
	return true;
}

int procstat_parse_line(const char *line, struct procstat_cpu *out,
			struct err *err)
{
	const char *p = line;
	size_t len = 0;
	unsigned int n = 0;

	memset(out, 0, sizeof(*out));
	if (strncmp(p, "cpu", 3) != 0)
		return err_set(err, -EINVAL,
			       "/proc/stat: not a \"cpu\" line: \"%.20s\"",
			       line);
	for (len = 3; p[len] >= '0' && p[len] <= '9'; len++)
		;
	if (!is_blank(p[len]) || len >= PROCSTAT_NAME_MAX)
		return err_set(err, -EINVAL,
			       "/proc/stat: not a \"cpu\" line: \"%.20s\"",
			       line);
	memcpy(out->name, p, len);
	p += len;
	for (;;) {
		uint64_t v;

		while (is_blank(*p))
			p++;
		if (is_end(*p))
			break;
		if (!parse_counter(&p, &v)) {
			err_set(err, -EINVAL,
				"/proc/stat: %s: column %u is not a counter",
				out->name, n + 1);
			memset(out, 0, sizeof(*out));
			return -EINVAL;
		}
		if (n < PROCSTAT_NR)
			out->ticks[n] = v;
		n++;
	}
	if (n < PROCSTAT_MIN_FIELDS) {
		err_set(err, -EINVAL,
			"/proc/stat: %s: %u counters, expected at least %d",
			out->name, n, PROCSTAT_MIN_FIELDS);
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	out->nfields = n < PROCSTAT_NR ? n : PROCSTAT_NR;
	return 0;
}

int procstat_find(const char *text, const char *name, struct procstat_cpu *out,
		  struct err *err)
{
	size_t len = strlen(name);
	const char *p = text;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *nl = strchr(p, '\n');

		if (strncmp(p, name, len) == 0 && is_blank(p[len]))
			return procstat_parse_line(p, out, err);
		if (!nl)
			break;
		p = nl + 1;
	}
	return err_set(err, -ENOENT, "/proc/stat: no \"%s\" line", name);
}

int procstat_read(const char *path, const char *name, struct procstat_cpu *out,
		  struct err *err)
{
	size_t len = strlen(name), cap = 0;
	FILE *f = fopen(path, "r");
	char *line = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!f)
		return err_set(err, -errno, "%s: %s", path, strerror(errno));
	/* Line by line: the "cpu" lines come first, and a sampler reading
	   once a second should not copy the interrupt counts. */
	for (;;) {
		errno = 0;
		if (getline(&line, &cap, f) < 0) {
			if (errno == ENOMEM)
				rc = err_set(err, -ENOMEM, "%s: out of memory",
					     path);
			else if (ferror(f))
				rc = err_set(err, -EIO, "%s: cannot read it",
					     path);
			else
				rc = err_set(err, -ENOENT, "%s: no \"%s\" line",
					     path, name);
			break;
		}
		if (strncmp(line, name, len) == 0 && is_blank(line[len])) {
			rc = procstat_parse_line(line, out, err);
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

/* Fields whose sum is the time that passed (guest is inside user). */
static const enum procstat_field total_fields[] = {
	PROCSTAT_USER,	 PROCSTAT_NICE, PROCSTAT_SYSTEM,  PROCSTAT_IDLE,
	PROCSTAT_IOWAIT, PROCSTAT_IRQ,	PROCSTAT_SOFTIRQ, PROCSTAT_STEAL,
};

int procstat_shares(const struct procstat_cpu *a, const struct procstat_cpu *b,
		    struct procstat_shares *out, struct err *err)
{
	double delta[PROCSTAT_NR], total = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (strcmp(a->name, b->name) != 0)
		return err_set(err, -EINVAL,
			       "/proc/stat: snapshots of %s and %s", a->name,
			       b->name);
	for (i = 0; i < PROCSTAT_NR; i++)
		delta[i] = b->ticks[i] > a->ticks[i]
				   ? (double)(b->ticks[i] - a->ticks[i])
				   : 0;
	for (i = 0; i < sizeof(total_fields) / sizeof(total_fields[0]); i++)
		total += delta[total_fields[i]];
	if (total <= 0)
		return err_set(err, -ENODATA,
			       "/proc/stat: %s: no time passed between the "
			       "snapshots",
			       a->name);
	for (i = 0; i < PROCSTAT_NR; i++)
		out->share[i] = delta[i] / total;
	out->busy = (delta[PROCSTAT_USER] + delta[PROCSTAT_NICE] +
		     delta[PROCSTAT_SYSTEM] + delta[PROCSTAT_IRQ] +
		     delta[PROCSTAT_SOFTIRQ]) /
		    total;
	out->total_ticks = total;
	return 0;
}
