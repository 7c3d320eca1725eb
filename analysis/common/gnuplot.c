/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot.c - running gnuplot on plot scripts (see gnuplot.h).
 *
 * gnuplot runs in a child process whose working directory is the plot
 * directory, with the terminal and output given by -e before the script,
 * its stdout discarded and its stderr in a log file that is read back
 * for the error message. An alarm() set before exec() (it survives
 * exec) bounds a stuck gnuplot.
 */
#include "analysis/common/gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int probed;	       /* 0 not yet, 1 usable, -1 not */
static char probe_why[256];    /* reason when not usable */
static char gp_prog[PATH_MAX]; /* program path */
static const char *png_term = "png";

static const char *program(void)
{
	const char *env = getenv("OLTPMARK_GNUPLOT");

	return env && env[0] ? env : "gnuplot";
}

/* Find prog on PATH (or as given when it holds a '/') into gp_prog. */
static bool find_program(const char *prog)
{
	const char *path = getenv("PATH"), *p, *colon;

	if (strchr(prog, '/')) {
		snprintf(gp_prog, sizeof(gp_prog), "%s", prog);
		return access(gp_prog, X_OK) == 0;
	}
	if (!path)
		path = "/usr/bin:/bin";
	for (p = path; *p; p = colon + 1) {
		size_t len;

		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		len = (size_t)(colon - p);
		if (len == 0)
			snprintf(gp_prog, sizeof(gp_prog), "./%s", prog);
		else
			snprintf(gp_prog, sizeof(gp_prog), "%.*s/%s", (int)len,
				 p, prog);
		if (access(gp_prog, X_OK) == 0)
			return true;
		if (!*colon)
			break;
	}
	return false;
}

/*
 * Run gp_prog with "-e" cmd and optionally a script, in directory dir,
 * stderr into log (or /dev/null when NULL). Returns the exit status, or
 * -1 when it could not run or was killed.
 */
static int run_gnuplot(const char *dir, const char *cmd, const char *script,
		       const char *log)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
		int errfd = log ? open(log,
				       O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				       0644)
				: devnull;

		if (devnull < 0 || errfd < 0 || (dir && chdir(dir) < 0))
			_exit(127);
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		dup2(errfd, STDERR_FILENO);
		alarm(GP_TIMEOUT_S);
		if (script)
			execl(gp_prog, gp_prog, "-e", cmd, script,
			      (char *)NULL);
		else
			execl(gp_prog, gp_prog, "-e", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

bool gnuplot_available(char *why, size_t why_size)
{
	if (!probed) {
		const char *prog = program();

		probed = -1;
		if (!find_program(prog)) {
			snprintf(probe_why, sizeof(probe_why),
				 "%.180s not found on PATH (Debian package "
				 "gnuplot-nox)",
				 prog);
		} else if (run_gnuplot(NULL, "set terminal pngcairo", NULL,
				       NULL) == 0) {
			png_term = "pngcairo";
			probed = 1;
		} else if (run_gnuplot(NULL, "set terminal png", NULL, NULL) ==
			   0) {
			png_term = "png";
			probed = 1;
		} else {
			snprintf(
				probe_why, sizeof(probe_why),
				"%.180s cannot write PNG (neither the pngcairo "
				"nor the png terminal works)",
				gp_prog);
		}
	}
	if (probed < 0 && why && why_size)
		snprintf(why, why_size, "%s", probe_why);
	return probed > 0;
}

FILE *gnuplot_create(const char *dir, const char *file, struct err *err)
{
	char path[PATH_MAX];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    (int)sizeof(path)) {
		err_set(err, -ENAMETOOLONG, "%s/%s: path too long", dir, file);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		err_set(err, -errno, "%s: %s", path, strerror(errno));
	return f;
}

void gnuplot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

void gnuplot_preamble(FILE *f, const char *title, const char *xlabel,
		      const char *ylabel)
{
	fputs("# written by oltpmark; render with e.g.\n"
	      "#   gnuplot -e \"set terminal svg; set output 'x.svg'\" "
	      "x.gp\n"
	      "set datafile separator ','\n"
	      "set datafile missing ''\n"
	      "set grid lc rgb '#dddddd'\n"
	      "set key outside right top\n"
	      "set border 3\n"
	      "set tics nomirror\n"
	      "set style fill solid 0.6 noborder\n",
	      f);
	if (title) {
		fputs("set title ", f);
		gnuplot_quote(f, title);
		fputc('\n', f);
	}
	if (xlabel) {
		fputs("set xlabel ", f);
		gnuplot_quote(f, xlabel);
		fputc('\n', f);
	}
	if (ylabel) {
		fputs("set ylabel ", f);
		gnuplot_quote(f, ylabel);
		fputc('\n', f);
	}
}

/* First non-empty line of a log file into err, for the message. */
static int log_error(const char *log, const char *name, const char *what,
		     struct err *err)
{
	char line[256] = "", buf[256];
	FILE *f = fopen(log, "r");

	while (f && fgets(buf, sizeof(buf), f)) {
		size_t n = strcspn(buf, "\n");

		buf[n] = '\0';
		/* gnuplot echoes the command and a caret line first */
		if (strstr(buf, "line ") || strstr(buf, "error") ||
		    strstr(buf, "warning")) {
			snprintf(line, sizeof(line), "%s", buf);
			break;
		}
		if (!line[0] && n > 0)
			snprintf(line, sizeof(line), "%s", buf);
	}
	if (f)
		fclose(f);
	return err_set(err, -EIO, "plot %s: gnuplot %s failed%s%s", name, what,
		       line[0] ? ": " : "", line);
}

int gnuplot_render(const char *dir, const char *name, int width, int height,
		   struct err *err)
{
	static const char *const exts[] = {"png", "svg"};
	char cmd[512], script[300], log[PATH_MAX], tmp[PATH_MAX], out[PATH_MAX];
	size_t i;

	if (!gnuplot_available(NULL, 0))
		return err_set(err, -ENOENT, "plot %s: %s", name, probe_why);
	if (width <= 0)
		width = GP_WIDTH;
	if (height <= 0)
		height = GP_HEIGHT;
	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(log, sizeof(log), "%s/.%s.log", dir, name);
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		const char *ext = exts[i];
		int rc;

		if (strcmp(ext, "png") == 0)
			snprintf(cmd, sizeof(cmd),
				 "set terminal %s size %d,%d noenhanced "
				 "font 'sans,9'; set output '.%s.%s.tmp'",
				 png_term, width, height, name, ext);
		else
			snprintf(cmd, sizeof(cmd),
				 "set terminal svg size %d,%d noenhanced "
				 "font 'sans,10' background '#ffffff'; "
				 "set output '.%s.%s.tmp'",
				 width, height, name, ext);
		snprintf(tmp, sizeof(tmp), "%s/.%s.%s.tmp", dir, name, ext);
		snprintf(out, sizeof(out), "%s/%s.%s", dir, name, ext);
		rc = run_gnuplot(dir, cmd, script, log);
		if (rc != 0) {
			log_error(log, name, ext, err);
			unlink(tmp);
			unlink(log);
			return -EIO;
		}
		if (rename(tmp, out) < 0) {
			rc = -errno;
			unlink(tmp);
			unlink(log);
			return err_set(err, rc, "%s: %s", out, strerror(-rc));
		}
	}
	unlink(log);
	return 0;
}
