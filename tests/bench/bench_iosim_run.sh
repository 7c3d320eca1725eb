#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_iosim_run.sh - what an iosim configuration costs, without a
# database (docs/iosim.md, "The files" and "CPU cost"):
#
# 1. setup: `oltpmark iosim-prepare` of a W = 10 profile into a directory
#    that does not exist yet, on /var/tmp's file system (a disk's, when
#    it is one), wall seconds; then once more on the prepared directory.
#    Target (issue 12): under 20 s from nothing to a runnable
#    configuration.
# 2. CPU per transaction of the driver: a buffered replay whose files
#    are all in the page cache (read once before), and the null driver
#    with the same warehouses, connections, pacing and duration. bash's
#    `time` gives oltpmark's user and system CPU, each over every row of
#    mix.csv. The null run is the engine alone (terminals, inputs,
#    mix.csv); what the iosim run costs on top is the driver: its user
#    CPU is the driver's own work (page map, plan, dirty set, WAL and
#    checkpointer bookkeeping; target under 10 us), its system CPU the
#    kernel's I/O time (preads copied from the page cache, WAL writes
#    and fdatasync, the checkpointer's pwrites and fsyncs, the futexes
#    of group commit), shown beside it, not in the target. The device's
#    reads during the replay are printed: near 0 means it was cached.
#    The difference overstates the driver: at the replay's throughput
#    the engine's per-second work and the threads' waits (libc's mutex
#    and condition variable wrappers, counted as user time) fall on far
#    fewer transactions than at the null driver's. So, when perf can
#    record here, a second, 10 s replay under `perf record` shares the
#    user + system CPU per transaction out by its samples: the driver's
#    functions (drivers/iosim*.c, all named iosim_*), the rest of
#    oltpmark (the engine), libc and the other user-space libraries,
#    and the kernel. The driver's functions are what the target is for.
#
# Prints figures, not pass/fail. Environment: BENCH_IOSIM_PROFILE (W of
# the profile, default tests/fixtures/ioprofile-valid.json: W = 10, the
# relation sizes of a real W = 10 load, counts made up),
# BENCH_IOSIM_S (measured seconds per run, default 20), BENCH_IOSIM_C
# (connections, default 4), OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
PROFILE=${BENCH_IOSIM_PROFILE:-$top/tests/fixtures/ioprofile-valid.json}
S=${BENCH_IOSIM_S:-20}
C=${BENCH_IOSIM_C:-4}

skip() {
	echo "bench_iosim_run: skipped: $*"
	exit 0
}
[[ -x $OLTPMARK ]] || skip "$OLTPMARK not built (run make)"
command -v python3 >/dev/null || skip "python3 not installed (reads the JSON files)"
[[ -r $PROFILE ]] || skip "no profile $PROFILE"

# json FILE EXPR: the Python expression EXPR over the JSON document d.
json() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

W=$(json "$PROFILE" "d['warehouses']")
dir=$(mktemp -d /var/tmp/oltpmark-bench-iosim.XXXXXX)
cleanup() {
	rm -rf -- "$dir"
}
trap cleanup EXIT
# shellcheck source=run/lib.sh
. "$top/run/lib.sh"
# shellcheck disable=SC2034 # the library's messages use it
OM_PROG=bench_iosim_run
dev=$(om_block_device "$dir" 2>/dev/null || true)

# device_reads: reads completed on dev so far (0 when unknown).
device_reads() {
	if [[ -n $dev ]]; then
		awk -v d="$dev" '$3 == d { print $4 }' /proc/diskstats
	else
		echo 0
	fi
}

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
	"/var/tmp on ${dev:-an unknown device} ($(stat -fc %T /var/tmp))"

# 1. setup from nothing
t0=$(date +%s.%N)
"$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$dir/data" >/dev/null 2>&1 ||
	{ echo "bench_iosim_run: iosim-prepare failed" >&2; exit 1; }
t1=$(date +%s.%N)
"$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$dir/data" >/dev/null 2>&1
t2=$(date +%s.%N)
mib=$(du -sm "$dir/data" | cut -f1)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v w="$W" -v m="$mib" 'BEGIN {
	printf "setup: iosim-prepare W = %d, %d MiB from nothing %.1f s, again %.2f s (target < 20 s)\n",
		w, m, b - a, c - b }'

# 2. CPU per transaction: the cached replay and the null driver
cat "$dir"/data/* >/dev/null
TIMEFORMAT='%U %S'
pace=(-w "$W" -c "$C" --ramp-up 2 --keying-think none --progress 0)
common=(-d "$S" "${pace[@]}")
r0=$(device_reads)
{ time "$OLTPMARK" run --driver iosim --profile "$PROFILE" \
	--data-dir "$dir/data" --io-mode buffered "${common[@]}" \
	--out "$dir/iosim" >/dev/null 2>&1; } 2>"$dir/iosim.time" ||
	{ echo "bench_iosim_run: the iosim run failed" >&2; exit 1; }
r1=$(device_reads)
{ time "$OLTPMARK" run --driver null "${common[@]}" \
	--out "$dir/null" >/dev/null 2>&1; } 2>"$dir/null.time" ||
	{ echo "bench_iosim_run: the null run failed" >&2; exit 1; }
read -r iu is <"$dir/iosim.time"
read -r nu ns <"$dir/null.time"
in=$(json "$dir/iosim/run.json" "d['mix_rows']")
nn=$(json "$dir/null/run.json" "d['mix_rows']")
preads=$(json "$dir/iosim/run.json" "d['server_stats']['blks_read']")
awk -v iu="$iu" -v is="$is" -v in_="$in" -v nu="$nu" -v ns="$ns" \
	-v nn="$nn" -v s="$S" -v c="$C" -v w="$W" -v dr="$((r1 - r0))" \
	-v pr="$preads" 'BEGIN {
	a = iu * 1e6 / in_; b = is * 1e6 / in_; x = nu * 1e6 / nn; y = ns * 1e6 / nn
	printf "CPU per transaction, W = %d, %d connections, no think time, %d s:\n", w, c, s
	printf "  %-28s %10s %10s %12s\n", "", "user us", "system us", "transactions"
	printf "  %-28s %10.2f %10.2f %12d  (%.0f per s)\n", "iosim, buffered, cached", a, b, in_, in_ / s
	printf "  %-28s %10.2f %10.2f %12d  (%.0f per s)\n", "null driver (the engine)", x, y, nn, nn / s
	printf "  %-28s %10.2f %10.2f   driver: own work (target < 10 us), kernel I/O\n", "iosim - null", a - x, b - y
	printf "  device reads during the replay: %d for %d preads (cached when near 0)\n", dr, pr }'

# 3. where the replay's CPU goes, by perf's samples
if ! command -v perf >/dev/null 2>&1; then
	echo "  (perf not installed: no split of the CPU by function)"
	exit 0
fi
if ! perf record -q -F 499 -g -o "$dir/perf.data" -- "$OLTPMARK" run \
	--driver iosim --profile "$PROFILE" --data-dir "$dir/data" \
	--io-mode buffered -d 10 "${pace[@]}" --out "$dir/perf-run" \
	>/dev/null 2>"$dir/perf.err"; then
	echo "  (perf record failed here: $(head -n 1 "$dir/perf.err"))"
	exit 0
fi
perf report -i "$dir/perf.data" --no-children --sort dso,sym -g none \
	--stdio 2>/dev/null |
	awk -v per="$(awk -v u="$iu" -v s="$is" -v n="$in" 'BEGIN { print (u + s) * 1e6 / n }')" '
	$1 ~ /%$/ {
		pct = $1 + 0; dso = $2; sym = $4
		if (dso ~ /kernel/) kernel += pct
		else if (dso == "oltpmark" && sym ~ /^iosim_/) driver += pct
		else if (dso == "oltpmark") engine += pct
		else libs += pct
		all += pct
	}
	END {
		if (all <= 0) { print "  (perf recorded no sample)"; exit }
		printf "where the replay'"'"'s %.1f us per transaction go (perf record, 10 s replay, shares of its samples):\n", per
		printf "  %-52s %6.1f us (target < 10 us)\n", "the driver'"'"'s functions (iosim_*)", driver / all * per
		printf "  %-52s %6.1f us\n", "the engine (the rest of oltpmark)", engine / all * per
		printf "  %-52s %6.1f us\n", "libc and other libraries (locks, syscall stubs)", libs / all * per
		printf "  %-52s %6.1f us\n", "the kernel (I/O, page cache copies, futexes)", kernel / all * per
	}'
