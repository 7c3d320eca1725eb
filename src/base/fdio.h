/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdio.h - whole writes to a file descriptor. write(2) and pwrite(2) may
 * write less than asked (a signal, a pipe, a nearly full file system) or
 * fail with EINTR; every writer of a buffer that must land whole loops
 * the same way, so the loop lives here once.
 */
#ifndef OLTPMARK_BASE_FDIO_H
#define OLTPMARK_BASE_FDIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Write all len bytes of buf to fd, across short writes and EINTR.
 * 0, or -errno of the write that failed (-EIO for a write of 0 bytes,
 * which would otherwise loop for ever). On error an unknown prefix of
 * buf may have been written.
 */
int fdio_write_all(int fd, const void *buf, size_t len);

/* The same with pwrite(2) at offset off; fd's own offset is untouched. */
int fdio_pwrite_all(int fd, const void *buf, size_t len, off_t off);

#endif
