/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_retry.c - the engine's side of running a transaction
 * (terminals/retry.h) against a scripted driver: retries with the same
 * input up to the limit, errors and lost connections as the driver
 * classifies them, no half results next to an error, and inputs a driver
 * must never see.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "terminals/retry.h"

#define SCRIPT_MAX 16

/* The scripted driver's connection: the outcomes it gives, in order. */
struct driver_conn {
	enum driver_outcome script[SCRIPT_MAX]; /* one per attempt */
	int n;					/* entries in script */
	int calls;				/* attempts made */
	struct txn_input seen[SCRIPT_MAX];	/* the input of each */
};

/* Fill out as a driver would for outcome oc; the results are set always. */
static enum driver_outcome scripted_attempt(struct driver_conn *conn,
					    const struct txn_input *in,
					    struct txn_output *out)
{
	enum driver_outcome oc;

	/* the engine hands over a zeroed output every time */
	assert_int_equal(out->status, TXN_STATUS_OK);
	assert_int_equal(out->o_id, 0);
	assert_string_equal(out->message, "");
	assert_true(conn->calls < conn->n);
	conn->seen[conn->calls] = *in;
	oc = conn->script[conn->calls++];
	out->o_id = 3001;
	out->delivered = 10;
	out->low_stock = 7;
	switch (oc) {
	case DRIVER_DONE:
		out->status = in->u.new_order.rollback ? TXN_STATUS_ROLLBACK
						       : TXN_STATUS_OK;
		break;
	case DRIVER_RETRY:
		strcpy(out->sqlstate, "40001");
		strcpy(out->message, "could not serialize access");
		break;
	case DRIVER_ERROR:
		strcpy(out->sqlstate, "P0002");
		strcpy(out->message, "no such row");
		break;
	default:
		strcpy(out->message, "terminating connection");
		break;
	}
	return oc;
}

static const struct driver_ops scripted_ops = {
	.name = "scripted",
	.version = DRIVER_INTERFACE_VERSION,
	.attempt = scripted_attempt,
};

static struct txn_input new_order(bool rollback)
{
	struct txn_input in;
	int i;

	memset(&in, 0, sizeof(in));
	in.type = TXN_NEW_ORDER;
	in.u.new_order.w_id = 1;
	in.u.new_order.d_id = 2;
	in.u.new_order.c_id = 3;
	in.u.new_order.ol_cnt = 5;
	in.u.new_order.rollback = rollback;
	for (i = 0; i < 5; i++) {
		in.u.new_order.ol_i_id[i] = 100 + i;
		in.u.new_order.ol_supply_w_id[i] = 1;
		in.u.new_order.ol_quantity[i] = 1 + i;
	}
	return in;
}

/* One case: the script, the limit, and what must come out. */
struct retry_case {
	const char *name;			/* what the case shows */
	enum driver_outcome script[SCRIPT_MAX]; /* the driver's outcomes */
	int n;					/* entries in script */
	int max_retries;			/* the engine's limit */
	bool rollback;		/* the input asks for a rollback */
	int rc;			/* retry_execute */
	enum txn_status status; /* out->status */
	int retries;		/* out->retries */
	int calls;		/* attempts made */
	const char *sqlstate;	/* out->sqlstate */
	bool results;		/* o_id etc. kept */
};

#define OK  TXN_STATUS_OK
#define RBK TXN_STATUS_ROLLBACK
#define ERR TXN_STATUS_ERROR

/* clang-format off */
static const struct retry_case cases[] = {
	/* name, script, n, max_retries, rollback,
	   rc, status, retries, calls, sqlstate, results */
	{"done at once", {DRIVER_DONE}, 1, 3, false,
	 0, OK, 0, 1, "", true},
	{"rollback is done", {DRIVER_DONE}, 1, 3, true,
	 0, RBK, 0, 1, "", true},
	{"two conflicts, then done",
	 {DRIVER_RETRY, DRIVER_RETRY, DRIVER_DONE}, 3, 3, false,
	 0, OK, 2, 3, "", true},
	{"conflicts until the retries are used up",
	 {DRIVER_RETRY, DRIVER_RETRY, DRIVER_RETRY, DRIVER_RETRY}, 4, 3, false,
	 0, ERR, 3, 4, "40001", false},
	{"no retries allowed", {DRIVER_RETRY}, 1, 0, false,
	 0, ERR, 0, 1, "40001", false},
	{"an error is not retried", {DRIVER_ERROR}, 1, 3, false,
	 0, ERR, 0, 1, "P0002", false},
	{"a conflict, then an error", {DRIVER_RETRY, DRIVER_ERROR}, 2, 3, false,
	 0, ERR, 1, 2, "P0002", false},
	{"a lost connection is the caller's", {DRIVER_LOST}, 1, 3, false,
	 -ENOTCONN, ERR, 0, 1, "", false},
	{"lost while retrying", {DRIVER_RETRY, DRIVER_LOST}, 2, 3, false,
	 -ENOTCONN, ERR, 1, 2, "", false},
};
/* clang-format on */

static void test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct retry_case *c = &cases[i];
		struct driver_conn conn = {.n = c->n};
		struct txn_input in = new_order(c->rollback);
		struct txn_output out;
		int rc, k;

		memcpy(conn.script, c->script, sizeof(conn.script));
		rc = retry_execute(&scripted_ops, &conn, c->max_retries, &in,
				   &out);
		if (rc != c->rc || out.status != c->status ||
		    out.retries != c->retries || conn.calls != c->calls ||
		    strcmp(out.sqlstate, c->sqlstate) != 0)
			fail_msg("%s: rc %d status %d retries %d calls %d "
				 "sqlstate '%s'",
				 c->name, rc, out.status, out.retries,
				 conn.calls, out.sqlstate);
		if ((out.o_id == 3001) != c->results ||
		    (out.low_stock == 7) != c->results ||
		    (out.delivered == 10) != c->results)
			fail_msg("%s: results %d %d %d", c->name, out.o_id,
				 out.delivered, out.low_stock);
		if (c->status == TXN_STATUS_ERROR && !out.message[0])
			fail_msg("%s: an error without a message", c->name);
		/* every attempt saw the very same input */
		for (k = 0; k < conn.calls; k++)
			assert_memory_equal(&conn.seen[k], &in, sizeof(in));
	}
}

static void test_bad_inputs_never_reach_the_driver(void **state)
{
	struct txn_input bad[5];
	size_t i;

	(void)state;
	bad[0] = new_order(false);
	bad[0].u.new_order.ol_cnt = 0;
	bad[1] = new_order(false);
	bad[1].u.new_order.ol_cnt = TXN_MAX_LINES + 1;
	memset(&bad[2], 0, sizeof(bad[2]));
	bad[2].type = TXN_PAYMENT;
	bad[2].u.payment.by_name = true;
	memset(bad[2].u.payment.c_last, 'A', TXN_C_LAST_SIZE);
	memset(&bad[3], 0, sizeof(bad[3]));
	bad[3].type = TXN_ORDER_STATUS;
	bad[3].u.order_status.by_name = true;
	memset(bad[3].u.order_status.c_last, 'B', TXN_C_LAST_SIZE);
	memset(&bad[4], 0, sizeof(bad[4]));
	bad[4].type = (enum txn_type)99;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct driver_conn conn = {.n = 0};
		struct txn_output out;

		assert_int_equal(
			retry_execute(&scripted_ops, &conn, 3, &bad[i], &out),
			0);
		assert_int_equal(conn.calls, 0);
		assert_int_equal(out.status, TXN_STATUS_ERROR);
		assert_string_equal(out.sqlstate, "");
		assert_true(out.message[0] != '\0');
		assert_int_equal(retry_check_input(&bad[i], &out), -EINVAL);
	}
}

static void test_good_inputs_pass(void **state)
{
	struct txn_input in = new_order(false);
	struct txn_output out;

	(void)state;
	assert_int_equal(retry_check_input(&in, &out), 0);
	in.u.new_order.ol_cnt = TXN_MAX_LINES;
	assert_int_equal(retry_check_input(&in, &out), 0);
	memset(&in, 0, sizeof(in));
	in.type = TXN_PAYMENT;
	in.u.payment.by_name = true;
	strcpy(in.u.payment.c_last, "BARBARABAR");
	assert_int_equal(retry_check_input(&in, &out), 0);
	in.type = TXN_DELIVERY;
	assert_int_equal(retry_check_input(&in, &out), 0);
	in.type = TXN_STOCK_LEVEL;
	assert_int_equal(retry_check_input(&in, &out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_bad_inputs_never_reach_the_driver),
		cmocka_unit_test(test_good_inputs_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
