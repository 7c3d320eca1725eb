/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.c - the host probe (probe.h): fixed work, timed.
 *
 * The chain and the chase are dependency chains on purpose: each step
 * needs the previous result, so neither the compiler nor the CPU can
 * overlap them, and the time per step is the latency of one multiply or
 * one load, which is what a busy neighbour or a slower host core changes.
 */
#include "src/probe/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "src/base/clock.h"
#include "src/base/fdio.h"
#include "src/base/rng.h"

void probe_defaults(struct probe_opts *opts)
{
	*opts = (struct probe_opts){
		.reps = PROBE_REPS,
		.cpu_ops = PROBE_CPU_OPS,
		.mem_bytes = PROBE_MEM_BYTES,
		.mem_ops = PROBE_MEM_OPS,
		.fsync_dir = NULL,
		.fsyncs = PROBE_FSYNCS,
	};
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double probe_quantile(double *v, size_t n, double q)
{
	size_t k;

	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	k = (size_t)ceil(q * (double)n);
	return v[k ? k - 1 : 0];
}

/* Nanoseconds between two CLOCK_MONOTONIC readings. */
static double elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e9 +
	       (double)(b->tv_nsec - a->tv_nsec);
}

/* An LCG step whose output feeds the next: one multiply's latency. */
static uint64_t cpu_chain(uint64_t x, long ops)
{
	long i;

	for (i = 0; i < ops; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		x ^= x >> 29;
	}
	return x;
}

static uint32_t mem_chase(const struct probe_chase_node *nodes, uint32_t at,
			  long ops)
{
	long i;

	for (i = 0; i < ops; i++)
		at = nodes[at].next;
	return at;
}

/*
 * A random order of the nodes (Sattolo's shuffle), linked in that order
 * and back to the first: hardware prefetchers cannot guess the next line.
 */
int probe_chase_link(struct probe_chase_node *nodes, uint32_t n)
{
	struct rng rng;
	uint32_t *order, i;

	if (n < 2)
		return -EINVAL;
	order = malloc((size_t)n * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		order[i] = i;
	rng_seed(&rng, 20261130, 0);
	for (i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)rng_range(&rng, 0, (int64_t)i - 1);
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++)
		nodes[order[i]].next = order[(i + 1) % n];
	free(order);
	return 0;
}

/* Time reps runs of the chain; ns per step into *loop. */
static void time_cpu(const struct probe_opts *o, double *work,
		     struct probe_loop *loop, unsigned long *sink)
{
	struct timespec a, b;
	uint64_t x = 1;
	int r;

	for (r = 0; r < o->reps; r++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		x = cpu_chain(x, o->cpu_ops);
		clock_gettime(CLOCK_MONOTONIC, &b);
		work[r] = elapsed_ns(&a, &b) / (double)o->cpu_ops;
	}
	*sink += (unsigned long)x;
	loop->ns_min = probe_quantile(work, (size_t)o->reps, 0);
	loop->ns_median = probe_quantile(work, (size_t)o->reps, 0.5);
}

static int time_mem(const struct probe_opts *o, double *work,
		    struct probe_loop *loop, unsigned long *sink,
		    struct err *err)
{
	uint32_t n = (uint32_t)(o->mem_bytes / sizeof(struct probe_chase_node));
	size_t len = (size_t)n * sizeof(struct probe_chase_node);
	struct probe_chase_node *nodes;
	struct timespec a, b;
	uint32_t at = 0;
	int r;

	if (n < 2)
		return err_set(err, -EINVAL,
			       "probe: memory buffer of %zu "
			       "bytes is too small",
			       o->mem_bytes);
	/*
	 * Small pages always: whether transparent huge pages back the buffer
	 * depends on the machine's settings and fragmentation, and would
	 * change the page-walk part of every load from one probe to the next.
	 */
	nodes = mmap(NULL, len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (nodes == MAP_FAILED)
		nodes = NULL;
	if (nodes)
		madvise(nodes, len, MADV_NOHUGEPAGE);
	if (!nodes || probe_chase_link(nodes, n) < 0) {
		if (nodes)
			munmap(nodes, len);
		return err_set(err, -ENOMEM, "probe: out of memory (%zu bytes)",
			       o->mem_bytes);
	}
	/* one pass first: page faults are not what is measured */
	at = mem_chase(nodes, at, n);
	for (r = 0; r < o->reps; r++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		at = mem_chase(nodes, at, o->mem_ops);
		clock_gettime(CLOCK_MONOTONIC, &b);
		work[r] = elapsed_ns(&a, &b) / (double)o->mem_ops;
	}
	*sink += at;
	munmap(nodes, len);
	loop->ns_min = probe_quantile(work, (size_t)o->reps, 0);
	loop->ns_median = probe_quantile(work, (size_t)o->reps, 0.5);
	return 0;
}

static void cpu_ticks_read(struct probe_ticks *t)
{
	unsigned long long v[8] = {0};
	struct rusage ru;
	FILE *f;

	t->ok = false;
	f = fopen("/proc/stat", "r");
	if (!f)
		return;
	t->ok = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		       &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8;
	fclose(f);
	t->busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]);
	t->idle = (double)(v[3] + v[4]);
	t->steal = (double)v[7];
	t->own = 0;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		t->own = ((double)ru.ru_utime.tv_sec +
			  ru.ru_utime.tv_usec / 1e6 +
			  (double)ru.ru_stime.tv_sec +
			  ru.ru_stime.tv_usec / 1e6) *
			 (double)sysconf(_SC_CLK_TCK);
}

void probe_busy_share(const struct probe_ticks *a, const struct probe_ticks *b,
		      double *others_busy_pct, double *steal_pct)
{
	double busy = b->busy - a->busy, own = b->own - a->own;
	double total = busy + (b->idle - a->idle) + (b->steal - a->steal);

	*others_busy_pct = *steal_pct = NAN;
	if (!a->ok || !b->ok || total <= 0)
		return;
	/* ticks and getrusage round differently: never below 0 */
	busy -= own;
	*others_busy_pct = 100 * (busy > 0 ? busy : 0) / total;
	*steal_pct = 100 * (b->steal - a->steal) / total;
}

/*
 * The file is written and synced whole first, then each block is
 * overwritten and fdatasync'ed: like a WAL segment PostgreSQL recycles,
 * the timed syncs change data only, no file size or block allocation.
 */
static int fsync_loop(const struct probe_opts *o, int fd, const char *path,
		      double *work, struct err *err)
{
	char block[PROBE_BLOCK_BYTES];
	struct timespec a, b;
	int i, rc;

	memset(block, 0, sizeof(block));
	for (i = 0; i < o->fsyncs; i++) {
		rc = fdio_pwrite_all(fd, block, sizeof(block),
				     (off_t)i * PROBE_BLOCK_BYTES);
		if (rc < 0)
			return err_set(err, rc, "probe: cannot write %s: %s",
				       path, strerror(-rc));
	}
	if (fsync(fd) < 0)
		return err_set(err, -errno, "probe: cannot fsync %s: %s", path,
			       strerror(errno));
	for (i = 0; i < o->fsyncs; i++) {
		memset(block, 'a' + i % 26, sizeof(block));
		clock_gettime(CLOCK_MONOTONIC, &a);
		rc = fdio_pwrite_all(fd, block, sizeof(block),
				     (off_t)i * PROBE_BLOCK_BYTES);
		if (rc == 0 && fdatasync(fd) < 0)
			rc = -errno;
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (rc < 0)
			return err_set(err, rc,
				       "probe: cannot write and sync %s: %s",
				       path, strerror(-rc));
		work[i] = elapsed_ns(&a, &b) / 1000;
	}
	return 0;
}

static int time_fsync(const struct probe_opts *o, struct probe_result *res,
		      struct err *err)
{
	char path[4096];
	double *work;
	int fd, rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/.oltpmark-probe.XXXXXX",
			     o->fsync_dir) >= sizeof(path))
		return err_set(err, -ENAMETOOLONG,
			       "probe: directory name too long: %s",
			       o->fsync_dir);
	work = calloc((size_t)o->fsyncs, sizeof(*work));
	if (!work)
		return err_set(err, -ENOMEM, "probe: out of memory");
	fd = mkstemp(path);
	if (fd < 0) {
		rc = err_set(err, -errno,
			     "probe: cannot create a file in %s: %s",
			     o->fsync_dir, strerror(errno));
		free(work);
		return rc;
	}
	rc = fsync_loop(o, fd, path, work, err);
	close(fd);
	unlink(path);
	if (rc == 0) {
		res->has_fsync = true;
		res->fsync_us_max = probe_quantile(work, (size_t)o->fsyncs, 1);
		res->fsync_us_p90 =
			probe_quantile(work, (size_t)o->fsyncs, 0.9);
		res->fsync_us_median =
			probe_quantile(work, (size_t)o->fsyncs, 0.5);
	}
	free(work);
	return rc;
}

int probe_run(const struct probe_opts *opts, struct probe_result *res,
	      struct err *err)
{
	struct probe_ticks before, after;
	double *work;
	int rc;

	memset(res, 0, sizeof(*res));
	res->fsync_us_median = res->fsync_us_p90 = res->fsync_us_max = NAN;
	res->others_busy_pct = res->steal_pct = NAN;
	if (opts->reps < 1 || opts->cpu_ops < 1 || opts->mem_ops < 1 ||
	    (opts->fsync_dir && opts->fsyncs < 1))
		return err_set(err, -EINVAL, "probe: nothing to time");
	res->time_s = (double)clock_wall_us() / 1e6;
	work = calloc((size_t)opts->reps, sizeof(*work));
	if (!work)
		return err_set(err, -ENOMEM, "probe: out of memory");
	cpu_ticks_read(&before);
	time_cpu(opts, work, &res->cpu, &res->sink);
	rc = time_mem(opts, work, &res->mem, &res->sink, err);
	cpu_ticks_read(&after);
	probe_busy_share(&before, &after, &res->others_busy_pct,
			 &res->steal_pct);
	free(work);
	if (rc == 0 && opts->fsync_dir)
		rc = time_fsync(opts, res, err);
	return rc;
}
