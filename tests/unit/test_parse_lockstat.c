/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_lockstat.c - /proc/lock_stat parser on the two layouts in
 * tests/fixtures/lock_stat (version 0.4 as kernel/locking/lockdep_proc.c
 * prints it), on variants written out here (the "lock debugging
 * disabled" warning, version 0.3's ten columns, -W and -R lines printed
 * together, module symbols) and on broken input.
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
#include <unistd.h>

#include "analysis/parsers/parse_lockstat.h"
#include "tests/unit/fixture_util.h"

static int parse_bytes(const void *buf, size_t len, struct lockstat_data *d,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_lockstat.XXXXXX";
	int rc =
		parse_lockstat_file(fixture_write_temp(buf, len, path), d, err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct lockstat_data *d, struct err *err)
{
	return parse_bytes(text, strlen(text), d, err);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static void test_base(void **state)
{
	const struct lockstat_class *c;
	struct lockstat_data d;
	struct err err = {""};
	size_t k;

	(void)state;
	assert_int_equal(
		parse_lockstat_file(
			fixture_path("lock_stat/lock_stat-base.txt"), &d, &err),
		0);
	assert_string_equal(d.version, "0.4");
	for (k = 0; k < LS_NR; k++)
		assert_true(d.has_col[k]);
	assert_int_equal(d.n, 6);
	assert_int_equal(d.bad_lines, 0);

	c = &d.classes[0];
	assert_string_equal(c->name, "shost->host_lock");
	assert_int_equal(c->kind, LOCKSTAT_EXCL);
	assert_true(c->is_storage_lock);
	assert_true(c->v[LS_CON_BOUNCES] == 9120);
	assert_true(c->v[LS_CONTENTIONS] == 18411);
	assert_true(near(c->v[LS_WAITTIME_MIN], 0.11));
	assert_true(near(c->v[LS_WAITTIME_MAX], 432.37));
	assert_true(near(c->v[LS_WAITTIME_TOTAL], 28811.40));
	assert_true(near(c->v[LS_WAITTIME_AVG], 1.56));
	assert_true(c->v[LS_ACQ_BOUNCES] == 1201);
	assert_true(c->v[LS_ACQUISITIONS] == 2810771);
	assert_true(near(c->v[LS_HOLDTIME_MIN], 0.05));
	assert_true(near(c->v[LS_HOLDTIME_MAX], 88.12));
	assert_true(near(c->v[LS_HOLDTIME_TOTAL], 611201.33));
	assert_true(near(c->v[LS_HOLDTIME_AVG], 0.22));
	assert_int_equal(c->npoints, 3);
	assert_int_equal(c->points[0].count, 12001);
	assert_false(c->points[0].contending);
	assert_string_equal(c->points[0].symbol, "scsi_queue_rq+0x5a/0x7c0");
	assert_string_equal(c->points[0].func, "scsi_queue_rq");
	assert_int_equal(c->points[1].count, 6410);
	assert_string_equal(c->points[1].func, "scsi_end_request");
	assert_false(c->points[1].contending);
	assert_int_equal(c->points[2].count, 9000);
	assert_true(c->points[2].contending);

	c = parse_lockstat_find(&d, "&q->queue_lock", LOCKSTAT_EXCL);
	assert_non_null(c);
	assert_true(c->is_storage_lock);
	assert_true(c->v[LS_CONTENTIONS] == 10350);
	assert_int_equal(c->npoints, 1);
	assert_string_equal(c->points[0].func, "blk_mq_run_hw_queue");
	c = parse_lockstat_find(&d, "&hctx->lock", LOCKSTAT_EXCL);
	assert_true(c->is_storage_lock);
	assert_true(c->v[LS_CONTENTIONS] == 733);
	c = parse_lockstat_find(&d, "&zone->lock", LOCKSTAT_EXCL);
	assert_false(c->is_storage_lock);
	assert_true(c->v[LS_CONTENTIONS] == 240);

	c = parse_lockstat_find(&d, "&mm->mmap_lock", LOCKSTAT_WRITE);
	assert_non_null(c);
	assert_false(c->is_storage_lock);
	assert_true(c->v[LS_CONTENTIONS] == 84);
	assert_true(near(c->v[LS_HOLDTIME_TOTAL], 17464026916.32));
	assert_int_equal(c->npoints, 1);
	assert_string_equal(c->points[0].func, "do_user_addr_fault");
	c = parse_lockstat_find(&d, "&mm->mmap_lock", LOCKSTAT_READ);
	assert_non_null(c);
	assert_true(c->v[LS_CONTENTIONS] == 0);
	assert_true(c->v[LS_ACQUISITIONS] == 5);
	assert_int_equal(c->npoints, 0);
	assert_null(parse_lockstat_find(&d, "&mm->mmap_lock", LOCKSTAT_EXCL));

	parse_lockstat_sort(&d, LS_WAITTIME_TOTAL);
	assert_string_equal(d.classes[0].name, "shost->host_lock");
	assert_int_equal(d.classes[1].kind, LOCKSTAT_WRITE);
	assert_string_equal(d.classes[2].name, "&q->queue_lock");
	assert_string_equal(d.classes[3].name, "&zone->lock");
	assert_string_equal(d.classes[4].name, "&hctx->lock");
	assert_int_equal(d.classes[5].kind, LOCKSTAT_READ);
	/* The points move with their class. */
	assert_int_equal(d.classes[0].npoints, 3);
	parse_lockstat_free(&d);
	parse_lockstat_free(&d);
}

static void test_patched(void **state)
{
	const struct lockstat_class *c;
	struct lockstat_data d;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_lockstat_file(
			fixture_path("lock_stat/lock_stat-patched.txt"), &d,
			&err),
		0);
	assert_int_equal(d.n, 6);
	c = parse_lockstat_find(&d, "shost->host_lock", LOCKSTAT_EXCL);
	assert_true(c->v[LS_CONTENTIONS] == 6443);
	assert_true(c->v[LS_CON_BOUNCES] == 3192);
	assert_true(near(c->v[LS_WAITTIME_TOTAL], 10083.99));
	assert_int_equal(c->points[0].count, 4200);
	assert_int_equal(c->points[2].count, 3150);
	c = parse_lockstat_find(&d, "&q->queue_lock", LOCKSTAT_EXCL);
	assert_true(c->v[LS_CONTENTIONS] == 3882);
	parse_lockstat_free(&d);
}

static void test_warning(void **state)
{
	struct lockstat_data d;
	struct err err = {""};
	size_t len;
	char *buf = fixture_slurp("lock_stat/lock_stat-base.txt", &len);
	char *nl = strchr(buf, '\n');
	char *text = malloc(len + 200);

	(void)state;
	assert_non_null(text);
	memcpy(text, buf, (size_t)(nl - buf) + 1);
	strcpy(text + (nl - buf) + 1,
	       "*WARNING* lock debugging disabled!! - possibly due to a lockdep warning\n");
	strcat(text, nl + 1);
	assert_int_equal(parse_str(text, &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not valid"));
	assert_null(d.classes);
	free(text);
	free(buf);
}

static void test_variants(void **state)
{
	/* Version 0.3: no -avg columns. -W and -R together, then points. */
	static const char text[] =
		"lock_stat version 0.3\n"
		"-------------------------------------------\n"
		"                              class name    con-bounces    contentions   waittime-min   waittime-max waittime-total    acq-bounces   acquisitions   holdtime-min   holdtime-max holdtime-total\n"
		"-------------------------------------------\n"
		"\n"
		"                 &sb->s_type->i_mutex_key#3:   5   7   1.00   2.00   9.00   3   40   0.10   0.20   3.00\n"
		"                 -------------------------\n"
		"                 &sb->s_type->i_mutex_key#3   7   [<ffffffffa0011234>] xfs_file_write_iter.isra.0+0x10/0x200 [xfs]\n"
		"\n"
		"...........................................\n"
		"\n"
		"                         &mm->mmap_sem-W:   1   2   0.5   0.5   1.0   1   10   0.1   0.1   1.0\n"
		"                         &mm->mmap_sem-R:   3   4   0.5   0.5   2.0   1   20   0.1   0.1   2.0\n"
		"                           ---------------\n"
		"                           &mm->mmap_sem   6   [<ffffffff811502a7>] __do_page_fault+0x1d4/0x510\n"
		"                           ---------------\n"
		"                           &mm->mmap_sem   5   [<ffffffff81113d77>] 0xffffffff81113d77\n"
		"\n"
		"...........................................\n"
		"                       &host->host_lock:   1   1   1.0   1.0   1.0   1   1   1.0   1.0   1.0\n";
	const struct lockstat_class *c;
	struct lockstat_data d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &d, &err), 0);
	assert_string_equal(d.version, "0.3");
	assert_false(d.has_col[LS_WAITTIME_AVG]);
	assert_false(d.has_col[LS_HOLDTIME_AVG]);
	assert_true(d.has_col[LS_HOLDTIME_TOTAL]);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.bad_lines, 0);
	c = &d.classes[0];
	assert_string_equal(c->name, "&sb->s_type->i_mutex_key#3");
	assert_true(isnan(c->v[LS_WAITTIME_AVG]));
	assert_true(c->v[LS_ACQUISITIONS] == 40);
	assert_true(near(c->v[LS_HOLDTIME_TOTAL], 3));
	assert_string_equal(c->points[0].symbol,
			    "xfs_file_write_iter.isra.0+0x10/0x200 [xfs]");
	assert_string_equal(c->points[0].func, "xfs_file_write_iter");
	assert_int_equal(
		parse_lockstat_find(&d, "&mm->mmap_sem", LOCKSTAT_WRITE)
			->npoints,
		0);
	c = parse_lockstat_find(&d, "&mm->mmap_sem", LOCKSTAT_READ);
	assert_int_equal(c->npoints, 2);
	assert_false(c->points[0].contending);
	assert_true(c->points[1].contending);
	assert_string_equal(c->points[1].func, "0xffffffff81113d77");
	c = parse_lockstat_find(&d, "&host->host_lock", LOCKSTAT_EXCL);
	assert_true(c->is_storage_lock);
	parse_lockstat_free(&d);

	assert_true(parse_lockstat_is_storage_lock("shost->host_lock"));
	assert_true(parse_lockstat_is_storage_lock("&q->queue_lock"));
	assert_true(parse_lockstat_is_storage_lock("&hctx->lock"));
	assert_false(parse_lockstat_is_storage_lock("&zone->lock"));
	assert_false(parse_lockstat_is_storage_lock("&q->requeue_lock"));
	assert_string_equal(parse_lockstat_col_name(LS_WAITTIME_TOTAL),
			    "waittime-total");
	assert_null(parse_lockstat_col_name(LS_NR));
}

static void test_every_cut(void **state)
{
	size_t len, cut;
	char *buf = fixture_slurp("lock_stat/lock_stat-base.txt", &len);

	(void)state;
	for (cut = 0; cut <= len; cut++) {
		struct lockstat_data d;
		struct err err = {""};
		int rc = parse_bytes(buf, cut, &d, &err);

		if (rc == 0) {
			assert_true(d.n <= 6);
			assert_true(d.bad_lines <= 1);
		} else {
			assert_true(rc == -EINVAL || rc == -ENODATA);
			assert_null(d.classes);
		}
		parse_lockstat_free(&d);
	}
	free(buf);
}

static void test_truncated_and_broken(void **state)
{
	unsigned char noise[4096];
	struct lockstat_data d;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *buf = fixture_slurp("lock_stat/lock_stat-base.txt", &len);
	char *zone = strstr(buf, "&zone->lock:");

	(void)state;
	/* Cut inside &zone->lock's class line. */
	assert_int_equal(parse_bytes(buf, (size_t)(zone - buf) + 40, &d, &err),
			 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.bad_lines, 1);
	parse_lockstat_free(&d);
	free(buf);

	assert_int_equal(parse_str("", &d, &err), -ENODATA);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &d, &err),
				 -EINVAL);
	}
	buf = fixture_slurp("vmstat-n-1.txt", &len);
	assert_int_equal(parse_bytes(buf, len, &d, &err), -EINVAL);
	free(buf);

	/* Header only: valid, no lock was contended. */
	assert_int_equal(parse_str("lock_stat version 0.4\n"
				   " class name con-bounces contentions\n",
				   &d, &err),
			 0);
	assert_int_equal(d.n, 0);
	parse_lockstat_free(&d);
	/* A header without contentions is not lock_stat's. */
	assert_int_equal(parse_str(" class name foo bar\n x: 1 2\n", &d, &err),
			 -EINVAL);

	assert_int_equal(parse_str(" class name con-bounces contentions\n"
				   "   a: 1 2\n"
				   "   b 1 2\n"
				   "   c: 1 x\n"
				   "   : 1 2\n"
				   "   d: 1 2 3\n"
				   "   a 5 [<0000>] foo+0x1/0x2\n"
				   "   -----\n"
				   "   a 5 [<0000>]\n"
				   "   a 5.5 [<0000>] foo\n"
				   "   a x [<0000>] foo\n"
				   "   a 5 [<0000>] foo+0x1/0x2\n"
				   "   ---\n"
				   "   ---\n"
				   "   a 5 [<0000>] foo\n"
				   "....\n"
				   "   a 5 [<0000>] foo\n",
				   &d, &err),
			 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.classes[0].name, "a");
	assert_int_equal(d.classes[0].npoints, 1);
	assert_int_equal(d.bad_lines, 10);
	parse_lockstat_free(&d);
	assert_int_equal(
		parse_lockstat_file("/nonexistent/lock_stat", &d, &err),
		-ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base),
		cmocka_unit_test(test_patched),
		cmocka_unit_test(test_warning),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_truncated_and_broken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
