/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mixcsv.h - streaming reader of a run's mix.csv (one row per transaction:
 * t_ms,terminal,type,status,response_us,service_us).
 *
 * A report reads tens of millions of rows, so the reader fills one large
 * buffer with read() and parses integers by hand: memory stays the size of
 * the buffer whatever the row count (no mmap, whose mapped pages would
 * count in the process's resident set), and nothing is allocated per row.
 * A merged run's file (`oltpmark merge`) has a last column, host: the
 * reader takes either header, and skips the host after checking it.
 * The format is strict: the header line must be exactly one of those and
 * every row must parse, or the read fails naming the line. The one
 * exception is a last line without its newline, which is what a run
 * killed in the middle of a write leaves: it is dropped and counted.
 */
#ifndef OLTPMARK_ANALYSIS_MIXCSV_H
#define OLTPMARK_ANALYSIS_MIXCSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/base/err.h"
#include "src/base/mixcsv_format.h" /* MIXCSV_HEADER, the words */
#include "src/base/txn.h"

#define MIXCSV_BUF_SIZE (1 << 20) /* read buffer; also the longest line */
#define MIXCSV_PATH_MAX 512	  /* path kept for messages */

/* One transaction, as written by the engine. */
struct mixcsv_row {
	int64_t t_ms;		/* completion time, ms since run start */
	int64_t terminal;	/* terminal number */
	enum txn_type type;	/* which transaction */
	enum txn_status status; /* ok, rollback or error */
	uint64_t response_us;	/* due time to completion (Delivery:
				     queueing to completion of the
				     deferred execution) */
	uint64_t service_us;	/* send to reply */
};

/*
 * An open mix.csv. Owns its buffer and file descriptor: mixcsv_close()
 * releases them. Not thread-safe; one reader per thread.
 */
struct mixcsv_reader {
	int fd;			    /* the file, -1 when closed */
	char *buf;		    /* MIXCSV_BUF_SIZE bytes of input */
	size_t len;		    /* valid bytes in buf */
	size_t pos;		    /* next byte to parse in buf */
	bool eof;		    /* read() returned 0 */
	uint64_t line;		    /* number of the line last consumed
				     (1 = the header) */
	uint64_t rows;		    /* rows returned so far */
	uint64_t bytes;		    /* bytes consumed so far, header included */
	uint64_t truncated_lines;   /* 0 or 1: a last line without newline,
				     dropped */
	bool has_host;		    /* the header is MIXCSV_HEADER_HOST */
	char path[MIXCSV_PATH_MAX]; /* for messages */
};

/*
 * Open path and check its header. Returns 0; -ENOENT (or another open
 * errno) when it cannot be opened; -EBADMSG when the file is empty or its
 * first line is neither MIXCSV_HEADER nor MIXCSV_HEADER_HOST; -ENOMEM. On failure nothing is left
 * open. Messages start with the path.
 */
int mixcsv_open(struct mixcsv_reader *r, const char *path, struct err *err);

/*
 * Parse the next row into *row. Returns 1 with a row, 0 at the end of the
 * file, -EBADMSG for a line that does not parse (the message names the
 * line number and what is wrong), -EIO when read() fails.
 */
int mixcsv_next(struct mixcsv_reader *r, struct mixcsv_row *row,
		struct err *err);

/* Close the file and free the buffer. Safe to call twice. */
void mixcsv_close(struct mixcsv_reader *r);

#endif
