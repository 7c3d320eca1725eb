/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_engine.c - the engine's own cost: terminals, deck, inputs,
 * scheduling, recording and mix.csv with the null driver, back to back
 * (--keying-think none), for a few seconds. Prints transactions per CPU
 * second of this process (getrusage: all threads, user + system), the
 * figure that says how little of a machine the driver side takes.
 * Target: at least 1,000,000 per CPU second.
 *
 * Usage: bench_engine [SECONDS [CONNECTIONS [WAREHOUSES]]]
 * (defaults 5, 1, 10). mix.csv goes to a temporary directory under
 * $TMPDIR (or /tmp) that is removed afterwards.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "src/base/sysinfo.h"
#include "terminals/run.h"

#define TARGET_PER_CPU_S 1000000.0

static void cleanup(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/mix.csv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/mix.csv.tmp", dir);
	unlink(path);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 5;
	int conns = argc > 2 ? atoi(argv[2]) : 1;
	int warehouses = argc > 3 ? atoi(argv[3]) : 10;
	char dir[PATH_MAX];
	struct run_config c;
	const struct run_result *r;
	struct run *run;
	struct err err;
	double cpu0, cpu1, cpu, per_cpu;
	uint64_t txns = 0;
	int t, s;

	if (seconds < 1 || conns < 1 || warehouses < 1 ||
	    conns > warehouses * 10) {
		fprintf(stderr,
			"usage: %s [SECONDS [CONNECTIONS [WAREHOUSES]]]\n",
			argv[0]);
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/oltpmark-bench.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	memset(&c, 0, sizeof(c));
	c.driver = driver_find("null");
	c.db.tx_mode = DRIVER_TX_PROCEDURE;
	c.warehouses = warehouses;
	c.terminals_per_w = 10;
	c.connections = conns;
	c.ramp_up_s = 0;
	c.duration_s = seconds;
	c.pacing = (struct pacing){PACING_NONE, 0.0};
	c.seed = 1;
	c.reconnect_s = 90;
	c.drain_s = 5;
	c.out_dir = dir;
	if (run_open(&run, &c, &err) < 0) {
		fprintf(stderr, "bench_engine: %s\n", err.msg);
		cleanup(dir);
		return 1;
	}
	cpu0 = sysinfo_self_cpu_s();
	if (run_execute(run, &err) < 0) {
		fprintf(stderr, "bench_engine: %s\n", err.msg);
		run_close(run);
		cleanup(dir);
		return 1;
	}
	cpu1 = sysinfo_self_cpu_s();
	r = run_get_result(run);
	for (t = 0; t < TXN_NR; t++)
		for (s = 0; s < TXN_STATUS_NR; s++)
			txns += r->counts.txn[t][s];
	cpu = cpu1 - cpu0;
	per_cpu = cpu > 0 ? (double)txns / cpu : 0;
	printf("engine, null driver, keying/think none: W=%d, %d terminals, "
	       "%d connection%s, %.1f s\n",
	       warehouses, warehouses * 10, conns, conns == 1 ? "" : "s",
	       r->finished_s);
	printf("  %llu transactions (%llu mix.csv rows), %.2f CPU s: "
	       "%.0f transactions per CPU second (target >= %.0f: %s)\n",
	       (unsigned long long)txns, (unsigned long long)r->mix_rows, cpu,
	       per_cpu, TARGET_PER_CPU_S,
	       per_cpu >= TARGET_PER_CPU_S ? "met" : "NOT met");
	printf("  %.0f transactions per wall second\n",
	       (double)txns / r->finished_s);
	run_close(run);
	cleanup(dir);
	return 0;
}
