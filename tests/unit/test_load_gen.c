/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_load_gen.c - the population rules of clause 4.3.3.1, checked on
 * the COPY text the loader's generator writes, without a database: every
 * range and length, the 10 % ORIGINAL and BC shares, C_LAST, the O_C_ID
 * permutation, carrier and delivery rules, NEW-ORDER 2101..3000, the
 * COPY column lists against schema/tables.sql, and reproducibility.
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

#include "src/load.h"
#include "src/schema_sql.h"
#include "src/tpcc_random.h"

#define NOW	   "2025-03-04 05:06:07"
#define MAX_FIELDS 24

/* A sink that keeps everything in one growing buffer. */
struct collect {
	struct load_sink sink; /* must be first */
	char *all;	       /* every byte flushed so far */
	size_t len;	       /* bytes in all */
	size_t cap;	       /* size of all */
	int flushes;	       /* calls of flush */
	int fail_after;	       /* >0: return -EINTR at this flush */
};

static int collect_flush(struct load_sink *s)
{
	struct collect *c = (struct collect *)s;

	c->flushes++;
	if (c->fail_after && c->flushes >= c->fail_after)
		return -EINTR;
	/* Whole rows only: a flushed buffer always ends a line. */
	assert_true(s->len > 0);
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
	return 0;
}

static void collect_init(struct collect *c, size_t buf_bytes)
{
	memset(c, 0, sizeof(*c));
	c->sink.buf = malloc(buf_bytes);
	assert_non_null(c->sink.buf);
	c->sink.cap = buf_bytes;
	c->sink.flush = collect_flush;
}

static void collect_free(struct collect *c)
{
	free(c->sink.buf);
	free(c->all);
}

static struct load_gen_params params(uint64_t seed)
{
	struct load_gen_params p = {.seed = seed, .c_load = 157};

	memcpy(p.now, NOW, sizeof(NOW));
	return p;
}

/* Generate table t of warehouse w into c (a fresh collector). */
static void generate(struct collect *c, uint64_t seed, enum load_table t, int w,
		     size_t buf_bytes)
{
	struct load_gen_params p = params(seed);

	collect_init(c, buf_bytes);
	assert_int_equal(load_gen_table(&p, t, w, &c->sink), 0);
	assert_int_equal(c->sink.len, 0);
	assert_non_null(c->all);
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

/* The bytes are printable ASCII, tabs and newlines; "\" only in "\N". */
static void test_copy_text_needs_no_escaping(void **state)
{
	int t;

	(void)state;
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		struct collect c;
		size_t i;

		generate(&c, 7, t, 1, 256 * 1024);
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
		char head[64], want[1024] = "", *p;
		const char *s;

		snprintf(head, sizeof(head), "CREATE TABLE %s (", ti->name);
		s = strstr(schema_tables_sql, head);
		if (!s)
			fail_msg("tables.sql has no '%s'", head);
		s += strlen(head);
		/* One column per line: the first word of each line. */
		while ((s = strchr(s, '\n')) && s[1] != ')') {
			char word[64];

			s++;
			if (sscanf(s, " %63[a-z0-9_]", word) != 1)
				continue;
			if (want[0])
				strcat(want, ", ");
			strcat(want, word);
		}
		assert_string_equal(ti->columns, want);
		assert_int_equal(load_table_by_name(ti->name), t);
		/* A generated row has as many fields as the list. */
		{
			struct collect c;
			char *f[MAX_FIELDS];
			int ncols = 1;

			for (p = (char *)ti->columns; *p; p++)
				ncols += *p == ',';
			generate(&c, 3, t, 1, 256 * 1024);
			p = c.all;
			assert_int_equal(next_row(&p, f), ncols);
			collect_free(&c);
		}
	}
	assert_int_equal(load_table_by_name("nosuch"), -1);
}

static void test_warehouse_and_district(void **state)
{
	struct collect c;
	char *pos, *f[MAX_FIELDS];
	int n, rows = 0;

	(void)state;
	generate(&c, 11, LOAD_WAREHOUSE, 4, 4096);
	pos = c.all;
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

	generate(&c, 11, LOAD_DISTRICT, 4, 4096);
	pos = c.all;
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
	generate(&c, 5, LOAD_CUSTOMER, 2, 256 * 1024);
	pos = c.all;
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
	generate(&c, 5, LOAD_HISTORY, 3, 256 * 1024);
	pos = c.all;
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
	generate(&co, 9, LOAD_ORDERS, 1, 256 * 1024);
	pos = co.all;
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

	generate(&cl, 9, LOAD_ORDER_LINE, 1, 256 * 1024);
	pos = cl.all;
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

	generate(&cn, 9, LOAD_NEW_ORDER, 1, 4096);
	pos = cn.all;
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
	generate(&c, 13, LOAD_ITEM, 0, 256 * 1024);
	pos = c.all;
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

	generate(&c, 13, LOAD_STOCK, 7, 256 * 1024);
	pos = c.all;
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

/* Same (seed, warehouse): same bytes, whatever the buffer size. */
static void test_reproducible(void **state)
{
	static const enum load_table tables[] = {LOAD_CUSTOMER, LOAD_STOCK,
						 LOAD_ORDER_LINE};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		struct collect a, b, other_seed, other_w;

		generate(&a, 99, tables[i], 3, 256 * 1024);
		generate(&b, 99, tables[i], 3, LOAD_ROW_MAX + 100);
		generate(&other_seed, 100, tables[i], 3, 256 * 1024);
		generate(&other_w, 99, tables[i], 4, 256 * 1024);
		assert_true(b.flushes > a.flushes);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.all, b.all, a.len);
		assert_true(a.len != other_seed.len ||
			    memcmp(a.all, other_seed.all, a.len) != 0);
		assert_true(a.len != other_w.len ||
			    memcmp(a.all, other_w.all, a.len) != 0);
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
	struct load_gen_params p = params(1);
	struct collect c;

	(void)state;
	collect_init(&c, LOAD_ROW_MAX + 64);
	c.fail_after = 3;
	assert_int_equal(load_gen_table(&p, LOAD_STOCK, 1, &c.sink), -EINTR);
	assert_int_equal(c.flushes, 3);
	assert_int_equal(load_gen_table(&p, LOAD_TABLE_NR, 1, &c.sink),
			 -EINVAL);
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
		cmocka_unit_test(test_copy_text_needs_no_escaping),
		cmocka_unit_test(test_columns_match_tables_sql),
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
