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
 * partition) almost always. Partition k's tables live in schema
 * oltpmark_pk under their parents' names (layout_ddl.h), and the loader
 * puts there a copy of schema/functions.sql in which every table
 * reference names its schema: oltpmark_pk's tables, and ITEM in the
 * tables' own schema. The same function text then works on plain
 * tables, and without a search_path of its own (a function's SET
 * search_path costs 4-5 % more CPU per New-Order, docs/layout.md). The few transactions that reach another partition (a
 * New-Order line from a remote warehouse, a Payment of a remote
 * customer) go to oltpmark_pk_remote, whose copy names STOCK and
 * CUSTOMER in the tables' schema, the partitioned parents.
 * oltpmark_routes says which warehouses each pair of schemas serves; the
 * driver (drivers/pgsql_route.c) reads it.
 *
 * Pure text work, no database: load.c runs what routes_sql() gives.
 */
#ifndef OLTPMARK_ROUTES_H
#define OLTPMARK_ROUTES_H

#include "src/base/err.h"
#include "src/base/sbuf.h"
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
 * Append sql to out with each reference to one of our tables qualified:
 * a table's name (any case, not already qualified) right after FROM,
 * JOIN, UPDATE or INTO, outside -- comments and quoted literals or
 * identifiers, gets "schemas[its enum load_table]." in front. The rule
 * fits the statements of schema/functions.sql (test_routes.c checks
 * that it leaves no table name there unqualified). Returns how many
 * names it qualified.
 */
int routes_qualify(const char *sql, const char *const *schemas,
		   struct sbuf *out);

/*
 * The SQL, one transaction (BEGIN ... COMMIT), that creates
 * oltpmark_routes in base_schema and, for each partition of ddl (a
 * warehouse layout's), a qualified copy of functions_sql in the
 * partition's schema oltpmark_pk (made with its tables), the schema
 * oltpmark_pk_remote with its copy, and the route's row.
 * base_schema is the schema of the tables as a quoted identifier (from
 * pgconn_quote_ident). Returns 0 with the text in *out (the caller
 * frees it), or with err set -EINVAL for a layout without partitions,
 * a schema name holding a single quote or functions naming no table,
 * -ENOMEM.
 */
int routes_sql(const struct layout_ddl *ddl, const char *base_schema,
	       const char *functions_sql, char **out, struct err *err);

/*
 * The SQL that drops the warehouse layout's schemas (the partitions'
 * and what routes_sql() made), before the tables are dropped.
 */
extern const char routes_drop_sql[];

#endif
