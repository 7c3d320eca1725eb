/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_content.c - the sections of compare's document
 * (compare_content.h), in the order a reader needs them: scores first,
 * then what may explain them (contest figures, host speed, profiles,
 * locks, plots), then what was left out and why.
 *
 * Tables list the baseline first (score_row_label()); every table of a
 * label against the baseline shows the baseline's own row without the
 * change columns.
 */
#include "analysis/compare/compare_content.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare/compare_links.h"
#include "analysis/parsers/parse_perflock.h"

/* Columns per configuration in the score table. */
#define SCORE_COLS 7

/*
 * A time for the resolution column: minutes under an hour, hours under
 * two days, then days; ">1000 d" for what no experiment could run.
 */
static void put_duration(struct cdoc *d, struct cdoc_table *tab, size_t row,
			 size_t col, double s)
{
	if (isnan(s))
		return;
	if (!isfinite(s) || s > 1000 * 86400.0)
		compare_doc_cell(d, tab, row, col, ">1000 d");
	else if (s < 3600)
		compare_doc_cell(d, tab, row, col, "%.0f min", ceil(s / 60));
	else if (s < 48 * 3600)
		compare_doc_cell(d, tab, row, col, "%.1f h", s / 3600);
	else
		compare_doc_cell(d, tab, row, col, "%.1f d", s / 86400);
}

/* Whether any cell of row l is scored from block runs. */
static bool row_has_blocks(const struct score_table *t, size_t l)
{
	size_t c;

	for (c = 0; c < t->nconfigs; c++)
		if (score_cell(t, l, c)->blocks)
			return true;
	return false;
}

static void score_table(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t ncols = 1 + SCORE_COLS * t->nconfigs + 1, c, i;
	struct cdoc_table *tab = compare_doc_table(d, ncols, NULL);

	compare_doc_col(d, tab, 0, "Label", false, 0);
	for (c = 0; c < t->nconfigs; c++) {
		size_t k = 1 + SCORE_COLS * c;

		compare_doc_col(d, tab, k, "Score", true, c ? 6 : 2);
		compare_doc_col(d, tab, k + 1, "±95 %", true, 2);
		compare_doc_col(d, tab, k + 2, "", false, 1);
		compare_doc_attach(tab, k + 2);
		compare_doc_col(d, tab, k + 3, "n", true, 2);
		compare_doc_col(d, tab, k + 4, "CoV %", true, 2);
		compare_doc_col(d, tab, k + 5, "MDE %", true, 2);
		compare_doc_col(d, tab, k + 6, "1 % in", true, 2);
		compare_doc_group(d, tab, k, SCORE_COLS, (int)c + 1,
				  runset_config_title(t->configs[c]));
	}
	compare_doc_col(d, tab, ncols - 1, "", false, 2);
	for (i = 0; i < t->nlabels; i++) {
		size_t l = score_row_label(t, i), row = compare_doc_row(d, tab);

		compare_doc_cell(d, tab, row, 0, "%s", t->labels[l]);
		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *cell = score_cell(t, l, c);
			const struct score_cell *base =
				score_cell(t, t->baseline, c);
			size_t k = 1 + SCORE_COLS * c;

			if (!cell->has_score) {
				compare_doc_cell(d, tab, row, k, "-");
			} else {
				compare_doc_num(d, tab, row, k, cell->score, 2);
				if (cell->has_ci)
					compare_doc_cell(d, tab, row, k + 1,
							 "±%.2f",
							 cell->half_width);
				else if (l != t->baseline &&
					 (cell->n == 1 || base->n == 1))
					compare_doc_cell(d, tab, row, k + 1,
							 "n=1");
				if (cell->significant)
					compare_doc_cell(d, tab, row, k + 2,
							 "*");
			}
			if (cell->n)
				compare_doc_cell(d, tab, row, k + 3, "%zu",
						 cell->n);
			if (cell->n >= 2)
				compare_doc_num(d, tab, row, k + 4,
						100 * cell->cov, 2);
			else if (cell->n == 1 && !cell->blocks)
				compare_doc_cell(d, tab, row, k + 4, "-");
			if (isfinite(cell->mde_pct))
				compare_doc_num(d, tab, row, k + 5,
						cell->mde_pct, 2);
			put_duration(d, tab, row, k + 6, cell->resolve_s);
			compare_links_score(d, tab, row, k, in, l, c);
		}
		if (row_has_blocks(t, l))
			compare_doc_cell(d, tab, row, ncols - 1,
					 "(blocks: B over A)");
		else if (l == t->baseline)
			compare_doc_cell(d, tab, row, ncols - 1, "(baseline)");
	}
}

/* One cell's verdict in words, for the mail format. */
static void verdict(struct cdoc *d, struct cdoc_table *tab, size_t row,
		    size_t col, const struct score_table *t, size_t l,
		    const struct score_cell *cell)
{
	double lo = cell->ci_lo - 100, hi = cell->ci_hi - 100;

	if (l == t->baseline && !cell->blocks)
		compare_doc_cell(d, tab, row, col,
				 cell->has_score ? "baseline" : "-");
	else if (!cell->has_score)
		compare_doc_cell(d, tab, row, col, "-");
	else if (!cell->has_ci)
		compare_doc_cell(d, tab, row, col,
				 "one run a side, no interval");
	else if (cell->significant)
		compare_doc_cell(d, tab, row, col,
				 "%+.1f %% (%+.1f to %+.1f), significant",
				 cell->score - 100, lo, hi);
	else if (lo > 0 || hi < 0)
		compare_doc_cell(d, tab, row, col,
				 "%+.1f %% (%+.1f to %+.1f), not after Holm",
				 cell->score - 100, lo, hi);
	else
		compare_doc_cell(d, tab, row, col, "no effect beyond +-%.1f %%",
				 -lo > hi ? -lo : hi);
}

/*
 * The mail's score table: per configuration the score, the runs and the
 * verdict in words, so a reader of a plain-text mail needs no legend for
 * the stars.
 */
static void mail_score_table(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t ncols = 1 + 3 * t->nconfigs, c, i;
	struct cdoc_table *tab = compare_doc_table(d, ncols, NULL);

	compare_doc_col(d, tab, 0, "Label", false, 0);
	for (c = 0; c < t->nconfigs; c++) {
		size_t k = 1 + 3 * c;

		compare_doc_col(d, tab, k, "Score", true, 2);
		compare_doc_col(d, tab, k + 1, "n", true, 2);
		compare_doc_col(d, tab, k + 2, "Verdict", false, 2);
		compare_doc_group(d, tab, k, 3, (int)c + 1,
				  runset_config_title(t->configs[c]));
	}
	for (i = 0; i < t->nlabels; i++) {
		size_t l = score_row_label(t, i), row = compare_doc_row(d, tab);

		compare_doc_cell(d, tab, row, 0, "%s", t->labels[l]);
		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *cell = score_cell(t, l, c);
			size_t k = 1 + 3 * c;

			if (cell->has_score)
				compare_doc_num(d, tab, row, k, cell->score, 2);
			else
				compare_doc_cell(d, tab, row, k, "-");
			if (cell->n)
				compare_doc_cell(d, tab, row, k + 1, "%zu",
						 cell->n);
			verdict(d, tab, row, k + 2, t, l, cell);
		}
	}
	compare_doc_para(
		d,
		"Score: 100 x the geometric mean of %s over a label's runs "
		"divided by the baseline's; n: scored runs. Verdict: the "
		"change and its 95 %% interval in %% of the baseline, "
		"significant when the interval excludes no change (Welch's "
		"t-test on the logarithms%s); \"no effect beyond +-X %%\": "
		"the interval includes no change and rules out effects "
		"larger than X %%. Block labels are scored B over A inside "
		"their own runs.",
		in->metric, t->holm ? ", Holm-adjusted" : ", unadjusted");
}

static void score_legend(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t c;

	compare_doc_para(
		d,
		"Score: 100 x the geometric mean of %s over a label's runs "
		"divided by the baseline's. ±: half-width of the 95 %% "
		"confidence interval of that ratio, in score points (the "
		"larger side: on the ratio scale the interval is not "
		"symmetric). n=1: one run on a side, no interval. n: scored "
		"runs. CoV: their coefficient of variation (sd / mean). "
		"-: no scored run.",
		in->metric);
	compare_doc_para(
		d,
		"MDE: the smallest difference the experiment behind the score "
		"could have detected (95 %% confidence, 80 %% power), from its "
		"own measured noise: a real difference of that size is "
		"starred four times in five, a smaller one may well not be, "
		"so no star means \"smaller than about the MDE\", not \"no "
		"difference\". 1 %% in: how long the same design would need "
		"to resolve 1 %% (its runs of both labels, or its block "
		"run), if the host stays as noisy.");
	if (t->nblock_cells)
		compare_doc_para(
			d,
			"(blocks: B over A): the label's runs are block runs "
			"(docs/blocks.md): the setting was switched inside each "
			"run, A B B A A B B A ..., and the score is the NOTPM of "
			"its B blocks over its own A blocks (the setting as "
			"found), not the baseline's; its interval treats each "
			"A B B A group as one independent unit. n: block runs.");
	if (t->ncomparisons == 0)
		compare_doc_para(d,
				 "No label has two or more scored runs in a "
				 "configuration where the baseline has too: no "
				 "intervals, so no '*' (significant) marks.");
	else if (t->holm)
		compare_doc_para(
			d,
			"*: significant at 95 %% after Holm's correction over "
			"the %zu comparisons with an interval (Welch's t-test "
			"on the logarithms). The intervals are unadjusted.",
			t->ncomparisons);
	else
		compare_doc_para(
			d,
			"*: the interval excludes 100, i.e. the difference is "
			"significant at 95 %% (Welch's t-test on the "
			"logarithms%s). Intervals and stars are unadjusted for "
			"the %zu comparisons in this table (--holm adjusts "
			"the stars).",
			t->nblock_cells ? "; for block scores, the t-test of "
					  "the A B B A groups"
					: "",
			t->ncomparisons);
	for (c = 0; c < t->nconfigs; c++)
		if (score_cell(t, t->baseline, c)->n == 0)
			compare_doc_para(
				d,
				"%s: the baseline %s has no scored run here, so "
				"there are no scores.",
				runset_config_title(t->configs[c]),
				t->labels[t->baseline]);
}

/*
 * Per score with the steal term: the host's mean steal share, what one
 * point of it cost, and how much of the variance the term removed.
 */
static void steal_table(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	struct cdoc_table *tab;
	size_t i, c;

	if (t->nsteal_adjusted == 0)
		return;
	compare_doc_heading(d, 2, "Steal adjustment");
	tab = compare_doc_table(d, 5, NULL);
	compare_doc_col(d, tab, 0, "Label", false, 0);
	compare_doc_col(d, tab, 1, "Configuration", false, 2);
	compare_doc_col(d, tab, 2, "Steal %", true, 2);
	compare_doc_col(d, tab, 3, "Cost %/point", true, 2);
	compare_doc_col(d, tab, 4, "Variance removed %", true, 2);
	for (i = 0; i < t->nlabels; i++) {
		size_t l = score_row_label(t, i);

		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *cell = score_cell(t, l, c);
			size_t row;

			if (!cell->steal_adjusted || !cell->has_score ||
			    (l == t->baseline && !cell->blocks))
				continue;
			row = compare_doc_row(d, tab);
			compare_doc_cell(d, tab, row, 0, "%s", t->labels[l]);
			compare_doc_cell(d, tab, row, 1, "%s",
					 runset_config_title(t->configs[c]));
			compare_doc_num(d, tab, row, 2, cell->steal_pct, 2);
			compare_doc_change(
				d, tab, row, 3,
				100 * (exp(cell->steal_coef / 100) - 1), 2);
			compare_doc_num(d, tab, row, 4, 100 * cell->var_removed,
					1);
		}
	}
	compare_doc_para(
		d,
		"The host's steal time (sys/procstat.csv: CPU time the "
		"hypervisor gave to others while this guest was runnable) "
		"differed between the runs or blocks of these scores, so "
		"ln NOTPM was fitted with a steal term, each label (or each "
		"A B B A group) keeping its own level: Cost: the change in "
		"NOTPM per point of steal (-1.5: one point of steal cost "
		"1.5 %%; -1 is a CPU-bound run). Variance removed: the share "
		"of the residual variance the term took out (negative: it "
		"explained less than the degree of freedom it cost). Steal "
		"%%: the mean share of the score's runs or blocks.");
}

/*
 * Per block score: the residual noise of one block, raw and with the
 * steal term, and the interval beside the one independent residuals of
 * that noise would give, so a reader sees what the correlation between
 * neighbouring blocks and the group intercepts cost.
 */
static void block_noise_table(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	struct cdoc_table *tab;
	size_t i, c;

	if (t->nblock_cells == 0)
		return;
	compare_doc_heading(d, 2, "Block noise");
	tab = compare_doc_table(d, 8, NULL);
	compare_doc_col(d, tab, 0, "Label", false, 0);
	compare_doc_col(d, tab, 1, "Configuration", false, 2);
	compare_doc_col(d, tab, 2, "Blocks", true, 2);
	compare_doc_col(d, tab, 3, "Groups", true, 2);
	compare_doc_col(d, tab, 4, "Noise raw %", true, 2);
	compare_doc_col(d, tab, 5, "Noise adj %", true, 2);
	compare_doc_col(d, tab, 6, "±95 %", true, 2);
	compare_doc_col(d, tab, 7, "± if independent", true, 2);
	for (i = 0; i < t->nlabels; i++) {
		size_t l = score_row_label(t, i);

		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *cell = score_cell(t, l, c);
			size_t row;

			if (!cell->blocks || !cell->has_score)
				continue;
			row = compare_doc_row(d, tab);
			compare_doc_cell(d, tab, row, 0, "%s", t->labels[l]);
			compare_doc_cell(d, tab, row, 1, "%s",
					 runset_config_title(t->configs[c]));
			compare_doc_cell(d, tab, row, 2, "%zu", cell->nblocks);
			compare_doc_cell(d, tab, row, 3, "%zu", cell->groups);
			compare_doc_num(d, tab, row, 4, 100 * cell->noise_raw,
					2);
			compare_doc_num(d, tab, row, 5, 100 * cell->noise_adj,
					2);
			compare_doc_num(d, tab, row, 6,
					cell->has_ci ? cell->half_width : NAN,
					2);
			compare_doc_num(d, tab, row, 7, cell->half_width_iid,
					2);
		}
	}
	compare_doc_para(
		d, "Noise: the standard deviation of one block's ln NOTPM "
		   "about the model (its group's level, the arm, and with adj "
		   "the steal term), in %%. ±95 %%: the score's interval, "
		   "which treats each A B B A group as one unit. ± if "
		   "independent: the interval the same blocks would give if "
		   "their residuals were independent, the bound the run's own "
		   "noise sets; the ratio of the two is what the noise's "
		   "correlation from block to block costs (docs/blocks.md).");
}

static void contest_tables(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t c, i;

	compare_doc_heading(d, 2, "Contest table");
	for (c = 0; c < t->nconfigs; c++) {
		struct cdoc_table *tab;
		size_t rows = 0;

		for (i = 0; i < t->nlabels; i++)
			rows += compare_evidence_contest_at(in->ev, i, c)
					->runs > 0;
		if (!rows) {
			compare_doc_para(d, "%s: no scored runs.",
					 runset_config_title(t->configs[c]));
			continue;
		}
		tab = compare_doc_table(
			d, 7,
			compare_doc_fmt(d, "%s",
					runset_config_title(t->configs[c])));
		compare_doc_col(d, tab, 0, "Label", false, 0);
		compare_doc_col(d, tab, 1, "Runs", true, 2);
		compare_doc_col(d, tab, 2,
				in->rs->simulated ? "simulated NOTPM" : "NOTPM",
				true, 2);
		compare_doc_col(d, tab, 3, "New-Order p90 ms", true, 2);
		compare_doc_col(d, tab, 4, "CPU %", true, 2);
		compare_doc_col(d, tab, 5, "I/O wait %", true, 2);
		compare_doc_col(d, tab, 6, "Ratio", true, 2);
		for (i = 0; i < t->nlabels; i++) {
			size_t l = score_row_label(t, i), row;
			const struct cev_contest *cc =
				compare_evidence_contest_at(in->ev, l, c);

			if (!cc->runs)
				continue;
			row = compare_doc_row(d, tab);
			compare_doc_cell(d, tab, row, 0, "%s", t->labels[l]);
			compare_doc_cell(d, tab, row, 1, "%zu", cc->runs);
			compare_doc_num(d, tab, row, 2, cc->notpm, 1);
			compare_doc_num(d, tab, row, 3, cc->no_p90_ms, 2);
			compare_doc_num(d, tab, row, 4, cc->cpu_pct, 1);
			compare_doc_num(d, tab, row, 5, cc->iowait_pct, 1);
			compare_doc_num(d, tab, row, 6, cc->ratio, 2);
		}
	}
	compare_doc_para(
		d,
		"Runs: scored runs. %sNOTPM: their mean. New-Order p90: mean "
		"of the runs' 90th percentile response times. CPU %%: vmstat "
		"us+sy, I/O wait %%: vmstat wa, means over each run's "
		"measured window. Ratio: mean New-Order response time "
		"relative to the baseline's (below 1: faster).",
		in->rs->simulated ? "simulated " : "");
}

/* The figures of the host probe table, in column order. */
enum probe_col {
	PCOL_CPU,   /* CPU chain, ns per step */
	PCOL_MEM,   /* pointer chase, ns per load */
	PCOL_FSYNC, /* write + fdatasync, ms */
	PCOL_NR	    /* number of figures */
};

/* Columns of a host probe table: label, runs, then per figure 3. */
#define PROBE_COLS (2 + 3 * PCOL_NR)

/* One figure of a contest cell: its mean, CoV (fraction) and vs base. */
struct probe_figure {
	double mean;	/* mean over the runs */
	double cov;	/* CoV across them, NAN below 2 runs */
	double vs_base; /* 100 x mean / the baseline's mean */
};

/* Figure k of cc. */
static struct probe_figure probe_figure(const struct cev_contest *cc,
					enum probe_col k)
{
	switch (k) {
	case PCOL_CPU:
		return (struct probe_figure){cc->host_cpu_ns, cc->host_cpu_cov,
					     cc->host_cpu_vs_base};
	case PCOL_MEM:
		return (struct probe_figure){cc->host_mem_ns, cc->host_mem_cov,
					     cc->host_mem_vs_base};
	case PCOL_FSYNC:
	case PCOL_NR:
	default:
		return (struct probe_figure){cc->host_fsync_ms,
					     cc->host_fsync_cov,
					     cc->host_fsync_vs_base};
	}
}

/* Whether any label has a probe in configuration c (or any, c SIZE_MAX). */
static bool probe_any(const struct cout_input *in, size_t c)
{
	size_t l, k;

	for (l = 0; l < in->t->nlabels; l++)
		for (k = 0; k < in->t->nconfigs; k++)
			if ((c == SIZE_MAX || k == c) &&
			    compare_evidence_contest_at(in->ev, l, k)
				    ->probe_runs)
				return true;
	return false;
}

/* The host probe table of configuration c. */
static void probe_table(struct cdoc *d, const struct cout_input *in, size_t c)
{
	static const struct {
		const char *title; /* group title */
		const char *unit;  /* head of the mean's column */
		int dec;	   /* decimals of the mean */
	} figs[PCOL_NR] = {
		[PCOL_CPU] = {"CPU", "ns/op", 3},
		[PCOL_MEM] = {"Memory", "ns/op", 1},
		[PCOL_FSYNC] = {"fsync", "ms", 3},
	};
	const struct score_table *t = in->t;
	struct cdoc_table *tab;
	size_t i, k;

	tab = compare_doc_table(
		d, PROBE_COLS,
		compare_doc_fmt(d, "%s", runset_config_title(t->configs[c])));
	compare_doc_col(d, tab, 0, "Label", false, 0);
	compare_doc_col(d, tab, 1, "Runs", true, 2);
	for (k = 0; k < PCOL_NR; k++) {
		size_t col = 2 + 3 * k;

		compare_doc_col(d, tab, col, figs[k].unit, true, 4);
		compare_doc_col(d, tab, col + 1, "CoV %", true, 2);
		compare_doc_col(d, tab, col + 2, "vs base", true, 2);
		compare_doc_group(d, tab, col, 3, (int)k + 1, figs[k].title);
	}
	for (i = 0; i < t->nlabels; i++) {
		size_t l = score_row_label(t, i), row;
		const struct cev_contest *cc =
			compare_evidence_contest_at(in->ev, l, c);

		if (!cc->probe_runs)
			continue;
		row = compare_doc_row(d, tab);
		compare_doc_cell(d, tab, row, 0, "%s", t->labels[l]);
		compare_doc_cell(d, tab, row, 1, "%zu", cc->probe_runs);
		for (k = 0; k < PCOL_NR; k++) {
			struct probe_figure pf =
				probe_figure(cc, (enum probe_col)k);
			size_t col = 2 + 3 * k;

			compare_doc_num(d, tab, row, col, pf.mean, figs[k].dec);
			compare_doc_num(d, tab, row, col + 1, 100 * pf.cov, 1);
			if (l != t->baseline)
				compare_doc_num(d, tab, row, col + 2,
						pf.vs_base, 1);
		}
	}
}

/*
 * How far a probe moved from the baseline's, in percent, when that is
 * more than the baseline's own spread between runs (at least 2 %): less
 * is noise of the probe. The change (positive: slower), or 0 when it did
 * not move that far or is unknown.
 */
static double probe_moved(const struct probe_figure *pf,
			  const struct probe_figure *base)
{
	double limit = 100 * base->cov, change = pf->vs_base - 100;

	if (!(limit > 2))
		limit = 2;
	return fabs(change) > limit ? change : 0;
}

/* "slower" for a longer time per operation, "faster" for a shorter. */
static const char *probe_speed(double change)
{
	return change > 0 ? "slower" : "faster";
}

/*
 * The warning for label l in configuration c when its CPU or memory
 * probe moved from the baseline's. fsync is left out: it goes through the
 * kernel under test, so its change may be the kernel's own.
 */
static void probe_warning(struct cdoc *d, const struct cout_input *in, size_t l,
			  size_t c)
{
	const struct score_table *t = in->t;
	const struct cev_contest *cc = compare_evidence_contest_at(in->ev, l,
								   c),
				 *bc = compare_evidence_contest_at(
					 in->ev, t->baseline, c);
	struct probe_figure cpu = probe_figure(cc, PCOL_CPU),
			    mem = probe_figure(cc, PCOL_MEM),
			    bcpu = probe_figure(bc, PCOL_CPU),
			    bmem = probe_figure(bc, PCOL_MEM);
	double dc = probe_moved(&cpu, &bcpu), dm = probe_moved(&mem, &bmem);
	/* The larger move leads; the other is named if it moved too. */
	bool cpu_leads = fabs(dc) >= fabs(dm);
	double lead = cpu_leads ? dc : dm, other = cpu_leads ? dm : dc;
	char also[64] = "";

	if (l == t->baseline || (dc == 0 && dm == 0))
		return;
	if (other != 0)
		snprintf(also, sizeof(also), "; %s probe: %.1f %% %s",
			 cpu_leads ? "memory" : "CPU", fabs(other),
			 probe_speed(other));
	compare_doc_para(
		d,
		"%s: the host was %.1f %% %s during %s's runs than during "
		"the baseline's (%s probe%s): score differences of that "
		"size may be the host's, not the kernel's.",
		runset_config_title(t->configs[c]), fabs(lead),
		probe_speed(lead), t->labels[l], cpu_leads ? "CPU" : "memory",
		also);
}

/* The "Host probe" section: only when some run has a probe. */
static void probe_tables(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t c, i;

	if (!probe_any(in, SIZE_MAX))
		return;
	compare_doc_heading(d, 2, "Host probe");
	for (c = 0; c < t->nconfigs; c++) {
		if (!probe_any(in, c)) {
			compare_doc_para(d,
					 "%s: no scored run has a host probe.",
					 runset_config_title(t->configs[c]));
			continue;
		}
		probe_table(d, in, c);
		if (!compare_evidence_contest_at(in->ev, t->baseline, c)
			     ->probe_runs)
			compare_doc_para(
				d,
				"The baseline %s has no host probe here: no "
				"comparison.",
				t->labels[t->baseline]);
		for (i = 0; i < t->nlabels; i++)
			probe_warning(d, in, score_row_label(t, i), c);
	}
	compare_doc_para(
		d,
		"The hostprobe hook times the same fixed work on the host "
		"just before and just after each run, outside the measured "
		"interval: CPU, an arithmetic dependency chain (ns per "
		"step); Memory, a pointer chase over a buffer larger than "
		"the caches (ns per load); fsync, an 8 KiB overwrite and "
		"fdatasync, like a WAL write (median, ms). Lower is faster. "
		"A run's figure is the mean of its two probes. Runs: scored "
		"runs with a probe. CoV: across them. vs base: 100 x the "
		"label's mean / the baseline's. Shared hosts drift by 15 to "
		"25 %% over tens of minutes: when a label's probe differs "
		"from the baseline's, the host changed speed between their "
		"runs. CPU and memory hardly enter the kernel; fsync goes "
		"through the file system and block layer of the kernel under "
		"test, so its change may be the kernel's own.");
}

/* "1 run" / "3 runs". */
static const char *runs_word(size_t n)
{
	return n == 1 ? "run" : "runs";
}

/* The profile table of one label; base is the baseline's (or NULL). */
static void profile_table(struct cdoc *d, const char *label,
			  const struct cev_profile *p,
			  const struct cev_profile *base)
{
	bool delta = base && p != base;
	struct cdoc_table *tab;
	size_t k;

	tab = compare_doc_table(d, delta ? 4 : 2,
				compare_doc_fmt(d, "%s (%zu %s)", label,
						p->runs, runs_word(p->runs)));
	compare_doc_col(d, tab, 0, "Symbol", false, 2);
	compare_doc_col(d, tab, 1, "%", true, 2);
	if (delta) {
		compare_doc_col(d, tab, 2, "Baseline %", true, 2);
		compare_doc_col(d, tab, 3, "Change pp", true, 2);
	}
	for (k = 0; k < p->nsyms && k < CEV_TOP_SYMBOLS; k++) {
		size_t row = compare_doc_row(d, tab);
		double b;

		compare_doc_cell(d, tab, row, 0, "%s", p->syms[k].name);
		compare_doc_num(d, tab, row, 1, p->syms[k].pct, 2);
		if (!delta)
			continue;
		b = compare_evidence_profile_pct(base, p->syms[k].name);
		compare_doc_num(d, tab, row, 2, b, 2);
		compare_doc_change(d, tab, row, 3, p->syms[k].pct - b, 2);
	}
}

static void profile_tables(struct cdoc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	const char *base_label = t->labels[t->baseline];
	size_t c, s, i;

	if (!in->ev->nprofiles)
		return;
	compare_doc_heading(d, 2, "Kernel profiles");
	for (c = 0; c < t->nconfigs; c++) {
		for (s = 0; s < CEV_SOURCE_NR; s++) {
			const enum cev_source src = (enum cev_source)s;
			const char *cfg = t->configs[c];
			const struct cev_profile *base =
				compare_evidence_profile_find(
					in->ev, base_label, cfg, src);
			bool any = false;

			if (compare_evidence_source_is_lock(src))
				continue;
			for (i = 0; i < t->nlabels; i++)
				any |= compare_evidence_profile_find(
					       in->ev, t->labels[i], cfg,
					       src) != NULL;
			if (!any)
				continue;
			compare_doc_heading(d, 3, "%s: %s (%s)",
					    runset_config_title(cfg),
					    compare_evidence_source_name(src),
					    compare_evidence_source_file(src));
			for (i = 0; i < t->nlabels; i++) {
				size_t l = score_row_label(t, i);
				const struct cev_profile *p =
					compare_evidence_profile_find(
						in->ev, t->labels[l], cfg, src);

				if (p)
					profile_table(d, t->labels[l], p, base);
			}
			if (!base)
				compare_doc_para(
					d,
					"The baseline %s has no %s profile "
					"here: no changes shown.",
					base_label,
					compare_evidence_source_name(src));
		}
	}
	compare_doc_para(
		d,
		"%%: share of all profile ticks (readprofile: of the kernel "
		"total; perf: of all samples), averaged over the label's "
		"runs with a profile (diagnostic runs). Symbols are compared "
		"without compiler clone suffixes (.isra.N, .constprop.N, "
		".part.N, .cold). Change pp: percentage points against the "
		"baseline's share. Top %d symbols per label.",
		CEV_TOP_SYMBOLS);
}

/*
 * Whether a lock gets a row: every storage lock, then the CEV_TOP_LOCKS
 * most contended others (the list is sorted so); *shown counts those.
 */
static bool lock_shown(const struct cev_lock *x, size_t *shown)
{
	if (x->storage)
		return true;
	if (*shown >= CEV_TOP_LOCKS || !(x->contentions > 0))
		return false;
	(*shown)++;
	return true;
}

/* Rows a lock table would have. */
static size_t lock_rows(const struct cev_locks *lk)
{
	size_t k, shown = 0, rows = 0;

	for (k = 0; k < lk->nlocks; k++)
		rows += lock_shown(&lk->locks[k], &shown);
	return rows;
}

/* Contentions of x against the baseline's b, in percent, as a cell. */
static void lock_change(struct cdoc *d, struct cdoc_table *tab, size_t row,
			size_t col, const struct cev_lock *x,
			const struct cev_lock *b)
{
	if (b && b->contentions > 0)
		compare_doc_change(d, tab, row, col,
				   100 * (x->contentions / b->contentions - 1),
				   1);
	else if (x->contentions > 0)
		compare_doc_cell(d, tab, row, col, "new");
	else
		compare_doc_cell(d, tab, row, col, "-");
}

/* The lock table of one label; base is the baseline's (or NULL). */
static void lock_table(struct cdoc *d, const char *label,
		       const struct cev_locks *lk, const struct cev_locks *base)
{
	bool delta = base && lk != base;
	size_t nc = delta ? 6 : 4, k, shown = 0;
	struct cdoc_table *tab;

	if (!lock_rows(lk)) {
		compare_doc_para(d, "%s (%zu %s): no lock was contended.",
				 label, lk->runs, runs_word(lk->runs));
		return;
	}
	tab = compare_doc_table(d, nc,
				compare_doc_fmt(d, "%s (%zu %s)", label,
						lk->runs, runs_word(lk->runs)));
	/* perf lock names the function that waited, not the lock. */
	compare_doc_col(d, tab, 0,
			lk->source == CEV_PERF_LOCK ? "Caller" : "Lock", false,
			2);
	compare_doc_col(d, tab, 1, "Contentions", true, 2);
	compare_doc_col(d, tab, 2, "Wait ms", true, 2);
	if (delta) {
		compare_doc_col(d, tab, 3, "Baseline", true, 2);
		compare_doc_col(d, tab, 4, "Change %", true, 2);
	}
	compare_doc_col(d, tab, nc - 1, "", false, 2);
	for (k = 0; k < lk->nlocks; k++) {
		const struct cev_lock *x = &lk->locks[k], *b;
		size_t row;

		if (!lock_shown(x, &shown))
			continue;
		row = compare_doc_row(d, tab);
		compare_doc_cell(d, tab, row, 0, "%s", x->name);
		compare_doc_num(d, tab, row, 1, x->contentions, 0);
		compare_doc_num(d, tab, row, 2, x->wait_total_us / 1000, 2);
		if (x->storage)
			compare_doc_cell(d, tab, row, nc - 1, "storage");
		if (!delta)
			continue;
		b = compare_evidence_lock_find(base, x->name);
		compare_doc_num(d, tab, row, 3, b ? b->contentions : 0, 0);
		lock_change(d, tab, row, 4, x, b);
	}
}

/*
 * What a perf lock table holds, and the storage callers, from the list
 * the parser decides with (parse_perflock.c).
 */
static void perf_lock_note(struct cdoc *d)
{
	char list[512] = "";
	const char *p, *sep;
	size_t i, len = 0;

	for (i = 0;
	     (p = parse_perflock_storage_prefix(i)) && len < sizeof(list);
	     i++) {
		if (i == 0)
			sep = "";
		else if (parse_perflock_storage_prefix(i + 1))
			sep = ", ";
		else
			sep = " or ";
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					sep, p);
	}
	compare_doc_para(
		d,
		"perf lock: a row is a kernel function that waited for a "
		"lock (perf lock contention's caller, without its offset "
		"and clone suffixes; the rows of one function added up), "
		"not a lock class; perf counts no acquisitions. Storage "
		"callers: names starting with %s.",
		list);
}

static void lock_tables(struct cdoc *d, const struct cout_input *in)
{
	bool perf_lock = false;
	const struct score_table *t = in->t;
	const char *base_label = t->labels[t->baseline];
	size_t c, s, i;

	if (!in->ev->nlocks)
		return;
	compare_doc_heading(d, 2, "Lock contention");
	for (c = 0; c < t->nconfigs; c++) {
		for (s = 0; s < CEV_SOURCE_NR; s++) {
			const enum cev_source src = (enum cev_source)s;
			const char *cfg = t->configs[c];
			const struct cev_locks *base =
				compare_evidence_locks_find(in->ev, base_label,
							    cfg, src);
			bool any = false;

			if (!compare_evidence_source_is_lock(src))
				continue;
			for (i = 0; i < t->nlabels; i++)
				any |= compare_evidence_locks_find(
					       in->ev, t->labels[i], cfg,
					       src) != NULL;
			if (!any)
				continue;
			perf_lock |= src == CEV_PERF_LOCK;
			compare_doc_heading(d, 3, "%s: %s (%s)",
					    runset_config_title(cfg),
					    compare_evidence_source_name(src),
					    compare_evidence_source_file(src));
			for (i = 0; i < t->nlabels; i++) {
				size_t l = score_row_label(t, i);
				const struct cev_locks *lk =
					compare_evidence_locks_find(
						in->ev, t->labels[l], cfg, src);

				if (lk)
					lock_table(d, t->labels[l], lk, base);
			}
			if (!base)
				compare_doc_para(
					d,
					"The baseline %s has no %s data here: "
					"no changes shown.",
					base_label,
					compare_evidence_source_name(src));
		}
	}
	compare_doc_para(
		d,
		"Storage locks (the SCSI host lock shost->host_lock and the "
		"block layer's queue locks) first, then the %d most "
		"contended others. Contentions and total wait time are "
		"means over the label's runs with lock statistics "
		"(diagnostic runs). Change %%: contentions against the "
		"baseline; new: the baseline had none.",
		CEV_TOP_LOCKS);
	if (perf_lock)
		perf_lock_note(d);
}

static void plots_section(struct cdoc *d, const struct cout_input *in,
			  bool html)
{
	const struct cplots *p = in->plots;
	size_t i, n = 0;

	if (!p)
		return;
	/* the kernel-cost plots are in their own section */
	for (i = 0; i < p->nplots; i++)
		n += p->plots[i].type < 0;
	compare_doc_heading(d, 2, "Evidence plots");
	if (n) {
		compare_doc_para(
			d,
			"vmstat of each label's representative run (its "
			"median run by %s), one plot per configuration and "
			"quantity; x: seconds since the run's start.%s%s",
			in->metric, html ? "" : " PNG and SVG in ",
			html ? "" : in->plots_path);
		compare_doc_list(d, CDOC_IMAGES);
		for (i = 0; i < p->nplots; i++)
			if (p->plots[i].type < 0)
				compare_doc_image(d, p->plots[i].title, "%s",
						  p->plots[i].name);
	} else {
		compare_doc_para(d, "No plots: %s.", p->why_not);
	}
	if (p->nnotes) {
		compare_doc_list(d, CDOC_LIST);
		for (i = 0; i < p->nnotes; i++)
			compare_doc_item(d, "%s", p->notes[i]);
	}
}

static void runs_left_out(struct cdoc *d, const struct cout_input *in)
{
	const struct runset *rs = in->rs;
	size_t i, n = 0;

	for (i = 0; i < rs->nruns; i++)
		n += rs->runs[i].exclusion != RUNSET_SCORED;
	if (n) {
		compare_doc_heading(d, 2, "Runs not scored");
		compare_doc_list(d, CDOC_LIST);
		for (i = 0; i < rs->nruns; i++)
			if (rs->runs[i].exclusion != RUNSET_SCORED)
				compare_doc_item(
					d, "%s: %s", rs->runs[i].dir,
					runset_exclusion_reason(
						rs->runs[i].exclusion));
	}
	if (rs->nbroken) {
		compare_doc_heading(d, 2, "Run directories skipped");
		compare_doc_list(d, CDOC_LIST);
		for (i = 0; i < rs->nbroken; i++)
			compare_doc_item(d, "%s: %s", rs->broken[i].dir,
					 rs->broken[i].reason);
	}
	if (rs->nremarks || in->ev->nremarks) {
		compare_doc_heading(d, 2, "Notes");
		compare_doc_list(d, CDOC_LIST);
		for (i = 0; i < rs->nremarks; i++)
			compare_doc_item(d, "%s: %s", rs->remarks[i].dir,
					 rs->remarks[i].reason);
		for (i = 0; i < in->ev->nremarks; i++)
			compare_doc_item(d, "%s: %s", in->ev->remarks[i].dir,
					 in->ev->remarks[i].reason);
	}
}

/* Whether every label's scores come from block runs. */
static bool all_blocks(const struct score_table *t)
{
	size_t l;

	for (l = 0; l < t->nlabels; l++)
		if (!row_has_blocks(t, l))
			return false;
	return t->nlabels > 0;
}

/*
 * What the figures come from: workload, server, machine, dates, runs per
 * cell, design, versions and the commands (comparable.h).
 */
static void provenance(struct cdoc *d, const struct cout_input *in)
{
	const struct comparable *cp = in->cmp;
	size_t i;

	if (!cp || !cp->nfacts)
		return;
	compare_doc_heading(d, 2, "Provenance");
	compare_doc_list(d, CDOC_LIST);
	for (i = 0; i < cp->nfacts; i++)
		compare_doc_item(d, "%s: %s", cp->facts[i].name,
				 cp->facts[i].text);
}

/*
 * What differs between each label and the baseline, from the treatment
 * keys of their fingerprints; then what comparability allowed or could
 * not check. The reader never has to guess from the labels' names.
 */
static void what_differs(struct cdoc *d, const struct cout_input *in)
{
	const struct comparable *cp = in->cmp;
	const struct score_table *t = in->t;
	size_t r, i;

	if (!cp)
		return;
	compare_doc_heading(d, 2, "What differs");
	compare_doc_para(d,
			 "Treatment keys of each label's runs against the "
			 "baseline's (%s), as their meta.json fingerprints "
			 "record them: baseline -> label.",
			 t->labels[t->baseline]);
	compare_doc_list(d, CDOC_LIST);
	for (r = 0; r < t->nlabels; r++) {
		size_t l = score_row_label(t, r), n = 0;

		if (l == t->baseline)
			continue;
		if (!cp->label_known || !cp->label_known[l]) {
			compare_doc_item(d,
					 "%s: not recorded (runs written "
					 "before the fingerprint)",
					 t->labels[l]);
			continue;
		}
		for (i = 0; i < cp->ndiffers; i++)
			n += strcmp(cp->differs[i].label, t->labels[l]) == 0;
		if (!n) {
			compare_doc_item(d, "%s: %s", t->labels[l],
					 comparable_no_difference);
			continue;
		}
		for (i = 0; i < cp->ndiffers; i++)
			if (strcmp(cp->differs[i].label, t->labels[l]) == 0)
				compare_doc_item(
					d, "%s: %s %s -> %s", t->labels[l],
					cp->differs[i].key, cp->differs[i].a,
					cp->differs[i].b);
	}
	for (i = 0; i < cp->nallowed; i++)
		compare_doc_para(d,
				 "Allowed to differ (--allow-differ): %s key "
				 "%s, %s in one run, %s in another (%s).",
				 cp->allowed[i].group, cp->allowed[i].key,
				 cp->allowed[i].a, cp->allowed[i].b,
				 cp->allowed[i].label);
	if (cp->nold)
		compare_doc_para(d,
				 "Not checked: %zu of %zu scored runs record "
				 "no fingerprint (written before it existed), "
				 "so their workload, treatment and environment "
				 "keys could not be compared.",
				 cp->nold, cp->nold + cp->nchecked);
}

void compare_content_build(struct cdoc *d, const struct cout_input *in,
			   bool html)
{
	const struct score_table *t = in->t;

	if (all_blocks(t))
		compare_doc_heading(d, 1,
				    "oltpmark compare: %s%s, B over A in block "
				    "runs",
				    in->rs->simulated ? "simulated " : "",
				    in->metric);
	else
		compare_doc_heading(d, 1, "oltpmark compare: %s%s against %s",
				    in->rs->simulated ? "simulated " : "",
				    in->metric, t->labels[t->baseline]);
	if (in->rs->simulated)
		compare_doc_para(
			d, "Simulated runs: the iosim driver replayed an I/O "
			   "profile on files (docs/iosim.md). Their NOTPM is "
			   "simulated NOTPM, comparable only with other "
			   "simulated runs.");
	if (all_blocks(t))
		compare_doc_para(d,
				 "Baseline: none needed: every label here is "
				 "a block run, scored against the setting as "
				 "found inside its own runs.");
	else
		compare_doc_para(d, "Baseline: %s (%s).",
				 t->labels[t->baseline],
				 in->baseline_given
					 ? "--baseline"
					 : "the label whose first run started "
					   "first");
	provenance(d, in);
	what_differs(d, in);
	if (in->mail) {
		mail_score_table(d, in);
	} else {
		score_table(d, in);
		score_legend(d, in);
		if (html)
			compare_links_legend(d, in);
	}
	steal_table(d, in);
	block_noise_table(d, in);
	contest_tables(d, in);
	probe_tables(d, in);
	compare_devices_content(d, in);
	compare_kcost_content(d, in);
	profile_tables(d, in);
	lock_tables(d, in);
	plots_section(d, in, html);
	runs_left_out(d, in);
}
