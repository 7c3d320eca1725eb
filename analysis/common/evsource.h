/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evsource.h - the evidence sources: one row per hook that ships with
 * oltpmark (its name, group, Debian package, the files it leaves in
 * sys/, its title in report.html). The rows are run/hooks.tsv, embedded
 * into the binary at build time, so run/hooks/run-all (which reads the
 * file) and report and compare (which read this) share one list: adding
 * a hook is one row there. What report or compare does with a source's
 * files beyond showing them is their own table, keyed by the hook name.
 */
#ifndef OLTPMARK_ANALYSIS_EVSOURCE_H
#define OLTPMARK_ANALYSIS_EVSOURCE_H

#include <stdbool.h>
#include <stddef.h>

#define EVSOURCE_FILES_MAX 4 /* files one row may name */

/* One hook. Strings point into the parsed table; never freed. */
struct evsource {
	const char *hook;    /* run/hooks/NAME; NAME.skipped, NAME.err */
	bool diagnostic;     /* group diagnostic, else cheap */
	const char *package; /* Debian package, "-" for none */
	/* files it leaves in sys/: any present, it ran; NULL-terminated */
	const char *files[EVSOURCE_FILES_MAX + 1];
	const char *title; /* its part of report.html, NULL: none */
};

/* run/hooks.tsv as it was at build time (written by the Makefile). */
extern const char evsource_tsv[];

/*
 * The rows of evsource_tsv, in its order, *n of them. The table is
 * parsed on the first call (not thread-safe then; analysis runs on one
 * thread). A malformed row is left out; evsource_bad_rows() counts them
 * (the unit test asks for none).
 */
const struct evsource *evsource_table(size_t *n);

/* The row of hook, or NULL. */
const struct evsource *evsource_find(const char *hook);

/* Whether hook's row names file (a name below sys/). */
bool evsource_has_file(const struct evsource *s, const char *file);

/* Rows of evsource_tsv that could not be read. */
size_t evsource_bad_rows(void);

#endif
