/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.h - one benchmark run as a library: configuration in, result
 * counters and result files (mix.csv, run.json) out. `oltpmark run`
 * (src/cmd/cmd_run.c) is a thin layer over it; the unit tests and the engine
 * benchmark drive it directly with the null driver.
 *
 * Life cycle: run_open() checks the configuration and the database and
 * opens every connection; run_execute() starts the workers together,
 * calls the progress callback every interval, stops at the end (or on
 * request), lets in-flight transactions finish and queued Deliveries run,
 * and commits mix.csv; run_write_json() writes run.json; run_close()
 * frees it all. Nothing here prints or exits: messages go through the
 * callbacks, errors through struct err.
 */
#ifndef OLTPMARK_RUN_H
#define OLTPMARK_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "drivers/driver.h"
#include "src/base/err.h"
#include "src/base/whrange.h"
#include "terminals/clockoff.h"
#include "terminals/pacing.h"
#include "terminals/worker.h"

#define RUN_RECONNECT_S_DEFAULT 90 /* TPC-C's limit for a lost connection */
#define RUN_DRAIN_S_DEFAULT	5  /* queued Deliveries after a stop */

/* One progress line's worth of numbers (an interval of the run). */
struct run_progress {
	double elapsed_s;  /* end of the interval, since the start */
	double interval_s; /* its length */
	bool ramp_up;	   /* it began before the end of the ramp-up */
	double notpm;	   /* New-Orders (ok + rollback) per minute */
	double tpm;	   /* all transactions (ok + rollback) per minute */
	double new_order_p90_ms; /* New-Order 90th percentile, -1: none */
	uint64_t errors;	 /* transactions ended in error */
	uint64_t errors_total;	 /* ... since the start */
};

/* Called by the thread inside run_execute() once per interval. */
typedef void (*run_progress_fn)(void *ctx, const struct run_progress *p);

/* What to run. */
struct run_config {
	const struct driver_ops *driver; /* database driver */
	struct driver_config db;	 /* conninfo, tx mode */
	int warehouses;			 /* W: the warehouses of the whole
					    run, 1..W (remote ones drawn
					    from them) */
	struct whrange range;		 /* home warehouses of this process's
				 terminals, within 1..W; first 0: all */
	int terminals_per_w;		 /* terminals per warehouse (10) */
	int connections;      /* worker threads, one connection each */
	int ramp_up_s;	      /* before the measured interval */
	int duration_s;	      /* measured interval */
	struct pacing pacing; /* keying and think times */
	uint64_t seed;	      /* of every random stream */
	int progress_s;	      /* progress interval, 0: none */
	int reconnect_s;      /* give a lost connection this long */
	int max_retries;      /* retries of a transaction that may pass next
					    time (40001, 40P01), at least 0 */
	int drain_s;	      /* queued Deliveries after a stop */
	int server_pid;	      /* postmaster PID for the server's CPU
					    time; 0: from the driver's describe()
					    ("postmaster_pid"), if any */
	int64_t start_at_us;  /* the run starts (the gate opens) when the
				 server's clock reads this, us since the
				 epoch; 0: as soon as all are ready */
	int64_t max_clock_offset_us; /* refuse a run whose clock offset
					against the server, plus its
					uncertainty, exceeds this; 0: none */
	int64_t clock_inject_us;     /* test only: added to every reading of
				    the local wall clock */
	const char *out_dir;	     /* existing directory for the results */
	const volatile sig_atomic_t *stop_flag; /* set by a signal handler:
						   stop early (may be NULL) */
	run_progress_fn progress;		/* progress lines, or NULL */
	engine_log_fn log; /* messages (any thread), or NULL */
	void *cb_ctx;	   /* passed to progress and log */
};

/* How the run ended (run.json "end_reason"). */
enum run_end {
	RUN_END_COMPLETED,   /* ran its whole duration */
	RUN_END_INTERRUPTED, /* SIGINT/SIGTERM (stop_flag) */
	RUN_END_SERVER_LOST, /* a connection stayed lost for reconnect_s */
	RUN_END_ERROR,	     /* the engine failed (see error) */
	RUN_END_NR
};

/* Server counters (driver stats op) differences over the cost window. */
struct run_server_stats {
	bool valid;	       /* both samples were taken */
	struct driver_stats d; /* end - start; -1 where unknown */
};

/* What a run measured about itself. */
struct run_result {
	enum run_end end;	 /* why it ended */
	bool partial;		 /* end != completed */
	char error[ERR_MSG_MAX]; /* with RUN_END_ERROR: what failed */
	int64_t start_wall_us;	 /* wall clock at the start (gate release) */
	struct clockoff clock;	 /* offset against the server's clock,
				    measured by run_open */
	int64_t start_late_us;	 /* with start_at_us: how late the gate
				    opened, on the server's clock */
	int64_t end_wall_us;	 /* ... when the last worker finished */
	double elapsed_s;	 /* start to the end of the measured interval
				      (or to the stop request) */
	double finished_s;	 /* start to the last worker's end, after
				      in-flight and queued work */
	struct worker_counts counts; /* summed over workers */
	uint64_t mix_rows;	     /* rows written to mix.csv */
	bool window;		     /* the cost window was reached */
	double window_start_s;	     /* cost window, since the start */
	double window_end_s;	     /* ... */
	double client_cpu_s;	     /* our user + sys CPU in the window */
	int server_pid;		     /* whose tree was sampled, 0: none */
	bool server_cpu;	     /* server_cpu_s is known */
	double server_cpu_s;	     /* server tree's CPU in the window */
	struct run_server_stats server_stats; /* counters in the window */
	bool bcpu_measured;	     /* bcpu holds every connection's figures */
	char bcpu_why[ERR_MSG_MAX];  /* ... else why not */
	struct schedstat_types bcpu; /* the backends' scheduler figures per
				 transaction type, measured interval
				 (run.json "backend_cpu") */
};

/* An open run. */
struct run;

/*
 * Check cfg, connect (one monitoring connection plus cfg->connections
 * for the workers), read oltpmark_meta and describe the server, create
 * DIR/mix.csv.tmp. Returns 0 with *out set, or negative with err set:
 * -EINVAL bad configuration, -ERANGE more warehouses asked than loaded,
 * -ENODATA the database is not (completely) loaded, -ETIME the clock
 * offset against the server exceeds max_clock_offset_us, another negative
 * errno when a connection or a file failed. Not thread-safe.
 */
int run_open(struct run **out, const struct run_config *cfg, struct err *err);

/*
 * The describe() object of the server (borrowed; valid until
 * run_close). Never holds a password.
 */
json_t *run_server_json(struct run *run);

/* The database facts read by run_open. */
const struct driver_db_info *run_db_info(const struct run *run);

/* The NURand constants drawn for the run. */
const struct inputs_ctx *run_inputs(const struct run *run);

/*
 * Run it: start the workers together (at start_at_us when given: -ETIME
 * when that instant passed before they were ready, -EINTR when stopped
 * while waiting for it), report progress, stop at the end
 * or when *cfg->stop_flag becomes non-zero, let in-flight transactions
 * finish and queued Deliveries run, join, and rename mix.csv into place.
 * Returns 0 when the run took place (even a partial one: see the result),
 * or negative with err set when it could not start. Once only.
 */
int run_execute(struct run *run, struct err *err);

/* The result, valid after run_execute. */
const struct run_result *run_get_result(const struct run *run);

/* Write DIR/run.json (via run.json.tmp and rename). 0 or negative. */
int run_write_json(const struct run *run, struct err *err);

/* Disconnect and free. Safe on NULL. Removes mix.csv.tmp if never run. */
void run_close(struct run *run);

/* "completed", "interrupted", "server_lost", "error". */
const char *run_end_name(enum run_end end);

/* Write a --keying-think value back as text ("tpcc", "scale=0.01"). */
void run_pacing_text(const struct pacing *p, char *buf, size_t size);

#endif
