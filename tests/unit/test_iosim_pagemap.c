/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iosim_pagemap.c - drivers/iosim_pagemap.h: keys to pages.
 * The same inputs give the same pages and plans in two maps; every page
 * of every relation stays inside its file at W = 1 and W = 10, for the
 * terminals' own inputs (terminals/inputs.h) and for inputs out of
 * range; known keys land where the row order says; STOCK pages are
 * skewed as NURand is (the hottest 10 % of pages take well over 10 % of
 * New-Order's accesses, and uniform items give about 10 %: the control);
 * the district state moves as the transactions do; a plan's reads over
 * many calls add up to the profile's reads per call; too many
 * warehouses for the profile is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/iosim_pagemap.h"
#include "terminals/inputs.h"
#include "tests/unit/fixture_util.h"

/* The valid fixture (W = 10), or scaled down to W = 1. */
static void profile_for(struct iosim_profile *p, int warehouses)
{
	struct err err;
	int r;

	assert_int_equal(iosim_profile_read(
				 fixture_path("ioprofile-valid.json"), p, &err),
			 0);
	assert_int_equal(p->warehouses, 10);
	if (warehouses == 10)
		return;
	p->warehouses = warehouses;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		/* ITEM is the same for every W */
		if (r == IOSIM_PROFILE_REL_ITEM ||
		    r == IOSIM_PROFILE_REL_ITEM_PKEY)
			continue;
		p->rel[r].pages = p->rel[r].pages * warehouses / 10;
		if (p->rel[r].pages < 1)
			p->rel[r].pages = 1;
	}
}

/* Static: a touch and a plan are too big for a thread's stack. */
static struct iosim_pagemap_touch touch_a, touch_b;
static struct iosim_pagemap_io io_a, io_b;
static struct iosim_pagemap_carry carry_a, carry_b;

/* Draw the type of the next input: the mix's weights, roughly. */
static enum txn_type draw_type(struct rng *rng)
{
	int x = (int)rng_range(rng, 1, 100);

	return x <= 45	 ? TXN_NEW_ORDER
	       : x <= 88 ? TXN_PAYMENT
	       : x <= 92 ? TXN_ORDER_STATUS
	       : x <= 96 ? TXN_DELIVERY
			 : TXN_STOCK_LEVEL;
}

/* A terminal's input of a drawn type at a random home warehouse. */
static void draw_input(const struct inputs_ctx *ctx, struct rng *rng,
		       struct txn_input *in)
{
	int w = (int)rng_range(rng, 1, ctx->warehouses);

	inputs_generate(ctx, draw_type(rng), w, (int)rng_range(rng, 1, 10), rng,
			in);
}

static void assert_same_touch(const struct iosim_pagemap_touch *a,
			      const struct iosim_pagemap_touch *b)
{
	int r;

	assert_int_equal(a->type, b->type);
	assert_int_equal(a->w_id, b->w_id);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		assert_int_equal(a->n[r], b->n[r]);
		assert_memory_equal(a->page[r], b->page[r],
				    a->n[r] * sizeof(uint32_t));
	}
}

static void test_deterministic(void **state)
{
	struct iosim_profile p;
	struct iosim_pagemap a, b;
	struct inputs_ctx ctx;
	struct rng rng, rng_c;
	struct txn_input in;
	struct err err;
	int i;

	(void)state;
	profile_for(&p, 10);
	assert_int_equal(iosim_pagemap_init(&a, &p, 10, &err), 0);
	assert_int_equal(iosim_pagemap_init(&b, &p, 10, &err), 0);
	memset(&carry_a, 0, sizeof(carry_a));
	memset(&carry_b, 0, sizeof(carry_b));
	rng_seed(&rng_c, 1, 0);
	inputs_ctx_init(&ctx, 10, 117, &rng_c);
	rng_seed(&rng, 42, 1);
	for (i = 0; i < 20000; i++) {
		draw_input(&ctx, &rng, &in);
		iosim_pagemap_touch(&a, &in, &touch_a);
		iosim_pagemap_touch(&b, &in, &touch_b);
		assert_same_touch(&touch_a, &touch_b);
		iosim_pagemap_plan(&a, &touch_a, &carry_a, &io_a);
		iosim_pagemap_plan(&b, &touch_b, &carry_b, &io_b);
		assert_int_equal(io_a.nread, io_b.nread);
		assert_int_equal(io_a.ndirty, io_b.ndirty);
		assert_memory_equal(io_a.read, io_b.read,
				    io_a.nread * sizeof(io_a.read[0]));
		assert_memory_equal(io_a.dirty, io_b.dirty,
				    io_a.ndirty * sizeof(io_a.dirty[0]));
	}
	iosim_pagemap_free(&a);
	iosim_pagemap_free(&b);
	iosim_pagemap_free(&b);
}

/* Every touched and planned page of t inside its relation's file. */
static void assert_in_files(const struct iosim_pagemap *map,
			    const struct iosim_pagemap_touch *t,
			    const struct iosim_pagemap_io *io)
{
	unsigned i;
	int r;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		for (i = 0; i < t->n[r]; i++)
			if (t->page[r][i] >= map->rel[r].pages)
				fail_msg("%s: page %u of %u",
					 iosim_profile_rel_name(r),
					 t->page[r][i], map->rel[r].pages);
	for (i = 0; i < io->nread; i++)
		assert_true(io->read[i].page < map->rel[io->read[i].rel].pages);
	for (i = 0; i < io->ndirty; i++)
		assert_true(io->dirty[i].page <
			    map->rel[io->dirty[i].rel].pages);
	/* picks far past the touched pages wrap inside the file */
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		for (i = 0; i < 5; i++)
			assert_true(
				iosim_pagemap_pick(map, t, r, i * 1000003u) <
				map->rel[r].pages);
}

static void bounds_at(int warehouses)
{
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct inputs_ctx ctx;
	struct rng rng;
	struct txn_input in;
	struct err err;
	int i, type;

	profile_for(&p, warehouses);
	assert_int_equal(iosim_pagemap_init(&map, &p, warehouses, &err), 0);
	memset(&carry_a, 0, sizeof(carry_a));
	rng_seed(&rng, 7, (uint64_t)warehouses);
	inputs_ctx_init(&ctx, warehouses, 42, &rng);
	/* at W = 1, enough New-Orders to wrap every district's regions */
	for (i = 0; i < 40000; i++) {
		for (type = 0; type < TXN_NR; type++) {
			inputs_generate(&ctx, type,
					(int)rng_range(&rng, 1, warehouses),
					(int)rng_range(&rng, 1, 10), &rng, &in);
			iosim_pagemap_touch(&map, &in, &touch_a);
			iosim_pagemap_plan(&map, &touch_a, &carry_a, &io_a);
			assert_in_files(&map, &touch_a, &io_a);
		}
	}
	iosim_pagemap_free(&map);
}

static void test_bounds_w1(void **state)
{
	(void)state;
	bounds_at(1);
}

static void test_bounds_w10(void **state)
{
	(void)state;
	bounds_at(10);
}

/* An input of type with every number x or y (no valid one needed). */
static void bad_input(struct txn_input *in, int type, int x, int y, size_t i)
{
	struct txn_new_order *no = &in->u.new_order;
	struct txn_payment *pay = &in->u.payment;
	struct txn_order_status *os = &in->u.order_status;
	int k;

	memset(in, 0, sizeof(*in));
	in->type = type;
	switch (type) {
	case TXN_NEW_ORDER:
		*no = (struct txn_new_order){
			.w_id = x, .d_id = y, .c_id = x, .ol_cnt = y};
		for (k = 0; k < TXN_MAX_LINES; k++) {
			no->ol_i_id[k] = y;
			no->ol_supply_w_id[k] = x;
		}
		no->rollback = i % 2;
		break;
	case TXN_PAYMENT:
		*pay = (struct txn_payment){.w_id = x,
					    .d_id = y,
					    .c_w_id = y,
					    .c_d_id = x,
					    .c_id = y,
					    .by_name = i % 2};
		snprintf(pay->c_last, sizeof(pay->c_last), "NOSUCHNAME%zu", i);
		break;
	case TXN_ORDER_STATUS:
		*os = (struct txn_order_status){
			.w_id = x, .d_id = y, .c_id = x, .by_name = i % 2};
		/* a name cut short: not one of the 1000 */
		tpcc_c_last((int)(i % 1000), os->c_last);
		os->c_last[3] = '\0';
		break;
	case TXN_DELIVERY:
		in->u.delivery = (struct txn_delivery){x, y};
		break;
	case TXN_STOCK_LEVEL:
		in->u.stock_level = (struct txn_stock_level){x, y, x};
		break;
	default:
		/* a type that does not exist */
		break;
	}
}

/* Inputs a broken terminal could send: clamped, never out of a file. */
static void test_bounds_bad_inputs(void **state)
{
	static const int bad[] = {-100000, -1, 0, 1, 11, 3001, 100001, 1 << 30};
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct txn_input in;
	struct err err;
	size_t a, b;
	int type;

	(void)state;
	profile_for(&p, 1);
	assert_int_equal(iosim_pagemap_init(&map, &p, 1, &err), 0);
	memset(&carry_a, 0, sizeof(carry_a));
	for (a = 0; a < sizeof(bad) / sizeof(bad[0]); a++)
		for (b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
			for (type = 0; type <= TXN_NR; type++) {
				bad_input(&in, type, bad[a], bad[b], a);
				iosim_pagemap_touch(&map, &in, &touch_a);
				iosim_pagemap_plan(&map, &touch_a, &carry_a,
						   &io_a);
				assert_in_files(&map, &touch_a, &io_a);
			}
	iosim_pagemap_free(&map);
}

/* A New-Order input with the given lines (items at warehouse w). */
static void new_order(struct txn_input *in, int w, int d, int c, int lines,
		      const int *items, bool rollback)
{
	int k;

	memset(in, 0, sizeof(*in));
	in->type = TXN_NEW_ORDER;
	in->u.new_order.w_id = w;
	in->u.new_order.d_id = d;
	in->u.new_order.c_id = c;
	in->u.new_order.ol_cnt = lines;
	in->u.new_order.rollback = rollback;
	for (k = 0; k < lines; k++) {
		in->u.new_order.ol_i_id[k] = items[k];
		in->u.new_order.ol_supply_w_id[k] = w;
		in->u.new_order.ol_quantity[k] = 1;
	}
}

static void test_known_keys(void **state)
{
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct txn_input in;
	struct err err;
	const int first[] = {1}, last[] = {100000}, mid[] = {50001};
	uint32_t stock_pages;

	(void)state;
	profile_for(&p, 10);
	assert_int_equal(iosim_pagemap_init(&map, &p, 10, &err), 0);
	stock_pages = map.rel[IOSIM_PROFILE_REL_STOCK].pages;
	assert_int_equal(stock_pages, 43479);
	/* STOCK (1, 1) is the first row: page 0; (10, 100000) the last */
	new_order(&in, 1, 1, 1, 1, first, false);
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_STOCK], 1);
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_STOCK][0], 0);
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_CUSTOMER][0], 0);
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_ITEM][0], 0);
	/* an index's first leaf follows its metapage */
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_STOCK_PKEY][0], 1);
	new_order(&in, 10, 10, 3000, 1, last, false);
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_STOCK][0],
			 stock_pages - 1);
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_ITEM][0],
			 map.rel[IOSIM_PROFILE_REL_ITEM].pages - 1);
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_CUSTOMER][0],
			 map.rel[IOSIM_PROFILE_REL_CUSTOMER].pages - 1);
	/* the last leaf comes before the upper levels */
	assert_true(touch_a.page[IOSIM_PROFILE_REL_STOCK_PKEY][0] <
		    map.rel[IOSIM_PROFILE_REL_STOCK_PKEY].pages - 1);
	/* warehouse 6's item 50001: half way through the table */
	new_order(&in, 6, 1, 1, 1, mid, false);
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(touch_a.page[IOSIM_PROFILE_REL_STOCK][0],
			 (uint32_t)(550000ULL * stock_pages / 1000000));
	/* by name: the customer with number n + 1 is among those read */
	memset(&in, 0, sizeof(in));
	in.type = TXN_PAYMENT;
	in.u.payment.w_id = in.u.payment.c_w_id = 1;
	in.u.payment.d_id = in.u.payment.c_d_id = 1;
	in.u.payment.by_name = true;
	tpcc_c_last(370, in.u.payment.c_last);
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_CUSTOMER_NAME_IDX], 1);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_CUSTOMER], 3);
	assert_int_equal(
		touch_a.page[IOSIM_PROFILE_REL_CUSTOMER][0],
		(uint32_t)(370ULL * map.rel[IOSIM_PROFILE_REL_CUSTOMER].pages /
			   300000));
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_CUSTOMER_PKEY], 0);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_HISTORY], 1);
	iosim_pagemap_free(&map);
}

static int count_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Share of the accesses on the hottest tenth of n pages (sorts count). */
static double hottest_tenth(unsigned *count, size_t n)
{
	double top = 0, all = 0;
	size_t i;

	qsort(count, n, sizeof(*count), count_desc);
	for (i = 0; i < n; i++) {
		all += count[i];
		if (i < n / 10)
			top += count[i];
	}
	return all > 0 ? top / all : 0;
}

/*
 * The share of New-Order's STOCK accesses on the hottest 10 % of STOCK
 * pages at W = 1, with items from the terminals' NURand or uniform.
 */
static double stock_skew(bool nurand)
{
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct inputs_ctx ctx;
	struct rng rng;
	struct txn_input in;
	struct err err;
	unsigned *count;
	uint32_t pages;
	double share;
	int i, k;

	profile_for(&p, 1);
	assert_int_equal(iosim_pagemap_init(&map, &p, 1, &err), 0);
	pages = map.rel[IOSIM_PROFILE_REL_STOCK].pages;
	count = calloc(pages, sizeof(*count));
	assert_non_null(count);
	rng_seed(&rng, 11, 0);
	inputs_ctx_init(&ctx, 1, 99, &rng);
	for (i = 0; i < 100000; i++) {
		inputs_generate(&ctx, TXN_NEW_ORDER, 1, 1, &rng, &in);
		if (!nurand)
			for (k = 0; k < in.u.new_order.ol_cnt; k++)
				in.u.new_order.ol_i_id[k] =
					(int)rng_range(&rng, 1, TPCC_ITEMS);
		iosim_pagemap_touch(&map, &in, &touch_a);
		for (k = 0; k < touch_a.n[IOSIM_PROFILE_REL_STOCK]; k++)
			count[touch_a.page[IOSIM_PROFILE_REL_STOCK][k]]++;
	}
	share = hottest_tenth(count, pages);
	free(count);
	iosim_pagemap_free(&map);
	return share;
}

static void test_skew(void **state)
{
	double nurand = stock_skew(true), uniform = stock_skew(false);

	(void)state;
	print_message("  hottest 10 %% of STOCK pages: %.1f %% of accesses "
		      "with NURand items, %.1f %% with uniform ones\n",
		      100 * nurand, 100 * uniform);
	/* the control: uniform items spread evenly (sampling noise only) */
	assert_true(uniform > 0.10 && uniform < 0.13);
	/* NURand's hot items stay hot as pages */
	assert_true(nurand > 0.25);
	assert_true(nurand > 2 * uniform);
}

static void test_district_state(void **state)
{
	const int items[3] = {77, 78, 99999};
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct iosim_pagemap_district *d;
	struct txn_input in;
	struct err err;
	uint32_t stock_77, prev = 0;
	int i, k;

	(void)state;
	profile_for(&p, 10);
	assert_int_equal(iosim_pagemap_init(&map, &p, 10, &err), 0);
	d = &map.district[(3 - 1) * 10 + 4 - 1];
	assert_int_equal(atomic_load(&d->next_o_id), 3001);
	/* a rollback takes no order id; a commit does */
	new_order(&in, 3, 4, 1, 3, items, true);
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(atomic_load(&d->next_o_id), 3001);
	new_order(&in, 3, 4, 1, 3, items, false);
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(atomic_load(&d->next_o_id), 3002);
	stock_77 = touch_a.page[IOSIM_PROFILE_REL_STOCK][0];
	/* Stock-Level in that district reads the stock of its items */
	memset(&in, 0, sizeof(in));
	in.type = TXN_STOCK_LEVEL;
	in.u.stock_level.w_id = 3;
	in.u.stock_level.d_id = 4;
	iosim_pagemap_touch(&map, &in, &touch_a);
	for (i = k = 0; i < touch_a.n[IOSIM_PROFILE_REL_STOCK]; i++)
		k += touch_a.page[IOSIM_PROFILE_REL_STOCK][i] == stock_77;
	assert_true(k >= 1);
	/* consecutive orders append in the district's region of ORDERS */
	for (i = 0; i < 50; i++) {
		uint32_t page;

		new_order(&in, 3, 4, 1, 3, items, false);
		iosim_pagemap_touch(&map, &in, &touch_a);
		page = touch_a.page[IOSIM_PROFILE_REL_ORDERS][0];
		if (i > 0)
			assert_true(page == prev || page == prev + 1);
		prev = page;
	}
	/* Delivery takes the oldest undelivered order of each district */
	memset(&in, 0, sizeof(in));
	in.type = TXN_DELIVERY;
	in.u.delivery.w_id = 3;
	assert_int_equal(atomic_load(&d->next_delivery), 2101);
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(atomic_load(&d->next_delivery), 2102);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_NEW_ORDER], 10);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_CUSTOMER], 10);
	/* once all are delivered it skips: only the index is probed */
	atomic_store(&d->next_delivery, atomic_load(&d->next_o_id));
	iosim_pagemap_touch(&map, &in, &touch_a);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_NEW_ORDER], 9);
	assert_int_equal(touch_a.n[IOSIM_PROFILE_REL_NEW_ORDER_PKEY], 10);
	iosim_pagemap_free(&map);
}

static void test_plan_totals(void **state)
{
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct inputs_ctx ctx;
	struct rng rng;
	struct txn_input in;
	struct err err;
	double want_r[TXN_NR][IOSIM_PROFILE_REL_NR] = {{0}};
	double want_d[TXN_NR][IOSIM_PROFILE_REL_NR] = {{0}};
	long got_r[TXN_NR][IOSIM_PROFILE_REL_NR] = {{0}};
	long got_d[TXN_NR][IOSIM_PROFILE_REL_NR] = {{0}};
	unsigned i;
	int n, type, r;

	(void)state;
	profile_for(&p, 10);
	assert_int_equal(iosim_pagemap_init(&map, &p, 10, &err), 0);
	memset(&carry_a, 0, sizeof(carry_a));
	rng_seed(&rng, 5, 5);
	inputs_ctx_init(&ctx, 10, 3, &rng);
	for (n = 0; n < 5000; n++) {
		for (type = 0; type < TXN_NR; type++) {
			inputs_generate(&ctx, type, (int)rng_range(&rng, 1, 10),
					1, &rng, &in);
			iosim_pagemap_touch(&map, &in, &touch_a);
			iosim_pagemap_plan(&map, &touch_a, &carry_a, &io_a);
			for (i = 0; i < io_a.nread; i++)
				got_r[type][io_a.read[i].rel]++;
			for (i = 0; i < io_a.ndirty; i++)
				got_d[type][io_a.dirty[i].rel]++;
			for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
				want_r[type][r] += iosim_profile_reads_per_call(
					&p, type, r);
				want_d[type][r] +=
					iosim_profile_dirtied_per_call(&p, type,
								       r);
			}
		}
	}
	/* the carry makes every total exact to less than one block */
	for (type = 0; type < TXN_NR; type++)
		for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
			assert_true(fabs(got_r[type][r] - want_r[type][r]) <
				    1.0 + 1e-6);
			assert_true(fabs(got_d[type][r] - want_d[type][r]) <
				    1.0 + 1e-6);
		}
	/* 372000 reads × 0.55 / 120000 calls = 1.705 per New-Order */
	assert_int_equal(got_r[TXN_NEW_ORDER][IOSIM_PROFILE_REL_STOCK], 8525);
	/* Order-Status and Stock-Level dirty nothing */
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		assert_int_equal(got_d[TXN_STOCK_LEVEL][r], 0);
	iosim_pagemap_free(&map);
}

/* A relation the call did not touch: pages from the home warehouse's. */
static void test_pick_untouched(void **state)
{
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct err err;
	uint32_t pages;

	(void)state;
	profile_for(&p, 10);
	assert_int_equal(iosim_pagemap_init(&map, &p, 10, &err), 0);
	memset(&touch_a, 0, sizeof(touch_a));
	touch_a.w_id = 6;
	pages = map.rel[IOSIM_PROFILE_REL_HISTORY].pages;
	assert_int_equal(iosim_pagemap_pick(&map, &touch_a,
					    IOSIM_PROFILE_REL_HISTORY, 0),
			 5 * pages / 10);
	assert_int_equal(iosim_pagemap_pick(&map, &touch_a,
					    IOSIM_PROFILE_REL_HISTORY, 3),
			 5 * pages / 10 + 3);
	/* touched: each page in turn, then one further on */
	touch_a.n[IOSIM_PROFILE_REL_STOCK] = 2;
	touch_a.page[IOSIM_PROFILE_REL_STOCK][0] = 10;
	touch_a.page[IOSIM_PROFILE_REL_STOCK][1] = 43478;
	assert_int_equal(
		iosim_pagemap_pick(&map, &touch_a, IOSIM_PROFILE_REL_STOCK, 0),
		10);
	assert_int_equal(
		iosim_pagemap_pick(&map, &touch_a, IOSIM_PROFILE_REL_STOCK, 1),
		43478);
	assert_int_equal(
		iosim_pagemap_pick(&map, &touch_a, IOSIM_PROFILE_REL_STOCK, 2),
		11);
	/* past the last page: wraps to the first */
	assert_int_equal(
		iosim_pagemap_pick(&map, &touch_a, IOSIM_PROFILE_REL_STOCK, 3),
		0);
	iosim_pagemap_free(&map);
}

/* One thread's share of test_concurrent_state(). */
struct worker {
	struct iosim_pagemap *map; /* shared */
	enum txn_type type;	   /* New-Order or Delivery */
	int calls;		   /* how many */
};

static void *worker_main(void *arg)
{
	static const int items[1] = {1};
	struct worker *wk = arg;
	struct iosim_pagemap_touch *t = malloc(sizeof(*t));
	struct txn_input in;
	int i;

	assert_non_null(t);
	for (i = 0; i < wk->calls; i++) {
		if (wk->type == TXN_NEW_ORDER) {
			new_order(&in, 1, 1, 1, 1, items, false);
		} else {
			memset(&in, 0, sizeof(in));
			in.type = TXN_DELIVERY;
			in.u.delivery.w_id = 1;
		}
		iosim_pagemap_touch(wk->map, &in, t);
	}
	free(t);
	return NULL;
}

/* Run 4 threads of calls of type on map. */
static void run_workers(struct iosim_pagemap *map, enum txn_type type,
			int calls)
{
	struct worker wk[4];
	pthread_t tid[4];
	int i;

	for (i = 0; i < 4; i++) {
		wk[i] = (struct worker){map, type, calls};
		assert_int_equal(
			pthread_create(&tid[i], NULL, worker_main, &wk[i]), 0);
	}
	for (i = 0; i < 4; i++)
		pthread_join(tid[i], NULL);
}

/* Threads share the district state: no order id or delivery twice. */
static void test_concurrent_state(void **state)
{
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct err err;
	int d;

	(void)state;
	profile_for(&p, 1);
	assert_int_equal(iosim_pagemap_init(&map, &p, 1, &err), 0);
	run_workers(&map, TXN_NEW_ORDER, 5000);
	assert_int_equal(atomic_load(&map.district[0].next_o_id), 23001);
	/* district 1 has 20900 undelivered orders, the others 900 each */
	run_workers(&map, TXN_DELIVERY, 1000);
	assert_int_equal(atomic_load(&map.district[0].next_delivery), 6101);
	for (d = 1; d < 10; d++)
		assert_int_equal(atomic_load(&map.district[d].next_delivery),
				 3001);
	iosim_pagemap_free(&map);
}

static void test_too_many_warehouses(void **state)
{
	struct iosim_profile p;
	struct iosim_pagemap map;
	struct err err;

	(void)state;
	profile_for(&p, 10);
	assert_int_equal(iosim_pagemap_init(&map, &p, 11, &err), -ERANGE);
	assert_string_equal(err.msg,
			    "the run has 11 warehouses, the I/O profile 10: "
			    "its files hold no rows for warehouses 11 to 11 "
			    "(calibrate with at least 11)");
	iosim_pagemap_free(&map);
	/* fewer is fine: the files hold more than the run touches */
	assert_int_equal(iosim_pagemap_init(&map, &p, 2, &err), 0);
	iosim_pagemap_free(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bounds_w1),
		cmocka_unit_test(test_bounds_w10),
		cmocka_unit_test(test_bounds_bad_inputs),
		cmocka_unit_test(test_known_keys),
		cmocka_unit_test(test_skew),
		cmocka_unit_test(test_district_state),
		cmocka_unit_test(test_plan_totals),
		cmocka_unit_test(test_pick_untouched),
		cmocka_unit_test(test_concurrent_state),
		cmocka_unit_test(test_too_many_warehouses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
