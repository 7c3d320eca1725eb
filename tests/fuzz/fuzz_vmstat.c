/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_vmstat.c - libFuzzer target for the vmstat reader (parse_vmstat):
 * the input is what `vmstat -n 1` (-t, -w) wrote; the lookups the
 * report makes afterwards run on whatever was kept.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_vmstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmstat_series s;
	struct err err;
	double mean;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;

	if (!f)
		return 0;
	if (parse_vmstat(f, &s, &err) == 0) {
		int cs = parse_vmstat_column(&s, "cs");

		for (i = 0; i < s.nsamples; i++)
			(void)parse_vmstat_value(&s, i, cs);
		(void)parse_vmstat_value(&s, s.nsamples, 0);
		(void)parse_vmstat_mean(&s, cs, 0, s.nsamples, &mean, &err);
		(void)parse_vmstat_mean(&s, 0, 1, s.nsamples, &mean, &err);
		parse_vmstat_free(&s);
	}
	fuzz_close(f, copy);
	return 0;
}
