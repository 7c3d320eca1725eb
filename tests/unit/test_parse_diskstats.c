/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_diskstats.c - /proc/diskstats snapshots and deltas.
 * proc-diskstats.txt is a real snapshot (20-field lines);
 * proc-diskstats-after.txt is that snapshot 10 s "later", written for
 * these tests: vda did 1000 reads of 16000 sectors in 500 ms, 3000 writes
 * of 160000 sectors in 900 ms, was busy 2500 ms (time in queue 4000 ms),
 * 10 discards and 400 flushes, and has 3 I/Os in flight; loop7 is gone.
 * The 14- and 18-field layouts of older kernels are written out below.
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

#include "analysis/parsers/parse_diskstats.h"
#include "tests/unit/fixture_util.h"

static int parse_bytes(const void *buf, size_t len,
		       struct diskstats_snapshot *s, struct err *err)
{
	char path[] = "/tmp/test_parse_diskstats.XXXXXX";
	int rc = parse_diskstats_file(fixture_write_temp(buf, len, path), s,
				      err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct diskstats_snapshot *s,
		     struct err *err)
{
	return parse_bytes(text, strlen(text), s, err);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void test_snapshot(void **state)
{
	static const uint64_t vda[DS_NR] = {
		50372, 11243, 5363162, 14854, 13779,   8715, 7491368, 39346, 0,
		7904,  55170, 7003,    6,     2366888, 900,  2620,    69,
	};
	const struct diskstats_dev *d;
	struct diskstats_snapshot s;
	struct err err = {""};
	size_t k;

	(void)state;
	assert_int_equal(parse_diskstats_file(
				 fixture_path("proc-diskstats.txt"), &s, &err),
			 0);
	assert_int_equal(s.ndevs, 10);
	assert_int_equal(s.bad_lines, 0);
	assert_string_equal(s.devs[0].name, "loop0");
	d = parse_diskstats_find(&s, "vda");
	assert_non_null(d);
	assert_int_equal(d->major, 254);
	assert_int_equal(d->minor, 0);
	assert_int_equal(d->nfields, 17);
	for (k = 0; k < DS_NR; k++)
		assert_int_equal(d->v[k], vda[k]);
	assert_int_equal(parse_diskstats_find(&s, "zram0")->major, 253);
	assert_null(parse_diskstats_find(&s, "sda"));
	parse_diskstats_free(&s);
	parse_diskstats_free(&s);
}

static void test_delta_and_rates(void **state)
{
	const struct diskstats_delta_dev *dd;
	struct diskstats_snapshot a, b;
	struct diskstats_delta d;
	struct diskstats_rates r;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_diskstats_file(
				 fixture_path("proc-diskstats.txt"), &a, &err),
			 0);
	assert_int_equal(
		parse_diskstats_file(fixture_path("proc-diskstats-after.txt"),
				     &b, &err),
		0);
	assert_int_equal(parse_diskstats_delta(&a, &b, &d, &err), 0);
	assert_int_equal(d.ndevs, 9);
	assert_int_equal(d.unmatched, 1); /* loop7 */
	assert_int_equal(d.wraps, 0);
	assert_null(parse_diskstats_delta_find(&d, "loop7"));
	dd = parse_diskstats_delta_find(&d, "vda");
	assert_non_null(dd);
	assert_false(dd->reset);
	assert_int_equal(dd->nfields, 17);
	assert_int_equal(dd->v[DS_READS], 1000);
	assert_int_equal(dd->v[DS_READS_MERGED], 10);
	assert_int_equal(dd->v[DS_SECTORS_READ], 16000);
	assert_int_equal(dd->v[DS_READ_MS], 500);
	assert_int_equal(dd->v[DS_WRITES], 3000);
	assert_int_equal(dd->v[DS_WRITES_MERGED], 100);
	assert_int_equal(dd->v[DS_SECTORS_WRITTEN], 160000);
	assert_int_equal(dd->v[DS_WRITE_MS], 900);
	assert_int_equal(dd->v[DS_IN_FLIGHT], 3); /* gauge: later value */
	assert_int_equal(dd->v[DS_IO_TICKS_MS], 2500);
	assert_int_equal(dd->v[DS_TIME_IN_QUEUE_MS], 4000);
	assert_int_equal(dd->v[DS_DISCARDS], 10);
	assert_int_equal(dd->v[DS_DISCARDS_MERGED], 0);
	assert_int_equal(dd->v[DS_SECTORS_DISCARDED], 2048);
	assert_int_equal(dd->v[DS_DISCARD_MS], 5);
	assert_int_equal(dd->v[DS_FLUSHES], 400);
	assert_int_equal(dd->v[DS_FLUSH_MS], 20);
	assert_int_equal(parse_diskstats_delta_find(&d, "zram0")->v[DS_READS],
			 0);

	assert_int_equal(parse_diskstats_rates(dd, 10, &r, &err), 0);
	assert_true(near(r.r_s, 100));
	assert_true(near(r.w_s, 300));
	assert_true(near(r.rkb_s, 800)); /* 16000 * 512 B / 10 s */
	assert_true(near(r.wkb_s, 8000));
	assert_true(near(r.r_await_ms, 0.5));
	assert_true(near(r.w_await_ms, 0.3));
	assert_true(near(r.aqu_sz, 0.4));
	assert_true(near(r.util_pct, 25));
	assert_int_equal(parse_diskstats_rates(dd, 0, &r, &err), -EINVAL);
	assert_int_equal(parse_diskstats_rates(dd, NAN, &r, &err), -EINVAL);
	assert_int_equal(
		parse_diskstats_rates(parse_diskstats_delta_find(&d, "loop0"),
				      10, &r, &err),
		0);
	assert_true(near(r.r_await_ms, 0) && near(r.util_pct, 0));
	parse_diskstats_delta_free(&d);
	parse_diskstats_delta_free(&d);
	parse_diskstats_free(&a);
	parse_diskstats_free(&b);
}

/* 14 fields (before 4.18), 18 (4.18), 20 (5.5); wraps and resets. */
static void test_layouts_and_wraps(void **state)
{
	static const char before[] =
		"   8       0 sda 10 0 80 5 20 0 160 4294967290 0 30 40\n"
		"   8       1 sda1 10 0 80 5 20 0 160 7 0 30 40 1 0 8 1\n"
		"   8      16 sdb 18446744073709551615 0 0 0 0 0 0 0 0 0 0\n";
	static const char after[] =
		"   8       0 sda 11 0 88 6 21 0 168 4 1 31 41\n"
		"   8       1 sda1 11 0 88 6 21 0 168 8 0 31 41 2 0 16 2 5 1\n"
		"   8      16 sdb 7 0 0 0 0 0 0 0 0 0 0\n";
	const struct diskstats_delta_dev *dd;
	struct diskstats_snapshot a, b;
	struct diskstats_delta d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(before, &a, &err), 0);
	assert_int_equal(a.devs[0].nfields, 11);
	assert_int_equal(a.devs[1].nfields, 15);
	assert_int_equal(a.devs[1].v[DS_SECTORS_DISCARDED], 8);
	assert_int_equal(a.devs[1].v[DS_FLUSHES], 0);
	assert_int_equal(parse_str(after, &b, &err), 0);
	assert_int_equal(b.devs[1].nfields, 17);
	assert_int_equal(parse_diskstats_delta(&a, &b, &d, &err), 0);
	assert_int_equal(d.ndevs, 3);
	assert_int_equal(d.wraps, 1);
	/* write_ms is an unsigned int in the kernel: it wrapped. */
	dd = parse_diskstats_delta_find(&d, "sda");
	assert_int_equal(dd->v[DS_WRITE_MS], 10);
	assert_int_equal(dd->v[DS_SECTORS_READ], 8);
	assert_int_equal(dd->nfields, 11);
	/* A kernel upgrade mid-window is not a thing; fields in both only. */
	dd = parse_diskstats_delta_find(&d, "sda1");
	assert_int_equal(dd->nfields, 15);
	assert_int_equal(dd->v[DS_DISCARDS], 1);
	assert_int_equal(dd->v[DS_FLUSHES], 0);
	/* A 64-bit counter going back: the device was re-created. */
	dd = parse_diskstats_delta_find(&d, "sdb");
	assert_true(dd->reset);
	assert_int_equal(dd->v[DS_READS], 7);
	parse_diskstats_delta_free(&d);
	parse_diskstats_free(&a);
	parse_diskstats_free(&b);

	assert_string_equal(parse_diskstats_field_name(DS_IO_TICKS_MS),
			    "io_ticks_ms");
	assert_string_equal(parse_diskstats_field_name(DS_FLUSH_MS),
			    "flush_ms");
	assert_null(parse_diskstats_field_name(DS_NR));
}

static void test_every_cut(void **state)
{
	size_t len, cut;
	char *buf = fixture_slurp("proc-diskstats.txt", &len);

	(void)state;
	for (cut = 0; cut <= len; cut++) {
		struct diskstats_snapshot s;
		struct err err = {""};
		int rc = parse_bytes(buf, cut, &s, &err);

		if (rc == 0) {
			assert_true(s.ndevs >= 1 && s.ndevs <= 10);
			assert_true(s.bad_lines <= 1);
		} else {
			assert_true(rc == -EINVAL || rc == -ENODATA);
			assert_null(s.devs);
		}
		parse_diskstats_free(&s);
	}
	/* Cut in vda's line: the eight loop devices stay, vda is bad. */
	{
		struct diskstats_snapshot s;
		struct err err = {""};
		char *vda = strstr(buf, "vda");

		assert_int_equal(
			parse_bytes(buf, (size_t)(vda - buf) + 30, &s, &err),
			0);
		assert_int_equal(s.ndevs, 8);
		assert_int_equal(s.bad_lines, 1);
		assert_null(parse_diskstats_find(&s, "vda"));
		parse_diskstats_free(&s);
	}
	free(buf);
}

static void test_broken_inputs(void **state)
{
	unsigned char noise[4096];
	struct diskstats_snapshot s;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *buf;

	(void)state;
	assert_int_equal(parse_str("", &s, &err), -ENODATA);
	assert_int_equal(parse_str("\n \n", &s, &err), -ENODATA);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &s, &err),
				 -EINVAL);
	}
	buf = fixture_slurp("proc-interrupts.txt", &len);
	assert_int_equal(parse_bytes(buf, len, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "diskstats"));
	free(buf);

	assert_int_equal(
		parse_str(
			"8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
			"8 0 sdb 1 2 3 4 5 6 7 8 9 10\n"
			"8 0 sdc 1 2 3 4 5 6 7 8 9 10 11 12\n"
			"8 0 sdd 1 2 3 4 5 6 7 8 9 10 -11\n"
			"8 x sde 1 2 3 4 5 6 7 8 9 10 11\n"
			"8 0 sdf 1 2 3 4 5 6 7 8 9 10 99999999999999999999\n"
			"4294967296 0 sdg 1 2 3 4 5 6 7 8 9 10 11\n"
			"8 0 sdh 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22\n",
			&s, &err),
		0);
	assert_int_equal(s.ndevs, 1);
	assert_int_equal(s.bad_lines, 7);
	parse_diskstats_free(&s);
	assert_int_equal(
		parse_diskstats_file("/nonexistent/diskstats", &s, &err),
		-ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_delta_and_rates),
		cmocka_unit_test(test_layouts_and_wraps),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_broken_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
