/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fingerprint.c - the run's fingerprint (see fingerprint.h): flat string
 * keys, so that compare can check and print any of them the same way.
 * Every value is a string; a number is written as its decimal text.
 */
#include "src/base/fingerprint.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/machine.h"

const char *const fingerprint_sysctls[] = {
	"vm/dirty_ratio",
	"vm/dirty_background_ratio",
	"vm/dirty_bytes",
	"vm/dirty_background_bytes",
	"vm/dirty_expire_centisecs",
	"vm/dirty_writeback_centisecs",
	"vm/swappiness",
	"vm/overcommit_memory",
	"vm/overcommit_ratio",
	"vm/zone_reclaim_mode",
	"vm/min_free_kbytes",
	"vm/vfs_cache_pressure",
	"vm/nr_hugepages",
	"vm/watermark_scale_factor",
	"kernel/numa_balancing",
	"kernel/nmi_watchdog",
	"kernel/timer_migration",
	NULL,
};

const char *const fingerprint_queue_attrs[] = {
	"scheduler",  "nr_requests", "read_ahead_kb",
	"rotational", "write_cache", NULL,
};

/* obj[key] = value; returns -ENOMEM when jansson could not. */
static int put(json_t *obj, const char *key, const char *value)
{
	return json_object_set_new(obj, key, json_string(value)) < 0 ? -ENOMEM
								     : 0;
}

/* Set key from root/path when it can be read. */
static int put_file(json_t *obj, const char *key, const char *root,
		    const char *path)
{
	char buf[4096];

	if (!machine_read(root, path, buf, sizeof(buf)))
		return 0;
	return put(obj, key, buf);
}

/* Set key from the bracketed choice of root/path. */
static int put_choice(json_t *obj, const char *key, const char *root,
		      const char *path)
{
	char buf[1024];

	if (!machine_read(root, path, buf, sizeof(buf)))
		return 0;
	machine_choice(buf);
	return put(obj, key, buf);
}

/* Set key to the count of the sysfs list in root/path. */
static int put_count(json_t *obj, const char *key, const char *root,
		     const char *path)
{
	char buf[1024], num[32];
	long n;

	if (!machine_read(root, path, buf, sizeof(buf)))
		return 0;
	n = machine_count_list(buf);
	if (n < 0)
		return 0;
	snprintf(num, sizeof(num), "%ld", n);
	return put(obj, key, num);
}

static int add_sysctls(const char *root, json_t *t)
{
	char path[PATH_MAX], key[256], **names;
	size_t i, n;
	int rc = 0;

	for (i = 0; fingerprint_sysctls[i] && rc == 0; i++) {
		snprintf(path, sizeof(path), "/proc/sys/%s",
			 fingerprint_sysctls[i]);
		snprintf(key, sizeof(key), "%s", fingerprint_sysctls[i]);
		machine_dotted(key);
		rc = put_file(t, key, root, path);
	}
	/* kernel.sched_*: the scheduler's tunables, whichever this kernel
	   has (most moved to debugfs in 5.13) */
	names = machine_list(root, "/proc/sys/kernel", &n);
	for (i = 0; names && i < n && rc == 0; i++) {
		if (strncmp(names[i], "sched_", 6) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", names[i]);
		snprintf(key, sizeof(key), "kernel.%s", names[i]);
		rc = put_file(t, key, root, path);
	}
	machine_list_free(names, n);
	return rc;
}

static int add_thp(const char *root, json_t *t)
{
	static const char *const base = "/sys/kernel/mm/transparent_hugepage";
	char path[PATH_MAX];
	int rc;

	snprintf(path, sizeof(path), "%s/enabled", base);
	rc = put_choice(t, "thp.enabled", root, path);
	snprintf(path, sizeof(path), "%s/defrag", base);
	if (rc == 0)
		rc = put_choice(t, "thp.defrag", root, path);
	snprintf(path, sizeof(path), "%s/shmem_enabled", base);
	if (rc == 0)
		rc = put_choice(t, "thp.shmem_enabled", root, path);
	snprintf(path, sizeof(path), "%s/khugepaged/defrag", base);
	if (rc == 0)
		rc = put_file(t, "thp.khugepaged_defrag", root, path);
	return rc;
}

static int add_disk(const char *root, const char *dev, json_t *t)
{
	char path[PATH_MAX], key[256], buf[1024];
	size_t i;
	int rc = 0;

	/* a name from meta.json must not walk out of /sys/block */
	if (!dev[0] || strchr(dev, '/') || dev[0] == '.')
		return 0;
	for (i = 0; fingerprint_queue_attrs[i] && rc == 0; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", dev,
			 fingerprint_queue_attrs[i]);
		snprintf(key, sizeof(key), "block.%s.%s", dev,
			 fingerprint_queue_attrs[i]);
		if (!machine_read(root, path, buf, sizeof(buf)))
			continue;
		machine_choice(buf);
		rc = put(t, key, buf);
	}
	return rc;
}

static int add_disks(const char *root, const char *const *devs, json_t *t)
{
	char **names;
	size_t i, n;
	int rc = 0;

	if (devs) {
		for (i = 0; devs[i] && rc == 0; i++)
			rc = add_disk(root, devs[i], t);
		return rc;
	}
	names = machine_list(root, "/sys/block", &n);
	for (i = 0; names && i < n && rc == 0; i++)
		if (!machine_disk_skipped(names[i]))
			rc = add_disk(root, names[i], t);
	machine_list_free(names, n);
	return rc;
}

/*
 * The distinct values of cpuN/cpufreq/ATTR over the CPUs, sorted, joined
 * by ",": one value on a machine set up as usual.
 */
static int add_cpufreq_attr(const char *root, const char *attr, const char *key,
			    json_t *t)
{
	char **names, path[PATH_MAX], buf[256], joined[1024] = "";
	char *seen[64];
	size_t i, j, n, nseen = 0;
	int rc = 0;

	names = machine_list(root, "/sys/devices/system/cpu", &n);
	for (i = 0; names && i < n; i++) {
		if (!machine_is_cpu(names[i]))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/%s/cpufreq/%s", names[i],
			 attr);
		if (!machine_read(root, path, buf, sizeof(buf)))
			continue;
		for (j = 0; j < nseen && strcmp(seen[j], buf) != 0; j++)
			;
		if (j == nseen && nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = strdup(buf);
	}
	machine_list_free(names, n);
	/* a small insertion sort: few distinct values */
	for (i = 1; i < nseen; i++)
		for (j = i; j > 0 && seen[j] && seen[j - 1] &&
			    strcmp(seen[j - 1], seen[j]) > 0;
		     j--) {
			char *tmp = seen[j];

			seen[j] = seen[j - 1];
			seen[j - 1] = tmp;
		}
	for (i = 0; i < nseen; i++) {
		if (seen[i]) {
			size_t len = strlen(joined);

			snprintf(joined + len, sizeof(joined) - len, "%s%s",
				 len ? "," : "", seen[i]);
		}
		free(seen[i]);
	}
	if (nseen)
		rc = put(t, key, joined);
	return rc;
}

static int add_cpu_settings(const char *root, json_t *t)
{
	char **names, path[PATH_MAX], key[256];
	size_t i, n;
	int rc;

	rc = add_cpufreq_attr(root, "scaling_governor", "cpufreq.governor", t);
	if (rc == 0)
		rc = add_cpufreq_attr(root, "scaling_driver", "cpufreq.driver",
				      t);
	if (rc == 0)
		rc = add_cpufreq_attr(root, "energy_performance_preference",
				      "cpufreq.epp", t);
	if (rc == 0)
		rc = put_file(t, "cpufreq.boost", root,
			      "/sys/devices/system/cpu/cpufreq/boost");
	if (rc == 0)
		rc = put_file(t, "cpufreq.no_turbo", root,
			      "/sys/devices/system/cpu/intel_pstate/no_turbo");
	if (rc == 0)
		rc = put_file(t, "cpuidle.governor", root,
			      "/sys/devices/system/cpu/cpuidle/"
			      "current_governor");
	names = machine_list(root, "/sys/devices/system/cpu/vulnerabilities",
			     &n);
	for (i = 0; names && i < n && rc == 0; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/vulnerabilities/%s",
			 names[i]);
		snprintf(key, sizeof(key), "mitigation.%s", names[i]);
		rc = put_file(t, key, root, path);
	}
	machine_list_free(names, n);
	if (rc == 0)
		rc = put_file(t, "clocksource", root,
			      "/sys/devices/system/clocksource/clocksource0/"
			      "current_clocksource");
	return rc;
}

static int add_kernel(const char *root, json_t *t)
{
	int rc;

	rc = put_file(t, "kernel.release", root, "/proc/sys/kernel/osrelease");
	if (rc == 0)
		rc = put_file(t, "kernel.version", root,
			      "/proc/sys/kernel/version");
	if (rc == 0)
		rc = put_file(t, "kernel.proc_version", root, "/proc/version");
	if (rc == 0)
		rc = put_file(t, "kernel.cmdline", root, "/proc/cmdline");
	return rc;
}

/* hypervisor name, "none" on bare metal; absent when cpuinfo is missing */
static int add_virtualization(const char *root, json_t *e)
{
	char flags[4096], buf[256];

	if (machine_read(root, "/sys/hypervisor/type", buf, sizeof(buf)) &&
	    buf[0])
		return put(e, "virtualization", buf);
	if (!machine_field(root, "/proc/cpuinfo", "flags", flags,
			   sizeof(flags)))
		return 0;
	if (!strstr(flags, " hypervisor"))
		return put(e, "virtualization", "none");
	if (machine_read(root, "/sys/class/dmi/id/sys_vendor", buf,
			 sizeof(buf)) &&
	    buf[0])
		return put(e, "virtualization", buf);
	return put(e, "virtualization", "yes");
}

static int add_environment(const char *root, json_t *e)
{
	char buf[1024], num[32];
	struct stat st;
	int rc = 0;

	/* x86 says "model name"; arm64 has no name, only part numbers */
	if (machine_field(root, "/proc/cpuinfo", "model name", buf,
			  sizeof(buf)) ||
	    machine_field(root, "/proc/cpuinfo", "Model", buf, sizeof(buf)) ||
	    machine_field(root, "/proc/cpuinfo", "cpu model", buf, sizeof(buf)))
		rc = put(e, "cpu.model", buf);
	if (rc == 0)
		rc = put_count(e, "cpu.online", root,
			       "/sys/devices/system/cpu/online");
	if (rc == 0)
		rc = put_file(e, "cpu.smt", root,
			      "/sys/devices/system/cpu/smt/active");
	if (rc == 0)
		rc = put_count(e, "numa.nodes", root,
			       "/sys/devices/system/node/online");
	/* whole GiB: MemTotal moves by megabytes between two kernels (what
	   each reserves), which is the treatment's doing, not the machine */
	if (rc == 0 && machine_field(root, "/proc/meminfo", "MemTotal", buf,
				     sizeof(buf))) {
		double gib = strtod(buf, NULL) / (1024.0 * 1024.0);

		snprintf(num, sizeof(num), "%.0f", gib < 1 ? 1 : round(gib));
		rc = put(e, "memory.gib", num);
	}
	if (rc == 0)
		rc = add_virtualization(root, e);
	if (rc == 0) {
		char full[PATH_MAX];

		snprintf(full, sizeof(full),
			 "%s/sys/fs/cgroup/cgroup.controllers", root);
		if (stat(full, &st) == 0) {
			rc = put(e, "cgroup.version", "2");
		} else {
			snprintf(full, sizeof(full), "%s/sys/fs/cgroup", root);
			if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
				rc = put(e, "cgroup.version", "1");
		}
	}
	return rc;
}

int fingerprint_machine(const char *root, const char *const *devs,
			json_t *treatment, json_t *environment)
{
	int rc;

	if (!root)
		root = "";
	rc = add_kernel(root, treatment);
	if (rc == 0)
		rc = add_sysctls(root, treatment);
	if (rc == 0)
		rc = add_thp(root, treatment);
	if (rc == 0)
		rc = add_disks(root, devs, treatment);
	if (rc == 0)
		rc = add_cpu_settings(root, treatment);
	if (rc == 0)
		rc = add_environment(root, environment);
	return rc;
}

/* A JSON scalar as text into buf; false for null, objects and arrays. */
static bool scalar_text(const json_t *v, char *buf, size_t size)
{
	if (json_is_string(v))
		snprintf(buf, size, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, size, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, size, "%s", json_is_true(v) ? "true" : "false");
	else
		return false;
	return true;
}

/* obj[key] = the scalar at v, when there is one. */
static int put_json(json_t *obj, const char *key, const json_t *v)
{
	char buf[4096];

	if (!v || !scalar_text(v, buf, sizeof(buf)))
		return 0;
	return put(obj, key, buf);
}

/* Where each key of the workload comes from in meta.json. */
static const struct {
	const char *key;    /* workload key */
	const char *object; /* member of meta holding it, NULL: meta itself */
	const char *member; /* its name there */
} workload_src[] = {
	{"oltpmark_version", NULL, "oltpmark_version"},
	{"driver", NULL, "driver"},
	{"config", NULL, "config"},
	{"warehouses.loaded", "database", "warehouses"},
	{"warehouses.driven", "options", "warehouses"},
	{"terminals_per_warehouse", "options", "terminals-per-warehouse"},
	{"connections", "options", "connections"},
	{"duration_s", "options", "duration"},
	{"ramp_up_s", "options", "ramp-up"},
	{"keying_think", "options", "keying-think"},
	{"tx_mode", "options", "tx-mode"},
	{"io_mode", "options", "io-mode"},
	{"block_s", "notes", "block_s"},
	{"settle_s", "notes", "settle_s"},
	{"config.db_state", "notes", "db_state"},
	{"config.noncached_enforced", "notes", "noncached_enforced"},
	{"config.noncached_memory_limit_bytes", "notes",
	 "noncached_memory_limit_bytes"},
	{"config.page_cache_dropped", "notes", "page_cache_dropped"},
};

static int add_workload(const json_t *meta, const char *seed_rule, json_t *w)
{
	const json_t *notes = json_object_get(meta, "notes"),
		     *server = json_object_get(meta, "server"), *v;
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(workload_src) / sizeof(workload_src[0]) && !rc;
	     i++) {
		const json_t *from =
			workload_src[i].object
				? json_object_get(meta, workload_src[i].object)
				: meta;

		rc = put_json(w, workload_src[i].key,
			      json_object_get(from, workload_src[i].member));
	}
	/* iosim has no tx-mode of its own: drop the option's default */
	if (rc == 0 && server && json_object_get(server, "tx_mode"))
		rc = put_json(w, "tx_mode", json_object_get(server, "tx_mode"));
	if (rc == 0 && seed_rule)
		rc = put(w, "seed_rule", seed_rule);
	v = json_object_get(notes, "design");
	if (rc == 0)
		rc = v ? put_json(w, "design", v) : put(w, "design", "runs");
	/*
	 * The terminals' host: on another one (run/oltpmark-run --sut)
	 * their CPU is not the SUT's, so the server gets all of its own.
	 * Absent is the kernel under test, as every run before the key.
	 */
	v = json_object_get(notes, "terminals");
	if (rc == 0 && v &&
	    !(json_is_string(v) &&
	      strcmp(json_string_value(v), "same-host") == 0))
		rc = put_json(w, "terminals", v);
	/*
	 * How the terminals reached the server: over TCP they spend about
	 * 13 % more CPU per transaction than over the unix socket, and on a
	 * host shared with the server that is NOTPM lost (docs/experiments.md,
	 * "Measured: does the SUT apart change the figures?"). Absent is
	 * the unix socket (every run before the key) or no server at all.
	 */
	if (rc == 0 && json_is_string(json_object_get(server, "host")))
		rc = put(w, "transport", "tcp");
	v = json_object_get(json_object_get(server, "layout"), "layout");
	if (rc == 0)
		rc = put_json(w, "layout", v);
	return rc;
}

static int add_server(const json_t *meta, json_t *e)
{
	const json_t *server = json_object_get(meta, "server"), *v;
	const char *name;
	char key[256];
	int rc;

	rc = put_json(e, "postgresql.version",
		      json_object_get(server, "version"));
	json_object_foreach((json_t *)json_object_get(server, "settings"), name,
			    v)
	{
		if (rc < 0)
			break;
		snprintf(key, sizeof(key), "postgresql.%s", name);
		rc = put_json(e, key, v);
	}
	return rc;
}

/* Append name to the NULL-terminated list devs (cap 32), once. */
static void add_dev(const char **devs, size_t *n, const json_t *v)
{
	const char *s = json_string_value(v);
	size_t i;

	if (!s || *n + 1 >= 32)
		return;
	for (i = 0; i < *n; i++)
		if (strcmp(devs[i], s) == 0)
			return;
	devs[(*n)++] = s;
	devs[*n] = NULL;
}

/* The disks (and what a dm or md device sits on) of one device object. */
static void add_device(const char **devs, size_t *n, const json_t *dev)
{
	const json_t *s;
	size_t i;

	add_dev(devs, n, json_object_get(dev, "disk"));
	json_array_foreach(json_object_get(dev, "slaves"), i, s)
		add_dev(devs, n, s);
}

/* Copy the string members of from (a document's group) into to. */
static int copy_strings(const json_t *from, json_t *to)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)from, key, v)
	{
		if (json_is_string(v) && put(to, key, json_string_value(v)) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * fingerprint_add() and fingerprint_add_doc(): the machine keys from the
 * machine under root, or, when doc is not NULL, from its treatment and
 * environment (read on the system under test, with its own disks).
 */
static int assemble(json_t *meta, const char *root, const json_t *doc,
		    const char *seed_rule)
{
	json_t *fp = json_object(), *w = json_object(), *t = json_object(),
	       *e = json_object();
	const json_t *layout = json_object_get(json_object_get(meta, "server"),
					       "layout"),
		     *ts;
	const char *devs[32] = {NULL};
	size_t i, ndevs = 0;
	int rc = -ENOMEM;

	if (!fp || !w || !t || !e)
		goto fail;
	json_array_foreach(json_object_get(layout, "tablespaces"), i, ts)
		add_device(devs, &ndevs, json_object_get(ts, "device"));
	add_device(devs, &ndevs,
		   json_object_get(json_object_get(layout, "data_directory"),
				   "device"));
	add_device(devs, &ndevs,
		   json_object_get(json_object_get(layout, "wal"), "device"));
	rc = add_workload(meta, seed_rule, w);
	if (rc == 0 && doc) {
		rc = copy_strings(json_object_get(doc, "treatment"), t);
		if (rc == 0)
			rc = copy_strings(json_object_get(doc, "environment"),
					  e);
	} else if (rc == 0) {
		rc = fingerprint_machine(root, ndevs ? devs : NULL, t, e);
	}
	if (rc == 0)
		rc = put_json(t, "variant",
			      json_object_get(json_object_get(meta, "notes"),
					      "variant"));
	if (rc == 0)
		rc = add_server(meta, e);
	if (rc < 0)
		goto fail;
	json_object_set_new(fp, "format", json_integer(FINGERPRINT_FORMAT));
	json_object_set_new(fp, "workload", w);
	json_object_set_new(fp, "treatment", t);
	json_object_set_new(fp, "environment", e);
	return json_object_set_new(meta, "fingerprint", fp) < 0 ? -ENOMEM : 0;
fail:
	json_decref(fp);
	json_decref(w);
	json_decref(t);
	json_decref(e);
	return rc;
}

int fingerprint_add(json_t *meta, const char *root, const char *seed_rule)
{
	return assemble(meta, root, NULL, seed_rule);
}

int fingerprint_add_doc(json_t *meta, const json_t *doc, const char *seed_rule)
{
	return assemble(meta, "", doc, seed_rule);
}

/* Walk root/proc/sys/rel, writing each readable file. */
static int dump_dir(const char *root, const char *rel, FILE *f, int depth)
{
	char **names, path[PATH_MAX], full[PATH_MAX], buf[8192];
	size_t i, n;
	int rc = 0;

	if (depth > 16)
		return 0;
	snprintf(path, sizeof(path), "/proc/sys%s", rel);
	names = machine_list(root, path, &n);
	for (i = 0; names && i < n && rc == 0; i++) {
		char sub[1024];
		struct stat st;

		if (snprintf(sub, sizeof(sub), "%s/%s", rel, names[i]) >=
		    (int)sizeof(sub))
			continue;
		if (snprintf(full, sizeof(full), "%s/proc/sys%s", root, sub) >=
			    (int)sizeof(full) ||
		    lstat(full, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = dump_dir(root, sub, f, depth + 1);
			continue;
		}
		/* write-only entries (vm.drop_caches) are never read */
		if (!S_ISREG(st.st_mode) || !(st.st_mode & 0444))
			continue;
		snprintf(path, sizeof(path), "/proc/sys%s", sub);
		if (!machine_read(root, path, buf, sizeof(buf)))
			continue;
		machine_dotted(sub);
		if (fprintf(f, "%s = %s\n", sub + 1, buf) < 0)
			rc = -EIO;
	}
	machine_list_free(names, n);
	return rc;
}

int fingerprint_sysctl_all(const char *root, FILE *f)
{
	int rc = dump_dir(root ? root : "", "", f, 0);

	if (rc == 0 && ferror(f))
		rc = -EIO;
	return rc;
}
