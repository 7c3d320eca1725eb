/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_profile.c - oltpmark-ioprofile/1 (iosim_profile.h,
 * docs/formats.md) without the file: the names of its relations and
 * layouts, the tables of its keys, the range checks the reader and the
 * writer share (iosim_profile_validate(), so the calibration can never
 * write a profile the driver would refuse), and the per-call figures the
 * driver draws from a profile. Reading is iosim_profile_read.c's,
 * writing iosim_profile_write.c's.
 */
#include "drivers/iosim_profile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "drivers/iosim_profile_internal.h"

const char *const iosim_profile_rel_names[IOSIM_PROFILE_REL_NR] = {
	[IOSIM_PROFILE_REL_WAREHOUSE] = "warehouse",
	[IOSIM_PROFILE_REL_DISTRICT] = "district",
	[IOSIM_PROFILE_REL_CUSTOMER] = "customer",
	[IOSIM_PROFILE_REL_HISTORY] = "history",
	[IOSIM_PROFILE_REL_NEW_ORDER] = "new_order",
	[IOSIM_PROFILE_REL_ORDERS] = "orders",
	[IOSIM_PROFILE_REL_ORDER_LINE] = "order_line",
	[IOSIM_PROFILE_REL_ITEM] = "item",
	[IOSIM_PROFILE_REL_STOCK] = "stock",
	[IOSIM_PROFILE_REL_WAREHOUSE_PKEY] = "warehouse_pkey",
	[IOSIM_PROFILE_REL_DISTRICT_PKEY] = "district_pkey",
	[IOSIM_PROFILE_REL_CUSTOMER_PKEY] = "customer_pkey",
	[IOSIM_PROFILE_REL_CUSTOMER_NAME_IDX] = "customer_name_idx",
	[IOSIM_PROFILE_REL_NEW_ORDER_PKEY] = "new_order_pkey",
	[IOSIM_PROFILE_REL_ORDERS_PKEY] = "orders_pkey",
	[IOSIM_PROFILE_REL_ORDERS_CUSTOMER_IDX] = "orders_customer_idx",
	[IOSIM_PROFILE_REL_ORDER_LINE_PKEY] = "order_line_pkey",
	[IOSIM_PROFILE_REL_ITEM_PKEY] = "item_pkey",
	[IOSIM_PROFILE_REL_STOCK_PKEY] = "stock_pkey",
};

const char *const iosim_profile_layout_names[IOSIM_PROFILE_LAYOUT_NR] = {
	[IOSIM_PROFILE_LAYOUT_SINGLE] = "single",
	[IOSIM_PROFILE_LAYOUT_TABLE] = "table",
	[IOSIM_PROFILE_LAYOUT_WAREHOUSE] = "warehouse",
};

const struct iosim_profile_count_key iosim_profile_txn_keys[] = {
	{"calls", offsetof(struct iosim_profile_txn, calls)},
	{"commits", offsetof(struct iosim_profile_txn, commits)},
	{"shared_blks_hit",
	 offsetof(struct iosim_profile_txn, shared_blks_hit)},
	{"shared_blks_read",
	 offsetof(struct iosim_profile_txn, shared_blks_read)},
	{"shared_blks_dirtied",
	 offsetof(struct iosim_profile_txn, shared_blks_dirtied)},
	{"shared_blks_written",
	 offsetof(struct iosim_profile_txn, shared_blks_written)},
	{"wal_records", offsetof(struct iosim_profile_txn, wal_records)},
	{"wal_bytes", offsetof(struct iosim_profile_txn, wal_bytes)},
};

const struct iosim_profile_rate_key iosim_profile_background_keys[] = {
	{"checkpoint_writes_per_s",
	 offsetof(struct iosim_profile_background, checkpoint_writes_per_s)},
	{"bgwriter_writes_per_s",
	 offsetof(struct iosim_profile_background, bgwriter_writes_per_s)},
	{"backend_writes_per_s",
	 offsetof(struct iosim_profile_background, backend_writes_per_s)},
	{"wal_writes_per_s",
	 offsetof(struct iosim_profile_background, wal_writes_per_s)},
	{"wal_syncs_per_s",
	 offsetof(struct iosim_profile_background, wal_syncs_per_s)},
};

const struct iosim_profile_rate_key iosim_profile_device_keys[] = {
	{"reads_per_s", offsetof(struct iosim_profile_device, reads_per_s)},
	{"read_bytes_per_s",
	 offsetof(struct iosim_profile_device, read_bytes_per_s)},
	{"writes_per_s", offsetof(struct iosim_profile_device, writes_per_s)},
	{"write_bytes_per_s",
	 offsetof(struct iosim_profile_device, write_bytes_per_s)},
};

const char *iosim_profile_rel_name(enum iosim_profile_rel rel)
{
	return (unsigned)rel < IOSIM_PROFILE_REL_NR
		       ? iosim_profile_rel_names[rel]
		       : NULL;
}

int iosim_profile_rel_from_name(const char *name)
{
	int r;

	for (r = 0; name && r < IOSIM_PROFILE_REL_NR; r++)
		if (strcmp(name, iosim_profile_rel_names[r]) == 0)
			return r;
	return -1;
}

bool iosim_profile_rel_is_index(enum iosim_profile_rel rel)
{
	return rel >= IOSIM_PROFILE_REL_WAREHOUSE_PKEY &&
	       rel < IOSIM_PROFILE_REL_NR;
}

const char *iosim_profile_layout_name(enum iosim_profile_layout_kind kind)
{
	return (unsigned)kind < IOSIM_PROFILE_LAYOUT_NR
		       ? iosim_profile_layout_names[kind]
		       : NULL;
}

int iosim_profile_err(struct err *err, int code, const char *name,
		      const char *path, const char *fmt, ...)
{
	char msg[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(err, code, "%s%s%s%s%s", name ? name : "",
		       name ? ": " : "", path && *path ? path : "",
		       path && *path ? ": " : "", msg);
}

const char *iosim_profile_path(char *buf, size_t size, const char *parent,
			       const char *key)
{
	/* a key path longer than buf (a hostile file) is cut, visibly */
	if (snprintf(buf, size, "%s%s%s", parent, *parent ? "." : "", key) >=
	    (int)size)
		strcpy(buf + size - 4, "...");
	return buf;
}

/* Whether a share map sums to ~1 (or to 0 when total is 0). */
static int iosim_profile_check_shares(const double *shares, int64_t total,
				      const char *name, const char *path,
				      struct err *err)
{
	char sub[256];
	double sum = 0;
	int r;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		if (!(shares[r] >= 0 && shares[r] <= 1))
			return iosim_profile_err(
				err, -EINVAL, name,
				iosim_profile_path(sub, sizeof(sub), path,
						   iosim_profile_rel_names[r]),
				"share %g is not between 0 and 1", shares[r]);
		sum += shares[r];
	}
	if (fabs(sum - 1) <= IOSIM_PROFILE_SHARE_SLACK)
		return 0;
	if (sum == 0 && total == 0)
		return 0;
	if (sum == 0)
		return iosim_profile_err(err, -EINVAL, name, path,
					 "no shares for %lld blocks",
					 (long long)total);
	return iosim_profile_err(err, -EINVAL, name, path,
				 "shares sum to %.4g, not 1 (±%g)", sum,
				 IOSIM_PROFILE_SHARE_SLACK);
}

/* A rate: finite and >= 0. */
static int iosim_profile_check_rate(double v, const char *name,
				    const char *path, struct err *err)
{
	if (isfinite(v) && v >= 0)
		return 0;
	return iosim_profile_err(err, -EINVAL, name, path,
				 "%g is not a rate (a number >= 0)", v);
}

int iosim_profile_validate(const struct iosim_profile *prof, const char *name,
			   struct err *err)
{
	char path[256], sub[256];
	size_t k;
	int type, r, d, rc;

	if (prof->warehouses < 1 ||
	    prof->warehouses > IOSIM_PROFILE_WAREHOUSES_MAX)
		return iosim_profile_err(err, -EINVAL, name, "warehouses",
					 "must be 1 to %d, found %d",
					 IOSIM_PROFILE_WAREHOUSES_MAX,
					 prof->warehouses);
	if (!(isfinite(prof->duration_s) && prof->duration_s > 0))
		return iosim_profile_err(err, -EINVAL, name, "duration_s",
					 "must be more than 0, found %g",
					 prof->duration_s);
	if (prof->mix_commits < -1)
		return iosim_profile_err(err, -EINVAL, name, "mix_commits",
					 "negative count %lld",
					 (long long)prof->mix_commits);
	for (type = 0; type < TXN_NR; type++) {
		const struct iosim_profile_txn *t = &prof->txn[type];

		iosim_profile_path(path, sizeof(path), "transactions",
				   txn_type_name(type));
		for (k = 0; k < IOSIM_PROFILE_NKEYS(iosim_profile_txn_keys);
		     k++) {
			int64_t v = *(const int64_t *)((const char *)t +
						       iosim_profile_txn_keys[k]
							       .offset);

			if (v < 0)
				return iosim_profile_err(
					err, -EINVAL, name,
					iosim_profile_path(
						sub, sizeof(sub), path,
						iosim_profile_txn_keys[k].key),
					"negative count %lld", (long long)v);
		}
		if (t->commits > t->calls)
			return iosim_profile_err(
				err, -EINVAL, name, path,
				"%lld commits but only %lld calls",
				(long long)t->commits, (long long)t->calls);
		rc = iosim_profile_check_shares(
			t->read_share, t->shared_blks_read, name,
			iosim_profile_path(sub, sizeof(sub), path,
					   "read_share"),
			err);
		if (rc < 0)
			return rc;
		rc = iosim_profile_check_shares(
			t->dirtied_share, t->shared_blks_dirtied, name,
			iosim_profile_path(sub, sizeof(sub), path,
					   "dirtied_share"),
			err);
		if (rc < 0)
			return rc;
	}
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		const struct iosim_profile_relation *rel = &prof->rel[r];

		iosim_profile_path(path, sizeof(path), "relations",
				   iosim_profile_rel_names[r]);
		/* page numbers are 32 bits in the pagemap */
		if (rel->pages < 1 || rel->pages > UINT32_MAX)
			return iosim_profile_err(
				err, -EINVAL, name,
				iosim_profile_path(sub, sizeof(sub), path,
						   "pages"),
				"%lld is not a size in pages (1 to %u)",
				(long long)rel->pages, UINT32_MAX);
		if (!(rel->rows_per_page > 0 &&
		      rel->rows_per_page <= IOSIM_PROFILE_PAGE_BYTES))
			return iosim_profile_err(
				err, -EINVAL, name,
				iosim_profile_path(sub, sizeof(sub), path,
						   "rows_per_page"),
				"%g is not between 0 (excluded) and %d",
				rel->rows_per_page, IOSIM_PROFILE_PAGE_BYTES);
	}
	for (k = 0; k < IOSIM_PROFILE_NKEYS(iosim_profile_background_keys);
	     k++) {
		rc = iosim_profile_check_rate(
			*(const double *)((const char *)&prof->background +
					  iosim_profile_background_keys[k]
						  .offset),
			name,
			iosim_profile_path(
				sub, sizeof(sub), "background",
				iosim_profile_background_keys[k].key),
			err);
		if (rc < 0)
			return rc;
	}
	if (!isnan(prof->background.wal_bytes_per_s)) {
		rc = iosim_profile_check_rate(
			prof->background.wal_bytes_per_s, name,
			"background.wal_bytes_per_s", err);
		if (rc < 0)
			return rc;
	}
	if (prof->background.ndevices < 0 ||
	    prof->background.ndevices > IOSIM_PROFILE_DEVICES_MAX)
		return iosim_profile_err(
			err, -EINVAL, name, "background.devices",
			"%d devices (at most %d)", prof->background.ndevices,
			IOSIM_PROFILE_DEVICES_MAX);
	for (d = 0; d < prof->background.ndevices; d++) {
		const struct iosim_profile_device *dev =
			&prof->background.device[d];

		if (!dev->name[0] ||
		    strnlen(dev->name, sizeof(dev->name)) == sizeof(dev->name))
			return iosim_profile_err(err, -EINVAL, name,
						 "background.devices",
						 "a device without a name");
		if (d > 0 &&
		    strcmp(dev->name, prof->background.device[d - 1].name) == 0)
			return iosim_profile_err(
				err, -EINVAL, name, "background.devices",
				"device \"%s\" given twice", dev->name);
		iosim_profile_path(path, sizeof(path), "background.devices",
				   dev->name);
		for (k = 0; k < IOSIM_PROFILE_NKEYS(iosim_profile_device_keys);
		     k++) {
			rc = iosim_profile_check_rate(
				*(const double *)((const char *)dev +
						  iosim_profile_device_keys[k]
							  .offset),
				name,
				iosim_profile_path(
					sub, sizeof(sub), path,
					iosim_profile_device_keys[k].key),
				err);
			if (rc < 0)
				return rc;
		}
	}
	if ((unsigned)prof->layout.kind >= IOSIM_PROFILE_LAYOUT_NR)
		return iosim_profile_err(err, -EINVAL, name, "layout.kind",
					 "unknown layout %d",
					 (int)prof->layout.kind);
	if (prof->layout.directories < 1 ||
	    prof->layout.directories > IOSIM_PROFILE_DIRECTORIES_MAX)
		return iosim_profile_err(err, -EINVAL, name,
					 "layout.directories",
					 "must be 1 to %d, found %d",
					 IOSIM_PROFILE_DIRECTORIES_MAX,
					 prof->layout.directories);
	if (prof->layout.kind == IOSIM_PROFILE_LAYOUT_SINGLE &&
	    prof->layout.directories != 1)
		return iosim_profile_err(err, -EINVAL, name,
					 "layout.directories",
					 "%d directories for the single layout",
					 prof->layout.directories);
	if (prof->layout.npaths != 0 &&
	    (prof->layout.npaths != prof->layout.directories ||
	     prof->layout.npaths > IOSIM_PROFILE_PATHS_MAX))
		return iosim_profile_err(err, -EINVAL, name, "layout.paths",
					 "%d paths for %d directories (at most "
					 "%d)",
					 prof->layout.npaths,
					 prof->layout.directories,
					 IOSIM_PROFILE_PATHS_MAX);
	for (d = 0; d < prof->layout.npaths; d++)
		if (!prof->layout.path[d][0] ||
		    strnlen(prof->layout.path[d], IOSIM_PROFILE_PATH_LEN) ==
			    IOSIM_PROFILE_PATH_LEN)
			return iosim_profile_err(
				err, -EINVAL, name, "layout.paths",
				"path %d is empty or too long", d);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		if (prof->layout.placement[r] < -1 ||
		    prof->layout.placement[r] >= prof->layout.directories)
			return iosim_profile_err(
				err, -EINVAL, name,
				iosim_profile_path(sub, sizeof(sub),
						   "layout.placement",
						   iosim_profile_rel_names[r]),
				"directory %d of %d (numbered from 0)",
				prof->layout.placement[r],
				prof->layout.directories);
	return 0;
}

double iosim_profile_reads_per_call(const struct iosim_profile *prof,
				    enum txn_type type,
				    enum iosim_profile_rel rel)
{
	const struct iosim_profile_txn *t = &prof->txn[type];

	return t->calls ? (double)t->shared_blks_read * t->read_share[rel] /
				  (double)t->calls
			: 0;
}

double iosim_profile_dirtied_per_call(const struct iosim_profile *prof,
				      enum txn_type type,
				      enum iosim_profile_rel rel)
{
	const struct iosim_profile_txn *t = &prof->txn[type];

	return t->calls ? (double)t->shared_blks_dirtied *
				  t->dirtied_share[rel] / (double)t->calls
			: 0;
}

double iosim_profile_wal_bytes_per_call(const struct iosim_profile *prof,
					enum txn_type type)
{
	const struct iosim_profile_txn *t = &prof->txn[type];

	return t->calls ? (double)t->wal_bytes / (double)t->calls : 0;
}

double iosim_profile_per_commit(const struct iosim_profile *prof, double per_s)
{
	if (prof->mix_commits <= 0 || isnan(per_s))
		return NAN;
	return per_s * prof->duration_s / (double)prof->mix_commits;
}

int64_t iosim_profile_total_pages(const struct iosim_profile *prof)
{
	int64_t sum = 0;
	int r;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		sum += prof->rel[r].pages;
	return sum;
}
