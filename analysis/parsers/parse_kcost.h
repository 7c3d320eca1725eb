/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_kcost.h - readers for what the kernel-cost hook leaves in sys/:
 * kcost.{start,stop}.csv, pg_stat_statements joined with pg_stat_kcache,
 * one row per top-level query id with its cumulative counters and the
 * start of its text:
 *   ts,queryid,calls,time_ms,user_s,system_s,reads_bytes,writes_bytes,
 *   minflts,majflts,nvcsws,nivcsws,query
 * and kcost_waits.{start,stop}.csv, pg_wait_sampling's profile added up
 * per query id and wait event:
 *   ts,queryid,event_type,event,count
 * and kcost_procs.{start,stop}.csv, the CPU time of each server process:
 *   ts,pid,ppid,starttime,hz,utime,stime,cutime,cstime,backend_type,
 *   application_name
 * CSV as psql writes it (parse_pgstats_split()); columns are found by the
 * header's names. A row that cannot be read (cut short, a field that is
 * not a number, a wrong field count) is skipped and counted in
 * bad_lines. And the one place that says which transaction type a query's
 * text belongs to (parse_kcost_type()).
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_KCOST_H
#define OLTPMARK_ANALYSIS_PARSE_KCOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"
#include "src/base/txn.h"

#define KCOST_QUERY_MAX \
	168		   /* query text kept, with its NUL (the hook
				   writes 160 characters) */
#define KCOST_TS_MAX	32 /* the snapshot's time as written */
#define KCOST_EVENT_MAX 64 /* wait event type or name, with its NUL */

/* The counters of a kcost.*.csv row, in the order of the header. */
enum kcost_counter {
	KCOST_CALLS,	    /* executions */
	KCOST_TIME_MS,	    /* planning + execution time, ms */
	KCOST_USER_S,	    /* user CPU, s */
	KCOST_SYSTEM_S,	    /* system CPU, s */
	KCOST_READS_BYTES,  /* bytes read from the device (not the cache) */
	KCOST_WRITES_BYTES, /* bytes written towards the device */
	KCOST_MINFLTS,	    /* minor page faults */
	KCOST_MAJFLTS,	    /* major page faults */
	KCOST_NVCSWS,	    /* voluntary context switches */
	KCOST_NIVCSWS,	    /* involuntary context switches */
	KCOST_COUNTER_NR
};

/* One query id of a snapshot. */
struct kcost_query {
	int64_t queryid;	     /* pg_stat_statements' query id */
	double v[KCOST_COUNTER_NR];  /* its cumulative counters, >= 0 */
	char query[KCOST_QUERY_MAX]; /* its text's start, "" if none */
};

/* One kcost.*.csv. Owns q: parse_kcost_free() releases it. */
struct kcost_snapshot {
	struct kcost_query *q; /* rows in file order */
	size_t n, cap;	       /* used, allocated */
	char ts[KCOST_TS_MAX]; /* the first row's ts, "" when none */
	size_t bad_lines;      /* rows skipped */
};

/* One (query id, wait event) of the wait profile. */
struct kcost_wait {
	int64_t queryid;	     /* 0: no query id (background
					processes, idle sessions) */
	char type[KCOST_EVENT_MAX];  /* event_type */
	char event[KCOST_EVENT_MAX]; /* event */
	double count;		     /* samples, cumulative */
};

/* One kcost_waits.*.csv. Owns w: parse_kcost_waits_free() releases it. */
struct kcost_waits {
	struct kcost_wait *w;  /* rows in file order */
	size_t n, cap;	       /* used, allocated */
	char ts[KCOST_TS_MAX]; /* the first row's ts, "" when none */
	size_t bad_lines;      /* rows skipped */
};

/* One server process of a kcost_procs.*.csv (CPU times in seconds). */
struct kcost_proc {
	int pid;			    /* its process id */
	int ppid;			    /* its parent's */
	unsigned long long starttime;	    /* clock ticks after boot: with
					      pid, names one process */
	double user_s, system_s;	    /* its own CPU time so far */
	double child_s;			    /* cutime + cstime: its children
					      that ended (the postmaster's) */
	char backend_type[KCOST_EVENT_MAX]; /* pg_stat_activity's, or
					       "postmaster", "" if none */
	char app[KCOST_EVENT_MAX];	    /* application_name, "" if none */
};

/* One kcost_procs.*.csv. Owns p: parse_kcost_procs_free() releases it. */
struct kcost_procs {
	struct kcost_proc *p;  /* rows in file order */
	size_t n, cap;	       /* used, allocated */
	char ts[KCOST_TS_MAX]; /* the first row's ts, "" when none */
	size_t bad_lines;      /* rows skipped */
};

/* Where a query's figures go beside the transaction types. */
enum {
	KCOST_TYPE_CONTROL = TXN_NR,   /* BEGIN, COMMIT, ROLLBACK (sql
					    mode: shared by all types) */
	KCOST_TYPE_OTHER = TXN_NR + 1, /* not the workload's: hooks,
					    the driver's bookkeeping */
	KCOST_TYPE_NR = TXN_NR + 2
};

/* The header name of a counter ("calls", "user_s", ...). */
const char *parse_kcost_counter_name(enum kcost_counter c);

/*
 * Parse a kcost.*.csv from f (read to EOF) into out, overwritten.
 * Returns 0 (a header and no row is 0 queries); -ENODATA for an empty
 * input; -EINVAL when the first line is not a header naming every
 * column; -ENOMEM or -EIO. out is zeroed after a failure.
 */
int parse_kcost(FILE *f, struct kcost_snapshot *out, struct err *err);

/* parse_kcost() on the file at path; messages start with the path. */
int parse_kcost_file(const char *path, struct kcost_snapshot *out,
		     struct err *err);

/* Release the rows and zero s. Safe on a zeroed struct. */
void parse_kcost_free(struct kcost_snapshot *s);

/* As parse_kcost(), for a kcost_waits.*.csv. */
int parse_kcost_waits(FILE *f, struct kcost_waits *out, struct err *err);

/* parse_kcost_waits() on the file at path. */
int parse_kcost_waits_file(const char *path, struct kcost_waits *out,
			   struct err *err);

/* Release the rows and zero w. Safe on a zeroed struct. */
void parse_kcost_waits_free(struct kcost_waits *w);

/*
 * As parse_kcost(), for a kcost_procs.*.csv: ts, pid, ppid, starttime,
 * hz (clock ticks per second), utime, stime, cutime, cstime (ticks),
 * backend_type, application_name. A row with hz 0 is bad.
 */
int parse_kcost_procs(FILE *f, struct kcost_procs *out, struct err *err);

/* parse_kcost_procs() on the file at path. */
int parse_kcost_procs_file(const char *path, struct kcost_procs *out,
			   struct err *err);

/* Release the rows and zero p. Safe on a zeroed struct. */
void parse_kcost_procs_free(struct kcost_procs *p);

/*
 * The type a query's text belongs to: a TXN_* value, KCOST_TYPE_CONTROL
 * or KCOST_TYPE_OTHER. Procedure mode: the call of the type's function
 * ("SELECT * FROM new_order(...", "SELECT stock_level(..."); sql mode: a
 * statement that starts with the comment the driver puts before each
 * statement of a type ("/" "* oltpmark new_order *" "/ ..."); BEGIN,
 * COMMIT and ROLLBACK (any case, with what follows) are control.
 */
int parse_kcost_type(const char *query);

/* "new_order", ..., "control", "other": the key of a parse_kcost_type(). */
const char *parse_kcost_type_key(int type);

#endif
