#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_sut.sh - what putting the database on a host of its own costs the
# measurement (issue 23's target, docs/experiments.md "The system under
# test on its own host"): NOTPM and the terminals' CPU per transaction
# (client µs/txn) of run/oltpmark-run on this machine, against the same
# with --sut through a throwaway sshd of this script on 127.0.0.1
# standing in for a second host (the terminals then reach the server over
# TCP, the cluster and hooks are driven over one ssh control
# connection). Cached configuration, one short run per invocation, in
# interleaved rounds: local,sut then sut,local, ... (with more modes,
# each round's order is the last one's rotated by one) so that the host's
# moods fall on every mode alike; the run seed is the same in all. Each
# run's 1-minute load average (before it) is printed with its figures,
# then the mean, standard deviation and range of each mode and the ratio
# MODE / local of the means and of each round. Prints figures, not
# pass/fail.
#
# Modes (BENCH_SUT_MODES, default "local sut"):
#   local  run/oltpmark-run as it is: the terminals reach the private
#          cluster over its unix socket;
#   sut    --sut through the throwaway sshd, the terminals over TCP;
#   tcp    the control for sut's transport: local, but the terminals
#          reach the private cluster over TCP on 127.0.0.1 with a
#          password, as --sut's do (--driver-listen 127.0.0.1), no ssh.
# sut against tcp is what the host apart costs beyond the transport;
# tcp against local is what TCP costs.
#
# Needs root (sshd's privilege separation; the server runs as postgres),
# /usr/sbin/sshd, ssh, ssh-keygen and python3; skipped otherwise.
# Environment: BENCH_SUT_PAIRS (rounds, default 3), BENCH_SUT_MODES,
# BENCH_SUT_W (warehouses, default 10), BENCH_SUT_S (measured seconds,
# default 60), BENCH_SUT_RAMP (ramp-up seconds, default 10),
# BENCH_SUT_HOOKS (default none), BENCH_SUT_KEEP=1 (keep the results:
# their directory is printed), OLTPMARK (default ./oltpmark).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/test-lib.sh
source "$top/tests/test-lib.sh"
OLTPMARK=${OLTPMARK:-$top/oltpmark}
export OLTPMARK
PAIRS=${BENCH_SUT_PAIRS:-3}
W=${BENCH_SUT_W:-10}
S=${BENCH_SUT_S:-60}
RAMP=${BENCH_SUT_RAMP:-10}
HOOKS=${BENCH_SUT_HOOKS:-none}
read -r -a MODES <<<"${BENCH_SUT_MODES:-local sut}"
for m in "${MODES[@]}"; do
	[[ $m == local || $m == sut || $m == tcp ]] || {
		echo "bench_sut: BENCH_SUT_MODES: unknown mode $m (local, sut, tcp)" >&2
		exit 2
	}
done
[[ " ${MODES[*]} " == *" local "* ]] || {
	echo "bench_sut: BENCH_SUT_MODES must hold local (the ratios are against it)" >&2
	exit 2
}

skip() {
	echo "bench_sut: skipped: $*"
	exit 0
}
[[ -x $OLTPMARK ]] || skip "$OLTPMARK not built (run make)"
why=$(sshd_unavailable)
[[ -z $why ]] || skip "$why"
command -v python3 >/dev/null || skip "python3 not installed (reads summary.json)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/om-bench-sut.XXXXXX")
chmod 755 "$dir"
ssh_dir=$dir/ssh
tree=$dir/sut-tree
sshd_pid=""
cleanup() {
	local c
	for c in "$tree"/var/.clusters/*/ "$dir"/local/.clusters/*/ "$dir"/tcp/.clusters/*/; do
		[[ -e $c/.oltpmark-cluster ]] && "$top/run/pg" stop "$c" >/dev/null 2>&1
	done
	[[ -z $sshd_pid ]] || kill "$sshd_pid" 2>/dev/null || true
	if [[ ${BENCH_SUT_KEEP:-0} == 1 ]]; then
		echo "bench_sut: results kept in $dir"
	else
		rm -rf "$dir"
	fi
}
trap cleanup EXIT

# The stand-in for the second host: a throwaway sshd on a free port of
# 127.0.0.1 with keys made here (tests/test-lib.sh, as the bats files'),
# given to run/oltpmark-run by OLTPMARK_SSH_OPTS.
mkdir -m 700 "$dir/tmp"
sshd_setup "$ssh_dir" sut
sshd_start || { echo "bench_sut: the throwaway sshd did not start (see $ssh_dir/sshd.log)" >&2; exit 1; }
sshd_pid=$(<"$ssh_dir/sshd.pid")
export OLTPMARK_SSH_OPTS="-F $ssh_dir/ssh_config"
# The SUT's tree: run/ and the binary, copied.
mkdir -p "$tree"
cp -a "$top/run" "$OLTPMARK" "$tree/"
chmod -R go-w "$tree"

# one MODE PAIR: one invocation of run/oltpmark-run, label pPAIR; prints
# "MODE PAIR LOAD1 NOTPM CLIENT_US".
one() {
	local mode=$1 pair=$2 load log summary
	local -a sut=()
	case $mode in
	sut) sut=(--sut sut --sut-dir "$tree" --sut-listen 127.0.0.1) ;;
	tcp) sut=(--driver-listen 127.0.0.1) ;;
	esac
	log=$dir/$mode-p$pair.log
	read -r load _ </proc/loadavg
	if ! TMPDIR=$dir/tmp "$top/run/oltpmark-run" "${sut[@]}" --label "p$pair" \
		--configs cached --runs 1 -w "$W" -d "$S" --ramp-up "$RAMP" \
		--hooks "$HOOKS" --results "$dir/$mode" >"$log" 2>&1; then
		echo "bench_sut: the $mode run of pair $pair failed (see $log)" >&2
		tail -n 5 "$log" >&2
		return 1
	fi
	summary=$dir/$mode/p$pair/cached/run-1/summary.json
	python3 - "$summary" "$mode" "$pair" "$load" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = (s.get("cost") or {}).get("client_us_per_txn")
print(sys.argv[2], sys.argv[3], sys.argv[4], "%.0f" % s["notpm"],
      "nan" if c is None else "%.1f" % c)
PY
}

echo "W=$W, cached, ${RAMP} s ramp-up + ${S} s, hooks $HOOKS, $PAIRS rounds of ${MODES[*]} (loading first: not timed)"
printf '%-6s %4s %6s %10s %14s\n' mode pair load1 NOTPM "client us/txn"
rows=$dir/rows.txt
: >"$rows"
order=("${MODES[@]}")
for ((p = 1; p <= PAIRS; p++)); do
	for mode in "${order[@]}"; do
		one "$mode" "$p" | tee -a "$rows" |
			awk '{ printf "%-6s %4s %6s %10s %14s\n", $1, $2, $3, $4, $5 }'
	done
	# the next round: this one's order rotated by one (two modes: reversed)
	order=("${order[@]:1}" "${order[0]}")
done

python3 - "$rows" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for mode, pair, load, notpm, cus in rows:
    by.setdefault(mode, {})[pair] = (float(load), float(notpm), float(cus))
modes = [m for m in ("local", "tcp", "sut") if m in by]
def show(name, idx, fmt):
    for mode in modes:
        v = [x[idx] for x in by[mode].values()]
        sd = st.stdev(v) if len(v) > 1 else float("nan")
        print(("%-14s %-5s mean " + fmt + "  sd " + fmt + " (%.1f %%)  range " + fmt + ".." + fmt)
              % (name, mode, st.mean(v), sd, 100 * sd / st.mean(v), min(v), max(v)))
    # each mode against local, and sut against tcp (the host apart
    # beyond the transport)
    for a, b in (("tcp", "local"), ("sut", "local"), ("sut", "tcp")):
        if a not in by or b not in by:
            continue
        x, y = by[a], by[b]
        pairs = sorted(set(x) & set(y), key=int)
        if not pairs:
            continue
        r = [x[p][idx] / y[p][idx] for p in pairs]
        print("%-14s %s/%s: ratio of means %.3f; per round %s"
              % (name, a, b, st.mean(v[idx] for v in x.values()) /
                 st.mean(v[idx] for v in y.values()),
                 " ".join("%.3f" % v for v in r)))
show("NOTPM", 1, "%.0f")
show("client us/txn", 2, "%.1f")
show("load1", 0, "%.2f")
PY
