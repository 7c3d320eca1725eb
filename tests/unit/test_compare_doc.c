/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_doc.c - compare's document model (compare_doc.h) and its
 * three renderers (compare_render.h) on small documents built here:
 * cells and numbers, grouped and attached columns, text sized by UTF-8
 * characters and wrapped at 78 columns, Markdown and HTML escaping, the
 * sticky out-of-memory flag, and the file names of compare_out.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare_doc.h"
#include "analysis/compare/compare_out.h"
#include "analysis/compare/compare_render.h"

/* A renderer of compare_render.h. */
typedef int (*render_fn)(FILE *f, const struct cdoc *d);

/* What render writes for d, as a new string the caller frees. */
static char *render(render_fn fn, const struct cdoc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, d), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A table of a score-like shape: a label, then a group of two numbers
 * with an attached star, then a remark column. */
static void score_like(struct cdoc *d)
{
	struct cdoc_table *t =
		compare_doc_table(d, 5, compare_doc_fmt(d, "%s", "Cached"));
	size_t r;

	compare_doc_col(d, t, 0, "Label", false, 0);
	compare_doc_col(d, t, 1, "Score", true, 2);
	compare_doc_col(d, t, 2, "±95 %", true, 2);
	compare_doc_col(d, t, 3, "", false, 1);
	compare_doc_attach(t, 3);
	compare_doc_group(d, t, 1, 3, 1, "cached");
	compare_doc_col(d, t, 4, "", false, 2);
	r = compare_doc_row(d, t);
	compare_doc_cell(d, t, r, 0, "%s", "base");
	compare_doc_num(d, t, r, 1, 100, 2);
	compare_doc_cell(d, t, r, 4, "(baseline)");
	r = compare_doc_row(d, t);
	compare_doc_cell(d, t, r, 0, "%s", "patched");
	compare_doc_num(d, t, r, 1, 104.256, 2);
	compare_doc_cell(d, t, r, 2, "±%.2f", 1.5);
	compare_doc_cell(d, t, r, 3, "*");
	assert_false(d->oom);
}

static void test_model(void **state)
{
	struct cdoc d = {0};
	struct cdoc_table *t;
	size_t r;

	(void)state;
	compare_doc_heading(&d, 1, "title %d", 1);
	compare_doc_para(&d, "a %s", "paragraph");
	t = compare_doc_table(&d, 2, NULL);
	assert_non_null(t);
	compare_doc_col(&d, t, 0, "a", false, 0);
	compare_doc_col(&d, t, 1, "b", true, 2);
	/* more rows than the first allocation */
	for (r = 0; r < 40; r++)
		assert_int_equal(compare_doc_row(&d, t), r);
	compare_doc_cell(&d, t, 39, 1, "%zu", (size_t)39);
	/* setting a cell again replaces it */
	compare_doc_cell(&d, t, 0, 0, "x");
	compare_doc_cell(&d, t, 0, 0, "y");
	compare_doc_list(&d, CDOC_LIST);
	compare_doc_item(&d, "item %d", 1);
	compare_doc_item(&d, "item %d", 2);
	compare_doc_list(&d, CDOC_IMAGES);
	compare_doc_image(&d, "Caption", "plot-%s", "r");
	assert_false(d.oom);

	assert_int_equal(d.n, 5);
	assert_int_equal(d.v[0].kind, CDOC_HEADING);
	assert_int_equal(d.v[0].level, 1);
	assert_string_equal(d.v[0].text, "title 1");
	assert_string_equal(d.v[1].text, "a paragraph");
	assert_ptr_equal(d.v[2].table, t);
	assert_int_equal(t->nrows, 40);
	assert_string_equal(t->cells[0], "y");
	assert_null(t->cells[1]);
	assert_string_equal(t->cells[39 * 2 + 1], "39");
	assert_true(t->right[1]);
	assert_int_equal(t->gap[1], 2);
	assert_int_equal(d.v[3].nitems, 2);
	assert_string_equal(d.v[3].items[1], "item 2");
	assert_null(d.v[3].titles[0]);
	assert_string_equal(d.v[4].items[0], "plot-r");
	assert_string_equal(d.v[4].titles[0], "Caption");
	compare_doc_free(&d);
	assert_int_equal(d.n, 0);
	assert_null(d.v);
}

/* Numbers: a fixed count of decimals, "-" for unknown, no "-0.00". */
static void test_numbers(void **state)
{
	static const struct {
		bool change; /* compare_doc_change(), else compare_doc_num() */
		double v;    /* the value */
		int dec;     /* decimals */
		const char *cell; /* what the cell says */
	} cases[] = {
		{false, 1.005, 1, "1.0"},    {false, 2.5, 0, "2"},
		{false, NAN, 2, "-"},	     {false, INFINITY, 2, "-"},
		{false, -0.001, 2, "-0.00"}, {true, 1.234, 2, "+1.23"},
		{true, -1.235, 1, "-1.2"},   {true, -0.001, 2, "+0.00"},
		{true, 0.004, 2, "+0.00"},   {true, NAN, 1, "-"},
		{true, -INFINITY, 1, "-"},
	};
	struct cdoc d = {0};
	struct cdoc_table *t = compare_doc_table(&d, 1, NULL);
	size_t i, r;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = compare_doc_row(&d, t);
		if (cases[i].change)
			compare_doc_change(&d, t, r, 0, cases[i].v,
					   cases[i].dec);
		else
			compare_doc_num(&d, t, r, 0, cases[i].v, cases[i].dec);
		print_message("case %zu\n", i);
		assert_string_equal(t->cells[r], cases[i].cell);
	}
	compare_doc_free(&d);
}

/* After a failed allocation, nothing more is added; NULL tables neither. */
static void test_sticky_oom(void **state)
{
	struct cdoc d = {0};
	struct cdoc_table *t;

	(void)state;
	t = compare_doc_table(&d, 1, NULL);
	compare_doc_list(&d, CDOC_LIST);
	d.oom = true;
	assert_int_equal(compare_doc_row(&d, t), SIZE_MAX);
	compare_doc_cell(&d, t, 0, 0, "x");
	assert_int_equal(t->nrows, 0);
	compare_doc_item(&d, "lost");
	assert_int_equal(d.v[1].nitems, 0);
	/* a row index of SIZE_MAX and a NULL table are no-ops */
	d.oom = false;
	compare_doc_cell(&d, t, SIZE_MAX, 0, "x");
	compare_doc_col(&d, NULL, 0, "h", false, 0);
	compare_doc_group(&d, NULL, 0, 1, 1, "g");
	compare_doc_attach(NULL, 0);
	assert_int_equal(compare_doc_row(&d, NULL), SIZE_MAX);
	compare_doc_num(&d, NULL, 0, 0, 1, 1);
	assert_false(d.oom);
	/* an item with no block to go to is dropped */
	compare_doc_free(&d);
	compare_doc_item(&d, "nowhere");
	assert_int_equal(d.n, 0);
	compare_doc_free(&d);
}

static void test_text(void **state)
{
	static const char expected[] = "Title\n"
				       "=====\n"
				       "\n"
				       "Section\n"
				       "-------\n"
				       "Cached\n"
				       "         cached\n"
				       "Label     Score  ±95 %\n"
				       "base     100.00           (baseline)\n"
				       "patched  104.26  ±1.50 *\n"
				       "\n"
				       "Sub\n"
				       "  one item\n"
				       "  a.png  A\n";
	struct cdoc d = {0};
	char *out;

	(void)state;
	compare_doc_heading(&d, 1, "Title");
	compare_doc_heading(&d, 2, "Section");
	score_like(&d);
	compare_doc_heading(&d, 3, "Sub");
	compare_doc_list(&d, CDOC_LIST);
	compare_doc_item(&d, "one item");
	compare_doc_list(&d, CDOC_IMAGES);
	compare_doc_image(&d, "A", "a");
	out = render(compare_render_text, &d);
	assert_string_equal(out, expected);
	free(out);
	compare_doc_free(&d);
}

/* Paragraphs and list items wrap at 78 characters, counting UTF-8. */
static void test_text_wrap(void **state)
{
	char word[16], para[1024] = "", *out, *line;
	struct cdoc d = {0};
	size_t i, lines = 0;

	(void)state;
	for (i = 0; i < 40; i++) {
		snprintf(word, sizeof(word), "±%03zu ", i);
		strcat(para, word);
	}
	compare_doc_para(&d, "%s", para);
	compare_doc_list(&d, CDOC_LIST);
	compare_doc_item(&d, "%s", para);
	out = render(compare_render_text, &d);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		size_t chars = 0;
		const char *p;

		for (p = line; *p; p++)
			chars += ((unsigned char)*p & 0xC0) != 0x80;
		assert_true(chars <= COMPARE_RENDER_TEXT_WIDTH);
		/* each line full but for the last of each block: a word of
		 * 4 characters and a space would not fit */
		assert_true(chars > COMPARE_RENDER_TEXT_WIDTH - 5 ||
			    strstr(line, "±039"));
		/* list items: "  " first, "    " on continuations */
		if (lines >= 3)
			assert_true(strncmp(line, "  ", 2) == 0);
		lines++;
	}
	assert_int_equal(lines, 6);
	free(out);
	compare_doc_free(&d);
}

/* A group title wider than its columns widens the first of them. */
static void test_text_wide_group(void **state)
{
	static const char expected[] = "  a group title\n"
				       "  x\n"
				       "  1\n";
	struct cdoc d = {0};
	struct cdoc_table *t = compare_doc_table(&d, 1, NULL);
	char *out;

	(void)state;
	compare_doc_col(&d, t, 0, "x", false, 2);
	compare_doc_group(&d, t, 0, 1, 1, "a group title");
	compare_doc_cell(&d, t, compare_doc_row(&d, t), 0, "1");
	out = render(compare_render_text, &d);
	assert_string_equal(out, expected);
	free(out);
	compare_doc_free(&d);
}

static void test_markdown(void **state)
{
	static const char expected[] =
		"# Title \\*with\\* \\_marks\\_\n"
		"\n"
		"a \\| b \\<c\\> \\#1 \\`x\\` \\[l\\] \\\\\n"
		"\n"
		"**Cached**\n"
		"\n"
		"| Label | cached Score | ±95 % |  |\n"
		"|---|---:|---:|---|\n"
		"| base | 100.00 |  | (baseline) |\n"
		"| patched | 104.26 | ±1.50 \\* |  |\n"
		"\n"
		"- item\n"
		"\n"
		"![A](compare-plots/a.png)\n"
		"\n";
	struct cdoc d = {0};
	char *out;

	(void)state;
	compare_doc_heading(&d, 1, "Title *with* _marks_");
	compare_doc_para(&d, "a | b <c> #1 `x` [l] \\");
	score_like(&d);
	compare_doc_list(&d, CDOC_LIST);
	compare_doc_item(&d, "item");
	compare_doc_list(&d, CDOC_IMAGES);
	compare_doc_image(&d, "A", "a");
	out = render(compare_render_md, &d);
	assert_string_equal(out, expected);
	free(out);
	compare_doc_free(&d);
}

static void test_html(void **state)
{
	struct cdoc d = {0};
	char *out;

	(void)state;
	compare_doc_heading(&d, 1, "A <title> & more");
	compare_doc_para(&d, "x < y & \"z\"");
	score_like(&d);
	compare_doc_list(&d, CDOC_IMAGES);
	compare_doc_image(&d, "cap\"tion", "a<b");
	out = render(compare_render_html, &d);
	/* a whole page, titled by the first heading, escaped */
	assert_true(strncmp(out, "<!DOCTYPE html>\n", 16) == 0);
	assert_non_null(
		strstr(out, "<title>A &lt;title&gt; &amp; more</title>"));
	assert_non_null(strstr(out, "<h1>A &lt;title&gt; &amp; more</h1>\n"));
	assert_non_null(strstr(out, "<p>x &lt; y &amp; &quot;z&quot;</p>\n"));
	/* the group spans its three columns, the attached one not counted */
	assert_non_null(strstr(out, "<th colspan=\"2\" class=\"group\">"
				    "cached</th>"));
	assert_non_null(strstr(out, "<caption>Cached</caption>"));
	/* the star goes into the cell before it */
	assert_non_null(strstr(out, "<td class=\"n\">±1.50 *</td>"));
	assert_non_null(strstr(out, "<img src=\"compare-plots/a&lt;b.png\" "
				    "alt=\"cap&quot;tion\">"));
	assert_null(strstr(out, "<script"));
	assert_non_null(strstr(out, "</body>\n</html>\n"));
	free(out);
	compare_doc_free(&d);
}

/*
 * Marks and links: HTML gives a marked cell its class and puts a cell's
 * links after its text, paths percent-encoded; text and Markdown show
 * neither.
 */
static void test_marks_links(void **state)
{
	struct cdoc d = {0};
	struct cdoc_table *t;
	char *out;

	(void)state;
	score_like(&d);
	t = d.v[0].table;
	compare_doc_mark(t, 1, 1, CDOC_MARK_BETTER);
	compare_doc_mark(t, 0, 1, CDOC_MARK_WORSE);
	compare_doc_mark(t, 0, 1, CDOC_MARK_NONE);
	compare_doc_mark(t, SIZE_MAX, 1, CDOC_MARK_WORSE);
	compare_doc_link(&d, t, 1, 1, "run-1", "p/run-1/report.html");
	compare_doc_link(&d, t, 1, 1, "run <2>", "p/run 2#/report.html");
	compare_doc_link(&d, t, SIZE_MAX, 1, "x", "y");
	assert_false(d.oom);
	assert_string_equal(t->links[1 * t->ncols + 1],
			    "run-1\tp/run-1/report.html\n"
			    "run <2>\tp/run 2#/report.html\n");
	out = render(compare_render_html, &d);
	assert_non_null(strstr(
		out, "<td class=\"n better\">104.26 <span class=\"runs\">"
		     "<a href=\"p/run-1/report.html\">run-1</a> "
		     "<a href=\"p/run%202%23/report.html\">run &lt;2&gt;</a>"
		     "</span></td>"));
	/* a mark set back to none leaves the cell plain */
	assert_non_null(strstr(out, "<td class=\"n\">100.00</td>"));
	assert_null(strstr(out, "class=\"n worse\""));
	free(out);
	out = render(compare_render_md, &d);
	assert_null(strstr(out, "report.html"));
	free(out);
	out = render(compare_render_text, &d);
	assert_null(strstr(out, "report.html"));
	free(out);
	compare_doc_free(&d);
}

/*
 * Three groups of 3 columns of 10 characters: 10 + 3 x 36 columns side by
 * side is wider than 78, so the text comes in parts of whole groups, each
 * repeating the label and the trailing mark; every line fits.
 */
static void test_text_split(void **state)
{
	struct cdoc d = {0};
	struct cdoc_table *t = compare_doc_table(&d, 11, NULL);
	size_t c, r, g;
	char *out, *line, *save = NULL;
	int parts = 0, marks = 0;

	(void)state;
	compare_doc_col(&d, t, 0, "Label", false, 0);
	for (g = 0; g < 3; g++) {
		for (c = 0; c < 3; c++)
			compare_doc_col(&d, t, 1 + 3 * g + c, "0123456789",
					true, 2);
		compare_doc_group(&d, t, 1 + 3 * g, 3, (int)g + 1,
				  g == 0   ? "first"
				  : g == 1 ? "second"
					   : "third");
	}
	compare_doc_col(&d, t, 10, "", false, 2);
	r = compare_doc_row(&d, t);
	compare_doc_cell(&d, t, r, 0, "base");
	for (c = 1; c < 10; c++)
		compare_doc_cell(&d, t, r, c, "%zu", c);
	compare_doc_cell(&d, t, r, 10, "(baseline)");
	out = render(compare_render_text, &d);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) <= COMPARE_RENDER_TEXT_WIDTH);
		parts += strncmp(line, "Label", 5) == 0;
		marks += strstr(line, "(baseline)") != NULL;
	}
	/* 10 + 2 x 36 + 12 = 94 > 78: one group a part */
	assert_int_equal(parts, 3);
	assert_int_equal(marks, 3);
	free(out);
	compare_doc_free(&d);
}

/*
 * A table whose last column is attached (each figure's significance
 * star, as compare's kernel-cost table): cut into parts, the last
 * figure's star stays with that figure, not at the end of every part.
 */
static void test_text_split_attached_last(void **state)
{
	struct cdoc d = {0};
	struct cdoc_table *t = compare_doc_table(&d, 13, NULL);
	size_t f, r;
	char *out, *line, *save = NULL;
	int parts = 0, stars = 0;

	(void)state;
	compare_doc_col(&d, t, 0, "Label", false, 0);
	for (f = 0; f < 6; f++) {
		compare_doc_col(&d, t, 1 + 2 * f, "figure 0123456789", true, 2);
		compare_doc_col(&d, t, 2 + 2 * f, "", false, 0);
		compare_doc_attach(t, 2 + 2 * f);
	}
	r = compare_doc_row(&d, t);
	compare_doc_cell(&d, t, r, 0, "b");
	for (f = 0; f < 6; f++)
		compare_doc_cell(&d, t, r, 1 + 2 * f, "%zu", f);
	/* only the last figure is marked */
	compare_doc_cell(&d, t, r, 12, "*");
	out = render(compare_render_text, &d);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) <= COMPARE_RENDER_TEXT_WIDTH);
		parts += strncmp(line, "Label", 5) == 0;
		if (strchr(line, '*')) {
			stars++;
			/* on the last figure's value, 5 */
			assert_non_null(strstr(line, "5*"));
		}
	}
	assert_true(parts >= 2);
	assert_int_equal(stars, 1);
	free(out);
	compare_doc_free(&d);
}

/* The mail rendering: ASCII spellings, '?' for the rest. */
static void test_mail_ascii(void **state)
{
	struct cdoc d = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	score_like(&d);
	compare_doc_para(&d, "100 × ratio ± 2 − 1, label caf\u00e9");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(compare_render_mail(f, &d), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "+-95 %"));
	assert_non_null(strstr(buf, "+-1.50"));
	assert_non_null(strstr(buf, "100 x ratio +- 2 - 1, label caf?\n"));
	for (size_t i = 0; i < len; i++)
		assert_true((unsigned char)buf[i] < 0x80);
	free(buf);
	compare_doc_free(&d);
}

static void test_file_names(void **state)
{
	(void)state;
	assert_string_equal(compare_out_file_name(COUT_TEXT), "scores.txt");
	assert_string_equal(compare_out_file_name(COUT_MD), "scores.md");
	assert_string_equal(compare_out_file_name(COUT_CSV), "scores.csv");
	assert_string_equal(compare_out_file_name(COUT_JSON), "scores.json");
	assert_string_equal(compare_out_file_name(COUT_HTML), "compare.html");
	assert_string_equal(compare_out_file_name(COUT_MAIL),
			    "scores-mail.txt");
	assert_string_equal(compare_out_format_names[COUT_MAIL], "mail");
	assert_string_equal(compare_out_file_name(COUT_FORMAT_NR),
			    "scores.txt");
	assert_string_equal(compare_out_format_names[COUT_HTML], "html");
	assert_null(compare_out_format_names[COUT_FORMAT_NR]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_sticky_oom),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_wrap),
		cmocka_unit_test(test_text_wide_group),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_marks_links),
		cmocka_unit_test(test_text_split),
		cmocka_unit_test(test_text_split_attached_last),
		cmocka_unit_test(test_mail_ascii),
		cmocka_unit_test(test_file_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
