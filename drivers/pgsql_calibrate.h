/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql_calibrate.h - what `oltpmark calibrate` reads from PostgreSQL to
 * write an I/O profile (drivers/iosim_profile.h): the buffer and WAL
 * counters of each transaction type's function (pg_stat_statements),
 * the blocks read per relation (pg_statio_user_tables/indexes), the
 * pages a phase left dirty per relation (pg_buffercache), the
 * background writers (pg_stat_bgwriter, pg_stat_wal) and each
 * relation's size, rows per page and tablespace. Partitions are summed
 * into their root, as the profile knows the schema's relations only.
 *
 * Every function takes an open connection (drivers/pgconn.h) and
 * returns 0 or a negative errno with err set to one line; none keeps
 * state.
 */
#ifndef OLTPMARK_PGSQL_CALIBRATE_H
#define OLTPMARK_PGSQL_CALIBRATE_H

#include <libpq-fe.h>

#include "drivers/iosim_profile.h"
#include "src/base/err.h"

/* Blocks per relation, from pg_statio_user_tables/indexes. */
struct pgsql_calibrate_statio {
	double read[IOSIM_PROFILE_REL_NR]; /* heap_blks_read, idx_blks_read */
	double hit[IOSIM_PROFILE_REL_NR];  /* heap_blks_hit, idx_blks_hit */
};

/* Cluster-wide counters of the background writers. */
struct pgsql_calibrate_bg {
	double buffers_checkpoint; /* pg_stat_bgwriter */
	double buffers_clean;	   /* " */
	double buffers_backend;	   /* " */
	double wal_write;	   /* pg_stat_wal */
	double wal_sync;	   /* " */
	double wal_bytes;	   /* ": every WAL byte the server wrote */
};

/*
 * Make the extensions the calibration reads available in the database
 * (CREATE EXTENSION IF NOT EXISTS pg_stat_statements, pg_buffercache)
 * and check that pg_stat_statements is loaded and tracks nested
 * statements. -ENOTSUP with a line saying what to set when it is not
 * (shared_preload_libraries; run/pg init sets it).
 */
int pgsql_calibrate_setup(PGconn *conn, struct err *err);

/* pg_stat_statements_reset(). */
int pgsql_calibrate_reset_statements(PGconn *conn, struct err *err);

/*
 * Per transaction type, the top-level calls of its function (procedure
 * mode: "SELECT * FROM new_order(...)", ...) since the last reset: calls,
 * shared blocks hit, read, dirtied, written, WAL records and bytes, into
 * txn[type] (commits = calls: a call that raised is not recorded). The
 * nested statements' counters are in the top-level call's. Shares are
 * left alone.
 */
int pgsql_calibrate_statements(PGconn *conn,
			       struct iosim_profile_txn txn[TXN_NR],
			       struct err *err);

/* A sample of pg_statio_user_tables and pg_statio_user_indexes. */
int pgsql_calibrate_statio(PGconn *conn, struct pgsql_calibrate_statio *s,
			   struct err *err);

/*
 * The main-fork buffers of each relation that are dirty now
 * (pg_buffercache), into dirty[].
 */
int pgsql_calibrate_dirty(PGconn *conn, double dirty[IOSIM_PROFILE_REL_NR],
			  struct err *err);

/* CHECKPOINT: every buffer clean, so a phase's dirty buffers are its own. */
int pgsql_calibrate_checkpoint(PGconn *conn, struct err *err);

/*
 * Wait (up to timeout_ms) until no backend of application_name app is
 * left: a backend flushes its statistics as it exits, so a sample taken
 * after sees all it did.
 */
int pgsql_calibrate_wait_gone(PGconn *conn, const char *app, int timeout_ms,
			      struct err *err);

/* A sample of pg_stat_bgwriter and pg_stat_wal. */
int pgsql_calibrate_background(PGconn *conn, struct pgsql_calibrate_bg *bg,
			       struct err *err);

/*
 * Each relation's size in pages and rows per page (from pg_class after
 * ANALYZE), and the layout (tablespaces, partitions) into prof. Runs
 * ANALYZE on the schema's tables first. -ENOENT when a relation of the
 * schema is missing.
 */
int pgsql_calibrate_relations(PGconn *conn, struct iosim_profile *prof,
			      struct err *err);

#endif
