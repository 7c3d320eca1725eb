/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_pgstats.c - the pg-stats hook's CSV reader on the golden
 * run's sys/pg_wait_events.csv and pg_stat_bgwriter snapshots, on the
 * broken copies in tests/fixtures/pg-* (rows cut short, a count that is
 * not a number, no header) and on variants written out here (CRLF, a
 * repeated header, quoting, NUL bytes, empty files).
 *
 * pg-wait-events-cut.csv holds three samples: (none/none/active) 2, 3
 * and 4 sessions, LWLock/WALWrite/active 1 in the first; a row with four
 * fields, one with count "many" and a last row without its newline are
 * bad.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/parse_pgstats.h"
#include "tests/unit/fixture_util.h"

/* The golden run's files, from the fixtures directory. */
#define GOLDEN_SYS "../golden/run-basic/sys/"

static FILE *open_str(const char *text, size_t len)
{
	/* fmemopen() may refuse a size of 0. */
	FILE *f = len ? fmemopen((void *)text, len, "r")
		      : fopen("/dev/null", "r");

	assert_non_null(f);
	return f;
}

static int waits_bytes(const char *text, size_t len, struct pgstats_waits *w,
		       struct err *err)
{
	FILE *f = open_str(text, len);
	int rc = parse_pgstats_waits(f, w, err);

	fclose(f);
	return rc;
}

static int waits_str(const char *text, struct pgstats_waits *w, struct err *err)
{
	return waits_bytes(text, strlen(text), w, err);
}

static int snapshot_str(const char *text, struct pgstats_snapshot *s,
			struct err *err)
{
	FILE *f = open_str(text, strlen(text));
	int rc = parse_pgstats_snapshot(f, s, err);

	fclose(f);
	return rc;
}

/* The entry of (type, event, state), or NULL. */
static const struct pgstats_wait *find(const struct pgstats_waits *w,
				       const char *type, const char *event,
				       const char *state)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].type, type) &&
		    !strcmp(w->v[i].event, event) &&
		    !strcmp(w->v[i].state, state))
			return &w->v[i];
	return NULL;
}

static void test_waits_golden(void **state)
{
	struct pgstats_waits w;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_pgstats_waits_file(
				 fixture_path(GOLDEN_SYS "pg_wait_events.csv"),
				 &w, &err),
			 0);
	assert_int_equal(w.rows, 201);
	assert_int_equal(w.samples, 81);
	assert_int_equal(w.bad_lines, 0);
	assert_int_equal(w.n, 4);
	parse_pgstats_waits_sort(&w);
	/* most sessions first; an empty type is a backend on CPU */
	assert_string_equal(w.v[0].type, "");
	assert_string_equal(w.v[0].event, "");
	assert_string_equal(w.v[0].state, "active");
	assert_true(w.v[0].sessions == 157);
	assert_string_equal(w.v[1].event, "ClientRead");
	assert_true(w.v[1].sessions == 100);
	assert_string_equal(w.v[2].event, "WALWrite");
	assert_true(w.v[2].sessions == 27);
	/* the quoted field keeps its comma */
	assert_string_equal(w.v[3].type, "Lock");
	assert_string_equal(w.v[3].event, "transactionid, tuple");
	assert_true(w.v[3].sessions == 12);
	parse_pgstats_waits_free(&w);
	assert_int_equal(w.n, 0);
	assert_null(w.v);
}

static void test_waits_cut(void **state)
{
	struct pgstats_waits w;
	struct err err = {""};
	const struct pgstats_wait *e;

	(void)state;
	assert_int_equal(
		parse_pgstats_waits_file(fixture_path("pg-wait-events-cut.csv"),
					 &w, &err),
		0);
	assert_int_equal(w.samples, 3);
	assert_int_equal(w.rows, 4);
	assert_int_equal(w.bad_lines, 3);
	assert_int_equal(w.n, 2);
	e = find(&w, "", "", "active");
	assert_non_null(e);
	assert_true(e->sessions == 9);
	e = find(&w, "LWLock", "WALWrite", "active");
	assert_non_null(e);
	assert_true(e->sessions == 1);
	assert_null(find(&w, "Lock", "tuple", "active"));
	parse_pgstats_waits_free(&w);
}

static void test_waits_no_header(void **state)
{
	struct pgstats_waits w;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_pgstats_waits_file(
			fixture_path("pg-wait-events-no-header.csv"), &w, &err),
		-EINVAL);
	assert_non_null(strstr(err.msg, "pg-wait-events-no-header.csv: "));
	assert_non_null(strstr(err.msg, "no header"));
	/* zeroed after a failure: safe to free again */
	assert_int_equal(w.n, 0);
	assert_null(w.v);
	parse_pgstats_waits_free(&w);
}

/* Inputs written out here and what the parse gives. */
static const struct waits_case {
	const char *name;    /* what it shows */
	const char *text;    /* the input */
	int rc;		     /* parse_pgstats_waits()'s result */
	size_t samples;	     /* on success */
	size_t n;	     /* entries */
	size_t bad_lines;    /* rows skipped */
	double first_active; /* sessions of (none, none, active), NAN none */
} waits_cases[] = {
	{"empty", "", -ENODATA, 0, 0, 0, NAN},
	{"blank lines only", "\n \n\t\n", -ENODATA, 0, 0, 0, NAN},
	{"header only: the hook ran, no sample",
	 "ts,wait_event_type,wait_event,state,count\n", 0, 0, 0, 0, NAN},
	{"header cut short", "ts,wait_event_type,wait_e", -EINVAL, 0, 0, 0,
	 NAN},
	{"a column missing from the header",
	 "ts,wait_event_type,wait_event,count\nx,a,b,1\n", -EINVAL, 0, 0, 0,
	 NAN},
	{"a column twice in the header",
	 "ts,wait_event_type,wait_event,state,count,count\n", -EINVAL, 0, 0, 0,
	 NAN},
	{"CRLF line ends",
	 "ts,wait_event_type,wait_event,state,count\r\n"
	 "t1,,,active,2\r\nt2,,,active,3\r\n",
	 0, 2, 1, 0, 5},
	{"columns in another order, one more",
	 "count,state,extra,ts,wait_event,wait_event_type\n"
	 "2,active,x,t1,,\n1,idle,y,t1,ClientRead,Client\n",
	 0, 1, 2, 0, 2},
	{"the header again and blank lines between samples",
	 "ts,wait_event_type,wait_event,state,count\nt1,,,active,1\n\n"
	 "ts,wait_event_type,wait_event,state,count\nt2,,,active,1\n",
	 0, 2, 1, 0, 2},
	{"doubled quotes inside a quoted field",
	 "ts,wait_event_type,wait_event,state,count\n"
	 "t1,Lock,\"a \"\"b\"\", c\",active,1\n",
	 0, 1, 1, 0, NAN},
	{"an unclosed quote is a bad row",
	 "ts,wait_event_type,wait_event,state,count\n"
	 "t1,Lock,\"tuple,active,1\nt1,,,active,1\n",
	 0, 1, 1, 1, 1},
	{"text after a closing quote is a bad row",
	 "ts,wait_event_type,wait_event,state,count\n"
	 "t1,Lock,\"tuple\"x,active,1\n",
	 0, 0, 0, 1, NAN},
	{"negative and fractional counts",
	 "ts,wait_event_type,wait_event,state,count\n"
	 "t1,,,active,-1\nt1,,,active,0.5\n",
	 0, 1, 1, 1, 0.5},
	{"a row of the same time later is the same sample only when next",
	 "ts,wait_event_type,wait_event,state,count\n"
	 "t1,,,active,1\nt2,,,active,1\nt1,,,active,1\n",
	 0, 3, 1, 0, 3},
};

static void test_waits_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(waits_cases) / sizeof(waits_cases[0]); i++) {
		const struct waits_case *c = &waits_cases[i];
		struct pgstats_waits w;
		struct err err = {""};
		const struct pgstats_wait *e;
		int rc = waits_str(c->text, &w, &err);

		print_message("case: %s\n", c->name);
		assert_int_equal(rc, c->rc);
		if (rc < 0) {
			assert_true(err.msg[0] != '\0');
			assert_int_equal(w.n, 0);
			continue;
		}
		assert_int_equal(w.samples, c->samples);
		assert_int_equal(w.n, c->n);
		assert_int_equal(w.bad_lines, c->bad_lines);
		e = find(&w, "", "", "active");
		if (isnan(c->first_active))
			assert_null(e);
		else
			assert_true(e && e->sessions == c->first_active);
		parse_pgstats_waits_free(&w);
	}
}

static void test_waits_quoted(void **state)
{
	struct pgstats_waits w;
	struct err err = {""};

	(void)state;
	assert_int_equal(waits_str("ts,wait_event_type,wait_event,state,count\n"
				   "t1,Lock,\"a \"\"b\"\", c\",active,1\n",
				   &w, &err),
			 0);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.v[0].event, "a \"b\", c");
	parse_pgstats_waits_free(&w);
}

static void test_waits_nul(void **state)
{
	static const char text[] = "ts,wait_event_type,wait_event,state,count\n"
				   "t1,,,act\0ve,1\n"
				   "t1,,,active,2\n";
	struct pgstats_waits w;
	struct err err = {""};

	(void)state;
	assert_int_equal(waits_bytes(text, sizeof(text) - 1, &w, &err), 0);
	assert_int_equal(w.bad_lines, 1);
	assert_int_equal(w.n, 1);
	assert_true(w.v[0].sessions == 2);
	parse_pgstats_waits_free(&w);
}

static void test_waits_sort_ties(void **state)
{
	struct pgstats_waits w;
	struct err err = {""};

	(void)state;
	assert_int_equal(waits_str("ts,wait_event_type,wait_event,state,count\n"
				   "t1,LWLock,WALWrite,active,2\n"
				   "t1,IO,DataFileRead,active,2\n"
				   "t1,IO,DataFileRead,idle,2\n"
				   "t1,,,active,5\n",
				   &w, &err),
			 0);
	parse_pgstats_waits_sort(&w);
	assert_int_equal(w.n, 4);
	assert_true(w.v[0].sessions == 5);
	assert_string_equal(w.v[1].type, "IO");
	assert_string_equal(w.v[1].state, "active");
	assert_string_equal(w.v[2].state, "idle");
	assert_string_equal(w.v[3].type, "LWLock");
	parse_pgstats_waits_free(&w);
}

static void test_waits_missing_file(void **state)
{
	struct pgstats_waits w;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_pgstats_waits_file(
			fixture_path("no-such-pg_wait_events.csv"), &w, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "no-such-pg_wait_events.csv"));
	parse_pgstats_waits_free(&w);
}

static void test_snapshot_golden(void **state)
{
	struct pgstats_snapshot a, b;
	struct err err = {""};
	double v;
	int col;

	(void)state;
	assert_int_equal(
		parse_pgstats_snapshot_file(
			fixture_path(GOLDEN_SYS "pg_stat_bgwriter.start.csv"),
			&a, &err),
		0);
	assert_int_equal(
		parse_pgstats_snapshot_file(
			fixture_path(GOLDEN_SYS "pg_stat_bgwriter.stop.csv"),
			&b, &err),
		0);
	assert_int_equal(a.ncols, 7);
	assert_string_equal(a.names[0], "ts");
	col = parse_pgstats_snapshot_column(&a, "checkpoints_timed");
	assert_int_equal(col, 1);
	assert_true(parse_pgstats_snapshot_value(&a, col, &v) && v == 10);
	assert_true(parse_pgstats_snapshot_value(&b, col, &v) && v == 11);
	col = parse_pgstats_snapshot_column(&b, "checkpoint_write_time");
	assert_true(parse_pgstats_snapshot_value(&b, col, &v) && v == 2234.5);
	/* a time and a timestamp are no numbers */
	assert_false(parse_pgstats_snapshot_value(&a, 0, &v));
	col = parse_pgstats_snapshot_column(&a, "stats_reset");
	assert_int_equal(col, 6);
	assert_string_equal(a.values[col], "2026-11-01 00:00:00+00");
	assert_false(parse_pgstats_snapshot_value(&a, col, &v));
	/* absent columns and out-of-range indexes */
	assert_int_equal(parse_pgstats_snapshot_column(&a, "wal_bytes"), -1);
	assert_false(parse_pgstats_snapshot_value(&a, -1, &v));
	assert_false(parse_pgstats_snapshot_value(&a, 7, &v));
	parse_pgstats_snapshot_free(&a);
	parse_pgstats_snapshot_free(&b);
	assert_int_equal(a.ncols, 0);
	assert_null(a.names);
}

static void test_snapshot_broken_fixtures(void **state)
{
	static const char *const names[] = {
		"pg-stat-bgwriter-cut.csv",
		"pg-stat-bgwriter-no-header.csv",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pgstats_snapshot s;
		struct err err = {""};

		print_message("fixture: %s\n", names[i]);
		assert_int_equal(parse_pgstats_snapshot_file(
					 fixture_path(names[i]), &s, &err),
				 -EINVAL);
		assert_non_null(strstr(err.msg, names[i]));
		assert_int_equal(s.ncols, 0);
		assert_null(s.names);
		parse_pgstats_snapshot_free(&s);
	}
}

/* Snapshots written out here: the result and, on success, a value. */
static const struct snapshot_case {
	const char *name;   /* what it shows */
	const char *text;   /* the input */
	int rc;		    /* parse_pgstats_snapshot()'s result */
	const char *column; /* on success: a column to look up */
	bool numeric;	    /* whether it reads as a number */
	double value;	    /* and which */
} snapshot_cases[] = {
	{"empty", "", -ENODATA, NULL, false, 0},
	{"a header and no row", "ts,a,b\n", -ENODATA, NULL, false, 0},
	{"a header and a blank line", "ts,a,b\n\n", -ENODATA, NULL, false, 0},
	{"no ts column first", "a,ts\n1,t\n", -EINVAL, NULL, false, 0},
	{"two rows", "ts,a\nt,1\nt,2\n", -EINVAL, NULL, false, 0},
	{"a row with too many fields", "ts,a\nt,1,2\n", -EINVAL, NULL, false,
	 0},
	{"a row without its newline", "ts,a\nt,1", -EINVAL, NULL, false, 0},
	{"CRLF", "ts,a,b\r\nt,1,2.5\r\n", 0, "b", true, 2.5},
	{"NULL is an empty field", "ts,a,b\nt,,2\n", 0, "a", false, 0},
	{"a quoted number", "ts,a\nt,\"42\"\n", 0, "a", true, 42},
	{"a quoted comma", "ts,a,b\nt,\"x,y\",7\n", 0, "b", true, 7},
	{"a negative number", "ts,a\nt,-3\n", 0, "a", true, -3},
	{"text", "ts,a\nt,12abc\n", 0, "a", false, 0},
	{"not finite", "ts,a\nt,inf\n", 0, "a", false, 0},
};

static void test_snapshot_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(snapshot_cases) / sizeof(snapshot_cases[0]);
	     i++) {
		const struct snapshot_case *c = &snapshot_cases[i];
		struct pgstats_snapshot s;
		struct err err = {""};
		double v = NAN;
		int rc = snapshot_str(c->text, &s, &err);

		print_message("case: %s\n", c->name);
		assert_int_equal(rc, c->rc);
		if (rc < 0) {
			assert_true(err.msg[0] != '\0');
			assert_null(s.names);
			continue;
		}
		assert_int_equal(
			parse_pgstats_snapshot_value(
				&s,
				parse_pgstats_snapshot_column(&s, c->column),
				&v),
			c->numeric);
		if (c->numeric)
			assert_true(v == c->value);
		parse_pgstats_snapshot_free(&s);
	}
}

/*
 * Every prefix of the golden files: a valid parse never has more than
 * the whole (and at most the cut last row bad), a failure leaves nothing
 * allocated. Random bytes and other tools' output have no header.
 */
static void test_every_cut(void **state)
{
	size_t len, cut, header_len;
	char *buf;

	(void)state;
	buf = fixture_slurp(GOLDEN_SYS "pg_wait_events.csv", &len);
	for (cut = 0; cut <= len; cut++) {
		struct pgstats_waits w;
		struct err err = {""};
		int rc = waits_bytes(buf, cut, &w, &err);

		if (rc == 0) {
			assert_true(w.rows <= 201);
			assert_true(w.samples <= 81);
			assert_true(w.bad_lines <= 1);
		} else {
			assert_true(rc == -EINVAL || rc == -ENODATA);
			assert_null(w.v);
		}
		parse_pgstats_waits_free(&w);
	}
	free(buf);
	buf = fixture_slurp(GOLDEN_SYS "pg_stat_bgwriter.stop.csv", &len);
	header_len = (size_t)(strchr(buf, '\n') - buf) + 1;
	for (cut = 0; cut <= len; cut++) {
		struct pgstats_snapshot s;
		struct err err = {""};
		FILE *f = open_str(buf, cut);
		int rc = parse_pgstats_snapshot(f, &s, &err);

		fclose(f);
		/* only the whole file is a snapshot; nothing or a header
		 * alone is no data, anything else is cut */
		if (cut == len)
			assert_int_equal(rc, 0);
		else if (cut == 0 || cut == header_len)
			assert_int_equal(rc, -ENODATA);
		else
			assert_int_equal(rc, -EINVAL);
		parse_pgstats_snapshot_free(&s);
	}
	free(buf);
}

static void test_garbage(void **state)
{
	unsigned char noise[4096];
	struct pgstats_waits w;
	struct pgstats_snapshot s;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *buf;
	FILE *f;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(waits_bytes((const char *)noise, sizeof(noise),
					     &w, &err),
				 -EINVAL);
		f = open_str((const char *)noise, sizeof(noise));
		assert_int_equal(parse_pgstats_snapshot(f, &s, &err), -EINVAL);
		fclose(f);
	}
	buf = fixture_slurp("vmstat-n-1.txt", &len);
	assert_int_equal(waits_bytes(buf, len, &w, &err), -EINVAL);
	f = open_str(buf, len);
	assert_int_equal(parse_pgstats_snapshot(f, &s, &err), -EINVAL);
	fclose(f);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waits_golden),
		cmocka_unit_test(test_waits_cut),
		cmocka_unit_test(test_waits_no_header),
		cmocka_unit_test(test_waits_cases),
		cmocka_unit_test(test_waits_quoted),
		cmocka_unit_test(test_waits_nul),
		cmocka_unit_test(test_waits_sort_ties),
		cmocka_unit_test(test_waits_missing_file),
		cmocka_unit_test(test_snapshot_golden),
		cmocka_unit_test(test_snapshot_broken_fixtures),
		cmocka_unit_test(test_snapshot_cases),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
