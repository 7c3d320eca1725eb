/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_report_json.c - libFuzzer target for the report's readers of
 * meta.json and run.json (summary_meta_from_json, summary_run_from_json,
 * plots_run_start). The input is parsed as report.c loads those files
 * (duplicate keys rejected) and handed to each reader.
 */
#include "tests/fuzz/fuzz.h"

#include <jansson.h>

#include "analysis/report/plots.h"
#include "analysis/report/summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sum_meta meta;
	struct sum_run run;
	json_error_t jerr;
	struct err err;
	int64_t start_ms, end_ms;
	json_t *root = json_loadb((const char *)data, size,
				  JSON_REJECT_DUPLICATES, &jerr);

	if (!root)
		return 0;
	(void)summary_meta_from_json(root, &meta, &err);
	if (summary_run_from_json(root, &run, &err) == 0)
		(void)summary_run_measured(&run, &start_ms, &end_ms);
	(void)plots_run_start(root);
	json_decref(root);
	return 0;
}
