/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inputs.h - the input a terminal keys in for each transaction, generated
 * exactly as TPC-C clause 2 asks (docs/tpcc.md, Transaction profiles).
 *
 * The three NURand constants C are drawn once per run and shared by all
 * terminals (2.1.6): C for C_ID in [0..1023], C for OL_I_ID in [0..8191],
 * and C-Run for C_LAST in [0..255] chosen so that its distance from the
 * C-Load the loader used (stored in oltpmark_meta) satisfies the delta
 * rule of 2.1.6.1. Everything else comes from the terminal's own
 * generator, so generating an input takes no lock.
 */
#ifndef OLTPMARK_INPUTS_H
#define OLTPMARK_INPUTS_H

#include "src/base/rng.h"
#include "src/base/tpcc_random.h"
#include "src/base/txn.h"

/*
 * The item id a rolled-back New-Order asks for: one past the last item,
 * so the lookup finds nothing (2.4.1.4 "an unused value").
 */
#define INPUTS_UNUSED_I_ID (TPCC_ITEMS + 1)

/* Run-wide facts every terminal's inputs depend on; read-only in a run. */
struct inputs_ctx {
	int warehouses;	   /* W: warehouses 1..W are active */
	int c_load_c_last; /* C-Load of C_LAST, from the database */
	int c_c_last;	   /* C-Run for NURand(255, 0, 999) */
	int c_c_id;	   /* C for NURand(1023, 1, 3000) */
	int c_ol_i_id;	   /* C for NURand(8191, 1, 100000) */
};

/*
 * Draw the run's C constants from rng for W warehouses and the C-Load the
 * database was loaded with (0..255).
 */
void inputs_ctx_init(struct inputs_ctx *ctx, int warehouses, int c_load_c_last,
		     struct rng *rng);

/*
 * Fill in with a fresh input of type for a terminal at home warehouse
 * w_id whose Stock-Level district is sl_d_id, drawing from rng.
 * Thread-safe for distinct rng and in.
 */
void inputs_generate(const struct inputs_ctx *ctx, enum txn_type type, int w_id,
		     int sl_d_id, struct rng *rng, struct txn_input *in);

#endif
