/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_iostat.h - reader for the iostat hook's output: the text of
 * `iostat -dxk -t -y 1` or the JSON of `iostat -dxk -t -y -o JSON 1`
 * (sysstat 9 to 12), detected from the first character.
 *
 * Columns are found by name, and the names sysstat changed over the years
 * are mapped onto one sample: rkB/s or rsec/s or rMB/s, aqu-sz or
 * avgqu-sz, await or r_await/w_await, %util or (JSON) util. A column the
 * version does not print is NAN. iostat's figures are already rates and
 * gauges per interval, so compare them as means over the window.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_IOSTAT_H
#define OLTPMARK_ANALYSIS_PARSE_IOSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

/* One device in one report (interval). */
struct iostat_sample {
	int64_t time_s; /* report time, epoch s (iostat_data.has_time) */
	double r_s;	/* reads completed per second (r/s) */
	double w_s;	/* writes completed per second (w/s) */
	double rkb_s;	/* kB read per second (rkB/s, rsec/s/2, rMB/s*1024) */
	double wkb_s;	/* kB written per second, same conversions */
	double r_await_ms; /* mean read latency incl. queueing (r_await) */
	double w_await_ms; /* mean write latency incl. queueing (w_await) */
	/* All requests: await when printed, else r_await and w_await
	 * weighted by r/s and w/s (0 without I/O). */
	double await_ms;
	double aqu_sz;	 /* mean queue length (aqu-sz, avgqu-sz) */
	double util_pct; /* percent of time busy (%util, JSON util) */
};

/* All reports of one device, in file order. */
struct iostat_device {
	char *name;	 /* device name as printed ("vda", "dm-0") */
	size_t nsamples; /* samples in samples[] */
	size_t cap;	 /* samples allocated */
	struct iostat_sample *samples; /* one per report naming the device */
};

/*
 * Everything one iostat output holds. Owns its arrays: parse_iostat_free()
 * releases them. Zeroed (and safe to free) after a failed parse.
 */
struct iostat_data {
	size_t ndevices; /* devices in devices[], first-seen order */
	size_t cap;	 /* devices allocated */
	struct iostat_device *devices; /* per-device series */
	size_t reports;		       /* reports (intervals) read */
	bool has_time;	  /* every report carried a readable timestamp */
	bool json;	  /* the input was JSON */
	bool truncated;	  /* JSON cut short: complete reports kept */
	size_t bad_lines; /* text lines or JSON entries skipped */
};

/*
 * Parse iostat output from f (read to EOF) into out, which is overwritten.
 * Text: banner, timestamp, "Device" header and device lines per report;
 * "avg-cpu" blocks are skipped; device lines that do not match their
 * header (or a last line without its newline) are counted in bad_lines.
 * JSON: all of it, except that input which ends early (iostat killed by a
 * signal other than SIGINT) keeps the reports completed before the cut
 * and sets truncated. Timestamps: ISO 8601 with offset (S_TIME_FORMAT=ISO,
 * exact), else "MM/DD/YY[YY] HH:MM:SS [AM|PM]" in this process's local
 * zone. Returns 0 with at least one device sample; -ENODATA for an empty
 * input or no sample; -EINVAL for input that is not iostat's (no Device
 * header with a known column, broken JSON); -ENOMEM or -EIO.
 */
int parse_iostat(FILE *f, struct iostat_data *out, struct err *err);

/* parse_iostat() on the file at path; messages start with the path. */
int parse_iostat_file(const char *path, struct iostat_data *out,
		      struct err *err);

/* Release what a parse allocated and zero d. Safe on a zeroed struct. */
void parse_iostat_free(struct iostat_data *d);

/* The series of the device named name, or NULL. */
const struct iostat_device *parse_iostat_device(const struct iostat_data *d,
						const char *name);

#endif
