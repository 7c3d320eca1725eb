#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel-cost hook end to end: short runs (W=1, 1 s ramp-up, 5 s
# measured, the hook's window 4 s) with the hook around them, as run/oltpmark-run starts it,
# then report and compare; and the same server restarted without the
# extensions, where the hook is skipped with its reason and the report is
# otherwise what it was. Needs pg_stat_kcache in the server's library
# directory (run/install-deps demo), else skipped.

load helpers

setup_file() {
	export KC=$BATS_FILE_TMPDIR
	# (its load the same as pg_throwaway_start_w1's: a copy of make
	# check's template when there is one)
	if ! PG_THROWAWAY_FROM=${OLTPMARK_TEST_W1_FROM:-} pg_throwaway_start \
		>"$KC/pg-start.log" 2>&1; then
		echo failed >"$KC/pg-start.failed"
		return 0
	fi
	[[ -z ${OLTPMARK_TEST_W1_FROM:-} ]] ||
		return 0
	"$OLTPMARK" load -w 1 -j 2 --conninfo "$OLTPMARK_CONNINFO" \
		>"$KC/load.log" 2>&1 || echo failed >"$KC/load.failed"
}

teardown_file() {
	pg_throwaway_stop
}

setup() {
	[[ ! -e $KC/pg-start.failed ]] || {
		cat "$KC/pg-start.log"
		return 1
	}
	[[ ! -e $KC/load.failed ]] || {
		cat "$KC/load.log"
		return 1
	}
}

# kc_run DIR LABEL [RUN-OPTIONS...]: one run with the hook around it.
kc_run() {
	local dir=$1 label=$2 pid
	shift 2

	pid=$(head -n 1 "$PGTEST_DIR/data/postmaster.pid")
	mkdir -p "$dir/sys"
	OLTPMARK_RAMP_UP_S=1 OLTPMARK_DURATION_S=4 \
		"$REPO/run/hooks/kernel-cost" start "$dir/sys"
	# a second longer than the hook's window: on a busy host its stop
	# snapshot may come late, and must still find the terminals' backends
	"$OLTPMARK" run -w 1 -d 5 --ramp-up 1 "${PACE[@]}" \
		--label "$label" --conninfo "$OLTPMARK_CONNINFO" \
		--server-pid "$pid" --out "$dir" "$@" >"$dir.log" 2>&1
	OLTPMARK_RAMP_UP_S=1 OLTPMARK_DURATION_S=4 \
		"$REPO/run/hooks/kernel-cost" stop "$dir/sys"
	"$OLTPMARK" report --no-plots "$dir" >/dev/null
}

# Skip unless the server preloads pg_stat_kcache.
need_kcache() {
	[[ $(psql_value "SELECT current_setting('shared_preload_libraries')") == *pg_stat_kcache* ]] ||
		skip "pg_stat_kcache is not installed (run/install-deps demo)"
}

@test "report: a table per type with CPU for every type, in both modes, and the CPU check" {
	local mode dir type

	need_kcache
	for mode in procedure sql; do
		dir=$KC/runs/$mode
		kc_run "$dir" "$mode" --tx-mode "$mode"
		[[ ! -e $dir/sys/kernel-cost.skipped ]]
		grep -q '^Kernel cost per committed transaction (kernel-cost hook)$' "$dir/summary.txt"
		for type in new_order payment order_status delivery stock_level; do
			# user + system CPU per committed transaction > 0
			run json_eval "$dir/summary.json" \
				"d['kernel_cost']['types']['$type']['user_cpu_ms'] + d['kernel_cost']['types']['$type']['system_cpu_ms'] > 0"
			[[ $output == True ]]
			grep -q "^  $type " "$dir/summary.txt"
		done
		# like with like: the statements against the backends that
		# ran them, from the hook's own process snapshots
		grep -A2 'CPU check' "$dir/summary.txt"
		[[ -s $dir/sys/kcost_procs.start.csv && -s $dir/sys/kcost_procs.stop.csv ]]
		grep -q "^  CPU check: the workload's statements [0-9.]* s, the terminals' backends [0-9.]* s, difference .*; not attributed to a statement (commit, parse, bind, the client protocol): -*[0-9.]* s$" "$dir/summary.txt"
		grep -q "^  Server processes, same interval: terminals' backends [0-9.]* s ([1-9][0-9]*, [0-9]* new, [0-9]* ended), background [0-9.]* s (.*walwriter [0-9.]* s.*), other sessions [0-9.]* s, ended processes [0-9.]* s; all [0-9.]* s (run.json, its own window: [0-9.]* s)$" "$dir/summary.txt"
		run json_eval "$dir/summary.json" "d['kernel_cost']['cpu_check']['server_cpu_s'] > 0"
		[[ $output == True ]]
		run json_eval "$dir/summary.json" "(lambda c: (c['compared_with'], c['processes']['terminals_cpu_s'] > 0, c['backends_cpu_s'] == c['processes']['terminals_cpu_s'], round(c['not_attributed_cpu_s'] + c['diff_s'], 3)))(d['kernel_cost']['cpu_check'])"
		[[ $output == "('terminal_backends', True, True, 0.0)" ]]
		# the backends' CPU per transaction (run.json, schedstat):
		# every type has some, at least its statements' CPU, and the
		# check of its sum against the hook's process snapshots
		for type in new_order payment order_status delivery stock_level; do
			run json_eval "$dir/summary.json" \
				"(lambda t: t['backend_cpu_ms'] > 0 and t['run_queue_wait_ms'] >= 0 and t['backend_txns'] > 0)(d['kernel_cost']['types']['$type'])"
			[[ $output == True ]]
		done
		run json_eval "$dir/run.json" "(d['backend_cpu']['measured'], d['backend_cpu']['reason'])"
		[[ $output == "(True, None)" ]]
		grep -q "^  CPU check (backends): the transactions' backend CPU (schedstat) [0-9.]* s, the terminals' backends (kcost_procs) [0-9.]* s, difference [-+][0-9.]* s ([-+][0-9.]* %): \(agree\|DISAGREE\) (tolerance 10 %)" "$dir/summary.txt"
		run json_eval "$dir/summary.json" "(lambda c: (c['backends_cpu_s'] == d['kernel_cost']['cpu_check']['processes']['terminals_cpu_s'], c['schedstat_cpu_s'] > 0, abs(c['schedstat_cpu_s'] - c['backends_cpu_s'] - c['diff_s']) < 0.002))(d['kernel_cost']['backend_cpu']['check'])"
		[[ $output == "(True, True, True)" ]]
		# the map of query ids to types is beside the figures
		run json_eval "$dir/summary.json" "sorted(set(q['type'] for q in d['kernel_cost']['queries']) - {'control'})"
		[[ $output == "['delivery', 'new_order', 'order_status', 'payment', 'stock_level']" ]]
	done
	# report.html (not written with --no-plots) has the section
	"$OLTPMARK" report "$dir" >/dev/null
	grep -q '<h2 id="kernel-cost">Kernel cost per transaction type</h2>' "$dir/report.html"
}

@test "compare on two labels prints the per-type table and what changed most" {
	local l i

	need_kcache
	for l in a b; do
		for i in 1 2; do
			kc_run "$KC/cmp/$l-$i" "$l"
		done
	done
	run "$OLTPMARK" compare --baseline a "$KC/cmp"
	((status == 0))
	echo "$output"
	[[ $output == *"Kernel cost per transaction type"* ]]
	[[ $output == *"per committed transaction, mean over the runs"* ]]
	[[ $output == *"change against a, % (95 % interval)"* ]]
	grep -Eq '^b +stock_level +[-+][0-9.]+ ±[0-9.]+' <<<"$output"
	grep -q '^  b, what changed most: ' <<<"$output"
	run "$OLTPMARK" compare --baseline a --format json "$KC/cmp"
	((status == 0))
	[[ $(json_eval <(echo "$output") "len(d['kernel_cost'])") == 10 ]]
}

@test "compare.html: a plot per type of the changes against the baseline, linked in the kernel-cost section" {
	local out=$KC/cmp-html type

	need_kcache
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	[[ -d $KC/cmp/b-2 ]] || skip "needs the runs of the compare test"
	run "$OLTPMARK" compare --baseline a --format html --out "$out" "$KC/cmp"
	((status == 0))
	for type in new_order payment order_status delivery stock_level; do
		[[ -s $out/compare-plots/custom-kcost-$type.png && -s $out/compare-plots/custom-kcost-$type.svg ]]
		grep -q "<a href=\"compare-plots/custom-kcost-$type.svg\"><img src=\"compare-plots/custom-kcost-$type.png\"" "$out/compare.html"
		# one curve, label b, with its intervals
		grep -q "yerrorbars .* title 'b'" "$out/compare-plots/custom-kcost-$type.gp"
	done
	# in the kernel-cost section, before the evidence plots' heading
	awk '/Kernel cost per transaction type/ { k = 1 } /Evidence plots/ { e = 1 }
		/custom-kcost-new_order.png/ { ok = k && !e } END { exit !ok }' "$out/compare.html"
}

@test "backend CPU: not measured, with the reason, when the backends are not the postmaster's children or the driver has none" {
	local dir=$KC/runs/elsewhere

	# a --server-pid that is not the backends' parent stands for a
	# server on another host whose PIDs mean nothing here
	mkdir -p "$dir"
	"$OLTPMARK" run -w 1 -d 2 --ramp-up 1 "${PACE[@]}" \
		--conninfo "$OLTPMARK_CONNINFO" --server-pid $$ --out "$dir" >"$dir.log" 2>&1
	run json_eval "$dir/run.json" "(d['backend_cpu']['measured'], d['backend_cpu']['types'])"
	[[ $output == "(False, None)" ]]
	run json_eval "$dir/run.json" "d['backend_cpu']['reason']"
	[[ $output == "connection 1: process "*" is not a child of the server's postmaster $$ (its parent is "* ]]
	# without the hook's files the report has no kernel-cost part; the
	# rest of the run as ever
	"$OLTPMARK" report --no-plots "$dir" >/dev/null
	run json_eval "$dir/summary.json" "'kernel_cost' in d"
	[[ $output == False ]]
	grep -q '^  NOTPM ' "$dir/summary.txt"

	dir=$KC/runs/null
	"$OLTPMARK" run --driver null -w 1 -d 1 --ramp-up 0 --keying-think none \
		--out "$dir" >"$dir.log" 2>&1
	run json_eval "$dir/run.json" "(d['backend_cpu']['measured'], d['backend_cpu']['reason'])"
	[[ $output == "(False, 'the null driver has no server backends')" ]]

	# with the hook's files the report says why beside them
	need_kcache
	kc_run "$KC/runs/elsewhere-kc" elsewhere --server-pid $$
	grep -q "^  Backend CPU per transaction not measured: connection 1: process [0-9]* is not a child of the server's postmaster $$" \
		"$KC/runs/elsewhere-kc/summary.txt"
	run json_eval "$KC/runs/elsewhere-kc/summary.json" "(d['kernel_cost']['backend_cpu']['measured'], d['kernel_cost']['types']['new_order']['backend_cpu_ms'], d['kernel_cost']['types']['new_order']['user_cpu_ms'] > 0)"
	[[ $output == "(False, None, True)" ]]
}

@test "without the extensions the hook is skipped with its reason, the rest unchanged" {
	local dir=$KC/runs/plain

	run "$RUN_PG" stop "$PGTEST_DIR"
	((status == 0))
	run "$RUN_PG" start "$PGTEST_DIR" -- -c shared_preload_libraries=pg_stat_statements
	((status == 0))
	kc_run "$dir" plain
	grep -q '^the server does not preload pg_stat_kcache (Debian package postgresql-[0-9]*-pg-stat-kcache' \
		"$dir/sys/kernel-cost.skipped"
	[[ ! -e $dir/sys/kcost.start.csv && ! -e $dir/sys/.kernel-cost.pid ]]
	# the run and its report as ever: the summary says why, nothing else
	grep -q '^  skipped: the server does not preload pg_stat_kcache' "$dir/summary.txt"
	grep -q '^  NOTPM ' "$dir/summary.txt"
	# the backends' CPU needs no extension: the table has it alone
	run json_eval "$dir/summary.json" "sorted(d['kernel_cost'].keys())"
	[[ $output == "['backend_cpu', 'skipped', 'types']" ]]
	run json_eval "$dir/summary.json" "(lambda t: (t['backend_cpu_ms'] > 0, t['user_cpu_ms']))(d['kernel_cost']['types']['new_order'])"
	[[ $output == "(True, None)" ]]
	grep -q '^  backend CPU and run-queue wait only (run.json, schedstat): no kernel-cost files$' "$dir/summary.txt"
	grep -q "^  CPU check (backends): the transactions' backend CPU (schedstat) [0-9.]* s; the terminals' backends' CPU (kcost_procs.\*.csv) was not recorded$" "$dir/summary.txt"
	# a compare of such runs compares the backends' figures alone
	mkdir -p "$KC/plain"
	mv "$dir" "$KC/plain/p-1"
	kc_run "$KC/plain/q-1" q
	kc_run "$KC/plain/q-2" q
	kc_run "$KC/plain/p-2" plain
	run "$OLTPMARK" compare --baseline plain --format html --out "$KC/plain-out" "$KC/plain"
	((status == 0))
	grep -q 'Kernel cost per transaction type' "$KC/plain-out/compare.html"
	run "$OLTPMARK" compare --baseline plain --format json "$KC/plain"
	((status == 0))
	run json_eval <(echo "$output") "sorted(set(k for r in d['kernel_cost'] for k, f in r['figures'].items() if f['mean'] is not None))"
	echo "$output"
	[[ $output == "['backend_cpu_ms', 'run_queue_wait_ms']" ]]
	run "$RUN_PG" stop "$PGTEST_DIR"
	run "$RUN_PG" start "$PGTEST_DIR"
	((status == 0))
}
