#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# faults.bats: what oltpmark does when the world misbehaves, each fault
# injected for real against a throwaway server of this file:
# - the result directory's file system fills up (a small tmpfs, root
#   only): during a run, during `report`, during `compare`;
# - run/oltpmark-run killed with SIGKILL in the middle of a non-cached run
#   with a variant applied: --recover, or the next invocation, undoes
#   exactly what it recorded and nothing else;
# - the server crashes mid-run (one backend killed with SIGKILL, which
#   makes the postmaster restart them all through crash recovery);
# - a hook that hangs and one that exits non-zero.
# The tests share one loaded database and run in file order.

load helpers

# The run directories the report and compare tests (the last two of
# the file) fill their disks under: null-driver runs of 32 s (3 whole
# 10-s intervals: enough for the steady-state fit, so the report writes
# every file it can), made once in the background by setup_file while
# the other tests run, as NULL_RUNS/NAME, each with NAME.status beside it
# when it has ended.
# null_runs_start: start them all at once; they need no server.
null_runs_start() {
	local l r

	mkdir -p "$NULL_RUNS"
	# fd 3 closed: bats waits for whatever holds it open.
	{
		"$OLTPMARK" run --driver null -w 1 -d 32 --ramp-up 0 \
			--keying-think scale=0.01 --progress 0 \
			--out "$NULL_RUNS/one" 2>/dev/null
		echo $? >"$NULL_RUNS/one.status"
	} 3>&- &
	for l in a b; do
		mkdir -p "$NULL_RUNS/set/$l/cached"
		for r in 1 2; do
			{
				"$OLTPMARK" run --driver null -w 1 -d 32 --ramp-up 0 \
					--keying-think scale=0.01 --progress 0 --seed "$r" \
					--label "$l" --config cached \
					--out "$NULL_RUNS/set/$l/cached/run-$r" 2>/dev/null
				echo $? >"$NULL_RUNS/set-$l-$r.status"
			} 3>&- &
		done
	done
}

# null_runs_wait NAME...: wait until the runs NAME (one, set-a-1, ...) have
# ended (at most 5 minutes), and fail unless each exited 0.
null_runs_wait() {
	local n i

	for n in "$@"; do
		for ((i = 0; i < 3000; i++)); do
			[[ -s $NULL_RUNS/$n.status ]] && break
			sleep 0.1
		done
		echo "null run $n: exit status $(cat "$NULL_RUNS/$n.status")"
		[ "$(cat "$NULL_RUNS/$n.status")" = 0 ]
	done
}

setup_file() {
	# Run directories and private clusters: somewhere the server's user
	# (postgres, when the tests run as root) can enter.
	FAULTS_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-faults.XXXXXX")
	chmod 755 "$FAULTS_DIR"
	export FAULTS_DIR NULL_RUNS=$FAULTS_DIR/null-runs
	null_runs_start
	pg_throwaway_start_w1
}

teardown_file() {
	local c
	# The null runs end by themselves within their 32 s.
	null_runs_wait one set-a-1 set-a-2 set-b-1 set-b-2 >/dev/null 2>&1 || true
	for c in "$FAULTS_DIR"/*/.clusters/*/; do
		[[ -e $c/.oltpmark-cluster ]] && "$RUN_PG" stop "$c" >/dev/null 2>&1
	done
	rm -rf -- "$FAULTS_DIR"
	pg_throwaway_stop
}

# Each test unmounts what it mounted and removes the cgroups it made,
# whatever happened.
teardown() {
	local m
	if [[ -f $BATS_TEST_TMPDIR/mounts ]]; then
		while read -r m; do
			umount "$m" && rmdir "$m"
		done <"$BATS_TEST_TMPDIR/mounts"
	fi
	if [[ -f $BATS_TEST_TMPDIR/cgroups ]]; then
		while read -r m; do
			[[ ! -d $m ]] || rmdir "$m"
		done <"$BATS_TEST_TMPDIR/cgroups"
	fi
}

# small_fs SIZE: print a new directory with a tmpfs of SIZE mounted on it;
# skip the test when that cannot be done here.
small_fs() {
	local m
	[[ $(id -u) -eq 0 ]] || skip "needs root to mount a small tmpfs"
	m=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-full.XXXXXX")
	if ! mount -t tmpfs -o "size=$1,mode=755" oltpmark-test "$m"; then
		rmdir "$m"
		skip "cannot mount a tmpfs here"
	fi
	echo "$m" >>"$BATS_TEST_TMPDIR/mounts"
	echo "$m"
}

# fill FS [KIB_LEFT]: take all the free space of the file system FS but
# KIB_LEFT KiB (default 0), with a file FS/filler.
fill() {
	local avail
	avail=$(df --output=avail -k "$1" | tail -n 1)
	if ((${2:-0} == 0)); then
		dd if=/dev/zero of="$1/filler" bs=64k 2>/dev/null || true
	else
		dd if=/dev/zero of="$1/filler" bs=1k count=$((avail - $2)) 2>/dev/null
	fi
}

# assert_whole_mix DIR: DIR/mix.csv is its header and whole rows only,
# as many as run.json's mix_rows.
assert_whole_mix() {
	[ "$(head -n 1 "$1/mix.csv")" = "t_ms,terminal,type,status,response_us,service_us" ]
	awk -F, 'NR > 1 && !(NF == 6 && $1 ~ /^[0-9]+$/ && $6 ~ /^[0-9]+$/) { bad++ }
		END { exit bad > 0 }' "$1/mix.csv"
	[ -z "$(tail -c 1 "$1/mix.csv")" ] # ends with a newline
	[ "$(($(wc -l <"$1/mix.csv") - 1))" -eq "$(json_eval "$1/run.json" "d['mix_rows']")" ]
}

# assert_readable_by_report DIR: a copy of DIR's files on a roomy disk
# gets a report.
assert_readable_by_report() {
	local copy=$BATS_TEST_TMPDIR/copy
	rm -rf "$copy"
	cp -r "$1" "$copy"
	rm -f "$copy/filler"
	run "$OLTPMARK" report --no-plots "$copy"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"PARTIAL RUN"* ]]
}

# new_files DIR MARK: the regular files under DIR newer than file MARK.
new_files() {
	find "$1" -type f -newer "$2" ! -name filler -printf '%P\n' | sort
}

# assert_whole_or_absent DIR REF MARK: every file written under DIR since
# MARK is whole: the same bytes as the file of that name under REF (the
# output of the same command on a disk with room); none is a temporary.
assert_whole_or_absent() {
	local f bad=0
	while IFS= read -r f; do
		if [[ $f == *.tmp || ! -f $3/$f ]] || ! cmp -s "$1/$f" "$3/$f"; then
			echo "half-written or unexpected: $f ($(stat -c %s "$1/$f") bytes)"
			bad=1
		fi
	done < <(new_files "$1" "$2")
	((bad == 0))
}

@test "a file system filled by mix.csv: exit 1, partial, whole rows kept, readable by report" {
	local fs dir
	fs=$(small_fs 2M)
	dir=$fs/run
	# The null driver writes rows fast enough to fill 2 MiB mid-run.
	run "$OLTPMARK" run --driver null -w 1 -d 60 --ramp-up 0 \
		--keying-think none --progress 1 --out "$dir"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"cannot write $dir/mix.csv: No space left on device"* ]]
	[ "$(json_eval "$dir/run.json" "d['partial']")" = True ]
	[ "$(json_eval "$dir/run.json" "d['end_reason']")" = error ]
	[[ $(json_eval "$dir/run.json" "d['error']") == *"mix.csv: No space left on device"* ]]
	[ "$(json_eval "$dir/meta.json" "d['format']")" = oltpmark-meta/1 ]
	[ "$(json_eval "$dir/summary.json" "d['partial']")" = True ]
	assert_whole_mix "$dir"
	[ "$(json_eval "$dir/run.json" "d['mix_rows']")" -gt 1000 ]
	# nothing temporary left: no NAME.tmp, no reserve
	[ -z "$(find "$dir" -name '*.tmp' -o -name '.oltpmark-reserve')" ]
	assert_readable_by_report "$dir"
}

@test "a file system filled by another writer mid-run: the same, earlier files intact" {
	local fs dir pid status=0 sum log=$BATS_TEST_TMPDIR/run.log
	fs=$(small_fs 8M)
	dir=$fs/run
	# What the hooks wrote before the run, in sys/ as they do.
	mkdir -p "$dir/sys"
	seq 1 2000 >"$dir/sys/vmstat.txt"
	sum=$(sha256sum <"$dir/sys/vmstat.txt")
	"$OLTPMARK" run -w 1 -d 8 --ramp-up 0 "${PACE[@]}" --progress 1 \
		--conninfo "$OLTPMARK_CONNINFO" --out "$dir" >"$log" 2>&1 &
	pid=$!
	wait_for 60 grep -q NOTPM "$log"
	fill "$fs"
	wait "$pid" || status=$?
	cat "$log"
	[ "$status" -eq 1 ]
	grep -q "cannot write $dir/mix.csv: No space left on device" "$log"
	[[ $(json_eval "$dir/run.json" "d['error']") == *"$dir/mix.csv: No space left on device"* ]]
	[ "$(json_eval "$dir/run.json" "d['partial']")" = True ]
	[ "$(json_eval "$dir/meta.json" "d['format']")" = oltpmark-meta/1 ]
	[ "$(sha256sum <"$dir/sys/vmstat.txt")" = "$sum" ]
	assert_whole_mix "$dir"
	[ -z "$(find "$dir" -name '*.tmp' -o -name '.oltpmark-reserve')" ]
	assert_readable_by_report "$dir"
}

# state_field FILE KEY: the fields after KEY of FILE's first KEY record.
state_field() {
	awk -F'\t' -v OFS='\t' -v k="$2" '$1 == k { $1 = ""; sub(/^\t/, ""); print; exit }' "$1"
}

@test "oltpmark-run killed mid non-cached run with a variant: --recover undoes exactly what it recorded" {
	local res=$FAULTS_DIR/killed t=$FAULTS_DIR/variant-k pid i state
	local user_pm cg="" child pm root decoy=""
	mkdir -p "$t"
	cat >"$t/variant" <<EOF
#!/usr/bin/env bash
case "\$1" in
apply) : >"$t/applied" ;;
restore) rm -f "$t/applied" ;;
esac
echo "\$1" >>"$t/log"
EOF
	chmod 755 "$t/variant"
	# What is the user's: this file's own server, and (root) a cgroup
	# beside the one oltpmark-run will make.
	user_pm=$(head -n 1 "$PGTEST_DIR/data/postmaster.pid")
	if [[ $(id -u) -eq 0 ]] && root=$(. "$REPO/run/lib.sh" && om_cgroup_memory_root); then
		decoy=${root#* }/oltpmark-decoy-$$
		echo "$decoy" >>"$BATS_TEST_TMPDIR/cgroups"
		mkdir "$decoy"
	fi
	"$REPO/run/oltpmark-run" --configs noncached --runs 1 -w 1 -d 120 \
		--ramp-up 0 "${PACE[@]}" --hooks vmstat --no-baseline --variant "v=$t/variant" \
		--results "$res" >"$t/run.out" 2>&1 &
	pid=$!
	state=$res/.oltpmark-run.state
	for ((i = 0; i < 600; i++)); do
		compgen -G "$res/*/noncached/run-1/mix.csv.tmp" >/dev/null && break
		sleep 0.2
	done
	cat "$t/run.out"
	cat "$state"
	[ -e "$t/applied" ]
	# While it runs, the results are its own: --recover refuses.
	run "$REPO/run/oltpmark-run" --recover --results "$res"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"in use by run/oltpmark-run PID $pid"* ]]
	child=$(state_field "$state" child)
	pm=$(state_field "$state" postmaster)
	[[ -n $child && -n $pm ]]
	if [[ $(id -u) -eq 0 ]]; then
		cg=$(state_field "$state" cgroup)
		[ -d "${cg#* }" ]
	fi
	kill -KILL "$pid"
	wait "$pid" || true
	# Killed outright, it undid nothing.
	[ -e "$t/applied" ]
	kill -0 "${pm%%$'\t'*}"
	[ -f "$state" ]

	run "$REPO/run/oltpmark-run" --recover --results "$res"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"stopped the oltpmark process it had started (PID ${child%%$'\t'*})"* ]]
	[[ $output == *"stopped the hooks vmstat of $res/"* ]]
	[[ $output == *"restored variant v"* ]]
	[[ $output == *"stopped the private server it had started in $res/.clusters/noncached (PID ${pm%%$'\t'*})"* ]]
	[ ! -e "$state" ]
	[ ! -e "$t/applied" ]
	[ "$(tail -n 1 "$t/log")" = restore ]
	run leftover_processes "$res"
	echo "left behind: $output"
	[ -z "$output" ]
	# the run it had started was stopped, not killed: its files are there
	[ "$(json_eval "$res/$(uname -r)+v/noncached/run-1/run.json" "d['partial']")" = True ]
	if [[ -n $cg ]]; then
		[ ! -e "${cg#* }" ]
		[[ -z $decoy ]] || [ -d "$decoy" ]
	fi
	# the user's server is untouched
	[ "$(head -n 1 "$PGTEST_DIR/data/postmaster.pid")" = "$user_pm" ]
	[ "$(psql_value "SELECT 1")" = 1 ]
	# nothing left to undo: a second --recover says so
	run "$REPO/run/oltpmark-run" --recover --results "$res"
	[ "$status" -eq 0 ]
	[[ $output == *"nothing to undo"* ]]
}

@test "the next oltpmark-run on the same results recovers by itself, then runs" {
	local res=$FAULTS_DIR/killed2 out=$FAULTS_DIR/killed2.out pid state pm
	"$REPO/run/oltpmark-run" --configs cached --runs 1 -w 1 -d 120 --ramp-up 0 \
		"${PACE[@]}" --hooks none --results "$res" >"$out" 2>&1 &
	pid=$!
	state=$res/.oltpmark-run.state
	wait_for 120 grep -q '^postmaster' "$state"
	pm=$(state_field "$state" postmaster)
	[ -n "$pm" ]
	kill -KILL "$pid"
	wait "$pid" || true
	cat "$out"
	run "$REPO/run/oltpmark-run" --configs cached --runs 1 -w 1 -d 2 \
		--ramp-up 0 "${PACE[@]}" --hooks none --results "$res"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *"recover: $state was left by run/oltpmark-run PID $pid, which no longer runs"* ]]
	[[ $output == *"recover: done"* ]]
	[ -s "$res/$(uname -r)/cached/run-1/summary.json" ]
	[ ! -e "$state" ]
	! kill -0 "${pm%%$'\t'*}" 2>/dev/null || [[ $(ps -o stat= -p "${pm%%$'\t'*}") == Z* ]]
}

@test "a server crash mid-run: the engine reconnects, the run goes on, the outage shows, not scored" {
	local res=$FAULTS_DIR/crash dir pid i status=0 victim pm ppid
	dir=$res/crashed/cached/run-1
	mkdir -p "${dir%/*}"
	OLTPMARK_RECONNECT_S=60 "$OLTPMARK" run -w 1 -d 20 --ramp-up 0 \
		"${PACE[@]}" --progress 1 --label crashed --config cached \
		--conninfo "$OLTPMARK_CONNINFO" --out "$dir" >"$res/run.log" 2>&1 &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		(($(grep -c NOTPM "$res/run.log" 2>/dev/null) >= 2)) && break
		sleep 0.1
	done
	# One of the run's backends on this file's own server, checked to
	# be a child of its postmaster before it is killed.
	pm=$(head -n 1 "$PGTEST_DIR/data/postmaster.pid")
	victim=$(psql_value "SELECT pid FROM pg_stat_activity
		WHERE application_name = 'oltpmark-run' AND pid <> pg_backend_pid() LIMIT 1")
	ppid=$(awk '{ sub(/.*\) /, ""); print $2 }' "/proc/$victim/stat")
	[ "$ppid" = "$pm" ]
	kill -KILL "$victim"
	# the crash falls in the first 10-s interval of the time series
	(($(grep -c NOTPM "$res/run.log") < 10))
	wait "$pid" || status=$?
	cat "$res/run.log"
	grep -q "terminated by signal 9" "$PGTEST_DIR/server.log"
	grep -q "all server processes terminated; reinitializing" "$PGTEST_DIR/server.log"
	# The run went on to its end.
	[ "$status" -eq 0 ]
	[ "$(json_eval "$dir/run.json" "d['end_reason']")" = completed ]
	[ "$(json_eval "$dir/run.json" "d['connections_lost']")" -ge 1 ]
	[ "$(json_eval "$dir/run.json" "d['reconnects']")" -ge 1 ]
	grep -q 'connection lost' "$res/run.log"
	# The time series (10-s intervals) shows the outage (the crash fell
	# in [0, 10) s): failed transactions there, and work again after.
	awk -F, '$1 == 0 { found = 1; ok = $NF > 0 } END { exit !(found && ok) }' "$dir/timeseries.csv"
	awk -F, '$1 == 10 { found = 1; ok = $3 > 0 } END { exit !(found && ok) }' "$dir/timeseries.csv"
	# compare lists it, and does not score it.
	run "$OLTPMARK" compare "$res"
	echo "$output"
	[[ $output == *"lost database connections"* ]]
}

@test "a hook that hangs and one that exits non-zero: the run goes on, each .err says why" {
	local res=$FAULTS_DIR/hooks hooks=$FAULTS_DIR/hookdir sys t0
	mkdir -p "$hooks"
	printf '#!/bin/sh\nexec sleep 1000\n' >"$hooks/hang"
	# shellcheck disable=SC2016 # $1 is the hook's
	printf '#!/bin/sh\necho "fail3 $1"\nexit 3\n' >"$hooks/fail3"
	chmod 755 "$hooks/hang" "$hooks/fail3"
	t0=$SECONDS
	OLTPMARK_HOOK_CALL_S=2 run "$REPO/run/oltpmark-run" --configs cached \
		--runs 1 -w 1 -d 3 --ramp-up 0 "${PACE[@]}" --conninfo "$OLTPMARK_CONNINFO" \
		--hooks-dir "$hooks" --hooks hang,fail3,vmstat --results "$res"
	echo "$output"
	[ "$status" -eq 0 ]
	# two hung calls of 2 s each, not 1000 s
	((SECONDS - t0 < 60))
	sys=$res/$(uname -r)/cached/run-1/sys
	[ "$(json_eval "$sys/../run.json" "d['partial']")" = False ]
	grep -qx 'start: killed after 2s (OLTPMARK_HOOK_CALL_S): the hook did not return' "$sys/hang.err"
	grep -qx 'stop: killed after 2s (OLTPMARK_HOOK_CALL_S): the hook did not return' "$sys/hang.err"
	grep -q '^start: exited with status 3' "$sys/fail3.err"
	grep -q '^stop: exited with status 3' "$sys/fail3.err"
	grep -q 'start hang: killed after 2s' "$sys/hooks.log"
	# the others ran as usual
	[ -s "$sys/vmstat.txt" ]
	run leftover_processes "$hooks"
	[ -z "$output" ]
	run leftover_processes "sleep 1000"
	[ -z "$output" ]
}

@test "report on a full file system: exit 1, names the file and ENOSPC, no half-written output" {
	local fs src=$NULL_RUNS/one ref=$BATS_TEST_TMPDIR/ref left
	fs=$(small_fs 4M)
	null_runs_wait one
	# The reference: the same report at the same path, with room.
	mkdir "$fs/run"
	cp "$src"/{run.json,meta.json,mix.csv} "$fs/run"
	"$OLTPMARK" report "$fs/run" >/dev/null
	cp -r "$fs/run" "$ref"
	# Then again with less room each time than the report needs.
	for left in 0 16 48 120 240; do
		rm -rf "$fs/run" "$fs/filler"
		mkdir "$fs/run"
		cp "$src"/{run.json,meta.json,mix.csv} "$fs/run"
		touch -d '1 minute ago' "$fs/run"/*
		: >"$fs/mark"
		touch -d '30 seconds ago' "$fs/mark"
		fill "$fs" "$left"
		run "$OLTPMARK" report "$fs/run"
		echo "left ${left} KiB: status $status: ${lines[-1]}"
		[ "$status" -eq 1 ]
		[[ ${lines[-1]} == *"$fs/run/"*": No space left on device"* ]]
		assert_whole_or_absent "$fs/run" "$fs/mark" "$ref"
	done
}

@test "compare on a full file system: exit 1, names the file and ENOSPC, no half-written output" {
	local fs src=$BATS_TEST_TMPDIR/src ref=$BATS_TEST_TMPDIR/ref left
	fs=$(small_fs 4M)
	null_runs_wait set-a-1 set-a-2 set-b-1 set-b-2
	cp -r "$NULL_RUNS/set" "$src"
	for d in "$src"/*/cached/run-*; do
		mkdir -p "$d/sys"
		cp "$REPO/tests/fixtures/vmstat-t-n-1.txt" "$d/sys/vmstat.txt"
	done
	cp -r "$src" "$fs/res"
	"$OLTPMARK" compare --format html "$fs/res" >/dev/null
	cp -r "$fs/res" "$ref"
	for left in 0 8 40 100 200; do
		rm -rf "$fs/res" "$fs/filler"
		cp -r "$src" "$fs/res"
		find "$fs/res" -type f -exec touch -d '1 minute ago' {} +
		: >"$fs/mark"
		touch -d '30 seconds ago' "$fs/mark"
		fill "$fs" "$left"
		run "$OLTPMARK" compare --format html "$fs/res"
		echo "left ${left} KiB: status $status: ${lines[-1]}"
		[ "$status" -eq 1 ]
		[[ ${lines[-1]} == *"$fs/res/"*": No space left on device"* ]]
		assert_whole_or_absent "$fs/res" "$fs/mark" "$ref"
	done
}
