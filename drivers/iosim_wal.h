/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_wal.h - the iosim driver's write-ahead log: commits append bytes
 * and wait until a flush (fdatasync) covers them, with group commit as
 * PostgreSQL does it. The log is a file used as a ring of a fixed size,
 * so a long run neither grows it nor makes the file system allocate.
 *
 * Group commit: a committer appends its bytes (advancing the log's
 * insert position, its LSN) and waits until the durable position passes
 * its end. When no flush is running, the first waiter becomes the leader
 * (PostgreSQL's WALWriteLock holder): it writes everything appended so
 * far, by everyone, and flushes it once; the commits that arrive during
 * that flush wait, and the next leader flushes them together. N commits
 * arriving while a flush runs thus cost one flush, not N.
 *
 * Writes are whole 8 KiB pages at their place in the ring, the last page
 * written again by the next flush when it was partial, as PostgreSQL
 * rewrites its partial WAL page. A failed write or flush is final (the
 * server would PANIC): every waiting commit and every later one gets the
 * error.
 */
#ifndef OLTPMARK_IOSIM_WAL_H
#define OLTPMARK_IOSIM_WAL_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "src/base/err.h"

#define IOSIM_WAL_PAGE_BYTES 8192	/* XLOG_BLCKSZ */
#define IOSIM_WAL_RING_MIN   (64 << 10) /* the smallest ring */

/*
 * Make the log file's written bytes durable: fdatasync in use; tests put
 * a slow or failing one in its place. upto is the log position (LSN) the
 * flush makes durable; arg is what iosim_wal_open() was given. Returns 0
 * or a negative errno. Called with no lock held, by one thread at a
 * time.
 */
typedef int (*iosim_wal_flush_fn)(int fd, uint64_t upto, void *arg);

/* What the log did so far. */
struct iosim_wal_stats {
	uint64_t commits;     /* commits that returned 0 */
	uint64_t appends;     /* appends without a wait (rollbacks) */
	uint64_t bytes;	      /* bytes appended by both */
	uint64_t write_bytes; /* bytes given to pwrite (whole pages) */
	uint64_t flushes;     /* flush calls */
	uint64_t max_group;   /* most commits one flush made durable */
};

/* One log. Must stay at the same address while open. */
struct iosim_wal {
	int fd;			   /* the ring file */
	uint64_t ring_bytes;	   /* its size, a multiple of 8 KiB */
	iosim_wal_flush_fn flush;  /* fdatasync, or a test's */
	void *flush_arg;	   /* flush's arg */
	char *filler;		   /* bytes that pwrite writes */
	pthread_mutex_t lock;	   /* guards everything below */
	pthread_cond_t flushed_cv; /* a flush ended */
	uint64_t insert;	   /* bytes appended so far: the LSN */
	uint64_t flushed;	   /* durable up to here */
	bool flushing;		   /* a leader is writing and flushing */
	unsigned pending;	   /* commits since the last leader's start */
	int error;		   /* first failure (negative errno), final */
	struct err error_why;	   /* what it was */
	struct iosim_wal_stats stats; /* counters */
	char path[PATH_MAX];	      /* the file, for messages */
	bool ready; /* lock and flushed_cv exist (the open succeeded) */
};

/*
 * fdatasync(fd), the flush in use. 0 or -errno; upto and arg unused.
 */
int iosim_wal_fdatasync(int fd, uint64_t upto, void *arg);

/*
 * Open (creating it when missing) the ring file at path of ring_bytes (a
 * multiple of 8 KiB, at least IOSIM_WAL_RING_MIN), filled with non-zero
 * bytes and synced when it was missing or smaller, as PostgreSQL
 * preallocates its WAL segments (an overwrite then needs no block
 * allocation, and fdatasync no metadata). flush NULL means
 * iosim_wal_fdatasync. Returns 0, or a negative errno with err naming
 * the file (-EINVAL for a bad ring size, -ENOSPC from a full file
 * system).
 */
int iosim_wal_open(struct iosim_wal *w, const char *path, uint64_t ring_bytes,
		   iosim_wal_flush_fn flush, void *flush_arg, struct err *err);

/*
 * Append bytes and wait until they are durable (group commit, above).
 * *end_lsn (when not NULL) gets the log position of the commit's end.
 * Returns 0, or the log's failure (negative errno, err set to what it
 * was) for a commit that was waiting when a write or flush failed or
 * came after. Thread-safe.
 */
int iosim_wal_commit(struct iosim_wal *w, uint64_t bytes, uint64_t *end_lsn,
		     struct err *err);

/*
 * Append bytes without waiting (a rollback's record, flushed by the next
 * commit's leader). 0, or the log's failure. Thread-safe.
 */
int iosim_wal_append(struct iosim_wal *w, uint64_t bytes, struct err *err);

/* A copy of the counters. Thread-safe. */
void iosim_wal_get_stats(struct iosim_wal *w, struct iosim_wal_stats *stats);

/*
 * Close the file and free. No commit may be running. Safe after a failed
 * open and twice.
 */
void iosim_wal_close(struct iosim_wal *w);

#endif
