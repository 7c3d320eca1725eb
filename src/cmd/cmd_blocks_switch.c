/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_blocks_switch.c - `oltpmark blocks-switch`: the switcher of a block
 * run (terminals/blocks_switch.h) with its options. run/oltpmark-run
 * starts it in the background beside `oltpmark run`, stops it with
 * SIGTERM when the run has ended, and restores the variant itself;
 * docs/blocks.md explains the design.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/err.h"
#include "src/base/log.h"
#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"
#include "terminals/blocks_switch.h"

/* A whole number of microseconds since the epoch, > 0. */
static int parse_epoch_us(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || s[0] == '+')
		return -1;
	*out = v;
	return 0;
}

int cmd_blocks_switch(int argc, char **argv)
{
	const char *start_opt = NULL, *csv = NULL, *log = NULL;
	double block_s = 0;
	int nblocks = -1, pid = 0;
	const struct opt_def opts[] = {
		{.long_name = "start-us",
		 .kind = OPT_STRING,
		 .value = &start_opt,
		 .arg_name = "EPOCH_US",
		 .help = "block 0 begins at this wall-clock time, in "
			 "microseconds since the epoch"},
		{.long_name = "block",
		 .kind = OPT_DOUBLE,
		 .value = &block_s,
		 .arg_name = "SECONDS",
		 .help = "length of a block",
		 .min = 0.001,
		 .max = 86400},
		{.long_name = "blocks",
		 .kind = OPT_INT,
		 .value = &nblocks,
		 .arg_name = "N",
		 .help = "number of blocks",
		 .min = 0,
		 .max = 10000000},
		{.long_name = "pid",
		 .kind = OPT_INT,
		 .value = &pid,
		 .arg_name = "CHILD_PID",
		 .help = "the run: nothing is switched once it is gone; it "
			 "gets SIGINT when a switch fails",
		 .min = 1,
		 .max = 2147483647},
		{.long_name = "csv",
		 .kind = OPT_STRING,
		 .value = &csv,
		 .arg_name = "FILE",
		 .help = "blocks.csv to write, one row as each block ends"},
		{.long_name = "log",
		 .kind = OPT_STRING,
		 .value = &log,
		 .arg_name = "FILE",
		 .help = "append the switches and the command's output here"},
	};
	const struct opt_cmd cmd = {
		.name = "blocks-switch",
		.synopsis = "--start-us EPOCH_US --block SECONDS --blocks N "
			    "--pid CHILD_PID --csv FILE --log FILE -- CMD "
			    "[ARG...]",
		.summary =
			"The switcher of a block run. Block 0 begins at "
			"--start-us (CLOCK_REALTIME),\nblock k at start + k x "
			"--block, or when block k - 1 ended if later;\narms "
			"in the order A B B A A B B A .... Where the arm "
			"changes it runs\n'CMD ARG... apply' (into B) or "
			"'CMD ARG... restore' (into A) with\n"
			"OLTPMARK_VARIANT_SWITCH=1, output and a line "
			"'<epoch s.mmm> block K: ACTION'\nappended to --log; "
			"each block's row of blocks.csv is written when it "
			"ends.\nA command that fails stops the run (SIGINT to "
			"--pid) and exits 1. SIGTERM\nends the block under way "
			"(after a running command) and exits 0; SIGINT is\n"
			"ignored; once --pid is gone nothing more is switched "
			"(exit 0). Exit\nstatus 2: bad option. See "
			"docs/blocks.md.",
		.opts = opts,
		.nopts = (int)(sizeof(opts) / sizeof(opts[0])),
		.min_args = 1,
		.max_args = -1,
	};
	struct blocks_switch_opts o = {0};
	struct blocks_switch_result res;
	struct err err = {""};
	int first, rc;

	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	if (!start_opt || parse_epoch_us(start_opt, &o.start_us) < 0) {
		log_error("blocks-switch: option --start-us: %s",
			  start_opt ? "not a whole number of microseconds "
				      "since the epoch"
				    : "missing");
		return EXIT_BAD_USAGE;
	}
	if (block_s <= 0 || nblocks < 0 || pid <= 0 || !csv || !log) {
		log_error("blocks-switch: option --%s: missing",
			  block_s <= 0	? "block"
			  : nblocks < 0 ? "blocks"
			  : pid <= 0	? "pid"
			  : !csv	? "csv"
					: "log");
		return EXIT_BAD_USAGE;
	}
	if (strcmp(argv[first - 1], "--") != 0) {
		log_error("blocks-switch: the command must follow '--' "
			  "(got '%s')",
			  argv[first]);
		return EXIT_BAD_USAGE;
	}
	o.block_us = (int64_t)(block_s * 1e6 + 0.5);
	o.nblocks = (size_t)nblocks;
	o.pid = (pid_t)pid;
	o.csv_path = csv;
	o.log_path = log;
	o.cmd = argv + first;

	if (blocks_switch_catch_term(&err) < 0 ||
	    blocks_switch_run(&o, &res, &err) < 0) {
		log_error("blocks-switch: %s", err.msg);
		return EXIT_WORK_FAILED;
	}
	if (res.status) {
		log_error("blocks-switch: block %zu: %s %s exited with status "
			  "%d (see %s); stopping the run",
			  res.failed_block, argv[first], res.failed_action,
			  res.status, log);
		return EXIT_WORK_FAILED;
	}
	return 0;
}
