/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iso8601.h - timestamps of the result files as seconds since the epoch.
 */
#ifndef OLTPMARK_BASE_ISO8601_H
#define OLTPMARK_BASE_ISO8601_H

/*
 * Parse an ISO 8601 UTC time ("2026-11-29T21:06:39Z", fractions and
 * "+HH:MM" offsets accepted) into epoch seconds. NAN when it is not one.
 * Thread-safe.
 */
double iso8601_parse(const char *iso);

#endif
