#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# blocks-switch.bats: the two C pieces a block run's runner calls
# (docs/blocks.md). `oltpmark blocks-switch` beside a child standing in
# for `oltpmark run`: three blocks of 1 s (rows, arms, the switches and
# their log), a failing switch (exit 1, SIGINT to the run), SIGTERM
# mid-block (SIGINT ignored), a run already gone, bad options. Then
# `oltpmark compare --within` on the block runs of
# tests/fixtures/blocks-runs and the whole runs of
# tests/golden/compare-basic, and its bad usage. No database.

load helpers

# run --separate-stderr: compare warns on stderr about the broken runs of
# compare-basic, on purpose; the answer is the one line on stdout.
bats_require_minimum_version 1.5.0

setup() {
	SW_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-bswitch.XXXXXX")
	CHILD=""
	# the variant: records its arguments and OLTPMARK_VARIANT_SWITCH,
	# prints a line, exits 3 when its action is $FAIL_ON
	cat >"$SW_DIR/variant" <<EOF
#!/usr/bin/env bash
echo "\$* \${OLTPMARK_VARIANT_SWITCH:-unset}" >>"$SW_DIR/rec"
echo "variant \$2 done"
[[ "\$2" != "\${FAIL_ON:-none}" ]] || exit 3
EOF
	chmod +x "$SW_DIR/variant"
}

teardown() {
	[[ -z $CHILD ]] || kill "$CHILD" 2>/dev/null || true
	rm -rf "$SW_DIR"
}

# now_us [PLUS_US]: the wall clock in microseconds since the epoch.
now_us() {
	local t=${EPOCHREALTIME/,/.}
	echo $((10#${t%.*} * 1000000 + 10#${t#*.} + ${1:-0}))
}

# switcher N BLOCK_S: blocks-switch with N blocks of BLOCK_S from 0.3 s
# from now beside $CHILD, files in $SW_DIR.
switcher() {
	"$OLTPMARK" blocks-switch --start-us "$(now_us 300000)" \
		--block "$2" --blocks "$1" --pid "$CHILD" \
		--csv "$SW_DIR/blocks.csv" --log "$SW_DIR/blocks.log" \
		-- "$SW_DIR/variant" myvar
}

@test "blocks-switch: 3 blocks of 1 s, A B B, one apply, rows contiguous" {
	sleep 30 &
	CHILD=$!
	run switcher 3 1
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	mapfile -t rows <"$SW_DIR/blocks.csv"
	[ "${#rows[@]}" -eq 4 ]
	[ "${rows[0]}" = "block,arm,start_epoch,end_epoch,switch_s,status" ]
	[[ ${rows[1]} =~ ^0,A,[0-9]+\.[0-9]{3},[0-9]+\.[0-9]{3},0\.000,0$ ]]
	[[ ${rows[2]} =~ ^1,B,[0-9]+\.[0-9]{3},[0-9]+\.[0-9]{3},[0-9]+\.[0-9]{3},0$ ]]
	[[ ${rows[3]} =~ ^2,B,[0-9]+\.[0-9]{3},[0-9]+\.[0-9]{3},0\.000,0$ ]]
	# each block ends where the next begins, about 1 s after it began
	IFS=, read -r _ _ _ e0 _ <<<"${rows[1]}"
	IFS=, read -r _ _ s1 e1 _ <<<"${rows[2]}"
	IFS=, read -r _ _ s2 e2 _ <<<"${rows[3]}"
	[ "$e0" = "$s1" ]
	[ "$e1" = "$s2" ]
	awk -v a="$s1" -v b="$e1" -v c="$e2" 'BEGIN { exit !(b - a > 0.9 && b - a < 1.2 && c - b > 0.9 && c - b < 1.2) }'
	# the variant ran once, into B, told it is a switch inside the run
	[ "$(cat "$SW_DIR/rec")" = "myvar apply 1" ]
	[ "$(cat "$SW_DIR/blocks.log")" = "$s1 block 1: apply
variant apply done" ]
}

@test "blocks-switch: a failing switch writes its row, interrupts the run, exits 1" {
	# the run: says when it catches SIGINT (a background job of a script
	# starts with SIGINT ignored; python may catch it all the same)
	python3 -c 'import signal, sys, time
def on_int(*a):
    with open(sys.argv[1], "w") as f:
        f.write("int\n")
    sys.exit(0)
signal.signal(signal.SIGINT, on_int)
open(sys.argv[2], "w").close()
time.sleep(30)' "$SW_DIR/got-int" "$SW_DIR/ready" &
	CHILD=$!
	for _ in {1..100}; do
		[[ -e $SW_DIR/ready ]] && break
		sleep 0.1
	done
	FAIL_ON=apply run switcher 4 0.5
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "oltpmark: blocks-switch: block 1: "*"variant apply exited with status 3 (see $SW_DIR/blocks.log); stopping the run" ]]
	[ "$(wc -l <"$SW_DIR/blocks.csv")" -eq 3 ]
	[[ $(tail -n 1 "$SW_DIR/blocks.csv") == 1,B,*,3 ]]
	wait "$CHILD" || true
	CHILD=""
	[ "$(cat "$SW_DIR/got-int")" = "int" ]
}

@test "blocks-switch: SIGTERM ends the block under way at once; SIGINT is ignored" {
	sleep 30 &
	CHILD=$!
	# the binary itself in the background, not a subshell around it
	"$OLTPMARK" blocks-switch --start-us "$(now_us 300000)" --block 1 \
		--blocks 5 --pid "$CHILD" --csv "$SW_DIR/blocks.csv" \
		--log "$SW_DIR/blocks.log" -- "$SW_DIR/variant" myvar &
	sw=$!
	sleep 1.6
	kill -INT "$sw"
	kill -TERM "$sw"
	status=0
	wait "$sw" || status=$?
	[ "$status" -eq 0 ]
	mapfile -t rows <"$SW_DIR/blocks.csv"
	[ "${#rows[@]}" -eq 3 ]
	IFS=, read -r k _ s1 e1 _ <<<"${rows[2]}"
	[ "$k" -eq 1 ]
	# cut at the signal, well before its nominal end 1 s after it began
	awk -v a="$s1" -v b="$e1" 'BEGIN { exit !(b - a < 0.8) }'
}

@test "blocks-switch: a run already gone switches nothing, exit 0" {
	sleep 0 &
	CHILD=$!
	wait "$CHILD"
	run switcher 4 0.5
	[ "$status" -eq 0 ]
	[ "$(cat "$SW_DIR/blocks.csv")" = "block,arm,start_epoch,end_epoch,switch_s,status" ]
	[ ! -e "$SW_DIR/rec" ]
	CHILD=""
}

@test "blocks-switch: bad options exit 2 with one line naming the option" {
	local -a base=(--start-us 1 --block 1 --blocks 1 --pid 1
		--csv "$SW_DIR/c" --log "$SW_DIR/l")
	local -a cases=(
		"--start-us|--start-us x --block 1 --blocks 1 --pid 1 --csv c --log l -- true"
		"--block|--start-us 1 --block 0 --blocks 1 --pid 1 --csv c --log l -- true"
		"--blocks|--start-us 1 --block 1 --blocks -1 --pid 1 --csv c --log l -- true"
		"--pid|--start-us 1 --block 1 --blocks 1 --csv c --log l -- true"
		"--log|--start-us 1 --block 1 --blocks 1 --pid 1 --csv c -- true"
		"--frob|--frob --start-us 1 --block 1 --blocks 1 --pid 1 --csv c --log l -- true"
	)
	local c want
	local -a args
	for c in "${cases[@]}"; do
		want=${c%%|*}
		read -ra args <<<"${c#*|}"
		run "$OLTPMARK" blocks-switch "${args[@]}"
		[ "$status" -eq 2 ] || { echo "$c: status $status" >&2; false; }
		[ "${#lines[@]}" -eq 1 ] || { echo "$c: $output" >&2; false; }
		[[ $output == *"$want"* ]] || { echo "$c: $output" >&2; false; }
	done
	# the command must come after --
	run "$OLTPMARK" blocks-switch "${base[@]}" true
	[ "$status" -eq 2 ]
	[[ $output == *"'--'"* ]]
	run "$OLTPMARK" blocks-switch "${base[@]}"
	[ "$status" -eq 2 ]
	[ ! -e "$SW_DIR/c" ]
	run "$OLTPMARK" blocks-switch --help
	[ "$status" -eq 0 ]
	[[ $output == *"--start-us"* ]]
}

@test "compare --within: reached, short, none on block runs and whole runs" {
	local blocks=$REPO/tests/fixtures/blocks-runs
	local whole=$REPO/tests/golden/compare-basic/runs
	# syn+step: half-width 1.010359746; syn+short: 4 blocks, no interval
	run "$OLTPMARK" compare --within 1.5 --config cached --label syn+step "$blocks"
	[ "$status" -eq 0 ]
	[ "$output" = "1.01 reached" ]
	run "$OLTPMARK" compare --within 1.0103 --config cached --label syn+step "$blocks"
	[ "$status" -eq 0 ]
	[ "$output" = "1.01 short" ]
	run "$OLTPMARK" compare --within 5 --config cached --label syn+step --label syn+short "$blocks"
	[ "$status" -eq 0 ]
	[ "$output" = "none no interval yet for syn+short" ]
	run "$OLTPMARK" compare --within 5 --config noncached --label syn+step "$blocks"
	[ "$status" -eq 0 ]
	[ "$output" = "none no block score of noncached yet" ]
	# whole runs are never block scores, with or without --baseline
	run --separate-stderr "$OLTPMARK" compare --within 5 --config cached --label 6.18-bfq "$whole"
	[ "$status" -eq 0 ]
	[ "$output" = "none no block score of cached yet" ]
	run --separate-stderr "$OLTPMARK" compare --baseline 6.18-bfq --within 5 --config cached --label 6.18-base "$whole"
	[ "$status" -eq 0 ]
	[ "$output" = "none no block score of cached yet" ]
	run "$OLTPMARK" compare --baseline nosuch --within 5 --config cached --label a "$whole"
	[ "$status" -eq 2 ]
}

@test "compare --within: no runs is a failure (1), bad usage exits 2, one line each" {
	run "$OLTPMARK" compare --within 5 --config cached --label a "$SW_DIR"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	local blocks=$REPO/tests/fixtures/blocks-runs
	local -a cases=(
		"--within|--within 5 --label syn+step"
		"--within|--within 5 --config cached"
		"--within|--within x --config cached --label syn+step"
		"--within|--within -1 --config cached --label syn+step"
		"--within|--within 5 --config cached --label syn+step -f csv"
		"--config|--config cached"
		"--label|--label syn+step"
	)
	local c
	local -a args
	for c in "${cases[@]}"; do
		read -ra args <<<"${c#*|}"
		run "$OLTPMARK" compare "${args[@]}" "$blocks"
		[ "$status" -eq 2 ] || { echo "$c: status $status" >&2; false; }
		[ "${#lines[@]}" -eq 1 ] || { echo "$c: $output" >&2; false; }
		[[ $output == *"${c%%|*}"* ]] || { echo "$c: $output" >&2; false; }
	done
}
