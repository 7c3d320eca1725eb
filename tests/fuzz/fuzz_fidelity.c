/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_fidelity.c - libFuzzer target for the report's reader of an
 * iosim run's fidelity (analysis/report/fidelity.c, fidelity_read):
 * the calibration's figures per commit in meta.json's
 * server.io_profile.per_commit, the replay's diskstats snapshots around
 * the run and run.json's server_stats, then the summary.json, summary.txt
 * and report.html parts made of them. The input, cut at FUZZ_SEP, is
 * meta.json, run.json (an empty or broken part: none), and
 * sys/diskstats.start and .stop (optional), written to the target's
 * private directory; the run committed 1000 transactions.
 *
 * Besides the sanitizers it aborts when the comparison kept breaks
 * fidelity.h: more devices than FIDELITY_DEVICES_MAX, one without a
 * name or with a ratio other than fidelity_ratio() of its two figures
 * when they compare (why is ""), more ratios marked than there are, or
 * figures for a run of another driver.
 */
#include "tests/fuzz/fuzz.h"

#include <jansson.h>
#include <math.h>

#include "analysis/report/fidelity.h"

/* Mix commits of the replay, as fidelity_commits() would count them. */
#define FUZZ_COMMITS 1000

/* A part as JSON, or NULL when it is empty or not JSON. */
static json_t *load_part(const struct fuzz_part *p)
{
	json_error_t jerr;

	if (!p || !p->size)
		return NULL;
	return json_loadb((const char *)p->data, p->size,
			  JSON_REJECT_DUPLICATES, &jerr);
}

/* Whether x and y are the same double, NANs alike. */
static bool same(double x, double y)
{
	return (isnan(x) && isnan(y)) || x == y;
}

/* Abort unless fd is what fidelity.h says of it. */
static void check_fidelity(const struct fidelity *fd)
{
	int k, m;

	if (!fd->present && (fd->ndevs || fd->noutside))
		abort();
	if (fd->ndevs < 0 || fd->ndevs > FIDELITY_DEVICES_MAX ||
	    fd->noutside < 0 ||
	    fd->noutside > fd->ndevs * FIDELITY_METRIC_NR + 1)
		abort();
	/* With why set nothing compares: the devices read so far are
	   neither shown nor complete (fidelity.h). */
	for (k = 0; k < fd->ndevs && !fd->why[0]; k++) {
		const struct fidelity_dev *dv = &fd->dev[k];

		if (!dv->name[0])
			abort();
		for (m = 0; m < FIDELITY_METRIC_NR; m++)
			if (!isnan(dv->ratio[m]) &&
			    !same(dv->ratio[m],
				  fidelity_ratio(dv->cal[m], dv->rep[m])))
				abort();
	}
}

/* Make summary.json's, summary.txt's and report.html's parts. */
static void write_parts(const struct fidelity *fd)
{
	char *text = NULL;
	size_t len = 0;
	json_t *o = fidelity_json(fd);
	FILE *f;

	json_decref(o);
	f = open_memstream(&text, &len);
	if (f) {
		fidelity_write_text(fd, f);
		fidelity_write_html(fd, f);
		fclose(f);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"sys/diskstats.start",
					    "sys/diskstats.stop"};
	struct fuzz_part parts[4];
	const char *dir = fuzz_tmpdir();
	size_t n = fuzz_split(data, size, parts, 4), i;
	struct fidelity fd;
	struct err err;
	json_t *meta, *run;

	if (!dir || fuzz_subdir("sys") < 0)
		return 0;
	for (i = 0; i < 2; i++) {
		const struct fuzz_part *p = i + 2 < n ? &parts[i + 2] : NULL;

		if (fuzz_write(names[i], p && p->size ? p->data : NULL,
			       p ? p->size : 0) < 0)
			return 0;
	}
	meta = load_part(&parts[0]);
	run = load_part(n > 1 ? &parts[1] : NULL);
	if (fidelity_read(dir, meta, run, FUZZ_COMMITS, &fd, &err) == 0) {
		check_fidelity(&fd);
		write_parts(&fd);
	}
	json_decref(meta);
	json_decref(run);
	return 0;
}
