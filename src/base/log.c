/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log.c - stderr diagnostics. Each message is formatted first and written
 * with one call, so lines from worker threads do not interleave.
 */
#include "src/base/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static unsigned debug_mask;

static const struct {
	const char *name;
	enum log_category cat;
} categories[] = {
	{"load", LOG_CAT_LOAD},
	{"driver", LOG_CAT_DRIVER},
	{"term", LOG_CAT_TERM},
	{"report", LOG_CAT_REPORT},
};

int log_set_debug(const char *list)
{
	char buf[256], *tok, *save = NULL;
	unsigned mask = 0;
	size_t i;

	if (strlen(list) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		bool found = false;

		if (strcmp(tok, "all") == 0) {
			mask = ~0u;
			continue;
		}
		for (i = 0; i < sizeof(categories) / sizeof(categories[0]); i++)
			if (strcmp(tok, categories[i].name) == 0) {
				mask |= categories[i].cat;
				found = true;
			}
		if (!found)
			return -EINVAL;
	}
	debug_mask = mask;
	return 0;
}

bool log_debug_enabled(enum log_category cat)
{
	return (debug_mask & cat) != 0;
}

static void log_write(const char *prefix, const char *fmt, va_list ap)
{
	char line[2048];
	int n;

	n = snprintf(line, sizeof(line), "oltpmark: %s", prefix);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	strcat(line, "\n");
	fputs(line, stderr);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_write("", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_write("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_write("", fmt, ap);
	va_end(ap);
}

void log_debug(enum log_category cat, const char *fmt, ...)
{
	va_list ap;

	if (!log_debug_enabled(cat))
		return;
	va_start(ap, fmt);
	log_write("debug: ", fmt, ap);
	va_end(ap);
}
