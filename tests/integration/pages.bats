#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The HTML pages together (docs/report.md, docs/compare.md): compare.html
# links each score to the report.html of the runs behind it, and shades
# exactly the significant scores, better or worse; report.html links back
# to the compare page, in the layout run/oltpmark-run writes
# (RESULTS/LABEL/CONFIG/run-N, RESULTS/compare.html); every link checked
# leads to a file that exists. The plots' gnuplot scripts set readable
# fonts and the images have the size the page shows them at; without
# gnuplot on the PATH report and compare say so in one line on stderr,
# naming the Debian package, and the pages say so too. Only the last test
# needs a database (a throwaway server for run/oltpmark-run).
#
# $stderr is set by bats' `run --separate-stderr`, which shellcheck cannot
# see.
# shellcheck disable=SC2154

load helpers
bats_require_minimum_version 1.5.0

setup() {
	cd "$REPO" || return 1
	OUT=$BATS_TEST_TMPDIR
}

teardown() {
	pg_throwaway_stop
}

# page_links PAGE SUFFIX: the href values of PAGE ending in SUFFIX, one a
# line, percent-decoded.
page_links() {
	python3 - "$1" "$2" <<'EOF'
import re, sys, urllib.parse
page, suffix = sys.argv[1], sys.argv[2]
for href in re.findall(r'href="([^"]*)"', open(page).read()):
    if href.endswith(suffix):
        print(urllib.parse.unquote(href))
EOF
}

# links_exist PAGE SUFFIX: every link of PAGE ending in SUFFIX is relative
# and names a file that exists, seen from PAGE's directory; prints how
# many there are.
links_exist() {
	local page=$1 link n=0
	while IFS= read -r link; do
		[[ $link != /* ]] || { echo "absolute: $link" >&2; return 1; }
		[ -f "$(dirname "$page")/$link" ] || { echo "missing: $link" >&2; return 1; }
		n=$((n + 1))
	done < <(page_links "$page" "$2")
	echo "$n"
}

# golden_runs: a copy of tests/golden/compare-basic/runs in $OUT/runs with
# a report.html in every run directory (compare only checks that it is
# there), but for 6.18-base/cached/run-2, which is left unlinked.
golden_runs() {
	local d
	cp -r tests/golden/compare-basic/runs "$OUT/runs"
	for d in "$OUT"/runs/*/*/run-*/; do
		echo "<html>report of $d</html>" >"$d/report.html"
	done
	rm "$OUT/runs/6.18-base/cached/run-2/report.html"
}

# marked_cells PAGE JSON: checks that the cells of PAGE with class
# "better" or "worse" are exactly the significant scores of the same
# compare's JSON, each with the right direction; prints them.
marked_cells() {
	python3 - "$1" "$2" <<'EOF'
import html.parser, json, sys
page, js = sys.argv[1], sys.argv[2]

class Cells(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.marked, self.cur = [], None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "td":
            cls = a.get("class", "").split()
            mark = [c for c in cls if c in ("better", "worse")]
            self.cur = {"mark": mark[0] if mark else None, "hrefs": []}
            if mark:
                self.marked.append(self.cur)
        elif tag == "a" and self.cur is not None and "href" in a:
            self.cur["hrefs"].append(a["href"])
    def handle_endtag(self, tag):
        if tag == "td":
            self.cur = None

p = Cells()
p.feed(open(page).read())
got = set()
for cell in p.marked:
    # the run links say whose cell it is: LABEL/CONFIG/run-N/report.html
    where = {tuple(h.split("/")[-4:-2]) for h in cell["hrefs"]}
    assert len(where) == 1, cell
    got.add(where.pop() + (cell["mark"],))
want = {(s["label"], s["config"], "better" if s["score"] > 100 else "worse")
        for s in json.load(open(js))["scores"] if s["significant"]}
assert len(p.marked) == len(want), (p.marked, want)
assert got == want, (got, want)
for g in sorted(got):
    print(" ".join(g))
EOF
}

@test "pages: compare.html links each score to its runs' report.html, relative, all there" {
	golden_runs
	run --separate-stderr "$OLTPMARK" compare --format html "$OUT/runs"
	[ "$status" -eq 0 ]
	[ "$output" = "$OUT/runs/compare.html" ]
	run links_exist "$OUT/runs/compare.html" report.html
	[ "$status" -eq 0 ]
	# the 13 scored runs, less the one without report.html
	[ "$output" -eq 12 ]
	# one cell's links are its own runs', and only the scored ones:
	# 6.18-bfq cached run-4 is partial, run-diag-1 diagnostic
	run page_links "$OUT/runs/compare.html" report.html
	[[ $output == *"6.18-bfq/cached/run-1/report.html"* ]]
	[[ $output != *"run-4/report.html"* ]]
	[[ $output != *"run-diag-1/report.html"* ]]
	[[ $output != *"6.18-base/cached/run-2/report.html"* ]]
	grep -q 'link the report.html of each run' "$OUT/runs/compare.html"
}

@test "pages: with --out elsewhere, and relative paths, the run links still lead to the runs" {
	golden_runs
	mkdir "$OUT/work"
	cd "$OUT/work"
	run --separate-stderr "$OLTPMARK" compare --format html --out html ../runs
	[ "$status" -eq 0 ]
	run links_exist "$OUT/work/html/compare.html" report.html
	[ "$status" -eq 0 ]
	[ "$output" -eq 12 ]
	run page_links "$OUT/work/html/compare.html" report.html
	[[ ${lines[0]} == ../../runs/6.18-base/* ]]
	# text and Markdown stay as they were: no links there
	run --separate-stderr "$OLTPMARK" compare --format md --out md ../runs
	run ! grep -q 'report.html' "$OUT/work/md/scores.md"
}

@test "pages: run directories with odd names are linked percent-encoded" {
	local odd="$OUT/runs/6.18-bfq/noncached/run 3 #x"
	golden_runs
	mv "$OUT/runs/6.18-bfq/noncached/run-3" "$odd"
	"$OLTPMARK" compare --format html "$OUT/runs" >/dev/null 2>&1
	grep -q 'href="6.18-bfq/noncached/run%203%20%23x/report.html"' "$OUT/runs/compare.html"
	run links_exist "$OUT/runs/compare.html" report.html
	[ "$status" -eq 0 ]
	[ "$output" -eq 12 ]
}

@test "pages: exactly the significant scores are shaded, worse and better" {
	golden_runs
	"$OLTPMARK" compare --format json "$OUT/runs" >"$OUT/a.json" 2>/dev/null
	"$OLTPMARK" compare --format html "$OUT/runs" >/dev/null 2>&1
	run marked_cells "$OUT/runs/compare.html" "$OUT/a.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# tests/golden/compare-basic/README: the one significant score
	[ "$output" = "6.18-bfq noncached worse" ]
	# against 6.18-bfq, 6.18-base's non-cached score is the better one
	"$OLTPMARK" compare --baseline 6.18-bfq --format json "$OUT/runs" >"$OUT/b.json" 2>/dev/null
	"$OLTPMARK" compare --baseline 6.18-bfq --format html "$OUT/runs" >/dev/null 2>&1
	run marked_cells "$OUT/runs/compare.html" "$OUT/b.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "6.18-base noncached better" ]
	# the style sheet styles both
	grep -q 'td.better{' "$OUT/runs/compare.html"
	grep -q 'td.worse{' "$OUT/runs/compare.html"
}

# results_layout: $OUT/results laid out as run/oltpmark-run writes it, two
# labels with one cached run each, copies of tests/golden/run-basic.
results_layout() {
	local label
	for label in kern-a kern-b; do
		mkdir -p "$OUT/results/$label/cached"
		cp -r tests/golden/run-basic "$OUT/results/$label/cached/run-1"
		rm -rf "$OUT/results/$label/cached/run-1/expected"
		python3 - "$OUT/results/$label/cached/run-1/meta.json" "$label" <<'EOF'
import json, sys
path, label = sys.argv[1], sys.argv[2]
meta = json.load(open(path))
meta["label"] = label
json.dump(meta, open(path, "w"), indent=2)
EOF
	done
}

@test "pages: report --compare-page links the page to be made; compare makes it there" {
	local run
	results_layout
	for run in "$OUT"/results/*/cached/run-1; do
		"$OLTPMARK" report --no-plots "$run" >/dev/null
		"$OLTPMARK" report --compare-page "$OUT/results/compare.html" "$run" >/dev/null
		run page_links "$run/report.html" compare.html
		[ "$output" = "../../../compare.html" ]
	done
	"$OLTPMARK" compare --format html "$OUT/results" >/dev/null
	for run in "$OUT"/results/*/cached/run-1; do
		run links_exist "$run/report.html" compare.html
		[ "$status" -eq 0 ]
		[ "$output" -eq 1 ]
	done
	# and back: compare.html links both reports
	run links_exist "$OUT/results/compare.html" report.html
	[ "$status" -eq 0 ]
	[ "$output" -eq 2 ]
	# an empty path is bad usage
	run --separate-stderr "$OLTPMARK" report --compare-page "" "$OUT/results/kern-a/cached/run-1"
	[ "$status" -eq 2 ]
	[[ $stderr == *"--compare-page"* ]]
}

@test "pages: without --compare-page report links the nearest compare.html above the run, or none" {
	local run=$OUT/results/kern-a/cached/run-1
	results_layout
	"$OLTPMARK" report "$run" >/dev/null 2>&1
	run ! grep -q 'class="compare"' "$run/report.html"
	"$OLTPMARK" report "$OUT/results/kern-b/cached/run-1" >/dev/null 2>&1
	"$OLTPMARK" compare --format html "$OUT/results" >/dev/null 2>&1
	"$OLTPMARK" report "$run" >/dev/null 2>&1
	run page_links "$run/report.html" compare.html
	[ "$output" = "../../../compare.html" ]
	run links_exist "$run/report.html" compare.html
	[ "$status" -eq 0 ]
	[ "$output" -eq 1 ]
	# a compare.html beside the run's configuration is nearer
	"$OLTPMARK" compare --format html --out "$OUT/results/kern-a" "$run" >/dev/null 2>&1
	"$OLTPMARK" report "$run" >/dev/null 2>&1
	run page_links "$run/report.html" compare.html
	[ "$output" = "../../compare.html" ]
}

@test "pages: the gnuplot scripts set readable fonts; images have the size the page shows" {
	local gp
	command -v gnuplot >/dev/null || skip "gnuplot not installed (Debian: gnuplot-nox)"
	results_layout
	"$OLTPMARK" report "$OUT/results/kern-a/cached/run-1" >/dev/null
	"$OLTPMARK" report "$OUT/results/kern-b/cached/run-1" >/dev/null
	"$OLTPMARK" compare --format html "$OUT/results" >/dev/null
	for gp in "$OUT"/results/kern-a/cached/run-1/plots/*.gp "$OUT"/results/compare-plots/*.gp; do
		grep -q "^set tics font ',11'$" "$gp"
		grep -q "^set key .* font ',11'$" "$gp"
		grep -q "^set title '.*' font ',13'$" "$gp"
		if grep -q '^set xlabel' "$gp"; then
			grep -q "^set xlabel '.*' font ',11'$" "$gp"
		fi
	done
	# full width for NOTPM, half for the others, as the pages show them
	python3 - "$OUT/results" <<'EOF'
import glob, struct, sys
def size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])
top = sys.argv[1]
pngs = glob.glob(top + "/kern-a/cached/run-1/plots/*.png")
pngs += glob.glob(top + "/compare-plots/*.png")
assert len(pngs) > 3, pngs
for p in pngs:
    want = (1000, 440) if p.endswith("/notpm.png") else (540, 360)
    assert size(p) == want, (p, size(p))
EOF
	# and the SVG is drawn with the same font
	grep -q 'font-family="sans"' "$OUT/results/compare-plots/cached-vmstat-cs.svg"
	grep -q 'font-size="11' "$OUT/results/compare-plots/cached-vmstat-cs.svg"
}

@test "pages: without gnuplot on the PATH report and compare say so in one line, and the pages too" {
	local nobin=$OUT/nobin with_status
	mkdir "$nobin"
	results_layout
	# the exit status with gnuplot, or whatever is installed here
	"$OLTPMARK" report "$OUT/results/kern-b/cached/run-1" >/dev/null 2>&1 || true
	run --separate-stderr env -u OLTPMARK_GNUPLOT PATH="$nobin" \
		"$OLTPMARK" report "$OUT/results/kern-a/cached/run-1"
	[ "$status" -eq 0 ]
	echo "$stderr"
	[ "$(grep -c 'no plots drawn' <<<"$stderr")" -eq 1 ]
	[[ $stderr == *"report: no plots drawn: gnuplot not found on PATH (Debian package gnuplot-nox)"* ]]
	grep -q 'Plots skipped: gnuplot not found on PATH (Debian package gnuplot-nox)' \
		"$OUT/results/kern-a/cached/run-1/report.html"
	[ ! -e "$OUT/results/kern-a/cached/run-1/plots/notpm.png" ]
	run --separate-stderr "$OLTPMARK" compare --format html "$OUT/results"
	with_status=$status
	run --separate-stderr env -u OLTPMARK_GNUPLOT PATH="$nobin" \
		"$OLTPMARK" compare --format html "$OUT/results"
	[ "$status" -eq "$with_status" ]
	[ "$status" -eq 0 ]
	echo "$stderr"
	[ "$(grep -c 'no plots drawn' <<<"$stderr")" -eq 1 ]
	[[ $stderr == *"compare: no plots drawn: gnuplot not found on PATH (Debian package gnuplot-nox)"* ]]
	grep -q 'No plots: gnuplot not found on PATH (Debian package gnuplot-nox)' \
		"$OUT/results/compare.html"
	# --no-plots asked for none: nothing to say
	run --separate-stderr env -u OLTPMARK_GNUPLOT PATH="$nobin" \
		"$OLTPMARK" report --no-plots "$OUT/results/kern-a/cached/run-1"
	[ "$status" -eq 0 ]
	[[ $stderr != *"no plots drawn"* ]]
}

@test "pages: after run/oltpmark-run each run's report.html links RESULTS/compare.html, which is there" {
	local fake=$OUT/fake-oltpmark report n=0
	pg_throwaway_start
	# A stand-in binary that copies the golden run instead of running
	# (as in experiment-status.bats); report and compare are the real ones.
	cat >"$fake" <<EOF
#!/usr/bin/env bash
if [[ \$1 == run ]]; then
	while (( \$# > 0 )); do
		[[ \$1 == --out ]] && out=\$2
		shift
	done
	mkdir -p "\$out"
	cp "$REPO"/tests/golden/run-basic/{mix.csv,meta.json,run.json} "\$out"
	exit 0
fi
exec "$OLTPMARK" "\$@"
EOF
	chmod +x "$fake"
	OLTPMARK=$fake run "$REPO/run/oltpmark-run" --label kern-p --configs cached \
		--runs 1 -w 1 -d 1 --ramp-up 0 --hooks none \
		--conninfo "$OLTPMARK_CONNINFO" --results "$OUT/results"
	echo "status $status: $output"
	[ "$status" -eq 0 ]
	[ -s "$OUT/results/compare.html" ]
	for report in "$OUT"/results/*/cached/run-*/report.html; do
		run page_links "$report" compare.html
		[ "$output" = "../../../compare.html" ]
		run links_exist "$report" compare.html
		[ "$status" -eq 0 ]
		[ "$output" -eq 1 ]
		n=$((n + 1))
	done
	[ "$n" -ge 1 ]
	run links_exist "$OUT/results/compare.html" report.html
	[ "$status" -eq 0 ]
	[ "$output" -ge 1 ]
}
