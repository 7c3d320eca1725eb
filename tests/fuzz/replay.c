/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - run a fuzz target once on each file named, without
 * libFuzzer: `make check` links it with each tests/fuzz/fuzz_NAME.c and
 * gcc's ASan+UBSan, so the saved corpus and every crash input found so
 * far stay regression tests on machines without clang.
 *
 * Usage: replay_NAME FILE|DIR...  (a directory: each regular file in it,
 * in name order). Prints one line per file with -v. Exit 0 when every
 * input ran; a sanitizer report aborts the program, and the caller counts
 * that as the target failing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Run the target on the file at path. 0, or -1 when it cannot be read. */
static int replay_file(const char *path, bool verbose)
{
	uint8_t *buf = NULL;
	size_t size = 0, cap = 0, n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (size == cap) {
			uint8_t *grown = realloc(buf, cap ? 2 * cap : 4096);

			if (!grown) {
				fprintf(stderr, "replay: out of memory\n");
				free(buf);
				fclose(f);
				return -1;
			}
			buf = grown;
			cap = cap ? 2 * cap : 4096;
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
	} while (n > 0);
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (verbose)
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
	/* A copy of exactly size bytes, so ASan sees any read past them. */
	{
		uint8_t *exact = malloc(size ? size : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		if (size)
			memcpy(exact, buf, size);
		free(buf);
		LLVMFuzzerTestOneInput(exact, size);
		free(exact);
	}
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run the target on each regular file in dir; adds to *count. */
static int replay_dir(const char *dir, bool verbose, size_t *count)
{
	struct dirent **list;
	int n, i, rc = 0;

	n = scandir(dir, &list, NULL, NULL);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	qsort(list, (size_t)n, sizeof(*list), cmp_names);
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (list[i]->d_name[0] != '.' && stat(path, &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			if (replay_file(path, verbose) < 0)
				rc = -1;
			else
				(*count)++;
		}
		free(list[i]);
	}
	free(list);
	return rc;
}

int main(int argc, char **argv)
{
	bool verbose = false;
	size_t count = 0;
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
		} else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], verbose, &count) < 0)
				rc = 1;
		} else if (replay_file(argv[i], verbose) < 0) {
			rc = 1;
		} else {
			count++;
		}
	}
	printf("replayed %zu inputs\n", count);
	return rc;
}
