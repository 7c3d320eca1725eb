/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iosim_files.c - drivers/iosim_files.h on small profiles in a
 * temporary directory: preparing creates files of the profile's sizes
 * filled with non-zero, distinct pages and leaves a prepared directory
 * alone; a bigger profile extends the files; opening checks that every
 * file is there and big enough; reads stay inside each relation; the
 * errors come as one clear line: not enough space, a missing parent, a
 * file in the way, a read-only file system, and O_DIRECT refused. A
 * table-layout profile prepared over two directories puts each file in
 * the directory of its tablespace, linked from the first, which opens
 * them all; a count of directories its layout does not take, and a
 * name in the way, are refused before anything is written.
 *
 * Whether a file system takes O_DIRECT depends on the kernel (tmpfs
 * takes it from Linux 6.6), so the tmpfs case asks the kernel first and
 * expects the same answer. The refused and read-only cases mount a
 * ramfs or a read-only tmpfs in a private mount namespace of a child
 * process (nothing is visible outside it, and it goes when the child
 * exits); without the privilege for that they are skipped, saying so.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/magic.h>

#include "drivers/iosim_files.h"
#include "tests/unit/fixture_util.h"

#define CHILD_SKIP 77 /* a child's exit: no privilege to mount */

static char root[256]; /* this test's temporary directory */

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_iosim_files") ? 0
									: -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* The valid fixture's profile with every relation of pages pages. */
static void small_profile(struct iosim_profile *p, int64_t pages)
{
	struct err err;
	int r;

	assert_int_equal(iosim_profile_read(
				 fixture_path("ioprofile-valid.json"), p, &err),
			 0);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		p->rel[r].pages = pages + r;
}

/* root/name in a static buffer. */
static const char *in_root(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return path;
}

static off_t file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void test_prepare_and_read(void **state)
{
	const char *dir = in_root("data");
	struct iosim_profile p;
	struct iosim_files f;
	struct err err = {""};
	char path[PATH_MAX], *a, *b;
	int r;

	(void)state;
	small_profile(&p, 3);
	/* the directory itself is created */
	assert_int_equal(iosim_files_prepare(dir, &p, 0, &err), 0);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		assert_int_equal(iosim_files_path(dir, r, path, sizeof(path)),
				 0);
		assert_int_equal(file_size(path), (3 + r) * 8192);
	}
	assert_int_equal(iosim_files_open(&f, dir, &p, false, &err), 0);
	a = iosim_files_alloc(8192);
	b = iosim_files_alloc(8192);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal((uintptr_t)a % IOSIM_FILES_ALIGN, 0);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		uint64_t pg;

		for (pg = 0; pg < f.pages[r]; pg++) {
			size_t i, zeros = 0;

			assert_int_equal(iosim_files_read(&f, r, pg, a, &err),
					 0);
			for (i = 0; i < 8192; i++)
				zeros += a[i] == 0;
			/* random bytes: about 32 zeros in 8 KiB, not more */
			assert_true(zeros < 200);
			if (pg > 0) {
				assert_int_equal(iosim_files_read(&f, r, pg - 1,
								  b, &err),
						 0);
				assert_memory_not_equal(a, b, 8192);
			}
		}
		/* past the relation's end */
		assert_int_equal(iosim_files_read(&f, r, f.pages[r], a, &err),
				 -ERANGE);
		assert_non_null(strstr(err.msg, "past its end"));
	}
	free(a);
	free(b);
	iosim_files_close(&f);
	iosim_files_close(&f);
}

static void test_prepare_again_and_grow(void **state)
{
	const char *dir = in_root("grow");
	struct iosim_profile p;
	struct err err;
	char path[PATH_MAX], mark[8] = "MARKMARK", back[8];
	int fd;

	(void)state;
	small_profile(&p, 2);
	assert_int_equal(iosim_files_prepare(dir, &p, 0, &err), 0);
	/* a mark in stock's first page: prepared files are left alone */
	assert_int_equal(iosim_files_path(dir, IOSIM_PROFILE_REL_STOCK, path,
					  sizeof(path)),
			 0);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, mark, 8, 100), 8);
	close(fd);
	assert_int_equal(iosim_files_prepare(dir, &p, 0, &err), 0);
	/* a bigger profile (more warehouses) extends the files */
	small_profile(&p, 5);
	assert_int_equal(iosim_files_prepare(dir, &p, 0, &err), 0);
	assert_int_equal(file_size(path), (5 + IOSIM_PROFILE_REL_STOCK) * 8192);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, back, 8, 100), 8);
	close(fd);
	assert_memory_equal(back, mark, 8);
}

static void test_open_errors(void **state)
{
	const char *dir = in_root("small");
	struct iosim_profile p;
	struct iosim_files f;
	struct err err;
	char path[PATH_MAX], want[PATH_MAX + 256];

	(void)state;
	small_profile(&p, 2);
	assert_int_equal(iosim_files_prepare(dir, &p, 0, &err), 0);
	/* a profile for more warehouses than the files hold */
	p.rel[IOSIM_PROFILE_REL_STOCK].pages = 50;
	assert_int_equal(iosim_files_open(&f, dir, &p, false, &err), -ERANGE);
	assert_int_equal(iosim_files_path(dir, IOSIM_PROFILE_REL_STOCK, path,
					  sizeof(path)),
			 0);
	snprintf(want, sizeof(want),
		 "%s: holds 10 pages, the profile needs 50: the data "
		 "directory was prepared for a smaller profile (fewer "
		 "warehouses); prepare it again",
		 path);
	assert_string_equal(err.msg, want);
	/* nothing was left open */
	for (int r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		assert_int_equal(f.fd[r], -1);
	/* a missing file */
	small_profile(&p, 2);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(iosim_files_open(&f, dir, &p, false, &err), -ENOENT);
	snprintf(want, sizeof(want),
		 "%s: missing: the data directory was not prepared for this "
		 "profile",
		 path);
	assert_string_equal(err.msg, want);
	/* a directory never prepared */
	assert_int_equal(
		iosim_files_open(&f, in_root("never"), &p, false, &err),
		-ENOENT);
}

static void test_prepare_errors(void **state)
{
	struct iosim_profile p;
	struct err err;
	struct stat st;
	char want[PATH_MAX + 256];

	(void)state;
	small_profile(&p, 2);
	/* more than any file system here has free: refused before writing */
	p.rel[IOSIM_PROFILE_REL_STOCK].pages = UINT32_MAX;
	assert_int_equal(iosim_files_prepare(in_root("huge"), &p, 0, &err),
			 -ENOSPC);
	snprintf(want, sizeof(want), "%s: the iosim files need ",
		 in_root("huge"));
	assert_memory_equal(err.msg, want, strlen(want));
	assert_non_null(strstr(err.msg, " MiB free"));
	/* the directory was made, but no file in it */
	assert_int_equal(stat(in_root("huge/warehouse"), &st), -1);
	/* the caller's extra bytes count too */
	small_profile(&p, 2);
	assert_int_equal(
		iosim_files_prepare(in_root("extra"), &p, UINT64_MAX / 2, &err),
		-ENOSPC);
	/* a missing parent: not created */
	assert_int_equal(iosim_files_prepare(in_root("no/such"), &p, 0, &err),
			 -ENOENT);
	snprintf(want, sizeof(want),
		 "cannot create %s: No such file or directory",
		 in_root("no/such"));
	assert_string_equal(err.msg, want);
	/* a file where the directory should be */
	fixture_write_file(root, "plain", "x");
	assert_int_equal(iosim_files_prepare(in_root("plain"), &p, 0, &err),
			 -ENOTDIR);
	snprintf(want, sizeof(want), "%s: not a directory", in_root("plain"));
	assert_string_equal(err.msg, want);
}

/* Whether the kernel takes O_DIRECT for a new file in dir. */
static bool kernel_takes_direct(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	assert_true(snprintf(path, sizeof(path), "%s/direct-probe", dir) <
		    (int)sizeof(path));
	fd = open(path, O_RDWR | O_CREAT | O_DIRECT, 0600);
	if (fd >= 0)
		close(fd);
	unlink(path);
	return fd >= 0;
}

/* The O_DIRECT message's start for dir. */
static void assert_no_direct_msg(const char *msg, const char *dir)
{
	char want[PATH_MAX + 64];

	snprintf(want, sizeof(want), "%s: the file system refuses O_DIRECT",
		 dir);
	if (strncmp(msg, want, strlen(want)) != 0)
		fail_msg("got '%s', want it to start with '%s'", msg, want);
}

/* Whether path is a link to target. */
static bool links_to(const char *path, const char *target)
{
	char got[PATH_MAX];
	ssize_t n = readlink(path, got, sizeof(got) - 1);

	if (n < 0)
		return false;
	got[n] = '\0';
	return strcmp(got, target) == 0;
}

static void test_prepare_dirs(void **state)
{
	struct iosim_profile p;
	struct iosim_files f;
	struct err err = {""};
	struct stat st;
	char d0[PATH_MAX], d1[PATH_MAX], d2[PATH_MAX], real1[PATH_MAX];
	char target[PATH_MAX + 16];
	const char *dirs[3];
	unsigned char page[IOSIM_PROFILE_PAGE_BYTES];
	int r;

	(void)state;
	small_profile(&p, 3);
	/* the table layout over two tablespaces: STOCK and its key on the
	   second, the rest on the first */
	p.layout.kind = IOSIM_PROFILE_LAYOUT_TABLE;
	p.layout.directories = 2;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		p.layout.placement[r] = 0;
	p.layout.placement[IOSIM_PROFILE_REL_STOCK] = 1;
	p.layout.placement[IOSIM_PROFILE_REL_STOCK_PKEY] = 1;
	snprintf(d0, sizeof(d0), "%s", in_root("ts-a"));
	snprintf(d1, sizeof(d1), "%s", in_root("ts-b"));
	snprintf(d2, sizeof(d2), "%s", in_root("ts-c"));
	dirs[0] = d0;
	dirs[1] = d1;
	dirs[2] = d2;
	assert_int_equal(iosim_files_dir_of(&p, 2, IOSIM_PROFILE_REL_STOCK), 1);
	assert_int_equal(iosim_files_dir_of(&p, 1, IOSIM_PROFILE_REL_STOCK), 0);
	assert_int_equal(iosim_files_dir_of(&p, 2, IOSIM_PROFILE_REL_ITEM), 0);
	assert_int_equal(iosim_files_prepare_dirs(dirs, 2, &p, 0, &err), 0);
	assert_non_null(realpath(d1, real1));
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		char in0[PATH_MAX], in1[PATH_MAX];
		bool second = p.layout.placement[r] == 1;

		assert_int_equal(iosim_files_path(d0, r, in0, sizeof(in0)), 0);
		assert_int_equal(iosim_files_path(d1, r, in1, sizeof(in1)), 0);
		assert_int_equal(lstat(in0, &st), 0);
		/* the second's files are there, linked from the first */
		assert_int_equal(S_ISLNK(st.st_mode), second);
		assert_int_equal(access(in1, F_OK) == 0, second);
		if (second) {
			snprintf(target, sizeof(target), "%s/%s", real1,
				 iosim_profile_rel_name(r));
			assert_true(links_to(in0, target));
			assert_int_equal(file_size(in1),
					 (p.rel[r].pages) *
						 IOSIM_PROFILE_PAGE_BYTES);
		}
	}
	/* the first directory opens them all, wherever they are */
	assert_int_equal(iosim_files_open(&f, d0, &p, false, &err), 0);
	assert_int_equal(
		iosim_files_read(
			&f, IOSIM_PROFILE_REL_STOCK,
			(uint64_t)p.rel[IOSIM_PROFILE_REL_STOCK].pages - 1,
			page, &err),
		0);
	iosim_files_close(&f);
	/* prepared again: nothing to do, the links stay */
	assert_int_equal(iosim_files_prepare_dirs(dirs, 2, &p, 0, &err), 0);
	/* as many directories as the calibration's, or one */
	assert_int_equal(iosim_files_prepare_dirs(dirs, 3, &p, 0, &err),
			 -EINVAL);
	assert_string_equal(err.msg,
			    "3 data directories for a profile of 2: give "
			    "one, or one per directory of the calibration, "
			    "in its order");
	assert_int_equal(access(d2, F_OK), -1);
	p.layout.kind = IOSIM_PROFILE_LAYOUT_WAREHOUSE;
	assert_int_equal(iosim_files_prepare_dirs(dirs, 2, &p, 0, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "the profile's layout is warehouse"));
	p.layout.kind = IOSIM_PROFILE_LAYOUT_TABLE;
	/* a directory prepared as one, then as two: its stock is a file
	   where the link would go, and nothing is replaced or written */
	dirs[0] = d2;
	assert_int_equal(iosim_files_prepare_dirs(dirs, 1, &p, 0, &err), 0);
	assert_int_equal(rename(d1, in_root("ts-b-old")), 0);
	assert_int_equal(iosim_files_prepare_dirs(dirs, 2, &p, 0, &err),
			 -EEXIST);
	assert_non_null(strstr(err.msg, "/ts-c/stock: already there, but the "
					"profile puts stock in "));
	assert_int_equal(access(in_root("ts-b/stock"), F_OK), -1);
	/* and the other way round: a link where a file belongs */
	dirs[0] = d0;
	p.layout.placement[IOSIM_PROFILE_REL_STOCK] = 0;
	assert_int_equal(iosim_files_prepare_dirs(dirs, 2, &p, 0, &err),
			 -EEXIST);
	assert_non_null(strstr(err.msg, "/ts-a/stock: already there, but the "
					"profile puts stock in this "
					"directory"));
}

static void test_direct_here(void **state)
{
	const char *dir = in_root("direct");
	struct iosim_profile p;
	struct iosim_files f;
	struct err err;
	char *buf;
	int rc;

	(void)state;
	small_profile(&p, 2);
	assert_int_equal(iosim_files_prepare(dir, &p, 0, &err), 0);
	rc = iosim_files_open(&f, dir, &p, true, &err);
	if (!kernel_takes_direct(dir)) {
		assert_int_equal(rc, -EINVAL);
		assert_no_direct_msg(err.msg, dir);
		return;
	}
	assert_int_equal(rc, 0);
	assert_true(f.direct);
	buf = iosim_files_alloc(8192);
	assert_int_equal(
		iosim_files_read(&f, IOSIM_PROFILE_REL_STOCK, 1, buf, &err), 0);
	/* O_DIRECT wants an aligned buffer: a misaligned one is refused */
	assert_int_equal(
		iosim_files_read(&f, IOSIM_PROFILE_REL_STOCK, 1, buf + 1, &err),
		-EINVAL);
	free(buf);
	iosim_files_close(&f);
}

/* A tmpfs directory to try: /tmp when it is one, else /dev/shm. */
static const char *find_tmpfs(void)
{
	static const char *const dirs[] = {"/tmp", "/dev/shm"};
	struct statfs sf;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (statfs(dirs[i], &sf) == 0 && sf.f_type == TMPFS_MAGIC &&
		    access(dirs[i], W_OK) == 0)
			return dirs[i];
	return NULL;
}

static void test_direct_tmpfs(void **state)
{
	const char *tmpfs = find_tmpfs();
	char dir[PATH_MAX];
	struct iosim_profile p;
	struct iosim_files f;
	struct err err;
	int rc;

	(void)state;
	if (!tmpfs) {
		print_message("  skipped: no writable tmpfs at /tmp or "
			      "/dev/shm\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/test_iosim_files.XXXXXX", tmpfs);
	assert_non_null(mkdtemp(dir));
	small_profile(&p, 2);
	assert_int_equal(iosim_files_prepare(dir, &p, 0, &err), 0);
	rc = iosim_files_open(&f, dir, &p, true, &err);
	if (kernel_takes_direct(dir)) {
		/* Linux 6.6 and later: tmpfs takes O_DIRECT */
		assert_int_equal(rc, 0);
		iosim_files_close(&f);
	} else {
		assert_int_equal(rc, -EINVAL);
		assert_no_direct_msg(err.msg, dir);
	}
	/* buffered always works */
	assert_int_equal(iosim_files_open(&f, dir, &p, false, &err), 0);
	iosim_files_close(&f);
	fixture_rm_rf(dir);
}

/*
 * In a child with a private mount namespace, mount fstype on a new
 * directory under root (read-only when ro), and check what preparing or
 * opening there gives. The child exits 0 when it is what is expected,
 * CHILD_SKIP when it may not mount, 1 otherwise (printing why).
 */
static int in_private_mount(const char *fstype, bool ro, bool prepare_first,
			    bool direct, int want_rc, const char *want_msg)
{
	char dir[PATH_MAX];
	struct iosim_profile p;
	struct iosim_files f;
	struct err err = {""};
	pid_t pid;
	int status, rc;

	snprintf(dir, sizeof(dir), "%s/mnt-%s%s", root, fstype,
		 ro ? "-ro" : "");
	assert_int_equal(mkdir(dir, 0700), 0);
	small_profile(&p, 2);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("none", dir, fstype, 0, "size=16m") < 0)
			_exit(CHILD_SKIP);
		if (prepare_first &&
		    iosim_files_prepare(dir, &p, 0, &err) != 0) {
			fprintf(stderr, "prepare: %s\n", err.msg);
			_exit(1);
		}
		if (ro &&
		    mount(NULL, dir, NULL, MS_REMOUNT | MS_RDONLY, NULL) < 0)
			_exit(CHILD_SKIP);
		if (direct)
			rc = iosim_files_open(&f, dir, &p, true, &err);
		else
			rc = iosim_files_prepare(dir, &p, 0, &err);
		if (rc != want_rc || !strstr(err.msg, want_msg)) {
			fprintf(stderr, "got %d '%s', want %d '%s'\n", rc,
				err.msg, want_rc, want_msg);
			_exit(1);
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	rmdir(dir);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_direct_refused(void **state)
{
	int rc;

	(void)state;
	/* ramfs has no direct I/O on any kernel */
	rc = in_private_mount("ramfs", false, true, true, -EINVAL,
			      "the file system refuses O_DIRECT");
	if (rc == CHILD_SKIP) {
		print_message("  skipped: cannot mount a ramfs in a private "
			      "mount namespace (needs CAP_SYS_ADMIN)\n");
		skip();
	}
	assert_int_equal(rc, 0);
}

static void test_read_only(void **state)
{
	int rc;

	(void)state;
	/*
	 * prepared before the remount: still refused, as the checkpointer
	 * and the WAL write there
	 */
	rc = in_private_mount("tmpfs", true, true, false, -EROFS,
			      ": read-only file system");
	if (rc == CHILD_SKIP) {
		print_message("  skipped: cannot mount a tmpfs in a private "
			      "mount namespace (needs CAP_SYS_ADMIN)\n");
		skip();
	}
	assert_int_equal(rc, 0);
	/* an empty read-only file system: one clear line */
	rc = in_private_mount("tmpfs", true, false, false, -EROFS,
			      ": read-only file system");
	assert_int_equal(rc, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prepare_and_read),
		cmocka_unit_test(test_prepare_again_and_grow),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_prepare_errors),
		cmocka_unit_test(test_prepare_dirs),
		cmocka_unit_test(test_direct_here),
		cmocka_unit_test(test_direct_tmpfs),
		cmocka_unit_test(test_direct_refused),
		cmocka_unit_test(test_read_only),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
