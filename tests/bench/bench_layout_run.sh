#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_layout_run.sh - what the warehouse layout costs a cached run:
# W warehouses loaded twice on one throwaway server, once into one
# directory and once range-partitioned by warehouse over D tablespace
# directories, then short cached runs of each, interleaved (single,
# warehouse; then warehouse, single; ...) so that whatever else the
# machine does falls on both alike. Prints each run's NOTPM, each
# round's ratio warehouse / single, and the ratio of the medians. The
# target (docs/layout.md): the warehouse layout reaches at least 0.95
# times the single directory's NOTPM (partition pruning must not cost
# more than 5 %).
#
# The D directories sit on the cluster's filesystem (the database fits
# in shared buffers anyway): this measures the partitioned tables'
# cost in planning and executing the transactions, not separate disks.
# Prints figures, not pass/fail.
#
# Environment: BENCH_LAYOUT_W (default 10), BENCH_LAYOUT_DIRS (default
# 4), BENCH_LAYOUT_RUNS (rounds, default 3), BENCH_LAYOUT_RUN_S (measured
# seconds per run, default 60), OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
W=${BENCH_LAYOUT_W:-10}
D=${BENCH_LAYOUT_DIRS:-4}
RUNS=${BENCH_LAYOUT_RUNS:-3}
RUN_S=${BENCH_LAYOUT_RUN_S:-60}

skip() {
	echo "bench_layout_run: skipped: $*"
	exit 0
}

[[ -x $OLTPMARK ]] || skip "$OLTPMARK not built (run make)"
[[ -x $top/run/pg ]] || skip "run/pg not found"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"
bindir=$(pg_config --bindir 2>/dev/null || true)
for tool in psql createdb; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		[[ -n $bindir && -x $bindir/$tool ]] ||
			skip "$tool not found (Debian: postgresql-client)"
		PATH=$bindir:$PATH
	fi
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/oltpmark-bench.XXXXXX")
cleanup() {
	if [[ -f $dir/.oltpmark-cluster ]]; then
		"$top/run/pg" stop "$dir" >/dev/null 2>&1 || true
		rm -rf -- "$dir"
	else
		rmdir -- "$dir" 2>/dev/null || true
	fi
}
trap cleanup EXIT

"$top/run/pg" init "$dir" >/dev/null 2>&1 ||
	{ echo "bench_layout_run: run/pg init failed" >&2; exit 1; }
# Both databases in shared buffers: W=10 is about 1 GB each.
"$top/run/pg" start "$dir" -- -c shared_buffers=$((W * 230))MB >/dev/null ||
	{ echo "bench_layout_run: the server did not start" >&2; exit 1; }
conninfo=$("$top/run/pg" conninfo "$dir")
export PGHOST=$dir/socket PGUSER=${conninfo##*user=}
PGPORT=$(<"$dir/port")
export PGPORT
owner=$(stat -c %U "$dir/data")

# load LAYOUT: database bench_LAYOUT with W warehouses in LAYOUT.
load() {
	local db=bench_$1 k
	local -a extra=()

	createdb "$db"
	if [[ $1 == warehouse ]]; then
		for ((k = 1; k <= D; k++)); do
			mkdir -p "$dir/ts$k"
			chown "$owner" "$dir/ts$k"
			extra+=(--tablespace-dir "$dir/ts$k")
		done
		extra+=(--layout warehouse --allow-shared-device)
	fi
	"$OLTPMARK" load -w "$W" "${extra[@]}" \
		--conninfo "$conninfo dbname=$db" >"$dir/load-$1.out" 2>&1 ||
		{ cat "$dir/load-$1.out" >&2; return 1; }
}

# run LAYOUT N: one cached run of bench_LAYOUT; prints its NOTPM.
run() {
	local out=$dir/run-$1-$2

	"$OLTPMARK" run -w "$W" -d "$RUN_S" --ramp-up 10 --keying-think none \
		--progress 0 --seed "$2" --conninfo "$conninfo dbname=bench_$1" \
		--out "$out" >"$out.log" 2>&1 ||
		{ cat "$out.log" >&2; return 1; }
	"$OLTPMARK" report "$out" >/dev/null 2>&1 ||
		{ echo "bench_layout_run: report of $out failed" >&2; return 1; }
	python3 -c 'import json, sys
print("%.1f" % json.load(open(sys.argv[1]))["notpm"])' "$out/summary.json"
}

# median: the median of the numbers on stdin, one a line.
median() {
	sort -g |
		awk '{ v[NR] = $1 } END {
			if (NR % 2) print v[(NR + 1) / 2]
			else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

read -r load1 _ </proc/loadavg
echo "layout_run: W=$W single directory vs warehouse layout over $D" \
	"directories, cached, ${RUN_S}-s runs, $(nproc) CPUs, load average" \
	"$load1 at start, $RUNS round(s)"
load single
load warehouse
# Warm-up, not counted: each database read into shared buffers once.
run single 1000 >/dev/null
run warehouse 1000 >/dev/null

single=() warehouse=()
printf '  %-6s %10s %10s %8s\n' round single warehouse ratio
for ((r = 1; r <= RUNS; r++)); do
	if ((r % 2)); then
		s=$(run single "$r")
		w=$(run warehouse "$r")
	else
		w=$(run warehouse "$r")
		s=$(run single "$r")
	fi
	single+=("$s") warehouse+=("$w")
	awk -v r="$r" -v s="$s" -v w="$w" \
		'BEGIN { printf "  %-6s %10.1f %10.1f %8.3f\n", r, s, w, w / s }'
done
ms=$(printf '%s\n' "${single[@]}" | median)
mw=$(printf '%s\n' "${warehouse[@]}" | median)
awk -v s="$ms" -v w="$mw" 'BEGIN {
	printf "  median %9.1f %10.1f %8.3f  (target: warehouse >= 0.95 x single)\n",
	       s, w, w / s }'
