/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blockrun.h - the blocks of a block run (docs/blocks.md): a run in
 * which run/oltpmark-run switched a setting every block, A B B A A B B A
 * ..., recording each block in blocks.csv. For each block: its measured
 * window (less its switch and the settle time, within the run's
 * measured window), the New-Orders that completed in it and so its
 * NOTPM, and the host's steal share of it. summary.json "blocks" holds
 * them; oltpmark compare scores a block run from them.
 *
 * Fed like the summary: blockrun_read() before mix.csv is streamed,
 * blockrun_add() on each row, blockrun_finish() after.
 */
#ifndef OLTPMARK_ANALYSIS_BLOCKRUN_H
#define OLTPMARK_ANALYSIS_BLOCKRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/parsers/blocks_schedule.h"
#include "analysis/report/hostshare.h"
#include "analysis/report/mixcsv.h"
#include "src/base/err.h"

#define BLOCKRUN_VARIANT_LEN 64 /* longest variant name kept */

/* One block and what was measured in it. */
struct blockrun_block {
	struct blocks_block row;  /* blocks.csv's row, on the run's clock */
	struct blocks_window win; /* measured window and whether used */
	uint64_t new_orders;	  /* New-Orders (ok + rollback) completed
				      in the window */
	double notpm;		  /* per minute of the window; NAN when
				      the block is not used */
	double steal;		  /* steal share of the window, 0..1; NAN
				      when unknown */
};

/* A block run's blocks. Owns blocks. */
struct blockrun {
	bool present;	 /* blocks.csv was read */
	double block_s;	 /* notes.block_s: planned block length,
				   NAN when meta.json does not say */
	double settle_s; /* notes.settle_s (0 when absent) */
	char variant[BLOCKRUN_VARIANT_LEN]; /* notes.variant, "" if none */
	struct blockrun_block *blocks;	    /* n blocks, in order */
	size_t n;			    /* blocks */
	size_t used;			    /* blocks with use "ok" */
	bool steal_known;		    /* every used block has a share */
};

/* The blocks a switch left too little of: the evidence that the block is
 * too short for the switch on this host. */
struct blockrun_switch_loss {
	size_t switched; /* blocks that began with a switch */
	size_t lost;	 /* of those, empty or short */
	double max_s;	 /* the longest switch (0 when none) */
};

/* Count the blocks lost to their switch. */
void blockrun_switch_loss(const struct blockrun *b,
			  struct blockrun_switch_loss *out);

/*
 * Read run_dir/blocks.csv and cut each block's measured window with the
 * settle time of meta.json's notes, on the run's clock (start_epoch_s),
 * clipped to [window_start_s, window_end_s), the run's measured window:
 * a window cut short there is re-judged "short" (under half the median
 * window) or "empty". No blocks.csv: not present, 0. A file that is
 * refused, or no start time: not present, and why in why (a warning for
 * the summary: the run cannot be scored by its blocks), 0. -ENOMEM.
 */
int blockrun_read(const char *run_dir, const json_t *meta, double start_epoch_s,
		  double window_start_s, double window_end_s,
		  struct blockrun *out, char *why, size_t why_size,
		  struct err *err);

/* Count one mix.csv row in the window it completed in, if any. */
void blockrun_add(struct blockrun *b, const struct mixcsv_row *row);

/* After the rows: each block's NOTPM and, from h, its steal share. */
void blockrun_finish(struct blockrun *b, const struct hostshare *h);

/* summary.json "blocks" (NULL when not present). */
json_t *blockrun_json(const struct blockrun *b);

/* summary.txt's table of blocks (nothing when not present). */
void blockrun_write_text(const struct blockrun *b, FILE *f);

/* Free the blocks. Safe on a zeroed struct. */
void blockrun_free(struct blockrun *b);

#endif
