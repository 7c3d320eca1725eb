/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_parse_interrupts.c - /proc/interrupts snapshots and deltas.
 * proc-interrupts.txt is a real snapshot; proc-interrupts-after.txt is
 * that snapshot with known increments (virtio1-req.0 +1000 on CPU1,
 * virtio3-rx +500, LOC +1000 per CPU, RES +100/+50, CAL +32, ERR +2) and
 * a new line (44, nvme0q0: 5 and 7), written for these tests. Other
 * layouts (ARM, shared actions, CPU hotplug, 32-bit wrap) are written out
 * below. Broken inputs must give an error or counted bad lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/parsers/parse_interrupts.h"
#include "tests/unit/fixture_util.h"

static int parse_bytes(const void *buf, size_t len, struct irq_snapshot *s,
		       struct err *err)
{
	char path[] = "/tmp/test_parse_interrupts.XXXXXX";
	int rc = parse_interrupts_file(fixture_write_temp(buf, len, path), s,
				       err);

	unlink(path);
	return rc;
}

static int parse_str(const char *text, struct irq_snapshot *s, struct err *err)
{
	return parse_bytes(text, strlen(text), s, err);
}

static const struct irq_line *line_of(const struct irq_snapshot *s,
				      const char *label)
{
	size_t i;

	for (i = 0; i < s->nlines; i++)
		if (strcmp(s->lines[i].label, label) == 0)
			return &s->lines[i];
	fail_msg("no line %s", label);
	return NULL;
}

static void test_snapshot(void **state)
{
	const struct irq_line *l;
	struct irq_snapshot s;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_interrupts_file(
				 fixture_path("proc-interrupts.txt"), &s, &err),
			 0);
	assert_int_equal(s.ncpu, 2);
	assert_int_equal(s.cpus[0], 0);
	assert_int_equal(s.cpus[1], 1);
	assert_int_equal(s.nlines, 35); /* 19 device lines, 16 others */
	assert_int_equal(s.bad_lines, 0);

	l = line_of(&s, "36");
	assert_true(l->is_device);
	assert_true(l->per_cpu);
	assert_string_equal(l->name, "virtio1-req.0");
	assert_int_equal(l->counts[0], 0);
	assert_int_equal(l->counts[1], 64038);
	assert_int_equal(l->total, 64038);
	assert_string_equal(
		l->desc, "PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0");
	assert_string_equal(line_of(&s, "24")->name, "ACPI:Ged");
	assert_string_equal(line_of(&s, "26")->name, "ttyS0");
	assert_string_equal(line_of(&s, "32")->name, "virtio0-reporting_vq");

	l = line_of(&s, "LOC");
	assert_false(l->is_device);
	assert_string_equal(l->name, "LOC");
	assert_string_equal(l->desc, "Local timer interrupts");
	assert_int_equal(l->counts[0], 51258);
	assert_int_equal(l->counts[1], 52139);
	assert_int_equal(l->total, 103397);
	assert_int_equal(line_of(&s, "CAL")->total, 105290);
	assert_int_equal(line_of(&s, "TLB")->total, 6358);
	assert_int_equal(line_of(&s, "RES")->total, 29496);

	/* ERR and MIS have one count, not one per CPU. */
	l = line_of(&s, "ERR");
	assert_false(l->per_cpu);
	assert_null(l->counts);
	assert_int_equal(l->total, 0);
	assert_string_equal(l->desc, "");
	parse_interrupts_free(&s);
	parse_interrupts_free(&s);
}

static void test_delta(void **state)
{
	const struct irq_delta_entry *e;
	struct irq_snapshot a, b;
	struct irq_delta d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_interrupts_file(
				 fixture_path("proc-interrupts.txt"), &a, &err),
			 0);
	assert_int_equal(
		parse_interrupts_file(fixture_path("proc-interrupts-after.txt"),
				      &b, &err),
		0);
	assert_int_equal(parse_interrupts_delta(&a, &b, &d, &err), 0);
	assert_int_equal(d.ncpu, 2);
	assert_int_equal(d.new_lines, 1);
	assert_int_equal(d.gone_lines, 0);
	assert_int_equal(d.wraps, 0);
	assert_int_equal(d.resets, 0);
	/* 36 lines, ACPI:Ged on IRQs 24 and 25 merged into one entry. */
	assert_int_equal(d.n, 35);

	e = parse_interrupts_delta_find(&d, "virtio1-req.0");
	assert_non_null(e);
	assert_true(e->is_device && e->per_cpu);
	assert_int_equal(e->total, 1000);
	assert_int_equal(e->counts[0], 0);
	assert_int_equal(e->counts[1], 1000);
	assert_int_equal(parse_interrupts_delta_find(&d, "virtio3-rx")->total,
			 500);
	e = parse_interrupts_delta_find(&d, "LOC");
	assert_false(e->is_device);
	assert_int_equal(e->total, 2000);
	assert_int_equal(e->counts[0], 1000);
	assert_int_equal(parse_interrupts_delta_find(&d, "RES")->counts[1], 50);
	assert_int_equal(parse_interrupts_delta_find(&d, "RES")->total, 150);
	assert_int_equal(parse_interrupts_delta_find(&d, "CAL")->total, 32);
	assert_int_equal(parse_interrupts_delta_find(&d, "TLB")->total, 0);
	e = parse_interrupts_delta_find(&d, "ERR");
	assert_false(e->per_cpu);
	assert_null(e->counts);
	assert_int_equal(e->total, 2);
	e = parse_interrupts_delta_find(&d, "nvme0q0");
	assert_int_equal(e->total, 12);
	assert_int_equal(e->counts[1], 7);
	e = parse_interrupts_delta_find(&d, "ACPI:Ged");
	assert_int_equal(e->lines, 2);
	assert_int_equal(e->total, 0);
	assert_null(parse_interrupts_delta_find(&d, "36"));

	parse_interrupts_delta_sort(&d);
	assert_string_equal(d.entries[0].name, "LOC");
	assert_string_equal(d.entries[1].name, "virtio1-req.0");
	assert_string_equal(d.entries[2].name, "virtio3-rx");
	assert_string_equal(d.entries[3].name, "RES");
	assert_string_equal(d.entries[4].name, "CAL");
	assert_string_equal(d.entries[5].name, "nvme0q0");
	assert_string_equal(d.entries[6].name, "ERR");
	assert_int_equal(d.entries[7].total, 0);
	parse_interrupts_delta_free(&d);
	parse_interrupts_delta_free(&d);

	/* The other way round: lines disappear, counters go back. */
	assert_int_equal(parse_interrupts_delta(&b, &a, &d, &err), 0);
	assert_int_equal(d.gone_lines, 1);
	assert_true(d.wraps > 0);
	parse_interrupts_delta_free(&d);
	parse_interrupts_free(&a);
	parse_interrupts_free(&b);
}

static void test_layouts(void **state)
{
	static const char text[] =
		"           CPU0       CPU2       CPU3\n"
		" 11:       1234       5678          1     GICv3  27 Level     arch_timer\n"
		" 16:          1          2          3   IO-APIC  16-fasteoi   ehci_hcd:usb1, ahci\n"
		" 17:          1          2          3   IO-APIC  17-fasteoi   PCIe PME, pciehp\n"
		"  7:          0          3          0   IO-APIC   7-fasteoi\n"
		"IPI0:        10         20         30       Rescheduling interrupts\n"
		"MIS:          4\n";
	const struct irq_line *l;
	struct irq_snapshot s;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str(text, &s, &err), 0);
	assert_int_equal(s.ncpu, 3);
	assert_int_equal(s.cpus[1], 2);
	assert_int_equal(s.cpus[2], 3);
	assert_int_equal(s.nlines, 6);
	assert_int_equal(s.bad_lines, 0);
	l = line_of(&s, "11");
	assert_string_equal(l->name, "arch_timer");
	assert_int_equal(l->total, 6913);
	assert_string_equal(line_of(&s, "16")->name, "ehci_hcd:usb1, ahci");
	assert_string_equal(line_of(&s, "17")->name, "PCIe PME, pciehp");
	/* No action: keyed by its number. */
	assert_string_equal(line_of(&s, "7")->name, "7");
	assert_string_equal(line_of(&s, "IPI0")->name, "IPI0");
	assert_false(line_of(&s, "MIS")->per_cpu);
	assert_int_equal(line_of(&s, "MIS")->total, 4);
	parse_interrupts_free(&s);
}

static void test_wrap_reset_hotplug(void **state)
{
	struct irq_snapshot a, b;
	struct irq_delta d;
	struct err err = {""};

	(void)state;
	assert_int_equal(parse_str("CPU0 CPU1\n"
				   "  5: 4294967290 10 IO-APIC 5-edge  foo\n"
				   "LOC: 1099511627776 10 Local timer\n",
				   &a, &err),
			 0);
	assert_int_equal(parse_str("CPU0 CPU1\n"
				   "  5: 5 20 IO-APIC 5-edge  foo\n"
				   "LOC: 5 10 Local timer\n",
				   &b, &err),
			 0);
	assert_int_equal(parse_interrupts_delta(&a, &b, &d, &err), 0);
	assert_int_equal(d.wraps, 1);
	assert_int_equal(d.resets, 1);
	/* 5 + 2^32 - 4294967290 on CPU0, 10 on CPU1 */
	assert_int_equal(parse_interrupts_delta_find(&d, "foo")->counts[0], 11);
	assert_int_equal(parse_interrupts_delta_find(&d, "foo")->total, 21);
	assert_int_equal(parse_interrupts_delta_find(&d, "LOC")->total, 5);
	parse_interrupts_delta_free(&d);
	parse_interrupts_free(&b);

	/* CPU1 went offline in the window. */
	assert_int_equal(parse_str("CPU0 CPU2\n  5: 5 20 IO-APIC 5-edge  foo\n",
				   &b, &err),
			 0);
	assert_int_equal(parse_interrupts_delta(&a, &b, &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "CPU"));
	assert_null(d.entries);
	parse_interrupts_free(&b);
	parse_interrupts_free(&a);
}

static void test_every_cut(void **state)
{
	size_t len, cut;
	char *buf = fixture_slurp("proc-interrupts.txt", &len);

	(void)state;
	for (cut = 0; cut <= len; cut++) {
		struct irq_snapshot s;
		struct err err = {""};
		int rc = parse_bytes(buf, cut, &s, &err);

		if (rc == 0) {
			assert_int_equal(s.ncpu, 2);
			assert_true(s.nlines >= 1 && s.nlines <= 35);
			assert_true(s.bad_lines <= 1);
		} else {
			assert_true(rc == -EINVAL || rc == -ENODATA);
			assert_null(s.lines);
		}
		parse_interrupts_free(&s);
	}
	free(buf);
}

static void test_broken_inputs(void **state)
{
	unsigned char noise[4096];
	struct irq_snapshot s;
	struct err err = {""};
	uint32_t seed;
	size_t len;
	char *buf;

	(void)state;
	assert_int_equal(parse_str("", &s, &err), -ENODATA);
	assert_int_equal(parse_str("  \n\n", &s, &err), -ENODATA);
	assert_int_equal(parse_str("  CPU0  CPU1\n", &s, &err), -ENODATA);
	for (seed = 1; seed <= 20; seed++) {
		fixture_garbage(noise, sizeof(noise), seed);
		assert_int_equal(parse_bytes(noise, sizeof(noise), &s, &err),
				 -EINVAL);
	}
	buf = fixture_slurp("vmstat-n-1.txt", &len);
	assert_int_equal(parse_bytes(buf, len, &s, &err), -EINVAL);
	free(buf);

	/* Cut mid-line: the lines before it stay, the cut one is bad. */
	buf = fixture_slurp("proc-interrupts.txt", &len);
	assert_int_equal(parse_bytes(buf, len - 20, &s, &err), 0);
	assert_int_equal(s.nlines, 34);
	assert_int_equal(s.bad_lines, 1);
	parse_interrupts_free(&s);
	free(buf);

	assert_int_equal(parse_str("CPU0 CPU1\n"
				   "  5: 1 2 IO-APIC 5-edge  ok\n"
				   "no colon here\n"
				   "  6: 1 x 2\n"
				   "  7: 99999999999999999999 1 IO-APIC  x\n"
				   "LO C: 1 2 spaced label\n"
				   ": 1 2 empty label\n"
				   "  8: CPU IO-APIC\n",
				   &s, &err),
			 0);
	assert_int_equal(s.nlines, 1);
	assert_int_equal(s.bad_lines, 6);
	parse_interrupts_free(&s);
	assert_int_equal(
		parse_interrupts_file("/nonexistent/interrupts", &s, &err),
		-ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_wrap_reset_hotplug),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_broken_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
