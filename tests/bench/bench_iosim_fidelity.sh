#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_iosim_fidelity.sh - issue 12's fidelity figures: how close an
# iosim replay comes to the PostgreSQL run it was calibrated on, in the
# non-cached configuration, as `oltpmark report` compares them
# (docs/iosim.md, "Fidelity"). One throwaway server with small shared
# buffers (16 MB) and a 30 s checkpoint_timeout, loaded with W
# warehouses; `oltpmark calibrate` (each type alone, then the mix); then,
# with the server stopped, `oltpmark iosim-prepare` and a buffered replay
# with the same warehouses, connections and pacing, the diskstats hook
# around it; `oltpmark report` prints the calibration's and the replay's
# I/O per committed transaction side by side, per device, and the WAL
# bytes per commit, with the ratios beyond ±25 % and ±10 % marked.
#
# Non-cached as run/oltpmark-run makes it: the server in a memory cgroup
# of shared buffers + 128 MB + a quarter of the database, and the replay
# in one of the same limit. Here the server is put in its cgroup before
# the load, and the files are prepared inside the replay's, so that the
# page cache they fill is charged to the cgroup and held to its limit:
# the page cache is never dropped for the whole machine (other work on
# it keeps its own). Without root or a memory cgroup the limits cannot
# be set: the figures are then those of an unlimited page cache, and
# the output says so. Prints figures, not pass/fail.
#
# Environment: BENCH_FIDELITY_W (default 10), BENCH_FIDELITY_S (seconds
# of the mix and of the replay, default 60), BENCH_FIDELITY_PHASE
# (seconds of each type alone, default 10), BENCH_FIDELITY_C
# (connections, default 4), OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
W=${BENCH_FIDELITY_W:-10}
S=${BENCH_FIDELITY_S:-60}
PHASE=${BENCH_FIDELITY_PHASE:-10}
C=${BENCH_FIDELITY_C:-4}

skip() {
	echo "bench_iosim_fidelity: skipped: $*"
	exit 0
}
[[ -x $OLTPMARK ]] || skip "$OLTPMARK not built (run make)"
[[ -x $top/run/pg ]] || skip "run/pg not found"
command -v psql >/dev/null || skip "psql not installed (Debian: postgresql-client)"

# shellcheck source=run/lib.sh
. "$top/run/lib.sh"
# shellcheck disable=SC2034 # the library's messages use it
OM_PROG=bench_iosim_fidelity

# On a disk's file system, so that what is not cached is read from it.
dir=$(mktemp -d /var/tmp/oltpmark-bench-fidelity.XXXXXX)
chmod 755 "$dir"
cg_server="" cg_replay=""
cleanup() {
	"$top/run/pg" stop "$dir/pg" >/dev/null 2>&1 || true
	[[ -z $cg_server ]] || om_cgroup_destroy "$cg_server"
	[[ -z $cg_replay ]] || om_cgroup_destroy "$cg_replay"
	rm -rf -- "$dir"
}
trap cleanup EXIT

# step MSG: a progress line with the time since the start.
start=$(date +%s)
step() {
	echo "bench_iosim_fidelity: $(($(date +%s) - start)) s: $*" >&2
}

# set_limit "VERSION DIR" BYTES: lower (or raise) a cgroup's limit; the
# kernel reclaims down to it, which may take a few tries.
set_limit() {
	local file=${1#* }/memory.limit_in_bytes i

	[[ ${1%% *} == v1 ]] || file=${1#* }/memory.max
	for ((i = 0; i < 10; i++)); do
		echo "$2" >"$file" 2>/dev/null && return 0
		sync
		sleep 1
	done
	return 1
}

# in_cgroup "VERSION DIR" CMD...: run CMD as a member of the cgroup (or
# as it is, with no cgroup).
in_cgroup() {
	if [[ -z $1 ]]; then
		shift
		"$@"
		return
	fi
	local procs=${1#* }/cgroup.procs

	shift
	(echo "$BASHPID" >"$procs" && exec "$@")
}

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$(($(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1048576)) GiB," \
	"/var/tmp on $(om_block_device "$dir" 2>/dev/null || echo '?')"

"$top/run/pg" init "$dir/pg" >/dev/null 2>&1 ||
	{ echo "bench_iosim_fidelity: run/pg init failed" >&2; exit 1; }
"$top/run/pg" start "$dir/pg" -- -c shared_buffers=16MB \
	-c checkpoint_timeout=30s -c max_wal_size=1GB >/dev/null
conninfo=$("$top/run/pg" conninfo "$dir/pg")
read -r pm <"$dir/pg/data/postmaster.pid"
# a generous limit for the load; the measured one is set after it
config=noncached
if cg_server=$(om_cgroup_create "oltpmark-bench-fid-$$-server" $((4 << 30))) &&
	om_cgroup_add_server "$cg_server" "$pm"; then
	:
else
	[[ -z $cg_server ]] || om_cgroup_destroy "$cg_server"
	cg_server=""
	config=cached
	echo "NOTE: no memory cgroup here (not root, or no memory controller):" \
		"the page cache is not limited, so these are the figures of the" \
		"cached configuration, not the non-cached one"
fi

step "loading W = $W"
"$OLTPMARK" load -w "$W" -j 2 --seed 1 --conninfo "$conninfo" >/dev/null 2>&1
om_psql "$conninfo" "CHECKPOINT" >/dev/null
sync
db=$(om_psql "$conninfo" "SELECT pg_database_size(current_database())")
limit=$((16 * 1048576 + 128 * 1048576 + db / 4))
if [[ -n $cg_server ]] && ! set_limit "$cg_server" "$limit"; then
	echo "bench_iosim_fidelity: cannot lower the server's memory limit to $limit" >&2
	exit 1
fi

step "calibrating: ${PHASE} s per type, then the mix for $S s"
"$OLTPMARK" calibrate --conninfo "$conninfo" --profile "$dir/profile.json" \
	--out "$dir/calibration" --phase "$PHASE" -d "$S" --keying-think none \
	-c "$C" -w "$W" --config "$config" >"$dir/calibrate.log" 2>&1 ||
	{ cat "$dir/calibrate.log" >&2; exit 1; }
oom=""
[[ -z $cg_server ]] || oom=$(om_cgroup_oom_kills "$cg_server")
"$top/run/pg" stop "$dir/pg" >/dev/null

step "preparing the files and replaying for $S s"
if [[ -n $cg_server ]]; then
	cg_replay=$(om_cgroup_create "oltpmark-bench-fid-$$-replay" "$limit")
fi
t0=$(date +%s.%N)
in_cgroup "$cg_replay" "$OLTPMARK" iosim-prepare --profile "$dir/profile.json" \
	--data-dir "$dir/data" >/dev/null 2>&1
t1=$(date +%s.%N)
sync
mkdir -p "$dir/replay/sys"
"$top/run/hooks/diskstats" start "$dir/replay/sys"
in_cgroup "$cg_replay" "$OLTPMARK" run --driver iosim \
	--profile "$dir/profile.json" --data-dir "$dir/data" --io-mode buffered \
	-w "$W" -c "$C" -d "$S" --ramp-up 0 --keying-think none --seed 1 \
	--progress 0 --out "$dir/replay" >"$dir/replay.log" 2>&1 ||
	{ cat "$dir/replay.log" >&2; exit 1; }
"$top/run/hooks/diskstats" stop "$dir/replay/sys"
"$OLTPMARK" report --no-plots "$dir/replay" >/dev/null

echo "W = $W, $C connections, no think time, $config: calibration ${PHASE} s" \
	"per type and a $S s mix; replay $S s, buffered$([[ -z $cg_replay ]] ||
		echo ", in a memory cgroup of $((limit >> 20)) MiB as the server's")"
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "iosim-prepare: %.1f s\n", b - a }'
echo "server OOM kills: ${oom:-unknown}; database $((db >> 20)) MiB"
grep -E 'transactions in|committed' "$dir/calibrate.log" | sed 's/^oltpmark: //'
sed -n 's/^oltpmark: run: \(.*transactions.*\)/replay: \1/p' "$dir/replay.log" |
	sed "s|; results in .*||"
sed -n '/^Fidelity to the calibration/,$p' "$dir/replay/summary.txt"
