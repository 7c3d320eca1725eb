/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_perf.h - reader for `perf report --stdio --sort dso,sym` (the
 * perf-profile hook's report of a `perf record -a [-g]` window).
 *
 * Columns are located by the comment header ("# Overhead  Shared Object
 * Symbol") and the dotted line under it, which gives each column's start;
 * other sort orders and --children's "Children  Self" columns work the
 * same way. Symbols carry perf's marker: [k] kernel, [.] user space (also
 * [g], [u], [H] for guests and the hypervisor). Call-graph lines (-g) are
 * skipped. Output without a header (perf report -q) is read as
 * "overhead  dso  [x] symbol".
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_PERF_H
#define OLTPMARK_ANALYSIS_PARSE_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/base/err.h"

/* One line of the report: a (dso, symbol) and its share of samples. */
struct perf_entry {
	double overhead_pct; /* Overhead (or Self with --children), % */
	double children_pct; /* Children, %; NAN without --children */
	char *command;	     /* Command column, NULL when not sorted by it */
	char *dso;	     /* "[kernel.kallsyms]", "postgres (deleted)" */
	char marker;	     /* 'k' kernel, '.' user, 'g', 'u', 'H', '?' */
	char *symbol;	     /* "exc_page_fault", or an address "0x1b79c7" */
	size_t event;	     /* index into perf_report.events */
};

/*
 * One report. Owns its arrays: parse_perf_free(). Zeroed (and safe to free)
 * after a failed parse.
 */
struct perf_report {
	size_t nevents;		    /* events in events[] */
	char **events;		    /* from "# Samples: N of event 'NAME'" */
	size_t n;		    /* entries in entries[] */
	size_t cap;		    /* entries allocated */
	struct perf_entry *entries; /* file order: by overhead per event */
	size_t callgraph_lines;	    /* -g lines skipped */
	size_t bad_lines;	    /* lines skipped as unparsable or cut */
};

/*
 * Parse perf report output from f into out (overwritten). Returns 0 with
 * at least one entry; -ENODATA for empty input or a report without
 * samples; -EINVAL when no line could be read as a report line (no header
 * with "Shared Object" and "Symbol", nothing in the headerless form);
 * -ENOMEM, -EIO. A line that fits neither an entry nor a call graph
 * (indented), and a last line without its newline, count in bad_lines.
 * Entries before any "# Samples" line belong to event 0, named "".
 */
int parse_perf(FILE *f, struct perf_report *out, struct err *err);

/* parse_perf() on the file at path; messages start with the path. */
int parse_perf_file(const char *path, struct perf_report *out, struct err *err);

/* Release a report and zero it. Safe on a zeroed struct. */
void parse_perf_free(struct perf_report *r);

/*
 * For comparing kernels: strip clone suffixes from symbols (symbols.h)
 * and " (deleted)" from dsos (a binary replaced while it ran), then
 * merge entries equal in event, command, dso, marker and symbol, adding
 * their percentages. Order: first appearance. 0 or -ENOMEM (r unchanged).
 */
int parse_perf_merge_normalized(struct perf_report *r, struct err *err);

/* Sort by overhead, largest first (ties by dso, then symbol). */
void parse_perf_sort(struct perf_report *r);

/* The first entry with this dso and symbol, or NULL. */
const struct perf_entry *parse_perf_find(const struct perf_report *r,
					 const char *dso, const char *symbol);

#endif
