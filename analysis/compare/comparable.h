/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * comparable.h - whether the runs `oltpmark compare` scores may be
 * compared, from the fingerprint each run's meta.json records
 * (src/base/fingerprint.h, docs/formats.md), and what the reader is told
 * about them: the treatment keys that differ between each label and the
 * baseline, and the provenance of the table (workload, server, machine,
 * dates, runs per cell, design, oltpmark version).
 *
 * The rules (docs/compare.md, "Comparability"): within one
 * configuration, every workload and environment key is equal across the
 * scored whole runs; within one label, every treatment key is equal
 * across its scored runs; a label's block runs, scored inside themselves
 * (B over A), are checked within their cell (label and configuration) on
 * every workload and environment key instead. A key named by --allow-differ is exempt from all three, and
 * the output says which allowed keys did differ. Runs without a
 * fingerprint (written before it existed) are not checked, and counted.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARABLE_H
#define OLTPMARK_ANALYSIS_COMPARABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "src/base/err.h"

/* One key that differs: between two runs, or a label and the baseline. */
struct cmp_diff {
	char *group; /* "workload", "treatment", "environment" */
	char *key;   /* the key */
	char *a, *b; /* its two values ("(absent)" when one has none) */
	char *label; /* the label it concerns (treatment differences) */
};

/* A figure of the provenance, as text ("" when unknown). */
struct cmp_fact {
	const char *name; /* "workload", "postgresql", ... (static) */
	char *text;	  /* what it says */
};

/* Everything compare says about comparability. */
struct comparable {
	char *refusal;		   /* one line when the runs may not be
				       compared, else NULL */
	struct cmp_diff *allowed;  /* keys that differed, allowed */
	size_t nallowed;	   /* entries in allowed */
	size_t nchecked;	   /* scored runs with a fingerprint */
	size_t nold;		   /* scored runs without one */
	struct cmp_diff *differs;  /* treatment of a label vs baseline,
				       ordered by label row then key */
	size_t ndiffers;	   /* entries in differs */
	bool *label_known;	   /* per score row: the label and the
				       baseline both have a fingerprint */
	size_t nlabels;		   /* entries in label_known */
	struct cmp_fact facts[12]; /* provenance */
	size_t nfacts;		   /* entries in facts */
};

/*
 * Read the fingerprints of rs's scored runs and check them. allow: the
 * --allow-differ keys (nallow of them). A failed check is not an error:
 * cp->refusal says why. 0, or -ENOMEM / -EIO with err set. cp is
 * overwritten; free it with comparable_free() whatever the result.
 */
int comparable_check(struct comparable *cp, const struct runset *rs,
		     const char *const *allow, size_t nallow, struct err *err);

/*
 * After scoring: the treatment keys that differ between each label of t
 * and its baseline, and the provenance (command: the command line that
 * reproduces the table). 0 or -ENOMEM.
 */
int comparable_describe(struct comparable *cp, const struct runset *rs,
			const struct score_table *t, const char *command);

/* Release everything cp owns and zero it. */
void comparable_free(struct comparable *cp);

/* The sentence for a label whose treatment has no recorded difference. */
extern const char comparable_no_difference[];

#endif
