/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fidelity.c - analysis/report/fidelity.c on a run directory made
 * here: meta.json carries the calibration's figures per commit as the
 * iosim driver writes them from a fixture profile
 * (tests/fixtures/ioprofile-fidelity.json: vda 5 reads and 20480 bytes,
 * 10 writes and 40960 bytes per commit; vdb 1 read of 4096 bytes, no
 * write; WAL 5000 bytes), sys/diskstats.start and .stop hold the
 * replay's counters, run.json its WAL. The ratios, the marks beyond
 * ±25 % and ±10 %, and the cases that compare nothing: a device the
 * replay does not have, a replay or calibration without a commit, a
 * broken or 1.0 profile's figures, no diskstats, another driver.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis/report/fidelity.h"
#include "drivers/iosim.h"
#include "drivers/iosim_profile.h"
#include "tests/unit/fixture_util.h"

#define PROFILE "ioprofile-fidelity.json"
#define COMMITS 1000 /* the replay's, in every case that has some */

static char root[256]; /* this test's temporary directory */

static int setup(void **state)
{
	char sys[300];

	(void)state;
	if (!fixture_temp_dir(root, sizeof(root), "test_fidelity"))
		return -1;
	snprintf(sys, sizeof(sys), "%s/sys", root);
	return mkdir(sys, 0755);
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* meta.json of an iosim run of the fixture profile, as the driver says. */
static json_t *make_meta(void)
{
	struct iosim_profile p;
	struct err err;
	json_t *meta, *prof;

	if (iosim_profile_read(fixture_path(PROFILE), &p, &err) < 0)
		fail_msg("%s", err.msg);
	prof = json_pack("{ss}", "checksum", p.checksum);
	assert_non_null(prof);
	json_object_set_new(prof, "per_commit", iosim_per_commit_json(&p));
	meta = json_pack("{sssss{ssso}}", "format", "oltpmark-meta/1", "driver",
			 "iosim", "server", "driver", "iosim", "io_profile",
			 prof);
	assert_non_null(meta);
	return meta;
}

/* run.json with the driver's WAL bytes and commits of its cost window. */
static json_t *make_run(long long wal_bytes, long long commits)
{
	json_t *run = json_pack("{sssss{sIsI}}", "format", "oltpmark-run/1",
				"driver", "iosim", "server_stats", "wal_bytes",
				(json_int_t)wal_bytes, "xact_commit",
				(json_int_t)commits);

	assert_non_null(run);
	return run;
}

/*
 * A /proc/diskstats line of 20 fields: reads, sectors read, writes,
 * sectors written as given, the rest 0.
 */
static void dev_line(char *buf, size_t size, const char *name,
		     unsigned long long reads, unsigned long long sread,
		     unsigned long long writes, unsigned long long swritten)
{
	snprintf(buf + strlen(buf), size - strlen(buf),
		 " 253       0 %s %llu 0 %llu 0 %llu 0 %llu 0 0 0 0 0 0 0 0 "
		 "0 0\n",
		 name, reads, sread, writes, swritten);
}

/*
 * The replay's snapshots: everything at 1000 at the start, then vda
 * 5.5 reads (1.10) of 22528 bytes (1.10) and 14 writes (1.40) of 57344
 * bytes (1.40) per commit, vdb (when with_vdb) 0.7 reads (0.70) of
 * 2867.2 bytes and no write, sdb some I/O, its partition sdb1 and loop0
 * too.
 */
static void write_diskstats(bool with_vdb)
{
	char a[2048] = "", b[2048] = "";

	dev_line(a, sizeof(a), "vda", 1000, 1000, 1000, 1000);
	dev_line(b, sizeof(b), "vda", 1000 + 5500, 1000 + 44000, 1000 + 14000,
		 1000 + 112000);
	if (with_vdb) {
		dev_line(a, sizeof(a), "vdb", 1000, 1000, 1000, 1000);
		dev_line(b, sizeof(b), "vdb", 1000 + 700, 1000 + 5600, 1000,
			 1000);
	}
	dev_line(a, sizeof(a), "sdb", 1000, 1000, 1000, 1000);
	dev_line(b, sizeof(b), "sdb", 1010, 1080, 1000, 1000);
	dev_line(a, sizeof(a), "sdb1", 1000, 1000, 1000, 1000);
	dev_line(b, sizeof(b), "sdb1", 1010, 1080, 1000, 1000);
	dev_line(a, sizeof(a), "loop0", 1000, 1000, 1000, 1000);
	dev_line(b, sizeof(b), "loop0", 1500, 1800, 1000, 1000);
	fixture_write_file(root, "sys/diskstats.start", a);
	fixture_write_file(root, "sys/diskstats.stop", b);
}

static void remove_diskstats(void)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/sys/diskstats.start", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sys/diskstats.stop", root);
	unlink(path);
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* The section's text, in a buffer the caller frees. */
static char *text_of(const struct fidelity *fd, bool html)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (html)
		fidelity_write_html(fd, f);
	else
		fidelity_write_text(fd, f);
	fclose(f);
	return buf;
}

static void test_ratios(void **state)
{
	struct fidelity fd;
	struct err err = {""};
	json_t *meta = make_meta(), *run = make_run(5200000, 1000), *j;
	const struct fidelity_dev *vda, *vdb;
	char *text;

	(void)state;
	write_diskstats(true);
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_true(fd.present);
	assert_string_equal(fd.why, "");
	assert_true(fd.devices_known);
	assert_int_equal(fd.cal_commits, 2000);
	assert_int_equal(fd.ndevs, 2);
	vda = &fd.dev[0];
	vdb = &fd.dev[1];
	assert_string_equal(vda->name, "vda");
	assert_true(vda->matched && vdb->matched);
	assert_true(vda->cal[FIDELITY_READS] == 5);
	assert_true(near(vda->rep[FIDELITY_READS], 5.5));
	assert_true(near(vda->ratio[FIDELITY_READS], 1.1));
	assert_true(near(vda->ratio[FIDELITY_READ_BYTES], 1.1));
	assert_false(vda->outside[FIDELITY_READS]);
	assert_true(near(vda->rep[FIDELITY_WRITE_BYTES], 57344));
	assert_true(near(vda->ratio[FIDELITY_WRITES], 1.4));
	assert_true(vda->outside[FIDELITY_WRITES]);
	assert_true(vda->outside[FIDELITY_WRITE_BYTES]);
	assert_true(near(vdb->ratio[FIDELITY_READS], 0.7));
	assert_true(vdb->outside[FIDELITY_READS]);
	/* no write in either: no ratio, no mark */
	assert_true(isnan(vdb->ratio[FIDELITY_WRITES]));
	assert_false(vdb->outside[FIDELITY_WRITES]);
	/* a disk the calibration did not have; not its partition, no loop */
	assert_string_equal(fd.unmatched, "");
	assert_string_equal(fd.extra, "sdb");
	/* WAL 5200 bytes per commit against 5000: inside ±10 % */
	assert_true(near(fd.wal_rep, 5200));
	assert_true(near(fd.wal_ratio, 1.04));
	assert_false(fd.wal_outside);
	assert_int_equal(fd.noutside, 4);

	text = text_of(&fd, false);
	assert_non_null(strstr(text, "Fidelity to the calibration (iosim, "
				     "profile fnv1a64:"));
	assert_non_null(strstr(text, "the calibration's 2000, this run's "
				     "1000"));
	assert_non_null(strstr(text,
			       "  vda        writes     10.00 (40.0 KiB)"
			       "     14.00 (56.0 KiB)   1.40!   1.40!\n"));
	assert_non_null(strstr(text,
			       "  vda        reads       5.00 (20.0 KiB)"
			       "      5.50 (22.0 KiB)    1.10    1.10\n"));
	assert_non_null(strstr(text,
			       "  vdb        writes       0.00 (0.0 KiB)"
			       "       0.00 (0.0 KiB)       -       -\n"));
	assert_non_null(strstr(text, "not in the calibration: sdb"));
	assert_non_null(strstr(text, "WAL bytes per commit: the "
				     "calibration's 5000, this run's 5200, "
				     "ratio 1.04\n"));
	assert_non_null(strstr(text, "4 ratios outside the target"));
	free(text);
	text = text_of(&fd, true);
	assert_non_null(strstr(text, "<td class=\"bad\">1.40</td>"));
	assert_non_null(strstr(text, "<td>1.10</td>"));
	free(text);

	j = fidelity_json(&fd);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "outside")), 4);
	assert_int_equal(json_array_size(json_object_get(j, "devices")), 2);
	assert_string_equal(
		json_string_value(json_array_get(
			json_object_get(
				json_array_get(json_object_get(j, "devices"),
					       0),
				"outside"),
			0)),
		"writes");
	assert_string_equal(
		json_string_value(json_array_get(
			json_object_get(j, "not_in_calibration"), 0)),
		"sdb");
	json_decref(j);

	/* the WAL beyond ±10 % is marked too */
	json_decref(run);
	run = make_run(5600000, 1000);
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_true(near(fd.wal_ratio, 1.12));
	assert_true(fd.wal_outside);
	assert_int_equal(fd.noutside, 5);
	json_decref(meta);
	json_decref(run);
}

static void test_device_missing(void **state)
{
	struct fidelity fd;
	struct err err = {""};
	json_t *meta = make_meta(), *run = make_run(5000000, 1000);
	char *text;

	(void)state;
	write_diskstats(false);
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_string_equal(fd.why, "");
	assert_true(fd.dev[0].matched);
	assert_false(fd.dev[1].matched);
	assert_true(isnan(fd.dev[1].rep[FIDELITY_READS]));
	assert_false(fd.dev[1].outside[FIDELITY_READS]);
	assert_string_equal(fd.unmatched, "vdb");
	/* only vda's writes, count and bytes */
	assert_int_equal(fd.noutside, 2);
	text = text_of(&fd, false);
	assert_non_null(strstr(text, "  vdb        reads        1.00 (4.0 KiB)"
				     "   not in this run's diskstats\n"));
	assert_non_null(strstr(text, "not matched: vdb (recorded by the "
				     "calibration"));
	free(text);
	json_decref(meta);
	json_decref(run);
}

static void test_zero_transactions(void **state)
{
	struct fidelity fd;
	struct err err = {""};
	json_t *meta = make_meta(), *run = make_run(0, 0), *j;
	char *text;

	(void)state;
	write_diskstats(true);
	assert_int_equal(fidelity_read(root, meta, run, 0, &fd, &err), 0);
	assert_true(fd.present);
	assert_string_equal(fd.why, "the replay committed no transaction: "
				    "there is nothing per transaction to "
				    "compare");
	text = text_of(&fd, false);
	/* the heading and one line */
	assert_non_null(strstr(text, "\n  not compared: the replay committed "
				     "no transaction"));
	assert_null(strstr(text, "vda"));
	free(text);
	j = fidelity_json(&fd);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "devices")), 0);
	json_decref(j);
	/* a calibration that committed nothing is as empty */
	json_object_set_new(
		json_object_get(json_object_get(json_object_get(meta, "server"),
						"io_profile"),
				"per_commit"),
		"commits", json_integer(0));
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_non_null(strstr(fd.why, "the calibration committed no "
				       "transaction"));
	json_decref(meta);
	json_decref(run);
}

/* meta.json's per_commit, to break. */
static json_t *per_commit(json_t *meta)
{
	return json_object_get(
		json_object_get(json_object_get(meta, "server"), "io_profile"),
		"per_commit");
}

static void test_broken_profile(void **state)
{
	struct fidelity fd;
	struct err err = {""};
	json_t *meta, *run = make_run(5000000, 1000);
	char *text;

	(void)state;
	write_diskstats(true);
	/* a value that is not a number: one line naming it */
	meta = make_meta();
	json_object_set_new(
		json_object_get(json_object_get(per_commit(meta), "devices"),
				"vda"),
		"reads", json_string("lots"));
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_string_equal(fd.why, "meta.json: server.io_profile.per_commit."
				    "devices.vda.reads: not a number >= 0");
	json_decref(meta);
	/* devices that are not an object */
	meta = make_meta();
	json_object_set_new(per_commit(meta), "devices", json_integer(3));
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_non_null(strstr(fd.why, "is not an object with \"commits\""));
	json_decref(meta);
	/* a 1.0 profile's run: no figures, one line saying so */
	meta = make_meta();
	json_object_del(
		json_object_get(json_object_get(meta, "server"), "io_profile"),
		"per_commit");
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	text = text_of(&fd, false);
	assert_non_null(strstr(text, "not compared: the I/O profile holds no "
				     "figures per transaction of its "
				     "calibration (a profile older than "
				     "oltpmark-ioprofile/1.1): calibrate "
				     "again to compare\n"));
	/* a blank line, the heading and that line: nothing else */
	assert_int_equal(count_lines(text), 3);
	free(text);
	json_decref(meta);
	/* a profile file that is broken never reaches a run: the reader
	   names the fault (test_iosim_profile.c has every kind) */
	{
		struct iosim_profile p;

		assert_int_equal(
			iosim_profile_read(
				fixture_path("ioprofile-truncated.json"), &p,
				&err),
			-EBADMSG);
	}
	json_decref(run);
}

static void test_without_inputs(void **state)
{
	struct fidelity fd;
	struct err err = {""};
	json_t *meta = make_meta(), *run = make_run(5000000, 1000), *other;

	(void)state;
	/* no diskstats: the devices say why, the WAL still compares */
	remove_diskstats();
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_string_equal(fd.why, "");
	assert_false(fd.devices_known);
	assert_non_null(strstr(fd.devices_why, "diskstats hook did not run"));
	assert_true(near(fd.wal_ratio, 1.0));
	/* a broken snapshot is its own line */
	fixture_write_file(root, "sys/diskstats.start", "not diskstats\n");
	fixture_write_file(root, "sys/diskstats.stop", "not diskstats\n");
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_false(fd.devices_known);
	assert_non_null(strstr(fd.devices_why, "diskstats.start"));
	/* a run.json of an older oltpmark: no WAL of the replay */
	json_object_del(json_object_get(run, "server_stats"), "wal_bytes");
	assert_int_equal(fidelity_read(root, meta, run, COMMITS, &fd, &err), 0);
	assert_non_null(strstr(fd.wal_why, "no server_stats.wal_bytes"));
	/* no meta.json */
	assert_int_equal(fidelity_read(root, NULL, run, COMMITS, &fd, &err), 0);
	assert_true(fd.present);
	assert_non_null(strstr(fd.why, "no meta.json"));
	/* another driver: no section at all */
	other = json_pack("{ss}", "driver", "pgsql");
	assert_int_equal(fidelity_read(root, other, other, COMMITS, &fd, &err),
			 0);
	assert_false(fd.present);
	assert_null(fidelity_json(&fd));
	{
		char *text = text_of(&fd, false);

		assert_string_equal(text, "");
		free(text);
	}
	json_decref(other);
	json_decref(meta);
	json_decref(run);
}

static void test_ratio_rules(void **state)
{
	(void)state;
	assert_true(fidelity_ratio(4, 5) == 1.25);
	assert_true(isnan(fidelity_ratio(0, 0)));
	assert_true(isinf(fidelity_ratio(0, 1)));
	assert_true(isnan(fidelity_ratio(NAN, 1)));
	assert_true(isnan(fidelity_ratio(1, NAN)));
	/* the bounds themselves are inside */
	assert_false(fidelity_outside(1.25, FIDELITY_DEVICE_TOLERANCE));
	assert_false(fidelity_outside(0.75, FIDELITY_DEVICE_TOLERANCE));
	assert_true(fidelity_outside(1.2501, FIDELITY_DEVICE_TOLERANCE));
	assert_true(fidelity_outside(0.7499, FIDELITY_DEVICE_TOLERANCE));
	assert_true(fidelity_outside(1.11, FIDELITY_WAL_TOLERANCE));
	assert_true(fidelity_outside(INFINITY, FIDELITY_DEVICE_TOLERANCE));
	assert_false(fidelity_outside(NAN, FIDELITY_DEVICE_TOLERANCE));
	assert_string_equal(fidelity_metric_name(FIDELITY_WRITE_BYTES),
			    "write_bytes");
	assert_null(fidelity_metric_name(FIDELITY_METRIC_NR));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratios),
		cmocka_unit_test(test_device_missing),
		cmocka_unit_test(test_zero_transactions),
		cmocka_unit_test(test_broken_profile),
		cmocka_unit_test(test_without_inputs),
		cmocka_unit_test(test_ratio_rules),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
