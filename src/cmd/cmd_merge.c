/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_merge.c - `oltpmark merge --out DIR RUNDIR...`: join the run
 * directories of several drivers of one run (analysis/report/merge.h)
 * into DIR, then write its summary as `oltpmark run` does, so that
 * `oltpmark report DIR` and `compare` read it as one run.
 *
 * Exit status: 0 merged; 1 merged but a part was partial (the merge is
 * marked partial), or writing failed; 2 bad usage or parts that cannot
 * be merged (their workload differs, their warehouse ranges overlap or
 * leave a gap, they did not start together).
 */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/report/merge.h"
#include "analysis/report/report.h"
#include "src/base/log.h"
#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"

#define MERGE_SUMMARY                                                         \
	"Join the run directories of several drivers of one run (each an\n"   \
	"oltpmark run of a warehouse range, all started at one instant)\n"    \
	"into DIR: mix.csv with every row on the server's clock and a\n"      \
	"host column, run.json with the counts summed, meta.json with the\n"  \
	"parts listed, and the summary over all. Refused (exit 2) when the\n" \
	"workloads differ, the warehouse ranges overlap or leave a gap in\n"  \
	"1..W, or the starts are more than 1 s apart; exit 1 when a part\n"   \
	"was partial (the merge is too)."

int cmd_merge(int argc, char **argv)
{
	static const char *out;
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "out", .kind = OPT_STRING, .value = &out,
		  .arg_name = "DIR",
		  .help = "the merged run directory (required; created, or "
			  "empty)" },
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "merge",
		.synopsis = "--out DIR RUNDIR RUNDIR...",
		.summary = MERGE_SUMMARY,
		.opts = opts,
		.nopts = (int)(sizeof(opts) / sizeof(opts[0])),
		.min_args = 2,
		.max_args = -1,
	};
	struct report_options ro = {
		.ramp_up_s = -1, .window_end_s = -1, .plots = false};
	struct merge_result res;
	struct err err;
	int rc, first;

	out = NULL;
	err_clear(&err);
	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	if (!out) {
		log_error("merge: --out DIR is required (see --help)");
		return EXIT_BAD_USAGE;
	}
	rc = merge_runs(out, (const char *const *)argv + first, argc - first,
			&res, &err);
	if (rc < 0) {
		log_error("merge: %s", err.msg);
		return cmd_exit_status(rc);
	}
	err_clear(&err);
	if (report_summarize(out, &ro, &err) < 0) {
		log_error("merge: no summary: %s", err.msg);
		return EXIT_WORK_FAILED;
	}
	log_info("merge: %d parts, %llu rows, starts %.3f ms apart; results "
		 "in %s%s",
		 res.parts, (unsigned long long)res.rows, res.start_spread_ms,
		 out, res.partial ? " (partial: a part was)" : "");
	return res.partial ? EXIT_WORK_FAILED : 0;
}
