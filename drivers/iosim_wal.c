/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_wal.c - the write-ahead log with group commit (iosim_wal.h).
 *
 * One mutex and one condition variable: the work under the mutex is a
 * few additions, and the I/O (pwrite, fdatasync) is done by the leader
 * with the mutex released, so commits keep appending while it flushes.
 */
#include "drivers/iosim_wal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/iosim_files.h"
#include "src/base/fdio.h"

#define IOSIM_WAL_FILLER_BYTES (256 << 10) /* the most one pwrite writes */

int iosim_wal_fdatasync(int fd, uint64_t upto, void *arg)
{
	(void)upto;
	(void)arg;
	return fdatasync(fd) < 0 ? -errno : 0;
}

int iosim_wal_open(struct iosim_wal *w, const char *path, uint64_t ring_bytes,
		   iosim_wal_flush_fn flush, void *flush_arg, struct err *err)
{
	struct stat st;
	int rc;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	snprintf(w->path, sizeof(w->path), "%s", path);
	if (ring_bytes < IOSIM_WAL_RING_MIN ||
	    ring_bytes % IOSIM_WAL_PAGE_BYTES)
		return err_set(err, -EINVAL,
			       "%s: a WAL ring of %llu bytes: it must be a "
			       "multiple of %d of at least %d",
			       path, (unsigned long long)ring_bytes,
			       IOSIM_WAL_PAGE_BYTES, IOSIM_WAL_RING_MIN);
	w->ring_bytes = ring_bytes;
	w->flush = flush ? flush : iosim_wal_fdatasync;
	w->flush_arg = flush_arg;
	w->filler = malloc(IOSIM_WAL_FILLER_BYTES);
	if (!w->filler)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	/* a WAL record is never all zeros; neither is what we write */
	memset(w->filler, 0x5a, IOSIM_WAL_FILLER_BYTES);
	w->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		rc = -errno;
		iosim_wal_close(w);
		return err_set(err, rc, "cannot open %s: %s", path,
			       strerror(-rc));
	}
	if (fstat(w->fd, &st) < 0) {
		rc = -errno;
		iosim_wal_close(w);
		return err_set(err, rc, "%s: %s", path, strerror(-rc));
	}
	if ((uint64_t)st.st_size < ring_bytes) {
		rc = iosim_files_fill(w->fd, (uint64_t)st.st_size, ring_bytes,
				      path, err);
		if (rc < 0) {
			iosim_wal_close(w);
			return rc;
		}
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->flushed_cv, NULL);
	w->ready = true;
	return 0;
}

/*
 * Write the log positions [from, to) at their place in the ring, as the
 * whole pages that hold them. Returns 0 or -errno; *written gets the
 * bytes given to pwrite.
 */
static int iosim_wal_write(struct iosim_wal *w, uint64_t from, uint64_t to,
			   uint64_t *written)
{
	uint64_t pos, end, off, n;
	int rc;

	*written = 0;
	if (from >= to)
		return 0;
	pos = from - from % IOSIM_WAL_PAGE_BYTES;
	end = to + (IOSIM_WAL_PAGE_BYTES - to % IOSIM_WAL_PAGE_BYTES) %
			   IOSIM_WAL_PAGE_BYTES;
	/* more than the ring since the last flush: its last turn is what
	 * the file keeps */
	if (end - pos > w->ring_bytes)
		pos = end - w->ring_bytes;
	while (pos < end) {
		off = pos % w->ring_bytes;
		n = end - pos;
		if (n > w->ring_bytes - off)
			n = w->ring_bytes - off;
		if (n > IOSIM_WAL_FILLER_BYTES)
			n = IOSIM_WAL_FILLER_BYTES;
		rc = fdio_pwrite_all(w->fd, w->filler, (size_t)n, (off_t)off);
		if (rc < 0)
			return rc;
		pos += n;
		*written += n;
	}
	return 0;
}

/*
 * Lead one flush: write all that was appended since the last one and
 * flush it, for every commit waiting. Called and returns with w->lock
 * held; releases it during the I/O.
 */
static void iosim_wal_lead(struct iosim_wal *w)
{
	uint64_t from = w->flushed, to = w->insert, written;
	unsigned group = w->pending;
	const char *what = "write";
	bool flushed = false;
	int rc;

	w->pending = 0;
	w->flushing = true;
	pthread_mutex_unlock(&w->lock);
	rc = iosim_wal_write(w, from, to, &written);
	if (rc == 0) {
		what = "flush";
		rc = w->flush(w->fd, to, w->flush_arg);
		flushed = true;
	}
	pthread_mutex_lock(&w->lock);
	w->flushing = false;
	w->stats.flushes += flushed;
	w->stats.write_bytes += written;
	if (rc < 0) {
		w->error = rc;
		err_set(&w->error_why, rc, "%s: WAL %s: %s", w->path, what,
			strerror(-rc));
	} else {
		w->flushed = to;
		if (group > w->stats.max_group)
			w->stats.max_group = group;
	}
	pthread_cond_broadcast(&w->flushed_cv);
}

/* The log's failure into err; returns it. Called with w->lock held. */
static int iosim_wal_failed(struct iosim_wal *w, struct err *err)
{
	return err_set(err, w->error, "%s", w->error_why.msg);
}

int iosim_wal_commit(struct iosim_wal *w, uint64_t bytes, uint64_t *end_lsn,
		     struct err *err)
{
	uint64_t end;
	int rc = 0;

	pthread_mutex_lock(&w->lock);
	if (w->error) {
		rc = iosim_wal_failed(w, err);
		pthread_mutex_unlock(&w->lock);
		return rc;
	}
	w->insert += bytes;
	w->stats.bytes += bytes;
	end = w->insert;
	w->pending++;
	while (!w->error && w->flushed < end) {
		if (w->flushing)
			pthread_cond_wait(&w->flushed_cv, &w->lock);
		else
			iosim_wal_lead(w);
	}
	if (w->error)
		rc = iosim_wal_failed(w, err);
	else
		w->stats.commits++;
	pthread_mutex_unlock(&w->lock);
	if (end_lsn)
		*end_lsn = end;
	return rc;
}

int iosim_wal_append(struct iosim_wal *w, uint64_t bytes, struct err *err)
{
	int rc = 0;

	pthread_mutex_lock(&w->lock);
	if (w->error) {
		rc = iosim_wal_failed(w, err);
	} else {
		w->insert += bytes;
		w->stats.bytes += bytes;
		w->stats.appends++;
	}
	pthread_mutex_unlock(&w->lock);
	return rc;
}

void iosim_wal_get_stats(struct iosim_wal *w, struct iosim_wal_stats *stats)
{
	pthread_mutex_lock(&w->lock);
	*stats = w->stats;
	pthread_mutex_unlock(&w->lock);
}

void iosim_wal_close(struct iosim_wal *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	free(w->filler);
	w->filler = NULL;
	if (w->ready) {
		pthread_cond_destroy(&w->flushed_cv);
		pthread_mutex_destroy(&w->lock);
		w->ready = false;
	}
}
