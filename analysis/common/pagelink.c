/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagelink.c - links between report.html and compare.html (see
 * pagelink.h): relative paths between directories, percent-encoding for
 * href, and the search upward for a run's compare page.
 */
#include "analysis/common/pagelink.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Number of components of an absolute normalized path ("/" has none). */
static size_t count_parts(const char *p)
{
	size_t n = 0;

	for (; *p; p++)
		if (*p != '/' && (p[-1] == '/'))
			n++;
	return n;
}

/* The path after its first k components (leading '/' skipped). */
static const char *skip_parts(const char *p, size_t k)
{
	while (*p == '/')
		p++;
	while (k-- > 0 && *p) {
		p += strcspn(p, "/");
		while (*p == '/')
			p++;
	}
	return p;
}

/* Components the two paths share from the root. */
static size_t common_parts(const char *a, const char *b)
{
	size_t k = 0;

	for (;;) {
		size_t la, lb;

		while (*a == '/')
			a++;
		while (*b == '/')
			b++;
		la = strcspn(a, "/");
		lb = strcspn(b, "/");
		if (!la || la != lb || memcmp(a, b, la) != 0)
			return k;
		k++;
		a += la;
		b += lb;
	}
}

int pagelink_relative(const char *from_abs, const char *to_abs, char *out,
		      size_t size)
{
	size_t k, up, used = 0;
	const char *rest;
	int n;

	if (from_abs[0] != '/' || to_abs[0] != '/')
		return -EINVAL;
	k = common_parts(from_abs, to_abs);
	up = count_parts(from_abs) - k;
	rest = skip_parts(to_abs, k);
	if (size == 0)
		return -ENAMETOOLONG;
	out[0] = '\0';
	while (up-- > 0) {
		n = snprintf(out + used, size - used, "%s..", used ? "/" : "");
		if (n < 0 || (size_t)n >= size - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
	}
	if (*rest)
		n = snprintf(out + used, size - used, "%s%s", used ? "/" : "",
			     rest);
	else
		n = snprintf(out + used, size - used, "%s", used ? "" : ".");
	if (n < 0 || (size_t)n >= size - used)
		return -ENAMETOOLONG;
	return 0;
}

/* to_path made absolute against the working directory, into out. */
static bool absolute(const char *to_path, char *out, size_t size)
{
	char cwd[PATH_MAX];
	int n;

	if (to_path[0] == '/')
		n = snprintf(out, size, "%s", to_path);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(out, size, "%s/%s", cwd, to_path);
	else
		n = snprintf(out, size, "%s", to_path);
	if (n < 0 || (size_t)n >= size) {
		if (size)
			out[0] = '\0';
		return false;
	}
	return true;
}

bool pagelink_make(const char *from_dir, const char *to_path, char *out,
		   size_t size)
{
	char from[PATH_MAX], to_dir[PATH_MAX], to[PATH_MAX + NAME_MAX + 2];
	const char *slash = strrchr(to_path, '/');
	const char *base = slash ? slash + 1 : to_path;
	char *dir_part;

	/* the file may not exist yet: resolve its directory */
	dir_part = slash ? strndup(to_path, (size_t)(slash - to_path)) : NULL;
	if (slash && !dir_part) {
		absolute(to_path, out, size);
		return false;
	}
	if (realpath(from_dir, from) && *base &&
	    realpath(slash ? (dir_part[0] ? dir_part : "/") : ".", to_dir) &&
	    snprintf(to, sizeof(to), "%s/%s",
		     strcmp(to_dir, "/") == 0 ? "" : to_dir,
		     base) < (int)sizeof(to) &&
	    pagelink_relative(from, to, out, size) == 0) {
		free(dir_part);
		return true;
	}
	free(dir_part);
	absolute(to_path, out, size);
	return false;
}

void pagelink_href(FILE *f, const char *path)
{
	pagelink_href_len(f, path, strlen(path));
}

void pagelink_href_len(FILE *f, const char *path, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;

	for (i = 0; i < len && path[i]; i++) {
		unsigned char c = (unsigned char)path[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			fputc(c, f);
		else
			fprintf(f, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

bool pagelink_find_up(const char *dir, const char *name, int up, char *out,
		      size_t size)
{
	char path[PATH_MAX], rel[PATH_MAX];
	size_t used = 0;
	int i, n;

	for (i = 1; i <= up; i++) {
		n = snprintf(rel + used, sizeof(rel) - used, "%s..",
			     used ? "/" : "");
		if (n < 0 || (size_t)n >= sizeof(rel) - used)
			return false;
		used += (size_t)n;
		n = snprintf(path, sizeof(path), "%s/%s/%s", dir, rel, name);
		if (n < 0 || (size_t)n >= sizeof(path))
			return false;
		if (access(path, R_OK) == 0) {
			pagelink_make(dir, path, out, size);
			return out[0] != '\0';
		}
	}
	return false;
}
