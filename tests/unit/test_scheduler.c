/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_scheduler.c - the per-worker heap of terminals comes out in
 * (due time, terminal) order, also while due times move forward as a
 * worker serves them; and the deferred-Delivery queue is first in, first
 * out across its growth.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>

#include "src/base/rng.h"
#include "terminals/delivery.h"
#include "terminals/scheduler.h"

enum { NT = 1000 };

static bool before(const struct terminal *a, const struct terminal *b)
{
	return a->due_us < b->due_us ||
	       (a->due_us == b->due_us && a->id < b->id);
}

/*
 * Served in (due time, terminal) order: take the top, send it to the end
 * of time, fix the top, NT times; every terminal comes out once.
 */
static void test_heap_order(void **state)
{
	static struct terminal terms[NT];
	struct terminal *t;
	int64_t prev_due = -1;
	struct sched s;
	struct rng r;
	int i, n, prev_id = 0;

	(void)state;
	rng_seed(&r, 1, 0);
	assert_int_equal(sched_init(&s, NT), 0);
	assert_null(sched_top(&s));
	for (i = 0; i < NT; i++) {
		terms[i].id = i + 1;
		/* few distinct times, so ties are common */
		terms[i].due_us = rng_range(&r, 0, 50);
		assert_int_equal(sched_push(&s, &terms[i]), 0);
	}
	assert_int_equal(sched_push(&s, &terms[0]), -ENOSPC);
	for (n = 0; n < NT; n++) {
		t = sched_top(&s);
		assert_true(t->due_us < INT64_MAX);
		assert_true(t->due_us > prev_due ||
			    (t->due_us == prev_due && t->id > prev_id));
		prev_due = t->due_us;
		prev_id = t->id;
		t->due_us = INT64_MAX;
		sched_fix_top(&s);
	}
	for (i = 0; i < NT; i++)
		assert_true(terms[i].due_us == INT64_MAX);
	sched_free(&s);
}

/*
 * A worker's use: take the top, move its due time forward, fix the top.
 * The top must always be the minimum over all terminals.
 */
static void test_fix_top_keeps_minimum(void **state)
{
	static struct terminal terms[NT];
	struct sched s;
	struct rng r;
	int i, step;

	(void)state;
	rng_seed(&r, 2, 0);
	assert_int_equal(sched_init(&s, NT), 0);
	for (i = 0; i < NT; i++) {
		terms[i].id = i + 1;
		terms[i].due_us = rng_range(&r, 0, 1000000);
		assert_int_equal(sched_push(&s, &terms[i]), 0);
	}
	for (step = 0; step < 20000; step++) {
		struct terminal *top = sched_top(&s), *min = &terms[0];

		for (i = 1; i < NT; i++)
			if (before(&terms[i], min))
				min = &terms[i];
		assert_ptr_equal(top, min);
		top->due_us += rng_range(&r, 0, 200000);
		sched_fix_top(&s);
	}
	assert_int_equal(s.n, NT);
	sched_free(&s);
}

static void test_single(void **state)
{
	struct terminal t = {.due_us = 5, .id = 1};
	struct sched s;

	(void)state;
	assert_int_equal(sched_init(&s, 1), 0);
	assert_int_equal(sched_push(&s, &t), 0);
	t.due_us = 10;
	sched_fix_top(&s);
	assert_ptr_equal(sched_top(&s), &t);
	sched_free(&s);
}

/* FIFO through wrap-around and growth from a ring of 2. */
static void test_delivery_queue_fifo(void **state)
{
	struct delivery_queue q;
	struct delivery_req req;
	int pushed = 0, popped = 0, round, k;

	(void)state;
	assert_int_equal(delivery_queue_init(&q, 2), 0);
	assert_int_equal(delivery_queue_pop(&q, &req), -ENOENT);
	for (round = 0; round < 50; round++) {
		for (k = 0; k < round % 7 + 1; k++) {
			req = (struct delivery_req){.queued_us = pushed,
						    .terminal = pushed + 1};
			req.in.o_carrier_id = pushed % 10 + 1;
			assert_int_equal(delivery_queue_push(&q, &req), 0);
			pushed++;
		}
		for (k = 0; k < round % 5 + 1 && delivery_queue_len(&q); k++) {
			assert_int_equal(delivery_queue_pop(&q, &req), 0);
			assert_int_equal(req.queued_us, popped);
			assert_int_equal(req.terminal, popped + 1);
			assert_int_equal(req.in.o_carrier_id, popped % 10 + 1);
			popped++;
		}
		assert_int_equal(delivery_queue_len(&q),
				 (size_t)(pushed - popped));
	}
	while (delivery_queue_pop(&q, &req) == 0)
		assert_int_equal(req.queued_us, popped++);
	assert_int_equal(popped, pushed);
	delivery_queue_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_order),
		cmocka_unit_test(test_fix_top_keeps_minimum),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_delivery_queue_fifo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
