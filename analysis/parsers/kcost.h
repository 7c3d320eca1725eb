/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcost.h - the kernel-cost hook's snapshots turned into figures per
 * transaction type, for report and compare alike: the counters' growth
 * from kcost.start.csv to kcost.stop.csv per query id, each query id
 * added to the type its text names (parse_kcost_type()), the wait
 * samples of the same interval per type with the top events, the
 * figures per committed transaction (kcost_figure()), and the check that
 * the query ids' CPU adds up to the server processes' CPU measured over
 * the same interval (kcost_check()), from the processes' CPU
 * (kcost_cpu_compute()).
 */
#ifndef OLTPMARK_ANALYSIS_KCOST_H
#define OLTPMARK_ANALYSIS_KCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analysis/parsers/parse_kcost.h"
#include "src/base/err.h"
#include "src/base/schedstat.h"

#define KCOST_TOP_WAITS 3    /* wait events shown per type */
#define KCOST_AGREE_PCT 10.0 /* the CPU check's tolerance, % */
#define KCOST_WHY_MAX	256  /* a reason, with its NUL */

/* A figure per committed transaction, as report and compare show them. */
enum kcost_figure {
	KCOST_FIG_SERVER_MS,	  /* server time (planning + execution), ms */
	KCOST_FIG_BACKEND_CPU_MS, /* the backend's CPU from one send to the
				     next (run.json backend_cpu: schedstat;
				     the commit and the protocol included),
				     ms */
	KCOST_FIG_USER_MS,	  /* user CPU, ms */
	KCOST_FIG_SYSTEM_MS,	  /* system CPU, ms */
	KCOST_FIG_RUNQ_WAIT_MS,	  /* the backend's wait on a run queue, ms
				     (schedstat, as backend CPU) */
	KCOST_FIG_OFFCPU_MS,	  /* server time less CPU, ms */
	KCOST_FIG_READ_BYTES,	  /* bytes read from the device */
	KCOST_FIG_WRITE_BYTES,	  /* bytes written towards the device */
	KCOST_FIG_NVCSW,	  /* voluntary context switches */
	KCOST_FIG_NIVCSW,	  /* involuntary context switches */
	KCOST_FIG_MAJFLT,	  /* major page faults */
	KCOST_FIG_MINFLT,	  /* minor page faults */
	KCOST_FIG_NR
};

/* One wait event of a type, over the interval. */
struct kcost_topwait {
	char type[KCOST_EVENT_MAX];  /* event_type */
	char event[KCOST_EVENT_MAX]; /* event */
	double samples;		     /* samples in the interval */
	double share;		     /* of the type's samples, 0..1 */
};

/* One type (or control, other): the growth over the interval. */
struct kcost_row {
	double v[KCOST_COUNTER_NR]; /* counters' growth, added up */
	size_t queries;		    /* query ids added here */
	double wait_samples;	    /* wait samples of these query ids */
	struct kcost_topwait top[KCOST_TOP_WAITS]; /* most samples first */
	size_t ntop;				   /* entries of top */
	struct schedstat_acc bcpu; /* the backends' schedstat growth over
				      the committed transactions of the
				      type (run.json backend_cpu "ok"),
				      txns 0: none */
};

/* A query id of the workload and the type it was added to. */
struct kcost_map {
	int64_t queryid; /* pg_stat_statements' id */
	int type;	 /* TXN_* or KCOST_TYPE_CONTROL */
	double calls;	 /* its calls in the interval */
};

#define KCOST_BG_MAX 8 /* background process kinds listed */

/* CPU of one kind of background process over the interval. */
struct kcost_bg {
	char name[KCOST_EVENT_MAX]; /* its backend_type ("walwriter") */
	double cpu_s;		    /* user + system, s */
};

/*
 * The server processes' CPU over the interval, from kcost_procs.*.csv,
 * split by what the processes do. Added up, the parts are the whole
 * server's CPU (the postmaster and its children), as run.json measures
 * it, over the hook's own interval.
 */
struct kcost_cpu {
	bool present;	       /* both process snapshots were read */
	double terminals_s;    /* client backends named oltpmark-run (the
				 terminals' connections): the processes
				 that ran the query ids */
	size_t terminals;      /* how many such backends at stop */
	size_t terminals_new;  /* of them, not there at start (counted
				 from 0) */
	size_t terminals_gone; /* there at start, not at stop: their CPU
				  is in ended_s */
	double sessions_s;     /* other client backends (hooks, psql) */
	double background_s;   /* the rest: walwriter, checkpointer,
				 autovacuum, the wait sampler's collector
				 ... and the postmaster */
	double ended_s;	       /* processes that ended in the interval
				 (the postmaster's cutime + cstime grew)
				 less what they had at start */
	double total_s;	       /* all of the above */
	struct kcost_bg bg[KCOST_BG_MAX]; /* background_s by kind, most
					     CPU first */
	size_t nbg;			  /* entries of bg */
};

/*
 * The server processes' CPU between two process snapshots into *out
 * (overwritten; present set). A process is the same one when its pid and
 * start time match; one at stop but not at start counts from 0. Not
 * present when either has no postmaster or they name two (a restart).
 */
void kcost_cpu_compute(const struct kcost_procs *start,
		       const struct kcost_procs *stop, struct kcost_cpu *out);

/* The hook's files of one run. Owns map: kcost_free() releases it. */
struct kcost_table {
	bool present;			     /* both snapshots were read */
	char start_ts[KCOST_TS_MAX];	     /* when the start snapshot was
					   taken, as written, UTC */
	char stop_ts[KCOST_TS_MAX];	     /* and the stop snapshot */
	struct kcost_row row[KCOST_TYPE_NR]; /* by TXN_*, control, other */
	struct kcost_map *map;		     /* workload query ids */
	size_t nmap;			     /* entries of map */
	size_t resets;	      /* query ids whose counters went backwards
				(reset, evicted): their stop values kept */
	size_t bad_lines;     /* rows skipped in the files */
	bool waits;	      /* the wait profile was read */
	double wait_samples;  /* all wait samples in the interval */
	double wait_no_query; /* of them, with no query id */
	struct kcost_cpu cpu; /* the processes' CPU, cpu.present when
				 kcost_procs.{start,stop}.csv were read */
	bool bcpu;	      /* the rows' bcpu are set (kcost_bcpu_apply) */
};

/*
 * run.json's "backend_cpu": the terminals' backends' scheduler figures
 * (/proc/PID/schedstat) per type and status, added up by the run engine
 * over the measured interval (src/base/schedstat.h), or why there are
 * none. Needs no extension: a run has it whenever the server was a
 * process of the driver's host.
 */
struct kcost_bcpu {
	bool present;		    /* run.json has the object */
	bool measured;		    /* ... with figures in t */
	char reason[KCOST_WHY_MAX]; /* not measured: why, "" unknown */
	struct schedstat_types t;   /* the figures */
};

/*
 * Read run.json's "backend_cpu" object o (NULL: absent) into *out
 * (overwritten). A "measured" object whose figures are not all
 * non-negative integers is taken as not measured, its reason saying so.
 */
void kcost_bcpu_from_json(const json_t *o, struct kcost_bcpu *out);

/*
 * Give t's rows the committed transactions' figures of b (when b is
 * measured; t->bcpu says whether). Works on a table without the hook's
 * files (t->present false) too.
 */
void kcost_bcpu_apply(struct kcost_table *t, const struct kcost_bcpu *b);

/* All of b's CPU, every type and status, s (NAN: not measured). */
double kcost_bcpu_cpu_s(const struct kcost_bcpu *b);

/*
 * The check the issue asks for: the backends' CPU added up over the
 * transactions (schedstat, per type) against the CPU of the same
 * processes from the kernel-cost hook's process snapshots (the
 * terminals' backends in kcost_procs.*.csv). Two sources, two readers
 * of the kernel's accounting, nearly the same interval (the run's
 * measured interval, the hook's snapshots).
 */
struct kcost_agree {
	bool known;		/* both sides are there */
	double schedstat_cpu_s; /* the sum over types, s (NAN: none) */
	double backends_cpu_s;	/* the terminals' backends, s (NAN) */
	double diff_s;		/* schedstat - backends */
	double diff_pct;	/* diff_s / backends_cpu_s, % */
	bool agree;		/* |diff_pct| <= KCOST_AGREE_PCT */
};

/* The check of b against t's process CPU into *out. */
void kcost_agree_check(const struct kcost_table *t, const struct kcost_bcpu *b,
		       struct kcost_agree *out);

/*
 * Read sys_dir/kcost.{start,stop}.csv and, when both are there,
 * kcost_waits.{start,stop}.csv into *out (overwritten). Returns 0 with
 * out->present false when the start or stop snapshot is missing (the
 * hook did not run, or was skipped), 0 with it true when the figures
 * are there, and a negative errno with err set (naming the file) when a
 * file is there but cannot be read: the caller shows that one line.
 */
int kcost_read(const char *sys_dir, struct kcost_table *out, struct err *err);

/*
 * The same from parsed snapshots (waits may be NULL for none): what
 * kcost_read() does once the files are read. 0, or -ENOMEM.
 */
int kcost_compute(const struct kcost_snapshot *start,
		  const struct kcost_snapshot *stop,
		  const struct kcost_waits *wstart,
		  const struct kcost_waits *wstop, struct kcost_table *out);

/* Release the map and zero t. Safe on a zeroed table. */
void kcost_free(struct kcost_table *t);

/* The figure's key in summary.json ("user_cpu_ms", ...). */
const char *kcost_figure_key(enum kcost_figure f);

/* Its heading in the tables ("user CPU ms", ...). */
const char *kcost_figure_title(enum kcost_figure f);

/* Decimals it is shown with. */
int kcost_figure_decimals(enum kcost_figure f);

/*
 * Figure f of row r per committed transaction (commits of its type over
 * the same interval); NAN when commits is 0. The schedstat figures
 * (backend CPU, run-queue wait) are per committed transaction the
 * engine measured (r->bcpu.txns), NAN when none.
 */
double kcost_figure(const struct kcost_row *r, enum kcost_figure f,
		    double commits);

/*
 * The CPU check. Like with like: the CPU of the statements of the
 * workload (the types' and BEGIN/COMMIT/ROLLBACK's query ids) against
 * the CPU of the processes that ran them, the terminals' backends; what
 * those processes spent outside any statement's executor (committing,
 * parsing, binding, reading and writing the client socket, waiting for
 * the next message) is the residue not attributed to a statement. The
 * background processes' CPU is beside it, not in it. Without the
 * process snapshots (an older run) the whole server's CPU of run.json
 * is the only comparison there is, and that is what is compared.
 */
struct kcost_check {
	bool known;	       /* both sides are there */
	bool whole_server;     /* compared with run.json's whole server
				  (no process snapshots) */
	double kcost_cpu_s;    /* user + system of the workload's query
				  ids (types and control), s */
	double other_cpu_s;    /* of the other query ids (hooks' and
				  other sessions' statements), s */
	double backends_cpu_s; /* the side compared with: the terminals'
				  backends, or the whole server */
	double server_cpu_s;   /* run.json's whole server, s (NAN: not
				  measured) */
	double diff_s;	       /* kcost - backends: minus the residue */
	double diff_pct;       /* diff_s / backends_cpu_s, % */
	bool agree;	       /* |diff_pct| <= KCOST_AGREE_PCT */
};

/* Check t against its process CPU, else server_cpu_s (NAN: not
   measured), into *out. */
void kcost_check(const struct kcost_table *t, double server_cpu_s,
		 struct kcost_check *out);

#endif
