/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo.c - machine facts and process CPU times (see sysinfo.h).
 */
#include "src/base/sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "src/base/machine.h"

int sysinfo_kernel_release(char *buf, size_t size)
{
	struct utsname u;

	if (size)
		buf[0] = '\0';
	if (uname(&u) < 0)
		return -errno;
	snprintf(buf, size, "%s", u.release);
	return 0;
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

int sysinfo_add_json(json_t *obj)
{
	json_t *kernel = json_object(), *cpu = json_object(),
	       *mem = json_object();
	struct utsname u;
	char buf[4096];
	long n;

	if (!kernel || !cpu || !mem) {
		json_decref(kernel);
		json_decref(cpu);
		json_decref(mem);
		return -ENOMEM;
	}
	if (uname(&u) == 0) {
		/* what `uname -a` prints, less the operating system name */
		snprintf(buf, sizeof(buf), "%s %s %s %s %s", u.sysname,
			 u.nodename, u.release, u.version, u.machine);
		json_object_set_new(kernel, "uname", json_string(buf));
		json_object_set_new(kernel, "release", json_string(u.release));
		json_object_set_new(kernel, "version", json_string(u.version));
		json_object_set_new(kernel, "machine", json_string(u.machine));
	} else {
		json_object_set_new(kernel, "uname", json_null());
	}
	json_object_set_new(kernel, "cmdline",
			    string_or_null(machine_read("", "/proc/cmdline",
							buf, sizeof(buf))
						   ? buf
						   : NULL));

	/* x86 says "model name"; arm64 has no name, only part numbers */
	if (machine_field("", "/proc/cpuinfo", "model name", buf,
			  sizeof(buf)) ||
	    machine_field("", "/proc/cpuinfo", "Model", buf, sizeof(buf)) ||
	    machine_field("", "/proc/cpuinfo", "cpu model", buf, sizeof(buf)))
		json_object_set_new(cpu, "model", json_string(buf));
	else
		json_object_set_new(cpu, "model", json_null());
	n = sysconf(_SC_NPROCESSORS_ONLN);
	json_object_set_new(cpu, "online",
			    n > 0 ? json_integer(n) : json_null());
	n = sysconf(_SC_NPROCESSORS_CONF);
	json_object_set_new(cpu, "configured",
			    n > 0 ? json_integer(n) : json_null());

	if (machine_field("", "/proc/meminfo", "MemTotal", buf, sizeof(buf)))
		json_object_set_new(mem, "total_kb",
				    json_integer(strtoll(buf, NULL, 10)));
	else
		json_object_set_new(mem, "total_kb", json_null());

	json_object_set_new(obj, "kernel", kernel);
	json_object_set_new(obj, "cpu", cpu);
	json_object_set_new(obj, "memory", mem);
	return 0;
}

void sysinfo_host_name(const char *root, char *buf, size_t size)
{
	if (!size)
		return;
	buf[0] = '\0';
	if (root && *root) {
		if (!machine_read(root, "/proc/sys/kernel/hostname", buf, size))
			buf[0] = '\0';
		return;
	}
	if (gethostname(buf, size - 1) < 0)
		buf[0] = '\0';
	buf[size - 1] = '\0';
}

/* The count of the sysfs CPU list root/path as JSON; null when unread. */
static json_t *cpu_count(const char *root, const char *path)
{
	char buf[1024];
	long n;

	if (!machine_read(root, path, buf, sizeof(buf)))
		return json_null();
	n = machine_count_list(buf);
	return n > 0 ? json_integer(n) : json_null();
}

/* /proc/sys/kernel/NAME under root into buf; false when unread or empty. */
static bool kernel_name(const char *root, const char *name, char *buf,
			size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	return machine_read(root, path, buf, size) && buf[0];
}

int sysinfo_add_json_root(json_t *obj, const char *root)
{
	char os[64], host[256], rel[256], ver[512], arch[64], buf[4096];
	json_t *kernel, *cpu, *mem;
	bool have_rel, have_ver, have_arch;

	if (!root || !*root)
		return sysinfo_add_json(obj);
	kernel = json_object();
	cpu = json_object();
	mem = json_object();
	if (!kernel || !cpu || !mem) {
		json_decref(kernel);
		json_decref(cpu);
		json_decref(mem);
		return -ENOMEM;
	}
	have_rel = kernel_name(root, "osrelease", rel, sizeof(rel));
	have_ver = kernel_name(root, "version", ver, sizeof(ver));
	have_arch = kernel_name(root, "arch", arch, sizeof(arch));
	if (have_rel && have_ver && have_arch &&
	    kernel_name(root, "ostype", os, sizeof(os)) &&
	    kernel_name(root, "hostname", host, sizeof(host))) {
		snprintf(buf, sizeof(buf), "%s %s %s %s %s", os, host, rel, ver,
			 arch);
		json_object_set_new(kernel, "uname", json_string(buf));
	} else {
		json_object_set_new(kernel, "uname", json_null());
	}
	json_object_set_new(kernel, "release",
			    have_rel ? json_string(rel) : json_null());
	json_object_set_new(kernel, "version",
			    have_ver ? json_string(ver) : json_null());
	json_object_set_new(kernel, "machine",
			    have_arch ? json_string(arch) : json_null());
	json_object_set_new(kernel, "cmdline",
			    string_or_null(machine_read(root, "/proc/cmdline",
							buf, sizeof(buf))
						   ? buf
						   : NULL));
	if (machine_field(root, "/proc/cpuinfo", "model name", buf,
			  sizeof(buf)) ||
	    machine_field(root, "/proc/cpuinfo", "Model", buf, sizeof(buf)) ||
	    machine_field(root, "/proc/cpuinfo", "cpu model", buf, sizeof(buf)))
		json_object_set_new(cpu, "model", json_string(buf));
	else
		json_object_set_new(cpu, "model", json_null());
	json_object_set_new(cpu, "online",
			    cpu_count(root, "/sys/devices/system/cpu/online"));
	json_object_set_new(
		cpu, "configured",
		cpu_count(root, "/sys/devices/system/cpu/possible"));
	if (machine_field(root, "/proc/meminfo", "MemTotal", buf, sizeof(buf)))
		json_object_set_new(mem, "total_kb",
				    json_integer(strtoll(buf, NULL, 10)));
	else
		json_object_set_new(mem, "total_kb", json_null());
	json_object_set_new(obj, "kernel", kernel);
	json_object_set_new(obj, "cpu", cpu);
	json_object_set_new(obj, "memory", mem);
	return 0;
}

double sysinfo_self_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Times of one /proc/PID/stat, in clock ticks. */
struct proc_times {
	long ppid;			 /* field 4 */
	unsigned long long utime, stime; /* fields 14, 15 */
	long long cutime, cstime;	 /* fields 16, 17: reaped children */
};

/* Parse /proc/PID/stat. 0, or negative errno (-ESRCH: no such process). */
static int read_stat(const char *pid, struct proc_times *pt)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the command name is in parentheses and may hold anything */
	p = strrchr(buf, ')');
	/* a line cut right after the name: p + 2 would be past its end */
	if (!p || p[1] != ' ')
		return -EINVAL;
	/* after ") ": state ppid pgrp session tty_nr tpgid flags minflt
	   cminflt majflt cmajflt utime stime cutime cstime */
	if (sscanf(p + 2,
		   "%*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
		   &pt->ppid, &pt->utime, &pt->stime, &pt->cutime,
		   &pt->cstime) != 5)
		return -EINVAL;
	return 0;
}

int sysinfo_tree_cpu_s(int pid, double *cpu_s, struct err *err)
{
	struct proc_times pt;
	unsigned long long ticks;
	char name[32];
	struct dirent *de;
	long hz = sysconf(_SC_CLK_TCK);
	DIR *d;
	int rc;

	if (pid <= 0)
		return err_set(err, -EINVAL, "bad process id %d", pid);
	snprintf(name, sizeof(name), "%d", pid);
	rc = read_stat(name, &pt);
	if (rc < 0)
		return err_set(err, rc, "cannot read /proc/%d/stat: %s", pid,
			       strerror(-rc));
	ticks = pt.utime + pt.stime +
		(unsigned long long)(pt.cutime > 0 ? pt.cutime : 0) +
		(unsigned long long)(pt.cstime > 0 ? pt.cstime : 0);
	d = opendir("/proc");
	if (!d)
		return err_set(err, -errno, "cannot list /proc: %s",
			       strerror(errno));
	while ((de = readdir(d)) != NULL) {
		struct proc_times c;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		/* a process may end between readdir and open: skip it */
		if (read_stat(de->d_name, &c) < 0 || c.ppid != pid)
			continue;
		ticks += c.utime + c.stime +
			 (unsigned long long)(c.cutime > 0 ? c.cutime : 0) +
			 (unsigned long long)(c.cstime > 0 ? c.cstime : 0);
	}
	closedir(d);
	*cpu_s = (double)ticks / (double)(hz > 0 ? hz : 100);
	return 0;
}
