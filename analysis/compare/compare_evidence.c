/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_evidence.c - the contest table, representative runs, and the
 * profile and lock tables of `oltpmark compare` (compare_evidence.h).
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

#include "analysis/parsers/parse_lockstat.h"
#include "analysis/parsers/parse_perf.h"
#include "analysis/parsers/parse_perflock.h"
#include "analysis/parsers/parse_probe.h"
#include "analysis/parsers/parse_readprofile.h"
#include "analysis/parsers/parse_vmstat.h"
#include "analysis/common/stats.h"

static int remark(struct cev *ev, const char *dir, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int remark(struct cev *ev, const char *dir, const char *fmt, ...)
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

static bool run_has_file(const struct runset_run *run, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", run->dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Open run->dir/name for reading. NULL with err set when it cannot be.
 * The parsers then get the stream, so their messages do not repeat the
 * path that the remark already names.
 */
static FILE *open_sys(const struct runset_run *run, const char *name,
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
	if (!run_has_file(run, "sys/vmstat.txt"))
		return 0;
	f = open_sys(run, "sys/vmstat.txt", &err);
	if (f) {
		rc = parse_vmstat(f, &s, &err);
		fclose(f);
	}
	if (!f || rc < 0) {
		rc = remark(
			ev, run->dir,
			"sys/vmstat.txt ignored (%s): CPU and I/O wait unknown",
			err.msg);
		parse_vmstat_free(&s);
		return rc;
	}
	/* One cut last line is how a sampler that was stopped leaves it. */
	if (s.bad_lines > 1)
		rc = remark(ev, run->dir,
			    "sys/vmstat.txt: %zu lines could not be read",
			    s.bad_lines);
	windowed = s.has_time && !isnan(run->start_epoch_s) &&
		   !isnan(run->window_start_s);
	if (windowed) {
		for (i = 0; i < s.nsamples && !n; i++)
			n += vm_in_window(&s, i, run);
		if (!n && rc == 0) {
			windowed = false;
			rc = remark(
				ev, run->dir,
				"sys/vmstat.txt: no sample inside the measured "
				"window; all %zu samples used",
				s.nsamples);
		}
	} else if (!s.has_time && !isnan(run->window_start_s) && rc == 0) {
		rc = remark(ev, run->dir,
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
	f = open_sys(run, "sys/vmstat.txt", &err);
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
	if (!run_has_file(run, name))
		return 0;
	f = open_sys(run, name, &err);
	if (f) {
		rc = parse_probe(f, p, &err);
		fclose(f);
	}
	if (rc == 0 && !(p->others_busy_pct > CEV_PROBE_BUSY_MAX_PCT))
		return 1;
	if (rc == 0) {
		/* it shared the machine with other work: not the host's speed */
		rc = remark(ev, run->dir,
			    "%s not counted: other work used %.0f %% of the "
			    "CPUs while it ran",
			    name, p->others_busy_pct);
		*p = (struct hprobe){NAN, NAN, NAN, NAN, NAN};
		return rc < 0 ? rc : 0;
	}
	rc = remark(ev, run->dir, "%s ignored (%s)", name, err.msg);
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

/* --- profiles */

/* A (symbol, share) pair of one run, before merging runs. */
struct share {
	char *name; /* normalised symbol, owned */
	double pct; /* % of that run's total */
};

/* A growing list of shares. */
struct share_list {
	struct share *v; /* entries */
	size_t n, cap;	 /* used, allocated */
};

static int share_add(struct share_list *l, const char *name, double pct)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct share *grown = realloc(l->v, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		l->v = grown;
		l->cap = cap;
	}
	l->v[l->n].name = strdup(name);
	if (!l->v[l->n].name)
		return -ENOMEM;
	l->v[l->n++].pct = pct;
	return 0;
}

static void share_free(struct share_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_share_name(const void *a, const void *b)
{
	return strcmp(((const struct share *)a)->name,
		      ((const struct share *)b)->name);
}

static int cmp_symbol(const void *a, const void *b)
{
	const struct cev_symbol *x = a, *y = b;

	if (x->pct != y->pct)
		return x->pct > y->pct ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Merge the shares of runs runs into a profile (symbols by share). */
static int merge_profile(struct cev_profile *prof, struct share_list *l)
{
	size_t i, k = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_share_name);
	prof->syms = calloc(l->n + 1, sizeof(*prof->syms));
	if (!prof->syms)
		return -ENOMEM;
	for (i = 0; i < l->n; i++) {
		if (k && strcmp(prof->syms[k - 1].name, l->v[i].name) == 0) {
			prof->syms[k - 1].pct += l->v[i].pct;
			continue;
		}
		/* Hand the name over instead of copying it. */
		prof->syms[k].name = l->v[i].name;
		prof->syms[k].pct = l->v[i].pct;
		l->v[i].name = NULL;
		k++;
	}
	prof->nsyms = k;
	for (i = 0; i < k; i++)
		prof->syms[i].pct /= (double)prof->runs;
	if (k)
		qsort(prof->syms, k, sizeof(*prof->syms), cmp_symbol);
	return 0;
}

/*
 * Merge l, the shares of runs runs of label and config, into a new
 * profile of ev. 0, or -ENOMEM.
 */
static int add_profile(struct cev *ev, const char *label, const char *config,
		       enum cev_source source, size_t runs,
		       struct share_list *l)
{
	struct cev_profile prof = {.label = label,
				   .config = config,
				   .source = source,
				   .runs = runs};
	struct cev_profile *grown;
	size_t i;
	int rc;

	rc = merge_profile(&prof, l);
	if (rc < 0)
		goto fail;
	grown = realloc(ev->profiles, (ev->nprofiles + 1) * sizeof(*grown));
	if (!grown) {
		rc = -ENOMEM;
		goto fail;
	}
	ev->profiles = grown;
	grown[ev->nprofiles++] = prof;
	return 0;
fail:
	for (i = 0; i < prof.nsyms; i++)
		free(prof.syms[i].name);
	free(prof.syms);
	return rc;
}

const struct cev_profile *compare_evidence_profile_find(const struct cev *ev,
							const char *label,
							const char *config,
							enum cev_source source)
{
	size_t i;

	for (i = 0; i < ev->nprofiles; i++)
		if (ev->profiles[i].source == source &&
		    strcmp(ev->profiles[i].label, label) == 0 &&
		    strcmp(ev->profiles[i].config, config) == 0)
			return &ev->profiles[i];
	return NULL;
}

double compare_evidence_profile_pct(const struct cev_profile *p,
				    const char *name)
{
	size_t i;

	for (i = 0; p && i < p->nsyms; i++)
		if (strcmp(p->syms[i].name, name) == 0)
			return p->syms[i].pct;
	return 0;
}

/* --- locks */

/* A lock of one run, before merging runs. */
struct lock_item {
	char *name;   /* class name, with -W / -R for rw sides; or caller */
	bool storage; /* storage lock */
	double contentions;  /* waits */
	double wait_us;	     /* total wait time */
	double acquisitions; /* acquisitions, NAN unknown */
};

/* A growing list of lock items. */
struct lock_list {
	struct lock_item *v; /* entries */
	size_t n, cap;	     /* used, allocated */
};

static int lock_add(struct lock_list *l, const struct lock_item *item)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct lock_item *grown = realloc(l->v, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		l->v = grown;
		l->cap = cap;
	}
	l->v[l->n] = *item;
	l->v[l->n].name = strdup(item->name);
	if (!l->v[l->n].name)
		return -ENOMEM;
	l->n++;
	return 0;
}

static void lock_list_free(struct lock_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* NAN counts as 0 when adding up runs. */
static double or_zero(double v)
{
	return isfinite(v) ? v : 0;
}

/* --- reading one run's file */

/* What the runs' files of one source add up to: shares or lock items. */
struct collected {
	struct share_list shares; /* profile sources */
	struct lock_list locks;	  /* lock sources */
};

/*
 * readprofile: parsed, clone suffixes merged; a profile without ticks is
 * no profile (-ENODATA).
 */
static int parse_readprofile_merged(FILE *f, void *data, struct err *err)
{
	struct rprof_profile *p = data;
	int rc = parse_readprofile(f, p, err);

	if (rc == 0)
		rc = parse_readprofile_merge_normalized(p, err);
	if (rc == 0 && p->total_ticks == 0)
		rc = err_set(err, -ENODATA, "no ticks");
	return rc;
}

static void release_readprofile(void *data)
{
	parse_readprofile_free(data);
}

/* A run's readprofile as shares of its total ticks. */
static int collect_readprofile(struct cev *ev, const struct runset_run *run,
			       const void *data, struct collected *out)
{
	const struct rprof_profile *p = data;
	size_t i;
	int rc;

	(void)ev;
	(void)run;
	for (i = 0; i < p->n; i++) {
		rc = share_add(&out->shares, p->entries[i].name,
			       100.0 * (double)p->entries[i].ticks /
				       (double)p->total_ticks);
		if (rc < 0)
			return rc;
	}
	return 1;
}

/* perf report: parsed, clone suffixes merged. */
static int parse_perf_merged(FILE *f, void *data, struct err *err)
{
	int rc = parse_perf(f, data, err);

	if (rc == 0)
		rc = parse_perf_merge_normalized(data, err);
	return rc;
}

static void release_perf(void *data)
{
	parse_perf_free(data);
}

/*
 * A run's perf report as shares: the first event's entries, kernel
 * symbols by name, user space ones as "symbol (dso)".
 */
static int collect_perf(struct cev *ev, const struct runset_run *run,
			const void *data, struct collected *out)
{
	const struct perf_report *r = data;
	const char *file = compare_evidence_source_file(CEV_PERF);
	size_t i;
	int rc = 0;

	if (r->bad_lines > 1)
		rc = remark(ev, run->dir, "%s: %zu lines could not be read",
			    file, r->bad_lines);
	if (r->nevents > 1 && rc >= 0)
		rc = remark(ev, run->dir,
			    "%s has %zu events: only the first (%s) is used",
			    file, r->nevents, r->events[0]);
	for (i = 0; i < r->n && rc >= 0; i++) {
		const struct perf_entry *e = &r->entries[i];
		char name[512];

		if (e->event != 0 || !isfinite(e->overhead_pct))
			continue;
		if (e->marker == 'k')
			snprintf(name, sizeof(name), "%s", e->symbol);
		else
			snprintf(name, sizeof(name), "%s (%s)", e->symbol,
				 e->dso ? e->dso : "?");
		rc = share_add(&out->shares, name, e->overhead_pct);
	}
	return rc < 0 ? rc : 1;
}

static int parse_lockstat_stream(FILE *f, void *data, struct err *err)
{
	return parse_lockstat(f, data, err);
}

static void release_lockstat(void *data)
{
	parse_lockstat_free(data);
}

/* A run's lock_stat classes as lock items, rw sides apart. */
static int collect_lockstat(struct cev *ev, const struct runset_run *run,
			    const void *data, struct collected *out)
{
	static const char *const kind_suffix[] = {
		[LOCKSTAT_EXCL] = "",
		[LOCKSTAT_WRITE] = "-W",
		[LOCKSTAT_READ] = "-R",
	};
	const struct lockstat_data *d = data;
	size_t i;
	int rc;

	/* lock_stat is read in one go: any cut line is data lost. */
	if (d->bad_lines) {
		rc = remark(ev, run->dir,
			    "%s: %zu lines could not be read (cut short?)",
			    compare_evidence_source_file(CEV_LOCK_STAT),
			    d->bad_lines);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < d->n; i++) {
		const struct lockstat_class *c = &d->classes[i];
		char name[512];
		struct lock_item item;

		snprintf(name, sizeof(name), "%s%s", c->name,
			 kind_suffix[c->kind]);
		item = (struct lock_item){
			.name = name,
			.storage = c->is_storage_lock,
			.contentions = or_zero(c->v[LS_CONTENTIONS]),
			.wait_us = or_zero(c->v[LS_WAITTIME_TOTAL]),
			.acquisitions = d->has_col[LS_ACQUISITIONS]
						? or_zero(c->v[LS_ACQUISITIONS])
						: NAN,
		};
		rc = lock_add(&out->locks, &item);
		if (rc < 0)
			return rc;
	}
	return 1;
}

static int parse_perflock_stream(FILE *f, void *data, struct err *err)
{
	return parse_perflock(f, data, err);
}

static void release_perflock(void *data)
{
	parse_perflock_free(data);
}

/*
 * A run's perf lock contention rows as lock items, named by the caller's
 * function (offset and clone suffixes stripped); merge_locks() adds up
 * the rows of one function.
 */
static int collect_perflock(struct cev *ev, const struct runset_run *run,
			    const void *data, struct collected *out)
{
	const struct perflock_data *d = data;
	size_t i;
	int rc;

	/* perf prints the table in one go: a bad row is data lost. */
	if (d->bad_lines) {
		rc = remark(ev, run->dir,
			    "%s: %zu lines could not be read (cut short?)",
			    compare_evidence_source_file(CEV_PERF_LOCK),
			    d->bad_lines);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < d->n; i++) {
		const struct perflock_row *r = &d->rows[i];
		struct lock_item item = {
			.name = r->func,
			.storage = r->storage,
			.contentions = (double)r->contended,
			.wait_us = or_zero(r->total_us),
			.acquisitions = NAN,
		};

		rc = lock_add(&out->locks, &item);
		if (rc < 0)
			return rc;
	}
	return 1;
}

static int cmp_item_name(const void *a, const void *b)
{
	return strcmp(((const struct lock_item *)a)->name,
		      ((const struct lock_item *)b)->name);
}

/* Storage locks first, then most contended, then by name. */
static int cmp_lock(const void *a, const void *b)
{
	const struct cev_lock *x = a, *y = b;

	if (x->storage != y->storage)
		return x->storage ? -1 : 1;
	if (x->contentions != y->contentions)
		return x->contentions > y->contentions ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Merge the runs' items into per-lock means. */
static int merge_locks(struct cev_locks *out, struct lock_list *l)
{
	size_t i, k = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_item_name);
	out->locks = calloc(l->n + 1, sizeof(*out->locks));
	if (!out->locks)
		return -ENOMEM;
	for (i = 0; i < l->n; i++) {
		struct cev_lock *m;

		if (k && strcmp(out->locks[k - 1].name, l->v[i].name) == 0) {
			m = &out->locks[k - 1];
			m->contentions += l->v[i].contentions;
			m->wait_total_us += l->v[i].wait_us;
			m->acquisitions += l->v[i].acquisitions;
			continue;
		}
		m = &out->locks[k++];
		m->name = l->v[i].name;
		l->v[i].name = NULL;
		m->storage = l->v[i].storage;
		m->contentions = l->v[i].contentions;
		m->wait_total_us = l->v[i].wait_us;
		m->acquisitions = l->v[i].acquisitions;
	}
	out->nlocks = k;
	for (i = 0; i < k; i++) {
		/* A lock absent from some runs had no entry there: 0. */
		out->locks[i].contentions /= (double)out->runs;
		out->locks[i].wait_total_us /= (double)out->runs;
		out->locks[i].acquisitions /= (double)out->runs;
	}
	if (k)
		qsort(out->locks, k, sizeof(*out->locks), cmp_lock);
	return 0;
}

/*
 * Merge l, the lock items of runs runs of label and config, into a new
 * lock table of ev. 0, or -ENOMEM.
 */
static int add_locks(struct cev *ev, const char *label, const char *config,
		     enum cev_source source, size_t runs, struct lock_list *l)
{
	struct cev_locks locks = {.label = label,
				  .config = config,
				  .source = source,
				  .runs = runs};
	struct cev_locks *grown;
	size_t i;
	int rc;

	rc = merge_locks(&locks, l);
	if (rc < 0)
		goto fail;
	grown = realloc(ev->locks, (ev->nlocks + 1) * sizeof(*grown));
	if (!grown) {
		rc = -ENOMEM;
		goto fail;
	}
	ev->locks = grown;
	grown[ev->nlocks++] = locks;
	return 0;
fail:
	for (i = 0; i < locks.nlocks; i++)
		free(locks.locks[i].name);
	free(locks.locks);
	return rc;
}

const struct cev_locks *compare_evidence_locks_find(const struct cev *ev,
						    const char *label,
						    const char *config,
						    enum cev_source source)
{
	size_t i;

	for (i = 0; i < ev->nlocks; i++)
		if (ev->locks[i].source == source &&
		    strcmp(ev->locks[i].label, label) == 0 &&
		    strcmp(ev->locks[i].config, config) == 0)
			return &ev->locks[i];
	return NULL;
}

const struct cev_lock *compare_evidence_lock_find(const struct cev_locks *l,
						  const char *name)
{
	size_t i;

	for (i = 0; l && i < l->nlocks; i++)
		if (strcmp(l->locks[i].name, name) == 0)
			return &l->locks[i];
	return NULL;
}

/* --- the sources */

/*
 * The profile and lock sources, in enum cev_source order: where each
 * is, how it is parsed, and what a parsed file adds. compare reads them
 * all the same way (read_source()); adding a source is adding a row.
 */
static const struct source_desc {
	const char *name; /* compare_evidence_source_name() */
	const char *file; /* below the run directory */
	bool locks;	  /* gives lock tables, else profiles */
	size_t size;	  /* bytes of the parser's struct */
	/* parse f into data (zeroed): 0, -ENOMEM, or why it is ignored */
	int (*parse)(FILE *f, void *data, struct err *err);
	void (*release)(void *data); /* free what parse() left */
	/* add what data holds to out, remarking damage: 1 or -ENOMEM */
	int (*collect)(struct cev *ev, const struct runset_run *run,
		       const void *data, struct collected *out);
} sources[CEV_SOURCE_NR] = {
	[CEV_READPROFILE] = {"readprofile", "sys/readprofile.txt", false,
			     sizeof(struct rprof_profile),
			     parse_readprofile_merged, release_readprofile,
			     collect_readprofile},
	[CEV_PERF] = {"perf", "sys/perf-report.txt", false,
		      sizeof(struct perf_report), parse_perf_merged,
		      release_perf, collect_perf},
	[CEV_LOCK_STAT] = {"lock_stat", "sys/lock_stat.txt", true,
			   sizeof(struct lockstat_data), parse_lockstat_stream,
			   release_lockstat, collect_lockstat},
	[CEV_PERF_LOCK] = {"perf lock", "sys/perf-lock.txt", true,
			   sizeof(struct perflock_data), parse_perflock_stream,
			   release_perflock, collect_perflock},
};

const char *compare_evidence_source_name(enum cev_source source)
{
	return (unsigned)source < CEV_SOURCE_NR ? sources[source].name : "";
}

const char *compare_evidence_source_file(enum cev_source source)
{
	return (unsigned)source < CEV_SOURCE_NR ? sources[source].file : "";
}

bool compare_evidence_source_is_lock(enum cev_source source)
{
	return (unsigned)source < CEV_SOURCE_NR && sources[source].locks;
}

/*
 * Add one run's file of source s to out. 1 when the file gave data, 0
 * when it was ignored (remarked), -ENOMEM.
 */
static int read_source(struct cev *ev, const struct runset_run *run,
		       const struct source_desc *s, struct collected *out)
{
	struct err err = {""};
	void *data = calloc(1, s->size);
	int rc = -EIO;
	FILE *f;

	if (!data)
		return -ENOMEM;
	f = open_sys(run, s->file, &err);
	if (f) {
		rc = s->parse(f, data, &err);
		fclose(f);
	}
	if (rc == 0)
		rc = s->collect(ev, run, data, out);
	else if (rc != -ENOMEM)
		rc = remark(ev, run->dir, "%s ignored (%s)", s->file, err.msg);
	s->release(data);
	free(data);
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

/*
 * The profile or lock table of one label, config and source, from the
 * usable runs that have the source's file; none when no run gave data.
 * 0, or -ENOMEM.
 */
static int build_table(struct cev *ev, const struct runset *rs,
		       const char *label, const char *config,
		       enum cev_source source)
{
	const struct source_desc *s = &sources[source];
	struct collected got;
	size_t r, runs = 0;
	int rc = 0;

	memset(&got, 0, sizeof(got));
	for (r = 0; r < rs->nruns && rc >= 0; r++) {
		const struct runset_run *run = &rs->runs[r];

		if (strcmp(run->label, label) || strcmp(run->config, config) ||
		    run->exclusion == RUNSET_PARTIAL ||
		    !run_has_file(run, s->file))
			continue;
		rc = read_source(ev, run, s, &got);
		if (rc > 0)
			runs++;
	}
	if (rc >= 0 && runs > 0)
		rc = s->locks ? add_locks(ev, label, config, source, runs,
					  &got.locks)
			      : add_profile(ev, label, config, source, runs,
					    &got.shares);
	share_free(&got.shares);
	lock_list_free(&got.locks);
	return rc < 0 ? rc : 0;
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
				rc = build_table(ev, rs, t->labels[l],
						 t->configs[c],
						 (enum cev_source)source);
	if (rc < 0)
		return err_set(err, rc, "out of memory");
	return build_devices(ev, rs, t, err);
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
	for (i = 0; i < ev->nremarks; i++) {
		free(ev->remarks[i].dir);
		free(ev->remarks[i].reason);
	}
	free(ev->remarks);
	memset(ev, 0, sizeof(*ev));
}
