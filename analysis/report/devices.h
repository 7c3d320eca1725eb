/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devices.h - the per-device table of one run for summary.txt,
 * summary.json and report.html: each block device under the database (its role: data,
 * WAL or both), with its reads and writes per second, MB/s, mean request
 * size, read and write await, queue size, utilisation and share of the
 * database's I/O, from iostat over the measured window or from the
 * diskstats snapshots (analysis/parsers/dbdevices.h reads them).
 */
#ifndef OLTPMARK_ANALYSIS_DEVICES_H
#define OLTPMARK_ANALYSIS_DEVICES_H

#include <stdio.h>

#include <jansson.h>

#include "analysis/parsers/dbdevices.h"
#include "analysis/report/summary.h"
#include "src/base/err.h"

/*
 * The devices of run_dir (meta: its parsed meta.json, may be NULL) with
 * iostat averaged over s's window, into out (overwritten; free it with
 * dbdevices_free() either way). 0, or -ENOMEM.
 */
int devices_read(const char *run_dir, const json_t *meta,
		 const struct summary *s, struct dbdevices *out,
		 struct err *err);

/*
 * summary.txt's table: nothing when meta.json has no server.layout.
 * Reads the files itself (devices_read()). 0, or -ENOMEM.
 */
int devices_write_text(const char *run_dir, const json_t *meta,
		       const struct summary *s, FILE *f, struct err *err);

/*
 * summary.json's "devices": {"devices": [...], "notes": [...]}, each
 * device with its name, dm_name, role, holds, from (the source) and the
 * figures of the table (null where unknown). NULL when meta.json has no
 * server.layout (then the key is left out) or out of memory.
 */
json_t *devices_json(const struct dbdevices *d);

/* report.html's table, notes and legend for d. */
void devices_write_html(FILE *f, const struct dbdevices *d);

#endif
