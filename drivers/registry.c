/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.c - the table of drivers, looked up by name. Adding a database
 * is one file in drivers/ (drivers/NAME.c defining
 * `const struct driver_ops driver_NAME` with .name "NAME") and one X(NAME)
 * in DRIVER_LIST below: the declarations, the lookup table, the names
 * `--driver` accepts and its --help text are all made from that list.
 */
#include <string.h>

#include "drivers/driver.h"

/* Every driver, in the order --help lists them; the first is the default. */
#define DRIVER_LIST(X) X(pgsql) X(null) X(iosim)

#define DRIVER_EXTERN(n)  extern const struct driver_ops driver_##n;
#define DRIVER_ADDRESS(n) &driver_##n,
#define DRIVER_NAME(n)	  #n,
#define DRIVER_HELP(n)	  "|" #n

DRIVER_LIST(DRIVER_EXTERN)

static const struct driver_ops *const drivers[] = {DRIVER_LIST(DRIVER_ADDRESS)};

const char *const driver_names[] = {DRIVER_LIST(DRIVER_NAME) NULL};

const char driver_names_bars[] = DRIVER_LIST(DRIVER_HELP);

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
