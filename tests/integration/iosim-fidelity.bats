#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fidelity check of `oltpmark report` on an iosim run, end to end
# (docs/iosim.md, "The check in oltpmark report"): `oltpmark calibrate`
# on a throwaway server loaded with one warehouse writes a 1.1 profile
# (the mix's commits and WAL bytes); a 12 s replay with the diskstats
# hook around it, as run/oltpmark-run takes its snapshots, is reported
# with the calibration's and the replay's I/O per committed transaction
# side by side, and the WAL bytes per commit; a replay of the same
# profile without the 1.1 keys gets one line saying so. The tests share
# the profile and the files and run in file order.

load helpers

setup_file() {
	pg_throwaway_start_w1
	# a disk's file system when /var/tmp is one: its device is then in
	# /proc/diskstats, on both sides
	IOSIM_DIR=$(mktemp -d /var/tmp/oltpmark-fidelity.XXXXXX)
	export IOSIM_DIR
	export PROFILE=$IOSIM_DIR/profile.json
}

teardown_file() {
	pg_throwaway_stop
	if [[ -n ${IOSIM_DIR:-} && -d $IOSIM_DIR ]]; then
		rm -rf -- "$IOSIM_DIR"
	fi
}

# replay NAME PROFILE SECONDS: an iosim run into IOSIM_DIR/NAME with the
# diskstats hook's snapshots around it, then its report.
replay() {
	local dir=$IOSIM_DIR/$1

	mkdir -p "$dir/sys"
	"$REPO/run/hooks/diskstats" start "$dir/sys"
	run "$OLTPMARK" run --driver iosim --profile "$2" \
		--data-dir "$IOSIM_DIR/data" -w 1 -d "$3" --ramp-up 1 \
		--keying-think none -c 4 --progress 0 --out "$dir"
	echo "$output"
	"$REPO/run/hooks/diskstats" stop "$dir/sys"
	[ "$status" -eq 0 ]
	run "$OLTPMARK" report "$dir"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "calibrate records the mix's commits and WAL bytes; the replay is compared with them" {
	run "$OLTPMARK" calibrate --conninfo "$OLTPMARK_CONNINFO" \
		--profile "$PROFILE" --out "$IOSIM_DIR/calibration" \
		--phase 2 -d 10 --keying-think none -c 4 --config cached
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_eval "$PROFILE" "d['format']")" = oltpmark-ioprofile/1.1 ]
	[ "$(json_eval "$PROFILE" "d['mix_commits'] > 0")" = True ]
	[ "$(json_eval "$PROFILE" "d['background']['wal_bytes_per_s'] > 0")" = True ]
	# the engine's commits of the calibration run
	[ "$(json_eval "$PROFILE" "d['mix_commits']")" = \
		"$(json_eval "$IOSIM_DIR/calibration/run.json" \
			"sum(c['ok'] for c in d['counts'].values())")" ]
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$IOSIM_DIR/data"
	[ "$status" -eq 0 ]

	replay replay "$PROFILE" 12
	[[ $output == *"Fidelity to the calibration (iosim, profile fnv1a64:"* ]]
	s=$IOSIM_DIR/replay/summary.json
	[ "$(json_eval "$s" "d['fidelity']['why']")" = None ]
	[ "$(json_eval "$s" "d['fidelity']['replay_commits'] > 0")" = True ]
	# the WAL: both sides, a ratio and its line
	[ "$(json_eval "$s" "d['fidelity']['wal']['ratio'] > 0")" = True ]
	[[ $output =~ "WAL bytes per commit: the calibration's "[0-9]+", this run's "[0-9]+", ratio "[0-9.]+ ]]
	# the devices: every one the calibration recorded, with numbers
	ndev=$(json_eval "$PROFILE" "len(d['background']['devices'])")
	if ((ndev == 0)); then
		skip "the calibration saw no whole disk do I/O (no /sys/block here?)"
	fi
	[ "$(json_eval "$s" "d['fidelity']['devices_known']")" = True ]
	[ "$(json_eval "$s" "len(d['fidelity']['devices'])")" = "$ndev" ]
	# the same machine: every device matched, each with both sides
	[ "$(json_eval "$s" "d['fidelity']['not_matched']")" = "[]" ]
	[ "$(json_eval "$s" "all(v['replay']['reads'] >= 0 and v['calibration']['writes'] >= 0 for v in d['fidelity']['devices'])")" = True ]
	dev=$(json_eval "$PROFILE" "sorted(d['background']['devices'])[0]")
	[[ $output =~ "  $dev "+"reads "+[0-9.]+" ("[0-9.]+" KiB) "+[0-9.]+" ("[0-9.]+" KiB) " ]]
	[[ $output =~ "  $dev "+"writes "+[0-9.]+" ("[0-9.]+" KiB) " ]]
	grep -q 'id="fidelity"' "$IOSIM_DIR/replay/report.html" ||
		[ ! -f "$IOSIM_DIR/replay/report.html" ]
}

@test "a profile without the 1.1 keys: the replay runs, the report says so in one line" {
	[ -d "$IOSIM_DIR/data" ] || skip "no data directory (calibration failed)"
	old=$IOSIM_DIR/profile-1.0.json
	python3 - "$PROFILE" "$old" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["format"] = "oltpmark-ioprofile/1"
del d["mix_commits"]
del d["background"]["wal_bytes_per_s"]
json.dump(d, open(sys.argv[2], "w"))
PY
	replay old "$old" 3
	mapfile -t fid < <(sed -n '/^Fidelity to the calibration/,/^$/p' \
		"$IOSIM_DIR/old/summary.txt")
	printf '%s\n' "${fid[@]}"
	[ "${#fid[@]}" -eq 2 ]
	[[ ${fid[1]} == "  not compared: the I/O profile holds no figures per transaction of its calibration (a profile older than oltpmark-ioprofile/1.1): calibrate again to compare" ]]
	[[ $(json_eval "$IOSIM_DIR/old/summary.json" "d['fidelity']['why']") == *"older than oltpmark-ioprofile/1.1"* ]]
}
