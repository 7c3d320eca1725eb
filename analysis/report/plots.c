/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plots.c - the report's plots (see plots.h): data files and gnuplot
 * scripts for NOTPM over time, response-time distributions, vmstat and
 * iostat, rendered with gnuplot.c.
 *
 * Time on every time axis is seconds since the start of the run (t_ms of
 * mix.csv), so the measured window can be marked alike on all of them.
 * vmstat and iostat samples carry wall-clock stamps; they are placed on
 * that axis with meta.json's start time. Without either, they are drawn
 * from the sampler's first sample and the window is not marked (a note
 * says so).
 */
#include "analysis/report/plots.h"
#include "src/base/iso8601.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/common/gnuplot.h"
#include "analysis/parsers/parse_iostat.h"
#include "analysis/parsers/parse_vmstat.h"

#define PLOTS_IOSTAT_DEVICES 8	 /* busiest devices drawn */
#define PLOTS_CKPT_MAX	     200 /* checkpoints drawn on the NOTPM plot */
#define PLOTS_CKPT_COLOR     "#ff7f0e"
#define PLOTS_STEAL_COLOR    "#d62728"
#define PLOTS_BLOCK_COLOR    "#2ca02c"
#define PLOTS_BLOCK_ID	     300  /* first object id of the B blocks */
#define PLOTS_BLOCKS_MAX     2000 /* B blocks shaded */

/* What the drawing functions share. */
struct plot_ctx {
	char dir[PATH_MAX];	       /* run_dir/plots */
	const char *run_dir;	       /* the run directory */
	const struct summary *sum;     /* window, figures */
	const struct ts_series *ts;    /* per-interval series */
	double start_epoch_s;	       /* meta.json start, NAN if unknown */
	const struct hostshare *host;  /* sys/procstat.csv, or NULL */
	const struct blockrun *blocks; /* a block run's blocks, or NULL */
	struct plots_result *out;      /* what was drawn */
	int rc;			       /* first file that could not be
					  written: its negative errno */
	struct err *err;	       /* and its message */
	struct gnuplot_batch batch;    /* the plots to draw, in order */
	struct plot_entry pending[PLOTS_MAX]; /* and what each is */
};

static void note(struct plots_result *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct plots_result *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nnotes >= PLOTS_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(p->notes[p->nnotes], PLOTS_NOTE_LEN, fmt, ap);
	va_end(ap);
	p->nnotes++;
}

double plots_run_start(const json_t *meta)
{
	const json_t *v = json_object_get(meta, "start_unix_s");

	if (json_is_number(v) && json_number_value(v) > 0)
		return json_number_value(v);
	/* files from before start_unix_s: the ISO time, whole seconds */
	return iso8601_parse(json_string_value(json_object_get(meta, "start")));
}

/* Remove what an earlier report drew, so no stale plot survives. */
static void clean_dir(const char *dir)
{
	static const char *const exts[] = {".png", ".svg", ".gp",
					   ".dat", ".tmp", ".log"};
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name), i;

		for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
			size_t k = strlen(exts[i]);

			if (n > k && strcmp(e->d_name + n - k, exts[i]) == 0) {
				unlinkat(dirfd(d), e->d_name, 0);
				break;
			}
		}
	}
	closedir(d);
}

/*
 * Finish a script or data file (whole, or absent on a write error).
 * false when it could not be written: that stops the drawing, as the
 * disk is most likely full and the report's own files would fail next.
 */
static bool close_ok(struct plot_ctx *c, struct atomic_file *af)
{
	int rc = atomic_file_close(af, 0, c->err);

	if (rc < 0 && c->rc == 0)
		c->rc = rc;
	return rc == 0;
}

/*
 * Queue name.gp to be drawn (draw_all), full page width when wide, else
 * half of it (report.html shows it so: gnuplot.h says why the sizes
 * matter).
 */
static void render(struct plot_ctx *c, const char *name, const char *title,
		   enum plot_group group, bool wide)
{
	struct plot_entry *e;
	int rc;

	if (c->rc < 0)
		return;
	if (c->batch.n >= PLOTS_MAX) {
		note(c->out, "plot %s: more than %d plots, left out", name,
		     PLOTS_MAX);
		return;
	}
	rc = gnuplot_batch_add(&c->batch, name, wide ? GP_WIDTH : GP_HALF_WIDTH,
			       wide ? GP_HEIGHT : GP_HALF_HEIGHT, c->err);
	if (rc < 0) {
		c->rc = rc;
		return;
	}
	e = &c->pending[c->batch.n - 1];
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->title, sizeof(e->title), "%s", title);
	e->group = group;
	e->wide = wide;
}

/*
 * Draw the queued plots in one gnuplot and record those drawn. gnuplot
 * failing is a note (the plot is left out); an image that could not be
 * written stops the drawing.
 */
static void draw_all(struct plot_ctx *c)
{
	struct plots_result *p = c->out;
	size_t i;

	gnuplot_batch_draw(&c->batch);
	for (i = 0; i < c->batch.n; i++) {
		const struct gnuplot_job *job = &c->batch.jobs[i];

		if (job->rc == -ENOENT || job->rc == GNUPLOT_EDRAW) {
			note(p, "%s", job->err.msg);
			continue;
		}
		if (job->rc < 0) {
			if (c->rc == 0)
				c->rc = err_set(c->err, job->rc, "%s",
						job->err.msg);
			return;
		}
		p->plots[p->nplots++] = c->pending[i];
	}
}

/*
 * Start writing plots/file through af: its stream, or NULL when it
 * cannot be created or an earlier file failed (c->rc says which).
 */
static FILE *create(struct plot_ctx *c, struct atomic_file *af,
		    const char *file)
{
	int rc;

	if (c->rc < 0)
		return NULL;
	rc = gnuplot_create(af, c->dir, file, c->err);
	if (rc < 0) {
		c->rc = rc;
		return NULL;
	}
	return af->f;
}

/* A number for a data file: empty when unknown. */
static void put(FILE *f, double v, bool last)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	fputc(last ? '\n' : ',', f);
}

/* Mark the measured window on a time axis (seconds since the start). */
static void window_marks(FILE *f, const struct summary *s, double x_end)
{
	double ws = s->start_ms / 1000.0, we = s->end_ms / 1000.0;

	if (ws > 0)
		fprintf(f,
			"set object 1 rectangle from 0, graph 0 to %.3f, "
			"graph 1 fillcolor rgb '#eeeeee' fillstyle solid 1.0 "
			"noborder behind\n"
			"set label 1 'ramp-up' at %.3f, graph 0.97 center "
			"textcolor rgb '#888888'\n",
			ws, ws / 2);
	if (we < x_end)
		fprintf(f,
			"set object 2 rectangle from %.3f, graph 0 to %.3f, "
			"graph 1 fillcolor rgb '#eeeeee' fillstyle solid 1.0 "
			"noborder behind\n",
			we, x_end);
	fprintf(f,
		"set arrow 1 from %.3f, graph 0 to %.3f, graph 1 nohead "
		"dashtype 2 linecolor rgb '#888888'\n"
		"set arrow 2 from %.3f, graph 0 to %.3f, graph 1 nohead "
		"dashtype 2 linecolor rgb '#888888'\n",
		ws, ws, we, we);
}

/*
 * Mark the run's checkpoints on a time axis running to x_end: a band
 * from start to end (clipped to the axis), a line where each starts (a
 * short checkpoint still shows), and its kind written upwards beside
 * that line. Objects, arrows and labels are numbered from 10, after
 * window_marks()'. Returns the number drawn.
 */
static size_t checkpoint_marks(FILE *f, const struct summary *s, double x_end)
{
	size_t i, drawn = 0;

	for (i = 0; i < s->ckpts.n && drawn < PLOTS_CKPT_MAX; i++) {
		const struct ckpt *c = &s->ckpts.items[i];
		double a = c->start_s < 0 ? 0 : c->start_s;
		double b = c->end_s > x_end ? x_end : c->end_s;
		char text[CKPT_KIND_LEN + 16];
		size_t id = 10 + drawn;

		if (a > x_end || b < 0)
			continue;
		if (b > a)
			fprintf(f,
				"set object %zu rectangle from %.3f, graph 0 "
				"to %.3f, graph 1 fillcolor rgb '" PLOTS_CKPT_COLOR
				"' fillstyle transparent "
				"solid 0.18 noborder behind\n",
				id, a, b);
		fprintf(f,
			"set arrow %zu from %.3f, graph 0 to %.3f, graph 1 "
			"nohead linecolor rgb '" PLOTS_CKPT_COLOR "'\n",
			id, a, a);
		snprintf(text, sizeof(text), "checkpoint %s", c->kind);
		fprintf(f, "set label %zu ", id);
		gnuplot_quote(f, text);
		fprintf(f,
			" at %.3f, graph 0.03 left rotate by 90 offset 1,0 "
			"textcolor rgb '#b35300'\n",
			a);
		drawn++;
	}
	return drawn;
}

/*
 * The host's steal share per sample interval, in %, into notpm-steal.dat
 * (the step starts where the interval does). false when there is none.
 */
static bool steal_data(struct plot_ctx *c)
{
	const struct procstat_series *ps;
	struct atomic_file af;
	size_t i;
	FILE *f;

	if (!c->host || !c->host->known || c->host->series.n < 2)
		return false;
	ps = &c->host->series;
	f = create(c, &af, "notpm-steal.dat");
	if (!f)
		return false;
	fputs("t_s,steal_pct\n", f);
	for (i = 1; i < ps->n; i++) {
		struct procstat_shares sh;
		struct err e;

		err_clear(&e);
		if (procstat_shares(&ps->samples[i - 1].cpu,
				    &ps->samples[i].cpu, &sh, &e) < 0)
			continue;
		fprintf(f, "%.3f,%.3f\n", ps->samples[i - 1].t_s,
			100 * sh.share[PROCSTAT_STEAL]);
	}
	return close_ok(c, &af);
}

/* Shade the B blocks of a block run (objects from PLOTS_BLOCK_ID). */
static size_t block_marks(FILE *f, const struct blockrun *b, double x_end)
{
	size_t i, drawn = 0;

	if (!b || !b->present)
		return 0;
	for (i = 0; i < b->n && drawn < PLOTS_BLOCKS_MAX; i++) {
		const struct blocks_block *r = &b->blocks[i].row;
		double a = r->start_s < 0 ? 0 : r->start_s;
		double e = r->end_s > x_end ? x_end : r->end_s;

		if (r->arm != BLOCKS_ARM_B || e <= a)
			continue;
		fprintf(f,
			"set object %zu rectangle from %.3f, graph 0 to %.3f, "
			"graph 1 fillcolor rgb '" PLOTS_BLOCK_COLOR
			"' fillstyle transparent solid 0.12 noborder behind\n",
			PLOTS_BLOCK_ID + drawn, a, e);
		drawn++;
	}
	return drawn;
}

/* The NOTPM plot's caption: what its marks mean. */
static const char *notpm_title(size_t ckpts, size_t bmarks, bool steal)
{
	static char t[256];

	snprintf(t, sizeof(t),
		 "NOTPM over time (ramp-up shaded grey, measured window "
		 "between the dashed lines%s%s%s)",
		 ckpts ? ", server checkpoints in orange" : "",
		 bmarks ? ", the variant's B blocks in green" : "",
		 steal ? ", the host's steal share in red, right axis" : "");
	return t;
}

/* ---- workload ---- */

static void plot_notpm(struct plot_ctx *c)
{
	const struct ts_series *ts = c->ts;
	const struct summary *s = c->sum;
	size_t n = timeseries_count(ts), i;
	double x_end, ws = s->start_ms / 1000.0;
	size_t ckpts, bmarks;
	bool steal;
	struct atomic_file af;
	FILE *f;

	if (n == 0) {
		note(c->out, "plot notpm: no transaction in mix.csv");
		return;
	}
	x_end = timeseries_start_s(ts, n - 1) + timeseries_length_s(ts, n - 1);
	if (x_end < s->end_ms / 1000.0)
		x_end = s->end_ms / 1000.0;
	f = create(c, &af, "notpm.dat");
	if (!f)
		return;
	fputs("t_s,notpm,tpm\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%.3f,%.2f,%.2f\n", timeseries_start_s(ts, i),
			timeseries_notpm(ts, i), timeseries_tpm(ts, i));
	/* repeat the last value at the end so the last step is drawn */
	fprintf(f, "%.3f,%.2f,%.2f\n", x_end, timeseries_notpm(ts, n - 1),
		timeseries_tpm(ts, n - 1));
	if (!close_ok(c, &af))
		return;
	if (s->steady.steady >= 0) {
		/* the fitted line passes through the mean at the middle of
		   the complete intervals */
		double span = (double)s->steady.intervals *
			      SUM_STEADY_INTERVAL_MS / 1000.0;
		double xm = ws + span / 2;
		double k = s->steady.slope_per_min / 60.0;

		f = create(c, &af, "notpm-fit.dat");
		if (!f)
			return;
		fprintf(f, "t_s,notpm\n%.3f,%.3f\n%.3f,%.3f\n", ws,
			s->steady.mean_notpm - k * (xm - ws), ws + span,
			s->steady.mean_notpm + k * (ws + span - xm));
		if (!close_ok(c, &af))
			return;
	}
	steal = steal_data(c);
	f = create(c, &af, "notpm.gp");
	if (!f)
		return;
	gnuplot_preamble(f, "New-Order transactions per minute, per 10 s",
			 "seconds since the start of the run",
			 "transactions per minute");
	fprintf(f, "set xrange [0:%.3f]\nset yrange [0:*]\n", x_end);
	if (steal)
		fprintf(f,
			"set y2label 'steal %% of all CPU time' font ',%d'\n"
			"set y2range [0:*]\nset y2tics\nset ytics nomirror\n",
			GP_FONT_PT);
	bmarks = block_marks(f, c->blocks, x_end);
	window_marks(f, s, x_end);
	ckpts = checkpoint_marks(f, s, x_end);
	if (s->ckpts.n > ckpts)
		note(c->out,
		     "plot notpm: %zu checkpoints, only the first %d are "
		     "marked",
		     s->ckpts.n, PLOTS_CKPT_MAX);
	fputs("plot 'notpm.dat' using 1:2 skip 1 with steps linewidth 2 "
	      "linecolor rgb '#1f77b4' title 'NOTPM', \\\n"
	      "     '' using 1:3 skip 1 with steps linewidth 1 "
	      "linecolor rgb '#aaaaaa' title 'all types'",
	      f);
	if (ckpts)
		fputs(", \\\n     keyentry with boxes fillstyle transparent "
		      "solid 0.18 noborder linecolor rgb '" PLOTS_CKPT_COLOR
		      "' title 'checkpoint'",
		      f);
	if (bmarks)
		fputs(", \\\n     keyentry with boxes fillstyle transparent "
		      "solid 0.12 noborder linecolor rgb '" PLOTS_BLOCK_COLOR
		      "' title 'B blocks (variant applied)'",
		      f);
	if (steal)
		fputs(", \\\n     'notpm-steal.dat' using 1:2 skip 1 axes x1y2 "
		      "with steps linewidth 1 linecolor rgb '" PLOTS_STEAL_COLOR
		      "' title 'host steal %'",
		      f);
	if (s->steady.steady >= 0)
		fprintf(f,
			", \\\n     'notpm-fit.dat' using 1:2 skip 1 "
			"with lines dashtype 2 linewidth 2 linecolor rgb "
			"'#d62728' title 'steady-state fit (%+.2f %%)'",
			s->steady.change_pct);
	fputc('\n', f);
	if (close_ok(c, &af))
		render(c, "notpm", notpm_title(ckpts, bmarks, steal),
		       PLOT_WORKLOAD, true);
}

static void plot_rt(struct plot_ctx *c, enum txn_type t)
{
	const struct sum_type *ty = &c->sum->type[t];
	char name[64], file[80], title[160];
	double bw, p90;
	struct atomic_file af;
	FILE *f;
	int i;

	if (ty->count == 0)
		return;
	snprintf(name, sizeof(name), "rt-%s", txn_type_name(t));
	snprintf(file, sizeof(file), "%s.dat", name);
	f = create(c, &af, file);
	if (!f)
		return;
	bw = (double)ty->dist_limit_us / SUM_DIST_BUCKETS / 1000.0;
	fputs("lo_ms,hi_ms,mid_ms,count\n", f);
	for (i = 0; i < SUM_DIST_BUCKETS; i++)
		fprintf(f, "%.6g,%.6g,%.6g,%llu\n", i * bw, (i + 1) * bw,
			(i + 0.5) * bw, (unsigned long long)ty->dist[i]);
	if (!close_ok(c, &af))
		return;
	p90 = (double)ty->dist_limit_us / 4.0 / 1000.0;
	snprintf(file, sizeof(file), "%s.gp", name);
	f = create(c, &af, file);
	if (!f)
		return;
	snprintf(title, sizeof(title),
		 "%s response time in the window: %llu transactions, "
		 "%llu beyond the range",
		 summary_type_title(t), (unsigned long long)ty->count,
		 (unsigned long long)ty->dist_over);
	gnuplot_preamble(
		f, title,
		t == TXN_DELIVERY
			? "ms from queueing to completion (20 buckets, 0 "
			  "to 4 x p90)"
			: "response time, ms (20 buckets, 0 to 4 x p90)",
		"transactions");
	fprintf(f,
		"set key off\nset boxwidth %.6g absolute\n"
		"set xrange [0:%.6g]\nset yrange [0:*]\n"
		"set arrow 1 from %.6g, graph 0 to %.6g, graph 1 nohead "
		"dashtype 2 linecolor rgb '#d62728'\n"
		"set label 1 'p90 %.3f ms' at %.6g, graph 0.95 offset 0.5,0 "
		"textcolor rgb '#d62728'\n"
		"plot '%s.dat' using 3:4 skip 1 with boxes linecolor rgb "
		"'#1f77b4'\n",
		bw, 4 * p90, p90, p90, p90, p90, name);
	if (!close_ok(c, &af))
		return;
	snprintf(title, sizeof(title), "%s response-time distribution",
		 summary_type_title(t));
	render(c, name, title, PLOT_WORKLOAD, false);
}

/* ---- system ---- */

/* One plot of several curves from one data file. */
struct curve {
	const char *column; /* column name, as in the data file */
	const char *title;  /* key entry */
};

/*
 * Write name.gp: the curves of data (whose header is cols[0..ncols)) that
 * exist, against column 1. Renders it when at least one curve exists.
 */
static void plot_curves(struct plot_ctx *c, const char *name, const char *title,
			const char *ylabel, const char *data,
			const char *const *cols, int ncols,
			const struct curve *curves, int ncurves, bool aligned,
			double x_end, enum plot_group group)
{
	char file[80];
	int i, k, drawn = 0;
	struct atomic_file af;
	FILE *f;

	snprintf(file, sizeof(file), "%s.gp", name);
	f = create(c, &af, file);
	if (!f)
		return;
	gnuplot_preamble(f, title,
			 aligned ? "seconds since the start of the run"
				 : "seconds since the first sample",
			 ylabel);
	fputs("set yrange [0:*]\nset autoscale xfix\n", f);
	if (aligned)
		window_marks(f, c->sum, x_end);
	for (i = 0; i < ncurves; i++) {
		for (k = 0; k < ncols; k++)
			if (strcmp(cols[k], curves[i].column) == 0)
				break;
		if (k == ncols)
			continue;
		fprintf(f,
			"%s '%s' using 1:%d skip 1 with lines linewidth "
			"1.5 title ",
			drawn ? ", \\\n    " : "plot", data, k + 1);
		gnuplot_quote(f, curves[i].title);
		drawn++;
	}
	fputc('\n', f);
	if (!close_ok(c, &af) || drawn == 0)
		return;
	render(c, name, title, group, false);
}

static void plot_vmstat(struct plot_ctx *c)
{
	static const char *const want[] = {"r",	 "b",  "in", "cs", "us", "sy",
					   "id", "wa", "st", "bi", "bo"};
	static const struct curve procs[] = {{"r", "r (runnable)"},
					     {"b", "b (blocked)"}};
	static const struct curve in[] = {{"in", "interrupts/s"}};
	static const struct curve cs[] = {{"cs", "context switches/s"}};
	static const struct curve cpu[] = {{"us", "us"},
					   {"sy", "sy"},
					   {"id", "id"},
					   {"wa", "wa"},
					   {"st", "st"}};
	static const struct curve io[] = {{"bi", "bi (blocks in/s)"},
					  {"bo", "bo (blocks out/s)"}};
	const char *cols[1 + sizeof(want) / sizeof(want[0])];
	int colidx[sizeof(want) / sizeof(want[0])];
	struct vmstat_series vs;
	char path[PATH_MAX];
	struct err err;
	bool aligned;
	double x_end = 0;
	size_t i;
	int ncols = 0, k;
	struct atomic_file af;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/vmstat.txt", c->run_dir);
	if (access(path, F_OK) != 0)
		return;
	err_clear(&err);
	if (parse_vmstat_file(path, &vs, &err) < 0) {
		note(c->out, "sys/vmstat.txt not plotted: %s", err.msg);
		return;
	}
	aligned = vs.has_time && isfinite(c->start_epoch_s);
	if (!aligned)
		note(c->out,
		     "vmstat samples are drawn from the first sample: "
		     "%s, so the window is not marked",
		     vs.has_time ? "meta.json has no start time"
				 : "vmstat.txt has no timestamps");
	else
		c->out->aligned = true;
	f = create(c, &af, "vmstat.dat");
	if (!f) {
		parse_vmstat_free(&vs);
		return;
	}
	cols[ncols++] = "t_s";
	fputs("t_s", f);
	for (k = 0; k < (int)(sizeof(want) / sizeof(want[0])); k++) {
		colidx[k] = parse_vmstat_column(&vs, want[k]);
		if (colidx[k] < 0)
			continue;
		cols[ncols++] = want[k];
		fprintf(f, ",%s", want[k]);
	}
	fputc('\n', f);
	for (i = 0; i < vs.nsamples; i++) {
		double x = aligned ? (double)vs.time_s[i] - c->start_epoch_s
				   : (double)i;

		if (x > x_end)
			x_end = x;
		fprintf(f, "%.3f", x);
		for (k = 0; k < (int)(sizeof(want) / sizeof(want[0])); k++)
			if (colidx[k] >= 0) {
				double v =
					parse_vmstat_value(&vs, i, colidx[k]);

				fputc(',', f);
				if (isfinite(v))
					fprintf(f, "%.6g", v);
			}
		fputc('\n', f);
	}
	parse_vmstat_free(&vs);
	if (!close_ok(c, &af))
		return;
	if (x_end < c->sum->end_ms / 1000.0)
		x_end = c->sum->end_ms / 1000.0;
	plot_curves(c, "vmstat-procs", "vmstat: runnable and blocked tasks",
		    "tasks", "vmstat.dat", cols, ncols, procs, 2, aligned,
		    x_end, PLOT_VMSTAT);
	plot_curves(c, "vmstat-in", "vmstat: interrupts per second",
		    "interrupts/s", "vmstat.dat", cols, ncols, in, 1, aligned,
		    x_end, PLOT_VMSTAT);
	plot_curves(c, "vmstat-cs", "vmstat: context switches per second",
		    "switches/s", "vmstat.dat", cols, ncols, cs, 1, aligned,
		    x_end, PLOT_VMSTAT);
	plot_curves(c, "vmstat-cpu", "vmstat: CPU time split", "% of CPU time",
		    "vmstat.dat", cols, ncols, cpu, 5, aligned, x_end,
		    PLOT_VMSTAT);
	plot_curves(c, "vmstat-io", "vmstat: block I/O", "blocks per second",
		    "vmstat.dat", cols, ncols, io, 2, aligned, x_end,
		    PLOT_VMSTAT);
}

/* A device name made safe as part of a file name. */
static void safe_name(const char *in, char *out, size_t size)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < size; i++) {
		char ch = in[i];

		out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
					 (ch >= '0' && ch <= '9') ||
					 ch == '-' || ch == '.'
				 ? ch
				 : '_';
	}
	out[i] = '\0';
}

/* I/O a device did over the whole file, for ranking. */
static double device_io(const struct iostat_device *d)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < d->nsamples; i++) {
		if (isfinite(d->samples[i].r_s))
			sum += d->samples[i].r_s;
		if (isfinite(d->samples[i].w_s))
			sum += d->samples[i].w_s;
	}
	return sum;
}

/* The iostat plot of one metric: a curve (or two) per device. */
static void plot_iostat_metric(struct plot_ctx *c, const char *name,
			       const char *title, const char *ylabel,
			       char (*files)[96], char (*devs)[64], int ndev,
			       const int *cols, const char *const *suffix,
			       int ncols, bool aligned, double x_end)
{
	char file[80];
	int i, k, drawn = 0;
	struct atomic_file af;
	FILE *f;

	snprintf(file, sizeof(file), "%s.gp", name);
	f = create(c, &af, file);
	if (!f)
		return;
	gnuplot_preamble(f, title,
			 aligned ? "seconds since the start of the run"
				 : "seconds since the first sample",
			 ylabel);
	fputs("set yrange [0:*]\nset autoscale xfix\n", f);
	if (aligned)
		window_marks(f, c->sum, x_end);
	for (i = 0; i < ndev; i++)
		for (k = 0; k < ncols; k++) {
			char t[96];

			snprintf(t, sizeof(t), "%s%s", devs[i], suffix[k]);
			fprintf(f,
				"%s '%s' using 1:%d skip 1 with lines "
				"linewidth 1.5 title ",
				drawn ? ", \\\n    " : "plot", files[i],
				cols[k]);
			gnuplot_quote(f, t);
			drawn++;
		}
	fputc('\n', f);
	if (close_ok(c, &af) && drawn)
		render(c, name, title, PLOT_IOSTAT, false);
}

static void plot_iostat(struct plot_ctx *c)
{
	static const int util_col[] = {5}, await_col[] = {4},
			 iops_col[] = {2, 3};
	static const char *const none[] = {""}, *const rw[] = {" r/s", " w/s"};
	const struct iostat_device *pick[PLOTS_IOSTAT_DEVICES];
	char files[PLOTS_IOSTAT_DEVICES][96], devs[PLOTS_IOSTAT_DEVICES][64];
	struct iostat_data io;
	char path[PATH_MAX];
	struct err err;
	bool aligned;
	double x_end = 0, t0 = NAN;
	size_t i, j;
	int npick = 0, k;

	snprintf(path, sizeof(path), "%s/sys/iostat.json", c->run_dir);
	if (access(path, F_OK) != 0) {
		snprintf(path, sizeof(path), "%s/sys/iostat.txt", c->run_dir);
		if (access(path, F_OK) != 0)
			return;
	}
	err_clear(&err);
	if (parse_iostat_file(path, &io, &err) < 0) {
		note(c->out, "%s not plotted: %s",
		     path + strlen(c->run_dir) + 1, err.msg);
		return;
	}
	aligned = io.has_time && isfinite(c->start_epoch_s);
	if (!aligned)
		note(c->out,
		     "iostat samples are drawn from the first sample: "
		     "%s, so the window is not marked",
		     io.has_time ? "meta.json has no start time"
				 : "iostat has no timestamps");
	/* the busiest devices that did any I/O, busiest first */
	for (i = 0; i < io.ndevices; i++) {
		const struct iostat_device *d = &io.devices[i];
		double v = device_io(d);

		if (!(v > 0))
			continue;
		for (k = npick; k > 0 && device_io(pick[k - 1]) < v; k--)
			if (k < PLOTS_IOSTAT_DEVICES)
				pick[k] = pick[k - 1];
		if (k < PLOTS_IOSTAT_DEVICES) {
			pick[k] = d;
			if (npick < PLOTS_IOSTAT_DEVICES)
				npick++;
		}
	}
	if (npick == 0) {
		note(c->out, "iostat: no device did any I/O");
		parse_iostat_free(&io);
		return;
	}
	if (!aligned)
		for (i = 0; i < io.ndevices; i++)
			if (io.devices[i].nsamples && io.has_time &&
			    (isnan(t0) || io.devices[i].samples[0].time_s < t0))
				t0 = (double)io.devices[i].samples[0].time_s;
	for (k = 0; k < npick; k++) {
		const struct iostat_device *d = pick[k];
		char safe[64];
		struct atomic_file af;
		FILE *f;

		safe_name(d->name, safe, sizeof(safe));
		snprintf(devs[k], sizeof(devs[k]), "%s", d->name);
		snprintf(files[k], sizeof(files[k]), "iostat-%s.dat", safe);
		f = create(c, &af, files[k]);
		if (!f)
			goto out;
		fputs("t_s,r_s,w_s,await_ms,util_pct,r_await_ms,w_await_ms\n",
		      f);
		for (j = 0; j < d->nsamples; j++) {
			const struct iostat_sample *sm = &d->samples[j];
			double x;

			if (aligned)
				x = (double)sm->time_s - c->start_epoch_s;
			else if (!isnan(t0))
				x = (double)sm->time_s - t0;
			else
				x = (double)j;
			if (x > x_end)
				x_end = x;
			fprintf(f, "%.3f,", x);
			put(f, sm->r_s, false);
			put(f, sm->w_s, false);
			put(f, sm->await_ms, false);
			put(f, sm->util_pct, false);
			put(f, sm->r_await_ms, false);
			put(f, sm->w_await_ms, true);
		}
		if (!close_ok(c, &af))
			goto out;
	}
	if (x_end < c->sum->end_ms / 1000.0)
		x_end = c->sum->end_ms / 1000.0;
	plot_iostat_metric(c, "iostat-util", "iostat: device utilisation",
			   "% of time busy", files, devs, npick, util_col, none,
			   1, aligned, x_end);
	plot_iostat_metric(c, "iostat-await",
			   "iostat: mean I/O latency (await)", "ms", files,
			   devs, npick, await_col, none, 1, aligned, x_end);
	plot_iostat_metric(c, "iostat-iops",
			   "iostat: reads and writes per second",
			   "requests per second", files, devs, npick, iops_col,
			   rw, 2, aligned, x_end);
out:
	parse_iostat_free(&io);
}

int plots_make(const char *run_dir, const struct summary *s,
	       const struct ts_series *ts, const json_t *meta,
	       const struct hostshare *host, const struct blockrun *blocks,
	       struct plots_result *out, struct err *err)
{
	struct plot_ctx c;
	int t;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	if (snprintf(c.dir, sizeof(c.dir), "%s/plots", run_dir) >=
	    (int)sizeof(c.dir))
		return err_set(err, -ENAMETOOLONG, "%s/plots: path too long",
			       run_dir);
	c.run_dir = run_dir;
	c.sum = s;
	c.ts = ts;
	c.host = host;
	c.blocks = blocks;
	c.out = out;
	c.err = err;
	c.start_epoch_s = plots_run_start(meta);
	out->gnuplot = gnuplot_available(out->why_not, sizeof(out->why_not));
	if (!out->gnuplot)
		return 0;
	if (mkdir(c.dir, 0755) < 0 && errno != EEXIST)
		return err_set(err, -errno, "%s: %s", c.dir, strerror(errno));
	clean_dir(c.dir);
	gnuplot_batch_init(&c.batch, c.dir);
	/* each does nothing once c.rc is set */
	plot_notpm(&c);
	for (t = 0; t < TXN_NR; t++)
		plot_rt(&c, (enum txn_type)t);
	plot_vmstat(&c);
	plot_iostat(&c);
	if (c.rc == 0)
		draw_all(&c);
	gnuplot_batch_free(&c.batch);
	return c.rc;
}
