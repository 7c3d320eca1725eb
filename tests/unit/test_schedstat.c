/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_schedstat.c - the backends' CPU per transaction: the reader of
 * /proc/PID/schedstat (src/base/schedstat.h) on good, cut and garbled
 * text and on this process and its child, the per-type accumulators;
 * and run.json's "backend_cpu" as the analysis reads it, the figures
 * per committed transaction and the check against the process
 * snapshots (analysis/parsers/kcost.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/parsers/kcost.h"
#include "src/base/schedstat.h"

/* Text that parses, and what it gives. */
static const struct {
	const char *text;
	uint64_t cpu, wait, slices;
} good[] = {
	{"2511360 7278743 3\n", 2511360, 7278743, 3},
	{"2511360 7278743 3", 2511360, 7278743, 3},
	{"0 0 0\n", 0, 0, 0},
	{"18446744073709551615 1  2\n", UINT64_MAX, 1, 2},
};

/* Text that must be refused, each with a word of the reason. */
static const struct {
	const char *text;
	const char *why;
} bad[] = {
	{"", "empty"},
	{"2511360 7278743", "2 of 3"},
	{"2511360 ", "number 2"},
	{"2511360", "1 of 3"},
	{"abc 1 2\n", "number 1"},
	{"1 -2 3\n", "number 2"},
	{"18446744073709551616 1 2\n", "number 1"},
	{"1 2 3 4\n", "text after"},
	{"1 2 3\n\n", "text after"},
	{"1\t2 3\n", "1 of 3"},
	{"1 2 3x", "text after"},
};

static void test_parse(void **state)
{
	struct schedstat_sample s;
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		err_clear(&err);
		assert_int_equal(schedstat_parse(good[i].text,
						 strlen(good[i].text), &s,
						 &err),
				 0);
		assert_true(s.cpu_ns == good[i].cpu);
		assert_true(s.wait_ns == good[i].wait);
		assert_true(s.slices == good[i].slices);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err_clear(&err);
		assert_int_equal(schedstat_parse(bad[i].text,
						 strlen(bad[i].text), &s, &err),
				 -EINVAL);
		if (!strstr(err.msg, bad[i].why))
			fail_msg("'%s': %s", bad[i].text, err.msg);
	}
	/* a cut read: only the first len bytes count */
	assert_int_equal(schedstat_parse("12 34 56\n", 4, &s, &err), -EINVAL);
	assert_int_equal(schedstat_parse("12 34 56 junk", 8, &s, &err), 0);
	assert_true(s.slices == 56);
}

/* This process's child, and this process read through a kept descriptor. */
static void test_open_read(void **state)
{
	struct schedstat_sample a, b;
	struct err err;
	volatile unsigned long spin = 0;
	pid_t child;
	int fd;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	err_clear(&err);
	fd = schedstat_open(child, getpid(), &err);
	if (fd == -ENOENT) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		skip(); /* a kernel without CONFIG_SCHED_INFO */
	}
	assert_true(fd >= 0);
	assert_int_equal(schedstat_read(fd, &a, &err), 0);
	close(fd);
	/* not a child of that process: refused (a server elsewhere) */
	err_clear(&err);
	assert_int_equal(schedstat_open(getpid(), child, &err), -ECHILD);
	assert_non_null(strstr(err.msg, "not a child"));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	assert_int_equal(schedstat_open(child, getpid(), &err), -ESRCH);
	assert_int_equal(schedstat_open(0, 1, &err), -EINVAL);

	/* our own figures grow while we spin, read through one descriptor */
	fd = schedstat_open(getpid(), getppid(), &err);
	assert_true(fd >= 0);
	assert_int_equal(schedstat_read(fd, &a, &err), 0);
	while (spin < 20000000)
		spin = spin + 1;
	usleep(1000);
	assert_int_equal(schedstat_read(fd, &b, &err), 0);
	assert_true(b.cpu_ns > a.cpu_ns);
	assert_true(b.slices >= a.slices);
	close(fd);
	assert_true(schedstat_read(fd, &b, &err) < 0);
}

static void test_accumulate(void **state)
{
	struct schedstat_types w1, w2, sum;
	struct schedstat_sample s0 = {1000, 500, 10}, s1 = {4000, 700, 12},
				s2 = {4500, 1700, 15}, back = {3000, 700, 12};
	struct schedstat_acc x;

	(void)state;
	memset(&w1, 0, sizeof(w1));
	memset(&w2, 0, sizeof(w2));
	memset(&sum, 0, sizeof(sum));
	assert_int_equal(schedstat_acc_add(&w1.by[TXN_NEW_ORDER][TXN_STATUS_OK],
					   &s0, &s1),
			 0);
	assert_int_equal(
		schedstat_acc_add(&w1.by[TXN_NEW_ORDER][TXN_STATUS_ROLLBACK],
				  &s1, &s2),
		0);
	/* backwards: another task; nothing added */
	assert_int_equal(schedstat_acc_add(&w1.by[TXN_PAYMENT][TXN_STATUS_OK],
					   &s1, &back),
			 -ERANGE);
	assert_true(w1.by[TXN_PAYMENT][TXN_STATUS_OK].txns == 0);
	w1.not_measured = 1;
	assert_int_equal(schedstat_acc_add(&w2.by[TXN_NEW_ORDER][TXN_STATUS_OK],
					   &s1, &s2),
			 0);
	w2.not_measured = 2;
	schedstat_types_sum(&sum, &w1);
	schedstat_types_sum(&sum, &w2);
	x = sum.by[TXN_NEW_ORDER][TXN_STATUS_OK];
	assert_true(x.txns == 2 && x.cpu_ns == 3000 + 500);
	assert_true(x.wait_ns == 200 + 1000 && x.slices == 2 + 3);
	assert_true(sum.not_measured == 3);
	schedstat_types_get(&sum, TXN_NEW_ORDER,
			    1u << TXN_STATUS_OK | 1u << TXN_STATUS_ROLLBACK,
			    &x);
	assert_true(x.txns == 3 && x.cpu_ns == 4000);
	schedstat_types_get(&sum, TXN_NR, 1u << TXN_STATUS_OK, &x);
	assert_true(x.txns == 0);
}

/* run.json's backend_cpu with new_order ok and payment ok figures. */
static const char run_bcpu[] =
	"{\"measured\": true, \"reason\": null, \"not_measured\": 4, "
	"\"types\": {"
	"\"new_order\": {\"ok\": {\"txns\": 100, \"cpu_ns\": 150000000, "
	"\"run_wait_ns\": 20000000, \"timeslices\": 300}, "
	"\"rollback\": {\"txns\": 1, \"cpu_ns\": 1000000, \"run_wait_ns\": 0, "
	"\"timeslices\": 1}, "
	"\"error\": {\"txns\": 0, \"cpu_ns\": 0, \"run_wait_ns\": 0, "
	"\"timeslices\": 0}}, "
	"\"payment\": {\"ok\": {\"txns\": 200, \"cpu_ns\": 100000000, "
	"\"run_wait_ns\": 0, \"timeslices\": 200}, "
	"\"rollback\": {\"txns\": 0, \"cpu_ns\": 0, \"run_wait_ns\": 0, "
	"\"timeslices\": 0}, "
	"\"error\": {\"txns\": 2, \"cpu_ns\": 49000000, \"run_wait_ns\": 0, "
	"\"timeslices\": 2}}, "
	"%s}}";

static const char zero_type[] =
	"{\"ok\": {\"txns\": 0, \"cpu_ns\": 0, \"run_wait_ns\": 0, "
	"\"timeslices\": 0}, \"rollback\": {\"txns\": 0, \"cpu_ns\": 0, "
	"\"run_wait_ns\": 0, \"timeslices\": 0}, \"error\": {\"txns\": 0, "
	"\"cpu_ns\": 0, \"run_wait_ns\": 0, \"timeslices\": 0}}";

static json_t *bcpu_doc(void)
{
	char rest[1024], text[4096];
	json_error_t e;

	snprintf(rest, sizeof(rest),
		 "\"order_status\": %s, \"delivery\": %s, \"stock_level\": %s",
		 zero_type, zero_type, zero_type);
	snprintf(text, sizeof(text), run_bcpu, rest);
	return json_loads(text, 0, &e);
}

static void test_bcpu_json(void **state)
{
	struct kcost_bcpu b;
	struct kcost_table t;
	struct kcost_agree a;
	json_t *o = bcpu_doc(), *bad;

	(void)state;
	assert_non_null(o);
	kcost_bcpu_from_json(o, &b);
	assert_true(b.present && b.measured);
	assert_true(b.t.not_measured == 4);
	assert_true(b.t.by[TXN_PAYMENT][TXN_STATUS_ERROR].cpu_ns == 49000000);
	/* every type and status: 0.15 + 0.001 + 0.1 + 0.049 s */
	assert_float_equal(kcost_bcpu_cpu_s(&b), 0.3, 1e-12);

	memset(&t, 0, sizeof(t));
	kcost_bcpu_apply(&t, &b);
	assert_true(t.bcpu);
	/* per committed transaction: the ok figures over their own count */
	assert_float_equal(kcost_figure(&t.row[TXN_NEW_ORDER],
					KCOST_FIG_BACKEND_CPU_MS, 0),
			   1.5, 1e-12);
	assert_float_equal(
		kcost_figure(&t.row[TXN_NEW_ORDER], KCOST_FIG_RUNQ_WAIT_MS, 0),
		0.2, 1e-12);
	assert_float_equal(
		kcost_figure(&t.row[TXN_PAYMENT], KCOST_FIG_BACKEND_CPU_MS, 1),
		0.5, 1e-12);
	assert_true(isnan(kcost_figure(&t.row[TXN_DELIVERY],
				       KCOST_FIG_BACKEND_CPU_MS, 10)));

	/* the check: no process snapshots, unknown */
	kcost_agree_check(&t, &b, &a);
	assert_false(a.known);
	assert_float_equal(a.schedstat_cpu_s, 0.3, 1e-12);
	/* within 10 %: 0.3 against 0.32 is -6.25 % */
	t.cpu.present = true;
	t.cpu.terminals_s = 0.32;
	kcost_agree_check(&t, &b, &a);
	assert_true(a.known && a.agree);
	assert_float_equal(a.diff_s, -0.02, 1e-12);
	assert_float_equal(a.diff_pct, -6.25, 1e-9);
	/* beyond: 0.3 against 0.4 is -25 % */
	t.cpu.terminals_s = 0.4;
	kcost_agree_check(&t, &b, &a);
	assert_true(a.known && !a.agree);
	assert_float_equal(a.diff_pct, -25, 1e-9);

	/* a figure that is not a count: not measured, and said */
	bad = json_deep_copy(o);
	json_object_set_new(
		json_object_get(json_object_get(json_object_get(bad, "types"),
						"payment"),
				"ok"),
		"cpu_ns", json_integer(-1));
	kcost_bcpu_from_json(bad, &b);
	assert_true(b.present && !b.measured);
	assert_non_null(strstr(b.reason, "not a count"));
	assert_true(isnan(kcost_bcpu_cpu_s(&b)));
	kcost_bcpu_apply(&t, &b);
	assert_false(t.bcpu);
	json_decref(bad);

	/* not measured, with its reason; absent */
	bad = json_pack("{s:b, s:s, s:n}", "measured", 0, "reason",
			"the server's postmaster is not a process of this host",
			"types");
	kcost_bcpu_from_json(bad, &b);
	assert_true(b.present && !b.measured);
	assert_string_equal(
		b.reason,
		"the server's postmaster is not a process of this host");
	json_decref(bad);
	kcost_bcpu_from_json(NULL, &b);
	assert_false(b.present || b.measured);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_open_read),
		cmocka_unit_test(test_accumulate),
		cmocka_unit_test(test_bcpu_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
