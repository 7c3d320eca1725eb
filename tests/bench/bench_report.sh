#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench_report.sh - how fast `oltpmark report` reads mix.csv, and that its
# memory does not grow with the row count.
#
# Generates two synthetic run directories with awk, 10 million and 1
# million rows spread over the same 600 s (so the per-10-s time series is
# the same size and only the row count differs), runs `oltpmark report
# --no-plots` on each under GNU time, and prints the CSV bytes parsed per
# second of the whole command (two passes over the file, JSON and CSV
# output included: a lower bound of the parser's speed) and the maximum
# resident set size, and says so when the big file goes slower than the
# 50 MB/s target or its maximum RSS exceeds the small one's by more than
# 25 % + 4 MiB. Like every benchmark it prints figures and exits non-zero
# only when it could not run.
#
# Environment: OLTPMARK (binary, default ./oltpmark at the top),
# BENCH_REPORT_ROWS (rows of the big file, default 10000000; the small
# file has a tenth), TMPDIR (where the files go: about 40 bytes a row).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
OLTPMARK=${OLTPMARK:-$top/oltpmark}
rows_big=${BENCH_REPORT_ROWS:-10000000}
rows_small=$((rows_big / 10))
target_mb_s=50

if [[ ! -x /usr/bin/time ]]; then
	echo "bench_report: skipped: GNU time (/usr/bin/time, Debian package time) not installed"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bench_report.XXXXXX")
trap 'rm -rf -- "$work"' EXIT

# make_run DIR ROWS: a run directory whose mix.csv holds ROWS rows over
# 600 s (60 s ramp-up, 540 s measured) in the TPC-C deck's proportions.
make_run() {
	local dir=$1 rows=$2

	mkdir -p "$dir"
	awk -v n="$rows" 'BEGIN {
		split("new_order payment new_order payment new_order payment " \
		      "new_order payment new_order payment order_status " \
		      "new_order payment new_order payment new_order payment " \
		      "new_order payment new_order payment delivery stock_level",
		      deck, " ")
		print "t_ms,terminal,type,status,response_us,service_us"
		for (i = 0; i < n; i++) {
			type = deck[i % 23 + 1]
			status = "ok"
			if (type == "new_order" && i % 997 == 0)
				status = "rollback"
			else if (i % 4999 == 0)
				status = "error"
			resp = 800 + (i * 7919) % 40000
			if (type == "delivery")
				resp = resp * 20
			printf "%d,%d,%s,%s,%d,%d\n", int(i * 600000 / n), \
				i % 400, type, status, resp, int(resp * 0.8)
		}
	}' >"$dir/mix.csv"
	cat >"$dir/run.json" <<-JSON
		{"format": "oltpmark-run/1", "partial": false,
		 "end_reason": "completed", "ramp_up_s": 60, "duration_s": 540,
		 "elapsed_s": 600.0, "warehouses": 40, "terminals": 400,
		 "connections": 8}
	JSON
}

# measure DIR: print "seconds maxrss_kb" of one report --no-plots.
measure() {
	local dir=$1

	/usr/bin/time -f '%e %M' -o "$work/time.txt" \
		"$OLTPMARK" report --no-plots "$dir" >/dev/null
	cat "$work/time.txt"
}

make_run "$work/big" "$rows_big"
make_run "$work/small" "$rows_small"
declare -A rss
for which in small big; do
	dir=$work/$which
	bytes=$(stat -c %s "$dir/mix.csv")
	# a first run warms the page cache: disk speed is not measured
	measure "$dir" >/dev/null
	read -r secs kb < <(measure "$dir")
	rss[$which]=$kb
	awk -v rows="$(($(wc -l <"$dir/mix.csv") - 1))" -v b="$bytes" \
		-v s="$secs" -v kb="$kb" -v t="$target_mb_s" 'BEGIN {
		mb = b / 1e6
		rate = s > 0 ? mb / s : 0
		printf "bench_report: %d rows, %.1f MB: %.2f s, %.1f MB/s of CSV (target %d), max RSS %.1f MiB\n",
			rows, mb, s, rate, t, kb / 1024
	}'
	if [[ $which == big ]] &&
		! awk -v b="$bytes" -v s="$secs" -v t="$target_mb_s" \
			'BEGIN { exit !(s > 0 && b / 1e6 / s >= t) }'; then
		echo "bench_report: BELOW TARGET: under $target_mb_s MB/s"
	fi
done
if awk -v a="${rss[small]}" -v b="${rss[big]}" \
	'BEGIN { exit !(b <= a * 1.25 + 4096) }'; then
	echo "bench_report: max RSS ${rss[big]} KiB at $rows_big rows vs ${rss[small]} KiB at $rows_small rows: does not grow with the rows"
else
	echo "bench_report: BELOW TARGET: max RSS grows with the rows (${rss[small]} KiB -> ${rss[big]} KiB)"
fi
