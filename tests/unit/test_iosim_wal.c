/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iosim_wal.c - drivers/iosim_wal.h: group commit. With a slow
 * flush put in place of fdatasync, N threads committing together cause
 * far fewer flushes than commits, while one thread alone causes one per
 * commit; no commit returns before a flush that covers its end; a failing
 * flush fails every waiting commit and every later one, and calls the
 * flush no more. Also the ring (the file never grows past its size,
 * writes are whole pages), appends without a wait, and bad arguments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "drivers/iosim_wal.h"
#include "tests/unit/fixture_util.h"

#define THREADS 8

static char root[256]; /* this test's temporary directory */

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_iosim_wal") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* What the test's flush does and saw. */
struct slow_flush {
	int delay_us;	       /* how long each flush takes */
	int fail_from;	       /* 1-based call that starts failing; 0 never */
	atomic_int calls;      /* flushes so far */
	atomic_ullong durable; /* the highest position a flush completed */
	atomic_int running;    /* flushes running now (must stay <= 1) */
	atomic_int overlapped; /* times two ran at once */
};

static int slow_flush(int fd, uint64_t upto, void *arg)
{
	struct slow_flush *sf = arg;
	int n = atomic_fetch_add(&sf->calls, 1) + 1;
	unsigned long long seen;

	(void)fd;
	if (atomic_fetch_add(&sf->running, 1) != 0)
		atomic_fetch_add(&sf->overlapped, 1);
	usleep((useconds_t)sf->delay_us);
	atomic_fetch_sub(&sf->running, 1);
	if (sf->fail_from && n >= sf->fail_from)
		return -EIO;
	seen = atomic_load(&sf->durable);
	while (seen < upto &&
	       !atomic_compare_exchange_weak(&sf->durable, &seen, upto))
		;
	return 0;
}

/* One committing thread's job and results. */
struct committer {
	struct iosim_wal *wal;	  /* the log */
	struct slow_flush *sf;	  /* its flush */
	pthread_barrier_t *start; /* all start together */
	int commits;		  /* how many to make; 0: until one fails */
	int bytes;		  /* per commit */
	int ok;			  /* commits that returned 0 */
	int early;		  /* returned before a flush covered them */
	int last_rc;		  /* the last commit's return */
	struct err err;		  /* its message */
};

static void *committer_main(void *arg)
{
	struct committer *c = arg;
	uint64_t end;
	int i;

	pthread_barrier_wait(c->start);
	for (i = 0; c->commits == 0 || i < c->commits; i++) {
		c->last_rc = iosim_wal_commit(c->wal, (uint64_t)c->bytes, &end,
					      &c->err);
		if (c->last_rc < 0)
			break;
		c->ok++;
		if (atomic_load(&c->sf->durable) < end)
			c->early++;
	}
	return NULL;
}

/*
 * nthreads threads making commits each (0: until failure) of bytes;
 * the results in cs[].
 */
static void run_committers(struct iosim_wal *wal, struct slow_flush *sf,
			   int nthreads, int commits, int bytes,
			   struct committer *cs)
{
	pthread_t tid[THREADS];
	pthread_barrier_t start;
	int i;

	assert_true(nthreads <= THREADS);
	pthread_barrier_init(&start, NULL, (unsigned)nthreads);
	for (i = 0; i < nthreads; i++) {
		cs[i] = (struct committer){wal, sf, &start, commits, bytes,
					   0,	0,  0,	    {""}};
		assert_int_equal(
			pthread_create(&tid[i], NULL, committer_main, &cs[i]),
			0);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&start);
}

static const char *wal_path(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return path;
}

static void test_group_commit(void **state)
{
	struct slow_flush sf = {.delay_us = 2000};
	struct committer cs[THREADS];
	struct iosim_wal_stats st;
	struct iosim_wal wal;
	struct err err;
	struct stat sb;
	int i, ok = 0;

	(void)state;
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-group"), 1 << 20,
					slow_flush, &sf, &err),
			 0);
	run_committers(&wal, &sf, THREADS, 25, 3000, cs);
	for (i = 0; i < THREADS; i++) {
		assert_int_equal(cs[i].last_rc, 0);
		assert_int_equal(cs[i].early, 0);
		ok += cs[i].ok;
	}
	iosim_wal_get_stats(&wal, &st);
	assert_int_equal(ok, THREADS * 25);
	assert_int_equal(st.commits, THREADS * 25);
	assert_int_equal(st.bytes, THREADS * 25 * 3000);
	assert_int_equal(st.flushes, atomic_load(&sf.calls));
	assert_int_equal(atomic_load(&sf.overlapped), 0);
	/* 8 committers share flushes: far fewer flushes than commits */
	assert_true(st.flushes <= st.commits / 2);
	assert_true(st.max_group >= 2);
	/* everything appended is durable at the end */
	assert_int_equal(atomic_load(&sf.durable), THREADS * 25 * 3000);
	assert_int_equal(stat(wal_path("wal-group"), &sb), 0);
	assert_int_equal(sb.st_size, 1 << 20);
	iosim_wal_close(&wal);
	iosim_wal_close(&wal);
}

/* The control: alone, a committer has nobody to share a flush with. */
static void test_alone(void **state)
{
	struct slow_flush sf = {.delay_us = 100};
	struct committer c;
	struct iosim_wal_stats st;
	struct iosim_wal wal;
	struct err err;

	(void)state;
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-alone"), 1 << 20,
					slow_flush, &sf, &err),
			 0);
	run_committers(&wal, &sf, 1, 40, 100, &c);
	iosim_wal_get_stats(&wal, &st);
	assert_int_equal(c.ok, 40);
	assert_int_equal(c.early, 0);
	assert_int_equal(st.flushes, 40);
	assert_int_equal(st.max_group, 1);
	iosim_wal_close(&wal);
}

static void test_flush_error(void **state)
{
	struct slow_flush sf = {.delay_us = 5000, .fail_from = 3};
	struct committer cs[THREADS];
	struct iosim_wal_stats st;
	struct iosim_wal wal;
	struct err err;
	char want[PATH_MAX + 64];
	int i, calls;

	(void)state;
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-eio"), 1 << 20,
					slow_flush, &sf, &err),
			 0);
	/* every thread commits until it fails */
	run_committers(&wal, &sf, THREADS, 0, 500, cs);
	snprintf(want, sizeof(want), "%s: WAL flush: %s", wal_path("wal-eio"),
		 strerror(EIO));
	for (i = 0; i < THREADS; i++) {
		assert_int_equal(cs[i].last_rc, -EIO);
		assert_string_equal(cs[i].err.msg, want);
		assert_int_equal(cs[i].early, 0);
	}
	iosim_wal_get_stats(&wal, &st);
	calls = atomic_load(&sf.calls);
	/* the third flush failed; nobody flushed after it */
	assert_int_equal(calls, 3);
	assert_int_equal(st.flushes, 3);
	/* only what the two good flushes covered was committed */
	assert_true(st.commits * 500 <= atomic_load(&sf.durable));
	/* later commits and appends fail at once, with no flush */
	assert_int_equal(iosim_wal_commit(&wal, 10, NULL, &err), -EIO);
	assert_string_equal(err.msg, want);
	assert_int_equal(iosim_wal_append(&wal, 10, &err), -EIO);
	assert_int_equal(atomic_load(&sf.calls), 3);
	iosim_wal_close(&wal);
}

static void test_ring_and_pages(void **state)
{
	struct iosim_wal_stats st;
	struct iosim_wal wal;
	struct err err;
	struct stat sb;
	uint64_t end;
	int i;

	(void)state;
	/* the real fdatasync, a ring smaller than what is written */
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-ring"),
					IOSIM_WAL_RING_MIN, NULL, NULL, &err),
			 0);
	for (i = 0; i < 30; i++)
		assert_int_equal(iosim_wal_commit(&wal, 10000, &end, &err), 0);
	assert_int_equal(end, 300000);
	iosim_wal_get_stats(&wal, &st);
	assert_int_equal(st.flushes, 30);
	assert_int_equal(st.write_bytes % IOSIM_WAL_PAGE_BYTES, 0);
	/* each flush rewrites the partial page the last one ended in */
	assert_true(st.write_bytes > st.bytes);
	assert_int_equal(stat(wal_path("wal-ring"), &sb), 0);
	assert_int_equal(sb.st_size, IOSIM_WAL_RING_MIN);
	iosim_wal_close(&wal);
	/* opening it again keeps the file as it is */
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-ring"),
					IOSIM_WAL_RING_MIN, NULL, NULL, &err),
			 0);
	iosim_wal_close(&wal);
	assert_int_equal(stat(wal_path("wal-ring"), &sb), 0);
	assert_int_equal(sb.st_size, IOSIM_WAL_RING_MIN);
}

static void test_append_then_commit(void **state)
{
	struct slow_flush sf = {0};
	struct iosim_wal_stats st;
	struct iosim_wal wal;
	struct err err;
	uint64_t end;

	(void)state;
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-append"), 1 << 20,
					slow_flush, &sf, &err),
			 0);
	assert_int_equal(iosim_wal_append(&wal, 5000, &err), 0);
	assert_int_equal(atomic_load(&sf.calls), 0);
	assert_int_equal(iosim_wal_commit(&wal, 100, &end, &err), 0);
	/* the commit's flush covered the rollback's bytes before it */
	assert_int_equal(end, 5100);
	assert_int_equal(atomic_load(&sf.durable), 5100);
	iosim_wal_get_stats(&wal, &st);
	assert_int_equal(st.appends, 1);
	assert_int_equal(st.commits, 1);
	assert_int_equal(st.flushes, 1);
	/* a commit of nothing new still waits for nothing */
	assert_int_equal(iosim_wal_commit(&wal, 0, &end, &err), 0);
	assert_int_equal(end, 5100);
	iosim_wal_close(&wal);
}

static void test_bad_open(void **state)
{
	struct iosim_wal wal;
	struct err err;

	(void)state;
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-bad"), 100000, NULL,
					NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "a WAL ring of 100000 bytes"));
	iosim_wal_close(&wal);
	assert_int_equal(iosim_wal_open(&wal, wal_path("wal-bad"), 8192, NULL,
					NULL, &err),
			 -EINVAL);
	iosim_wal_close(&wal);
	assert_int_equal(iosim_wal_open(&wal, wal_path("no/such/wal"), 1 << 20,
					NULL, NULL, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "cannot open"));
	assert_non_null(strstr(err.msg, "no/such/wal"));
	iosim_wal_close(&wal);
	assert_int_equal(access(wal_path("wal-bad"), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_commit),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_flush_error),
		cmocka_unit_test(test_ring_and_pages),
		cmocka_unit_test(test_append_then_commit),
		cmocka_unit_test(test_bad_open),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
