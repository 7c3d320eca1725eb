/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - the figures of one run over its measured window: NOTPM,
 * per-type counts and response times, the TPC-C checks (mix, 90th
 * percentile limits, input bounds), the steady-state verdict, the
 * cost, the server's counters and checkpoints, and the warnings they
 * give, written as summary.json and summary.txt.
 *
 * The rows of mix.csv are fed in two passes: summary_add() on every row
 * (counts and fine histograms per type), then, once the 90th percentiles
 * are known, summary_add_dist() on every row again for the response-time
 * frequency distributions TPC-C 5.6 asks for (equal buckets from 0 to
 * 4 x p90, counted exactly rather than read off the histogram). Memory is
 * fixed except for the per-10-s New-Order counts of the steady-state
 * check, which grow with the window's length.
 *
 * One interface, three files: summary_read.c (run.json, meta.json and
 * the rows into the accumulators), summary_compute.c (summary_finish():
 * figures, checks, steady state) and summary_write.c (summary.json,
 * summary.txt).
 */
#ifndef OLTPMARK_ANALYSIS_SUMMARY_H
#define OLTPMARK_ANALYSIS_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/parsers/kcost.h"
#include "analysis/report/checkpoints.h"
#include "analysis/report/mixcsv.h"
#include "src/base/err.h"
#include "src/base/hist.h"
#include "src/base/txn.h"

#define SUM_DIST_BUCKETS	 20    /* RT distribution buckets (>= 20) */
#define SUM_STEADY_INTERVAL_MS	 10000 /* steady-state sample length */
#define SUM_STEADY_LIMIT_PCT	 2.0   /* largest fitted change allowed */
#define SUM_STEADY_MIN_INTERVALS 3     /* fewer: no verdict */
#define SUM_NOTES_MAX		 16    /* notes kept */
#define SUM_NOTE_LEN		 256   /* longest note or warning */
#define SUM_WARNINGS_MAX	 8     /* warnings kept */
#define SUM_CACHED_HIT_MIN	 0.99  /* lowest unwarned cached hit ratio */
#define SUM_OPEN_END		 INT64_MAX /* window end: the last completion */

/* The parts of run.json a summary uses; unknown: NAN, -1 or "". */
struct sum_run {
	bool present;		 /* run.json was read */
	bool partial;		 /* its "partial" (true if absent) */
	char end_reason[64];	 /* why the run ended */
	double ramp_up_s;	 /* configured ramp-up */
	double duration_s;	 /* configured measured length */
	double elapsed_s;	 /* how long the run really lasted */
	int64_t warehouses;	 /* W */
	int64_t terminals;	 /* emulated terminals */
	int64_t connections;	 /* database connections */
	char keying_think[32];	 /* "tpcc", "none", "scale=F" */
	char tx_mode[32];	 /* "procedure" or "sql" */
	int64_t retries[TXN_NR]; /* retries per type */
	int64_t counts[TXN_NR][TXN_STATUS_NR]; /* rows per type and status
						   run.json counted, to find
						   what its retries cover */
	int64_t new_orders;		    /* inputs: New-Orders generated */
	int64_t rollbacks_requested;	    /* inputs: with an unused item */
	int64_t order_lines;		    /* inputs: lines of those orders */
	int64_t remote_order_lines;	    /* inputs: supplied remotely */
	int64_t payments;		    /* inputs: Payments generated */
	int64_t remote_payments;	    /* inputs: customer remote */
	int64_t payments_by_name;	    /* inputs: customer by last name */
	int64_t order_status;		    /* inputs: Order-Status generated */
	int64_t order_status_by_name;	    /* inputs: by last name */
	int64_t deliveries_queued;	    /* inputs: Deliveries queued */
	int64_t deliveries_completed;	    /* inputs: executed */
	int64_t deliveries_not_done;	    /* inputs: queued, never executed */
	int64_t delivery_skipped_districts; /* inputs: districts skipped */
	int64_t deliveries_with_skips; /* inputs: Deliveries skipping any */
	int64_t connections_lost;      /* lost database connections */
	int64_t reconnects;	       /* successful reconnections */
	int64_t checkpoints;	       /* server checkpoints (timed and
					  requested) in the measured
					  interval, from server_stats */
	int64_t blks_hit;	       /* server_stats: buffer hits */
	int64_t blks_read;	       /* server_stats: blocks read in */
	int64_t xact_commit;	       /* server_stats: commits */
	int64_t xact_rollback;	       /* server_stats: rollbacks */
	int64_t checkpoints_timed;     /* server_stats: by timeout */
	int64_t checkpoints_req;       /* server_stats: requested (WAL
					  volume, CHECKPOINT command) */
	int64_t buffers_checkpoint;    /* server_stats: buffers written by
					  checkpoints */
	double cost_start_s;	       /* CPU cost window start */
	double cost_end_s;	       /* CPU cost window end */
	double client_cpu_s;	       /* oltpmark's CPU in that window */
	double server_cpu_s;	       /* the server's, NAN if not measured */
	int64_t server_pid;	       /* whose CPU time that is */
	struct kcost_bcpu bcpu;	       /* "backend_cpu": the backends'
					  schedstat figures per type */
};

/* The parts of meta.json a summary uses. */
struct sum_meta {
	bool present;		/* meta.json was read */
	char label[128];	/* "6.18-base", "" if none */
	char config[64];	/* "cached", "" if none */
	bool simulated;		/* meta.json driver is "iosim": the NOTPM
				   is simulated NOTPM (docs/iosim.md) */
	int diagnostic;		/* 1 diagnostic run (meta.json "diagnostic",
				   options.diagnostic or notes.diagnostic
				   true or "true"), 0 not, -1 unknown (no
				   meta.json) */
	int noncached_enforced; /* notes.noncached_enforced: 1, 0, -1
				   unknown */
	double opt_ramp_up_s;	/* options["ramp-up"], NAN if absent */
	char terminals[256];	/* where the terminals ran, from notes
				   (run/oltpmark-run --sut): "on another
				   host (...)", "on the kernel under test",
				   "" when not recorded */
};

/* Figures of one transaction type over the window. */
struct sum_type {
	uint64_t count;		/* rows, any status */
	uint64_t ok;		/* committed */
	uint64_t rollback;	/* rolled back (New-Order unused item) */
	uint64_t error;		/* failed */
	struct hist response;	/* response_us of every row */
	struct hist service;	/* service_us of every row */
	uint64_t dist_limit_us; /* 4 x p90: range of the distribution */
	uint64_t dist[SUM_DIST_BUCKETS]; /* rows per equal bucket */
	uint64_t dist_over;		 /* rows at or above dist_limit_us */
};

/* Steady-state verdict (methodology.md). */
struct sum_steady {
	size_t intervals;     /* complete 10-s intervals in the window */
	double mean_notpm;    /* their mean NOTPM */
	double slope_per_min; /* fitted NOTPM change per minute */
	double change_pct;    /* fitted change across the intervals, % of
				   the mean; NAN without a verdict */
	double change_ci_pct; /* half-width of its 95 % interval (from the
				 residuals), NAN without one */
	int steady;	      /* 1 steady, 0 not, -1 unknown (too few
				 intervals, or too noisy to tell) */
};

/* The input bounds of TPC-C 5.5.1.5-6. */
enum sum_bound_id {
	SUM_BOUND_ROLLBACK,	      /* New-Order rollbacks % */
	SUM_BOUND_LINES,	      /* order lines per New-Order */
	SUM_BOUND_REMOTE_LINES,	      /* remote order lines % */
	SUM_BOUND_REMOTE_PAYMENTS,    /* remote Payments % */
	SUM_BOUND_PAYMENT_BY_NAME,    /* Payments by last name % */
	SUM_BOUND_OS_BY_NAME,	      /* Order-Status by last name % */
	SUM_BOUND_SKIPPED_DELIVERIES, /* Deliveries with skipped districts */
	SUM_BOUND_NR
};

/* One bound check. */
struct sum_bound {
	const char *key;   /* summary.json name */
	const char *label; /* human name */
	bool percent;	   /* value is a percentage */
	double value;	   /* observed, NAN if unknown */
	double min, max;   /* allowed range, inclusive */
	bool applies;	   /* false: not applicable (one warehouse) */
	int within;	   /* 1, 0, or -1 unknown / not applicable */
	double noise;	   /* 3 standard errors of the value at this
			      sample size, NAN if unknown */
	bool small_sample; /* outside the bounds, but by no more than
			      sampling noise: not judged (within = -1) */
};

/* A per-type check: mix share or 90th-percentile limit. */
struct sum_check {
	bool applies;	   /* false: no such rule for this type */
	double value;	   /* share % or p90 ms, NAN if unknown */
	double limit;	   /* minimum share % or limit ms */
	int within;	   /* 1, 0, or -1 unknown */
	double noise;	   /* mix: 3 standard errors of the share at this
			      sample size, NAN unless it is below its
			      minimum; NAN for p90 */
	bool small_sample; /* mix: below the minimum, but no further from
			      the deck's share than noise: not judged
			      (within = -1) */
};

/* A whole summary. Owns its histograms: summary_free(). */
struct summary {
	int64_t start_ms;	      /* window start (inclusive) */
	int64_t end_ms;		      /* window end (exclusive), SUM_OPEN_END
				   until summary_finish() */
	bool open_end;		      /* the end was the last completion */
	const char *start_from;	      /* where the start came from */
	const char *end_from;	      /* where the end came from */
	bool whole_measured;	      /* the window is run.json's measured
				   interval (summary_run_measured): its
				   retries apply */
	struct sum_run run;	      /* run.json */
	struct sum_meta meta;	      /* meta.json */
	struct sum_type type[TXN_NR]; /* per type, in the window */
	uint64_t rows;		      /* rows read, any time */
	uint64_t file_counts[TXN_NR][TXN_STATUS_NR]; /* rows of the whole
							file by type and
							status */
	uint64_t rows_in_window;       /* rows inside the window */
	uint64_t truncated_lines;      /* cut last line of mix.csv (0 or 1) */
	int64_t first_t_ms;	       /* earliest completion, -1 if no rows */
	int64_t last_t_ms;	       /* latest completion, -1 if no rows */
	uint64_t *steady_no;	       /* New-Orders per 10 s from the start */
	size_t steady_n;	       /* entries used */
	size_t steady_cap;	       /* entries allocated */
	uint64_t cost_rows;	       /* rows inside run.json's cost window */
	uint64_t cost_commits[TXN_NR]; /* of them, committed, per type (the
					  kernel-cost hook's interval) */
	bool ckpts_known;	       /* checkpoints.csv was read and placed */
	struct ckpt_list ckpts;	       /* its checkpoints that overlap the run,
				     s since the start of the run */
	/* computed by summary_finish(): */
	double measured_s;	  /* window length */
	double notpm;		  /* New-Orders (ok + rollback) per minute,
				   NAN for an empty window */
	double tpm_total;	  /* all types (ok + rollback) per minute */
	struct sum_steady steady; /* steady-state verdict */
	struct sum_bound bounds[SUM_BOUND_NR]; /* input bounds */
	struct sum_check mix[TXN_NR]; /* share against TPC-C minimums */
	struct sum_check rt[TXN_NR];  /* p90 against TPC-C limits */
	int mix_ok, rt_ok, bounds_ok; /* 1, 0, -1 unknown */
	size_t ckpts_in_window;	      /* checkpoints overlapping the window */
	double buffer_hit_ratio;      /* blks_hit / (blks_hit + blks_read),
					 NAN unknown */
	double blks_read_per_s;	      /* blks_read over the cost window,
					 NAN unknown */
	const char *retries_scope;    /* what run.json's retries cover:
					 "window" (its counts are the
					 window's), "run" (the whole
					 mix.csv's), NULL (unknown) */
	char notes[SUM_NOTES_MAX][SUM_NOTE_LEN]; /* said in every output */
	int nnotes;				 /* notes used */
	char warnings[SUM_WARNINGS_MAX][SUM_NOTE_LEN]; /* doubts about the
							  run's figures,
							  shown first */
	int nwarnings;				       /* warnings used */
};

/*
 * Read run.json's fields (a parsed object) into out. Absent or mistyped
 * fields stay unknown; a "format" other than oltpmark-run/1 is -EBADMSG.
 */
int summary_run_from_json(const json_t *run, struct sum_run *out,
			  struct err *err);

/*
 * The run's measured interval from run.json: [ramp-up, ramp-up +
 * duration), cut at elapsed_s when the run ended early. false when
 * run.json does not say.
 */
bool summary_run_measured(const struct sum_run *run, int64_t *start_ms,
			  int64_t *end_ms);

/* An unknown run (no run.json): partial, every field unknown. */
void summary_run_unknown(struct sum_run *out);

/* As summary_run_from_json for meta.json (oltpmark-meta/1). */
int summary_meta_from_json(const json_t *meta, struct sum_meta *out,
			   struct err *err);

/* An unknown meta (no meta.json). */
void summary_meta_unknown(struct sum_meta *out);

/*
 * Start a summary of the window [start_ms, end_ms) (end_ms SUM_OPEN_END:
 * up to the last completion). start_from/end_from are static strings
 * naming where the bounds came from ("run.json", "option"...). Copies
 * run and meta. 0 or -ENOMEM.
 */
int summary_init(struct summary *s, const struct sum_run *run,
		 const struct sum_meta *meta, int64_t start_ms, int64_t end_ms,
		 const char *start_from, const char *end_from, struct err *err);

/* First pass: count one row. 0, -ERANGE for an absurd t_ms, -ENOMEM. */
int summary_add(struct summary *s, const struct mixcsv_row *row,
		struct err *err);

/* Between the passes: fix each type's distribution range (4 x p90). */
void summary_prepare_dist(struct summary *s);

/* Second pass: put one row in its type's distribution. */
void summary_add_dist(struct summary *s, const struct mixcsv_row *row);

/*
 * After the passes: close an open window, compute the rates, checks,
 * steady-state verdict and cost. truncated_lines is mix.csv's. 0 always
 * (kept int for future failures).
 */
int summary_finish(struct summary *s, uint64_t truncated_lines,
		   struct err *err);

/* Add a note (printed in summary.txt, summary.json and report.html). */
void summary_note(struct summary *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Add a warning: something that puts the run's figures or evidence in
 * doubt (shown at the top of summary.txt and report.html, and in
 * summary.json "warnings").
 */
void summary_warn(struct summary *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Hand the run's checkpoints to the summary, already on the run's clock
 * (checkpoints_place()); the summary takes the list over and *l is left empty.
 * Without this call the checkpoints are unknown (null in summary.json).
 */
void summary_set_checkpoints(struct summary *s, struct ckpt_list *l);

/*
 * The decimals (at least min_decimals) that show a buffer hit ratio, in
 * %, on the side of 99 % it is on: 98.996 % is printed as such, not as
 * "99.0 %" beside a warning that it is under 99 %.
 */
int summary_hit_pct_decimals(double pct, int min_decimals);

/* Whether a checkpoint overlaps the window [start_ms, end_ms). */
bool summary_ckpt_in_window(const struct summary *s, const struct ckpt *c);

/*
 * Fit the steady-state line to n per-interval NOTPM values (equal
 * intervals) into *out. Pure; used by summary_finish() and the tests.
 */
void summary_steady_fit(const double *notpm, size_t n, struct sum_steady *out);

/* summary.json as a new JSON object (NULL when out of memory). */
json_t *summary_to_json(const struct summary *s);

/* Write summary.json's text (fixed key order and number format) to f. */
int summary_write_json(const struct summary *s, FILE *f, struct err *err);

/* Write the human summary.txt to f. 0 or -EIO. */
int summary_write_text(const struct summary *s, FILE *f, struct err *err);

/* Free the histograms and counts. Safe on a zeroed summary. */
void summary_free(struct summary *s);

/* "New-Order" etc. for tables. */
const char *summary_type_title(enum txn_type type);

#endif
