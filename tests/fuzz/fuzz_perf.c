/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_perf.c - libFuzzer target for the `perf report --stdio` reader
 * (parse_perf), then what compare does with a report: merge compiler
 * clones of a symbol, sort by overhead, look entries up.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_perf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_report r;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;

	if (!f)
		return 0;
	if (parse_perf(f, &r, &err) == 0) {
		(void)parse_perf_merge_normalized(&r, &err);
		parse_perf_sort(&r);
		for (i = 0; i < r.n; i++)
			(void)parse_perf_find(&r, r.entries[i].dso,
					      r.entries[i].symbol);
		parse_perf_free(&r);
	}
	fuzz_close(f, copy);
	return 0;
}
