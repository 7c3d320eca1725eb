#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# blocks.bats: the block design end to end (docs/blocks.md). setup_file
# runs a 24-s block run (W=1, cached, 12 blocks of 2 s: three A B B A
# groups, as many as a long run of long blocks would need to show every
# point) with a variant that only records when it is called; the tests
# check blocks.csv against
# those calls, the report's blocks and host share, and compare's block
# score. Then a block run interrupted with SIGINT and one whose switch
# fails (the variant restored both times, the blocks so far kept),
# --resolve repeating a block run until its interval is narrow enough (or
# as often as allowed), bad options, and compare on synthetic block run
# directories whose score and resolution are computed here by hand. Private clusters of its own,
# stopped by PID by oltpmark-run itself.

load helpers

# rec_variant NAME LOG [FAIL_ON]: a variant script that appends
# "EPOCH ACTION SWITCH" to LOG (SWITCH: OLTPMARK_VARIANT_SWITCH, 0 when
# unset); with FAIL_ON (apply or restore) that call exits 3.
rec_variant() {
	cat >"$BLOCKS_DIR/$1" <<EOF
#!/usr/bin/env bash
printf '%s %s %s\n' "\${EPOCHREALTIME/,/.}" "\$1" "\${OLTPMARK_VARIANT_SWITCH:-0}" >>"$2"
[[ "\$1" != "${3:-none}" ]] || exit 3
EOF
	chmod +x "$BLOCKS_DIR/$1"
}

# The runs are paced (helpers.bash's PACE, about 48 transactions a
# second at W=1): what these tests look at (the blocks' rows, the
# switches, the scores' presence) needs transactions in every block, not
# a saturated server, whose two CPUs for the runs' whole length were most
# of this file's CPU time (179 s of CPU unpaced). At 1/20 (10 a second)
# a 2-s block held so few New-Orders that one run's interval reached
# millions of points.

setup_file() {
	BLOCKS_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-blocks.XXXXXX")
	chmod 755 "$BLOCKS_DIR"
	export BLOCKS_DIR RESULTS=$BLOCKS_DIR/results
	rec_variant rec "$BLOCKS_DIR/rec.log"
	"$REPO/run/oltpmark-run" --label kb --configs cached --runs 1 -w 1 \
		-d 24 --ramp-up 2 --design blocks --block 2 --settle 1 "${PACE[@]}" \
		--hooks procstat --variant "rec=$BLOCKS_DIR/rec" \
		--results "$RESULTS" >"$BLOCKS_DIR/run.out" 2>&1 || {
		cat "$BLOCKS_DIR/run.out" >&3
		return 1
	}
	export RUN=$RESULTS/kb+rec/cached/run-1
}

teardown_file() {
	local c
	for c in "$BLOCKS_DIR"/results/.clusters/*/; do
		[ -e "$c/.oltpmark-cluster" ] && "$REPO/run/pg" stop "$c" >/dev/null 2>&1
	done
	rm -rf "$BLOCKS_DIR"
}

@test "a block run writes blocks.csv: 12 blocks of 2 s, A B B A, contiguous" {
	[ -s "$RUN/mix.csv" ] && [ -s "$RUN/summary.json" ]
	grep -q '"design": "blocks"' "$RUN/meta.json"
	grep -q '"label": "kb+rec"' "$RUN/meta.json"
	# no runs of the baseline label alone in the block design
	[ ! -e "$RESULTS/kb" ]
	python3 - "$RUN/blocks.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["block"] for r in rows] == [str(k) for k in range(12)], rows
assert "".join(r["arm"] for r in rows) == "ABBAABBAABBA"
for k, r in enumerate(rows):
    s, e = float(r["start_epoch"]), float(r["end_epoch"])
    # each block ends at its scheduled time: its length is --block up
    # to the switcher's wake-up latency
    assert 1.75 < e - s < 2.25, (k, e - s)
    if k:
        assert s == float(rows[k - 1]["end_epoch"]), k
    assert r["status"] == "0"
    switched = k % 4 in (1, 3)
    assert (float(r["switch_s"]) > 0) == switched, (k, r)
PY
}

@test "the variant ran exactly at the switches, and was restored at the end" {
	python3 - "$RUN/blocks.csv" "$BLOCKS_DIR/rec.log" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
calls = [l.split() for l in open(sys.argv[2])]
switches = [r for r in rows if float(r["switch_s"]) > 0]
want = ["apply" if int(r["block"]) % 4 == 1 else "restore" for r in switches]
# one call per switch, then the runner's restore after the last block
assert [c[1] for c in calls] == want + ["restore"], calls
for r, c in zip(switches, calls):
    t, s = float(c[0]), float(r["start_epoch"])
    assert s - 0.002 <= t <= s + float(r["switch_s"]) + 0.002, (r, c)
assert float(calls[-1][0]) >= float(rows[-1]["end_epoch"]) - 0.002
# the switches are told they are switches; the final restore is not one
assert [c[2] for c in calls] == ["1"] * len(switches) + ["0"], calls
PY
	grep -q "block 1: apply" "$RUN/sys/blocks.log"
}

@test "report: each block's window, NOTPM and steal; the run's host share" {
	python3 - "$RUN/summary.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
b = j["blocks"]
assert b["variant"] == "rec" and b["settle_s"] == 1 and b["block_s"] == 2
assert b["blocks"] == 12 and b["used"] == 12, b
for it in b["items"]:
    assert it["use"] == "ok" and it["notpm"] > 0, it
    # the settle time and the switch are cut from the window
    assert abs(it["window_start_s"] - (it["start_s"] + it["switch_s"] + 1)) < 0.01 \
        or it["block"] == 0, it
    assert it["window_end_s"] <= it["end_s"] + 0.001
    assert 0 <= it["steal_pct"] <= 100
h = j["host"]
# one sample a second over the whole run (24 s measured)
assert h["samples"] >= 24 and h["bad_lines"] == 0, h
total = sum(h[k] for k in ("user_pct", "nice_pct", "system_pct", "idle_pct",
                          "iowait_pct", "irq_pct", "softirq_pct", "steal_pct"))
assert abs(total - 100) < 0.01, total
PY
	grep -q '^Blocks (blocks.csv: variant rec, settle 1 s; 12 of 12 blocks used)' "$RUN/summary.txt"
	grep -q '^Host (sys/procstat.csv' "$RUN/summary.txt"
}

@test "compare scores the block run from its blocks, with its resolution" {
	run "$OLTPMARK" compare "$RESULTS"
	[ "$status" -eq 0 ]
	[[ $output =~ kb\+rec\ +[0-9]+\.[0-9]{2}\ +±[0-9.]+\ +\*?\ *1\ +[0-9.]+\ +[0-9.]+\ (min|h|d)\ +\(blocks:\ B\ over\ A\) ]]
	run "$OLTPMARK" compare --format json "$RESULTS"
	python3 -c 'import json, sys
s = [x for x in json.load(sys.stdin)["scores"] if x["label"] == "kb+rec"][0]
assert s["design"] == "blocks" and s["blocks"] == 12 and s["groups"] == 3, s
assert s["mde_pct"] > 0 and s["resolve_1pct_s"] > 0' <<<"$output"
}

@test "SIGINT: the run stops, the blocks so far are kept, the variant is restored" {
	local log=$BLOCKS_DIR/int.log pid
	rec_variant rec-int "$log"
	# Job control: a background job of a shell without it ignores
	# SIGINT, and bash cannot trap a signal ignored on entry.
	# And when make check itself was started in the background, SIGINT
	# is ignored for the whole tree: env puts its default back before
	# oltpmark-run starts, so that its trap can take it.
	set -m
	env --default-signal=INT "$REPO/run/oltpmark-run" --label ki --configs cached --runs 1 -w 1 \
		-d 40 --ramp-up 2 --design blocks --block 2 --settle 1 "${PACE[@]}" \
		--hooks none --variant "rec=$BLOCKS_DIR/rec-int" \
		--results "$RESULTS" >"$BLOCKS_DIR/int.out" 2>&1 &
	pid=$!
	# Interrupted in block 1, after its switch (B: the variant applied).
	wait_for 120 grep -q apply "$log"
	kill -INT "$pid"
	local status=0
	wait "$pid" || status=$?
	set +m
	echo "exit status $status; the variant's calls and oltpmark-run's output:"
	cat "$log" "$BLOCKS_DIR/int.out"
	[ "$status" -eq 1 ]
	[ "$(tail -n 1 "$log" | cut -d' ' -f2)" = restore ]
	# the blocks until the interrupt, the last one cut there
	d=$RESULTS/ki+rec/cached/run-1
	python3 - "$d/blocks.csv" "$log" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
calls = [l.split() for l in open(sys.argv[2])]
assert 2 <= len(rows) < 20, rows
assert float(rows[-1]["end_epoch"]) <= float(calls[-1][0]) + 0.002
PY
	grep -q '"partial": true' "$d/summary.json"
	run leftover_processes "$RESULTS/.clusters"
	echo "left behind: $output"
	[ -z "$output" ]
}

@test "a failed switch ends the run with exit 1, restores, and keeps the blocks" {
	local log=$BLOCKS_DIR/fail.log
	rec_variant rec-fail "$log" apply
	run "$REPO/run/oltpmark-run" --label kf --configs cached --runs 1 -w 1 \
		-d 16 --ramp-up 2 --design blocks --block 2 --settle 1 "${PACE[@]}" \
		--hooks none --variant "rec=$BLOCKS_DIR/rec-fail" \
		--results "$RESULTS"
	[ "$status" -eq 1 ]
	[[ $output == *"block 1: variant rec apply exited with status 3"* ]]
	[ "$(cut -d' ' -f2 "$log" | tr '\n' ' ')" = "apply restore " ]
	d=$RESULTS/kf+rec/cached/run-1
	[ "$(tail -n 1 "$d/blocks.csv" | cut -d, -f1,2,6)" = "1,B,3" ]
	[ "$(wc -l <"$d/blocks.csv")" -eq 3 ]
	[ -s "$d/mix.csv" ]
	grep -q '"partial": true' "$d/summary.json"
	grep -q 'switch failed' "$d/summary.txt"
}

# resolve_run LABEL PCT RUNS: a block experiment of 8 blocks of 2 s per
# run (the fewest a run may have), repeated with --resolve PCT up to RUNS
# times, on the results of setup_file (whose block scores of other labels
# must not count) and its loaded cluster; output in $BLOCKS_DIR/LABEL.out.
resolve_run() {
	rec_variant "rec-$1" "$BLOCKS_DIR/$1.log"
	"$REPO/run/oltpmark-run" --label "$1" --configs cached --runs "$3" -w 1 \
		-d 16 --ramp-up 2 --design blocks --block 2 --settle 1 "${PACE[@]}" \
		--hooks none --variant "rec=$BLOCKS_DIR/rec-$1" --resolve "$2" \
		--results "$RESULTS" >"$BLOCKS_DIR/$1.out" 2>&1
}

@test "--resolve: a target reached after the first run stops the repeats" {
	local status=0 d=$RESULTS/kr1+rec/cached
	# Two groups leave 1 degree of freedom (t = 12.7): the interval can
	# span thousands of points (+-4083 once unpaced, +-3433185 once
	# paced at 1/20, when blocks held a handful of New-Orders), so the
	# target is the largest compare --within takes.
	resolve_run kr1 1000000 3 || status=$?
	cat "$BLOCKS_DIR/kr1.out"
	[ "$status" -eq 0 ]
	[ -d "$d/run-1" ] && [ ! -e "$d/run-2" ]
	grep -Eq '^oltpmark-run: cached: interval after 1 run\(s\): ±[0-9]+\.[0-9]{2} \(target ±1000000\): target reached' "$BLOCKS_DIR/kr1.out"
	[ "$(grep -c 'interval after' "$BLOCKS_DIR/kr1.out")" -eq 1 ]
	[ "$(grep -c 'not reached' "$BLOCKS_DIR/kr1.out")" -eq 0 ]
	grep -q '"resolve_target_pct": "1000000"' "$d/run-1/meta.json"
	# one apply and restore per group, and the final restore: one run
	[ "$(grep -c apply "$BLOCKS_DIR/kr1.log")" -eq 2 ]
}

@test "--resolve: a failed check is said and the runs go on; a target not reached makes every run allowed, warns, exits 0" {
	local status=0 d=$RESULTS/kr2+rec/cached
	# the binary, but its first compare --within (the check) fails
	cat >"$BLOCKS_DIR/om-nocheck" <<EOF
#!/usr/bin/env bash
if [[ "\$*" == "compare "*"--within "* && ! -e $BLOCKS_DIR/checked ]]; then
	touch "$BLOCKS_DIR/checked"
	echo "oltpmark: compare: broken on purpose" >&2
	exit 1
fi
exec "$OLTPMARK" "\$@"
EOF
	chmod +x "$BLOCKS_DIR/om-nocheck"
	OLTPMARK=$BLOCKS_DIR/om-nocheck resolve_run kr2 0.0001 2 || status=$?
	cat "$BLOCKS_DIR/kr2.out"
	[ "$status" -eq 0 ]
	[ -d "$d/run-1" ] && [ -d "$d/run-2" ] && [ ! -e "$d/run-3" ]
	grep -q '^oltpmark-run: cached: interval after 1 run(s): none yet, compare failed (exit 1): oltpmark: compare: broken on purpose (target ±0.0001)$' "$BLOCKS_DIR/kr2.out"
	grep -Eq '^oltpmark-run: cached: interval after 2 run\(s\): ±[0-9.]+ \(target ±0.0001\)$' "$BLOCKS_DIR/kr2.out"
	grep -Eq '^oltpmark-run: WARNING: cached: target ±0.0001 not reached after 2 runs: ±[0-9.]+$' "$BLOCKS_DIR/kr2.out"
	grep -q '"resolve_target_pct": "0.0001"' "$d/run-2/meta.json"
	# the score table pools both runs
	run "$OLTPMARK" compare --format json "$RESULTS"
	python3 -c 'import json, sys
s = [x for x in json.load(sys.stdin)["scores"] if x["label"] == "kr2+rec"][0]
assert s["design"] == "blocks" and s["n"] == 2 and s["groups"] == 4, s' <<<"$output"
}

@test "bad --resolve values exit 2 with one line, before anything is made" {
	local v=$BLOCKS_DIR/rec none=$BLOCKS_DIR/not-made
	run "$REPO/run/oltpmark-run" --resolve 5 --variant "r=$v" --results "$none"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"option --resolve: '5' needs --design blocks"* ]]
	for pct in 0 0.0 abc -1 5% 2.5.1 .5; do
		run "$REPO/run/oltpmark-run" --design blocks --variant "r=$v" \
			--resolve "$pct" --results "$none"
		echo "--resolve $pct: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"option --resolve: '$pct' is not a positive number"* ]]
	done
	# beyond what compare --within, which answers the check, takes
	for pct in 1000000.5 1000000000000; do
		run "$REPO/run/oltpmark-run" --design blocks --variant "r=$v" \
			--resolve "$pct" --results "$none"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"option --resolve: '$pct' is more than 1000000 percent"* ]]
	done
	run "$REPO/run/oltpmark-run" --design blocks --variant "r=$v" --resolve
	[ "$status" -eq 2 ]
	[[ $output == *"option --resolve needs a value"* ]]
	[ ! -e "$none" ]
}

@test "bad block options exit 2 with one line" {
	local v=$BLOCKS_DIR/rec
	run "$REPO/run/oltpmark-run" --design sideways --variant "r=$v"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$REPO/run/oltpmark-run" --design blocks
	[ "$status" -eq 2 ]
	[[ $output == *"needs at least one --variant"* ]]
	run "$REPO/run/oltpmark-run" --design blocks --variant "r=$v" --block 10 --settle 10
	[ "$status" -eq 2 ]
	run "$REPO/run/oltpmark-run" --design blocks --variant "r=$v" -d 70 --block 10
	[ "$status" -eq 2 ]
	[[ $output == *"fewer than 8 blocks"* ]]
	run "$REPO/run/oltpmark-run" --design blocks --variant "r=$v" --block 0
	[ "$status" -eq 2 ]
}

# A block run directory as report leaves one: meta.json, and summary.json
# with its blocks. NOTPM of block k of run r: a drift of -1 % per block, a
# 4 % step in B, and a fixed wobble, so the answer is known.
synthetic_block_runs() {
	python3 - "$1" <<'PY'
import json, math, os, sys
root = sys.argv[1]
for r in (1, 2):
    d = os.path.join(root, "syn+step", "cached", "run-%d" % r)
    os.makedirs(d)
    json.dump({"format": "oltpmark-meta/1", "label": "syn+step",
               "config": "cached", "start": "2026-11-30T10:0%d:00Z" % r,
               "notes": {"design": "blocks", "block_s": "20", "settle_s": "2"}},
              open(os.path.join(d, "meta.json"), "w"))
    items = []
    for k in range(16):
        b = k % 4 in (1, 2)
        wobble = [0.010, -0.020, 0.015, -0.005, 0.000, 0.012, -0.017][(k + 3 * r) % 7]
        notpm = 1000 * math.exp(-0.01 * k + (math.log(1.04) if b else 0) + wobble)
        items.append({"block": k, "arm": "B" if b else "A", "use": "ok",
                      "notpm": notpm, "steal_pct": 3.0})
    json.dump({"format": "oltpmark-summary/1", "notpm": 1000, "partial": False,
               "measured_s": 320, "ramp_up_s": 10,
               "blocks": {"variant": "step", "block_s": 20, "settle_s": 2,
                          "items": items}},
              open(os.path.join(d, "summary.json"), "w"))
PY
}

@test "compare on synthetic block runs: the expected score, interval and resolution" {
	local dir=$BLOCKS_DIR/syn
	synthetic_block_runs "$dir"
	run "$OLTPMARK" compare --format json "$dir"
	[ "$status" -eq 0 ]
	python3 -c '
import json, math, sys
s = json.load(sys.stdin)["scores"][0]
# By hand: 8 groups (4 per run); the steal share is the same in every
# block, so no steal term; the effect is the mean of the groups
# differences d = (ln B1 + ln B2 - ln A0 - ln A3) / 2, its standard
# error sd(d) / sqrt(8), 7 degrees of freedom: t(7, 0.975) = 2.364624,
# t(7, 0.80) = 0.896029.
d = []
for r in (1, 2):
    ln = []
    for k in range(16):
        b = k % 4 in (1, 2)
        w = [0.010, -0.020, 0.015, -0.005, 0.000, 0.012, -0.017][(k + 3 * r) % 7]
        ln.append(-0.01 * k + (math.log(1.04) if b else 0) + w)
    for g in range(4):
        a0, b1, b2, a3 = ln[4 * g:4 * g + 4]
        d.append((b1 + b2 - a0 - a3) / 2)
m = sum(d) / 8
se = math.sqrt(sum((x - m) ** 2 for x in d) / 7 / 8)
assert s["design"] == "blocks" and s["groups"] == 8 and s["blocks"] == 32, s
assert not s["steal_adjusted"]
assert abs(s["score"] - 100 * math.exp(m)) < 1e-6, (s["score"], 100 * math.exp(m))
assert abs(s["ci95"]["lo"] - 100 * math.exp(m - 2.364624 * se)) < 1e-3
assert abs(s["ci95"]["hi"] - 100 * math.exp(m + 2.364624 * se)) < 1e-3
mde = 100 * (math.exp((2.364624 + 0.896029) * se) - 1)
assert abs(s["mde_pct"] - mde) < 1e-3, (s["mde_pct"], mde)
# 1 %: whole groups of 4 blocks of 20 s, at least what the normal
# approximation asks for (t has wider tails)
g = s["resolve_1pct_s"] / 80
assert g == int(g), g
sigma = se * math.sqrt(8)
assert g >= ((1.959964 + 0.841621) * sigma / math.log(1.01)) ** 2, g
print(s["score"], s["mde_pct"], g)
' <<<"$output"
	run "$OLTPMARK" compare "$dir"
	[ "$status" -eq 0 ]
	[[ $output == *"(blocks: B over A)"* ]]
}
