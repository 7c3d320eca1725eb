/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_profile_read.c - reading oltpmark-ioprofile/1 (iosim_profile.h,
 * docs/formats.md). The keys a minor version added are optional (a 1.0
 * profile lacks them). The reader walks the JSON once, naming every
 * value by its key path ("transactions.new_order.read_share.stock") so
 * that each fault gives one line that says where it is; what it read is
 * then checked by iosim_profile_validate() (iosim_profile.c), the checks
 * the writer runs too.
 */
#include "drivers/iosim_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/iosim_profile_internal.h"
#include "src/base/resfile.h"

/* A JSON value in short for a message: its text, cut at 40 bytes. */
static void iosim_profile_show(const json_t *v, char *buf, size_t size)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	if (!s) {
		snprintf(buf, size, "?");
		return;
	}
	if (strlen(s) > 40)
		snprintf(buf, size, "%.37s...", s);
	else
		snprintf(buf, size, "%s", s);
	free(s);
}

/* The reader's state: where messages go. */
struct iosim_profile_reader {
	const char *name; /* file name for messages */
	struct err *err;  /* where the first fault goes */
};

/* obj's member key, which must be there and not null. */
static int iosim_profile_need(struct iosim_profile_reader *rd,
			      const json_t *obj, const char *parent,
			      const char *key, const json_t **out)
{
	char path[256];

	*out = json_object_get(obj, key);
	if (!*out || json_is_null(*out))
		return iosim_profile_err(
			rd->err, -EINVAL, rd->name,
			iosim_profile_path(path, sizeof(path), parent, key),
			"missing");
	return 0;
}

/* A member that must be a JSON object. */
static int iosim_profile_need_object(struct iosim_profile_reader *rd,
				     const json_t *obj, const char *parent,
				     const char *key, const json_t **out)
{
	char path[256], shown[48];
	int rc = iosim_profile_need(rd, obj, parent, key, out);

	if (rc < 0 || json_is_object(*out))
		return rc;
	iosim_profile_show(*out, shown, sizeof(shown));
	return iosim_profile_err(
		rd->err, -EINVAL, rd->name,
		iosim_profile_path(path, sizeof(path), parent, key),
		"not an object: %s", shown);
}

/*
 * A count: an integer >= 0 (a real >= 0 is truncated, as
 * resfile_get_count() reads every count of our files).
 */
static int iosim_profile_need_count(struct iosim_profile_reader *rd,
				    const json_t *obj, const char *parent,
				    const char *key, int64_t *out)
{
	char path[256], shown[48];
	const json_t *v;
	int rc = iosim_profile_need(rd, obj, parent, key, &v);

	if (rc < 0)
		return rc;
	*out = resfile_get_count(obj, key);
	if (*out >= 0)
		return 0;
	iosim_profile_show(v, shown, sizeof(shown));
	iosim_profile_path(path, sizeof(path), parent, key);
	if (json_is_number(v) && json_number_value(v) < 0)
		return iosim_profile_err(rd->err, -EINVAL, rd->name, path,
					 "negative count %s", shown);
	return iosim_profile_err(rd->err, -EINVAL, rd->name, path,
				 "not a count (an integer >= 0): %s", shown);
}

/* A finite number; ranges are iosim_profile_validate()'s job. */
static int iosim_profile_need_number(struct iosim_profile_reader *rd,
				     const json_t *obj, const char *parent,
				     const char *key, double *out)
{
	char path[256], shown[48];
	const json_t *v;
	int rc = iosim_profile_need(rd, obj, parent, key, &v);

	if (rc < 0)
		return rc;
	*out = resfile_number(v);
	if (isfinite(*out))
		return 0;
	iosim_profile_show(v, shown, sizeof(shown));
	return iosim_profile_err(
		rd->err, -EINVAL, rd->name,
		iosim_profile_path(path, sizeof(path), parent, key),
		"not a number: %s", shown);
}

/* An optional number (1.1's keys): NAN when absent or null. */
static int iosim_profile_opt_number(struct iosim_profile_reader *rd,
				    const json_t *obj, const char *parent,
				    const char *key, double *out)
{
	const json_t *v = json_object_get(obj, key);

	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	return iosim_profile_need_number(rd, obj, parent, key, out);
}

/* An optional count (1.1's keys): -1 when absent or null. */
static int iosim_profile_opt_count(struct iosim_profile_reader *rd,
				   const json_t *obj, const char *parent,
				   const char *key, int64_t *out)
{
	const json_t *v = json_object_get(obj, key);

	*out = -1;
	if (!v || json_is_null(v))
		return 0;
	return iosim_profile_need_count(rd, obj, parent, key, out);
}

/* An optional string into buf (size bytes); "" when absent or null. */
static int iosim_profile_opt_string(struct iosim_profile_reader *rd,
				    const json_t *obj, const char *key,
				    char *buf, size_t size)
{
	const json_t *v = json_object_get(obj, key);
	char shown[48];

	buf[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v)) {
		iosim_profile_show(v, shown, sizeof(shown));
		return iosim_profile_err(rd->err, -EINVAL, rd->name, key,
					 "not a string: %s", shown);
	}
	if (json_string_length(v) >= size)
		return iosim_profile_err(rd->err, -EINVAL, rd->name, key,
					 "longer than %zu characters",
					 size - 1);
	memcpy(buf, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/*
 * A map relation name -> share into shares[] (0 for relations it does
 * not name). An absent map is all zeros; an unknown name is a fault.
 */
static int iosim_profile_read_shares(struct iosim_profile_reader *rd,
				     const json_t *obj, const char *parent,
				     const char *key, double *shares)
{
	char path[256], sub[256], shown[48];
	const json_t *map = json_object_get(obj, key), *v;
	const char *rel_name;
	int r;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		shares[r] = 0;
	if (!map || json_is_null(map))
		return 0;
	iosim_profile_path(path, sizeof(path), parent, key);
	if (!json_is_object(map)) {
		iosim_profile_show(map, shown, sizeof(shown));
		return iosim_profile_err(rd->err, -EINVAL, rd->name, path,
					 "not an object: %s", shown);
	}
	json_object_foreach((json_t *)map, rel_name, v)
	{
		r = iosim_profile_rel_from_name(rel_name);
		if (r < 0)
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name, path,
				"unknown relation \"%s\"", rel_name);
		shares[r] = resfile_number(v);
		if (!isfinite(shares[r])) {
			iosim_profile_show(v, shown, sizeof(shown));
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name,
				iosim_profile_path(sub, sizeof(sub), path,
						   rel_name),
				"not a number: %s", shown);
		}
	}
	return 0;
}

/* Whether name is a transaction type's ("new_order", ...). */
static bool iosim_profile_is_type(const char *name)
{
	int type;

	for (type = 0; type < TXN_NR; type++)
		if (strcmp(name, txn_type_name(type)) == 0)
			return true;
	return false;
}

static int iosim_profile_read_txns(struct iosim_profile_reader *rd,
				   const json_t *root,
				   struct iosim_profile *prof)
{
	const json_t *txns, *t, *v;
	const char *type_name;
	char path[256];
	size_t k;
	int type, rc;

	rc = iosim_profile_need_object(rd, root, "", "transactions", &txns);
	if (rc < 0)
		return rc;
	json_object_foreach((json_t *)txns, type_name, v)
	{
		if (!iosim_profile_is_type(type_name))
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name, "transactions",
				"unknown transaction type \"%s\"", type_name);
	}
	for (type = 0; type < TXN_NR; type++) {
		struct iosim_profile_txn *pt = &prof->txn[type];

		rc = iosim_profile_need_object(rd, txns, "transactions",
					       txn_type_name(type), &t);
		if (rc < 0)
			return rc;
		iosim_profile_path(path, sizeof(path), "transactions",
				   txn_type_name(type));
		for (k = 0; k < IOSIM_PROFILE_NKEYS(iosim_profile_txn_keys);
		     k++) {
			rc = iosim_profile_need_count(
				rd, t, path, iosim_profile_txn_keys[k].key,
				(int64_t *)((char *)pt +
					    iosim_profile_txn_keys[k].offset));
			if (rc < 0)
				return rc;
		}
		rc = iosim_profile_read_shares(rd, t, path, "read_share",
					       pt->read_share);
		if (rc < 0)
			return rc;
		rc = iosim_profile_read_shares(rd, t, path, "dirtied_share",
					       pt->dirtied_share);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int iosim_profile_read_rels(struct iosim_profile_reader *rd,
				   const json_t *root,
				   struct iosim_profile *prof)
{
	const json_t *rels, *o, *v;
	const char *rel_name;
	char path[256];
	int r, rc;

	rc = iosim_profile_need_object(rd, root, "", "relations", &rels);
	if (rc < 0)
		return rc;
	json_object_foreach((json_t *)rels, rel_name, v)
	{
		if (iosim_profile_rel_from_name(rel_name) < 0)
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name, "relations",
				"unknown relation \"%s\"", rel_name);
	}
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		rc = iosim_profile_need_object(rd, rels, "relations",
					       iosim_profile_rel_names[r], &o);
		if (rc < 0)
			return rc;
		iosim_profile_path(path, sizeof(path), "relations",
				   iosim_profile_rel_names[r]);
		rc = iosim_profile_need_count(rd, o, path, "pages",
					      &prof->rel[r].pages);
		if (rc < 0)
			return rc;
		rc = iosim_profile_need_number(rd, o, path, "rows_per_page",
					       &prof->rel[r].rows_per_page);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The rates of keys[] of obj into the struct at base. */
static int iosim_profile_read_rates(struct iosim_profile_reader *rd,
				    const json_t *obj, const char *path,
				    const struct iosim_profile_rate_key *keys,
				    size_t nkeys, void *base)
{
	size_t k;
	int rc;

	for (k = 0; k < nkeys; k++) {
		rc = iosim_profile_need_number(
			rd, obj, path, keys[k].key,
			(double *)((char *)base + keys[k].offset));
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Devices by name, for a stable order whatever the file's order is. */
static int iosim_profile_device_cmp(const void *a, const void *b)
{
	return strcmp(((const struct iosim_profile_device *)a)->name,
		      ((const struct iosim_profile_device *)b)->name);
}

static int iosim_profile_read_background(struct iosim_profile_reader *rd,
					 const json_t *root,
					 struct iosim_profile *prof)
{
	struct iosim_profile_background *bg = &prof->background;
	const json_t *o, *devs, *d;
	const char *dev_name;
	char path[256];
	int rc;

	rc = iosim_profile_need_object(rd, root, "", "background", &o);
	if (rc < 0)
		return rc;
	rc = iosim_profile_read_rates(
		rd, o, "background", iosim_profile_background_keys,
		IOSIM_PROFILE_NKEYS(iosim_profile_background_keys), bg);
	if (rc < 0)
		return rc;
	rc = iosim_profile_opt_number(rd, o, "background", "wal_bytes_per_s",
				      &bg->wal_bytes_per_s);
	if (rc < 0)
		return rc;
	rc = iosim_profile_need_object(rd, o, "background", "devices", &devs);
	if (rc < 0)
		return rc;
	bg->ndevices = 0;
	json_object_foreach((json_t *)devs, dev_name, d)
	{
		struct iosim_profile_device *dev;

		if (bg->ndevices == IOSIM_PROFILE_DEVICES_MAX)
			return iosim_profile_err(rd->err, -EINVAL, rd->name,
						 "background.devices",
						 "more than %d devices",
						 IOSIM_PROFILE_DEVICES_MAX);
		iosim_profile_path(path, sizeof(path), "background.devices",
				   dev_name);
		if (!*dev_name || strlen(dev_name) >= IOSIM_PROFILE_NAME_MAX)
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name,
				"background.devices",
				"device name \"%.40s\" is empty or longer "
				"than %d characters",
				dev_name, IOSIM_PROFILE_NAME_MAX - 1);
		if (!json_is_object(d))
			return iosim_profile_err(rd->err, -EINVAL, rd->name,
						 path, "not an object");
		dev = &bg->device[bg->ndevices++];
		snprintf(dev->name, sizeof(dev->name), "%s", dev_name);
		rc = iosim_profile_read_rates(
			rd, d, path, iosim_profile_device_keys,
			IOSIM_PROFILE_NKEYS(iosim_profile_device_keys), dev);
		if (rc < 0)
			return rc;
	}
	qsort(bg->device, (size_t)bg->ndevices, sizeof(bg->device[0]),
	      iosim_profile_device_cmp);
	return 0;
}

/*
 * layout.paths (1.1): one string per directory, or absent. Descriptive:
 * a path too long to keep is a fault, as any value out of range is.
 */
static int iosim_profile_read_paths(struct iosim_profile_reader *rd,
				    const json_t *layout,
				    struct iosim_profile_layout *lay)
{
	const json_t *paths = json_object_get(layout, "paths"), *v;
	char sub[64], shown[48];
	size_t i;

	lay->npaths = 0;
	if (!paths || json_is_null(paths))
		return 0;
	if (!json_is_array(paths)) {
		iosim_profile_show(paths, shown, sizeof(shown));
		return iosim_profile_err(rd->err, -EINVAL, rd->name,
					 "layout.paths", "not an array: %s",
					 shown);
	}
	if (json_array_size(paths) != (size_t)lay->directories ||
	    json_array_size(paths) > IOSIM_PROFILE_PATHS_MAX)
		return iosim_profile_err(
			rd->err, -EINVAL, rd->name, "layout.paths",
			"%zu paths for %d directories (at most %d)",
			json_array_size(paths), lay->directories,
			IOSIM_PROFILE_PATHS_MAX);
	json_array_foreach(paths, i, v)
	{
		snprintf(sub, sizeof(sub), "layout.paths[%zu]", i);
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    json_string_length(v) >= IOSIM_PROFILE_PATH_LEN) {
			iosim_profile_show(v, shown, sizeof(shown));
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name, sub,
				"not a path of 1 to %d characters: %s",
				IOSIM_PROFILE_PATH_LEN - 1, shown);
		}
		memcpy(lay->path[i], json_string_value(v),
		       json_string_length(v) + 1);
	}
	lay->npaths = (int)json_array_size(paths);
	return 0;
}

static int iosim_profile_read_layout(struct iosim_profile_reader *rd,
				     const json_t *root,
				     struct iosim_profile *prof)
{
	struct iosim_profile_layout *lay = &prof->layout;
	const json_t *o, *kind, *place, *v;
	const char *rel_name;
	char path[256], shown[48];
	int64_t dirs;
	int k, r, rc;

	rc = iosim_profile_need_object(rd, root, "", "layout", &o);
	if (rc < 0)
		return rc;
	rc = iosim_profile_need(rd, o, "layout", "kind", &kind);
	if (rc < 0)
		return rc;
	lay->kind = IOSIM_PROFILE_LAYOUT_NR;
	for (k = 0; k < IOSIM_PROFILE_LAYOUT_NR; k++)
		if (json_is_string(kind) &&
		    strcmp(json_string_value(kind),
			   iosim_profile_layout_names[k]) == 0)
			lay->kind = k;
	if (lay->kind == IOSIM_PROFILE_LAYOUT_NR) {
		iosim_profile_show(kind, shown, sizeof(shown));
		return iosim_profile_err(
			rd->err, -EINVAL, rd->name, "layout.kind",
			"not \"single\", \"table\" or \"warehouse\": %s",
			shown);
	}
	rc = iosim_profile_need_count(rd, o, "layout", "directories", &dirs);
	if (rc < 0)
		return rc;
	if (dirs > IOSIM_PROFILE_DIRECTORIES_MAX)
		return iosim_profile_err(rd->err, -EINVAL, rd->name,
					 "layout.directories",
					 "%lld, more than %d", (long long)dirs,
					 IOSIM_PROFILE_DIRECTORIES_MAX);
	lay->directories = (int)dirs;
	rc = iosim_profile_read_paths(rd, o, lay);
	if (rc < 0)
		return rc;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		lay->placement[r] = -1;
	place = json_object_get(o, "placement");
	if (!place || json_is_null(place))
		return 0;
	if (!json_is_object(place))
		return iosim_profile_err(rd->err, -EINVAL, rd->name,
					 "layout.placement", "not an object");
	json_object_foreach((json_t *)place, rel_name, v)
	{
		int64_t dir;

		r = iosim_profile_rel_from_name(rel_name);
		if (r < 0)
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name, "layout.placement",
				"unknown relation \"%s\"", rel_name);
		rc = iosim_profile_need_count(rd, place, "layout.placement",
					      rel_name, &dir);
		if (rc < 0)
			return rc;
		if (dir >= lay->directories)
			return iosim_profile_err(
				rd->err, -EINVAL, rd->name,
				iosim_profile_path(path, sizeof(path),
						   "layout.placement",
						   rel_name),
				"directory %lld of %d (numbered from 0)",
				(long long)dir, lay->directories);
		lay->placement[r] = (int)dir;
	}
	return 0;
}

/* Everything but the checksum, from a parsed object of the right tag. */
static int iosim_profile_from_json(struct iosim_profile_reader *rd,
				   const json_t *root,
				   struct iosim_profile *prof)
{
	int64_t w;
	int rc;

	memset(prof, 0, sizeof(*prof));
	if ((rc = iosim_profile_opt_string(
		     rd, root, "oltpmark_version", prof->oltpmark_version,
		     sizeof(prof->oltpmark_version))) < 0 ||
	    (rc = iosim_profile_opt_string(rd, root, "created", prof->created,
					   sizeof(prof->created))) < 0 ||
	    (rc = iosim_profile_opt_string(rd, root, "config", prof->config,
					   sizeof(prof->config))) < 0 ||
	    (rc = iosim_profile_opt_string(rd, root, "server_version",
					   prof->server_version,
					   sizeof(prof->server_version))) < 0)
		return rc;
	rc = iosim_profile_need_count(rd, root, "", "warehouses", &w);
	if (rc < 0)
		return rc;
	if (w > IOSIM_PROFILE_WAREHOUSES_MAX)
		return iosim_profile_err(rd->err, -EINVAL, rd->name,
					 "warehouses", "%lld, more than %d",
					 (long long)w,
					 IOSIM_PROFILE_WAREHOUSES_MAX);
	prof->warehouses = (int)w;
	rc = iosim_profile_need_count(rd, root, "", "page_bytes", &w);
	if (rc < 0)
		return rc;
	if (w != IOSIM_PROFILE_PAGE_BYTES)
		return iosim_profile_err(
			rd->err, -EINVAL, rd->name, "page_bytes",
			"%lld, but iosim simulates %d-byte "
			"pages only",
			(long long)w, IOSIM_PROFILE_PAGE_BYTES);
	rc = iosim_profile_need_number(rd, root, "", "duration_s",
				       &prof->duration_s);
	if (rc < 0)
		return rc;
	rc = iosim_profile_opt_count(rd, root, "", "mix_commits",
				     &prof->mix_commits);
	if (rc < 0)
		return rc;
	if ((rc = iosim_profile_read_txns(rd, root, prof)) < 0 ||
	    (rc = iosim_profile_read_rels(rd, root, prof)) < 0 ||
	    (rc = iosim_profile_read_background(rd, root, prof)) < 0 ||
	    (rc = iosim_profile_read_layout(rd, root, prof)) < 0)
		return rc;
	return 0;
}

/* FNV-1a, 64 bits: names the exact bytes of a profile in a run's files. */
static uint64_t iosim_profile_fnv1a64(const char *text, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)text[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

int iosim_profile_parse(const char *text, size_t len, const char *name,
			struct iosim_profile *prof, struct err *err)
{
	struct iosim_profile_reader rd = {name, err};
	json_t *root;
	FILE *f;
	int rc;

	if (len == 0)
		return iosim_profile_err(err, -ENODATA, name, NULL,
					 "empty file");
	f = fmemopen((void *)text, len, "r");
	if (!f)
		return iosim_profile_err(err, -errno, name, NULL, "%s",
					 strerror(errno));
	rc = resfile_parse(f, name, &root, err);
	fclose(f);
	if (rc < 0)
		return rc;
	rc = resfile_check(root, RESFILE_IOPROFILE, name, err);
	if (rc == 0)
		rc = iosim_profile_from_json(&rd, root, prof);
	json_decref(root);
	if (rc < 0)
		return rc;
	rc = iosim_profile_validate(prof, name, err);
	if (rc < 0)
		return rc;
	snprintf(prof->checksum, sizeof(prof->checksum), "fnv1a64:%016llx",
		 (unsigned long long)iosim_profile_fnv1a64(text, len));
	return 0;
}

int iosim_profile_read(const char *path, struct iosim_profile *prof,
		       struct err *err)
{
	struct stat st;
	char *text;
	size_t got = 0;
	ssize_t n;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		return iosim_profile_err(err, rc, path, NULL, "%s",
					 strerror(-rc));
	}
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		close(fd);
		return iosim_profile_err(err, rc, path, NULL, "%s",
					 strerror(-rc));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return iosim_profile_err(err, -EINVAL, path, NULL,
					 "not a regular file");
	}
	if (st.st_size > IOSIM_PROFILE_FILE_MAX) {
		close(fd);
		return iosim_profile_err(err, -EFBIG, path, NULL,
					 "%lld bytes, more than any I/O "
					 "profile (%d)",
					 (long long)st.st_size,
					 IOSIM_PROFILE_FILE_MAX);
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		close(fd);
		return iosim_profile_err(err, -ENOMEM, path, NULL,
					 "out of memory");
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, text + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			free(text);
			close(fd);
			return iosim_profile_err(err, rc, path, NULL,
						 "read error: %s",
						 strerror(-rc));
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	rc = iosim_profile_parse(text, got, path, prof, err);
	free(text);
	return rc;
}
