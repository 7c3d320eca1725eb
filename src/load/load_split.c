/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load_split.c - the statements of the schema files as the loader runs
 * them one at a time: schema/indexes.sql and schema/analyze.sql cut at
 * their "-- next" lines, and the table each statement works on. Pure
 * text work, shared by the loader (load.c) and the layouts' DDL
 * (layout_ddl.c), so neither calls into the other for it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/load/load.h"

/*
 * The table a statement of indexes.sql works on: the name after
 * "ALTER TABLE [IF EXISTS] [ONLY]", or after "ON [ONLY]" in "CREATE
 * [UNIQUE] INDEX ... ON". -1 if none of ours (such a statement waits for
 * every COPY).
 */
int load_statement_table(const char *sql)
{
	char words[24][64];
	const char *p = sql;
	int n = 0, i;

	while (*p && n < 24) {
		size_t len = 0;

		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			continue;
		}
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '"') {
			p++;
			continue;
		}
		while (*p && (isalnum((unsigned char)*p) || *p == '_' ||
			      *p == '"' || *p == '.')) {
			if (len + 1 < sizeof(words[0]) && *p != '"')
				words[n][len++] =
					(char)tolower((unsigned char)*p);
			p++;
		}
		words[n][len] = '\0';
		if (strcmp(words[n], "only") && strcmp(words[n], "if") &&
		    strcmp(words[n], "exists"))
			n++;
	}
	if (n >= 3 && !strcmp(words[0], "alter") && !strcmp(words[1], "table"))
		i = 2;
	else if (n >= 2 && !strcmp(words[0], "analyze"))
		i = 1;
	else if (n >= 1 && !strcmp(words[0], "create"))
		for (i = 1; i < n && strcmp(words[i - 1], "on"); i++)
			;
	else
		return -1;
	if (i >= n)
		return -1;
	p = strrchr(words[i], '.');
	return load_table_by_name(p ? p + 1 : words[i]);
}

/* Whether text holds anything besides whitespace and -- comments. */
static bool has_sql(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (s[i] == '-' && i + 1 < len && s[i + 1] == '-') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (isspace((unsigned char)s[i])) {
			i++;
		} else {
			return true;
		}
	}
	return false;
}

/* Whether the line [p, eol) holds only "-- next" (and blanks). */
static bool is_separator(const char *p, const char *eol)
{
	while (p < eol && isspace((unsigned char)*p))
		p++;
	while (eol > p && isspace((unsigned char)eol[-1]))
		eol--;
	return eol - p == 7 && strncmp(p, "-- next", 7) == 0;
}

int load_split_statements(const char *text, char **stmts, int max)
{
	const char *start = text, *p = text;
	int n = 0;

	for (;;) {
		const char *eol = p + strcspn(p, "\n");
		bool sep = is_separator(p, eol);

		if (sep || !*eol) {
			const char *end = sep ? p : eol;

			if (has_sql(start, (size_t)(end - start))) {
				if (n == max) {
					while (n)
						free(stmts[--n]);
					return -E2BIG;
				}
				stmts[n] =
					strndup(start, (size_t)(end - start));
				if (!stmts[n]) {
					while (n)
						free(stmts[--n]);
					return -ENOMEM;
				}
				n++;
			}
			if (!*eol)
				return n;
			start = eol + 1;
		}
		p = eol + 1;
	}
}
