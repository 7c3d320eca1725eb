/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_checkpoints.c - libFuzzer target for the reader of
 * sys/checkpoints.csv (checkpoints_parse_text, which
 * checkpoints_parse_file hands the file to), then placing the
 * checkpoints on a run's clock.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/report/checkpoints.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ckpt_list l;
	struct err err;
	char *text;

	/* The file reader refuses a NUL byte before parsing the text. */
	if (memchr(data, '\0', size))
		return 0;
	text = fuzz_strndup(data, size);
	if (!text)
		return 0;
	if (checkpoints_parse_text(text, "checkpoints.csv", &l, &err) == 0) {
		if (l.n)
			checkpoints_place(&l, l.items[0].start_s, 600.0);
		checkpoints_free(&l);
	}
	free(text);
	return 0;
}
