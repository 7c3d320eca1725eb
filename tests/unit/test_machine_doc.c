/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_machine_doc.c - the machine document of a system under test
 * (oltpmark sysinfo --format json, read by oltpmark run --machine-from):
 * built from the fixture tree tests/fixtures/fingerprint-vm, written and
 * read back; the fingerprint taken from it and not from this machine;
 * damaged documents refused with one line naming the file.
 */
#include "tests/unit/fixture_util.h"

#include <jansson.h>

#include "src/base/fingerprint.h"
#include "src/base/machine_doc.h"
#include "src/base/resfile.h"

/* The fixture's document, built, written to a temporary file and read. */
static json_t *fixture_doc(void)
{
	struct err err = {""};
	json_t *doc = NULL, *back = NULL;
	char path[] = "/tmp/om-machine-doc.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(machine_doc_build(fixture_path("fingerprint-vm"), NULL,
					   &doc, &err),
			 0);
	assert_int_equal(resfile_write_json(path, doc, &err), 0);
	json_decref(doc);
	if (machine_doc_read(path, &back, &err) < 0)
		fail_msg("%s", err.msg);
	unlink(path);
	return back;
}

static const char *str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static void test_build_fixture(void **state)
{
	json_t *doc = fixture_doc();
	const json_t *t = json_object_get(doc, "treatment"),
		     *e = json_object_get(doc, "environment"),
		     *k = json_object_get(doc, "kernel");

	(void)state;
	assert_string_equal(str(doc, "format"), "oltpmark-machine/1");
	/* what meta.json's kernel, cpu and memory say, from the tree */
	assert_string_equal(str(k, "release"), "6.18.44-custom");
	assert_string_equal(str(json_object_get(doc, "cpu"), "model"),
			    "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(doc, "cpu"), "online")),
			 2);
	assert_true(json_is_integer(
		json_object_get(json_object_get(doc, "memory"), "total_kb")));
	/* the fingerprint's machine keys: no data directory, every disk */
	assert_string_equal(str(t, "kernel.release"), "6.18.44-custom");
	assert_string_equal(str(t, "block.vdb.scheduler"), "mq-deadline");
	assert_null(json_object_get(t, "block.loop0.scheduler"));
	assert_string_equal(str(e, "virtualization"), "QEMU");
	assert_int_equal(json_array_size(json_object_get(doc, "devices")), 0);
	/* sys/sysctl.txt's text, the keys the treatment leaves out too */
	assert_non_null(strstr(str(doc, "sysctl"), "kernel.printk = "));
	assert_non_null(strstr(str(doc, "sysctl"),
			       "kernel.osrelease = 6.18.44-custom\n"));
	json_decref(doc);
}

/* A data directory whose disk is not in the tree's sysfs: every disk. */
static void test_build_pgdata_elsewhere(void **state)
{
	struct err err = {""};
	json_t *doc = NULL;

	(void)state;
	assert_int_equal(machine_doc_build(fixture_path("fingerprint-vm"),
					   "/tmp", &doc, &err),
			 0);
	assert_int_equal(json_array_size(json_object_get(doc, "devices")), 0);
	assert_non_null(json_object_get(json_object_get(doc, "treatment"),
					"block.vda.scheduler"));
	json_decref(doc);
}

/*
 * The fingerprint of a run whose terminals ran elsewhere: the machine's
 * keys are the document's, whatever this machine is; the workload and
 * the server's keys are meta's.
 */
static void test_fingerprint_from_doc(void **state)
{
	json_error_t jerr;
	json_t *doc = fixture_doc(), *meta;
	const json_t *fp, *t, *e;

	(void)state;
	meta = json_loads("{\"driver\": \"pgsql\", \"config\": \"cached\","
			  " \"server\": {\"version\": \"17.2\","
			  "  \"settings\": {\"shared_buffers\": \"1GB\"}},"
			  " \"notes\": {\"terminals\": \"other-host\"}}",
			  0, &jerr);
	assert_non_null(meta);
	/* a key the document does not have, to show nothing local is read */
	json_object_del(json_object_get(doc, "treatment"), "vm.swappiness");
	assert_int_equal(fingerprint_add_doc(meta, doc, "fixed"), 0);
	fp = json_object_get(meta, "fingerprint");
	t = json_object_get(fp, "treatment");
	e = json_object_get(fp, "environment");
	assert_string_equal(str(t, "kernel.release"), "6.18.44-custom");
	assert_string_equal(str(t, "block.vda.scheduler"), "mq-deadline");
	assert_null(json_object_get(t, "vm.swappiness"));
	assert_string_equal(str(e, "cpu.model"),
			    "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");
	assert_string_equal(str(e, "postgresql.version"), "17.2");
	assert_string_equal(str(e, "postgresql.shared_buffers"), "1GB");
	assert_string_equal(str(json_object_get(fp, "workload"), "terminals"),
			    "other-host");
	json_decref(meta);
	json_decref(doc);
}

/* Documents oltpmark run refuses, and the words of its one line. */
static void test_read_refused(void **state)
{
	static const struct {
		const char *text; /* the file */
		const char *says; /* in the error */
	} cases[] = {
		{"{\"format\": \"oltpmark-meta/1\"}", "oltpmark-machine/1"},
		{"{\"kernel\": {}}", "format"},
		{"{\"format\": \"oltpmark-machine/2\"}", "oltpmark-machine/2"},
		{"{\"format\": \"oltpmark-machine/1\", \"kernel\": {},"
		 " \"cpu\": {}, \"memory\": {}, \"treatment\": {}}",
		 "\"environment\""},
		{"{\"format\": \"oltpmark-machine/1\", \"kernel\": {},"
		 " \"cpu\": {}, \"memory\": {}, \"treatment\": {},"
		 " \"environment\": {}}",
		 "\"sysctl\""},
		{"{\"format\": \"oltpmark-machine/1\", \"kernel\"",
		 "cut short"},
		{"", "empty"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[] = "/tmp/om-machine-doc.XXXXXX";
		struct err err = {""};
		json_t *doc = (json_t *)1;

		fixture_write_temp(cases[i].text, strlen(cases[i].text), path);
		assert_true(machine_doc_read(path, &doc, &err) < 0);
		assert_null(doc);
		if (!strstr(err.msg, cases[i].says) || !strstr(err.msg, path))
			fail_msg("case %zu: \"%s\" does not say %s and the "
				 "file",
				 i, err.msg, cases[i].says);
		unlink(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_fixture),
		cmocka_unit_test(test_build_pgdata_elsewhere),
		cmocka_unit_test(test_fingerprint_from_doc),
		cmocka_unit_test(test_read_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
