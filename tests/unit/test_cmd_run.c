/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cmd_run.c - `oltpmark run` as a command, with the null driver:
 * bad options give exit status 2 and exactly one error line (and create
 * nothing); a good run exits 0 and writes meta.json with the options,
 * notes and machine facts but never a password; SIGINT ends a run early
 * with exit status 1 and a partial run.json.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "src/base/clock.h"
#include "src/cmd/cmd.h"
#include "tests/unit/fixture_util.h"

/* Run cmd_run on a NULL-terminated argv, stderr captured into err. */
static int run_cmd(const char *const *args, char *err, size_t size)
{
	return fixture_call_cmd(cmd_run, args, err, size);
}

static char base[256]; /* a temporary directory for this file */

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(base, sizeof(base), "oltpmark-cmdrun") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fixture_rm_rf(base);
	return 0;
}

#define OUT "@OUT@" /* replaced by a fresh directory name */

static void test_bad_options(void **state)
{
	static const struct {
		const char *args[16];
		const char *expect; /* in the error line */
	} cases[] = {
		{{"run", NULL}, "-w W is required"},
		{{"run", "-w", "1", "--out", OUT, NULL}, "-d SECONDS"},
		{{"run", "-w", "1", "-d", "1", NULL}, "--out DIR"},
		{{"run", "-w", "0", "-d", "1", "--out", OUT, NULL},
		 "--warehouses"},
		{{"run", "-w", "abc", "-d", "1", "--out", OUT, NULL}, "'abc'"},
		{{"run", "-w", "1", "-d", "0", "--out", OUT, NULL},
		 "--duration"},
		{{"run", "-w", "1", "-d", "1", "-c", "0", "--out", OUT, NULL},
		 "--connections"},
		{{"run", "-w", "1", "-d", "1", "-c", "11", "--out", OUT, NULL},
		 "more than the 10 terminals"},
		{{"run", "-w", "1", "-d", "1", "--keying-think", "fast",
		  "--out", OUT, NULL},
		 "'fast'"},
		{{"run", "-w", "1", "-d", "1", "--keying-think", "scale=-1",
		  "--out", OUT, NULL},
		 "scale '-1'"},
		{{"run", "-w", "1", "-d", "1", "--tx-mode", "batch", "--out",
		  OUT, NULL},
		 "--tx-mode"},
		{{"run", "-w", "1", "-d", "1", "--driver", "oracle", "--out",
		  OUT, NULL},
		 "--driver"},
		{{"run", "-w", "1", "-d", "1", "--bogus", "--out", OUT, NULL},
		 "--bogus"},
		{{"run", "-w", "1", "-d", "1", "--note", "novalue", "--out",
		  OUT, NULL},
		 "KEY=VALUE"},
		{{"run", "-w", "1", "-d", "1", "--note", "a=1", "--note", "a=2",
		  "--out", OUT, NULL},
		 "given twice"},
		{{"run", "-w", "1", "-d", "1", "--note", "a b=1", "--out", OUT,
		  NULL},
		 "key 'a b'"},
		{{"run", "-w", "1", "-d", "1", "--progress", "-1", "--out", OUT,
		  NULL},
		 "--progress"},
		{{"run", "-w", "1", "-d", "1", "--debug", "nonsense", "--out",
		  OUT, NULL},
		 "--debug"},
		{{"run", "-w", "1", "-d", "1", "--conninfo", "host='x", "--out",
		  OUT, NULL},
		 "conninfo"},
		{{"run", "-w", "1", "-d", "1", "--out", OUT, "extra", NULL},
		 "extra"},
	};
	char out[PATH_MAX], err[4096];
	size_t i;

	(void)state;
	snprintf(out, sizeof(out), "%s/never", base);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[16];
		int k, rc;

		for (k = 0; cases[i].args[k]; k++)
			args[k] = strcmp(cases[i].args[k], OUT) == 0
					  ? out
					  : cases[i].args[k];
		args[k] = NULL;
		rc = run_cmd(args, err, sizeof(err));
		if (rc != EXIT_BAD_USAGE || !strstr(err, cases[i].expect))
			fail_msg("case %zu: status %d, stderr '%s'", i, rc,
				 err);
		/* one line: "oltpmark: ..." and its newline, nothing else */
		assert_int_equal(strncmp(err, "oltpmark: ", 10), 0);
		assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
		/* nothing was created */
		assert_int_not_equal(access(out, F_OK), 0);
	}
}

static void test_bad_environment_and_dir(void **state)
{
	char out[PATH_MAX], path[PATH_MAX + 16], err[4096];
	const char *args[] = {"run", "--driver", "null",  "-w", "1",
			      "-d",  "1",	 "--out", out,	NULL};
	FILE *f;

	(void)state;
	snprintf(out, sizeof(out), "%s/used", base);
	setenv("OLTPMARK_RECONNECT_S", "soon", 1);
	assert_int_equal(run_cmd(args, err, sizeof(err)), EXIT_BAD_USAGE);
	assert_non_null(strstr(err, "OLTPMARK_RECONNECT_S"));
	unsetenv("OLTPMARK_RECONNECT_S");
	/* a directory that holds an earlier run is refused */
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(path, sizeof(path), "%s/mix.csv", out);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(run_cmd(args, err, sizeof(err)), EXIT_BAD_USAGE);
	assert_non_null(strstr(err, "already holds a run"));
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
}

static json_t *load_json(const char *dir, const char *name)
{
	char path[PATH_MAX + 32];
	json_error_t jerr;
	json_t *o;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	o = json_load_file(path, 0, &jerr);
	if (!o)
		fail_msg("%s: %s", path, jerr.text);
	return o;
}

static void test_good_run(void **state)
{
	char out[PATH_MAX], path[PATH_MAX + 16], err[8192];
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
			      "diagnostic=true",
			      "--note",
			      "kind=x",
			      "--conninfo",
			      "dbname=x password=hunter2",
			      "--label",
			      "L1",
			      "--config",
			      "cached",
			      "--seed",
			      "77",
			      "--out",
			      out,
			      NULL};
	json_t *meta, *opts, *notes, *run;

	(void)state;
	/* a directory with hook output in it already is fine */
	snprintf(out, sizeof(out), "%s/good", base);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys", out);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(run_cmd(args, err, sizeof(err)), 0);
	meta = load_json(out, "meta.json");
	assert_string_equal(json_string_value(json_object_get(meta, "format")),
			    "oltpmark-meta/1");
	assert_string_equal(json_string_value(json_object_get(meta, "label")),
			    "L1");
	assert_string_equal(json_string_value(json_object_get(meta, "config")),
			    "cached");
	assert_string_equal(json_string_value(json_object_get(meta, "driver")),
			    "null");
	opts = json_object_get(meta, "options");
	assert_int_equal(json_integer_value(json_object_get(opts, "seed")), 77);
	/* the defaults that were filled in are recorded as used */
	assert_int_equal(
		json_integer_value(json_object_get(opts, "connections")),
		2 * sysconf(_SC_NPROCESSORS_ONLN) < 10
			? 2 * sysconf(_SC_NPROCESSORS_ONLN)
			: 10);
	assert_true(json_is_true(json_object_get(meta, "diagnostic")));
	notes = json_object_get(meta, "notes");
	assert_true(json_is_true(json_object_get(notes, "diagnostic")));
	assert_string_equal(json_string_value(json_object_get(notes, "kind")),
			    "x");
	assert_true(json_is_string(
		json_object_get(json_object_get(meta, "kernel"), "uname")));
	assert_true(json_is_integer(
		json_object_get(json_object_get(meta, "cpu"), "online")));
	assert_true(json_is_integer(
		json_object_get(json_object_get(meta, "memory"), "total_kb")));
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(meta, "server"), "driver")),
			    "null");
	assert_non_null(
		strchr(json_string_value(json_object_get(meta, "start")), 'Z'));
	json_decref(meta);
	snprintf(path, sizeof(path), "%s/meta.json", out);
	assert_false(fixture_file_contains(path, "hunter2"));
	run = load_json(out, "run.json");
	assert_false(json_is_true(json_object_get(run, "partial")));
	json_decref(run);
	snprintf(path, sizeof(path), "%s/mix.csv", out);
	assert_int_equal(access(path, F_OK), 0);
	assert_false(strstr(err, "hunter2"));
}

static pthread_t main_thread;

static void *interrupt_later(void *arg)
{
	(void)arg;
	clock_sleep_until_us(clock_mono_us() + 700000);
	pthread_kill(main_thread, SIGINT);
	return NULL;
}

static void test_sigint_partial(void **state)
{
	char out[PATH_MAX], err[8192];
	const char *args[] = {"run",	    "--driver",
			      "null",	    "-w",
			      "1",	    "-d",
			      "60",	    "--ramp-up",
			      "0",	    "--keying-think",
			      "scale=0.01", "--progress",
			      "0",	    "--out",
			      out,	    NULL};
	json_t *run;
	pthread_t th;
	int64_t t0;

	(void)state;
	snprintf(out, sizeof(out), "%s/interrupted", base);
	main_thread = pthread_self();
	assert_int_equal(pthread_create(&th, NULL, interrupt_later, NULL), 0);
	t0 = clock_mono_us();
	assert_int_equal(run_cmd(args, err, sizeof(err)), EXIT_WORK_FAILED);
	assert_true(clock_mono_us() - t0 < 5000000);
	pthread_join(th, NULL);
	run = load_json(out, "run.json");
	assert_true(json_is_true(json_object_get(run, "partial")));
	assert_string_equal(
		json_string_value(json_object_get(run, "end_reason")),
		"interrupted");
	json_decref(run);
	json_decref(load_json(out, "meta.json"));
	assert_non_null(strstr(err, "interrupted"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_bad_environment_and_dir),
		cmocka_unit_test(test_good_run),
		cmocka_unit_test(test_sigint_partial),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
