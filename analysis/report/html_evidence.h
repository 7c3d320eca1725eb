/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_evidence.h - the "System evidence" section of report.html: what
 * each hook left in sys/, read by its parser and shown as a table, or
 * its first lines, or why the hook did not run.
 */
#ifndef OLTPMARK_ANALYSIS_HTML_EVIDENCE_H
#define OLTPMARK_ANALYSIS_HTML_EVIDENCE_H

#include "analysis/report/html_ctx.h"

/* Write the section, hook by hook. A broken file costs its own part. */
void html_evidence_section(struct html_ctx *c);

#endif
