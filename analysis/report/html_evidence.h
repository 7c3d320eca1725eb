/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_evidence.h - the "System evidence" section of report.html: what
 * each hook left in sys/, read by its parser and shown as a table, or
 * its first lines, or why the hook did not run.
 */
#ifndef OLTPMARK_ANALYSIS_HTML_EVIDENCE_H
#define OLTPMARK_ANALYSIS_HTML_EVIDENCE_H

#include "analysis/report/html_ctx.h"
#include "src/base/err.h"

/* Write the section, hook by hook. A broken file costs its own part. */
void html_evidence_section(struct html_ctx *c);

/*
 * Whether every view of the section names a hook of run/hooks.tsv that
 * has a title, and every row of it can be read: 0, or -EINVAL with err
 * naming the first that does not (the unit test's check).
 */
int html_evidence_check(struct err *err);

#endif
