/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_file_text.c - file_text_read(): a file read whole, and each way
 * it refuses one (missing, too large, a NUL byte inside).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/base/file_text.h"

/* A temporary file holding len bytes of data; its path in path. */
static void make_file(char *path, size_t size, const char *data, size_t len)
{
	int fd;

	snprintf(path, size, "/tmp/oltpmark-file-text.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void test_reads_whole(void **state)
{
	char path[64], *text = NULL;
	size_t len = 0;
	struct err err = {""};

	(void)state;
	make_file(path, sizeof(path), "a,b\n1,2\n", 8);
	assert_int_equal(file_text_read(path, "x.csv", 100, &text, &len, &err),
			 0);
	assert_string_equal(text, "a,b\n1,2\n");
	assert_int_equal(len, 8);
	free(text);
	/* an empty file is an empty string */
	unlink(path);
	make_file(path, sizeof(path), "", 0);
	assert_int_equal(file_text_read(path, "x.csv", 100, &text, NULL, &err),
			 0);
	assert_string_equal(text, "");
	free(text);
	unlink(path);
}

static void test_refuses(void **state)
{
	char path[64], *text = (char *)"untouched";
	struct err err = {""};

	(void)state;
	assert_int_equal(file_text_read("/nonexistent/x.csv", "x.csv", 100,
					&text, NULL, &err),
			 -ENOENT);
	assert_null(text);
	assert_non_null(strstr(err.msg, "x.csv"));

	make_file(path, sizeof(path), "0123456789", 10);
	assert_int_equal(file_text_read(path, "big.csv", 9, &text, NULL, &err),
			 -EBADMSG);
	assert_null(text);
	assert_non_null(strstr(err.msg, "too large"));
	assert_int_equal(file_text_read(path, "big.csv", 10, &text, NULL, &err),
			 0);
	free(text);
	unlink(path);

	make_file(path, sizeof(path), "ab\0cd", 5);
	assert_int_equal(
		file_text_read(path, "nul.csv", 100, &text, NULL, &err),
		-EBADMSG);
	assert_null(text);
	assert_non_null(strstr(err.msg, "NUL"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_whole),
		cmocka_unit_test(test_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
