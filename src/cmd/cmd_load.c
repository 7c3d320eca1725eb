/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_load.c - `oltpmark load`: options, SIGINT, the progress line and
 * the final report around load_run() (src/load/load.h), which does the work.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "drivers/pgconn.h"
#include "src/base/clock.h"
#include "src/cmd/cmd.h"
#include "src/load/load.h"
#include "src/load/tablespace.h"
#include "src/base/log.h"
#include "src/cmd/opt.h"

static volatile sig_atomic_t load_stop;

static void on_signal(int sig)
{
	int saved = errno;

	(void)sig;
	load_stop = 1;
	errno = saved;
}

/* State of the progress line on a terminal. */
struct progress_line {
	bool enabled;	 /* stderr is a terminal */
	int64_t last_us; /* when the line was last drawn */
	bool drawn;	 /* a line is on screen (needs a newline) */
};

static void progress_tick(const struct load_progress *pr, void *arg)
{
	struct progress_line *pl = arg;
	int64_t now = clock_mono_us();
	double sec = (double)(now - pr->started_us) / 1e6;
	double mb = (double)atomic_load(&pr->copy_bytes) / 1e6;
	char line[160];

	if (!pl->enabled || now - pl->last_us < 250000)
		return;
	pl->last_us = now;
	snprintf(line, sizeof(line),
		 "\roltpmark: load %5.1f s: data %d/%d tables, %.0f/%.0f MB "
		 "(%.0f MB/s), keys %d/%d, tasks %d/%d ",
		 sec, atomic_load(&pr->tables_loaded), LOAD_TABLE_NR, mb,
		 (double)pr->copy_bytes_total / 1e6, sec > 0 ? mb / sec : 0,
		 atomic_load(&pr->indexes_built), pr->indexes_total,
		 atomic_load(&pr->tasks_done), pr->tasks_total);
	fputs(line, stderr);
	pl->drawn = true;
}

/* A seed nobody chose: from getrandom(), else the clock. */
static int random_seed(void)
{
	unsigned int v;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		v = (unsigned int)clock_wall_us() ^ (unsigned int)getpid();
	return (int)(v & INT_MAX);
}

/*
 * Check the tablespace options before connecting: --layout and
 * --allow-shared-device need --tablespace-dir, the directories are
 * checked (tablespace.h) and the layout chosen. 0, or EXIT_BAD_USAGE
 * after printing one line.
 */
static int check_layout(const struct opt_list *dirs, int layout,
			bool allow_shared, int warehouses, struct load_opts *lo)
{
	struct tablespace_dir checked[LOAD_TABLESPACES_MAX];
	struct err err = {""};
	char warning[1024];

	if (dirs->count == 0) {
		if (layout >= 0 || allow_shared) {
			log_error("load: --%s needs --tablespace-dir",
				  layout >= 0 ? "layout"
					      : "allow-shared-device");
			return EXIT_BAD_USAGE;
		}
		lo->layout = LOAD_LAYOUT_SINGLE;
		return 0;
	}
	/* the choices are table, warehouse: enum load_layout from 1 */
	lo->layout = layout >= 0 ? (enum load_layout)(layout + 1)
				 : LOAD_LAYOUT_TABLE;
	lo->dirs = dirs->items;
	lo->ndirs = dirs->count;
	lo->allow_shared_device = allow_shared;
	if (tablespace_check_dirs(lo->dirs, lo->ndirs, lo->layout, warehouses,
				  allow_shared, "/sys", checked, warning,
				  sizeof(warning), &err) < 0) {
		log_error("load: %s", err.msg);
		return EXIT_BAD_USAGE;
	}
	if (warning[0])
		log_warn("load: tablespace directories share a device "
			 "(--allow-shared-device): %s",
			 warning);
	return 0;
}

int cmd_load(int argc, char **argv)
{
	static int warehouses, jobs, seed = -1, layout = -1;
	static int connect_timeout = -1;
	static bool drop, allow_shared;
	static const char *conninfo;
	static struct opt_list dirs;
	static const char *const layouts[] = {"table", "warehouse", NULL};
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "warehouses", .short_name = 'w',
		  .kind = OPT_INT, .value = &warehouses, .arg_name = "W",
		  .help = "number of warehouses to load (required)",
		  .min = 1, .max = 100000 },
		{ .long_name = "jobs", .short_name = 'j', .kind = OPT_INT,
		  .value = &jobs, .arg_name = "JOBS",
		  .help = "parallel connections (default: online CPUs)",
		  .min = 1, .max = 256 },
		{ .long_name = "drop", .kind = OPT_FLAG, .value = &drop,
		  .help = "drop an existing population first" },
		{ .long_name = "seed", .kind = OPT_INT, .value = &seed,
		  .arg_name = "N",
		  .help = "random seed 0..2147483647 (default: random)",
		  .min = 0, .max = INT_MAX },
		{ .long_name = "conninfo", .kind = OPT_STRING,
		  .value = &conninfo, .arg_name = "STR",
		  .help = "libpq conninfo, URI or database name (default: PG* vars)" },
		OPT_CONNECT_TIMEOUT(&connect_timeout),
		{ .long_name = "tablespace-dir", .kind = OPT_LIST,
		  .value = &dirs, .arg_name = "DIR",
		  .help = "an empty directory of the server's user on a "
			  "device of its own (repeat per device)" },
		{ .long_name = "layout", .kind = OPT_CHOICE, .value = &layout,
		  .arg_name = "table|warehouse", .choices = layouts,
		  .help = "how the relations spread over the directories "
			  "(default: table)" },
		{ .long_name = "allow-shared-device", .kind = OPT_FLAG,
		  .value = &allow_shared,
		  .help = "two directories on one device: a warning, not an "
			  "error" },
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "load",
		.synopsis = "-w W [options]",
		.summary =
			"Create the TPC-C schema in the database and load the "
			"population of W\nwarehouses (clause 4.3.3.1), then "
			"build keys and indexes, install the\nfunctions and "
			"ANALYZE. A database that already holds the tables "
			"is\nrefused unless --drop is given. While it works, "
			"oltpmark_meta says\n'loading'; it says 'loaded' only "
			"when everything succeeded. --seed N\nreproduces a "
			"load: the rows of warehouse w depend only on N and "
			"w.\n\nWith --tablespace-dir (once per device) the "
			"database is spread over\ntablespaces oltpmark_ts1..N "
			"in those directories: --layout table places\nwhole "
			"tables and indexes, balancing the expected bytes "
			"(an index apart\nfrom its table); --layout warehouse "
			"range-partitions the eight\nwarehouse tables, "
			"partition k in directory k, ITEM in the first. A bad\n"
			"directory is refused (exit 2) before anything is "
			"created. See\ndocs/layout.md.",
		.opts = opts,
		.nopts = sizeof(opts) / sizeof(opts[0]),
		.min_args = 0,
		.max_args = 0,
	};
	struct load_progress progress = {0};
	struct progress_line pl = {0};
	struct load_result result;
	struct load_opts lo;
	struct sigaction sa;
	struct err err = {""};
	int first, rc;
	long ncpu;

	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	if (warehouses == 0) {
		log_error("load: option -w/--warehouses is required (see "
			  "--help)");
		return EXIT_BAD_USAGE;
	}
	if (conninfo && pgconn_validate(conninfo, &err) < 0) {
		log_error("option --conninfo: %s", err.msg);
		return EXIT_BAD_USAGE;
	}
	pgconn_set_connect_timeout(connect_timeout);
	lo = (struct load_opts){0};
	rc = check_layout(&dirs, layout, allow_shared, warehouses, &lo);
	if (rc)
		return rc;
	if (jobs == 0) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = ncpu < 1 ? 1 : ncpu > 256 ? 256 : (int)ncpu;
	}
	if (seed < 0)
		seed = random_seed();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	lo.conninfo = conninfo ? conninfo : "";
	lo.warehouses = warehouses;
	lo.jobs = jobs;
	lo.seed = (uint64_t)seed;
	lo.drop = drop;
	lo.version = OLTPMARK_VERSION;
	pl.enabled = isatty(STDERR_FILENO);
	rc = load_run(&lo, &progress, progress_tick, &pl, &load_stop, &result,
		      &err);
	if (pl.drawn)
		fputc('\n', stderr);
	if (rc == -EINTR) {
		log_error("load interrupted: the database is left marked "
			  "'loading' (reload with --drop)");
		return EXIT_WORK_FAILED;
	}
	if (rc < 0 && result.bad_input) {
		log_error("load: %s", err.msg);
		return EXIT_BAD_USAGE;
	}
	if (rc < 0) {
		log_error("load failed: %s", err.msg);
		return EXIT_WORK_FAILED;
	}
	printf("loaded %d warehouse%s in %.2f s (data %.2f s): %.0f MB, "
	       "%.1f MB/s; %d jobs, seed %d, C-Load %d, wal_level %s",
	       warehouses, warehouses == 1 ? "" : "s", result.total_seconds,
	       result.data_seconds, (double)result.database_bytes / 1e6,
	       (double)result.database_bytes / 1e6 / result.total_seconds, jobs,
	       seed, result.c_load, result.wal_level);
	if (lo.ndirs > 0)
		printf("; layout %s over %d tablespace%s",
		       load_layout_name(lo.layout), lo.ndirs,
		       lo.ndirs == 1 ? "" : "s");
	printf("\n");
	return 0;
}
