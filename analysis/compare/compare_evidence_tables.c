/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_evidence_tables.c - the kernel profile and lock tables of
 * `oltpmark compare` (compare_evidence.h): each source's file read from
 * every usable run, its parser's result turned into shares of the run's
 * total (or lock items), averaged over the runs of a label and config.
 * The sources are one table, sources[] below.
 */
#include "analysis/compare/compare_evidence.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/common/evsource.h"
#include "analysis/parsers/parse_lockstat.h"
#include "analysis/parsers/parse_perf.h"
#include "analysis/parsers/parse_perflock.h"
#include "analysis/parsers/parse_readprofile.h"

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
		rc = compare_evidence_remark(ev, run->dir,
					     "%s: %zu lines could not be read",
					     file, r->bad_lines);
	if (r->nevents > 1 && rc >= 0)
		rc = compare_evidence_remark(
			ev, run->dir,
			"%s has %zu events: only the first (%s) is used", file,
			r->nevents, r->events[0]);
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
		rc = compare_evidence_remark(
			ev, run->dir,
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
		rc = compare_evidence_remark(
			ev, run->dir,
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
	const char *hook; /* its row of run/hooks.tsv (evsource.h) */
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
	[CEV_READPROFILE] = {"readprofile", "readprofile",
			     "sys/readprofile.txt", false,
			     sizeof(struct rprof_profile),
			     parse_readprofile_merged, release_readprofile,
			     collect_readprofile},
	[CEV_PERF] = {"perf-profile", "perf", "sys/perf-report.txt", false,
		      sizeof(struct perf_report), parse_perf_merged,
		      release_perf, collect_perf},
	[CEV_LOCK_STAT] = {"lockstat", "lock_stat", "sys/lock_stat.txt", true,
			   sizeof(struct lockstat_data), parse_lockstat_stream,
			   release_lockstat, collect_lockstat},
	[CEV_PERF_LOCK] = {"perf-lock", "perf lock", "sys/perf-lock.txt", true,
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

int compare_evidence_sources_check(struct err *err)
{
	int i;

	for (i = 0; i < CEV_SOURCE_NR; i++) {
		const struct source_desc *d = &sources[i];

		if (strncmp(d->file, "sys/", 4) ||
		    !evsource_has_file(evsource_find(d->hook), d->file + 4))
			return err_set(err, -EINVAL,
				       "compare reads %s of hook %s, which "
				       "run/hooks.tsv does not list",
				       d->file, d->hook);
	}
	return 0;
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
	f = compare_evidence_open_sys(run, s->file, &err);
	if (f) {
		rc = s->parse(f, data, &err);
		fclose(f);
	}
	if (rc == 0)
		rc = s->collect(ev, run, data, out);
	else if (rc != -ENOMEM)
		rc = compare_evidence_remark(ev, run->dir, "%s ignored (%s)",
					     s->file, err.msg);
	s->release(data);
	free(data);
	return rc;
}
/*
 * The profile or lock table of one label, config and source, from the
 * usable runs that have the source's file; none when no run gave data.
 * 0, or -ENOMEM.
 */
int compare_evidence_build_table(struct cev *ev, const struct runset *rs,
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
		    !compare_evidence_run_has_file(run, s->file))
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
