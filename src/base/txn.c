/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn.c - names of transaction types, as written in mix.csv, run.json and
 * summary.json.
 */
#include "src/base/txn.h"

#include <stddef.h>

#include "src/base/mixcsv_format.h"

static const char *const type_names[TXN_NR] = {
	[TXN_NEW_ORDER] = MIXCSV_WORD_NEW_ORDER,
	[TXN_PAYMENT] = MIXCSV_WORD_PAYMENT,
	[TXN_ORDER_STATUS] = MIXCSV_WORD_ORDER_STATUS,
	[TXN_DELIVERY] = MIXCSV_WORD_DELIVERY,
	[TXN_STOCK_LEVEL] = MIXCSV_WORD_STOCK_LEVEL,
};

const char *txn_type_name(enum txn_type type)
{
	return (unsigned)type < TXN_NR ? type_names[type] : NULL;
}
