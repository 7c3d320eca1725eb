/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_deck.c - the 23-card deck: every pass holds exactly 10 New-Order,
 * 10 Payment and one each of the others, and passes are reshuffled into
 * uniformly random orders.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "terminals/deck.h"

static void test_set_is_23_cards(void **state)
{
	int t, n = 0;

	(void)state;
	for (t = 0; t < TXN_NR; t++)
		n += deck_cards_per_set[t];
	assert_int_equal(n, DECK_CARDS);
	assert_int_equal(deck_cards_per_set[TXN_NEW_ORDER], 10);
	assert_int_equal(deck_cards_per_set[TXN_PAYMENT], 10);
	assert_int_equal(deck_cards_per_set[TXN_ORDER_STATUS], 1);
	assert_int_equal(deck_cards_per_set[TXN_DELIVERY], 1);
	assert_int_equal(deck_cards_per_set[TXN_STOCK_LEVEL], 1);
}

/* Exact composition in every pass, for many terminals' decks. */
static void test_every_pass_exact(void **state)
{
	int term, pass, i;

	(void)state;
	for (term = 0; term < 50; term++) {
		struct deck d;
		struct rng r;

		rng_seed(&r, 7, (uint64_t)term);
		deck_init(&d);
		for (pass = 0; pass < 400; pass++) {
			int count[TXN_NR] = {0};

			for (i = 0; i < DECK_CARDS; i++) {
				enum txn_type t = deck_draw(&d, &r);

				assert_true((unsigned)t < TXN_NR);
				count[t]++;
			}
			for (i = 0; i < TXN_NR; i++)
				assert_int_equal(count[i],
						 deck_cards_per_set[i]);
		}
	}
}

/*
 * Reshuffled per pass: the Delivery card's position in a pass is uniform
 * over the 23 places (chi-square with 22 degrees of freedom below 60,
 * p < 1e-4 by chance), and consecutive passes differ.
 */
static void test_passes_reshuffled(void **state)
{
	enum { PASSES = 46000 };
	int where[DECK_CARDS] = {0};
	uint8_t prev[DECK_CARDS] = {0};
	int same = 0, pass, i;
	double expect = (double)PASSES / DECK_CARDS, chi2 = 0;
	struct deck d;
	struct rng r;

	(void)state;
	rng_seed(&r, 11, 0);
	deck_init(&d);
	for (pass = 0; pass < PASSES; pass++) {
		uint8_t cur[DECK_CARDS];

		for (i = 0; i < DECK_CARDS; i++) {
			cur[i] = (uint8_t)deck_draw(&d, &r);
			if (cur[i] == TXN_DELIVERY)
				where[i]++;
		}
		if (pass && memcmp(cur, prev, sizeof(cur)) == 0)
			same++;
		memcpy(prev, cur, sizeof(cur));
	}
	for (i = 0; i < DECK_CARDS; i++)
		chi2 += (where[i] - expect) * (where[i] - expect) / expect;
	assert_true(chi2 < 60.0);
	/* a repeat has probability 23!/(10! 10!) ~ 1/(5.6e8) per pass */
	assert_true(same < 2);
}

/* Same seed, same sequence: runs are reproducible. */
static void test_reproducible(void **state)
{
	struct deck a, b;
	struct rng ra, rb;
	int i;

	(void)state;
	rng_seed(&ra, 3, 9);
	rng_seed(&rb, 3, 9);
	deck_init(&a);
	deck_init(&b);
	for (i = 0; i < 1000; i++)
		assert_int_equal(deck_draw(&a, &ra), deck_draw(&b, &rb));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_is_23_cards),
		cmocka_unit_test(test_every_pass_exact),
		cmocka_unit_test(test_passes_reshuffled),
		cmocka_unit_test(test_reproducible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
