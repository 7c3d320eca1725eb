/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql_route.c - which schema's copy of a transaction function a
 * procedure-mode call goes to. A database loaded in the warehouse layout
 * has oltpmark_routes (src/load/routes.h): per range of warehouses, a
 * schema whose functions work on that range's partitions directly, and
 * one for transactions that also reach another range. Elsewhere the
 * table is absent and every call goes to the functions of the tables'
 * own schema, as before. Read once per session, on first use: connect
 * must work on a database without the schema.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgsql_internal.h"

/* Does the session's database have oltpmark_routes? */
static const char routes_exist_sql[] =
	"SELECT to_regclass('oltpmark_routes') IS NOT NULL";
/* Quoted here, so a schema name is ready to put into a statement. */
static const char routes_read_sql[] =
	"SELECT w_first, w_last, quote_ident(home_schema), "
	"quote_ident(remote_schema) FROM oltpmark_routes ORDER BY w_first";

/* Fill conn->routes from the result of routes_read_sql. */
static enum driver_outcome routes_fill(struct driver_conn *conn,
				       const PGresult *res,
				       struct txn_output *out)
{
	struct pgsql_routes *rs = &conn->routes;
	int i, n = PQntuples(res);

	rs->r = calloc(n ? (size_t)n : 1, sizeof(*rs->r));
	if (!rs->r)
		return pgsql_fail(out, "", "pgsql: routes: out of memory");
	for (i = 0; i < n; i++) {
		struct pgsql_route *r = &rs->r[i];
		const char *home = PQgetvalue(res, i, 2);
		const char *remote = PQgetvalue(res, i, 3);

		r->w_first = pgsql_int(res, i, 0);
		r->w_last = pgsql_int(res, i, 1);
		if (strlen(home) >= sizeof(r->home) ||
		    strlen(remote) >= sizeof(r->remote) ||
		    r->w_first > r->w_last ||
		    (i > 0 && r->w_first <= rs->r[i - 1].w_last)) {
			free(rs->r);
			rs->r = NULL;
			return pgsql_fail(out, "",
					  "pgsql: oltpmark_routes: "
					  "bad row %d",
					  i + 1);
		}
		memcpy(r->home, home, strlen(home) + 1);
		memcpy(r->remote, remote, strlen(remote) + 1);
	}
	rs->n = n;
	return DRIVER_DONE;
}

enum driver_outcome pgsql_routes_load(struct driver_conn *conn,
				      struct txn_output *out)
{
	enum driver_outcome oc = DRIVER_DONE;
	PGresult *res;

	if (conn->routes.loaded)
		return DRIVER_DONE;
	res = PQexec(conn->pg, routes_exist_sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		oc = pgsql_fail_result(conn, res, out);
		PQclear(res);
		return oc;
	}
	if (strcmp(PQgetvalue(res, 0, 0), "t") == 0) {
		PQclear(res);
		res = PQexec(conn->pg, routes_read_sql);
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
			oc = pgsql_fail_result(conn, res, out);
		else
			oc = routes_fill(conn, res, out);
	}
	PQclear(res);
	if (oc == DRIVER_DONE)
		conn->routes.loaded = true;
	return oc;
}

int pgsql_route_find(const struct driver_conn *conn, int w_id)
{
	int lo = 0, hi = conn->routes.n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		const struct pgsql_route *r = &conn->routes.r[mid];

		if (w_id < r->w_first)
			hi = mid - 1;
		else if (w_id > r->w_last)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}

void pgsql_routes_unprepare(struct driver_conn *conn)
{
	int i;

	for (i = 0; i < conn->routes.n; i++)
		conn->routes.r[i].prepared = 0;
}

void pgsql_routes_free(struct driver_conn *conn)
{
	free(conn->routes.r);
	memset(&conn->routes, 0, sizeof(conn->routes));
}
