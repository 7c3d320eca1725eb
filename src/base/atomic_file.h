/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file.h - the one way oltpmark writes a result file: into
 * NAME.tmp in the same directory, synced, then renamed to NAME. A reader
 * (report, compare, a script) therefore sees either the old file, no
 * file, or the whole new one, never half of it; and a file that exists
 * after a crash of the machine (a kernel under test may panic) is whole.
 *
 * On any failure the temporary is removed and nothing appears under the
 * final name (an older file there is left as it was); the error names the
 * file and says what errno the system gave (ENOSPC, EACCES, ...).
 *
 * Two writers of the same NAME at the same time are not supported: they
 * share NAME.tmp. A NAME.tmp left by a crash is replaced.
 */
#ifndef OLTPMARK_ATOMIC_FILE_H
#define OLTPMARK_ATOMIC_FILE_H

#include <limits.h>
#include <stdio.h>

#include "src/base/err.h"

/* One file being written. Must stay at the same address while open. */
struct atomic_file {
	int fd;		     /* the temporary, -1 when closed */
	FILE *f;	     /* buffered stream on fd; NULL when closed */
	int error;	     /* first errno a write through f met, 0 if none */
	char path[PATH_MAX]; /* the final name */
	char tmp[PATH_MAX];  /* path with ".tmp" appended */
};

/*
 * Create path.tmp (replacing a stale one) for writing. Write through
 * af->f (buffered) or af->fd (raw write(2), as mix.csv's workers do), not
 * both. Returns 0, or negative errno with err set ("cannot create
 * PATH.tmp: REASON"); then there is nothing to close.
 */
int atomic_file_open(struct atomic_file *af, const char *path, struct err *err);

/*
 * End the file. rc is the caller's result so far: when it is 0, flush
 * af->f, fsync the temporary, close it and rename it to the final name
 * (then sync the directory, best effort); when it is negative (err
 * already says why), or when any of those steps fails, remove the
 * temporary instead. A write error af->f met earlier is reported in
 * place of the caller's message, as it is the cause. Returns 0, or the
 * negative errno (rc itself when rc < 0 and the stream saw no error).
 * af is closed either way.
 */
int atomic_file_close(struct atomic_file *af, int rc, struct err *err);

/* Close and remove the temporary (nothing to keep). Safe when closed. */
void atomic_file_abort(struct atomic_file *af);

#endif
