/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_devices_compare.c - the devices under the database in `oltpmark
 * compare` (analysis/compare/compare_devices.c), on the run directories
 * of tests/fixtures/devices/compare/: labels base and patched, two runs
 * each over sdb and sdc (data) and vda (pg_wal in the data directory:
 * both), iostat over each run's window 1.5 .. 4 s; base's second run did
 * twice the I/O on sdb, patched's first has no sdc in its iostat.json;
 * nolayout's meta.json records no server.layout.
 *
 * Per run, sdb, sdc and vda moved 800, 320 and 320 kB/s (base run-2:
 * sdb 1600), so sdb's share is 800/1440 or 1600/2240 of the run's bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/compare/compare_evidence.h"
#include "analysis/compare/compare_out.h"
#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "tests/unit/fixture_util.h"

/* Everything a compare of the fixture runs holds. */
struct fixture {
	struct runset rs;
	struct score_table t;
	struct cev ev;
	struct cout_input in;
};

static int setup(void **state)
{
	struct fixture *x = calloc(1, sizeof(*x));
	const char *dirs[] = {fixture_path("devices/compare")};
	const char *base = NULL;
	struct err err = {""};

	if (!x || runset_scan(&x->rs, dirs, 1, "notpm", &err) < 0 ||
	    score_pick_baseline(&x->rs, NULL, &base, &err) < 0 ||
	    score_compute(&x->rs, base, false, &x->t, &err) < 0 ||
	    compare_evidence_build(&x->ev, &x->rs, &x->t, &err) < 0) {
		print_error("setup: %s\n", err.msg);
		return -1;
	}
	x->in = (struct cout_input){
		.rs = &x->rs, .t = &x->t, .ev = &x->ev, .metric = "notpm"};
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *x = *state;

	compare_evidence_free(&x->ev);
	score_free(&x->t);
	runset_free(&x->rs);
	free(x);
	return 0;
}

static void assert_near(double got, double want)
{
	if (!(fabs(got - want) < 1e-9))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* The row of label and device name, failing the test without one. */
static const struct cdev_row *find_row(const struct cev *ev, const char *label,
				       const char *name)
{
	size_t i;

	for (i = 0; i < ev->devices.n; i++)
		if (!strcmp(ev->devices.rows[i].label, label) &&
		    !strcmp(ev->devices.rows[i].name, name))
			return &ev->devices.rows[i];
	fail_msg("no row %s %s", label, name);
	return NULL;
}

/* base's share of sdb: the mean of its two runs' shares */
#define BASE_SDB_SHARE (100 * (800 / 1440.0 + 1600 / 2240.0) / 2)

static void test_rows(void **state)
{
	const struct fixture *x = *state;
	const struct cdev_row *r;
	static const char *const order[][2] = {
		{"base", "sdb"},    {"base", "sdc"},	{"base", "vda"},
		{"patched", "sdb"}, {"patched", "sdc"}, {"patched", "vda"},
	};
	size_t i;

	assert_int_equal(x->ev.devices.n, 6);
	/* baseline first, devices as the layout lists them; no nolayout */
	for (i = 0; i < 6; i++) {
		assert_string_equal(x->ev.devices.rows[i].label, order[i][0]);
		assert_string_equal(x->ev.devices.rows[i].name, order[i][1]);
		assert_string_equal(x->ev.devices.rows[i].config, "cached");
	}
	r = find_row(&x->ev, "base", "sdb");
	assert_int_equal(r->roles, DBDEV_DATA);
	assert_int_equal(r->runs, 2);
	assert_int_equal(r->sources, 1u << DBDEV_IOSTAT);
	assert_near(r->fig[CDEV_R_S], (60 + 120) / 2.0);
	assert_near(r->fig[CDEV_WMB_S], (320 + 640) / 2.0 / 1024);
	assert_near(r->fig[CDEV_R_AWAIT], (2.0 + 4.0) / 2);
	assert_near(r->fig[CDEV_SHARE], BASE_SDB_SHARE);
	r = find_row(&x->ev, "base", "vda");
	assert_int_equal(r->roles, DBDEV_DATA | DBDEV_WAL);
	/* no reads on the WAL's device: unknown, not 0 */
	assert_true(isnan(r->fig[CDEV_R_AWAIT]));
	assert_int_equal(r->nfig[CDEV_R_AWAIT], 0);
	/* patched's first run lacks sdc: its mean is of one run */
	r = find_row(&x->ev, "patched", "sdc");
	assert_int_equal(r->runs, 1);
	assert_near(r->fig[CDEV_SHARE], 100 * 320 / 1440.0);
	r = find_row(&x->ev, "patched", "sdb");
	assert_near(r->fig[CDEV_R_AWAIT], (1.0 + 2.0) / 2);
	assert_near(r->fig[CDEV_SHARE],
		    100 * (800 / 1120.0 + 800 / 1440.0) / 2);
}

static void test_busiest_and_remarks(void **state)
{
	const struct fixture *x = *state;
	const struct cdev_row *b;
	size_t i;
	bool found = false;

	assert_int_equal(
		compare_devices_busiest(&x->ev.devices, "base", "cached", &b),
		3);
	assert_non_null(b);
	assert_string_equal(b->name, "sdb");
	assert_int_equal(compare_devices_busiest(&x->ev.devices, "nolayout",
						 "cached", &b),
			 0);
	assert_null(b);
	/* the runs' notes are compare's notes */
	for (i = 0; i < x->ev.nremarks; i++)
		if (strstr(x->ev.remarks[i].dir, "patched/cached/run-1") &&
		    strstr(x->ev.remarks[i].reason, "sdc: neither"))
			found = true;
	assert_true(found);
}

/* compare's output in format fmt, as a new string. */
static char *output(const struct fixture *x, enum cout_format fmt)
{
	struct err err = {""};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(compare_out_write(f, fmt, &x->in, &err), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_text(void **state)
{
	const struct fixture *x = *state;
	char *text = output(x, COUT_TEXT), *sec;

	print_message("%s", text);
	sec = strstr(text, "\nDevices under the database\n");
	assert_non_null(sec);
	/* after the contest table, before the notes */
	assert_true(strstr(text, "Contest table") < sec);
	assert_true(sec < strstr(text, "\nNotes\n"));
	/* 110 columns cut in two parts of at most 78, each naming its rows
	 * by label, device and role */
	assert_non_null(strstr(sec,
			       "\nLabel    Device  Role  Runs   r/s"
			       "   w/s  rMB/s  wMB/s  Req KiB  r_await\n"));
	assert_non_null(strstr(sec,
			       "\nbase     sdb     data     2  90.0"
			       "  30.0   0.70   0.47     10.0     3.00\n"));
	assert_non_null(strstr(sec, "\nLabel    Device  Role  w_await  aqu-sz"
				    "  Util %  Share %  From\n"));
	assert_non_null(strstr(sec, "\nbase     sdb     data     6.00    0.60"
				    "    45.0     63.5  iostat\n"));
	assert_non_null(strstr(sec, "\npatched  sdc     data     1  20.0"));
	assert_non_null(strstr(sec, "\nbase     vda     both     2   0.0"
				    "  40.0   0.00   0.31      8.0        -"));
	assert_null(strstr(sec, "nolayout"));
	free(text);
	text = output(x, COUT_HTML);
	assert_non_null(strstr(text, "Devices under the database</h2>"));
	free(text);
}

static void test_json(void **state)
{
	const struct fixture *x = *state;
	char *text = output(x, COUT_JSON);
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr), *devs, *o;

	assert_non_null(root);
	devs = json_object_get(root, "devices");
	assert_true(json_is_array(devs));
	assert_int_equal(json_array_size(devs), 6);
	o = json_array_get(devs, 0);
	assert_string_equal(json_string_value(json_object_get(o, "config")),
			    "cached");
	assert_string_equal(json_string_value(json_object_get(o, "label")),
			    "base");
	assert_string_equal(json_string_value(json_object_get(o, "device")),
			    "sdb");
	assert_string_equal(json_string_value(json_object_get(o, "role")),
			    "data");
	assert_string_equal(json_string_value(json_object_get(o, "source")),
			    "iostat");
	assert_int_equal(json_integer_value(json_object_get(o, "runs")), 2);
	assert_near(json_real_value(json_object_get(o, "r_s")), 90);
	assert_near(json_real_value(json_object_get(o, "read_mb_s")),
		    (480 + 960) / 2.0 / 1024);
	assert_near(json_real_value(json_object_get(o, "share_pct")),
		    BASE_SDB_SHARE);
	/* the WAL device's read await is unknown: null */
	o = json_array_get(devs, 2);
	assert_string_equal(json_string_value(json_object_get(o, "role")),
			    "both");
	assert_true(json_is_null(json_object_get(o, "r_await_ms")));
	json_decref(root);
	free(text);
}

static void test_csv(void **state)
{
	const struct fixture *x = *state;
	char *text = output(x, COUT_CSV), *line, want[128];

	assert_non_null(strstr(text, ",steal_var_removed,devices,"
				     "busiest_device,"
				     "busiest_device_share_pct,"
				     "kernel_cost_most_changed\n"));
	/* the kernel-cost column after them is empty: no such figures */
	snprintf(want, sizeof(want), ",3,sdb,%.10g,\n", BASE_SDB_SHARE);
	line = strstr(text, "\nbase,cached,");
	assert_non_null(line);
	assert_non_null(strstr(line, want));
	/* no layout: the three columns are empty */
	line = strstr(text, "\nnolayout,cached,");
	assert_non_null(line);
	assert_non_null(strstr(line, ",runs,"));
	assert_non_null(strstr(line, ",,,,\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_busiest_and_remarks),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
