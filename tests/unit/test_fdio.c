/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fdio.c - src/base/fdio.h: a buffer written whole across short
 * writes and EINTR (a slow reader on a pipe, a timer's signal without
 * SA_RESTART), the errno of a write that fails after a short one (a file
 * size limit), and pwrite at an offset that leaves the file's own offset
 * alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "src/base/fdio.h"

#define BIG (1 << 20) /* many times a pipe's capacity */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* A temporary file, open for reading and writing, already unlinked. */
static int temp_fd(void)
{
	char path[] = "/tmp/oltpmark-fdio.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

struct reader {
	int fd;
	unsigned char *got;
	size_t len;
};

/* Read the pipe to its end in small, slow pieces, so the writer blocks. */
static void *slow_reader(void *arg)
{
	struct reader *r = arg;
	struct timespec pause = {0, 200000};
	ssize_t n;

	for (;;) {
		n = read(r->fd, r->got + r->len, 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		r->len += (size_t)n;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void test_write_all_pipe_signals(void **state)
{
	unsigned char *buf = malloc(BIG);
	struct reader r = {.got = malloc(BIG + 1), .len = 0};
	struct sigaction sa = {.sa_handler = on_alarm}, old_sa;
	struct itimerval tick = {{0, 2000}, {0, 2000}}, off = {0};
	sigset_t alrm, old_mask;
	pthread_t t;
	int p[2];
	size_t i;

	(void)state;
	assert_non_null(buf);
	assert_non_null(r.got);
	for (i = 0; i < BIG; i++)
		buf[i] = (unsigned char)(i * 7 + i / 4096);
	assert_int_equal(pipe(p), 0);
	r.fd = p[0];
	/* the signal for this thread only: the reader is started with it
	 * blocked and keeps it so */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	assert_int_equal(pthread_sigmask(SIG_BLOCK, &alrm, &old_mask), 0);
	assert_int_equal(pthread_create(&t, NULL, slow_reader, &r), 0);
	assert_int_equal(pthread_sigmask(SIG_UNBLOCK, &alrm, NULL), 0);
	/* no SA_RESTART: a blocked write returns EINTR or a short count */
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, &old_sa), 0);
	alarms = 0;
	assert_int_equal(setitimer(ITIMER_REAL, &tick, NULL), 0);

	assert_int_equal(fdio_write_all(p[1], buf, BIG), 0);

	assert_int_equal(setitimer(ITIMER_REAL, &off, NULL), 0);
	assert_int_equal(sigaction(SIGALRM, &old_sa, NULL), 0);
	assert_int_equal(pthread_sigmask(SIG_SETMASK, &old_mask, NULL), 0);
	close(p[1]);
	assert_int_equal(pthread_join(t, NULL), 0);
	close(p[0]);
	assert_true(alarms > 0);
	assert_int_equal(r.len, BIG);
	assert_memory_equal(r.got, buf, BIG);
	free(r.got);
	free(buf);
}

/*
 * Past RLIMIT_FSIZE a write is short, and the next fails with EFBIG (as
 * ENOSPC does on a full file system): the whole write fails with it.
 */
static void test_write_all_error_after_short(void **state)
{
	char buf[10000];
	struct rlimit old, small;
	void (*old_handler)(int);
	int fd = temp_fd(), rc;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 4096;
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	rc = fdio_write_all(fd, buf, sizeof(buf));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_handler);
	assert_int_equal(rc, -EFBIG);
	assert_int_equal(lseek(fd, 0, SEEK_END), 4096);
	close(fd);

	assert_int_equal(fdio_write_all(-1, buf, 1), -EBADF);
	/* nothing to write is not an error, even on a bad descriptor */
	assert_int_equal(fdio_write_all(-1, buf, 0), 0);
}

static void test_pwrite_all_offset(void **state)
{
	char got[16] = "";
	int fd = temp_fd();

	(void)state;
	assert_int_equal(fdio_write_all(fd, "abcdefgh", 8), 0);
	assert_int_equal(fdio_pwrite_all(fd, "XY", 2, 3), 0);
	/* beyond the end: a hole, then the bytes */
	assert_int_equal(fdio_pwrite_all(fd, "Z", 1, 10), 0);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 8);
	assert_int_equal(pread(fd, got, sizeof(got), 0), 11);
	assert_memory_equal(got, "abcXYfgh\0\0Z", 11);
	assert_int_equal(fdio_pwrite_all(fd, "Z", 1, -1), -EINVAL);
	close(fd);
	assert_int_equal(fdio_pwrite_all(-1, "Z", 1, 0), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_all_pipe_signals),
		cmocka_unit_test(test_write_all_error_after_short),
		cmocka_unit_test(test_pwrite_all_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
