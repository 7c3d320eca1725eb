/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * score.c - baseline-relative scores with Welch intervals on logarithms
 * (score.h). The statistics themselves are in stats.c; this file groups
 * the runs by label and configuration and fills the table.
 */
#include "analysis/compare/score.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/common/stats.h"

const struct score_cell *score_cell(const struct score_table *t, size_t label,
				    size_t config)
{
	return &t->cells[label * t->nconfigs + config];
}

static struct score_cell *cell_at(struct score_table *t, size_t label,
				  size_t config)
{
	return &t->cells[label * t->nconfigs + config];
}

size_t score_row_label(const struct score_table *t, size_t i)
{
	if (i == 0)
		return t->baseline;
	return i <= t->baseline ? i - 1 : i;
}

int score_label_index(const struct score_table *t, const char *label)
{
	size_t i;

	for (i = 0; i < t->nlabels; i++)
		if (strcmp(t->labels[i], label) == 0)
			return (int)i;
	return -1;
}

int score_config_index(const struct score_table *t, const char *config)
{
	size_t i;

	for (i = 0; i < t->nconfigs; i++)
		if (strcmp(t->configs[i], config) == 0)
			return (int)i;
	return -1;
}

int score_pick_baseline(const struct runset *rs, const char *wanted,
			const char **baseline, struct err *err)
{
	const char **labels;
	const char *best = NULL;
	double best_start = INFINITY;
	bool best_scored = false;
	size_t n, i, r;

	labels = runset_labels(rs, &n);
	if (!labels) {
		if (n == SIZE_MAX)
			return err_set(err, -ENOMEM, "out of memory");
		return err_set(err, -ENOENT, "no runs found");
	}
	if (wanted) {
		char list[ERR_MSG_MAX / 2] = "";
		size_t len = 0;

		for (i = 0; i < n; i++) {
			if (strcmp(labels[i], wanted) == 0) {
				*baseline = labels[i];
				free(labels);
				return 0;
			}
			if (len < sizeof(list))
				len += (size_t)snprintf(
					list + len, sizeof(list) - len, "%s%s",
					i ? ", " : "", labels[i]);
		}
		free(labels);
		return err_set(err, -ENOENT,
			       "--baseline: no runs labelled '%s' (labels: %s)",
			       wanted, list);
	}
	/* Labels come sorted, so a strict < keeps the first name on ties. */
	for (i = 0; i < n; i++) {
		double first = INFINITY;
		bool scored = false;

		for (r = 0; r < rs->nruns; r++) {
			const struct runset_run *run = &rs->runs[r];

			if (strcmp(run->label, labels[i]) != 0)
				continue;
			if (run->exclusion == RUNSET_SCORED)
				scored = true;
			if (!isnan(run->start_epoch_s) &&
			    run->start_epoch_s < first)
				first = run->start_epoch_s;
		}
		if (!best || (scored && !best_scored) ||
		    (scored == best_scored && first < best_start)) {
			best = labels[i];
			best_start = first;
			best_scored = scored;
		}
	}
	*baseline = best;
	free(labels);
	return 0;
}

/* Scored values of one label and configuration, as logarithms too. */
static size_t collect(const struct runset *rs, const char *label,
		      const char *config, double *x, double *lx,
		      size_t *n_excluded)
{
	size_t r, n = 0;

	*n_excluded = 0;
	for (r = 0; r < rs->nruns; r++) {
		const struct runset_run *run = &rs->runs[r];

		if (strcmp(run->label, label) || strcmp(run->config, config))
			continue;
		if (run->exclusion != RUNSET_SCORED) {
			(*n_excluded)++;
			continue;
		}
		x[n] = run->metric;
		lx[n] = log(run->metric);
		n++;
	}
	return n;
}

static void cell_unknown(struct score_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->mean = c->gmean = c->sd = c->cov = NAN;
	c->score = c->ci_lo = c->ci_hi = c->half_width = NAN;
	c->diff_log = c->se_log = c->df = c->t = c->t_crit = NAN;
	c->p = c->p_holm = NAN;
}

/* Fill the cells of one configuration. x, lx, bx, blx: nruns each. */
static void score_config(const struct runset *rs, struct score_table *t,
			 size_t config, double *x, double *lx, double *bx,
			 double *blx)
{
	const char *cfg = t->configs[config];
	size_t nb, nb_excl, l;

	nb = collect(rs, t->labels[t->baseline], cfg, bx, blx, &nb_excl);
	for (l = 0; l < t->nlabels; l++) {
		struct score_cell *c = cell_at(t, l, config);
		struct stats_welch w;
		double *vx = x, *vlx = lx;
		size_t excl;

		cell_unknown(c);
		if (l == t->baseline) {
			vx = bx;
			vlx = blx;
			c->n = nb;
			c->n_excluded = nb_excl;
		} else {
			c->n = collect(rs, t->labels[l], cfg, x, lx, &excl);
			c->n_excluded = excl;
		}
		if (c->n == 0)
			continue;
		c->mean = stats_mean(vx, c->n);
		c->gmean = exp(stats_mean(vlx, c->n));
		c->sd = stats_sd(vx, c->n);
		c->cov = stats_cov(vx, c->n);
		if (nb == 0)
			continue;
		c->has_score = true;
		if (l == t->baseline) {
			c->score = 100;
			continue;
		}
		c->diff_log = stats_mean(lx, c->n) - stats_mean(blx, nb);
		c->score = 100 * exp(c->diff_log);
		if (stats_welch(blx, nb, lx, c->n, &w) < 0)
			continue; /* n = 1 on a side: no interval */
		c->has_ci = true;
		c->se_log = w.se;
		c->df = w.df;
		c->t = w.t;
		c->t_crit = w.t_crit;
		c->p = w.p;
		c->ci_lo = 100 * exp(c->diff_log - w.t_crit * w.se);
		c->ci_hi = 100 * exp(c->diff_log + w.t_crit * w.se);
		/* exp() is convex: the upper half is the larger one. */
		c->half_width = fmax(c->ci_hi - c->score, c->score - c->ci_lo);
		c->significant = c->ci_lo > 100 || c->ci_hi < 100 ||
				 (w.se == 0 && c->diff_log != 0);
	}
}

/* Holm over every cell with an interval; with holm, stars follow it. */
static int apply_holm(struct score_table *t)
{
	size_t ncells = t->nlabels * t->nconfigs, i;
	double *p;
	int rc;

	p = calloc(ncells ? ncells : 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	t->ncomparisons = 0;
	for (i = 0; i < ncells; i++) {
		p[i] = t->cells[i].has_ci ? t->cells[i].p : NAN;
		if (t->cells[i].has_ci)
			t->ncomparisons++;
	}
	rc = stats_holm(p, ncells, p);
	if (rc == 0)
		for (i = 0; i < ncells; i++) {
			struct score_cell *c = &t->cells[i];

			c->p_holm = p[i];
			if (t->holm && c->has_ci)
				c->significant = c->p_holm < 0.05;
		}
	free(p);
	return rc;
}

int score_compute(const struct runset *rs, const char *baseline, bool holm,
		  struct score_table *t, struct err *err)
{
	double *buf = NULL;
	size_t n, c;
	int b, rc = 0;

	memset(t, 0, sizeof(*t));
	t->holm = holm;
	t->labels = runset_labels(rs, &n);
	t->nlabels = n == SIZE_MAX ? 0 : n;
	t->configs = runset_configs(rs, &n);
	t->nconfigs = n == SIZE_MAX ? 0 : n;
	if (rs->nruns && (!t->labels || !t->configs)) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	b = baseline ? score_label_index(t, baseline) : -1;
	if (b < 0) {
		rc = err_set(err, -ENOENT, "no runs labelled '%s'",
			     baseline ? baseline : "(none)");
		goto fail;
	}
	t->baseline = (size_t)b;
	t->cells = calloc(t->nlabels * t->nconfigs, sizeof(*t->cells));
	buf = calloc(4 * rs->nruns, sizeof(*buf));
	if (!t->cells || !buf) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	for (c = 0; c < t->nconfigs; c++)
		score_config(rs, t, c, buf, buf + rs->nruns,
			     buf + 2 * rs->nruns, buf + 3 * rs->nruns);
	if (apply_holm(t) < 0) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	free(buf);
	return 0;
fail:
	free(buf);
	score_free(t);
	return rc;
}

void score_free(struct score_table *t)
{
	if (!t)
		return;
	free(t->labels);
	free(t->configs);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
