/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql_internal.h - what the files of the PostgreSQL driver share
 * and nothing else includes: the connection, the two transaction modes,
 * text parameters written by hand (no printf per transaction), pipelined
 * batches of statements, and the error classification into enum
 * driver_outcome. pgsql.c holds the ops table and connections;
 * pgsql_batch.c the parameters, the classification and the batches;
 * pgsql_route.c the routes; pgsql_proc.c and pgsql_sql.c each run the
 * five transactions one way. Calls go one way: pgsql.c and the modes
 * call pgsql_route.c and pgsql_batch.c, pgsql_route.c calls
 * pgsql_batch.c, and pgsql_batch.c calls none of them. Connecting, error
 * lines and oltpmark_meta are the access layer's (drivers/pgconn.h);
 * retries are the engine's.
 */
#ifndef OLTPMARK_PGSQL_INTERNAL_H
#define OLTPMARK_PGSQL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "drivers/driver.h"
#include "drivers/pgconn.h"

/* Parameters of the statement with the most (sql-mode order lines). */
#define PGSQL_MAX_PARAMS 10
/*
 * Text of those parameters: at most 15 lines x 5 arrays x 21 characters
 * plus a few integers, so 2 KiB never fills; overflow is still checked.
 */
#define PGSQL_PARAM_BUF 2048
/* Statements in one pipelined batch: Delivery sends 2 per district. */
#define PGSQL_BATCH_MAX 24
/* Statements of one mode: one bit each in driver_conn.prepared. */
#define PGSQL_MAX_STMTS 64

/*
 * One row of oltpmark_routes (pgsql_route.c): the warehouses whose
 * procedure-mode calls go to schema home, or to remote when they reach
 * a warehouse outside the range. Names are quoted identifiers.
 */
struct pgsql_route {
	int w_first, w_last; /* inclusive */
	char home[136];	     /* quote_ident of a name (63 bytes doubled) */
	char remote[136];
	uint32_t prepared; /* bit 2 * stmt + remote: prepared this session */
};

/* The session's routes; n == 0: every call goes to the tables' schema. */
struct pgsql_routes {
	bool loaded;	       /* read (or found absent) in this session */
	int n;		       /* entries in r */
	struct pgsql_route *r; /* by w_first (owned) */
};

/* One open connection: the driver_conn of drivers/driver.h. */
struct driver_conn {
	PGconn *pg;		       /* the libpq connection (owned) */
	const struct pgsql_mode *mode; /* how transactions run */
	enum driver_tx_mode tx_mode;   /* procedure or sql */
	uint64_t prepared;	       /* bit i: mode->stmts[i] is prepared in
					  this session */
	bool broken;		       /* unusable, though libpq may not know
					  yet: the next attempt reports it lost */
	struct pgsql_routes routes;    /* procedure mode's routes */
};

/* A statement to prepare: its name and text. */
struct pgsql_stmt {
	const char *name; /* prepared statement name */
	const char *sql;  /* its text, parameters typed by casts */
};

/* One way of running the transactions (enum driver_tx_mode). */
struct pgsql_mode {
	const char *name;		/* "procedure", "sql" */
	const struct pgsql_stmt *stmts; /* prepared on first use in a
					   session, indexed by the mode's enum */
	int nr_stmts;			/* entries in stmts */
	/*
	 * Run the transaction once. Leaves the session outside any
	 * transaction block unless the result is DRIVER_LOST. Fills out's
	 * o_id, delivered, skipped, low_stock, and on DRIVER_RETRY and
	 * DRIVER_ERROR its sqlstate and message.
	 */
	enum driver_outcome (*attempt)(struct driver_conn *conn,
				       const struct txn_input *in,
				       struct txn_output *out);
};

extern const struct pgsql_mode pgsql_mode_procedure; /* pgsql_proc.c */
extern const struct pgsql_mode pgsql_mode_sql;	     /* pgsql_sql.c */

/*
 * Text parameters for PQsendQueryPrepared, written into one buffer. A
 * value that does not fit sets overflow; the send then fails cleanly.
 */
struct pgsql_params {
	int n;				      /* parameters set so far */
	bool overflow;			      /* buf was too small */
	const char *values[PGSQL_MAX_PARAMS]; /* text, NULL = SQL NULL */
	char *end;			      /* first free byte of buf */
	char buf[PGSQL_PARAM_BUF];	      /* the values' text */
};

/* Start an empty parameter list. */
void pgsql_params_reset(struct pgsql_params *p);
/* Append an integer, a string (copied), NULL, or cents as "D.CC". */
void pgsql_param_int(struct pgsql_params *p, int v);
void pgsql_param_text(struct pgsql_params *p, const char *s);
void pgsql_param_null(struct pgsql_params *p);
void pgsql_param_cents(struct pgsql_params *p, int64_t cents);
/* Append an array literal "{1,2,3}" of n integers or n amounts in cents. */
void pgsql_param_int_array(struct pgsql_params *p, const int *v, int n);
void pgsql_param_cents_array(struct pgsql_params *p, const int64_t *v, int n);

/* A column as an int (NULL: 0). The text protocol sends "123". */
int pgsql_int(const PGresult *res, int row, int col);
/*
 * A numeric column scaled by 10^scale as an integer, exactly: "12.34" at
 * scale 2 is 1234, "0.0825" at scale 4 is 825. Money never becomes a
 * double. NULL: 0.
 */
int64_t pgsql_fixed(const PGresult *res, int row, int col, int scale);

/*
 * A pipelined batch (libpq pipeline mode): statements are sent back to
 * back and their results read after one Sync, so a batch costs one round
 * trip however many statements it holds. A statement not yet prepared in
 * this session is prepared in the same batch, just before its first
 * execution; if that fails (say, a function is missing), the batch fails
 * with the server's error. Outside a batch the connection is in normal
 * mode. Use: batch_start, batch_send..., batch_run, read res[],
 * batch_clear.
 */
struct pgsql_batch {
	int n;		  /* statements executed: results in res[] */
	int nq;		  /* pipeline entries: executions and
					   preparations */
	bool send_failed; /* a send failed; run reports it */
	short entry[2 * PGSQL_BATCH_MAX]; /* per pipeline entry: >= 0 the res[]
					     slot of an execution; < 0 the
					     preparation of stmts[-1 - entry] */
	PGresult *res[PGSQL_BATCH_MAX];	  /* one result per execution */
};

/* Enter pipeline mode. */
void pgsql_batch_start(struct driver_conn *conn, struct pgsql_batch *b);
/*
 * Queue an execution of the mode's statement stmt (an index into
 * conn->mode->stmts) with p's values, preceded by its preparation when
 * the session does not have it yet.
 */
void pgsql_batch_send(struct driver_conn *conn, struct pgsql_batch *b, int stmt,
		      const struct pgsql_params *p);
/*
 * Sync, collect every result into b->res[] and leave pipeline mode.
 * DRIVER_DONE when every statement succeeded; otherwise the outcome of
 * the first failure, with out's sqlstate and message set (statements
 * after a failure are skipped by the server). On DRIVER_LOST the
 * connection is left as it is, for PQreset. A connection that breaks
 * after every statement succeeded gives DRIVER_DONE and conn->broken.
 */
enum driver_outcome pgsql_batch_run(struct driver_conn *conn,
				    struct pgsql_batch *b,
				    struct txn_output *out);
/* Free the results. Safe to call twice. */
void pgsql_batch_clear(struct pgsql_batch *b);

/*
 * Classify a failed result (res may be NULL): set out->sqlstate and
 * out->message (first line), and return DRIVER_LOST when the connection
 * is bad, DRIVER_RETRY for 40001 and 40P01, DRIVER_ERROR otherwise.
 */
enum driver_outcome pgsql_fail_result(struct driver_conn *conn,
				      const PGresult *res,
				      struct txn_output *out);

/* Set out's message to "connection lost: <libpq's first line>". */
void pgsql_fail_lost(struct driver_conn *conn, struct txn_output *out);

/*
 * A failure found by the driver rather than reported by the server (a
 * row that must exist is missing): set out->sqlstate and a formatted
 * message and return DRIVER_ERROR.
 */
enum driver_outcome pgsql_fail(struct txn_output *out, const char *sqlstate,
			       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Read oltpmark_routes into conn->routes once per connection; a
 * database without it has no routes. DRIVER_DONE, or the failure with
 * out's sqlstate and message set.
 */
enum driver_outcome pgsql_routes_load(struct driver_conn *conn,
				      struct txn_output *out);
/* The index of the route serving warehouse w_id, or -1 when none does. */
int pgsql_route_find(const struct driver_conn *conn, int w_id);
/* A new session has none of the routes' statements prepared. */
void pgsql_routes_unprepare(struct driver_conn *conn);
/* Free the routes; they are read again on next use. */
void pgsql_routes_free(struct driver_conn *conn);

#endif
