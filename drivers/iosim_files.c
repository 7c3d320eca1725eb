/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_files.c - creating, checking and opening the relation files of
 * the iosim driver (iosim_files.h).
 */
#include "drivers/iosim_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "src/base/fdio.h"
#include "src/base/rng.h"

#define IOSIM_FILES_MIB (1024.0 * 1024.0)

int iosim_files_path(const char *dir, enum iosim_profile_rel rel, char *buf,
		     size_t size)
{
	const char *name = iosim_profile_rel_name(rel);
	size_t dlen = strlen(dir), nlen;

	if (!name)
		return -EINVAL;
	nlen = strlen(name);
	if (dlen + 1 + nlen >= size)
		return -ENAMETOOLONG;
	memcpy(buf, dir, dlen);
	buf[dlen] = '/';
	memcpy(buf + dlen + 1, name, nlen + 1);
	return 0;
}

int iosim_files_check_space(const char *dir, uint64_t need_bytes,
			    struct err *err)
{
	struct statvfs vfs;
	uint64_t avail;
	int rc;

	if (statvfs(dir, &vfs) < 0) {
		rc = -errno;
		return err_set(err, rc, "%s: %s", dir, strerror(-rc));
	}
	if (vfs.f_flag & ST_RDONLY)
		return err_set(err, -EROFS, "%s: read-only file system", dir);
	if (access(dir, W_OK) < 0) {
		rc = -errno;
		return err_set(err, rc, "%s: cannot write: %s", dir,
			       strerror(-rc));
	}
	/* ramfs and some FUSE file systems report no size at all: then
	 * there is nothing to check against, and a write will tell */
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (vfs.f_blocks > 0 && need_bytes > avail)
		return err_set(err, -ENOSPC,
			       "%s: the iosim files need %.0f MiB more, the "
			       "file system has %.0f MiB free",
			       dir, (double)need_bytes / IOSIM_FILES_MIB,
			       (double)avail / IOSIM_FILES_MIB);
	return 0;
}

void *iosim_files_alloc(size_t bytes)
{
	void *p;

	if (posix_memalign(&p, IOSIM_FILES_ALIGN, bytes) != 0)
		return NULL;
	return p;
}

int iosim_files_fill(int fd, uint64_t from, uint64_t to, const char *path,
		     struct err *err)
{
	const size_t page = IOSIM_PROFILE_PAGE_BYTES;
	struct rng rng;
	uint64_t *words, off, n, p;
	char *buf;
	size_t i;
	int rc = 0;

	buf = iosim_files_alloc(IOSIM_FILES_FILL_BYTES);
	if (!buf)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	/* random bytes: incompressible, and never a page of zeros */
	rng_seed(&rng, 0x105, (uint64_t)fd);
	words = (uint64_t *)buf;
	for (i = 0; i < IOSIM_FILES_FILL_BYTES / sizeof(uint64_t); i++)
		words[i] = rng_next(&rng) | 1;
	for (off = from; off < to; off += n) {
		n = to - off;
		if (n > IOSIM_FILES_FILL_BYTES)
			n = IOSIM_FILES_FILL_BYTES;
		/* each page starts with its own offset, so none repeats */
		for (p = 0; p < n; p += page)
			memcpy(buf + p, &(uint64_t){off + p + 1},
			       sizeof(uint64_t));
		rc = fdio_pwrite_all(fd, buf, (size_t)n, (off_t)off);
		if (rc < 0) {
			err_set(err, rc, "cannot write %s: %s", path,
				strerror(-rc));
			break;
		}
	}
	free(buf);
	if (rc == 0 && fsync(fd) < 0) {
		rc = -errno;
		err_set(err, rc, "cannot sync %s: %s", path, strerror(-rc));
	}
	return rc;
}

/* Create dir unless it is there; its parent must exist. */
static int iosim_files_mkdir(const char *dir, struct err *err)
{
	struct stat st;
	int rc;

	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return err_set(err, -ENOTDIR, "%s: not a directory",
				       dir);
		return 0;
	}
	if (errno != ENOENT || mkdir(dir, 0700) < 0) {
		rc = -errno;
		if (rc == -EROFS)
			return err_set(err, rc,
				       "cannot create %s: read-only "
				       "file system",
				       dir);
		return err_set(err, rc, "cannot create %s: %s", dir,
			       strerror(-rc));
	}
	return 0;
}

/* The bytes a file holds: its size, 0 when missing. */
static int iosim_files_size(const char *path, uint64_t *bytes, struct err *err)
{
	struct stat st;
	int rc;

	*bytes = 0;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return err_set(err, -EINVAL, "%s: not a regular file",
				       path);
		*bytes = (uint64_t)st.st_size;
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	rc = -errno;
	return err_set(err, rc, "%s: %s", path, strerror(-rc));
}

int iosim_files_dir_of(const struct iosim_profile *prof, int ndirs,
		       enum iosim_profile_rel rel)
{
	int k = prof->layout.placement[rel];

	return ndirs > 1 && k >= 0 && k < ndirs ? k : 0;
}

/*
 * Whether ndirs directories can hold prof's layout: one always (every
 * file in it); several only for the table layout, one per directory of
 * the calibration.
 */
static int iosim_files_check_dirs(int ndirs, const struct iosim_profile *prof,
				  struct err *err)
{
	const struct iosim_profile_layout *lay = &prof->layout;

	if (ndirs < 1 || ndirs > IOSIM_FILES_DIRS_MAX)
		return err_set(err, -EINVAL,
			       "%d data directories: 1 to %d can be given",
			       ndirs, IOSIM_FILES_DIRS_MAX);
	if (ndirs == 1)
		return 0;
	if (lay->kind == IOSIM_PROFILE_LAYOUT_WAREHOUSE)
		return err_set(err, -EINVAL,
			       "%d data directories: the profile's layout is "
			       "warehouse, whose relations are split by "
			       "warehouse over %d directories, which iosim "
			       "does not replay: give one data directory",
			       ndirs, lay->directories);
	if (lay->kind != IOSIM_PROFILE_LAYOUT_TABLE ||
	    ndirs != lay->directories)
		return err_set(err, -EINVAL,
			       "%d data directories for a profile of %d: "
			       "give one, or one per directory of the "
			       "calibration, in its order",
			       ndirs, lay->directories);
	return 0;
}

/*
 * Whether the name link of dirs[0] may be used for a file whose place
 * is target: a file of dirs[0] (target NULL) must not be a link there,
 * and one elsewhere must be missing (made later) or already a link to
 * target (an absolute path), as PostgreSQL's pg_tblspc links to its
 * tablespaces. Anything else is refused, never replaced: -EEXIST.
 */
static int iosim_files_check_link(const char *link, const char *target,
				  const char *rel, struct err *err)
{
	char got[PATH_MAX];
	struct stat st;
	ssize_t n;
	int rc;

	if (lstat(link, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		rc = -errno;
		return err_set(err, rc, "%s: %s", link, strerror(-rc));
	}
	if (!target && !S_ISLNK(st.st_mode))
		return 0;
	n = S_ISLNK(st.st_mode) ? readlink(link, got, sizeof(got) - 1) : -1;
	if (target && n >= 0) {
		got[n] = '\0';
		if (strcmp(got, target) == 0)
			return 0;
	}
	return err_set(err, -EEXIST,
		       "%s: already there, but the profile puts %s %s%s: "
		       "prepare into new directories",
		       link, rel, target ? "in " : "in this directory",
		       target ? target : "");
}

/* The absolute paths of the directories, for the links. */
typedef char iosim_files_realdir[PATH_MAX];

int iosim_files_prepare_dirs(const char *const *dirs, int ndirs,
			     const struct iosim_profile *prof,
			     uint64_t extra_bytes, struct err *err)
{
	uint64_t have[IOSIM_PROFILE_REL_NR], need;
	uint64_t missing[IOSIM_FILES_DIRS_MAX] = {0};
	char path[PATH_MAX], link[PATH_MAX];
	iosim_files_realdir *real = NULL;
	struct stat st;
	int r, k, fd, rc;

	rc = iosim_files_check_dirs(ndirs, prof, err);
	if (rc < 0)
		return rc;
	real = calloc((size_t)ndirs, sizeof(*real));
	if (!real)
		return err_set(err, -ENOMEM, "out of memory");
	for (k = 0; k < ndirs; k++) {
		rc = iosim_files_mkdir(dirs[k], err);
		if (rc < 0)
			goto out;
		/* links hold absolute paths: the run may start elsewhere */
		if (ndirs == 1) {
			snprintf(real[k], sizeof(real[k]), "%s", dirs[k]);
		} else if (!realpath(dirs[k], real[k])) {
			rc = -errno;
			err_set(err, rc, "%s: %s", dirs[k], strerror(-rc));
			goto out;
		}
	}
	missing[0] = extra_bytes;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		k = iosim_files_dir_of(prof, ndirs, r);
		if (iosim_files_path(real[k], r, path, sizeof(path)) < 0 ||
		    iosim_files_path(dirs[0], r, link, sizeof(link)) < 0) {
			rc = err_set(err, -ENAMETOOLONG, "%s: path too long",
				     dirs[k]);
			goto out;
		}
		/* everything that would be refused, before anything is
		   written */
		if (ndirs > 1) {
			rc = iosim_files_check_link(link, k ? path : NULL,
						    iosim_profile_rel_name(r),
						    err);
			if (rc < 0)
				goto out;
		}
		rc = iosim_files_size(path, &have[r], err);
		if (rc < 0)
			goto out;
		need = (uint64_t)prof->rel[r].pages * IOSIM_PROFILE_PAGE_BYTES;
		if (have[r] < need)
			missing[k] += need - have[r];
	}
	for (k = 0; k < ndirs; k++) {
		rc = iosim_files_check_space(dirs[k], missing[k], err);
		if (rc < 0)
			goto out;
	}
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		k = iosim_files_dir_of(prof, ndirs, r);
		iosim_files_path(real[k], r, path, sizeof(path));
		need = (uint64_t)prof->rel[r].pages * IOSIM_PROFILE_PAGE_BYTES;
		if (have[r] < need) {
			fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
			if (fd < 0) {
				rc = -errno;
				err_set(err, rc, "cannot create %s: %s", path,
					strerror(-rc));
				goto out;
			}
			rc = iosim_files_fill(fd, have[r], need, path, err);
			close(fd);
			if (rc < 0)
				goto out;
		}
		iosim_files_path(dirs[0], r, link, sizeof(link));
		if (k != 0 && lstat(link, &st) < 0 && symlink(path, link) < 0) {
			rc = -errno;
			err_set(err, rc, "cannot link %s to %s: %s", link, path,
				strerror(-rc));
			goto out;
		}
	}
	/* the new names, durable too (best effort, as atomic_file does) */
	for (k = 0; k < ndirs; k++) {
		fd = open(dirs[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			fsync(fd);
			close(fd);
		}
	}
out:
	free(real);
	return rc;
}

int iosim_files_prepare(const char *dir, const struct iosim_profile *prof,
			uint64_t extra_bytes, struct err *err)
{
	return iosim_files_prepare_dirs(&dir, 1, prof, extra_bytes, err);
}

/* The message for a file system that refuses O_DIRECT. */
static int iosim_files_no_direct(const char *dir, struct err *err)
{
	return err_set(err, -EINVAL,
		       "%s: the file system refuses O_DIRECT (tmpfs before "
		       "Linux 6.6, ramfs, some FUSE and network file "
		       "systems): put the data directory on a disk's file "
		       "system, or use buffered I/O (the cached "
		       "configuration)",
		       dir);
}

int iosim_files_open(struct iosim_files *f, const char *dir,
		     const struct iosim_profile *prof, bool direct,
		     struct err *err)
{
	char path[PATH_MAX];
	struct stat st;
	void *probe = NULL;
	uint64_t need;
	int r, rc = 0;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		f->fd[r] = -1;
	f->direct = direct;
	snprintf(f->dir, sizeof(f->dir), "%s", dir);
	for (r = 0; r < IOSIM_PROFILE_REL_NR && rc == 0; r++) {
		f->pages[r] = (uint64_t)prof->rel[r].pages;
		if (iosim_files_path(dir, r, path, sizeof(path)) < 0) {
			rc = err_set(err, -ENAMETOOLONG, "%s: path too long",
				     dir);
			break;
		}
		f->fd[r] = open(path,
				O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0));
		if (f->fd[r] < 0) {
			rc = -errno;
			if (rc == -ENOENT)
				err_set(err, rc,
					"%s: missing: the data directory was "
					"not prepared for this profile",
					path);
			else if (rc == -EINVAL && direct)
				iosim_files_no_direct(dir, err);
			else
				err_set(err, rc, "cannot open %s: %s", path,
					strerror(-rc));
			break;
		}
		if (fstat(f->fd[r], &st) < 0) {
			rc = -errno;
			err_set(err, rc, "%s: %s", path, strerror(-rc));
			break;
		}
		need = f->pages[r] * IOSIM_PROFILE_PAGE_BYTES;
		if ((uint64_t)st.st_size < need)
			rc = err_set(
				err, -ERANGE,
				"%s: holds %llu pages, the profile needs "
				"%llu: the data directory was prepared "
				"for a smaller profile (fewer "
				"warehouses); prepare it again",
				path,
				(unsigned long long)((uint64_t)st.st_size /
						     IOSIM_PROFILE_PAGE_BYTES),
				(unsigned long long)f->pages[r]);
	}
	/*
	 * Some file systems take O_DIRECT at open and refuse the read: one
	 * page of a file of dir, and of each file linked from it (a table
	 * layout's directories may be on other file systems).
	 */
	if (rc == 0 && direct) {
		probe = iosim_files_alloc(IOSIM_PROFILE_PAGE_BYTES);
		if (!probe)
			rc = err_set(err, -ENOMEM, "out of memory");
		for (r = 0; probe && r < IOSIM_PROFILE_REL_NR && rc == 0; r++) {
			char target[PATH_MAX];
			ssize_t n = -1;

			iosim_files_path(dir, r, path, sizeof(path));
			if (r != IOSIM_PROFILE_REL_WAREHOUSE &&
			    (n = readlink(path, target, sizeof(target) - 1)) <
				    0)
				continue;
			rc = iosim_files_read(f, r, 0, probe, err);
			if (rc == -EINVAL && n >= 0) {
				target[n] = '\0';
				iosim_files_no_direct(target, err);
			} else if (rc == -EINVAL) {
				iosim_files_no_direct(dir, err);
			}
		}
		free(probe);
	}
	if (rc < 0)
		iosim_files_close(f);
	return rc;
}

int iosim_files_read(const struct iosim_files *f, enum iosim_profile_rel rel,
		     uint64_t page, void *buf, struct err *err)
{
	const size_t n = IOSIM_PROFILE_PAGE_BYTES;
	ssize_t got;
	char path[PATH_MAX];
	int rc;

	if ((unsigned)rel >= IOSIM_PROFILE_REL_NR || page >= f->pages[rel])
		return err_set(err, -ERANGE,
			       "%s: page %llu of relation %d "
			       "is past its end",
			       f->dir, (unsigned long long)page, (int)rel);
	do
		got = pread(f->fd[rel], buf, n, (off_t)(page * n));
	while (got < 0 && errno == EINTR);
	if ((size_t)got == n)
		return 0;
	rc = got < 0 ? -errno : -EIO;
	iosim_files_path(f->dir, rel, path, sizeof(path));
	if (got >= 0)
		return err_set(err, rc, "%s: short read at page %llu", path,
			       (unsigned long long)page);
	return err_set(err, rc, "cannot read %s: %s", path, strerror(-rc));
}

void iosim_files_close(struct iosim_files *f)
{
	int r;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		if (f->fd[r] >= 0)
			close(f->fd[r]);
		f->fd[r] = -1;
	}
}
