/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot.c - running gnuplot on plot scripts (see gnuplot.h).
 *
 * One gnuplot process draws both images of a plot: its working directory
 * is the plot directory, and the script is loaded twice, once after -e
 * setting the PNG terminal with the output /dev/fd/3, once after the SVG
 * terminal with the output /dev/fd/4. Those two descriptors are anonymous
 * memory files (memfd) of oltpmark: gnuplot exits 0 even when it cannot
 * write an output file of its own (a full disk leaves an empty or cut
 * image), so the bytes go through oltpmark, which copies each into an
 * atomic_file and sees each write's errno. One process rather than one
 * per image: a gnuplot start (its libraries, cairo's fonts) cost more
 * than the SVG's drawing, and make check draws thousands of images. Its
 * stderr goes to another memfd, read back for the error message: not to
 * the plot directory, whose disk may be full. An alarm() set before
 * exec() (it survives exec) bounds a stuck gnuplot.
 *
 * A batch (gnuplot_batch_draw) goes further: one process for up to
 * BATCH_MAX plots, plot i's images on descriptors 3 + 2i and 4 + 2i,
 * `reset session` between plots. The batch is all or nothing: any
 * failure (an exit status, an image empty or not of its kind) draws
 * each plot again alone, the path above, which names the failing one.
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
 * Start gp_prog with the arguments argv (argv[0] included, NULL-ended),
 * in directory dir (NULL: here), its stdout and stdin on /dev/null, its
 * stderr on err_fd (/dev/null when -1) and image_fd[k] as its descriptor
 * 3 + k for each k below nimage (each image_fd[k] is at 3 + nimage or
 * above: see image_memfd). Returns the child's pid, or -1 when it could
 * not be started.
 */
static pid_t spawn_gnuplot(const char *dir, char *const argv[], int err_fd,
			   const int *image_fd, size_t nimage)
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
		size_t k;

		/* dup2() clears O_CLOEXEC on the copies it makes; the
		   image descriptors are above their targets (image_memfd) */
		if (dup2(devnull, STDIN_FILENO) < 0 ||
		    dup2(devnull, STDOUT_FILENO) < 0 ||
		    dup2(err_fd >= 0 ? err_fd : devnull, STDERR_FILENO) < 0)
			_exit(127);
		for (k = 0; k < nimage; k++)
			if (dup2(image_fd[k], 3 + (int)k) < 0)
				_exit(127);
		alarm(GP_TIMEOUT_S);
		execv(gp_prog, argv);
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
	char *argv[] = {gp_prog, "-e", (char *)cmd, NULL};
	pid_t pid = spawn_gnuplot(NULL, argv, -1, NULL, 0);

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
 * Copy the image gnuplot left in the memory file image_fd into
 * dir/name.ext, through an atomic_file. 0, or the negative errno of
 * reading or writing (err set).
 */
static int copy_image(const char *dir, const char *name, const char *ext,
		      int image_fd, struct err *err)
{
	char buf[65536], file[300];
	struct atomic_file af;
	off_t off = 0;
	int rc;

	if (snprintf(file, sizeof(file), "%s.%s", name, ext) >=
	    (int)sizeof(file))
		return err_set(err, -ENAMETOOLONG, "plot %s: name too long",
			       name);
	rc = gnuplot_create(&af, dir, file, err);
	if (rc < 0)
		return rc;
	for (;;) {
		ssize_t n = pread(image_fd, buf, sizeof(buf), off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			err_set(err, rc,
				"plot %s: cannot read gnuplot's %s: %s", name,
				ext, strerror(-rc));
			return atomic_file_close(&af, rc, err);
		}
		if (n == 0)
			break;
		off += n;
		/* the stream keeps the first errno (atomic_file.c) */
		if (!af.error)
			fwrite(buf, 1, (size_t)n, af.f);
	}
	return atomic_file_close(&af, 0, err);
}

/* The size of the memory file fd, 0 when it cannot be known. */
static off_t image_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? st.st_size : 0;
}

/*
 * Draw dir/name.gp into the memory files image_fd[0] (PNG, terminal
 * png) and image_fd[1] (SVG, terminal svg) in one gnuplot process, its
 * stderr into log_fd (-1: discarded), then copy each into its file. 0,
 * GNUPLOT_EDRAW, or the negative errno of writing an image (see
 * gnuplot_render()). When gnuplot failed after the PNG was drawn (the
 * SVG's pass failed), the PNG is kept, as when each had its own process.
 */
static int render_images(const char *dir, const char *name, const char *png,
			 const char *svg, const int *image_fd, int log_fd,
			 struct err *err)
{
	char png_cmd[512], svg_cmd[512], script[300];
	char *argv[] = {gp_prog, "-e",	 png_cmd, script,	"-e",
			svg_cmd, script, "-e",	  "set output", NULL};
	int rc, status;
	off_t png_bytes, svg_bytes;
	pid_t pid;

	/* "set output" closes the PNG (cairo writes it then) before the
	   SVG's pass begins */
	if (snprintf(png_cmd, sizeof(png_cmd), "%s; set output '/dev/fd/3'",
		     png) >= (int)sizeof(png_cmd) ||
	    snprintf(svg_cmd, sizeof(svg_cmd),
		     "set output; %s; set output '/dev/fd/4'",
		     svg) >= (int)sizeof(svg_cmd) ||
	    snprintf(script, sizeof(script), "%s.gp", name) >=
		    (int)sizeof(script))
		return err_set(err, -ENAMETOOLONG, "plot %s: name too long",
			       name);
	if (log_fd >= 0 &&
	    (ftruncate(log_fd, 0) < 0 || lseek(log_fd, 0, SEEK_SET) < 0))
		log_fd = -1;
	pid = spawn_gnuplot(dir, argv, log_fd, image_fd, 2);
	if (pid < 0) {
		rc = -errno;
		return err_set(err, GNUPLOT_EDRAW,
			       "plot %s: cannot start %s: %s", name, gp_prog,
			       strerror(-rc));
	}
	status = wait_gnuplot(pid);
	png_bytes = image_size(image_fd[0]);
	svg_bytes = image_size(image_fd[1]);
	if (png_bytes == 0)
		return log_error(log_fd, name, "png",
				 status == 0 ? "wrote no image" : "failed",
				 status < 0 ? "killed (timed out?)" : NULL,
				 err);
	rc = copy_image(dir, name, "png", image_fd[0], err);
	if (rc < 0)
		return rc;
	if (status != 0 || svg_bytes == 0)
		return log_error(log_fd, name, "svg",
				 status == 0 ? "wrote no image" : "failed",
				 status < 0 ? "killed (timed out?)" : NULL,
				 err);
	return copy_image(dir, name, "svg", image_fd[1], err);
}

/*
 * A memory file for an image, at descriptor min_fd or above: the child
 * puts n images on descriptors 3 to 2 + n (spawn_gnuplot), and with
 * every image above them no dup2() there overwrites an image not yet
 * placed.
 */
static int image_memfd(const char *what, int min_fd)
{
	int fd = memfd_create(what, MFD_CLOEXEC), high;

	if (fd < 0 || fd >= min_fd)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, min_fd);
	close(fd);
	return high;
}

/*
 * The terminal settings of a width x height plot (0: GP_WIDTH x
 * GP_HEIGHT) into png and svg, each TERM_CMD_LEN long.
 */
#define TERM_CMD_LEN 256
static void terminals(int width, int height, char *png, char *svg)
{
	if (width <= 0)
		width = GP_WIDTH;
	if (height <= 0)
		height = GP_HEIGHT;
	/* one font for both images: the SVG is the PNG, sharper */
	snprintf(png, TERM_CMD_LEN,
		 "set terminal %s size %d,%d noenhanced font '%s'", png_term,
		 width, height, GP_FONT);
	snprintf(svg, TERM_CMD_LEN,
		 "set terminal svg size %d,%d noenhanced font '%s' "
		 "background '#ffffff'",
		 width, height, GP_FONT);
}

int gnuplot_render(const char *dir, const char *name, int width, int height,
		   struct err *err)
{
	char png[TERM_CMD_LEN], svg[TERM_CMD_LEN];
	int image_fd[2], log_fd, rc;

	if (!gnuplot_available(NULL, 0))
		return err_set(err, -ENOENT, "plot %s: %s", name, probe_why);
	terminals(width, height, png, svg);
	image_fd[0] = image_memfd("oltpmark-gnuplot-png", 5);
	image_fd[1] = image_memfd("oltpmark-gnuplot-svg", 5);
	if (image_fd[0] < 0 || image_fd[1] < 0) {
		rc = -errno;
		if (image_fd[0] >= 0)
			close(image_fd[0]);
		if (image_fd[1] >= 0)
			close(image_fd[1]);
		return err_set(err, rc,
			       "plot %s: cannot make a memory file: %s", name,
			       strerror(-rc));
	}
	/* without a memfd the message only lacks gnuplot's words */
	log_fd = memfd_create("oltpmark-gnuplot-stderr", MFD_CLOEXEC);
	rc = render_images(dir, name, png, svg, image_fd, log_fd, err);
	if (log_fd >= 0)
		close(log_fd);
	close(image_fd[0]);
	close(image_fd[1]);
	return rc;
}

void gnuplot_batch_init(struct gnuplot_batch *b, const char *dir)
{
	memset(b, 0, sizeof(*b));
	b->dir = dir;
}

int gnuplot_batch_add(struct gnuplot_batch *b, const char *name, int width,
		      int height, struct err *err)
{
	struct gnuplot_job *job;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct gnuplot_job *jobs =
			realloc(b->jobs, cap * sizeof(*jobs));

		if (!jobs)
			return err_set(err, -ENOMEM, "out of memory");
		b->jobs = jobs;
		b->cap = cap;
	}
	job = &b->jobs[b->n];
	memset(job, 0, sizeof(*job));
	if (snprintf(job->name, sizeof(job->name), "%s", name) >=
	    (int)sizeof(job->name))
		return err_set(err, -ENAMETOOLONG, "plot %s: name too long",
			       name);
	job->width = width;
	job->height = height;
	b->n++;
	return 0;
}

void gnuplot_batch_free(struct gnuplot_batch *b)
{
	free(b->jobs);
	b->jobs = NULL;
	b->n = b->cap = 0;
}

/*
 * Whether the memory file fd begins as a PNG (png) or an SVG does: a
 * command line that went wrong in gnuplot (a terminal left unset) is
 * seen, not written as a picture of the wrong kind.
 */
static bool image_looks_right(int fd, bool png)
{
	static const char png_magic[] = "\x89PNG\r\n\x1a\n";
	char head[8];

	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head))
		return false;
	if (png)
		return memcmp(head, png_magic, sizeof(head)) == 0;
	return memcmp(head, "<?xml", 5) == 0 || memcmp(head, "<svg", 4) == 0;
}

/* The arguments of one job on a batch's command line: -e "reset
   session" -e PNG SCRIPT -e SVG SCRIPT -e "set output". */
#define JOB_ARGS 10
/* Jobs drawn by one gnuplot: 4 descriptors each here and in the child
   (their images at 3 + 2 * n and above, then at 3 to 2 + 2 * n), well
   within any open-file limit. */
#define BATCH_MAX 32

/*
 * Draw jobs[0..n-1] of dir in one gnuplot process, job i's images into
 * image_fd[2 * i] (PNG) and image_fd[2 * i + 1] (SVG). true when gnuplot
 * exited 0 and left every image non-empty; false for anything else, the
 * caller then drawing each plot alone, which says which failed and why.
 */
static bool draw_batch(const char *dir, const struct gnuplot_job *jobs,
		       size_t n, const int *image_fd)
{
	char cmds[2 * BATCH_MAX][TERM_CMD_LEN + 64];
	char scripts[BATCH_MAX][sizeof(jobs[0].name) + 4];
	char *argv[2 + JOB_ARGS * BATCH_MAX];
	size_t i, a = 0;
	pid_t pid;

	argv[a++] = gp_prog;
	for (i = 0; i < n; i++) {
		char png[TERM_CMD_LEN], svg[TERM_CMD_LEN];

		terminals(jobs[i].width, jobs[i].height, png, svg);
		/* each plot as in a gnuplot of its own: reset session undoes
		   the settings and variables of the plot before (not the
		   terminal, set anew); "set output" closes each image.
		   reset session takes a command line of its own: gnuplot
		   5.4 ignores what follows it on the line. */
		if (i) {
			argv[a++] = "-e";
			argv[a++] = "reset session";
		}
		snprintf(cmds[2 * i], sizeof(cmds[0]),
			 "%s; set output '/dev/fd/%zu'", png, 3 + 2 * i);
		snprintf(cmds[2 * i + 1], sizeof(cmds[0]),
			 "set output; %s; set output '/dev/fd/%zu'", svg,
			 4 + 2 * i);
		snprintf(scripts[i], sizeof(scripts[0]), "%s.gp", jobs[i].name);
		argv[a++] = "-e";
		argv[a++] = cmds[2 * i];
		argv[a++] = scripts[i];
		argv[a++] = "-e";
		argv[a++] = cmds[2 * i + 1];
		argv[a++] = scripts[i];
		argv[a++] = "-e";
		argv[a++] = "set output";
	}
	argv[a] = NULL;
	pid = spawn_gnuplot(dir, argv, -1, image_fd, 2 * n);
	if (pid < 0 || wait_gnuplot(pid) != 0)
		return false;
	for (i = 0; i < 2 * n; i++)
		if (!image_looks_right(image_fd[i], i % 2 == 0))
			return false;
	return true;
}

/*
 * The images of jobs[0..n-1], drawn by draw_batch into image_fd, copied
 * into their files; each job's rc set. false when one could not be
 * written (that job's rc and err say why).
 */
static bool copy_batch(const char *dir, struct gnuplot_job *jobs, size_t n,
		       const int *image_fd)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct gnuplot_job *job = &jobs[i];

		job->rc = copy_image(dir, job->name, "png", image_fd[2 * i],
				     &job->err);
		if (job->rc == 0)
			job->rc = copy_image(dir, job->name, "svg",
					     image_fd[2 * i + 1], &job->err);
		if (job->rc < 0)
			return false;
	}
	return true;
}

/*
 * Draw jobs[0..n-1] (n at most BATCH_MAX) in one gnuplot when they can
 * be, else each alone (gnuplot_render). false when an image could not
 * be written: the caller stops there.
 */
static bool draw_chunk(const char *dir, struct gnuplot_job *jobs, size_t n)
{
	int image_fd[2 * BATCH_MAX];
	size_t i, made = 0;
	bool drawn = false, ok = true;

	if (n > 1) {
		for (; made < 2 * n; made++) {
			image_fd[made] =
				image_memfd("oltpmark-gnuplot", 3 + 2 * (int)n);
			if (image_fd[made] < 0)
				break;
		}
		if (made == 2 * n && draw_batch(dir, jobs, n, image_fd)) {
			drawn = true;
			ok = copy_batch(dir, jobs, n, image_fd);
		}
		for (i = 0; i < made; i++)
			close(image_fd[i]);
	}
	for (i = 0; !drawn && i < n; i++) {
		struct gnuplot_job *job = &jobs[i];

		job->rc = gnuplot_render(dir, job->name, job->width,
					 job->height, &job->err);
		if (job->rc < 0 && job->rc != -ENOENT &&
		    job->rc != GNUPLOT_EDRAW)
			return false;
	}
	return ok;
}

void gnuplot_batch_draw(struct gnuplot_batch *b)
{
	size_t i, chunk;

	for (i = 0; i < b->n; i++) {
		b->jobs[i].rc = -ECANCELED;
		err_set(&b->jobs[i].err, -ECANCELED,
			"plot %s: not drawn: an image before it could not be "
			"written",
			b->jobs[i].name);
	}
	if (!gnuplot_available(NULL, 0)) {
		for (i = 0; i < b->n; i++)
			b->jobs[i].rc =
				err_set(&b->jobs[i].err, -ENOENT, "plot %s: %s",
					b->jobs[i].name, probe_why);
		return;
	}
	for (i = 0; i < b->n; i += chunk) {
		chunk = b->n - i < BATCH_MAX ? b->n - i : BATCH_MAX;
		if (!draw_chunk(b->dir, b->jobs + i, chunk))
			return;
	}
}
