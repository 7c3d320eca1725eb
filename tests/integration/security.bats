#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# security.bats: the promises of docs/security.md that a test can keep
# honest, against a throwaway server of this file:
# - a password given in the conninfo reaches no file and no log: load,
#   check, run, report, compare and run/oltpmark-run all run with one,
#   then every file they wrote and every message they printed is searched;
# - hooks and variant scripts that someone else could change are not run,
#   by run/oltpmark-run (exit 2, before anything starts) nor by run-all;
# - --recover acts only on a state file that is ours and nobody else may
#   write, since it runs the variant script the file names.

load helpers

# Trust authentication on the socket: the server accepts the connection
# whatever the password, so the password only travels.
readonly SECRET=s3cr3tXYZ

setup_file() {
	pg_throwaway_start
	SEC_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-sec.XXXXXX")
	chmod 755 "$SEC_DIR"
	export SEC_DIR
}

teardown_file() {
	rm -rf -- "$SEC_DIR"
	pg_throwaway_stop
}

@test "a password in the conninfo reaches no file and no log" {
	local ci="$OLTPMARK_CONNINFO password=$SECRET" logs=$SEC_DIR/logs res=$SEC_DIR/pw
	local exp=$SEC_DIR/pwx
	local hits
	mkdir -p "$logs" "$res/pw/cached"
	"$OLTPMARK" load -w 1 -j 2 --conninfo "$ci" >"$logs/load.log" 2>&1
	"$OLTPMARK" check --conninfo "$ci" >"$logs/check.log" 2>&1
	"$OLTPMARK" check --meta --conninfo "$ci" >"$logs/check-meta.log" 2>&1
	"$OLTPMARK" run -w 1 -d 3 --ramp-up 0 "${PACE[@]}" --label pw \
		--config cached --conninfo "$ci" --out "$res/pw/cached/run-1" \
		>"$logs/run.log" 2>&1
	"$OLTPMARK" report "$res/pw/cached/run-1" >"$logs/report.log" 2>&1
	"$OLTPMARK" compare "$res" >"$logs/compare.log" 2>&1 || true
	"$OLTPMARK" compare --format html "$res" >"$logs/compare-html.log" 2>&1 || true
	# The experiment, with every cheap hook (pg-stats and sysinfo talk to
	# the server with the conninfo they are given), in results of its own:
	# compare refuses to pool its runs with the plain run's above (another
	# seed rule).
	"$REPO/run/oltpmark-run" --conninfo "$ci" --label pw-exp --configs cached \
		--runs 1 -w 1 -d 3 --ramp-up 0 "${PACE[@]}" --results "$exp" \
		>"$logs/oltpmark-run.log" 2>&1 ||
		{ tail -n 20 "$logs/oltpmark-run.log"; false; }
	# A connection that fails says why, without the password.
	run "$OLTPMARK" run -w 1 -d 1 --conninfo "host=$SEC_DIR/nowhere password=$SECRET" \
		--out "$res/fails"
	[ "$status" -eq 1 ]
	echo "$output" >"$logs/fails.log"
	run "$OLTPMARK" check --conninfo "host=$SEC_DIR/nowhere password=$SECRET"
	[ "$status" -eq 1 ]
	echo "$output" >"$logs/check-fails.log"
	# Everything was written: results, hook files, logs, the server's log.
	[ -s "$res/pw/cached/run-1/report.html" ]
	[ -s "$exp/pw-exp/cached/run-1/sys/pg_stat_database.start.csv" ]
	[ -s "$exp/pw-exp/cached/run-1/sys/sysinfo.txt" ]
	hits=$(grep -rl -- "$SECRET" "$res" "$exp" "$logs" "$PGTEST_DIR/server.log" || true)
	echo "files holding the password: $hits"
	[ -z "$hits" ]
	# and it did travel: the conninfo of the runs named a password
	grep -q 'conninfo' "$res/pw/cached/run-1/meta.json"
}

# script FILE MODE: a variant or hook at FILE, mode MODE, that leaves
# FILE.ran behind when it runs.
script() {
	printf '#!/bin/sh\n: >"%s.ran"\n' "$1" >"$1"
	chmod "$2" "$1"
}

@test "oltpmark-run refuses hooks and variant scripts that others may change" {
	local d=$SEC_DIR/scripts open=$SEC_DIR/open
	mkdir -p "$d" "$open"
	chmod 755 "$d"
	script "$d/group-w" 775
	script "$d/world-w" 757
	script "$d/fine" 755
	run "$REPO/run/oltpmark-run" --variant "v=$d/group-w" --results "$SEC_DIR/r1"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"$d/group-w is writable by its group or others (mode 775; chmod go-w $d/group-w)"* ]]
	run "$REPO/run/oltpmark-run" --variant "v=$d/world-w" --results "$SEC_DIR/r1"
	[ "$status" -eq 2 ]
	[[ $output == *"world-w is writable by its group or others"* ]]
	run "$REPO/run/oltpmark-run" --hooks-dir "$d" --hooks group-w --results "$SEC_DIR/r1"
	[ "$status" -eq 2 ]
	[[ $output == *"option --hooks: 'group-w' is refused: $d/group-w is writable"* ]]
	# a safe file in a directory anyone may write (no sticky bit)
	chmod 777 "$open"
	script "$open/fine" 755
	run "$REPO/run/oltpmark-run" --variant "v=$open/fine" --results "$SEC_DIR/r1"
	[ "$status" -eq 2 ]
	[[ $output == *"is in $open, which its group or others may write (mode 777)"* ]]
	# a link does not hide its target
	ln -s "$d/group-w" "$d/link"
	run "$REPO/run/oltpmark-run" --variant "v=$d/link" --results "$SEC_DIR/r1"
	[ "$status" -eq 2 ]
	# none of them ran, and nothing was started
	[ -z "$(find "$d" "$open" -name '*.ran')" ]
	[ ! -e "$SEC_DIR/r1/.oltpmark-run.state" ]
	[ ! -e "$SEC_DIR/r1/.clusters/cached" ]
}

@test "run-all runs no hook that others may change, and says why in NAME.err" {
	local d=$SEC_DIR/hooks sys=$SEC_DIR/sys
	mkdir -p "$d"
	chmod 755 "$d"
	script "$d/loose" 777
	script "$d/tight" 755
	OLTPMARK_HOOKS_DIR=$d run "$REPO/run/hooks/run-all" start "$sys" loose tight
	[ "$status" -eq 0 ]
	[ ! -e "$d/loose.ran" ]
	[ -e "$d/tight.ran" ]
	grep -q "^start: not run: $d/loose is writable by its group or others" "$sys/loose.err"
	grep -q "start loose: not run:" "$sys/hooks.log"
	[ ! -e "$sys/tight.err" ]
}

@test "--recover acts only on a state file that is ours and nobody else may write" {
	local res=$SEC_DIR/rec v=$SEC_DIR/rec-variant
	mkdir -p "$res"
	script "$v" 755
	# as an experiment that died would leave it: its owner is gone
	printf 'format\toltpmark-run-state/1\nowner\t999999999\t1\nboot\t%s\nresults\t%s\nvariant\tv\t%s\n' \
		"$(cat /proc/sys/kernel/random/boot_id)" "$res" "$v" >"$res/.oltpmark-run.state"
	chmod 666 "$res/.oltpmark-run.state"
	run "$REPO/run/oltpmark-run" --recover --results "$res"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"not acting on $res/.oltpmark-run.state: "*"may be written by others (mode 666)"* ]]
	[ ! -e "$v.ran" ]
	# the same file, ours alone: the variant is restored, the file goes
	chmod 600 "$res/.oltpmark-run.state"
	run "$REPO/run/oltpmark-run" --recover --results "$res"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"restored variant v"* ]]
	[ -e "$v.ran" ]
	[ ! -e "$res/.oltpmark-run.state" ]
}
