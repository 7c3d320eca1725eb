/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn.c - names of transaction types, as written in mix.csv, run.json and
 * summary.json.
 */
#include "src/base/txn.h"

#include <stddef.h>

static const char *const type_names[TXN_NR] = {
	[TXN_NEW_ORDER] = "new_order",	     [TXN_PAYMENT] = "payment",
	[TXN_ORDER_STATUS] = "order_status", [TXN_DELIVERY] = "delivery",
	[TXN_STOCK_LEVEL] = "stock_level",
};

const char *txn_type_name(enum txn_type type)
{
	return (unsigned)type < TXN_NR ? type_names[type] : NULL;
}
