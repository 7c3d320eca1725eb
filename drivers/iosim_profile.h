/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iosim_profile.h - the I/O profile (oltpmark-ioprofile/1) that the iosim
 * driver replays: what one calibration run of the real workload on
 * PostgreSQL measured, per transaction type (calls, commits, buffer
 * blocks, WAL), per relation (size, rows per page, where each type's
 * block reads and dirtied pages fall), the background I/O per second and
 * the layout. This file is its data model, its reader (with one clear
 * line per fault) and its writer; the format is in docs/formats.md, the
 * tag and version policy in src/base/resfile.h.
 *
 * Nothing here keeps state: every function is thread-safe.
 */
#ifndef OLTPMARK_IOSIM_PROFILE_H
#define OLTPMARK_IOSIM_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "src/base/err.h"
#include "src/base/resfile.h"
#include "src/base/txn.h"

/*
 * The tag the writer puts in a profile. 1.1 added the mix's committed
 * transactions ("mix_commits") and the server's WAL bytes per second
 * ("background.wal_bytes_per_s"), the calibration's side of a replay's
 * fidelity check, and the directory of each tablespace
 * ("layout.paths"). The reader takes any 1.x (resfile_check()).
 */
#define IOSIM_PROFILE_FORMAT RESFILE_TAG_IOPROFILE ".1"

#define IOSIM_PROFILE_PAGE_BYTES      8192 /* PostgreSQL's BLCKSZ; the only one */
#define IOSIM_PROFILE_DEVICES_MAX     32   /* devices in "background" */
#define IOSIM_PROFILE_NAME_MAX	      32   /* a device name and its NUL */
#define IOSIM_PROFILE_TEXT_MAX	      64   /* the descriptive strings */
#define IOSIM_PROFILE_SHARE_SLACK     0.01 /* how far from 1 shares may sum */
#define IOSIM_PROFILE_FILE_MAX	      (4 << 20) /* a bigger file is refused */
#define IOSIM_PROFILE_WAREHOUSES_MAX  100000	/* as oltpmark load's */
#define IOSIM_PROFILE_DIRECTORIES_MAX 4096	/* of a layout */
#define IOSIM_PROFILE_PATHS_MAX	      32  /* directories whose paths are kept */
#define IOSIM_PROFILE_PATH_LEN	      256 /* a path and its NUL */

/*
 * The relations of the schema (schema/tables.sql, schema/indexes.sql),
 * main fork only. Partitions (the warehouse layout) are summed into
 * their parent by the calibration.
 */
enum iosim_profile_rel {
	IOSIM_PROFILE_REL_WAREHOUSE,	       /* warehouse (heap) */
	IOSIM_PROFILE_REL_DISTRICT,	       /* district */
	IOSIM_PROFILE_REL_CUSTOMER,	       /* customer */
	IOSIM_PROFILE_REL_HISTORY,	       /* history, append only */
	IOSIM_PROFILE_REL_NEW_ORDER,	       /* new_order */
	IOSIM_PROFILE_REL_ORDERS,	       /* orders */
	IOSIM_PROFILE_REL_ORDER_LINE,	       /* order_line */
	IOSIM_PROFILE_REL_ITEM,		       /* item */
	IOSIM_PROFILE_REL_STOCK,	       /* stock */
	IOSIM_PROFILE_REL_WAREHOUSE_PKEY,      /* (w_id) */
	IOSIM_PROFILE_REL_DISTRICT_PKEY,       /* (d_w_id, d_id) */
	IOSIM_PROFILE_REL_CUSTOMER_PKEY,       /* (c_w_id, c_d_id, c_id) */
	IOSIM_PROFILE_REL_CUSTOMER_NAME_IDX,   /* (w, d, c_last, c_first) */
	IOSIM_PROFILE_REL_NEW_ORDER_PKEY,      /* (w, d, no_o_id) */
	IOSIM_PROFILE_REL_ORDERS_PKEY,	       /* (w, d, o_id) */
	IOSIM_PROFILE_REL_ORDERS_CUSTOMER_IDX, /* (w, d, o_c_id, o_id) */
	IOSIM_PROFILE_REL_ORDER_LINE_PKEY,     /* (w, d, o_id, ol_number) */
	IOSIM_PROFILE_REL_ITEM_PKEY,	       /* (i_id) */
	IOSIM_PROFILE_REL_STOCK_PKEY,	       /* (s_w_id, s_i_id) */
	IOSIM_PROFILE_REL_NR
};

/* What one transaction type did over the calibration's measured interval. */
struct iosim_profile_txn {
	int64_t calls;		     /* pg_stat_statements calls of its
					 function (or statements) */
	int64_t commits;	     /* of those, committed */
	int64_t shared_blks_hit;     /* buffer hits */
	int64_t shared_blks_read;    /* blocks read into shared buffers */
	int64_t shared_blks_dirtied; /* blocks it dirtied */
	int64_t shared_blks_written; /* blocks it wrote itself (evictions) */
	int64_t wal_records;	     /* WAL records */
	int64_t wal_bytes;	     /* WAL bytes */
	double read_share[IOSIM_PROFILE_REL_NR];    /* of shared_blks_read,
						       the part on each
						       relation; sums to 1
						       or (no reads) to 0 */
	double dirtied_share[IOSIM_PROFILE_REL_NR]; /* the same for
						       shared_blks_dirtied */
};

/* One relation as the calibration found it. */
struct iosim_profile_relation {
	int64_t pages;	      /* size in 8 KiB pages, >= 1 */
	double rows_per_page; /* rows (index entries) per page, > 0 */
};

/* One block device's I/O per second (from /proc/diskstats). */
struct iosim_profile_device {
	char name[IOSIM_PROFILE_NAME_MAX]; /* "vda", "nvme0n1" */
	double reads_per_s;		   /* reads completed */
	double read_bytes_per_s;	   /* sectors read × 512 */
	double writes_per_s;		   /* writes completed */
	double write_bytes_per_s;	   /* sectors written × 512 */
};

/* Background I/O per second of the measured interval. */
struct iosim_profile_background {
	double checkpoint_writes_per_s; /* pg_stat_bgwriter
					   buffers_checkpoint */
	double bgwriter_writes_per_s;	/* buffers_clean */
	double backend_writes_per_s;	/* buffers_backend */
	double wal_writes_per_s;	/* pg_stat_wal wal_write */
	double wal_syncs_per_s;		/* pg_stat_wal wal_sync */
	double wal_bytes_per_s;		/* pg_stat_wal wal_bytes: all the
					   server's WAL, background work's
					   too (1.1); NAN when the profile
					   does not say (1.0) */
	int ndevices;			/* entries of device[] */
	struct iosim_profile_device device[IOSIM_PROFILE_DEVICES_MAX];
	/* sorted by name */
};

/* How the relations were spread over directories (docs/layout.md). */
enum iosim_profile_layout_kind {
	IOSIM_PROFILE_LAYOUT_SINGLE,	/* one data directory */
	IOSIM_PROFILE_LAYOUT_TABLE,	/* whole relations per directory */
	IOSIM_PROFILE_LAYOUT_WAREHOUSE, /* warehouse ranges per directory */
	IOSIM_PROFILE_LAYOUT_NR
};

/* The layout of the calibration run. */
struct iosim_profile_layout {
	enum iosim_profile_layout_kind kind; /* single, table or warehouse */
	int directories;		     /* 1 for single, >= 1 otherwise */
	int placement[IOSIM_PROFILE_REL_NR]; /* table layout: the directory
						(0-based) of each relation;
						-1 when not recorded */
	int npaths; /* entries of path[]: directories, or 0 when the
		       profile does not say (1.0, a single directory, or
		       more than IOSIM_PROFILE_PATHS_MAX) */
	char path[IOSIM_PROFILE_PATHS_MAX]
		 [IOSIM_PROFILE_PATH_LEN]; /* each directory as the
					      calibration's server named
					      it (its tablespace's
					      location), in the order of
					      the directory numbers */
};

/* A whole profile. Plain data: copy it, free nothing. */
struct iosim_profile {
	char oltpmark_version[IOSIM_PROFILE_TEXT_MAX]; /* who wrote it; "" */
	char created[IOSIM_PROFILE_TEXT_MAX]; /* ISO 8601 UTC; "" unknown */
	char config[IOSIM_PROFILE_TEXT_MAX];  /* "cached", "noncached", ...;
						 "" unknown */
	char server_version[IOSIM_PROFILE_TEXT_MAX]; /* "15.18"; "" */
	int warehouses;	     /* W of the calibration database, >= 1 */
	double duration_s;   /* the measured interval every count and rate
				covers, > 0 */
	int64_t mix_commits; /* transactions of the mix committed in that
				interval, as the engine counted them: what
				the per-transaction figures of a fidelity
				check divide by (1.1); -1 when the profile
				does not say (1.0) */
	struct iosim_profile_txn txn[TXN_NR];			 /* by type */
	struct iosim_profile_relation rel[IOSIM_PROFILE_REL_NR]; /* sizes */
	struct iosim_profile_background background;
	struct iosim_profile_layout layout;
	char checksum[32]; /* "fnv1a64:" and 16 hex digits of the file's
			      bytes, set by the readers; "" otherwise */
};

/* "stock", "stock_pkey", ... as PostgreSQL names it; NULL when bad. */
const char *iosim_profile_rel_name(enum iosim_profile_rel rel);

/* The relation called name, or -1. */
int iosim_profile_rel_from_name(const char *name);

/* Whether rel is an index (a B-tree) rather than a heap. */
bool iosim_profile_rel_is_index(enum iosim_profile_rel rel);

/* "single", "table", "warehouse"; NULL when bad. */
const char *iosim_profile_layout_name(enum iosim_profile_layout_kind kind);

/*
 * Parse the len bytes of text (a whole file's contents) into *prof, set
 * prof->checksum from those bytes, and validate everything. name (the
 * path, usually) begins every message. Returns 0, or a negative errno
 * with err set to one line naming the fault and the key it is at:
 * -ENODATA for an empty file, -EBADMSG for a file that is not one JSON
 * object ("JSON cut short (line N)" for a truncated one) or has another
 * format or version (resfile_check()'s message), -EINVAL for a value
 * that is missing, of the wrong type, negative, out of range, a share
 * map that does not sum to 1, or a relation or type name it does not
 * know. *prof is undefined on failure.
 */
int iosim_profile_parse(const char *text, size_t len, const char *name,
			struct iosim_profile *prof, struct err *err);

/*
 * iosim_profile_parse() of the file at path (messages begin with path).
 * Also -ENOENT (and any other errno of opening or reading it) and -EFBIG
 * for a file over IOSIM_PROFILE_FILE_MAX bytes.
 */
int iosim_profile_read(const char *path, struct iosim_profile *prof,
		       struct err *err);

/*
 * Check a profile built in memory (the calibration's) as the reader
 * checks a file's: 0 or -EINVAL with err naming the key. name prefixes
 * the message; NULL for none.
 */
int iosim_profile_validate(const struct iosim_profile *prof, const char *name,
			   struct err *err);

/*
 * prof as a JSON object in the format of docs/formats.md (the caller
 * decrefs); NULL when out of memory. Shares of 0 and an unrecorded
 * placement are left out; empty strings are written as null.
 */
json_t *iosim_profile_to_json(const struct iosim_profile *prof);

/*
 * Validate prof, then write it to path atomically (resfile_write_json()).
 * 0 or negative errno with err set.
 */
int iosim_profile_write(const char *path, const struct iosim_profile *prof,
			struct err *err);

/*
 * Per call of type: the blocks read (or dirtied) that fall on rel, the
 * type's total over its calls times the relation's share; 0 when the
 * type had no calls.
 */
double iosim_profile_reads_per_call(const struct iosim_profile *prof,
				    enum txn_type type,
				    enum iosim_profile_rel rel);
double iosim_profile_dirtied_per_call(const struct iosim_profile *prof,
				      enum txn_type type,
				      enum iosim_profile_rel rel);

/* WAL bytes per call of type; 0 when it had no calls. */
double iosim_profile_wal_bytes_per_call(const struct iosim_profile *prof,
					enum txn_type type);

/*
 * What the calibration measured per committed transaction of its mix: a
 * rate of the profile (per second of duration_s, such as a device's
 * reads_per_s or background.wal_bytes_per_s) times duration_s over
 * mix_commits. NAN when the profile does not record mix_commits (1.0),
 * when the mix committed nothing, or when per_s is NAN.
 */
double iosim_profile_per_commit(const struct iosim_profile *prof, double per_s);

/* The sum of every relation's pages. */
int64_t iosim_profile_total_pages(const struct iosim_profile *prof);

#endif
