/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_layout_ddl.c - the SQL of the three layouts, generated from the
 * real schema/tables.sql and schema/indexes.sql: the single-directory
 * layout gives the files back byte for byte; the table layout names
 * every relation once with the tablespace layout_table() chose for it;
 * the warehouse layout gives the FOR VALUES bounds of
 * layout_warehouse_ranges() and builds every key per partition in the
 * partition's tablespace; and statements of a shape it does not know
 * are refused rather than placed wrongly.
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

#include "src/load/layout.h"
#include "src/load/layout_ddl.h"
#include "src/load/load.h"
#include "src/load/schema_sql.h"
#include "tests/unit/fixture_util.h"

static const char *const ts3[] = {"oltpmark_ts1", "oltpmark_ts2",
				  "oltpmark_ts3"};

/*
 * The tablespace that the generated SQL gives relation name, found as
 * the word after "TABLESPACE" in the statement that creates it (the
 * table DDL, or the index statement naming it); "" when none; fails when
 * the relation is created twice.
 */
static void placed(const struct layout_ddl *ddl, const char *name, char *ts)
{
	char head[128];
	const char *p, *end;
	int found = 0, i;

	ts[0] = '\0';
	snprintf(head, sizeof(head), "CREATE TABLE %s ", name);
	for (p = ddl->tables_sql; (p = strstr(p, head)); p += strlen(head)) {
		end = strchr(p, ';');
		assert_non_null(end);
		for (const char *q = p;
		     (q = strstr(q, "TABLESPACE ")) && q < end; q += 11)
			sscanf(q + 11, "%31[a-z0-9_]", ts);
		found++;
	}
	for (i = 0; i < ddl->nindexes; i++) {
		const char *sql = ddl->indexes[i].sql, *q;

		if (strcmp(ddl->indexes[i].index, name) != 0)
			continue;
		q = strstr(sql, "TABLESPACE ");
		if (q)
			sscanf(q + 11, "%31[a-z0-9_]", ts);
		found++;
	}
	if (found != 1)
		fail_msg("%s is created %d times", name, found);
}

static void test_single_is_the_files(void **state)
{
	struct layout_ddl ddl;
	struct err err = {""};
	char *stmts[64];
	int n, i;

	(void)state;
	assert_int_equal(layout_ddl_build(LOAD_LAYOUT_SINGLE, 5, NULL, 0,
					  schema_tables_sql, schema_indexes_sql,
					  schema_analyze_sql, &ddl, &err),
			 0);
	assert_string_equal(ddl.tables_sql, schema_tables_sql);
	assert_int_equal(ddl.nunits, LOAD_TABLE_NR);
	for (i = 0; i < LOAD_TABLE_NR; i++) {
		assert_string_equal(ddl.units[i].name,
				    load_table_info(i)->name);
		assert_int_equal(ddl.units[i].w_first, 1);
		assert_int_equal(ddl.units[i].w_last, i == LOAD_ITEM ? 1 : 5);
		assert_int_equal(ddl.units[i].tablespace, -1);
	}
	n = load_split_statements(schema_indexes_sql, stmts, 64);
	assert_int_equal(ddl.nindexes, n);
	for (i = 0; i < n; i++) {
		assert_string_equal(ddl.indexes[i].sql, stmts[i]);
		assert_int_equal(ddl.indexes[i].table,
				 load_statement_table(stmts[i]));
		assert_false(ddl.indexes[i].attach);
		free(stmts[i]);
	}
	n = load_split_statements(schema_analyze_sql, stmts, 64);
	assert_int_equal(ddl.nanalyzes, n);
	for (i = 0; i < n; i++) {
		assert_string_equal(ddl.analyzes[i].sql, stmts[i]);
		assert_int_equal(ddl.analyzes[i].unit, -1);
		free(stmts[i]);
	}
	layout_ddl_free(&ddl);
	assert_null(ddl.tables_sql);
}

static void test_table_layout_w3(void **state)
{
	struct layout_rel rels[LAYOUT_TPCC_RELS];
	int dir[LAYOUT_TPCC_RELS];
	struct layout_ddl ddl;
	struct err err = {""};
	char ts[32], want[32], table_ts[32];
	int n, i;

	(void)state;
	assert_int_equal(layout_ddl_build(LOAD_LAYOUT_TABLE, 3, ts3, 3,
					  schema_tables_sql, schema_indexes_sql,
					  schema_analyze_sql, &ddl, &err),
			 0);
	n = layout_tpcc_relations(3, rels, LAYOUT_TPCC_RELS, &err);
	assert_int_equal(n, LAYOUT_TPCC_RELS);
	assert_int_equal(layout_table(rels, n, 3, dir, &err), 0);
	/* nine tables and ten indexes: every relation once, with its dir */
	assert_int_equal(fixture_count(ddl.tables_sql, "CREATE TABLE "), 9);
	assert_int_equal(
		fixture_count(ddl.tables_sql, " TABLESPACE oltpmark_ts"), 9);
	assert_int_equal(ddl.nindexes, 10);
	for (i = 0; i < n; i++) {
		placed(&ddl, rels[i].name, ts);
		snprintf(want, sizeof(want), "oltpmark_ts%d", dir[i] + 1);
		if (strcmp(ts, want) != 0)
			fail_msg("%s: in '%s', layout_table says %s",
				 rels[i].name, ts, want);
		if (rels[i].kind == LAYOUT_INDEX) {
			placed(&ddl, rels[i].table, table_ts);
			if (strcmp(ts, table_ts) == 0)
				fail_msg("%s is with its table in %s",
					 rels[i].name, ts);
		}
	}
	/* a key's tablespace is its index's; an index's its own clause */
	for (i = 0; i < ddl.nindexes; i++) {
		const char *sql = ddl.indexes[i].sql;

		if (strncmp(sql, "ALTER TABLE", 11) == 0)
			assert_non_null(
				strstr(sql, " USING INDEX TABLESPACE "));
		else
			assert_null(strstr(sql, "USING INDEX"));
		assert_int_equal(ddl.indexes[i].unit, ddl.indexes[i].table);
		assert_false(ddl.indexes[i].attach);
	}
	/* the columns are tables.sql's own */
	assert_non_null(strstr(ddl.tables_sql,
			       "CREATE TABLE new_order (\n"
			       "\tno_o_id integer NOT NULL,\n"
			       "\tno_d_id integer NOT NULL,\n"
			       "\tno_w_id integer NOT NULL\n) TABLESPACE "));
	assert_int_equal(ddl.nunits, LOAD_TABLE_NR);
	layout_ddl_free(&ddl);
}

static void test_warehouse_layout_w7(void **state)
{
	/* W=7 over 3: 1-3, 4-5, 6-7 */
	static const int lo[] = {1, 4, 6}, hi[] = {4, 6, 8};
	struct layout_ddl ddl;
	struct err err = {""};
	char want[256], name[64];
	int t, k, i, builds = 0, attaches = 0;

	(void)state;
	assert_int_equal(layout_ddl_build(LOAD_LAYOUT_WAREHOUSE, 7, ts3, 3,
					  schema_tables_sql, schema_indexes_sql,
					  schema_analyze_sql, &ddl, &err),
			 0);
	assert_int_equal(ddl.nunits, 8 * 3 + 1);
	/* the partitions' schemas first, one per directory */
	assert_int_equal(strncmp(ddl.tables_sql,
				 "CREATE SCHEMA oltpmark_p1;\n"
				 "CREATE SCHEMA oltpmark_p2;\n"
				 "CREATE SCHEMA oltpmark_p3;\n"
				 "CREATE TABLE ",
				 94),
			 0);
	assert_int_equal(fixture_count(ddl.tables_sql, "CREATE SCHEMA "), 3);
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		const struct load_table_info *ti = load_table_info(t);

		if (t == LOAD_ITEM) {
			assert_non_null(strstr(ddl.tables_sql,
					       ") TABLESPACE oltpmark_ts1;\n"));
			continue;
		}
		snprintf(want, sizeof(want), ") PARTITION BY RANGE (%s);\n",
			 ti->w_column);
		assert_non_null(strstr(ddl.tables_sql, want));
		for (k = 0; k < 3; k++) {
			snprintf(want, sizeof(want),
				 "CREATE TABLE oltpmark_p%d.%s PARTITION OF %s "
				 "FOR VALUES FROM (%d) TO (%d) TABLESPACE "
				 "oltpmark_ts%d;\n",
				 k + 1, ti->name, ti->name, lo[k], hi[k],
				 k + 1);
			if (!strstr(ddl.tables_sql, want))
				fail_msg("no '%s'", want);
		}
		snprintf(want, sizeof(want), ".%s PARTITION OF ", ti->name);
		assert_int_equal(fixture_count(ddl.tables_sql, want), 3);
	}
	/* units: each partition's warehouses, in its tablespace */
	for (i = 0; i < ddl.nunits; i++) {
		const struct layout_ddl_unit *u = &ddl.units[i];

		if (u->table == LOAD_ITEM) {
			assert_string_equal(u->name, "item");
			assert_int_equal(u->tablespace, 0);
			continue;
		}
		k = u->tablespace;
		snprintf(name, sizeof(name), "oltpmark_p%d.%s", k + 1,
			 load_table_info(u->table)->name);
		assert_string_equal(u->name, name);
		assert_int_equal(u->w_first, lo[k]);
		assert_int_equal(u->w_last, hi[k] - 1);
	}
	/* each key per partition in the partition's tablespace, then the
	 * statement of indexes.sql itself; item's key once, in the first */
	for (i = 0; i < ddl.nindexes; i++) {
		const struct layout_ddl_stmt *s = &ddl.indexes[i];

		if (s->attach) {
			attaches++;
			assert_int_equal(s->unit, -1);
			assert_null(strstr(s->sql, "TABLESPACE"));
			continue;
		}
		builds++;
		snprintf(want, sizeof(want), " TABLESPACE oltpmark_ts%d",
			 s->tablespace + 1);
		assert_non_null(strstr(s->sql, want));
		assert_non_null(strstr(s->sql, ddl.units[s->unit].name));
		if (s->table != LOAD_ITEM) {
			/* in the partition's schema, under its own name */
			assert_int_equal(ddl.units[s->unit].tablespace,
					 s->tablespace);
			snprintf(want, sizeof(want), "oltpmark_p%d.",
				 s->tablespace + 1);
			assert_int_equal(strncmp(s->index, want, strlen(want)),
					 0);
			assert_null(strstr(s->index, "_p1_"));
		}
	}
	assert_int_equal(attaches, 9);
	assert_int_equal(builds, 9 * 3 + 1);
	assert_non_null(strstr(ddl.indexes[0].sql,
			       "ALTER TABLE oltpmark_p1.order_line ADD "
			       "CONSTRAINT order_line_pkey PRIMARY KEY ("));
	assert_string_equal(ddl.indexes[0].index,
			    "oltpmark_p1.order_line_pkey");
	/* ANALYZE per partition at a third of the target; item whole */
	assert_int_equal(ddl.nanalyzes, 8 * 3 + 1);
	for (i = 0, k = 0; i < ddl.nanalyzes; i++) {
		const struct layout_ddl_stmt *s = &ddl.analyzes[i];

		if (s->table == LOAD_ITEM) {
			assert_int_equal(s->unit, -1);
			assert_int_equal(
				strncmp(s->sql, "ANALYZE item (i_id);", 20), 0);
			continue;
		}
		assert_true(s->unit >= 0);
		snprintf(want, sizeof(want), "ANALYZE %s ",
			 ddl.units[s->unit].name);
		assert_non_null(strstr(s->sql, want));
		assert_non_null(strstr(s->sql, "::numeric / 3))"));
		assert_non_null(strstr(s->sql, "RESET default_statistics_"));
		if (strstr(s->sql, "ANALYZE oltpmark_p2.stock (s_w_id, "
				   "s_i_id, s_quantity);"))
			k++;
	}
	assert_int_equal(k, 1);
	layout_ddl_free(&ddl);
}

static void test_warehouse_one_dir_each(void **state)
{
	struct layout_ddl ddl;
	struct err err = {""};

	(void)state;
	/* as many directories as warehouses: one warehouse each */
	assert_int_equal(layout_ddl_build(LOAD_LAYOUT_WAREHOUSE, 3, ts3, 3,
					  schema_tables_sql, schema_indexes_sql,
					  schema_analyze_sql, &ddl, &err),
			 0);
	assert_non_null(strstr(ddl.tables_sql,
			       "CREATE TABLE oltpmark_p3.stock PARTITION OF "
			       "stock FOR VALUES FROM (3) TO (4) TABLESPACE "
			       "oltpmark_ts3;"));
	layout_ddl_free(&ddl);
	/* more: refused */
	assert_int_equal(layout_ddl_build(LOAD_LAYOUT_WAREHOUSE, 2, ts3, 3,
					  schema_tables_sql, schema_indexes_sql,
					  schema_analyze_sql, &ddl, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "3 devices for 2 warehouses"));
	assert_null(ddl.tables_sql);
}

/* Inputs the generator must refuse, and a word of the reason. */
static const struct {
	enum load_layout layout;
	int ntablespaces;
	const char *tables; /* NULL: tables.sql */
	const char *indexes;
	const char *analyze; /* NULL: analyze.sql */
	const char *words;
} refused[] = {
	{LOAD_LAYOUT_SINGLE, 2, NULL, "", NULL, "tablespaces"},
	{LOAD_LAYOUT_TABLE, 0, NULL, "", NULL, "tablespaces"},
	{LOAD_LAYOUT_TABLE, 2, NULL,
	 "CREATE INDEX stock_x ON stock (s_w_id) WHERE s_w_id > 1", NULL,
	 "cannot place"},
	{LOAD_LAYOUT_TABLE, 2, NULL, "CLUSTER stock", NULL, "cannot place"},
	{LOAD_LAYOUT_TABLE, 2, NULL, "CREATE INDEX stock_x ON stock (s_w_id)",
	 NULL, "no expected size of index stock_x"},
	{LOAD_LAYOUT_WAREHOUSE, 2, NULL, "CREATE INDEX x ON nosuch (a)", NULL,
	 "not one of our tables"},
	{LOAD_LAYOUT_TABLE, 2, "CREATE TABLE warehouse (w_id int);", "", NULL,
	 "no table district"},
	{LOAD_LAYOUT_TABLE, 2, "CREATE VIEW v AS SELECT 1;", "", NULL,
	 "not CREATE TABLE"},
	{LOAD_LAYOUT_TABLE, 2, "CREATE TABLE stock (a int) WITH (x=1);", "",
	 NULL, "after the column list"},
	{LOAD_LAYOUT_WAREHOUSE, 2, NULL, "", "ANALYZE pg_class",
	 "no table of ours"},
	{LOAD_LAYOUT_WAREHOUSE, 2, NULL, "", "ANALYZE stock, customer",
	 "cannot place"},
	{LOAD_LAYOUT_WAREHOUSE, 2, NULL, "", "ANALYZE stock (s_w_id) extra",
	 "cannot place"},
};

static void test_refused(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct layout_ddl ddl;
		struct err err = {""};
		int rc;

		rc = layout_ddl_build(refused[i].layout, 4, ts3,
				      refused[i].ntablespaces,
				      refused[i].tables ? refused[i].tables
							: schema_tables_sql,
				      refused[i].indexes,
				      refused[i].analyze ? refused[i].analyze
							 : schema_analyze_sql,
				      &ddl, &err);
		if (rc != -EINVAL || !strstr(err.msg, refused[i].words))
			fail_msg("case %zu: rc %d, '%s'", i, rc, err.msg);
		assert_null(ddl.units);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_is_the_files),
		cmocka_unit_test(test_table_layout_w3),
		cmocka_unit_test(test_warehouse_layout_w7),
		cmocka_unit_test(test_warehouse_one_dir_each),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
