/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_html.c - the HTML escaper and page shell (html_page.h), and
 * report.html (html.h) written for a run directory made here: a summary
 * of an empty window, and a sys/ holding real hook outputs from the
 * fixtures, files that do not parse (one with markup in it), a skip
 * reason, a hook's error file and a hook that left nothing. The page
 * must show each hook's section, say why a section is missing, and
 * escape every string that came from a file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis/common/html_page.h"
#include "analysis/report/html.h"
#include "analysis/report/summary.h"
#include "tests/unit/fixture_util.h"

/* What the escaper writes for s (len bytes, or all with SIZE_MAX). */
static char *escaped(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	if (len == SIZE_MAX)
		html_page_escape(f, s);
	else
		html_page_escape_len(f, s, len);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_escape(void **state)
{
	static const struct {
		const char *in;	 /* the text */
		size_t len;	 /* bytes given, SIZE_MAX: the string */
		const char *out; /* what the page gets */
	} cases[] = {
		{"plain ±", SIZE_MAX, "plain ±"},
		{"<a href='x'>&\"", SIZE_MAX,
		 "&lt;a href=&#39;x&#39;&gt;&amp;&quot;"},
		/* tabs and newlines kept (for <pre>), other controls not */
		{"a\tb\nc\rd\x01\x1f", SIZE_MAX, "a\tb\nc?d??"},
		{"<tag>", 3, "&lt;ta"},
		{"ab\0<c", 5, "ab"},
		{"", SIZE_MAX, ""},
		{NULL, SIZE_MAX, ""},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = escaped(cases[i].in, cases[i].len);

		print_message("case %zu\n", i);
		assert_string_equal(out, cases[i].out);
		free(out);
	}
}

static void test_page_shell(void **state)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	(void)state;
	assert_non_null(f);
	html_page_begin(f, "a <b> & 'c'");
	fputs("<p>body</p>\n", f);
	html_page_end(f);
	assert_int_equal(fclose(f), 0);
	assert_true(strncmp(buf, "<!DOCTYPE html>\n<html lang=\"en\">\n", 33) ==
		    0);
	assert_non_null(strstr(buf, "<meta charset=\"utf-8\">"));
	assert_non_null(
		strstr(buf, "<title>a &lt;b&gt; &amp; &#39;c&#39;</title>"));
	assert_non_null(strstr(buf, "<style>"));
	assert_non_null(strstr(buf, "</head>\n<body>\n<p>body</p>\n"));
	/* self-contained: nothing loaded, nothing run */
	assert_null(strstr(buf, "<script"));
	assert_null(strstr(buf, "http://"));
	assert_null(strstr(buf, "https://"));
	assert_null(strstr(buf, "<link"));
	n = strlen(buf);
	assert_true(n > 16);
	assert_string_equal(buf + n - 16, "</body>\n</html>\n");
	free(buf);
}

/* The run directory the report tests write into. */
static char run_dir[PATH_MAX];

/* Copy fixture name to run_dir/sys/file. */
static void sys_fixture(const char *name, const char *file)
{
	char dir[PATH_MAX + 8];
	char *text = fixture_read_file(fixture_path(name), NULL);

	snprintf(dir, sizeof(dir), "%s/sys", run_dir);
	fixture_write_file(dir, file, text);
	free(text);
}

static void sys_text(const char *file, const char *text)
{
	char dir[PATH_MAX + 8];

	snprintf(dir, sizeof(dir), "%s/sys", run_dir);
	fixture_write_file(dir, file, text);
}

static int setup_run_dir(void **state)
{
	char sys[PATH_MAX + 8];

	(void)state;
	if (!fixture_temp_dir(run_dir, sizeof(run_dir), "test_html"))
		return -1;
	snprintf(sys, sizeof(sys), "%s/sys", run_dir);
	return mkdir(sys, 0777);
}

static int teardown_run_dir(void **state)
{
	(void)state;
	return fixture_rm_rf(run_dir);
}

/* A summary of an empty minute, labelled label / cfg. */
static void empty_summary(struct summary *s, const char *label)
{
	struct sum_run run;
	struct sum_meta meta;
	struct err err = {""};

	summary_run_unknown(&run);
	summary_meta_unknown(&meta);
	snprintf(meta.label, sizeof(meta.label), "%s", label);
	snprintf(meta.config, sizeof(meta.config), "cfg");
	assert_int_equal(
		summary_init(s, &run, &meta, 0, 60000, "test", "test", &err),
		0);
	assert_int_equal(summary_finish(s, 0, &err), 0);
}

/* report.html of run_dir, written now, as a string the caller frees. */
static char *write_page(const json_t *meta)
{
	struct summary s;
	struct html_input in;
	struct err err = {""};
	char path[PATH_MAX + 16];
	char *page;

	memset(&s, 0, sizeof(s));
	empty_summary(&s, "<lbl>");
	memset(&in, 0, sizeof(in));
	in.run_dir = run_dir;
	in.sum = &s;
	in.meta = meta;
	assert_int_equal(html_write_report(&in, &err), 0);
	summary_free(&s);
	snprintf(path, sizeof(path), "%s/report.html.tmp", run_dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/report.html", run_dir);
	page = fixture_read_file(path, NULL);
	return page;
}

/* The part of page from the section titled title to the next one. */
static char *section(const char *page, const char *title)
{
	char head[128];
	const char *a, *b;

	snprintf(head, sizeof(head), "<h3>%s <span", title);
	a = strstr(page, head);
	assert_non_null(a);
	b = strstr(a + 1, "<h3>");
	if (!b)
		b = a + strlen(a);
	return strndup(a, (size_t)(b - a));
}

/* Section title and what it must hold. */
static const struct {
	const char *title; /* the hook's section */
	const char *holds; /* a string in it */
} report_cases[] = {
	/* parsed: tables */
	{"vmstat", "Means over the whole file"},
	{"vmstat", "<th>cs</th>"},
	{"Lock statistics (/proc/lock_stat)", "Top 20 lock classes"},
	{"Kernel profile (readprofile)", "Top 20 kernel functions"},
	{"PostgreSQL statistics", "mean over 81 samples"},
	{"PostgreSQL statistics", "Lock / transactionid, tuple / active"},
	/* files that do not parse: the reason, escaped; perf also raw */
	{"iostat", "iostat output does not parse: "},
	{"Interrupts", "interrupts not shown: "},
	{"perf profile", "perf-report.txt does not parse: "},
	{"perf profile", "perf report by symbol: the first 40 lines"},
	{"perf profile", "&lt;script&gt;alert(1)&lt;/script&gt;"},
	/* skipped, failed, absent */
	{"Disk statistics (/proc/diskstats)", "Skipped: no &lt;disks&gt; here"},
	{"vmstat", "sys/vmstat.err: problems the hook reported"},
	{"vmstat", "vmstat: &lt;oops&gt;"},
	{"perf lock contention", "No output (the hook did not run)."},
	{"System information", "No output (the hook did not run)."},
};

static void test_report_evidence(void **state)
{
	json_t *meta = json_pack("{s:s}", "kernel", "<6.18>");
	char *page, *sec;
	size_t i;

	(void)state;
	assert_non_null(meta);
	sys_fixture("vmstat-n-1.txt", "vmstat.txt");
	sys_text("vmstat.err", "vmstat: <oops>\n");
	sys_fixture("lock_stat/lock_stat-base.txt", "lock_stat.txt");
	sys_fixture("readprofile/readprofile-base.txt", "readprofile.txt");
	sys_fixture("../golden/run-basic/sys/pg_wait_events.csv",
		    "pg_wait_events.csv");
	sys_text("iostat.txt", "not iostat\n");
	sys_fixture("proc-interrupts.txt", "interrupts.start");
	sys_text("perf-report.txt", "<script>alert(1)</script>\n");
	sys_text("diskstats.skipped", "no <disks> here\nsecond line\n");
	page = write_page(meta);
	json_decref(meta);

	for (i = 0; i < sizeof(report_cases) / sizeof(report_cases[0]); i++) {
		print_message("%s: %s\n", report_cases[i].title,
			      report_cases[i].holds);
		sec = section(page, report_cases[i].title);
		assert_non_null(strstr(sec, report_cases[i].holds));
		free(sec);
	}
	/* the hooks in their fixed order */
	assert_true(strstr(page, "(hook sysinfo)") <
		    strstr(page, "(hook vmstat)"));
	assert_true(strstr(page, "(hook diskstats)") <
		    strstr(page, "(hook pg-stats)"));
	assert_true(strstr(page, "(hook perf-profile)") <
		    strstr(page, "(hook perf-lock)"));
	/* the title and the metadata come from files: escaped */
	assert_non_null(strstr(
		page, "<title>oltpmark report: &lt;lbl&gt; / cfg</title>"));
	assert_non_null(strstr(page, "<tr><th>kernel</th><td>&lt;6.18&gt;"
				     "</td></tr>"));
	assert_non_null(strstr(page, "There is no run.json."));
	assert_null(strstr(page, "<script>"));
	assert_null(strstr(page, "<lbl>"));
	/* no run.json: the run counts as partial */
	assert_non_null(strstr(page, "<div class=\"banner\">Partial run"));
	free(page);
}

static void test_report_no_sys(void **state)
{
	char sys[PATH_MAX + 8];
	char *page;

	(void)state;
	snprintf(sys, sizeof(sys), "%s/sys", run_dir);
	assert_int_equal(fixture_rm_rf(sys), 0);
	page = write_page(NULL);
	assert_non_null(strstr(page, "No sys/ directory: the run was made "
				     "without hooks"));
	assert_null(strstr(page, "(hook vmstat)"));
	assert_non_null(strstr(page, "There is no meta.json."));
	free(page);
	assert_int_equal(mkdir(sys, 0777), 0);
}

/* A mix share that misses its minimum only by sampling noise is shown as
   not judged, like an input bound, not as FAILED. */
static void test_report_mix_not_judged(void **state)
{
	struct summary s;
	struct html_input in;
	struct err err = {""};
	char path[PATH_MAX + 16];
	char *page, *checks;

	(void)state;
	memset(&s, 0, sizeof(s));
	empty_summary(&s, "mix");
	s.mix[TXN_PAYMENT].applies = true;
	s.mix[TXN_PAYMENT].value = 42.9;
	s.mix[TXN_PAYMENT].limit = 43.0;
	s.mix[TXN_PAYMENT].within = -1;
	s.mix[TXN_PAYMENT].small_sample = true;
	s.mix[TXN_PAYMENT].noise = 0.5;
	s.mix[TXN_ORDER_STATUS].applies = true;
	s.mix[TXN_ORDER_STATUS].value = 2.0;
	s.mix[TXN_ORDER_STATUS].limit = 4.0;
	s.mix[TXN_ORDER_STATUS].within = 0;
	s.mix[TXN_ORDER_STATUS].small_sample = false;
	memset(&in, 0, sizeof(in));
	in.run_dir = run_dir;
	in.sum = &s;
	assert_int_equal(html_write_report(&in, &err), 0);
	summary_free(&s);
	snprintf(path, sizeof(path), "%s/report.html", run_dir);
	page = fixture_read_file(path, NULL);
	assert_non_null(page);
	checks = strstr(page, "<h2 id=\"checks\">");
	assert_non_null(checks);
	/* Payment: not judged with its noise; Order-Status: a verdict */
	assert_non_null(strstr(checks, "not judged (sampling noise "
				       "&plusmn;0.50)"));
	assert_true(strstr(checks, "not judged") <
		    strstr(checks, "90th-percentile"));
	free(page);
}

/* The host's share and a block run's blocks: per arm, then each block,
   with the variant's name escaped (it comes from meta.json). */
static void test_report_host_blocks(void **state)
{
	static const double notpm[] = {1000, 1100, 1300, NAN};
	struct blockrun_block blk[4];
	struct blockrun b;
	struct hostshare h;
	struct summary s;
	struct html_input in;
	struct err err = {""};
	char path[PATH_MAX + 16];
	char *page, *arms;
	size_t i;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.known = h.window_known = true;
	h.window.share[PROCSTAT_STEAL] = 0.0425;
	h.window.share[PROCSTAT_USER] = 0.6;
	h.window_start_s = 10;
	h.window_end_s = 70;
	memset(&b, 0, sizeof(b));
	memset(blk, 0, sizeof(blk));
	b.present = true;
	b.block_s = 10;
	b.settle_s = 0.5;
	snprintf(b.variant, sizeof(b.variant), "<v>");
	for (i = 0; i < 4; i++) {
		blk[i].row.index = i;
		blk[i].row.arm = blocks_schedule_arm(i);
		blk[i].win.start_s = 10.0 * (double)i + 0.5;
		blk[i].win.end_s = 10.0 * (double)(i + 1);
		blk[i].win.use = i < 3 ? BLOCKS_USE_OK : BLOCKS_USE_SHORT;
		blk[i].notpm = notpm[i];
		blk[i].steal = 0.01 * (double)(i + 1);
	}
	b.blocks = blk;
	b.n = 4;
	b.used = 3;
	memset(&s, 0, sizeof(s));
	empty_summary(&s, "hb");
	memset(&in, 0, sizeof(in));
	in.run_dir = run_dir;
	in.sum = &s;
	in.host = &h;
	in.blocks = &b;
	assert_int_equal(html_write_report(&in, &err), 0);
	summary_free(&s);
	snprintf(path, sizeof(path), "%s/report.html", run_dir);
	page = fixture_read_file(path, NULL);
	assert_non_null(page);
	assert_non_null(strstr(page, "<h3>Host share of the CPU"));
	assert_non_null(strstr(page, "<th>steal %</th>"));
	assert_non_null(strstr(page, "<td>4.25</td><td>60.00</td>"));
	assert_non_null(strstr(page, "Variant &lt;v&gt; switched every 10 s"));
	assert_non_null(strstr(page, "first 0.5 s of each block"));
	assert_null(strstr(page, "<v>"));
	/* A: block 0 only (block 3 is short); B: blocks 1 and 2 */
	arms = strstr(page, "<th>Mean steal %</th>");
	assert_non_null(arms);
	assert_non_null(strstr(arms, "<td class=\"l\">A</td><td>1</td>"
				     "<td>1000.0</td><td>1.00</td>"));
	assert_non_null(strstr(arms, "<td class=\"l\">B</td><td>2</td>"
				     "<td>1200.0</td><td>2.50</td>"));
	assert_non_null(strstr(page, "<td>3</td><td class=\"l\">A</td>"
				     "<td>30.5&ndash;40.0</td>"));
	free(page);
}

static void test_report_unwritable(void **state)
{
	char missing[PATH_MAX + 16];
	struct summary s;
	struct html_input in;
	struct err err = {""};

	(void)state;
	snprintf(missing, sizeof(missing), "%s/no/such/dir", run_dir);
	memset(&s, 0, sizeof(s));
	empty_summary(&s, "x");
	memset(&in, 0, sizeof(in));
	in.run_dir = missing;
	in.sum = &s;
	assert_int_equal(html_write_report(&in, &err), -ENOENT);
	assert_non_null(strstr(err.msg, missing));
	summary_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_page_shell),
		cmocka_unit_test(test_report_evidence),
		cmocka_unit_test(test_report_no_sys),
		cmocka_unit_test(test_report_mix_not_judged),
		cmocka_unit_test(test_report_host_blocks),
		cmocka_unit_test(test_report_unwritable),
	};

	return cmocka_run_group_tests(tests, setup_run_dir, teardown_run_dir);
}
