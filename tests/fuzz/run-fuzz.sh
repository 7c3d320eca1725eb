#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-fuzz.sh - `make fuzz`: run each libFuzzer target for SECONDS.
#
# A target reads its corpus tests/fuzz/corpus/NAME/ and writes what it
# finds new to build/fuzz/corpus/NAME/; afterwards the inputs there that
# add coverage are merged into the corpus (-merge=1), so the corpus grows
# only by what reaches new code. A crash, leak or timeout input lands in
# tests/fuzz/crashes/NAME/, kept for good: `make check` replays them all.
# FUZZ_JOBS targets run at a time (default 1: each target gets a core to
# itself, and executions per second compare between runs). The targets
# that read files write each input to a directory under FUZZ_TMPDIR,
# /dev/shm by default where it is a writable tmpfs: on a disk every
# input costs metadata writes that a busy disk makes wait, and those
# targets then ran ten times slower.
#
# Ends with one line per target, printed and written to
# build/fuzz/summary.txt: libFuzzer's final stat:: figures (executions
# per second and in all, inputs added, the slowest input, peak memory),
# the coverage of its last status line (cov: edges, ft: features), the
# corpus after the merge and the crash inputs it saved.
# Usage: [FUZZ_JOBS=N] [FUZZ_TMPDIR=DIR] run-fuzz.sh SECONDS FUZZ_BINARY...
set -uo pipefail

secs=${1:?usage: run-fuzz.sh SECONDS FUZZ_BINARY...}
shift
jobs=${FUZZ_JOBS:-1}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
	echo "run-fuzz.sh: FUZZ_JOBS must be a number >= 1, not '$jobs'" >&2
	exit 2
fi
tmp=${FUZZ_TMPDIR:-}
if [ -z "$tmp" ]; then
	tmp=${TMPDIR:-/tmp}
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
		[ -w /dev/shm ]; then
		tmp=/dev/shm
	fi
fi
# fuzz.h makes each target's private directory under $TMPDIR.
export TMPDIR=$tmp
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
summary=build/fuzz/summary.txt
mkdir -p build/fuzz

# count_files DIR: regular files in DIR.
count_files() {
	find "$1" -maxdepth 1 -type f | wc -l
}

# stat_of LOG KEY: the last "stat::KEY: VALUE" of a libFuzzer log, or "?".
stat_of() {
	local v
	v=$(sed -n "s/^stat::$2: *//p" "$1" | tail -n 1)
	echo "${v:-?}"
}

# fuzz_one NAME BIN: run one target, then write its summary line to
# build/fuzz/NAME.row and its exit status to build/fuzz/NAME.rc.
fuzz_one() {
	local name=$1 bin=$2 corpus crashes work log before after status
	local cov ft result scratch
	# A target that crashes never removes its private directory (no
	# atexit on abort): each target gets one to put it in, removed here.
	scratch=$(mktemp -d "$TMPDIR/oltpmark-fuzz-$name.XXXXXX") || return
	corpus=tests/fuzz/corpus/$name
	crashes=tests/fuzz/crashes/$name
	work=build/fuzz/corpus/$name
	log=build/fuzz/$name.log
	mkdir -p "$corpus" "$crashes" "$work"
	before=$(count_files "$crashes")
	echo "== fuzz $name: ${secs}s (log: $log)"
	# -close_fd_mask=1: the targets' stdout (opt's --help) is noise.
	TMPDIR=$scratch "$bin" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -close_fd_mask=1 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$work" "$corpus" >"$log" 2>&1
	status=$?
	after=$(count_files "$crashes")
	# The last status line ("#N DONE cov: C ft: F corp: ...") has the
	# coverage the run reached.
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1)
	if [ "$status" -ne 0 ]; then
		result=failed
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" |
			head -n 5 >&2
		echo "  $name: exited $status; input saved in $crashes/" >&2
	else
		result=ok
		# Keep only what adds edges (not hit counts) to the committed
		# corpus, so it stays a few dozen small files.
		TMPDIR=$scratch "$bin" -merge=1 -use_counters=0 -close_fd_mask=1 \
			"$corpus" "$work" >"build/fuzz/$name.merge.log" 2>&1 ||
			echo "  $name: merge failed (see build/fuzz/$name.merge.log)" >&2
	fi
	printf '%-18s %5s %7s %10s %5s %6s %5s %7s %6s %6s %7s %7s  %s\n' \
		"$name" "$secs" "$(stat_of "$log" average_exec_per_sec)" \
		"$(stat_of "$log" number_of_executed_units)" \
		"${cov#cov: }" "${ft#ft: }" \
		"$(stat_of "$log" new_units_added)" \
		"$(stat_of "$log" slowest_unit_time_sec)" \
		"$(stat_of "$log" peak_rss_mb)" \
		"$(count_files "$corpus")" \
		"$(($(du -sb "$corpus" | cut -f1) / 1024))" \
		"+$((after - before))" "$result" >"build/fuzz/$name.row"
	echo "  $(cat "build/fuzz/$name.row")"
	echo "$status" >"build/fuzz/$name.rc"
	rm -rf "$scratch"
}

names=()
running=0
for bin in "$@"; do
	name=${bin##*/fuzz_}
	names+=("$name")
	rm -f "build/fuzz/$name.row" "build/fuzz/$name.rc"
	if [ "$jobs" -eq 1 ]; then
		fuzz_one "$name" "$bin"
		continue
	fi
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	fuzz_one "$name" "$bin" &
	running=$((running + 1))
done
wait

failed=0
{
	echo "# make fuzz $(date -u +%Y-%m-%dT%H:%M:%SZ): ${secs} s per target, $jobs at a time, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), files in $TMPDIR"
	echo "# exec/s, runs, new, slowest_s, rss_mb: libFuzzer's final stat:: lines; cov, ft: its last status line; corpus after the merge"
	printf '%-18s %5s %7s %10s %5s %6s %5s %7s %6s %6s %7s %7s  %s\n' \
		target secs exec/s runs cov ft new slowest rss_mb files KiB \
		crashes result
	for name in "${names[@]}"; do
		if [ -f "build/fuzz/$name.row" ]; then
			cat "build/fuzz/$name.row"
		else
			printf '%-18s (no result: see build/fuzz/%s.log)\n' \
				"$name" "$name"
		fi
		rc=$(cat "build/fuzz/$name.rc" 2>/dev/null || echo 1)
		[ "$rc" -eq 0 ] || failed=$((failed + 1))
	done
} >"$summary"
echo "== fuzz summary ($summary)"
cat "$summary"
if [ "$failed" -gt 0 ]; then
	echo "$failed of $# targets found a crash, leak or timeout" >&2
	exit 1
fi
