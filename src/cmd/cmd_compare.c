/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_compare.c - `oltpmark compare`: find the run directories below the
 * arguments, score every label and configuration against a baseline
 * (analysis/compare/score.h), gather the evidence beside the scores
 * (analysis/compare/compare_evidence.h), draw the side-by-side plots when files
 * are written (analysis/compare/compare_plots.h), and write the result in the
 * chosen format (analysis/compare/compare_out.h). The statistics are explained
 * in docs/compare.md.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare/comparable.h"
#include "analysis/compare/compare_evidence.h"
#include "analysis/compare/compare_out.h"
#include "analysis/compare/compare_plots.h"
#include "analysis/compare/compare_within.h"
#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "src/cmd/cmd.h"
#include "src/base/atomic_file.h"
#include "src/base/err.h"
#include "src/base/log.h"
#include "src/cmd/opt.h"

/* The summary.json numbers that can be scored (higher is better). */
static const char *const metric_names[] = {"notpm", "tpm_total", NULL};

/*
 * Write the output to dir/name through a temporary file renamed into
 * place (src/base/atomic_file.h), so a reader never sees half a table.
 * 0 or negative with err.
 */
static int write_file(const char *dir, enum cout_format fmt,
		      const struct cout_input *in, char *path, size_t path_size,
		      struct err *err)
{
	struct atomic_file af;
	int rc;

	if (snprintf(path, path_size, "%s/%s", dir,
		     compare_out_file_name(fmt)) >= (int)path_size)
		return err_set(err, -ENAMETOOLONG, "%s: path too long", dir);
	rc = atomic_file_open(&af, path, err);
	if (rc < 0)
		return rc;
	return atomic_file_close(&af, compare_out_write(af.f, fmt, in, err),
				 err);
}

/*
 * Check the options of --within: 0 when they fit together, else one
 * error line and EXIT_BAD_USAGE.
 */
static int within_usage(double within, const char *config,
			const struct opt_list *labels, int format,
			const char *out)
{
	const char *why = NULL;

	if (within < 0) {
		if (config)
			why = "option --config: only with --within";
		else if (labels->count)
			why = "option --label: only with --within";
	} else if (!config) {
		why = "option --within: needs --config NAME";
	} else if (!labels->count) {
		why = "option --within: needs at least one --label NAME";
	} else if (format != COUT_TEXT || out) {
		why = "option --within: prints one line, not with --format or "
		      "--out";
	}
	if (!why)
		return 0;
	log_error("compare: %s", why);
	return EXIT_BAD_USAGE;
}

/*
 * compare --within: score the runs, print the one line of
 * compare_within_write() and return the exit status (0; 1 when compare
 * fails, as it would without --within). The evidence and plots are not
 * gathered: the answer is the score table's.
 */
static int within_answer(const struct runset *rs, const char *baseline,
			 bool holm, double within, const char *config,
			 const struct opt_list *labels)
{
	struct score_table t = {0};
	struct cwithin w;
	struct err err = {""};
	size_t i, scored = 0;

	for (i = 0; i < rs->nruns; i++)
		scored += rs->runs[i].exclusion == RUNSET_SCORED;
	if (scored == 0) {
		log_error("compare: none of the %zu runs found could be scored",
			  rs->nruns);
		return EXIT_WORK_FAILED;
	}
	if (score_compute(rs, baseline, holm, &t, &err) < 0) {
		log_error("compare: %s", err.msg);
		return EXIT_WORK_FAILED;
	}
	compare_within_check(&t, config, labels->items, (size_t)labels->count,
			     within, &w);
	compare_within_write(stdout, &w);
	score_free(&t);
	return fflush(stdout) == EOF ? EXIT_WORK_FAILED : 0;
}

/*
 * "oltpmark compare ARGS", for the provenance: what reproduces the table,
 * so without --out, which only says where it goes. NULL without memory.
 */
static char *compare_command(int argc, char **argv)
{
	size_t len = strlen("oltpmark compare") + 1;
	char *s;
	int i;

	for (i = 1; i < argc; i++)
		len += strlen(argv[i]) + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "oltpmark compare");
	for (i = 1; i < argc; i++) {
		bool quote = argv[i][strcspn(argv[i], " \t'\"$")] != '\0';

		if (strcmp(argv[i], "--out") == 0 ||
		    strcmp(argv[i], "-o") == 0) {
			i++;
			continue;
		}
		if (strncmp(argv[i], "--out=", 6) == 0 ||
		    strncmp(argv[i], "-o", 2) == 0)
			continue;

		strcat(s, quote ? " '" : " ");
		strcat(s, argv[i]);
		if (quote)
			strcat(s, "'");
	}
	return s;
}

int cmd_compare(int argc, char **argv)
{
	const char *baseline_opt = NULL, *out_opt = NULL, *baseline = NULL;
	const char *within_config = NULL;
	int metric = 0, format = COUT_TEXT;
	double within = -1;
	struct opt_list within_labels = {0};
	bool holm = false;
	struct opt_list allow = {.count = 0};
	const struct opt_def opts[] = {
		{.long_name = "baseline",
		 .short_name = 'b',
		 .kind = OPT_STRING,
		 .value = &baseline_opt,
		 .arg_name = "LABEL",
		 .help = "label scored as 100 (default: the label whose "
			 "first run started first)"},
		{.long_name = "metric",
		 .short_name = 'm',
		 .kind = OPT_CHOICE,
		 .value = &metric,
		 .arg_name = "NAME",
		 .help = "summary.json number to score: notpm (default) or "
			 "tpm_total",
		 .choices = metric_names},
		{.long_name = "format",
		 .short_name = 'f',
		 .kind = OPT_CHOICE,
		 .value = &format,
		 .arg_name = "FMT",
		 .help = "text (default), md, csv, json, html or mail",
		 .choices = compare_out_format_names},
		{.long_name = "holm",
		 .kind = OPT_FLAG,
		 .value = &holm,
		 .help = "decide the stars with Holm's correction over all "
			 "comparisons (intervals stay unadjusted)"},
		{.long_name = "allow-differ",
		 .kind = OPT_LIST,
		 .value = &allow,
		 .arg_name = "KEY",
		 .help = "score even though fingerprint KEY differs where it "
			 "must not (repeatable; the table says so)"},
		{.long_name = "out",
		 .short_name = 'o',
		 .kind = OPT_STRING,
		 .value = &out_opt,
		 .arg_name = "DIR",
		 .help = "write DIR/scores.EXT (html: DIR/compare.html) and "
			 "plots in DIR/compare-plots/; print the path"},
		{.long_name = "within",
		 .kind = OPT_DOUBLE,
		 .value = &within,
		 .arg_name = "PCT",
		 .help = "print only whether the block scores of --config for "
			 "the --label(s) are within +-PCT: 'WIDTH reached', "
			 "'WIDTH short' or 'none WHY'",
		 .min = 0,
		 .max = 1e6},
		{.long_name = "config",
		 .kind = OPT_STRING,
		 .value = &within_config,
		 .arg_name = "NAME",
		 .help = "with --within: the configuration looked at"},
		{.long_name = "label",
		 .kind = OPT_LIST,
		 .value = &within_labels,
		 .arg_name = "NAME",
		 .help = "with --within: a label looked at (repeatable)"},
	};
	const struct opt_cmd cmd = {
		.name = "compare",
		.synopsis = "[options] DIR...",
		.summary =
			"Find the run directories below each DIR (those with "
			"meta.json and\nsummary.json), group them by label and "
			"configuration, and score each\nlabel against the "
			"baseline: 100 x the ratio of geometric means of the\n"
			"metric, with the 95 % interval of Welch's t-test on "
			"the logarithms\n('*': significant; unadjusted unless "
			"--holm). Partial, not steady and\ndiagnostic runs are "
			"listed, not scored. Then a contest table (NOTPM,\n"
			"New-Order p90, CPU and I/O wait from vmstat, response-"
			"time ratio),\nthe host probe of each label against "
			"the baseline's (a warning when\nthe host itself "
			"changed speed), profile and lock tables from\n"
			"diagnostic runs, and, when files are written, "
			"side-by-side vmstat\nplots. --format html writes compare.html "
			"into --out (default: the first\nDIR) and prints its "
			"path. Exit status: 0 scored, 1 no runs found or\nnone "
			"scorable, 2 bad option or DIR or an unknown --baseline. "
			"See\ndocs/compare.md.",
		.opts = opts,
		.nopts = (int)(sizeof(opts) / sizeof(opts[0])),
		.min_args = 1,
		.max_args = -1,
	};
	struct runset rs = {0};
	struct score_table t = {0};
	struct cev ev = {0};
	struct cplots plots = {0};
	struct cout_input in = {0};
	struct comparable cmp = {0};
	struct err err = {""};
	char *command = NULL;
	const char *out_dir;
	char plots_path[4096], path[4096];
	size_t i, scored = 0;
	int first, rc, status = EXIT_WORK_FAILED;

	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	rc = within_usage(within, within_config, &within_labels, format,
			  out_opt);
	if (rc != 0)
		return rc;

	rc = runset_scan(&rs, (const char *const *)argv + first,
			 (size_t)(argc - first), metric_names[metric], &err);
	if (rc < 0) {
		log_error("compare: %s", err.msg);
		status = rc == -ENOMEM ? EXIT_WORK_FAILED : EXIT_BAD_USAGE;
		goto out;
	}
	for (i = 0; i < rs.nbroken; i++)
		log_warn("compare: skipped %s: %s", rs.broken[i].dir,
			 rs.broken[i].reason);
	if (rs.nruns == 0) {
		log_error("compare: no runs found below %s%s (a run directory "
			  "holds meta.json and summary.json)",
			  argv[first], argc - first > 1 ? " ..." : "");
		goto out;
	}
	rc = comparable_check(&cmp, &rs, allow.items, (size_t)allow.count,
			      &err);
	if (rc < 0) {
		log_error("compare: %s", err.msg);
		goto out;
	}
	if (cmp.refusal) {
		log_error("compare: %s", cmp.refusal);
		status = EXIT_BAD_USAGE;
		goto out;
	}
	rc = score_pick_baseline(&rs, baseline_opt, &baseline, &err);
	if (rc < 0) {
		log_error("compare: %s", err.msg);
		status = rc == -ENOENT ? EXIT_BAD_USAGE : EXIT_WORK_FAILED;
		goto out;
	}
	if (within >= 0) {
		status = within_answer(&rs, baseline, holm, within,
				       within_config, &within_labels);
		goto out;
	}
	command = compare_command(argc, argv);
	if (score_compute(&rs, baseline, holm, &t, &err) < 0 ||
	    compare_evidence_build(&ev, &rs, &t, &err) < 0 ||
	    comparable_describe(&cmp, &rs, &t, command) < 0) {
		log_error("compare: %s", err.msg);
		goto out;
	}

	out_dir =
		out_opt ? out_opt : (format == COUT_HTML ? argv[first] : NULL);
	in = (struct cout_input){.rs = &rs,
				 .t = &t,
				 .ev = &ev,
				 .out_dir = out_dir,
				 .metric = metric_names[metric],
				 .cmp = &cmp,
				 .baseline_given = baseline_opt != NULL};
	if (out_dir) {
		if (mkdir(out_dir, 0777) < 0 && errno != EEXIST) {
			log_error("compare: --out %s: %s", out_dir,
				  strerror(errno));
			goto out;
		}
		if (compare_plots_make(out_dir, &rs, &t, &ev, &plots, &err) <
		    0) {
			log_error("compare: %s", err.msg);
			goto out;
		}
		if (plots.why_not[0])
			log_warn("compare: no plots drawn: %s", plots.why_not);
		snprintf(plots_path, sizeof(plots_path), "%s/%s", out_dir,
			 CPLOT_DIR);
		in.plots = &plots;
		in.plots_path = plots_path;
		if (write_file(out_dir, (enum cout_format)format, &in, path,
			       sizeof(path), &err) < 0) {
			log_error("compare: %s", err.msg);
			goto out;
		}
		printf("%s\n", path);
	} else if (compare_out_write(stdout, (enum cout_format)format, &in,
				     &err) < 0) {
		log_error("compare: %s", err.msg);
		goto out;
	}

	for (i = 0; i < rs.nruns; i++)
		scored += rs.runs[i].exclusion == RUNSET_SCORED;
	if (scored == 0) {
		log_error("compare: none of the %zu runs found could be scored "
			  "(see \"Runs not scored\")",
			  rs.nruns);
		goto out;
	}
	status = 0;
out:
	free(command);
	comparable_free(&cmp);
	compare_plots_free(&plots);
	compare_evidence_free(&ev);
	score_free(&t);
	runset_free(&rs);
	return status;
}
