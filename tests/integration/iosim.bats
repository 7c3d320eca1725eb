#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of the iosim driver end to end (docs/iosim.md): `oltpmark
# calibrate` on a throwaway server loaded with one warehouse writes an I/O
# profile; `oltpmark iosim-prepare` makes the files; a 15 s iosim run in
# buffered and in direct mode writes a run directory like pgsql's, whose
# mix.csv agrees with summary.json and whose run.json names the driver and
# the profile's checksum; bad profiles and data directories are refused
# with one line and exit 2. The tests share the profile and the files and
# run in file order.

load helpers

setup_file() {
	pg_throwaway_start_w1
	# the files go to a disk's file system when /var/tmp is one, so that
	# O_DIRECT is possible (tmpfs refuses it before Linux 6.6)
	IOSIM_DIR=$(mktemp -d /var/tmp/oltpmark-iosim.XXXXXX)
	export IOSIM_DIR
	export PROFILE=$IOSIM_DIR/profile.json
}

teardown_file() {
	pg_throwaway_stop
	if [[ -n ${IOSIM_DIR:-} && -d $IOSIM_DIR ]]; then
		rm -rf -- "$IOSIM_DIR"
	fi
}

# assert_mix_matches_summary DIR: the rows of mix.csv inside summary.json's
# window are its per-type counts, and every row is in run.json's counts.
assert_mix_matches_summary() {
	python3 - "$1" <<'PY'
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
run = json.load(open(d + "/run.json"))
lo, hi = s["window"]["start_s"] * 1000, s["window"]["end_s"] * 1000
inwin, total = {}, {}
with open(d + "/mix.csv") as f:
    for r in csv.DictReader(f):
        k = (r["type"], r["status"])
        total[k] = total.get(k, 0) + 1
        if lo <= int(r["t_ms"]) < hi:
            inwin[k] = inwin.get(k, 0) + 1
for t, c in s["types"].items():
    for st in ("ok", "rollback", "error"):
        if inwin.get((t, st), 0) != c[st]:
            sys.exit("%s %s: mix.csv %d in window, summary.json %d" % (t, st, inwin.get((t, st), 0), c[st]))
for t, c in run["counts"].items():
    for st in ("ok", "rollback", "error"):
        if total.get((t, st), 0) != c[st]:
            sys.exit("%s %s: mix.csv %d, run.json %d" % (t, st, total.get((t, st), 0), c[st]))
if sum(inwin.values()) == 0:
    sys.exit("no transaction in the window")
PY
}

# iosim_run NAME MODE [ARGS...]: a 15 s iosim run into IOSIM_DIR/NAME.
iosim_run() {
	local name=$1 mode=$2

	shift 2
	run "$OLTPMARK" run --driver iosim --profile "$PROFILE" \
		--data-dir "$IOSIM_DIR/data" --io-mode "$mode" -w 1 -d 15 \
		--ramp-up 2 --keying-think none -c 4 --progress 0 \
		--out "$IOSIM_DIR/$name" "$@"
}

@test "calibrate writes a profile of every type from a W = 1 run" {
	run "$OLTPMARK" calibrate --conninfo "$OLTPMARK_CONNINFO" \
		--profile "$PROFILE" --out "$IOSIM_DIR/calibration" \
		--phase 2 -d 10 --keying-think none -c 4 --config cached
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_eval "$PROFILE" "d['format']")" = oltpmark-ioprofile/1.1 ]
	[ "$(json_eval "$PROFILE" "d['warehouses']")" = 1 ]
	[ "$(json_eval "$PROFILE" "d['config']")" = cached ]
	# every type was called, New-Order wrote WAL, STOCK has its 100000 rows
	[ "$(json_eval "$PROFILE" "min(t['calls'] for t in d['transactions'].values()) > 0")" = True ]
	[ "$(json_eval "$PROFILE" "d['transactions']['new_order']['wal_bytes'] > 0")" = True ]
	[ "$(json_eval "$PROFILE" "abs(sum(d['transactions']['new_order']['read_share'].values()) - 1) < 0.01")" = True ]
	[ "$(json_eval "$PROFILE" "90000 < d['relations']['stock']['pages'] * d['relations']['stock']['rows_per_page'] < 110000")" = True ]
	# the mixed run is a run directory of its own
	[ "$(json_eval "$IOSIM_DIR/calibration/run.json" "d['driver']")" = pgsql ]
}

@test "iosim-prepare makes the files once" {
	[ -f "$PROFILE" ] || skip "no profile (the calibration failed)"
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$IOSIM_DIR/data"
	[ "$status" -eq 0 ]
	[ -f "$IOSIM_DIR/data/stock" ]
	[ -f "$IOSIM_DIR/data/wal" ]
	pages=$(json_eval "$PROFILE" "d['relations']['stock']['pages']")
	(($(stat -c %s "$IOSIM_DIR/data/stock") >= pages * 8192))
	before=$(stat -c %Y "$IOSIM_DIR/data/stock")
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$IOSIM_DIR/data"
	[ "$status" -eq 0 ]
	[ "$(stat -c %Y "$IOSIM_DIR/data/stock")" = "$before" ]
}

@test "a 15 s buffered iosim run writes a run directory like pgsql's" {
	[ -d "$IOSIM_DIR/data" ] || skip "no data directory (prepare failed)"
	iosim_run buffered buffered
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"simulated"* ]]
	d=$IOSIM_DIR/buffered
	[ "$(json_eval "$d/run.json" "d['driver']")" = iosim ]
	[ "$(json_eval "$d/run.json" "d['profile_checksum']")" = \
		"$(json_eval "$d/meta.json" "d['server']['io_profile']['checksum']")" ]
	[[ $(json_eval "$d/run.json" "d['profile_checksum']") == fnv1a64:* ]]
	[ "$(json_eval "$d/meta.json" "d['server']['io_mode']")" = buffered ]
	[ "$(json_eval "$d/run.json" "d['counts']['new_order']['ok'] > 0")" = True ]
	assert_mix_matches_summary "$d"
}

@test "a 15 s direct (O_DIRECT) iosim run" {
	[ -d "$IOSIM_DIR/data" ] || skip "no data directory (prepare failed)"
	iosim_run direct direct
	echo "$output"
	if [[ $status -eq 2 && $output == *"refuses O_DIRECT"* ]]; then
		skip "the file system of /var/tmp refuses O_DIRECT"
	fi
	[ "$status" -eq 0 ]
	d=$IOSIM_DIR/direct
	[ "$(json_eval "$d/meta.json" "d['server']['io_mode']")" = direct ]
	assert_mix_matches_summary "$d"
}

@test "bad profiles and data directories: one line, exit 2, nothing written" {
	[ -d "$IOSIM_DIR/data" ] || skip "no data directory (prepare failed)"
	fx=$BATS_TEST_DIRNAME/../fixtures
	# missing, truncated, of another version
	for p in "$IOSIM_DIR/no-such.json" "$fx/ioprofile-truncated.json" \
		"$fx/ioprofile-wrong-version.json"; do
		PROFILE=$p iosim_run bad buffered
		echo "$p: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[ ! -e "$IOSIM_DIR/bad" ]
		run "$OLTPMARK" iosim-prepare --profile "$p" --data-dir "$IOSIM_DIR/bad"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
	done
	# more warehouses than the profile
	iosim_run bad buffered -w 2
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"the I/O profile 1"* ]]
	# a profile for more warehouses than the files hold
	python3 - "$PROFILE" "$IOSIM_DIR/w2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["warehouses"] = 2
for r in d["relations"].values():
    r["pages"] *= 2
json.dump(d, open(sys.argv[2], "w"))
PY
	PROFILE=$IOSIM_DIR/w2.json iosim_run bad buffered
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"prepared for a smaller profile"* ]]
	# a data directory never prepared
	run "$OLTPMARK" run --driver iosim --profile "$PROFILE" \
		--data-dir "$IOSIM_DIR/empty" -w 1 -d 5 --out "$IOSIM_DIR/bad"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"not prepared"* ]]
	# iosim without its options; the options without iosim
	run "$OLTPMARK" run --driver iosim -w 1 -d 5 --out "$IOSIM_DIR/bad"
	[ "$status" -eq 2 ]
	run "$OLTPMARK" run --profile "$PROFILE" -w 1 -d 5 --out "$IOSIM_DIR/bad"
	[ "$status" -eq 2 ]
	[ ! -e "$IOSIM_DIR/bad" ]
}

@test "iosim-prepare refuses a read-only directory with one line" {
	[ -f "$PROFILE" ] || skip "no profile (the calibration failed)"
	if [[ $(id -u) -eq 0 ]]; then
		skip "root writes into a read-only directory"
	fi
	mkdir -p "$IOSIM_DIR/ro"
	chmod 0555 "$IOSIM_DIR/ro"
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$IOSIM_DIR/ro/d"
	chmod 0755 "$IOSIM_DIR/ro"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "report says simulated NOTPM; compare scores iosim runs alone and refuses them beside pgsql runs" {
	[ -f "$IOSIM_DIR/buffered/summary.json" ] || skip "no iosim run"
	grep -q "simulated NOTPM" "$IOSIM_DIR/buffered/summary.txt"
	mkdir -p "$IOSIM_DIR/sim" "$IOSIM_DIR/mixed"
	cp -r "$IOSIM_DIR/buffered" "$IOSIM_DIR/sim/a"
	run "$OLTPMARK" compare "$IOSIM_DIR/sim"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"simulated NOTPM"* ]]
	# a real run beside it
	run "$OLTPMARK" run -w 1 -d 5 --ramp-up 1 --keying-think none -c 2 \
		--progress 0 --conninfo "$OLTPMARK_CONNINFO" \
		--out "$IOSIM_DIR/mixed/pgsql"
	[ "$status" -eq 0 ]
	cp -r "$IOSIM_DIR/buffered" "$IOSIM_DIR/mixed/iosim"
	run "$OLTPMARK" compare "$IOSIM_DIR/mixed"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"different drivers"* ]]
}
