/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runset.h - the run directories `oltpmark compare` works on.
 *
 * runset_scan() walks the directories it is given, finds every run
 * directory below them (one holding meta.json and summary.json, as
 * run/oltpmark-run lays out RESULTS/LABEL/CONFIG/run-N/), reads the few
 * fields compare needs and decides whether each run is scored. Anything
 * beyond label, config and the metric is optional: an older or foreign
 * summary.json without a steady-state verdict or percentiles is read as
 * "unknown". A directory that cannot be read (broken JSON, half written)
 * is skipped and named in a list for the command to print.
 */
#ifndef OLTPMARK_ANALYSIS_RUNSET_H
#define OLTPMARK_ANALYSIS_RUNSET_H

#include <stdbool.h>
#include <stddef.h>

#include "src/base/err.h"

/* Why a run is not in the score table (RUNSET_SCORED: it is). */
enum runset_exclusion {
	RUNSET_SCORED = 0, /* counts in the scores */
	RUNSET_DIAGNOSTIC, /* diagnostic run: profiles/locks, never scored */
	RUNSET_PARTIAL,	   /* ended early (summary or run.json partial) */
	RUNSET_NOT_STEADY, /* throughput drifted over the window */
	RUNSET_NO_METRIC,  /* the metric is missing or not positive */
	RUNSET_CONNECTIONS_LOST, /* the server went away during the run */
	RUNSET_EXCLUSION_NR	 /* number of values */
};

/*
 * Block numbers read from summary.json are whole numbers below this:
 * 2^24 blocks, a year of 2-s blocks. score.c numbers the blocks of a
 * label's runs apart by the same amount (SCORE_RUN_BLOCKS).
 */
#define RUNSET_BLOCK_LIMIT 16777216.0

/* One block of a block run that report marked as used (docs/blocks.md). */
struct runset_block {
	size_t block; /* block number in its run, < RUNSET_BLOCK_LIMIT */
	bool arm_b;   /* arm B (the variant applied), else A */
	double notpm; /* NOTPM of its measured window, > 0 */
	double steal; /* steal share of the window, 0..1, NAN unknown */
};

/* One run directory that was read. Strings are owned by the runset. */
struct runset_run {
	char *dir;		/* path as found below a DIR argument */
	char *label;		/* meta.json label */
	char *config;		/* meta.json config */
	char *driver;		/* meta.json driver; "pgsql" when absent */
	char *start;		/* meta.json start as written, NULL if none */
	double start_epoch_s;	/* start as epoch seconds, NAN if unknown */
	double ramp_up_s;	/* configured ramp-up, NAN if unknown */
	double measured_s;	/* summary.json measured_s, NAN if unknown */
	double window_start_s;	/* measured window, seconds after start; */
	double window_end_s;	/* NAN if unknown (ramp-up .. + measured) */
	double metric;		/* the --metric value, NAN if missing */
	double notpm;		/* summary.json notpm, NAN if missing */
	double no_p90_ms;	/* New-Order 90th percentile, NAN if unknown */
	double no_mean_ms;	/* New-Order mean response, NAN if unknown */
	bool diagnostic;	/* meta.json or summary.json says so */
	bool partial;		/* summary.json or run.json says partial */
	int steady;		/* 1 steady, 0 not steady, -1 unknown */
	int noncached_enforced; /* notes.noncached_enforced: 1, 0, -1 absent */
	double steal_pct;	/* summary.json host.steal_pct over the
				   window, NAN when unknown */
	bool block_run;		/* summary.json has "blocks": a block run,
				   scored by its blocks, not as a whole */
	double block_s;		/* its planned block length, NAN unknown */
	struct runset_block *blocks;	 /* its used blocks (owned) */
	size_t nblocks;			 /* entries in blocks */
	enum runset_exclusion exclusion; /* RUNSET_SCORED or why not */
};

/* A directory skipped, or a remark about one, with the reason. */
struct runset_problem {
	char *dir;    /* the directory */
	char *reason; /* one line, no trailing newline */
};

/* Every run found below the DIR arguments. runset_free() releases it. */
struct runset {
	struct runset_run *runs;	/* sorted: label, config, start, dir */
	size_t nruns;			/* entries in runs */
	size_t cap;			/* allocated entries of runs */
	struct runset_problem *broken;	/* skipped directories */
	size_t nbroken;			/* entries in broken */
	struct runset_problem *remarks; /* read, but something was ignored */
	size_t nremarks;		/* entries in remarks */
	char *metric;			/* summary.json key scored ("notpm") */
	bool simulated; /* the runs are the iosim driver's: their
					   NOTPM is simulated NOTPM */
};

/*
 * Find and read the run directories below dirs[0..ndirs-1] (each may be a
 * run directory itself), scoring summary.json's number named metric
 * ("notpm", "tpm_total"). Hidden entries (".clusters") are not entered;
 * symbolic links are followed, each directory is visited once. Broken run
 * directories go to rs->broken, never to the return code. Returns 0 (even
 * with no runs), -ENOENT/-ENOTDIR/-EACCES when a DIR argument cannot be
 * walked, or -ENOMEM; err says which. rs is overwritten; free it with
 * runset_free() whatever the result.
 */
int runset_scan(struct runset *rs, const char *const *dirs, size_t ndirs,
		const char *metric, struct err *err);

/* Release everything rs owns and zero it. Safe on a zeroed runset. */
void runset_free(struct runset *rs);

/* One line saying why a run is not scored ("" for RUNSET_SCORED). */
const char *runset_exclusion_reason(enum runset_exclusion why);

/*
 * The distinct labels (sorted by strcmp) or configurations (cached, then
 * noncached, then the others sorted) of the runs read, as a new array of
 * pointers into rs (the caller frees the array only). *n gets the count.
 * NULL with *n = 0 when there are none or memory ran out (*n is then
 * SIZE_MAX).
 */
const char **runset_labels(const struct runset *rs, size_t *n);
const char **runset_configs(const struct runset *rs, size_t *n);

/* "Cached", "Non-cached", or the name itself for other configurations. */
const char *runset_config_title(const char *config);

#endif
