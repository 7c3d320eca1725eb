/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fidelity.c - an iosim run beside its calibration (fidelity.h).
 *
 * Both sides are per committed transaction over the interval their
 * device counters cover: the calibration's mix (its /proc/diskstats and
 * pg_stat_wal around it, over the commits the engine counted), and the
 * replay's whole run (the diskstats hook's snapshots, taken around
 * `oltpmark run`, over every committed row of mix.csv). The WAL of the
 * replay is the iosim driver's log over run.json's cost window, over
 * the commits it counted in the same window. Devices are matched by
 * name; a device of the calibration that the replay's machine does not
 * have is listed, as is a disk of the replay that did I/O and that the
 * calibration did not record.
 */
#include "analysis/report/fidelity.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/common/html_page.h"
#include "analysis/parsers/parse_diskstats.h"
#include "analysis/report/summary.h"
#include "src/base/resfile.h"

static const char *const fidelity_metric_names[FIDELITY_METRIC_NR] = {
	[FIDELITY_READS] = "reads",
	[FIDELITY_READ_BYTES] = "read_bytes",
	[FIDELITY_WRITES] = "writes",
	[FIDELITY_WRITE_BYTES] = "write_bytes",
};

/* The diskstats fields behind each metric, and their unit in bytes. */
static const struct {
	enum diskstats_field field; /* counter of /proc/diskstats */
	double scale;		    /* to the metric's unit */
} fidelity_metric_src[FIDELITY_METRIC_NR] = {
	[FIDELITY_READS] = {DS_READS, 1},
	[FIDELITY_READ_BYTES] = {DS_SECTORS_READ, DISKSTATS_SECTOR_BYTES},
	[FIDELITY_WRITES] = {DS_WRITES, 1},
	[FIDELITY_WRITE_BYTES] = {DS_SECTORS_WRITTEN, DISKSTATS_SECTOR_BYTES},
};

const char *fidelity_metric_name(enum fidelity_metric m)
{
	return (unsigned)m < FIDELITY_METRIC_NR ? fidelity_metric_names[m]
						: NULL;
}

double fidelity_ratio(double cal, double rep)
{
	if (isnan(cal) || isnan(rep))
		return NAN;
	if (cal == 0)
		return rep == 0 ? NAN : INFINITY;
	return rep / cal;
}

bool fidelity_outside(double ratio, double tolerance)
{
	if (isnan(ratio))
		return false;
	return fabs(ratio - 1) > tolerance;
}

static void set_why(char *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One line into a FIDELITY_WHY_MAX buffer. */
static void set_why(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, FIDELITY_WHY_MAX, fmt, ap);
	va_end(ap);
}

/* Append name to a ", "-separated list of FIDELITY_LIST_MAX bytes. */
static void list_add(char *list, const char *name)
{
	size_t n = strlen(list);

	if (n + strlen(name) + 3 >= FIDELITY_LIST_MAX) {
		if (n + 5 < FIDELITY_LIST_MAX && !strstr(list, "..."))
			strcat(list, ", ...");
		return;
	}
	if (n)
		strcat(list, ", ");
	strcat(list, name);
}

/*
 * The calibration's figures of meta.json server.io_profile.per_commit
 * (drivers/iosim.h, iosim_per_commit_json()). false with out->why set
 * when there are none or they are broken.
 */
static bool read_calibration(const json_t *meta, struct fidelity *out)
{
	const json_t *server = json_object_get(meta, "server");
	const json_t *prof = json_object_get(server, "io_profile");
	const json_t *pc = json_object_get(prof, "per_commit"), *devs, *d;
	const char *name, *sum = resfile_get_string(prof, "checksum");
	int m;

	if (sum)
		snprintf(out->checksum, sizeof(out->checksum), "%s", sum);
	if (!meta) {
		set_why(out->why, "no meta.json: the calibration's figures "
				  "are unknown");
		return false;
	}
	if (!json_is_object(prof)) {
		set_why(out->why, "meta.json has no server.io_profile: the "
				  "calibration's figures are unknown");
		return false;
	}
	if (!pc || json_is_null(pc)) {
		set_why(out->why,
			"the I/O profile holds no figures per transaction of "
			"its calibration (a profile older than "
			"oltpmark-ioprofile/1.1): calibrate again to compare");
		return false;
	}
	out->cal_commits = resfile_get_count(pc, "commits");
	devs = json_object_get(pc, "devices");
	if (!json_is_object(pc) || out->cal_commits < 0 ||
	    !json_is_object(devs)) {
		set_why(out->why,
			"meta.json: server.io_profile.per_commit is not an "
			"object with \"commits\" (a count) and \"devices\"");
		return false;
	}
	if (out->cal_commits == 0) {
		set_why(out->why,
			"the calibration committed no transaction: "
			"there is nothing per transaction to compare");
		return false;
	}
	json_object_foreach((json_t *)devs, name, d)
	{
		struct fidelity_dev *dv;

		/* An empty name matches no disk and cannot be shown. */
		if (out->ndevs == FIDELITY_DEVICES_MAX || !name[0] ||
		    strlen(name) >= FIDELITY_NAME_MAX || !json_is_object(d)) {
			set_why(out->why,
				"meta.json: server.io_profile.per_commit."
				"devices.%.40s: not a device of the profile",
				name);
			return false;
		}
		dv = &out->dev[out->ndevs++];
		snprintf(dv->name, sizeof(dv->name), "%s", name);
		for (m = 0; m < FIDELITY_METRIC_NR; m++) {
			const json_t *v =
				json_object_get(d, fidelity_metric_names[m]);

			dv->cal[m] = resfile_number(v);
			dv->rep[m] = NAN;
			dv->ratio[m] = NAN;
			if (json_is_null(v) ||
			    (isfinite(dv->cal[m]) && dv->cal[m] >= 0))
				continue;
			set_why(out->why,
				"meta.json: server.io_profile.per_commit."
				"devices.%s.%s: not a number >= 0",
				name, fidelity_metric_names[m]);
			return false;
		}
	}
	out->wal_cal = resfile_get_number(pc, "wal_bytes");
	return true;
}

/* Whether name is a partition of another device of the delta. */
static bool is_partition(const struct diskstats_delta *d, const char *name)
{
	size_t i, n;
	const char *p;

	for (i = 0; i < d->ndevs; i++) {
		n = strlen(d->devs[i].name);
		if (strncmp(name, d->devs[i].name, n) != 0 || !name[n])
			continue;
		/* sda1, or nvme0n1p1 and mmcblk0p1 */
		p = name + n + (name[n] == 'p');
		if (*p && strspn(p, "0123456789") == strlen(p))
			return true;
	}
	return false;
}

/* A disk worth naming among the replay's: not a loop or RAM device. */
static bool is_disk(const struct diskstats_delta *d, const char *name)
{
	return strncmp(name, "loop", 4) != 0 && strncmp(name, "ram", 3) != 0 &&
	       !is_partition(d, name);
}

/*
 * The replay's side from sys/diskstats.start and .stop. A missing or
 * broken snapshot leaves devices_known false, with why. Only -ENOMEM
 * fails.
 */
static int read_replay(const char *run_dir, struct fidelity *out,
		       struct err *err)
{
	struct diskstats_snapshot a, b;
	struct diskstats_delta d;
	struct err perr = {""};
	char pa[PATH_MAX], pb[PATH_MAX];
	struct stat st;
	size_t i;
	int k, m, rc;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&d, 0, sizeof(d));
	if (snprintf(pa, sizeof(pa), "%s/sys/diskstats.start", run_dir) >=
		    (int)sizeof(pa) ||
	    snprintf(pb, sizeof(pb), "%s/sys/diskstats.stop", run_dir) >=
		    (int)sizeof(pb)) {
		set_why(out->devices_why, "the run directory's name is too "
					  "long");
		return 0;
	}
	if (stat(pa, &st) < 0 || stat(pb, &st) < 0) {
		set_why(out->devices_why,
			"no sys/diskstats.start and .stop: the diskstats hook "
			"did not run around this run");
		return 0;
	}
	rc = parse_diskstats_file(pa, &a, &perr);
	if (rc == 0)
		rc = parse_diskstats_file(pb, &b, &perr);
	if (rc == 0)
		rc = parse_diskstats_delta(&a, &b, &d, &perr);
	if (rc == -ENOMEM) {
		err_set(err, rc, "%s", perr.msg);
		goto out;
	}
	if (rc < 0) {
		set_why(out->devices_why, "%s", perr.msg);
		rc = 0;
		goto out;
	}
	out->devices_known = true;
	for (k = 0; k < out->ndevs; k++) {
		struct fidelity_dev *dv = &out->dev[k];
		const struct diskstats_delta_dev *dd =
			parse_diskstats_delta_find(&d, dv->name);

		if (!dd || dd->reset) {
			list_add(out->unmatched, dv->name);
			continue;
		}
		dv->matched = true;
		for (m = 0; m < FIDELITY_METRIC_NR; m++)
			dv->rep[m] =
				(double)dd->v[fidelity_metric_src[m].field] *
				fidelity_metric_src[m].scale /
				(double)out->rep_commits;
	}
	for (i = 0; i < d.ndevs; i++) {
		const struct diskstats_delta_dev *dd = &d.devs[i];
		bool known = false;

		for (k = 0; k < out->ndevs && !known; k++)
			known = strcmp(out->dev[k].name, dd->name) == 0;
		if (!known && !dd->reset &&
		    dd->v[DS_READS] + dd->v[DS_WRITES] > 0 &&
		    is_disk(&d, dd->name))
			list_add(out->extra, dd->name);
	}
out:
	parse_diskstats_delta_free(&d);
	parse_diskstats_free(&a);
	parse_diskstats_free(&b);
	return rc;
}

/* The WAL: the calibration's per commit beside run.json's. */
static void compare_wal(const json_t *run, struct fidelity *out)
{
	const json_t *ss = json_object_get(run, "server_stats");
	int64_t bytes = resfile_get_count(ss, "wal_bytes");
	int64_t commits = resfile_get_count(ss, "xact_commit");

	out->wal_rep = NAN;
	out->wal_ratio = NAN;
	if (isnan(out->wal_cal)) {
		set_why(out->wal_why, "the profile does not record the "
				      "server's WAL bytes");
		return;
	}
	if (bytes < 0 || commits < 0) {
		set_why(out->wal_why,
			"run.json has no server_stats.wal_bytes and "
			"xact_commit (the run ended before its cost window, or "
			"an older oltpmark ran it)");
		return;
	}
	if (commits == 0) {
		set_why(out->wal_why, "no commit in run.json's cost window");
		return;
	}
	out->wal_rep = (double)bytes / (double)commits;
	out->wal_ratio = fidelity_ratio(out->wal_cal, out->wal_rep);
	out->wal_outside =
		fidelity_outside(out->wal_ratio, FIDELITY_WAL_TOLERANCE);
	out->noutside += out->wal_outside;
}

uint64_t fidelity_commits(const struct summary *s)
{
	uint64_t n = 0;
	int t;

	for (t = 0; t < TXN_NR; t++)
		n += s->file_counts[t][TXN_STATUS_OK];
	return n;
}

/* Whether meta.json or run.json says the iosim driver ran. */
static bool is_iosim(const json_t *meta, const json_t *run)
{
	const char *a = resfile_get_string(meta, "driver");
	const char *b = resfile_get_string(run, "driver");

	return (a && strcmp(a, "iosim") == 0) || (b && strcmp(b, "iosim") == 0);
}

int fidelity_read(const char *run_dir, const json_t *meta, const json_t *run,
		  uint64_t commits, struct fidelity *out, struct err *err)
{
	int k, m, rc;

	memset(out, 0, sizeof(*out));
	out->cal_commits = -1;
	out->wal_cal = out->wal_rep = out->wal_ratio = NAN;
	if (!is_iosim(meta, run))
		return 0;
	out->present = true;
	out->rep_commits = commits;
	if (!read_calibration(meta, out))
		return 0;
	if (commits == 0) {
		set_why(out->why, "the replay committed no transaction: there "
				  "is nothing per transaction to compare");
		return 0;
	}
	rc = read_replay(run_dir, out, err);
	if (rc < 0)
		return rc;
	for (k = 0; k < out->ndevs; k++) {
		struct fidelity_dev *dv = &out->dev[k];

		for (m = 0; m < FIDELITY_METRIC_NR; m++) {
			dv->ratio[m] = fidelity_ratio(dv->cal[m], dv->rep[m]);
			dv->outside[m] = fidelity_outside(
				dv->ratio[m], FIDELITY_DEVICE_TOLERANCE);
			out->noutside += dv->outside[m];
		}
	}
	compare_wal(run, out);
	return 0;
}

/* ---- summary.json ---- */

static json_t *jtext(const char *s)
{
	return *s ? json_string(s) : json_null();
}

/* A ", "-separated list as a JSON array. */
static json_t *jlist(const char *list)
{
	json_t *a = json_array();
	const char *p = list, *q;

	while (a && *p) {
		q = strstr(p, ", ");
		if (!q)
			q = p + strlen(p);
		json_array_append_new(a, json_stringn(p, (size_t)(q - p)));
		p = *q ? q + 2 : q;
	}
	return a;
}

static json_t *dev_json(const struct fidelity_dev *dv)
{
	json_t *o = json_object(), *cal = json_object(), *rep = json_object(),
	       *ratio = json_object(), *outside = json_array();
	int m;

	if (!o || !cal || !rep || !ratio || !outside) {
		json_decref(o);
		json_decref(cal);
		json_decref(rep);
		json_decref(ratio);
		json_decref(outside);
		return NULL;
	}
	for (m = 0; m < FIDELITY_METRIC_NR; m++) {
		json_object_set_new(cal, fidelity_metric_names[m],
				    resfile_real(dv->cal[m], -1));
		json_object_set_new(rep, fidelity_metric_names[m],
				    resfile_real(dv->rep[m], -1));
		json_object_set_new(ratio, fidelity_metric_names[m],
				    resfile_real(dv->ratio[m], -1));
		if (dv->outside[m])
			json_array_append_new(
				outside, json_string(fidelity_metric_names[m]));
	}
	json_object_set_new(o, "name", json_string(dv->name));
	json_object_set_new(o, "matched", json_boolean(dv->matched));
	json_object_set_new(o, "calibration", cal);
	json_object_set_new(o, "replay", dv->matched ? rep : json_null());
	if (!dv->matched)
		json_decref(rep);
	json_object_set_new(o, "ratio", ratio);
	json_object_set_new(o, "outside", outside);
	return o;
}

json_t *fidelity_json(const struct fidelity *fd)
{
	json_t *o, *devs, *wal;
	int k;

	if (!fd->present)
		return NULL;
	o = json_object();
	devs = json_array();
	wal = json_object();
	if (!o || !devs || !wal) {
		json_decref(o);
		json_decref(devs);
		json_decref(wal);
		return NULL;
	}
	json_object_set_new(o, "profile_checksum", jtext(fd->checksum));
	json_object_set_new(o, "why", jtext(fd->why));
	json_object_set_new(o, "calibration_commits",
			    fd->cal_commits >= 0 ? json_integer(fd->cal_commits)
						 : json_null());
	json_object_set_new(o, "replay_commits",
			    json_integer((json_int_t)fd->rep_commits));
	json_object_set_new(o, "device_tolerance",
			    json_real(FIDELITY_DEVICE_TOLERANCE));
	json_object_set_new(o, "wal_tolerance",
			    json_real(FIDELITY_WAL_TOLERANCE));
	json_object_set_new(o, "devices_known",
			    json_boolean(fd->devices_known));
	json_object_set_new(o, "devices_why", jtext(fd->devices_why));
	for (k = 0; k < fd->ndevs && !fd->why[0]; k++) {
		json_t *d = dev_json(&fd->dev[k]);

		if (!d || json_array_append_new(devs, d) < 0) {
			json_decref(o);
			json_decref(devs);
			json_decref(wal);
			return NULL;
		}
	}
	json_object_set_new(o, "devices", devs);
	json_object_set_new(o, "not_matched", jlist(fd->unmatched));
	json_object_set_new(o, "not_in_calibration", jlist(fd->extra));
	json_object_set_new(wal, "calibration_bytes_per_commit",
			    resfile_real(fd->wal_cal, -1));
	json_object_set_new(wal, "replay_bytes_per_commit",
			    resfile_real(fd->wal_rep, -1));
	json_object_set_new(wal, "ratio", resfile_real(fd->wal_ratio, -1));
	json_object_set_new(wal, "outside", json_boolean(fd->wal_outside));
	json_object_set_new(wal, "why", jtext(fd->wal_why));
	json_object_set_new(o, "wal", wal);
	json_object_set_new(o, "outside", json_integer(fd->noutside));
	return o;
}

/* ---- summary.txt ---- */

/* "5.00 (20.0 KiB)": a count per commit and its bytes. */
static void fmt_pair(char *buf, size_t size, double n, double bytes)
{
	if (isnan(n) && isnan(bytes))
		snprintf(buf, size, "?");
	else if (isnan(bytes))
		snprintf(buf, size, "%.2f", n);
	else
		snprintf(buf, size, "%.2f (%.1f KiB)", n, bytes / 1024);
}

/* "0.90", "1.40!", "inf!" or "-": a ratio and its mark. */
static void fmt_ratio(char *buf, size_t size, double r, bool outside)
{
	if (isnan(r))
		snprintf(buf, size, "-");
	else if (isinf(r))
		snprintf(buf, size, "inf%s", outside ? "!" : "");
	else
		snprintf(buf, size, "%.2f%s", r, outside ? "!" : "");
}

void fidelity_write_text(const struct fidelity *fd, FILE *f)
{
	static const char *const dir_names[] = {"reads", "writes"};
	char cal[48], rep[48], r1[16], r2[16];
	int k, dir;

	if (!fd->present)
		return;
	fprintf(f, "\nFidelity to the calibration (iosim%s%s)\n",
		fd->checksum[0] ? ", profile " : "", fd->checksum);
	if (fd->why[0]) {
		fprintf(f, "  not compared: %s\n", fd->why);
		return;
	}
	fprintf(f,
		"  per committed transaction: the calibration's %lld, this "
		"run's %llu (mix.csv)\n",
		(long long)fd->cal_commits,
		(unsigned long long)fd->rep_commits);
	if (!fd->devices_known) {
		fprintf(f, "  devices not compared: %s\n", fd->devices_why);
	} else {
		fprintf(f, "  %-10s %-6s %20s %20s %7s %7s\n", "device", "I/O",
			"calibration", "this run", "ratio", "(bytes)");
		for (k = 0; k < fd->ndevs; k++) {
			const struct fidelity_dev *dv = &fd->dev[k];

			for (dir = 0; dir < 2; dir++) {
				int n = dir ? FIDELITY_WRITES : FIDELITY_READS;
				int b = n + 1; /* its bytes */

				fmt_pair(cal, sizeof(cal), dv->cal[n],
					 dv->cal[b]);
				if (!dv->matched) {
					fprintf(f,
						"  %-10s %-6s %20s   not in "
						"this run's diskstats\n",
						dv->name, dir_names[dir], cal);
					continue;
				}
				fmt_pair(rep, sizeof(rep), dv->rep[n],
					 dv->rep[b]);
				fmt_ratio(r1, sizeof(r1), dv->ratio[n],
					  dv->outside[n]);
				fmt_ratio(r2, sizeof(r2), dv->ratio[b],
					  dv->outside[b]);
				fprintf(f, "  %-10s %-6s %20s %20s %7s %7s\n",
					dv->name, dir_names[dir], cal, rep, r1,
					r2);
			}
		}
		if (fd->unmatched[0])
			fprintf(f,
				"  not matched: %s (recorded by the "
				"calibration, not in this run's diskstats)\n",
				fd->unmatched);
		if (fd->extra[0])
			fprintf(f,
				"  not in the calibration: %s (did I/O in this "
				"run)\n",
				fd->extra);
	}
	if (fd->wal_why[0]) {
		fprintf(f, "  WAL not compared: %s\n", fd->wal_why);
	} else {
		fmt_ratio(r1, sizeof(r1), fd->wal_ratio, fd->wal_outside);
		fprintf(f,
			"  WAL bytes per commit: the calibration's %.0f, this "
			"run's %.0f, ratio %s\n",
			fd->wal_cal, fd->wal_rep, r1);
	}
	fprintf(f,
		"  %d ratio%s outside the target (! beyond %.0f %% for a "
		"device, %.0f %% for the WAL)\n",
		fd->noutside, fd->noutside == 1 ? "" : "s",
		100 * FIDELITY_DEVICE_TOLERANCE, 100 * FIDELITY_WAL_TOLERANCE);
}

/* ---- report.html ---- */

static void html_pair(FILE *f, double n, double bytes)
{
	char buf[48];

	fmt_pair(buf, sizeof(buf), n, bytes);
	fprintf(f, "<td>%s</td>", buf);
}

static void html_ratio(FILE *f, double r, bool outside)
{
	char buf[16];

	fmt_ratio(buf, sizeof(buf), r, false);
	fprintf(f, "<td%s>%s</td>", outside ? " class=\"bad\"" : "", buf);
}

static void html_line(FILE *f, const char *cls, const char *what,
		      const char *text)
{
	fprintf(f, "<p class=\"%s\">", cls);
	html_page_escape(f, what);
	html_page_escape(f, text);
	fputs("</p>\n", f);
}

void fidelity_write_html(const struct fidelity *fd, FILE *f)
{
	static const char *const dir_names[] = {"reads", "writes"};
	char buf[64];
	int k, dir;

	if (!fd->present)
		return;
	fputs("<h3 id=\"fidelity\">Fidelity to the calibration</h3>\n", f);
	if (fd->why[0]) {
		html_line(f, "skip", "Not compared: ", fd->why);
		return;
	}
	fprintf(f,
		"<p class=\"sub\">Per committed transaction: the "
		"calibration's %lld (its mix, /proc/diskstats and "
		"pg_stat_wal around it), this run's %llu (mix.csv; "
		"sys/diskstats around the run). Profile ",
		(long long)fd->cal_commits,
		(unsigned long long)fd->rep_commits);
	html_page_escape(f, fd->checksum[0] ? fd->checksum : "unknown");
	fprintf(f,
		". Red: beyond %.0f %% for a device, %.0f %% for the WAL "
		"(issue 12's targets).</p>\n",
		100 * FIDELITY_DEVICE_TOLERANCE, 100 * FIDELITY_WAL_TOLERANCE);
	if (!fd->devices_known) {
		html_line(f, "skip", "Devices not compared: ", fd->devices_why);
	} else {
		fputs("<table>\n<tr><th class=\"l\">device</th><th "
		      "class=\"l\">I/O</th><th>calibration</th><th>this "
		      "run</th><th>ratio</th><th>ratio of bytes</th></tr>\n",
		      f);
		for (k = 0; k < fd->ndevs; k++) {
			const struct fidelity_dev *dv = &fd->dev[k];

			for (dir = 0; dir < 2; dir++) {
				int n = dir ? FIDELITY_WRITES : FIDELITY_READS;

				fputs("<tr><td class=\"l\">", f);
				html_page_escape(f, dv->name);
				fprintf(f, "</td><td class=\"l\">%s</td>",
					dir_names[dir]);
				html_pair(f, dv->cal[n], dv->cal[n + 1]);
				if (!dv->matched) {
					fputs("<td class=\"l\" colspan=\"3\">"
					      "not in this run's "
					      "diskstats</td></tr>\n",
					      f);
					continue;
				}
				html_pair(f, dv->rep[n], dv->rep[n + 1]);
				html_ratio(f, dv->ratio[n], dv->outside[n]);
				html_ratio(f, dv->ratio[n + 1],
					   dv->outside[n + 1]);
				fputs("</tr>\n", f);
			}
		}
		fputs("</table>\n", f);
		if (fd->unmatched[0])
			html_line(f, "unk",
				  "Recorded by the calibration, not in this "
				  "run's diskstats: ",
				  fd->unmatched);
		if (fd->extra[0])
			html_line(f, "sub",
				  "Did I/O in this run, not in the "
				  "calibration: ",
				  fd->extra);
	}
	if (fd->wal_why[0]) {
		html_line(f, "skip", "WAL not compared: ", fd->wal_why);
		return;
	}
	fmt_ratio(buf, sizeof(buf), fd->wal_ratio, false);
	fprintf(f,
		"<p>WAL bytes per commit: the calibration's %.0f, this run's "
		"%.0f, ratio <span class=\"%s\">%s</span></p>\n",
		fd->wal_cal, fd->wal_rep, fd->wal_outside ? "bad" : "ok", buf);
}
