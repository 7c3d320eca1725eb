/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_perflock.c - libFuzzer target for the `perf lock contention`
 * reader (parse_perflock) and the lookups compare makes on its rows.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_perflock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perflock_data d;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;

	if (!f)
		return 0;
	if (parse_perflock(f, &d, &err) == 0) {
		for (i = 0; i < d.n; i++)
			(void)parse_perflock_find(&d, d.rows[i].func);
		parse_perflock_free(&d);
	}
	fuzz_close(f, copy);
	return 0;
}
