/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_vmstat.h - reader for the output of `vmstat [-t] [-w] [-n] 1`, the
 * vmstat hook's sys/vmstat.txt.
 *
 * Columns are found by the header line, never by position: procps gained
 * the `gu` column, -w widens the layout, -t appends a date and a time whose
 * zone the header names. The first data line is vmstat's average since
 * boot, not a sample of the run, so it is always dropped. Headers that
 * vmstat repeats (no -n) are recognised and skipped. Every column,
 * gauges (r, b, free...) and per-interval rates (in, cs, bi...) alike, is
 * kept as a double per sample; compare them as means over the window.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_VMSTAT_H
#define OLTPMARK_ANALYSIS_PARSE_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

#define VMSTAT_COLS_MAX 32 /* procps 4 prints 18 with gu; room to grow */
#define VMSTAT_NAME_MAX 16 /* longest column or zone name kept, with NUL */

/*
 * All samples of one vmstat output. Owns its arrays: parse_vmstat_free()
 * releases them. Zeroed (and safe to free) after a failed parse.
 */
struct vmstat_series {
	size_t ncols; /* value columns found in the header */
	char cols[VMSTAT_COLS_MAX][VMSTAT_NAME_MAX]; /* names, header order */
	size_t nsamples; /* samples kept (since-boot line excluded) */
	size_t cap;	 /* samples allocated */
	double *values;	 /* values[i * ncols + c]: sample i, column c */
	bool has_time;	 /* -t: time_s holds one stamp per sample */
	int64_t *time_s; /* epoch seconds per sample, NULL without -t */
	char tz[VMSTAT_NAME_MAX]; /* zone the -t header names, "" if none */
	bool tz_utc;		  /* zone is UTC/GMT: time_s is exact */
	size_t headers;		  /* header lines seen (1 with -n) */
	size_t bad_lines;	  /* data lines skipped as unparsable or cut */
};

/*
 * Parse vmstat output from f (read to EOF) into out, which is
 * overwritten. Returns 0 with at least one sample; -ENODATA for an empty
 * input or a header with no sample after the since-boot line; -EINVAL
 * when there is no vmstat header line (one naming at least r and cs);
 * -ENOMEM or -EIO. Lines that do not match the header (wrong number of
 * fields, non-numbers, a last line without its newline) are skipped and
 * counted in bad_lines. Timestamps (-t) are converted with timegm() when
 * the zone is UTC or GMT, else with mktime() in this process's local zone
 * (best effort: run the hook with TZ=UTC).
 */
int parse_vmstat(FILE *f, struct vmstat_series *out, struct err *err);

/* parse_vmstat() on the file at path; messages start with the path. */
int parse_vmstat_file(const char *path, struct vmstat_series *out,
		      struct err *err);

/* Release what a parse allocated and zero s. Safe on a zeroed struct. */
void parse_vmstat_free(struct vmstat_series *s);

/* Index of the column named name ("cs", "r", "gu"...), or -1. */
int parse_vmstat_column(const struct vmstat_series *s, const char *name);

/* Value of column col in sample i, NAN when either is out of range. */
double parse_vmstat_value(const struct vmstat_series *s, size_t i, int col);

/*
 * Mean of column col over samples first .. first+count-1 into *mean.
 * Returns 0, or -EINVAL for a bad column or a range outside the series
 * or an empty range.
 */
int parse_vmstat_mean(const struct vmstat_series *s, int col, size_t first,
		      size_t count, double *mean, struct err *err);

#endif
