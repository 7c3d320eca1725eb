/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mixlog.c - a full file system during a run: a write into mix.csv
 * that fails part-way is cut back to the last whole row, later rows are
 * dropped, and the file that is committed holds exactly the rows counted;
 * and the run keeps room for its result files (the reserve) from its
 * start until its workers have stopped. The full file system is made
 * portably, as in test_resfile.c: RLIMIT_FSIZE makes write() fail
 * (EFBIG) past a size as ENOSPC does past the free space.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "terminals/mixlog.h"
#include "terminals/run.h"
#include "tests/unit/fixture_util.h"

/* Size of path in bytes, -1 when it does not exist. */
static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Lines of path (each ends with a newline; a cut one would not). */
static long long count_lines(const char *path)
{
	char *text = fixture_read_file(path, NULL);
	long long n = 0;
	char *p;

	assert_non_null(text);
	for (p = text; *p; p++)
		n += *p == '\n';
	assert_true(p == text || p[-1] == '\n');
	free(text);
	return n;
}

/* Add n rows to b without flushing (cap is large enough). */
static void add_rows(struct mixlog_buf *b, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		assert_true(b->cap - b->len >= MIXLOG_ROW_MAX);
		assert_int_equal(mixlog_add(b, 1000 + i, 7, TXN_PAYMENT,
					    TXN_STATUS_OK, 12345, 678),
				 0);
	}
}

static void test_write_error_cut_back(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct rlimit old, small;
	void (*old_handler)(int);
	struct mixlog log;
	struct mixlog_buf b;
	struct err err = {""};
	long long kept;
	int rc;

	(void)state;
	assert_non_null(fixture_temp_dir(dir, sizeof(dir), "oltpmark-mixlog"));
	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	assert_int_equal(mixlog_open(&log, dir, &err), 0);
	assert_int_equal(mixlog_buf_init(&b, &log, 64 * 1024), 0);

	/* a first buffer reaches the file */
	add_rows(&b, 100);
	assert_int_equal(mixlog_flush(&b), 0);
	assert_int_equal(log.rows, 100);
	kept = (long long)log.bytes;

	/* the second finds room for only part of itself */
	add_rows(&b, 100);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = (rlim_t)kept + 100;
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	rc = mixlog_flush(&b);
	/* and every later one is dropped */
	add_rows(&b, 10);
	assert_int_equal(mixlog_flush(&b), -EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_handler);
	assert_int_equal(rc, -EFBIG);
	assert_int_equal(log.rows, 100);
	assert_int_equal(log.bytes, kept);
	assert_int_equal(b.rows, 210);
	assert_int_equal(b.rows_out, 210);
	mixlog_buf_free(&b);

	/* committed anyway: the rows written before are data */
	rc = mixlog_commit(&log, &err);
	assert_int_equal(rc, -EFBIG);
	assert_non_null(strstr(err.msg, "cannot write "));
	assert_non_null(strstr(err.msg, "/mix.csv: "));
	assert_non_null(strstr(err.msg, strerror(EFBIG)));
	assert_non_null(
		strstr(err.msg, "the 100 rows written before are kept"));
	assert_int_equal(file_size(path), kept);
	assert_int_equal(count_lines(path), 101);
	assert_int_equal(fixture_rm_rf(dir), 0);
}

static void test_no_error_all_rows(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct mixlog log;
	struct mixlog_buf a, b;
	struct err err = {""};

	(void)state;
	assert_non_null(fixture_temp_dir(dir, sizeof(dir), "oltpmark-mixlog"));
	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	assert_int_equal(mixlog_open(&log, dir, &err), 0);
	assert_int_equal(mixlog_buf_init(&a, &log, 8192), 0);
	assert_int_equal(mixlog_buf_init(&b, &log, 8192), 0);
	add_rows(&a, 30);
	add_rows(&b, 20);
	assert_int_equal(mixlog_flush(&a), 0);
	add_rows(&a, 5);
	assert_int_equal(mixlog_flush(&b), 0);
	assert_int_equal(mixlog_flush(&a), 0);
	/* an empty buffer flushes nothing */
	assert_int_equal(mixlog_flush(&b), 0);
	assert_int_equal(log.rows, 55);
	mixlog_buf_free(&a);
	mixlog_buf_free(&b);
	assert_int_equal(mixlog_commit(&log, &err), 0);
	assert_int_equal(count_lines(path), 56);
	assert_int_equal(file_size(path), (long long)log.bytes);
	assert_int_equal(fixture_rm_rf(dir), 0);
}

static struct run_config null_config(const char *dir)
{
	struct run_config c;

	memset(&c, 0, sizeof(c));
	c.driver = driver_find("null");
	c.db.tx_mode = DRIVER_TX_PROCEDURE;
	c.max_retries = 3;
	c.warehouses = 1;
	c.terminals_per_w = 10;
	c.connections = 2;
	c.ramp_up_s = 0;
	c.duration_s = 1;
	c.pacing = (struct pacing){PACING_NONE, 0.0};
	c.seed = 1;
	c.reconnect_s = 90;
	c.drain_s = 1;
	c.out_dir = dir;
	return c;
}

static void test_reserve_held_during_run(void **state)
{
	char dir[PATH_MAX], reserve[PATH_MAX + 32];
	struct run_config c;
	struct run *run;
	struct err err = {""};
	struct stat st;

	(void)state;
	assert_non_null(fixture_temp_dir(dir, sizeof(dir), "oltpmark-reserve"));
	snprintf(reserve, sizeof(reserve), "%s/.oltpmark-reserve", dir);
	c = null_config(dir);

	/* held from the open, allocated (not a sparse file) */
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(stat(reserve, &st), 0);
	assert_true(st.st_size >= 256 * 1024);
	assert_true((long long)st.st_blocks * 512 >= 256 * 1024);
	/* given back once the workers stopped, before the result files */
	assert_int_equal(run_execute(run, &err), 0);
	assert_int_equal(access(reserve, F_OK), -1);
	assert_false(run_get_result(run)->partial);
	run_close(run);

	/* and by a run that never executed */
	assert_int_equal(fixture_rm_rf(dir), 0);
	assert_non_null(fixture_temp_dir(dir, sizeof(dir), "oltpmark-reserve"));
	snprintf(reserve, sizeof(reserve), "%s/.oltpmark-reserve", dir);
	c = null_config(dir);
	assert_int_equal(run_open(&run, &c, &err), 0);
	assert_int_equal(access(reserve, F_OK), 0);
	run_close(run);
	assert_int_equal(access(reserve, F_OK), -1);
	assert_int_equal(fixture_rm_rf(dir), 0);
}

static void test_no_room_for_reserve(void **state)
{
	char dir[PATH_MAX];
	struct rlimit old, small;
	void (*old_handler)(int);
	struct run_config c;
	struct run *run = NULL;
	struct err err = {""};
	int rc;

	(void)state;
	assert_non_null(fixture_temp_dir(dir, sizeof(dir), "oltpmark-reserve"));
	c = null_config(dir);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 4096;
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	rc = run_open(&run, &c, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_handler);
	/* no run: a directory without room for the results gets none */
	assert_int_equal(rc, -EFBIG);
	assert_null(run);
	assert_non_null(strstr(err.msg, "cannot keep 256 KiB free in "));
	assert_non_null(strstr(err.msg, strerror(EFBIG)));
	assert_int_equal(rmdir(dir), 0); /* nothing left in it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_error_cut_back),
		cmocka_unit_test(test_no_error_all_rows),
		cmocka_unit_test(test_reserve_held_during_run),
		cmocka_unit_test(test_no_room_for_reserve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
