/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * textline.c - line reading, blank splitting, number tokens and file
 * opening shared by the parsers of system tool output (see textline.h).
 */
#include "analysis/parsers/textline.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

int textline_read(struct textline *t, FILE *f, struct err *err)
{
	ssize_t n = getline(&t->line, &t->cap, f);

	if (n < 0) {
		if (ferror(f))
			return err_set(err, -EIO, "read error after line %zu",
				       t->lineno);
		return 0;
	}
	t->lineno++;
	t->len = (size_t)n;
	t->complete = n > 0 && t->line[n - 1] == '\n';
	if (t->complete)
		t->line[--t->len] = '\0';
	return 1;
}

bool textline_has_nul(const struct textline *t)
{
	return memchr(t->line, '\0', t->len) != NULL;
}

void textline_free(struct textline *t)
{
	free(t->line);
	memset(t, 0, sizeof(*t));
}

size_t textline_split(char *line, char **tok, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0')
			return n;
		if (n == max)
			return SIZE_MAX;
		tok[n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
}

bool textline_decimal(const char *s, bool negative_ok, double *v)
{
	const char *p = s;
	bool digits = false, dot = false;
	char *end;

	if (negative_ok && *p == '-')
		p++;
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits = true;
		else if (*p == '.' && !dot)
			dot = true;
		else
			return false;
	}
	if (!digits)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return errno == 0 && *end == '\0' && isfinite(*v);
}

bool textline_uint(const char *s, int base, uint64_t *v)
{
	const char *p;
	char *end;

	if (*s == '\0')
		return false;
	for (p = s; *p; p++)
		if (!(*p >= '0' && *p <= '9') &&
		    !(base == 16 &&
		      ((*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))))
			return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno == 0 && *end == '\0';
}

int textline_parse_file(const char *path, textline_parse_fn parse, void *out,
			struct err *err)
{
	char msg[ERR_MSG_MAX];
	FILE *f;
	int rc;

	f = fopen(path, "r");
	if (!f)
		return err_set(err, -errno, "%s: %s", path, strerror(errno));
	rc = parse(f, out, err);
	fclose(f);
	if (rc && err) {
		snprintf(msg, sizeof(msg), "%s", err->msg);
		err_set(err, rc, "%s: %s", path, msg);
	}
	return rc;
}
