#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests.sh - run every test of `make check` and count them.
#
# Unit tests (cmocka) and integration tests (bats) both speak TAP here, so
# one counter serves all; shellcheck of the scripts counts as one test.
# Each test program's line and each step's end show its wall time, so a
# slow test is seen in every run. The last line is "N passed, N failed"
# (", N skipped" when any were).
# Usage: run-tests.sh UNIT_TEST_BINARY...
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export OLTPMARK_FIXTURES="$top/tests/fixtures"
export OLTPMARK="$top/oltpmark"
passed=0
failed=0
skipped=0
failures=()
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/oltpmark-check.XXXXXX")
trap 'rm -rf "$log_dir"' EXIT

# now_ms: the wall clock in milliseconds, without a fork (bash 5's
# EPOCHREALTIME; the decimal separator follows the locale).
now_ms() {
	local t=${EPOCHREALTIME/,/.}
	echo $((10#${t%.*} * 1000 + 10#${t#*.} / 1000))
}

# since MS: the seconds from MS (a now_ms) to now, with one decimal.
since() {
	local ms=$(($(now_ms) - $1))
	printf '%d.%d s' $((ms / 1000)) $((ms % 1000 / 100))
}

# step_done NAME MS: the line closing a step begun at MS (a now_ms).
step_done() {
	printf '  %-32s %s\n' "($1 total)" "$(since "$2")"
}

check_start=$(now_ms)

# count_tap NAME FILE: add the TAP results in FILE to the counters.
count_tap() {
	local name=$1 file=$2 line
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# skip"* | "ok "*"# SKIP"*) skipped=$((skipped + 1)) ;;
		"ok "*) passed=$((passed + 1)) ;;
		"not ok "*)
			failed=$((failed + 1))
			failures+=("$name: ${line#not ok }")
			;;
		esac
	done <"$file"
}

# A program that dies before printing its plan counts as one failure.
check_plan() {
	local name=$1 file=$2 status=$3
	if ! grep -qE '^1\.\.[0-9]+' "$file"; then
		failed=$((failed + 1))
		failures+=("$name: exited $status without a test plan")
	fi
}

echo "== unit tests (cmocka, ASan+UBSan build)"
step_start=$(now_ms)
for bin in "$@"; do
	name=$(basename "$bin")
	t0=$(now_ms)
	out="$log_dir/$name.tap"
	CMOCKA_MESSAGE_OUTPUT=TAP \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$bin" >"$out" 2>"$log_dir/$name.err"
	status=$?
	count_tap "$name" "$out"
	check_plan "$name" "$out" "$status"
	if ((status != 0)) && ! grep -q '^not ok' "$out"; then
		failed=$((failed + 1))
		failures+=("$name: exited $status (sanitizer?)")
	fi
	if ((status != 0)); then
		sed -n '1,40p' "$log_dir/$name.err" >&2
		grep -A5 '^not ok' "$out" >&2
	fi
	printf '  %-32s %-20s %s\n' "$name" "$(grep -c '^ok' "$out") ok, $(grep -c '^not ok' "$out") not ok" "$(since "$t0")"
done
step_done "unit tests" "$step_start"

# Each fuzz target once on its corpus and on every crash input ever found
# (tests/fuzz/), built with the replay driver: one test per target.
echo "== fuzz inputs replayed (ASan+UBSan build)"
step_start=$(now_ms)
n=0
for src in tests/fuzz/fuzz_*.c; do
	[[ -e $src ]] || continue
	n=$((n + 1))
	name=$(basename "$src" .c)
	name=${name#fuzz_}
	bin=build/asan/fuzz/replay_$name
	out="$log_dir/fuzz-$name.out"
	inputs=()
	for d in "tests/fuzz/corpus/$name" "tests/fuzz/crashes/$name"; do
		[[ -d $d ]] && inputs+=("$d")
	done
	if [[ -x $bin ]] &&
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
			UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			"$bin" "${inputs[@]}" >"$out" 2>&1; then
		passed=$((passed + 1))
		echo "  ok $n - fuzz_$name: $(tail -n 1 "$out")"
	else
		failed=$((failed + 1))
		failures+=("fuzz_$name: replay failed (build/asan/fuzz/replay_$name)")
		echo "  not ok $n - fuzz_$name"
		sed -n '1,40p' "$out" >&2 2>/dev/null
	fi
done
step_done "fuzz replay" "$step_start"

echo "== shellcheck"
step_start=$(now_ms)
scripts=(configure run/pg run/array run/install-deps tests/run-tests.sh tests/embed-sql.sh
	tests/seam-check.sh .ci/run)
for f in run/oltpmark-run run/demo run/lib.sh run/state.sh run/devices.sh \
	run/sut.sh run/sut-exec run/hooks/* run/variants/* \
	tests/integration/*.bash tests/bench/*.sh tests/fuzz/*.sh; do
	[[ -f $f ]] && scripts+=("$f")
done
existing=()
for f in "${scripts[@]}"; do [[ -f $f ]] && existing+=("$f"); done
bats_tests=()
for f in tests/integration/*.bats; do [[ -f $f ]] && bats_tests+=("$f"); done

# run_shellcheck WHAT LOG OPTION... -- FILE...: one test, passed when
# `shellcheck -x -S style OPTION...` finds nothing in the FILEs.
run_shellcheck() {
	local what=$1 log=$2
	local -a opts=(-x -S style)
	shift 2
	while [[ $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	if shellcheck "${opts[@]}" "$@" >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "  shellcheck: $# $what clean"
	else
		failed=$((failed + 1))
		failures+=("shellcheck: findings in $what")
		head -n 40 "$log" >&2
	fi
}

if command -v shellcheck >/dev/null 2>&1; then
	run_shellcheck scripts "$log_dir/shellcheck.txt" -- "${existing[@]}"
	# The bats dialect: `run`, @test, and a `!` that bats would ignore in
	# the middle of a test (SC2314, SC2315, from shellcheck 0.9 on).
	if ((${#bats_tests[@]} > 0)) && shellcheck -s bats /dev/null >/dev/null 2>&1; then
		run_shellcheck "bats files" "$log_dir/shellcheck-bats.txt" -s bats -- "${bats_tests[@]}"
	elif ((${#bats_tests[@]} > 0)); then
		skipped=$((skipped + 1))
		echo "  shellcheck: this version does not know bats (-s bats): bats files skipped"
	fi
else
	skipped=$((skipped + 1))
	echo "  shellcheck: not installed (Debian: shellcheck), skipped"
fi
step_done shellcheck "$step_start"

echo "== integration tests (bats, each with its own PostgreSQL)"
step_start=$(now_ms)
bats_files=(tests/integration/*.bats)
if [[ -e ${bats_files[0]} ]]; then
	if command -v bats >/dev/null 2>&1; then
		for f in "${bats_files[@]}"; do
			name=$(basename "$f" .bats)
			out="$log_dir/$name.tap"
			t0=$(now_ms)
			bats --tap "$f" >"$out" 2>&1
			status=$?
			count_tap "$name" "$out"
			check_plan "$name" "$out" "$status"
			grep -E '^(not ok|#)' "$out" | head -n 60 >&2
			printf '  %-32s %-20s %s\n' "$name" "$(grep -c '^ok' "$out") ok, $(grep -c '^not ok' "$out") not ok" "$(since "$t0")"
		done
	else
		echo "  bats not installed (Debian: bats): integration tests not run" >&2
		failed=$((failed + 1))
		failures+=("bats: not installed")
	fi
fi
step_done "integration tests" "$step_start"

echo "== all tests: $(since "$check_start")"
if ((${#failures[@]} > 0)); then
	echo "== failures"
	printf '  %s\n' "${failures[@]}"
fi
if ((skipped > 0)); then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
((failed == 0))
