/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_evsource.c - the evidence sources (analysis/common/evsource.h):
 * run/hooks.tsv as embedded reads without a bad row, and its rows and
 * the C tables keyed by them agree both ways: every hook of the file is
 * a script in run/hooks (and every script there has a row), and every
 * view of report.html and every source of compare names a row (and a
 * file) of it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/common/evsource.h"
#include "analysis/compare/compare_evidence.h"
#include "analysis/report/html_evidence.h"

static void test_rows(void **state)
{
	const struct evsource *t;
	size_t n, i;

	(void)state;
	t = evsource_table(&n);
	assert_true(n >= 12);
	assert_int_equal(evsource_bad_rows(), 0);
	assert_string_equal(t[0].hook, "sysinfo");
	assert_non_null(evsource_find("interrupts"));
	assert_true(evsource_has_file(evsource_find("interrupts"),
				      "interrupts.stop"));
	assert_false(
		evsource_has_file(evsource_find("interrupts"), "vmstat.txt"));
	assert_null(evsource_find("no-such-hook"));
	assert_true(evsource_find("perf-lock")->diagnostic);
	assert_false(evsource_find("vmstat")->diagnostic);
	assert_null(evsource_find("procstat")->title);
	for (i = 0; i < n; i++) {
		assert_non_null(t[i].files[0]);
		assert_non_null(t[i].package);
	}
}

/* From the top of the tree (as make check runs it): the scripts. */
static void test_scripts(void **state)
{
	const struct evsource *t;
	struct dirent *e;
	size_t n, i;
	DIR *d;

	(void)state;
	d = opendir("run/hooks");
	if (!d)
		skip();
	t = evsource_table(&n);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "run/hooks/%s", t[i].hook);
		if (access(path, X_OK) != 0)
			fail_msg("run/hooks.tsv names %s: no such script",
				 path);
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "run-all") ||
		    !strcmp(e->d_name, "lib.sh"))
			continue;
		if (!evsource_find(e->d_name))
			fail_msg("run/hooks/%s has no row in run/hooks.tsv",
				 e->d_name);
	}
	closedir(d);
}

static void test_report_and_compare(void **state)
{
	struct err err;

	(void)state;
	err_clear(&err);
	if (html_evidence_check(&err) < 0)
		fail_msg("%s", err.msg);
	if (compare_evidence_sources_check(&err) < 0)
		fail_msg("%s", err.msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_scripts),
		cmocka_unit_test(test_report_and_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
