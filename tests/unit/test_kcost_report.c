/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_kcost_report.c - summary.txt's kernel-cost lines
 * (analysis/report/kcost_report.h): which source the heading names (the
 * hook, or only the driver's schedstat figures when the hook left no
 * files), a skipped hook's reason, the backends' CPU check in both its
 * forms, and nothing at all when there is nothing to show.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/kcost_report.h"

/*
 * run.json's backend_cpu as the driver writes it: every type and status,
 * commits per type 100, 2 ms of CPU and 0.5 ms of run-queue wait each.
 */
static json_t *backend_cpu_json(void)
{
	static const char *const statuses[] = {"ok", "rollback", "error"};
	json_t *types = json_object();
	int t;
	size_t s;

	for (t = 0; t < TXN_NR; t++) {
		json_t *ty = json_object();

		for (s = 0; s < sizeof(statuses) / sizeof(statuses[0]); s++)
			json_object_set_new(
				ty, statuses[s],
				s == 0 ? json_pack("{s:i,s:i,s:i,s:i}", "txns",
						   100, "cpu_ns", 200000000,
						   "run_wait_ns", 50000000,
						   "timeslices", 300)
				       : json_pack("{s:i,s:i,s:i,s:i}", "txns",
						   0, "cpu_ns", 0,
						   "run_wait_ns", 0,
						   "timeslices", 0));
		json_object_set_new(types, txn_type_name(t), ty);
	}
	return json_pack("{s:b,s:o}", "measured", 1, "types", types);
}

/* r's summary.txt lines, malloc'd. */
static char *text_of(const struct kcost_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	kcost_report_write_text(r, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A report with the driver's figures only, as kcost_report_read makes
 * it for a run without the hook's files. */
static void schedstat_only(struct kcost_report *r)
{
	json_t *o = backend_cpu_json();
	int t;

	memset(r, 0, sizeof(*r));
	for (t = 0; t < TXN_NR; t++)
		r->commits[t] = 100;
	kcost_bcpu_from_json(o, &r->bcpu);
	json_decref(o);
	assert_true(r->bcpu.measured);
	kcost_bcpu_apply(&r->t, &r->bcpu);
	kcost_agree_check(&r->t, &r->bcpu, &r->agree);
}

static void test_heading_names_schedstat_without_hook(void **state)
{
	struct kcost_report r;
	char *text;

	(void)state;
	schedstat_only(&r);
	assert_true(kcost_report_any(&r));
	text = text_of(&r);
	assert_non_null(strstr(text, "Kernel cost per committed transaction "
				     "(backend schedstat)\n"));
	assert_null(strstr(text, "kernel-cost hook"));
	assert_non_null(strstr(text, "backend CPU and run-queue wait only"));
	/* every type has its row */
	for (int t = 0; t < TXN_NR; t++)
		assert_non_null(strstr(text, txn_type_name(t)));
	/* no process snapshots: the check says what is missing */
	assert_non_null(strstr(text, "CPU check (backends): the "
				     "transactions' backend CPU (schedstat) "
				     "1.000 s; the terminals' backends' CPU "
				     "(kcost_procs.*.csv) was not recorded\n"));
	free(text);
	kcost_report_free(&r);
}

static void test_heading_names_hook_when_skipped(void **state)
{
	struct kcost_report r;
	char *text;

	(void)state;
	schedstat_only(&r);
	snprintf(r.skipped, sizeof(r.skipped), "%s",
		 "pg_stat_kcache is not installed");
	text = text_of(&r);
	assert_non_null(strstr(text, "Kernel cost per committed transaction "
				     "(kernel-cost hook)\n"
				     "  skipped: pg_stat_kcache is not "
				     "installed\n"));
	free(text);
	kcost_report_free(&r);
}

static void test_not_measured_gives_reason(void **state)
{
	struct kcost_report r;
	json_t *o = json_pack("{s:b,s:s}", "measured", 0, "reason",
			      "no /proc/PID/schedstat");
	char *text;

	(void)state;
	memset(&r, 0, sizeof(r));
	kcost_bcpu_from_json(o, &r.bcpu);
	json_decref(o);
	snprintf(r.skipped, sizeof(r.skipped), "%s", "no extensions");
	text = text_of(&r);
	assert_non_null(strstr(text, "(kernel-cost hook)\n"));
	assert_null(strstr(text, "CPU check"));
	free(text);
	kcost_report_free(&r);
}

static void test_nothing_to_show_writes_nothing(void **state)
{
	struct kcost_report r;
	char *text;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_false(kcost_report_any(&r));
	text = text_of(&r);
	assert_string_equal(text, "");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heading_names_schedstat_without_hook),
		cmocka_unit_test(test_heading_names_hook_when_skipped),
		cmocka_unit_test(test_not_measured_gives_reason),
		cmocka_unit_test(test_nothing_to_show_writes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
