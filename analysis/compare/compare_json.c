/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_json.c - compare's JSON writer (compare_json.h), built with
 * jansson. Allocation failures are collected in one flag (*oom) so each
 * section is written straight through and checked once at the end.
 */
#include "analysis/compare/compare_json.h"
#include "src/base/resfile.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Add to obj, remembering a failure. */
static void jset(json_t *obj, const char *key, json_t *v, bool *oom)
{
	if (!v || json_object_set_new(obj, key, v) < 0)
		*oom = true;
}

static void jpush(json_t *arr, json_t *v, bool *oom)
{
	if (!v || json_array_append_new(arr, v) < 0)
		*oom = true;
}

static json_t *json_scores(const struct cout_input *in, bool *oom)
{
	const struct score_table *t = in->t;
	json_t *arr = json_array();
	size_t l, c, r;

	for (l = 0; arr && l < t->nlabels; l++)
		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *s = score_cell(t, l, c);
			json_t *o = json_object(), *vals = json_array(),
			       *ci = NULL;

			if (!o || !vals) {
				json_decref(o);
				json_decref(vals);
				*oom = true;
				continue;
			}
			for (r = 0; r < in->rs->nruns; r++) {
				const struct runset_run *run = &in->rs->runs[r];

				if (run->exclusion == RUNSET_SCORED &&
				    !strcmp(run->label, t->labels[l]) &&
				    !strcmp(run->config, t->configs[c]))
					jpush(vals, json_real(run->metric),
					      oom);
			}
			jset(o, "label", json_string(t->labels[l]), oom);
			jset(o, "config", json_string(t->configs[c]), oom);
			jset(o, "baseline", json_boolean(l == t->baseline),
			     oom);
			jset(o, "n", json_integer((json_int_t)s->n), oom);
			jset(o, "n_not_scored",
			     json_integer((json_int_t)s->n_excluded), oom);
			jset(o, "values", vals, oom);
			jset(o, "mean", resfile_real(s->mean, -1), oom);
			jset(o, "geomean", resfile_real(s->gmean, -1), oom);
			jset(o, "sd", resfile_real(s->sd, -1), oom);
			jset(o, "cov_pct", resfile_real(100 * s->cov, -1), oom);
			jset(o, "score",
			     s->has_score ? resfile_real(s->score, -1)
					  : json_null(),
			     oom);
			if (s->has_ci) {
				ci = json_object();
				if (ci) {
					jset(ci, "lo",
					     resfile_real(s->ci_lo, -1), oom);
					jset(ci, "hi",
					     resfile_real(s->ci_hi, -1), oom);
				}
			}
			jset(o, "ci95", ci ? ci : json_null(), oom);
			jset(o, "half_width", resfile_real(s->half_width, -1),
			     oom);
			jset(o, "diff_log", resfile_real(s->diff_log, -1), oom);
			jset(o, "se_log", resfile_real(s->se_log, -1), oom);
			jset(o, "df", resfile_real(s->df, -1), oom);
			jset(o, "t", resfile_real(s->t, -1), oom);
			jset(o, "t_crit", resfile_real(s->t_crit, -1), oom);
			jset(o, "p", resfile_real(s->p, -1), oom);
			jset(o, "p_holm", resfile_real(s->p_holm, -1), oom);
			jset(o, "significant", json_boolean(s->significant),
			     oom);
			jset(o, "design",
			     json_string(s->blocks ? "blocks" : "runs"), oom);
			if (s->blocks) {
				jset(o, "blocks",
				     json_integer((json_int_t)s->nblocks), oom);
				jset(o, "groups",
				     json_integer((json_int_t)s->groups), oom);
				jset(o, "noise_raw_pct",
				     resfile_real(100 * s->noise_raw, -1), oom);
				jset(o, "noise_adj_pct",
				     resfile_real(100 * s->noise_adj, -1), oom);
				jset(o, "half_width_iid",
				     resfile_real(s->half_width_iid, -1), oom);
			}
			jset(o, "mde_pct", resfile_real(s->mde_pct, -1), oom);
			jset(o, "resolve_1pct_runs",
			     resfile_real(s->resolve_runs, -1), oom);
			jset(o, "resolve_1pct_s",
			     isinf(s->resolve_s)
				     ? json_string("inf")
				     : resfile_real(s->resolve_s, -1),
			     oom);
			jset(o, "steal_pct", resfile_real(s->steal_pct, -1),
			     oom);
			jset(o, "steal_adjusted",
			     json_boolean(s->steal_adjusted), oom);
			jset(o, "steal_coef", resfile_real(s->steal_coef, -1),
			     oom);
			jset(o, "steal_var_removed",
			     resfile_real(s->var_removed, -1), oom);
			jpush(arr, o, oom);
		}
	return arr;
}

/* The host probe figures of a contest cell, added to o. */
static void json_contest_probe(json_t *o, const struct cev_contest *cc,
			       bool *oom)
{
	jset(o, "probe_runs", json_integer((json_int_t)cc->probe_runs), oom);
	jset(o, "host_cpu_ns", resfile_real(cc->host_cpu_ns, -1), oom);
	jset(o, "host_cpu_cov_pct", resfile_real(100 * cc->host_cpu_cov, -1),
	     oom);
	jset(o, "host_cpu_vs_base", resfile_real(cc->host_cpu_vs_base, -1),
	     oom);
	jset(o, "host_mem_ns", resfile_real(cc->host_mem_ns, -1), oom);
	jset(o, "host_mem_cov_pct", resfile_real(100 * cc->host_mem_cov, -1),
	     oom);
	jset(o, "host_mem_vs_base", resfile_real(cc->host_mem_vs_base, -1),
	     oom);
	jset(o, "host_fsync_ms", resfile_real(cc->host_fsync_ms, -1), oom);
	jset(o, "host_fsync_cov_pct",
	     resfile_real(100 * cc->host_fsync_cov, -1), oom);
	jset(o, "host_fsync_vs_base", resfile_real(cc->host_fsync_vs_base, -1),
	     oom);
}

static json_t *json_contest(const struct cout_input *in, bool *oom)
{
	const struct score_table *t = in->t;
	json_t *arr = json_array();
	size_t l, c;

	for (c = 0; arr && c < t->nconfigs; c++)
		for (l = 0; l < t->nlabels; l++) {
			const struct cev_contest *cc =
				compare_evidence_contest_at(in->ev, l, c);
			json_t *o = json_object();

			if (!o) {
				*oom = true;
				continue;
			}
			jset(o, "config", json_string(t->configs[c]), oom);
			jset(o, "label", json_string(t->labels[l]), oom);
			jset(o, "runs", json_integer((json_int_t)cc->runs),
			     oom);
			jset(o, "notpm", resfile_real(cc->notpm, -1), oom);
			jset(o, "new_order_p90_ms",
			     resfile_real(cc->no_p90_ms, -1), oom);
			jset(o, "new_order_mean_ms",
			     resfile_real(cc->no_mean_ms, -1), oom);
			jset(o, "cpu_pct", resfile_real(cc->cpu_pct, -1), oom);
			jset(o, "iowait_pct", resfile_real(cc->iowait_pct, -1),
			     oom);
			jset(o, "vmstat_runs",
			     json_integer((json_int_t)cc->vmstat_runs), oom);
			jset(o, "ratio", resfile_real(cc->ratio, -1), oom);
			jset(o, "representative_run",
			     cc->rep_run >= 0
				     ? json_string(
					       in->rs->runs[cc->rep_run].dir)
				     : json_null(),
			     oom);
			json_contest_probe(o, cc, oom);
			jpush(arr, o, oom);
		}
	return arr;
}

/*
 * A new object for one profile or lock table: its config, label, source
 * and run count, then an empty array under list_key, which *list gets
 * (the object owns it). NULL, with *oom set, when out of memory.
 */
static json_t *json_evidence_table(const char *config, const char *label,
				   enum cev_source source, size_t runs,
				   const char *list_key, json_t **list,
				   bool *oom)
{
	json_t *o = json_object();

	*list = json_array();
	if (!o || !*list) {
		json_decref(o);
		json_decref(*list);
		*oom = true;
		return NULL;
	}
	jset(o, "config", json_string(config), oom);
	jset(o, "label", json_string(label), oom);
	jset(o, "source", json_string(compare_evidence_source_name(source)),
	     oom);
	jset(o, "runs", json_integer((json_int_t)runs), oom);
	/* On failure jansson has freed *list: the caller must not fill it. */
	if (json_object_set_new(o, list_key, *list) < 0) {
		json_decref(o);
		*oom = true;
		return NULL;
	}
	return o;
}

static json_t *json_profiles(const struct cout_input *in, bool *oom)
{
	json_t *arr = json_array();
	size_t i, k;

	for (i = 0; arr && i < in->ev->nprofiles; i++) {
		const struct cev_profile *p = &in->ev->profiles[i];
		json_t *syms;
		json_t *o = json_evidence_table(p->config, p->label, p->source,
						p->runs, "symbols", &syms, oom);

		if (!o)
			continue;
		for (k = 0; k < p->nsyms && k < CEV_TOP_SYMBOLS * 5; k++) {
			json_t *s = json_object();

			if (!s) {
				*oom = true;
				continue;
			}
			jset(s, "symbol", json_string(p->syms[k].name), oom);
			jset(s, "pct", resfile_real(p->syms[k].pct, -1), oom);
			jpush(syms, s, oom);
		}
		jpush(arr, o, oom);
	}
	return arr;
}

static json_t *json_locks(const struct cout_input *in, bool *oom)
{
	json_t *arr = json_array();
	size_t i, k;

	for (i = 0; arr && i < in->ev->nlocks; i++) {
		const struct cev_locks *lk = &in->ev->locks[i];
		json_t *locks;
		json_t *o =
			json_evidence_table(lk->config, lk->label, lk->source,
					    lk->runs, "locks", &locks, oom);

		if (!o)
			continue;
		for (k = 0; k < lk->nlocks; k++) {
			const struct cev_lock *x = &lk->locks[k];
			json_t *s;

			if (!x->storage && !(x->contentions > 0))
				continue;
			s = json_object();
			if (!s) {
				*oom = true;
				continue;
			}
			jset(s, "lock", json_string(x->name), oom);
			jset(s, "storage", json_boolean(x->storage), oom);
			jset(s, "contentions", resfile_real(x->contentions, -1),
			     oom);
			jset(s, "wait_total_us",
			     resfile_real(x->wait_total_us, -1), oom);
			jset(s, "acquisitions",
			     resfile_real(x->acquisitions, -1), oom);
			jpush(locks, s, oom);
		}
		jpush(arr, o, oom);
	}
	return arr;
}

/* Append a {dir, reason} object to arr (NULL: nothing) per problem. */
static void json_push_problems(json_t *arr, const struct runset_problem *v,
			       size_t n, bool *oom)
{
	size_t i;

	for (i = 0; arr && i < n; i++) {
		json_t *o = json_object();

		if (!o) {
			*oom = true;
			continue;
		}
		jset(o, "dir", json_string(v[i].dir), oom);
		jset(o, "reason", json_string(v[i].reason), oom);
		jpush(arr, o, oom);
	}
}

static json_t *json_problems(const struct runset_problem *v, size_t n,
			     bool *oom)
{
	json_t *arr = json_array();

	json_push_problems(arr, v, n, oom);
	return arr;
}

static json_t *json_excluded(const struct runset *rs, bool *oom)
{
	static const char *const codes[RUNSET_EXCLUSION_NR] = {
		[RUNSET_SCORED] = "scored",
		[RUNSET_DIAGNOSTIC] = "diagnostic",
		[RUNSET_PARTIAL] = "partial",
		[RUNSET_NOT_STEADY] = "not_steady",
		[RUNSET_NO_METRIC] = "no_metric",
		[RUNSET_CONNECTIONS_LOST] = "connections_lost",
	};
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < rs->nruns; i++) {
		const struct runset_run *run = &rs->runs[i];
		json_t *o;

		if (run->exclusion == RUNSET_SCORED)
			continue;
		o = json_object();
		if (!o) {
			*oom = true;
			continue;
		}
		jset(o, "dir", json_string(run->dir), oom);
		jset(o, "label", json_string(run->label), oom);
		jset(o, "config", json_string(run->config), oom);
		jset(o, "why", json_string(codes[run->exclusion]), oom);
		jset(o, "reason",
		     json_string(runset_exclusion_reason(run->exclusion)), oom);
		jset(o, "metric", resfile_real(run->metric, -1), oom);
		jpush(arr, o, oom);
	}
	return arr;
}

static json_t *json_plots(const struct cout_input *in, bool *oom)
{
	const struct cplots *p = in->plots;
	json_t *o = json_object(), *arr = json_array(), *notes = json_array();
	size_t i;

	if (!o || !arr || !notes) {
		json_decref(o);
		json_decref(arr);
		json_decref(notes);
		*oom = true;
		return NULL;
	}
	jset(o, "dir", jstr(in->plots_path), oom);
	jset(o, "why_not",
	     p->why_not[0] ? json_string(p->why_not) : json_null(), oom);
	for (i = 0; i < p->nplots; i++) {
		json_t *e = json_object();
		char file[160];

		if (!e) {
			*oom = true;
			continue;
		}
		jset(e, "config", json_string(p->plots[i].config), oom);
		jset(e, "vmstat", json_string(p->plots[i].key), oom);
		jset(e, "title", json_string(p->plots[i].title), oom);
		snprintf(file, sizeof(file), "%s.png", p->plots[i].name);
		jset(e, "png", json_string(file), oom);
		snprintf(file, sizeof(file), "%s.svg", p->plots[i].name);
		jset(e, "svg", json_string(file), oom);
		jpush(arr, e, oom);
	}
	jset(o, "plots", arr, oom);
	for (i = 0; i < p->nnotes; i++)
		jpush(notes, json_string(p->notes[i]), oom);
	jset(o, "notes", notes, oom);
	return o;
}

static json_t *json_diff(const struct cmp_diff *d, bool *oom)
{
	json_t *o = json_object();

	if (!o) {
		*oom = true;
		return NULL;
	}
	jset(o, "group", json_string(d->group), oom);
	jset(o, "key", json_string(d->key), oom);
	jset(o, "a", json_string(d->a), oom);
	jset(o, "b", json_string(d->b), oom);
	jset(o, "label", json_string(d->label), oom);
	return o;
}

/*
 * "provenance" {name: text}, "differences" {label: [{key, baseline,
 * value}] or null when not recorded}, "comparability" {checked_runs,
 * unchecked_runs, allowed: [...]}: comparable.h.
 */
static void json_comparable(json_t *root, const struct cout_input *in,
			    bool *oom)
{
	const struct comparable *cp = in->cmp;
	const struct score_table *t = in->t;
	json_t *prov = json_object(), *diffs = json_object(),
	       *comp = json_object(), *allowed = json_array();
	size_t i, r;

	if (!prov || !diffs || !comp || !allowed) {
		json_decref(prov);
		json_decref(diffs);
		json_decref(comp);
		json_decref(allowed);
		*oom = true;
		return;
	}
	for (i = 0; i < cp->nfacts; i++) {
		char key[64], *p;

		snprintf(key, sizeof(key), "%s", cp->facts[i].name);
		for (p = key; *p; p++)
			if (*p == ' ')
				*p = '_';
		jset(prov, key, json_string(cp->facts[i].text), oom);
	}
	for (r = 0; r < t->nlabels; r++) {
		size_t l = score_row_label(t, r);
		json_t *list;

		if (l == t->baseline)
			continue;
		if (!cp->label_known || !cp->label_known[l]) {
			jset(diffs, t->labels[l], json_null(), oom);
			continue;
		}
		list = json_array();
		for (i = 0; list && i < cp->ndiffers; i++) {
			json_t *o;

			if (strcmp(cp->differs[i].label, t->labels[l]) != 0)
				continue;
			o = json_object();
			jset(o, "key", json_string(cp->differs[i].key), oom);
			jset(o, "baseline", json_string(cp->differs[i].a), oom);
			jset(o, "value", json_string(cp->differs[i].b), oom);
			jpush(list, o, oom);
		}
		jset(diffs, t->labels[l], list, oom);
	}
	for (i = 0; i < cp->nallowed; i++)
		jpush(allowed, json_diff(&cp->allowed[i], oom), oom);
	jset(comp, "checked_runs", json_integer((json_int_t)cp->nchecked), oom);
	jset(comp, "unchecked_runs", json_integer((json_int_t)cp->nold), oom);
	jset(comp, "allowed", allowed, oom);
	jset(root, "provenance", prov, oom);
	jset(root, "comparability", comp, oom);
	jset(root, "differences", diffs, oom);
}

int compare_json_write(FILE *f, const struct cout_input *in, struct err *err)
{
	const struct score_table *t = in->t;
	json_t *root = json_object(), *labels = json_array(),
	       *configs = json_array(), *remarks;
	bool oom = !root || !labels || !configs;
	size_t i;
	int rc = 0;

	for (i = 0; !oom && i < t->nlabels; i++)
		jpush(labels, json_string(t->labels[i]), &oom);
	for (i = 0; !oom && i < t->nconfigs; i++)
		jpush(configs, json_string(t->configs[i]), &oom);
	if (oom) {
		json_decref(root);
		json_decref(labels);
		json_decref(configs);
		return err_set(err, -ENOMEM, "out of memory");
	}
	jset(root, "format", json_string(RESFILE_TAG_COMPARE), &oom);
	jset(root, "metric", json_string(in->metric), &oom);
	jset(root, "baseline", json_string(t->labels[t->baseline]), &oom);
	jset(root, "baseline_from",
	     json_string(in->baseline_given ? "option" : "earliest_run"), &oom);
	jset(root, "confidence", json_real(0.95), &oom);
	jset(root, "adjustment", json_string(t->holm ? "holm" : "none"), &oom);
	jset(root, "comparisons", json_integer((json_int_t)t->ncomparisons),
	     &oom);
	jset(root, "labels", labels, &oom);
	jset(root, "configs", configs, &oom);
	if (in->cmp)
		json_comparable(root, in, &oom);
	jset(root, "scores", json_scores(in, &oom), &oom);
	jset(root, "contest", json_contest(in, &oom), &oom);
	jset(root, "profiles", json_profiles(in, &oom), &oom);
	jset(root, "locks", json_locks(in, &oom), &oom);
	jset(root, "devices", compare_devices_json(in, &oom), &oom);
	jset(root, "kernel_cost", compare_kcost_json(in, &oom), &oom);
	if (in->plots)
		jset(root, "plots", json_plots(in, &oom), &oom);
	jset(root, "excluded", json_excluded(in->rs, &oom), &oom);
	jset(root, "broken",
	     json_problems(in->rs->broken, in->rs->nbroken, &oom), &oom);
	remarks = json_problems(in->rs->remarks, in->rs->nremarks, &oom);
	json_push_problems(remarks, in->ev->remarks, in->ev->nremarks, &oom);
	jset(root, "notes", remarks, &oom);
	if (oom)
		rc = err_set(err, -ENOMEM, "out of memory");
	else if (json_dumpf(root, f,
			    JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				    JSON_REAL_PRECISION(12)) < 0)
		rc = err_set(err, -EIO, "writing JSON failed");
	else
		fputc('\n', f);
	json_decref(root);
	return rc;
}
