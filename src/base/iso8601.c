/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iso8601.c - read the timestamps our result files carry (meta.json's
 * start, the hooks' ISO lines). Written here rather than with strptime:
 * strptime has no portable way to read fractional seconds or a numeric
 * UTC offset, and both occur in the files we read.
 */
#include "src/base/iso8601.h"

#include <math.h>
#include <time.h>

/*
 * The n digits at p as a number, or -1 when one of them is not a digit
 * (sscanf's %2d would take " 1", "-1" and "+1" as well).
 */
static int digits(const char *p, int n)
{
	int v = 0;

	while (n-- > 0) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p++ - '0');
	}
	return v;
}

double iso8601_parse(const char *iso)
{
	struct tm tm = {0};
	int year, mon, day, hour, min, whole, oh, om;
	double sec, scale = 0.1;
	const char *p;
	time_t t;

	/* YYYY-MM-DD[T ]HH:MM:SS, each field exactly its digits */
	if (!iso || (year = digits(iso, 4)) < 0 || iso[4] != '-' ||
	    (mon = digits(iso + 5, 2)) < 0 || iso[7] != '-' ||
	    (day = digits(iso + 8, 2)) < 0 ||
	    (iso[10] != 'T' && iso[10] != ' ') ||
	    (hour = digits(iso + 11, 2)) < 0 || iso[13] != ':' ||
	    (min = digits(iso + 14, 2)) < 0 || iso[16] != ':' ||
	    (whole = digits(iso + 17, 2)) < 0)
		return NAN;
	/* a fraction: a dot and at least one digit */
	sec = whole;
	p = iso + 19;
	if (*p == '.') {
		if (digits(++p, 1) < 0)
			return NAN;
		for (; *p >= '0' && *p <= '9'; p++, scale /= 10)
			sec += (*p - '0') * scale;
	}
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 ||
	    min > 59 || sec >= 61)
		return NAN;
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	t = timegm(&tm);
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		/* +HH:MM or +HHMM */
		int sign = *p++ == '+' ? 1 : -1;

		if ((oh = digits(p, 2)) < 0)
			return NAN;
		p += 2;
		if (*p == ':')
			p++;
		if ((om = digits(p, 2)) < 0 || oh > 23 || om > 59)
			return NAN;
		p += 2;
		/* Local time = UTC + offset, so UTC = local - offset. */
		t -= sign * (oh * 3600 + om * 60);
	}
	if (*p != '\0')
		return NAN;
	return (double)t + sec;
}
