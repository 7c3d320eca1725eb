/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.h - worker threads: each owns one database connection and a
 * share of the terminals.
 *
 * A worker keeps its terminals in a min-heap by due time and loops:
 * sleep (clock_nanosleep, absolute CLOCK_MONOTONIC) until the earliest
 * terminal is due, run its transaction, record it, draw the terminal's
 * next card and schedule it keying + think time later. Queued Deliveries
 * (terminals/delivery.h) run between terminal transactions. All workers
 * are created before the run starts and wait at a gate, so they start
 * together once every one is ready (pgbench's barrier).
 *
 * Sharing with the main thread, without a lock per transaction:
 * - counters and the mix.csv buffer belong to the worker alone; the main
 *   thread reads the counters after joining it;
 * - for progress lines the worker hands over its interval counters and
 *   New-Order histogram under its own mutex, once per progress interval
 *   (when its clock crosses an interval boundary), never per transaction;
 * - the stop request is an atomic int, read relaxed in the loop.
 */
#ifndef OLTPMARK_WORKER_H
#define OLTPMARK_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "drivers/driver.h"
#include "src/base/hist.h"
#include "src/base/schedstat.h"
#include "terminals/delivery.h"
#include "terminals/inputs.h"
#include "terminals/mixlog.h"
#include "terminals/pacing.h"
#include "terminals/scheduler.h"
#include "terminals/terminal.h"

/* Why the run stops before its end; the first reason set wins. */
enum engine_stop {
	ENGINE_RUNNING,		 /* no stop requested */
	ENGINE_STOP_SIGNAL,	 /* SIGINT or SIGTERM */
	ENGINE_STOP_SERVER_LOST, /* a connection could not be re-opened */
	ENGINE_STOP_ERROR,	 /* the engine itself failed (mix.csv write,
				    out of memory) */
};

/* Severity of a message a worker hands to the log callback. */
enum engine_log_level {
	ENGINE_LOG_INFO, /* worth a line: a reconnect */
	ENGINE_LOG_WARN, /* something lost or failed */
};

/* Message callback: called from worker threads, must be thread-safe. */
typedef void (*engine_log_fn)(void *ctx, enum engine_log_level level,
			      const char *msg);

/* What the run shares with its workers. */
struct engine {
	const struct driver_ops *ops; /* the driver */
	struct inputs_ctx inputs;     /* run-wide NURand constants */
	struct pacing pacing;	      /* keying and think times */
	struct mixlog mixlog;	      /* DIR/mix.csv */
	int terminals;		      /* terminals in the run */
	int64_t start_us;	      /* gate release (MONOTONIC), set by the
					 main thread before it opens the gate */
	int64_t ramp_us;      /* ramp-up: terminals start staggered over it */
	int64_t end_us;	      /* start + ramp-up + duration */
	int64_t progress_us;  /* progress interval, 0: none */
	int64_t reconnect_us; /* how long to retry a lost connection */
	int max_retries;      /* attempts after DRIVER_RETRY, per
					 transaction (terminals/retry.h) */
	int64_t drain_us;     /* after a stop request, how long queued
					 Deliveries may still run */
	atomic_int stop;      /* enum engine_stop */
	atomic_int workers_done;   /* workers that finished */
	pthread_mutex_t gate_lock; /* protects the gate_* fields */
	pthread_cond_t gate_cond;  /* signalled on gate changes */
	int gate_ready;		   /* workers waiting at the gate */
	bool gate_open;		   /* the main thread let them go */
	bool gate_abort;	   /* ... or told them to quit at once */
	engine_log_fn log;	   /* messages, or NULL */
	void *log_ctx;		   /* passed to log */
	int sched_parent;	   /* the server's postmaster on this host,
				      whose children (the backends) the
				      workers read /proc/PID/schedstat of;
				      0: not measured */
};

/* What a worker counts, for run.json; the run sums them over workers. */
struct worker_counts {
	uint64_t txn[TXN_NR][TXN_STATUS_NR]; /* mix.csv rows by type, status */
	uint64_t retries[TXN_NR];	     /* driver retries by type */
	uint64_t new_orders;		     /* New-Order inputs executed */
	uint64_t rollbacks_requested;	     /* ... with rbk = 1 */
	uint64_t order_lines;		     /* their order lines */
	uint64_t remote_order_lines;	     /* ... supplied by another W */
	uint64_t payments;		     /* Payment inputs executed */
	uint64_t remote_payments;	     /* ... with C_W_ID != W_ID */
	uint64_t payments_by_name;	     /* ... selecting by C_LAST */
	uint64_t order_status;		     /* Order-Status inputs executed */
	uint64_t order_status_by_name;	     /* ... selecting by C_LAST */
	uint64_t deliveries_queued;	     /* Deliveries acknowledged */
	uint64_t deliveries_completed;	     /* ... executed with status ok */
	uint64_t deliveries_not_done;	     /* ... still queued at the end */
	uint64_t delivery_skipped_districts; /* districts with no order */
	uint64_t deliveries_with_skips;	     /* Deliveries that skipped any */
	uint64_t connections_lost;	     /* -ENOTCONN from the driver */
	uint64_t reconnects;		     /* successful reconnects */
};

/* Counters of one progress interval. */
struct worker_interval {
	uint64_t done;	     /* transactions ended ok or rollback */
	uint64_t new_orders; /* New-Orders ended ok or rollback */
	uint64_t errors;     /* transactions ended in error */
	struct hist no_rt;   /* New-Order response times, us */
};

/* One worker thread. */
struct worker {
	struct engine *eng;	      /* shared run state */
	int index;		      /* 0-based worker number */
	struct driver_conn *conn;     /* its connection (owned) */
	struct terminal *terms;	      /* its terminals (owned) */
	int nterms;		      /* entries in terms */
	struct sched sched;	      /* terms by due time */
	struct delivery_queue dq;     /* its queued Deliveries */
	struct mixlog_buf mix;	      /* its mix.csv rows */
	struct worker_counts counts;  /* whole-run counters */
	struct worker_interval cur;   /* the interval being counted */
	int64_t next_pub_us;	      /* when cur is handed over next */
	pthread_mutex_t pub_lock;     /* protects pub */
	struct worker_interval pub;   /* handed over, not yet taken */
	_Atomic int64_t pub_until_us; /* everything that completed before
					 this interval boundary is in pub */
	bool conn_down;		      /* lost, not yet re-opened */
	int64_t lost_us;	      /* when it was lost */
	int sched_fd;		      /* its backend's /proc/PID/schedstat,
					 -1: none (src/base/schedstat.h) */
	bool sched_have;	      /* sched_last is a reading of it */
	struct schedstat_sample sched_last; /* read before the last send */
	bool sched_pending;		    /* the last transaction was in the
					 measured interval: the growth up to
					 the next reading is its */
	enum txn_type sched_type;	    /* ... its type */
	enum txn_status sched_status;	    /* ... and status */
	struct schedstat_types bcpu;	    /* the backend's figures per type */
	char sched_why[ERR_MSG_MAX];	    /* why some were not measured, "" */
	struct txn_input in;		    /* input being executed */
	struct txn_output out;		    /* its result */
	pthread_t thread;		    /* the thread, when started */
	bool started;			    /* thread was created */
};

/* Bits of precision of the progress histograms (2^-5: about 3 %). */
#define WORKER_PROGRESS_HIST_BITS 5

/*
 * Set up worker index of eng with room for nterms terminals (filled in by
 * the caller: terms[0..nterms-1]), a mix.csv buffer of mix_buf_bytes and
 * the open connection conn, which it then owns. 0 or -ENOMEM.
 */
int worker_init(struct worker *w, struct engine *eng, int index, int nterms,
		size_t mix_buf_bytes, struct driver_conn *conn);

/* Free everything, closing the connection. Safe on a zeroed struct. */
void worker_free(struct worker *w);

/* Thread body: pthread_create(&w->thread, NULL, worker_main, w). */
void *worker_main(void *arg);

/*
 * Main thread: add what w handed over since the last call to *into and
 * forget it. Thread-safe against the running worker.
 */
void worker_take_interval(struct worker *w, struct worker_interval *into);

/* Main thread: whether w has handed over everything before boundary_us. */
static inline bool worker_handed_over(struct worker *w, int64_t boundary_us)
{
	return atomic_load_explicit(&w->pub_until_us, memory_order_acquire) >=
	       boundary_us;
}

/* 0 or -ENOMEM. */
int worker_interval_init(struct worker_interval *iv);
void worker_interval_free(struct worker_interval *iv);
void worker_interval_reset(struct worker_interval *iv);

/*
 * Ask every worker to stop for reason; the first reason wins and true is
 * returned to the caller that set it. Async-signal-safe (a lock-free
 * atomic compare-and-swap).
 */
bool engine_request_stop(struct engine *eng, enum engine_stop reason);

/* The stop reason now (ENGINE_RUNNING when none). */
static inline enum engine_stop engine_stopping(struct engine *eng)
{
	return (enum engine_stop)atomic_load_explicit(&eng->stop,
						      memory_order_relaxed);
}

#endif
