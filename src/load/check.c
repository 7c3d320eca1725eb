/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.c - run the consistency conditions of schema/checks.sql.
 *
 * Each query is a few aggregates joined by key over whole tables, so at
 * W=10 one takes from milliseconds to a couple of seconds. They run
 * independently on `jobs` connections, each thread taking the next
 * condition from a shared index, heaviest first (the conditions that join
 * ORDER-LINE). Rows come back in single-row mode: a badly broken database
 * may violate a condition millions of times, and we only count the rows
 * and keep the first few.
 */
#include "src/load/check.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgconn.h"
#include "src/base/clock.h"
#include "src/load/schema_sql.h"

/* Session settings of every check connection. */
static const char session_sql[] =
	"SET client_min_messages = warning;"
	"SET statement_timeout = 0;"
	/* Hash aggregates over ORDER-LINE stay in memory. */
	"SET work_mem = '256MB';"
	/* The jobs already share the cores; no extra workers. */
	"SET max_parallel_workers_per_gather = 0;"
	/* Each query runs once: compiling it would cost more than it saves. */
	"SET jit = off;";

/* Heavier conditions first, so the longest query starts at once. */
static const int heavy_first[] = {10, 12, 7, 6, 4, 5, 11, 2, 3, 9, 8, 1};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * Whether the line from p to eol starts a condition, "-- C<n>:": then
 * n into *num and the offset of what follows the colon into *off. Read
 * by hand within the line: sscanf's blank and %d would skip a newline,
 * taking a line "--" followed by " C2: ..." for a condition whose
 * description ran on into the next lines.
 */
static bool cond_line(const char *p, const char *eol, int *num, int *off)
{
	const char *s = p + 4;
	long v = 0;

	if (eol - p < 6 || strncmp(p, "-- C", 4) != 0 ||
	    !isdigit((unsigned char)*s))
		return false;
	for (; s < eol && isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return false;
	}
	if (s == eol || *s != ':')
		return false;
	*num = (int)v;
	*off = (int)(s + 1 - p);
	return true;
}

int check_parse(const char *text, struct check_cond *conds, struct err *err)
{
	const char *p = text, *body = NULL;
	char desc[sizeof(conds[0].desc)];
	int n = 0;

	for (;;) {
		const char *eol = p + strcspn(p, "\n");
		int num = 0, off = 0;

		if (*p == '\0' || cond_line(p, eol, &num, &off)) {
			/* The previous condition's query ends here. */
			if (n > 0) {
				struct check_cond *c = &conds[n - 1];
				char *sql = strndup(body, (size_t)(p - body));

				if (!sql) {
					check_conds_free(conds, n);
					return err_set(err, -ENOMEM,
						       "out of memory");
				}
				c->sql = sql;
				if (trim(sql)[0] == '\0') {
					check_conds_free(conds, n);
					return err_set(
						err, -EINVAL,
						"checks.sql: C%d has no query",
						c->number);
				}
			}
			if (*p == '\0')
				break;
			if (n == CHECK_MAX) {
				check_conds_free(conds, n);
				return err_set(
					err, -EINVAL,
					"checks.sql: more than %d conditions",
					CHECK_MAX);
			}
			conds[n].number = num;
			conds[n].sql = NULL;
			snprintf(desc, sizeof(desc), "%.*s",
				 (int)(eol - p - off), p + off);
			snprintf(conds[n].desc, sizeof(conds[n].desc), "%s",
				 trim(desc));
			n++;
			body = *eol ? eol + 1 : eol;
		}
		p = *eol ? eol + 1 : eol;
	}
	return n;
}

void check_conds_free(struct check_cond *conds, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(conds[i].sql);
		conds[i].sql = NULL;
	}
}

/* What the check threads share. */
struct checker {
	const struct check_opts *opts; /* connection */
	struct check_cond *conds;      /* the conditions */
	struct check_outcome *out;     /* their results, same index */
	int order[CHECK_MAX];	       /* indexes into conds, run order */
	int norder;		       /* entries in order */
	int next;		       /* next entry of order to run */
	pthread_mutex_t mu;	       /* guards next, rc, err */
	int rc;			       /* first connection failure */
	struct err err;		       /* and its message */
};

/* Append row r of rows as "(v1,v2,...)" to buf. */
static void append_row(char *buf, size_t size, const struct pgconn_rows *rows,
		       int r)
{
	size_t pos = strlen(buf);
	int f;

	pos += (size_t)snprintf(buf + pos, pos < size ? size - pos : 0, "%s(",
				pos ? ", " : "");
	for (f = 0; f < pgconn_rows_fields(rows) && pos < size; f++)
		pos += (size_t)snprintf(
			buf + pos, size - pos, "%s%s", f ? "," : "",
			pgconn_rows_is_null(rows, r, f)
				? "NULL"
				: pgconn_rows_value(rows, r, f));
	if (pos < size)
		snprintf(buf + pos, size - pos, ")");
}

/* A row that breaks a condition: count it, keep the first few. */
static void violation(const struct pgconn_rows *one, void *arg)
{
	struct check_outcome *o = arg;

	if (o->rows < CHECK_FIRST_ROWS)
		append_row(o->first, sizeof(o->first), one, 0);
	o->rows++;
}

static void run_condition(PGconn *conn, const struct check_cond *c,
			  struct check_outcome *o)
{
	int64_t t0 = clock_mono_us();
	struct err why = {""};
	int rc;

	o->error[0] = '\0';
	rc = pgconn_each_row(conn, NULL, c->sql, violation, o, &why);
	o->seconds = (double)(clock_mono_us() - t0) / 1e6;
	if (rc < 0) {
		/* the outcome keeps the first line's start: cut on purpose */
		snprintf(o->error, sizeof(o->error), "%.*s",
			 (int)sizeof(o->error) - 1, why.msg);
		o->status = CHECK_ERROR;
	} else {
		o->status = o->rows ? CHECK_FAIL : CHECK_PASS;
	}
}

static void *check_thread(void *arg)
{
	struct checker *ck = arg;
	struct err err = {""};
	PGconn *conn;
	int rc;

	rc = pgconn_connect(ck->opts->conninfo, PGCONN_CHECK, &conn, &err);
	if (rc == 0) {
		rc = pgconn_exec(conn, "session settings", session_sql, &err);
		if (rc < 0)
			pgconn_close(conn);
	}
	if (rc < 0) {
		pthread_mutex_lock(&ck->mu);
		if (ck->rc == 0) {
			ck->rc = rc;
			ck->err = err;
		}
		pthread_mutex_unlock(&ck->mu);
		return NULL;
	}
	for (;;) {
		int i;

		pthread_mutex_lock(&ck->mu);
		i = ck->next < ck->norder ? ck->order[ck->next++] : -1;
		pthread_mutex_unlock(&ck->mu);
		if (i < 0)
			break;
		run_condition(conn, &ck->conds[i], &ck->out[i]);
	}
	pgconn_close(conn);
	return NULL;
}

/* Refuse a database that oltpmark did not finish loading. */
static int check_meta(PGconn *conn, struct err *err)
{
	struct pgconn_meta meta;
	struct err why = {""};
	int rc;

	rc = pgconn_meta_read(conn, &meta, &why);
	if (rc == -ENOENT)
		return err_set(err, rc, "%s: load it with oltpmark load",
			       why.msg);
	if (rc < 0)
		return err_set(err, rc, "%s", why.msg);
	if (strcmp(meta.status, "loaded") != 0)
		return err_set(err, -EBUSY,
			       "the load of this database did not finish "
			       "(oltpmark_meta says '%s'): reload it with "
			       "oltpmark load --drop",
			       meta.status);
	return 0;
}

int check_read_meta(const char *conninfo, struct pgconn_meta *meta,
		    char **layout_map, struct err *err)
{
	PGconn *conn;
	int rc;

	if (layout_map)
		*layout_map = NULL;
	rc = pgconn_connect(conninfo, PGCONN_CHECK, &conn, err);
	if (rc < 0)
		return rc;
	rc = pgconn_meta_read(conn, meta, err);
	if (rc == 0 && layout_map)
		rc = pgconn_meta_layout_map(conn, layout_map, err);
	pgconn_close(conn);
	return rc;
}

int check_run(const struct check_opts *opts, struct check_outcome *out,
	      struct err *err)
{
	struct check_cond conds[CHECK_MAX];
	struct checker ck = {.opts = opts, .conds = conds, .out = out};
	pthread_t threads[16];
	char ran[16];
	int n, i, k, nthreads, started = 0, rc;
	bool deliveries;
	PGconn *conn;

	rc = pgconn_connect(opts->conninfo, PGCONN_CHECK, &conn, err);
	if (rc < 0)
		return rc;
	rc = check_meta(conn, err);
	if (rc == 0)
		rc = pgconn_value(conn, "oltpmark_deliveries_ran()",
				  "SELECT oltpmark_deliveries_ran()", ran,
				  sizeof(ran), err);
	pgconn_close(conn);
	if (rc < 0)
		return rc;
	deliveries = strcmp(ran, "t") == 0;

	n = check_parse(schema_checks_sql, conds, err);
	if (n < 0)
		return n;
	if (n == 0)
		return err_set(err, -EINVAL,
			       "checks.sql holds no conditions (this oltpmark "
			       "was built without them)");
	for (i = 0; i < n; i++) {
		struct check_outcome *o = &out[i];

		memset(o, 0, sizeof(*o));
		o->number = conds[i].number;
		snprintf(o->desc, sizeof(o->desc), "%s", conds[i].desc);
		if (opts->quick && o->number > CHECK_QUICK_LAST)
			o->number = -o->number; /* left out below */
		else if (o->number == CHECK_AFTER_DELIVERY && deliveries)
			o->status = CHECK_NA;
		else
			o->status = CHECK_ERROR; /* until its query has run */
		if (o->status == CHECK_ERROR)
			snprintf(o->error, sizeof(o->error), "not run");
	}
	/* Run order: the heavy ones first, then any others in file order. */
	for (k = 0; k < (int)(sizeof(heavy_first) / sizeof(heavy_first[0]));
	     k++)
		for (i = 0; i < n; i++)
			if (out[i].number == heavy_first[k] &&
			    out[i].status != CHECK_NA)
				ck.order[ck.norder++] = i;
	for (i = 0; i < n; i++) {
		bool listed = false;

		for (k = 0; k < ck.norder; k++)
			listed = listed || ck.order[k] == i;
		if (!listed && out[i].number > 0 && out[i].status != CHECK_NA)
			ck.order[ck.norder++] = i;
	}

	pthread_mutex_init(&ck.mu, NULL);
	nthreads = opts->jobs < 1 ? 1 : opts->jobs;
	if (nthreads > (int)(sizeof(threads) / sizeof(threads[0])))
		nthreads = (int)(sizeof(threads) / sizeof(threads[0]));
	if (nthreads > ck.norder)
		nthreads = ck.norder > 0 ? ck.norder : 1;
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&threads[i], NULL, check_thread, &ck))
			break;
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&ck.mu);
	check_conds_free(conds, n);
	if (started == 0)
		return err_set(err, -EAGAIN, "cannot start check threads");
	if (ck.rc < 0 && ck.next == 0) {
		*err = ck.err;
		return ck.rc;
	}

	/* Drop the conditions --quick left out, keep file order. */
	for (i = k = 0; i < n; i++)
		if (out[i].number > 0)
			out[k++] = out[i];
	return k;
}
