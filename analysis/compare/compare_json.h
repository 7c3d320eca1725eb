/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_json.h - compare's JSON (format RESFILE_TAG_COMPARE): every
 * number behind the tables (each run's metric, the test statistics, the
 * contest and probe figures, profile and lock tables, plots, and the runs
 * left out with their reasons), for tools that read compare's results.
 * Written from the numbers, not from the document the other formats
 * share. docs/compare.md describes the fields.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_JSON_H
#define OLTPMARK_ANALYSIS_COMPARE_JSON_H

#include <stdio.h>

#include "analysis/compare/compare_out.h"
#include "src/base/err.h"

/*
 * Write the document to f, indented, keys in a fixed order, unknown
 * numbers as null. 0, -ENOMEM, or -EIO when jansson could not write.
 */
int compare_json_write(FILE *f, const struct cout_input *in, struct err *err);

#endif
