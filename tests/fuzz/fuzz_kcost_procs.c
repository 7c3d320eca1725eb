/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_kcost_procs.c - libFuzzer target for the reader of the
 * kernel-cost hook's sys/kcost_procs.*.csv (parse_kcost_procs), then the
 * server processes' CPU from an empty start to the file and from the
 * file to itself. Besides the sanitizers it aborts when an accepted file
 * gives a CPU time that is not a number >= 0, or a split whose parts do
 * not add up to its total.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "analysis/parsers/kcost.h"

static void check(const struct kcost_cpu *c)
{
	double sum;
	size_t i;

	if (!c->present)
		return;
	sum = c->terminals_s + c->sessions_s + c->background_s + c->ended_s;
	if (!(c->terminals_s >= 0 && c->sessions_s >= 0 &&
	      c->background_s >= 0 && c->ended_s >= 0) ||
	    fabs(sum - c->total_s) > 1e-6 * (1 + fabs(sum)))
		abort();
	for (i = 0; i < c->nbg; i++)
		if (!(c->bg[i].cpu_s >= 0))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kcost_procs p, empty = {0};
	struct kcost_cpu c;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	size_t i;

	if (!f)
		return 0;
	if (parse_kcost_procs(f, &p, &err) == 0) {
		for (i = 0; i < p.n; i++)
			if (!(p.p[i].user_s >= 0 && p.p[i].system_s >= 0 &&
			      p.p[i].child_s >= 0))
				abort();
		kcost_cpu_compute(&empty, &p, &c);
		check(&c);
		kcost_cpu_compute(&p, &p, &c);
		check(&c);
		parse_kcost_procs_free(&p);
	}
	fuzz_close(f, copy);
	return 0;
}
