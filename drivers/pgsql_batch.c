/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql_batch.c - the tools both ways of running transactions share
 * (pgsql_proc.c, pgsql_sql.c) and the routes use: text parameters written
 * by hand, result values read without strtol, the classification of a
 * failure into enum driver_outcome, and pipelined batches. It calls
 * nothing else of the driver, so pgsql.c (the ops table and connections)
 * and pgsql_route.c both depend on it and not on each other.
 *
 * Errors are classified by SQLSTATE and PQstatus, never by message text.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgsql_internal.h"

/* ---- text parameters ---------------------------------------------- */

void pgsql_params_reset(struct pgsql_params *p)
{
	p->n = 0;
	p->overflow = false;
	p->end = p->buf;
}

/* Room for need more bytes and one more value? Marks overflow if not. */
static bool pgsql_params_room(struct pgsql_params *p, size_t need)
{
	if (p->overflow || p->n >= PGSQL_MAX_PARAMS ||
	    (size_t)(p->buf + sizeof(p->buf) - p->end) < need) {
		p->overflow = true;
		return false;
	}
	return true;
}

/* Write v in decimal at s; return the end. At most 20 characters. */
static char *pgsql_put_int64(char *s, int64_t v)
{
	char tmp[20];
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int i = 0;

	do {
		tmp[i++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*s++ = '-';
	while (i)
		*s++ = tmp[--i];
	return s;
}

/* Write cents as "D.CC" at s; return the end. At most 21 characters. */
static char *pgsql_put_cents(char *s, int64_t cents)
{
	uint64_t u = cents < 0 ? -(uint64_t)cents : (uint64_t)cents;

	if (cents < 0)
		*s++ = '-';
	s = pgsql_put_int64(s, (int64_t)(u / 100));
	*s++ = '.';
	*s++ = (char)('0' + u % 100 / 10);
	*s++ = (char)('0' + u % 10);
	return s;
}

void pgsql_param_int(struct pgsql_params *p, int v)
{
	if (!pgsql_params_room(p, 12))
		return;
	p->values[p->n++] = p->end;
	p->end = pgsql_put_int64(p->end, v);
	*p->end++ = '\0';
}

void pgsql_param_text(struct pgsql_params *p, const char *s)
{
	size_t len = strlen(s);

	if (!pgsql_params_room(p, len + 1))
		return;
	p->values[p->n++] = p->end;
	memcpy(p->end, s, len + 1);
	p->end += len + 1;
}

void pgsql_param_null(struct pgsql_params *p)
{
	if (!pgsql_params_room(p, 0))
		return;
	p->values[p->n++] = NULL;
}

void pgsql_param_cents(struct pgsql_params *p, int64_t cents)
{
	if (!pgsql_params_room(p, 23))
		return;
	p->values[p->n++] = p->end;
	p->end = pgsql_put_cents(p->end, cents);
	*p->end++ = '\0';
}

void pgsql_param_int_array(struct pgsql_params *p, const int *v, int n)
{
	int i;

	if (n < 0 || !pgsql_params_room(p, 3 + (size_t)n * 12))
		return;
	p->values[p->n++] = p->end;
	*p->end++ = '{';
	for (i = 0; i < n; i++) {
		if (i)
			*p->end++ = ',';
		p->end = pgsql_put_int64(p->end, v[i]);
	}
	*p->end++ = '}';
	*p->end++ = '\0';
}

void pgsql_param_cents_array(struct pgsql_params *p, const int64_t *v, int n)
{
	int i;

	if (n < 0 || !pgsql_params_room(p, 3 + (size_t)n * 23))
		return;
	p->values[p->n++] = p->end;
	*p->end++ = '{';
	for (i = 0; i < n; i++) {
		if (i)
			*p->end++ = ',';
		p->end = pgsql_put_cents(p->end, v[i]);
	}
	*p->end++ = '}';
	*p->end++ = '\0';
}

/* ---- result values -------------------------------------------------- */

int pgsql_int(const PGresult *res, int row, int col)
{
	const char *s = PQgetvalue(res, row, col);
	bool neg = *s == '-';
	int64_t v = 0;

	if (neg)
		s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return (int)(neg ? -v : v);
}

int64_t pgsql_fixed(const PGresult *res, int row, int col, int scale)
{
	const char *s = PQgetvalue(res, row, col);
	bool neg = *s == '-';
	int64_t v = 0;
	int frac = 0;

	if (neg)
		s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && frac < scale; s++, frac++)
			v = v * 10 + (*s - '0');
	for (; frac < scale; frac++)
		v *= 10;
	return neg ? -v : v;
}

/* ---- errors --------------------------------------------------------- */

/*
 * out->message for a lost connection: the first line of why (libpq's or
 * the server's last words; why may be out->message itself). The return
 * code -ENOTCONN already says "lost", callers print that themselves.
 */
static void pgsql_lost_message(struct txn_output *out, const char *why)
{
	char line[sizeof(out->message)];

	pgconn_first_line(line, sizeof(line), why);
	snprintf(out->message, sizeof(out->message), "%s",
		 line[0] ? line : "connection lost");
}

enum driver_outcome pgsql_fail_result(struct driver_conn *conn,
				      const PGresult *res,
				      struct txn_output *out)
{
	const char *state = NULL, *msg = NULL;

	if (res) {
		state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
		if (!msg || !*msg)
			msg = PQresultErrorMessage(res);
	}
	if (!msg || !*msg)
		msg = PQerrorMessage(conn->pg);
	pgconn_first_line(out->sqlstate, sizeof(out->sqlstate), state);

	if (PQstatus(conn->pg) == CONNECTION_BAD) {
		pgsql_lost_message(out, msg);
		return DRIVER_LOST;
	}
	pgconn_first_line(out->message, sizeof(out->message), msg);
	if (state &&
	    (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0))
		return DRIVER_RETRY;
	return DRIVER_ERROR;
}

void pgsql_fail_lost(struct driver_conn *conn, struct txn_output *out)
{
	out->sqlstate[0] = '\0';
	pgsql_lost_message(out, PQerrorMessage(conn->pg));
}

enum driver_outcome pgsql_fail(struct txn_output *out, const char *sqlstate,
			       const char *fmt, ...)
{
	va_list ap;

	pgconn_first_line(out->sqlstate, sizeof(out->sqlstate), sqlstate);
	va_start(ap, fmt);
	vsnprintf(out->message, sizeof(out->message), fmt, ap);
	va_end(ap);
	return DRIVER_ERROR;
}

/* ---- pipelined batches --------------------------------------------- */

void pgsql_batch_start(struct driver_conn *conn, struct pgsql_batch *b)
{
	b->n = 0;
	b->nq = 0;
	b->send_failed = conn->broken || PQenterPipelineMode(conn->pg) != 1;
}

/* Is the preparation of stmt already queued in this batch? */
static bool pgsql_batch_preparing(const struct pgsql_batch *b, int stmt)
{
	int k;

	for (k = 0; k < b->nq; k++)
		if (b->entry[k] == -1 - stmt)
			return true;
	return false;
}

void pgsql_batch_send(struct driver_conn *conn, struct pgsql_batch *b, int stmt,
		      const struct pgsql_params *p)
{
	const struct pgsql_stmt *st = &conn->mode->stmts[stmt];

	if (b->send_failed || p->overflow || b->n >= PGSQL_BATCH_MAX ||
	    b->nq + 2 > 2 * PGSQL_BATCH_MAX) {
		b->send_failed = true;
		return;
	}
	if (!(conn->prepared & (UINT64_C(1) << stmt)) &&
	    !pgsql_batch_preparing(b, stmt)) {
		if (PQsendPrepare(conn->pg, st->name, st->sql, 0, NULL) != 1) {
			b->send_failed = true;
			return;
		}
		b->entry[b->nq++] = (short)(-1 - stmt);
	}
	if (PQsendQueryPrepared(conn->pg, st->name, p->n, p->values, NULL, NULL,
				0) != 1) {
		b->send_failed = true;
		return;
	}
	b->entry[b->nq++] = (short)b->n;
	b->res[b->n++] = NULL;
}

void pgsql_batch_clear(struct pgsql_batch *b)
{
	int i;

	for (i = 0; i < b->n; i++) {
		PQclear(b->res[i]);
		b->res[i] = NULL;
	}
}

/* Did every statement of the batch succeed? */
static bool pgsql_batch_all_ok(const struct pgsql_batch *b)
{
	int i;

	for (i = 0; i < b->n; i++) {
		ExecStatusType st = PQresultStatus(b->res[i]);

		if (!b->res[i] ||
		    (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK))
			return false;
	}
	return true;
}

/*
 * The connection broke during a batch. If every statement had already
 * succeeded (a COMMIT among them had committed: an explicit COMMIT
 * commits before it reports), the batch is done and the session marked
 * broken, so that the next call reports the loss; otherwise the outcome
 * is DRIVER_LOST.
 */
static enum driver_outcome pgsql_batch_lost(struct driver_conn *conn,
					    struct pgsql_batch *b,
					    struct txn_output *out)
{
	conn->broken = true;
	if (pgsql_batch_all_ok(b))
		return DRIVER_DONE;
	/* keep the server's goodbye (57P01 "terminating connection ...") */
	if (!out->message[0])
		pgsql_fail_lost(conn, out);
	return DRIVER_LOST;
}

/*
 * Read results up to and including the Sync's, keeping the first result
 * of each statement. After a failure the server skips the rest of the
 * batch (PGRES_PIPELINE_ABORTED) up to the Sync, so this always ends,
 * unless the connection breaks, which is checked after every result.
 */
enum driver_outcome pgsql_batch_run(struct driver_conn *conn,
				    struct pgsql_batch *b,
				    struct txn_output *out)
{
	enum driver_outcome oc = DRIVER_DONE;
	PGconn *pg = conn->pg;
	bool broken = false;
	PGresult *r;
	int k = 0;

	if (conn->broken) {
		pgsql_fail_lost(conn, out);
		return DRIVER_LOST;
	}
	if (PQpipelineSync(pg) != 1)
		return pgsql_batch_lost(conn, b, out);
	if (b->send_failed) {
		/*
		 * Out of memory or parameters too long, or a broken
		 * connection, which the loop below finds.
		 */
		oc = pgsql_fail(out, "", "pgsql: could not queue a statement");
	}

	for (;;) {
		ExecStatusType st;
		bool failed;
		int e;

		r = PQgetResult(pg);
		if (!r) {
			if (PQstatus(pg) == CONNECTION_BAD)
				return pgsql_batch_lost(conn, b, out);
			/*
			 * The end of one entry's results. More ends than
			 * entries would mean libpq and we disagree on the
			 * state: give the connection up.
			 */
			if (++k > b->nq + 1) {
				pgsql_fail(out, "",
					   "pgsql: pipeline out of step");
				conn->broken = true;
				return DRIVER_LOST;
			}
			continue;
		}
		st = PQresultStatus(r);
		if (st == PGRES_PIPELINE_SYNC) {
			PQclear(r);
			break;
		}
		failed = st == PGRES_FATAL_ERROR ||
			 st == PGRES_NONFATAL_ERROR || st == PGRES_BAD_RESPONSE;
		if (failed && k >= b->nq)
			broken = true; /* at the Sync: the server is leaving */
		else if (failed && oc == DRIVER_DONE)
			oc = pgsql_fail_result(conn, r, out);
		e = k < b->nq ? b->entry[k] : INT_MIN;
		if (e >= 0 && !b->res[e]) {
			b->res[e] = r;
			r = NULL;
		} else if (e < 0 && e != INT_MIN && st == PGRES_COMMAND_OK) {
			/* prepared statements outlive a rollback */
			conn->prepared |= UINT64_C(1) << (-1 - e);
		}
		PQclear(r);
		if (oc == DRIVER_LOST || PQstatus(pg) == CONNECTION_BAD)
			return pgsql_batch_lost(conn, b, out);
	}
	if (PQexitPipelineMode(pg) != 1 || broken)
		return pgsql_batch_lost(conn, b, out);
	return oc;
}
