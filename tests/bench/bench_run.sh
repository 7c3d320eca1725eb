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
# whatever the machine's load. Prints figures, not pass/fail.
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
echo "targets: procedure <= 20 us and <= 0.02 of the server; sql <= 80 us"
