/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo_text.c - the machine's sections of sysinfo.txt (see
 * sysinfo_text.h), one function a section, in the order of the file.
 * Lines read "name = value" where the value is a file's (sysctl style,
 * the name relative to the section's directory, / turned into .), or
 * "name attr=value ..." for one CPU or disk a line.
 */
#include "src/base/sysinfo_text.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "src/base/atomic_file.h"
#include "src/base/blockdev.h"
#include "src/base/fingerprint.h"
#include "src/base/kconfig.h"
#include "src/base/machine.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* What a section needs. */
struct ctx {
	const struct sysinfo_text_opts *o; /* the caller's options */
	const char *root;		   /* o->root, never NULL */
	FILE *f;			   /* the output */
	struct err *err;		   /* where a failure is told */
	json_t *env;			   /* the fingerprint's environment
					      keys, for the facts it derives */
	int rc;				   /* first failure, 0 if none */
};

/* Sysctls sysinfo.txt shows beyond the fingerprint's. */
static const char *const extra_sysctls[] = {
	"vm/dirtytime_expire_seconds",
	"kernel/perf_event_paranoid",
	NULL,
};

/* Queue attributes of a disk's line beyond the fingerprint's. */
static const char *const extra_queue_attrs[] = {
	"max_sectors_kb",
	"nomerges",
	"wbt_lat_usec",
	NULL,
};

/*
 * "name = value" for root/base/rel when it can be read, name being rel
 * with / turned into . (nothing when it cannot).
 */
static void show(struct ctx *c, const char *base, const char *rel)
{
	char path[PATH_MAX], name[256], buf[4096];

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	if (!machine_read(c->root, path, buf, sizeof(buf)))
		return;
	snprintf(name, sizeof(name), "%s", rel);
	machine_dotted(name);
	fprintf(c->f, "%s = %s\n", name, buf);
}

/* "label: value" of the fingerprint's environment key; false: absent. */
static bool show_env(struct ctx *c, const char *label, const char *key)
{
	const char *v = json_string_value(json_object_get(c->env, key));

	if (!v)
		return false;
	fprintf(c->f, "%s: %s\n", label, v);
	return true;
}

static void sec_date(struct ctx *c)
{
	char buf[64];
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm))
		fprintf(c->f, "%s\n", buf);
}

/*
 * What `uname -a` prints, less the operating system name: from
 * /proc/sys/kernel, the architecture from its arch file or, on this
 * machine, uname(2).
 */
static void sec_uname(struct ctx *c)
{
	static const char *const parts[] = {"ostype", "hostname", "osrelease",
					    "version"};
	char path[PATH_MAX], buf[1024], line[4200] = "";
	struct utsname u;
	size_t i, len;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", parts[i]);
		if (!machine_read(c->root, path, buf, sizeof(buf)) || !buf[0])
			continue;
		len = strlen(line);
		snprintf(line + len, sizeof(line) - len, "%s%s", len ? " " : "",
			 buf);
	}
	if (!line[0]) {
		fprintf(c->f,
			"(not readable: no /proc/sys/kernel/osrelease)\n");
		return;
	}
	len = strlen(line);
	if (machine_read(c->root, "/proc/sys/kernel/arch", buf, sizeof(buf)))
		snprintf(line + len, sizeof(line) - len, " %s", buf);
	else if (!c->root[0] && uname(&u) == 0)
		snprintf(line + len, sizeof(line) - len, " %s", u.machine);
	fprintf(c->f, "%s\n", line);
	/* the compiler that built it, too */
	if (machine_read(c->root, "/proc/version", buf, sizeof(buf)))
		fprintf(c->f, "%s\n", buf);
}

static void sec_cmdline(struct ctx *c)
{
	char buf[4096];

	if (machine_read(c->root, "/proc/cmdline", buf, sizeof(buf)))
		fprintf(c->f, "%s\n", buf);
	else
		fprintf(c->f, "(not readable: no /proc/cmdline)\n");
}

/* Write the whole config to o->kernel_config, or remove a stale one. */
static void save_config(struct ctx *c, const char *text)
{
	struct atomic_file af;
	int rc;

	if (!c->o->kernel_config)
		return;
	if (!text) {
		if (unlink(c->o->kernel_config) < 0 && errno != ENOENT &&
		    c->rc == 0)
			c->rc = err_set(c->err, -errno, "cannot remove %s: %s",
					c->o->kernel_config, strerror(errno));
		return;
	}
	rc = atomic_file_open(&af, c->o->kernel_config, c->err);
	if (rc == 0) {
		fputs(text, af.f);
		rc = atomic_file_close(&af, 0, c->err);
	}
	if (rc < 0 && c->rc == 0)
		c->rc = rc;
}

static void sec_kconfig(struct ctx *c)
{
	char source[PATH_MAX], why[PATH_MAX + 128], *text, *line, *next;

	text = kconfig_read(c->root, source, sizeof(source), why, sizeof(why));
	save_config(c, text);
	if (!text) {
		fprintf(c->f, "(%s)\n", why);
		return;
	}
	if (c->o->kernel_config)
		fprintf(c->f, "source: %s (whole file: kernel-config.txt)\n",
			source);
	else
		fprintf(c->f, "source: %s\n", source);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (kconfig_line_shown(line))
			fprintf(c->f, "%s\n", line);
	}
	free(text);
}

static void sec_cpu(struct ctx *c)
{
	char buf[4096], *text, *p;
	long n = 0;

	/* the fingerprint's cpu.model, read the same way */
	if (machine_field(c->root, "/proc/cpuinfo", "model name", buf,
			  sizeof(buf)) ||
	    machine_field(c->root, "/proc/cpuinfo", "Model", buf,
			  sizeof(buf)) ||
	    machine_field(c->root, "/proc/cpuinfo", "cpu model", buf,
			  sizeof(buf)))
		fprintf(c->f, "model: %s\n", buf);
	if (machine_field(c->root, "/proc/cpuinfo", "vendor_id", buf,
			  sizeof(buf)))
		fprintf(c->f, "vendor: %s\n", buf);
	text = machine_slurp(c->root, "/proc/cpuinfo", NULL);
	if (!text) {
		fprintf(c->f, "(not readable: no /proc/cpuinfo)\n");
	} else {
		for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (strncmp(p, "processor", 9) == 0 &&
			    (p[9] == ' ' || p[9] == '\t' || p[9] == ':'))
				n++;
		free(text);
		fprintf(c->f, "logical CPUs: %ld\n", n);
	}
	/* the first CPU's: what the CPU can do (avx512, hypervisor) */
	if (machine_field(c->root, "/proc/cpuinfo", "flags", buf,
			  sizeof(buf)) ||
	    machine_field(c->root, "/proc/cpuinfo", "Features", buf,
			  sizeof(buf)))
		fprintf(c->f, "flags: %s\n", buf);
	if (machine_read(c->root, CPU_DIR "/online", buf, sizeof(buf)))
		fprintf(c->f, "online: %s\n", buf);
	if (machine_read(c->root, CPU_DIR "/smt/active", buf, sizeof(buf)))
		fprintf(c->f, "SMT active: %s\n", buf);
	if (machine_read(c->root, "/sys/devices/system/node/online", buf,
			 sizeof(buf)))
		fprintf(c->f, "NUMA nodes online: %s\n", buf);
	/* what the fingerprint concludes from cpuinfo, hypervisor and DMI */
	show_env(c, "virtualization", "virtualization");
}

/* One line per CPU with its frequency scaling settings. */
static void sec_cpufreq(struct ctx *c)
{
	static const char *const attrs[] = {
		"scaling_driver",
		"scaling_governor",
		"scaling_min_freq",
		"scaling_max_freq",
		"energy_performance_preference",
	};
	char **names, path[PATH_MAX], buf[256];
	size_t i, j, n;
	bool found = false;

	names = machine_list(c->root, CPU_DIR, &n);
	for (i = 0; names && i < n; i++) {
		snprintf(path, sizeof(path), CPU_DIR "/%s/cpufreq", names[i]);
		if (!machine_is_cpu(names[i]) || !machine_is_dir(c->root, path))
			continue;
		found = true;
		fprintf(c->f, "%s", names[i]);
		for (j = 0; j < sizeof(attrs) / sizeof(attrs[0]); j++) {
			snprintf(path, sizeof(path), CPU_DIR "/%s/cpufreq/%s",
				 names[i], attrs[j]);
			if (machine_read(c->root, path, buf, sizeof(buf)))
				fprintf(c->f, " %s=%s", attrs[j], buf);
		}
		fputc('\n', c->f);
	}
	machine_list_free(names, n);
	if (!found)
		fprintf(c->f,
			"(no cpufreq: fixed frequency, or a virtual machine)\n");
	show(c, CPU_DIR, "cpuidle/current_driver");
	show(c, CPU_DIR, "cpuidle/current_governor");
	show(c, CPU_DIR, "cpufreq/boost");
	show(c, CPU_DIR, "intel_pstate/no_turbo");
	show(c, CPU_DIR, "intel_pstate/status");
}

static void sec_vulnerabilities(struct ctx *c)
{
	char **names;
	size_t i, n;

	names = machine_list(c->root, CPU_DIR "/vulnerabilities", &n);
	for (i = 0; names && i < n; i++)
		show(c, CPU_DIR "/vulnerabilities", names[i]);
	machine_list_free(names, n);
}

static void sec_clocksource(struct ctx *c)
{
	show(c, "/sys/devices/system/clocksource/clocksource0",
	     "current_clocksource");
}

static void sec_memory(struct ctx *c)
{
	char *text = machine_slurp(c->root, "/proc/meminfo", NULL);
	size_t len;

	if (!text) {
		fprintf(c->f, "(not readable: no /proc/meminfo)\n");
		return;
	}
	len = strlen(text);
	fprintf(c->f, "%s%s", text, len && text[len - 1] == '\n' ? "" : "\n");
	free(text);
}

/* " attr=value" for root/sys/block/DEV/DIR/attr, when it can be read. */
static void disk_attr(struct ctx *c, const char *dev, const char *dir,
		      const char *attr)
{
	char path[PATH_MAX], buf[1024];

	snprintf(path, sizeof(path), "/sys/block/%s/%s/%s", dev, dir, attr);
	if (machine_read(c->root, path, buf, sizeof(buf)))
		fprintf(c->f, " %s=%s", attr, buf);
}

/* One line per disk: the fingerprint's queue attributes first. */
static void sec_block(struct ctx *c)
{
	char **names, path[PATH_MAX];
	size_t i, j, n;

	names = machine_list(c->root, "/sys/block", &n);
	for (i = 0; names && i < n; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/queue", names[i]);
		if (machine_disk_skipped(names[i]) ||
		    !machine_is_dir(c->root, path))
			continue;
		fprintf(c->f, "%s", names[i]);
		for (j = 0; fingerprint_queue_attrs[j]; j++)
			disk_attr(c, names[i], "queue",
				  fingerprint_queue_attrs[j]);
		for (j = 0; extra_queue_attrs[j]; j++)
			disk_attr(c, names[i], "queue", extra_queue_attrs[j]);
		disk_attr(c, names[i], "device", "queue_depth");
		disk_attr(c, names[i], "device", "model");
		fputc('\n', c->f);
	}
	machine_list_free(names, n);
	if (!names)
		fprintf(c->f, "(not readable: no /sys/block)\n");
}

/* "\040" in a mountinfo path -> " ", in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Length of mount point mnt when it holds path, else 0. */
static size_t holds(const char *mnt, const char *path)
{
	size_t len = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return 1;
	if (strncmp(path, mnt, len) == 0 &&
	    (path[len] == '\0' || path[len] == '/'))
		return len;
	return 0;
}

/*
 * "mount: SOURCE on TARGET type FSTYPE (OPTIONS)" for the mount of
 * root/proc/self/mountinfo holding path: the deepest of those with the
 * device number dev, else the deepest of all (btrfs and overlayfs give
 * files a device number of their own).
 */
static void show_mount(struct ctx *c, const char *path, dev_t dev)
{
	char *text = machine_slurp(c->root, "/proc/self/mountinfo", NULL);
	char best[2 * PATH_MAX + 1200] = "", *line, *next;
	size_t best_len = 0;
	bool best_dev = false;

	if (!text) {
		fprintf(c->f,
			"mount: (not readable: no /proc/self/mountinfo)\n");
		return;
	}
	for (line = text; line && *line; line = next) {
		char mnt[PATH_MAX], opts[512], fstype[64], source[PATH_MAX],
			super[512];
		unsigned int maj, min;
		const char *sep, *fs_opts;
		size_t len;
		bool same;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		sep = strstr(line, " - ");
		if (!sep ||
		    sscanf(line, "%*d %*d %u:%u %*s %4095s %511s", &maj, &min,
			   mnt, opts) != 4 ||
		    sscanf(sep + 3, "%63s %4095s %511s", fstype, source,
			   super) != 3)
			continue;
		unescape(mnt);
		unescape(source);
		len = holds(mnt, path);
		same = makedev(maj, min) == dev;
		if (!len || (best_dev && !same) ||
		    (same == best_dev && len < best_len))
			continue;
		best_len = len;
		best_dev = same;
		/* the mount's options, then the file system's (as findmnt
		   shows them), less the "rw" both begin with */
		fs_opts = strncmp(super, "rw", 2) == 0 ? super + 2 : super;
		fs_opts += *fs_opts == ',';
		snprintf(best, sizeof(best), "%s on %s type %s (%s%s%s)",
			 source, mnt, fstype, opts, *fs_opts ? "," : "",
			 fs_opts);
	}
	free(text);
	fprintf(c->f, "mount: %s\n", best[0] ? best : "(none found)");
}

/* Where a directory lives: mount, block device, space. */
static void where_is(struct ctx *c, const char *dir)
{
	char real[PATH_MAX], sysfs[PATH_MAX];
	struct blockdev bd;
	struct statvfs vfs;
	struct stat st;
	struct err err = {""};

	fprintf(c->f, "%s:\n", dir);
	if (!realpath(dir, real) || stat(real, &st) < 0) {
		fprintf(c->f, "(cannot read: %s)\n", strerror(errno));
		return;
	}
	if (strcmp(real, dir) != 0)
		fprintf(c->f, "real path: %s\n", real);
	show_mount(c, real, st.st_dev);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", c->root);
	if (blockdev_from_dir(sysfs, real, &bd, &err) == 0) {
		fprintf(c->f, "device: %s%s%s kind=%s", bd.part,
			bd.part[0] ? " on " : "", bd.name,
			blockdev_kind_name(bd.kind));
		if (bd.scheduler[0])
			fprintf(c->f, " scheduler=%s", bd.scheduler);
		if (bd.rotational >= 0)
			fprintf(c->f, " rotational=%d", bd.rotational);
		if (bd.dm_name[0])
			fprintf(c->f, " dm_name=%s", bd.dm_name);
		if (bd.slaves[0])
			fprintf(c->f, " slaves=%s", bd.slaves);
		if (bd.loop_backing[0])
			fprintf(c->f, " backing_file=%s", bd.loop_backing);
		if (bd.model[0])
			fprintf(c->f, " model=%s", bd.model);
		fputc('\n', c->f);
	} else {
		fprintf(c->f, "device: (%s)\n", err.msg);
	}
	if (statvfs(real, &vfs) == 0)
		fprintf(c->f, "space: size_kb=%llu avail_kb=%llu\n",
			(unsigned long long)vfs.f_blocks * vfs.f_frsize / 1024,
			(unsigned long long)vfs.f_bavail * vfs.f_frsize / 1024);
}

static void sec_pgdata(struct ctx *c)
{
	char wal[PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (!c->o->pgdata) {
		fprintf(c->f, "(no data directory given)\n");
		return;
	}
	if (stat(c->o->pgdata, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(c->f, "(%s: not a directory here)\n", c->o->pgdata);
		return;
	}
	where_is(c, c->o->pgdata);
	/* pg_wal on another device: initdb --waldir makes it a link */
	snprintf(wal, sizeof(wal), "%s/pg_wal", c->o->pgdata);
	if (lstat(wal, &st) == 0 && S_ISLNK(st.st_mode) && realpath(wal, real))
		where_is(c, real);
}

static void sec_sysctls(struct ctx *c)
{
	char **names, rel[300];
	size_t i, n;

	for (i = 0; fingerprint_sysctls[i]; i++)
		show(c, "/proc/sys", fingerprint_sysctls[i]);
	for (i = 0; extra_sysctls[i]; i++)
		show(c, "/proc/sys", extra_sysctls[i]);
	/* kernel.sched_*, as the fingerprint takes them */
	names = machine_list(c->root, "/proc/sys/kernel", &n);
	for (i = 0; names && i < n; i++)
		if (strncmp(names[i], "sched_", 6) == 0) {
			snprintf(rel, sizeof(rel), "kernel/%s", names[i]);
			show(c, "/proc/sys", rel);
		}
	machine_list_free(names, n);
}

static void sec_cgroups(struct ctx *c)
{
	if (!show_env(c, "version", "cgroup.version"))
		fprintf(c->f, "(no /sys/fs/cgroup)\n");
}

static void sec_thp(struct ctx *c)
{
	show(c, THP_DIR, "enabled");
	show(c, THP_DIR, "defrag");
	show(c, THP_DIR, "shmem_enabled");
	show(c, THP_DIR, "khugepaged/defrag");
}

/* The sections, in the file's order. */
static const struct {
	const char *title;	      /* after "== ", before " ==" */
	void (*write)(struct ctx *c); /* its lines */
} sections[] = {
	{"date", sec_date},
	{"uname", sec_uname},
	{"kernel command line", sec_cmdline},
	{"kernel config", sec_kconfig},
	{"CPU", sec_cpu},
	{"CPU frequency and idle", sec_cpufreq},
	{"CPU vulnerabilities", sec_vulnerabilities},
	{"clocksource", sec_clocksource},
	{"memory", sec_memory},
	{"block devices (queue settings)", sec_block},
	{"PostgreSQL data directory", sec_pgdata},
	{"sysctls", sec_sysctls},
	{"transparent hugepages", sec_thp},
	{"cgroups", sec_cgroups},
};

int sysinfo_text_write(const struct sysinfo_text_opts *o, FILE *f,
		       struct err *err)
{
	struct ctx c = {o, o->root ? o->root : "", f, err, NULL, 0};
	json_t *treatment = json_object();
	size_t i;

	/* the facts the fingerprint derives (virtualization, cgroup
	   version) are taken from it, not derived a second time */
	c.env = json_object();
	if (!treatment || !c.env ||
	    fingerprint_machine(c.root, NULL, treatment, c.env) < 0) {
		json_decref(treatment);
		json_decref(c.env);
		return err_set(err, -ENOMEM, "out of memory");
	}
	json_decref(treatment);
	fprintf(f, "oltpmark sysinfo 1\n");
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		fprintf(f, "\n== %s ==\n", sections[i].title);
		sections[i].write(&c);
	}
	if (fflush(f) != 0 || ferror(f)) {
		if (c.rc == 0)
			c.rc = err_set(err, -EIO, "cannot write: %s",
				       strerror(errno));
	}
	json_decref(c.env);
	return c.rc;
}
