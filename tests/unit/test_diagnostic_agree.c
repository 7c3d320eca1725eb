/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_diagnostic_agree.c - report and compare agree on whether a run is
 * diagnostic. They once did not: `--note diagnostic=yes` made a run
 * diagnostic for compare (which took yes/1) and not for report (which
 * took only true/false), so report scored a run that compare left out.
 *
 * End to end: `oltpmark run --note diagnostic=yes` with the null driver,
 * whose meta.json, summary.json and compare's reading must all say
 * diagnostic. Then hand-made run directories whose meta.json is what the
 * older `oltpmark run` wrote ("diagnostic": false beside the note), one
 * per spelling of the note: report's summary.json and compare's
 * exclusion must give the same answer, also when summary.json is from an
 * older report that said false.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis/compare/runset.h"
#include "analysis/report/report.h"
#include "src/cmd/cmd.h"
#include "tests/unit/fixture_util.h"

static char base[256]; /* this test's temporary directory */

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(base, sizeof(base), "test_diagnostic") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(base);
}

static json_t *load(const char *dir, const char *name)
{
	char path[PATH_MAX];
	json_error_t jerr;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	j = json_load_file(path, 0, &jerr);
	if (!j)
		fail_msg("%s: %s", path, jerr.text);
	return j;
}

/* summary.json "diagnostic" of dir: 1, 0, or -1 when not a boolean. */
static int report_says(const char *dir)
{
	json_t *s = load(dir, "summary.json");
	const json_t *d = json_object_get(s, "diagnostic");
	int v = json_is_boolean(d) ? json_is_true(d) : -1;

	json_decref(s);
	return v;
}

/* Whether compare, scanning top, leaves the run in dir out as diagnostic. */
static int compare_says(const char *top, const char *dir)
{
	const char *dirs[] = {top};
	struct runset rs = {0};
	struct err err = {""};
	int v = -1;
	size_t i;

	if (runset_scan(&rs, dirs, 1, "notpm", &err) < 0)
		fail_msg("runset_scan: %s", err.msg);
	for (i = 0; i < rs.nruns; i++)
		if (strcmp(rs.runs[i].dir, dir) == 0)
			v = rs.runs[i].exclusion == RUNSET_DIAGNOSTIC;
	if (v < 0)
		fail_msg("%s: not among compare's runs", dir);
	runset_free(&rs);
	return v;
}

/* cmd_run on a NULL-ended argv, its stderr thrown away. */
static int run_cmd(const char *const *args)
{
	return fixture_call_cmd(cmd_run, args, NULL, 0);
}

static void test_run_note_yes(void **state)
{
	char top[512], out[1024];
	const char *args[] = {"run",
			      "--driver",
			      "null",
			      "-w",
			      "1",
			      "-d",
			      "1",
			      "--ramp-up",
			      "0",
			      "--keying-think",
			      "scale=0.0001",
			      "--progress",
			      "0",
			      "--note",
			      "diagnostic=yes",
			      "--label",
			      "L",
			      "--config",
			      "cached",
			      "--out",
			      out,
			      NULL};
	json_t *meta;

	(void)state;
	snprintf(top, sizeof(top), "%s/e2e", base);
	snprintf(out, sizeof(out), "%s/L", top);
	assert_int_equal(mkdir(top, 0755), 0);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(out, sizeof(out), "%s/L/cached", top);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(out, sizeof(out), "%s/L/cached/run-1", top);
	assert_int_equal(run_cmd(args), 0);
	meta = load(out, "meta.json");
	/* the note as given, and the flag it means */
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(meta, "notes"), "diagnostic")),
		"yes");
	assert_true(json_is_true(json_object_get(meta, "diagnostic")));
	json_decref(meta);
	assert_int_equal(report_says(out), 1);
	assert_int_equal(compare_says(top, out), 1);
}

/* A run of 60 s with a few rows, ready for report. */
static const char mix_csv[] = "t_ms,terminal,type,status,response_us,"
			      "service_us\n"
			      "1000,1,new_order,ok,1000,900\n"
			      "2000,2,payment,ok,1000,900\n"
			      "30000,1,new_order,ok,2000,1800\n"
			      "59000,2,new_order,ok,3000,2500\n";
static const char run_json[] =
	"{\"format\": \"oltpmark-run/1\", \"partial\": false, "
	"\"end_reason\": \"completed\", \"ramp_up_s\": 0, "
	"\"duration_s\": 60, \"elapsed_s\": 60}\n";

static void test_note_spellings(void **state)
{
	static const struct {
		const char *note; /* notes.diagnostic as JSON */
		int want;	  /* diagnostic for both */
	} cases[] = {
		{"\"yes\"", 1},	  {"\"Yes\"", 1},  {"\"1\"", 1},
		{"\"on\"", 1},	  {"\"true\"", 1}, {"true", 1},
		{"1", 1},	  {"\"no\"", 0},   {"\"0\"", 0},
		{"\"false\"", 0}, {"false", 0},	   {"\"off\"", 0},
		{"\"maybe\"", 0}, {"\"\"", 0},	   {"null", 0},
	};
	char top[512], dir[1024], path[PATH_MAX], meta[512];
	size_t i;

	(void)state;
	snprintf(top, sizeof(top), "%s/spellings", base);
	assert_int_equal(mkdir(top, 0755), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct report_options o = {
			.ramp_up_s = -1, .window_end_s = -1, .plots = false};
		struct err err = {""};
		json_t *s;

		snprintf(dir, sizeof(dir), "%s/run-%zu", top, i);
		assert_int_equal(mkdir(dir, 0755), 0);
		fixture_write_file(dir, "mix.csv", mix_csv);
		fixture_write_file(dir, "run.json", run_json);
		snprintf(meta, sizeof(meta),
			 "{\"format\": \"oltpmark-meta/1\", \"label\": \"L\", "
			 "\"config\": \"cached\", "
			 "\"start\": \"2026-01-01T10:%02zu:00Z\", "
			 "\"diagnostic\": false, "
			 "\"notes\": {\"diagnostic\": %s}}\n",
			 i, cases[i].note);
		fixture_write_file(dir, "meta.json", meta);
		if (report_summarize(dir, &o, &err) < 0)
			fail_msg("report %s: %s", cases[i].note, err.msg);
		if (report_says(dir) != cases[i].want ||
		    compare_says(top, dir) != cases[i].want)
			fail_msg("note %s: report %d, compare %d, want %d",
				 cases[i].note, report_says(dir),
				 compare_says(top, dir), cases[i].want);
		/* a summary.json from a report that still said false: compare
		   reads meta.json by report's own rule */
		s = load(dir, "summary.json");
		json_object_set_new(s, "diagnostic", json_false());
		snprintf(path, sizeof(path), "%s/summary.json", dir);
		assert_int_equal(json_dump_file(s, path, 0), 0);
		json_decref(s);
		assert_int_equal(compare_says(top, dir), cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_note_yes),
		cmocka_unit_test(test_note_spellings),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
