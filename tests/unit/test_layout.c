/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_layout.c - the "table" and "warehouse" layouts and the expected
 * relation sizes. The sizes are checked against what PostgreSQL 15 really
 * made of oltpmark loads of 2 and 10 warehouses
 * (tests/fixtures/pg-relation-sizes-w*.txt, pg_relation_size() of every
 * relation); the table layout is checked for balance against what whole
 * relations allow, for determinism and for indexes apart from tables.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/load/layout.h"
#include "tests/unit/fixture_util.h"

#define MIB (1024 * 1024)

/* Index of the relation named name in rels[0..n), failing when absent. */
static int rel_index(const struct layout_rel *rels, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(rels[i].name, name) == 0)
			return i;
	fail_msg("no relation %s", name);
	return -1;
}

static void test_page_arithmetic(void **state)
{
	(void)state;
	assert_int_equal(layout_heap_bytes(0, 100), 0);
	assert_int_equal(layout_heap_bytes(1, 100), 8192);
	/* 8168 bytes after the page header hold 78 tuples of 100 + 4 */
	assert_int_equal(layout_heap_bytes(78, 100), 8192);
	assert_int_equal(layout_heap_bytes(79, 100), 2 * 8192);
	/* tuples smaller than any real one: still no more than 291 a page */
	assert_int_equal(layout_heap_bytes(291, 8), 8192);
	assert_int_equal(layout_heap_bytes(292, 8), 2 * 8192);
	/* an empty B-tree is its metapage and a root */
	assert_int_equal(layout_btree_bytes(0, 16), 2 * 8192);
	assert_int_equal(layout_btree_bytes(1, 16), 2 * 8192);
	/* 7333 bytes of a 90 % leaf hold 366 entries of 16 + 4 */
	assert_int_equal(layout_btree_bytes(366, 16), 2 * 8192);
	/* two leaves need a root above them */
	assert_int_equal(layout_btree_bytes(367, 16), 4 * 8192);
}

static void test_tpcc_relations(void **state)
{
	struct layout_rel r[LAYOUT_TPCC_RELS], r2[LAYOUT_TPCC_RELS];
	int indexes_of[LAYOUT_TPCC_RELS] = {0};
	struct err err = {""};
	int i, n, tables = 0;

	(void)state;
	n = layout_tpcc_relations(10, r, LAYOUT_TPCC_RELS, &err);
	assert_int_equal(n, LAYOUT_TPCC_RELS);
	for (i = 0; i < n; i++) {
		assert_true(r[i].bytes >= 8192);
		if (r[i].kind == LAYOUT_TABLE) {
			tables++;
			assert_null(r[i].table);
		} else {
			int t = rel_index(r, n, r[i].table);

			assert_int_equal(r[t].kind, LAYOUT_TABLE);
			indexes_of[t]++;
		}
		assert_int_equal(rel_index(r, n, r[i].name), i);
	}
	assert_int_equal(tables, 9);
	/* HISTORY has no index (clause 1.3); the others at least one */
	for (i = 0; i < n; i++)
		if (r[i].kind == LAYOUT_TABLE)
			assert_int_equal(indexes_of[i] == 0,
					 strcmp(r[i].name, "history") == 0);
	assert_int_equal(layout_tpcc_relations(20, r2, LAYOUT_TPCC_RELS, NULL),
			 n);
	for (i = 0; i < n; i++) {
		if (strcmp(r[i].name, "item") == 0 ||
		    strcmp(r[i].name, "item_pkey") == 0)
			assert_int_equal(r2[i].bytes, r[i].bytes);
		else if (r[i].bytes > 1 * MIB)
			/* per-warehouse relations double, give or take
			   the last page of each level */
			assert_in_range(r2[i].bytes, 2 * r[i].bytes - 3 * 8192,
					2 * r[i].bytes + 3 * 8192);
	}
	assert_int_equal(layout_tpcc_relations(0, r, LAYOUT_TPCC_RELS, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "warehouses"));
	assert_int_equal(
		layout_tpcc_relations(1, r, LAYOUT_TPCC_RELS - 1, &err),
		-E2BIG);
}

/*
 * The estimates against a real load: each relation of a MiB or more
 * within 3 %, smaller ones within a page, the total within 1 %.
 */
static void check_against_fixture(const char *fixture, int warehouses)
{
	struct layout_rel r[LAYOUT_TPCC_RELS];
	char line[256], name[64], kind;
	long long bytes, rows;
	int64_t est_total = 0, real_total = 0;
	int n, i, seen = 0;
	FILE *f;

	n = layout_tpcc_relations(warehouses, r, LAYOUT_TPCC_RELS, NULL);
	assert_int_equal(n, LAYOUT_TPCC_RELS);
	f = fopen(fixture_path(fixture), "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%63s %c %lld %lld", name, &kind,
					&bytes, &rows),
				 4);
		i = rel_index(r, n, name);
		assert_int_equal(r[i].kind,
				 kind == 'r' ? LAYOUT_TABLE : LAYOUT_INDEX);
		if (bytes >= MIB) {
			double ratio = (double)r[i].bytes / (double)bytes;

			if (ratio < 0.97 || ratio > 1.03)
				fail_msg(
					"%s at W=%d: %lld estimated, %lld real",
					name, warehouses, (long long)r[i].bytes,
					bytes);
		} else {
			assert_in_range(r[i].bytes, bytes - 8192, bytes + 8192);
		}
		est_total += r[i].bytes;
		real_total += bytes;
		seen++;
	}
	fclose(f);
	assert_int_equal(seen, n);
	assert_true(est_total > real_total * 0.99);
	assert_true(est_total < real_total * 1.01);
}

static void test_sizes_match_real_loads(void **state)
{
	(void)state;
	check_against_fixture("pg-relation-sizes-w2.txt", 2);
	check_against_fixture("pg-relation-sizes-w10.txt", 10);
}

/*
 * The share of a directory when whole relations are spread evenly: the
 * relations bigger than the even share of what is left take a directory
 * each, and the rest is shared by the other directories. No placement
 * of whole relations can give every directory more than this.
 */
static double fair_share(const struct layout_rel *rels, int n, int ndirs)
{
	int64_t total = 0;
	int dirs = ndirs, i, again = 1;
	char alone[LAYOUT_TPCC_RELS] = {0};

	for (i = 0; i < n; i++)
		total += rels[i].bytes;
	while (again) {
		again = 0;
		for (i = 0; i < n; i++) {
			if (!alone[i] && dirs > 1 &&
			    rels[i].bytes > (double)total / dirs) {
				alone[i] = 1;
				total -= rels[i].bytes;
				dirs--;
				again = 1;
			}
		}
	}
	return (double)total / dirs;
}

/*
 * Balance at W=10 over 2 to 8 directories. The fullest directory holds
 * no more than whole relations force: the largest relation or the even
 * share, whichever is bigger (+2 %). The emptiest holds at least 80 % of
 * the fair share: the rest is the price of keeping indexes off their
 * table's directory. Where no relation is bigger than the even share
 * (2 and 3 directories) max/min stays under 1.05.
 */
static void test_table_balanced(void **state)
{
	struct layout_rel r[LAYOUT_TPCC_RELS];
	int dir[LAYOUT_TPCC_RELS];
	int64_t bytes[8], total = 0, largest = 0, max, min;
	int n, nd, d, i;

	(void)state;
	n = layout_tpcc_relations(10, r, LAYOUT_TPCC_RELS, NULL);
	for (i = 0; i < n; i++) {
		total += r[i].bytes;
		largest = r[i].bytes > largest ? r[i].bytes : largest;
	}
	for (nd = 2; nd <= 8; nd++) {
		double even = (double)total / nd, bound;

		assert_int_equal(layout_table(r, n, nd, dir, NULL), 0);
		layout_dir_bytes(r, n, dir, nd, bytes);
		max = min = bytes[0];
		for (d = 0; d < nd; d++) {
			max = bytes[d] > max ? bytes[d] : max;
			min = bytes[d] < min ? bytes[d] : min;
		}
		bound = even > largest ? even : (double)largest;
		if (max > 1.02 * bound)
			fail_msg(
				"%d dirs: fullest %lld, whole relations allow %.0f",
				nd, (long long)max, bound);
		if (min < 0.8 * fair_share(r, n, nd))
			fail_msg("%d dirs: emptiest %lld, fair share %.0f", nd,
				 (long long)min, fair_share(r, n, nd));
		if (largest < even && (double)max / (double)min > 1.05)
			fail_msg("%d dirs: max/min %.3f", nd,
				 (double)max / (double)min);
	}
}

/* Every index on another directory than its table; one directory: 0. */
static void test_index_apart_from_table(void **state)
{
	struct layout_rel r[LAYOUT_TPCC_RELS];
	int dir[LAYOUT_TPCC_RELS];
	int n, nd, i;

	(void)state;
	n = layout_tpcc_relations(10, r, LAYOUT_TPCC_RELS, NULL);
	for (nd = 1; nd <= 12; nd++) {
		assert_int_equal(layout_table(r, n, nd, dir, NULL), 0);
		for (i = 0; i < n; i++) {
			assert_in_range(dir[i], 0, nd - 1);
			if (r[i].kind == LAYOUT_INDEX && nd >= 2)
				assert_int_not_equal(
					dir[i],
					dir[rel_index(r, n, r[i].table)]);
		}
	}
}

/* The same relations in any order give the same directory per name. */
static void test_table_deterministic(void **state)
{
	struct layout_rel r[LAYOUT_TPCC_RELS], s[LAYOUT_TPCC_RELS];
	int dir_r[LAYOUT_TPCC_RELS], dir_s[LAYOUT_TPCC_RELS];
	int n, nd, k, i;
	uint32_t seed = 12345;

	(void)state;
	n = layout_tpcc_relations(7, r, LAYOUT_TPCC_RELS, NULL);
	for (nd = 1; nd <= 8; nd++) {
		assert_int_equal(layout_table(r, n, nd, dir_r, NULL), 0);
		for (k = 0; k < 50; k++) {
			memcpy(s, r, sizeof(r));
			/* Fisher-Yates with xorshift32 */
			for (i = n - 1; i > 0; i--) {
				struct layout_rel t;
				int j;

				seed ^= seed << 13;
				seed ^= seed >> 17;
				seed ^= seed << 5;
				j = (int)(seed % (uint32_t)(i + 1));
				t = s[i];
				s[i] = s[j];
				s[j] = t;
			}
			assert_int_equal(layout_table(s, n, nd, dir_s, NULL),
					 0);
			for (i = 0; i < n; i++)
				assert_int_equal(
					dir_s[i],
					dir_r[rel_index(r, n, s[i].name)]);
		}
	}
}

/*
 * Small cases worked by hand: ties go by name and to the lowest
 * directory; an index bigger than its table waits for it.
 */
static void test_table_by_hand(void **state)
{
	static const struct layout_rel ties[] = {
		{"d", LAYOUT_TABLE, NULL, 100},
		{"b", LAYOUT_TABLE, NULL, 100},
		{"c", LAYOUT_TABLE, NULL, 100},
		{"a", LAYOUT_TABLE, NULL, 100},
	};
	/*
	 * big_idx (500) comes first by size but waits for its table t
	 * (300): t goes to 0, big_idx to 1 (not t's), then u (200) to 0.
	 * u_idx (250 > u) waited for u: 0 is u's, so 1 again (750 there).
	 */
	static const struct layout_rel waits[] = {
		{"u_idx", LAYOUT_INDEX, "u", 250},
		{"t", LAYOUT_TABLE, NULL, 300},
		{"big_idx", LAYOUT_INDEX, "t", 500},
		{"u", LAYOUT_TABLE, NULL, 200},
	};
	int dir[4];
	int64_t bytes[2];

	(void)state;
	assert_int_equal(layout_table(ties, 4, 2, dir, NULL), 0);
	/* a -> 0, b -> 1, c -> 0, d -> 1 */
	assert_int_equal(dir[3], 0);
	assert_int_equal(dir[1], 1);
	assert_int_equal(dir[2], 0);
	assert_int_equal(dir[0], 1);

	assert_int_equal(layout_table(waits, 4, 2, dir, NULL), 0);
	assert_int_equal(dir[1], 0);
	assert_int_equal(dir[2], 1);
	assert_int_equal(dir[3], 0);
	assert_int_equal(dir[0], 1);
	layout_dir_bytes(waits, 4, dir, 2, bytes);
	assert_int_equal(bytes[0], 500);
	assert_int_equal(bytes[1], 750);

	/* one directory takes everything; none is nothing to do */
	assert_int_equal(layout_table(waits, 4, 1, dir, NULL), 0);
	assert_int_equal(dir[0] + dir[1] + dir[2] + dir[3], 0);
	assert_int_equal(layout_table(waits, 0, 3, dir, NULL), 0);
}

static void test_table_errors(void **state)
{
	static const struct {
		struct layout_rel rels[2];
		int ndirs;
		const char *msg;
	} cases[] = {
		{{{"a", LAYOUT_TABLE, NULL, 1}, {"a", LAYOUT_TABLE, NULL, 1}},
		 2,
		 "relation a given twice"},
		{{{"a", LAYOUT_TABLE, NULL, 1}, {"i", LAYOUT_INDEX, "b", 1}},
		 2,
		 "index i: its table b is not among"},
		{{{"a", LAYOUT_TABLE, NULL, 1}, {"i", LAYOUT_INDEX, NULL, 1}},
		 2,
		 "index i: its table (none)"},
		{{{"j", LAYOUT_INDEX, "i", 1}, {"i", LAYOUT_INDEX, "j", 1}},
		 2,
		 "is not a table"},
		{{{"a", LAYOUT_TABLE, "b", 1}, {"b", LAYOUT_TABLE, NULL, 1}},
		 2,
		 "table a cannot belong"},
		{{{"a", LAYOUT_TABLE, NULL, -1}, {"b", LAYOUT_TABLE, NULL, 1}},
		 2,
		 "negative size"},
		{{{NULL, LAYOUT_TABLE, NULL, 1}, {"b", LAYOUT_TABLE, NULL, 1}},
		 2,
		 "has no name"},
		{{{"a", LAYOUT_TABLE, NULL, 1}, {"b", LAYOUT_TABLE, NULL, 1}},
		 0,
		 "at least one directory"},
	};
	struct err err;
	int dir[2];
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		err_clear(&err);
		assert_int_equal(layout_table(cases[k].rels, 2, cases[k].ndirs,
					      dir, &err),
				 -EINVAL);
		if (!strstr(err.msg, cases[k].msg))
			fail_msg("case %zu: '%s' lacks '%s'", k, err.msg,
				 cases[k].msg);
	}
	assert_int_equal(layout_table(cases[0].rels, -1, 2, dir, NULL),
			 -EINVAL);
}

static void test_warehouse_ranges(void **state)
{
	static const struct {
		int w, d;
		int lo[5], hi[5];
	} cases[] = {
		{7, 3, {1, 4, 6}, {4, 6, 8}},
		{10, 4, {1, 4, 7, 9}, {4, 7, 9, 11}},
		{10, 5, {1, 3, 5, 7, 9}, {3, 5, 7, 9, 11}},
		{5, 5, {1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}},
		{1, 1, {1}, {2}},
		{100, 1, {1}, {101}},
		{11, 2, {1, 7}, {7, 12}},
	};
	struct layout_range rg[5];
	struct err err;
	size_t k;
	int i;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		assert_int_equal(layout_warehouse_ranges(cases[k].w, cases[k].d,
							 rg, &err),
				 0);
		for (i = 0; i < cases[k].d; i++) {
			assert_int_equal(rg[i].lo, cases[k].lo[i]);
			assert_int_equal(rg[i].hi, cases[k].hi[i]);
		}
	}
	assert_int_equal(layout_warehouse_ranges(3, 4, rg, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "4 devices for 3 warehouses"));
	assert_int_equal(layout_warehouse_ranges(0, 1, rg, &err), -EINVAL);
	assert_int_equal(layout_warehouse_ranges(3, 0, rg, &err), -EINVAL);
}

/*
 * For every W up to 60 and D up to W: the ranges cover 1..W without gap
 * or overlap, differ in length by at most one with the longer first, and
 * layout_warehouse_device agrees with them for every warehouse.
 */
static void test_warehouse_ranges_cover(void **state)
{
	struct layout_range rg[60];
	int w, d, k, id;

	(void)state;
	for (w = 1; w <= 60; w++) {
		for (d = 1; d <= w; d++) {
			assert_int_equal(
				layout_warehouse_ranges(w, d, rg, NULL), 0);
			assert_int_equal(rg[0].lo, 1);
			assert_int_equal(rg[d - 1].hi, w + 1);
			for (k = 0; k < d; k++) {
				int len = rg[k].hi - rg[k].lo;

				assert_in_range(len, w / d, (w + d - 1) / d);
				if (k > 0) {
					assert_int_equal(rg[k].lo,
							 rg[k - 1].hi);
					assert_true(len <=
						    rg[k - 1].hi -
							    rg[k - 1].lo);
				}
				for (id = rg[k].lo; id < rg[k].hi; id++)
					assert_int_equal(
						layout_warehouse_device(w, d,
									id),
						k);
			}
			assert_int_equal(layout_warehouse_device(w, d, 0),
					 -EINVAL);
			assert_int_equal(layout_warehouse_device(w, d, w + 1),
					 -EINVAL);
		}
		assert_int_equal(layout_warehouse_device(w, w + 1, 1), -EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_arithmetic),
		cmocka_unit_test(test_tpcc_relations),
		cmocka_unit_test(test_sizes_match_real_loads),
		cmocka_unit_test(test_table_balanced),
		cmocka_unit_test(test_index_apart_from_table),
		cmocka_unit_test(test_table_deterministic),
		cmocka_unit_test(test_table_by_hand),
		cmocka_unit_test(test_table_errors),
		cmocka_unit_test(test_warehouse_ranges),
		cmocka_unit_test(test_warehouse_ranges_cover),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
