/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagelink.h - the links between oltpmark's pages: compare.html's score
 * cells link the report.html of each run they were computed from, and a
 * run's report.html links back to the compare page of its results. Both
 * are files on a disk, opened with file:// or from a directory served
 * as is, so a link is a relative path when one can be made (the pages
 * keep working when the results directory is moved or copied whole),
 * else an absolute file path; either is percent-encoded for the href.
 */
#ifndef OLTPMARK_ANALYSIS_PAGELINK_H
#define OLTPMARK_ANALYSIS_PAGELINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How many directories above a run report looks for compare.html:
 * run/oltpmark-run puts it in RESULTS, the runs in
 * RESULTS/LABEL/CONFIG/run-N. */
#define PAGELINK_UP_MAX 3

/*
 * The relative path from directory from_abs to path to_abs, both
 * absolute and normalized (no "." or ".." parts, no doubled '/'), into
 * out: "../../x/report.html". 0, or -EINVAL when either is not
 * absolute, -ENAMETOOLONG when out is too small. Pure: touches no file.
 */
int pagelink_relative(const char *from_abs, const char *to_abs, char *out,
		      size_t size);

/*
 * The link from a page in directory from_dir to the file to_path (either
 * may be relative to the working directory; to_path need not exist yet,
 * but its directory must): relative when both directories resolve
 * (realpath), else to_path made absolute. Returns true when the link is
 * relative, false when it is absolute; out is "" when not even that
 * could be made (the path does not fit).
 */
bool pagelink_make(const char *from_dir, const char *to_path, char *out,
		   size_t size);

/*
 * Write path for an href="..." attribute: bytes other than letters,
 * digits and - . _ ~ / percent-encoded (a space as %20), which also
 * leaves nothing to escape for HTML.
 */
void pagelink_href(FILE *f, const char *path);

/* The same for the first len bytes of path. */
void pagelink_href_len(FILE *f, const char *path, size_t len);

/*
 * Look for a file named name in the directories above dir, nearest
 * first, at most up levels: the first found goes into out as a link
 * from dir (pagelink_make()). true when one was found.
 */
bool pagelink_find_up(const char *dir, const char *name, int up, char *out,
		      size_t size);

#endif
