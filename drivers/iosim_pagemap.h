/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_pagemap.h - from a transaction's inputs to the 8 KiB pages it
 * touches in each relation file, and from those to the reads and dirtied
 * pages the I/O profile says it costs.
 *
 * The same key always maps to the same page, in every run: a STOCK row
 * (w, i) lies at row index (w-1)*100000 + (i-1) of the table, so on page
 * index * pages / rows; CUSTOMER (w, d, c) likewise; an index entry on
 * the leaf that holds its key's position in key order. The pages are
 * therefore as skewed as the inputs (NURand) are, and a page cache sees
 * the same hot set as PostgreSQL's. The growing tables (ORDERS,
 * NEW-ORDER, ORDER-LINE, HISTORY and their indexes) are split into one
 * region per district; a district's rows are appended in its region,
 * wrapping at its end, so the file keeps its size and the newest orders
 * overwrite the oldest, as a table of steady size would.
 *
 * What is not in the inputs comes from a small shared state per
 * district: the next order id (New-Order), the oldest undelivered one
 * (Delivery), the history rows appended (Payment) and the items of the
 * last 20 orders (Stock-Level reads their stock rows). The state is
 * atomic integers: any thread may touch, none waits.
 *
 * The profile then decides how many of the touched pages are read from
 * the files and how many are dirtied: per relation, its measured blocks
 * per call, fractional counts carried from one call to the next per
 * connection so that the average is exact (iosim_pagemap_plan()).
 */
#ifndef OLTPMARK_IOSIM_PAGEMAP_H
#define OLTPMARK_IOSIM_PAGEMAP_H

#include <stdatomic.h>
#include <stdint.h>

#include "drivers/iosim_profile.h"
#include "src/base/err.h"
#include "src/base/tpcc_random.h"
#include "src/base/txn.h"

#define IOSIM_PAGEMAP_MAX_TOUCH \
	320 /* pages of one relation per call:
					Stock-Level's 20 orders × 15 lines
					are the most */
#define IOSIM_PAGEMAP_MAX_IO \
	1024			  /* reads (or dirtied pages) planned
					for one call */
#define IOSIM_PAGEMAP_RECENT 20	  /* orders a Stock-Level looks at */
#define IOSIM_PAGEMAP_NAMES  1000 /* C_LAST values (clause 4.3.2.3) */

/* Where a relation's pages are in its file. */
struct iosim_pagemap_rel {
	uint32_t pages;	      /* the file's size in pages */
	double rows_per_page; /* rows, or index entries, per page */
	uint32_t data_first;  /* first page of rows (an index's first leaf) */
	uint32_t data_pages;  /* pages of rows (an index's leaves) */
};

/* The items of one recent order, for Stock-Level. */
struct iosim_pagemap_order {
	atomic_int ol_cnt;		/* its lines */
	atomic_int i_id[TXN_MAX_LINES]; /* their items */
};

/* The state of one district that the inputs do not carry. */
struct iosim_pagemap_district {
	_Alignas(64) atomic_int next_o_id; /* D_NEXT_O_ID: 3001 after load */
	atomic_int next_delivery;	   /* oldest undelivered: 2101 */
	atomic_int next_h;		   /* history rows: 3000 after load */
	struct iosim_pagemap_order recent[IOSIM_PAGEMAP_RECENT]; /* by
								    o_id %
								    20 */
};

/* A pagemap: built once per run from the profile, shared by threads. */
struct iosim_pagemap {
	int warehouses; /* W of the profile: the files' rows */
	struct iosim_pagemap_rel rel[IOSIM_PROFILE_REL_NR];    /* geometry */
	double reads_per_call[TXN_NR][IOSIM_PROFILE_REL_NR];   /* profile */
	double dirtied_per_call[TXN_NR][IOSIM_PROFILE_REL_NR]; /* profile */
	char names[IOSIM_PAGEMAP_NAMES][TPCC_C_LAST_MAX];      /* C_LAST by
							     alphabetical
							     rank */
	int16_t name_of_rank[IOSIM_PAGEMAP_NAMES]; /* the number of each */
	int16_t rank_of_name[IOSIM_PAGEMAP_NAMES]; /* and back */
	struct iosim_pagemap_district *district;   /* W × 10, by
						    (w-1)*10 + d-1 */
};

/*
 * The pages one call touched, per relation, in the order they would be
 * read. Large (about 24 KiB): keep one per connection, not on a stack.
 */
struct iosim_pagemap_touch {
	enum txn_type type;		  /* the call's type */
	int w_id;			  /* its home warehouse */
	uint16_t n[IOSIM_PROFILE_REL_NR]; /* pages per relation */
	uint32_t page[IOSIM_PROFILE_REL_NR][IOSIM_PAGEMAP_MAX_TOUCH];
};

/* One connection's fractional reads and dirtied pages still owed. */
struct iosim_pagemap_carry {
	double read[TXN_NR][IOSIM_PROFILE_REL_NR];  /* in [0, 1) */
	double dirty[TXN_NR][IOSIM_PROFILE_REL_NR]; /* in [0, 1) */
};

/* One page of one relation file. */
struct iosim_pagemap_page {
	uint32_t rel;  /* enum iosim_profile_rel */
	uint32_t page; /* within the relation's file */
};

/* What one call costs: the pages to read, and the pages it dirties. */
struct iosim_pagemap_io {
	unsigned nread;	 /* entries of read[] */
	unsigned ndirty; /* entries of dirty[] */
	struct iosim_pagemap_page read[IOSIM_PAGEMAP_MAX_IO];
	struct iosim_pagemap_page dirty[IOSIM_PAGEMAP_MAX_IO];
};

/*
 * Build map from prof (a validated profile) for a run of warehouses
 * warehouses, which must not be more than the profile's: its files hold
 * the rows of prof->warehouses. Returns 0, -ERANGE with err set for too
 * many warehouses, or -ENOMEM. Free with iosim_pagemap_free().
 */
int iosim_pagemap_init(struct iosim_pagemap *map,
		       const struct iosim_profile *prof, int warehouses,
		       struct err *err);

/* Free what init allocated. Safe after a failed init and twice. */
void iosim_pagemap_free(struct iosim_pagemap *map);

/*
 * The pages in executes touches, into t; advances the district state as
 * the transaction would (a New-Order that commits takes an order id and
 * records its items, a Delivery takes the oldest undelivered orders, a
 * Payment appends a history row). Inputs out of range are clamped, so a
 * page is always within its file. Thread-safe for distinct t.
 */
void iosim_pagemap_touch(struct iosim_pagemap *map, const struct txn_input *in,
			 struct iosim_pagemap_touch *t);

/*
 * The j-th page to use of rel for the call t: the touched pages in
 * turn, then each again one page further on; the home warehouse's first
 * page of rel when the call touched none (the profile measured blocks
 * the map has no key for). Always less than the relation's pages.
 */
uint32_t iosim_pagemap_pick(const struct iosim_pagemap *map,
			    const struct iosim_pagemap_touch *t,
			    enum iosim_profile_rel rel, unsigned j);

/*
 * The reads and dirtied pages of the call t: per relation, the profile's
 * blocks per call of t->type plus what carry owes, the whole part now
 * and the fraction carried to the next call; the pages by
 * iosim_pagemap_pick(). At most IOSIM_PAGEMAP_MAX_IO of each (beyond
 * that the call is cut, which no measured profile comes near).
 * Thread-safe for distinct carry and io.
 */
void iosim_pagemap_plan(const struct iosim_pagemap *map,
			const struct iosim_pagemap_touch *t,
			struct iosim_pagemap_carry *carry,
			struct iosim_pagemap_io *io);

#endif
