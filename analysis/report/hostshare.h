/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostshare.h - the host's share of the CPU during one run, from the
 * procstat hook's sys/procstat.csv: each kind of CPU time (steal above
 * all: the time the hypervisor gave to someone else while this guest
 * was runnable) as a share of all CPU time over the measured window,
 * for summary.json "host" and summary.txt. The samples stay on the
 * run's clock for the per-block shares of a block run (blockrun.h).
 */
#ifndef OLTPMARK_ANALYSIS_HOSTSHARE_H
#define OLTPMARK_ANALYSIS_HOSTSHARE_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/parsers/parse_procstat.h"
#include "src/base/err.h"

/* The host's share over the window, and the samples behind it. */
struct hostshare {
	bool known;		       /* procstat.csv read and placed */
	struct procstat_series series; /* samples on the run's clock */
	bool window_known;	       /* the window's shares were taken */
	struct procstat_shares window; /* shares over the measured window */
	double window_start_s;	       /* that window, run's clock */
	double window_end_s;
};

/*
 * Read run_dir/sys/procstat.csv and put it on the run's clock
 * (start_epoch_s: meta.json "start_unix_s"); then the shares over
 * [window_start_s, window_end_s). No file: *out stays unknown, 0. A file
 * that does not parse, or no start time: unknown, and why in why (a
 * note for the summary), 0. Only -ENOMEM fails.
 */
int hostshare_read(const char *run_dir, double start_epoch_s,
		   double window_start_s, double window_end_s,
		   struct hostshare *out, char *why, size_t why_size,
		   struct err *err);

/* summary.json "host": the shares in %, or NULL when not known. */
json_t *hostshare_json(const struct hostshare *h);

/* summary.txt's lines for it (nothing when not known). */
void hostshare_write_text(const struct hostshare *h, FILE *f);

/* Free the samples. Safe on a zeroed struct. */
void hostshare_free(struct hostshare *h);

#endif
