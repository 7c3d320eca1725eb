/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iosim_ckpt.c - drivers/iosim_ckpt.h: marking counts a page once
 * until it is written; the thread writes exactly the marked pages, once
 * each, at the rate asked (not faster), then fsyncs every file it wrote;
 * a page marked again after its write is written again; stopping is
 * prompt even at a slow rate and keeps the pages not yet written dirty;
 * a rate of 0 writes nothing; a failing write ends the thread and stop
 * reports it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
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

static void test_writes_marked_pages(void **state)
{
	const uint64_t pages[2] = {PAGES, PAGES};
	struct iosim_ckpt c;
	struct iosim_ckpt_stats s;
	struct err err;
	int fds[2], f, p, n = 0;
	int64_t t0, elapsed_us;

	(void)state;
	make_files("paced", fds);
	assert_int_equal(iosim_ckpt_init(&c, 2, fds, pages, 200, &err), 0);
	for (f = 0; f < 2; f++)
		for (p = 0; p < PAGES; p++)
			if (marked_page(f, p)) {
				assert_true(iosim_ckpt_mark(&c, f, p));
				/* a second mark of a dirty page is nothing */
				assert_false(iosim_ckpt_mark(&c, f, p));
				n++;
			}
	/* out of range: ignored */
	assert_false(iosim_ckpt_mark(&c, 2, 0));
	assert_false(iosim_ckpt_mark(&c, -1, 0));
	assert_false(iosim_ckpt_mark(&c, 0, PAGES));
	iosim_ckpt_get_stats(&c, &s);
	assert_int_equal(s.marked, n);
	assert_int_equal(s.dirty, n);
	assert_int_equal(n, 29 + 10);
	t0 = clock_mono_us();
	assert_int_equal(iosim_ckpt_start(&c, &err), 0);
	wait_written(&c, (uint64_t)n, 5000);
	elapsed_us = clock_mono_us() - t0;
	/* 39 pages at 200 per second: the first at once, then 5 ms apart */
	assert_true(elapsed_us >= (n - 1) * 5000 - 2000);
	/* and the sync phase follows the writes of a sweep */
	usleep(20000);
	iosim_ckpt_get_stats(&c, &s);
	assert_int_equal(s.written, n);
	assert_int_equal(s.dirty, 0);
	assert_true(s.syncs >= 2);
	assert_true(s.sweeps >= 1);
	for (f = 0; f < 2; f++)
		for (p = 0; p < PAGES; p++)
			assert_int_equal(written(fds[f], p), marked_page(f, p));
	/* dirtied again after its write: written again */
	assert_true(iosim_ckpt_mark(&c, 1, 199));
	wait_written(&c, (uint64_t)n + 1, 2000);
	assert_int_equal(iosim_ckpt_stop(&c, &err), 0);
	iosim_ckpt_get_stats(&c, &s);
	assert_int_equal(s.marked, n + 1);
	iosim_ckpt_free(&c);
	iosim_ckpt_free(&c);
	close(fds[0]);
	close(fds[1]);
}

static void test_stop_is_prompt(void **state)
{
	const uint64_t pages[2] = {PAGES, PAGES};
	struct iosim_ckpt c;
	struct iosim_ckpt_stats s;
	struct err err;
	int fds[2], p;
	int64_t t0;

	(void)state;
	make_files("slow", fds);
	/* one page every two seconds */
	assert_int_equal(iosim_ckpt_init(&c, 2, fds, pages, 0.5, &err), 0);
	for (p = 0; p < 100; p++)
		assert_true(iosim_ckpt_mark(&c, 0, p));
	assert_int_equal(iosim_ckpt_start(&c, &err), 0);
	wait_written(&c, 1, 2000);
	t0 = clock_mono_us();
	assert_int_equal(iosim_ckpt_stop(&c, &err), 0);
	assert_true(clock_mono_us() - t0 < 500000);
	iosim_ckpt_get_stats(&c, &s);
	assert_true(s.written >= 1 && s.written <= 2);
	/* what was not written is still dirty, and still marked */
	assert_int_equal(s.dirty, 100 - s.written);
	assert_false(iosim_ckpt_mark(&c, 0, 99));
	assert_true(iosim_ckpt_mark(&c, 0, 0));
	iosim_ckpt_free(&c);
	close(fds[0]);
	close(fds[1]);
}

static void test_rate_zero(void **state)
{
	const uint64_t pages[2] = {PAGES, PAGES};
	struct iosim_ckpt c;
	struct iosim_ckpt_stats s;
	struct err err;
	int fds[2];

	(void)state;
	make_files("zero", fds);
	assert_int_equal(iosim_ckpt_init(&c, 2, fds, pages, 0, &err), 0);
	assert_true(iosim_ckpt_mark(&c, 1, 5));
	assert_int_equal(iosim_ckpt_start(&c, &err), 0);
	usleep(150000);
	assert_int_equal(iosim_ckpt_stop(&c, &err), 0);
	iosim_ckpt_get_stats(&c, &s);
	assert_int_equal(s.written, 0);
	assert_int_equal(s.dirty, 1);
	assert_false(written(fds[1], 5));
	iosim_ckpt_free(&c);
	close(fds[0]);
	close(fds[1]);
}

static void test_write_fails(void **state)
{
	const uint64_t pages[1] = {PAGES};
	char path[PATH_MAX];
	struct iosim_ckpt c;
	struct err err;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/readonly", root);
	fd = open(path, O_RDONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(iosim_ckpt_init(&c, 1, &fd, pages, 1000, &err), 0);
	assert_true(iosim_ckpt_mark(&c, 0, 3));
	assert_int_equal(iosim_ckpt_start(&c, &err), 0);
	usleep(50000);
	assert_int_equal(iosim_ckpt_stop(&c, &err), -EBADF);
	assert_string_equal(err.msg, "checkpointer: write of file 0: Bad file "
				     "descriptor");
	iosim_ckpt_free(&c);
	close(fd);
}

static void test_bad_init(void **state)
{
	const uint64_t pages[1] = {1};
	struct iosim_ckpt c;
	struct err err;
	int fd = 0;

	(void)state;
	assert_int_equal(iosim_ckpt_init(&c, 0, &fd, pages, 1, &err), -EINVAL);
	iosim_ckpt_free(&c);
	assert_int_equal(iosim_ckpt_init(&c, 1, &fd, pages, -1, &err), -EINVAL);
	iosim_ckpt_free(&c);
	/* never started: stop is nothing */
	assert_int_equal(iosim_ckpt_init(&c, 1, &fd, pages, 1, &err), 0);
	assert_int_equal(iosim_ckpt_stop(&c, &err), 0);
	iosim_ckpt_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes_marked_pages),
		cmocka_unit_test(test_stop_is_prompt),
		cmocka_unit_test(test_rate_zero),
		cmocka_unit_test(test_write_fails),
		cmocka_unit_test(test_bad_init),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
