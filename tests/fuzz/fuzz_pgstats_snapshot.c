/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_pgstats_snapshot.c - libFuzzer target for the reader of the
 * pg-stats hook's snapshots of pg_stat_database, pg_stat_bgwriter and
 * pg_stat_wal (sys/VIEW.start.csv, VIEW.stop.csv: psql's CSV, a header
 * and one row; parse_pgstats_snapshot), then every column looked up by
 * name and read as a number, as report does. Besides the sanitizers it
 * aborts when an accepted snapshot has no "ts" first, or a column is not
 * found by its own name.
 */
#include "tests/fuzz/fuzz.h"

#include "analysis/parsers/parse_pgstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgstats_snapshot s;
	struct err err;
	char *copy;
	FILE *f = fuzz_open(data, size, &copy);
	double v;
	size_t i;

	if (!f)
		return 0;
	if (parse_pgstats_snapshot(f, &s, &err) == 0) {
		if (s.ncols == 0 || strcmp(s.names[0], "ts") != 0 || !s.values)
			abort();
		for (i = 0; i < s.ncols; i++) {
			int col = parse_pgstats_snapshot_column(&s, s.names[i]);

			/* the first column of that name */
			if (col < 0 || (size_t)col > i ||
			    strcmp(s.names[col], s.names[i]) != 0)
				abort();
			(void)parse_pgstats_snapshot_value(&s, (int)i, &v);
		}
		(void)parse_pgstats_snapshot_value(&s, -1, &v);
		(void)parse_pgstats_snapshot_value(&s, (int)s.ncols, &v);
		(void)parse_pgstats_snapshot_column(&s, "buffers_checkpoint");
		parse_pgstats_snapshot_free(&s);
	}
	fuzz_close(f, copy);
	return 0;
}
