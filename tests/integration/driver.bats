#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of the pgsql driver (drivers/pgsql*.c) through `oltpmark run`
# against a throwaway server loaded with one warehouse: both transaction
# modes keep the database consistent and report exactly the New-Orders
# they committed; rollbacks, retries and lost connections are classified
# as docs/drivers.md says; the server description holds no password.
# The tests share one database and run in file order.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	pg_throwaway_start_w1
}

teardown_file() {
	pg_throwaway_stop
}

# run_workload MODE DIR SECONDS [CONNINFO] [OPTION...]: a W=1 run without
# keying and think times, four connections, no progress lines.
run_workload() {
	local mode=$1 dir=$2 secs=$3 conninfo=${4:-$OLTPMARK_CONNINFO}

	shift 4 || shift $#
	"$OLTPMARK" run -w 1 -d "$secs" --ramp-up 0 --keying-think none \
		-c 4 --progress 0 --tx-mode "$mode" --conninfo "$conninfo" \
		--out "$dir" "$@"
}

# assert_orders_match DIR GAINED: the committed New-Orders in DIR/mix.csv
# are exactly the orders the database gained, and the run had some.
assert_orders_match() {
	local ok

	ok=$(mix_count "$1" new_order ok)
	echo "committed in mix.csv: $ok, gained by the database: $2"
	((ok > 0))
	((ok == $2))
}

# assert_rollbacks DIR: about 1 % of the New-Orders rolled back (clause
# 2.4.1: an unused item), none failed.
assert_rollbacks() {
	local ok rb err

	ok=$(mix_count "$1" new_order ok)
	rb=$(mix_count "$1" new_order rollback)
	err=$(mix_count "$1" new_order error)
	echo "new_order ok $ok rollback $rb error $err"
	((err == 0))
	((ok + rb >= 500))
	# between 0.1 % and 3 %: far outside binomial noise at 500+ orders
	((rb * 1000 >= ok + rb && rb * 100 <= 3 * (ok + rb)))
}

# assert_consistent: `oltpmark check` passes C1-C10 and C12.
assert_consistent() {
	local c

	run "$OLTPMARK" check --conninfo "$OLTPMARK_CONNINFO"
	echo "$output"
	[ "$status" -eq 0 ]
	for c in C1 C2 C3 C4 C5 C6 C7 C8 C9 C10 C12; do
		grep -Eq "^$c +PASS" <<<"$output"
	done
}

# mode_run MODE: a 10 s run in MODE; its orders must match the database's.
mode_run() {
	local before after dir=$BATS_FILE_TMPDIR/$1

	before=$(next_o_id_sum)
	run run_workload "$1" "$dir" 10
	echo "$output"
	[ "$status" -eq 0 ]
	after=$(next_o_id_sum)
	assert_orders_match "$dir" $((after - before))
	assert_rollbacks "$dir"
	# nothing but the header and one row per transaction
	[ "$(head -1 "$dir/mix.csv")" = "t_ms,terminal,type,status,response_us,service_us" ]
	[ "$(grep -c ',error,' "$dir/mix.csv")" -eq 0 ]
}

# kill_run MODE: kill every oltpmark backend once while a run in MODE is
# under way, once all four are connected and New-Orders have committed.
# The workers reconnect, the run completes, and no committed New-Order is
# lost or invented (a COMMIT that succeeded before the connection broke
# still counts as committed).
kill_run() {
	local before after dir=$BATS_FILE_TMPDIR/kill-$1 pid i n status=0

	before=$(next_o_id_sum)
	run_workload "$1" "$dir" 5 >"$dir.log" 2>&1 &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		n=$(psql_value "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'oltpmark-run'")
		((n >= 4)) && (($(next_o_id_sum) > before + 20)) && break
		sleep 0.1
	done
	psql_value "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'oltpmark-run'"
	wait "$pid" || status=$?
	cat "$dir.log"
	[ "$status" -eq 0 ]
	after=$(next_o_id_sum)
	assert_orders_match "$dir" $((after - before))
	[ "$(json_eval "$dir/run.json" "d['connections_lost']")" -ge 1 ]
	[ "$(json_eval "$dir/run.json" "d['reconnects']")" -ge 1 ]
	grep -q 'connection lost' "$dir.log"
	assert_consistent
}

@test "procedure mode: committed New-Orders in mix.csv are the orders the database gained" {
	mode_run procedure
}

@test "procedure mode leaves the database consistent (C1-C10, C12)" {
	assert_consistent
}

@test "sql mode: committed New-Orders in mix.csv are the orders the database gained" {
	mode_run sql
}

@test "sql mode after procedure mode leaves the database consistent" {
	assert_consistent
}

@test "under SERIALIZABLE, serialization failures are retried and counted, and nothing is lost" {
	local before after dir=$BATS_FILE_TMPDIR/serializable
	local conninfo="$OLTPMARK_CONNINFO options='-c default_transaction_isolation=serializable'"

	before=$(next_o_id_sum)
	run run_workload sql "$dir" 5 "$conninfo"
	echo "$output"
	[ "$status" -eq 0 ]
	after=$(next_o_id_sum)
	assert_orders_match "$dir" $((after - before))
	[ "$(json_eval "$dir/run.json" "sum(t['retries'] for t in d['counts'].values())")" -gt 0 ]
	[ "$(json_eval "$dir/summary.json" "sum(t['retries'] for t in d['types'].values())")" -gt 0 ]
	assert_consistent
}

@test "procedure mode: killed connections are reconnected, committed orders still match" {
	kill_run procedure
}

@test "sql mode: killed connections are reconnected, committed orders still match" {
	kill_run sql
}

@test "meta.json describes the server: version, settings, size, postmaster PID, socket; no password" {
	local dir=$BATS_FILE_TMPDIR/describe secret=drv-test-password-4711

	run run_workload procedure "$dir" 1 "$OLTPMARK_CONNINFO password=$secret"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output != *"$secret"* ]]
	run ! grep -rq -- "$secret" "$dir"
	[ "$(json_eval "$dir/meta.json" "d['server']['driver']")" = pgsql ]
	[ "$(json_eval "$dir/meta.json" "d['server']['tx_mode']")" = procedure ]
	[ "$(json_eval "$dir/meta.json" "d['server']['version_num']")" -ge 100000 ]
	[ -n "$(json_eval "$dir/meta.json" "d['server']['version']")" ]
	[ "$(json_eval "$dir/meta.json" "d['server']['database']")" = oltpmark ]
	[ "$(json_eval "$dir/meta.json" "d['server']['database_size_bytes']")" -gt 1000000 ]
	[ "$(json_eval "$dir/meta.json" "d['server']['settings']['fsync']")" = on ]
	[ -n "$(json_eval "$dir/meta.json" "d['server']['settings']['shared_buffers']")" ]
	[ "$(json_eval "$dir/meta.json" "d['server']['unix_socket']")" = "$PGHOST" ]
	[ "$(json_eval "$dir/meta.json" "d['server']['port']")" -eq "$PGPORT" ]
	[ "$(json_eval "$dir/meta.json" "d['server']['postmaster_pid']")" -eq "$(head -1 "$PGTEST_DIR/data/postmaster.pid")" ]
}

@test "a server-side error is an error, with its SQLSTATE in the debug log, and costs nothing else" {
	local dir=$BATS_FILE_TMPDIR/nofunc conninfo

	psql_value "CREATE DATABASE nofunc TEMPLATE oltpmark" "${OLTPMARK_CONNINFO/dbname=oltpmark/dbname=postgres}"
	conninfo=${OLTPMARK_CONNINFO/dbname=oltpmark/dbname=nofunc}
	psql_value "DROP FUNCTION stock_level(integer, integer, integer)" "$conninfo"
	run run_workload procedure "$dir" 3 "$conninfo" --debug driver
	[ "$status" -eq 0 ]
	grep -q 'stock_level: error 42883' <<<"$output"
	[ "$(mix_count "$dir" stock_level error)" -gt 0 ]
	[ "$(mix_count "$dir" stock_level ok)" -eq 0 ]
	[ "$(mix_count "$dir" payment error)" -eq 0 ]
	[ "$(mix_count "$dir" new_order ok)" -gt 0 ]
}
