/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_sysinfo.c - `oltpmark sysinfo`: prints the machine's sections of
 * sys/sysinfo.txt (src/base/sysinfo_text.h). The sysinfo hook runs it on
 * the machine under test and adds PostgreSQL's settings, so that
 * sysinfo.txt is read from /proc and /sys by the same code as meta.json's
 * fingerprint, not by a second reader in bash.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/log.h"
#include "src/base/sysinfo_text.h"
#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"

int cmd_sysinfo(int argc, char **argv)
{
	static const char *root, *pgdata, *kernel_config;
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "pgdata", .kind = OPT_STRING, .value = &pgdata,
		  .arg_name = "DIR",
		  .help = "also say where the data directory DIR (and pg_wal, "
			  "when a link) lives: mount, device, space" },
		{ .long_name = "kernel-config", .kind = OPT_STRING,
		  .value = &kernel_config, .arg_name = "FILE",
		  .help = "write the whole kernel config to FILE (removed when "
			  "none is readable)" },
		{ .long_name = "root", .kind = OPT_STRING, .value = &root,
		  .arg_name = "DIR",
		  .help = "read /proc and /sys under DIR (for tests; default "
			  "/)" },
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "sysinfo",
		.synopsis = "[options]",
		.summary =
			"Print what sys/sysinfo.txt says about this machine: "
			"the kernel, its command line\nand config, the CPUs "
			"and their frequency governors, vulnerabilities, the\n"
			"clocksource, memory, the queue settings of each "
			"block device, sysctls and\ntransparent hugepages, in "
			"sections headed \"== title ==\". Read by the same\n"
			"code as meta.json's fingerprint. The sysinfo hook "
			"runs it and adds\nPostgreSQL's settings.",
		.opts = opts,
		.nopts = sizeof(opts) / sizeof(opts[0]),
		.min_args = 0,
		.max_args = 0,
	};
	struct sysinfo_text_opts o = {0};
	struct err err = {""};
	struct stat st;
	int first, rc;

	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	if (root && (stat(root, &st) < 0 || !S_ISDIR(st.st_mode))) {
		log_error("--root: %s is not a directory", root);
		return EXIT_BAD_USAGE;
	}
	/* "/" and "" name the same tree; "" keeps the paths read short */
	o.root = root && strcmp(root, "/") != 0 ? root : "";
	o.pgdata = pgdata;
	o.kernel_config = kernel_config;
	if (sysinfo_text_write(&o, stdout, &err) < 0) {
		log_error("%s", err.msg);
		return EXIT_WORK_FAILED;
	}
	return 0;
}
