/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_lockstat.h - reader for /proc/lock_stat (the lockstat hook's
 * sys/lock_stat.txt, read after `echo 0 > /proc/lock_stat` at the start
 * of a diagnostic run), kernels with CONFIG_LOCK_STAT.
 *
 * Columns are found by the header ("class name con-bounces contentions
 * ..."): version 0.4 has 12, older ones fewer, and a column the header
 * does not name is NAN. A class line may end in -W or -R (the write and
 * read sides of an rw lock); after it come up to four contention points
 * (call sites that waited), a dashed rule, up to four contending points
 * (where the holder took the lock), and a dotted rule. Counts are exact
 * (doubles hold integers to 2^53); times are microseconds. The file
 * covers the window already: no delta is taken.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_LOCKSTAT_H
#define OLTPMARK_ANALYSIS_PARSE_LOCKSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

/* The numeric columns lock_stat has printed, by header name. */
enum lockstat_col {
	LS_CON_BOUNCES,	   /* con-bounces: contentions on another CPU */
	LS_CONTENTIONS,	   /* contentions: waits for the lock */
	LS_WAITTIME_MIN,   /* waittime-min, us */
	LS_WAITTIME_MAX,   /* waittime-max, us */
	LS_WAITTIME_TOTAL, /* waittime-total, us */
	LS_WAITTIME_AVG,   /* waittime-avg, us (version 0.4) */
	LS_ACQ_BOUNCES,	   /* acq-bounces: acquisitions on another CPU */
	LS_ACQUISITIONS,   /* acquisitions */
	LS_HOLDTIME_MIN,   /* holdtime-min, us */
	LS_HOLDTIME_MAX,   /* holdtime-max, us */
	LS_HOLDTIME_TOTAL, /* holdtime-total, us */
	LS_HOLDTIME_AVG,   /* holdtime-avg, us (version 0.4) */
	LS_NR,
};

/* Which side of a lock a class line describes. */
enum lockstat_kind {
	LOCKSTAT_EXCL,	/* plain line "name:" (mutex, spinlock) */
	LOCKSTAT_WRITE, /* "name-W:", write side of an rw lock */
	LOCKSTAT_READ,	/* "name-R:", read side */
};

/* A call site printed under a class. */
struct lockstat_point {
	uint64_t count; /* contentions counted at this site */
	/* False: a contention point (the waiter's call site). True: a
	 * contending point (where the holder had taken the lock). */
	bool contending;
	char *symbol; /* as printed: "scsi_queue_rq+0x5a/0x7c0" */
	/* Function only, clone suffixes stripped ("scsi_queue_rq"): for
	 * matching two kernels. */
	char *func;
};

/* One class line and the points printed after it. */
struct lockstat_class {
	char *name;		 /* class name without ":" and -W/-R */
	enum lockstat_kind kind; /* plain, write side or read side */
	double v[LS_NR];	 /* values by column, NAN when not printed */
	bool is_storage_lock;	 /* parse_lockstat_is_storage_lock(name) */
	size_t npoints;		 /* entries in points[] */
	struct lockstat_point *points; /* in file order */
};

/*
 * One /proc/lock_stat read. Owns its arrays: parse_lockstat_free(). Zeroed
 * (and safe to free) after a failed parse.
 */
struct lockstat_data {
	char version[16];    /* "0.4" from "lock_stat version 0.4", or "" */
	bool has_col[LS_NR]; /* the header named this column */
	size_t n;	     /* classes in classes[] */
	size_t cap;	     /* classes allocated */
	struct lockstat_class *classes; /* file order: by contentions */
	size_t bad_lines;		/* lines skipped as unparsable or cut */
};

/*
 * Parse /proc/lock_stat from f into out (overwritten). The column header
 * is required and must name "contentions". Class lines, point lines,
 * rules and blank lines are recognised; anything else after the header
 * (and a last line without its newline) is counted in bad_lines. Point
 * lines attach to the class line before them: for an rw lock whose -W
 * and -R lines come together, that is the -R line. Returns 0, also with
 * no class (nothing was taken); -ENODATA for empty input; -EINVAL when
 * the header is missing or when the kernel printed "*WARNING* lock
 * debugging disabled" (lockdep turned itself off: the data is not
 * valid); -ENOMEM, -EIO.
 */
int parse_lockstat(FILE *f, struct lockstat_data *out, struct err *err);

/* parse_lockstat() on the file at path; messages start with the path. */
int parse_lockstat_file(const char *path, struct lockstat_data *out,
			struct err *err);

/* Release what a parse allocated and zero d. Safe on a zeroed struct. */
void parse_lockstat_free(struct lockstat_data *d);

/*
 * Is this one of the storage locks the users follow: the SCSI host lock
 * (a name containing "host_lock") or the block layer's queue locks
 * ("&q->queue_lock", "&hctx->lock")?
 */
bool parse_lockstat_is_storage_lock(const char *name);

/* The class named name with that kind, or NULL. */
const struct lockstat_class *parse_lockstat_find(const struct lockstat_data *d,
						 const char *name,
						 enum lockstat_kind kind);

/* Sort classes by column col, largest first (NAN last, ties by name). */
void parse_lockstat_sort(struct lockstat_data *d, enum lockstat_col col);

/* Header name of a column ("waittime-total"), or NULL out of range. */
const char *parse_lockstat_col_name(enum lockstat_col col);

#endif
