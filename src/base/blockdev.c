/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blockdev.c - from a directory to its block device and the sysfs
 * attributes a run over several devices wants on record. See blockdev.h.
 *
 * The device directory is found by resolving SYSFS/dev/block/MAJ:MIN
 * (a symlink into SYSFS/devices); a partition's directory has a
 * "partition" file and lies inside its disk's, so the disk is its parent.
 * The SCSI host, when there is one, is a "hostN" component of that
 * resolved path (.../host2/target2:0:0/2:0:0:0/block/sda).
 */
#include "src/base/blockdev.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* The major number of loop devices (LOOP_MAJOR in linux/major.h). */
#define LOOP_MAJOR 7

const char *blockdev_kind_name(enum blockdev_kind kind)
{
	static const char *const names[BLOCKDEV_KIND_NR] = {
		[BLOCKDEV_DISK] = "disk",
		[BLOCKDEV_LOOP] = "loop",
		[BLOCKDEV_DM] = "dm",
		[BLOCKDEV_MD] = "md",
	};

	if ((int)kind < 0 || kind >= BLOCKDEV_KIND_NR)
		return "?";
	return names[kind];
}

/* Print dir/name into path (size bytes); false when it does not fit. */
static bool join(char *path, size_t size, const char *dir, const char *name)
{
	int n = snprintf(path, size, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < size;
}

/*
 * Read the attribute dir/name into buf (size bytes), without the
 * trailing newline and blanks. Returns 0, or -1 (buf "") when the file
 * is missing, unreadable or does not fit: an attribute a device does not
 * have is simply empty.
 */
static int read_attr(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t n;
	FILE *f;

	buf[0] = '\0';
	if (!join(path, sizeof(path), dir, name))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	if (ferror(f) || (n == size - 1 && fgetc(f) != EOF)) {
		fclose(f);
		buf[0] = '\0';
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

/* An attribute holding a non-negative integer, or -1. */
static int read_int_attr(const char *dir, const char *name)
{
	char buf[32], *end;
	long v;

	if (read_attr(dir, name, buf, sizeof(buf)) < 0 || !buf[0])
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || *end || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

/* Whether dir/name exists. */
static bool has(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	return join(path, sizeof(path), dir, name) && stat(path, &st) == 0;
}

/* Copy src into dst (size bytes); false when it does not fit. */
static bool copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		return false;
	memcpy(dst, src, n + 1);
	return true;
}

/*
 * The scheduler in use from queue/scheduler: "none [mq-deadline] kyber"
 * gives mq-deadline; a file with one word and no brackets gives that word.
 */
static void parse_scheduler(const char *text, char *out, size_t size)
{
	const char *open = strchr(text, '['), *close;

	out[0] = '\0';
	if (open) {
		close = strchr(open, ']');
		if (close && (size_t)(close - open - 1) < size) {
			memcpy(out, open + 1, (size_t)(close - open - 1));
			out[close - open - 1] = '\0';
		}
		return;
	}
	if (*text && !strpbrk(text, " \t"))
		copy(out, size, text);
}

/* "MAJ:MIN" into its numbers; false when it is not that. */
static bool parse_devnum(const char *text, unsigned int *major,
			 unsigned int *minor)
{
	char end;

	return sscanf(text, "%u:%u%c", major, minor, &end) == 2;
}

/*
 * The last "hostN" component of the device path below the sysfs root:
 * the SCSI host the device hangs from.
 */
static void find_scsi_host(const char *path, char *out, size_t size)
{
	const char *p = path, *start;
	size_t len;

	out[0] = '\0';
	while (*p) {
		while (*p == '/')
			p++;
		start = p;
		while (*p && *p != '/')
			p++;
		len = (size_t)(p - start);
		if (len > 4 && len < size && strncmp(start, "host", 4) == 0 &&
		    strspn(start + 4, "0123456789") == len - 4) {
			memcpy(out, start, len);
			out[len] = '\0';
		}
	}
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The entries of disk/slaves, sorted, comma-separated into bd->slaves;
 * those that do not fit are left out and bd->slaves_cut set.
 */
static int read_slaves(const char *disk, struct blockdev *bd, struct err *err)
{
	char path[PATH_MAX], **names = NULL, **grown;
	size_t n = 0, cap = 0, used = 0, i, len;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (!join(path, sizeof(path), disk, "slaves"))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown) {
				rc = err_set(err, -ENOMEM, "out of memory");
				goto out;
			}
			names = grown;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			rc = err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (used + (used > 0) + len >= sizeof(bd->slaves)) {
			bd->slaves_cut = true;
			break;
		}
		if (used > 0)
			bd->slaves[used++] = ',';
		memcpy(bd->slaves + used, names[i], len + 1);
		used += len;
	}
out:
	closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int blockdev_from_devnum(const char *sysfs, unsigned int major,
			 unsigned int minor, struct blockdev *bd,
			 struct err *err)
{
	char link[PATH_MAX], root[PATH_MAX], devdir[PATH_MAX], disk[PATH_MAX];
	char text[BLOCKDEV_NAME_MAX * 4], *slash;
	size_t rootlen;
	int n;

	memset(bd, 0, sizeof(*bd));
	bd->major = major;
	bd->minor = minor;
	bd->nr_requests = bd->rotational = bd->loop_dio = -1;

	if (!realpath(sysfs, root))
		return err_set(err, -errno, "sysfs %s: %s", sysfs,
			       strerror(errno));
	n = snprintf(link, sizeof(link), "%s/dev/block/%u:%u", root, major,
		     minor);
	if (n < 0 || (size_t)n >= sizeof(link))
		return err_set(err, -ENAMETOOLONG, "sysfs path too long: %s",
			       root);
	if (!realpath(link, devdir)) {
		if (errno == ENOENT)
			return err_set(err, -ENODEV,
				       "no block device %u:%u in %s/dev/block",
				       major, minor, sysfs);
		return err_set(err, -errno, "%s: %s", link, strerror(errno));
	}
	/* The path below the root names the bus, the host, the disk. */
	rootlen = strlen(root);
	if (strncmp(devdir, root, rootlen) != 0 || devdir[rootlen] != '/')
		return err_set(err, -EIO, "%s leads out of %s", link, sysfs);

	if (!copy(disk, sizeof(disk), devdir))
		return err_set(err, -ENAMETOOLONG, "path too long: %s", devdir);
	if (has(devdir, "partition")) {
		slash = strrchr(disk, '/');
		if (!copy(bd->part, sizeof(bd->part), slash + 1))
			return err_set(err, -ENAMETOOLONG,
				       "partition name too long: %s",
				       slash + 1);
		*slash = '\0';
	}
	slash = strrchr(disk, '/');
	if (!copy(bd->name, sizeof(bd->name), slash + 1))
		return err_set(err, -ENAMETOOLONG, "device name too long: %s",
			       slash + 1);
	if (read_attr(disk, "dev", text, sizeof(text)) < 0 ||
	    !parse_devnum(text, &bd->disk_major, &bd->disk_minor))
		return err_set(err, -EIO, "%s/dev: no MAJ:MIN in it", disk);

	read_attr(disk, "device/model", bd->model, sizeof(bd->model));
	if (read_attr(disk, "queue/scheduler", text, sizeof(text)) == 0)
		parse_scheduler(text, bd->scheduler, sizeof(bd->scheduler));
	bd->nr_requests = read_int_attr(disk, "queue/nr_requests");
	bd->rotational = read_int_attr(disk, "queue/rotational");
	find_scsi_host(disk + rootlen, bd->scsi_host, sizeof(bd->scsi_host));

	if (has(disk, "dm")) {
		bd->kind = BLOCKDEV_DM;
		read_attr(disk, "dm/name", bd->dm_name, sizeof(bd->dm_name));
	} else if (has(disk, "md")) {
		bd->kind = BLOCKDEV_MD;
		read_attr(disk, "md/level", bd->md_level, sizeof(bd->md_level));
	} else if (has(disk, "loop") || bd->disk_major == LOOP_MAJOR) {
		bd->kind = BLOCKDEV_LOOP;
		read_attr(disk, "loop/backing_file", bd->loop_backing,
			  sizeof(bd->loop_backing));
		bd->loop_dio = read_int_attr(disk, "loop/dio");
	} else {
		bd->kind = BLOCKDEV_DISK;
	}
	if (bd->kind == BLOCKDEV_DM || bd->kind == BLOCKDEV_MD)
		return read_slaves(disk, bd, err);
	return 0;
}

int blockdev_from_dir(const char *sysfs, const char *dir, struct blockdev *bd,
		      struct err *err)
{
	struct stat st;
	int rc;

	if (stat(dir, &st) < 0)
		return err_set(err, -errno, "%s: %s", dir, strerror(errno));
	rc = blockdev_from_devnum(sysfs, major(st.st_dev), minor(st.st_dev), bd,
				  err);
	if (rc == -ENODEV)
		return err_set(
			err, rc,
			"%s is on device %u:%u, which is no block device (tmpfs, overlayfs, NFS or btrfs?)",
			dir, major(st.st_dev), minor(st.st_dev));
	return rc;
}
