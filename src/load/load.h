/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.h - the TPC-C population (clause 4.3.3.1; docs/tpcc.md, Population)
 * and the parallel loader.
 *
 * Two layers. The generator (load_gen.c) writes the rows of one table for
 * one warehouse as COPY data (binary, or text for comparison) into a
 * buffer and hands full buffers to a sink; it needs no database, so unit
 * tests decode what it writes. The loader (load.c, load_copy.c) creates
 * the schema, streams every table with COPY ... FREEZE from JOBS threads
 * with one connection each, builds keys and indexes, installs the
 * functions and runs ANALYZE.
 *
 * The data of warehouse w depends only on (seed, w): every (table,
 * warehouse) pair has its own random stream, so the number of jobs and
 * their timing change nothing. None of this prints: errors come back in a
 * struct err, progress in struct load_progress.
 */
#ifndef OLTPMARK_LOAD_H
#define OLTPMARK_LOAD_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/base/err.h"

/* The nine tables, in the order of schema/tables.sql. */
enum load_table {
	LOAD_WAREHOUSE,	 /* 1 row per warehouse */
	LOAD_DISTRICT,	 /* 10 per warehouse */
	LOAD_CUSTOMER,	 /* 30,000 per warehouse */
	LOAD_HISTORY,	 /* 30,000 per warehouse */
	LOAD_NEW_ORDER,	 /* 9,000 per warehouse */
	LOAD_ORDERS,	 /* 30,000 per warehouse */
	LOAD_ORDER_LINE, /* about 300,000 per warehouse */
	LOAD_ITEM,	 /* 100,000, not per warehouse */
	LOAD_STOCK,	 /* 100,000 per warehouse */
	LOAD_TABLE_NR,
};

/* What the loader needs to know about a table. */
struct load_table_info {
	const char *name;     /* SQL name: "order_line" */
	const char *columns;  /* COPY column list, the order rows are written */
	bool per_warehouse;   /* false only for item */
	int rows_per_w;	      /* rows per warehouse (item: rows in all) */
	int copy_bytes_per_w; /* about how many bytes of binary COPY a w */
	const char *w_column; /* its warehouse id, the partition key of the
				 warehouse layout; NULL for item */
};

/* Description of table t (t < LOAD_TABLE_NR). */
const struct load_table_info *load_table_info(enum load_table t);

/* Table named name, or -1. */
int load_table_by_name(const char *name);

/* Length of the timestamp text written for "now" (YYYY-MM-DD HH:MM:SS). */
#define LOAD_TIMESTAMP_LEN 19

/*
 * The COPY format rows are written in. Binary is the loader's: the server
 * then parses no text for integers, numerics and timestamps (about 10 %
 * of a load's CPU). Text is the same rows as COPY text, kept to check
 * that both give the same database (see LOAD_FORMAT_ENV).
 */
enum load_format {
	LOAD_FORMAT_BINARY, /* COPY ... (FORMAT binary) */
	LOAD_FORMAT_TEXT,   /* COPY ... (FORMAT text): tabs, \N for NULL */
};

/*
 * Environment variable that makes load_run stream COPY text instead of
 * binary: "text" or "binary" (the default). For tests comparing the two.
 */
#define LOAD_FORMAT_ENV "OLTPMARK_LOAD_FORMAT"

/* What the generated rows depend on besides the table and warehouse. */
struct load_gen_params {
	uint64_t seed;		 /* --seed: the same seed gives the same rows */
	int c_load;		 /* C-Load for NURand(255,0,999) of C_LAST */
	enum load_format format; /* how rows are written */
	/* the load's start (wall clock), written into every date column */
	char now[LOAD_TIMESTAMP_LEN + 1];
};

/* C-Load derived from the seed: random in [0, 255] (clause 2.1.6.1). */
int load_c_load_for_seed(uint64_t seed);

/* Longest row any generator writes, with room to spare. */
#define LOAD_ROW_MAX 1024

/*
 * Where generated COPY data goes. The generator appends rows to
 * buf[0..len) and calls flush when fewer than LOAD_ROW_MAX bytes are left
 * and at the end of each table and warehouse; flush sends buf[0..len),
 * sets len to 0 and returns 0, or returns a negative errno to stop the
 * generator (e.g. -EINTR). A flushed buffer always ends with a whole row.
 */
struct load_sink {
	char *buf;  /* the buffer, cap bytes */
	size_t len; /* bytes of whole rows in buf */
	size_t cap; /* size of buf, more than LOAD_ROW_MAX */
	int (*flush)(struct load_sink *sink); /* hand over buf, empty it */
	void *arg;			      /* for flush */
};

/*
 * Write every row of table t for warehouse w_id (1..; ignored for item)
 * into sink in p->format: binary tuples, or COPY text (tab separated, \N
 * for NULL, one line per row). A COPY stream is load_gen_begin, then
 * load_gen_table for each warehouse, then load_gen_end. Returns 0, the
 * first negative value flush returned, or -EINVAL for a table, format or
 * p->now it does not know. Thread-safe: all state is in the arguments.
 */
int load_gen_table(const struct load_gen_params *p, enum load_table t, int w_id,
		   struct load_sink *sink);

/*
 * Start a COPY stream: the binary format's header (its signature, flags 0
 * and no header extension) into sink, not yet flushed; nothing for text.
 * Returns 0 or -EINVAL for an unknown format.
 */
int load_gen_begin(const struct load_gen_params *p, struct load_sink *sink);

/*
 * End a COPY stream: the binary format's trailer (a field count of -1),
 * then flush whatever is left. Returns 0 or what flush returned.
 */
int load_gen_end(const struct load_gen_params *p, struct load_sink *sink);

/*
 * The schema files' statements one by one (load_split.c: text only, so
 * layout_ddl.c uses them without calling into the loader).
 *
 * Split text in the format of schema/indexes.sql (statements separated by
 * lines holding only "-- next"; groups of nothing but comments and blanks
 * are skipped) into stmts[0..max). Returns the count; each stmts[i] is
 * malloc'ed and the caller frees it. -E2BIG for more than max, -ENOMEM.
 */
int load_split_statements(const char *text, char **stmts, int max);

/*
 * The table a statement of indexes.sql works on, from "ALTER TABLE
 * [IF EXISTS] [ONLY] name" or "CREATE [UNIQUE] INDEX ... ON [ONLY] name":
 * an enum load_table, or -1 when it names none of ours.
 */
int load_statement_table(const char *sql);

/*
 * How the relations are spread over tablespace directories (one per
 * device; docs/layout.md).
 */
enum load_layout {
	LOAD_LAYOUT_SINGLE,    /* no tablespace: the database's default */
	LOAD_LAYOUT_TABLE,     /* whole tables and indexes, balanced bytes */
	LOAD_LAYOUT_WAREHOUSE, /* range partitions by warehouse, one a dir */
	LOAD_LAYOUT_NR,
};

/* "single", "table" or "warehouse" (what oltpmark_meta.layout holds). */
const char *load_layout_name(enum load_layout layout);

/* Most tablespace directories a load takes (as --tablespace-dir). */
#define LOAD_TABLESPACES_MAX 32

/* What to load, and where. */
struct load_opts {
	const char *conninfo;	 /* as pgconn_validate takes it; "" = PG* */
	int warehouses;		 /* W, at least 1 */
	int jobs;		 /* parallel connections, at least 1 */
	uint64_t seed;		 /* see struct load_gen_params */
	bool drop;		 /* drop an existing population first */
	const char *version;	 /* oltpmark version, stored in oltpmark_meta */
	enum load_layout layout; /* SINGLE exactly when ndirs is 0 */
	const char *const *dirs; /* tablespace directories, ndirs of them;
				    tablespace oltpmark_tsK is dirs[K-1] */
	int ndirs;		 /* 0..LOAD_TABLESPACES_MAX */
	bool allow_shared_device; /* two dirs on one device: not an error */
};

/* Phases of a load, in order. */
enum load_phase {
	LOAD_PHASE_CONNECT, /* connecting and creating the schema */
	LOAD_PHASE_WORK,    /* data, keys, functions, ANALYZE (overlapping) */
	LOAD_PHASE_FINISH,  /* marking the database loaded */
	LOAD_PHASE_DONE,    /* finished */
};

/*
 * Counters the loader updates while it works, for a progress line. Read
 * them from any thread; the loader's threads write them.
 */
struct load_progress {
	_Atomic int phase;	    /* enum load_phase */
	_Atomic int64_t copy_bytes; /* COPY data sent so far */
	int64_t copy_bytes_total;   /* about how much there will be */
	_Atomic int tables_loaded;  /* tables whose COPY has committed */
	_Atomic int tasks_done;	    /* finished tasks of every kind */
	int tasks_total;	    /* COPY + index + functions + ANALYZE */
	_Atomic int indexes_built;  /* statements of indexes.sql done */
	int indexes_total;	    /* statements in indexes.sql */
	int64_t started_us;	    /* CLOCK_MONOTONIC start of the load */
};

/* What a finished load reports. */
struct load_result {
	int c_load;		/* C-Load stored in oltpmark_meta */
	char wal_level[16];	/* the server's wal_level */
	int64_t database_bytes; /* pg_database_size() after the load */
	int64_t copy_bytes;	/* COPY data streamed */
	double data_seconds;	/* until the last COPY committed */
	double total_seconds;	/* until the database was marked loaded */
	bool bad_input;		/* the failure is the input's (a directory
				   the server cannot use): exit 2 */
};

/*
 * Load the population described by opts. While it works, the calling
 * thread calls tick(progress, tick_arg) about every 200 ms (tick may be
 * NULL) and watches *stop: once it is non-zero, running statements are
 * cancelled and load_run returns -EINTR. Returns 0 and fills result, or a
 * negative errno with err saying what failed (never a password; -EINVAL
 * for a LOAD_FORMAT_ENV that is neither "text" nor "binary"). On any
 * failure oltpmark_meta, if it was created, still says 'loading'.
 *
 * With tablespace directories (opts->ndirs > 0) it first checks them
 * (tablespace.h; a failure sets result->bad_input), then creates the
 * tablespaces, then the tables in them. Until the transaction that
 * creates the tables has committed, any failure drops the tablespaces it
 * created: nothing half-made is left. Call it from one thread at a time;
 * it blocks SIGINT and SIGTERM in the threads it starts, so those signals
 * reach the caller.
 */
int load_run(const struct load_opts *opts, struct load_progress *progress,
	     void (*tick)(const struct load_progress *progress, void *arg),
	     void *tick_arg, volatile sig_atomic_t *stop,
	     struct load_result *result, struct err *err);

#endif
