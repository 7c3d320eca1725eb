/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_iostat_text.c - libFuzzer target for the iostat reader's text side
 * (`iostat -dxk -t -y 1` output). parse_iostat() takes JSON when the
 * first non-blank byte is '{': such inputs are left to fuzz_iostat_json.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_iostat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iostat_data d;
	struct err err;
	char *copy;
	size_t i = 0;
	FILE *f;

	while (i < size && strchr(" \t\r\n", data[i]) && data[i])
		i++;
	if (i < size && data[i] == '{')
		return 0;
	f = fuzz_open(data, size, &copy);
	if (!f)
		return 0;
	if (parse_iostat(f, &d, &err) == 0) {
		for (i = 0; i < d.ndevices; i++)
			(void)parse_iostat_device(&d, d.devices[i].name);
		parse_iostat_free(&d);
	}
	fuzz_close(f, copy);
	return 0;
}
