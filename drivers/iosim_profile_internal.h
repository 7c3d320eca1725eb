/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_profile_internal.h - what the three files of the profile module
 * share and nothing else includes: the tables of keys the reader, the
 * checks and the writer walk alike, and the fault message every one of
 * them reports through. iosim_profile.c holds these, the names and the
 * checks; iosim_profile_read.c reads a file, iosim_profile_write.c
 * writes one; both call iosim_profile.c and not each other.
 */
#ifndef OLTPMARK_IOSIM_PROFILE_INTERNAL_H
#define OLTPMARK_IOSIM_PROFILE_INTERNAL_H

#include <stddef.h>

#include "drivers/iosim_profile.h"
#include "src/base/err.h"

/* A count of struct iosim_profile_txn, by its key. */
struct iosim_profile_count_key {
	const char *key; /* as in the file */
	size_t offset;	 /* of its int64_t in struct iosim_profile_txn */
};

/* A rate (a double >= 0) of a struct, by its key. */
struct iosim_profile_rate_key {
	const char *key; /* as in the file */
	size_t offset;	 /* of its double in the struct */
};

#define IOSIM_PROFILE_NKEYS(a) (sizeof(a) / sizeof((a)[0]))

/* The counts of a transaction, in the file's order. */
extern const struct iosim_profile_count_key iosim_profile_txn_keys[8];
/* The rates of "background" and of one device, in the file's order. */
extern const struct iosim_profile_rate_key iosim_profile_background_keys[5];
extern const struct iosim_profile_rate_key iosim_profile_device_keys[4];

/* The file's names of the relations and of the layouts. */
extern const char *const iosim_profile_rel_names[IOSIM_PROFILE_REL_NR];
extern const char *const iosim_profile_layout_names[IOSIM_PROFILE_LAYOUT_NR];

/*
 * err_set() as "NAME: PATH: message" (either part left out when NULL or
 * empty): every fault of a profile is reported through here. Returns
 * code.
 */
int iosim_profile_err(struct err *err, int code, const char *name,
		      const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* "PARENT.KEY" into buf (size bytes), cut visibly; returns buf. */
const char *iosim_profile_path(char *buf, size_t size, const char *parent,
			       const char *key);

#endif
