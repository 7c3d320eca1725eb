/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_routes.c - the warehouse layout's routes (src/load/routes.h),
 * generated from the real schema files: W=7 over 3 partitions gives
 * three ranges, each with a home schema holding a view over every
 * partitioned table's partition and a remote schema without STOCK and
 * CUSTOMER, a copy of functions.sql in each, every routine's
 * search_path fixed, and the route rows; other layouts and a schema
 * name with a quote are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/load/layout_ddl.h"
#include "src/load/load.h"
#include "src/load/routes.h"
#include "src/load/schema_sql.h"

static const char *const ts3[] = {"oltpmark_ts1", "oltpmark_ts2",
				  "oltpmark_ts3"};

/* How often needle occurs in hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

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
	assert_int_equal(count(sql, "CREATE TABLE \"public\".oltpmark_routes"),
			 1);
	/* ranges as layout_warehouse_ranges() cuts 7 into 3: 3, 2, 2 */
	assert_non_null(strstr(sql, "VALUES (1, 3, 'oltpmark_p1', "
				    "'oltpmark_p1_remote')"));
	assert_non_null(strstr(sql, "VALUES (4, 5, 'oltpmark_p2', "
				    "'oltpmark_p2_remote')"));
	assert_non_null(strstr(sql, "VALUES (6, 7, 'oltpmark_p3', "
				    "'oltpmark_p3_remote')"));
	/* 8 partitioned tables: 8 views at home, 6 in the remote schema */
	for (k = 1; k <= 3; k++) {
		snprintf(want, sizeof(want), "CREATE VIEW oltpmark_p%d.", k);
		assert_int_equal(count(sql, want), 8);
		snprintf(want, sizeof(want), "CREATE VIEW oltpmark_p%d_remote.",
			 k);
		assert_int_equal(count(sql, want), 6);
		snprintf(want, sizeof(want),
			 "CREATE VIEW oltpmark_p%d.stock AS SELECT * FROM "
			 "\"public\".stock_p%d;",
			 k, k);
		assert_non_null(strstr(sql, want));
		snprintf(want, sizeof(want),
			 "CREATE VIEW oltpmark_p%d_remote.stock ", k);
		assert_null(strstr(sql, want));
		snprintf(want, sizeof(want),
			 "CREATE VIEW oltpmark_p%d_remote.customer ", k);
		assert_null(strstr(sql, want));
		snprintf(want, sizeof(want),
			 "SELECT set_config('search_path', 'oltpmark_p%d, "
			 "\"public\"', true);",
			 k);
		assert_non_null(strstr(sql, want));
		snprintf(want, sizeof(want),
			 "ALTER ROUTINE oltpmark_p%d_remote.payment SET "
			 "search_path FROM CURRENT;",
			 k);
		assert_non_null(strstr(sql, want));
	}
	/* ITEM is not partitioned: no view, the copies find the table */
	assert_null(strstr(sql, ".item AS"));
	/* functions.sql once per schema, each routine's path fixed */
	assert_int_equal(count(sql, "CREATE OR REPLACE FUNCTION new_order("),
			 6);
	assert_int_equal(count(sql, "SET search_path FROM CURRENT;"), 6 * 6);
	assert_int_equal(count(sql, "CREATE SCHEMA "), 6);
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
		cmocka_unit_test(test_w7_over_3),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
