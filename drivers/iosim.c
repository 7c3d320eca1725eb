/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim.c - the iosim driver: replays the I/O that an I/O profile
 * (drivers/iosim_profile.h) measured on PostgreSQL, on files instead of a
 * database (docs/iosim.md). Per transaction: the profile's block reads,
 * each one synchronous 8 KiB pread at a page its own inputs map to
 * (iosim_pagemap.h); its dirtied pages marked in the shared set that the
 * checkpointer thread writes back at the calibrated rate (iosim_ckpt.h);
 * its WAL bytes appended to the log, a commit waiting for the group
 * flush that covers it (iosim_wal.h).
 *
 * The instance (one per run, opened before the connections) holds what
 * the connections share: the profile, the page map with its district
 * state, the open files, the WAL and the checkpointer. A connection
 * holds only its scratch space and its fractional carries.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "drivers/driver.h"
#include "drivers/iosim.h"
#include "drivers/iosim_ckpt.h"
#include "drivers/iosim_files.h"
#include "drivers/iosim_pagemap.h"
#include "drivers/iosim_profile.h"
#include "drivers/iosim_wal.h"

/* What the connections of one run share. */
struct driver_instance {
	struct iosim_profile prof;   /* as read, checksum set */
	struct iosim_pagemap map;    /* geometry and district state */
	bool map_ready;		     /* map was initialised */
	struct iosim_files files;    /* the relation files */
	struct iosim_wal wal;	     /* DIR/wal */
	struct iosim_ckpt ckpt;	     /* dirty set and its writer */
	bool ckpt_ready;	     /* ckpt was initialised */
	double wal_per_call[TXN_NR]; /* WAL bytes per call, by type */
	enum driver_io_mode io_mode; /* direct or buffered */
	atomic_ullong reads;	     /* preads done, by every connection */
	char profile_path[PATH_MAX]; /* for describe() */
};

/* One connection: scratch space and what it owes the averages. */
struct driver_conn {
	struct driver_instance *inst;	  /* shared, not owned */
	struct iosim_pagemap_touch touch; /* this call's pages */
	struct iosim_pagemap_carry carry; /* fractional reads, dirtied */
	struct iosim_pagemap_io io;	  /* this call's plan */
	double wal_carry[TXN_NR];	  /* fractional WAL bytes */
	void *page;			  /* one aligned 8 KiB buffer */
};

int iosim_log_path(const char *dir, char *buf, size_t size)
{
	if (snprintf(buf, size, "%s/%s", dir, IOSIM_LOG_FILE) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

int iosim_prepare(const char *dir, const struct iosim_profile *prof,
		  struct err *err)
{
	return iosim_prepare_dirs(&dir, 1, prof, err);
}

int iosim_prepare_dirs(const char *const *dirs, int ndirs,
		       const struct iosim_profile *prof, struct err *err)
{
	struct iosim_wal wal;
	char path[PATH_MAX];
	int rc;

	rc = iosim_files_prepare_dirs(dirs, ndirs, prof, IOSIM_LOG_RING_BYTES,
				      err);
	if (rc < 0)
		return rc;
	/* the WAL in the first, as pg_wal is in the data directory */
	if (iosim_log_path(dirs[0], path, sizeof(path)) < 0)
		return err_set(err, -ENAMETOOLONG, "%s: path too long",
			       dirs[0]);
	/* opening creates and fills the ring when it is missing or short */
	memset(&wal, 0, sizeof(wal));
	wal.fd = -1;
	rc = iosim_wal_open(&wal, path, IOSIM_LOG_RING_BYTES, NULL, NULL, err);
	iosim_wal_close(&wal);
	return rc;
}

/*
 * The checkpointer's rate: every buffer write of the calibration run
 * (checkpoints, the background writer and the backends' own evictions)
 * wrote back a dirtied page; iosim has one writer for all three.
 */
double iosim_writeback_pages_per_s(const struct iosim_profile *prof)
{
	const struct iosim_profile_background *b = &prof->background;

	return b->checkpoint_writes_per_s + b->bgwriter_writes_per_s +
	       b->backend_writes_per_s;
}

/*
 * Per commit rather than per second, so that a replay faster than the
 * real run (no CPU work) writes back as much per transaction as the real
 * run did. The rates and the counts cover the same interval.
 */
double iosim_writeback_pages_per_commit(const struct iosim_profile *prof)
{
	int64_t commits = 0;
	int t;

	for (t = 0; t < TXN_NR; t++)
		commits += prof->txn[t].commits;
	if (commits <= 0)
		return 0;
	return iosim_writeback_pages_per_s(prof) * prof->duration_s /
	       (double)commits;
}

static void iosim_instance_free(struct driver_instance *in)
{
	if (in->ckpt_ready)
		iosim_ckpt_free(&in->ckpt);
	iosim_wal_close(&in->wal);
	iosim_files_close(&in->files);
	if (in->map_ready)
		iosim_pagemap_free(&in->map);
	free(in);
}

static int iosim_instance_open(const struct driver_config *cfg,
			       struct driver_instance **out, struct err *err)
{
	struct driver_instance *in;
	char wal[PATH_MAX];
	int r, t, rc;

	*out = NULL;
	if (!cfg->profile || !cfg->data_dir)
		return err_set(
			err, -EINVAL,
			"the iosim driver needs --profile FILE and --data-dir DIR");
	in = calloc(1, sizeof(*in));
	if (!in)
		return err_set(err, -ENOMEM, "out of memory");
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		in->files.fd[r] = -1;
	in->wal.fd = -1;
	in->io_mode = cfg->io_mode;
	snprintf(in->profile_path, sizeof(in->profile_path), "%s",
		 cfg->profile);
	rc = iosim_profile_read(cfg->profile, &in->prof, err);
	if (rc < 0)
		goto fail;
	rc = iosim_pagemap_init(&in->map, &in->prof,
				cfg->warehouses > 0 ? cfg->warehouses
						    : in->prof.warehouses,
				err);
	if (rc < 0)
		goto fail;
	in->map_ready = true;
	rc = iosim_files_open(&in->files, cfg->data_dir, &in->prof,
			      cfg->io_mode == DRIVER_IO_DIRECT, err);
	if (rc < 0)
		goto fail;
	rc = iosim_log_path(cfg->data_dir, wal, sizeof(wal));
	if (rc < 0) {
		err_set(err, rc, "%s: path too long", cfg->data_dir);
		goto fail;
	}
	rc = iosim_wal_open(&in->wal, wal, IOSIM_LOG_RING_BYTES, NULL, NULL,
			    err);
	if (rc < 0)
		goto fail;
	rc = iosim_ckpt_init(&in->ckpt, IOSIM_PROFILE_REL_NR, in->files.fd,
			     in->files.pages,
			     iosim_writeback_pages_per_commit(&in->prof), err);
	if (rc < 0)
		goto fail;
	in->ckpt_ready = true;
	rc = iosim_ckpt_start(&in->ckpt, err);
	if (rc < 0)
		goto fail;
	for (t = 0; t < TXN_NR; t++)
		in->wal_per_call[t] = iosim_profile_wal_bytes_per_call(
			&in->prof, (enum txn_type)t);
	*out = in;
	return 0;
fail:
	iosim_instance_free(in);
	return rc;
}

static int iosim_instance_close(struct driver_instance *in, struct err *err)
{
	int rc = 0;

	if (!in)
		return 0;
	if (in->ckpt_ready)
		rc = iosim_ckpt_stop(&in->ckpt, err);
	iosim_instance_free(in);
	return rc;
}

static int iosim_connect(const struct driver_config *cfg,
			 struct driver_conn **conn, struct err *err)
{
	struct driver_conn *c;

	*conn = NULL;
	if (!cfg->instance)
		return err_set(err, -EINVAL,
			       "iosim driver: no instance (open it first)");
	c = calloc(1, sizeof(*c));
	if (!c)
		return err_set(err, -ENOMEM, "iosim driver: out of memory");
	c->page = iosim_files_alloc(IOSIM_PROFILE_PAGE_BYTES);
	if (!c->page) {
		free(c);
		return err_set(err, -ENOMEM, "iosim driver: out of memory");
	}
	c->inst = cfg->instance;
	*conn = c;
	return 0;
}

/*
 * The WAL bytes of this call: the per-call average, the fraction carried
 * to the next call of the type so that the total is exact.
 */
static uint64_t iosim_wal_bytes(struct driver_conn *c, enum txn_type type)
{
	double want = c->inst->wal_per_call[type] + c->wal_carry[type];
	double whole = floor(want);

	c->wal_carry[type] = want - whole;
	return (uint64_t)whole;
}

/*
 * A failed read, write-back or WAL flush is what a crashed server is to
 * the pgsql driver: the connection is lost, and reconnecting fails while
 * the failure stands, so the engine ends the run as partial.
 */
static enum driver_outcome iosim_lost(struct txn_output *out,
				      const struct err *why)
{
	snprintf(out->message, sizeof(out->message), "%.*s",
		 (int)sizeof(out->message) - 1, why->msg);
	out->sqlstate[0] = '\0';
	return DRIVER_LOST;
}

static enum driver_outcome iosim_attempt(struct driver_conn *c,
					 const struct txn_input *in,
					 struct txn_output *out)
{
	struct driver_instance *inst = c->inst;
	bool rollback = in->type == TXN_NEW_ORDER && in->u.new_order.rollback;
	struct err err;
	uint64_t bytes;
	unsigned k;
	int rc;

	err_clear(&err);
	iosim_pagemap_touch(&inst->map, in, &c->touch);
	iosim_pagemap_plan(&inst->map, &c->touch, &c->carry, &c->io);
	for (k = 0; k < c->io.nread; k++) {
		rc = iosim_files_read(&inst->files,
				      (enum iosim_profile_rel)c->io.read[k].rel,
				      c->io.read[k].page, c->page, &err);
		if (rc < 0)
			return iosim_lost(out, &err);
		atomic_fetch_add_explicit(&inst->reads, 1,
					  memory_order_relaxed);
	}
	for (k = 0; k < c->io.ndirty; k++)
		iosim_ckpt_mark(&inst->ckpt, (int)c->io.dirty[k].rel,
				c->io.dirty[k].page);
	bytes = iosim_wal_bytes(c, in->type);
	if (rollback)
		rc = iosim_wal_append(&inst->wal, bytes, &err);
	else
		rc = iosim_wal_commit(&inst->wal, bytes, NULL, &err);
	if (rc < 0)
		return iosim_lost(out, &err);
	if (!rollback)
		iosim_ckpt_commit(&inst->ckpt);

	out->status = rollback ? TXN_STATUS_ROLLBACK : TXN_STATUS_OK;
	if (in->type == TXN_DELIVERY)
		out->delivered = IOSIM_DISTRICTS;
	return DRIVER_DONE;
}

/*
 * A failed WAL write or flush is final, as PostgreSQL's PANIC: while it
 * stands the connection cannot come back. A failed read may have been
 * passing; the next attempt tells. Likewise a failed write-back.
 */
static int iosim_reconnect(struct driver_conn *c, struct err *err)
{
	struct iosim_wal *w = &c->inst->wal;
	struct iosim_ckpt *ck = &c->inst->ckpt;
	int rc;

	pthread_mutex_lock(&w->lock);
	rc = w->error;
	if (rc)
		err_set(err, rc, "%s", w->error_why.msg);
	pthread_mutex_unlock(&w->lock);
	if (rc)
		return rc;
	/* nor can it while the write-back is broken: the data is at risk */
	pthread_mutex_lock(&ck->lock);
	rc = ck->error;
	if (rc)
		err_set(err, rc, "%s", ck->error_why.msg);
	pthread_mutex_unlock(&ck->lock);
	return rc;
}

static void iosim_disconnect(struct driver_conn *c)
{
	if (!c)
		return;
	free(c->page);
	free(c);
}

static int iosim_db_info(struct driver_conn *c, struct driver_db_info *info,
			 struct err *err)
{
	(void)err;
	memset(info, 0, sizeof(*info));
	info->has_meta = true;
	strcpy(info->status, "loaded");
	/* the files hold the rows of the profile's warehouses */
	info->warehouses = c->inst->prof.warehouses;
	/* no names were loaded: any C-Load is valid; 0 as the null driver */
	info->c_load_c_last = 0;
	snprintf(info->version, sizeof(info->version), "%.*s",
		 (int)sizeof(info->version) - 1,
		 c->inst->prof.oltpmark_version[0]
			 ? c->inst->prof.oltpmark_version
			 : OLTPMARK_VERSION);
	return 0;
}

/* A figure per commit, null when it is not known. */
static json_t *iosim_per_commit_value(const struct iosim_profile *p,
				      double per_s)
{
	double v = iosim_profile_per_commit(p, per_s);

	return isfinite(v) ? json_real(v) : json_null();
}

json_t *iosim_per_commit_json(const struct iosim_profile *p)
{
	const struct iosim_profile_background *bg = &p->background;
	json_t *o, *devs;
	int d, bad = 0;

	o = json_object();
	devs = json_object();
	if (!o || !devs) {
		json_decref(o);
		json_decref(devs);
		return NULL;
	}
	bad |= json_object_set_new(o, "commits", json_integer(p->mix_commits));
	bad |= json_object_set_new(
		o, "wal_bytes", iosim_per_commit_value(p, bg->wal_bytes_per_s));
	for (d = 0; d < bg->ndevices; d++) {
		const struct iosim_profile_device *dev = &bg->device[d];

		bad |= json_object_set_new(
			devs, dev->name,
			json_pack("{sosososo}", "reads",
				  iosim_per_commit_value(p, dev->reads_per_s),
				  "read_bytes",
				  iosim_per_commit_value(p,
							 dev->read_bytes_per_s),
				  "writes",
				  iosim_per_commit_value(p, dev->writes_per_s),
				  "write_bytes",
				  iosim_per_commit_value(
					  p, dev->write_bytes_per_s)));
	}
	bad |= json_object_set_new(o, "devices", devs);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int iosim_describe(struct driver_conn *c, json_t *server,
			  struct err *err)
{
	const struct driver_instance *in = c->inst;
	const struct iosim_profile *p = &in->prof;
	json_t *prof = json_object();

	if (!prof)
		return err_set(err, -ENOMEM, "out of memory");
	json_object_set_new(server, "driver", json_string("iosim"));
	json_object_set_new(server, "io_mode",
			    json_string(in->io_mode == DRIVER_IO_DIRECT
						? "direct"
						: "buffered"));
	json_object_set_new(server, "data_dir", json_string(in->files.dir));
	json_object_set_new(server, "profile_checksum",
			    json_string(p->checksum));
	json_object_set_new(prof, "path", json_string(in->profile_path));
	json_object_set_new(prof, "checksum", json_string(p->checksum));
	json_object_set_new(prof, "warehouses", json_integer(p->warehouses));
	json_object_set_new(prof, "config", json_string(p->config));
	json_object_set_new(prof, "server_version",
			    json_string(p->server_version));
	json_object_set_new(prof, "created", json_string(p->created));
	json_object_set_new(prof, "writeback_pages_per_s",
			    json_real(iosim_writeback_pages_per_s(p)));
	json_object_set_new(prof, "writeback_pages_per_commit",
			    json_real(iosim_writeback_pages_per_commit(p)));
	/* the calibration's side of report's fidelity check, so that the
	   run directory holds it and report needs no profile file */
	if (p->mix_commits >= 0) {
		json_t *pc = iosim_per_commit_json(p);

		if (!pc) {
			json_decref(prof);
			return err_set(err, -ENOMEM, "out of memory");
		}
		json_object_set_new(prof, "per_commit", pc);
	}
	json_object_set_new(server, "io_profile", prof);
	json_object_set_new(server, "note",
			    json_string("simulated: no database; the I/O "
					"of the profile replayed on files"));
	return 0;
}

void iosim_counts(struct driver_instance *in, struct iosim_counts *out)
{
	struct iosim_ckpt_stats cs;
	struct iosim_wal_stats ws;

	iosim_ckpt_get_stats(&in->ckpt, &cs);
	iosim_wal_get_stats(&in->wal, &ws);
	out->reads = atomic_load(&in->reads);
	out->commits = ws.commits;
	out->rollbacks = ws.appends;
	out->wal_bytes = ws.bytes;
	out->written = cs.written;
	out->dirty = cs.dirty;
}

static int iosim_stats(struct driver_conn *c, struct driver_stats *stats,
		       struct err *err)
{
	struct iosim_counts n;

	(void)err;
	/* no buffer manager: hits and checkpoint counts are unknown */
	memset(stats, 0xff, sizeof(*stats));
	iosim_counts(c->inst, &n);
	/* every replayed read is a block PostgreSQL read from the kernel */
	stats->blks_read = (long long)n.reads;
	stats->xact_commit = (long long)n.commits;
	stats->xact_rollback = (long long)n.rollbacks;
	stats->buffers_checkpoint = (long long)n.written;
	/* what a commit waited to make durable, as pg_stat_wal's wal_bytes */
	stats->wal_bytes = (long long)n.wal_bytes;
	return 0;
}

const struct driver_ops driver_iosim = {
	.name = "iosim",
	.version = DRIVER_INTERFACE_VERSION,
	.instance_open = iosim_instance_open,
	.instance_close = iosim_instance_close,
	.connect = iosim_connect,
	.attempt = iosim_attempt,
	.reconnect = iosim_reconnect,
	.disconnect = iosim_disconnect,
	.db_info = iosim_db_info,
	.describe = iosim_describe,
	.stats = iosim_stats,
};
