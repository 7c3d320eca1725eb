/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fidelity.h - how faithfully an iosim run replayed the I/O of the
 * PostgreSQL run it was calibrated on (docs/iosim.md, "Fidelity"): per
 * device and direction, the reads and writes per committed transaction
 * of the calibration (what `oltpmark calibrate` measured and the iosim
 * driver copied into meta.json's server.io_profile.per_commit) beside
 * the replay's (sys/diskstats.start and .stop around the run, over the
 * committed transactions of mix.csv), and the WAL bytes per commit
 * (the calibration's pg_stat_wal beside the driver's own log, run.json
 * server_stats). The ratios outside issue 12's targets (±25 % for a
 * device, ±10 % for the WAL) are marked. Shown in summary.txt,
 * summary.json "fidelity" and report.html; only for iosim runs.
 *
 * Everything is read from the run directory: the run carries its
 * calibration's figures, so no profile file is needed. A missing or
 * broken input costs the comparison it feeds, with one line saying why,
 * never the report.
 */
#ifndef OLTPMARK_ANALYSIS_FIDELITY_H
#define OLTPMARK_ANALYSIS_FIDELITY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "src/base/err.h"

#define FIDELITY_DEVICE_TOLERANCE 0.25 /* issue 12: reads, writes ±25 % */
#define FIDELITY_WAL_TOLERANCE	  0.10 /* issue 12: WAL bytes ±10 % */
#define FIDELITY_DEVICES_MAX	  32   /* the profile's limit */
#define FIDELITY_NAME_MAX	  32   /* a device name and its NUL */
#define FIDELITY_WHY_MAX	  320  /* one line saying why not */
#define FIDELITY_LIST_MAX	  256  /* a list of device names */

/* What is compared per device, per committed transaction. */
enum fidelity_metric {
	FIDELITY_READS,	      /* reads completed */
	FIDELITY_READ_BYTES,  /* bytes read */
	FIDELITY_WRITES,      /* writes completed */
	FIDELITY_WRITE_BYTES, /* bytes written */
	FIDELITY_METRIC_NR
};

/* One device the calibration recorded. */
struct fidelity_dev {
	char name[FIDELITY_NAME_MAX]; /* "vda", as in /proc/diskstats */
	bool matched; /* the replay's diskstats have it (by name) */
	double cal[FIDELITY_METRIC_NR];	  /* calibration per commit; NAN
					     unknown */
	double rep[FIDELITY_METRIC_NR];	  /* replay per commit; NAN when not
					     matched */
	double ratio[FIDELITY_METRIC_NR]; /* rep / cal; NAN when either is
					     unknown or both are 0,
					     INFINITY when only the
					     calibration's is 0 */
	bool outside[FIDELITY_METRIC_NR]; /* ratio beyond the tolerance */
};

/* The comparison of one run with its calibration. Plain data. */
struct fidelity {
	bool present;		    /* an iosim run: the section is shown */
	char why[FIDELITY_WHY_MAX]; /* "" when the figures below compare;
				       otherwise why nothing does */
	char checksum[32];	    /* the profile's, "" unknown */
	int64_t cal_commits;	    /* the calibration mix's commits, -1 */
	uint64_t rep_commits;	    /* mix.csv's committed rows */
	bool devices_known;	    /* the diskstats snapshots were read */
	char devices_why[FIDELITY_WHY_MAX]; /* why not, "" when known */
	int ndevs;			    /* entries of dev[] */
	struct fidelity_dev dev[FIDELITY_DEVICES_MAX]; /* by name */
	char unmatched[FIDELITY_LIST_MAX]; /* calibration devices the
					      replay's diskstats lack,
					      ", "-separated, "" none */
	char extra[FIDELITY_LIST_MAX];	   /* replay disks with I/O the
					      calibration did not record */
	double wal_cal;			/* calibration WAL bytes per commit */
	double wal_rep;			/* the replay's, run.json */
	double wal_ratio;		/* wal_rep / wal_cal, NAN unknown */
	bool wal_outside;		/* beyond FIDELITY_WAL_TOLERANCE */
	char wal_why[FIDELITY_WHY_MAX]; /* why no ratio, "" when there is */
	int noutside;			/* ratios beyond their tolerance */
};

struct summary;

/*
 * The committed rows of the whole mix.csv (summary's file_counts, any
 * window): the transactions of the interval the diskstats hook's
 * snapshots cover, as they are taken around `oltpmark run`.
 */
uint64_t fidelity_commits(const struct summary *s);

/*
 * Compare the run in run_dir with its calibration into *out: meta and
 * run are its parsed meta.json and run.json (either may be NULL),
 * commits the committed transactions of its whole mix.csv
 * (fidelity_commits()). A run of another driver leaves
 * out->present false. Every missing or broken input is a line in
 * out->why, devices_why or wal_why, not a failure: returns 0.
 */
int fidelity_read(const char *run_dir, const json_t *meta, const json_t *run,
		  uint64_t commits, struct fidelity *out, struct err *err);

/*
 * The ratio of a replay's figure to the calibration's, as the report
 * shows it: rep / cal; NAN when either is unknown (NAN) or both are 0;
 * INFINITY when only cal is 0. Pure.
 */
double fidelity_ratio(double cal, double rep);

/* Whether a ratio is beyond tolerance (NAN never is, INFINITY always). */
bool fidelity_outside(double ratio, double tolerance);

/* "reads", "read_bytes", ...; NULL out of range. */
const char *fidelity_metric_name(enum fidelity_metric m);

/* summary.json "fidelity", or NULL when not present or out of memory. */
json_t *fidelity_json(const struct fidelity *fd);

/* summary.txt's section (nothing when not present). */
void fidelity_write_text(const struct fidelity *fd, FILE *f);

/* report.html's section (nothing when not present). */
void fidelity_write_html(const struct fidelity *fd, FILE *f);

#endif
