#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# oltpmark probe from the command line: its JSON, the file it writes
# through a rename, and one error line with the right exit status for
# bad options and for work that fails. No database is needed.

load helpers

@test "probe: JSON with CPU, memory and fsync figures; no file left behind" {
	local dir=$BATS_TEST_TMPDIR/fs

	mkdir -p "$dir"
	run "$OLTPMARK" probe --reps 3 --fsyncs 5 --fsync-dir "$dir"
	((status == 0))
	python3 -c 'import json, sys
j = json.loads(sys.argv[1])
assert j["format"] == "oltpmark-probe/1", j
assert j["cpu"]["reps"] == 3 and j["memory"]["reps"] == 3
assert 0 < j["cpu"]["ns_per_op_min"] <= j["cpu"]["ns_per_op"]
assert 0 < j["memory"]["ns_per_op_min"] <= j["memory"]["ns_per_op"]
assert 0 <= j["guest"]["others_busy_pct"] <= 100 and 0 <= j["guest"]["steal_pct"] <= 100
f = j["fsync"]
assert f["writes"] == 5 and f["block_bytes"] == 8192 and f["dir"] == sys.argv[2]
assert 0 < f["us_median"] <= f["us_p90"] <= f["us_max"]' "$output" "$dir"
	[[ -z $(ls -A "$dir") ]]
}

@test "probe -o: the file appears whole, without the fsync part when not asked" {
	local out=$BATS_TEST_TMPDIR/p.json

	run "$OLTPMARK" probe --reps 1 -o "$out"
	((status == 0))
	[[ -z $output ]]
	[[ -s $out && ! -e $out.tmp ]]
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert "fsync" not in j and j["cpu"]["ns_per_op"] > 0' "$out"
}

@test "probe: bad options exit 2, failed work exits 1, one line each" {
	run "$OLTPMARK" probe --reps 0
	((status == 2))
	((${#lines[@]} == 1))
	[[ ${lines[0]} == "oltpmark: "*"--reps"* ]]

	run "$OLTPMARK" probe --fsync-dir "$BATS_TEST_TMPDIR/none"
	((status == 2))
	((${#lines[@]} == 1))
	[[ ${lines[0]} == *"--fsync-dir: $BATS_TEST_TMPDIR/none is not a directory" ]]

	run "$OLTPMARK" probe --reps 1 -o "$BATS_TEST_TMPDIR/none/p.json"
	((status == 1))
	((${#lines[@]} == 1))
	[[ ${lines[0]} == "oltpmark: cannot create $BATS_TEST_TMPDIR/none/p.json.tmp: No such file or directory" ]]

	run "$OLTPMARK" probe extra
	((status == 2))
	((${#lines[@]} == 1))
}
