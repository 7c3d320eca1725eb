/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * err.h - how library code hands an error back to the command layer.
 *
 * Functions below the command layer never print: they return a negative
 * errno-style code and, when the caller passed a struct err, a one-line
 * message saying what failed and with what value. Only src/cmd/ prints
 * (as "oltpmark: <msg>") and chooses the exit status.
 */
#ifndef OLTPMARK_ERR_H
#define OLTPMARK_ERR_H

#include <stdarg.h>

#define ERR_MSG_MAX 512

/* One error message; empty string when nothing failed. */
struct err {
	char msg[ERR_MSG_MAX]; /* a single line, no trailing newline */
};

/*
 * Format a message into err (which may be NULL) and return code, which
 * should be negative (e.g. -EINVAL), so callers can write
 * "return err_set(err, -EINVAL, "bad value '%s'", s);".
 */
int err_set(struct err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As err_set, with a va_list. */
int err_vset(struct err *err, int code, const char *fmt, va_list ap);

/* Clear a message (so err->msg is ""). Safe on NULL. */
void err_clear(struct err *err);

#endif
