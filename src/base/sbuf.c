/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sbuf.c - a growing string (see sbuf.h).
 */
#include "src/base/sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 1024);
		char *s;

		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		s = realloc(b->s, cap);
		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *sbuf_take(struct sbuf *b)
{
	char *s = b->s;

	if (b->oom) {
		free(s);
		s = NULL;
	}
	*b = (struct sbuf){0};
	return s;
}
