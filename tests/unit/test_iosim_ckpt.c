/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iosim_ckpt.c - drivers/iosim_ckpt.h: marking counts a page once
 * until it is written; the thread writes exactly the marked pages, once
 * each, as many as the commits allow (not more), then fsyncs every file
 * it wrote; after N commits from several threads it has written
 * N × rate pages; a page marked again after its write is written again;
 * stopping is prompt while the thread waits for commits and keeps the
 * pages not yet written dirty; a rate of 0 writes nothing; a failing
 * write ends the thread and stop reports it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/iosim_ckpt.h"
#include "src/base/clock.h"
#include "tests/unit/fixture_util.h"

#define PAGES 200 /* pages of each test file */

static char root[256]; /* this test's temporary directory */

/*
 * The set under test, static so that the per-test teardown stops its
 * thread when an assertion failed half-way: a thread left running on a
 * dead test's stack would write into the next test's set.
 */
static struct iosim_ckpt ckpt;

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_iosim_ckpt") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* After each test, passed or not: no thread outlives it. */
static int test_teardown(void **state)
{
	(void)state;
	iosim_ckpt_free(&ckpt);
	return 0;
}

/* Two files of PAGES zero pages in root; fds[] open read-write. */
static void make_files(const char *tag, int *fds)
{
	static const char zeros[IOSIM_CKPT_PAGE_BYTES];
	char path[PATH_MAX];
	int i, p;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s-%d", root, tag, i);
		fds[i] = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		assert_true(fds[i] >= 0);
		for (p = 0; p < PAGES; p++)
			assert_int_equal(write(fds[i], zeros, sizeof(zeros)),
					 sizeof(zeros));
	}
}

/* Whether page p of fd was written (is no longer zeros). */
static bool written(int fd, int p)
{
	char buf[IOSIM_CKPT_PAGE_BYTES];
	size_t i;

	assert_int_equal(
		pread(fd, buf, sizeof(buf), (off_t)p * IOSIM_CKPT_PAGE_BYTES),
		sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		if (buf[i])
			return true;
	return false;
}

/* Wait up to ms for the thread to have written n pages. */
static void wait_written(struct iosim_ckpt *c, uint64_t n, int ms)
{
	struct iosim_ckpt_stats s;
	int waited;

	for (waited = 0; waited < ms; waited += 5) {
		iosim_ckpt_get_stats(c, &s);
		if (s.written >= n)
			return;
		usleep(5000);
	}
	fail_msg("%llu pages written after %d ms, want %llu",
		 (unsigned long long)s.written, ms, (unsigned long long)n);
}

static bool marked_page(int file, int p)
{
	return file == 0 ? p % 7 == 3 : p % 20 == 0;
}

/*
 * Wait up to ms for the thread to have ended a sweep with its fsyncs: on
 * a loaded machine an fsync may take longer than any fixed sleep.
 */
static void wait_synced(struct iosim_ckpt *c, uint64_t syncs, int ms)
{
	struct iosim_ckpt_stats s;
	int waited;

	for (waited = 0; waited < ms; waited += 5) {
		iosim_ckpt_get_stats(c, &s);
		if (s.syncs >= syncs && s.sweeps >= 1)
			return;
		usleep(5000);
	}
	fail_msg("%llu syncs, %llu sweeps after %d ms, want %llu and 1",
		 (unsigned long long)s.syncs, (unsigned long long)s.sweeps, ms,
		 (unsigned long long)syncs);
}

/* Commit n times. */
static void commit(struct iosim_ckpt *c, int n)
{
	while (n-- > 0)
		iosim_ckpt_commit(c);
}

/* The thread has settled at exactly n pages written. */
static void assert_written_stays(struct iosim_ckpt *c, uint64_t n)
{
	struct iosim_ckpt_stats s;

	wait_written(c, n, 5000);
	usleep(30000);
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.written, n);
}

static void test_writes_marked_pages(void **state)
{
	const uint64_t pages[2] = {PAGES, PAGES};
	struct iosim_ckpt_stats s;
	struct err err;
	int fds[2], f, p, n = 0;
	struct iosim_ckpt *const c = &ckpt;

	(void)state;
	make_files("paced", fds);
	assert_int_equal(iosim_ckpt_init(c, 2, fds, pages, 0.5, &err), 0);
	for (f = 0; f < 2; f++)
		for (p = 0; p < PAGES; p++)
			if (marked_page(f, p)) {
				assert_true(iosim_ckpt_mark(c, f, p));
				/* a second mark of a dirty page is nothing */
				assert_false(iosim_ckpt_mark(c, f, p));
				n++;
			}
	/* out of range: ignored */
	assert_false(iosim_ckpt_mark(c, 2, 0));
	assert_false(iosim_ckpt_mark(c, -1, 0));
	assert_false(iosim_ckpt_mark(c, 0, PAGES));
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.marked, n);
	assert_int_equal(s.dirty, n);
	assert_int_equal(n, 29 + 10);
	assert_int_equal(iosim_ckpt_start(c, &err), 0);
	/* no commit, no write, however long */
	usleep(50000);
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.written, 0);
	/* 21 commits at 0.5 pages each: 10 pages, not 11 */
	commit(c, 21);
	assert_written_stays(c, 10);
	/* enough for all of them: every marked page once */
	commit(c, 2 * n);
	assert_written_stays(c, (uint64_t)n);
	/* and the sync phase follows the writes of a sweep */
	wait_synced(c, 2, 5000);
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.dirty, 0);
	assert_int_equal(s.commits, 21 + 2 * n);
	assert_true(s.syncs >= 2);
	assert_true(s.sweeps >= 1);
	for (f = 0; f < 2; f++)
		for (p = 0; p < PAGES; p++)
			assert_int_equal(written(fds[f], p), marked_page(f, p));
	/*
	 * Dirtied again after its write: written again, once commits allow
	 * it (what was allowed while nothing was dirty is not saved up).
	 */
	usleep(2 * IOSIM_CKPT_IDLE_MS * 1000);
	assert_true(iosim_ckpt_mark(c, 1, 199));
	assert_true(iosim_ckpt_mark(c, 1, 198));
	usleep(2 * IOSIM_CKPT_IDLE_MS * 1000);
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.written, n);
	commit(c, 2);
	assert_written_stays(c, (uint64_t)n + 1);
	assert_int_equal(iosim_ckpt_stop(c, &err), 0);
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.marked, n + 2);
	assert_int_equal(s.dirty, 1);
	iosim_ckpt_free(c);
	iosim_ckpt_free(c);
	close(fds[0]);
	close(fds[1]);
}

#define COMMITTERS	   4   /* threads committing at once */
#define COMMITS_PER_THREAD 150 /* each */

static void *committer(void *arg)
{
	struct iosim_ckpt *c = arg;
	int i;

	for (i = 0; i < COMMITS_PER_THREAD; i++) {
		iosim_ckpt_commit(c);
		usleep(100);
	}
	return NULL;
}

/*
 * The write-back follows the commits: while they come, never more than
 * they allow; after N of them, N × rate pages (every page dirty, so the
 * commits are the only limit).
 */
static void test_follows_commits(void **state)
{
	const uint64_t pages[2] = {PAGES, PAGES};
	const double rate = 0.6;
	pthread_t th[COMMITTERS];
	struct iosim_ckpt_stats s;
	struct err err;
	int fds[2], f, p, i, running;
	uint64_t n = COMMITTERS * COMMITS_PER_THREAD;

	struct iosim_ckpt *const c = &ckpt;

	(void)state;
	make_files("follow", fds);
	assert_int_equal(iosim_ckpt_init(c, 2, fds, pages, rate, &err), 0);
	for (f = 0; f < 2; f++)
		for (p = 0; p < PAGES; p++)
			assert_true(iosim_ckpt_mark(c, f, p));
	assert_int_equal(iosim_ckpt_start(c, &err), 0);
	for (i = 0; i < COMMITTERS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, committer, c), 0);
	do {
		/* written is read after commits: never ahead of them */
		iosim_ckpt_get_stats(c, &s);
		assert_true(s.written <=
			    (uint64_t)floor((double)s.commits * rate));
		running = s.commits < n;
		usleep(1000);
	} while (running);
	for (i = 0; i < COMMITTERS; i++)
		pthread_join(th[i], NULL);
	assert_written_stays(c, (uint64_t)floor((double)n * rate));
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.dirty, 2 * PAGES - 360);
	assert_int_equal(iosim_ckpt_stop(c, &err), 0);
	iosim_ckpt_free(c);
	close(fds[0]);
	close(fds[1]);
}

static void test_stop_is_prompt(void **state)
{
	const uint64_t pages[2] = {PAGES, PAGES};
	struct iosim_ckpt_stats s;
	struct err err;
	int fds[2], p;
	int64_t t0;

	struct iosim_ckpt *const c = &ckpt;

	(void)state;
	make_files("slow", fds);
	/* one page per commit, and one commit: the thread then waits */
	assert_int_equal(iosim_ckpt_init(c, 2, fds, pages, 1, &err), 0);
	for (p = 0; p < 100; p++)
		assert_true(iosim_ckpt_mark(c, 0, p));
	assert_int_equal(iosim_ckpt_start(c, &err), 0);
	commit(c, 1);
	wait_written(c, 1, 2000);
	usleep(20000);
	t0 = clock_mono_us();
	assert_int_equal(iosim_ckpt_stop(c, &err), 0);
	assert_true(clock_mono_us() - t0 < 500000);
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.written, 1);
	/* what was not written is still dirty, and still marked */
	assert_int_equal(s.dirty, 100 - s.written);
	assert_false(iosim_ckpt_mark(c, 0, 99));
	assert_true(iosim_ckpt_mark(c, 0, 0));
	iosim_ckpt_free(c);
	close(fds[0]);
	close(fds[1]);
}

static void test_rate_zero(void **state)
{
	const uint64_t pages[2] = {PAGES, PAGES};
	struct iosim_ckpt_stats s;
	struct err err;
	int fds[2];

	struct iosim_ckpt *const c = &ckpt;

	(void)state;
	make_files("zero", fds);
	assert_int_equal(iosim_ckpt_init(c, 2, fds, pages, 0, &err), 0);
	assert_true(iosim_ckpt_mark(c, 1, 5));
	assert_int_equal(iosim_ckpt_start(c, &err), 0);
	commit(c, 1000);
	usleep(150000);
	assert_int_equal(iosim_ckpt_stop(c, &err), 0);
	iosim_ckpt_get_stats(c, &s);
	assert_int_equal(s.written, 0);
	assert_int_equal(s.dirty, 1);
	assert_false(written(fds[1], 5));
	iosim_ckpt_free(c);
	close(fds[0]);
	close(fds[1]);
}

static void test_write_fails(void **state)
{
	const uint64_t pages[1] = {PAGES};
	char path[PATH_MAX];
	struct err err;
	int fd;
	struct iosim_ckpt *const c = &ckpt;

	(void)state;
	snprintf(path, sizeof(path), "%s/readonly", root);
	fd = open(path, O_RDONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(iosim_ckpt_init(c, 1, &fd, pages, 1000, &err), 0);
	assert_true(iosim_ckpt_mark(c, 0, 3));
	assert_int_equal(iosim_ckpt_start(c, &err), 0);
	commit(c, 1);
	usleep(50000);
	assert_int_equal(iosim_ckpt_stop(c, &err), -EBADF);
	assert_string_equal(err.msg, "checkpointer: write of file 0: Bad file "
				     "descriptor");
	iosim_ckpt_free(c);
	close(fd);
}

static void test_bad_init(void **state)
{
	const uint64_t pages[1] = {1};
	struct err err;
	int fd = 0;
	struct iosim_ckpt *const c = &ckpt;

	(void)state;
	assert_int_equal(iosim_ckpt_init(c, 0, &fd, pages, 1, &err), -EINVAL);
	iosim_ckpt_free(c);
	assert_int_equal(iosim_ckpt_init(c, 1, &fd, pages, -1, &err), -EINVAL);
	iosim_ckpt_free(c);
	assert_int_equal(iosim_ckpt_init(c, 1, &fd, pages, INFINITY, &err),
			 -EINVAL);
	iosim_ckpt_free(c);
	assert_int_equal(iosim_ckpt_init(c, 1, &fd, pages, NAN, &err), -EINVAL);
	iosim_ckpt_free(c);
	/* never started: stop is nothing */
	assert_int_equal(iosim_ckpt_init(c, 1, &fd, pages, 1, &err), 0);
	assert_int_equal(iosim_ckpt_stop(c, &err), 0);
	iosim_ckpt_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_writes_marked_pages,
					  test_teardown),
		cmocka_unit_test_teardown(test_follows_commits, test_teardown),
		cmocka_unit_test_teardown(test_stop_is_prompt, test_teardown),
		cmocka_unit_test_teardown(test_rate_zero, test_teardown),
		cmocka_unit_test_teardown(test_write_fails, test_teardown),
		cmocka_unit_test_teardown(test_bad_init, test_teardown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
