/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgsql.c - the PostgreSQL driver (libpq): its ops table, connections,
 * the database's facts and the server's description. The helpers both
 * ways of running transactions share (text parameters, error
 * classification, pipelined batches) are pgsql_batch.c's. Connecting,
 * error lines and oltpmark_meta go through drivers/pgconn.h, the access
 * layer the loader and the check use too; retrying and reconnecting are
 * the engine's (terminals/retry.c, terminals/worker.c).
 * pgsql_proc.c runs each transaction as one call of the schema's PL/pgSQL
 * function, pgsql_sql.c as client-side statements; docs/drivers.md tells
 * the whole story.
 *
 * Errors are classified by SQLSTATE and PQstatus, never by message text.
 * Nothing here prints; --debug=driver logs failed attempts,
 * reconnections and server notices.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/pglayout.h"
#include "drivers/pgsql_internal.h"
#include "src/base/log.h"

/* The modes, indexed by enum driver_tx_mode. */
static const struct pgsql_mode *const pgsql_modes[DRIVER_TX_NR] = {
	[DRIVER_TX_PROCEDURE] = &pgsql_mode_procedure,
	[DRIVER_TX_SQL] = &pgsql_mode_sql,
};

/*
 * The server settings describe() records: those that change what a run
 * measures (memory, WAL and checkpoints, durability, connections, and
 * the plans: the warehouse layout sets plan_cache_mode, jit and
 * random_page_cost).
 */
static const char pgsql_settings_sql[] =
	"SELECT name, current_setting(name) FROM pg_settings "
	"WHERE name = ANY ('{shared_buffers,effective_cache_size,"
	"synchronous_commit,fsync,full_page_writes,wal_level,wal_buffers,"
	"max_wal_size,checkpoint_timeout,checkpoint_completion_target,"
	"max_connections,work_mem,huge_pages,data_checksums,jit,"
	"plan_cache_mode,random_page_cost}'::text[]) "
	"ORDER BY name";

/* ---- connections ----------------------------------------------------- */

static int pgsql_connect(const struct driver_config *cfg,
			 struct driver_conn **connp, struct err *err)
{
	struct driver_conn *conn;
	struct err why = {""};
	int rc;

	*connp = NULL;
	if ((unsigned)cfg->tx_mode >= DRIVER_TX_NR)
		return err_set(err, -EINVAL, "pgsql: bad transaction mode %d",
			       (int)cfg->tx_mode);
	conn = calloc(1, sizeof(*conn));
	if (!conn)
		return err_set(err, -ENOMEM, "pgsql: out of memory");
	conn->mode = pgsql_modes[cfg->tx_mode];
	conn->tx_mode = cfg->tx_mode;
	/* application_name oltpmark-run: monitoring filters on it */
	rc = pgconn_connect(cfg->conninfo, PGCONN_RUN, &conn->pg, &why);
	if (rc < 0) {
		free(conn);
		return err_set(err, rc, "pgsql: %s", why.msg);
	}
	/*
	 * Statements are prepared on first use, not here: connect must work
	 * on a database without the schema (so that db_info can say it is
	 * not loaded), and a missing function must fail only the
	 * transactions that call it, with the server's SQLSTATE.
	 */
	log_debug(LOG_CAT_DRIVER, "pgsql: connected, backend pid %d, %s mode",
		  PQbackendPID(conn->pg), conn->mode->name);
	*connp = conn;
	return 0;
}

static void pgsql_disconnect(struct driver_conn *conn)
{
	if (!conn)
		return;
	PQfinish(conn->pg);
	pgsql_routes_free(conn);
	free(conn);
}

/*
 * PQreset reopens the connection with the same parameters. The new
 * session has none of our prepared statements: they are prepared again
 * on first use, as after connect.
 */
static int pgsql_reconnect(struct driver_conn *conn, struct err *err)
{
	char line[ERR_MSG_MAX];

	conn->prepared = 0;
	pgsql_routes_unprepare(conn);
	conn->broken = false;
	PQreset(conn->pg);
	if (PQstatus(conn->pg) != CONNECTION_OK) {
		pgconn_error(NULL, conn->pg, line, sizeof(line));
		log_debug(LOG_CAT_DRIVER, "pgsql: reconnect failed: %s", line);
		return err_set(err, -ENOTCONN, "pgsql: cannot reconnect: %s",
			       line);
	}
	log_debug(LOG_CAT_DRIVER, "pgsql: reconnected, backend pid %d",
		  PQbackendPID(conn->pg));
	return 0;
}

/* ---- transactions ----------------------------------------------------- */

/*
 * One attempt at a transaction in the connection's mode. A session found
 * broken after the last transaction's COMMIT (pgsql_batch_lost) is
 * reported lost now. Each failed attempt goes to the debug log with its
 * SQLSTATE; what to do next is the engine's decision.
 */
static enum driver_outcome pgsql_attempt(struct driver_conn *conn,
					 const struct txn_input *in,
					 struct txn_output *out)
{
	static const char *const what[DRIVER_OUTCOME_NR] = {
		[DRIVER_RETRY] = "conflict",
		[DRIVER_ERROR] = "error",
		[DRIVER_LOST] = "connection lost",
	};
	enum driver_outcome oc;

	if (conn->broken) {
		pgsql_fail_lost(conn, out);
		oc = DRIVER_LOST;
	} else {
		oc = conn->mode->attempt(conn, in, out);
	}
	if (oc != DRIVER_DONE)
		log_debug(LOG_CAT_DRIVER, "pgsql: %s: %s %s %s",
			  txn_type_name(in->type), what[oc], out->sqlstate,
			  out->message);
	return oc;
}

/* ---- facts about the database ------------------------------------------ */

/*
 * Reset a connection found broken between transactions (say, the server
 * restarted): PQreset with the same parameters, statements prepared anew.
 */
static void pgsql_reset(struct driver_conn *conn, const char *what)
{
	log_debug(LOG_CAT_DRIVER, "pgsql: %s: connection lost, reset", what);
	conn->prepared = 0;
	pgsql_routes_unprepare(conn);
	conn->broken = false;
	PQreset(conn->pg);
}

/*
 * Run sql (no parameters); the result when its status is want, else NULL
 * with err set. These are idempotent reads outside any transaction, so a
 * connection found broken (say, the server restarted) is reset once and
 * the query run again.
 */
static PGresult *pgsql_query(struct driver_conn *conn, const char *sql,
			     ExecStatusType want, const char *what,
			     struct err *err)
{
	char line[ERR_MSG_MAX];
	PGresult *res;
	int tries;

	for (tries = 0;; tries++) {
		res = PQexec(conn->pg, sql);
		if (PQresultStatus(res) == want)
			return res;
		if (tries || PQstatus(conn->pg) != CONNECTION_BAD)
			break;
		PQclear(res);
		pgsql_reset(conn, what);
	}
	pgconn_error(res, conn->pg, line, sizeof(line));
	err_set(err, PQstatus(conn->pg) == CONNECTION_BAD ? -ENOTCONN : -EIO,
		"pgsql: %s: %s", what, line);
	PQclear(res);
	return NULL;
}

/* The errno code pgsql_query put in err, from the connection's state. */
static int pgsql_query_errno(struct driver_conn *conn)
{
	return PQstatus(conn->pg) == CONNECTION_BAD ? -ENOTCONN : -EIO;
}

/*
 * oltpmark_meta through the access layer, which check and
 * `check --meta` read it with too. No table or no row is an answer
 * (has_meta false), not an error. In procedure mode, oltpmark_routes
 * too (pgsql_route.c): a table that does not parse is an error.
 */
static int pgsql_db_info(struct driver_conn *conn, struct driver_db_info *info,
			 struct err *err)
{
	struct pgconn_meta meta;
	struct err why = {""};
	int rc;

	memset(info, 0, sizeof(*info));
	rc = pgconn_meta_read(conn->pg, &meta, &why);
	if (rc == -ENOTCONN) {
		pgsql_reset(conn, "reading oltpmark_meta");
		rc = pgconn_meta_read(conn->pg, &meta, &why);
	}
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return err_set(err, rc, "pgsql: %s", why.msg);
	info->has_meta = true;
	snprintf(info->status, sizeof(info->status), "%s", meta.status);
	info->warehouses = meta.warehouses;
	info->c_load_c_last = meta.c_load_c_last;
	snprintf(info->version, sizeof(info->version), "%s", meta.version);
	/* a damaged oltpmark_routes would fail every routed call: refuse
	 * the run before it starts, with the row at fault */
	if (conn->tx_mode == DRIVER_TX_PROCEDURE) {
		struct txn_output out;

		memset(&out, 0, sizeof(out));
		if (pgsql_routes_load(conn, &out) != DRIVER_DONE)
			return err_set(err, -ENODATA,
				       "pgsql: reading oltpmark_routes: %s",
				       out.message);
	}
	return 0;
}

/*
 * The postmaster's PID from DATA/postmaster.pid (PID, data directory,
 * start time in epoch seconds, port on its first four lines), accepted
 * only if the file names the same directory and port and a start time
 * within a minute of pg_postmaster_start_time(): a server on another
 * machine with the same paths must not lend us the PID of a local one.
 * 0 when unreadable or not ours.
 */
static long pgsql_pid_from_file(const char *datadir, long start_s, int port)
{
	char path[4096], dir[4096];
	long pid = 0, start = 0;
	int fport = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/postmaster.pid", datadir) >=
	    (int)sizeof(path))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%ld %4095s %ld %d", &pid, dir, &start, &fport) != 4)
		pid = 0;
	fclose(f);
	if (pid <= 0 || strcmp(dir, datadir) != 0 || fport != port ||
	    labs(start - start_s) > 60)
		return 0;
	return pid;
}

/* The line of /proc/PID/stat into buf: buf, or NULL when unreadable. */
static char *pgsql_proc_stat(long pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;
	char *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	p = fgets(buf, (int)size, f);
	fclose(f);
	return p;
}

/*
 * When the data directory is hidden (no pg_read_all_settings): our
 * backend's parent is the postmaster, if the backend runs on this
 * machine. Accepted only if /proc shows a process named postgres or
 * postmaster that started within a minute of pg_postmaster_start_time().
 * 0 otherwise.
 */
static long pgsql_pid_from_proc(int backend_pid, long start_s)
{
	char buf[1024], *p;
	unsigned long long start_ticks = 0, btime = 0;
	long ppid = 0, ticks = sysconf(_SC_CLK_TCK);
	FILE *f;
	int i;

	if (backend_pid <= 0 || ticks <= 0)
		return 0;
	p = pgsql_proc_stat(backend_pid, buf, sizeof(buf));
	/* "pid (comm) state ppid ...": comm may hold spaces, so from ')' */
	if (!p || !(p = strrchr(buf, ')')) ||
	    sscanf(p, ") %*c %ld", &ppid) != 1 || ppid <= 1)
		return 0;

	p = pgsql_proc_stat(ppid, buf, sizeof(buf));
	if (!p || (!strstr(buf, "(postgres)") && !strstr(buf, "(postmaster)")))
		return 0;
	p = strrchr(buf, ')');
	/* starttime is field 22; after ") " comes field 3 */
	for (i = 3; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", &start_ticks) != 1)
		return 0;

	f = fopen("/proc/stat", "re");
	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	if (!btime ||
	    llabs((long long)(btime + start_ticks / (unsigned long long)ticks) -
		  start_s) > 60)
		return 0;
	return ppid;
}

/* Where we are connected: a unix socket directory or a host, and port. */
static void pgsql_describe_address(struct driver_conn *conn, json_t *server)
{
	const char *host = PQhost(conn->pg), *port = PQport(conn->pg);

	if (host && host[0] == '/')
		json_object_set_new(server, "unix_socket", json_string(host));
	else if (host && host[0])
		json_object_set_new(server, "host", json_string(host));
	if (port && port[0])
		json_object_set_new(server, "port", json_integer(atoi(port)));
}

/*
 * "layout": where the relations of the loaded database are, down to the
 * block devices (drivers/pglayout.h), under the layout name the loader
 * recorded. A database without oltpmark_meta gets none.
 */
static int pgsql_describe_layout(struct driver_conn *conn, json_t *server,
				 struct err *err)
{
	struct pgconn_meta meta;
	struct err why = {""};
	json_t *layout;
	int rc;

	rc = pgconn_meta_read(conn->pg, &meta, &why);
	if (rc == -ENOENT)
		return 0;
	if (rc == 0)
		rc = pglayout_read(conn->pg,
				   meta.layout[0] ? meta.layout : "single",
				   "/sys", &layout, &why);
	if (rc < 0)
		return err_set(err, rc, "pgsql: %s", why.msg);
	json_object_set_new(server, "layout", layout);
	return 0;
}

static int pgsql_describe(struct driver_conn *conn, json_t *server,
			  struct err *err)
{
	const char *version = PQparameterStatus(conn->pg, "server_version");
	json_t *settings;
	PGresult *res;
	long start_s, pid = 0;
	int i, port, backend_pid;

	json_object_set_new(server, "driver", json_string("pgsql"));
	json_object_set_new(server, "tx_mode", json_string(conn->mode->name));
	if (conn->tx_mode == DRIVER_TX_PROCEDURE) {
		struct txn_output out;

		memset(&out, 0, sizeof(out));
		if (pgsql_routes_load(conn, &out) != DRIVER_DONE)
			return err_set(err, pgsql_query_errno(conn),
				       "pgsql: reading oltpmark_routes: %s",
				       out.message);
		/* how many partitions' functions the calls go to */
		json_object_set_new(server, "routes",
				    json_integer(conn->routes.n));
	}
	if (version)
		json_object_set_new(server, "version", json_string(version));
	json_object_set_new(server, "version_num",
			    json_integer(PQserverVersion(conn->pg)));
	pgsql_describe_address(conn, server);

	res = pgsql_query(conn, pgsql_settings_sql, PGRES_TUPLES_OK,
			  "reading settings", err);
	if (!res)
		return pgsql_query_errno(conn);
	settings = json_object();
	for (i = 0; i < PQntuples(res); i++)
		json_object_set_new(settings, PQgetvalue(res, i, 0),
				    json_string(PQgetvalue(res, i, 1)));
	json_object_set_new(server, "settings", settings);
	PQclear(res);

	/*
	 * pg_settings shows data_directory only to superusers and members
	 * of pg_read_all_settings; for others the subquery is NULL.
	 */
	res = pgsql_query(
		conn,
		"SELECT current_database(), "
		"pg_database_size(current_database()), "
		"extract(epoch FROM pg_postmaster_start_time())::bigint, "
		"pg_backend_pid(), current_setting('port'), "
		"(SELECT setting FROM pg_settings "
		"WHERE name = 'data_directory')",
		PGRES_TUPLES_OK, "reading database facts", err);
	if (!res)
		return pgsql_query_errno(conn);
	json_object_set_new(server, "database",
			    json_string(PQgetvalue(res, 0, 0)));
	json_object_set_new(
		server, "database_size_bytes",
		json_integer(strtoll(PQgetvalue(res, 0, 1), NULL, 10)));
	start_s = strtol(PQgetvalue(res, 0, 2), NULL, 10);
	backend_pid = pgsql_int(res, 0, 3);
	port = pgsql_int(res, 0, 4);
	if (!PQgetisnull(res, 0, 5)) {
		const char *datadir = PQgetvalue(res, 0, 5);

		json_object_set_new(server, "data_directory",
				    json_string(datadir));
		pid = pgsql_pid_from_file(datadir, start_s, port);
	}
	if (!pid)
		pid = pgsql_pid_from_proc(backend_pid, start_s);
	if (pid)
		json_object_set_new(server, "postmaster_pid",
				    json_integer(pid));
	PQclear(res);
	return pgsql_describe_layout(conn, server, err);
}

/*
 * Server counters for run.json. PostgreSQL 17 moved the checkpoint
 * counters from pg_stat_bgwriter to pg_stat_checkpointer. A counter the
 * server does not show (NULL) stays -1.
 */
static int pgsql_stats(struct driver_conn *conn, struct driver_stats *stats,
		       struct err *err)
{
	static const char sql_pre17[] =
		"SELECT d.blks_hit, d.blks_read, d.xact_commit, "
		"d.xact_rollback, b.checkpoints_timed, b.checkpoints_req, "
		"b.buffers_checkpoint FROM pg_stat_database d, "
		"pg_stat_bgwriter b WHERE d.datname = current_database()";
	static const char sql_17[] =
		"SELECT d.blks_hit, d.blks_read, d.xact_commit, "
		"d.xact_rollback, c.num_timed, c.num_requested, "
		"c.buffers_written FROM pg_stat_database d, "
		"pg_stat_checkpointer c WHERE d.datname = current_database()";
	long long *const field[] = {
		&stats->blks_hit,	    &stats->blks_read,
		&stats->xact_commit,	    &stats->xact_rollback,
		&stats->checkpoints_timed,  &stats->checkpoints_req,
		&stats->buffers_checkpoint,
	};
	PGresult *res;
	size_t i;

	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++)
		*field[i] = -1;
	stats->wal_bytes = -1; /* pg_stat_wal is the pg-stats hook's */
	res = pgsql_query(
		conn, PQserverVersion(conn->pg) >= 170000 ? sql_17 : sql_pre17,
		PGRES_TUPLES_OK, "reading server counters", err);
	if (!res)
		return pgsql_query_errno(conn);
	for (i = 0; PQntuples(res) == 1 && i < sizeof(field) / sizeof(field[0]);
	     i++)
		if (!PQgetisnull(res, 0, (int)i))
			*field[i] =
				strtoll(PQgetvalue(res, 0, (int)i), NULL, 10);
	PQclear(res);
	return 0;
}

/*
 * The server's clock_timestamp() (the moment the statement reads it, not
 * the transaction's start) in microseconds since the epoch.
 */
static int pgsql_server_clock(struct driver_conn *conn, int64_t *unix_us,
			      struct err *err)
{
	PGresult *res;
	long long v;

	res = pgsql_query(conn,
			  "SELECT (extract(epoch FROM clock_timestamp()) "
			  "* 1000000)::bigint",
			  PGRES_TUPLES_OK, "reading the server's clock", err);
	if (!res)
		return pgsql_query_errno(conn);
	v = PQntuples(res) == 1 ? strtoll(PQgetvalue(res, 0, 0), NULL, 10) : 0;
	PQclear(res);
	if (v <= 0)
		return err_set(err, -EPROTO,
			       "reading the server's clock: no time returned");
	*unix_us = (int64_t)v;
	return 0;
}

/* libpq knows the backend's PID from the connection's start-up. */
static int pgsql_backend_pid(struct driver_conn *conn)
{
	return PQstatus(conn->pg) == CONNECTION_OK ? PQbackendPID(conn->pg) : 0;
}

const struct driver_ops driver_pgsql = {
	.name = "pgsql",
	.version = DRIVER_INTERFACE_VERSION,
	.connect = pgsql_connect,
	.attempt = pgsql_attempt,
	.reconnect = pgsql_reconnect,
	.disconnect = pgsql_disconnect,
	.db_info = pgsql_db_info,
	.describe = pgsql_describe,
	.stats = pgsql_stats,
	.server_clock = pgsql_server_clock,
	.backend_pid = pgsql_backend_pid,
};
