/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_devices.h - the devices under the database, label by label, in
 * `oltpmark compare`: for each label and configuration, each device its
 * scored runs' meta.json places under the database (data, WAL or both),
 * with the means over those runs of the per-device figures report shows
 * (analysis/parsers/dbdevices.h) and the device's share of the label's
 * I/O. Runs whose meta.json has no server.layout add nothing; a label
 * without any has no rows.
 *
 * compare_evidence_build() builds it into struct cev; the text, Markdown
 * and HTML section, the JSON array and the CSV columns are written from
 * it by the functions below, called from compare_content.c,
 * compare_json.c and compare_csv.c.
 */
#ifndef OLTPMARK_ANALYSIS_COMPARE_DEVICES_H
#define OLTPMARK_ANALYSIS_COMPARE_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "analysis/compare/runset.h"
#include "analysis/compare/score.h"
#include "analysis/parsers/dbdevices.h"
#include "src/base/err.h"

struct cdoc;
struct cout_input;

/* The figures of a row, in the order the tables show them. */
enum cdev_fig {
	CDEV_R_S,     /* reads per second */
	CDEV_W_S,     /* writes per second */
	CDEV_RMB_S,   /* MB read per second */
	CDEV_WMB_S,   /* MB written per second */
	CDEV_REQ_KIB, /* mean request size, KiB */
	CDEV_R_AWAIT, /* read await, ms */
	CDEV_W_AWAIT, /* write await, ms */
	CDEV_AQU_SZ,  /* mean queue size */
	CDEV_UTIL,    /* % of the time busy */
	CDEV_SHARE,   /* % of the label's bytes read and written */
	CDEV_FIG_NR   /* number of figures */
};

/* One device of one label in one configuration. */
struct cdev_row {
	const char *label;	   /* points into the runset */
	const char *config;	   /* points into the runset */
	char name[DBDEV_NAME_LEN]; /* whole disk: "sdb" */
	unsigned roles;		   /* DBDEV_DATA | DBDEV_WAL, over the runs */
	size_t runs;		   /* runs with figures for it */
	unsigned sources;	   /* 1 << enum dbdev_source of those runs */
	double fig[CDEV_FIG_NR];   /* means over the runs that have each
				      figure, NAN when none has */
	size_t nfig[CDEV_FIG_NR];  /* runs behind each mean */
};

/* Every label's devices. compare_devices_free() releases it. */
struct cdevices {
	struct cdev_row *rows;		/* by config, label (score_row_label()
				  order), then as the runs list them */
	size_t n, cap;			/* used, allocated */
	struct runset_problem *remarks; /* each run's notes (what is not
					   known and why) */
	size_t nremarks;		/* entries in remarks */
};

/*
 * Read the scored runs of rs (meta.json, sys/iostat.json over each
 * run's window, sys/diskstats.*) into out, shaped like t. 0 or -ENOMEM;
 * out is overwritten, free it with compare_devices_free() either way.
 */
int compare_devices_build(struct cdevices *out, const struct runset *rs,
			  const struct score_table *t, struct err *err);

/*
 * How many devices label has in config, and the one with the largest
 * share (*busiest, NULL when no share is known). 0: no rows.
 */
size_t compare_devices_busiest(const struct cdevices *d, const char *label,
			       const char *config,
			       const struct cdev_row **busiest);

/* The "Devices under the database" section of the document, if any. */
void compare_devices_content(struct cdoc *d, const struct cout_input *in);

/* compare.json's "devices": one object per row. *oom on failure. */
json_t *compare_devices_json(const struct cout_input *in, bool *oom);

/* Release everything and zero d. Safe on a zeroed struct. */
void compare_devices_free(struct cdevices *d);

#endif
