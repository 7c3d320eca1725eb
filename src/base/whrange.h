/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * whrange.h - a contiguous range of home warehouses, FIRST..LAST: the
 * share of one `oltpmark run` when several drivers (load generators)
 * run one benchmark together (docs/run.md, "Several drivers"). Read
 * from `--warehouse-range` as FIRST-LAST or as K/N (the K-th of N
 * near-equal ranges of 1..W), and checked again by `oltpmark merge`,
 * whose parts must cover 1..W exactly once, in order.
 */
#ifndef OLTPMARK_WHRANGE_H
#define OLTPMARK_WHRANGE_H

#include "src/base/err.h"

/* Warehouses first..last, 1-based, both included. */
struct whrange {
	int first; /* lowest home warehouse */
	int last;  /* highest, >= first */
};

/*
 * Read s, "FIRST-LAST" or "K/N", against w warehouses: the range must
 * lie within 1..w (K/N: 1 <= K <= N <= w). 0, or -EINVAL with err set
 * to one line that names s (the caller adds the option's name).
 */
int whrange_parse(const char *s, int w, struct whrange *out, struct err *err);

/*
 * The k-th (1-based) of n contiguous ranges that split 1..w: sizes
 * differ by at most one, the larger ones first. Needs 1 <= k <= n <= w.
 */
struct whrange whrange_split(int w, int n, int k);

/* Warehouses in r. */
static inline int whrange_count(const struct whrange *r)
{
	return r->last - r->first + 1;
}

/*
 * Check that r[0..n-1], in any order, cover 1..w once each: no overlap,
 * no gap. 0, or -EINVAL with err naming the first two ranges that
 * overlap or the first warehouse missing. order, when not NULL, gets the
 * indexes of r sorted by first warehouse.
 */
int whrange_check_cover(const struct whrange *r, int n, int w, int *order,
			struct err *err);

#endif
