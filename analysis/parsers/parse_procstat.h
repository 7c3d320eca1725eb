/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_procstat.h - reader for sys/procstat.csv, the procstat hook's
 * per-second samples of /proc/stat's "cpu" line (written by `oltpmark
 * sample-procstat`): the wall-clock time of each sample and the ten
 * CPU-time counters, from which come the share of the CPU the host took
 * (steal) and the other states, per second or over any window.
 *
 * The header line is the format's version and must be exactly
 * PARSE_PROCSTAT_HEADER. A row that does not fit (another number of
 * fields, a non-number, a time not after the previous row's, a cut last
 * line) is skipped and counted in bad_lines: one bad second should not
 * lose a run's series. Counters are cumulative; shares are taken between
 * samples, a counter that went backwards counting 0 (iowait may).
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_PROCSTAT_H
#define OLTPMARK_ANALYSIS_PARSE_PROCSTAT_H

#include <stddef.h>
#include <stdio.h>

#include "src/base/err.h"
#include "src/base/procstat.h"

#define PARSE_PROCSTAT_HEADER                                           \
	"epoch_s,user,nice,system,idle,iowait,irq,softirq,steal,guest," \
	"guest_nice"

/* One sample: when it was read, and the counters. */
struct procstat_sample {
	double t_s;		 /* epoch seconds as in the file, or the
				    run's clock after parse_procstat_place() */
	struct procstat_cpu cpu; /* the "cpu" line's counters */
};

/* All samples of one file, in time order. Owns samples. */
struct procstat_series {
	struct procstat_sample *samples; /* n samples, t_s increasing */
	size_t n;			 /* samples kept */
	size_t cap;			 /* samples allocated */
	size_t bad_lines;		 /* rows skipped as damaged */
};

/*
 * Parse the CSV from f (read to EOF) into out, which is overwritten.
 * Returns 0 with at least one sample; -EINVAL when the first line is not
 * PARSE_PROCSTAT_HEADER; -ENODATA for an empty file or a header with no
 * good row; -ENOMEM, -EIO. out is zeroed after a failure.
 */
int parse_procstat(FILE *f, struct procstat_series *out, struct err *err);

/* parse_procstat() on the file at path; messages start with the path. */
int parse_procstat_file(const char *path, struct procstat_series *out,
			struct err *err);

/* Free the samples. Safe on a zeroed series. */
void parse_procstat_free(struct procstat_series *s);

/* Put the times on the run's clock: subtract start_epoch_s from each. */
void parse_procstat_place(struct procstat_series *s, double start_epoch_s);

/*
 * The share of each kind of CPU time over [from_s, to_s): every interval
 * between two consecutive samples that overlaps the window adds its
 * counter differences in proportion to the part of it inside the window
 * (a window of whole intervals takes them exactly). Shares as
 * procstat_shares(): over user + nice + system + idle + iowait + irq +
 * softirq + steal. Returns 0; -ENODATA when no interval overlaps the
 * window or no tick passed in it; -EINVAL for an empty window.
 */
int parse_procstat_window(const struct procstat_series *s, double from_s,
			  double to_s, struct procstat_shares *out,
			  struct err *err);

#endif
