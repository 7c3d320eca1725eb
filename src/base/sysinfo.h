/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo.h - facts about this machine and its processes that a run
 * records: the kernel (uname, /proc/cmdline), CPU model and count and
 * memory for meta.json, and CPU time used by a process tree (the
 * PostgreSQL postmaster and its backends) for the cost of a run.
 * Everything is read from uname(2), sysconf(3) and /proc (the machine's
 * files through machine.h, as the fingerprint reads them); nothing
 * prints.
 */
#ifndef OLTPMARK_SYSINFO_H
#define OLTPMARK_SYSINFO_H

#include <stddef.h>

#include <jansson.h>

#include "src/base/err.h"

/* `uname -r` into buf (always NUL-terminated). 0 or negative errno. */
int sysinfo_kernel_release(char *buf, size_t size);

/*
 * Add "kernel" {uname, release, version, machine, cmdline}, "cpu"
 * {model, online, configured} and "memory" {total_kb} to obj. A fact that
 * cannot be read is null. 0, or -ENOMEM.
 */
int sysinfo_add_json(json_t *obj);

/*
 * sysinfo_add_json() of the machine whose /proc and /sys are under root
 * ("" or NULL: this one, read exactly as sysinfo_add_json() reads it; a
 * fixture tree in the tests): the kernel's names from
 * /proc/sys/kernel/{ostype,hostname,osrelease,version,arch} ("uname"
 * and "machine" null when one is missing), the CPU counts from the
 * sysfs lists. 0, or -ENOMEM.
 */
int sysinfo_add_json_root(json_t *obj, const char *root);

/*
 * The machine's host name (uname -n) under root ("": gethostname(2))
 * into buf; "" when it cannot be read.
 */
void sysinfo_host_name(const char *root, char *buf, size_t size);

/* User + system CPU seconds of this process, all threads (getrusage). */
double sysinfo_self_cpu_s(void);

/*
 * User + system CPU seconds of process pid and of all its children:
 * live children (ppid == pid) from /proc/PID/stat, and children that
 * already ended and were reaped (pid's cutime and cstime), so the
 * difference of two samples is what the tree used in between even when
 * backends come and go. 0, or negative errno with err set (-ESRCH when
 * pid does not exist).
 */
int sysinfo_tree_cpu_s(int pid, double *cpu_s, struct err *err);

#endif
