/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clockoff.h - the offset of this driver's wall clock against the
 * database server's, for several drivers that start together and whose
 * mix.csv rows are merged on the server's clock (docs/run.md, "Several
 * drivers").
 *
 * Method (NTP's, one-sided): a few round trips on the monitoring
 * connection, each reading the local clock before (t0), the server's
 * clock (ts) and the local clock after (t1). The server read its clock
 * somewhere within [t0, t1], so offset = ts - (t0 + t1) / 2 is wrong by
 * at most (t1 - t0) / 2. The round trip with the smallest t1 - t0 is
 * kept: its bound is the tightest, the others having waited in a queue.
 */
#ifndef OLTPMARK_CLOCKOFF_H
#define OLTPMARK_CLOCKOFF_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/driver.h"
#include "src/base/err.h"

/* Round trips of one measurement. */
#define CLOCKOFF_SAMPLES 8
/*
 * Default bound of `oltpmark run --max-clock-offset`, ms: what the
 * offset plus its uncertainty may reach before a run is refused. NTP
 * keeps hosts of one network within a few ms; 50 ms is far beyond that
 * (a host without time sync) and still small against the 1-s steps of
 * the time series and the seconds of a ramp-up.
 */
#define CLOCKOFF_MAX_MS_DEFAULT 50

/* One round trip: local, server, local, microseconds since the epoch. */
struct clockoff_sample {
	int64_t before_us; /* local clock before the request */
	int64_t server_us; /* the server's clock, as it answered */
	int64_t after_us;  /* local clock after the reply */
};

/* The estimate. */
struct clockoff {
	bool measured;		/* false: the driver has no server clock
				  (null, iosim), offset 0 */
	int64_t offset_us;	/* server clock - local clock */
	int64_t uncertainty_us; /* |error| of offset_us is at most this:
				   half the kept round trip */
	int64_t rtt_us;		/* the kept round trip */
	int samples;		/* round trips made */
};

/*
 * The estimate from n >= 1 samples: the one with the smallest round
 * trip (the first of equals). Samples whose after is before their before
 * (the local clock stepped back) are skipped; none left: measured false.
 */
void clockoff_estimate(const struct clockoff_sample *s, int n,
		       struct clockoff *out);

/*
 * Measure with ops->server_clock on conn: CLOCKOFF_SAMPLES round trips,
 * the local clock read as clock_wall_us() + inject_us (inject_us: a test
 * shift of the local clock, 0 otherwise). A driver without server_clock
 * gives measured false and 0. 0, or negative with err set when a read
 * of the server's clock failed.
 */
int clockoff_measure(const struct driver_ops *ops, struct driver_conn *conn,
		     int64_t inject_us, struct clockoff *out, struct err *err);

/* Whether |offset| + uncertainty stays within max_us. */
bool clockoff_within(const struct clockoff *c, int64_t max_us);

#endif
