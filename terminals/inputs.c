/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inputs.c - TPC-C transaction inputs (see inputs.h). Each function
 * follows one "input data" clause; the percentages are drawn as the spec
 * writes them (x = rand[1..100], then compare), so the code reads like the
 * clause it implements.
 */
#include "terminals/inputs.h"

#include <string.h>

void inputs_ctx_init(struct inputs_ctx *ctx, int warehouses, int c_load_c_last,
		     struct rng *rng)
{
	ctx->warehouses = warehouses;
	ctx->c_load_c_last = c_load_c_last;
	ctx->c_c_last = tpcc_c_run_for(rng, c_load_c_last);
	ctx->c_c_id = (int)rng_range(rng, 0, TPCC_A_C_ID);
	ctx->c_ol_i_id = (int)rng_range(rng, 0, TPCC_A_OL_I_ID);
}

/* A random active warehouse other than w_id (W > 1). */
static int other_warehouse(const struct inputs_ctx *ctx, int w_id,
			   struct rng *rng)
{
	int w = (int)rng_range(rng, 1, ctx->warehouses - 1);

	return w >= w_id ? w + 1 : w;
}

static int customer_id(const struct inputs_ctx *ctx, struct rng *rng)
{
	return tpcc_nurand(rng, TPCC_A_C_ID, 1, TPCC_CUSTOMERS_PER_D,
			   ctx->c_c_id);
}

static void customer_last(const struct inputs_ctx *ctx, struct rng *rng,
			  char *c_last)
{
	tpcc_c_last(tpcc_nurand(rng, TPCC_A_C_LAST, 0, 999, ctx->c_c_last),
		    c_last);
}

/* 2.4.1 */
static void gen_new_order(const struct inputs_ctx *ctx, int w_id,
			  struct rng *rng, struct txn_new_order *no)
{
	int i;

	no->w_id = w_id;
	no->d_id = (int)rng_range(rng, 1, TPCC_DISTRICTS_PER_W);
	no->c_id = customer_id(ctx, rng);
	no->ol_cnt = (int)rng_range(rng, 5, TXN_MAX_LINES);
	no->rollback = rng_range(rng, 1, 100) == 1;
	no->remote_lines = 0;
	for (i = 0; i < no->ol_cnt; i++) {
		no->ol_i_id[i] = tpcc_nurand(rng, TPCC_A_OL_I_ID, 1, TPCC_ITEMS,
					     ctx->c_ol_i_id);
		/* x = 1 (1 %): supplied by another warehouse, if any */
		if (rng_range(rng, 1, 100) == 1 && ctx->warehouses > 1) {
			no->ol_supply_w_id[i] = other_warehouse(ctx, w_id, rng);
			no->remote_lines++;
		} else {
			no->ol_supply_w_id[i] = w_id;
		}
		no->ol_quantity[i] = (int)rng_range(rng, 1, 10);
	}
	if (no->rollback)
		no->ol_i_id[no->ol_cnt - 1] = INPUTS_UNUSED_I_ID;
}

/* 2.5.1 */
static void gen_payment(const struct inputs_ctx *ctx, int w_id, struct rng *rng,
			struct txn_payment *py)
{
	py->w_id = w_id;
	py->d_id = (int)rng_range(rng, 1, TPCC_DISTRICTS_PER_W);
	/* x <= 85: the customer is of the paying district */
	if (rng_range(rng, 1, 100) <= 85 || ctx->warehouses == 1) {
		py->c_w_id = w_id;
		py->c_d_id = py->d_id;
	} else {
		py->c_w_id = other_warehouse(ctx, w_id, rng);
		py->c_d_id = (int)rng_range(rng, 1, TPCC_DISTRICTS_PER_W);
	}
	/* y <= 60: by last name */
	py->by_name = rng_range(rng, 1, 100) <= 60;
	if (py->by_name) {
		py->c_id = 0;
		customer_last(ctx, rng, py->c_last);
	} else {
		py->c_id = customer_id(ctx, rng);
		py->c_last[0] = '\0';
	}
	/* rand[1.00..5,000.00] at its written precision: cents */
	py->h_amount_cents = rng_range(rng, 100, 500000);
}

/* 2.6.1 */
static void gen_order_status(const struct inputs_ctx *ctx, int w_id,
			     struct rng *rng, struct txn_order_status *os)
{
	os->w_id = w_id;
	os->d_id = (int)rng_range(rng, 1, TPCC_DISTRICTS_PER_W);
	os->by_name = rng_range(rng, 1, 100) <= 60;
	if (os->by_name) {
		os->c_id = 0;
		customer_last(ctx, rng, os->c_last);
	} else {
		os->c_id = customer_id(ctx, rng);
		os->c_last[0] = '\0';
	}
}

void inputs_generate(const struct inputs_ctx *ctx, enum txn_type type, int w_id,
		     int sl_d_id, struct rng *rng, struct txn_input *in)
{
	in->type = type;
	switch (type) {
	case TXN_NEW_ORDER:
		gen_new_order(ctx, w_id, rng, &in->u.new_order);
		break;
	case TXN_PAYMENT:
		gen_payment(ctx, w_id, rng, &in->u.payment);
		break;
	case TXN_ORDER_STATUS:
		gen_order_status(ctx, w_id, rng, &in->u.order_status);
		break;
	case TXN_DELIVERY: /* 2.7.1 */
		in->u.delivery.w_id = w_id;
		in->u.delivery.o_carrier_id = (int)rng_range(rng, 1, 10);
		break;
	case TXN_STOCK_LEVEL: /* 2.8.1 */
		in->u.stock_level.w_id = w_id;
		in->u.stock_level.d_id = sl_d_id;
		in->u.stock_level.threshold = (int)rng_range(rng, 10, 20);
		break;
	case TXN_NR:
		break;
	}
}
