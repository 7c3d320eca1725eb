/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_perf.c - perf report parser on real outputs in
 * tests/fixtures: perf-report-dso-sym.txt (shared fixture, no call
 * graph), and perf-report-g-children.txt / perf-report-g-no-children.txt
 * (perf 6.1, `perf record -a -g -F 199` on this project's VM while dd
 * ran, reported with --sort dso,sym --percent-limit 3, with and without
 * --no-children). Also the headerless form (-q), a second event section,
 * and broken inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/parsers/parse_perf.h"
#include "tests/unit/fixture_util.h"

static int parse_bytes(const void *buf, size_t len, struct perf_report *r,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_perf.XXXXXX";
	int rc = parse_perf_file(fixture_write_temp(buf, len, path), r, err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct perf_report *r, struct err *err)
{
	return parse_bytes(text, strlen(text), r, err);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void test_dso_sym(void **state)
{
	const struct perf_entry *e;
	struct perf_report r;
	struct err err = {""};
	size_t i, kernel = 0;
	double sum = 0;

	(void)state;
	assert_int_equal(
		parse_perf_file(fixture_path("perf-report-dso-sym.txt"), &r,
				&err),
		0);
	assert_int_equal(r.nevents, 1);
	assert_string_equal(r.events[0], "cpu-clock:pppH");
	assert_int_equal(r.n, 23);
	assert_int_equal(r.bad_lines, 0);
	assert_int_equal(r.callgraph_lines, 0);

	e = &r.entries[0];
	assert_true(near(e->overhead_pct, 2.20));
	assert_true(isnan(e->children_pct));
	assert_null(e->command);
	assert_string_equal(e->dso, "[kernel.kallsyms]");
	assert_int_equal(e->marker, 'k');
	assert_string_equal(e->symbol, "exc_page_fault");
	assert_int_equal(e->event, 0);

	e = &r.entries[1];
	assert_true(near(e->overhead_pct, 1.45));
	assert_string_equal(e->dso, "postgres (deleted)");
	assert_int_equal(e->marker, '.');
	assert_string_equal(e->symbol, "0x00000000001b79c7");

	e = parse_perf_find(&r, "libc.so.6", "__memmove_avx512_unaligned_erms");
	assert_non_null(e);
	assert_true(near(e->overhead_pct, 0.70));
	e = parse_perf_find(&r, "ld-linux-x86-64.so.2", "do_lookup_x");
	assert_true(near(e->overhead_pct, 1.10));
	assert_null(
		parse_perf_find(&r, "[kernel.kallsyms]", "no_such_function"));
	e = &r.entries[22];
	assert_string_equal(e->symbol, "next_uptodate_folio");
	assert_true(near(e->overhead_pct, 0.50));

	for (i = 0; i < r.n; i++) {
		kernel += r.entries[i].marker == 'k';
		sum += r.entries[i].overhead_pct;
	}
	assert_int_equal(kernel, 7);
	assert_true(fabs(sum - 18.55) < 1e-9);

	/* " (deleted)" goes: the postgres entries keep their own rows. */
	assert_int_equal(parse_perf_merge_normalized(&r, &err), 0);
	assert_int_equal(r.n, 23);
	assert_string_equal(r.entries[1].dso, "postgres");
	parse_perf_free(&r);
	parse_perf_free(&r);
}

static void test_callgraph_children(void **state)
{
	const struct perf_entry *e;
	struct perf_report r;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		parse_perf_file(fixture_path("perf-report-g-children.txt"), &r,
				&err),
		0);
	assert_string_equal(r.events[0], "cpu-clock:ppp");
	assert_int_equal(r.n, 29);
	assert_int_equal(r.bad_lines, 0);
	assert_int_equal(r.callgraph_lines, 161);
	e = &r.entries[0];
	assert_true(near(e->children_pct, 33.13));
	assert_true(near(e->overhead_pct, 0.0));
	assert_string_equal(e->symbol, "entry_SYSCALL_64_after_hwframe");
	e = parse_perf_find(&r, "[kernel.kallsyms]", "do_syscall_64");
	assert_true(near(e->children_pct, 33.13));
	assert_true(near(e->overhead_pct, 7.83));
	e = parse_perf_find(&r, "oltpmark", "rng_range");
	assert_true(near(e->overhead_pct, 13.86));
	assert_true(near(e->children_pct, 14.46));
	e = parse_perf_find(&r, "[unknown]", "0x0000000000000001");
	assert_non_null(e);
	assert_int_equal(e->marker, 'k');
	assert_non_null(parse_perf_find(&r, "[kernel.kallsyms]",
					"do_execveat_common.isra.0"));

	assert_int_equal(parse_perf_merge_normalized(&r, &err), 0);
	assert_int_equal(r.n, 29);
	assert_non_null(
		parse_perf_find(&r, "[kernel.kallsyms]", "do_execveat_common"));
	parse_perf_sort(&r);
	assert_string_equal(r.entries[0].symbol, "__vdso_clock_gettime");
	assert_string_equal(r.entries[1].symbol, "rng_range");
	assert_string_equal(r.entries[2].symbol, "do_syscall_64");
	parse_perf_free(&r);
}

static void test_callgraph_no_children(void **state)
{
	static const char *const syms[] = {
		"__vdso_clock_gettime", "rng_range", "do_syscall_64",
		"inputs_generate",	"read_zero", "worker_record",
	};
	static const double pct[] = {14.46, 13.86, 7.83, 4.22, 3.61, 3.01};
	struct perf_report r;
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(
		parse_perf_file(fixture_path("perf-report-g-no-children.txt"),
				&r, &err),
		0);
	assert_int_equal(r.n, 6);
	assert_int_equal(r.callgraph_lines, 23);
	assert_int_equal(r.bad_lines, 0);
	for (i = 0; i < 6; i++) {
		assert_string_equal(r.entries[i].symbol, syms[i]);
		assert_true(near(r.entries[i].overhead_pct, pct[i]));
	}
	assert_string_equal(r.entries[0].dso, "[vdso]");
	assert_int_equal(r.entries[0].marker, '.');
	parse_perf_free(&r);
}

static void test_variants(void **state)
{
	/* perf report -q: no header at all. */
	static const char quiet[] =
		"     2.20%  [kernel.kallsyms]  [k] exc_page_fault\n"
		"     1.45%  postgres (deleted)  [.] 0x00000000001b79c7\n"
		"     1.00%  [kernel.kallsyms]  [k] foo.isra.0\n"
		"     0.50%  [kernel.kallsyms]  [k] foo.constprop.1\n";
	/* --sort comm,dso,sym, two events, a dso wider than its column. */
	static const char comm[] =
		"# Samples: 10  of event 'cycles'\n"
		"#\n"
		"# Overhead  Command   Shared Object  Symbol\n"
		"# ........  ........  .............  ......\n"
		"#\n"
		"    60.00%  postgres  postgres       [.] LWLockAcquire\n"
		"    40.00%  kworker/  [kernel.kallsyms_really_long] [k] std::vector<int>::push_back(int const&)\n"
		"\n"
		"# Samples: 5  of event 'instructions'\n"
		"#\n"
		"# Overhead  Command   Shared Object  Symbol\n"
		"# ........  ........  .............  ......\n"
		"#\n"
		"   100.00%  postgres  postgres       [.] LWLockAcquire\n";
	struct perf_report r;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(quiet, &r, &err), 0);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.entries[1].dso, "postgres (deleted)");
	assert_string_equal(r.entries[1].symbol, "0x00000000001b79c7");
	assert_int_equal(parse_perf_merge_normalized(&r, &err), 0);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.entries[2].symbol, "foo");
	assert_true(near(r.entries[2].overhead_pct, 1.50));
	parse_perf_free(&r);

	assert_int_equal(parse_str(comm, &r, &err), 0);
	assert_int_equal(r.nevents, 2);
	assert_string_equal(r.events[0], "cycles");
	assert_string_equal(r.events[1], "instructions");
	assert_int_equal(r.n, 3);
	assert_string_equal(r.entries[0].command, "postgres");
	assert_string_equal(r.entries[1].command, "kworker/");
	assert_string_equal(r.entries[1].dso, "[kernel.kallsyms_really_long]");
	assert_string_equal(r.entries[1].symbol,
			    "std::vector<int>::push_back(int const&)");
	assert_int_equal(r.entries[2].event, 1);
	assert_true(near(r.entries[2].overhead_pct, 100));
	/* Same symbol, different events: not merged. */
	assert_int_equal(parse_perf_merge_normalized(&r, &err), 0);
	assert_int_equal(r.n, 3);
	parse_perf_free(&r);
}

static void test_every_cut(void **state)
{
	static const char *const files[] = {
		"perf-report-dso-sym.txt",
		"perf-report-g-no-children.txt",
	};
	size_t f, len, cut;

	(void)state;
	for (f = 0; f < 2; f++) {
		char *buf = fixture_slurp(files[f], &len);

		for (cut = 0; cut <= len; cut++) {
			struct perf_report r;
			struct err err = {""};
			int rc = parse_bytes(buf, cut, &r, &err);

			if (rc == 0) {
				assert_true(r.n >= 1 && r.n <= 23);
				assert_true(r.bad_lines <= 1);
			} else {
				assert_true(rc == -EINVAL || rc == -ENODATA);
				assert_null(r.entries);
			}
			parse_perf_free(&r);
		}
		free(buf);
	}
}

static void test_broken_inputs(void **state)
{
	unsigned char noise[4096];
	struct perf_report r;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *buf;

	(void)state;
	assert_int_equal(parse_str("", &r, &err), -ENODATA);
	assert_int_equal(parse_str("\n\n", &r, &err), -ENODATA);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &r, &err),
				 -EINVAL);
	}
	buf = fixture_slurp("vmstat-n-1.txt", &len);
	assert_int_equal(parse_bytes(buf, len, &r, &err), -EINVAL);
	free(buf);

	/* Cut inside the last entry: 22 entries and one bad line. */
	buf = fixture_slurp("perf-report-dso-sym.txt", &len);
	*strstr(buf, "next_uptodate_folio") = '\0';
	assert_int_equal(parse_str(buf, &r, &err), 0);
	assert_int_equal(r.n, 22);
	assert_int_equal(r.bad_lines, 1);
	parse_perf_free(&r);
	free(buf);

	/* Header, no samples. */
	assert_int_equal(parse_str("# Overhead  Shared Object  Symbol\n"
				   "# ........  .............  ......\n"
				   "#\n",
				   &r, &err),
			 -ENODATA);
	assert_int_equal(parse_str("# Overhead  Shared Object  Symbol\n"
				   "# ........  .............  ......\n"
				   "     1.00%  a              [k] ok\n"
				   "junk line\n"
				   "     x.00%  a              [k] bad\n"
				   "     1.00%                 [k] nodso\n"
				   "     1.00%  a              nomarker\n"
				   "    1.00%%  a              [k] two\n",
				   &r, &err),
			 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.bad_lines, 5);
	parse_perf_free(&r);
	assert_int_equal(parse_perf_file("/nonexistent/perf.txt", &r, &err),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dso_sym),
		cmocka_unit_test(test_callgraph_children),
		cmocka_unit_test(test_callgraph_no_children),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_broken_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
