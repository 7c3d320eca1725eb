#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/bench/kcost.sh STEP...: the kernel-cost hook's measurements written in
# docs/hooks.md ("What it measures"), so that they can be repeated on
# another machine or kernel. W=10 (KC_W), keying and think time none (the
# default of run/oltpmark-run), the hook alone (--hooks kernel-cost).
# Steps, run in the order given:
#   agree     the CPU checks, cached and non-cached, procedure and sql
#             mode (KC_MODES): one run each (label agree, agree-sql);
#             prints both checks (statements and the backends'
#             schedstat CPU against the terminals' backends) and the
#             backend CPU per committed transaction of each type
#   memhalf   a known change: non-cached with run/oltpmark-run's memory
#             limit (label mem) and with half of it (label memhalf),
#             KC_RUNS runs each, interleaved; compare marks bytes read
#             per type
#   evidence  the evidence's own cost: a block run, cached, switching
#             pg_stat_kcache.track to none (label kc, variant off)
#   perf      where the CPU no statement has goes: perf record of the
#             terminals' backends during a cached run (needs perf, root)
# Environment: KC_RESULTS (default results/kcost), KC_WORK (the clusters,
# loaded once and reused; default KC_RESULTS/.clusters), KC_DURATION (s
# measured per run, default 60), KC_RAMP (ramp-up s, default 15), KC_RUNS
# (default 3), KC_W (warehouses, default 10), KC_BLOCK_DURATION (default
# 300), KC_MODES (agree's transaction modes, default "procedure sql"),
# KC_CONFIGS (agree's configurations, default cached,noncached). Each
# step's results are in KC_RESULTS/STEP; `oltpmark compare` is run over
# each. run/oltpmark-run exits 1 when a run is not scored (not in steady
# state on a busy host): said, and the steps go on.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
results=${KC_RESULTS:-results/kcost}
work=${KC_WORK:-$results/.clusters}
dur=${KC_DURATION:-60}
ramp=${KC_RAMP:-15}
runs=${KC_RUNS:-3}
block_dur=${KC_BLOCK_DURATION:-300}
warehouses=${KC_W:-10}
run=(orun -w "$warehouses" --ramp-up "$ramp" --work "$work")

# orun OPTIONS...: run/oltpmark-run; its failure is said, not fatal.
orun() {
	"$top/run/oltpmark-run" "$@" || echo "tests/bench/kcost.sh: run/oltpmark-run exited $?" >&2
}

usage() {
	# this file's first comment, from its fourth line
	awk 'NR < 4 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"
}

# load: the machine's load average now, for the notes.
load() {
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
}

step_agree() {
	local mode label f

	for mode in ${KC_MODES:-procedure sql}; do
		label=agree
		[[ $mode == procedure ]] || label=agree-$mode
		load
		"${run[@]}" --results "$results/agree" --label "$label" \
			--runs 1 -d "$dur" --configs "${KC_CONFIGS:-cached,noncached}" \
			--hooks kernel-cost --tx-mode "$mode"
	done
	load
	for f in "$results"/agree/*/*/run-*/summary.txt; do
		echo "== $f"
		# the per-type table's type, commits and backend CPU columns,
		# then both checks
		echo "  type commits backend_cpu_ms user_cpu_ms system_cpu_ms runq_wait_ms"
		sed -n '/^Kernel cost per committed transaction/,/^$/p' "$f" |
			grep -E '^  (new_order|payment|order_status|delivery|stock_level) ' |
			awk '{ print "  " $1, $2, $4, $5, $6, $7 }'
		grep -h "CPU check\|Server processes\|Backend CPU" "$f"
	done
}

step_memhalf() {
	local limit cg i

	# KC_RUNS pairs, interleaved: mem, memhalf, mem, ... so that a drift
	# of the shared host falls on both labels. The halved limit is read
	# from the first mem run's cgroup (run/oltpmark-run's own choice:
	# shared buffers + 128 MB + a quarter of the database). Run again into
	# the same directory, the step adds pairs (run-N numbers go on).
	cg=$results/memhalf/mem/noncached/run-1/sys/noncached-cgroup.txt
	for ((i = 0; i < runs; i++)); do
		load
		"${run[@]}" --results "$results/memhalf" --label mem --runs 1 \
			-d "$dur" --configs noncached --hooks kernel-cost
		limit=$(awk '/limit_in_bytes:|^memory.max:/ { print $2; exit }' "$cg")
		[[ $limit =~ ^[0-9]+$ ]] || {
			echo "tests/bench/kcost.sh: no memory limit in $cg" >&2
			exit 1
		}
		"${run[@]}" --results "$results/memhalf" --label memhalf --runs 1 \
			-d "$dur" --configs noncached --hooks kernel-cost \
			--noncached-memory-limit "$((limit / 2))"
	done
	load
	"$top/oltpmark" compare --baseline mem \
		--allow-differ config.noncached_memory_limit_bytes "$results/memhalf" || true
	"$top/oltpmark" compare --baseline mem --format html --out "$results/memhalf" \
		--allow-differ config.noncached_memory_limit_bytes "$results/memhalf" || true
}

step_evidence() {
	load
	"${run[@]}" --results "$results/evidence" --label kc --runs 1 \
		--configs cached -d "$block_dur" --design blocks --block 20 \
		--settle 2 --no-baseline --hooks none \
		--variant "off=$top/run/variants/pg-setting pg_stat_kcache.track none"
	load
}

# perf_split PERF_DATA: the share of the profiled samples by where the
# backend was (the innermost of these in the call chain wins, as perf
# script prints it: the executor, which pg_stat_kcache measures; commit;
# bind; parse; reading and writing the client socket; the rest).
perf_split() {
	perf script -i "$1" -F comm,ip,sym 2>/dev/null | awk '
		function flush() {
			if (n == 0) return
			total++
			cat[where == "" ? "other" : where]++
			n = 0; where = ""
		}
		/^[^ \t]/ { flush(); next }
		NF == 0 { flush(); next }
		{
			n++
			if (where != "") next
			sym = $2
			if (sym ~ /^(standard_)?Executor(Start|Run|Finish|End)$|^ExecutorRun$|^pgss_Executor|^pgsk_Executor/)
				where = "executor (statements)"
			else if (sym ~ /^(CommitTransactionCommand|finish_xact_command|CommitTransaction|RecordTransactionCommit|XLogFlush)$/)
				where = "commit"
			else if (sym ~ /^exec_bind_message$/)
				where = "bind"
			else if (sym ~ /^exec_parse_message$|^pg_parse_query$/)
				where = "parse"
			else if (sym ~ /^(secure_read|pq_recvbuf|pq_getbyte|pq_getmessage|WaitEventSetWait|ReadCommand|SocketBackend)$/)
				where = "reading the client"
			else if (sym ~ /^(secure_write|internal_flush|pq_flush|socket_flush|ReadyForQuery|EndCommand)$/)
				where = "writing the client"
			else if (sym ~ /^(PortalDrop|PortalCleanup|AtCommit_Portals|PreCommit_Portals)$/)
				where = "portal cleanup"
		}
		END {
			flush()
			printf "%6d samples          all\n", total
			for (c in cat)
				printf "%6d samples %5.1f %%  %s\n", cat[c], 100 * cat[c] / total, c
		}' | sort -n -r
}

# perf: where the terminals' backends spend the CPU that no statement
# has: a call-graph profile (perf record, DWARF unwinding, 20 s, 199 Hz)
# of every client backend of the cached cluster, from 30 s into a cached
# run (after its 15 s ramp-up), split by perf_split.
step_perf() {
	local pm pids="" deadline

	load
	"${run[@]}" --results "$results/perf" --label perf --runs 1 \
		-d "$dur" --configs cached --hooks kernel-cost &
	# the terminals' backends: the postmaster's children whose title
	# names the run's database
	deadline=$((SECONDS + 600))
	while [[ -z $pids ]] && ((SECONDS < deadline)); do
		sleep 5
		pm=$(head -n 1 "$work/cached/data/postmaster.pid" 2>/dev/null) || continue
		pids=$(ps -o pid=,args= --ppid "$pm" 2>/dev/null |
			awk '/oltpmark_run .*(local|idle|SELECT)/ { printf "%s%s", s, $1; s = "," }')
	done
	sleep 30
	pids=$(ps -o pid=,args= --ppid "$pm" | awk '/oltpmark_run/ { printf "%s%s", s, $1; s = "," }')
	echo "perf on backends $pids"
	perf record -q -F 199 --call-graph dwarf,8192 -p "$pids" \
		-o "$results/perf/perf.data" -- sleep 20 || true
	wait
	perf_split "$results/perf/perf.data" | tee "$results/perf/split.txt"
	grep -h "CPU check" "$results"/perf/perf/cached/run-*/summary.txt
	load
}

(($# > 0)) || {
	usage >&2
	exit 2
}
for step in "$@"; do
	case $step in
	agree | memhalf | evidence | perf) "step_$step" ;;
	-h | --help) usage ;;
	*)
		echo "tests/bench/kcost.sh: unknown step '$step' (agree, memhalf, evidence, perf)" >&2
		exit 2
		;;
	esac
done
