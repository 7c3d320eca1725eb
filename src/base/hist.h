/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.h - latency histogram with fixed relative precision.
 *
 * Summary: log-linear buckets as in HdrHistogram. Values below
 * 2^(bits+1) get a bucket each; above, every power of two is split into
 * 2^bits equal sub-buckets, so a bucket is at most 2^-bits of its value
 * wide (bits = 7: under 0.8 %). Memory is fixed at init, recording is one
 * increment, and histograms of the same precision merge by addition, so
 * each thread keeps its own and nobody takes a lock (wrk2's approach).
 *
 * Details: values are unsigned integers (oltpmark records microseconds);
 * values at or above 2^HIST_MAX_BITS are clamped into the last bucket but
 * still count exactly in the sum and the maximum. Percentiles return the
 * middle of the bucket that holds the rank, clamped to the exact minimum
 * and maximum seen.
 */
#ifndef OLTPMARK_HIST_H
#define OLTPMARK_HIST_H

#include <stdint.h>

#define HIST_MAX_BITS	  40 /* 2^40 us is 12.7 days: no response is longer */
#define HIST_BITS_DEFAULT 7

/* One histogram; owns its bucket array (hist_free releases it). */
struct hist {
	int bits;	  /* sub-bucket bits: precision 2^-bits */
	int nbuckets;	  /* length of counts */
	uint64_t *counts; /* per-bucket counts */
	uint64_t total;	  /* number of values recorded */
	double sum;	  /* exact sum, for the mean */
	uint64_t min;	  /* smallest value recorded (UINT64_MAX if none) */
	uint64_t max;	  /* largest value recorded (0 if none) */
};

/* Allocate the buckets for precision bits (1..10). 0 or -ENOMEM. */
int hist_init(struct hist *h, int bits);

/* Release the buckets. Safe on a zeroed or already freed struct. */
void hist_free(struct hist *h);

/* Forget all values, keep the buckets. */
void hist_reset(struct hist *h);

/* Record one value. Not thread-safe: one histogram per thread. */
void hist_record(struct hist *h, uint64_t value);

/* Add src's values to dst; both must have the same bits. 0 or -EINVAL. */
int hist_merge(struct hist *dst, const struct hist *src);

/* Value at percentile p (0..100) or 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);

/* Mean of the values, 0 when empty. */
double hist_mean(const struct hist *h);

/* Bucket index for a value, and the [lo, hi] range a bucket covers. */
int hist_bucket_of(const struct hist *h, uint64_t value);
void hist_bucket_range(const struct hist *h, int bucket, uint64_t *lo,
		       uint64_t *hi);

#endif
