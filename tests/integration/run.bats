#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of `oltpmark run` (terminals/, src/cmd/cmd_run.c) against a throwaway
# server loaded with one warehouse: a 6 s run in each transaction mode
# records every transaction, its committed New-Orders are exactly the
# orders the database gained, mix.csv agrees with run.json and
# summary.json, and the database stays consistent; bad requests are
# refused with the documented exit status; SIGINT and a server that goes
# away end a run early with partial results and exit status 1. The tests
# share one database and run in file order; the last one stops and
# restarts the server.

load helpers

setup_file() {
	pg_throwaway_start_w1
}

teardown_file() {
	pg_throwaway_stop
}

# assert_mix_matches_run DIR: mix.csv has its header, well-formed rows
# only, and exactly as many rows of each type and status as run.json
# counts over the whole run.
assert_mix_matches_run() {
	local dir=$1

	[ "$(head -1 "$dir/mix.csv")" = "t_ms,terminal,type,status,response_us,service_us" ]
	awk -F, 'NR > 1 && !(NF == 6 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ &&
		$3 ~ /^(new_order|payment|order_status|delivery|stock_level)$/ &&
		$4 ~ /^(ok|rollback|error)$/ && $5 ~ /^[0-9]+$/ &&
		$6 ~ /^[0-9]+$/ && $5 + 0 >= $6 + 0) { bad++; print }
		END { exit bad > 0 }' "$dir/mix.csv"
	python3 - "$dir" <<'PY'
import csv, json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
rows = {}
with open(d + "/mix.csv") as f:
    for r in csv.DictReader(f):
        k = (r["type"], r["status"])
        rows[k] = rows.get(k, 0) + 1
for t, c in run["counts"].items():
    for s in ("ok", "rollback", "error"):
        if rows.get((t, s), 0) != c[s]:
            sys.exit("%s %s: mix.csv %d, run.json %d" % (t, s, rows.get((t, s), 0), c[s]))
if sum(rows.values()) != run["mix_rows"]:
    sys.exit("mix_rows %d, mix.csv %d" % (run["mix_rows"], sum(rows.values())))
dy = sum(rows.get(("delivery", s), 0) for s in ("ok", "rollback", "error"))
i = run["inputs"]
if i["deliveries_queued"] != dy + i["deliveries_not_done"]:
    sys.exit("deliveries queued %d != rows %d + not done %d" % (i["deliveries_queued"], dy, i["deliveries_not_done"]))
PY
}

# assert_mix_matches_summary DIR: the rows of mix.csv inside summary.json's
# window are the per-type counts of summary.json.
assert_mix_matches_summary() {
	python3 - "$1" <<'PY'
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
lo = round(s["window"]["start_s"] * 1000)
hi = round(s["window"]["end_s"] * 1000)
rows = {}
with open(d + "/mix.csv") as f:
    for r in csv.DictReader(f):
        if lo <= int(r["t_ms"]) < hi:
            k = (r["type"], r["status"])
            rows[k] = rows.get(k, 0) + 1
for t, c in s["types"].items():
    for st in ("ok", "rollback", "error"):
        if rows.get((t, st), 0) != c[st]:
            sys.exit("%s %s: mix.csv %d in window, summary.json %d" % (t, st, rows.get((t, st), 0), c[st]))
PY
}

# assert_orders_match DIR GAINED: committed New-Orders in DIR/mix.csv are
# exactly the orders the database gained.
assert_orders_match() {
	local ok

	ok=$(mix_count "$1" new_order ok)
	echo "committed in mix.csv: $ok, gained by the database: $2"
	((ok == $2))
}

# six_seconds MODE: a 1 s ramp-up + 5 s run in MODE, checked. The
# ramp-up is cut from summary.json's window, not from mix.csv and run.json;
# two progress lines (at 2 and 4 s) fall 2 s clear of the end.
six_seconds() {
	local dir=$BATS_FILE_TMPDIR/run-$1 before after

	before=$(next_o_id_sum)
	run "$OLTPMARK" run -w 1 -d 5 --ramp-up 1 --keying-think none -c 2 \
		--progress 2 --tx-mode "$1" --conninfo "$OLTPMARK_CONNINFO" \
		--label run-bats --out "$dir"
	echo "$output"
	[ "$status" -eq 0 ]
	after=$(next_o_id_sum)
	# progress lines at 2 and 4 s
	[ "$(grep -c 'NOTPM' <<<"$output")" -eq 2 ]
	assert_mix_matches_run "$dir"
	assert_orders_match "$dir" $((after - before))
	(($(mix_count "$dir" new_order ok) > 100))
	[ "$(json_eval "$dir/run.json" "d['partial']")" = False ]
	[ "$(json_eval "$dir/run.json" "d['end_reason']")" = completed ]
	[ "$(json_eval "$dir/run.json" "d['tx_mode']")" = "$1" ]
	[ "$(json_eval "$dir/meta.json" "d['format']")" = oltpmark-meta/1 ]
	[ "$(json_eval "$dir/meta.json" "d['label']")" = run-bats ]
	# the fingerprint (docs/formats.md), and every sysctl beside it
	[ "$(json_eval "$dir/meta.json" \
		"d['fingerprint']['workload']['tx_mode']")" = "$1" ]
	[ "$(json_eval "$dir/meta.json" \
		"d['fingerprint']['workload']['seed_rule']")" = random ]
	[ "$(json_eval "$dir/meta.json" \
		"d['fingerprint']['treatment']['kernel.release']")" = "$(uname -r)" ]
	[ "$(json_eval "$dir/meta.json" \
		"d['fingerprint']['environment']['postgresql.version'] != ''")" = True ]
	grep -q '^vm\.dirty_ratio = [0-9]' "$dir/sys/sysctl.txt"
	# the server runs here: its CPU time was measured
	[ "$(json_eval "$dir/run.json" "d['cost']['server_cpu_s'] > 0")" = True ]
	[ -f "$dir/summary.json" ]
	assert_mix_matches_summary "$dir"
}

@test "procedure mode: a 6 s run records every transaction, orders match the database" {
	six_seconds procedure
}

@test "sql mode: a 6 s run records every transaction, orders match the database" {
	six_seconds sql
}

@test "oltpmark check passes after the runs" {
	run "$OLTPMARK" check --conninfo "$OLTPMARK_CONNINFO"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "-w above the loaded warehouses: exit 2, one line, nothing created" {
	local dir=$BATS_FILE_TMPDIR/too-many

	run "$OLTPMARK" run -w 2 -d 1 --progress 0 \
		--conninfo "$OLTPMARK_CONNINFO" --out "$dir"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"only 1 warehouse"* ]]
	[ "$(grep -c "^oltpmark: " <<<"$output")" -eq 1 ]
	[ ! -e "$dir" ]
}

@test "a database without a loaded population is refused: exit 1" {
	local dir=$BATS_FILE_TMPDIR/unloaded

	run "$OLTPMARK" run -w 1 -d 1 --progress 0 \
		--conninfo "${OLTPMARK_CONNINFO/dbname=oltpmark/dbname=postgres}" \
		--out "$dir"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"oltpmark_meta"* ]]
	[ ! -e "$dir" ]
}

@test "a directory that holds a run is refused: exit 2" {
	run "$OLTPMARK" run -w 1 -d 1 --conninfo "$OLTPMARK_CONNINFO" \
		--out "$BATS_FILE_TMPDIR/run-procedure"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"already holds a run"* ]]
}

@test "SIGINT ends a run within seconds: partial, exit 1, nothing lost" {
	local dir=$BATS_FILE_TMPDIR/sigint before after pid status=0 t0

	before=$(next_o_id_sum)
	"$OLTPMARK" run -w 1 -d 120 --ramp-up 0 --keying-think scale=0.01 \
		--progress 1 --conninfo "$OLTPMARK_CONNINFO" --out "$dir" \
		>"$dir.log" 2>&1 &
	pid=$!
	wait_for 60 grep -q NOTPM "$dir.log"
	t0=$SECONDS
	kill -INT "$pid"
	wait "$pid" || status=$?
	cat "$dir.log"
	[ "$status" -eq 1 ]
	((SECONDS - t0 <= 8))
	after=$(next_o_id_sum)
	[ "$(json_eval "$dir/run.json" "d['partial']")" = True ]
	[ "$(json_eval "$dir/run.json" "d['end_reason']")" = interrupted ]
	[ "$(json_eval "$dir/meta.json" "d['format']")" = oltpmark-meta/1 ]
	assert_mix_matches_run "$dir"
	assert_orders_match "$dir" $((after - before))
	[ "$(json_eval "$dir/summary.json" "d['partial']")" = True ]
}

@test "a server stopped mid-run ends it after the reconnect window: partial, exit 1" {
	local dir=$BATS_FILE_TMPDIR/lost before after pid status=0 t0

	before=$(next_o_id_sum)
	OLTPMARK_RECONNECT_S=2 "$OLTPMARK" run -w 1 -d 120 --ramp-up 0 \
		--keying-think scale=0.01 --progress 1 \
		--conninfo "$OLTPMARK_CONNINFO" --out "$dir" >"$dir.log" 2>&1 &
	pid=$!
	wait_for 60 grep -q NOTPM "$dir.log"
	"$RUN_PG" stop "$PGTEST_DIR"
	t0=$SECONDS
	wait "$pid" || status=$?
	cat "$dir.log"
	"$RUN_PG" start "$PGTEST_DIR"
	[ "$status" -eq 1 ]
	# 2 s of reconnecting, then the end; never the 120 s
	((SECONDS - t0 <= 30))
	grep -q 'connection lost' "$dir.log"
	[ "$(json_eval "$dir/run.json" "d['partial']")" = True ]
	[ "$(json_eval "$dir/run.json" "d['end_reason']")" = server_lost ]
	[ "$(json_eval "$dir/run.json" "d['connections_lost']")" -ge 1 ]
	assert_mix_matches_run "$dir"
	after=$(next_o_id_sum)
	assert_orders_match "$dir" $((after - before))
}
