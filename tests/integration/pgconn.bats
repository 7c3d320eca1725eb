#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of the PostgreSQL access layer (drivers/pgconn.c) through the
# commands that use it, against a throwaway server: the loader, the check
# and the pgsql driver show themselves in pg_stat_activity as
# oltpmark-load, oltpmark-check and oltpmark-run, whatever the conninfo
# says; a bare database name means the same to load, check and run (the
# PG* variables of helpers.bash supply the rest); `check --meta` prints
# oltpmark_meta; the check's row-by-row scan (pgconn_each_row) reports
# the rows that break a condition and the server's line for a failure.
# The tests share database "bare" and run in file order.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	pg_throwaway_start
	psql_value "CREATE DATABASE bare"
}

teardown_file() {
	pg_throwaway_stop
}

setup() {
	BG_PID=
	LOCK_PID=
}

teardown() {
	release_lock
	if [[ -n $BG_PID ]]; then
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
}

# hold_lock DB TABLE: lock TABLE of DB in a background session (its
# application_name is pgconn-bats-lock) until release_lock, so that a
# command touching the table waits where pg_stat_activity can see it.
hold_lock() {
	PGAPPNAME=pgconn-bats-lock "$PSQL" -XAtq -d "$1" \
		-c "BEGIN" -c "LOCK TABLE $2 IN ACCESS EXCLUSIVE MODE" \
		-c "SELECT pg_sleep(120)" >/dev/null 2>&1 &
	LOCK_PID=$!
	wait_for_app pgconn-bats-lock "state = 'active'"
}

# release_lock: end the session of hold_lock, if any.
release_lock() {
	[[ -n $LOCK_PID ]] || return 0
	psql_value "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		     WHERE application_name = 'pgconn-bats-lock'" >/dev/null
	wait "$LOCK_PID" 2>/dev/null || true
	LOCK_PID=
}

# app_backends N NAME [CONDITION]: at least N backends with
# application_name NAME (and CONDITION) are in pg_stat_activity.
app_backends() {
	local n

	n=$(psql_value "SELECT count(*) FROM pg_stat_activity
			 WHERE application_name = '$2' AND ${3:-true}") || return 1
	((n >= $1))
}

# wait_for_app NAME [CONDITION]: wait up to 30 s until a backend with
# application_name NAME (and CONDITION) is in pg_stat_activity.
wait_for_app() {
	wait_for 30 app_backends 1 "$@"
}

# apps: the application_names of every client backend but ours, sorted.
# Ours are also the psql sessions of the polls just before, whose
# backends may still be ending.
apps() {
	psql_value "SELECT coalesce(string_agg(DISTINCT application_name, ' '
				ORDER BY application_name), '')
		      FROM pg_stat_activity
		     WHERE backend_type = 'client backend'
		       AND pid <> pg_backend_pid()
		       AND application_name NOT IN ('pgconn-bats-lock', 'psql')"
}

@test "a bare database name: load, check and check --meta take it as the database" {
	run "$OLTPMARK" load -w 1 -j 2 --seed 7 --conninfo bare
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(psql_value "SELECT count(*) FROM warehouse" "$OLTPMARK_CONNINFO dbname=bare")" -eq 1 ]
	run "$OLTPMARK" check --quick --conninfo bare
	echo "$output"
	[ "$status" -eq 0 ]
	run "$OLTPMARK" check --meta --conninfo bare
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = status=loaded ]
	[ "${lines[1]}" = warehouses=1 ]
	[[ ${lines[2]} =~ ^c_load_c_last=[0-9]+$ ]]
	[ "${lines[3]}" = seed=7 ]
	[[ ${lines[4]} == version=?* ]]
	[[ ${lines[5]} == load_started=?* ]]
	[[ ${lines[6]} == load_finished=?* ]]
	[ "${lines[7]}" = layout=single ]
	[[ ${lines[8]} == 'layout_map={"layout":"single",'* ]]
	[ "${#lines[@]}" -eq 9 ]
}

@test "a bare database name: run takes it too and records it as dbname='bare'" {
	local dir=$BATS_TEST_TMPDIR/bare

	run "$OLTPMARK" run -w 1 -d 1 --ramp-up 0 --keying-think none -c 2 \
		--progress 0 --conninfo bare --out "$dir"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_eval "$dir/meta.json" "d['options']['conninfo']")" = "dbname='bare'" ]
	[ "$(json_eval "$dir/meta.json" "d['server']['database']")" = bare ]
}

@test "a bare name of a missing database: load, check and run fail alike" {
	local cmd

	for cmd in "load -w 1" check "check --meta" \
		"run -w 1 -d 1 --out $BATS_TEST_TMPDIR/nosuch"; do
		# shellcheck disable=SC2086
		run "$OLTPMARK" $cmd --conninfo nosuchdb
		echo "$cmd -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"cannot connect to socket directory $PGHOST port $PGPORT: database \"nosuchdb\" does not exist" ]]
	done
}

@test "a conninfo that does not parse: load, check and run refuse it alike (exit 2, no password)" {
	local cmd

	for cmd in "load -w 1" check "check --meta" \
		"run -w 1 -d 1 --out $BATS_TEST_TMPDIR/bad"; do
		# shellcheck disable=SC2086
		run "$OLTPMARK" $cmd --conninfo "host='x password=s3cret"
		echo "$cmd -> $status: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"--conninfo"* ]]
		[[ $output != *s3cret* ]]
	done
}

@test "the loader's backends are oltpmark-load, whatever the conninfo says" {
	hold_lock bare warehouse
	"$OLTPMARK" load -w 1 -j 2 --drop --seed 7 \
		--conninfo "$OLTPMARK_CONNINFO dbname=bare application_name=mine" &
	BG_PID=$!
	# it waits for the lock in DROP TABLE, in plain sight
	wait_for_app oltpmark-load "wait_event_type = 'Lock'"
	[ "$(apps)" = oltpmark-load ]
	release_lock
	wait "$BG_PID"
	BG_PID=
}

@test "the check's backends are oltpmark-check" {
	hold_lock bare order_line
	"$OLTPMARK" check -j 2 --conninfo bare >/dev/null &
	BG_PID=$!
	wait_for_app oltpmark-check "wait_event_type = 'Lock'"
	[ "$(apps)" = oltpmark-check ]
	release_lock
	wait "$BG_PID"
	BG_PID=
}

@test "the pgsql driver's backends are oltpmark-run, whatever the conninfo says" {
	local dir=$BATS_TEST_TMPDIR/app n

	"$OLTPMARK" run -w 1 -d 3 --ramp-up 0 --keying-think none -c 3 \
		--progress 0 --out "$dir" \
		--conninfo "$OLTPMARK_CONNINFO dbname=bare application_name=mine" &
	BG_PID=$!
	# three workers and the monitor, once all have connected
	wait_for 30 app_backends 4 oltpmark-run
	n=$(psql_value "SELECT count(*) FROM pg_stat_activity
			 WHERE application_name = 'oltpmark-run'")
	echo "oltpmark-run backends: $n"
	((n == 4))
	[ "$(apps)" = oltpmark-run ]
	wait "$BG_PID"
	BG_PID=
}

@test "the check's row-by-row scan: a broken condition lists its rows, a failing one the server's line" {
	local db="$OLTPMARK_CONNINFO dbname=bare"

	# a district whose next order id is off: condition 2 has one row
	psql_value "UPDATE district SET d_next_o_id = d_next_o_id + 5
		     WHERE d_w_id = 1 AND d_id = 3" "$db"
	run "$OLTPMARK" check --quick --conninfo bare
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *" FAIL "*"(1 row; first: (1,3"* ]]
	# a statement the server refuses: the condition is an ERROR with its line
	psql_value "ALTER TABLE district RENAME COLUMN d_next_o_id TO next_o_id_x" "$db"
	run "$OLTPMARK" check --quick --conninfo bare
	echo "$output"
	psql_value "ALTER TABLE district RENAME COLUMN next_o_id_x TO d_next_o_id" "$db"
	psql_value "UPDATE district SET d_next_o_id = d_next_o_id - 5
		     WHERE d_w_id = 1 AND d_id = 3" "$db"
	[ "$status" -eq 1 ]
	[[ $output == *" ERROR "*"d_next_o_id"*"does not exist)"* ]]
	# and the database is whole again
	run "$OLTPMARK" check --quick --conninfo bare
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "check --meta prints a load under way, and refuses a database that has none" {
	psql_value "UPDATE oltpmark_meta SET status = 'loading', load_finished = NULL" \
		"$OLTPMARK_CONNINFO dbname=bare"
	run "$OLTPMARK" check --meta --conninfo bare
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = status=loading ]
	[ "${lines[6]}" = load_finished= ]
	# the same database, refused by check and run
	run "$OLTPMARK" check --conninfo bare
	[ "$status" -eq 1 ]
	[[ $output == *"did not finish"* ]]
	run "$OLTPMARK" run -w 1 -d 1 --conninfo bare --out "$BATS_TEST_TMPDIR/loading"
	[ "$status" -eq 1 ]
	[[ $output == *"oltpmark_meta says 'loading'"* ]]
	# a database oltpmark did not load
	run "$OLTPMARK" check --meta
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"not an oltpmark database"* ]]
}
