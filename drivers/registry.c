/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.c - the table of drivers, looked up by name. Adding a database
 * is one file in drivers/ and one line here.
 */
#include <string.h>

#include "drivers/driver.h"

extern const struct driver_ops driver_pgsql; /* drivers/pgsql.c */
extern const struct driver_ops driver_null;  /* drivers/null.c */
extern const struct driver_ops driver_iosim; /* drivers/iosim.c */

static const struct driver_ops *const drivers[] = {
	&driver_pgsql,
	&driver_null,
	&driver_iosim,
};

const char *const driver_names[] = {"pgsql", "null", "iosim", NULL};

const struct driver_ops *driver_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (strcmp(drivers[i]->name, name) == 0 &&
		    drivers[i]->version == DRIVER_INTERFACE_VERSION)
			return drivers[i];
	return NULL;
}

int driver_instance_open(const struct driver_ops *ops,
			 const struct driver_config *cfg,
			 struct driver_instance **inst, struct err *err)
{
	*inst = NULL;
	if (!ops->instance_open)
		return 0;
	return ops->instance_open(cfg, inst, err);
}

int driver_instance_close(const struct driver_ops *ops,
			  struct driver_instance *inst, struct err *err)
{
	if (!ops->instance_close || !inst)
		return 0;
	return ops->instance_close(inst, err);
}
