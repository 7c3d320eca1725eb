/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_schedstat.c - libFuzzer target for the reader of
 * /proc/PID/schedstat (schedstat_parse, what schedstat_read hands a
 * pread's bytes to), then the growth between two readings
 * (schedstat_acc_add). Besides the sanitizers it aborts when an
 * accepted text does not read back the same once printed, or when the
 * growth of a reading to itself is not 0.
 */
#include "tests/fuzz/fuzz.h"

#include <inttypes.h>

#include "src/base/schedstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct schedstat_sample s, again;
	struct schedstat_acc acc = {0};
	struct err err;
	char text[96];
	int n;

	if (schedstat_parse((const char *)data, size, &s, &err) < 0)
		return 0;
	n = snprintf(text, sizeof(text),
		     "%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", s.cpu_ns,
		     s.wait_ns, s.slices);
	if (n <= 0 || (size_t)n >= sizeof(text) ||
	    schedstat_parse(text, (size_t)n, &again, &err) < 0 ||
	    again.cpu_ns != s.cpu_ns || again.wait_ns != s.wait_ns ||
	    again.slices != s.slices)
		abort();
	if (schedstat_acc_add(&acc, &s, &again) < 0 || acc.txns != 1 ||
	    acc.cpu_ns || acc.wait_ns || acc.slices)
		abort();
	return 0;
}
