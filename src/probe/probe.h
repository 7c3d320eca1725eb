/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.h - time a fixed amount of work on this host: an arithmetic
 * dependency chain (the CPU), a pointer chase over a buffer larger than
 * the caches (the memory path) and 8 KiB overwrites each followed by
 * fdatasync (the WAL's write path). The same work before and after every
 * run tells whether the host itself changed speed between runs, which on
 * a shared machine it does by 15-25 % over tens of minutes: a score
 * difference of that size is then the host's, not the kernel's.
 *
 * Medians over repetitions, because one preemption must not move the
 * figure; the minimum is kept beside it as the host's best. How busy the
 * other CPUs of this machine were meanwhile is recorded too: a probe
 * that shared the CPUs with a compiler timed the guest, not the host.
 */
#ifndef OLTPMARK_PROBE_H
#define OLTPMARK_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/base/err.h"

/*
 * Defaults: about 0.3 s of CPU (a chase step that misses every cache
 * costs 100-150 ns on a VM) and 32 synced writes in all.
 */
#define PROBE_CPU_OPS	  4000000
#define PROBE_MEM_BYTES	  (8u << 20)
#define PROBE_MEM_OPS	  250000
#define PROBE_REPS	  7
#define PROBE_FSYNCS	  32
#define PROBE_BLOCK_BYTES 8192
#define PROBE_REPS_MAX	  101
#define PROBE_FSYNCS_MAX  10000

/* What to do. */
struct probe_opts {
	int reps;	       /* repetitions of each timed loop */
	long cpu_ops;	       /* steps of the arithmetic chain per rep */
	size_t mem_bytes;      /* size of the pointer-chase buffer */
	long mem_ops;	       /* loads of the chase per rep */
	const char *fsync_dir; /* where the synced file goes; NULL: none */
	int fsyncs;	       /* synced writes */
};

/* One timed loop's figures, nanoseconds per operation. */
struct probe_loop {
	double ns_median; /* median over the reps */
	double ns_min;	  /* fastest rep */
};

/* What one probe measured. */
struct probe_result {
	double time_s;		/* wall clock at the start, epoch seconds */
	double others_busy_pct; /* % of all CPUs' time other work used while
				   the CPU and memory loops ran (/proc/stat
				   less our own getrusage); NAN: unknown */
	double steal_pct;	/* % of all CPUs' time the hypervisor
				   reported as stolen meanwhile; NAN: unknown */
	struct probe_loop cpu;	/* arithmetic chain */
	struct probe_loop mem;	/* pointer chase */
	bool has_fsync;		/* the fsync part ran */
	double fsync_us_median; /* write + fdatasync, microseconds */
	double fsync_us_p90;	/* 90th percentile */
	double fsync_us_max;	/* slowest */
	unsigned long sink;	/* results of the loops, so no compiler
				    can drop them */
};

/* One node of the chase per cache line, so every load is a new line. */
#define PROBE_LINE_BYTES 64
struct probe_chase_node {
	uint32_t next; /* index of the node to load next */
	uint32_t pad[PROBE_LINE_BYTES / sizeof(uint32_t) - 1];
};

/*
 * Link n nodes into one cycle through all of them, in an order drawn
 * with a fixed seed (the same path in every probe). 0, -EINVAL (n < 2)
 * or -ENOMEM.
 */
int probe_chase_link(struct probe_chase_node *nodes, uint32_t n);

/* The machine's CPU time from the "cpu" line of /proc/stat, in ticks. */
struct probe_ticks {
	double busy;  /* user, nice, system, irq, softirq */
	double idle;  /* idle, iowait */
	double steal; /* the hypervisor ran someone else */
	double own;   /* this process, from getrusage, in ticks */
	bool ok;      /* /proc/stat was read */
};

/*
 * Between readings a and b: the share of all CPUs' time that work other
 * than this process used, and the share stolen, in %. NAN when either
 * reading failed or no tick passed (a probe shorter than a tick).
 */
void probe_busy_share(const struct probe_ticks *a, const struct probe_ticks *b,
		      double *others_busy_pct, double *steal_pct);

/* opts with the defaults above and no fsync directory. */
void probe_defaults(struct probe_opts *opts);

/*
 * Run the probe. 0, or negative with err set (out of memory, the fsync
 * directory cannot take a file, a write or fdatasync failed). The fsync
 * file is created with mkstemp in fsync_dir and removed on every path.
 */
int probe_run(const struct probe_opts *opts, struct probe_result *res,
	      struct err *err);

/*
 * The value at quantile q (0..1, nearest rank) of n doubles, which are
 * sorted in place. NAN when n is 0.
 */
double probe_quantile(double *v, size_t n, double q);

#endif
