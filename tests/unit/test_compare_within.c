/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_within.c - `compare --within` (analysis/compare/
 * compare_within.h) on a synthetic score table: reached (also exactly at
 * the target, compared unrounded), short, none for want of a block score
 * (a config not there, labels not there, cells scored from whole runs)
 * and none for want of an interval, with the labels named in row order;
 * and the one line written for each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare_within.h"

/* Labels a (baseline, whole runs), b, c, d; configs cached, noncached. */
static const char *labels[] = {"a", "b", "c", "d"};
static const char *configs[] = {"cached", "noncached"};
static struct score_cell cells[4 * 2];
static const struct score_table table = {
	.labels = labels,
	.nlabels = 4,
	.configs = configs,
	.nconfigs = 2,
	.baseline = 0,
	.cells = cells,
};

static int setup(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < 8; i++)
		cells[i] = (struct score_cell){.half_width = NAN};
	/* a: whole runs, a narrow interval that must never count */
	cells[0].half_width = 0.1;
	cells[1].half_width = 0.1;
	/* b, c: block scores in cached, 1.2345 and 0.75 */
	cells[2] = (struct score_cell){.blocks = true, .half_width = 1.2345};
	cells[4] = (struct score_cell){.blocks = true, .half_width = 0.75};
	/* d: block scores without an interval yet in both */
	cells[6] = (struct score_cell){.blocks = true, .half_width = NAN};
	cells[7] = (struct score_cell){.blocks = true, .half_width = NAN};
	/* c in noncached: blocks, no interval */
	cells[5] = (struct score_cell){.blocks = true, .half_width = NAN};
	return 0;
}

/* The line compare_within_write() gives for w. */
static char *line_of(const struct cwithin *w)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	compare_within_write(f, w);
	fclose(f);
	return buf;
}

static void check(const char *config, const char **want, size_t nwant,
		  double target, const char *line)
{
	struct cwithin w;

	compare_within_check(&table, config, want, nwant, target, &w);
	assert_string_equal(line_of(&w), line);
}

static void test_reached_short(void **state)
{
	const char *bc[] = {"b", "c"}, *c[] = {"c"}, *abc[] = {"a", "b", "c"};
	struct cwithin w;

	(void)state;
	check("cached", bc, 2, 1.5, "1.23 reached\n");
	check("cached", bc, 2, 1.2, "1.23 short\n");
	/* unrounded: 1.2345 is over 1.234 though both print 1.23 */
	check("cached", bc, 2, 1.234, "1.23 short\n");
	check("cached", bc, 2, 1.2345, "1.23 reached\n");
	check("cached", c, 1, 0.75, "0.75 reached\n");
	/* a's whole-run score is not looked at */
	check("cached", abc, 3, 1.3, "1.23 reached\n");
	compare_within_check(&table, "cached", bc, 2, 1, &w);
	assert_int_equal(w.verdict, CWITHIN_SHORT);
	assert_int_equal(w.cells, 2);
	assert_true(w.widest == 1.2345);
}

static void test_none(void **state)
{
	const char *bcd[] = {"b", "c", "d"}, *dc[] = {"d", "c"};
	const char *a[] = {"a"}, *zz[] = {"zz"}, *b[] = {"b"};
	struct cwithin w;

	(void)state;
	check("cached", bcd, 3, 5, "none no interval yet for d\n");
	/* row order, not the order asked */
	check("noncached", dc, 2, 5, "none no interval yet for c d\n");
	check("noncached", b, 1, 5, "none no block score of noncached yet\n");
	check("cached", a, 1, 5, "none no block score of cached yet\n");
	check("cached", zz, 1, 5, "none no block score of cached yet\n");
	check("other", b, 1, 5, "none no block score of other yet\n");
	check("cached", NULL, 0, 5, "none no block score of cached yet\n");
	compare_within_check(&table, "cached", bcd, 3, 5, &w);
	assert_int_equal(w.verdict, CWITHIN_NONE);
	assert_true(isnan(w.widest));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reached_short),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
