/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kconfig.c - the kernel's config and the lines of it that matter (see
 * kconfig.h). Why gzip and not zlib: /proc/config.gz is read once per
 * run, and gzip is in every Debian system; zlib would be a build
 * dependency for one file.
 */
#include "src/base/kconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/base/machine.h"

extern char **environ;

/* A config is ~300 kB; more than this is not one. */
#define KCONFIG_MAX (16 * 1024 * 1024)

/*
 * Prefixes after "CONFIG_" (set) or "# CONFIG_" (unset) of the options
 * shown; an entry ending in '*' is a prefix, "*IOSCHED" any option whose
 * name ends so.
 */
static const char *const shown[] = {
	"HZ*",
	"PREEMPT*",
	"LOCK_STAT*",
	"PROFILING*",
	"SCHED_*",
	"*IOSCHED",
	"NO_HZ*",
	"CPU_FREQ_DEFAULT_GOV*",
	"TRANSPARENT_HUGEPAGE*",
	"NUMA*",
	"LOCKDEP*",
	"PROVE_LOCKING*",
	"DEBUG_LOCK_ALLOC*",
	"DEBUG_SPINLOCK*",
	"DEBUG_MUTEXES*",
	"DEBUG_PAGEALLOC*",
	"KASAN*",
	"KCSAN*",
	"UBSAN*",
	"BLK_WBT*",
	"BLK_CGROUP*",
	"CPU_MITIGATIONS*",
	NULL,
};

bool kconfig_line_shown(const char *line)
{
	size_t i, nlen;
	const char *name;

	if (strncmp(line, "# ", 2) == 0)
		line += 2;
	if (strncmp(line, "CONFIG_", 7) != 0)
		return false;
	name = line + 7;
	nlen = strcspn(name, "= ");
	for (i = 0; shown[i]; i++) {
		const char *p = shown[i];
		size_t plen = strlen(p);

		if (p[0] == '*') {
			/* "*IOSCHED": any name with IOSCHED after letters */
			const char *hit = strstr(name, p + 1);

			if (hit && hit < name + nlen)
				return true;
		} else if (p[plen - 1] == '*') {
			if (nlen >= plen - 1 && strncmp(name, p, plen - 1) == 0)
				return true;
		}
	}
	return false;
}

/* Read fd to its end into a new buffer; NULL on error or when too big. */
static char *read_all(int fd)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;

	for (;;) {
		ssize_t got;

		if (cap - n < 65536) {
			char *more = cap < KCONFIG_MAX
					     ? realloc(buf, cap + 262144)
					     : NULL;

			if (!more) {
				free(buf);
				return NULL;
			}
			buf = more;
			cap += 262144;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	return buf;
}

/* root/proc/config.gz through gzip -dc; NULL when either fails. */
static char *read_gz(const char *root, char *why, size_t why_size)
{
	char full[PATH_MAX], *text = NULL, *argv[] = {"gzip", "-dc", NULL};
	posix_spawn_file_actions_t fa;
	int in, pipefd[2], status, rc;
	pid_t pid;

	snprintf(full, sizeof(full), "%s/proc/config.gz", root);
	in = open(full, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return NULL;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		close(in);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	rc = posix_spawnp(&pid, "gzip", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		snprintf(why, why_size, "gzip not found (Debian package gzip)");
		return NULL;
	}
	text = read_all(pipefd[0]);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(text);
		snprintf(why, why_size, "gzip -dc /proc/config.gz failed");
		return NULL;
	}
	return text;
}

char *kconfig_read(const char *root, char *source, size_t source_size,
		   char *why, size_t why_size)
{
	char release[256], path[PATH_MAX], gz_why[128] = "", *text;

	text = read_gz(root, gz_why, sizeof(gz_why));
	if (text) {
		snprintf(source, source_size, "/proc/config.gz");
		return text;
	}
	if (!machine_read(root, "/proc/sys/kernel/osrelease", release,
			  sizeof(release)) ||
	    !release[0] || strchr(release, '/'))
		snprintf(release, sizeof(release), "RELEASE");
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	text = machine_slurp(root, path, NULL);
	if (text) {
		snprintf(source, source_size, "%s", path);
		return text;
	}
	if (gz_why[0])
		snprintf(why, why_size, "not readable: %s, no %s", gz_why,
			 path);
	else
		snprintf(why, why_size,
			 "not readable: no /proc/config.gz, no %s", path);
	return NULL;
}
