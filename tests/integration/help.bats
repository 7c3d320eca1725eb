#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every command answers --help, and refuses a bad option, without side
# effects: nothing created, changed or removed in the tree or in the
# directory it is run from (run/demo --help once ran the whole demo, and
# run/pg init --help made a cluster named --help). --help exits 0 with the
# usage on stdout; an unknown option exits 2 with one line on stderr. The
# hooks and variants too, though run/oltpmark-run calls them with a fixed
# protocol (start|stop DIR, apply|restore): --help tells a person what
# one does and how it is called, and a hook given --help once made a
# directory named --help. No database is needed.

# $stderr and $stderr_lines are set by bats' `run --separate-stderr`.
# shellcheck disable=SC2154

load helpers

setup() {
	WORK=$BATS_TEST_TMPDIR/cwd
	mkdir -p "$WORK"
	cd "$WORK" || return 1
	MARK=$BATS_TEST_TMPDIR/mark
}

# changed_since_mark: what in the tree or in WORK is newer than MARK (a
# file made, changed or removed changes its directory), .git aside.
changed_since_mark() {
	find "$REPO" "$WORK" -newer "$MARK" -not -path "$REPO/.git*" \
		-not -path "$WORK" 2>/dev/null
	ls -A "$WORK"
}

# quiet_run CMD...: run CMD from WORK with a time limit (an old run/demo
# --help would have started the demo), then check that it left nothing.
quiet_run() {
	touch "$MARK"
	sleep 0.01
	run --separate-stderr timeout 20 "$@"
	left=$(changed_since_mark)
	if [[ -n $left ]]; then
		echo "$* left: $left" >&2
		return 1
	fi
}

# assert_help CMD...: CMD --help exits 0, prints a usage, leaves nothing.
assert_help() {
	quiet_run "$@" --help || return 1
	if [[ $status -ne 0 || $output != *[Uu]sage* ]]; then
		echo "$* --help: status $status, stdout '${output:0:200}'" >&2
		return 1
	fi
}

# assert_bad_option CMD...: CMD --no-such-option exits 2 with one line on
# stderr and leaves nothing.
assert_bad_option() {
	quiet_run "$@" --no-such-option || return 1
	if [[ $status -ne 2 || ${#stderr_lines[@]} -ne 1 ]]; then
		echo "$* --no-such-option: status $status, stderr '$stderr'" >&2
		return 1
	fi
}

bats_require_minimum_version 1.5.0

@test "oltpmark and each subcommand: --help and a bad option leave nothing" {
	assert_help "$OLTPMARK"
	for cmd in load check run report merge compare probe calibrate \
		iosim-prepare sample-procstat; do
		assert_help "$OLTPMARK" "$cmd"
		assert_bad_option "$OLTPMARK" "$cmd"
	done
}

@test "run/demo --help prints its usage and runs nothing" {
	assert_help "$REPO/run/demo"
	[[ $output == *"results/demo."* ]] # says the old demo is kept
	assert_bad_option "$REPO/run/demo"
}

@test "run/ scripts: --help and a bad option leave nothing" {
	for s in pg array install-deps oltpmark-run; do
		assert_help "$REPO/run/$s"
		assert_bad_option "$REPO/run/$s"
	done
	# the commands of run/pg and run/array, whose next word is a DIR
	for c in init start stop status conninfo; do
		assert_help "$REPO/run/pg" "$c"
	done
	for c in create destroy status; do
		assert_help "$REPO/run/array" "$c"
	done
}

@test "hooks and variants: --help and a bad option leave nothing" {
	local n=0
	for s in "$REPO"/run/hooks/* "$REPO"/run/variants/*; do
		[[ -x $s ]] || continue # run/hooks/lib.sh is sourced
		assert_help "$s"
		assert_bad_option "$s"
		n=$((n + 1))
	done
	((n >= 20)) # every hook and variant was tried
	# --help after the protocol's words, where a DIR would go: still
	# help, no directory named --help
	assert_help "$REPO/run/hooks/vmstat" start
	assert_help "$REPO/run/variants/sysctl" vm.swappiness=10 apply
	assert_help "$REPO/run/variants/cpu-quota" 50 apply
	# a hook's help is its calling protocol and its own description
	quiet_run "$REPO/run/hooks/vmstat" --help
	[[ ${lines[0]} == "Usage: run/hooks/vmstat start|stop DIR" ]]
	[[ $output == *"vmstat.txt"* ]]
	# a bad word in a variant's protocol is one line too
	quiet_run "$REPO/run/variants/iosched-bfq" frobnicate
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	quiet_run "$REPO/run/variants/cpu-quota" 500 apply
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "-h is not help: psql's host is refused loudly, not a silent exit 0" {
	quiet_run "$OLTPMARK" run -h dbhost -w 1 -d 10 --out x
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"'-h'"*"--conninfo"*"--help"* ]]
	[ -z "$output" ]
	quiet_run "$OLTPMARK" -h dbhost run
	[ "$status" -eq 2 ]
	quiet_run "$OLTPMARK" load -p 5433
	[ "$status" -eq 2 ]
	[[ $stderr == *PGPORT* ]]
}
