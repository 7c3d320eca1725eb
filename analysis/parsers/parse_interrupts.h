/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_interrupts.h - reader for /proc/interrupts snapshots (the
 * interrupts hook saves one at start and one at stop) and the deltas
 * between two of them.
 *
 * The CPU columns come from the header (one per online CPU, so "CPU0
 * CPU2" after a hotplug). Device IRQ lines ("36: ... virtio1-req.0") are
 * keyed by their action name, because IRQ numbers differ between kernels
 * and boots; architecture lines (NMI, LOC, RES, CAL, TLB, ...) by their
 * label. The counts are counters: compare the deltas over the window.
 */
#ifndef OLTPMARK_ANALYSIS_PARSE_INTERRUPTS_H
#define OLTPMARK_ANALYSIS_PARSE_INTERRUPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/base/err.h"

/* One line of /proc/interrupts. */
struct irq_line {
	char *label; /* text before ':' ("36", "LOC") */
	/* Key: the action(s) of a device IRQ ("virtio1-req.0", "ehci_hcd:usb1,
	 * ahci"), else the label ("LOC"). */
	char *name;
	char *desc;	  /* all text after the counts, trimmed */
	bool is_device;	  /* label is an IRQ number */
	bool per_cpu;	  /* one count per CPU (ERR and MIS have one) */
	uint64_t *counts; /* ncpu counts when per_cpu, else NULL */
	uint64_t total;	  /* sum over CPUs, or the single count */
};

/*
 * One snapshot. Owns its arrays: parse_interrupts_free() releases them.
 * Zeroed (and safe to free) after a failed parse.
 */
struct irq_snapshot {
	size_t ncpu;		/* CPU columns in the header */
	int *cpus;		/* their numbers, header order (CPU0 -> 0) */
	size_t nlines;		/* lines in lines[] */
	size_t cap;		/* lines allocated */
	struct irq_line *lines; /* in file order */
	size_t bad_lines;	/* lines skipped as unparsable or cut */
};

/* What one interrupt source counted between two snapshots. */
struct irq_delta_entry {
	char *name;	  /* action name or label (see irq_line.name) */
	bool is_device;	  /* a device IRQ (keyed by action) */
	bool per_cpu;	  /* counts holds per-CPU deltas */
	uint64_t *counts; /* ncpu deltas when per_cpu, else NULL */
	uint64_t total;	  /* delta summed over CPUs */
	size_t lines;	  /* snapshot lines merged into this entry */
};

/*
 * Deltas between two snapshots. Owns its arrays:
 * parse_interrupts_delta_free().
 */
struct irq_delta {
	size_t ncpu;			 /* CPU columns, as in both snapshots */
	int *cpus;			 /* their numbers */
	size_t n;			 /* entries in entries[] */
	struct irq_delta_entry *entries; /* one per name, first-seen order */
	/* Lines only in the later snapshot, counted from zero (an IRQ
	 * requested in the window). */
	size_t new_lines;
	size_t gone_lines; /* lines only in the earlier one (ignored) */
	size_t wraps;	   /* 32-bit counters that wrapped (handled) */
	size_t resets;	   /* counters that went back (later value used) */
};

/*
 * Parse one /proc/interrupts snapshot from f. The CPU header must come
 * before the count lines. A count line has a label, then one count per
 * CPU (or a single count and nothing else, as ERR: and MIS: have), then
 * a description; for a device IRQ the action name is the text after the
 * last run of two or more blanks (the kernel separates it so). Lines
 * that fit no rule and a last line without its newline are counted in
 * bad_lines. Returns 0 with at least one line; -ENODATA for empty input
 * or a header alone; -EINVAL when there is no CPU header; -ENOMEM, -EIO.
 */
int parse_interrupts(FILE *f, struct irq_snapshot *out, struct err *err);

/* parse_interrupts() on the file at path; messages start with the path. */
int parse_interrupts_file(const char *path, struct irq_snapshot *out,
			  struct err *err);

/* Release a snapshot and zero it. Safe on a zeroed struct. */
void parse_interrupts_free(struct irq_snapshot *s);

/*
 * Deltas from before to after into out (overwritten). Lines are matched
 * by label and name; entries with the same name are summed (an action on
 * several IRQ lines, or one IRQ line per queue sharing a name). A count
 * lower than before is taken as a wrap of the kernel's 32-bit counter
 * when both values fit in 32 bits, else as a reset (the later value is
 * used). Returns 0, -EINVAL when the CPU columns differ (hotplug in the
 * window), or -ENOMEM.
 */
int parse_interrupts_delta(const struct irq_snapshot *before,
			   const struct irq_snapshot *after,
			   struct irq_delta *out, struct err *err);

/* Release a delta and zero it. Safe on a zeroed struct. */
void parse_interrupts_delta_free(struct irq_delta *d);

/* Sort entries by total, largest first (ties by name). */
void parse_interrupts_delta_sort(struct irq_delta *d);

/* The entry named name, or NULL. */
const struct irq_delta_entry *
parse_interrupts_delta_find(const struct irq_delta *d, const char *name);

#endif
