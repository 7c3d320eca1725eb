/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo_text.h - the machine's part of sys/sysinfo.txt (format in
 * docs/hook-formats.md, "sysinfo"): the first line `oltpmark sysinfo 1`,
 * then sections headed `== title ==`, from the date to transparent
 * hugepages; the sysinfo hook adds PostgreSQL's section after them.
 * `oltpmark sysinfo` prints it. Every fact is read through machine.h,
 * the reader of the fingerprint (fingerprint.h), with the same lists of
 * sysctls and queue attributes, so that sysinfo.txt and meta.json's
 * fingerprint agree on every fact both hold. A section whose source is
 * missing says so in parentheses.
 */
#ifndef OLTPMARK_SYSINFO_TEXT_H
#define OLTPMARK_SYSINFO_TEXT_H

#include <stdio.h>

#include "src/base/err.h"

/* What to describe besides the machine itself. */
struct sysinfo_text_opts {
	const char *root;	   /* read /proc and /sys under it; "" or
				      NULL: this machine */
	const char *pgdata;	   /* the database's data directory on this
				      machine (its mount and device, and
				      pg_wal's when a link), or NULL */
	const char *kernel_config; /* write the whole kernel config to this
				      file when one is readable, or NULL */
};

/*
 * Write the sections to f. Returns 0; or -EIO when writing to f failed,
 * or the negative errno of writing kernel_config, with err set.
 */
int sysinfo_text_write(const struct sysinfo_text_opts *o, FILE *f,
		       struct err *err);

#endif
