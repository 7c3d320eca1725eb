/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_score.c - scores, intervals and significance of `oltpmark compare`
 * (analysis/compare/runset.h, analysis/compare/score.h) on hand-made run directories
 * whose answer is known: equal values, one run on a side, a clear 10 %
 * drop, a label missing a configuration, the choice of the baseline, the
 * runs left out (partial, not steady, diagnostic), foreign summaries and
 * broken directories.
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
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/common/stats.h"
#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "tests/unit/fixture_util.h"

/* How a hand-made run differs from a plain, steady, complete one. */
enum run_kind {
	RUN_PLAIN,	/* complete, steady */
	RUN_PARTIAL,	/* summary.json partial */
	RUN_UNSTEADY,	/* steady_state.steady false */
	RUN_DIAGNOSTIC, /* notes.diagnostic "true" */
	RUN_FOREIGN,	/* summary.json with nothing but notpm */
	RUN_TRUNCATED,	/* summary.json cut in half */
	RUN_NO_SUMMARY, /* meta.json only */
	RUN_LOST,	/* run.json: connections lost and regained */
};

static char root[256]; /* this test's temporary directory */

static void mkdirs(const char *path)
{
	char buf[4096];
	char *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0777);
			*p = '/';
		}
	mkdir(buf, 0777);
}

/*
 * root/LABEL/CONFIG/NAME with meta.json (start minute MIN after
 * 2026-01-01T10:00Z) and summary.json (notpm).
 */
static void make_run(const char *label, const char *config, const char *name,
		     int minute, double notpm, enum run_kind kind)
{
	char dir[4096], text[2048];
	size_t len;

	snprintf(dir, sizeof(dir), "%s/%s/%s/%s", root, label, config, name);
	mkdirs(dir);
	snprintf(text, sizeof(text),
		 "{\"format\": \"oltpmark-meta/1\", \"label\": \"%s\", "
		 "\"config\": \"%s\", \"start\": \"2026-01-01T%02d:%02d:00Z\", "
		 "\"options\": {\"ramp-up\": 10}, \"notes\": {%s}}\n",
		 label, config, 10 + minute / 60, minute % 60,
		 kind == RUN_DIAGNOSTIC ? "\"diagnostic\": \"true\"" : "");
	fixture_write_file(dir, "meta.json", text);
	if (kind == RUN_NO_SUMMARY)
		return;
	if (kind == RUN_FOREIGN)
		snprintf(text, sizeof(text), "{\"notpm\": %.6f}\n", notpm);
	else
		snprintf(text, sizeof(text),
			 "{\"format\": \"oltpmark-summary/1\", "
			 "\"notpm\": %.6f, \"tpm_total\": %.6f, "
			 "\"partial\": %s, \"measured_s\": 60, "
			 "\"steady_state\": {\"steady\": %s}, "
			 "\"types\": {\"new_order\": {\"response_ms\": "
			 "{\"mean\": 5.0, \"p90\": 9.0}}}}\n",
			 notpm, 2.2 * notpm,
			 kind == RUN_PARTIAL ? "true" : "false",
			 kind == RUN_UNSTEADY ? "false" : "true");
	if (kind == RUN_TRUNCATED) {
		len = strlen(text);
		text[len / 2] = '\0';
	}
	fixture_write_file(dir, "summary.json", text);
	if (kind == RUN_LOST)
		fixture_write_file(
			dir, "run.json",
			"{\"format\": \"oltpmark-run/1\", \"partial\": false, "
			"\"connections_lost\": 4, \"reconnects\": 4}\n");
}

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_score") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* Scan root and compute scores against baseline (NULL: default). */
static void compute(struct runset *rs, struct score_table *t,
		    const char *baseline, bool holm)
{
	const char *dirs[] = {root};
	const char *base = NULL;
	struct err err = {""};

	assert_int_equal(runset_scan(rs, dirs, 1, "notpm", &err), 0);
	assert_int_equal(score_pick_baseline(rs, baseline, &base, &err), 0);
	assert_int_equal(score_compute(rs, base, holm, t, &err), 0);
}

static const struct score_cell *cell(const struct score_table *t,
				     const char *label, const char *config)
{
	int l = score_label_index(t, label), c = score_config_index(t, config);

	assert_true(l >= 0);
	assert_true(c >= 0);
	return score_cell(t, (size_t)l, (size_t)c);
}

static void test_equal_values(void **state)
{
	struct runset rs;
	struct score_table t;
	const struct score_cell *c;

	(void)state;
	make_run("base", "cached", "run-1", 0, 1000, RUN_PLAIN);
	make_run("base", "cached", "run-2", 2, 1010, RUN_PLAIN);
	make_run("base", "cached", "run-3", 4, 990, RUN_PLAIN);
	make_run("same", "cached", "run-1", 1, 990, RUN_PLAIN);
	make_run("same", "cached", "run-2", 3, 1000, RUN_PLAIN);
	make_run("same", "cached", "run-3", 5, 1010, RUN_PLAIN);
	compute(&rs, &t, NULL, false);
	assert_string_equal(t.labels[t.baseline], "base");
	c = cell(&t, "base", "cached");
	assert_true(c->has_score && c->score == 100 && !c->has_ci);
	assert_false(c->significant);
	c = cell(&t, "same", "cached");
	assert_true(c->has_score && c->has_ci);
	assert_true(fabs(c->score - 100) < 1e-9);
	assert_false(c->significant);
	assert_true(c->ci_lo < 100 && c->ci_hi > 100);
	/* exp() is convex: the upper side is the larger half. */
	assert_true(fabs(c->half_width - (c->ci_hi - c->score)) < 1e-9);
	assert_true(c->p > 0.99);
	assert_int_equal(t.ncomparisons, 1);
	assert_int_equal(c->n, 3);
	assert_true(fabs(c->cov - 0.01) < 1e-12); /* sd 10 over mean 1000 */
	score_free(&t);
	runset_free(&rs);
}

static void test_n1_no_interval(void **state)
{
	struct runset rs;
	struct score_table t;
	const struct score_cell *c;

	(void)state;
	make_run("base", "cached", "run-1", 0, 1000, RUN_PLAIN);
	make_run("base", "cached", "run-2", 2, 1000, RUN_PLAIN);
	make_run("one", "cached", "run-1", 1, 950, RUN_PLAIN);
	compute(&rs, &t, NULL, false);
	c = cell(&t, "one", "cached");
	assert_true(c->has_score);
	assert_true(fabs(c->score - 95) < 1e-9);
	assert_false(c->has_ci);
	assert_false(c->significant);
	assert_true(isnan(c->cov) && isnan(c->p));
	assert_int_equal(t.ncomparisons, 0);
	score_free(&t);
	runset_free(&rs);
}

/*
 * 5 + 5 runs, the second label 10 % lower with 0.5 % noise. The score
 * is the ratio of geometric means: ~90.00, and the interval is narrow.
 */
static void test_clear_drop(void **state)
{
	static const double noise[] = {1.000, 1.005, 0.995, 1.002, 0.998};
	struct runset rs;
	struct score_table t;
	const struct score_cell *c;
	double gb = 0, gd = 0;
	char name[16];
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "run-%d", i + 1);
		make_run("6.18-base", "noncached", name, 2 * i, 1000 * noise[i],
			 RUN_PLAIN);
		make_run("6.18-bfq", "noncached", name, 2 * i + 1,
			 900 * noise[4 - i], RUN_PLAIN);
		gb += log(1000 * noise[i]) / 5;
		gd += log(900 * noise[4 - i]) / 5;
	}
	compute(&rs, &t, NULL, false);
	c = cell(&t, "6.18-bfq", "noncached");
	assert_true(fabs(c->score - 100 * exp(gd - gb)) < 1e-9);
	assert_true(fabs(c->score - 90.00) < 0.005);
	assert_true(c->has_ci && c->significant);
	assert_true(c->ci_hi < 100);
	assert_true(c->half_width < 1.0);
	/* Equal spreads on both sides: Welch's df is n1 + n2 - 2 = 8. */
	assert_true(fabs(c->df - 8) < 1e-9);
	assert_true(c->p < 1e-6);
	score_free(&t);
	runset_free(&rs);
}

/*
 * The interval of a hand-computed case: 3 + 3 runs, logs' difference
 * ln(0.8715472063), SE 0.0070375351, df 3.99990; with t(df) ~ 2.7765
 * the interval is 85.4683 .. 88.8744 (computed independently).
 */
static void test_interval_values(void **state)
{
	struct runset rs;
	struct score_table t;
	const struct score_cell *c;

	(void)state;
	make_run("a", "noncached", "run-1", 0, 500.0, RUN_PLAIN);
	make_run("a", "noncached", "run-2", 2, 505.5, RUN_PLAIN);
	make_run("a", "noncached", "run-3", 4, 497.0, RUN_PLAIN);
	make_run("b", "noncached", "run-1", 1, 436.0, RUN_PLAIN);
	make_run("b", "noncached", "run-2", 3, 440.5, RUN_PLAIN);
	make_run("b", "noncached", "run-3", 5, 433.0, RUN_PLAIN);
	compute(&rs, &t, NULL, false);
	c = cell(&t, "b", "noncached");
	assert_true(fabs(c->score - 87.15472063) < 1e-6);
	assert_true(fabs(c->se_log - 0.0070375351) < 1e-9);
	assert_true(fabs(c->df - 3.9998964) < 1e-6);
	assert_true(fabs(c->ci_lo - 85.4683) < 0.0002);
	assert_true(fabs(c->ci_hi - 88.8744) < 0.0002);
	assert_true(c->significant);
	score_free(&t);
	runset_free(&rs);
}

static void test_missing_config(void **state)
{
	struct runset rs;
	struct score_table t;
	const struct score_cell *c;

	(void)state;
	make_run("base", "cached", "run-1", 0, 1000, RUN_PLAIN);
	make_run("base", "noncached", "run-1", 1, 500, RUN_PLAIN);
	make_run("only-cached", "cached", "run-1", 2, 1020, RUN_PLAIN);
	compute(&rs, &t, NULL, false);
	assert_int_equal(t.nconfigs, 2);
	assert_string_equal(t.configs[0], "cached");
	assert_string_equal(t.configs[1], "noncached");
	c = cell(&t, "only-cached", "noncached");
	assert_int_equal(c->n, 0);
	assert_false(c->has_score);
	assert_true(isnan(c->score));
	c = cell(&t, "only-cached", "cached");
	assert_true(c->has_score && fabs(c->score - 102) < 1e-9);
	score_free(&t);
	runset_free(&rs);
}

static void test_baseline_choice(void **state)
{
	struct runset rs;
	struct score_table t;
	const char *dirs[] = {root};
	const char *base = NULL;
	struct err err = {""};

	(void)state;
	/* "zeta" sorts last but ran first; "alpha"'s only early run is
	 * diagnostic, so it still counts as starting first. */
	make_run("zeta", "cached", "run-1", 5, 1000, RUN_PLAIN);
	make_run("alpha", "cached", "run-1", 10, 990, RUN_PLAIN);
	make_run("alpha", "cached", "run-diag-1", 1, 900, RUN_DIAGNOSTIC);
	make_run("never", "cached", "run-1", 0, 900, RUN_PARTIAL);
	compute(&rs, &t, NULL, false);
	/* "never" started first but has nothing scored. */
	assert_string_equal(t.labels[t.baseline], "alpha");
	assert_true(fabs(cell(&t, "zeta", "cached")->score -
			 100 * 1000.0 / 990) < 1e-9);
	assert_false(cell(&t, "never", "cached")->has_score);
	score_free(&t);
	runset_free(&rs);

	compute(&rs, &t, "zeta", false);
	assert_string_equal(t.labels[t.baseline], "zeta");
	assert_true(cell(&t, "zeta", "cached")->score == 100);
	score_free(&t);

	assert_int_equal(score_pick_baseline(&rs, "nope", &base, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "nope"));
	runset_free(&rs);

	/* No runs at all. */
	assert_int_equal(fixture_rm_rf(root), 0);
	assert_int_equal(mkdir(root, 0700), 0);
	assert_int_equal(runset_scan(&rs, dirs, 1, "notpm", &err), 0);
	assert_int_equal(rs.nruns, 0);
	assert_int_equal(score_pick_baseline(&rs, NULL, &base, &err), -ENOENT);
	runset_free(&rs);
}

static void test_exclusions(void **state)
{
	struct runset rs;
	struct score_table t;
	const struct score_cell *c;
	size_t i, n[RUNSET_EXCLUSION_NR] = {0};
	bool truncated = false, no_summary = false;

	(void)state;
	make_run("base", "cached", "run-1", 0, 1000, RUN_PLAIN);
	make_run("base", "cached", "run-2", 1, 1000, RUN_FOREIGN);
	make_run("base", "cached", "run-3", 2, 100, RUN_PARTIAL);
	make_run("base", "cached", "run-4", 3, 100, RUN_UNSTEADY);
	make_run("base", "cached", "run-diag-1", 4, 100, RUN_DIAGNOSTIC);
	make_run("base", "cached", "run-5", 5, 100, RUN_TRUNCATED);
	make_run("base", "cached", "run-6", 6, 100, RUN_NO_SUMMARY);
	make_run("base", "cached", "run-7", 7, 0, RUN_PLAIN);
	make_run("base", "cached", "run-8", 8, 100, RUN_LOST);
	compute(&rs, &t, NULL, false);
	for (i = 0; i < rs.nruns; i++)
		n[rs.runs[i].exclusion]++;
	assert_int_equal(n[RUNSET_SCORED], 2); /* run-1 and foreign run-2 */
	assert_int_equal(n[RUNSET_PARTIAL], 1);
	assert_int_equal(n[RUNSET_NOT_STEADY], 1);
	assert_int_equal(n[RUNSET_DIAGNOSTIC], 1);
	assert_int_equal(n[RUNSET_NO_METRIC], 1); /* notpm 0 */
	assert_int_equal(n[RUNSET_CONNECTIONS_LOST], 1);
	assert_int_equal(rs.nbroken, 2);
	for (i = 0; i < rs.nbroken; i++) {
		truncated |= strstr(rs.broken[i].dir, "run-5") &&
			     strstr(rs.broken[i].reason, "summary.json");
		no_summary |= strstr(rs.broken[i].dir, "run-6") != NULL;
	}
	assert_true(truncated && no_summary);
	/* The foreign summary: no steady verdict, no percentiles. */
	for (i = 0; i < rs.nruns; i++)
		if (strstr(rs.runs[i].dir, "run-2")) {
			assert_int_equal(rs.runs[i].steady, -1);
			assert_true(isnan(rs.runs[i].no_p90_ms));
			assert_true(rs.runs[i].notpm == 1000);
		}
	c = cell(&t, "base", "cached");
	assert_int_equal(c->n, 2);
	assert_int_equal(c->n_excluded, 5);
	assert_true(c->score == 100);
	score_free(&t);
	runset_free(&rs);
}

/*
 * Holm: four labels against a baseline; with --holm a marginal
 * difference loses its star while a clear one keeps it.
 */
static void test_holm_stars(void **state)
{
	struct runset rs;
	struct score_table t;
	const struct score_cell *clear, *marginal;
	char name[16];
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "run-%d", i + 1);
		make_run("a-base", "cached", name, 10 * i, 1000 + 10 * (i - 1),
			 RUN_PLAIN);
		make_run("b-clear", "cached", name, 10 * i + 1,
			 800 + 8 * (i - 1), RUN_PLAIN);
		make_run("c-marginal", "cached", name, 10 * i + 2,
			 970 + 10 * (i - 1), RUN_PLAIN);
		make_run("d-same", "cached", name, 10 * i + 3,
			 1000 + 10 * (1 - i), RUN_PLAIN);
		make_run("e-same", "cached", name, 10 * i + 4,
			 1001 + 10 * (i - 1), RUN_PLAIN);
	}
	compute(&rs, &t, NULL, false);
	clear = cell(&t, "b-clear", "cached");
	marginal = cell(&t, "c-marginal", "cached");
	assert_int_equal(t.ncomparisons, 4);
	assert_true(clear->significant);
	assert_true(marginal->significant);
	assert_true(marginal->p < 0.05 && marginal->p_holm >= 0.05);
	assert_true(clear->p_holm < 0.05);
	score_free(&t);
	runset_free(&rs);
	compute(&rs, &t, NULL, true);
	assert_true(cell(&t, "b-clear", "cached")->significant);
	assert_false(cell(&t, "c-marginal", "cached")->significant);
	/* The interval itself is not adjusted. */
	assert_true(cell(&t, "c-marginal", "cached")->ci_hi < 100);
	score_free(&t);
	runset_free(&rs);
}

/* A run with its host's steal share (summary.json "host"). */
static void make_steal_run(const char *label, const char *name, int minute,
			   double notpm, double steal_pct)
{
	char dir[4096], text[1024];

	snprintf(dir, sizeof(dir), "%s/%s/cached/%s", root, label, name);
	mkdirs(dir);
	snprintf(text, sizeof(text),
		 "{\"format\": \"oltpmark-meta/1\", \"label\": \"%s\", "
		 "\"config\": \"cached\", "
		 "\"start\": \"2026-01-01T10:%02d:00Z\"}\n",
		 label, minute);
	fixture_write_file(dir, "meta.json", text);
	snprintf(text, sizeof(text),
		 "{\"format\": \"oltpmark-summary/1\", \"notpm\": %.9f, "
		 "\"partial\": false, \"measured_s\": 60, "
		 "\"ramp_up_s\": 10, \"steady_state\": {\"steady\": true}, "
		 "\"host\": {\"steal_pct\": %.6f}}\n",
		 notpm, steal_pct);
	fixture_write_file(dir, "summary.json", text);
}

/*
 * Whole runs that differ in steal: NOTPM = 1000 x exp(-1.5 x steal) x
 * (0.97 for label b) x a small wobble. Label b's runs had more steal,
 * so without the term it would look about 5 % slower; with it, the
 * fitted cost is -1.5 and the score 97 (the wobble aside), and the term
 * removes most of the variance. Then the resolution of the score.
 */
static void test_steal_adjustment(void **state)
{
	static const double steal_a[] = {0.01, 0.05, 0.02, 0.08};
	static const double steal_b[] = {0.04, 0.12, 0.06, 0.09};
	static const double wobble[] = {0.002, -0.001, -0.002, 0.001};
	struct runset rs;
	struct score_table t;
	const struct score_cell *c;
	char name[16];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "run-%d", i + 1);
		make_steal_run("a", name, 2 * i,
			       1000 * exp(-1.5 * steal_a[i] + wobble[i]),
			       100 * steal_a[i]);
		make_steal_run("b", name, 2 * i + 1,
			       970 * exp(-1.5 * steal_b[i] - wobble[i]),
			       100 * steal_b[i]);
	}
	compute(&rs, &t, "a", false);
	c = cell(&t, "b", "cached");
	assert_true(c->steal_adjusted);
	assert_true(fabs(c->steal_coef - -1.5) < 0.1);
	assert_true(fabs(c->score - 97) < 0.5);
	assert_true(c->var_removed > 0.9);
	assert_true(c->has_ci && c->ci_lo < 97 && c->ci_hi > 97);
	assert_true(fabs(c->steal_pct - 7.75) < 1e-9);
	/* the resolution: MDE from its own standard error and df */
	assert_true(
		fabs(c->mde_pct - 100 * (exp((stats_t_quantile(0.975, c->df) +
					      stats_t_quantile(0.80, c->df)) *
					     c->se_log) -
					 1)) < 1e-9);
	assert_true(c->resolve_runs >= 2);
	assert_true(fabs(c->resolve_s - c->resolve_runs * 140) < 1e-6);
	assert_int_equal(t.nsteal_adjusted, 1);
	score_free(&t);
	runset_free(&rs);

	/* without steal shares: the plain Welch score, about 5 % down */
	fixture_rm_rf(root);
	mkdirs(root);
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "run-%d", i + 1);
		make_run("a", "cached", name, 2 * i,
			 1000 * exp(-1.5 * steal_a[i] + wobble[i]), RUN_PLAIN);
		make_run("b", "cached", name, 2 * i + 1,
			 970 * exp(-1.5 * steal_b[i] - wobble[i]), RUN_PLAIN);
	}
	compute(&rs, &t, "a", false);
	c = cell(&t, "b", "cached");
	assert_false(c->steal_adjusted);
	assert_true(isnan(c->var_removed));
	assert_true(c->score < 96);
	score_free(&t);
	runset_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_equal_values, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_n1_no_interval, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_clear_drop, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_interval_values, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_config, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_baseline_choice, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_exclusions, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_holm_stars, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_steal_adjustment, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
