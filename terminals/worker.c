/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.c - the worker loop (see worker.h for the design and what is
 * shared with the main thread).
 *
 * Timing of one terminal transaction: it is due at t->due_us (the user
 * pressed "send"); the worker reaches it at some now >= due (later when
 * busy with other terminals); it sends at send_us and has the reply at
 * done_us. mix.csv gets response_us = done_us - due_us (so waiting for a
 * busy worker counts: no coordinated omission) and service_us = done_us -
 * send_us. The terminal's next transaction is due at done_us + think time
 * of this type + keying time of the next.
 */
#include "terminals/worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/base/clock.h"
#include "terminals/retry.h"

/*
 * Longest sleep: how soon a sleeping worker notices a stop request. Idle
 * workers (TPC-C pacing) wake this often and at progress boundaries, no
 * more: every wake-up is noise in the kernel's counters.
 */
#define WORKER_SLICE_US 1000000
/* Backoff between reconnect attempts: from 100 ms, doubling, up to 5 s. */
#define WORKER_BACKOFF_MIN_US 100000
#define WORKER_BACKOFF_MAX_US 5000000

static inline int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

bool engine_request_stop(struct engine *eng, enum engine_stop reason)
{
	int expected = ENGINE_RUNNING;

	return atomic_compare_exchange_strong(&eng->stop, &expected,
					      (int)reason);
}

static void engine_log(struct engine *eng, enum engine_log_level level,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void engine_log(struct engine *eng, enum engine_log_level level,
		       const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!eng->log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	eng->log(eng->log_ctx, level, msg);
}

int worker_interval_init(struct worker_interval *iv)
{
	iv->done = iv->new_orders = iv->errors = 0;
	return hist_init(&iv->no_rt, WORKER_PROGRESS_HIST_BITS);
}

void worker_interval_free(struct worker_interval *iv)
{
	hist_free(&iv->no_rt);
}

void worker_interval_reset(struct worker_interval *iv)
{
	iv->done = iv->new_orders = iv->errors = 0;
	hist_reset(&iv->no_rt);
}

static void interval_add(struct worker_interval *dst,
			 const struct worker_interval *src)
{
	dst->done += src->done;
	dst->new_orders += src->new_orders;
	dst->errors += src->errors;
	hist_merge(&dst->no_rt, &src->no_rt);
}

int worker_init(struct worker *w, struct engine *eng, int index, int nterms,
		size_t mix_buf_bytes, struct driver_conn *conn)
{
	memset(w, 0, sizeof(*w));
	w->eng = eng;
	w->sched_fd = -1;
	w->index = index;
	w->nterms = nterms;
	w->next_pub_us = INT64_MAX;
	atomic_init(&w->pub_until_us, INT64_MIN);
	if (pthread_mutex_init(&w->pub_lock, NULL)) {
		eng->ops->disconnect(conn);
		return -ENOMEM;
	}
	w->conn = conn;
	w->terms = calloc((size_t)(nterms > 0 ? nterms : 1), sizeof(*w->terms));
	if (!w->terms || sched_init(&w->sched, nterms) < 0 ||
	    delivery_queue_init(&w->dq, (size_t)nterms) < 0 ||
	    mixlog_buf_init(&w->mix, &eng->mixlog, mix_buf_bytes) < 0 ||
	    worker_interval_init(&w->cur) < 0 ||
	    worker_interval_init(&w->pub) < 0) {
		worker_free(w);
		return -ENOMEM;
	}
	return 0;
}

void worker_free(struct worker *w)
{
	if (!w->eng)
		return;
	if (w->conn)
		w->eng->ops->disconnect(w->conn);
	w->conn = NULL;
	if (w->sched_fd >= 0)
		close(w->sched_fd);
	w->sched_fd = -1;
	free(w->terms);
	w->terms = NULL;
	sched_free(&w->sched);
	delivery_queue_free(&w->dq);
	mixlog_buf_free(&w->mix);
	worker_interval_free(&w->cur);
	worker_interval_free(&w->pub);
	pthread_mutex_destroy(&w->pub_lock);
	w->eng = NULL;
}

void worker_take_interval(struct worker *w, struct worker_interval *into)
{
	pthread_mutex_lock(&w->pub_lock);
	interval_add(into, &w->pub);
	worker_interval_reset(&w->pub);
	pthread_mutex_unlock(&w->pub_lock);
}

/*
 * Hand the current interval over (once per progress interval, when the
 * worker's clock passes a boundary) and compute the next boundary.
 */
static void worker_publish(struct worker *w, int64_t now)
{
	struct engine *e = w->eng;
	int64_t k;

	pthread_mutex_lock(&w->pub_lock);
	interval_add(&w->pub, &w->cur);
	pthread_mutex_unlock(&w->pub_lock);
	worker_interval_reset(&w->cur);
	if (e->progress_us <= 0) {
		w->next_pub_us = INT64_MAX;
		return;
	}
	k = (now - e->start_us) / e->progress_us;
	w->next_pub_us = e->start_us + (k + 1) * e->progress_us;
	atomic_store_explicit(&w->pub_until_us,
			      e->start_us + k * e->progress_us,
			      memory_order_release);
}

/* Stop the run because the engine itself failed. */
static void worker_fail(struct worker *w, int rc, const char *what)
{
	if (engine_request_stop(w->eng, ENGINE_STOP_ERROR))
		engine_log(w->eng, ENGINE_LOG_WARN,
			   "worker %d: %s: %s; ending the run", w->index + 1,
			   what, strerror(-rc));
}

/* One mix.csv row and the counters that go with it. */
static void worker_record(struct worker *w, int terminal, enum txn_type type,
			  enum txn_status status, int retries, int64_t due_us,
			  int64_t send_us, int64_t done_us)
{
	struct engine *e = w->eng;
	int64_t response_us = done_us - due_us;
	int rc;

	/* a transaction belongs to the interval it completed in */
	if (done_us >= w->next_pub_us)
		worker_publish(w, done_us);
	rc = mixlog_add(&w->mix, (done_us - e->start_us) / 1000, terminal, type,
			status, response_us, done_us - send_us);
	if (rc < 0)
		worker_fail(w, rc, "cannot write mix.csv");
	w->counts.txn[type][status]++;
	w->counts.retries[type] += (uint64_t)(retries > 0 ? retries : 0);
	if (status == TXN_STATUS_ERROR) {
		w->cur.errors++;
		return;
	}
	w->cur.done++;
	if (type == TXN_NEW_ORDER) {
		w->cur.new_orders++;
		hist_record(&w->cur.no_rt,
			    (uint64_t)(response_us > 0 ? response_us : 0));
	}
}

/* The input counters of run.json ("inputs"), per executed input. */
static void count_input(struct worker_counts *c, const struct txn_input *in)
{
	switch (in->type) {
	case TXN_NEW_ORDER:
		c->new_orders++;
		c->rollbacks_requested += in->u.new_order.rollback;
		c->order_lines += (uint64_t)in->u.new_order.ol_cnt;
		c->remote_order_lines += (uint64_t)in->u.new_order.remote_lines;
		break;
	case TXN_PAYMENT:
		c->payments++;
		c->remote_payments +=
			in->u.payment.c_w_id != in->u.payment.w_id;
		c->payments_by_name += in->u.payment.by_name;
		break;
	case TXN_ORDER_STATUS:
		c->order_status++;
		c->order_status_by_name += in->u.order_status.by_name;
		break;
	default:
		break;
	}
}

/*
 * The backend's scheduler figures (src/base/schedstat.h). Read once
 * before each send; the growth since the reading before the previous
 * send is the previous transaction's: the backend serves this
 * connection alone, so from one send to the next it worked for that
 * transaction only (its commit, the client protocol and what it did
 * after the reply included; idle it spends nothing). A transaction
 * whose figures cannot be closed (the connection was lost, a reading
 * failed) is counted as not measured, and the first reason kept.
 */

/* Keep the first reason figures are missing. */
static void sched_fail(struct worker *w, const char *why)
{
	int n;

	if (w->sched_why[0])
		return;
	n = snprintf(w->sched_why, sizeof(w->sched_why),
		     "connection %d: ", w->index + 1);
	/* a long reason is cut, never the number */
	if (n > 0 && (size_t)n < sizeof(w->sched_why))
		snprintf(w->sched_why + n, sizeof(w->sched_why) - (size_t)n,
			 "%.*s", (int)(sizeof(w->sched_why) - (size_t)n - 1),
			 why);
}

/* Drop the backend's descriptor; a pending transaction is lost. */
static void sched_close(struct worker *w)
{
	if (w->sched_pending)
		w->bcpu.not_measured++;
	w->sched_pending = false;
	w->sched_have = false;
	if (w->sched_fd >= 0)
		close(w->sched_fd);
	w->sched_fd = -1;
}

/* Open the schedstat of the connection's (new) backend. */
static void sched_open(struct worker *w)
{
	const struct driver_ops *ops = w->eng->ops;
	struct err err;
	int pid, fd;

	sched_close(w);
	if (!w->eng->sched_parent || !ops->backend_pid || !w->conn)
		return;
	pid = ops->backend_pid(w->conn);
	err_clear(&err);
	fd = pid > 0 ? schedstat_open(pid, w->eng->sched_parent, &err)
		     : err_set(&err, -ENOTCONN, "no backend process id");
	if (fd < 0) {
		sched_fail(w, err.msg);
		return;
	}
	w->sched_fd = fd;
}

/* The reading before a send: closes the previous transaction's figures. */
static void sched_mark(struct worker *w)
{
	struct schedstat_sample now;
	struct err err;

	if (w->sched_fd < 0)
		return;
	err_clear(&err);
	if (schedstat_read(w->sched_fd, &now, &err) < 0) {
		sched_fail(w, err.msg);
		sched_close(w);
		return;
	}
	if (w->sched_pending &&
	    schedstat_acc_add(&w->bcpu.by[w->sched_type][w->sched_status],
			      &w->sched_last, &now) < 0) {
		w->bcpu.not_measured++;
		sched_fail(w, "schedstat went backwards (another process?)");
	}
	w->sched_pending = false;
	w->sched_last = now;
	w->sched_have = true;
}

/* The driver said the connection is gone. */
static void worker_lost(struct worker *w, int64_t now)
{
	sched_close(w);
	w->conn_down = true;
	w->lost_us = now;
	w->counts.connections_lost++;
	engine_log(
		w->eng, ENGINE_LOG_WARN,
		"worker %d: connection lost%s%s; reconnecting for up to %.0f s",
		w->index + 1, w->out.message[0] ? ": " : "", w->out.message,
		(double)w->eng->reconnect_us / 1e6);
}

/*
 * Execute w->in on the connection, retries included (terminals/retry.c),
 * and time it. 0, or -ENOTCONN when the connection was lost.
 */
static int worker_execute(struct worker *w, int64_t *send_us, int64_t *done_us)
{
	struct engine *e = w->eng;
	int rc;

	sched_mark(w);
	*send_us = clock_mono_us();
	rc = retry_execute(e->ops, w->conn, e->max_retries, &w->in, &w->out);
	*done_us = clock_mono_us();
	/* only what the driver reports as done counts as done */
	if (rc < 0)
		w->out.status = TXN_STATUS_ERROR;
	/* measured as the response times are: completed in the interval */
	if (w->sched_have && *done_us >= e->start_us + e->ramp_us &&
	    *done_us < e->end_us) {
		w->sched_pending = true;
		w->sched_type = w->in.type;
		w->sched_status = w->out.status;
	}
	return rc;
}

/* Execute the oldest queued Delivery; returns when it ended. */
static int64_t worker_run_delivery(struct worker *w)
{
	struct delivery_req req;
	int64_t send_us, done_us;
	int rc;

	if (delivery_queue_pop(&w->dq, &req) < 0)
		return clock_mono_us();
	w->in.type = TXN_DELIVERY;
	w->in.u.delivery = req.in;
	rc = worker_execute(w, &send_us, &done_us);
	worker_record(w, req.terminal, TXN_DELIVERY, w->out.status,
		      w->out.retries, req.queued_us, send_us, done_us);
	if (w->out.status == TXN_STATUS_OK) {
		w->counts.deliveries_completed++;
		w->counts.delivery_skipped_districts +=
			(uint64_t)(w->out.skipped > 0 ? w->out.skipped : 0);
		w->counts.deliveries_with_skips += w->out.skipped > 0;
	}
	if (rc == -ENOTCONN)
		worker_lost(w, done_us);
	return done_us;
}

/*
 * Serve the terminal at the top of the heap, due at or before now.
 * Returns the time it ended (the clock is not read again for a Delivery,
 * whose acknowledgement is immediate).
 */
static int64_t worker_run_terminal(struct worker *w, struct terminal *t,
				   int64_t now)
{
	struct engine *e = w->eng;
	enum txn_type type = t->next;
	int64_t send_us, done_us;
	int rc;

	inputs_generate(&e->inputs, type, t->w_id, t->sl_d_id, &t->rng, &w->in);
	if (type == TXN_DELIVERY) {
		/* deferred (2.7.2): queue it; the acknowledgement is now */
		struct delivery_req req = {
			.queued_us = t->due_us,
			.terminal = t->id,
			.in = w->in.u.delivery,
		};

		rc = delivery_queue_push(&w->dq, &req);
		if (rc < 0)
			worker_fail(w, rc, "cannot queue a Delivery");
		else
			w->counts.deliveries_queued++;
		done_us = now;
	} else {
		count_input(&w->counts, &w->in);
		rc = worker_execute(w, &send_us, &done_us);
		worker_record(w, t->id, type, w->out.status, w->out.retries,
			      t->due_us, send_us, done_us);
		if (rc == -ENOTCONN)
			worker_lost(w, done_us);
	}
	t->next = deck_draw(&t->deck, &t->rng);
	t->due_us = done_us + pacing_think_us(&e->pacing, type, &t->rng) +
		    pacing_keying_us(&e->pacing, t->next);
	sched_fix_top(&w->sched);
	return done_us;
}

/* Sleep until wake_us or a shorter slice; hand over a crossed interval. */
static void worker_sleep(struct worker *w, int64_t wake_us, int64_t now)
{
	wake_us = min64(wake_us, now + WORKER_SLICE_US);
	wake_us = min64(wake_us, w->next_pub_us);
	/* EINTR (a signal) just ends the sleep early; the caller looks again */
	clock_sleep_until_us(wake_us);
}

/*
 * Re-open a lost connection with backoff, for up to reconnect_us since
 * it was lost. Its terminals wait meanwhile (their due times pass, so
 * their next response times include the outage). 0 when back; negative
 * when the run is stopping or the server stayed away (the run then ends
 * with server_lost).
 */
static int worker_reconnect(struct worker *w)
{
	struct engine *e = w->eng;
	int64_t deadline = w->lost_us + e->reconnect_us;
	int64_t backoff = WORKER_BACKOFF_MIN_US;
	struct err err;

	for (;;) {
		int64_t now, wake;

		err_clear(&err);
		if (e->ops->reconnect(w->conn, &err) == 0) {
			w->conn_down = false;
			sched_open(w);
			w->counts.reconnects++;
			engine_log(e, ENGINE_LOG_INFO,
				   "worker %d: reconnected after %.1f s",
				   w->index + 1,
				   (double)(clock_mono_us() - w->lost_us) /
					   1e6);
			return 0;
		}
		now = clock_mono_us();
		if (now >= deadline) {
			if (engine_request_stop(e, ENGINE_STOP_SERVER_LOST))
				engine_log(
					e, ENGINE_LOG_WARN,
					"worker %d: no connection for %.0f s (%s); ending the run",
					w->index + 1,
					(double)e->reconnect_us / 1e6,
					err.msg[0] ? err.msg
						   : "no reason given");
			return -ENOTCONN;
		}
		wake = min64(now + backoff, deadline);
		while (now < wake) {
			if (now >= w->next_pub_us)
				worker_publish(w, now);
			if (engine_stopping(e) || now >= e->end_us)
				return -ECANCELED;
			worker_sleep(w, wake, now);
			now = clock_mono_us();
		}
		backoff = min64(backoff * 2, WORKER_BACKOFF_MAX_US);
	}
}

/*
 * The run's main loop, until its end or a stop request. The clock is read
 * when a transaction is sent and when it ends; the end time of one serves
 * as "now" for the next decision, so back-to-back running costs two
 * clock reads per transaction.
 */
static void worker_loop(struct worker *w)
{
	struct engine *e = w->eng;
	int64_t now = clock_mono_us();

	for (;;) {
		struct terminal *t;

		if (now >= w->next_pub_us)
			worker_publish(w, now);
		if (engine_stopping(e) || now >= e->end_us)
			return;
		if (w->conn_down) {
			if (worker_reconnect(w) < 0)
				return;
			now = clock_mono_us();
			continue;
		}
		t = sched_top(&w->sched);
		if (t->due_us > now) {
			/* idle: queued Deliveries first, else sleep */
			if (delivery_queue_len(&w->dq)) {
				now = worker_run_delivery(w);
			} else {
				worker_sleep(w, min64(t->due_us, e->end_us),
					     now);
				now = clock_mono_us();
			}
			continue;
		}
		now = worker_run_terminal(w, t, now);
		/* one queued Delivery per terminal transaction: no starving */
		if (!w->conn_down && delivery_queue_len(&w->dq))
			now = worker_run_delivery(w);
	}
}

/*
 * After the end: execute the Deliveries still queued, all of them when
 * the run ended normally, for at most drain_us after a stop request.
 * What cannot run is counted as not done.
 */
static void worker_drain(struct worker *w)
{
	struct engine *e = w->eng;
	int64_t deadline = INT64_MAX;

	while (delivery_queue_len(&w->dq) && !w->conn_down) {
		if (engine_stopping(e)) {
			int64_t now = clock_mono_us();

			if (deadline == INT64_MAX)
				deadline = now + e->drain_us;
			if (now >= deadline)
				break;
		}
		worker_run_delivery(w);
	}
	w->counts.deliveries_not_done += delivery_queue_len(&w->dq);
}

/* Wait at the gate until the main thread opens it; false: abort. */
static bool worker_gate(struct engine *e)
{
	bool go;

	pthread_mutex_lock(&e->gate_lock);
	e->gate_ready++;
	pthread_cond_broadcast(&e->gate_cond);
	while (!e->gate_open)
		pthread_cond_wait(&e->gate_cond, &e->gate_lock);
	go = !e->gate_abort;
	pthread_mutex_unlock(&e->gate_lock);
	return go;
}

/*
 * First due times: terminal k of the run's T starts (k - 1)/T of the way
 * into the ramp-up, and its first transaction is due what terminal_start()
 * chose after that: the rest of the keying or think time it is in.
 */
static void worker_start_terminals(struct worker *w)
{
	struct engine *e = w->eng;
	int i;

	for (i = 0; i < w->nterms; i++) {
		struct terminal *t = &w->terms[i];
		int64_t offset = e->terminals > 0 ? e->ramp_us * (t->id - 1) /
							    e->terminals
						  : 0;

		t->due_us = e->start_us + offset + t->due_us;
		sched_push(&w->sched, t);
	}
	if (e->progress_us > 0)
		w->next_pub_us = e->start_us + e->progress_us;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct engine *e = w->eng;
	int rc;

	sched_open(w);
	if (worker_gate(e)) {
		worker_start_terminals(w);
		if (w->nterms > 0)
			worker_loop(w);
		worker_drain(w);
		/* the last transaction's figures */
		sched_mark(w);
		rc = mixlog_flush(&w->mix);
		if (rc < 0)
			worker_fail(w, rc, "cannot write mix.csv");
	}
	atomic_fetch_add(&e->workers_done, 1);
	return NULL;
}
