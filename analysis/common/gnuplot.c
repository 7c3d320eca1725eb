/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot.c - running gnuplot on plot scripts (see gnuplot.h).
 *
 * gnuplot runs in a child process whose working directory is the plot
 * directory, with the terminal given by -e before the script and no
 * output file: it writes the image to its stdout, a pipe that the parent
 * copies into an atomic_file. gnuplot exits 0 even when it cannot write
 * an output file of its own (a full disk leaves an empty or cut image),
 * so the bytes go through oltpmark, which sees each write's errno. Its
 * stderr goes to an anonymous memory file (memfd), read back for the
 * error message: not to the plot directory, whose disk may be full. An
 * alarm() set before exec() (it survives exec) bounds a stuck gnuplot.
 */
#include "analysis/common/gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
 * Start gp_prog with "-e" cmd and optionally a script, in directory dir,
 * its stdout on out_fd and its stderr on err_fd (/dev/null when -1).
 * Returns the child's pid, or -1 when it could not be started.
 */
static pid_t spawn_gnuplot(const char *dir, const char *cmd, const char *script,
			   int out_fd, int err_fd)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid != 0)
		return pid;
	{
		int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (devnull < 0 || (dir && chdir(dir) < 0))
			_exit(127);
		/* dup2() clears O_CLOEXEC on the copies it makes */
		if (dup2(devnull, STDIN_FILENO) < 0 ||
		    dup2(out_fd >= 0 ? out_fd : devnull, STDOUT_FILENO) < 0 ||
		    dup2(err_fd >= 0 ? err_fd : devnull, STDERR_FILENO) < 0)
			_exit(127);
		alarm(GP_TIMEOUT_S);
		if (script)
			execl(gp_prog, gp_prog, "-e", cmd, script,
			      (char *)NULL);
		else
			execl(gp_prog, gp_prog, "-e", cmd, (char *)NULL);
		_exit(127);
	}
}

/* Wait for a spawn_gnuplot() child: its exit status, or -1 if killed. */
static int wait_gnuplot(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Run gnuplot with cmd only, output discarded: its exit status or -1. */
static int try_gnuplot(const char *cmd)
{
	pid_t pid = spawn_gnuplot(NULL, cmd, NULL, -1, -1);

	return pid < 0 ? -1 : wait_gnuplot(pid);
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
		} else if (try_gnuplot("set terminal pngcairo") == 0) {
			png_term = "pngcairo";
			probed = 1;
		} else if (try_gnuplot("set terminal png") == 0) {
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

int gnuplot_create(struct atomic_file *af, const char *dir, const char *file,
		   struct err *err)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s/%s: path too long", dir,
			       file);
	return atomic_file_open(af, path, err);
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
	/* the sizes and why: gnuplot.h, over GP_WIDTH */
	fprintf(f,
		"# written by oltpmark; render with e.g.\n"
		"#   gnuplot -e \"set terminal svg size %d,%d font '%s'; "
		"set output 'x.svg'\" x.gp\n"
		"# fonts: %d pt for tics, key and axis labels, %d pt for the "
		"title,\n# readable where the page shows the image\n"
		"set tics font ',%d'\n"
		"set key outside right top font ',%d'\n",
		GP_WIDTH, GP_HEIGHT, GP_FONT, GP_FONT_PT, GP_TITLE_PT,
		GP_FONT_PT, GP_FONT_PT);
	fputs("set datafile separator ','\n"
	      "set datafile missing ''\n"
	      "set grid lc rgb '#dddddd'\n"
	      "set border 3\n"
	      "set tics nomirror\n"
	      "set style fill solid 0.6 noborder\n",
	      f);
	if (title) {
		fputs("set title ", f);
		gnuplot_quote(f, title);
		fprintf(f, " font ',%d'\n", GP_TITLE_PT);
	}
	if (xlabel) {
		fputs("set xlabel ", f);
		gnuplot_quote(f, xlabel);
		fprintf(f, " font ',%d'\n", GP_FONT_PT);
	}
	if (ylabel) {
		fputs("set ylabel ", f);
		gnuplot_quote(f, ylabel);
		fprintf(f, " font ',%d'\n", GP_FONT_PT);
	}
}

/*
 * "plot NAME: gnuplot EXT HOW: LINE" into err, LINE being gnuplot's
 * first error line from its stderr in log_fd (-1: none kept), else
 * fallback (may be NULL). Returns GNUPLOT_EDRAW.
 */
static int log_error(int log_fd, const char *name, const char *ext,
		     const char *how, const char *fallback, struct err *err)
{
	char text[4096], line[256] = "";
	ssize_t n = log_fd >= 0 ? pread(log_fd, text, sizeof(text) - 1, 0) : -1;
	char *p, *next;

	text[n > 0 ? n : 0] = '\0';
	for (p = text; *p; p = next) {
		size_t len = strcspn(p, "\n");

		next = p[len] ? p + len + 1 : p + len;
		p[len] = '\0';
		/* gnuplot echoes the command and a caret line first */
		if (strstr(p, "line ") || strstr(p, "error") ||
		    strstr(p, "warning")) {
			snprintf(line, sizeof(line), "%.255s", p);
			break;
		}
		if (!line[0] && len > 0)
			snprintf(line, sizeof(line), "%.255s", p);
	}
	if (!line[0] && fallback)
		snprintf(line, sizeof(line), "%s", fallback);
	return err_set(err, GNUPLOT_EDRAW, "plot %s: gnuplot %s %s%s%s", name,
		       ext, how, line[0] ? ": " : "", line);
}

/*
 * Copy everything gnuplot writes on the pipe in_fd into af, and reap it.
 * The pipe is drained to its end even after a write failed, so gnuplot
 * finishes on its own rather than dying of SIGPIPE halfway. *bytes is
 * what was read, *read_errno the errno of a failed read of the pipe (0
 * if none). Returns gnuplot's exit status, -1 if it was killed.
 */
static int copy_output(pid_t pid, int in_fd, struct atomic_file *af,
		       size_t *bytes, int *read_errno)
{
	char buf[65536];

	*bytes = 0;
	*read_errno = 0;
	for (;;) {
		ssize_t n = read(in_fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			*read_errno = errno;
		if (n <= 0)
			break;
		*bytes += (size_t)n;
		/* the stream keeps the first errno (atomic_file.c) */
		if (!af->error)
			fwrite(buf, 1, (size_t)n, af->f);
	}
	return wait_gnuplot(pid);
}

/*
 * Render one image, dir/name.ext, with the terminal setting term, its
 * stderr into log_fd (-1: discarded). 0, GNUPLOT_EDRAW, or the negative
 * errno of writing the image (see gnuplot_render()).
 */
static int render_one(const char *dir, const char *name, const char *ext,
		      const char *term, int log_fd, struct err *err)
{
	char cmd[512], file[300], script[300];
	struct atomic_file af;
	int pipe_fd[2], rc, status, read_errno;
	size_t bytes;
	pid_t pid;

	/* no "set output" file: the image goes to stdout */
	if (snprintf(cmd, sizeof(cmd), "%s; set output", term) >=
		    (int)sizeof(cmd) ||
	    snprintf(file, sizeof(file), "%s.%s", name, ext) >=
		    (int)sizeof(file) ||
	    snprintf(script, sizeof(script), "%s.gp", name) >=
		    (int)sizeof(script))
		return err_set(err, -ENAMETOOLONG, "plot %s: name too long",
			       name);
	rc = gnuplot_create(&af, dir, file, err);
	if (rc < 0)
		return rc;
	if (log_fd >= 0 &&
	    (ftruncate(log_fd, 0) < 0 || lseek(log_fd, 0, SEEK_SET) < 0))
		log_fd = -1;
	if (pipe2(pipe_fd, O_CLOEXEC) < 0) {
		rc = -errno;
		atomic_file_abort(&af);
		return err_set(err, rc, "plot %s: cannot make a pipe: %s", name,
			       strerror(-rc));
	}
	pid = spawn_gnuplot(dir, cmd, script, pipe_fd[1], log_fd);
	rc = pid < 0 ? -errno : 0;
	/* the child holds the write end now; EOF comes when it exits */
	close(pipe_fd[1]);
	if (pid < 0) {
		close(pipe_fd[0]);
		atomic_file_abort(&af);
		return err_set(err, GNUPLOT_EDRAW,
			       "plot %s: cannot start %s: %s", name, gp_prog,
			       strerror(-rc));
	}
	status = copy_output(pid, pipe_fd[0], &af, &bytes, &read_errno);
	close(pipe_fd[0]);
	if (af.error)
		/* a write failed: that is the cause, whatever gnuplot did */
		return atomic_file_close(&af, 0, err);
	if (read_errno) {
		rc = -read_errno;
		err_set(err, rc, "plot %s: cannot read gnuplot's %s: %s", name,
			ext, strerror(-rc));
		return atomic_file_close(&af, rc, err);
	}
	if (status != 0 || bytes == 0) {
		atomic_file_abort(&af);
		if (status == 0)
			return log_error(log_fd, name, ext, "wrote no image",
					 NULL, err);
		return log_error(log_fd, name, ext, "failed",
				 status < 0 ? "killed (timed out?)" : NULL,
				 err);
	}
	return atomic_file_close(&af, 0, err);
}

int gnuplot_render(const char *dir, const char *name, int width, int height,
		   struct err *err)
{
	char png[256], svg[256];
	int log_fd, rc;

	if (!gnuplot_available(NULL, 0))
		return err_set(err, -ENOENT, "plot %s: %s", name, probe_why);
	if (width <= 0)
		width = GP_WIDTH;
	if (height <= 0)
		height = GP_HEIGHT;
	/* one font for both images: the SVG is the PNG, sharper */
	snprintf(png, sizeof(png),
		 "set terminal %s size %d,%d noenhanced font '%s'", png_term,
		 width, height, GP_FONT);
	snprintf(svg, sizeof(svg),
		 "set terminal svg size %d,%d noenhanced font '%s' "
		 "background '#ffffff'",
		 width, height, GP_FONT);
	/* without a memfd the message only lacks gnuplot's words */
	log_fd = memfd_create("oltpmark-gnuplot-stderr", MFD_CLOEXEC);
	rc = render_one(dir, name, "png", png, log_fd, err);
	if (rc == 0)
		rc = render_one(dir, name, "svg", svg, log_fd, err);
	if (log_fd >= 0)
		close(log_fd);
	return rc;
}
