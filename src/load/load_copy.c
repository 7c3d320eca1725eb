/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load_copy.c - statements and COPY streaming over libpq for the loader.
 *
 * One COPY per table covers every warehouse, in one transaction that
 * first truncates the table: COPY FREEZE demands a table created or
 * truncated in the same transaction, and then writes its rows frozen and
 * all-visible, so no VACUUM or hint-bit writes follow the load, and with
 * wal_level=minimal the new file is synced at commit instead of being
 * written to WAL. The rows go in PostgreSQL's binary COPY format, which
 * spares the server parsing integers, numerics and timestamps from text.
 * The generator fills a 256 KiB buffer; libpq sends it while the
 * server's backend stores the previous one, so client and server work in
 * parallel on two cores.
 */
#include "src/load/load_copy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgconn.h"

#define COPY_BUF_BYTES (256 * 1024)

/* State of the sink while one COPY runs. */
struct copy_sink {
	struct load_sink sink;		 /* must be first: flush gets it */
	PGconn *conn;			 /* the connection in COPY IN state */
	const char *what;		 /* "COPY relation", for messages */
	const struct load_copy_job *job; /* progress and stop flags */
	struct err *err;		 /* where a send failure goes */
};

static int copy_flush(struct load_sink *s)
{
	struct copy_sink *cs = (struct copy_sink *)s;
	const struct load_copy_job *job = cs->job;

	if (job->failed && atomic_load(job->failed))
		return -EINTR;
	if (pgconn_copy_put(cs->conn, cs->what, s->buf, s->len, cs->err) < 0)
		return -EIO;
	if (job->bytes)
		atomic_fetch_add(job->bytes, (int64_t)s->len);
	s->len = 0;
	return 0;
}

int load_copy_table(PGconn *conn, const struct load_copy_job *job,
		    struct err *err)
{
	const struct load_table_info *ti = load_table_info(job->table);
	const char *rel = job->relation;
	struct copy_sink cs = {.conn = conn, .job = job, .err = err};
	const char *format;
	char sql[768], what[256];
	int rc = 0, w;

	snprintf(sql, sizeof(sql), "BEGIN; TRUNCATE %s", rel);
	if ((rc = pgconn_exec(conn, "begin COPY", sql, err)) < 0)
		return rc;
	format = job->params->format == LOAD_FORMAT_TEXT ? "text" : "binary";
	snprintf(sql, sizeof(sql),
		 "COPY %s (%s) FROM STDIN WITH (FORMAT %s, FREEZE)", rel,
		 ti->columns, format);
	snprintf(what, sizeof(what), "COPY %s", rel);
	cs.what = what;
	if (pgconn_copy_start(conn, what, sql, err) < 0) {
		pgconn_exec(conn, "rollback", "ROLLBACK", NULL);
		return -EIO;
	}

	cs.sink.buf = malloc(COPY_BUF_BYTES);
	if (!cs.sink.buf) {
		pgconn_copy_end(conn, what, "out of memory", NULL);
		pgconn_exec(conn, "rollback", "ROLLBACK", NULL);
		return err_set(err, -ENOMEM, "COPY %s: out of memory", rel);
	}
	cs.sink.cap = COPY_BUF_BYTES;
	cs.sink.flush = copy_flush;
	rc = load_gen_begin(job->params, &cs.sink);
	for (w = job->w_first; w <= job->w_last && rc == 0; w++)
		rc = load_gen_table(job->params, job->table, w, &cs.sink);
	if (rc == 0)
		rc = load_gen_end(job->params, &cs.sink);
	free(cs.sink.buf);

	if (rc == -EINVAL)
		err_set(err, rc, "COPY %s: cannot generate rows at '%s'", rel,
			job->params->now);
	if (rc < 0) {
		pgconn_copy_end(conn, what,
				rc == -EINTR ? "load interrupted"
					     : "load failed",
				NULL);
		pgconn_exec(conn, "rollback", "ROLLBACK", NULL);
		return rc;
	}
	if ((rc = pgconn_copy_end(conn, what, NULL, err)) < 0) {
		pgconn_exec(conn, "rollback", "ROLLBACK", NULL);
		return rc;
	}
	snprintf(sql, sizeof(sql), "commit COPY %s", rel);
	return pgconn_exec(conn, sql, "COMMIT", err);
}
