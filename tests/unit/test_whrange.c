/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_whrange.c - what several drivers of one run agree on: warehouse
 * ranges (read as FIRST-LAST or K/N, W split into N, the cover check of
 * a merge) and the clock offset against the server (the estimate from
 * the shortest round trip, the bound, a shifted local clock).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "src/base/whrange.h"
#include "terminals/clockoff.h"

static void test_parse(void **state)
{
	static const struct {
		const char *s;
		int w, first, last; /* first 0: refused */
	} cases[] = {
		{"1-5", 10, 1, 5},
		{"6-10", 10, 6, 10},
		{"3-3", 4, 3, 3},
		{"1/2", 10, 1, 5},
		{"2/2", 10, 6, 10},
		{"2/3", 10, 5, 7},
		{"4/4", 4, 4, 4},
		{"0-3", 4, 0, 0},
		{"3-2", 4, 0, 0},
		{"3-5", 4, 0, 0},
		{"1-", 4, 0, 0},
		{"-2", 4, 0, 0},
		{"1-2x", 4, 0, 0},
		{"", 4, 0, 0},
		{"3/2", 4, 0, 0},
		{"1/5", 4, 0, 0},
		{"0/2", 4, 0, 0},
		{"1 - 2", 4, 0, 0},
		{"99999999999-1", 4, 0, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct whrange r = {0, 0};
		struct err err;
		int rc;

		err_clear(&err);
		rc = whrange_parse(cases[i].s, cases[i].w, &r, &err);
		if (cases[i].first) {
			assert_int_equal(rc, 0);
			assert_int_equal(r.first, cases[i].first);
			assert_int_equal(r.last, cases[i].last);
		} else {
			assert_int_equal(rc, -EINVAL);
			/* one line naming the value */
			assert_non_null(strstr(err.msg, cases[i].s));
			assert_null(strchr(err.msg, '\n'));
		}
	}
}

/* Every split covers 1..W once, in order, sizes within one. */
static void test_split(void **state)
{
	int w, n, k;

	(void)state;
	for (w = 1; w <= 40; w++)
		for (n = 1; n <= w; n++) {
			int next = 1, min = w, max = 0;

			for (k = 1; k <= n; k++) {
				struct whrange r = whrange_split(w, n, k);
				int c = whrange_count(&r);

				assert_int_equal(r.first, next);
				assert_true(c >= 1);
				min = c < min ? c : min;
				max = c > max ? c : max;
				next = r.last + 1;
			}
			assert_int_equal(next, w + 1);
			assert_true(max - min <= 1);
		}
}

static void test_cover(void **state)
{
	struct whrange ok[] = {{6, 10}, {1, 5}};
	struct whrange overlap[] = {{1, 5}, {5, 10}};
	struct whrange gap[] = {{1, 4}, {6, 10}};
	struct whrange shortr[] = {{1, 4}, {5, 8}};
	struct whrange late[] = {{2, 5}, {6, 10}};
	int order[2];
	struct err err;

	(void)state;
	err_clear(&err);
	assert_int_equal(whrange_check_cover(ok, 2, 10, order, &err), 0);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);
	assert_int_equal(whrange_check_cover(overlap, 2, 10, NULL, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "warehouse ranges 1-5 and 5-10 overlap");
	assert_int_equal(whrange_check_cover(gap, 2, 10, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "warehouses 5-5 are in no range"));
	assert_int_equal(whrange_check_cover(shortr, 2, 10, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "warehouses 9-10 are in no range"));
	assert_int_equal(whrange_check_cover(late, 2, 10, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "warehouses 1-1 are in no range"));
	assert_int_equal(whrange_check_cover(ok, 2, 9, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "beyond the 9 warehouses"));
}

/* The shortest round trip is kept; offset from its midpoint. */
static void test_offset_estimate(void **state)
{
	/* local clock 1000 us behind the server; replies of 300, 100, 500 us */
	const struct clockoff_sample s[] = {
		{10000, 11150, 10300},
		{20000, 21050, 20100},
		{30000, 31400, 30500},
		{40000, 41000, 39990}, /* the clock stepped back: skipped */
	};
	struct clockoff c;

	(void)state;
	clockoff_estimate(s, 4, &c);
	assert_true(c.measured);
	assert_int_equal(c.samples, 4);
	assert_int_equal(c.rtt_us, 100);
	assert_int_equal(c.offset_us, 1000);
	assert_int_equal(c.uncertainty_us, 50);
	clockoff_estimate(&s[3], 1, &c);
	assert_false(c.measured);
	assert_int_equal(c.offset_us, 0);
}

/*
 * A local clock shifted by +80 ms (what OLTPMARK_TEST_CLOCK_OFFSET_MS
 * does) reads as -80 ms against the server, beyond the default bound;
 * -20 ms is within it. The bound counts the uncertainty too.
 */
static void test_offset_bound(void **state)
{
	struct clockoff_sample s = {0, 0, 2000};
	struct clockoff c;
	int64_t inject;

	(void)state;
	for (inject = -100000; inject <= 100000; inject += 20000) {
		struct clockoff_sample t = s;

		t.before_us += inject;
		t.after_us += inject;
		t.server_us = 1000; /* the true midpoint */
		clockoff_estimate(&t, 1, &c);
		assert_int_equal(c.offset_us, -inject);
		assert_int_equal(c.uncertainty_us, 1000);
		assert_true(
			clockoff_within(&c, CLOCKOFF_MAX_MS_DEFAULT * 1000) ==
			(inject >= -49000 && inject <= 49000));
	}
	c.offset_us = -49000;
	c.uncertainty_us = 1000;
	assert_true(clockoff_within(&c, 50000));
	c.uncertainty_us = 1001;
	assert_false(clockoff_within(&c, 50000));
	/* an unmeasured clock (null, iosim) is within any bound */
	memset(&c, 0, sizeof(c));
	assert_true(clockoff_within(&c, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_offset_estimate),
		cmocka_unit_test(test_offset_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
