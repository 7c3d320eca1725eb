/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_iosim.c - the iosim driver's CPU cost per transaction, without
 * its I/O: mapping the inputs to pages (iosim_pagemap_touch), planning
 * the reads and dirtied pages from the profile (iosim_pagemap_plan) and
 * marking the dirtied pages in the checkpointer's set (iosim_ckpt_mark),
 * on one thread, over inputs generated beforehand in the mix's
 * proportions. Prints nanoseconds of thread CPU per transaction, overall
 * and per type, and the reads and dirtied pages planned per transaction.
 * Target: far under 10 µs per transaction (issue 12's budget for the
 * whole driver, I/O calls aside).
 *
 * Usage: bench_iosim [PROFILE [SECONDS]]
 * (defaults tests/fixtures/ioprofile-valid.json, 3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drivers/iosim_ckpt.h"
#include "drivers/iosim_pagemap.h"
#include "drivers/iosim_profile.h"
#include "terminals/inputs.h"

#define TARGET_NS 10000.0
#define NINPUTS	  65536 /* generated once, replayed */

/* Nanoseconds of this thread's CPU. */
static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The mix's proportions (45/43/4/4/4), as the deck deals them. */
static enum txn_type draw_type(struct rng *rng)
{
	int x = (int)rng_range(rng, 1, 100);

	return x <= 45	 ? TXN_NEW_ORDER
	       : x <= 88 ? TXN_PAYMENT
	       : x <= 92 ? TXN_ORDER_STATUS
	       : x <= 96 ? TXN_DELIVERY
			 : TXN_STOCK_LEVEL;
}

/* What the driver does per call, I/O aside; adds up what it planned. */
static void one_call(struct iosim_pagemap *map, struct iosim_ckpt *ckpt,
		     const struct txn_input *in, double *reads, double *dirty)
{
	static struct iosim_pagemap_touch touch;
	static struct iosim_pagemap_io io;
	static struct iosim_pagemap_carry carry;
	unsigned k;

	iosim_pagemap_touch(map, in, &touch);
	iosim_pagemap_plan(map, &touch, &carry, &io);
	for (k = 0; k < io.ndirty; k++)
		iosim_ckpt_mark(ckpt, (int)io.dirty[k].rel, io.dirty[k].page);
	*reads += io.nread;
	*dirty += io.ndirty;
}

int main(int argc, char **argv)
{
	const char *path =
		argc > 1 ? argv[1] : "tests/fixtures/ioprofile-valid.json";
	int seconds = argc > 2 ? atoi(argv[2]) : 3;
	struct iosim_profile prof;
	struct iosim_pagemap map;
	struct iosim_ckpt ckpt;
	struct inputs_ctx ctx;
	struct txn_input *inputs;
	struct rng rng;
	struct err err;
	int fds[IOSIM_PROFILE_REL_NR];
	uint64_t pages[IOSIM_PROFILE_REL_NR];
	double t0, spent, type_ns[TXN_NR] = {0}, reads = 0, dirty = 0;
	long type_calls[TXN_NR] = {0}, calls = 0;
	unsigned i;
	int r, type;

	if (seconds < 1) {
		fprintf(stderr, "usage: %s [PROFILE [SECONDS]]\n", argv[0]);
		return 2;
	}
	if (iosim_profile_read(path, &prof, &err) < 0 ||
	    iosim_pagemap_init(&map, &prof, prof.warehouses, &err) < 0) {
		fprintf(stderr, "bench_iosim: %s\n", err.msg);
		return 1;
	}
	/* the set is only marked here: no file, no writer */
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		fds[r] = -1;
		pages[r] = (uint64_t)prof.rel[r].pages;
	}
	if (iosim_ckpt_init(&ckpt, IOSIM_PROFILE_REL_NR, fds, pages, 0, &err) <
	    0) {
		fprintf(stderr, "bench_iosim: %s\n", err.msg);
		return 1;
	}
	inputs = malloc(NINPUTS * sizeof(*inputs));
	if (!inputs)
		return 1;
	rng_seed(&rng, 12, 0);
	inputs_ctx_init(&ctx, prof.warehouses, 100, &rng);
	for (i = 0; i < NINPUTS; i++)
		inputs_generate(&ctx, draw_type(&rng),
				(int)rng_range(&rng, 1, prof.warehouses),
				(int)rng_range(&rng, 1, 10), &rng, &inputs[i]);
	/* the mix, with no timer inside the loop */
	t0 = thread_cpu_ns();
	do {
		for (i = 0; i < NINPUTS; i++)
			one_call(&map, &ckpt, &inputs[i], &reads, &dirty);
		calls += NINPUTS;
		spent = thread_cpu_ns() - t0;
	} while (spent < seconds * 1e9);
	/* then each type alone, a fifth of the time each */
	for (type = 0; type < TXN_NR; type++) {
		double r0 = 0, d0 = 0;

		t0 = thread_cpu_ns();
		do {
			for (i = 0; i < NINPUTS; i++)
				if (inputs[i].type == (enum txn_type)type) {
					one_call(&map, &ckpt, &inputs[i], &r0,
						 &d0);
					type_calls[type]++;
				}
			type_ns[type] = thread_cpu_ns() - t0;
		} while (type_ns[type] < seconds * 1e9 / TXN_NR);
	}
	printf("profile %s (W = %d), %ld transactions of the mix in %.2f s "
	       "of CPU\n",
	       path, prof.warehouses, calls, spent / 1e9);
	printf("  %-14s %10s\n", "type", "ns/txn");
	for (type = 0; type < TXN_NR; type++)
		printf("  %-14s %10.0f\n", txn_type_name(type),
		       type_ns[type] / type_calls[type]);
	printf("  %-14s %10.0f\n", "mix", spent / calls);
	printf("  reads planned per transaction %.2f, dirtied pages %.2f\n",
	       reads / calls, dirty / calls);
	printf("  target: under %.0f ns per transaction: %s\n", TARGET_NS,
	       spent / calls < TARGET_NS ? "met" : "NOT MET");
	free(inputs);
	iosim_ckpt_free(&ckpt);
	iosim_pagemap_free(&map);
	return 0;
}
