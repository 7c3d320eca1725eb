/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_schedule.h - the schedule of a block run: one long run in which
 * a setting is switched between arm A (as found) and arm B (the variant
 * applied) every block, in the order A B B A A B B A ..., and the file
 * blocks.csv in which the runner records when each block began and ended
 * and how its switch went (docs/blocks.md, "blocks.csv").
 *
 * From it come the measured windows: each block less its switch and the
 * --settle seconds after it, and without the blocks whose arm is not
 * known to be in force. The per-block NOTPM of those windows is what
 * blocks_estimate.h scores.
 */
#ifndef OLTPMARK_ANALYSIS_PARSERS_BLOCKS_SCHEDULE_H
#define OLTPMARK_ANALYSIS_PARSERS_BLOCKS_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

#include "src/base/blocks_format.h"
#include "src/base/err.h"

/*
 * The header BLOCKS_CSV_HEADER, enum blocks_arm and the A B B A order
 * are blocks.csv's, defined once in src/base/blocks_format.h for this
 * reader and for the writer, `oltpmark blocks-switch`.
 */

/* Whether a block's measured window can be scored, and if not why. */
enum blocks_use {
	BLOCKS_USE_OK,		  /* scored */
	BLOCKS_USE_SWITCH_FAILED, /* its switch, or the last one before it,
				     exited non-zero: the arm is unknown */
	BLOCKS_USE_EMPTY,	  /* the switch and the settle time fill it */
	BLOCKS_USE_SHORT,	  /* measured window under half the median's */
	BLOCKS_USE_NR
};

/* One row of blocks.csv. */
struct blocks_block {
	size_t index;	     /* block number, from 0 */
	enum blocks_arm arm; /* blocks_schedule_arm(index) */
	double start_s;	     /* the block began: its switch was called
				(seconds since the epoch, or since the start
				of the run after blocks_schedule_place()) */
	double end_s;	     /* the next block began, or the run ended */
	double switch_s;     /* seconds the switch script ran; 0 when the
				arm did not change and nothing ran */
	int status;	     /* the script's exit status, 0 when none ran */
};

/* All rows of one blocks.csv, in block order. Owns items. */
struct blocks_schedule {
	struct blocks_block *items; /* n rows */
	size_t n;		    /* rows used */
	size_t cap;		    /* rows allocated */
};

/* The part of a block that is measured, and whether it is used. */
struct blocks_window {
	double start_s;	     /* start_s + switch_s + settle, inclusive */
	double end_s;	     /* the block's end_s, exclusive */
	enum blocks_use use; /* BLOCKS_USE_OK when it is scored */
};

/* The arm of block k in the order A B B A A B B A ...: blocks_format_arm(). */
enum blocks_arm blocks_schedule_arm(size_t k);

/* The A B B A group of block k: k / BLOCKS_GROUP. */
size_t blocks_schedule_group(size_t k);

/*
 * Whether the runner calls the variant's script at the start of block k:
 * when the arm differs from block k - 1's (apply into B, restore into
 * A). Never for block 0, which starts as found.
 */
bool blocks_schedule_switches(size_t k);

/* "A" or "B"; "?" for a value out of range: blocks_format_arm_name(). */
const char *blocks_schedule_arm_name(enum blocks_arm arm);

/* "ok", "switch failed", "empty", "short"; "?" out of range. */
const char *blocks_schedule_use_name(enum blocks_use use);

/*
 * Read blocks.csv from text (the whole file, NUL-terminated) into *out,
 * times as in the file. Every row is checked, and the first fault gives
 * -EBADMSG with err naming the file as name and the line: a header
 * other than BLOCKS_CSV_HEADER, a row without exactly six fields, block
 * numbers not 0, 1, 2... in order, an arm other than the schedule's, a
 * time not a non-negative number, a block that ends before it starts or
 * before its switch ended or that starts before the previous one ended,
 * a status outside 0..255, an empty line, a last line without its
 * newline (a file cut short). -ENODATA for a file with no rows (an empty
 * file, or the header alone); -ENOMEM. *out is empty after a failure;
 * free it with blocks_schedule_free().
 */
int blocks_schedule_parse_text(const char *text, const char *name,
			       struct blocks_schedule *out, struct err *err);

/*
 * blocks_schedule_parse_text() on the file at path, named name in
 * messages (e.g. "blocks.csv"). -ENOENT when it does not exist; -EBADMSG
 * also for a NUL byte or a file over 16 MB; -EIO.
 */
int blocks_schedule_parse_file(const char *path, const char *name,
			       struct blocks_schedule *out, struct err *err);

/*
 * Put every time on the run's clock: subtract start_epoch_s (meta.json
 * start_unix_s) from start_s and end_s.
 */
void blocks_schedule_place(struct blocks_schedule *s, double start_epoch_s);

/*
 * The measured window of each of the s->n blocks into w[0..n-1]: from the
 * end of the switch plus settle_s seconds to the end of the block. A
 * block is used (BLOCKS_USE_OK) unless, in this order: its status, or
 * that of the last block before it where the script ran (an exit status
 * other than 0 leaves the setting in an unknown state until the next
 * switch succeeds), is not 0; its window is empty; its window is less
 * than half the median window of the blocks neither failed nor empty (a
 * switch that hung, a run cut short in its last block). Returns 0;
 * -EINVAL when settle_s is negative or not finite.
 */
int blocks_schedule_windows(const struct blocks_schedule *s, double settle_s,
			    struct blocks_window *w, struct err *err);

/* Free the rows. Safe on a zeroed schedule. */
void blocks_schedule_free(struct blocks_schedule *s);

#endif
