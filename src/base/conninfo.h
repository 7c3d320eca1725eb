/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conninfo.h - checking libpq connection strings and making them safe to
 * record: a password must never reach a result file or a log line.
 */
#ifndef OLTPMARK_CONNINFO_H
#define OLTPMARK_CONNINFO_H

#include <stddef.h>

#include "src/base/err.h"

/* Check that conninfo parses as libpq would take it. 0 or -EINVAL. */
int conninfo_validate(const char *conninfo, struct err *err);

/*
 * Write conninfo without any password into out (always NUL-terminated).
 * A string libpq cannot parse is replaced by "(unparsable conninfo)",
 * since we cannot tell where a password in it would be.
 */
void conninfo_redact(const char *conninfo, char *out, size_t out_size);

#endif
