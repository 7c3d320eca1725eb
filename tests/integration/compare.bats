#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of `oltpmark compare` on the hand-made run directories in
# tests/golden/compare-*/runs: the text, Markdown and CSV outputs compared
# exactly with the expected files beside them, then the bad input cases
# (a truncated summary.json, an unknown --baseline, no runs, bad options),
# the JSON output (parsed by python3) and the HTML page with its plots.
# No database is needed. Tests that write copy the runs to a temporary
# directory first, so the tree stays clean.
#
# $stderr is set by bats' `run --separate-stderr`, which shellcheck cannot
# see.
# shellcheck disable=SC2154

load helpers
bats_require_minimum_version 1.5.0

GOLDEN=tests/golden

setup() {
	cd "$REPO" || return 1
	OUT=$BATS_TEST_TMPDIR
}

# golden DIR EXPECTED [ARGS...]: compare's output on DIR/runs equals
# DIR/EXPECTED exactly, with exit status 0.
golden() {
	local dir=$1 expected=$2 rc=0
	shift 2
	"$OLTPMARK" compare "$@" "$GOLDEN/$dir/runs" >"$OUT/out" 2>"$OUT/err" || rc=$?
	[ "$rc" -eq 0 ]
	diff -u "$GOLDEN/$dir/$expected" "$OUT/out"
}

@test "compare: text output matches the golden file" {
	golden compare-basic expected.txt
}

@test "compare: Markdown output matches the golden file" {
	golden compare-basic expected.md --format md
}

@test "compare: CSV output matches the golden file" {
	golden compare-basic expected.csv --format csv
}

@test "compare: mail output matches the golden file" {
	golden compare-basic expected-mail.txt --format mail
}

@test "compare: every line of mail and of text is ASCII-clean and at most 78 columns" {
	local fmt dir
	for dir in compare-basic compare-minimal; do
		for fmt in mail text; do
			"$OLTPMARK" compare --format "$fmt" "$GOLDEN/$dir/runs" >"$OUT/$fmt" 2>/dev/null
			# characters, not bytes: text keeps its '±'
			# shellcheck disable=SC2016
			run ! awk -v f="$dir $fmt" 'length($0) > 78 { print f ": " $0; bad = 1 } END { exit !bad }' "$OUT/$fmt"
		done
		# plain ASCII in a mail
		run ! env LC_ALL=C grep -n '[^ -~]' "$OUT/mail"
	done
	# verdicts in words
	grep -qF -- '6.18-bfq     87.15  3  -12.8 % (-14.5 to -11.1), significant' "$OUT/mail" ||
		"$OLTPMARK" compare --format mail "$GOLDEN/compare-basic/runs" 2>/dev/null |
		grep -qF -- '-12.8 % (-14.5 to -11.1), significant'
	"$OLTPMARK" compare --format mail "$GOLDEN/compare-basic/runs" 2>/dev/null |
		grep -qF 'no effect beyond +-2.9 %'
}

@test "compare: foreign summaries (notpm only), default baseline by start time" {
	golden compare-minimal expected.txt
}

@test "compare: --baseline picks the label scored as 100" {
	golden compare-minimal expected-baseline.txt --baseline a-later
}

@test "compare: the score table of the golden runs says what it should" {
	"$OLTPMARK" compare "$GOLDEN/compare-basic/runs" >"$OUT/out" 2>/dev/null
	# Two configurations are two parts of 78 columns: Cached, then
	# Non-cached, each with the label and the baseline mark.
	grep -Eq '^6\.18-base +100\.00 +3 +1\.05 +\(baseline\)$' "$OUT/out"
	grep -Eq '^6\.18-base +100\.00 +3 +0\.86 +\(baseline\)$' "$OUT/out"
	# No change in cached; a significant drop in non-cached; each with
	# the smallest effect it could detect and the time 1 % would take
	# (17 and 13 runs per label of 2 + 8 s, checked by hand in
	# docs/compare.md).
	grep -Eq '^6\.18-bfq +99\.32 +±2\.27 +3 +0\.93 +3\.07 +6 min$' "$OUT/out"
	grep -Eq '^6\.18-bfq +87\.15 +±1\.72 \* +3 +0\.86 +2\.65 +5 min$' "$OUT/out"
	# One run: no interval; no non-cached run at all: "-".
	grep -Eq '^6\.18-hz100 +96\.71 +n=1 +1 +-$' "$OUT/out"
	grep -Eq '^6\.18-hz100 +-$' "$OUT/out"
	grep -q 'unadjusted' "$OUT/out"
}

@test "compare: broken run directories are skipped with a warning naming them" {
	run --separate-stderr "$OLTPMARK" compare "$GOLDEN/compare-basic/runs"
	[ "$status" -eq 0 ]
	[[ $stderr == *"skipped $GOLDEN/compare-basic/runs/6.18-bfq/cached/run-5: summary.json: JSON cut short"* ]]
	[[ $stderr == *"skipped $GOLDEN/compare-basic/runs/6.18-bfq/cached/run-6: no summary.json"* ]]
	# ... and listed below the tables, with the runs left out.
	[[ $output == *"Run directories skipped"*"run-5: summary.json"* ]]
	[[ $output == *"6.18-bfq/cached/run-4: partial run"* ]]
	[[ $output == *"6.18-bfq/noncached/run-4: not in steady"* ]]
	[[ $output == *"6.18-base/cached/run-diag-1: diagnostic run"* ]]
}

@test "compare: a truncated summary.json in a copy is skipped, the rest scored" {
	cp -r "$GOLDEN/compare-minimal/runs" "$OUT/runs"
	head -c 5 "$GOLDEN/compare-minimal/runs/a-later/cached/run-2/summary.json" \
		>"$OUT/runs/a-later/cached/run-2/summary.json"
	run --separate-stderr "$OLTPMARK" compare "$OUT/runs"
	[ "$status" -eq 0 ]
	[[ $stderr == *"skipped $OUT/runs/a-later/cached/run-2: summary.json"* ]]
	[[ $output == *"a-later"*"n=1"* ]]
}

@test "compare: an unknown --baseline is one error line and exit 2" {
	run --separate-stderr "$OLTPMARK" compare --baseline nope "$GOLDEN/compare-minimal/runs"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == *"no runs labelled 'nope' (labels: a-later, b-first)"* ]]
}

@test "compare: no runs found is one error line and exit 1" {
	mkdir -p "$OUT/empty/sub"
	run --separate-stderr "$OLTPMARK" compare "$OUT/empty"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == *"no runs found"* ]]
}

@test "compare: runs found but none scorable is exit 1 after the tables" {
	mkdir -p "$OUT/runs"
	cp -r "$GOLDEN/compare-basic/runs/6.18-base/cached/run-diag-1" "$OUT/runs/"
	run --separate-stderr "$OLTPMARK" compare "$OUT/runs"
	[ "$status" -eq 1 ]
	[[ $output == *"diagnostic run"* ]]
	[[ $stderr == *"none of the 1 runs found could be scored"* ]]
}

@test "compare: bad options and arguments exit 2 with one line" {
	local args
	for args in "--format xml $GOLDEN" "--metric bogus $GOLDEN" "--nope $GOLDEN" \
		"" "$OUT/does-not-exist" "--out"; do
		# shellcheck disable=SC2086 # word splitting is the point
		run --separate-stderr "$OLTPMARK" compare $args
		[ "$status" -eq 2 ] || {
			echo "compare $args: status $status"
			return 1
		}
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
		[ -z "$output" ]
	done
}

@test "compare: --help agrees with docs/compare.md" {
	local opt
	run "$OLTPMARK" compare --help
	[ "$status" -eq 0 ]
	for opt in --baseline --metric --format --holm --out; do
		[[ $output == *"$opt"* ]]
		grep -q -- "$opt" docs/compare.md
	done
}

@test "compare: --holm adjusts the stars and says so" {
	"$OLTPMARK" compare --holm "$GOLDEN/compare-basic/runs" >"$OUT/out" 2>/dev/null
	grep -q "Holm's correction over the 2 comparisons" "$OUT/out"
	grep -Eq '^6\.18-bfq .* 87\.15 +±1\.72 \* ' "$OUT/out"
}

@test "compare: --format json parses and carries the numbers" {
	"$OLTPMARK" compare --format json "$GOLDEN/compare-basic/runs" >"$OUT/out.json" 2>/dev/null
	python3 -c 'import json,sys; json.load(sys.stdin)' <"$OUT/out.json"
	python3 - "$OUT/out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "oltpmark-compare/1", d["format"]
assert d["baseline"] == "6.18-base"
cell = [s for s in d["scores"]
        if s["label"] == "6.18-bfq" and s["config"] == "noncached"][0]
assert abs(cell["score"] - 87.1547) < 1e-3, cell
assert cell["significant"] is True and cell["n"] == 3
assert cell["ci95"]["lo"] < cell["score"] < cell["ci95"]["hi"] < 100
assert abs(cell["df"] - 4.0) < 1e-3 and cell["p"] < 0.001
one = [s for s in d["scores"]
       if s["label"] == "6.18-hz100" and s["config"] == "cached"][0]
assert one["ci95"] is None and one["n"] == 1
missing = [s for s in d["scores"]
           if s["label"] == "6.18-hz100" and s["config"] == "noncached"][0]
assert missing["score"] is None and missing["n"] == 0
assert len(d["contest"]) == 6
assert {e["why"] for e in d["excluded"]} == {"diagnostic", "partial", "not_steady"}
assert len(d["broken"]) == 2
assert d["profiles"] and d["locks"]
EOF
}

@test "compare: --format html writes compare.html whose images all exist" {
	local img n=0
	command -v gnuplot >/dev/null || skip "gnuplot not installed (Debian: gnuplot-nox)"
	cp -r "$GOLDEN/compare-basic/runs" "$OUT/runs"
	run --separate-stderr "$OLTPMARK" compare --format html "$OUT/runs"
	[ "$status" -eq 0 ]
	[ "$output" = "$OUT/runs/compare.html" ]
	[ -s "$OUT/runs/compare.html" ]
	grep -q '<table>' "$OUT/runs/compare.html"
	# No network: no http(s) references.
	run ! grep -Eq '(src|href)="https?:' "$OUT/runs/compare.html"
	while IFS= read -r img; do
		[[ $img == compare-plots/*.png ]]
		[ -s "$OUT/runs/$img" ]
		[ -s "$OUT/runs/${img%.png}.svg" ]
		n=$((n + 1))
	done < <(grep -o 'src="[^"]*"' "$OUT/runs/compare.html" | sed 's/^src="//; s/"$//')
	# r, in, cs, us+sy, wa, bi, bo for each of the two configurations.
	[ "$n" -eq 14 ]
}

@test "compare: without gnuplot the page is still written, saying why" {
	cp -r "$GOLDEN/compare-minimal/runs" "$OUT/runs"
	OLTPMARK_GNUPLOT=/nonexistent/gnuplot run --separate-stderr \
		"$OLTPMARK" compare --format html --out "$OUT/html" "$OUT/runs"
	[ "$status" -eq 0 ]
	[ "$output" = "$OUT/html/compare.html" ]
	[[ $stderr == *"no plots"* ]]
	grep -q 'No plots' "$OUT/html/compare.html"
	run ! grep -q '<img' "$OUT/html/compare.html"
}

@test "compare: --out writes scores.txt and the plots, prints the path" {
	command -v gnuplot >/dev/null || skip "gnuplot not installed (Debian: gnuplot-nox)"
	run --separate-stderr "$OLTPMARK" compare --out "$OUT/o" "$GOLDEN/compare-basic/runs"
	[ "$status" -eq 0 ]
	[ "$output" = "$OUT/o/scores.txt" ]
	# The tables are the golden ones; the plots section comes on top.
	diff <(sed -n '1,/^Evidence plots$/p' "$OUT/o/scores.txt" | sed '$d') \
		<(sed -n '1,/^Runs not scored$/p' "$GOLDEN/compare-basic/expected.txt" | sed '$d')
	grep -q 'cached-vmstat-cs.png' "$OUT/o/scores.txt"
	[ -s "$OUT/o/compare-plots/cached-vmstat-cs.png" ]
	[ -s "$OUT/o/compare-plots/noncached-vmstat-cpu.svg" ]
	[ -s "$OUT/o/compare-plots/cached-vmstat-cs.gp" ]
}
