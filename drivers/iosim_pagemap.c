/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_pagemap.c - keys to pages (iosim_pagemap.h).
 *
 * Two mappings cover every relation:
 *
 * - keyed: a row (or index entry) at position idx of total in key order
 *   lies on page data_first + idx * data_pages / total. The tables loaded
 *   once and updated in place (WAREHOUSE, DISTRICT, CUSTOMER, ITEM,
 *   STOCK) and the indexes on them are keyed, and so is
 *   ORDERS(o_w_id, o_d_id, o_c_id, o_id), whose position is the
 *   customer's.
 * - district ring: entry e of a district lies in that district's share
 *   of the file (its region), on page e / rows_per_page counted from the
 *   region's start and wrapping at its end. The tables that grow by
 *   order id or by payment, and their primary keys, are rings.
 *
 * An index's pages are laid out as a B-tree built by CREATE INDEX:
 * the metapage, then the leaves in key order, then the upper levels
 * (about one page per rows_per_page leaves). A lookup is counted as its
 * leaf only: the root and the upper levels are always in memory in a
 * running database, and the profile's reads are its misses.
 */
#include "drivers/iosim_pagemap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/rng.h"

#define IOSIM_PAGEMAP_LINES_PER_ORDER \
	10 /* the mean of rand[5..15]: an
					    order's place in ORDER-LINE */
#define IOSIM_PAGEMAP_SEED \
	0x10517 /* the recent orders a fresh
						 load holds */

/* splitmix64: a key's fixed "random" choice (a customer, an order). */
static uint64_t iosim_pagemap_hash(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static int iosim_pagemap_clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The page of position idx of total (0 <= idx < total) in rel. */
static uint32_t iosim_pagemap_keyed(const struct iosim_pagemap *map,
				    enum iosim_profile_rel rel, uint64_t idx,
				    uint64_t total)
{
	const struct iosim_pagemap_rel *r = &map->rel[rel];

	if (idx >= total)
		idx = total - 1;
	return r->data_first + (uint32_t)(idx * r->data_pages / total);
}

/* The page of entry e of district di's region of rel. */
static uint32_t iosim_pagemap_ring(const struct iosim_pagemap *map,
				   enum iosim_profile_rel rel, int di,
				   uint64_t e)
{
	const struct iosim_pagemap_rel *r = &map->rel[rel];
	uint64_t nd = (uint64_t)map->warehouses * TPCC_DISTRICTS_PER_W;
	uint64_t base = (uint64_t)di * r->data_pages / nd;
	uint64_t len = (uint64_t)(di + 1) * r->data_pages / nd - base;

	/* fewer pages than districts: districts share pages */
	if (len == 0)
		len = 1;
	if (base >= r->data_pages)
		base = r->data_pages - 1;
	return r->data_first +
	       (uint32_t)(base +
			  (uint64_t)((double)e / r->rows_per_page) % len);
}

/* Append page to rel's list, unless the list is full. */
static void iosim_pagemap_add(struct iosim_pagemap_touch *t,
			      enum iosim_profile_rel rel, uint32_t page)
{
	if (t->n[rel] < IOSIM_PAGEMAP_MAX_TOUCH)
		t->page[rel][t->n[rel]++] = page;
}

/*
 * Append page unless it is the last one added: the consecutive rows of
 * one order fall on the same page, which is one access.
 */
static void iosim_pagemap_add_new(struct iosim_pagemap_touch *t,
				  enum iosim_profile_rel rel, uint32_t page)
{
	if (t->n[rel] == 0 || t->page[rel][t->n[rel] - 1] != page)
		iosim_pagemap_add(t, rel, page);
}

/* A heap row and its primary key's leaf, both keyed. */
static void iosim_pagemap_row(const struct iosim_pagemap *map,
			      struct iosim_pagemap_touch *t,
			      enum iosim_profile_rel heap,
			      enum iosim_profile_rel pkey, uint64_t idx,
			      uint64_t total)
{
	iosim_pagemap_add(t, heap, iosim_pagemap_keyed(map, heap, idx, total));
	iosim_pagemap_add(t, pkey, iosim_pagemap_keyed(map, pkey, idx, total));
}

static uint64_t iosim_pagemap_customers(const struct iosim_pagemap *map)
{
	return (uint64_t)map->warehouses * TPCC_DISTRICTS_PER_W *
	       TPCC_CUSTOMERS_PER_D;
}

/* A customer by id: its row and its primary key's leaf. */
static void iosim_pagemap_customer(const struct iosim_pagemap *map,
				   struct iosim_pagemap_touch *t, int di,
				   int c_id)
{
	iosim_pagemap_row(map, t, IOSIM_PROFILE_REL_CUSTOMER,
			  IOSIM_PROFILE_REL_CUSTOMER_PKEY,
			  (uint64_t)di * TPCC_CUSTOMERS_PER_D + (uint64_t)c_id -
				  1,
			  iosim_pagemap_customers(map));
}

/* The number 0..999 whose name c_last is; a fixed one if none is. */
static int iosim_pagemap_name(const struct iosim_pagemap *map,
			      const char *c_last)
{
	int lo = 0, hi = IOSIM_PAGEMAP_NAMES - 1, mid, cmp;
	uint64_t h = 0;
	const char *s;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		cmp = strcmp(c_last, map->names[mid]);
		if (cmp == 0)
			return map->name_of_rank[mid];
		if (cmp < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	/* not a TPC-C name: still the same page every time */
	for (s = c_last; *s; s++)
		h = iosim_pagemap_hash(h ^ (unsigned char)*s);
	return (int)(h % IOSIM_PAGEMAP_NAMES);
}

/*
 * A customer by last name in district di (Payment, Order-Status): the
 * name index's leaf, then the rows that carry the name. The loader gives
 * name n to customer n+1, and to about two of customers 1001..3000
 * (NURand); which two is a fixed choice per district and name. Returns
 * the customer the transaction goes on with.
 */
static int iosim_pagemap_by_name(const struct iosim_pagemap *map,
				 struct iosim_pagemap_touch *t, int di,
				 const char *c_last)
{
	int n = iosim_pagemap_name(map, c_last), k, c_id = n + 1;
	uint64_t key = ((uint64_t)di << 16) | (uint64_t)n;

	iosim_pagemap_add(
		t, IOSIM_PROFILE_REL_CUSTOMER_NAME_IDX,
		iosim_pagemap_keyed(map, IOSIM_PROFILE_REL_CUSTOMER_NAME_IDX,
				    (uint64_t)di * IOSIM_PAGEMAP_NAMES +
					    (uint64_t)map->rank_of_name[n],
				    (uint64_t)map->warehouses *
					    TPCC_DISTRICTS_PER_W *
					    IOSIM_PAGEMAP_NAMES));
	for (k = 0; k < 3; k++) {
		int c = k == 0 ? n + 1
			       : 1001 + (int)(iosim_pagemap_hash(key * 3 + k) %
					      2000);

		iosim_pagemap_add(t, IOSIM_PROFILE_REL_CUSTOMER,
				  iosim_pagemap_keyed(
					  map, IOSIM_PROFILE_REL_CUSTOMER,
					  (uint64_t)di * TPCC_CUSTOMERS_PER_D +
						  (uint64_t)c - 1,
					  iosim_pagemap_customers(map)));
		/* the middle one by first name: a fixed one of the three */
		if (k == 1)
			c_id = c;
	}
	return c_id;
}

/* An order's row in ORDERS and its primary key's leaf. */
static void iosim_pagemap_order_row(const struct iosim_pagemap *map,
				    struct iosim_pagemap_touch *t, int di,
				    int o_id)
{
	uint64_t e = (uint64_t)(o_id - 1);

	iosim_pagemap_add(
		t, IOSIM_PROFILE_REL_ORDERS,
		iosim_pagemap_ring(map, IOSIM_PROFILE_REL_ORDERS, di, e));
	iosim_pagemap_add(
		t, IOSIM_PROFILE_REL_ORDERS_PKEY,
		iosim_pagemap_ring(map, IOSIM_PROFILE_REL_ORDERS_PKEY, di, e));
}

/* The pages of an order's lines (of lines rows) and their index. */
static void iosim_pagemap_lines(const struct iosim_pagemap *map,
				struct iosim_pagemap_touch *t, int di, int o_id,
				int lines)
{
	uint64_t e = (uint64_t)(o_id - 1) * IOSIM_PAGEMAP_LINES_PER_ORDER;
	int k;

	for (k = 0; k < lines; k++) {
		iosim_pagemap_add_new(
			t, IOSIM_PROFILE_REL_ORDER_LINE,
			iosim_pagemap_ring(map, IOSIM_PROFILE_REL_ORDER_LINE,
					   di, e + (uint64_t)k));
		iosim_pagemap_add_new(
			t, IOSIM_PROFILE_REL_ORDER_LINE_PKEY,
			iosim_pagemap_ring(map,
					   IOSIM_PROFILE_REL_ORDER_LINE_PKEY,
					   di, e + (uint64_t)k));
	}
}

/* A NEW-ORDER row and its primary key's leaf. */
static void iosim_pagemap_new_order_row(const struct iosim_pagemap *map,
					struct iosim_pagemap_touch *t, int di,
					int o_id)
{
	uint64_t e = (uint64_t)(o_id - 1);

	iosim_pagemap_add(t, IOSIM_PROFILE_REL_NEW_ORDER_PKEY,
			  iosim_pagemap_ring(map,
					     IOSIM_PROFILE_REL_NEW_ORDER_PKEY,
					     di, e));
	iosim_pagemap_add(
		t, IOSIM_PROFILE_REL_NEW_ORDER,
		iosim_pagemap_ring(map, IOSIM_PROFILE_REL_NEW_ORDER, di, e));
}

/* The STOCK row of item i_id at warehouse w_id, and its key's leaf. */
static void iosim_pagemap_stock(const struct iosim_pagemap *map,
				struct iosim_pagemap_touch *t, int w_id,
				int i_id)
{
	iosim_pagemap_row(
		map, t, IOSIM_PROFILE_REL_STOCK, IOSIM_PROFILE_REL_STOCK_PKEY,
		(uint64_t)(w_id - 1) * TPCC_ITEMS + (uint64_t)(i_id - 1),
		(uint64_t)map->warehouses * TPCC_ITEMS);
}

/* The warehouse's row and key, and the district's. */
static void iosim_pagemap_w_d(const struct iosim_pagemap *map,
			      struct iosim_pagemap_touch *t, int w_id, int di,
			      bool with_district)
{
	iosim_pagemap_row(map, t, IOSIM_PROFILE_REL_WAREHOUSE,
			  IOSIM_PROFILE_REL_WAREHOUSE_PKEY,
			  (uint64_t)(w_id - 1), (uint64_t)map->warehouses);
	if (with_district)
		iosim_pagemap_row(map, t, IOSIM_PROFILE_REL_DISTRICT,
				  IOSIM_PROFILE_REL_DISTRICT_PKEY, (uint64_t)di,
				  (uint64_t)map->warehouses *
					  TPCC_DISTRICTS_PER_W);
}

static void iosim_pagemap_new_order(struct iosim_pagemap *map,
				    const struct txn_new_order *no,
				    struct iosim_pagemap_touch *t)
{
	int w = iosim_pagemap_clamp(no->w_id, 1, map->warehouses);
	int d = iosim_pagemap_clamp(no->d_id, 1, TPCC_DISTRICTS_PER_W);
	int di = (w - 1) * TPCC_DISTRICTS_PER_W + d - 1;
	int c = iosim_pagemap_clamp(no->c_id, 1, TPCC_CUSTOMERS_PER_D);
	int lines = iosim_pagemap_clamp(no->ol_cnt, 0, TXN_MAX_LINES);
	struct iosim_pagemap_district *dist = &map->district[di];
	struct iosim_pagemap_order *rec;
	int o_id, k;

	/* a rollback undoes the D_NEXT_O_ID update: the id is used again */
	if (no->rollback)
		o_id = atomic_load_explicit(&dist->next_o_id,
					    memory_order_relaxed);
	else
		o_id = atomic_fetch_add_explicit(&dist->next_o_id, 1,
						 memory_order_relaxed);
	iosim_pagemap_w_d(map, t, w, di, true);
	iosim_pagemap_customer(map, t, di, c);
	iosim_pagemap_order_row(map, t, di, o_id);
	iosim_pagemap_add(
		t, IOSIM_PROFILE_REL_ORDERS_CUSTOMER_IDX,
		iosim_pagemap_keyed(map, IOSIM_PROFILE_REL_ORDERS_CUSTOMER_IDX,
				    (uint64_t)di * TPCC_CUSTOMERS_PER_D +
					    (uint64_t)c - 1,
				    iosim_pagemap_customers(map)));
	iosim_pagemap_new_order_row(map, t, di, o_id);
	for (k = 0; k < lines; k++) {
		int i = no->ol_i_id[k];
		int sw = iosim_pagemap_clamp(no->ol_supply_w_id[k], 1,
					     map->warehouses);

		if (i < 1 || i > TPCC_ITEMS) {
			/* the unused item: its key is looked for and not
			 * found, past the last one */
			iosim_pagemap_add(t, IOSIM_PROFILE_REL_ITEM_PKEY,
					  iosim_pagemap_keyed(
						  map,
						  IOSIM_PROFILE_REL_ITEM_PKEY,
						  TPCC_ITEMS - 1, TPCC_ITEMS));
			continue;
		}
		iosim_pagemap_row(map, t, IOSIM_PROFILE_REL_ITEM,
				  IOSIM_PROFILE_REL_ITEM_PKEY,
				  (uint64_t)(i - 1), TPCC_ITEMS);
		iosim_pagemap_stock(map, t, sw, i);
	}
	iosim_pagemap_lines(map, t, di, o_id, lines);
	if (no->rollback)
		return;
	rec = &dist->recent[o_id % IOSIM_PAGEMAP_RECENT];
	for (k = 0; k < lines; k++)
		atomic_store_explicit(
			&rec->i_id[k],
			iosim_pagemap_clamp(no->ol_i_id[k], 1, TPCC_ITEMS),
			memory_order_relaxed);
	atomic_store_explicit(&rec->ol_cnt, lines, memory_order_relaxed);
}

static void iosim_pagemap_payment(struct iosim_pagemap *map,
				  const struct txn_payment *p,
				  struct iosim_pagemap_touch *t)
{
	int w = iosim_pagemap_clamp(p->w_id, 1, map->warehouses);
	int d = iosim_pagemap_clamp(p->d_id, 1, TPCC_DISTRICTS_PER_W);
	int cw = iosim_pagemap_clamp(p->c_w_id, 1, map->warehouses);
	int cd = iosim_pagemap_clamp(p->c_d_id, 1, TPCC_DISTRICTS_PER_W);
	int di = (w - 1) * TPCC_DISTRICTS_PER_W + d - 1;
	int cdi = (cw - 1) * TPCC_DISTRICTS_PER_W + cd - 1;
	int h;

	iosim_pagemap_w_d(map, t, w, di, true);
	if (p->by_name)
		iosim_pagemap_by_name(map, t, cdi, p->c_last);
	else
		iosim_pagemap_customer(
			map, t, cdi,
			iosim_pagemap_clamp(p->c_id, 1, TPCC_CUSTOMERS_PER_D));
	h = atomic_fetch_add_explicit(&map->district[di].next_h, 1,
				      memory_order_relaxed);
	iosim_pagemap_add(t, IOSIM_PROFILE_REL_HISTORY,
			  iosim_pagemap_ring(map, IOSIM_PROFILE_REL_HISTORY, di,
					     (uint64_t)h));
}

static void iosim_pagemap_order_status(struct iosim_pagemap *map,
				       const struct txn_order_status *os,
				       struct iosim_pagemap_touch *t)
{
	int w = iosim_pagemap_clamp(os->w_id, 1, map->warehouses);
	int d = iosim_pagemap_clamp(os->d_id, 1, TPCC_DISTRICTS_PER_W);
	int di = (w - 1) * TPCC_DISTRICTS_PER_W + d - 1;
	int c, next, span, o_id;

	if (os->by_name) {
		c = iosim_pagemap_by_name(map, t, di, os->c_last);
	} else {
		c = iosim_pagemap_clamp(os->c_id, 1, TPCC_CUSTOMERS_PER_D);
		iosim_pagemap_customer(map, t, di, c);
	}
	/* the customer's last order: a fixed distance behind the newest,
	 * within the orders the district's region holds */
	next = atomic_load_explicit(&map->district[di].next_o_id,
				    memory_order_relaxed);
	span = next - 1 < TPCC_ORDERS_PER_D ? next - 1 : TPCC_ORDERS_PER_D;
	if (span < 1)
		span = 1;
	o_id = next - 1 -
	       (int)(iosim_pagemap_hash(((uint64_t)di << 16) | (unsigned)c) %
		     (unsigned)span);
	if (o_id < 1)
		o_id = 1;
	iosim_pagemap_add(
		t, IOSIM_PROFILE_REL_ORDERS_CUSTOMER_IDX,
		iosim_pagemap_keyed(map, IOSIM_PROFILE_REL_ORDERS_CUSTOMER_IDX,
				    (uint64_t)di * TPCC_CUSTOMERS_PER_D +
					    (uint64_t)c - 1,
				    iosim_pagemap_customers(map)));
	iosim_pagemap_add(t, IOSIM_PROFILE_REL_ORDERS,
			  iosim_pagemap_ring(map, IOSIM_PROFILE_REL_ORDERS, di,
					     (uint64_t)(o_id - 1)));
	iosim_pagemap_lines(map, t, di, o_id, IOSIM_PAGEMAP_LINES_PER_ORDER);
}

static void iosim_pagemap_delivery(struct iosim_pagemap *map,
				   const struct txn_delivery *dl,
				   struct iosim_pagemap_touch *t)
{
	int w = iosim_pagemap_clamp(dl->w_id, 1, map->warehouses);
	int d;

	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		int di = (w - 1) * TPCC_DISTRICTS_PER_W + d - 1;
		struct iosim_pagemap_district *dist = &map->district[di];
		int o_id = atomic_load_explicit(&dist->next_delivery,
						memory_order_relaxed);
		bool taken = false;

		/* take the oldest undelivered order, as SKIP LOCKED lets
		 * concurrent Deliveries take different ones */
		while (o_id < atomic_load_explicit(&dist->next_o_id,
						   memory_order_relaxed)) {
			if (atomic_compare_exchange_weak_explicit(
				    &dist->next_delivery, &o_id, o_id + 1,
				    memory_order_relaxed,
				    memory_order_relaxed)) {
				taken = true;
				break;
			}
		}
		if (!taken) {
			/* nothing to deliver: the index probe finds none */
			iosim_pagemap_add(
				t, IOSIM_PROFILE_REL_NEW_ORDER_PKEY,
				iosim_pagemap_ring(
					map, IOSIM_PROFILE_REL_NEW_ORDER_PKEY,
					di, (uint64_t)(o_id - 1)));
			continue;
		}
		iosim_pagemap_new_order_row(map, t, di, o_id);
		iosim_pagemap_order_row(map, t, di, o_id);
		iosim_pagemap_lines(map, t, di, o_id,
				    IOSIM_PAGEMAP_LINES_PER_ORDER);
		iosim_pagemap_customer(
			map, t, di,
			1 + (int)(iosim_pagemap_hash(((uint64_t)di << 32) |
						     (unsigned)o_id) %
				  TPCC_CUSTOMERS_PER_D));
	}
}

static void iosim_pagemap_stock_level(struct iosim_pagemap *map,
				      const struct txn_stock_level *sl,
				      struct iosim_pagemap_touch *t)
{
	int w = iosim_pagemap_clamp(sl->w_id, 1, map->warehouses);
	int d = iosim_pagemap_clamp(sl->d_id, 1, TPCC_DISTRICTS_PER_W);
	int di = (w - 1) * TPCC_DISTRICTS_PER_W + d - 1;
	struct iosim_pagemap_district *dist = &map->district[di];
	int next, o_id, k, lines;

	iosim_pagemap_row(map, t, IOSIM_PROFILE_REL_DISTRICT,
			  IOSIM_PROFILE_REL_DISTRICT_PKEY, (uint64_t)di,
			  (uint64_t)map->warehouses * TPCC_DISTRICTS_PER_W);
	next = atomic_load_explicit(&dist->next_o_id, memory_order_relaxed);
	for (o_id = next - IOSIM_PAGEMAP_RECENT; o_id < next; o_id++) {
		const struct iosim_pagemap_order *rec =
			&dist->recent[o_id % IOSIM_PAGEMAP_RECENT];

		if (o_id < 1)
			continue;
		lines = atomic_load_explicit(&rec->ol_cnt,
					     memory_order_relaxed);
		iosim_pagemap_lines(map, t, di, o_id, lines);
		for (k = 0; k < lines; k++)
			iosim_pagemap_stock(
				map, t, w,
				atomic_load_explicit(&rec->i_id[k],
						     memory_order_relaxed));
	}
}

void iosim_pagemap_touch(struct iosim_pagemap *map, const struct txn_input *in,
			 struct iosim_pagemap_touch *t)
{
	memset(t->n, 0, sizeof(t->n));
	t->type = in->type;
	switch (in->type) {
	case TXN_NEW_ORDER:
		t->w_id = in->u.new_order.w_id;
		iosim_pagemap_new_order(map, &in->u.new_order, t);
		break;
	case TXN_PAYMENT:
		t->w_id = in->u.payment.w_id;
		iosim_pagemap_payment(map, &in->u.payment, t);
		break;
	case TXN_ORDER_STATUS:
		t->w_id = in->u.order_status.w_id;
		iosim_pagemap_order_status(map, &in->u.order_status, t);
		break;
	case TXN_DELIVERY:
		t->w_id = in->u.delivery.w_id;
		iosim_pagemap_delivery(map, &in->u.delivery, t);
		break;
	case TXN_STOCK_LEVEL:
		t->w_id = in->u.stock_level.w_id;
		iosim_pagemap_stock_level(map, &in->u.stock_level, t);
		break;
	default:
		t->type = TXN_NEW_ORDER;
		t->w_id = 1;
		break;
	}
	t->w_id = iosim_pagemap_clamp(t->w_id, 1, map->warehouses);
}

uint32_t iosim_pagemap_pick(const struct iosim_pagemap *map,
			    const struct iosim_pagemap_touch *t,
			    enum iosim_profile_rel rel, unsigned j)
{
	uint64_t pages = map->rel[rel].pages, page;
	unsigned n = t->n[rel];

	if (n > 0)
		page = t->page[rel][j % n] + (uint64_t)(j / n);
	else
		page = (uint64_t)(t->w_id - 1) * pages /
			       (uint64_t)map->warehouses +
		       j;
	return (uint32_t)(page % pages);
}

/* The whole blocks owed now of per_call plus *carry; keeps the rest. */
static unsigned iosim_pagemap_quota(double per_call, double *carry)
{
	double owed = per_call + *carry;
	unsigned k = (unsigned)owed;

	*carry = owed - k;
	return k;
}

void iosim_pagemap_plan(const struct iosim_pagemap *map,
			const struct iosim_pagemap_touch *t,
			struct iosim_pagemap_carry *carry,
			struct iosim_pagemap_io *io)
{
	unsigned k, j;
	int rel;

	io->nread = io->ndirty = 0;
	for (rel = 0; rel < IOSIM_PROFILE_REL_NR; rel++) {
		k = iosim_pagemap_quota(map->reads_per_call[t->type][rel],
					&carry->read[t->type][rel]);
		for (j = 0; j < k && io->nread < IOSIM_PAGEMAP_MAX_IO; j++)
			io->read[io->nread++] = (struct iosim_pagemap_page){
				(uint32_t)rel,
				iosim_pagemap_pick(map, t, rel, j)};
		k = iosim_pagemap_quota(map->dirtied_per_call[t->type][rel],
					&carry->dirty[t->type][rel]);
		for (j = 0; j < k && io->ndirty < IOSIM_PAGEMAP_MAX_IO; j++)
			io->dirty[io->ndirty++] = (struct iosim_pagemap_page){
				(uint32_t)rel,
				iosim_pagemap_pick(map, t, rel, j)};
	}
}

/* The geometry of rel's file (see the top of this file). */
static void iosim_pagemap_geometry(struct iosim_pagemap_rel *r,
				   const struct iosim_profile_relation *pr,
				   bool index)
{
	uint32_t upper, fanout;

	r->pages = (uint32_t)pr->pages;
	r->rows_per_page = pr->rows_per_page;
	r->data_first = 0;
	r->data_pages = r->pages;
	if (!index)
		return;
	if (r->pages <= 2) {
		/* the metapage and one page that is root and leaf */
		r->data_first = r->pages - 1;
		r->data_pages = 1;
		return;
	}
	fanout = r->rows_per_page < 2 ? 2 : (uint32_t)r->rows_per_page;
	upper = (r->pages - 1) / fanout;
	if (upper < 1)
		upper = 1;
	if (upper > r->pages - 2)
		upper = r->pages - 2;
	r->data_first = 1;
	r->data_pages = r->pages - 1 - upper;
}

/* Order name numbers by their text, for iosim_pagemap_init(). */
static int iosim_pagemap_name_cmp(const void *a, const void *b)
{
	char x[TPCC_C_LAST_MAX], y[TPCC_C_LAST_MAX];

	tpcc_c_last(*(const int16_t *)a, x);
	tpcc_c_last(*(const int16_t *)b, y);
	return strcmp(x, y);
}

int iosim_pagemap_init(struct iosim_pagemap *map,
		       const struct iosim_profile *prof, int warehouses,
		       struct err *err)
{
	size_t nd = (size_t)prof->warehouses * TPCC_DISTRICTS_PER_W;
	struct rng rng;
	int r, type, i, k, o;
	size_t di;

	memset(map, 0, sizeof(*map));
	if (warehouses > prof->warehouses)
		return err_set(err, -ERANGE,
			       "the run has %d warehouses, the I/O profile "
			       "%d: its files hold no rows for warehouses "
			       "%d to %d (calibrate with at least %d)",
			       warehouses, prof->warehouses,
			       prof->warehouses + 1, warehouses, warehouses);
	map->warehouses = prof->warehouses;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		iosim_pagemap_geometry(&map->rel[r], &prof->rel[r],
				       iosim_profile_rel_is_index(r));
	for (type = 0; type < TXN_NR; type++)
		for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
			map->reads_per_call[type][r] =
				iosim_profile_reads_per_call(prof, type, r);
			map->dirtied_per_call[type][r] =
				iosim_profile_dirtied_per_call(prof, type, r);
		}
	for (i = 0; i < IOSIM_PAGEMAP_NAMES; i++)
		map->name_of_rank[i] = (int16_t)i;
	qsort(map->name_of_rank, IOSIM_PAGEMAP_NAMES, sizeof(int16_t),
	      iosim_pagemap_name_cmp);
	for (i = 0; i < IOSIM_PAGEMAP_NAMES; i++) {
		map->rank_of_name[map->name_of_rank[i]] = (int16_t)i;
		tpcc_c_last(map->name_of_rank[i], map->names[i]);
	}
	map->district = aligned_alloc(64, nd * sizeof(*map->district));
	if (!map->district)
		return err_set(err, -ENOMEM, "out of memory for %zu districts",
			       nd);
	/* as loaded: orders 1..3000, 2101..3000 undelivered, 3000 history
	 * rows; the last 20 orders' items uniform (clause 4.3.3.1) */
	for (di = 0; di < nd; di++) {
		struct iosim_pagemap_district *d = &map->district[di];

		atomic_init(&d->next_o_id, TPCC_ORDERS_PER_D + 1);
		atomic_init(&d->next_delivery, TPCC_FIRST_UNDELIVERED_O_ID);
		atomic_init(&d->next_h, TPCC_CUSTOMERS_PER_D);
		rng_seed(&rng, IOSIM_PAGEMAP_SEED, di);
		for (o = 0; o < IOSIM_PAGEMAP_RECENT; o++) {
			struct iosim_pagemap_order *rec = &d->recent[o];
			int lines = (int)rng_range(&rng, 5, TXN_MAX_LINES);

			atomic_init(&rec->ol_cnt, lines);
			for (k = 0; k < TXN_MAX_LINES; k++)
				atomic_init(
					&rec->i_id[k],
					(int)rng_range(&rng, 1, TPCC_ITEMS));
		}
	}
	return 0;
}

void iosim_pagemap_free(struct iosim_pagemap *map)
{
	free(map->district);
	map->district = NULL;
}
