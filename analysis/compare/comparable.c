/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * comparable.c - comparability checks, treatment differences and
 * provenance from the runs' fingerprints (see comparable.h). Each scored
 * run's meta.json is read again here for its "fingerprint": runset.c
 * reads what the scores need, this file what the checks need.
 */
#include "analysis/compare/comparable.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

const char comparable_no_difference[] =
	"no recorded difference: an A/A, or a change oltpmark cannot see, "
	"such as a kernel rebuilt with the same version string";

/* Workload keys checked within a cell (label and configuration) among
 * block runs, not across labels: a block label beside whole runs is
 * scored inside its own runs (docs/blocks.md). */
static const char *const cell_keys[] = {"design", "block_s", "settle_s", NULL};

/* Fingerprints of the runs, by index of rs->runs; NULL: none. */
struct fps {
	json_t **fp;
	size_t n;
};

static bool in_list(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] && strcmp(list[i], s) == 0)
			return true;
	return false;
}

static bool is_cell_key(const char *key)
{
	size_t i;

	for (i = 0; cell_keys[i]; i++)
		if (strcmp(cell_keys[i], key) == 0)
			return true;
	return false;
}

static int read_fps(struct fps *f, const struct runset *rs, struct err *err)
{
	size_t i;

	f->n = rs->nruns;
	f->fp = calloc(rs->nruns ? rs->nruns : 1, sizeof(*f->fp));
	if (!f->fp)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < rs->nruns; i++) {
		char path[4096];
		json_t *meta, *fp;

		if (rs->runs[i].exclusion != RUNSET_SCORED)
			continue;
		snprintf(path, sizeof(path), "%s/meta.json", rs->runs[i].dir);
		/* runset read it a moment ago: a failure now leaves the run
		   unchecked, as an old one */
		meta = json_load_file(path, 0, NULL);
		fp = json_object_get(meta, "fingerprint");
		if (json_is_object(fp))
			f->fp[i] = json_incref(fp);
		json_decref(meta);
	}
	return 0;
}

static void free_fps(struct fps *f)
{
	size_t i;

	for (i = 0; f->fp && i < f->n; i++)
		json_decref(f->fp[i]);
	free(f->fp);
	f->fp = NULL;
}

/* The value of key in group of fp, or NULL. */
static const char *value_of(const json_t *fp, const char *group,
			    const char *key)
{
	return json_string_value(
		json_object_get(json_object_get(fp, group), key));
}

static char *dup_or_absent(const char *s)
{
	return strdup(s ? s : "(absent)");
}

static int add_diff(struct cmp_diff **v, size_t *n, const char *group,
		    const char *key, const char *a, const char *b,
		    const char *label)
{
	struct cmp_diff *nv = realloc(*v, (*n + 1) * sizeof(**v)), *d;

	if (!nv)
		return -ENOMEM;
	*v = nv;
	d = &nv[*n];
	d->group = strdup(group);
	d->key = strdup(key);
	d->a = dup_or_absent(a);
	d->b = dup_or_absent(b);
	d->label = strdup(label ? label : "");
	(*n)++;
	if (!d->group || !d->key || !d->a || !d->b || !d->label)
		return -ENOMEM;
	return 0;
}

static bool allowed_seen(const struct comparable *cp, const char *group,
			 const char *key)
{
	size_t i;

	for (i = 0; i < cp->nallowed; i++)
		if (strcmp(cp->allowed[i].group, group) == 0 &&
		    strcmp(cp->allowed[i].key, key) == 0)
			return true;
	return false;
}

/*
 * Compare group between runs i (the reference) and j. An allowed key is
 * recorded; another sets the refusal through why(). 0, 1 refused, or
 * -ENOMEM.
 */
static int compare_runs(struct comparable *cp, const struct runset *rs,
			const struct fps *f, size_t i, size_t j,
			const char *group, bool all_keys,
			const char *const *allow, size_t nallow,
			const char *where)
{
	const struct runset_run *ri = &rs->runs[i], *rj = &rs->runs[j];
	const char *key;
	json_t *gx = json_object_get(f->fp[i], group),
	       *gy = json_object_get(f->fp[j], group), *seen = json_object();
	int rc = 0;

	if (!seen)
		return -ENOMEM;
	/* every differing key, in order, so each allowed one is listed */
	for (;;) {
		const char *a, *b;
		bool fresh = true;
		const json_t *sides[2] = {gx, gy};
		size_t s;

		key = NULL;
		for (s = 0; s < 2 && !key; s++) {
			const char *k;
			json_t *v;

			json_object_foreach((json_t *)sides[s], k, v)
			{
				const char *va = value_of(f->fp[i], group, k),
					   *vb = value_of(f->fp[j], group, k);

				(void)v;
				if ((!all_keys && is_cell_key(k)) ||
				    json_object_get(seen, k))
					continue;
				if (!va || !vb || strcmp(va, vb) != 0) {
					key = k;
					break;
				}
			}
		}
		if (!key)
			break;
		json_object_set_new(seen, key, json_true());
		a = value_of(f->fp[i], group, key);
		b = value_of(f->fp[j], group, key);
		if (in_list(allow, nallow, key)) {
			fresh = !allowed_seen(cp, group, key);
			if (fresh &&
			    add_diff(&cp->allowed, &cp->nallowed, group, key, a,
				     b, rj->label) < 0) {
				rc = -ENOMEM;
				break;
			}
			continue;
		}
		if (asprintf(&cp->refusal,
			     "not comparable: %s, %s key %s is %s in %s (%s) "
			     "but %s in %s (%s); --allow-differ %s scores "
			     "anyway",
			     where, group, key, a ? a : "(absent)", ri->label,
			     ri->dir, b ? b : "(absent)", rj->label, rj->dir,
			     key) < 0) {
			cp->refusal = NULL;
			rc = -ENOMEM;
		} else {
			rc = 1;
		}
		break;
	}
	json_decref(seen);
	return rc;
}

/* Check one kind of rule: runs that share what same() says. */
static int check_rule(struct comparable *cp, const struct runset *rs,
		      const struct fps *f, const char *const *grp, size_t ngrp,
		      bool all_keys, int rule, const char *const *allow,
		      size_t nallow)
{
	size_t i, j, g;
	int rc;

	for (i = 0; i < rs->nruns; i++) {
		const struct runset_run *ri = &rs->runs[i];
		bool ref = true;

		if (!f->fp[i] || (rule == 0 && ri->block_run))
			continue;
		/* i is the reference of its group when no earlier run is */
		for (j = 0; j < i && ref; j++) {
			const struct runset_run *rj = &rs->runs[j];

			if (!f->fp[j] || (rule == 0 && rj->block_run))
				continue;
			if (rule == 0 && strcmp(ri->config, rj->config) == 0)
				ref = false;
			if (rule == 1 && strcmp(ri->label, rj->label) == 0)
				ref = false;
			if (rule == 2 && ri->block_run && rj->block_run &&
			    strcmp(ri->label, rj->label) == 0 &&
			    strcmp(ri->config, rj->config) == 0)
				ref = false;
		}
		if (!ref || (rule == 2 && !ri->block_run))
			continue;
		for (j = i + 1; j < rs->nruns; j++) {
			const struct runset_run *rj = &rs->runs[j];
			char where[512];

			if (!f->fp[j] || (rule == 0 && rj->block_run))
				continue;
			if (rule == 0 && strcmp(ri->config, rj->config) != 0)
				continue;
			if (rule == 1 && strcmp(ri->label, rj->label) != 0)
				continue;
			if (rule == 2 && (!rj->block_run ||
					  strcmp(ri->label, rj->label) != 0 ||
					  strcmp(ri->config, rj->config) != 0))
				continue;
			if (rule == 0)
				snprintf(where, sizeof(where), "in %s",
					 ri->config);
			else if (rule == 1)
				snprintf(where, sizeof(where),
					 "label %s holds two treatments (give "
					 "each its own --label)",
					 ri->label);
			else
				snprintf(where, sizeof(where),
					 "the block runs of %s in %s differ",
					 ri->label, ri->config);
			for (g = 0; g < ngrp; g++) {
				rc = compare_runs(cp, rs, f, i, j, grp[g],
						  all_keys, allow, nallow,
						  where);
				if (rc != 0)
					return rc;
			}
		}
	}
	return 0;
}

int comparable_check(struct comparable *cp, const struct runset *rs,
		     const char *const *allow, size_t nallow, struct err *err)
{
	static const char *const across[] = {"workload", "environment"};
	static const char *const within[] = {"treatment"};
	static const char *const cell[] = {"workload", "environment"};
	struct fps f = {0};
	size_t i;
	int rc;

	memset(cp, 0, sizeof(*cp));
	rc = read_fps(&f, rs, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < rs->nruns; i++) {
		if (rs->runs[i].exclusion != RUNSET_SCORED)
			continue;
		if (f.fp[i])
			cp->nchecked++;
		else
			cp->nold++;
	}
	rc = check_rule(cp, rs, &f, across, 2, false, 0, allow, nallow);
	if (rc == 0)
		rc = check_rule(cp, rs, &f, within, 1, false, 1, allow, nallow);
	if (rc == 0)
		rc = check_rule(cp, rs, &f, cell, 2, true, 2, allow, nallow);
	free_fps(&f);
	if (rc < 0)
		return err_set(err, rc, "out of memory");
	return 0;
}

/* The first scored run of label that has a fingerprint, or SIZE_MAX. */
static size_t first_run(const struct runset *rs, const struct fps *f,
			const char *label)
{
	size_t i;

	for (i = 0; i < rs->nruns; i++)
		if (f->fp[i] && strcmp(rs->runs[i].label, label) == 0)
			return i;
	return SIZE_MAX;
}

static int differences(struct comparable *cp, const struct runset *rs,
		       const struct fps *f, const struct score_table *t)
{
	size_t r, b = first_run(rs, f, t->labels[t->baseline]);

	cp->nlabels = t->nlabels;
	cp->label_known = calloc(t->nlabels ? t->nlabels : 1, sizeof(bool));
	if (!cp->label_known)
		return -ENOMEM;
	for (r = 0; r < t->nlabels; r++) {
		size_t l = score_row_label(t, r), x;
		const json_t *gb, *gx;
		const char *key;
		json_t *v;
		int s;

		if (l == t->baseline)
			continue;
		x = first_run(rs, f, t->labels[l]);
		if (b == SIZE_MAX || x == SIZE_MAX)
			continue;
		cp->label_known[l] = true;
		gb = json_object_get(f->fp[b], "treatment");
		gx = json_object_get(f->fp[x], "treatment");
		for (s = 0; s < 2; s++) {
			json_object_foreach((json_t *)(s ? gx : gb), key, v)
			{
				const char *vb = value_of(f->fp[b], "treatment",
							  key),
					   *vx = value_of(f->fp[x], "treatment",
							  key);

				(void)v;
				if (s == 1 && vb)
					continue; /* seen from the base */
				if (vb && vx && strcmp(vb, vx) == 0)
					continue;
				if (add_diff(&cp->differs, &cp->ndiffers,
					     "treatment", key, vb, vx,
					     t->labels[l]) < 0)
					return -ENOMEM;
			}
		}
	}
	return 0;
}

static int fact(struct comparable *cp, const char *name, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

static int fact(struct comparable *cp, const char *name, const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	if (cp->nfacts >= sizeof(cp->facts) / sizeof(cp->facts[0]))
		return 0;
	va_start(ap, f);
	n = vasprintf(&s, f, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	cp->facts[cp->nfacts].name = name;
	cp->facts[cp->nfacts++].text = s;
	return 0;
}

/* A workload value, or "?" */
static const char *w(const json_t *fp, const char *key)
{
	const char *s = value_of(fp, "workload", key);

	return s ? s : "?";
}

static int provenance(struct comparable *cp, const struct runset *rs,
		      const struct fps *f, const struct score_table *t,
		      const char *command)
{
	size_t b = first_run(rs, f, t->labels[t->baseline]), i, c, l;
	size_t first = SIZE_MAX, last = SIZE_MAX, nmin = SIZE_MAX, nmax = 0;
	bool blocks = false, whole = false;
	const json_t *fp;
	const char *s;
	int rc = 0;

	if (b == SIZE_MAX)
		for (i = 0; i < rs->nruns && b == SIZE_MAX; i++)
			if (f->fp[i])
				b = i;
	fp = b == SIZE_MAX ? NULL : f->fp[b];
	if (fp)
		rc = fact(
			cp, "workload",
			"%s warehouses driven of %s loaded, %s terminals "
			"per warehouse, %s connections, %s s measured after "
			"%s s ramp-up, keying/think %s, %s mode, driver %s, "
			"layout %s, seed %s",
			w(fp, "warehouses.driven"), w(fp, "warehouses.loaded"),
			w(fp, "terminals_per_warehouse"), w(fp, "connections"),
			w(fp, "duration_s"), w(fp, "ramp_up_s"),
			w(fp, "keying_think"), w(fp, "tx_mode"),
			w(fp, "driver"), w(fp, "layout"), w(fp, "seed_rule"));
	else
		rc = fact(cp, "workload",
			  "not recorded (runs written before the fingerprint)");
	s = fp ? value_of(fp, "workload", "terminals") : NULL;
	if (rc == 0 && s)
		rc = fact(cp, "terminals", "%s",
			  strcmp(s, "other-host") == 0
				  ? "terminals on another host (--sut), not "
				    "on the kernel under test"
				  : s);
	s = fp ? value_of(fp, "workload", "transport") : NULL;
	if (rc == 0 && s)
		rc = fact(
			cp, "transport", "%s",
			strcmp(s, "tcp") == 0
				? "the terminals reached the server over TCP, "
				  "not its unix socket"
				: s);
	s = fp ? value_of(fp, "environment", "postgresql.version") : NULL;
	if (rc == 0)
		rc = fact(cp, "postgresql", "%s", s ? s : "not recorded");
	if (rc == 0 && fp) {
		const char *model = value_of(fp, "environment", "cpu.model"),
			   *cpus = value_of(fp, "environment", "cpu.online"),
			   *mem = value_of(fp, "environment", "memory.gib"),
			   *virt = value_of(fp, "environment",
					    "virtualization");

		rc = fact(cp, "machine",
			  "%s, %s CPUs online, %s GiB memory, virtualization "
			  "%s",
			  model ? model : "CPU unknown", cpus ? cpus : "?",
			  mem ? mem : "?", virt ? virt : "unknown");
	} else if (rc == 0) {
		rc = fact(cp, "machine", "not recorded");
	}
	for (i = 0; i < rs->nruns; i++) {
		const struct runset_run *r = &rs->runs[i];

		if (r->exclusion != RUNSET_SCORED || isnan(r->start_epoch_s))
			continue;
		if (first == SIZE_MAX ||
		    r->start_epoch_s < rs->runs[first].start_epoch_s)
			first = i;
		if (last == SIZE_MAX ||
		    r->start_epoch_s > rs->runs[last].start_epoch_s)
			last = i;
		if (r->block_run)
			blocks = true;
		else
			whole = true;
	}
	if (rc == 0)
		rc = fact(cp, "dates", "first run %s, last run %s",
			  first == SIZE_MAX ? "unknown" : rs->runs[first].start,
			  last == SIZE_MAX ? "unknown" : rs->runs[last].start);
	for (l = 0; l < t->nlabels; l++)
		for (c = 0; c < t->nconfigs; c++) {
			size_t n = score_cell(t, l, c)->n;

			if (!n)
				continue;
			nmin = n < nmin ? n : nmin;
			nmax = n > nmax ? n : nmax;
		}
	if (rc == 0 && nmax == 0)
		rc = fact(cp, "runs per cell", "none");
	else if (rc == 0 && nmin == nmax)
		rc = fact(cp, "runs per cell", "%zu", nmin);
	else if (rc == 0)
		rc = fact(cp, "runs per cell", "%zu to %zu", nmin, nmax);
	if (rc == 0)
		rc = fact(cp, "design", "%s",
			  blocks && whole ? "whole runs and block runs"
			  : blocks	  ? "block runs (docs/blocks.md)"
					  : "whole runs, interleaved");
	s = fp ? value_of(fp, "workload", "oltpmark_version") : NULL;
	if (rc == 0)
		rc = fact(cp, "oltpmark", "%s",
			  s ? s : "an older version (not recorded)");
	if (rc == 0 && fp)
		rc = fact(cp, "runs made by",
			  "oltpmark run -w %s -d %s --ramp-up %s -c %s "
			  "--terminals-per-warehouse %s --keying-think %s "
			  "--tx-mode %s --config CONFIG --label LABEL",
			  w(fp, "warehouses.driven"), w(fp, "duration_s"),
			  w(fp, "ramp_up_s"), w(fp, "connections"),
			  w(fp, "terminals_per_warehouse"),
			  w(fp, "keying_think"), w(fp, "tx_mode"));
	if (rc == 0 && command)
		rc = fact(cp, "command", "%s", command);
	return rc;
}

int comparable_describe(struct comparable *cp, const struct runset *rs,
			const struct score_table *t, const char *command)
{
	struct err err = {""};
	struct fps f = {0};
	int rc;

	rc = read_fps(&f, rs, &err);
	if (rc == 0)
		rc = differences(cp, rs, &f, t);
	if (rc == 0)
		rc = provenance(cp, rs, &f, t, command);
	free_fps(&f);
	return rc;
}

static void free_diffs(struct cmp_diff *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].group);
		free(v[i].key);
		free(v[i].a);
		free(v[i].b);
		free(v[i].label);
	}
	free(v);
}

void comparable_free(struct comparable *cp)
{
	size_t i;

	free(cp->refusal);
	free_diffs(cp->allowed, cp->nallowed);
	free_diffs(cp->differs, cp->ndiffers);
	free(cp->label_known);
	for (i = 0; i < cp->nfacts; i++)
		free(cp->facts[i].text);
	memset(cp, 0, sizeof(*cp));
}
