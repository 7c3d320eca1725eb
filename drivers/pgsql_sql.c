/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql_sql.c - sql mode (--tx-mode sql): each transaction as client-side
 * prepared statements inside BEGIN ... COMMIT, with the semantics of the
 * PL/pgSQL functions and the steps of the profiles
 * (docs/tpcc.md, Transaction profiles). The client carries the values
 * between steps (O_ID, prices, C_ID, order totals), as an application
 * would.
 *
 * Round trips are few: statements that do not depend on each other's
 * results go out together in one pipelined batch (pgsql_batch_*), and
 * COMMIT goes out only after the client has checked that every row the
 * profile needs was there. New-Order: 3 round trips; Payment: 2 (by
 * number) or 3 (by name); Order-Status: 1 or 2; Delivery: 4 (each batch
 * covers all ten districts); Stock-Level: 2.
 *
 * Isolation is READ COMMITTED as for the functions; the same row locks
 * are taken in the same order (docs/drivers.md), Order-Status reads in
 * one REPEATABLE READ snapshot as the STABLE function does.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "drivers/pgsql_internal.h"
#include "src/base/log.h"

/* The statements; sql_stmts holds their names and text. */
enum sql_stmt {
	S_BEGIN,
	S_BEGIN_RO,
	S_COMMIT,
	S_ROLLBACK,
	S_NO_WAREHOUSE,
	S_NO_DISTRICT,
	S_NO_CUSTOMER,
	S_NO_ITEMS,
	S_NO_ORDER,
	S_NO_NEW_ORDER,
	S_NO_LINES,
	S_PY_BY_NAME,
	S_PY_CUSTOMER,
	S_PY_DISTRICT,
	S_PY_WAREHOUSE,
	S_PY_HISTORY,
	S_OS_BY_NAME,
	S_OS_CUSTOMER,
	S_OS_ORDER,
	S_DY_NEW_ORDER,
	S_DY_ORDER,
	S_DY_LINES,
	S_DY_CUSTOMER,
	S_SL_DISTRICT,
	S_SL_COUNT,
	S_NR
};

#define SQL_DISTRICTS 10 /* districts per warehouse */

/*
 * Each statement of a type's profile starts with a comment naming the
 * type: pg_stat_statements keeps it in the query text of its query id,
 * which is how the kernel-cost hook's figures per query are added up per
 * type (analysis/parsers/parse_kcost.c; docs/hooks.md). BEGIN, COMMIT and
 * ROLLBACK are one statement each, shared by all types.
 */
#define SQL_TAG_NO "/* oltpmark new_order */ "
#define SQL_TAG_PY "/* oltpmark payment */ "
#define SQL_TAG_OS "/* oltpmark order_status */ "
#define SQL_TAG_DY "/* oltpmark delivery */ "
#define SQL_TAG_SL "/* oltpmark stock_level */ "

static const struct pgsql_stmt sql_stmts[S_NR] = {
	[S_BEGIN] = {"s_begin", "BEGIN"},
	/* Order-Status: all reads in one snapshot, like a STABLE function */
	[S_BEGIN_RO] = {"s_begin_ro",
			"BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"},
	[S_COMMIT] = {"s_commit", "COMMIT"},
	[S_ROLLBACK] = {"s_rollback", "ROLLBACK"},

	/* New-Order (2.4.2.2) */
	[S_NO_WAREHOUSE] = {"s_no_w", SQL_TAG_NO
			    "SELECT w_tax FROM warehouse WHERE w_id = $1::int"},
	/*
	 * O_ID is D_NEXT_O_ID before the increment; the row lock taken
	 * here serialises the district's New-Orders.
	 */
	[S_NO_DISTRICT] = {"s_no_d", SQL_TAG_NO
			   "UPDATE district SET d_next_o_id = d_next_o_id + 1 "
			   "WHERE d_w_id = $1::int AND d_id = $2::int "
			   "RETURNING d_tax, d_next_o_id - 1"},
	[S_NO_CUSTOMER] =
		{"s_no_c", SQL_TAG_NO
		 "SELECT c_discount, c_last, c_credit FROM customer "
		 "WHERE c_w_id = $1::int AND c_d_id = $2::int AND c_id = $3::int"},
	/* All items in one read; a missing one is simply not returned. */
	[S_NO_ITEMS] = {"s_no_i", SQL_TAG_NO
			"SELECT i_id, i_price, i_name, i_data FROM item "
			"WHERE i_id = ANY ($1::int[])"},
	[S_NO_ORDER] =
		{"s_no_o", SQL_TAG_NO
		 "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, "
		 "o_carrier_id, o_ol_cnt, o_all_local) "
		 "VALUES ($1::int, $2::int, $3::int, $4::int, localtimestamp, "
		 "NULL, $5::int, $6::int)"},
	[S_NO_NEW_ORDER] = {"s_no_no", SQL_TAG_NO
			    "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) "
			    "VALUES ($1::int, $2::int, $3::int)"},
	/*
	 * The valid lines: STOCK at the supplying warehouse, then
	 * ORDER-LINE, in one statement. $1 O_ID, $2 D_ID, $3 W_ID; arrays
	 * $4 OL_NUMBER, $5 OL_I_ID, $6 OL_SUPPLY_W_ID, $7 OL_QUANTITY,
	 * $8 OL_AMOUNT.
	 *
	 * An item ordered twice is one STOCK row updated once (an UPDATE
	 * changes a row once however many join rows match it), so lines
	 * are grouped by (warehouse, item) first, quantities summed and
	 * counted. The restock rule applied line by line adds 91 whenever
	 * S_QUANTITY would fall below 10, so after lines totalling q it
	 * ends at S_QUANTITY - q + 91k with k the smallest count that
	 * reaches 10: k = ceil((10 - (S_QUANTITY - q)) / 91), written
	 * (100 - S_QUANTITY + q) / 91 below. For a single line k is 1,
	 * exactly the clause's "+ 91".
	 *
	 * Rows are locked in (S_W_ID, S_I_ID) order, as in new_order():
	 * the grouped lines come out sorted and drive a nested loop over
	 * stock_pkey. Should a plan ever lock otherwise, a deadlock is
	 * retried like any other.
	 */
	[S_NO_LINES] =
		{"s_no_ol", SQL_TAG_NO
		 "WITH l AS ("
		 " SELECT x.n, x.i, x.sw, x.q, x.amount"
		 " FROM unnest($4::int[], $5::int[], $6::int[], $7::int[],"
		 " $8::numeric[]) AS x(n, i, sw, q, amount)"
		 "), g AS ("
		 " SELECT sw, i, sum(q)::int AS q, count(*)::int AS cnt"
		 " FROM l GROUP BY sw, i ORDER BY sw, i"
		 "), s AS ("
		 " UPDATE stock SET"
		 " s_quantity = CASE WHEN s_quantity - g.q >= 10"
		 " THEN s_quantity - g.q"
		 " ELSE s_quantity - g.q + 91 * ((100 - s_quantity + g.q) / 91)"
		 " END,"
		 " s_ytd = s_ytd + g.q,"
		 " s_order_cnt = s_order_cnt + g.cnt,"
		 " s_remote_cnt = s_remote_cnt +"
		 " CASE WHEN g.sw <> $3::int THEN g.cnt ELSE 0 END"
		 " FROM g WHERE s_w_id = g.sw AND s_i_id = g.i"
		 " RETURNING s_w_id, s_i_id, s_quantity,"
		 " CASE $2::int WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02"
		 " WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04"
		 " WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06"
		 " WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08"
		 " WHEN 9 THEN s_dist_09 ELSE s_dist_10 END AS dist,"
		 " strpos(s_data, 'ORIGINAL') > 0 AS original"
		 "), ol AS ("
		 " INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number,"
		 " ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount,"
		 " ol_dist_info)"
		 " SELECT $1::int, $2::int, $3::int, l.n, l.i, l.sw, NULL, l.q,"
		 " l.amount, s.dist"
		 " FROM l JOIN s ON s.s_w_id = l.sw AND s.s_i_id = l.i"
		 ")"
		 " SELECT l.n, s.s_quantity, s.original"
		 " FROM l JOIN s ON s.s_w_id = l.sw AND s.s_i_id = l.i"
		 " ORDER BY l.n"},

	/* Payment (2.5.2.2) */
	/*
	 * By name: all matches sorted; the client takes ceil(n/2). C_ID
	 * breaks C_FIRST ties, as in payment().
	 */
	[S_PY_BY_NAME] =
		{"s_py_name", SQL_TAG_PY
		 "SELECT c_id FROM customer WHERE c_w_id = $1::int "
		 "AND c_d_id = $2::int AND c_last = $3::text ORDER BY c_first, c_id"},
	/* $4 H_AMOUNT; $5, $6 the paying D_ID, W_ID for C_DATA */
	[S_PY_CUSTOMER] =
		{"s_py_c", SQL_TAG_PY
		 "UPDATE customer SET c_balance = c_balance - $4::numeric, "
		 "c_ytd_payment = c_ytd_payment + $4::numeric, "
		 "c_payment_cnt = c_payment_cnt + 1, "
		 "c_data = CASE WHEN c_credit = 'BC' "
		 "THEN left(format('%s %s %s %s %s %s|', c_id, c_d_id, c_w_id, "
		 "$5::int, $6::int, $4::numeric(6,2)) || c_data, 500) "
		 "ELSE c_data END "
		 "WHERE c_w_id = $1::int AND c_d_id = $2::int AND c_id = $3::int "
		 "RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, "
		 "c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, "
		 "c_discount, c_balance, "
		 "CASE WHEN c_credit = 'BC' THEN left(c_data, 200) END"},
	[S_PY_DISTRICT] =
		{"s_py_d", SQL_TAG_PY
		 "UPDATE district SET d_ytd = d_ytd + $3::numeric "
		 "WHERE d_w_id = $1::int AND d_id = $2::int "
		 "RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip"},
	[S_PY_WAREHOUSE] =
		{"s_py_w", SQL_TAG_PY
		 "UPDATE warehouse SET w_ytd = w_ytd + $2::numeric "
		 "WHERE w_id = $1::int "
		 "RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip"},
	[S_PY_HISTORY] =
		{"s_py_h", SQL_TAG_PY
		 "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, "
		 "h_date, h_amount, h_data) VALUES ($1::int, $2::int, $3::int, "
		 "$4::int, $5::int, localtimestamp, $6::numeric, $7::text)"},

	/* Order-Status (2.6.2.2) */
	[S_OS_BY_NAME] =
		{"s_os_name", SQL_TAG_OS
		 "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer "
		 "WHERE c_w_id = $1::int AND c_d_id = $2::int AND c_last = $3::text "
		 "ORDER BY c_first, c_id"},
	[S_OS_CUSTOMER] =
		{"s_os_c", SQL_TAG_OS
		 "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer "
		 "WHERE c_w_id = $1::int AND c_d_id = $2::int AND c_id = $3::int"},
	/*
	 * The latest order (backwards on orders_customer_idx) and its
	 * lines; no row when the customer has no order.
	 */
	[S_OS_ORDER] =
		{"s_os_o", SQL_TAG_OS
		 "SELECT o.o_id, o.o_entry_d, o.o_carrier_id, l.ol_i_id, "
		 "l.ol_supply_w_id, l.ol_quantity, l.ol_amount, l.ol_delivery_d "
		 "FROM (SELECT o_id, o_entry_d, o_carrier_id FROM orders "
		 "WHERE o_w_id = $1::int AND o_d_id = $2::int AND o_c_id = $3::int "
		 "ORDER BY o_id DESC LIMIT 1) o "
		 "LEFT JOIN order_line l ON l.ol_w_id = $1::int "
		 "AND l.ol_d_id = $2::int AND l.ol_o_id = o.o_id "
		 "ORDER BY l.ol_number"},

	/* Delivery (2.7.4.2) */
	/*
	 * The oldest undelivered order, passing over one that a concurrent
	 * Delivery has locked (see delivery() in schema/functions.sql).
	 */
	[S_DY_NEW_ORDER] =
		{"s_dy_no", SQL_TAG_DY
		 "DELETE FROM new_order WHERE no_w_id = $1::int AND no_d_id = $2::int "
		 "AND no_o_id = (SELECT no_o_id FROM new_order "
		 "WHERE no_w_id = $1::int AND no_d_id = $2::int "
		 "ORDER BY no_o_id LIMIT 1 FOR UPDATE SKIP LOCKED) "
		 "RETURNING no_o_id"},
	[S_DY_ORDER] =
		{"s_dy_o", SQL_TAG_DY
		 "UPDATE orders SET o_carrier_id = $4::int WHERE o_w_id = $1::int "
		 "AND o_d_id = $2::int AND o_id = $3::int RETURNING o_c_id"},
	/*
	 * The plain sum of the line amounts; the text of a numeric goes
	 * back to the server unchanged, so no rounding on the way.
	 */
	[S_DY_LINES] =
		{"s_dy_ol", SQL_TAG_DY
		 "WITH l AS (UPDATE order_line SET ol_delivery_d = localtimestamp "
		 "WHERE ol_w_id = $1::int AND ol_d_id = $2::int AND ol_o_id = $3::int "
		 "RETURNING ol_amount) SELECT coalesce(sum(ol_amount), 0) FROM l"},
	[S_DY_CUSTOMER] =
		{"s_dy_c", SQL_TAG_DY
		 "UPDATE customer SET c_balance = c_balance + $4::numeric, "
		 "c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = $1::int "
		 "AND c_d_id = $2::int AND c_id = $3::int"},

	/* Stock-Level (2.8.2.2) */
	[S_SL_DISTRICT] = {"s_sl_d", SQL_TAG_SL
			   "SELECT d_next_o_id FROM district "
			   "WHERE d_w_id = $1::int AND d_id = $2::int"},
	/* STOCK at the home warehouse, whoever supplied the line. */
	[S_SL_COUNT] =
		{"s_sl_n", SQL_TAG_SL
		 "SELECT count(DISTINCT s_i_id) FROM order_line JOIN stock "
		 "ON s_w_id = ol_w_id AND s_i_id = ol_i_id "
		 "WHERE ol_w_id = $1::int AND ol_d_id = $2::int "
		 "AND ol_o_id >= $3::int - 20 AND ol_o_id < $3::int "
		 "AND s_quantity < $4::int"},
};

_Static_assert(S_NR <= PGSQL_MAX_STMTS, "too many statements");

/* Queue a statement without parameters (BEGIN, COMMIT, ...). */
static void sql_send0(struct driver_conn *conn, struct pgsql_batch *b,
		      enum sql_stmt stmt)
{
	struct pgsql_params p;

	pgsql_params_reset(&p);
	pgsql_batch_send(conn, b, stmt, &p);
}

/* Run a batch of one statement without parameters. */
static enum driver_outcome sql_run0(struct driver_conn *conn,
				    enum sql_stmt stmt, struct txn_output *out)
{
	struct pgsql_batch b;
	enum driver_outcome oc;

	pgsql_batch_start(conn, &b);
	sql_send0(conn, &b, stmt);
	oc = pgsql_batch_run(conn, &b, out);
	pgsql_batch_clear(&b);
	return oc;
}

/*
 * After a failed attempt: free the batch's results and roll back whatever
 * transaction is still open, so the session is clean for the next
 * attempt. Returns oc, or DRIVER_LOST if the ROLLBACK failed: the
 * connection is gone, or in a state no later BEGIN should build on, so
 * it is marked broken and the caller reconnects. The first error's
 * sqlstate and message are kept unless the connection was lost.
 */
static enum driver_outcome sql_abort(struct driver_conn *conn,
				     struct pgsql_batch *b,
				     enum driver_outcome oc,
				     struct txn_output *out)
{
	struct txn_output rb;

	pgsql_batch_clear(b);
	if (oc == DRIVER_LOST || PQstatus(conn->pg) == CONNECTION_BAD)
		return DRIVER_LOST;
	if (PQtransactionStatus(conn->pg) == PQTRANS_IDLE)
		return oc;
	memset(&rb, 0, sizeof(rb));
	if (sql_run0(conn, S_ROLLBACK, &rb) != DRIVER_DONE) {
		conn->broken = true;
		memcpy(out->message, rb.message, sizeof(out->message));
		return DRIVER_LOST;
	}
	return oc;
}

/*
 * Run the batch; when a statement failed, end the transaction as
 * sql_abort does and give its outcome. The step of every transaction.
 */
static enum driver_outcome
sql_run(struct driver_conn *conn, struct pgsql_batch *b, struct txn_output *out)
{
	enum driver_outcome oc = pgsql_batch_run(conn, b, out);

	return oc == DRIVER_DONE ? oc : sql_abort(conn, b, oc, out);
}

/* The end of a transaction that committed: free b, report it done. */
static enum driver_outcome sql_done(struct pgsql_batch *b,
				    struct txn_output *out)
{
	pgsql_batch_clear(b);
	out->status = TXN_STATUS_OK;
	return DRIVER_DONE;
}

/* A result that must hold exactly one row. */
static bool sql_one_row(const PGresult *res)
{
	return PQntuples(res) == 1;
}

/*
 * New-Order. Round trip 1: BEGIN and the reads (W_TAX; D_TAX and O_ID
 * from the district's increment; the customer; every item). Round trip
 * 2: ORDER, NEW-ORDER and the valid lines (STOCK, ORDER-LINE). Round
 * trip 3: COMMIT, or ROLLBACK when an item was unused: the ITEM read
 * returned no row for it (2.4.2.3), after every valid line was processed.
 */
static enum driver_outcome sql_new_order(struct driver_conn *conn,
					 const struct txn_new_order *no,
					 struct txn_output *out)
{
	int n = no->ol_cnt, nvalid = 0, all_local = 1, i, r;
	int v_num[TXN_MAX_LINES], v_i_id[TXN_MAX_LINES];
	int v_supply[TXN_MAX_LINES], v_qty[TXN_MAX_LINES];
	int64_t v_amount[TXN_MAX_LINES]; /* cents */
	bool i_original[TXN_MAX_LINES];	 /* I_DATA holds "ORIGINAL" */
	int64_t w_tax, d_tax, c_discount, sum_cents = 0, total;
	int brand = 0, bad_i_id = 0;
	enum driver_outcome oc;
	struct pgsql_params p;
	struct pgsql_batch b;
	const PGresult *items;

	pgsql_batch_start(conn, &b);
	sql_send0(conn, &b, S_BEGIN);
	pgsql_params_reset(&p);
	pgsql_param_int(&p, no->w_id);
	pgsql_batch_send(conn, &b, S_NO_WAREHOUSE, &p);
	pgsql_param_int(&p, no->d_id);
	pgsql_batch_send(conn, &b, S_NO_DISTRICT, &p);
	pgsql_param_int(&p, no->c_id);
	pgsql_batch_send(conn, &b, S_NO_CUSTOMER, &p);
	pgsql_params_reset(&p);
	pgsql_param_int_array(&p, no->ol_i_id, n);
	pgsql_batch_send(conn, &b, S_NO_ITEMS, &p);
	if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
		return oc;

	if (!sql_one_row(b.res[1]))
		oc = pgsql_fail(out, "P0002", "new_order: no warehouse %d",
				no->w_id);
	else if (!sql_one_row(b.res[2]))
		oc = pgsql_fail(out, "P0002", "new_order: no district %d/%d",
				no->w_id, no->d_id);
	else if (!sql_one_row(b.res[3]))
		oc = pgsql_fail(out, "P0002", "new_order: no customer %d/%d/%d",
				no->w_id, no->d_id, no->c_id);
	if (oc != DRIVER_DONE)
		return sql_abort(conn, &b, oc, out);
	w_tax = pgsql_fixed(b.res[1], 0, 0, 4);
	d_tax = pgsql_fixed(b.res[2], 0, 0, 4);
	out->o_id = pgsql_int(b.res[2], 0, 1);
	c_discount = pgsql_fixed(b.res[3], 0, 0, 4);

	/* Match lines to items; a line without its item is unused. */
	items = b.res[4];
	for (i = 0; i < n; i++) {
		if (no->ol_supply_w_id[i] != no->w_id)
			all_local = 0;
		for (r = 0; r < PQntuples(items); r++)
			if (pgsql_int(items, r, 0) == no->ol_i_id[i])
				break;
		if (r == PQntuples(items)) {
			if (!bad_i_id)
				bad_i_id = no->ol_i_id[i];
			continue;
		}
		/* OL_AMOUNT = OL_QUANTITY * I_PRICE, no tax or discount */
		v_num[nvalid] = i + 1;
		v_i_id[nvalid] = no->ol_i_id[i];
		v_supply[nvalid] = no->ol_supply_w_id[i];
		v_qty[nvalid] = no->ol_quantity[i];
		v_amount[nvalid] =
			no->ol_quantity[i] * pgsql_fixed(items, r, 1, 2);
		i_original[nvalid] =
			strstr(PQgetvalue(items, r, 3), "ORIGINAL") != NULL;
		sum_cents += v_amount[nvalid];
		nvalid++;
	}
	pgsql_batch_clear(&b);

	pgsql_batch_start(conn, &b);
	pgsql_params_reset(&p);
	pgsql_param_int(&p, out->o_id);
	pgsql_param_int(&p, no->d_id);
	pgsql_param_int(&p, no->w_id);
	pgsql_param_int(&p, no->c_id);
	pgsql_param_int(&p, n);
	pgsql_param_int(&p, all_local);
	pgsql_batch_send(conn, &b, S_NO_ORDER, &p);
	p.n = 3; /* keep O_ID, D_ID, W_ID: they start the next two too */
	pgsql_batch_send(conn, &b, S_NO_NEW_ORDER, &p);
	pgsql_param_int_array(&p, v_num, nvalid);
	pgsql_param_int_array(&p, v_i_id, nvalid);
	pgsql_param_int_array(&p, v_supply, nvalid);
	pgsql_param_int_array(&p, v_qty, nvalid);
	pgsql_param_cents_array(&p, v_amount, nvalid);
	pgsql_batch_send(conn, &b, S_NO_LINES, &p);
	if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
		return oc;
	/*
	 * One row per valid line, in OL_NUMBER order, or a STOCK row was
	 * missing.
	 */
	if (PQntuples(b.res[2]) != nvalid)
		oc = pgsql_fail(out, "P0002",
				"new_order: no stock for %d of %d items at "
				"their warehouses",
				nvalid - PQntuples(b.res[2]), nvalid);
	if (oc != DRIVER_DONE)
		return sql_abort(conn, &b, oc, out);
	/* brand-generic: "B" when both I_DATA and S_DATA say ORIGINAL */
	for (r = 0; r < nvalid; r++)
		if (i_original[r] && PQgetvalue(b.res[2], r, 2)[0] == 't')
			brand++;
	pgsql_batch_clear(&b);

	oc = sql_run0(conn, bad_i_id ? S_ROLLBACK : S_COMMIT, out);
	if (oc != DRIVER_DONE)
		return sql_abort(conn, &b, oc, out);
	out->status = bad_i_id ? TXN_STATUS_ROLLBACK : TXN_STATUS_OK;

	if (log_debug_enabled(LOG_CAT_DRIVER)) {
		/*
		 * total = sum * (1 - C_DISCOUNT) * (1 + W_TAX + D_TAX), in
		 * units of 10^-10 before rounding to cents; exact.
		 */
		total = sum_cents * (10000 - c_discount) *
			(10000 + w_tax + d_tax);
		total = (total + 50000000) / 100000000;
		log_debug(
			LOG_CAT_DRIVER,
			"new_order %d/%d/%d o_id %d lines %d total %lld.%02lld"
			" brand %d%s",
			no->w_id, no->d_id, no->c_id, out->o_id, n,
			(long long)(total / 100), (long long)(total % 100),
			brand, bad_i_id ? " rolled back" : "");
	}
	return DRIVER_DONE;
}

/*
 * Pick the customer from a by-name result (first column C_ID, sorted by
 * C_FIRST): the row at position ceil(n/2), -1 when there is none.
 */
static int sql_middle_row(const PGresult *res)
{
	int n = PQntuples(res);

	return n ? (n - 1) / 2 : -1;
}

/*
 * A customer by last name, the first round trip of Payment and
 * Order-Status: send stmt with (w_id, d_id, c_last) after the BEGIN b
 * holds, run it and take the C_ID of the middle row (clause 2.5.2.2),
 * then start the next batch of the same transaction in b. DRIVER_DONE
 * with *c_id, or the failure, the transaction then ended (no such
 * customer: P0002 "TXN: no customer named ...").
 */
static enum driver_outcome sql_by_name(struct driver_conn *conn,
				       struct pgsql_batch *b, int stmt,
				       const char *txn, int w_id, int d_id,
				       const char *c_last, int *c_id,
				       struct txn_output *out)
{
	enum driver_outcome oc;
	struct pgsql_params p;
	int row;

	pgsql_params_reset(&p);
	pgsql_param_int(&p, w_id);
	pgsql_param_int(&p, d_id);
	pgsql_param_text(&p, c_last);
	pgsql_batch_send(conn, b, stmt, &p);
	if ((oc = sql_run(conn, b, out)) != DRIVER_DONE)
		return oc;
	row = sql_middle_row(b->res[1]);
	if (row < 0)
		return sql_abort(conn, b,
				 pgsql_fail(out, "P0002",
					    "%s: no customer named %s in %d/%d",
					    txn, c_last, w_id, d_id),
				 out);
	*c_id = pgsql_int(b->res[1], row, 0);
	pgsql_batch_clear(b);
	pgsql_batch_start(conn, b);
	return DRIVER_DONE;
}

/*
 * Payment. By name, round trip 1 finds the customer. Then one round trip
 * updates CUSTOMER (with the BC rule for C_DATA), DISTRICT and WAREHOUSE
 * in that order (the order payment() locks them in: the hottest row,
 * WAREHOUSE, last), and a last one inserts HISTORY with H_DATA built here
 * from W_NAME and D_NAME and commits: an INSERT that fails stops the
 * pipeline before the COMMIT.
 */
static enum driver_outcome sql_payment(struct driver_conn *conn,
				       const struct txn_payment *py,
				       struct txn_output *out)
{
	enum driver_outcome oc;
	struct pgsql_params p;
	struct pgsql_batch b;
	int c_id = py->c_id, first = 1;
	char h_data[32];

	pgsql_batch_start(conn, &b);
	sql_send0(conn, &b, S_BEGIN);
	if (py->by_name) {
		oc = sql_by_name(conn, &b, S_PY_BY_NAME, "payment", py->c_w_id,
				 py->c_d_id, py->c_last, &c_id, out);
		if (oc != DRIVER_DONE)
			return oc;
		first = 0;
	}
	pgsql_params_reset(&p);
	pgsql_param_int(&p, py->c_w_id);
	pgsql_param_int(&p, py->c_d_id);
	pgsql_param_int(&p, c_id);
	pgsql_param_cents(&p, py->h_amount_cents);
	pgsql_param_int(&p, py->d_id);
	pgsql_param_int(&p, py->w_id);
	pgsql_batch_send(conn, &b, S_PY_CUSTOMER, &p);
	pgsql_params_reset(&p);
	pgsql_param_int(&p, py->w_id);
	pgsql_param_int(&p, py->d_id);
	pgsql_param_cents(&p, py->h_amount_cents);
	pgsql_batch_send(conn, &b, S_PY_DISTRICT, &p);
	pgsql_params_reset(&p);
	pgsql_param_int(&p, py->w_id);
	pgsql_param_cents(&p, py->h_amount_cents);
	pgsql_batch_send(conn, &b, S_PY_WAREHOUSE, &p);
	if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
		return oc;
	if (!sql_one_row(b.res[first]))
		oc = pgsql_fail(out, "P0002", "payment: no customer %d/%d/%d",
				py->c_w_id, py->c_d_id, c_id);
	else if (!sql_one_row(b.res[first + 1]))
		oc = pgsql_fail(out, "P0002", "payment: no district %d/%d",
				py->w_id, py->d_id);
	else if (!sql_one_row(b.res[first + 2]))
		oc = pgsql_fail(out, "P0002", "payment: no warehouse %d",
				py->w_id);
	if (oc != DRIVER_DONE)
		return sql_abort(conn, &b, oc, out);
	/* H_DATA = W_NAME, four spaces, D_NAME (both at most 10 long) */
	snprintf(h_data, sizeof(h_data), "%s    %s",
		 PQgetvalue(b.res[first + 2], 0, 0),
		 PQgetvalue(b.res[first + 1], 0, 0));
	pgsql_batch_clear(&b);

	pgsql_batch_start(conn, &b);
	pgsql_params_reset(&p);
	pgsql_param_int(&p, c_id);
	pgsql_param_int(&p, py->c_d_id);
	pgsql_param_int(&p, py->c_w_id);
	pgsql_param_int(&p, py->d_id);
	pgsql_param_int(&p, py->w_id);
	pgsql_param_cents(&p, py->h_amount_cents);
	pgsql_param_text(&p, h_data);
	pgsql_batch_send(conn, &b, S_PY_HISTORY, &p);
	sql_send0(conn, &b, S_COMMIT);
	if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
		return oc;
	return sql_done(&b, out);
}

/*
 * Order-Status, read-only, in one REPEATABLE READ snapshot. By number:
 * one round trip (the customer, the latest order with its lines, COMMIT).
 * By name: the customers first, then the order.
 */
static enum driver_outcome sql_order_status(struct driver_conn *conn,
					    const struct txn_order_status *os,
					    struct txn_output *out)
{
	enum driver_outcome oc;
	struct pgsql_params p;
	struct pgsql_batch b;
	int c_id = os->c_id;

	pgsql_batch_start(conn, &b);
	sql_send0(conn, &b, S_BEGIN_RO);
	pgsql_params_reset(&p);
	pgsql_param_int(&p, os->w_id);
	pgsql_param_int(&p, os->d_id);
	if (os->by_name) {
		oc = sql_by_name(conn, &b, S_OS_BY_NAME, "order_status",
				 os->w_id, os->d_id, os->c_last, &c_id, out);
		if (oc != DRIVER_DONE)
			return oc;
		pgsql_params_reset(&p);
		pgsql_param_int(&p, os->w_id);
		pgsql_param_int(&p, os->d_id);
		pgsql_param_int(&p, c_id);
		pgsql_batch_send(conn, &b, S_OS_ORDER, &p);
		sql_send0(conn, &b, S_COMMIT);
		if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
			return oc;
	} else {
		pgsql_param_int(&p, c_id);
		pgsql_batch_send(conn, &b, S_OS_CUSTOMER, &p);
		pgsql_batch_send(conn, &b, S_OS_ORDER, &p);
		sql_send0(conn, &b, S_COMMIT);
		if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
			return oc;
		if (!sql_one_row(b.res[1]))
			/* read-only: the COMMIT changed nothing */
			return sql_abort(conn, &b,
					 pgsql_fail(out, "P0002",
						    "order_status: no customer "
						    "%d/%d/%d",
						    os->w_id, os->d_id, c_id),
					 out);
	}
	return sql_done(&b, out);
}

/*
 * Delivery, all ten districts in one transaction, each step batched over
 * the districts in ascending D_ID (the lock order of delivery()):
 * 1. BEGIN and take the oldest NEW-ORDER row of each district (none:
 *    the district is skipped);
 * 2. set O_CARRIER_ID (reading O_C_ID) and OL_DELIVERY_D (summing
 *    OL_AMOUNT) of each order taken;
 * 3. add the sums to the customers' C_BALANCE, C_DELIVERY_CNT += 1;
 * 4. COMMIT, once every row was found.
 */
static enum driver_outcome sql_delivery(struct driver_conn *conn,
					const struct txn_delivery *dy,
					struct txn_output *out)
{
	int d_id[SQL_DISTRICTS], o_id[SQL_DISTRICTS], c_id[SQL_DISTRICTS];
	char sum[SQL_DISTRICTS][24]; /* Σ OL_AMOUNT as the server wrote it */
	int nd = 0, i;
	enum driver_outcome oc;
	struct pgsql_params p;
	struct pgsql_batch b;

	pgsql_batch_start(conn, &b);
	sql_send0(conn, &b, S_BEGIN);
	for (i = 0; i < SQL_DISTRICTS; i++) {
		pgsql_params_reset(&p);
		pgsql_param_int(&p, dy->w_id);
		pgsql_param_int(&p, i + 1);
		pgsql_batch_send(conn, &b, S_DY_NEW_ORDER, &p);
	}
	if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
		return oc;
	for (i = 0; i < SQL_DISTRICTS; i++) {
		if (PQntuples(b.res[1 + i]) != 1) {
			out->skipped++;
			continue;
		}
		d_id[nd] = i + 1;
		o_id[nd] = pgsql_int(b.res[1 + i], 0, 0);
		nd++;
	}
	pgsql_batch_clear(&b);

	if (nd) {
		pgsql_batch_start(conn, &b);
		for (i = 0; i < nd; i++) {
			pgsql_params_reset(&p);
			pgsql_param_int(&p, dy->w_id);
			pgsql_param_int(&p, d_id[i]);
			pgsql_param_int(&p, o_id[i]);
			pgsql_batch_send(conn, &b, S_DY_LINES, &p);
			/* the same three, then O_CARRIER_ID */
			pgsql_param_int(&p, dy->o_carrier_id);
			pgsql_batch_send(conn, &b, S_DY_ORDER, &p);
		}
		if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
			return oc;
		for (i = 0; i < nd && oc == DRIVER_DONE; i++) {
			if (!sql_one_row(b.res[2 * i + 1])) {
				oc = pgsql_fail(out, "P0002",
						"delivery: NEW-ORDER %d/%d/%d "
						"has no ORDER row",
						dy->w_id, d_id[i], o_id[i]);
				break;
			}
			c_id[i] = pgsql_int(b.res[2 * i + 1], 0, 0);
			snprintf(sum[i], sizeof(sum[i]), "%s",
				 PQgetvalue(b.res[2 * i], 0, 0));
		}
		if (oc != DRIVER_DONE)
			return sql_abort(conn, &b, oc, out);
		pgsql_batch_clear(&b);

		pgsql_batch_start(conn, &b);
		for (i = 0; i < nd; i++) {
			pgsql_params_reset(&p);
			pgsql_param_int(&p, dy->w_id);
			pgsql_param_int(&p, d_id[i]);
			pgsql_param_int(&p, c_id[i]);
			pgsql_param_text(&p, sum[i]);
			pgsql_batch_send(conn, &b, S_DY_CUSTOMER, &p);
		}
		if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
			return oc;
		for (i = 0; i < nd; i++)
			if (strcmp(PQcmdTuples(b.res[i]), "1") != 0) {
				oc = pgsql_fail(out, "P0002",
						"delivery: order %d/%d/%d has "
						"no customer %d",
						dy->w_id, d_id[i], o_id[i],
						c_id[i]);
				return sql_abort(conn, &b, oc, out);
			}
		pgsql_batch_clear(&b);
	}

	oc = sql_run0(conn, S_COMMIT, out);
	if (oc != DRIVER_DONE)
		return sql_abort(conn, &b, oc, out);
	out->delivered = nd;
	out->status = TXN_STATUS_OK;
	return DRIVER_DONE;
}

/*
 * Stock-Level: D_NEXT_O_ID, then the distinct low-stock items of the last
 * 20 orders. Two autocommit statements, so two snapshots: clause 2.8.2.3
 * lets the work span several transactions and asks only for committed
 * reads, and no BEGIN/COMMIT saves the server two statements.
 */
static enum driver_outcome sql_stock_level(struct driver_conn *conn,
					   const struct txn_stock_level *sl,
					   struct txn_output *out)
{
	enum driver_outcome oc;
	struct pgsql_params p;
	struct pgsql_batch b;
	int next_o_id;

	pgsql_batch_start(conn, &b);
	pgsql_params_reset(&p);
	pgsql_param_int(&p, sl->w_id);
	pgsql_param_int(&p, sl->d_id);
	pgsql_batch_send(conn, &b, S_SL_DISTRICT, &p);
	if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
		return oc;
	if (!sql_one_row(b.res[0]))
		return sql_abort(conn, &b,
				 pgsql_fail(out, "P0002",
					    "stock_level: no district %d/%d",
					    sl->w_id, sl->d_id),
				 out);
	next_o_id = pgsql_int(b.res[0], 0, 0);
	pgsql_batch_clear(&b);

	pgsql_batch_start(conn, &b);
	/* after W_ID and D_ID, still in p */
	pgsql_param_int(&p, next_o_id);
	pgsql_param_int(&p, sl->threshold);
	pgsql_batch_send(conn, &b, S_SL_COUNT, &p);
	if ((oc = sql_run(conn, &b, out)) != DRIVER_DONE)
		return oc;
	out->low_stock = pgsql_int(b.res[0], 0, 0);
	return sql_done(&b, out);
}

static enum driver_outcome sql_attempt(struct driver_conn *conn,
				       const struct txn_input *in,
				       struct txn_output *out)
{
	switch (in->type) {
	case TXN_NEW_ORDER:
		return sql_new_order(conn, &in->u.new_order, out);
	case TXN_PAYMENT:
		return sql_payment(conn, &in->u.payment, out);
	case TXN_ORDER_STATUS:
		return sql_order_status(conn, &in->u.order_status, out);
	case TXN_DELIVERY:
		return sql_delivery(conn, &in->u.delivery, out);
	default: /* TXN_STOCK_LEVEL; the engine checked the type */
		return sql_stock_level(conn, &in->u.stock_level, out);
	}
}

const struct pgsql_mode pgsql_mode_sql = {
	.name = "sql",
	.stmts = sql_stmts,
	.nr_stmts = S_NR,
	.attempt = sql_attempt,
};
