/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge.h - `oltpmark merge`: the run directories of several drivers of
 * one run (each an `oltpmark run --warehouse-range`, docs/run.md,
 * "Several drivers") joined into one run directory that `oltpmark
 * report` and `compare` read as any other.
 *
 * What the merged directory holds (docs/formats.md, "A merged run"):
 * mix.csv with every part's rows on the server's clock (each part's t_ms
 * shifted by where its start fell on the server's clock, from the offset
 * its meta.json recorded) and a last column, host; run.json with the
 * counts and inputs summed over the parts; meta.json from the first
 * part's, with the whole warehouse range and a "merge" object listing
 * the parts. Figures (NOTPM, the mix, the percentiles) are then
 * computed from the merged rows by the report: percentiles from the
 * merged samples, never averaged.
 *
 * Parts are refused (bad input) when their workload differs (the
 * fingerprint's workload group but connections, the label, the NURand
 * constants), when their warehouse ranges overlap or leave a gap in
 * 1..W, or when their starts on the server's clock are further apart
 * than MERGE_START_SPREAD_MAX_MS. A partial part makes the merge
 * partial.
 */
#ifndef OLTPMARK_MERGE_H
#define OLTPMARK_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "src/base/err.h"

/* Parts whose starts (server's clock) differ by more are refused. */
#define MERGE_START_SPREAD_MAX_MS 1000

/* What a merge did, for the command's last line. */
struct merge_result {
	int parts;		/* run directories merged */
	uint64_t rows;		/* rows written to mix.csv */
	bool partial;		/* a part was partial */
	double start_spread_ms; /* latest start - earliest, server's clock */
};

/*
 * Merge the n >= 2 run directories dirs into out, which must not exist
 * or be an empty directory (its parent must exist). 0 with *res filled;
 * -EINVAL with err set for parts that cannot be merged (one line, naming
 * the part and what differs), -ENOENT/-EBADMSG for a missing or unreadable
 * result file, -EEXIST when out holds files, another negative errno when
 * writing failed (nothing is then left but what was written whole).
 */
int merge_runs(const char *out, const char *const *dirs, int n,
	       struct merge_result *res, struct err *err);

#endif
