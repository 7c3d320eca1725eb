/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_probe.c - one hostprobe file to its medians (parse_probe.h).
 *
 * The file is one JSON object that jansson loads whole; then the format
 * is checked and the three medians picked out. A probe figure that is
 * missing or not positive is an error rather than unknown: it would be
 * compared against another host's, and a wrong figure there is worse
 * than none.
 */
#include "analysis/parsers/parse_probe.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <jansson.h>

#include "src/base/json_error.h"
#include "analysis/parsers/textline.h"

/*
 * Skip the blanks before the JSON so that an empty file can be told from
 * a cut one. 0 with *lines the newlines skipped, -ENODATA at EOF, -EIO.
 */
static int hprobe_skip_blanks(FILE *f, int *lines)
{
	int c;

	*lines = 0;
	while ((c = getc(f)) != EOF && isspace(c))
		*lines += c == '\n';
	if (c == EOF)
		return ferror(f) ? -EIO : -ENODATA;
	ungetc(c, f);
	return 0;
}

/* Load the object, or say why not: cut short, invalid, not an object. */
static json_t *hprobe_load(FILE *f, struct err *err, int *rc)
{
	json_error_t jerr;
	json_t *root;
	int skipped;

	*rc = hprobe_skip_blanks(f, &skipped);
	if (*rc == -ENODATA) {
		err_set(err, *rc, "empty file");
		return NULL;
	}
	if (*rc < 0) {
		err_set(err, *rc, "read error");
		return NULL;
	}
	root = json_loadf(f, 0, &jerr);
	if (!root) {
		/* Line numbers, not jansson's wording, which varies between
		 * versions; "cut short" is what a killed hook leaves. */
		bool cut = json_error_cut_short(&jerr);

		if (ferror(f))
			*rc = err_set(err, -EIO, "read error");
		else if (cut)
			*rc = err_set(err, -EINVAL, "JSON cut short (line %d)",
				      jerr.line + skipped);
		else
			*rc = err_set(err, -EINVAL,
				      "invalid JSON (line %d, column %d)",
				      jerr.line + skipped, jerr.column);
		return NULL;
	}
	if (!json_is_object(root)) {
		*rc = err_set(err, -EINVAL, "not a JSON object");
		json_decref(root);
		return NULL;
	}
	return root;
}

static int hprobe_check_format(const json_t *root, struct err *err)
{
	const json_t *fmt = json_object_get(root, "format");

	if (!fmt)
		return err_set(err, -EINVAL, "no \"format\"");
	/* a later version may time other work: its figures are not these */
	if (!json_is_string(fmt) ||
	    strcmp(json_string_value(fmt), HPROBE_FORMAT) != 0)
		return err_set(err, -EINVAL, "format is not %s", HPROBE_FORMAT);
	return 0;
}

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
	const json_t *t, *fsync, *guest;
	json_t *root;
	int rc;

	*out = (struct hprobe){NAN, NAN, NAN, NAN, NAN};
	root = hprobe_load(f, err, &rc);
	if (!root)
		return rc;
	rc = hprobe_check_format(root, err);
	if (rc == 0)
		rc = hprobe_positive(root, "cpu", "ns_per_op", &out->cpu_ns,
				     err);
	if (rc == 0)
		rc = hprobe_positive(root, "memory", "ns_per_op", &out->mem_ns,
				     err);
	/* No fsync part when the hook knew no data directory. */
	fsync = json_object_get(root, "fsync");
	if (rc == 0 && fsync && !json_is_null(fsync))
		rc = hprobe_positive(root, "fsync", "us_median",
				     &out->fsync_us_median, err);
	t = json_object_get(root, "time");
	if (rc == 0 && json_is_number(t))
		out->time_s = json_number_value(t);
	/* optional: older probes did not look at the rest of the machine */
	guest = json_object_get(json_object_get(root, "guest"),
				"others_busy_pct");
	if (rc == 0 && json_is_number(guest))
		out->others_busy_pct = json_number_value(guest);
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
