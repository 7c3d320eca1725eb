/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iosim_profile.c - drivers/iosim_profile.h: the reader on the
 * fixtures tests/fixtures/ioprofile-*.json (valid, truncated, another
 * version, untagged, a share map that does not sum to 1, a negative
 * count, an unknown and a missing relation), on a table of faults made
 * by editing the valid profile (one clear message each, naming the key),
 * the derived per-call figures, the checksum, and the writer: what it
 * writes reads back the same, and it refuses what the reader would.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "drivers/iosim_profile.h"
#include "tests/unit/fixture_util.h"

static char root[256]; /* this test's temporary directory */

static int setup(void **state)
{
	(void)state;
	return fixture_temp_dir(root, sizeof(root), "test_iosim_profile") ? 0
									  : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

static void test_valid_fixture(void **state)
{
	struct iosim_profile p;
	struct err err = {""};
	int r;

	(void)state;
	assert_int_equal(
		iosim_profile_read(fixture_path("ioprofile-valid.json"), &p,
				   &err),
		0);
	assert_string_equal(err.msg, "");
	assert_int_equal(p.warehouses, 10);
	assert_true(p.duration_s == 600);
	assert_string_equal(p.config, "noncached");
	assert_string_equal(p.server_version, "15.18");
	assert_int_equal(p.txn[TXN_NEW_ORDER].calls, 120000);
	assert_int_equal(p.txn[TXN_NEW_ORDER].commits, 118800);
	assert_int_equal(p.txn[TXN_NEW_ORDER].shared_blks_read, 372000);
	assert_int_equal(p.txn[TXN_DELIVERY].wal_bytes, 360000000);
	assert_true(p.txn[TXN_NEW_ORDER].read_share[IOSIM_PROFILE_REL_STOCK] ==
		    0.55);
	/* a relation the map does not name has share 0 */
	assert_true(
		p.txn[TXN_NEW_ORDER].read_share[IOSIM_PROFILE_REL_HISTORY] ==
		0);
	/* order_status dirties nothing: an empty map is all zeros */
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		assert_true(p.txn[TXN_ORDER_STATUS].dirtied_share[r] == 0);
	/* 356179968 bytes of stock are 43479 pages */
	assert_int_equal(p.rel[IOSIM_PROFILE_REL_STOCK].pages, 43479);
	assert_true(fabs(p.rel[IOSIM_PROFILE_REL_STOCK].rows_per_page - 23.0) <
		    0.01);
	assert_int_equal(p.rel[IOSIM_PROFILE_REL_WAREHOUSE].pages, 1);
	assert_int_equal(p.background.ndevices, 1);
	assert_string_equal(p.background.device[0].name, "vda");
	assert_true(p.background.device[0].reads_per_s == 1480.0);
	assert_true(p.background.wal_syncs_per_s == 395.75);
	assert_int_equal(p.layout.kind, IOSIM_PROFILE_LAYOUT_SINGLE);
	assert_int_equal(p.layout.directories, 1);
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		assert_int_equal(p.layout.placement[r], -1);
	assert_int_equal(strlen(p.checksum), strlen("fnv1a64:") + 16);
	assert_memory_equal(p.checksum, "fnv1a64:", 8);
	/* a 1.0 profile: what 1.1 added is unknown, nothing per commit */
	assert_int_equal(p.mix_commits, -1);
	assert_true(isnan(p.background.wal_bytes_per_s));
	assert_true(isnan(iosim_profile_per_commit(
		&p, p.background.device[0].reads_per_s)));
}

/* A 1.1 profile: the mix's commits and the WAL, per commit. */
static void test_per_commit(void **state)
{
	struct iosim_profile p;
	struct err err = {""};

	(void)state;
	assert_int_equal(
		iosim_profile_read(fixture_path("ioprofile-fidelity.json"), &p,
				   &err),
		0);
	assert_int_equal(p.mix_commits, 2000);
	assert_true(p.background.wal_bytes_per_s == 100000);
	assert_int_equal(p.background.ndevices, 2);
	/* 100 reads per second over 100 s, 2000 commits */
	assert_true(iosim_profile_per_commit(
			    &p, p.background.device[0].reads_per_s) == 5);
	assert_true(iosim_profile_per_commit(
			    &p, p.background.device[0].write_bytes_per_s) ==
		    40960);
	assert_true(iosim_profile_per_commit(
			    &p, p.background.wal_bytes_per_s) == 5000);
	/* nothing committed: no figure, not a division by zero */
	p.mix_commits = 0;
	assert_true(isnan(iosim_profile_per_commit(&p, 1.0)));
}

static void test_per_call(void **state)
{
	struct iosim_profile p;
	struct err err;

	(void)state;
	assert_int_equal(
		iosim_profile_read(fixture_path("ioprofile-valid.json"), &p,
				   &err),
		0);
	/* 372000 reads × 0.55 over 120000 calls */
	assert_true(fabs(iosim_profile_reads_per_call(&p, TXN_NEW_ORDER,
						      IOSIM_PROFILE_REL_STOCK) -
			 1.705) < 1e-9);
	assert_true(
		fabs(iosim_profile_dirtied_per_call(
			     &p, TXN_DELIVERY, IOSIM_PROFILE_REL_ORDER_LINE) -
		     16.0) < 1e-9);
	assert_true(iosim_profile_wal_bytes_per_call(&p, TXN_PAYMENT) == 1300);
	/* no calls: nothing per call, not a division by zero */
	p.txn[TXN_STOCK_LEVEL].calls = 0;
	assert_true(iosim_profile_reads_per_call(&p, TXN_STOCK_LEVEL,
						 IOSIM_PROFILE_REL_STOCK) == 0);
	assert_true(iosim_profile_wal_bytes_per_call(&p, TXN_STOCK_LEVEL) == 0);
	assert_int_equal(iosim_profile_total_pages(&p), 129243);
}

/* A broken fixture and what the reader must say of it. */
struct broken_case {
	const char *fixture; /* under tests/fixtures, or a missing name */
	int rc;		     /* expected return */
	const char *msg;     /* expected message, after "PATH: " */
};

static void test_broken_fixtures(void **state)
{
	static const struct broken_case cases[] = {
		{"ioprofile-truncated.json", -EBADMSG,
		 "JSON cut short (line 101)"},
		{"ioprofile-wrong-version.json", -EBADMSG,
		 "format is not oltpmark-ioprofile/1 (this oltpmark reads 1 "
		 "and 1.N): found \"oltpmark-ioprofile/2\", written by a "
		 "newer oltpmark"},
		{"ioprofile-no-format.json", -EBADMSG,
		 "no \"format\" (a oltpmark-ioprofile/1 file has one)"},
		{"ioprofile-bad-share.json", -EINVAL,
		 "transactions.payment.read_share: shares sum to 0.8, not 1 "
		 "(±0.01)"},
		{"ioprofile-negative.json", -EINVAL,
		 "transactions.delivery.shared_blks_read: negative count "
		 "-96000"},
		{"ioprofile-unknown-relation.json", -EINVAL,
		 "transactions.stock_level.read_share: unknown relation "
		 "\"stok\""},
		{"ioprofile-missing-relation.json", -EINVAL,
		 "relations.order_line_pkey: missing"},
		{"ioprofile-no-such-file.json", -ENOENT,
		 "No such file or directory"},
	};
	char want[PATH_MAX + ERR_MSG_MAX];
	struct iosim_profile p;
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = fixture_path(cases[i].fixture);

		assert_true(snprintf(want, sizeof(want), "%s: %s", path,
				     cases[i].msg) < (int)sizeof(want));
		err.msg[0] = '\0';
		if (iosim_profile_read(path, &p, &err) != cases[i].rc ||
		    strcmp(err.msg, want) != 0)
			fail_msg("%s: got %d '%s', want %d '%s'",
				 cases[i].fixture,
				 iosim_profile_read(path, &p, &err), err.msg,
				 cases[i].rc, want);
		assert_null(strchr(err.msg, '\n'));
	}
}

/* The valid fixture as a JSON tree, to break one thing in it. */
static json_t *valid_json(void)
{
	json_error_t jerr;
	json_t *j =
		json_load_file(fixture_path("ioprofile-valid.json"), 0, &jerr);

	if (!j)
		fail_msg("cannot load the valid fixture: %s", jerr.text);
	return j;
}

/* The object at a dotted path of j ("transactions.payment"). */
static json_t *at(json_t *j, const char *path)
{
	char buf[256], *save = NULL, *part;

	snprintf(buf, sizeof(buf), "%s", path);
	for (part = strtok_r(buf, ".", &save); part;
	     part = strtok_r(NULL, ".", &save)) {
		j = json_object_get(j, part);
		if (!j)
			fail_msg("no %s in the valid fixture", path);
	}
	return j;
}

/* One edit of the valid profile and the message it must give. */
struct edit_case {
	const char *object; /* dotted path of the object to edit ("" root) */
	const char *key;    /* its member to set, or to delete */
	const char *value;  /* JSON text of the new value; NULL: delete */
	int rc;		    /* expected return */
	const char *msg;    /* expected message after "edited: " */
};

static void test_edits(void **state)
{
	static const struct edit_case cases[] = {
		{"", "warehouses", "0", -EINVAL,
		 "warehouses: must be 1 to 100000, found 0"},
		{"", "warehouses", "100001", -EINVAL,
		 "warehouses: 100001, more than 100000"},
		{"layout", "directories", "99999999999", -EINVAL,
		 "layout.directories: 99999999999, more than 4096"},
		{"", "warehouses", "\"ten\"", -EINVAL,
		 "warehouses: not a count (an integer >= 0): \"ten\""},
		{"", "page_bytes", "4096", -EINVAL,
		 "page_bytes: 4096, but iosim simulates 8192-byte pages only"},
		{"", "duration_s", "0", -EINVAL,
		 "duration_s: must be more than 0, found 0"},
		{"", "duration_s", NULL, -EINVAL, "duration_s: missing"},
		{"", "config", "7", -EINVAL, "config: not a string: 7"},
		{"", "transactions", "[]", -EINVAL,
		 "transactions: not an object: []"},
		{"transactions", "new_orders", "{}", -EINVAL,
		 "transactions: unknown transaction type \"new_orders\""},
		{"transactions", "delivery", NULL, -EINVAL,
		 "transactions.delivery: missing"},
		{"transactions.payment", "commits", "120001", -EINVAL,
		 "transactions.payment: 120001 commits but only 120000 calls"},
		{"transactions.payment", "wal_bytes", "null", -EINVAL,
		 "transactions.payment.wal_bytes: missing"},
		{"transactions.new_order.read_share", "stock", "1.5", -EINVAL,
		 "transactions.new_order.read_share.stock: share 1.5 is not "
		 "between 0 and 1"},
		{"transactions.new_order.read_share", "stock", "\"a lot\"",
		 -EINVAL,
		 "transactions.new_order.read_share.stock: not a number: "
		 "\"a lot\""},
		{"transactions.new_order", "read_share", "{}", -EINVAL,
		 "transactions.new_order.read_share: no shares for 372000 "
		 "blocks"},
		{"transactions.new_order", "dirtied_share", "7", -EINVAL,
		 "transactions.new_order.dirtied_share: not an object: 7"},
		{"relations", "stocks", "{}", -EINVAL,
		 "relations: unknown relation \"stocks\""},
		{"relations.stock", "pages", "0", -EINVAL,
		 "relations.stock.pages: 0 is not a size in pages (1 to "
		 "4294967295)"},
		{"relations.item", "rows_per_page", "0", -EINVAL,
		 "relations.item.rows_per_page: 0 is not between 0 (excluded) "
		 "and 8192"},
		{"background", "wal_syncs_per_s", "-1", -EINVAL,
		 "background.wal_syncs_per_s: -1 is not a rate (a number >= "
		 "0)"},
		{"background.devices.vda", "writes_per_s", NULL, -EINVAL,
		 "background.devices.vda.writes_per_s: missing"},
		{"background.devices", "", "{}", -EINVAL,
		 "background.devices: device name \"\" is empty or longer than "
		 "31 characters"},
		{"layout", "kind", "\"raid\"", -EINVAL,
		 "layout.kind: not \"single\", \"table\" or \"warehouse\": "
		 "\"raid\""},
		{"layout", "directories", "2", -EINVAL,
		 "layout.directories: 2 directories for the single layout"},
		{"layout", "placement", "{\"stock\": 1}", -EINVAL,
		 "layout.placement.stock: directory 1 of 1 (numbered from 0)"},
		{"layout", "placement", "{\"stok\": 0}", -EINVAL,
		 "layout.placement: unknown relation \"stok\""},
		{"", "mix_commits", "-5", -EINVAL,
		 "mix_commits: negative count -5"},
		{"", "mix_commits", "\"many\"", -EINVAL,
		 "mix_commits: not a count (an integer >= 0): \"many\""},
		{"background", "wal_bytes_per_s", "-1", -EINVAL,
		 "background.wal_bytes_per_s: -1 is not a rate (a number >= "
		 "0)"},
		{"background", "wal_bytes_per_s", "\"x\"", -EINVAL,
		 "background.wal_bytes_per_s: not a number: \"x\""},
		{"layout", "paths", "[\"/a\", \"/b\"]", -EINVAL,
		 "layout.paths: 2 paths for 1 directories (at most 32)"},
		{"layout", "paths", "\"/a\"", -EINVAL,
		 "layout.paths: not an array: \"/a\""},
		{"layout", "paths", "[\"\"]", -EINVAL,
		 "layout.paths[0]: not a path of 1 to 255 characters: \"\""},
		{"layout", "paths", "[\"/srv/ts1\"]", 0, ""},
		/* 1.1's keys are optional: null is as absent */
		{"", "mix_commits", "null", 0, ""},
		{"background", "wal_bytes_per_s", "null", 0, ""},
		/* unknown keys outside the name maps are a later minor's */
		{"", "calibration_method", "\"solo phases\"", 0, ""},
		{"transactions.payment", "temp_blks_read", "3", 0, ""},
	};
	struct iosim_profile p;
	struct err err;
	char want[ERR_MSG_MAX];
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct edit_case *c = &cases[i];
		json_t *j = valid_json(), *obj = at(j, c->object);
		char *text;

		if (c->value) {
			json_error_t jerr;
			json_t *v =
				json_loads(c->value, JSON_DECODE_ANY, &jerr);

			assert_non_null(v);
			assert_int_equal(json_object_set_new(obj, c->key, v),
					 0);
		} else {
			assert_int_equal(json_object_del(obj, c->key), 0);
		}
		text = json_dumps(j, 0);
		assert_non_null(text);
		err.msg[0] = '\0';
		rc = iosim_profile_parse(text, strlen(text), "edited", &p,
					 &err);
		snprintf(want, sizeof(want), "%s%s", c->rc ? "edited: " : "",
			 c->msg);
		if (rc != c->rc || strcmp(err.msg, want) != 0)
			fail_msg("case %zu (%s.%s): got %d '%s', want %d '%s'",
				 i, c->object, c->key, rc, err.msg, c->rc,
				 want);
		free(text);
		json_decref(j);
	}
}

static void test_not_profiles(void **state)
{
	const char *text;
	struct iosim_profile p;
	struct err err;

	(void)state;
	assert_int_equal(iosim_profile_parse("", 0, "f", &p, &err), -ENODATA);
	assert_string_equal(err.msg, "f: empty file");
	assert_int_equal(iosim_profile_parse(" \n", 2, "f", &p, &err),
			 -ENODATA);
	assert_int_equal(iosim_profile_parse("[1]", 3, "f", &p, &err),
			 -EBADMSG);
	assert_string_equal(err.msg, "f: not a JSON object");
	text = "{\"format\": \"oltpmark-run/1\"}";
	assert_int_equal(iosim_profile_parse(text, strlen(text), "f", &p, &err),
			 -EBADMSG);
	assert_string_equal(err.msg, "f: format is not oltpmark-ioprofile/1: "
				     "found \"oltpmark-run/1\"");
	/* a directory is not a profile */
	assert_int_equal(iosim_profile_read(root, &p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a regular file"));
}

static void test_checksum(void **state)
{
	struct iosim_profile a, b;
	struct err err;
	size_t len;
	char *text = fixture_slurp("ioprofile-valid.json", &len);
	char *minor;

	(void)state;
	assert_int_equal(iosim_profile_parse(text, len, "a", &a, &err), 0);
	assert_int_equal(iosim_profile_parse(text, len, "b", &b, &err), 0);
	assert_string_equal(a.checksum, b.checksum);
	/* the same profile as a newer minor version: read, another sum */
	minor = strstr(text, "ioprofile/1\"");
	assert_non_null(minor);
	text = realloc(text, len + 3);
	assert_non_null(text);
	minor = strstr(text, "ioprofile/1\"") + strlen("ioprofile/1");
	memmove(minor + 2, minor, strlen(minor) + 1);
	memcpy(minor, ".3", 2);
	assert_int_equal(iosim_profile_parse(text, len + 2, "b", &b, &err), 0);
	assert_string_not_equal(a.checksum, b.checksum);
	free(text);
}

/* Two profiles equal to the writer's precision. */
static void assert_same_profile(const struct iosim_profile *a,
				const struct iosim_profile *b)
{
	int t, r, d;

	assert_int_equal(a->warehouses, b->warehouses);
	assert_string_equal(a->config, b->config);
	assert_string_equal(a->created, b->created);
	assert_true(a->duration_s == b->duration_s);
	for (t = 0; t < TXN_NR; t++) {
		assert_int_equal(a->txn[t].calls, b->txn[t].calls);
		assert_int_equal(a->txn[t].commits, b->txn[t].commits);
		assert_int_equal(a->txn[t].shared_blks_hit,
				 b->txn[t].shared_blks_hit);
		assert_int_equal(a->txn[t].shared_blks_read,
				 b->txn[t].shared_blks_read);
		assert_int_equal(a->txn[t].shared_blks_dirtied,
				 b->txn[t].shared_blks_dirtied);
		assert_int_equal(a->txn[t].shared_blks_written,
				 b->txn[t].shared_blks_written);
		assert_int_equal(a->txn[t].wal_records, b->txn[t].wal_records);
		assert_int_equal(a->txn[t].wal_bytes, b->txn[t].wal_bytes);
		for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
			assert_true(fabs(a->txn[t].read_share[r] -
					 b->txn[t].read_share[r]) < 1e-14);
			assert_true(fabs(a->txn[t].dirtied_share[r] -
					 b->txn[t].dirtied_share[r]) < 1e-14);
		}
	}
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		assert_int_equal(a->rel[r].pages, b->rel[r].pages);
		assert_true(fabs(a->rel[r].rows_per_page -
				 b->rel[r].rows_per_page) < 1e-12);
		assert_int_equal(a->layout.placement[r],
				 b->layout.placement[r]);
	}
	assert_int_equal(a->background.ndevices, b->background.ndevices);
	for (d = 0; d < a->background.ndevices; d++) {
		assert_string_equal(a->background.device[d].name,
				    b->background.device[d].name);
		/* 15 significant digits */
		assert_true(fabs(a->background.device[d].write_bytes_per_s -
				 b->background.device[d].write_bytes_per_s) <=
			    1e-14 * a->background.device[d].write_bytes_per_s);
	}
	assert_true(a->background.checkpoint_writes_per_s ==
		    b->background.checkpoint_writes_per_s);
	assert_int_equal(a->mix_commits, b->mix_commits);
	assert_true(a->background.wal_bytes_per_s ==
			    b->background.wal_bytes_per_s ||
		    (isnan(a->background.wal_bytes_per_s) &&
		     isnan(b->background.wal_bytes_per_s)));
	assert_int_equal(a->layout.kind, b->layout.kind);
	assert_int_equal(a->layout.directories, b->layout.directories);
	assert_int_equal(a->layout.npaths, b->layout.npaths);
	for (d = 0; d < a->layout.npaths; d++)
		assert_string_equal(a->layout.path[d], b->layout.path[d]);
}

static void test_round_trip(void **state)
{
	struct iosim_profile a, b;
	struct err err;
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(
		iosim_profile_read(fixture_path("ioprofile-valid.json"), &a,
				   &err),
		0);
	/* a table layout with a placement, and a second device */
	a.layout.kind = IOSIM_PROFILE_LAYOUT_TABLE;
	a.layout.directories = 3;
	a.layout.placement[IOSIM_PROFILE_REL_STOCK] = 2;
	a.layout.placement[IOSIM_PROFILE_REL_STOCK_PKEY] = 0;
	a.layout.npaths = 3;
	snprintf(a.layout.path[0], IOSIM_PROFILE_PATH_LEN, "/mnt/d1/ts");
	snprintf(a.layout.path[1], IOSIM_PROFILE_PATH_LEN, "/mnt/d2/ts");
	snprintf(a.layout.path[2], IOSIM_PROFILE_PATH_LEN, "/mnt/d3/ts");
	a.background.ndevices = 2;
	a.background.device[1] = a.background.device[0];
	snprintf(a.background.device[1].name, IOSIM_PROFILE_NAME_MAX, "vdb");
	a.background.device[1].write_bytes_per_s = 1.0 / 3;
	a.txn[TXN_PAYMENT].read_share[IOSIM_PROFILE_REL_CUSTOMER] = 0.7 / 3;
	a.txn[TXN_PAYMENT].read_share[IOSIM_PROFILE_REL_HISTORY] =
		0.1 + 0.7 * 2 / 3;
	a.created[0] = '\0';
	snprintf(path, sizeof(path), "%s/profile.json", root);
	/* a 1.0 profile is written as 1.1 without what it does not know */
	assert_int_equal(iosim_profile_write(path, &a, &err), 0);
	assert_int_equal(iosim_profile_read(path, &b, &err), 0);
	assert_same_profile(&a, &b);
	assert_true(fixture_file_contains(path, "\"mix_commits\": null"));
	/* and with them */
	a.mix_commits = 12345;
	a.background.wal_bytes_per_s = 250000.5;
	assert_int_equal(iosim_profile_write(path, &a, &err), 0);
	assert_int_equal(iosim_profile_read(path, &b, &err), 0);
	assert_same_profile(&a, &b);
	assert_true(fixture_file_contains(path, "\"created\": null"));
	assert_true(fixture_file_contains(path, "\"format\": "
						"\"oltpmark-ioprofile/1.1\""));
	/* shares of 0 are left out: stock_level reads four relations */
	{
		json_error_t jerr;
		json_t *j = json_load_file(path, 0, &jerr);

		assert_non_null(j);
		assert_int_equal(
			json_object_size(at(j, "transactions.stock_level."
					       "read_share")),
			4);
		json_decref(j);
	}
}

static void test_write_refuses(void **state)
{
	struct iosim_profile a;
	struct err err;
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(
		iosim_profile_read(fixture_path("ioprofile-valid.json"), &a,
				   &err),
		0);
	a.txn[TXN_DELIVERY].dirtied_share[IOSIM_PROFILE_REL_CUSTOMER] = 0.5;
	snprintf(path, sizeof(path), "%s/bad.json", root);
	assert_int_equal(iosim_profile_write(path, &a, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "transactions.delivery.dirtied_share: "
					"shares sum to 1.3, not 1"));
	assert_int_equal(access(path, F_OK), -1);
	/* a directory that does not exist: the atomic writer's message */
	a.txn[TXN_DELIVERY].dirtied_share[IOSIM_PROFILE_REL_CUSTOMER] = 0.2;
	snprintf(path, sizeof(path), "%s/no/such/dir.json", root);
	assert_true(iosim_profile_write(path, &a, &err) < 0);
	assert_non_null(strstr(err.msg, "no/such/dir.json.tmp"));
}

static void test_names(void **state)
{
	int r;

	(void)state;
	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++) {
		const char *n = iosim_profile_rel_name(r);

		assert_non_null(n);
		assert_int_equal(iosim_profile_rel_from_name(n), r);
		/* the schema's names: indexes end in _pkey or _idx */
		assert_int_equal(iosim_profile_rel_is_index(r),
				 strstr(n, "_pkey") || strstr(n, "_idx"));
	}
	assert_null(iosim_profile_rel_name(IOSIM_PROFILE_REL_NR));
	assert_int_equal(iosim_profile_rel_from_name("stok"), -1);
	assert_int_equal(iosim_profile_rel_from_name(NULL), -1);
	assert_string_equal(
		iosim_profile_layout_name(IOSIM_PROFILE_LAYOUT_WAREHOUSE),
		"warehouse");
	assert_null(iosim_profile_layout_name(IOSIM_PROFILE_LAYOUT_NR));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_fixture),
		cmocka_unit_test(test_per_commit),
		cmocka_unit_test(test_per_call),
		cmocka_unit_test(test_broken_fixtures),
		cmocka_unit_test(test_edits),
		cmocka_unit_test(test_not_profiles),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_write_refuses),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
