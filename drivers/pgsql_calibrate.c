/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql_calibrate.c - the server side of `oltpmark calibrate` (see
 * pgsql_calibrate.h): the queries, and their rows turned into the I/O
 * profile's per-type and per-relation numbers. A relation is known by
 * the name of its partition root (pg_partition_root), so the warehouse
 * layout's partitions count as their table.
 */
#include "drivers/pgsql_calibrate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drivers/pgconn.h"

/* The function each type calls in procedure mode (schema/functions.sql). */
static const char *const pgsql_calibrate_functions[TXN_NR] = {
	[TXN_NEW_ORDER] = "new_order",	     [TXN_PAYMENT] = "payment",
	[TXN_ORDER_STATUS] = "order_status", [TXN_DELIVERY] = "delivery",
	[TXN_STOCK_LEVEL] = "stock_level",
};

/* Run sql (no parameters) for rows; NULL with err set on failure. */
static PGresult *pgsql_calibrate_query(PGconn *conn, const char *what,
				       const char *sql, struct err *err)
{
	PGresult *res = PQexec(conn, sql);
	char msg[ERR_MSG_MAX];

	if (res && PQresultStatus(res) == PGRES_TUPLES_OK)
		return res;
	pgconn_error(res, conn, msg, sizeof(msg));
	err_set(err, PQstatus(conn) == CONNECTION_OK ? -EIO : -ENOTCONN,
		"%s: %s", what, msg);
	PQclear(res);
	return NULL;
}

static double pgsql_calibrate_num(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col)
		       ? 0
		       : strtod(PQgetvalue(res, row, col), NULL);
}

int pgsql_calibrate_setup(PGconn *conn, struct err *err)
{
	char loaded[256], track[32];
	int rc;

	rc = pgconn_value(conn, "shared_preload_libraries",
			  "SELECT current_setting('shared_preload_libraries')",
			  loaded, sizeof(loaded), err);
	if (rc < 0)
		return rc;
	if (!strstr(loaded, "pg_stat_statements"))
		return err_set(
			err, -ENOTSUP,
			"the server does not preload pg_stat_statements: set shared_preload_libraries = 'pg_stat_statements' and restart (run/pg init does)");
	rc = pgconn_exec(conn, "CREATE EXTENSION pg_stat_statements",
			 "CREATE EXTENSION IF NOT EXISTS pg_stat_statements",
			 err);
	if (rc == 0)
		rc = pgconn_exec(
			conn, "CREATE EXTENSION pg_buffercache",
			"CREATE EXTENSION IF NOT EXISTS pg_buffercache", err);
	if (rc < 0)
		return rc;
	rc = pgconn_value(conn, "pg_stat_statements.track",
			  "SELECT current_setting('pg_stat_statements.track')",
			  track, sizeof(track), err);
	if (rc < 0)
		return rc;
	/* top-level calls carry their nested statements' counters either
	   way; "none" records nothing */
	if (strcmp(track, "none") == 0)
		return err_set(
			err, -ENOTSUP,
			"pg_stat_statements.track is none: set it to all (run/pg init does)");
	return 0;
}

int pgsql_calibrate_reset_statements(PGconn *conn, struct err *err)
{
	return pgconn_exec(conn, "pg_stat_statements_reset()",
			   "SELECT pg_stat_statements_reset()", err);
}

int pgsql_calibrate_statements(PGconn *conn,
			       struct iosim_profile_txn txn[TXN_NR],
			       struct err *err)
{
	/* the driver's calls are "SELECT * FROM new_order($1...", or
	   "SELECT stock_level($1..."; the name is followed by "(" */
	static const char sql[] =
		"SELECT substring(query from "
		"'(new_order|payment|order_status|delivery|stock_level)\\('), "
		"sum(calls), sum(shared_blks_hit), sum(shared_blks_read), "
		"sum(shared_blks_dirtied), sum(shared_blks_written), "
		"sum(wal_records), sum(wal_bytes) "
		"FROM pg_stat_statements "
		"WHERE toplevel AND dbid = (SELECT oid FROM pg_database "
		"WHERE datname = current_database()) "
		"AND query ~ '^SELECT (\\* FROM )?"
		"(new_order|payment|order_status|delivery|stock_level)\\(' "
		"GROUP BY 1";
	PGresult *res =
		pgsql_calibrate_query(conn, "pg_stat_statements", sql, err);
	int i, t;

	if (!res)
		return -EIO;
	for (t = 0; t < TXN_NR; t++) {
		struct iosim_profile_txn *x = &txn[t];

		x->calls = x->commits = x->shared_blks_hit = 0;
		x->shared_blks_read = x->shared_blks_dirtied = 0;
		x->shared_blks_written = x->wal_records = x->wal_bytes = 0;
	}
	for (i = 0; i < PQntuples(res); i++) {
		const char *name = PQgetvalue(res, i, 0);
		struct iosim_profile_txn *x = NULL;

		for (t = 0; t < TXN_NR; t++)
			if (strcmp(name, pgsql_calibrate_functions[t]) == 0)
				x = &txn[t];
		if (!x)
			continue;
		x->calls += (int64_t)pgsql_calibrate_num(res, i, 1);
		x->shared_blks_hit += (int64_t)pgsql_calibrate_num(res, i, 2);
		x->shared_blks_read += (int64_t)pgsql_calibrate_num(res, i, 3);
		x->shared_blks_dirtied +=
			(int64_t)pgsql_calibrate_num(res, i, 4);
		x->shared_blks_written +=
			(int64_t)pgsql_calibrate_num(res, i, 5);
		x->wal_records += (int64_t)pgsql_calibrate_num(res, i, 6);
		x->wal_bytes += (int64_t)pgsql_calibrate_num(res, i, 7);
		x->commits = x->calls;
	}
	PQclear(res);
	return 0;
}

/* Add rows of (relname, a, b) into a[] and b[] by relation name. */
static void pgsql_calibrate_add(const PGresult *res, double *a, double *b)
{
	int i, r;

	for (i = 0; i < PQntuples(res); i++) {
		r = iosim_profile_rel_from_name(PQgetvalue(res, i, 0));
		if (r < 0)
			continue;
		a[r] += pgsql_calibrate_num(res, i, 1);
		if (b)
			b[r] += pgsql_calibrate_num(res, i, 2);
	}
}

int pgsql_calibrate_statio(PGconn *conn, struct pgsql_calibrate_statio *s,
			   struct err *err)
{
	static const char sql[] =
		"SELECT r.relname, sum(coalesce(s.heap_blks_read, 0)), "
		"sum(coalesce(s.heap_blks_hit, 0)) "
		"FROM pg_statio_user_tables s JOIN pg_class r "
		"ON r.oid = coalesce(pg_partition_root(s.relid), s.relid) "
		"GROUP BY 1 UNION ALL "
		"SELECT r.relname, sum(coalesce(s.idx_blks_read, 0)), "
		"sum(coalesce(s.idx_blks_hit, 0)) "
		"FROM pg_statio_user_indexes s JOIN pg_class r "
		"ON r.oid = coalesce(pg_partition_root(s.indexrelid), "
		"s.indexrelid) GROUP BY 1";
	PGresult *res;

	memset(s, 0, sizeof(*s));
	/* a fresh snapshot, not one cached by an earlier query */
	if (pgconn_exec(conn, "pg_stat_clear_snapshot()",
			"SELECT pg_stat_clear_snapshot()", err) < 0)
		return -EIO;
	res = pgsql_calibrate_query(conn, "pg_statio_user_tables", sql, err);
	if (!res)
		return -EIO;
	pgsql_calibrate_add(res, s->read, s->hit);
	PQclear(res);
	return 0;
}

int pgsql_calibrate_dirty(PGconn *conn, double dirty[IOSIM_PROFILE_REL_NR],
			  struct err *err)
{
	static const char sql[] =
		"SELECT r.relname, count(*) FROM pg_buffercache b "
		"JOIN pg_class c ON b.relfilenode = pg_relation_filenode(c.oid) "
		"JOIN pg_class r "
		"ON r.oid = coalesce(pg_partition_root(c.oid), c.oid) "
		"WHERE b.isdirty AND b.relforknumber = 0 "
		"AND b.reldatabase = (SELECT oid FROM pg_database "
		"WHERE datname = current_database()) "
		"AND c.relkind IN ('r', 'i') GROUP BY 1";
	PGresult *res;

	memset(dirty, 0, sizeof(double) * IOSIM_PROFILE_REL_NR);
	res = pgsql_calibrate_query(conn, "pg_buffercache", sql, err);
	if (!res)
		return -EIO;
	pgsql_calibrate_add(res, dirty, NULL);
	PQclear(res);
	return 0;
}

int pgsql_calibrate_checkpoint(PGconn *conn, struct err *err)
{
	return pgconn_exec(conn, "CHECKPOINT", "CHECKPOINT", err);
}

int pgsql_calibrate_wait_gone(PGconn *conn, const char *app, int timeout_ms,
			      struct err *err)
{
	const char *params[1] = {app};
	struct timespec nap = {0, 20 * 1000 * 1000};
	int waited;

	for (waited = 0; waited <= timeout_ms; waited += 20) {
		PGresult *res = PQexecParams(
			conn,
			"SELECT count(*) FROM pg_stat_activity "
			"WHERE application_name = $1 AND pid <> pg_backend_pid()",
			1, NULL, params, NULL, NULL, 0);
		char msg[ERR_MSG_MAX];
		long n;

		if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
			pgconn_error(res, conn, msg, sizeof(msg));
			PQclear(res);
			return err_set(err, -EIO, "pg_stat_activity: %s", msg);
		}
		n = strtol(PQgetvalue(res, 0, 0), NULL, 10);
		PQclear(res);
		if (n == 0)
			return 0;
		nanosleep(&nap, NULL);
	}
	return err_set(err, -ETIMEDOUT,
		       "backends of %s still there after %d ms", app,
		       timeout_ms);
}

int pgsql_calibrate_background(PGconn *conn, struct pgsql_calibrate_bg *bg,
			       struct err *err)
{
	static const char sql[] =
		"SELECT b.buffers_checkpoint, b.buffers_clean, "
		"b.buffers_backend, w.wal_write, w.wal_sync, w.wal_bytes "
		"FROM pg_stat_bgwriter b, pg_stat_wal w";
	PGresult *res;

	if (pgconn_exec(conn, "pg_stat_clear_snapshot()",
			"SELECT pg_stat_clear_snapshot()", err) < 0)
		return -EIO;
	res = pgsql_calibrate_query(conn, "pg_stat_bgwriter", sql, err);
	if (!res)
		return -EIO;
	if (PQntuples(res) != 1) {
		PQclear(res);
		return err_set(err, -EIO, "pg_stat_bgwriter: no row");
	}
	bg->buffers_checkpoint = pgsql_calibrate_num(res, 0, 0);
	bg->buffers_clean = pgsql_calibrate_num(res, 0, 1);
	bg->buffers_backend = pgsql_calibrate_num(res, 0, 2);
	bg->wal_write = pgsql_calibrate_num(res, 0, 3);
	bg->wal_sync = pgsql_calibrate_num(res, 0, 4);
	bg->wal_bytes = pgsql_calibrate_num(res, 0, 5);
	PQclear(res);
	return 0;
}

/* Whether a relation's list of tablespaces ("0,16390") names oid. */
static bool pgsql_calibrate_holds(const char spaces[][64], const char *oid)
{
	char list[64], *tok, *save = NULL;
	int r;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		memcpy(list, spaces[r], sizeof(list));
		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			if (strcmp(tok, oid) == 0)
				return true;
	}
	return false;
}

int pgsql_calibrate_relations(PGconn *conn, struct iosim_profile *prof,
			      struct err *err)
{
	/* leaf relations (tables, indexes, partitions) by their root */
	static const char sql[] =
		"SELECT r.relname, sum(pg_relation_size(c.oid)), "
		"sum(greatest(c.reltuples, 0)), "
		"string_agg(DISTINCT c.reltablespace::text, ','), "
		"bool_or(r.oid <> c.oid) "
		"FROM pg_class c JOIN pg_class r "
		"ON r.oid = coalesce(pg_partition_root(c.oid), c.oid) "
		"WHERE c.relkind IN ('r', 'i') "
		"AND r.relnamespace = to_regnamespace(current_schema()) "
		"GROUP BY 1";
	/* the tablespaces of those, in the loader's order, with where */
	static const char ts_sql[] =
		"SELECT s.oid::text, CASE WHEN s.oid = 0 THEN 'pg_default' "
		"ELSE pg_tablespace_location(s.oid) END "
		"FROM (SELECT DISTINCT c.reltablespace AS oid FROM pg_class c "
		"WHERE c.relkind IN ('r', 'i') AND coalesce((SELECT "
		"r.relnamespace FROM pg_class r WHERE r.oid = "
		"pg_partition_root(c.oid)), c.relnamespace) = "
		"to_regnamespace(current_schema())) s "
		"LEFT JOIN pg_tablespace t ON t.oid = s.oid "
		"ORDER BY s.oid <> 0, length(t.spcname), t.spcname";
	double bytes[IOSIM_PROFILE_REL_NR] = {0}, rows[IOSIM_PROFILE_REL_NR];
	char spaces[IOSIM_PROFILE_REL_NR][64] = {{0}};
	char seen[IOSIM_PROFILE_DIRECTORIES_MAX][16];
	bool partitioned = false, found[IOSIM_PROFILE_REL_NR] = {false};
	bool paths_fit = true;
	int nseen = 0, i, r, s;
	PGresult *res;

	if (pgconn_exec(conn, "ANALYZE", "ANALYZE", err) < 0)
		return -EIO;
	res = pgsql_calibrate_query(conn, "pg_class", sql, err);
	if (!res)
		return -EIO;
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < PQntuples(res); i++) {
		r = iosim_profile_rel_from_name(PQgetvalue(res, i, 0));
		if (r < 0)
			continue;
		found[r] = true;
		bytes[r] = pgsql_calibrate_num(res, i, 1);
		rows[r] = pgsql_calibrate_num(res, i, 2);
		snprintf(spaces[r], sizeof(spaces[r]), "%.*s",
			 (int)sizeof(spaces[r]) - 1, PQgetvalue(res, i, 3));
		if (strcmp(PQgetvalue(res, i, 4), "t") == 0)
			partitioned = true;
	}
	PQclear(res);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		int64_t pages;

		if (!found[r])
			return err_set(
				err, -ENOENT,
				"relation %s is missing: is this an oltpmark database?",
				iosim_profile_rel_name(r));
		pages = (int64_t)(bytes[r] / IOSIM_PROFILE_PAGE_BYTES);
		prof->rel[r].pages = pages < 1 ? 1 : pages;
		prof->rel[r].rows_per_page =
			rows[r] > 0 ? rows[r] / (double)prof->rel[r].pages : 1;
	}

	/*
	 * The layout: one directory per tablespace in use, numbered as the
	 * loader numbers them (oltpmark_ts1 is 0, ..., oltpmark_ts10 is 9:
	 * by name, the shorter first), the database's default before them,
	 * each with its location, so that a replay can put every relation
	 * in the directory of its tablespace.
	 */
	res = pgsql_calibrate_query(conn, "pg_tablespace", ts_sql, err);
	if (!res)
		return -EIO;
	for (i = 0; i < PQntuples(res) && nseen < IOSIM_PROFILE_DIRECTORIES_MAX;
	     i++) {
		/* only where the schema's relations are (oltpmark_meta, in
		   the default tablespace, is not one of them) */
		if (!pgsql_calibrate_holds(spaces, PQgetvalue(res, i, 0)))
			continue;
		snprintf(seen[nseen], sizeof(seen[0]), "%.*s",
			 (int)sizeof(seen[0]) - 1, PQgetvalue(res, i, 0));
		/* a path too long to keep: none is kept, rather than a
		   wrong one */
		if (strlen(PQgetvalue(res, i, 1)) >=
		    sizeof(prof->layout.path[0]))
			paths_fit = false;
		else if (nseen < IOSIM_PROFILE_PATHS_MAX)
			strcpy(prof->layout.path[nseen], PQgetvalue(res, i, 1));
		nseen++;
	}
	PQclear(res);
	prof->layout.directories = nseen < 1 ? 1 : nseen;
	prof->layout.npaths =
		paths_fit && nseen > 1 && nseen <= IOSIM_PROFILE_PATHS_MAX
			? nseen
			: 0;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		prof->layout.placement[r] = -1;
	if (partitioned) {
		prof->layout.kind = IOSIM_PROFILE_LAYOUT_WAREHOUSE;
	} else if (nseen > 1) {
		prof->layout.kind = IOSIM_PROFILE_LAYOUT_TABLE;
		for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
			for (s = 0; s < nseen; s++)
				if (strcmp(seen[s], spaces[r]) == 0)
					prof->layout.placement[r] = s;
	} else {
		prof->layout.kind = IOSIM_PROFILE_LAYOUT_SINGLE;
		prof->layout.directories = 1;
	}
	return 0;
}
