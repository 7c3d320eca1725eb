/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_kcost_plots.c - one plot per configuration and transaction
 * type of the kernel-cost figures' changes against the baseline, with
 * their intervals (compare_kcost_plots.h).
 *
 * The data file CONFIG-kcost-TYPE.dat has one line per figure: its
 * index, then for each label other than the baseline (in the score
 * table's order) the change, and the interval's low and high ends (the
 * change itself when there is no interval), empty when unknown. The
 * script draws each label as points with error bars, set a little apart
 * on x so that the labels' bars do not hide each other.
 */
#include "analysis/compare/compare_kcost_plots.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/common/gnuplot.h"
#include "analysis/compare/runset.h"

/* The row of label in config for type, or NULL. */
static const struct ckc_row *find_row(const struct ckcost *k,
				      const char *config, const char *label,
				      int type)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->rows[i].type == type &&
		    strcmp(k->rows[i].config, config) == 0 &&
		    strcmp(k->rows[i].label, label) == 0)
			return &k->rows[i];
	return NULL;
}

/* Whether any label has a change of some figure of type in config. */
static bool any_change(const struct ckcost *k, const char *config, int type)
{
	size_t i;
	int f;

	for (i = 0; i < k->n; i++) {
		if (k->rows[i].type != type || k->rows[i].baseline ||
		    strcmp(k->rows[i].config, config))
			continue;
		for (f = 0; f < KCOST_FIG_NR; f++)
			if (k->rows[i].fig[f].has_change)
				return true;
	}
	return false;
}

static int write_data(const char *dir, const char *file,
		      const struct score_table *t, const struct ckcost *k,
		      const char *config, int type, struct err *err)
{
	struct atomic_file af;
	size_t l;
	int f, rc;

	rc = gnuplot_create(&af, dir, file, err);
	if (rc < 0)
		return rc;
	for (f = 0; f < KCOST_FIG_NR; f++) {
		fprintf(af.f, "%d", f);
		for (l = 0; l < t->nlabels; l++) {
			const struct ckc_row *row;
			const struct ckc_fig *fg;

			if (l == t->baseline)
				continue;
			row = find_row(k, config, t->labels[l], type);
			fg = row ? &row->fig[f] : NULL;
			if (!fg || !fg->has_change)
				fputs(",,,", af.f);
			else if (fg->has_ci)
				fprintf(af.f, ",%.4f,%.4f,%.4f", fg->change,
					fg->lo, fg->hi);
			else
				fprintf(af.f, ",%.4f,%.4f,%.4f", fg->change,
					fg->change, fg->change);
		}
		fputc('\n', af.f);
	}
	return atomic_file_close(&af, 0, err);
}

static int write_script(const char *dir, const char *name, const char *dat,
			const char *title, const struct score_table *t,
			struct err *err)
{
	struct atomic_file af;
	char script[160];
	size_t l, n = 0, others = t->nlabels - 1;
	int f, rc;

	snprintf(script, sizeof(script), "%s.gp", name);
	rc = gnuplot_create(&af, dir, script, err);
	if (rc < 0)
		return rc;
	gnuplot_preamble(af.f, title, NULL, "change, % (bar: 95 % interval)");
	fprintf(af.f,
		"set xrange [-0.6:%d.6]\nset yrange [*:*]\n"
		"set offsets 0, 0, graph 0.08, graph 0.08\n"
		"set key top left horizontal\nset xtics rotate by -35 (",
		KCOST_FIG_NR - 1);
	for (f = 0; f < KCOST_FIG_NR; f++) {
		fputs(f ? ", " : "", af.f);
		gnuplot_quote(af.f, kcost_figure_title(f));
		fprintf(af.f, " %d", f);
	}
	fputs(")\nset grid ytics\nset xzeroaxis lt -1\nplot", af.f);
	for (l = 0; l < t->nlabels; l++) {
		double off;

		if (l == t->baseline)
			continue;
		/* labels side by side within +-0.25 of their figure */
		off = others > 1
			      ? -0.25 + 0.5 * (double)n / (double)(others - 1)
			      : 0;
		fprintf(af.f,
			"%s \\\n  '%s' using ($1%+.3f):%zu:%zu:%zu with "
			"yerrorbars pt 7 ps 0.8 lw 1.5 title ",
			n ? "," : "", dat, off, 2 + 3 * n, 3 + 3 * n,
			4 + 3 * n);
		gnuplot_quote(af.f, t->labels[l]);
		n++;
	}
	fputc('\n', af.f);
	return atomic_file_close(&af, 0, err);
}

int compare_kcost_plots(const char *dir, const struct score_table *t,
			const struct ckcost *k, size_t c, const char *stem,
			struct cplots *p, struct gnuplot_batch *batch,
			struct err *err)
{
	const char *config = t->configs[c];
	int type, rc;

	if (t->nlabels < 2)
		return 0;
	for (type = 0; type < TXN_NR; type++) {
		char name[128], dat[160], title[200];

		if (!any_change(k, config, type))
			continue;
		snprintf(name, sizeof(name), "%s-kcost-%s", stem,
			 txn_type_name(type));
		snprintf(dat, sizeof(dat), "%s.dat", name);
		snprintf(title, sizeof(title), "%s: %s, kernel cost against %s",
			 runset_config_title(config), txn_type_name(type),
			 t->labels[t->baseline]);
		rc = write_data(dir, dat, t, k, config, type, err);
		if (rc == 0)
			rc = write_script(dir, name, dat, title, t, err);
		if (rc < 0)
			return rc;
		rc = gnuplot_batch_add(batch, name, GP_HALF_WIDTH,
				       GP_HALF_HEIGHT, err);
		if (rc < 0)
			return rc;
		rc = compare_plots_add(p, config, "kcost", type, name, title);
		if (rc < 0)
			return err_set(err, rc, "out of memory");
	}
	return 0;
}
