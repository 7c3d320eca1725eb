/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blockrun.c - the per-block figures of a block run (see blockrun.h).
 * The windows come from blocks_schedule_windows(); here they are only
 * clipped to the run's measured window, since the runner starts its
 * first block at the nominal end of the ramp-up, which the run's own
 * start-up (connecting the terminals) may put a moment early.
 */
#include "analysis/report/blockrun.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/resfile.h"

/*
 * A number of seconds >= 0 in meta.json's notes, kept there as a string
 * (run/oltpmark-run writes strings) or a number; NAN when absent or
 * anything else. A number is checked as a string is: a negative settle
 * time would make blocks_schedule_windows() refuse the schedule, and
 * every block would be left without a window.
 */
static double note_number(const json_t *meta, const char *key)
{
	const json_t *v = json_object_get(json_object_get(meta, "notes"), key);
	char *end;
	double x;

	if (json_is_number(v)) {
		x = json_number_value(v);
	} else if (json_is_string(v)) {
		x = strtod(json_string_value(v), &end);
		if (end == json_string_value(v) || *end != '\0')
			return NAN;
	} else {
		return NAN;
	}
	return isfinite(x) && x >= 0 ? x : NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Clip the used windows to [lo, hi); a window cut below half the median
 * of the used windows before clipping becomes short, one cut away
 * empty. The median is taken before the cut, as the schedule's own
 * "short" rule does, so one clipped block cannot move it.
 */
static int clip_windows(struct blockrun *b, double lo, double hi)
{
	double *len, median;
	size_t i, m = 0;

	len = malloc((b->n ? b->n : 1) * sizeof(*len));
	if (!len)
		return -ENOMEM;
	for (i = 0; i < b->n; i++)
		if (b->blocks[i].win.use == BLOCKS_USE_OK)
			len[m++] = b->blocks[i].win.end_s -
				   b->blocks[i].win.start_s;
	qsort(len, m, sizeof(*len), cmp_double);
	median = m ? (m % 2 ? len[m / 2] : (len[m / 2 - 1] + len[m / 2]) / 2)
		   : 0;
	free(len);
	for (i = 0; i < b->n; i++) {
		struct blocks_window *w = &b->blocks[i].win;

		if (w->use != BLOCKS_USE_OK)
			continue;
		if (w->start_s < lo)
			w->start_s = lo;
		if (w->end_s > hi)
			w->end_s = hi;
		if (w->end_s <= w->start_s)
			w->use = BLOCKS_USE_EMPTY;
		else if (w->end_s - w->start_s < median / 2)
			w->use = BLOCKS_USE_SHORT;
	}
	return 0;
}

int blockrun_read(const char *run_dir, const json_t *meta, double start_epoch_s,
		  double window_start_s, double window_end_s,
		  struct blockrun *out, char *why, size_t why_size,
		  struct err *err)
{
	static const char name[] = "blocks.csv";
	const char *variant =
		resfile_get_string(json_object_get(meta, "notes"), "variant");
	struct blocks_schedule s = {0};
	struct blocks_window *w = NULL;
	char path[PATH_MAX];
	struct err perr;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	why[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", run_dir, name) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s/%s: path too long",
			       run_dir, name);
	err_clear(&perr);
	rc = blocks_schedule_parse_file(path, name, &s, &perr);
	if (rc == -ENOENT)
		return 0;
	if (rc == -ENOMEM)
		return err_set(err, rc, "%s", perr.msg);
	if (rc < 0) {
		snprintf(why, why_size, "%s: no block scores", perr.msg);
		return 0;
	}
	if (!isfinite(start_epoch_s)) {
		snprintf(why, why_size,
			 "%s not used: meta.json has no start time to place "
			 "the blocks on the run's clock",
			 name);
		blocks_schedule_free(&s);
		return 0;
	}
	out->block_s = note_number(meta, "block_s");
	out->settle_s = note_number(meta, "settle_s");
	if (isnan(out->settle_s)) {
		out->settle_s = 0;
		snprintf(why, why_size,
			 "meta.json notes no settle_s (seconds >= 0): the "
			 "blocks are measured from the end of their switch");
	}
	snprintf(out->variant, sizeof(out->variant), "%s",
		 variant ? variant : "");
	blocks_schedule_place(&s, start_epoch_s);
	out->blocks = calloc(s.n, sizeof(*out->blocks));
	w = calloc(s.n, sizeof(*w));
	if (!out->blocks || !w) {
		rc = err_set(err, -ENOMEM, "%s: out of memory", name);
		goto out;
	}
	blocks_schedule_windows(&s, out->settle_s, w, &perr);
	out->n = s.n;
	for (i = 0; i < s.n; i++) {
		out->blocks[i].row = s.items[i];
		out->blocks[i].win = w[i];
		out->blocks[i].notpm = NAN;
		out->blocks[i].steal = NAN;
	}
	rc = clip_windows(out, window_start_s, window_end_s);
	if (rc < 0) {
		rc = err_set(err, rc, "%s: out of memory", name);
		goto out;
	}
	out->present = true;
out:
	free(w);
	blocks_schedule_free(&s);
	if (rc < 0)
		blockrun_free(out);
	return rc;
}

void blockrun_add(struct blockrun *b, const struct mixcsv_row *row)
{
	double t = (double)row->t_ms / 1000.0;
	size_t lo = 0, hi = b->n;

	if (!b->present || row->type != TXN_NEW_ORDER ||
	    row->status == TXN_STATUS_ERROR)
		return;
	/* blocks are in time order: the last whose window starts <= t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->blocks[mid].win.start_s <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return;
	if (t < b->blocks[lo - 1].win.end_s)
		b->blocks[lo - 1].new_orders++;
}

void blockrun_finish(struct blockrun *b, const struct hostshare *h)
{
	size_t i;

	b->used = 0;
	b->steal_known = h->known;
	for (i = 0; i < b->n; i++) {
		struct blockrun_block *k = &b->blocks[i];
		struct procstat_shares sh;
		struct err e;
		double len = k->win.end_s - k->win.start_s;

		if (k->win.use != BLOCKS_USE_OK)
			continue;
		b->used++;
		k->notpm = (double)k->new_orders * 60.0 / len;
		err_clear(&e);
		if (h->known &&
		    parse_procstat_window(&h->series, k->win.start_s,
					  k->win.end_s, &sh, &e) == 0)
			k->steal = sh.share[PROCSTAT_STEAL];
		else
			b->steal_known = false;
	}
}

json_t *blockrun_json(const struct blockrun *b)
{
	struct blockrun_switch_loss loss;
	json_t *o, *items;
	size_t i;

	if (!b->present)
		return NULL;
	o = json_object();
	items = json_array();
	if (!o || !items) {
		json_decref(o);
		json_decref(items);
		return NULL;
	}
	json_object_set_new(o, "variant", json_string(b->variant));
	json_object_set_new(o, "block_s", resfile_real(b->block_s, 3));
	json_object_set_new(o, "settle_s", resfile_real(b->settle_s, 3));
	json_object_set_new(o, "blocks", json_integer((json_int_t)b->n));
	json_object_set_new(o, "used", json_integer((json_int_t)b->used));
	json_object_set_new(o, "steal_known", json_boolean(b->steal_known));
	blockrun_switch_loss(b, &loss);
	json_object_set_new(o, "switched",
			    json_integer((json_int_t)loss.switched));
	json_object_set_new(o, "lost_to_switch",
			    json_integer((json_int_t)loss.lost));
	json_object_set_new(o, "switch_max_s", resfile_real(loss.max_s, 3));
	for (i = 0; i < b->n; i++) {
		const struct blockrun_block *k = &b->blocks[i];
		json_t *it = json_object();

		json_object_set_new(it, "block",
				    json_integer((json_int_t)k->row.index));
		json_object_set_new(
			it, "arm",
			json_string(blocks_schedule_arm_name(k->row.arm)));
		json_object_set_new(it, "start_s",
				    resfile_real(k->row.start_s, 3));
		json_object_set_new(it, "end_s", resfile_real(k->row.end_s, 3));
		json_object_set_new(it, "switch_s",
				    resfile_real(k->row.switch_s, 3));
		json_object_set_new(it, "status", json_integer(k->row.status));
		json_object_set_new(it, "window_start_s",
				    resfile_real(k->win.start_s, 3));
		json_object_set_new(it, "window_end_s",
				    resfile_real(k->win.end_s, 3));
		json_object_set_new(
			it, "use",
			json_string(blocks_schedule_use_name(k->win.use)));
		json_object_set_new(it, "new_orders",
				    json_integer((json_int_t)k->new_orders));
		json_object_set_new(it, "notpm", resfile_real(k->notpm, 2));
		json_object_set_new(it, "steal_pct",
				    resfile_real(100 * k->steal, 3));
		json_array_append_new(items, it);
	}
	json_object_set_new(o, "items", items);
	return o;
}

void blockrun_switch_loss(const struct blockrun *b,
			  struct blockrun_switch_loss *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < b->n; i++) {
		const struct blockrun_block *k = &b->blocks[i];

		if (!(k->row.switch_s > 0))
			continue;
		out->switched++;
		if (k->win.use == BLOCKS_USE_EMPTY ||
		    k->win.use == BLOCKS_USE_SHORT)
			out->lost++;
		if (k->row.switch_s > out->max_s)
			out->max_s = k->row.switch_s;
	}
}

/*
 * When switches eat their blocks, say so with the cure: a group that
 * loses a block says nothing about the effect (docs/blocks.md,
 * "Incomplete groups"), so a switch that always outlasts its block
 * leaves no score at all. Twice the switch and the settle keeps at least
 * half a block measured; the line starts with "warning:" so that
 * run/oltpmark-run can pass it on.
 */
static void write_switch_loss(const struct blockrun *b, FILE *f)
{
	struct blockrun_switch_loss loss;

	blockrun_switch_loss(b, &loss);
	if (loss.lost == 0)
		return;
	fprintf(f,
		"  warning: %zu of %zu blocks that began with a switch were "
		"lost to it (empty or short): the longest switch took %.2f s "
		"with %g s settle in %g s blocks; blocks of at least %.0f s "
		"keep them (--block; docs/blocks.md, \"Choosing the block "
		"length\")\n",
		loss.lost, loss.switched, loss.max_s, b->settle_s, b->block_s,
		ceil(2 * (loss.max_s + b->settle_s)));
}

void blockrun_write_text(const struct blockrun *b, FILE *f)
{
	size_t i;

	if (!b->present)
		return;
	fprintf(f,
		"\nBlocks (blocks.csv: variant %s, settle %g s; %zu of %zu "
		"blocks used)\n",
		b->variant[0] ? b->variant : "?", b->settle_s, b->used, b->n);
	write_switch_loss(b, f);
	fputs("  Block  Arm  Window s           Switch s  Status    NOTPM  "
	      "Steal %  Use\n",
	      f);
	for (i = 0; i < b->n; i++) {
		const struct blockrun_block *k = &b->blocks[i];

		fprintf(f, "  %5zu  %-3s  ", k->row.index,
			blocks_schedule_arm_name(k->row.arm));
		if (k->win.end_s > k->win.start_s)
			fprintf(f, "%7.1f .. %7.1f", k->win.start_s,
				k->win.end_s);
		else
			fprintf(f, "%18s", "-");
		fprintf(f, "  %8.3f  %6d  ", k->row.switch_s, k->row.status);
		if (isfinite(k->notpm))
			fprintf(f, "%7.1f  ", k->notpm);
		else
			fputs("      -  ", f);
		if (isfinite(k->steal))
			fprintf(f, "%7.2f  ", 100 * k->steal);
		else
			fputs("      -  ", f);
		fprintf(f, "%s\n", blocks_schedule_use_name(k->win.use));
	}
}

void blockrun_free(struct blockrun *b)
{
	free(b->blocks);
	memset(b, 0, sizeof(*b));
}
