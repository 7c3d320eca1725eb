/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - one run from open to run.json (see run.h).
 *
 * Terminals: terminal k (1-based, k = (w - 1) * N + i + 1 for the i-th of
 * the N terminals of warehouse w) has home warehouse w and Stock-Level
 * district i % 10 + 1, and the j-th terminal of this process (j from 0)
 * belongs to worker j % connections, so every worker serves terminals of
 * many warehouses and the staggered starts are spread evenly over the
 * workers. A process given a warehouse range (several drivers, one
 * benchmark) has the terminals of its range only, with the numbers,
 * random streams and start times they have in the run of all 1..W: the
 * parts together are that run. Each terminal starts in the
 * stationary state of its deck and keying/think cycle (terminal_start),
 * so the mix is steady from its first transaction on.
 *
 * The main thread, while the workers run: wakes at the end of the
 * ramp-up to take the first cost sample (our CPU time, the server's, its
 * counters), once per progress interval to collect and report the
 * workers' interval counters, and at the end of the measured interval to
 * take the second sample and tell the workers to stop. It also polls the
 * caller's stop flag: the signals that set it are blocked in the worker
 * threads, so they interrupt the main thread's sleep at once.
 *
 * A full file system: mix.csv grows during the whole run and is what
 * fills it, and after it run.json, meta.json and the summary still have
 * to be written, or the rows already on disk are unreadable. So the run
 * keeps a reserve file (RUN_RESERVE_BYTES, allocated, not sparse) in the
 * result directory from its start and removes it when the workers have
 * stopped, before the first of those files is written: a run that meets
 * ENOSPC stops, and its results fit in the space it held back.
 */
#include "terminals/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "src/base/clock.h"
#include "src/base/resfile.h"
#include "src/base/sysinfo.h"
#include "terminals/clockoff.h"

/*
 * The main thread's longest sleep: how soon it sees a stop requested by a
 * worker (a signal interrupts the sleep at once).
 */
#define RUN_SLICE_US 1000000
/*
 * A progress line is made once every worker has handed in the interval
 * (each does when its clock passes the boundary), or at the latest this
 * long after the boundary: a worker inside a long transaction then
 * reports in the next line.
 */
#define RUN_PROGRESS_WAIT_US 1000000
/*
 * How late a start at an agreed instant (start_at_us) may be before the
 * run is refused: beyond this, the parts of one run would not share
 * their measured interval.
 */
#define RUN_START_LATE_MAX_US 200000
/* How often the main thread looks while waiting for hand-overs. */
#define RUN_PROGRESS_POLL_US 5000
/* mix.csv buffers: this much in all, each within [64 KiB, 1 MiB]. */
#define RUN_MIX_BUF_TOTAL (8u << 20)
#define RUN_MIX_BUF_MIN	  (64u << 10)
#define RUN_MIX_BUF_MAX	  (1u << 20)
/*
 * Space held back in the result directory during the run for the files
 * written after it: run.json, meta.json, summary.json, summary.txt and
 * timeseries.csv take some 20 KiB (a day's run at 10 s intervals adds
 * 1 MiB of time series: reports are redone by `oltpmark report`), each
 * first as NAME.tmp beside the old one.
 */
#define RUN_RESERVE_BYTES (256u << 10)
#define RUN_RESERVE_NAME  ".oltpmark-reserve"

/* One sample of the cost of the run and the server's counters. */
struct cost_sample {
	int64_t mono_us;	   /* when (CLOCK_MONOTONIC) */
	double client_cpu_s;	   /* our user + sys CPU */
	bool server_ok;		   /* server_cpu_s was read */
	double server_cpu_s;	   /* postmaster tree's CPU */
	bool stats_ok;		   /* stats were read */
	struct driver_stats stats; /* server counters */
};

struct run {
	struct run_config cfg;	      /* as given (strings borrowed) */
	struct engine eng;	      /* shared with the workers */
	bool eng_sync;		      /* gate mutex and cond initialised */
	bool mixlog_open;	      /* DIR/mix.csv.tmp exists */
	char reserve[PATH_MAX];	      /* DIR/RUN_RESERVE_NAME, "": none */
	struct driver_conn *monitor;  /* db_info, describe, stats */
	struct driver_db_info db;     /* oltpmark_meta */
	json_t *server;		      /* describe() output */
	struct worker *workers;	      /* cfg.connections of them */
	int nworkers;		      /* initialised entries of workers */
	bool executed;		      /* run_execute was called */
	int server_pid;		      /* sampled postmaster, 0: none */
	struct cost_sample win_start; /* at the end of the ramp-up */
	struct cost_sample win_end;   /* at the end of the measured interval */
	struct run_result res;	      /* what run_get_result returns */
};

static const char *const end_names[RUN_END_NR] = {
	[RUN_END_COMPLETED] = "completed",
	[RUN_END_INTERRUPTED] = "interrupted",
	[RUN_END_SERVER_LOST] = "server_lost",
	[RUN_END_ERROR] = "error",
};

static const char *const tx_mode_names[DRIVER_TX_NR] = {
	[DRIVER_TX_PROCEDURE] = "procedure",
	[DRIVER_TX_SQL] = "sql",
};

const char *run_end_name(enum run_end end)
{
	return (unsigned)end < RUN_END_NR ? end_names[end] : "error";
}

void run_pacing_text(const struct pacing *p, char *buf, size_t size)
{
	switch (p->mode) {
	case PACING_TPCC:
		snprintf(buf, size, "tpcc");
		break;
	case PACING_NONE:
		snprintf(buf, size, "none");
		break;
	default:
		snprintf(buf, size, "scale=%g", p->scale);
		break;
	}
}

static void run_log(struct run *run, enum engine_log_level level,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void run_log(struct run *run, enum engine_log_level level,
		    const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!run->cfg.log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	run->cfg.log(run->cfg.cb_ctx, level, msg);
}

static int check_config(const struct run_config *c, struct err *err)
{
	long long terminals;

	if (!c->driver)
		return err_set(err, -EINVAL, "no driver");
	if (!c->out_dir)
		return err_set(err, -EINVAL, "no result directory");
	if (c->warehouses < 1 || c->terminals_per_w < 1)
		return err_set(
			err, -EINVAL,
			"need at least one warehouse and one terminal per warehouse");
	if (c->range.first &&
	    (c->range.first < 1 || c->range.last < c->range.first ||
	     c->range.last > c->warehouses))
		return err_set(err, -EINVAL,
			       "warehouse range %d-%d is not within 1-%d",
			       c->range.first, c->range.last, c->warehouses);
	terminals = (long long)c->warehouses * c->terminals_per_w;
	if (terminals > 10000000)
		return err_set(err, -EINVAL, "%lld terminals are too many",
			       terminals);
	if (c->range.first)
		terminals = (long long)whrange_count(&c->range) *
			    c->terminals_per_w;
	if (c->connections < 1 || c->connections > terminals)
		return err_set(
			err, -EINVAL,
			"%d connections for %lld terminals: need 1..%lld",
			c->connections, terminals, terminals);
	if (c->duration_s < 1 || c->ramp_up_s < 0 || c->progress_s < 0 ||
	    c->reconnect_s < 1 || c->drain_s < 0)
		return err_set(
			err, -EINVAL,
			"bad duration, ramp-up, progress, reconnect or drain time");
	if (c->max_retries < 0)
		return err_set(err, -EINVAL, "bad max_retries %d",
			       c->max_retries);
	return 0;
}

/* Read oltpmark_meta and refuse a database we cannot run on. */
static int check_database(struct run *run, struct err *err)
{
	const struct run_config *c = &run->cfg;
	int rc;

	rc = c->driver->db_info(run->monitor, &run->db, err);
	if (rc < 0)
		return rc;
	if (!run->db.has_meta)
		return err_set(
			err, -ENODATA,
			"the database has no oltpmark_meta: load it first (oltpmark load -w W)");
	if (strcmp(run->db.status, "loaded") != 0)
		return err_set(
			err, -ENODATA,
			"the database is not loaded (oltpmark_meta says '%s'): load it again (oltpmark load --drop -w W)",
			run->db.status);
	if (c->warehouses > run->db.warehouses)
		return err_set(err, -ERANGE,
			       "-w %d: the database has only %d warehouse%s",
			       c->warehouses, run->db.warehouses,
			       run->db.warehouses == 1 ? "" : "s");
	if (run->db.c_load_c_last < 0 || run->db.c_load_c_last > TPCC_A_C_LAST)
		return err_set(err, -ENODATA,
			       "oltpmark_meta has a bad C-Load %d for C_LAST",
			       run->db.c_load_c_last);
	return 0;
}

/*
 * Allocate the reserve file (see the top of this file). 0, or negative
 * errno with err set: a directory that has not even that much room gets
 * no run.
 */
static int reserve_space(struct run *run, struct err *err)
{
	char path[PATH_MAX];
	int fd, rc;

	if (snprintf(path, sizeof(path), "%s/%s", run->cfg.out_dir,
		     RUN_RESERVE_NAME) >= (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG,
			       "result directory name too long: %s",
			       run->cfg.out_dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		return err_set(err, rc, "cannot create %s: %s", path,
			       strerror(-rc));
	}
	/* posix_fallocate returns the error number instead of setting errno */
	rc = -posix_fallocate(fd, 0, RUN_RESERVE_BYTES);
	close(fd);
	if (rc < 0) {
		unlink(path);
		return err_set(err, rc,
			       "cannot keep %u KiB free in %s for the result "
			       "files (%s): %s",
			       RUN_RESERVE_BYTES >> 10, run->cfg.out_dir, path,
			       strerror(-rc));
	}
	snprintf(run->reserve, sizeof(run->reserve), "%s", path);
	return 0;
}

/* Give the reserve back, for the files written after the run. */
static void release_space(struct run *run)
{
	if (!run->reserve[0])
		return;
	unlink(run->reserve);
	run->reserve[0] = '\0';
}

/* The postmaster whose CPU time we sample, if any. */
static void choose_server_pid(struct run *run)
{
	json_t *v = json_object_get(run->server, "postmaster_pid");
	struct err err;
	double cpu;
	int pid = run->cfg.server_pid;

	if (!pid && json_is_integer(v))
		pid = (int)json_integer_value(v);
	if (!pid)
		return;
	err_clear(&err);
	if (sysinfo_tree_cpu_s(pid, &cpu, &err) < 0) {
		run_log(run, ENGINE_LOG_WARN,
			"server CPU time not measured: %s", err.msg);
		return;
	}
	run->server_pid = pid;
}

/* The home warehouses of this process's terminals. */
static struct whrange home_range(const struct run_config *c)
{
	struct whrange all = {1, c->warehouses};

	return c->range.first ? c->range : all;
}

/* Lay out the terminals over the workers (see the top of this file). */
static void place_terminals(struct run *run, int *per_worker)
{
	const struct run_config *c = &run->cfg;
	struct whrange r = home_range(c);
	int first = (r.first - 1) * c->terminals_per_w;
	int total = whrange_count(&r) * c->terminals_per_w, j;

	for (j = 0; j < total; j++) {
		struct worker *w = &run->workers[j % c->connections];
		struct terminal *t =
			&w->terms[per_worker[j % c->connections]++];
		int k = first + j; /* its number in the whole run, less 1 */
		int i = k % c->terminals_per_w;

		t->id = k + 1;
		t->w_id = k / c->terminals_per_w + 1;
		t->sl_d_id = i % TPCC_DISTRICTS_PER_W + 1;
		rng_seed(&t->rng, c->seed, (uint64_t)k + 1);
		/* in phase: mid-deck, mid-cycle, as if it had always run */
		terminal_start(t, &c->pacing);
	}
}

static int open_workers(struct run *run, struct err *err)
{
	const struct run_config *c = &run->cfg;
	struct whrange r = home_range(c);
	int total = whrange_count(&r) * c->terminals_per_w;
	size_t buf = RUN_MIX_BUF_TOTAL / (size_t)c->connections;
	int *placed, i, rc;

	if (buf < RUN_MIX_BUF_MIN)
		buf = RUN_MIX_BUF_MIN;
	if (buf > RUN_MIX_BUF_MAX)
		buf = RUN_MIX_BUF_MAX;
	run->workers = calloc((size_t)c->connections, sizeof(*run->workers));
	placed = calloc((size_t)c->connections, sizeof(*placed));
	if (!run->workers || !placed) {
		free(placed);
		return err_set(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < c->connections; i++) {
		struct driver_conn *conn = NULL;
		int nterms =
			total / c->connections + (i < total % c->connections);
		struct err cerr;

		err_clear(&cerr);
		rc = c->driver->connect(&c->db, &conn, &cerr);
		if (rc < 0) {
			free(placed);
			return err_set(err, rc, "connection %d of %d: %s",
				       i + 1, c->connections, cerr.msg);
		}
		rc = worker_init(&run->workers[i], &run->eng, i, nterms, buf,
				 conn);
		if (rc < 0) {
			free(placed);
			return err_set(err, rc, "out of memory");
		}
		run->nworkers++;
	}
	place_terminals(run, placed);
	free(placed);
	return 0;
}

int run_open(struct run **out, const struct run_config *cfg, struct err *err)
{
	struct run *run;
	struct rng rng;
	struct err derr;
	int rc;

	*out = NULL;
	rc = check_config(cfg, err);
	if (rc < 0)
		return rc;
	run = calloc(1, sizeof(*run));
	if (!run)
		return err_set(err, -ENOMEM, "out of memory");
	run->cfg = *cfg;
	run->eng.ops = cfg->driver;
	run->eng.pacing = cfg->pacing;
	run->eng.terminals = cfg->warehouses * cfg->terminals_per_w;
	run->eng.ramp_us = (int64_t)cfg->ramp_up_s * 1000000;
	run->eng.progress_us = (int64_t)cfg->progress_s * 1000000;
	run->eng.reconnect_us = (int64_t)cfg->reconnect_s * 1000000;
	run->eng.max_retries = cfg->max_retries;
	run->eng.drain_us = (int64_t)cfg->drain_s * 1000000;
	run->eng.log = cfg->log;
	run->eng.log_ctx = cfg->cb_ctx;
	atomic_init(&run->eng.stop, ENGINE_RUNNING);
	atomic_init(&run->eng.workers_done, 0);
	if (pthread_mutex_init(&run->eng.gate_lock, NULL)) {
		free(run);
		return err_set(err, -ENOMEM, "cannot create a mutex");
	}
	if (pthread_cond_init(&run->eng.gate_cond, NULL)) {
		pthread_mutex_destroy(&run->eng.gate_lock);
		free(run);
		return err_set(err, -ENOMEM, "cannot create a condition");
	}
	run->eng_sync = true;

	rc = cfg->driver->connect(&cfg->db, &run->monitor, err);
	if (rc < 0)
		goto fail;
	rc = check_database(run, err);
	if (rc < 0)
		goto fail;
	run->server = json_object();
	if (!run->server) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	rc = clockoff_measure(cfg->driver, run->monitor, cfg->clock_inject_us,
			      &run->res.clock, err);
	if (rc < 0)
		goto fail;
	if (cfg->max_clock_offset_us > 0 &&
	    !clockoff_within(&run->res.clock, cfg->max_clock_offset_us)) {
		rc = err_set(
			err, -ETIME,
			"the clock is %+.1f ms (within %.1f ms) off the server's: beyond the bound of %.1f ms (--max-clock-offset); synchronise the clocks (NTP)",
			(double)run->res.clock.offset_us / 1000.0,
			(double)run->res.clock.uncertainty_us / 1000.0,
			(double)cfg->max_clock_offset_us / 1000.0);
		goto fail;
	}
	err_clear(&derr);
	if (cfg->driver->describe(run->monitor, run->server, &derr) < 0) {
		/* meta.json then says why the server facts are missing */
		run_log(run, ENGINE_LOG_WARN,
			"server description incomplete: %s", derr.msg);
		json_object_set_new(run->server, "describe_error",
				    json_string(derr.msg));
	}
	choose_server_pid(run);
	/* the backends' CPU per transaction: children of a postmaster here */
	run->eng.sched_parent = run->server_pid;

	rng_seed(&rng, cfg->seed, 0);
	inputs_ctx_init(&run->eng.inputs, cfg->warehouses,
			run->db.c_load_c_last, &rng);
	rc = open_workers(run, err);
	if (rc < 0)
		goto fail;
	rc = reserve_space(run, err);
	if (rc < 0)
		goto fail;
	rc = mixlog_open(&run->eng.mixlog, cfg->out_dir, err);
	if (rc < 0)
		goto fail;
	run->mixlog_open = true;
	*out = run;
	return 0;
fail:
	run_close(run);
	return rc;
}

json_t *run_server_json(struct run *run)
{
	return run->server;
}

const struct driver_db_info *run_db_info(const struct run *run)
{
	return &run->db;
}

const struct inputs_ctx *run_inputs(const struct run *run)
{
	return &run->eng.inputs;
}

const struct run_result *run_get_result(const struct run *run)
{
	return &run->res;
}

static void take_sample(struct run *run, struct cost_sample *s)
{
	struct err err;

	s->mono_us = clock_mono_us();
	s->client_cpu_s = sysinfo_self_cpu_s();
	s->server_ok = false;
	if (run->server_pid) {
		err_clear(&err);
		s->server_ok = sysinfo_tree_cpu_s(run->server_pid,
						  &s->server_cpu_s, &err) == 0;
		if (!s->server_ok)
			run_log(run, ENGINE_LOG_WARN,
				"server CPU time not measured: %s", err.msg);
	}
	s->stats_ok = false;
	if (run->cfg.driver->stats && run->monitor) {
		const struct driver_ops *ops = run->cfg.driver;

		err_clear(&err);
		s->stats_ok = ops->stats(run->monitor, &s->stats, &err) == 0;
		/* the server may have restarted since: one fresh try */
		if (!s->stats_ok && ops->reconnect(run->monitor, &err) == 0) {
			err_clear(&err);
			s->stats_ok =
				ops->stats(run->monitor, &s->stats, &err) == 0;
		}
		if (!s->stats_ok)
			run_log(run, ENGINE_LOG_WARN,
				"server counters not read: %s", err.msg);
	}
}

/* Collect the workers' last interval and hand it to the callback. */
static void report_progress(struct run *run, struct worker_interval *agg,
			    int64_t boundary_us, uint64_t *errors_total)
{
	struct engine *e = &run->eng;
	struct run_progress p;
	int i;

	worker_interval_reset(agg);
	for (i = 0; i < run->nworkers; i++)
		worker_take_interval(&run->workers[i], agg);
	*errors_total += agg->errors;
	p.elapsed_s = (double)(boundary_us - e->start_us) / 1e6;
	p.interval_s = (double)e->progress_us / 1e6;
	p.ramp_up = boundary_us - e->progress_us < e->start_us + e->ramp_us;
	p.notpm = (double)agg->new_orders * 60.0 / p.interval_s;
	p.tpm = (double)agg->done * 60.0 / p.interval_s;
	p.new_order_p90_ms =
		agg->no_rt.total
			? (double)hist_percentile(&agg->no_rt, 90) / 1000.0
			: -1;
	p.errors = agg->errors;
	p.errors_total = *errors_total;
	if (run->cfg.progress)
		run->cfg.progress(run->cfg.cb_ctx, &p);
}

static bool all_handed_over(struct run *run, int64_t boundary_us)
{
	int i;

	for (i = 0; i < run->nworkers; i++)
		if (!worker_handed_over(&run->workers[i], boundary_us))
			return false;
	return true;
}

static bool stop_flag_set(const struct run *run)
{
	return run->cfg.stop_flag && *run->cfg.stop_flag;
}

/*
 * The main thread during the run: cost samples, progress, the end. Returns
 * when the measured interval is over or a stop was requested, having
 * taken the second sample.
 */
static void supervise(struct run *run)
{
	struct engine *e = &run->eng;
	int64_t ramp_end = e->start_us + e->ramp_us;
	int64_t next_progress =
		e->progress_us > 0 ? e->start_us + e->progress_us : INT64_MAX;
	struct worker_interval agg;
	uint64_t errors_total = 0;
	bool have_agg = worker_interval_init(&agg) == 0;
	int64_t now;

	for (;;) {
		int64_t wake;

		now = clock_mono_us();
		if (stop_flag_set(run))
			engine_request_stop(e, ENGINE_STOP_SIGNAL);
		if (engine_stopping(e) != ENGINE_RUNNING || now >= e->end_us)
			break;
		if (!run->res.window && now >= ramp_end) {
			take_sample(run, &run->win_start);
			run->res.window = true;
		}
		if (now >= next_progress) {
			if (now >= next_progress + RUN_PROGRESS_WAIT_US ||
			    all_handed_over(run, next_progress)) {
				if (have_agg)
					report_progress(run, &agg,
							next_progress,
							&errors_total);
				next_progress += e->progress_us;
			}
		}
		wake = now + RUN_SLICE_US;
		if (!run->res.window && ramp_end < wake)
			wake = ramp_end;
		if (e->end_us < wake)
			wake = e->end_us;
		if (next_progress < wake)
			wake = next_progress;
		if (now >= next_progress && now + RUN_PROGRESS_POLL_US < wake)
			wake = now + RUN_PROGRESS_POLL_US;
		clock_sleep_until_us(wake);
	}
	/* the measured interval ends here: at its end or at the stop */
	if (now > e->end_us)
		now = e->end_us;
	run->res.elapsed_s = (double)(now - e->start_us) / 1e6;
	if (run->res.window)
		take_sample(run, &run->win_end);
	if (have_agg)
		worker_interval_free(&agg);
}

/* Wait for the workers to finish their in-flight and queued work. */
static void wait_workers(struct run *run)
{
	struct engine *e = &run->eng;

	while (atomic_load(&e->workers_done) < run->nworkers) {
		if (stop_flag_set(run))
			engine_request_stop(e, ENGINE_STOP_SIGNAL);
		clock_sleep_until_us(clock_mono_us() + 20000);
	}
}

static void sum_counts(struct worker_counts *sum, const struct worker_counts *c)
{
	const uint64_t *src = (const uint64_t *)c;
	uint64_t *dst = (uint64_t *)sum;
	size_t i;

	/* struct worker_counts is nothing but uint64_t counters */
	_Static_assert(sizeof(struct worker_counts) ==
			       sizeof(uint64_t) *
				       (TXN_NR * TXN_STATUS_NR + TXN_NR + 16),
		       "struct worker_counts holds only uint64_t counters");
	for (i = 0; i < sizeof(*c) / sizeof(uint64_t); i++)
		dst[i] += src[i];
}

/* d = b - a per counter; -1 where either is unknown. */
static void stats_delta(struct driver_stats *d, const struct driver_stats *a,
			const struct driver_stats *b)
{
#define DELTA(f) d->f = a->f >= 0 && b->f >= 0 ? b->f - a->f : -1
	DELTA(blks_hit);
	DELTA(blks_read);
	DELTA(xact_commit);
	DELTA(xact_rollback);
	DELTA(checkpoints_timed);
	DELTA(checkpoints_req);
	DELTA(buffers_checkpoint);
	DELTA(wal_bytes);
#undef DELTA
}

/* The backends' figures, or why there are none (run.json "backend_cpu"). */
static void fill_bcpu(struct run *run)
{
	struct run_result *r = &run->res;
	const struct driver_ops *ops = run->cfg.driver;
	int i;

	r->bcpu_measured = false;
	if (!ops->backend_pid) {
		snprintf(r->bcpu_why, sizeof(r->bcpu_why),
			 "the %s driver has no server backends", ops->name);
		return;
	}
	if (!run->eng.sched_parent) {
		snprintf(r->bcpu_why, sizeof(r->bcpu_why),
			 "the server's postmaster is not a process of this "
			 "host (a server elsewhere, or its PID unknown): no "
			 "/proc/PID/schedstat of its backends to read");
		return;
	}
	for (i = 0; i < run->nworkers; i++) {
		const struct worker *w = &run->workers[i];

		schedstat_types_sum(&r->bcpu, &w->bcpu);
		if (w->sched_why[0] && !r->bcpu_why[0])
			snprintf(r->bcpu_why, sizeof(r->bcpu_why), "%s",
				 w->sched_why);
	}
	r->bcpu_measured = !r->bcpu_why[0];
}

static void fill_result(struct run *run)
{
	struct run_result *r = &run->res;
	int i;

	switch (engine_stopping(&run->eng)) {
	case ENGINE_RUNNING:
		r->end = RUN_END_COMPLETED;
		break;
	case ENGINE_STOP_SIGNAL:
		/* a signal after the end only shortened the final drain */
		r->end = r->elapsed_s * 1e6 >= (double)(run->eng.end_us -
							run->eng.start_us)
				 ? RUN_END_COMPLETED
				 : RUN_END_INTERRUPTED;
		break;
	case ENGINE_STOP_SERVER_LOST:
		r->end = RUN_END_SERVER_LOST;
		break;
	default:
		r->end = RUN_END_ERROR;
		break;
	}
	for (i = 0; i < run->nworkers; i++)
		sum_counts(&r->counts, &run->workers[i].counts);
	fill_bcpu(run);
	/* the rows in the file: fewer than counted after a failed write */
	r->mix_rows = run->eng.mixlog.rows;
	if (r->window) {
		struct cost_sample *a = &run->win_start, *b = &run->win_end;

		r->window_start_s =
			(double)(a->mono_us - run->eng.start_us) / 1e6;
		r->window_end_s =
			(double)(b->mono_us - run->eng.start_us) / 1e6;
		r->client_cpu_s = b->client_cpu_s - a->client_cpu_s;
		r->server_pid = run->server_pid;
		r->server_cpu = a->server_ok && b->server_ok;
		r->server_cpu_s =
			r->server_cpu ? b->server_cpu_s - a->server_cpu_s : 0;
		r->server_stats.valid = a->stats_ok && b->stats_ok;
		if (r->server_stats.valid)
			stats_delta(&r->server_stats.d, &a->stats, &b->stats);
	} else {
		r->server_pid = run->server_pid;
	}
}

/* The local wall clock as the run reads it (with the test shift). */
static int64_t local_wall_us(const struct run *run)
{
	return clock_wall_us() + run->cfg.clock_inject_us;
}

/*
 * Sleep until the server's clock reads start_at_us (the local clock
 * corrected by the measured offset). 0 when the time has come, -ETIME
 * when it had passed by more than RUN_START_LATE_MAX_US already, -EINTR
 * when a stop was requested meanwhile.
 */
static int wait_start_at(struct run *run, struct err *err)
{
	const struct run_config *c = &run->cfg;
	int64_t late;

	for (;;) {
		int64_t now = local_wall_us(run) + run->res.clock.offset_us;
		int64_t left = c->start_at_us - now;
		struct timespec ts;

		if (stop_flag_set(run))
			return err_set(err, -EINTR,
				       "stopped while waiting for the start");
		if (left <= 0) {
			late = -left;
			break;
		}
		if (left > RUN_SLICE_US)
			left = RUN_SLICE_US;
		ts.tv_sec = left / 1000000;
		ts.tv_nsec = (left % 1000000) * 1000;
		/* a signal cuts it short: the stop flag is looked at above */
		nanosleep(&ts, NULL);
	}
	run->res.start_late_us = late;
	if (late > RUN_START_LATE_MAX_US)
		return err_set(
			err, -ETIME,
			"the start instant (--start-at) passed %.3f s before the connections were ready: agree on a later one",
			(double)late / 1e6);
	return 0;
}

int run_execute(struct run *run, struct err *err)
{
	struct engine *e = &run->eng;
	sigset_t block, old;
	int i, rc = 0, created = 0;

	if (run->executed)
		return err_set(err, -EINVAL, "a run executes only once");
	run->executed = true;

	/* signals go to the main thread, which sleeps where EINTR is harmless */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < run->nworkers; i++) {
		rc = pthread_create(&run->workers[i].thread, NULL, worker_main,
				    &run->workers[i]);
		if (rc) {
			rc = err_set(err, -rc,
				     "cannot start worker thread %d: %s", i + 1,
				     strerror(rc));
			break;
		}
		run->workers[i].started = true;
		created++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/* the gate: all ready, then the start time, then go */
	pthread_mutex_lock(&e->gate_lock);
	while (e->gate_ready < created)
		pthread_cond_wait(&e->gate_cond, &e->gate_lock);
	if (rc == 0 && run->cfg.start_at_us) {
		/* the workers wait on the condition, not the lock */
		pthread_mutex_unlock(&e->gate_lock);
		rc = wait_start_at(run, err);
		pthread_mutex_lock(&e->gate_lock);
	}
	e->start_us = clock_mono_us();
	e->end_us = e->start_us + e->ramp_us +
		    (int64_t)run->cfg.duration_s * 1000000;
	run->res.start_wall_us = local_wall_us(run);
	e->gate_open = true;
	e->gate_abort = rc < 0;
	pthread_cond_broadcast(&e->gate_cond);
	pthread_mutex_unlock(&e->gate_lock);

	if (rc == 0) {
		supervise(run);
		wait_workers(run);
	}
	for (i = 0; i < run->nworkers; i++)
		if (run->workers[i].started)
			pthread_join(run->workers[i].thread, NULL);
	run->res.finished_s = (double)(clock_mono_us() - e->start_us) / 1e6;
	run->res.end_wall_us = local_wall_us(run);
	/* nothing grows mix.csv any more: its room is for the results */
	release_space(run);
	if (rc < 0)
		return rc;

	fill_result(run);
	run->mixlog_open = false;
	rc = mixlog_commit(&e->mixlog, err);
	if (rc < 0) {
		run->res.end = RUN_END_ERROR;
		snprintf(run->res.error, sizeof(run->res.error), "%s",
			 err->msg);
	} else if (run->res.end == RUN_END_ERROR) {
		snprintf(run->res.error, sizeof(run->res.error),
			 "the engine failed (see the messages of the run)");
	}
	run->res.partial = run->res.end != RUN_END_COMPLETED;
	return 0;
}

/* Helpers for run.json. */
static json_t *json_count(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *json_stat(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *counts_json(const struct worker_counts *c)
{
	json_t *o = json_object();
	int t;

	for (t = 0; t < TXN_NR; t++) {
		json_t *x = json_object();

		json_object_set_new(x, "ok",
				    json_count(c->txn[t][TXN_STATUS_OK]));
		json_object_set_new(x, "rollback",
				    json_count(c->txn[t][TXN_STATUS_ROLLBACK]));
		json_object_set_new(x, "error",
				    json_count(c->txn[t][TXN_STATUS_ERROR]));
		json_object_set_new(x, "retries", json_count(c->retries[t]));
		json_object_set_new(o, txn_type_name(t), x);
	}
	return o;
}

static json_t *inputs_json(const struct worker_counts *c)
{
	json_t *o = json_object();

#define PUT(name) json_object_set_new(o, #name, json_count(c->name))
	PUT(new_orders);
	PUT(rollbacks_requested);
	PUT(order_lines);
	PUT(remote_order_lines);
	PUT(payments);
	PUT(remote_payments);
	PUT(payments_by_name);
	PUT(order_status);
	PUT(order_status_by_name);
	PUT(deliveries_queued);
	PUT(deliveries_completed);
	PUT(deliveries_not_done);
	PUT(delivery_skipped_districts);
	PUT(deliveries_with_skips);
#undef PUT
	return o;
}

static json_t *cost_json(const struct run_result *r)
{
	json_t *o = json_object();

	if (!r->window) {
		json_object_set_new(o, "window_start_s", json_null());
		json_object_set_new(o, "window_end_s", json_null());
		json_object_set_new(o, "client_cpu_s", json_null());
		json_object_set_new(o, "server_cpu_s", json_null());
	} else {
		json_object_set_new(o, "window_start_s",
				    json_real(r->window_start_s));
		json_object_set_new(o, "window_end_s",
				    json_real(r->window_end_s));
		json_object_set_new(o, "client_cpu_s",
				    json_real(r->client_cpu_s));
		json_object_set_new(o, "server_cpu_s",
				    r->server_cpu ? json_real(r->server_cpu_s)
						  : json_null());
	}
	json_object_set_new(o, "server_pid",
			    r->server_pid ? json_integer(r->server_pid)
					  : json_null());
	return o;
}

static json_t *server_stats_json(const struct run_result *r)
{
	const struct driver_stats *d = &r->server_stats.d;
	json_t *o;

	if (!r->window || !r->server_stats.valid)
		return json_null();
	o = json_object();
#define PUT(name) json_object_set_new(o, #name, json_stat(d->name))
	PUT(blks_hit);
	PUT(blks_read);
	PUT(xact_commit);
	PUT(xact_rollback);
	PUT(checkpoints_timed);
	PUT(checkpoints_req);
	PUT(buffers_checkpoint);
	PUT(wal_bytes);
#undef PUT
	return o;
}

/* Keys of the statuses, as in "counts". */
static const char *const status_keys[TXN_STATUS_NR] = {
	[TXN_STATUS_OK] = "ok",
	[TXN_STATUS_ROLLBACK] = "rollback",
	[TXN_STATUS_ERROR] = "error",
};

/* One accumulator: totals, so that merge can add parts up. */
static json_t *acc_json(const struct schedstat_acc *a)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "txns", (json_int_t)a->txns,
			 "cpu_ns", (json_int_t)a->cpu_ns, "run_wait_ns",
			 (json_int_t)a->wait_ns, "timeslices",
			 (json_int_t)a->slices);
}

/*
 * "backend_cpu": the backends' /proc/PID/schedstat growth per type and
 * status over the measured interval, or the reason there is none.
 */
static json_t *bcpu_json(const struct run_result *r)
{
	json_t *o = json_object(), *types;
	int t, st;

	if (!o)
		return NULL;
	json_object_set_new(o, "measured", json_boolean(r->bcpu_measured));
	json_object_set_new(o, "reason",
			    r->bcpu_measured ? json_null()
					     : json_string(r->bcpu_why));
	if (!r->bcpu_measured) {
		json_object_set_new(o, "types", json_null());
		return o;
	}
	json_object_set_new(o, "source", json_string("/proc/PID/schedstat"));
	json_object_set_new(o, "not_measured",
			    json_count(r->bcpu.not_measured));
	types = json_object();
	for (t = 0; types && t < TXN_NR; t++) {
		json_t *x = json_object();

		for (st = 0; x && st < TXN_STATUS_NR; st++)
			json_object_set_new(x, status_keys[st],
					    acc_json(&r->bcpu.by[t][st]));
		json_object_set_new(types, txn_type_name(t), x);
	}
	json_object_set_new(o, "types", types);
	return o;
}

static json_t *run_json(const struct run *run)
{
	const struct run_config *c = &run->cfg;
	const struct run_result *r = &run->res;
	const struct inputs_ctx *in = &run->eng.inputs;
	struct whrange range = home_range(c);
	json_t *o = json_object(), *nc = json_object();
	char pacing[64];

	if (!o || !nc) {
		json_decref(o);
		json_decref(nc);
		return NULL;
	}
	run_pacing_text(&c->pacing, pacing, sizeof(pacing));
	json_object_set_new(o, "format", json_string(RESFILE_TAG_RUN));
	json_object_set_new(o, "oltpmark_version",
			    json_string(OLTPMARK_VERSION));
	json_object_set_new(o, "partial", json_boolean(r->partial));
	json_object_set_new(o, "end_reason", json_string(run_end_name(r->end)));
	json_object_set_new(o, "error",
			    r->error[0] ? json_string(r->error) : json_null());
	json_object_set_new(o, "ramp_up_s", json_integer(c->ramp_up_s));
	json_object_set_new(o, "duration_s", json_integer(c->duration_s));
	json_object_set_new(o, "elapsed_s", json_real(r->elapsed_s));
	json_object_set_new(o, "finished_s", json_real(r->finished_s));
	json_object_set_new(o, "warehouses", json_integer(c->warehouses));
	json_object_set_new(o, "terminals_per_warehouse",
			    json_integer(c->terminals_per_w));
	json_object_set_new(
		o, "terminals",
		json_integer(whrange_count(&range) * c->terminals_per_w));
	json_object_set_new(o, "connections", json_integer(c->connections));
	json_object_set_new(o, "keying_think", json_string(pacing));
	json_object_set_new(o, "tx_mode",
			    json_string(tx_mode_names[c->db.tx_mode]));
	json_object_set_new(o, "driver", json_string(c->driver->name));
	json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
	json_object_set_new(o, "reconnect_s", json_integer(c->reconnect_s));
	json_object_set_new(nc, "c_last_load", json_integer(in->c_load_c_last));
	json_object_set_new(nc, "c_last_run", json_integer(in->c_c_last));
	json_object_set_new(nc, "c_id", json_integer(in->c_c_id));
	json_object_set_new(nc, "ol_i_id", json_integer(in->c_ol_i_id));
	json_object_set_new(o, "nurand_c", nc);
	json_object_set_new(o, "counts", counts_json(&r->counts));
	json_object_set_new(o, "inputs", inputs_json(&r->counts));
	json_object_set_new(o, "mix_rows", json_count(r->mix_rows));
	json_object_set_new(o, "connections_lost",
			    json_count(r->counts.connections_lost));
	json_object_set_new(o, "reconnects", json_count(r->counts.reconnects));
	json_object_set_new(o, "cost", cost_json(r));
	json_object_set_new(o, "server_stats", server_stats_json(r));
	json_object_set_new(o, "backend_cpu", bcpu_json(r));
	return o;
}

int run_write_json(const struct run *run, struct err *err)
{
	char path[PATH_MAX];
	json_t *o;
	int rc;

	if (!run->executed)
		return err_set(err, -EINVAL, "the run has not been executed");
	if (snprintf(path, sizeof(path), "%s/run.json", run->cfg.out_dir) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG,
			       "result directory name too long");
	o = run_json(run);
	if (!o)
		return err_set(err, -ENOMEM, "out of memory");
	rc = resfile_write_json(path, o, err);
	json_decref(o);
	return rc;
}

void run_close(struct run *run)
{
	int i;

	if (!run)
		return;
	if (run->mixlog_open)
		mixlog_abort(&run->eng.mixlog);
	release_space(run);
	for (i = 0; i < run->nworkers; i++)
		worker_free(&run->workers[i]);
	free(run->workers);
	if (run->monitor)
		run->cfg.driver->disconnect(run->monitor);
	json_decref(run->server);
	if (run->eng_sync) {
		pthread_cond_destroy(&run->eng.gate_cond);
		pthread_mutex_destroy(&run->eng.gate_lock);
	}
	free(run);
}
