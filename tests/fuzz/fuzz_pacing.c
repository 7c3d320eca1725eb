/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_pacing.c - libFuzzer target for the reader of --keying-think
 * (pacing_parse in terminals/pacing.c): "tpcc", "none" or "scale=F",
 * then the keying and think times it gives every transaction type.
 * Besides the sanitizers it aborts when an accepted value has a scale
 * outside 0..1000 or gives a negative time.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "src/base/rng.h"
#include "terminals/pacing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct pacing p;
	struct err err;
	struct rng rng;
	int type, i;

	if (!text)
		return 0;
	if (pacing_parse(text, &p, &err) == 0) {
		if (!(p.scale >= 0 && p.scale <= 1000) ||
		    (unsigned int)p.mode >= PACING_NR)
			abort();
		rng_seed(&rng, 1, 0);
		for (type = 0; type < TXN_NR; type++) {
			if (pacing_keying_us(&p, type) < 0 ||
			    !(pacing_think_mean_us(&p, type) >= 0))
				abort();
			for (i = 0; i < 4; i++)
				if (pacing_think_us(&p, type, &rng) < 0 ||
				    pacing_think_residual_us(&p, type, &rng) <
					    0)
					abort();
		}
	}
	free(text);
	return 0;
}
