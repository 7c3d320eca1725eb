/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_check_parse.c - check_parse(), which cuts schema/checks.sql into
 * its conditions: a line "-- C<n>: <description>" starts one, the text up
 * to the next such line (or the end) is its query, and lines before the
 * first are the header. Checked on small texts (number and description as
 * written, the query text, what is not a condition line, a condition
 * without a query, too many conditions, a description too long for its
 * field) and on the embedded checks.sql, which must follow the format
 * docs/schema.md gives it: C1..C12 in order, one statement each.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/load/check.h"
#include "src/load/schema_sql.h"

#define MAX_OUT 4

/* A text that parses, and the conditions it must give. */
struct parse_case {
	const char *name; /* what the case is about */
	const char *text; /* the input */
	int n;		  /* conditions expected */
	struct {
		int number;	  /* n of "C<n>" */
		const char *desc; /* description */
		const char *sql;  /* query, blanks around it aside */
	} out[MAX_OUT];
};

static const struct parse_case cases[] = {
	{"empty text", "", 0, {{0}}},
	{"a header only", "-- checks\n-- C is for condition\n\n", 0, {{0}}},
	{"two conditions after a header",
	 "-- header\n--\n-- C1: first\nSELECT 1;\n-- C2: second one\n"
	 "SELECT 2\n  FROM t;\n",
	 2,
	 {{1, "first", "SELECT 1;"}, {2, "second one", "SELECT 2\n  FROM t;"}}},
	{"no newline at the end",
	 "-- C1: a\nSELECT 1;",
	 1,
	 {{1, "a", "SELECT 1;"}}},
	{"blanks around description and query do not count",
	 "-- C1:   spaced out  \t\n\n  SELECT 1;  \n\n",
	 1,
	 {{1, "spaced out", "SELECT 1;"}}},
	{"CRLF line ends",
	 "-- C1: a\r\nSELECT 1;\r\n-- C2: b\r\nSELECT 2;\r\n",
	 2,
	 {{1, "a", "SELECT 1;"}, {2, "b", "SELECT 2;"}}},
	{"numbers as written, in file order, no description needed",
	 "-- C12: last\nSELECT 12;\n-- C3:\nSELECT 3;\n",
	 2,
	 {{12, "last", "SELECT 12;"}, {3, "", "SELECT 3;"}}},
	{"lines that do not start a condition belong to the query",
	 "-- C1: a\nSELECT '-- C2: in a string'\n  -- C3: indented\n"
	 "-- c4: lower case\n-- C: no number\n-- C5 without colon\n;\n",
	 1,
	 {{1, "a",
	   "SELECT '-- C2: in a string'\n  -- C3: indented\n"
	   "-- c4: lower case\n-- C: no number\n-- C5 without colon\n;"}}},
	/* fuzz_checks found these taken for conditions: sscanf's blank and
	   %d skipped the newline, and the description ran into the next
	   lines. tests/fuzz/crashes/checks/ keeps the input. */
	{"a condition line is one line",
	 "-- C1: a\nSELECT 1\n--\n C2: not one\n-- C\n3: nor this\n"
	 "-- C 4: nor this\n-- C-5: nor this\n-- C99999999999: nor this\n;\n",
	 1,
	 {{1, "a",
	   "SELECT 1\n--\n C2: not one\n-- C\n3: nor this\n"
	   "-- C 4: nor this\n-- C-5: nor this\n-- C99999999999: nor "
	   "this\n;"}}},
	{"a header line \"--\" before a condition",
	 "-- header\n--\n-- C2: second\nSELECT 2;\n",
	 1,
	 {{2, "second", "SELECT 2;"}}},
};

/*
 * The query without the blanks in front: whether the parser keeps them is
 * its business (the server skips them), trailing blanks it removes.
 */
static const char *unblank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static void test_cases(void **state)
{
	struct check_cond conds[CHECK_MAX];
	struct err err = {""};
	size_t i;
	int n, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct parse_case *c = &cases[i];

		n = check_parse(c->text, conds, &err);
		if (n != c->n)
			fail_msg("%s: %d conditions (%s), expected %d", c->name,
				 n, err.msg, c->n);
		for (k = 0; k < n; k++) {
			if (conds[k].number != c->out[k].number)
				fail_msg(
					"%s: condition %d is C%d, expected C%d",
					c->name, k, conds[k].number,
					c->out[k].number);
			if (strcmp(conds[k].desc, c->out[k].desc) != 0)
				fail_msg("%s: C%d description '%s', expected "
					 "'%s'",
					 c->name, conds[k].number,
					 conds[k].desc, c->out[k].desc);
			if (strcmp(unblank(conds[k].sql), c->out[k].sql) != 0)
				fail_msg("%s: C%d query '%s', expected '%s'",
					 c->name, conds[k].number, conds[k].sql,
					 c->out[k].sql);
		}
		check_conds_free(conds, n);
	}
}

/* Texts that do not parse: -EINVAL, err naming the problem, no leak. */
static void test_errors(void **state)
{
	static const struct {
		const char *text; /* the input */
		const char *msg;  /* err.msg expected */
	} bad[] = {
		{"-- C1: a\n-- C2: b\nSELECT 2;\n",
		 "checks.sql: C1 has no query"},
		{"-- C1: a\nSELECT 1;\n-- C2: b\n  \n\n",
		 "checks.sql: C2 has no query"},
		{"-- C1: a\nSELECT 1;\n-- C7: b",
		 "checks.sql: C7 has no query"},
	};
	struct check_cond conds[CHECK_MAX];
	struct err err = {""};
	char *many;
	size_t i, len = 0;
	int k;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = '\0';
		assert_int_equal(check_parse(bad[i].text, conds, &err),
				 -EINVAL);
		assert_string_equal(err.msg, bad[i].msg);
	}

	/* CHECK_MAX conditions fit; one more does not */
	many = malloc((CHECK_MAX + 1) * 32);
	assert_non_null(many);
	for (k = 1; k <= CHECK_MAX; k++)
		len += (size_t)sprintf(many + len, "-- C%d: c\nSELECT %d;\n", k,
				       k);
	assert_int_equal(check_parse(many, conds, &err), CHECK_MAX);
	assert_int_equal(conds[CHECK_MAX - 1].number, CHECK_MAX);
	check_conds_free(conds, CHECK_MAX);
	sprintf(many + len, "-- C%d: c\nSELECT 0;\n", CHECK_MAX + 1);
	err.msg[0] = '\0';
	assert_int_equal(check_parse(many, conds, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "more than"));
	free(many);
}

/* A description longer than its field is cut, never overflows. */
static void test_long_description(void **state)
{
	struct check_cond conds[CHECK_MAX];
	struct err err = {""};
	char text[1024];
	size_t len;

	(void)state;
	len = (size_t)snprintf(text, sizeof(text), "-- C1: ");
	memset(text + len, 'x', 600);
	snprintf(text + len + 600, sizeof(text) - len - 600, "\nSELECT 1;\n");
	assert_int_equal(check_parse(text, conds, &err), 1);
	len = strlen(conds[0].desc);
	assert_true(len > 200 && len < sizeof(conds[0].desc));
	assert_int_equal(strspn(conds[0].desc, "x"), len);
	assert_string_equal(unblank(conds[0].sql), "SELECT 1;");
	check_conds_free(conds, 1);
	/* freeing twice is harmless: the first free clears the pointers */
	assert_null(conds[0].sql);
	check_conds_free(conds, 1);
}

/*
 * The embedded checks.sql follows its own format: C1..C12 in order, each
 * with a description and exactly one statement, ending in ";", with no
 * other ";" and no comment inside (docs/schema.md, "Consistency checks").
 */
static void test_checks_sql(void **state)
{
	struct check_cond conds[CHECK_MAX];
	struct err err = {""};
	int n, k;

	(void)state;
	n = check_parse(schema_checks_sql, conds, &err);
	assert_int_equal(n, 12);
	for (k = 0; k < n; k++) {
		const char *sql = unblank(conds[k].sql);
		size_t len = strlen(sql);

		assert_int_equal(conds[k].number, k + 1);
		if (conds[k].desc[0] == '\0')
			fail_msg("C%d has no description", k + 1);
		if (strncmp(sql, "SELECT", 6) != 0 &&
		    strncmp(sql, "WITH", 4) != 0)
			fail_msg("C%d does not start with SELECT or WITH",
				 k + 1);
		if (len == 0 || sql[len - 1] != ';' ||
		    strchr(sql, ';') != sql + len - 1)
			fail_msg("C%d is not one statement ending in ';'",
				 k + 1);
		if (strstr(sql, "--"))
			fail_msg("C%d has a comment inside its query", k + 1);
	}
	/* the one check_run treats apart, and the --quick boundary */
	assert_non_null(strstr(conds[CHECK_AFTER_DELIVERY - 1].desc, "2100"));
	assert_true(CHECK_QUICK_LAST < n);
	check_conds_free(conds, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_long_description),
		cmocka_unit_test(test_checks_sql),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
