/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_devices.c - the devices under a run's database and their I/O
 * (analysis/parsers/dbdevices.c) and the report's table of them
 * (analysis/report/devices.c), on the run directories of
 * tests/fixtures/devices/:
 *
 * - single: the single layout, pg_default and pg_wal on vda (role both);
 *   iostat.json has five reports a second apart from the run's start,
 *   the 2nd and 3rd inside the window 1 .. 3 s and the others far off.
 * - wal-apart: the table layout over sdb and sdc, pg_wal a link to sdd;
 *   the data directory's device is not recorded. Every report is alike.
 * - diskstats-only: the warehouse layout over sdb and dm-0, pg_wal in
 *   the data directory on vda; only diskstats snapshots (sdb: 600 reads
 *   of 9600 sectors in 1200 ms, 400 writes of 6400 in 2000 ms, busy
 *   5000 ms, 8000 ms in queue; dm-0 and vda less).
 * - missing-device: sde is in neither file, a tablespace on tmpfs and
 *   pg_wal have no device.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/parsers/dbdevices.h"
#include "analysis/report/devices.h"
#include "src/base/resfile.h"
#include "tests/unit/fixture_util.h"

/* The run's start in the fixtures' meta.json (start_unix_s). */
#define START 1795986380.0

static void assert_near(double got, double want)
{
	if (!(fabs(got - want) < 1e-9))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* meta.json of fixture run directory dir (devices/DIR). */
static json_t *load_meta(const char *dir)
{
	char path[PATH_MAX];
	struct err err = {""};
	json_t *meta = NULL;

	assert_true(snprintf(path, sizeof(path), "%s/meta.json",
			     fixture_path(dir)) < (int)sizeof(path));
	if (resfile_load(path, NULL, &meta, &err) < 0)
		fail_msg("%s", err.msg);
	return meta;
}

/* dbdevices_read() of fixture run directory dir over [ws, we]. */
static void read_fixture(const char *dir, double ws, double we,
			 struct dbdevices *d)
{
	struct dbdev_window w = {START, ws, we};
	struct err err = {""};
	char run[PATH_MAX];
	json_t *meta = load_meta(dir);

	snprintf(run, sizeof(run), "%s", fixture_path(dir));
	assert_int_equal(dbdevices_read(run, meta, &w, d, &err), 0);
	json_decref(meta);
}

static bool has_note(const struct dbdevices *d, const char *needle)
{
	int i;

	for (i = 0; i < d->nnotes; i++)
		if (strstr(d->notes[i], needle))
			return true;
	return false;
}

static void print_notes(const struct dbdevices *d)
{
	int i;

	for (i = 0; i < d->nnotes; i++)
		print_message("note: %s\n", d->notes[i]);
}

/* Copy fixture run dir src's meta.json and sys/ files to a new dir. */
static void copy_run(const char *src, char *dst, size_t size)
{
	static const char *const files[] = {
		"meta.json",
		"sys/iostat.json",
		"sys/diskstats.start",
		"sys/diskstats.stop",
	};
	char from[PATH_MAX], to[PATH_MAX];
	size_t i;

	assert_non_null(fixture_temp_dir(dst, size, "test_devices"));
	assert_true(snprintf(to, sizeof(to), "%s/sys", dst) < (int)sizeof(to));
	assert_int_equal(mkdir(to, 0755), 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text;

		assert_true(snprintf(from, sizeof(from), "%s/%s",
				     fixture_path(src),
				     files[i]) < (int)sizeof(from));
		if (access(from, F_OK) != 0)
			continue;
		text = fixture_read_file(from, NULL);
		fixture_write_file(dst, files[i], text);
		free(text);
	}
}

/* Set the modification time of dir/name to t (epoch seconds). */
static void set_mtime(const char *dir, const char *name, time_t t)
{
	struct timespec ts[2] = {{t, 0}, {t, 0}};
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* ---- roles */

static void test_single_both(void **state)
{
	struct dbdevices d;
	const struct dbdev *v;

	(void)state;
	read_fixture("devices/single", 1, 3, &d);
	print_notes(&d);
	assert_true(d.layout_known);
	assert_int_equal(d.n, 1);
	v = &d.devs[0];
	assert_string_equal(v->name, "vda");
	assert_int_equal(v->roles, DBDEV_DATA | DBDEV_WAL);
	assert_string_equal(dbdevices_role_name(v->roles), "both");
	assert_string_equal(v->holds, "pg_default (data directory), pg_wal");
	/* the data directory is pg_default's: nothing is unknown */
	assert_int_equal(d.nnotes, 0);
	dbdevices_free(&d);
}

static void test_wal_apart(void **state)
{
	static const struct {
		const char *name;
		unsigned roles;
		const char *holds;
		double share;
	} want[] = {
		/* MB/s read + written: 800, 320, 320 kB/s of 1440 */
		{"sdb", DBDEV_DATA, "oltpmark_ts1", 100 * 800 / 1440.0},
		{"sdc", DBDEV_DATA, "oltpmark_ts2", 100 * 320 / 1440.0},
		{"sdd", DBDEV_WAL, "pg_wal", 100 * 320 / 1440.0},
	};
	struct dbdevices d;
	size_t i;

	(void)state;
	read_fixture("devices/wal-apart", 1.5, 4, &d);
	print_notes(&d);
	assert_int_equal(d.n, 3);
	for (i = 0; i < 3; i++) {
		const struct dbdev *v = &d.devs[i];

		assert_string_equal(v->name, want[i].name);
		assert_int_equal(v->roles, want[i].roles);
		assert_string_equal(v->holds, want[i].holds);
		assert_int_equal(v->source, DBDEV_IOSTAT);
		assert_near(v->share_pct, want[i].share);
	}
	assert_string_equal(dbdevices_role_name(d.devs[2].roles), "WAL");
	/* vda holds the data directory, which meta.json cannot place */
	assert_null(dbdevices_find(&d, "vda"));
	assert_true(has_note(&d, "the data directory "
				 "(/var/lib/postgresql/15/main)"));
	assert_true(has_note(&d, "not recorded"));
	/* sdb: 60 reads and 20 writes of 480 and 320 kB a second */
	assert_near(d.devs[0].r_s, 60);
	assert_near(d.devs[0].w_s, 20);
	assert_near(d.devs[0].rmb_s, 480 / 1024.0);
	assert_near(d.devs[0].wmb_s, 320 / 1024.0);
	assert_near(d.devs[0].req_kib, 10);
	assert_near(d.devs[0].r_await_ms, 2);
	assert_near(d.devs[0].w_await_ms, 4);
	assert_near(d.devs[0].aqu_sz, 0.4);
	assert_near(d.devs[0].util_pct, 30);
	/* the WAL device did no read: no read await, not 0 */
	assert_true(isnan(d.devs[2].r_await_ms));
	dbdevices_free(&d);
}

/* pg_wal in the data directory: its device holds the data directory. */
static void test_wal_in_datadir(void **state)
{
	json_t *meta = json_pack(
		"{s:{s:s,s:{s:s,s:[{s:s,s:s,s:{s:s}}],s:{s:s,s:{s:s}}}}}",
		"server", "data_directory", "/pg/data/", "layout", "layout",
		"table", "tablespaces", "name", "oltpmark_ts1", "directory",
		"/mnt/d1/ts", "device", "disk", "sdb", "wal", "directory",
		"/pg/data/pg_wal", "device", "disk", "vda");
	struct dbdevices d;
	struct err err = {""};

	(void)state;
	assert_non_null(meta);
	assert_int_equal(dbdevices_from_meta(meta, &d, &err), 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.devs[0].name, "sdb");
	assert_int_equal(d.devs[0].roles, DBDEV_DATA);
	assert_string_equal(d.devs[1].name, "vda");
	assert_int_equal(d.devs[1].roles, DBDEV_DATA | DBDEV_WAL);
	assert_string_equal(d.devs[1].holds, "pg_wal, data directory");
	assert_int_equal(d.nnotes, 0);
	dbdevices_free(&d);
	json_decref(meta);
}

/*
 * pg_wal a link out, the tables all in tablespaces: the data directory's
 * device comes from server.layout.data_directory, with no note.
 */
static void test_datadir_recorded(void **state)
{
	json_t *meta = json_pack(
		"{s:{s:s,s:{s:s,s:[{s:s,s:s,s:{s:s}}],s:{s:s,s:{s:s}},"
		"s:{s:s,s:{s:s}}}}}",
		"server", "data_directory", "/pg/data", "layout", "layout",
		"warehouse", "tablespaces", "name", "oltpmark_ts1", "directory",
		"/mnt/d1/ts", "device", "disk", "sdb", "wal", "directory",
		"/mnt/wal/pg_wal", "device", "disk", "sdd", "data_directory",
		"directory", "/pg/data", "device", "disk", "vda");
	struct dbdevices d;
	struct err err = {""};

	(void)state;
	assert_non_null(meta);
	assert_int_equal(dbdevices_from_meta(meta, &d, &err), 0);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.devs[1].name, "sdd");
	assert_int_equal(d.devs[1].roles, DBDEV_WAL);
	assert_string_equal(d.devs[2].name, "vda");
	assert_int_equal(d.devs[2].roles, DBDEV_DATA);
	assert_string_equal(d.devs[2].holds, "data directory");
	assert_int_equal(d.nnotes, 0);
	dbdevices_free(&d);
	json_decref(meta);
}

/* No server.layout (an older run, the iosim driver): no devices. */
static void test_no_layout(void **state)
{
	json_t *meta = json_pack("{s:{s:s}}", "server", "version", "15");
	struct summary s;
	struct dbdevices d;
	struct err err = {""};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(meta);
	assert_int_equal(dbdevices_from_meta(meta, &d, &err), 0);
	assert_false(d.layout_known);
	assert_int_equal(d.n, 0);
	dbdevices_free(&d);
	/* summary.txt says nothing */
	memset(&s, 0, sizeof(s));
	s.start_ms = 1000;
	s.end_ms = 3000;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(devices_write_text(fixture_path("devices/single"),
					    meta, &s, f, &err),
			 0);
	fclose(f);
	assert_int_equal(len, 0);
	free(text);
	/* report.html says why there is no table */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	memset(&d, 0, sizeof(d));
	devices_write_html(f, &d);
	fclose(f);
	assert_non_null(strstr(text, "records no server.layout"));
	assert_null(strstr(text, "<table>"));
	free(text);
	json_decref(meta);
}

/* ---- figures from iostat */

static void test_iostat_window(void **state)
{
	const struct dbdev *v;
	struct dbdevices d;

	(void)state;
	read_fixture("devices/single", 1, 3, &d);
	v = &d.devs[0];
	assert_int_equal(v->source, DBDEV_IOSTAT);
	assert_string_equal(dbdevices_source_name(v->source), "iostat");
	/* the reports at 2 and 3 s only */
	assert_near(v->r_s, 20);
	assert_near(v->w_s, 20);
	assert_near(v->rmb_s, 160 / 1024.0);
	assert_near(v->wmb_s, 320 / 1024.0);
	/* (320 + 640) kB over 80 requests */
	assert_near(v->req_kib, 12);
	/* weighted by the requests: (1 x 10 + 3 x 30) / 40 */
	assert_near(v->r_await_ms, 2.5);
	assert_near(v->w_await_ms, (2.0 * 30 + 6.0 * 10) / 40);
	assert_near(v->aqu_sz, 1);
	assert_near(v->util_pct, 30);
	assert_near(v->share_pct, 100);
	assert_true(isnan(v->rw_bytes));
	dbdevices_free(&d);
}

static void test_iostat_whole_file(void **state)
{
	struct dbdevices d;

	(void)state;
	/* no window: every report */
	read_fixture("devices/single", NAN, NAN, &d);
	assert_int_equal(d.devs[0].source, DBDEV_IOSTAT_ALL);
	assert_near(d.devs[0].r_s, (900 + 10 + 30 + 900 + 900) / 5.0);
	dbdevices_free(&d);
	/* a window no report falls in: every report, and a note */
	read_fixture("devices/single", 100, 200, &d);
	print_notes(&d);
	assert_int_equal(d.devs[0].source, DBDEV_IOSTAT_ALL);
	assert_true(has_note(&d, "no report inside the measured window"));
	assert_near(d.devs[0].r_s, (900 + 10 + 30 + 900 + 900) / 5.0);
	dbdevices_free(&d);
}

/* ---- figures from diskstats */

static void test_diskstats_rates(void **state)
{
	static const struct {
		const char *name;
		unsigned roles;
		double r_s, w_s, rmb, wmb, req, r_await, w_await, aqu, util;
		double share;
	} want[] = {
		{"sdb", DBDEV_DATA, 60, 40, 480 / 1024.0, 320 / 1024.0, 8, 2, 5,
		 0.8, 50, 62.5},
		{"dm-0", DBDEV_DATA, 20, 20, 160 / 1024.0, 160 / 1024.0, 8, 1,
		 3, 0.2, 20, 25},
		{"vda", DBDEV_DATA | DBDEV_WAL, 0, 20, 0, 160 / 1024.0, 8, NAN,
		 2, 0.1, 10, 12.5},
	};
	char dir[PATH_MAX];
	struct dbdev_window w = {START, 1, 3};
	struct dbdevices d;
	struct err err = {""};
	json_t *meta = load_meta("devices/diskstats-only");
	size_t i;

	(void)state;
	copy_run("devices/diskstats-only", dir, sizeof(dir));
	set_mtime(dir, "sys/diskstats.start", (time_t)START - 5);
	set_mtime(dir, "sys/diskstats.stop", (time_t)START + 5);
	assert_int_equal(dbdevices_read(dir, meta, &w, &d, &err), 0);
	print_notes(&d);
	assert_near(d.span_s, 10);
	assert_int_equal(d.n, 3);
	for (i = 0; i < 3; i++) {
		const struct dbdev *v = &d.devs[i];

		print_message("%s\n", want[i].name);
		assert_string_equal(v->name, want[i].name);
		assert_int_equal(v->roles, want[i].roles);
		assert_int_equal(v->source, DBDEV_DISKSTATS);
		assert_near(v->r_s, want[i].r_s);
		assert_near(v->w_s, want[i].w_s);
		assert_near(v->rmb_s, want[i].rmb);
		assert_near(v->wmb_s, want[i].wmb);
		assert_near(v->req_kib, want[i].req);
		if (isnan(want[i].r_await))
			assert_true(isnan(v->r_await_ms));
		else
			assert_near(v->r_await_ms, want[i].r_await);
		assert_near(v->w_await_ms, want[i].w_await);
		assert_near(v->aqu_sz, want[i].aqu);
		assert_near(v->util_pct, want[i].util);
		assert_near(v->share_pct, want[i].share);
	}
	assert_string_equal(d.devs[2].holds, "pg_wal, data directory");
	assert_int_equal(d.nnotes, 0);
	dbdevices_free(&d);

	/* copies of the snapshots, the same time: counts, no rates */
	set_mtime(dir, "sys/diskstats.stop", (time_t)START - 5);
	assert_int_equal(dbdevices_read(dir, meta, &w, &d, &err), 0);
	assert_true(isnan(d.span_s));
	assert_true(has_note(&d, "times are unknown"));
	assert_true(isnan(d.devs[0].r_s));
	assert_true(isnan(d.devs[0].util_pct));
	assert_near(d.devs[0].req_kib, 8);
	assert_near(d.devs[0].r_await_ms, 2);
	assert_near(d.devs[0].rw_bytes, 8000 * 1024.0);
	/* shares from the bytes: the same as from the rates */
	for (i = 0; i < 3; i++)
		assert_near(d.devs[i].share_pct, want[i].share);
	dbdevices_free(&d);
	json_decref(meta);
	assert_int_equal(fixture_rm_rf(dir), 0);
}

/* ---- what is missing */

static void test_missing_device(void **state)
{
	const struct dbdev *sdb, *sde;
	struct dbdevices d;

	(void)state;
	read_fixture("devices/missing-device", 1, 3, &d);
	print_notes(&d);
	assert_int_equal(d.n, 2);
	sdb = dbdevices_find(&d, "sdb");
	sde = dbdevices_find(&d, "sde");
	assert_non_null(sdb);
	assert_non_null(sde);
	assert_int_equal(sdb->source, DBDEV_IOSTAT);
	assert_near(sdb->share_pct, 100);
	assert_int_equal(sde->source, DBDEV_NONE);
	assert_string_equal(dbdevices_source_name(sde->source), "none");
	assert_true(isnan(sde->r_s));
	assert_true(isnan(sde->share_pct));
	assert_true(has_note(&d, "sde: neither sys/iostat.json nor the "
				 "diskstats snapshots have it"));
	assert_true(has_note(&d, "shares are of the 1 of 2 devices that have "
				 "figures"));
	assert_true(has_note(&d, "oltpmark_ts3 (/mnt/d3/ts): device unknown: "
				 "the directory's filesystem has no block"));
	assert_true(has_note(&d, "pg_wal (/mnt/wal/pg_wal): device unknown: "
				 "the server is not on this machine"));
	dbdevices_free(&d);
}

/* A run without any sys/ file: one note, no figures. */
static void test_no_evidence(void **state)
{
	char dir[PATH_MAX];
	struct dbdev_window w = {START, 1, 3};
	struct dbdevices d;
	struct err err = {""};
	json_t *meta = load_meta("devices/wal-apart");

	(void)state;
	assert_non_null(fixture_temp_dir(dir, sizeof(dir), "test_devices"));
	assert_int_equal(dbdevices_read(dir, meta, &w, &d, &err), 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.devs[0].source, DBDEV_NONE);
	assert_true(has_note(&d, "no usable sys/iostat.json nor diskstats"));
	assert_false(has_note(&d, "sdb: neither"));
	dbdevices_free(&d);
	json_decref(meta);
	assert_int_equal(fixture_rm_rf(dir), 0);
}

/* ---- the report's table */

static void test_text_and_html(void **state)
{
	struct summary s;
	struct dbdevices d;
	struct err err = {""};
	json_t *meta = load_meta("devices/wal-apart");
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.start_ms = 1500;
	s.end_ms = 4000;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(devices_write_text(fixture_path("devices/wal-apart"),
					    meta, &s, f, &err),
			 0);
	fclose(f);
	print_message("%s", text);
	assert_non_null(strstr(text, "\nDevices under the database"));
	assert_non_null(strstr(text, "  device     role       r/s      w/s"
				     "   rMB/s   wMB/s  req KiB  r_await"
				     "  w_await  aqu-sz  util %  share %  from"
				     "                 holds\n"));
	assert_non_null(strstr(text,
			       "  sdb        data      60.0     20.0"
			       "    0.47    0.31     10.0     2.00"
			       "     4.00    0.40    30.0     55.6  iostat"
			       "               oltpmark_ts1\n"));
	assert_non_null(strstr(text, "  sdd        WAL        0.0     40.0"
				     "    0.00    0.31      8.0        -"));
	assert_non_null(strstr(text, "  - the data directory"));
	free(text);

	assert_int_equal(devices_read(fixture_path("devices/wal-apart"), meta,
				      &s, &d, &err),
			 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	devices_write_html(f, &d);
	fclose(f);
	assert_non_null(strstr(text, "<th class=\"l\">role</th>"));
	assert_non_null(strstr(text, "<tr><td class=\"l\">sdd</td>"
				     "<td class=\"l\">WAL</td><td>0.0</td>"
				     "<td>40.0</td>"));
	assert_non_null(strstr(text, "<td>&ndash;</td>"));
	assert_non_null(strstr(text, "<p class=\"unk\">the data directory"));
	free(text);

	/* summary.json's: the same figures, null where the table has - */
	{
		json_t *j = devices_json(&d), *sdb, *sdd;

		assert_non_null(j);
		assert_int_equal(json_array_size(json_object_get(j, "devices")),
				 d.n);
		sdb = json_array_get(json_object_get(j, "devices"), 0);
		sdd = json_array_get(json_object_get(j, "devices"), 2);
		assert_string_equal(
			json_string_value(json_object_get(sdb, "name")), "sdb");
		assert_string_equal(
			json_string_value(json_object_get(sdb, "role")),
			"data");
		assert_string_equal(
			json_string_value(json_object_get(sdb, "from")),
			"iostat");
		assert_true(json_is_null(json_object_get(sdb, "dm_name")));
		assert_float_equal(json_real_value(json_object_get(sdb, "r_s")),
				   60.0, 1e-9);
		assert_float_equal(
			json_real_value(json_object_get(sdb, "share_pct")),
			55.56, 1e-9);
		assert_string_equal(
			json_string_value(json_object_get(sdd, "role")), "WAL");
		assert_true(json_is_null(json_object_get(sdd, "r_await_ms")));
		assert_non_null(strstr(json_string_value(json_array_get(
					       json_object_get(j, "notes"), 0)),
				       "the data directory"));
		json_decref(j);
	}
	dbdevices_free(&d);
	json_decref(meta);
	/* no server.layout: no "devices" key */
	memset(&d, 0, sizeof(d));
	assert_null(devices_json(&d));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_both),
		cmocka_unit_test(test_wal_apart),
		cmocka_unit_test(test_wal_in_datadir),
		cmocka_unit_test(test_datadir_recorded),
		cmocka_unit_test(test_no_layout),
		cmocka_unit_test(test_iostat_window),
		cmocka_unit_test(test_iostat_whole_file),
		cmocka_unit_test(test_diskstats_rates),
		cmocka_unit_test(test_missing_device),
		cmocka_unit_test(test_no_evidence),
		cmocka_unit_test(test_text_and_html),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
