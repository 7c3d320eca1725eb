/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_procstat.c - libFuzzer target for the reader of sys/procstat.csv,
 * the procstat hook's per-second samples of /proc/stat's "cpu" line
 * (parse_procstat), then placing the samples on the run's clock and
 * taking the CPU-time shares over a few windows. Besides the sanitizers
 * it aborts when an accepted file breaks parse_procstat.h (samples not
 * in increasing time order) or a share is outside 0..1.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "analysis/parsers/parse_procstat.h"

/* Take the shares over [from_s, to_s); abort when one is not 0..1. */
static void check_window(const struct procstat_series *s, double from_s,
			 double to_s)
{
	struct procstat_shares sh;
	struct err err;
	size_t k;

	if (parse_procstat_window(s, from_s, to_s, &sh, &err) < 0)
		return;
	for (k = 0; k < PROCSTAT_NR; k++)
		if (!(sh.share[k] >= 0 && sh.share[k] <= 1 + 1e-9) &&
		    k != PROCSTAT_GUEST && k != PROCSTAT_GUEST_NICE)
			abort();
	if (!(sh.busy >= 0 && sh.busy <= 1 + 1e-9) || !(sh.total_ticks > 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct procstat_series s;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	double first, last;
	size_t i;

	if (!f)
		return 0;
	if (parse_procstat(f, &s, &err) == 0) {
		for (i = 1; i < s.n; i++)
			if (!(s.samples[i].t_s > s.samples[i - 1].t_s))
				abort();
		parse_procstat_place(&s, s.samples[0].t_s);
		first = s.samples[0].t_s;
		last = s.samples[s.n - 1].t_s;
		check_window(&s, first, last);
		check_window(&s, first + (last - first) / 3,
			     last - (last - first) / 3);
		check_window(&s, -INFINITY, INFINITY);
		check_window(&s, last, first);
		parse_procstat_free(&s);
	}
	fuzz_close(f, copy);
	return 0;
}
