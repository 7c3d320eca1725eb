/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgconn.c - the PostgreSQL access layer (see pgconn.h): connection
 * strings, connecting, error lines, statements and oltpmark_meta.
 *
 * Connection strings go through libpq's own parser (PQconninfoParse), so
 * we accept exactly what libpq will, URIs included, and through
 * PQconnectdbParams with expand_dbname, so a bare database name means
 * what it means to psql -d. The meta row is read by column name into a
 * table of fields, which also drives its key=value form.
 */
#include "drivers/pgconn.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "src/base/log.h"

/* application_name and debug category of each role. */
static const struct {
	const char *app_name;	   /* shown in pg_stat_activity */
	enum log_category log_cat; /* where server notices go */
} pgconn_roles[PGCONN_ROLE_NR] = {
	[PGCONN_LOAD] = {"oltpmark-load", LOG_CAT_LOAD},
	[PGCONN_CHECK] = {"oltpmark-check", LOG_CAT_LOAD},
	[PGCONN_RUN] = {"oltpmark-run", LOG_CAT_DRIVER},
};

const char *pgconn_app_name(enum pgconn_role role)
{
	if ((unsigned)role >= PGCONN_ROLE_NR)
		return "oltpmark";
	return pgconn_roles[role].app_name;
}

/* ---- connection strings ---------------------------------------------- */

bool pgconn_is_dbname(const char *conninfo)
{
	return conninfo && *conninfo && !strchr(conninfo, '=') &&
	       strncmp(conninfo, "postgresql://", 13) != 0 &&
	       strncmp(conninfo, "postgres://", 11) != 0;
}

int pgconn_validate(const char *conninfo, struct err *err)
{
	PQconninfoOption *opts;
	char *msg = NULL;

	if (!conninfo || !*conninfo || pgconn_is_dbname(conninfo))
		return 0;
	opts = PQconninfoParse(conninfo, &msg);
	if (!opts) {
		/* msg may quote the password: say only that it does not parse */
		err_set(err, -EINVAL,
			"connection string does not parse as a database name, "
			"libpq keyword=value pairs or a URI%s",
			msg ? "" : " (out of memory)");
		PQfreemem(msg);
		return -EINVAL;
	}
	PQconninfoFree(opts);
	return 0;
}

/* Append 'v' quoted as libpq's keyword=value syntax wants it. */
static size_t pgconn_append_value(char *out, size_t pos, size_t size,
				  const char *v)
{
	if (pos + 1 < size)
		out[pos++] = '\'';
	for (; *v && pos + 3 < size; v++) {
		if (*v == '\'' || *v == '\\')
			out[pos++] = '\\';
		out[pos++] = *v;
	}
	if (pos + 1 < size)
		out[pos++] = '\'';
	out[pos] = '\0';
	return pos;
}

void pgconn_redact(const char *conninfo, char *out, size_t out_size)
{
	PQconninfoOption *opts, *o;
	size_t pos = 0;

	if (out_size == 0)
		return;
	out[0] = '\0';
	if (!conninfo || !*conninfo)
		return;
	if (pgconn_is_dbname(conninfo)) {
		snprintf(out, out_size, "dbname=");
		pgconn_append_value(out, strlen(out), out_size, conninfo);
		return;
	}
	opts = PQconninfoParse(conninfo, NULL);
	if (!opts) {
		snprintf(out, out_size, "(unparsable conninfo)");
		return;
	}
	for (o = opts; o->keyword; o++) {
		int n;

		if (!o->val || strcmp(o->keyword, "password") == 0)
			continue;
		n = snprintf(out + pos, out_size - pos, "%s%s=", pos ? " " : "",
			     o->keyword);
		if (n < 0 || (size_t)n >= out_size - pos)
			break;
		pos += (size_t)n;
		pos = pgconn_append_value(out, pos, out_size, o->val);
	}
	PQconninfoFree(opts);
}

/* ---- connecting ---------------------------------------------------------- */

/*
 * libpq hands server notices (and a FATAL that arrives while we are not
 * waiting for a result) to a notice processor whose default prints to
 * stderr; library code never prints, so they go to the debug log.
 */
static void pgconn_notice(void *arg, const char *message)
{
	const enum pgconn_role *role = arg;
	char line[ERR_MSG_MAX];

	pgconn_first_line(line, sizeof(line), message);
	log_debug(pgconn_roles[*role].log_cat, "%s: server notice: %s",
		  pgconn_roles[*role].app_name, line);
}

/* pgconn_set_connect_timeout's value: -1, none given. */
static int pgconn_timeout_given_s = -1;

void pgconn_set_connect_timeout(int seconds)
{
	pgconn_timeout_given_s = seconds < 0 ? -1 : seconds;
}

const char *pgconn_timeout_value(int given_s, const char *env, bool *override,
				 char *buf, size_t size)
{
	*override = given_s >= 0;
	if (given_s < 0 && env && *env)
		return NULL; /* libpq reads it, unless the conninfo says */
	snprintf(buf, size, "%d",
		 given_s >= 0 ? given_s : PGCONN_CONNECT_TIMEOUT_DEFAULT_S);
	return buf;
}

/*
 * The port conn tried: PQport, which is "" when neither the conninfo nor
 * PGPORT gave one, and then libpq's compiled-in default (5432) applies.
 */
static const char *pgconn_port(const PGconn *conn, char *buf, size_t size)
{
	const char *port = PQport(conn);
	PQconninfoOption *defs, *o;

	if (port && *port)
		return port;
	buf[0] = '\0';
	defs = PQconndefaults();
	for (o = defs; o && o->keyword; o++)
		if (strcmp(o->keyword, "port") == 0 && o->compiled)
			snprintf(buf, size, "%s", o->compiled);
	PQconninfoFree(defs);
	return buf;
}

int pgconn_connect(const char *conninfo, enum pgconn_role role, PGconn **connp,
		   struct err *err)
{
	/* the notice processor's argument must outlive the connection */
	static const enum pgconn_role roles[PGCONN_ROLE_NR] = {
		PGCONN_LOAD, PGCONN_CHECK, PGCONN_RUN};
	/*
	 * conninfo is expanded in place of dbname: it overrides what comes
	 * before it (connect_timeout as a default) and what comes after it
	 * overrides it (application_name; connect_timeout when given). A
	 * NULL value is skipped, so libpq's PGCONNECT_TIMEOUT applies.
	 */
	const char *const keys[] = {"connect_timeout", "dbname",
				    "application_name", "connect_timeout",
				    NULL};
	const char *vals[5] = {NULL, conninfo ? conninfo : "", NULL, NULL,
			       NULL};
	char timeout[16], port[16], line[ERR_MSG_MAX];
	const char *tv;
	bool override;
	PGconn *conn;

	*connp = NULL;
	if ((unsigned)role >= PGCONN_ROLE_NR)
		return err_set(err, -EINVAL, "cannot connect: bad role %d",
			       (int)role);
	if (pgconn_validate(conninfo, NULL) < 0)
		return err_set(err, -EINVAL,
			       "cannot connect: the connection string does "
			       "not parse (not shown: it may hold a password)");
	tv = pgconn_timeout_value(pgconn_timeout_given_s,
				  getenv("PGCONNECT_TIMEOUT"), &override,
				  timeout, sizeof(timeout));
	vals[override ? 3 : 0] = tv;
	vals[2] = pgconn_roles[role].app_name;
	conn = PQconnectdbParams(keys, vals, 1);
	if (!conn)
		return err_set(err, -ENOMEM, "cannot connect: out of memory");
	if (PQstatus(conn) != CONNECTION_OK) {
		/* after a failure, PQhost and PQport name the last tried */
		pgconn_connect_line(line, sizeof(line), PQhost(conn),
				    pgconn_port(conn, port, sizeof(port)),
				    PQerrorMessage(conn));
		PQfinish(conn);
		return err_set(err, -ENOTCONN, "%s", line);
	}
	PQsetNoticeProcessor(conn, pgconn_notice, (void *)&roles[role]);
	*connp = conn;
	return 0;
}

/* ---- errors ---------------------------------------------------------------- */

void pgconn_first_line(char *dst, size_t size, const char *src)
{
	static const char *const severities[] = {
		"ERROR:  ", "FATAL:  ", "PANIC:  "};
	size_t i, n;

	if (!size)
		return;
	if (!src)
		src = "";
	for (i = 0; i < sizeof(severities) / sizeof(severities[0]); i++)
		if (strncmp(src, severities[i], strlen(severities[i])) == 0) {
			src += strlen(severities[i]);
			break;
		}
	n = strcspn(src, "\r\n");
	while (n > 0 && (src[n - 1] == ' ' || src[n - 1] == '\t'))
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void pgconn_error(const PGresult *res, const PGconn *conn, char *dst,
		  size_t size)
{
	const char *msg = res ? PQresultErrorMessage(res) : NULL;

	if (!msg || !*msg)
		msg = conn ? PQerrorMessage(conn) : NULL;
	pgconn_first_line(dst, size, msg);
	if (size && !dst[0])
		snprintf(dst, size, "unknown error");
}

void pgconn_connect_line(char *dst, size_t size, const char *host,
			 const char *port, const char *msg)
{
	static const char attempt[] = "connection to server ";
	static const char old_attempt[] = "could not connect to server: ";
	char first[ERR_MSG_MAX], reason[ERR_MSG_MAX];
	const char *line = msg ? msg : "", *p, *r;

	if (!size)
		return;
	/* libpq 14 on: one line per attempt, the last is PQhost's */
	for (p = line; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (strncmp(p, attempt, sizeof(attempt) - 1) == 0)
			line = p;
	}
	pgconn_first_line(first, sizeof(first), line);
	r = first;
	if (strncmp(first, attempt, sizeof(attempt) - 1) == 0 &&
	    strstr(first, " failed:"))
		r = strstr(first, " failed:") + strlen(" failed:");
	else if (strncmp(first, old_attempt, sizeof(old_attempt) - 1) == 0)
		r = first + sizeof(old_attempt) - 1;
	r += strspn(r, " ");
	pgconn_first_line(reason, sizeof(reason), r); /* "FATAL:  " */
	if (!reason[0])
		snprintf(reason, sizeof(reason), "unknown error");
	if (!host || !*host)
		snprintf(dst, size, "cannot connect: %s", reason);
	else
		snprintf(dst, size, "cannot connect to %s%s%s%s: %s",
			 host[0] == '/' || host[0] == '@' ? "socket directory "
							  : "",
			 host, port && *port ? " port " : "",
			 port && *port ? port : "", reason);
}

/* The errno code for a failed statement: was the connection lost? */
static int pgconn_failure_code(const PGconn *conn)
{
	return PQstatus(conn) == CONNECTION_BAD ? -ENOTCONN : -EIO;
}

/* ---- statements ------------------------------------------------------------ */

int pgconn_exec(PGconn *conn, const char *what, const char *sql,
		struct err *err)
{
	PGresult *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);
	char msg[ERR_MSG_MAX];

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ||
	    st == PGRES_EMPTY_QUERY) {
		PQclear(res);
		return 0;
	}
	pgconn_error(res, conn, msg, sizeof(msg));
	PQclear(res);
	return err_set(err, pgconn_failure_code(conn), "%s: %s", what, msg);
}

int pgconn_value(PGconn *conn, const char *what, const char *sql, char *out,
		 size_t out_size, struct err *err)
{
	PGresult *res = PQexec(conn, sql);
	char msg[ERR_MSG_MAX];

	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
	    PQnfields(res) != 1) {
		int rc = -EIO;

		if (PQresultStatus(res) == PGRES_TUPLES_OK) {
			snprintf(msg, sizeof(msg),
				 "expected one value, got %d rows of %d "
				 "columns",
				 PQntuples(res), PQnfields(res));
		} else {
			pgconn_error(res, conn, msg, sizeof(msg));
			rc = pgconn_failure_code(conn);
		}
		PQclear(res);
		return err_set(err, rc, "%s: %s", what, msg);
	}
	if (out_size)
		snprintf(out, out_size, "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

/* ---- oltpmark_meta ------------------------------------------------------- */

/* How a field of oltpmark_meta is stored in struct pgconn_meta. */
enum meta_kind {
	META_TEXT, /* char[size], cut never: too long is an error */
	META_INT,  /* int in [min, max] */
	META_LL,   /* long long in [min, max] */
};

/* One column of oltpmark_meta. */
struct meta_field {
	const char *key;     /* column name */
	enum meta_kind kind; /* how it is stored */
	size_t offset;	     /* where in struct pgconn_meta */
	size_t size;	     /* META_TEXT: the buffer's size */
	bool required;	     /* must be present, not NULL, not empty */
	long long min, max;  /* META_INT, META_LL: the range */
};

#define META_TEXT_FIELD(name, req)                                         \
	{                                                                  \
#name, META_TEXT, offsetof(struct pgconn_meta, name),      \
			sizeof(((struct pgconn_meta *)0)->name), req, 0, 0 \
	}

/* In the order of struct pgconn_meta, which is the order of meta.sql. */
static const struct meta_field meta_fields[] = {
	META_TEXT_FIELD(status, true),
	{"warehouses", META_INT, offsetof(struct pgconn_meta, warehouses), 0,
	 true, 1, INT_MAX},
	/* C-Load of C_LAST is drawn in [0, 255] (clause 2.1.6.1) */
	{"c_load_c_last", META_INT, offsetof(struct pgconn_meta, c_load_c_last),
	 0, true, 0, 255},
	{"seed", META_LL, offsetof(struct pgconn_meta, seed), 0, true, 0,
	 LLONG_MAX},
	META_TEXT_FIELD(version, true),
	META_TEXT_FIELD(load_started, false),
	META_TEXT_FIELD(load_finished, false),
	META_TEXT_FIELD(layout, false),
};

#define META_NFIELDS ((int)(sizeof(meta_fields) / sizeof(meta_fields[0])))

/* Store one value into its field. 0 or -EINVAL with err set. */
static int meta_store(const struct meta_field *f, const char *value,
		      struct pgconn_meta *meta, struct err *err)
{
	char *dst = (char *)meta + f->offset;
	long long v;
	char *end;

	if (f->kind == META_TEXT) {
		if (strlen(value) >= f->size)
			return err_set(err, -EINVAL,
				       "oltpmark_meta: %s is too long (%zu "
				       "characters, at most %zu)",
				       f->key, strlen(value), f->size - 1);
		memcpy(dst, value, strlen(value) + 1);
		return 0;
	}
	errno = 0;
	v = strtoll(value, &end, 10);
	if (errno || end == value || *end || v < f->min || v > f->max)
		return err_set(err, -EINVAL,
			       "oltpmark_meta: %s is '%s', not an integer in "
			       "%lld..%lld",
			       f->key, value, f->min, f->max);
	if (f->kind == META_INT)
		*(int *)(void *)dst = (int)v;
	else
		*(long long *)(void *)dst = v;
	return 0;
}

int pgconn_meta_parse(const char *const *keys, const char *const *values, int n,
		      struct pgconn_meta *meta, struct err *err)
{
	bool seen[META_NFIELDS] = {false};
	int i, k, rc;

	memset(meta, 0, sizeof(*meta));
	for (i = 0; i < n; i++) {
		for (k = 0; k < META_NFIELDS; k++)
			if (keys[i] && strcmp(keys[i], meta_fields[k].key) == 0)
				break;
		if (k == META_NFIELDS)
			continue; /* a column of a newer schema */
		if (seen[k])
			return err_set(err, -EINVAL,
				       "oltpmark_meta: %s given twice",
				       meta_fields[k].key);
		seen[k] = true;
		if (!values[i] || !*values[i]) {
			if (meta_fields[k].required)
				return err_set(err, -EINVAL,
					       "oltpmark_meta: %s is empty",
					       meta_fields[k].key);
			continue;
		}
		rc = meta_store(&meta_fields[k], values[i], meta, err);
		if (rc < 0)
			return rc;
	}
	for (k = 0; k < META_NFIELDS; k++)
		if (meta_fields[k].required && !seen[k])
			return err_set(err, -EINVAL,
				       "oltpmark_meta: no column %s",
				       meta_fields[k].key);
	if (strcmp(meta->status, "loading") != 0 &&
	    strcmp(meta->status, "loaded") != 0)
		return err_set(err, -EINVAL,
			       "oltpmark_meta: status is '%s', not 'loading' "
			       "or 'loaded'",
			       meta->status);
	return 0;
}

/* 0 when oltpmark_meta exists, -ENOENT when not, or the query's error. */
static int meta_table_exists(PGconn *conn, struct err *err)
{
	char found[8];
	int rc;

	/* to_regclass first: a missing table is an answer, not an error */
	rc = pgconn_value(conn, "looking for oltpmark_meta",
			  "SELECT to_regclass('oltpmark_meta') IS NOT NULL",
			  found, sizeof(found), err);
	if (rc < 0)
		return rc;
	if (strcmp(found, "t") != 0)
		return err_set(err, -ENOENT,
			       "not an oltpmark database (no oltpmark_meta "
			       "table)");
	return 0;
}

int pgconn_meta_read(PGconn *conn, struct pgconn_meta *meta, struct err *err)
{
	const char *keys[16], *values[16];
	PGresult *res;
	int i, n, rc;

	memset(meta, 0, sizeof(*meta));
	rc = meta_table_exists(conn, err);
	if (rc < 0)
		return rc;
	res = PQexec(conn, "SELECT * FROM oltpmark_meta LIMIT 2");
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		char msg[ERR_MSG_MAX];

		pgconn_error(res, conn, msg, sizeof(msg));
		PQclear(res);
		return err_set(err, pgconn_failure_code(conn),
			       "reading oltpmark_meta: %s", msg);
	}
	if (PQntuples(res) != 1) {
		n = PQntuples(res);
		PQclear(res);
		if (n == 0)
			return err_set(err, -ENOENT,
				       "not an oltpmark database "
				       "(oltpmark_meta has no row)");
		return err_set(err, -EINVAL,
			       "oltpmark_meta has more than one row");
	}
	n = PQnfields(res);
	if (n > (int)(sizeof(keys) / sizeof(keys[0])))
		n = (int)(sizeof(keys) / sizeof(keys[0]));
	for (i = 0; i < n; i++) {
		keys[i] = PQfname(res, i);
		values[i] =
			PQgetisnull(res, 0, i) ? NULL : PQgetvalue(res, 0, i);
	}
	rc = pgconn_meta_parse(keys, values, n, meta, err);
	PQclear(res);
	return rc;
}

int pgconn_meta_format(const struct pgconn_meta *meta, char *out,
		       size_t out_size)
{
	size_t pos = 0;
	int k;

	if (out_size)
		out[0] = '\0';
	for (k = 0; k < META_NFIELDS; k++) {
		const struct meta_field *f = &meta_fields[k];
		const char *src = (const char *)meta + f->offset;
		size_t room = pos < out_size ? out_size - pos : 0;
		char *dst = room ? out + pos : NULL;
		int len;

		switch (f->kind) {
		case META_TEXT:
			len = snprintf(dst, room, "%s=%s\n", f->key, src);
			break;
		case META_INT:
			len = snprintf(dst, room, "%s=%d\n", f->key,
				       *(const int *)(const void *)src);
			break;
		default:
			len = snprintf(dst, room, "%s=%lld\n", f->key,
				       *(const long long *)(const void *)src);
			break;
		}
		if (len < 0)
			return len;
		pos += (size_t)len;
	}
	return (int)pos;
}

int pgconn_meta_layout_map(PGconn *conn, char **json, struct err *err)
{
	char msg[ERR_MSG_MAX];
	PGresult *res;
	int rc;

	*json = NULL;
	rc = meta_table_exists(conn, err);
	if (rc < 0)
		return rc;
	/* through to_jsonb(): an older table without the column gives NULL */
	res = PQexec(conn, "SELECT to_jsonb(m) ->> 'layout_map' "
			   "FROM oltpmark_meta m LIMIT 2");
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		pgconn_error(res, conn, msg, sizeof(msg));
		PQclear(res);
		return err_set(err, pgconn_failure_code(conn),
			       "reading oltpmark_meta: %s", msg);
	}
	if (PQntuples(res) != 1)
		rc = err_set(err, PQntuples(res) ? -EINVAL : -ENOENT,
			     PQntuples(res) ? "oltpmark_meta has more than one "
					      "row"
					    : "not an oltpmark database "
					      "(oltpmark_meta has no row)");
	else if (!PQgetisnull(res, 0, 0) &&
		 !(*json = strdup(PQgetvalue(res, 0, 0))))
		rc = err_set(err, -ENOMEM, "out of memory");
	PQclear(res);
	return rc;
}
