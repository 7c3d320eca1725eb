/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dbdevices.c - dbdevices_from_meta() on device names no kernel
 * gives: a disk name of DBDEV_NAME_LEN bytes or more is noted and left
 * out. Cut to fit, two such names alike in their first 63 bytes became
 * two devices of one name (fuzz_dbdevices' check that each device is
 * found by its own name aborts on it). The run directories of the
 * devices table are tests/unit/test_devices.c's.
 */
#include "tests/unit/fixture_util.h"

#include <jansson.h>

#include "analysis/parsers/dbdevices.h"

static void test_long_names(void **state)
{
	char longer[DBDEV_NAME_LEN + 8], longest[DBDEV_NAME_LEN + 9];
	json_t *meta;
	struct dbdevices d;
	struct err err = {""};
	int i;

	(void)state;
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	snprintf(longest, sizeof(longest), "%sz", longer);
	meta = json_pack("{s{s{s[{sss{ss}}{sss{ss}}{sss{ss}}]}}}", "server",
			 "layout", "tablespaces", "name", "t1", "device",
			 "disk", longer, "name", "t2", "device", "disk",
			 longest, "name", "t3", "device", "disk", "sdb");
	assert_non_null(meta);
	assert_int_equal(dbdevices_from_meta(meta, &d, &err), 0);
	assert_true(d.layout_known);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.devs[0].name, "sdb");
	assert_string_equal(d.devs[0].holds, "t3");
	for (i = 0; i < d.nnotes; i++)
		if (strstr(d.notes[i], "t2 (?): the device's name \"xxx"))
			break;
	if (i == d.nnotes)
		fail_msg("no note on t2's name (%d notes)", d.nnotes);
	dbdevices_free(&d);

	/* A name of DBDEV_NAME_LEN - 1 bytes still fits. */
	longer[DBDEV_NAME_LEN - 1] = '\0';
	json_decref(meta);
	meta = json_pack("{s{s{s[{sss{ss}}]}}}", "server", "layout",
			 "tablespaces", "name", "t1", "device", "disk", longer);
	assert_int_equal(dbdevices_from_meta(meta, &d, &err), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.devs[0].name, longer);
	dbdevices_free(&d);
	json_decref(meta);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
