/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - the TPC-C consistency conditions (clause 3.3.2) of
 * schema/checks.sql, run in parallel over a few connections. What each
 * condition says and when it holds: docs/tpcc.md, Consistency conditions.
 *
 * checks.sql holds one query per condition, each after a line
 * "-- C<n>: <description>"; a query returns the keys of the rows that
 * violate its condition, so zero rows means the condition holds. C11
 * holds only until the first Delivery, so it is "not applicable" once
 * oltpmark_deliveries_ran() says one has run. Nothing here prints.
 */
#ifndef OLTPMARK_CHECK_H
#define OLTPMARK_CHECK_H

#include <stdbool.h>

#include "drivers/pgconn.h"
#include "src/base/err.h"

#define CHECK_MAX	     32 /* conditions in checks.sql, at most */
#define CHECK_FIRST_ROWS     3	/* violating rows quoted per condition */
#define CHECK_QUICK_LAST     4	/* --quick: C1..C4 (clause 3.3.3) */
#define CHECK_AFTER_DELIVERY 11 /* C11 holds only before any Delivery */

/* One condition of checks.sql. */
struct check_cond {
	int number;	/* n of "C<n>" */
	char desc[256]; /* the description after "C<n>: " */
	char *sql;	/* the query (owned) */
};

/*
 * Split checks.sql text into conditions, in file order. Returns the count
 * (>= 0) and fills conds (CHECK_MAX entries; free with check_conds_free),
 * or -EINVAL with err naming the bad line.
 */
int check_parse(const char *text, struct check_cond *conds, struct err *err);

/* Free what check_parse allocated. */
void check_conds_free(struct check_cond *conds, int n);

/* What became of one condition. */
enum check_status {
	CHECK_PASS,  /* no violating row */
	CHECK_FAIL,  /* at least one violating row */
	CHECK_NA,    /* not applicable (C11 after a Delivery) */
	CHECK_ERROR, /* the query failed */
};

/* Result of one condition. */
struct check_outcome {
	int number;		  /* n of "C<n>" */
	char desc[256];		  /* its description */
	enum check_status status; /* see above */
	long long rows;		  /* violating rows (CHECK_FAIL) */
	char first[320];	  /* "(1,3,2245), (1,4,7)" : the first rows */
	char error[256];	  /* CHECK_ERROR: the server's message */
	double seconds;		  /* how long the query took */
};

/* What to check. */
struct check_opts {
	const char *conninfo; /* as pgconn_validate takes it; "" = PG* */
	bool quick;	      /* only C1..C4 */
	int jobs;	      /* parallel connections, at least 1 */
};

/*
 * Check the database: refuse it unless oltpmark_meta says 'loaded'
 * (-ENOENT: no oltpmark_meta, "not an oltpmark database"; -EBUSY: the
 * load did not finish), then run the conditions of schema/checks.sql on
 * opts->jobs connections. Fills out[] (CHECK_MAX entries) in condition
 * order and returns how many; a failed condition is not an error of this
 * function. Returns a negative errno with err set when the check itself
 * could not run (connection, meta, a bad checks.sql).
 */
int check_run(const struct check_opts *opts, struct check_outcome *out,
	      struct err *err);

/*
 * Connect to conninfo and read oltpmark_meta into meta, whatever its
 * status says (`oltpmark check --meta`: scripts ask it whether a database
 * holds the load they want), and when layout_map is not NULL the JSON of
 * oltpmark_meta.layout_map into *layout_map (malloc'ed, the caller frees
 * it; NULL when the column is). 0; -ENOENT for a database without the
 * meta row; another negative errno when the connection or the query
 * failed. err says which.
 */
int check_read_meta(const char *conninfo, struct pgconn_meta *meta,
		    char **layout_map, struct err *err);

#endif
