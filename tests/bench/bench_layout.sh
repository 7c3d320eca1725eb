#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_layout.sh - what spreading a load over tablespaces costs: `oltpmark
# load -w W` into one directory, over D tablespace directories in the
# table layout, and over the same D in the warehouse layout, on one
# throwaway server, interleaved (single, table, warehouse; then table,
# warehouse, single; ...: each round starts with the next one) so that
# whatever else the machine does falls on all three alike. Prints
# the seconds of every load, each layout's time over the single-directory
# load of the same round, and the ratio of the medians. The target
# (docs/layout.md): no layout above 1.15 times the single directory.
#
# The D directories are plain directories next to the cluster, on its
# filesystem (--allow-shared-device): this measures the loader's own
# cost of the layouts (more relations, COPY per partition, CREATE
# TABLESPACE, the partitioned keys), not what separate devices give.
# Prints figures, not pass/fail.
#
# Environment: BENCH_LAYOUT_W (default 10), BENCH_LAYOUT_DIRS (default 4),
# BENCH_LAYOUT_RUNS (rounds, default 3), BENCH_LAYOUT_CONFIG (replica, the
# default, or minimal: wal_level), BENCH_LAYOUT_JOBS (oltpmark -j, default
# its own), OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
W=${BENCH_LAYOUT_W:-10}
D=${BENCH_LAYOUT_DIRS:-4}
RUNS=${BENCH_LAYOUT_RUNS:-3}
CONFIG=${BENCH_LAYOUT_CONFIG:-replica}
JOBS=()
if [[ -n ${BENCH_LAYOUT_JOBS:-} ]]; then
	JOBS=(-j "$BENCH_LAYOUT_JOBS")
fi

skip() {
	echo "bench_layout: skipped: $*"
	exit 0
}

[[ -x $OLTPMARK ]] || skip "$OLTPMARK not built (run make)"
[[ -x $top/run/pg ]] || skip "run/pg not found"
bindir=$(pg_config --bindir 2>/dev/null || true)
for tool in psql createdb dropdb; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		[[ -n $bindir && -x $bindir/$tool ]] ||
			skip "$tool not found (Debian: postgresql-client)"
		PATH=$bindir:$PATH
	fi
done
case $CONFIG in
replica) settings=() ;;
minimal) settings=(-c wal_level=minimal -c max_wal_senders=0) ;;
*)
	echo "bench_layout: unknown configuration '$CONFIG'" >&2
	exit 2
	;;
esac

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
	{ echo "bench_layout: run/pg init failed" >&2; exit 1; }
"$top/run/pg" start "$dir" -- "${settings[@]}" >/dev/null
conninfo=$("$top/run/pg" conninfo "$dir")
export PGHOST=$dir/socket PGUSER=${conninfo##*user=}
PGPORT=$(<"$dir/port")
export PGPORT
owner=$(stat -c %U "$dir/data")

# sql DB SQL: one value from database DB.
sql() {
	psql -XAtq -v ON_ERROR_STOP=1 -d "$1" -c "$2"
}

# tsdirs: D empty directories owned by the server's user, as options.
tsdirs() {
	local k

	TSDIRS=()
	for ((k = 1; k <= D; k++)); do
		mkdir -p "$dir/ts$k"
		chown "$owner" "$dir/ts$k"
		TSDIRS+=(--tablespace-dir "$dir/ts$k")
	done
}

# forget DB: drop database DB and our tablespaces, then write out what
# the load left so that the next one starts from the same state.
forget() {
	local ts

	dropdb "$1"
	for ts in $(sql postgres "SELECT spcname FROM pg_tablespace
				  WHERE spcname LIKE 'oltpmark_ts%'"); do
		sql postgres "DROP TABLESPACE $ts" >/dev/null
	done
	sql postgres "CHECKPOINT" >/dev/null
	sync
}

# server_cpu: CPU seconds of the server's exited backends so far (the
# postmaster reaps them, so they add up in its cutime and cstime).
server_cpu() {
	local pid

	read -r pid <"$dir/data/postmaster.pid"
	awk -v tck="$(getconf CLK_TCK)" '{ print ($16 + $17) / tck }' \
		"/proc/$pid/stat"
}

# load LAYOUT: time one load of W warehouses in LAYOUT (single, table,
# warehouse) into a fresh database; prints the seconds and the CPU
# seconds of the loader and of the server's processes that ended.
load() {
	local db=bench_$1 t0 t1 s0 s1 TIMEFORMAT='%U %S' user sys
	local -a extra=()

	createdb "$db"
	if [[ $1 != single ]]; then
		tsdirs
		extra=("${TSDIRS[@]}" --layout "$1" --allow-shared-device)
	fi
	s0=$(server_cpu)
	t0=$(date +%s%N)
	if ! { time "$OLTPMARK" load -w "$W" "${JOBS[@]}" "${extra[@]}" \
		--conninfo "$conninfo dbname=$db" >"$dir/load.out" 2>&1; } \
		2>"$dir/time.out"; then
		cat "$dir/load.out" >&2
		return 1
	fi
	t1=$(date +%s%N)
	sleep 0.5 # let the backends exit and be reaped
	s1=$(server_cpu)
	read -r user sys <"$dir/time.out"
	forget "$db"
	awk -v a="$t0" -v b="$t1" -v u="$user" -v s="$sys" -v c0="$s0" \
		-v c1="$s1" 'BEGIN { printf "%.2f %.2f\n", (b - a) / 1e9,
				      u + s + c1 - c0 }'
}

# median: the median of the numbers on stdin, one a line.
median() {
	sort -g |
		awk '{ v[NR] = $1 } END {
			if (NR % 2) print v[(NR + 1) / 2]
			else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

read -r load1 _ </proc/loadavg
echo "layout: W=$W over $D directories (one filesystem), $(nproc) CPUs," \
	"wal_level $CONFIG, load average $load1 at start, $RUNS round(s)"

# Warm-up, not timed: one load of each, so that WAL segments to recycle
# exist for all of them.
for layout in single table warehouse; do
	load "$layout" >/dev/null
done

secs=() cpus=()
printf '  %-6s %-9s %8s %7s %10s %8s\n' round layout seconds "CPU s" \
	"s/single" "CPU/single"
layouts=(single table warehouse)
for ((run = 1; run <= RUNS; run++)); do
	# each round starts with another layout, so none is always first
	order=()
	for ((i = 0; i < 3; i++)); do
		order+=("${layouts[(run - 1 + i) % 3]}")
	done
	round=()
	for layout in "${order[@]}"; do
		read -r t c < <(load "$layout")
		secs+=("$layout $t") cpus+=("$layout $c")
		round+=("$layout $t $c")
	done
	# print in the fixed order, each over the round's single directory
	printf '%s\n' "${round[@]}" | awk -v r="$run" '
		{ t[$1] = $2; c[$1] = $3 }
		END {
			split("single table warehouse", l, " ")
			for (i = 1; i <= 3; i++)
				printf "  %-6s %-9s %8.2f %7.2f %10.3f %8.3f\n", r,
				       l[i], t[l[i]], c[l[i]],
				       t[l[i]] / t["single"], c[l[i]] / c["single"]
		}'
done
# the medians of each layout, and their ratios to the single directory's
for layout in single table warehouse; do
	t=$(printf '%s\n' "${secs[@]}" | awk -v l="$layout" '$1 == l { print $2 }' |
		median)
	c=$(printf '%s\n' "${cpus[@]}" | awk -v l="$layout" '$1 == l { print $2 }' |
		median)
	[[ $layout == single ]] && base_t=$t base_c=$c
	awk -v l="$layout" -v t="$t" -v c="$c" -v bt="$base_t" -v bc="$base_c" \
		'BEGIN { printf "  %-6s %-9s %8.2f %7.2f %10.3f %8.3f\n",
			 "median", l, t, c, t / bt, c / bc }'
done
"$top/run/pg" stop "$dir" >/dev/null
