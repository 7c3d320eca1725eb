/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_probe.c - one hostprobe file to its medians (parse_probe.h).
 *
 * The file is one JSON object, loaded and its format checked by
 * src/base/resfile.h; then the three medians are picked out. A probe figure that is
 * missing or not positive is an error rather than unknown: it would be
 * compared against another host's, and a wrong figure there is worse
 * than none.
 */
#include "analysis/parsers/parse_probe.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include <jansson.h>

#include "analysis/parsers/textline.h"
#include "src/base/resfile.h"

/* section.key of root into *v: it must be a positive number. */
static int hprobe_positive(const json_t *root, const char *section,
			   const char *key, double *v, struct err *err)
{
	const json_t *sec = json_object_get(root, section), *x;

	if (!json_is_object(sec))
		return err_set(err, -EINVAL, "no \"%s\" object", section);
	x = json_object_get(sec, key);
	if (!x)
		return err_set(err, -EINVAL, "no %s.%s", section, key);
	if (!json_is_number(x))
		return err_set(err, -EINVAL, "%s.%s is not a number", section,
			       key);
	*v = json_number_value(x);
	if (!(*v > 0) || !isfinite(*v))
		return err_set(err, -EINVAL, "%s.%s is %g, not positive",
			       section, key, *v);
	return 0;
}

int parse_probe(FILE *f, struct hprobe *out, struct err *err)
{
	const json_t *fsync;
	json_t *root;
	int rc;

	*out = (struct hprobe){NAN, NAN, NAN, NAN, NAN};
	rc = resfile_parse(f, NULL, &root, err);
	/* a later version may time other work: its figures are not these */
	if (rc == 0) {
		rc = resfile_check(root, RESFILE_PROBE, NULL, err);
		if (rc < 0)
			json_decref(root);
	}
	/* this parser's callers have always been told -EINVAL */
	if (rc == -EBADMSG)
		rc = -EINVAL;
	if (rc < 0)
		return rc;
	rc = hprobe_positive(root, "cpu", "ns_per_op", &out->cpu_ns, err);
	if (rc == 0)
		rc = hprobe_positive(root, "memory", "ns_per_op", &out->mem_ns,
				     err);
	/* No fsync part when the hook knew no data directory. */
	fsync = json_object_get(root, "fsync");
	if (rc == 0 && fsync && !json_is_null(fsync))
		rc = hprobe_positive(root, "fsync", "us_median",
				     &out->fsync_us_median, err);
	if (rc == 0)
		out->time_s = resfile_get_number(root, "time");
	/* optional: older probes did not look at the rest of the machine */
	if (rc == 0)
		out->others_busy_pct = resfile_get_number(
			json_object_get(root, "guest"), "others_busy_pct");
	json_decref(root);
	if (rc < 0)
		*out = (struct hprobe){NAN, NAN, NAN, NAN, NAN};
	return rc;
}

/* parse_probe() with the out that textline_parse_file() hands on. */
static int hprobe_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_probe(f, out, err);
}

int parse_probe_file(const char *path, struct hprobe *out, struct err *err)
{
	*out = (struct hprobe){NAN, NAN, NAN, NAN, NAN};
	return textline_parse_file(path, hprobe_parse_stream, out, err);
}
