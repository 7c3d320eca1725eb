/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgconn.h - the one PostgreSQL access layer: every libpq connection of
 * oltpmark (the loader's jobs, the consistency check, the pgsql driver's
 * workers and monitor) is opened, checked and read through it. It holds
 * what those would otherwise each write their own way: which connection
 * strings we take (one rule), connecting with an application_name that
 * says who we are, the first line of a libpq error, running a statement
 * and checking it, reading one value, and reading oltpmark_meta.
 *
 * pgconn.c holds connecting, connection strings, error lines and
 * oltpmark_meta; pgconn_query.c the statements that give rows or stream
 * COPY data, quoting, cancelling and closing.
 *
 * Nothing here prints; errors come back in struct err, never with a
 * password in them. Functions that take a PGconn are as thread-safe as
 * libpq: one connection per thread.
 */
#ifndef OLTPMARK_PGCONN_H
#define OLTPMARK_PGCONN_H

#include <stdbool.h>
#include <stddef.h>

#include "src/base/err.h"

/*
 * libpq's connection and result, by name only (as libpq-fe.h declares
 * them): the loader and the check hold a PGconn and hand it back here,
 * and only the files of drivers/ the include check allows
 * (tests/include-rules.sh) include libpq-fe.h and call libpq.
 */
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/*
 * Who opens a connection: the server's pg_stat_activity shows it as
 * application_name "oltpmark-<role>", so an operator (or a test) can tell
 * the loader's backends from the benchmark's.
 */
enum pgconn_role {
	PGCONN_LOAD,  /* oltpmark load: "oltpmark-load" */
	PGCONN_CHECK, /* oltpmark check: "oltpmark-check" */
	PGCONN_RUN,   /* oltpmark run, the pgsql driver: "oltpmark-run" */
	PGCONN_ROLE_NR
};

/* The application_name of role ("oltpmark-load" ...). */
const char *pgconn_app_name(enum pgconn_role role);

/*
 * Is conninfo (not NULL, not "") a bare database name? libpq's rule for a dbname that may
 * hold a connection string (PQconnectdbParams with expand_dbname, psql
 * -d): a string with no '=' that does not start with "postgresql://" or
 * "postgres://" is a database name, whatever else it holds.
 */
bool pgconn_is_dbname(const char *conninfo);

/*
 * Check a connection string as every oltpmark command takes it: NULL or ""
 * (the PG* environment), a bare database name ("mydb": dbname=mydb, as
 * psql -d mydb), keyword=value pairs or a URI, the last two as libpq's own
 * parser (PQconninfoParse) takes them. 0, or -EINVAL with err saying it
 * does not parse; the message never quotes the string, since libpq's parse
 * errors quote the text at the fault, which may be a password.
 */
int pgconn_validate(const char *conninfo, struct err *err);

/*
 * Write conninfo without any password into out (always NUL-terminated),
 * as keyword='value' pairs in libpq's order; a bare database name becomes
 * dbname='NAME'. A string that does not validate becomes "(unparsable
 * conninfo)", since we cannot tell where a password in it would be.
 */
void pgconn_redact(const char *conninfo, char *out, size_t out_size);

/* libpq's connect timeout when nobody gave one, in seconds. */
#define PGCONN_CONNECT_TIMEOUT_DEFAULT_S 10

/*
 * The connect timeout of the connections this process opens from now on
 * (a command's --connect-timeout), in seconds, as libpq's
 * connect_timeout takes it (0: wait for ever; libpq waits at least 2 s).
 * Given (>= 0), it wins over a connect_timeout in the conninfo and over
 * PGCONNECT_TIMEOUT; -1, the start value, means not given: then the
 * conninfo's connect_timeout, else PGCONNECT_TIMEOUT, else
 * PGCONN_CONNECT_TIMEOUT_DEFAULT_S. A process-wide setting, like the
 * environment variable it stands beside: a command sets it once, before
 * it opens any connection (not thread-safe against pgconn_connect).
 */
void pgconn_set_connect_timeout(int seconds);

/*
 * The connect_timeout pgconn_connect hands libpq, by the rule of
 * pgconn_set_connect_timeout: given_s (>= 0: given, -1: not) and env
 * (PGCONNECT_TIMEOUT's value, NULL when unset). Returns the value's text
 * (in buf, size bytes) and sets *override: true when it goes after the
 * conninfo, so that it wins over the conninfo's; false when it goes
 * before it, a default the conninfo's may override. NULL when libpq's
 * own rule applies (env set, none given): the conninfo's, else env.
 */
const char *pgconn_timeout_value(int given_s, const char *env, bool *override,
				 char *buf, size_t size);

/*
 * The line of a failed connection into dst (size bytes, always
 * NUL-terminated): "cannot connect to HOST port PORT: REASON" ("to
 * socket directory DIR port PORT" for a Unix-domain socket; "cannot
 * connect: REASON" when host is NULL or ""; without " port PORT" when
 * port is). msg is libpq's PQerrorMessage, whose lines are one per
 * server or address tried: REASON is the last line that reports an
 * attempt ("connection to server ... failed: REASON", libpq 14 on; the
 * same host and port PQhost and PQport give after a failure), else its
 * first line, without the "... failed: " or "could not connect to
 * server: " prefix and a leading severity ("FATAL:  "); "unknown error"
 * when that leaves nothing.
 */
void pgconn_connect_line(char *dst, size_t size, const char *host,
			 const char *port, const char *msg);

/*
 * Connect with conninfo (NULL or "": the PG* environment; a bare database
 * name or a connection string, see pgconn_validate) as role: its
 * application_name overrides one in conninfo; the connect timeout is
 * pgconn_set_connect_timeout's. Server notices go to the debug log
 * (library code never prints). 0 with *conn open (the caller PQfinish()es
 * it), or *conn NULL and -EINVAL (conninfo does not validate: refused
 * before libpq sees it), -ENOMEM, or -ENOTCONN with err holding
 * pgconn_connect_line's line (libpq's message never holds a password).
 */
int pgconn_connect(const char *conninfo, enum pgconn_role role, PGconn **conn,
		   struct err *err);

/*
 * The first line of a libpq or server message src (may be NULL) into dst
 * (size bytes, always NUL-terminated when size > 0), without a leading
 * severity ("ERROR:  ", "FATAL:  ", "PANIC:  ") and trailing blanks. An
 * empty message gives "".
 */
void pgconn_first_line(char *dst, size_t size, const char *src);

/*
 * Why res failed, as one line: the first line of PQresultErrorMessage,
 * else of PQerrorMessage(conn) (res may be NULL: out of memory or a lost
 * connection), else "unknown error".
 */
void pgconn_error(const PGresult *res, const PGconn *conn, char *dst,
		  size_t size);

/*
 * Run sql (one or more statements, no parameters) and check that it
 * succeeded. 0, or -ENOTCONN (connection lost) / -EIO with err saying
 * "<what>: <the server's first line>". err may be NULL.
 */
int pgconn_exec(PGconn *conn, const char *what, const char *sql,
		struct err *err);

/*
 * Run sql, which must return one row of one column, and copy that value
 * (NULL: "") into out, cut to out_size. 0, or -ENOTCONN / -EIO with err
 * set as pgconn_exec does.
 */
int pgconn_value(PGconn *conn, const char *what, const char *sql, char *out,
		 size_t out_size, struct err *err);

/*
 * The row the loader writes into oltpmark_meta (schema/meta.sql), which
 * says what the database holds and whether the load finished.
 */
struct pgconn_meta {
	char status[16];	/* "loading" until the load finished, then
				    "loaded" */
	int warehouses;		/* W loaded */
	int c_load_c_last;	/* C-Load of NURand(255,0,999) for C_LAST */
	long long seed;		/* the loader's --seed */
	char version[32];	/* oltpmark version that loaded it */
	char load_started[40];	/* server's text of the timestamp */
	char load_finished[40]; /* "" while loading */
	char layout[16];	/* "single", "table" or "warehouse"
				   (docs/layout.md); "" from a database
				   loaded before layouts existed */
};

/*
 * Fill meta from n key/value pairs (column names and their text, value
 * NULL for SQL NULL) as oltpmark_meta's row gives them. status,
 * warehouses, c_load_c_last, seed and version are required and checked
 * (status "loading" or "loaded", warehouses >= 1, C-Load 0..255, seed >=
 * 0, version not empty); the timestamps are optional; keys it does not
 * know are ignored, so a newer schema can add columns. 0, or -EINVAL with
 * err naming the key and value.
 */
int pgconn_meta_parse(const char *const *keys, const char *const *values, int n,
		      struct pgconn_meta *meta, struct err *err);

/*
 * Read oltpmark_meta over conn into meta. 0; -ENOENT when the database is
 * not an oltpmark database (no oltpmark_meta table, or no row in it);
 * -EINVAL for more than one row or a bad value; -ENOTCONN / -EIO when the
 * query failed. err says which.
 */
int pgconn_meta_read(PGconn *conn, struct pgconn_meta *meta, struct err *err);

/*
 * Write meta as "key=value" lines, one per field in the order of struct
 * pgconn_meta (the keys are the column names), into out (always
 * NUL-terminated). Returns the length it needed, as snprintf does.
 */
int pgconn_meta_format(const struct pgconn_meta *meta, char *out,
		       size_t out_size);

/*
 * Read oltpmark_meta.layout_map (the JSON of docs/formats.md, which can
 * be long, so it is not in struct pgconn_meta) into *json, malloc'ed
 * (the caller frees it); NULL while a load is under way or in a database
 * loaded before the column existed. 0; -ENOENT as pgconn_meta_read;
 * -ENOTCONN / -EIO / -ENOMEM with err set.
 */
int pgconn_meta_layout_map(PGconn *conn, char **json, struct err *err);

/*
 * Is the connection gone (NULL, or libpq's CONNECTION_BAD)? A failed
 * statement on a lost connection is -ENOTCONN, otherwise -EIO.
 */
bool pgconn_lost(const PGconn *conn);

/* The rows one statement returned (owned: free with pgconn_rows_free). */
struct pgconn_rows;

/*
 * Run sql (one statement) with nparams text parameters $1.. (params[i]
 * NULL: SQL NULL) and check that it succeeded (rows or a command). With
 * rows, *rows holds what it returned (a command: no rows); with rows
 * NULL the result is dropped. 0, or *rows NULL and -ENOTCONN (connection
 * lost) / -EIO / -ENOMEM with err saying "<what>: <the server's first
 * line>" ("<line>" when what is NULL). err may be NULL.
 */
int pgconn_query(PGconn *conn, const char *what, const char *sql, int nparams,
		 const char *const *params, struct pgconn_rows **rows,
		 struct err *err);

/* Rows and columns of rows (NULL: 0). */
int pgconn_rows_count(const struct pgconn_rows *rows);
int pgconn_rows_fields(const struct pgconn_rows *rows);
/*
 * The text of a value, valid until rows is freed: "" for SQL NULL and
 * for a row or column out of range.
 */
const char *pgconn_rows_value(const struct pgconn_rows *rows, int row, int col);
/* Is the value SQL NULL (or out of range)? */
bool pgconn_rows_is_null(const struct pgconn_rows *rows, int row, int col);
/* Free rows (NULL: nothing). */
void pgconn_rows_free(struct pgconn_rows *rows);

/*
 * Run sql and call row(one, arg) for each row as it arrives (libpq's
 * single-row mode: a scan of any size holds one row at a time), one
 * holding that row as its row 0, valid during the call. 0 when the
 * statement succeeded; -ENOTCONN / -EIO with err set as pgconn_query
 * when it failed (row may have been called for rows before the
 * failure; none is passed after it). The connection is ready for the
 * next statement either way.
 */
int pgconn_each_row(PGconn *conn, const char *what, const char *sql,
		    void (*row)(const struct pgconn_rows *one, void *arg),
		    void *arg, struct err *err);

/*
 * s quoted as an SQL identifier ("a""b") or literal ('it''s', E'..'
 * where backslashes need it) for conn's encoding, malloc'ed (the caller
 * frees it); NULL when out of memory or s is not valid in the encoding.
 */
char *pgconn_quote_ident(PGconn *conn, const char *s);
char *pgconn_quote_literal(PGconn *conn, const char *s);

/*
 * The host conn is connected to, as given ("" when unknown; a socket
 * directory for a Unix-domain socket), and the address it resolved to
 * ("" when none: a socket, or not known).
 */
const char *pgconn_host(const PGconn *conn);
const char *pgconn_hostaddr(const PGconn *conn);

/* Can libpq be used from several threads, one connection each? */
bool pgconn_thread_safe(void);

/* Close conn (NULL: nothing). */
void pgconn_close(PGconn *conn);

/*
 * A handle to cancel what conn runs, made by the thread that owns conn
 * and usable from any other (libpq's PGcancel). NULL when out of memory
 * or conn is not connected. pgconn_cancel_send asks the server to cancel
 * the statement running now, best effort (c NULL: nothing);
 * pgconn_cancel_free frees c (NULL: nothing).
 */
struct pgconn_cancel *pgconn_cancel_new(PGconn *conn);
void pgconn_cancel_send(struct pgconn_cancel *c);
void pgconn_cancel_free(struct pgconn_cancel *c);

/*
 * COPY ... FROM STDIN: pgconn_copy_start runs sql, which must start one;
 * pgconn_copy_put sends len bytes of data; pgconn_copy_end ends it,
 * or with errmsg not NULL aborts it (the server then fails the COPY
 * with errmsg, which is not reported again), and reads its result.
 * Each returns 0 or -EIO with err saying "<what>: <libpq's or the
 * server's first line>".
 */
int pgconn_copy_start(PGconn *conn, const char *what, const char *sql,
		      struct err *err);
int pgconn_copy_put(PGconn *conn, const char *what, const char *buf, size_t len,
		    struct err *err);
int pgconn_copy_end(PGconn *conn, const char *what, const char *errmsg,
		    struct err *err);

#endif
