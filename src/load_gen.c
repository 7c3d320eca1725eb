/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load_gen.c - the TPC-C population of clause 4.3.3.1 as COPY text.
 *
 * One function per table writes the rows of one warehouse straight into
 * the sink's buffer. This is the loader's hot path, so fields are
 * formatted by hand (no printf): integers by a small digit loop, money as
 * integer cents printed "units.cc" (never a float), strings with
 * tpcc_astring() written in place. Every generated string is alphanumeric
 * (plus the fixed words "ORIGINAL", "OE", "GC"/"BC" and the C_LAST
 * syllables), so COPY text needs no escaping: only \N for NULL.
 *
 * Each (table, warehouse) pair draws from its own generator seeded with
 * (seed, stream), so a warehouse's rows do not depend on which thread
 * writes them or when. ORDER and ORDER-LINE must agree on O_OL_CNT: both
 * replay the same per-warehouse stream of counts.
 */
#include "src/load.h"

#include <errno.h>
#include <string.h>

#include "src/rng.h"
#include "src/tpcc_random.h"

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
		.text_bytes_per_w = 90,
	},
	[LOAD_DISTRICT] = {
		.name = "district",
		.columns = "d_id, d_w_id, d_name, d_street_1, d_street_2, "
			   "d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id",
		.per_warehouse = true,
		.rows_per_w = TPCC_DISTRICTS_PER_W,
		.text_bytes_per_w = 950,
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
		.text_bytes_per_w = 17200000,
	},
	[LOAD_HISTORY] = {
		.name = "history",
		.columns = "h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, "
			   "h_date, h_amount, h_data",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_CUSTOMERS_PER_D),
		.text_bytes_per_w = 1730000,
	},
	[LOAD_NEW_ORDER] = {
		.name = "new_order",
		.columns = "no_o_id, no_d_id, no_w_id",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_NEW_ORDERS_PER_D),
		.text_bytes_per_w = 106000,
	},
	[LOAD_ORDERS] = {
		.name = "orders",
		.columns = "o_id, o_d_id, o_w_id, o_c_id, o_entry_d, "
			   "o_carrier_id, o_ol_cnt, o_all_local",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_ORDERS_PER_D),
		.text_bytes_per_w = 1200000,
	},
	[LOAD_ORDER_LINE] = {
		.name = "order_line",
		.columns = "ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, "
			   "ol_supply_w_id, ol_delivery_d, ol_quantity, "
			   "ol_amount, ol_dist_info",
		.per_warehouse = true,
		.rows_per_w = PER_W(TPCC_ORDERS_PER_D) * 10, /* 5..15 each */
		.text_bytes_per_w = 20000000,
	},
	[LOAD_ITEM] = {
		.name = "item",
		.columns = "i_id, i_im_id, i_name, i_price, i_data",
		.per_warehouse = false,
		.rows_per_w = TPCC_ITEMS,
		.text_bytes_per_w = 7600000,
	},
	[LOAD_STOCK] = {
		.name = "stock",
		.columns = "s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, "
			   "s_dist_03, s_dist_04, s_dist_05, s_dist_06, "
			   "s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, "
			   "s_order_cnt, s_remote_cnt, s_data",
		.per_warehouse = true,
		.rows_per_w = TPCC_ITEMS,
		.text_bytes_per_w = 30600000,
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

/* Integer then a tab: the most common field. */
static inline char *put_uint_tab(char *p, uint32_t v)
{
	p = put_uint(p, v);
	*p++ = '\t';
	return p;
}

/* Non-negative cents as "units.cc": exact decimal text, no float. */
static inline char *put_cents(char *p, uint32_t cents)
{
	p = put_uint(p, cents / 100);
	*p++ = '.';
	*p++ = (char)('0' + cents / 10 % 10);
	*p++ = (char)('0' + cents % 10);
	return p;
}

/* v in 0..9999 as "0.vvvv" (numeric(4,4): tax and discount). */
static inline char *put_frac4(char *p, uint32_t v)
{
	*p++ = '0';
	*p++ = '.';
	*p++ = (char)('0' + v / 1000);
	*p++ = (char)('0' + v / 100 % 10);
	*p++ = (char)('0' + v / 10 % 10);
	*p++ = (char)('0' + v % 10);
	return p;
}

static inline char *put_lit(char *p, const char *s, size_t len)
{
	memcpy(p, s, len);
	return p + len;
}

#define PUT_LIT(p, s) put_lit((p), (s), sizeof(s) - 1)

/* a-string [lo..hi] written in place, then a tab. */
static inline char *put_astr_tab(char *p, struct rng *r, int lo, int hi)
{
	p += tpcc_astring(r, lo, hi, p);
	*p++ = '\t';
	return p;
}

/* I_DATA / S_DATA: a[26..50], "ORIGINAL" in a random 10 % of rows. */
static inline char *put_data(char *p, struct rng *r)
{
	size_t len = tpcc_astring(r, 26, 50, p);

	if (rng_range(r, 1, 10) == 1)
		tpcc_put_original(r, p, len);
	return p + len;
}

/*
 * Street 1, street 2, city a[10..20], state a-string of 2, zip: the
 * address of WAREHOUSE, DISTRICT and CUSTOMER, each field followed by a
 * tab.
 */
static char *put_address(char *p, struct rng *r)
{
	p = put_astr_tab(p, r, 10, 20);
	p = put_astr_tab(p, r, 10, 20);
	p = put_astr_tab(p, r, 10, 20);
	p = put_astr_tab(p, r, 2, 2);
	tpcc_zip(r, p);
	p += 9;
	*p++ = '\t';
	return p;
}

static int gen_warehouse(const struct load_gen_params *prm, int w,
			 struct load_sink *s)
{
	struct rng r;
	char *p;
	int rc;

	seed_stream(&r, prm->seed, LOAD_WAREHOUSE + 1, w);
	if ((rc = room(s)) < 0)
		return rc;
	p = s->buf + s->len;
	p = put_uint_tab(p, (uint32_t)w);
	p = put_astr_tab(p, &r, 6, 10);
	p = put_address(p, &r);
	p = put_frac4(p, (uint32_t)rng_range(&r, 0, 2000));
	p = PUT_LIT(p, "\t300000.00\n");
	s->len = (size_t)(p - s->buf);
	return 0;
}

static int gen_district(const struct load_gen_params *prm, int w,
			struct load_sink *s)
{
	struct rng r;
	int d, rc;

	seed_stream(&r, prm->seed, LOAD_DISTRICT + 1, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		char *p;

		if ((rc = room(s)) < 0)
			return rc;
		p = s->buf + s->len;
		p = put_uint_tab(p, (uint32_t)d);
		p = put_uint_tab(p, (uint32_t)w);
		p = put_astr_tab(p, &r, 6, 10);
		p = put_address(p, &r);
		p = put_frac4(p, (uint32_t)rng_range(&r, 0, 2000));
		p = PUT_LIT(p, "\t30000.00\t");
		p = put_uint(p, TPCC_ORDERS_PER_D + 1);
		*p++ = '\n';
		s->len = (size_t)(p - s->buf);
	}
	return 0;
}

static int gen_customer(const struct load_gen_params *prm, int w,
			struct load_sink *s)
{
	char last[1000][TPCC_C_LAST_MAX];
	uint8_t last_len[1000];
	struct rng r;
	int n, d, c, rc;

	for (n = 0; n < 1000; n++)
		last_len[n] = (uint8_t)tpcc_c_last(n, last[n]);
	seed_stream(&r, prm->seed, LOAD_CUSTOMER + 1, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (c = 1; c <= TPCC_CUSTOMERS_PER_D; c++) {
			char *p;

			if ((rc = room(s)) < 0)
				return rc;
			p = s->buf + s->len;
			p = put_uint_tab(p, (uint32_t)c);
			p = put_uint_tab(p, (uint32_t)d);
			p = put_uint_tab(p, (uint32_t)w);
			p = put_astr_tab(p, &r, 8, 16);
			p = PUT_LIT(p, "OE\t");
			/* 4.3.3.1: names 0..999 in order, then NURand. */
			n = c <= 1000 ? c - 1
				      : tpcc_nurand(&r, TPCC_A_C_LAST, 0, 999,
						    prm->c_load);
			p = put_lit(p, last[n], last_len[n]);
			*p++ = '\t';
			p = put_address(p, &r);
			p += tpcc_nstring(&r, 16, 16, p);
			*p++ = '\t';
			p = put_lit(p, prm->now, LOAD_TIMESTAMP_LEN);
			if (rng_range(&r, 1, 10) == 1)
				p = PUT_LIT(p, "\tBC\t50000.00\t");
			else
				p = PUT_LIT(p, "\tGC\t50000.00\t");
			p = put_frac4(p, (uint32_t)rng_range(&r, 0, 5000));
			p = PUT_LIT(p, "\t-10.00\t10.00\t1\t0\t");
			p += tpcc_astring(&r, 300, 500, p);
			*p++ = '\n';
			s->len = (size_t)(p - s->buf);
		}
	}
	return 0;
}

static int gen_history(const struct load_gen_params *prm, int w,
		       struct load_sink *s)
{
	struct rng r;
	int d, c, rc;

	seed_stream(&r, prm->seed, LOAD_HISTORY + 1, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (c = 1; c <= TPCC_CUSTOMERS_PER_D; c++) {
			char *p;

			if ((rc = room(s)) < 0)
				return rc;
			p = s->buf + s->len;
			p = put_uint_tab(p, (uint32_t)c);
			p = put_uint_tab(p, (uint32_t)d);
			p = put_uint_tab(p, (uint32_t)w);
			p = put_uint_tab(p, (uint32_t)d);
			p = put_uint_tab(p, (uint32_t)w);
			p = put_lit(p, prm->now, LOAD_TIMESTAMP_LEN);
			p = PUT_LIT(p, "\t10.00\t");
			p += tpcc_astring(&r, 12, 24, p);
			*p++ = '\n';
			s->len = (size_t)(p - s->buf);
		}
	}
	return 0;
}

static int gen_new_order(const struct load_gen_params *prm, int w,
			 struct load_sink *s)
{
	int d, o, rc;

	(void)prm;
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (o = TPCC_FIRST_UNDELIVERED_O_ID; o <= TPCC_ORDERS_PER_D;
		     o++) {
			char *p;

			if ((rc = room(s)) < 0)
				return rc;
			p = s->buf + s->len;
			p = put_uint_tab(p, (uint32_t)o);
			p = put_uint_tab(p, (uint32_t)d);
			p = put_uint(p, (uint32_t)w);
			*p++ = '\n';
			s->len = (size_t)(p - s->buf);
		}
	}
	return 0;
}

static int gen_orders(const struct load_gen_params *prm, int w,
		      struct load_sink *s)
{
	int perm[TPCC_ORDERS_PER_D];
	struct rng r, cnt;
	int d, o, i, rc;

	seed_stream(&r, prm->seed, LOAD_ORDERS + 1, w);
	seed_stream(&cnt, prm->seed, STREAM_OL_CNT, w);
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
			p = s->buf + s->len;
			p = put_uint_tab(p, (uint32_t)o);
			p = put_uint_tab(p, (uint32_t)d);
			p = put_uint_tab(p, (uint32_t)w);
			p = put_uint_tab(p, (uint32_t)perm[o - 1]);
			p = put_lit(p, prm->now, LOAD_TIMESTAMP_LEN);
			*p++ = '\t';
			if (o < TPCC_FIRST_UNDELIVERED_O_ID)
				p = put_uint_tab(
					p, (uint32_t)rng_range(&r, 1, 10));
			else
				p = PUT_LIT(p, "\\N\t");
			p = put_uint(p, (uint32_t)rng_range(&cnt, 5, 15));
			p = PUT_LIT(p, "\t1\n");
			s->len = (size_t)(p - s->buf);
		}
	}
	return 0;
}

static int gen_order_line(const struct load_gen_params *prm, int w,
			  struct load_sink *s)
{
	struct rng r, cnt;
	int d, o, n, ol_cnt, rc;

	seed_stream(&r, prm->seed, LOAD_ORDER_LINE + 1, w);
	seed_stream(&cnt, prm->seed, STREAM_OL_CNT, w);
	for (d = 1; d <= TPCC_DISTRICTS_PER_W; d++) {
		for (o = 1; o <= TPCC_ORDERS_PER_D; o++) {
			bool delivered = o < TPCC_FIRST_UNDELIVERED_O_ID;

			ol_cnt = (int)rng_range(&cnt, 5, 15);
			for (n = 1; n <= ol_cnt; n++) {
				char *p;

				if ((rc = room(s)) < 0)
					return rc;
				p = s->buf + s->len;
				p = put_uint_tab(p, (uint32_t)o);
				p = put_uint_tab(p, (uint32_t)d);
				p = put_uint_tab(p, (uint32_t)w);
				p = put_uint_tab(p, (uint32_t)n);
				p = put_uint_tab(p, (uint32_t)rng_range(
							    &r, 1, TPCC_ITEMS));
				p = put_uint_tab(p, (uint32_t)w);
				if (delivered) {
					p = put_lit(p, prm->now,
						    LOAD_TIMESTAMP_LEN);
					p = PUT_LIT(p, "\t5\t0.00\t");
				} else {
					p = PUT_LIT(p, "\\N\t5\t");
					p = put_cents(
						p, (uint32_t)rng_range(&r, 1,
								       999999));
					*p++ = '\t';
				}
				p += tpcc_astring(&r, 24, 24, p);
				*p++ = '\n';
				s->len = (size_t)(p - s->buf);
			}
		}
	}
	return 0;
}

static int gen_item(const struct load_gen_params *prm, struct load_sink *s)
{
	struct rng r;
	int i, rc;

	seed_stream(&r, prm->seed, LOAD_ITEM + 1, 0);
	for (i = 1; i <= TPCC_ITEMS; i++) {
		char *p;

		if ((rc = room(s)) < 0)
			return rc;
		p = s->buf + s->len;
		p = put_uint_tab(p, (uint32_t)i);
		p = put_uint_tab(p, (uint32_t)rng_range(&r, 1, 10000));
		p = put_astr_tab(p, &r, 14, 24);
		p = put_cents(p, (uint32_t)rng_range(&r, 100, 10000));
		*p++ = '\t';
		p = put_data(p, &r);
		*p++ = '\n';
		s->len = (size_t)(p - s->buf);
	}
	return 0;
}

static int gen_stock(const struct load_gen_params *prm, int w,
		     struct load_sink *s)
{
	struct rng r;
	int i, k, rc;

	seed_stream(&r, prm->seed, LOAD_STOCK + 1, w);
	for (i = 1; i <= TPCC_ITEMS; i++) {
		char *p;

		if ((rc = room(s)) < 0)
			return rc;
		p = s->buf + s->len;
		p = put_uint_tab(p, (uint32_t)i);
		p = put_uint_tab(p, (uint32_t)w);
		p = put_uint_tab(p, (uint32_t)rng_range(&r, 10, 100));
		for (k = 0; k < 10; k++)
			p = put_astr_tab(p, &r, 24, 24);
		p = PUT_LIT(p, "0\t0\t0\t");
		p = put_data(p, &r);
		*p++ = '\n';
		s->len = (size_t)(p - s->buf);
	}
	return 0;
}

int load_gen_table(const struct load_gen_params *p, enum load_table t, int w_id,
		   struct load_sink *sink)
{
	int rc;

	switch (t) {
	case LOAD_WAREHOUSE:
		rc = gen_warehouse(p, w_id, sink);
		break;
	case LOAD_DISTRICT:
		rc = gen_district(p, w_id, sink);
		break;
	case LOAD_CUSTOMER:
		rc = gen_customer(p, w_id, sink);
		break;
	case LOAD_HISTORY:
		rc = gen_history(p, w_id, sink);
		break;
	case LOAD_NEW_ORDER:
		rc = gen_new_order(p, w_id, sink);
		break;
	case LOAD_ORDERS:
		rc = gen_orders(p, w_id, sink);
		break;
	case LOAD_ORDER_LINE:
		rc = gen_order_line(p, w_id, sink);
		break;
	case LOAD_ITEM:
		rc = gen_item(p, sink);
		break;
	case LOAD_STOCK:
		rc = gen_stock(p, w_id, sink);
		break;
	default:
		return -EINVAL;
	}
	if (rc < 0)
		return rc;
	return sink->len ? sink->flush(sink) : 0;
}
