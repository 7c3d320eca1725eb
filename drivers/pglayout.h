/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pglayout.h - the device map of a loaded database, read from the server
 * and from sysfs: which tablespace holds each of oltpmark's relations,
 * that tablespace's directory, and the block device under the directory
 * (model, queue, scheduler, SCSI host: src/base/blockdev.h). The loader
 * stores it in oltpmark_meta.layout_map when a load finishes; the pgsql
 * driver's describe() reads it again for every run's meta.json, so a
 * result says what devices its data was on. docs/formats.md specifies
 * the JSON.
 *
 * Device facts are read from this machine's sysfs, so only when the
 * server is on this machine (pglayout_local). Nothing here prints.
 */
#ifndef OLTPMARK_PGLAYOUT_H
#define OLTPMARK_PGLAYOUT_H

#include <stdbool.h>

#include <jansson.h>

#include "drivers/pgconn.h"
#include "src/base/err.h"

/*
 * Is the server of conn on this machine? True for a unix socket and for
 * a loopback host (localhost, 127.0.0.0/8, ::1); any other host counts
 * as another machine, whose directories this one cannot see.
 */
bool pglayout_local(PGconn *conn);

/*
 * The block device that holds directory dir, as sysfs (at sysfs, "/sys")
 * describes it: a new JSON object (docs/formats.md, "device"), or NULL
 * with err saying why (the directory's filesystem has no block device of
 * its own, the directory cannot be reached). Thread-safe.
 */
json_t *pglayout_device_json(const char *sysfs, const char *dir,
			     struct err *err);

/*
 * Read the layout of the database conn is connected to: {"layout":
 * layout, "tablespaces": [...], "wal": {...}} (docs/formats.md). Each
 * tablespace that holds one of our nine tables, their partitions or
 * their indexes lists those relations and their bytes now, its directory
 * (the data directory for the database's default tablespace, when the
 * role may see it) and, when the server is on this machine, the device.
 * "wal" is there when the data directory is visible. 0 with *out a new
 * reference, or -ENOTCONN / -EIO / -ENOMEM with err set.
 */
int pglayout_read(PGconn *conn, const char *layout, const char *sysfs,
		  json_t **out, struct err *err);

#endif
