/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - one run directory to summary.json, summary.txt,
 * timeseries.csv and (with plots) plots/ and report.html: reads meta.json
 * and run.json, settles the window, streams mix.csv twice (figures, then
 * the response-time distributions), and writes every file under a
 * temporary name before renaming it into place.
 *
 * Error codes tell the command layer whose fault a failure is: -ENOENT,
 * -ENOTDIR, -EISDIR, -EBADMSG and -EINVAL mean bad input (a missing or
 * broken run directory, a window outside the run); anything else is a
 * failure while doing the work (no memory, a full disk).
 */
#include "analysis/report/report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis/report/blockrun.h"
#include "analysis/report/checkpoints.h"
#include "analysis/report/devices.h"
#include "analysis/report/fidelity.h"
#include "analysis/report/hostshare.h"
#include "analysis/report/kcost_report.h"
#include "analysis/report/html.h"
#include "analysis/report/mixcsv.h"
#include "analysis/common/pagelink.h"
#include "analysis/report/plots.h"
#include "analysis/report/summary.h"
#include "analysis/report/timeseries.h"
#include "src/base/atomic_file.h"
#include "src/base/resfile.h"

/* Everything one report works with. */
struct report_ctx {
	const char *dir;	   /* the run directory */
	json_t *meta;		   /* meta.json, NULL when absent */
	json_t *run;		   /* run.json, NULL when absent */
	struct sum_run run_info;   /* run.json's fields */
	struct sum_meta meta_info; /* meta.json's fields */
	struct summary sum;	   /* the figures */
	struct ts_series ts;	   /* the time series */
	struct hostshare host;	   /* sys/procstat.csv over the window */
	struct blockrun blocks;	   /* blocks.csv: a block run's blocks */
	struct fidelity fid;	   /* an iosim run beside its calibration */
	struct kcost_report kc;	   /* the kernel-cost hook, per type */
};

static int join(char *out, size_t size, const char *dir, const char *name,
		struct err *err)
{
	if (snprintf(out, size, "%s/%s", dir, name) >= (int)size)
		return err_set(err, -ENAMETOOLONG, "%s/%s: path too long", dir,
			       name);
	return 0;
}

/*
 * Load DIR/name as a JSON object into *out (NULL when the file does not
 * exist). -EBADMSG naming the line for a broken, cut or empty file.
 */
static int load_json(const char *dir, const char *name, json_t **out,
		     struct err *err)
{
	char path[PATH_MAX];
	int rc;

	*out = NULL;
	rc = join(path, sizeof(path), dir, name, err);
	if (rc < 0)
		return rc;
	rc = resfile_load(path, path, out, err);
	if (rc == -ENOENT) {
		err_clear(err);
		return 0;
	}
	/* an empty meta.json is as broken as a cut one: bad input */
	return rc == -ENODATA ? -EBADMSG : rc;
}

/* Write DIR/name through a temporary file and rename it into place. */
static int write_atomic(const char *dir, const char *name,
			int (*fill)(struct report_ctx *ctx, FILE *f,
				    struct err *err),
			struct report_ctx *ctx, struct err *err)
{
	char path[PATH_MAX];
	struct atomic_file af;
	int rc;

	rc = join(path, sizeof(path), dir, name, err);
	if (rc < 0)
		return rc;
	rc = atomic_file_open(&af, path, err);
	if (rc < 0)
		return rc;
	return atomic_file_close(&af, fill(ctx, af.f, err), err);
}

/*
 * The parts of the report beside the summary's own figures, in the order
 * of their objects in summary.json and their lines in summary.txt: the
 * host's share (sys/procstat.csv), a block run's blocks (blocks.csv, read
 * before mix.csv is streamed, since every row feeds it), the devices
 * under the database (read from meta.json's layout and iostat when
 * written) and an iosim run's fidelity. Each part is read once the
 * summary is finished, in this order. Adding a part is a row in parts[]
 * and its functions (its field in struct report_ctx; report.html shows
 * it through struct html_input).
 */
struct report_part {
	const char *key; /* its object in summary.json */
	/* read its files once the summary is finished; NULL: none */
	int (*read)(struct report_ctx *ctx, struct err *err);
	/* its summary.json object into *out, NULL when it has none (the
	   key is left out): 0, or negative with err set */
	int (*json)(struct report_ctx *ctx, json_t **out, struct err *err);
	/* its lines of summary.txt: 0, or negative with err set */
	int (*text)(struct report_ctx *ctx, FILE *f, struct err *err);
	/* free what it read (safe when it read nothing); NULL: nothing */
	void (*release)(struct report_ctx *ctx);
};

static int read_host(struct report_ctx *ctx, struct err *err);

/* A part's JSON: NULL is -ENOMEM when the part has something to show. */
static int part_json(json_t *o, bool known, json_t **out, struct err *err)
{
	*out = o;
	if (known && !o)
		return err_set(err, -ENOMEM, "summary.json: out of memory");
	return 0;
}

static int host_json(struct report_ctx *ctx, json_t **out, struct err *err)
{
	return part_json(hostshare_json(&ctx->host), ctx->host.known, out, err);
}

static int host_text(struct report_ctx *ctx, FILE *f, struct err *err)
{
	(void)err;
	hostshare_write_text(&ctx->host, f);
	return 0;
}

static int blocks_json(struct report_ctx *ctx, json_t **out, struct err *err)
{
	return part_json(blockrun_json(&ctx->blocks), ctx->blocks.present, out,
			 err);
}

static int blocks_text(struct report_ctx *ctx, FILE *f, struct err *err)
{
	(void)err;
	blockrun_write_text(&ctx->blocks, f);
	return 0;
}

static int devs_json(struct report_ctx *ctx, json_t **out, struct err *err)
{
	struct dbdevices d;
	int rc = devices_read(ctx->dir, ctx->meta, &ctx->sum, &d, err);

	*out = NULL;
	if (rc == 0)
		rc = part_json(devices_json(&d), d.layout_known, out, err);
	dbdevices_free(&d);
	return rc;
}

static int devs_text(struct report_ctx *ctx, FILE *f, struct err *err)
{
	return devices_write_text(ctx->dir, ctx->meta, &ctx->sum, f, err);
}

static int fid_read(struct report_ctx *ctx, struct err *err)
{
	return fidelity_read(ctx->dir, ctx->meta, ctx->run,
			     fidelity_commits(&ctx->sum), &ctx->fid, err);
}

static int fid_json(struct report_ctx *ctx, json_t **out, struct err *err)
{
	return part_json(fidelity_json(&ctx->fid), ctx->fid.present, out, err);
}

static int fid_text(struct report_ctx *ctx, FILE *f, struct err *err)
{
	(void)err;
	fidelity_write_text(&ctx->fid, f);
	return 0;
}

static int kc_read(struct report_ctx *ctx, struct err *err)
{
	int rc = kcost_report_read(ctx->dir, &ctx->sum, &ctx->kc);

	return rc < 0 ? err_set(err, rc, "kernel cost: out of memory") : 0;
}

static int kc_json(struct report_ctx *ctx, json_t **out, struct err *err)
{
	bool any = kcost_report_any(&ctx->kc);

	return part_json(any ? kcost_report_json(&ctx->kc) : NULL, any, out,
			 err);
}

static int kc_text(struct report_ctx *ctx, FILE *f, struct err *err)
{
	(void)err;
	kcost_report_write_text(&ctx->kc, f);
	return 0;
}

static void kc_release(struct report_ctx *ctx)
{
	kcost_report_free(&ctx->kc);
}

static void host_release(struct report_ctx *ctx)
{
	hostshare_free(&ctx->host);
}

static void blocks_release(struct report_ctx *ctx)
{
	blockrun_free(&ctx->blocks);
}

static const struct report_part parts[] = {
	{"host", read_host, host_json, host_text, host_release},
	{"blocks", NULL, blocks_json, blocks_text, blocks_release},
	{"devices", NULL, devs_json, devs_text, NULL},
	{"fidelity", fid_read, fid_json, fid_text, NULL},
	{"kernel_cost", kc_read, kc_json, kc_text, kc_release},
};

#define NPARTS (sizeof(parts) / sizeof(parts[0]))

/* summary.json: the summary's figures, then each part's object. */
static int fill_summary_json(struct report_ctx *ctx, FILE *f, struct err *err)
{
	json_t *j = summary_to_json(&ctx->sum), *o;
	size_t i;
	int rc;

	if (!j)
		return err_set(err, -ENOMEM, "summary.json: out of memory");
	for (i = 0; i < NPARTS; i++) {
		rc = parts[i].json(ctx, &o, err);
		if (rc < 0) {
			json_decref(j);
			return rc;
		}
		if (o)
			json_object_set_new(j, parts[i].key, o);
	}
	rc = resfile_dump(j, f);
	json_decref(j);
	if (rc < 0)
		return err_set(err, rc, "summary.json: write failed");
	return 0;
}

/* summary.txt: the summary's text, then each part's lines. */
static int fill_summary_txt(struct report_ctx *ctx, FILE *f, struct err *err)
{
	int rc = summary_write_text(&ctx->sum, f, err);
	size_t i;

	for (i = 0; i < NPARTS && rc == 0; i++)
		rc = parts[i].text(ctx, f, err);
	if (rc < 0)
		return rc;
	return ferror(f) ? err_set(err, -EIO, "summary.txt: write failed") : 0;
}

static int fill_timeseries(struct report_ctx *ctx, FILE *f, struct err *err)
{
	return timeseries_write_csv(&ctx->ts, f, err);
}

/* Settle the window from the options, run.json and meta.json. */
static int choose_window(struct report_ctx *ctx,
			 const struct report_options *opt, int64_t *start_ms,
			 int64_t *end_ms, const char **start_from,
			 const char **end_from, struct err *err)
{
	int64_t m_start, m_end;
	bool measured = summary_run_measured(&ctx->run_info, &m_start, &m_end);

	if (opt->ramp_up_s >= 0) {
		*start_ms = llround(opt->ramp_up_s * 1000.0);
		*start_from = "option";
	} else if (measured) {
		*start_ms = m_start;
		*start_from = "run.json";
	} else if (isfinite(ctx->run_info.ramp_up_s) &&
		   ctx->run_info.ramp_up_s >= 0) {
		*start_ms = llround(ctx->run_info.ramp_up_s * 1000.0);
		*start_from = "run.json";
	} else if (isfinite(ctx->meta_info.opt_ramp_up_s) &&
		   ctx->meta_info.opt_ramp_up_s >= 0) {
		*start_ms = llround(ctx->meta_info.opt_ramp_up_s * 1000.0);
		*start_from = "meta.json";
	} else {
		*start_ms = 0;
		*start_from = "default";
	}
	if (opt->window_end_s >= 0) {
		*end_ms = llround(opt->window_end_s * 1000.0);
		*end_from = "option";
	} else if (measured) {
		*end_ms = m_end;
		*end_from = "run.json";
	} else {
		*end_ms = SUM_OPEN_END;
		*end_from = "mix.csv";
	}
	if (*end_ms <= *start_ms)
		return err_set(err, -EINVAL,
			       "the window %.3f .. %.3f s is empty (the "
			       "measured interval ends at %.3f s)",
			       *start_ms / 1000.0, *end_ms / 1000.0,
			       *end_ms / 1000.0);
	if (*start_ms > TS_MAX_T_MS)
		return err_set(err, -EINVAL,
			       "the window starts %.0f s after the run began: "
			       "more than 31 days",
			       *start_ms / 1000.0);
	return 0;
}

/* Stream mix.csv once; pass 1 feeds the summary and the series. */
static int read_pass(struct report_ctx *ctx, const char *path, int pass,
		     uint64_t *truncated, uint64_t *bytes, struct err *err)
{
	struct mixcsv_reader r;
	struct mixcsv_row row;
	int rc;

	rc = mixcsv_open(&r, path, err);
	if (rc < 0)
		return rc;
	while ((rc = mixcsv_next(&r, &row, err)) > 0) {
		if (pass == 2) {
			summary_add_dist(&ctx->sum, &row);
			continue;
		}
		rc = timeseries_add(&ctx->ts, &row, err);
		if (rc == 0)
			rc = summary_add(&ctx->sum, &row, err);
		blockrun_add(&ctx->blocks, &row);
		if (rc < 0) {
			char msg[ERR_MSG_MAX];

			snprintf(msg, sizeof(msg), "%s", err ? err->msg : "");
			if (rc == -ERANGE)
				rc = -EBADMSG;
			err_set(err, rc, "%s: line %llu: %s", path,
				(unsigned long long)r.line, msg);
			break;
		}
	}
	*truncated = r.truncated_lines;
	*bytes = r.bytes;
	mixcsv_close(&r);
	return rc < 0 ? rc : 0;
}

static int check_dir(const char *dir, struct err *err)
{
	char path[PATH_MAX];
	struct stat st;
	int rc;

	if (stat(dir, &st) < 0)
		return err_set(err, -errno == -ENOENT ? -ENOENT : -errno,
			       "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set(err, -ENOTDIR, "%s: not a directory", dir);
	rc = join(path, sizeof(path), dir, "mix.csv", err);
	if (rc < 0)
		return rc;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return err_set(err, -ENOENT,
				       "%s: not a run directory (no mix.csv)",
				       dir);
		return err_set(err, -errno, "%s: %s", path, strerror(errno));
	}
	return 0;
}

/* Where the run ended, for the time series: elapsed, else planned. */
static int64_t run_end_ms(const struct sum_run *r)
{
	if (isfinite(r->elapsed_s) && r->elapsed_s > 0)
		return llround(r->elapsed_s * 1000.0);
	if (isfinite(r->ramp_up_s) && isfinite(r->duration_s))
		return llround((r->ramp_up_s + r->duration_s) * 1000.0);
	return 0;
}

/*
 * A window asked for by option must lie within the run: the run ends
 * at run.json's elapsed time or at the last completion, whichever is
 * later. -EINVAL otherwise.
 */
static int check_window(struct report_ctx *ctx, struct err *err)
{
	const struct summary *s = &ctx->sum;
	int64_t end_ms = run_end_ms(&ctx->run_info);

	if (s->last_t_ms + 1 > end_ms)
		end_ms = s->last_t_ms + 1;
	if (strcmp(s->start_from, "option") == 0 && s->start_ms >= end_ms)
		return err_set(err, -EINVAL,
			       "the window starts at %.3f s, after the end of "
			       "the run (%.3f s)",
			       s->start_ms / 1000.0, end_ms / 1000.0);
	if (strcmp(s->end_from, "option") == 0 && s->end_ms > end_ms)
		return err_set(err, -EINVAL,
			       "the window ends at %.3f s, after the end of "
			       "the run (%.3f s)",
			       s->end_ms / 1000.0, end_ms / 1000.0);
	return 0;
}

/*
 * sys/checkpoints.csv onto the run's clock, into the summary. No file:
 * the checkpoints stay unknown. A file that does not parse is a warning,
 * not a failure: the report is worth having without them. Only running
 * out of memory fails.
 *
 * The run's clock starts when the engine released its workers; meta.json
 * "start_unix_s" is the wall clock read right after that moment (to the
 * microsecond), while "start" is the same moment cut to whole seconds:
 * with "start" only, the checkpoints are placed up to 1 s late, and a
 * note says so.
 */
static int read_checkpoints(struct report_ctx *ctx, struct err *err)
{
	static const char name[] = "sys/checkpoints.csv";
	const json_t *unix_s = json_object_get(ctx->meta, "start_unix_s");
	struct ckpt_list l;
	struct err perr;
	char path[PATH_MAX];
	double start, end_s;
	int64_t end_ms;
	int rc;

	rc = join(path, sizeof(path), ctx->dir, name, err);
	if (rc < 0)
		return rc;
	err_clear(&perr);
	rc = checkpoints_parse_file(path, name, &l, &perr);
	if (rc == -ENOENT)
		return 0;
	if (rc == -ENOMEM)
		return err_set(err, rc, "%s", perr.msg);
	if (rc < 0) {
		summary_warn(&ctx->sum, "%s: checkpoints unknown", perr.msg);
		return 0;
	}
	start = plots_run_start(ctx->meta);
	if (!isfinite(start)) {
		summary_note(&ctx->sum,
			     "%s not used: meta.json has no start time to "
			     "place the checkpoints on the run's clock",
			     name);
		checkpoints_free(&l);
		return 0;
	}
	if (!(json_is_number(unix_s) && json_number_value(unix_s) > 0))
		summary_note(&ctx->sum,
			     "checkpoints placed with meta.json's \"start\", "
			     "which has whole seconds: up to 1 s late");
	/* the run ends where the time series does */
	end_ms = run_end_ms(&ctx->run_info);
	if (ctx->sum.last_t_ms + 1 > end_ms)
		end_ms = ctx->sum.last_t_ms + 1;
	end_s = end_ms / 1000.0;
	checkpoints_place(&l, start, end_s);
	summary_set_checkpoints(&ctx->sum, &l);
	return 0;
}

/*
 * A block run's blocks.csv, its windows within the summary's (whose end
 * is not known yet when it is open: then not clipped there). A file
 * that cannot be used is a warning: the run's blocks cannot be scored.
 */
static int read_blocks(struct report_ctx *ctx, struct err *err)
{
	char why[ERR_MSG_MAX + 64];
	double end_s = ctx->sum.end_ms == SUM_OPEN_END
			       ? INFINITY
			       : ctx->sum.end_ms / 1000.0;
	int rc;

	rc = blockrun_read(ctx->dir, ctx->meta, plots_run_start(ctx->meta),
			   ctx->sum.start_ms / 1000.0, end_s, &ctx->blocks, why,
			   sizeof(why), err);
	if (rc == 0 && why[0]) {
		if (ctx->blocks.present)
			summary_note(&ctx->sum, "%s", why);
		else
			summary_warn(&ctx->sum, "%s", why);
	}
	return rc;
}

/*
 * sys/procstat.csv over the summary's window (closed by now), then each
 * block's steal share. A file that cannot be used is a note.
 */
static int read_host(struct report_ctx *ctx, struct err *err)
{
	char why[ERR_MSG_MAX + 64];
	int rc;

	rc = hostshare_read(ctx->dir, plots_run_start(ctx->meta),
			    ctx->sum.start_ms / 1000.0,
			    ctx->sum.end_ms / 1000.0, &ctx->host, why,
			    sizeof(why), err);
	if (rc < 0)
		return rc;
	if (why[0])
		summary_note(&ctx->sum, "%s", why);
	blockrun_finish(&ctx->blocks, &ctx->host);
	return 0;
}

static int make_plots_and_html(struct report_ctx *ctx,
			       const struct report_options *opt,
			       struct err *err)
{
	char compare_link[PATH_MAX] = "";
	struct plots_result pr;
	struct html_input in;
	int rc;

	rc = plots_make(ctx->dir, &ctx->sum, &ctx->ts, ctx->meta, &ctx->host,
			&ctx->blocks, &pr, err);
	if (rc < 0)
		return rc;
	memset(&in, 0, sizeof(in));
	in.run_dir = ctx->dir;
	in.host = &ctx->host;
	in.blocks = &ctx->blocks;
	in.sum = &ctx->sum;
	in.meta = ctx->meta;
	in.run = ctx->run;
	in.plots = &pr;
	/* docs/report.md, "The link to the comparison" */
	if (opt->compare_page)
		pagelink_make(ctx->dir, opt->compare_page, compare_link,
			      sizeof(compare_link));
	else
		pagelink_find_up(ctx->dir, "compare.html", PAGELINK_UP_MAX,
				 compare_link, sizeof(compare_link));
	in.compare_link = compare_link[0] ? compare_link : NULL;
	return html_write_report(&in, err);
}

int report_summarize(const char *run_dir, const struct report_options *opt,
		     struct err *err)
{
	struct report_ctx ctx;
	const char *start_from = "default", *end_from = "mix.csv";
	char mix[PATH_MAX];
	int64_t start_ms = 0, end_ms = SUM_OPEN_END;
	uint64_t truncated = 0, bytes = 0;
	size_t i;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	ctx.dir = run_dir;
	rc = check_dir(run_dir, err);
	if (rc < 0)
		return rc;
	rc = join(mix, sizeof(mix), run_dir, "mix.csv", err);
	if (rc == 0)
		rc = load_json(run_dir, "meta.json", &ctx.meta, err);
	if (rc == 0)
		rc = load_json(run_dir, "run.json", &ctx.run, err);
	if (rc < 0)
		goto out;
	summary_meta_unknown(&ctx.meta_info);
	summary_run_unknown(&ctx.run_info);
	if (ctx.meta)
		rc = summary_meta_from_json(ctx.meta, &ctx.meta_info, err);
	if (rc == 0 && ctx.run)
		rc = summary_run_from_json(ctx.run, &ctx.run_info, err);
	if (rc == 0)
		rc = choose_window(&ctx, opt, &start_ms, &end_ms, &start_from,
				   &end_from, err);
	if (rc < 0)
		goto out;
	rc = summary_init(&ctx.sum, &ctx.run_info, &ctx.meta_info, start_ms,
			  end_ms, start_from, end_from, err);
	if (rc < 0)
		goto out;
	rc = timeseries_init(&ctx.ts, TS_INTERVAL_MS);
	if (rc == 0)
		rc = read_blocks(&ctx, err);
	if (rc == 0)
		rc = read_pass(&ctx, mix, 1, &truncated, &bytes, err);
	if (rc < 0)
		goto out;
	rc = check_window(&ctx, err);
	if (rc < 0)
		goto out;
	summary_prepare_dist(&ctx.sum);
	rc = read_pass(&ctx, mix, 2, &truncated, &bytes, err);
	if (rc == 0)
		rc = timeseries_set_end(&ctx.ts, run_end_ms(&ctx.run_info),
					err);
	if (rc < 0)
		goto out;
	if (!ctx.meta)
		summary_note(&ctx.sum, "no meta.json: label, configuration "
				       "and system details are unknown");
	rc = read_checkpoints(&ctx, err);
	if (rc == 0)
		rc = summary_finish(&ctx.sum, truncated, err);
	for (i = 0; i < NPARTS && rc == 0; i++)
		if (parts[i].read)
			rc = parts[i].read(&ctx, err);
	if (rc == 0)
		rc = write_atomic(run_dir, "timeseries.csv", fill_timeseries,
				  &ctx, err);
	if (rc == 0)
		rc = write_atomic(run_dir, "summary.txt", fill_summary_txt,
				  &ctx, err);
	if (rc == 0 && opt->plots)
		rc = make_plots_and_html(&ctx, opt, err);
	/* summary.json last: its presence marks a complete run directory */
	if (rc == 0)
		rc = write_atomic(run_dir, "summary.json", fill_summary_json,
				  &ctx, err);
out:
	for (i = 0; i < NPARTS; i++)
		if (parts[i].release)
			parts[i].release(&ctx);
	summary_free(&ctx.sum);
	timeseries_free(&ctx.ts);
	json_decref(ctx.meta);
	json_decref(ctx.run);
	return rc;
}
