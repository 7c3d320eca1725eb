/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_format.h - the one definition of blocks.csv, the file in which
 * a block run records when each block began and ended and how its switch
 * went (docs/blocks.md, "blocks.csv"), and of the A B B A order of its
 * arms. Its writer (terminals/blocks_switch.c, behind `oltpmark
 * blocks-switch`) and its reader (analysis/parsers/blocks_schedule.c)
 * both take the header, the arm words and the order from here, so the
 * two cannot drift apart; it lives in src/base because those two sit in
 * layers that may not include each other.
 */
#ifndef OLTPMARK_BLOCKS_FORMAT_H
#define OLTPMARK_BLOCKS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define BLOCKS_GROUP	  4 /* blocks in one A B B A group */
#define BLOCKS_CSV_HEADER "block,arm,start_epoch,end_epoch,switch_s,status"
#define BLOCKS_FIELDS	  6   /* columns of BLOCKS_CSV_HEADER */
#define BLOCKS_ROW_MAX	  128 /* longest row blocks_format_row() writes */

/* Which setting is in force during a block. */
enum blocks_arm {
	BLOCKS_ARM_A, /* as found: the variant restored (or never applied) */
	BLOCKS_ARM_B, /* the variant applied */
	BLOCKS_ARM_NR
};

/*
 * The arm of block k in the order A B B A A B B A ... (k from 0): every
 * group of four is A B B A, so a linear drift within a group falls
 * equally on both arms, and the arm changes only every other block.
 */
enum blocks_arm blocks_format_arm(size_t k);

/* "A" or "B", the arm's word in blocks.csv; "?" for a value out of range. */
const char *blocks_format_arm_name(enum blocks_arm arm);

/*
 * One row of blocks.csv, with its newline, into buf (size bytes, at
 * least BLOCKS_ROW_MAX): block k, its arm, its start and end in
 * microseconds since the epoch and the microseconds its switch took,
 * all written as seconds with 3 decimals (truncated, as the runner
 * always wrote them), and status capped to 0..255. Returns the length.
 */
size_t blocks_format_row(char *buf, size_t size, size_t k, int64_t start_us,
			 int64_t end_us, int64_t switch_us, int status);

#endif
