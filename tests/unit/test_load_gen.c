/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_load_gen.c - the population rules of clause 4.3.3.1, checked on
 * what the loader's generator writes, without a database. The loader
 * streams PostgreSQL's binary COPY format; a small decoder here checks
 * every tuple against the column types of schema/tables.sql (field count,
 * lengths, NULL only where allowed, numeric digits and dscale, whole-second
 * timestamps) and turns it back into COPY text, on which the rules are
 * checked: every range and length, the 10 % ORIGINAL and BC shares,
 * C_LAST, the O_C_ID permutation, carrier and delivery rules, NEW-ORDER
 * 2101..3000. The text format must be exactly that decoded text, and a
 * few encodings are compared with the bytes PostgreSQL's own send
 * functions give. Also: the COPY column lists against tables.sql, and
 * reproducibility.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/load/load.h"
#include "src/load/schema_sql.h"
#include "src/base/tpcc_random.h"

#define NOW	   "2025-03-04 05:06:07"
#define MAX_FIELDS 24

/* A sink that keeps everything in one growing buffer. */
struct collect {
	struct load_sink sink;	 /* must be first */
	enum load_format format; /* what the generator writes */
	char *all;		 /* every byte flushed so far */
	size_t len;		 /* bytes in all */
	size_t cap;		 /* size of all */
	int flushes;		 /* calls of flush */
	int fail_after;		 /* >0: return -EINTR at this flush */
	size_t *ends;		 /* len after each flush, flushes of them */
	size_t ends_cap;	 /* room in ends */
	char *text;		 /* binary decoded to COPY text, or NULL */
	size_t rows;		 /* rows decoded */
};

static int collect_flush(struct load_sink *s)
{
	struct collect *c = (struct collect *)s;

	c->flushes++;
	if (c->fail_after && c->flushes >= c->fail_after)
		return -EINTR;
	assert_true(s->len > 0);
	/* Whole rows only: a flushed text buffer always ends a line. */
	if (c->format == LOAD_FORMAT_TEXT)
		assert_int_equal(s->buf[s->len - 1], '\n');
	if (c->len + s->len + 1 > c->cap) {
		c->cap = (c->len + s->len + 1) * 2;
		c->all = realloc(c->all, c->cap);
		assert_non_null(c->all);
	}
	memcpy(c->all + c->len, s->buf, s->len);
	c->len += s->len;
	c->all[c->len] = '\0';
	s->len = 0;
	/* binary: the decoder checks each end is a row boundary */
	if ((size_t)c->flushes > c->ends_cap) {
		c->ends_cap = c->ends_cap ? c->ends_cap * 2 : 64;
		c->ends = realloc(c->ends, sizeof(*c->ends) * c->ends_cap);
		assert_non_null(c->ends);
	}
	c->ends[c->flushes - 1] = c->len;
	return 0;
}

static void collect_init(struct collect *c, size_t buf_bytes,
			 enum load_format format)
{
	memset(c, 0, sizeof(*c));
	c->sink.buf = malloc(buf_bytes);
	assert_non_null(c->sink.buf);
	c->sink.cap = buf_bytes;
	c->sink.flush = collect_flush;
	c->format = format;
}

static void collect_free(struct collect *c)
{
	free(c->sink.buf);
	free(c->all);
	free(c->ends);
	free(c->text);
}

static struct load_gen_params params(uint64_t seed, enum load_format format)
{
	struct load_gen_params p = {
		.seed = seed, .c_load = 157, .format = format};

	memcpy(p.now, NOW, sizeof(NOW));
	return p;
}

/* One COPY stream of table t, warehouse w, into c (a fresh collector). */
static void generate_format(struct collect *c, const struct load_gen_params *p,
			    enum load_table t, int w, size_t buf_bytes)
{
	collect_init(c, buf_bytes, p->format);
	assert_int_equal(load_gen_begin(p, &c->sink), 0);
	assert_int_equal(load_gen_table(p, t, w, &c->sink), 0);
	assert_int_equal(c->sink.len, 0);
	assert_int_equal(load_gen_end(p, &c->sink), 0);
	assert_int_equal(c->sink.len, 0);
	assert_non_null(c->all);
}

static void generate(struct collect *c, uint64_t seed, enum load_table t, int w,
		     size_t buf_bytes, enum load_format format)
{
	struct load_gen_params p = params(seed, format);

	generate_format(c, &p, t, w, buf_bytes);
}

/* The column types of schema/tables.sql. */
enum col_type {
	COL_INT,       /* integer */
	COL_STR,       /* varchar(n) */
	COL_NUMERIC,   /* numeric(precision, scale) */
	COL_TIMESTAMP, /* timestamp (without time zone) */
};

/* One column as tables.sql declares it. */
struct col {
	char name[64];	    /* column name */
	enum col_type type; /* its type */
	int n;		    /* COL_STR: length; COL_NUMERIC: precision */
	int scale;	    /* COL_NUMERIC: digits after the point */
	bool fixed;	    /* COL_STR: marked "-- fixed": exactly n */
	bool nullable;	    /* no NOT NULL */
};

/* The columns of table t from tables.sql, in order; returns the count. */
static int table_columns(enum load_table t, struct col *cols)
{
	const char *name = load_table_info(t)->name;
	char head[64];
	const char *s;
	int n = 0;

	snprintf(head, sizeof(head), "CREATE TABLE %s (", name);
	s = strstr(schema_tables_sql, head);
	if (!s)
		fail_msg("tables.sql has no '%s'", head);
	s += strlen(head);
	/* One column per line: name, type, maybe NOT NULL. */
	while ((s = strchr(s, '\n')) && s[1] != ')') {
		struct col *c = &cols[n];
		char type[32], line[256];
		size_t len;

		s++;
		len = strcspn(s, "\n");
		assert_true(len < sizeof(line));
		memcpy(line, s, len);
		line[len] = '\0';
		memset(c, 0, sizeof(*c));
		if (sscanf(line, " %63[a-z0-9_] %31[a-z]", c->name, type) != 2)
			continue;
		assert_true(n < MAX_FIELDS);
		c->nullable = !strstr(line, "NOT NULL");
		if (!strcmp(type, "integer")) {
			c->type = COL_INT;
		} else if (!strcmp(type, "varchar")) {
			c->type = COL_STR;
			c->fixed = strstr(line, "-- fixed") != NULL;
			assert_int_equal(
				sscanf(strchr(line, '('), "(%d)", &c->n), 1);
		} else if (!strcmp(type, "numeric")) {
			c->type = COL_NUMERIC;
			assert_int_equal(sscanf(strchr(line, '('), "(%d,%d)",
						&c->n, &c->scale),
					 2);
		} else if (!strcmp(type, "timestamp")) {
			c->type = COL_TIMESTAMP;
		} else {
			fail_msg("tables.sql: unknown type in '%s'", line);
		}
		n++;
	}
	return n;
}

static uint32_t be32_at(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16_at(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static int64_t be64_at(const unsigned char *p)
{
	return (int64_t)((uint64_t)be32_at(p) << 32 | be32_at(p + 4));
}

/*
 * Date of day z counted from 1970-01-01 (the inverse of the generator's
 * days_from_civil, written the other way round on purpose).
 */
static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

/* timestamp: microseconds since 2000-01-01 as "YYYY-MM-DD HH:MM:SS". */
static int timestamp_text(int64_t pg_us, char *out)
{
	int64_t sec, days, rem;
	int y, m, d;

	if (pg_us % 1000000)
		fail_msg("timestamp %lld has fractional seconds",
			 (long long)pg_us);
	sec = pg_us / 1000000;
	days = (sec >= 0 ? sec : sec - 86399) / 86400;
	rem = sec - days * 86400;
	civil_from_days(days + 10957, &y, &m, &d);
	return sprintf(out, "%04d-%02d-%02d %02d:%02d:%02d", y, m, d,
		       (int)(rem / 3600), (int)(rem / 60 % 60),
		       (int)(rem % 60));
}

/*
 * numeric: int16 ndigits, weight, sign, dscale, then ndigits base-10000
 * digits. Checks the server's normal form (no leading or trailing zero
 * digits; zero has none, weight 0 and sign +), dscale = the column's
 * scale, and the precision; writes the value as numeric_out would.
 */
static int numeric_text(const unsigned char *p, int32_t len,
			const struct col *c, char *out)
{
	int nd = be16_at(p), weight = (int16_t)be16_at(p + 2);
	int sign = be16_at(p + 4), dscale = be16_at(p + 6), i;
	uint64_t v = 0, unit = 1, whole;
	int o = 0;

	assert_int_equal(len, 8 + 2 * nd);
	assert_true(sign == 0 || sign == 0x4000);
	assert_int_equal(dscale, c->scale);
	if (nd == 0) {
		assert_int_equal(weight, 0);
		assert_int_equal(sign, 0);
	} else {
		assert_int_not_equal(be16_at(p + 8), 0);
		assert_int_not_equal(be16_at(p + 8 + 2 * (nd - 1)), 0);
	}
	/* Value in 1/10000: no digit may lie beyond the first fraction. */
	assert_true(nd == 0 || weight - (nd - 1) >= -1);
	for (i = 0; i < nd; i++) {
		uint64_t digit = be16_at(p + 8 + 2 * i), pw = 1;
		int k;

		assert_true(digit < 10000);
		for (k = 0; k < weight - i + 1; k++)
			pw *= 10000;
		v += digit * pw;
	}
	for (i = 0; i < 4 - c->scale; i++)
		unit *= 10;
	/* dscale hides no digit */
	assert_int_equal(v % unit, 0);
	v /= unit;
	for (i = 0, unit = 1; i < c->scale; i++)
		unit *= 10;
	whole = v / unit;
	/* precision: at most n - scale digits before the point */
	for (i = 0; i < c->n - c->scale; i++)
		whole /= 10;
	assert_int_equal(whole, 0);
	if (sign)
		out[o++] = '-';
	o += sprintf(out + o, "%llu.%0*llu", (unsigned long long)(v / unit),
		     c->scale, (unsigned long long)(v % unit));
	return o;
}

/* Append n bytes to the growing text of c. */
static void text_append(struct collect *c, size_t *tcap, size_t *tlen,
			const char *s, size_t n)
{
	if (*tlen + n + 1 > *tcap) {
		*tcap = (*tlen + n + 1) * 2;
		c->text = realloc(c->text, *tcap);
		assert_non_null(c->text);
	}
	memcpy(c->text + *tlen, s, n);
	*tlen += n;
	c->text[*tlen] = '\0';
}

/*
 * The value of column col, len bytes at v in binary, as COPY text: into
 * out (64 bytes) for numbers and timestamps, v itself for strings.
 * Returns where the text is; its length goes to *n.
 */
static const char *field_text(const struct col *col, const unsigned char *v,
			      int32_t len, char *out, size_t *n)
{
	int32_t k;

	switch (col->type) {
	case COL_INT:
		assert_int_equal(len, 4);
		*n = (size_t)sprintf(out, "%d", (int32_t)be32_at(v));
		return out;
	case COL_STR:
		if (len > col->n || (col->fixed && len != col->n))
			fail_msg("%s: %d bytes", col->name, len);
		/* plain ASCII: the same bytes in COPY text */
		for (k = 0; k < len; k++)
			assert_true(v[k] > 0x20 && v[k] < 0x7f && v[k] != '\\');
		*n = (size_t)len;
		return (const char *)v;
	case COL_NUMERIC:
		*n = (size_t)numeric_text(v, len, col, out);
		return out;
	case COL_TIMESTAMP:
		assert_int_equal(len, 8);
		*n = (size_t)timestamp_text(be64_at(v), out);
		return out;
	}
	fail_msg("%s: no type", col->name);
	return NULL;
}

static const unsigned char copy_header[19] =
	"PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

/*
 * Decode the binary COPY stream in c->all (of table t) into c->text as
 * COPY text, checking the header, every tuple against the columns of
 * tables.sql, the trailer as the last two bytes, and that every flush
 * ended on a tuple boundary.
 */
static void decode(struct collect *c, enum load_table t)
{
	const unsigned char *b = (const unsigned char *)c->all;
	struct col cols[MAX_FIELDS];
	int ncols = table_columns(t, cols), end = 0, i;
	size_t pos = sizeof(copy_header), tcap = 0, tlen = 0;

	assert_true(c->len >= sizeof(copy_header) + 2);
	assert_memory_equal(b, copy_header, sizeof(copy_header));
	c->rows = 0;
	text_append(c, &tcap, &tlen, "", 0);
	for (;;) {
		int16_t nf;

		/* every flush ends before a tuple or the trailer */
		while (end < c->flushes && c->ends[end] == pos)
			end++;
		assert_true(end == c->flushes || c->ends[end] > pos);
		assert_true(pos + 2 <= c->len);
		nf = (int16_t)be16_at(b + pos);
		pos += 2;
		if (nf == -1)
			break;
		assert_int_equal(nf, ncols);
		for (i = 0; i < ncols; i++) {
			char out[64];
			const char *text;
			int32_t len;
			size_t n;

			assert_true(pos + 4 <= c->len);
			len = (int32_t)be32_at(b + pos);
			pos += 4;
			if (i)
				text_append(c, &tcap, &tlen, "\t", 1);
			if (len == -1) {
				if (!cols[i].nullable)
					fail_msg("NULL in %s", cols[i].name);
				text_append(c, &tcap, &tlen, "\\N", 2);
				continue;
			}
			assert_true(len >= 0 && pos + (size_t)len <= c->len);
			text = field_text(&cols[i], b + pos, len, out, &n);
			text_append(c, &tcap, &tlen, text, n);
			pos += (size_t)len;
		}
		text_append(c, &tcap, &tlen, "\n", 1);
		c->rows++;
	}
	/* the trailer ends the stream, and the last flush with it */
	assert_int_equal(pos, c->len);
	while (end < c->flushes && c->ends[end] == pos)
		end++;
	assert_int_equal(end, c->flushes);
}

/* Binary rows of table t, warehouse w, decoded into c->text. */
static void generate_rows(struct collect *c, uint64_t seed, enum load_table t,
			  int w, size_t buf_bytes)
{
	generate(c, seed, t, w, buf_bytes, LOAD_FORMAT_BINARY);
	decode(c, t);
}

/*
 * The raw bytes of field f of row r in the binary stream of c; the
 * length (-1: NULL) goes to *len.
 */
static const unsigned char *raw_field(const struct collect *c, size_t r, int f,
				      int32_t *len)
{
	const unsigned char *b = (const unsigned char *)c->all;
	size_t pos = sizeof(copy_header);
	int nf, i;

	for (;;) {
		assert_true(pos + 2 <= c->len);
		nf = (int16_t)be16_at(b + pos);
		assert_true(nf > f);
		pos += 2;
		for (i = 0; i < nf; i++) {
			*len = (int32_t)be32_at(b + pos);
			pos += 4;
			if (r == 0 && i == f)
				return b + pos;
			if (*len > 0)
				pos += (size_t)*len;
		}
		r--;
	}
}

/* Split the next line of *pos into fields (in place); NULL at the end. */
static int next_row(char **pos, char **f)
{
	char *line = *pos, *nl, *p;
	int n = 0;

	if (!line || !*line)
		return 0;
	nl = strchr(line, '\n');
	assert_non_null(nl);
	*nl = '\0';
	*pos = nl + 1;
	for (p = line;; p++) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p = '\0';
		assert_true(n < MAX_FIELDS);
	}
	return n;
}

static long num(const char *s, long lo, long hi)
{
	char *end;
	long v;

	assert_true(isdigit((unsigned char)s[0]));
	v = strtol(s, &end, 10);
	assert_int_equal(*end, '\0');
	if (v < lo || v > hi)
		fail_msg("%s not in [%ld, %ld]", s, lo, hi);
	return v;
}

static bool is_alnum_str(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s))
			return false;
	return true;
}

/* An a-string of length lo..hi. */
static void astr(const char *s, size_t lo, size_t hi)
{
	size_t n = strlen(s);

	if (n < lo || n > hi || !is_alnum_str(s))
		fail_msg("'%s' is not an a-string of %zu..%zu", s, lo, hi);
}

static void digits(const char *s, size_t len)
{
	size_t i;

	assert_int_equal(strlen(s), len);
	for (i = 0; i < len; i++)
		assert_true(isdigit((unsigned char)s[i]));
}

static void zip(const char *s)
{
	assert_int_equal(strlen(s), 9);
	assert_true(
		isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) &&
		isdigit((unsigned char)s[2]) && isdigit((unsigned char)s[3]));
	assert_string_equal(s + 4, "11111");
}

/* Exact decimal "units.cc"; returns cents, checked against [lo, hi]. */
static long money(const char *s, long lo, long hi)
{
	const char *dot = strchr(s, '.');
	char units[16];
	long cents;

	assert_non_null(dot);
	assert_int_equal(strlen(dot), 3);
	assert_true(isdigit((unsigned char)dot[1]) &&
		    isdigit((unsigned char)dot[2]));
	assert_true(dot > s && dot - s < 15);
	memcpy(units, s, (size_t)(dot - s));
	units[dot - s] = '\0';
	/* no leading zeros except "0.xx" */
	assert_true(units[0] != '0' || units[1] == '\0');
	cents = num(units, 0, 100000000) * 100 + (dot[1] - '0') * 10 +
		(dot[2] - '0');
	if (cents < lo || cents > hi)
		fail_msg("%s not in [%ld, %ld] cents", s, lo, hi);
	return cents;
}

/* "0.dddd" for numeric(4,4) within [0, hi/10000]. */
static void frac4(const char *s, long hi)
{
	assert_int_equal(strlen(s), 6);
	assert_memory_equal(s, "0.", 2);
	digits(s + 2, 4);
	assert_true(atol(s + 2) <= hi);
}

static bool is_syllable_name(const char *s, int *n_out)
{
	char buf[TPCC_C_LAST_MAX];
	int n;

	for (n = 0; n < 1000; n++) {
		tpcc_c_last(n, buf);
		if (strcmp(buf, s) == 0) {
			*n_out = n;
			return true;
		}
	}
	return false;
}

/* The binary stream: header, then tuples, then the trailer; text: none. */
static void test_binary_header_and_trailer(void **state)
{
	struct load_gen_params p = params(1, LOAD_FORMAT_BINARY);
	struct collect c;

	(void)state;
	generate(&c, 1, LOAD_WAREHOUSE, 1, 4096, LOAD_FORMAT_BINARY);
	assert_memory_equal(c.all, copy_header, sizeof(copy_header));
	/* one tuple of 9 fields, then the trailer: a field count of -1 */
	assert_int_equal(be16_at((unsigned char *)c.all + 19), 9);
	assert_int_equal(be16_at((unsigned char *)c.all + c.len - 2), 0xffff);
	assert_int_equal(c.flushes, 2);
	collect_free(&c);

	/* text has neither; the end only flushes */
	generate(&c, 1, LOAD_WAREHOUSE, 1, 4096, LOAD_FORMAT_TEXT);
	assert_true(isdigit((unsigned char)c.all[0]));
	assert_int_equal(c.all[c.len - 1], '\n');
	assert_int_equal(c.flushes, 1);
	collect_free(&c);

	/* an unknown format is refused */
	collect_init(&c, 4096, LOAD_FORMAT_BINARY);
	p.format = (enum load_format)7;
	assert_int_equal(load_gen_begin(&p, &c.sink), -EINVAL);
	assert_int_equal(load_gen_table(&p, LOAD_ITEM, 1, &c.sink), -EINVAL);
	assert_int_equal(c.sink.len, 0);
	collect_free(&c);
}

/*
 * Both formats hold the same rows: the binary stream of every table,
 * decoded, is the text stream byte for byte.
 */
static void test_text_equals_binary(void **state)
{
	int t;

	(void)state;
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		struct collect bin, text;
		size_t est;

		generate_rows(&bin, 21, t, 2, 256 * 1024);
		generate(&text, 21, t, 2, 256 * 1024, LOAD_FORMAT_TEXT);
		assert_true(bin.rows > 0);
		if (strcmp(bin.text, text.all) != 0)
			fail_msg("%s: binary and text rows differ",
				 load_table_info(t)->name);
		/* the size estimate is within 25 % of a warehouse's rows */
		est = load_table_info(t)->copy_bytes_per_w;
		assert_in_range(bin.len - sizeof(copy_header) - 2, est * 3 / 4,
				est * 5 / 4);
		collect_free(&bin);
		collect_free(&text);
	}
}

/* The COPY text bytes are printable ASCII, tabs and newlines; "\" only in "\N". */
static void test_copy_text_needs_no_escaping(void **state)
{
	int t;

	(void)state;
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		struct collect c;
		size_t i;

		generate(&c, 7, t, 1, 256 * 1024, LOAD_FORMAT_TEXT);
		for (i = 0; i < c.len; i++) {
			unsigned char ch = (unsigned char)c.all[i];

			if (ch == '\\') {
				assert_int_equal(c.all[i + 1], 'N');
				assert_true(c.all[i + 2] == '\t' ||
					    c.all[i + 2] == '\n');
				assert_true(c.all[i - 1] == '\t');
			} else if (ch != '\t' && ch != '\n') {
				assert_true(ch >= 0x20 && ch < 0x7f);
			}
		}
		collect_free(&c);
	}
}

/* The COPY column lists name the columns of tables.sql, in order. */
static void test_columns_match_tables_sql(void **state)
{
	int t;

	(void)state;
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		const struct load_table_info *ti = load_table_info(t);
		struct col cols[MAX_FIELDS];
		char want[1024] = "";
		int n = table_columns(t, cols), k;

		for (k = 0; k < n; k++) {
			if (want[0])
				strcat(want, ", ");
			strcat(want, cols[k].name);
		}
		assert_string_equal(ti->columns, want);
		assert_int_equal(load_table_by_name(ti->name), t);
	}
	assert_int_equal(load_table_by_name("nosuch"), -1);
}

/*
 * The numeric constants are exactly what PostgreSQL 15's numeric_send
 * gives for them in their columns (SELECT numeric_send(v::numeric(12,2))).
 */
static void test_numeric_bytes(void **state)
{
	static const struct {
		enum load_table table;
		int field;
		const char *value;	    /* for messages */
		const unsigned char *bytes; /* numeric_send */
		int len;
	} cases[] = {
		{LOAD_WAREHOUSE, 8, "300000.00",
		 (const unsigned char *)"\0\1\0\1\0\0\0\2\0\x1e", 10},
		{LOAD_DISTRICT, 9, "30000.00",
		 (const unsigned char *)"\0\1\0\1\0\0\0\2\0\3", 10},
		{LOAD_CUSTOMER, 14, "50000.00",
		 (const unsigned char *)"\0\1\0\1\0\0\0\2\0\5", 10},
		{LOAD_CUSTOMER, 16, "-10.00",
		 (const unsigned char *)"\0\1\0\0\x40\0\0\2\0\x0a", 10},
		{LOAD_CUSTOMER, 17, "10.00",
		 (const unsigned char *)"\0\1\0\0\0\0\0\2\0\x0a", 10},
		{LOAD_HISTORY, 6, "10.00",
		 (const unsigned char *)"\0\1\0\0\0\0\0\2\0\x0a", 10},
		/* OL_AMOUNT of a delivered order line */
		{LOAD_ORDER_LINE, 8, "0.00",
		 (const unsigned char *)"\0\0\0\0\0\0\0\2", 8},
	};
	struct collect c = {.all = NULL};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const unsigned char *v;
		int32_t len;

		/* cases of one table are next to each other */
		if (i == 0 || cases[i].table != cases[i - 1].table) {
			if (i)
				collect_free(&c);
			generate(&c, 3, cases[i].table, 1, 256 * 1024,
				 LOAD_FORMAT_BINARY);
		}
		v = raw_field(&c, 0, cases[i].field, &len);
		if (len != cases[i].len ||
		    memcmp(v, cases[i].bytes, (size_t)len) != 0)
			fail_msg("%s is not encoded as numeric_send does",
				 cases[i].value);
	}
	collect_free(&c);
}

/*
 * The load's timestamp is the same wall-clock value in binary: microseconds
 * since 2000-01-01, as PostgreSQL 15 computes them
 * (SELECT timestamp_send(v::timestamp)), across leap days and before 2000.
 */
static void test_timestamp_bytes(void **state)
{
	static const struct {
		const char *text;
		int64_t pg_us;
	} cases[] = {
		{NOW, 794379967000000},
		{"2000-01-01 00:00:00", 0},
		{"1999-12-31 23:59:59", -1000000},
		{"2000-02-29 12:00:00", 5140800000000},
		{"2024-02-29 23:59:59", 762566399000000},
		{"2100-03-01 00:00:00", 3160857600000000},
		{"1970-01-01 00:00:00", -946684800000000},
		{"1900-03-01 01:02:03", -3150572277000000},
	};
	static const char *const bad[] = {
		"2025-13-01 00:00:00", "2025-03-04T05:06:07",
		"2025-03-04 05:06",    "2025-03-04 24:00:00",
		"2025-03-04 05:06:6x", "",
	};
	struct load_gen_params p = params(5, LOAD_FORMAT_BINARY);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct collect c;
		const unsigned char *v;
		char text[32];
		int32_t len;
		int64_t us;

		snprintf(p.now, sizeof(p.now), "%s", cases[i].text);
		generate_format(&c, &p, LOAD_HISTORY, 1, 256 * 1024);
		v = raw_field(&c, 0, 5, &len);
		assert_int_equal(len, 8);
		us = be64_at(v);
		if (us != cases[i].pg_us)
			fail_msg("%s: %lld, not %lld", cases[i].text,
				 (long long)us, (long long)cases[i].pg_us);
		timestamp_text(us, text);
		assert_string_equal(text, cases[i].text);
		collect_free(&c);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct collect c;
		int f;

		snprintf(p.now, sizeof(p.now), "%s", bad[i]);
		for (f = LOAD_FORMAT_BINARY; f <= LOAD_FORMAT_TEXT; f++) {
			p.format = (enum load_format)f;
			collect_init(&c, 4096, p.format);
			assert_int_equal(
				load_gen_table(&p, LOAD_ORDERS, 1, &c.sink),
				-EINVAL);
			assert_int_equal(c.flushes, 0);
			collect_free(&c);
		}
	}
}

static void test_warehouse_and_district(void **state)
{
	struct collect c;
	char *pos, *f[MAX_FIELDS];
	int n, rows = 0;

	(void)state;
	generate_rows(&c, 11, LOAD_WAREHOUSE, 4, 4096);
	pos = c.text;
	while ((n = next_row(&pos, f))) {
		assert_int_equal(n, 9);
		assert_string_equal(f[0], "4");
		astr(f[1], 6, 10);
		astr(f[2], 10, 20);
		astr(f[3], 10, 20);
		astr(f[4], 10, 20);
		astr(f[5], 2, 2);
		zip(f[6]);
		frac4(f[7], 2000);
		assert_string_equal(f[8], "300000.00");
		rows++;
	}
	assert_int_equal(rows, 1);
	collect_free(&c);

	generate_rows(&c, 11, LOAD_DISTRICT, 4, 4096);
	pos = c.text;
	rows = 0;
	while ((n = next_row(&pos, f))) {
		assert_int_equal(n, 11);
		assert_int_equal(num(f[0], 1, 10), rows + 1);
		assert_string_equal(f[1], "4");
		astr(f[2], 6, 10);
		astr(f[3], 10, 20);
		astr(f[4], 10, 20);
		astr(f[5], 10, 20);
		astr(f[6], 2, 2);
		zip(f[7]);
		frac4(f[8], 2000);
		assert_string_equal(f[9], "30000.00");
		assert_string_equal(f[10], "3001");
		rows++;
	}
	assert_int_equal(rows, 10);
	collect_free(&c);
}

static void test_customer(void **state)
{
	static int last_count[1000];
	struct collect c;
	char *pos, *f[MAX_FIELDS];
	int n, rows = 0, bc = 0, max_count = 0, k;

	(void)state;
	memset(last_count, 0, sizeof(last_count));
	generate_rows(&c, 5, LOAD_CUSTOMER, 2, 256 * 1024);
	pos = c.text;
	while ((n = next_row(&pos, f))) {
		int c_id = rows % 3000 + 1, d_id = rows / 3000 + 1, name;

		assert_int_equal(n, 21);
		assert_int_equal(num(f[0], 1, 3000), c_id);
		assert_int_equal(num(f[1], 1, 10), d_id);
		assert_string_equal(f[2], "2");
		astr(f[3], 8, 16);
		assert_string_equal(f[4], "OE");
		assert_true(is_syllable_name(f[5], &name));
		if (c_id <= 1000)
			assert_int_equal(name, c_id - 1);
		else
			last_count[name]++;
		astr(f[6], 10, 20);
		astr(f[7], 10, 20);
		astr(f[8], 10, 20);
		astr(f[9], 2, 2);
		zip(f[10]);
		digits(f[11], 16);
		assert_string_equal(f[12], NOW);
		assert_true(!strcmp(f[13], "GC") || !strcmp(f[13], "BC"));
		bc += !strcmp(f[13], "BC");
		assert_string_equal(f[14], "50000.00");
		frac4(f[15], 5000);
		assert_string_equal(f[16], "-10.00");
		assert_string_equal(f[17], "10.00");
		assert_string_equal(f[18], "1");
		assert_string_equal(f[19], "0");
		astr(f[20], 300, 500);
		rows++;
	}
	assert_int_equal(rows, 30000);
	/* 10 % BC; the spec tolerates 5 % off, we allow 2 points. */
	assert_in_range(bc, 2400, 3600);
	/* NURand(255,0,999): far from uniform (mean 20 per name). */
	for (k = 0; k < 1000; k++)
		if (last_count[k] > max_count)
			max_count = last_count[k];
	assert_true(max_count > 3 * 20000 / 1000);
	collect_free(&c);
}

static void test_history(void **state)
{
	struct collect c;
	char *pos, *f[MAX_FIELDS];
	int n, rows = 0;

	(void)state;
	generate_rows(&c, 5, LOAD_HISTORY, 3, 256 * 1024);
	pos = c.text;
	while ((n = next_row(&pos, f))) {
		assert_int_equal(n, 8);
		assert_int_equal(num(f[0], 1, 3000), rows % 3000 + 1);
		assert_int_equal(num(f[1], 1, 10), rows / 3000 + 1);
		assert_string_equal(f[2], "3");
		assert_string_equal(f[3], f[1]);
		assert_string_equal(f[4], "3");
		assert_string_equal(f[5], NOW);
		assert_string_equal(f[6], "10.00");
		astr(f[7], 12, 24);
		rows++;
	}
	assert_int_equal(rows, 30000);
	collect_free(&c);
}

/* ORDER, ORDER-LINE and NEW-ORDER of one warehouse, and how they agree. */
static void test_orders_lines_new_orders(void **state)
{
	static int ol_cnt[11][3001], lines[11][3001];
	static bool seen[3001];
	struct collect co, cl, cn;
	char *pos, *f[MAX_FIELDS];
	int n, rows = 0, d, o;
	long total_lines = 0, c_id;

	(void)state;
	memset(lines, 0, sizeof(lines));
	generate_rows(&co, 9, LOAD_ORDERS, 1, 256 * 1024);
	pos = co.text;
	while ((n = next_row(&pos, f))) {
		o = rows % 3000 + 1;
		d = rows / 3000 + 1;
		if (o == 1)
			memset(seen, 0, sizeof(seen));
		assert_int_equal(n, 8);
		assert_int_equal(num(f[0], 1, 3000), o);
		assert_int_equal(num(f[1], 1, 10), d);
		assert_string_equal(f[2], "1");
		/* O_C_ID: a permutation of 1..3000 in every district */
		c_id = num(f[3], 1, 3000);
		assert_false(seen[c_id]);
		seen[c_id] = true;
		assert_string_equal(f[4], NOW);
		if (o < 2101)
			num(f[5], 1, 10);
		else
			assert_string_equal(f[5], "\\N");
		ol_cnt[d][o] = (int)num(f[6], 5, 15);
		assert_string_equal(f[7], "1");
		rows++;
	}
	assert_int_equal(rows, 30000);

	generate_rows(&cl, 9, LOAD_ORDER_LINE, 1, 256 * 1024);
	pos = cl.text;
	while ((n = next_row(&pos, f))) {
		assert_int_equal(n, 10);
		o = (int)num(f[0], 1, 3000);
		d = (int)num(f[1], 1, 10);
		assert_string_equal(f[2], "1");
		lines[d][o]++;
		assert_int_equal(num(f[3], 1, 15), lines[d][o]);
		num(f[4], 1, 100000);
		assert_string_equal(f[5], "1");
		assert_string_equal(f[7], "5");
		if (o < 2101) {
			assert_string_equal(f[6], NOW);
			assert_string_equal(f[8], "0.00");
		} else {
			assert_string_equal(f[6], "\\N");
			money(f[8], 1, 999999);
		}
		astr(f[9], 24, 24);
		total_lines++;
	}
	for (d = 1; d <= 10; d++)
		for (o = 1; o <= 3000; o++)
			assert_int_equal(lines[d][o], ol_cnt[d][o]);
	/* 5..15 per order: about 300,000 in all */
	assert_in_range(total_lines, 290000, 310000);

	generate_rows(&cn, 9, LOAD_NEW_ORDER, 1, 4096);
	pos = cn.text;
	rows = 0;
	while ((n = next_row(&pos, f))) {
		assert_int_equal(n, 3);
		assert_int_equal(num(f[0], 2101, 3000), 2101 + rows % 900);
		assert_int_equal(num(f[1], 1, 10), rows / 900 + 1);
		assert_string_equal(f[2], "1");
		rows++;
	}
	assert_int_equal(rows, 9000);
	collect_free(&co);
	collect_free(&cl);
	collect_free(&cn);
}

/* I_DATA / S_DATA: a[26..50]; return whether it holds "ORIGINAL". */
static bool data_field(const char *s)
{
	astr(s, 26, 50);
	return strstr(s, "ORIGINAL") != NULL;
}

static void test_item_and_stock(void **state)
{
	struct collect c;
	char *pos, *f[MAX_FIELDS];
	int n, rows = 0, orig = 0, k;
	long min_price = 1000000, max_price = 0;

	(void)state;
	generate_rows(&c, 13, LOAD_ITEM, 0, 256 * 1024);
	pos = c.text;
	while ((n = next_row(&pos, f))) {
		long price;

		assert_int_equal(n, 5);
		assert_int_equal(num(f[0], 1, 100000), rows + 1);
		num(f[1], 1, 10000);
		astr(f[2], 14, 24);
		price = money(f[3], 100, 10000);
		min_price = price < min_price ? price : min_price;
		max_price = price > max_price ? price : max_price;
		orig += data_field(f[4]);
		rows++;
	}
	assert_int_equal(rows, 100000);
	assert_in_range(orig, 9000, 11000);
	/* random within [1.00..100.00] in cents reaches near both ends */
	assert_true(min_price < 150 && max_price > 9950);
	collect_free(&c);

	generate_rows(&c, 13, LOAD_STOCK, 7, 256 * 1024);
	pos = c.text;
	rows = orig = 0;
	while ((n = next_row(&pos, f))) {
		assert_int_equal(n, 17);
		assert_int_equal(num(f[0], 1, 100000), rows + 1);
		assert_string_equal(f[1], "7");
		num(f[2], 10, 100);
		for (k = 3; k < 13; k++)
			astr(f[k], 24, 24);
		assert_string_equal(f[13], "0");
		assert_string_equal(f[14], "0");
		assert_string_equal(f[15], "0");
		orig += data_field(f[16]);
		rows++;
	}
	assert_int_equal(rows, 100000);
	assert_in_range(orig, 9000, 11000);
	collect_free(&c);
}

/*
 * Same (seed, warehouse): same bytes, whatever the buffer size (text is
 * the same rows, test_text_equals_binary).
 */
static void test_reproducible(void **state)
{
	static const enum load_table tables[] = {LOAD_CUSTOMER, LOAD_STOCK,
						 LOAD_ORDER_LINE};
	const enum load_format f = LOAD_FORMAT_BINARY;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		struct collect a, b, other_seed, other_w;

		generate(&a, 99, tables[i], 3, 256 * 1024, f);
		generate(&b, 99, tables[i], 3, LOAD_ROW_MAX + 100, f);
		generate(&other_seed, 100, tables[i], 3, 256 * 1024, f);
		generate(&other_w, 99, tables[i], 4, 256 * 1024, f);
		assert_true(b.flushes > a.flushes);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.all, b.all, a.len);
		assert_true(a.len != other_seed.len ||
			    memcmp(a.all, other_seed.all, a.len) != 0);
		assert_true(a.len != other_w.len ||
			    memcmp(a.all, other_w.all, a.len) != 0);
		/* small buffers: still whole tuples in every flush */
		decode(&b, tables[i]);
		collect_free(&a);
		collect_free(&b);
		collect_free(&other_seed);
		collect_free(&other_w);
	}
	assert_int_equal(load_c_load_for_seed(1), load_c_load_for_seed(1));
}

/* C-Load is in [0, 255] and depends on the seed. */
static void test_c_load(void **state)
{
	bool seen[256] = {false};
	int s, distinct = 0;

	(void)state;
	for (s = 0; s < 2000; s++) {
		int c = load_c_load_for_seed((uint64_t)s);

		assert_in_range(c, 0, 255);
		if (!seen[c])
			distinct++;
		seen[c] = true;
	}
	assert_true(distinct > 200);
}

/* A sink error stops the generator and comes back unchanged. */
static void test_sink_error_stops(void **state)
{
	struct load_gen_params p = params(1, LOAD_FORMAT_BINARY);
	struct collect c;

	(void)state;
	collect_init(&c, LOAD_ROW_MAX + 64, LOAD_FORMAT_BINARY);
	c.fail_after = 3;
	assert_int_equal(load_gen_table(&p, LOAD_STOCK, 1, &c.sink), -EINTR);
	assert_int_equal(c.flushes, 3);
	assert_int_equal(load_gen_table(&p, LOAD_TABLE_NR, 1, &c.sink),
			 -EINVAL);
	/* the trailer's flush too */
	c.sink.len = 0;
	assert_int_equal(load_gen_end(&p, &c.sink), -EINTR);
	collect_free(&c);
}

/* indexes.sql splits into one statement per key, each on a known table. */
static void test_index_statements(void **state)
{
	static const struct {
		const char *sql;
		int table;
	} cases[] = {
		{"ALTER TABLE IF EXISTS ONLY public.stock ADD PRIMARY KEY (x)",
		 LOAD_STOCK},
		{"CREATE UNIQUE INDEX x ON ONLY orders (o_id)", LOAD_ORDERS},
		{"create index foo on \"customer\" (c_id)", LOAD_CUSTOMER},
		{"-- ALTER TABLE stock\nCREATE INDEX i ON item (i_id)",
		 LOAD_ITEM},
		{"CREATE INDEX IF NOT EXISTS i ON new_order (no_o_id)",
		 LOAD_NEW_ORDER},
		{"CREATE INDEX i ON nosuch (x)", -1},
		{"ANALYZE stock (s_w_id, s_i_id)", LOAD_STOCK},
		{"-- c\nanalyze public.order_line", LOAD_ORDER_LINE},
		{"ANALYZE", -1},
		{"VACUUM stock", -1},
		{"", -1},
	};
	char *stmts[64];
	bool keyed[LOAD_TABLE_NR] = {false};
	size_t i;
	int n, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (load_statement_table(cases[i].sql) != cases[i].table)
			fail_msg("'%s' should be table %d", cases[i].sql,
				 cases[i].table);

	n = load_split_statements(schema_indexes_sql, stmts, 64);
	assert_int_equal(n, 10);
	for (k = 0; k < n; k++) {
		int t = load_statement_table(stmts[k]);

		if (t < 0)
			fail_msg("no table in '%s'", stmts[k]);
		/* no separator line left inside a statement */
		assert_null(strstr(stmts[k], "\n-- next\n"));
		assert_true(strncmp(stmts[k], "-- next\n", 8) != 0);
		if (strstr(stmts[k], "PRIMARY KEY"))
			keyed[t] = true;
		free(stmts[k]);
	}
	/* every table but HISTORY gets its primary key */
	for (k = 0; k < LOAD_TABLE_NR; k++)
		assert_true(keyed[k] == (k != LOAD_HISTORY));

	/* analyze.sql: one ANALYZE per table, every table */
	memset(keyed, 0, sizeof(keyed));
	n = load_split_statements(schema_analyze_sql, stmts, 64);
	assert_int_equal(n, LOAD_TABLE_NR);
	for (k = 0; k < n; k++) {
		int t = load_statement_table(stmts[k]);

		if (t < 0 || keyed[t])
			fail_msg("analyze.sql: '%s'", stmts[k]);
		assert_non_null(strstr(stmts[k], "ANALYZE"));
		keyed[t] = true;
		free(stmts[k]);
	}

	n = load_split_statements("-- header\n\nA;\n-- next\n-- just a "
				  "comment\n-- next\nB\n  -- next  \n"
				  "-- nextC\nC;",
				  stmts, 64);
	assert_int_equal(n, 3);
	assert_string_equal(stmts[0], "-- header\n\nA;\n");
	assert_string_equal(stmts[1], "B\n");
	assert_string_equal(stmts[2], "-- nextC\nC;");
	for (k = 0; k < n; k++)
		free(stmts[k]);
	assert_int_equal(
		load_split_statements("A\n-- next\nB\n-- next\nC", stmts, 2),
		-E2BIG);
	assert_int_equal(load_split_statements("", stmts, 2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary_header_and_trailer),
		cmocka_unit_test(test_text_equals_binary),
		cmocka_unit_test(test_copy_text_needs_no_escaping),
		cmocka_unit_test(test_columns_match_tables_sql),
		cmocka_unit_test(test_numeric_bytes),
		cmocka_unit_test(test_timestamp_bytes),
		cmocka_unit_test(test_warehouse_and_district),
		cmocka_unit_test(test_customer),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_orders_lines_new_orders),
		cmocka_unit_test(test_item_and_stock),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_c_load),
		cmocka_unit_test(test_sink_error_stops),
		cmocka_unit_test(test_index_statements),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
