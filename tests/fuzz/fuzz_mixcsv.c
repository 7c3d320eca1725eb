/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_mixcsv.c - libFuzzer target for the mix.csv reader (mixcsv.c).
 * The reader takes a path and reads with read(2), so the input goes to
 * a file of the target's private directory first.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/report/mixcsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mixcsv_reader r;
	struct mixcsv_row row;
	struct err err;
	char path[512];
	const char *dir = fuzz_tmpdir();

	if (!dir || fuzz_write("mix.csv", data, size) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	if (mixcsv_open(&r, path, &err) < 0)
		return 0;
	while (mixcsv_next(&r, &row, &err) > 0)
		;
	mixcsv_close(&r);
	return 0;
}
