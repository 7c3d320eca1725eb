/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_readprofile.c - libFuzzer target for the readprofile reader
 * (parse_readprofile), then what compare does with a profile: merge the
 * compiler clones of a function, sort by ticks, look names up.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_readprofile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rprof_profile p;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;

	if (!f)
		return 0;
	if (parse_readprofile(f, &p, &err) == 0) {
		if (p.n)
			(void)parse_readprofile_find(&p, p.entries[0].name);
		(void)parse_readprofile_merge_normalized(&p, &err);
		parse_readprofile_sort_by_ticks(&p);
		for (i = 0; i < p.n; i++)
			(void)parse_readprofile_find(&p, p.entries[i].name);
		parse_readprofile_free(&p);
	}
	fuzz_close(f, copy);
	return 0;
}
