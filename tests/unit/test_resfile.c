/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_resfile.c - src/base/resfile.h and src/base/atomic_file.h: the
 * truth table of yes/no values, the version policy (exact, newer minor,
 * other major, other family, malformed, missing), the loader's messages,
 * the getters on values of the wrong type, and the atomic writer on
 * success and on each kind of failure (the caller's, a full file system
 * made with RLIMIT_FSIZE, a directory in the way, a directory that does
 * not exist or cannot be written): a failure leaves neither the final
 * name nor the temporary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "src/base/atomic_file.h"
#include "src/base/resfile.h"
#include "tests/unit/fixture_util.h"

static char root[256]; /* this test's temporary directory */

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_resfile") ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	chmod(root, 0700);
	return fixture_rm_rf(root);
}

/* JSON text (an object or a scalar) parsed, or the test fails. */
static json_t *parse(const char *text)
{
	json_error_t jerr;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &jerr);

	if (!j)
		fail_msg("bad test JSON '%s': %s", text, jerr.text);
	return j;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* root/name in a static buffer, good until the next call. */
static const char *in_root(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return path;
}

/* root/name into path (PATH_MAX bytes). */
static void root_path(char *path, const char *name)
{
	snprintf(path, PATH_MAX, "%s/%s", root, name);
}

static void test_truth_table(void **state)
{
	static const struct {
		const char *json; /* the value */
		int want;	  /* resfile_truth() */
	} cases[] = {
		{"true", 1},
		{"false", 0},
		{"1", 1},
		{"0", 0},
		{"\"true\"", 1},
		{"\"false\"", 0},
		{"\"yes\"", 1},
		{"\"no\"", 0},
		{"\"on\"", 1},
		{"\"off\"", 0},
		{"\"1\"", 1},
		{"\"0\"", 0},
		{"\"YES\"", 1},
		{"\"False\"", 0},
		{"\"TRUE\"", 1},
		/* everything else is neither */
		{"null", -1},
		{"2", -1},
		{"-1", -1},
		{"1.0", -1},
		{"\"\"", -1},
		{"\"maybe\"", -1},
		{"\" yes\"", -1},
		{"\"yes \"", -1},
		{"\"y\"", -1},
		{"\"10\"", -1},
		{"[true]", -1},
		{"{}", -1},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *v = parse(cases[i].json);
		json_t *o = json_pack("{s:O}", "k", v);

		if (resfile_truth(v) != cases[i].want)
			fail_msg("resfile_truth(%s) = %d, want %d",
				 cases[i].json, resfile_truth(v),
				 cases[i].want);
		assert_int_equal(resfile_get_truth(o, "k"), cases[i].want);
		json_decref(o);
		json_decref(v);
	}
	assert_int_equal(resfile_truth(NULL), -1);
	assert_int_equal(resfile_truth_str(NULL), -1);
	assert_int_equal(resfile_truth_str("yes"), 1);
	assert_int_equal(resfile_truth_str("Off"), 0);
	assert_int_equal(resfile_truth_str("true!"), -1);
	assert_int_equal(resfile_get_truth(NULL, "k"), -1);
}

static void test_meta_diagnostic(void **state)
{
	static const struct {
		const char *meta; /* meta.json */
		bool want;
	} cases[] = {
		{"{\"notes\": {\"diagnostic\": \"yes\"}}", true},
		{"{\"notes\": {\"diagnostic\": \"true\"}}", true},
		{"{\"notes\": {\"diagnostic\": true}}", true},
		{"{\"notes\": {\"diagnostic\": \"1\"}}", true},
		{"{\"diagnostic\": false, \"notes\": {\"diagnostic\": \"on\"}}",
		 true},
		{"{\"diagnostic\": true}", true},
		{"{\"options\": {\"diagnostic\": true}}", true},
		{"{\"notes\": {\"diagnostic\": \"no\"}}", false},
		{"{\"notes\": {\"diagnostic\": \"maybe\"}}", false},
		{"{\"notes\": {}}", false},
		{"{}", false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *m = parse(cases[i].meta);

		if (resfile_meta_diagnostic(m) != cases[i].want)
			fail_msg("%s: want %d", cases[i].meta, cases[i].want);
		json_decref(m);
	}
	assert_false(resfile_meta_diagnostic(NULL));
}

static void test_version_policy(void **state)
{
	static const struct {
		enum resfile_format fmt; /* read as */
		const char *json;	 /* the file */
		int rc;			 /* resfile_check() */
		const char *msg;	 /* in the message when rc < 0 */
	} cases[] = {
		/* exact */
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/1\"}", 0, NULL},
		{RESFILE_META, "{\"format\": \"oltpmark-meta/1\"}", 0, NULL},
		{RESFILE_SUMMARY, "{\"format\": \"oltpmark-summary/1\"}", 0,
		 NULL},
		{RESFILE_PROBE, "{\"format\": \"oltpmark-probe/1\"}", 0, NULL},
		{RESFILE_COMPARE, "{\"format\": \"oltpmark-compare/1\"}", 0,
		 NULL},
		/* a newer minor only adds keys */
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/1.3\"}", 0, NULL},
		{RESFILE_PROBE, "{\"format\": \"oltpmark-probe/1.12\"}", 0,
		 NULL},
		/* other majors */
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/2\"}", -EBADMSG,
		 "x.json: format is not oltpmark-run/1 (this oltpmark reads 1 "
		 "and 1.N): found \"oltpmark-run/2\", written by a newer "
		 "oltpmark"},
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/2.0\"}", -EBADMSG,
		 "found \"oltpmark-run/2.0\", written by a newer"},
		{RESFILE_PROBE, "{\"format\": \"oltpmark-probe/0\"}", -EBADMSG,
		 "written by an older oltpmark"},
		/* other families, prefixes of ours included */
		{RESFILE_RUN, "{\"format\": \"oltpmark-summary/1\"}", -EBADMSG,
		 "x.json: format is not oltpmark-run/1: found "
		 "\"oltpmark-summary/1\""},
		{RESFILE_RUN, "{\"format\": \"oltpmark-runx/1\"}", -EBADMSG,
		 "found \"oltpmark-runx/1\""},
		{RESFILE_RUN, "{\"format\": \"xoltpmark-run/1\"}", -EBADMSG,
		 "format is not"},
		{RESFILE_RUN, "{\"format\": \"/1\"}", -EBADMSG,
		 "format is not"},
		/* not a version */
		{RESFILE_RUN, "{\"format\": \"oltpmark-run\"}", -EBADMSG,
		 "found \"oltpmark-run\""},
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/\"}", -EBADMSG,
		 "format is not"},
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/1.\"}", -EBADMSG,
		 "format is not"},
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/1.2.3\"}", -EBADMSG,
		 "format is not"},
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/1x\"}", -EBADMSG,
		 "format is not"},
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/-1\"}", -EBADMSG,
		 "format is not"},
		{RESFILE_RUN, "{\"format\": \"oltpmark-run/1234567890\"}",
		 -EBADMSG, "format is not"},
		{RESFILE_RUN, "{\"format\": \"\"}", -EBADMSG, "found \"\""},
		{RESFILE_PROBE, "{\"format\": 1}", -EBADMSG,
		 "x.json: format is not oltpmark-probe/1: \"format\" is a "
		 "number"},
		{RESFILE_META, "{\"format\": null}", -EBADMSG,
		 "\"format\" is null"},
		/* missing: read for run directories, not for probes */
		{RESFILE_RUN, "{}", 0, NULL},
		{RESFILE_META, "{\"label\": \"x\"}", 0, NULL},
		{RESFILE_SUMMARY, "{\"notpm\": 1}", 0, NULL},
		{RESFILE_PROBE, "{}", -EBADMSG,
		 "x.json: no \"format\" (a oltpmark-probe/1 file has one)"},
		{RESFILE_COMPARE, "{}", -EBADMSG, "no \"format\""},
		/* not an object */
		{RESFILE_RUN, "[1]", -EBADMSG, "x.json: not a JSON object"},
	};
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *j = parse(cases[i].json);
		int rc;

		err_clear(&err);
		rc = resfile_check(j, cases[i].fmt, "x.json", &err);
		if (rc != cases[i].rc ||
		    (cases[i].msg && !strstr(err.msg, cases[i].msg)))
			fail_msg("%s as %s: %d '%s'", cases[i].json,
				 resfile_tag(cases[i].fmt), rc, err.msg);
		json_decref(j);
	}
	/* without a name the message is the reason alone */
	{
		json_t *j = parse("{\"format\": \"oltpmark-probe/2\"}");

		assert_int_equal(resfile_check(j, RESFILE_PROBE, NULL, &err),
				 -EBADMSG);
		assert_int_equal(strncmp(err.msg, "format is not ", 14), 0);
		json_decref(j);
	}
	assert_string_equal(resfile_tag(RESFILE_SUMMARY), RESFILE_TAG_SUMMARY);
	assert_string_equal(resfile_tag(RESFILE_NR), "?");
}

static void test_parse_messages(void **state)
{
	static const struct {
		const char *text; /* the file */
		int rc;		  /* resfile_parse() */
		const char *msg;  /* how the message starts */
	} cases[] = {
		{"{\"a\": 1}", 0, ""},
		{"\n  {\"a\": 1}\n\n", 0, ""},
		{"", -ENODATA, "f.json: empty file"},
		{" \n\t\n", -ENODATA, "f.json: empty file"},
		{"[1, 2]", -EBADMSG, "f.json: not a JSON object"},
		{"{\"a\": 1} x", -EBADMSG,
		 "f.json: invalid JSON (line 1, column "},
		{"\n\nnope", -EBADMSG, "f.json: invalid JSON (line 3, column "},
#if JANSSON_VERSION_HEX >= 0x020b00
		{"{\n\"a\": 1,\n\"b\": [", -EBADMSG,
		 "f.json: JSON cut short (line 3)"},
		{"\n\n{\"a\": 1,", -EBADMSG, "f.json: JSON cut short (line 3)"},
		{"{\"a\": 1,\n \"a\": 2}", -EBADMSG,
		 "f.json: duplicate key (line 2)"},
#endif
	};
	struct err err;
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fmemopen((void *)cases[i].text, strlen(cases[i].text),
				   "r");
		int rc;

		/* fmemopen() of 0 bytes is EINVAL before glibc 2.22 */
		if (!f && !cases[i].text[0])
			f = fopen("/dev/null", "r");
		assert_non_null(f);
		err_clear(&err);
		rc = resfile_parse(f, "f.json", &j, &err);
		fclose(f);
		if (rc != cases[i].rc ||
		    strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) != 0)
			fail_msg("'%s': %d '%s'", cases[i].text, rc, err.msg);
		assert_true((rc == 0) == (j != NULL));
		json_decref(j);
	}
	/* a file that is not there */
	assert_int_equal(
		resfile_load(in_root("none.json"), "none.json", &j, &err),
		-ENOENT);
	assert_null(j);
	assert_string_equal(err.msg, "none.json: No such file or directory");
	/* load then check */
	fixture_write_file(root, "r.json", "{\"format\": \"oltpmark-run/7\"}");
	assert_int_equal(resfile_read(in_root("r.json"), "r.json", RESFILE_RUN,
				      &j, &err),
			 -EBADMSG);
	assert_null(j);
	assert_non_null(strstr(err.msg, "r.json: format is not"));
	fixture_write_file(root, "r.json", "{\"format\": \"oltpmark-run/1\"}");
	assert_int_equal(resfile_read(in_root("r.json"), "r.json", RESFILE_RUN,
				      &j, &err),
			 0);
	assert_non_null(j);
	json_decref(j);
	unlink(in_root("r.json"));
}

static void test_getters(void **state)
{
	static const char *const keys[] = {"none", "nul", "s", "n", NULL};
	static const char *const absent[] = {"none", "nul", NULL};
	json_t *o = parse("{\"i\": 7, \"r\": 2.5, \"big\": 1e30, \"neg\": -3, "
			  "\"negr\": -0.5, \"s\": \"text\", \"e\": \"\", "
			  "\"t\": true, \"nul\": null, \"a\": [1], "
			  "\"o\": {\"n\": 1}, \"n\": 1}");

	(void)state;
	/* numbers */
	assert_float_equal(resfile_get_number(o, "i"), 7, 0);
	assert_float_equal(resfile_get_number(o, "r"), 2.5, 0);
	assert_float_equal(resfile_get_number(o, "neg"), -3, 0);
	assert_true(isnan(resfile_get_number(o, "s")));
	assert_true(isnan(resfile_get_number(o, "t")));
	assert_true(isnan(resfile_get_number(o, "nul")));
	assert_true(isnan(resfile_get_number(o, "a")));
	assert_true(isnan(resfile_get_number(o, "none")));
	assert_true(isnan(resfile_get_number(NULL, "i")));
	assert_true(isnan(resfile_get_number(json_object_get(o, "a"), "i")));
	/* counts */
	assert_int_equal(resfile_get_count(o, "i"), 7);
	assert_int_equal(resfile_get_count(o, "r"), 2);
	assert_int_equal(resfile_get_count(o, "neg"), -1);
	assert_int_equal(resfile_get_count(o, "negr"), -1);
	assert_int_equal(resfile_get_count(o, "big"), -1);
	assert_int_equal(resfile_get_count(o, "s"), -1);
	assert_int_equal(resfile_get_count(o, "t"), -1);
	assert_int_equal(resfile_get_count(o, "nul"), -1);
	assert_int_equal(resfile_get_count(o, "none"), -1);
	assert_int_equal(resfile_get_count(NULL, "i"), -1);
	/* strings */
	assert_string_equal(resfile_get_string(o, "s"), "text");
	assert_string_equal(resfile_get_string(o, "e"), "");
	assert_null(resfile_get_string(o, "i"));
	assert_null(resfile_get_string(o, "t"));
	assert_null(resfile_get_string(o, "nul"));
	assert_null(resfile_get_string(o, "o"));
	assert_null(resfile_get_string(NULL, "s"));
	/* the first key present, null skipped */
	assert_ptr_equal(resfile_get_first(o, keys), json_object_get(o, "s"));
	assert_null(resfile_get_first(o, absent));
	assert_null(resfile_get_first(NULL, keys));
	/* truth of the wrong types */
	assert_int_equal(resfile_get_truth(o, "r"), -1);
	assert_int_equal(resfile_get_truth(o, "s"), -1);
	assert_int_equal(resfile_get_truth(o, "o"), -1);
	assert_int_equal(resfile_get_truth(o, "nul"), -1);
	assert_int_equal(resfile_get_truth(o, "t"), 1);
	json_decref(o);
}

static void test_write_json(void **state)
{
	json_t *o = json_pack("{s:s, s:f, s:b}", "format", RESFILE_TAG_META,
			      "x", 0.1, "diagnostic", 1);
	char path[PATH_MAX];
	struct err err = {""};
	char tmp[PATH_MAX];
	json_t *back;
	char *text;

	(void)state;
	root_path(path, "w.json");
	root_path(tmp, "w.json.tmp");
	assert_int_equal(resfile_write_json(path, o, &err), 0);
	assert_false(exists(tmp));
	text = fixture_read_file(path, NULL);
	/* 15 digits, indented, one final newline */
	assert_string_equal(text, "{\n  \"format\": \"oltpmark-meta/1\",\n"
				  "  \"x\": 0.1,\n  \"diagnostic\": true\n}\n");
	free(text);
	assert_int_equal(
		resfile_read(path, "w.json", RESFILE_META, &back, &err), 0);
	assert_true(json_equal(o, back));
	json_decref(back);
	unlink(path);
	json_decref(o);
}

static void test_atomic_success(void **state)
{
	char path[PATH_MAX];
	struct atomic_file af;
	struct err err = {""};
	char *text;

	(void)state;
	root_path(path, "a.txt");
	/* a stale temporary from a crash is replaced */
	fixture_write_file(root, "a.txt.tmp", "stale and longer than new");
	assert_int_equal(atomic_file_open(&af, path, &err), 0);
	assert_string_equal(af.tmp, in_root("a.txt.tmp"));
	fputs("first\n", af.f);
	/* nothing under the final name until the end */
	assert_false(exists(path));
	assert_int_equal(atomic_file_close(&af, 0, &err), 0);
	assert_int_equal(af.fd, -1);
	assert_false(exists(in_root("a.txt.tmp")));
	text = fixture_read_file(path, NULL);
	assert_string_equal(text, "first\n");
	free(text);
	/* replacing a file; raw writes on fd work too */
	assert_int_equal(atomic_file_open(&af, path, &err), 0);
	assert_int_equal(write(af.fd, "second\n", 7), 7);
	assert_int_equal(atomic_file_close(&af, 0, &err), 0);
	text = fixture_read_file(path, NULL);
	assert_string_equal(text, "second\n");
	free(text);
	/* a relative name, synced in "." */
	{
		char cwd[PATH_MAX];

		assert_non_null(getcwd(cwd, sizeof(cwd)));
		assert_int_equal(chdir(root), 0);
		assert_int_equal(atomic_file_open(&af, "rel.txt", &err), 0);
		assert_int_equal(atomic_file_close(&af, 0, &err), 0);
		assert_true(exists("rel.txt"));
		unlink("rel.txt");
		assert_int_equal(chdir(cwd), 0);
	}
	unlink(path);
}

static void test_atomic_caller_failure(void **state)
{
	char path[PATH_MAX];
	struct atomic_file af;
	struct err err;
	char *text;

	(void)state;
	root_path(path, "c.txt");
	/* no file before: none after */
	assert_int_equal(atomic_file_open(&af, path, &err), 0);
	fputs("half", af.f);
	err_set(&err, -EINVAL, "the caller's reason");
	assert_int_equal(atomic_file_close(&af, -EINVAL, &err), -EINVAL);
	assert_string_equal(err.msg, "the caller's reason");
	assert_false(exists(path));
	assert_false(exists(in_root("c.txt.tmp")));
	/* an older file is kept as it was */
	fixture_write_file(root, "c.txt", "old\n");
	assert_int_equal(atomic_file_open(&af, path, &err), 0);
	fputs("new", af.f);
	atomic_file_abort(&af);
	atomic_file_abort(&af); /* twice is harmless */
	assert_false(exists(in_root("c.txt.tmp")));
	text = fixture_read_file(path, NULL);
	assert_string_equal(text, "old\n");
	free(text);
	unlink(path);
	/* closing what is not open */
	assert_int_equal(atomic_file_close(&af, 0, &err), -EBADF);
}

/*
 * A full file system, made portably: RLIMIT_FSIZE makes write() fail
 * (EFBIG) past a size, as ENOSPC does past the free space, and both reach
 * the writer the same way.
 */
static void test_atomic_write_error(void **state)
{
	char path[PATH_MAX];
	struct rlimit old, small;
	void (*old_handler)(int);
	struct atomic_file af;
	struct err err = {""};
	char line[100];
	int i, rc;

	(void)state;
	root_path(path, "big.txt");
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 4096;
	assert_int_equal(atomic_file_open(&af, path, &err), 0);
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	for (i = 0; i < 1000; i++)
		fputs(line, af.f);
	err_set(&err, -EIO, "what the caller saw");
	rc = atomic_file_close(&af, -EIO, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_handler);
	/* the cause, not the caller's symptom, naming the file */
	assert_int_equal(rc, -EFBIG);
	assert_non_null(strstr(err.msg, "cannot write "));
	assert_non_null(strstr(err.msg, "big.txt.tmp: "));
	assert_non_null(strstr(err.msg, strerror(EFBIG)));
	assert_false(exists(path));
	assert_false(exists(in_root("big.txt.tmp")));

	/* the same when the caller noticed nothing */
	assert_int_equal(atomic_file_open(&af, path, &err), 0);
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	for (i = 0; i < 1000; i++)
		fputs(line, af.f);
	rc = atomic_file_close(&af, 0, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_handler);
	assert_int_equal(rc, -EFBIG);
	assert_non_null(strstr(err.msg, strerror(EFBIG)));
	assert_false(exists(path));
	assert_false(exists(in_root("big.txt.tmp")));
}

static void test_atomic_cannot_create_or_rename(void **state)
{
	struct atomic_file af;
	struct err err;
	char want[PATH_MAX + 64], dir[PATH_MAX];
	char *text;

	(void)state;
	/* a directory that does not exist */
	assert_int_equal(atomic_file_open(&af, in_root("nodir/x.json"), &err),
			 -ENOENT);
	snprintf(want, sizeof(want), "cannot create %s.tmp: %s",
		 in_root("nodir/x.json"), strerror(ENOENT));
	assert_string_equal(err.msg, want);
	/* a directory in the way of the final name: rename fails */
	snprintf(dir, sizeof(dir), "%s", in_root("taken"));
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(atomic_file_open(&af, dir, &err), 0);
	fputs("data", af.f);
	assert_int_equal(atomic_file_close(&af, 0, &err), -EISDIR);
	assert_non_null(strstr(err.msg, "cannot rename "));
	assert_non_null(strstr(err.msg, dir));
	assert_false(exists(in_root("taken.tmp")));
	rmdir(dir);
	/* a name too long */
	memset(dir, 'a', sizeof(dir) - 1);
	dir[sizeof(dir) - 1] = '\0';
	assert_int_equal(atomic_file_open(&af, dir, &err), -ENAMETOOLONG);
	/* a directory that cannot be written (root may write anywhere) */
	snprintf(dir, sizeof(dir), "%s", in_root("ro"));
	assert_int_equal(mkdir(dir, 0700), 0);
	fixture_write_file(dir, "kept.txt", "old\n");
	assert_int_equal(chmod(dir, 0500), 0);
	if (geteuid() != 0) {
		snprintf(want, sizeof(want), "%s/kept.txt", dir);
		assert_int_equal(atomic_file_open(&af, want, &err), -EACCES);
		assert_non_null(strstr(err.msg, "kept.txt.tmp: "));
		assert_non_null(strstr(err.msg, strerror(EACCES)));
		text = fixture_read_file(want, NULL);
		assert_string_equal(text, "old\n");
		free(text);
	} else {
		print_message("read-only directory case skipped: running as "
			      "root\n");
	}
	assert_int_equal(chmod(dir, 0700), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truth_table),
		cmocka_unit_test(test_meta_diagnostic),
		cmocka_unit_test(test_version_policy),
		cmocka_unit_test(test_parse_messages),
		cmocka_unit_test(test_getters),
		cmocka_unit_test(test_write_json),
		cmocka_unit_test(test_atomic_success),
		cmocka_unit_test(test_atomic_caller_failure),
		cmocka_unit_test(test_atomic_write_error),
		cmocka_unit_test(test_atomic_cannot_create_or_rename),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
