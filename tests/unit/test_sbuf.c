/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sbuf.c - the growing string: appends accumulate past the first
 * allocation, take hands the text over and empties the buffer, and a
 * buffer whose allocation failed gives NULL and ignores later appends.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "src/base/sbuf.h"

static void test_append_and_take(void **state)
{
	struct sbuf b = {0};
	char *s;
	int i;

	(void)state;
	assert_null(sbuf_take(&b));
	sbuf_printf(&b, "%s=%d;", "a", 1);
	/* past the first 1024 bytes */
	for (i = 0; i < 300; i++)
		sbuf_printf(&b, "%04d", i);
	assert_int_equal(b.len, 4 + 1200);
	s = sbuf_take(&b);
	assert_non_null(s);
	assert_int_equal(strlen(s), 1204);
	assert_memory_equal(s, "a=1;00000001", 12);
	assert_string_equal(s + 1200, "0299");
	assert_null(b.s);
	assert_int_equal(b.len, 0);
	free(s);
}

static void test_failed_sticks(void **state)
{
	struct sbuf b = {0};

	(void)state;
	sbuf_printf(&b, "kept until the failure");
	b.oom = true; /* as a failed realloc leaves it */
	sbuf_printf(&b, "ignored");
	assert_int_equal(b.len, strlen("kept until the failure"));
	assert_null(sbuf_take(&b));
	assert_false(b.oom);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_and_take),
		cmocka_unit_test(test_failed_sticks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
