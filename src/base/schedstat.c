/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedstat.c - reading /proc/PID/schedstat and adding up its growth per
 * transaction type (see schedstat.h).
 */
#include "src/base/schedstat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* "18446744073709551615" three times, blanks and a newline */
#define SCHEDSTAT_TEXT_MAX 80

/* An unsigned decimal at *p into *v, moving *p; false when none or > 2^64. */
static bool take_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*p = s;
	*v = x;
	return true;
}

int schedstat_parse(const char *buf, size_t len, struct schedstat_sample *out,
		    struct err *err)
{
	const char *p = buf, *end = buf + len;
	uint64_t v[3];
	int i;

	if (!buf || len == 0)
		return err_set(err, -EINVAL, "schedstat: empty");
	for (i = 0; i < 3; i++) {
		if (i) {
			if (p >= end || *p != ' ')
				return err_set(err, -EINVAL,
					       "schedstat: %d of 3 numbers", i);
			while (p < end && *p == ' ')
				p++;
		}
		if (!take_u64(&p, end, &v[i]))
			return err_set(err, -EINVAL,
				       "schedstat: number %d is not an "
				       "unsigned 64-bit number",
				       i + 1);
	}
	if (p < end && *p == '\n')
		p++;
	if (p != end)
		return err_set(err, -EINVAL, "schedstat: text after 3 numbers");
	out->cpu_ns = v[0];
	out->wait_ns = v[1];
	out->slices = v[2];
	return 0;
}

/* The parent PID in /proc/PID/stat ("pid (comm) state ppid ..."). */
static int read_ppid(int pid, int *ppid, struct err *err)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	int fd, rc;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = errno == ENOENT ? -ESRCH : -errno;
		return err_set(err, rc, "cannot open %s: %s", path,
			       strerror(errno));
	}
	n = read(fd, buf, sizeof(buf) - 1);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (n < 0)
		return err_set(err, rc, "cannot read %s: %s", path,
			       strerror(-rc));
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: the last ')' ends it */
	p = strrchr(buf, ')');
	if (!p || sscanf(p, ") %*c %d", ppid) != 1)
		return err_set(err, -EINVAL, "%s: no parent process id", path);
	return 0;
}

int schedstat_open(int pid, int parent_pid, struct err *err)
{
	char path[64];
	int ppid = 0, fd, rc;

	if (pid <= 0 || parent_pid <= 0)
		return err_set(err, -EINVAL, "bad process id %d (parent %d)",
			       pid, parent_pid);
	rc = read_ppid(pid, &ppid, err);
	if (rc < 0)
		return rc;
	if (ppid != parent_pid)
		return err_set(err, -ECHILD,
			       "process %d is not a child of the server's "
			       "postmaster %d (its parent is %d)",
			       pid, parent_pid, ppid);
	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		return err_set(err, rc, "cannot open %s: %s", path,
			       strerror(-rc));
	}
	return fd;
}

int schedstat_read(int fd, struct schedstat_sample *out, struct err *err)
{
	char buf[SCHEDSTAT_TEXT_MAX];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf), 0);
	if (n < 0)
		return err_set(err, -errno, "cannot read schedstat: %s",
			       strerror(errno));
	/* a process that ended reads as empty */
	if (n == 0)
		return err_set(err, -ESRCH, "schedstat: the process ended");
	return schedstat_parse(buf, (size_t)n, out, err);
}

int schedstat_acc_add(struct schedstat_acc *acc,
		      const struct schedstat_sample *a,
		      const struct schedstat_sample *b)
{
	if (b->cpu_ns < a->cpu_ns || b->wait_ns < a->wait_ns ||
	    b->slices < a->slices)
		return -ERANGE;
	acc->txns++;
	acc->cpu_ns += b->cpu_ns - a->cpu_ns;
	acc->wait_ns += b->wait_ns - a->wait_ns;
	acc->slices += b->slices - a->slices;
	return 0;
}

void schedstat_types_sum(struct schedstat_types *dst,
			 const struct schedstat_types *src)
{
	int t, s;

	for (t = 0; t < TXN_NR; t++)
		for (s = 0; s < TXN_STATUS_NR; s++) {
			struct schedstat_acc *d = &dst->by[t][s];
			const struct schedstat_acc *x = &src->by[t][s];

			d->txns += x->txns;
			d->cpu_ns += x->cpu_ns;
			d->wait_ns += x->wait_ns;
			d->slices += x->slices;
		}
	dst->not_measured += src->not_measured;
}

void schedstat_types_get(const struct schedstat_types *t, enum txn_type type,
			 unsigned statuses, struct schedstat_acc *out)
{
	int s;

	memset(out, 0, sizeof(*out));
	if ((unsigned)type >= TXN_NR)
		return;
	for (s = 0; s < TXN_STATUS_NR; s++) {
		const struct schedstat_acc *x = &t->by[type][s];

		if (!(statuses & (1u << s)))
			continue;
		out->txns += x->txns;
		out->cpu_ns += x->cpu_ns;
		out->wait_ns += x->wait_ns;
		out->slices += x->slices;
	}
}
