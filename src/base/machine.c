/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine.c - the reader of /proc and /sys under a root (see machine.h).
 */
#include "src/base/machine.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A /proc table larger than this is not one sysinfo wants whole. */
#define SLURP_MAX (1024 * 1024)

/* The one place where root and a /proc or /sys path are joined. */
static bool machine_path(const char *root, const char *path, char *full,
			 size_t size)
{
	return snprintf(full, size, "%s%s", root, path) < (int)size;
}

static FILE *machine_fopen(const char *root, const char *path)
{
	char full[PATH_MAX];

	return machine_path(root, path, full, sizeof(full)) ? fopen(full, "re")
							    : NULL;
}

bool machine_read(const char *root, const char *path, char *buf, size_t size)
{
	size_t n, i;
	FILE *f;

	f = machine_fopen(root, path);
	if (!f)
		return false;
	n = fread(buf, 1, size - 1, f);
	if (ferror(f)) {
		fclose(f);
		return false;
	}
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	for (i = 0; i < n; i++)
		if (buf[i] == '\n')
			buf[i] = ' ';
	return true;
}

char *machine_slurp(const char *root, const char *path, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	FILE *f;

	f = machine_fopen(root, path);
	if (!f)
		return NULL;
	/* /proc files have no size: read until the end */
	for (;;) {
		size_t got;

		if (cap - n < 4096) {
			char *more = cap < SLURP_MAX ? realloc(buf, cap + 65536)
						     : NULL;

			if (!more)
				break;
			buf = more;
			cap += 65536;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0 || n >= SLURP_MAX)
			break;
	}
	if (!buf || ferror(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

bool machine_field(const char *root, const char *path, const char *key,
		   char *out, size_t size)
{
	char line[4096];
	size_t klen = strlen(key);
	bool found = false;
	FILE *f;

	f = machine_fopen(root, path);
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = line + klen;

		if (strncmp(line, key, klen) != 0)
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		p[strcspn(p, "\n")] = '\0';
		snprintf(out, size, "%s", p);
		found = true;
	}
	fclose(f);
	return found;
}

char **machine_list(const char *root, const char *dir, size_t *n)
{
	char full[PATH_MAX], **names = NULL;
	struct dirent **ents;
	int i, k;

	*n = 0;
	if (!machine_path(root, dir, full, sizeof(full)))
		return NULL;
	k = scandir(full, &ents, NULL, alphasort);
	if (k < 0)
		return NULL;
	names = calloc((size_t)k + 1, sizeof(*names));
	for (i = 0; i < k; i++) {
		if (names && ents[i]->d_name[0] != '.') {
			names[*n] = strdup(ents[i]->d_name);
			if (names[*n])
				(*n)++;
		}
		free(ents[i]);
	}
	free(ents);
	return names;
}

void machine_list_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

bool machine_is_dir(const char *root, const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	if (!machine_path(root, path, full, sizeof(full)))
		return false;
	return stat(full, &st) == 0 && S_ISDIR(st.st_mode);
}

long machine_count_list(const char *s)
{
	long n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		n += b - a + 1;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

void machine_choice(char *s)
{
	char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b) {
		memmove(s, a + 1, (size_t)(b - a - 1));
		s[b - a - 1] = '\0';
	}
}

void machine_dotted(char *s)
{
	for (; *s; s++)
		if (*s == '/')
			*s = '.';
}

bool machine_is_cpu(const char *name)
{
	return strncmp(name, "cpu", 3) == 0 && name[3] >= '0' && name[3] <= '9';
}

bool machine_disk_skipped(const char *name)
{
	return strncmp(name, "loop", 4) == 0 || strncmp(name, "ram", 3) == 0 ||
	       strncmp(name, "zram", 4) == 0;
}
