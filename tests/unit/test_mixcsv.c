/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mixcsv.c - the mix.csv reader: rows parsed exactly, every kind of
 * bad line named by its number, a cut last line dropped and counted, an
 * empty file and a missing header refused, lines across the read buffer's
 * edge, CRLF endings. Runs under ASan and UBSan.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report/mixcsv.h"
#include "tests/unit/fixture_util.h"

#define HDR MIXCSV_HEADER "\n"

/* Read every row of text; returns the last code, rows in *rows. */
static int read_all(const char *text, uint64_t *rows, uint64_t *truncated,
		    struct err *err)
{
	struct mixcsv_reader r;
	struct mixcsv_row row;
	char path[] = "/tmp/test_mixcsv.XXXXXX";
	int rc;

	fixture_write_temp(text, strlen(text), path);
	err_clear(err);
	rc = mixcsv_open(&r, path, err);
	if (rc == 0) {
		while ((rc = mixcsv_next(&r, &row, err)) > 0)
			;
		*rows = r.rows;
		*truncated = r.truncated_lines;
		mixcsv_close(&r);
	}
	unlink(path);
	return rc;
}

static void test_rows(void **state)
{
	const char *text = HDR "1500,3,new_order,ok,12345,11000\n"
			       "1499,4,payment,rollback,7,6\n"
			       "0,0,order_status,error,0,0\n"
			       "99999999999,12,delivery,ok,80000000,1\n"
			       "20,7,stock_level,ok,18446744,0\n";
	struct mixcsv_reader r;
	struct mixcsv_row row;
	struct err err;
	char path[] = "/tmp/test_mixcsv.XXXXXX";

	(void)state;
	fixture_write_temp(text, strlen(text), path);
	assert_int_equal(mixcsv_open(&r, path, &err), 0);
	assert_int_equal(mixcsv_next(&r, &row, &err), 1);
	assert_int_equal(row.t_ms, 1500);
	assert_int_equal(row.terminal, 3);
	assert_int_equal(row.type, TXN_NEW_ORDER);
	assert_int_equal(row.status, TXN_STATUS_OK);
	assert_int_equal(row.response_us, 12345);
	assert_int_equal(row.service_us, 11000);
	assert_int_equal(mixcsv_next(&r, &row, &err), 1);
	assert_int_equal(row.type, TXN_PAYMENT);
	assert_int_equal(row.status, TXN_STATUS_ROLLBACK);
	assert_int_equal(row.t_ms, 1499);
	assert_int_equal(mixcsv_next(&r, &row, &err), 1);
	assert_int_equal(row.type, TXN_ORDER_STATUS);
	assert_int_equal(row.status, TXN_STATUS_ERROR);
	assert_int_equal(row.response_us, 0);
	assert_int_equal(mixcsv_next(&r, &row, &err), 1);
	assert_int_equal(row.type, TXN_DELIVERY);
	assert_int_equal(row.t_ms, 99999999999LL);
	assert_int_equal(row.response_us, 80000000);
	assert_int_equal(mixcsv_next(&r, &row, &err), 1);
	assert_int_equal(row.type, TXN_STOCK_LEVEL);
	assert_int_equal(mixcsv_next(&r, &row, &err), 0);
	assert_int_equal(mixcsv_next(&r, &row, &err), 0);
	assert_int_equal(r.rows, 5);
	assert_int_equal(r.truncated_lines, 0);
	assert_int_equal(r.bytes, strlen(text));
	assert_int_equal(r.line, 6);
	mixcsv_close(&r);
	mixcsv_close(&r);
	unlink(path);
}

/* Each bad line fails with -EBADMSG naming line 3. */
static void test_bad_lines(void **state)
{
	static const struct {
		const char *line; /* the bad third line */
		const char *what; /* part of the message */
	} cases[] = {
		{"x,1,new_order,ok,1,1\n", "bad t_ms"},
		{"-5,1,new_order,ok,1,1\n", "bad t_ms"},
		{",1,new_order,ok,1,1\n", "bad t_ms"},
		{"5,,new_order,ok,1,1\n", "bad terminal"},
		{"5,1,neworder,ok,1,1\n", "unknown type"},
		{"5,1,New_Order,ok,1,1\n", "unknown type"},
		{"5,1,new_order,OK,1,1\n", "unknown status"},
		{"5,1,new_order,ok,1.5,1\n", "bad response_us"},
		{"5,1,new_order,ok,,1\n", "bad response_us"},
		{"5,1,new_order,ok,1,1,7\n", "bad service_us"},
		{"5,1,new_order,ok,1,\n", "bad service_us"},
		{"5,1,new_order,ok,1\n", "bad response_us"},
		{"5,1,new_order\n", "unknown type"},
		{"\n", "empty line"},
		{"5,1,new_order,ok,1,1 \n", "bad service_us"},
		{"12345678901234567890,1,payment,ok,1,1\n", "bad t_ms"},
		{"5,1,payment,ok,99999999999999999999,1\n", "bad response_us"},
		{"5,1,pay\001ment,ok,1,1\n", "\\x01"},
	};
	char text[256];
	struct err err;
	uint64_t rows, trunc;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text),
			 HDR "1,1,payment,ok,1,1\n%s2,1,payment,ok,1,1\n",
			 cases[i].line);
		assert_int_equal(read_all(text, &rows, &trunc, &err), -EBADMSG);
		if (!strstr(err.msg, "line 3:") ||
		    !strstr(err.msg, cases[i].what))
			fail_msg("case %zu: message '%s'", i, err.msg);
	}
}

static void test_truncated_last_line(void **state)
{
	struct err err;
	uint64_t rows = 0, trunc = 0;

	(void)state;
	/* cut inside a number: must not become a row with a wrong value */
	assert_int_equal(read_all(HDR "1,1,payment,ok,1,1\n2,1,payment,ok,12",
				  &rows, &trunc, &err),
			 0);
	assert_int_equal(rows, 1);
	assert_int_equal(trunc, 1);
	/* cut right after a comma: would not parse; still tolerated */
	assert_int_equal(read_all(HDR "1,1,payment,ok,1,1\n2,1,pay", &rows,
				  &trunc, &err),
			 0);
	assert_int_equal(rows, 1);
	assert_int_equal(trunc, 1);
	/* a complete file has nothing cut */
	assert_int_equal(
		read_all(HDR "1,1,payment,ok,1,1\n", &rows, &trunc, &err), 0);
	assert_int_equal(trunc, 0);
}

static void test_header(void **state)
{
	struct err err;
	uint64_t rows = 0, trunc = 0;

	(void)state;
	assert_int_equal(read_all("", &rows, &trunc, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "empty"));
	assert_int_equal(read_all("t_ms,terminal,ty", &rows, &trunc, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "cut short"));
	/* rows without the header line */
	assert_int_equal(read_all("1,1,payment,ok,1,1\n", &rows, &trunc, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "line 1"));
	assert_non_null(strstr(err.msg, "not the mix.csv header"));
	/* another column order is another format */
	assert_int_equal(read_all("terminal,t_ms,type,status,response_us,"
				  "service_us\n",
				  &rows, &trunc, &err),
			 -EBADMSG);
	/* the header alone: no rows, no error */
	assert_int_equal(read_all(HDR, &rows, &trunc, &err), 0);
	assert_int_equal(rows, 0);
}

static void test_crlf(void **state)
{
	struct err err;
	uint64_t rows = 0, trunc = 0;

	(void)state;
	assert_int_equal(read_all(MIXCSV_HEADER "\r\n1,1,payment,ok,1,1\r\n"
						"2,2,new_order,ok,3,2\r\n",
				  &rows, &trunc, &err),
			 0);
	assert_int_equal(rows, 2);
}

static void test_missing_file(void **state)
{
	struct mixcsv_reader r;
	struct err err;

	(void)state;
	assert_int_equal(mixcsv_open(&r, "/nonexistent/mix.csv", &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/mix.csv"));
	assert_int_equal(mixcsv_open(&r, "/tmp", &err), -EISDIR);
}

/* Enough rows to cross the read buffer several times, sums checked. */
static void test_buffer_edges(void **state)
{
	struct mixcsv_reader r;
	struct mixcsv_row row;
	struct err err;
	char path[64], line[80];
	uint64_t sum_t = 0, sum_r = 0, want_t = 0, want_r = 0, n = 0;
	const uint64_t rows = 200000;
	FILE *f;
	uint64_t i;

	(void)state;
	strcpy(path, "/tmp/test_mixcsv.XXXXXX");
	f = fdopen(mkstemp(path), "w");
	assert_non_null(f);
	fputs(HDR, f);
	for (i = 0; i < rows; i++) {
		/* varying widths so lines end everywhere in the buffer */
		snprintf(line, sizeof(line), "%llu,%llu,%s,ok,%llu,1\n",
			 (unsigned long long)(i * 7919 % 1000003),
			 (unsigned long long)(i % 997),
			 i % 3 ? "payment" : "stock_level",
			 (unsigned long long)(i * i % 100000007));
		fputs(line, f);
		want_t += i * 7919 % 1000003;
		want_r += i * i % 100000007;
	}
	fclose(f);
	assert_int_equal(mixcsv_open(&r, path, &err), 0);
	while (mixcsv_next(&r, &row, &err) > 0) {
		sum_t += (uint64_t)row.t_ms;
		sum_r += row.response_us;
		n++;
	}
	assert_int_equal(n, rows);
	assert_int_equal(sum_t, want_t);
	assert_int_equal(sum_r, want_r);
	mixcsv_close(&r);
	unlink(path);
}

/* A line longer than the buffer is an error, not a hang or overflow. */
static void test_line_too_long(void **state)
{
	size_t n = MIXCSV_BUF_SIZE + 100, h = strlen(HDR);
	char *text = malloc(h + n + 2);
	struct mixcsv_reader r;
	struct mixcsv_row row;
	struct err err;
	char path[] = "/tmp/test_mixcsv.XXXXXX";

	(void)state;
	assert_non_null(text);
	memcpy(text, HDR, h);
	memset(text + h, '1', n);
	text[h + n] = '\n';
	fixture_write_temp(text, h + n + 1, path);
	assert_int_equal(mixcsv_open(&r, path, &err), 0);
	assert_int_equal(mixcsv_next(&r, &row, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "line 2"));
	mixcsv_close(&r);
	unlink(path);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_truncated_last_line),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_buffer_edges),
		cmocka_unit_test(test_line_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
