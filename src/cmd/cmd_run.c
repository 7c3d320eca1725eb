/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_run.c - `oltpmark run`: parse and check the options, prepare the
 * result directory, hand the run to terminals/run.h, print its progress,
 * and write meta.json (what was run, where, on what) beside the engine's
 * mix.csv and run.json, then the summary (analysis/report/report.h).
 *
 * Exit status: 0 for a run that completed; 1 for a run that failed or
 * ended early (SIGINT/SIGTERM, server lost: partial results are written
 * and marked "partial": true); 2 for bad options, a result directory that
 * already holds a run, or -w above the warehouses the database holds.
 *
 * Several drivers, one benchmark (docs/run.md, "Several drivers"): each
 * is an `oltpmark run` with --warehouse-range (its share of the
 * terminals) and the same --start-at (the instant on the server's clock
 * at which all start); the clock offset against the server is measured
 * first and a run beyond --max-clock-offset is refused (exit 1). The
 * run directories are joined afterwards by `oltpmark merge`.
 *
 * A driver with shared state (iosim: its files, WAL and checkpointer) has
 * its instance opened here, before the run opens the connections, and
 * closed after; its faults (a bad profile, unprepared files, O_DIRECT
 * refused) are bad input, exit 2.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/report/report.h"
#include "config.h"
#include "drivers/driver.h"
#include "drivers/pgconn.h"
#include "src/base/atomic_file.h"
#include "src/base/clock.h"
#include "src/base/fingerprint.h"
#include "src/base/machine_doc.h"
#include "src/cmd/cmd.h"
#include "src/base/log.h"
#include "src/base/resfile.h"
#include "src/cmd/opt.h"
#include "src/base/sysinfo.h"
#include "terminals/run.h"

/* Serialization failure and deadlock retries of one transaction. */
#define RUN_MAX_RETRIES	  10
#define RUN_RECONNECT_ENV "OLTPMARK_RECONNECT_S"
/* Test only (docs/hacking.md): shift the local clock by this many ms. */
#define RUN_CLOCK_INJECT_ENV "OLTPMARK_TEST_CLOCK_OFFSET_MS"

/* Set by SIGINT/SIGTERM; the engine polls it. */
static volatile sig_atomic_t run_stop;

static void on_signal(int sig)
{
	(void)sig;
	run_stop = 1;
}

/* The option values of one invocation, with their defaults. */
struct run_opts {
	int warehouses;		/* -w, required */
	const char *range;	/* --warehouse-range, NULL: 1..W */
	double start_at_s;	/* --start-at, 0: at once */
	int max_offset_ms;	/* --max-clock-offset */
	int duration_s;		/* -d, required */
	int ramp_up_s;		/* --ramp-up, -1: from the pacing */
	int connections;	/* -c, 0: from the CPU count */
	int terminals_per_w;	/* --terminals-per-warehouse */
	const char *keying;	/* --keying-think */
	int tx_mode;		/* --tx-mode, index of tx_modes */
	int driver;		/* --driver, index of driver_names */
	const char *label;	/* --label */
	const char *config;	/* --config */
	int progress_s;		/* --progress, 0: none */
	int seed;		/* --seed, 0: random */
	int server_pid;		/* --server-pid, 0: from the driver */
	struct opt_list notes;	/* --note KEY=VALUE */
	const char *conninfo;	/* --conninfo, NULL: PG* environment */
	int connect_timeout_s;	/* --connect-timeout, -1: not given */
	const char *debug;	/* --debug */
	const char *out;	/* --out, required */
	const char *profile;	/* --profile (iosim) */
	const char *data_dir;	/* --data-dir (iosim) */
	const char *machine;	/* --machine-from FILE */
	int io_mode;		/* --io-mode, index of io_modes */
	int terminals_in_range; /* this process's terminals (not an option) */
};

static const char *const tx_modes[] = {"procedure", "sql", NULL};
/* Indexed by enum driver_io_mode. */
static const char *const io_modes[] = {"buffered", "direct", NULL};

/* The paragraph of --help. */
#define RUN_SUMMARY                                                         \
	"Drive the TPC-C-like workload: W x N emulated terminals (keying\n" \
	"and think times, 23-card deck) served by CONNECTIONS worker\n"     \
	"threads, each with its own connection, for ramp-up + duration\n"   \
	"seconds. Prints a progress line every --progress seconds and\n"    \
	"writes DIR/mix.csv (every transaction), run.json, meta.json and\n" \
	"the summary. Exit status 0: the run completed; 1: it failed or\n"  \
	"ended early (SIGINT, SIGTERM, server lost: results written,\n"     \
	"marked partial); 2: bad input. A lost connection is retried for\n" \
	"90 s (" RUN_RECONNECT_ENV "=S: S seconds)."

/* This invocation's options (reset from run_defaults by cmd_run). */
static struct run_opts opts;

/* Whether the seed was drawn at random (no --seed): the fingerprint's
 * seed rule. */
static bool seed_drawn;

/* --machine-from's document: the server's machine, read there
 * (machine_doc.h); NULL: this machine's. */
static json_t *machine_doc;

/* OLTPMARK_TEST_CLOCK_OFFSET_MS in us (recorded in meta.json). */
static int64_t injected_us;

static const struct run_opts run_defaults = {
	.ramp_up_s = -1,
	.terminals_per_w = 10,
	.keying = "tpcc",
	.config = "custom",
	.progress_s = 10,
	.max_offset_ms = CLOCKOFF_MAX_MS_DEFAULT,
	.connect_timeout_s = -1,
};

static const struct opt_def run_opt_defs[] = {
	{.long_name = "warehouses",
	 .short_name = 'w',
	 .kind = OPT_INT,
	 .value = &opts.warehouses,
	 .arg_name = "W",
	 .help = "warehouses to use: 1..W (required)",
	 .min = 1,
	 .max = 1000000},
	{.long_name = "warehouse-range",
	 .kind = OPT_STRING,
	 .value = &opts.range,
	 .arg_name = "FIRST-LAST|K/N",
	 .help = "terminals of these home warehouses only (one of several "
		 "drivers; K/N: the K-th of N near-equal parts of 1..W)"},
	{.long_name = "start-at",
	 .kind = OPT_DOUBLE,
	 .value = &opts.start_at_s,
	 .arg_name = "EPOCH_S",
	 .help = "start (the ramp-up) when the server's clock reads this, "
		 "seconds since the epoch (default: at once)",
	 .min = 1,
	 .max = 1e11},
	{.long_name = "max-clock-offset",
	 .kind = OPT_INT,
	 .value = &opts.max_offset_ms,
	 .arg_name = "MS",
	 .help = "refuse the run when the clock is further off the server's "
		 "(default 50)",
	 .min = 1,
	 .max = 3600000},
	{.long_name = "duration",
	 .short_name = 'd',
	 .kind = OPT_INT,
	 .value = &opts.duration_s,
	 .arg_name = "SECONDS",
	 .help = "measured interval after the ramp-up (required)",
	 .min = 1,
	 .max = 86400 * 7},
	{.long_name = "ramp-up",
	 .kind = OPT_INT,
	 .value = &opts.ramp_up_s,
	 .arg_name = "S",
	 .help = "ramp-up seconds (default 10 + 50 x time scale: tpcc 60, none 10)",
	 .min = 0,
	 .max = 86400},
	{.long_name = "connections",
	 .short_name = 'c',
	 .kind = OPT_INT,
	 .value = &opts.connections,
	 .arg_name = "CONNECTIONS",
	 .help = "connections = worker threads (default min(terminals, 2 x CPUs))",
	 .min = 1,
	 .max = 100000},
	{.long_name = "terminals-per-warehouse",
	 .kind = OPT_INT,
	 .value = &opts.terminals_per_w,
	 .arg_name = "N",
	 .help = "terminals per warehouse (default 10, as TPC-C)",
	 .min = 1,
	 .max = 1000},
	{.long_name = "keying-think",
	 .kind = OPT_STRING,
	 .value = &opts.keying,
	 .arg_name = "tpcc|none|scale=F",
	 .help = "keying and think times (default tpcc, the spec's; "
		 "run/oltpmark-run gives none: back to back saturates a "
		 "small database, see docs/deviations.md)"},
	{.long_name = "tx-mode",
	 .kind = OPT_CHOICE,
	 .value = &opts.tx_mode,
	 .arg_name = "procedure|sql",
	 .help = "stored functions or client-side SQL (default procedure)",
	 .choices = tx_modes},
	{.long_name = "driver",
	 .kind = OPT_CHOICE,
	 .value = &opts.driver,
	 .arg_name = DRIVER_NAMES_HELP,
	 .help = "driver (default pgsql; null: no database; iosim: replay a profile)",
	 .choices = driver_names},
	{.long_name = "profile",
	 .kind = OPT_STRING,
	 .value = &opts.profile,
	 .arg_name = "FILE",
	 .help = "iosim: the I/O profile to replay (oltpmark calibrate)"},
	{.long_name = "data-dir",
	 .kind = OPT_STRING,
	 .value = &opts.data_dir,
	 .arg_name = "DIR",
	 .help = "iosim: the relation files (oltpmark iosim-prepare)"},
	{.long_name = "io-mode",
	 .kind = OPT_CHOICE,
	 .value = &opts.io_mode,
	 .arg_name = "buffered|direct",
	 .help = "iosim: page cache (cached) or O_DIRECT (default buffered)",
	 .choices = io_modes},
	{.long_name = "label",
	 .kind = OPT_STRING,
	 .value = &opts.label,
	 .arg_name = "L",
	 .help = "label of the run (default: uname -r)"},
	{.long_name = "config",
	 .kind = OPT_STRING,
	 .value = &opts.config,
	 .arg_name = "NAME",
	 .help = "configuration name (default custom)"},
	{.long_name = "progress",
	 .kind = OPT_INT,
	 .value = &opts.progress_s,
	 .arg_name = "S",
	 .help = "progress line every S seconds, 0: none (default 10)",
	 .min = 0,
	 .max = 86400},
	{.long_name = "seed",
	 .kind = OPT_INT,
	 .value = &opts.seed,
	 .arg_name = "N",
	 .help = "seed of the random streams (default: random, recorded)",
	 .min = 1,
	 .max = INT_MAX},
	{.long_name = "server-pid",
	 .kind = OPT_INT,
	 .value = &opts.server_pid,
	 .arg_name = "PID",
	 .help = "postmaster PID, for the server's CPU time (default: from driver)",
	 .min = 1,
	 .max = INT_MAX},
	{.long_name = "note",
	 .kind = OPT_LIST,
	 .value = &opts.notes,
	 .arg_name = "KEY=VALUE",
	 .help = "record KEY=VALUE under \"notes\" in meta.json (repeatable)"},
	{.long_name = "conninfo",
	 .kind = OPT_STRING,
	 .value = &opts.conninfo,
	 .arg_name = "STR",
	 .help = "libpq conninfo, URI or database name (default: PG* vars)"},
	OPT_CONNECT_TIMEOUT(&opts.connect_timeout_s),
	{.long_name = "machine-from",
	 .kind = OPT_STRING,
	 .value = &opts.machine,
	 .arg_name = "FILE",
	 .help = "the server's machine facts, the JSON of oltpmark sysinfo "
		 "run there, for meta.json and sys/sysctl.txt (default: this "
		 "machine's)"},
	{.long_name = "debug",
	 .kind = OPT_STRING,
	 .value = &opts.debug,
	 .arg_name = "CATS",
	 .help = "debug categories: load,driver,term,report or all"},
	{.long_name = "out",
	 .kind = OPT_STRING,
	 .value = &opts.out,
	 .arg_name = "DIR",
	 .help = "result directory (required; created, its parent must exist)"},
};

static const struct opt_cmd run_cmd_def = {
	.name = "run",
	.synopsis = "-w W -d SECONDS --out DIR [options]",
	.summary = RUN_SUMMARY,
	.opts = run_opt_defs,
	.nopts = (int)(sizeof(run_opt_defs) / sizeof(run_opt_defs[0])),
	.min_args = 0,
	.max_args = 0,
};

/* Check --note values: KEY=VALUE, KEY of [A-Za-z0-9_.-], no repeats. */
static int check_notes(const struct opt_list *notes, struct err *err)
{
	int i, j;

	for (i = 0; i < notes->count; i++) {
		const char *s = notes->items[i], *eq = strchr(s, '=');
		size_t klen = eq ? (size_t)(eq - s) : 0, k;

		if (!eq || klen == 0)
			return err_set(err, -EINVAL,
				       "option --note: '%s' is not KEY=VALUE",
				       s);
		for (k = 0; k < klen; k++)
			if (!(s[k] == '_' || s[k] == '-' || s[k] == '.' ||
			      (s[k] >= '0' && s[k] <= '9') ||
			      (s[k] >= 'a' && s[k] <= 'z') ||
			      (s[k] >= 'A' && s[k] <= 'Z')))
				return err_set(
					err, -EINVAL,
					"option --note: key '%.*s' may hold only letters, digits, '_', '-' and '.'",
					(int)klen, s);
		for (j = 0; j < i; j++)
			if (strncmp(notes->items[j], s, klen + 1) == 0)
				return err_set(
					err, -EINVAL,
					"option --note: key '%.*s' given twice",
					(int)klen, s);
	}
	return 0;
}

/* OLTPMARK_RECONNECT_S, or the TPC-C default of 90 s. */
static int reconnect_seconds(int *out, struct err *err)
{
	const char *s = getenv(RUN_RECONNECT_ENV);
	char *end;
	long v;

	*out = RUN_RECONNECT_S_DEFAULT;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 86400)
		return err_set(
			err, -EINVAL,
			"%s: '%s' is not a number of seconds in 1..86400",
			RUN_RECONNECT_ENV, s);
	*out = (int)v;
	return 0;
}

/* OLTPMARK_TEST_CLOCK_OFFSET_MS (test only), in microseconds; 0 unset. */
static int clock_inject_us(int64_t *out, struct err *err)
{
	const char *s = getenv(RUN_CLOCK_INJECT_ENV);
	char *end;
	long v;

	*out = 0;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < -86400000L || v > 86400000L)
		return err_set(err, -EINVAL,
			       "%s: '%s' is not a number of milliseconds",
			       RUN_CLOCK_INJECT_ENV, s);
	*out = (int64_t)v * 1000;
	return 0;
}

/*
 * mkdir DIR, its parent required (as compare's -o): a typo in a path
 * fails instead of growing a tree. 0 or negative errno; *created tells
 * whether DIR was made; -ENOENT when the parent is missing.
 */
static int make_dir(const char *dir, bool *created)
{
	char parent[PATH_MAX];
	size_t len = strlen(dir);
	struct stat st;
	char *slash;

	*created = false;
	if (len == 0 || len >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, dir, len + 1);
	while (len > 1 && parent[len - 1] == '/')
		parent[--len] = '\0';
	slash = strrchr(parent, '/');
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	if (stat(parent, &st) < 0 || !S_ISDIR(st.st_mode))
		return -ENOENT;
	if (mkdir(dir, 0755) == 0)
		*created = true;
	else if (errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Make the result directory. It may exist and hold hook output (sys/),
 * but not the files of an earlier run. 0, or -EEXIST/-errno with err.
 */
static int prepare_out_dir(const char *dir, bool *created, struct err *err)
{
	static const char *const results[] = {"mix.csv", "run.json",
					      "meta.json", "summary.json"};
	struct stat st;
	char path[PATH_MAX];
	size_t i;
	int rc;

	rc = make_dir(dir, created);
	if (rc == -ENOENT)
		return err_set(
			err, rc,
			"option --out: the parent directory of '%s' does not exist",
			dir);
	if (rc < 0)
		return err_set(err, rc, "option --out: cannot create '%s': %s",
			       dir, strerror(-rc));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return err_set(err, -ENOTDIR,
			       "option --out: '%s' is not a directory", dir);
	for (i = 0; i < sizeof(results) / sizeof(results[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, results[i]);
		if (access(path, F_OK) == 0)
			return err_set(
				err, -EEXIST,
				"option --out: '%s' already holds a run (%s); give a new directory",
				dir, results[i]);
	}
	return 0;
}

static void iso8601(int64_t wall_us, char *buf, size_t size)
{
	time_t t = (time_t)(wall_us / 1000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static json_t *notes_json(const struct opt_list *notes)
{
	json_t *o = json_object();
	int i;

	for (i = 0; o && i < notes->count; i++) {
		const char *s = notes->items[i], *eq = strchr(s, '=');
		char key[256];
		json_t *v;

		snprintf(key, sizeof(key), "%.*s", (int)(eq - s), s);
		/* true and false become JSON booleans, the rest strings */
		if (strcmp(eq + 1, "true") == 0)
			v = json_true();
		else if (strcmp(eq + 1, "false") == 0)
			v = json_false();
		else
			v = json_string(eq + 1);
		json_object_set_new(o, key, v);
	}
	return o;
}

/* Write obj to DIR/NAME (src/base/resfile.h: through NAME.tmp, synced). */
static int write_json(const char *dir, const char *name, json_t *obj,
		      struct err *err)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s/%s: path too long", dir,
			       name);
	return resfile_write_json(path, obj, err);
}

/*
 * Buffer hit ratio of the measured interval (pg_stat_database deltas), or
 * -1 when unknown: the cached configuration is only what it claims when
 * this is close to 1.
 */
static double hit_ratio(const struct run_result *r)
{
	const struct driver_stats *d = &r->server_stats.d;

	if (!r->server_stats.valid || d->blks_hit < 0 || d->blks_read < 0 ||
	    d->blks_hit + d->blks_read == 0)
		return -1;
	return (double)d->blks_hit / (double)(d->blks_hit + d->blks_read);
}

static json_t *hit_ratio_json(const struct run_result *r)
{
	double ratio = hit_ratio(r);

	return ratio < 0 ? json_null() : json_real(round(ratio * 1e6) / 1e6);
}

/* This machine's name, as mix.csv's host column of a merge shows it. */
static const char *host_name(void)
{
	static char name[256];

	if (gethostname(name, sizeof(name) - 1) < 0 || !name[0])
		snprintf(name, sizeof(name), "unknown");
	return name;
}

static json_t *range_json(const struct run_opts *o, const struct whrange *r)
{
	json_t *j = json_object();

	json_object_set_new(j, "first", json_integer(r->first));
	json_object_set_new(j, "last", json_integer(r->last));
	json_object_set_new(j, "of", json_integer(o->warehouses));
	return j;
}

/* The clock offset against the server, and the start on its clock. */
static json_t *clock_json(const struct run_opts *o, const struct run_result *r)
{
	const struct clockoff *c = &r->clock;
	json_t *j = json_object();

	json_object_set_new(j, "measured", json_boolean(c->measured));
	json_object_set_new(j, "offset_ms",
			    json_real((double)c->offset_us / 1000.0));
	json_object_set_new(j, "uncertainty_ms",
			    json_real((double)c->uncertainty_us / 1000.0));
	json_object_set_new(j, "rtt_ms", json_real((double)c->rtt_us / 1000.0));
	json_object_set_new(j, "samples", json_integer(c->samples));
	json_object_set_new(j, "max_ms", json_integer(o->max_offset_ms));
	json_object_set_new(
		j, "start_server_unix_us",
		json_integer((json_int_t)(r->start_wall_us + c->offset_us)));
	json_object_set_new(
		j, "start_late_ms",
		o->start_at_s > 0 ? json_real((double)r->start_late_us / 1000.0)
				  : json_null());
	if (injected_us)
		json_object_set_new(j, "injected_ms",
				    json_real((double)injected_us / 1000.0));
	return j;
}

/*
 * meta.json's kernel, cpu and memory: this machine's; with
 * --machine-from, the document's (the machine the server ran on) with
 * its name under "machine_host", and this machine's under "driver_host"
 * with its name. 0, or -ENOMEM.
 */
static int add_machine(json_t *meta)
{
	static const char *const keys[] = {"kernel", "cpu", "memory"};
	json_t *driver, *host;
	size_t i;
	int rc;

	if (!machine_doc)
		return sysinfo_add_json(meta);
	driver = json_object();
	if (!driver)
		return -ENOMEM;
	json_object_set_new(driver, "host", json_string(host_name()));
	rc = sysinfo_add_json(driver);
	if (rc < 0) {
		json_decref(driver);
		return rc;
	}
	json_object_set_new(meta, "driver_host", driver);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set(meta, keys[i],
				json_object_get(machine_doc, keys[i]));
	host = json_object_get(machine_doc, "host");
	json_object_set_new(meta, "machine_host",
			    json_is_string(host) ? json_incref(host)
						 : json_null());
	return 0;
}

static int write_meta(const struct opt_cmd *cmd, const struct run_opts *o,
		      const struct whrange *range, struct run *run,
		      struct err *err)
{
	const struct run_result *r = run_get_result(run);
	const struct driver_db_info *db = run_db_info(run);
	json_t *meta = json_object(), *opts = opt_to_json(cmd), *dbj, *notes;
	char start[32], end[32];
	int rc;

	if (!meta || !opts) {
		json_decref(meta);
		json_decref(opts);
		return err_set(err, -ENOMEM, "out of memory");
	}
	iso8601(r->start_wall_us, start, sizeof(start));
	iso8601(r->end_wall_us, end, sizeof(end));
	json_object_set_new(meta, "format", json_string(RESFILE_TAG_META));
	json_object_set_new(meta, "oltpmark_version",
			    json_string(OLTPMARK_VERSION));
	json_object_set_new(meta, "label", json_string(o->label));
	json_object_set_new(meta, "config", json_string(o->config));
	json_object_set_new(meta, "driver",
			    json_string(driver_names[o->driver]));
	json_object_set_new(meta, "options", opts);
	json_object_set_new(meta, "start", json_string(start));
	json_object_set_new(meta, "end", json_string(end));
	json_object_set_new(meta, "start_unix_s",
			    json_real((double)r->start_wall_us / 1e6));
	json_object_set_new(meta, "end_unix_s",
			    json_real((double)r->end_wall_us / 1e6));
	rc = add_machine(meta);
	if (rc < 0) {
		json_decref(meta);
		return err_set(err, rc, "out of memory");
	}
	json_object_set(meta, "server", run_server_json(run));
	dbj = json_object();
	json_object_set_new(dbj, "warehouses", json_integer(db->warehouses));
	json_object_set_new(dbj, "c_load_c_last",
			    json_integer(db->c_load_c_last));
	json_object_set_new(dbj, "loaded_by", json_string(db->version));
	json_object_set_new(meta, "database", dbj);
	json_object_set_new(meta, "buffer_hit_ratio", hit_ratio_json(r));
	json_object_set_new(meta, "host", json_string(host_name()));
	json_object_set_new(meta, "warehouse_range", range_json(o, range));
	json_object_set_new(meta, "clock", clock_json(o, r));
	notes = notes_json(&o->notes);
	/* a first-class flag too: diagnostic runs are never scored; "yes"
	   means what it means to report and compare */
	json_object_set_new(
		meta, "diagnostic",
		json_boolean(resfile_get_truth(notes, "diagnostic") == 1));
	json_object_set_new(meta, "notes", notes);
	/* after everything it reads: options, notes, server, database */
	rc = machine_doc ? fingerprint_add_doc(meta, machine_doc,
					       seed_drawn ? "random" : "fixed")
			 : fingerprint_add(meta, "",
					   seed_drawn ? "random" : "fixed");
	if (rc < 0) {
		json_decref(meta);
		return err_set(err, rc, "out of memory");
	}
	rc = write_json(o->out, "meta.json", meta, err);
	json_decref(meta);
	return rc;
}

/*
 * Every sysctl of this machine into DIR/sys/sysctl.txt, for what the
 * fingerprint's list misses; with --machine-from, the document's text
 * (the server's machine). Not being able to write it is a warning: the
 * run's figures do not depend on it.
 */
static void write_sysctls(const char *dir)
{
	char path[PATH_MAX];
	struct atomic_file af;
	struct err err = {""};
	int rc;

	if (snprintf(path, sizeof(path), "%s/sys", dir) >= (int)sizeof(path))
		return;
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		log_warn("run: %s: %s (no sysctl.txt)", path, strerror(errno));
		return;
	}
	strncat(path, "/sysctl.txt", sizeof(path) - strlen(path) - 1);
	rc = atomic_file_open(&af, path, &err);
	if (rc == 0 && machine_doc) {
		const char *text = json_string_value(
			json_object_get(machine_doc, "sysctl"));

		rc = atomic_file_close(&af, fputs(text, af.f) == EOF ? -EIO : 0,
				       &err);
	} else if (rc == 0) {
		rc = atomic_file_close(&af, fingerprint_sysctl_all("", af.f),
				       &err);
	}
	if (rc < 0)
		log_warn("run: %s", err.msg[0] ? err.msg
					       : "sys/sysctl.txt not "
						 "written");
}

/* Whether the driver simulates the database (its NOTPM is simulated). */
static bool run_simulated(const struct run_opts *o)
{
	return strcmp(driver_names[o->driver], "iosim") == 0;
}

static void on_progress(void *ctx, const struct run_progress *p)
{
	const struct run_opts *o = ctx;
	char p90[32], done[48];

	if (p->new_order_p90_ms >= 0)
		snprintf(p90, sizeof(p90), "%.1f ms", p->new_order_p90_ms);
	else
		snprintf(p90, sizeof(p90), "-");
	/* Seconds done of the run's whole length (ramp-up included), so
	 * that a line says how far the run has come. */
	snprintf(done, sizeof(done), "%.0f/%d", p->elapsed_s,
		 o->ramp_up_s + o->duration_s);
	log_info(
		"run: %9s s  %sNOTPM %8.0f  TPM %8.0f  NO p90 %s  errors %llu (total %llu)%s",
		done, run_simulated(o) ? "simulated " : "", p->notpm, p->tpm,
		p90, (unsigned long long)p->errors,
		(unsigned long long)p->errors_total,
		p->ramp_up ? "  (ramp-up)" : "");
}

static void on_log(void *ctx, enum engine_log_level level, const char *msg)
{
	(void)ctx;
	if (level == ENGINE_LOG_WARN)
		log_warn("run: %s", msg);
	else
		log_info("run: %s", msg);
}

/*
 * run.json names the driver; a run that replayed a profile also names
 * the profile by its checksum, so that two simulated runs are known to
 * replay the same I/O. The engine writes run.json without knowing the
 * driver, so the checksum is added here, the file rewritten atomically.
 */
static int add_profile_checksum(const char *dir, json_t *server,
				struct err *err)
{
	json_t *sum = json_object_get(server, "profile_checksum"), *root;
	char path[PATH_MAX];
	int rc;

	if (!json_is_string(sum))
		return 0;
	if (snprintf(path, sizeof(path), "%s/run.json", dir) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s: path too long", dir);
	rc = resfile_load(path, path, &root, err);
	if (rc < 0)
		return rc;
	json_object_set(root, "profile_checksum", sum);
	rc = resfile_write_json(path, root, err);
	json_decref(root);
	return rc;
}

/* Effective values of the options left to defaults, written back so that
 * meta.json records what was used. */
static void resolve_defaults(struct run_opts *o, const struct pacing *p)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long long terminals = (long long)o->terminals_in_range;

	if (o->ramp_up_s < 0)
		o->ramp_up_s = (int)lround(10.0 + 50.0 * p->scale);
	if (o->connections == 0) {
		long long c = 2LL * (cpus > 0 ? cpus : 1);

		o->connections = (int)(c < terminals ? c : terminals);
	}
	seed_drawn = o->seed == 0;
	if (o->seed == 0) {
		unsigned int r = 0;

		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = (unsigned int)clock_wall_us();
		o->seed = (int)(r & INT_MAX);
		if (o->seed == 0)
			o->seed = 1;
	}
}

/* Install the handlers; the second signal of a kind kills at once. */
static void catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND; /* no SA_RESTART: sleeps see EINTR */
	sigaction(SIGINT, &sa, old_int);
	sigaction(SIGTERM, &sa, old_term);
}

static const struct clockoff *res_clock(const struct run *run)
{
	return &run_get_result(run)->clock;
}

static int usage_error(const struct err *err)
{
	log_error("%s", err->msg);
	return EXIT_BAD_USAGE;
}

/* cmd_run's work; cmd_run releases what it kept (machine_doc). */
static int run_main(int argc, char **argv)
{
	const struct opt_cmd *cmd = &run_cmd_def;
	struct run_opts *o = &opts;
	struct sigaction old_int, old_term;
	struct run_config cfg;
	struct run *run = NULL;
	struct driver_instance *inst = NULL;
	const struct run_result *res;
	struct pacing pacing;
	struct whrange range;
	static char release[128];
	char pacing_text[64], range_text[48] = "";
	struct err err;
	uint64_t errors = 0;
	bool created;
	int rc, first, reconnect_s, status, t;

	*o = run_defaults;
	err_clear(&err);
	if (sysinfo_kernel_release(release, sizeof(release)) < 0 || !*release)
		snprintf(release, sizeof(release), "unknown");
	o->label = release;
	rc = opt_parse(cmd, argc, argv, &first, &err);
	if (rc == OPT_HELP)
		return 0;
	if (rc < 0)
		return usage_error(&err);
	if (!o->warehouses || !o->duration_s || !o->out) {
		err_set(&err, -EINVAL, "run: %s is required (see --help)",
			!o->warehouses	 ? "-w W"
			: !o->duration_s ? "-d SECONDS"
					 : "--out DIR");
		return usage_error(&err);
	}
	if (pacing_parse(o->keying, &pacing, &err) < 0 ||
	    check_notes(&o->notes, &err) < 0 ||
	    reconnect_seconds(&reconnect_s, &err) < 0 ||
	    clock_inject_us(&injected_us, &err) < 0)
		return usage_error(&err);
	range.first = 1;
	range.last = o->warehouses;
	if (o->range &&
	    whrange_parse(o->range, o->warehouses, &range, &err) < 0) {
		char msg[ERR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err.msg);
		err_set(&err, -EINVAL, "option --warehouse-range: %s", msg);
		return usage_error(&err);
	}
	o->terminals_in_range = whrange_count(&range) * o->terminals_per_w;
	if (o->start_at_s > 0 &&
	    (double)clock_wall_us() / 1e6 - o->start_at_s > 3600) {
		err_set(&err, -EINVAL,
			"option --start-at: %.3f is more than an hour ago",
			o->start_at_s);
		return usage_error(&err);
	}
	if (o->conninfo && pgconn_validate(o->conninfo, &err) < 0) {
		char msg[ERR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err.msg);
		err_set(&err, -EINVAL, "option --conninfo: %s", msg);
		return usage_error(&err);
	}
	pgconn_set_connect_timeout(o->connect_timeout_s);
	if (o->debug && log_set_debug(o->debug) < 0) {
		err_set(&err, -EINVAL,
			"option --debug: '%s' is not a list of categories (load,driver,term,report,all)",
			o->debug);
		return usage_error(&err);
	}
	if (o->machine &&
	    machine_doc_read(o->machine, &machine_doc, &err) < 0) {
		char msg[ERR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err.msg);
		err_set(&err, -EINVAL, "option --machine-from: %s", msg);
		return usage_error(&err);
	}
	if (!run_simulated(o) && (o->profile || o->data_dir)) {
		err_set(&err, -EINVAL, "option --%s: only for --driver iosim",
			o->profile ? "profile" : "data-dir");
		return usage_error(&err);
	}
	if (run_simulated(o) && (!o->profile || !o->data_dir)) {
		err_set(&err, -EINVAL,
			"run: --driver iosim needs --profile FILE and --data-dir DIR");
		return usage_error(&err);
	}
	if (o->connections > o->terminals_in_range) {
		err_set(&err, -EINVAL,
			"option --connections: %d is more than the %d terminals",
			o->connections, o->terminals_in_range);
		return usage_error(&err);
	}
	resolve_defaults(o, &pacing);
	if (prepare_out_dir(o->out, &created, &err) < 0)
		return usage_error(&err);

	memset(&cfg, 0, sizeof(cfg));
	cfg.driver = driver_find(driver_names[o->driver]);
	cfg.db.conninfo = o->conninfo;
	cfg.db.tx_mode = (enum driver_tx_mode)o->tx_mode;
	cfg.db.warehouses = o->warehouses;
	cfg.db.profile = o->profile;
	cfg.db.data_dir = o->data_dir;
	cfg.db.io_mode = (enum driver_io_mode)o->io_mode;
	cfg.max_retries = RUN_MAX_RETRIES;
	cfg.warehouses = o->warehouses;
	if (o->range)
		cfg.range = range;
	cfg.start_at_us = (int64_t)llround(o->start_at_s * 1e6);
	cfg.max_clock_offset_us = (int64_t)o->max_offset_ms * 1000;
	cfg.clock_inject_us = injected_us;
	cfg.terminals_per_w = o->terminals_per_w;
	cfg.connections = o->connections;
	cfg.ramp_up_s = o->ramp_up_s;
	cfg.duration_s = o->duration_s;
	cfg.pacing = pacing;
	cfg.seed = (uint64_t)o->seed;
	cfg.progress_s = o->progress_s;
	cfg.reconnect_s = reconnect_s;
	cfg.drain_s = RUN_DRAIN_S_DEFAULT;
	cfg.server_pid = o->server_pid;
	cfg.out_dir = o->out;
	cfg.stop_flag = &run_stop;
	cfg.progress = on_progress;
	cfg.log = on_log;
	cfg.cb_ctx = o;
	if (!cfg.driver) {
		err_set(&err, -EINVAL, "option --driver: '%s' is not available",
			driver_names[o->driver]);
		return usage_error(&err);
	}

	rc = driver_instance_open(cfg.driver, &cfg.db, &inst, &err);
	if (rc < 0) {
		if (created)
			rmdir(o->out);
		log_error("run: %s", err.msg);
		return rc == -ENOMEM || rc == -EIO ? EXIT_WORK_FAILED
						   : EXIT_BAD_USAGE;
	}
	cfg.db.instance = inst;

	run_stop = 0;
	catch_signals(&old_int, &old_term);
	rc = run_open(&run, &cfg, &err);
	if (rc < 0) {
		if (created)
			rmdir(o->out); /* only if still empty */
		log_error("run: %s", err.msg);
		status = rc == -ERANGE ? EXIT_BAD_USAGE : EXIT_WORK_FAILED;
		goto out;
	}
	if (res_clock(run)->measured)
		log_info(
			"run: clock %+.3f ms off the server's (within %.3f ms)",
			(double)res_clock(run)->offset_us / 1000.0,
			(double)res_clock(run)->uncertainty_us / 1000.0);
	if (run_stop) {
		run_close(run);
		if (created)
			rmdir(o->out);
		log_error("run: interrupted before the start; nothing written");
		status = EXIT_WORK_FAILED;
		goto out;
	}
	log_debug(
		LOG_CAT_TERM,
		"run: NURand C: C_LAST load %d run %d, C_ID %d, OL_I_ID %d; seed %d",
		run_inputs(run)->c_load_c_last, run_inputs(run)->c_c_last,
		run_inputs(run)->c_c_id, run_inputs(run)->c_ol_i_id, o->seed);
	run_pacing_text(&pacing, pacing_text, sizeof(pacing_text));
	if (o->range)
		snprintf(range_text, sizeof(range_text), " (homes %d-%d)",
			 range.first, range.last);
	log_info(
		"run: %d warehouse%s%s, %d terminals, %d connection%s, keying/think %s, ramp-up %d s, duration %d s, driver %s, %s mode",
		o->warehouses, o->warehouses == 1 ? "" : "s", range_text,
		o->terminals_in_range, o->connections,
		o->connections == 1 ? "" : "s", pacing_text, o->ramp_up_s,
		o->duration_s, driver_names[o->driver], tx_modes[o->tx_mode]);
	if (o->start_at_s > 0)
		log_info("run: starting at %.3f on the server's clock",
			 o->start_at_s);
	rc = run_execute(run, &err);
	if (rc < 0) {
		log_error("run: %s", err.msg);
		run_close(run);
		if (created)
			rmdir(o->out); /* only if still empty */
		status = EXIT_WORK_FAILED;
		goto out;
	}
	res = run_get_result(run);
	status = res->partial ? EXIT_WORK_FAILED : 0;
	if (run_write_json(run, &err) < 0 ||
	    add_profile_checksum(o->out, run_server_json(run), &err) < 0 ||
	    write_meta(cmd, o, &range, run, &err) < 0) {
		log_error("run: %s", err.msg);
		status = EXIT_WORK_FAILED;
	} else {
		struct report_options ro = {
			.ramp_up_s = -1, .window_end_s = -1, .plots = false};

		write_sysctls(o->out);
		err_clear(&err);
		if (report_summarize(o->out, &ro, &err) < 0)
			log_warn("run: no summary: %s", err.msg);
	}
	if (res->end == RUN_END_ERROR && res->error[0])
		log_error("run: %s", res->error);
	if (strcmp(o->config, "cached") == 0 && hit_ratio(res) >= 0 &&
	    hit_ratio(res) < 0.99)
		log_warn("run: cached configuration with a buffer hit ratio of "
			 "%.2f %% in the measured interval: the database did "
			 "not fit in shared buffers or was not pre-warmed",
			 100 * hit_ratio(res));
	for (t = 0; t < TXN_NR; t++)
		errors += res->counts.txn[t][TXN_STATUS_ERROR];
	log_info(
		"run: %s: %llu transactions, %llu New-Orders committed%s, %llu errors; results in %s%s",
		run_end_name(res->end), (unsigned long long)res->mix_rows,
		(unsigned long long)
			res->counts.txn[TXN_NEW_ORDER][TXN_STATUS_OK],
		run_simulated(o) ? " (simulated)" : "",
		(unsigned long long)errors, o->out,
		res->partial ? " (partial)" : "");
	run_close(run);
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	err_clear(&err);
	if (driver_instance_close(cfg.driver, inst, &err) < 0) {
		log_error("run: %s", err.msg);
		status = EXIT_WORK_FAILED;
	}
	return status;
}

int cmd_run(int argc, char **argv)
{
	int status;

	machine_doc = NULL;
	status = run_main(argc, argv);
	json_decref(machine_doc);
	machine_doc = NULL;
	return status;
}
