#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-fuzz.sh - `make fuzz`: run each libFuzzer target for SECONDS.
#
# A target reads its corpus tests/fuzz/corpus/NAME/ and writes what it
# finds new to build/fuzz/corpus/NAME/; afterwards the inputs there that
# add coverage are merged into the corpus (-merge=1), so the corpus grows
# only by what reaches new code. A crash, leak or timeout input lands in
# tests/fuzz/crashes/NAME/, kept for good: `make check` replays them all.
# Ends with one line per target: executions per second, coverage (cov:
# edges, ft: features), corpus size, new crash inputs.
# Usage: run-fuzz.sh SECONDS FUZZ_BINARY...
set -uo pipefail

secs=${1:?usage: run-fuzz.sh SECONDS FUZZ_BINARY...}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
failed=0
rows=()

# count_files DIR: regular files in DIR.
count_files() {
	find "$1" -maxdepth 1 -type f | wc -l
}

for bin in "$@"; do
	name=${bin##*/fuzz_}
	corpus=tests/fuzz/corpus/$name
	crashes=tests/fuzz/crashes/$name
	work=build/fuzz/corpus/$name
	log=build/fuzz/$name.log
	mkdir -p "$corpus" "$crashes" "$work"
	before=$(count_files "$crashes")
	echo "== fuzz $name: ${secs}s (log: $log)"
	# -close_fd_mask=1: the targets' stdout (opt's --help) is noise.
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-close_fd_mask=1 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$work" "$corpus" >"$log" 2>&1
	status=$?
	after=$(count_files "$crashes")
	execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	if [ "$status" -ne 0 ]; then
		failed=$((failed + 1))
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" |
			head -n 5 >&2
		echo "  $name: exited $status; input saved in $crashes/" >&2
	else
		# Keep only what adds edges (not hit counts) to the committed
		# corpus, so it stays a few dozen small files.
		"$bin" -merge=1 -use_counters=0 -close_fd_mask=1 "$corpus" "$work" \
			>"build/fuzz/$name.merge.log" 2>&1 ||
			echo "  $name: merge failed (see build/fuzz/$name.merge.log)" >&2
	fi
	size=$(($(du -sb "$corpus" | cut -f1) / 1024))
	rows+=("$(printf '%-14s %6ss %9s exec/s %10s runs  %-22s corpus %3s files %5s KiB  crashes +%s' \
		"$name" "$secs" "${execs:-?}" "${units:-?}" "${cov:-cov: ?}" \
		"$(count_files "$corpus")" "$size" "$((after - before))")")
	echo "  ${rows[-1]}"
done

echo "== fuzz summary ($(date -u +%Y-%m-%d), ${secs}s per target)"
printf '  %s\n' "${rows[@]}"
if [ "$failed" -gt 0 ]; then
	echo "$failed of $# targets found a crash, leak or timeout" >&2
	exit 1
fi
