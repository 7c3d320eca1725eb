#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests.sh - run every test of `make check` and count them.
#
# Unit tests (cmocka) and integration tests (bats) both speak TAP here, so
# one counter serves all; shellcheck of the scripts counts as one test.
# Each test program's line and each step's end show its wall time, so a
# slow test is seen in every run. The last line is "N passed, N failed"
# (", N skipped" when any were).
#
# Test programs and bats files run several at a time (OLTPMARK_CHECK_JOBS,
# default 3; 1 runs them one after another): much of a bats file's time
# is spent waiting (fixed-length runs, a server starting). Not more by
# default: on the 2-CPU development host 4 jobs made the bats files' sum
# 30 % longer (3684 s against 2830 s) and the whole only 45 s shorter
# (16m59s against 17m44s, the latter beside other work): the suite is
# CPU-bound there, and timing-sensitive tests came nearer their bounds.
# Each writes its own TAP file and the results are counted and printed
# in name order, each as soon as it and those before it have ended, so
# the output reads the same whatever the order they ran in. The longest
# start first, by the times of the last run kept in build/check-times
# (in a fresh tree: by tests/check-times.seed, then the largest first).
#
# The unit tests, the fuzz replay and shellcheck need the CPU for about a
# minute; the integration tests mostly wait. So the former run beside the
# latter, started together, and their lines are printed after the
# integration tests' (each step still in its own block).
#
# A bats file is independent of the others: its own throwaway servers
# (run/pg: a free port, a socket in its own directory, stopped by PID),
# its own temporary directories, and checks that look only at processes
# and files of its own. Except the files in EXCLUSIVE below, which change
# what is the machine's, not theirs: loop devices and mounts (run/array:
# array.bats, array-run.bats; variants.bats makes an array too), the I/O
# scheduler of the disk under /tmp, vm.swappiness and cgroups (variants).
# Two of them never run at the same time; beside the other files they
# may. A new file that touches such state goes into EXCLUSIVE.
#
# Usage: run-tests.sh UNIT_TEST_BINARY...
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export OLTPMARK_FIXTURES="$top/tests/fixtures"
export OLTPMARK="$top/oltpmark"
# make's -j and jobserver are for the build, not for a make a test runs.
unset MAKEFLAGS MFLAGS
passed=0
failed=0
skipped=0
failures=()
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/oltpmark-check.XXXXXX")
trap 'templates_stop; rm -rf "$log_dir"' EXIT
# (the server's user, postgres when root runs the tests, enters it)
chmod 711 "$log_dir"
# python3 found once. Where it is a shim (pyenv's, asdf's: a script that
# works out the interpreter anew at every call), each of the tests' many
# python3 calls paid for that: 0.3 s of CPU a call with pyenv here, seconds
# on a busy host. The interpreter the shim chooses here is what every test
# gets, through a one-line wrapper first on the PATH (not a link: a
# virtual environment's interpreter finds its pyvenv.cfg by its own path).
py3=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || py3=
if [[ -n $py3 && -x $py3 && $(command -v python3) != "$py3" ]]; then
	# (the server's user, postgres when root runs the tests, may call it)
	mkdir -m 755 "$log_dir/bin" &&
		printf "#!/bin/sh\nexec '%s' \"\$@\"\n" "${py3//\'/\'\\\'\'}" \
			>"$log_dir/bin/python3" &&
		chmod 755 "$log_dir/bin/python3" &&
		PATH=$log_dir/bin:$PATH
fi
jobs=${OLTPMARK_CHECK_JOBS:-3}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || {
	echo "run-tests.sh: OLTPMARK_CHECK_JOBS: not a count: $jobs" >&2
	exit 2
}
# The bats files (without .bats) that change the machine's state: never
# two at a time (see the top of this file).
EXCLUSIVE=(array array-run variants)
# Where each test's time of the last run is kept, "KIND/NAME MS" a line.
times_file=$top/build/check-times

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

# The time of each test of the last run, to start the longest first; in
# a tree without one (a fresh clone) the seed's times of the longest
# files, the others after them (no_time_ms): else every file would start
# by its size, and a long one that started last would end alone.
declare -A last_ms=()
no_time_ms=999999999
if [[ -r $times_file ]]; then
	while read -r key ms; do
		[[ $ms =~ ^[0-9]+$ ]] && last_ms[$key]=$ms
	done <"$times_file"
elif [[ -r $top/tests/check-times.seed ]]; then
	while read -r key ms; do
		[[ $key != \#* && $ms =~ ^[0-9]+$ ]] && last_ms[$key]=$ms
	done <"$top/tests/check-times.seed"
	no_time_ms=0
fi
declare -A is_exclusive=()
for name in "${EXCLUSIVE[@]}"; do is_exclusive[$name]=1; done

# start_order KIND NAME:FILE...: the NAMEs, longest first: those with a
# time of the last run by that time, after those without one (new: no
# guess is safer than starting them last) by FILE's size; with the seed's
# times (no build/check-times), those without one come last.
start_order() {
	local kind=$1 item name file
	shift
	for item in "$@"; do
		name=${item%%:*}
		file=${item#*:}
		printf '%s %s %s\n' "${last_ms[$kind/$name]:-$no_time_ms}" \
			"$(stat -c %s -- "$file" 2>/dev/null || echo 0)" "$name"
	done | sort -k1,1nr -k2,2nr -k3,3 | cut -d' ' -f3
}

# pool KIND START REPORT NAME:FILE...: `START NAME FILE` for each, in the
# background, up to $jobs at a time and never two EXCLUSIVE names at
# once; START leaves $log_dir/NAME.ms when it is done. `REPORT NAME
# FILE` for each in the order given, as soon as it and all before it
# have ended. Each test's time is kept for the next run's order.
pool() {
	local kind=$1 start=$2 report=$3
	shift 3
	local -a items=("$@") queue
	local -A file_of=() running=()
	local item name i next=0 excl=

	for item in "${items[@]}"; do
		file_of[${item%%:*}]=${item#*:}
	done
	mapfile -t queue < <(start_order "$kind" "${items[@]}")
	while ((next < ${#items[@]})); do
		for i in "${!queue[@]}"; do
			((${#running[@]} < jobs)) || break
			name=${queue[i]}
			if [[ -n ${is_exclusive[$name]:-} && $kind == bats ]]; then
				[[ -z $excl ]] || continue
				excl=$name
			fi
			"$start" "$name" "${file_of[$name]}" &
			running[$name]=$!
			unset 'queue[i]'
		done
		# one has ended (or a signal came): see which
		wait -n 2>/dev/null || true
		for name in "${!running[@]}"; do
			if [[ ! -e $log_dir/$name.ms ]]; then
				# killed before it could say so: a failure
				! kill -0 "${running[$name]}" 2>/dev/null || continue
				[[ -e $log_dir/$name.status ]] ||
					echo 1 >"$log_dir/$name.status"
				echo 0 >"$log_dir/$name.ms"
			fi
			wait "${running[$name]}" 2>/dev/null
			unset 'running[$name]'
			[[ $excl != "$name" ]] || excl=
			last_ms[$kind/$name]=$(<"$log_dir/$name.ms")
		done
		while ((next < ${#items[@]})); do
			item=${items[next]}
			name=${item%%:*}
			[[ -e $log_dir/$name.ms && -z ${running[$name]:-} ]] || break
			"$report" "$name" "${file_of[$name]}"
			next=$((next + 1))
		done
	done
}

# ms_text MS: MS milliseconds as seconds with one decimal.
ms_text() {
	printf '%d.%d s' $(($1 / 1000)) $(($1 % 1000 / 100))
}

# result_line NAME: a test program's line: its counts and wall time.
result_line() {
	local name=$1 out=$log_dir/$1.tap
	printf '  %-32s %-20s %s\n' "$name" \
		"$(grep -c '^ok' "$out") ok, $(grep -c '^not ok' "$out") not ok" \
		"$(ms_text "$(<"$log_dir/$name.ms")")"
}

# run_unit NAME BINARY: one unit test program, its TAP into NAME.tap,
# its exit status into NAME.status.
run_unit() {
	local name=$1 t0
	t0=$(now_ms)
	CMOCKA_MESSAGE_OUTPUT=TAP \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$2" >"$log_dir/$name.tap" 2>"$log_dir/$name.err"
	echo "$?" >"$log_dir/$name.status"
	echo "$(($(now_ms) - t0))" >"$log_dir/$name.ms"
}

# report_unit NAME BINARY: count what run_unit left, show its failures.
report_unit() {
	local name=$1 out=$log_dir/$1.tap status
	status=$(<"$log_dir/$name.status")
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
	result_line "$name"
}

# is_shell FILE: whether FILE is a shell script or library, by its first
# line: #! naming sh or bash, or a `# shellcheck shell=` directive.
is_shell() {
	local first
	IFS= read -r first <"$1" || return 1
	[[ $first =~ ^\#!(/usr)?/bin/(env\ )?(ba)?sh([[:space:]]|$) ||
		$first == "# shellcheck shell="* ]] && return 0
	# a library: SPDX line first, the directive within its first lines
	head -n 3 "$1" | grep -q '^# shellcheck shell='
}

# side_checks UNIT_BINARY...: the unit tests, the fuzz replay and the
# scripts' lint (shellcheck), each step printed as it ends. They need the CPU for a minute
# while the integration tests mostly wait, so they run beside them (see
# side_checks_start) rather than before.
side_checks() {
	echo "== unit tests (cmocka, ASan+UBSan build)"
	step_start=$(now_ms)
	units=()
	for bin in "$@"; do
		units+=("$(basename "$bin"):$bin")
	done
	pool unit run_unit report_unit "${units[@]}"
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
	# Every shell file of these places, found by its first line (a
	# shell's #!, or shellcheck's `shell=` directive for a sourced
	# library), not listed by name: a list missed run/oltpmark-boots and
	# five others for a while. Files that are not shell (run/hooks.tsv,
	# C sources of tests/bench) are left out the same way.
	existing=()
	for f in configure .ci/run run/* run/hooks/* run/variants/* tests/*.sh \
		tests/integration/*.bash tests/bench/* tests/fuzz/*.sh; do
		[[ -f $f ]] && is_shell "$f" && existing+=("$f")
	done
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
}

# side_checks_start UNIT_BINARY...: side_checks in the background, its
# output kept in $log_dir/side.out and .err, its counters, failures and
# the unit tests' times in side.counts, side.failures and side.times for
# side_checks_report.
side_checks_start() {
	(
		# the subshell's own counters, on purpose: the parent adds them
		# shellcheck disable=SC2030
		passed=0 failed=0 skipped=0 failures=()
		side_checks "$@"
		printf '%s %s %s\n' "$passed" "$failed" "$skipped" >"$log_dir/side.counts"
		printf '%s\n' "${failures[@]}" >"$log_dir/side.failures"
		for key in "${!last_ms[@]}"; do
			[[ $key == unit/* ]] && printf '%s %s\n' "$key" "${last_ms[$key]}"
		done >"$log_dir/side.times"
	) >"$log_dir/side.out" 2>"$log_dir/side.err" &
	side_pid=$!
}

# side_checks_report: wait for side_checks, print what it printed and add
# its counters; a side that died without its counters is one failure.
# (The counters side_checks_start's subshell set are its own: SC2031.)
# shellcheck disable=SC2031
side_checks_report() {
	local p f s line key ms
	wait "$side_pid" 2>/dev/null
	cat "$log_dir/side.out"
	cat "$log_dir/side.err" >&2
	if read -r p f s <"$log_dir/side.counts" 2>/dev/null; then
		passed=$((passed + p))
		failed=$((failed + f))
		skipped=$((skipped + s))
		while IFS= read -r line; do
			[[ -n $line ]] && failures+=("$line")
		done <"$log_dir/side.failures"
		while read -r key ms; do
			last_ms[$key]=$ms
		done <"$log_dir/side.times"
	else
		failed=$((failed + 1))
		failures+=("unit tests, fuzz replay, shellcheck: ended without counts")
	fi
}

side_checks_start "$@"

# Loaded clusters to copy (run/pg init --from), made once here rather
# than by every bats file and every experiment of one: an initdb and a
# load of one warehouse are about 10 s of CPU, a copy under one, and the
# suite is CPU-bound. Three templates, all stopped when the files start:
#   empty  a cluster as run/pg init leaves it, which pg_throwaway_start
#        copies (OLTPMARK_TEST_EMPTY_FROM): 0.3 s of CPU, initdb 1.7;
#   w1   database oltpmark with one warehouse, as pg_throwaway_start_w1
#        loads it (OLTPMARK_TEST_W1_FROM, tests/integration/helpers.bash);
#   run  database oltpmark_loaded with one warehouse of seed 1 frozen, as
#        run/oltpmark-run's ensure_loaded leaves it for -w 1 and the
#        default seed (OLTPMARK_CLUSTER_FROM: run/oltpmark-run copies it
#        for each new private cluster and reuses that load).
# A template that cannot be made is said, and the tests make their own.
templates_dir=$log_dir/templates

# templates_stop: stop a template server still running (an interrupted
# make_template), by run/pg's PID check.
templates_stop() {
	local t
	for t in "$templates_dir"/*/; do
		[[ -e $t/.oltpmark-cluster ]] && "$top/run/pg" stop "$t" >/dev/null 2>&1
	done
	return 0
}

# make_template NAME DBNAME LOAD-ARG...: the stopped cluster
# $templates_dir/NAME with `oltpmark load -w 1 -j 2 LOAD-ARG...` in
# database DBNAME (created when not oltpmark), frozen.
make_template() {
	local dir=$templates_dir/$1 db=$2 ci
	shift 2
	"$top/run/pg" init "$dir" >/dev/null &&
		"$top/run/pg" start "$dir" >/dev/null || return 1
	ci=$("$top/run/pg" conninfo "$dir")
	if { [[ $db == oltpmark ]] ||
		psql -XAtq -v ON_ERROR_STOP=1 -d "$ci" -c "CREATE DATABASE $db"; } &&
		"$OLTPMARK" load -w 1 -j 2 "$@" --conninfo "$ci dbname=$db" &&
		psql -XAtq -v ON_ERROR_STOP=1 -d "$ci dbname=$db" \
			-c "VACUUM (FREEZE, ANALYZE)"; then
		"$top/run/pg" stop "$dir" >/dev/null
	else
		"$top/run/pg" stop "$dir" >/dev/null
		return 1
	fi
}

mkdir -m 755 "$templates_dir"
if "$top/run/pg" init "$templates_dir/empty" >"$log_dir/template-empty.log" 2>&1; then
	export OLTPMARK_TEST_EMPTY_FROM=$templates_dir/empty
else
	echo "  (no template cluster empty; each file runs initdb: $(tail -n 1 "$log_dir/template-empty.log"))"
fi
make_template w1 oltpmark >"$log_dir/template-w1.log" 2>&1 &
w1_pid=$!
make_template run oltpmark_loaded --seed 1 >"$log_dir/template-run.log" 2>&1 &
run_pid=$!
if wait "$w1_pid"; then
	export OLTPMARK_TEST_W1_FROM=$templates_dir/w1
else
	echo "  (no template cluster w1; each file loads its own: $(tail -n 1 "$log_dir/template-w1.log"))"
fi
if wait "$run_pid"; then
	export OLTPMARK_CLUSTER_FROM=$templates_dir/run
else
	echo "  (no template cluster run; each experiment loads its own: $(tail -n 1 "$log_dir/template-run.log"))"
fi

# run_bats NAME FILE: one bats file, its TAP into NAME.tap, its exit
# status into NAME.status.
run_bats() {
	local name=$1 t0
	t0=$(now_ms)
	bats --tap "$2" >"$log_dir/$name.tap" 2>&1
	echo "$?" >"$log_dir/$name.status"
	echo "$(($(now_ms) - t0))" >"$log_dir/$name.ms"
}

# report_bats NAME FILE: count what run_bats left, show its failures.
report_bats() {
	local name=$1 out=$log_dir/$1.tap
	count_tap "$name" "$out"
	check_plan "$name" "$out" "$(<"$log_dir/$name.status")"
	grep -E '^(not ok|#)' "$out" | head -n 60 >&2
	result_line "$name"
}

echo "== integration tests (bats, each with its own PostgreSQL; $jobs at a time)"
step_start=$(now_ms)
bats_files=(tests/integration/*.bats)
if [[ -e ${bats_files[0]} ]]; then
	if command -v bats >/dev/null 2>&1; then
		items=()
		for f in "${bats_files[@]}"; do
			items+=("$(basename "$f" .bats):$f")
		done
		pool bats run_bats report_bats "${items[@]}"
	else
		echo "  bats not installed (Debian: bats): integration tests not run" >&2
		failed=$((failed + 1))
		failures+=("bats: not installed")
	fi
fi
step_done "integration tests" "$step_start"
side_checks_report

# The times of this run, for the next one's order (build/ is make's).
if [[ -d ${times_file%/*} ]]; then
	for key in "${!last_ms[@]}"; do
		printf '%s %s\n' "$key" "${last_ms[$key]}"
	done | sort >"$times_file.tmp" && mv -- "$times_file.tmp" "$times_file"
fi

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
