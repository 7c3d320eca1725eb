/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_iosim_prepare.c - `oltpmark iosim-prepare`: make a data directory
 * hold the files an iosim run of a profile needs (one per relation, of
 * the relation's size, and the WAL ring; drivers/iosim.h), so that the
 * run itself starts at once. A directory prepared before is checked with
 * a stat per file; one prepared for a smaller profile is extended.
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

int cmd_iosim_prepare(int argc, char **argv)
{
	static const char *profile, *data_dir;
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "profile", .kind = OPT_STRING,
		  .value = &profile, .arg_name = "FILE",
		  .help = "the I/O profile (oltpmark calibrate) (required)" },
		{ .long_name = "data-dir", .kind = OPT_STRING,
		  .value = &data_dir, .arg_name = "DIR",
		  .help = "the directory of the files; created, not its "
			  "parents (required)" },
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "iosim-prepare",
		.synopsis = "--profile FILE --data-dir DIR",
		.summary =
			"Create the files of an iosim run in DIR: one per "
			"relation of the I/O\nprofile, as big as the relation "
			"was at calibration and filled with\ndata, and the "
			"WAL ring (DIR/wal). Files already big enough are "
			"left\nalone. Exit 0: ready; 2: bad profile or a "
			"directory that cannot take\nthe files; 1: a write "
			"failed.",
		.opts = opts,
		.nopts = (int)(sizeof(opts) / sizeof(opts[0])),
		.min_args = 0,
		.max_args = 0,
	};
	struct iosim_profile prof;
	struct err err = {""};
	int64_t t0;
	int first, rc;

	profile = data_dir = NULL;
	rc = opt_parse(&cmd, argc, argv, &first, &err);
	if (rc == OPT_HELP)
		return 0;
	if (rc == 0 && (!profile || !data_dir))
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
	rc = iosim_prepare(data_dir, &prof, &err);
	if (rc < 0) {
		log_error("iosim-prepare: %s", err.msg);
		return rc == -EIO ? EXIT_WORK_FAILED : EXIT_BAD_USAGE;
	}
	log_info("iosim-prepare: %s ready for %s (W = %d, %.0f MiB of "
		 "relations) in %.1f s",
		 data_dir, profile, prof.warehouses,
		 (double)iosim_profile_total_pages(&prof) *
			 IOSIM_PROFILE_PAGE_BYTES / (1024.0 * 1024.0),
		 (double)(clock_mono_us() - t0) / 1e6);
	return 0;
}
