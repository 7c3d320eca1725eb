/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocks_switch.c - the block switcher (see blocks_switch.h): sleeps on
 * the wall clock with ppoll(), which takes the signal mask in the same
 * call, so a SIGTERM blocked everywhere else is taken only while asleep
 * and never lost between the check of the flag and the sleep.
 */
#include "terminals/blocks_switch.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/base/blocks_format.h"
#include "src/base/clock.h"

#define SWITCH_ENV "OLTPMARK_VARIANT_SWITCH=1"

extern char **environ;

static volatile sig_atomic_t stopping; /* SIGTERM was taken */
static sigset_t sleep_mask;	       /* the mask while asleep: SIGTERM
					  open */
static bool term_caught;	       /* blocks_switch_catch_term() ran */

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

int blocks_switch_catch_term(struct err *err)
{
	struct sigaction sa = {0};
	sigset_t term;

	sa.sa_handler = on_term;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (sigaction(SIGTERM, &sa, NULL) < 0 ||
	    signal(SIGINT, SIG_IGN) == SIG_ERR ||
	    sigprocmask(SIG_BLOCK, &term, &sleep_mask) < 0)
		return err_set(err, -errno, "cannot set up signals: %s",
			       strerror(errno));
	sigdelset(&sleep_mask, SIGTERM);
	stopping = 0;
	term_caught = true;
	return 0;
}

/* Sleep until the wall clock reaches until_us, or until SIGTERM. */
static void sleep_until(int64_t until_us)
{
	for (;;) {
		int64_t now = clock_wall_us(), d;
		struct timespec ts;

		if (stopping)
			return;
		if (now >= until_us) {
			/* A SIGTERM that came while SIGTERM was blocked (a
			   switch running past the block's end) is taken
			   now, or the next block would begin after it. */
			if (term_caught) {
				struct timespec zero = {0, 0};

				ppoll(NULL, 0, &zero, &sleep_mask);
			}
			return;
		}
		d = until_us - now;
		ts.tv_sec = d / 1000000;
		ts.tv_nsec = (long)(d % 1000000) * 1000;
		ppoll(NULL, 0, &ts, term_caught ? &sleep_mask : NULL);
	}
}

/* "s.mmm" of microseconds, as blocks.csv writes times. */
static void secs(char *buf, size_t size, int64_t us)
{
	snprintf(buf, size, "%" PRId64 ".%03" PRId64, us / 1000000,
		 us % 1000000 / 1000);
}

/*
 * The command's argv with action appended, and environ with
 * SWITCH_ENV in place of any OLTPMARK_VARIANT_SWITCH, made before the
 * fork so the child only calls exec. 0 or -ENOMEM.
 */
static int make_exec(char *const *cmd, const char *action, char ***argv_out,
		     char ***envp_out)
{
	size_t n = 0, ne = 0, i, j = 0;
	char **argv, **envp;

	while (cmd[n])
		n++;
	while (environ && environ[ne])
		ne++;
	argv = calloc(n + 2, sizeof(*argv));
	envp = calloc(ne + 2, sizeof(*envp));
	if (!argv || !envp) {
		free(argv);
		free(envp);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		argv[i] = cmd[i];
	argv[n] = (char *)action;
	for (i = 0; i < ne; i++)
		if (strncmp(environ[i], "OLTPMARK_VARIANT_SWITCH=", 24) != 0)
			envp[j++] = environ[i];
	envp[j] = (char *)SWITCH_ENV;
	*argv_out = argv;
	*envp_out = envp;
	return 0;
}

/*
 * Run cmd action with its output appended to log_fd and wait for it.
 * Returns its exit status (128 + signal when killed, 127 when it could
 * not be executed), or negative errno with err set when it could not be
 * started.
 */
static int run_cmd(char *const *cmd, const char *action, int log_fd,
		   struct err *err)
{
	char **argv, **envp;
	int rc, wstatus, null_fd;
	pid_t pid;

	rc = make_exec(cmd, action, &argv, &envp);
	if (rc < 0)
		return err_set(err, rc, "out of memory");
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		free(argv);
		free(envp);
		return err_set(err, rc, "cannot start %s: %s", cmd[0],
			       strerror(-rc));
	}
	if (pid == 0) {
		/* SIGINT stays ignored, as it was for the runner's scripts */
		signal(SIGTERM, SIG_DFL);
		if (term_caught)
			sigprocmask(SIG_SETMASK, &sleep_mask, NULL);
		null_fd = open("/dev/null", O_RDONLY);
		if (null_fd >= 0 && null_fd != STDIN_FILENO)
			dup2(null_fd, STDIN_FILENO);
		dup2(log_fd, STDOUT_FILENO);
		dup2(log_fd, STDERR_FILENO);
		execvpe(argv[0], argv, envp);
		dprintf(STDERR_FILENO,
			"oltpmark blocks-switch: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	free(argv);
	free(envp);
	while (waitpid(pid, &wstatus, 0) < 0)
		if (errno != EINTR)
			return err_set(err, -errno, "waiting for %s: %s",
				       cmd[0], strerror(errno));
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

/* Whether the run beside us is still there (0: none to watch). */
static bool run_alive(pid_t pid)
{
	return pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH;
}

/* Write one whole line to f and push it to the file. 0 or -EIO. */
static int put_line(FILE *f, const char *line, const char *path,
		    struct err *err)
{
	if (fputs(line, f) == EOF || fflush(f) == EOF)
		return err_set(err, -EIO, "cannot write %s: %s", path,
			       strerror(errno));
	return 0;
}

int blocks_switch_run(const struct blocks_switch_opts *o,
		      struct blocks_switch_result *res, struct err *err)
{
	FILE *csv, *log = NULL;
	enum blocks_arm prev = BLOCKS_ARM_A;
	char line[BLOCKS_ROW_MAX + 64], when[32];
	int64_t b_start, now, switch_us;
	int rc = 0, status;
	size_t k;

	*res = (struct blocks_switch_result){0};
	if (o->block_us <= 0 || !o->cmd || !o->cmd[0])
		return err_set(err, -EINVAL, "no block length or command");
	csv = fopen(o->csv_path, "we");
	if (!csv)
		return err_set(err, -errno, "cannot create %s: %s", o->csv_path,
			       strerror(errno));
	rc = put_line(csv, BLOCKS_CSV_HEADER "\n", o->csv_path, err);
	if (rc < 0)
		goto out;
	sleep_until(o->start_us);
	b_start = clock_wall_us();
	for (k = 0; k < o->nblocks && !stopping; k++) {
		enum blocks_arm arm = blocks_format_arm(k);
		const char *action = arm == BLOCKS_ARM_B ? "apply" : "restore";

		if (!run_alive(o->pid)) {
			res->run_gone = true;
			break;
		}
		switch_us = 0;
		status = 0;
		if (arm != prev) {
			if (!log) {
				log = fopen(o->log_path, "ae");
				if (!log) {
					rc = err_set(err, -errno,
						     "cannot open %s: %s",
						     o->log_path,
						     strerror(errno));
					goto out;
				}
			}
			secs(when, sizeof(when), b_start);
			snprintf(line, sizeof(line), "%s block %zu: %s\n", when,
				 k, action);
			rc = put_line(log, line, o->log_path, err);
			if (rc < 0)
				goto out;
			/* OLTPMARK_VARIANT_SWITCH=1: a switch inside the run,
			   not the final restore (cpu-quota keeps its cgroup
			   between) */
			status = run_cmd(o->cmd, action, fileno(log), err);
			if (status < 0) {
				rc = status;
				goto out;
			}
			switch_us = clock_wall_us() - b_start;
			prev = arm;
		}
		if (status == 0)
			sleep_until(o->start_us +
				    (int64_t)(k + 1) * o->block_us);
		now = clock_wall_us();
		blocks_format_row(line, sizeof(line), k, b_start, now,
				  switch_us, status);
		rc = put_line(csv, line, o->csv_path, err);
		if (rc < 0)
			goto out;
		res->rows++;
		b_start = now;
		if (status != 0) {
			res->status = status;
			res->failed_block = k;
			res->failed_action = action;
			if (o->pid > 0)
				kill(o->pid, SIGINT);
			break;
		}
	}
	res->stopped = stopping;
out:
	if (log)
		fclose(log);
	if (fclose(csv) == EOF && rc == 0)
		rc = err_set(err, -EIO, "cannot write %s: %s", o->csv_path,
			     strerror(errno));
	return rc;
}
