/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symbols.h - kernel function names made comparable between two builds.
 *
 * GCC clones a function when it specialises it (.isra.N, .constprop.N),
 * splits it (.part.N, .cold) or LTO renames it (.llvm.N, .lto_priv.N). The
 * numbers depend on the build, so one function carries different names in
 * a baseline and a patched kernel. The profile parsers (readprofile, perf,
 * lock_stat contention points) use these helpers before they match
 * functions across kernels; they never change the names they store.
 */
#ifndef OLTPMARK_ANALYSIS_SYMBOLS_H
#define OLTPMARK_ANALYSIS_SYMBOLS_H

#include <stddef.h>

/*
 * Length of the first len bytes of name once the compiler's clone
 * suffixes are stripped from its end, repeatedly: ".isra.N",
 * ".constprop.N", ".part.N", ".cold", ".cold.N", ".llvm.N",
 * ".lto_priv.N" (N: decimal digits). "foo.constprop.0.isra.0" gives the
 * length of "foo". A suffix is never stripped when nothing would remain.
 * Pure function, thread-safe.
 */
size_t symbols_base_len(const char *name, size_t len);

/*
 * Copy name without its clone suffixes into out (out_size bytes, always
 * NUL-terminated when out_size > 0). Returns the length of the stripped
 * name, or -ENAMETOOLONG when it did not fit (out then holds a cut copy).
 */
int symbols_normalize(const char *name, char *out, size_t out_size);

/*
 * The stripped name in a new string the caller frees, or NULL when out of
 * memory.
 */
char *symbols_normalize_dup(const char *name);

#endif
