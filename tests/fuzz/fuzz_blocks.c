/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_blocks.c - libFuzzer target for the reader of a block run's
 * blocks.csv (blocks_schedule_parse_text, which
 * blocks_schedule_parse_file hands the file to), then placing the
 * blocks on the run's clock and cutting their measured windows with a
 * few settle times. Besides the sanitizers it aborts when an accepted
 * file breaks what the reader promises of its rows (block numbers 0, 1,
 * 2... in the A B B A order, each ending after it starts, exit statuses
 * 0..255) or a used window is empty or outside its block.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "analysis/parsers/blocks_schedule.h"

/* Abort unless the rows of s are what blocks_schedule.h promises. */
static void check_rows(const struct blocks_schedule *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct blocks_block *b = &s->items[i];

		if (b->index != i || b->arm != blocks_schedule_arm(i) ||
		    !(b->end_s >= b->start_s) || !(b->switch_s >= 0) ||
		    b->status < 0 || b->status > 255)
			abort();
	}
}

/* Cut the windows with settle_s; abort when a used one is wrong. */
static void check_windows(const struct blocks_schedule *s, double settle_s,
			  struct blocks_window *w)
{
	struct err err;
	size_t i;

	if (blocks_schedule_windows(s, settle_s, w, &err) < 0)
		return;
	for (i = 0; i < s->n; i++) {
		if ((unsigned int)w[i].use >= BLOCKS_USE_NR)
			abort();
		if (w[i].use == BLOCKS_USE_OK &&
		    (!(w[i].end_s > w[i].start_s) ||
		     w[i].start_s < s->items[i].start_s ||
		     w[i].end_s > s->items[i].end_s))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct blocks_schedule s;
	struct blocks_window *w;
	struct err err;
	char *text;

	/* The file reader refuses a NUL byte before parsing the text. */
	if (memchr(data, '\0', size))
		return 0;
	text = fuzz_strndup(data, size);
	if (!text)
		return 0;
	if (blocks_schedule_parse_text(text, "blocks.csv", &s, &err) == 0) {
		check_rows(&s);
		blocks_schedule_place(&s, s.items[0].start_s);
		w = calloc(s.n, sizeof(*w));
		if (w) {
			check_windows(&s, 0, w);
			check_windows(&s, 5, w);
			check_windows(&s, 1e9, w);
			(void)blocks_schedule_windows(&s, -1, w, &err);
			(void)blocks_schedule_windows(&s, NAN, w, &err);
			free(w);
		}
		blocks_schedule_free(&s);
	}
	free(text);
	return 0;
}
