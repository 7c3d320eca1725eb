/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mixlog.c - per-worker buffers of mix.csv rows and the one file they go
 * to (see mixlog.h).
 */
#include "terminals/mixlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WORD(s)                  \
	{                        \
		s, sizeof(s) - 1 \
	}

/* The names of src/base/txn.c, each followed by the comma of the next column. */
const struct mixlog_word mixlog_type_words[TXN_NR] = {
	[TXN_NEW_ORDER] = WORD("new_order,"),
	[TXN_PAYMENT] = WORD("payment,"),
	[TXN_ORDER_STATUS] = WORD("order_status,"),
	[TXN_DELIVERY] = WORD("delivery,"),
	[TXN_STOCK_LEVEL] = WORD("stock_level,"),
};

/* The words enum txn_status names in src/base/txn.h, each with its comma. */
const struct mixlog_word mixlog_status_words[TXN_STATUS_NR] = {
	[TXN_STATUS_OK] = WORD("ok,"),
	[TXN_STATUS_ROLLBACK] = WORD("rollback,"),
	[TXN_STATUS_ERROR] = WORD("error,"),
};

/* write() all of buf, across partial writes and EINTR. 0 or -errno. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int mixlog_open(struct mixlog *log, const char *dir, struct err *err)
{
	int rc;

	log->fd = -1;
	log->error = 0;
	log->bytes = 0;
	if (snprintf(log->path, sizeof(log->path), "%s/mix.csv", dir) >=
		    (int)sizeof(log->path) ||
	    snprintf(log->tmp_path, sizeof(log->tmp_path), "%s/mix.csv.tmp",
		     dir) >= (int)sizeof(log->tmp_path))
		return err_set(err, -ENAMETOOLONG,
			       "result directory name too long: %s", dir);
	rc = pthread_mutex_init(&log->lock, NULL);
	if (rc)
		return err_set(err, -rc, "mix.csv: cannot create a mutex");
	log->fd = open(log->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		       0644);
	if (log->fd < 0) {
		rc = -errno;
		pthread_mutex_destroy(&log->lock);
		return err_set(err, rc, "cannot create %s: %s", log->tmp_path,
			       strerror(-rc));
	}
	rc = write_all(log->fd, MIXLOG_HEADER, sizeof(MIXLOG_HEADER) - 1);
	if (rc < 0) {
		mixlog_abort(log);
		return err_set(err, rc, "cannot write %s: %s", log->tmp_path,
			       strerror(-rc));
	}
	log->bytes = sizeof(MIXLOG_HEADER) - 1;
	return 0;
}

int mixlog_commit(struct mixlog *log, struct err *err)
{
	int rc = 0;

	if (log->fd < 0)
		return err_set(err, -EBADF, "mix.csv is not open");
	if (log->error)
		rc = err_set(err, -log->error, "cannot write %s: %s",
			     log->tmp_path, strerror(log->error));
	if (close(log->fd) < 0 && !rc)
		rc = err_set(err, -errno, "cannot write %s: %s", log->tmp_path,
			     strerror(errno));
	log->fd = -1;
	pthread_mutex_destroy(&log->lock);
	/* a short file is still every row we have: keep it even on error */
	if (rename(log->tmp_path, log->path) < 0 && !rc)
		rc = err_set(err, -errno, "cannot rename %s: %s", log->tmp_path,
			     strerror(errno));
	return rc;
}

void mixlog_abort(struct mixlog *log)
{
	if (log->fd < 0)
		return;
	close(log->fd);
	log->fd = -1;
	pthread_mutex_destroy(&log->lock);
	unlink(log->tmp_path);
}

int mixlog_buf_init(struct mixlog_buf *b, struct mixlog *log, size_t cap)
{
	if (cap < 4 * MIXLOG_ROW_MAX)
		cap = 4 * MIXLOG_ROW_MAX;
	b->log = log;
	b->len = 0;
	b->rows = 0;
	b->cap = cap;
	b->buf = malloc(cap);
	return b->buf ? 0 : -ENOMEM;
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
	int rc = 0;

	if (!b->len)
		return 0;
	pthread_mutex_lock(&log->lock);
	if (log->error) {
		rc = -log->error;
	} else {
		rc = write_all(log->fd, b->buf, b->len);
		if (rc < 0)
			log->error = -rc;
		else
			log->bytes += b->len;
	}
	pthread_mutex_unlock(&log->lock);
	b->len = 0;
	return rc;
}
