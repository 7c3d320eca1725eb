/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pacing.h - keying and think times of an emulated terminal (TPC-C 5.2.5;
 * docs/tpcc.md, Keying and think times).
 *
 * A terminal's cycle is: key the input (a constant keying time per type),
 * submit, wait for the response, read it (a random think time), then key
 * the next one. Think time is -ln(r) * mean with r uniform in (0, 1), cut
 * at 10 * mean as 5.2.5.4 allows (the cut moves the mean by about e^-10).
 *
 * Modes (--keying-think): "tpcc" uses the spec's times; "none" runs
 * back to back; "scale=F" multiplies every time by F (F = 0.01 turns the
 * 18 s New-Order keying into 180 ms), for short tests that keep the
 * shape of the load.
 */
#ifndef OLTPMARK_PACING_H
#define OLTPMARK_PACING_H

#include <stdint.h>

#include "src/base/err.h"
#include "src/base/rng.h"
#include "src/base/txn.h"

/* What --keying-think asked for. */
enum pacing_mode {
	PACING_TPCC,  /* the spec's keying and think times */
	PACING_NONE,  /* no keying or think time at all */
	PACING_SCALE, /* the spec's times multiplied by scale */
	PACING_NR
};

/* A parsed --keying-think value. */
struct pacing {
	enum pacing_mode mode; /* tpcc, none or scale */
	double scale;	       /* factor on every time: 1 for tpcc, 0 for
				  none, F for scale=F */
};

/* The timing table of 5.2.5.7 and 5.2.5.2 for one transaction type. */
struct pacing_times {
	int keying_ms;	   /* constant keying time */
	int think_mean_ms; /* mean of the negative-exponential think time */
};

/* Keying and mean think times per type, as the spec gives them. */
extern const struct pacing_times pacing_table[TXN_NR];

/*
 * Parse "tpcc", "none" or "scale=F" (F a finite number in 0..1000) into
 * p. 0, or -EINVAL with err naming the value.
 */
int pacing_parse(const char *text, struct pacing *p, struct err *err);

/* Keying time of type in microseconds (0 with "none"). */
int64_t pacing_keying_us(const struct pacing *p, enum txn_type type);

/*
 * A think time for type in microseconds: -ln(r) * mean, at most
 * 10 * mean; 0 with "none" (and then rng is not used). Thread-safe as
 * long as rng is not shared.
 */
int64_t pacing_think_us(const struct pacing *p, enum txn_type type,
			struct rng *rng);

/*
 * Mean think time of type in microseconds: that of the cut distribution,
 * mean * (1 - e^-10); 0 with "none".
 */
double pacing_think_mean_us(const struct pacing *p, enum txn_type type);

/*
 * What is left of a think time of type when it is seen at a moment drawn
 * uniformly from all thinking time (its equilibrium residual), in
 * microseconds: in 0..10 * mean, exponential with the same mean but for
 * the cut. A terminal that starts in the middle of its think time waits
 * this long (docs/terminals.md, "Starting in phase"). 0 with "none" (rng
 * then unused). Thread-safe as long as rng is not shared.
 */
int64_t pacing_think_residual_us(const struct pacing *p, enum txn_type type,
				 struct rng *rng);

#endif
