/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checkpoints.h - the server's checkpoints during a run, from
 * DIR/sys/checkpoints.csv, which run/oltpmark-run takes from the server
 * log: "start_epoch,end_epoch,kind", wall-clock seconds (UTC, 3
 * decimals), kind being what follows "checkpoint starting:" ("time",
 * "wal", "immediate force wait").
 *
 * The report places them on the run's clock (seconds since the start of
 * the run) with meta.json's wall-clock start, marks them on the NOTPM
 * plot and lists them in the summary: a checkpoint is the usual reason
 * throughput dips in a cached run.
 */
#ifndef OLTPMARK_ANALYSIS_CHECKPOINTS_H
#define OLTPMARK_ANALYSIS_CHECKPOINTS_H

#include <stddef.h>

#include "src/base/err.h"

#define CKPT_HEADER   "start_epoch,end_epoch,kind"
#define CKPT_KIND_LEN 64 /* longest kind kept */

/* One checkpoint. */
struct ckpt {
	double start_s;		  /* started, s since the start of the run
				      (or since the epoch, before placing) */
	double end_s;		  /* completed, same clock */
	char kind[CKPT_KIND_LEN]; /* "time", "wal", "immediate force wait" */
};

/* The checkpoints of one file, sorted by start. Owns items. */
struct ckpt_list {
	struct ckpt *items; /* n checkpoints */
	size_t n;	    /* entries used */
	size_t cap;	    /* entries allocated */
};

/*
 * Read the checkpoints.csv at path into *out (times as in the file:
 * seconds since the epoch), sorted by start, then end, then kind. An
 * empty file, or one with the header only, gives an empty list. Messages
 * name the file as name (e.g. "sys/checkpoints.csv", so that they do not
 * depend on where the run directory is). -ENOENT when the file does not
 * exist; -EBADMSG, naming the line, for a header or row that does not
 * parse or a checkpoint that ends before it starts; -ENOMEM; -EIO. *out
 * is empty after a failure. The caller frees it with checkpoints_free().
 */
int checkpoints_parse_file(const char *path, const char *name,
			   struct ckpt_list *out, struct err *err);

/* The same from a string (for the tests); name is used in messages. */
int checkpoints_parse_text(const char *text, const char *name,
			   struct ckpt_list *out, struct err *err);

/*
 * Place the checkpoints on the run's clock: subtract start_epoch_s (when
 * the run started, seconds since the epoch) from every time, then keep
 * only those that overlap the run, [0, run_end_s]: one that ended before
 * the run started or started after it ended is dropped. Order is kept.
 */
void checkpoints_place(struct ckpt_list *l, double start_epoch_s,
		       double run_end_s);

/* Free the list. Safe on a zeroed one. */
void checkpoints_free(struct ckpt_list *l);

#endif
