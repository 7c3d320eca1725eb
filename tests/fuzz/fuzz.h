/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - helpers shared by the fuzz targets in tests/fuzz/: the input
 * as a FILE *, cut into parts at a separator line, or written to files of
 * a private temporary directory (under $TMPDIR, with subdirectories such
 * as a run directory's sys/) for readers that only take a path.
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput() and is built twice:
 * with clang and libFuzzer (`make fuzz`), and with the replay driver
 * (replay.c) and gcc's ASan+UBSan for `make check`. Everything here is
 * static so that one target is one translation unit.
 */
#ifndef OLTPMARK_FUZZ_H
#define OLTPMARK_FUZZ_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Targets that read two snapshots (before and after) or several files
 * take one input cut at this line; the seeds in tests/fuzz/corpus/ use it.
 */
#define FUZZ_SEP "\n--8<--\n"

/* Most files fuzz_write() removes at exit. */
#define FUZZ_FILES_MAX 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One part of a split input: data, not NUL-terminated. */
struct fuzz_part {
	const uint8_t *data; /* inside the input */
	size_t size;	     /* bytes */
};

/*
 * Cut data at each FUZZ_SEP into at most max parts (the last one keeps
 * any further separators). Returns the number of parts, at least 1.
 */
static inline size_t fuzz_split(const uint8_t *data, size_t size,
				struct fuzz_part *parts, size_t max)
{
	const size_t seplen = sizeof(FUZZ_SEP) - 1;
	size_t n = 0;

	while (n + 1 < max) {
		const uint8_t *sep = memmem(data, size, FUZZ_SEP, seplen);

		if (!sep)
			break;
		parts[n].data = data;
		parts[n].size = (size_t)(sep - data);
		n++;
		size -= (size_t)(sep - data) + seplen;
		data = sep + seplen;
	}
	parts[n].data = data;
	parts[n].size = size;
	return n + 1;
}

/*
 * A stream reading exactly data[0 .. size). *copy holds a private copy
 * that fmemopen() reads from; free it after fclose(). NULL on failure.
 */
static inline FILE *fuzz_open(const uint8_t *data, size_t size, char **copy)
{
	FILE *f;

	*copy = malloc(size + 1);
	if (!*copy)
		return NULL;
	if (size)
		memcpy(*copy, data, size);
	f = fmemopen(*copy, size, "r");
	if (!f) {
		free(*copy);
		*copy = NULL;
	}
	return f;
}

/* Close what fuzz_open() returned. */
static inline void fuzz_close(FILE *f, char *copy)
{
	if (f)
		fclose(f);
	free(copy);
}

/* A NUL-terminated copy of data, for parsers of C strings. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The private directory: made on first use, removed at exit. */
static char fuzz_dir[256];
/* Names fuzz_write() created in it, for the clean-up. */
static const char *fuzz_names[FUZZ_FILES_MAX];
static size_t fuzz_nnames;
/* Subdirectories fuzz_subdir() made in it, removed after the files. */
static const char *fuzz_subdirs[FUZZ_FILES_MAX];
static size_t fuzz_nsubdirs;

static inline void fuzz_cleanup(void)
{
	char path[512];
	size_t i;

	for (i = 0; i < fuzz_nnames; i++) {
		snprintf(path, sizeof(path), "%s/%s", fuzz_dir, fuzz_names[i]);
		unlink(path);
	}
	for (i = fuzz_nsubdirs; i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", fuzz_dir,
			 fuzz_subdirs[i]);
		rmdir(path);
	}
	if (fuzz_dir[0])
		rmdir(fuzz_dir);
}

/* The private directory's path, made once per process; NULL on failure. */
static inline const char *fuzz_tmpdir(void)
{
	const char *tmp;

	if (fuzz_dir[0])
		return fuzz_dir;
	tmp = getenv("TMPDIR");
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/oltpmark-fuzz.XXXXXX",
		 tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(fuzz_dir)) {
		fuzz_dir[0] = '\0';
		return NULL;
	}
	atexit(fuzz_cleanup);
	return fuzz_dir;
}

/*
 * Make the subdirectory name (a static string, parents first) of the
 * private directory, for readers that look for "sys/NAME" in a run
 * directory. Returns 0, or -1 when that failed.
 */
static inline int fuzz_subdir(const char *name)
{
	const char *dir = fuzz_tmpdir();
	char path[512];
	size_t i;

	if (!dir)
		return -1;
	for (i = 0; i < fuzz_nsubdirs; i++)
		if (strcmp(fuzz_subdirs[i], name) == 0)
			return 0;
	if (fuzz_nsubdirs == FUZZ_FILES_MAX)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mkdir(path, 0700) < 0)
		return -1;
	fuzz_subdirs[fuzz_nsubdirs++] = name;
	return 0;
}

/*
 * Write data to the file name (a static string) of the private directory,
 * or remove it when data is NULL. Returns 0, or -1 when that failed.
 */
static inline int fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	const char *dir = fuzz_tmpdir();
	char path[512];
	size_t i;
	FILE *f;
	int rc = 0;

	if (!dir)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!data) {
		unlink(path);
		return 0;
	}
	for (i = 0; i < fuzz_nnames && strcmp(fuzz_names[i], name); i++)
		;
	if (i == fuzz_nnames && fuzz_nnames < FUZZ_FILES_MAX)
		fuzz_names[fuzz_nnames++] = name;
	f = fopen(path, "wb");
	if (!f)
		return -1;
	if (size && fwrite(data, 1, size, f) != size)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

#endif
