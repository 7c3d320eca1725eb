/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_files.h - the files that stand in for the database's relations:
 * one per relation of the I/O profile in the data directory, named after
 * it ("DIR/stock", "DIR/stock_pkey"), as big as the relation was at
 * calibration, filled with data so that the file system has allocated
 * every block (a hole or an unwritten extent would be read without
 * touching the device). Opened with O_DIRECT for the non-cached
 * configuration, so that every read reaches the device as PostgreSQL's
 * misses did, or buffered for the cached one.
 *
 * Preparing checks the directory first (read-only, not writable, not
 * enough free space) so that a bad directory gives one clear line before
 * anything is written.
 *
 * A profile of the table layout (its relations spread over tablespace
 * directories, docs/layout.md) can be prepared over as many data
 * directories, one per directory of the calibration: each relation's
 * file goes to the directory of its tablespace, and the first directory
 * holds a link to it under the relation's name, as PostgreSQL's
 * pg_tblspc links to its tablespaces. Opening the first directory then
 * opens every file where it is.
 */
#ifndef OLTPMARK_IOSIM_FILES_H
#define OLTPMARK_IOSIM_FILES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/iosim_profile.h"
#include "src/base/err.h"

#define IOSIM_FILES_ALIGN      4096	 /* O_DIRECT buffer alignment */
#define IOSIM_FILES_FILL_BYTES (1 << 20) /* one write while filling */
#define IOSIM_FILES_DIRS_MAX \
	32 /* data directories, as the loader's
					    tablespace directories */

/* The open relation files of one data directory. */
struct iosim_files {
	int fd[IOSIM_PROFILE_REL_NR];	      /* -1 when not open */
	uint64_t pages[IOSIM_PROFILE_REL_NR]; /* pages the profile uses */
	bool direct;			      /* opened with O_DIRECT */
	char dir[PATH_MAX];		      /* the data directory */
};

/*
 * The file of rel in dir into buf (size bytes). 0, or -ENAMETOOLONG.
 */
int iosim_files_path(const char *dir, enum iosim_profile_rel rel, char *buf,
		     size_t size);

/*
 * Whether the directory dir can take need_bytes more: 0, -EROFS for a
 * read-only file system, -EACCES when dir cannot be written, -ENOSPC
 * when fewer bytes are free (for an unprivileged user), each with err
 * naming dir and, for space, both figures in MiB. A file system that
 * reports no size (ramfs) passes the space check.
 */
int iosim_files_check_space(const char *dir, uint64_t need_bytes,
			    struct err *err);

/*
 * Make dir hold the files of prof: create dir when missing (not its
 * parents), then create every file that is missing and extend every
 * file smaller than the profile's relation, writing non-zero data in
 * large writes and syncing each file. Files big enough are not touched,
 * so a second call costs a stat per file. Space is checked first for
 * what is missing plus extra_bytes (room the caller will need too, such
 * as the WAL ring). Returns 0 or a negative errno with err set: those of
 * iosim_files_check_space(), -ENOTDIR, -ENOENT for a missing parent, or
 * the errno of a failing write (-ENOSPC, -EIO).
 */
int iosim_files_prepare(const char *dir, const struct iosim_profile *prof,
			uint64_t extra_bytes, struct err *err);

/*
 * iosim_files_prepare() over ndirs directories (1 to
 * IOSIM_FILES_DIRS_MAX): with one, as iosim_files_prepare(dirs[0]);
 * with several, which only a table-layout profile of as many directories
 * takes, each relation's file in dirs[its placement] (dirs[0] when the
 * profile does not place it) and, for those not in dirs[0], a link to
 * it (an absolute path) in dirs[0] under its name. Space is checked per
 * directory, extra_bytes in dirs[0]. Also -EINVAL for a number of
 * directories the profile's layout does not take (the warehouse layout
 * splits relations by warehouse, which iosim does not), and -EEXIST for
 * a name of dirs[0] that is a file where a link should be, a link to
 * elsewhere, or a link where a file should be: nothing is replaced.
 */
int iosim_files_prepare_dirs(const char *const *dirs, int ndirs,
			     const struct iosim_profile *prof,
			     uint64_t extra_bytes, struct err *err);

/*
 * Which of ndirs data directories rel's file is in: its placement when
 * there are several and the profile places it, else 0.
 */
int iosim_files_dir_of(const struct iosim_profile *prof, int ndirs,
		       enum iosim_profile_rel rel);

/*
 * Write non-zero bytes into fd from offset from to offset to, as
 * iosim_files_prepare() fills a file (no two pages alike, so neither
 * compression nor deduplication below the file system can shrink it),
 * then fsync. path names the file in messages. 0 or negative errno.
 */
int iosim_files_fill(int fd, uint64_t from, uint64_t to, const char *path,
		     struct err *err);

/*
 * Open the files of prof in dir for reading and writing, with O_DIRECT
 * when direct. Every file must exist and hold the profile's pages.
 * Returns 0, or a negative errno with err set and nothing left open:
 * -ENOENT (a file is missing: the directory was not prepared), -ERANGE
 * (a file is smaller than the profile's relation: prepared for a smaller
 * profile, such as fewer warehouses), -EINVAL when the file system
 * refuses O_DIRECT (tested by opening and reading one page).
 */
int iosim_files_open(struct iosim_files *f, const char *dir,
		     const struct iosim_profile *prof, bool direct,
		     struct err *err);

/*
 * Read 8 KiB page of rel into buf (IOSIM_FILES_ALIGN-aligned when
 * direct). One synchronous pread. Returns 0, -ERANGE for a page past the
 * profile's, -EIO for a short read, or -errno; err (may be NULL) is set
 * only on failure. Thread-safe.
 */
int iosim_files_read(const struct iosim_files *f, enum iosim_profile_rel rel,
		     uint64_t page, void *buf, struct err *err);

/*
 * A buffer of bytes aligned for O_DIRECT (free() it), or NULL when out
 * of memory.
 */
void *iosim_files_alloc(size_t bytes);

/* Close every file. Safe after a failed iosim_files_open() and twice. */
void iosim_files_close(struct iosim_files *f);

#endif
