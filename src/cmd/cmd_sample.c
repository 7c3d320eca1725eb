/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_sample.c - `oltpmark sample-procstat`: the aggregate "cpu" line of
 * /proc/stat once a second (or every --interval), one CSV row a sample
 * with the wall-clock time it was read, until SIGTERM or SIGINT. The
 * procstat hook runs it beside every run, so that the host's steal time
 * (and the other CPU states) can be placed on the run's clock and cut
 * into blocks (docs/blocks.md, docs/hook-formats.md "procstat").
 *
 * Why a C sampler and not a shell loop: a bash loop forks date(1) or
 * reads /proc/stat through a subshell every second, which is itself CPU
 * time taken from a 2-core guest; this one wakes, reads one file and
 * writes one line. The schedule is absolute on CLOCK_MONOTONIC, so the
 * samples do not drift, and a late wake-up skips the ticks it missed
 * rather than catching up in a burst.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/parsers/parse_procstat.h"
#include "src/base/clock.h"
#include "src/base/fdio.h"
#include "src/base/log.h"
#include "src/base/procstat.h"
#include "src/cmd/cmd.h"
#include "src/cmd/opt.h"

/* The header line, the format's version, is the reader's. */
#define SAMPLE_PROCSTAT_HEADER PARSE_PROCSTAT_HEADER "\n"

/*
 * One sample: read source, then the wall clock, and write one row with a
 * single write(2), so that a sampler killed mid-way leaves whole lines.
 * Returns 0, 1 when the source could not be read (warned once by the
 * caller), or a negative errno when the output cannot be written.
 */
static int sample_once(const char *source, int fd, struct err *err)
{
	struct procstat_cpu cpu;
	char row[512];
	int64_t now_us;
	int len, rc;

	if (procstat_read(source, "cpu", &cpu, err) < 0)
		return 1;
	now_us = clock_wall_us();
	len = snprintf(row, sizeof(row), "%lld.%03lld",
		       (long long)(now_us / 1000000),
		       (long long)(now_us % 1000000 / 1000));
	for (int i = 0; i < PROCSTAT_NR; i++)
		len += snprintf(row + len, sizeof(row) - (size_t)len, ",%llu",
				(unsigned long long)cpu.ticks[i]);
	row[len++] = '\n';
	rc = fdio_write_all(fd, row, (size_t)len);
	if (rc < 0)
		return err_set(err, rc, "cannot write a sample: %s",
			       strerror(-rc));
	return 0;
}

int cmd_sample_procstat(int argc, char **argv)
{
	static double interval_s = 1.0;
	static int count;
	static const char *out, *source = "/proc/stat";
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "interval", .short_name = 'i',
		  .kind = OPT_DOUBLE, .value = &interval_s, .arg_name = "S",
		  .help = "seconds between samples (default 1)",
		  .min = 0.01, .max = 3600 },
		{ .long_name = "count", .short_name = 'n', .kind = OPT_INT,
		  .value = &count, .arg_name = "N",
		  .help = "stop after N samples (default 0: until SIGTERM "
			  "or SIGINT)",
		  .min = 0, .max = 1000000000 },
		{ .long_name = "out", .short_name = 'o', .kind = OPT_STRING,
		  .value = &out, .arg_name = "FILE",
		  .help = "write the CSV to FILE (default: stdout)" },
		{ .long_name = "source", .kind = OPT_STRING, .value = &source,
		  .arg_name = "PATH",
		  .help = "read PATH instead of /proc/stat (for tests)" },
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "sample-procstat",
		.synopsis = "[options]",
		.summary =
			"Sample the \"cpu\" line of /proc/stat every --interval "
			"seconds: one CSV row\nper sample, the wall-clock time "
			"it was read (seconds since the epoch, 3\ndecimals) "
			"and the ten counters in USER_HZ ticks "
			"(user ... steal, guest,\nguest_nice; 0 for the columns "
			"an old kernel lacks). Runs until SIGTERM or\nSIGINT, "
			"then takes one last sample. The procstat hook runs it "
			"beside\nevery run; compare takes each block's steal "
			"share from it.",
		.opts = opts,
		.nopts = sizeof(opts) / sizeof(opts[0]),
		.min_args = 0,
		.max_args = 0,
	};
	struct err err = {""};
	struct procstat_cpu probe;
	sigset_t stop_set;
	siginfo_t info;
	int64_t period_us, next_us, now_us;
	int fd = STDOUT_FILENO, first, rc, taken = 0, status = 0;
	int unreadable = 0;

	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	/* A source that does not read now never will: say so at once. */
	if (procstat_read(source, "cpu", &probe, &err) < 0) {
		log_error("%s", err.msg);
		return EXIT_WORK_FAILED;
	}
	if (out) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			log_error("cannot create %s: %s", out, strerror(errno));
			return EXIT_WORK_FAILED;
		}
	}
	/*
	 * SIGTERM and SIGINT are blocked and waited for with the timeout of
	 * the next tick, so a stop is seen at once and never interrupts a
	 * half-written row.
	 */
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGINT);
	sigprocmask(SIG_BLOCK, &stop_set, NULL);

	rc = fdio_write_all(fd, SAMPLE_PROCSTAT_HEADER,
			    strlen(SAMPLE_PROCSTAT_HEADER));
	if (rc < 0) {
		log_error("cannot write the header: %s", strerror(-rc));
		status = EXIT_WORK_FAILED;
		goto out;
	}
	period_us = (int64_t)llround(interval_s * 1e6);
	next_us = clock_mono_us();
	for (;;) {
		struct timespec wait;
		bool stop = false;

		rc = sample_once(source, fd, &err);
		if (rc < 0) {
			log_error("%s", err.msg);
			status = EXIT_WORK_FAILED;
			break;
		}
		if (rc == 1 && !unreadable++)
			log_warn("%s (sample skipped; warned once)", err.msg);
		if (++taken == count)
			break;
		now_us = clock_mono_us();
		next_us += period_us;
		/* A late wake-up: skip the ticks already past. */
		if (next_us <= now_us)
			next_us += ((now_us - next_us) / period_us + 1) *
				   period_us;
		while (!stop) {
			now_us = clock_mono_us();
			if (now_us >= next_us)
				break;
			wait.tv_sec = (time_t)((next_us - now_us) / 1000000);
			wait.tv_nsec =
				(long)((next_us - now_us) % 1000000) * 1000;
			if (sigtimedwait(&stop_set, &info, &wait) > 0)
				stop = true;
		}
		if (stop) {
			/* One last sample closes the run's last second. */
			rc = sample_once(source, fd, &err);
			if (rc < 0) {
				log_error("%s", err.msg);
				status = EXIT_WORK_FAILED;
			}
			break;
		}
	}
out:
	if (fd != STDOUT_FILENO && close(fd) < 0 && status == 0) {
		log_error("cannot write %s: %s", out, strerror(errno));
		status = EXIT_WORK_FAILED;
	}
	return status;
}
