/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iso8601.h - timestamps of the result files as seconds since the epoch.
 */
#ifndef OLTPMARK_BASE_ISO8601_H
#define OLTPMARK_BASE_ISO8601_H

/*
 * Parse an ISO 8601 time ("2026-11-29T21:06:39Z"; a space for the T, a
 * fraction of a second, "+HH:MM" or "+HHMM" offsets and no zone, read
 * as UTC, accepted) into epoch seconds. Every field has exactly its
 * digits: no sign, no blank. NAN when it is not one. Thread-safe.
 */
double iso8601_parse(const char *iso);

#endif
