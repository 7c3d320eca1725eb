/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load_gen.c - the TPC-C population of clause 4.3.3.1 as COPY data
 * (the rules in our words: docs/tpcc.md, Population).
 *
 * One function per table writes the rows of one warehouse straight into
 * the sink's buffer, in PostgreSQL's binary COPY format (what the loader
 * streams: the server parses no text then) or as COPY text (the same
 * rows, to compare). Each field goes through a small writer that knows
 * both forms (put_int, put_str, put_numeric, put_timestamp, put_null), so
 * the population rules are written once. This is the loader's hot path,
 * so nothing goes through printf: integers are stored or printed by hand,
 * money is integer cents (never a float) turned into base-10000 numeric
 * digits or "units.cc", strings are written in place by tpcc_astring().
 * Every generated string is alphanumeric (plus the fixed words
 * "ORIGINAL", "OE", "GC"/"BC" and the C_LAST syllables), so COPY text
 * needs no escaping: only \N for NULL.
 *
 * Each (table, warehouse) pair draws from its own generator seeded with
 * (seed, stream), so a warehouse's rows do not depend on which thread
 * writes them or when; both formats draw the same values in the same
 * order. ORDER and ORDER-LINE must agree on O_OL_CNT: both replay the
 * same per-warehouse stream of counts.
 */
#include "src/load/load.h"

#include <endian.h>
#include <errno.h>
#include <string.h>

#include "src/base/rng.h"
#include "src/base/tpcc_random.h"

/* Stream kinds besides the tables (which use t + 1). */
#define STREAM_OL_CNT (LOAD_TABLE_NR + 1) /* O_OL_CNT, shared by 2 tables */
#define STREAM_C_LOAD (LOAD_TABLE_NR + 2) /* the C-Load constant */

/* Rows per warehouse of the per-district tables. */
#define PER_W(n) (TPCC_DISTRICTS_PER_W * (n))

/* clang-format off */
static const struct load_table_info tables[LOAD_TABLE_NR] = {
	[LOAD_WAREHOUSE] = {
		.name = "warehouse",
		.columns = "w_id, w_name, w_street_1, w_street_2, w_city, "
			   "w_state, w_zip, w_tax, w_ytd",
		.per_warehouse = true,
		.rows_per_w = 1,
		.copy_bytes_per_w = 130,
		.w_column = "w_id",
	},
	[LOAD_DISTRICT] = {
		.name = "district",
		.columns = "d_id, d_w_id, d_name, d_street_1, d_street_2, "
			   "d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id",
		.per_warehouse = true,
		.rows_per_w = TPCC_DISTRICTS_PER_W,
		.copy_bytes_per_w = 1430,
		.w_column = "d_w_id",
	},
	[LOAD_CUSTOMER] = {
		.name = "customer",
		.columns = "c_id, c_d_id, c_w_id, c_first, c_middle, c_last, "
			   "c_street_1, c_street_2, c_city, c_state, c_zip, "
			   "c_phone, c_since, c_credit, c_credit_lim, "
			   "c_discount, c_balance, c_ytd_payment, "
			   "c_payment_cnt, c_delivery_cnt, c_data",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_CUSTOMERS_PER_D),
		.copy_bytes_per_w = 19600000,
		.w_column = "c_w_id",
	},
	[LOAD_HISTORY] = {
		.name = "history",
		.columns = "h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, "
			   "h_date, h_amount, h_data",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_CUSTOMERS_PER_D),
		.copy_bytes_per_w = 2700000,
		.w_column = "h_w_id",
	},
	[LOAD_NEW_ORDER] = {
		.name = "new_order",
		.columns = "no_o_id, no_d_id, no_w_id",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_NEW_ORDERS_PER_D),
		.copy_bytes_per_w = 234000,
		.w_column = "no_w_id",
	},
	[LOAD_ORDERS] = {
		.name = "orders",
		.columns = "o_id, o_d_id, o_w_id, o_c_id, o_entry_d, "
			   "o_carrier_id, o_ol_cnt, o_all_local",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_ORDERS_PER_D),
		.copy_bytes_per_w = 2064000,
		.w_column = "o_w_id",
	},
	[LOAD_ORDER_LINE] = {
		.name = "order_line",
		.columns = "ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, "
			   "ol_supply_w_id, ol_delivery_d, ol_quantity, "
			   "ol_amount, ol_dist_info",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_ORDERS_PER_D) * 10, /* 5..15 each */
		.copy_bytes_per_w = 32600000,
		.w_column = "ol_w_id",
	},
	[LOAD_ITEM] = {
		.name = "item",
		.columns = "i_id, i_im_id, i_name, i_price, i_data",
		.per_warehouse = false,
		.rows_per_w = TPCC_ITEMS,
		.copy_bytes_per_w = 9900000,
	},
	[LOAD_STOCK] = {
		.name = "stock",
		.columns = "s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, "
			   "s_dist_03, s_dist_04, s_dist_05, s_dist_06, "
			   "s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, "
			   "s_order_cnt, s_remote_cnt, s_data",
		.per_warehouse = true,
		.rows_per_w = TPCC_ITEMS,
		.copy_bytes_per_w = 37200000,
		.w_column = "s_w_id",
	},
};
/* clang-format on */

const struct load_table_info *load_table_info(enum load_table t)
{
	return &tables[t];
}

int load_table_by_name(const char *name)
{
	int t;

	for (t = 0; t < LOAD_TABLE_NR; t++)
		if (strcmp(tables[t].name, name) == 0)
			return t;
	return -1;
}

static void seed_stream(struct rng *r, uint64_t seed, int kind, int w_id)
{
	rng_seed(r, seed, ((uint64_t)kind << 32) | (uint32_t)w_id);
}

int load_c_load_for_seed(uint64_t seed)
{
	struct rng r;

	seed_stream(&r, seed, STREAM_C_LOAD, 0);
	return (int)rng_range(&r, 0, TPCC_A_C_LAST);
}

/* Make room for one more row; 0 or what flush returned. */
static inline int room(struct load_sink *s)
{
	if (s->cap - s->len >= LOAD_ROW_MAX)
		return 0;
	return s->flush(s);
}

/*
 * Binary COPY (COPY ... (FORMAT binary)): after the header of
 * load_gen_begin, each row is an int16 field count, then for each field
 * an int32 byte length (-1: NULL, no bytes follow) and the value in its
 * type's binary "send" form. Every integer in the stream is big-endian
 * (network order).
 */
static inline char *put_be16(char *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, 2);
	return p + 2;
}

static inline char *put_be32(char *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
	return p + 4;
}

static inline char *put_be64(char *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
	return p + 8;
}

/* Decimal digits of v. */
static inline char *put_uint(char *p, uint32_t v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/*
 * The field writers below write one field in either format: binary, or
 * text followed by a tab (row_end turns the last tab into the newline).
 */

/* Start a row of nfields fields: binary writes the field count. */
static inline char *row_begin(char *p, bool bin, int nfields)
{
	return bin ? put_be16(p, (uint16_t)nfields) : p;
}

static inline char *row_end(char *p, bool bin)
{
	if (!bin)
		p[-1] = '\n';
	return p;
}

/* integer (int4): 4 bytes, two's complement. */
static inline char *put_int(char *p, bool bin, uint32_t v)
{
	if (bin)
		return put_be32(put_be32(p, 4), v);
	p = put_uint(p, v);
	*p++ = '\t';
	return p;
}

/* NULL: length -1 and nothing else; "\N" in text. */
static inline char *put_null(char *p, bool bin)
{
	if (bin)
		return put_be32(p, UINT32_MAX);
	memcpy(p, "\\N\t", 3);
	return p + 3;
}

/*
 * varchar(n): the bytes, no terminator. The server checks the length
 * against n as for text input; fixed text (tables.sql "-- fixed") is
 * always written exactly n long.
 */
static inline char *put_str(char *p, bool bin, const char *s, size_t len)
{
	if (bin)
		p = put_be32(p, (uint32_t)len);
	memcpy(p, s, len);
	p += len;
	if (!bin)
		*p++ = '\t';
	return p;
}

#define PUT_STR(p, bin, s) put_str((p), (bin), (s), sizeof(s) - 1)

/*
 * A string field whose bytes write(r, lo, hi, buf) generates in place:
 * binary leaves room for the length and fills it in afterwards.
 */
static inline char *put_gen_str(char *p, bool bin, struct rng *r, int lo,
				int hi,
				size_t (*write)(struct rng *, int, int, char *))
{
	size_t len;

	if (bin) {
		len = write(r, lo, hi, p + 4);
		put_be32(p, (uint32_t)len);
		return p + 4 + len;
	}
	len = write(r, lo, hi, p);
	p[len] = '\t';
	return p + len + 1;
}

/* a-string [lo..hi] (the 62 alphanumerics). */
static inline char *put_astr(char *p, bool bin, struct rng *r, int lo, int hi)
{
	return put_gen_str(p, bin, r, lo, hi, tpcc_astring);
}

/* n-string [lo..hi] (digits). */
static inline char *put_nstr(char *p, bool bin, struct rng *r, int lo, int hi)
{
	return put_gen_str(p, bin, r, lo, hi, tpcc_nstring);
}

/* I_DATA / S_DATA: a[26..50], "ORIGINAL" in a random 10 % of rows. */
static size_t data_string(struct rng *r, int lo, int hi, char *buf)
{
	size_t len = tpcc_astring(r, lo, hi, buf);

	if (rng_range(r, 1, 10) == 1)
		tpcc_put_original(r, buf, len);
	return len;
}

static inline char *put_data(char *p, bool bin, struct rng *r)
{
	return put_gen_str(p, bin, r, 26, 50, data_string);
}

/*
 * numeric(p, scale) with scale 2 or 4, value v / 10^scale: money as
 * integer cents (scale 2), taxes and discounts as 1/10000 (scale 4). The
 * value is exact from the draw to the column, no float anywhere.
 *
 * Text: "-units.frac" with scale digits after the point.
 *
 * Binary: int16 ndigits, int16 weight, int16 sign (0x0000 positive,
 * 0x4000 negative), int16 dscale, then ndigits int16 digits in base
 * 10000, most significant first; the value is the sum of digit[i] *
 * 10000^(weight - i). So 12345.67 is digits 1, 2345, 6700 with weight 1,
 * 0.0500 is digit 500 with weight -1, and 0 is no digits with weight 0.
 * We write the server's own normal form (no leading or trailing zero
 * digits), and dscale, the digits shown after the point, is the column's
 * scale: the value reads back as the text path's "10.00", not "10".
 */
static inline char *put_numeric(char *p, bool bin, int64_t v, int scale)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;
	uint64_t unit = scale == 2 ? 100 : 10000;
	uint16_t digit[6];
	uint64_t whole;
	int n = 0, i, weight;
	char *len;

	if (!bin) {
		uint64_t frac = a % unit;

		if (v < 0)
			*p++ = '-';
		p = put_uint(p, (uint32_t)(a / unit));
		*p++ = '.';
		for (i = scale; i > 0; i--, frac /= 10)
			p[i - 1] = (char)('0' + frac % 10);
		p += scale;
		*p++ = '\t';
		return p;
	}
	/* In units of 1/10000: the fraction is one base-10000 digit. */
	a *= 10000 / unit;
	whole = a / 10000;
	/* The whole part's digits, least significant first, then reversed. */
	while (whole) {
		digit[n++] = (uint16_t)(whole % 10000);
		whole /= 10000;
	}
	weight = n - 1;
	for (i = 0; i < n / 2; i++) {
		uint16_t tmp = digit[i];

		digit[i] = digit[n - 1 - i];
		digit[n - 1 - i] = tmp;
	}
	digit[n++] = (uint16_t)(a % 10000);
	while (n > 0 && digit[n - 1] == 0)
		n--;
	if (n == 0)
		weight = 0;
	len = p;
	p += 4;
	p = put_be16(p, (uint16_t)n);
	p = put_be16(p, (uint16_t)(int16_t)weight);
	p = put_be16(p, v < 0 ? 0x4000 : 0x0000);
	p = put_be16(p, (uint16_t)scale);
	for (i = 0; i < n; i++)
		p = put_be16(p, digit[i]);
	put_be32(len, (uint32_t)(p - len - 4));
	return p;
}

/* Money from integer cents: numeric(n, 2). */
static inline char *put_cents(char *p, bool bin, int64_t cents)
{
	return put_numeric(p, bin, cents, 2);
}

/* v in 0..9999 as 0.vvvv: numeric(4,4), tax and discount. */
static inline char *put_frac4(char *p, bool bin, uint32_t v)
{
	return put_numeric(p, bin, v, 4);
}

/* The load's timestamp in both forms. */
struct gen_now {
	const char *text; /* "YYYY-MM-DD HH:MM:SS" */
	int64_t pg_us;	  /* the same wall-clock time, binary form */
};

/*
 * timestamp (without time zone): int64 microseconds since 2000-01-01
 * 00:00:00, counted on the wall clock like the text form, so both forms
 * store the same value whatever the session's TimeZone.
 */
static inline char *put_timestamp(char *p, bool bin, const struct gen_now *now)
{
	if (bin)
		return put_be64(put_be32(p, 8), (uint64_t)now->pg_us);
	memcpy(p, now->text, LOAD_TIMESTAMP_LEN);
	p[LOAD_TIMESTAMP_LEN] = '\t';
	return p + LOAD_TIMESTAMP_LEN + 1;
}

/* Days from 1970-01-01 to the date y-m-d (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	/* Count years from March, so the leap day ends a year. */
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Value of the n digits at s, or -1 if any is not a digit. */
static int digits_at(const char *s, int n)
{
	int v = 0;

	while (n--) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s++ - '0');
	}
	return v;
}

/* "YYYY-MM-DD HH:MM:SS" as microseconds since 2000-01-01; -EINVAL. */
static int parse_now(const char *text, int64_t *pg_us)
{
	int y, mo, d, h, mi, s;
	int64_t days;

	if (strnlen(text, LOAD_TIMESTAMP_LEN + 1) != LOAD_TIMESTAMP_LEN ||
	    text[4] != '-' || text[7] != '-' || text[10] != ' ' ||
	    text[13] != ':' || text[16] != ':')
		return -EINVAL;
	y = digits_at(text, 4);
	mo = digits_at(text + 5, 2);
	d = digits_at(text + 8, 2);
	h = digits_at(text + 11, 2);
	mi = digits_at(text + 14, 2);
	s = digits_at(text + 17, 2);
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || s < 0 || s > 59)
		return -EINVAL;
	/* PostgreSQL counts from 2000-01-01, 10957 days after 1970-01-01. */
	days = days_from_civil(y, mo, d) - 10957;
	*pg_us = (((days * 24 + h) * 60 + mi) * 60 + s) * 1000000;
	return 0;
}

/*
 * Street 1, street 2, city a[10..20], state a-string of 2, zip: the
 * address of WAREHOUSE, DISTRICT and CUSTOMER.
 */
static char *put_address(char *p, bool bin, struct rng *r)
{
	char zip[10];

	p = put_astr(p, bin, r, 10, 20);
	p = put_astr(p, bin, r, 10, 20);
	p = put_astr(p, bin, r, 10, 20);
	p = put_astr(p, bin, r, 2, 2);
	tpcc_zip(r, zip);
	return put_str(p, bin, zip, 9);
}

/* What every table's generator gets. */
struct gen {
	const struct load_gen_params *prm; /* seed and C-Load */
	bool bin;			   /* binary format, else text */
	struct gen_now now;		   /* the load's timestamp */
};

static int gen_warehouse(const struct gen *g, int w, struct load_sink *s)
{
	bool bin = g->bin;
	struct rng r;
	char *p;
	int rc;

	seed_stream(&r, g->prm->seed, LOAD_WAREHOUSE + 1, w);
	if ((rc = room(s)) < 0)
		return rc;
	p = row_begin(s->buf + s->len, bin, 9);
	p = put_int(p, bin, (uint32_t)w);
	p = put_astr(p, bin, &r, 6, 10);
	p = put_address(p, bin, &r);
	p = put_frac4(p, bin, (uint32_t)rng_range(&r, 0, 2000));
	p = put_cents(p, bin, 30000000);
	s->len = (size_t)(row_end(p, bin) - s->buf);
	return 0;
}

static int gen_district(const struct gen *g, int w, struct load_sink *s)
{
	bool bin = g->bin;
	struct rng r;
	int d, rc;

	seed_stream(&r, g->prm->seed, LOAD_DISTRICT + 1, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		char *p;

		if ((rc = room(s)) < 0)
			return rc;
		p = row_begin(s->buf + s->len, bin, 11);
		p = put_int(p, bin, (uint32_t)d);
		p = put_int(p, bin, (uint32_t)w);
		p = put_astr(p, bin, &r, 6, 10);
		p = put_address(p, bin, &r);
		p = put_frac4(p, bin, (uint32_t)rng_range(&r, 0, 2000));
		p = put_cents(p, bin, 3000000);
		p = put_int(p, bin, TPCC_ORDERS_PER_D + 1);
		s->len = (size_t)(row_end(p, bin) - s->buf);
	}
	return 0;
}

static int gen_customer(const struct gen *g, int w, struct load_sink *s)
{
	char last[1000][TPCC_C_LAST_MAX];
	uint8_t last_len[1000];
	bool bin = g->bin;
	struct rng r;
	int n, d, c, rc;

	for (n = 0; n < 1000; n++)
		last_len[n] = (uint8_t)tpcc_c_last(n, last[n]);
	seed_stream(&r, g->prm->seed, LOAD_CUSTOMER + 1, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (c = 1; c <= TPCC_CUSTOMERS_PER_D; c++) {
			char *p;

			if ((rc = room(s)) < 0)
				return rc;
			p = row_begin(s->buf + s->len, bin, 21);
			p = put_int(p, bin, (uint32_t)c);
			p = put_int(p, bin, (uint32_t)d);
			p = put_int(p, bin, (uint32_t)w);
			p = put_astr(p, bin, &r, 8, 16);
			p = PUT_STR(p, bin, "OE");
			/* 4.3.3.1: names 0..999 in order, then NURand. */
			n = c <= 1000 ? c - 1
				      : tpcc_nurand(&r, TPCC_A_C_LAST, 0, 999,
						    g->prm->c_load);
			p = put_str(p, bin, last[n], last_len[n]);
			p = put_address(p, bin, &r);
			p = put_nstr(p, bin, &r, 16, 16);
			p = put_timestamp(p, bin, &g->now);
			if (rng_range(&r, 1, 10) == 1)
				p = PUT_STR(p, bin, "BC");
			else
				p = PUT_STR(p, bin, "GC");
			p = put_cents(p, bin, 5000000);
			p = put_frac4(p, bin, (uint32_t)rng_range(&r, 0, 5000));
			p = put_cents(p, bin, -1000);
			p = put_cents(p, bin, 1000);
			p = put_int(p, bin, 1);
			p = put_int(p, bin, 0);
			p = put_astr(p, bin, &r, 300, 500);
			s->len = (size_t)(row_end(p, bin) - s->buf);
		}
	}
	return 0;
}

static int gen_history(const struct gen *g, int w, struct load_sink *s)
{
	bool bin = g->bin;
	struct rng r;
	int d, c, rc;

	seed_stream(&r, g->prm->seed, LOAD_HISTORY + 1, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (c = 1; c <= TPCC_CUSTOMERS_PER_D; c++) {
			char *p;

			if ((rc = room(s)) < 0)
				return rc;
			p = row_begin(s->buf + s->len, bin, 8);
			p = put_int(p, bin, (uint32_t)c);
			p = put_int(p, bin, (uint32_t)d);
			p = put_int(p, bin, (uint32_t)w);
			p = put_int(p, bin, (uint32_t)d);
			p = put_int(p, bin, (uint32_t)w);
			p = put_timestamp(p, bin, &g->now);
			p = put_cents(p, bin, 1000);
			p = put_astr(p, bin, &r, 12, 24);
			s->len = (size_t)(row_end(p, bin) - s->buf);
		}
	}
	return 0;
}

static int gen_new_order(const struct gen *g, int w, struct load_sink *s)
{
	bool bin = g->bin;
	int d, o, rc;

	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (o = TPCC_FIRST_UNDELIVERED_O_ID; o <= TPCC_ORDERS_PER_D;
		     o++) {
			char *p;

			if ((rc = room(s)) < 0)
				return rc;
			p = row_begin(s->buf + s->len, bin, 3);
			p = put_int(p, bin, (uint32_t)o);
			p = put_int(p, bin, (uint32_t)d);
			p = put_int(p, bin, (uint32_t)w);
			s->len = (size_t)(row_end(p, bin) - s->buf);
		}
	}
	return 0;
}

static int gen_orders(const struct gen *g, int w, struct load_sink *s)
{
	int perm[TPCC_ORDERS_PER_D];
	bool bin = g->bin;
	struct rng r, cnt;
	int d, o, i, rc;

	seed_stream(&r, g->prm->seed, LOAD_ORDERS + 1, w);
	seed_stream(&cnt, g->prm->seed, STREAM_OL_CNT, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		/* O_C_ID: a random permutation of 1..3000 (Fisher-Yates). */
		for (i = 0; i < TPCC_ORDERS_PER_D; i++)
			perm[i] = i + 1;
		for (i = TPCC_ORDERS_PER_D - 1; i > 0; i--) {
			int j = (int)rng_range(&r, 0, i);
			int tmp = perm[i];

			perm[i] = perm[j];
			perm[j] = tmp;
		}
		for (o = 1; o <= TPCC_ORDERS_PER_D; o++) {
			char *p;

			if ((rc = room(s)) < 0)
				return rc;
			p = row_begin(s->buf + s->len, bin, 8);
			p = put_int(p, bin, (uint32_t)o);
			p = put_int(p, bin, (uint32_t)d);
			p = put_int(p, bin, (uint32_t)w);
			p = put_int(p, bin, (uint32_t)perm[o - 1]);
			p = put_timestamp(p, bin, &g->now);
			if (o < TPCC_FIRST_UNDELIVERED_O_ID)
				p = put_int(p, bin,
					    (uint32_t)rng_range(&r, 1, 10));
			else
				p = put_null(p, bin);
			p = put_int(p, bin, (uint32_t)rng_range(&cnt, 5, 15));
			p = put_int(p, bin, 1);
			s->len = (size_t)(row_end(p, bin) - s->buf);
		}
	}
	return 0;
}

static int gen_order_line(const struct gen *g, int w, struct load_sink *s)
{
	bool bin = g->bin;
	struct rng r, cnt;
	int d, o, n, ol_cnt, rc;

	seed_stream(&r, g->prm->seed, LOAD_ORDER_LINE + 1, w);
	seed_stream(&cnt, g->prm->seed, STREAM_OL_CNT, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (o = 1; o <= TPCC_ORDERS_PER_D; o++) {
			bool delivered = o < TPCC_FIRST_UNDELIVERED_O_ID;

			ol_cnt = (int)rng_range(&cnt, 5, 15);
			for (n = 1; n <= ol_cnt; n++) {
				char *p;

				if ((rc = room(s)) < 0)
					return rc;
				p = row_begin(s->buf + s->len, bin, 10);
				p = put_int(p, bin, (uint32_t)o);
				p = put_int(p, bin, (uint32_t)d);
				p = put_int(p, bin, (uint32_t)w);
				p = put_int(p, bin, (uint32_t)n);
				p = put_int(
					p, bin,
					(uint32_t)rng_range(&r, 1, TPCC_ITEMS));
				p = put_int(p, bin, (uint32_t)w);
				if (delivered) {
					p = put_timestamp(p, bin, &g->now);
					p = put_int(p, bin, 5);
					p = put_cents(p, bin, 0);
				} else {
					p = put_null(p, bin);
					p = put_int(p, bin, 5);
					p = put_cents(p, bin,
						      rng_range(&r, 1, 999999));
				}
				p = put_astr(p, bin, &r, 24, 24);
				s->len = (size_t)(row_end(p, bin) - s->buf);
			}
		}
	}
	return 0;
}

static int gen_item(const struct gen *g, struct load_sink *s)
{
	bool bin = g->bin;
	struct rng r;
	int i, rc;

	seed_stream(&r, g->prm->seed, LOAD_ITEM + 1, 0);
	for (i = 1; i <= TPCC_ITEMS; i++) {
		char *p;

		if ((rc = room(s)) < 0)
			return rc;
		p = row_begin(s->buf + s->len, bin, 5);
		p = put_int(p, bin, (uint32_t)i);
		p = put_int(p, bin, (uint32_t)rng_range(&r, 1, 10000));
		p = put_astr(p, bin, &r, 14, 24);
		p = put_cents(p, bin, rng_range(&r, 100, 10000));
		p = put_data(p, bin, &r);
		s->len = (size_t)(row_end(p, bin) - s->buf);
	}
	return 0;
}

static int gen_stock(const struct gen *g, int w, struct load_sink *s)
{
	bool bin = g->bin;
	struct rng r;
	int i, k, rc;

	seed_stream(&r, g->prm->seed, LOAD_STOCK + 1, w);
	for (i = 1; i <= TPCC_ITEMS; i++) {
		char *p;

		if ((rc = room(s)) < 0)
			return rc;
		p = row_begin(s->buf + s->len, bin, 17);
		p = put_int(p, bin, (uint32_t)i);
		p = put_int(p, bin, (uint32_t)w);
		p = put_int(p, bin, (uint32_t)rng_range(&r, 10, 100));
		for (k = 0; k < 10; k++)
			p = put_astr(p, bin, &r, 24, 24);
		p = put_int(p, bin, 0);
		p = put_int(p, bin, 0);
		p = put_int(p, bin, 0);
		p = put_data(p, bin, &r);
		s->len = (size_t)(row_end(p, bin) - s->buf);
	}
	return 0;
}

int load_gen_table(const struct load_gen_params *p, enum load_table t, int w_id,
		   struct load_sink *sink)
{
	struct gen g = {.prm = p, .now.text = p->now};
	int rc;

	if (p->format != LOAD_FORMAT_BINARY && p->format != LOAD_FORMAT_TEXT)
		return -EINVAL;
	g.bin = p->format == LOAD_FORMAT_BINARY;
	if (parse_now(p->now, &g.now.pg_us) < 0)
		return -EINVAL;
	switch (t) {
	case LOAD_WAREHOUSE:
		rc = gen_warehouse(&g, w_id, sink);
		break;
	case LOAD_DISTRICT:
		rc = gen_district(&g, w_id, sink);
		break;
	case LOAD_CUSTOMER:
		rc = gen_customer(&g, w_id, sink);
		break;
	case LOAD_HISTORY:
		rc = gen_history(&g, w_id, sink);
		break;
	case LOAD_NEW_ORDER:
		rc = gen_new_order(&g, w_id, sink);
		break;
	case LOAD_ORDERS:
		rc = gen_orders(&g, w_id, sink);
		break;
	case LOAD_ORDER_LINE:
		rc = gen_order_line(&g, w_id, sink);
		break;
	case LOAD_ITEM:
		rc = gen_item(&g, sink);
		break;
	case LOAD_STOCK:
		rc = gen_stock(&g, w_id, sink);
		break;
	default:
		return -EINVAL;
	}
	if (rc < 0)
		return rc;
	return sink->len ? sink->flush(sink) : 0;
}

/* The binary format's signature, its terminating NUL included. */
static const char copy_signature[11] = "PGCOPY\n\377\r\n";

int load_gen_begin(const struct load_gen_params *p, struct load_sink *sink)
{
	char *q;
	int rc;

	if (p->format == LOAD_FORMAT_TEXT)
		return 0;
	if (p->format != LOAD_FORMAT_BINARY)
		return -EINVAL;
	if ((rc = room(sink)) < 0)
		return rc;
	q = sink->buf + sink->len;
	memcpy(q, copy_signature, sizeof(copy_signature));
	q += sizeof(copy_signature);
	/* flags: bit 16 would say OIDs follow, the rest must be 0 */
	q = put_be32(q, 0);
	/* no header extension */
	q = put_be32(q, 0);
	sink->len = (size_t)(q - sink->buf);
	return 0;
}

int load_gen_end(const struct load_gen_params *p, struct load_sink *sink)
{
	int rc;

	if (p->format == LOAD_FORMAT_BINARY) {
		if ((rc = room(sink)) < 0)
			return rc;
		sink->len = (size_t)(put_be16(sink->buf + sink->len, 0xffff) -
				     sink->buf);
	}
	return sink->len ? sink->flush(sink) : 0;
}
