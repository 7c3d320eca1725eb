/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pagelink.c - the links between report.html and compare.html
 * (analysis/common/pagelink.h): relative paths between absolute ones as a
 * table of cases, percent-encoding for href, and, on directories made
 * here, links to files not yet written and the search upward for
 * compare.html.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/common/pagelink.h"

static void test_relative(void **state)
{
	static const struct {
		const char *from; /* directory of the page */
		const char *to;	  /* file linked */
		const char *want; /* the link */
	} cases[] = {
		/* compare.html in RESULTS, a run's report below it */
		{"/r", "/r/lab/cached/run-1/report.html",
		 "lab/cached/run-1/report.html"},
		/* and back */
		{"/r/lab/cached/run-1", "/r/compare.html",
		 "../../../compare.html"},
		/* --out elsewhere */
		{"/tmp/out", "/r/lab/run-1/report.html",
		 "../../r/lab/run-1/report.html"},
		/* a shared prefix of characters is not a shared part */
		{"/r/ab", "/r/abc/x.html", "../abc/x.html"},
		{"/r/abc", "/r/ab/x.html", "../ab/x.html"},
		/* from the root, to the root */
		{"/", "/r/x.html", "r/x.html"},
		{"/a/b", "/x.html", "../../x.html"},
		/* a directory to itself and to its parent */
		{"/a/b", "/a/b", "."},
		{"/a/b", "/a", ".."},
		/* a trailing slash is no part */
		{"/a/b/", "/a/c/d.html", "../c/d.html"},
	};
	char out[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pagelink_relative(cases[i].from, cases[i].to,
						   out, sizeof(out)),
				 0);
		assert_string_equal(out, cases[i].want);
	}
	assert_int_equal(pagelink_relative("a", "/b", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(pagelink_relative("/a", "b", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(pagelink_relative("/a/b/c", "/x/report.html", out, 8),
			 -ENAMETOOLONG);
}

static void test_href(void **state)
{
	static const struct {
		const char *path; /* file path */
		const char *href; /* what goes into href="" */
	} cases[] = {
		{"../../compare.html", "../../compare.html"},
		{"a b/run#1/x?.html", "a%20b/run%231/x%3F.html"},
		{"q\"<&>'%", "q%22%3C%26%3E%27%25"},
		{"6.18-base~x_y/r", "6.18-base~x_y/r"},
		{"\xc3\xa9t\xc3\xa9", "%C3%A9t%C3%A9"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		pagelink_href(f, cases[i].path);
		assert_int_equal(fclose(f), 0);
		assert_string_equal(buf, cases[i].href);
		free(buf);
	}
}

/* Make dir (and its parents) below top; the path into out. */
static void make_dir(const char *top, const char *dir, char *out, size_t size)
{
	char cmd[PATH_MAX * 2];

	snprintf(out, size, "%s/%s", top, dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", out);
	assert_int_equal(system(cmd), 0);
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fclose(f), 0);
}

static void test_on_disk(void **state)
{
	char top[] = "/tmp/test_pagelink.XXXXXX", run[PATH_MAX], page[PATH_MAX],
	     out[PATH_MAX], cmd[PATH_MAX + 16], cwd[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(top));
	make_dir(top, "res/lab/cached/run-1", run, sizeof(run));

	/* nothing above the run yet */
	assert_false(pagelink_find_up(run, "compare.html", PAGELINK_UP_MAX, out,
				      sizeof(out)));

	/* a page not written yet, in a directory that exists */
	snprintf(page, sizeof(page), "%s/res/compare.html", top);
	assert_true(pagelink_make(run, page, out, sizeof(out)));
	assert_string_equal(out, "../../../compare.html");

	/* written: found three levels up, not with two */
	touch(page);
	assert_false(
		pagelink_find_up(run, "compare.html", 2, out, sizeof(out)));
	assert_true(pagelink_find_up(run, "compare.html", PAGELINK_UP_MAX, out,
				     sizeof(out)));
	assert_string_equal(out, "../../../compare.html");

	/* a nearer one wins */
	snprintf(page, sizeof(page), "%s/res/lab/compare.html", top);
	touch(page);
	assert_true(pagelink_find_up(run, "compare.html", PAGELINK_UP_MAX, out,
				     sizeof(out)));
	assert_string_equal(out, "../../compare.html");

	/* relative arguments resolve against the working directory */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(top), 0);
	assert_true(pagelink_make("res", "res/lab/cached/run-1/report.html",
				  out, sizeof(out)));
	assert_string_equal(out, "lab/cached/run-1/report.html");
	assert_true(pagelink_make(".", "x.html", out, sizeof(out)));
	assert_string_equal(out, "x.html");

	/* a directory that does not exist: the absolute path instead */
	assert_false(pagelink_make("res", "nowhere/x.html", out, sizeof(out)));
	snprintf(page, sizeof(page), "%s/nowhere/x.html", top);
	assert_string_equal(out, page);
	assert_int_equal(chdir(cwd), 0);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_href),
		cmocka_unit_test(test_on_disk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
