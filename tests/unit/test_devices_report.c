/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_devices_report.c - the per-device table in what `oltpmark report`
 * writes: summary.txt and report.html of a run directory made of the
 * golden run's mix.csv and run.json, its meta.json with the server.layout
 * of tests/fixtures/devices/wal-apart, and that fixture's iostat.json
 * (reports 1 to 6 s after the start; the window is set to 1 .. 4 s).
 * Without server.layout, summary.txt has no such table and report.html
 * says why.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "analysis/report/report.h"
#include "src/base/resfile.h"
#include "tests/unit/fixture_util.h"

/* A run directory: the golden run's files, meta.json with layout. */
static void make_run(char *dir, size_t size, bool layout)
{
	static const char *const copies[][2] = {
		{"../golden/run-basic/mix.csv", "mix.csv"},
		{"../golden/run-basic/run.json", "run.json"},
		{"devices/wal-apart/sys/iostat.json", "sys/iostat.json"},
	};
	struct err err = {""};
	json_t *meta = NULL, *fixture = NULL;
	char path[PATH_MAX];
	size_t i;

	assert_non_null(fixture_temp_dir(dir, size, "test_devices_report"));
	assert_true(snprintf(path, sizeof(path), "%s/sys", dir) <
		    (int)sizeof(path));
	assert_int_equal(mkdir(path, 0755), 0);
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		char *text =
			fixture_read_file(fixture_path(copies[i][0]), NULL);

		fixture_write_file(dir, copies[i][1], text);
		free(text);
	}
	if (resfile_load(fixture_path("../golden/run-basic/meta.json"), NULL,
			 &meta, &err) < 0 ||
	    resfile_load(fixture_path("devices/wal-apart/meta.json"), NULL,
			 &fixture, &err) < 0)
		fail_msg("%s", err.msg);
	if (layout)
		assert_int_equal(
			json_object_update(json_object_get(meta, "server"),
					   json_object_get(fixture, "server")),
			0);
	assert_true(snprintf(path, sizeof(path), "%s/meta.json", dir) <
		    (int)sizeof(path));
	assert_int_equal(resfile_write_json(path, meta, &err), 0);
	json_decref(meta);
	json_decref(fixture);
}

static char *read_out(const char *dir, const char *name)
{
	char path[PATH_MAX];

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, name) <
		    (int)sizeof(path));
	return fixture_read_file(path, NULL);
}

static void test_report_with_layout(void **state)
{
	struct report_options o = {
		.ramp_up_s = 1, .window_end_s = 4, .plots = true};
	struct err err = {""};
	char dir[PATH_MAX], *text, *sec;
	const char *a, *b;

	(void)state;
	make_run(dir, sizeof(dir), true);
	assert_int_equal(report_summarize(dir, &o, &err), 0);

	text = read_out(dir, "summary.txt");
	assert_non_null(strstr(text, "\nDevices under the database"));
	assert_non_null(strstr(text, "\n  sdb        data      60.0     20.0"));
	assert_non_null(strstr(text, "\n  sdd        WAL        0.0     40.0"));
	assert_non_null(strstr(text, "  - the data directory"));
	free(text);

	text = read_out(dir, "report.html");
	a = strstr(text, "<h3>Devices under the database <span "
			 "class=\"sub\">(meta.json server.layout, iostat, "
			 "diskstats)</span></h3>");
	assert_non_null(a);
	/* after the per-hook device sections, before pg-stats */
	assert_true(strstr(text, "(hook diskstats)") < a);
	b = strstr(text, "(hook pg-stats)");
	assert_non_null(b);
	assert_true(a < b);
	sec = strndup(a, (size_t)(b - a));
	assert_non_null(strstr(sec, "<tr><td class=\"l\">sdb</td>"
				    "<td class=\"l\">data</td><td>60.0</td>"));
	assert_non_null(strstr(sec, "<td class=\"l\">iostat</td>"));
	free(sec);
	free(text);
	assert_int_equal(fixture_rm_rf(dir), 0);
}

static void test_report_without_layout(void **state)
{
	struct report_options o = {
		.ramp_up_s = -1, .window_end_s = -1, .plots = true};
	struct err err = {""};
	char dir[PATH_MAX], *text;

	(void)state;
	make_run(dir, sizeof(dir), false);
	assert_int_equal(report_summarize(dir, &o, &err), 0);
	text = read_out(dir, "summary.txt");
	assert_null(strstr(text, "Devices under the database"));
	free(text);
	text = read_out(dir, "report.html");
	assert_non_null(strstr(text, "<h3>Devices under the database"));
	assert_non_null(strstr(text, "meta.json records no server.layout"));
	free(text);
	assert_int_equal(fixture_rm_rf(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_with_layout),
		cmocka_unit_test(test_report_without_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
