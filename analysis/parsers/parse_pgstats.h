/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_pgstats.h - reader for what the pg-stats hook leaves in sys/: the
 * `psql --csv` snapshots of pg_stat_database, pg_stat_bgwriter and
 * pg_stat_wal taken at start and stop (VIEW.start.csv, VIEW.stop.csv: a
 * header and one row), and pg_wait_events.csv, one row per wait event,
 * event type and backend state per second of the run:
 *
 *   ts,wait_event_type,wait_event,state,count
 *   2026-11-29T22:34:29.733Z,LWLock,WALWrite,active,3
 *
 * Fields are CSV as psql writes it: quoted when they hold a comma, a
 * quote or a line break, with quotes doubled. Columns are found by the
 * header's names, never by position: the views gain columns between
 * PostgreSQL versions.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_PGSTATS_H
#define OLTPMARK_ANALYSIS_PARSE_PGSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/base/err.h"

#define PGSTATS_COLS_MAX 128 /* pg_stat_database has 30 in PostgreSQL 17 */

/* One wait event (type, event, state), its sessions over all samples. */
struct pgstats_wait {
	char *type;	 /* wait_event_type, "" when none (on CPU) */
	char *event;	 /* wait_event, "" when none */
	char *state;	 /* backend state, "" for background processes */
	double sessions; /* count added up over the samples */
};

/*
 * pg_wait_events.csv, rows of one (type, event, state) added up. Owns its
 * arrays: parse_pgstats_waits_free() releases them. Zeroed (and safe to
 * free) after a failed parse.
 */
struct pgstats_waits {
	struct pgstats_wait *v; /* in the order first seen */
	size_t n, cap;		/* used, allocated */
	size_t samples;		/* samples: runs of rows with one ts */
	size_t rows;		/* data rows counted */
	size_t bad_lines;	/* rows skipped: cut, wrong field count,
				   count not a number */
};

/*
 * One snapshot (VIEW.start.csv or VIEW.stop.csv): the header's names and
 * the row's fields as printed. Owns its strings:
 * parse_pgstats_snapshot_free() releases them.
 */
struct pgstats_snapshot {
	size_t ncols;  /* columns in the header, ts first */
	char **names;  /* column names */
	char **values; /* the row's fields, "" for NULL */
};

/*
 * Parse pg_wait_events.csv from f (read to EOF) into out, overwritten.
 * The first non-blank line must be the header naming ts,
 * wait_event_type, wait_event, state and count (in any order, among
 * others); later copies of it are skipped. Returns 0 (a header and no
 * row is 0 samples: the hook ran, psql never answered); -ENODATA for an
 * empty input; -EINVAL without the header; -ENOMEM or -EIO. Rows that
 * cannot be read (a last line without its newline, as a stopped psql
 * leaves it, a wrong field count, a count that is not a number) are
 * skipped and counted in bad_lines.
 */
int parse_pgstats_waits(FILE *f, struct pgstats_waits *out, struct err *err);

/* parse_pgstats_waits() on the file at path; messages start with it. */
int parse_pgstats_waits_file(const char *path, struct pgstats_waits *out,
			     struct err *err);

/* Most sessions first; ties by type, event, state. */
void parse_pgstats_waits_sort(struct pgstats_waits *w);

/* Release what a parse allocated and zero w. Safe on a zeroed struct. */
void parse_pgstats_waits_free(struct pgstats_waits *w);

/*
 * Parse one snapshot from f into out, overwritten: a header whose first
 * column is ts, then one row with as many fields. Returns 0; -ENODATA
 * for an empty input or a header without a row; -EINVAL for a missing
 * header, a row cut short (no newline at its end, too few fields) or
 * more rows than one; -ENOMEM or -EIO.
 */
int parse_pgstats_snapshot(FILE *f, struct pgstats_snapshot *out,
			   struct err *err);

/* parse_pgstats_snapshot() on the file at path. */
int parse_pgstats_snapshot_file(const char *path, struct pgstats_snapshot *out,
				struct err *err);

/* Index of the column named name, or -1. */
int parse_pgstats_snapshot_column(const struct pgstats_snapshot *s,
				  const char *name);

/*
 * The value of column col as a number into *v: false when col is out of
 * range or the field is empty or not a finite number (stats_reset).
 */
bool parse_pgstats_snapshot_value(const struct pgstats_snapshot *s, int col,
				  double *v);

/* Release what a parse allocated and zero s. Safe on a zeroed struct. */
void parse_pgstats_snapshot_free(struct pgstats_snapshot *s);

/*
 * Split a line of psql's CSV in place at commas into at most max fields,
 * unquoting (a quoted field loses its quotes and its doubled quotes; the
 * fields point into line). Returns the count, or SIZE_MAX when there are
 * more than max fields or a quote is not closed or is followed by
 * something other than a comma. A CR at the end (CRLF files) is dropped.
 */
size_t parse_pgstats_split(char *line, char **fields, size_t max);

#endif
