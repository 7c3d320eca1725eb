/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_opt.c - options tables (src/cmd/opt.h): parsing, the one-line errors
 * naming option and value, --help, and the JSON record, which never keeps
 * a password (the connection strings themselves: test_pgconn.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"

/* The variables of the test command, reset before each case. */
static int warehouses, jobs, mode;
static double ratio;
static bool drop;
static const char *conninfo, *token;
static struct opt_list tags;

static const char *const modes[] = {"procedure", "sql", NULL};

/* clang-format off */
static const struct opt_def defs[] = {
	{ .long_name = "warehouses", .short_name = 'w', .kind = OPT_INT,
	  .value = &warehouses, .arg_name = "W", .help = "warehouses",
	  .min = 1, .max = 100000 },
	{ .long_name = "jobs", .short_name = 'j', .kind = OPT_INT,
	  .value = &jobs, .arg_name = "JOBS", .help = "parallel jobs",
	  .min = 1, .max = 256 },
	{ .long_name = "drop", .kind = OPT_FLAG, .value = &drop,
	  .help = "drop first" },
	{ .long_name = "ratio", .kind = OPT_DOUBLE, .value = &ratio,
	  .arg_name = "F", .help = "a ratio", .min = 0, .max = 10 },
	{ .long_name = "tx-mode", .kind = OPT_CHOICE, .value = &mode,
	  .arg_name = "MODE", .help = "procedure or sql", .choices = modes },
	{ .long_name = "conninfo", .kind = OPT_STRING, .value = &conninfo,
	  .arg_name = "STR", .help = "libpq connection string" },
	{ .long_name = "token", .kind = OPT_STRING, .value = &token,
	  .arg_name = "T", .help = "a secret", .secret = true },
	{ .long_name = "tag", .kind = OPT_LIST, .value = &tags,
	  .arg_name = "TAG", .help = "may repeat" },
};
/* clang-format on */

static const struct opt_cmd cmd = {
	.name = "load",
	.synopsis = "[options]",
	.summary = "A test command.",
	.opts = defs,
	.nopts = sizeof(defs) / sizeof(defs[0]),
	.min_args = 0,
	.max_args = 0,
};

static int setup(void **state)
{
	(void)state;
	warehouses = 1;
	jobs = 0;
	mode = 0;
	ratio = 1.0;
	drop = false;
	conninfo = NULL;
	token = NULL;
	memset(&tags, 0, sizeof(tags));
	return 0;
}

/* Parse a NULL-terminated list of words after "load". */
static int parse(struct err *err, ...)
{
	static char *argv[32];
	va_list ap;
	int argc = 0, first;
	char *a;

	argv[argc++] = "load";
	va_start(ap, err);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	err_clear(err);
	return opt_parse(&cmd, argc, argv, &first, err);
}

static void test_values(void **state)
{
	struct err err;

	(void)state;
	assert_int_equal(parse(&err, "-w", "10", "-j", "3", "--drop", "--ratio",
			       "2.5", "--tx-mode", "sql", "--conninfo",
			       "dbname=x", "--tag", "a", "--tag", "b",
			       (char *)NULL),
			 OPT_OK);
	assert_int_equal(warehouses, 10);
	assert_int_equal(jobs, 3);
	assert_true(drop);
	assert_true(ratio == 2.5);
	assert_int_equal(mode, 1);
	assert_string_equal(conninfo, "dbname=x");
	assert_int_equal(tags.count, 2);
	assert_string_equal(tags.items[1], "b");
	/* long forms with '=' and the bounds themselves */
	assert_int_equal(
		parse(&err, "--warehouses=100000", "--jobs=1", (char *)NULL),
		OPT_OK);
	assert_int_equal(warehouses, 100000);
	assert_int_equal(jobs, 1);
}

/* Each bad input: -EINVAL and one line holding every expected piece. */
static void test_errors_name_option_and_value(void **state)
{
	static const struct {
		const char *argv[4];
		const char *want[3];
	} cases[] = {
		{{"--nope"}, {"unknown option", "--nope"}},
		{{"-x"}, {"unknown option", "-x"}},
		{{"-w"}, {"needs a value", "-w"}},
		{{"--warehouses"}, {"needs a value", "--warehouses"}},
		{{"-w", "abc"}, {"--warehouses", "'abc'", "whole number"}},
		{{"-w", "5x"}, {"--warehouses", "5x"}},
		{{"-w", "0"}, {"--warehouses", "0", "out of range"}},
		{{"-w", "-3"}, {"--warehouses", "-3", "out of range"}},
		{{"-w", "99999999999999999999"}, {"--warehouses"}},
		{{"-j", "0"}, {"--jobs", "0", "out of range 1..256"}},
		{{"--ratio", "x"}, {"--ratio", "'x'", "not a number"}},
		{{"--ratio", "inf"}, {"--ratio", "inf"}},
		{{"--ratio", "11"}, {"--ratio", "11", "out of range"}},
		{{"--tx-mode", "bogus"}, {"--tx-mode", "'bogus'", "choices"}},
		{{"--conninfo", ""}, {"--conninfo", "empty"}},
		{{"extra"}, {"unexpected argument", "extra"}},
		/* a size or number with a space, as in "2 GB" */
		{{"-w", "2 GB"}, {"--warehouses", "'2 GB'"}},
		{{"--ratio", "2 GB"}, {"--ratio", "'2 GB'"}},
		/* psql's and pgbench's letters fail with what to give */
		{{"-h", "dbhost"}, {"'-h'", "--conninfo", "--help"}},
		{{"-p", "5432"}, {"'-p'", "port=", "PGPORT"}},
		{{"-U", "me"}, {"'-U'", "user=", "PGUSER"}},
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6] = {"load"};
		struct err err;
		int argc = 1, first, rc;

		for (k = 0; k < 4 && cases[i].argv[k]; k++)
			argv[argc++] = (char *)cases[i].argv[k];
		err_clear(&err);
		rc = opt_parse(&cmd, argc, argv, &first, &err);
		if (rc != -EINVAL)
			fail_msg("case %zu (%s): rc %d", i, cases[i].argv[0],
				 rc);
		assert_null(strchr(err.msg, '\n'));
		for (k = 0; k < 3 && cases[i].want[k]; k++)
			if (!strstr(err.msg, cases[i].want[k]))
				fail_msg("case %zu: '%s' lacks '%s'", i,
					 err.msg, cases[i].want[k]);
	}
}

/* A list option refuses more values than it can hold. */
static void test_list_limit(void **state)
{
	char *argv[2 * 40 + 1] = {"load"};
	struct err err;
	int argc = 1, first, k;

	(void)state;
	for (k = 0; k < 40; k++) {
		argv[argc++] = "--tag";
		argv[argc++] = "x";
	}
	assert_int_equal(opt_parse(&cmd, argc, argv, &first, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too many"));
}

static void test_help(void **state)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	size_t i;
	int saved;
	struct err err;

	(void)state;
	/*
	 * --help returns OPT_HELP (the text goes to stdout); -h does not:
	 * psql's -h is the host, so "run -h dbhost -w 1" must not succeed.
	 */
	fflush(stdout);
	saved = dup(1);
	assert_non_null(freopen("/dev/null", "w", stdout));
	assert_int_equal(parse(&err, "--help", (char *)NULL), OPT_HELP);
	assert_int_equal(parse(&err, "-w", "3", "--help", (char *)NULL),
			 OPT_HELP);
	assert_int_equal(parse(&err, "-h", "dbhost", "-w", "1", (char *)NULL),
			 -EINVAL);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);

	f = open_memstream(&text, &size);
	assert_non_null(f);
	opt_print_help(&cmd, f);
	fclose(f);
	assert_non_null(strstr(text, "usage: oltpmark load [options]"));
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		assert_non_null(strstr(text, defs[i].long_name));
		assert_non_null(strstr(text, defs[i].help));
	}
	assert_non_null(strstr(text, "-w, --warehouses W"));
	assert_non_null(strstr(text, "    --help"));
	assert_null(strstr(text, "-h,"));
	free(text);
}

/*
 * A command's entry point leaves with 0 after --help and 2 after a bad
 * option (with the error line on stderr), and goes on otherwise.
 */
static void test_parse_or_exit(void **state)
{
	char *help[] = {"load", "--help", NULL};
	char *bad[] = {"load", "-w", "0", NULL};
	char *good[] = {"load", "-w", "5", NULL};
	int saved_out, saved_err, first = -1;

	(void)state;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	assert_non_null(freopen("/dev/null", "w", stdout));
	assert_non_null(freopen("/dev/null", "w", stderr));
	assert_int_equal(opt_parse_or_exit(&cmd, 2, help, &first), 0);
	assert_int_equal(opt_parse_or_exit(&cmd, 3, bad, &first),
			 EXIT_BAD_USAGE);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	assert_int_equal(opt_parse_or_exit(&cmd, 3, good, &first), OPT_GO_ON);
	assert_int_equal(warehouses, 5);
	assert_int_equal(first, 3);
}

/* meta.json gets every option but secrets, and no password. */
static void test_to_json(void **state)
{
	struct err err;
	json_t *j;
	char *s;

	(void)state;
	assert_int_equal(
		parse(&err, "-w", "7", "--token", "hunter2", "--conninfo",
		      "host=/tmp dbname=db password=hunter3", (char *)NULL),
		OPT_OK);
	j = opt_to_json(&cmd);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "warehouses")),
			 7);
	assert_null(json_object_get(j, "token"));
	assert_string_equal(json_string_value(json_object_get(j, "tx-mode")),
			    "procedure");
	s = json_dumps(j, 0);
	assert_non_null(s);
	assert_null(strstr(s, "hunter2"));
	assert_null(strstr(s, "hunter3"));
	assert_non_null(strstr(s, "dbname"));
	free(s);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_values, setup),
		cmocka_unit_test_setup(test_errors_name_option_and_value,
				       setup),
		cmocka_unit_test_setup(test_list_limit, setup),
		cmocka_unit_test_setup(test_help, setup),
		cmocka_unit_test_setup(test_parse_or_exit, setup),
		cmocka_unit_test_setup(test_to_json, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
