/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeseries.h - throughput and latency of a run per fixed interval
 * (10 s), from time 0 to the end of the run, ramp-up included: the data
 * behind timeseries.csv and the NOTPM plot.
 *
 * Memory grows with the length of the run, never with its row count:
 * each interval keeps three counters and, per transaction type seen in
 * it, a coarse histogram (hist bits 4: about 6 % precision, 4.7 KiB),
 * enough for a per-interval 90th percentile. A two-hour run at 10 s holds
 * 720 intervals, about 17 MiB.
 */
#ifndef OLTPMARK_ANALYSIS_TIMESERIES_H
#define OLTPMARK_ANALYSIS_TIMESERIES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/report/mixcsv.h"
#include "src/base/err.h"
#include "src/base/hist.h"
#include "src/base/txn.h"

#define TS_INTERVAL_MS 10000 /* default interval */
#define TS_HIST_BITS   4     /* precision of the per-interval p90 */
#define TS_MAX_T_MS \
	2678400000LL /* 31 days: rows later than this are
				    taken as corrupt */

/* One interval [start, start + interval). */
struct ts_interval {
	uint64_t new_orders;	 /* New-Orders ok or rollback */
	uint64_t completed;	 /* all types, ok or rollback */
	uint64_t errors;	 /* all types, status error */
	struct hist *rt[TXN_NR]; /* response_us per type, NULL until a
				       row of that type arrives */
};

/* The series. Owns its intervals and their histograms. */
struct ts_series {
	int64_t interval_ms;	/* length of every interval */
	struct ts_interval *iv; /* intervals from time 0 */
	size_t n;		/* intervals in use (last row's + 1) */
	size_t cap;		/* intervals allocated */
	int64_t end_ms;		/* end of the run (timeseries_set_end()):
				    the last interval ends there */
	uint64_t rows;		/* rows counted */
	int64_t last_t_ms;	/* latest completion seen */
};

/* Start an empty series with intervals of interval_ms (> 0). 0 or
 * -EINVAL. */
int timeseries_init(struct ts_series *ts, int64_t interval_ms);

/* Release everything. Safe on a zeroed or freed series. */
void timeseries_free(struct ts_series *ts);

/*
 * Count one row. 0; -ERANGE when row->t_ms is beyond TS_MAX_T_MS (the
 * caller names the line); -ENOMEM.
 */
int timeseries_add(struct ts_series *ts, const struct mixcsv_row *row,
		   struct err *err);

/*
 * Set the end of the run in ms; an end at or before the last row's
 * completion (0 for "unknown") becomes one ms after it. The series then
 * spans [0, end): intervals up to the end exist even when empty. 0 or
 * -ENOMEM.
 */
int timeseries_set_end(struct ts_series *ts, int64_t end_ms, struct err *err);

/* Number of intervals, after timeseries_set_end(). */
size_t timeseries_count(const struct ts_series *ts);

/* Start of interval i in seconds. */
double timeseries_start_s(const struct ts_series *ts, size_t i);

/*
 * Length of interval i in seconds: interval_ms, except the last, which
 * ends at end_ms and counts at least 1 s so that a few rows in a
 * sliver at the end do not turn into an absurd rate.
 */
double timeseries_length_s(const struct ts_series *ts, size_t i);

/* New-Orders (ok + rollback) per minute in interval i. */
double timeseries_notpm(const struct ts_series *ts, size_t i);

/* Completed transactions (ok + rollback) per minute in interval i. */
double timeseries_tpm(const struct ts_series *ts, size_t i);

/* 90th-percentile response of type in interval i in ms; NAN if none. */
double timeseries_p90_ms(const struct ts_series *ts, size_t i,
			 enum txn_type type);

/*
 * Write the CSV (header t_s,notpm,tpm,p90_<type>_ms...,errors; an empty
 * p90 field where an interval has no row of that type) to f. 0 or -EIO.
 */
int timeseries_write_csv(const struct ts_series *ts, FILE *f, struct err *err);

#endif
