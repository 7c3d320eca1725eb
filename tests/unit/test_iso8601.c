/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iso8601.c - src/base/iso8601.h: the forms our files carry (Z, an
 * offset with or without its colon, a fraction, a space for the T, no
 * zone) and what is not a time: a field with a sign, a blank or a digit
 * missing, a value out of range, a dot without a digit, trailing text.
 */
#include "tests/unit/fixture_util.h"

#include <math.h>

#include "src/base/iso8601.h"

static void test_accepted(void **state)
{
	(void)state;
	assert_true(iso8601_parse("1970-01-01T00:00:00Z") == 0);
	assert_true(iso8601_parse("2026-01-01T10:00:00Z") == 1767261600);
	assert_true(iso8601_parse("2026-01-01 10:00:00") == 1767261600);
	assert_true(iso8601_parse("2026-01-01T10:00:00.5Z") == 1767261600.5);
	assert_true(fabs(iso8601_parse("2026-01-01T10:00:00.123456z") -
			 1767261600.123456) < 1e-6);
	assert_true(iso8601_parse("2026-01-01T12:00:00+02:00") == 1767261600);
	assert_true(iso8601_parse("2026-01-01T08:30:00-0130") == 1767261600);
	/* a leap second is a time */
	assert_true(iso8601_parse("2016-12-31T23:59:60Z") ==
		    iso8601_parse("2017-01-01T00:00:00Z"));
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"yesterday",
		"",
		"2026-13-01T10:00:00Z",
		"2026-01-00T10:00:00Z",
		"2026-01-01T24:00:00Z",
		"2026-01-01T10:60:00Z",
		"2026-01-01T10:00:61Z",
		"2026-01-01T10:00:00Zjunk",
		"2026-01-01T-1:00:00Z",
		"2026-01-01T10:-5:00Z",
		"2026-01-01T+1:00:00Z",
		"2026-01-01T 1:00:00Z",
		"2026-1-01T10:00:00Z",
		"-026-01-01T10:00:00Z",
		"2026-01-01T10:00:0Z",
		"2026-01-01T10:00:00.Z",
		"2026-01-01T10:00:00e1",
		"2026-01-01T10:00:00+2:00",
		"2026-01-01T10:00:00+-2:00",
		"2026-01-01T10:00:00+24:00",
		"2026-01-01T10:00:00+02:60",
		"2026-01-01T10:00:00+02:0",
		"2026-01-01X10:00:00Z",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!isnan(iso8601_parse(bad[i])))
			fail_msg("accepted \"%s\"", bad[i]);
	assert_true(isnan(iso8601_parse(NULL)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
