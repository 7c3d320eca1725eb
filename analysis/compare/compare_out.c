/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_out.c - the writers of `oltpmark compare` (compare_out.h).
 *
 * build_doc() lays the comparison out once as a list of blocks (headings,
 * paragraphs, tables, lists, images); render_text(), render_md() and
 * render_html() turn that list into their format. Tables know their
 * column headers, groups (the configuration over its score columns),
 * alignment and gaps, so the text renderer can size columns by the
 * widest cell (counting UTF-8 characters, not bytes: the '±'). CSV and
 * JSON are written from the numbers, without the document.
 */
#include "analysis/compare/compare_out.h"
#include "analysis/common/html_page.h"
#include "analysis/parsers/parse_perflock.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

const char *const compare_out_format_names[] = {"text", "md",	"csv",
						"json", "html", NULL};

const char *compare_out_file_name(enum cout_format fmt)
{
	static const char *const names[COUT_FORMAT_NR] = {
		[COUT_TEXT] = "scores.txt",   [COUT_MD] = "scores.md",
		[COUT_CSV] = "scores.csv",    [COUT_JSON] = "scores.json",
		[COUT_HTML] = "compare.html",
	};

	return (unsigned)fmt < COUT_FORMAT_NR ? names[fmt] : "scores.txt";
}

/* Text tables and paragraphs are kept within this many columns. */
#define TEXT_WIDTH 78

/* ------------------------------------------------------------------ */
/* The document model                                                  */

/* Kinds of block. */
enum blk_kind {
	BLK_HEADING, /* level 1..3 */
	BLK_PARA,    /* a paragraph of running text */
	BLK_TABLE,   /* a table */
	BLK_LIST,    /* items, one line each */
	BLK_IMAGES,  /* plots: items are names, titles their captions */
};

/* A table: headers, optional groups, cells as strings. */
struct tab {
	size_t ncols;  /* columns */
	char **head;   /* header of each column */
	char **group;  /* title of the column's group, NULL for none */
	int *gid;      /* group id of each column, 0 for none */
	bool *right;   /* right-aligned (numbers) */
	int *gap;      /* spaces before the column in text */
	bool *attach;  /* Markdown, HTML: cell goes after the previous
			    column's, with a space (the star) */
	char **cells;  /* nrows * ncols, NULL for empty */
	size_t nrows;  /* rows used */
	size_t cap;    /* rows allocated */
	char *caption; /* a line naming the table, or NULL */
};

/* One block of the document. */
struct blk {
	enum blk_kind kind; /* what it is */
	int level;	    /* heading level */
	char *text;	    /* heading or paragraph text */
	struct tab *tab;    /* BLK_TABLE */
	char **items;	    /* BLK_LIST lines, BLK_IMAGES plot names */
	char **titles;	    /* BLK_IMAGES captions */
	size_t nitems;	    /* entries in items (and titles) */
};

/* The whole document. Out-of-memory is sticky and checked once. */
struct doc {
	struct blk *v; /* blocks */
	size_t n, cap; /* used, allocated */
	bool oom;      /* an allocation failed somewhere */
};

static char *vfmt(struct doc *d, const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0) {
		d->oom = true;
		return NULL;
	}
	return s;
}

static char *fmt(struct doc *d, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

static char *fmt(struct doc *d, const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	s = vfmt(d, f, ap);
	va_end(ap);
	return s;
}

static struct blk *doc_add(struct doc *d, enum blk_kind kind)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 32;
		struct blk *grown = realloc(d->v, cap * sizeof(*grown));

		if (!grown) {
			d->oom = true;
			return NULL;
		}
		d->v = grown;
		d->cap = cap;
	}
	memset(&d->v[d->n], 0, sizeof(d->v[d->n]));
	d->v[d->n].kind = kind;
	return &d->v[d->n++];
}

static void doc_heading(struct doc *d, int level, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

static void doc_heading(struct doc *d, int level, const char *f, ...)
{
	struct blk *b = doc_add(d, BLK_HEADING);
	va_list ap;

	if (!b)
		return;
	b->level = level;
	va_start(ap, f);
	b->text = vfmt(d, f, ap);
	va_end(ap);
}

static void doc_para(struct doc *d, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

static void doc_para(struct doc *d, const char *f, ...)
{
	struct blk *b = doc_add(d, BLK_PARA);
	va_list ap;

	if (!b)
		return;
	va_start(ap, f);
	b->text = vfmt(d, f, ap);
	va_end(ap);
}

/* Start a list (or image) block; items go to the last block. */
static void doc_list(struct doc *d, enum blk_kind kind)
{
	doc_add(d, kind);
}

static void doc_item2(struct doc *d, const char *title, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

static void doc_item2(struct doc *d, const char *title, const char *f, ...)
{
	struct blk *b;
	char **items, **titles;
	va_list ap;

	if (d->oom || d->n == 0)
		return;
	b = &d->v[d->n - 1];
	items = realloc(b->items, (b->nitems + 1) * sizeof(*items));
	if (!items) {
		d->oom = true;
		return;
	}
	b->items = items;
	titles = realloc(b->titles, (b->nitems + 1) * sizeof(*titles));
	if (!titles) {
		d->oom = true;
		return;
	}
	b->titles = titles;
	va_start(ap, f);
	items[b->nitems] = vfmt(d, f, ap);
	va_end(ap);
	titles[b->nitems] = title ? strdup(title) : NULL;
	if (title && !titles[b->nitems])
		d->oom = true;
	b->nitems++;
}

#define doc_item(d, ...) doc_item2(d, NULL, __VA_ARGS__)

/* A new table of ncols columns, added to the document. */
static struct tab *tab_new(struct doc *d, size_t ncols, char *caption)
{
	struct blk *b = doc_add(d, BLK_TABLE);
	struct tab *t;

	if (!b) {
		free(caption);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		d->oom = true;
		free(caption);
		return NULL;
	}
	b->tab = t;
	t->ncols = ncols;
	t->caption = caption;
	t->head = calloc(ncols, sizeof(*t->head));
	t->group = calloc(ncols, sizeof(*t->group));
	t->gid = calloc(ncols, sizeof(*t->gid));
	t->right = calloc(ncols, sizeof(*t->right));
	t->gap = calloc(ncols, sizeof(*t->gap));
	t->attach = calloc(ncols, sizeof(*t->attach));
	if (!t->head || !t->group || !t->gid || !t->right || !t->gap ||
	    !t->attach) {
		d->oom = true;
		return NULL;
	}
	return t;
}

/* Describe column c: header, right alignment, gap before it in text. */
static void tab_col(struct doc *d, struct tab *t, size_t c, const char *head,
		    bool right, int gap)
{
	if (!t)
		return;
	t->head[c] = strdup(head);
	if (!t->head[c])
		d->oom = true;
	t->right[c] = right;
	t->gap[c] = gap;
}

/* Put columns c0 .. c0+n-1 in group id gid titled title. */
static void tab_group(struct doc *d, struct tab *t, size_t c0, size_t n,
		      int gid, const char *title)
{
	size_t c;

	if (!t)
		return;
	for (c = c0; c < c0 + n; c++) {
		t->gid[c] = gid;
		t->group[c] = strdup(title);
		if (!t->group[c])
			d->oom = true;
	}
}

/* Add an empty row; returns its index (or SIZE_MAX when out of memory). */
static size_t tab_row(struct doc *d, struct tab *t)
{
	if (!t || d->oom)
		return SIZE_MAX;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char **grown =
			realloc(t->cells, cap * t->ncols * sizeof(*grown));

		if (!grown) {
			d->oom = true;
			return SIZE_MAX;
		}
		t->cells = grown;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

static void tab_set(struct doc *d, struct tab *t, size_t row, size_t col,
		    const char *f, ...) __attribute__((format(printf, 5, 6)));

static void tab_set(struct doc *d, struct tab *t, size_t row, size_t col,
		    const char *f, ...)
{
	va_list ap;

	if (!t || row == SIZE_MAX || d->oom)
		return;
	va_start(ap, f);
	free(t->cells[row * t->ncols + col]);
	t->cells[row * t->ncols + col] = vfmt(d, f, ap);
	va_end(ap);
}

/* A number with dec decimals, or "-" when unknown. */
static void tab_num(struct doc *d, struct tab *t, size_t row, size_t col,
		    double v, int dec)
{
	if (isfinite(v))
		tab_set(d, t, row, col, "%.*f", dec, v);
	else
		tab_set(d, t, row, col, "-");
}

/* A signed change with dec decimals that never prints "-0.00". */
static void tab_change(struct doc *d, struct tab *t, size_t row, size_t col,
		       double v, int dec)
{
	double scale = pow(10, dec);

	if (!isfinite(v)) {
		tab_set(d, t, row, col, "-");
		return;
	}
	v = round(v * scale) / scale;
	tab_set(d, t, row, col, "%+.*f", dec, v == 0 ? 0.0 : v);
}

static void tab_free(struct tab *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++) {
		if (t->head)
			free(t->head[i]);
		if (t->group)
			free(t->group[i]);
	}
	for (i = 0; t->cells && i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->head);
	free(t->group);
	free(t->gid);
	free(t->right);
	free(t->gap);
	free(t->attach);
	free(t->cells);
	free(t->caption);
	free(t);
}

static void doc_free(struct doc *d)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		struct blk *b = &d->v[i];

		free(b->text);
		tab_free(b->tab);
		for (k = 0; k < b->nitems; k++) {
			free(b->items[k]);
			free(b->titles[k]);
		}
		free(b->items);
		free(b->titles);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------------------------ */
/* Building the document                                               */

/* Row order: the baseline first, then the other labels as sorted. */
static size_t row_label(const struct score_table *t, size_t i)
{
	if (i == 0)
		return t->baseline;
	return i <= t->baseline ? i - 1 : i;
}

/* Columns per configuration in the score table. */
#define SCORE_COLS 5

static void score_table(struct doc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t ncols = 1 + SCORE_COLS * t->nconfigs + 1, c, i;
	struct tab *tab = tab_new(d, ncols, NULL);

	tab_col(d, tab, 0, "Label", false, 0);
	for (c = 0; c < t->nconfigs; c++) {
		size_t k = 1 + SCORE_COLS * c;

		tab_col(d, tab, k, "Score", true, c ? 6 : 2);
		tab_col(d, tab, k + 1, "±95 %", true, 2);
		tab_col(d, tab, k + 2, "", false, 1);
		if (tab)
			tab->attach[k + 2] = true;
		tab_col(d, tab, k + 3, "n", true, 2);
		tab_col(d, tab, k + 4, "CoV %", true, 2);
		tab_group(d, tab, k, SCORE_COLS, (int)c + 1,
			  runset_config_title(t->configs[c]));
	}
	tab_col(d, tab, ncols - 1, "", false, 2);
	for (i = 0; i < t->nlabels; i++) {
		size_t l = row_label(t, i), row = tab_row(d, tab);

		tab_set(d, tab, row, 0, "%s", t->labels[l]);
		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *cell = score_cell(t, l, c);
			const struct score_cell *base =
				score_cell(t, t->baseline, c);
			size_t k = 1 + SCORE_COLS * c;

			if (!cell->has_score) {
				tab_set(d, tab, row, k, "-");
			} else {
				tab_num(d, tab, row, k, cell->score, 2);
				if (cell->has_ci)
					tab_set(d, tab, row, k + 1, "±%.2f",
						cell->half_width);
				else if (l != t->baseline &&
					 (cell->n == 1 || base->n == 1))
					tab_set(d, tab, row, k + 1, "n=1");
				if (cell->significant)
					tab_set(d, tab, row, k + 2, "*");
			}
			if (cell->n)
				tab_set(d, tab, row, k + 3, "%zu", cell->n);
			if (cell->n >= 2)
				tab_num(d, tab, row, k + 4, 100 * cell->cov, 2);
			else if (cell->n == 1)
				tab_set(d, tab, row, k + 4, "-");
		}
		if (l == t->baseline)
			tab_set(d, tab, row, ncols - 1, "(baseline)");
	}
}

static void score_legend(struct doc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t c;

	doc_para(d,
		 "Score: 100 x the geometric mean of %s over a label's runs "
		 "divided by the baseline's. ±: half-width of the 95 %% "
		 "confidence interval of that ratio, in score points (the "
		 "larger side: on the ratio scale the interval is not "
		 "symmetric). n=1: one run on a side, no interval. n: scored "
		 "runs. CoV: their coefficient of variation (sd / mean). "
		 "-: no scored run.",
		 in->metric);
	if (t->ncomparisons == 0)
		doc_para(d, "No label has two or more scored runs in a "
			    "configuration where the baseline has too: no "
			    "intervals, so no '*' (significant) marks.");
	else if (t->holm)
		doc_para(d,
			 "*: significant at 95 %% after Holm's correction over "
			 "the %zu comparisons with an interval (Welch's t-test "
			 "on the logarithms). The intervals are unadjusted.",
			 t->ncomparisons);
	else
		doc_para(d,
			 "*: the interval excludes 100, i.e. the difference is "
			 "significant at 95 %% (Welch's t-test on the "
			 "logarithms). Intervals and stars are unadjusted for "
			 "the %zu comparisons in this table (--holm adjusts "
			 "the stars).",
			 t->ncomparisons);
	for (c = 0; c < t->nconfigs; c++)
		if (score_cell(t, t->baseline, c)->n == 0)
			doc_para(
				d,
				"%s: the baseline %s has no scored run here, so "
				"there are no scores.",
				runset_config_title(t->configs[c]),
				t->labels[t->baseline]);
}

static void contest_tables(struct doc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t c, i;

	doc_heading(d, 2, "Contest table");
	for (c = 0; c < t->nconfigs; c++) {
		struct tab *tab;
		size_t rows = 0;

		for (i = 0; i < t->nlabels; i++)
			rows += compare_evidence_contest_at(in->ev, i, c)
					->runs > 0;
		if (!rows) {
			doc_para(d, "%s: no scored runs.",
				 runset_config_title(t->configs[c]));
			continue;
		}
		tab = tab_new(d, 7,
			      fmt(d, "%s", runset_config_title(t->configs[c])));
		tab_col(d, tab, 0, "Label", false, 0);
		tab_col(d, tab, 1, "Runs", true, 2);
		tab_col(d, tab, 2, "NOTPM", true, 2);
		tab_col(d, tab, 3, "New-Order p90 ms", true, 2);
		tab_col(d, tab, 4, "CPU %", true, 2);
		tab_col(d, tab, 5, "I/O wait %", true, 2);
		tab_col(d, tab, 6, "Ratio", true, 2);
		for (i = 0; i < t->nlabels; i++) {
			size_t l = row_label(t, i), row;
			const struct cev_contest *cc =
				compare_evidence_contest_at(in->ev, l, c);

			if (!cc->runs)
				continue;
			row = tab_row(d, tab);
			tab_set(d, tab, row, 0, "%s", t->labels[l]);
			tab_set(d, tab, row, 1, "%zu", cc->runs);
			tab_num(d, tab, row, 2, cc->notpm, 1);
			tab_num(d, tab, row, 3, cc->no_p90_ms, 2);
			tab_num(d, tab, row, 4, cc->cpu_pct, 1);
			tab_num(d, tab, row, 5, cc->iowait_pct, 1);
			tab_num(d, tab, row, 6, cc->ratio, 2);
		}
	}
	doc_para(d,
		 "Runs: scored runs. NOTPM: their mean. New-Order p90: mean "
		 "of the runs' 90th percentile response times. CPU %%: vmstat "
		 "us+sy, I/O wait %%: vmstat wa, means over each run's "
		 "measured window. Ratio: mean New-Order response time "
		 "relative to the baseline's (below 1: faster).");
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
static void probe_table(struct doc *d, const struct cout_input *in, size_t c)
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
	struct tab *tab;
	size_t i, k;

	tab = tab_new(d, PROBE_COLS,
		      fmt(d, "%s", runset_config_title(t->configs[c])));
	tab_col(d, tab, 0, "Label", false, 0);
	tab_col(d, tab, 1, "Runs", true, 2);
	for (k = 0; k < PCOL_NR; k++) {
		size_t col = 2 + 3 * k;

		tab_col(d, tab, col, figs[k].unit, true, 4);
		tab_col(d, tab, col + 1, "CoV %", true, 2);
		tab_col(d, tab, col + 2, "vs base", true, 2);
		tab_group(d, tab, col, 3, (int)k + 1, figs[k].title);
	}
	for (i = 0; i < t->nlabels; i++) {
		size_t l = row_label(t, i), row;
		const struct cev_contest *cc =
			compare_evidence_contest_at(in->ev, l, c);

		if (!cc->probe_runs)
			continue;
		row = tab_row(d, tab);
		tab_set(d, tab, row, 0, "%s", t->labels[l]);
		tab_set(d, tab, row, 1, "%zu", cc->probe_runs);
		for (k = 0; k < PCOL_NR; k++) {
			struct probe_figure pf =
				probe_figure(cc, (enum probe_col)k);
			size_t col = 2 + 3 * k;

			tab_num(d, tab, row, col, pf.mean, figs[k].dec);
			tab_num(d, tab, row, col + 1, 100 * pf.cov, 1);
			if (l != t->baseline)
				tab_num(d, tab, row, col + 2, pf.vs_base, 1);
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
static void probe_warning(struct doc *d, const struct cout_input *in, size_t l,
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
	doc_para(d,
		 "%s: the host was %.1f %% %s during %s's runs than during "
		 "the baseline's (%s probe%s): score differences of that "
		 "size may be the host's, not the kernel's.",
		 runset_config_title(t->configs[c]), fabs(lead),
		 probe_speed(lead), t->labels[l], cpu_leads ? "CPU" : "memory",
		 also);
}

/* The "Host probe" section: only when some run has a probe. */
static void probe_tables(struct doc *d, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t c, i;

	if (!probe_any(in, SIZE_MAX))
		return;
	doc_heading(d, 2, "Host probe");
	for (c = 0; c < t->nconfigs; c++) {
		if (!probe_any(in, c)) {
			doc_para(d, "%s: no scored run has a host probe.",
				 runset_config_title(t->configs[c]));
			continue;
		}
		probe_table(d, in, c);
		if (!compare_evidence_contest_at(in->ev, t->baseline, c)
			     ->probe_runs)
			doc_para(d,
				 "The baseline %s has no host probe here: no "
				 "comparison.",
				 t->labels[t->baseline]);
		for (i = 0; i < t->nlabels; i++)
			probe_warning(d, in, row_label(t, i), c);
	}
	doc_para(d,
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
static void profile_table(struct doc *d, const char *label,
			  const struct cev_profile *p,
			  const struct cev_profile *base)
{
	bool delta = base && p != base;
	struct tab *tab;
	size_t k;

	tab = tab_new(
		d, delta ? 4 : 2,
		fmt(d, "%s (%zu %s)", label, p->runs, runs_word(p->runs)));
	tab_col(d, tab, 0, "Symbol", false, 2);
	tab_col(d, tab, 1, "%", true, 2);
	if (delta) {
		tab_col(d, tab, 2, "Baseline %", true, 2);
		tab_col(d, tab, 3, "Change pp", true, 2);
	}
	for (k = 0; k < p->nsyms && k < CEV_TOP_SYMBOLS; k++) {
		size_t row = tab_row(d, tab);
		double b;

		tab_set(d, tab, row, 0, "%s", p->syms[k].name);
		tab_num(d, tab, row, 1, p->syms[k].pct, 2);
		if (!delta)
			continue;
		b = compare_evidence_profile_pct(base, p->syms[k].name);
		tab_num(d, tab, row, 2, b, 2);
		tab_change(d, tab, row, 3, p->syms[k].pct - b, 2);
	}
}

static void profile_tables(struct doc *d, const struct cout_input *in)
{
	static const enum cev_source sources[] = {CEV_READPROFILE, CEV_PERF};
	const struct score_table *t = in->t;
	const char *base_label = t->labels[t->baseline];
	size_t c, s, i;

	if (!in->ev->nprofiles)
		return;
	doc_heading(d, 2, "Kernel profiles");
	for (c = 0; c < t->nconfigs; c++) {
		for (s = 0; s < sizeof(sources) / sizeof(sources[0]); s++) {
			const char *cfg = t->configs[c];
			const struct cev_profile *base =
				compare_evidence_profile_find(
					in->ev, base_label, cfg, sources[s]);
			bool any = false;

			for (i = 0; i < t->nlabels; i++)
				any |= compare_evidence_profile_find(
					       in->ev, t->labels[i], cfg,
					       sources[s]) != NULL;
			if (!any)
				continue;
			doc_heading(d, 3, "%s: %s (%s)",
				    runset_config_title(cfg),
				    compare_evidence_source_name(sources[s]),
				    compare_evidence_source_file(sources[s]));
			for (i = 0; i < t->nlabels; i++) {
				size_t l = row_label(t, i);
				const struct cev_profile *p =
					compare_evidence_profile_find(
						in->ev, t->labels[l], cfg,
						sources[s]);

				if (p)
					profile_table(d, t->labels[l], p, base);
			}
			if (!base)
				doc_para(d,
					 "The baseline %s has no %s profile "
					 "here: no changes shown.",
					 base_label,
					 compare_evidence_source_name(
						 sources[s]));
		}
	}
	doc_para(d,
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
static void lock_change(struct doc *d, struct tab *tab, size_t row, size_t col,
			const struct cev_lock *x, const struct cev_lock *b)
{
	if (b && b->contentions > 0)
		tab_change(d, tab, row, col,
			   100 * (x->contentions / b->contentions - 1), 1);
	else if (x->contentions > 0)
		tab_set(d, tab, row, col, "new");
	else
		tab_set(d, tab, row, col, "-");
}

/* The lock table of one label; base is the baseline's (or NULL). */
static void lock_table(struct doc *d, const char *label,
		       const struct cev_locks *lk, const struct cev_locks *base)
{
	bool delta = base && lk != base;
	size_t nc = delta ? 6 : 4, k, shown = 0;
	struct tab *tab;

	if (!lock_rows(lk)) {
		doc_para(d, "%s (%zu %s): no lock was contended.", label,
			 lk->runs, runs_word(lk->runs));
		return;
	}
	tab = tab_new(
		d, nc,
		fmt(d, "%s (%zu %s)", label, lk->runs, runs_word(lk->runs)));
	/* perf lock names the function that waited, not the lock. */
	tab_col(d, tab, 0, lk->source == CEV_PERF_LOCK ? "Caller" : "Lock",
		false, 2);
	tab_col(d, tab, 1, "Contentions", true, 2);
	tab_col(d, tab, 2, "Wait ms", true, 2);
	if (delta) {
		tab_col(d, tab, 3, "Baseline", true, 2);
		tab_col(d, tab, 4, "Change %", true, 2);
	}
	tab_col(d, tab, nc - 1, "", false, 2);
	for (k = 0; k < lk->nlocks; k++) {
		const struct cev_lock *x = &lk->locks[k], *b;
		size_t row;

		if (!lock_shown(x, &shown))
			continue;
		row = tab_row(d, tab);
		tab_set(d, tab, row, 0, "%s", x->name);
		tab_num(d, tab, row, 1, x->contentions, 0);
		tab_num(d, tab, row, 2, x->wait_total_us / 1000, 2);
		if (x->storage)
			tab_set(d, tab, row, nc - 1, "storage");
		if (!delta)
			continue;
		b = compare_evidence_lock_find(base, x->name);
		tab_num(d, tab, row, 3, b ? b->contentions : 0, 0);
		lock_change(d, tab, row, 4, x, b);
	}
}

/*
 * What a perf lock table holds, and the storage callers, from the list
 * the parser decides with (parse_perflock.c).
 */
static void perf_lock_note(struct doc *d)
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
	doc_para(d,
		 "perf lock: a row is a kernel function that waited for a "
		 "lock (perf lock contention's caller, without its offset "
		 "and clone suffixes; the rows of one function added up), "
		 "not a lock class; perf counts no acquisitions. Storage "
		 "callers: names starting with %s.",
		 list);
}

static void lock_tables(struct doc *d, const struct cout_input *in)
{
	static const enum cev_source sources[] = {CEV_LOCK_STAT, CEV_PERF_LOCK};
	bool perf_lock = false;
	const struct score_table *t = in->t;
	const char *base_label = t->labels[t->baseline];
	size_t c, s, i;

	if (!in->ev->nlocks)
		return;
	doc_heading(d, 2, "Lock contention");
	for (c = 0; c < t->nconfigs; c++) {
		for (s = 0; s < sizeof(sources) / sizeof(sources[0]); s++) {
			const char *cfg = t->configs[c];
			const struct cev_locks *base =
				compare_evidence_locks_find(in->ev, base_label,
							    cfg, sources[s]);
			bool any = false;

			for (i = 0; i < t->nlabels; i++)
				any |= compare_evidence_locks_find(
					       in->ev, t->labels[i], cfg,
					       sources[s]) != NULL;
			if (!any)
				continue;
			perf_lock |= sources[s] == CEV_PERF_LOCK;
			doc_heading(d, 3, "%s: %s (%s)",
				    runset_config_title(cfg),
				    compare_evidence_source_name(sources[s]),
				    compare_evidence_source_file(sources[s]));
			for (i = 0; i < t->nlabels; i++) {
				size_t l = row_label(t, i);
				const struct cev_locks *lk =
					compare_evidence_locks_find(
						in->ev, t->labels[l], cfg,
						sources[s]);

				if (lk)
					lock_table(d, t->labels[l], lk, base);
			}
			if (!base)
				doc_para(d,
					 "The baseline %s has no %s data here: "
					 "no changes shown.",
					 base_label,
					 compare_evidence_source_name(
						 sources[s]));
		}
	}
	doc_para(d,
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

static void plots_section(struct doc *d, const struct cout_input *in, bool html)
{
	const struct cplots *p = in->plots;
	size_t i;

	if (!p)
		return;
	doc_heading(d, 2, "Evidence plots");
	if (p->nplots) {
		doc_para(d,
			 "vmstat of each label's representative run (its "
			 "median run by %s), one plot per configuration and "
			 "quantity; x: seconds since the run's start.%s%s",
			 in->metric, html ? "" : " PNG and SVG in ",
			 html ? "" : in->plots_path);
		doc_list(d, BLK_IMAGES);
		for (i = 0; i < p->nplots; i++)
			doc_item2(d, p->plots[i].title, "%s", p->plots[i].name);
	} else {
		doc_para(d, "No plots: %s.", p->why_not);
	}
	if (p->nnotes) {
		doc_list(d, BLK_LIST);
		for (i = 0; i < p->nnotes; i++)
			doc_item(d, "%s", p->notes[i]);
	}
}

static void runs_left_out(struct doc *d, const struct cout_input *in)
{
	const struct runset *rs = in->rs;
	size_t i, n = 0;

	for (i = 0; i < rs->nruns; i++)
		n += rs->runs[i].exclusion != RUNSET_SCORED;
	if (n) {
		doc_heading(d, 2, "Runs not scored");
		doc_list(d, BLK_LIST);
		for (i = 0; i < rs->nruns; i++)
			if (rs->runs[i].exclusion != RUNSET_SCORED)
				doc_item(d, "%s: %s", rs->runs[i].dir,
					 runset_exclusion_reason(
						 rs->runs[i].exclusion));
	}
	if (rs->nbroken) {
		doc_heading(d, 2, "Run directories skipped");
		doc_list(d, BLK_LIST);
		for (i = 0; i < rs->nbroken; i++)
			doc_item(d, "%s: %s", rs->broken[i].dir,
				 rs->broken[i].reason);
	}
	if (rs->nremarks || in->ev->nremarks) {
		doc_heading(d, 2, "Notes");
		doc_list(d, BLK_LIST);
		for (i = 0; i < rs->nremarks; i++)
			doc_item(d, "%s: %s", rs->remarks[i].dir,
				 rs->remarks[i].reason);
		for (i = 0; i < in->ev->nremarks; i++)
			doc_item(d, "%s: %s", in->ev->remarks[i].dir,
				 in->ev->remarks[i].reason);
	}
}

static void build_doc(struct doc *d, const struct cout_input *in, bool html)
{
	const struct score_table *t = in->t;

	doc_heading(d, 1, "oltpmark compare: %s against %s", in->metric,
		    t->labels[t->baseline]);
	doc_para(d, "Baseline: %s (%s).", t->labels[t->baseline],
		 in->baseline_given
			 ? "--baseline"
			 : "the label whose first run started first");
	score_table(d, in);
	score_legend(d, in);
	contest_tables(d, in);
	probe_tables(d, in);
	profile_tables(d, in);
	lock_tables(d, in);
	plots_section(d, in, html);
	runs_left_out(d, in);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

/* Characters (not bytes) of a UTF-8 string. */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* One output line, trimmed of trailing blanks when put out. */
struct line {
	char *buf;  /* text */
	size_t len; /* bytes used */
	size_t cap; /* bytes allocated */
	bool oom;   /* an append failed */
};

static void line_add(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		size_t cap = (l->len + n + 1) * 2;
		char *grown = realloc(l->buf, cap);

		if (!grown) {
			l->oom = true;
			return;
		}
		l->buf = grown;
		l->cap = cap;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static void line_pad(struct line *l, size_t n)
{
	while (n--)
		line_add(l, " ", 1);
}

/* s in a field of w characters. */
static void line_cell(struct line *l, const char *s, size_t w, bool right)
{
	size_t sw = width(s);

	if (right)
		line_pad(l, w > sw ? w - sw : 0);
	if (s)
		line_add(l, s, strlen(s));
	if (!right)
		line_pad(l, w > sw ? w - sw : 0);
}

static void line_put(struct line *l, FILE *f)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	if (l->len)
		fwrite(l->buf, 1, l->len, f);
	fputc('\n', f);
	l->len = 0;
	if (l->buf)
		l->buf[0] = '\0';
}

/* Words of text, wrapped at TEXT_WIDTH, each line starting with indent. */
static void text_wrap(FILE *f, const char *text, const char *indent,
		      const char *first_indent)
{
	const char *p = text, *lead = first_indent;
	size_t col = 0;

	while (*p) {
		const char *w = p;
		size_t n, ww;

		while (*p && *p != ' ')
			p++;
		n = (size_t)(p - w);
		ww = 0;
		for (size_t i = 0; i < n; i++)
			ww += ((unsigned char)w[i] & 0xC0) != 0x80;
		if (col && col + 1 + ww > TEXT_WIDTH) {
			fputc('\n', f);
			col = 0;
			lead = indent;
		}
		if (col == 0) {
			fputs(lead, f);
			col = width(lead);
		} else {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, n, f);
		col += ww;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void text_table(FILE *f, const struct tab *t, bool *oom)
{
	size_t *w, c, r;
	struct line l = {0};

	w = calloc(t->ncols, sizeof(*w));
	if (!w) {
		*oom = true;
		return;
	}
	for (c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (r = 0; r < t->nrows; r++)
			if (width(t->cells[r * t->ncols + c]) > w[c])
				w[c] = width(t->cells[r * t->ncols + c]);
	}
	/* A group title wider than its columns widens the first column. */
	for (c = 0; c < t->ncols; c++) {
		size_t end = c, span = 0;

		if (!t->gid[c] || (c && t->gid[c - 1] == t->gid[c]))
			continue;
		while (end < t->ncols && t->gid[end] == t->gid[c]) {
			span += w[end] + (end > c ? (size_t)t->gap[end] : 0);
			end++;
		}
		if (width(t->group[c]) > span)
			w[c] += width(t->group[c]) - span;
	}
	if (t->caption) {
		fputs(t->caption, f);
		fputc('\n', f);
	}
	/* Group titles, left-aligned over their first column. */
	for (c = 0; c < t->ncols; c++)
		if (t->gid[c])
			break;
	if (c < t->ncols) {
		for (c = 0; c < t->ncols; c++) {
			line_pad(&l, (size_t)t->gap[c]);
			if (t->gid[c] && (!c || t->gid[c - 1] != t->gid[c])) {
				size_t end = c, span = 0;

				while (end < t->ncols &&
				       t->gid[end] == t->gid[c]) {
					span += w[end] +
						(end > c ? (size_t)t->gap[end]
							 : 0);
					end++;
				}
				line_cell(&l, t->group[c], span, false);
				c = end - 1;
			} else {
				line_pad(&l, w[c]);
			}
		}
		line_put(&l, f);
	}
	for (c = 0; c < t->ncols; c++) {
		line_pad(&l, (size_t)t->gap[c]);
		line_cell(&l, t->head[c], w[c], t->right[c]);
	}
	line_put(&l, f);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			line_pad(&l, (size_t)t->gap[c]);
			line_cell(&l, t->cells[r * t->ncols + c], w[c],
				  t->right[c]);
		}
		line_put(&l, f);
	}
	if (l.oom)
		*oom = true;
	free(l.buf);
	free(w);
}

static void render_text(FILE *f, const struct doc *d, bool *oom)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		const struct blk *b = &d->v[i];

		switch (b->kind) {
		case BLK_HEADING:
			if (i)
				fputc('\n', f);
			fprintf(f, "%s\n", b->text);
			if (b->level <= 2) {
				for (k = width(b->text); k; k--)
					fputc(b->level == 1 ? '=' : '-', f);
				fputc('\n', f);
			}
			break;
		case BLK_PARA:
			if (i && d->v[i - 1].kind != BLK_HEADING)
				fputc('\n', f);
			text_wrap(f, b->text, "", "");
			break;
		case BLK_TABLE:
			if (i && d->v[i - 1].kind != BLK_HEADING)
				fputc('\n', f);
			text_table(f, b->tab, oom);
			break;
		case BLK_LIST:
			for (k = 0; k < b->nitems; k++)
				text_wrap(f, b->items[k], "    ", "  ");
			break;
		case BLK_IMAGES:
			for (k = 0; k < b->nitems; k++)
				fprintf(f, "  %s.png  %s\n", b->items[k],
					b->titles[k]);
			break;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Markdown                                                            */

static void md_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* A cell with the attached cells after it (Markdown and HTML). */
static void cell_joined(FILE *f, const struct tab *t, size_t r, size_t c,
			void (*escape)(FILE *, const char *))
{
	size_t k;

	escape(f, t->cells[r * t->ncols + c]);
	for (k = c + 1; k < t->ncols && t->attach[k]; k++)
		if (t->cells[r * t->ncols + k]) {
			fputc(' ', f);
			escape(f, t->cells[r * t->ncols + k]);
		}
}

static void md_table(FILE *f, const struct tab *t)
{
	size_t c, r;

	if (t->caption) {
		fputs("**", f);
		md_escape(f, t->caption);
		fputs("**\n\n", f);
	}
	fputc('|', f);
	for (c = 0; c < t->ncols; c++) {
		if (t->attach[c])
			continue;
		fputc(' ', f);
		if (t->gid[c] && (!c || t->gid[c - 1] != t->gid[c])) {
			md_escape(f, t->group[c]);
			if (t->head[c][0])
				fputc(' ', f);
		}
		md_escape(f, t->head[c]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (c = 0; c < t->ncols; c++)
		if (!t->attach[c])
			fputs(t->right[c] ? "---:|" : "---|", f);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			if (t->attach[c])
				continue;
			fputc(' ', f);
			cell_joined(f, t, r, c, md_escape);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void render_md(FILE *f, const struct doc *d)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		const struct blk *b = &d->v[i];

		switch (b->kind) {
		case BLK_HEADING:
			fprintf(f, "%.*s ", b->level, "###");
			md_escape(f, b->text);
			fputs("\n\n", f);
			break;
		case BLK_PARA:
			md_escape(f, b->text);
			fputs("\n\n", f);
			break;
		case BLK_TABLE:
			md_table(f, b->tab);
			break;
		case BLK_LIST:
			for (k = 0; k < b->nitems; k++) {
				fputs("- ", f);
				md_escape(f, b->items[k]);
				fputc('\n', f);
			}
			fputc('\n', f);
			break;
		case BLK_IMAGES:
			for (k = 0; k < b->nitems; k++) {
				fputs("![", f);
				md_escape(f, b->titles[k]);
				fprintf(f, "](" CPLOT_DIR "/%s.png)\n\n",
					b->items[k]);
			}
			break;
		}
	}
}

/* ------------------------------------------------------------------ */
/* HTML                                                                */

static void html_table(FILE *f, const struct tab *t)
{
	size_t c, r;

	fputs("<table>\n", f);
	if (t->caption) {
		fputs("<caption>", f);
		html_page_escape(f, t->caption);
		fputs("</caption>\n", f);
	}
	fputs("<thead>\n", f);
	for (c = 0; c < t->ncols && !t->gid[c]; c++)
		;
	if (c < t->ncols) {
		fputs("<tr>", f);
		for (c = 0; c < t->ncols; c++) {
			size_t end = c;

			if (!t->gid[c]) {
				fputs("<th></th>", f);
				continue;
			}
			size_t span = 0;

			while (end < t->ncols && t->gid[end] == t->gid[c])
				span += !t->attach[end++];
			fprintf(f, "<th colspan=\"%zu\" class=\"group\">",
				span);
			html_page_escape(f, t->group[c]);
			fputs("</th>", f);
			c = end - 1;
		}
		fputs("</tr>\n", f);
	}
	fputs("<tr>", f);
	for (c = 0; c < t->ncols; c++) {
		if (t->attach[c])
			continue;
		fputs(t->right[c] ? "<th class=\"n\">" : "<th>", f);
		html_page_escape(f, t->head[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n</thead>\n<tbody>\n", f);
	for (r = 0; r < t->nrows; r++) {
		fputs("<tr>", f);
		for (c = 0; c < t->ncols; c++) {
			if (t->attach[c])
				continue;
			fputs(t->right[c] ? "<td class=\"n\">" : "<td>", f);
			cell_joined(f, t, r, c, html_page_escape);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

static void render_html(FILE *f, const struct doc *d)
{
	size_t i, k;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>",
	      f);
	if (d->n && d->v[0].kind == BLK_HEADING)
		html_page_escape(f, d->v[0].text);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
	      "table { border-collapse: collapse; margin: 0.6em 0 1.2em; }\n"
	      "caption { text-align: left; font-weight: bold; "
	      "padding: 0.2em 0; }\n"
	      "th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; "
	      "}\n"
	      "th { background: #f3f3f3; text-align: left; }\n"
	      "th.group { text-align: center; border-left: 2px solid #bbb; }\n"
	      ".n { text-align: right; font-variant-numeric: tabular-nums; "
	      "}\n"
	      "figure { display: inline-block; margin: 0.5em; }\n"
	      "figure img { max-width: 100%; border: 1px solid #ddd; }\n"
	      "li { font-family: monospace; }\n"
	      "</style>\n</head>\n<body>\n",
	      f);
	for (i = 0; i < d->n; i++) {
		const struct blk *b = &d->v[i];

		switch (b->kind) {
		case BLK_HEADING:
			fprintf(f, "<h%d>", b->level);
			html_page_escape(f, b->text);
			fprintf(f, "</h%d>\n", b->level);
			break;
		case BLK_PARA:
			fputs("<p>", f);
			html_page_escape(f, b->text);
			fputs("</p>\n", f);
			break;
		case BLK_TABLE:
			html_table(f, b->tab);
			break;
		case BLK_LIST:
			fputs("<ul>\n", f);
			for (k = 0; k < b->nitems; k++) {
				fputs("<li>", f);
				html_page_escape(f, b->items[k]);
				fputs("</li>\n", f);
			}
			fputs("</ul>\n", f);
			break;
		case BLK_IMAGES:
			for (k = 0; k < b->nitems; k++) {
				fputs("<figure><a href=\"" CPLOT_DIR "/", f);
				html_page_escape(f, b->items[k]);
				fputs(".svg\"><img src=\"" CPLOT_DIR "/", f);
				html_page_escape(f, b->items[k]);
				fputs(".png\" alt=\"", f);
				html_page_escape(f, b->titles[k]);
				fputs("\"></a><figcaption>", f);
				html_page_escape(f, b->titles[k]);
				fputs("</figcaption></figure>\n", f);
			}
			break;
		}
	}
	fputs("</body>\n</html>\n", f);
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */

static void csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ",value" with enough digits to round-trip what we print, or ",". */
static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

static void write_csv(FILE *f, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t i, c;

	fputs("label,config,baseline,runs,runs_not_scored,mean,geomean,sd,"
	      "cov_pct,score,ci95_lo,ci95_hi,half_width,df,t,p,p_holm,"
	      "significant,notpm,new_order_p90_ms,new_order_mean_ms,cpu_pct,"
	      "iowait_pct,ratio,host_cpu_ns,host_cpu_cov_pct,host_mem_ns,"
	      "host_mem_cov_pct,host_fsync_ms,host_fsync_cov_pct\n",
	      f);
	for (i = 0; i < t->nlabels; i++) {
		size_t l = row_label(t, i);

		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *s = score_cell(t, l, c);
			const struct cev_contest *cc =
				compare_evidence_contest_at(in->ev, l, c);

			csv_str(f, t->labels[l]);
			fputc(',', f);
			csv_str(f, t->configs[c]);
			fprintf(f, ",%d,%zu,%zu", l == t->baseline, s->n,
				s->n_excluded);
			csv_num(f, s->mean);
			csv_num(f, s->gmean);
			csv_num(f, s->sd);
			csv_num(f, 100 * s->cov);
			csv_num(f, s->score);
			csv_num(f, s->ci_lo);
			csv_num(f, s->ci_hi);
			csv_num(f, s->half_width);
			csv_num(f, s->df);
			csv_num(f, s->t);
			csv_num(f, s->p);
			csv_num(f, s->p_holm);
			fprintf(f, ",%d", s->significant);
			csv_num(f, cc->notpm);
			csv_num(f, cc->no_p90_ms);
			csv_num(f, cc->no_mean_ms);
			csv_num(f, cc->cpu_pct);
			csv_num(f, cc->iowait_pct);
			csv_num(f, cc->ratio);
			csv_num(f, cc->host_cpu_ns);
			csv_num(f, 100 * cc->host_cpu_cov);
			csv_num(f, cc->host_mem_ns);
			csv_num(f, 100 * cc->host_mem_cov);
			csv_num(f, cc->host_fsync_ms);
			csv_num(f, 100 * cc->host_fsync_cov);
			fputc('\n', f);
		}
	}
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

/* A number, or null when unknown (JSON has no NaN). */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

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
			jset(o, "mean", jnum(s->mean), oom);
			jset(o, "geomean", jnum(s->gmean), oom);
			jset(o, "sd", jnum(s->sd), oom);
			jset(o, "cov_pct", jnum(100 * s->cov), oom);
			jset(o, "score",
			     s->has_score ? jnum(s->score) : json_null(), oom);
			if (s->has_ci) {
				ci = json_object();
				if (ci) {
					jset(ci, "lo", jnum(s->ci_lo), oom);
					jset(ci, "hi", jnum(s->ci_hi), oom);
				}
			}
			jset(o, "ci95", ci ? ci : json_null(), oom);
			jset(o, "half_width", jnum(s->half_width), oom);
			jset(o, "diff_log", jnum(s->diff_log), oom);
			jset(o, "se_log", jnum(s->se_log), oom);
			jset(o, "df", jnum(s->df), oom);
			jset(o, "t", jnum(s->t), oom);
			jset(o, "t_crit", jnum(s->t_crit), oom);
			jset(o, "p", jnum(s->p), oom);
			jset(o, "p_holm", jnum(s->p_holm), oom);
			jset(o, "significant", json_boolean(s->significant),
			     oom);
			jpush(arr, o, oom);
		}
	return arr;
}

/* The host probe figures of a contest cell, added to o. */
static void json_contest_probe(json_t *o, const struct cev_contest *cc,
			       bool *oom)
{
	jset(o, "probe_runs", json_integer((json_int_t)cc->probe_runs), oom);
	jset(o, "host_cpu_ns", jnum(cc->host_cpu_ns), oom);
	jset(o, "host_cpu_cov_pct", jnum(100 * cc->host_cpu_cov), oom);
	jset(o, "host_cpu_vs_base", jnum(cc->host_cpu_vs_base), oom);
	jset(o, "host_mem_ns", jnum(cc->host_mem_ns), oom);
	jset(o, "host_mem_cov_pct", jnum(100 * cc->host_mem_cov), oom);
	jset(o, "host_mem_vs_base", jnum(cc->host_mem_vs_base), oom);
	jset(o, "host_fsync_ms", jnum(cc->host_fsync_ms), oom);
	jset(o, "host_fsync_cov_pct", jnum(100 * cc->host_fsync_cov), oom);
	jset(o, "host_fsync_vs_base", jnum(cc->host_fsync_vs_base), oom);
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
			jset(o, "notpm", jnum(cc->notpm), oom);
			jset(o, "new_order_p90_ms", jnum(cc->no_p90_ms), oom);
			jset(o, "new_order_mean_ms", jnum(cc->no_mean_ms), oom);
			jset(o, "cpu_pct", jnum(cc->cpu_pct), oom);
			jset(o, "iowait_pct", jnum(cc->iowait_pct), oom);
			jset(o, "vmstat_runs",
			     json_integer((json_int_t)cc->vmstat_runs), oom);
			jset(o, "ratio", jnum(cc->ratio), oom);
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
			jset(s, "pct", jnum(p->syms[k].pct), oom);
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
			jset(s, "contentions", jnum(x->contentions), oom);
			jset(s, "wait_total_us", jnum(x->wait_total_us), oom);
			jset(s, "acquisitions", jnum(x->acquisitions), oom);
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
		jset(o, "metric", jnum(run->metric), oom);
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

static int write_json(FILE *f, const struct cout_input *in, struct err *err)
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
	jset(root, "format", json_string(COUT_JSON_FORMAT), &oom);
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
	jset(root, "scores", json_scores(in, &oom), &oom);
	jset(root, "contest", json_contest(in, &oom), &oom);
	jset(root, "profiles", json_profiles(in, &oom), &oom);
	jset(root, "locks", json_locks(in, &oom), &oom);
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

/* ------------------------------------------------------------------ */

int compare_out_write(FILE *f, enum cout_format fmt_id,
		      const struct cout_input *in, struct err *err)
{
	struct doc d = {0};
	bool oom = false;
	int rc = 0;

	switch (fmt_id) {
	case COUT_CSV:
		write_csv(f, in);
		break;
	case COUT_JSON:
		rc = write_json(f, in, err);
		break;
	case COUT_TEXT:
	case COUT_MD:
	case COUT_HTML:
	default:
		build_doc(&d, in, fmt_id == COUT_HTML);
		if (d.oom) {
			rc = err_set(err, -ENOMEM, "out of memory");
			break;
		}
		if (fmt_id == COUT_MD)
			render_md(f, &d);
		else if (fmt_id == COUT_HTML)
			render_html(f, &d);
		else
			render_text(f, &d, &oom);
		if (oom)
			rc = err_set(err, -ENOMEM, "out of memory");
		break;
	}
	doc_free(&d);
	if (rc == 0 && (fflush(f) != 0 || ferror(f)))
		rc = err_set(err, -EIO, "write failed: %s", strerror(errno));
	return rc;
}
