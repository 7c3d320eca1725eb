/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * delivery.c - the queue of deferred Deliveries (see delivery.h).
 */
#include "terminals/delivery.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int delivery_queue_init(struct delivery_queue *q, size_t cap)
{
	if (cap < 1)
		cap = 1;
	q->head = q->len = 0;
	q->cap = cap;
	q->ring = calloc(cap, sizeof(*q->ring));
	return q->ring ? 0 : -ENOMEM;
}

void delivery_queue_free(struct delivery_queue *q)
{
	free(q->ring);
	q->ring = NULL;
	q->head = q->len = q->cap = 0;
}

int delivery_queue_push(struct delivery_queue *q,
			const struct delivery_req *req)
{
	if (q->len == q->cap) {
		size_t cap = q->cap * 2, first = q->cap - q->head;
		struct delivery_req *ring = malloc(cap * sizeof(*ring));

		if (!ring)
			return -ENOMEM;
		/* unwrap: the oldest goes to slot 0 */
		memcpy(ring, q->ring + q->head, first * sizeof(*ring));
		memcpy(ring + first, q->ring, q->head * sizeof(*ring));
		free(q->ring);
		q->ring = ring;
		q->head = 0;
		q->cap = cap;
	}
	q->ring[(q->head + q->len) % q->cap] = *req;
	q->len++;
	return 0;
}

int delivery_queue_pop(struct delivery_queue *q, struct delivery_req *req)
{
	if (!q->len)
		return -ENOENT;
	*req = q->ring[q->head];
	q->head = (q->head + 1) % q->cap;
	q->len--;
	return 0;
}
