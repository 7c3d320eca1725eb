/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_blockrun.c - libFuzzer target for the report's readers of a block
 * run (analysis/report/blockrun.c, hostshare.c): blocks.csv with the
 * settle time, block length and variant of meta.json's notes, and
 * sys/procstat.csv for each block's steal share. The input, cut at
 * FUZZ_SEP, is meta.json, blocks.csv and sys/procstat.csv (the last two
 * optional), written to the target's private directory, which is then
 * read as report reads a run directory, with New-Order completions once
 * a second counted in, and summary.json's and summary.txt's parts made.
 *
 * Besides the sanitizers it aborts when what the reader keeps breaks
 * blockrun.h: a settle time or block length that is not a number of
 * seconds >= 0, a used block whose window is empty or outside the
 * block's row and the measured window, a steal share outside 0..1.
 */
#include "tests/fuzz/fuzz.h"

#include <jansson.h>
#include <math.h>

#include "analysis/report/blockrun.h"
#include "analysis/report/hostshare.h"
#include "analysis/report/plots.h"

/* The measured window the blocks are read within, run's clock. */
#define FUZZ_WINDOW_START_S 5.0
#define FUZZ_WINDOW_END_S   3600.0

/* Abort unless b keeps what blockrun.h says of it. */
static void check_blocks(const struct blockrun *b, double lo, double hi)
{
	size_t i;

	if (!b->present)
		return;
	if (!(isfinite(b->settle_s) && b->settle_s >= 0) ||
	    !(isnan(b->block_s) || (isfinite(b->block_s) && b->block_s >= 0)))
		abort();
	for (i = 0; i < b->n; i++) {
		const struct blockrun_block *k = &b->blocks[i];

		if ((unsigned int)k->win.use >= BLOCKS_USE_NR)
			abort();
		if (k->win.use != BLOCKS_USE_OK)
			continue;
		if (!(k->win.end_s > k->win.start_s) ||
		    k->win.start_s < k->row.start_s + k->row.switch_s ||
		    k->win.end_s > k->row.end_s || k->win.start_s < lo ||
		    k->win.end_s > hi)
			abort();
		if (!isnan(k->steal) && !(k->steal >= 0 && k->steal <= 1))
			abort();
	}
}

/* Feed one New-Order a second over the blocks' span, as mix.csv would. */
static void add_rows(struct blockrun *b)
{
	struct mixcsv_row row;
	double end;
	int64_t t;

	if (!b->present || b->n == 0)
		return;
	end = b->blocks[b->n - 1].row.end_s;
	if (!(end > 0))
		return;
	memset(&row, 0, sizeof(row));
	row.type = TXN_NEW_ORDER;
	row.status = TXN_STATUS_OK;
	for (t = 0; t < 600 && (double)t < end; t++) {
		row.t_ms = t * 1000;
		blockrun_add(b, &row);
	}
}

/* Make summary.json's and summary.txt's parts, as report does. */
static void write_parts(const struct blockrun *b, const struct hostshare *h)
{
	char *text = NULL;
	size_t len = 0;
	json_t *o;
	FILE *f;

	o = blockrun_json(b);
	json_decref(o);
	o = hostshare_json(h);
	json_decref(o);
	f = open_memstream(&text, &len);
	if (f) {
		hostshare_write_text(h, f);
		blockrun_write_text(b, f);
		fclose(f);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[3];
	struct blockrun b;
	struct hostshare h;
	json_error_t jerr;
	struct err err;
	char why[ERR_MSG_MAX + 64];
	const char *dir = fuzz_tmpdir();
	size_t n = fuzz_split(data, size, parts, 3);
	double start;
	json_t *meta;

	if (!dir || fuzz_subdir("sys") < 0)
		return 0;
	meta = json_loadb((const char *)parts[0].data, parts[0].size,
			  JSON_REJECT_DUPLICATES, &jerr);
	if (!meta)
		return 0;
	if (fuzz_write("blocks.csv", n > 1 ? parts[1].data : NULL,
		       n > 1 ? parts[1].size : 0) < 0 ||
	    fuzz_write("sys/procstat.csv", n > 2 ? parts[2].data : NULL,
		       n > 2 ? parts[2].size : 0) < 0) {
		json_decref(meta);
		return 0;
	}
	start = plots_run_start(meta);
	/* Opened: the end of the window is not known yet. */
	if (blockrun_read(dir, meta, start, FUZZ_WINDOW_START_S, INFINITY, &b,
			  why, sizeof(why), &err) == 0) {
		check_blocks(&b, FUZZ_WINDOW_START_S, INFINITY);
		blockrun_free(&b);
	}
	if (blockrun_read(dir, meta, start, FUZZ_WINDOW_START_S,
			  FUZZ_WINDOW_END_S, &b, why, sizeof(why), &err) == 0) {
		add_rows(&b);
		memset(&h, 0, sizeof(h));
		if (hostshare_read(dir, start, FUZZ_WINDOW_START_S,
				   FUZZ_WINDOW_END_S, &h, why, sizeof(why),
				   &err) == 0) {
			blockrun_finish(&b, &h);
			check_blocks(&b, FUZZ_WINDOW_START_S,
				     FUZZ_WINDOW_END_S);
			write_parts(&b, &h);
			hostshare_free(&h);
		}
		blockrun_free(&b);
	}
	json_decref(meta);
	return 0;
}
