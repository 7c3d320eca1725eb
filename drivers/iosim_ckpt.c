/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_ckpt.c - the dirty-page set and its writing thread
 * (iosim_ckpt.h).
 *
 * Pacing: page k of the run is due at start + k / pages_per_s; the
 * thread sleeps until a page is due (on a condition variable, so that
 * stopping wakes it) and writes it. A thread that fell behind (a slow
 * device) catches up by at most IOSIM_CKPT_BURST_S of pages, as a
 * checkpointer that is late does not write faster than it can.
 */
#include "drivers/iosim_ckpt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/base/clock.h"

#define IOSIM_CKPT_ALIGN 4096 /* O_DIRECT's buffer alignment */

int iosim_ckpt_init(struct iosim_ckpt *c, int nfiles, const int *fds,
		    const uint64_t *pages, double pages_per_s, struct err *err)
{
	pthread_condattr_t attr;
	void *buf;
	int i;

	memset(c, 0, sizeof(*c));
	if (nfiles < 1 || !(pages_per_s >= 0))
		return err_set(err, -EINVAL,
			       "checkpointer: %d files at %g pages/s", nfiles,
			       pages_per_s);
	c->pages_per_s = pages_per_s;
	c->file = calloc((size_t)nfiles, sizeof(*c->file));
	if (!c->file)
		return err_set(err, -ENOMEM, "checkpointer: out of memory");
	c->nfiles = nfiles;
	for (i = 0; i < nfiles; i++) {
		struct iosim_ckpt_file *f = &c->file[i];

		f->fd = fds[i];
		f->pages = pages[i];
		f->words = (size_t)((pages[i] + 63) / 64);
		f->bits = calloc(f->words ? f->words : 1, sizeof(*f->bits));
		if (!f->bits) {
			iosim_ckpt_free(c);
			return err_set(err, -ENOMEM,
				       "checkpointer: out of memory for %llu "
				       "pages",
				       (unsigned long long)pages[i]);
		}
	}
	if (posix_memalign(&buf, IOSIM_CKPT_ALIGN, IOSIM_CKPT_PAGE_BYTES)) {
		iosim_ckpt_free(c);
		return err_set(err, -ENOMEM, "checkpointer: out of memory");
	}
	/* what a page holds does not matter; that it is not zeros might */
	memset(buf, 0xc3, IOSIM_CKPT_PAGE_BYTES);
	c->buf = buf;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&c->wake, &attr);
	pthread_condattr_destroy(&attr);
	return 0;
}

bool iosim_ckpt_mark(struct iosim_ckpt *c, int file, uint64_t page)
{
	uint64_t bit, old;

	if (file < 0 || file >= c->nfiles || page >= c->file[file].pages)
		return false;
	bit = 1ULL << (page % 64);
	old = atomic_fetch_or_explicit(&c->file[file].bits[page / 64], bit,
				       memory_order_relaxed);
	if (old & bit)
		return false;
	atomic_fetch_add_explicit(&c->dirty, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&c->marked, 1, memory_order_relaxed);
	return true;
}

/* Seconds on CLOCK_MONOTONIC. */
static double iosim_ckpt_now(void)
{
	return (double)clock_mono_us() / 1e6;
}

/*
 * Sleep until the monotonic time until (seconds), or until stopped.
 * Returns true when the thread must stop.
 */
static bool iosim_ckpt_sleep(struct iosim_ckpt *c, double until)
{
	struct timespec ts;
	bool stop;

	ts.tv_sec = (time_t)until;
	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&c->lock);
	while (!c->stop && iosim_ckpt_now() < until)
		if (pthread_cond_timedwait(&c->wake, &c->lock, &ts) ==
		    ETIMEDOUT)
			break;
	stop = c->stop;
	pthread_mutex_unlock(&c->lock);
	return stop;
}

/* Record the thread's failure; it ends the thread. */
static void iosim_ckpt_fail(struct iosim_ckpt *c, int rc, const char *what,
			    int file)
{
	pthread_mutex_lock(&c->lock);
	c->error = rc;
	err_set(&c->error_why, rc, "checkpointer: %s of file %d: %s", what,
		file, strerror(-rc));
	pthread_mutex_unlock(&c->lock);
}

/* pwrite one page. 0 or -errno. */
static int iosim_ckpt_write(struct iosim_ckpt *c, int fd, uint64_t page)
{
	ssize_t n;

	do
		n = pwrite(fd, c->buf, IOSIM_CKPT_PAGE_BYTES,
			   (off_t)(page * IOSIM_CKPT_PAGE_BYTES));
	while (n < 0 && errno == EINTR);
	if (n == IOSIM_CKPT_PAGE_BYTES)
		return 0;
	return n < 0 ? -errno : -EIO;
}

/*
 * One pass over the set: take each word's dirty bits, write their pages
 * as they fall due, then fsync the files written. *due is the time the
 * next page is due. Returns 1 when told to stop, 0 when the pass ended,
 * -errno after a failure (recorded).
 */
static int iosim_ckpt_sweep(struct iosim_ckpt *c, double *due)
{
	double interval = 1.0 / c->pages_per_s, now;
	uint64_t word, page;
	bool *wrote, any = false;
	size_t w;
	int f, rc = 0;

	wrote = calloc((size_t)c->nfiles, sizeof(*wrote));
	if (!wrote) {
		iosim_ckpt_fail(c, -ENOMEM, "memory", 0);
		return -ENOMEM;
	}
	for (f = 0; f < c->nfiles && rc == 0; f++) {
		struct iosim_ckpt_file *file = &c->file[f];

		for (w = 0; w < file->words && rc == 0; w++) {
			if (!atomic_load_explicit(&file->bits[w],
						  memory_order_relaxed))
				continue;
			word = atomic_exchange_explicit(&file->bits[w], 0,
							memory_order_relaxed);
			while (word && rc == 0) {
				page = w * 64 + (uint64_t)__builtin_ctzll(word);
				now = iosim_ckpt_now();
				if (now < *due && iosim_ckpt_sleep(c, *due))
					rc = 1;
				else
					rc = iosim_ckpt_write(c, file->fd,
							      page);
				if (rc != 0) {
					/* the pages not written stay dirty */
					atomic_fetch_or_explicit(
						&file->bits[w], word,
						memory_order_relaxed);
					if (rc < 0)
						iosim_ckpt_fail(c, rc, "write",
								f);
					break;
				}
				word &= word - 1;
				if (now - *due > IOSIM_CKPT_BURST_S)
					*due = now - IOSIM_CKPT_BURST_S;
				*due += interval;
				wrote[f] = any = true;
				atomic_fetch_sub_explicit(&c->dirty, 1,
							  memory_order_relaxed);
				atomic_fetch_add_explicit(&c->written, 1,
							  memory_order_relaxed);
			}
		}
	}
	/* the sync phase, as a checkpoint's: every file written */
	for (f = 0; f < c->nfiles && rc >= 0; f++) {
		if (!wrote[f])
			continue;
		if (fsync(c->file[f].fd) < 0) {
			rc = -errno;
			iosim_ckpt_fail(c, rc, "fsync", f);
			break;
		}
		atomic_fetch_add_explicit(&c->syncs, 1, memory_order_relaxed);
	}
	if (any)
		atomic_fetch_add_explicit(&c->sweeps, 1, memory_order_relaxed);
	free(wrote);
	return rc;
}

static void *iosim_ckpt_main(void *arg)
{
	struct iosim_ckpt *c = arg;
	double due = iosim_ckpt_now();

	for (;;) {
		if (c->pages_per_s <= 0 ||
		    atomic_load_explicit(&c->dirty, memory_order_relaxed) ==
			    0) {
			if (iosim_ckpt_sleep(c, iosim_ckpt_now() +
							IOSIM_CKPT_IDLE_MS /
								1000.0))
				break;
			continue;
		}
		if (iosim_ckpt_sweep(c, &due) != 0)
			break;
	}
	return NULL;
}

int iosim_ckpt_start(struct iosim_ckpt *c, struct err *err)
{
	int rc;

	c->stop = false;
	rc = pthread_create(&c->thread, NULL, iosim_ckpt_main, c);
	if (rc)
		return err_set(err, -rc, "cannot start the checkpointer: %s",
			       strerror(rc));
	c->running = true;
	return 0;
}

int iosim_ckpt_stop(struct iosim_ckpt *c, struct err *err)
{
	if (!c->running)
		return 0;
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_broadcast(&c->wake);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	c->running = false;
	if (c->error)
		return err_set(err, c->error, "%s", c->error_why.msg);
	return 0;
}

void iosim_ckpt_get_stats(struct iosim_ckpt *c, struct iosim_ckpt_stats *s)
{
	s->marked = atomic_load(&c->marked);
	s->written = atomic_load(&c->written);
	s->syncs = atomic_load(&c->syncs);
	s->sweeps = atomic_load(&c->sweeps);
	s->dirty = atomic_load(&c->dirty);
}

void iosim_ckpt_free(struct iosim_ckpt *c)
{
	int i;

	if (c->running)
		iosim_ckpt_stop(c, NULL);
	if (c->buf) {
		/* the lock and the condition exist once buf does */
		pthread_cond_destroy(&c->wake);
		pthread_mutex_destroy(&c->lock);
		free(c->buf);
		c->buf = NULL;
	}
	for (i = 0; i < c->nfiles; i++)
		free(c->file[i].bits);
	free(c->file);
	c->file = NULL;
	c->nfiles = 0;
}
