/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * deck.h - the transaction mix as a deck of cards (TPC-C 5.2.4.2;
 * docs/tpcc.md, Terminals and the mix).
 *
 * A deck holds one set of 23 cards: 10 New-Order, 10 Payment and one each
 * of Order-Status, Delivery and Stock-Level. A terminal draws its next
 * transaction from its own deck; when the deck is used up it is shuffled
 * again, so every pass of 23 draws holds exactly that mix, in a new
 * uniformly random order. One deck per terminal is the case "k = 1" of
 * the clause (a deck shared by k terminals holds at least k sets): no
 * lock, and the mix is exact per terminal, not only on average.
 */
#ifndef OLTPMARK_DECK_H
#define OLTPMARK_DECK_H

#include <stdint.h>

#include "src/base/rng.h"
#include "src/base/txn.h"

#define DECK_CARDS 23 /* cards in one set */

/* One terminal's deck. */
struct deck {
	uint8_t cards[DECK_CARDS]; /* enum txn_type of each card */
	uint8_t next;		   /* index of the next card to draw */
};

/* Cards of each type in one set: 10, 10, 1, 1, 1. */
extern const uint8_t deck_cards_per_set[TXN_NR];

/* Fill the deck with one set; the first draw shuffles it. */
void deck_init(struct deck *deck);

/*
 * Begin a pass now: shuffle the set (Fisher-Yates with rng) and put the
 * next draw at its first card. deck_draw() does this by itself when a
 * pass is used up; a terminal that starts in the middle of a pass calls
 * it, then deck_seek().
 */
void deck_shuffle(struct deck *deck, struct rng *rng);

/*
 * Make the card at position pos (0..DECK_CARDS - 1) of the current pass
 * the next one drawn; DECK_CARDS: the pass is used up, the next draw
 * shuffles. Other values are clamped to that range.
 */
void deck_seek(struct deck *deck, int pos);

/*
 * Next transaction type. Shuffles (Fisher-Yates with rng) when a pass
 * begins. Not thread-safe: a deck belongs to one terminal.
 */
enum txn_type deck_draw(struct deck *deck, struct rng *rng);

#endif
