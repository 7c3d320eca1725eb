/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_calibrate.c - `oltpmark calibrate`: run the real workload on
 * PostgreSQL (the pgsql driver, procedure mode) and write the I/O
 * profile that the iosim driver replays (docs/iosim.md).
 *
 * Two parts. First a phase per transaction type: one connection runs
 * that type alone for --phase seconds, after a CHECKPOINT, and the
 * differences of pg_statio_user_tables/indexes give the share of the
 * type's block reads that falls on each relation; the buffers left
 * dirty (pg_buffercache) give the share of its dirtied pages. Then the
 * mixed run: the engine runs the whole mix for --duration seconds into
 * --out (mix.csv, run.json, as `oltpmark run`), and pg_stat_statements
 * (reset before) gives each type's calls, buffer blocks and WAL;
 * pg_stat_bgwriter, pg_stat_wal and /proc/diskstats, sampled around it,
 * the background I/O per second, and the engine the mix's committed
 * transactions: per committed transaction, these are what a replay's
 * fidelity check (`oltpmark report` on an iosim run) compares with.
 * Last, each relation's size, rows per page and the layout.
 *
 * Exit status: 0 the profile was written; 2 bad options, a database
 * that is not loaded, or a server without pg_stat_statements; 1 a
 * failure on the way (nothing is written then).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/parsers/parse_diskstats.h"
#include "config.h"
#include "drivers/driver.h"
#include "drivers/iosim_profile.h"
#include "drivers/pgconn.h"
#include "drivers/pgsql_calibrate.h"
#include "src/base/clock.h"
#include "src/base/log.h"
#include "src/base/rng.h"
#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"
#include "terminals/inputs.h"
#include "terminals/run.h"

/*
 * A type phase that read fewer blocks than this (a cached database
 * reads almost none) gives its read shares from its block accesses
 * (hits and reads) instead: where a cold cache would miss.
 */
#define CAL_MIN_READS 20
#define CAL_GONE_MS   10000 /* wait for the phase's backend to exit */

/* Set by SIGINT/SIGTERM; the engine and the phases poll it. */
static volatile sig_atomic_t cal_stop;

static void cal_on_signal(int sig)
{
	(void)sig;
	cal_stop = 1;
}

/* The options. */
struct cal_opts {
	const char *profile;  /* --profile, required: written */
	const char *out;      /* --out, required: the mixed run's results */
	const char *conninfo; /* --conninfo */
	const char *config;   /* --config, recorded in the profile */
	const char *keying;   /* --keying-think */
	int warehouses;	      /* -w, 0: all loaded */
	int duration_s;	      /* --duration of the mixed run */
	int phase_s;	      /* --phase: seconds per type */
	int connections;      /* -c, 0: min(terminals, 2 x CPUs) */
	int seed;	      /* --seed, 0: 1 */
	int conn_timeout_s;   /* --connect-timeout, -1: not given */
};

static struct cal_opts copts;

static const struct opt_def cal_opt_defs[] = {
	{.long_name = "profile",
	 .kind = OPT_STRING,
	 .value = &copts.profile,
	 .arg_name = "FILE",
	 .help = "the I/O profile to write (required)"},
	{.long_name = "out",
	 .kind = OPT_STRING,
	 .value = &copts.out,
	 .arg_name = "DIR",
	 .help = "results of the mixed run (mix.csv, run.json; required)"},
	{.long_name = "warehouses",
	 .short_name = 'w',
	 .kind = OPT_INT,
	 .value = &copts.warehouses,
	 .arg_name = "W",
	 .help = "warehouses the terminals use (default: all loaded)",
	 .min = 1,
	 .max = 1000000},
	{.long_name = "duration",
	 .short_name = 'd',
	 .kind = OPT_INT,
	 .value = &copts.duration_s,
	 .arg_name = "SECONDS",
	 .help = "the mixed run (default 60)",
	 .min = 1,
	 .max = 86400},
	{.long_name = "phase",
	 .kind = OPT_INT,
	 .value = &copts.phase_s,
	 .arg_name = "SECONDS",
	 .help = "each transaction type alone, for the relation shares (default 10)",
	 .min = 1,
	 .max = 3600},
	{.long_name = "connections",
	 .short_name = 'c',
	 .kind = OPT_INT,
	 .value = &copts.connections,
	 .arg_name = "CONNECTIONS",
	 .help = "of the mixed run (default min(terminals, 2 x CPUs))",
	 .min = 1,
	 .max = 100000},
	{.long_name = "keying-think",
	 .kind = OPT_STRING,
	 .value = &copts.keying,
	 .arg_name = "tpcc|none|scale=F",
	 .help = "keying and think times of the mixed run (default tpcc)"},
	{.long_name = "config",
	 .kind = OPT_STRING,
	 .value = &copts.config,
	 .arg_name = "NAME",
	 .help = "configuration name recorded in the profile (default custom)"},
	{.long_name = "seed",
	 .kind = OPT_INT,
	 .value = &copts.seed,
	 .arg_name = "N",
	 .help = "seed of the random streams (default 1)",
	 .min = 1,
	 .max = INT_MAX},
	{.long_name = "conninfo",
	 .kind = OPT_STRING,
	 .value = &copts.conninfo,
	 .arg_name = "STR",
	 .help = "libpq conninfo, URI or database name (default: PG* vars)"},
	OPT_CONNECT_TIMEOUT(&copts.conn_timeout_s),
};

static const struct opt_cmd cal_cmd_def = {
	.name = "calibrate",
	.synopsis = "--profile FILE --out DIR [options]",
	.summary =
		"Measure the workload's I/O on a loaded PostgreSQL database "
		"and write an\nI/O profile (oltpmark-ioprofile/1) for the "
		"iosim driver: each transaction\ntype alone for --phase "
		"seconds (where its reads and dirtied pages fall),\nthen the "
		"mix for --duration seconds (pg_stat_statements per type,\n"
		"background writes and WAL syncs, device totals), then the "
		"relation sizes.\nThe server must preload pg_stat_statements "
		"(run/pg init does). Exit 0:\nwritten; 2: bad input or "
		"server set-up; 1: failed on the way.",
	.opts = cal_opt_defs,
	.nopts = (int)(sizeof(cal_opt_defs) / sizeof(cal_opt_defs[0])),
	.min_args = 0,
	.max_args = 0,
};

/* shares[r] = part[r] / sum(part), or all 0 when the sum is 0. */
static double cal_shares(const double *part, double *shares)
{
	double sum = 0;
	int r;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		sum += part[r] > 0 ? part[r] : 0;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		shares[r] = sum > 0 && part[r] > 0 ? part[r] / sum : 0;
	return sum;
}

/*
 * One type alone on one pgsql connection for phase_s seconds, between
 * two samples of the relations' counters. Fills the type's shares.
 */
static int cal_phase(PGconn *mon, const struct cal_opts *o,
		     const struct inputs_ctx *ictx, enum txn_type type,
		     struct iosim_profile_txn *x, struct err *err)
{
	const struct driver_ops *pg = driver_find("pgsql");
	struct driver_config cfg = {.conninfo = o->conninfo,
				    .tx_mode = DRIVER_TX_PROCEDURE};
	struct pgsql_calibrate_statio before, after;
	double reads[IOSIM_PROFILE_REL_NR], access[IOSIM_PROFILE_REL_NR];
	double dirty[IOSIM_PROFILE_REL_NR];
	struct driver_conn *conn = NULL;
	struct txn_input in;
	struct txn_output out;
	struct rng rng;
	uint64_t done = 0, failed = 0;
	int64_t end;
	int r, rc;

	rng_seed(&rng, (uint64_t)o->seed, 100 + (uint64_t)type);
	if ((rc = pgsql_calibrate_wait_gone(mon, pgconn_app_name(PGCONN_RUN),
					    CAL_GONE_MS, err)) < 0 ||
	    (rc = pgsql_calibrate_checkpoint(mon, err)) < 0 ||
	    (rc = pgsql_calibrate_statio(mon, &before, err)) < 0)
		return rc;
	rc = pg->connect(&cfg, &conn, err);
	if (rc < 0)
		return rc;
	end = clock_mono_us() + (int64_t)o->phase_s * 1000000;
	while (!cal_stop && clock_mono_us() < end) {
		inputs_generate(ictx, type,
				(int)rng_range(&rng, 1, ictx->warehouses),
				(int)rng_range(&rng, 1, 10), &rng, &in);
		memset(&out, 0, sizeof(out));
		switch (pg->attempt(conn, &in, &out)) {
		case DRIVER_DONE:
			done++;
			break;
		case DRIVER_LOST:
			pg->disconnect(conn);
			return err_set(err, -ENOTCONN, "%s phase: %s",
				       txn_type_name(type), out.message);
		default: /* a conflict or an error: the next one */
			failed++;
			break;
		}
	}
	pg->disconnect(conn);
	if (cal_stop)
		return err_set(err, -EINTR, "interrupted");
	/* its backend flushes its statistics as it exits */
	if ((rc = pgsql_calibrate_wait_gone(mon, pgconn_app_name(PGCONN_RUN),
					    CAL_GONE_MS, err)) < 0 ||
	    (rc = pgsql_calibrate_statio(mon, &after, err)) < 0 ||
	    (rc = pgsql_calibrate_dirty(mon, dirty, err)) < 0)
		return rc;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		reads[r] = after.read[r] - before.read[r];
		access[r] = reads[r] + after.hit[r] - before.hit[r];
	}
	if (cal_shares(reads, x->read_share) < CAL_MIN_READS)
		cal_shares(access, x->read_share);
	if (cal_shares(dirty, x->dirtied_share) == 0)
		cal_shares(access, x->dirtied_share);
	log_info("calibrate: %-12s alone %d s: %llu done, %llu failed",
		 txn_type_name(type), o->phase_s, (unsigned long long)done,
		 (unsigned long long)failed);
	return 0;
}

/* Is name a whole disk (it has /sys/block/NAME), not a partition? */
static bool cal_is_disk(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/block/%s", name);
	return access(path, F_OK) == 0 && strncmp(name, "loop", 4) != 0 &&
	       strncmp(name, "ram", 3) != 0;
}

static int cal_cmp_device(const void *a, const void *b)
{
	return strcmp(((const struct iosim_profile_device *)a)->name,
		      ((const struct iosim_profile_device *)b)->name);
}

/* The disks that did I/O between the snapshots, per second of secs. */
static int cal_devices(const struct diskstats_snapshot *a,
		       const struct diskstats_snapshot *b, double secs,
		       struct iosim_profile_background *bg, struct err *err)
{
	struct diskstats_delta d;
	size_t i;
	int rc;

	memset(&d, 0, sizeof(d));
	rc = parse_diskstats_delta(a, b, &d, err);
	if (rc < 0)
		return rc;
	bg->ndevices = 0;
	for (i = 0; i < d.ndevs && bg->ndevices < IOSIM_PROFILE_DEVICES_MAX;
	     i++) {
		const struct diskstats_delta_dev *dd = &d.devs[i];
		struct iosim_profile_device *dev;

		if (dd->reset || !cal_is_disk(dd->name) ||
		    strlen(dd->name) >= IOSIM_PROFILE_NAME_MAX ||
		    dd->v[DS_READS] + dd->v[DS_WRITES] == 0)
			continue;
		dev = &bg->device[bg->ndevices++];
		snprintf(dev->name, sizeof(dev->name), "%s", dd->name);
		dev->reads_per_s = (double)dd->v[DS_READS] / secs;
		dev->read_bytes_per_s = (double)dd->v[DS_SECTORS_READ] *
					DISKSTATS_SECTOR_BYTES / secs;
		dev->writes_per_s = (double)dd->v[DS_WRITES] / secs;
		dev->write_bytes_per_s = (double)dd->v[DS_SECTORS_WRITTEN] *
					 DISKSTATS_SECTOR_BYTES / secs;
	}
	parse_diskstats_delta_free(&d);
	qsort(bg->device, (size_t)bg->ndevices, sizeof(bg->device[0]),
	      cal_cmp_device);
	return 0;
}

static void cal_on_log(void *ctx, enum engine_log_level level, const char *msg)
{
	(void)ctx;
	if (level == ENGINE_LOG_WARN)
		log_warn("calibrate: %s", msg);
	else
		log_info("calibrate: %s", msg);
}

/*
 * The mixed run through the engine, as `oltpmark run` does it, with
 * the server's counters sampled just around it.
 */
static int cal_mixed(PGconn *mon, const struct cal_opts *o, int warehouses,
		     const struct pacing *pacing, struct iosim_profile *prof,
		     struct err *err)
{
	struct pgsql_calibrate_bg bg0, bg1;
	struct diskstats_snapshot ds0, ds1;
	struct run_config cfg;
	struct run *run = NULL;
	const struct run_result *res;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int terminals = warehouses * 10, t, rc;
	int64_t t0, t1;
	double secs;

	memset(&cfg, 0, sizeof(cfg));
	memset(&ds0, 0, sizeof(ds0));
	memset(&ds1, 0, sizeof(ds1));
	cfg.driver = driver_find("pgsql");
	cfg.db.conninfo = o->conninfo;
	cfg.db.tx_mode = DRIVER_TX_PROCEDURE;
	cfg.warehouses = warehouses;
	cfg.terminals_per_w = 10;
	cfg.connections = o->connections;
	if (!cfg.connections)
		cfg.connections = (int)(2 * (cpus > 0 ? cpus : 1));
	if (cfg.connections > terminals)
		cfg.connections = terminals;
	cfg.ramp_up_s = 0;
	cfg.duration_s = o->duration_s;
	cfg.pacing = *pacing;
	cfg.seed = (uint64_t)o->seed;
	cfg.progress_s = 0;
	cfg.reconnect_s = 10;
	cfg.max_retries = 10;
	cfg.drain_s = RUN_DRAIN_S_DEFAULT;
	cfg.out_dir = o->out;
	cfg.stop_flag = &cal_stop;
	cfg.log = cal_on_log;

	rc = run_open(&run, &cfg, err);
	if (rc < 0)
		return rc;
	if ((rc = pgsql_calibrate_reset_statements(mon, err)) < 0 ||
	    (rc = pgsql_calibrate_background(mon, &bg0, err)) < 0 ||
	    (rc = parse_diskstats_file("/proc/diskstats", &ds0, err)) < 0)
		goto out;
	t0 = clock_mono_us();
	log_info("calibrate: the mix, %d s, %d connections", o->duration_s,
		 cfg.connections);
	rc = run_execute(run, err);
	if (rc < 0)
		goto out;
	t1 = clock_mono_us();
	res = run_get_result(run);
	if (res->partial) {
		rc = err_set(err, -EIO, "the mixed run ended early (%s)%s%s",
			     run_end_name(res->end), res->error[0] ? ": " : "",
			     res->error);
		goto out;
	}
	rc = run_write_json(run, err);
	if (rc < 0)
		goto out;
	if ((rc = pgsql_calibrate_background(mon, &bg1, err)) < 0 ||
	    (rc = parse_diskstats_file("/proc/diskstats", &ds1, err)) < 0 ||
	    (rc = pgsql_calibrate_statements(mon, prof->txn, err)) < 0)
		goto out;
	secs = (double)(t1 - t0) / 1e6;
	prof->duration_s = secs;
	/* a New-Order that rolled back raised, so pg_stat_statements did
	   not record it: the engine counted it */
	for (t = 0; t < TXN_NR; t++)
		prof->txn[t].calls +=
			(int64_t)res->counts.txn[t][TXN_STATUS_ROLLBACK];
	prof->background.checkpoint_writes_per_s =
		(bg1.buffers_checkpoint - bg0.buffers_checkpoint) / secs;
	prof->background.bgwriter_writes_per_s =
		(bg1.buffers_clean - bg0.buffers_clean) / secs;
	prof->background.backend_writes_per_s =
		(bg1.buffers_backend - bg0.buffers_backend) / secs;
	prof->background.wal_writes_per_s =
		(bg1.wal_write - bg0.wal_write) / secs;
	prof->background.wal_syncs_per_s = (bg1.wal_sync - bg0.wal_sync) / secs;
	prof->background.wal_bytes_per_s =
		(bg1.wal_bytes - bg0.wal_bytes) / secs;
	/* the engine's count covers the same interval as the devices' */
	prof->mix_commits = 0;
	for (t = 0; t < TXN_NR; t++)
		prof->mix_commits += (int64_t)res->counts.txn[t][TXN_STATUS_OK];
	rc = cal_devices(&ds0, &ds1, secs, &prof->background, err);
	log_info("calibrate: the mix: %llu transactions in %.1f s, %lld "
		 "committed, %.0f WAL bytes per commit",
		 (unsigned long long)res->mix_rows, secs,
		 (long long)prof->mix_commits,
		 iosim_profile_per_commit(prof,
					  prof->background.wal_bytes_per_s));
out:
	parse_diskstats_free(&ds0);
	parse_diskstats_free(&ds1);
	run_close(run);
	return rc;
}

static int cal_usage(const struct err *err)
{
	log_error("%s", err->msg);
	return EXIT_BAD_USAGE;
}

int cmd_calibrate(int argc, char **argv)
{
	struct cal_opts *o = &copts;
	struct iosim_profile prof;
	struct pgconn_meta meta;
	struct inputs_ctx ictx;
	struct pacing pacing;
	struct sigaction sa, old_int, old_term;
	struct err err = {""};
	char path[PATH_MAX];
	PGconn *mon = NULL;
	struct rng rng;
	time_t now;
	int first, rc, t, status = EXIT_WORK_FAILED;
	bool created;

	memset(o, 0, sizeof(*o));
	o->config = "custom";
	o->keying = "tpcc";
	o->duration_s = 60;
	o->phase_s = 10;
	o->seed = 1;
	o->conn_timeout_s = -1;
	rc = opt_parse(&cal_cmd_def, argc, argv, &first, &err);
	if (rc == OPT_HELP)
		return 0;
	if (rc < 0)
		return cal_usage(&err);
	if (!o->profile || !o->out) {
		err_set(&err, -EINVAL, "calibrate: %s is required (see --help)",
			!o->profile ? "--profile FILE" : "--out DIR");
		return cal_usage(&err);
	}
	if (pacing_parse(o->keying, &pacing, &err) < 0)
		return cal_usage(&err);
	if (o->conninfo && pgconn_validate(o->conninfo, &err) < 0)
		return cal_usage(&err);
	pgconn_set_connect_timeout(o->conn_timeout_s);
	/* made here: removed again (if still empty) when calibrate fails */
	created = mkdir(o->out, 0755) == 0;
	if (!created && errno != EEXIST) {
		err_set(&err, -errno, "option --out: cannot create '%s': %s",
			o->out, strerror(errno));
		return cal_usage(&err);
	}
	snprintf(path, sizeof(path), "%s/run.json", o->out);
	if (access(path, F_OK) == 0) {
		err_set(&err, -EEXIST,
			"option --out: '%s' already holds a run; give a new directory",
			o->out);
		return cal_usage(&err);
	}

	rc = pgconn_connect(o->conninfo, PGCONN_CHECK, &mon, &err);
	if (rc < 0) {
		log_error("calibrate: %s", err.msg);
		if (created)
			rmdir(o->out);
		return rc == -EINVAL ? EXIT_BAD_USAGE : EXIT_WORK_FAILED;
	}
	rc = pgconn_meta_read(mon, &meta, &err);
	if (rc == 0 && strcmp(meta.status, "loaded") != 0)
		rc = err_set(
			&err, -ENODATA,
			"the database is not loaded (oltpmark_meta says '%s')",
			meta.status);
	if (rc == 0 && o->warehouses > meta.warehouses)
		rc = err_set(&err, -ERANGE,
			     "-w %d: the database has only %d warehouses",
			     o->warehouses, meta.warehouses);
	if (rc == 0)
		rc = pgsql_calibrate_setup(mon, &err);
	if (rc < 0) {
		log_error("calibrate: %s", err.msg);
		status = rc == -ENOTCONN || rc == -EIO ? EXIT_WORK_FAILED
						       : EXIT_BAD_USAGE;
		goto out;
	}
	if (!o->warehouses)
		o->warehouses = meta.warehouses;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cal_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	memset(&prof, 0, sizeof(prof));
	rng_seed(&rng, (uint64_t)o->seed, 99);
	inputs_ctx_init(&ictx, o->warehouses, meta.c_load_c_last, &rng);
	for (t = 0; t < TXN_NR; t++) {
		rc = cal_phase(mon, o, &ictx, (enum txn_type)t, &prof.txn[t],
			       &err);
		if (rc < 0)
			goto fail;
	}
	rc = cal_mixed(mon, o, o->warehouses, &pacing, &prof, &err);
	if (rc < 0)
		goto fail;
	rc = pgsql_calibrate_relations(mon, &prof, &err);
	if (rc < 0)
		goto fail;
	snprintf(prof.oltpmark_version, sizeof(prof.oltpmark_version), "%s",
		 OLTPMARK_VERSION);
	now = time(NULL);
	strftime(prof.created, sizeof(prof.created), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime(&now));
	snprintf(prof.config, sizeof(prof.config), "%s", o->config);
	snprintf(prof.server_version, sizeof(prof.server_version), "%s",
		 PQparameterStatus(mon, "server_version")
			 ? PQparameterStatus(mon, "server_version")
			 : "");
	/* the files hold every loaded warehouse's rows */
	prof.warehouses = meta.warehouses;
	rc = iosim_profile_write(o->profile, &prof, &err);
	if (rc < 0)
		goto fail;
	log_info("calibrate: wrote %s (W = %d, %.0f s of the mix)", o->profile,
		 prof.warehouses, prof.duration_s);
	status = 0;
	goto restore;
fail:
	log_error("calibrate: %s", err.msg);
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	PQfinish(mon);
	if (status != 0 && created)
		rmdir(o->out); /* only if still empty */
	return status;
}
