/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resfile.c - format tags, the version policy, loading, getters and the
 * writer of oltpmark's JSON result files (resfile.h).
 *
 * Messages give line and column, never jansson's own wording, which
 * changes between versions (and the golden outputs of compare hold these
 * messages).
 */
#include "src/base/resfile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "src/base/atomic_file.h"

/* What the policy needs to know of one format. */
struct resfile_info {
	const char *tag;  /* what this version writes */
	bool untagged_ok; /* a file without "format" is read as tag */
};

static const struct resfile_info resfile_infos[RESFILE_NR] = {
	[RESFILE_RUN] = {RESFILE_TAG_RUN, true},
	[RESFILE_META] = {RESFILE_TAG_META, true},
	[RESFILE_SUMMARY] = {RESFILE_TAG_SUMMARY, true},
	[RESFILE_PROBE] = {RESFILE_TAG_PROBE, false},
	[RESFILE_COMPARE] = {RESFILE_TAG_COMPARE, false},
	[RESFILE_IOPROFILE] = {RESFILE_TAG_IOPROFILE, false},
	[RESFILE_MACHINE] = {RESFILE_TAG_MACHINE, false},
};

const char *resfile_tag(enum resfile_format fmt)
{
	return (unsigned)fmt < RESFILE_NR ? resfile_infos[fmt].tag : "?";
}

/* A decimal number of at most 9 digits at *s, advancing *s. */
static bool resfile_digits(const char **s, unsigned *out)
{
	const char *p = *s;
	unsigned v = 0;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p)) {
		if (p - *s >= 9)
			return false;
		v = v * 10 + (unsigned)(*p++ - '0');
	}
	*out = v;
	*s = p;
	return true;
}

/*
 * Split tag "FAMILY/MAJOR" or "FAMILY/MAJOR.MINOR": the family's length
 * and the major version. false when tag has no such shape.
 */
static bool resfile_split_tag(const char *tag, size_t *family_len,
			      unsigned *major)
{
	const char *slash = strrchr(tag, '/'), *p;
	unsigned minor;

	if (!slash || slash == tag)
		return false;
	p = slash + 1;
	if (!resfile_digits(&p, major))
		return false;
	if (*p == '.' && (p++, !resfile_digits(&p, &minor)))
		return false;
	if (*p)
		return false;
	*family_len = (size_t)(slash - tag);
	return true;
}

/* err_set() with "name: " in front when name is given. */
static int resfile_err(struct err *err, int code, const char *name,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int resfile_err(struct err *err, int code, const char *name,
		       const char *fmt, ...)
{
	char msg[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!name)
		return err_set(err, code, "%s", msg);
	return err_set(err, code, "%s: %s", name, msg);
}

/* What a non-string "format" is, for the message. */
static const char *resfile_json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	default:
		return "a string";
	}
}

int resfile_check(const json_t *root, enum resfile_format fmt, const char *name,
		  struct err *err)
{
	const struct resfile_info *info;
	const json_t *f;
	const char *found;
	size_t want_len, found_len;
	unsigned want_major, found_major;

	if ((unsigned)fmt >= RESFILE_NR)
		return resfile_err(err, -EINVAL, name, "unknown format");
	info = &resfile_infos[fmt];
	if (!json_is_object(root))
		return resfile_err(err, -EBADMSG, name, "not a JSON object");
	f = json_object_get(root, "format");
	if (!f) {
		if (info->untagged_ok)
			return 0;
		return resfile_err(err, -EBADMSG, name,
				   "no \"format\" (a %s file has one)",
				   info->tag);
	}
	/* the table's own tags always split */
	resfile_split_tag(info->tag, &want_len, &want_major);
	if (!json_is_string(f))
		return resfile_err(err, -EBADMSG, name,
				   "format is not %s: \"format\" is %s",
				   info->tag, resfile_json_kind(f));
	found = json_string_value(f);
	if (resfile_split_tag(found, &found_len, &found_major) &&
	    found_len == want_len && strncmp(found, info->tag, want_len) == 0) {
		if (found_major == want_major)
			return 0;
		return resfile_err(
			err, -EBADMSG, name,
			"format is not %s (this oltpmark reads %u and %u.N): "
			"found \"%s\", written by %s oltpmark",
			info->tag, want_major, want_major, found,
			found_major > want_major ? "a newer" : "an older");
	}
	return resfile_err(err, -EBADMSG, name,
			   "format is not %s: found \"%s\"", info->tag, found);
}

/*
 * How jansson failed, by its error code where it has one (2.11 and
 * later); older versions only ever say "invalid JSON".
 */
enum resfile_json_fault {
	RESFILE_JSON_INVALID,	/* any other damage */
	RESFILE_JSON_CUT_SHORT, /* the input ended before the JSON did */
	RESFILE_JSON_DUPLICATE, /* a key given twice in one object */
};

static enum resfile_json_fault resfile_fault(const json_error_t *jerr)
{
#if JANSSON_VERSION_HEX >= 0x020b00
	switch (json_error_code(jerr)) {
	case json_error_premature_end_of_input:
		return RESFILE_JSON_CUT_SHORT;
	case json_error_duplicate_key:
		return RESFILE_JSON_DUPLICATE;
	default:
		return RESFILE_JSON_INVALID;
	}
#else
	(void)jerr;
	return RESFILE_JSON_INVALID;
#endif
}

/*
 * Skip the blanks before the JSON so that an empty file is told from a
 * cut one. 0 with *lines the newlines skipped, -ENODATA at EOF, -EIO.
 */
static int resfile_skip_blanks(FILE *f, int *lines)
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

int resfile_parse(FILE *f, const char *name, json_t **out, struct err *err)
{
	json_error_t jerr;
	json_t *root;
	int skipped, rc;

	*out = NULL;
	rc = resfile_skip_blanks(f, &skipped);
	if (rc == -ENODATA)
		return resfile_err(err, rc, name, "empty file");
	if (rc < 0)
		return resfile_err(err, rc, name, "read error");
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		enum resfile_json_fault fault = resfile_fault(&jerr);

		if (ferror(f))
			return resfile_err(err, -EIO, name, "read error");
		if (fault == RESFILE_JSON_CUT_SHORT)
			return resfile_err(err, -EBADMSG, name,
					   "JSON cut short (line %d)",
					   jerr.line + skipped);
		if (fault == RESFILE_JSON_DUPLICATE)
			return resfile_err(err, -EBADMSG, name,
					   "duplicate key (line %d)",
					   jerr.line + skipped);
		return resfile_err(err, -EBADMSG, name,
				   "invalid JSON (line %d, column %d)",
				   jerr.line + skipped, jerr.column);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return resfile_err(err, -EBADMSG, name, "not a JSON object");
	}
	*out = root;
	return 0;
}

int resfile_load(const char *path, const char *name, json_t **out,
		 struct err *err)
{
	FILE *f;
	int rc;

	*out = NULL;
	f = fopen(path, "r");
	if (!f) {
		rc = -errno;
		return resfile_err(err, rc, name, "%s", strerror(-rc));
	}
	rc = resfile_parse(f, name, out, err);
	fclose(f);
	return rc;
}

int resfile_read(const char *path, const char *name, enum resfile_format fmt,
		 json_t **out, struct err *err)
{
	int rc = resfile_load(path, name, out, err);

	if (rc == 0) {
		rc = resfile_check(*out, fmt, name, err);
		if (rc < 0) {
			json_decref(*out);
			*out = NULL;
		}
	}
	return rc;
}

int resfile_dump(const json_t *obj, FILE *f)
{
	if (json_dumpf(obj, f, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) < 0 ||
	    fputc('\n', f) == EOF || ferror(f))
		return -EIO;
	return 0;
}

int resfile_write_json(const char *path, const json_t *obj, struct err *err)
{
	struct atomic_file af;
	int rc;

	rc = atomic_file_open(&af, path, err);
	if (rc < 0)
		return rc;
	rc = resfile_dump(obj, af.f);
	if (rc < 0)
		err_set(err, rc, "cannot write %s", af.tmp);
	return atomic_file_close(&af, rc, err);
}

/* obj's member key, NULL when absent or null. */
static const json_t *resfile_member(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_null(v) ? NULL : v;
}

json_t *resfile_real(double x, int decimals)
{
	double scale, r = x;

	if (!isfinite(x))
		return json_null();
	if (decimals >= 0) {
		scale = pow(10.0, decimals);
		r = round(x * scale) / scale;
	}
	return json_real(r == 0 ? 0 : r);
}

double resfile_number(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

double resfile_get_number(const json_t *obj, const char *key)
{
	return resfile_number(resfile_member(obj, key));
}

int64_t resfile_get_count(const json_t *obj, const char *key)
{
	const json_t *v = resfile_member(obj, key);
	double r;

	if (json_is_integer(v))
		return json_integer_value(v) < 0
			       ? -1
			       : (int64_t)json_integer_value(v);
	if (!json_is_real(v))
		return -1;
	r = json_real_value(v);
	/* 2^63 is the first double past INT64_MAX */
	if (!(r >= 0) || r >= 9223372036854775808.0)
		return -1;
	return (int64_t)r;
}

const char *resfile_get_string(const json_t *obj, const char *key)
{
	const json_t *v = resfile_member(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

const json_t *resfile_get_first(const json_t *obj, const char *const *keys)
{
	const json_t *v;

	for (; *keys; keys++) {
		v = resfile_member(obj, *keys);
		if (v)
			return v;
	}
	return NULL;
}

int resfile_truth_str(const char *s)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

int resfile_truth(const json_t *v)
{
	if (json_is_boolean(v))
		return json_is_true(v);
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		return i == 0 || i == 1 ? (int)i : -1;
	}
	if (json_is_string(v))
		return resfile_truth_str(json_string_value(v));
	return -1;
}

int resfile_get_truth(const json_t *obj, const char *key)
{
	return resfile_truth(json_object_get(obj, key));
}

bool resfile_meta_diagnostic(const json_t *meta)
{
	return resfile_get_truth(meta, "diagnostic") == 1 ||
	       resfile_get_truth(json_object_get(meta, "options"),
				 "diagnostic") == 1 ||
	       resfile_get_truth(json_object_get(meta, "notes"),
				 "diagnostic") == 1;
}
