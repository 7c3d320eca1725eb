/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng.c - xoshiro256** with splitmix64 seeding and Lemire's unbiased
 * bounded integers (see rng.h for why we carry our own generator).
 */
#include "src/base/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(struct rng *rng, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);
	int i;

	for (i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&x);
	if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]))
		rng->s[0] = 1;
}

uint64_t rng_next(struct rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

int64_t rng_range(struct rng *rng, int64_t lo, int64_t hi)
{
	/* unsigned arithmetic: hi - lo overflows int64 for wide ranges */
	uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
	unsigned __int128 m;
	uint64_t low;

	if (span == 0) /* the full 64-bit range */
		return (int64_t)rng_next(rng);
	/* Lemire: multiply-shift, rejecting the few values that would bias. */
	m = (unsigned __int128)rng_next(rng) * span;
	low = (uint64_t)m;
	if (low < span) {
		uint64_t threshold = -span % span;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(rng) * span;
			low = (uint64_t)m;
		}
	}
	return (int64_t)((uint64_t)lo + (uint64_t)(m >> 64));
}

double rng_unit_open(struct rng *rng)
{
	/* 53 random bits, shifted by half a step so 0 and 1 never occur. */
	return ((double)(rng_next(rng) >> 11) + 0.5) * 0x1.0p-53;
}
