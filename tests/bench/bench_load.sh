#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_load.sh - load throughput of `oltpmark load -w W` next to
# PostgreSQL's own `pgbench -i` on the same throwaway server in the same
# run: seconds until the database is ready (data, keys, statistics) and MB
# of final database (pg_database_size) per second. pgbench's scale is
# chosen so its database is about as big as ours (scale 1 is ~15.8 MB).
# Prints figures, not pass/fail (see docs/load.md for what they mean).
#
# Two server configurations: run/pg's defaults (wal_level=replica, the
# data is WAL-logged) and wal_level=minimal (COPY into a table truncated in
# the same transaction skips WAL). Both tools get the same server, after an
# untimed warm-up. "CPU s" is the CPU time of the tool and of the server
# backends it used (not of the WAL writer or checkpointer): it shows the
# work done, whatever else runs on the machine; MB/s depends on that too.
#
# Environment: BENCH_LOAD_W (default 10), BENCH_LOAD_RUNS (default 1),
# BENCH_LOAD_CONFIGS (default "replica minimal"), BENCH_LOAD_JOBS (oltpmark
# -j, default: its own), BENCH_PGBENCH_SCALE (default: from our size),
# OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
W=${BENCH_LOAD_W:-10}
RUNS=${BENCH_LOAD_RUNS:-1}
read -r -a CONFIGS <<<"${BENCH_LOAD_CONFIGS:-replica minimal}"
SCALE=${BENCH_PGBENCH_SCALE:-}
JOBS=()
if [[ -n ${BENCH_LOAD_JOBS:-} ]]; then
	JOBS=(-j "$BENCH_LOAD_JOBS")
fi

skip() {
	echo "bench_load: skipped: $*"
	exit 0
}

[[ -x $OLTPMARK ]] || skip "$OLTPMARK not built (run make)"
[[ -x $top/run/pg ]] || skip "run/pg not found"
bindir=$(pg_config --bindir 2>/dev/null || true)
for tool in psql pgbench createdb dropdb; do
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
	{ echo "bench_load: run/pg init failed" >&2; exit 1; }

now_ns() {
	date +%s%N
}

# sql DB SQL: one value from database DB.
sql() {
	psql -XAtq -v ON_ERROR_STOP=1 -d "$1" -c "$2"
}

# quiesce: write out what earlier loads left, so it is not timed.
quiesce() {
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

# timed OUT CMD...: run CMD with output to OUT; set SECONDS_TAKEN (wall)
# and CPU_TAKEN (CPU of CMD itself plus the backends it used).
timed() {
	local out=$1 t0 t1 s0 s1 ok=0 TIMEFORMAT='%U %S' user sys

	shift
	s0=$(server_cpu)
	t0=$(now_ns)
	{ time "$@" >"$out" 2>&1 || ok=$?; } 2>"$dir/time.out"
	t1=$(now_ns)
	sleep 0.5 # let the backends exit and be reaped
	s1=$(server_cpu)
	if ((ok != 0)); then
		cat "$out" >&2
		return 1
	fi
	read -r user sys <"$dir/time.out"
	SECONDS_TAKEN=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) / 1e9 }')
	CPU_TAKEN=$(awk -v u="$user" -v s="$sys" -v a="$s0" -v b="$s1" \
		'BEGIN { print u + s + b - a }')
}

# row CONFIG TOOL SECONDS CPU BYTES
row() {
	awk -v c="$1" -v t="$2" -v s="$3" -v cpu="$4" -v b="$5" 'BEGIN {
		printf "  %-8s %-34s %7.2f %7.2f %6.0f %7.1f %8.1f\n", c, t,
		       s, cpu, b / 1e6, b / 1e6 / s, b / 1e6 / cpu }'
}

ncpu=$(nproc)
read -r load1 _ </proc/loadavg
echo "load: W=$W, $ncpu CPUs, $(psql --version | head -n 1)," \
	"load average $load1 at start, $RUNS run(s)"
printf '  %-8s %-34s %7s %7s %6s %7s %8s\n' wal_level command seconds \
	"CPU s" MB MB/s "MB/CPU-s"

for config in "${CONFIGS[@]}"; do
	case $config in
	replica) settings=() ;;
	minimal) settings=(-c wal_level=minimal -c max_wal_senders=0) ;;
	*)
		echo "bench_load: unknown configuration '$config'" >&2
		exit 2
		;;
	esac
	"$top/run/pg" start "$dir" -- "${settings[@]}" >/dev/null
	conninfo=$("$top/run/pg" conninfo "$dir")
	export PGHOST=$dir/socket PGUSER=${conninfo##*user=}
	PGPORT=$(<"$dir/port")
	export PGPORT

	# Warm-up, not timed: both tools once, so that enough recycled WAL
	# segments are left behind for either (ours writes ~15 % more WAL,
	# its index builds included) and neither pays for creating
	# (zero-filling) them: with only pgbench's warm-up the first timed
	# oltpmark load created about 15 segments and lost ~10 %.
	createdb warmup
	"$OLTPMARK" load -w "$W" "${JOBS[@]}" \
		--conninfo "$conninfo dbname=warmup" >/dev/null 2>&1
	dropdb warmup
	createdb warmup
	pgbench -i -q -s "${SCALE:-$((W * 13 / 2))}" warmup >/dev/null 2>&1
	dropdb warmup

	for ((run = 1; run <= RUNS; run++)); do
		# oltpmark
		db=ol_${config}_$run
		createdb "$db"
		quiesce
		timed "$dir/load.out" "$OLTPMARK" load -w "$W" "${JOBS[@]}" \
			--conninfo "$conninfo dbname=$db"
		bytes=$(sql "$db" "SELECT pg_database_size(current_database())")
		jobs=$(sed -n 's/.*; \([0-9]*\) jobs.*/\1/p' "$dir/load.out")
		row "$config" "oltpmark load -w $W ($jobs jobs)" \
			"$SECONDS_TAKEN" "$CPU_TAKEN" "$bytes"
		if [[ -z $SCALE ]]; then
			SCALE=$(awk -v b="$bytes" 'BEGIN {
				s = int(b / 15.8e6 + 0.5); print s < 1 ? 1 : s }')
		fi
		dropdb "$db"

		# pgbench, same server, a database of about the same size
		db=pgb_${config}_$run
		createdb "$db"
		quiesce
		timed "$dir/pgbench.out" pgbench -i -q -s "$SCALE" "$db"
		bytes=$(sql "$db" "SELECT pg_database_size(current_database())")
		row "$config" "pgbench -i -q -s $SCALE" \
			"$SECONDS_TAKEN" "$CPU_TAKEN" "$bytes"
		dropdb "$db"
	done
	"$top/run/pg" stop "$dir" >/dev/null
done
