/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_ioprofile.c - libFuzzer target for the reader of I/O profiles,
 * oltpmark-ioprofile/1 (iosim_profile_parse in drivers/iosim_profile.c,
 * which iosim_profile_read hands a file's bytes to): the JSON of 1.0 and
 * 1.1, every section down to the layout's placement and paths, and the
 * validation. A profile it accepts is then used as the iosim driver
 * uses one (the per-call figures) and written back as the calibration
 * writes it; besides the sanitizers the target aborts when that written
 * profile does not read back the same, since the writer promises to
 * write only what the reader takes.
 */
#include "tests/fuzz/fuzz.h"

#include <jansson.h>

#include "drivers/iosim_profile.h"
#include "src/base/resfile.h"

/* Write prof as iosim_profile_write does and read it back; abort if not. */
static void check_round_trip(const struct iosim_profile *prof)
{
	struct iosim_profile back;
	struct err err;
	json_t *root = iosim_profile_to_json(prof);
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	if (!root)
		return;
	f = open_memstream(&text, &len);
	if (f && resfile_dump(root, f) == 0 && fclose(f) == 0) {
		if (iosim_profile_parse(text, len, "written", &back, &err) < 0)
			abort(); /* the writer wrote what the reader refuses */
		if (back.warehouses != prof->warehouses ||
		    back.mix_commits != prof->mix_commits ||
		    back.layout.kind != prof->layout.kind ||
		    back.layout.directories != prof->layout.directories ||
		    back.layout.npaths != prof->layout.npaths ||
		    back.background.ndevices != prof->background.ndevices ||
		    memcmp(back.layout.placement, prof->layout.placement,
			   sizeof(back.layout.placement)) != 0)
			abort(); /* a value changed on the way */
		for (i = 0; i < back.layout.npaths; i++)
			if (strcmp(back.layout.path[i], prof->layout.path[i]))
				abort();
	} else if (f) {
		fclose(f);
	}
	free(text);
	json_decref(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iosim_profile prof;
	struct err err;
	int type, rel;

	if (iosim_profile_parse((const char *)data, size, "ioprofile.json",
				&prof, &err) < 0)
		return 0;
	for (type = 0; type < TXN_NR; type++) {
		for (rel = 0; rel < IOSIM_PROFILE_REL_NR; rel++) {
			(void)iosim_profile_reads_per_call(&prof, type, rel);
			(void)iosim_profile_dirtied_per_call(&prof, type, rel);
		}
		(void)iosim_profile_wal_bytes_per_call(&prof, type);
	}
	(void)iosim_profile_total_pages(&prof);
	check_round_trip(&prof);
	return 0;
}
