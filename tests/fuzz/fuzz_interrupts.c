/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_interrupts.c - libFuzzer target for the /proc/interrupts reader
 * (parse_interrupts) and the delta between two snapshots. The input is
 * the snapshot before, FUZZ_SEP, and the one after; without a separator
 * the one snapshot is compared with itself.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_interrupts.h"

/* Parse one part; 0 with *s filled, or negative. */
static int parse_part(const struct fuzz_part *p, struct irq_snapshot *s)
{
	struct err err;
	char *copy;
	FILE *f = fuzz_open(p->data, p->size, &copy);
	int rc;

	if (!f)
		return -1;
	rc = parse_interrupts(f, s, &err);
	fuzz_close(f, copy);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[2];
	struct irq_snapshot before, after;
	struct irq_delta d;
	struct err err;
	size_t n = fuzz_split(data, size, parts, 2), i;

	if (parse_part(&parts[0], &before) < 0)
		return 0;
	if (parse_part(&parts[n - 1], &after) < 0) {
		parse_interrupts_free(&before);
		return 0;
	}
	if (parse_interrupts_delta(&before, &after, &d, &err) == 0) {
		parse_interrupts_delta_sort(&d);
		for (i = 0; i < d.n; i++)
			(void)parse_interrupts_delta_find(&d,
							  d.entries[i].name);
		(void)parse_interrupts_delta_find(&d, "LOC");
		parse_interrupts_delta_free(&d);
	}
	parse_interrupts_free(&before);
	parse_interrupts_free(&after);
	return 0;
}
