/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * retry.c - check, attempt, retry (see retry.h). Retries are immediate:
 * a serialization failure or deadlock means another transaction got there
 * first and has mostly finished, and waiting would only add to the
 * response time we measure. --debug=driver logs each retry.
 */
#include "terminals/retry.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/base/log.h"

/* An input error: out's message from fmt, no SQLSTATE. Returns -EINVAL. */
static int retry_bad_input(struct txn_output *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int retry_bad_input(struct txn_output *out, const char *fmt, ...)
{
	va_list ap;

	out->sqlstate[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(out->message, sizeof(out->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int retry_check_input(const struct txn_input *in, struct txn_output *out)
{
	switch (in->type) {
	case TXN_NEW_ORDER:
		if (in->u.new_order.ol_cnt < 1 ||
		    in->u.new_order.ol_cnt > TXN_MAX_LINES)
			return retry_bad_input(out,
					       "new_order: %d order lines, "
					       "not 1..%d",
					       in->u.new_order.ol_cnt,
					       TXN_MAX_LINES);
		return 0;
	case TXN_PAYMENT:
		if (in->u.payment.by_name &&
		    !memchr(in->u.payment.c_last, '\0', TXN_C_LAST_SIZE))
			return retry_bad_input(out, "payment: bad c_last");
		return 0;
	case TXN_ORDER_STATUS:
		if (in->u.order_status.by_name &&
		    !memchr(in->u.order_status.c_last, '\0', TXN_C_LAST_SIZE))
			return retry_bad_input(out, "order_status: bad c_last");
		return 0;
	case TXN_DELIVERY:
	case TXN_STOCK_LEVEL:
		return 0;
	default:
		return retry_bad_input(out, "unknown transaction type %d",
				       (int)in->type);
	}
}

int retry_execute(const struct driver_ops *ops, struct driver_conn *conn,
		  int max_retries, const struct txn_input *in,
		  struct txn_output *out)
{
	enum driver_outcome oc;
	int retries = 0;

	memset(out, 0, sizeof(*out));
	if (retry_check_input(in, out) < 0) {
		out->status = TXN_STATUS_ERROR;
		return 0;
	}
	for (;;) {
		oc = ops->attempt(conn, in, out);
		if (oc != DRIVER_RETRY || retries >= max_retries)
			break;
		retries++;
		log_debug(LOG_CAT_DRIVER, "%s: %s %s, retry %d of %d",
			  txn_type_name(in->type), out->sqlstate, out->message,
			  retries, max_retries);
		/* a fresh output for the next attempt: no half results */
		memset(out, 0, sizeof(*out));
	}
	out->retries = retries;
	if (oc == DRIVER_DONE && out->status != TXN_STATUS_ERROR)
		return 0;
	/* DRIVER_RETRY with the retries used up is an error too */
	out->status = TXN_STATUS_ERROR;
	/* no half results next to an error */
	out->o_id = 0;
	out->delivered = 0;
	out->skipped = 0;
	out->low_stock = 0;
	return oc == DRIVER_LOST ? -ENOTCONN : 0;
}
