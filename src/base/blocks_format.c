/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_format.c - the A B B A order and the rows of blocks.csv (see
 * blocks_format.h).
 */
#include "src/base/blocks_format.h"

#include <inttypes.h>
#include <stdio.h>

/* The arms of one group, in order. */
static const enum blocks_arm group_arms[BLOCKS_GROUP] = {
	BLOCKS_ARM_A,
	BLOCKS_ARM_B,
	BLOCKS_ARM_B,
	BLOCKS_ARM_A,
};

enum blocks_arm blocks_format_arm(size_t k)
{
	return group_arms[k % BLOCKS_GROUP];
}

const char *blocks_format_arm_name(enum blocks_arm arm)
{
	switch (arm) {
	case BLOCKS_ARM_A:
		return "A";
	case BLOCKS_ARM_B:
		return "B";
	default:
		return "?";
	}
}

/* Write us as seconds with 3 decimals, truncated; us >= 0. */
static int put_s(char *buf, size_t size, int64_t us)
{
	if (us < 0)
		us = 0;
	return snprintf(buf, size, "%" PRId64 ".%03" PRId64, us / 1000000,
			us % 1000000 / 1000);
}

size_t blocks_format_row(char *buf, size_t size, size_t k, int64_t start_us,
			 int64_t end_us, int64_t switch_us, int status)
{
	char start[32], end[32], sw[32];
	int n;

	put_s(start, sizeof(start), start_us);
	put_s(end, sizeof(end), end_us);
	put_s(sw, sizeof(sw), switch_us);
	if (status < 0)
		status = 0;
	if (status > 255)
		status = 255;
	n = snprintf(buf, size, "%zu,%s,%s,%s,%s,%d\n", k,
		     blocks_format_arm_name(blocks_format_arm(k)), start, end,
		     sw, status);
	if (n < 0)
		return 0;
	return (size_t)n < size ? (size_t)n : size - 1;
}
