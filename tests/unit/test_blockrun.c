/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_blockrun.c - blockrun_read(), the report's reader of a block run:
 * blocks.csv in a run directory, cut by the settle time and block length
 * meta.json's notes give. run/oltpmark-run writes those notes as strings,
 * but a hand-made or converted meta.json may hold numbers; either way a
 * value that is not a number of seconds >= 0 is ignored as if absent
 * (the fuzz target fuzz_blockrun found a negative settle_s number taken
 * as it was, which left every block "empty").
 */
#include "tests/unit/fixture_util.h"

#include <errno.h>
#include <math.h>

#include <jansson.h>

#include "analysis/report/blockrun.h"

/* The run directory of a test. */
static char root[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_blockrun") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* Eight 30-s blocks from epoch 1000, switches of 0.5 s into a new arm. */
static const char blocks_csv[] =
	BLOCKS_CSV_HEADER "\n"
			  "0,A,1000.000,1030.000,0.000,0\n"
			  "1,B,1030.000,1060.000,0.500,0\n"
			  "2,B,1060.000,1090.000,0.000,0\n"
			  "3,A,1090.000,1120.000,0.500,0\n"
			  "4,A,1120.000,1150.000,0.000,0\n"
			  "5,B,1150.000,1180.000,0.500,0\n"
			  "6,B,1180.000,1210.000,0.000,0\n"
			  "7,A,1210.000,1240.000,0.500,0\n";

/* A notes value and what the reader must make of it. */
static const struct {
	const char *notes; /* meta.json's "notes", as JSON */
	double settle_s;   /* kept */
	double block_s;	   /* kept; NAN for none */
	bool why;	   /* a remark on settle_s is made */
} note_cases[] = {
	{"{\"settle_s\": \"5\", \"block_s\": \"30\"}", 5, 30, false},
	{"{\"settle_s\": 5, \"block_s\": 30}", 5, 30, false},
	{"{\"settle_s\": 2.5, \"block_s\": 0}", 2.5, 0, false},
	{"{}", 0, NAN, true},
	{"{\"settle_s\": \"-5\", \"block_s\": \"-30\"}", 0, NAN, true},
	/* what fuzz_blockrun found: numbers were taken as they were */
	{"{\"settle_s\": -5, \"block_s\": -30}", 0, NAN, true},
	{"{\"settle_s\": -1e-300, \"block_s\": -0.5}", 0, NAN, true},
	{"{\"settle_s\": \"x\", \"block_s\": true}", 0, NAN, true},
};

static void test_notes(void **state)
{
	char why[256];
	size_t i, k;

	(void)state;
	fixture_write_file(root, "blocks.csv", blocks_csv);
	for (i = 0; i < sizeof(note_cases) / sizeof(note_cases[0]); i++) {
		json_t *meta =
			json_pack("{so}", "notes",
				  json_loads(note_cases[i].notes, 0, NULL));
		struct blockrun b;
		struct err err = {""};
		size_t ok = 0;

		assert_non_null(meta);
		assert_int_equal(blockrun_read(root, meta, 1000, 0, INFINITY,
					       &b, why, sizeof(why), &err),
				 0);
		assert_true(b.present);
		assert_int_equal(b.n, 8);
		if (b.settle_s != note_cases[i].settle_s)
			fail_msg("case %zu: settle_s %g, expected %g", i,
				 b.settle_s, note_cases[i].settle_s);
		if (isnan(note_cases[i].block_s)
			    ? !isnan(b.block_s)
			    : b.block_s != note_cases[i].block_s)
			fail_msg("case %zu: block_s %g, expected %g", i,
				 b.block_s, note_cases[i].block_s);
		if (note_cases[i].why != (strstr(why, "settle_s") != NULL))
			fail_msg("case %zu: remark \"%s\"", i, why);
		/* Every block is measured: from its switch plus the settle
		   time to its end. */
		for (k = 0; k < b.n; k++) {
			const struct blockrun_block *blk = &b.blocks[k];

			if (blk->win.use != BLOCKS_USE_OK)
				continue;
			ok++;
			assert_true(fabs(blk->win.start_s -
					 (blk->row.start_s + blk->row.switch_s +
					  note_cases[i].settle_s)) < 1e-9);
			assert_true(fabs(blk->win.end_s - blk->row.end_s) <
				    1e-9);
		}
		if (ok != b.n)
			fail_msg("case %zu: %zu of %zu blocks used", i, ok,
				 b.n);
		blockrun_free(&b);
		json_decref(meta);
	}
}

/*
 * 2-s blocks whose switches take 1.7 and 0.3 s: with a settle of 0.5 s
 * the first block after the long switch is left empty, the other keeps a
 * window; the text says how many were lost, the longest switch and the
 * block length that keeps them.
 */
static void test_switch_loss(void **state)
{
	static const char csv[] =
		BLOCKS_CSV_HEADER "\n"
				  "0,A,1000.000,1002.000,0.000,0\n"
				  "1,B,1002.000,1004.000,1.700,0\n"
				  "2,B,1004.000,1006.000,0.000,0\n"
				  "3,A,1006.000,1008.000,0.300,0\n";
	json_t *meta = json_pack("{s{ssss}}", "notes", "settle_s", "0.5",
				 "block_s", "2");
	struct blockrun_switch_loss loss;
	struct blockrun b;
	struct err err = {""};
	char why[256], *text = NULL;
	size_t size = 0;
	FILE *f;

	(void)state;
	fixture_write_file(root, "blocks.csv", csv);
	assert_int_equal(blockrun_read(root, meta, 1000, 0, INFINITY, &b, why,
				       sizeof(why), &err),
			 0);
	blockrun_switch_loss(&b, &loss);
	assert_int_equal(loss.switched, 2);
	assert_int_equal(loss.lost, 1);
	assert_true(fabs(loss.max_s - 1.7) < 1e-9);
	f = open_memstream(&text, &size);
	assert_non_null(f);
	blockrun_write_text(&b, f);
	fclose(f);
	assert_non_null(strstr(text, "warning: 1 of 2 blocks that began with "
				     "a switch were lost to it"));
	assert_non_null(strstr(text, "longest switch took 1.70 s"));
	assert_non_null(strstr(text, "blocks of at least 5 s"));
	free(text);
	blockrun_free(&b);
	json_decref(meta);
}

/* No blocks.csv: not a block run, and nothing to say. */
static void test_no_file(void **state)
{
	json_t *meta = json_pack("{s{ss}}", "notes", "settle_s", "5");
	struct blockrun b;
	struct err err = {""};
	char why[256];

	(void)state;
	assert_int_equal(blockrun_read(root, meta, 1000, 0, INFINITY, &b, why,
				       sizeof(why), &err),
			 0);
	assert_false(b.present);
	assert_string_equal(why, "");
	json_decref(meta);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_loss, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
