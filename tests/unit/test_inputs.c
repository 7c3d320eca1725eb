/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_inputs.c - the generated transaction inputs against TPC-C
 * clause 2 and the validity bounds of 5.5.1.5-6, over 100,000 inputs per
 * case. Tolerances are about 5 standard errors of each share; the seeds
 * are fixed, so a failure is a bug, not bad luck.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "src/base/tpcc_random.h"
#include "terminals/inputs.h"

#define N 100000

/* 5 standard errors of a share p estimated from n draws. */
static double tol(double p, double n)
{
	return 5.0 * sqrt(p * (1 - p) / n);
}

/* Whether name is one of the 1000 generated last names. */
static bool is_c_last(const char *name)
{
	char buf[TPCC_C_LAST_MAX];
	int n;

	for (n = 0; n < 1000; n++) {
		tpcc_c_last(n, buf);
		if (strcmp(buf, name) == 0)
			return true;
	}
	return false;
}

static void test_constants(void **state)
{
	int c_load, seed;

	(void)state;
	for (c_load = 0; c_load <= 255; c_load += 17)
		for (seed = 0; seed < 20; seed++) {
			struct inputs_ctx ctx;
			struct rng r;

			rng_seed(&r, (uint64_t)seed, 0);
			inputs_ctx_init(&ctx, 3, c_load, &r);
			assert_int_equal(ctx.warehouses, 3);
			assert_int_equal(ctx.c_load_c_last, c_load);
			assert_true(tpcc_c_delta_ok(c_load, ctx.c_c_last));
			assert_in_range(ctx.c_c_last, 0, 255);
			assert_in_range(ctx.c_c_id, 0, 1023);
			assert_in_range(ctx.c_ol_i_id, 0, 8191);
		}
}

/* New-Order: W warehouses, home w_id. */
static void check_new_order(int warehouses, int w_id)
{
	struct inputs_ctx ctx;
	struct txn_input in;
	struct rng r;
	long long lines = 0, remote = 0, rollbacks = 0, cnt[16] = {0};
	int i, l;

	rng_seed(&r, 42, (uint64_t)warehouses);
	inputs_ctx_init(&ctx, warehouses, 100, &r);
	for (i = 0; i < N; i++) {
		const struct txn_new_order *no = &in.u.new_order;
		int remote_here = 0;

		inputs_generate(&ctx, TXN_NEW_ORDER, w_id, 3, &r, &in);
		assert_int_equal(in.type, TXN_NEW_ORDER);
		assert_int_equal(no->w_id, w_id);
		assert_in_range(no->d_id, 1, 10);
		assert_in_range(no->c_id, 1, 3000);
		assert_in_range(no->ol_cnt, 5, 15);
		cnt[no->ol_cnt]++;
		for (l = 0; l < no->ol_cnt; l++) {
			bool last = l == no->ol_cnt - 1;

			if (no->rollback && last)
				assert_int_equal(no->ol_i_id[l],
						 INPUTS_UNUSED_I_ID);
			else
				assert_in_range(no->ol_i_id[l], 1, TPCC_ITEMS);
			assert_in_range(no->ol_quantity[l], 1, 10);
			assert_in_range(no->ol_supply_w_id[l], 1, warehouses);
			remote_here += no->ol_supply_w_id[l] != w_id;
		}
		assert_int_equal(no->remote_lines, remote_here);
		lines += no->ol_cnt;
		remote += remote_here;
		rollbacks += no->rollback;
	}
	/* the unused item is really unused: beyond the 100,000 items */
	assert_true(INPUTS_UNUSED_I_ID > TPCC_ITEMS);
	/* rbk = 1 in 1 % (bounds 0.9..1.1 %) */
	assert_true(fabs(rollbacks / (double)N - 0.01) < tol(0.01, N));
	/* uniform 5..15: each count near N/11, mean near 10 */
	for (l = 5; l <= 15; l++)
		assert_true(fabs(cnt[l] / (double)N - 1.0 / 11) <
			    tol(1.0 / 11, N));
	assert_true(fabs(lines / (double)N - 10.0) < 0.05);
	if (warehouses == 1)
		assert_int_equal(remote, 0);
	else
		assert_true(fabs(remote / (double)lines - 0.01) <
			    tol(0.01, (double)lines));
}

static void test_new_order(void **state)
{
	(void)state;
	check_new_order(1, 1);
	check_new_order(2, 2);
	check_new_order(10, 1);
	check_new_order(10, 10);
}

/* The OL_I_ID NURand: the skew of A = 8191 and the shared C. */
static void test_items_nonuniform(void **state)
{
	struct inputs_ctx ctx;
	struct txn_input in;
	struct rng r;
	static int hits[TPCC_ITEMS + 1];
	long long total = 0;
	int i, l, max = 0;

	(void)state;
	rng_seed(&r, 8, 0);
	inputs_ctx_init(&ctx, 1, 0, &r);
	memset(hits, 0, sizeof(hits));
	for (i = 0; i < N; i++) {
		inputs_generate(&ctx, TXN_NEW_ORDER, 1, 1, &r, &in);
		for (l = 0; l < in.u.new_order.ol_cnt; l++)
			if (in.u.new_order.ol_i_id[l] <= TPCC_ITEMS) {
				hits[in.u.new_order.ol_i_id[l]]++;
				total++;
			}
	}
	for (i = 1; i <= TPCC_ITEMS; i++)
		if (hits[i] > max)
			max = hits[i];
	/* uniform would give ~10 per item; NURand's hot items get far more */
	assert_true(max > 5 * total / TPCC_ITEMS);
}

static void check_payment(int warehouses)
{
	struct inputs_ctx ctx;
	struct txn_input in;
	struct rng r;
	long long remote = 0, by_name = 0;
	double amount = 0;
	int i;

	rng_seed(&r, 43, (uint64_t)warehouses);
	inputs_ctx_init(&ctx, warehouses, 200, &r);
	for (i = 0; i < N; i++) {
		const struct txn_payment *py = &in.u.payment;

		inputs_generate(&ctx, TXN_PAYMENT, 1, 1, &r, &in);
		assert_int_equal(in.type, TXN_PAYMENT);
		assert_int_equal(py->w_id, 1);
		assert_in_range(py->d_id, 1, 10);
		assert_in_range(py->c_w_id, 1, warehouses);
		assert_in_range(py->c_d_id, 1, 10);
		if (py->c_w_id == py->w_id)
			assert_int_equal(py->c_d_id, py->d_id);
		else
			remote++;
		if (py->by_name) {
			by_name++;
			assert_int_equal(py->c_id, 0);
			assert_true(i % 100 || is_c_last(py->c_last));
			assert_in_range(strlen(py->c_last), 9, 15);
		} else {
			assert_in_range(py->c_id, 1, 3000);
			assert_string_equal(py->c_last, "");
		}
		assert_in_range(py->h_amount_cents, 100, 500000);
		amount += (double)py->h_amount_cents;
	}
	if (warehouses == 1)
		assert_int_equal(remote, 0);
	else
		assert_true(fabs(remote / (double)N - 0.15) < tol(0.15, N));
	assert_true(fabs(by_name / (double)N - 0.60) < tol(0.60, N));
	/* uniform in cents: mean 2500.50 */
	assert_true(fabs(amount / N - 250050.0) < 0.01 * 250050.0);
}

static void test_payment(void **state)
{
	(void)state;
	check_payment(1);
	check_payment(5);
}

static void test_order_status(void **state)
{
	struct inputs_ctx ctx;
	struct txn_input in;
	struct rng r;
	long long by_name = 0;
	int i;

	(void)state;
	rng_seed(&r, 44, 0);
	inputs_ctx_init(&ctx, 4, 17, &r);
	for (i = 0; i < N; i++) {
		const struct txn_order_status *os = &in.u.order_status;

		inputs_generate(&ctx, TXN_ORDER_STATUS, 2, 1, &r, &in);
		assert_int_equal(os->w_id, 2);
		assert_in_range(os->d_id, 1, 10);
		if (os->by_name) {
			by_name++;
			assert_int_equal(os->c_id, 0);
			assert_true(i % 100 || is_c_last(os->c_last));
		} else {
			assert_in_range(os->c_id, 1, 3000);
		}
	}
	assert_true(fabs(by_name / (double)N - 0.60) < tol(0.60, N));
}

static void test_delivery_and_stock_level(void **state)
{
	struct inputs_ctx ctx;
	struct txn_input in;
	struct rng r;
	int carriers[11] = {0}, thresholds[21] = {0}, i;

	(void)state;
	rng_seed(&r, 45, 0);
	inputs_ctx_init(&ctx, 2, 0, &r);
	for (i = 0; i < N; i++) {
		inputs_generate(&ctx, TXN_DELIVERY, 2, 7, &r, &in);
		assert_int_equal(in.u.delivery.w_id, 2);
		assert_in_range(in.u.delivery.o_carrier_id, 1, 10);
		carriers[in.u.delivery.o_carrier_id]++;
		inputs_generate(&ctx, TXN_STOCK_LEVEL, 2, 7, &r, &in);
		assert_int_equal(in.u.stock_level.w_id, 2);
		assert_int_equal(in.u.stock_level.d_id, 7);
		assert_in_range(in.u.stock_level.threshold, 10, 20);
		thresholds[in.u.stock_level.threshold]++;
	}
	for (i = 1; i <= 10; i++)
		assert_true(fabs(carriers[i] / (double)N - 0.1) < tol(0.1, N));
	for (i = 10; i <= 20; i++)
		assert_true(fabs(thresholds[i] / (double)N - 1.0 / 11) <
			    tol(1.0 / 11, N));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_new_order),
		cmocka_unit_test(test_items_nonuniform),
		cmocka_unit_test(test_payment),
		cmocka_unit_test(test_order_status),
		cmocka_unit_test(test_delivery_and_stock_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
