/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine.h - the one reader of /proc and /sys: small files, "key: value"
 * lines, directory listings and sysfs CPU lists, each read under a root
 * directory ("" for this machine, a fixture tree in the tests). The
 * fingerprint of meta.json (fingerprint.h), the text of sys/sysinfo.txt
 * (sysinfo_text.h) and meta.json's kernel, cpu and memory (sysinfo.h)
 * all read the machine through these functions, so the three never
 * disagree on a fact. A file that cannot be read is a false or NULL
 * answer, never an error message: nothing here prints. Thread-safe.
 */
#ifndef OLTPMARK_MACHINE_H
#define OLTPMARK_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Read root/path into buf, newlines inside turned into spaces and
 * trailing newlines and blanks removed (a value of one line: a sysctl, a
 * sysfs attribute). true when the file was read, maybe empty.
 */
bool machine_read(const char *root, const char *path, char *buf, size_t size);

/*
 * The whole of root/path as it is (a /proc table such as meminfo),
 * NUL-terminated, at most 1 MiB; *len its length when len is not NULL.
 * NULL when it cannot be read. Caller frees.
 */
char *machine_slurp(const char *root, const char *path, size_t *len);

/*
 * Value of the first "key<blanks>: value" line of root/path (cpuinfo,
 * meminfo), into out. true when found.
 */
bool machine_field(const char *root, const char *path, const char *key,
		   char *out, size_t size);

/*
 * Names in root/dir but hidden ones (".", ".."), sorted (alphasort);
 * *n of them. NULL (and *n 0) when the directory cannot be listed. Free with
 * machine_list_free().
 */
char **machine_list(const char *root, const char *dir, size_t *n);

void machine_list_free(char **names, size_t n);

/* root/path is a directory. */
bool machine_is_dir(const char *root, const char *path);

/* CPUs in a sysfs list such as "0-3,6,8-9"; -1 when it is not one. */
long machine_count_list(const char *s);

/* "always [madvise] never" -> "madvise", in place; no brackets: as is. */
void machine_choice(char *s);

/* "vm/dirty_ratio" -> "vm.dirty_ratio", in place. */
void machine_dotted(char *s);

/* "cpu12": a CPU's directory in /sys/devices/system/cpu. */
bool machine_is_cpu(const char *name);

/* Block devices no run puts a database on: loop, ram and zram. */
bool machine_disk_skipped(const char *name);

#endif
