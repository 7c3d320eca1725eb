/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pacing.c - keying and think times (see pacing.h).
 */
#include "terminals/pacing.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct pacing_times pacing_table[TXN_NR] = {
	[TXN_NEW_ORDER] = {.keying_ms = 18000, .think_mean_ms = 12000},
	[TXN_PAYMENT] = {.keying_ms = 3000, .think_mean_ms = 12000},
	[TXN_ORDER_STATUS] = {.keying_ms = 2000, .think_mean_ms = 10000},
	[TXN_DELIVERY] = {.keying_ms = 2000, .think_mean_ms = 5000},
	[TXN_STOCK_LEVEL] = {.keying_ms = 2000, .think_mean_ms = 5000},
};

#define PACING_SCALE_MAX 1000.0 /* above this a run would never start */
#define PACING_THINK_CUT 10.0	/* think times are cut at 10 * mean */

int pacing_parse(const char *text, struct pacing *p, struct err *err)
{
	static const char prefix[] = "scale=";
	const char *num;
	char *end;
	double f;

	if (strcmp(text, "tpcc") == 0) {
		*p = (struct pacing){.mode = PACING_TPCC, .scale = 1.0};
		return 0;
	}
	if (strcmp(text, "none") == 0) {
		*p = (struct pacing){.mode = PACING_NONE, .scale = 0.0};
		return 0;
	}
	if (strncmp(text, prefix, sizeof(prefix) - 1) != 0)
		return err_set(
			err, -EINVAL,
			"option --keying-think: '%s' is not tpcc, none or scale=F",
			text);
	num = text + sizeof(prefix) - 1;
	errno = 0;
	f = strtod(num, &end);
	if (errno || end == num || *end != '\0' || !isfinite(f) || f < 0 ||
	    f > PACING_SCALE_MAX)
		return err_set(
			err, -EINVAL,
			"option --keying-think: scale '%s' is not a number in 0..%g",
			num, PACING_SCALE_MAX);
	*p = (struct pacing){.mode = PACING_SCALE, .scale = f};
	return 0;
}

int64_t pacing_keying_us(const struct pacing *p, enum txn_type type)
{
	if (p->mode == PACING_NONE)
		return 0;
	return (int64_t)llround(pacing_table[type].keying_ms * 1000.0 *
				p->scale);
}

int64_t pacing_think_us(const struct pacing *p, enum txn_type type,
			struct rng *rng)
{
	double mean_us, t;

	if (p->mode == PACING_NONE || p->scale == 0.0)
		return 0;
	mean_us = pacing_table[type].think_mean_ms * 1000.0 * p->scale;
	t = -log(rng_unit_open(rng)) * mean_us;
	if (t > PACING_THINK_CUT * mean_us)
		t = PACING_THINK_CUT * mean_us;
	return (int64_t)llround(t);
}

double pacing_think_mean_us(const struct pacing *p, enum txn_type type)
{
	if (p->mode == PACING_NONE)
		return 0;
	/* the mean of min(E, 10 m) for E exponential with mean m */
	return pacing_table[type].think_mean_ms * 1000.0 * p->scale *
	       (1.0 - exp(-PACING_THINK_CUT));
}

int64_t pacing_think_residual_us(const struct pacing *p, enum txn_type type,
				 struct rng *rng)
{
	double mean_us, cut;

	if (p->mode == PACING_NONE || p->scale == 0.0)
		return 0;
	/*
	 * At a random moment of a think time Z = min(E, 10 m), what is left
	 * of it, R, has P(R > r) = (e^(-r/m) - e^-10) / (1 - e^-10) for r in
	 * 0..10 m (the integral of P(Z > s) from r on, over E[Z]). Inverted:
	 * r = -m ln(e^-10 + u (1 - e^-10)) with u uniform in (0, 1).
	 */
	mean_us = pacing_table[type].think_mean_ms * 1000.0 * p->scale;
	cut = exp(-PACING_THINK_CUT);
	return (int64_t)llround(-mean_us *
				log(cut + rng_unit_open(rng) * (1.0 - cut)));
}
