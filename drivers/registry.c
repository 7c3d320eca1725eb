/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.c - the table of drivers, looked up by name. Adding a database
 * is one file in drivers/ and one line here.
 */
#include <string.h>

#include "drivers/driver.h"

extern const struct driver_ops driver_pgsql; /* drivers/pgsql.c */
extern const struct driver_ops driver_null;  /* drivers/null.c */

static const struct driver_ops *const drivers[] = {
	&driver_pgsql,
	&driver_null,
};

const char *const driver_names[] = {"pgsql", "null", NULL};

const struct driver_ops *driver_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (strcmp(drivers[i]->name, name) == 0 &&
		    drivers[i]->version == DRIVER_INTERFACE_VERSION)
			return drivers[i];
	return NULL;
}
