/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * driver.h - the database interface. A driver is one const table of
 * function pointers (fio's ioengines), looked up by name; terminals reach
 * the database only through it. For `oltpmark run`, adding a database is
 * one new file and one line in drivers/registry.c; docs/drivers.md lists
 * what the loader, the schema and run/ need besides.
 *
 * The split of work: a driver runs one attempt at a transaction and says
 * how it ended (enum driver_outcome), classified by what its database
 * reports (for PostgreSQL: SQLSTATE and connection status, never message
 * text). Everything that is not about one database stays in the engine
 * (terminals/retry.c, terminals/worker.c): checking the input, running an
 * attempt again after DRIVER_RETRY, reconnecting with backoff after
 * DRIVER_LOST, counting.
 *
 * Threading: a struct driver_conn belongs to one worker thread at a time.
 * What the connections of one run share (the iosim driver's files, its
 * WAL and its checkpointer) is a struct driver_instance: the command
 * opens it with driver_instance_open() before the run and closes it after
 * (a driver without shared state has neither op, and its instance is
 * NULL); connect() finds it in struct driver_config. The engine never
 * sees it, so terminals stay unaware of which driver runs.
 */
#ifndef OLTPMARK_DRIVER_H
#define OLTPMARK_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "src/base/err.h"
#include "src/base/txn.h"

/*
 * 2: execute (with retries inside) became attempt (one try, classified).
 * 3: the optional instance_open/instance_close, and driver_config's
 *    instance and iosim options.
 * 4: the optional server_clock, for the clock offset of several drivers.
 * 5: the optional backend_pid, for the backends' CPU per transaction.
 */
#define DRIVER_INTERFACE_VERSION 5

/* How the pgsql driver runs a transaction. */
enum driver_tx_mode {
	DRIVER_TX_PROCEDURE, /* one call of the schema's PL/pgSQL function */
	DRIVER_TX_SQL,	     /* client-side statements in BEGIN/COMMIT */
	DRIVER_TX_NR
};

/* How the iosim driver reads its relation files. */
enum driver_io_mode {
	DRIVER_IO_BUFFERED, /* through the page cache: the cached config */
	DRIVER_IO_DIRECT,   /* O_DIRECT: every read reaches the device, as
			       PostgreSQL's misses did (non-cached) */
	DRIVER_IO_NR
};

/* What a run shares between its connections; each driver defines its own. */
struct driver_instance;

/* What a connection (and an instance) is opened with. */
struct driver_config {
	const char *conninfo;	     /* libpq conninfo, NULL: PG* environment */
	enum driver_tx_mode tx_mode; /* procedure or sql */
	int warehouses;		     /* the run's W (0: not known); lets
					instance_open refuse a W its data
					does not hold */
	const char *profile;	     /* iosim: the I/O profile (a path) */
	const char *data_dir;	     /* iosim: the prepared relation files */
	enum driver_io_mode io_mode; /* iosim: direct or buffered */
	struct driver_instance *instance; /* from driver_instance_open();
					     NULL for a driver without */
};

/* How one attempt at a transaction ended. */
enum driver_outcome {
	DRIVER_DONE,  /* finished: out->status is ok or rollback */
	DRIVER_RETRY, /* rolled back by a conflict with another transaction
			 that running it again may pass (PostgreSQL: 40001
			 serialization failure, 40P01 deadlock); out's
			 sqlstate and message say which. The session is
			 ready for the next attempt */
	DRIVER_ERROR, /* failed and rolled back; out's sqlstate and message
			 say why. The session is ready for the next
			 transaction */
	DRIVER_LOST,  /* the connection is gone (whether the transaction
			 committed may be unknown); out->message says why.
			 The connection is unusable until reconnect */
	DRIVER_OUTCOME_NR
};

/* What the loader recorded in oltpmark_meta. */
struct driver_db_info {
	bool has_meta;	   /* oltpmark_meta exists and has its row */
	char status[16];   /* "loading" or "loaded" */
	int warehouses;	   /* warehouses loaded */
	int c_load_c_last; /* C-Load of NURand(255,0,999) */
	char version[32];  /* oltpmark version that loaded it */
};

/*
 * Server counters sampled at the start and the end of the measured
 * interval; their differences go to run.json ("server_stats"). -1 where
 * the driver cannot tell.
 */
struct driver_stats {
	long long blks_hit;	      /* pg_stat_database: buffer hits */
	long long blks_read;	      /* pg_stat_database: blocks read from the
				       kernel (page cache or device) */
	long long xact_commit;	      /* pg_stat_database */
	long long xact_rollback;      /* pg_stat_database */
	long long checkpoints_timed;  /* pg_stat_bgwriter (checkpointer) */
	long long checkpoints_req;    /* requested (forced) checkpoints */
	long long buffers_checkpoint; /* buffers written by checkpoints */
	long long wal_bytes;	      /* WAL bytes generated (iosim: appended
				       to its log; pgsql: not sampled) */
};

/* A driver's open connection; each driver defines its own. */
struct driver_conn;

/* One driver. */
struct driver_ops {
	const char *name; /* "pgsql", "null", "iosim" */
	int version;	  /* DRIVER_INTERFACE_VERSION it was built for */

	/*
	 * Optional (NULL: the driver shares nothing between connections).
	 * Open what every connection of one run shares, from cfg (whose
	 * instance is ignored). 0 with *inst set, or negative with err set
	 * to one line: -ENOENT, -EBADMSG, -EINVAL, -ERANGE, -EROFS, -ENOSPC
	 * for bad input (the command exits 2), others for a failure.
	 * Called once, before any connect; not thread-safe.
	 */
	int (*instance_open)(const struct driver_config *cfg,
			     struct driver_instance **inst, struct err *err);

	/*
	 * Optional. Stop what the instance runs and free it, after every
	 * connection is closed. 0, or negative with err set when a
	 * background failure (a write-back that failed) surfaced only
	 * now. Safe on NULL.
	 */
	int (*instance_close)(struct driver_instance *inst, struct err *err);

	/* Open a connection. 0, or negative with err set (no password in it). */
	int (*connect)(const struct driver_config *cfg,
		       struct driver_conn **conn, struct err *err);

	/*
	 * Attempt one transaction once. in has been checked by the engine
	 * (retry_check_input: a known type, 1..15 order lines, C_LAST
	 * terminated); out was zeroed by the engine. On DRIVER_DONE the
	 * driver sets out->status (ok or rollback) and the results of the
	 * profile (o_id, delivered, skipped, low_stock); otherwise it sets
	 * out->sqlstate (its database's error code, "" when it has none)
	 * and out->message (one line), and the engine sets the status and
	 * clears the results. It never retries and never sleeps: the engine
	 * decides (terminals/retry.c).
	 */
	enum driver_outcome (*attempt)(struct driver_conn *conn,
				       const struct txn_input *in,
				       struct txn_output *out);

	/*
	 * Re-open a lost connection once, with the same parameters. 0, or
	 * negative with err set; the engine calls it again with backoff.
	 */
	int (*reconnect)(struct driver_conn *conn, struct err *err);

	/* Close and free. Safe on NULL. */
	void (*disconnect)(struct driver_conn *conn);

	/* Read oltpmark_meta. 0, or negative with err set. */
	int (*db_info)(struct driver_conn *conn, struct driver_db_info *info,
		       struct err *err);

	/*
	 * Add facts about the server to a JSON object for meta.json: version,
	 * settings that matter, database size, postmaster PID and data
	 * directory when visible. Never a password.
	 */
	int (*describe)(struct driver_conn *conn, json_t *server,
			struct err *err);

	/*
	 * Sample the server counters of struct driver_stats (for the current
	 * database). Called on a connection of its own, outside the workers.
	 */
	int (*stats)(struct driver_conn *conn, struct driver_stats *stats,
		     struct err *err);
	/*
	 * Optional (NULL: no server clock of its own, as null and iosim,
	 * whose "server" is this process). The server's wall clock now, in
	 * microseconds since the epoch: what the offset of this driver's
	 * clock against the server's is measured with (terminals/clockoff.h).
	 * Called on the monitoring connection, before the workers start.
	 * 0, or negative with err set.
	 */
	int (*server_clock)(struct driver_conn *conn, int64_t *unix_us,
			    struct err *err);
	/*
	 * Optional (NULL: no server process of its own, as null and
	 * iosim). The process ID, on the server's host, of the process
	 * serving conn (PostgreSQL: its backend), 0 when not connected.
	 * The engine reads that process's scheduler figures around each
	 * transaction when it is a child of the run's postmaster on this
	 * host (src/base/schedstat.h). Called by the connection's worker
	 * after connect and after each reconnect; cheap (no round trip).
	 */
	int (*backend_pid)(struct driver_conn *conn);
};

/*
 * ops->instance_open(cfg, inst, err) when the driver has one, else
 * *inst = NULL and 0. The caller puts *inst into cfg->instance for the
 * connections.
 */
int driver_instance_open(const struct driver_ops *ops,
			 const struct driver_config *cfg,
			 struct driver_instance **inst, struct err *err);

/* ops->instance_close(inst, err) when it has one; 0 otherwise. */
int driver_instance_close(const struct driver_ops *ops,
			  struct driver_instance *inst, struct err *err);

/* The driver called name, or NULL. */
const struct driver_ops *driver_find(const char *name);

/* NULL-terminated list of driver names, for --help and errors. */
extern const char *const driver_names[];

/*
 * The same names as one string, each after a bar ("|pgsql|null|iosim"),
 * and as --driver's argument in --help shows them ("pgsql|null|iosim"):
 * an address constant, so an options table can hold it.
 */
extern const char driver_names_bars[];
#define DRIVER_NAMES_HELP (driver_names_bars + 1)

#endif
