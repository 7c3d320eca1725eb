/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dbdevices.c - the devices under one run's database and their I/O
 * (dbdevices.h).
 *
 * The roles come from meta.json's server.layout as the pgsql driver
 * records it (docs/formats.md): each tablespace's device is a data
 * device, pg_wal's device the WAL's. The data directory is a data device
 * too: it is the directory of pg_default when a relation is there, else
 * server.layout.data_directory's device, else, in meta.json files
 * written before it was recorded, pg_wal's device when pg_wal is not
 * a link out of it.
 *
 * iostat's figures are already per-interval rates and gauges, so a
 * device's figure is a mean over the window's samples; the awaits are
 * weighted by the requests of each sample (an idle second's 0 ms says
 * nothing about the requests of a busy one), the request size is the
 * bytes over the requests. diskstats gives counters, and the same
 * figures come from their differences.
 */
#include "analysis/parsers/dbdevices.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/base/resfile.h"

#define MIB 1048576.0

static void note(struct dbdevices *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Add a note; past DBDEV_NOTES_MAX the last one says so. */
static void note(struct dbdevices *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nnotes >= DBDEV_NOTES_MAX)
		return;
	if (d->nnotes == DBDEV_NOTES_MAX - 1) {
		snprintf(d->notes[d->nnotes++], DBDEV_NOTE_LEN,
			 "(more notes left out)");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(d->notes[d->nnotes++], DBDEV_NOTE_LEN, fmt, ap);
	va_end(ap);
}

static void copy(char *out, size_t size, const char *s)
{
	snprintf(out, size, "%s", s ? s : "");
}

/* Add what to the device's list of what it holds, once. */
static void add_holds(struct dbdev *dv, const char *what)
{
	size_t len = strlen(dv->holds);
	const char *p = dv->holds;

	/* a tablespace is listed once; so is pg_wal */
	while ((p = strstr(p, what)) != NULL) {
		size_t n = strlen(what);

		if ((p == dv->holds || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ','))
			return;
		p += n;
	}
	snprintf(dv->holds + len, sizeof(dv->holds) - len, "%s%s",
		 len ? ", " : "", what);
}

static void dev_unknown(struct dbdev *dv)
{
	dv->source = DBDEV_NONE;
	dv->r_s = dv->w_s = dv->rmb_s = dv->wmb_s = NAN;
	dv->req_kib = dv->r_await_ms = dv->w_await_ms = NAN;
	dv->aqu_sz = dv->util_pct = dv->rw_bytes = dv->share_pct = NAN;
}

/*
 * The entry of the device described by dev (a server.layout "device"
 * object), added when new. NULL with *rc -ENOMEM, or with *rc 0 when
 * the object names no disk.
 */
static struct dbdev *dev_for(struct dbdevices *d, const json_t *dev, int *rc)
{
	const char *disk = resfile_get_string(dev, "disk");
	struct dbdev *dv;
	size_t i;

	*rc = 0;
	if (!disk || !*disk)
		return NULL;
	for (i = 0; i < d->n; i++)
		if (strcmp(d->devs[i].name, disk) == 0)
			return &d->devs[i];
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 4;
		struct dbdev *grown = realloc(d->devs, cap * sizeof(*grown));

		if (!grown) {
			*rc = -ENOMEM;
			return NULL;
		}
		d->devs = grown;
		d->cap = cap;
	}
	dv = &d->devs[d->n++];
	memset(dv, 0, sizeof(*dv));
	copy(dv->name, sizeof(dv->name), disk);
	copy(dv->dm_name, sizeof(dv->dm_name),
	     resfile_get_string(dev, "dm_name"));
	dev_unknown(dv);
	return dv;
}

/*
 * Give the device of obj (a tablespace or "wal" object) the role and
 * the name what. 1 when it has a device, 0 when not (noted), -ENOMEM.
 */
static int add_role(struct dbdevices *d, const json_t *obj, unsigned role,
		    const char *what)
{
	const json_t *dev = json_object_get(obj, "device");
	const char *dir = resfile_get_string(obj, "directory");
	const char *why = resfile_get_string(obj, "device_error");
	const char *disk = resfile_get_string(dev, "disk");
	struct dbdev *dv;
	int rc;

	if (!json_is_object(dev)) {
		note(d, "%s (%s): device unknown: %s", what,
		     dir ? dir : "directory not visible",
		     why ? why : "not recorded");
		return 0;
	}
	/* No kernel names a disk this long (DISK_NAME_LEN is 32). Cut to
	   fit, two names alike in their first 63 bytes became two devices
	   of one name, which dbdevices_find() could not tell apart. */
	if (disk && strlen(disk) >= DBDEV_NAME_LEN) {
		note(d,
		     "%s (%s): the device's name \"%.24s...\" is longer than "
		     "a disk's",
		     what, dir ? dir : "?", disk);
		return 0;
	}
	dv = dev_for(d, dev, &rc);
	if (!dv) {
		if (rc == 0)
			note(d, "%s (%s): the device names no disk", what,
			     dir ? dir : "?");
		return rc;
	}
	dv->roles |= role;
	add_holds(dv, what);
	return 1;
}

/* Whether wal_dir is datadir's own pg_wal, not a link out of it. */
static bool wal_in_datadir(const char *wal_dir, const char *datadir)
{
	size_t n = datadir ? strlen(datadir) : 0;

	while (n > 1 && datadir[n - 1] == '/')
		n--;
	return n && wal_dir && strncmp(wal_dir, datadir, n) == 0 &&
	       strcmp(wal_dir + n, "/pg_wal") == 0;
}

int dbdevices_from_meta(const json_t *meta, struct dbdevices *out,
			struct err *err)
{
	const json_t *server = json_object_get(meta, "server");
	const json_t *layout = json_object_get(server, "layout");
	const json_t *spcs, *spc, *wal;
	const char *datadir = resfile_get_string(server, "data_directory");
	bool datadir_seen = false;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	out->span_s = NAN;
	if (!json_is_object(layout))
		return 0;
	out->layout_known = true;
	spcs = json_object_get(layout, "tablespaces");
	json_array_foreach(spcs, i, spc)
	{
		const char *name = resfile_get_string(spc, "name");
		const char *dir = resfile_get_string(spc, "directory");
		bool is_datadir = datadir && dir && strcmp(dir, datadir) == 0;
		char what[DBDEV_NAME_LEN + 32];

		snprintf(what, sizeof(what), "%s%s", name ? name : "?",
			 is_datadir ? " (data directory)" : "");
		rc = add_role(out, spc, DBDEV_DATA, what);
		if (rc < 0)
			goto oom;
		datadir_seen |= is_datadir && rc > 0;
	}
	wal = json_object_get(layout, "wal");
	if (!json_is_object(wal)) {
		note(out, "meta.json does not say where pg_wal is (the run's "
			  "role could not read data_directory): the WAL's "
			  "device is unknown");
		return 0;
	}
	rc = add_role(out, wal, DBDEV_WAL, "pg_wal");
	if (rc < 0)
		goto oom;
	if (rc > 0 && !datadir_seen) {
		const json_t *dd = json_object_get(layout, "data_directory");

		if (json_is_object(dd))
			rc = add_role(out, dd, DBDEV_DATA, "data directory");
		else if (wal_in_datadir(resfile_get_string(wal, "directory"),
					datadir))
			rc = add_role(out, wal, DBDEV_DATA, "data directory");
		else
			note(out,
			     "the data directory (%s) holds none of the "
			     "tables and pg_wal is a link out of it: its "
			     "device is not recorded",
			     datadir ? datadir : "not visible");
		if (rc < 0)
			goto oom;
	}
	return 0;
oom:
	return err_set(err, -ENOMEM, "out of memory");
}

/* The series of io for dv: by its name, else by its dm name (-N). */
static const struct iostat_device *iostat_of(const struct iostat_data *io,
					     const struct dbdev *dv)
{
	const struct iostat_device *s = parse_iostat_device(io, dv->name);

	if (!s && dv->dm_name[0])
		s = parse_iostat_device(io, dv->dm_name);
	return s;
}

/* Whether sample s lies in w: stamped t, it covers (t - 1, t]. */
static bool in_window(const struct iostat_sample *s,
		      const struct dbdev_window *w)
{
	double t = (double)s->time_s - w->start_epoch_s;

	return t > w->start_s && t <= w->end_s;
}

/* Sums of one device's samples, then its figures. */
struct io_sums {
	double r, w, rkb, wkb; /* rates summed */
	size_t nr, nw, nrkb, nwkb;
	double r_wait, r_for_wait; /* r_await x r/s, r/s where both known */
	double w_wait, w_for_wait; /* the same for writes */
	double aqu, util;
	size_t naqu, nutil;
	size_t n; /* samples used */
};

static void sum_add(double *sum, size_t *n, double v)
{
	if (isfinite(v)) {
		*sum += v;
		(*n)++;
	}
}

static double mean(double sum, size_t n)
{
	return n ? sum / (double)n : NAN;
}

static void sums_add(struct io_sums *t, const struct iostat_sample *s)
{
	sum_add(&t->r, &t->nr, s->r_s);
	sum_add(&t->w, &t->nw, s->w_s);
	sum_add(&t->rkb, &t->nrkb, s->rkb_s);
	sum_add(&t->wkb, &t->nwkb, s->wkb_s);
	if (isfinite(s->r_await_ms) && s->r_s > 0) {
		t->r_wait += s->r_await_ms * s->r_s;
		t->r_for_wait += s->r_s;
	}
	if (isfinite(s->w_await_ms) && s->w_s > 0) {
		t->w_wait += s->w_await_ms * s->w_s;
		t->w_for_wait += s->w_s;
	}
	sum_add(&t->aqu, &t->naqu, s->aqu_sz);
	sum_add(&t->util, &t->nutil, s->util_pct);
	t->n++;
}

static void sums_set(struct dbdev *dv, const struct io_sums *t)
{
	double req = t->r + t->w;

	dv->r_s = mean(t->r, t->nr);
	dv->w_s = mean(t->w, t->nw);
	dv->rmb_s = mean(t->rkb, t->nrkb) * 1024 / MIB;
	dv->wmb_s = mean(t->wkb, t->nwkb) * 1024 / MIB;
	/* the same samples' kB over their requests */
	dv->req_kib = req > 0 && t->nrkb == t->nr && t->nwkb == t->nw
			      ? (t->rkb + t->wkb) / req
			      : NAN;
	dv->r_await_ms = t->r_for_wait > 0 ? t->r_wait / t->r_for_wait : NAN;
	dv->w_await_ms = t->w_for_wait > 0 ? t->w_wait / t->w_for_wait : NAN;
	dv->aqu_sz = mean(t->aqu, t->naqu);
	dv->util_pct = mean(t->util, t->nutil);
	dv->rw_bytes = NAN;
}

void dbdevices_add_iostat(struct dbdevices *out, const struct iostat_data *io,
			  const struct dbdev_window *w)
{
	bool windowed = io->has_time && isfinite(w->start_epoch_s) &&
			isfinite(w->start_s) && isfinite(w->end_s);
	bool found = false;
	size_t i, k;

	if (windowed) {
		bool any = false;

		for (i = 0; i < io->ndevices && !any; i++)
			for (k = 0; k < io->devices[i].nsamples && !any; k++)
				any = in_window(&io->devices[i].samples[k], w);
		if (!any) {
			windowed = false;
			note(out,
			     "iostat: no report inside the measured window: "
			     "means over all %zu reports",
			     io->reports);
		}
	}
	for (i = 0; i < out->n; i++) {
		struct dbdev *dv = &out->devs[i];
		const struct iostat_device *s = iostat_of(io, dv);
		struct io_sums t;

		if (!s || dv->source != DBDEV_NONE)
			continue;
		memset(&t, 0, sizeof(t));
		for (k = 0; k < s->nsamples; k++)
			if (!windowed || in_window(&s->samples[k], w))
				sums_add(&t, &s->samples[k]);
		if (!t.n)
			continue;
		sums_set(dv, &t);
		dv->source = windowed ? DBDEV_IOSTAT : DBDEV_IOSTAT_ALL;
		found = true;
	}
	if (found && !io->has_time)
		note(out, "iostat has no timestamps (iostat -t): means over "
			  "all its reports, ramp-up included");
	else if (found && !windowed && io->has_time &&
		 !isfinite(w->start_epoch_s))
		note(out, "meta.json has no start time: iostat means over "
			  "all its reports, ramp-up included");
}

/* The delta of dv in d: by its name, else by its dm name. */
static const struct diskstats_delta_dev *
delta_of(const struct diskstats_delta *d, const struct dbdev *dv)
{
	const struct diskstats_delta_dev *dd =
		parse_diskstats_delta_find(d, dv->name);

	if (!dd && dv->dm_name[0])
		dd = parse_diskstats_delta_find(d, dv->dm_name);
	return dd;
}

void dbdevices_add_diskstats(struct dbdevices *out,
			     const struct diskstats_delta *d, double span_s)
{
	bool rated = isfinite(span_s) && span_s > 0;
	size_t i;

	for (i = 0; i < out->n; i++) {
		struct dbdev *dv = &out->devs[i];
		const struct diskstats_delta_dev *dd = delta_of(d, dv);
		struct diskstats_rates r;
		double reads, writes, kib_r, kib_w;

		if (!dd || dv->source != DBDEV_NONE)
			continue;
		reads = (double)dd->v[DS_READS];
		writes = (double)dd->v[DS_WRITES];
		kib_r = (double)dd->v[DS_SECTORS_READ] *
			DISKSTATS_SECTOR_BYTES / 1024;
		kib_w = (double)dd->v[DS_SECTORS_WRITTEN] *
			DISKSTATS_SECTOR_BYTES / 1024;
		dv->source = DBDEV_DISKSTATS;
		dv->rw_bytes = (kib_r + kib_w) * 1024;
		dv->req_kib = reads + writes > 0
				      ? (kib_r + kib_w) / (reads + writes)
				      : NAN;
		dv->r_await_ms =
			reads > 0 ? (double)dd->v[DS_READ_MS] / reads : NAN;
		dv->w_await_ms =
			writes > 0 ? (double)dd->v[DS_WRITE_MS] / writes : NAN;
		if (dd->reset)
			note(out,
			     "%s: a diskstats counter went back between the "
			     "snapshots (device re-created?): its figures "
			     "are the stop snapshot's",
			     dv->name);
		if (!rated || parse_diskstats_rates(dd, span_s, &r, NULL) < 0)
			continue;
		dv->r_s = r.r_s;
		dv->w_s = r.w_s;
		dv->rmb_s = r.rkb_s * 1024 / MIB;
		dv->wmb_s = r.wkb_s * 1024 / MIB;
		dv->aqu_sz = r.aqu_sz;
		dv->util_pct = r.util_pct;
	}
}

void dbdevices_shares(struct dbdevices *out)
{
	bool rates = true, counts = true;
	double total = 0;
	size_t i, with = 0, missing = 0;

	for (i = 0; i < out->n; i++) {
		const struct dbdev *dv = &out->devs[i];

		if (dv->source == DBDEV_NONE) {
			missing++;
			continue;
		}
		with++;
		rates &= isfinite(dv->rmb_s + dv->wmb_s);
		counts &= dv->source == DBDEV_DISKSTATS;
	}
	if (!with)
		return;
	if (!rates && !counts) {
		note(out, "shares unknown: some devices have rates only "
			  "(iostat), others counts only (diskstats without "
			  "the snapshots' times)");
		return;
	}
	for (i = 0; i < out->n; i++) {
		const struct dbdev *dv = &out->devs[i];

		if (dv->source != DBDEV_NONE)
			total += rates ? dv->rmb_s + dv->wmb_s : dv->rw_bytes;
	}
	for (i = 0; i < out->n && total > 0; i++) {
		struct dbdev *dv = &out->devs[i];

		if (dv->source != DBDEV_NONE)
			dv->share_pct =
				100 *
				(rates ? dv->rmb_s + dv->wmb_s : dv->rw_bytes) /
				total;
	}
	if (missing && total > 0)
		note(out,
		     "shares are of the %zu of %zu devices that have "
		     "figures",
		     with, with + missing);
}

/* dir/sys/name into out; false when it does not fit. */
static bool sys_path(char *out, size_t size, const char *dir, const char *name)
{
	return snprintf(out, size, "%s/sys/%s", dir, name) < (int)size;
}

/* Seconds between the modification times of two files, NAN unknown. */
static double mtime_span_s(const char *a, const char *b)
{
	struct stat sa, sb;
	double d;

	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return NAN;
	d = (double)(sb.st_mtim.tv_sec - sa.st_mtim.tv_sec) +
	    (double)(sb.st_mtim.tv_nsec - sa.st_mtim.tv_nsec) / 1e9;
	/* copies (cp, git checkout) give both files about the same time */
	return d >= 1.0 ? d : NAN;
}

/* Whether some device still has no figures. */
static bool any_unknown(const struct dbdevices *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->devs[i].source == DBDEV_NONE)
			return true;
	return false;
}

/*
 * sys/iostat.json (or .txt) into out; *read set when it parsed. 0, or
 * -ENOMEM.
 */
static int read_iostat(const char *run_dir, const struct dbdev_window *w,
		       struct dbdevices *out, bool *read)
{
	struct iostat_data io;
	struct err perr = {""};
	char path[PATH_MAX];
	const char *name = "iostat.json";
	int rc;

	if (!sys_path(path, sizeof(path), run_dir, name))
		return 0;
	if (access(path, F_OK) != 0) {
		name = "iostat.txt";
		if (!sys_path(path, sizeof(path), run_dir, name) ||
		    access(path, F_OK) != 0)
			return 0;
	}
	rc = parse_iostat_file(path, &io, &perr);
	*read = rc == 0;
	if (rc == 0)
		dbdevices_add_iostat(out, &io, w);
	else if (rc != -ENOMEM)
		note(out, "sys/%s not used: %s", name, perr.msg);
	parse_iostat_free(&io);
	return rc == -ENOMEM ? rc : 0;
}

/* sys/diskstats.start and .stop into out, as read_iostat(). */
static int read_diskstats(const char *run_dir, struct dbdevices *out,
			  bool *read)
{
	struct diskstats_snapshot a, b;
	struct diskstats_delta d;
	struct err perr = {""};
	char pa[PATH_MAX], pb[PATH_MAX];
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&d, 0, sizeof(d));
	if (!sys_path(pa, sizeof(pa), run_dir, "diskstats.start") ||
	    !sys_path(pb, sizeof(pb), run_dir, "diskstats.stop") ||
	    (access(pa, F_OK) != 0 && access(pb, F_OK) != 0))
		return 0;
	rc = parse_diskstats_file(pa, &a, &perr);
	if (rc == 0)
		rc = parse_diskstats_file(pb, &b, &perr);
	if (rc == 0)
		rc = parse_diskstats_delta(&a, &b, &d, &perr);
	*read = rc == 0;
	if (rc == 0) {
		out->span_s = mtime_span_s(pa, pb);
		dbdevices_add_diskstats(out, &d, out->span_s);
		if (!isfinite(out->span_s))
			note(out, "the diskstats snapshots' times are unknown "
				  "(their files were copied): no rates from "
				  "them");
	} else if (rc != -ENOMEM) {
		note(out, "diskstats not used: %s", perr.msg);
	}
	parse_diskstats_delta_free(&d);
	parse_diskstats_free(&a);
	parse_diskstats_free(&b);
	return rc == -ENOMEM ? rc : 0;
}

int dbdevices_read(const char *run_dir, const json_t *meta,
		   const struct dbdev_window *w, struct dbdevices *out,
		   struct err *err)
{
	bool iostat = false, diskstats = false;
	size_t i;
	int rc;

	rc = dbdevices_from_meta(meta, out, err);
	if (rc < 0 || out->n == 0)
		return rc;
	rc = read_iostat(run_dir, w, out, &iostat);
	if (rc == 0 && any_unknown(out))
		rc = read_diskstats(run_dir, out, &diskstats);
	if (rc < 0)
		return err_set(err, rc, "out of memory");
	if (!iostat && !diskstats && any_unknown(out)) {
		note(out, "no usable sys/iostat.json nor diskstats snapshots: "
			  "no figures");
		return 0;
	}
	for (i = 0; i < out->n; i++)
		if (out->devs[i].source == DBDEV_NONE)
			note(out,
			     "%s: neither sys/iostat.json nor the diskstats "
			     "snapshots have it: its figures are unknown",
			     out->devs[i].name);
	dbdevices_shares(out);
	return 0;
}

const struct dbdev *dbdevices_find(const struct dbdevices *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->devs[i].name, name) == 0)
			return &d->devs[i];
	return NULL;
}

const char *dbdevices_role_name(unsigned roles)
{
	switch (roles & (DBDEV_DATA | DBDEV_WAL)) {
	case DBDEV_DATA:
		return "data";
	case DBDEV_WAL:
		return "WAL";
	case DBDEV_DATA | DBDEV_WAL:
		return "both";
	default:
		return "?";
	}
}

const char *dbdevices_source_name(enum dbdev_source source)
{
	static const char *const names[DBDEV_SOURCE_NR] = {
		[DBDEV_NONE] = "none",
		[DBDEV_IOSTAT] = "iostat",
		[DBDEV_IOSTAT_ALL] = "iostat (whole file)",
		[DBDEV_DISKSTATS] = "diskstats",
	};

	return (unsigned)source < DBDEV_SOURCE_NR ? names[source] : "?";
}

void dbdevices_free(struct dbdevices *d)
{
	if (!d)
		return;
	free(d->devs);
	memset(d, 0, sizeof(*d));
	d->span_s = NAN;
}
