/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runset.c - finding and reading the run directories below compare's
 * arguments (runset.h).
 *
 * The walk sorts directory entries so results never depend on readdir
 * order, stops descending at the first directory that looks like a run
 * (meta.json or summary.json present: its sys/ and plots/ are not runs),
 * and remembers device and inode of every directory entered, so symlink
 * loops and overlapping arguments ("results results/L") visit a run once.
 */
#include "analysis/compare/runset.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "src/base/iso8601.h"
#include "src/base/resfile.h"

/* Deeper than RESULTS/LABEL/CONFIG/run-N by a wide margin. */
#define RUNSET_MAX_DEPTH 16

/* A directory already entered, by identity. */
struct visited {
	dev_t dev; /* device of the directory */
	ino_t ino; /* inode of the directory */
};

/* State of one runset_scan(). */
struct scan {
	struct runset *rs;	/* what is being filled */
	struct visited *seen;	/* directories entered */
	size_t nseen, seen_cap; /* used and allocated entries of seen */
};

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int add_problem(struct runset_problem **list, size_t *n, const char *dir,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add_problem(struct runset_problem **list, size_t *n, const char *dir,
		       const char *fmt, ...)
{
	struct runset_problem *grown;
	char reason[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	grown = realloc(*list, (*n + 1) * sizeof(**list));
	if (!grown)
		return -ENOMEM;
	*list = grown;
	grown[*n].dir = strdup(dir);
	grown[*n].reason = strdup(reason);
	if (!grown[*n].dir || !grown[*n].reason) {
		free(grown[*n].dir);
		free(grown[*n].reason);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

/*
 * Read DIR/NAME as fmt (src/base/resfile.h) into *out. Returns 0, or
 * negative with reason filled (the file's name and what is wrong).
 */
static int load_object(const char *dir, const char *name,
		       enum resfile_format fmt, json_t **out, char *reason,
		       size_t reason_size)
{
	char path[4096];
	struct err err = {""};
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = resfile_read(path, name, fmt, out, &err);
	if (rc < 0)
		snprintf(reason, reason_size, "%s", err.msg);
	return rc;
}

/* A non-empty string member, or NULL. */
static const char *json_str(const json_t *obj, const char *key)
{
	const char *s = resfile_get_string(obj, key);

	return s && s[0] ? s : NULL;
}

/* The New-Order numbers, wherever this summary.json version keeps them. */
static void read_new_order(const json_t *summary, struct runset_run *run)
{
	static const char *const p90_keys[] = {"p90_ms", "p90", NULL};
	static const char *const mean_keys[] = {"mean_ms", "mean", NULL};
	const json_t *no =
		json_object_get(json_object_get(summary, "types"), "new_order");
	const json_t *resp;

	if (!json_is_object(no))
		no = json_object_get(summary, "new_order");
	if (!json_is_object(no))
		return;
	run->no_p90_ms = resfile_number(resfile_get_first(no, p90_keys));
	run->no_mean_ms = resfile_number(resfile_get_first(no, mean_keys));
	/* A nested {"response_ms": {"p90": ...}} layout, if that is it. */
	resp = json_object_get(no, "response_ms");
	if (json_is_object(resp)) {
		if (isnan(run->no_p90_ms))
			run->no_p90_ms = resfile_number(
				resfile_get_first(resp, p90_keys));
		if (isnan(run->no_mean_ms))
			run->no_mean_ms = resfile_number(
				resfile_get_first(resp, mean_keys));
	}
}

/*
 * summary.json "blocks" (written by report for a run with blocks.csv):
 * the blocks marked "ok", with their arm, NOTPM and steal share. A
 * block whose figures are not usable is left out, as report would; so
 * is one whose number is not a whole number below RUNSET_BLOCK_LIMIT (a
 * larger one does not fit size_t, and the cast would be undefined).
 */
static int read_blocks(const json_t *summary, struct runset_run *run)
{
	const json_t *b = json_object_get(summary, "blocks");
	const json_t *items = json_object_get(b, "items"), *it;
	size_t i, n;

	run->block_s = NAN;
	if (!json_is_object(b))
		return 0;
	run->block_run = true;
	run->block_s = resfile_get_number(b, "block_s");
	n = json_array_size(items);
	if (n == 0)
		return 0;
	run->blocks = calloc(n, sizeof(*run->blocks));
	if (!run->blocks)
		return -ENOMEM;
	json_array_foreach(items, i, it)
	{
		const char *use = json_str(it, "use"),
			   *arm = json_str(it, "arm");
		double block = resfile_get_number(it, "block");
		double notpm = resfile_get_number(it, "notpm");
		double steal = resfile_get_number(it, "steal_pct");
		struct runset_block *k = &run->blocks[run->nblocks];

		if (!use || strcmp(use, "ok") != 0 || !arm ||
		    (strcmp(arm, "A") != 0 && strcmp(arm, "B") != 0) ||
		    !(block >= 0 && block < RUNSET_BLOCK_LIMIT) ||
		    block != floor(block) || !(notpm > 0) || !isfinite(notpm))
			continue;
		k->block = (size_t)block;
		k->arm_b = strcmp(arm, "B") == 0;
		k->notpm = notpm;
		k->steal = steal >= 0 && steal <= 100 ? steal / 100 : NAN;
		run->nblocks++;
	}
	return 0;
}

/* Fill run from the parsed meta.json and summary.json of dir. */
static int fill_run(struct runset *rs, struct runset_run *run, const char *dir,
		    const json_t *meta, const json_t *summary)
{
	static const char *const ramp_keys[] = {"ramp-up", "ramp_up",
						"ramp_up_s", NULL};
	const json_t *options = json_object_get(meta, "options");
	const json_t *notes = json_object_get(meta, "notes");
	const json_t *steady = json_object_get(summary, "steady");
	const json_t *window = json_object_get(summary, "window");
	const char *start = json_str(meta, "start");

	run->dir = strdup(dir);
	run->label = strdup(json_str(meta, "label"));
	run->config = strdup(json_str(meta, "config"));
	/* runs from before the driver was recorded were pgsql's */
	run->driver = strdup(json_str(meta, "driver") ? json_str(meta, "driver")
						      : "pgsql");
	run->start = xstrdup(start);
	if (!run->dir || !run->label || !run->config || !run->driver ||
	    (start && !run->start))
		return -ENOMEM;
	run->start_epoch_s = iso8601_parse(start);
	run->ramp_up_s = resfile_get_number(summary, "ramp_up_s");
	if (isnan(run->ramp_up_s))
		run->ramp_up_s =
			resfile_number(resfile_get_first(options, ramp_keys));
	if (!isnan(run->ramp_up_s) && run->ramp_up_s < 0)
		run->ramp_up_s = NAN;
	run->measured_s = resfile_get_number(summary, "measured_s");
	/* The window report chose; else ramp-up .. + measured. */
	run->window_start_s = resfile_get_number(window, "start_s");
	run->window_end_s = resfile_get_number(window, "end_s");
	if (isnan(run->window_start_s))
		run->window_start_s = run->ramp_up_s;
	if (isnan(run->window_end_s))
		run->window_end_s = run->window_start_s + run->measured_s;
	if (!(run->window_end_s > run->window_start_s))
		run->window_start_s = run->window_end_s = NAN;
	run->notpm = resfile_get_number(summary, "notpm");
	run->metric = resfile_get_number(summary, rs->metric);
	run->no_p90_ms = NAN;
	run->no_mean_ms = NAN;
	read_new_order(summary, run);
	run->steal_pct = resfile_get_number(json_object_get(summary, "host"),
					    "steal_pct");
	if (read_blocks(summary, run) < 0)
		return -ENOMEM;
	/* meta.json by report's rule, or a summary that says so */
	run->diagnostic = resfile_meta_diagnostic(meta) ||
			  resfile_get_truth(summary, "diagnostic") == 1;
	run->noncached_enforced =
		resfile_get_truth(notes, "noncached_enforced");
	run->partial = resfile_get_truth(summary, "partial") == 1;
	/* oltpmark-summary/1 keeps it in steady_state.steady. */
	run->steady = resfile_truth(steady);
	if (run->steady < 0)
		run->steady = resfile_get_truth(
			json_object_get(summary, "steady_state"), "steady");

	if (run->diagnostic)
		run->exclusion = RUNSET_DIAGNOSTIC;
	else if (run->partial)
		run->exclusion = RUNSET_PARTIAL;
	else if (run->steady == 0 && !run->block_run)
		/* a block run's arms alternate on purpose, and its
		   estimate follows any drift: steady state is a whole
		   run's question */
		run->exclusion = RUNSET_NOT_STEADY;
	else if (!(run->metric > 0) || !isfinite(run->metric))
		run->exclusion = RUNSET_NO_METRIC;
	else
		run->exclusion = RUNSET_SCORED;

	if (run->noncached_enforced == 0) {
		const char *why = json_str(notes, "noncached_reason");

		if (add_problem(&rs->remarks, &rs->nremarks, dir,
				"non-cached memory limit not enforced%s%s",
				why ? ": " : "", why ? why : "") < 0)
			return -ENOMEM;
	}
	return 0;
}

/* run.json, when there is one, may know the run ended early. */
static int read_run_json(struct runset *rs, struct runset_run *run)
{
	char path[4096], reason[ERR_MSG_MAX];
	json_t *root;

	snprintf(path, sizeof(path), "%s/run.json", run->dir);
	if (access(path, F_OK) != 0)
		return 0;
	if (load_object(run->dir, "run.json", RESFILE_RUN, &root, reason,
			sizeof(reason)) < 0)
		return add_problem(&rs->remarks, &rs->nremarks, run->dir,
				   "%s; ignored", reason);
	/*
	 * A run that reconnected completed, but what it measured includes a
	 * server that went away (an OOM kill under the non-cached limit, a
	 * crash): not a figure for the kernel.
	 */
	if (resfile_get_count(root, "connections_lost") > 0 &&
	    run->exclusion == RUNSET_SCORED)
		run->exclusion = RUNSET_CONNECTIONS_LOST;
	if (resfile_get_truth(root, "partial") == 1 && !run->partial) {
		run->partial = true;
		if (run->exclusion == RUNSET_SCORED ||
		    run->exclusion == RUNSET_NOT_STEADY ||
		    run->exclusion == RUNSET_NO_METRIC)
			run->exclusion = RUNSET_PARTIAL;
	}
	json_decref(root);
	return 0;
}

/* Read one run directory: a run, or a broken entry. -ENOMEM only. */
static int read_run(struct runset *rs, const char *dir, bool has_meta,
		    bool has_summary)
{
	char reason[ERR_MSG_MAX];
	json_t *meta = NULL, *summary = NULL;
	struct runset_run *run;
	int rc;

	if (!has_summary)
		return add_problem(
			&rs->broken, &rs->nbroken, dir,
			"no summary.json (run unfinished or not reported)");
	if (!has_meta)
		return add_problem(&rs->broken, &rs->nbroken, dir,
				   "no meta.json");
	if (load_object(dir, "meta.json", RESFILE_META, &meta, reason,
			sizeof(reason)) < 0 ||
	    load_object(dir, "summary.json", RESFILE_SUMMARY, &summary, reason,
			sizeof(reason)) < 0) {
		json_decref(meta);
		return add_problem(&rs->broken, &rs->nbroken, dir, "%s",
				   reason);
	}
	if (!json_str(meta, "label") || !json_str(meta, "config")) {
		json_decref(meta);
		json_decref(summary);
		return add_problem(&rs->broken, &rs->nbroken, dir,
				   "meta.json: no label or no config");
	}
	if (rs->nruns == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct runset_run *grown =
			realloc(rs->runs, cap * sizeof(*grown));

		if (!grown) {
			json_decref(meta);
			json_decref(summary);
			return -ENOMEM;
		}
		rs->runs = grown;
		rs->cap = cap;
	}
	run = &rs->runs[rs->nruns++];
	memset(run, 0, sizeof(*run));
	rc = fill_run(rs, run, dir, meta, summary);
	json_decref(meta);
	json_decref(summary);
	if (rc < 0)
		return rc;
	return read_run_json(rs, run);
}

static bool exists_in(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* True when st's directory was entered before; else remember it. */
static int seen_before(struct scan *sc, const struct stat *st, bool *seen)
{
	size_t i;

	for (i = 0; i < sc->nseen; i++)
		if (sc->seen[i].dev == st->st_dev &&
		    sc->seen[i].ino == st->st_ino) {
			*seen = true;
			return 0;
		}
	if (sc->nseen == sc->seen_cap) {
		size_t cap = sc->seen_cap ? 2 * sc->seen_cap : 64;
		struct visited *grown = realloc(sc->seen, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		sc->seen = grown;
		sc->seen_cap = cap;
	}
	sc->seen[sc->nseen++] = (struct visited){st->st_dev, st->st_ino};
	*seen = false;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Walk dir (a directory whose stat is st). Unreadable subdirectories are
 * remarked and skipped; the top one is an error (top is true).
 */
static int walk(struct scan *sc, const char *dir, const struct stat *st,
		int depth, bool top, struct err *err)
{
	bool seen, has_meta, has_summary;
	char **names = NULL;
	size_t nnames = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;
	int rc;

	rc = seen_before(sc, st, &seen);
	if (rc < 0 || seen)
		return rc;
	has_meta = exists_in(dir, "meta.json");
	has_summary = exists_in(dir, "summary.json");
	if (has_meta || has_summary)
		return read_run(sc->rs, dir, has_meta, has_summary);
	if (depth >= RUNSET_MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d) {
		rc = -errno;
		if (top)
			return err_set(err, rc, "%s: %s", dir, strerror(-rc));
		return add_problem(&sc->rs->remarks, &sc->rs->nremarks, dir,
				   "not searched: %s", strerror(-rc));
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue; /* ., .., and hidden (.clusters) */
		if (nnames == cap) {
			size_t ncap = cap ? 2 * cap : 32;
			char **grown = realloc(names, ncap * sizeof(*grown));

			if (!grown) {
				rc = -ENOMEM;
				goto out;
			}
			names = grown;
			cap = ncap;
		}
		names[nnames] = strdup(de->d_name);
		if (!names[nnames]) {
			rc = -ENOMEM;
			goto out;
		}
		nnames++;
	}
	if (nnames)
		qsort(names, nnames, sizeof(*names), cmp_names);
	for (i = 0; i < nnames && rc == 0; i++) {
		char path[4096];
		struct stat sub;
		int n;

		n = snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		if (stat(path, &sub) != 0 || !S_ISDIR(sub.st_mode))
			continue;
		rc = walk(sc, path, &sub, depth + 1, false, err);
	}
out:
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	closedir(d);
	if (rc == -ENOMEM)
		err_set(err, rc, "out of memory");
	return rc;
}

/* Sort order of configurations: cached, noncached, then by name. */
static int config_rank(const char *c)
{
	if (strcmp(c, "cached") == 0)
		return 0;
	if (strcmp(c, "noncached") == 0 || strcmp(c, "non-cached") == 0)
		return 1;
	return 2;
}

static int cmp_configs(const char *a, const char *b)
{
	int ra = config_rank(a), rb = config_rank(b);

	if (ra != rb)
		return ra - rb;
	return strcmp(a, b);
}

static int cmp_runs(const void *x, const void *y)
{
	const struct runset_run *a = x, *b = y;
	int c = strcmp(a->label, b->label);

	if (c)
		return c;
	c = cmp_configs(a->config, b->config);
	if (c)
		return c;
	/* Known start times first, earliest first. */
	if (isnan(a->start_epoch_s) != isnan(b->start_epoch_s))
		return isnan(a->start_epoch_s) ? 1 : -1;
	if (!isnan(a->start_epoch_s) && a->start_epoch_s != b->start_epoch_s)
		return a->start_epoch_s < b->start_epoch_s ? -1 : 1;
	return strcmp(a->dir, b->dir);
}

static int cmp_problems(const void *x, const void *y)
{
	const struct runset_problem *a = x, *b = y;
	int c = strcmp(a->dir, b->dir);

	return c ? c : strcmp(a->reason, b->reason);
}

/*
 * A simulated run (the iosim driver) measures files, not a database: its
 * NOTPM is simulated NOTPM, and a ratio of it to a real run's NOTPM means
 * nothing. So one comparison holds the runs of one driver; a mixed set is
 * refused as bad input. Sets rs->simulated for the labels.
 */
static int check_drivers(struct runset *rs, struct err *err)
{
	const char *first = NULL, *other = NULL;
	size_t i, nfirst = 0, nother = 0;

	for (i = 0; i < rs->nruns; i++) {
		const char *d = rs->runs[i].driver;

		if (!first || strcmp(d, first) == 0) {
			first = d;
			nfirst++;
		} else {
			if (!other)
				other = d;
			nother += strcmp(d, other) == 0;
		}
	}
	if (other)
		return err_set(
			err, -EINVAL,
			"the runs are of different drivers (%zu %s, %zu %s): "
			"simulated NOTPM (iosim) and real NOTPM are never "
			"scored together; compare each driver's runs on their own",
			nfirst, first, nother, other);
	rs->simulated = first && strcmp(first, "iosim") == 0;
	return 0;
}

int runset_scan(struct runset *rs, const char *const *dirs, size_t ndirs,
		const char *metric, struct err *err)
{
	struct scan sc = {.rs = rs};
	size_t i;
	int rc = 0;

	memset(rs, 0, sizeof(*rs));
	rs->metric = strdup(metric);
	if (!rs->metric)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < ndirs && rc == 0; i++) {
		char dir[4096];
		size_t len;
		struct stat st;

		/* "results/" and "results" name the same runs. */
		snprintf(dir, sizeof(dir), "%s", dirs[i]);
		len = strlen(dir);
		while (len > 1 && dir[len - 1] == '/')
			dir[--len] = '\0';
		if (stat(dir, &st) != 0) {
			rc = err_set(err, -errno, "%s: %s", dir,
				     strerror(errno));
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc = err_set(err, -ENOTDIR, "%s: not a directory", dir);
			break;
		}
		rc = walk(&sc, dir, &st, 0, true, err);
	}
	free(sc.seen);
	if (rc < 0)
		return rc;
	rc = check_drivers(rs, err);
	if (rc < 0)
		return rc;
	if (rs->nruns)
		qsort(rs->runs, rs->nruns, sizeof(*rs->runs), cmp_runs);
	if (rs->nbroken)
		qsort(rs->broken, rs->nbroken, sizeof(*rs->broken),
		      cmp_problems);
	if (rs->nremarks)
		qsort(rs->remarks, rs->nremarks, sizeof(*rs->remarks),
		      cmp_problems);
	return 0;
}

static void free_problems(struct runset_problem *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(list[i].dir);
		free(list[i].reason);
	}
	free(list);
}

void runset_free(struct runset *rs)
{
	size_t i;

	if (!rs)
		return;
	for (i = 0; i < rs->nruns; i++) {
		free(rs->runs[i].dir);
		free(rs->runs[i].label);
		free(rs->runs[i].config);
		free(rs->runs[i].driver);
		free(rs->runs[i].start);
		free(rs->runs[i].blocks);
	}
	free(rs->runs);
	free_problems(rs->broken, rs->nbroken);
	free_problems(rs->remarks, rs->nremarks);
	free(rs->metric);
	memset(rs, 0, sizeof(*rs));
}

const char *runset_exclusion_reason(enum runset_exclusion why)
{
	static const char *const reasons[RUNSET_EXCLUSION_NR] = {
		[RUNSET_SCORED] = "",
		[RUNSET_DIAGNOSTIC] =
			"diagnostic run (profiles and locks only, never scored)",
		[RUNSET_PARTIAL] = "partial run (ended early)",
		[RUNSET_NOT_STEADY] =
			"not in steady state (throughput drifted over the window)",
		[RUNSET_NO_METRIC] =
			"no positive value of the metric in summary.json",
		[RUNSET_CONNECTIONS_LOST] =
			"lost database connections (server crashed or restarted: "
			"see run.json)",
	};

	if ((unsigned)why >= RUNSET_EXCLUSION_NR)
		return "";
	return reasons[why];
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_config_ptr(const void *a, const void *b)
{
	return cmp_configs(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct values of one string field of the runs, sorted by cmp. */
static const char **distinct(const struct runset *rs, bool labels,
			     int (*cmp)(const void *, const void *), size_t *n)
{
	const char **out;
	size_t i, k = 0;

	*n = 0;
	if (rs->nruns == 0)
		return NULL;
	out = calloc(rs->nruns, sizeof(*out));
	if (!out) {
		*n = SIZE_MAX;
		return NULL;
	}
	for (i = 0; i < rs->nruns; i++)
		out[i] = labels ? rs->runs[i].label : rs->runs[i].config;
	qsort(out, rs->nruns, sizeof(*out), cmp);
	for (i = 0; i < rs->nruns; i++)
		if (k == 0 || strcmp(out[k - 1], out[i]) != 0)
			out[k++] = out[i];
	*n = k;
	return out;
}

const char **runset_labels(const struct runset *rs, size_t *n)
{
	return distinct(rs, true, cmp_str, n);
}

const char **runset_configs(const struct runset *rs, size_t *n)
{
	return distinct(rs, false, cmp_config_ptr, n);
}

const char *runset_config_title(const char *config)
{
	if (strcmp(config, "cached") == 0)
		return "Cached";
	if (strcmp(config, "noncached") == 0 ||
	    strcmp(config, "non-cached") == 0)
		return "Non-cached";
	return config;
}
