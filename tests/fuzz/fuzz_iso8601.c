/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_iso8601.c - libFuzzer target for the ISO 8601 reader
 * (iso8601_parse in src/base/iso8601.c), which reads meta.json's
 * "start", the hooks' timestamps and iostat's. Besides the sanitizers it
 * aborts when a time is accepted as something other than a finite
 * number of seconds, or when appending a character to an accepted time
 * leaves it accepted (the reader takes whole strings only).
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "src/base/iso8601.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), *longer;
	double t;

	if (!text)
		return 0;
	t = iso8601_parse(text);
	if (!isnan(t)) {
		if (!isfinite(t))
			abort();
		longer = malloc(strlen(text) + 2);
		if (longer) {
			strcpy(longer, text);
			strcat(longer, "x");
			if (!isnan(iso8601_parse(longer)))
				abort();
			free(longer);
		}
	}
	free(text);
	return 0;
}
