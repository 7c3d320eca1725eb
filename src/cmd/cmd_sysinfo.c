/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_sysinfo.c - `oltpmark sysinfo`: prints the machine's sections of
 * sys/sysinfo.txt (src/base/sysinfo_text.h). The sysinfo hook runs it on
 * the machine under test and adds PostgreSQL's settings, so that
 * sysinfo.txt is read from /proc and /sys by the same code as meta.json's
 * fingerprint, not by a second reader in bash. With --format json it
 * prints the machine's facts as oltpmark run --machine-from reads them on
 * another host (run/oltpmark-run --sut, docs/experiments.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/log.h"
#include "src/base/machine_doc.h"
#include "src/base/resfile.h"
#include "src/base/sysinfo_text.h"
#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"

/* --format json: the machine document (machine_doc.h) on stdout. */
static int print_doc(const char *root, const char *pgdata,
		     const char *kernel_config)
{
	struct err err = {""};
	json_t *doc;
	int rc;

	if (kernel_config) {
		log_error("option --kernel-config: only with --format text");
		return EXIT_BAD_USAGE;
	}
	if (machine_doc_build(root, pgdata, &doc, &err) < 0) {
		log_error("sysinfo: %s", err.msg);
		return EXIT_WORK_FAILED;
	}
	rc = resfile_dump(doc, stdout);
	json_decref(doc);
	if (rc < 0 || fflush(stdout) != 0) {
		log_error("sysinfo: cannot write the output");
		return EXIT_WORK_FAILED;
	}
	return 0;
}

int cmd_sysinfo(int argc, char **argv)
{
	static const char *root, *pgdata, *kernel_config;
	static const char *const formats[] = {"text", "json", NULL};
	static int format;
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "format", .kind = OPT_CHOICE, .value = &format,
		  .arg_name = "text|json", .choices = formats,
		  .help = "text (default): sysinfo.txt's sections; json: the "
			  "facts oltpmark run reads from another host" },
		{ .long_name = "pgdata", .kind = OPT_STRING, .value = &pgdata,
		  .arg_name = "DIR",
		  .help = "also say where the data directory DIR (and pg_wal, "
			  "when a link) lives: mount, device, space; json: "
			  "the block keys are of its disks" },
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
			"runs it and adds\nPostgreSQL's settings. In JSON it "
			"prints what oltpmark run on another host\nreads "
			"instead of its own machine (run/oltpmark-run runs it "
			"on the\nsystem under test of another host).",
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
	if (format == 1)
		return print_doc(o.root, pgdata, kernel_config);
	o.pgdata = pgdata;
	o.kernel_config = kernel_config;
	if (sysinfo_text_write(&o, stdout, &err) < 0) {
		log_error("%s", err.msg);
		return EXIT_WORK_FAILED;
	}
	return 0;
}
