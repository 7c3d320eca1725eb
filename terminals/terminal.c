/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * terminal.c - a terminal's state when it joins the run (see terminal.h).
 *
 * A terminal's life is a chain of cycles, one per card of its deck: key
 * the card's input (constant K), the transaction (about 0 with the null
 * driver, and small beside K + Z with a database), think (Z, exponential,
 * cut at 10 means). Seen at a moment drawn uniformly from a long run, the
 * deck is a uniformly shuffled pass and the terminal is in the keying of
 * its card j with probability K(card j) / S, or in the think time after
 * it with probability E[Z(card j)] / S, where S sums both over the pass
 * (the same for every order of the cards). So the card's position is
 * uniform, its type is chosen in proportion to its mean cycle, and what
 * is left of the phase it is in is that phase's equilibrium residual:
 * uniform in (0, K) for keying, pacing_think_residual_us() for thinking,
 * followed by the next card's keying. The time a transaction takes is
 * left out: it is not known before the run and only shifts the weights
 * by its share of the cycle.
 */
#include "terminals/terminal.h"

void terminal_start(struct terminal *t, const struct pacing *p)
{
	double key_us[TXN_NR], think_us[TXN_NR], total = 0, u;
	int type, j;

	for (type = 0; type < TXN_NR; type++) {
		key_us[type] = (double)pacing_keying_us(p, type);
		think_us[type] = pacing_think_mean_us(p, type);
		total += deck_cards_per_set[type] *
			 (key_us[type] + think_us[type]);
	}
	deck_init(&t->deck);
	deck_shuffle(&t->deck, &t->rng);
	if (!(total > 0)) {
		/* nothing to wait for: any position, due at once */
		deck_seek(&t->deck, (int)rng_range(&t->rng, 0, DECK_CARDS - 1));
		t->next = deck_draw(&t->deck, &t->rng);
		t->due_us = 0;
		return;
	}
	/* one draw over the pass's 2 x 23 phases, weighted by mean length */
	u = rng_unit_open(&t->rng) * total;
	for (j = 0; j < DECK_CARDS; j++) {
		enum txn_type c = (enum txn_type)t->deck.cards[j];

		if (u < key_us[c]) {
			/* keying card j in: what is left of K is uniform */
			deck_seek(&t->deck, j);
			t->next = deck_draw(&t->deck, &t->rng);
			t->due_us =
				(int64_t)(rng_unit_open(&t->rng) * key_us[c]);
			return;
		}
		u -= key_us[c];
		/* the last phase also takes what rounding left over */
		if (u < think_us[c] || j == DECK_CARDS - 1) {
			/* thinking after card j, then keying the next */
			deck_seek(&t->deck, j + 1);
			t->next = deck_draw(&t->deck, &t->rng);
			t->due_us = pacing_think_residual_us(p, c, &t->rng) +
				    pacing_keying_us(p, t->next);
			return;
		}
		u -= think_us[c];
	}
}
