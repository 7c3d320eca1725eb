/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fingerprint.c - the run's fingerprint read from a fixture tree of
 * /proc and /sys (tests/fixtures/fingerprint-vm: a 2-CPU KVM guest with
 * virtio disks vda and vdb, a loop device, THP madvise), from trees
 * built in temporary directories with files missing or malformed (each
 * gives an absent key, never an error), and the workload read from a
 * meta.json as oltpmark run builds it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/fingerprint.h"
#include "tests/unit/fixture_util.h"

/* One key and the value it must have (NULL: absent). */
struct want {
	const char *key;
	const char *value;
};

static void check(const json_t *obj, const struct want *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const json_t *v = json_object_get(obj, w[i].key);

		if (!w[i].value) {
			if (v)
				fail_msg("%s: want absent, got %s", w[i].key,
					 json_string_value(v));
			continue;
		}
		if (!json_is_string(v))
			fail_msg("%s: missing", w[i].key);
		if (strcmp(json_string_value(v), w[i].value) != 0)
			fail_msg("%s: want \"%s\", got \"%s\"", w[i].key,
				 w[i].value, json_string_value(v));
	}
}

static void test_machine_fixture(void **state)
{
	static const struct want treatment[] = {
		{"kernel.release", "6.18.44-custom"},
		{"kernel.version",
		 "#12 SMP PREEMPT_DYNAMIC Tue Nov 24 10:00:00 UTC 2026"},
		{"kernel.cmdline", "BOOT_IMAGE=/vmlinuz-6.18.44-custom "
				   "root=/dev/vda1 ro console=ttyS0"},
		{"vm.dirty_ratio", "20"},
		{"vm.swappiness", "60"},
		{"vm.watermark_scale_factor", NULL}, /* no file */
		{"kernel.numa_balancing", "1"},
		{"kernel.sched_autogroup_enabled", "1"},
		{"kernel.sched_child_runs_first", "0"},
		{"kernel.printk", NULL}, /* not on the list: sys/sysctl.txt */
		{"thp.enabled", "madvise"},
		{"thp.defrag", "madvise"},
		{"thp.shmem_enabled", "never"},
		{"thp.khugepaged_defrag", "1"},
		{"block.vda.scheduler", "mq-deadline"},
		{"block.vdb.scheduler", "mq-deadline"},
		{"block.vdb.nr_requests", "256"},
		{"block.vdb.read_ahead_kb", "128"},
		{"block.vdb.rotational", "0"},
		{"block.vdb.write_cache", "write back"},
		{"block.loop0.scheduler", NULL},
		{"cpufreq.governor", "performance"},
		{"cpufreq.driver", "acpi-cpufreq"},
		{"cpufreq.boost", NULL},
		{"mitigation.meltdown", "Not affected"},
		{"mitigation.spectre_v2", "Mitigation: Enhanced / Automatic "
					  "IBRS; IBPB: conditional; RSB "
					  "filling"},
		{"clocksource", "kvm-clock"},
	};
	static const struct want environment[] = {
		{"cpu.model", "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"},
		{"cpu.online", "2"},
		{"cpu.smt", "1"},
		{"numa.nodes", "1"},
		{"memory.gib", "8"},
		{"virtualization", "QEMU"},
		{"cgroup.version", "2"},
	};
	json_t *t = json_object(), *e = json_object();

	(void)state;
	assert_int_equal(
		fingerprint_machine(fixture_path("fingerprint-vm"), NULL, t, e),
		0);
	check(t, treatment, sizeof(treatment) / sizeof(treatment[0]));
	check(e, environment, sizeof(environment) / sizeof(environment[0]));
	json_decref(t);
	json_decref(e);
}

/* Only the disks asked for, and a name that would leave /sys/block. */
static void test_machine_devices(void **state)
{
	static const char *const devs[] = {"vdb", "../vda", NULL};
	static const struct want treatment[] = {
		{"block.vdb.scheduler", "mq-deadline"},
		{"block.vda.scheduler", NULL},
		{"block.../vda.scheduler", NULL},
	};
	json_t *t = json_object(), *e = json_object();

	(void)state;
	assert_int_equal(
		fingerprint_machine(fixture_path("fingerprint-vm"), devs, t, e),
		0);
	check(t, treatment, sizeof(treatment) / sizeof(treatment[0]));
	json_decref(t);
	json_decref(e);
}

/* No tree at all: nothing recorded, no error. */
static void test_machine_missing_root(void **state)
{
	json_t *t = json_object(), *e = json_object();

	(void)state;
	assert_int_equal(fingerprint_machine("/nonexistent/fingerprint-root",
					     NULL, t, e),
			 0);
	assert_int_equal(json_object_size(t), 0);
	assert_int_equal(json_object_size(e), 0);
	json_decref(t);
	json_decref(e);
}

/* mkdir -p root/rel */
static void mkdirs(const char *root, const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0777);
		*p = '/';
	}
	mkdir(path, 0777);
}

/*
 * A sparse tree: some files, others missing, a directory where a file
 * should be, a malformed CPU list, a bare-metal CPU: each gives an
 * absent key (or "none" for virtualization), never an error.
 */
static void test_machine_sparse(void **state)
{
	static const struct want treatment[] = {
		{"kernel.release", "6.1.0-28-amd64"},
		{"kernel.version", NULL},
		{"vm.dirty_ratio", NULL},
		{"thp.enabled", "never"},
		{"thp.defrag", NULL},
		{"block.sda.scheduler", "none"},
		{"block.sda.nr_requests", NULL},
		{"clocksource", NULL},
	};
	static const struct want environment[] = {
		{"cpu.model", NULL},	    {"cpu.online", NULL},
		{"numa.nodes", NULL},	    {"memory.gib", NULL},
		{"virtualization", "none"}, {"cgroup.version", "1"},
	};
	char root[PATH_MAX];
	json_t *t = json_object(), *e = json_object();

	(void)state;
	assert_non_null(fixture_temp_dir(root, sizeof(root), "fingerprint"));
	mkdirs(root, "proc/sys/kernel");
	mkdirs(root, "proc/sys/vm/dirty_ratio"); /* a directory */
	mkdirs(root, "sys/kernel/mm/transparent_hugepage");
	mkdirs(root, "sys/block/sda/queue");
	mkdirs(root, "sys/devices/system/cpu");
	mkdirs(root, "sys/fs/cgroup");
	fixture_write_file(root, "proc/sys/kernel/osrelease",
			   "6.1.0-28-amd64\n");
	fixture_write_file(root, "proc/cpuinfo",
			   "processor\t: 0\nflags\t\t: fpu vme\n");
	fixture_write_file(root, "sys/kernel/mm/transparent_hugepage/enabled",
			   "always madvise [never]\n");
	fixture_write_file(root, "sys/block/sda/queue/scheduler", "[none]\n");
	fixture_write_file(root, "sys/devices/system/cpu/online", "0-x\n");
	assert_int_equal(fingerprint_machine(root, NULL, t, e), 0);
	check(t, treatment, sizeof(treatment) / sizeof(treatment[0]));
	check(e, environment, sizeof(environment) / sizeof(environment[0]));
	json_decref(t);
	json_decref(e);
	assert_int_equal(fixture_rm_rf(root), 0);
}

/* The workload from meta.json, the database's disks from its layout. */
static void test_add_from_meta(void **state)
{
	static const struct want workload[] = {
		{"oltpmark_version", "0.1.0"},
		{"driver", "pgsql"},
		{"config", "noncached"},
		{"warehouses.loaded", "10"},
		{"warehouses.driven", "10"},
		{"terminals_per_warehouse", "10"},
		{"connections", "4"},
		{"duration_s", "600"},
		{"ramp_up_s", "60"},
		{"keying_think", "tpcc"},
		{"tx_mode", "sql"},
		{"seed_rule", "random"},
		{"design", "blocks"},
		{"block_s", "30"},
		{"layout", "table"},
		{"config.noncached_enforced", "true"},
	};
	static const struct want treatment[] = {
		{"variant", "thp-never"},
		{"block.vdb.scheduler", "mq-deadline"},
		{"block.vda.scheduler", NULL},
		{"kernel.release", "6.18.44-custom"},
	};
	static const struct want environment[] = {
		{"postgresql.version", "15.14"},
		{"postgresql.shared_buffers", "1GB"},
		{"cpu.online", "2"},
	};
	json_error_t jerr;
	json_t *meta = json_loads(
		"{\"oltpmark_version\": \"0.1.0\", \"driver\": \"pgsql\","
		" \"config\": \"noncached\","
		" \"options\": {\"warehouses\": 10, \"duration\": 600,"
		"  \"ramp-up\": 60, \"connections\": 4,"
		"  \"terminals-per-warehouse\": 10, \"keying-think\": \"tpcc\","
		"  \"tx-mode\": \"procedure\"},"
		" \"database\": {\"warehouses\": 10},"
		" \"server\": {\"version\": \"15.14\", \"tx_mode\": \"sql\","
		"  \"settings\": {\"shared_buffers\": \"1GB\"},"
		"  \"layout\": {\"layout\": \"table\", \"tablespaces\": ["
		"   {\"device\": {\"disk\": \"vdb\", \"slaves\": []}}],"
		"   \"wal\": {\"device\": null}}},"
		" \"notes\": {\"design\": \"blocks\", \"block_s\": \"30\","
		"  \"variant\": \"thp-never\", \"noncached_enforced\": true}}",
		0, &jerr);
	const json_t *fp;

	(void)state;
	assert_non_null(meta);
	assert_int_equal(
		fingerprint_add(meta, fixture_path("fingerprint-vm"), "random"),
		0);
	fp = json_object_get(meta, "fingerprint");
	assert_int_equal(json_integer_value(json_object_get(fp, "format")),
			 FINGERPRINT_FORMAT);
	check(json_object_get(fp, "workload"), workload,
	      sizeof(workload) / sizeof(workload[0]));
	check(json_object_get(fp, "treatment"), treatment,
	      sizeof(treatment) / sizeof(treatment[0]));
	check(json_object_get(fp, "environment"), environment,
	      sizeof(environment) / sizeof(environment[0]));
	json_decref(meta);
}

/* A whole run without a layout: design "runs", every disk. */
static void test_add_plain(void **state)
{
	json_t *meta = json_object();
	const json_t *fp;

	(void)state;
	assert_int_equal(
		fingerprint_add(meta, fixture_path("fingerprint-vm"), "fixed"),
		0);
	fp = json_object_get(meta, "fingerprint");
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(fp, "workload"), "design")),
			    "runs");
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(fp, "workload"), "seed_rule")),
		"fixed");
	assert_non_null(json_object_get(json_object_get(fp, "treatment"),
					"block.vda.scheduler"));
	json_decref(meta);
}

/*
 * Check the workload key key of the fingerprint fingerprint_add() makes
 * for a meta whose member member is the JSON text value (NULL: no such
 * member): want, or no key at all when want is NULL.
 */
static void check_workload_key(const char *member, const char *value,
			       const char *key, const char *want)
{
	json_t *meta = json_object();
	const json_t *w;

	if (value)
		json_object_set_new(meta, member, json_loads(value, 0, NULL));
	assert_int_equal(
		fingerprint_add(meta, fixture_path("fingerprint-vm"), "fixed"),
		0);
	w = json_object_get(json_object_get(meta, "fingerprint"), "workload");
	if (want)
		assert_string_equal(json_string_value(json_object_get(w, key)),
				    want);
	else
		assert_null(json_object_get(w, key));
	json_decref(meta);
}

/*
 * The terminals' host (run/oltpmark-run --sut): a workload key when
 * another host; none on the kernel under test, as before the key.
 */
static void test_add_terminals(void **state)
{
	(void)state;
	check_workload_key("notes", "{\"terminals\": \"other-host\"}",
			   "terminals", "other-host");
	check_workload_key("notes", "{\"terminals\": \"same-host\"}",
			   "terminals", NULL);
	check_workload_key("notes", "{}", "terminals", NULL);
}

/*
 * The transport: "tcp" when the driver recorded a host (server.host),
 * none over the unix socket (server.unix_socket) or without a server.
 */
static void test_add_transport(void **state)
{
	(void)state;
	check_workload_key("server",
			   "{\"host\": \"127.0.0.1\", \"port\": 5432}",
			   "transport", "tcp");
	check_workload_key("server",
			   "{\"unix_socket\": \"/tmp/s\", \"port\": 5432}",
			   "transport", NULL);
	check_workload_key("server", NULL, "transport", NULL);
}

static void test_sysctl_all(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char *k, *v;

	(void)state;
	assert_non_null(f);
	assert_int_equal(
		fingerprint_sysctl_all(fixture_path("fingerprint-vm"), f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "vm.dirty_ratio = 20\n"));
	assert_non_null(strstr(buf, "kernel.printk = 4\t4\t1\t7\n"));
	assert_non_null(strstr(buf, "kernel.random.poolsize = 4096\n"));
	/* sorted: kernel.* before vm.* */
	k = strstr(buf, "kernel.osrelease = ");
	v = strstr(buf, "vm.swappiness = 60\n");
	assert_non_null(k);
	assert_non_null(v);
	assert_true(k < v);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine_fixture),
		cmocka_unit_test(test_machine_devices),
		cmocka_unit_test(test_machine_missing_root),
		cmocka_unit_test(test_machine_sparse),
		cmocka_unit_test(test_add_from_meta),
		cmocka_unit_test(test_add_plain),
		cmocka_unit_test(test_add_terminals),
		cmocka_unit_test(test_add_transport),
		cmocka_unit_test(test_sysctl_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
