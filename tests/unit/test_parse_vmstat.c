/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_vmstat.c - vmstat parser on the real outputs in
 * tests/fixtures (plain, -t, -w with gu) and on broken inputs: cut files,
 * random bytes, another tool's output, an empty file. Broken inputs must
 * give an error or a counted partial result, never a crash (the tests run
 * under ASan and UBSan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/parsers/parse_vmstat.h"
#include "tests/unit/fixture_util.h"

/* Parse len bytes of buf through a temporary file. */
static int parse_bytes(const void *buf, size_t len, struct vmstat_series *s,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_vmstat.XXXXXX";
	int rc = parse_vmstat_file(fixture_write_temp(buf, len, path), s, err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct vmstat_series *s, struct err *err)
{
	return parse_bytes(text, strlen(text), s, err);
}

static double col(const struct vmstat_series *s, size_t i, const char *name)
{
	int c = parse_vmstat_column(s, name);

	assert_true(c >= 0);
	return parse_vmstat_value(s, i, c);
}

static void test_plain(void **state)
{
	static const char *const names[] = {
		"r",  "b",  "swpd", "free", "buff", "cache", "si", "so", "bi",
		"bo", "in", "cs",   "us",   "sy",   "id",    "wa", "st",
	};
	static const double cs[] = {1763, 1121, 1049, 943, 768};
	static const double b[] = {0, 0, 0, 1, 0};
	struct vmstat_series s;
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(
		parse_vmstat_file(fixture_path("vmstat-n-1.txt"), &s, &err), 0);
	assert_int_equal(s.ncols, 17);
	for (i = 0; i < 17; i++)
		assert_string_equal(s.cols[i], names[i]);
	/* Six data lines, the since-boot one (cs 794) dropped. */
	assert_int_equal(s.nsamples, 5);
	for (i = 0; i < 5; i++) {
		assert_true(col(&s, i, "cs") == cs[i]);
		assert_true(col(&s, i, "b") == b[i]);
	}
	assert_true(col(&s, 0, "bo") == 38984);
	assert_true(col(&s, 4, "in") == 683);
	assert_true(col(&s, 2, "free") == 22572080);
	assert_int_equal(parse_vmstat_column(&s, "cs"), 11);
	assert_int_equal(parse_vmstat_column(&s, "gu"), -1);
	assert_int_equal(parse_vmstat_column(&s, "UTC"), -1);
	assert_false(s.has_time);
	assert_null(s.time_s);
	assert_int_equal(s.headers, 1);
	assert_int_equal(s.bad_lines, 0);
	assert_true(isnan(parse_vmstat_value(&s, 5, 0)));
	assert_true(isnan(parse_vmstat_value(&s, 0, 17)));
	assert_true(isnan(parse_vmstat_value(&s, 0, -1)));
	parse_vmstat_free(&s);
	parse_vmstat_free(&s);
}

static void test_timestamps(void **state)
{
	static const double cs[] = {935, 1404, 1333};
	struct vmstat_series s;
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(
		parse_vmstat_file(fixture_path("vmstat-t-n-1.txt"), &s, &err),
		0);
	assert_int_equal(s.ncols, 17);
	assert_string_equal(s.cols[16], "st");
	assert_true(s.has_time);
	assert_string_equal(s.tz, "UTC");
	assert_true(s.tz_utc);
	assert_int_equal(s.nsamples, 3);
	for (i = 0; i < 3; i++) {
		assert_true(col(&s, i, "cs") == cs[i]);
		/* 2026-11-29 21:06:40 UTC, then one per second. */
		assert_int_equal(s.time_s[i], 1795986400 + (int64_t)i);
	}
	assert_true(col(&s, 0, "bo") == 50864);
	parse_vmstat_free(&s);
}

static void test_wide_gu(void **state)
{
	struct vmstat_series s;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_vmstat_file(fixture_path("vmstat-w-n-1.txt"), &s, &err),
		0);
	assert_int_equal(s.ncols, 18);
	assert_int_equal(parse_vmstat_column(&s, "gu"), 17);
	assert_int_equal(s.nsamples, 2);
	assert_true(col(&s, 0, "cs") == 1288);
	assert_true(col(&s, 1, "cs") == 1075);
	assert_true(col(&s, 1, "bo") == 40496);
	assert_true(col(&s, 0, "free") == 22329936);
	assert_true(col(&s, 0, "us") == 87);
	assert_true(col(&s, 1, "gu") == 0);
	parse_vmstat_free(&s);
}

/* Without -n vmstat prints both header lines again every screenful. */
static void test_repeated_headers(void **state)
{
	static const char text[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		" 1  0      0 100 10 1000    0    0  10  20  300  400 1 2 97 0 0\n"
		" 2  0      0 100 10 1000    0    0  11  21  301  401 1 2 97 0 0\n"
		" 3  0      0 100 10 1000    0    0  12  22  302  402 1 2 97 0 0\n"
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		" 4  0      0 100 10 1000    0    0  13  23  303  403 1 2 97 0 0\n";
	struct vmstat_series s;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &s, &err), 0);
	assert_int_equal(s.headers, 2);
	/* Only the very first data line is the since-boot average. */
	assert_int_equal(s.nsamples, 3);
	assert_true(col(&s, 0, "cs") == 401);
	assert_true(col(&s, 2, "cs") == 403);
	assert_true(col(&s, 2, "r") == 4);
	assert_int_equal(s.bad_lines, 0);
	parse_vmstat_free(&s);
}

/* -t where strftime gave no zone name: two more fields than the header. */
static void test_time_without_zone(void **state)
{
	static const char text[] =
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		" 1  0 0 100 10 1000 0 0 10 20 300 400 1 2 97 0 0 2026-11-29 21:06:39\n"
		" 2  0 0 100 10 1000 0 0 10 20 300 555 1 2 97 0 0 2026-11-29 21:06:40\n";
	struct vmstat_series s;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &s, &err), 0);
	assert_int_equal(s.ncols, 17);
	assert_true(s.has_time);
	assert_string_equal(s.tz, "");
	assert_false(s.tz_utc);
	assert_int_equal(s.nsamples, 1);
	assert_true(col(&s, 0, "cs") == 555);
	parse_vmstat_free(&s);
}

static void test_mean(void **state)
{
	struct vmstat_series s;
	struct err err = {""};
	double mean = -1;
	int cs;

	(void)state;
	assert_int_equal(
		parse_vmstat_file(fixture_path("vmstat-n-1.txt"), &s, &err), 0);
	cs = parse_vmstat_column(&s, "cs");
	assert_int_equal(parse_vmstat_mean(&s, cs, 0, 5, &mean, &err), 0);
	assert_true(mean == (1763.0 + 1121 + 1049 + 943 + 768) / 5);
	assert_int_equal(parse_vmstat_mean(&s, cs, 3, 2, &mean, &err), 0);
	assert_true(mean == (943.0 + 768) / 2);
	assert_int_equal(parse_vmstat_mean(&s, cs, 4, 2, &mean, &err), -EINVAL);
	assert_int_equal(parse_vmstat_mean(&s, cs, 0, 0, &mean, &err), -EINVAL);
	assert_int_equal(parse_vmstat_mean(&s, cs, 5, 1, &mean, &err), -EINVAL);
	assert_int_equal(parse_vmstat_mean(&s, -1, 0, 1, &mean, &err), -EINVAL);
	assert_int_equal(parse_vmstat_mean(&s, 17, 0, 1, &mean, &err), -EINVAL);
	assert_int_equal(parse_vmstat_mean(&s, cs, SIZE_MAX, 2, &mean, &err),
			 -EINVAL);
	parse_vmstat_free(&s);
}

/* Every cut of a real file: never a crash, and a sane result or error. */
static void test_every_cut(void **state)
{
	static const char *const files[] = {
		"vmstat-n-1.txt",
		"vmstat-t-n-1.txt",
		"vmstat-w-n-1.txt",
	};
	size_t f, len, cut;

	(void)state;
	for (f = 0; f < 3; f++) {
		char *buf = fixture_slurp(files[f], &len);

		for (cut = 0; cut <= len; cut++) {
			struct vmstat_series s;
			struct err err = {""};
			int rc = parse_bytes(buf, cut, &s, &err);

			if (rc == 0) {
				assert_true(s.nsamples > 0);
				assert_true(s.ncols >= 17);
			} else {
				assert_true(rc == -EINVAL || rc == -ENODATA);
				assert_true(err.msg[0] != '\0');
				assert_int_equal(s.nsamples, 0);
				assert_null(s.values);
			}
			parse_vmstat_free(&s);
		}
		free(buf);
	}
}

/* A file cut in the middle of its last line keeps the lines before it. */
static void test_truncated_mid_line(void **state)
{
	struct vmstat_series s;
	struct err err = {""};
	size_t len;
	char *buf = fixture_slurp("vmstat-n-1.txt", &len);

	(void)state;
	assert_int_equal(parse_bytes(buf, len - 12, &s, &err), 0);
	assert_int_equal(s.nsamples, 4);
	assert_int_equal(s.bad_lines, 1);
	assert_true(col(&s, 3, "cs") == 943);
	parse_vmstat_free(&s);

	/* Cut inside the header: no header, an error. */
	assert_int_equal(parse_bytes(buf, 120, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "header"));
	free(buf);
}

static void test_broken_inputs(void **state)
{
	unsigned char noise[4096];
	struct vmstat_series s;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *io;

	(void)state;
	assert_int_equal(parse_str("", &s, &err), -ENODATA);
	assert_int_equal(parse_str("\n\n  \n", &s, &err), -ENODATA);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &s, &err),
				 -EINVAL);
		assert_null(s.values);
	}

	/* Another tool's output: no vmstat header. */
	io = fixture_slurp("iostat-dxk-t-y-1.txt", &len);
	assert_int_equal(parse_bytes(io, len, &s, &err), -EINVAL);
	free(io);

	/* A header and the since-boot line only: nothing to report. */
	assert_int_equal(parse_str(" r b in cs\n 1 0 300 400\n", &s, &err),
			 -ENODATA);

	/* Lines that do not fit the header are counted, not fatal. */
	assert_int_equal(parse_str(" r b in cs\n 1 0 300 400\n"
				   " 1 0 300 401\n"
				   " 1 0 xyz 402\n"
				   " 1 0 300\n"
				   " 1 0 300 403 9\n"
				   " 1 0 nan 404\n"
				   " 1 0 0x10 405\n"
				   " 2 0 310 406\n",
				   &s, &err),
			 0);
	assert_int_equal(s.nsamples, 2);
	assert_int_equal(s.bad_lines, 5);
	assert_true(col(&s, 1, "cs") == 406);
	parse_vmstat_free(&s);

	/* A header without r and cs is not vmstat's. */
	assert_int_equal(parse_str(" a b c\n 1 2 3\n 1 2 3\n", &s, &err),
			 -EINVAL);

	assert_int_equal(parse_vmstat_file("/nonexistent/vmstat.txt", &s, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/vmstat.txt"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_wide_gu),
		cmocka_unit_test(test_repeated_headers),
		cmocka_unit_test(test_time_without_zone),
		cmocka_unit_test(test_mean),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_truncated_mid_line),
		cmocka_unit_test(test_broken_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
