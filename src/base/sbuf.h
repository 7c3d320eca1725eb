/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sbuf.h - a growing string for the SQL the loader generates (the
 * layouts' DDL, the routes' schemas): printf appends, and a failed
 * allocation sticks, so a long run of appends checks once, at the end.
 */
#ifndef OLTPMARK_SBUF_H
#define OLTPMARK_SBUF_H

#include <stdbool.h>
#include <stddef.h>

/* Start as (struct sbuf){0}. */
struct sbuf {
	char *s;    /* the text, NUL-terminated once anything was added */
	size_t len; /* its length */
	size_t cap; /* bytes allocated */
	bool oom;   /* an allocation failed: later appends do nothing */
};

/* Append the formatted text. */
void sbuf_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Hand b's text to the caller, who frees it, and empty b. NULL when an
 * allocation failed (or nothing was added).
 */
char *sbuf_take(struct sbuf *b);

#endif
