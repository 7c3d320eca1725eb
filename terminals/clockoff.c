/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clockoff.c - this driver's clock against the database server's
 * (clockoff.h): the round trips, the estimate from the shortest one,
 * and the bound a run is refused beyond.
 */
#include "terminals/clockoff.h"

#include <string.h>

#include "src/base/clock.h"

void clockoff_estimate(const struct clockoff_sample *s, int n,
		       struct clockoff *out)
{
	int i, best = -1;

	memset(out, 0, sizeof(*out));
	out->samples = n;
	for (i = 0; i < n; i++) {
		int64_t rtt = s[i].after_us - s[i].before_us;

		if (rtt < 0)
			continue;
		if (best < 0 || rtt < s[best].after_us - s[best].before_us)
			best = i;
	}
	if (best < 0)
		return;
	out->measured = true;
	out->rtt_us = s[best].after_us - s[best].before_us;
	/* the midpoint without overflow; the bound rounded up */
	out->offset_us =
		s[best].server_us - (s[best].before_us + out->rtt_us / 2);
	out->uncertainty_us = (out->rtt_us + 1) / 2;
}

int clockoff_measure(const struct driver_ops *ops, struct driver_conn *conn,
		     int64_t inject_us, struct clockoff *out, struct err *err)
{
	struct clockoff_sample s[CLOCKOFF_SAMPLES];
	int i, rc;

	memset(out, 0, sizeof(*out));
	if (!ops->server_clock)
		return 0;
	for (i = 0; i < CLOCKOFF_SAMPLES; i++) {
		s[i].before_us = clock_wall_us() + inject_us;
		rc = ops->server_clock(conn, &s[i].server_us, err);
		s[i].after_us = clock_wall_us() + inject_us;
		if (rc < 0)
			return rc;
	}
	clockoff_estimate(s, CLOCKOFF_SAMPLES, out);
	return 0;
}

bool clockoff_within(const struct clockoff *c, int64_t max_us)
{
	int64_t a = c->offset_us < 0 ? -c->offset_us : c->offset_us;

	return a + c->uncertainty_us <= max_us;
}
