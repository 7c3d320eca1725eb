/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scheduler.c - the per-worker min-heap of terminals (see scheduler.h).
 */
#include "terminals/scheduler.h"

#include <errno.h>
#include <stdlib.h>

static inline bool before(const struct terminal *a, const struct terminal *b)
{
	return a->due_us < b->due_us ||
	       (a->due_us == b->due_us && a->id < b->id);
}

int sched_init(struct sched *s, int cap)
{
	s->n = 0;
	s->cap = cap;
	s->heap = calloc(cap > 0 ? (size_t)cap : 1, sizeof(*s->heap));
	return s->heap ? 0 : -ENOMEM;
}

void sched_free(struct sched *s)
{
	free(s->heap);
	s->heap = NULL;
	s->n = s->cap = 0;
}

int sched_push(struct sched *s, struct terminal *t)
{
	int i;

	if (s->n >= s->cap)
		return -ENOSPC;
	i = s->n++;
	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(t, s->heap[parent]))
			break;
		s->heap[i] = s->heap[parent];
		i = parent;
	}
	s->heap[i] = t;
	return 0;
}

/* Put t at the root's place and sift it down. */
static void sift_down(struct sched *s, struct terminal *t)
{
	int i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= s->n)
			break;
		if (c + 1 < s->n && before(s->heap[c + 1], s->heap[c]))
			c++;
		if (!before(s->heap[c], t))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	s->heap[i] = t;
}

void sched_fix_top(struct sched *s)
{
	if (s->n > 1)
		sift_down(s, s->heap[0]);
}
