/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_textline.c - the line reader every parser of tool output shares
 * (textline.h): lines longer than any buffer, a last line without its
 * newline, CRLF, NUL bytes, empty lines; splitting at blanks, the number
 * tokens the tools print, and the path put in front of a parser's
 * message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/parsers/textline.h"
#include "tests/unit/fixture_util.h"

static FILE *open_bytes(const char *buf, size_t len)
{
	/* fmemopen() may refuse a size of 0. */
	FILE *f =
		len ? fmemopen((void *)buf, len, "r") : fopen("/dev/null", "r");

	assert_non_null(f);
	return f;
}

/* The next line must be want (wlen bytes), complete or not. */
static void expect_line(struct textline *t, FILE *f, const char *want,
			size_t wlen, bool complete)
{
	struct err err = {""};

	assert_int_equal(textline_read(t, f, &err), 1);
	assert_int_equal(t->len, wlen);
	assert_memory_equal(t->line, want, wlen);
	assert_int_equal(t->line[wlen], '\0');
	assert_int_equal(t->complete, complete);
}

static void expect_end(struct textline *t, FILE *f)
{
	struct err err = {""};

	assert_int_equal(textline_read(t, f, &err), 0);
	assert_string_equal(err.msg, "");
}

static void test_lines(void **state)
{
	static const char text[] = "one\n\ntwo  words\nlast";
	struct textline t = {0};
	FILE *f = open_bytes(text, sizeof(text) - 1);

	(void)state;
	expect_line(&t, f, "one", 3, true);
	assert_int_equal(t.lineno, 1);
	expect_line(&t, f, "", 0, true);
	expect_line(&t, f, "two  words", 10, true);
	/* a hook killed mid-write leaves a line without its newline */
	expect_line(&t, f, "last", 4, false);
	assert_int_equal(t.lineno, 4);
	expect_end(&t, f);
	expect_end(&t, f);
	fclose(f);
	textline_free(&t);
	assert_null(t.line);
	assert_int_equal(t.lineno, 0);
}

static void test_empty_and_newline_only(void **state)
{
	struct textline t = {0};
	FILE *f = open_bytes("", 0);

	(void)state;
	expect_end(&t, f);
	fclose(f);
	f = open_bytes("\n", 1);
	expect_line(&t, f, "", 0, true);
	expect_end(&t, f);
	fclose(f);
	textline_free(&t);
}

/* A line far longer than any first allocation, then a short one. */
static void test_long_line(void **state)
{
	size_t len = 1 << 20, i;
	char *buf = malloc(len + 4);
	struct textline t = {0};
	FILE *f;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < len; i++)
		buf[i] = (char)('a' + i % 26);
	memcpy(buf + len, "\nb\n", 3);
	f = open_bytes(buf, len + 3);
	expect_line(&t, f, buf, len, true);
	expect_line(&t, f, "b", 1, true);
	expect_end(&t, f);
	fclose(f);
	textline_free(&t);
	free(buf);
}

/* CRLF: the CR stays in the line; splitting treats it as a blank. */
static void test_crlf(void **state)
{
	static const char text[] = "a b\r\n\r\n";
	struct textline t = {0};
	char *tok[4];
	FILE *f = open_bytes(text, sizeof(text) - 1);

	(void)state;
	expect_line(&t, f, "a b\r", 4, true);
	assert_int_equal(textline_split(t.line, tok, 4), 2);
	assert_string_equal(tok[1], "b");
	expect_line(&t, f, "\r", 1, true);
	assert_int_equal(textline_split(t.line, tok, 4), 0);
	expect_end(&t, f);
	fclose(f);
	textline_free(&t);
}

/* NUL bytes are kept and counted in len; textline_has_nul() sees them. */
static void test_nul(void **state)
{
	static const char text[] = "ab\0cd\nclean\n\0\n";
	struct textline t = {0};
	FILE *f = open_bytes(text, sizeof(text) - 1);

	(void)state;
	expect_line(&t, f, "ab\0cd", 5, true);
	assert_true(textline_has_nul(&t));
	/* as a C string the line ends at the NUL */
	assert_int_equal(strlen(t.line), 2);
	expect_line(&t, f, "clean", 5, true);
	assert_false(textline_has_nul(&t));
	expect_line(&t, f, "\0", 1, true);
	assert_true(textline_has_nul(&t));
	expect_end(&t, f);
	fclose(f);
	textline_free(&t);
}

static void test_split(void **state)
{
	static const struct {
		const char *line; /* input */
		size_t max;	  /* room for tokens */
		size_t n;	  /* result */
		const char *last; /* the last token, when n > 0 */
	} cases[] = {
		{"", 4, 0, NULL},
		{" \t \r", 4, 0, NULL},
		{"a", 4, 1, "a"},
		{"  lead and trail  ", 4, 3, "trail"},
		{"tab\tsep\r", 4, 2, "sep"},
		{"a b c d", 4, 4, "d"},
		{"a b c d e", 4, SIZE_MAX, NULL},
		{"x", 0, SIZE_MAX, NULL},
	};
	char buf[64], *tok[4];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("case %zu: \"%s\"\n", i, cases[i].line);
		snprintf(buf, sizeof(buf), "%s", cases[i].line);
		n = textline_split(buf, tok, cases[i].max);
		assert_int_equal(n, cases[i].n);
		if (n && n != SIZE_MAX)
			assert_string_equal(tok[n - 1], cases[i].last);
	}
}

static void test_decimal(void **state)
{
	static const struct {
		const char *s;	  /* token */
		bool negative_ok; /* allowed a '-' */
		bool ok;	  /* accepted */
		double v;	  /* value when accepted */
	} cases[] = {
		{"18411", false, true, 18411}, {"0.11", false, true, 0.11},
		{".5", false, true, 0.5},      {"7.", false, true, 7},
		{"-3", true, true, -3},	       {"-3", false, false, 0},
		{"-", true, false, 0},	       {"", false, false, 0},
		{".", false, false, 0},	       {"1.2.3", false, false, 0},
		{"1e5", false, false, 0},      {"inf", false, false, 0},
		{"nan", false, false, 0},      {"0x10", false, false, 0},
		{" 1", false, false, 0},       {"1 ", false, false, 0},
		{"+1", false, false, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -1;

		print_message("case \"%s\"\n", cases[i].s);
		assert_int_equal(
			textline_decimal(cases[i].s, cases[i].negative_ok, &v),
			cases[i].ok);
		if (cases[i].ok)
			assert_true(v == cases[i].v);
	}
}

static void test_uint(void **state)
{
	static const struct {
		const char *s; /* token */
		int base;      /* 10 or 16 */
		bool ok;       /* accepted */
		uint64_t v;    /* value when accepted */
	} cases[] = {
		{"0", 10, true, 0},
		{"18446744073709551615", 10, true, UINT64_MAX},
		{"18446744073709551616", 10, false, 0},
		{"ffffffff81000000", 16, true, 0xffffffff81000000ULL},
		{"FF", 16, true, 255},
		{"ff", 10, false, 0},
		{"0x10", 16, false, 0},
		{"-1", 10, false, 0},
		{"+1", 10, false, 0},
		{"", 10, false, 0},
		{"1.0", 10, false, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 1;

		print_message("case \"%s\"\n", cases[i].s);
		assert_int_equal(textline_uint(cases[i].s, cases[i].base, &v),
				 cases[i].ok);
		if (cases[i].ok)
			assert_true(v == cases[i].v);
	}
}

/* A parser for textline_parse_file(): counts lines, fails on "bad". */
static int count_lines(FILE *f, void *out, struct err *err)
{
	struct textline t = {0};
	size_t *n = out;
	int rc;

	while ((rc = textline_read(&t, f, err)) > 0) {
		if (strcmp(t.line, "bad") == 0) {
			rc = err_set(err, -EINVAL, "line %zu: bad", t.lineno);
			break;
		}
		(*n)++;
	}
	textline_free(&t);
	return rc;
}

static void test_parse_file(void **state)
{
	char path[] = "/tmp/test_textline.XXXXXX";
	struct err err = {""};
	size_t n = 0;

	(void)state;
	fixture_write_temp("a\nb\n", 4, path);
	assert_int_equal(textline_parse_file(path, count_lines, &n, &err), 0);
	assert_int_equal(n, 2);
	unlink(path);

	/* the parser's message gets the path in front */
	strcpy(path, "/tmp/test_textline.XXXXXX");
	fixture_write_temp("a\nbad\n", 6, path);
	n = 0;
	assert_int_equal(textline_parse_file(path, count_lines, &n, &err),
			 -EINVAL);
	assert_true(strncmp(err.msg, path, strlen(path)) == 0);
	assert_string_equal(err.msg + strlen(path), ": line 2: bad");
	unlink(path);

	/* a file that does not open: fopen()'s errno, the path named */
	n = 7;
	assert_int_equal(textline_parse_file(path, count_lines, &n, &err),
			 -ENOENT);
	assert_true(strncmp(err.msg, path, strlen(path)) == 0);
	assert_int_equal(n, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_empty_and_newline_only),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_parse_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
