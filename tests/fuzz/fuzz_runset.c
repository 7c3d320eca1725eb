/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_runset.c - libFuzzer target for compare's readers of a run
 * directory's meta.json, summary.json and run.json (runset.c). They only
 * read from a directory, so the input, cut at FUZZ_SEP into meta.json,
 * summary.json and run.json (each part optional from the second on),
 * becomes those files in the target's private directory, which is then
 * scanned as one run.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/compare/runset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"meta.json", "summary.json",
					    "run.json"};
	struct fuzz_part parts[3];
	struct runset rs;
	struct err err;
	const char *dir = fuzz_tmpdir();
	size_t n = fuzz_split(data, size, parts, 3), i, k;

	if (!dir)
		return 0;
	for (i = 0; i < 3; i++)
		if (fuzz_write(names[i], i < n ? parts[i].data : NULL,
			       i < n ? parts[i].size : 0) < 0)
			return 0;
	if (runset_scan(&rs, &dir, 1, "notpm", &err) == 0) {
		const char **l = runset_labels(&rs, &k);

		free(l);
		l = runset_configs(&rs, &k);
		for (i = 0; l && i < k; i++)
			(void)runset_config_title(l[i]);
		free(l);
		for (i = 0; i < rs.nruns; i++)
			(void)runset_exclusion_reason(rs.runs[i].exclusion);
	}
	runset_free(&rs);
	return 0;
}
