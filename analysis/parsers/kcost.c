/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcost.c - the kernel-cost hook's snapshots as figures per transaction
 * type (see kcost.h): differences stop - start per query id, added up
 * by type; the wait profile likewise; per committed transaction; the
 * CPU check.
 */
#include "analysis/parsers/kcost.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *key;   /* summary.json */
	const char *title; /* table heading */
	int decimals;	   /* shown with */
} kcost_figures[KCOST_FIG_NR] = {
	[KCOST_FIG_SERVER_MS] = {"server_ms", "server ms", 3},
	[KCOST_FIG_BACKEND_CPU_MS] = {"backend_cpu_ms", "backend CPU ms", 3},
	[KCOST_FIG_USER_MS] = {"user_cpu_ms", "user CPU ms", 3},
	[KCOST_FIG_SYSTEM_MS] = {"system_cpu_ms", "system CPU ms", 3},
	[KCOST_FIG_RUNQ_WAIT_MS] = {"run_queue_wait_ms", "runq wait ms", 3},
	[KCOST_FIG_OFFCPU_MS] = {"off_cpu_ms", "off-CPU ms", 3},
	[KCOST_FIG_READ_BYTES] = {"read_bytes", "read B", 0},
	[KCOST_FIG_WRITE_BYTES] = {"write_bytes", "written B", 0},
	[KCOST_FIG_NVCSW] = {"voluntary_switches", "vol. switches", 2},
	[KCOST_FIG_NIVCSW] = {"involuntary_switches", "invol. switches", 2},
	[KCOST_FIG_MAJFLT] = {"major_faults", "major faults", 3},
	[KCOST_FIG_MINFLT] = {"minor_faults", "minor faults", 1},
};

const char *kcost_figure_key(enum kcost_figure f)
{
	return (unsigned)f < KCOST_FIG_NR ? kcost_figures[f].key : NULL;
}

const char *kcost_figure_title(enum kcost_figure f)
{
	return (unsigned)f < KCOST_FIG_NR ? kcost_figures[f].title : NULL;
}

int kcost_figure_decimals(enum kcost_figure f)
{
	return (unsigned)f < KCOST_FIG_NR ? kcost_figures[f].decimals : 0;
}

double kcost_figure(const struct kcost_row *r, enum kcost_figure f,
		    double commits)
{
	const double *v = r->v;
	double x;

	/* per transaction the engine measured: its own count */
	if (f == KCOST_FIG_BACKEND_CPU_MS || f == KCOST_FIG_RUNQ_WAIT_MS) {
		if (!r->bcpu.txns)
			return NAN;
		x = (double)(f == KCOST_FIG_BACKEND_CPU_MS ? r->bcpu.cpu_ns
							   : r->bcpu.wait_ns);
		return x / 1e6 / (double)r->bcpu.txns;
	}
	if (!(commits > 0))
		return NAN;
	switch (f) {
	case KCOST_FIG_SERVER_MS:
		x = v[KCOST_TIME_MS];
		break;
	case KCOST_FIG_USER_MS:
		x = v[KCOST_USER_S] * 1000.0;
		break;
	case KCOST_FIG_SYSTEM_MS:
		x = v[KCOST_SYSTEM_S] * 1000.0;
		break;
	case KCOST_FIG_OFFCPU_MS:
		/* CPU rounding can put it a hair below 0 */
		x = v[KCOST_TIME_MS] -
		    (v[KCOST_USER_S] + v[KCOST_SYSTEM_S]) * 1000.0;
		break;
	case KCOST_FIG_READ_BYTES:
		x = v[KCOST_READS_BYTES];
		break;
	case KCOST_FIG_WRITE_BYTES:
		x = v[KCOST_WRITES_BYTES];
		break;
	case KCOST_FIG_NVCSW:
		x = v[KCOST_NVCSWS];
		break;
	case KCOST_FIG_NIVCSW:
		x = v[KCOST_NIVCSWS];
		break;
	case KCOST_FIG_MAJFLT:
		x = v[KCOST_MAJFLTS];
		break;
	case KCOST_FIG_MINFLT:
		x = v[KCOST_MINFLTS];
		break;
	default:
		return NAN;
	}
	return x / commits;
}

/* --- the difference of two snapshots */

static int cmp_query(const void *a, const void *b)
{
	const struct kcost_query *x = a, *y = b;

	return (x->queryid > y->queryid) - (x->queryid < y->queryid);
}

/* The start row of queryid in the sorted copy, or NULL. */
static const struct kcost_query *find_query(const struct kcost_query *v,
					    size_t n, int64_t queryid)
{
	struct kcost_query key;

	key.queryid = queryid;
	return n ? bsearch(&key, v, n, sizeof(*v), cmp_query) : NULL;
}

/* One (type, event) of a type's waits, while adding up. */
struct wsum {
	int type;		     /* TXN_*, control or other */
	const struct kcost_wait *at; /* its names */
	double samples;		     /* added up */
};

static int cmp_wait(const void *a, const void *b)
{
	const struct kcost_wait *x = a, *y = b;
	int c = (x->queryid > y->queryid) - (x->queryid < y->queryid);

	if (c)
		return c;
	c = strcmp(x->type, y->type);
	return c ? c : strcmp(x->event, y->event);
}

/* The type map gives queryid; KCOST_TYPE_OTHER when not the workload's. */
static int type_of(const struct kcost_table *t, int64_t queryid)
{
	size_t i;

	for (i = 0; i < t->nmap; i++)
		if (t->map[i].queryid == queryid)
			return t->map[i].type;
	return KCOST_TYPE_OTHER;
}

/* Keep the KCOST_TOP_WAITS largest of a type's sums in its row. */
static void add_top(struct kcost_row *r, const struct wsum *w)
{
	size_t i = r->ntop;

	if (i == KCOST_TOP_WAITS) {
		if (w->samples <= r->top[i - 1].samples)
			return;
		i--;
	} else {
		r->ntop++;
	}
	while (i > 0 && r->top[i - 1].samples < w->samples) {
		r->top[i] = r->top[i - 1];
		i--;
	}
	snprintf(r->top[i].type, sizeof(r->top[i].type), "%s", w->at->type);
	snprintf(r->top[i].event, sizeof(r->top[i].event), "%s", w->at->event);
	r->top[i].samples = w->samples;
}

/* The waits' growth, by type and event, into t's rows. */
static int add_waits(struct kcost_table *t, const struct kcost_waits *ws,
		     const struct kcost_waits *we)
{
	struct kcost_wait *s = NULL;
	struct wsum *sums = NULL;
	size_t i, j, nsum = 0;
	int type;

	if (ws->n) {
		s = malloc(ws->n * sizeof(*s));
		if (!s)
			return -ENOMEM;
		memcpy(s, ws->w, ws->n * sizeof(*s));
		qsort(s, ws->n, sizeof(*s), cmp_wait);
	}
	sums = calloc(we->n ? we->n : 1, sizeof(*sums));
	if (!sums) {
		free(s);
		return -ENOMEM;
	}
	for (i = 0; i < we->n; i++) {
		const struct kcost_wait *e = &we->w[i], *b = NULL;
		double d;

		if (s)
			b = bsearch(e, s, ws->n, sizeof(*s), cmp_wait);
		d = e->count - (b ? b->count : 0);
		if (d < 0)
			d = e->count; /* reset in between */
		if (d <= 0)
			continue;
		t->wait_samples += d;
		if (e->queryid == 0) {
			t->wait_no_query += d;
			continue;
		}
		type = type_of(t, e->queryid);
		t->row[type].wait_samples += d;
		for (j = 0; j < nsum; j++)
			if (sums[j].type == type &&
			    strcmp(sums[j].at->type, e->type) == 0 &&
			    strcmp(sums[j].at->event, e->event) == 0)
				break;
		if (j == nsum) {
			sums[nsum].type = type;
			sums[nsum].at = e;
			nsum++;
		}
		sums[j].samples += d;
	}
	for (j = 0; j < nsum; j++)
		add_top(&t->row[sums[j].type], &sums[j]);
	for (i = 0; i < KCOST_TYPE_NR; i++)
		for (j = 0; j < t->row[i].ntop; j++)
			t->row[i].top[j].share = t->row[i].top[j].samples /
						 t->row[i].wait_samples;
	t->waits = true;
	free(sums);
	free(s);
	return 0;
}

int kcost_compute(const struct kcost_snapshot *start,
		  const struct kcost_snapshot *stop,
		  const struct kcost_waits *wstart,
		  const struct kcost_waits *wstop, struct kcost_table *out)
{
	struct kcost_query *s = NULL;
	size_t i;
	int k, rc = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->start_ts, sizeof(out->start_ts), "%s", start->ts);
	snprintf(out->stop_ts, sizeof(out->stop_ts), "%s", stop->ts);
	out->bad_lines = start->bad_lines + stop->bad_lines;
	if (start->n) {
		s = malloc(start->n * sizeof(*s));
		if (!s)
			return -ENOMEM;
		memcpy(s, start->q, start->n * sizeof(*s));
		qsort(s, start->n, sizeof(*s), cmp_query);
	}
	if (stop->n) {
		out->map = calloc(stop->n, sizeof(*out->map));
		if (!out->map) {
			free(s);
			return -ENOMEM;
		}
	}
	for (i = 0; i < stop->n; i++) {
		const struct kcost_query *e = &stop->q[i];
		const struct kcost_query *b =
			find_query(s, start->n, e->queryid);
		double d[KCOST_COUNTER_NR];
		bool reset = false;
		int type = parse_kcost_type(e->query);

		for (k = 0; k < KCOST_COUNTER_NR; k++) {
			d[k] = e->v[k] - (b ? b->v[k] : 0);
			if (d[k] < 0)
				reset = true;
		}
		if (reset) {
			out->resets++;
			memcpy(d, e->v, sizeof(d));
		}
		if (d[KCOST_CALLS] <= 0)
			continue; /* not run in the interval */
		for (k = 0; k < KCOST_COUNTER_NR; k++)
			out->row[type].v[k] += d[k];
		out->row[type].queries++;
		if (type != KCOST_TYPE_OTHER) {
			out->map[out->nmap].queryid = e->queryid;
			out->map[out->nmap].type = type;
			out->map[out->nmap].calls = d[KCOST_CALLS];
			out->nmap++;
		}
	}
	free(s);
	if (wstart && wstop) {
		out->bad_lines += wstart->bad_lines + wstop->bad_lines;
		rc = add_waits(out, wstart, wstop);
	}
	if (rc < 0) {
		kcost_free(out);
		return rc;
	}
	out->present = true;
	return 0;
}

void kcost_free(struct kcost_table *t)
{
	free(t->map);
	memset(t, 0, sizeof(*t));
}

/* sys_dir/name exists (as anything). */
static bool exists(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	fclose(f);
	return true;
}

/* The process snapshots, when both are there, into t->cpu. */
static int read_procs(const char *sys_dir, struct kcost_table *t,
		      struct err *err)
{
	char a_path[PATH_MAX], b_path[PATH_MAX];
	struct kcost_procs a = {0}, b = {0};
	int rc;

	if (snprintf(a_path, sizeof(a_path), "%s/kcost_procs.start.csv",
		     sys_dir) >= (int)sizeof(a_path) ||
	    snprintf(b_path, sizeof(b_path), "%s/kcost_procs.stop.csv",
		     sys_dir) >= (int)sizeof(b_path))
		return err_set(err, -ENAMETOOLONG, "%s: path too long",
			       sys_dir);
	if (!exists(a_path) || !exists(b_path))
		return 0;
	rc = parse_kcost_procs_file(a_path, &a, err);
	if (rc == 0)
		rc = parse_kcost_procs_file(b_path, &b, err);
	if (rc == 0) {
		kcost_cpu_compute(&a, &b, &t->cpu);
		t->bad_lines += a.bad_lines + b.bad_lines;
	} else {
		kcost_free(t);
	}
	parse_kcost_procs_free(&a);
	parse_kcost_procs_free(&b);
	return rc;
}

int kcost_read(const char *sys_dir, struct kcost_table *out, struct err *err)
{
	static const char *const names[4] = {
		"kcost.start.csv", "kcost.stop.csv", "kcost_waits.start.csv",
		"kcost_waits.stop.csv"};
	char path[4][PATH_MAX];
	struct kcost_snapshot a = {0}, b = {0};
	struct kcost_waits wa = {0}, wb = {0};
	bool waits;
	int i, rc;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < 4; i++)
		if (snprintf(path[i], sizeof(path[i]), "%s/%s", sys_dir,
			     names[i]) >= (int)sizeof(path[i]))
			return err_set(err, -ENAMETOOLONG, "%s: path too long",
				       sys_dir);
	if (!exists(path[0]) || !exists(path[1]))
		return 0;
	waits = exists(path[2]) && exists(path[3]);
	rc = parse_kcost_file(path[0], &a, err);
	if (rc == 0)
		rc = parse_kcost_file(path[1], &b, err);
	if (rc == 0 && waits)
		rc = parse_kcost_waits_file(path[2], &wa, err);
	if (rc == 0 && waits)
		rc = parse_kcost_waits_file(path[3], &wb, err);
	if (rc == 0) {
		rc = kcost_compute(&a, &b, waits ? &wa : NULL,
				   waits ? &wb : NULL, out);
		if (rc < 0)
			err_set(err, rc, "%s: out of memory", path[1]);
	}
	if (rc == 0)
		rc = read_procs(sys_dir, out, err);
	parse_kcost_free(&a);
	parse_kcost_free(&b);
	parse_kcost_waits_free(&wa);
	parse_kcost_waits_free(&wb);
	return rc;
}

void kcost_check(const struct kcost_table *t, double server_cpu_s,
		 struct kcost_check *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	out->server_cpu_s =
		isfinite(server_cpu_s) && server_cpu_s > 0 ? server_cpu_s : NAN;
	for (i = 0; i < KCOST_TYPE_NR; i++) {
		double cpu =
			t->row[i].v[KCOST_USER_S] + t->row[i].v[KCOST_SYSTEM_S];

		if (i == KCOST_TYPE_OTHER)
			out->other_cpu_s += cpu;
		else
			out->kcost_cpu_s += cpu;
	}
	if (t->cpu.present && t->cpu.terminals_s > 0) {
		out->backends_cpu_s = t->cpu.terminals_s;
	} else if (isfinite(out->server_cpu_s)) {
		out->whole_server = true;
		out->backends_cpu_s = out->server_cpu_s;
	}
	if (!t->present || !(out->backends_cpu_s > 0)) {
		out->diff_s = out->diff_pct = NAN;
		return;
	}
	out->known = true;
	out->diff_s = out->kcost_cpu_s - out->backends_cpu_s;
	out->diff_pct = 100.0 * out->diff_s / out->backends_cpu_s;
	out->agree = fabs(out->diff_pct) <= KCOST_AGREE_PCT;
}

/* A non-negative integer member of o into *v; false when not one. */
static bool bcpu_count(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *x = json_object_get(o, key);

	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return false;
	*v = (uint64_t)json_integer_value(x);
	return true;
}

void kcost_bcpu_from_json(const json_t *o, struct kcost_bcpu *out)
{
	static const char *const status_keys[TXN_STATUS_NR] = {
		[TXN_STATUS_OK] = "ok",
		[TXN_STATUS_ROLLBACK] = "rollback",
		[TXN_STATUS_ERROR] = "error",
	};
	const json_t *types, *reason;
	bool ok = true;
	int t, st;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(o))
		return;
	out->present = true;
	reason = json_object_get(o, "reason");
	if (!json_is_true(json_object_get(o, "measured"))) {
		snprintf(out->reason, sizeof(out->reason), "%s",
			 json_is_string(reason) ? json_string_value(reason)
						: "");
		return;
	}
	types = json_object_get(o, "types");
	for (t = 0; t < TXN_NR && ok; t++) {
		const json_t *ty = json_object_get(types, txn_type_name(t));

		for (st = 0; st < TXN_STATUS_NR && ok; st++) {
			const json_t *a = json_object_get(ty, status_keys[st]);
			struct schedstat_acc *x = &out->t.by[t][st];

			ok = bcpu_count(a, "txns", &x->txns) &&
			     bcpu_count(a, "cpu_ns", &x->cpu_ns) &&
			     bcpu_count(a, "run_wait_ns", &x->wait_ns) &&
			     bcpu_count(a, "timeslices", &x->slices);
		}
	}
	if (ok && json_object_get(o, "not_measured"))
		ok = bcpu_count(o, "not_measured", &out->t.not_measured);
	if (!ok) {
		memset(&out->t, 0, sizeof(out->t));
		snprintf(out->reason, sizeof(out->reason),
			 "run.json backend_cpu: a figure is not a count");
		return;
	}
	out->measured = true;
}

void kcost_bcpu_apply(struct kcost_table *t, const struct kcost_bcpu *b)
{
	int ty;

	t->bcpu = b->measured;
	for (ty = 0; ty < TXN_NR; ty++) {
		memset(&t->row[ty].bcpu, 0, sizeof(t->row[ty].bcpu));
		if (b->measured)
			t->row[ty].bcpu = b->t.by[ty][TXN_STATUS_OK];
	}
}

double kcost_bcpu_cpu_s(const struct kcost_bcpu *b)
{
	double ns = 0;
	int t, st;

	if (!b->measured)
		return NAN;
	for (t = 0; t < TXN_NR; t++)
		for (st = 0; st < TXN_STATUS_NR; st++)
			ns += (double)b->t.by[t][st].cpu_ns;
	return ns / 1e9;
}

void kcost_agree_check(const struct kcost_table *t, const struct kcost_bcpu *b,
		       struct kcost_agree *out)
{
	memset(out, 0, sizeof(*out));
	out->schedstat_cpu_s = kcost_bcpu_cpu_s(b);
	out->backends_cpu_s = t->cpu.present && t->cpu.terminals_s > 0
				      ? t->cpu.terminals_s
				      : NAN;
	if (!isfinite(out->schedstat_cpu_s) || !isfinite(out->backends_cpu_s)) {
		out->diff_s = out->diff_pct = NAN;
		return;
	}
	out->known = true;
	out->diff_s = out->schedstat_cpu_s - out->backends_cpu_s;
	out->diff_pct = 100.0 * out->diff_s / out->backends_cpu_s;
	out->agree = fabs(out->diff_pct) <= KCOST_AGREE_PCT;
}
