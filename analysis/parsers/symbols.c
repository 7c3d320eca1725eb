/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symbols.c - stripping of compiler clone suffixes from function names, so
 * that readprofile, perf and lock_stat entries of two kernels match (see
 * symbols.h for the suffixes and why they differ between builds).
 */
#include "analysis/parsers/symbols.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Suffixes followed by ".N"; "cold" may also stand alone. */
static const char *const sym_numbered[] = {
	"isra", "constprop", "part", "cold", "llvm", "lto_priv",
};

/* Length of name[0..len) without one trailing clone suffix, or len. */
static size_t sym_strip_one(const char *name, size_t len)
{
	size_t digits_at = len;
	size_t i;

	/* ".cold" alone. */
	if (len > 5 && memcmp(name + len - 5, ".cold", 5) == 0)
		return len - 5;

	/* ".WORD.N": trailing digits, a dot, a known word, a dot. */
	while (digits_at > 0 && name[digits_at - 1] >= '0' &&
	       name[digits_at - 1] <= '9')
		digits_at--;
	if (digits_at == len || digits_at < 2 || name[digits_at - 1] != '.')
		return len;
	for (i = 0; i < sizeof(sym_numbered) / sizeof(sym_numbered[0]); i++) {
		size_t wlen = strlen(sym_numbered[i]);
		size_t word_at;

		/* Keep at least one character of the name itself. */
		if (digits_at - 1 < wlen + 2)
			continue;
		word_at = digits_at - 1 - wlen;
		if (name[word_at - 1] == '.' &&
		    memcmp(name + word_at, sym_numbered[i], wlen) == 0)
			return word_at - 1;
	}
	return len;
}

size_t symbols_base_len(const char *name, size_t len)
{
	size_t next;

	for (;;) {
		next = sym_strip_one(name, len);
		if (next == len)
			return len;
		len = next;
	}
}

int symbols_normalize(const char *name, char *out, size_t out_size)
{
	size_t len = symbols_base_len(name, strlen(name));

	if (out_size == 0)
		return -ENAMETOOLONG;
	if (len >= out_size) {
		memcpy(out, name, out_size - 1);
		out[out_size - 1] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(out, name, len);
	out[len] = '\0';
	return (int)len;
}

char *symbols_normalize_dup(const char *name)
{
	return strndup(name, symbols_base_len(name, strlen(name)));
}
