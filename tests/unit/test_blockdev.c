/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_blockdev.c - from a device number or a directory to the block
 * device and its sysfs attributes, on fixture trees shaped like real
 * sysfs (symlinks and all): tests/fixtures/sysfs-virtio (virtio disk vda
 * with partition vda1, vdb, the bio-based zram0), sysfs-scsi (sda with
 * sda1 and sdb behind virtio-scsi host2, a scsi_debug disk sdc behind
 * host3), sysfs-virtual (loop0 attached with direct I/O, loop1 detached,
 * dm-0 over loop0 and loop1, md0 over loop2 and loop3). Trees built in
 * temporary directories cover the stat path and long slave lists.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "src/base/blockdev.h"
#include "tests/unit/fixture_util.h"

/* What one device of a fixture tree must read as. */
struct expect {
	const char *tree;	 /* fixture directory */
	unsigned int maj, min;	 /* the device asked for */
	const char *part;	 /* partition name or "" */
	const char *name;	 /* the disk */
	unsigned int dmaj, dmin; /* the disk's numbers */
	enum blockdev_kind kind;
	const char *model, *scheduler;
	int nr_requests, rotational;
	const char *scsi_host, *loop_backing;
	int loop_dio;
	const char *dm_name, *md_level, *slaves;
};

static const struct expect devices[] = {
	{"sysfs-virtio", 254, 1, "vda1", "vda", 254, 0, BLOCKDEV_DISK, "",
	 "mq-deadline", 256, 1, "", "", -1, "", "", ""},
	{"sysfs-virtio", 254, 0, "", "vda", 254, 0, BLOCKDEV_DISK, "",
	 "mq-deadline", 256, 1, "", "", -1, "", "", ""},
	{"sysfs-virtio", 254, 16, "", "vdb", 254, 16, BLOCKDEV_DISK, "", "none",
	 256, 0, "", "", -1, "", "", ""},
	/* bio-based: no scheduler, no nr_requests */
	{"sysfs-virtio", 253, 0, "", "zram0", 253, 0, BLOCKDEV_DISK, "", "", -1,
	 0, "", "", -1, "", "", ""},
	{"sysfs-scsi", 8, 1, "sda1", "sda", 8, 0, BLOCKDEV_DISK,
	 "QEMU HARDDISK", "mq-deadline", 256, 1, "host2", "", -1, "", "", ""},
	{"sysfs-scsi", 8, 16, "", "sdb", 8, 16, BLOCKDEV_DISK, "QEMU HARDDISK",
	 "mq-deadline", 256, 1, "host2", "", -1, "", "", ""},
	{"sysfs-scsi", 8, 32, "", "sdc", 8, 32, BLOCKDEV_DISK, "scsi_debug",
	 "mq-deadline", 64, 0, "host3", "", -1, "", "", ""},
	{"sysfs-virtual", 7, 0, "", "loop0", 7, 0, BLOCKDEV_LOOP, "", "none",
	 128, 0, "", "/srv/arr.backing/d1.img", 1, "", "", ""},
	/* detached: still a loop device, with nothing behind it */
	{"sysfs-virtual", 7, 1, "", "loop1", 7, 1, BLOCKDEV_LOOP, "", "none",
	 128, 0, "", "", -1, "", "", ""},
	{"sysfs-virtual", 252, 0, "", "dm-0", 252, 0, BLOCKDEV_DM, "", "none",
	 -1, 0, "", "", -1, "vg0-data", "", "loop0,loop1"},
	{"sysfs-virtual", 9, 0, "", "md0", 9, 0, BLOCKDEV_MD, "", "none", -1, 0,
	 "", "", -1, "", "raid0", "loop2,loop3"},
};

static void test_fixture_devices(void **state)
{
	struct blockdev bd;
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
		const struct expect *e = &devices[i];
		char root[PATH_MAX];

		snprintf(root, sizeof(root), "%s", fixture_path(e->tree));
		err_clear(&err);
		if (blockdev_from_devnum(root, e->maj, e->min, &bd, &err) != 0)
			fail_msg("%u:%u in %s: %s", e->maj, e->min, e->tree,
				 err.msg);
		assert_int_equal(bd.major, e->maj);
		assert_int_equal(bd.minor, e->min);
		assert_string_equal(bd.part, e->part);
		assert_string_equal(bd.name, e->name);
		assert_int_equal(bd.disk_major, e->dmaj);
		assert_int_equal(bd.disk_minor, e->dmin);
		assert_int_equal(bd.kind, e->kind);
		assert_string_equal(bd.model, e->model);
		assert_string_equal(bd.scheduler, e->scheduler);
		assert_int_equal(bd.nr_requests, e->nr_requests);
		assert_int_equal(bd.rotational, e->rotational);
		assert_string_equal(bd.scsi_host, e->scsi_host);
		assert_string_equal(bd.loop_backing, e->loop_backing);
		assert_int_equal(bd.loop_dio, e->loop_dio);
		assert_string_equal(bd.dm_name, e->dm_name);
		assert_string_equal(bd.md_level, e->md_level);
		assert_string_equal(bd.slaves, e->slaves);
		assert_false(bd.slaves_cut);
	}
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(blockdev_kind_name(BLOCKDEV_DISK), "disk");
	assert_string_equal(blockdev_kind_name(BLOCKDEV_LOOP), "loop");
	assert_string_equal(blockdev_kind_name(BLOCKDEV_DM), "dm");
	assert_string_equal(blockdev_kind_name(BLOCKDEV_MD), "md");
	assert_string_equal(blockdev_kind_name(BLOCKDEV_KIND_NR), "?");
}

static void test_missing(void **state)
{
	char root[PATH_MAX];
	struct blockdev bd;
	struct err err;

	(void)state;
	snprintf(root, sizeof(root), "%s", fixture_path("sysfs-virtio"));
	err_clear(&err);
	assert_int_equal(blockdev_from_devnum(root, 8, 0, &bd, &err), -ENODEV);
	assert_non_null(strstr(err.msg, "no block device 8:0"));
	err_clear(&err);
	assert_int_equal(
		blockdev_from_devnum("/nonexistent/sys", 8, 0, &bd, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/sys"));
	err_clear(&err);
	assert_int_equal(blockdev_from_dir(root, "/nonexistent/dir", &bd, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/dir"));
}

/* mkdir -p of dir/sub (sub relative, no "..") */
static void mkdirs(const char *dir, const char *sub)
{
	char path[PATH_MAX];
	char *p;

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, sub) <
		    (int)sizeof(path));
	for (p = path + strlen(dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
}

/*
 * blockdev_from_dir: a tree that holds the device of a real directory
 * (whatever its numbers are here) finds it by stat; a tree without it
 * says the directory has no block device.
 */
static void test_from_dir(void **state)
{
	/* short enough that the paths below always fit */
	char root[256], link[PATH_MAX], text[64];
	struct blockdev bd;
	struct stat st;
	struct err err;

	(void)state;
	assert_non_null(fixture_temp_dir(root, sizeof(root), "test_blockdev"));
	assert_int_equal(stat(root, &st), 0);
	mkdirs(root, "devices/platform/fake0/block/fakedisk/queue");
	mkdirs(root, "dev/block");
	snprintf(text, sizeof(text), "%u:%u\n", major(st.st_dev),
		 minor(st.st_dev));
	fixture_write_file(root, "devices/platform/fake0/block/fakedisk/dev",
			   text);
	fixture_write_file(
		root, "devices/platform/fake0/block/fakedisk/queue/scheduler",
		"none [kyber]\n");

	err_clear(&err);
	assert_int_equal(blockdev_from_dir(root, root, &bd, &err), -ENODEV);
	assert_non_null(strstr(err.msg, "which is no block device"));

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", root,
		 major(st.st_dev), minor(st.st_dev));
	assert_int_equal(
		symlink("../../devices/platform/fake0/block/fakedisk", link),
		0);
	err_clear(&err);
	if (blockdev_from_dir(root, root, &bd, &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(bd.name, "fakedisk");
	assert_int_equal(bd.major, major(st.st_dev));
	assert_int_equal(bd.disk_minor, minor(st.st_dev));
	assert_string_equal(bd.scheduler, "kyber");
	/* a loop device by its major number, else a disk */
	assert_int_equal(bd.kind,
			 major(st.st_dev) == 7 ? BLOCKDEV_LOOP : BLOCKDEV_DISK);
	/* a link that leads out of the tree is refused */
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink("/", link), 0);
	err_clear(&err);
	assert_int_equal(blockdev_from_dir(root, root, &bd, &err), -EIO);
	assert_non_null(strstr(err.msg, "leads out of"));
	assert_int_equal(fixture_rm_rf(root), 0);
}

/* Slaves that do not fit: whole names only, sorted, and the flag. */
static void test_many_slaves(void **state)
{
	char root[256], path[PATH_MAX], name[32];
	struct blockdev bd;
	struct err err;
	size_t len;
	int i;

	(void)state;
	assert_non_null(fixture_temp_dir(root, sizeof(root), "test_blockdev"));
	mkdirs(root, "devices/virtual/block/md127/md");
	mkdirs(root, "devices/virtual/block/md127/slaves");
	mkdirs(root, "dev/block");
	fixture_write_file(root, "devices/virtual/block/md127/dev", "9:127\n");
	fixture_write_file(root, "devices/virtual/block/md127/md/level",
			   "raid10\n");
	for (i = 199; i >= 100; i--) {
		snprintf(name, sizeof(name), "loop%d", i);
		snprintf(path, sizeof(path),
			 "%s/devices/virtual/block/md127/slaves/%s", root,
			 name);
		assert_int_equal(symlink(name, path), 0);
	}
	snprintf(path, sizeof(path), "%s/dev/block/9:127", root);
	assert_int_equal(symlink("../../devices/virtual/block/md127", path), 0);

	err_clear(&err);
	if (blockdev_from_devnum(root, 9, 127, &bd, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(bd.kind, BLOCKDEV_MD);
	assert_string_equal(bd.md_level, "raid10");
	assert_true(bd.slaves_cut);
	len = strlen(bd.slaves);
	/* 7 characters a name and a comma between: 64 names in 511 bytes */
	assert_int_equal(len, 64 * 8 - 1);
	assert_int_equal(strncmp(bd.slaves, "loop100,loop101,", 16), 0);
	assert_string_equal(bd.slaves + len - 7, "loop163");
	assert_int_equal(fixture_rm_rf(root), 0);
}

/*
 * The real sysfs of this machine: the root directory is either on a
 * block device whose dev attribute gives back its numbers, or on none.
 */
static void test_real_sysfs(void **state)
{
	struct blockdev bd;
	struct stat st;
	struct err err;
	int rc;

	(void)state;
	if (stat("/sys/dev/block", &st) != 0)
		skip();
	err_clear(&err);
	rc = blockdev_from_dir("/sys", "/", &bd, &err);
	if (rc == -ENODEV)
		return;
	if (rc != 0)
		fail_msg("%s", err.msg);
	assert_true(bd.name[0] != '\0');
	assert_int_equal(stat("/", &st), 0);
	assert_int_equal(bd.major, major(st.st_dev));
	assert_int_equal(bd.minor, minor(st.st_dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_devices),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_from_dir),
		cmocka_unit_test(test_many_slaves),
		cmocka_unit_test(test_real_sysfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
