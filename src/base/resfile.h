/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resfile.h - the one home of oltpmark's JSON result-file formats: their
 * tags and versions, the policy that decides whether a file can be read,
 * loading a file with one wording for what is wrong with it, getters with
 * one meaning of true and false, and writing through atomic_file.h.
 * Every writer and reader of run.json, meta.json, summary.json, probe
 * files and compare's JSON goes through here, so report and compare can
 * never again disagree about what a file says. docs/formats.md states the
 * policy and the truth table for people.
 *
 * Nothing here keeps state: every function is thread-safe.
 */
#ifndef OLTPMARK_RESFILE_H
#define OLTPMARK_RESFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "src/base/err.h"

/*
 * The "format" tag each writer puts in its file: FAMILY/MAJOR. A change
 * that only adds keys may be written as FAMILY/MAJOR.MINOR and is read by
 * this version; a change that removes a key or changes a meaning is a new
 * MAJOR, which this version refuses.
 */
#define RESFILE_TAG_RUN	    "oltpmark-run/1"	 /* run.json */
#define RESFILE_TAG_META    "oltpmark-meta/1"	 /* meta.json */
#define RESFILE_TAG_SUMMARY "oltpmark-summary/1" /* summary.json */
#define RESFILE_TAG_PROBE   "oltpmark-probe/1"	 /* oltpmark probe */
#define RESFILE_TAG_COMPARE "oltpmark-compare/1" /* compare -f json */
/* the iosim driver's I/O profile (docs/formats.md) */
#define RESFILE_TAG_IOPROFILE "oltpmark-ioprofile/1"
/* a host's machine facts, oltpmark sysinfo --format json (machine_doc.h) */
#define RESFILE_TAG_MACHINE "oltpmark-machine/1"

/* The formats, to name one to resfile_check() and resfile_read(). */
enum resfile_format {
	RESFILE_RUN,	 /* run.json, written by oltpmark run's engine */
	RESFILE_META,	 /* meta.json, written by oltpmark run */
	RESFILE_SUMMARY, /* summary.json, written by oltpmark report */
	RESFILE_PROBE,	 /* oltpmark probe's output (sys/hostprobe.*.json) */
	RESFILE_COMPARE, /* compare.json, written by oltpmark compare */
	/* the iosim driver's I/O profile, written by its calibration */
	RESFILE_IOPROFILE,
	/* a host's machine facts, read by oltpmark run --machine-from */
	RESFILE_MACHINE,
	RESFILE_NR
};

/* The tag this version writes for fmt ("oltpmark-run/1"); "?" if none. */
const char *resfile_tag(enum resfile_format fmt);

/*
 * The version policy. root (a JSON object) can be read as fmt when its
 * "format" is fmt's family with the major version this oltpmark knows,
 * any minor ("oltpmark-run/1" and "oltpmark-run/1.4" are read as
 * oltpmark-run/1). A file with no "format" is read as the current
 * version for run, meta and summary files (hand-made or foreign run
 * directories have none), and refused for probe files (a probe timing
 * other work cannot be compared). Returns 0, or -EBADMSG with err set to
 * one line naming the file (name; no prefix when NULL), the tag found and
 * the one this version reads.
 */
int resfile_check(const json_t *root, enum resfile_format fmt, const char *name,
		  struct err *err);

/*
 * Parse all of f as one JSON object into *out (the caller decrefs).
 * Duplicate keys are refused: a file that says "diagnostic" twice has no
 * one meaning. Returns 0; -ENODATA for an empty or blank input ("empty
 * file"); -EIO when reading fails; -EBADMSG for "JSON cut short (line
 * N)" (what a killed writer leaves), "invalid JSON (line N, column M)"
 * or "not a JSON object". err's message starts with "name: " unless name
 * is NULL. *out is NULL on failure.
 */
int resfile_parse(FILE *f, const char *name, json_t **out, struct err *err);

/*
 * resfile_parse() on the file at path. Returns its codes, or the negative
 * errno of opening path (-ENOENT for a missing file) with err set to
 * "name: REASON".
 */
int resfile_load(const char *path, const char *name, json_t **out,
		 struct err *err);

/* resfile_load() then resfile_check(); on any failure *out is NULL. */
int resfile_read(const char *path, const char *name, enum resfile_format fmt,
		 json_t **out, struct err *err);

/*
 * Print obj to f as every result file is printed: indented by 2, reals
 * with 15 significant digits (so the same value gives the same bytes),
 * and a final newline. 0, or -EIO when writing fails.
 */
int resfile_dump(const json_t *obj, FILE *f);

/*
 * Write obj to path as resfile_dump() prints it, through atomic_file.h.
 * 0 or negative errno with err set (naming the file).
 */
int resfile_write_json(const char *path, const json_t *obj, struct err *err);

/*
 * x as a JSON real rounded to decimals places (as it is, when decimals
 * is negative), never "-0.0"; JSON null when x is not finite (JSON has
 * no NaN). The one writer of every result file's measured figures.
 */
json_t *resfile_real(double x, int decimals);

/*
 * Getters. obj may be NULL or not an object; then the key is absent.
 * JSON null counts as absent everywhere.
 */

/* A number (integer or real) as a double; NAN otherwise. */
double resfile_get_number(const json_t *obj, const char *key);

/* resfile_get_number() of a value itself (NULL too). */
double resfile_number(const json_t *v);

/*
 * A count: an integer >= 0, or a real >= 0 truncated (a hand-written
 * 1e6 is a real to jansson); -1 when absent, negative or not a number.
 */
int64_t resfile_get_count(const json_t *obj, const char *key);

/* A string's value (owned by obj); NULL when absent or not a string. */
const char *resfile_get_string(const json_t *obj, const char *key);

/* The first key of the NULL-ended keys that obj has (not null), or NULL. */
const json_t *resfile_get_first(const json_t *obj, const char *const *keys);

/*
 * The one meaning of a yes/no value in our files. True: JSON true, the
 * integer 1, the strings "true", "yes", "on", "1". False: JSON false,
 * the integer 0, "false", "no", "off", "0". Strings in any case. Returns
 * 1, 0, or -1 for anything else (absent, null, "maybe", 2).
 */
int resfile_truth(const json_t *v);

/* resfile_truth() of a string (e.g. a --note value); -1 for NULL. */
int resfile_truth_str(const char *s);

/* resfile_truth() of obj's member key. */
int resfile_get_truth(const json_t *obj, const char *key);

/*
 * Whether meta.json marks a diagnostic run (profiles or lock statistics
 * were taken: never score it): its "diagnostic", options.diagnostic or
 * notes.diagnostic is true. Report and compare both ask this.
 */
bool resfile_meta_diagnostic(const json_t *meta);

#endif
