/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_plots.c - vmstat curves of every label on one plot per
 * configuration and quantity (compare_plots.h).
 *
 * For each configuration, each label's representative run becomes one
 * data file CONFIG-vmstat-N.dat (N: the label's row in the score table;
 * columns x, r, in, cs, us+sy, wa, bi, bo, empty where vmstat lacked the
 * column), and each quantity one script CONFIG-vmstat-KEY.gp that plots
 * column KEY of every data file as a curve named after its label.
 */
#include "analysis/compare/compare_plots.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/common/gnuplot.h"
#include "analysis/compare/compare_kcost_plots.h"

const char *const compare_plots_keys[] = {"r",	"in", "cs", "us+sy",
					  "wa", "bi", "bo", NULL};
const char *const compare_plots_titles[] = {
	"runnable processes (vmstat r)",
	"interrupts per second (vmstat in)",
	"context switches per second (vmstat cs)",
	"CPU busy, user + system % (vmstat us+sy)",
	"I/O wait % (vmstat wa)",
	"blocks read per second (vmstat bi)",
	"blocks written per second (vmstat bo)",
};
/* File-name forms of the keys ("us+sy" is no good in a name). */
static const char *const key_files[] = {"r",  "in", "cs", "cpu",
					"wa", "bi", "bo"};
#define NKEYS 7

void compare_plots_note(struct cplots *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nnotes >= CPLOT_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(p->notes[p->nnotes++], CPLOT_NOTE_LEN, fmt, ap);
	va_end(ap);
}

#define note compare_plots_note

/* A configuration name as a file-name part: [A-Za-z0-9_-], else '_'. */
static void file_part(const char *s, char *out, size_t size)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < size; i++) {
		char c = s[i];

		out[i] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '_')
				 ? c
				 : '_';
	}
	out[i] = '\0';
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Remove the plot files of an earlier compare from dir. */
static void clean_dir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!has_suffix(de->d_name, ".png") &&
		    !has_suffix(de->d_name, ".svg") &&
		    !has_suffix(de->d_name, ".gp") &&
		    !has_suffix(de->d_name, ".dat"))
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

/*
 * Write the data file of one label's representative run. has[k] tells
 * which keys had values. 1 written, 0 no vmstat, -ENOMEM, or the
 * negative errno of creating or writing the file (err names it).
 */
static int write_data(const char *dir, const char *file,
		      const struct runset_run *run, bool has[NKEYS],
		      bool *since_start, struct err *err)
{
	double *x[NKEYS] = {0}, *y[NKEYS] = {0};
	long n[NKEYS], rows = 0, i;
	struct atomic_file af;
	int k, rc = 0;
	FILE *f;

	*since_start = true;
	for (k = 0; k < NKEYS; k++) {
		bool since;

		n[k] = compare_evidence_vmstat_points(
			run, compare_plots_keys[k], &x[k], &y[k], &since);
		if (n[k] < 0) {
			rc = (int)n[k];
			goto out;
		}
		has[k] = n[k] > 0;
		if (n[k] > rows) {
			rows = n[k];
			*since_start = since;
		}
	}
	if (rows == 0)
		goto out;
	rc = gnuplot_create(&af, dir, file, err);
	if (rc < 0)
		goto out;
	f = af.f;
	for (i = 0; i < rows; i++) {
		double xi = NAN;

		for (k = 0; k < NKEYS && isnan(xi); k++)
			if (i < n[k])
				xi = x[k][i];
		fprintf(f, "%.3f", xi);
		for (k = 0; k < NKEYS; k++) {
			if (i < n[k] && isfinite(y[k][i]))
				fprintf(f, ",%.6g", y[k][i]);
			else
				fputc(',', f);
		}
		fputc('\n', f);
	}
	rc = atomic_file_close(&af, 0, err);
	if (rc < 0)
		goto out;
	rc = 1;
out:
	for (k = 0; k < NKEYS; k++) {
		free(x[k]);
		free(y[k]);
	}
	return rc;
}

int compare_plots_add(struct cplots *p, const char *config, const char *key,
		      int type, const char *name, const char *title)
{
	struct cplot *grown =
		realloc(p->plots, (p->nplots + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	p->plots = grown;
	grown += p->nplots++;
	memset(grown, 0, sizeof(*grown));
	grown->config = config;
	grown->key = key;
	grown->type = type;
	snprintf(grown->name, sizeof(grown->name), "%s", name);
	snprintf(grown->title, sizeof(grown->title), "%s", title);
	return 0;
}

bool compare_plots_has(const struct cplots *p, const char *config,
		       const char *key)
{
	size_t i;

	for (i = 0; p && i < p->nplots; i++)
		if (strcmp(p->plots[i].key, key) == 0 &&
		    (!config || strcmp(p->plots[i].config, config) == 0))
			return true;
	return false;
}

/* Add a drawn vmstat plot to the list. */
static int add_plot(struct cplots *p, const char *config, int key,
		    const char *name, const char *config_title)
{
	char title[200];

	snprintf(title, sizeof(title), "%s: %s", config_title,
		 compare_plots_titles[key]);
	return compare_plots_add(p, config, compare_plots_keys[key], -1, name,
				 title);
}

/* The plots of one configuration (column c of the table). */
static int plot_config(const char *dir, const struct runset *rs,
		       const struct score_table *t, const struct cev *ev,
		       size_t c, const char *stem, struct cplots *p,
		       struct gnuplot_batch *batch, struct err *err)
{
	bool has[NKEYS], any[NKEYS] = {0}, *label_has, all_since = true;
	size_t l;
	int k, rc = 0;

	label_has = calloc(t->nlabels * NKEYS + 1, sizeof(*label_has));
	if (!label_has)
		return -ENOMEM;
	for (l = 0; l < t->nlabels; l++) {
		const struct cev_contest *cell =
			compare_evidence_contest_at(ev, l, c);
		char file[200];
		bool since;

		if (cell->rep_run < 0)
			continue;
		snprintf(file, sizeof(file), "%s-vmstat-%zu.dat", stem, l);
		rc = write_data(dir, file, &rs->runs[cell->rep_run], has,
				&since, err);
		if (rc < 0)
			goto out;
		if (rc == 0)
			continue;
		if (!since)
			all_since = false;
		for (k = 0; k < NKEYS; k++) {
			label_has[l * NKEYS + (size_t)k] = has[k];
			any[k] |= has[k];
		}
	}
	rc = 0;
	if (!all_since)
		note(p,
		     "%s: some runs' vmstat has no timestamps or no "
		     "start time: their x is seconds since vmstat's "
		     "first sample",
		     runset_config_title(t->configs[c]));
	for (k = 0; k < NKEYS; k++) {
		char name[128], script[160];
		struct atomic_file af;
		bool first = true;
		FILE *f;

		if (!any[k])
			continue;
		snprintf(name, sizeof(name), "%s-vmstat-%s", stem,
			 key_files[k]);
		snprintf(script, sizeof(script), "%s.gp", name);
		rc = gnuplot_create(&af, dir, script, err);
		if (rc < 0)
			goto out;
		f = af.f;
		{
			char title[200];

			snprintf(title, sizeof(title), "%s: %s",
				 runset_config_title(t->configs[c]),
				 compare_plots_titles[k]);
			gnuplot_preamble(
				f, title,
				all_since ? "seconds since the run's start"
					  : "seconds",
				compare_plots_keys[k]);
		}
		fputs("set yrange [0:*]\nplot", f);
		for (l = 0; l < t->nlabels; l++) {
			if (!label_has[l * NKEYS + (size_t)k])
				continue;
			fprintf(f,
				"%s \\\n  '%s-vmstat-%zu.dat' using 1:%d with lines lw 1.5 title ",
				first ? "" : ",", stem, l, k + 2);
			gnuplot_quote(f, t->labels[l]);
			first = false;
		}
		fputc('\n', f);
		rc = atomic_file_close(&af, 0, err);
		if (rc < 0)
			goto out;
		/* shown two by two (compare_render.c): drawn at that size,
		   with the others (draw_plots) */
		rc = gnuplot_batch_add(batch, name, GP_HALF_WIDTH,
				       GP_HALF_HEIGHT, err);
		if (rc < 0)
			goto out;
		rc = add_plot(p, t->configs[c], k, name,
			      runset_config_title(t->configs[c]));
		if (rc < 0)
			goto out;
	}
out:
	free(label_has);
	return rc;
}

/*
 * Draw batch, whose plots are p's, in order, and keep in p those drawn.
 * gnuplot failing leaves one plot out (a note); an image that could not
 * be written stops: its negative errno, err set.
 */
static int draw_plots(struct gnuplot_batch *batch, struct cplots *p,
		      struct err *err)
{
	size_t i, kept = 0;

	gnuplot_batch_draw(batch);
	for (i = 0; i < batch->n && i < p->nplots; i++) {
		const struct gnuplot_job *job = &batch->jobs[i];

		if (job->rc == -ENOENT || job->rc == GNUPLOT_EDRAW) {
			note(p, "%s not drawn: %s", job->name, job->err.msg);
			continue;
		}
		if (job->rc < 0) {
			p->nplots = kept;
			return err_set(err, job->rc, "%s", job->err.msg);
		}
		p->plots[kept++] = p->plots[i];
	}
	p->nplots = kept;
	return 0;
}

/* Whether any of p's plots is a vmstat one. */
static bool vmstat_plots(const struct cplots *p)
{
	size_t i;

	for (i = 0; i < p->nplots; i++)
		if (p->plots[i].type < 0)
			return true;
	return false;
}

int compare_plots_make(const char *out_dir, const struct runset *rs,
		       const struct score_table *t, const struct cev *ev,
		       struct cplots *out, struct err *err)
{
	char dir[4096], (*stems)[64];
	struct gnuplot_batch batch;
	size_t c, d;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->gnuplot = gnuplot_available(out->why_not, sizeof(out->why_not));
	if (!out->gnuplot)
		return 0;
	snprintf(dir, sizeof(dir), "%s/%s", out_dir, CPLOT_DIR);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return err_set(err, -errno, "%s: %s", dir, strerror(errno));
	clean_dir(dir);
	stems = calloc(t->nconfigs + 1, sizeof(*stems));
	if (!stems)
		return err_set(err, -ENOMEM, "out of memory");
	gnuplot_batch_init(&batch, dir);
	for (c = 0; c < t->nconfigs && rc == 0; c++) {
		file_part(t->configs[c], stems[c], sizeof(stems[c]));
		/* Two configurations that clean to one name stay apart. */
		for (d = 0; d < c; d++)
			if (strcmp(stems[c], stems[d]) == 0) {
				size_t len = strlen(stems[c]);

				snprintf(stems[c] + (len > 40 ? 40 : len),
					 sizeof(stems[c]) - 40, "-%zu", c);
				break;
			}
		rc = plot_config(dir, rs, t, ev, c, stems[c], out, &batch, err);
		if (rc == 0)
			rc = compare_kcost_plots(dir, t, &ev->kcost, c,
						 stems[c], out, &batch, err);
	}
	free(stems);
	/* all in one gnuplot (gnuplot.h says why) */
	if (rc == 0)
		rc = draw_plots(&batch, out, err);
	gnuplot_batch_free(&batch);
	if (rc == -ENOMEM)
		err_set(err, rc, "out of memory");
	if (rc == 0 && !vmstat_plots(out) && !out->why_not[0])
		snprintf(out->why_not, sizeof(out->why_not),
			 "no run with a readable sys/vmstat.txt");
	return rc;
}

void compare_plots_free(struct cplots *p)
{
	if (!p)
		return;
	free(p->plots);
	memset(p, 0, sizeof(*p));
}
