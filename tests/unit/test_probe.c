/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_probe.c - the host probe: the chase visits every node before it
 * comes back (a shorter cycle would stay in the caches and time nothing),
 * the same path every time, nearest-rank quantiles, and a small probe run
 * with and without its fsync part leaving no file behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/probe/probe.h"

static void test_chase_is_one_cycle(void **state)
{
	static const uint32_t sizes[] = {2, 3, 17, 1000, 131072};
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint32_t n = sizes[k], at = 0, steps = 0, i;
		struct probe_chase_node *nodes = calloc(n, sizeof(*nodes));
		bool *seen = calloc(n, sizeof(*seen));

		assert_non_null(nodes);
		assert_non_null(seen);
		assert_int_equal(probe_chase_link(nodes, n), 0);
		do {
			assert_true(nodes[at].next < n);
			assert_false(seen[at]);
			seen[at] = true;
			at = nodes[at].next;
			steps++;
		} while (at != 0);
		assert_int_equal(steps, n);
		for (i = 0; i < n; i++)
			assert_true(seen[i]);
		free(nodes);
		free(seen);
	}
	assert_int_equal(probe_chase_link(NULL, 1), -EINVAL);
}

static void test_chase_same_path(void **state)
{
	enum { N = 4096 };
	struct probe_chase_node *a = calloc(N, sizeof(*a)),
				*b = calloc(N, sizeof(*b));
	uint32_t i, sequential = 0;

	(void)state;
	assert_int_equal(probe_chase_link(a, N), 0);
	assert_int_equal(probe_chase_link(b, N), 0);
	for (i = 0; i < N; i++) {
		assert_int_equal(a[i].next, b[i].next);
		sequential += a[i].next == (i + 1) % N;
	}
	/* shuffled: hardly any node points at the next line */
	assert_true(sequential < 10);
	free(a);
	free(b);
}

static void test_quantile_nearest_rank(void **state)
{
	double v[] = {5, 1, 4, 2, 3};
	double one[] = {7};

	(void)state;
	assert_true(isnan(probe_quantile(v, 0, 0.5)));
	assert_true(probe_quantile(v, 5, 0.5) == 3);
	assert_true(probe_quantile(v, 5, 0) == 1);
	assert_true(probe_quantile(v, 5, 1) == 5);
	assert_true(probe_quantile(v, 5, 0.9) == 5);
	assert_true(probe_quantile(v, 5, 0.2) == 1);
	assert_true(probe_quantile(one, 1, 0.9) == 7);
}

/* Entries of dir besides . and .. */
static int dir_entries(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_small_probe(void **state)
{
	char dir[] = "/tmp/om-test-probe.XXXXXX";
	struct probe_result res;
	struct probe_opts o;
	struct err err = {""};

	(void)state;
	probe_defaults(&o);
	o.reps = 3;
	o.cpu_ops = 100000;
	o.mem_bytes = 1 << 20;
	o.mem_ops = 20000;
	assert_int_equal(probe_run(&o, &res, &err), 0);
	assert_true(res.cpu.ns_median > 0 && res.mem.ns_median > 0);
	assert_true(res.cpu.ns_min <= res.cpu.ns_median);
	assert_true(res.mem.ns_min <= res.mem.ns_median);
	assert_false(res.has_fsync);
	assert_true(isnan(res.fsync_us_median));
	assert_true(res.time_s > 1.7e9);
	/* a probe this short may see no tick pass: then unknown, never wrong */
	assert_true(isnan(res.others_busy_pct) ||
		    (res.others_busy_pct >= 0 && res.others_busy_pct <= 100));
	assert_true(isnan(res.steal_pct) ||
		    (res.steal_pct >= 0 && res.steal_pct <= 100));

	assert_non_null(mkdtemp(dir));
	o.fsync_dir = dir;
	o.fsyncs = 4;
	assert_int_equal(probe_run(&o, &res, &err), 0);
	assert_true(res.has_fsync);
	assert_true(res.fsync_us_median > 0);
	assert_true(res.fsync_us_median <= res.fsync_us_p90);
	assert_true(res.fsync_us_p90 <= res.fsync_us_max);
	assert_int_equal(dir_entries(dir), 0);

	/* a directory that is gone: an error naming it */
	assert_int_equal(rmdir(dir), 0);
	assert_true(probe_run(&o, &res, &err) < 0);
	assert_non_null(strstr(err.msg, dir));

	o.reps = 0;
	assert_int_equal(probe_run(&o, &res, &err), -EINVAL);
}

/* Others' share: busy ticks less our own, over all ticks. */
static void test_busy_share(void **state)
{
	struct probe_ticks a = {
		.busy = 1000, .idle = 5000, .steal = 10, .own = 20, .ok = true};
	struct probe_ticks b = {
		.busy = 1100, .idle = 5090, .steal = 20, .own = 60, .ok = true};
	double others, steal;

	(void)state;
	/* 200 ticks: 100 busy of which 40 ours, 90 idle, 10 stolen */
	probe_busy_share(&a, &b, &others, &steal);
	assert_true(fabs(others - 30) < 1e-9);
	assert_true(fabs(steal - 5) < 1e-9);
	/* our own rounding above the busy ticks: 0, not negative */
	b.own = 200;
	probe_busy_share(&a, &b, &others, &steal);
	assert_true(others == 0);
	/* no tick passed, or /proc/stat unread: unknown */
	probe_busy_share(&a, &a, &others, &steal);
	assert_true(isnan(others) && isnan(steal));
	b.ok = false;
	probe_busy_share(&a, &b, &others, &steal);
	assert_true(isnan(others) && isnan(steal));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chase_is_one_cycle),
		cmocka_unit_test(test_chase_same_path),
		cmocka_unit_test(test_quantile_nearest_rank),
		cmocka_unit_test(test_busy_share),
		cmocka_unit_test(test_small_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
