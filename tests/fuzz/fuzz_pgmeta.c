/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_pgmeta.c - libFuzzer target for the reader of the oltpmark_meta
 * row (pgconn_meta_parse in drivers/pgconn.c, which pgconn_meta_read
 * hands the row's column names and text to), and pgconn_meta_format,
 * which `oltpmark check --meta` prints. The input is one "column=value"
 * per line (a line without "=" is a column that is SQL NULL), as the
 * server would give them. Besides the sanitizers it aborts when an
 * accepted row breaks pgconn.h's checks, or when what format writes does
 * not read back as the same row.
 */
#include "tests/fuzz/fuzz.h"

#include "drivers/pgconn.h"

/* Columns passed at most, as pgconn_meta_read does. */
#define FUZZ_META_COLS 32

/*
 * Cut text (changed in place) into column names and values at each
 * newline and its first "="; returns the number of columns.
 */
static int split_row(char *text, const char **keys, const char **values)
{
	int n = 0;
	char *line = text;

	while (line && *line && n < FUZZ_META_COLS) {
		char *nl = strchr(line, '\n'), *eq;

		if (nl)
			*nl = '\0';
		eq = strchr(line, '=');
		if (eq)
			*eq = '\0';
		keys[n] = line;
		values[n] = eq ? eq + 1 : NULL;
		n++;
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

/* Abort unless meta is what pgconn_meta_parse promises to accept. */
static void check_meta(const struct pgconn_meta *m)
{
	if ((strcmp(m->status, "loading") != 0 &&
	     strcmp(m->status, "loaded") != 0) ||
	    m->warehouses < 1 || m->c_load_c_last < 0 ||
	    m->c_load_c_last > 255 || m->seed < 0 || !m->version[0])
		abort();
}

/* Format m, read the lines back, and abort unless they give m again. */
static void check_format(const struct pgconn_meta *m)
{
	const char *keys[FUZZ_META_COLS], *values[FUZZ_META_COLS];
	struct pgconn_meta back;
	struct err err;
	char text[1024], small[16];
	int len, n;

	len = pgconn_meta_format(m, text, sizeof(text));
	if (len < 0 || (size_t)len >= sizeof(text) ||
	    (size_t)len != strlen(text))
		abort();
	if (pgconn_meta_format(m, small, sizeof(small)) != len ||
	    strlen(small) != sizeof(small) - 1)
		abort(); /* cut, terminated, the needed length returned */
	n = split_row(text, keys, values);
	if (pgconn_meta_parse(keys, values, n, &back, &err) < 0 ||
	    memcmp(&back, m, sizeof(back)) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *keys[FUZZ_META_COLS], *values[FUZZ_META_COLS];
	struct pgconn_meta meta;
	struct err err;
	char *text = fuzz_strndup(data, size);
	int n;

	if (!text)
		return 0;
	n = split_row(text, keys, values);
	if (pgconn_meta_parse(keys, values, n, &meta, &err) == 0) {
		check_meta(&meta);
		check_format(&meta);
	}
	free(text);
	return 0;
}
