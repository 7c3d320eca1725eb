/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mixlog.c - per-worker buffers of mix.csv rows and the one file they go
 * to (see mixlog.h).
 */
#include "terminals/mixlog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "src/base/fdio.h"

#define WORD(s)                  \
	{                        \
		s, sizeof(s) - 1 \
	}

/*
 * The words of src/base/mixcsv_format.h, each followed by the comma of the
 * next column.
 */
const struct mixlog_word mixlog_type_words[TXN_NR] = {
	[TXN_NEW_ORDER] = WORD(MIXCSV_WORD_NEW_ORDER ","),
	[TXN_PAYMENT] = WORD(MIXCSV_WORD_PAYMENT ","),
	[TXN_ORDER_STATUS] = WORD(MIXCSV_WORD_ORDER_STATUS ","),
	[TXN_DELIVERY] = WORD(MIXCSV_WORD_DELIVERY ","),
	[TXN_STOCK_LEVEL] = WORD(MIXCSV_WORD_STOCK_LEVEL ","),
};

/* The status words of src/base/mixcsv_format.h, each with its comma. */
const struct mixlog_word mixlog_status_words[TXN_STATUS_NR] = {
	[TXN_STATUS_OK] = WORD(MIXCSV_WORD_OK ","),
	[TXN_STATUS_ROLLBACK] = WORD(MIXCSV_WORD_ROLLBACK ","),
	[TXN_STATUS_ERROR] = WORD(MIXCSV_WORD_ERROR ","),
};

int mixlog_open(struct mixlog *log, const char *dir, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	log->file.fd = -1;
	log->error = 0;
	log->bytes = 0;
	log->rows = 0;
	if (snprintf(path, sizeof(path), "%s/mix.csv", dir) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG,
			       "result directory name too long: %s", dir);
	rc = pthread_mutex_init(&log->lock, NULL);
	if (rc)
		return err_set(err, -rc, "mix.csv: cannot create a mutex");
	rc = atomic_file_open(&log->file, path, err);
	if (rc < 0) {
		pthread_mutex_destroy(&log->lock);
		return rc;
	}
	rc = fdio_write_all(log->file.fd, MIXLOG_HEADER,
			    sizeof(MIXLOG_HEADER) - 1);
	if (rc < 0) {
		err_set(err, rc, "cannot write %s: %s", log->file.tmp,
			strerror(-rc));
		mixlog_abort(log);
		return rc;
	}
	log->bytes = sizeof(MIXLOG_HEADER) - 1;
	return 0;
}

int mixlog_commit(struct mixlog *log, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	if (log->file.fd < 0)
		return err_set(err, -EBADF, "mix.csv is not open");
	snprintf(path, sizeof(path), "%s", log->file.path);
	pthread_mutex_destroy(&log->lock);
	/* a short file is still every row we have: keep it even on error */
	rc = atomic_file_close(&log->file, 0, err);
	if (log->error && rc == 0)
		rc = err_set(err, -log->error,
			     "cannot write %s: %s (the %llu rows written "
			     "before are kept)",
			     path, strerror(log->error),
			     (unsigned long long)log->rows);
	return rc;
}

void mixlog_abort(struct mixlog *log)
{
	if (log->file.fd < 0)
		return;
	atomic_file_abort(&log->file);
	pthread_mutex_destroy(&log->lock);
}

int mixlog_buf_init(struct mixlog_buf *b, struct mixlog *log, size_t cap)
{
	if (cap < 4 * MIXLOG_ROW_MAX)
		cap = 4 * MIXLOG_ROW_MAX;
	b->log = log;
	b->len = 0;
	b->rows = 0;
	b->rows_out = 0;
	b->cap = cap;
	b->buf = malloc(cap);
	if (!b->buf)
		return -ENOMEM;
	/*
	 * Touch every page now: a buffer of a slow run fills for minutes,
	 * and each first touch would be a page fault inside the measured
	 * interval and resident memory that seems to grow (a leak to
	 * `make soak`, whose bound is 1 MiB). Not with zeros: the compiler
	 * may turn malloc + memset(0) into calloc, which leaves fresh pages
	 * untouched.
	 */
	memset(b->buf, '\n', cap);
	return 0;
}

void mixlog_buf_free(struct mixlog_buf *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
}

int mixlog_flush(struct mixlog_buf *b)
{
	struct mixlog *log = b->log;
	int rc = 0, cut;

	if (!b->len)
		return 0;
	pthread_mutex_lock(&log->lock);
	if (log->error) {
		rc = -log->error;
	} else {
		rc = fdio_write_all(log->file.fd, b->buf, b->len);
		if (rc < 0) {
			log->error = -rc;
			/*
			 * A full file system takes what fits of the buffer,
			 * then refuses: cut the file back to its last whole
			 * row, so that what was written before stays a file
			 * every reader accepts. Shrinking needs no space; if
			 * it fails anyway, the write's errno stays the one
			 * reported, as it is the cause.
			 */
			cut = ftruncate(log->file.fd, (off_t)log->bytes);
			(void)cut;
		} else {
			log->bytes += b->len;
			log->rows += b->rows - b->rows_out;
		}
	}
	pthread_mutex_unlock(&log->lock);
	b->len = 0;
	b->rows_out = b->rows;
	return rc;
}
