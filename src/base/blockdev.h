/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blockdev.h - which block device a directory lives on, and what sysfs
 * says about it: the evidence of a run spread over several devices (its
 * queue, scheduler, SCSI host, loop backing file, device-mapper name).
 *
 * A directory's st_dev names the device of its filesystem; sysfs links
 * /sys/dev/block/MAJ:MIN to that device's directory, and a partition's
 * directory sits inside its disk's. Every function takes the sysfs root
 * as an argument ("/sys" in use) so the tests run on fixture trees
 * (tests/fixtures/sysfs-*). Nothing here prints.
 */
#ifndef OLTPMARK_BLOCKDEV_H
#define OLTPMARK_BLOCKDEV_H

#include <limits.h>
#include <stdbool.h>

#include "src/base/err.h"

#define BLOCKDEV_NAME_MAX   64	/* a kernel block device name, with room */
#define BLOCKDEV_SLAVES_MAX 512 /* names of the devices under a dm/md */

/* What kind of block device a disk is. */
enum blockdev_kind {
	BLOCKDEV_DISK, /* a disk of some driver: virtio, SCSI, NVMe, ... */
	BLOCKDEV_LOOP, /* a loop device (major 7, or has loop/) */
	BLOCKDEV_DM,   /* device-mapper (has dm/) */
	BLOCKDEV_MD,   /* software RAID (has md/) */
	BLOCKDEV_KIND_NR,
};

/*
 * One block device. Text fields are "" and numbers -1 where sysfs does
 * not have the attribute (a bio-based device has no scheduler; a virtio
 * disk has no model).
 */
struct blockdev {
	unsigned int major, minor;    /* the filesystem's device, maybe a
				      partition */
	char part[BLOCKDEV_NAME_MAX]; /* that partition: "vda1"; "" when the
					 filesystem is on the whole disk */
	unsigned int disk_major, disk_minor; /* the whole disk */
	char name[BLOCKDEV_NAME_MAX];	     /* the disk: "vda", "loop3" */
	enum blockdev_kind kind;	     /* disk, loop, dm or md */
	char model[BLOCKDEV_NAME_MAX]; /* device/model, trailing blanks cut */
	char scheduler[BLOCKDEV_NAME_MAX]; /* queue/scheduler: the one in
					      brackets */
	int nr_requests;		   /* queue/nr_requests */
	int rotational;			   /* queue/rotational: 0 or 1 */
	char scsi_host[BLOCKDEV_NAME_MAX]; /* "host2" when the device path
					      goes through a SCSI host */
	char loop_backing[PATH_MAX]; /* loop/backing_file of an attached loop
					device */
	int loop_dio;		     /* loop/dio: 1 when direct I/O is on */
	char dm_name[BLOCKDEV_NAME_MAX];  /* dm/name: "vg0-data" */
	char md_level[BLOCKDEV_NAME_MAX]; /* md/level: "raid0" (an md array
					     has no name in sysfs) */
	char slaves[BLOCKDEV_SLAVES_MAX]; /* dm or md: the devices under it,
					     "loop0,loop1", sorted */
	bool slaves_cut; /* more devices than slaves could hold */
};

/*
 * Describe the block device MAJOR:MINOR from the sysfs tree at sysfs
 * ("/sys"). Returns 0, or a negative errno with err saying what failed:
 * -ENODEV when sysfs has no block device of that number, -EIO when its
 * link leads out of the tree or the device has no readable dev
 * attribute, -ENAMETOOLONG for paths that do not fit. Missing attributes
 * are not errors (see struct blockdev). Thread-safe.
 */
int blockdev_from_devnum(const char *sysfs, unsigned int major,
			 unsigned int minor, struct blockdev *bd,
			 struct err *err);

/*
 * Describe the block device that holds the filesystem of dir, by its
 * st_dev. As blockdev_from_devnum; -ENODEV also says that dir's
 * filesystem has no block device of its own (tmpfs, overlayfs, NFS,
 * btrfs); a failing stat returns its errno. Thread-safe.
 */
int blockdev_from_dir(const char *sysfs, const char *dir, struct blockdev *bd,
		      struct err *err);

/* "disk", "loop", "dm" or "md"; "?" for anything else. */
const char *blockdev_kind_name(enum blockdev_kind kind);

#endif
