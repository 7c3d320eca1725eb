/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log.h - diagnostics on stderr, for the command layer and run progress.
 * Library code returns errors (src/base/err.h) instead of calling these.
 * --debug=CAT,... turns on debug categories at run time (no #ifdef DEBUG).
 */
#ifndef OLTPMARK_LOG_H
#define OLTPMARK_LOG_H

#include <stdbool.h>

/* Debug categories, one bit each. */
enum log_category {
	LOG_CAT_LOAD = 1 << 0,	 /* loader jobs */
	LOG_CAT_DRIVER = 1 << 1, /* database driver */
	LOG_CAT_TERM = 1 << 2,	 /* terminals and scheduling */
	LOG_CAT_REPORT = 1 << 3, /* analysis */
};

/* Enable categories from "load,driver,..." or "all". 0 or -EINVAL. */
int log_set_debug(const char *list);

/* Whether a category is enabled. */
bool log_debug_enabled(enum log_category cat);

/* "oltpmark: error: ..." etc. on stderr; thread-safe (one fprintf each). */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(enum log_category cat, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
