/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_proc_stat.c - libFuzzer target for the reader of /proc/stat's CPU
 * lines (src/base/procstat.c: procstat_find, procstat_parse_line), which
 * the procstat sampler and the run's host share read, and the shares
 * between two snapshots. The input is /proc/stat before, FUZZ_SEP, and
 * after; without a separator the one snapshot is compared with itself.
 * Besides the sanitizers it aborts when a share is outside 0..1.
 */
#include "tests/fuzz/fuzz.h"

#include "src/base/procstat.h"

/* The lines looked up in each snapshot. */
static const char *const fuzz_cpus[] = {"cpu", "cpu0", "cpu1", "cpu127"};

/* The shares between a and b; abort when one is not 0..1. */
static void check_shares(const struct procstat_cpu *a,
			 const struct procstat_cpu *b)
{
	struct procstat_shares sh;
	struct err err;
	size_t k;

	if (procstat_shares(a, b, &sh, &err) < 0)
		return;
	for (k = 0; k < PROCSTAT_NR; k++)
		if (k != PROCSTAT_GUEST && k != PROCSTAT_GUEST_NICE &&
		    !(sh.share[k] >= 0 && sh.share[k] <= 1 + 1e-9))
			abort();
	if (!(sh.busy >= 0 && sh.busy <= 1 + 1e-9))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[2];
	struct procstat_cpu a, b;
	struct err err;
	size_t n = fuzz_split(data, size, parts, 2), i;
	char *before, *after, *line;

	before = fuzz_strndup(parts[0].data, parts[0].size);
	after = fuzz_strndup(parts[n - 1].data, parts[n - 1].size);
	if (!before || !after)
		goto out;
	for (i = 0; i < sizeof(fuzz_cpus) / sizeof(fuzz_cpus[0]); i++) {
		int ra = procstat_find(before, fuzz_cpus[i], &a, &err);
		int rb = procstat_find(after, fuzz_cpus[i], &b, &err);

		if (ra == 0 && (a.nfields < 4 || a.nfields > PROCSTAT_NR))
			abort();
		if (ra == 0 && rb == 0)
			check_shares(&a, &b);
	}
	/* Every line on its own, as a sampler reading line by line would. */
	for (line = before; line && *line;) {
		char *nl = strchr(line, '\n');

		(void)procstat_parse_line(line, &a, &err);
		line = nl ? nl + 1 : NULL;
	}
out:
	free(before);
	free(after);
	return 0;
}
