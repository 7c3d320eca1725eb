/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * err.c - formatting of the error messages library code returns.
 * Messages are cut to one line: a newline from, say, a libpq message would
 * otherwise break the "one clear error line" rule.
 */
#include "src/base/err.h"

#include <stdio.h>
#include <string.h>

int err_vset(struct err *err, int code, const char *fmt, va_list ap)
{
	char *nl;

	if (!err)
		return code;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	while ((nl = strchr(err->msg, '\n')) != NULL) {
		if (nl[1] == '\0')
			*nl = '\0';
		else
			*nl = ' ';
	}
	return code;
}

int err_set(struct err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}

void err_clear(struct err *err)
{
	if (err)
		err->msg[0] = '\0';
}
