/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_report.c - `oltpmark report DIR`: summary, time series, plots and
 * report.html for one run directory (analysis/report/report.h does the work),
 * then summary.txt on stdout.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/common/gnuplot.h"
#include "analysis/report/report.h"
#include "src/cmd/cmd.h"
#include "src/base/log.h"
#include "src/cmd/opt.h"

/*
 * Parse "A:B" or "A:" (from A to the end of the run) into seconds.
 * 0 or -EINVAL.
 */
static int parse_window(const char *arg, double *start_s, double *end_s,
			struct err *err)
{
	const char *colon = strchr(arg, ':');
	char *end;

	if (!colon)
		return err_set(err, -EINVAL,
			       "option --window: '%s' is not A:B (seconds "
			       "since the start of the run)",
			       arg);
	*start_s = strtod(arg, &end);
	if (end != colon || end == arg || !isfinite(*start_s) || *start_s < 0)
		return err_set(err, -EINVAL,
			       "option --window: '%s' has a bad start", arg);
	if (colon[1] == '\0') {
		*end_s = -1;
		return 0;
	}
	*end_s = strtod(colon + 1, &end);
	if (*end != '\0' || !isfinite(*end_s) || *end_s < 0)
		return err_set(err, -EINVAL,
			       "option --window: '%s' has a bad end", arg);
	if (*end_s <= *start_s)
		return err_set(err, -EINVAL,
			       "option --window: '%s' ends before it starts",
			       arg);
	return 0;
}

static int print_file(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		log_error("%s: %s", path, strerror(errno));
		return EXIT_WORK_FAILED;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	double ramp_up_s = -1;
	const char *window = NULL;
	bool no_plots = false;
	const char *compare_page = NULL;
	const struct opt_def opts[] = {
		{"ramp-up", 0, OPT_DOUBLE, &ramp_up_s, "S",
		 "start the window S seconds after the start of the run "
		 "(default: the run's ramp-up)",
		 0, 1e9, NULL, false},
		{"window", 0, OPT_STRING, &window, "A:B",
		 "summarise from A to B seconds after the start (\"A:\": to "
		 "the end of the run)",
		 0, 0, NULL, false},
		{"no-plots", 0, OPT_FLAG, &no_plots, NULL,
		 "write summary and time series only: no plots/, no "
		 "report.html",
		 0, 0, NULL, false},
		{"compare-page", 0, OPT_STRING, &compare_page, "PATH",
		 "report.html links to the compare page PATH, which may be "
		 "made later (default: the nearest compare.html up to 3 "
		 "directories above DIR)",
		 0, 0, NULL, false},
	};
	const struct opt_cmd cmd = {
		.name = "report",
		.synopsis = "[options] DIR",
		.summary = "Summarise one run directory: write summary.json, "
			   "summary.txt, timeseries.csv, plots/ (with gnuplot) "
			   "and report.html, and print summary.txt. The window "
			   "is the run's measured interval unless --ramp-up or "
			   "--window say otherwise.",
		.opts = opts,
		.nopts = (int)(sizeof(opts) / sizeof(opts[0])),
		.min_args = 1,
		.max_args = 1,
	};
	struct report_options ro;
	char why[256];
	struct err err;
	int first, rc;

	err_clear(&err);
	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	ro.ramp_up_s = ramp_up_s;
	ro.window_end_s = -1;
	ro.plots = !no_plots;
	ro.compare_page = compare_page;
	if (compare_page && !compare_page[0]) {
		log_error("option --compare-page: empty path");
		return EXIT_BAD_USAGE;
	}
	if (window) {
		if (ramp_up_s >= 0) {
			log_error("report: give --ramp-up or --window, not "
				  "both");
			return EXIT_BAD_USAGE;
		}
		if (parse_window(window, &ro.ramp_up_s, &ro.window_end_s,
				 &err) < 0) {
			log_error("%s", err.msg);
			return EXIT_BAD_USAGE;
		}
	}
	rc = report_summarize(argv[first], &ro, &err);
	if (rc < 0) {
		log_error("%s", err.msg[0] ? err.msg : strerror(-rc));
		return cmd_exit_status(rc);
	}
	/* the page says it too; here for whoever reads only the terminal */
	if (ro.plots && !gnuplot_available(why, sizeof(why)))
		log_warn("report: no plots drawn: %s", why);
	return print_file(argv[first], "summary.txt");
}
