/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout.h - where the relations of a database spread over several
 * directories (tablespaces, one per device) go: pure arithmetic for the
 * loader, no database, no I/O.
 *
 * Two layouts. "table" places whole relations, largest first, each on the
 * directory with the fewest expected bytes so far (greedy LPT), an index
 * apart from its table when there are two directories or more. "warehouse"
 * range-partitions the per-warehouse tables by warehouse id, one range of
 * about W/D warehouses per device. Both need the expected size of each
 * relation, which layout_tpcc_relations() estimates from the row widths
 * of schema/tables.sql (docs/layout.md has the numbers).
 */
#ifndef OLTPMARK_LAYOUT_H
#define OLTPMARK_LAYOUT_H

#include <stdint.h>

#include "src/base/err.h"

/* What a relation is. */
enum layout_kind {
	LAYOUT_TABLE, /* a heap */
	LAYOUT_INDEX, /* a B-tree on one table */
};

/* One relation to place. */
struct layout_rel {
	const char *name;      /* SQL name, unique among the relations */
	enum layout_kind kind; /* table or index */
	const char *table;     /* an index's table, one of the relations;
				  NULL for a table */
	int64_t bytes;	       /* expected size, at least 0 */
};

/*
 * The "table" layout: give each of rels[0..nrels) a directory
 * dir[i] in 0..ndirs-1 so that the expected bytes per directory are as
 * even as whole relations allow.
 *
 * Relations are taken largest first (ties: by name, so the result does not
 * depend on the order of rels), each onto the directory with the fewest
 * bytes so far (ties: the lowest number); an index whose table is not
 * placed yet waits and is placed right after its table. With two
 * directories or more an index goes to the directory with the fewest
 * bytes *other than its table's*: the cost is that it may land on the
 * second-least-loaded directory instead of the least, never more, and in
 * exchange an index scan and the heap fetches it drives are on two
 * devices. The result is deterministic for a given set of relations.
 *
 * Returns 0, -EINVAL (ndirs < 1, nrels < 0, a NULL or duplicate name,
 * negative bytes, an index whose table is missing or is an index, a
 * table with a table) or -ENOMEM, with err saying which. Thread-safe.
 */
int layout_table(const struct layout_rel *rels, int nrels, int ndirs, int *dir,
		 struct err *err);

/*
 * Sum the expected bytes of rels[0..nrels) placed on dir[] into
 * bytes[0..ndirs). Entries of dir outside 0..ndirs-1 are not counted.
 */
void layout_dir_bytes(const struct layout_rel *rels, int nrels, const int *dir,
		      int ndirs, int64_t *bytes);

/* Warehouses lo..hi-1: as PostgreSQL's FOR VALUES FROM (lo) TO (hi). */
struct layout_range {
	int lo; /* first warehouse id of the range (ids count from 1) */
	int hi; /* one past the last */
};

/*
 * The "warehouse" layout: warehouses 1..W in D consecutive ranges
 * ranges[0..D), as even as possible: the first W mod D ranges hold
 * ceil(W/D) warehouses, the others floor(W/D) (W=7, D=3: 1-3, 4-5, 6-7).
 * Returns 0, or -EINVAL when W < 1, D < 1 or D > W (a device would get no
 * warehouse), with err saying which.
 */
int layout_warehouse_ranges(int warehouses, int devices,
			    struct layout_range *ranges, struct err *err);

/*
 * The range (0..D-1) that holds warehouse w_id (1..W) in the layout of
 * layout_warehouse_ranges(), or -EINVAL for arguments it refuses or a
 * w_id outside 1..W.
 */
int layout_warehouse_device(int warehouses, int devices, int w_id);

/* Number of TPC-C relations layout_tpcc_relations() describes. */
#define LAYOUT_TPCC_RELS 19

/*
 * The nine TPC-C tables and the ten indexes of schema/indexes.sql, with
 * their expected on-disk size (main fork, as pg_relation_size) right
 * after a load of W warehouses, into rels[0..max). Names are static
 * strings. Returns the count (LAYOUT_TPCC_RELS), or -EINVAL for W < 1 or
 * -E2BIG for max < LAYOUT_TPCC_RELS. Thread-safe.
 */
int layout_tpcc_relations(int warehouses, struct layout_rel *rels, int max,
			  struct err *err);

/*
 * Bytes of a PostgreSQL heap of rows tuples of tuple_bytes each (header
 * included, aligned; without the 4-byte line pointer) on 8 KiB pages
 * filled completely (COPY into a new table): 0 for no rows.
 */
int64_t layout_heap_bytes(int64_t rows, int tuple_bytes);

/*
 * Bytes of a B-tree of rows entries of tuple_bytes each (index tuple
 * header included, aligned) as CREATE INDEX builds it: leaves 90 % full,
 * internal pages 70 %, plus the metapage; at least 2 pages.
 */
int64_t layout_btree_bytes(int64_t rows, int tuple_bytes);

#endif
