/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * whrange.c - warehouse ranges of several drivers (whrange.h): reading
 * `--warehouse-range`, splitting W into N ranges, and the cover check
 * `oltpmark merge` applies to its parts.
 */
#include "src/base/whrange.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A decimal integer in 1..INT_MAX from *s up to the stop character. */
static int read_int(const char **s, char stop, int *out)
{
	const char *p = *s;
	long v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return -1;
	}
	if (*p != stop || v < 1)
		return -1;
	*out = (int)v;
	*s = stop ? p + 1 : p;
	return 0;
}

struct whrange whrange_split(int w, int n, int k)
{
	int base = w / n, extra = w % n;
	struct whrange r;

	/* the first `extra` ranges hold one warehouse more */
	r.first = (k - 1) * base + (k - 1 < extra ? k - 1 : extra) + 1;
	r.last = r.first + base + (k - 1 < extra) - 1;
	return r;
}

int whrange_parse(const char *s, int w, struct whrange *out, struct err *err)
{
	const char *p = s;
	int a, b;

	if (strchr(s, '/')) {
		if (read_int(&p, '/', &a) < 0 || read_int(&p, '\0', &b) < 0)
			return err_set(err, -EINVAL,
				       "'%s' is not FIRST-LAST or K/N", s);
		if (a > b)
			return err_set(err, -EINVAL,
				       "'%s': part %d of %d does not exist", s,
				       a, b);
		if (b > w)
			return err_set(
				err, -EINVAL,
				"'%s': %d parts of %d warehouse%s leave some empty",
				s, b, w, w == 1 ? "" : "s");
		*out = whrange_split(w, b, a);
		return 0;
	}
	if (read_int(&p, '-', &a) < 0 || read_int(&p, '\0', &b) < 0)
		return err_set(err, -EINVAL, "'%s' is not FIRST-LAST or K/N",
			       s);
	if (a > b)
		return err_set(err, -EINVAL, "'%s': FIRST is above LAST", s);
	if (b > w)
		return err_set(err, -EINVAL,
			       "'%s': beyond the %d warehouse%s driven (-w)", s,
			       w, w == 1 ? "" : "s");
	out->first = a;
	out->last = b;
	return 0;
}

int whrange_check_cover(const struct whrange *r, int n, int w, int *order,
			struct err *err)
{
	int *idx =
		order ? order : malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
	int i, j, next = 1, rc = 0;

	if (!idx)
		return err_set(err, -ENOMEM, "out of memory");
	/* insertion sort by first warehouse: a handful of parts */
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && r[idx[j - 1]].first > r[i].first; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
	for (i = 0; i < n && rc == 0; i++) {
		const struct whrange *c = &r[idx[i]];

		if (c->first < next)
			rc = err_set(err, -EINVAL,
				     "warehouse ranges %d-%d and %d-%d overlap",
				     r[idx[i - 1]].first, r[idx[i - 1]].last,
				     c->first, c->last);
		else if (c->first > next)
			rc = err_set(
				err, -EINVAL,
				"warehouses %d-%d are in no range: the ranges must cover 1-%d",
				next, c->first - 1, w);
		else
			next = c->last + 1;
	}
	if (rc == 0 && next <= w)
		rc = err_set(
			err, -EINVAL,
			"warehouses %d-%d are in no range: the ranges must cover 1-%d",
			next, w, w);
	else if (rc == 0 && next > w + 1)
		rc = err_set(err, -EINVAL,
			     "a range ends at %d, beyond the %d warehouses",
			     next - 1, w);
	if (!order)
		free(idx);
	return rc;
}
