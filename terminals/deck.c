/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * deck.c - the 23-card deck that chooses each terminal's next
 * transaction (see deck.h for why a deck and why one per terminal).
 */
#include "terminals/deck.h"

const uint8_t deck_cards_per_set[TXN_NR] = {
	[TXN_NEW_ORDER] = 10, [TXN_PAYMENT] = 10,    [TXN_ORDER_STATUS] = 1,
	[TXN_DELIVERY] = 1,   [TXN_STOCK_LEVEL] = 1,
};

void deck_init(struct deck *deck)
{
	int type, i, n = 0;

	for (type = 0; type < TXN_NR; type++)
		for (i = 0; i < deck_cards_per_set[type]; i++)
			deck->cards[n++] = (uint8_t)type;
	/* as if the last pass had just ended: the first draw shuffles */
	deck->next = DECK_CARDS;
}

void deck_shuffle(struct deck *deck, struct rng *rng)
{
	int i;

	for (i = DECK_CARDS - 1; i > 0; i--) {
		int j = (int)rng_range(rng, 0, i);
		uint8_t tmp = deck->cards[i];

		deck->cards[i] = deck->cards[j];
		deck->cards[j] = tmp;
	}
	deck->next = 0;
}

void deck_seek(struct deck *deck, int pos)
{
	deck->next = (uint8_t)(pos < 0		  ? 0
			       : pos > DECK_CARDS ? DECK_CARDS
						  : pos);
}

enum txn_type deck_draw(struct deck *deck, struct rng *rng)
{
	if (deck->next >= DECK_CARDS)
		deck_shuffle(deck, rng);
	return (enum txn_type)deck->cards[deck->next++];
}
