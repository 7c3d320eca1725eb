/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tablespace.c - checking, creating and dropping the loader's
 * tablespaces (see tablespace.h for the contracts, docs/layout.md for
 * what a user sees).
 *
 * Why the directory must be owned by the server's OS user: CREATE
 * TABLESPACE chmods the directory to 0700 and makes PG_<version>_<catalog
 * version> in it, and only the owner may chmod. We learn that user as the
 * owner of the server's data directory (initdb makes the server's user
 * own it, and the server refuses to start otherwise), stat()ed on this
 * machine. Whether the server can reach and list the directory (every
 * directory above it must let its user through) we ask the server itself
 * with pg_ls_dir(), which needs the superuser that CREATE TABLESPACE
 * needs anyway; it also tells us whether the directory is empty as the
 * server sees it.
 */
#include "src/load/tablespace.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drivers/pgconn.h"
#include "drivers/pglayout.h"
#include "src/base/blockdev.h"

void tablespace_name(int k, char *out)
{
	snprintf(out, TABLESPACE_NAME_MAX, "oltpmark_ts%d", k + 1);
}

/* Which device dir counts as (see struct tablespace_dir). */
static void find_device(const char *sysfs, struct tablespace_dir *d)
{
	struct blockdev bd;
	struct err why = {""};

	if (blockdev_from_dir(sysfs, d->path, &bd, &why) == 0) {
		d->dev_major = bd.disk_major;
		d->dev_minor = bd.disk_minor;
		snprintf(d->device, sizeof(d->device), "%s (%u:%u)", bd.name,
			 bd.disk_major, bd.disk_minor);
	} else {
		/* no block device of its own (tmpfs, overlayfs): its fs */
		d->dev_major = major(d->st_dev);
		d->dev_minor = minor(d->st_dev);
		snprintf(d->device, sizeof(d->device), "filesystem %u:%u",
			 d->dev_major, d->dev_minor);
	}
}

/* Append "; " and text to the warning (cut to size). */
static void add_warning(char *warning, size_t size, const char *text)
{
	size_t len = strlen(warning);

	if (len + 1 >= size)
		return;
	snprintf(warning + len, size - len, "%s%s", len ? "; " : "", text);
}

int tablespace_check_dirs(const char *const *dirs, int n,
			  enum load_layout layout, int warehouses,
			  bool allow_shared, const char *sysfs,
			  struct tablespace_dir *out, char *warning,
			  size_t warning_size, struct err *err)
{
	struct stat st;
	int i, j;

	if (warning_size)
		warning[0] = '\0';
	if (n < 1 || n > LOAD_TABLESPACES_MAX)
		return err_set(
			err, -EINVAL,
			"%d tablespace directories: 1 to %d can be given", n,
			LOAD_TABLESPACES_MAX);
	if (layout == LOAD_LAYOUT_SINGLE)
		return err_set(err, -EINVAL,
			       "tablespace directories need the table or the "
			       "warehouse layout");
	if (layout == LOAD_LAYOUT_WAREHOUSE && n > warehouses)
		return err_set(err, -EINVAL,
			       "--layout warehouse: %d tablespace directories "
			       "for %d warehouse%s: each directory needs at "
			       "least one warehouse",
			       n, warehouses, warehouses == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		struct tablespace_dir *d = &out[i];

		memset(d, 0, sizeof(*d));
		if (snprintf(d->given, sizeof(d->given), "%s", dirs[i]) >=
		    (int)sizeof(d->given))
			return err_set(err, -EINVAL,
				       "tablespace directory name too long");
		if (!realpath(dirs[i], d->path)) {
			if (errno == ENOENT)
				return err_set(err, -EINVAL,
					       "tablespace directory '%s' does "
					       "not exist",
					       dirs[i]);
			return err_set(err, -EINVAL,
				       "tablespace directory '%s': %s", dirs[i],
				       strerror(errno));
		}
		if (stat(d->path, &st) < 0)
			return err_set(err, -EINVAL,
				       "tablespace directory '%s': %s", dirs[i],
				       strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return err_set(err, -EINVAL,
				       "tablespace directory '%s' is not a "
				       "directory",
				       dirs[i]);
		d->st_dev = st.st_dev;
		d->st_ino = st.st_ino;
		d->uid = st.st_uid;
		tablespace_name(i, d->name);
		for (j = 0; j < i; j++)
			if (out[j].st_dev == d->st_dev &&
			    out[j].st_ino == d->st_ino)
				return err_set(err, -EINVAL,
					       "tablespace directory '%s' is "
					       "given twice (also as '%s')",
					       dirs[i], out[j].given);
		find_device(sysfs, d);
		for (j = 0; j < i; j++) {
			char text[2 * PATH_MAX + 128];

			if (out[j].dev_major != d->dev_major ||
			    out[j].dev_minor != d->dev_minor)
				continue;
			if (!allow_shared)
				return err_set(
					err, -EINVAL,
					"tablespace directories '%s' and "
					"'%s' are on the same device, %s: "
					"give one per device, or "
					"--allow-shared-device",
					out[j].given, dirs[i], d->device);
			snprintf(text, sizeof(text), "'%s' and '%s' on %s",
				 out[j].given, dirs[i], d->device);
			add_warning(warning, warning_size, text);
			break;
		}
	}
	return 0;
}

int tablespace_find_old(PGconn *conn, struct tablespace_old *old,
			struct err *err)
{
	struct pgconn_rows *res;
	int i, rc;

	memset(old, 0, sizeof(*old));
	rc = pgconn_query(
		conn, "looking for the tablespaces of our tables",
		"WITH RECURSIVE ours(oid) AS ("
		" SELECT to_regclass(n)::oid FROM unnest('{warehouse,"
		"district,customer,history,new_order,orders,order_line,"
		"item,stock}'::text[]) n WHERE to_regclass(n) IS NOT NULL"
		" UNION ALL SELECT i.inhrelid FROM pg_inherits i"
		" JOIN ours o ON i.inhparent = o.oid"
		"), rels(oid) AS ("
		" SELECT oid FROM ours UNION ALL SELECT x.indexrelid"
		" FROM pg_index x JOIN ours o ON x.indrelid = o.oid"
		") SELECT t.spcname FROM pg_tablespace t "
		"WHERE t.spcname ~ '^oltpmark_ts[0-9]+$' AND EXISTS ("
		"SELECT 1 FROM rels r JOIN pg_class c ON c.oid = r.oid "
		"WHERE c.reltablespace = t.oid) ORDER BY t.oid",
		0, NULL, &res, err);
	if (rc < 0)
		return rc;
	if (pgconn_rows_count(res) > LOAD_TABLESPACES_MAX) {
		pgconn_rows_free(res);
		return err_set(err, -E2BIG,
			       "our tables are in more than %d tablespaces",
			       LOAD_TABLESPACES_MAX);
	}
	for (i = 0; i < pgconn_rows_count(res); i++)
		snprintf(old->name[old->n++], TABLESPACE_NAME_MAX, "%s",
			 pgconn_rows_value(res, i, 0));
	pgconn_rows_free(res);
	return 0;
}

/* The login name of uid, or "uid N". */
static void user_name(uid_t uid, char *out, size_t size)
{
	struct passwd pw, *found = NULL;
	char buf[1024];

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &found) == 0 && found)
		snprintf(out, size, "%s", found->pw_name);
	else
		snprintf(out, size, "uid %u", (unsigned int)uid);
}

/* Is name among old's names? */
static bool in_old(const struct tablespace_old *old, const char *name)
{
	int i;

	for (i = 0; i < old->n; i++)
		if (strcmp(old->name[i], name) == 0)
			return true;
	return false;
}

/* The role is a superuser, and the server on this machine: its OS user. */
static int server_user(PGconn *conn, uid_t *uid, struct err *err)
{
	char super[8], role[128], datadir[PATH_MAX];
	struct stat st;
	int rc;

	rc = pgconn_value(conn, "is_superuser",
			  "SELECT current_setting('is_superuser')", super,
			  sizeof(super), err);
	if (rc == 0)
		rc = pgconn_value(conn, "current_user", "SELECT current_user",
				  role, sizeof(role), err);
	if (rc < 0)
		return rc;
	if (strcmp(super, "on") != 0)
		return err_set(err, -EINVAL,
			       "--tablespace-dir: CREATE TABLESPACE needs a "
			       "superuser, and role %s is not one",
			       role);
	if (!pglayout_local(conn))
		return err_set(
			err, -EINVAL,
			"--tablespace-dir: the server (%s) is not on "
			"this machine, where the directories are checked: "
			"run the load on the server's machine",
			pgconn_host(conn));
	rc = pgconn_value(conn, "data_directory",
			  "SELECT current_setting('data_directory')", datadir,
			  sizeof(datadir), err);
	if (rc < 0)
		return rc;
	if (stat(datadir, &st) < 0)
		return err_set(err, -EINVAL,
			       "--tablespace-dir: cannot see the server's data "
			       "directory %s here (%s): run the load on the "
			       "server's machine",
			       datadir, strerror(errno));
	*uid = st.st_uid;
	return 0;
}

/*
 * Refuse an oltpmark_tsK (K <= n) that exists and will not be dropped
 * first; fill loc[i] with the location of old->name[i] when it exists.
 */
static int check_names(PGconn *conn, int n, bool drop,
		       const struct tablespace_old *old, char (*loc)[PATH_MAX],
		       struct err *err)
{
	struct pgconn_rows *res;
	int i, j, k, rc;

	rc = pgconn_query(conn, "looking for existing tablespaces",
			  "SELECT spcname, pg_tablespace_location(oid), "
			  "substr(spcname, 12)::int FROM pg_tablespace "
			  "WHERE spcname ~ '^oltpmark_ts[0-9]{1,9}$'",
			  0, NULL, &res, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < pgconn_rows_count(res) && rc == 0; i++) {
		const char *name = pgconn_rows_value(res, i, 0);

		k = atoi(pgconn_rows_value(res, i, 2));
		for (j = 0; j < old->n; j++)
			if (strcmp(old->name[j], name) == 0)
				snprintf(loc[j], PATH_MAX, "%s",
					 pgconn_rows_value(res, i, 1));
		if (in_old(old, name) && !drop)
			rc = err_set(err, -EEXIST,
				     "tablespace %s holds this database's "
				     "tables: use --drop to replace them",
				     name);
		else if (!in_old(old, name) && k >= 1 && k <= n)
			rc = err_set(err, -EEXIST,
				     "tablespace %s already exists (at %s) and "
				     "does not hold this database's tables: "
				     "drop it (DROP TABLESPACE %s) or load "
				     "into another cluster",
				     name, pgconn_rows_value(res, i, 1), name);
	}
	pgconn_rows_free(res);
	return rc;
}

/* The server lists d: empty, or (with drop) an old tablespace's own. */
static int check_empty(PGconn *conn, const struct tablespace_dir *d, bool drop,
		       const struct tablespace_old *old, char (*loc)[PATH_MAX],
		       struct err *err)
{
	const char *params[1] = {d->path};
	struct err why = {""};
	struct pgconn_rows *res;
	long all, other;
	int j, rc;

	rc = pgconn_query(conn, NULL,
			  "SELECT count(*), count(*) FILTER (WHERE f !~ "
			  "'^PG_') FROM pg_ls_dir($1) f",
			  1, params, &res, &why);
	if (rc == -ENOTCONN || rc == -ENOMEM)
		return err_set(err, rc, "listing %s: %s", d->given, why.msg);
	if (rc < 0)
		return err_set(err, -EINVAL,
			       "the server cannot use tablespace directory "
			       "'%s': %s",
			       d->given, why.msg);
	all = strtol(pgconn_rows_value(res, 0, 0), NULL, 10);
	other = strtol(pgconn_rows_value(res, 0, 1), NULL, 10);
	pgconn_rows_free(res);
	if (all == 0)
		return 0;
	if (drop && other == 0)
		for (j = 0; j < old->n; j++)
			if (strcmp(loc[j], d->path) == 0)
				return 0; /* emptied by dropping old->name[j] */
	return err_set(err, -EINVAL, "tablespace directory '%s' is not empty",
		       d->given);
}

int tablespace_check_server(PGconn *conn, const struct tablespace_dir *dirs,
			    int n, bool drop, const struct tablespace_old *old,
			    struct err *err)
{
	char(*loc)[PATH_MAX];
	char owner[64], server[64];
	uid_t uid;
	int i, rc;

	rc = server_user(conn, &uid, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		if (dirs[i].uid == uid)
			continue;
		user_name(dirs[i].uid, owner, sizeof(owner));
		user_name(uid, server, sizeof(server));
		return err_set(err, -EINVAL,
			       "tablespace directory '%s' is owned by %s, not "
			       "by %s, the server's user (the owner of its "
			       "data directory), as CREATE TABLESPACE needs",
			       dirs[i].given, owner, server);
	}
	loc = calloc(LOAD_TABLESPACES_MAX, sizeof(*loc));
	if (!loc)
		return err_set(err, -ENOMEM, "out of memory");
	rc = check_names(conn, n, drop, old, loc, err);
	for (i = 0; i < n && rc == 0; i++)
		rc = check_empty(conn, &dirs[i], drop, old, loc, err);
	free(loc);
	return rc;
}

int tablespace_drop(PGconn *conn, const char (*names)[TABLESPACE_NAME_MAX],
		    int n, struct err *err)
{
	char sql[128], what[128];
	int i, rc;

	for (i = 0; i < n; i++) {
		snprintf(sql, sizeof(sql), "DROP TABLESPACE IF EXISTS %s",
			 names[i]);
		snprintf(what, sizeof(what), "dropping tablespace %s",
			 names[i]);
		if ((rc = pgconn_exec(conn, what, sql, err)) < 0)
			return rc;
	}
	return 0;
}

int tablespace_create(PGconn *conn, const struct tablespace_dir *dirs, int n,
		      struct err *err)
{
	char names[LOAD_TABLESPACES_MAX][TABLESPACE_NAME_MAX];
	char what[PATH_MAX + 64];
	int i, rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		char *loc = pgconn_quote_literal(conn, dirs[i].path);
		char *sql;

		snprintf(names[i], sizeof(names[i]), "%s", dirs[i].name);
		if (!loc || asprintf(&sql, "CREATE TABLESPACE %s LOCATION %s",
				     dirs[i].name, loc) < 0) {
			free(loc);
			rc = err_set(err, -ENOMEM, "out of memory");
			break;
		}
		free(loc);
		snprintf(what, sizeof(what), "creating tablespace %s in %s",
			 dirs[i].name, dirs[i].given);
		rc = pgconn_exec(conn, what, sql, err);
		free(sql);
		if (rc < 0)
			break;
	}
	/* undo: drop the ones made before the failure */
	if (rc < 0 && i > 0)
		tablespace_drop(conn, (const char(*)[TABLESPACE_NAME_MAX])names,
				i, NULL);
	return rc;
}
