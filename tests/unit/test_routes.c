/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_routes.c - the warehouse layout's routes (src/load/routes.h),
 * generated from the real schema files: the rule that qualifies table
 * references, which leaves none of functions.sql's unqualified; W=7
 * over 3 partitions gives three ranges, each with a copy of
 * functions.sql naming the partition's tables (home) or the parents of
 * STOCK and CUSTOMER (remote), and the route rows; other layouts and a
 * schema name with a quote are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/load/layout_ddl.h"
#include "src/load/load.h"
#include "src/load/routes.h"
#include "src/load/schema_sql.h"
#include "tests/unit/fixture_util.h"

static const char *const ts3[] = {"oltpmark_ts1", "oltpmark_ts2",
				  "oltpmark_ts3"};

static void build(enum load_layout layout, int w, int d, struct layout_ddl *ddl)
{
	struct err err = {""};

	assert_int_equal(layout_ddl_build(layout, w, d ? ts3 : NULL, d,
					  schema_tables_sql, schema_indexes_sql,
					  schema_analyze_sql, ddl, &err),
			 0);
}

static void test_routine_names(void **state)
{
	char names[16][ROUTES_NAME_MAX];
	const char *sql = "CREATE OR REPLACE FUNCTION a(x int) ...;\n"
			  "create function b_2() ...;\n"
			  "CREATE PROCEDURE c() ...;\n"
			  "CREATE OR REPLACEMENT FUNCTION no() ...;\n"
			  "CREATE TABLE t (x int);\n"
			  "-- created function d is not a statement\n";

	(void)state;
	assert_int_equal(routes_routine_names(sql, names, 16), 3);
	assert_string_equal(names[0], "a");
	assert_string_equal(names[1], "b_2");
	assert_string_equal(names[2], "c");
	assert_int_equal(routes_routine_names(sql, names, 2), 2);
	/* the real file: the five transactions and the check's helper */
	assert_int_equal(routes_routine_names(schema_functions_sql, names, 16),
			 6);
	assert_string_equal(names[0], "new_order");
	assert_string_equal(names[4], "stock_level");
}

/*
 * Occurrences of our tables' names in sql, as words in any case, outside
 * -- comments and quoted literals, that are neither qualified (after a
 * '.') nor a routine's name (before a '('): table references the copy
 * would resolve through the session's search_path. A scanner of its own,
 * so that it does not share a blind spot with routes_qualify().
 */
static int unqualified(const char *sql)
{
	const char *p = sql;
	int n = 0, t;

	while (*p) {
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
		} else if (*p == '\'') {
			p++;
			while (*p && (*p != '\'' || p[1] == '\''))
				p += *p == '\'' ? 2 : 1;
			p += *p != '\0';
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *w = p;

			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			for (t = 0; t < LOAD_TABLE_NR; t++) {
				const char *name = load_table_info(t)->name;

				if (strlen(name) == (size_t)(p - w) &&
				    strncasecmp(w, name, strlen(name)) == 0 &&
				    (w == sql || w[-1] != '.') && *p != '(')
					n++;
			}
		} else {
			p++;
		}
	}
	return n;
}

static void test_qualify(void **state)
{
	const char *schemas[LOAD_TABLE_NR];
	const char *sql =
		"SELECT s.x FROM stock s JOIN item i ON true;\n"
		"update District SET d = 1; DELETE FROM\n\tnew_order;\n"
		"INSERT INTO history VALUES ('from stock', 'it''s from orders');\n"
		"-- FROM customer\n"
		"SELECT * FROM other.stock; SELECT stock FROM t;\n"
		"SELECT 1 INTO v FROM \"stock\" JOIN order_lines ON true;\n"
		"SELECT new_order(1) FROM orders_x, warehouse";
	const char *want =
		"SELECT s.x FROM S.stock s JOIN B.item i ON true;\n"
		"update S.District SET d = 1; DELETE FROM\n\tS.new_order;\n"
		"INSERT INTO S.history VALUES ('from stock', 'it''s from orders');\n"
		"-- FROM customer\n"
		"SELECT * FROM other.stock; SELECT stock FROM t;\n"
		"SELECT 1 INTO v FROM \"stock\" JOIN order_lines ON true;\n"
		"SELECT new_order(1) FROM orders_x, warehouse";
	struct sbuf out = {0};
	char *got;
	int t;

	(void)state;
	for (t = 0; t < LOAD_TABLE_NR; t++)
		schemas[t] = t == LOAD_ITEM ? "B" : "S";
	/* a list after FROM is not followed: our statements name one
	 * table after each keyword */
	assert_int_equal(routes_qualify(sql, schemas, &out), 5);
	got = sbuf_take(&out);
	assert_string_equal(got, want);
	free(got);
	/* the real file: every table reference qualified, none left */
	assert_true(unqualified(schema_functions_sql) > 20);
	assert_true(routes_qualify(schema_functions_sql, schemas, &out) > 20);
	got = sbuf_take(&out);
	assert_int_equal(unqualified(got), 0);
	/* qualifying again finds nothing */
	assert_int_equal(routes_qualify(got, schemas, &out), 0);
	free(sbuf_take(&out));
	free(got);
}

static void test_w7_over_3(void **state)
{
	struct layout_ddl ddl;
	struct err err = {""};
	char *sql, want[160];
	int k;

	(void)state;
	build(LOAD_LAYOUT_WAREHOUSE, 7, 3, &ddl);
	assert_int_equal(routes_sql(&ddl, "\"public\"", schema_functions_sql,
				    &sql, &err),
			 0);
	assert_non_null(strstr(sql, "BEGIN;\n"));
	assert_non_null(strstr(sql, "COMMIT;\n"));
	assert_int_equal(
		fixture_count(sql, "CREATE TABLE \"public\".oltpmark_routes"),
		1);
	/* ranges as layout_warehouse_ranges() cuts 7 into 3: 3, 2, 2 */
	assert_non_null(strstr(sql, "VALUES (1, 3, 'oltpmark_p1', "
				    "'oltpmark_p1_remote')"));
	assert_non_null(strstr(sql, "VALUES (4, 5, 'oltpmark_p2', "
				    "'oltpmark_p2_remote')"));
	assert_non_null(strstr(sql, "VALUES (6, 7, 'oltpmark_p3', "
				    "'oltpmark_p3_remote')"));
	for (k = 1; k <= 3; k++) {
		/* home: the partition's tables; remote: STOCK's parent */
		snprintf(want, sizeof(want), "UPDATE oltpmark_p%d.stock\n", k);
		assert_int_equal(fixture_count(sql, want), 1);
		snprintf(want, sizeof(want), "UPDATE oltpmark_p%d.district ",
			 k);
		assert_int_equal(fixture_count(sql, want), 4);
		snprintf(want, sizeof(want),
			 "SELECT set_config('search_path', 'oltpmark_p%d, "
			 "\"public\"', true);",
			 k);
		assert_non_null(strstr(sql, want));
		snprintf(want, sizeof(want),
			 "SELECT set_config('search_path', "
			 "'oltpmark_p%d_remote, \"public\"', true);",
			 k);
		assert_non_null(strstr(sql, want));
	}
	assert_int_equal(fixture_count(sql, "UPDATE \"public\".stock\n"), 3);
	/* ITEM is not partitioned: every copy reads the one table */
	assert_int_equal(fixture_count(sql, "JOIN \"public\".item "), 6);
	/* functions.sql once per schema; no view, no search_path of
	 * their own, no table name left to the session's search_path */
	assert_int_equal(
		fixture_count(sql, "CREATE OR REPLACE FUNCTION new_order("), 6);
	assert_null(strstr(sql, "CREATE VIEW"));
	assert_null(strstr(sql, "SET search_path"));
	assert_int_equal(unqualified(sql), 0);
	/* the partitions' schemas come with their tables */
	assert_int_equal(fixture_count(sql, "CREATE SCHEMA "), 3);
	free(sql);
	layout_ddl_free(&ddl);
}

static void test_refused(void **state)
{
	struct layout_ddl ddl;
	struct err err = {""};
	char *sql = (char *)"untouched";

	(void)state;
	build(LOAD_LAYOUT_TABLE, 3, 3, &ddl);
	assert_int_equal(routes_sql(&ddl, "\"public\"", schema_functions_sql,
				    &sql, &err),
			 -EINVAL);
	assert_null(sql);
	assert_non_null(strstr(err.msg, "not a warehouse layout"));
	layout_ddl_free(&ddl);

	build(LOAD_LAYOUT_WAREHOUSE, 3, 3, &ddl);
	assert_int_equal(
		routes_sql(&ddl, "\"it's\"", schema_functions_sql, &sql, &err),
		-EINVAL);
	assert_non_null(strstr(err.msg, "single quote"));
	layout_ddl_free(&ddl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_routine_names),
		cmocka_unit_test(test_qualify),
		cmocka_unit_test(test_w7_over_3),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
