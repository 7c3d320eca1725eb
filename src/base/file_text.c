/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_text.c - read a small text file whole (see file_text.h).
 */
#include "src/base/file_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int file_text_read(const char *path, const char *name, long max_bytes,
		   char **text, size_t *len, struct err *err)
{
	FILE *f;
	long size;
	char *buf;
	int rc = 0;

	*text = NULL;
	f = fopen(path, "rb");
	if (!f)
		return err_set(err, -errno, "%s: %s", name, strerror(errno));
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return err_set(err, -EIO, "%s: cannot read it", name);
	}
	if (size > max_bytes) {
		fclose(f);
		return err_set(err, -EBADMSG, "%s: %ld bytes, too large", name,
			       size);
	}
	buf = malloc((size_t)size + 1);
	if (!buf) {
		fclose(f);
		return err_set(err, -ENOMEM, "%s: out of memory", name);
	}
	if (fread(buf, 1, (size_t)size, f) != (size_t)size)
		rc = err_set(err, -EIO, "%s: cannot read it", name);
	fclose(f);
	if (rc == 0) {
		buf[size] = '\0';
		if (strlen(buf) != (size_t)size)
			rc = err_set(err, -EBADMSG, "%s: holds a NUL byte",
				     name);
	}
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*text = buf;
	if (len)
		*len = (size_t)size;
	return 0;
}
