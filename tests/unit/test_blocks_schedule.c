/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_blocks_schedule.c - the block order A B B A A B B A ..., the
 * measured windows (switch and settle cut, blocks left out after a
 * failed switch, empty and short blocks) and the blocks.csv reader on a
 * good file and on a table of broken ones, each of which must give one
 * error naming its line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/parsers/blocks_schedule.h"
#include "tests/unit/fixture_util.h"

#define HDR BLOCKS_CSV_HEADER "\n"

static void test_order(void **state)
{
	static const char arms[] = "ABBAABBAABBAABBA";
	/* The script runs where the arm changes: into 1, 3, 5, 7... */
	static const bool switches[] = {0, 1, 0, 1, 0, 1, 0, 1,
					0, 1, 0, 1, 0, 1, 0, 1};
	size_t k;

	(void)state;
	for (k = 0; k < 16; k++) {
		const char *name =
			blocks_schedule_arm_name(blocks_schedule_arm(k));

		assert_int_equal(name[0], arms[k]);
		assert_int_equal(blocks_schedule_group(k), k / 4);
		assert_int_equal(blocks_schedule_switches(k), switches[k]);
	}
	/* Each group holds two of each arm, A at its ends. */
	for (k = 0; k < 64; k += 4) {
		assert_int_equal(blocks_schedule_arm(k), BLOCKS_ARM_A);
		assert_int_equal(blocks_schedule_arm(k + 3), BLOCKS_ARM_A);
		assert_int_equal(blocks_schedule_arm(k + 1), BLOCKS_ARM_B);
		assert_int_equal(blocks_schedule_arm(k + 2), BLOCKS_ARM_B);
	}
	assert_string_equal(blocks_schedule_arm_name(BLOCKS_ARM_NR), "?");
	assert_string_equal(blocks_schedule_use_name(BLOCKS_USE_SHORT),
			    "short");
	assert_string_equal(blocks_schedule_use_name(BLOCKS_USE_NR), "?");
}

/* Eight 30-s blocks from epoch 1000000000.000, switches of 0.2-0.4 s. */
static const char good[] = HDR "0,A,1000000000.000,1000000030.000,0.000,0\n"
			       "1,B,1000000030.000,1000000060.000,0.250,0\n"
			       "2,B,1000000060.000,1000000090.000,0.000,0\n"
			       "3,A,1000000090.000,1000000120.000,0.400,0\n"
			       "4,A,1000000120.000,1000000150.000,0.000,0\n"
			       "5,B,1000000150.000,1000000180.000,0.200,0\n"
			       "6,B,1000000180.000,1000000210.000,0.000,0\n"
			       "7,A,1000000210.000,1000000240.000,0.300,0\n";

static void test_good_file(void **state)
{
	static const double sw[8] = {0, 0.25, 0, 0.4, 0, 0.2, 0, 0.3};
	struct blocks_schedule s;
	struct blocks_window w[8];
	struct err err = {""};
	char path[] = "/tmp/test_blocks_schedule.XXXXXX";
	size_t i;

	(void)state;
	fixture_write_temp(good, strlen(good), path);
	assert_int_equal(
		blocks_schedule_parse_file(path, "blocks.csv", &s, &err), 0);
	unlink(path);
	assert_int_equal(s.n, 8);
	blocks_schedule_place(&s, 1000000000.0);
	assert_int_equal(blocks_schedule_windows(&s, 5, w, &err), 0);
	for (i = 0; i < 8; i++) {
		assert_int_equal(s.items[i].index, i);
		assert_int_equal(s.items[i].arm, blocks_schedule_arm(i));
		assert_true(fabs(s.items[i].start_s - 30.0 * (double)i) < 1e-6);
		assert_true(fabs(s.items[i].switch_s - sw[i]) < 1e-12);
		assert_int_equal(s.items[i].status, 0);
		/* Cut: the switch, then 5 s of settling; the end stays. */
		assert_true(fabs(w[i].start_s -
				 (30.0 * (double)i + sw[i] + 5)) < 1e-6);
		assert_true(fabs(w[i].end_s - 30.0 * (double)(i + 1)) < 1e-6);
		assert_int_equal(w[i].use, BLOCKS_USE_OK);
	}
	/* The settle cut applies to every block, switched or not. */
	assert_int_equal(blocks_schedule_windows(&s, 0, w, &err), 0);
	assert_true(fabs(w[2].start_s - 60) < 1e-6);
	assert_int_equal(blocks_schedule_windows(&s, -1, w, &err), -EINVAL);
	assert_int_equal(blocks_schedule_windows(&s, NAN, w, &err), -EINVAL);
	blocks_schedule_free(&s);
	assert_null(s.items);
	assert_int_equal(blocks_schedule_parse_file("/nonexistent/blocks.csv",
						    "blocks.csv", &s, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "blocks.csv: "));
}

/*
 * A failed apply into block 5 leaves 5 and 6 unknown (the runner
 * restored, or not: nobody knows), the restore into 7 makes it known
 * again; a failed status on block 0 (a safety restore) leaves 0 out; a
 * 12-s switch with 5 s of settle fills block 3's 15 s; the last block,
 * cut by the end of the run, is short.
 */
static const char trouble[] = HDR "0,A,0,15,0.1,1\n"
				  "1,B,15,30,0.1,0\n"
				  "2,B,30,45,0,0\n"
				  "3,A,45,60,12,0\n"
				  "4,A,60,75,0,0\n"
				  "5,B,75,90,0.1,2\n"
				  "6,B,90,105,0,0\n"
				  "7,A,105,120,0.1,0\n"
				  "8,A,120,130,0,0\n"
				  "9,B,130,139,0.1,0\n";

static void test_windows(void **state)
{
	static const enum blocks_use want[] = {
		BLOCKS_USE_SWITCH_FAILED,
		BLOCKS_USE_OK,
		BLOCKS_USE_OK,
		BLOCKS_USE_EMPTY,
		BLOCKS_USE_OK,
		BLOCKS_USE_SWITCH_FAILED,
		BLOCKS_USE_SWITCH_FAILED,
		BLOCKS_USE_OK,
		BLOCKS_USE_OK,
		BLOCKS_USE_SHORT,
	};
	struct blocks_schedule s;
	struct blocks_window w[10];
	struct err err = {""};
	size_t i;

	(void)state;
	assert_int_equal(blocks_schedule_parse_text(trouble, "b", &s, &err), 0);
	assert_int_equal(s.n, 10);
	assert_int_equal(blocks_schedule_windows(&s, 5, w, &err), 0);
	for (i = 0; i < 10; i++)
		if (w[i].use != want[i])
			fail_msg("block %zu: %s, expected %s", i,
				 blocks_schedule_use_name(w[i].use),
				 blocks_schedule_use_name(want[i]));
	/* Windows of 9.9, 10, 10, 9.9 s, 5 s (block 8) and 3.9 s (9): the
	   median is 9.9 s, so 5 s stays and 3.9 s is short. */
	assert_true(fabs(w[8].end_s - w[8].start_s - 5) < 1e-12);
	assert_true(fabs(w[9].end_s - w[9].start_s - 3.9) < 1e-12);
	blocks_schedule_free(&s);
}

/* Broken files: the error each must give. */
static const struct {
	const char *text; /* the file */
	int rc;		  /* expected code */
	const char *why;  /* in the message */
} bad[] = {
	{"", -ENODATA, "b: empty"},
	{HDR, -ENODATA, "no blocks after the header"},
	{"block,arm,start,end,switch_s,status\n0,A,0,1,0,0\n", -EBADMSG,
	 "line 1: the header is not"},
	{HDR "0,A,0,10,0,0\n1,B,10,20,0.1,0", -EBADMSG,
	 "line 3: cut short (no newline at its end)"},
	{HDR "0,A,0,10,0,0\n1,B,10,2", -EBADMSG, "line 3: cut short"},
	{BLOCKS_CSV_HEADER, -EBADMSG, "line 1: cut short"},
	{HDR "0,A,0,10,0,0\n\n", -EBADMSG, "line 3: empty"},
	{HDR "0,A,0,10,0\n", -EBADMSG, "line 2: fewer than 6 fields"},
	{HDR "0,A,0,10,0,0,x\n", -EBADMSG, "line 2: more than 6 fields"},
	{HDR "1,B,0,10,0,0\n", -EBADMSG, "line 2: block 1 where block 0"},
	{HDR "0,A,0,10,0,0\n2,B,10,20,0,0\n", -EBADMSG,
	 "line 3: block 2 where block 1"},
	{HDR "0,A,0,10,0,0\n0,A,10,20,0,0\n", -EBADMSG,
	 "block 0 where block 1"},
	{HDR "x,A,0,10,0,0\n", -EBADMSG, "the block is not a number"},
	{HDR "0,B,0,10,0,0\n", -EBADMSG,
	 "line 2: arm \"B\" where the order A B B A puts A"},
	{HDR "0,A,0,10,0,0\n1,A,10,20,0,0\n", -EBADMSG, "puts B"},
	{HDR "0,a,0,10,0,0\n", -EBADMSG, "arm \"a\""},
	{HDR "0,A,-1,10,0,0\n", -EBADMSG, "a time is not a number"},
	{HDR "0,A,0,nan,0,0\n", -EBADMSG, "a time is not a number"},
	{HDR "0,A,0,10s,0,0\n", -EBADMSG, "a time is not a number"},
	{HDR "0,A,,10,0,0\n", -EBADMSG, "a time is not a number"},
	{HDR "0,A,0,10,-0.1,0\n", -EBADMSG, "the switch time is not"},
	{HDR "0,A,0,10,0,256\n", -EBADMSG, "the status is not an exit status"},
	{HDR "0,A,0,10,0,-1\n", -EBADMSG, "the status is not"},
	{HDR "0,A,10,5,0,0\n", -EBADMSG, "the block ends before it starts"},
	{HDR "0,A,0,10,0,0\n1,B,10,20,10.5,0\n", -EBADMSG,
	 "line 3: the block ends before its switch did"},
	{HDR "0,A,0,10,0,0\n1,B,9,20,0.1,0\n", -EBADMSG,
	 "line 3: the block starts before the one before it ended"},
};

static void test_bad_files(void **state)
{
	struct blocks_schedule s;
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc;

		err_clear(&err);
		rc = blocks_schedule_parse_text(bad[i].text, "b", &s, &err);
		if (rc != bad[i].rc)
			fail_msg("case %zu: %d, expected %d (%s)", i, rc,
				 bad[i].rc, err.msg);
		if (!strstr(err.msg, bad[i].why))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg,
				 bad[i].why);
		assert_null(s.items);
		assert_int_equal(s.n, 0);
	}
}

/* What is accepted at the edges: CR LF ends, rounding of 1 ms, 255. */
static void test_edges(void **state)
{
	static const char text[] =
		BLOCKS_CSV_HEADER "\r\n0,A,0.000,10.000,0.000,0\r\n"
				  "1,B,9.999,20.000,10.001,255\n";
	struct blocks_schedule s;
	struct err err = {""};
	char path[] = "/tmp/test_blocks_schedule.XXXXXX";
	static const char nul[] = HDR "0,A,0,10,0,0\n\0"
				      "1,B,10,20,0,0\n";

	(void)state;
	assert_int_equal(blocks_schedule_parse_text(text, "b", &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.items[1].status, 255);
	blocks_schedule_free(&s);
	fixture_write_temp(nul, sizeof(nul) - 1, path);
	assert_int_equal(
		blocks_schedule_parse_file(path, "blocks.csv", &s, &err),
		-EBADMSG);
	unlink(path);
	assert_non_null(strstr(err.msg, "blocks.csv: holds a NUL byte"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
