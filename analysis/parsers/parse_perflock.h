/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_perflock.h - reader for `perf lock contention` (the perf-lock
 * hook's sys/perf-lock.txt: a `perf lock record -a` window, reported by
 * caller, the default), from the lock:contention_begin/end tracepoints.
 *
 * The table is found by its header ("contended  total wait  max wait
 * avg wait  type  caller"), read by column name; perf's warnings before
 * it are skipped. A row is one caller of one call stack: perf 6.1 prints
 * a caller once per distinct stack, so one function has many rows. Times
 * carry the unit perf chose for each value (ns, us, ms, s, m, h) and are
 * converted to microseconds. The file covers the window: no delta.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_PERFLOCK_H
#define OLTPMARK_ANALYSIS_PARSE_PERFLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

/* One row of the table. */
struct perflock_row {
	char *caller; /* as printed: "call_timer_fn+0x29", "Unknown" */
	/* Function only, offset and clone suffixes stripped
	 * ("poll_schedule_timeout"): for matching two kernels. */
	char *func;
	char *type; /* "spinlock", "rwsem:W"...; "" without the column */
	uint64_t contended; /* waits counted */
	double total_us;    /* total wait, us; NAN when not printed */
	double max_us;	    /* longest wait, us; NAN when not printed */
	double min_us;	    /* shortest wait, us (only with -F wait_min) */
	double avg_us;	    /* mean wait, us; NAN when not printed */
	bool storage;	    /* parse_perflock_is_storage_caller(func) */
};

/*
 * One `perf lock contention` output. Owns its arrays: parse_perflock_free().
 * Zeroed (and safe to free) after a failed parse.
 */
struct perflock_data {
	size_t n;		   /* rows in rows[] */
	size_t cap;		   /* rows allocated */
	struct perflock_row *rows; /* file order: perf sorts by total wait */
	size_t preamble_lines;	   /* lines before the header (warnings) */
	size_t stack_lines;	   /* call-stack lines of -v, skipped */
	bool debug_footer;	   /* perf printed "=== output for debug ===" */
	size_t bad_lines;	   /* rows skipped as unparsable or cut */
};

/*
 * Parse `perf lock contention` output from f into out (overwritten).
 * The header is the first line made of the column names "contended",
 * "total wait", "max wait", "min wait", "avg wait", "type" and "caller"
 * (contended and caller required, caller last); lines before it are
 * counted in preamble_lines. After it, each non-blank line is a row:
 * the count, each time as a number and a unit, the type (one token),
 * and the caller (the rest of the line). -v call-stack lines ("0x...")
 * are skipped; "=== output for debug ===" ends the table. A row that
 * does not read (too few fields, a bad number or unit, a last line
 * without its newline, a NUL byte) is counted in bad_lines. Returns 0,
 * also with no row (nothing was contended); -ENODATA for empty input;
 * -EINVAL "no perf lock contention header" when there is no header;
 * -ENOMEM, -EIO.
 */
int parse_perflock(FILE *f, struct perflock_data *out, struct err *err);

/* parse_perflock() on the file at path; messages start with the path. */
int parse_perflock_file(const char *path, struct perflock_data *out,
			struct err *err);

/* Release what a parse allocated and zero d. Safe on a zeroed struct. */
void parse_perflock_free(struct perflock_data *d);

/*
 * Is func (a caller without offset and clone suffixes) on the storage
 * path: the SCSI midlayer and disks, the block layer, its I/O schedulers
 * and the block drivers? Decided by the name's prefix; the list is
 * parse_perflock_storage_prefix(). Pure function, thread-safe.
 */
bool parse_perflock_is_storage_caller(const char *func);

/*
 * The i-th prefix of the storage list ("scsi_", "blk_", ...), or NULL
 * past its end: for saying in the outputs what counts as storage.
 */
const char *parse_perflock_storage_prefix(size_t i);

/* The first row whose func is func, or NULL. */
const struct perflock_row *parse_perflock_find(const struct perflock_data *d,
					       const char *func);

#endif
