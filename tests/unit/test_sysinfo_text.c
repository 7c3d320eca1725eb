/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sysinfo_text.c - sysinfo.txt's machine sections read from the
 * fixture tree tests/fixtures/fingerprint-vm (a 2-CPU KVM guest): the
 * values are the fixture's, not this machine's, and every key of the
 * fingerprint taken from the same tree shows up in the text with the
 * same value (one reader of /proc and /sys for both). The kernel config
 * from /boot and from /proc/config.gz of trees built in a temporary
 * directory, and the note when there is none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "src/base/fingerprint.h"
#include "src/base/machine.h"
#include "src/base/sysinfo_text.h"
#include "tests/unit/fixture_util.h"

/* sysinfo_text_write() of o, as a string (caller frees). */
static char *text_of(const struct sysinfo_text_opts *o)
{
	struct err err = {""};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (sysinfo_text_write(o, f, &err) != 0)
		fail_msg("sysinfo_text_write: %s", err.msg);
	fclose(f);
	return buf;
}

/* The line of text that is exactly line, or starts with it when prefix. */
static const char *find_line(const char *text, const char *line, bool prefix)
{
	size_t len = strlen(line);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, line, len) == 0 &&
		    (prefix || p[len] == '\n' || p[len] == '\0'))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The first line of the section titled title, copied into buf. */
static const char *section_line(const char *text, const char *title, int nth,
				char *buf, size_t size)
{
	char head[128];
	const char *p;

	snprintf(head, sizeof(head), "== %s ==", title);
	p = find_line(text, head, false);
	if (!p)
		fail_msg("no section %s", head);
	p = strchr(p, '\n') + 1;
	while (nth-- > 0 && p)
		p = strchr(p, '\n') + 1;
	snprintf(buf, size, "%.*s", (int)strcspn(p, "\n"), p);
	return buf;
}

static void want_line(const char *text, const char *line)
{
	if (!find_line(text, line, false))
		fail_msg("no line \"%s\" in:\n%s", line, text);
}

static void test_fixture_values(void **state)
{
	struct sysinfo_text_opts o = {.root = fixture_path("fingerprint-vm")};
	char *text, buf[1024];
	struct utsname u;

	(void)state;
	text = text_of(&o);
	assert_true(strncmp(text, "oltpmark sysinfo 1\n", 19) == 0);
	want_line(text, "6.18.44-custom #12 SMP PREEMPT_DYNAMIC Tue Nov 24 "
			"10:00:00 UTC 2026");
	want_line(text, "BOOT_IMAGE=/vmlinuz-6.18.44-custom root=/dev/vda1 "
			"ro console=ttyS0");
	want_line(text, "(not readable: no /proc/config.gz, no "
			"/boot/config-6.18.44-custom)");
	want_line(text, "model: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");
	want_line(text, "logical CPUs: 2");
	want_line(text, "virtualization: QEMU");
	want_line(text, "cpu0 scaling_driver=acpi-cpufreq "
			"scaling_governor=performance");
	want_line(text, "meltdown = Not affected");
	want_line(text, "current_clocksource = kvm-clock");
	want_line(text, "MemTotal:        8136820 kB");
	want_line(text,
		  "vdb scheduler=none [mq-deadline] nr_requests=256 "
		  "read_ahead_kb=128 rotational=0 write_cache=write back");
	assert_null(find_line(text, "loop0", true));
	want_line(text, "(no data directory given)");
	want_line(text, "vm.dirty_ratio = 20");
	want_line(text, "kernel.sched_autogroup_enabled = 1");
	want_line(text, "enabled = always [madvise] never");
	want_line(text, "khugepaged.defrag = 1");
	want_line(text, "version: 2");
	/* none of it from this machine */
	assert_int_equal(uname(&u), 0);
	if (strcmp(u.release, "6.18.44-custom") != 0)
		assert_null(strstr(text, u.release));
	assert_string_equal(section_line(text, "uname", 0, buf, sizeof(buf)),
			    "6.18.44-custom #12 SMP PREEMPT_DYNAMIC Tue Nov 24 "
			    "10:00:00 UTC 2026");
	free(text);
}

/*
 * The text has key's fingerprint value v: "label = v" (label the key as
 * sysinfo.txt names it), or, in the line starting with line_start,
 * " attr=v" or a bracketed "[v]" after " attr=".
 */
static void want_attr(const char *text, const char *line_start,
		      const char *attr, const char *v)
{
	char needle[512];
	const char *line = find_line(text, line_start, true), *p, *end;

	if (!line)
		fail_msg("no line starting \"%s\"", line_start);
	end = strchr(line, '\n');
	snprintf(needle, sizeof(needle), " %s=", attr);
	p = strstr(line, needle);
	if (!p || p > end)
		fail_msg("%s: no %s", line_start, needle);
	p += strlen(needle);
	if (strncmp(p, v, strlen(v)) == 0 &&
	    (p[strlen(v)] == ' ' || p[strlen(v)] == '\n'))
		return;
	snprintf(needle, sizeof(needle), "[%s]", v);
	p = strstr(p, needle);
	if (!p || p > end)
		fail_msg("%s: %s is not %s", line_start, attr, v);
}

/* For each value of a "a,b" list, some CPU line has attr=value. */
static void want_cpus(const char *text, const char *attr, const char *list)
{
	char copy[512], needle[600], *v, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (v = strtok_r(copy, ",", &save); v;
	     v = strtok_r(NULL, ",", &save)) {
		snprintf(needle, sizeof(needle), " %s=%s", attr, v);
		if (!strstr(text, needle))
			fail_msg("no CPU with%s", needle);
	}
}

/* Where sysinfo.txt holds the fingerprint key k of value v. */
static void want_key(const char *text, const char *k, const char *v)
{
	char line[1024], buf[1024];

	if (strcmp(k, "kernel.release") == 0 ||
	    strcmp(k, "kernel.version") == 0) {
		if (!strstr(section_line(text, "uname", 0, buf, sizeof(buf)),
			    v))
			fail_msg("%s: uname line lacks %s", k, v);
	} else if (strcmp(k, "kernel.proc_version") == 0) {
		assert_string_equal(
			section_line(text, "uname", 1, buf, sizeof(buf)), v);
	} else if (strcmp(k, "kernel.cmdline") == 0) {
		assert_string_equal(section_line(text, "kernel command line", 0,
						 buf, sizeof(buf)),
				    v);
	} else if (strncmp(k, "vm.", 3) == 0 || strncmp(k, "kernel.", 7) == 0) {
		snprintf(line, sizeof(line), "%s = %s", k, v);
		want_line(text, line);
	} else if (strcmp(k, "thp.khugepaged_defrag") == 0) {
		snprintf(line, sizeof(line), "khugepaged.defrag = %s", v);
		want_line(text, line);
	} else if (strncmp(k, "thp.", 4) == 0) {
		const char *p;

		snprintf(line, sizeof(line), "%s = ", k + 4);
		p = find_line(text, line, true);
		if (!p)
			fail_msg("%s: no line %s", k, line);
		snprintf(buf, sizeof(buf), "%.*s",
			 (int)strcspn(p + strlen(line), "\n"),
			 p + strlen(line));
		machine_choice(buf);
		assert_string_equal(buf, v);
	} else if (strncmp(k, "block.", 6) == 0) {
		const char *dot = strchr(k + 6, '.');

		assert_non_null(dot);
		snprintf(line, sizeof(line), "%.*s ", (int)(dot - k - 6),
			 k + 6);
		want_attr(text, line, dot + 1, v);
	} else if (strcmp(k, "cpufreq.governor") == 0) {
		want_cpus(text, "scaling_governor", v);
	} else if (strcmp(k, "cpufreq.driver") == 0) {
		want_cpus(text, "scaling_driver", v);
	} else if (strcmp(k, "cpufreq.epp") == 0) {
		want_cpus(text, "energy_performance_preference", v);
	} else if (strcmp(k, "cpufreq.no_turbo") == 0) {
		snprintf(line, sizeof(line), "intel_pstate.no_turbo = %s", v);
		want_line(text, line);
	} else if (strcmp(k, "cpuidle.governor") == 0) {
		snprintf(line, sizeof(line), "cpuidle.current_governor = %s",
			 v);
		want_line(text, line);
	} else if (strcmp(k, "cpufreq.boost") == 0) {
		snprintf(line, sizeof(line), "cpufreq.boost = %s", v);
		want_line(text, line);
	} else if (strncmp(k, "mitigation.", 11) == 0) {
		snprintf(line, sizeof(line), "%s = %s", k + 11, v);
		want_line(text, line);
	} else if (strcmp(k, "clocksource") == 0) {
		snprintf(line, sizeof(line), "current_clocksource = %s", v);
		want_line(text, line);
	} else if (strcmp(k, "cpu.model") == 0) {
		snprintf(line, sizeof(line), "model: %s", v);
		want_line(text, line);
	} else if (strcmp(k, "cpu.online") == 0) {
		const char *p = find_line(text, "online: ", true);

		assert_non_null(p);
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(p + 8, "\n"),
			 p + 8);
		assert_int_equal(machine_count_list(buf), atol(v));
	} else if (strcmp(k, "numa.nodes") == 0) {
		const char *p = find_line(text, "NUMA nodes online: ", true);

		assert_non_null(p);
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(p + 19, "\n"),
			 p + 19);
		assert_int_equal(machine_count_list(buf), atol(v));
	} else if (strcmp(k, "cpu.smt") == 0) {
		snprintf(line, sizeof(line), "SMT active: %s", v);
		want_line(text, line);
	} else if (strcmp(k, "memory.gib") == 0) {
		const char *p = find_line(text, "MemTotal:", true);

		assert_non_null(p);
		assert_int_equal(
			(long)(strtod(p + 9, NULL) / (1024.0 * 1024) + 0.5),
			atol(v));
	} else if (strcmp(k, "virtualization") == 0) {
		snprintf(line, sizeof(line), "virtualization: %s", v);
		want_line(text, line);
	} else if (strcmp(k, "cgroup.version") == 0) {
		snprintf(line, sizeof(line), "version: %s", v);
		want_line(text, line);
	} else {
		/* a new fingerprint key: show it in sysinfo.txt too */
		fail_msg("fingerprint key %s is not in sysinfo.txt", k);
	}
}

/* Every machine key of the fingerprint, with its value, in the text. */
static void test_agrees_with_fingerprint(void **state)
{
	struct sysinfo_text_opts o = {.root = fixture_path("fingerprint-vm")};
	json_t *t = json_object(), *e = json_object(), *v;
	const char *k;
	char *text;

	(void)state;
	assert_int_equal(fingerprint_machine(o.root, NULL, t, e), 0);
	/* the fixture has something of each kind */
	assert_true(json_object_size(t) > 30);
	assert_true(json_object_size(e) >= 7);
	text = text_of(&o);
	json_object_foreach(t, k, v) want_key(text, k, json_string_value(v));
	json_object_foreach(e, k, v) want_key(text, k, json_string_value(v));
	free(text);
	json_decref(t);
	json_decref(e);
}

/* A temporary tree with osrelease and a config in /boot. */
static void make_tree(char *root, size_t size)
{
	char path[PATH_MAX + 64];

	assert_non_null(fixture_temp_dir(root, size, "test_sysinfo_text"));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/sys", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel", root);
	assert_int_equal(mkdir(path, 0755), 0);
	fixture_write_file(path, "osrelease", "6.1.0-test\n");
	snprintf(path, sizeof(path), "%s/boot", root);
	assert_int_equal(mkdir(path, 0755), 0);
	fixture_write_file(path, "config-6.1.0-test",
			   "# comment\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n"
			   "CONFIG_EXT4_FS=y\n# CONFIG_LOCK_STAT is not set\n"
			   "CONFIG_MQ_IOSCHED_DEADLINE=y\n");
}

static void test_kernel_config_boot(void **state)
{
	char root[PATH_MAX], out[PATH_MAX + 64], *text, *whole;
	struct sysinfo_text_opts o = {0};

	(void)state;
	make_tree(root, sizeof(root));
	snprintf(out, sizeof(out), "%s/kernel-config.txt", root);
	o.root = root;
	o.kernel_config = out;
	text = text_of(&o);
	want_line(text, "source: /boot/config-6.1.0-test (whole file: "
			"kernel-config.txt)");
	want_line(text, "CONFIG_HZ_250=y");
	want_line(text, "CONFIG_HZ=250");
	want_line(text, "# CONFIG_LOCK_STAT is not set");
	want_line(text, "CONFIG_MQ_IOSCHED_DEADLINE=y");
	assert_null(strstr(text, "CONFIG_EXT4_FS"));
	whole = fixture_read_file(out, NULL);
	assert_non_null(strstr(whole, "CONFIG_EXT4_FS=y\n"));
	free(whole);
	free(text);

	/* config.gz comes first, through gzip */
	if (system("command -v gzip >/dev/null 2>&1") == 0) {
		char cmd[3 * PATH_MAX];

		snprintf(cmd, sizeof(cmd),
			 "printf 'CONFIG_PREEMPT=y\\nCONFIG_EXT4_FS=m\\n' | "
			 "gzip -c >'%s/proc/config.gz'",
			 root);
		assert_int_equal(system(cmd), 0);
		text = text_of(&o);
		want_line(text, "source: /proc/config.gz (whole file: "
				"kernel-config.txt)");
		want_line(text, "CONFIG_PREEMPT=y");
		assert_null(strstr(text, "CONFIG_HZ=250"));
		whole = fixture_read_file(out, NULL);
		assert_string_equal(whole,
				    "CONFIG_PREEMPT=y\nCONFIG_EXT4_FS=m\n");
		free(whole);
		free(text);
	}

	/* none: a note, and no stale kernel-config.txt */
	snprintf(out, sizeof(out), "%s/boot/config-6.1.0-test", root);
	assert_int_equal(unlink(out), 0);
	snprintf(out, sizeof(out), "%s/proc/config.gz", root);
	unlink(out);
	snprintf(out, sizeof(out), "%s/kernel-config.txt", root);
	text = text_of(&o);
	want_line(text, "(not readable: no /proc/config.gz, no "
			"/boot/config-6.1.0-test)");
	assert_int_equal(access(out, F_OK), -1);
	free(text);
	assert_int_equal(fixture_rm_rf(root), 0);
}

/* --pgdata: the directory's line, then its mount and device. */
static void test_pgdata(void **state)
{
	char dir[PATH_MAX], line[PATH_MAX + 8], *text;
	struct sysinfo_text_opts o = {.root = ""};

	(void)state;
	assert_non_null(fixture_temp_dir(dir, sizeof(dir), "test_sysinfo"));
	o.pgdata = dir;
	text = text_of(&o);
	snprintf(line, sizeof(line), "%s:", dir);
	want_line(text, line);
	assert_non_null(find_line(text, "mount: ", true));
	assert_non_null(find_line(text, "device: ", true));
	free(text);
	o.pgdata = "/nonexistent/pgdata";
	text = text_of(&o);
	want_line(text, "(/nonexistent/pgdata: not a directory here)");
	free(text);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_values),
		cmocka_unit_test(test_agrees_with_fingerprint),
		cmocka_unit_test(test_kernel_config_boot),
		cmocka_unit_test(test_pgdata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
