/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mixlog.h - writing mix.csv, one row per transaction, from many worker
 * threads without a lock per transaction.
 *
 * Each worker formats its rows by hand (no printf: this is the hot path)
 * into its own buffer; only when the buffer is nearly full does it take
 * the file's mutex and write() the whole buffer at once. Rows of different
 * workers therefore come in chunks, not in time order. The file is
 * written as DIR/mix.csv.tmp and renamed to DIR/mix.csv by
 * mixlog_commit() (src/base/atomic_file.h), so a mix.csv that exists is
 * complete.
 *
 * Row: t_ms,terminal,type,status,response_us,service_us (docs/formats.md).
 */
#ifndef OLTPMARK_MIXLOG_H
#define OLTPMARK_MIXLOG_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "src/base/atomic_file.h"
#include "src/base/err.h"
#include "src/base/mixcsv_format.h"
#include "src/base/txn.h"

#define MIXLOG_HEADER MIXCSV_HEADER "\n" /* src/base/mixcsv_format.h */
#define MIXLOG_ROW_MAX \
	128 /* longest row: 4 numbers of <= 20 digits and
			      two words */

/* The shared file. */
struct mixlog {
	struct atomic_file file; /* DIR/mix.csv through mix.csv.tmp; its
				    fd is -1 when closed */
	pthread_mutex_t lock;	 /* serializes write() of whole buffers */
	int error;	/* first errno of a failed write (under lock) */
	uint64_t bytes; /* bytes of whole rows in the file (under lock) */
	uint64_t rows;	/* rows in the file, header excluded (under lock) */
};

/* One worker's buffer of formatted rows. */
struct mixlog_buf {
	struct mixlog *log; /* where full buffers go */
	char *buf;	    /* cap bytes */
	size_t len;	    /* bytes of rows not yet written */
	size_t cap;	    /* size of buf */
	uint64_t rows;	    /* rows added through this buffer */
	uint64_t rows_out;  /* of those, rows handed to the file or dropped */
};

/* A word of a row with its comma, and its length. */
struct mixlog_word {
	const char *text; /* "new_order," */
	size_t len;	  /* strlen(text) */
};

extern const struct mixlog_word mixlog_type_words[TXN_NR];
extern const struct mixlog_word mixlog_status_words[TXN_STATUS_NR];

/*
 * Create DIR/mix.csv.tmp (replacing a stale one) and write the header.
 * 0, or negative errno with err set.
 */
int mixlog_open(struct mixlog *log, const char *dir, struct err *err);

/*
 * Close the file and rename it to DIR/mix.csv. Every buffer must have
 * been flushed. 0, or negative errno (also when a write failed earlier)
 * with err set. After a failed write the file is still renamed: it holds
 * the whole rows written before the failure (log->rows of them), which
 * are data, and a reader can use them.
 */
int mixlog_commit(struct mixlog *log, struct err *err);

/* Close and remove the temporary file (a run that never started). */
void mixlog_abort(struct mixlog *log);

/* A buffer of cap bytes (at least 4 * MIXLOG_ROW_MAX). 0 or -ENOMEM. */
int mixlog_buf_init(struct mixlog_buf *b, struct mixlog *log, size_t cap);

/* Free a buffer (flush it first). Safe on a zeroed struct. */
void mixlog_buf_free(struct mixlog_buf *b);

/*
 * Write the buffered rows to the file under its mutex. 0, or the negative
 * errno of the first failed write (the rows are then dropped and the
 * file's error is set). A write that fails part-way (ENOSPC, EFBIG) is cut
 * back to the end of the last whole buffer, so the file never ends in
 * half a row; every later flush drops its rows. Thread-safe across
 * buffers.
 */
int mixlog_flush(struct mixlog_buf *b);

/* Digits of v, most significant first, at p; returns the end. */
static inline char *mixlog_put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/*
 * Append one row. Negative values are written as 0 (they cannot occur
 * with a monotonic clock). Returns 0, or the negative errno of a flush
 * that failed. Not thread-safe: one buffer per worker.
 */
static inline int mixlog_add(struct mixlog_buf *b, int64_t t_ms, int terminal,
			     enum txn_type type, enum txn_status status,
			     int64_t response_us, int64_t service_us)
{
	const struct mixlog_word *tw = &mixlog_type_words[type];
	const struct mixlog_word *sw = &mixlog_status_words[status];
	char *p;
	int rc = 0;

	if (b->cap - b->len < MIXLOG_ROW_MAX)
		rc = mixlog_flush(b);
	p = b->buf + b->len;
	p = mixlog_put_u64(p, t_ms > 0 ? (uint64_t)t_ms : 0);
	*p++ = ',';
	p = mixlog_put_u64(p, terminal > 0 ? (uint64_t)terminal : 0);
	*p++ = ',';
	memcpy(p, tw->text, tw->len);
	p += tw->len;
	memcpy(p, sw->text, sw->len);
	p += sw->len;
	p = mixlog_put_u64(p, response_us > 0 ? (uint64_t)response_us : 0);
	*p++ = ',';
	p = mixlog_put_u64(p, service_us > 0 ? (uint64_t)service_us : 0);
	*p++ = '\n';
	b->len = (size_t)(p - b->buf);
	b->rows++;
	return rc;
}

#endif
