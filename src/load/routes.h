/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * routes.h - the warehouse layout's per-partition transaction functions
 * and the table that routes a transaction to them (docs/layout.md,
 * "Routes: one partition's functions").
 *
 * In PostgreSQL 15 a statement on a partitioned table pays at every
 * execution for the partitions it does not touch: a generic plan locks
 * every partition and prunes at executor start-up, a custom plan is
 * planned again each time. The transactions touch one warehouse (one
 * partition) almost always, so the loader gives each partition k a
 * schema oltpmark_pk holding a view named like each partitioned table
 * over that table's partition k, and a copy of schema/functions.sql
 * whose search_path puts those views first: the same function text then
 * works on plain tables. The few transactions that reach another
 * partition (a New-Order line from a remote warehouse, a Payment of a
 * remote customer) go to oltpmark_pk_remote, whose copy sees STOCK and
 * CUSTOMER through their partitioned parents and the rest through the
 * views. oltpmark_routes says which warehouses each pair of schemas
 * serves; the driver (drivers/pgsql_route.c) reads it.
 *
 * Pure text work, no database: load.c runs what routes_sql() gives.
 */
#ifndef OLTPMARK_ROUTES_H
#define OLTPMARK_ROUTES_H

#include "src/base/err.h"
#include "src/load/layout_ddl.h"

/* Longest routine name routes_routine_names() keeps. */
#define ROUTES_NAME_MAX 64

/*
 * The names of the routines functions_sql creates ("CREATE [OR REPLACE]
 * FUNCTION|PROCEDURE name"), in order, at most max of them, into names.
 * Returns how many.
 */
int routes_routine_names(const char *functions_sql,
			 char (*names)[ROUTES_NAME_MAX], int max);

/*
 * The SQL, one transaction (BEGIN ... COMMIT), that creates
 * oltpmark_routes in base_schema and, for each partition of ddl (a
 * warehouse layout's), the schemas oltpmark_pk and oltpmark_pk_remote
 * with their views and copies of functions_sql, and the route's row.
 * base_schema is the schema of the tables as a quoted identifier (from
 * PQescapeIdentifier). Returns 0 with the text in *out (the caller
 * frees it), or with err set -EINVAL for a layout without partitions
 * or a schema name holding a single quote, -ENOMEM.
 */
int routes_sql(const struct layout_ddl *ddl, const char *base_schema,
	       const char *functions_sql, char **out, struct err *err);

/* The SQL that drops what routes_sql() made, given oltpmark_routes. */
extern const char routes_drop_sql[];

#endif
