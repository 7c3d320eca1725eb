/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * null.c - the driver without a database (fio's null engine): every
 * transaction succeeds at once. It measures the engine's own cost and lets
 * unit tests run terminals, scheduling and result files without a server.
 * New-Orders asked to roll back do roll back, so the input bounds and
 * status columns behave as with a real database.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "drivers/driver.h"

/*
 * A null connection only numbers orders: one counter per connection,
 * starting at 3001 like a freshly loaded district, not one per district
 * as a database keeps (nothing outside the drivers reads an O_ID back).
 */
struct driver_conn {
	int next_o_id; /* next O_ID this connection hands out */
};

static int null_connect(const struct driver_config *cfg,
			struct driver_conn **conn, struct err *err)
{
	(void)cfg;
	*conn = calloc(1, sizeof(**conn));
	if (!*conn)
		return err_set(err, -ENOMEM, "null driver: out of memory");
	(*conn)->next_o_id = 3001;
	return 0;
}

static enum driver_outcome null_attempt(struct driver_conn *conn,
					const struct txn_input *in,
					struct txn_output *out)
{
	out->status = TXN_STATUS_OK;
	switch (in->type) {
	case TXN_NEW_ORDER:
		out->o_id = conn->next_o_id++;
		if (in->u.new_order.rollback)
			out->status = TXN_STATUS_ROLLBACK;
		break;
	case TXN_DELIVERY:
		out->delivered = 10;
		break;
	default:
		break;
	}
	return DRIVER_DONE;
}

static int null_reconnect(struct driver_conn *conn, struct err *err)
{
	(void)conn;
	(void)err;
	return 0;
}

static void null_disconnect(struct driver_conn *conn)
{
	free(conn);
}

static int null_db_info(struct driver_conn *conn, struct driver_db_info *info,
			struct err *err)
{
	(void)conn;
	(void)err;
	memset(info, 0, sizeof(*info));
	info->has_meta = true;
	strcpy(info->status, "loaded");
	/* no database, so any warehouse count is "loaded" */
	info->warehouses = 1000000;
	info->c_load_c_last = 0;
	snprintf(info->version, sizeof(info->version), "%s", OLTPMARK_VERSION);
	return 0;
}

static int null_describe(struct driver_conn *conn, json_t *server,
			 struct err *err)
{
	(void)conn;
	(void)err;
	json_object_set_new(server, "driver", json_string("null"));
	json_object_set_new(server, "note",
			    json_string("no database: engine cost only"));
	return 0;
}

static int null_stats(struct driver_conn *conn, struct driver_stats *stats,
		      struct err *err)
{
	(void)conn;
	(void)err;
	/* no server: every counter is unknown */
	memset(stats, 0xff, sizeof(*stats));
	return 0;
}

const struct driver_ops driver_null = {
	.name = "null",
	.version = DRIVER_INTERFACE_VERSION,
	.connect = null_connect,
	.attempt = null_attempt,
	.reconnect = null_reconnect,
	.disconnect = null_disconnect,
	.db_info = null_db_info,
	.describe = null_describe,
	.stats = null_stats,
};
