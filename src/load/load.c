/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.c - `oltpmark load` without the printing: schema, parallel COPY,
 * keys, functions, ANALYZE, and the oltpmark_meta status around them.
 *
 * Order of work:
 *  1. One transaction drops an old population (--drop), creates the nine
 *     tables and oltpmark_meta, inserts the meta row with status
 *     'loading', and reads the load's timestamp; it commits, so an
 *     interrupted load is recognisable afterwards.
 *  2. JOBS threads, one connection each, take tasks from one list until
 *     none is left: a COPY per table (all warehouses, see load_copy.c),
 *     each statement of schema/indexes.sql once its table is loaded, the
 *     functions once every table is loaded, and ANALYZE of a table once
 *     it is loaded. A thread always takes the ready task that
 *     heads the longest remaining chain of work (its table's COPY, index
 *     builds and ANALYZE), and no two tasks on one table run at once
 *     (they would only wait for each other's locks). So index builds of
 *     the tables loaded first overlap the COPY of the big ones, and both
 *     cores stay busy to the end.
 *  3. The meta row says 'loaded' only when every task has succeeded, and
 *     records the layout the database ended up with (drivers/pglayout.h).
 *
 * Why one COPY per table and not per warehouse: COPY FREEZE (and the WAL
 * skip of wal_level=minimal) needs the table truncated in the COPY's own
 * transaction, which locks the table, so only one stream per table can
 * have it. With nine tables and a few cores the per-table split keeps
 * every core busy anyway (docs/load.md has the measurements).
 *
 * With tablespace directories (docs/layout.md) the relations come from
 * layout_ddl.h instead of the schema files as they are, and the unit of
 * work is a "unit": a table, or in the warehouse layout one partition,
 * which is a table of its own, so each partition gets its own COPY
 * FREEZE, in parallel with the others. Before step 1 the directories are
 * checked and the tablespaces created (tablespace.h); CREATE TABLESPACE
 * cannot run in a transaction block, so when step 1 fails they are
 * dropped again by hand.
 */
#include "src/load/load.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "drivers/pgconn.h"
#include "drivers/pglayout.h"
#include "src/base/clock.h"
#include "src/load/layout_ddl.h"
#include "src/load/load_copy.h"
#include "src/load/routes.h"
#include "src/load/schema_sql.h"
#include "src/load/tablespace.h"

#define MAX_INDEXES   64 /* statements in indexes.sql */
#define MAX_FUNCTIONS 64

/* Session settings of every loader connection. */
static const char session_sql[] =
	"SET client_min_messages = warning;"
	"SET statement_timeout = 0;"
	"SET lock_timeout = 0;"
	"SET synchronous_commit = off;"
	/* Index builds sort in memory; JOBS builds run at once. */
	"SET maintenance_work_mem = '512MB';"
	/* Our jobs already use every core: no extra parallel workers. */
	"SET max_parallel_maintenance_workers = 0;";

/*
 * The warehouse layout's plan settings, for the database (docs/layout.md,
 * "What the warehouse layout costs a run"). The transactions' statements
 * are prepared (PL/pgSQL, or the driver's own). On partitioned tables
 * the plan cache's default choice fails: a generic plan's estimated cost
 * counts every partition, since it prunes only when it runs, so it never
 * looks cheaper than a custom plan, and every statement is planned anew,
 * partitions and all, at every call; and a generic plan that costly
 * passes jit_above_cost, so JIT compiles it at every execution (30-100
 * ms for Stock-Level). Generic plans without JIT prune at executor start
 * and cost about what they cost on one table. And random_page_cost =
 * 1.1: a partition of WAREHOUSE or DISTRICT is a table of a few rows on
 * a few pages, which the default cost (4) scans whole rather than
 * through its key; those rows are updated by every New-Order and
 * Payment, so the pages carry the dead versions of the hottest rows of
 * the database, and a scan reads them all. In a transaction: a failure
 * (not the database's owner) undoes the load's start with it.
 */
static const char warehouse_plan_sql[] =
	"DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET plan_cache_mode "
	"= force_generic_plan', current_database()); EXECUTE format('ALTER "
	"DATABASE %I SET jit = off', current_database()); EXECUTE "
	"format('ALTER DATABASE %I SET random_page_cost = 1.1', "
	"current_database()); END $$";

/*
 * The other layouts take back what a warehouse load of the same
 * database set (a --drop reload), and only that: a setting the user
 * made otherwise stays.
 */
static const char other_plan_sql[] =
	"DO $$ DECLARE cfg text[]; BEGIN "
	"SELECT s.setconfig INTO cfg FROM pg_db_role_setting s "
	"JOIN pg_database d ON d.oid = s.setdatabase "
	"WHERE d.datname = current_database() AND s.setrole = 0; "
	"IF 'plan_cache_mode=force_generic_plan' = ANY (cfg) THEN "
	"EXECUTE format('ALTER DATABASE %I RESET plan_cache_mode', "
	"current_database()); END IF; "
	"IF 'jit=off' = ANY (cfg) THEN "
	"EXECUTE format('ALTER DATABASE %I RESET jit', current_database()); "
	"END IF; "
	"IF 'random_page_cost=1.1' = ANY (cfg) THEN "
	"EXECUTE format('ALTER DATABASE %I RESET random_page_cost', "
	"current_database()); END IF; END $$";

enum task_kind {
	TASK_COPY,	/* TRUNCATE + COPY FREEZE of one unit */
	TASK_INDEX,	/* one statement of keys and indexes */
	TASK_FUNCTIONS, /* functions.sql */
	TASK_ANALYZE,	/* ANALYZE of one table */
};

/*
 * One piece of work for a job thread. Units are the COPY targets of
 * layout_ddl.h (a table, or a partition); a task waits until the COPY of
 * every unit in its "need" range has committed, and no two tasks whose
 * "lock" ranges overlap run at once (they would only wait for each
 * other's table locks).
 */
struct task {
	enum task_kind kind;	  /* what to run */
	int table;		  /* enum load_table, -1: none or unknown */
	int unit;		  /* TASK_COPY: the unit */
	int need_first, need_end; /* units whose COPY must be done */
	int lock_first, lock_end; /* units it works on */
	char *sql;		  /* INDEX, ANALYZE: the statement (owned) */
	int waits;		  /* unfinished tasks it must wait for */
	int then;		  /* the task waiting for this one, -1 */
	double cost_s;		  /* estimated seconds, for the priority */
	double chain_s;		  /* cost of the rest of its unit's chain */
	bool started;		  /* taken by a job */
	bool done;		  /* finished successfully */
};

/* Everything the job threads share, under mu. */
struct loader {
	const struct load_opts *opts;	/* what to load */
	struct load_gen_params params;	/* seed, C-Load, timestamp */
	struct load_progress *progress; /* counters for the caller */
	volatile sig_atomic_t *stop;	/* caller's flag: main thread only */
	struct layout_ddl ddl;		/* the relations and their units */
	pthread_mutex_t mu;		/* guards all below */
	pthread_cond_t cv;		/* a task finished, or failure */
	struct task *tasks;		/* the work */
	int ntasks;			/* entries in tasks */
	int tasks_left;			/* not yet done */
	bool *copy_done;		/* per unit: its COPY committed */
	bool *busy;			/* per unit: a task on it runs */
	int table_left[LOAD_TABLE_NR];	/* units of a table not copied yet */
	int copies_left;		/* COPY tasks not yet done */
	atomic_bool failed;		/* stop taking tasks */
	int rc;				/* first failure, 0 if none */
	struct err err;			/* and its message */
	struct pgconn_cancel **cancel;	/* per job, while connected */
	int64_t data_done_us;		/* when the last COPY committed */
};

const char *load_layout_name(enum load_layout layout)
{
	static const char *const names[LOAD_LAYOUT_NR] = {
		[LOAD_LAYOUT_SINGLE] = "single",
		[LOAD_LAYOUT_TABLE] = "table",
		[LOAD_LAYOUT_WAREHOUSE] = "warehouse",
	};

	if ((int)layout < 0 || layout >= LOAD_LAYOUT_NR)
		return "?";
	return names[layout];
}

/* Record the first failure and wake everyone. Call with mu held. */
static void fail_locked(struct loader *ld, int rc, const struct err *err)
{
	if (ld->rc == 0) {
		ld->rc = rc;
		ld->err = *err;
	}
	atomic_store(&ld->failed, true);
	pthread_cond_broadcast(&ld->cv);
}

static bool task_ready(const struct loader *ld, const struct task *t)
{
	int u;

	if (t->started || t->waits > 0)
		return false;
	for (u = t->lock_first; u < t->lock_end; u++)
		if (ld->busy[u])
			return false;
	for (u = t->need_first; u < t->need_end; u++)
		if (!ld->copy_done[u])
			return false;
	return true;
}

/* The ready task with the longest chain after it, or NULL. */
static struct task *pick_task(struct loader *ld)
{
	struct task *best = NULL;
	int i;

	for (i = 0; i < ld->ntasks; i++) {
		struct task *t = &ld->tasks[i];

		if (task_ready(ld, t) && (!best || t->chain_s > best->chain_s))
			best = t;
	}
	return best;
}

/*
 * The warehouse layout's routes (routes.h): the per-partition copies of
 * the functions, over the tables of the schema the loader made them in.
 */
static int make_routes(PGconn *conn, const struct layout_ddl *ddl,
		       struct err *err)
{
	char schema[256], *quoted, *sql;
	int rc;

	rc = pgconn_value(conn, "current_schema", "SELECT current_schema()",
			  schema, sizeof(schema), err);
	if (rc < 0)
		return rc;
	quoted = pgconn_quote_ident(conn, schema);
	if (!quoted)
		return err_set(err, -ENOMEM, "routes: out of memory");
	rc = routes_sql(ddl, quoted, schema_functions_sql, &sql, err);
	free(quoted);
	if (rc < 0)
		return rc;
	rc = pgconn_exec(conn, "the routes' functions", sql, err);
	free(sql);
	return rc;
}

static int run_task(struct loader *ld, PGconn *conn, struct task *t,
		    struct err *err)
{
	const struct layout_ddl_unit *u;
	struct load_copy_job job;
	int rc;

	switch (t->kind) {
	case TASK_COPY:
		u = &ld->ddl.units[t->unit];
		job = (struct load_copy_job){
			.params = &ld->params,
			.table = t->table,
			.relation = u->name,
			.w_first = u->w_first,
			.w_last = u->w_last,
			.bytes = &ld->progress->copy_bytes,
			.failed = &ld->failed,
		};
		return load_copy_table(conn, &job, err);
	case TASK_INDEX:
		return pgconn_exec(conn, "indexes.sql", t->sql, err);
	case TASK_FUNCTIONS:
		rc = pgconn_exec(conn, "functions.sql", schema_functions_sql,
				 err);
		if (rc < 0 || ld->opts->layout != LOAD_LAYOUT_WAREHOUSE)
			return rc;
		return make_routes(conn, &ld->ddl, err);
	case TASK_ANALYZE:
		return pgconn_exec(conn, "analyze.sql", t->sql, err);
	}
	return -EINVAL;
}

static void task_finished(struct loader *ld, struct task *t)
{
	struct load_progress *pr = ld->progress;

	t->done = true;
	ld->tasks_left--;
	atomic_fetch_add(&pr->tasks_done, 1);
	switch (t->kind) {
	case TASK_COPY:
		ld->copy_done[t->unit] = true;
		ld->copies_left--;
		if (--ld->table_left[t->table] == 0)
			atomic_fetch_add(&pr->tables_loaded, 1);
		if (ld->copies_left == 0)
			ld->data_done_us = clock_mono_us();
		break;
	case TASK_INDEX:
		atomic_fetch_add(&pr->indexes_built, 1);
		if (t->then >= 0)
			ld->tasks[t->then].waits--;
		break;
	case TASK_FUNCTIONS:
	case TASK_ANALYZE:
		break;
	}
}

/* Mark the units of t busy (or not). Call with mu held. */
static void set_busy(struct loader *ld, const struct task *t, bool busy)
{
	int u;

	for (u = t->lock_first; u < t->lock_end; u++)
		ld->busy[u] = busy;
}

/* Arguments of one job thread. */
struct job_arg {
	struct loader *ld; /* shared state */
	int id;		   /* index into ld->cancel */
	pthread_t thread;  /* the thread */
	bool started;	   /* pthread_create succeeded */
};

static void *job_main(void *arg)
{
	struct job_arg *ja = arg;
	struct loader *ld = ja->ld;
	struct err err = {""};
	PGconn *conn;
	int rc;

	rc = pgconn_connect(ld->opts->conninfo, PGCONN_LOAD, &conn, &err);
	if (rc < 0) {
		pthread_mutex_lock(&ld->mu);
		fail_locked(ld, rc, &err);
		pthread_mutex_unlock(&ld->mu);
		return NULL;
	}
	rc = pgconn_exec(conn, "session settings", session_sql, &err);
	pthread_mutex_lock(&ld->mu);
	if (rc < 0)
		fail_locked(ld, rc, &err);
	else
		ld->cancel[ja->id] = pgconn_cancel_new(conn);
	for (;;) {
		struct task *t = NULL;

		while (!atomic_load(&ld->failed) && ld->tasks_left > 0 &&
		       !(t = pick_task(ld)))
			pthread_cond_wait(&ld->cv, &ld->mu);
		if (!t)
			break;
		t->started = true;
		set_busy(ld, t, true);
		pthread_mutex_unlock(&ld->mu);

		rc = run_task(ld, conn, t, &err);

		pthread_mutex_lock(&ld->mu);
		set_busy(ld, t, false);
		if (rc < 0) {
			fail_locked(ld, rc, &err);
			break;
		}
		task_finished(ld, t);
		pthread_cond_broadcast(&ld->cv);
	}
	pgconn_cancel_free(ld->cancel[ja->id]);
	ld->cancel[ja->id] = NULL;
	pthread_mutex_unlock(&ld->mu);
	pgconn_close(conn);
	return NULL;
}

/* Cancel what every job runs (on failure or stop). Call with mu held. */
static void cancel_all_locked(struct loader *ld, int njobs)
{
	int i;

	for (i = 0; i < njobs; i++)
		pgconn_cancel_send(ld->cancel[i]);
}

/*
 * Estimated seconds of each task, only to order them. Fitted to two jobs
 * on the 2-core development machine at W=10: a COPY costs about 1 s per
 * 170 MB of binary COPY data plus 0.25 us per row, an index build 0.3 us
 * per row, an ANALYZE (of 30,000 sampled rows at most) more for wide rows.
 */
static double table_rows(int t, int warehouses)
{
	const struct load_table_info *ti = load_table_info(t);

	return (double)ti->rows_per_w * (ti->per_warehouse ? warehouses : 1);
}

static double copy_cost_s(int t, int warehouses)
{
	const struct load_table_info *ti = load_table_info(t);
	double bytes = (double)ti->copy_bytes_per_w *
		       (ti->per_warehouse ? warehouses : 1);

	return bytes / 170e6 + table_rows(t, warehouses) * 0.25e-6;
}

static double index_cost_s(int t, int warehouses)
{
	return t < 0 ? 0.1 : table_rows(t, warehouses) * 0.3e-6;
}

static double analyze_cost_s(int t, int warehouses)
{
	const struct load_table_info *ti = load_table_info(t);
	double rows = table_rows(t, warehouses);
	double row_bytes = (double)ti->copy_bytes_per_w / ti->rows_per_w;

	if (rows > 30000)
		rows = 30000;
	return 0.02 + rows * (3e-6 + 0.014e-6 * row_bytes);
}

/* Append a task of kind on table (takes sql); it needs and locks nothing. */
static struct task *add_task(struct loader *ld, enum task_kind kind, int table,
			     char *sql, double cost_s)
{
	struct task *t = &ld->tasks[ld->ntasks++];

	*t = (struct task){.kind = kind,
			   .table = table,
			   .unit = -1,
			   .sql = sql,
			   .then = -1,
			   .cost_s = cost_s};
	return t;
}

/* The units of table t: [*first, *end). */
static void table_units(const struct loader *ld, int t, int *first, int *end)
{
	int u;

	*first = *end = 0;
	for (u = 0; u < ld->ddl.nunits; u++) {
		if ((int)ld->ddl.units[u].table != t)
			continue;
		if (*first == *end)
			*first = u;
		*end = u + 1;
	}
}

/* Warehouses in unit u (item: 1, which its row counts ignore). */
static int unit_warehouses(const struct loader *ld, int u)
{
	return ld->ddl.units[u].w_last - ld->ddl.units[u].w_first + 1;
}

/*
 * One task per statement of keys and indexes (layout_ddl.h): a build on
 * one unit waits for that unit's COPY; the statement over a partitioned
 * table waits for the builds of its group and for the whole table; one
 * on no table of ours waits for every COPY.
 */
static void add_index_tasks(struct loader *ld)
{
	int attach_of[MAX_INDEXES];
	int i, first, end;

	for (i = 0; i < MAX_INDEXES; i++)
		attach_of[i] = -1;
	for (i = 0; i < ld->ddl.nindexes; i++) {
		struct layout_ddl_stmt *s = &ld->ddl.indexes[i];
		struct task *t;

		t = add_task(ld, TASK_INDEX, s->table, s->sql, 0.1);
		s->sql = NULL; /* the task owns it now */
		ld->progress->indexes_total++;
		if (s->table < 0) {
			t->need_end = ld->ddl.nunits;
		} else if (s->attach) {
			table_units(ld, s->table, &first, &end);
			t->need_first = t->lock_first = first;
			t->need_end = t->lock_end = end;
			t->cost_s = 0.02;
			if (s->group >= 0 && s->group < MAX_INDEXES)
				attach_of[s->group] = ld->ntasks - 1;
		} else {
			t->need_first = t->lock_first = s->unit;
			t->need_end = t->lock_end = s->unit + 1;
			t->cost_s = index_cost_s(s->table,
						 unit_warehouses(ld, s->unit));
		}
	}
	/* a build tells its group's statement over the whole table */
	for (i = 0; i < ld->ntasks; i++) {
		struct task *t = &ld->tasks[i];
		const struct layout_ddl_stmt *s;
		int k = i - (ld->ntasks - ld->ddl.nindexes);

		if (k < 0 || t->kind != TASK_INDEX)
			continue;
		s = &ld->ddl.indexes[k];
		if (s->attach || s->group < 0 || s->group >= MAX_INDEXES ||
		    attach_of[s->group] < 0)
			continue;
		t->then = attach_of[s->group];
		ld->tasks[t->then].waits++;
	}
}

/*
 * One ANALYZE task per statement of layout_ddl.h: on a whole table, or
 * on one partition (at a lower statistics target, so the partitions of
 * a table together cost what the table's ANALYZE would).
 */
static void add_analyze_tasks(struct loader *ld)
{
	int i, first, end;

	for (i = 0; i < ld->ddl.nanalyzes; i++) {
		struct layout_ddl_stmt *s = &ld->ddl.analyzes[i];
		struct task *tk;

		if (s->unit >= 0) {
			first = s->unit;
			end = s->unit + 1;
		} else {
			table_units(ld, s->table, &first, &end);
		}
		tk = add_task(
			ld, TASK_ANALYZE, s->table, s->sql,
			analyze_cost_s(s->table, ld->opts->warehouses) /
				(s->unit >= 0 ? ld->ddl.ntablespaces : 1));
		s->sql = NULL; /* the task owns it now */
		tk->need_first = tk->lock_first = first;
		tk->need_end = tk->lock_end = end;
	}
}

/* The task list: COPY, index statements, functions, ANALYZE. */
static int build_tasks(struct loader *ld, struct err *err)
{
	int nunits = ld->ddl.nunits;
	double *rest;
	int i, u;

	ld->tasks = calloc(
		(size_t)(nunits + ld->ddl.nindexes + 1 + ld->ddl.nanalyzes),
		sizeof(*ld->tasks));
	ld->copy_done = calloc((size_t)nunits, sizeof(*ld->copy_done));
	ld->busy = calloc((size_t)nunits, sizeof(*ld->busy));
	rest = calloc((size_t)nunits, sizeof(*rest));
	if (!ld->tasks || !ld->copy_done || !ld->busy || !rest) {
		free(rest);
		return err_set(err, -ENOMEM, "out of memory");
	}
	for (u = 0; u < nunits; u++) {
		const struct layout_ddl_unit *un = &ld->ddl.units[u];
		struct task *t;

		t = add_task(ld, TASK_COPY, un->table, NULL,
			     copy_cost_s(un->table, unit_warehouses(ld, u)));
		t->unit = t->lock_first = u;
		t->lock_end = u + 1;
		ld->copies_left++;
		ld->table_left[un->table]++;
	}
	add_index_tasks(ld);
	add_task(ld, TASK_FUNCTIONS, -1, NULL, 0.1)->need_end = nunits;
	add_analyze_tasks(ld);

	/*
	 * Priority: the work left on the task's unit from it on; what works
	 * on a whole table counts for each of its units by its share.
	 */
	for (i = 0; i < ld->ntasks; i++) {
		struct task *tk = &ld->tasks[i];
		int span = tk->need_end - tk->need_first;

		if (tk->table < 0 || tk->kind == TASK_COPY || span <= 0)
			continue;
		for (u = tk->need_first; u < tk->need_end; u++)
			rest[u] += tk->cost_s / span;
	}
	for (i = 0; i < ld->ntasks; i++) {
		struct task *tk = &ld->tasks[i];

		if (tk->kind == TASK_COPY)
			tk->chain_s = tk->cost_s + rest[tk->unit];
		else if (tk->kind == TASK_INDEX && tk->table >= 0 &&
			 tk->need_end - tk->need_first == 1)
			tk->chain_s = rest[tk->need_first];
		else
			tk->chain_s = tk->cost_s;
	}
	free(rest);
	ld->tasks_left = ld->ntasks;
	ld->progress->tasks_total = ld->ntasks;
	return 0;
}

/*
 * Names of the routines functions.sql creates, as a SQL array literal
 * for --drop, so a function whose result type changed is dropped, not
 * left behind.
 */
static void routine_names(char *out, size_t size)
{
	char names[MAX_FUNCTIONS][ROUTES_NAME_MAX];
	size_t pos;
	int n, i;

	n = routes_routine_names(schema_functions_sql, names, MAX_FUNCTIONS);
	pos = (size_t)snprintf(out, size, "{");
	for (i = 0; i < n && pos + strlen(names[i]) + 2 < size; i++)
		pos += (size_t)snprintf(out + pos, size - pos, "%s%s",
					i ? "," : "", names[i]);
	snprintf(out + pos, size - pos, "}");
}

/* Names of the objects the loader owns, as one SQL list. */
#define OUR_TABLES                                                    \
	"warehouse, district, customer, history, new_order, orders, " \
	"order_line, item, stock, oltpmark_meta, oltpmark_routes"

/* Which of OUR_TABLES exist, as "a, b" into found ("" none). */
static int find_ours(PGconn *conn, char *found, size_t size, struct err *err)
{
	return pgconn_value(conn, "looking for existing tables",
			    "SELECT coalesce(string_agg(n, ', '), '') FROM "
			    "unnest(string_to_array('" OUR_TABLES "', ', ')) n "
			    "WHERE to_regclass(n) IS NOT NULL",
			    found, size, err);
}

/*
 * --drop: the warehouse layout's schemas (with the partitions, the
 * routes' functions in them), our tables and our routines.
 */
static int drop_ours(PGconn *conn, struct err *err)
{
	char names[1024], sql[2048];

	routine_names(names, sizeof(names));
	snprintf(sql, sizeof(sql),
		 "%s"
		 "DROP TABLE IF EXISTS " OUR_TABLES " CASCADE;"
		 "DO $oltpmark$ DECLARE r regprocedure; BEGIN "
		 "FOR r IN SELECT p.oid::regprocedure FROM pg_proc p "
		 "WHERE p.pronamespace = current_schema()::regnamespace "
		 "AND p.proname = ANY ('%s'::text[]) LOOP "
		 "EXECUTE 'DROP ROUTINE ' || r || ' CASCADE'; "
		 "END LOOP; END $oltpmark$;",
		 routes_drop_sql, names);
	return pgconn_exec(conn, "--drop", sql, err);
}

/*
 * Step 1: in one transaction, refuse or drop an old population, create
 * the schema and the meta row, and read the timestamp of the load.
 */
static int prepare(PGconn *conn, struct loader *ld, struct load_result *result,
		   struct err *err)
{
	const struct load_opts *o = ld->opts;
	char found[256], seed[32], w[16], c[16];
	const char *params[5];
	struct pgconn_rows *res;
	int rc;

	if ((rc = pgconn_value(conn, "SHOW wal_level", "SHOW wal_level",
			       result->wal_level, sizeof(result->wal_level),
			       err)) < 0)
		return rc;
	if ((rc = pgconn_exec(conn, "begin", "BEGIN", err)) < 0)
		return rc;
	/* A concurrent load of the same database waits here, then fails. */
	rc = find_ours(conn, found, sizeof(found), err);
	if (rc < 0)
		goto fail;
	if (found[0] && !o->drop) {
		rc = err_set(err, -EEXIST,
			     "the database already holds %s: use --drop to "
			     "replace them",
			     found);
		goto fail;
	}
	if (found[0] && (rc = drop_ours(conn, err)) < 0)
		goto fail;
	if ((rc = pgconn_exec(conn, "tables.sql", ld->ddl.tables_sql, err)) < 0)
		goto fail;
	if (o->layout == LOAD_LAYOUT_WAREHOUSE)
		rc = pgconn_exec(conn, "the warehouse layout's plan settings",
				 warehouse_plan_sql, err);
	else
		rc = pgconn_exec(conn, "resetting the plan settings",
				 other_plan_sql, err);
	if (rc < 0)
		goto fail;
	if ((rc = pgconn_exec(conn, "meta.sql", schema_meta_sql, err)) < 0)
		goto fail;

	snprintf(w, sizeof(w), "%d", o->warehouses);
	snprintf(c, sizeof(c), "%d", ld->params.c_load);
	snprintf(seed, sizeof(seed), "%lld", (long long)o->seed);
	params[0] = w;
	params[1] = c;
	params[2] = seed;
	params[3] = o->version ? o->version : "unknown";
	rc = pgconn_query(conn, "creating oltpmark_meta",
			  "INSERT INTO oltpmark_meta (status, warehouses, "
			  "c_load_c_last, seed, version, load_started) "
			  "VALUES ('loading', $1, $2, $3, $4, now()) "
			  "RETURNING to_char(localtimestamp, "
			  "'YYYY-MM-DD HH24:MI:SS')",
			  4, params, &res, err);
	if (rc < 0)
		goto fail;
	if (pgconn_rows_count(res) != 1 ||
	    strlen(pgconn_rows_value(res, 0, 0)) != LOAD_TIMESTAMP_LEN) {
		pgconn_rows_free(res);
		rc = err_set(err, -EIO,
			     "creating oltpmark_meta: no load timestamp");
		goto fail;
	}
	memcpy(ld->params.now, pgconn_rows_value(res, 0, 0),
	       LOAD_TIMESTAMP_LEN + 1);
	pgconn_rows_free(res);
	if (o->layout != LOAD_LAYOUT_SINGLE) {
		params[0] = load_layout_name(o->layout);
		rc = pgconn_query(conn, "recording the layout",
				  "UPDATE oltpmark_meta SET layout = $1", 1,
				  params, NULL, err);
		if (rc < 0)
			goto fail;
	}
	return pgconn_exec(conn, "commit", "COMMIT", err);
fail:
	pgconn_exec(conn, "rollback", "ROLLBACK", NULL);
	return rc;
}

/*
 * Before step 1, with tablespace directories or with --drop of a
 * population in tablespaces: check the directories with the server
 * (a failure is bad input), drop the old population and its tablespaces
 * (they may be the very directories given again), and create the new
 * tablespaces. *created says how many exist now, for step 1's undo.
 */
static int setup_tablespaces(PGconn *conn, struct loader *ld,
			     const struct tablespace_dir *dirs, int *created,
			     struct load_result *result, struct err *err)
{
	const struct load_opts *o = ld->opts;
	struct tablespace_old old;
	char found[256];
	int rc;

	*created = 0;
	rc = tablespace_find_old(conn, &old, err);
	if (rc == 0)
		rc = find_ours(conn, found, sizeof(found), err);
	if (rc < 0)
		return rc;
	if (o->ndirs > 0) {
		if (found[0] && !o->drop)
			return err_set(err, -EEXIST,
				       "the database already holds %s: use "
				       "--drop to replace them",
				       found);
		rc = tablespace_check_server(conn, dirs, o->ndirs, o->drop,
					     &old, err);
		if (rc == -EINVAL)
			result->bad_input = true;
		if (rc < 0)
			return rc;
	}
	if (o->drop && old.n > 0) {
		/* the tables first: a tablespace must be empty to go */
		if (found[0]) {
			rc = pgconn_exec(conn, "begin", "BEGIN", err);
			if (rc == 0)
				rc = drop_ours(conn, err);
			if (rc == 0)
				rc = pgconn_exec(conn, "commit", "COMMIT", err);
			if (rc < 0) {
				pgconn_exec(conn, "rollback", "ROLLBACK", NULL);
				return rc;
			}
		}
		rc = tablespace_drop(
			conn, (const char(*)[TABLESPACE_NAME_MAX])old.name,
			old.n, err);
		if (rc < 0)
			return rc;
	}
	if (o->ndirs == 0)
		return 0;
	rc = tablespace_create(conn, dirs, o->ndirs, err);
	if (rc == 0)
		*created = o->ndirs;
	return rc;
}

/* Step 1's undo with tablespaces: drop the ones setup_tablespaces made. */
static void drop_created(PGconn *conn, const struct tablespace_dir *dirs,
			 int created)
{
	char names[LOAD_TABLESPACES_MAX][TABLESPACE_NAME_MAX];
	int i;

	for (i = 0; i < created; i++)
		snprintf(names[i], sizeof(names[i]), "%s", dirs[i].name);
	tablespace_drop(conn, (const char(*)[TABLESPACE_NAME_MAX])names,
			created, NULL);
}

/*
 * Step 3: the meta row says 'loaded' and records the layout as the
 * catalog and sysfs now show it; read the database size.
 */
static int finish(PGconn *conn, const struct loader *ld,
		  struct load_result *result, struct err *err)
{
	const char *params[1];
	char size[32];
	json_t *layout;
	char *text;
	int rc;

	rc = pglayout_read(conn, load_layout_name(ld->opts->layout), "/sys",
			   &layout, err);
	if (rc < 0)
		return rc;
	text = json_dumps(layout, JSON_COMPACT);
	json_decref(layout);
	if (!text)
		return err_set(err, -ENOMEM, "out of memory");
	/*
	 * A synchronous commit: once it is on disk, so is all the WAL of the
	 * (asynchronously committed) work before it.
	 */
	rc = pgconn_exec(conn, "marking the database loaded",
			 "SET synchronous_commit = on", err);
	if (rc < 0) {
		free(text);
		return rc;
	}
	params[0] = text;
	rc = pgconn_query(conn, "marking the database loaded",
			  "UPDATE oltpmark_meta SET status = 'loaded', "
			  "load_finished = clock_timestamp(), layout_map = $1",
			  1, params, NULL, err);
	free(text);
	if (rc < 0)
		return rc;
	rc = pgconn_value(conn, "database size",
			  "SELECT pg_database_size(current_database())", size,
			  sizeof(size), err);
	if (rc < 0)
		return rc;
	result->database_bytes = strtoll(size, NULL, 10);
	return 0;
}

/* Start the job threads with SIGINT and SIGTERM blocked in them. */
static int start_jobs(struct loader *ld, struct job_arg *jobs, int njobs,
		      struct err *err)
{
	sigset_t block, old;
	int i, rc = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < njobs; i++) {
		jobs[i].ld = ld;
		jobs[i].id = i;
		if (pthread_create(&jobs[i].thread, NULL, job_main, &jobs[i])) {
			rc = err_set(err, -EAGAIN, "cannot start job thread");
			break;
		}
		jobs[i].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Step 2: run the tasks on njobs threads; tick and watch for stop. */
static int run_jobs(struct loader *ld, int njobs,
		    void (*tick)(const struct load_progress *, void *),
		    void *tick_arg, struct err *err)
{
	struct job_arg *jobs = calloc((size_t)njobs, sizeof(*jobs));
	bool cancelled = false;
	int i, rc;

	ld->cancel = calloc((size_t)njobs, sizeof(*ld->cancel));
	if (!jobs || !ld->cancel) {
		free(jobs);
		return err_set(err, -ENOMEM, "out of memory");
	}
	rc = start_jobs(ld, jobs, njobs, err);
	pthread_mutex_lock(&ld->mu);
	if (rc < 0) {
		fail_locked(ld, rc, err);
		cancelled = true;
		cancel_all_locked(ld, njobs);
	}
	while (ld->tasks_left > 0 && !atomic_load(&ld->failed)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&ld->cv, &ld->mu, &ts);
		if (*ld->stop && !atomic_load(&ld->failed)) {
			struct err e;

			err_set(&e, -EINTR, "interrupted");
			fail_locked(ld, -EINTR, &e);
		}
		if (tick) {
			pthread_mutex_unlock(&ld->mu);
			tick(ld->progress, tick_arg);
			pthread_mutex_lock(&ld->mu);
		}
	}
	if (atomic_load(&ld->failed) && !cancelled)
		cancel_all_locked(ld, njobs);
	pthread_mutex_unlock(&ld->mu);
	for (i = 0; i < njobs; i++)
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
	free(jobs);
	if (ld->rc < 0) {
		*err = ld->err;
		return ld->rc;
	}
	return 0;
}

/* The COPY format: binary unless LOAD_FORMAT_ENV says "text". */
static int copy_format(enum load_format *format, struct err *err)
{
	const char *s = getenv(LOAD_FORMAT_ENV);

	*format = LOAD_FORMAT_BINARY;
	if (!s || !*s || strcmp(s, "binary") == 0)
		return 0;
	if (strcmp(s, "text") == 0) {
		*format = LOAD_FORMAT_TEXT;
		return 0;
	}
	return err_set(err, -EINVAL, "%s: '%s' is not text or binary",
		       LOAD_FORMAT_ENV, s);
}

int load_run(const struct load_opts *opts, struct load_progress *progress,
	     void (*tick)(const struct load_progress *progress, void *arg),
	     void *tick_arg, volatile sig_atomic_t *stop,
	     struct load_result *result, struct err *err)
{
	static volatile sig_atomic_t never;
	const char *names[LOAD_TABLESPACES_MAX];
	struct tablespace_dir *dirs = NULL;
	char warning[256];
	struct loader *ld;
	PGconn *conn;
	int njobs, i, t, rc, created = 0;

	memset(result, 0, sizeof(*result));
	if (opts->warehouses < 1 || opts->jobs < 1)
		return err_set(err, -EINVAL,
			       "need at least 1 warehouse and 1 job");
	if (!pgconn_thread_safe())
		return err_set(err, -ENOTSUP,
			       "this libpq is not thread-safe: cannot load in "
			       "parallel");
	ld = calloc(1, sizeof(*ld));
	if (!ld)
		return err_set(err, -ENOMEM, "out of memory");
	pthread_mutex_init(&ld->mu, NULL);
	pthread_cond_init(&ld->cv, NULL);
	ld->opts = opts;
	ld->progress = progress;
	ld->stop = stop ? stop : &never;
	ld->params.seed = opts->seed;
	ld->params.c_load = load_c_load_for_seed(opts->seed);
	result->c_load = ld->params.c_load;
	rc = copy_format(&ld->params.format, err);
	if (rc < 0)
		goto out;

	/* the directories, before anything else: bad ones are bad input */
	if (opts->ndirs > 0) {
		dirs = calloc((size_t)opts->ndirs, sizeof(*dirs));
		if (!dirs) {
			rc = err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		rc = tablespace_check_dirs(opts->dirs, opts->ndirs,
					   opts->layout, opts->warehouses,
					   opts->allow_shared_device, "/sys",
					   dirs, warning, sizeof(warning), err);
		if (rc < 0) {
			result->bad_input = true;
			goto out;
		}
		for (i = 0; i < opts->ndirs; i++)
			names[i] = dirs[i].name;
	}
	rc = layout_ddl_build(opts->layout, opts->warehouses, names,
			      opts->ndirs, schema_tables_sql,
			      schema_indexes_sql, schema_analyze_sql, &ld->ddl,
			      err);
	if (rc < 0)
		goto out;

	progress->started_us = clock_mono_us();
	atomic_store(&progress->phase, LOAD_PHASE_CONNECT);
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		const struct load_table_info *ti = load_table_info(t);

		progress->copy_bytes_total +=
			(int64_t)ti->copy_bytes_per_w *
			(ti->per_warehouse ? opts->warehouses : 1);
	}
	rc = build_tasks(ld, err);
	if (rc < 0)
		goto out;

	rc = pgconn_connect(opts->conninfo, PGCONN_LOAD, &conn, err);
	if (rc < 0)
		goto out;
	rc = pgconn_exec(conn, "session settings", session_sql, err);
	if (rc == 0 && (opts->ndirs > 0 || opts->drop))
		rc = setup_tablespaces(conn, ld, dirs, &created, result, err);
	if (rc == 0) {
		rc = prepare(conn, ld, result, err);
		/* nothing half-made: step 1 rolled back, so they are empty */
		if (rc < 0 && created > 0)
			drop_created(conn, dirs, created);
	}
	if (rc == 0 && *ld->stop)
		rc = err_set(err, -EINTR, "interrupted");
	if (rc == 0) {
		atomic_store(&progress->phase, LOAD_PHASE_WORK);
		njobs = opts->jobs < ld->ntasks ? opts->jobs : ld->ntasks;
		rc = run_jobs(ld, njobs, tick, tick_arg, err);
	}
	if (rc == 0 && *ld->stop)
		rc = err_set(err, -EINTR, "interrupted");
	if (rc == 0) {
		atomic_store(&progress->phase, LOAD_PHASE_FINISH);
		rc = finish(conn, ld, result, err);
	}
	pgconn_close(conn);
	if (rc == 0) {
		int64_t now = clock_mono_us();

		atomic_store(&progress->phase, LOAD_PHASE_DONE);
		result->copy_bytes = atomic_load(&progress->copy_bytes);
		result->data_seconds =
			(double)(ld->data_done_us - progress->started_us) / 1e6;
		result->total_seconds =
			(double)(now - progress->started_us) / 1e6;
	}
out:
	for (i = 0; i < ld->ntasks; i++)
		free(ld->tasks[i].sql);
	free(ld->tasks);
	free(ld->copy_done);
	free(ld->busy);
	free(ld->cancel);
	layout_ddl_free(&ld->ddl);
	free(dirs);
	pthread_cond_destroy(&ld->cv);
	pthread_mutex_destroy(&ld->mu);
	free(ld);
	return rc;
}
