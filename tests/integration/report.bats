#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of `oltpmark report` on the golden run directory
# (tests/golden/run-basic: mix.csv, meta.json, run.json and the hooks'
# sys/ files), copied to a temporary directory for each test: the files
# it writes, the plots (when gnuplot is installed), report.html opened in
# headless Chromium (when installed), runs without sys/ or without
# gnuplot, partial runs, and bad input. No database is needed.
#
# $stderr is set by bats' `run --separate-stderr`, which shellcheck cannot
# see.
# shellcheck disable=SC2154

load helpers

bats_require_minimum_version 1.5.0

GOLDEN=$REPO/tests/golden/run-basic

setup() {
	RUN_DIR=$BATS_TEST_TMPDIR/run
	cp -r -- "$GOLDEN" "$RUN_DIR"
	rm -rf -- "$RUN_DIR/expected"
}

# True when gnuplot can draw here (the report skips plots otherwise).
have_gnuplot() {
	command -v gnuplot >/dev/null 2>&1
}

# chromium_dump PAGE: print the DOM of PAGE after it loaded, from a
# headless Chromium with a throwaway profile and no network services.
chromium_dump() {
	local page=$1 profile

	profile=$(mktemp -d "$BATS_TEST_TMPDIR/chromium.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$profile" --virtual-time-budget=10000 \
		--dump-dom "file://$page" 2>/dev/null
}

@test "report writes the summary, the time series and report.html" {
	run --separate-stderr "$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	[[ $output == *"NOTPM"*"1451.00"* ]]
	[ -s "$RUN_DIR/summary.json" ]
	[ -s "$RUN_DIR/summary.txt" ]
	[ -s "$RUN_DIR/timeseries.csv" ]
	[ -s "$RUN_DIR/report.html" ]
	# what it printed is summary.txt
	[ "$output" = "$(cat "$RUN_DIR/summary.txt")" ]
	# no temporary file is left behind
	run find "$RUN_DIR" -name '*.tmp'
	[ -z "$output" ]
	# the summary of the golden run is the golden one
	cmp "$RUN_DIR/summary.json" "$GOLDEN/expected/summary.json"
	cmp "$RUN_DIR/timeseries.csv" "$GOLDEN/expected/timeseries.csv"
}

@test "report draws every plot as PNG and SVG" {
	have_gnuplot || skip "gnuplot not installed (Debian: gnuplot-nox)"
	"$OLTPMARK" report "$RUN_DIR" >/dev/null
	local name
	for name in notpm rt-new_order rt-payment rt-order_status \
		rt-delivery rt-stock_level vmstat-procs vmstat-in vmstat-cs \
		vmstat-cpu vmstat-io iostat-util iostat-await iostat-iops; do
		[ -s "$RUN_DIR/plots/$name.png" ] || {
			echo "missing $name.png"
			return 1
		}
		[ -s "$RUN_DIR/plots/$name.svg" ] || {
			echo "missing $name.svg"
			return 1
		}
		# a real PNG and a real SVG
		[ "$(head -c 8 "$RUN_DIR/plots/$name.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
		grep -q '<svg' "$RUN_DIR/plots/$name.svg"
	done
	# every PNG has its SVG
	local png
	for png in "$RUN_DIR"/plots/*.png; do
		[ -s "${png%.png}.svg" ]
	done
}

@test "report draws its plots in one gnuplot; a plot gnuplot fails on is named, the others drawn" {
	have_gnuplot || skip "gnuplot not installed (Debian: gnuplot-nox)"
	local fake=$BATS_TEST_TMPDIR/gnuplot log=$BATS_TEST_TMPDIR/gnuplot.log
	local fail=$BATS_TEST_TMPDIR/fail png
	# the real gnuplot, each start logged; once $fail exists, failing
	# whenever it is given rt-payment.gp (as on a script it cannot read)
	cat >"$fake" <<-EOF
		#!/usr/bin/env bash
		printf '%s\n' "\$*" >>"$log"
		if [[ -e $fail && " \$* " == *" rt-payment.gp "* ]]; then
			echo 'line 1: oops' >&2
			exit 1
		fi
		exec $(command -v gnuplot) "\$@"
	EOF
	chmod 755 "$fake"
	OLTPMARK_GNUPLOT=$fake "$OLTPMARK" report "$RUN_DIR" >/dev/null
	# one gnuplot drew all 14 plots (beside the probe of the terminal)
	[ "$(grep -c '\.gp' "$log")" -eq 1 ]
	[ "$(find "$RUN_DIR/plots" -name "*.png" | wc -l)" -eq 14 ]
	mv "$RUN_DIR/plots" "$BATS_TEST_TMPDIR/together"
	# the shared process fails: each plot is drawn alone, the failing
	# one named in report.html, every other one drawn
	: >"$log"
	touch "$fail"
	OLTPMARK_GNUPLOT=$fake "$OLTPMARK" report "$RUN_DIR" >/dev/null
	[ "$(grep -c '\.gp' "$log")" -eq 15 ]
	grep -q 'plot rt-payment: gnuplot png failed: line 1: oops' "$RUN_DIR/report.html"
	[ ! -e "$RUN_DIR/plots/rt-payment.png" ]
	[ "$(find "$RUN_DIR/plots" -name "*.png" | wc -l)" -eq 13 ]
	grep -q 'src="plots/rt-new_order.png"' "$RUN_DIR/report.html"
	run ! grep -q 'src="plots/rt-payment.png"' "$RUN_DIR/report.html"
	# a plot drawn with the others is the plot drawn alone, byte for byte
	for png in "$RUN_DIR"/plots/*.png "$RUN_DIR"/plots/*.svg; do
		cmp "$png" "$BATS_TEST_TMPDIR/together/${png##*/}"
	done
}

@test "report.html has no script and names only files that exist" {
	"$OLTPMARK" report "$RUN_DIR" >/dev/null
	local html=$RUN_DIR/report.html
	run ! grep -qi '<script' "$html"
	# strings from the run's files are escaped
	grep -q '&lt;script&gt;alert' "$html"
	grep -q '&lt;console=ttyS0&gt; &amp; quiet' "$html"
	# the hooks' skip reasons and error files are shown
	grep -q 'Skipped: perf lock contention needs' "$html"
	grep -q 'iostat.err' "$html"
	# every local link and image is there
	local ref
	while read -r ref; do
		[ -e "$RUN_DIR/$ref" ] || {
			echo "report.html names $ref, which is missing"
			return 1
		}
	done < <(grep -o '\(src\|href\)="[^"#][^"]*"' "$html" |
		sed 's/^[a-z]*="//; s/"$//')
	# nothing from the network
	run ! grep -q '\(src\|href\)="\(https\?:\)\?//' "$html"
}

@test "report.html renders in headless Chromium and every image loads" {
	command -v chromium >/dev/null 2>&1 ||
		skip "chromium not installed (Debian: chromium)"
	have_gnuplot || skip "gnuplot not installed: the page has no image"
	"$OLTPMARK" report "$RUN_DIR" >/dev/null
	# A copy of the page with a probe that puts the count of images and
	# of broken ones (and any script error) into the title.
	local probe=$RUN_DIR/probe.html
	sed 's|</body>|<script>window.onerror=function(m){document.title="script error: "+m};window.addEventListener("load",function(){var n=0,b=0;for(var i of document.images){n++;if(!i.complete\|\|i.naturalWidth===0)b++}document.title="images "+n+" broken "+b})</script></body>|' \
		"$RUN_DIR/report.html" >"$probe"
	run chromium_dump "$probe"
	[ "$status" -eq 0 ]
	[[ $output == *"<title>images "* ]]
	[[ $output == *" broken 0</title>"* ]]
	[[ $output != *"<title>images 0 "* ]]
	[[ $output == *"oltpmark report"* ]]
	[[ $output == *"NOTPM"* ]]
}

@test "a run without sys/ still gets its workload plots" {
	rm -rf -- "$RUN_DIR/sys"
	run --separate-stderr "$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	grep -q 'No sys/ directory' "$RUN_DIR/report.html"
	if have_gnuplot; then
		[ -s "$RUN_DIR/plots/notpm.png" ]
		[ -s "$RUN_DIR/plots/notpm.svg" ]
		[ -s "$RUN_DIR/plots/rt-new_order.svg" ]
		[ ! -e "$RUN_DIR/plots/vmstat-cs.png" ]
	fi
}

@test "a partial run says so at the top" {
	sed -i 's/"partial": false/"partial": true/; s/"end_reason": "completed"/"end_reason": "interrupted"/' \
		"$RUN_DIR/run.json"
	run --separate-stderr "$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	[[ $output == *"PARTIAL RUN: interrupted"* ]]
	grep -q '"partial": true' "$RUN_DIR/summary.json"
	# the banner comes before the first heading
	local banner heading
	banner=$(grep -n 'class="banner">Partial run: interrupted' "$RUN_DIR/report.html" | cut -d: -f1)
	heading=$(grep -n '<h1>' "$RUN_DIR/report.html" | cut -d: -f1)
	[ -n "$banner" ] && [ "$banner" -lt "$heading" ]
}

@test "a run without run.json is partial" {
	rm -f -- "$RUN_DIR/run.json"
	run --separate-stderr "$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	grep -q '"partial": true' "$RUN_DIR/summary.json"
	grep -q 'there is no run.json' "$RUN_DIR/report.html"
}

@test "without gnuplot the plots are skipped with a note" {
	OLTPMARK_GNUPLOT=/nonexistent/gnuplot run --separate-stderr \
		"$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	grep -q 'Plots skipped: /nonexistent/gnuplot not found' "$RUN_DIR/report.html"
	[ ! -e "$RUN_DIR/plots/notpm.png" ]
}

@test "--window and --ramp-up choose the window; --no-plots draws nothing" {
	run --separate-stderr "$OLTPMARK" report --no-plots --window 30:60 "$RUN_DIR"
	[ "$status" -eq 0 ]
	[[ $output == *"30.000 .. 60.000 s (30.000 s measured"* ]]
	grep -q '"start_from": "option"' "$RUN_DIR/summary.json"
	[ ! -e "$RUN_DIR/report.html" ]
	[ ! -e "$RUN_DIR/plots" ]
	run --separate-stderr "$OLTPMARK" report --no-plots --ramp-up 40 "$RUN_DIR"
	[ "$status" -eq 0 ]
	[[ $output == *"40.000 .. 80.000 s"* ]]
	run --separate-stderr "$OLTPMARK" report --no-plots --window 50: "$RUN_DIR"
	[ "$status" -eq 0 ]
	[[ $output == *"50.000 .. 80.000 s"* ]]
}

@test "a cut last line of mix.csv is tolerated and said" {
	printf '81000,3,new_or' >>"$RUN_DIR/mix.csv"
	run --separate-stderr "$OLTPMARK" report --no-plots "$RUN_DIR"
	[ "$status" -eq 0 ]
	[[ $output == *"last line had no newline"* ]]
	grep -q '"truncated_lines": 1' "$RUN_DIR/summary.json"
}

@test "bad input exits 2 with one line" {
	local cases=(
		"missing:"
		"notdir:"
		"nomix:"
		"badrow:line 3"
		"badjson:run.json"
		"badwindow:--window"
		"emptywindow:after the end of the run"
		"both:not both"
	)
	local c name want dir args
	for c in "${cases[@]}"; do
		name=${c%%:*}
		want=${c#*:}
		dir=$BATS_TEST_TMPDIR/$name
		args=()
		case $name in
		missing) dir=$BATS_TEST_TMPDIR/does-not-exist ;;
		notdir) dir=$RUN_DIR/mix.csv ;;
		nomix) mkdir -p "$dir" ;;
		badrow)
			cp -r -- "$RUN_DIR" "$dir"
			sed -i '3s/.*/17,3,new_order,fine,12,11/' "$dir/mix.csv"
			;;
		badjson)
			cp -r -- "$RUN_DIR" "$dir"
			head -c 200 "$RUN_DIR/run.json" >"$dir/run.json"
			;;
		badwindow) dir=$RUN_DIR args=(--window 10-20) ;;
		emptywindow) dir=$RUN_DIR args=(--window 500:600) ;;
		both) dir=$RUN_DIR args=(--window 10:20 --ramp-up 5) ;;
		esac
		run --separate-stderr "$OLTPMARK" report --no-plots "${args[@]}" "$dir"
		[ "$status" -eq 2 ] || {
			echo "$name: status $status: $stderr"
			return 1
		}
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || {
			echo "$name: more than one line: $stderr"
			return 1
		}
		[[ $stderr == "oltpmark: "*"$want"* ]] || {
			echo "$name: '$stderr' does not say '$want'"
			return 1
		}
	done
}

# top_before_heading FILE PATTERN: PATTERN is on a line of FILE before <h1>.
top_before_heading() {
	local file=$1 pattern=$2 line heading
	line=$(grep -n -- "$pattern" "$file" | head -1 | cut -d: -f1)
	heading=$(grep -n '<h1>' "$file" | cut -d: -f1)
	if [ -z "$line" ] || [ "$line" -ge "$heading" ]; then
		echo "'$pattern' is not above the first heading of $file"
		return 1
	fi
}

@test "checkpoints are listed and marked on the NOTPM plot" {
	run --separate-stderr "$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	# 1795986445.500 - 1795986380 (meta.json start_unix_s) = 65.5 s
	[[ $output == *"3 in the run, 2 overlapping the window"* ]]
	[[ $output == *"65.500     82.250   16.750  yes    wal"* ]]
	grep -q '"checkpoints_in_window": 2' "$RUN_DIR/summary.json"
	grep -q '<td>65.500</td><td>82.250</td>' "$RUN_DIR/report.html"
	grep -q 'href="sys/checkpoints.csv"' "$RUN_DIR/report.html"
	if have_gnuplot; then
		# the band is clipped to the end of the axis (81 s)
		grep -q "^set object 12 rectangle from 65.500, graph 0 to 81.000" \
			"$RUN_DIR/plots/notpm.gp"
		grep -q "^set label 12 'checkpoint wal' at 65.500" "$RUN_DIR/plots/notpm.gp"
		grep -q 'server checkpoints in orange' "$RUN_DIR/report.html"
		[ -s "$RUN_DIR/plots/notpm.svg" ]
	fi
}

@test "no checkpoints.csv: unknown; a malformed one: a warning at the top" {
	rm -f -- "$RUN_DIR/sys/checkpoints.csv"
	run --separate-stderr "$OLTPMARK" report --no-plots "$RUN_DIR"
	[ "$status" -eq 0 ]
	grep -q '"checkpoints": null' "$RUN_DIR/summary.json"
	[[ $output == *"Checkpoints: unknown"* ]]
	printf 'start_epoch,end_epoch,kind\n1795986385.100,soon,time\n' \
		>"$RUN_DIR/sys/checkpoints.csv"
	OLTPMARK_GNUPLOT=/nonexistent/gnuplot run --separate-stderr \
		"$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	# the warning is the summary's, not a message: stderr only says
	# that there are no plots (tests/integration/pages.bats)
	[[ $stderr == "oltpmark: warning: report: no plots drawn: "* ]]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	[[ $output == *"WARNING: sys/checkpoints.csv: line 2: "* ]]
	grep -q '"checkpoints": null' "$RUN_DIR/summary.json"
	grep -q '"sys/checkpoints.csv: line 2: ' "$RUN_DIR/summary.json"
	top_before_heading "$RUN_DIR/report.html" 'class="warn">Warning: sys/checkpoints.csv: line 2'
}

@test "a diagnostic run marked by the runner's note says so at the top" {
	sed -i 's/"notes": {/"notes": {"diagnostic": "true", /' "$RUN_DIR/meta.json"
	OLTPMARK_GNUPLOT=/nonexistent/gnuplot run --separate-stderr \
		"$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	[ "$(sed -n 2p <<<"$output")" = "*** diagnostic run: profiling/lock statistics were on; not scored ***" ]
	grep -q '"diagnostic": true' "$RUN_DIR/summary.json"
	top_before_heading "$RUN_DIR/report.html" 'class="diag">diagnostic run: profiling/lock statistics were on; not scored'
}

@test "a cached run that missed the cache is warned about at the top" {
	# 100000 hits, 5264 reads: 95.0 %
	sed -i 's/"blks_read": 12,/"blks_read": 5264,/' "$RUN_DIR/run.json"
	OLTPMARK_GNUPLOT=/nonexistent/gnuplot run --separate-stderr \
		"$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	local want="cached run with buffer hit ratio 95.0 %: the database did not fit or was not pre-warmed"
	[ "$(sed -n 2p <<<"$output")" = "WARNING: $want" ]
	grep -qF "\"$want\"" "$RUN_DIR/summary.json"
	grep -q '"buffer_hit_ratio": 0.94999' "$RUN_DIR/summary.json"
	top_before_heading "$RUN_DIR/report.html" "class=\"warn\">Warning: $want"
}

@test "a non-cached run without its memory limit is warned about" {
	sed -i 's/"config": "cached"/"config": "noncached"/; s/"notes": {/"notes": {"noncached_enforced": "false", /' \
		"$RUN_DIR/meta.json"
	OLTPMARK_GNUPLOT=/nonexistent/gnuplot run --separate-stderr \
		"$OLTPMARK" report "$RUN_DIR"
	[ "$status" -eq 0 ]
	local want="non-cached run without a memory limit: reads may have come from the page cache"
	[[ $output == *"WARNING: $want"* ]]
	grep -qF "\"$want\"" "$RUN_DIR/summary.json"
	top_before_heading "$RUN_DIR/report.html" "class=\"warn\">Warning: $want"
	# enforced: no warning
	sed -i 's/"noncached_enforced": "false"/"noncached_enforced": "true"/' "$RUN_DIR/meta.json"
	run --separate-stderr "$OLTPMARK" report --no-plots "$RUN_DIR"
	[ "$status" -eq 0 ]
	[[ $output != *"WARNING"* ]]
	grep -q '"warnings": \[\]' "$RUN_DIR/summary.json"
}
