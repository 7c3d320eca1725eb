/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TEMPORARY scaffold, replaced by the helper that owns cmd_load. */
#include "src/cmd.h"
#include "src/log.h"

int cmd_load(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("load: under construction");
	return EXIT_WORK_FAILED;
}
