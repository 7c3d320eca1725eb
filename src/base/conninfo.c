/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conninfo.c - parse connection strings with libpq's own parser
 * (PQconninfoParse) rather than ours, so we accept exactly what the
 * driver will, URIs included, and rebuild them without the password.
 */
#include "src/base/conninfo.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

int conninfo_validate(const char *conninfo, struct err *err)
{
	char *msg = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &msg);

	if (!opts) {
		/*
		 * libpq's parse errors quote the text around the mistake,
		 * which may be the password: say only that it does not parse.
		 */
		err_set(err, -EINVAL,
			"connection string does not parse as libpq keyword=value pairs or a URI%s",
			msg ? "" : " (out of memory)");
		PQfreemem(msg);
		return -EINVAL;
	}
	PQconninfoFree(opts);
	return 0;
}

/* Quote a value the way libpq's keyword=value syntax wants it. */
static size_t append_value(char *out, size_t pos, size_t size, const char *v)
{
	if (pos + 1 < size)
		out[pos++] = '\'';
	for (; *v && pos + 3 < size; v++) {
		if (*v == '\'' || *v == '\\')
			out[pos++] = '\\';
		out[pos++] = *v;
	}
	if (pos + 1 < size)
		out[pos++] = '\'';
	out[pos] = '\0';
	return pos;
}

void conninfo_redact(const char *conninfo, char *out, size_t out_size)
{
	PQconninfoOption *opts, *o;
	size_t pos = 0;

	if (out_size == 0)
		return;
	out[0] = '\0';
	opts = PQconninfoParse(conninfo, NULL);
	if (!opts) {
		snprintf(out, out_size, "(unparsable conninfo)");
		return;
	}
	for (o = opts; o->keyword; o++) {
		int n;

		if (!o->val || strcmp(o->keyword, "password") == 0)
			continue;
		n = snprintf(out + pos, out_size - pos, "%s%s=", pos ? " " : "",
			     o->keyword);
		if (n < 0 || (size_t)n >= out_size - pos)
			break;
		pos += (size_t)n;
		pos = append_value(out, pos, out_size, o->val);
	}
	PQconninfoFree(opts);
}
