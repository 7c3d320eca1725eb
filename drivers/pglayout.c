/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pglayout.c - the device map of a loaded database (see pglayout.h):
 * one catalog query for where our relations are, then sysfs for the
 * device under each tablespace directory and under pg_wal.
 *
 * The relations are found from the nine table names (as the loader
 * creates them, through the search path): the tables, their partitions
 * (pg_inherits) and the indexes of both; a partitioned table or index
 * has no storage of its own and is not listed. What each relation is in
 * comes from pg_class.reltablespace, 0 meaning the database's default.
 */
#include "drivers/pglayout.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgconn.h"
#include "src/base/blockdev.h"

bool pglayout_local(PGconn *conn)
{
	const char *host = pgconn_host(conn), *addr = pgconn_hostaddr(conn);

	if (!host || !*host || host[0] == '/' || host[0] == '@')
		return true;
	if (strcmp(host, "localhost") == 0)
		return true;
	if (!addr || !*addr)
		addr = host;
	return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0;
}

/* s as a JSON string, or null when it is empty. */
static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* n as a JSON integer, or null when it is negative (unknown). */
static json_t *int_or_null(long long n)
{
	return n >= 0 ? json_integer(n) : json_null();
}

json_t *pglayout_device_json(const char *sysfs, const char *dir,
			     struct err *err)
{
	struct blockdev bd;
	json_t *o, *slaves;
	char num[32], *names, *name, *save = NULL;

	if (blockdev_from_dir(sysfs, dir, &bd, err) < 0)
		return NULL;
	o = json_object();
	snprintf(num, sizeof(num), "%u:%u", bd.major, bd.minor);
	json_object_set_new(o, "dev", json_string(num));
	json_object_set_new(o, "partition", str_or_null(bd.part));
	json_object_set_new(o, "disk", json_string(bd.name));
	snprintf(num, sizeof(num), "%u:%u", bd.disk_major, bd.disk_minor);
	json_object_set_new(o, "disk_dev", json_string(num));
	json_object_set_new(o, "kind",
			    json_string(blockdev_kind_name(bd.kind)));
	json_object_set_new(o, "model", str_or_null(bd.model));
	json_object_set_new(o, "scheduler", str_or_null(bd.scheduler));
	json_object_set_new(o, "nr_requests", int_or_null(bd.nr_requests));
	json_object_set_new(o, "rotational", int_or_null(bd.rotational));
	json_object_set_new(o, "scsi_host", str_or_null(bd.scsi_host));
	json_object_set_new(o, "loop_backing_file",
			    str_or_null(bd.loop_backing));
	json_object_set_new(o, "loop_dio",
			    bd.kind == BLOCKDEV_LOOP ? int_or_null(bd.loop_dio)
						     : json_null());
	json_object_set_new(o, "dm_name", str_or_null(bd.dm_name));
	json_object_set_new(o, "md_level", str_or_null(bd.md_level));
	slaves = json_array();
	names = strdup(bd.slaves);
	for (name = names ? strtok_r(names, ",", &save) : NULL; name;
	     name = strtok_r(NULL, ",", &save))
		json_array_append_new(slaves, json_string(name));
	free(names);
	json_object_set_new(o, "slaves", slaves);
	json_object_set_new(o, "slaves_cut", json_boolean(bd.slaves_cut));
	return o;
}

/*
 * Set "device" of obj to the device under dir, or to null with
 * "device_error" saying why (not on this machine, not a block device).
 */
static void set_device(json_t *obj, const char *sysfs, const char *dir,
		       bool local)
{
	struct err why = {""};
	json_t *dev = NULL;

	if (!dir)
		err_set(&why, -ENOENT,
			"the directory is not visible to this "
			"role (no pg_read_all_settings)");
	else if (!local)
		err_set(&why, -EREMOTE, "the server is not on this machine");
	else
		dev = pglayout_device_json(sysfs, dir, &why);
	json_object_set_new(obj, "device", dev ? dev : json_null());
	if (!dev)
		json_object_set_new(obj, "device_error", json_string(why.msg));
}

/*
 * Our relations with storage, by tablespace (in the order the
 * tablespaces were created), then by name: tablespace name, its
 * location ("" for the built-in ones), relation, bytes. A relation is
 * named as regclass prints it: with its schema when that is not on the
 * search_path (the warehouse layout's oltpmark_p2.stock).
 */
static const char layout_sql[] =
	"WITH RECURSIVE ours(oid) AS ("
	" SELECT to_regclass(n)::oid FROM unnest('{warehouse,district,"
	"customer,history,new_order,orders,order_line,item,stock}'::text[]) n"
	" WHERE to_regclass(n) IS NOT NULL"
	" UNION ALL SELECT i.inhrelid FROM pg_inherits i"
	" JOIN ours o ON i.inhparent = o.oid"
	"), rels(oid) AS ("
	" SELECT oid FROM ours UNION ALL"
	" SELECT x.indexrelid FROM pg_index x JOIN ours o ON x.indrelid = o.oid"
	"), dflt AS ("
	" SELECT t.oid, t.spcname FROM pg_database d"
	" JOIN pg_tablespace t ON t.oid = d.dattablespace"
	" WHERE d.datname = current_database()"
	") SELECT coalesce(t.spcname, dflt.spcname),"
	" pg_tablespace_location(coalesce(t.oid, dflt.oid)),"
	" c.oid::regclass::text, pg_relation_size(c.oid)"
	" FROM rels r JOIN pg_class c ON c.oid = r.oid"
	" LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace"
	" CROSS JOIN dflt"
	" WHERE c.relkind IN ('r', 'i', 'm', 't')"
	" ORDER BY coalesce(t.oid, dflt.oid), c.oid::regclass::text";

/* The data directory, or NULL when this role may not see it. */
static int data_directory(PGconn *conn, char *out, size_t size, bool *known,
			  struct err *err)
{
	struct pgconn_rows *rows;
	int rc;

	*known = false;
	rc = pgconn_query(conn, "reading data_directory",
			  "SELECT setting FROM pg_settings "
			  "WHERE name = 'data_directory'",
			  0, NULL, &rows, err);
	if (rc < 0)
		return rc;
	if (pgconn_rows_count(rows) == 1 && !pgconn_rows_is_null(rows, 0, 0)) {
		snprintf(out, size, "%s", pgconn_rows_value(rows, 0, 0));
		*known = true;
	}
	pgconn_rows_free(rows);
	return 0;
}

/* "wal": pg_wal of the data directory, followed if it is a link. */
static json_t *wal_json(const char *datadir, const char *sysfs, bool local)
{
	char path[PATH_MAX + 8], real[PATH_MAX];
	json_t *o = json_object();

	snprintf(path, sizeof(path), "%s/pg_wal", datadir);
	if (local && realpath(path, real))
		memcpy(path, real, strlen(real) + 1);
	json_object_set_new(o, "directory", json_string(path));
	set_device(o, sysfs, path, local);
	return o;
}

int pglayout_read(PGconn *conn, const char *layout, const char *sysfs,
		  json_t **out, struct err *err)
{
	char datadir[PATH_MAX];
	bool known, local = pglayout_local(conn);
	json_t *top, *spcs, *cur = NULL, *rels = NULL;
	long long bytes = 0;
	struct pgconn_rows *res;
	int i, rc;

	*out = NULL;
	rc = data_directory(conn, datadir, sizeof(datadir), &known, err);
	if (rc < 0)
		return rc;
	rc = pgconn_query(conn, "reading the layout", layout_sql, 0, NULL, &res,
			  err);
	if (rc < 0)
		return rc;
	top = json_object();
	spcs = json_array();
	json_object_set_new(top, "layout", json_string(layout));
	json_object_set_new(top, "tablespaces", spcs);
	for (i = 0; i < pgconn_rows_count(res); i++) {
		const char *spc = pgconn_rows_value(res, i, 0);
		const char *loc = pgconn_rows_value(res, i, 1);

		if (!cur ||
		    strcmp(json_string_value(json_object_get(cur, "name")),
			   spc) != 0) {
			const char *dir = *loc ? loc : known ? datadir : NULL;

			if (cur)
				json_object_set_new(cur, "bytes",
						    json_integer(bytes));
			cur = json_object();
			json_array_append_new(spcs, cur);
			json_object_set_new(cur, "name", json_string(spc));
			json_object_set_new(cur, "directory", str_or_null(dir));
			rels = json_array();
			json_object_set_new(cur, "relations", rels);
			set_device(cur, sysfs, dir, local);
			bytes = 0;
		}
		json_array_append_new(
			rels, json_string(pgconn_rows_value(res, i, 2)));
		bytes += strtoll(pgconn_rows_value(res, i, 3), NULL, 10);
	}
	if (cur)
		json_object_set_new(cur, "bytes", json_integer(bytes));
	pgconn_rows_free(res);
	if (known) {
		json_t *dd = json_object();

		/*
		 * The data directory's own device: with the tables in
		 * tablespaces and pg_wal linked elsewhere, no other entry
		 * names it, yet it takes the catalogs', pg_xact's and the
		 * server log's I/O.
		 */
		json_object_set_new(dd, "directory", json_string(datadir));
		set_device(dd, sysfs, datadir, local);
		json_object_set_new(top, "data_directory", dd);
		json_object_set_new(top, "wal",
				    wal_json(datadir, sysfs, local));
	}
	*out = top;
	return 0;
}
