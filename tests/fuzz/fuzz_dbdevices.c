/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_dbdevices.c - libFuzzer target for the reader of meta.json's
 * server.layout, the devices under a run's database (dbdevices.c:
 * dbdevices_from_meta, then dbdevices_read with the run's iostat and
 * diskstats files for their I/O), which report and compare both use.
 * The input, cut at FUZZ_SEP, is meta.json, then sys/iostat.json (or
 * sys/iostat.txt when it does not start with '{'), sys/diskstats.start
 * and sys/diskstats.stop, each optional and absent when empty, written
 * to the target's private directory; the stop snapshot is dated 10 s
 * after the start one, as the hooks leave them, so rates are taken. The
 * directory is read with the measured window 1 .. 3 s after meta.json's
 * start, and with no window.
 *
 * Besides the sanitizers it aborts when a device kept has no name, no
 * role or a role it cannot have, a source out of range, or a name the
 * lookup does not find, or when more notes are kept than there is room.
 */
#include "tests/fuzz/fuzz.h"

#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>

#include "analysis/parsers/dbdevices.h"
#include "analysis/report/plots.h"

/* The parts of an input after meta.json, and the files they become. */
static const char *const fuzz_files[] = {
	"sys/iostat.json",
	"sys/diskstats.start",
	"sys/diskstats.stop",
};

/* Abort unless d is what dbdevices.h says of it. */
static void check_devices(const struct dbdevices *d)
{
	size_t i;

	if (d->nnotes < 0 || d->nnotes > DBDEV_NOTES_MAX ||
	    (!d->layout_known && d->n))
		abort();
	for (i = 0; i < d->n; i++) {
		const struct dbdev *dv = &d->devs[i];

		if (!dv->name[0] || !dv->roles ||
		    (dv->roles & ~(unsigned)(DBDEV_DATA | DBDEV_WAL)) ||
		    (unsigned)dv->source >= DBDEV_SOURCE_NR ||
		    dbdevices_find(d, dv->name) != dv)
			abort();
		(void)dbdevices_role_name(dv->roles);
		(void)dbdevices_source_name(dv->source);
	}
}

/* Write the files of parts[1..n-1]; 0 or -1. */
static int write_files(const struct fuzz_part *parts, size_t n)
{
	struct timespec times[2];
	char path[512];
	size_t i;
	bool text;

	text = n > 1 && parts[1].size && parts[1].data[0] != '{';
	if (fuzz_write("sys/iostat.txt", text ? parts[1].data : NULL,
		       text ? parts[1].size : 0) < 0)
		return -1;
	for (i = 0; i < 3; i++) {
		const struct fuzz_part *p = i + 1 < n ? &parts[i + 1] : NULL;
		bool there = p && p->size && !(i == 0 && text);

		if (fuzz_write(fuzz_files[i], there ? p->data : NULL,
			       there ? p->size : 0) < 0)
			return -1;
	}
	/* The start snapshot 10 s before the stop one, as the hooks take
	   them: dbdevices reads the span from the files' times. */
	snprintf(path, sizeof(path), "%s/sys/diskstats.start", fuzz_tmpdir());
	clock_gettime(CLOCK_REALTIME, &times[0]);
	times[0].tv_sec -= 10;
	times[1] = times[0];
	utimensat(AT_FDCWD, path, times, 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[4];
	const char *dir = fuzz_tmpdir();
	size_t n = fuzz_split(data, size, parts, 4);
	struct dbdev_window w;
	struct dbdevices d;
	json_error_t jerr;
	struct err err;
	json_t *meta;

	if (!dir || fuzz_subdir("sys") < 0)
		return 0;
	meta = json_loadb((const char *)parts[0].data, parts[0].size,
			  JSON_REJECT_DUPLICATES, &jerr);
	if (!meta)
		return 0;
	if (dbdevices_from_meta(meta, &d, &err) == 0)
		check_devices(&d);
	dbdevices_free(&d);
	/* Only a layout with devices reads the files. */
	if (write_files(parts, n) == 0) {
		w.start_epoch_s = plots_run_start(meta);
		w.start_s = 1;
		w.end_s = 3;
		if (dbdevices_read(dir, meta, &w, &d, &err) == 0)
			check_devices(&d);
		dbdevices_free(&d);
		w.start_s = w.end_s = NAN;
		if (dbdevices_read(dir, meta, &w, &d, &err) == 0)
			check_devices(&d);
		dbdevices_free(&d);
	}
	json_decref(meta);
	return 0;
}
