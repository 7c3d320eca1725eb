/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock.h - the two clocks oltpmark uses. Response and service times come
 * from CLOCK_MONOTONIC (never the wall clock, which NTP may step); wall
 * time is only for labelling results (meta.json start/end).
 */
#ifndef OLTPMARK_CLOCK_H
#define OLTPMARK_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Microseconds on CLOCK_MONOTONIC. */
static inline int64_t clock_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Wall-clock microseconds since the epoch (CLOCK_REALTIME). */
static inline int64_t clock_wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Sleep until an absolute CLOCK_MONOTONIC time in microseconds. Returns 0
 * when the time has come, EINTR when a signal woke us early (callers check
 * their stop flag and sleep again).
 */
static inline int clock_sleep_until_us(int64_t when_us)
{
	struct timespec ts = {
		.tv_sec = when_us / 1000000,
		.tv_nsec = (when_us % 1000000) * 1000,
	};

	return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#endif
