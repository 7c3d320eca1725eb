/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql_proc.c - procedure mode (--tx-mode procedure): each transaction is
 * one call of its PL/pgSQL function from schema/functions.sql, prepared
 * once per session and executed in autocommit, so one round trip is one
 * database transaction. The functions hold all the logic; this file only
 * turns inputs into text parameters and the result row into txn_output.
 */
#include <string.h>

#include "drivers/pgsql_internal.h"

/* The statements, one per transaction type. */
enum proc_stmt {
	PROC_NEW_ORDER,
	PROC_PAYMENT,
	PROC_ORDER_STATUS,
	PROC_DELIVERY,
	PROC_STOCK_LEVEL,
	PROC_NR
};

/*
 * SELECT * so the terminal receives the whole output of each profile, as
 * TPC-C's terminal would. The casts pick the function unambiguously. A
 * routed call (pgsql_route.c) puts a schema before the call.
 */
#define PROC_NO_CALL                                                  \
	"new_order($1::int, $2::int, $3::int, $4::int[], $5::int[], " \
	"$6::int[])"
#define PROC_PY_CALL                                                      \
	"payment($1::int, $2::int, $3::int, $4::int, $5::int, $6::text, " \
	"$7::numeric)"
#define PROC_OS_CALL "order_status($1::int, $2::int, $3::int, $4::text)"
#define PROC_DY_CALL "delivery($1::int, $2::int)"
#define PROC_SL_CALL "stock_level($1::int, $2::int, $3::int)"

static const struct pgsql_stmt proc_stmts[PROC_NR] = {
	[PROC_NEW_ORDER] = {"p_no", "SELECT * FROM " PROC_NO_CALL},
	[PROC_PAYMENT] = {"p_py", "SELECT * FROM " PROC_PY_CALL},
	[PROC_ORDER_STATUS] = {"p_os", "SELECT * FROM " PROC_OS_CALL},
	[PROC_DELIVERY] = {"p_dy", "SELECT * FROM " PROC_DY_CALL},
	[PROC_STOCK_LEVEL] = {"p_sl", "SELECT " PROC_SL_CALL},
};

/* The same statements cut before the function's name. */
static const struct proc_call {
	const char *select, *call;
} proc_calls[PROC_NR] = {
	[PROC_NEW_ORDER] = {"SELECT * FROM ", PROC_NO_CALL},
	[PROC_PAYMENT] = {"SELECT * FROM ", PROC_PY_CALL},
	[PROC_ORDER_STATUS] = {"SELECT * FROM ", PROC_OS_CALL},
	[PROC_DELIVERY] = {"SELECT * FROM ", PROC_DY_CALL},
	[PROC_STOCK_LEVEL] = {"SELECT ", PROC_SL_CALL},
};

_Static_assert(PROC_NR <= PGSQL_MAX_STMTS, "too many statements");

/* The customer by number, or (NULL, c_last) by name. */
static void proc_param_customer(struct pgsql_params *p, bool by_name, int c_id,
				const char *c_last)
{
	if (by_name) {
		pgsql_param_null(p);
		pgsql_param_text(p, c_last);
	} else {
		pgsql_param_int(p, c_id);
		pgsql_param_null(p);
	}
}

/* Build the call's parameters; return the statement. */
static enum proc_stmt proc_params(const struct txn_input *in,
				  struct pgsql_params *p)
{
	pgsql_params_reset(p);
	switch (in->type) {
	case TXN_NEW_ORDER: {
		const struct txn_new_order *no = &in->u.new_order;

		pgsql_param_int(p, no->w_id);
		pgsql_param_int(p, no->d_id);
		pgsql_param_int(p, no->c_id);
		pgsql_param_int_array(p, no->ol_i_id, no->ol_cnt);
		pgsql_param_int_array(p, no->ol_supply_w_id, no->ol_cnt);
		pgsql_param_int_array(p, no->ol_quantity, no->ol_cnt);
		return PROC_NEW_ORDER;
	}
	case TXN_PAYMENT: {
		const struct txn_payment *py = &in->u.payment;

		pgsql_param_int(p, py->w_id);
		pgsql_param_int(p, py->d_id);
		pgsql_param_int(p, py->c_w_id);
		pgsql_param_int(p, py->c_d_id);
		proc_param_customer(p, py->by_name, py->c_id, py->c_last);
		pgsql_param_cents(p, py->h_amount_cents);
		return PROC_PAYMENT;
	}
	case TXN_ORDER_STATUS: {
		const struct txn_order_status *os = &in->u.order_status;

		pgsql_param_int(p, os->w_id);
		pgsql_param_int(p, os->d_id);
		proc_param_customer(p, os->by_name, os->c_id, os->c_last);
		return PROC_ORDER_STATUS;
	}
	case TXN_DELIVERY:
		pgsql_param_int(p, in->u.delivery.w_id);
		pgsql_param_int(p, in->u.delivery.o_carrier_id);
		return PROC_DELIVERY;
	default: /* TXN_STOCK_LEVEL; the engine checked the type */
		pgsql_param_int(p, in->u.stock_level.w_id);
		pgsql_param_int(p, in->u.stock_level.d_id);
		pgsql_param_int(p, in->u.stock_level.threshold);
		return PROC_STOCK_LEVEL;
	}
}

/*
 * new_order() rolls back with SQLSTATE OM001 when an item is unused
 * (clause 2.4.2.3); its DETAIL starts "o_id=N", the O_ID the terminal
 * still shows.
 */
static bool proc_is_rollback(const struct txn_input *in, const PGresult *res,
			     struct txn_output *out)
{
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *detail;
	int o_id = 0;

	if (in->type != TXN_NEW_ORDER || !state || strcmp(state, "OM001"))
		return false;
	detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	if (detail && strncmp(detail, "o_id=", 5) == 0)
		for (detail += 5; *detail >= '0' && *detail <= '9'; detail++)
			o_id = o_id * 10 + (*detail - '0');
	out->o_id = o_id;
	out->status = TXN_STATUS_ROLLBACK;
	return true;
}

/*
 * The route of a call (-1: the tables' own schema) and whether it
 * reaches a warehouse outside the route's range: a New-Order line's
 * supplying warehouse, a Payment's customer's warehouse.
 */
static int proc_route(const struct driver_conn *conn,
		      const struct txn_input *in, bool *remote)
{
	const struct pgsql_route *r;
	int route, i, w_id;

	*remote = false;
	switch (in->type) {
	case TXN_NEW_ORDER:
		w_id = in->u.new_order.w_id;
		break;
	case TXN_PAYMENT:
		w_id = in->u.payment.w_id;
		break;
	case TXN_ORDER_STATUS:
		w_id = in->u.order_status.w_id;
		break;
	case TXN_DELIVERY:
		w_id = in->u.delivery.w_id;
		break;
	default:
		w_id = in->u.stock_level.w_id;
		break;
	}
	route = pgsql_route_find(conn, w_id);
	if (route < 0)
		return -1;
	r = &conn->routes.r[route];
	if (in->type == TXN_NEW_ORDER) {
		const struct txn_new_order *no = &in->u.new_order;

		for (i = 0; i < no->ol_cnt; i++)
			if (no->ol_supply_w_id[i] < r->w_first ||
			    no->ol_supply_w_id[i] > r->w_last)
				*remote = true;
	} else if (in->type == TXN_PAYMENT) {
		*remote = in->u.payment.c_w_id < r->w_first ||
			  in->u.payment.c_w_id > r->w_last;
	}
	return route;
}

/*
 * The name and text of stmt on route (-1: none), remote or not: the
 * routed ones are "p_no_3h" for route 3's home schema, "p_no_3r" for its
 * remote one. Returns -1 when a buffer is too small.
 */
static int proc_statement(const struct driver_conn *conn, enum proc_stmt stmt,
			  int route, bool remote, char *name, size_t name_size,
			  char *sql, size_t sql_size)
{
	const struct pgsql_route *r;
	int n, m;

	if (route < 0) {
		n = snprintf(name, name_size, "%s", proc_stmts[stmt].name);
		m = snprintf(sql, sql_size, "%s", proc_stmts[stmt].sql);
	} else {
		r = &conn->routes.r[route];
		n = snprintf(name, name_size, "%s_%d%c", proc_stmts[stmt].name,
			     route, remote ? 'r' : 'h');
		m = snprintf(sql, sql_size, "%s%s.%s", proc_calls[stmt].select,
			     remote ? r->remote : r->home,
			     proc_calls[stmt].call);
	}
	return n < 0 || (size_t)n >= name_size || m < 0 || (size_t)m >= sql_size
		       ? -1
		       : 0;
}

/* Is the statement prepared in this session? Mark it so when set. */
static bool proc_prepared(struct driver_conn *conn, enum proc_stmt stmt,
			  int route, bool remote, bool set)
{
	if (route < 0) {
		if (set)
			conn->prepared |= UINT64_C(1) << stmt;
		return conn->prepared & (UINT64_C(1) << stmt);
	}
	if (set)
		conn->routes.r[route].prepared |= UINT32_C(1)
						  << (2 * stmt + remote);
	return conn->routes.r[route].prepared &
	       (UINT32_C(1) << (2 * stmt + remote));
}

/*
 * Prepare a statement on its first use in this session (one extra round
 * trip, once). A failure, such as a missing function, fails this
 * transaction with the server's SQLSTATE, and the next one of its type
 * tries again.
 */
static enum driver_outcome proc_prepare(struct driver_conn *conn,
					enum proc_stmt stmt, int route,
					bool remote, const char *name,
					const char *sql, struct txn_output *out)
{
	enum driver_outcome oc = DRIVER_DONE;
	PGresult *res;

	res = PQprepare(conn->pg, name, sql, 0, NULL);
	if (PQresultStatus(res) == PGRES_COMMAND_OK)
		proc_prepared(conn, stmt, route, remote, true);
	else
		oc = pgsql_fail_result(conn, res, out);
	PQclear(res);
	return oc;
}

static enum driver_outcome proc_attempt(struct driver_conn *conn,
					const struct txn_input *in,
					struct txn_output *out)
{
	struct pgsql_params p;
	enum proc_stmt stmt = proc_params(in, &p);
	enum driver_outcome oc = DRIVER_DONE;
	char name[32], sql[512];
	PGresult *res;
	bool remote;
	int route;

	if (p.overflow)
		return pgsql_fail(out, "", "pgsql: %s: parameters too long",
				  txn_type_name(in->type));
	oc = pgsql_routes_load(conn, out);
	if (oc != DRIVER_DONE)
		return oc;
	route = proc_route(conn, in, &remote);
	if (proc_statement(conn, stmt, route, remote, name, sizeof(name), sql,
			   sizeof(sql)) < 0)
		return pgsql_fail(out, "", "pgsql: %s: statement too long",
				  txn_type_name(in->type));
	if (!proc_prepared(conn, stmt, route, remote, false)) {
		oc = proc_prepare(conn, stmt, route, remote, name, sql, out);
		if (oc != DRIVER_DONE)
			return oc;
	}
	res = PQexecPrepared(conn->pg, name, p.n, p.values, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		if (!res || !proc_is_rollback(in, res, out))
			oc = pgsql_fail_result(conn, res, out);
		PQclear(res);
		return oc;
	}

	out->status = TXN_STATUS_OK;
	switch (in->type) {
	case TXN_NEW_ORDER: /* o_id is new_order()'s first column */
		if (PQntuples(res) != 1)
			oc = pgsql_fail(out, "", "pgsql: new_order: %d rows",
					PQntuples(res));
		else
			out->o_id = pgsql_int(res, 0, 0);
		break;
	case TXN_DELIVERY: /* (delivered, skipped) */
		if (PQntuples(res) != 1)
			oc = pgsql_fail(out, "", "pgsql: delivery: %d rows",
					PQntuples(res));
		else {
			out->delivered = pgsql_int(res, 0, 0);
			out->skipped = pgsql_int(res, 0, 1);
		}
		break;
	case TXN_STOCK_LEVEL:
		if (PQntuples(res) != 1)
			oc = pgsql_fail(out, "", "pgsql: stock_level: %d rows",
					PQntuples(res));
		else
			out->low_stock = pgsql_int(res, 0, 0);
		break;
	default:
		/* Payment, Order-Status: the rows are the terminal's output. */
		break;
	}
	PQclear(res);
	return oc;
}

const struct pgsql_mode pgsql_mode_procedure = {
	.name = "procedure",
	.stmts = proc_stmts,
	.nr_stmts = PROC_NR,
	.attempt = proc_attempt,
};
