/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_evidence.c - the contest table and representative runs of
 * `oltpmark compare` (compare_evidence.h), the helpers the module's
 * files share, and compare_evidence_build() over the whole; the profile
 * and lock tables are in compare_evidence_tables.c.
 *
 * CPU and I/O wait are vmstat means over each run's measured window
 * (vmstat -t timestamps against meta.json's start plus the window of
 * summary.json), averaged over the label's scored runs. Profiles and lock
 * statistics are averaged over the runs that have them, as shares of
 * each run's total, so runs of different lengths weigh the same. The
 * host probe of a run is the mean of the probes before and after it.
 */
#include "analysis/compare/compare_evidence.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/parsers/parse_probe.h"
#include "analysis/parsers/parse_vmstat.h"
#include "analysis/common/stats.h"

int compare_evidence_remark(struct cev *ev, const char *dir, const char *fmt,
			    ...)
{
	struct runset_problem *grown;
	char text[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	grown = realloc(ev->remarks, (ev->nremarks + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ev->remarks = grown;
	grown[ev->nremarks].dir = strdup(dir);
	grown[ev->nremarks].reason = strdup(text);
	if (!grown[ev->nremarks].dir || !grown[ev->nremarks].reason) {
		free(grown[ev->nremarks].dir);
		free(grown[ev->nremarks].reason);
		return -ENOMEM;
	}
	ev->nremarks++;
	return 0;
}

bool compare_evidence_run_has_file(const struct runset_run *run,
				   const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", run->dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

FILE *compare_evidence_open_sys(const struct runset_run *run, const char *name,
				struct err *err)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", run->dir, name);
	f = fopen(path, "r");
	if (!f)
		err_set(err, -errno, "%s", strerror(errno));
	return f;
}

/* --- vmstat */

/* Column value of sample i; "us+sy" is the sum of two columns. */
static double vm_value(const struct vmstat_series *s, size_t i, int col,
		       int col2)
{
	double v = parse_vmstat_value(s, i, col);

	if (col2 >= 0)
		v += parse_vmstat_value(s, i, col2);
	return v;
}

/* Columns for key: col (and col2 for us+sy); false when absent. */
static bool vm_columns(const struct vmstat_series *s, const char *key, int *col,
		       int *col2)
{
	*col2 = -1;
	if (strcmp(key, "us+sy") == 0) {
		*col = parse_vmstat_column(s, "us");
		*col2 = parse_vmstat_column(s, "sy");
		return *col >= 0 && *col2 >= 0;
	}
	*col = parse_vmstat_column(s, key);
	return *col >= 0;
}

/*
 * Whether sample i lies in the run's window. vmstat stamps a line when
 * its one-second interval ends, so a sample covers (t - 1, t].
 */
static bool vm_in_window(const struct vmstat_series *s, size_t i,
			 const struct runset_run *run)
{
	double t = (double)s->time_s[i] - run->start_epoch_s;

	return t > run->window_start_s && t <= run->window_end_s;
}

/* Means of us+sy and wa over the run's window (or every sample). */
static int run_vmstat(struct cev *ev, const struct runset_run *run, double *cpu,
		      double *wa)
{
	struct vmstat_series s = {0};
	struct err err = {""};
	double sum_cpu = 0, sum_wa = 0;
	size_t i, n = 0, nwa = 0;
	bool windowed;
	int us, sy, wcol, rc = 0;
	FILE *f;

	*cpu = *wa = NAN;
	if (!compare_evidence_run_has_file(run, "sys/vmstat.txt"))
		return 0;
	f = compare_evidence_open_sys(run, "sys/vmstat.txt", &err);
	if (f) {
		rc = parse_vmstat(f, &s, &err);
		fclose(f);
	}
	if (!f || rc < 0) {
		rc = compare_evidence_remark(
			ev, run->dir,
			"sys/vmstat.txt ignored (%s): CPU and I/O wait unknown",
			err.msg);
		parse_vmstat_free(&s);
		return rc;
	}
	/* One cut last line is how a sampler that was stopped leaves it. */
	if (s.bad_lines > 1)
		rc = compare_evidence_remark(
			ev, run->dir,
			"sys/vmstat.txt: %zu lines could not be read",
			s.bad_lines);
	windowed = s.has_time && !isnan(run->start_epoch_s) &&
		   !isnan(run->window_start_s);
	if (windowed) {
		for (i = 0; i < s.nsamples && !n; i++)
			n += vm_in_window(&s, i, run);
		if (!n && rc == 0) {
			windowed = false;
			rc = compare_evidence_remark(
				ev, run->dir,
				"sys/vmstat.txt: no sample inside the measured "
				"window; all %zu samples used",
				s.nsamples);
		}
	} else if (!s.has_time && !isnan(run->window_start_s) && rc == 0) {
		rc = compare_evidence_remark(
			ev, run->dir,
			"sys/vmstat.txt has no timestamps (vmstat -t): "
			"CPU and I/O wait over all %zu samples",
			s.nsamples);
	}
	n = 0;
	vm_columns(&s, "us+sy", &us, &sy);
	wcol = parse_vmstat_column(&s, "wa");
	for (i = 0; i < s.nsamples; i++) {
		if (windowed && !vm_in_window(&s, i, run))
			continue;
		if (us >= 0 && sy >= 0) {
			sum_cpu += vm_value(&s, i, us, sy);
			n++;
		}
		if (wcol >= 0) {
			sum_wa += parse_vmstat_value(&s, i, wcol);
			nwa++;
		}
	}
	if (n)
		*cpu = sum_cpu / (double)n;
	if (nwa)
		*wa = sum_wa / (double)nwa;
	parse_vmstat_free(&s);
	return rc;
}

long compare_evidence_vmstat_points(const struct runset_run *run,
				    const char *key, double **x, double **y,
				    bool *since_start)
{
	struct vmstat_series s = {0};
	struct err err = {""};
	int col, col2, rc;
	size_t i;
	FILE *f;

	*x = *y = NULL;
	*since_start = false;
	f = compare_evidence_open_sys(run, "sys/vmstat.txt", &err);
	if (!f)
		return 0;
	rc = parse_vmstat(f, &s, &err);
	fclose(f);
	if (rc < 0) {
		parse_vmstat_free(&s);
		return rc == -ENOMEM ? rc : 0;
	}
	if (!vm_columns(&s, key, &col, &col2)) {
		parse_vmstat_free(&s);
		return 0;
	}
	*x = calloc(s.nsamples, sizeof(**x));
	*y = calloc(s.nsamples, sizeof(**y));
	if (!*x || !*y) {
		free(*x);
		free(*y);
		*x = *y = NULL;
		parse_vmstat_free(&s);
		return -ENOMEM;
	}
	*since_start = s.has_time && !isnan(run->start_epoch_s);
	for (i = 0; i < s.nsamples; i++) {
		(*x)[i] = *since_start
				  ? (double)s.time_s[i] - run->start_epoch_s
				  : (double)(i + 1);
		(*y)[i] = vm_value(&s, i, col, col2);
	}
	parse_vmstat_free(&s);
	return (long)i;
}

/* --- contest table */

/* Mean of the finite values; NAN when there are none. */
static double mean_known(const double *v, size_t n)
{
	double sum = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[i])) {
			sum += v[i];
			k++;
		}
	return k ? sum / (double)k : NAN;
}

/*
 * Mean and CoV (NAN below 2 values) of the finite values of v[0..n-1],
 * which are moved to the front of v.
 */
static void mean_cov_known(double *v, size_t n, double *mean, double *cov)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	*mean = stats_mean(v, k);
	*cov = stats_cov(v, k);
}

/* 100 x v / base, NAN when either is unknown (or base is not positive). */
static double vs_base(double v, double base)
{
	return base > 0 && isfinite(v) ? 100 * v / base : NAN;
}

/* --- host probe */

/* The figures of a run's probes, in the order of its work arrays. */
enum probe_fig {
	PROBE_CPU,   /* cpu.ns_per_op */
	PROBE_MEM,   /* memory.ns_per_op */
	PROBE_FSYNC, /* fsync.us_median, in ms */
	PROBE_FIG_NR /* number of figures */
};

/* A run's probe files: one just before it, one just after. */
static const char *const probe_files[] = {
	"sys/hostprobe.start.json",
	"sys/hostprobe.stop.json",
};

/*
 * One probe file of run into *p. 1 when read; 0 when absent, or when it
 * could not be read (remarked), with p all NAN; -ENOMEM.
 */
static int read_probe(struct cev *ev, const struct runset_run *run,
		      const char *name, struct hprobe *p)
{
	struct err err = {""};
	int rc = -EIO;
	FILE *f;

	*p = (struct hprobe){NAN, NAN, NAN, NAN, NAN};
	if (!compare_evidence_run_has_file(run, name))
		return 0;
	f = compare_evidence_open_sys(run, name, &err);
	if (f) {
		rc = parse_probe(f, p, &err);
		fclose(f);
	}
	if (rc == 0 && !(p->others_busy_pct > CEV_PROBE_BUSY_MAX_PCT))
		return 1;
	if (rc == 0) {
		/* it shared the machine with other work: not the host's speed */
		rc = compare_evidence_remark(
			ev, run->dir,
			"%s not counted: other work used %.0f %% of the "
			"CPUs while it ran",
			name, p->others_busy_pct);
		*p = (struct hprobe){NAN, NAN, NAN, NAN, NAN};
		return rc < 0 ? rc : 0;
	}
	rc = compare_evidence_remark(ev, run->dir, "%s ignored (%s)", name,
				     err.msg);
	return rc < 0 ? rc : 0;
}

/*
 * A run's probe figures into v[PROBE_FIG_NR]: each the mean of the two
 * probes, or the one that has it (NAN when neither). 1 when a probe file
 * was read, 0 when none, -ENOMEM.
 */
static int run_probe(struct cev *ev, const struct runset_run *run, double *v)
{
	struct hprobe p[2];
	size_t i;
	int rc, got = 0;

	for (i = 0; i < 2; i++) {
		rc = read_probe(ev, run, probe_files[i], &p[i]);
		if (rc < 0)
			return rc;
		got += rc;
	}
	v[PROBE_CPU] = mean_known((double[]){p[0].cpu_ns, p[1].cpu_ns}, 2);
	v[PROBE_MEM] = mean_known((double[]){p[0].mem_ns, p[1].mem_ns}, 2);
	v[PROBE_FSYNC] = mean_known((double[]){p[0].fsync_us_median,
					       p[1].fsync_us_median},
				    2) /
			 1000;
	return got > 0;
}

/* Means and CoVs of the runs' probe figures; probe[f] has n values. */
static void contest_probe(struct cev_contest *c, double *const *probe, size_t n)
{
	mean_cov_known(probe[PROBE_CPU], n, &c->host_cpu_ns, &c->host_cpu_cov);
	mean_cov_known(probe[PROBE_MEM], n, &c->host_mem_ns, &c->host_mem_cov);
	mean_cov_known(probe[PROBE_FSYNC], n, &c->host_fsync_ms,
		       &c->host_fsync_cov);
	c->host_cpu_vs_base = c->host_mem_vs_base = c->host_fsync_vs_base = NAN;
}

/* --- the median run */

/* Sort helper for the median run: by metric, then by run index. */
struct rank_item {
	double metric; /* the run's metric */
	size_t run;    /* index in rs->runs */
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank_item *x = a, *y = b;

	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

/*
 * Work arrays of a contest cell, rs->nruns doubles each: NOTPM, p90,
 * New-Order mean, CPU, I/O wait, then the probe figures.
 */
#define CONTEST_RUN_FIGS 5
#define CONTEST_WORK	 (CONTEST_RUN_FIGS + PROBE_FIG_NR)

/* One contest cell; work holds CONTEST_WORK arrays. */
static int contest_cell(struct cev *ev, const struct runset *rs,
			const char *label, const char *config,
			struct cev_contest *c, double *work,
			struct rank_item *rank)
{
	double *notpm = work, *p90 = work + rs->nruns,
	       *nomean = work + 2 * rs->nruns, *cpu = work + 3 * rs->nruns,
	       *wa = work + 4 * rs->nruns, *probe[PROBE_FIG_NR];
	double fig[PROBE_FIG_NR];
	size_t r, f, n = 0;
	int rc;

	for (f = 0; f < PROBE_FIG_NR; f++)
		probe[f] = work + (CONTEST_RUN_FIGS + f) * rs->nruns;
	memset(c, 0, sizeof(*c));
	c->rep_run = -1;
	for (r = 0; r < rs->nruns; r++) {
		const struct runset_run *run = &rs->runs[r];

		if (run->exclusion != RUNSET_SCORED ||
		    strcmp(run->label, label) || strcmp(run->config, config))
			continue;
		notpm[n] = run->notpm;
		p90[n] = run->no_p90_ms;
		nomean[n] = run->no_mean_ms;
		rc = run_vmstat(ev, run, &cpu[n], &wa[n]);
		if (rc < 0)
			return rc;
		if (isfinite(cpu[n]))
			c->vmstat_runs++;
		rc = run_probe(ev, run, fig);
		if (rc < 0)
			return rc;
		c->probe_runs += (size_t)rc;
		for (f = 0; f < PROBE_FIG_NR; f++)
			probe[f][n] = fig[f];
		rank[n] = (struct rank_item){run->metric, r};
		n++;
	}
	c->runs = n;
	c->notpm = mean_known(notpm, n);
	c->no_p90_ms = mean_known(p90, n);
	c->no_mean_ms = mean_known(nomean, n);
	c->cpu_pct = mean_known(cpu, n);
	c->iowait_pct = mean_known(wa, n);
	c->ratio = NAN;
	contest_probe(c, probe, n);
	if (n) {
		/* The median run; with an even count the lower middle. */
		qsort(rank, n, sizeof(*rank), cmp_rank);
		c->rep_run = (long)rank[(n - 1) / 2].run;
	}
	return 0;
}

const struct cev_contest *
compare_evidence_contest_at(const struct cev *ev, size_t label, size_t config)
{
	return &ev->contest[label * ev->nconfigs + config];
}

/* Each label of column config against the baseline's cell. */
static void contest_vs_base(struct cev *ev, const struct score_table *t,
			    size_t config)
{
	const struct cev_contest *base =
		compare_evidence_contest_at(ev, t->baseline, config);
	size_t l;

	for (l = 0; l < t->nlabels; l++) {
		struct cev_contest *cell =
			&ev->contest[l * t->nconfigs + config];

		if (base->no_mean_ms > 0 && isfinite(cell->no_mean_ms))
			cell->ratio = cell->no_mean_ms / base->no_mean_ms;
		cell->host_cpu_vs_base =
			vs_base(cell->host_cpu_ns, base->host_cpu_ns);
		cell->host_mem_vs_base =
			vs_base(cell->host_mem_ns, base->host_mem_ns);
		cell->host_fsync_vs_base =
			vs_base(cell->host_fsync_ms, base->host_fsync_ms);
	}
}

static int build_contest(struct cev *ev, const struct runset *rs,
			 const struct score_table *t)
{
	struct rank_item *rank;
	double *work;
	size_t l, c;
	int rc = 0;

	ev->nlabels = t->nlabels;
	ev->nconfigs = t->nconfigs;
	ev->contest =
		calloc(t->nlabels * t->nconfigs + 1, sizeof(*ev->contest));
	work = calloc(CONTEST_WORK * rs->nruns + 1, sizeof(*work));
	rank = calloc(rs->nruns + 1, sizeof(*rank));
	if (!ev->contest || !work || !rank) {
		rc = -ENOMEM;
		goto out;
	}
	for (c = 0; c < t->nconfigs && rc == 0; c++)
		for (l = 0; l < t->nlabels && rc == 0; l++)
			rc = contest_cell(ev, rs, t->labels[l], t->configs[c],
					  &ev->contest[l * t->nconfigs + c],
					  work, rank);
	for (c = 0; c < t->nconfigs && rc == 0; c++)
		contest_vs_base(ev, t, c);
out:
	free(work);
	free(rank);
	return rc;
}

/* --- the whole */

/* The devices table; its remarks join the others, after them. */
static int build_devices(struct cev *ev, const struct runset *rs,
			 const struct score_table *t, struct err *err)
{
	struct cdevices *d = &ev->devices;
	struct runset_problem *grown;
	int rc = compare_devices_build(d, rs, t, err);

	if (rc < 0 || !d->nremarks)
		return rc;
	grown = realloc(ev->remarks,
			(ev->nremarks + d->nremarks) * sizeof(*grown));
	if (!grown)
		return err_set(err, -ENOMEM, "out of memory");
	memcpy(grown + ev->nremarks, d->remarks, d->nremarks * sizeof(*grown));
	ev->remarks = grown;
	ev->nremarks += d->nremarks;
	free(d->remarks);
	d->remarks = NULL;
	d->nremarks = 0;
	return 0;
}

int compare_evidence_build(struct cev *ev, const struct runset *rs,
			   const struct score_table *t, struct err *err)
{
	size_t c, l;
	int rc, source;

	memset(ev, 0, sizeof(*ev));
	rc = build_contest(ev, rs, t);
	/* Source by source: the remarks come out in that order. */
	for (source = 0; source < CEV_SOURCE_NR && rc == 0; source++)
		for (c = 0; c < t->nconfigs && rc == 0; c++)
			for (l = 0; l < t->nlabels && rc == 0; l++)
				rc = compare_evidence_build_table(
					ev, rs, t->labels[l], t->configs[c],
					(enum cev_source)source);
	if (rc < 0)
		return err_set(err, rc, "out of memory");
	rc = build_devices(ev, rs, t, err);
	return rc < 0 ? rc : compare_kcost_build(&ev->kcost, rs, t, err);
}

void compare_evidence_free(struct cev *ev)
{
	size_t i, k;

	if (!ev)
		return;
	free(ev->contest);
	for (i = 0; i < ev->nprofiles; i++) {
		for (k = 0; k < ev->profiles[i].nsyms; k++)
			free(ev->profiles[i].syms[k].name);
		free(ev->profiles[i].syms);
	}
	free(ev->profiles);
	for (i = 0; i < ev->nlocks; i++) {
		for (k = 0; k < ev->locks[i].nlocks; k++)
			free(ev->locks[i].locks[k].name);
		free(ev->locks[i].locks);
	}
	free(ev->locks);
	compare_devices_free(&ev->devices);
	compare_kcost_free(&ev->kcost);
	for (i = 0; i < ev->nremarks; i++) {
		free(ev->remarks[i].dir);
		free(ev->remarks[i].reason);
	}
	free(ev->remarks);
	memset(ev, 0, sizeof(*ev));
}
