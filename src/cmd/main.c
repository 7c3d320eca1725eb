/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - the oltpmark command: finds the subcommand and hands over.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "src/cmd/cmd.h"
#include "src/base/log.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"load", cmd_load, "create the schema and load the TPC-C population"},
	{"check", cmd_check, "check the TPC-C consistency conditions"},
	{"run", cmd_run, "drive the workload and write a run directory"},
	{"report", cmd_report,
	 "summary, time series, plots and report.html for a run"},
	{"merge", cmd_merge,
	 "join the run directories of several drivers of one run"},
	{"compare", cmd_compare, "score runs against a baseline label"},
	{"probe", cmd_probe,
	 "time fixed work on this host (CPU, memory, fsync)"},
	{"calibrate", cmd_calibrate,
	 "measure the workload's I/O on PostgreSQL into an I/O profile"},
	{"iosim-prepare", cmd_iosim_prepare,
	 "create the files an iosim run of a profile needs"},
	{"sample-procstat", cmd_sample_procstat,
	 "sample /proc/stat's CPU times once a second, as CSV"},
	{"sysinfo", cmd_sysinfo,
	 "print this machine's kernel, CPU, memory, disks and sysctls"},
	{"blocks-switch", cmd_blocks_switch,
	 "switch a variant block by block beside a run; blocks.csv"},
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: oltpmark COMMAND [options]   (oltpmark COMMAND --help)\n\n"
		"commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-15s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\n  --version  print the version\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_USAGE;
	}
	/* -h alone only: "oltpmark -h host ..." is psql's habit, not help. */
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0 ||
	    (strcmp(argv[1], "-h") == 0 && argc == 2)) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("oltpmark %s\n", OLTPMARK_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	log_error("unknown command '%s' (see oltpmark --help)", argv[1]);
	return EXIT_BAD_USAGE;
}
