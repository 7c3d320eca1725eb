/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgconn_query.c - the statements of the access layer that give rows or
 * stream data (pgconn.h): queries with text parameters and the rows they
 * return, rows one at a time for a scan too large to hold, COPY FROM
 * STDIN, quoting, cancelling, and closing. With these the loader and the
 * check reach PostgreSQL without libpq's own calls: one place says what
 * a failure is (a lost connection or the server's refusal) and how its
 * message reads.
 */
#include "drivers/pgconn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

/* The rows of one result: a PGresult and nothing else. */
struct pgconn_rows {
	PGresult *res; /* owned, unless a row of pgconn_each_row */
};

/* A request to cancel what a connection runs, usable from any thread. */
struct pgconn_cancel {
	PGcancel *cancel; /* owned */
};

/* err_set() as "WHAT: MSG", or "MSG" when what is NULL. */
static int pgconn_fail(struct err *err, int code, const char *what,
		       const char *msg)
{
	if (!what)
		return err_set(err, code, "%s", msg);
	return err_set(err, code, "%s: %s", what, msg);
}

bool pgconn_lost(const PGconn *conn)
{
	return !conn || PQstatus(conn) == CONNECTION_BAD;
}

int pgconn_query(PGconn *conn, const char *what, const char *sql, int nparams,
		 const char *const *params, struct pgconn_rows **rows,
		 struct err *err)
{
	char msg[ERR_MSG_MAX];
	ExecStatusType st;
	PGresult *res;

	if (rows)
		*rows = NULL;
	res = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);
	st = PQresultStatus(res);
	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
		pgconn_error(res, conn, msg, sizeof(msg));
		PQclear(res);
		return pgconn_fail(err, pgconn_lost(conn) ? -ENOTCONN : -EIO,
				   what, msg);
	}
	if (!rows) {
		PQclear(res);
		return 0;
	}
	*rows = malloc(sizeof(**rows));
	if (!*rows) {
		PQclear(res);
		return pgconn_fail(err, -ENOMEM, what, "out of memory");
	}
	(*rows)->res = res;
	return 0;
}

int pgconn_rows_count(const struct pgconn_rows *rows)
{
	return rows ? PQntuples(rows->res) : 0;
}

int pgconn_rows_fields(const struct pgconn_rows *rows)
{
	return rows ? PQnfields(rows->res) : 0;
}

const char *pgconn_rows_value(const struct pgconn_rows *rows, int row, int col)
{
	if (!rows || row < 0 || row >= PQntuples(rows->res) || col < 0 ||
	    col >= PQnfields(rows->res))
		return "";
	return PQgetvalue(rows->res, row, col);
}

bool pgconn_rows_is_null(const struct pgconn_rows *rows, int row, int col)
{
	if (!rows || row < 0 || row >= PQntuples(rows->res) || col < 0 ||
	    col >= PQnfields(rows->res))
		return true;
	return PQgetisnull(rows->res, row, col) != 0;
}

void pgconn_rows_free(struct pgconn_rows *rows)
{
	if (!rows)
		return;
	PQclear(rows->res);
	free(rows);
}

int pgconn_each_row(PGconn *conn, const char *what, const char *sql,
		    void (*row)(const struct pgconn_rows *one, void *arg),
		    void *arg, struct err *err)
{
	char msg[ERR_MSG_MAX];
	struct pgconn_rows one;
	int rc = 0;

	if (!PQsendQuery(conn, sql)) {
		pgconn_error(NULL, conn, msg, sizeof(msg));
		return pgconn_fail(err, pgconn_lost(conn) ? -ENOTCONN : -EIO,
				   what, msg);
	}
	PQsetSingleRowMode(conn);
	/* every result is read, also after a failure, to end the query */
	while ((one.res = PQgetResult(conn))) {
		switch (PQresultStatus(one.res)) {
		case PGRES_SINGLE_TUPLE:
			if (rc == 0)
				row(&one, arg);
			break;
		case PGRES_TUPLES_OK:
		case PGRES_COMMAND_OK:
			break;
		default:
			if (rc == 0) {
				pgconn_error(one.res, conn, msg, sizeof(msg));
				rc = pgconn_fail(err,
						 pgconn_lost(conn) ? -ENOTCONN
								   : -EIO,
						 what, msg);
			}
			break;
		}
		PQclear(one.res);
	}
	return rc;
}

/* PQescapeIdentifier or PQescapeLiteral's text, copied into malloc. */
static char *pgconn_quoted(char *(*quote)(PGconn *, const char *, size_t),
			   PGconn *conn, const char *s)
{
	char *q = quote(conn, s, strlen(s)), *copy;

	if (!q)
		return NULL;
	copy = strdup(q);
	PQfreemem(q);
	return copy;
}

char *pgconn_quote_ident(PGconn *conn, const char *s)
{
	return pgconn_quoted(PQescapeIdentifier, conn, s);
}

char *pgconn_quote_literal(PGconn *conn, const char *s)
{
	return pgconn_quoted(PQescapeLiteral, conn, s);
}

const char *pgconn_host(const PGconn *conn)
{
	const char *h = conn ? PQhost(conn) : NULL;

	return h ? h : "";
}

const char *pgconn_hostaddr(const PGconn *conn)
{
	const char *a = conn ? PQhostaddr(conn) : NULL;

	return a ? a : "";
}

bool pgconn_thread_safe(void)
{
	return PQisthreadsafe() != 0;
}

void pgconn_close(PGconn *conn)
{
	PQfinish(conn);
}

/* ---- cancelling ---------------------------------------------------------- */

struct pgconn_cancel *pgconn_cancel_new(PGconn *conn)
{
	struct pgconn_cancel *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->cancel = PQgetCancel(conn);
	if (!c->cancel) {
		free(c);
		return NULL;
	}
	return c;
}

void pgconn_cancel_send(struct pgconn_cancel *c)
{
	char buf[256];

	if (c)
		PQcancel(c->cancel, buf, sizeof(buf));
}

void pgconn_cancel_free(struct pgconn_cancel *c)
{
	if (!c)
		return;
	PQfreeCancel(c->cancel);
	free(c);
}

/* ---- COPY FROM STDIN ----------------------------------------------------- */

int pgconn_copy_start(PGconn *conn, const char *what, const char *sql,
		      struct err *err)
{
	PGresult *res = PQexec(conn, sql);
	char msg[ERR_MSG_MAX];

	if (PQresultStatus(res) == PGRES_COPY_IN) {
		PQclear(res);
		return 0;
	}
	pgconn_error(res, conn, msg, sizeof(msg));
	PQclear(res);
	return pgconn_fail(err, -EIO, what, msg);
}

int pgconn_copy_put(PGconn *conn, const char *what, const char *buf, size_t len,
		    struct err *err)
{
	char msg[ERR_MSG_MAX];

	if (len <= (size_t)0x7fffffff &&
	    PQputCopyData(conn, buf, (int)len) == 1)
		return 0;
	pgconn_error(NULL, conn, msg, sizeof(msg));
	return pgconn_fail(err, -EIO, what, msg);
}

int pgconn_copy_end(PGconn *conn, const char *what, const char *errmsg,
		    struct err *err)
{
	char msg[ERR_MSG_MAX];
	PGresult *res;
	int rc = 0;

	if (PQputCopyEnd(conn, errmsg) != 1) {
		pgconn_error(NULL, conn, msg, sizeof(msg));
		return pgconn_fail(err, -EIO, what, msg);
	}
	while ((res = PQgetResult(conn))) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && !errmsg &&
		    rc == 0) {
			pgconn_error(res, conn, msg, sizeof(msg));
			rc = pgconn_fail(err, -EIO, what, msg);
		}
		PQclear(res);
	}
	return rc;
}
