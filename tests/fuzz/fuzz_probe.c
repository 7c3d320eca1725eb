/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_probe.c - libFuzzer target for the reader of the host probe's
 * JSON files, sys/hostprobe.start.json and .stop.json (parse_probe).
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hprobe p;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);

	if (!f)
		return 0;
	(void)parse_probe(f, &p, &err);
	fuzz_close(f, copy);
	return 0;
}
