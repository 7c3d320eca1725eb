/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_kcost.c - the kernel-cost hook's figures per transaction type,
 * label against the baseline (see compare_kcost.h): summary.json's
 * "kernel_cost" read from each scored run, means, changes with Welch's
 * interval on the logarithms, the "what changed most" line, and the
 * section, JSON and CSV column written from them.
 */
#include "analysis/compare/compare_kcost.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/common/stats.h"
#include "analysis/compare/compare_doc.h"
#include "analysis/compare/compare_evidence.h"
#include "analysis/compare/compare_out.h"
#include "src/base/resfile.h"

/* One label's values in one configuration: [type][figure][run]. */
struct kc_vals {
	double *v;   /* TXN_NR * KCOST_FIG_NR * cap, NAN where unknown */
	size_t cap;  /* runs allocated per figure */
	size_t runs; /* runs read (with the hook's figures) */
};

static double *kc_at(struct kc_vals *x, int type, int fig)
{
	return x->v + ((size_t)type * KCOST_FIG_NR + (size_t)fig) * x->cap;
}

/* Whether run r is one of label's scored, whole (not block) runs. */
static bool kc_run_used(const struct runset_run *r, const char *label,
			const char *config)
{
	return r->exclusion == RUNSET_SCORED && !r->block_run &&
	       strcmp(r->label, label) == 0 && strcmp(r->config, config) == 0;
}

/* The types object of a run's summary.json, or NULL (*json to free). */
static const json_t *kc_types(const char *dir, json_t **json)
{
	char path[PATH_MAX];
	struct err err;
	const json_t *kc;

	*json = NULL;
	if (snprintf(path, sizeof(path), "%s/summary.json", dir) >=
		    (int)sizeof(path) ||
	    resfile_load(path, "summary.json", json, &err) < 0)
		return NULL;
	kc = json_object_get(*json, "kernel_cost");
	return json_object_get(kc, "types");
}

/* Read the values of label in config. 0 or -ENOMEM. */
static int kc_collect(const struct runset *rs, const char *label,
		      const char *config, struct kc_vals *out)
{
	size_t i, cap = 0, k;
	int ty, f;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < rs->nruns; i++)
		cap += kc_run_used(&rs->runs[i], label, config);
	if (!cap)
		return 0;
	out->cap = cap;
	out->v = malloc((size_t)TXN_NR * KCOST_FIG_NR * cap * sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (i = 0; i < rs->nruns; i++) {
		const json_t *types;
		json_t *json;

		if (!kc_run_used(&rs->runs[i], label, config))
			continue;
		types = kc_types(rs->runs[i].dir, &json);
		if (types) {
			k = out->runs++;
			for (ty = 0; ty < TXN_NR; ty++) {
				const json_t *o = json_object_get(
					types, txn_type_name(ty));

				for (f = 0; f < KCOST_FIG_NR; f++) {
					const json_t *v = json_object_get(
						o, kcost_figure_key(f));

					kc_at(out, ty, f)[k] =
						json_is_number(v)
							? json_number_value(v)
							: NAN;
				}
			}
		}
		json_decref(json);
	}
	return 0;
}

/* The finite values of x[0..n) into out; their count. */
static size_t kc_finite(const double *x, size_t n, double *out, bool *all_pos)
{
	size_t i, m = 0;

	*all_pos = true;
	for (i = 0; i < n; i++)
		if (isfinite(x[i])) {
			out[m++] = x[i];
			*all_pos &= x[i] > 0;
		}
	return m;
}

/* Mean and change of one figure: a against the baseline b. */
static void kc_fig(struct ckc_fig *fg, const double *a, size_t na,
		   const double *b, size_t nb, bool baseline)
{
	double xa[na ? na : 1], xb[nb ? nb : 1];
	bool pa, pb;
	size_t ma = kc_finite(a, na, xa, &pa), mb, i;
	struct stats_welch w;

	fg->n = ma;
	fg->mean = ma ? stats_mean(xa, ma) : NAN;
	if (baseline || !b)
		return;
	mb = kc_finite(b, nb, xb, &pb);
	if (!ma || !mb)
		return;
	if (pa && pb) {
		for (i = 0; i < ma; i++)
			xa[i] = log(xa[i]);
		for (i = 0; i < mb; i++)
			xb[i] = log(xb[i]);
		fg->has_change = true;
		fg->change =
			100.0 *
			(exp(stats_mean(xa, ma) - stats_mean(xb, mb)) - 1.0);
		if (stats_welch(xb, mb, xa, ma, &w) == 0 && isfinite(w.se)) {
			fg->has_ci = true;
			fg->lo = 100.0 * (exp(w.diff - w.t_crit * w.se) - 1.0);
			fg->hi = 100.0 * (exp(w.diff + w.t_crit * w.se) - 1.0);
			fg->significant = fg->lo > 0 || fg->hi < 0;
		}
		return;
	}
	/* a zero somewhere: the means only */
	if (stats_mean(xb, mb) > 0) {
		fg->has_change = true;
		fg->change = 100.0 * (fg->mean / stats_mean(xb, mb) - 1.0);
	}
}

int compare_kcost_build(struct ckcost *out, const struct runset *rs,
			const struct score_table *t, struct err *err)
{
	size_t c, l;
	int ty, f, rc = 0;

	memset(out, 0, sizeof(*out));
	out->rows = calloc(t->nconfigs * t->nlabels * TXN_NR + 1,
			   sizeof(*out->rows));
	if (!out->rows)
		return err_set(err, -ENOMEM, "out of memory");
	for (c = 0; c < t->nconfigs && rc == 0; c++) {
		struct kc_vals base;

		rc = kc_collect(rs, t->labels[t->baseline], t->configs[c],
				&base);
		for (l = 0; l < t->nlabels && rc == 0; l++) {
			struct kc_vals x;
			bool is_base = l == t->baseline;

			rc = kc_collect(rs, t->labels[l], t->configs[c], &x);
			if (rc == 0 && x.runs)
				for (ty = 0; ty < TXN_NR; ty++) {
					struct ckc_row *r =
						&out->rows[out->n++];

					r->label = t->labels[l];
					r->config = t->configs[c];
					r->type = ty;
					r->baseline = is_base;
					r->runs = x.runs;
					for (f = 0; f < KCOST_FIG_NR; f++)
						kc_fig(&r->fig[f],
						       kc_at(&x, ty, f), x.runs,
						       base.runs ? kc_at(&base,
									 ty, f)
								 : NULL,
						       base.runs, is_base);
				}
			free(x.v);
		}
		free(base.v);
	}
	return rc < 0 ? err_set(err, rc, "out of memory") : 0;
}

void compare_kcost_free(struct ckcost *k)
{
	free(k->rows);
	memset(k, 0, sizeof(*k));
}

/* --- what changed most */

/* Whether (row, fig) a ranks before b: significant first, then size. */
static bool kc_before(const struct ckc_fig *a, const struct ckc_fig *b)
{
	if (a->significant != b->significant)
		return a->significant;
	return fabs(a->change) > fabs(b->change);
}

void compare_kcost_most(const struct ckcost *k, const char *label,
			const char *config, char *buf, size_t size)
{
	const struct ckc_row *best_row[3] = {NULL, NULL, NULL};
	int best_fig[3] = {0, 0, 0};
	size_t i, j, m, len = 0;
	bool any_sig = false;
	int f;

	buf[0] = '\0';
	for (i = 0; i < k->n; i++) {
		const struct ckc_row *r = &k->rows[i];

		if (r->baseline || strcmp(r->label, label) ||
		    strcmp(r->config, config))
			continue;
		for (f = 0; f < KCOST_FIG_NR; f++) {
			const struct ckc_fig *fg = &r->fig[f];

			if (!fg->has_change || !isfinite(fg->change))
				continue;
			any_sig |= fg->significant;
			for (j = 0; j < 3; j++)
				if (!best_row[j] ||
				    kc_before(fg,
					      &best_row[j]->fig[best_fig[j]]))
					break;
			if (j == 3)
				continue;
			for (m = 2; m > j; m--) {
				best_row[m] = best_row[m - 1];
				best_fig[m] = best_fig[m - 1];
			}
			best_row[j] = r;
			best_fig[j] = f;
		}
	}
	for (j = 0; j < 3 && best_row[j]; j++) {
		const struct ckc_fig *fg = &best_row[j]->fig[best_fig[j]];
		char item[160];
		int n;

		if (any_sig && !fg->significant)
			break;
		n = snprintf(item, sizeof(item), "%s%s: %s %+.1f %%",
			     j ? ", " : "", txn_type_name(best_row[j]->type),
			     kcost_figure_title(best_fig[j]), fg->change);
		if (n > 0 && fg->has_ci && (size_t)n < sizeof(item))
			snprintf(item + n, sizeof(item) - (size_t)n,
				 " (+-%.1f)", (fg->hi - fg->lo) / 2);
		/* whole items only: a cut buffer ends after the last */
		if (strlen(item) >= size - len)
			return;
		memcpy(buf + len, item, strlen(item) + 1);
		len += strlen(item);
	}
	if (buf[0] && !any_sig && len < size)
		snprintf(buf + len, size - len, "; none significant");
}

/* --- the section */

static bool kc_config_rows(const struct ckcost *k, const char *config)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->rows[i].config, config) == 0)
			return true;
	return false;
}

/* Means per label and type, then changes against the baseline. */
static void kc_tables(struct cdoc *d, const struct cout_input *in, size_t c)
{
	const struct ckcost *k = &in->ev->kcost;
	const char *config = in->t->configs[c];
	size_t ncols = 3 + KCOST_FIG_NR, i, r;
	struct cdoc_table *tab = compare_doc_table(
		d, ncols,
		compare_doc_fmt(d,
				"%s: per committed transaction, mean over "
				"the runs",
				runset_config_title(config)));
	int f;

	compare_doc_col(d, tab, 0, "Label", false, 0);
	compare_doc_col(d, tab, 1, "Type", false, 2);
	compare_doc_col(d, tab, 2, "Runs", true, 2);
	for (f = 0; f < KCOST_FIG_NR; f++)
		compare_doc_col(d, tab, 3 + (size_t)f, kcost_figure_title(f),
				true, 2);
	for (i = 0; i < k->n; i++) {
		const struct ckc_row *row = &k->rows[i];

		if (strcmp(row->config, config))
			continue;
		r = compare_doc_row(d, tab);
		compare_doc_cell(d, tab, r, 0, "%s", row->label);
		compare_doc_cell(d, tab, r, 1, "%s", txn_type_name(row->type));
		compare_doc_cell(d, tab, r, 2, "%zu", row->runs);
		for (f = 0; f < KCOST_FIG_NR; f++)
			compare_doc_num(d, tab, r, 3 + (size_t)f,
					row->fig[f].mean,
					kcost_figure_decimals(f));
	}
	ncols = 2 + 2 * KCOST_FIG_NR;
	tab = compare_doc_table(
		d, ncols,
		compare_doc_fmt(d, "%s: change against %s, %% (95 %% interval)",
				runset_config_title(config),
				in->t->labels[in->t->baseline]));
	compare_doc_col(d, tab, 0, "Label", false, 0);
	compare_doc_col(d, tab, 1, "Type", false, 2);
	for (f = 0; f < KCOST_FIG_NR; f++) {
		compare_doc_col(d, tab, 2 + 2 * (size_t)f,
				kcost_figure_title(f), true, 2);
		compare_doc_col(d, tab, 3 + 2 * (size_t)f, "", false, 0);
		compare_doc_attach(tab, 3 + 2 * (size_t)f);
	}
	for (i = 0; i < k->n; i++) {
		const struct ckc_row *row = &k->rows[i];

		if (strcmp(row->config, config) || row->baseline)
			continue;
		r = compare_doc_row(d, tab);
		compare_doc_cell(d, tab, r, 0, "%s", row->label);
		compare_doc_cell(d, tab, r, 1, "%s", txn_type_name(row->type));
		for (f = 0; f < KCOST_FIG_NR; f++) {
			const struct ckc_fig *fg = &row->fig[f];
			size_t col = 2 + 2 * (size_t)f;

			if (!fg->has_change)
				compare_doc_cell(d, tab, r, col, "-");
			else if (fg->has_ci)
				compare_doc_cell(d, tab, r, col, "%+.1f ±%.1f",
						 fg->change,
						 (fg->hi - fg->lo) / 2);
			else
				compare_doc_cell(d, tab, r, col, "%+.1f",
						 fg->change);
			if (fg->significant)
				compare_doc_cell(d, tab, r, col + 1, "*");
		}
	}
}

/* The plots of config's types (compare_kcost_plots.h), when drawn. */
static void kc_plots(struct cdoc *d, const struct cout_input *in,
		     const char *config)
{
	const struct cplots *p = in->plots;
	size_t i;

	if (!compare_plots_has(p, config, "kcost"))
		return;
	compare_doc_list(d, CDOC_IMAGES);
	for (i = 0; i < p->nplots; i++)
		if (p->plots[i].type >= 0 &&
		    strcmp(p->plots[i].config, config) == 0)
			compare_doc_image(d, p->plots[i].title, "%s",
					  p->plots[i].name);
}

void compare_kcost_content(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	char line[512];
	size_t c, l;

	if (!in->ev->kcost.n)
		return;
	compare_doc_heading(d, 2, "Kernel cost per transaction type");
	for (c = 0; c < t->nconfigs; c++) {
		if (!kc_config_rows(&in->ev->kcost, t->configs[c])) {
			compare_doc_para(
				d,
				"%s: no scored run has the kernel-cost "
				"hook's figures.",
				runset_config_title(t->configs[c]));
			continue;
		}
		kc_tables(d, in, c);
		kc_plots(d, in, t->configs[c]);
		compare_doc_list(d, CDOC_LIST);
		for (l = 0; l < t->nlabels; l++) {
			compare_kcost_most(&in->ev->kcost, t->labels[l],
					   t->configs[c], line, sizeof(line));
			if (line[0])
				compare_doc_item(d, "%s, what changed most: %s",
						 t->labels[l], line);
		}
	}
	compare_doc_para(
		d, "From the kernel-cost hook (pg_stat_statements, "
		   "pg_stat_kcache and pg_wait_sampling around each run's "
		   "measured interval; docs/hooks.md), backend CPU and "
		   "run-queue wait from the backends' /proc/PID/schedstat "
		   "(run.json backend_cpu, commit included): per committed "
		   "transaction of each type, the mean over the label's scored "
		   "runs (block runs left out). Change: the label against the "
		   "baseline, 100 (exp(mean ln b - mean ln a) - 1), with the "
		   "95 %% interval of Welch's t on the logarithms, as the "
		   "scores; '*' when it excludes 0. A figure that is 0 in some "
		   "run has its change from the means and no interval.");
	if (compare_plots_has(in->plots, NULL, "kcost"))
		compare_doc_para(d, "The plots: each type's changes, a point "
				    "per label and figure with its interval "
				    "as a bar.");
}

json_t *compare_kcost_json(const struct cout_input *in, bool *oom)
{
	const struct ckcost *k = &in->ev->kcost;
	json_t *arr = json_array();
	size_t i;
	int f;

	if (!arr) {
		*oom = true;
		return NULL;
	}
	for (i = 0; i < k->n; i++) {
		const struct ckc_row *row = &k->rows[i];
		json_t *o = json_object(), *figs = json_object();
		bool bad = !o || !figs;

		for (f = 0; f < KCOST_FIG_NR && !bad; f++) {
			const struct ckc_fig *fg = &row->fig[f];
			json_t *x = json_pack(
				"{s:o, s:I, s:o, s:o, s:o, s:b}", "mean",
				resfile_real(fg->mean, 6), "runs",
				(json_int_t)fg->n, "change_pct",
				fg->has_change ? resfile_real(fg->change, 2)
					       : json_null(),
				"ci_lo_pct",
				fg->has_ci ? resfile_real(fg->lo, 2)
					   : json_null(),
				"ci_hi_pct",
				fg->has_ci ? resfile_real(fg->hi, 2)
					   : json_null(),
				"significant", fg->significant);

			bad |= json_object_set_new(figs, kcost_figure_key(f),
						   x) < 0;
		}
		bad |= json_object_set_new(o, "config",
					   json_string(row->config)) < 0;
		bad |= json_object_set_new(o, "label",
					   json_string(row->label)) < 0;
		bad |= json_object_set_new(
			       o, "type",
			       json_string(txn_type_name(row->type))) < 0;
		bad |= json_object_set_new(o, "baseline",
					   json_boolean(row->baseline)) < 0;
		bad |= json_object_set_new(
			       o, "runs", json_integer((json_int_t)row->runs)) <
		       0;
		bad |= json_object_set_new(o, "figures", figs) < 0;
		if (bad || json_array_append_new(arr, o) < 0)
			*oom = true;
	}
	return arr;
}
