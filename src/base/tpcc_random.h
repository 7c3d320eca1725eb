/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc_random.h - TPC-C's random functions (clauses 2.1.4-2.1.6, 4.3.2):
 * NURand, the C constants and their load/run rule, last names from
 * syllables, a-strings, n-strings and zip codes. Shared by the loader and
 * the terminals so both draw from exactly the same definitions. The rules
 * in our words: docs/tpcc.md, Random numbers (and Population, for the
 * strings and names).
 */
#ifndef OLTPMARK_TPCC_RANDOM_H
#define OLTPMARK_TPCC_RANDOM_H

#include <stdbool.h>
#include <stddef.h>

#include "src/base/rng.h"

/* NURand's A for each field, and the ranges it is used on (clause 2.1.6). */
#define TPCC_A_C_LAST  255
#define TPCC_A_C_ID    1023
#define TPCC_A_OL_I_ID 8191

#define TPCC_ITEMS		    100000
#define TPCC_DISTRICTS_PER_W	    10
#define TPCC_CUSTOMERS_PER_D	    3000
#define TPCC_ORDERS_PER_D	    3000
#define TPCC_NEW_ORDERS_PER_D	    900
#define TPCC_FIRST_UNDELIVERED_O_ID 2101
#define TPCC_C_LAST_MAX		    16 /* vt16, longest generated name is 15 */

/* NURand(A, x, y) with constant c: (((rand(0,A) | rand(x,y)) + c) % (y-x+1)) + x. */
int tpcc_nurand(struct rng *rng, int a, int x, int y, int c);

/*
 * Whether c_run may be used at run time with c_load used at load for
 * C_LAST: |c_load - c_run| in 65..119 and not 96 or 112 (2.1.6.1).
 */
bool tpcc_c_delta_ok(int c_load, int c_run);

/* Draw a C-Run for C_LAST in [0, 255] that satisfies the delta rule. */
int tpcc_c_run_for(struct rng *rng, int c_load);

/*
 * Write the last name for n in 0..999 (three syllables, clause 4.3.2.3)
 * into buf (at least TPCC_C_LAST_MAX bytes); returns its length.
 */
size_t tpcc_c_last(int n, char *buf);

/*
 * Random a-string of length rand[min_len, max_len] from the 62
 * alphanumerics into buf (at least max_len + 1 bytes); returns the length.
 */
size_t tpcc_astring(struct rng *rng, int min_len, int max_len, char *buf);

/* As tpcc_astring, digits only (n-string). */
size_t tpcc_nstring(struct rng *rng, int min_len, int max_len, char *buf);

/* Zip code: 4 random digits then "11111" (4.3.2.7); buf holds 10 bytes. */
void tpcc_zip(struct rng *rng, char *buf);

/*
 * Put "ORIGINAL" at a random position of str (length len >= 8) in place,
 * as the 10 % rule for I_DATA and S_DATA asks (4.3.3.1).
 */
void tpcc_put_original(struct rng *rng, char *str, size_t len);

#endif
