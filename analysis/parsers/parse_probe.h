/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_probe.h - reader for the hostprobe hook's sys/hostprobe.start.json
 * and sys/hostprobe.stop.json: `oltpmark probe` timing the same fixed work
 * on the host just before and just after a run. compare sets each label's
 * figures beside the baseline's; when they differ, the host changed speed
 * between the labels' runs, whatever the kernels did.
 *
 * Only the medians (and the time) are read. Any other key is ignored, so
 * the probe can report more without breaking this reader.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_PROBE_H
#define OLTPMARK_ANALYSIS_PARSE_PROBE_H

#include <stdio.h>

#include "src/base/err.h"

/* The figures of one probe file. */
struct hprobe {
	double time_s; /* "time": when it ran, epoch s; NAN if absent */
	double cpu_ns; /* cpu.ns_per_op: median ns per chain step */
	double mem_ns; /* memory.ns_per_op: median ns per load */
	double fsync_us_median; /* fsync.us_median: median us per 8 KiB
				   write + fdatasync; NAN without fsync */
	double others_busy_pct; /* guest.others_busy_pct: % of the CPUs
				   other work used during the probe; NAN
				   when not recorded */
};

/*
 * Parse one probe file from f (read to EOF) into out, which is
 * overwritten. Returns 0; -ENODATA for an empty input; -EINVAL when it is
 * not a JSON object ("JSON cut short (line N)" for a file cut off), its
 * "format" is missing or not oltpmark-probe/1 (src/base/resfile.h),
 * cpu.ns_per_op or memory.ns_per_op is missing or not a positive number,
 * or an fsync object is there without a positive us_median; -EIO when
 * reading failed. fsync absent (or null) is not an error: the probe had
 * no directory to write in. Nothing to free; out is all NAN after an
 * error. Thread-safe.
 */
int parse_probe(FILE *f, struct hprobe *out, struct err *err);

/* parse_probe() on the file at path; messages start with the path. */
int parse_probe_file(const char *path, struct hprobe *out, struct err *err);

#endif
