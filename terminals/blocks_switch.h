/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_switch.h - the switcher of a block run (docs/blocks.md): beside
 * one long `oltpmark run`, switch a variant between arm A (as found) and
 * arm B (applied) on an absolute wall clock, block by block in the order
 * A B B A A B B A ..., and write blocks.csv, the file compare reads to
 * cut each block's measured window. `oltpmark blocks-switch` is this
 * engine with options; run/oltpmark-run starts it in the background.
 *
 * Block 0 begins at start_us (CLOCK_REALTIME), block k at start_us +
 * k x block_us, or when block k - 1 ended if that was later (a switch
 * that overran); each block ends where the next begins. Where the arm
 * changes, the command runs at the block's start with "apply" (into B)
 * or "restore" (into A) appended and OLTPMARK_VARIANT_SWITCH=1 in its
 * environment, its output appended to the log after a line
 * "<epoch s.mmm> block K: apply|restore". A block's row of blocks.csv
 * (src/base/blocks_format.h) is written when it ends.
 *
 * It lives among the run engine's files because it is part of running,
 * not of reading results; it needs nothing but src/base.
 */
#ifndef OLTPMARK_BLOCKS_SWITCH_H
#define OLTPMARK_BLOCKS_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "src/base/err.h"

/* What to switch and when. */
struct blocks_switch_opts {
	int64_t start_us;     /* block 0 begins: microseconds since the
				   epoch, CLOCK_REALTIME */
	int64_t block_us;     /* nominal length of a block, > 0 */
	size_t nblocks;	      /* blocks to run */
	pid_t pid;	      /* the run beside us: nothing more is
				   switched once it is gone; it gets SIGINT
				   when a switch fails. 0: none */
	const char *csv_path; /* blocks.csv, created (truncated) at once */
	const char *log_path; /* the switches' log, appended to */
	char *const *cmd;     /* the variant's command, NULL-terminated
				   (execvp: cmd[0] is looked up in PATH);
				   apply or restore is appended */
};

/* How the switcher ended. */
struct blocks_switch_result {
	size_t rows;	     /* rows written to blocks.csv */
	bool stopped;	     /* SIGTERM ended it (blocks_switch_catch_term()) */
	bool run_gone;	     /* the run's pid went away before the last block */
	int status;	     /* exit status of the command that failed (128 +
			       signal when killed, 127 when it could not be
			       run), 0 when none failed */
	size_t failed_block; /* the block whose switch failed, if status */
	const char *failed_action; /* "apply" or "restore", if status */
};

/*
 * Make SIGTERM stop blocks_switch_run() (it ends the block under way at
 * once, after a command that is running has finished: a switch is never
 * cut in half) and ignore SIGINT (the runner decides what an interrupt
 * stops). SIGTERM is blocked outside the switcher's sleeps, so it cannot
 * slip between a check and a sleep. For a process that does nothing
 * else: it changes the process's signal dispositions and mask. Returns 0
 * or negative errno with err set.
 */
int blocks_switch_catch_term(struct err *err);

/*
 * Run the whole schedule of o. Returns 0 when it ended as it should:
 * every block done, stopped by SIGTERM, the run gone, or a command
 * failed (then res->status is not 0, the failed block's row holds the
 * status capped at 255 and the run got SIGINT: the caller reports it and
 * fails). Negative errno with err set when blocks.csv or the log cannot
 * be written or the command cannot be started (fork). Not thread-safe:
 * one switcher per process.
 */
int blocks_switch_run(const struct blocks_switch_opts *o,
		      struct blocks_switch_result *res, struct err *err);

#endif
