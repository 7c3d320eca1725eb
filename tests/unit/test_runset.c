/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_runset.c - compare's reader of summary.json "blocks" (runset.c):
 * the used blocks of a block run, with a block number that is a whole
 * number below RUNSET_BLOCK_LIMIT. Any other number is left out, as a
 * block whose figures are not usable is: 1e20 was cast to size_t, which
 * is undefined (clang's UBSan: "outside the range of representable
 * values"), and a number at or past the limit would share its place in
 * the scoring with a block of the label's next run.
 */
#include "tests/unit/fixture_util.h"

#include <math.h>

#include "analysis/compare/runset.h"

/* This test's temporary directory. */
static char root[256];

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_runset") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* An item of "blocks": block number (as JSON), arm, NOTPM. */
static const struct {
	const char *block; /* JSON text of "block" */
	const char *arm;   /* "A" or "B" */
	bool kept;	   /* read as a used block */
} items[] = {
	{"0", "A", true},
	{"1", "B", true},
	{"2", "B", true},
	{"3", "A", true},
	{"16777215", "B", true},
	{"1e20", "A", false}, /* the cast was undefined */
	{"16777216", "A", false},
	{"1.8446744073709552e19", "B", false},
	{"-1", "A", false},
	{"2.5", "B", false},
	{"\"4\"", "A", false},
	{"null", "A", false},
};

static void test_block_numbers(void **state)
{
	const char *dirs[] = {root};
	char dir[PATH_MAX], text[4096];
	struct runset rs;
	struct err err = {""};
	size_t i, pos, kept = 0, k = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/lab", root);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/lab/cfg", root);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/lab/cfg/run-1", root);
	assert_int_equal(mkdir(dir, 0700), 0);
	fixture_write_file(
		dir, "meta.json",
		"{\"format\": \"oltpmark-meta/1\", \"label\": \"lab\", "
		"\"config\": \"cfg\", "
		"\"start\": \"2026-11-30T10:00:00Z\", "
		"\"notes\": {\"design\": \"blocks\"}}\n");
	pos = (size_t)snprintf(text, sizeof(text),
			       "{\"format\": \"oltpmark-summary/1\", "
			       "\"notpm\": 1000, \"partial\": false, "
			       "\"measured_s\": 320, \"blocks\": {\"block_s\": "
			       "20, \"items\": [");
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos,
					"%s{\"block\": %s, \"arm\": \"%s\", "
					"\"use\": \"ok\", \"notpm\": 1000, "
					"\"steal_pct\": 1.5}",
					i ? ", " : "", items[i].block,
					items[i].arm);
		kept += items[i].kept;
	}
	assert_true(pos + 8 < sizeof(text));
	strcat(text, "]}}\n");
	fixture_write_file(dir, "summary.json", text);

	assert_int_equal(runset_scan(&rs, dirs, 1, "notpm", &err), 0);
	assert_int_equal(rs.nruns, 1);
	assert_true(rs.runs[0].block_run);
	assert_int_equal(rs.runs[0].nblocks, kept);
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		const struct runset_block *b;

		if (!items[i].kept)
			continue;
		b = &rs.runs[0].blocks[k++];
		assert_int_equal(b->block,
				 (size_t)strtoull(items[i].block, NULL, 10));
		assert_int_equal(b->arm_b, items[i].arm[0] == 'B');
		assert_true(fabs(b->steal - 0.015) < 1e-12);
	}
	runset_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_block_numbers, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
