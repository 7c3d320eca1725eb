/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_conninfo.c - libFuzzer target for the conninfo checks
 * (pgconn_validate, pgconn_redact in drivers/pgconn.c). Besides the sanitizers it checks
 * the promise that matters: what redact writes never carries a password,
 * and when it was not cut to fit, libpq reads it back as the same
 * settings less the password.
 */
#include "tests/fuzz/fuzz.h"

#include <libpq-fe.h>

#include "drivers/pgconn.h"

/* Room redact may leave unused when it stopped short of a value. */
#define FUZZ_CUT_SLACK 8

/* The value of keyword in opts, or NULL. */
static const char *value_of(const PQconninfoOption *opts, const char *keyword)
{
	for (; opts && opts->keyword; opts++)
		if (strcmp(opts->keyword, keyword) == 0)
			return opts->val;
	return NULL;
}

/* Abort unless redacted is original less its password. */
static void check_redacted(const char *text, const char *redacted)
{
	PQconninfoOption *orig = PQconninfoParse(text, NULL), *back, *o;
	bool whole = strlen(redacted) + FUZZ_CUT_SLACK < 1024;

	back = PQconninfoParse(redacted, NULL);
	if (pgconn_is_dbname(text)) {
		/* a bare database name, as PQconnectdbParams with
		   expand_dbname takes any text without '=' (" " too, which
		   PQconninfoParse would read as no setting at all): redact
		   writes it as dbname='...' */
		const char *db = value_of(back, "dbname");

		if (whole && (!db || strcmp(db, text) != 0))
			abort();
		for (o = back; o && o->keyword; o++)
			if (o->val && strcmp(o->keyword, "password") == 0)
				abort();
		PQconninfoFree(back);
		PQconninfoFree(orig);
		return;
	}
	if (!back && whole && orig)
		abort(); /* redact wrote what libpq cannot read */
	for (o = back; o && o->keyword; o++) {
		const char *was = value_of(orig, o->keyword);

		if (o->val && strcmp(o->keyword, "password") == 0)
			abort(); /* a password reached the output */
		if (whole && strcmp(o->keyword, "password") != 0 &&
		    (!o->val != !was || (was && strcmp(o->val, was) != 0)))
			abort(); /* a setting changed on the way */
	}
	PQconninfoFree(back);
	PQconninfoFree(orig);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[1024];
	struct err err;
	char *text;

	if (memchr(data, '\0', size))
		return 0; /* a C string ends at the first NUL */
	text = fuzz_strndup(data, size);
	if (!text)
		return 0;
	pgconn_redact(text, out, sizeof(out));
	if (strlen(out) >= sizeof(out))
		abort();
	if (pgconn_validate(text, &err) == 0)
		check_redacted(text, out);
	else if (strcmp(out, "(unparsable conninfo)") != 0)
		abort(); /* validate and redact disagree */
	pgconn_redact(text, out, 8);
	free(text);
	return 0;
}
