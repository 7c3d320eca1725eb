/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_lockstat.c - libFuzzer target for the /proc/lock_stat reader
 * (parse_lockstat), then the sorts and lookups compare makes on it.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_lockstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lockstat_data d;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;
	int col;

	if (!f)
		return 0;
	if (parse_lockstat(f, &d, &err) == 0) {
		for (col = 0; col < LS_NR; col++) {
			(void)parse_lockstat_col_name((enum lockstat_col)col);
			parse_lockstat_sort(&d, (enum lockstat_col)col);
		}
		for (i = 0; i < d.n; i++)
			(void)parse_lockstat_find(&d, d.classes[i].name,
						  d.classes[i].kind);
		parse_lockstat_free(&d);
	}
	fuzz_close(f, copy);
	return 0;
}
