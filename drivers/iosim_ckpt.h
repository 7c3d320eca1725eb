/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_ckpt.h - the dirty pages of the iosim driver and the thread
 * that writes them back, as PostgreSQL's checkpointer (and bgwriter) do:
 * transactions mark the pages they dirty in a shared set, and one thread
 * sweeps the set, writing each dirty page once with pwrite at the rate
 * the calibration measured (pages per second), then fsyncs every file
 * it wrote to. A page dirtied again before the sweep reaches it is
 * written once, which is what makes checkpoint writes fewer than
 * dirtied pages.
 *
 * The set is one bit per page of each file, so its size is bounded by
 * the files' (16 KiB for the 1 GiB of W = 10) and marking is one atomic
 * OR: transactions never take a lock for it.
 */
#ifndef OLTPMARK_IOSIM_CKPT_H
#define OLTPMARK_IOSIM_CKPT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "src/base/err.h"

#define IOSIM_CKPT_PAGE_BYTES 8192 /* what one write writes */
#define IOSIM_CKPT_IDLE_MS    100  /* how often an empty set is looked at */
#define IOSIM_CKPT_BURST_S    1.0  /* the most a late writer catches up */

/* One file's dirty pages. */
struct iosim_ckpt_file {
	int fd;			/* open for writing; not owned */
	uint64_t pages;		/* its size in pages */
	size_t words;		/* of bits[] */
	_Atomic uint64_t *bits; /* bit p % 64 of word p / 64: page p dirty */
};

/* What the checkpointer did so far. */
struct iosim_ckpt_stats {
	uint64_t marked;  /* clean pages dirtied (a mark of a dirty one is
			     not counted) */
	uint64_t written; /* pages written back */
	uint64_t syncs;	  /* fsync calls */
	uint64_t sweeps;  /* passes over the set that wrote a page */
	uint64_t dirty;	  /* pages dirty now */
};

/* The set and its thread. Must stay at the same address once started. */
struct iosim_ckpt {
	int nfiles;		      /* entries of file[] */
	struct iosim_ckpt_file *file; /* the files */
	double pages_per_s;	      /* write rate; 0: never write */
	char *buf;		      /* the page written (aligned) */
	atomic_ullong dirty;	      /* pages dirty now */
	atomic_ullong marked;	      /* the counters of iosim_ckpt_stats */
	atomic_ullong written;	      /* " */
	atomic_ullong syncs;	      /* " */
	atomic_ullong sweeps;	      /* " */
	pthread_mutex_t lock;	      /* guards stop, and the waits */
	pthread_cond_t wake;	      /* signalled by iosim_ckpt_stop() */
	bool stop;		      /* the thread must end */
	pthread_t thread;	      /* the writer, when running */
	bool running;		      /* the thread was started */
	int error;	      /* the thread's failure (negative errno) */
	struct err error_why; /* what it was */
};

/*
 * Make an empty set over nfiles files: fds[i] open for writing (with or
 * without O_DIRECT: the page buffer is aligned), pages[i] pages each.
 * The files stay the caller's. pages_per_s is the write rate, >= 0.
 * Returns 0, or -EINVAL / -ENOMEM with err set.
 */
int iosim_ckpt_init(struct iosim_ckpt *c, int nfiles, const int *fds,
		    const uint64_t *pages, double pages_per_s, struct err *err);

/*
 * Mark page of file dirty. Returns true when it was clean, false when it
 * was dirty already or is out of range (ignored). Lock-free and
 * thread-safe; about one atomic OR.
 */
bool iosim_ckpt_mark(struct iosim_ckpt *c, int file, uint64_t page);

/* Start the writing thread. 0, or -errno with err set. */
int iosim_ckpt_start(struct iosim_ckpt *c, struct err *err);

/*
 * Stop the thread (at once: the pages still dirty stay so) and wait for
 * it. Returns 0, or the thread's failure (a write or fsync that failed,
 * which ended it) with err set. Safe when it was never started.
 */
int iosim_ckpt_stop(struct iosim_ckpt *c, struct err *err);

/* A copy of the counters. Thread-safe. */
void iosim_ckpt_get_stats(struct iosim_ckpt *c, struct iosim_ckpt_stats *s);

/* Stop (ignoring its failure) and free. Safe after a failed init. */
void iosim_ckpt_free(struct iosim_ckpt *c);

#endif
