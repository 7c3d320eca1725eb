/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcost_report.h - the report's part for the kernel-cost hook: per
 * transaction type, per committed transaction, the server time, user
 * and system CPU, off-CPU time, device bytes, context switches, faults
 * and the top wait events (analysis/parsers/kcost.h), with the check
 * that the query ids' CPU adds up to the server processes' CPU of
 * run.json's cost window; as summary.json's "kernel_cost" object, lines
 * of summary.txt and a section of report.html.
 *
 * The committed transactions per type are mix.csv's inside run.json's
 * cost window (from the end of the ramp-up to the end of the measured
 * interval), the interval the hook's snapshots are timed to.
 *
 * Beside the statements' figures, run.json's backend_cpu: the backends'
 * CPU and run-queue wait per committed transaction from
 * /proc/PID/schedstat (the commit and the client protocol included),
 * and the check of their sum against the terminals' backends of the
 * hook's process snapshots. Those need no extension: without the hook's
 * files the table shows them alone.
 */
#ifndef OLTPMARK_ANALYSIS_KCOST_REPORT_H
#define OLTPMARK_ANALYSIS_KCOST_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/parsers/kcost.h"
#include "analysis/report/summary.h"
#include "src/base/err.h"

/* What the report shows of the hook. Owns t. */
struct kcost_report {
	struct kcost_table t;	     /* the figures, t.present when read */
	double commits[TXN_NR];	     /* committed per type, cost window */
	struct kcost_check check;    /* the CPU check: statements */
	struct kcost_bcpu bcpu;	     /* run.json's backend_cpu */
	struct kcost_agree agree;    /* the CPU check: schedstat against the
					process snapshots */
	char error[ERR_MSG_MAX];     /* a file there but unreadable: the
				       one line shown, "" when none */
	char skipped[KCOST_WHY_MAX]; /* sys/kernel-cost.skipped's first
					line, "" when none */
};

/*
 * Read run_dir/sys's files of the hook into *out, with the commits and
 * the server's CPU from s. Never fails: a file that cannot be read is
 * out->error. Returns 0, or -ENOMEM.
 */
int kcost_report_read(const char *run_dir, const struct summary *s,
		      struct kcost_report *out);

/* Whether there is anything to show (figures, an error, a skip). */
bool kcost_report_any(const struct kcost_report *r);

/* summary.json's "kernel_cost" object; NULL on no memory. */
json_t *kcost_report_json(const struct kcost_report *r);

/* Its lines of summary.txt (nothing when there is nothing to show). */
void kcost_report_write_text(const struct kcost_report *r, FILE *f);

/* Its section of report.html. */
void kcost_report_write_html(const struct kcost_report *r, FILE *f);

/* Release what read allocated and zero r. */
void kcost_report_free(struct kcost_report *r);

#endif
