/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_kcost.c - compare's kernel-cost line "what changed most"
 * (compare_kcost_most) on rows made here: significant changes first,
 * then size, the baseline and other labels and configurations left out,
 * and "none significant" when no change is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analysis/compare/compare_kcost.h"

static void set_change(struct ckc_row *r, int fig, double change, double half,
		       bool sig)
{
	struct ckc_fig *f = &r->fig[fig];

	f->has_change = true;
	f->change = change;
	f->has_ci = half > 0;
	f->lo = change - half;
	f->hi = change + half;
	f->significant = sig;
}

static void test_most(void **state)
{
	struct ckc_row rows[4];
	struct ckcost k = {rows, 4};
	char buf[512];

	(void)state;
	memset(rows, 0, sizeof(rows));
	rows[0] = (struct ckc_row){.label = "a",
				   .config = "cached",
				   .type = TXN_NEW_ORDER,
				   .baseline = true};
	rows[1] = (struct ckc_row){
		.label = "b", .config = "cached", .type = TXN_NEW_ORDER};
	rows[2] = (struct ckc_row){
		.label = "b", .config = "cached", .type = TXN_PAYMENT};
	rows[3] = (struct ckc_row){
		.label = "b", .config = "noncached", .type = TXN_NEW_ORDER};
	/* the baseline's and the other configuration's never count */
	set_change(&rows[0], KCOST_FIG_USER_MS, 500, 1, true);
	set_change(&rows[3], KCOST_FIG_USER_MS, 300, 1, true);
	/* b, cached: a large change that is not significant, two that are */
	set_change(&rows[1], KCOST_FIG_SYSTEM_MS, 18, 4, true);
	set_change(&rows[1], KCOST_FIG_NIVCSW, 40, 12, true);
	set_change(&rows[2], KCOST_FIG_SERVER_MS, -90, 200, false);
	compare_kcost_most(&k, "b", "cached", buf, sizeof(buf));
	assert_string_equal(buf, "new_order: invol. switches +40.0 % (+-12.0), "
				 "new_order: system CPU ms +18.0 % (+-4.0)");
	/* none significant: the largest, and said so */
	rows[1].fig[KCOST_FIG_SYSTEM_MS].significant = false;
	rows[1].fig[KCOST_FIG_NIVCSW].significant = false;
	compare_kcost_most(&k, "b", "cached", buf, sizeof(buf));
	assert_string_equal(buf,
			    "payment: server ms -90.0 % (+-200.0), new_order: "
			    "invol. switches +40.0 % (+-12.0), new_order: "
			    "system CPU ms +18.0 % (+-4.0); none significant");
	/* the baseline label, and a label without rows: nothing */
	compare_kcost_most(&k, "a", "cached", buf, sizeof(buf));
	assert_string_equal(buf, "");
	compare_kcost_most(&k, "c", "cached", buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* a short buffer keeps whole items only */
	compare_kcost_most(&k, "b", "cached", buf, 50);
	assert_string_equal(buf, "payment: server ms -90.0 % (+-200.0)");
	compare_kcost_most(&k, "b", "cached", buf, 20);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_most),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
