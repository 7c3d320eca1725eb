/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fingerprint.h - what a run was, in three groups of flat string keys
 * (docs/formats.md, "meta.json fingerprint"): the workload (what was
 * driven), the treatment (what a user changes between the columns of a
 * comparison: the kernel, its settings) and the environment (the machine
 * and the database server). `oltpmark run` records it in meta.json;
 * `oltpmark compare` refuses to score runs whose workload or environment
 * differ, and prints the treatment keys that differ between labels.
 *
 * The machine is read from /proc and /sys under a root directory ("" for
 * this machine, a fixture tree in the unit tests), through machine.h, the
 * reader sysinfo.txt's text (sysinfo_text.h) shares; or, when the
 * terminals ran on another host, taken from the system under test's
 * machine document (machine_doc.h), read there by the same code. A file
 * that cannot be read gives an absent key, never an error. Nothing here
 * prints.
 */
#ifndef OLTPMARK_FINGERPRINT_H
#define OLTPMARK_FINGERPRINT_H

#include <stdio.h>

#include <jansson.h>

/* Version of the "fingerprint" object (its "format" member). */
#define FINGERPRINT_FORMAT 1

/*
 * The sysctls of the treatment, as paths below /proc/sys ("vm/swappiness"),
 * NULL-terminated: those that move database throughput. sysinfo.txt
 * lists them too.
 */
extern const char *const fingerprint_sysctls[];

/*
 * The queue attributes of the treatment for each disk ("scheduler", ...),
 * NULL-terminated; sysinfo.txt's block lines start with them.
 */
extern const char *const fingerprint_queue_attrs[];

/*
 * Add the treatment keys read under root (kernel identity, the listed
 * sysctls, transparent huge pages, the queue of each disk in devs, CPU
 * frequency, mitigations, clocksource) to treatment, and the environment
 * keys (CPU, SMT, NUMA, memory, virtualization, cgroup version) to
 * environment. devs: the disks under the database (NULL-terminated),
 * NULL for every disk of root/sys/block but loop, ram and zram devices.
 * 0, or -ENOMEM.
 */
int fingerprint_machine(const char *root, const char *const *devs,
			json_t *treatment, json_t *environment);

/*
 * Build meta's "fingerprint" object {format, workload, treatment,
 * environment} from what meta.json already holds (options, notes, server,
 * database, config, driver, oltpmark_version) and the machine under root.
 * seed_rule: "fixed" when the seed was given, "random" when drawn. The
 * disks under the database are those of meta's server.layout; without
 * one, every disk. 0, or -ENOMEM.
 */
int fingerprint_add(json_t *meta, const char *root, const char *seed_rule);

/*
 * fingerprint_add() with the machine's keys taken from doc, the machine
 * document of the system under test (machine_doc.h: its "treatment" and
 * "environment", read there with the disks under its data directory),
 * not from this machine: the terminals ran on another host. The
 * workload and the server's keys are meta's, as in fingerprint_add().
 * 0, or -ENOMEM.
 */
int fingerprint_add_doc(json_t *meta, const json_t *doc, const char *seed_rule);

/*
 * Write every readable file below root/proc/sys as "name = value" lines
 * (sysctl -a's layout, names with dots, sorted), the full dump beside a
 * run for what the treatment list misses. Files that cannot be read are
 * left out. 0, or -EIO when writing to f failed.
 */
int fingerprint_sysctl_all(const char *root, FILE *f);

#endif
