/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iosim_driver.c - drivers/iosim.c as the engine uses it: an
 * instance opened on a data directory prepared for a fixture profile
 * (tests/fixtures/ioprofile-small.json, whose per-call reads, dirtied
 * pages and WAL bytes are whole numbers), a connection, and a few
 * attempts of each type: the preads and WAL bytes of each type are the
 * profile's per call, exactly; a New-Order that rolls back appends its
 * WAL without committing; the checkpointer writes back the profile's
 * pages per commit; the driver's stats report the same counts; an
 * instance is refused without a profile or for more warehouses than the
 * profile's; describe() carries the calibration's figures per commit of
 * a 1.1 profile (tests/fixtures/ioprofile-fidelity.json) into meta.json.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "drivers/iosim.h"
#include "drivers/iosim_profile.h"
#include "tests/unit/fixture_util.h"

#define FIXTURE	 "ioprofile-small.json"
#define ATTEMPTS 7 /* of each type */

static char root[256];		     /* this test's temporary directory */
static const struct driver_ops *drv; /* the iosim driver */

static int setup(void **state)
{
	struct iosim_profile prof;
	struct err err;

	(void)state;
	drv = driver_find("iosim");
	if (!drv || !fixture_temp_dir(root, sizeof(root), "test_iosim_driver"))
		return -1;
	if (iosim_profile_read(fixture_path(FIXTURE), &prof, &err) < 0 ||
	    iosim_prepare(root, &prof, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_rm_rf(root);
}

/* A valid input of type for warehouse 1; i varies the keys. */
static void make_input(enum txn_type type, int i, bool rollback,
		       struct txn_input *in)
{
	int l;

	memset(in, 0, sizeof(*in));
	in->type = type;
	switch (type) {
	case TXN_NEW_ORDER:
		in->u.new_order.w_id = 1;
		in->u.new_order.d_id = 1 + i % 10;
		in->u.new_order.c_id = 1 + (i * 37) % 3000;
		in->u.new_order.ol_cnt = 10;
		for (l = 0; l < 10; l++) {
			in->u.new_order.ol_i_id[l] =
				1 + (i * 911 + l * 97) % 100000;
			in->u.new_order.ol_supply_w_id[l] = 1;
			in->u.new_order.ol_quantity[l] = 5;
		}
		in->u.new_order.rollback = rollback;
		break;
	case TXN_PAYMENT:
		in->u.payment.w_id = 1;
		in->u.payment.d_id = 1 + i % 10;
		in->u.payment.c_w_id = 1;
		in->u.payment.c_d_id = 1 + i % 10;
		in->u.payment.c_id = 1 + (i * 53) % 3000;
		in->u.payment.h_amount_cents = 1000;
		break;
	case TXN_ORDER_STATUS:
		in->u.order_status.w_id = 1;
		in->u.order_status.d_id = 1 + i % 10;
		in->u.order_status.c_id = 1 + (i * 71) % 3000;
		break;
	case TXN_DELIVERY:
		in->u.delivery.w_id = 1;
		in->u.delivery.o_carrier_id = 1 + i % 10;
		break;
	case TXN_STOCK_LEVEL:
		in->u.stock_level.w_id = 1;
		in->u.stock_level.d_id = 1 + i % 10;
		in->u.stock_level.threshold = 15;
		break;
	default:
		fail();
	}
}

static void open_instance_of(const char *fixture, struct driver_instance **inst,
			     struct driver_conn **conn)
{
	struct driver_config cfg = {
		.warehouses = 1,
		.profile = fixture_path(fixture),
		.data_dir = root,
		.io_mode = DRIVER_IO_BUFFERED,
	};
	struct err err;

	if (drv->instance_open(&cfg, inst, &err) < 0)
		fail_msg("instance_open: %s", err.msg);
	cfg.instance = *inst;
	if (drv->connect(&cfg, conn, &err) < 0)
		fail_msg("connect: %s", err.msg);
}

static void open_instance(struct driver_instance **inst,
			  struct driver_conn **conn)
{
	open_instance_of(FIXTURE, inst, conn);
}

/* Wait up to ms for the checkpointer to have written n pages. */
static void wait_written(struct driver_instance *inst, uint64_t n, int ms)
{
	struct iosim_counts k;
	int waited;

	for (waited = 0; waited < ms; waited += 5) {
		iosim_counts(inst, &k);
		if (k.written >= n)
			return;
		usleep(5000);
	}
	fail_msg("%llu pages written after %d ms, want %llu",
		 (unsigned long long)k.written, ms, (unsigned long long)n);
}

/* The relations type reads from. */
static int nshares(const struct iosim_profile *prof, int type)
{
	int r, n = 0;

	for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
		n += prof->txn[type].read_share[r] > 0;
	return n;
}

static void test_counts_match_profile(void **state)
{
	struct driver_instance *inst;
	struct driver_conn *conn;
	struct iosim_profile prof;
	struct iosim_counts before, after;
	struct driver_stats st;
	struct txn_input in;
	struct txn_output out;
	struct err err;
	uint64_t commits;
	double wal, reads, per_commit;
	int t, r, i;

	(void)state;
	assert_int_equal(iosim_profile_read(fixture_path(FIXTURE), &prof, &err),
			 0);
	/* (40 + 5 + 0.8) pages/s × 100 s over 2290 commits */
	per_commit = iosim_writeback_pages_per_commit(&prof);
	assert_true(fabs(per_commit - 2.0) < 1e-9);
	open_instance(&inst, &conn);
	for (t = 0; t < TXN_NR; t++) {
		reads = 0;
		for (r = 0; r < IOSIM_PROFILE_REL_NR; r++)
			reads += iosim_profile_reads_per_call(
				&prof, (enum txn_type)t,
				(enum iosim_profile_rel)r);
		wal = iosim_profile_wal_bytes_per_call(&prof, (enum txn_type)t);
		iosim_counts(inst, &before);
		for (i = 0; i < ATTEMPTS; i++) {
			make_input((enum txn_type)t, i, false, &in);
			memset(&out, 0, sizeof(out));
			assert_int_equal(drv->attempt(conn, &in, &out),
					 DRIVER_DONE);
			assert_int_equal(out.status, TXN_STATUS_OK);
		}
		iosim_counts(inst, &after);
		/*
		 * Whole numbers per call in the fixture, shared out over the
		 * relations: each relation carries its fraction to the next
		 * call, so the total is short by less than a block per
		 * relation, never over.
		 */
		assert_true(fabs(reads - round(reads)) < 1e-9);
		assert_in_range(after.reads - before.reads,
				llround(reads) * ATTEMPTS - nshares(&prof, t),
				llround(reads) * ATTEMPTS);
		assert_int_equal(after.wal_bytes - before.wal_bytes,
				 (uint64_t)llround(wal) * ATTEMPTS);
		assert_int_equal(after.commits - before.commits, ATTEMPTS);
		assert_int_equal(after.rollbacks, before.rollbacks);
	}
	/* a rollback: its reads and WAL, no commit */
	iosim_counts(inst, &before);
	make_input(TXN_NEW_ORDER, 99, true, &in);
	assert_int_equal(drv->attempt(conn, &in, &out), DRIVER_DONE);
	assert_int_equal(out.status, TXN_STATUS_ROLLBACK);
	iosim_counts(inst, &after);
	assert_in_range(after.reads - before.reads, 0,
			3 + nshares(&prof, TXN_NEW_ORDER));
	assert_int_equal(after.wal_bytes - before.wal_bytes, 600);
	assert_int_equal(after.commits, before.commits);
	assert_int_equal(after.rollbacks - before.rollbacks, 1);
	/*
	 * The write-back follows the commits: 2 pages each, as many as the
	 * attempts left dirty allow.
	 */
	commits = after.commits;
	assert_int_equal(commits, TXN_NR * ATTEMPTS);
	assert_true(after.written + after.dirty >= 2 * commits);
	wait_written(inst, 2 * commits, 5000);
	usleep(30000);
	iosim_counts(inst, &after);
	assert_int_equal(after.written, 2 * commits);
	/* the stats the engine records say the same */
	assert_int_equal(drv->stats(conn, &st, &err), 0);
	assert_int_equal(st.blks_read, (long long)after.reads);
	assert_int_equal(st.xact_commit, (long long)commits);
	assert_int_equal(st.xact_rollback, 1);
	assert_int_equal(st.buffers_checkpoint, (long long)after.written);
	assert_int_equal(st.wal_bytes, (long long)after.wal_bytes);
	assert_int_equal(st.blks_hit, -1);
	drv->disconnect(conn);
	assert_int_equal(drv->instance_close(inst, &err), 0);
}

/* A number at a dotted path of j, NAN when absent or not a number. */
static double num_at(const json_t *j, const char *path)
{
	char buf[256], *save = NULL, *part;

	snprintf(buf, sizeof(buf), "%s", path);
	for (part = strtok_r(buf, ".", &save); part && j;
	     part = strtok_r(NULL, ".", &save))
		j = json_object_get(j, part);
	return json_is_number(j) ? json_number_value(j) : NAN;
}

static void test_describe_per_commit(void **state)
{
	struct driver_instance *inst;
	struct driver_conn *conn;
	struct err err;
	json_t *server;

	(void)state;
	/* a 1.0 profile knows nothing per commit: no key */
	open_instance(&inst, &conn);
	server = json_object();
	assert_int_equal(drv->describe(conn, server, &err), 0);
	assert_non_null(json_object_get(server, "io_profile"));
	assert_null(json_object_get(json_object_get(server, "io_profile"),
				    "per_commit"));
	json_decref(server);
	drv->disconnect(conn);
	assert_int_equal(drv->instance_close(inst, &err), 0);
	/* a 1.1 profile: the fixture's round figures */
	open_instance_of("ioprofile-fidelity.json", &inst, &conn);
	server = json_object();
	assert_int_equal(drv->describe(conn, server, &err), 0);
	assert_true(num_at(server, "io_profile.per_commit.commits") == 2000);
	assert_true(num_at(server, "io_profile.per_commit.wal_bytes") == 5000);
	assert_true(num_at(server, "io_profile.per_commit.devices.vda.reads") ==
		    5);
	assert_true(num_at(server, "io_profile.per_commit.devices.vda."
				   "write_bytes") == 40960);
	assert_true(num_at(server, "io_profile.per_commit.devices.vdb."
				   "writes") == 0);
	json_decref(server);
	drv->disconnect(conn);
	assert_int_equal(drv->instance_close(inst, &err), 0);
}

static void test_refused(void **state)
{
	struct driver_config cfg = {
		.warehouses = 1,
		.data_dir = root,
		.io_mode = DRIVER_IO_BUFFERED,
	};
	struct driver_instance *inst = NULL;
	struct err err;

	(void)state;
	assert_int_equal(drv->instance_open(&cfg, &inst, &err), -EINVAL);
	assert_null(inst);
	cfg.profile = fixture_path(FIXTURE);
	cfg.warehouses = 2;
	assert_true(drv->instance_open(&cfg, &inst, &err) < 0);
	assert_null(inst);
	assert_non_null(strstr(err.msg, "warehouses"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_match_profile),
		cmocka_unit_test(test_describe_per_commit),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
