/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tablespace.h - the loader's tablespaces: checking the directories of
 * --tablespace-dir before anything is made, creating oltpmark_ts1..N on
 * them, and dropping them again, so that a load that fails before its
 * tables exist leaves no half-made tablespace behind.
 *
 * Two rounds of checks. tablespace_check_dirs() needs no server: each
 * directory exists, is a directory, is given once, and is on a device of
 * its own (or --allow-shared-device), and the warehouse layout has a
 * warehouse for each. tablespace_check_server() asks the server what
 * only it knows: that the role is a superuser (CREATE TABLESPACE needs
 * one), who the server's OS user is (the owner of its data directory,
 * which CREATE TABLESPACE requires to own the directory too: it chmods
 * it), whether the server itself can list the directory and finds it
 * empty, and which oltpmark_ts tablespaces exist already. A directory
 * is checked on this machine, so the server must be on it too.
 *
 * Nothing here prints. Functions that take a PGconn use it from one
 * thread.
 */
#ifndef OLTPMARK_TABLESPACE_H
#define OLTPMARK_TABLESPACE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "drivers/pgconn.h"
#include "src/base/err.h"
#include "src/load/load.h"

/* Longest tablespace name we make: "oltpmark_ts32". */
#define TABLESPACE_NAME_MAX 24

/* One tablespace directory, as the checks found it. */
struct tablespace_dir {
	char given[PATH_MAX]; /* as the user wrote it, for messages */
	char path[PATH_MAX];  /* absolute, links resolved: the LOCATION */
	dev_t st_dev;	      /* its filesystem */
	ino_t st_ino;	      /* itself */
	uid_t uid;	      /* its owner */
	unsigned int dev_major, dev_minor; /* the device it counts as: the
					      whole disk where sysfs knows
					      it, else the filesystem's */
	char device[80];		   /* that device for messages:
					      "sdb (8:16)" */
	char name[TABLESPACE_NAME_MAX];	   /* oltpmark_tsK for dirs[K-1] */
};

/*
 * The name of the tablespace on directory k (0-based): "oltpmark_ts1"
 * for k = 0. out holds TABLESPACE_NAME_MAX bytes.
 */
void tablespace_name(int k, char *out);

/*
 * Check dirs[0..n) without a server (see the top of this file), with the
 * devices found through the sysfs tree at sysfs ("/sys"), and fill
 * out[0..n). Two directories on one device are an error unless
 * allow_shared, and then each pair is described in warning (size bytes,
 * "" when none). Returns 0, or -EINVAL with err one line naming the
 * directory and what is wrong. Thread-safe.
 */
int tablespace_check_dirs(const char *const *dirs, int n,
			  enum load_layout layout, int warehouses,
			  bool allow_shared, const char *sysfs,
			  struct tablespace_dir *out, char *warning,
			  size_t warning_size, struct err *err);

/*
 * What the server already holds that a load must deal with before it
 * creates its tablespaces.
 */
struct tablespace_old {
	int n; /* entries below */
	char name[LOAD_TABLESPACES_MAX][TABLESPACE_NAME_MAX]; /* oltpmark_tsK
								 tablespaces
								 our tables
								 use here */
};

/*
 * The oltpmark_ts tablespaces that our tables (as the search path finds
 * them), their partitions or their indexes are in, into old: what
 * --drop drops after the tables. 0, or -ENOTCONN / -EIO / -E2BIG with
 * err set.
 */
int tablespace_find_old(PGconn *conn, struct tablespace_old *old,
			struct err *err);

/*
 * The server's checks of dirs[0..n) (checked by tablespace_check_dirs
 * before): the role is a superuser, the server is on this machine, each
 * directory is owned by the server's OS user and is empty as the server
 * lists it. With drop, a directory that is the location of a tablespace
 * in old (to be dropped first) may hold that tablespace's PG_* directory.
 * A tablespace oltpmark_tsK (K <= n) that exists and is not in old (with
 * drop) is refused: it belongs to another database or to nothing we know.
 *
 * Returns 0; -EINVAL (bad input: the caller exits 2) or -EEXIST (a
 * tablespace name is taken) with err one line; -ENOTCONN / -EIO when a
 * query failed.
 */
int tablespace_check_server(PGconn *conn, const struct tablespace_dir *dirs,
			    int n, bool drop, const struct tablespace_old *old,
			    struct err *err);

/*
 * CREATE TABLESPACE oltpmark_tsK LOCATION dirs[K-1].path for K = 1..n
 * (each its own statement: none may run in a transaction block). On a
 * failure the ones already created are dropped again. 0, or a negative
 * errno with err saying which directory failed and why.
 */
int tablespace_create(PGconn *conn, const struct tablespace_dir *dirs, int n,
		      struct err *err);

/*
 * DROP TABLESPACE each of names[0..n) that exists, each its own
 * statement; the first failure stops it. 0, or -ENOTCONN / -EIO with err
 * naming the tablespace (a tablespace that still holds relations, of
 * this database or another, cannot be dropped).
 */
int tablespace_drop(PGconn *conn, const char (*names)[TABLESPACE_NAME_MAX],
		    int n, struct err *err);

#endif
