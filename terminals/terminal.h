/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * terminal.h - one emulated TPC-C terminal: a small struct, not a thread.
 *
 * A terminal has a fixed home warehouse and a fixed district for
 * Stock-Level (the 10 terminals of a warehouse take districts 1..10,
 * 2.8.1.1), its own random stream and deck, the transaction it is keying
 * in and the CLOCK_MONOTONIC time that transaction is due, i.e. when the
 * emulated user presses "send" (end of keying). Worker threads keep their
 * terminals in a min-heap by due time (terminals/scheduler.h).
 */
#ifndef OLTPMARK_TERMINAL_H
#define OLTPMARK_TERMINAL_H

#include <stdint.h>

#include "src/base/rng.h"
#include "src/base/txn.h"
#include "terminals/deck.h"
#include "terminals/pacing.h"

/* One terminal. */
struct terminal {
	int64_t due_us;	    /* when next is submitted (CLOCK_MONOTONIC);
			       before the run starts, relative to the
			       terminal's own start (terminal_start) */
	int id;		    /* 1-based terminal number, as in mix.csv */
	int w_id;	    /* home warehouse */
	int sl_d_id;	    /* fixed Stock-Level district, 1..10 */
	enum txn_type next; /* the transaction being keyed in */
	struct rng rng;	    /* this terminal's own random stream */
	struct deck deck;   /* its 23-card deck */
};

/*
 * Put t where a terminal that had been running for ever would be at a
 * random moment: shuffle its deck, pick the card it is at and whether it
 * is keying that card in or thinking after it, with probability in
 * proportion to the mean time spent there, and set t->next, the deck's
 * position and t->due_us, the first due time relative to the terminal's
 * start (the worker adds the start). The population's arrivals and mix
 * are then stationary from the start, not bunched at the start of every
 * deck (docs/terminals.md, "Starting in phase"). With no keying or think
 * time the card is uniform and due at once. Uses t->rng only: seed it
 * first, and the same seed gives the same start. Not thread-safe for one
 * terminal.
 */
void terminal_start(struct terminal *t, const struct pacing *p);

#endif
