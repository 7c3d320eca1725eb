/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load_copy.h - stream one table with COPY ... FREEZE from the generator
 * of load_gen.c. Internal to the loader (load.c); connections, statements
 * and error lines are drivers/pgconn.h's.
 */
#ifndef OLTPMARK_LOAD_COPY_H
#define OLTPMARK_LOAD_COPY_H

#include <stdatomic.h>
#include <stdint.h>

#include "drivers/pgconn.h"
#include "src/base/err.h"
#include "src/load/load.h"

/* What one COPY needs besides the connection. */
struct load_copy_job {
	const struct load_gen_params *params; /* the population */
	enum load_table table;		      /* whose rows */
	const char *relation;	/* the table or partition they go into */
	int w_first, w_last;	/* warehouses whose rows go in (item: 1, 1) */
	_Atomic int64_t *bytes; /* progress: add bytes sent */
	atomic_bool *failed;	/* set by another thread: give up soon */
};

/*
 * In one transaction: TRUNCATE job->relation, COPY it FROM STDIN with
 * FREEZE in job->params->format (binary, or text), generating the rows of
 * warehouses w_first..w_last into a 256 KiB buffer, and COMMIT. A
 * partition is a table of its own here: COPY goes straight into it, and
 * its FREEZE needs only its own TRUNCATE. TRUNCATE gives the table a
 * new file in this transaction, which is what lets FREEZE write the rows
 * already frozen and, with wal_level=minimal, lets the server skip WAL
 * for them. Returns 0, -EINTR when *failed was set (the COPY is aborted
 * and rolled back), or -EIO/-ENOMEM/-EINVAL with err set. Thread-safe
 * with one connection per thread.
 */
int load_copy_table(PGconn *conn, const struct load_copy_job *job,
		    struct err *err);

#endif
