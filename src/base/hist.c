/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.c - log-linear latency histogram (see hist.h for the layout).
 */
#include "src/base/hist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Values below 2^(bits+1) are exact: one bucket each. */
static inline uint64_t exact_limit(int bits)
{
	return (uint64_t)1 << (bits + 1);
}

int hist_init(struct hist *h, int bits)
{
	memset(h, 0, sizeof(*h));
	if (bits < 1 || bits > 10)
		return -EINVAL;
	h->bits = bits;
	/* exact part, then 2^bits sub-buckets for each octave above it */
	h->nbuckets = (int)exact_limit(bits) +
		      (HIST_MAX_BITS - (bits + 1)) * (1 << bits);
	h->counts = calloc((size_t)h->nbuckets, sizeof(*h->counts));
	if (!h->counts)
		return -ENOMEM;
	h->min = UINT64_MAX;
	return 0;
}

void hist_free(struct hist *h)
{
	free(h->counts);
	h->counts = NULL;
	h->nbuckets = 0;
}

void hist_reset(struct hist *h)
{
	if (h->counts)
		memset(h->counts, 0, (size_t)h->nbuckets * sizeof(*h->counts));
	h->total = 0;
	h->sum = 0;
	h->min = UINT64_MAX;
	h->max = 0;
}

int hist_bucket_of(const struct hist *h, uint64_t value)
{
	uint64_t limit = exact_limit(h->bits);
	int exponent, shift, index;

	if (value < limit)
		return (int)value;
	exponent = 63 - __builtin_clzll(value);
	if (exponent >= HIST_MAX_BITS)
		return h->nbuckets - 1;
	shift = exponent - h->bits;
	index = (int)limit + (exponent - (h->bits + 1)) * (1 << h->bits) +
		(int)((value >> shift) - ((uint64_t)1 << h->bits));
	return index;
}

void hist_bucket_range(const struct hist *h, int bucket, uint64_t *lo,
		       uint64_t *hi)
{
	uint64_t limit = exact_limit(h->bits);
	int octave, sub, shift;

	if ((uint64_t)bucket < limit) {
		*lo = *hi = (uint64_t)bucket;
		return;
	}
	octave = (bucket - (int)limit) >> h->bits;
	sub = (bucket - (int)limit) & ((1 << h->bits) - 1);
	shift = octave + 1;
	*lo = (((uint64_t)1 << h->bits) + (uint64_t)sub) << shift;
	*hi = *lo + ((uint64_t)1 << shift) - 1;
}

void hist_record(struct hist *h, uint64_t value)
{
	h->counts[hist_bucket_of(h, value)]++;
	h->total++;
	h->sum += (double)value;
	if (value < h->min)
		h->min = value;
	if (value > h->max)
		h->max = value;
}

int hist_merge(struct hist *dst, const struct hist *src)
{
	int i;

	if (dst->bits != src->bits)
		return -EINVAL;
	for (i = 0; i < dst->nbuckets; i++)
		dst->counts[i] += src->counts[i];
	dst->total += src->total;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, mid;
	int i;

	if (h->total == 0)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	/* the smallest value with at least p % of values at or below it */
	rank = (uint64_t)((p / 100.0) * (double)h->total + 0.5);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < h->nbuckets; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			break;
	}
	hist_bucket_range(h, i, &lo, &hi);
	mid = lo + (hi - lo) / 2;
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}

double hist_mean(const struct hist *h)
{
	return h->total ? h->sum / (double)h->total : 0.0;
}
