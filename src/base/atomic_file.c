/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file.c - write NAME.tmp, sync, rename to NAME (atomic_file.h).
 *
 * The buffered stream is a glibc cookie stream (fopencookie, which the
 * build's -D_GNU_SOURCE makes visible) over the temporary's
 * descriptor rather than fdopen(): stdio keeps only "an error happened"
 * (ferror), and the errno of the write that failed would be lost by the
 * time the caller looks. The cookie keeps the first one, so "No space
 * left on device" reaches the message.
 *
 * Why fsync before the rename: without it a crash shortly after the
 * rename can leave NAME empty on ext4 and XFS (the rename is journalled
 * before the data is written back), and a machine under a test kernel
 * does crash. It also writes back mix.csv's hundreds of megabytes now,
 * after the run, instead of during the next run's measured interval.
 * The directory is synced after the rename too, but best effort: the data
 * is on disk by then, and turning a file that is in place into a failure
 * would be worse than a rename that a crash might undo.
 */
#include "src/base/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "src/base/fdio.h"

/* The cookie stream's write: all of buf, or 0 with af->error set. */
static ssize_t atomic_file_cookie_write(void *cookie, const char *buf,
					size_t size)
{
	struct atomic_file *af = cookie;
	int rc = fdio_write_all(af->fd, buf, size);

	if (rc < 0) {
		if (!af->error)
			af->error = -rc;
		/* glibc: a count short of size (0 included) is an error */
		return 0;
	}
	return (ssize_t)size;
}

int atomic_file_open(struct atomic_file *af, const char *path, struct err *err)
{
	static const cookie_io_functions_t io = {
		.write = atomic_file_cookie_write,
	};
	int rc;

	af->fd = -1;
	af->f = NULL;
	af->error = 0;
	if (snprintf(af->path, sizeof(af->path), "%s", path) >=
		    (int)sizeof(af->path) ||
	    snprintf(af->tmp, sizeof(af->tmp), "%s.tmp", path) >=
		    (int)sizeof(af->tmp))
		return err_set(err, -ENAMETOOLONG,
			       "cannot create %s.tmp: name too long", path);
	af->fd = open(af->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (af->fd < 0) {
		rc = -errno;
		return err_set(err, rc, "cannot create %s: %s", af->tmp,
			       strerror(-rc));
	}
	af->f = fopencookie(af, "w", io);
	if (!af->f) {
		rc = errno ? -errno : -ENOMEM;
		close(af->fd);
		af->fd = -1;
		unlink(af->tmp);
		return err_set(err, rc, "cannot create %s: %s", af->tmp,
			       strerror(-rc));
	}
	return 0;
}

/* fsync(2) across EINTR. 0 or -errno. */
static int atomic_file_fsync(int fd)
{
	while (fsync(fd) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* Sync the directory holding path so the rename lasts; errors ignored. */
static void atomic_file_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	(void)atomic_file_fsync(fd);
	close(fd);
}

int atomic_file_close(struct atomic_file *af, int rc, struct err *err)
{
	if (af->fd < 0)
		return rc < 0 ? rc
			      : err_set(err, -EBADF, "%s: not open", af->path);
	/* fclose() flushes through the cookie, which records a failure */
	if (af->f && fclose(af->f) != 0 && !af->error)
		af->error = errno ? errno : EIO;
	af->f = NULL;
	if (af->error)
		rc = err_set(err, -af->error, "cannot write %s: %s", af->tmp,
			     strerror(af->error));
	else if (rc == 0) {
		rc = atomic_file_fsync(af->fd);
		if (rc < 0)
			err_set(err, rc, "cannot write %s: %s", af->tmp,
				strerror(-rc));
	}
	/* Linux closes the descriptor even when close() fails */
	if (close(af->fd) < 0 && rc == 0) {
		rc = -errno;
		err_set(err, rc, "cannot write %s: %s", af->tmp, strerror(-rc));
	}
	af->fd = -1;
	if (rc == 0 && rename(af->tmp, af->path) < 0) {
		rc = -errno;
		err_set(err, rc, "cannot rename %s to %s: %s", af->tmp,
			af->path, strerror(-rc));
	}
	if (rc < 0) {
		unlink(af->tmp);
		return rc;
	}
	atomic_file_sync_dir(af->path);
	return 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fd < 0)
		return;
	(void)atomic_file_close(af, -ECANCELED, NULL);
}
