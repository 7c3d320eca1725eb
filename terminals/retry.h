/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * retry.h - running one transaction through a driver, the part that is no
 * database's own: check the input, attempt it (driver_ops.attempt), and
 * attempt it again with the very same input while the driver classifies
 * the failure as DRIVER_RETRY, up to max_retries times. A retried
 * transaction is the same transaction (pgbench does the same): a retried
 * New-Order keeps its items, a retried Payment its customer and amount,
 * and the time spent retrying is part of its response time. Reconnecting
 * after DRIVER_LOST is the worker's (terminals/worker.c), with backoff.
 */
#ifndef OLTPMARK_RETRY_H
#define OLTPMARK_RETRY_H

#include "drivers/driver.h"
#include "src/base/txn.h"

/*
 * Check what every driver relies on (a known type, 1..TXN_MAX_LINES order
 * lines, a NUL-terminated C_LAST when selecting by name), so that a
 * broken input is an error, never an overflow in a driver. 0, or -EINVAL
 * with out's message set and sqlstate "".
 */
int retry_check_input(const struct txn_input *in, struct txn_output *out);

/*
 * Execute in on conn: check it, attempt it, retry DRIVER_RETRY with the
 * same input up to max_retries times (counted in out->retries). Fills out
 * (zeroed first): status ok or rollback with the profile's results, or
 * status error with sqlstate and message and no results. Returns 0, or
 * -ENOTCONN when the connection was lost (status error): the caller
 * reconnects. Thread-safe as the driver is: one conn per thread.
 */
int retry_execute(const struct driver_ops *ops, struct driver_conn *conn,
		  int max_retries, const struct txn_input *in,
		  struct txn_output *out);

#endif
