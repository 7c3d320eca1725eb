/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn.c - names of transaction types and statuses, as written in mix.csv
 * and summary.json.
 */
#include "src/base/txn.h"

#include <string.h>

static const char *const type_names[TXN_NR] = {
	[TXN_NEW_ORDER] = "new_order",	     [TXN_PAYMENT] = "payment",
	[TXN_ORDER_STATUS] = "order_status", [TXN_DELIVERY] = "delivery",
	[TXN_STOCK_LEVEL] = "stock_level",
};

static const char *const status_names[TXN_STATUS_NR] = {
	[TXN_STATUS_OK] = "ok",
	[TXN_STATUS_ROLLBACK] = "rollback",
	[TXN_STATUS_ERROR] = "error",
};

const char *txn_type_name(enum txn_type type)
{
	return (unsigned)type < TXN_NR ? type_names[type] : NULL;
}

const char *txn_status_name(enum txn_status status)
{
	return (unsigned)status < TXN_STATUS_NR ? status_names[status] : NULL;
}

int txn_type_from_name(const char *name)
{
	int i;

	for (i = 0; i < TXN_NR; i++)
		if (strcmp(name, type_names[i]) == 0)
			return i;
	return -1;
}

int txn_status_from_name(const char *name)
{
	int i;

	for (i = 0; i < TXN_STATUS_NR; i++)
		if (strcmp(name, status_names[i]) == 0)
			return i;
	return -1;
}
