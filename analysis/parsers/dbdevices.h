/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dbdevices.h - the block devices under one run's database and what each
 * did: which devices hold the data (a tablespace directory or the data
 * directory) and the WAL (pg_wal, followed when it is a link), from
 * meta.json's server.layout, and their I/O from sys/iostat.json over the
 * measured window, or from the sys/diskstats.start/stop deltas when
 * iostat does not have the device. Report and compare both read it.
 *
 * A device is the whole disk as sysfs names it (two partitions of one
 * disk are one device), as the loader counts them (docs/layout.md), and
 * it is found in iostat and diskstats under that name, or under its
 * device-mapper name (iostat -N). Missing evidence is a note, never an
 * error: a device neither file has keeps unknown figures (NAN).
 */
#ifndef OLTPMARK_ANALYSIS_DBDEVICES_H
#define OLTPMARK_ANALYSIS_DBDEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "analysis/parsers/parse_diskstats.h"
#include "analysis/parsers/parse_iostat.h"
#include "src/base/err.h"

#define DBDEV_NAME_LEN	64  /* longest device name kept */
#define DBDEV_HOLDS_LEN 256 /* longest list of what a device holds */
#define DBDEV_NOTES_MAX 12  /* notes kept */
#define DBDEV_NOTE_LEN	256 /* longest note */

/* What a device holds for the database (bits of struct dbdev.roles). */
enum dbdev_role {
	DBDEV_DATA = 1 << 0, /* a tablespace directory or the data dir */
	DBDEV_WAL = 1 << 1,  /* pg_wal (where its link points) */
};

/* Where a device's figures come from. */
enum dbdev_source {
	DBDEV_NONE,	  /* no file has the device: figures unknown */
	DBDEV_IOSTAT,	  /* iostat samples inside the measured window */
	DBDEV_IOSTAT_ALL, /* every iostat sample (no timestamps, no
				 start time, or none inside the window) */
	DBDEV_DISKSTATS,  /* diskstats.stop - diskstats.start: the
				 hooks' start to stop, ramp-up included */
	DBDEV_SOURCE_NR	  /* number of sources */
};

/* One device and its figures; NAN where unknown. */
struct dbdev {
	char name[DBDEV_NAME_LEN];    /* whole disk: "sdb", "dm-0" */
	char dm_name[DBDEV_NAME_LEN]; /* device-mapper name, "" if none */
	unsigned roles;		      /* DBDEV_DATA | DBDEV_WAL */
	char holds[DBDEV_HOLDS_LEN];  /* "oltpmark_ts1, pg_wal": its
					 tablespaces, "data directory",
					 "pg_wal" */
	enum dbdev_source source;     /* where the figures come from */
	double r_s;		      /* reads completed per second */
	double w_s;		      /* writes completed per second */
	double rmb_s;		      /* MB (2^20 bytes) read per second */
	double wmb_s;		      /* MB written per second */
	double req_kib;		      /* mean request size: KiB moved per
					 request, reads and writes */
	double r_await_ms;	      /* mean read time, queueing included,
					 weighted by reads */
	double w_await_ms;	      /* the same for writes */
	double aqu_sz;		      /* mean queue size (requests) */
	double util_pct;	      /* percent of the time busy */
	double rw_bytes;	      /* diskstats: bytes read + written
					 between the snapshots; NAN for
					 iostat (it gives rates only) */
	double share_pct;	      /* this device's share of the bytes
					 read and written on the database's
					 devices that have figures */
};

/* The devices of one run. dbdevices_free() releases it. */
struct dbdevices {
	bool layout_known;  /* meta.json has server.layout */
	struct dbdev *devs; /* data devices in tablespace order, then
				the WAL's (if apart) */
	size_t n, cap;	    /* used, allocated */
	double span_s;	    /* diskstats: seconds between the snapshots
				(their modification times), NAN unknown */
	char notes[DBDEV_NOTES_MAX][DBDEV_NOTE_LEN]; /* what is unknown and
							why */
	int nnotes;				     /* notes used */
};

/* The window a run's iostat samples are averaged over. */
struct dbdev_window {
	double start_epoch_s; /* the run's start, epoch s; NAN unknown */
	double start_s;	      /* measured window, s after the start; */
	double end_s;	      /* NAN when unknown (then every sample) */
};

/*
 * The devices of meta.json's server.layout (meta: the parsed meta.json,
 * NULL for none) into out (overwritten), with their roles and no
 * figures. A tablespace or pg_wal whose device is unknown (null, with
 * device_error) is a note. Without server.layout, out->layout_known is
 * false and out has no device. 0 or -ENOMEM.
 */
int dbdevices_from_meta(const json_t *meta, struct dbdevices *out,
			struct err *err);

/*
 * Fill the figures of out's devices that io has: means over the samples
 * inside w (a sample stamped t covers (t - 1, t]), or over all of them
 * when io has no timestamps, w is unknown or no sample falls inside it
 * (noted). Devices io lacks are left alone.
 */
void dbdevices_add_iostat(struct dbdevices *out, const struct iostat_data *io,
			  const struct dbdev_window *w);

/*
 * Fill the figures of out's devices that have none yet from d, deltas
 * over span_s seconds (NAN when unknown: then only what counts alone
 * give, request size and awaits, and no rates).
 */
void dbdevices_add_diskstats(struct dbdevices *out,
			     const struct diskstats_delta *d, double span_s);

/*
 * Each device's share of the I/O once the figures are in: of the MB/s
 * read and written when every device with figures has them, else of
 * the diskstats bytes when every one comes from diskstats; devices
 * without figures are left out (noted).
 */
void dbdevices_shares(struct dbdevices *out);

/*
 * All of the above for the run directory run_dir: meta.json's layout
 * (meta, already parsed), then sys/iostat.json (sys/iostat.txt when
 * only that one is there) and sys/diskstats.start/stop. A file that is
 * missing or does not parse is a note. 0, -ENOMEM or -ENAMETOOLONG; out
 * is overwritten, free it with dbdevices_free() either way.
 */
int dbdevices_read(const char *run_dir, const json_t *meta,
		   const struct dbdev_window *w, struct dbdevices *out,
		   struct err *err);

/* The device named name in d, or NULL. */
const struct dbdev *dbdevices_find(const struct dbdevices *d, const char *name);

/* "data", "WAL", "both" ("?" for no role). */
const char *dbdevices_role_name(unsigned roles);

/* "iostat", "iostat (whole file)", "diskstats", "none". */
const char *dbdevices_source_name(enum dbdev_source source);

/* Release what d holds and zero it. Safe on a zeroed struct. */
void dbdevices_free(struct dbdevices *d);

#endif
