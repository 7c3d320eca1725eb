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
