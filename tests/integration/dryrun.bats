#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dryrun.bats: run/oltpmark-run --dry-run prints the plan (labels,
# variants, configurations, the runs in their order, design, hooks, the
# time and disk estimates with their basis, the free space found) and
# makes nothing; bad options still exit 2 with one line; a real run whose
# estimate exceeds the free space is refused before it makes anything
# (the estimate made to exceed any disk with a million warehouses, not
# by faking the free space); the progress lines of a short real
# experiment (run k of n, seconds done of the total, ETA) and of
# `oltpmark run` (seconds done of its length); --recover on a --results
# that does not exist. The real experiment uses a private cluster of its
# own under a temp dir, stopped by oltpmark-run itself.

# $stderr and $stderr_lines are set by bats' `run --separate-stderr`.
# shellcheck disable=SC2154

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	DRY_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-dry.XXXXXX")
	# the server's user (postgres when root) enters it
	chmod 755 "$DRY_DIR"
	export DRY_DIR
}

teardown_file() {
	local c
	for c in "$DRY_DIR"/*/.clusters/*/; do
		[ -e "$c/.oltpmark-cluster" ] && "$REPO/run/pg" stop "$c" >/dev/null 2>&1
	done
	rm -rf -- "$DRY_DIR"
}

setup() {
	WORK=$BATS_TEST_TMPDIR/cwd
	mkdir -p "$WORK"
	cd "$WORK" || return 1
}

# listing: every file and directory under DRY_DIR and WORK, and the
# tree's (build output and .git aside), with sizes and times, to show
# that a command left them as they were.
listing() {
	find "$DRY_DIR" "$WORK" -printf '%p %s %T@\n' | sort
	(cd "$REPO" && find . -path ./.git -prune -o -path ./build -prune -o \
		-printf '%p %s %T@\n' | sort)
}

@test "--dry-run prints the plan and makes nothing" {
	local before after
	before=$(listing)
	run --separate-stderr "$REPO/run/oltpmark-run" --dry-run --label 6.18 \
		--variant "aa=$REPO/run/variants/none" --runs 3 -w 4 -d 120 \
		--ramp-up 30 --hooks vmstat,iostat --diagnostic \
		--results "$DRY_DIR/never/made"
	after=$(listing)
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$before" = "$after" ]
	[ ! -e "$DRY_DIR/never" ]
	[[ ${lines[0]} == "Plan of run/oltpmark-run (dry run: nothing is started, made or changed)" ]]
	grep -qx 'labels: *6.18, 6.18+aa' <<<"$output"
	grep -qx "variant: *aa = $REPO/run/variants/none apply|restore" <<<"$output"
	grep -qx 'configurations: *cached noncached' <<<"$output"
	grep -q '^design: *runs' <<<"$output"
	grep -qx 'hooks: *vmstat,iostat' <<<"$output"
	grep -q '^diagnostic: .*readprofile' <<<"$output"
	# 2 configurations x 2 labels x (3 runs + 1 diagnostic)
	grep -q '^ *16 in all, each 30 s ramp-up + 120 s measured, 4 warehouses' <<<"$output"
	# the labels interleaved A B, B A, A B in each configuration
	grep -qx '    cached repeat 1: 6.18, 6.18+aa' <<<"$output"
	grep -qx '    cached repeat 2: 6.18+aa, 6.18' <<<"$output"
	grep -qx '    noncached repeat 3: 6.18, 6.18+aa' <<<"$output"
	grep -qx '    noncached diagnostic: 6.18, 6.18+aa' <<<"$output"
	grep -qx "results: *$DRY_DIR/never/made/LABEL/CONFIG/run-N" <<<"$output"
	grep -q "in $DRY_DIR/never/made/.clusters/CONFIG, kept" <<<"$output"
	# the time: the sum, each part, and what it rests on
	grep -qE '^time: +about [0-9]+ (h|min)' <<<"$output"
	grep -qE '^  16 runs x [0-9]+ s: 150 s ramp-up and measured' <<<"$output"
	grep -qE "^  2 x [0-9]+ s for a configuration's cluster and load" <<<"$output"
	grep -q '^  basis: ' <<<"$output"
	# the disk: database, WAL, results, each with its basis
	grep -qE '^  database: +[0-9.]+ MB \(21 MB \+ 105 MB a warehouse\)' <<<"$output"
	grep -qE '^  WAL: +[0-9.]+ [MG]B per cluster: max_wal_size' <<<"$output"
	grep -qE '^  results: +16 run directories x' <<<"$output"
	grep -qE '^  transactions: +about [0-9]+ a second assumed' <<<"$output"
	# the free space of the filesystem the results and clusters go to
	mnt=$(df --output=target "$DRY_DIR" | tail -n 1)
	grep -qE "^  $mnt \(.*\): [0-9.]+ [kMGT]B free, needs about [0-9.]+ [kMGT]B \(results, cached cluster, noncached cluster\)$" <<<"$output"
	[[ $output != *SHORT* ]]
	[ -z "$stderr" ]
}

@test "--dry-run of a block design with --resolve and --conninfo" {
	local before
	before=$(listing)
	run --separate-stderr "$REPO/run/oltpmark-run" --dry-run --label k \
		--design blocks --block 10 --settle 0.5 --resolve 5 --runs 4 \
		--variant "aa=$REPO/run/variants/none" --configs cached \
		--conninfo "host=$DRY_DIR/no-server" -d 100 --results "$DRY_DIR/b"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$before" = "$(listing)" ]
	grep -q '^design: *blocks: .* every 10 s (settle 0.5 s, 10 blocks)' <<<"$output"
	grep -q '^runs: *up to 4 per label and configuration.*--resolve' <<<"$output"
	grep -q 'at most 4 in all' <<<"$output"
	grep -q '^server: *the one of --conninfo' <<<"$output"
	grep -qx '    cached repeat 2: k+aa' <<<"$output"
	# no cluster, no load: the disk is the results'
	[[ $output != *"database:"* ]]
	grep -qE '^  /.*: [0-9.]+ [kMGT]B free, needs about [0-9.]+ [kMGT]B \(results\)$' <<<"$output"
}

@test "bad options still exit 2 with one line under --dry-run" {
	local before
	before=$(listing)
	for args in "--runs 0" "--bogus" "--configs warm" "--design blocks" \
		"--recover --results $DRY_DIR" "--label bad/label"; do
		# shellcheck disable=SC2086 # the words of each case
		run --separate-stderr "$REPO/run/oltpmark-run" --dry-run $args
		echo "$args: $status $stderr"
		[ "$status" -eq 2 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[ -z "$output" ]
	done
	[ "$before" = "$(listing)" ]
}

@test "a run whose estimate exceeds the free space is refused before it makes anything" {
	local before
	before=$(listing)
	run --separate-stderr "$REPO/run/oltpmark-run" --label big -w 1000000 \
		--configs cached --runs 1 --hooks none --results "$DRY_DIR/big"
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"not enough free space on "*" TB there (results, cached cluster)"* ]]
	[[ $stderr == *"--dry-run"*"--no-space-check"* ]]
	[ "$before" = "$(listing)" ]
	[ ! -e "$DRY_DIR/big" ]
	# the plan says so too, and is still printed (exit 0)
	run --separate-stderr "$REPO/run/oltpmark-run" --dry-run -w 1000000 \
		--configs cached --results "$DRY_DIR/big"
	[ "$status" -eq 0 ]
	grep -q ': SHORT$' <<<"$output"
	grep -q '^A real run would refuse to start' <<<"$output"
	[ "$before" = "$(listing)" ]
}

@test "--no-space-check goes past the refusal, with a warning" {
	# A server that is not there: the run fails at once after the check
	# (the results of a 3-year run would not fit anywhere).
	run --separate-stderr "$REPO/run/oltpmark-run" --label big \
		--configs cached --runs 1 -d 100000000 --hooks none \
		--conninfo "host=$DRY_DIR/no-server" --no-space-check \
		--results "$DRY_DIR/nocheck"
	echo "$stderr"
	# past the check, it fails where the server is missing, before it
	# makes anything
	[ "$status" -eq 1 ]
	[[ $stderr == *"WARNING: not enough free space on "*"going on (--no-space-check)"* ]]
	[[ $stderr == *"--conninfo: cannot connect"* ]]
	[ ! -e "$DRY_DIR/nocheck" ]
	# without it: refused, nothing more made
	run --separate-stderr "$REPO/run/oltpmark-run" --label big \
		--configs cached --runs 1 -d 100000000 --hooks none \
		--conninfo "host=$DRY_DIR/no-server" --results "$DRY_DIR/refused"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ ! -e "$DRY_DIR/refused" ]
}

@test "--recover on a --results that does not exist: one line, exit 2, nothing made" {
	local before
	before=$(listing)
	run --separate-stderr "$REPO/run/oltpmark-run" --recover --results "$DRY_DIR/typo/results"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"option --results: '$DRY_DIR/typo/results' does not exist: nothing there to recover"* ]]
	[ -z "$output" ]
	[ "$before" = "$(listing)" ]
	[ ! -e "$DRY_DIR/typo" ]
	# one that exists but holds no state file: nothing to undo, and
	# nothing made in it either
	mkdir "$DRY_DIR/empty"
	run --separate-stderr "$REPO/run/oltpmark-run" --recover --results "$DRY_DIR/empty"
	[ "$status" -eq 0 ]
	[[ $stderr == *"nothing to undo"* ]]
	[ -z "$(ls -A "$DRY_DIR/empty")" ]
}

@test "a short experiment says run k of n, seconds done of the total and the ETA" {
	local res=$DRY_DIR/progress
	run --separate-stderr "$REPO/run/oltpmark-run" --label prog --configs cached \
		--runs 2 -w 1 -d 3 --ramp-up 1 --hooks none --results "$res"
	echo "$stderr"
	[ "$status" -eq 0 ]
	local re=": prog cached -> $res/prog/cached/run-[12]; [0-9]+/[0-9]+ s, ETA [0-9]{2}:[0-9]{2}\$"
	grep -qE "^oltpmark-run: run 1 of 2$re" <<<"$stderr"
	grep -qE "^oltpmark-run: run 2 of 2$re" <<<"$stderr"
	# seconds done never exceed the total they are said of
	while read -r spent total; do
		((spent <= total))
	done < <(sed -nE 's|^oltpmark-run: run [0-9]+ of [0-9]+: .*; ([0-9]+)/([0-9]+) s, ETA .*|\1 \2|p' <<<"$stderr")
	grep -qE '^oltpmark-run: the experiment took .* \(estimated .*\)$' <<<"$stderr"
	# a plan over the kept cluster counts its space as its own
	run "$REPO/run/oltpmark-run" --dry-run --configs cached -w 1 --results "$res"
	[ "$status" -eq 0 ]
	grep -qE "^  cached: +[0-9.]+ [kMG]B there already \($res/.clusters/cached\), counted as its own" <<<"$output"
}

@test "oltpmark run's progress says seconds done of the run's length" {
	run --separate-stderr "$OLTPMARK" run --driver null -w 1 -d 2 --ramp-up 1 \
		--progress 1 --out "$BATS_TEST_TMPDIR/run"
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -qE '^oltpmark: run: +1/3 s  NOTPM .*\(ramp-up\)$' <<<"$stderr"
	grep -qE '^oltpmark: run: +2/3 s  NOTPM ' <<<"$stderr"
}

@test "the plan's max_wal_size is run/pg's" {
	local pg_mb
	pg_mb=$(sed -nE 's/^max_wal_size = ([0-9]+)GB$/\1/p' "$REPO/run/pg")
	[ -n "$pg_mb" ]
	# shellcheck source=run/plan.sh
	. "$REPO/run/plan.sh"
	[ "$PLAN_MAX_WAL" -eq $((pg_mb * 1024 * 1048576)) ]
}
