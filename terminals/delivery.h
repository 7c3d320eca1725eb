/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * delivery.h - the deferred Delivery of TPC-C 2.7.2.
 *
 * When a terminal submits a Delivery it is acknowledged at once ("Delivery
 * has been queued") and goes on to think and key its next transaction;
 * the request waits in its worker's queue and the worker executes it on
 * its own connection between terminal transactions (terminals/worker.c
 * runs one queued Delivery after each terminal transaction, and any
 * number while no terminal is due, so the queue cannot grow without bound
 * even when terminals never wait). A request carries the time it was
 * queued; its mix.csv row is written at completion, with the response time
 * counted from queueing (the 80 s rule of 2.7.2.2).
 *
 * The queue is a ring that grows when full; it belongs to one worker and
 * takes no lock.
 */
#ifndef OLTPMARK_DELIVERY_H
#define OLTPMARK_DELIVERY_H

#include <stddef.h>
#include <stdint.h>

#include "src/base/txn.h"

/* One queued Delivery. */
struct delivery_req {
	int64_t queued_us; /* when it was due and queued (MONOTONIC) */
	int terminal;	   /* 1-based number of the terminal that sent it */
	struct txn_delivery in; /* its input: warehouse and carrier */
};

/* A worker's queue of Deliveries, oldest first. */
struct delivery_queue {
	struct delivery_req *ring; /* cap slots */
	size_t head;		   /* index of the oldest request */
	size_t len;		   /* requests queued */
	size_t cap;		   /* slots in ring */
};

/* An empty queue with room for cap requests (at least 1). 0 or -ENOMEM. */
int delivery_queue_init(struct delivery_queue *q, size_t cap);

/* Free the ring. Safe on a zeroed struct. */
void delivery_queue_free(struct delivery_queue *q);

/* Append a request, growing the ring when full. 0 or -ENOMEM. */
int delivery_queue_push(struct delivery_queue *q,
			const struct delivery_req *req);

/* Take the oldest request into *req. 0, or -ENOENT when empty. */
int delivery_queue_pop(struct delivery_queue *q, struct delivery_req *req);

/* Requests waiting. */
static inline size_t delivery_queue_len(const struct delivery_queue *q)
{
	return q->len;
}

#endif
