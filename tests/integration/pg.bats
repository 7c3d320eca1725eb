#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of run/pg, the private PostgreSQL cluster manager: one cluster is
# started for the whole file (with a start argument to check it arrives).
# The tests that start, stop or break a second cluster share one more,
# initialized once (initdb is most of their time) and stopped again after
# each test, so that each begins with it initialized and stopped; tests of
# init make their own.
#
# Each test runs in its own subshell; EXTRA_DIRS is set in setup and read in
# teardown of the same test, which is what shellcheck cannot see.
# shellcheck disable=SC2030,SC2031

load helpers

setup_file() {
	pg_throwaway_start -c work_mem=7MB
	SPARE_DIR=$(pg_mktemp)
	export SPARE_DIR
}

teardown_file() {
	if [[ -f $SPARE_DIR/.oltpmark-cluster ]]; then
		pg_discard "$SPARE_DIR"
	else
		rm -rf -- "$SPARE_DIR"
	fi
	pg_throwaway_stop
}

setup() {
	# Extra directories made by a test, removed in teardown.
	EXTRA_DIRS=()
	SLEEP_PID=
	SPARE_USED=
}

teardown() {
	local d

	if [[ -n $SLEEP_PID ]]; then
		kill "$SLEEP_PID" 2>/dev/null || true
		wait "$SLEEP_PID" 2>/dev/null || true
	fi
	# The spare cluster stopped, as the next test expects it: by PID,
	# and a postmaster.pid no process stands behind removed (a test of
	# a stale one that failed half-way).
	if [[ -n $SPARE_USED ]]; then
		"$RUN_PG" stop "$SPARE_DIR"
		[[ -n $(pg_dir_pids "$SPARE_DIR/data") ]] ||
			rm -f -- "$SPARE_DIR/data/postmaster.pid"
	fi
	for d in "${EXTRA_DIRS[@]}"; do
		if [[ -d $d && ! -f $d/.oltpmark-cluster ]]; then
			rm -rf -- "$d"
		else
			pg_discard "$d"
		fi
	done
}

# new_cluster: the spare cluster, initialized and stopped, as NEW_DIR.
# The first test to need it runs init (again, if an init was cut short);
# NEW_LOG_START is the size of its server.log before this test.
new_cluster() {
	NEW_DIR=$SPARE_DIR
	SPARE_USED=1
	if ! grep -qsx 'state=ready' "$NEW_DIR/.oltpmark-cluster"; then
		rm -rf -- "$NEW_DIR"
		mkdir -m 0700 -- "$NEW_DIR"
		"$RUN_PG" init "$NEW_DIR"
	fi
	NEW_LOG_START=$(stat -c %s "$NEW_DIR/server.log" 2>/dev/null || echo 0)
}

server_user() {
	if ((EUID == 0)); then
		echo postgres
	else
		id -un
	fi
}

@test "init and start give a working database at the conninfo" {
	local port user

	port=$(<"$PGTEST_DIR/port")
	user=$(server_user)
	run "$RUN_PG" conninfo "$PGTEST_DIR"
	[ "$status" -eq 0 ]
	[ "$output" = "host=$PGTEST_DIR/socket port=$port dbname=oltpmark user=$user" ]
	[ "$OLTPMARK_CONNINFO" = "$output" ]

	run psql_value "SELECT current_database() || ' ' || current_user"
	[ "$status" -eq 0 ]
	[ "$output" = "oltpmark $user" ]
	[ "$(psql_value 'SHOW server_encoding')" = UTF8 ]
	[ "$(psql_value 'SHOW lc_collate')" = C ]
	[ "$(psql_value 'SHOW lc_ctype')" = C ]
	[ "$(psql_value 'SHOW port')" = "$port" ]
	# The PG* variables reach the same server.
	run "$PSQL" -XAtq -c "SELECT current_database()"
	[ "$status" -eq 0 ]
	[ "$output" = oltpmark ]
	[ -f "$PGTEST_DIR/.oltpmark-cluster" ]
	grep -qx 'state=ready' "$PGTEST_DIR/.oltpmark-cluster"
}

@test "no TCP listener: listen_addresses is empty and the port is unused" {
	local port

	port=$(<"$PGTEST_DIR/port")
	run psql_value "SHOW listen_addresses"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run tcp_listening "$port"
	[ "$status" -ne 0 ]
	# Only the unix socket in DIR/socket exists under that number.
	[ -S "$PGTEST_DIR/socket/.s.PGSQL.$port" ]
	run grep -c "\.s\.PGSQL\.$port\$" /proc/net/unix
	[ "$output" -eq 1 ]
}

@test "socket directory is mode 0700 and owned by the server's user" {
	[ "$(stat -c %a "$PGTEST_DIR/socket")" = 700 ]
	[ "$(stat -c %U "$PGTEST_DIR/socket")" = "$(server_user)" ]
	[ "$(stat -c %a "$PGTEST_DIR/data")" = 700 ]
}

@test "start arguments reach the server" {
	run psql_value "SHOW work_mem"
	[ "$status" -eq 0 ]
	[ "$output" = 7MB ]
	run psql_value "SELECT source FROM pg_settings WHERE name = 'work_mem'"
	[ "$output" = "command line" ]
}

@test "init writes the documented defaults and logs to server.log" {
	[ "$(psql_value 'SHOW max_connections')" = 200 ]
	[ "$(psql_value 'SHOW log_checkpoints')" = on ]
	[ "$(psql_value 'SHOW max_wal_size')" = 8GB ]
	[ "$(psql_value 'SHOW checkpoint_timeout')" = 5min ]
	[ "$(psql_value 'SHOW logging_collector')" = off ]
	grep -q 'database system is ready to accept connections' \
		"$PGTEST_DIR/server.log"
}

@test "status reports the running postmaster" {
	local pid

	read -r pid <"$PGTEST_DIR/data/postmaster.pid"
	run "$RUN_PG" status "$PGTEST_DIR"
	[ "$status" -eq 0 ]
	[ "$output" = "running pid=$pid port=$(<"$PGTEST_DIR/port") socket=$PGTEST_DIR/socket" ]
	[ "$(psql_value 'SELECT pg_postmaster_start_time() IS NOT NULL')" = t ]
	[ "$(readlink "/proc/$pid/cwd")" = "$PGTEST_DIR/data" ]
}

@test "start on a running cluster fails and leaves it running" {
	local pid

	read -r pid <"$PGTEST_DIR/data/postmaster.pid"
	run "$RUN_PG" start "$PGTEST_DIR" -- -c work_mem=1MB
	[ "$status" -eq 1 ]
	[[ $output == *"already running (pid $pid)"* ]]
	[ "$(psql_value 'SHOW work_mem')" = 7MB ]
}

@test "init on an initialized cluster changes nothing" {
	local before

	before=$(cat "$PGTEST_DIR/port" "$PGTEST_DIR/.oltpmark-cluster")
	run "$RUN_PG" init "$PGTEST_DIR"
	[ "$status" -eq 0 ]
	[[ $output == *"already initialized"* ]]
	[ "$(cat "$PGTEST_DIR/port" "$PGTEST_DIR/.oltpmark-cluster")" = "$before" ]
}

@test "start refuses settings that run/pg manages and malformed arguments" {
	local arg

	for arg in "-c listen_addresses=*" "-c port=5432" "--port=5432" \
	    "-cunix_socket_directories=/tmp" "--Listen-Addresses=localhost" \
	    "-c data_directory=/x" "-c logging_collector=on" "-p 5432" \
	    "-i" "--single" "-c" "-c work_mem"; do
		# shellcheck disable=SC2086 # split into separate arguments
		run "$RUN_PG" start "$PGTEST_DIR" -- $arg
		echo "$arg -> $status: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
	done
	[ "$(psql_value 'SELECT 1')" = 1 ]
}

@test "commands refuse a data directory without the marker, untouched" {
	local dir sub cmd before

	for sub in "" data; do
		dir=$(mktemp -d "${BATS_TMPDIR:-/tmp}/oltpmark-foreign.XXXXXX")
		EXTRA_DIRS+=("$dir")
		mkdir -p "$dir/$sub/socket"
		echo 15 >"$dir/$sub/PG_VERSION"
		echo "port = 5432" >"$dir/$sub/postgresql.conf"
		echo "$$" >"$dir/$sub/postmaster.pid"
		echo 5432 >"$dir/port"
		before=$(dir_snapshot "$dir")
		for cmd in init start stop status conninfo; do
			run "$RUN_PG" "$cmd" "$dir"
			echo "$cmd $dir -> $status: $output"
			[ "$status" -eq 2 ]
			[ "${#lines[@]}" -eq 1 ]
			[[ $output == *"not an oltpmark cluster"* ]]
		done
		[ "$(dir_snapshot "$dir")" = "$before" ]
	done
}

@test "init creates an absent directory and refuses a file" {
	local parent

	parent=$(pg_mktemp)
	EXTRA_DIRS+=("$parent")
	chmod 0755 "$parent"
	run "$RUN_PG" init "$parent/new"
	[ "$status" -eq 0 ]
	EXTRA_DIRS=("$parent/new" "${EXTRA_DIRS[@]}")
	[ -f "$parent/new/.oltpmark-cluster" ]
	[ -f "$parent/new/data/PG_VERSION" ]
	run "$RUN_PG" status "$parent/new"
	[ "$status" -eq 3 ]
	[ "$output" = stopped ]

	touch "$parent/file"
	run "$RUN_PG" init "$parent/file"
	[ "$status" -eq 2 ]
	[ ! -s "$parent/file" ]
}

@test "stop by PID leaves no process in that data directory" {
	local pid

	new_cluster
	"$RUN_PG" start "$NEW_DIR"
	read -r pid <"$NEW_DIR/data/postmaster.pid"
	[ -n "$(pg_dir_pids "$NEW_DIR/data")" ]
	run "$RUN_PG" stop "$NEW_DIR"
	[ "$status" -eq 0 ]
	[ -z "$(pg_dir_pids "$NEW_DIR/data")" ]
	[ ! -e "$NEW_DIR/data/postmaster.pid" ]
	[ ! -d "/proc/$pid" ] ||
		[[ $(sed 's/.*) //' "/proc/$pid/stat") == Z* ]]
	# this test's part of the log
	tail -c "+$((NEW_LOG_START + 1))" "$NEW_DIR/server.log" |
		grep -q 'received fast shutdown request'
	run "$RUN_PG" status "$NEW_DIR"
	[ "$status" -eq 3 ]
	[ "$output" = stopped ]
	# The file's own cluster is still up.
	[ "$(psql_value 'SELECT 1')" = 1 ]
}

@test "stop falls back to SIGQUIT after the timeout; the next start recovers" {
	new_cluster
	"$RUN_PG" start "$NEW_DIR"
	OLTPMARK_PG_STOP_TIMEOUT=0 run "$RUN_PG" stop "$NEW_DIR"
	[ "$status" -eq 0 ]
	# Whether SIGQUIT arrived before the fast shutdown ended is a race:
	# either way nothing may be left and the cluster must start again.
	[ -z "$(pg_dir_pids "$NEW_DIR/data")" ]
	"$RUN_PG" start "$NEW_DIR"
	[ "$(psql_value 'SELECT 1' "$("$RUN_PG" conninfo "$NEW_DIR")")" = 1 ]
	"$RUN_PG" stop "$NEW_DIR"
}

@test "stop on a stopped cluster succeeds quietly" {
	new_cluster
	run "$RUN_PG" stop "$NEW_DIR"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	"$RUN_PG" start "$NEW_DIR"
	"$RUN_PG" stop "$NEW_DIR"
	run "$RUN_PG" stop "$NEW_DIR"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "stop never signals a process that is not the cluster's postmaster" {
	local i

	new_cluster
	# A stale postmaster.pid naming a live process that looks like a
	# postmaster (argv[0] "postgres", working in the data directory) but
	# is not one.
	(cd "$NEW_DIR/data" && exec -a postgres sleep 60) 3>&- &
	SLEEP_PID=$!
	echo "$SLEEP_PID" >"$NEW_DIR/data/postmaster.pid"
	# until it has become "postgres" (exec) in the data directory
	for ((i = 0; i < 200; i++)); do
		[[ $(pg_dir_pids "$NEW_DIR/data") == "$SLEEP_PID" &&
			$(tr '\0' ' ' <"/proc/$SLEEP_PID/cmdline") == "postgres 60 " ]] && break
		sleep 0.05
	done
	run "$RUN_PG" stop "$NEW_DIR"
	[ "$status" -eq 0 ]
	kill -0 "$SLEEP_PID"
	run "$RUN_PG" status "$NEW_DIR"
	[ "$status" -eq 3 ]
	kill "$SLEEP_PID"
	wait "$SLEEP_PID" || true
	SLEEP_PID=
	rm -f "$NEW_DIR/data/postmaster.pid"
}

@test "two clusters at once get different ports and both work" {
	local c1 c2

	new_cluster
	run "$RUN_PG" start "$NEW_DIR" -- --work-mem=9MB
	[ "$status" -eq 0 ]
	[ "$(<"$NEW_DIR/port")" != "$(<"$PGTEST_DIR/port")" ]
	c1=$OLTPMARK_CONNINFO
	c2=$("$RUN_PG" conninfo "$NEW_DIR")
	[ "$c1" != "$c2" ]
	[ "$(psql_value 'SHOW work_mem' "$c1")" = 7MB ]
	[ "$(psql_value 'SHOW work_mem' "$c2")" = 9MB ]
	[ "$(psql_value 'SELECT pg_backend_pid() IS NOT NULL' "$c2")" = t ]
	[ "$(psql_value 'SHOW data_directory' "$c2")" = "$NEW_DIR/data" ]
	[ "$(psql_value 'SHOW data_directory' "$c1")" = "$PGTEST_DIR/data" ]
}

@test "init --from copies a stopped cluster: its databases, its own port and socket" {
	local copy c2

	new_cluster
	"$RUN_PG" start "$NEW_DIR"
	psql_value "CREATE TABLE marker AS SELECT 42 AS v" "$("$RUN_PG" conninfo "$NEW_DIR")"
	# a running source is refused: its files are not a consistent copy
	copy=$(pg_mktemp)
	rmdir "$copy"
	EXTRA_DIRS+=("$copy" "$copy-x")
	run "$RUN_PG" init "$copy" --from "$NEW_DIR"
	[ "$status" -eq 2 ]
	[[ $output == *"its server is running"* ]]
	[ ! -e "$copy" ]
	"$RUN_PG" stop "$NEW_DIR"
	run "$RUN_PG" init "$copy" --from "$NEW_DIR"
	[ "$status" -eq 0 ]
	grep -qx 'state=ready' "$copy/.oltpmark-cluster"
	[ "$(<"$copy/port")" != "$(<"$NEW_DIR/port")" ]
	# both run at once, each on its own socket, the copy with the table
	"$RUN_PG" start "$NEW_DIR"
	"$RUN_PG" start "$copy"
	c2=$("$RUN_PG" conninfo "$copy")
	[ "$c2" = "host=$copy/socket port=$(<"$copy/port") dbname=oltpmark user=$(server_user)" ]
	[ "$(psql_value 'SELECT v FROM marker' "$c2")" = 42 ]
	[ "$(psql_value 'SHOW data_directory' "$c2")" = "$copy/data" ]
	[ "$(psql_value 'SHOW port' "$c2")" = "$(<"$copy/port")" ]
	[ "$(psql_value 'SHOW listen_addresses' "$c2")" = "" ]
	psql_value "DROP TABLE marker" "$("$RUN_PG" conninfo "$NEW_DIR")"
	"$RUN_PG" stop "$copy"
}

@test "init --from refuses what is not a stopped cluster of its own WAL, before making DIR" {
	local d

	d=$(pg_mktemp)
	rmdir "$d"
	run "$RUN_PG" init "$d" --from "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ $output == *"init --from: $BATS_TEST_TMPDIR: not an oltpmark cluster"* ]]
	[ ! -e "$d" ]
	run "$RUN_PG" init "$d" --from "$PGTEST_DIR" --wal-dir "$d-wal"
	[ "$status" -eq 2 ]
	[[ $output == *"--from and --wal-dir together"* ]]
	run "$RUN_PG" init "$d" --from
	[ "$status" -eq 2 ]
	[ ! -e "$d" ] && [ ! -e "$d-wal" ]
}

@test "a failed start exits 1 and quotes the tail of server.log" {
	new_cluster
	run "$RUN_PG" start "$NEW_DIR" -- -c shared_buffers=bogus
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == "run/pg: $NEW_DIR: server did not start"* ]]
	[[ $output == *"last lines of $NEW_DIR/server.log"* ]]
	[[ $output == *'invalid value for parameter "shared_buffers"'* ]]
	[ -z "$(pg_dir_pids "$NEW_DIR/data")" ]
	run "$RUN_PG" status "$NEW_DIR"
	[ "$status" -eq 3 ]
}

@test "as root the server runs as postgres; a directory postgres cannot reach is refused" {
	local parent pid

	if ((EUID != 0)); then
		skip "needs root (the root path chowns to user postgres)"
	fi
	read -r pid <"$PGTEST_DIR/data/postmaster.pid"
	[ "$(stat -c %U "/proc/$pid")" = postgres ]
	[ "$(stat -c %U "$PGTEST_DIR")" = postgres ]

	parent=$(pg_mktemp)
	EXTRA_DIRS+=("$parent")
	chmod 0700 "$parent"
	run "$RUN_PG" init "$parent/c"
	[ "$status" -eq 2 ]
	[[ $output == *"user postgres cannot write there"* ]]
	[ ! -e "$parent/c" ]
}

@test "a non-root user runs its own cluster" {
	local dir ci

	if ((EUID != 0)); then
		skip "already not root: every other test covers this path"
	fi
	dir=$(runuser -u nobody -- mktemp -d "${BATS_TMPDIR:-/tmp}/oltpmark-pg.XXXXXX")
	EXTRA_DIRS+=("$dir/c" "$dir")
	runuser -u nobody -- "$RUN_PG" init "$dir/c"
	runuser -u nobody -- "$RUN_PG" start "$dir/c" 3>&-
	ci=$(runuser -u nobody -- "$RUN_PG" conninfo "$dir/c")
	[ "$ci" = "host=$dir/c/socket port=$(<"$dir/c/port") dbname=oltpmark user=nobody" ]
	[ "$(psql_value 'SELECT current_user' "$ci")" = nobody ]
	[ "$(stat -c %U "$dir/c/data")" = nobody ]
	run runuser -u nobody -- "$RUN_PG" stop "$dir/c"
	[ "$status" -eq 0 ]
	[ -z "$(pg_dir_pids "$dir/c/data")" ]
	rm -rf -- "$dir"
}

@test "binaries: OLTPMARK_PG_BINDIR, else pg_config, else /usr/lib/postgresql" {
	local fake newest

	newest=$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V |
		 tail -n 1)
	if [[ ! -x $newest ]]; then
		skip "no /usr/lib/postgresql/*/bin/initdb here"
	fi
	# A pg_config that points at a client-only directory.
	fake=$(mktemp -d "${BATS_TMPDIR:-/tmp}/oltpmark-fakebin.XXXXXX")
	EXTRA_DIRS+=("$fake")
	printf '#!/bin/sh\necho %s\n' "$fake" >"$fake/pg_config"
	chmod 0755 "$fake" "$fake/pg_config"
	NEW_DIR=$(pg_mktemp)
	EXTRA_DIRS+=("$NEW_DIR")
	PATH=$fake:$PATH run "$RUN_PG" init "$NEW_DIR"
	[ "$status" -eq 0 ]
	grep -qx "bindir=${newest%/initdb}" "$NEW_DIR/.oltpmark-cluster"

	run env OLTPMARK_PG_BINDIR="$fake" "$RUN_PG" start "$NEW_DIR"
	[ "$status" -eq 1 ]
	[[ $output == *"run/pg: $fake/initdb: not found or not executable"* ]]
}

@test "--help documents every command; bad usage exits 2" {
	local cmd

	run "$RUN_PG" --help
	[ "$status" -eq 0 ]
	for cmd in init start stop status conninfo OLTPMARK_PG_BINDIR; do
		[[ $output == *"$cmd"* ]]
	done
	run "$RUN_PG"
	[ "$status" -eq 2 ]
	run "$RUN_PG" frobnicate "$PGTEST_DIR"
	[ "$status" -eq 2 ]
	run "$RUN_PG" status
	[ "$status" -eq 2 ]
	run "$RUN_PG" status "$PGTEST_DIR" extra
	[ "$status" -eq 2 ]
	run "$RUN_PG" start "$PGTEST_DIR" -c work_mem=1MB
	[ "$status" -eq 2 ]
}
