#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Several drivers, one run (docs/run.md, "Several drivers"): two
# `oltpmark run` processes on warehouse ranges 1-2 and 3-4 of a W=4
# database, started at one instant agreed in advance (--start-at), one of
# them with its clock shifted by 30 ms (OLTPMARK_TEST_CLOCK_OFFSET_MS),
# merged by `oltpmark merge`: the merged directory is one run (its
# mix.csv matches its run.json, the New-Orders it committed are those the
# database gained, the consistency conditions hold, report reads it) and
# the shifted clock is measured and corrected. A clock off beyond the
# bound, overlapping ranges and a start instant long gone are refused.

load helpers

setup_file() {
	pg_throwaway_start || return 1
	"$OLTPMARK" load -w 4 -j 2 --conninfo "$OLTPMARK_CONNINFO" >&3 2>&1
}

teardown_file() {
	pg_throwaway_stop
}

# part DIR RANGE START [ENV...]: one driver of the shared run, in the
# background, its output in DIR.log.
part() {
	local dir=$1 range=$2 start=$3

	shift 3
	env "$@" "$OLTPMARK" run -w 4 --warehouse-range "$range" \
		--start-at "$start" -d 4 --ramp-up 1 --keying-think none -c 2 \
		--seed 23 --progress 0 --label merge-bats \
		--conninfo "$OLTPMARK_CONNINFO" --out "$dir" >"$dir.log" 2>&1
}

@test "two drivers on ranges 1-2 and 3-4 merge into one run: nothing lost, C1-C12 hold, report reads it" {
	local d=$BATS_FILE_TMPDIR before after start pa pb sa=0 sb=0

	before=$(next_o_id_sum)
	start=$(($(date +%s) + 3))
	part "$d/a" 1-2 "$start" &
	pa=$!
	part "$d/b" 3-4 "$start" OLTPMARK_TEST_CLOCK_OFFSET_MS=30 &
	pb=$!
	wait "$pa" || sa=$?
	wait "$pb" || sb=$?
	cat "$d/a.log" "$d/b.log"
	[ "$sa" -eq 0 ]
	[ "$sb" -eq 0 ]
	after=$(next_o_id_sum)

	# each part drove its own terminals and recorded its range and clock
	awk -F, 'NR > 1 && ($2 < 1 || $2 > 20) { bad++ } END { exit bad > 0 }' "$d/a/mix.csv"
	awk -F, 'NR > 1 && ($2 < 21 || $2 > 40) { bad++ } END { exit bad > 0 }' "$d/b/mix.csv"
	[ "$(json_eval "$d/b/meta.json" "d['warehouse_range']['first']")" = 3 ]
	[ "$(json_eval "$d/b/meta.json" "d['options']['warehouse-range']")" = 3-4 ]
	[ "$(json_eval "$d/a/meta.json" "d['clock']['measured']")" = True ]
	# the shifted clock reads 30 ms off the server's, the other about 0
	json_eval "$d/b/meta.json" "d['clock']['offset_ms']"
	[ "$(json_eval "$d/b/meta.json" "-35 < d['clock']['offset_ms'] < -25")" = True ]
	[ "$(json_eval "$d/a/meta.json" "abs(d['clock']['offset_ms']) < 5")" = True ]
	# both started at the agreed instant of the server's clock
	[ "$(json_eval "$d/a/meta.json" "abs(d['clock']['start_server_unix_us'] / 1e6 - $start) < 0.2")" = True ]
	[ "$(json_eval "$d/b/meta.json" "abs(d['clock']['start_server_unix_us'] / 1e6 - $start) < 0.2")" = True ]

	run "$OLTPMARK" merge --out "$d/m" "$d/a" "$d/b"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(head -1 "$d/m/mix.csv")" = "t_ms,terminal,type,status,response_us,service_us,host" ]
	# the 30 ms of b's clock are corrected: the parts start together
	[ "$(json_eval "$d/m/meta.json" "all(abs(p['shift_ms']) < 20 for p in d['merge']['parts'])")" = True ]
	python3 - "$d/m" "$d/a" "$d/b" <<'PY'
import csv, json, sys
m, a, b = sys.argv[1:]
run = json.load(open(m + "/run.json"))
rows = {}
with open(m + "/mix.csv") as f:
    for r in csv.DictReader(f):
        assert r["host"], r
        k = (r["type"], r["status"])
        rows[k] = rows.get(k, 0) + 1
for t, c in run["counts"].items():
    for s in ("ok", "rollback", "error"):
        if rows.get((t, s), 0) != c[s]:
            sys.exit("%s %s: mix.csv %d, run.json %d" % (t, s, rows.get((t, s), 0), c[s]))
parts = [json.load(open(p + "/run.json")) for p in (a, b)]
assert run["mix_rows"] == sum(p["mix_rows"] for p in parts) == sum(rows.values())
assert run["terminals"] == 40 and run["warehouses"] == 4
assert run["partial"] is False
# the backends' schedstat totals: both parts measured, added up
assert run["backend_cpu"]["measured"] is True, run["backend_cpu"]
for t, st in run["backend_cpu"]["types"].items():
    for s, acc in st.items():
        for k, v in acc.items():
            assert v == sum(p["backend_cpu"]["types"][t][s][k] for p in parts), (t, s, k)
assert run["backend_cpu"]["types"]["new_order"]["ok"]["cpu_ns"] > 0
PY
	# nothing lost: New-Orders committed over both = orders gained
	[ "$(mix_count "$d/m" new_order ok)" -eq $((after - before)) ]
	[ "$(json_eval "$d/m/summary.json" "d['partial']")" = False ]
	[ "$(json_eval "$d/m/summary.json" "d['notpm'] > 0")" = True ]

	run "$OLTPMARK" report "$d/m"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -s "$d/m/report.html" ]

	run "$OLTPMARK" check --conninfo "$OLTPMARK_CONNINFO"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c PASS <<<"$output")" -ge 11 ]
}

@test "a clock off the server's beyond --max-clock-offset is refused: exit 1, one line, nothing written" {
	local d=$BATS_FILE_TMPDIR/offset

	OLTPMARK_TEST_CLOCK_OFFSET_MS=80 run "$OLTPMARK" run -w 4 \
		--warehouse-range 1-2 -d 1 --progress 0 \
		--conninfo "$OLTPMARK_CONNINFO" --out "$d"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(grep -c "^oltpmark: " <<<"$output")" -eq 1 ]
	[[ $output == *"--max-clock-offset"* ]]
	[ ! -e "$d" ]
	# a wider bound takes it (and a shorter run shows it measured)
	OLTPMARK_TEST_CLOCK_OFFSET_MS=80 run "$OLTPMARK" run -w 4 \
		--warehouse-range 1-2 -d 1 --ramp-up 0 --keying-think none \
		--max-clock-offset 200 --progress 0 \
		--conninfo "$OLTPMARK_CONNINFO" --out "$d"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_eval "$d/meta.json" "-85 < d['clock']['offset_ms'] < -75")" = True ]
	[ "$(json_eval "$d/meta.json" "d['clock']['injected_ms']")" = 80.0 ]
}

@test "overlapping or gapped ranges, another workload, a bad range: refused with one line" {
	local d=$BATS_FILE_TMPDIR

	[ -d "$d/a" ] || skip "needs the runs of the first test"
	run "$OLTPMARK" merge --out "$d/m2" "$d/a" "$d/a"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"warehouse ranges 1-2 and 1-2 overlap"* ]]
	[ ! -e "$d/m2" ]
	run "$OLTPMARK" merge --out "$d/m2" "$d/b" "$d/offset"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "$(grep -c "^oltpmark: " <<<"$output")" -eq 1 ]
	run "$OLTPMARK" merge --out "$d/m2" "$d/a"
	[ "$status" -eq 2 ]
	run "$OLTPMARK" run -w 4 --warehouse-range 3-5 -d 1 \
		--conninfo "$OLTPMARK_CONNINFO" --out "$d/bad"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"option --warehouse-range: '3-5'"* ]]
	[ ! -e "$d/bad" ]
}

@test "a start instant that passed before the connections were ready is refused: exit 1" {
	local d=$BATS_FILE_TMPDIR/late

	run "$OLTPMARK" run -w 4 --warehouse-range 1/2 -d 1 --progress 0 \
		--start-at $(($(date +%s) - 10)) \
		--conninfo "$OLTPMARK_CONNINFO" --out "$d"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"passed"*"before the connections were ready"* ]]
	[ ! -e "$d/mix.csv" ]
}
