/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TEMPORARY scaffold, replaced by the helper that owns drivers/pgsql.c. */
#include <errno.h>
#include "drivers/driver.h"

static int pgsql_connect(const struct driver_config *cfg,
			 struct driver_conn **conn, struct err *err)
{
	(void)cfg;
	(void)conn;
	return err_set(err, -ENOSYS, "pgsql driver under construction");
}

const struct driver_ops driver_pgsql = {
	.name = "pgsql",
	.version = DRIVER_INTERFACE_VERSION,
	.connect = pgsql_connect,
};
