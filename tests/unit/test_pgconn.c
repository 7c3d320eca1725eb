/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pgconn.c - the parts of the PostgreSQL access layer
 * (drivers/pgconn.h) that need no server: which connection strings are
 * taken (a bare database name included) and how they are recorded without
 * a password, the first line of an error, and oltpmark_meta from its
 * key/value pairs and back; and what the statements, rows, quoting,
 * cancelling and COPY of pgconn_query.c do with no result, no
 * connection or a connection that failed (a socket where no server
 * listens). What they do with a server is tests/integration/pgconn.bats'.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h> /* only to make a failed connection */

#include "drivers/pgconn.h"

/* One connection string: is it taken, and how is it recorded. */
struct conninfo_case {
	const char *conninfo; /* as given to --conninfo */
	int rc;		      /* pgconn_validate */
	bool dbname;	      /* pgconn_is_dbname */
	const char *redacted; /* pgconn_redact */
};

static const struct conninfo_case conninfo_cases[] = {
	/* the PG* environment */
	{"", 0, false, ""},
	/* a bare database name, as psql -d takes it */
	{"mydb", 0, true, "dbname='mydb'"},
	{"my db", 0, true, "dbname='my db'"},
	{"it's", 0, true, "dbname='it\\'s'"},
	/* keyword=value pairs, in libpq's order */
	{"dbname=x host=/tmp", 0, false, "dbname='x' host='/tmp'"},
	{"host=/tmp port=5433 user=u password=s3cret", 0, false,
	 "user='u' host='/tmp' port='5433'"},
	{"password='s3cret' host=h", 0, false, "host='h'"},
	/* URIs */
	{"postgresql://u:s3cret@localhost:5432/d", 0, false,
	 "user='u' dbname='d' host='localhost' port='5432'"},
	{"postgresql://localhost/d?password=s3cret", 0, false,
	 "dbname='d' host='localhost'"},
	{"postgres://h", 0, false, "host='h'"},
	/* what libpq cannot parse is neither taken nor echoed */
	{"host='/tmp password=s3cret", -EINVAL, false, "(unparsable conninfo)"},
	{"nosuchkey=1", -EINVAL, false, "(unparsable conninfo)"},
	{"=", -EINVAL, false, "(unparsable conninfo)"},
	{"postgresql://[::1", -EINVAL, false, "(unparsable conninfo)"},
};

static void test_conninfo_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(conninfo_cases) / sizeof(conninfo_cases[0]);
	     i++) {
		const struct conninfo_case *c = &conninfo_cases[i];
		struct err err = {""};
		char out[512];
		int rc;

		rc = pgconn_validate(c->conninfo, &err);
		if (rc != c->rc)
			fail_msg("'%s': validate %d, want %d", c->conninfo, rc,
				 c->rc);
		/* the message never quotes the string ("=" is in any) */
		if (rc < 0 &&
		    (!err.msg[0] || strstr(err.msg, "s3cret") ||
		     (strlen(c->conninfo) > 3 && strstr(err.msg, c->conninfo))))
			fail_msg("'%s': error '%s'", c->conninfo, err.msg);
		if (pgconn_is_dbname(c->conninfo) != c->dbname)
			fail_msg("'%s': is_dbname wrong", c->conninfo);
		pgconn_redact(c->conninfo, out, sizeof(out));
		if (strcmp(out, c->redacted) != 0)
			fail_msg("'%s': redacted '%s', want '%s'", c->conninfo,
				 out, c->redacted);
	}
	/* NULL is the PG* environment too */
	assert_int_equal(pgconn_validate(NULL, NULL), 0);
	assert_false(pgconn_is_dbname(NULL));
}

static void test_redact_small_buffer(void **state)
{
	char out[8];

	(void)state;
	pgconn_redact("host=/tmp dbname=abcdefgh", out, sizeof(out));
	assert_true(strlen(out) < sizeof(out));
	pgconn_redact("abcdefghijkl", out, sizeof(out));
	assert_true(strlen(out) < sizeof(out));
	assert_int_equal(strncmp(out, "dbname=", 7), 0);
}

/* A bad conninfo is refused before libpq sees it (no server needed). */
static void test_connect_refuses_unparsable(void **state)
{
	struct err err = {""};
	PGconn *conn = (PGconn *)&err;

	(void)state;
	assert_int_equal(pgconn_connect("host='x password=s3cret", PGCONN_LOAD,
					&conn, &err),
			 -EINVAL);
	assert_null(conn);
	assert_null(strstr(err.msg, "s3cret"));
	assert_non_null(strstr(err.msg, "does not parse"));
}

static void test_app_names(void **state)
{
	(void)state;
	assert_string_equal(pgconn_app_name(PGCONN_LOAD), "oltpmark-load");
	assert_string_equal(pgconn_app_name(PGCONN_CHECK), "oltpmark-check");
	assert_string_equal(pgconn_app_name(PGCONN_RUN), "oltpmark-run");
}

/* The first line of a message: src, and what comes out. */
static const struct {
	const char *src;
	const char *line;
} first_line_cases[] = {
	{NULL, ""},
	{"", ""},
	{"\n", ""},
	{"plain", "plain"},
	{"ERROR:  relation \"x\" does not exist\nLINE 1: SELECT",
	 "relation \"x\" does not exist"},
	{"FATAL:  terminating connection due to administrator command\n",
	 "terminating connection due to administrator command"},
	{"PANIC:  out of luck", "out of luck"},
	{"connection to server on socket \"/s/.s.PGSQL.1\" failed: "
	 "FATAL:  database \"x\" does not exist\n",
	 "connection to server on socket \"/s/.s.PGSQL.1\" failed: "
	 "FATAL:  database \"x\" does not exist"},
	{"trailing blanks \t \r\nnext", "trailing blanks"},
	{"WARNING:  kept as it is", "WARNING:  kept as it is"},
};

static void test_first_line(void **state)
{
	char out[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(first_line_cases) / sizeof(first_line_cases[0]);
	     i++) {
		memset(out, 'x', sizeof(out));
		pgconn_first_line(out, sizeof(out), first_line_cases[i].src);
		assert_string_equal(out, first_line_cases[i].line);
	}
	/* cut to the buffer, always terminated; size 0 writes nothing */
	pgconn_first_line(out, 6, "ERROR:  abcdefghij\n");
	assert_string_equal(out, "abcde");
	out[0] = 'q';
	pgconn_first_line(out, 0, "abc");
	assert_int_equal(out[0], 'q');
	/* no result, no connection: still one line */
	pgconn_error(NULL, NULL, out, sizeof(out));
	assert_string_equal(out, "unknown error");
}

/* The line of a failed connection: host, port, libpq's message. */
static const struct {
	const char *host, *port, *msg; /* PQhost, PQport, PQerrorMessage */
	const char *line;	       /* pgconn_connect_line */
} connect_line_cases[] = {
	/* libpq 14 on: the reason after the attempt's prefix */
	{"127.0.0.1", "1",
	 "connection to server at \"127.0.0.1\", port 1 failed: Connection "
	 "refused\n\tIs the server running on that host and accepting "
	 "TCP/IP connections?\n",
	 "cannot connect to 127.0.0.1 port 1: Connection refused"},
	{"db.example", "5432",
	 "connection to server at \"db.example\" (10.0.0.9), port 5432 "
	 "failed: timeout expired\n",
	 "cannot connect to db.example port 5432: timeout expired"},
	/* a Unix-domain socket; the server's FATAL without its severity */
	{"/tmp/s", "5433",
	 "connection to server on socket \"/tmp/s/.s.PGSQL.5433\" failed: "
	 "FATAL:  database \"x\" does not exist\n",
	 "cannot connect to socket directory /tmp/s port 5433: database "
	 "\"x\" does not exist"},
	/* one line per address or host: the last attempt is PQhost's */
	{"localhost", "1",
	 "connection to server at \"localhost\" (::1), port 1 failed: "
	 "Connection refused\n\tIs the server running?\n"
	 "connection to server at \"localhost\" (127.0.0.1), port 1 "
	 "failed: FATAL:  password authentication failed for user \"u\"\n",
	 "cannot connect to localhost port 1: password authentication "
	 "failed for user \"u\""},
	/* libpq before 14, and a line of another form: kept whole */
	{"h", "1",
	 "could not connect to server: Connection refused\n\tIs the "
	 "server running on host \"h\"?\n",
	 "cannot connect to h port 1: Connection refused"},
	{"h", "abc",
	 "invalid integer value \"abc\" for connection option \"port\"\n",
	 "cannot connect to h port abc: invalid integer value \"abc\" for "
	 "connection option \"port\""},
	/* no host, no port, no message */
	{"", "", "out of memory\n", "cannot connect: out of memory"},
	{NULL, NULL, NULL, "cannot connect: unknown error"},
	{"h", NULL, "connection to server at \"h\", port 1 failed: \n",
	 "cannot connect to h: unknown error"},
};

static void test_connect_line(void **state)
{
	char out[256];
	size_t i;

	(void)state;
	for (i = 0;
	     i < sizeof(connect_line_cases) / sizeof(connect_line_cases[0]);
	     i++) {
		memset(out, 'x', sizeof(out));
		pgconn_connect_line(
			out, sizeof(out), connect_line_cases[i].host,
			connect_line_cases[i].port, connect_line_cases[i].msg);
		assert_string_equal(out, connect_line_cases[i].line);
	}
	/* cut to the buffer, always terminated; size 0 writes nothing */
	pgconn_connect_line(out, 10, "127.0.0.1", "1", "refused");
	assert_string_equal(out, "cannot co");
	out[0] = 'q';
	pgconn_connect_line(out, 0, "h", "1", "x");
	assert_int_equal(out[0], 'q');
}

/* The connect timeout's order: --connect-timeout, conninfo, env, 10. */
static const struct {
	int given_s;	   /* --connect-timeout, -1: not given */
	const char *env;   /* PGCONNECT_TIMEOUT, NULL: unset */
	const char *value; /* what goes to libpq, NULL: nothing */
	bool override;	   /* after the conninfo (wins over it) */
} timeout_cases[] = {
	{-1, NULL, "10", false}, /* the default, under the conninfo's */
	{-1, "", "10", false},	 /* an empty variable is unset to libpq */
	{-1, "3", NULL, false},	 /* libpq's rule: conninfo, else env */
	{5, NULL, "5", true},	 /* given: over conninfo and env */
	{5, "3", "5", true},
	{0, "3", "0", true}, /* 0: wait for ever, as libpq's */
};

static void test_timeout_value(void **state)
{
	char buf[16];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(timeout_cases) / sizeof(timeout_cases[0]); i++) {
		bool override = !timeout_cases[i].override;
		const char *v = pgconn_timeout_value(
			timeout_cases[i].given_s, timeout_cases[i].env,
			&override, buf, sizeof(buf));

		if (!timeout_cases[i].value)
			assert_null(v);
		else
			assert_string_equal(v, timeout_cases[i].value);
		assert_int_equal(override, timeout_cases[i].override);
	}
}

/*
 * A failed connection says where and why in one line, without the
 * password of the conninfo (a socket where no server listens).
 */
static void test_connect_failure_line(void **state)
{
	struct err err = {""};
	PGconn *conn = (PGconn *)&err;

	(void)state;
	pgconn_set_connect_timeout(2);
	assert_int_equal(pgconn_connect("host=/nonexistent-oltpmark port=7 "
					"password=s3cret",
					PGCONN_CHECK, &conn, &err),
			 -ENOTCONN);
	pgconn_set_connect_timeout(-1);
	assert_null(conn);
	assert_null(strchr(err.msg, '\n'));
	assert_null(strstr(err.msg, "s3cret"));
	assert_int_equal(strncmp(err.msg,
				 "cannot connect to socket directory "
				 "/nonexistent-oltpmark port 7: ",
				 strlen("cannot connect to socket directory "
					"/nonexistent-oltpmark port 7: ")),
			 0);
}

/* The columns of schema/meta.sql, as a loaded database has them. */
static const char *const meta_keys[] = {
	"status",  "warehouses",   "c_load_c_last", "seed",
	"version", "load_started", "load_finished",
};
static const char *const meta_loaded[] = {
	"loaded",
	"10",
	"157",
	"42",
	"0.9.1",
	"2024-05-01 10:00:00+00",
	"2024-05-01 10:03:00+00",
};

static void test_meta_parse(void **state)
{
	struct pgconn_meta m;
	struct err err = {""};
	char text[512];
	int len;

	(void)state;
	assert_int_equal(pgconn_meta_parse(meta_keys, meta_loaded, 7, &m, &err),
			 0);
	assert_string_equal(m.status, "loaded");
	assert_int_equal(m.warehouses, 10);
	assert_int_equal(m.c_load_c_last, 157);
	assert_true(m.seed == 42);
	assert_string_equal(m.version, "0.9.1");
	assert_string_equal(m.load_started, "2024-05-01 10:00:00+00");
	assert_string_equal(m.load_finished, "2024-05-01 10:03:00+00");

	/* key=value lines in the table's order: what check --meta prints */
	len = pgconn_meta_format(&m, text, sizeof(text));
	assert_int_equal(len, (int)strlen(text));
	assert_string_equal(text, "status=loaded\n"
				  "warehouses=10\n"
				  "c_load_c_last=157\n"
				  "seed=42\n"
				  "version=0.9.1\n"
				  "load_started=2024-05-01 10:00:00+00\n"
				  "load_finished=2024-05-01 10:03:00+00\n"
				  "layout=\n");
	/* too small a buffer: cut, terminated, the needed length returned */
	assert_true(pgconn_meta_format(&m, text, 10) > 10);
	assert_int_equal(strlen(text), 9);
}

static void test_meta_parse_loading_and_extra(void **state)
{
	/* a load under way: no load_finished (NULL); a newer column */
	const char *keys[] = {"load_finished", "future_column", "seed",
			      "status",	       "warehouses",	"version",
			      "c_load_c_last"};
	const char *values[] = {NULL, "whatever", "0", "loading",
				"1",  "1.0",	  "0"};
	struct pgconn_meta m;
	struct err err = {""};

	(void)state;
	assert_int_equal(pgconn_meta_parse(keys, values, 7, &m, &err), 0);
	assert_string_equal(m.status, "loading");
	assert_int_equal(m.warehouses, 1);
	assert_string_equal(m.load_finished, "");
	assert_string_equal(m.load_started, "");
}

/* One bad meta row: which value of meta_loaded is replaced, and how. */
static const struct {
	int index;	   /* into meta_keys, -1: drop n_keys to n */
	const char *value; /* the replacement (NULL: SQL NULL) */
	int n;		   /* pairs passed */
	const char *words; /* in the error message */
} meta_bad[] = {
	{0, "done", 7, "status"},
	{0, NULL, 7, "status"},
	{1, "0", 7, "warehouses"},
	{1, "ten", 7, "warehouses"},
	{1, "10x", 7, "warehouses"},
	{1, "99999999999", 7, "warehouses"},
	{2, "256", 7, "c_load_c_last"},
	{2, "-1", 7, "c_load_c_last"},
	{3, "-5", 7, "seed"},
	{4, "", 7, "version"},
	{4, "a version string much longer than thirty-one", 7, "version"},
	{-1, NULL, 4, "no column version"},
	{-1, NULL, 0, "no column status"},
};

static void test_meta_parse_rejects(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(meta_bad) / sizeof(meta_bad[0]); i++) {
		const char *values[7];
		struct pgconn_meta m;
		struct err err = {""};
		int rc;

		memcpy(values, meta_loaded, sizeof(values));
		if (meta_bad[i].index >= 0)
			values[meta_bad[i].index] = meta_bad[i].value;
		rc = pgconn_meta_parse(meta_keys, values, meta_bad[i].n, &m,
				       &err);
		if (rc != -EINVAL || !strstr(err.msg, meta_bad[i].words))
			fail_msg("case %zu: rc %d, '%s'", i, rc, err.msg);
	}
}

static void test_meta_parse_layout(void **state)
{
	/* the layout column of a load over tablespaces; too long a value */
	const char *keys[] = {"status", "warehouses", "c_load_c_last",
			      "seed",	"version",    "layout"};
	const char *values[] = {"loaded", "3", "7", "1", "1.0", "warehouse"};
	struct pgconn_meta m;
	struct err err = {""};
	char text[512];

	(void)state;
	assert_int_equal(pgconn_meta_parse(keys, values, 6, &m, &err), 0);
	assert_string_equal(m.layout, "warehouse");
	pgconn_meta_format(&m, text, sizeof(text));
	assert_non_null(strstr(text, "\nload_finished=\nlayout=warehouse\n"));
	values[5] = "a-layout-name-that-is-too-long";
	assert_int_equal(pgconn_meta_parse(keys, values, 6, &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "layout"));
}

static void test_meta_parse_twice(void **state)
{
	const char *keys[] = {"status", "status"};
	const char *values[] = {"loaded", "loading"};
	struct pgconn_meta m;
	struct err err = {""};

	(void)state;
	assert_int_equal(pgconn_meta_parse(keys, values, 2, &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "twice"));
}

/* No rows (a failed query leaves *rows NULL): empty, NULL, harmless. */
static void test_rows_none(void **state)
{
	(void)state;
	assert_int_equal(pgconn_rows_count(NULL), 0);
	assert_int_equal(pgconn_rows_fields(NULL), 0);
	assert_string_equal(pgconn_rows_value(NULL, 0, 0), "");
	assert_true(pgconn_rows_is_null(NULL, 0, 0));
	pgconn_rows_free(NULL);
}

/* No connection: lost, no host, closing and cancelling do nothing. */
static void test_no_connection(void **state)
{
	(void)state;
	assert_true(pgconn_lost(NULL));
	assert_string_equal(pgconn_host(NULL), "");
	assert_string_equal(pgconn_hostaddr(NULL), "");
	assert_true(pgconn_thread_safe());
	assert_null(pgconn_cancel_new(NULL));
	pgconn_cancel_send(NULL);
	pgconn_cancel_free(NULL);
	pgconn_close(NULL);
}

/* A connection to a socket where no server listens: CONNECTION_BAD. */
static PGconn *failed_connection(void)
{
	PGconn *conn = PQconnectdb("host=/nonexistent-oltpmark port=1 "
				   "connect_timeout=1");

	assert_non_null(conn);
	assert_int_equal(PQstatus(conn), CONNECTION_BAD);
	return conn;
}

/* A row of a scan that must give none. */
static void never_row(const struct pgconn_rows *one, void *arg)
{
	(void)one;
	(void)arg;
	fail_msg("a row from a failed connection");
}

/* Every statement on a lost connection fails with what, not a crash. */
static void test_failed_connection(void **state)
{
	const char *params[1] = {"x"};
	/* not NULL, so that the test sees the failure set it to NULL */
	struct pgconn_rows *rows = (struct pgconn_rows *)&rows;
	PGconn *conn = failed_connection();
	struct err err = {""};

	(void)state;
	assert_true(pgconn_lost(conn));
	assert_string_equal(pgconn_host(conn), "/nonexistent-oltpmark");

	assert_int_equal(pgconn_query(conn, "reading x", "SELECT $1::text", 1,
				      params, &rows, &err),
			 -ENOTCONN);
	assert_null(rows);
	assert_true(strncmp(err.msg, "reading x: ", 11) == 0);
	assert_true(strlen(err.msg) > 11);

	/* without what: the line alone; without err: only the code */
	assert_int_equal(
		pgconn_query(conn, NULL, "SELECT 1", 0, NULL, NULL, &err),
		-ENOTCONN);
	assert_true(strncmp(err.msg, "reading x", 9) != 0);
	assert_int_equal(
		pgconn_query(conn, "q", "SELECT 1", 0, NULL, NULL, NULL),
		-ENOTCONN);

	assert_int_equal(pgconn_each_row(conn, "scan", "SELECT 1", never_row,
					 NULL, &err),
			 -ENOTCONN);
	assert_true(strncmp(err.msg, "scan: ", 6) == 0);

	assert_int_equal(
		pgconn_copy_start(conn, "COPY t", "COPY t FROM STDIN", &err),
		-EIO);
	assert_true(strncmp(err.msg, "COPY t: ", 8) == 0);
	assert_int_equal(pgconn_copy_put(conn, "COPY t", "1\n", 2, &err), -EIO);
	assert_int_equal(pgconn_copy_end(conn, "COPY t", NULL, &err), -EIO);
	assert_true(strncmp(err.msg, "COPY t: ", 8) == 0);
	assert_null(pgconn_cancel_new(conn));
	pgconn_close(conn);
}

/* Quoting follows the connection's encoding: it works on any conn. */
static void test_quote(void **state)
{
	static const struct {
		const char *in, *ident, *literal;
	} cases[] = {
		{"plain", "\"plain\"", "'plain'"},
		{"a\"b", "\"a\"\"b\"", "'a\"b'"},
		{"it's", "\"it's\"", "'it''s'"},
		{"/srv/ts 1", "\"/srv/ts 1\"", "'/srv/ts 1'"},
		{"back\\slash", "\"back\\slash\"", " E'back\\\\slash'"},
	};
	PGconn *conn = failed_connection();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *id = pgconn_quote_ident(conn, cases[i].in);
		char *lit = pgconn_quote_literal(conn, cases[i].in);

		assert_non_null(id);
		assert_non_null(lit);
		assert_string_equal(id, cases[i].ident);
		assert_string_equal(lit, cases[i].literal);
		free(id); /* plain malloc: no PQfreemem for the caller */
		free(lit);
	}
	assert_null(pgconn_quote_ident(NULL, "x"));
	assert_null(pgconn_quote_literal(NULL, "x"));
	pgconn_close(conn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conninfo_table),
		cmocka_unit_test(test_redact_small_buffer),
		cmocka_unit_test(test_connect_refuses_unparsable),
		cmocka_unit_test(test_app_names),
		cmocka_unit_test(test_first_line),
		cmocka_unit_test(test_connect_line),
		cmocka_unit_test(test_timeout_value),
		cmocka_unit_test(test_connect_failure_line),
		cmocka_unit_test(test_meta_parse),
		cmocka_unit_test(test_meta_parse_loading_and_extra),
		cmocka_unit_test(test_meta_parse_rejects),
		cmocka_unit_test(test_meta_parse_layout),
		cmocka_unit_test(test_meta_parse_twice),
		cmocka_unit_test(test_rows_none),
		cmocka_unit_test(test_no_connection),
		cmocka_unit_test(test_failed_connection),
		cmocka_unit_test(test_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
