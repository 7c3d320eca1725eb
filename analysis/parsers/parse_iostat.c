/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_iostat.c - iostat text or JSON to per-device series (see
 * parse_iostat.h for the accepted variants).
 *
 * Both formats go through one table that maps sysstat's column names
 * (and their renames across versions) to the fields of a sample, with a
 * scale for unit changes (sectors and MB to kB). Text is read line by
 * line; JSON is loaded with jansson, and input cut short is closed after
 * the last complete report before it is loaded.
 */
#include "analysis/parsers/parse_iostat.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/parsers/textline.h"

#define IOSTAT_TOKENS_MAX 64 /* sysstat 12 prints 22 columns */
#define IOSTAT_JSON_DEPTH 64 /* iostat nests 6 deep */

/* The fields of struct iostat_sample that come from columns. */
enum iostat_field {
	IOF_R_S,     /* r/s */
	IOF_W_S,     /* w/s */
	IOF_RKB,     /* kB read per second */
	IOF_WKB,     /* kB written per second */
	IOF_R_AWAIT, /* r_await */
	IOF_W_AWAIT, /* w_await */
	IOF_AWAIT,   /* await (before sysstat split it) */
	IOF_AQU,     /* queue length */
	IOF_UTIL,    /* utilisation, percent */
	IOF_NR,
};

/* One column name sysstat has printed, and where it goes. */
struct iostat_col {
	const char *name;	 /* header word or JSON key */
	enum iostat_field field; /* sample field it fills */
	double scale;		 /* multiply by this to get the field's unit */
};

static const struct iostat_col iostat_cols[] = {
	{"r/s", IOF_R_S, 1},
	{"w/s", IOF_W_S, 1},
	{"rkB/s", IOF_RKB, 1},
	{"rsec/s", IOF_RKB, 0.5}, /* 512-byte sectors, sysstat 9 */
	{"rMB/s", IOF_RKB, 1024},
	{"kB_read/s", IOF_RKB, 1}, /* iostat without -x */
	{"MB_read/s", IOF_RKB, 1024},
	{"wkB/s", IOF_WKB, 1},
	{"wsec/s", IOF_WKB, 0.5},
	{"wMB/s", IOF_WKB, 1024},
	{"kB_wrtn/s", IOF_WKB, 1},
	{"MB_wrtn/s", IOF_WKB, 1024},
	{"r_await", IOF_R_AWAIT, 1},
	{"w_await", IOF_W_AWAIT, 1},
	{"await", IOF_AWAIT, 1},
	{"aqu-sz", IOF_AQU, 1},
	{"avgqu-sz", IOF_AQU, 1}, /* before sysstat 12 */
	{"%util", IOF_UTIL, 1},
	{"util", IOF_UTIL, 1}, /* JSON drops the % */
};

/* Table entry for a column name, or NULL. */
static const struct iostat_col *iostat_col_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(iostat_cols) / sizeof(iostat_cols[0]); i++)
		if (strcmp(iostat_cols[i].name, name) == 0)
			return &iostat_cols[i];
	return NULL;
}

/*
 * A plain decimal number. A decimal comma (iostat run in a locale that
 * uses one) is read as a point.
 */
static bool iostat_number(char *s, double *v)
{
	char *p = s, *comma = NULL;
	bool digits = false, dot = false;
	char *end;

	if (*p == '-')
		p++;
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			digits = true;
		} else if ((*p == '.' || *p == ',') && !dot) {
			dot = true;
			if (*p == ',')
				comma = p;
		} else {
			return false;
		}
	}
	if (!digits)
		return false;
	if (comma)
		*comma = '.';
	errno = 0;
	*v = strtod(s, &end);
	return errno == 0 && *end == '\0' && isfinite(*v);
}

/* Fill the struct tm fields; false when out of range. */
static bool iostat_tm(struct tm *tm, int y, int mo, int d, int h, int mi, int s)
{
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 ||
	    h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60)
		return false;
	memset(tm, 0, sizeof(*tm));
	tm->tm_year = y - 1900;
	tm->tm_mon = mo - 1;
	tm->tm_mday = d;
	tm->tm_hour = h;
	tm->tm_min = mi;
	tm->tm_sec = s;
	tm->tm_isdst = -1;
	return true;
}

/* ISO 8601 "YYYY-MM-DDTHH:MM:SS" with "Z", "+HHMM", "+HH:MM" or nothing. */
static bool iostat_time_iso(const char *s, int64_t *t)
{
	int y, mo, d, h, mi, sec, n = 0, oh, om, n2 = 0;
	const char *z;
	struct tm tm;
	time_t v;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec,
		   &n) != 6 ||
	    !iostat_tm(&tm, y, mo, d, h, mi, sec))
		return false;
	z = s + n;
	if (*z == '\0') {
		v = mktime(&tm);
	} else if (strcmp(z, "Z") == 0) {
		v = timegm(&tm);
	} else if (*z == '+' || *z == '-') {
		if (!((sscanf(z + 1, "%2d%2d%n", &oh, &om, &n2) == 2 &&
		       n2 == 4 && z[5] == '\0') ||
		      (sscanf(z + 1, "%2d:%2d%n", &oh, &om, &n2) == 2 &&
		       n2 == 5 && z[6] == '\0')) ||
		    oh > 23 || om > 59 || oh < 0 || om < 0)
			return false;
		v = timegm(&tm);
		if (v != (time_t)-1)
			v -= (*z == '+' ? 1 : -1) *
			     (time_t)(oh * 3600 + om * 60);
	} else {
		return false;
	}
	if (v == (time_t)-1)
		return false;
	*t = (int64_t)v;
	return true;
}

/*
 * A report timestamp: one ISO token, or "MM/DD/YY[YY] HH:MM:SS [AM|PM]"
 * (sysstat's locale format) taken as local time.
 */
static bool iostat_time(char **tok, size_t ntok, int64_t *t)
{
	int y, mo, d, h, mi, s, n1 = 0, n2 = 0;
	struct tm tm;
	time_t v;

	if (ntok == 1)
		return iostat_time_iso(tok[0], t);
	if (ntok != 2 && ntok != 3)
		return false;
	if (sscanf(tok[0], "%2d/%2d/%4d%n", &mo, &d, &y, &n1) != 3 ||
	    tok[0][n1] != '\0' ||
	    sscanf(tok[1], "%2d:%2d:%2d%n", &h, &mi, &s, &n2) != 3 ||
	    tok[1][n2] != '\0')
		return false;
	if (n1 == 8) /* two-digit year */
		y += y < 70 ? 2000 : 1900;
	if (ntok == 3) {
		if (h < 1 || h > 12)
			return false;
		if (strcmp(tok[2], "AM") == 0)
			h = h == 12 ? 0 : h;
		else if (strcmp(tok[2], "PM") == 0)
			h = h == 12 ? 12 : h + 12;
		else
			return false;
	}
	if (!iostat_tm(&tm, y, mo, d, h, mi, s))
		return false;
	v = mktime(&tm);
	if (v == (time_t)-1)
		return false;
	*t = (int64_t)v;
	return true;
}

/* The device named name, created (empty) when new; NULL on ENOMEM. */
static struct iostat_device *iostat_dev_get(struct iostat_data *d,
					    const char *name)
{
	struct iostat_device *dev;
	size_t i, cap;

	for (i = 0; i < d->ndevices; i++)
		if (strcmp(d->devices[i].name, name) == 0)
			return &d->devices[i];
	if (d->ndevices == d->cap) {
		cap = d->cap ? d->cap * 2 : 8;
		dev = reallocarray(d->devices, cap, sizeof(*dev));
		if (!dev)
			return NULL;
		d->devices = dev;
		d->cap = cap;
	}
	dev = &d->devices[d->ndevices];
	memset(dev, 0, sizeof(*dev));
	dev->name = strdup(name);
	if (!dev->name)
		return NULL;
	d->ndevices++;
	return dev;
}

/* Turn the raw fields into a sample (derived await) and append it. */
static int iostat_add(struct iostat_data *d, const char *name,
		      const double *raw, int64_t time_s)
{
	struct iostat_device *dev = iostat_dev_get(d, name);
	struct iostat_sample *smp;
	double ios;
	size_t cap;

	if (!dev)
		return -ENOMEM;
	if (dev->nsamples == dev->cap) {
		cap = dev->cap ? dev->cap * 2 : 64;
		smp = reallocarray(dev->samples, cap, sizeof(*smp));
		if (!smp)
			return -ENOMEM;
		dev->samples = smp;
		dev->cap = cap;
	}
	smp = &dev->samples[dev->nsamples++];
	smp->time_s = time_s;
	smp->r_s = raw[IOF_R_S];
	smp->w_s = raw[IOF_W_S];
	smp->rkb_s = raw[IOF_RKB];
	smp->wkb_s = raw[IOF_WKB];
	smp->r_await_ms = raw[IOF_R_AWAIT];
	smp->w_await_ms = raw[IOF_W_AWAIT];
	smp->aqu_sz = raw[IOF_AQU];
	smp->util_pct = raw[IOF_UTIL];
	smp->await_ms = raw[IOF_AWAIT];
	if (isnan(smp->await_ms) && !isnan(smp->r_await_ms) &&
	    !isnan(smp->w_await_ms) && !isnan(smp->r_s) && !isnan(smp->w_s)) {
		ios = smp->r_s + smp->w_s;
		smp->await_ms = ios > 0 ? (smp->r_await_ms * smp->r_s +
					   smp->w_await_ms * smp->w_s) /
						  ios
					: 0;
	}
	return 0;
}

/* Column layout of the current text report. */
struct iostat_text {
	size_t nhdr; /* tokens in the header, Device included */
	const struct iostat_col *map[IOSTAT_TOKENS_MAX]; /* per token */
	bool in_block;	 /* between a header and the next blank line */
	bool have_time;	 /* a timestamp line came since the last report */
	bool all_timed;	 /* every report so far had a timestamp */
	int64_t time_s;	 /* that timestamp */
	bool cpu_values; /* the next line holds avg-cpu values */
};

/* A "Device" header with at least one known column: fill the map. */
static bool iostat_text_header(struct iostat_text *st, char **tok, size_t ntok)
{
	size_t i, known = 0;

	if (ntok < 2 ||
	    (strcmp(tok[0], "Device") != 0 && strcmp(tok[0], "Device:") != 0))
		return false;
	for (i = 1; i < ntok; i++) {
		st->map[i] = iostat_col_find(tok[i]);
		known += st->map[i] != NULL;
	}
	if (!known)
		return false;
	st->nhdr = ntok;
	return true;
}

/* A device line of the current block: 0, 1 if bad, or a negative errno. */
static int iostat_text_device(struct iostat_text *st, struct iostat_data *d,
			      char **tok, size_t ntok)
{
	double raw[IOF_NR], v;
	size_t i;

	if (ntok != st->nhdr)
		return 1;
	for (i = 0; i < IOF_NR; i++)
		raw[i] = NAN;
	for (i = 1; i < ntok; i++) {
		if (!iostat_number(tok[i], &v))
			return 1;
		if (st->map[i])
			raw[st->map[i]->field] = v * st->map[i]->scale;
	}
	return iostat_add(d, tok[0], raw, st->time_s);
}

static int iostat_parse_text(FILE *f, struct iostat_data *out, struct err *err)
{
	struct textline tl = {0};
	struct iostat_text st = {.all_timed = true};
	char *tok[IOSTAT_TOKENS_MAX];
	size_t ntok, nsamples = 0;
	bool seen_header = false;
	int64_t t;
	int rc;

	while ((rc = textline_read(&tl, f, err)) > 0) {
		if (textline_has_nul(&tl)) {
			out->bad_lines++;
			continue;
		}
		ntok = textline_split(tl.line, tok, IOSTAT_TOKENS_MAX);
		if (ntok == 0) {
			st.in_block = false;
			st.cpu_values = false;
			continue;
		}
		if (!tl.complete || ntok == SIZE_MAX) {
			out->bad_lines++;
			continue;
		}
		if (strcmp(tok[0], "avg-cpu:") == 0) {
			st.in_block = false;
			st.cpu_values = true;
			continue;
		}
		if (st.cpu_values) {
			st.cpu_values = false;
			continue;
		}
		if (iostat_text_header(&st, tok, ntok)) {
			seen_header = true;
			st.in_block = true;
			out->reports++;
			if (!st.have_time) {
				st.all_timed = false;
				st.time_s = 0;
			}
			st.have_time = false;
			continue;
		}
		if (st.in_block) {
			rc = iostat_text_device(&st, out, tok, ntok);
			if (rc < 0) {
				err_set(err, rc, "line %zu: out of memory",
					tl.lineno);
				goto out;
			}
			out->bad_lines += (size_t)rc;
			nsamples += rc == 0;
			rc = 0;
			continue;
		}
		if (iostat_time(tok, ntok, &t)) {
			st.have_time = true;
			st.time_s = t;
			continue;
		}
		/* The banner: "Linux 6.1.0 (host) <date> _x86_64_ (2 CPU)". */
		if (!seen_header && strcmp(tok[0], "Linux") == 0)
			continue;
		out->bad_lines++;
	}
	if (rc < 0)
		goto out;
	if (!seen_header) {
		rc = err_set(err, -EINVAL,
			     "no iostat \"Device\" header with a known column");
		goto out;
	}
	if (nsamples == 0) {
		rc = err_set(err, -ENODATA,
			     "no iostat device line (%zu bad lines)",
			     out->bad_lines);
		goto out;
	}
	out->has_time = st.all_timed;
out:
	textline_free(&tl);
	return rc;
}

/* Read the rest of f into a malloc'd buffer. */
static int iostat_slurp(FILE *f, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *b = malloc(cap), *nb;

	if (!b)
		return -ENOMEM;
	for (;;) {
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		nb = cap > SIZE_MAX / 2 ? NULL : realloc(b, cap * 2);
		if (!nb) {
			free(b);
			return -ENOMEM;
		}
		b = nb;
		cap *= 2;
	}
	if (ferror(f)) {
		free(b);
		return -EIO;
	}
	*buf = b;
	*len = n;
	return 0;
}

/*
 * Where to cut JSON that ended early: just after the last complete
 * element of a "statistics" array. Writes the brackets that close what is
 * open there into closers (NUL-terminated) and returns the cut length, or
 * 0 when there is no such element or the brackets do not match.
 */
static size_t iostat_json_cut(const char *buf, size_t len, char *closers)
{
	char stack[IOSTAT_JSON_DEPTH];
	bool stats[IOSTAT_JSON_DEPTH];
	size_t depth = 0, best = 0, str = 0, last_str = 0, last_len = 0, i, j;
	bool in_str = false, esc = false, pending = false;

	for (i = 0; i < len; i++) {
		char c = buf[i];

		if (in_str) {
			if (esc) {
				esc = false;
			} else if (c == '\\') {
				esc = true;
			} else if (c == '"') {
				in_str = false;
				last_str = str;
				last_len = i - str;
			}
			continue;
		}
		switch (c) {
		case '"':
			in_str = true;
			str = i + 1;
			break;
		case ':':
			pending = last_len == 10 &&
				  memcmp(buf + last_str, "statistics", 10) == 0;
			break;
		case '{':
		case '[':
			if (depth == IOSTAT_JSON_DEPTH)
				return 0;
			stack[depth] = c;
			stats[depth] = c == '[' && pending;
			depth++;
			pending = false;
			break;
		case '}':
		case ']':
			if (depth == 0 ||
			    stack[depth - 1] != (c == '}' ? '{' : '['))
				return 0;
			depth--;
			pending = false;
			if (c == '}' && depth > 0 && stats[depth - 1]) {
				best = i + 1;
				for (j = 0; j < depth; j++)
					closers[j] = stack[depth - 1 - j] == '{'
							     ? '}'
							     : ']';
				closers[depth] = '\0';
			}
			break;
		case ',':
			pending = false;
			break;
		default:
			break;
		}
	}
	return best;
}

/* One entry of a "disk" array: 0, 1 if bad, or a negative errno. */
static int iostat_json_disk(struct iostat_data *d, json_t *disk, int64_t time_s)
{
	const struct iostat_col *col;
	double raw[IOF_NR];
	const char *key, *name;
	json_t *val;
	size_t i;

	if (!json_is_object(disk))
		return 1;
	name = json_string_value(json_object_get(disk, "disk_device"));
	if (!name || !*name)
		return 1;
	for (i = 0; i < IOF_NR; i++)
		raw[i] = NAN;
	json_object_foreach(disk, key, val)
	{
		col = iostat_col_find(key);
		if (!col)
			continue;
		if (!json_is_number(val))
			return 1;
		raw[col->field] = json_number_value(val) * col->scale;
	}
	return iostat_add(d, name, raw, time_s);
}

/* Walk sysstat.hosts[].statistics[] of a loaded document. */
static int iostat_json_walk(json_t *root, struct iostat_data *out,
			    size_t *nsamples, struct err *err)
{
	json_t *hosts, *host, *stats, *stat, *disks, *disk, *ts;
	char tsbuf[64], *tok[4];
	size_t h, s, k, ntok;
	bool all_timed = true;
	int64_t t;
	int rc;

	hosts = json_object_get(json_object_get(root, "sysstat"), "hosts");
	if (!json_is_array(hosts))
		return err_set(err, -EINVAL, "JSON has no sysstat.hosts array");
	json_array_foreach(hosts, h, host)
	{
		stats = json_object_get(host, "statistics");
		if (!json_is_array(stats)) {
			out->bad_lines++;
			continue;
		}
		json_array_foreach(stats, s, stat)
		{
			disks = json_object_get(stat, "disk");
			if (!json_is_array(disks))
				continue; /* an avg-cpu only report */
			out->reports++;
			t = 0;
			ts = json_object_get(stat, "timestamp");
			if (json_is_string(ts) &&
			    json_string_length(ts) < sizeof(tsbuf)) {
				strcpy(tsbuf, json_string_value(ts));
				ntok = textline_split(tsbuf, tok, 4);
				if (ntok == SIZE_MAX ||
				    !iostat_time(tok, ntok, &t))
					all_timed = false;
			} else {
				all_timed = false;
			}
			json_array_foreach(disks, k, disk)
			{
				rc = iostat_json_disk(out, disk, t);
				if (rc < 0)
					return err_set(err, rc,
						       "out of memory");
				out->bad_lines += (size_t)rc;
				*nsamples += rc == 0;
			}
		}
	}
	out->has_time = out->reports > 0 && all_timed;
	return 0;
}

static int iostat_parse_json(FILE *f, struct iostat_data *out, struct err *err)
{
	char closers[IOSTAT_JSON_DEPTH + 1], *buf, *fixed = NULL;
	size_t len, cut, nsamples = 0;
	json_error_t jerr;
	json_t *root;
	int rc;

	rc = iostat_slurp(f, &buf, &len);
	if (rc)
		return err_set(err, rc, "reading iostat JSON: %s",
			       strerror(-rc));
	out->json = true;
	root = json_loadb(buf, len, 0, &jerr);
	if (!root) {
		cut = iostat_json_cut(buf, len, closers);
		if (cut > 0) {
			fixed = malloc(cut + sizeof(closers));
			if (!fixed) {
				free(buf);
				return err_set(err, -ENOMEM, "out of memory");
			}
			memcpy(fixed, buf, cut);
			strcpy(fixed + cut, closers);
			root = json_loads(fixed, 0, NULL);
			free(fixed);
			out->truncated = root != NULL;
		}
	}
	free(buf);
	if (!root)
		return err_set(err, -EINVAL,
			       "bad iostat JSON at line %d column %d: %s",
			       jerr.line, jerr.column, jerr.text);
	rc = iostat_json_walk(root, out, &nsamples, err);
	json_decref(root);
	if (rc == 0 && nsamples == 0)
		rc = err_set(err, -ENODATA, "no device in the iostat JSON");
	return rc;
}

int parse_iostat(FILE *f, struct iostat_data *out, struct err *err)
{
	int c, rc;

	memset(out, 0, sizeof(*out));
	do {
		c = getc(f);
	} while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	if (c == EOF) {
		if (ferror(f))
			return err_set(err, -EIO, "read error");
		return err_set(err, -ENODATA, "empty iostat output");
	}
	if (ungetc(c, f) == EOF)
		return err_set(err, -EIO, "read error");
	if (c == '{')
		rc = iostat_parse_json(f, out, err);
	else
		rc = iostat_parse_text(f, out, err);
	if (rc)
		parse_iostat_free(out);
	return rc;
}

/* parse_iostat() with the out that textline_parse_file() hands on. */
static int iostat_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_iostat(f, out, err);
}

int parse_iostat_file(const char *path, struct iostat_data *out,
		      struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, iostat_parse_stream, out, err);
}

void parse_iostat_free(struct iostat_data *d)
{
	size_t i;

	for (i = 0; i < d->ndevices; i++) {
		free(d->devices[i].name);
		free(d->devices[i].samples);
	}
	free(d->devices);
	memset(d, 0, sizeof(*d));
}

const struct iostat_device *parse_iostat_device(const struct iostat_data *d,
						const char *name)
{
	size_t i;

	for (i = 0; i < d->ndevices; i++)
		if (strcmp(d->devices[i].name, name) == 0)
			return &d->devices[i];
	return NULL;
}
