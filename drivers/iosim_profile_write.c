/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_profile_write.c - writing oltpmark-ioprofile/1 (iosim_profile.h,
 * docs/formats.md): every key, those a minor version added included,
 * after the checks the reader runs (iosim_profile_validate()), so the
 * calibration never writes a profile the driver would refuse.
 */
#include "drivers/iosim_profile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/iosim_profile_internal.h"
#include "src/base/resfile.h"

/*
 * Set obj's key to v unless an earlier step failed (*rc < 0). v is
 * always taken: attached to obj or freed. A NULL obj or v (out of
 * memory) makes *rc -ENOMEM. The writer's steps are a flat list of
 * these, so no step needs its own cleanup.
 */
static void iosim_profile_set(json_t *obj, const char *key, json_t *v, int *rc)
{
	if (*rc < 0 || !obj) {
		json_decref(v);
		*rc = -ENOMEM;
		return;
	}
	/* json_object_set_new() takes v, even when it fails */
	if (!v || json_object_set_new(obj, key, v) < 0)
		*rc = -ENOMEM;
}

/* A string, or null when empty. */
static json_t *iosim_profile_text(const char *s)
{
	return *s ? json_string(s) : json_null();
}

/* A share map with the relations whose share is not 0. */
static json_t *iosim_profile_shares_json(const double *shares)
{
	json_t *map = json_object();
	int r, rc = 0;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		if (shares[r] != 0)
			iosim_profile_set(map, iosim_profile_rel_names[r],
					  json_real(shares[r]), &rc);
	if (rc < 0) {
		json_decref(map);
		return NULL;
	}
	return map;
}

/* An object with the rates of keys[] of the struct at base. */
static json_t *
iosim_profile_rates_json(const struct iosim_profile_rate_key *keys,
			 size_t nkeys, const void *base)
{
	json_t *obj = json_object();
	size_t k;
	int rc = 0;

	for (k = 0; k < nkeys; k++)
		iosim_profile_set(
			obj, keys[k].key,
			json_real(*(const double *)((const char *)base +
						    keys[k].offset)),
			&rc);
	if (rc < 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *iosim_profile_txn_json(const struct iosim_profile_txn *t)
{
	json_t *o = json_object();
	size_t k;
	int rc = 0;

	for (k = 0; k < IOSIM_PROFILE_NKEYS(iosim_profile_txn_keys); k++) {
		int64_t v =
			*(const int64_t *)((const char *)t +
					   iosim_profile_txn_keys[k].offset);

		iosim_profile_set(o, iosim_profile_txn_keys[k].key,
				  json_integer(v), &rc);
	}
	iosim_profile_set(o, "read_share",
			  iosim_profile_shares_json(t->read_share), &rc);
	iosim_profile_set(o, "dirtied_share",
			  iosim_profile_shares_json(t->dirtied_share), &rc);
	if (rc < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *iosim_profile_layout_json(const struct iosim_profile_layout *lay)
{
	const char *kind = iosim_profile_layout_name(lay->kind);
	json_t *o = json_object(), *place = json_object();
	int r, rc = 0;

	iosim_profile_set(o, "kind", json_string(kind ? kind : "?"), &rc);
	iosim_profile_set(o, "directories", json_integer(lay->directories),
			  &rc);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		if (lay->placement[r] >= 0)
			iosim_profile_set(place, iosim_profile_rel_names[r],
					  json_integer(lay->placement[r]), &rc);
	if (place && json_object_size(place) > 0)
		iosim_profile_set(o, "placement", place, &rc);
	else
		json_decref(place);
	if (lay->npaths > 0) {
		json_t *paths = json_array();

		for (r = 0; paths && r < lay->npaths; r++)
			if (json_array_append_new(
				    paths, json_string(lay->path[r])) < 0)
				rc = -ENOMEM;
		iosim_profile_set(o, "paths", paths, &rc);
	}
	if (rc < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *iosim_profile_to_json(const struct iosim_profile *prof)
{
	const struct iosim_profile_background *bg = &prof->background;
	json_t *root = json_object(), *txns = json_object(),
	       *rels = json_object(), *bgo, *devs = json_object();
	int rc = 0, type, r, d;

	iosim_profile_set(root, "format", json_string(IOSIM_PROFILE_FORMAT),
			  &rc);
	iosim_profile_set(root, "oltpmark_version",
			  iosim_profile_text(prof->oltpmark_version), &rc);
	iosim_profile_set(root, "created", iosim_profile_text(prof->created),
			  &rc);
	iosim_profile_set(root, "config", iosim_profile_text(prof->config),
			  &rc);
	iosim_profile_set(root, "server_version",
			  iosim_profile_text(prof->server_version), &rc);
	iosim_profile_set(root, "warehouses", json_integer(prof->warehouses),
			  &rc);
	iosim_profile_set(root, "page_bytes",
			  json_integer(IOSIM_PROFILE_PAGE_BYTES), &rc);
	iosim_profile_set(root, "duration_s", json_real(prof->duration_s), &rc);
	iosim_profile_set(root, "mix_commits",
			  prof->mix_commits >= 0
				  ? json_integer(prof->mix_commits)
				  : json_null(),
			  &rc);
	for (type = 0; type < TXN_NR; type++)
		iosim_profile_set(txns, txn_type_name(type),
				  iosim_profile_txn_json(&prof->txn[type]),
				  &rc);
	iosim_profile_set(root, "transactions", txns, &rc);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		iosim_profile_set(rels, iosim_profile_rel_names[r],
				  json_pack("{sIsf}", "pages",
					    (json_int_t)prof->rel[r].pages,
					    "rows_per_page",
					    prof->rel[r].rows_per_page),
				  &rc);
	iosim_profile_set(root, "relations", rels, &rc);
	bgo = iosim_profile_rates_json(
		iosim_profile_background_keys,
		IOSIM_PROFILE_NKEYS(iosim_profile_background_keys), bg);
	iosim_profile_set(bgo, "wal_bytes_per_s",
			  isnan(bg->wal_bytes_per_s)
				  ? json_null()
				  : json_real(bg->wal_bytes_per_s),
			  &rc);
	for (d = 0; d < bg->ndevices; d++)
		iosim_profile_set(
			devs, bg->device[d].name,
			iosim_profile_rates_json(
				iosim_profile_device_keys,
				IOSIM_PROFILE_NKEYS(iosim_profile_device_keys),
				&bg->device[d]),
			&rc);
	iosim_profile_set(bgo, "devices", devs, &rc);
	iosim_profile_set(root, "background", bgo, &rc);
	iosim_profile_set(root, "layout",
			  iosim_profile_layout_json(&prof->layout), &rc);
	if (rc < 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int iosim_profile_write(const char *path, const struct iosim_profile *prof,
			struct err *err)
{
	json_t *root;
	int rc;

	rc = iosim_profile_validate(prof, path, err);
	if (rc < 0)
		return rc;
	root = iosim_profile_to_json(prof);
	if (!root)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	rc = resfile_write_json(path, root, err);
	json_decref(root);
	return rc;
}
