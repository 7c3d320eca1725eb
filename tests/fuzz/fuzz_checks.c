/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_checks.c - libFuzzer target for the reader that splits
 * schema/checks.sql into the consistency conditions (check_parse in
 * src/load/check.c): "-- C<n>: description" lines, each followed by its
 * query. The file is compiled into the binary, so only an edit of it
 * reaches the reader; the target keeps that edit from turning into a
 * crash. Besides the sanitizers it aborts when an accepted text gives
 * more conditions than CHECK_MAX, one without its query, or a
 * description that is not the one line after "C<n>:" (a lone CR inside
 * a line is no line end: lines end at '\n').
 */
#include "tests/fuzz/fuzz.h"

#include "src/load/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_cond conds[CHECK_MAX];
	char *text = fuzz_strndup(data, size);
	struct err err;
	int n, i;

	if (!text)
		return 0;
	n = check_parse(text, conds, &err);
	if (n > CHECK_MAX)
		abort();
	for (i = 0; i < n; i++)
		if (!conds[i].sql || !conds[i].sql[0] ||
		    strlen(conds[i].desc) >= sizeof(conds[i].desc) ||
		    strchr(conds[i].desc, '\n'))
			abort();
	if (n > 0)
		check_conds_free(conds, n);
	free(text);
	return 0;
}
