/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_evidence.h - what `oltpmark compare` shows beside the scores:
 * the contest-style table (mean NOTPM, New-Order p90, CPU and I/O wait
 * from vmstat over the measured window, response-time ratio to the
 * baseline, and the host probe timed before and after each run), the
 * representative run of each label for the side-by-side plots, and the
 * kernel profile and lock contention tables of the diagnostic runs, each
 * label against the baseline.
 *
 * Missing evidence is unknown, never an error: a run without sys/vmstat.txt
 * has no CPU figure, a label without a profile has no profile table. A
 * file that is there but cannot be parsed is named in the remarks.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_EVIDENCE_H
#define OLTPMARK_ANALYSIS_COMPARE_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/compare/compare_devices.h"
#include "analysis/compare/compare_kcost.h"
#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "src/base/err.h"

/* Symbols shown per label in a profile table, locks in a lock table. */
#define CEV_TOP_SYMBOLS 10
#define CEV_TOP_LOCKS	10

/*
 * A host probe during which other work used more than this share of the
 * machine's CPUs timed the machine's load, not the host: not counted.
 * Measured on 2 vCPUs: 0.3-4 % before a run; 12-40 % in the probe just
 * after one (the server's checkpoint and autovacuum), with the CPU probe
 * up to 38 % slower at 20 %.
 */
#define CEV_PROBE_BUSY_MAX_PCT 10.0

/* One label in one configuration of the contest table. NAN: unknown. */
struct cev_contest {
	size_t runs;	    /* scored runs */
	double notpm;	    /* mean NOTPM of those runs */
	double no_p90_ms;   /* mean New-Order 90th percentile response */
	double no_mean_ms;  /* mean of the runs' New-Order mean response */
	double cpu_pct;	    /* mean of the runs' vmstat us+sy means */
	double iowait_pct;  /* mean of the runs' vmstat wa means */
	size_t vmstat_runs; /* runs whose vmstat gave cpu_pct */
	double ratio;	    /* no_mean_ms / the baseline's no_mean_ms */
	long rep_run;	    /* index in runs[] of the median run, -1 none */
	/* The host probe (sys/hostprobe.{start,stop}.json): a run's figure
	 * is the mean of its two probes, or the one it has; below, means
	 * over the runs and CoV (sd / mean, a fraction) across them. */
	size_t probe_runs;	   /* scored runs with a readable probe */
	double host_cpu_ns;	   /* CPU chain, ns per step */
	double host_cpu_cov;	   /* its CoV; NAN with fewer than 2 runs */
	double host_mem_ns;	   /* pointer chase, ns per load */
	double host_mem_cov;	   /* its CoV */
	double host_fsync_ms;	   /* median 8 KiB write + fdatasync, ms */
	double host_fsync_cov;	   /* its CoV */
	double host_cpu_vs_base;   /* 100 x host_cpu_ns / the baseline's */
	double host_mem_vs_base;   /* 100 x host_mem_ns / the baseline's */
	double host_fsync_vs_base; /* 100 x host_fsync_ms / the baseline's */
};

/* Where a profile or lock table comes from. */
enum cev_source {
	CEV_READPROFILE, /* sys/readprofile.txt */
	CEV_PERF,	 /* sys/perf-report.txt (perf report --stdio) */
	CEV_LOCK_STAT,	 /* sys/lock_stat.txt (/proc/lock_stat) */
	CEV_PERF_LOCK,	 /* sys/perf-lock.txt (perf lock contention) */
	CEV_SOURCE_NR	 /* number of sources */
};

/* One function's share of a profile. */
struct cev_symbol {
	char *name; /* normalised (clone suffixes stripped) */
	double pct; /* % of the profile's total, averaged over runs */
};

/* The profile of one label in one configuration from one source. */
struct cev_profile {
	const char *label;	 /* points into the runset */
	const char *config;	 /* points into the runset */
	enum cev_source source;	 /* CEV_READPROFILE or CEV_PERF */
	size_t runs;		 /* runs averaged */
	struct cev_symbol *syms; /* every symbol, by pct, most first */
	size_t nsyms;		 /* entries in syms */
};

/*
 * One lock class's contention (lock_stat), or one caller's: perf lock
 * names the function that waited, not the lock.
 */
struct cev_lock {
	/* lock_stat: class name ("shost->host_lock", "-W"/"-R" for rw
	 * sides); perf lock: the caller without offset and clone suffixes
	 * ("scsi_queue_rq"), its rows added up */
	char *name;
	/* lock_stat: SCSI host or block-layer queue lock; perf lock: a
	 * storage-path caller (parse_perflock_is_storage_caller()) */
	bool storage;
	double contentions;   /* mean over runs */
	double wait_total_us; /* total wait time, mean over runs */
	double acquisitions;  /* mean over runs, NAN when not known */
};

/* The lock table of one label in one configuration from one source. */
struct cev_locks {
	const char *label;	/* points into the runset */
	const char *config;	/* points into the runset */
	enum cev_source source; /* CEV_LOCK_STAT or CEV_PERF_LOCK */
	size_t runs;		/* runs averaged */
	struct cev_lock *locks; /* storage locks first, then by contentions */
	size_t nlocks;		/* entries in locks */
};

/* Everything beside the scores. compare_evidence_free() releases it. */
struct cev {
	struct cev_contest *contest;	/* [label * nconfigs + config] */
	size_t nlabels, nconfigs;	/* shape of contest (the table's) */
	struct cev_profile *profiles;	/* sorted: config, source, label */
	size_t nprofiles;		/* entries in profiles */
	struct cev_locks *locks;	/* sorted: config, source, label */
	size_t nlocks;			/* entries in locks */
	struct cdevices devices;	/* the devices under the database */
	struct ckcost kcost;		/* the kernel-cost hook per type */
	struct runset_problem *remarks; /* evidence files that were ignored */
	size_t nremarks;		/* entries in remarks */
};

/*
 * Build the contest table, representative runs, profile and lock tables
 * for the runs of rs, shaped like t (same labels, configs, baseline).
 * Reads sys/ files of the runs. Profiles and locks come from every run
 * that has the files (diagnostic runs mostly), never from partial runs.
 * 0 or -ENOMEM; ev is overwritten, free it with compare_evidence_free()
 * either way.
 */
int compare_evidence_build(struct cev *ev, const struct runset *rs,
			   const struct score_table *t, struct err *err);

/* The contest cell of row label, column config. */
const struct cev_contest *
compare_evidence_contest_at(const struct cev *ev, size_t label, size_t config);

/* The profile / lock table of a label, config and source, or NULL. */
const struct cev_profile *compare_evidence_profile_find(const struct cev *ev,
							const char *label,
							const char *config,
							enum cev_source source);
const struct cev_locks *compare_evidence_locks_find(const struct cev *ev,
						    const char *label,
						    const char *config,
						    enum cev_source source);

/* The share of symbol name in p, 0 when it is not there. */
double compare_evidence_profile_pct(const struct cev_profile *p,
				    const char *name);

/* The lock named name in l, or NULL. */
const struct cev_lock *compare_evidence_lock_find(const struct cev_locks *l,
						  const char *name);

/* "readprofile", "perf", "lock_stat", "perf lock". */
const char *compare_evidence_source_name(enum cev_source source);

/* The file below a run directory a source reads ("sys/lock_stat.txt"). */
const char *compare_evidence_source_file(enum cev_source source);

/*
 * Whether every source's file is a file of its hook in run/hooks.tsv
 * (analysis/common/evsource.h): 0, or -EINVAL with err naming the first
 * that is not (the unit test's check).
 */
int compare_evidence_sources_check(struct err *err);

/* Whether a source gives lock tables (struct cev_locks), not profiles. */
bool compare_evidence_source_is_lock(enum cev_source source);

/*
 * The vmstat samples of a whole run, for the plots: *x gets seconds since
 * the run's start (meta.json start; since vmstat's first sample, at one
 * sample a second, when vmstat had no timestamps or the start is
 * unknown) and *y the values of column key ("r", "in", "cs", "bi", "bo",
 * "wa", or "us+sy"), both new arrays the caller frees. Returns the number
 * of points (0, with NULL arrays, when there is no readable vmstat or no
 * such column) or -ENOMEM. *since_start tells which x it is.
 */
long compare_evidence_vmstat_points(const struct runset_run *run,
				    const char *key, double **x, double **y,
				    bool *since_start);

/* Release everything and zero ev. Safe on a zeroed struct. */
void compare_evidence_free(struct cev *ev);

/*
 * For the files of this module (compare_evidence.c and
 * compare_evidence_tables.c), not for its users.
 */

/* Add a remark about the run in dir (printf format): 0 or -ENOMEM. */
int compare_evidence_remark(struct cev *ev, const char *dir, const char *fmt,
			    ...) __attribute__((format(printf, 3, 4)));

/* Whether run->dir/name is a regular file. */
bool compare_evidence_run_has_file(const struct runset_run *run,
				   const char *name);

/*
 * Open run->dir/name for reading. NULL with err set when it cannot be.
 * The parsers then get the stream, so their messages do not repeat the
 * path that the remark already names.
 */
FILE *compare_evidence_open_sys(const struct runset_run *run, const char *name,
				struct err *err);

/*
 * Add the profile or lock table of one label, config and source to ev,
 * from the usable runs that have the source's file; none when no run
 * gave data. 0, or -ENOMEM.
 */
int compare_evidence_build_table(struct cev *ev, const struct runset *rs,
				 const char *label, const char *config,
				 enum cev_source source);

#endif
