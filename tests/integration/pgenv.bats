#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libpq's PG* environment variables supply whatever a --conninfo leaves
# out, for every command that takes one (docs/run.md, "Options from psql
# and pgbench"): the throwaway server is reached through PGHOST and PGPORT
# alone, a wrong PGPORT fails, a port= in the conninfo wins over PGPORT.
# And the bad inputs that once left something behind: run --out under a
# missing parent, calibrate against a dead server. The tests share the
# database loaded by setup_file.

# $stderr is set by bats' `run --separate-stderr`.
# shellcheck disable=SC2154

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	pg_throwaway_start
	# PGHOST, PGPORT, PGDATABASE and PGUSER from pg_throwaway_start only
	"$OLTPMARK" load -w 1 -j 2 --seed 3 >/dev/null 2>&1
}

teardown_file() {
	pg_throwaway_stop
}

@test "no --conninfo: load's database is reached through PGHOST and PGPORT" {
	run "$OLTPMARK" check --quick
	[ "$status" -eq 0 ]
	# the same with a conninfo naming only the database
	run "$OLTPMARK" check --quick --conninfo "dbname=$PGDATABASE"
	[ "$status" -eq 0 ]
}

@test "a wrong PGPORT is used, and fails; a port= in the conninfo wins" {
	real=$PGPORT
	PGPORT=1 run --separate-stderr "$OLTPMARK" check --quick \
		--conninfo "$PGDATABASE"
	[ "$status" -eq 1 ]
	[[ $stderr == *"cannot connect to socket directory $PGHOST port 1: "* ]]
	PGPORT=1 run "$OLTPMARK" check --quick --conninfo "port=$real"
	[ "$status" -eq 0 ]
	# run: a bare database name, the rest from PG*
	dir=$BATS_TEST_TMPDIR/run
	PGPORT=$real run "$OLTPMARK" run -w 1 -d 1 --ramp-up 0 --progress 0 \
		--keying-think none -c 1 --conninfo "$PGDATABASE" --out "$dir"
	[ "$status" -eq 0 ]
	[ -s "$dir/summary.json" ]
}

@test "calibrate and PGPORT: a dead server leaves no --out behind" {
	PGPORT=1 run --separate-stderr "$OLTPMARK" calibrate \
		--profile "$BATS_TEST_TMPDIR/p.json" --out "$BATS_TEST_TMPDIR/cal"
	[ "$status" -eq 1 ]
	[[ $stderr == *"cannot connect to socket directory $PGHOST port 1: "* ]]
	[ ! -e "$BATS_TEST_TMPDIR/cal" ]
	[ ! -e "$BATS_TEST_TMPDIR/p.json" ]
}

@test "run --out under a missing parent: exit 2, one line, nothing created" {
	top=$BATS_TEST_TMPDIR/nonexistent
	run --separate-stderr "$OLTPMARK" run --driver null -w 1 -d 1 \
		--out "$top/p/r"
	[ "$status" -eq 2 ]
	[[ $stderr == *"--out"*"parent"* ]]
	[ ! -e "$top" ]
	# the directory itself is still made when its parent exists
	run "$OLTPMARK" run --driver null -w 1 -d 1 --ramp-up 0 --progress 0 \
		--out "$BATS_TEST_TMPDIR/r/"
	[ "$status" -eq 0 ]
	[ -s "$BATS_TEST_TMPDIR/r/summary.json" ]
}
