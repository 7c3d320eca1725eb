/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout.c - the "table" and "warehouse" layouts of a database spread over
 * several directories, and the expected size of each TPC-C relation that
 * the "table" layout balances. See layout.h for the contracts and
 * docs/layout.md for the numbers and how well they match a real load.
 */
#include "src/load/layout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * PostgreSQL's page arithmetic (8 KiB pages, 24-byte page header, 4-byte
 * line pointer per tuple, at most 291 heap tuples a page). CREATE INDEX
 * fills B-tree leaves until 10 % of the page is left free (fillfactor 90)
 * and internal pages to 70 %; a B-tree page also ends with 16 bytes of
 * special space.
 */
#define PAGE_BYTES	     8192
#define PAGE_HEADER_BYTES    24
#define LINE_POINTER_BYTES   4
#define HEAP_TUPLES_PER_PAGE 291
#define BTREE_SPECIAL_BYTES  16
#define BTREE_LEAF_FILL_PCT  90
#define BTREE_INNER_FILL_PCT 70

int64_t layout_heap_bytes(int64_t rows, int tuple_bytes)
{
	int64_t per_page;

	if (rows <= 0)
		return 0;
	per_page = (PAGE_BYTES - PAGE_HEADER_BYTES) /
		   (tuple_bytes + LINE_POINTER_BYTES);
	if (per_page > HEAP_TUPLES_PER_PAGE)
		per_page = HEAP_TUPLES_PER_PAGE;
	if (per_page < 1)
		per_page = 1;
	return (rows + per_page - 1) / per_page * PAGE_BYTES;
}

/* How many tuple_bytes entries a B-tree page takes when filled to pct. */
static int64_t btree_per_page(int tuple_bytes, int pct)
{
	int64_t usable = PAGE_BYTES - PAGE_HEADER_BYTES - BTREE_SPECIAL_BYTES;
	int64_t per_page;

	/* nbtsort stops once less than (100 - pct) % of a page is free */
	usable -= (int64_t)PAGE_BYTES * (100 - pct) / 100;
	per_page = usable / (tuple_bytes + LINE_POINTER_BYTES);
	return per_page < 2 ? 2 : per_page;
}

int64_t layout_btree_bytes(int64_t rows, int tuple_bytes)
{
	int64_t leaf_per_page =
		btree_per_page(tuple_bytes, BTREE_LEAF_FILL_PCT);
	int64_t inner_per_page =
		btree_per_page(tuple_bytes, BTREE_INNER_FILL_PCT);
	int64_t level, pages;

	level = rows <= 0 ? 1 : (rows + leaf_per_page - 1) / leaf_per_page;
	pages = 1 + level; /* the metapage and the leaves */
	while (level > 1) {
		level = (level + inner_per_page - 1) / inner_per_page;
		pages += level;
	}
	return pages * PAGE_BYTES;
}

/*
 * The TPC-C relations and the average on-disk size of one of their tuples
 * (header included, aligned to 8; without the line pointer), worked out
 * from the column types of schema/tables.sql and the value lengths of
 * clause 4.3.3.1:
 *
 * - heap tuple header 24 bytes (23, aligned), 32 when a NULL needs the
 *   null bitmap of a 9- to 16-column row; integer 4 bytes aligned to 4,
 *   timestamp 8 aligned to 8; varchar of up to 126 bytes 1 byte of length
 *   plus the text, unaligned (longer: 4 bytes of length, aligned to 4);
 *   numeric 3 bytes plus 2 for each group of 4 decimal digits;
 * - index tuple header 8 bytes, the key columns as in the heap, aligned
 *   to 8 in all.
 *
 * Each tuple is aligned to 8 on its own, so where lengths vary the
 * average of the aligned sizes is larger than the aligned average: a
 * HISTORY row of 74 to 86 bytes takes 80 or 88, about 84 on average.
 *
 * WAREHOUSE 84 bytes of data (W_NAME 6-10 characters, streets and city
 * 10-20, so 1+8, 3*(1+15), state 1+2, zip 1+9, two numerics of 5) + 24
 * = 108 -> 112. DISTRICT the same plus D_W_ID and D_NEXT_O_ID: 120.
 * CUSTOMER 3 integers, C_FIRST 1+12, C_MIDDLE 1+2, C_LAST 1+12 (three
 * syllables of 4 letters on average), streets and city 3*16, state 3,
 * zip 10, phone 17, C_SINCE (aligned to 8), credit 3, four numerics of 5,
 * two integers, then C_DATA of 300-500 characters, 4+400: 564 + 24 = 588
 * -> 592. HISTORY 5 integers, H_DATE, H_AMOUNT 5, H_DATA of 12-24
 * characters 1+18: 56 + 24 = 80, 84 with the alignment of each row.
 * NEW_ORDER 3 integers: 40. ORDERS 7 columns in 36 bytes (64 in all);
 * O_CARRIER_ID is NULL in the last 900 orders of each district (30 %):
 * 32 bytes and an 8-column bitmap that still fits the 24-byte header
 * (56); on average 62. ORDER_LINE 6 integers, OL_DELIVERY_D,
 * OL_QUANTITY, OL_AMOUNT (0.00: 3 bytes when delivered; random up to
 * 9999.99: 7 when not), OL_DIST_INFO 1+24: 88 when delivered; undelivered
 * (30 %) without the timestamp but with the 32-byte header: 96; on
 * average 90. ITEM 2 integers, I_NAME 1+19, I_PRICE 7, I_DATA 1+38: 74 +
 * 24 = 98, 102 with the alignment of each row. STOCK 3 integers, ten
 * S_DIST_xx of 1+24, 3 integers (after 2 bytes of alignment), S_DATA
 * 1+38: 315 + 24 = 339 -> 344.
 *
 * Index keys: 1 or 2 integers give 16-byte entries, 3 or 4 give 24;
 * CUSTOMER_NAME_IDX has 2 integers, C_LAST 1+12, C_FIRST 1+12: 8 + 34 =
 * 42 -> 48, or 40 when the names are short; 46 on average.
 */
struct tpcc_rel {
	const char *name;      /* SQL name (schema/tables.sql, indexes.sql) */
	enum layout_kind kind; /* table or index */
	const char *table;     /* an index's table */
	int rows_per_w;	       /* rows (entries) per warehouse */
	int rows_fixed;	       /* rows that do not grow with W (ITEM) */
	int tuple_bytes;       /* average tuple on disk, see above */
};

static const struct tpcc_rel tpcc_rels[LAYOUT_TPCC_RELS] = {
	{"warehouse", LAYOUT_TABLE, NULL, 1, 0, 112},
	{"district", LAYOUT_TABLE, NULL, 10, 0, 120},
	{"customer", LAYOUT_TABLE, NULL, 30000, 0, 592},
	{"history", LAYOUT_TABLE, NULL, 30000, 0, 84},
	{"new_order", LAYOUT_TABLE, NULL, 9000, 0, 40},
	{"orders", LAYOUT_TABLE, NULL, 30000, 0, 62},
	{"order_line", LAYOUT_TABLE, NULL, 300000, 0, 90},
	{"item", LAYOUT_TABLE, NULL, 0, 100000, 102},
	{"stock", LAYOUT_TABLE, NULL, 100000, 0, 344},
	{"warehouse_pkey", LAYOUT_INDEX, "warehouse", 1, 0, 16},
	{"district_pkey", LAYOUT_INDEX, "district", 10, 0, 16},
	{"customer_pkey", LAYOUT_INDEX, "customer", 30000, 0, 24},
	{"customer_name_idx", LAYOUT_INDEX, "customer", 30000, 0, 46},
	{"new_order_pkey", LAYOUT_INDEX, "new_order", 9000, 0, 24},
	{"orders_pkey", LAYOUT_INDEX, "orders", 30000, 0, 24},
	{"orders_customer_idx", LAYOUT_INDEX, "orders", 30000, 0, 24},
	{"order_line_pkey", LAYOUT_INDEX, "order_line", 300000, 0, 24},
	{"item_pkey", LAYOUT_INDEX, "item", 0, 100000, 16},
	{"stock_pkey", LAYOUT_INDEX, "stock", 100000, 0, 16},
};

int layout_tpcc_relations(int warehouses, struct layout_rel *rels, int max,
			  struct err *err)
{
	int i;

	if (warehouses < 1)
		return err_set(err, -EINVAL,
			       "warehouses must be at least 1, not %d",
			       warehouses);
	if (max < LAYOUT_TPCC_RELS)
		return err_set(err, -E2BIG, "room for %d relations, %d needed",
			       max, LAYOUT_TPCC_RELS);
	for (i = 0; i < LAYOUT_TPCC_RELS; i++) {
		const struct tpcc_rel *t = &tpcc_rels[i];
		int64_t rows =
			(int64_t)t->rows_per_w * warehouses + t->rows_fixed;

		rels[i].name = t->name;
		rels[i].kind = t->kind;
		rels[i].table = t->table;
		rels[i].bytes =
			t->kind == LAYOUT_TABLE
				? layout_heap_bytes(rows, t->tuple_bytes)
				: layout_btree_bytes(rows, t->tuple_bytes);
	}
	return LAYOUT_TPCC_RELS;
}

/* qsort order of layout_table: bytes descending, then name. */
static int by_bytes_then_name(const void *a, const void *b, void *arg)
{
	const struct layout_rel *rels = arg;
	const struct layout_rel *x = &rels[*(const int *)a];
	const struct layout_rel *y = &rels[*(const int *)b];

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Index of the relation named name among rels[0..n), or -1. */
static int find_rel(const struct layout_rel *rels, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(rels[i].name, name) == 0)
			return i;
	return -1;
}

/* Check what layout_table is given; parent[i] gets an index's table. */
static int check_rels(const struct layout_rel *rels, int nrels, int *parent,
		      struct err *err)
{
	int i;

	for (i = 0; i < nrels; i++) {
		const struct layout_rel *r = &rels[i];

		if (!r->name)
			return err_set(err, -EINVAL, "relation %d has no name",
				       i);
		if (find_rel(rels, i, r->name) >= 0)
			return err_set(err, -EINVAL, "relation %s given twice",
				       r->name);
		if (r->bytes < 0)
			return err_set(err, -EINVAL,
				       "relation %s: negative size %lld",
				       r->name, (long long)r->bytes);
		parent[i] = -1;
		if (r->kind == LAYOUT_TABLE) {
			if (r->table)
				return err_set(
					err, -EINVAL,
					"table %s cannot belong to table %s",
					r->name, r->table);
			continue;
		}
		if (r->kind != LAYOUT_INDEX)
			return err_set(err, -EINVAL,
				       "relation %s: unknown kind %d", r->name,
				       (int)r->kind);
		parent[i] = r->table ? find_rel(rels, nrels, r->table) : -1;
		if (parent[i] < 0)
			return err_set(
				err, -EINVAL,
				"index %s: its table %s is not among the relations",
				r->name, r->table ? r->table : "(none)");
		if (rels[parent[i]].kind != LAYOUT_TABLE)
			return err_set(err, -EINVAL,
				       "index %s: %s is not a table", r->name,
				       r->table);
	}
	return 0;
}

/*
 * The directory with the fewest bytes, the lowest number on a tie,
 * skipping avoid (-1: none).
 */
static int least_loaded(const int64_t *load, int ndirs, int avoid)
{
	int best = -1, d;

	for (d = 0; d < ndirs; d++) {
		if (d == avoid)
			continue;
		if (best < 0 || load[d] < load[best])
			best = d;
	}
	return best;
}

/* Place relation i (whose table, if any, is placed) and add its bytes. */
static void place(const struct layout_rel *rels, const int *parent, int i,
		  int ndirs, int64_t *load, int *dir)
{
	int avoid = parent[i] >= 0 && ndirs >= 2 ? dir[parent[i]] : -1;

	dir[i] = least_loaded(load, ndirs, avoid);
	load[dir[i]] += rels[i].bytes;
}

int layout_table(const struct layout_rel *rels, int nrels, int ndirs, int *dir,
		 struct err *err)
{
	int *order = NULL, *parent = NULL;
	int64_t *load = NULL;
	int i, j, rc;

	if (ndirs < 1)
		return err_set(err, -EINVAL,
			       "at least one directory is needed, not %d",
			       ndirs);
	if (nrels < 0)
		return err_set(err, -EINVAL, "negative number of relations");
	if (nrels == 0)
		return 0;
	order = malloc(sizeof(*order) * (size_t)nrels);
	parent = malloc(sizeof(*parent) * (size_t)nrels);
	load = calloc((size_t)ndirs, sizeof(*load));
	if (!order || !parent || !load) {
		rc = err_set(err, -ENOMEM, "out of memory for %d relations",
			     nrels);
		goto out;
	}
	rc = check_rels(rels, nrels, parent, err);
	if (rc < 0)
		goto out;
	for (i = 0; i < nrels; i++) {
		order[i] = i;
		dir[i] = -1;
	}
	qsort_r(order, (size_t)nrels, sizeof(*order), by_bytes_then_name,
		(void *)rels);
	for (i = 0; i < nrels; i++) {
		int r = order[i];

		/* An index waits for its table; see below. */
		if (parent[r] >= 0 && dir[parent[r]] < 0)
			continue;
		place(rels, parent, r, ndirs, load, dir);
		if (rels[r].kind != LAYOUT_TABLE)
			continue;
		/* The indexes that waited for this table, largest first. */
		for (j = 0; j < i; j++)
			if (parent[order[j]] == r)
				place(rels, parent, order[j], ndirs, load, dir);
	}
	rc = 0;
out:
	free(order);
	free(parent);
	free(load);
	return rc;
}

void layout_dir_bytes(const struct layout_rel *rels, int nrels, const int *dir,
		      int ndirs, int64_t *bytes)
{
	int i;

	for (i = 0; i < ndirs; i++)
		bytes[i] = 0;
	for (i = 0; i < nrels; i++)
		if (dir[i] >= 0 && dir[i] < ndirs)
			bytes[dir[i]] += rels[i].bytes;
}

int layout_warehouse_ranges(int warehouses, int devices,
			    struct layout_range *ranges, struct err *err)
{
	int k, lo = 1;

	if (warehouses < 1)
		return err_set(err, -EINVAL,
			       "warehouses must be at least 1, not %d",
			       warehouses);
	if (devices < 1)
		return err_set(err, -EINVAL,
			       "devices must be at least 1, not %d", devices);
	if (devices > warehouses)
		return err_set(
			err, -EINVAL,
			"%d devices for %d warehouses: the warehouse layout needs at least one warehouse per device",
			devices, warehouses);
	for (k = 0; k < devices; k++) {
		int n = warehouses / devices + (k < warehouses % devices);

		ranges[k].lo = lo;
		ranges[k].hi = lo + n;
		lo += n;
	}
	return 0;
}

int layout_warehouse_device(int warehouses, int devices, int w_id)
{
	int big, small, rest;

	if (warehouses < 1 || devices < 1 || devices > warehouses || w_id < 1 ||
	    w_id > warehouses)
		return -EINVAL;
	/* The first rest ranges hold big warehouses, the others small. */
	small = warehouses / devices;
	big = small + 1;
	rest = warehouses % devices;
	if (w_id <= rest * big)
		return (w_id - 1) / big;
	return rest + (w_id - 1 - rest * big) / small;
}
