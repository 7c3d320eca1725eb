/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_iosim_prepare.c - `oltpmark iosim-prepare`: make a data directory
 * hold the files an iosim run of a profile needs (one per relation, of
 * the relation's size, and the WAL ring; drivers/iosim.h), so that the
 * run itself starts at once. A directory prepared before is checked with
 * a stat per file; one prepared for a smaller profile is extended.
 * --data-dir given once per directory of a table-layout profile (a
 * database loaded over tablespaces) puts each relation's file in the
 * directory of its tablespace, linked from the first.
 *
 * Exit 0 when the directory is ready; 2 for a bad profile or a directory
 * that cannot take the files (read-only, full, not a directory); 1 when a
 * write fails on the way.
 */
#include <errno.h>
#include <stdio.h>

#include "drivers/iosim.h"
#include "drivers/iosim_profile.h"
#include "src/base/clock.h"
#include "src/base/log.h"
#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"

/*
 * Say where the files go when the calibration's relations were spread
 * over directories: in as many, or all in the one given.
 */
static void prepare_say_layout(const struct iosim_profile *prof, int ndirs,
			       const char *const *dirs)
{
	const struct iosim_profile_layout *lay = &prof->layout;
	int k;

	if (lay->directories < 2)
		return;
	if (ndirs == 1) {
		log_info("iosim-prepare: the profile's relations were in %d "
			 "directories (%s layout); all go to %s%s",
			 lay->directories, iosim_profile_layout_name(lay->kind),
			 dirs[0],
			 lay->kind == IOSIM_PROFILE_LAYOUT_TABLE
				 ? ": give --data-dir once per directory to "
				   "spread them"
				 : "");
		return;
	}
	for (k = 0; k < ndirs; k++)
		log_info("iosim-prepare: %s for the calibration's %s", dirs[k],
			 k < lay->npaths ? lay->path[k] : "directory");
}

int cmd_iosim_prepare(int argc, char **argv)
{
	static const char *profile;
	static struct opt_list data_dirs;
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "profile", .kind = OPT_STRING,
		  .value = &profile, .arg_name = "FILE",
		  .help = "the I/O profile (oltpmark calibrate) (required)" },
		{ .long_name = "data-dir", .kind = OPT_LIST,
		  .value = &data_dirs, .arg_name = "DIR",
		  .help = "the directory of the files; created, not its "
			  "parents (required; once per tablespace directory "
			  "of a table-layout profile, in its order)" },
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "iosim-prepare",
		.synopsis = "--profile FILE --data-dir DIR [--data-dir DIR...]",
		.summary =
			"Create the files of an iosim run in DIR: one per "
			"relation of the I/O\nprofile, as big as the relation "
			"was at calibration and filled with\ndata, and the "
			"WAL ring (DIR/wal). Files already big enough are "
			"left\nalone. A profile of a database loaded over "
			"tablespaces (the table\nlayout) takes --data-dir once "
			"per tablespace directory, in its order:\neach "
			"relation's file goes to its tablespace's, linked from "
			"the first\nDIR, which a run is given. Exit 0: ready; "
			"2: bad profile or a\ndirectory that cannot take the "
			"files; 1: a write failed.",
		.opts = opts,
		.nopts = (int)(sizeof(opts) / sizeof(opts[0])),
		.min_args = 0,
		.max_args = 0,
	};
	struct iosim_profile prof;
	struct err err = {""};
	int64_t t0;
	int first, rc;

	profile = NULL;
	data_dirs.count = 0;
	rc = opt_parse(&cmd, argc, argv, &first, &err);
	if (rc == OPT_HELP)
		return 0;
	if (rc == 0 && (!profile || data_dirs.count == 0))
		rc = err_set(&err, -EINVAL,
			     "iosim-prepare: %s is required (see --help)",
			     !profile ? "--profile FILE" : "--data-dir DIR");
	if (rc < 0) {
		log_error("%s", err.msg);
		return EXIT_BAD_USAGE;
	}
	if (iosim_profile_read(profile, &prof, &err) < 0) {
		log_error("iosim-prepare: %s", err.msg);
		return EXIT_BAD_USAGE;
	}
	t0 = clock_mono_us();
	rc = iosim_prepare_dirs(data_dirs.items, data_dirs.count, &prof, &err);
	if (rc < 0) {
		log_error("iosim-prepare: %s", err.msg);
		return rc == -EIO ? EXIT_WORK_FAILED : EXIT_BAD_USAGE;
	}
	prepare_say_layout(&prof, data_dirs.count, data_dirs.items);
	log_info("iosim-prepare: %s ready for %s (W = %d, %.0f MiB of "
		 "relations) in %.1f s",
		 data_dirs.items[0], profile, prof.warehouses,
		 (double)iosim_profile_total_pages(&prof) *
			 IOSIM_PROFILE_PAGE_BYTES / (1024.0 * 1024.0),
		 (double)(clock_mono_us() - t0) / 1e6);
	return 0;
}
