/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_kcost_waits.c - libFuzzer target for the reader of the
 * kernel-cost hook's sys/kcost_waits.*.csv (parse_kcost_waits), then the
 * wait samples per type from an empty start to the file. Besides the
 * sanitizers it aborts when an accepted file gives a count that is not a
 * number >= 0, or a type's top events with shares outside 0..1 or out of
 * order.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "analysis/parsers/kcost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kcost_snapshot none = {0};
	struct kcost_waits w, empty = {0};
	struct kcost_table t;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i, j;

	if (!f)
		return 0;
	if (parse_kcost_waits(f, &w, &err) == 0) {
		for (i = 0; i < w.n; i++)
			if (!(w.w[i].count >= 0))
				abort();
		if (kcost_compute(&none, &none, &empty, &w, &t) == 0) {
			for (i = 0; i < KCOST_TYPE_NR; i++)
				for (j = 0; j < t.row[i].ntop; j++) {
					const struct kcost_topwait *x =
						&t.row[i].top[j];

					if (!(x->share >= 0 &&
					      x->share <= 1 + 1e-9))
						abort();
					if (j > 0 &&
					    x->samples >
						    t.row[i].top[j - 1].samples)
						abort();
				}
			kcost_free(&t);
		}
		parse_kcost_waits_free(&w);
	}
	fuzz_close(f, copy);
	return 0;
}
