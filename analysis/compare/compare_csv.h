/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_csv.h - compare's CSV: one row per label and configuration,
 * baseline first, with the score statistics, the contest figures and
 * the host probe, for spreadsheets and scripts. Written from the
 * numbers, not from the document the other formats share.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_CSV_H
#define OLTPMARK_ANALYSIS_COMPARE_CSV_H

#include <stdio.h>

#include "analysis/compare/compare_out.h"

/*
 * Write the header line and the rows to f. Unknown numbers are empty
 * fields; text fields are quoted when they hold a comma, quote or line
 * break. Write errors are left on the stream (ferror()).
 */
void compare_csv_write(FILE *f, const struct cout_input *in);

#endif
