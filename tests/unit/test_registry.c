/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_registry.c - the driver registry (drivers/registry.c) is one list:
 * every name it gives is found by driver_find() under that name at the
 * current interface version, and `oltpmark run --help` lists every one as
 * --driver's argument, so adding a driver is the one line of DRIVER_LIST.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "src/cmd/cmd.h"

static int count_names(void)
{
	int n = 0;

	while (driver_names[n])
		n++;
	return n;
}

/* Every name is found, under its own name, at this interface version. */
static void test_every_name_found(void **state)
{
	int i, n = count_names();

	(void)state;
	assert_true(n >= 3); /* pgsql, null, iosim at least */
	for (i = 0; i < n; i++) {
		const struct driver_ops *ops = driver_find(driver_names[i]);

		assert_non_null(ops);
		assert_string_equal(ops->name, driver_names[i]);
		assert_int_equal(ops->version, DRIVER_INTERFACE_VERSION);
		assert_non_null(ops->connect);
		assert_non_null(ops->attempt);
	}
	assert_string_equal(driver_names[0], "pgsql"); /* the default */
	assert_null(driver_find("nosuch"));
	assert_null(driver_find(""));
}

/* The help string is the names joined by bars, in the list's order. */
static void test_help_string(void **state)
{
	char want[256] = "";
	int i;

	(void)state;
	for (i = 0; driver_names[i]; i++) {
		strcat(want, "|");
		strcat(want, driver_names[i]);
	}
	assert_string_equal(driver_names_bars, want);
	assert_string_equal(DRIVER_NAMES_HELP, want + 1);
}

/* `oltpmark run --help` names every driver on its --driver line. */
static void test_run_help_lists_every_driver(void **state)
{
	char path[] = "/tmp/test_registry.XXXXXX";
	char *argv[] = {"run", "--help", NULL};
	char line[512], shown[520], *found = NULL, *p;
	int fd, saved, i, rc;
	FILE *f;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0);
	assert_true(dup2(fd, 1) >= 0);
	rc = cmd_run(2, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	assert_int_equal(rc, 0);

	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if ((p = strstr(line, "--driver ")) != NULL) {
			found = p + strlen("--driver ");
			break;
		}
	fclose(f);
	unlink(path);
	assert_non_null(found);
	found[strcspn(found, " \n")] = '\0';
	assert_string_equal(found, DRIVER_NAMES_HELP);
	snprintf(shown, sizeof(shown), "|%s|", found);
	for (i = 0; driver_names[i]; i++) {
		char bars[80];

		snprintf(bars, sizeof(bars), "|%s|", driver_names[i]);
		assert_non_null(strstr(shown, bars));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_name_found),
		cmocka_unit_test(test_help_string),
		cmocka_unit_test(test_run_help_lists_every_driver),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
