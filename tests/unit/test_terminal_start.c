/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_terminal_start.c - terminals start in phase (terminal_start): over
 * many terminals the first deck positions are uniform, the phases
 * (keying or thinking, and which card) come in proportion to their mean
 * lengths, what is left of the phase is its equilibrium residual, and a
 * population run forward from that start has a flat arrival rate and a
 * flat New-Order share from the first second, where the old start (every
 * deck at its first card, every terminal keying from the beginning)
 * fails the same tests. Also: a seed gives the same start, "none" is due
 * at once, and the mean cycle gives the NOTPM docs/terminals.md derives.
 *
 * The goodness-of-fit tests are chi-square tests with a fixed seed; each
 * bound is the 1e-4 quantile of its distribution, so a correct start
 * passes for any seed with odds of 9,999 in 10,000.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "terminals/terminal.h"

/* chi-square 1e-4 upper quantiles by degrees of freedom */
#define CHI2_10 35.6
#define CHI2_19 50.8
#define CHI2_20 52.4
#define CHI2_22 55.5
#define CHI2_23 57.1
#define CHI2_24 58.6

static const struct pacing tpcc = {PACING_TPCC, 1.0};

/* n terminals seeded as run.c seeds them, then started in phase */
static struct terminal *start_terms(int n, uint64_t seed,
				    const struct pacing *p)
{
	struct terminal *t = calloc((size_t)n, sizeof(*t));
	int i;

	assert_non_null(t);
	for (i = 0; i < n; i++) {
		t[i].id = i + 1;
		rng_seed(&t[i].rng, seed, (uint64_t)i + 1);
		terminal_start(&t[i], p);
	}
	return t;
}

/* The start before terminals started in phase: first card, keying. */
static struct terminal *start_terms_old(int n, uint64_t seed,
					const struct pacing *p)
{
	struct terminal *t = calloc((size_t)n, sizeof(*t));
	int i;

	assert_non_null(t);
	for (i = 0; i < n; i++) {
		t[i].id = i + 1;
		rng_seed(&t[i].rng, seed, (uint64_t)i + 1);
		deck_init(&t[i].deck);
		t[i].next = deck_draw(&t[i].deck, &t[i].rng);
		t[i].due_us = pacing_keying_us(p, t[i].next);
	}
	return t;
}

/* Pearson's statistic of counts against expected counts. */
static double chi2(const double *obs, const double *expect, int k)
{
	double x = 0;
	int i;

	for (i = 0; i < k; i++) {
		assert_true(expect[i] > 0);
		x += (obs[i] - expect[i]) * (obs[i] - expect[i]) / expect[i];
	}
	return x;
}

/* Position of t->next in its pass: uniform over the 23 places. */
static void check_positions_uniform(const struct pacing *p)
{
	enum { N = 46000 };
	struct terminal *t = start_terms(N, 3, p);
	double obs[DECK_CARDS] = {0}, expect[DECK_CARDS];
	int i;

	for (i = 0; i < N; i++) {
		assert_true(t[i].deck.next >= 1 &&
			    t[i].deck.next <= DECK_CARDS);
		assert_int_equal(t[i].deck.cards[t[i].deck.next - 1],
				 t[i].next);
		obs[t[i].deck.next - 1]++;
	}
	for (i = 0; i < DECK_CARDS; i++)
		expect[i] = (double)N / DECK_CARDS;
	assert_true(chi2(obs, expect, DECK_CARDS) < CHI2_22);
	free(t);
}

static void test_positions_uniform(void **state)
{
	(void)state;
	check_positions_uniform(&tpcc);
}

/* S: the mean time of one pass, keying plus think over the 23 cards */
static double pass_mean_us(const struct pacing *p)
{
	double s = 0;
	int c;

	for (c = 0; c < TXN_NR; c++)
		s += deck_cards_per_set[c] * ((double)pacing_keying_us(p, c) +
					      pacing_think_mean_us(p, c));
	return s;
}

/*
 * The phase each terminal is in, length-biased: keying card type c with
 * probability n_c K_c / S; thinking after a card of type c, at a
 * position that is not the last of its pass (so the card can still be
 * read in the deck), n_c Z_c / S x 22/23; thinking after the last card
 * of a pass (its deck reshuffled), sum n_c Z_c / S x 1/23. A terminal is
 * keying exactly when its due time is below its card's keying time.
 */
static void test_phase_shares(void **state)
{
	enum { N = 100000, CELLS = 2 * TXN_NR + 1 };
	struct terminal *t = start_terms(N, 5, &tpcc);
	double obs[CELLS] = {0}, expect[CELLS], s = pass_mean_us(&tpcc);
	double think_all = 0;
	int i, c;

	(void)state;
	for (c = 0; c < TXN_NR; c++) {
		double z =
			deck_cards_per_set[c] * pacing_think_mean_us(&tpcc, c);

		expect[c] = N * deck_cards_per_set[c] *
			    (double)pacing_keying_us(&tpcc, c) / s;
		expect[TXN_NR + c] = N * z / s * (DECK_CARDS - 1) / DECK_CARDS;
		think_all += z;
	}
	expect[2 * TXN_NR] = N * think_all / s / DECK_CARDS;
	for (i = 0; i < N; i++) {
		const struct deck *d = &t[i].deck;

		if (t[i].due_us < pacing_keying_us(&tpcc, t[i].next))
			obs[t[i].next]++;
		else if (d->next >= 2)
			obs[TXN_NR + d->cards[d->next - 2]]++;
		else
			obs[2 * TXN_NR]++;
	}
	/* New-Order keying is 180 / 476 of the time, not 10 / 23 */
	assert_true(fabs(obs[TXN_NEW_ORDER] / N - 180.0 / 476) < 0.01);
	assert_true(chi2(obs, expect, CELLS) < CHI2_10);
	free(t);
}

/*
 * The first due times: each, put through the distribution function of
 * the phase it is in (U(0, K) for keying; the think residual, then the
 * next keying, for thinking), is uniform over (0, 1). Thinking after a
 * reshuffled pass is left out: its card is no longer in the deck (which
 * card it was is independent of the residual's draw, so leaving it out
 * does not bias the rest).
 */
static void test_first_due_uniform(void **state)
{
	enum { N = 100000, BINS = 20 };
	struct terminal *t = start_terms(N, 7, &tpcc);
	double obs[BINS] = {0}, expect[BINS], n = 0, cut = exp(-10.0);
	int i;

	(void)state;
	for (i = 0; i < N; i++) {
		const struct deck *d = &t[i].deck;
		int64_t key = pacing_keying_us(&tpcc, t[i].next);
		double u;

		if (t[i].due_us < key) {
			u = (double)t[i].due_us / (double)key;
		} else if (d->next >= 2) {
			enum txn_type c = d->cards[d->next - 2];
			double m = pacing_table[c].think_mean_ms * 1000.0;
			double r = (double)(t[i].due_us - key);

			assert_true(r <= 10 * m + 1);
			/* P(R > r) = (e^(-r/m) - e^-10) / (1 - e^-10) */
			u = 1 - (exp(-r / m) - cut) / (1 - cut);
		} else {
			continue;
		}
		assert_true(u >= 0 && u <= 1);
		obs[u >= 1 ? BINS - 1 : (int)(u * BINS)]++;
		n++;
	}
	for (i = 0; i < BINS; i++)
		expect[i] = n / BINS;
	assert_true(chi2(obs, expect, BINS) < CHI2_19);
	free(t);
}

/* Arrivals (due times) of a population run forward from its start. */
struct arrivals {
	int bins;	/* number of bins */
	int64_t bin_us; /* width of one */
	double *all;	/* arrivals per bin */
	double *no;	/* New-Order arrivals per bin */
};

/*
 * Run each terminal forward as the worker does with a driver that takes
 * no time (done = due): next due = due + think (this type) + keying (next
 * type), counting due times into bins until the last bin ends.
 */
static void simulate(struct terminal *t, int n, const struct pacing *p,
		     struct arrivals *a)
{
	int64_t end = a->bin_us * a->bins;
	int i;

	a->all = calloc((size_t)a->bins, sizeof(double));
	a->no = calloc((size_t)a->bins, sizeof(double));
	assert_non_null(a->all);
	assert_non_null(a->no);
	for (i = 0; i < n; i++) {
		struct terminal *x = &t[i];

		while (x->due_us < end) {
			enum txn_type type = x->next;
			int b = (int)(x->due_us / a->bin_us);

			a->all[b]++;
			a->no[b] += type == TXN_NEW_ORDER;
			x->next = deck_draw(&x->deck, &x->rng);
			x->due_us += pacing_think_us(p, type, &x->rng) +
				     pacing_keying_us(p, x->next);
		}
	}
}

/* chi-square of the arrival counts against a flat rate (bins - 1 df) */
static double flat_rate_chi2(const struct arrivals *a)
{
	double total = 0, *expect = calloc((size_t)a->bins, sizeof(double)), x;
	int b;

	assert_non_null(expect);
	for (b = 0; b < a->bins; b++)
		total += a->all[b];
	for (b = 0; b < a->bins; b++)
		expect[b] = total / a->bins;
	x = chi2(a->all, expect, a->bins);
	free(expect);
	return x;
}

/*
 * chi-square of each bin's New-Order share against 10/23 (bins df);
 * infinite when a bin has no arrivals
 */
static double no_share_chi2(const struct arrivals *a)
{
	double p = (double)deck_cards_per_set[TXN_NEW_ORDER] / DECK_CARDS;
	double x = 0;
	int b;

	for (b = 0; b < a->bins; b++) {
		double e = a->all[b] * p;

		if (a->all[b] == 0)
			return INFINITY; /* no share at all: not flat */
		x += (a->no[b] - e) * (a->no[b] - e) /
		     (a->all[b] * p * (1 - p));
	}
	return x;
}

/*
 * Flat from the first second: over 0..48 s in 2-s bins (how the first
 * cycle's residual is drawn) and over 0..480 s, a deck pass, in 24-s
 * bins (how the deck position is drawn), both the arrival rate and the
 * New-Order share. The old start fails both.
 */
static void check_stationary(int bins, int64_t bin_us, double crit_rate,
			     double crit_share)
{
	enum { N = 20000 };
	struct arrivals a = {bins, bin_us, NULL, NULL};
	struct arrivals old = {bins, bin_us, NULL, NULL};
	struct terminal *t = start_terms(N, 11, &tpcc);
	struct terminal *o = start_terms_old(N, 11, &tpcc);

	simulate(t, N, &tpcc, &a);
	simulate(o, N, &tpcc, &old);
	assert_true(flat_rate_chi2(&a) < crit_rate);
	assert_true(no_share_chi2(&a) < crit_share);
	assert_true(flat_rate_chi2(&old) > crit_rate);
	assert_true(no_share_chi2(&old) > crit_share);
	free(a.all);
	free(a.no);
	free(old.all);
	free(old.no);
	free(t);
	free(o);
}

static void test_stationary_first_cycles(void **state)
{
	(void)state;
	check_stationary(24, 2000000, CHI2_23, CHI2_24);
}

static void test_stationary_deck_pass(void **state)
{
	(void)state;
	check_stationary(20, 24000000, CHI2_19, CHI2_20);
}

/* A seed gives the same start; another seed another one. */
static void test_deterministic(void **state)
{
	enum { N = 200 };
	struct terminal *a = start_terms(N, 42, &tpcc);
	struct terminal *b = start_terms(N, 42, &tpcc);
	struct terminal *c = start_terms(N, 43, &tpcc);
	int i, differ = 0;

	(void)state;
	for (i = 0; i < N; i++) {
		assert_int_equal(a[i].due_us, b[i].due_us);
		assert_int_equal(a[i].next, b[i].next);
		assert_memory_equal(&a[i].deck, &b[i].deck, sizeof(a[i].deck));
		assert_memory_equal(&a[i].rng, &b[i].rng, sizeof(a[i].rng));
		differ += a[i].due_us != c[i].due_us;
	}
	assert_true(differ > N / 2);
	free(a);
	free(b);
	free(c);
}

/* No keying or think time: due at once, from a uniform position. */
static void test_none_due_at_once(void **state)
{
	static const struct pacing none = {PACING_NONE, 0.0},
				   zero = {PACING_SCALE, 0.0};
	enum { N = 1000 };
	struct terminal *t = start_terms(N, 9, &none);
	struct terminal *z = start_terms(N, 9, &zero);
	int i;

	(void)state;
	for (i = 0; i < N; i++) {
		assert_int_equal(t[i].due_us, 0);
		assert_int_equal(z[i].due_us, 0);
	}
	check_positions_uniform(&none);
	free(t);
	free(z);
}

/*
 * The think residual: never above 10 means, mean m (1 - 10 e^-10 / (1 -
 * e^-10)), about m, and P(R > m) = (e^-1 - e^-10) / (1 - e^-10).
 */
static void test_think_residual(void **state)
{
	enum { N = 1000000 };
	double m = 12e6, sum = 0, above = 0;
	struct rng r;
	int i;

	(void)state;
	rng_seed(&r, 13, 0);
	for (i = 0; i < N; i++) {
		int64_t x = pacing_think_residual_us(&tpcc, TXN_PAYMENT, &r);

		assert_true(x >= 0 && x <= (int64_t)(10 * m));
		sum += (double)x;
		above += (double)x > m;
	}
	assert_true(fabs(sum / N - m) < 0.005 * m);
	assert_true(fabs(above / N - (exp(-1) - exp(-10)) / (1 - exp(-10))) <
		    0.003);
	rng_seed(&r, 13, 0);
	assert_int_equal(
		pacing_think_residual_us(&(struct pacing){PACING_NONE, 0},
					 TXN_PAYMENT, &r),
		0);
}

/*
 * The figures docs/terminals.md derives: a mean cycle of 476/23 s over
 * the deck and 10 x 60 / (476/23) x 10/23 = 12.605 New-Orders per
 * minute per warehouse with the null driver; F times shorter cycles,
 * 1/F times as many with scale=F.
 */
static void test_derived_notpm(void **state)
{
	const struct pacing half = {PACING_SCALE, 0.5};
	double cycle_us = pass_mean_us(&tpcc) / DECK_CARDS;
	double notpm_w = 10 * 60e6 / cycle_us *
			 deck_cards_per_set[TXN_NEW_ORDER] / DECK_CARDS;

	(void)state;
	assert_true(fabs(cycle_us - 476e6 / 23) < 1e3);
	assert_true(fabs(notpm_w - 12.605) < 0.001);
	assert_true(fabs(pass_mean_us(&half) / DECK_CARDS - cycle_us / 2) <
		    1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positions_uniform),
		cmocka_unit_test(test_phase_shares),
		cmocka_unit_test(test_first_due_uniform),
		cmocka_unit_test(test_stationary_first_cycles),
		cmocka_unit_test(test_stationary_deck_pass),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_none_due_at_once),
		cmocka_unit_test(test_think_residual),
		cmocka_unit_test(test_derived_notpm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
