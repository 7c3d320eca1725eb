/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TEMPORARY scaffold, replaced by the helper that owns cmd_report. */
#include "src/cmd.h"
#include "src/log.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("report: under construction");
	return EXIT_WORK_FAILED;
}
