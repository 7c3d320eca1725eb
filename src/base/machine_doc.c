/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine_doc.c - one host's machine facts as a document (see
 * machine_doc.h): built from the same readers as a local run's meta.json
 * (sysinfo.h, fingerprint.h), so that a run whose terminals are on
 * another host records the system under test exactly as a local run
 * records its own machine.
 */
#include "src/base/machine_doc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/blockdev.h"
#include "src/base/fingerprint.h"
#include "src/base/resfile.h"
#include "src/base/sysinfo.h"

/* At most this many disks under one data directory are listed. */
#define DOC_DEVS_MAX 32

/* The disks found so far, NULL-terminated, each once. */
struct doc_devs {
	char *name[DOC_DEVS_MAX + 1]; /* owned */
	size_t n;		      /* used */
};

static void devs_add(struct doc_devs *d, const char *name)
{
	size_t i;

	if (!name[0] || d->n >= DOC_DEVS_MAX)
		return;
	for (i = 0; i < d->n; i++)
		if (strcmp(d->name[i], name) == 0)
			return;
	d->name[d->n] = strdup(name);
	if (d->name[d->n])
		d->name[++d->n] = NULL;
}

static void devs_free(struct doc_devs *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->name[i]);
	d->n = 0;
	d->name[0] = NULL;
}

/*
 * The disk under dir (links followed) and what it sits on; a directory
 * that cannot be resolved (another root's sysfs, tmpfs) adds nothing.
 */
static void devs_of_dir(struct doc_devs *d, const char *sysfs, const char *dir)
{
	char real[PATH_MAX], *names, *name, *save = NULL;
	struct blockdev bd;
	struct err why = {""};

	if (!realpath(dir, real) || blockdev_from_dir(sysfs, real, &bd, &why))
		return;
	devs_add(d, bd.name);
	names = strdup(bd.slaves);
	for (name = names ? strtok_r(names, ",", &save) : NULL; name;
	     name = strtok_r(NULL, ",", &save))
		devs_add(d, name);
	free(names);
}

/* The disks of pgdata, its pg_wal and each tablespace of pg_tblspc. */
static void devs_of_pgdata(struct doc_devs *d, const char *root,
			   const char *pgdata)
{
	char sysfs[PATH_MAX], path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	devs_of_dir(d, sysfs, pgdata);
	if (snprintf(path, sizeof(path), "%s/pg_wal", pgdata) <
	    (int)sizeof(path))
		devs_of_dir(d, sysfs, path);
	if (snprintf(path, sizeof(path), "%s/pg_tblspc", pgdata) >=
	    (int)sizeof(path))
		return;
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) != NULL) {
		char link[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(link, sizeof(link), "%s/%s", path, de->d_name) <
		    (int)sizeof(link))
			devs_of_dir(d, sysfs, link);
	}
	closedir(dir);
}

/* Every sysctl under root as sys/sysctl.txt's text, into *out. */
static int sysctl_text(const char *root, char **out, struct err *err)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	int rc;

	*out = NULL;
	if (!f)
		return err_set(err, -ENOMEM, "out of memory");
	rc = fingerprint_sysctl_all(root, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc < 0) {
		free(*out);
		*out = NULL;
		return err_set(err, rc, "cannot list the sysctls");
	}
	return 0;
}

int machine_doc_build(const char *root, const char *pgdata, json_t **out,
		      struct err *err)
{
	struct doc_devs devs = {{NULL}, 0};
	json_t *doc = json_object(), *t = json_object(), *e = json_object(),
	       *list = json_array();
	char host[256], *sysctls = NULL;
	size_t i;
	int rc = -ENOMEM;

	*out = NULL;
	if (!root)
		root = "";
	if (!doc || !t || !e || !list)
		goto fail;
	if (pgdata)
		devs_of_pgdata(&devs, root, pgdata);
	for (i = 0; i < devs.n; i++)
		json_array_append_new(list, json_string(devs.name[i]));
	sysinfo_host_name(root, host, sizeof(host));
	json_object_set_new(doc, "format", json_string(RESFILE_TAG_MACHINE));
	json_object_set_new(doc, "host",
			    host[0] ? json_string(host) : json_null());
	rc = sysinfo_add_json_root(doc, root);
	if (rc == 0)
		rc = fingerprint_machine(
			root, devs.n ? (const char *const *)devs.name : NULL, t,
			e);
	if (rc < 0)
		goto fail;
	rc = sysctl_text(root, &sysctls, err);
	if (rc < 0)
		goto fail_err;
	json_object_set_new(doc, "devices", list);
	json_object_set_new(doc, "treatment", t);
	json_object_set_new(doc, "environment", e);
	json_object_set_new(doc, "sysctl", json_string(sysctls));
	free(sysctls);
	devs_free(&devs);
	*out = doc;
	return 0;
fail:
	err_set(err, rc, "out of memory");
fail_err:
	devs_free(&devs);
	json_decref(doc);
	json_decref(t);
	json_decref(e);
	json_decref(list);
	return rc;
}

int machine_doc_read(const char *path, json_t **out, struct err *err)
{
	static const char *const objects[] = {"kernel", "cpu", "memory",
					      "treatment", "environment"};
	json_t *doc;
	size_t i;
	int rc;

	*out = NULL;
	rc = resfile_read(path, path, RESFILE_MACHINE, &doc, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (!json_is_object(json_object_get(doc, objects[i]))) {
			json_decref(doc);
			return err_set(err, -EBADMSG, "%s: no \"%s\" object",
				       path, objects[i]);
		}
	if (!json_is_string(json_object_get(doc, "sysctl"))) {
		json_decref(doc);
		return err_set(err, -EBADMSG, "%s: no \"sysctl\" text", path);
	}
	*out = doc;
	return 0;
}
