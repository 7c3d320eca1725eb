#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A server that is not there (docs/run.md, "Connecting"): every command
# that connects (run, load, check, calibrate) fails with one line naming
# the host, the port and libpq's reason, exit 1, and leaves no --out
# directory; a server that accepts the TCP connection but never answers
# is given up after the connect timeout: --connect-timeout, else the
# conninfo's connect_timeout, else PGCONNECT_TIMEOUT, else 10 s.
# run/oltpmark-run --conninfo to a dead server says so in one line, exit
# 1, before it makes anything in its results. No PostgreSQL: a port where
# nothing listens, and a socket that listens and never accepts (the
# kernel completes the handshake, libpq waits for the server's answer).

load helpers
bats_require_minimum_version 1.5.0

setup() {
	unset PGHOST PGPORT PGDATABASE PGUSER PGCONNECT_TIMEOUT PGSERVICE
	HANG_PID=
	DEAD_PORT=$(free_port)
	! tcp_listening "$DEAD_PORT"
}

teardown() {
	if [[ -n $HANG_PID ]]; then
		kill "$HANG_PID" 2>/dev/null || true
		wait "$HANG_PID" 2>/dev/null || true
	fi
}

# free_port: a TCP port of 127.0.0.1 that nothing listened on a moment ago.
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_silent: a socket on 127.0.0.1 that listens and never accepts nor
# speaks, its port in HANG_PORT, its process HANG_PID (teardown ends it).
start_silent() {
	local file=$BATS_TEST_TMPDIR/hang-port

	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)' "$file" &
	HANG_PID=$!
	wait_for 30 test -s "$file"
	HANG_PORT=$(<"$file")
}

# timed CMD...: bats' run of CMD, and its wall time in tenths of a
# second in $tenths.
timed() {
	local t0=${EPOCHREALTIME/[.,]/} t1

	run "$@"
	t1=${EPOCHREALTIME/[.,]/}
	tenths=$(((t1 - t0) / 100000))
	echo "$* -> $status in $tenths tenths: $output"
}

# one_line_about HOST PORT: bats' $output is one line that names HOST and
# PORT in oltpmark's words, and $status is 1.
one_line_about() {
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"cannot connect to $1 port $2: "?* ]]
}

@test "a port where nothing listens: run, load, check, calibrate say where and why in one line, exit 1, no --out" {
	local ci="host=127.0.0.1 port=$DEAD_PORT dbname=x" cmd out
	local -a cmds=("run -w 1 -d 1 --out OUT" "load -w 1" check "check --meta"
		"calibrate --profile OUT.json --out OUT")

	for cmd in "${cmds[@]}"; do
		out=$BATS_TEST_TMPDIR/out-${cmd%% *}
		# shellcheck disable=SC2086 # the words of cmd
		run "$OLTPMARK" ${cmd//OUT/$out} --conninfo "$ci"
		echo "$cmd -> $status: $output"
		one_line_about 127.0.0.1 "$DEAD_PORT"
		[[ $output == *"Connection refused" ]]
		[ ! -e "$out" ]
		[ ! -e "$out.json" ]
	done
}

@test "a server that never answers: --connect-timeout ends the wait, over the conninfo's connect_timeout" {
	local ci out=$BATS_TEST_TMPDIR/out

	start_silent
	ci="host=127.0.0.1 port=$HANG_PORT connect_timeout=60"
	timed "$OLTPMARK" check --connect-timeout 2 --conninfo "$ci"
	one_line_about 127.0.0.1 "$HANG_PORT"
	[[ $output == *"timeout expired" ]]
	# libpq's own clock: 2 s, and a generous margin for a busy host
	((tenths >= 15 && tenths < 80))
	timed "$OLTPMARK" run -w 1 -d 1 --connect-timeout 2 --conninfo "$ci" --out "$out"
	one_line_about 127.0.0.1 "$HANG_PORT"
	((tenths >= 15 && tenths < 80))
	[ ! -e "$out" ]
	timed "$OLTPMARK" load -w 1 --connect-timeout 2 --conninfo "$ci"
	one_line_about 127.0.0.1 "$HANG_PORT"
	((tenths < 80))
}

@test "without --connect-timeout: the conninfo's connect_timeout, else PGCONNECT_TIMEOUT" {
	local ci

	start_silent
	ci="host=127.0.0.1 port=$HANG_PORT"
	# under the default of 10 s: the conninfo's is taken
	timed "$OLTPMARK" check --conninfo "$ci connect_timeout=2"
	one_line_about 127.0.0.1 "$HANG_PORT"
	((tenths >= 15 && tenths < 80))
	# the environment's, when the conninfo has none
	PGCONNECT_TIMEOUT=2 timed "$OLTPMARK" check --conninfo "$ci"
	one_line_about 127.0.0.1 "$HANG_PORT"
	((tenths >= 15 && tenths < 80))
	# the conninfo's wins over the environment's, as in libpq
	PGCONNECT_TIMEOUT=60 timed "$OLTPMARK" check --conninfo "$ci connect_timeout=2"
	((tenths >= 15 && tenths < 80))
}

@test "nobody says: 10 s" {
	start_silent
	timed "$OLTPMARK" check --conninfo "host=127.0.0.1 port=$HANG_PORT"
	one_line_about 127.0.0.1 "$HANG_PORT"
	[[ $output == *"timeout expired" ]]
	((tenths >= 95 && tenths < 200))
}

@test "--connect-timeout takes seconds from 0" {
	run "$OLTPMARK" check --connect-timeout -1
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *--connect-timeout* ]]
	run "$OLTPMARK" run -w 1 -d 1 --out "$BATS_TEST_TMPDIR/x" --connect-timeout soon
	[ "$status" -eq 2 ]
	[[ $output == *--connect-timeout* ]]
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
}

@test "run/oltpmark-run --conninfo to a dead server: one line, exit 1, nothing made in the results" {
	local results=$BATS_TEST_TMPDIR/results

	run "$REPO/run/oltpmark-run" --conninfo "host=127.0.0.1 port=$DEAD_PORT" \
		--results "$results" -w 1 -d 1 --hooks none
	echo "status $status: $output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "oltpmark-run: --conninfo: cannot connect: "*127.0.0.1*"$DEAD_PORT"*"Connection refused" ]]
	[ ! -e "$results" ]
	# results that exist stay as they were: no .clusters, no .variant-state
	mkdir "$results"
	run "$REPO/run/oltpmark-run" --conninfo "host=127.0.0.1 port=$DEAD_PORT" \
		--results "$results" -w 1 -d 1 --hooks none
	[ "$status" -eq 1 ]
	[ -z "$(ls -A "$results")" ]
}
