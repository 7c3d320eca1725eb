/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_text.h - a small text file read whole into memory, for the
 * readers of our own small CSV files (checkpoints.csv, blocks.csv) that
 * parse from one string. Refuses files over a caller's bound and files
 * holding a NUL byte, so a parser never sees a truncated C string.
 */
#ifndef OLTPMARK_BASE_FILE_TEXT_H
#define OLTPMARK_BASE_FILE_TEXT_H

#include <stddef.h>

#include "src/base/err.h"

/*
 * Read path into a NUL-terminated string (*text, the caller frees it) of
 * *len bytes (len may be NULL). name is what messages call the file.
 * 0; -ENOENT and the like from fopen; -EIO when it cannot be read;
 * -EBADMSG when it is larger than max_bytes or holds a NUL byte;
 * -ENOMEM. On error *text is NULL and err says why. Thread-safe.
 */
int file_text_read(const char *path, const char *name, long max_bytes,
		   char **text, size_t *len, struct err *err);

#endif
