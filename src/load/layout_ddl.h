/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_ddl.h - the SQL that puts the TPC-C relations where a layout
 * (layout.h) says: the tables of schema/tables.sql with a TABLESPACE or
 * range-partitioned by warehouse, and the keys and indexes of
 * schema/indexes.sql in their tablespace, per partition where there are
 * partitions. Pure text work, no database: the loader (load.c) runs what
 * it gives.
 *
 * The single-directory layout gives back the schema files' own text,
 * byte for byte. The others are generated from the statements of those
 * files, whose shapes (CREATE TABLE name (...); ALTER TABLE name ADD
 * CONSTRAINT key PRIMARY KEY (...); CREATE [UNIQUE] INDEX name ON table
 * (...)) are all it knows: anything else is refused, so a change to the
 * schema files cannot be placed wrongly without a failing test.
 */
#ifndef OLTPMARK_LAYOUT_DDL_H
#define OLTPMARK_LAYOUT_DDL_H

#include <stdbool.h>

#include "src/base/err.h"
#include "src/load/load.h"

/* Longest relation name we make ("oltpmark_p32.order_line_pkey"). */
#define LAYOUT_DDL_NAME_MAX 64

/*
 * The schema of the warehouse layout's partition k (from 1): its tables
 * carry their parents' names there (oltpmark_p2.stock), so that a
 * function whose search_path starts with the schema reads the partition
 * as it would the table (routes.h).
 */
#define LAYOUT_DDL_PART_SCHEMA "oltpmark_p%d"

/*
 * One relation the loader fills with one COPY: a table, or in the
 * warehouse layout one partition of a table.
 */
struct layout_ddl_unit {
	char name[LAYOUT_DDL_NAME_MAX]; /* "stock", or "oltpmark_p2.stock" */
	enum load_table table;		/* whose rows */
	int w_first, w_last;		/* warehouses whose rows go here,
					   inclusive (item: 1, 1) */
	int tablespace;			/* index into the tablespaces; -1:
					   the database's default */
};

/* One statement of keys and indexes, run after the COPYs. */
struct layout_ddl_stmt {
	char *sql;	/* the statement (owned) */
	int table;	/* enum load_table it works on; -1: none of ours */
	int unit;	/* the unit whose index it builds; -1: the whole
				table (or none) */
	bool attach;	/* the index over a partitioned table, made of
				the partitions' indexes: runs after every
				statement of the same group */
	int group;	/* which statement of indexes.sql it comes from */
	int tablespace; /* where the index goes; -1: the default */
	char index[LAYOUT_DDL_NAME_MAX]; /* the index's name, with its
					    schema if not the tables' ("" unknown) */
};

/* Everything a load in one layout runs to create its relations. */
struct layout_ddl {
	enum load_layout layout;       /* which layout */
	int warehouses;		       /* W */
	int ntablespaces;	       /* directories, 0 for SINGLE */
	char *tables_sql;	       /* the CREATE TABLE statements (owned) */
	struct layout_ddl_unit *units; /* the COPY targets, grouped by
					    table in enum load_table order,
					    partitions in order (owned) */
	int nunits;		       /* entries in units */
	struct layout_ddl_stmt *indexes;  /* keys and indexes (owned) */
	int nindexes;			  /* entries in indexes */
	struct layout_ddl_stmt *analyzes; /* ANALYZE statements (owned);
					     .unit -1: the whole table */
	int nanalyzes;			  /* entries in analyzes */
};

/*
 * Build the DDL of layout for warehouses W over ntablespaces tablespaces
 * named tablespaces[0..ntablespaces) (SQL identifiers we chose: they are
 * not quoted) from the text of schema/tables.sql, schema/indexes.sql and
 * schema/analyze.sql.
 *
 * SINGLE (ntablespaces must be 0): tables_sql is tables_sql as given,
 * one unit per table, and the statements of indexes_sql as
 * load_split_statements() cuts them.
 * TABLE: each table gets "TABLESPACE ts" and each key "USING INDEX
 * TABLESPACE ts", each index "TABLESPACE ts", as layout_table() places
 * them by the sizes of layout_tpcc_relations(W).
 * WAREHOUSE: ITEM and its key in the first tablespace; every other table
 * "PARTITION BY RANGE (its w_column)" with partition k (k from 1), in
 * schema oltpmark_pk under the table's own name (the statements start by
 * creating the D schemas), FOR VALUES FROM (lo) TO (hi) of
 * layout_warehouse_ranges(W, D) in tablespace k; each key and index is
 * built per partition in the partition's tablespace (under the index's
 * own name, in the partition's schema: oltpmark_p2.stock_pkey), then
 * made on the whole table by the statement of indexes.sql unchanged,
 * which adopts the partitions' indexes instead of building new ones.
 *
 * ANALYZE: the statements of analyze_sql as they are (each on a whole
 * table), except in the warehouse layout, where a partitioned table is
 * analyzed partition by partition, each at a statistics target divided
 * by the number of partitions (at least 10): together they sample as many
 * rows as one ANALYZE of the table would. (PostgreSQL 15's ANALYZE of a
 * partitioned table samples the whole table and then every partition
 * again, D + 1 times the work; the partitioned table itself is left
 * without statistics, which no plan of the transactions reads: they
 * always name a warehouse, and so one partition.)
 *
 * Returns 0 and fills ddl (free it with layout_ddl_free), or -EINVAL
 * (a statement of an unknown shape, a relation the sizes do not know,
 * more tablespaces than warehouses in the warehouse layout, a count that
 * does not fit the layout) or -ENOMEM, with err saying which; ddl is then
 * empty. Thread-safe.
 */
int layout_ddl_build(enum load_layout layout, int warehouses,
		     const char *const *tablespaces, int ntablespaces,
		     const char *tables_sql, const char *indexes_sql,
		     const char *analyze_sql, struct layout_ddl *ddl,
		     struct err *err);

/* Free what layout_ddl_build allocated; ddl is left empty. */
void layout_ddl_free(struct layout_ddl *ddl);

#endif
