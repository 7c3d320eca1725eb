/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge.c - the run directories of several drivers joined into one
 * (merge.h): the parts read and checked against each other, then
 * mix.csv (rows shifted onto the server's clock, a host column), run.json
 * (counts summed) and meta.json (the first part's, widened) written.
 */
#include "analysis/report/merge.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/report/mixcsv.h"
#include "src/base/atomic_file.h"
#include "src/base/mixcsv_format.h"
#include "src/base/resfile.h"
#include "src/base/whrange.h"

/* The status column's words, by enum txn_status. */
static const char *const status_words[TXN_STATUS_NR] = {
	[TXN_STATUS_OK] = MIXCSV_WORD_OK,
	[TXN_STATUS_ROLLBACK] = MIXCSV_WORD_ROLLBACK,
	[TXN_STATUS_ERROR] = MIXCSV_WORD_ERROR,
};

/* One run directory being merged. */
struct part {
	const char *dir;	 /* as given */
	json_t *meta;		 /* its meta.json (owned) */
	json_t *run;		 /* its run.json (owned) */
	char host[64];		 /* meta.json host, made safe for CSV */
	struct whrange range;	 /* meta.json warehouse_range */
	int64_t start_server_us; /* its start on the server's clock */
	int64_t shift_ms;	 /* added to its t_ms */
};

/* The host name as a CSV field: letters, digits, '.', '-', '_'. */
static void safe_host(const char *s, char *out, size_t size)
{
	size_t i;

	snprintf(out, size, "%s", s && *s ? s : "unknown");
	for (i = 0; out[i]; i++)
		if (!((out[i] >= 'a' && out[i] <= 'z') ||
		      (out[i] >= 'A' && out[i] <= 'Z') ||
		      (out[i] >= '0' && out[i] <= '9') || out[i] == '.' ||
		      out[i] == '-' || out[i] == '_'))
			out[i] = '_';
}

static int read_part(struct part *p, struct err *err)
{
	char path[PATH_MAX];
	const json_t *wr, *clock;
	int rc;

	snprintf(path, sizeof(path), "%s/meta.json", p->dir);
	rc = resfile_read(path, path, RESFILE_META, &p->meta, err);
	if (rc < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/run.json", p->dir);
	rc = resfile_read(path, path, RESFILE_RUN, &p->run, err);
	if (rc < 0)
		return rc;
	wr = json_object_get(p->meta, "warehouse_range");
	clock = json_object_get(p->meta, "clock");
	if (resfile_get_count(wr, "first") < 1 ||
	    resfile_get_count(wr, "last") < 1 ||
	    resfile_get_count(clock, "start_server_unix_us") < 0)
		return err_set(
			err, -EBADMSG,
			"%s/meta.json: no warehouse_range or clock (written by an oltpmark without several drivers)",
			p->dir);
	p->range.first = (int)resfile_get_count(wr, "first");
	p->range.last = (int)resfile_get_count(wr, "last");
	p->start_server_us = resfile_get_count(clock, "start_server_unix_us");
	safe_host(resfile_get_string(p->meta, "host"), p->host,
		  sizeof(p->host));
	return 0;
}

/* Whether a and b are equal JSON (both absent counts as equal). */
static bool same(const json_t *a, const json_t *b)
{
	return (!a && !b) || (a && b && json_equal(a, b));
}

/*
 * Part p against part 0: the same workload (the fingerprint's group,
 * connections aside: each driver has its own), label, W and NURand
 * constants. 0 or -EINVAL naming the first difference.
 */
static int check_same(const struct part *p0, const struct part *p,
		      struct err *err)
{
	const json_t *w0, *w;
	const char *key;
	json_t *v;

	w0 = json_object_get(json_object_get(p0->meta, "fingerprint"),
			     "workload");
	w = json_object_get(json_object_get(p->meta, "fingerprint"),
			    "workload");
	if (!w0 || !w)
		return err_set(err, -EINVAL, "%s: meta.json has no fingerprint",
			       w0 ? p->dir : p0->dir);
	json_object_foreach((json_t *)w0, key, v)
	{
		if (strcmp(key, "connections") == 0)
			continue;
		if (!same(v, json_object_get(w, key)))
			return err_set(
				err, -EINVAL,
				"%s and %s differ in their workload: %s '%s' and '%s'",
				p0->dir, p->dir, key,
				json_is_string(v) ? json_string_value(v) : "",
				resfile_get_string(w, key)
					? resfile_get_string(w, key)
					: "(none)");
	}
	json_object_foreach((json_t *)w, key, v)
	{
		if (strcmp(key, "connections") != 0 &&
		    !json_object_get(w0, key))
			return err_set(
				err, -EINVAL,
				"%s and %s differ in their workload: %s only in the second",
				p0->dir, p->dir, key);
	}
	if (!same(json_object_get(p0->meta, "label"),
		  json_object_get(p->meta, "label")))
		return err_set(err, -EINVAL, "%s and %s have different labels",
			       p0->dir, p->dir);
	if (resfile_get_count(p0->run, "warehouses") !=
	    resfile_get_count(p->run, "warehouses"))
		return err_set(err, -EINVAL,
			       "%s and %s drive different warehouses (-w)",
			       p0->dir, p->dir);
	if (!same(json_object_get(p0->run, "nurand_c"),
		  json_object_get(p->run, "nurand_c")))
		return err_set(
			err, -EINVAL,
			"%s and %s drew different NURand constants: give every driver the same --seed",
			p0->dir, p->dir);
	return 0;
}

/* Check the parts together; fill in the shifts. */
static int check_parts(struct part *parts, int n, struct merge_result *res,
		       struct err *err)
{
	struct whrange *r = calloc((size_t)n, sizeof(*r));
	int64_t first, last;
	int i, rc = 0, w;

	if (!r)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 1; i < n && rc == 0; i++)
		rc = check_same(&parts[0], &parts[i], err);
	w = (int)resfile_get_count(parts[0].run, "warehouses");
	for (i = 0; i < n; i++)
		r[i] = parts[i].range;
	if (rc == 0 && whrange_check_cover(r, n, w, NULL, err) < 0)
		rc = -EINVAL;
	free(r);
	if (rc < 0)
		return rc;
	first = last = parts[0].start_server_us;
	for (i = 1; i < n; i++) {
		if (parts[i].start_server_us < first)
			first = parts[i].start_server_us;
		if (parts[i].start_server_us > last)
			last = parts[i].start_server_us;
	}
	res->start_spread_ms = (double)(last - first) / 1000.0;
	if (last - first > (int64_t)MERGE_START_SPREAD_MAX_MS * 1000)
		return err_set(
			err, -EINVAL,
			"the parts started %.3f s apart on the server's clock (more than %d ms): they did not share the measured interval (--start-at)",
			(double)(last - first) / 1e6,
			MERGE_START_SPREAD_MAX_MS);
	for (i = 0; i < n; i++)
		parts[i].shift_ms = (int64_t)llround(
			(double)(parts[i].start_server_us - first) / 1000.0);
	return 0;
}

/* Every part's rows into f, shifted, with the host. */
static int write_rows(FILE *f, const struct part *parts, int n, uint64_t *rows,
		      struct err *err)
{
	char path[PATH_MAX];
	int i, rc = 0;

	fprintf(f, "%s\n", MIXCSV_HEADER_HOST);
	for (i = 0; i < n && rc >= 0; i++) {
		struct mixcsv_reader r;
		struct mixcsv_row row;

		snprintf(path, sizeof(path), "%s/mix.csv", parts[i].dir);
		rc = mixcsv_open(&r, path, err);
		if (rc < 0)
			return rc;
		if (r.has_host) {
			mixcsv_close(&r);
			return err_set(err, -EINVAL, "%s: already a merged run",
				       path);
		}
		while ((rc = mixcsv_next(&r, &row, err)) > 0) {
			fprintf(f, "%lld,%lld,%s,%s,%llu,%llu,%s\n",
				(long long)(row.t_ms + parts[i].shift_ms),
				(long long)row.terminal,
				txn_type_name(row.type),
				status_words[row.status],
				(unsigned long long)row.response_us,
				(unsigned long long)row.service_us,
				parts[i].host);
			(*rows)++;
		}
		mixcsv_close(&r);
	}
	return rc;
}

/* dst[key] += src[key] for every integer of src (recursively). */
static void add_counts(json_t *dst, const json_t *src)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)src, key, v)
	{
		json_t *d = json_object_get(dst, key);

		if (json_is_object(v) && json_is_object(d))
			add_counts(d, v);
		else if (json_is_integer(v) && json_is_integer(d))
			json_integer_set(d, json_integer_value(d) +
						    json_integer_value(v));
	}
}

/*
 * backend_cpu of the merged run: the parts' totals added up when every
 * part measured them (each its own connections' backends), else not
 * measured, saying which part had none and why. o is the first part's
 * copy, r part i's run.json.
 */
static void add_bcpu(json_t *o, const json_t *r, int i)
{
	json_t *dst = json_object_get(o, "backend_cpu");
	const json_t *src = json_object_get(r, "backend_cpu");
	const json_t *why;
	char reason[ERR_MSG_MAX];

	if (!json_is_true(json_object_get(dst, "measured")))
		return; /* the first part without keeps its reason */
	if (json_is_true(json_object_get(src, "measured"))) {
		add_counts(dst, src);
		return;
	}
	why = json_object_get(src, "reason");
	snprintf(reason, sizeof(reason), "part %d: %s", i + 1,
		 !json_is_object(src)  ? "no backend_cpu in its run.json"
		 : json_is_string(why) ? json_string_value(why)
				       : "not measured");
	json_object_set_new(o, "backend_cpu",
			    json_pack("{s:b, s:s, s:n}", "measured", 0,
				      "reason", reason, "types"));
}

/* run.json's counts that the parts add up to. */
static const char *const summed[] = {"terminals", "connections",
				     "connections_lost", "reconnects"};

/* run.json of the merged run (see docs/formats.md, "A merged run"). */
static json_t *merged_run(const struct part *parts, int n, uint64_t rows)
{
	json_t *o = json_deep_copy(parts[0].run), *cost;
	double elapsed = INFINITY, finished = 0, client_cpu = 0;
	bool cpu_known = true;
	size_t k;
	int i;

	if (!o)
		return NULL;
	for (i = 0; i < n; i++) {
		const json_t *r = parts[i].run, *c = json_object_get(r, "cost");
		double shift = (double)parts[i].shift_ms / 1000.0;
		double e = resfile_get_number(r, "elapsed_s") + shift;
		double f = resfile_get_number(r, "finished_s") + shift;

		if (e < elapsed)
			elapsed = e;
		if (f > finished)
			finished = f;
		if (isfinite(resfile_get_number(c, "client_cpu_s")))
			client_cpu += resfile_get_number(c, "client_cpu_s");
		else
			cpu_known = false;
		if (i == 0)
			continue;
		add_counts(json_object_get(o, "counts"),
			   json_object_get(r, "counts"));
		add_counts(json_object_get(o, "inputs"),
			   json_object_get(r, "inputs"));
		add_bcpu(o, r, i);
		for (k = 0; k < sizeof(summed) / sizeof(summed[0]); k++)
			json_object_set_new(
				o, summed[k],
				json_integer(resfile_get_count(o, summed[k]) +
					     resfile_get_count(r, summed[k])));
		if (resfile_get_truth(r, "partial") == 1 &&
		    resfile_get_truth(o, "partial") != 1) {
			json_object_set_new(o, "partial", json_true());
			json_object_set(o, "end_reason",
					json_object_get(r, "end_reason"));
			json_object_set(o, "error",
					json_object_get(r, "error"));
		}
	}
	json_object_set_new(o, "elapsed_s", json_real(elapsed));
	json_object_set_new(o, "finished_s", json_real(finished));
	json_object_set_new(o, "mix_rows", json_integer((json_int_t)rows));
	/* the server's CPU and counters are the first part's: every part
	   sampled the same server over nearly the same window */
	cost = json_object_get(o, "cost");
	if (json_is_object(cost))
		json_object_set_new(cost, "client_cpu_s",
				    cpu_known ? json_real(client_cpu)
					      : json_null());
	return o;
}

/* The "merge" object of meta.json: one entry per part. */
static json_t *parts_json(const struct part *parts, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++) {
		json_t *p = json_object();

		json_object_set_new(p, "dir", json_string(parts[i].dir));
		json_object_set_new(p, "host", json_string(parts[i].host));
		json_object_set(
			p, "warehouse_range",
			json_object_get(parts[i].meta, "warehouse_range"));
		json_object_set(p, "clock",
				json_object_get(parts[i].meta, "clock"));
		json_object_set_new(p, "shift_ms",
				    json_integer(parts[i].shift_ms));
		json_object_set(p, "partial",
				json_object_get(parts[i].run, "partial"));
		json_object_set(p, "end_reason",
				json_object_get(parts[i].run, "end_reason"));
		json_object_set(p, "connections",
				json_object_get(parts[i].run, "connections"));
		json_array_append_new(a, p);
	}
	return a;
}

/* ISO 8601 UTC of us since the epoch, as meta.json's start and end. */
static json_t *iso_json(int64_t us)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

/* meta.json of the merged run: the first part's, on the server's clock. */
static json_t *merged_meta(const struct part *parts, int n, const json_t *run)
{
	json_t *o = json_deep_copy(parts[0].meta), *wr, *opts, *fp, *m;
	int64_t start = parts[0].start_server_us, end = 0;
	char conns[32];
	int i;

	if (!o)
		return NULL;
	for (i = 0; i < n; i++) {
		const json_t *c = json_object_get(parts[i].meta, "clock");
		double off_s = resfile_get_number(c, "offset_ms") / 1000.0;
		double e = resfile_get_number(parts[i].meta, "end_unix_s");

		if (parts[i].start_server_us < start)
			start = parts[i].start_server_us;
		if (isfinite(e) && isfinite(off_s) &&
		    (int64_t)llround((e + off_s) * 1e6) > end)
			end = (int64_t)llround((e + off_s) * 1e6);
	}
	if (end < start)
		end = start;
	json_object_set_new(o, "start_unix_s", json_real((double)start / 1e6));
	json_object_set_new(o, "end_unix_s", json_real((double)end / 1e6));
	json_object_set_new(o, "start", iso_json(start));
	json_object_set_new(o, "end", iso_json(end));
	wr = json_object();
	json_object_set_new(wr, "first", json_integer(1));
	json_object_set_new(wr, "last",
			    json_integer(resfile_get_count(run, "warehouses")));
	json_object_set_new(wr, "of",
			    json_integer(resfile_get_count(run, "warehouses")));
	json_object_set_new(o, "warehouse_range", wr);
	json_object_del(o, "host");
	json_object_del(o, "clock");
	snprintf(conns, sizeof(conns), "%lld",
		 (long long)resfile_get_count(run, "connections"));
	opts = json_object_get(o, "options");
	if (json_is_object(opts)) {
		json_object_set_new(
			opts, "connections",
			json_integer(resfile_get_count(run, "connections")));
		json_object_set_new(opts, "warehouse-range", json_null());
	}
	fp = json_object_get(json_object_get(o, "fingerprint"), "workload");
	if (json_is_object(fp))
		json_object_set_new(fp, "connections", json_string(conns));
	m = json_object();
	json_object_set_new(m, "parts", parts_json(parts, n));
	json_object_set_new(o, "merge", m);
	return o;
}

/* Make out: absent (then created) or an empty directory. */
static int make_out(const char *out, struct err *err)
{
	struct stat st;

	if (mkdir(out, 0755) == 0)
		return 0;
	if (errno != EEXIST)
		return err_set(err, -errno, "cannot create %s: %s", out,
			       strerror(errno));
	if (stat(out, &st) < 0 || !S_ISDIR(st.st_mode))
		return err_set(err, -ENOTDIR, "%s is not a directory", out);
	if (rmdir(out) == 0 && mkdir(out, 0755) == 0)
		return 0; /* it was empty */
	return err_set(err, -EEXIST,
		       "%s is not empty: give a new directory for the merge",
		       out);
}

static int write_json_file(const char *out, const char *name, json_t *o,
			   struct err *err)
{
	char path[PATH_MAX];

	if (!o)
		return err_set(err, -ENOMEM, "out of memory");
	snprintf(path, sizeof(path), "%s/%s", out, name);
	return resfile_write_json(path, o, err);
}

int merge_runs(const char *out, const char *const *dirs, int n,
	       struct merge_result *res, struct err *err)
{
	struct part *parts;
	struct atomic_file af;
	char path[PATH_MAX];
	json_t *run = NULL, *meta = NULL;
	int i, rc = 0;

	memset(res, 0, sizeof(*res));
	if (n < 2)
		return err_set(err, -EINVAL,
			       "merge needs two run directories "
			       "or more");
	parts = calloc((size_t)n, sizeof(*parts));
	if (!parts)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < n && rc == 0; i++) {
		parts[i].dir = dirs[i];
		rc = read_part(&parts[i], err);
	}
	if (rc == 0)
		rc = check_parts(parts, n, res, err);
	if (rc == 0)
		rc = make_out(out, err);
	if (rc == 0) {
		snprintf(path, sizeof(path), "%s/mix.csv", out);
		rc = atomic_file_open(&af, path, err);
		if (rc == 0)
			rc = atomic_file_close(
				&af,
				write_rows(af.f, parts, n, &res->rows, err),
				err);
	}
	if (rc == 0) {
		run = merged_run(parts, n, res->rows);
		rc = write_json_file(out, "run.json", run, err);
	}
	if (rc == 0) {
		meta = merged_meta(parts, n, run);
		rc = write_json_file(out, "meta.json", meta, err);
	}
	if (rc == 0) {
		res->parts = n;
		res->partial = resfile_get_truth(run, "partial") == 1;
	}
	json_decref(run);
	json_decref(meta);
	for (i = 0; i < n; i++) {
		json_decref(parts[i].meta);
		json_decref(parts[i].run);
	}
	free(parts);
	return rc;
}
