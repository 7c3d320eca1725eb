/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng.h - the pseudo-random generator every terminal and loader job owns.
 *
 * xoshiro256** (Blackman and Vigna): fast, 256 bits of state, seeded
 * through splitmix64 so that small seeds (1, 2, 3) still give unrelated
 * streams. One generator per thread or terminal: no locks, reproducible
 * from --seed. Not for cryptography.
 */
#ifndef OLTPMARK_RNG_H
#define OLTPMARK_RNG_H

#include <stdint.h>

/* Generator state; copy it to fork a stream, never share it across threads. */
struct rng {
	uint64_t s[4]; /* xoshiro256** state, never all zero */
};

/* Seed from a 64-bit value and a stream number (e.g. terminal id). */
void rng_seed(struct rng *rng, uint64_t seed, uint64_t stream);

/* Next 64 random bits. */
uint64_t rng_next(struct rng *rng);

/* Uniform integer in [lo, hi], both inclusive, without modulo bias. */
int64_t rng_range(struct rng *rng, int64_t lo, int64_t hi);

/* Uniform double in (0, 1): never 0, so -log() of it is finite. */
double rng_unit_open(struct rng *rng);

#endif
