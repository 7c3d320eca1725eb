/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc_random.c - TPC-C random functions. a-strings use the 62
 * alphanumerics: clause 4.3.2.2 asks that the character *set* can
 * represent at least 128 characters (our databases are UTF8) and includes
 * a-z, A-Z and 0-9; the generated strings need not use all of it.
 */
#include "src/base/tpcc_random.h"

#include <stdlib.h>
#include <string.h>

static const char alnum[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static const char *const syllables[10] = {
	"BAR", "OUGHT", "ABLE",	 "PRI",	  "PRES",
	"ESE", "ANTI",	"CALLY", "ATION", "EING",
};

int tpcc_nurand(struct rng *rng, int a, int x, int y, int c)
{
	int r = (int)rng_range(rng, 0, a) | (int)rng_range(rng, x, y);

	return ((r + c) % (y - x + 1)) + x;
}

bool tpcc_c_delta_ok(int c_load, int c_run)
{
	int delta = abs(c_load - c_run);

	return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
}

int tpcc_c_run_for(struct rng *rng, int c_load)
{
	int c_run;

	/*
	 * For every c_load in 0..255 some value satisfies the rule (at
	 * least 47 of the 256), so rejection ends quickly.
	 */
	do {
		c_run = (int)rng_range(rng, 0, TPCC_A_C_LAST);
	} while (!tpcc_c_delta_ok(c_load, c_run));
	return c_run;
}

size_t tpcc_c_last(int n, char *buf)
{
	const char *a = syllables[(n / 100) % 10];
	const char *b = syllables[(n / 10) % 10];
	const char *c = syllables[n % 10];
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);

	memcpy(buf, a, la);
	memcpy(buf + la, b, lb);
	memcpy(buf + la + lb, c, lc);
	buf[la + lb + lc] = '\0';
	return la + lb + lc;
}

size_t tpcc_astring(struct rng *rng, int min_len, int max_len, char *buf)
{
	size_t len = (size_t)rng_range(rng, min_len, max_len);
	size_t i;
	uint64_t bits = 0;
	int left = 0;

	/*
	 * Six bits at a time, rejecting 62 and 63, keeps every character
	 * equally likely while using one 64-bit draw for about ten of them:
	 * the loader spends most of its time here.
	 */
	for (i = 0; i < len;) {
		unsigned v;

		if (left == 0) {
			bits = rng_next(rng);
			left = 10;
		}
		v = bits & 63;
		bits >>= 6;
		left--;
		if (v < 62)
			buf[i++] = alnum[v];
	}
	buf[len] = '\0';
	return len;
}

size_t tpcc_nstring(struct rng *rng, int min_len, int max_len, char *buf)
{
	size_t len = (size_t)rng_range(rng, min_len, max_len);
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (char)('0' + rng_range(rng, 0, 9));
	buf[len] = '\0';
	return len;
}

void tpcc_zip(struct rng *rng, char *buf)
{
	tpcc_nstring(rng, 4, 4, buf);
	memcpy(buf + 4, "11111", 6);
}

void tpcc_put_original(struct rng *rng, char *str, size_t len)
{
	size_t pos = (size_t)rng_range(rng, 0, (int64_t)len - 8);

	memcpy(str + pos, "ORIGINAL", 8);
}
