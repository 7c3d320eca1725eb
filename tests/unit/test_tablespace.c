/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tablespace.c - the checks of --tablespace-dir that need no server
 * (tablespace_check_dirs): a directory that does not exist, is a file,
 * or is given twice (also by another path) is refused with one line
 * naming it; two directories on one device are an error, or a warning
 * with --allow-shared-device; the warehouse layout needs a warehouse per
 * directory. The directories are made under TMPDIR; the sysfs root is
 * one that does not exist, so every directory counts as the device of
 * its filesystem, and all of them are on one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/load/tablespace.h"

#define NO_SYSFS "/nonexistent-sysfs"

/* A scratch directory with a, b (directories) and f (a file) in it. */
struct scratch {
	char top[PATH_MAX];
	char a[PATH_MAX + 8], b[PATH_MAX + 8], f[PATH_MAX + 8];
	char a_again[PATH_MAX + 16]; /* a, by another path */
};

static int setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));
	const char *tmp = getenv("TMPDIR");
	FILE *f;

	if (!s)
		return -1;
	snprintf(s->top, sizeof(s->top), "%s/test_tablespace.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->top))
		return -1;
	snprintf(s->a, sizeof(s->a), "%s/a", s->top);
	snprintf(s->b, sizeof(s->b), "%s/b", s->top);
	snprintf(s->f, sizeof(s->f), "%s/f", s->top);
	snprintf(s->a_again, sizeof(s->a_again), "%s/b/../a/", s->top);
	if (mkdir(s->a, 0700) < 0 || mkdir(s->b, 0700) < 0)
		return -1;
	f = fopen(s->f, "w");
	if (!f)
		return -1;
	fclose(f);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct scratch *s = *state;

	unlink(s->f);
	rmdir(s->a);
	rmdir(s->b);
	rmdir(s->top);
	free(s);
	return 0;
}

/* Check n dirs; return the rc and leave the message in msg. */
static int check(const char *const *dirs, int n, enum load_layout layout,
		 int warehouses, bool allow, char *msg, char *warning)
{
	struct tablespace_dir out[4];
	struct err err = {""};
	int rc;

	rc = tablespace_check_dirs(dirs, n, layout, warehouses, allow, NO_SYSFS,
				   out, warning, 512, &err);
	snprintf(msg, ERR_MSG_MAX, "%s", err.msg);
	return rc;
}

static void test_good_dirs(void **state)
{
	struct scratch *s = *state;
	const char *dirs[] = {s->a, s->b};
	struct tablespace_dir out[2];
	struct err err = {""};
	char warning[512], real[PATH_MAX];

	assert_int_equal(tablespace_check_dirs(dirs, 2, LOAD_LAYOUT_TABLE, 1,
					       true, NO_SYSFS, out, warning,
					       sizeof(warning), &err),
			 0);
	assert_non_null(realpath(s->a, real));
	assert_string_equal(out[0].path, real);
	assert_string_equal(out[0].given, s->a);
	assert_string_equal(out[0].name, "oltpmark_ts1");
	assert_string_equal(out[1].name, "oltpmark_ts2");
	assert_int_equal(out[0].uid, getuid());
	/* same filesystem: allowed, and said */
	assert_non_null(strstr(warning, s->a));
	assert_non_null(strstr(warning, s->b));
	assert_non_null(strstr(warning, "filesystem "));
	/* one directory: nothing to share */
	assert_int_equal(tablespace_check_dirs(dirs, 1, LOAD_LAYOUT_WAREHOUSE,
					       1, false, NO_SYSFS, out, warning,
					       sizeof(warning), &err),
			 0);
	assert_string_equal(warning, "");
}

static void test_bad_dirs(void **state)
{
	struct scratch *s = *state;
	char msg[ERR_MSG_MAX], warning[512], missing[PATH_MAX + 16];
	const struct {
		const char *d0, *d1; /* the directories (d1 may be NULL) */
		enum load_layout layout;
		int warehouses;
		bool allow;
		const char *words[2]; /* in the message */
	} cases[] = {
		{missing,
		 NULL,
		 LOAD_LAYOUT_TABLE,
		 1,
		 false,
		 {"does not exist", "nope"}},
		{s->f,
		 NULL,
		 LOAD_LAYOUT_TABLE,
		 1,
		 false,
		 {"is not a directory", "/f'"}},
		{s->a, s->a, LOAD_LAYOUT_TABLE, 1, true, {"given twice", s->a}},
		{s->a,
		 s->a_again,
		 LOAD_LAYOUT_TABLE,
		 1,
		 true,
		 {"given twice", "b/../a/"}},
		{s->a,
		 s->b,
		 LOAD_LAYOUT_TABLE,
		 1,
		 false,
		 {"same device", "--allow-shared-device"}},
		{s->a,
		 s->b,
		 LOAD_LAYOUT_WAREHOUSE,
		 1,
		 true,
		 {"2 tablespace directories for 1 warehouse:", "warehouse"}},
		{s->a, NULL, LOAD_LAYOUT_SINGLE, 1, true, {"layout", "table"}},
	};
	size_t i;

	snprintf(missing, sizeof(missing), "%s/nope", s->top);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *dirs[] = {cases[i].d0, cases[i].d1};
		int rc = check(dirs, cases[i].d1 ? 2 : 1, cases[i].layout,
			       cases[i].warehouses, cases[i].allow, msg,
			       warning);

		if (rc != -EINVAL || !strstr(msg, cases[i].words[0]) ||
		    !strstr(msg, cases[i].words[1]) || strchr(msg, '\n'))
			fail_msg("case %zu: rc %d, '%s'", i, rc, msg);
	}
	assert_int_equal(
		check(NULL, 0, LOAD_LAYOUT_TABLE, 1, false, msg, warning),
		-EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_good_dirs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_dirs, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
