/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.h - the subcommands of the oltpmark binary. Each takes the argv
 * that starts with its own name and returns the process exit status:
 * 0 success, 1 failure during the work, 2 bad usage or input.
 * Only this layer prints errors and decides exit codes.
 */
#ifndef OLTPMARK_CMD_H
#define OLTPMARK_CMD_H

#define EXIT_WORK_FAILED 1
#define EXIT_BAD_USAGE	 2

/* The exit status for a negative errno from a reader of result files:
 * EXIT_BAD_USAGE for missing, unparsable or clashing input, else
 * EXIT_WORK_FAILED (src/cmd/exit_status.c). */
int cmd_exit_status(int rc);

int cmd_load(int argc, char **argv);		/* src/cmd/cmd_load.c */
int cmd_check(int argc, char **argv);		/* src/cmd/cmd_check.c */
int cmd_run(int argc, char **argv);		/* src/cmd/cmd_run.c */
int cmd_report(int argc, char **argv);		/* src/cmd/cmd_report.c */
int cmd_merge(int argc, char **argv);		/* src/cmd/cmd_merge.c */
int cmd_compare(int argc, char **argv);		/* src/cmd/cmd_compare.c */
int cmd_probe(int argc, char **argv);		/* src/cmd/cmd_probe.c */
int cmd_iosim_prepare(int argc, char **argv);	/* cmd_iosim_prepare.c */
int cmd_calibrate(int argc, char **argv);	/* cmd_calibrate.c */
int cmd_sample_procstat(int argc, char **argv); /* src/cmd/cmd_sample.c */
int cmd_blocks_switch(int argc, char **argv);	/* cmd_blocks_switch.c */
int cmd_sysinfo(int argc, char **argv);		/* src/cmd/cmd_sysinfo.c */

#endif
