/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TEMPORARY scaffold, replaced by the helper that owns cmd_compare. */
#include "src/cmd.h"
#include "src/log.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("compare: under construction");
	return EXIT_WORK_FAILED;
}
