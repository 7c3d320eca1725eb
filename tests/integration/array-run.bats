#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/oltpmark-run over a test array of loop devices (run/array): W=3
# loaded in the table and in the warehouse layout over three devices, the
# WAL on a fourth (--tablespace-dir, --layout, --wal-dir); before the run
# the run's database passes `oltpmark check` (C1-C12 in the warehouse
# layout, whose partitions the statements are routed through; C1-C4 in
# the table layout, where each relation is whole wherever it lies:
# tablespace.bats checks all twelve in both layouts) and every directory
# holds files, the run's writes reach every device, meta.json names each
# device, and at the end the directories given are empty again. An
# experiment killed outright during its load leaves its directories to
# --recover, which empties them. Bad values of the new options exit 2 with one line and
# make nothing. run/pg init --wal-dir on its own. The array is made once
# for the file and destroyed by the last test, which checks that no loop
# device or mount is left.
#
# The array needs root, loop devices and mkfs.ext4: the tests that use it
# skip with the reason otherwise; the bad-input tests run anywhere. Each
# experiment uses oltpmark-run's own private clusters under a temp dir,
# stopped by PID by oltpmark-run itself.
#
# The variables of setup_file reach the tests, which run in subshells;
# $stderr and $stderr_lines are set by bats' `run --separate-stderr`:
# what shellcheck cannot see.
# shellcheck disable=SC2030,SC2031,SC2154

bats_require_minimum_version 1.5.0

load helpers

RUN_ARRAY=$REPO/run/array
RUN_EXP=$REPO/run/oltpmark-run

setup_file() {
	local k

	ARR_TOP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-arrrun.XXXXXX")
	# the server's user, postgres, must pass through to the clusters
	chmod 755 "$ARR_TOP"
	ARR_SKIP=$(array_unavailable)
	export ARR_TOP ARR_SKIP
	[[ -z $ARR_SKIP ]] || return 0
	# d1..d3 the tablespaces', d4 the WAL's: 1 GiB each, room for a
	# W=3 template and its copy per device, and for the WAL of its load.
	if ! "$RUN_ARRAY" create --disks 4 --size 1G "$ARR_TOP/arr" \
		>"$ARR_TOP/create.out" 2>&1; then
		cat "$ARR_TOP/create.out" >&3
		return 1
	fi
	# The top of an ext4 filesystem holds lost+found: a directory of
	# its own on each device, empty as the options want it.
	for k in 1 2 3 4; do
		mkdir "$ARR_TOP/arr/d$k/pg"
	done
	make_probe_hook
}

teardown_file() {
	local c

	[[ -n ${ARR_TOP:-} && -d $ARR_TOP ]] || return 0
	for c in "$ARR_TOP"/*/.clusters/*/; do
		[[ ! -e $c/.oltpmark-cluster ]] || "$RUN_PG" stop "$c" >/dev/null 2>&1 || true
	done
	if [[ -e $ARR_TOP/arr/.oltpmark-array ]]; then
		"$RUN_ARRAY" destroy "$ARR_TOP/arr" >/dev/null 2>&1 || true
	fi
	rm -rf --one-file-system -- "$ARR_TOP"
}

# need_array: skip unless the array of setup_file exists.
need_array() {
	[[ -z $ARR_SKIP ]] || skip "$ARR_SKIP"
	[[ -e $ARR_TOP/arr/.oltpmark-array ]] || skip "the array was destroyed by an earlier test"
}

# make_probe_hook: a hook of the tests' own, in $ARR_TOP/hooks (given with
# --hooks-dir). start: `oltpmark check $ARR_CHECK` of the run's database
# (a copy of the template, as it starts), the number of files under each directory
# of $ARR_DIRS, then /proc/diskstats; stop: a CHECKPOINT, which writes
# the pages the run dirtied to their devices (a few seconds of run leave
# them in shared buffers), then /proc/diskstats again.
make_probe_hook() {
	mkdir -m 755 "$ARR_TOP/hooks"
	cat >"$ARR_TOP/hooks/devprobe" <<'EOF'
#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# devprobe: array-run.bats's probe of a run on the array (see there).
dir=$2
mkdir -p "$dir"
case $1 in
start)
	status=0
	"$OLTPMARK" check $ARR_CHECK --conninfo "$OLTPMARK_CONNINFO" >"$dir/devprobe.check" 2>&1 || status=$?
	echo "$status" >"$dir/devprobe.check-status"
	for d in $ARR_DIRS; do
		printf '%s %s\n' "$d" "$(find "$d" -type f | wc -l)"
	done >"$dir/devprobe.files"
	cat /proc/diskstats >"$dir/devprobe.start"
	;;
stop)
	"$PSQL" -XAtq -d "$OLTPMARK_CONNINFO" -c CHECKPOINT >"$dir/devprobe.checkpoint" 2>&1
	cat /proc/diskstats >"$dir/devprobe.stop"
	;;
esac
exit 0
EOF
	chmod 755 "$ARR_TOP/hooks/devprobe"
}

# disk K: the block device (loopN) of the array's disk dK.
disk() {
	local src

	src=$(findmnt -rn -o SOURCE --mountpoint "$ARR_TOP/arr/d$1")
	basename "$src"
}

# writes FILE DEV: writes completed on DEV in a copy of /proc/diskstats.
writes() {
	awk -v d="$2" '$3 == d { print $8 }' "$1"
}

# run_on_array LAYOUT [CHECK-OPTION]: one short cached run of W=3 in
# LAYOUT over d1..d3, the WAL on d4, results in $ARR_TOP/res-LAYOUT, the
# run's database checked with `oltpmark check CHECK-OPTION` before the
# run; then what it left.
run_on_array() {
	local layout=$1 res=$ARR_TOP/res-$1 rd k n dev before after
	local -a spread=()

	export ARR_CHECK=${2:-}
	for k in 1 2 3; do
		spread+=(--tablespace-dir "$ARR_TOP/arr/d$k/pg")
	done
	export ARR_DIRS="$ARR_TOP/arr/d1/pg $ARR_TOP/arr/d2/pg $ARR_TOP/arr/d3/pg $ARR_TOP/arr/d4/pg"
	run --separate-stderr "$RUN_EXP" --label "$layout" --configs cached \
		--runs 1 -w 3 -d 3 --ramp-up 1 "${PACE[@]}" --hooks devprobe \
		--hooks-dir "$ARR_TOP/hooks" "${spread[@]}" --layout "$layout" \
		--wal-dir "$ARR_TOP/arr/d4/pg" --results "$res"
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -q "loading 3 warehouses over 3 tablespace directories (layout $layout)" <<<"$stderr"
	rd=$res/$layout/cached/run-1

	# Before the run: the copy is consistent, and every directory holds
	# files (the tablespaces' relations, the WAL segments).
	cat "$rd/sys/devprobe.check"
	[ "$(cat "$rd/sys/devprobe.check-status")" = 0 ]
	cat "$rd/sys/devprobe.files"
	for k in 1 2 3 4; do
		n=$(awk -v d="$ARR_TOP/arr/d$k/pg" '$1 == d { print $2 }' "$rd/sys/devprobe.files")
		[ "${n:-0}" -gt 0 ]
	done

	# The run (and the checkpoint of its dirty pages) wrote on every
	# device.
	for k in 1 2 3 4; do
		dev=$(disk "$k")
		before=$(writes "$rd/sys/devprobe.start" "$dev")
		after=$(writes "$rd/sys/devprobe.stop" "$dev")
		echo "d$k $dev writes $before -> $after"
		[ "$after" -gt "$before" ]
	done

	# meta.json: the layout, each tablespace on its own device, the WAL
	# on d4's.
	python3 - "$rd/meta.json" "$layout" "$(disk 1)" "$(disk 2)" "$(disk 3)" "$(disk 4)" <<'EOF'
import json, sys
meta, layout, disks = sys.argv[1], sys.argv[2], sys.argv[3:]
lay = json.load(open(meta))["server"]["layout"]
assert lay["layout"] == layout, lay["layout"]
spcs = lay["tablespaces"]
assert [s["name"] for s in spcs] == ["oltpmark_ts1", "oltpmark_ts2", "oltpmark_ts3"], spcs
for s, d in zip(spcs, disks[:3]):
    assert s["device"]["disk"] == d and s["device"]["kind"] == "loop", (s, d)
    assert s["bytes"] > 0 and s["relations"], s
assert lay["wal"]["device"]["disk"] == disks[3], lay["wal"]
assert lay["wal"]["directory"].endswith("/d4/pg/oltpmark-cached"), lay["wal"]
# the data directory, which holds none of the tables, named apart
assert lay["data_directory"]["directory"] == json.load(open(meta))["server"]["data_directory"]
assert "device" in lay["data_directory"] or "device_error" in lay["data_directory"]
# summary.json's devices: each array device in its role, the data
# directory's device besides (when it is known)
devs = json.load(open(meta.replace("meta.json", "summary.json")))["devices"]["devices"]
roles = {d["name"]: (d["role"], d["holds"]) for d in devs}
for k, d in enumerate(disks[:3]):
    assert roles[d] == ("data", "oltpmark_ts%d" % (k + 1)), roles
assert roles[disks[3]] == ("WAL", "pg_wal"), roles
dd = lay["data_directory"].get("device")
if dd and dd.get("disk"):
    assert roles[dd["disk"]][1].endswith("data directory"), roles
EOF

	# Afterwards the directories are as given, empty; nothing is left
	# of the cluster, the state file or a process.
	for k in 1 2 3 4; do
		[ -d "$ARR_TOP/arr/d$k/pg" ]
		[ -z "$(ls -A "$ARR_TOP/arr/d$k/pg")" ]
	done
	[ ! -e "$res/.clusters/cached-devices" ]
	[ ! -e "$res/.oltpmark-run.state" ]
	run leftover_processes "$res"
	echo "left behind: $output"
	[ -z "$output" ]
}

@test "W=3 in the table layout over three devices, the WAL on a fourth" {
	need_array
	run_on_array table --quick
}

@test "W=3 in the warehouse layout over three devices, the WAL on a fourth" {
	need_array
	run_on_array warehouse
}

@test "--recover removes what a killed experiment made on the devices" {
	need_array
	local res=$ARR_TOP/res-kill pid k
	local -a spread=()

	for k in 1 2 3; do
		spread+=(--tablespace-dir "$ARR_TOP/arr/d$k/pg")
	done
	"$RUN_EXP" --label kill --configs cached --runs 1 -w 2 -d 60 \
		--ramp-up 1 --hooks none "${spread[@]}" \
		--wal-dir "$ARR_TOP/arr/d4/pg" --results "$res" \
		>"$ARR_TOP/kill.out" 2>&1 &
	pid=$!
	# killed in the middle of its load: the loader (the state's child),
	# the server and the directories are all there
	wait_for 120 grep -q "loading 2 warehouses" "$ARR_TOP/kill.out"
	wait_for 60 grep -q "^child	[0-9]" "$res/.oltpmark-run.state"
	cat "$ARR_TOP/kill.out"
	grep -q "^created	$ARR_TOP/arr/d1/pg/oltpmark-cached\$" "$res/.oltpmark-run.state"
	grep -q "^created	$ARR_TOP/arr/d4/pg/oltpmark-cached\$" "$res/.oltpmark-run.state"
	kill -KILL "$pid"
	wait "$pid" || true
	# what it made is still there
	[ -n "$(ls -A "$ARR_TOP/arr/d1/pg")" ]

	run --separate-stderr "$RUN_EXP" --recover --results "$res"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ $stderr == *"recover: removed what it had made for its clusters on the devices"* ]]
	for k in 1 2 3 4; do
		[ -z "$(ls -A "$ARR_TOP/arr/d$k/pg")" ]
	done
	[ ! -e "$res/.clusters/cached-devices" ]
	[ ! -e "$res/.oltpmark-run.state" ]
	run leftover_processes "$res"
	echo "left behind: $output"
	[ -z "$output" ]
}

# expect_refused ARGS...: run/oltpmark-run ARGS exits 2 with one line on
# stderr and nothing made under $T (the results directory included).
expect_refused() {
	local before after

	before=$(dir_snapshot "$T")
	run --separate-stderr "$RUN_EXP" --results "$T/res" --configs cached "$@"
	after=$(dir_snapshot "$T")
	echo "args: $* status: $status stderr: $stderr"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "oltpmark-run: "* ]]
	[ "$before" = "$after" ]
}

@test "bad values of the device options exit 2 with one line and make nothing" {
	# under $ARR_TOP (removed by teardown_file, whatever fails here),
	# which the server's user, postgres, may pass through
	T=$ARR_TOP/bad
	mkdir -m 755 "$T"
	mkdir "$T/a" "$T/b" "$T/w" "$T/full"
	touch "$T/full/x" "$T/file"
	ln -s a "$T/alink"

	expect_refused --tablespace-dir "$T/missing"
	[[ $stderr == *"'$T/missing' does not exist" ]]
	expect_refused --tablespace-dir "$T/file"
	[[ $stderr == *"is not a directory" ]]
	expect_refused --tablespace-dir "$T/full"
	[[ $stderr == *"'$T/full' is not empty" ]]
	expect_refused --tablespace-dir "$T/a" --tablespace-dir "$T/alink" --allow-shared-device
	[[ $stderr == *"given twice"* ]]
	# two directories of one filesystem
	expect_refused --tablespace-dir "$T/a" --tablespace-dir "$T/b"
	[[ $stderr == *"are on the same device"*"--allow-shared-device" ]]
	expect_refused -w 1 --layout warehouse --allow-shared-device \
		--tablespace-dir "$T/a" --tablespace-dir "$T/b"
	[[ $stderr == *"2 tablespace directories for 1 warehouse"* ]]
	expect_refused --tablespace-dir "$T/a" --layout rows
	expect_refused --layout table
	[[ $stderr == *"--layout needs --tablespace-dir" ]]
	expect_refused --allow-shared-device
	expect_refused --wal-dir "$T/missing"
	expect_refused --wal-dir "$T/full"
	[[ $stderr == *"is not empty" ]]
	expect_refused --wal-dir "$T/file"
	expect_refused --tablespace-dir "$T/a" --wal-dir "$T/alink" --allow-shared-device
	[[ $stderr == *"is also a --tablespace-dir"* ]]
	expect_refused --tablespace-dir "$T/a" --wal-dir "$T/w"
	[[ $stderr == *"--wal-dir: directories '$T/a' and '$T/w' are on the same device"* ]]
	# an existing server: its WAL cannot be moved, and nothing is loaded
	expect_refused --wal-dir "$T/w" --conninfo "dbname=none"
	[[ $stderr == *"--wal-dir"*"refused with --conninfo"* ]]
	expect_refused --tablespace-dir "$T/a" --conninfo "dbname=none"
	expect_refused --tablespace-dir
	rm -rf -- "$T"
}

@test "run/pg init --wal-dir puts the WAL there; a WAL directory in use is refused" {
	# under $ARR_TOP, removed by teardown_file whatever fails here
	local dir=$ARR_TOP/pgwal
	mkdir -m 755 "$dir"
	mkdir "$dir/walparent"
	run "$RUN_PG" init "$dir/c" --wal-dir "$dir/walparent/wal"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(readlink "$dir/c/data/pg_wal")" = "$dir/walparent/wal" ]
	# the first WAL segment
	[ -f "$dir/walparent/wal/000000010000000000000001" ]
	grep -qx "wal_dir=$dir/walparent/wal" "$dir/c/.oltpmark-cluster"
	# the same WAL directory again: not empty; nothing is made
	run "$RUN_PG" init "$dir/c2" --wal-dir "$dir/walparent/wal"
	[ "$status" -eq 2 ]
	[[ $output == *"the WAL directory is not empty" ]]
	[ ! -e "$dir/c2" ]
	# the cluster, with another WAL directory
	run "$RUN_PG" init "$dir/c" --wal-dir "$dir/walparent/other"
	[ "$status" -eq 2 ]
	[ ! -e "$dir/walparent/other" ]
	rm -rf -- "$dir"
}

@test "run/array destroy leaves no loop device and no mount" {
	need_array
	run "$RUN_ARRAY" destroy "$ARR_TOP/arr"
	echo "$output"
	[ "$status" -eq 0 ]
	run bash -c "losetup --list --noheadings --output BACK-FILE | grep -F '$ARR_TOP/'"
	[ -z "$output" ]
	run bash -c "findmnt -rn -o TARGET | grep -F '$ARR_TOP/'"
	[ -z "$output" ]
	[ ! -e "$ARR_TOP/arr" ]
}
