/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_readprofile.c - readprofile parser on the outputs in
 * tests/fixtures/readprofile: readprofile-{base,patched}.txt from the
 * shared fixtures, and readprofile-base-v.txt (-v) and
 * readprofile-patched-a.txt (-a), made with util-linux readprofile 2.38
 * from the same profile images. A cut, damaged or foreign file must be
 * an error: readprofile parsing is all or nothing.
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

#include "analysis/parsers/parse_readprofile.h"
#include "analysis/parsers/symbols.h"
#include "tests/unit/fixture_util.h"

static int parse_bytes(const void *buf, size_t len, struct rprof_profile *p,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_readprofile.XXXXXX";
	int rc = parse_readprofile_file(fixture_write_temp(buf, len, path), p,
					err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct rprof_profile *p, struct err *err)
{
	return parse_bytes(text, strlen(text), p, err);
}

static void test_base(void **state)
{
	static const char *const top[] = {
		"default_idle",		 "scsi_request_fn",   "schedule",
		"copy_user_generic",	 "scsi_dispatch_cmd", "__make_request",
		"generic_unplug_device", "do_page_fault",
	};
	static const uint64_t ticks[] = {596914, 7279, 3094, 2494,
					 2103,	 1503, 901,  805};
	struct rprof_profile p;
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(
		parse_readprofile_file(
			fixture_path("readprofile/readprofile-base.txt"), &p,
			&err),
		0);
	assert_int_equal(p.n, 8);
	assert_false(p.verbose);
	/* File order is address order. */
	assert_string_equal(p.entries[0].name, "default_idle");
	assert_string_equal(p.entries[7].name, "copy_user_generic");
	assert_true(p.has_unknown);
	assert_int_equal(p.unknown_ticks, 1234);
	assert_int_equal(p.total_ticks, 615093);
	assert_int_equal(p.sum_ticks, 615093);
	assert_true(fabs(p.total_load - 42.9055) < 1e-9);
	assert_true(fabs(parse_readprofile_find(&p, "scsi_request_fn")->load -
			 5.6867) < 1e-9);
	assert_null(parse_readprofile_find(&p, "total"));
	assert_null(parse_readprofile_find(&p, "*unknown*"));

	parse_readprofile_sort_by_ticks(&p);
	for (i = 0; i < 8; i++) {
		assert_string_equal(p.entries[i].name, top[i]);
		assert_int_equal(p.entries[i].ticks, ticks[i]);
	}
	parse_readprofile_free(&p);
	parse_readprofile_free(&p);
}

static void test_patched_and_variants(void **state)
{
	struct rprof_profile p, v;
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(
		parse_readprofile_file(
			fixture_path("readprofile/readprofile-patched.txt"), &p,
			&err),
		0);
	assert_int_equal(p.total_ticks, 622044);
	assert_int_equal(parse_readprofile_find(&p, "scsi_request_fn")->ticks,
			 5076);
	assert_int_equal(parse_readprofile_find(&p, "default_idle")->ticks,
			 606815);
	parse_readprofile_free(&p);

	/* -a adds the functions without ticks. */
	assert_int_equal(
		parse_readprofile_file(
			fixture_path("readprofile/readprofile-patched-a.txt"),
			&p, &err),
		0);
	assert_int_equal(p.n, 9);
	assert_int_equal(parse_readprofile_find(&p, "_stext")->ticks, 0);
	assert_int_equal(p.total_ticks, 622044);
	parse_readprofile_free(&p);

	/* -v: address, function, ticks, load; same numbers as without. */
	assert_int_equal(
		parse_readprofile_file(
			fixture_path("readprofile/readprofile-base-v.txt"), &v,
			&err),
		0);
	assert_int_equal(
		parse_readprofile_file(
			fixture_path("readprofile/readprofile-base.txt"), &p,
			&err),
		0);
	assert_true(v.verbose);
	assert_int_equal(v.n, p.n);
	for (i = 0; i < p.n; i++) {
		assert_string_equal(v.entries[i].name, p.entries[i].name);
		assert_int_equal(v.entries[i].ticks, p.entries[i].ticks);
		assert_true(v.entries[i].load == p.entries[i].load);
	}
	assert_true(v.entries[0].addr == 0xffffffff81000100ULL);
	assert_int_equal(v.total_ticks, 615093);
	assert_int_equal(v.unknown_ticks, 1234);
	parse_readprofile_free(&v);
	parse_readprofile_free(&p);
}

/* "total" in another language: recognised by the sum. */
static void test_translated_total(void **state)
{
	struct rprof_profile p;
	struct err err = {""};
	size_t len;
	char *buf = fixture_slurp("readprofile/readprofile-base.txt", &len);
	char *t = strstr(buf, "total");

	(void)state;
	memcpy(t, "summe", 5);
	assert_int_equal(parse_bytes(buf, len, &p, &err), 0);
	assert_int_equal(p.total_ticks, 615093);
	assert_int_equal(p.n, 8);
	parse_readprofile_free(&p);

	/* A total that is not the sum is an error, whatever it is called. */
	memcpy(t, "total", 5);
	t = strstr(buf, "615093");
	t[5] = '4';
	assert_int_equal(parse_bytes(buf, len, &p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "615094"));
	memcpy(t, "615093", 6);
	memcpy(strstr(buf, "total"), "summe", 5);
	t[5] = '4';
	assert_int_equal(parse_bytes(buf, len, &p, &err), -EINVAL);
	free(buf);
}

static void test_merge_normalized(void **state)
{
	static const char text[] =
		"   100 foo.isra.0                              1.0000\n"
		"    50 foo.constprop.2                         0.5000\n"
		"    30 bar                                     0.3000\n"
		"     0 foo.cold                                0.0000\n"
		"    20 baz.part.1.cold                         0.1000\n"
		"   200 total                                   0.5000\n";
	const struct rprof_entry *e;
	struct rprof_profile p;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &p, &err), 0);
	assert_false(p.has_unknown);
	assert_int_equal(parse_readprofile_merge_normalized(&p, &err), 0);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.entries[0].name, "foo");
	assert_string_equal(p.entries[1].name, "bar");
	assert_string_equal(p.entries[2].name, "baz");
	e = parse_readprofile_find(&p, "foo");
	assert_int_equal(e->ticks, 150);
	/* sizes 100 and 100 bytes: 150 ticks over 200 bytes */
	assert_true(fabs(e->load - 0.75) < 1e-9);
	assert_int_equal(parse_readprofile_find(&p, "baz")->ticks, 20);
	assert_int_equal(p.total_ticks, 200);
	parse_readprofile_free(&p);
}

static void test_symbols(void **state)
{
	static const char *const cases[][2] = {
		{"foo.isra.0", "foo"},
		{"foo.constprop.12", "foo"},
		{"foo.part.3", "foo"},
		{"foo.cold", "foo"},
		{"foo.cold.7", "foo"},
		{"foo.constprop.0.isra.0", "foo"},
		{"foo.isra.0.cold", "foo"},
		{"foo.llvm.1234567", "foo"},
		{"foo.lto_priv.0", "foo"},
		{"foo", "foo"},
		{".isra.0", ".isra.0"},
		{".cold", ".cold"},
		{"a.cold", "a"},
		{"foo.isra", "foo.isra"},
		{"foo.isra.", "foo.isra."},
		{"foo.bar.1", "foo.bar.1"},
		{"foo.0", "foo.0"},
		{"xisra.0", "xisra.0"},
		{"", ""},
	};
	char out[64];
	size_t i;
	char *d;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(
			symbols_normalize(cases[i][0], out, sizeof(out)),
			(int)strlen(cases[i][1]));
		assert_string_equal(out, cases[i][1]);
		d = symbols_normalize_dup(cases[i][0]);
		assert_string_equal(d, cases[i][1]);
		free(d);
	}
	assert_int_equal(symbols_normalize("foo.isra.0", out, 3),
			 -ENAMETOOLONG);
	assert_string_equal(out, "fo");
	assert_int_equal(symbols_normalize("foo", out, 0), -ENAMETOOLONG);
	assert_int_equal(symbols_base_len("bar.part.0xyz", 10), 3);
}

/* Every prefix of every fixture is an error, except the whole file. */
static void test_every_cut(void **state)
{
	static const char *const files[] = {
		"readprofile/readprofile-base.txt",
		"readprofile/readprofile-patched.txt",
		"readprofile/readprofile-base-v.txt",
	};
	size_t f, len, cut;

	(void)state;
	for (f = 0; f < 3; f++) {
		char *buf = fixture_slurp(files[f], &len);

		for (cut = 0; cut <= len; cut++) {
			struct rprof_profile p;
			struct err err = {""};
			int rc = parse_bytes(buf, cut, &p, &err);

			if (cut == len) {
				assert_int_equal(rc, 0);
			} else {
				assert_true(rc == -EINVAL || rc == -ENODATA);
				assert_true(err.msg[0] != '\0');
				assert_null(p.entries);
			}
			parse_readprofile_free(&p);
		}
		free(buf);
	}
}

static void test_broken_inputs(void **state)
{
	unsigned char noise[2048];
	struct rprof_profile p;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *buf;

	(void)state;
	assert_int_equal(parse_str("", &p, &err), -ENODATA);
	assert_int_equal(parse_str("\n\n", &p, &err), -ENODATA);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &p, &err),
				 -EINVAL);
	}
	buf = fixture_slurp("vmstat-n-1.txt", &len);
	assert_int_equal(parse_bytes(buf, len, &p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "line 1"));
	free(buf);
	/* The System.map is not a profile either. */
	buf = fixture_slurp("readprofile/System.map", &len);
	assert_int_equal(parse_bytes(buf, len, &p, &err), -EINVAL);
	free(buf);

	assert_int_equal(parse_str("  5 foo 1.0\n  x bar 1.0\n  5 total 1.0\n",
				   &p, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "line 2"));
	assert_int_equal(parse_str("  5 foo -1.0\n  5 total 1.0\n", &p, &err),
			 -EINVAL);
	assert_int_equal(parse_str("  5 foo 1.0\n 9 *unknown*\n 9 *unknown*\n"
				   "  5 total 1.0\n",
				   &p, &err),
			 -EINVAL);
	assert_int_equal(parse_str("  5 foo 1.0\n"
				   "ffffffff81000100 bar 5 1.0\n"
				   "  10 total 1.0\n",
				   &p, &err),
			 -EINVAL);
	assert_int_equal(parse_str(" 1234 *unknown*\n", &p, &err), -EINVAL);
	assert_int_equal(parse_str("1 a 1 1 1 1\n", &p, &err), -EINVAL);
	assert_int_equal(parse_readprofile_file("/nonexistent/readprofile.txt",
						&p, &err),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base),
		cmocka_unit_test(test_patched_and_variants),
		cmocka_unit_test(test_translated_total),
		cmocka_unit_test(test_merge_normalized),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_broken_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
