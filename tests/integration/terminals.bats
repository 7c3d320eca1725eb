#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of how terminals start (terminals/terminal.c), with the null driver:
# no database, so no PostgreSQL is started. A run of 2,000 terminals with
# TPC-C keying and think times scaled by F = 0.05 (a 1.03 s mean cycle, a
# 23.8 s deck pass) is the issue's W=1000 tpcc run in small: 6 s of
# ramp-up and 15 s measured stand for 120 s and 300 s, and a "minute" is
# 60 F = 3 s. Started in phase, every such minute, the ramp-up's
# included, has the deck's New-Order and Payment shares within sampling
# noise, the summary's mix check does not fail, and the NOTPM per
# warehouse is the one docs/terminals.md derives (12.605 / F). Terminals
# that all start at the top of their decks fail the first of these (the
# first minute has about 31 % New-Orders). With no keying or think time
# every terminal's first transaction runs at once.

load helpers

# The scaled run, shared by the tests below.
SCALE=0.05
WAREHOUSES=200

setup_file() {
	local dir=$BATS_FILE_TMPDIR/phase

	"$OLTPMARK" run --driver null -w "$WAREHOUSES" -d 15 --ramp-up 6 \
		--keying-think "scale=$SCALE" --seed 15 --progress 0 \
		--label terminals-bats --out "$dir" >"$dir.log" 2>&1
}

# bucket_shares DIR WIDTH_MS: per bucket of t_ms, "bucket rows no_pct
# pay_pct z_no z_pay", where z is the share's distance from 10/23 in
# standard errors of a sample of that many rows.
bucket_shares() {
	python3 - "$1" "$2" <<'PY'
import csv, math, sys
d, width = sys.argv[1], int(sys.argv[2])
n, no, pay = {}, {}, {}
with open(d + "/mix.csv") as f:
    for r in csv.DictReader(f):
        b = int(r["t_ms"]) // width
        n[b] = n.get(b, 0) + 1
        no[b] = no.get(b, 0) + (r["type"] == "new_order")
        pay[b] = pay.get(b, 0) + (r["type"] == "payment")
p = 10 / 23
for b in sorted(n):
    se = math.sqrt(p * (1 - p) / n[b])
    print("%d %d %.2f %.2f %.2f %.2f" % (b, n[b], 100 * no[b] / n[b],
          100 * pay[b] / n[b], (no[b] / n[b] - p) / se,
          (pay[b] / n[b] - p) / se))
PY
}

@test "the run with the null driver completes" {
	[ -s "$BATS_FILE_TMPDIR/phase/mix.csv" ]
	[ -s "$BATS_FILE_TMPDIR/phase/summary.json" ]
	grep -q '"end_reason": "completed"' "$BATS_FILE_TMPDIR/phase/run.json"
}

@test "every scaled minute, ramp-up included, has the deck's mix" {
	local out

	out=$(bucket_shares "$BATS_FILE_TMPDIR/phase" 3000)
	echo "bucket rows no% pay% z_no z_pay"
	echo "$out"
	# seven full minutes of 3 s (21 s), and a few rows past the end
	[ "$(awk '$2 > 1000' <<<"$out" | wc -l)" -eq 7 ]
	# within 4 standard errors (about 2 points at 1,500 rows, 1.3 at
	# 5,800): a chance of 1 in 16,000 per share
	awk '$2 > 1000 && ($5 < -4 || $5 > 4 || $6 < -4 || $6 > 4) {
		print "out of phase: bucket " $1; bad = 1 } END { exit bad }' \
		<<<"$out"
}

@test "the summary's mix check does not fail" {
	local ok

	ok=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["mix_check"]["ok"])' \
		"$BATS_FILE_TMPDIR/phase/summary.json")
	echo "mix_check.ok: $ok"
	[ "$ok" = True ] || [ "$ok" = None ]
}

@test "NOTPM per warehouse is the derived 12.605 / F within 3 %" {
	python3 - "$BATS_FILE_TMPDIR/phase/summary.json" "$WAREHOUSES" \
		"$SCALE" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
per_w = s["notpm"] / int(sys.argv[2])
derived = 10 * 60 / (476 / 23 * float(sys.argv[3])) * 10 / 23
print("NOTPM per warehouse %.2f, derived %.2f" % (per_w, derived))
sys.exit(abs(per_w / derived - 1) > 0.03)
PY
}

@test "with no keying or think time every terminal starts at once" {
	local dir=$BATS_FILE_TMPDIR/none

	"$OLTPMARK" run --driver null -w 5 -d 1 --ramp-up 0 \
		--keying-think none -c 2 --seed 15 --progress 0 \
		--label terminals-bats --out "$dir" >"$dir.log" 2>&1
	# each of the 50 terminals has a row in the first 500 ms
	awk -F, 'NR > 1 && $1 < 500 { seen[$2] = 1 }
		END { n = 0; for (t in seen) n++; print n " terminals";
		exit n != 50 }' "$dir/mix.csv"
}
