/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_readprofile.h - reader for util-linux readprofile output (the
 * readprofile hook's sys/readprofile.txt), the kernel profile of a
 * diagnostic run booted with profile=N.
 *
 * Lines are "ticks function load" (load = ticks per byte of the
 * function), or "address function ticks load" with -v; "*unknown*"
 * counts ticks outside the kernel text and is not in the total; the last
 * line is the total. The output is small and its total line is the end
 * marker, so the parse is all or nothing: a cut or damaged file is an
 * error, never a silently shorter profile.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_READPROFILE_H
#define OLTPMARK_ANALYSIS_PARSE_READPROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

/* One function of the profile. */
struct rprof_entry {
	char *name;	/* symbol as printed ("scsi_request_fn") */
	uint64_t ticks; /* profile ticks that fell in the function */
	double load;	/* ticks per byte of the function */
	uint64_t addr;	/* start address (-v output), else 0 */
};

/*
 * One readprofile output. Owns its arrays: parse_readprofile_free()
 * releases them. Zeroed (and safe to free) after a failed parse.
 */
struct rprof_profile {
	size_t n;		     /* functions in entries[] */
	size_t cap;		     /* entries allocated */
	struct rprof_entry *entries; /* file order (by address) until sorted */
	bool has_unknown;	     /* an "*unknown*" line was present */
	uint64_t unknown_ticks;	     /* ticks outside the kernel text */
	uint64_t total_ticks;	     /* the total line's ticks */
	double total_load;	     /* the total line's load */
	uint64_t sum_ticks;	     /* sum of entries' ticks, for checking */
	bool verbose;		     /* lines carried addresses (-v) */
};

/*
 * Parse readprofile output from f into out (overwritten). Every
 * non-blank line must be a function line, the "*unknown*" line or, last,
 * the total line; the total line is recognised by the word "total" or,
 * when readprofile ran in another language, by its ticks being the sum
 * of the function ticks. Returns 0; -ENODATA for empty input; -EINVAL
 * naming the first bad line, or when the total line is missing (cut
 * short) or disagrees with the sum of the lines; -ENOMEM, -EIO.
 */
int parse_readprofile(FILE *f, struct rprof_profile *out, struct err *err);

/* parse_readprofile() on the file at path; messages start with the path. */
int parse_readprofile_file(const char *path, struct rprof_profile *out,
			   struct err *err);

/* Release a profile and zero it. Safe on a zeroed struct. */
void parse_readprofile_free(struct rprof_profile *p);

/*
 * Sort entries by ticks, most first, ties by name: the top N functions
 * are then entries[0 .. N-1].
 */
void parse_readprofile_sort_by_ticks(struct rprof_profile *p);

/*
 * Replace each name by its form without compiler clone suffixes
 * (symbols.h) and merge the entries that then share a name: ticks add
 * up, load becomes total ticks over total size (sizes estimated as
 * ticks / load, so approximate), addr is the lowest. For comparing two
 * kernels. Order: first appearance. Returns 0 or -ENOMEM (p unchanged).
 */
int parse_readprofile_merge_normalized(struct rprof_profile *p,
				       struct err *err);

/* The entry named name, or NULL. */
const struct rprof_entry *parse_readprofile_find(const struct rprof_profile *p,
						 const char *name);

#endif
