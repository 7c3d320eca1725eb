/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kconfig.h - the running kernel's build configuration, for sysinfo.txt
 * and kernel-config.txt beside a run: two kernels are compared, and
 * their configs (CONFIG_HZ, preemption, lock debugging) explain much of
 * a difference. Read under a root, as machine.h reads ("" for this
 * machine, a fixture tree in the tests). Nothing here prints.
 */
#ifndef OLTPMARK_KCONFIG_H
#define OLTPMARK_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The config's text: root/proc/config.gz decompressed by `gzip -dc` (a
 * child process; the file is opened here, gzip only reads its standard
 * input), else root/boot/config-RELEASE with RELEASE from
 * root/proc/sys/kernel/osrelease. Returns the text (caller frees) with
 * source set to the file read, as a path on the machine
 * ("/proc/config.gz"); or NULL with why set to a note
 * ("not readable: no /proc/config.gz, no /boot/config-6.1.0").
 */
char *kconfig_read(const char *root, char *source, size_t source_size,
		   char *why, size_t why_size);

/*
 * true for a line sysinfo.txt shows: set or unset options that change
 * performance or what can be measured (CONFIG_HZ*, CONFIG_PREEMPT*,
 * CONFIG_LOCK_STAT, the I/O schedulers, lock and memory debugging,
 * sanitizers, ...). line without its newline.
 */
bool kconfig_line_shown(const char *line);

#endif
