/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim.h - what the iosim driver (drivers/iosim.c) shares with the
 * commands besides its ops table: where its WAL lives in the data
 * directory, preparing a data directory for a profile (`oltpmark
 * iosim-prepare`), and the write-back rate it takes from a profile.
 */
#ifndef OLTPMARK_IOSIM_H
#define OLTPMARK_IOSIM_H

#include <stddef.h>

#include "drivers/iosim_profile.h"
#include "src/base/err.h"

#define IOSIM_LOG_FILE "wal" /* the WAL ring in the data dir */
#define IOSIM_LOG_RING_BYTES \
	(64 << 20)	   /* its size: as PostgreSQL's
					   min_wal_size of 80 MB, about */
#define IOSIM_DISTRICTS 10 /* what a Delivery delivers */

/* DIR/wal into buf (size bytes). 0, or -ENAMETOOLONG. */
int iosim_log_path(const char *dir, char *buf, size_t size);

/*
 * Make dir hold what a run on prof needs: the relation files
 * (iosim_files_prepare(), space checked for the WAL ring too) and the
 * WAL ring, created and filled. A directory already prepared for prof
 * costs a stat per file. 0 or negative errno with err set to one line.
 */
int iosim_prepare(const char *dir, const struct iosim_profile *prof,
		  struct err *err);

/*
 * Pages per second the checkpointer writes back: the calibration's
 * checkpoint, bgwriter and backend buffer writes per second together.
 */
double iosim_writeback_pages_per_s(const struct iosim_profile *prof);

#endif
