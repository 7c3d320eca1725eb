/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture_util.h - helpers the unit tests share: fixture paths and
 * contents, temporary files and directories, deterministic noise.
 *
 * Each tests/unit/test_*.c is a program of its own, so these are static
 * inline functions in a header rather than a library: a test includes
 * the header and an unused helper costs nothing and draws no warning.
 * They fail the running cmocka test when anything goes wrong, hence the
 * cmocka headers first (cmocka.h needs the four standard ones before it).
 */
#ifndef OLTPMARK_TESTS_UNIT_FIXTURE_UTIL_H
#define OLTPMARK_TESTS_UNIT_FIXTURE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Path of fixture name, from $OLTPMARK_FIXTURES (default tests/fixtures).
 * The path is in a static buffer, good until the next call.
 */
static inline const char *fixture_path(const char *name)
{
	static char path[PATH_MAX];
	const char *dir = getenv("OLTPMARK_FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures",
		 name);
	return path;
}

/*
 * The whole file at path in a malloc'd buffer with a '\0' after the last
 * byte, so it can be searched as a string; *len (when len is not NULL)
 * gets the size without that '\0'. The caller frees the buffer.
 */
static inline char *fixture_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

/*
 * Fixture name read by fixture_read_file(); len must not be NULL. A
 * fixture is never empty.
 */
static inline char *fixture_slurp(const char *name, size_t *len)
{
	char *buf = fixture_read_file(fixture_path(name), len);

	assert_true(*len > 0);
	return buf;
}

/* Whether the file at path holds needle (up to its first NUL byte). */
static inline bool fixture_file_contains(const char *path, const char *needle)
{
	char *text = fixture_read_file(path, NULL);
	bool found = strstr(text, needle) != NULL;

	free(text);
	return found;
}

/*
 * Write len bytes of buf to a new file. path holds a mkstemp() template
 * ("/tmp/test_NAME.XXXXXX") and gets the file's name; returns path. The
 * caller unlinks the file.
 */
static inline char *fixture_write_temp(const void *buf, size_t len, char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	return path;
}

/* Write text to dir/name, replacing what was there. */
static inline void fixture_write_file(const char *dir, const char *name,
				      const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, name) <
		    (int)sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/*
 * Make a new directory $TMPDIR/name.XXXXXX (/tmp without TMPDIR); dir
 * (size bytes) gets its path. Returns dir, or NULL when mkdtemp() fails,
 * so that a group setup can report it without an assertion.
 */
static inline char *fixture_temp_dir(char *dir, size_t size, const char *name)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, size, "%s/%s.XXXXXX", tmp ? tmp : "/tmp", name);
	return mkdtemp(dir);
}

/* nftw() callback of fixture_rm_rf(): remove one entry. */
static inline int fixture_rm_entry(const char *path, const struct stat *st,
				   int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* rm -r dir, not following links; nftw()'s result (0 when all went). */
static inline int fixture_rm_rf(const char *dir)
{
	return nftw(dir, fixture_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Fill buf with deterministic "random" bytes (xorshift32 from seed, which
 * must not be 0): newlines, NULs and invalid UTF-8 included.
 */
static inline void fixture_garbage(unsigned char *buf, size_t len,
				   uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		buf[i] = (unsigned char)seed;
	}
}

/*
 * Call a command's entry point (cmd_run, cmd_report...) on a
 * NULL-terminated argv with its stderr captured: the first size - 1
 * bytes go to err (NUL-terminated; err may be NULL to drop them).
 * Returns the command's exit status.
 */
static inline int fixture_call_cmd(int (*cmd)(int, char **),
				   const char *const *args, char *err,
				   size_t size)
{
	char *argv[64];
	int argc = 0, saved, rc;
	FILE *tmp = tmpfile();
	size_t n;

	assert_non_null(tmp);
	while (args[argc] && argc < 63) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	rc = cmd(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (err && size > 0) {
		rewind(tmp);
		n = fread(err, 1, size - 1, tmp);
		err[n] = '\0';
	}
	fclose(tmp);
	return rc;
}

/* How often needle occurs in hay, counted without overlaps. */
static inline int fixture_count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

#endif
