/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exit_status.c - which exit status a library error means for the
 * commands that read result files: the reader's fault (a path that is not
 * there, a file that does not parse, an output that would be overwritten)
 * is bad input, anything else a failure during the work.
 */
#include "src/cmd/cmd.h"

#include <errno.h>

int cmd_exit_status(int rc)
{
	switch (-rc) {
	case ENOENT:
	case ENOTDIR:
	case EISDIR:
	case EBADMSG:
	case EINVAL:
	case EEXIST:
	case ENAMETOOLONG:
		return EXIT_BAD_USAGE;
	default:
		return EXIT_WORK_FAILED;
	}
}
