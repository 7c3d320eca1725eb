/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot.h - drawing plots with the gnuplot program, for `report` and
 * `compare`.
 *
 * A plot is a script NAME.gp (and whatever data files it reads) in one
 * directory, written by the caller without any terminal or output
 * setting; gnuplot_render() draws NAME.png and NAME.svg from it in one
 * gnuplot process, inside that directory so the script can name
 * its data files without a path. Every file, script, data or image, is
 * written through atomic_file (src/base/atomic_file.h): on a full disk
 * a plot's files are whole or absent, never cut. The scripts and data
 * stay beside the images: anyone can change a script and rerun
 * `gnuplot -e "set terminal svg; set output 'x.svg'" x.gp`. No gnuplot
 * on the PATH is not an error: gnuplot_available() says so and why, and the
 * caller leaves the plots out.
 * Not thread-safe (the probe is cached in static variables; rendering
 * forks).
 */
#ifndef OLTPMARK_ANALYSIS_GNUPLOT_H
#define OLTPMARK_ANALYSIS_GNUPLOT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/base/atomic_file.h"
#include "src/base/err.h"

/*
 * Image sizes and fonts. The pages (html_page.c) are at most 1100 px
 * wide: a full-width figure is shown at about its own size, a half-width
 * one (class "half", two side by side) at about 520 px. Each image is
 * drawn at the size it is shown at, so its text is not scaled down: at
 * GP_FONT_PT (cairo and svg draw 1 pt as 1 px) tics, key and axis labels
 * are as large as the page's own small print, and titles a little
 * larger. A 900 px image with a 9 pt font, shown at half width, had
 * 5 px labels nobody could read.
 */
#define GP_WIDTH       1000	 /* full-width image, pixels */
#define GP_HEIGHT      440	 /* full-width image height, pixels */
#define GP_HALF_WIDTH  540	 /* half-width image, pixels */
#define GP_HALF_HEIGHT 360	 /* half-width image height, pixels */
#define GP_FONT	       "sans,11" /* terminal font: tics, key, labels */
#define GP_FONT_PT     11	 /* that size, for the script's settings */
#define GP_TITLE_PT    13	 /* plot titles */
#define GP_TIMEOUT_S   60	 /* one gnuplot run may take this long */
#define GNUPLOT_EDRAW  (-ECHILD) /* gnuplot_render(): gnuplot itself failed */

/*
 * Whether gnuplot can be run: found on PATH and able to write PNG. When
 * not, why holds a one-line reason (e.g. "gnuplot not found on PATH
 * (Debian package gnuplot-nox)"). The environment variable
 * OLTPMARK_GNUPLOT, when set, names the program instead (tests use it to
 * pretend gnuplot is missing). Probed once per process.
 */
bool gnuplot_available(char *why, size_t why_size);

/*
 * Start writing dir/file through af (atomic_file_open): write to af->f,
 * then atomic_file_close(af, 0, err), whose error names the file and the
 * reason (e.g. ENOSPC). 0, or negative errno with err set; then there is
 * nothing to close.
 */
int gnuplot_create(struct atomic_file *af, const char *dir, const char *file,
		   struct err *err);

/* Write s as a gnuplot string literal in single quotes. */
void gnuplot_quote(FILE *f, const char *s);

/*
 * Write the settings every oltpmark plot shares (grid, key, margins, the
 * data file separator ',' and missing value "", the fonts: GP_FONT_PT for
 * tics, key and axis labels, GP_TITLE_PT for the title) and the title and
 * axis labels (any may be NULL). The fonts are in the script, not only in
 * the terminal gnuplot_render() sets, so a script rerun by hand draws
 * readable text too.
 */
void gnuplot_preamble(FILE *f, const char *title, const char *xlabel,
		      const char *ylabel);

/*
 * Render dir/name.gp to dir/name.png and dir/name.svg, width x height
 * pixels (0: GP_WIDTH x GP_HEIGHT; a half-width figure passes
 * GP_HALF_WIDTH x GP_HALF_HEIGHT), font GP_FONT. gnuplot writes each
 * image to a pipe, and oltpmark copies it into an atomic_file, kept only
 * when gnuplot exited 0 having written something and every byte reached
 * the disk: gnuplot itself exits 0 even when it could not write its
 * output file. Returns
 * 0; -ENOENT when gnuplot is not available; GNUPLOT_EDRAW with gnuplot's
 * first error line in err when gnuplot failed, wrote nothing, or ran
 * longer than GP_TIMEOUT_S (the plot is left out, the caller carries
 * on); any other negative errno when an image could not be written (err
 * names the file and the reason: a full disk stops the caller).
 */
int gnuplot_render(const char *dir, const char *name, int width, int height,
		   struct err *err);

/*
 * Several plots of one directory drawn by one gnuplot process: a
 * gnuplot start (its libraries, cairo's fonts) costs as much as drawing
 * a plot's two images, and a report draws a dozen. Add each plot whose
 * script is written, then draw them all: each job's rc and err are then
 * what gnuplot_render() would have returned for it, in the same files.
 * Each plot is drawn as if alone (gnuplot's reset session between
 * them); when the shared process fails in any way, every plot is drawn
 * alone, so a failing script is named as before and the others are
 * still drawn. Jobs after one whose image could not be written are not
 * drawn (rc -ECANCELED): a caller stops at that one, as at a
 * gnuplot_render() failing so.
 */
struct gnuplot_job {
	char name[160]; /* script dir/name.gp, images name.png, .svg */
	int width;	/* as gnuplot_render() takes them */
	int height;
	int rc;		/* after gnuplot_batch_draw() */
	struct err err; /* its message when rc < 0 */
};

struct gnuplot_batch {
	const char *dir;	  /* the plots' directory */
	struct gnuplot_job *jobs; /* in the order added */
	size_t n, cap;
};

/* An empty batch for dir (kept by pointer: it must outlive the batch). */
void gnuplot_batch_init(struct gnuplot_batch *b, const char *dir);

/* Add plot name (width x height as gnuplot_render() takes them). 0, or
   -ENOMEM or -ENAMETOOLONG with err set. */
int gnuplot_batch_add(struct gnuplot_batch *b, const char *name, int width,
		      int height, struct err *err);

/* Draw every plot added; each job's rc and err say how it went. */
void gnuplot_batch_draw(struct gnuplot_batch *b);

void gnuplot_batch_free(struct gnuplot_batch *b);

#endif
