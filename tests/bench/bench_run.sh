#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_run.sh - the cost of measuring: oltpmark's own CPU per transaction
# and as a share of the server's CPU, in both transaction modes, with W
# warehouses, C connections and no think time against a throwaway server
# on this machine. The reference measured in the same run is pgbench's
# select-only script (one round trip per transaction, like procedure mode)
# on the same server with the same number of clients, once with a thread
# per connection (oltpmark's model) and once with one thread for all: its
# client CPU per transaction is what a libpq round trip costs here,
# whatever the machine's load; and pgbench calling the same five
# functions with the mix's weights, the floor for a client that sends one
# transaction per round trip. Prints figures, not pass/fail.
#
# Environment: BENCH_RUN_W (default 10), BENCH_RUN_C (default 4),
# BENCH_RUN_S (measured seconds, default 30), OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
W=${BENCH_RUN_W:-10}
C=${BENCH_RUN_C:-4}
S=${BENCH_RUN_S:-30}

skip() {
	echo "bench_run: skipped: $*"
	exit 0
}
[[ -x $OLTPMARK ]] || skip "$OLTPMARK not built (run make)"
command -v pgbench >/dev/null || skip "pgbench not installed"
command -v python3 >/dev/null || skip "python3 not installed (reads summary.json)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/om-bench-run.XXXXXX")
chmod 755 "$dir"
cleanup() {
	"$top/run/pg" stop "$dir/pg" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
"$top/run/pg" init "$dir/pg" >/dev/null
"$top/run/pg" start "$dir/pg" -- -c shared_buffers=2GB >/dev/null
conninfo=$("$top/run/pg" conninfo "$dir/pg")
pm=$(head -n 1 "$dir/pg/data/postmaster.pid")

echo "loading W=$W ..."
"$OLTPMARK" load -w "$W" --seed 1 --conninfo "$conninfo" >/dev/null 2>&1
psql "$conninfo" -XAtqc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null
psql "$conninfo" -XAtqc "SELECT sum(pg_prewarm(c.oid::regclass)) FROM pg_class c
	JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')" >/dev/null

printf '%-12s %10s %14s %14s %12s\n' mode NOTPM "client us/txn" "server us/txn" client/server
for mode in procedure sql; do
	out=$dir/run-$mode
	"$OLTPMARK" run -w "$W" -c "$C" -d "$S" --ramp-up 5 --keying-think none \
		--tx-mode "$mode" --progress 1000 --conninfo "$conninfo" \
		--server-pid "$pm" --out "$out" >/dev/null 2>&1 ||
		echo "bench_run: the $mode run failed (see $out)"
	python3 - "$out/summary.json" "$mode" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s.get("cost", {})
def g(k):
    v = c.get(k)
    return float("nan") if v is None else v
cl, sv = g("client_cpu_s"), g("server_cpu_s")
print("%-12s %10.0f %14.1f %14.1f %12.4f" % (sys.argv[2], s["notpm"],
      g("client_us_per_txn"), g("server_us_per_txn"), cl / sv if sv else float("nan")))
PY
done

# pgbench -S: client CPU per round trip of a plain libpq client.
pgbench -i -q -s 1 "$conninfo" >/dev/null 2>&1
# bash's time keyword: user and system CPU of the command, no GNU time needed
TIMEFORMAT='%U %S'
for threads in "$C" 1; do
	pg_out=$dir/pgbench-$threads.txt
	{ time pgbench -n -S -M prepared -c "$C" -j "$threads" -T "$S" \
		"$conninfo" >"$pg_out" 2>&1; } 2>"$dir/pgbench.time" || true
	tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$pg_out" | head -n 1)
	if [[ -n $tps ]]; then
		read -r u sy <"$dir/pgbench.time"
		awk -v u="$u" -v s="$sy" -v tps="$tps" -v t="$S" -v j="$threads" 'BEGIN {
			printf "%-12s %10s %14.1f %14s %12s   (select-only, %.0f tps)\n",
				"pgbench -j" j, "-", (u + s) * 1e6 / (tps * t), "-", "-", tps }'
	else
		echo "pgbench -j $threads: no figure; its output:"
		cat "$pg_out"
	fi
done
# pgbench calling the same five functions, one round trip each, with the
# mix's weights: what a plain libpq client costs here when the server
# works as long per transaction as ours does. This is the floor for any
# client that sends one transaction per round trip (procedure mode).
items=() supply=() qty=()
for i in 1 2 3 4 5 6 7 8 9 10; do
	items+=(":i$i") supply+=(":w") qty+=(5)
done
join() {
	local IFS=,
	echo "$*"
}
{
	echo "\\set w random(1, $W)"
	echo '\set d random(1, 10)'
	echo '\set c random(1, 3000)'
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "\\set i$i random(1, 100000)"
	done
	echo "SELECT count(*) FROM new_order(:w, :d, :c, ARRAY[$(join "${items[@]}")]::int[]," \
		"ARRAY[$(join "${supply[@]}")]::int[], ARRAY[$(join "${qty[@]}")]::int[]);"
} >"$dir/no.sql"
printf '%s\n' "\\set w random(1, $W)" '\set d random(1, 10)' \
	'\set c random(1, 3000)' \
	'SELECT count(*) FROM payment(:w, :d, :w, :d, :c, NULL, 12.5);' \
	>"$dir/pay.sql"
printf '%s\n' "\\set w random(1, $W)" '\set d random(1, 10)' \
	'\set c random(1, 3000)' \
	'SELECT count(*) FROM order_status(:w, :d, :c, NULL);' >"$dir/os.sql"
printf '%s\n' "\\set w random(1, $W)" '\set k random(1, 10)' \
	'SELECT count(*) FROM delivery(:w, :k);' >"$dir/dl.sql"
printf '%s\n' "\\set w random(1, $W)" '\set d random(1, 10)' \
	'\set t random(10, 20)' 'SELECT stock_level(:w, :d, :t);' >"$dir/sl.sql"

# CPU ticks of the server so far: the postmaster and its live children,
# plus the children it has reaped (cutime, cstime)
server_ticks() {
	local pid total=0 f line
	local -a st

	for f in /proc/[0-9]*/stat; do
		line=$(<"$f") 2>/dev/null || continue
		# the fields after "(comm) ", which may hold blanks: state, ppid,
		# ..., utime st[11], stime st[12], cutime st[13], cstime st[14]
		read -r -a st <<<"${line##*) }"
		pid=${f#/proc/}
		pid=${pid%/stat}
		if [[ $pid == "$pm" ]]; then
			((total += st[11] + st[12] + st[13] + st[14]))
		elif [[ ${st[1]} == "$pm" ]]; then
			((total += st[11] + st[12]))
		fi
	done
	echo "$total"
}
tck=$(getconf CLK_TCK)
for threads in "$C" 1; do
	pg_out=$dir/pgbench-fn-$threads.txt
	s0=$(server_ticks)
	{ time pgbench -n -M prepared -c "$C" -j "$threads" -T "$S" \
		-f "$dir/no.sql@45" -f "$dir/pay.sql@43" -f "$dir/os.sql@4" \
		-f "$dir/dl.sql@4" -f "$dir/sl.sql@4" \
		"$conninfo" >"$pg_out" 2>&1; } 2>"$dir/pgbench.time" || true
	sleep 0.5 # the backends exit and are reaped
	s1=$(server_ticks)
	tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$pg_out" | head -n 1)
	if [[ -n $tps ]]; then
		read -r u sy <"$dir/pgbench.time"
		awk -v u="$u" -v s="$sy" -v tps="$tps" -v t="$S" -v j="$threads" \
			-v sv="$((s1 - s0))" -v tck="$tck" 'BEGIN {
			n = tps * t; cl = (u + s) * 1e6 / n; se = sv / tck * 1e6 / n
			printf "%-12s %10.0f %14.1f %14.1f %12.4f   (same functions, %.0f tps)\n",
				"pgbench -j" j, tps * 60 * 0.45, cl, se, cl / se, tps }'
	else
		echo "pgbench -j $threads (same functions): no figure; its output:"
		cat "$pg_out"
	fi
done
echo "targets: procedure <= 20 us and <= 0.02 of the server; sql <= 80 us"
