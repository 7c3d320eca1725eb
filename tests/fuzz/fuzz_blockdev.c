/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_blockdev.c - libFuzzer target for the sysfs reader behind the
 * device part of the layout map (oltpmark_meta.layout_map, meta.json's
 * server.layout): blockdev_from_devnum in src/base/blockdev.c and the
 * JSON pglayout_device_json in drivers/pglayout.c makes of it. Each
 * input becomes a small sysfs tree in the target's private directory,
 * like the fixtures tests/fixtures/sysfs-*: dev/block/MAJ:MIN, a link
 * to the device's directory under devices/, and its attributes.
 *
 * The input is cut at FUZZ_SEP into: the device's path below devices/
 * (its first line; a component "." or "..", or one with a byte the
 * kernel never puts in a name, refuses the input: the tree must stay
 * inside the private directory), then the contents of partition, dev,
 * device/model, queue/scheduler, queue/nr_requests, queue/rotational,
 * dm/name, md/level, loop/backing_file, loop/dio, and the names under
 * slaves/ one a line. An empty or missing part is a file that is not
 * there. With a partition the attributes go to the disk, its parent
 * directory, as in sysfs. MAJ:MIN is the private directory's own device,
 * so pglayout_device_json finds it by stat(). Besides the sanitizers
 * the target aborts when an accepted device has no name or a kind out
 * of range, or the JSON is missing.
 */
#include "tests/fuzz/fuzz.h"

#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <sys/sysmacros.h>

#include "drivers/pglayout.h"
#include "src/base/blockdev.h"

#define FUZZ_PATH_MAX	    1024 /* the device's path below devices/ */
#define FUZZ_COMPONENTS_MAX 12	 /* directories in that path */
#define FUZZ_NAME_MAX	    64	 /* bytes of one component */

/* The attribute files, in the order of the input's parts after the path. */
static const char *const fuzz_attrs[] = {
	"partition",
	"dev",
	"device/model",
	"queue/scheduler",
	"queue/nr_requests",
	"queue/rotational",
	"dm/name",
	"md/level",
	"loop/backing_file",
	"loop/dio",
	"slaves",
};
#define FUZZ_NATTRS (sizeof(fuzz_attrs) / sizeof(fuzz_attrs[0]))

/* The tree's root: the private directory's "sysfs". */
static char fuzz_sysfs[512];

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Remove the tree (links are removed, never followed). */
static void remove_tree(void)
{
	if (fuzz_sysfs[0])
		nftw(fuzz_sysfs, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p of path (a copy is changed); 0 or -1. */
static int make_dirs(const char *path)
{
	char buf[FUZZ_PATH_MAX + 600];
	char *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* A name the kernel could give: not "." or "..", no '/', NUL or newline. */
static bool good_name(const char *s, size_t len)
{
	return len > 0 && len <= FUZZ_NAME_MAX && !(len == 1 && s[0] == '.') &&
	       !(len == 2 && s[0] == '.' && s[1] == '.') &&
	       !memchr(s, '/', len) && !memchr(s, '\0', len) &&
	       !memchr(s, '\n', len);
}

/*
 * The device's path from the first line of part: components separated
 * by '/', each a good name. Into out (FUZZ_PATH_MAX); false to refuse.
 */
static bool device_path(const struct fuzz_part *part, char *out)
{
	const char *s = (const char *)part->data;
	size_t len = part->size, start = 0, i, n = 0;
	const char *nl = memchr(s, '\n', len);

	if (nl)
		len = (size_t)(nl - s);
	if (len == 0 || len >= FUZZ_PATH_MAX)
		return false;
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '/')
			continue;
		if (!good_name(s + start, i - start) ||
		    ++n > FUZZ_COMPONENTS_MAX)
			return false;
		start = i + 1;
	}
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

/* Write data to dir/name, making name's directories; 0 or -1. */
static int write_attr(const char *dir, const char *name,
		      const struct fuzz_part *part)
{
	char path[FUZZ_PATH_MAX + 700], *slash;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	slash = strrchr(path, '/');
	*slash = '\0';
	if (make_dirs(path) < 0)
		return -1;
	*slash = '/';
	f = fopen(path, "wb");
	if (!f)
		return -1;
	if (fwrite(part->data, 1, part->size, f) != part->size)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* The entries of slaves/, one a line of part; 0 or -1. */
static int write_slaves(const char *dir, const struct fuzz_part *part)
{
	const char *s = (const char *)part->data, *end = s + part->size;
	char path[FUZZ_PATH_MAX + 800];
	size_t len;

	snprintf(path, sizeof(path), "%s/slaves", dir);
	if (make_dirs(path) < 0)
		return -1;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (good_name(s, len)) {
			FILE *f;

			snprintf(path, sizeof(path), "%s/slaves/%.*s", dir,
				 (int)len, s);
			f = fopen(path, "wb");
			if (!f)
				return -1;
			fclose(f);
		}
		s += len + 1;
	}
	return 0;
}

/* Build the tree of the input; 0, or -1 to skip the input. */
static int build_tree(const struct fuzz_part *parts, size_t n, unsigned int maj,
		      unsigned int min)
{
	char rel[FUZZ_PATH_MAX], devdir[FUZZ_PATH_MAX + 600];
	char disk[FUZZ_PATH_MAX + 600], link[700], target[FUZZ_PATH_MAX + 32];
	char *slash;
	size_t i;

	if (!device_path(&parts[0], rel))
		return -1;
	snprintf(link, sizeof(link), "%s/dev/block", fuzz_sysfs);
	if (make_dirs(link) < 0)
		return -1;
	snprintf(devdir, sizeof(devdir), "%s/devices/%s", fuzz_sysfs, rel);
	if (make_dirs(devdir) < 0)
		return -1;
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", fuzz_sysfs, maj,
		 min);
	snprintf(target, sizeof(target), "../../devices/%s", rel);
	if (symlink(target, link) < 0)
		return -1;
	snprintf(disk, sizeof(disk), "%s", devdir);
	if (n > 1 && parts[1].size > 0) {
		if (write_attr(devdir, fuzz_attrs[0], &parts[1]) < 0)
			return -1;
		slash = strrchr(disk, '/');
		*slash = '\0';
	}
	for (i = 2; i < n && i <= FUZZ_NATTRS; i++) {
		if (parts[i].size == 0)
			continue;
		if (i == FUZZ_NATTRS) {
			if (write_slaves(disk, &parts[i]) < 0)
				return -1;
		} else if (write_attr(disk, fuzz_attrs[i - 1], &parts[i]) < 0) {
			return -1;
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[FUZZ_NATTRS + 1];
	const char *dir = fuzz_tmpdir();
	size_t n = fuzz_split(data, size, parts, FUZZ_NATTRS + 1);
	struct blockdev bd;
	struct stat st;
	struct err err;
	json_t *o;

	if (!dir || stat(dir, &st) < 0)
		return 0;
	if (!fuzz_sysfs[0]) {
		snprintf(fuzz_sysfs, sizeof(fuzz_sysfs), "%s/sysfs", dir);
		/* after fuzz_tmpdir()'s: runs first, empties the directory */
		atexit(remove_tree);
	}
	remove_tree();
	if (build_tree(parts, n, major(st.st_dev), minor(st.st_dev)) < 0)
		return 0;
	if (blockdev_from_devnum(fuzz_sysfs, major(st.st_dev), minor(st.st_dev),
				 &bd, &err) == 0) {
		if (!bd.name[0] || (unsigned int)bd.kind >= BLOCKDEV_KIND_NR)
			abort();
		o = pglayout_device_json(fuzz_sysfs, dir, &err);
		if (!o)
			abort(); /* the same device, read a second time */
		json_decref(o);
	}
	return 0;
}
