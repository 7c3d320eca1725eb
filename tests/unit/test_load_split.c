/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_load_split.c - load_split_statements(), which cuts indexes.sql and
 * analyze.sql into the statements the loader runs in parallel. It splits
 * only at lines holding "-- next" and nothing else, so a group keeps its
 * semicolons, quoted strings, dollar-quoted bodies and comments intact,
 * and groups holding nothing but comments and blanks are dropped. Cases
 * as a table: input, then the statements expected, exactly. Leaks on the
 * error paths show under the sanitizer build.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/load/load.h"
#include "src/load/schema_sql.h"

#define MAX_OUT 8

/* One input and the statements it must give. */
struct split_case {
	const char *name;	  /* what the case is about */
	const char *text;	  /* the input */
	int n;			  /* statements expected */
	const char *out[MAX_OUT]; /* each one, byte for byte */
};

static const struct split_case cases[] = {
	{"empty input", "", 0, {NULL}},
	{"blanks and comments only", "  \n-- header\n\n\t-- more\n", 0, {NULL}},
	{"one statement, no newline at the end", "SELECT 1;", 1, {"SELECT 1;"}},
	{"the last statement has no semicolon",
	 "A;\n-- next\nB",
	 2,
	 {"A;\n", "B"}},
	{"semicolons do not split: one group may hold several statements",
	 "SET x = 1; SELECT 2;\nSELECT 3;\n",
	 1,
	 {"SET x = 1; SELECT 2;\nSELECT 3;\n"}},
	{"a semicolon inside a string",
	 "INSERT INTO t VALUES ('a;b');\n",
	 1,
	 {"INSERT INTO t VALUES ('a;b');\n"}},
	{"a dollar-quoted body with semicolons and comments",
	 "DO $$\nBEGIN\n\tPERFORM 1; -- not a separator\n\tPERFORM 2;\n"
	 "END $$;\n-- next\nANALYZE item;\n",
	 2,
	 {"DO $$\nBEGIN\n\tPERFORM 1; -- not a separator\n\tPERFORM 2;\n"
	  "END $$;\n",
	  "ANALYZE item;\n"}},
	{"comments before a statement stay with it",
	 "-- why this index\nCREATE INDEX i ON item (i_id);\n",
	 1,
	 {"-- why this index\nCREATE INDEX i ON item (i_id);\n"}},
	{"a group of comments only is dropped",
	 "A\n-- next\n-- only a comment\n\n-- next\nB\n",
	 2,
	 {"A\n", "B\n"}},
	{"separators in a row, at the start and at the end",
	 "-- next\n-- next\nA\n-- next\n-- next\n",
	 1,
	 {"A\n"}},
	{"blanks around the separator",
	 "A\n  \t-- next \t\nB\n",
	 2,
	 {"A\n", "B\n"}},
	{"CRLF line ends", "A\r\n-- next\r\nB\r\n", 2, {"A\r\n", "B\r\n"}},
	{"lines that are not separators",
	 "A\n-- nextB\n--next\n-- next group\nSELECT 1 -- next\n",
	 1,
	 {"A\n-- nextB\n--next\n-- next group\nSELECT 1 -- next\n"}},
	{"a separator inside a string is still a separator (line based)",
	 "SELECT '\n-- next\n';\n",
	 2,
	 {"SELECT '\n", "';\n"}},
};

static void free_all(char **stmts, int n)
{
	while (n > 0)
		free(stmts[--n]);
}

static void test_cases(void **state)
{
	char *stmts[MAX_OUT];
	size_t i;
	int n, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct split_case *c = &cases[i];

		n = load_split_statements(c->text, stmts, MAX_OUT);
		if (n != c->n)
			fail_msg("%s: %d statements, expected %d", c->name, n,
				 c->n);
		for (k = 0; k < n; k++)
			if (strcmp(stmts[k], c->out[k]) != 0)
				fail_msg("%s: statement %d is '%s', expected "
					 "'%s'",
					 c->name, k, stmts[k], c->out[k]);
		free_all(stmts, n);
	}
}

/* max is a hard limit: exactly max is fine, one more frees and fails. */
static void test_limit(void **state)
{
	const char *three = "A\n-- next\nB\n-- next\nC\n";
	char *stmts[3] = {NULL, NULL, NULL};

	(void)state;
	assert_int_equal(load_split_statements(three, stmts, 3), 3);
	assert_string_equal(stmts[2], "C\n");
	free_all(stmts, 3);
	assert_int_equal(load_split_statements(three, stmts, 2), -E2BIG);
	/* comment-only groups do not count against the limit */
	assert_int_equal(load_split_statements("-- a\n-- next\nA\n-- next\n"
					       "-- b\n-- next\nB",
					       stmts, 2),
			 2);
	free_all(stmts, 2);
	assert_int_equal(load_split_statements("", stmts, 0), 0);
	assert_int_equal(load_split_statements("A", stmts, 0), -E2BIG);
}

/*
 * What the loader feeds it: every statement of the embedded files names
 * its table, so it can start once that table is loaded, and keeps its
 * comments (the "why" of the index) with it.
 */
static void test_schema_files(void **state)
{
	static const struct {
		const char *name;
		const char *text;
	} files[] = {
		{"indexes.sql", schema_indexes_sql},
		{"analyze.sql", schema_analyze_sql},
	};
	char *stmts[64];
	size_t f;
	int n, k;

	(void)state;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		n = load_split_statements(files[f].text, stmts, 64);
		assert_true(n >= LOAD_TABLE_NR);
		for (k = 0; k < n; k++) {
			if (load_statement_table(stmts[k]) < 0)
				fail_msg("%s: no table of ours in '%s'",
					 files[f].name, stmts[k]);
			if (strstr(stmts[k], "\n-- next\n") ||
			    strncmp(stmts[k], "-- next\n", 8) == 0)
				fail_msg("%s: separator left in '%s'",
					 files[f].name, stmts[k]);
		}
		free_all(stmts, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_schema_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
