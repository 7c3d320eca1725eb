#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Comparability in `oltpmark compare` (docs/compare.md, "Comparability"):
# runs of tests/golden/compare-minimal (labels b-first, the baseline, with
# one cached run, and a-later with two) copied to a temporary directory
# and given a meta.json fingerprint (docs/formats.md) by python3, then
# edited one key at a time: a workload or environment key that differs
# is refused with the key, the labels and both values named, and scored
# with --allow-differ; a label holding two kernels is refused; treatment
# keys that differ between labels are printed with both values; an A/A
# says there is no recorded difference; provenance is in every format.
# No database is needed.
#
# $stderr is set by bats' `run --separate-stderr`.
# shellcheck disable=SC2154

load helpers
bats_require_minimum_version 1.5.0

# The runs with their fingerprints, made once (python3 per file costs):
# each test, and each case of a loop, starts from a copy.
setup_file() {
	local m
	cp -r "$REPO/tests/golden/compare-minimal/runs" "$BATS_FILE_TMPDIR/runs"
	for m in "$BATS_FILE_TMPDIR"/runs/*/cached/run-*/meta.json; do
		fp_set "$m"
	done
}

setup() {
	cd "$REPO" || return 1
	RUNS=$BATS_TEST_TMPDIR/runs
	cp -r "$BATS_FILE_TMPDIR/runs" "$RUNS"
}

# fp_set META [GROUP KEY VALUE]...: give META the fingerprint every run
# here shares, then set each GROUP.KEY to VALUE.
fp_set() {
	python3 - "$@" <<'EOF'
import json, sys
path = sys.argv[1]
with open(path) as f:
    meta = json.load(f)
fp = meta.setdefault("fingerprint", {
    "format": 1,
    "workload": {"oltpmark_version": "0.1.0", "driver": "pgsql",
                 "config": "cached", "warehouses.loaded": "10",
                 "warehouses.driven": "10", "terminals_per_warehouse": "10",
                 "connections": "4", "duration_s": "600",
                 "ramp_up_s": "60", "keying_think": "tpcc",
                 "tx_mode": "procedure", "seed_rule": "random",
                 "design": "runs", "layout": "single"},
    "treatment": {"kernel.release": "6.18.0",
                  "kernel.version": "#12 SMP PREEMPT_DYNAMIC Tue Nov 24",
                  "vm.dirty_ratio": "20", "thp.enabled": "madvise",
                  "block.vdb.scheduler": "mq-deadline"},
    "environment": {"cpu.model": "Xeon 8375C", "cpu.online": "2",
                    "memory.gib": "8", "virtualization": "KVM",
                    "cgroup.version": "2", "postgresql.version": "15.14",
                    "postgresql.shared_buffers": "1GB"}})
args = sys.argv[2:]
for i in range(0, len(args), 3):
    fp[args[i]][args[i + 1]] = args[i + 2]
with open(path, "w") as f:
    json.dump(meta, f, indent=2)
EOF
}

B=b-first/cached/run-1/meta.json
A1=a-later/cached/run-1/meta.json
A2=a-later/cached/run-2/meta.json

@test "comparable: runs with equal fingerprints are scored, exit 0" {
	run --separate-stderr "$OLTPMARK" compare "$RUNS"
	echo "$output$stderr"
	[ "$status" -eq 0 ]
	[[ $output != *"Not checked"* ]]
}

@test "comparable: each workload and environment key that differs is refused, and allowed by --allow-differ" {
	local spec group key
	for spec in workload:connections workload:duration_s \
		workload:ramp_up_s workload:warehouses.driven \
		workload:warehouses.loaded workload:terminals_per_warehouse \
		workload:keying_think workload:tx_mode workload:driver \
		workload:seed_rule workload:layout workload:oltpmark_version \
		environment:cpu.model environment:cpu.online \
		environment:memory.gib environment:virtualization \
		environment:cgroup.version environment:postgresql.version \
		environment:postgresql.shared_buffers; do
		group=${spec%%:*}
		key=${spec#*:}
		setup
		fp_set "$RUNS/$B" "$group" "$key" other-value
		run --separate-stderr "$OLTPMARK" compare "$RUNS"
		echo "$spec: $status $stderr"
		[ "$status" -eq 2 ]
		[ "$(grep -c . <<<"$stderr")" -eq 1 ]
		[[ $stderr == *"$group key $key is "* ]]
		[[ $stderr == *"other-value in b-first"* ]]
		[[ $stderr == *" in a-later "* ]]
		[[ $stderr == *"--allow-differ $key"* ]]
		run --separate-stderr "$OLTPMARK" compare --allow-differ "$key" "$RUNS"
		[ "$status" -eq 0 ]
		[[ $output == *"Allowed to differ (--allow-differ): $group key $key,"*"other-value"* ]]
		rm -rf "$RUNS"
	done
}

@test "comparable: a label whose runs carry two kernel versions is refused" {
	fp_set "$RUNS/$A2" treatment kernel.version "#13 SMP PREEMPT_DYNAMIC Wed Nov 25"
	run --separate-stderr "$OLTPMARK" compare "$RUNS"
	echo "$stderr"
	[ "$status" -eq 2 ]
	[[ $stderr == *"label a-later holds two treatments"* ]]
	[[ $stderr == *"kernel.version is #12 SMP"*"but #13 SMP"* ]]
}

@test "comparable: what differs lists a sysctl, the kernel version, THP and the scheduler with both values" {
	local m
	for m in "$RUNS/$A1" "$RUNS/$A2"; do
		fp_set "$m" treatment vm.dirty_ratio 10 \
			treatment kernel.version "#13 SMP PREEMPT_DYNAMIC Wed Nov 25" \
			treatment thp.enabled never \
			treatment block.vdb.scheduler none
	done
	run --separate-stderr "$OLTPMARK" compare "$RUNS"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qxF '  a-later: vm.dirty_ratio 20 -> 10' <<<"$output"
	grep -qxF '  a-later: kernel.version #12 SMP PREEMPT_DYNAMIC Tue Nov 24 -> #13 SMP' <<<"$output"
	grep -qxF '    PREEMPT_DYNAMIC Wed Nov 25' <<<"$output"
	grep -qxF '  a-later: thp.enabled madvise -> never' <<<"$output"
	grep -qxF '  a-later: block.vdb.scheduler mq-deadline -> none' <<<"$output"
	# before the score table
	(($(grep -n 'vm.dirty_ratio' <<<"$output" | cut -d: -f1) < \
		$(grep -n '^Label ' <<<"$output" | head -1 | cut -d: -f1)))
	run "$OLTPMARK" compare --format json "$RUNS"
	[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print([x["value"] for x in d["differences"]["a-later"] if x["key"]=="vm.dirty_ratio"][0])' <<<"$output")" = 10 ]
}

@test "comparable: an A/A states that there is no recorded difference" {
	run "$OLTPMARK" compare "$RUNS"
	[ "$status" -eq 0 ]
	# wrapped at 78 columns in text; whole in JSON
	grep -qF '  a-later: no recorded difference: an A/A, or a change oltpmark cannot see,' <<<"$output"
	run "$OLTPMARK" compare --format md "$RUNS"
	grep -qxF -- '- a-later: no recorded difference: an A/A, or a change oltpmark cannot see, such as a kernel rebuilt with the same version string' <<<"$output"
}

@test "comparable: old run directories still compare, with one line naming what could not be checked" {
	# in the output, not on stderr: a JSON or CSV on stdout stays clean
	run --separate-stderr "$OLTPMARK" compare tests/golden/compare-minimal/runs
	[ "$status" -eq 0 ]
	[[ $stderr != *"fingerprint"* ]]
	[[ $output == *"Not checked: 3 of 3 scored runs record no fingerprint"* ]]
	[[ $output == *"keys could not be"*"compared."* ]]
	run --separate-stderr "$OLTPMARK" compare --format json tests/golden/compare-minimal/runs
	[ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["comparability"]["unchecked_runs"])' <<<"$output")" = 3 ]
	# one old run among fingerprinted ones
	python3 -c 'import json,sys; p=sys.argv[1]; m=json.load(open(p)); del m["fingerprint"]; json.dump(m, open(p,"w"))' "$RUNS/$A2"
	run --separate-stderr "$OLTPMARK" compare "$RUNS"
	[ "$status" -eq 0 ]
	[[ $output == *"Not checked: 1 of 3 scored runs record no fingerprint"* ]]
}

@test "comparable: block runs are checked within their cell, not against the other labels" {
	local m
	for m in "$RUNS/$A1" "$RUNS/$A2"; do
		fp_set "$m" workload design blocks workload block_s 30
	done
	# a block label beside whole runs is not a refusal
	run --separate-stderr "$OLTPMARK" compare "$RUNS"
	[ "$status" -ne 2 ]
	python3 - "$RUNS" <<'EOF'
import json, sys
for r in ("run-1", "run-2"):
    p = f"{sys.argv[1]}/a-later/cached/{r}/summary.json"
    s = json.load(open(p))
    s["blocks"] = {"block_s": 30, "items": []}
    json.dump(s, open(p, "w"))
EOF
	# a block label is scored inside its own runs: its duration (its
	# number of blocks) need not be the whole-run baseline's
	fp_set "$RUNS/$A1" workload duration_s 240
	fp_set "$RUNS/$A2" workload duration_s 240
	run --separate-stderr "$OLTPMARK" compare "$RUNS"
	[[ $stderr != *"not comparable"* ]]
	# but within its cell every key must agree
	fp_set "$RUNS/$A2" workload block_s 60
	run --separate-stderr "$OLTPMARK" compare "$RUNS"
	echo "$stderr"
	[ "$status" -eq 2 ]
	[[ $stderr == *"block runs of a-later in cached differ"*"block_s"* ]]
}

@test "comparable: provenance in text, md, csv, json and html" {
	run "$OLTPMARK" compare "$RUNS"
	[[ $output == *"workload: 10 warehouses driven of 10 loaded"* ]]
	[[ $output == *"postgresql: 15.14"* ]]
	[[ $output == *"machine: Xeon 8375C, 2 CPUs online, 8 GiB memory, virtualization KVM"* ]]
	[[ $output == *"dates: first run 2026-11-29T21:00:00Z, last run"* ]]
	[[ $output == *"command: oltpmark compare $RUNS"* ]]
	run "$OLTPMARK" compare --format md "$RUNS"
	[[ $output == *"## Provenance"* ]]
	[[ $output == *"postgresql: 15.14"* ]]
	run "$OLTPMARK" compare --format csv "$RUNS"
	[ "$(grep '^#' <<<"$output" | head -1)" = "# workload: 10 warehouses driven of 10 loaded, 10 terminals per warehouse, 4 connections, 600 s measured after 60 s ramp-up, keying/think tpcc, procedure mode, driver pgsql, layout single, seed random" ]
	grep -q '^# differs: a-later: no recorded difference' <<<"$output"
	# a reader that skips '#' lines gets the table
	python3 -c 'import csv,sys; rows=[r for r in csv.reader(l for l in sys.stdin if not l.startswith("#"))]; assert rows[0][0]=="label" and len(rows)==3' <<<"$output"
	# the '#' block comes first, the header right after it
	[[ $(head -1 <<<"$output") == "# workload: "* ]]
	[[ $(grep -v '^#' <<<"$output" | head -1) == label,config,* ]]
	run grep -c '^#' < <(sed -n '/^label,config,/,$p' <<<"$output")
	[ "$output" = 0 ]
	run "$OLTPMARK" compare --format json "$RUNS"
	[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["provenance"]["postgresql"], d["comparability"]["checked_runs"], d["differences"]["a-later"])' <<<"$output")" = "15.14 3 []" ]
	run "$OLTPMARK" compare --format html --out "$BATS_TEST_TMPDIR/html" "$RUNS"
	[ "$status" -eq 0 ]
	local page=$BATS_TEST_TMPDIR/html/compare.html
	grep -q 'Provenance' "$page"
	grep -q 'postgresql: 15.14' "$page"
	# above the score table
	(($(grep -n 'Provenance' "$page" | head -1 | cut -d: -f1) < \
		$(grep -n '<table' "$page" | head -1 | cut -d: -f1)))
}
