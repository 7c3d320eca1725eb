/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * textline.h - reading the line-oriented text that system tools print
 * (vmstat, iostat, /proc/diskstats, /proc/interrupts, lock_stat, perf
 * report, readprofile), the same way for every parser in analysis/.
 *
 * A parser reads its stream one line at a time with textline_read(),
 * which strips the newline and says whether there was one (a hook killed
 * mid-write leaves a last line without it), splits the line at blanks
 * with textline_split(), reads numbers with textline_decimal() and
 * textline_uint(), which take no more than the tools print, and offers a
 * *_parse_file() through textline_parse_file(), which opens the file and
 * puts its path in front of the parser's message.
 */
#ifndef OLTPMARK_ANALYSIS_TEXTLINE_H
#define OLTPMARK_ANALYSIS_TEXTLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

/*
 * The current line of a stream. Zero it before the first textline_read()
 * ("struct textline tl = {0};") and release it with textline_free().
 */
struct textline {
	char *line;    /* the line without its newline, NUL-terminated; owned */
	size_t cap;    /* bytes allocated at line */
	size_t len;    /* bytes in line, NUL bytes inside it included */
	size_t lineno; /* 1-based number of the line in the stream */
	bool complete; /* it ended with a newline (was not cut short) */
};

/*
 * Read the next line of f into t. Returns 1 for a line, 0 at the end of
 * the stream, -EIO with err set ("read error after line N") when reading
 * failed. Not thread-safe on one t.
 */
int textline_read(struct textline *t, FILE *f, struct err *err);

/* Whether t's line holds a NUL byte (binary data or damage). */
bool textline_has_nul(const struct textline *t);

/* Free t's buffer and zero it. */
void textline_free(struct textline *t);

/*
 * Split line in place at blanks (space, tab, CR) into at most max
 * tokens. Returns the count (0 for a blank line), or SIZE_MAX when the
 * line has more than max tokens.
 */
size_t textline_split(char *line, char **tok, size_t max);

/*
 * A plain decimal token ("18411", "0.11"; "-3" too when negative_ok) into
 * *v: digits with at most one '.', nothing else (no exponent, "inf" or
 * "nan", which strtod() would take). false when s is not one or is out
 * of range.
 */
bool textline_decimal(const char *s, bool negative_ok, double *v);

/*
 * An unsigned integer token in base 10 or 16 (no sign, no "0x") into *v.
 * false when s is not one or does not fit.
 */
bool textline_uint(const char *s, int base, uint64_t *v);

/* A parser of a whole stream into out (the parser's own type). */
typedef int (*textline_parse_fn)(FILE *f, void *out, struct err *err);

/*
 * Open the file at path and run parse on it. Returns parse's result, or
 * the negative errno of fopen(); a message in err starts with "path: ".
 * out is left as parse (or, when the file does not open, the caller)
 * left it.
 */
int textline_parse_file(const char *path, textline_parse_fn parse, void *out,
			struct err *err);

#endif
