/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devices.c - the per-device table of one run (devices.h), as text for
 * summary.txt and as HTML for report.html. Both show the same columns
 * in the same order, from one table of columns below; a figure that is
 * not known is "-" (text) or a dash (HTML).
 */
#include "analysis/report/devices.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "analysis/common/html_page.h"
#include "analysis/report/plots.h"
#include "src/base/resfile.h"

/* One numeric column of the table. */
static const struct dev_col {
	const char *head; /* header, text and HTML */
	const char *key;  /* summary.json's name */
	size_t off;	  /* the double in struct dbdev */
	int decimals;	  /* decimals printed */
	int width;	  /* text width */
} dev_cols[] = {
	{"r/s", "r_s", offsetof(struct dbdev, r_s), 1, 9},
	{"w/s", "w_s", offsetof(struct dbdev, w_s), 1, 9},
	{"rMB/s", "rmb_s", offsetof(struct dbdev, rmb_s), 2, 8},
	{"wMB/s", "wmb_s", offsetof(struct dbdev, wmb_s), 2, 8},
	{"req KiB", "req_kib", offsetof(struct dbdev, req_kib), 1, 9},
	{"r_await", "r_await_ms", offsetof(struct dbdev, r_await_ms), 2, 9},
	{"w_await", "w_await_ms", offsetof(struct dbdev, w_await_ms), 2, 9},
	{"aqu-sz", "aqu_sz", offsetof(struct dbdev, aqu_sz), 2, 8},
	{"util %", "util_pct", offsetof(struct dbdev, util_pct), 1, 8},
	{"share %", "share_pct", offsetof(struct dbdev, share_pct), 1, 9},
};

#define NCOLS (sizeof(dev_cols) / sizeof(dev_cols[0]))

static double col_value(const struct dbdev *dv, size_t c)
{
	return *(const double *)((const char *)dv + dev_cols[c].off);
}

int devices_read(const char *run_dir, const json_t *meta,
		 const struct summary *s, struct dbdevices *out,
		 struct err *err)
{
	struct dbdev_window w = {
		.start_epoch_s = plots_run_start(meta),
		.start_s = s->start_ms / 1000.0,
		.end_s = s->end_ms == SUM_OPEN_END ? NAN : s->end_ms / 1000.0,
	};

	return dbdevices_read(run_dir, meta, &w, out, err);
}

int devices_write_text(const char *run_dir, const json_t *meta,
		       const struct summary *s, FILE *f, struct err *err)
{
	struct dbdevices d;
	size_t i, c;
	int k, rc;

	rc = devices_read(run_dir, meta, s, &d, err);
	if (rc < 0 || !d.layout_known) {
		dbdevices_free(&d);
		return rc;
	}
	fputs("\nDevices under the database (meta.json server.layout; "
	      "iostat over the measured window, else diskstats)\n",
	      f);
	if (d.n) {
		fprintf(f, "  %-10s %-5s", "device", "role");
		for (c = 0; c < NCOLS; c++)
			fprintf(f, "%*s", dev_cols[c].width, dev_cols[c].head);
		fputs("  from                 holds\n", f);
	}
	for (i = 0; i < d.n; i++) {
		const struct dbdev *dv = &d.devs[i];

		fprintf(f, "  %-10s %-5s", dv->name,
			dbdevices_role_name(dv->roles));
		for (c = 0; c < NCOLS; c++) {
			double v = col_value(dv, c);

			if (isfinite(v))
				fprintf(f, "%*.*f", dev_cols[c].width,
					dev_cols[c].decimals, v);
			else
				fprintf(f, "%*s", dev_cols[c].width, "-");
		}
		fprintf(f, "  %-20s %s\n", dbdevices_source_name(dv->source),
			dv->holds);
	}
	for (k = 0; k < d.nnotes; k++)
		fprintf(f, "  - %s\n", d.notes[k]);
	dbdevices_free(&d);
	return 0;
}

json_t *devices_json(const struct dbdevices *d)
{
	json_t *o, *devs, *notes, *dev;
	bool oom = false;
	size_t i, c;
	int k;

	if (!d->layout_known)
		return NULL;
	o = json_object();
	devs = json_array();
	notes = json_array();
	if (!o || !devs || !notes) {
		json_decref(o);
		json_decref(devs);
		json_decref(notes);
		return NULL;
	}
	json_object_set_new(o, "devices", devs);
	json_object_set_new(o, "notes", notes);
	for (i = 0; i < d->n && !oom; i++) {
		const struct dbdev *dv = &d->devs[i];

		dev = json_object();
		oom |= !dev || json_array_append_new(devs, dev) < 0;
		if (oom)
			break;
		oom |= json_object_set_new(dev, "name", json_string(dv->name));
		oom |= json_object_set_new(dev, "dm_name",
					   dv->dm_name[0]
						   ? json_string(dv->dm_name)
						   : json_null());
		oom |= json_object_set_new(
			dev, "role",
			json_string(dbdevices_role_name(dv->roles)));
		oom |= json_object_set_new(dev, "holds",
					   json_string(dv->holds));
		oom |= json_object_set_new(
			dev, "from",
			json_string(dbdevices_source_name(dv->source)));
		for (c = 0; c < NCOLS; c++)
			oom |= json_object_set_new(
				dev, dev_cols[c].key,
				resfile_real(col_value(dv, c),
					     dev_cols[c].decimals + 1));
	}
	for (k = 0; k < d->nnotes && !oom; k++)
		oom |= json_array_append_new(notes, json_string(d->notes[k])) <
		       0;
	if (oom) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void devices_write_html(FILE *f, const struct dbdevices *d)
{
	size_t i, c;
	int k;

	if (!d->layout_known) {
		fputs("<p class=\"sub\">meta.json records no server.layout "
		      "(an older run, or a driver without one): which "
		      "devices hold the database is unknown; the iostat and "
		      "diskstats sections show every device.</p>\n",
		      f);
		return;
	}
	if (d->n) {
		fputs("<table>\n<tr><th class=\"l\">device</th>"
		      "<th class=\"l\">role</th>",
		      f);
		for (c = 0; c < NCOLS; c++)
			fprintf(f, "<th>%s</th>", dev_cols[c].head);
		fputs("<th class=\"l\">from</th><th class=\"l\">holds</th>"
		      "</tr>\n",
		      f);
	}
	for (i = 0; i < d->n; i++) {
		const struct dbdev *dv = &d->devs[i];

		fputs("<tr><td class=\"l\">", f);
		html_page_escape(f, dv->name);
		fprintf(f, "</td><td class=\"l\">%s</td>",
			dbdevices_role_name(dv->roles));
		for (c = 0; c < NCOLS; c++) {
			double v = col_value(dv, c);

			if (isfinite(v))
				fprintf(f, "<td>%.*f</td>",
					dev_cols[c].decimals, v);
			else
				fputs("<td>&ndash;</td>", f);
		}
		fprintf(f, "<td class=\"l\">%s</td><td class=\"l\">",
			dbdevices_source_name(dv->source));
		html_page_escape(f, dv->holds);
		fputs("</td></tr>\n", f);
	}
	if (d->n)
		fputs("</table>\n", f);
	for (k = 0; k < d->nnotes; k++) {
		fputs("<p class=\"unk\">", f);
		html_page_escape(f, d->notes[k]);
		fputs("</p>\n", f);
	}
	fputs("<p class=\"sub\">Role: data (a tablespace directory or the "
	      "data directory), WAL (pg_wal, where its link points) or both. "
	      "Rates and await (ms, queueing included, weighted by the "
	      "requests) from iostat over the measured window, else from "
	      "the diskstats snapshots at the hooks' start and stop "
	      "(ramp-up included); req KiB: KiB moved per request; share: "
	      "the device's part of the bytes read and written on the "
	      "database's devices. docs/layout.md, \"Reading the per-device "
	      "tables\".</p>\n",
	      f);
}
