/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine_doc.h - one host's machine facts as a document another host
 * reads: what `oltpmark sysinfo --format json` prints on the system under
 * test and `oltpmark run --machine-from FILE` records in meta.json when
 * the terminals run elsewhere (run/oltpmark-run --sut). It holds what
 * `oltpmark run` would otherwise read from its own machine: meta.json's
 * kernel, cpu and memory, the fingerprint's treatment and environment
 * keys of the machine (fingerprint.h), with the block keys of the disks
 * under the database's data directory there, and the text of
 * sys/sysctl.txt. Format: docs/formats.md, "The machine's facts".
 * Nothing here prints.
 */
#ifndef OLTPMARK_MACHINE_DOC_H
#define OLTPMARK_MACHINE_DOC_H

#include <jansson.h>

#include "src/base/err.h"

/*
 * Build the document of the machine under root ("": this one) into *out
 * (the caller decrefs): {format, host, kernel, cpu, memory, devices,
 * treatment, environment, sysctl}. pgdata: a PostgreSQL data directory
 * of that machine, whose disks (its own, pg_wal's and each tablespace's
 * of pg_tblspc, links followed; what a dm or md device sits on) are the
 * block keys' disks; NULL, or none found: every disk, as
 * fingerprint_machine() with no list. 0, or negative errno with err set.
 */
int machine_doc_build(const char *root, const char *pgdata, json_t **out,
		      struct err *err);

/*
 * Read the document at path into *out (the caller decrefs): its format
 * must be oltpmark-machine/1 (any minor) and its kernel, cpu, memory,
 * treatment and environment objects, its sysctl a string. 0, or negative
 * errno with err saying what is wrong, naming path; *out NULL then.
 */
int machine_doc_read(const char *path, json_t **out, struct err *err);

#endif
