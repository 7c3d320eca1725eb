/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scheduler.h - a worker's terminals ordered by due time: a binary
 * min-heap of pointers, keyed by (due_us, id) so equal due times come out
 * in terminal order and runs are reproducible. The top is the terminal
 * the worker serves next; after serving it the worker moves its due time
 * forward and calls sched_fix_top (one sift-down, O(log n)).
 *
 * Not thread-safe: each worker owns its heap. No allocation after init.
 */
#ifndef OLTPMARK_SCHEDULER_H
#define OLTPMARK_SCHEDULER_H

#include <stdbool.h>

#include "terminals/terminal.h"

/* A heap of terminals (not owned: the heap only points at them). */
struct sched {
	struct terminal **heap; /* heap[0] has the smallest (due_us, id) */
	int n;			/* terminals in the heap */
	int cap;		/* room in heap */
};

/* Room for cap terminals. 0 or -ENOMEM. */
int sched_init(struct sched *s, int cap);

/* Free the array (not the terminals). Safe on a zeroed struct. */
void sched_free(struct sched *s);

/* Add a terminal. 0, or -ENOSPC when the heap is full. */
int sched_push(struct sched *s, struct terminal *t);

/* The terminal due first, NULL when empty. */
static inline struct terminal *sched_top(const struct sched *s)
{
	return s->n ? s->heap[0] : (struct terminal *)0;
}

/* Restore the order after the top terminal's due_us was changed. */
void sched_fix_top(struct sched *s);

#endif
