/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procstat.h - the CPU time lines of /proc/stat, and the share of each
 * kind of time between two snapshots: how much of the guest's CPU time
 * the host took away (steal), how much went idle or into I/O wait.
 *
 * The per-second host sampler of block runs reads the aggregate "cpu"
 * line once a second; the estimator of docs/blocks.md uses the steal
 * share of each block as a term of its model. Pure parsing and
 * arithmetic on caller-owned structs: thread-safe, nothing allocates.
 */
#ifndef OLTPMARK_PROCSTAT_H
#define OLTPMARK_PROCSTAT_H

#include <stdint.h>

#include "src/base/err.h"

/* The columns of a "cpu" line, in the kernel's order (proc(5)). */
enum procstat_field {
	PROCSTAT_USER,	     /* user mode, guest time included */
	PROCSTAT_NICE,	     /* user mode at low priority, guest_nice incl. */
	PROCSTAT_SYSTEM,     /* kernel mode */
	PROCSTAT_IDLE,	     /* idle */
	PROCSTAT_IOWAIT,     /* idle with I/O outstanding; may go backwards */
	PROCSTAT_IRQ,	     /* hard interrupts */
	PROCSTAT_SOFTIRQ,    /* soft interrupts */
	PROCSTAT_STEAL,	     /* runnable but the hypervisor ran someone else */
	PROCSTAT_GUEST,	     /* running a guest of ours (part of user) */
	PROCSTAT_GUEST_NICE, /* running a niced guest (part of nice) */
	PROCSTAT_NR
};

#define PROCSTAT_NAME_MAX 16 /* "cpu", "cpu127"..., with the NUL */

/* One "cpu" or "cpuN" line. */
struct procstat_cpu {
	char name[PROCSTAT_NAME_MAX]; /* "cpu" (all CPUs) or "cpuN" */
	uint64_t ticks[PROCSTAT_NR];  /* USER_HZ ticks since boot, by field */
	unsigned int nfields; /* columns the line had (4..10); the missing
				 ones (kernels before 2.6.33) are 0 */
};

/* Shares of the time that passed between two snapshots. */
struct procstat_shares {
	double share[PROCSTAT_NR]; /* field's ticks / total_ticks, 0..1 */
	double busy;		   /* user+nice+system+irq+softirq share */
	double total_ticks;	   /* ticks that passed, all CPUs of the line */
};

/*
 * Parse one line of /proc/stat (with or without its newline) that starts
 * with "cpu": the name, then 4 to 10 unsigned decimal counters separated
 * by blanks (columns beyond the tenth, from a future kernel, are
 * ignored). Returns 0 and fills *out, or -EINVAL with err naming what
 * was wrong: another line ("intr ..."), a counter that is not a number
 * or does not fit in 64 bits, fewer than 4 counters.
 */
int procstat_parse_line(const char *line, struct procstat_cpu *out,
			struct err *err);

/*
 * Find the line named name ("cpu" for all CPUs, "cpu0"...) in text, the
 * contents of /proc/stat, and parse it into *out. -ENOENT when there is
 * no such line, or procstat_parse_line()'s error.
 */
int procstat_find(const char *text, const char *name, struct procstat_cpu *out,
		  struct err *err);

/*
 * Read the file at path (normally "/proc/stat") and parse its line name
 * into *out, as procstat_find(). Negative errno when it cannot be read.
 */
int procstat_read(const char *path, const char *name, struct procstat_cpu *out,
		  struct err *err);

/*
 * The share of each field in the time between snapshots a (earlier) and
 * b (later) of the same line. The total is user + nice + system + idle
 * + iowait + irq + softirq + steal; guest and guest_nice are already
 * inside user and nice, so they have shares but do not add to it. A
 * counter that went backwards (iowait does, see proc(5)) counts as 0.
 * Returns 0; -EINVAL when a and b are different lines; -ENODATA when no
 * tick passed (the shares would be 0/0).
 */
int procstat_shares(const struct procstat_cpu *a, const struct procstat_cpu *b,
		    struct procstat_shares *out, struct err *err);

#endif
