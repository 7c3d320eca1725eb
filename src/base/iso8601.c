/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iso8601.c - read the timestamps our result files carry (meta.json's
 * start, the hooks' ISO lines). Written here rather than with strptime:
 * strptime has no portable way to read fractional seconds or a numeric
 * UTC offset, and both occur in the files we read.
 */
#include "src/base/iso8601.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

double iso8601_parse(const char *iso)
{
	struct tm tm = {0};
	int year, mon, day, hour, min, used = 0;
	double sec;
	const char *rest;
	time_t t;

	if (!iso)
		return NAN;
	if (sscanf(iso, "%4d-%2d-%2d%*1[T ]%2d:%2d:%lf%n", &year, &mon, &day,
		   &hour, &min, &sec, &used) != 6 ||
	    used == 0)
		return NAN;
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 ||
	    min > 59 || sec < 0 || sec >= 61)
		return NAN;
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	t = timegm(&tm);
	rest = iso + used;
	if (*rest == 'Z' || *rest == 'z') {
		rest++;
	} else if (*rest == '+' || *rest == '-') {
		int oh, om = 0, n = 0;

		if (sscanf(rest + 1, "%2d:%2d%n", &oh, &om, &n) != 2 &&
		    sscanf(rest + 1, "%2d%2d%n", &oh, &om, &n) != 2)
			return NAN;
		/* Local time = UTC + offset, so UTC = local - offset. */
		t -= (*rest == '+' ? 1 : -1) * (oh * 3600 + om * 60);
		rest += 1 + n;
	}
	if (*rest != '\0')
		return NAN;
	return (double)t + sec;
}
