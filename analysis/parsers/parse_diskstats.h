/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_diskstats.h - reader for /proc/diskstats snapshots (the diskstats
 * hook saves one at start and one at stop) and per-device deltas.
 *
 * Each line is "major minor name" and 11 counters (kernels before 4.18),
 * 15 (with discards, 4.18) or 17 (with flushes, 5.5): 14, 18 or 20 fields
 * in all, told apart by their count. Sectors are always 512 bytes,
 * whatever the device's block size. All fields are counters except
 * in_flight, a gauge: deltas are taken of the counters, the gauge is
 * reported as the later snapshot saw it.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_DISKSTATS_H
#define OLTPMARK_ANALYSIS_PARSE_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

#define DISKSTATS_SECTOR_BYTES 512

/* The statistics after the name, in the kernel's order. */
enum diskstats_field {
	DS_READS,	      /* reads completed */
	DS_READS_MERGED,      /* reads merged with a neighbour */
	DS_SECTORS_READ,      /* 512-byte sectors read */
	DS_READ_MS,	      /* ms spent reading (sum over requests) */
	DS_WRITES,	      /* writes completed */
	DS_WRITES_MERGED,     /* writes merged */
	DS_SECTORS_WRITTEN,   /* 512-byte sectors written */
	DS_WRITE_MS,	      /* ms spent writing */
	DS_IN_FLIGHT,	      /* I/Os in progress now (a gauge) */
	DS_IO_TICKS_MS,	      /* ms the device was busy (io_ticks) */
	DS_TIME_IN_QUEUE_MS,  /* weighted ms doing I/O (time_in_queue) */
	DS_DISCARDS,	      /* discards completed (18 fields and up) */
	DS_DISCARDS_MERGED,   /* discards merged */
	DS_SECTORS_DISCARDED, /* sectors discarded */
	DS_DISCARD_MS,	      /* ms spent discarding */
	DS_FLUSHES,	      /* flushes completed (20 fields) */
	DS_FLUSH_MS,	      /* ms spent flushing */
	DS_NR,
};

/* One line of /proc/diskstats. */
struct diskstats_dev {
	unsigned int major; /* device major number */
	unsigned int minor; /* device minor number */
	char *name;	    /* "vda", "nvme0n1p1", "dm-0" */
	size_t nfields;	    /* statistics present: 11, 15 or 17 */
	uint64_t v[DS_NR];  /* statistics; those not present are 0 */
};

/*
 * One snapshot. Owns its arrays: parse_diskstats_free() releases them. Zeroed
 * (and safe to free) after a failed parse.
 */
struct diskstats_snapshot {
	size_t ndevs;		    /* devices in devs[] */
	size_t cap;		    /* devices allocated */
	struct diskstats_dev *devs; /* in file order */
	size_t bad_lines;	    /* lines skipped as unparsable or cut */
};

/* What one device did between two snapshots. */
struct diskstats_delta_dev {
	char *name;	/* device name */
	size_t nfields; /* statistics both snapshots have */
	/* Counter deltas; v[DS_IN_FLIGHT] is the later snapshot's gauge. */
	uint64_t v[DS_NR];
	/* A counter went back (device re-created): v holds later values. */
	bool reset;
};

/* Per-device deltas. Owns its arrays: parse_diskstats_delta_free(). */
struct diskstats_delta {
	size_t ndevs;			  /* devices in devs[] */
	struct diskstats_delta_dev *devs; /* later snapshot's order */
	size_t unmatched; /* devices in only one of the snapshots */
	size_t wraps;	  /* 32-bit counters that wrapped (handled) */
};

/* Rates over an interval, as iostat would print them. */
struct diskstats_rates {
	double r_s;	   /* reads per second */
	double w_s;	   /* writes per second */
	double rkb_s;	   /* kB read per second */
	double wkb_s;	   /* kB written per second */
	double r_await_ms; /* ms per read (0 without reads) */
	double w_await_ms; /* ms per write (0 without writes) */
	double aqu_sz;	   /* mean queue length: time_in_queue / interval */
	double util_pct;   /* percent of the interval busy: io_ticks */
};

/*
 * Parse one /proc/diskstats snapshot from f. A line must have 14, 18 or
 * 20 fields, all numbers but the name; others (and a last line without
 * its newline) are counted in bad_lines. Returns 0 with at least one
 * device; -ENODATA for empty input; -EINVAL when no line is a diskstats
 * line; -ENOMEM, -EIO.
 */
int parse_diskstats(FILE *f, struct diskstats_snapshot *out, struct err *err);

/* parse_diskstats() on the file at path; messages start with the path. */
int parse_diskstats_file(const char *path, struct diskstats_snapshot *out,
			 struct err *err);

/* Release a snapshot and zero it. Safe on a zeroed struct. */
void parse_diskstats_free(struct diskstats_snapshot *s);

/* The device named name in a snapshot, or NULL. */
const struct diskstats_dev *
parse_diskstats_find(const struct diskstats_snapshot *s, const char *name);

/*
 * Deltas from before to after, matched by device name, into out
 * (overwritten). A value lower than before is a wrap when both fit in 32
 * bits (the kernel prints the ms fields as unsigned int, and all fields
 * on 32-bit kernels), else a reset. Returns 0 or -ENOMEM.
 */
int parse_diskstats_delta(const struct diskstats_snapshot *before,
			  const struct diskstats_snapshot *after,
			  struct diskstats_delta *out, struct err *err);

/* Release a delta and zero it. Safe on a zeroed struct. */
void parse_diskstats_delta_free(struct diskstats_delta *d);

/* The delta of the device named name, or NULL. */
const struct diskstats_delta_dev *
parse_diskstats_delta_find(const struct diskstats_delta *d, const char *name);

/*
 * Rates of one device's delta over interval_s seconds. Returns 0, or
 * -EINVAL when interval_s is not positive.
 */
int parse_diskstats_rates(const struct diskstats_delta_dev *dd,
			  double interval_s, struct diskstats_rates *out,
			  struct err *err);

/* Name of a field ("reads", "io_ticks_ms"...), or NULL out of range. */
const char *parse_diskstats_field_name(enum diskstats_field f);

#endif
