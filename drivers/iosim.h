/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim.h - what the iosim driver (drivers/iosim.c) shares with the
 * commands besides its ops table: where its WAL lives in the data
 * directory, preparing a data directory for a profile (`oltpmark
 * iosim-prepare`), the write-back rate it takes from a profile, and the
 * counters of what an instance replayed.
 */
#ifndef OLTPMARK_IOSIM_H
#define OLTPMARK_IOSIM_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

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
 * iosim_prepare() over ndirs data directories, one per directory of a
 * table-layout profile (iosim_files_prepare_dirs()): each relation's
 * file in the directory of its tablespace, linked from dirs[0], which
 * holds the WAL ring too and is the directory a run is given.
 */
int iosim_prepare_dirs(const char *const *dirs, int ndirs,
		       const struct iosim_profile *prof, struct err *err);

/*
 * Pages per second the checkpointer writes back: the calibration's
 * checkpoint, bgwriter and backend buffer writes per second together.
 */
double iosim_writeback_pages_per_s(const struct iosim_profile *prof);

/*
 * Pages the checkpointer writes back per committed transaction: those
 * writes per second times the measured interval, over the commits of
 * every type in it; 0 when nothing committed.
 */
double iosim_writeback_pages_per_commit(const struct iosim_profile *prof);

/*
 * What the calibration measured per committed transaction of its mix
 * (iosim_profile_per_commit()), as the object "per_commit" that
 * describe() puts in meta.json's server.io_profile for report's
 * fidelity check: "commits" (the profile's mix_commits), "wal_bytes",
 * and "devices", each device's "reads", "read_bytes", "writes" and
 * "write_bytes"; an unknown figure is null. Only for a profile that
 * records mix_commits (>= 0, format 1.1); NULL when out of memory.
 */
json_t *iosim_per_commit_json(const struct iosim_profile *prof);

/* What an instance replayed so far. */
struct iosim_counts {
	uint64_t reads;	    /* pages read (one pread each) */
	uint64_t commits;   /* transactions committed */
	uint64_t rollbacks; /* New-Orders rolled back */
	uint64_t wal_bytes; /* WAL bytes appended, both */
	uint64_t written;   /* pages the checkpointer wrote back */
	uint64_t dirty;	    /* pages dirty now */
};

struct driver_instance;

/* A copy of the instance's counters. Thread-safe. */
void iosim_counts(struct driver_instance *in, struct iosim_counts *out);

#endif
