/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_check.c - `oltpmark check`: run the TPC-C consistency conditions
 * (src/load/check.h) and print one line per condition:
 *
 *   C1  PASS  W_YTD = sum(D_YTD) of the warehouse's districts
 *   C5  FAIL  ... (2 rows; first: (1,3,2245), (1,3,2246))
 *   C11 n/a   ... (not applicable after Deliveries)
 *
 * Exit 0 when every condition that applies holds, 1 otherwise.
 *
 * `check --meta` instead prints the database's oltpmark_meta as key=value
 * lines (drivers/pgconn.h), so scripts learn what a database holds from
 * the same reader as load, check and run, not from their own SQL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "drivers/pgconn.h"
#include "src/load/check.h"
#include "src/cmd/cmd.h"
#include "src/base/log.h"
#include "src/cmd/opt.h"

/*
 * check --meta: oltpmark_meta as key=value lines on stdout; the last
 * column, layout_map, is JSON on one line (empty while loading).
 */
static int print_meta(const char *conninfo)
{
	struct pgconn_meta meta;
	struct err err = {""};
	char text[1024], *layout_map;

	if (check_read_meta(conninfo, &meta, &layout_map, &err) < 0) {
		log_error("check: %s", err.msg);
		return EXIT_WORK_FAILED;
	}
	if (pgconn_meta_format(&meta, text, sizeof(text)) >=
	    (int)sizeof(text)) {
		log_error("check: oltpmark_meta does not fit in %zu bytes",
			  sizeof(text));
		free(layout_map);
		return EXIT_WORK_FAILED;
	}
	fputs(text, stdout);
	printf("layout_map=%s\n", layout_map ? layout_map : "");
	free(layout_map);
	return fflush(stdout) == 0 ? 0 : EXIT_WORK_FAILED;
}

int cmd_check(int argc, char **argv)
{
	static bool quick, meta;
	static int jobs, connect_timeout = -1;
	static const char *conninfo;
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "quick", .kind = OPT_FLAG, .value = &quick,
		  .help = "only C1-C4 (what clause 3.3.3 demonstrates)" },
		{ .long_name = "meta", .kind = OPT_FLAG, .value = &meta,
		  .help = "print oltpmark_meta as key=value lines, check "
			  "nothing" },
		{ .long_name = "jobs", .short_name = 'j', .kind = OPT_INT,
		  .value = &jobs, .arg_name = "JOBS",
		  .help = "parallel connections (default: online CPUs)",
		  .min = 1, .max = 16 },
		{ .long_name = "conninfo", .kind = OPT_STRING,
		  .value = &conninfo, .arg_name = "STR",
		  .help = "libpq conninfo, URI or database name (default: PG* vars)" },
		OPT_CONNECT_TIMEOUT(&connect_timeout),
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "check",
		.synopsis = "[options]",
		.summary =
			"Check the TPC-C consistency conditions C1-C12 "
			"(clause 3.3.2) of a loaded\ndatabase, one line each. "
			"C11 holds only until the first Delivery and is\n"
			"reported as not applicable after one. Exit 0 when "
			"every condition that\napplies holds, 1 otherwise or "
			"when the database is not a finished\noltpmark load. "
			"--meta prints the row the loader left in "
			"oltpmark_meta\n(status, warehouses, c_load_c_last, "
			"seed, version, load_started,\nload_finished, layout, "
			"layout_map), one key=value line each, whatever\nthe "
			"status; exit 1 when the database has none.",
		.opts = opts,
		.nopts = sizeof(opts) / sizeof(opts[0]),
		.min_args = 0,
		.max_args = 0,
	};
	struct check_outcome out[CHECK_MAX];
	struct check_opts co;
	struct err err = {""};
	int first, rc, n, i, failed = 0;
	long ncpu;

	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	if (conninfo && pgconn_validate(conninfo, &err) < 0) {
		log_error("option --conninfo: %s", err.msg);
		return EXIT_BAD_USAGE;
	}
	pgconn_set_connect_timeout(connect_timeout);
	if (meta)
		return print_meta(conninfo ? conninfo : "");
	if (jobs == 0) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (int)ncpu;
	}
	co = (struct check_opts){
		.conninfo = conninfo ? conninfo : "",
		.quick = quick,
		.jobs = jobs,
	};
	n = check_run(&co, out, &err);
	if (n < 0) {
		log_error("check: %s", err.msg);
		return EXIT_WORK_FAILED;
	}
	for (i = 0; i < n; i++) {
		const struct check_outcome *o = &out[i];
		char name[8];

		snprintf(name, sizeof(name), "C%d", o->number);
		switch (o->status) {
		case CHECK_PASS:
			printf("%-3s PASS  %s\n", name, o->desc);
			break;
		case CHECK_FAIL:
			printf("%-3s FAIL  %s (%lld row%s; first: %s%s)\n",
			       name, o->desc, o->rows, o->rows == 1 ? "" : "s",
			       o->first,
			       o->rows > CHECK_FIRST_ROWS ? ", ..." : "");
			failed++;
			break;
		case CHECK_NA:
			printf("%-3s n/a   %s (not applicable after Deliveries)\n",
			       name, o->desc);
			break;
		case CHECK_ERROR:
			printf("%-3s ERROR %s (%s)\n", name, o->desc, o->error);
			failed++;
			break;
		}
	}
	fflush(stdout);
	if (failed) {
		log_error("check: %d of %d conditions failed", failed, n);
		return EXIT_WORK_FAILED;
	}
	return 0;
}
