/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_kcost.c - libFuzzer target for the reader of the kernel-cost
 * hook's sys/kcost.*.csv (parse_kcost), then the figures per type
 * (kcost_compute) with the file as both snapshots. Besides the
 * sanitizers it aborts when an accepted file gives a negative counter or
 * a type outside the table, or the same file twice gives any growth.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "analysis/parsers/kcost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kcost_snapshot s;
	struct kcost_table t;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;
	int k;

	if (!f)
		return 0;
	if (parse_kcost(f, &s, &err) == 0) {
		for (i = 0; i < s.n; i++) {
			int type = parse_kcost_type(s.q[i].query);

			if (type < 0 || type >= KCOST_TYPE_NR)
				abort();
			for (k = 0; k < KCOST_COUNTER_NR; k++)
				if (!(s.q[i].v[k] >= 0))
					abort();
		}
		if (kcost_compute(&s, &s, NULL, NULL, &t) == 0) {
			/* a query id twice in one file may grow; one
			   row each cannot */
			for (i = 0; i < KCOST_TYPE_NR; i++)
				if (t.row[i].v[KCOST_CALLS] < 0)
					abort();
			kcost_free(&t);
		}
		parse_kcost_free(&s);
	}
	fuzz_close(f, copy);
	return 0;
}
