/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_probe.c - the hostprobe reader on the fixtures in
 * tests/fixtures/hostprobe-*.json (with and without fsync, cut short, of
 * another format, with a negative median), on a table of small broken
 * objects, and on every cut of the valid file and random bytes: an error
 * or the right figures, never a crash (the tests run under ASan and
 * UBSan).
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

#include <jansson.h>

#include "analysis/parsers/parse_probe.h"
#include "tests/unit/fixture_util.h"

/* Parse len bytes of buf through a temporary file. */
static int parse_bytes(const void *buf, size_t len, struct hprobe *p,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_probe.XXXXXX";
	int rc = parse_probe_file(fixture_write_temp(buf, len, path), p, err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct hprobe *p, struct err *err)
{
	return parse_bytes(text, strlen(text), p, err);
}

/* Every figure NAN: what a failed parse leaves. */
static void assert_all_nan(const struct hprobe *p)
{
	assert_true(isnan(p->time_s));
	assert_true(isnan(p->cpu_ns));
	assert_true(isnan(p->mem_ns));
	assert_true(isnan(p->fsync_us_median));
	assert_true(isnan(p->others_busy_pct));
}

static void test_valid_with_fsync(void **state)
{
	struct hprobe p;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_probe_file(fixture_path("hostprobe-valid.json"),
					  &p, &err),
			 0);
	assert_string_equal(err.msg, "");
	assert_true(p.cpu_ns == 1.234);
	assert_true(p.mem_ns == 6.1);
	assert_true(p.fsync_us_median == 1234.5);
	assert_true(p.time_s == 1796012345.123);
	assert_true(p.others_busy_pct == 3.5);
}

/* No fsync object, integers where the other file has reals. */
static void test_valid_without_fsync(void **state)
{
	struct hprobe p;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_probe_file(fixture_path("hostprobe-no-fsync.json"), &p,
				 &err),
		0);
	assert_true(p.cpu_ns == 1.0);
	assert_true(p.mem_ns == 5.75);
	assert_true(isnan(p.fsync_us_median));
	assert_true(p.time_s == 1796012400.0);
	/* a probe that did not look at the rest of the machine */
	assert_true(isnan(p.others_busy_pct));
}

/* A broken fixture: the error code and a piece of the message. */
struct bad_fixture {
	const char *name; /* file in tests/fixtures */
	int rc;		  /* expected return */
	const char *msg;  /* expected in err.msg */
};

static void test_bad_fixtures(void **state)
{
	static const struct bad_fixture cases[] = {
#if JANSSON_VERSION_HEX >= 0x020b00
		{"hostprobe-truncated.json", -EINVAL,
		 "JSON cut short (line 8)"},
#else
		{"hostprobe-truncated.json", -EINVAL, "JSON"},
#endif
		{"hostprobe-wrong-format.json", -EINVAL,
		 "format is not oltpmark-probe/1"},
		{"hostprobe-negative.json", -EINVAL,
		 "memory.ns_per_op is -6.1, not positive"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hprobe p;
		struct err err = {""};
		const char *path = fixture_path(cases[i].name);

		assert_int_equal(parse_probe_file(path, &p, &err), cases[i].rc);
		if (!strstr(err.msg, cases[i].msg) ||
		    strncmp(err.msg, path, strlen(path)) != 0)
			fail_msg("%s: message '%s'", cases[i].name, err.msg);
		assert_all_nan(&p);
	}
}

/* A small input: the return, and a piece of the message or the figures. */
struct probe_case {
	const char *json; /* the file's content */
	int rc;		  /* expected return */
	const char *msg;  /* expected in err.msg when rc < 0 */
	double cpu, mem;  /* expected figures when rc == 0 */
	double fsync_us;  /* expected fsync median, NAN for none */
};

#define CPU_MEM "\"cpu\": {\"ns_per_op\": 2}, \"memory\": {\"ns_per_op\": 8}"

static void test_small_inputs(void **state)
{
	static const struct probe_case cases[] = {
		{"", -ENODATA, "empty", 0, 0, 0},
		{" \n\t\n", -ENODATA, "empty", 0, 0, 0},
		{"[1, 2]", -EINVAL, "not a JSON object", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\"} x", -EINVAL,
		 "invalid JSON (line 1", 0, 0, 0},
		{"\n\nnope", -EINVAL, "invalid JSON (line 3", 0, 0, 0},
		{"{" CPU_MEM "}", -EINVAL, "no \"format\"", 0, 0, 0},
		{"{\"format\": 1, " CPU_MEM "}", -EINVAL, "format is not", 0, 0,
		 0},
		{"{\"format\": \"oltpmark-probe\", " CPU_MEM "}", -EINVAL,
		 "format is not", 0, 0, 0},
		/* A later version may time other work: refused. */
		{"{\"format\": \"oltpmark-probe/2\", " CPU_MEM "}", -EINVAL,
		 "format is not oltpmark-probe/1", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", "
		 "\"memory\": {\"ns_per_op\": 8}}",
		 -EINVAL, "no \"cpu\" object", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", \"cpu\": [2], "
		 "\"memory\": {\"ns_per_op\": 8}}",
		 -EINVAL, "no \"cpu\" object", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", \"cpu\": {\"ns\": 2}, "
		 "\"memory\": {\"ns_per_op\": 8}}",
		 -EINVAL, "no cpu.ns_per_op", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", "
		 "\"cpu\": {\"ns_per_op\": \"2\"}, "
		 "\"memory\": {\"ns_per_op\": 8}}",
		 -EINVAL, "cpu.ns_per_op is not a number", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", "
		 "\"cpu\": {\"ns_per_op\": 0}, "
		 "\"memory\": {\"ns_per_op\": 8}}",
		 -EINVAL, "cpu.ns_per_op is 0, not positive", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", "
		 "\"cpu\": {\"ns_per_op\": 2}}",
		 -EINVAL, "no \"memory\" object", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", " CPU_MEM
		 ", \"fsync\": null}",
		 0, NULL, 2, 8, NAN},
		{"{\"format\": \"oltpmark-probe/1\", " CPU_MEM
		 ", \"fsync\": {\"us_median\": 250}}",
		 0, NULL, 2, 8, 250},
		{"{\"format\": \"oltpmark-probe/1\", " CPU_MEM
		 ", \"fsync\": {}}",
		 -EINVAL, "no fsync.us_median", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", " CPU_MEM
		 ", \"fsync\": {\"us_median\": -1}}",
		 -EINVAL, "fsync.us_median is -1, not positive", 0, 0, 0},
		{"{\"format\": \"oltpmark-probe/1\", " CPU_MEM
		 ", \"fsync\": \"none\"}",
		 -EINVAL, "no \"fsync\" object", 0, 0, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct probe_case *c = &cases[i];
		struct hprobe p;
		struct err err = {""};
		int rc = parse_str(c->json, &p, &err);

		if (rc != c->rc)
			fail_msg("case %zu: rc %d, not %d (%s)", i, rc, c->rc,
				 err.msg);
		if (rc < 0) {
			if (!strstr(err.msg, c->msg))
				fail_msg("case %zu: message '%s'", i, err.msg);
			assert_all_nan(&p);
			continue;
		}
		assert_true(p.cpu_ns == c->cpu);
		assert_true(p.mem_ns == c->mem);
		if (isnan(c->fsync_us))
			assert_true(isnan(p.fsync_us_median));
		else
			assert_true(p.fsync_us_median == c->fsync_us);
		/* No "time" in these: unknown, not an error. */
		assert_true(isnan(p.time_s));
	}
}

/* Every cut of the valid file: an error and nothing kept, or the whole. */
static void test_every_cut(void **state)
{
	size_t len, cut;
	char *buf = fixture_slurp("hostprobe-valid.json", &len);

	(void)state;
	for (cut = 0; cut <= len; cut++) {
		struct hprobe p;
		struct err err = {""};
		int rc = parse_bytes(buf, cut, &p, &err);

		if (rc == 0) {
			/* Only the final newline may be missing. */
			assert_true(cut >= len - 1);
			assert_true(p.cpu_ns == 1.234);
			continue;
		}
		assert_true(rc == -EINVAL || rc == -ENODATA);
		assert_true(err.msg[0] != '\0');
		assert_all_nan(&p);
	}
	free(buf);
}

static void test_garbage_and_missing(void **state)
{
	unsigned char noise[2048];
	struct hprobe p;
	struct err err = {""};
	uint32_t seed;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &p, &err),
				 -EINVAL);
		assert_all_nan(&p);
	}
	assert_int_equal(
		parse_probe_file("/nonexistent/hostprobe.start.json", &p, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/hostprobe.start.json"));
	assert_all_nan(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_with_fsync),
		cmocka_unit_test(test_valid_without_fsync),
		cmocka_unit_test(test_bad_fixtures),
		cmocka_unit_test(test_small_inputs),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_garbage_and_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
