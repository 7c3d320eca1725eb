/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostshare.c - the CPU-time shares of one run's measured window from
 * sys/procstat.csv (see hostshare.h).
 */
#include "analysis/report/hostshare.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* The shares summary.json names, in the kernel's order. */
static const struct {
	const char *key;
	enum procstat_field field;
} fields[] = {
	{"user_pct", PROCSTAT_USER},	   {"nice_pct", PROCSTAT_NICE},
	{"system_pct", PROCSTAT_SYSTEM},   {"idle_pct", PROCSTAT_IDLE},
	{"iowait_pct", PROCSTAT_IOWAIT},   {"irq_pct", PROCSTAT_IRQ},
	{"softirq_pct", PROCSTAT_SOFTIRQ}, {"steal_pct", PROCSTAT_STEAL},
};

int hostshare_read(const char *run_dir, double start_epoch_s,
		   double window_start_s, double window_end_s,
		   struct hostshare *out, char *why, size_t why_size,
		   struct err *err)
{
	static const char name[] = "sys/procstat.csv";
	char path[PATH_MAX];
	struct err perr;
	int rc;

	memset(out, 0, sizeof(*out));
	why[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", run_dir, name) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s/%s: path too long",
			       run_dir, name);
	err_clear(&perr);
	rc = parse_procstat_file(path, &out->series, &perr);
	if (rc == -ENOENT)
		return 0;
	if (rc == -ENOMEM)
		return err_set(err, rc, "%s", perr.msg);
	if (rc < 0) {
		snprintf(why, why_size, "%s: host share unknown", perr.msg);
		return 0;
	}
	if (!isfinite(start_epoch_s)) {
		snprintf(why, why_size,
			 "%s not used: meta.json has no start time to place "
			 "its samples on the run's clock",
			 name);
		parse_procstat_free(&out->series);
		return 0;
	}
	parse_procstat_place(&out->series, start_epoch_s);
	out->known = true;
	out->window_start_s = window_start_s;
	out->window_end_s = window_end_s;
	err_clear(&perr);
	if (parse_procstat_window(&out->series, window_start_s, window_end_s,
				  &out->window, &perr) == 0)
		out->window_known = true;
	else
		snprintf(why, why_size,
			 "%s: no sample covers the measured window", name);
	if (out->series.bad_lines && !why[0])
		snprintf(why, why_size, "%s: %zu damaged row(s) skipped", name,
			 out->series.bad_lines);
	return 0;
}

static json_t *pct(double share)
{
	return json_real(round(share * 100 * 1000) / 1000);
}

json_t *hostshare_json(const struct hostshare *h)
{
	json_t *o;
	size_t i;

	if (!h->known)
		return NULL;
	o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "samples",
			    json_integer((json_int_t)h->series.n));
	json_object_set_new(o, "bad_lines",
			    json_integer((json_int_t)h->series.bad_lines));
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		json_object_set_new(
			o, fields[i].key,
			h->window_known ? pct(h->window.share[fields[i].field])
					: json_null());
	return o;
}

void hostshare_write_text(const struct hostshare *h, FILE *f)
{
	const struct procstat_shares *w = &h->window;

	if (!h->known)
		return;
	fputs("\nHost (sys/procstat.csv, all CPUs, measured window)\n", f);
	if (!h->window_known) {
		fputs("  no sample covers the window\n", f);
		return;
	}
	fprintf(f,
		"  steal %.2f %%  user %.2f %%  system %.2f %%  iowait "
		"%.2f %%  idle %.2f %%\n",
		100 * w->share[PROCSTAT_STEAL], 100 * w->share[PROCSTAT_USER],
		100 * w->share[PROCSTAT_SYSTEM],
		100 * w->share[PROCSTAT_IOWAIT], 100 * w->share[PROCSTAT_IDLE]);
}

void hostshare_free(struct hostshare *h)
{
	parse_procstat_free(&h->series);
	memset(h, 0, sizeof(*h));
}
