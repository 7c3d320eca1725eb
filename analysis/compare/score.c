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
#include "analysis/compare/blocks_estimate.h"

/* Block numbers of the n-th block run of a cell start here: groups of
   different runs never share a level (a multiple of 4). */
#define SCORE_RUN_BLOCKS ((size_t)1 << 24)

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
			/* a block run scores itself, never others */
			if (run->exclusion == RUNSET_SCORED && !run->block_run)
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

/* The scored whole runs of one label and configuration. */
struct score_runs {
	double *x;     /* the metric */
	double *lx;    /* its logarithm */
	double *steal; /* steal share 0..1, NAN unknown */
	double *len_s; /* ramp-up + measured seconds, NAN unknown */
	size_t n;      /* runs */
};

/*
 * Scored whole runs of one label and configuration into v (arrays of
 * rs->nruns); block runs are counted in *n_block_runs instead, runs not
 * scored in *n_excluded.
 */
static void collect(const struct runset *rs, const char *label,
		    const char *config, struct score_runs *v,
		    size_t *n_excluded, size_t *n_block_runs)
{
	size_t r;

	v->n = 0;
	*n_excluded = 0;
	*n_block_runs = 0;
	for (r = 0; r < rs->nruns; r++) {
		const struct runset_run *run = &rs->runs[r];

		if (strcmp(run->label, label) || strcmp(run->config, config))
			continue;
		if (run->exclusion != RUNSET_SCORED) {
			(*n_excluded)++;
			continue;
		}
		if (run->block_run) {
			(*n_block_runs)++;
			continue;
		}
		v->x[v->n] = run->metric;
		v->lx[v->n] = log(run->metric);
		v->steal[v->n] = run->steal_pct >= 0 && run->steal_pct <= 100
					 ? run->steal_pct / 100
					 : NAN;
		v->len_s[v->n] = run->ramp_up_s + run->measured_s;
		v->n++;
	}
}

static void cell_unknown(struct score_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->mean = c->gmean = c->sd = c->cov = NAN;
	c->score = c->ci_lo = c->ci_hi = c->half_width = NAN;
	c->diff_log = c->se_log = c->df = c->t = c->t_crit = NAN;
	c->p = c->p_holm = NAN;
	c->steal_coef = c->steal_pct = c->var_removed = NAN;
	c->noise_raw = c->noise_adj = c->half_width_iid = NAN;
	c->mde_pct = c->resolve_runs = c->resolve_s = NAN;
}

/*
 * The steal term of one configuration's whole runs: the slope of
 * ln(metric) on the steal share within labels (each label its own
 * level, as the block model gives each group one), pooled over every
 * label's scored runs. Used only when every such run has its steal
 * share, the shares vary within a label, and a degree of freedom is
 * left. Fills *coef, *coef_var (its variance) and *ok.
 */
struct score_steal {
	bool ok;	 /* the term is fitted */
	double coef;	 /* change in ln(metric) per unit of steal share */
	double coef_var; /* its variance */
	double df;	 /* residual degrees of freedom of the fit */
};

static void steal_fit(const struct runset *rs, const struct score_table *t,
		      size_t config, struct score_runs *v,
		      struct score_steal *out)
{
	double sxx = 0, sxy = 0, syy = 0;
	size_t l, i, excl, nblk, df = 0;

	memset(out, 0, sizeof(*out));
	for (l = 0; l < t->nlabels; l++) {
		double ms = 0, my = 0;

		collect(rs, t->labels[l], t->configs[config], v, &excl, &nblk);
		if (v->n < 2)
			continue;
		for (i = 0; i < v->n; i++) {
			if (isnan(v->steal[i]))
				return;
			ms += v->steal[i] / (double)v->n;
			my += v->lx[i] / (double)v->n;
		}
		for (i = 0; i < v->n; i++) {
			sxx += (v->steal[i] - ms) * (v->steal[i] - ms);
			sxy += (v->steal[i] - ms) * (v->lx[i] - my);
			syy += (v->lx[i] - my) * (v->lx[i] - my);
		}
		df += v->n - 1;
	}
	/* shares equal to a part in a million do not vary */
	if (df < 2 || !(sxx > 1e-12))
		return;
	out->ok = true;
	out->coef = sxy / sxx;
	out->df = (double)(df - 1);
	out->coef_var = fmax(syy - sxy * sxy / sxx, 0) / out->df / sxx;
}

/*
 * The smallest n per label with (t(2n-2, .975) + t(2n-2, .80)) *
 * sd * sqrt(2 / n) <= ln(1 + SCORE_RESOLVE): the runs per label that
 * resolve 1 % with 80 % power, when one run's log metric has standard
 * deviation sd. INFINITY beyond a million runs, NAN for a bad sd.
 */
static double runs_needed(double sd)
{
	double target = log(1 + SCORE_RESOLVE), z, n;

	if (!(sd >= 0) || !isfinite(sd))
		return NAN;
	/* the normal approximation, then up while t's tails are wider */
	z = 1.959964 + 0.841621;
	n = floor(2 * (z * sd / target) * (z * sd / target));
	if (n < 2)
		n = 2;
	for (; n <= 1e6; n++) {
		double df = 2 * n - 2;

		if ((stats_t_quantile(0.975, df) + stats_t_quantile(0.80, df)) *
			    sd * sqrt(2 / n) <=
		    target)
			return n;
	}
	return INFINITY;
}

/* The mean of the finite values of x[0..n-1]; NAN when there are none. */
static double finite_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(x[i])) {
			sum += x[i];
			k++;
		}
	return k ? sum / (double)k : NAN;
}

/*
 * A label's block runs in one configuration, scored from their blocks:
 * every used block of every run, each run's groups kept apart. The cell
 * gets the estimator's score, interval, steal term and resolution.
 */
static int score_blocks(const struct runset *rs, const char *label,
			const char *config, struct score_cell *c)
{
	struct blocks_estimate_opts o = {
		.steal_term = true, .block_s = NAN, .resolve = SCORE_RESOLVE};
	struct blocks_estimate_result res;
	struct blocks_estimate_obs *obs;
	double steal_sum = 0;
	size_t r, i, n = 0, cap = 0, runs = 0, nsteal = 0;
	struct err e;

	for (r = 0; r < rs->nruns; r++)
		cap += rs->runs[r].nblocks;
	obs = calloc(cap ? cap : 1, sizeof(*obs));
	if (!obs)
		return -ENOMEM;
	for (r = 0; r < rs->nruns; r++) {
		const struct runset_run *run = &rs->runs[r];

		if (strcmp(run->label, label) || strcmp(run->config, config) ||
		    run->exclusion != RUNSET_SCORED || !run->block_run)
			continue;
		if (isnan(o.block_s))
			o.block_s = run->block_s;
		for (i = 0; i < run->nblocks; i++) {
			const struct runset_block *k = &run->blocks[i];

			obs[n].block = runs * SCORE_RUN_BLOCKS + k->block;
			obs[n].arm = k->arm_b ? BLOCKS_ARM_B : BLOCKS_ARM_A;
			obs[n].notpm = k->notpm;
			obs[n].steal = k->steal;
			if (isfinite(k->steal)) {
				steal_sum += k->steal;
				nsteal++;
			}
			n++;
		}
		runs++;
	}
	c->blocks = true;
	c->n = runs;
	c->nblocks = n;
	c->steal_pct = nsteal ? 100 * steal_sum / (double)nsteal : NAN;
	err_clear(&e);
	if (blocks_estimate_fit(obs, n, &o, &res, &e) < 0) {
		free(obs);
		return 0; /* too few groups: no score */
	}
	free(obs);
	c->groups = res.groups;
	c->has_score = true;
	c->score = res.score;
	c->diff_log = res.effect_log;
	c->se_log = res.se_log;
	c->df = res.df;
	c->t = res.t;
	c->t_crit = res.t_crit;
	c->p = res.p;
	if (isfinite(res.se_log) && res.df > 0) {
		c->has_ci = true;
		c->ci_lo = res.ci_lo;
		c->ci_hi = res.ci_hi;
		c->half_width = fmax(c->ci_hi - c->score, c->score - c->ci_lo);
		c->significant = res.significant;
		c->mde_pct = res.mde_pct;
		c->resolve_s = res.resolve_s;
		c->half_width_iid =
			100 *
			fmax(exp(res.effect_log + res.t_crit * res.se_iid_log) -
				     exp(res.effect_log),
			     exp(res.effect_log) -
				     exp(res.effect_log -
					 res.t_crit * res.se_iid_log));
	}
	c->noise_raw = sqrt(res.var_raw);
	c->noise_adj = sqrt(res.var_adj);
	if (res.steal_used) {
		c->steal_adjusted = true;
		c->steal_coef = res.steal_coef;
		c->var_removed = res.var_removed;
	}
	return 0;
}

/*
 * The whole-run score of cell c (label values v) against the baseline's
 * (b), with the steal term st when fitted: each run's logarithm moved
 * by -coef * steal, and the uncertainty of coef added to the standard
 * error (the labels' mean shares differ by ds: ds^2 var(coef)).
 */
static void score_runs(struct score_cell *c, struct score_runs *v,
		       struct score_runs *b, const struct score_steal *st)
{
	struct stats_welch w;
	double ds = 0, var_raw, var_adj, se, sd_pool;
	size_t i;

	if (st->ok) {
		ds = finite_mean(v->steal, v->n) - finite_mean(b->steal, b->n);
		var_raw = ((v->n - 1) * pow(stats_sd(v->lx, v->n), 2) +
			   (b->n - 1) * pow(stats_sd(b->lx, b->n), 2));
		for (i = 0; i < v->n; i++)
			v->lx[i] -= st->coef * v->steal[i];
		for (i = 0; i < b->n; i++)
			b->lx[i] -= st->coef * b->steal[i];
		var_adj = ((v->n - 1) * pow(stats_sd(v->lx, v->n), 2) +
			   (b->n - 1) * pow(stats_sd(b->lx, b->n), 2));
		c->steal_adjusted = true;
		c->steal_coef = st->coef;
		/* each over its degrees of freedom, as the block model */
		c->var_removed =
			var_raw > 0
				? 1 - (var_adj / (double)(v->n + b->n - 3)) /
						  (var_raw /
						   (double)(v->n + b->n - 2))
				: NAN;
	}
	c->diff_log = stats_mean(v->lx, v->n) - stats_mean(b->lx, b->n);
	c->score = 100 * exp(c->diff_log);
	if (stats_welch(b->lx, b->n, v->lx, v->n, &w) < 0)
		goto restore; /* n = 1 on a side: no interval */
	se = sqrt(w.se * w.se + (st->ok ? ds * ds * st->coef_var : 0));
	c->has_ci = true;
	c->se_log = se;
	c->df = st->ok ? fmin(w.df, st->df) : w.df;
	c->t_crit = st->ok ? stats_t_quantile(0.975, c->df) : w.t_crit;
	c->t = se > 0 ? c->diff_log / se : w.t;
	c->p = st->ok && se > 0 ? 2 * (1 - stats_t_cdf(fabs(c->t), c->df))
				: w.p;
	c->ci_lo = 100 * exp(c->diff_log - c->t_crit * se);
	c->ci_hi = 100 * exp(c->diff_log + c->t_crit * se);
	/* exp() is convex: the upper half is the larger one. */
	c->half_width = fmax(c->ci_hi - c->score, c->score - c->ci_lo);
	c->significant = c->ci_lo > 100 || c->ci_hi < 100 ||
			 (se == 0 && c->diff_log != 0);
	c->mde_pct = 100 * (exp(blocks_estimate_mde(se, c->df)) - 1);
	sd_pool = sqrt(((v->n - 1) * pow(stats_sd(v->lx, v->n), 2) +
			(b->n - 1) * pow(stats_sd(b->lx, b->n), 2)) /
		       (double)(v->n + b->n - 2));
	c->resolve_runs = runs_needed(sd_pool);
	{
		double len_v = finite_mean(v->len_s, v->n);
		double len_b = finite_mean(b->len_s, b->n);

		c->resolve_s = c->resolve_runs * (len_v + len_b);
	}
restore:
	/* the baseline's logarithms serve the next label unadjusted */
	if (st->ok)
		for (i = 0; i < b->n; i++)
			b->lx[i] += st->coef * b->steal[i];
}

/* Fill the cells of one configuration. v, b: arrays of nruns each. */
static int score_config(const struct runset *rs, struct score_table *t,
			size_t config, struct score_runs *v,
			struct score_runs *b)
{
	const char *cfg = t->configs[config];
	struct score_steal st;
	size_t nb_excl, nb_blk, l;
	int rc;

	steal_fit(rs, t, config, v, &st);
	collect(rs, t->labels[t->baseline], cfg, b, &nb_excl, &nb_blk);
	for (l = 0; l < t->nlabels; l++) {
		struct score_cell *c = cell_at(t, l, config);
		struct score_runs *vv = v;
		size_t excl, nblk;

		cell_unknown(c);
		if (l == t->baseline) {
			vv = b;
			excl = nb_excl;
			nblk = nb_blk;
		} else {
			collect(rs, t->labels[l], cfg, v, &excl, &nblk);
		}
		c->n_excluded = excl;
		if (nblk > 0) {
			/* block runs score themselves; whole runs of the
			   same label beside them are not mixed in */
			c->n_excluded += vv->n;
			rc = score_blocks(rs, t->labels[l], cfg, c);
			if (rc < 0)
				return rc;
			continue;
		}
		c->n = vv->n;
		if (c->n == 0)
			continue;
		c->mean = stats_mean(vv->x, c->n);
		c->gmean = exp(stats_mean(vv->lx, c->n));
		c->sd = stats_sd(vv->x, c->n);
		c->cov = stats_cov(vv->x, c->n);
		c->steal_pct = 100 * finite_mean(vv->steal, c->n);
		if (b->n == 0 || nb_blk > 0)
			continue;
		c->has_score = true;
		if (l == t->baseline) {
			c->score = 100;
			continue;
		}
		score_runs(c, v, b, &st);
	}
	return 0;
}

/* Count the block cells and the steal-adjusted ones. */
static void count_kinds(struct score_table *t)
{
	size_t i;

	for (i = 0; i < t->nlabels * t->nconfigs; i++) {
		if (t->cells[i].blocks)
			t->nblock_cells++;
		if (t->cells[i].steal_adjusted)
			t->nsteal_adjusted++;
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
	struct score_runs v, bv;
	size_t n, c, nr;
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
	nr = rs->nruns ? rs->nruns : 1;
	buf = calloc(8 * nr, sizeof(*buf));
	if (!t->cells || !buf) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	v = (struct score_runs){buf, buf + nr, buf + 2 * nr, buf + 3 * nr, 0};
	bv = (struct score_runs){buf + 4 * nr, buf + 5 * nr, buf + 6 * nr,
				 buf + 7 * nr, 0};
	for (c = 0; c < t->nconfigs; c++)
		if (score_config(rs, t, c, &v, &bv) < 0) {
			rc = err_set(err, -ENOMEM, "out of memory");
			goto fail;
		}
	count_kinds(t);
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
