/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_devices.c - the devices under the database, label by label
 * (compare_devices.h).
 *
 * Each scored run is read as report reads it (dbdevices_read(), iostat
 * over the run's measured window); a label's figure for a device is the
 * mean over its runs that have it. The share is the mean of the runs'
 * shares, each run's the device's part of that run's bytes on the
 * database's devices, so a long run weighs no more than a short one.
 */
#include "analysis/compare/compare_devices.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare_doc.h"
#include "analysis/compare/compare_out.h"
#include "src/base/resfile.h"

/* A figure: where it is in struct dbdev, its heads and its decimals. */
static const struct cdev_fig_desc {
	size_t off;	  /* the double in struct dbdev */
	const char *head; /* column head in the tables */
	const char *key;  /* compare.json key */
	int decimals;	  /* decimals in the tables */
} figs[CDEV_FIG_NR] = {
	[CDEV_R_S] = {offsetof(struct dbdev, r_s), "r/s", "r_s", 1},
	[CDEV_W_S] = {offsetof(struct dbdev, w_s), "w/s", "w_s", 1},
	[CDEV_RMB_S] = {offsetof(struct dbdev, rmb_s), "rMB/s", "read_mb_s", 2},
	[CDEV_WMB_S] = {offsetof(struct dbdev, wmb_s), "wMB/s", "write_mb_s",
			2},
	[CDEV_REQ_KIB] = {offsetof(struct dbdev, req_kib), "Req KiB",
			  "request_kib", 1},
	[CDEV_R_AWAIT] = {offsetof(struct dbdev, r_await_ms), "r_await",
			  "r_await_ms", 2},
	[CDEV_W_AWAIT] = {offsetof(struct dbdev, w_await_ms), "w_await",
			  "w_await_ms", 2},
	[CDEV_AQU_SZ] = {offsetof(struct dbdev, aqu_sz), "aqu-sz", "aqu_sz", 2},
	[CDEV_UTIL] = {offsetof(struct dbdev, util_pct), "Util %", "util_pct",
		       1},
	[CDEV_SHARE] = {offsetof(struct dbdev, share_pct), "Share %",
			"share_pct", 1},
};

static double dev_fig(const struct dbdev *dv, size_t k)
{
	return *(const double *)((const char *)dv + figs[k].off);
}

static int remark(struct cdevices *d, const char *dir, const char *text)
{
	struct runset_problem *grown;

	grown = realloc(d->remarks, (d->nremarks + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	d->remarks = grown;
	grown[d->nremarks].dir = strdup(dir);
	grown[d->nremarks].reason = strdup(text);
	if (!grown[d->nremarks].dir || !grown[d->nremarks].reason) {
		free(grown[d->nremarks].dir);
		free(grown[d->nremarks].reason);
		return -ENOMEM;
	}
	d->nremarks++;
	return 0;
}

/*
 * The row of device name for label and config; rows of one label and
 * config are contiguous from first. NULL when out of memory.
 */
static struct cdev_row *row_for(struct cdevices *d, size_t first,
				const char *label, const char *config,
				const char *name)
{
	struct cdev_row *row;
	size_t i;

	for (i = first; i < d->n; i++)
		if (strcmp(d->rows[i].name, name) == 0)
			return &d->rows[i];
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		struct cdev_row *grown = realloc(d->rows, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		d->rows = grown;
		d->cap = cap;
	}
	row = &d->rows[d->n++];
	memset(row, 0, sizeof(*row));
	row->label = label;
	row->config = config;
	snprintf(row->name, sizeof(row->name), "%s", name);
	return row;
}

/* Add one run's devices to the rows of its label from first on. */
static int add_run(struct cdevices *d, size_t first,
		   const struct runset_run *run, const struct dbdevices *dd)
{
	size_t i, k;

	for (i = 0; i < dd->n; i++) {
		const struct dbdev *dv = &dd->devs[i];
		struct cdev_row *row =
			row_for(d, first, run->label, run->config, dv->name);

		if (!row)
			return -ENOMEM;
		row->roles |= dv->roles;
		if (dv->source == DBDEV_NONE)
			continue;
		row->runs++;
		row->sources |= 1u << dv->source;
		for (k = 0; k < CDEV_FIG_NR; k++) {
			double v = dev_fig(dv, k);

			if (isfinite(v)) {
				row->fig[k] += v;
				row->nfig[k]++;
			}
		}
	}
	return 0;
}

/* One run: its devices added, its notes remarked. 0 or -ENOMEM. */
static int read_run(struct cdevices *d, size_t first,
		    const struct runset_run *run)
{
	struct dbdev_window w = {run->start_epoch_s, run->window_start_s,
				 run->window_end_s};
	struct dbdevices dd = {0};
	struct err err = {""};
	json_t *meta = NULL;
	char path[4096];
	int rc, k;

	if (snprintf(path, sizeof(path), "%s/meta.json", run->dir) >=
	    (int)sizeof(path))
		return 0;
	/* runset_scan() read it already: a failure now is no layout */
	if (resfile_load(path, NULL, &meta, &err) == -ENOMEM)
		return -ENOMEM;
	rc = dbdevices_read(run->dir, meta, &w, &dd, &err);
	if (rc == 0 && dd.layout_known)
		rc = add_run(d, first, run, &dd);
	for (k = 0; rc == 0 && k < dd.nnotes; k++)
		rc = remark(d, run->dir, dd.notes[k]);
	dbdevices_free(&dd);
	json_decref(meta);
	return rc == -ENOMEM ? rc : 0;
}

int compare_devices_build(struct cdevices *out, const struct runset *rs,
			  const struct score_table *t, struct err *err)
{
	size_t c, i, r, k, first;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < t->nconfigs && rc == 0; c++)
		for (i = 0; i < t->nlabels && rc == 0; i++) {
			const char *label = t->labels[score_row_label(t, i)];

			first = out->n;
			for (r = 0; r < rs->nruns && rc == 0; r++) {
				const struct runset_run *run = &rs->runs[r];

				if (run->exclusion == RUNSET_SCORED &&
				    !strcmp(run->label, label) &&
				    !strcmp(run->config, t->configs[c]))
					rc = read_run(out, first, run);
			}
		}
	if (rc < 0)
		return err_set(err, rc, "out of memory");
	for (i = 0; i < out->n; i++)
		for (k = 0; k < CDEV_FIG_NR; k++)
			out->rows[i].fig[k] =
				out->rows[i].nfig[k]
					? out->rows[i].fig[k] /
						  (double)out->rows[i].nfig[k]
					: NAN;
	return 0;
}

size_t compare_devices_busiest(const struct cdevices *d, const char *label,
			       const char *config,
			       const struct cdev_row **busiest)
{
	size_t i, n = 0;

	*busiest = NULL;
	for (i = 0; i < d->n; i++) {
		const struct cdev_row *row = &d->rows[i];

		if (strcmp(row->label, label) || strcmp(row->config, config))
			continue;
		n++;
		if (isfinite(row->fig[CDEV_SHARE]) &&
		    (!*busiest ||
		     row->fig[CDEV_SHARE] > (*busiest)->fig[CDEV_SHARE]))
			*busiest = row;
	}
	return n;
}

/* "iostat", "diskstats", "iostat + diskstats": where a row's runs had
 * their figures from. */
static void sources_text(unsigned sources, char *out, size_t size)
{
	size_t len = 0;
	int s;

	out[0] = '\0';
	/* the window or the whole file: both are iostat's */
	if (sources & (1u << DBDEV_IOSTAT))
		sources &= ~(1u << DBDEV_IOSTAT_ALL);
	for (s = DBDEV_IOSTAT; s < DBDEV_SOURCE_NR && len < size; s++)
		if (sources & (1u << s))
			len += (size_t)snprintf(
				out + len, size - len, "%s%s", len ? " + " : "",
				dbdevices_source_name((enum dbdev_source)s));
}

/* Whether configuration config has a row. */
static bool config_has_rows(const struct cdevices *d, const char *config)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].config, config) == 0)
			return true;
	return false;
}

/* The table of configuration c: every label's rows, baseline first. */
static void devices_table(struct cdoc *d, const struct cout_input *in, size_t c)
{
	const struct cdevices *dv = &in->ev->devices;
	const char *config = in->t->configs[c];
	size_t ncols = 4 + CDEV_FIG_NR + 1, i, k;
	struct cdoc_table *tab = compare_doc_table(
		d, ncols,
		compare_doc_fmt(d, "%s", runset_config_title(config)));

	compare_doc_col(d, tab, 0, "Label", false, 0);
	compare_doc_col(d, tab, 1, "Device", false, 2);
	compare_doc_col(d, tab, 2, "Role", false, 2);
	compare_doc_col(d, tab, 3, "Runs", true, 2);
	for (k = 0; k < CDEV_FIG_NR; k++)
		compare_doc_col(d, tab, 4 + k, figs[k].head, true, 2);
	compare_doc_col(d, tab, ncols - 1, "From", false, 2);
	for (i = 0; i < dv->n; i++) {
		const struct cdev_row *row = &dv->rows[i];
		char from[64];
		size_t r;

		if (strcmp(row->config, config))
			continue;
		r = compare_doc_row(d, tab);
		compare_doc_cell(d, tab, r, 0, "%s", row->label);
		compare_doc_cell(d, tab, r, 1, "%s", row->name);
		compare_doc_cell(d, tab, r, 2, "%s",
				 dbdevices_role_name(row->roles));
		compare_doc_cell(d, tab, r, 3, "%zu", row->runs);
		for (k = 0; k < CDEV_FIG_NR; k++)
			compare_doc_num(d, tab, r, 4 + k, row->fig[k],
					figs[k].decimals);
		sources_text(row->sources, from, sizeof(from));
		compare_doc_cell(d, tab, r, ncols - 1, "%s",
				 from[0] ? from : "none");
	}
}

void compare_devices_content(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t c;

	if (!in->ev->devices.n)
		return;
	compare_doc_heading(d, 2, "Devices under the database");
	for (c = 0; c < t->nconfigs; c++) {
		if (config_has_rows(&in->ev->devices, t->configs[c]))
			devices_table(d, in, c);
		else
			compare_doc_para(
				d,
				"%s: no scored run records the devices "
				"under its database.",
				runset_config_title(t->configs[c]));
	}
	compare_doc_para(
		d,
		"Each device meta.json's server.layout places under the "
		"database, per label: Role: data (a tablespace directory or "
		"the data directory), WAL (pg_wal) or both. Runs: the label's "
		"scored runs with figures for the device; each figure is the "
		"mean over them. r/s, w/s, MB/s (2^20 bytes), Req KiB (KiB per "
		"request), r_await and w_await (ms per request, queueing "
		"included), aqu-sz (requests queued or in service) and Util "
		"%% (time busy) from iostat over each run's measured window, "
		"else from the diskstats snapshots at the hooks' start and "
		"stop (From). Share %%: the device's part of the bytes read "
		"and written on the database's devices, the mean of the runs' "
		"shares. docs/layout.md, \"Reading the per-device tables\".");
}

json_t *compare_devices_json(const struct cout_input *in, bool *oom)
{
	const struct cdevices *dv = &in->ev->devices;
	json_t *arr = json_array();
	size_t i, k;

	if (!arr) {
		*oom = true;
		return NULL;
	}
	for (i = 0; i < dv->n; i++) {
		const struct cdev_row *row = &dv->rows[i];
		json_t *o = json_object();
		char from[64];
		bool bad = !o;

		sources_text(row->sources, from, sizeof(from));
		bad |= json_object_set_new(o, "config",
					   json_string(row->config)) < 0;
		bad |= json_object_set_new(o, "label",
					   json_string(row->label)) < 0;
		bad |= json_object_set_new(o, "device",
					   json_string(row->name)) < 0;
		bad |= json_object_set_new(o, "role",
					   json_string(dbdevices_role_name(
						   row->roles))) < 0;
		bad |= json_object_set_new(
			       o, "runs", json_integer((json_int_t)row->runs)) <
		       0;
		bad |= json_object_set_new(o, "source",
					   from[0] ? json_string(from)
						   : json_null()) < 0;
		for (k = 0; k < CDEV_FIG_NR; k++)
			bad |= json_object_set_new(
				       o, figs[k].key,
				       isfinite(row->fig[k])
					       ? json_real(row->fig[k])
					       : json_null()) < 0;
		if (bad || json_array_append_new(arr, o) < 0)
			*oom = true;
	}
	return arr;
}

void compare_devices_free(struct cdevices *d)
{
	size_t i;

	if (!d)
		return;
	free(d->rows);
	for (i = 0; i < d->nremarks; i++) {
		free(d->remarks[i].dir);
		free(d->remarks[i].reason);
	}
	free(d->remarks);
	memset(d, 0, sizeof(*d));
}
