#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_layout_run.sh - what the warehouse layout costs a cached run:
# W warehouses loaded twice on one throwaway server, once into one
# directory and once range-partitioned by warehouse over D tablespace
# directories, then short cached runs of each, interleaved (single,
# warehouse; then warehouse, single; ...) so that whatever else the
# machine does falls on both alike. Prints each run's NOTPM and the
# server's CPU time per New-Order, each round's ratios warehouse /
# single, and the ratios of the medians. The target (docs/layout.md):
# the warehouse layout reaches at least 0.95 times the single
# directory's NOTPM (partition pruning must not cost more than 5 %).
#
# On a shared host the NOTPM of a 45-s run moves by 10-20 % with the
# host, between runs more than between layouts. So the script then runs
# both databases at once, the same terminals and connections each, for
# BENCH_LAYOUT_PAIRED rounds: at saturation the scheduler gives each
# connection the same share of the CPUs, so each database's NOTPM goes
# as the inverse of its CPU per New-Order, and the host's moods fall on
# both in the same seconds. The ratio of the two NOTPMs of one paired
# run is the layout's own cost, with the host's noise cancelled.
#
# The D directories sit on the cluster's filesystem (the database fits
# in shared buffers anyway): this measures the partitioned tables'
# cost in planning and executing the transactions, not separate disks.
# Prints figures, not pass/fail.
#
# Environment: BENCH_LAYOUT_W (default 10), BENCH_LAYOUT_DIRS (default
# 4), BENCH_LAYOUT_RUNS (rounds, default 3), BENCH_LAYOUT_PAIRED (paired
# rounds, default 5), BENCH_LAYOUT_RUN_S (measured seconds per run,
# default 60), BENCH_LAYOUT_NO_ROUTES=1 (drop oltpmark_routes after the
# load, so the transactions run on the partitioned tables themselves:
# what the routes buy, docs/layout.md), OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
W=${BENCH_LAYOUT_W:-10}
D=${BENCH_LAYOUT_DIRS:-4}
RUNS=${BENCH_LAYOUT_RUNS:-3}
RUN_S=${BENCH_LAYOUT_RUN_S:-60}
PAIRED=${BENCH_LAYOUT_PAIRED:-5}

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

# run LAYOUT N [TAG]: one cached run of bench_LAYOUT; prints its NOTPM
# and the server's CPU milliseconds per New-Order (run.json's cost
# window, which is the measured interval: the CPU the whole server spent
# in it, divided by this run's New-Orders; meaningless for paired runs,
# whose server serves both).
run() {
	local out=$dir/run-$1-$2${3:-}

	"$OLTPMARK" run -w "$W" -d "$RUN_S" --ramp-up 10 --keying-think none \
		--progress 0 --seed "$2" --conninfo "$conninfo dbname=bench_$1" \
		--out "$out" >"$out.log" 2>&1 ||
		{ cat "$out.log" >&2; return 1; }
	"$OLTPMARK" report "$out" >/dev/null 2>&1 ||
		{ echo "bench_layout_run: report of $out failed" >&2; return 1; }
	python3 -c 'import json, sys
notpm = json.load(open(sys.argv[1]))["notpm"]
cost = json.load(open(sys.argv[2]))["cost"]
cpu, t = cost.get("server_cpu_s"), cost["window_end_s"] - cost["window_start_s"]
per_no = 1000 * cpu / (notpm * t / 60) if cpu and notpm else float("nan")
print("%.1f %.3f" % (notpm, per_no))' "$out/summary.json" "$out/run.json"
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
if [[ ${BENCH_LAYOUT_NO_ROUTES:-0} == 1 ]]; then
	psql -XAtq -d bench_warehouse -c "DROP TABLE oltpmark_routes"
	echo "  without routes: the transactions run on the partitioned tables"
fi
# Warm-up, not counted: each database read into shared buffers once.
run single 1000 >/dev/null
run warehouse 1000 >/dev/null

single=() warehouse=() single_cpu=() warehouse_cpu=()
((RUNS == 0)) ||
	printf '  %-6s %10s %10s %8s %9s %9s %8s\n' round single warehouse \
		ratio s_cpu_ms w_cpu_ms ratio
for ((r = 1; r <= RUNS; r++)); do
	if ((r % 2)); then
		read -r s sc < <(run single "$r")
		read -r w wc < <(run warehouse "$r")
	else
		read -r w wc < <(run warehouse "$r")
		read -r s sc < <(run single "$r")
	fi
	single+=("$s") warehouse+=("$w") single_cpu+=("$sc") warehouse_cpu+=("$wc")
	awk -v r="$r" -v s="$s" -v w="$w" -v sc="$sc" -v wc="$wc" \
		'BEGIN { printf "  %-6s %10.1f %10.1f %8.3f %9.3f %9.3f %8.3f\n",
			 r, s, w, w / s, sc, wc, wc / sc }'
done
if ((RUNS > 0)); then
	ms=$(printf '%s\n' "${single[@]}" | median)
	mw=$(printf '%s\n' "${warehouse[@]}" | median)
	msc=$(printf '%s\n' "${single_cpu[@]}" | median)
	mwc=$(printf '%s\n' "${warehouse_cpu[@]}" | median)
	awk -v s="$ms" -v w="$mw" -v sc="$msc" -v wc="$mwc" 'BEGIN {
		printf "  median %9.1f %10.1f %8.3f %9.3f %9.3f %8.3f\n", s, w, w / s, sc, wc, wc / sc
		print "  (target: warehouse NOTPM >= 0.95 x single; CPU ratio: the server CPU"
		print "  per New-Order, warehouse / single)" }'
fi

# backend_cpu: "DATABASE TICKS" per bench database, the user + system
# clock ticks of its oltpmark-run backends so far (/proc/PID/stat, the
# fields after the command's closing parenthesis), and "now SECONDS".
backend_cpu() {
	local db pid stat rest
	local -a f
	local -A ticks=([bench_single]=0 [bench_warehouse]=0)
	while IFS='|' read -r db pid; do
		stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
		rest=${stat##*) }
		read -r -a f <<<"$rest"
		# utime and stime are fields 14 and 15, 12 and 13 after the ')'
		ticks[$db]=$((ticks[$db] + f[11] + f[12]))
	done < <(psql -XAtq -d postgres -c "SELECT datname, pid
		FROM pg_stat_activity WHERE backend_type = 'client backend'
		 AND application_name = 'oltpmark-run'
		 AND datname IN ('bench_single', 'bench_warehouse')")
	echo "bench_single ${ticks[bench_single]}"
	echo "bench_warehouse ${ticks[bench_warehouse]}"
	echo "now $EPOCHREALTIME"
}

# Paired: both databases at once (see the top of this file). Besides
# the NOTPMs, each database's backends' CPU per New-Order over the same
# seconds: what a transaction costs each layout, with the host's noise
# on both alike and without the pairing's compression (docs/layout.md).
((PAIRED > 0)) || exit 0
pair=() pair_cpu=()
tck=$(getconf CLK_TCK)
printf '  paired %9s %10s %8s %9s %9s %8s\n' single warehouse ratio \
	s_cpu_ms w_cpu_ms ratio
for ((r = 1; r <= PAIRED; r++)); do
	run single $((100 + r)) -paired >"$dir/pair-s" &
	ps=$!
	run warehouse $((100 + r)) -paired >"$dir/pair-w" &
	pw=$!
	# inside the measured interval: after the 10-s ramp-up, to 2 s
	# before its end
	sleep 12
	backend_cpu >"$dir/cpu-start"
	sleep $((RUN_S - 4))
	backend_cpu >"$dir/cpu-end"
	wait "$ps" || exit 1
	wait "$pw" || exit 1
	read -r s _ <"$dir/pair-s"
	read -r w _ <"$dir/pair-w"
	read -r sc wc < <(awk -v tck="$tck" -v s="$s" -v w="$w" '
		FNR == NR { a[$1] = $2; next }
		{ b[$1] = $2 }
		END {
			t = b["now"] - a["now"]
			cs = (b["bench_single"] - a["bench_single"]) / tck
			cw = (b["bench_warehouse"] - a["bench_warehouse"]) / tck
			printf "%.4f %.4f\n", 1000 * cs / (s / 60 * t),
			       1000 * cw / (w / 60 * t) }' "$dir/cpu-start" "$dir/cpu-end")
	pair+=("$(awk -v s="$s" -v w="$w" 'BEGIN { print w / s }')")
	pair_cpu+=("$(awk -v s="$sc" -v w="$wc" 'BEGIN { print s / w }')")
	awk -v r="$r" -v s="$s" -v w="$w" -v sc="$sc" -v wc="$wc" \
		'BEGIN { printf "  %-6s %10.1f %10.1f %8.3f %9.3f %9.3f %8.3f\n",
			 r, s, w, w / s, sc, wc, wc / sc }'
done
# geo LABEL: the median, geometric mean and sd of the logs of stdin
geo() {
	sort -g | awk -v label="$1" '
		{ v[NR] = $1; l = log($1); s += l; ss += l * l }
		END {
			n = NR; m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			mean = s / n; sd = n > 1 ? sqrt((ss - n * mean * mean) / (n - 1)) : 0
			printf "  %s: median %.3f, geometric mean %.3f (sd of ln %.3f over %d)\n",
			       label, m, exp(mean), sd, n }'
}
printf '%s\n' "${pair[@]}" | geo "paired NOTPM, warehouse / single"
printf '%s\n' "${pair_cpu[@]}" | geo "paired CPU per New-Order, single / warehouse"
echo "  (target: warehouse >= 0.95 x single; a CPU-bound run alone makes NOTPM"
echo "  in inverse proportion to the CPU per New-Order)"
