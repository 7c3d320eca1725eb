/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedstat.h - a task's scheduler figures from /proc/PID/schedstat
 * (three numbers: ns on a CPU, ns runnable but waiting on a run queue,
 * timeslices run), and their growth added up per transaction type and
 * status. The run engine reads the schedstat of each connection's
 * server backend once before every transaction it sends (one pread on
 * a descriptor kept open) and gives the growth since the previous
 * reading to the previous transaction of that connection: the backend
 * works for nobody else, so what it spent from one send to the next,
 * the commit and the client protocol included, is that transaction's.
 *
 * Parsing and arithmetic work on caller-owned structs and allocate
 * nothing: thread-safe. A struct schedstat_types belongs to one thread
 * (one worker); the run adds them up after joining.
 */
#ifndef OLTPMARK_SCHEDSTAT_H
#define OLTPMARK_SCHEDSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/base/err.h"
#include "src/base/txn.h"

/* One reading of /proc/PID/schedstat. */
struct schedstat_sample {
	uint64_t cpu_ns;  /* se.sum_exec_runtime: ns on a CPU */
	uint64_t wait_ns; /* sched_info.run_delay: ns on a run queue */
	uint64_t slices;  /* sched_info.pcount: timeslices run */
};

/* The growth of the figures over some transactions, added up. */
struct schedstat_acc {
	uint64_t txns;	  /* transactions measured */
	uint64_t cpu_ns;  /* on CPU */
	uint64_t wait_ns; /* waiting on a run queue */
	uint64_t slices;  /* timeslices */
};

/* The accumulators of a run (or a worker), by type and status. */
struct schedstat_types {
	struct schedstat_acc by[TXN_NR][TXN_STATUS_NR];
	uint64_t not_measured; /* transactions of the measured interval
				  whose figures could not be closed (the
				  connection was lost, a reading failed) */
};

/*
 * Parse the text of /proc/PID/schedstat, len bytes (not necessarily
 * NUL-terminated): three unsigned decimal numbers separated by blanks,
 * then an optional newline, nothing else. 0 with *out filled, or
 * -EINVAL with err set (empty, truncated, not a number, too large,
 * trailing text).
 */
int schedstat_parse(const char *buf, size_t len, struct schedstat_sample *out,
		    struct err *err);

/*
 * Open /proc/PID/schedstat of process pid for schedstat_read, after
 * checking in /proc/PID/stat that its parent is parent_pid (a server's
 * backend is a child of its postmaster: a PID of a server on another
 * host names no such process here). Returns the descriptor (O_CLOEXEC),
 * or a negative errno with err set: -ESRCH no such process, -ECHILD
 * its parent is another, others when a file cannot be opened or read.
 */
int schedstat_open(int pid, int parent_pid, struct err *err);

/*
 * One reading from a descriptor of schedstat_open (pread at offset 0:
 * no seek, no reopen). 0, or negative errno with err set.
 */
int schedstat_read(int fd, struct schedstat_sample *out, struct err *err);

/*
 * Add the growth from a (earlier) to b (later) of the same task to acc,
 * as one transaction. -ERANGE, and nothing added, when a counter went
 * backwards (not the same task).
 */
int schedstat_acc_add(struct schedstat_acc *acc,
		      const struct schedstat_sample *a,
		      const struct schedstat_sample *b);

/* dst += src, every accumulator and not_measured. */
void schedstat_types_sum(struct schedstat_types *dst,
			 const struct schedstat_types *src);

/*
 * The accumulators of one type over the given statuses (a bit per
 * TXN_STATUS_*: 1u << TXN_STATUS_OK), added up into *out.
 */
void schedstat_types_get(const struct schedstat_types *t, enum txn_type type,
			 unsigned statuses, struct schedstat_acc *out);

#endif
