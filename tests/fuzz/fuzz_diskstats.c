/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_diskstats.c - libFuzzer target for the /proc/diskstats reader
 * (parse_diskstats), the delta between two snapshots and the rates
 * computed from it. The input is the snapshot before, FUZZ_SEP, and the
 * one after; without a separator the one snapshot is compared with itself.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_diskstats.h"

/* Parse one part; 0 with *s filled, or negative. */
static int parse_part(const struct fuzz_part *p, struct diskstats_snapshot *s)
{
	struct err err;
	char *copy;
	FILE *f = fuzz_open(p->data, p->size, &copy);
	int rc;

	if (!f)
		return -1;
	rc = parse_diskstats(f, s, &err);
	fuzz_close(f, copy);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[2];
	struct diskstats_snapshot before, after;
	struct diskstats_delta d;
	struct diskstats_rates r;
	struct err err;
	size_t n = fuzz_split(data, size, parts, 2), i;

	if (parse_part(&parts[0], &before) < 0)
		return 0;
	if (parse_part(&parts[n - 1], &after) < 0) {
		parse_diskstats_free(&before);
		return 0;
	}
	for (i = 0; i < after.ndevs; i++)
		(void)parse_diskstats_find(&before, after.devs[i].name);
	if (parse_diskstats_delta(&before, &after, &d, &err) == 0) {
		for (i = 0; i < d.ndevs; i++) {
			(void)parse_diskstats_delta_find(&d, d.devs[i].name);
			(void)parse_diskstats_rates(&d.devs[i], 1.0, &r, &err);
			(void)parse_diskstats_rates(&d.devs[i], 0.0, &r, &err);
		}
		parse_diskstats_delta_free(&d);
	}
	parse_diskstats_free(&before);
	parse_diskstats_free(&after);
	return 0;
}
