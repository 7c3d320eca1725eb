/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_load_gen.c - how fast the loader's generator writes COPY data,
 * per table, without a database: the client's share of a load. Prints
 * MB/s and rows/s for one warehouse of each table (item: all of it), in
 * the binary format the loader streams and in COPY text.
 * Usage: bench_load_gen [WAREHOUSES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/clock.h"
#include "src/load/load.h"

#define BUF_BYTES (256 * 1024)

/* The sink just counts what it is given. */
static int count_flush(struct load_sink *s)
{
	*(int64_t *)s->arg += (int64_t)s->len;
	s->len = 0;
	return 0;
}

/* Every table of reps warehouses in format f; 0 or 1 on failure. */
static int bench_format(enum load_format f, const char *name, int reps)
{
	struct load_gen_params p = {.seed = 42, .c_load = 157, .format = f};
	double total_s = 0;
	int64_t total_bytes = 0;
	int t;

	memcpy(p.now, "2025-01-01 00:00:00", LOAD_TIMESTAMP_LEN + 1);
	printf("load generator, %s, %d warehouse(s) per table:\n", name, reps);
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		const struct load_table_info *ti = load_table_info(t);
		int reps_t = ti->per_warehouse ? reps : 1;
		int64_t bytes = 0, t0, t1;
		struct load_sink s = {
			.cap = BUF_BYTES, .flush = count_flush, .arg = &bytes};
		double sec;
		int w;

		s.buf = malloc(BUF_BYTES);
		if (!s.buf)
			return 1;
		t0 = clock_mono_us();
		if (load_gen_begin(&p, &s) < 0)
			return 1;
		for (w = 1; w <= reps_t; w++)
			if (load_gen_table(&p, t, w, &s) < 0)
				return 1;
		if (load_gen_end(&p, &s) < 0)
			return 1;
		t1 = clock_mono_us();
		free(s.buf);
		sec = (double)(t1 - t0) / 1e6;
		total_s += sec;
		total_bytes += bytes;
		printf("  %-11s %8.1f MB %8.3f s %8.1f MB/s %10.0f rows/s\n",
		       ti->name, (double)bytes / 1e6, sec,
		       (double)bytes / 1e6 / sec,
		       (double)ti->rows_per_w * reps_t / sec);
	}
	printf("  %-11s %8.1f MB %8.3f s %8.1f MB/s\n", "all",
	       (double)total_bytes / 1e6, total_s,
	       (double)total_bytes / 1e6 / total_s);
	return 0;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 3;

	if (reps < 1)
		reps = 1;
	if (bench_format(LOAD_FORMAT_BINARY, "binary", reps))
		return 1;
	return bench_format(LOAD_FORMAT_TEXT, "text", reps);
}
