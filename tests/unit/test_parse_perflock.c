/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_perflock.c - `perf lock contention` parser on the real
 * output in tests/fixtures/perf-lock-contention.txt (perf 6.1, kernel
 * 6.18, a database under load), its hand-edited "patched kernel" copy
 * (-after) and its cut copy (-cut), on variants written out here (every
 * time unit, perf's warnings before the header, -F columns, -v stacks,
 * the debug footer) and on broken input.
 *
 * The edits in -after: pollwake+0x73's first row 410 -> 205 contentions,
 * do_epoll_wait+0x548 dropped, call_timer_fn at offset 0x2d,
 * poll_schedule_timeout.constprop.1, a new scsi_queue_rq+0x2f0 (25),
 * blk_mq_submit_bio+0x506 12 -> 30.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/parse_perflock.h"
#include "tests/unit/fixture_util.h"

/* Rows of the real fixture, the sum of their counts, storage rows. */
#define REAL_ROWS	1261
#define REAL_CONTENDED	4926
#define REAL_STORAGE	10
#define AFTER_CONTENDED 4584

static int parse_bytes(const void *buf, size_t len, struct perflock_data *d,
		       struct err *err)
{
	/* fmemopen() may refuse a size of 0. */
	FILE *f =
		len ? fmemopen((void *)buf, len, "r") : fopen("/dev/null", "r");
	int rc;

	assert_non_null(f);
	rc = parse_perflock(f, d, err);
	fclose(f);
	return rc;
}

static int parse_str(const char *text, struct perflock_data *d, struct err *err)
{
	return parse_bytes(text, strlen(text), d, err);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* Sum of contended over the rows of func; *rows gets how many. */
static uint64_t contended_of(const struct perflock_data *d, const char *func,
			     size_t *rows)
{
	uint64_t sum = 0;
	size_t i;

	*rows = 0;
	for (i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].func, func) == 0) {
			sum += d->rows[i].contended;
			(*rows)++;
		}
	return sum;
}

static void totals(const struct perflock_data *d, uint64_t *contended,
		   size_t *storage)
{
	size_t i;

	*contended = 0;
	*storage = 0;
	for (i = 0; i < d->n; i++) {
		*contended += d->rows[i].contended;
		*storage += d->rows[i].storage;
	}
}

static void test_real(void **state)
{
	const struct perflock_row *r;
	struct perflock_data d;
	struct err err = {""};
	uint64_t sum;
	size_t rows;

	(void)state;
	assert_int_equal(
		parse_perflock_file(fixture_path("perf-lock-contention.txt"),
				    &d, &err),
		0);
	assert_int_equal(d.n, REAL_ROWS);
	assert_int_equal(d.bad_lines, 0);
	assert_int_equal(d.preamble_lines, 0);
	assert_int_equal(d.stack_lines, 0);
	assert_false(d.debug_footer);
	totals(&d, &sum, &rows);
	assert_int_equal(sum, REAL_CONTENDED);
	assert_int_equal(rows, REAL_STORAGE);

	r = &d.rows[0];
	assert_string_equal(r->caller, "pollwake+0x73");
	assert_string_equal(r->func, "pollwake");
	assert_string_equal(r->type, "spinlock");
	assert_int_equal(r->contended, 410);
	assert_true(near(r->total_us, 3690));
	assert_true(near(r->max_us, 44.63));
	assert_true(near(r->avg_us, 9.01));
	assert_true(isnan(r->min_us));
	assert_false(r->storage);

	r = parse_perflock_find(&d, "vfs_write");
	assert_non_null(r);
	assert_string_equal(r->type, "rwsem:W");
	assert_int_equal(r->contended, 2);
	assert_true(near(r->total_us, 1060));
	assert_true(near(r->max_us, 817.23));
	r = parse_perflock_find(&d, "ext4_do_writepages");
	assert_string_equal(r->type, "rwlock:R");
	r = parse_perflock_find(&d, "poll_schedule_timeout");
	assert_string_equal(r->caller,
			    "poll_schedule_timeout.constprop.0+0x37");
	r = parse_perflock_find(&d, "__page_cache_release");
	assert_string_equal(r->caller, "__page_cache_release.part.0+0x58");
	r = parse_perflock_find(&d, "Unknown");
	assert_non_null(r);
	assert_string_equal(r->caller, "Unknown");
	assert_int_equal(r->contended, 16);
	r = parse_perflock_find(&d, "blk_mq_submit_bio");
	assert_true(r->storage);
	assert_int_equal(r->contended, 12);
	assert_true(parse_perflock_find(&d, "__blk_mq_sched_dispatch_requests")
			    ->storage);
	assert_null(parse_perflock_find(&d, "scsi_queue_rq"));

	/* perf 6.1 prints one row per call stack. */
	assert_int_equal(contended_of(&d, "exit_to_user_mode_loop", &rows),
			 1151);
	assert_int_equal(rows, 428);
	assert_int_equal(contended_of(&d, "blk_mq_submit_bio", &rows), 16);
	assert_int_equal(rows, 4);

	r = &d.rows[d.n - 1];
	assert_string_equal(r->caller, "ksys_write+0xba");
	assert_string_equal(r->type, "mutex");
	assert_true(near(r->total_us, 2.89));
	parse_perflock_free(&d);
	parse_perflock_free(&d);
}

static void test_after(void **state)
{
	const struct perflock_row *r;
	struct perflock_data d;
	struct err err = {""};
	uint64_t sum;
	size_t rows;

	(void)state;
	assert_int_equal(parse_perflock_file(
				 fixture_path("perf-lock-contention-after.txt"),
				 &d, &err),
			 0);
	assert_int_equal(d.n, REAL_ROWS);
	assert_int_equal(d.bad_lines, 0);
	totals(&d, &sum, &rows);
	assert_int_equal(sum, AFTER_CONTENDED);
	assert_int_equal(rows, REAL_STORAGE + 1);
	assert_int_equal(d.rows[0].contended, 205);
	assert_true(near(d.rows[0].avg_us, 18));
	assert_null(parse_perflock_find(&d, "do_epoll_wait"));
	r = parse_perflock_find(&d, "scsi_queue_rq");
	assert_non_null(r);
	assert_true(r->storage);
	assert_int_equal(r->contended, 25);
	assert_true(near(r->total_us, 310.52));
	assert_string_equal(parse_perflock_find(&d, "call_timer_fn")->caller,
			    "call_timer_fn+0x2d");
	assert_string_equal(
		parse_perflock_find(&d, "poll_schedule_timeout")->caller,
		"poll_schedule_timeout.constprop.1+0x37");
	assert_int_equal(contended_of(&d, "blk_mq_submit_bio", &rows), 34);
	parse_perflock_free(&d);
}

static void test_cut(void **state)
{
	struct perflock_data d;
	struct err err = {""};
	uint64_t sum;
	size_t storage;

	(void)state;
	/* Cut inside the caller of blk_mq_submit_bio+0x506, row 88. */
	assert_int_equal(
		parse_perflock_file(
			fixture_path("perf-lock-contention-cut.txt"), &d, &err),
		0);
	assert_int_equal(d.n, 87);
	assert_int_equal(d.bad_lines, 1);
	totals(&d, &sum, &storage);
	assert_int_equal(sum, 3426 - 12);
	assert_int_equal(storage, 0);
	assert_string_equal(d.rows[86].caller, "exit_to_user_mode_loop+0x51");
	parse_perflock_free(&d);
}

static void test_units_and_variants(void **state)
{
	/* Warnings before the header, every unit, types with ':' and '-',
	 * a -v call stack, and the debug footer perf adds after broken
	 * sequences. */
	static const char text[] =
		"  Warning:\n"
		"  Processed 1234 events and lost 2 chunks!\n"
		"\n"
		" contended   total wait     max wait     avg wait         type   caller\n"
		"\n"
		"         3      1.50 h       1.00 h      30.00 m     spinlock   a+0x1\n"
		"         2      2.50 s       2.00 s       1.25 s         mutex   b.isra.0+0x10\n"
		"         4      3.20 ms      2.00 ms    800.00 us     rwsem:R   c\n"
		"\t\t\t0xffffffff81234567  c+0x5\n"
		"\t\t\t0xffffffff81000000  entry_SYSCALL_64+0x76\n"
		"         5       900 ns       400 ns       180 ns   pcpu-sem:W   d+0x2\n"
		"         1     12.00 us     12.00 us     12.00 us     rt-mutex   scsi_end_request+0x5\n"
		"\n"
		"=== output for debug ===\n"
		"\n"
		"bad: 3, total: 40\n"
		"bad rate: 7.50 %\n"
		"histogram of events caused bad sequence\n"
		"    acquire: 0\n";
	const struct perflock_row *r;
	struct perflock_data d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &d, &err), 0);
	assert_int_equal(d.n, 5);
	assert_int_equal(d.bad_lines, 0);
	assert_int_equal(d.preamble_lines, 2);
	assert_int_equal(d.stack_lines, 2);
	assert_true(d.debug_footer);
	r = parse_perflock_find(&d, "a");
	assert_true(near(r->total_us, 1.5 * 3600e6));
	assert_true(near(r->max_us, 3600e6));
	assert_true(near(r->avg_us, 30 * 60e6));
	r = parse_perflock_find(&d, "b");
	assert_string_equal(r->caller, "b.isra.0+0x10");
	assert_true(near(r->total_us, 2.5e6));
	assert_true(near(r->avg_us, 1.25e6));
	r = parse_perflock_find(&d, "c");
	assert_string_equal(r->caller, "c");
	assert_string_equal(r->type, "rwsem:R");
	assert_true(near(r->total_us, 3200));
	assert_true(near(r->avg_us, 800));
	r = parse_perflock_find(&d, "d");
	assert_string_equal(r->type, "pcpu-sem:W");
	assert_true(near(r->total_us, 0.9));
	assert_true(near(r->avg_us, 0.18));
	r = parse_perflock_find(&d, "scsi_end_request");
	assert_true(r->storage);
	assert_string_equal(r->type, "rt-mutex");
	parse_perflock_free(&d);

	/* -F contended,wait_min,wait_total: other columns, other order;
	 * no type column. */
	assert_int_equal(
		parse_str("  contended     min wait   total wait   caller\n"
			  "\n"
			  "          7      1.00 us     10.00 us   x+0x1\n"
			  "          7      1.00 us     10.00 us\n",
			  &d, &err),
		0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.bad_lines, 1);
	assert_string_equal(d.rows[0].type, "");
	assert_true(near(d.rows[0].min_us, 1));
	assert_true(near(d.rows[0].total_us, 10));
	assert_true(isnan(d.rows[0].max_us));
	parse_perflock_free(&d);

	/* Header only: nothing was contended. */
	assert_int_equal(
		parse_str(
			" contended   total wait     max wait     avg wait         type   caller\n\n",
			&d, &err),
		0);
	assert_int_equal(d.n, 0);
	parse_perflock_free(&d);
}

static void test_storage_list(void **state)
{
	static const char *const yes[] = {
		"scsi_queue_rq",
		"__scsi_queue_insert",
		"blk_mq_dispatch_rq_list",
		"__blk_mq_sched_dispatch_requests",
		"bfq_dispatch_request",
		"dd_dispatch_request",
		"kyber_dispatch_request",
		"nvme_queue_rq",
		"virtblk_done",
		"virtio_queue_rq",
		"ata_scsi_queuecmd",
		"sd_setup_read_write_cmnd",
		"sd_init_command",
	};
	static const char *const no[] = {
		"sd_init", /* the scheduler's sched domains */
		"sd_degenerate",
		"blkcg_maybe_throttle_current",
		"pollwake",
		"Unknown",
		"",
		"_raw_spin_lock",
		"vring_interrupt",
		"virtqueue_add_split",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(parse_perflock_is_storage_caller(yes[i]));
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(parse_perflock_is_storage_caller(no[i]));
	for (i = 0; parse_perflock_storage_prefix(i); i++)
		assert_true(parse_perflock_is_storage_caller(
			parse_perflock_storage_prefix(i)));
	assert_int_equal(i, 13);
	assert_string_equal(parse_perflock_storage_prefix(0), "scsi_");
}

static void test_every_cut(void **state)
{
	static const char *const names[] = {
		"perf-lock-contention-cut.txt",
		"perf-lock-contention.txt",
	};
	size_t len, cut, k, step = 1;

	(void)state;
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		char *buf = fixture_slurp(names[k], &len);

		/* Every prefix of the short file; of the long one (120 KB),
		 * every 97th and the first 2000. */
		for (cut = 0; cut <= len; cut += step) {
			struct perflock_data d;
			struct err err = {""};
			int rc = parse_bytes(buf, cut, &d, &err);

			if (rc == 0) {
				assert_true(d.n <= REAL_ROWS);
				assert_true(d.bad_lines <= 1);
				assert_int_equal(d.preamble_lines, 0);
			} else {
				assert_true(rc == -EINVAL || rc == -ENODATA);
				assert_null(d.rows);
			}
			parse_perflock_free(&d);
			step = k == 0 || cut < 2000 ? 1 : 97;
		}
		free(buf);
	}
}

static void test_broken(void **state)
{
	unsigned char noise[4096];
	struct perflock_data d;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *buf;

	(void)state;
	assert_int_equal(parse_str("", &d, &err), -ENODATA);
	assert_int_equal(parse_str("\n  \n\t\n", &d, &err), -ENODATA);
	assert_int_equal(parse_str("Warning: no samples\n", &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no perf lock contention header"));
	assert_null(d.rows);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &d, &err),
				 -EINVAL);
	}
	buf = fixture_slurp("vmstat-n-1.txt", &len);
	assert_int_equal(parse_bytes(buf, len, &d, &err), -EINVAL);
	free(buf);
	buf = fixture_slurp("lock_stat/lock_stat-base.txt", &len);
	assert_int_equal(parse_bytes(buf, len, &d, &err), -EINVAL);
	free(buf);
	/* Not headers: an unknown column, caller not last, no caller. */
	assert_int_equal(
		parse_str(" contended  acquired  caller\n 1 2 x\n", &d, &err),
		-EINVAL);
	assert_int_equal(parse_str(" contended  caller  type\n", &d, &err),
			 -EINVAL);
	assert_int_equal(parse_str(" contended  total wait  type\n", &d, &err),
			 -EINVAL);
	assert_int_equal(parse_str(" contended  contended  caller\n", &d, &err),
			 -EINVAL);

	assert_int_equal(
		parse_str(
			" contended   total wait     max wait     avg wait         type   caller\n"
			"\n"
			"   1   1.00 us   1.00 us   1.00 us   spinlock   good+0x1\n"
			"   1   1.00 us   1.00 us   1.00 us   spinlock\n"
			"   1   1.00 us   1.00 us   1.00 us\n"
			"   1   1.00 us   1.00 us\n"
			"   x   1.00 us   1.00 us   1.00 us   spinlock   a\n"
			"   1.5 1.00 us   1.00 us   1.00 us   spinlock   a\n"
			"  -1   1.00 us   1.00 us   1.00 us   spinlock   a\n"
			"   1   1.00 xs   1.00 us   1.00 us   spinlock   a\n"
			"   1   nan us    1.00 us   1.00 us   spinlock   a\n"
			"   1   1e3 us    1.00 us   1.00 us   spinlock   a\n"
			"   1   -1.00 us  1.00 us   1.00 us   spinlock   a\n"
			"   1   1.00 us   1.00 us   1.00 us   spinlock   +0x10\n"
			" contended   total wait     max wait     avg wait         type   caller\n"
			"   2   1.00 us   1.00 us   1.00 us   spinlock   also_good\n"
			"   1   1.00 us   1.00",
			&d, &err),
		0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.rows[0].func, "good");
	assert_string_equal(d.rows[1].func, "also_good");
	assert_int_equal(d.bad_lines, 13);
	parse_perflock_free(&d);

	/* A NUL byte makes the line bad. */
	{
		static const char nul[] = " contended total wait type caller\n"
					  " 1 1.00 us spin a\0b\n"
					  " 1 1.00 us spin c\n";

		assert_int_equal(parse_bytes(nul, sizeof(nul) - 1, &d, &err),
				 0);
		assert_int_equal(d.n, 1);
		assert_int_equal(d.bad_lines, 1);
		assert_string_equal(d.rows[0].caller, "c");
		parse_perflock_free(&d);
	}
	assert_int_equal(
		parse_perflock_file("/nonexistent/perf-lock.txt", &d, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/perf-lock.txt"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_after),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_units_and_variants),
		cmocka_unit_test(test_storage_list),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_broken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
