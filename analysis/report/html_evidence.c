/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_evidence.c - the system evidence of report.html (html_evidence.h),
 * hook by hook: a table where a parser exists, the first lines
 * otherwise, the skip reason when the hook could not run. Evidence is
 * read here, not passed in: a broken sys/ file costs its own part,
 * never the report.
 */
#include "analysis/report/html_evidence.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/common/evsource.h"
#include "analysis/parsers/parse_diskstats.h"
#include "analysis/parsers/parse_interrupts.h"
#include "analysis/parsers/parse_iostat.h"
#include "analysis/parsers/parse_lockstat.h"
#include "analysis/parsers/parse_perf.h"
#include "analysis/parsers/parse_pgstats.h"
#include "analysis/parsers/parse_readprofile.h"
#include "analysis/parsers/parse_vmstat.h"
#include "analysis/report/devices.h"

/*
 * The hooks, their titles and the files they leave are the rows of
 * run/hooks.tsv (analysis/common/evsource.h), in its order. A hook may
 * have a row of ev_views[] below: how its files are read (read(),
 * filling a struct of size bytes, which release() frees) and shown
 * (show()); a view without a parser (size 0) has show() read the files
 * itself, and a hook without a view has the first lines of each of its
 * files shown. html_evidence_section() does the rest for every hook
 * alike: the skip reason, "no output", the note when read() fails, the
 * problems the hook reported.
 */

/* Mean of a vmstat column over the window (or all samples). */
static double vmstat_window_mean(const struct html_ctx *c,
				 const struct vmstat_series *vs, int col,
				 bool aligned)
{
	const struct summary *s = c->in->sum;
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < vs->nsamples; i++) {
		double v = parse_vmstat_value(vs, i, col);

		if (aligned) {
			double x = (double)vs->time_s[i] - c->start_epoch_s;

			if (x < s->start_ms / 1000.0 || x >= s->end_ms / 1000.0)
				continue;
		}
		if (isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

static int read_vmstat(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];

	html_ctx_sys_path(c, "vmstat.txt", path, sizeof(path));
	return parse_vmstat_file(path, data, err);
}

static void release_vmstat(void *data)
{
	parse_vmstat_free(data);
}

static void show_vmstat(struct html_ctx *c, const void *data)
{
	static const char *const cols[] = {"r",	 "b",	 "in", "cs", "us",
					   "sy", "id",	 "wa", "st", "bi",
					   "bo", "free", "si", "so"};
	const struct vmstat_series *vs = data;
	bool aligned = vs->has_time && isfinite(c->start_epoch_s);
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Means over %s (%zu samples in the file).</p>\n"
		"<table>\n<tr>",
		aligned ? "the measured window" : "the whole file",
		vs->nsamples);
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (parse_vmstat_column(vs, cols[i]) >= 0)
			fprintf(f, "<th>%s</th>", cols[i]);
	fputs("</tr>\n<tr>", f);
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		int k = parse_vmstat_column(vs, cols[i]);

		if (k >= 0)
			html_ctx_td_num(
				f, vmstat_window_mean(c, vs, k, aligned), 1);
	}
	fputs("</tr>\n</table>\n", f);
}

/* iostat.json, or iostat.txt when only that one is there. */
static int read_iostat(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];

	if (!html_ctx_sys_exists(c, "iostat.json") &&
	    html_ctx_sys_exists(c, "iostat.txt"))
		html_ctx_sys_path(c, "iostat.txt", path, sizeof(path));
	else
		html_ctx_sys_path(c, "iostat.json", path, sizeof(path));
	return parse_iostat_file(path, data, err);
}

static void release_iostat(void *data)
{
	parse_iostat_free(data);
}

static void show_iostat(struct html_ctx *c, const void *data)
{
	const struct summary *s = c->in->sum;
	const struct iostat_data *io = data;
	bool aligned = io->has_time && isfinite(c->start_epoch_s);
	size_t d, i;
	FILE *f = c->f;
	int shown = 0;

	fprintf(f,
		"<p>Means over %s, devices with I/O.</p>\n<table>\n"
		"<tr><th class=\"l\">device</th><th>r/s</th><th>w/s</th>"
		"<th>rkB/s</th><th>wkB/s</th><th>await ms</th>"
		"<th>aqu-sz</th><th>util %%</th></tr>\n",
		aligned ? "the measured window" : "the whole file");
	for (d = 0; d < io->ndevices; d++) {
		const struct iostat_device *dv = &io->devices[d];
		double m[7] = {0};
		size_t n = 0;

		for (i = 0; i < dv->nsamples; i++) {
			const struct iostat_sample *sm = &dv->samples[i];
			double x = (double)sm->time_s - c->start_epoch_s;

			if (aligned && (x < s->start_ms / 1000.0 ||
					x >= s->end_ms / 1000.0))
				continue;
			m[0] += isfinite(sm->r_s) ? sm->r_s : 0;
			m[1] += isfinite(sm->w_s) ? sm->w_s : 0;
			m[2] += isfinite(sm->rkb_s) ? sm->rkb_s : 0;
			m[3] += isfinite(sm->wkb_s) ? sm->wkb_s : 0;
			m[4] += isfinite(sm->await_ms) ? sm->await_ms : 0;
			m[5] += isfinite(sm->aqu_sz) ? sm->aqu_sz : 0;
			m[6] += isfinite(sm->util_pct) ? sm->util_pct : 0;
			n++;
		}
		if (n == 0 || m[0] + m[1] <= 0)
			continue;
		fputs("<tr>", f);
		html_ctx_td_text(f, dv->name);
		for (i = 0; i < 7; i++)
			html_ctx_td_num(f, m[i] / (double)n, 2);
		fputs("</tr>\n", f);
		shown++;
	}
	fputs("</table>\n", f);
	if (!shown)
		html_ctx_note(f, "sub", "No device did any I/O.");
}

/* The interrupts hook's two snapshots and what changed between them. */
struct ev_interrupts {
	struct irq_snapshot start, stop; /* interrupts.start, .stop */
	struct irq_delta delta;		 /* stop - start, sorted by total */
	double span_s;			 /* seconds apart, NAN unknown */
};

static int read_interrupts(struct html_ctx *c, void *data, struct err *err)
{
	struct ev_interrupts *v = data;
	char pa[PATH_MAX], pb[PATH_MAX];
	int rc;

	html_ctx_sys_path(c, "interrupts.start", pa, sizeof(pa));
	html_ctx_sys_path(c, "interrupts.stop", pb, sizeof(pb));
	rc = parse_interrupts_file(pa, &v->start, err);
	if (rc == 0)
		rc = parse_interrupts_file(pb, &v->stop, err);
	if (rc == 0)
		rc = parse_interrupts_delta(&v->start, &v->stop, &v->delta,
					    err);
	if (rc < 0)
		return rc;
	parse_interrupts_delta_sort(&v->delta);
	v->span_s = html_ctx_mtime_span_s(pa, pb);
	return 0;
}

static void release_interrupts(void *data)
{
	struct ev_interrupts *v = data;

	parse_interrupts_delta_free(&v->delta);
	parse_interrupts_free(&v->start);
	parse_interrupts_free(&v->stop);
}

static void show_interrupts(struct html_ctx *c, const void *data)
{
	const struct ev_interrupts *v = data;
	const struct irq_delta *d = &v->delta;
	size_t i;
	FILE *f = c->f;

	fprintf(f, "<p>Interrupts between the start and stop snapshots");
	if (isfinite(v->span_s))
		fprintf(f, " (%.1f s apart)", v->span_s);
	else
		fprintf(f, " (their times are unknown: no rates)");
	fprintf(f,
		", top %d.</p>\n<table>\n<tr><th class=\"l\">source</th>"
		"<th>count</th><th>per second</th></tr>\n",
		HTML_TOP);
	for (i = 0; i < d->n && i < HTML_TOP; i++) {
		fputs("<tr>", f);
		html_ctx_td_text(f, d->entries[i].name);
		html_ctx_td_u64(f, d->entries[i].total);
		html_ctx_td_num(f, (double)d->entries[i].total / v->span_s, 1);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The diskstats hook's two snapshots and what changed between them. */
struct ev_diskstats {
	struct diskstats_snapshot start, stop; /* diskstats.start, .stop */
	struct diskstats_delta delta;	       /* stop - start */
	double span_s;			       /* seconds apart, NAN unknown */
};

static int read_diskstats(struct html_ctx *c, void *data, struct err *err)
{
	struct ev_diskstats *v = data;
	char pa[PATH_MAX], pb[PATH_MAX];
	int rc;

	html_ctx_sys_path(c, "diskstats.start", pa, sizeof(pa));
	html_ctx_sys_path(c, "diskstats.stop", pb, sizeof(pb));
	rc = parse_diskstats_file(pa, &v->start, err);
	if (rc == 0)
		rc = parse_diskstats_file(pb, &v->stop, err);
	if (rc == 0)
		rc = parse_diskstats_delta(&v->start, &v->stop, &v->delta, err);
	if (rc < 0)
		return rc;
	v->span_s = html_ctx_mtime_span_s(pa, pb);
	return 0;
}

static void release_diskstats(void *data)
{
	struct ev_diskstats *v = data;

	parse_diskstats_delta_free(&v->delta);
	parse_diskstats_free(&v->start);
	parse_diskstats_free(&v->stop);
}

/* Deltas without rates, when the snapshots' times are unknown. */
static void diskstats_counts(struct html_ctx *c,
			     const struct diskstats_delta *d)
{
	FILE *f = c->f;
	size_t i;

	fputs("<p>Changes between the start and stop snapshots, devices "
	      "with I/O (the snapshots' times are unknown: no rates).</p>\n"
	      "<table>\n<tr><th class=\"l\">device</th><th>reads</th>"
	      "<th>writes</th><th>kB read</th><th>kB written</th>"
	      "<th>busy ms</th></tr>\n",
	      f);
	for (i = 0; i < d->ndevs; i++) {
		const struct diskstats_delta_dev *dv = &d->devs[i];

		if (dv->v[DS_READS] + dv->v[DS_WRITES] == 0)
			continue;
		fputs("<tr>", f);
		html_ctx_td_text(f, dv->name);
		html_ctx_td_u64(f, dv->v[DS_READS]);
		html_ctx_td_u64(f, dv->v[DS_WRITES]);
		html_ctx_td_u64(f, dv->v[DS_SECTORS_READ] *
					   DISKSTATS_SECTOR_BYTES / 1024);
		html_ctx_td_u64(f, dv->v[DS_SECTORS_WRITTEN] *
					   DISKSTATS_SECTOR_BYTES / 1024);
		html_ctx_td_u64(f, dv->v[DS_IO_TICKS_MS]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void show_diskstats(struct html_ctx *c, const void *data)
{
	const struct ev_diskstats *v = data;
	const struct diskstats_delta *d = &v->delta;
	size_t i;
	FILE *f = c->f;
	int shown = 0;

	if (!isfinite(v->span_s)) {
		diskstats_counts(c, d);
		return;
	}
	fprintf(f,
		"<p>Rates between the start and stop snapshots (%.1f s "
		"apart), devices with I/O.</p>\n<table>\n"
		"<tr><th class=\"l\">device</th><th>r/s</th><th>w/s</th>"
		"<th>rkB/s</th><th>wkB/s</th><th>r_await ms</th>"
		"<th>w_await ms</th><th>aqu-sz</th><th>util %%</th></tr>\n",
		v->span_s);
	for (i = 0; i < d->ndevs; i++) {
		struct diskstats_rates r;

		if (d->devs[i].v[DS_READS] + d->devs[i].v[DS_WRITES] == 0 ||
		    parse_diskstats_rates(&d->devs[i], v->span_s, &r, NULL) < 0)
			continue;
		fputs("<tr>", f);
		html_ctx_td_text(f, d->devs[i].name);
		html_ctx_td_num(f, r.r_s, 2);
		html_ctx_td_num(f, r.w_s, 2);
		html_ctx_td_num(f, r.rkb_s, 1);
		html_ctx_td_num(f, r.wkb_s, 1);
		html_ctx_td_num(f, r.r_await_ms, 2);
		html_ctx_td_num(f, r.w_await_ms, 2);
		html_ctx_td_num(f, r.aqu_sz, 2);
		html_ctx_td_num(f, r.util_pct, 1);
		fputs("</tr>\n", f);
		shown++;
	}
	fputs("</table>\n", f);
	if (!shown)
		html_ctx_note(f, "sub", "No device did any I/O.");
}

static int read_readprofile(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	html_ctx_sys_path(c, "readprofile.txt", path, sizeof(path));
	rc = parse_readprofile_file(path, data, err);
	if (rc == 0)
		parse_readprofile_sort_by_ticks(data);
	return rc;
}

static void release_readprofile(void *data)
{
	parse_readprofile_free(data);
}

static void show_readprofile(struct html_ctx *c, const void *data)
{
	const struct rprof_profile *p = data;
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Top %d kernel functions by profile ticks (%llu "
		"ticks in all).</p>\n<table>\n<tr><th>ticks</th>"
		"<th>%% of total</th><th class=\"l\">function</th>"
		"<th>load</th></tr>\n",
		HTML_TOP, (unsigned long long)p->total_ticks);
	for (i = 0; i < p->n && i < HTML_TOP; i++) {
		fputs("<tr>", f);
		html_ctx_td_u64(f, p->entries[i].ticks);
		html_ctx_td_num(f,
				p->total_ticks
					? 100.0 * (double)p->entries[i].ticks /
						  (double)p->total_ticks
					: NAN,
				2);
		html_ctx_td_text(f, p->entries[i].name);
		html_ctx_td_num(f, p->entries[i].load, 4);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int read_lockstat(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	html_ctx_sys_path(c, "lock_stat.txt", path, sizeof(path));
	rc = parse_lockstat_file(path, data, err);
	if (rc == 0)
		parse_lockstat_sort(data, LS_CONTENTIONS);
	return rc;
}

static void release_lockstat(void *data)
{
	parse_lockstat_free(data);
}

static void lock_row(FILE *f, const struct lockstat_class *k)
{
	static const char *const kinds[] = {"", "-W", "-R"};
	char name[300];

	snprintf(name, sizeof(name), "%s%s", k->name, kinds[k->kind]);
	fprintf(f, "<tr%s>", k->is_storage_lock ? " class=\"storage\"" : "");
	html_ctx_td_text(f, name);
	html_ctx_td_num(f, k->v[LS_CONTENTIONS], 0);
	html_ctx_td_num(f, k->v[LS_WAITTIME_TOTAL], 2);
	html_ctx_td_num(f, k->v[LS_WAITTIME_MAX], 2);
	html_ctx_td_num(f, k->v[LS_ACQUISITIONS], 0);
	html_ctx_td_num(f, k->v[LS_HOLDTIME_TOTAL], 2);
	fputs("</tr>\n", f);
}

static void show_lockstat(struct html_ctx *c, const void *data)
{
	const struct lockstat_data *d = data;
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Top %d lock classes by contentions; the storage locks "
		"(SCSI host lock, block queue locks) are highlighted and "
		"always listed. Times in &micro;s.</p>\n<table>\n"
		"<tr><th class=\"l\">class</th><th>contentions</th>"
		"<th>wait total</th><th>wait max</th>"
		"<th>acquisitions</th><th>hold total</th></tr>\n",
		HTML_TOP);
	for (i = 0; i < d->n; i++)
		if (i < HTML_TOP || d->classes[i].is_storage_lock)
			lock_row(f, &d->classes[i]);
	fputs("</table>\n", f);
}

/* The first HTML_RAW_LINES lines of sys/file, what introducing them. */
static void ev_raw(struct html_ctx *c, const char *file, const char *what)
{
	char path[PATH_MAX];

	html_ctx_sys_path(c, file, path, sizeof(path));
	fprintf(c->f,
		"<p>%s: the first %d lines of <a href=\"sys/%s\">"
		"sys/%s</a>.</p>\n",
		what, HTML_RAW_LINES, file, file);
	html_ctx_pre_file(c, path, HTML_RAW_LINES, "#");
}

static int read_perf(struct html_ctx *c, void *data, struct err *err)
{
	char path[PATH_MAX];
	int rc;

	html_ctx_sys_path(c, "perf-report.txt", path, sizeof(path));
	rc = parse_perf_file(path, data, err);
	if (rc == 0)
		parse_perf_sort(data);
	return rc;
}

static void release_perf(void *data)
{
	parse_perf_free(data);
}

static void show_perf(struct html_ctx *c, const void *data)
{
	const struct perf_report *r = data;
	size_t i;
	FILE *f = c->f;

	fprintf(f,
		"<p>Top %d symbols by share of the samples ([k] kernel, [.] "
		"user space), from <a href=\"sys/perf-report.txt\">"
		"sys/perf-report.txt</a>.</p>\n<table>\n<tr><th>overhead "
		"%%</th><th class=\"l\">shared object</th><th "
		"class=\"l\"></th><th class=\"l\">symbol</th></tr>\n",
		HTML_TOP);
	for (i = 0; i < r->n && i < HTML_TOP; i++) {
		char marker[4] = {'[', r->entries[i].marker, ']', '\0'};

		fputs("<tr>", f);
		html_ctx_td_num(f, r->entries[i].overhead_pct, 2);
		html_ctx_td_text(f, r->entries[i].dso);
		html_ctx_td_text(f, marker);
		html_ctx_td_text(f, r->entries[i].symbol);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* perf lock contention has no parser for the page: its first lines. */
static void show_perf_lock(struct html_ctx *c, const void *data)
{
	(void)data;
	ev_raw(c, "perf-lock.txt", "perf lock contention");
}

static void show_sysinfo(struct html_ctx *c, const void *data)
{
	char path[PATH_MAX];

	(void)data;
	html_ctx_sys_path(c, "sysinfo.txt", path, sizeof(path));
	fputs("<details><summary>sys/sysinfo.txt</summary>\n", c->f);
	html_ctx_pre_file(c, path, 0, NULL);
	fputs("</details>\n", c->f);
}

static void ev_wait_events(struct html_ctx *c)
{
	struct pgstats_waits w;
	char path[PATH_MAX];
	struct err err;
	size_t i;
	FILE *f = c->f;

	html_ctx_sys_path(c, "pg_wait_events.csv", path, sizeof(path));
	err_clear(&err);
	if (parse_pgstats_waits_file(path, &w, &err) < 0) {
		html_ctx_note(f, "unk", "pg_wait_events.csv does not parse: %s",
			      err.msg);
		return;
	}
	if (w.samples == 0) {
		html_ctx_note(f, "sub", "pg_wait_events.csv holds no sample.");
		parse_pgstats_waits_free(&w);
		return;
	}
	parse_pgstats_waits_sort(&w);
	fprintf(f,
		"<p>Server sessions by wait event, mean over %zu samples "
		"(an empty wait event with state active is running on "
		"CPU).</p>\n<table>\n<tr><th class=\"l\">wait type / "
		"event / state</th><th>mean sessions</th></tr>\n",
		w.samples);
	for (i = 0; i < w.n && i < HTML_TOP; i++) {
		const struct pgstats_wait *e = &w.v[i];
		char key[512];

		snprintf(key, sizeof(key), "%s / %s / %s",
			 e->type[0] ? e->type : "(none)",
			 e->event[0] ? e->event : "(none)",
			 e->state[0] ? e->state : "(none)");
		fputs("<tr>", f);
		html_ctx_td_text(f, key);
		html_ctx_td_num(f, e->sessions / (double)w.samples, 2);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	/* One cut last line is how a stopped psql leaves the file. */
	if (w.bad_lines > 1)
		html_ctx_note(
			f, "sub",
			"%zu lines of pg_wait_events.csv could not be read.",
			w.bad_lines);
	parse_pgstats_waits_free(&w);
}

/* Start, stop and change of the numeric columns of a snapshot pair. */
static void ev_snapshot_pair(struct html_ctx *c, const char *view)
{
	struct pgstats_snapshot a, b;
	char pa[PATH_MAX], pb[PATH_MAX], name[96];
	struct err err;
	size_t i;
	FILE *f = c->f;

	snprintf(name, sizeof(name), "%s.start.csv", view);
	html_ctx_sys_path(c, name, pa, sizeof(pa));
	snprintf(name, sizeof(name), "%s.stop.csv", view);
	html_ctx_sys_path(c, name, pb, sizeof(pb));
	if (access(pa, F_OK) != 0 && access(pb, F_OK) != 0)
		return;
	fputs("<h4>", f);
	html_page_escape(f, view);
	fputs("</h4>\n", f);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	err_clear(&err);
	if (parse_pgstats_snapshot_file(pa, &a, &err) < 0 ||
	    parse_pgstats_snapshot_file(pb, &b, &err) < 0) {
		html_ctx_note(f, "unk", "%s not shown: %s", view, err.msg);
		goto out;
	}
	fputs("<table>\n<tr><th class=\"l\">column</th><th>start</th>"
	      "<th>stop</th><th>change</th></tr>\n",
	      f);
	for (i = 0; i < a.ncols; i++) {
		double va, vb;

		if (!parse_pgstats_snapshot_value(&a, (int)i, &va) ||
		    !parse_pgstats_snapshot_value(
			    &b, parse_pgstats_snapshot_column(&b, a.names[i]),
			    &vb))
			continue;
		fputs("<tr>", f);
		html_ctx_td_text(f, a.names[i]);
		html_ctx_td_num(f, va, 0);
		html_ctx_td_num(f, vb, 0);
		html_ctx_td_num(f, vb - va, 0);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
out:
	parse_pgstats_snapshot_free(&a);
	parse_pgstats_snapshot_free(&b);
}

/*
 * pg-stats leaves up to seven files read two ways; each part is shown,
 * or its problem noted, on its own.
 */
static void show_pgstats(struct html_ctx *c, const void *data)
{
	(void)data;
	if (html_ctx_sys_exists(c, "pg_wait_events.csv"))
		ev_wait_events(c);
	ev_snapshot_pair(c, "pg_stat_database");
	ev_snapshot_pair(c, "pg_stat_bgwriter");
	ev_snapshot_pair(c, "pg_stat_wal");
}

/* The devices under the database, from meta.json and sys/ (devices.h). */
static int read_devices(struct html_ctx *c, void *data, struct err *err)
{
	return devices_read(c->in->run_dir, c->in->meta, c->in->sum, data, err);
}

static void release_devices(void *data)
{
	dbdevices_free(data);
}

static void show_devices(struct html_ctx *c, const void *data)
{
	devices_write_html(c->f, data);
}

/*
 * How report.html reads and shows a hook's files, beyond their first
 * lines. The hooks, their titles and files are run/hooks.tsv
 * (evsource.h); a hook without a row here has its files' first lines
 * shown. A view with hook NULL is made of several hooks' files: it
 * comes after the hook named by after, always shown.
 */
struct ev_view {
	const char *hook;  /* the row of run/hooks.tsv; NULL: see after */
	const char *after; /* with hook NULL: shown after this hook */
	const char *title; /* with hook NULL: section title */
	const char *from;  /* with hook NULL: what it is made of */
	size_t size;	   /* bytes read() fills; 0: no parser */
	/* parse the hook's files into data (zeroed, size bytes) */
	int (*read)(struct html_ctx *c, void *data, struct err *err);
	void (*release)(void *data); /* free what read() left in data */
	const char *fail;	     /* note when read() fails: "FAIL: why" */
	const char *raw_file;	     /* also shown raw when read() fails */
	const char *raw_what;	     /* ... introduced as this */
	/* the section body: what read() filled (NULL when size is 0) */
	void (*show)(struct html_ctx *c, const void *data);
};

static const struct ev_view ev_views[] = {
	{.hook = "sysinfo", .show = show_sysinfo},
	{.hook = "vmstat",
	 .size = sizeof(struct vmstat_series),
	 .read = read_vmstat,
	 .release = release_vmstat,
	 .fail = "vmstat.txt does not parse",
	 .show = show_vmstat},
	{.hook = "iostat",
	 .size = sizeof(struct iostat_data),
	 .read = read_iostat,
	 .release = release_iostat,
	 .fail = "iostat output does not parse",
	 .show = show_iostat},
	{.hook = "interrupts",
	 .size = sizeof(struct ev_interrupts),
	 .read = read_interrupts,
	 .release = release_interrupts,
	 .fail = "interrupts not shown",
	 .show = show_interrupts},
	{.hook = "diskstats",
	 .size = sizeof(struct ev_diskstats),
	 .read = read_diskstats,
	 .release = release_diskstats,
	 .fail = "diskstats not shown",
	 .show = show_diskstats},
	{.after = "diskstats",
	 .title = "Devices under the database",
	 .from = "meta.json server.layout, iostat, diskstats",
	 .size = sizeof(struct dbdevices),
	 .read = read_devices,
	 .release = release_devices,
	 .fail = "devices not shown",
	 .show = show_devices},
	{.hook = "pg-stats", .show = show_pgstats},
	{.hook = "readprofile",
	 .size = sizeof(struct rprof_profile),
	 .read = read_readprofile,
	 .release = release_readprofile,
	 .fail = "readprofile.txt does not parse",
	 .show = show_readprofile},
	{.hook = "lockstat",
	 .size = sizeof(struct lockstat_data),
	 .read = read_lockstat,
	 .release = release_lockstat,
	 .fail = "lock_stat.txt does not parse",
	 .show = show_lockstat},
	{.hook = "perf-profile",
	 .size = sizeof(struct perf_report),
	 .read = read_perf,
	 .release = release_perf,
	 .fail = "perf-report.txt does not parse",
	 .raw_file = "perf-report.txt",
	 .raw_what = "perf report by symbol",
	 .show = show_perf},
	{.hook = "perf-lock", .show = show_perf_lock},
};

/* Read a hook's files with its parser and show them, or say why not. */
static void ev_show(struct html_ctx *c, const struct ev_view *h)
{
	struct err err;
	void *data;

	if (!h->size) {
		h->show(c, NULL);
		return;
	}
	data = calloc(1, h->size);
	if (!data) {
		html_ctx_note(c->f, "unk", "%s: out of memory", h->fail);
		return;
	}
	err_clear(&err);
	if (h->read(c, data, &err) < 0) {
		html_ctx_note(c->f, "unk", "%s: %s", h->fail, err.msg);
		if (h->raw_file)
			ev_raw(c, h->raw_file, h->raw_what);
	} else {
		h->show(c, data);
	}
	h->release(data);
	free(data);
}

/* The first line of a small file (a skip reason), "" if unreadable. */
static void first_line(const char *path, char *out, size_t size)
{
	FILE *in = fopen(path, "r");

	out[0] = '\0';
	if (!in)
		return;
	if (fgets(out, (int)size, in))
		out[strcspn(out, "\r\n")] = '\0';
	fclose(in);
}

#define EV_NVIEWS (sizeof(ev_views) / sizeof(ev_views[0]))

/* The view of hook, or NULL: its files' first lines are shown. */
static const struct ev_view *view_of(const char *hook)
{
	size_t i;

	for (i = 0; i < EV_NVIEWS; i++)
		if (ev_views[i].hook && strcmp(ev_views[i].hook, hook) == 0)
			return &ev_views[i];
	return NULL;
}

/* A hook without a view: the first lines of each file it left. */
static void ev_files(struct html_ctx *c, const struct evsource *s)
{
	size_t k;

	for (k = 0; s->files[k]; k++)
		if (html_ctx_sys_exists(c, s->files[k]))
			ev_raw(c, s->files[k], "Output");
}

/* One hook's part: skipped, no output, or its files; then its .err. */
static void ev_hook(struct html_ctx *c, const struct evsource *s)
{
	const struct ev_view *v = view_of(s->hook);
	FILE *f = c->f;
	char name[96], path[PATH_MAX], reason[512];
	bool any = false;
	size_t k;

	fprintf(f, "<h3>%s <span class=\"sub\">(hook %s)</span></h3>\n",
		s->title, s->hook);
	snprintf(name, sizeof(name), "%s.skipped", s->hook);
	html_ctx_sys_path(c, name, path, sizeof(path));
	if (access(path, F_OK) == 0) {
		first_line(path, reason, sizeof(reason));
		html_ctx_note(f, "skip", "Skipped: %s",
			      reason[0] ? reason : "(no reason given)");
	} else {
		for (k = 0; s->files[k]; k++)
			if (html_ctx_sys_exists(c, s->files[k]))
				any = true;
		if (!any)
			html_ctx_note(f, "sub",
				      "No output (the hook did "
				      "not run).");
		else if (v)
			ev_show(c, v);
		else
			ev_files(c, s);
	}
	snprintf(name, sizeof(name), "%s.err", s->hook);
	html_ctx_sys_path(c, name, path, sizeof(path));
	if (access(path, F_OK) == 0) {
		fprintf(f,
			"<details><summary>sys/%s: problems the "
			"hook reported</summary>\n",
			name);
		html_ctx_pre_file(c, path, HTML_RAW_LINES, NULL);
		fputs("</details>\n", f);
	}
}

void html_evidence_section(struct html_ctx *c)
{
	const struct evsource *src;
	FILE *f = c->f;
	struct stat st;
	size_t i, k, n;

	fputs("<h2 id=\"evidence\">System evidence</h2>\n", f);
	if (stat(c->sys, &st) < 0 || !S_ISDIR(st.st_mode)) {
		html_ctx_note(f, "skip",
			      "No sys/ directory: the run was made "
			      "without hooks, so there is no system "
			      "evidence.");
		return;
	}
	src = evsource_table(&n);
	for (i = 0; i < n; i++) {
		if (!src[i].title)
			continue;
		ev_hook(c, &src[i]);
		for (k = 0; k < EV_NVIEWS; k++) {
			const struct ev_view *v = &ev_views[k];

			if (v->hook || strcmp(v->after, src[i].hook))
				continue;
			fprintf(f,
				"<h3>%s <span class=\"sub\">(%s)</span></h3>\n",
				v->title, v->from);
			ev_show(c, v);
		}
	}
}

int html_evidence_check(struct err *err)
{
	const struct evsource *s;
	size_t i;

	if (evsource_bad_rows())
		return err_set(err, -EINVAL,
			       "run/hooks.tsv: %zu rows cannot be read",
			       evsource_bad_rows());
	for (i = 0; i < EV_NVIEWS; i++) {
		const char *hook =
			ev_views[i].hook ? ev_views[i].hook : ev_views[i].after;

		s = evsource_find(hook);
		if (!s)
			return err_set(err, -EINVAL,
				       "report.html shows hook %s, which "
				       "run/hooks.tsv does not name",
				       hook);
		if (!s->title)
			return err_set(err, -EINVAL,
				       "report.html shows hook %s, which has "
				       "no title in run/hooks.tsv",
				       hook);
	}
	return 0;
}
