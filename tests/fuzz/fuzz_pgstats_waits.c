/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_pgstats_waits.c - libFuzzer target for the reader of the pg-stats
 * hook's sys/pg_wait_events.csv (parse_pgstats_waits): psql's CSV, one
 * row per wait event, type and backend state a second, added up, then
 * sorted as report and compare show them. Besides the sanitizers it
 * aborts when an accepted file gives a sum that is not a number >= 0 or
 * the sort leaves them out of order.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "analysis/parsers/parse_pgstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgstats_waits w;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;

	if (!f)
		return 0;
	if (parse_pgstats_waits(f, &w, &err) == 0) {
		if (w.samples > w.rows)
			abort();
		parse_pgstats_waits_sort(&w);
		for (i = 0; i < w.n; i++) {
			if (!w.v[i].type || !w.v[i].event || !w.v[i].state ||
			    !(w.v[i].sessions >= 0))
				abort();
			if (i > 0 && w.v[i].sessions > w.v[i - 1].sessions)
				abort();
		}
		parse_pgstats_waits_free(&w);
	}
	fuzz_close(f, copy);
	return 0;
}
