/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_iostat.c - iostat parser on the real text and JSON outputs
 * in tests/fixtures (iostat-json-sigterm.txt is a real `iostat -o JSON`
 * killed by SIGTERM, iostat-json-iso-sigint.txt the same stopped by
 * SIGINT with S_TIME_FORMAT=ISO), on the column names of older sysstat
 * versions (written out here, as sysstat 9 and 10 print them), and on
 * broken input: every cut of every fixture, random bytes, empty input.
 * The tests run with TZ=UTC so local-time stamps are deterministic.
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
#include <time.h>
#include <unistd.h>

#include "analysis/parsers/parse_iostat.h"
#include "tests/unit/fixture_util.h"

static int parse_bytes(const void *buf, size_t len, struct iostat_data *d,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_iostat.XXXXXX";
	int rc = parse_iostat_file(fixture_write_temp(buf, len, path), d, err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct iostat_data *d, struct err *err)
{
	return parse_bytes(text, strlen(text), d, err);
}

/* a == b to the two decimals iostat prints. */
static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void test_text(void **state)
{
	static const double w_s[] = {3158, 2645, 1889};
	static const double wkb[] = {82848, 86884, 59644};
	static const double w_await[] = {0.38, 0.33, 0.35};
	static const double aqu[] = {1.22, 0.90, 0.68};
	static const double util[] = {13.20, 9.20, 10.00};
	const struct iostat_device *vda;
	struct iostat_data d;
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(parse_iostat_file(fixture_path("iostat-dxk-t-y-1.txt"),
					   &d, &err),
			 0);
	assert_false(d.json);
	assert_int_equal(d.reports, 3);
	assert_int_equal(d.ndevices, 1);
	assert_int_equal(d.bad_lines, 0);
	assert_true(d.has_time);
	vda = parse_iostat_device(&d, "vda");
	assert_non_null(vda);
	assert_null(parse_iostat_device(&d, "sda"));
	assert_int_equal(vda->nsamples, 3);
	for (i = 0; i < 3; i++) {
		const struct iostat_sample *s = &vda->samples[i];

		/* 2026-11-29T21:16:10+0000, one report a second. */
		assert_int_equal(s->time_s, 1795986970 + (int64_t)i);
		assert_true(near(s->r_s, 0));
		assert_true(near(s->w_s, w_s[i]));
		assert_true(near(s->rkb_s, 0));
		assert_true(near(s->wkb_s, wkb[i]));
		assert_true(near(s->r_await_ms, 0));
		assert_true(near(s->w_await_ms, w_await[i]));
		/* No reads: the weighted await is the write await. */
		assert_true(near(s->await_ms, w_await[i]));
		assert_true(near(s->aqu_sz, aqu[i]));
		assert_true(near(s->util_pct, util[i]));
	}
	parse_iostat_free(&d);
	parse_iostat_free(&d);
}

static void test_json(void **state)
{
	const struct iostat_device *vda;
	struct iostat_data d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_iostat_file(fixture_path("iostat-dxk-json.txt"),
					   &d, &err),
			 0);
	assert_true(d.json);
	assert_false(d.truncated);
	assert_false(d.has_time); /* recorded without -t */
	assert_int_equal(d.reports, 2);
	vda = parse_iostat_device(&d, "vda");
	assert_non_null(vda);
	assert_int_equal(vda->nsamples, 2);
	assert_true(near(vda->samples[0].w_s, 2087));
	assert_true(near(vda->samples[1].w_s, 1975));
	assert_true(near(vda->samples[0].wkb_s, 60432));
	assert_true(near(vda->samples[1].wkb_s, 50760));
	assert_true(near(vda->samples[0].w_await_ms, 0.26));
	assert_true(near(vda->samples[1].w_await_ms, 0.28));
	assert_true(near(vda->samples[0].aqu_sz, 0.56));
	assert_true(near(vda->samples[0].util_pct, 8.80));
	assert_true(near(vda->samples[1].util_pct, 9.20));
	parse_iostat_free(&d);

	/* Stopped by SIGINT, ISO stamps: complete, exact times. */
	assert_int_equal(
		parse_iostat_file(fixture_path("iostat-json-iso-sigint.txt"),
				  &d, &err),
		0);
	assert_false(d.truncated);
	assert_true(d.has_time);
	assert_int_equal(d.devices[0].nsamples, 2);
	assert_int_equal(d.devices[0].samples[0].time_s, 1795991449);
	assert_int_equal(d.devices[0].samples[1].time_s, 1795991450);
	parse_iostat_free(&d);

	/* Killed by SIGTERM: the JSON is never closed; both reports kept. */
	assert_int_equal(
		parse_iostat_file(fixture_path("iostat-json-sigterm.txt"), &d,
				  &err),
		0);
	assert_true(d.truncated);
	assert_true(d.has_time);
	assert_int_equal(d.reports, 2);
	assert_int_equal(d.devices[0].nsamples, 2);
	/* "11/29/26 22:30:51" in the local zone, UTC here. */
	assert_int_equal(d.devices[0].samples[0].time_s, 1795991451);
	assert_true(near(d.devices[0].samples[1].util_pct, 0));
	parse_iostat_free(&d);
}

/* Column names of sysstat 10 (split await, avgqu-sz, svctm) and 9. */
static void test_old_sysstat_text(void **state)
{
	static const char v10[] =
		"Linux 3.10.0 (old) \t11/29/2026 \t_x86_64_\t(4 CPU)\n"
		"\n"
		"11/29/2026 09:16:10 PM\n"
		"Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util\n"
		"sda               1.00     2.00   10.00   30.00   40.00   120.00     8.00     0.50    2.00    1.00    3.00   0.10  12.50\n"
		"sdb               0.00     0.00    0.00    0.00    0.00     0.00     0.00     0.00    0.00    0.00    0.00   0.00   0.00\n"
		"\n";
	static const char v9[] =
		"Device:         rrqm/s   wrqm/s     r/s     w/s   rsec/s   wsec/s avgrq-sz avgqu-sz   await  svctm  %util\n"
		"sda               0.00     0.00    4.00    6.00   80.00   160.00    24.00     0.20    5.00   1.00   7.00\n"
		"\n";
	const struct iostat_sample *s;
	struct iostat_data d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(v10, &d, &err), 0);
	assert_int_equal(d.ndevices, 2);
	assert_true(d.has_time);
	s = &parse_iostat_device(&d, "sda")->samples[0];
	/* 9:16:10 PM local (UTC in this test). */
	assert_int_equal(s->time_s, 1795986970);
	assert_true(near(s->r_s, 10) && near(s->w_s, 30));
	assert_true(near(s->rkb_s, 40) && near(s->wkb_s, 120));
	assert_true(near(s->r_await_ms, 1) && near(s->w_await_ms, 3));
	assert_true(near(s->await_ms, 2)); /* printed, not derived */
	assert_true(near(s->aqu_sz, 0.5) && near(s->util_pct, 12.5));
	parse_iostat_free(&d);

	assert_int_equal(parse_str(v9, &d, &err), 0);
	assert_false(d.has_time);
	s = &d.devices[0].samples[0];
	assert_true(near(s->rkb_s, 40)); /* 80 sectors of 512 bytes */
	assert_true(near(s->wkb_s, 80));
	assert_true(isnan(s->r_await_ms) && isnan(s->w_await_ms));
	assert_true(near(s->await_ms, 5));
	assert_true(near(s->aqu_sz, 0.2) && near(s->util_pct, 7));
	parse_iostat_free(&d);
}

/* iostat -xk without -d: avg-cpu blocks, locale stamps, decimal commas. */
static void test_avg_cpu_and_locale(void **state)
{
	static const char text[] =
		"Linux 6.18.44 (vm) \t11/29/26 \t_x86_64_\t(2 CPU)\n"
		"\n"
		"11/29/26 21:16:10\n"
		"avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
		"           4,61    0,00    3,76    0,65    0,02   90,97\n"
		"\n"
		"Device            r/s     rkB/s w/s wkB/s r_await w_await  aqu-sz  %util\n"
		"vda            100,00   3814,70 300,00 10,00 2,00 1,00 0,06   2,03\n"
		"\n"
		"11/29/26 21:16:11\n"
		"avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
		"           4.61    0.00    3.76    0.65    0.02   90.97\n"
		"\n"
		"Device            r/s     rkB/s w/s wkB/s r_await w_await  aqu-sz  %util\n"
		"vda              0.00      0.00 0.00 0.00 0.00 0.00 0.00   0.00\n"
		"\n";
	const struct iostat_device *vda;
	struct iostat_data d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &d, &err), 0);
	assert_int_equal(d.reports, 2);
	assert_int_equal(d.bad_lines, 0);
	vda = parse_iostat_device(&d, "vda");
	assert_int_equal(vda->nsamples, 2);
	assert_int_equal(vda->samples[0].time_s, 1795986970);
	assert_int_equal(vda->samples[1].time_s, 1795986971);
	assert_true(near(vda->samples[0].rkb_s, 3814.70));
	/* (2 * 100 + 1 * 300) / 400 */
	assert_true(near(vda->samples[0].await_ms, 1.25));
	assert_true(near(vda->samples[1].await_ms, 0));
	parse_iostat_free(&d);
}

static void test_json_old_keys(void **state)
{
	static const char json[] =
		"{\"sysstat\": {\"hosts\": [{\"statistics\": [\n"
		"{\"timestamp\": \"2026-11-29T22:16:10+0100\", \"avg-cpu\": {\"user\": 1.0},\n"
		" \"disk\": [{\"disk_device\": \"sda\", \"r/s\": 2, \"w/s\": 2,"
		" \"rkB/s\": 8.5, \"wkB/s\": 4, \"await\": 3.5, \"avgqu-sz\": 0.25,"
		" \"svctm\": 1.0, \"util\": 50}]},\n"
		"{\"timestamp\": \"2026-11-29T21:16:11Z\", \"disk\": ["
		"{\"disk_device\": \"sda\", \"r/s\": \"x\"},"
		" {\"r/s\": 1}, 7,"
		" {\"disk_device\": \"sda\", \"r/s\": 1, \"rMB/s\": 1}]}\n"
		"]}]}}\n";
	const struct iostat_device *sda;
	struct iostat_data d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(json, &d, &err), 0);
	assert_true(d.has_time);
	assert_int_equal(d.bad_lines, 3);
	sda = parse_iostat_device(&d, "sda");
	assert_int_equal(sda->nsamples, 2);
	/* +0100: 21:16:10 UTC */
	assert_int_equal(sda->samples[0].time_s, 1795986970);
	assert_int_equal(sda->samples[1].time_s, 1795986971);
	assert_true(near(sda->samples[0].rkb_s, 8.5));
	assert_true(near(sda->samples[0].await_ms, 3.5));
	assert_true(near(sda->samples[0].aqu_sz, 0.25));
	assert_true(near(sda->samples[0].util_pct, 50));
	assert_true(isnan(sda->samples[0].r_await_ms));
	assert_true(near(sda->samples[1].rkb_s, 1024));
	assert_true(isnan(sda->samples[1].w_s));
	parse_iostat_free(&d);
}

/* Every prefix of every fixture: a result or an error, never a crash. */
static void test_every_cut(void **state)
{
	static const char *const files[] = {
		"iostat-dxk-t-y-1.txt",
		"iostat-dxk-json.txt",
		"iostat-json-iso-sigint.txt",
	};
	size_t f, len, cut, kept_json = 0;

	(void)state;
	for (f = 0; f < 3; f++) {
		char *buf = fixture_slurp(files[f], &len);
		const char *end = memrchr(buf, '}', len);
		size_t closed = end ? (size_t)(end - buf) + 1 : 0;

		for (cut = 0; cut <= len; cut++) {
			struct iostat_data d;
			struct err err = {""};
			int rc = parse_bytes(buf, cut, &d, &err);

			if (rc == 0) {
				assert_int_equal(d.ndevices, 1);
				assert_true(d.devices[0].nsamples >= 1);
				assert_true(d.devices[0].nsamples <= 3);
				if (f > 0 && cut < closed) {
					assert_true(d.truncated);
					kept_json++;
				}
			} else {
				assert_true(rc == -EINVAL || rc == -ENODATA);
				assert_true(err.msg[0] != '\0');
				assert_null(d.devices);
			}
			parse_iostat_free(&d);
		}
		free(buf);
	}
	/* Cuts after the first complete report do keep data. */
	assert_true(kept_json > 100);
}

static void test_truncated_text(void **state)
{
	struct iostat_data d;
	struct err err = {""};
	size_t len;
	char *buf = fixture_slurp("iostat-dxk-t-y-1.txt", &len);
	char *vda3;

	(void)state;
	/* Cut inside the third report's device line. */
	vda3 = strstr(strstr(strstr(buf, "21:16:12"), "vda"), "1889");
	assert_non_null(vda3);
	assert_int_equal(parse_bytes(buf, (size_t)(vda3 - buf), &d, &err), 0);
	assert_int_equal(d.reports, 3);
	assert_int_equal(d.devices[0].nsamples, 2);
	assert_int_equal(d.bad_lines, 1);
	parse_iostat_free(&d);
	free(buf);
}

static void test_broken_inputs(void **state)
{
	unsigned char noise[4096];
	struct iostat_data d;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *vm;

	(void)state;
	assert_int_equal(parse_str("", &d, &err), -ENODATA);
	assert_int_equal(parse_str(" \n\n", &d, &err), -ENODATA);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &d, &err),
				 -EINVAL);
		noise[0] = '{';
		assert_int_equal(parse_bytes(noise, sizeof(noise), &d, &err),
				 -EINVAL);
		assert_null(d.devices);
	}
	vm = fixture_slurp("vmstat-n-1.txt", &len);
	assert_int_equal(parse_bytes(vm, len, &d, &err), -EINVAL);
	free(vm);

	assert_int_equal(parse_str("{\"a\": 1}", &d, &err), -EINVAL);
	assert_int_equal(parse_str("{\"sysstat\": {\"hosts\": []}}", &d, &err),
			 -ENODATA);
	assert_int_equal(parse_str("{\"sysstat\": {\"hosts\": [{\"statistics\":"
				   " [{\"disk\": []}]}]}}",
				   &d, &err),
			 -ENODATA);
	/* Broken JSON with no complete report before the damage. */
	assert_int_equal(parse_str("{\"sysstat\": {\"hosts\": [{\"statistics\":"
				   " [{\"disk\": [{\"disk_device\": \"a\"",
				   &d, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "JSON"));
	/* Mismatched brackets are not "truncated". */
	assert_int_equal(
		parse_str("{\"sysstat\": {\"hosts\": [{\"statistics\":"
			  " [{\"disk\": [{\"disk_device\": \"a\"}]}]]]",
			  &d, &err),
		-EINVAL);

	/* A header with no column we know is not iostat's. */
	assert_int_equal(parse_str("Device tps foo\nsda 1 2\n\n", &d, &err),
			 -EINVAL);
	/* A header and only bad lines. */
	assert_int_equal(
		parse_str("Device r/s w/s\nsda 1\nsdb x y\n\n", &d, &err),
		-ENODATA);
	assert_int_equal(
		parse_iostat_file("/nonexistent/iostat.json", &d, &err),
		-ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_old_sysstat_text),
		cmocka_unit_test(test_avg_cpu_and_locale),
		cmocka_unit_test(test_json_old_keys),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_truncated_text),
		cmocka_unit_test(test_broken_inputs),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
