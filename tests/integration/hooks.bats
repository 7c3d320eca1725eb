#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of the hooks in run/hooks/: setup_file runs one start / ~3 s /
# stop cycle of every hook into a shared sys/ directory (with a throwaway
# server for pg-stats, and the fixtures for readprofile and lockstat), and
# the first tests check what each hook left there; the later tests make
# their own directories for the failure paths: missing tools, safety
# timeout, an iostat killed mid-stream, a profiling window never reached,
# a sampler that ignores SIGTERM, a recycled PID, and run-all.
#
# Each test runs in its own subshell; variables set in setup are read in
# teardown of the same test, which is what shellcheck cannot see.
# shellcheck disable=SC2030,SC2031

load helpers

ALL_HOOKS=(sysinfo vmstat iostat interrupts diskstats pg-stats hostprobe
	procstat kernel-cost readprofile lockstat perf-profile perf-lock)

setup_file() {
	local h t0 t1

	export HOOKS=$REPO/run/hooks
	export FIX=$REPO/tests/fixtures
	export CYCLE=$BATS_FILE_TMPDIR/cycle
	export SYS=$CYCLE/sys
	mkdir -p "$CYCLE"
	# A server that fails to start fails the pg-stats test, not the file.
	if ! pg_throwaway_start >"$CYCLE/pg-start.log" 2>&1; then
		echo failed >"$CYCLE/pg-start.failed"
	fi

	# The window opens at once (no durations given) and lasts 1 s.
	export OLTPMARK_PERF_WINDOW_S=1
	export OLTPMARK_PROFILE=$FIX/readprofile/profile-base
	export OLTPMARK_SYSTEM_MAP=$FIX/readprofile/System.map
	export OLTPMARK_LOCK_STAT=$FIX/lock_stat/lock_stat-base.txt
	[[ -n ${PGTEST_DIR-} ]] && export OLTPMARK_PGDATA=$PGTEST_DIR/data

	# SYS does not exist yet: the first hook must create it.
	for h in "${ALL_HOOKS[@]}"; do
		t0=$EPOCHREALTIME
		"$HOOKS/$h" start "$SYS" </dev/null >"$CYCLE/$h.start.out" 2>&1
		echo "$?" >"$CYCLE/$h.start.rc"
		t1=$EPOCHREALTIME
		echo "$(((${t1/./} - ${t0/./}) / 1000))" >"$CYCLE/$h.start.ms"
		if [[ -f $SYS/.$h.pid ]]; then
			cp "$SYS/.$h.pid" "$CYCLE/$h.pid"
		fi
	done
	sleep 3
	for h in "${ALL_HOOKS[@]}"; do
		"$HOOKS/$h" stop "$SYS" </dev/null >"$CYCLE/$h.stop.out" 2>&1
		echo "$?" >"$CYCLE/$h.stop.rc"
	done
}

teardown_file() {
	pg_throwaway_stop
}

setup() {
	SLEEP_PID=
	unset OLTPMARK_HOOK_MAX_S OLTPMARK_RAMP_UP_S OLTPMARK_DURATION_S
}

teardown() {
	if [[ -n $SLEEP_PID ]]; then
		kill "$SLEEP_PID" 2>/dev/null || true
	fi
}

# Fields of /proc/$1/stat after the command name, into array ST: [0]
# state, [3] session. Builtins only: this runs for every process, often.
proc_stat() {
	local line

	{ read -r line <"/proc/$1/stat"; } 2>/dev/null || return 1
	read -r -a ST <<<"${line##*) }"
}

# PIDs and command lines of live (not zombie) processes whose command line
# mentions $1, other than this shell.
procs_mentioning() {
	local f pid cmd
	local -a args

	for f in /proc/[0-9]*/cmdline; do
		pid=${f#/proc/}
		pid=${pid%/cmdline}
		[[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
		# Processes come and go while we look: ignore vanished ones.
		{ mapfile -d '' -t args <"$f"; } 2>/dev/null || continue
		cmd=${args[*]-}
		[[ $cmd == *"$1"* ]] || continue
		proc_stat "$pid" || continue
		[[ ${ST[0]} == Z ]] && continue
		echo "$pid $cmd"
	done
}

# PIDs of live processes in session $1.
session_members() {
	local f pid

	for f in /proc/[0-9]*/stat; do
		pid=${f#/proc/}
		pid=${pid%/stat}
		proc_stat "$pid" || continue
		[[ ${ST[0]} != Z && ${ST[3]} == "$1" ]] && echo "$pid"
	done
	return 0
}

# session_has COMM SID: a live process named COMM is in session SID.
session_has() {
	local p

	for p in $(session_members "$2"); do
		[[ $(cat "/proc/$p/comm" 2>/dev/null) == "$1" ]] && return 0
	done
	return 1
}

# assert_skipped_or DIR HOOK FILE...: either HOOK.skipped has a reason and
# none of FILE exists, or it is absent and every FILE is non-empty.
assert_skipped_or() {
	local dir=$1 hook=$2 f

	shift 2
	if [[ -e $dir/$hook.skipped ]]; then
		[[ -n $(<"$dir/$hook.skipped") ]]
		for f in "$@"; do
			[[ ! -e $dir/$f ]]
		done
		return 0
	fi
	for f in "$@"; do
		[[ -s $dir/$f ]] || {
			echo "$f missing or empty"
			return 1
		}
	done
}

json_ok() {
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
}

# A directory of its own for a test.
newdir() {
	mktemp -d "$BATS_TEST_TMPDIR/sys.XXXXXX"
}

@test "every hook exits 0 at start and stop, and start returns at once" {
	local h

	for h in "${ALL_HOOKS[@]}"; do
		echo "$h: start $(<"$CYCLE/$h.start.rc") in $(<"$CYCLE/$h.start.ms") ms, stop $(<"$CYCLE/$h.stop.rc")"
		[[ $(<"$CYCLE/$h.start.rc") == 0 ]]
		[[ $(<"$CYCLE/$h.stop.rc") == 0 ]]
		(($(<"$CYCLE/$h.start.ms") < 3000))
		# Hooks say nothing; trouble goes to NAME.err.
		[[ ! -s $CYCLE/$h.start.out && ! -s $CYCLE/$h.stop.out ]]
	done
}

@test "no sampler survives stop" {
	local h pid

	for h in "${ALL_HOOKS[@]}"; do
		[[ ! -e $SYS/.$h.pid ]]
		if [[ -f $CYCLE/$h.pid ]]; then
			pid=$(<"$CYCLE/$h.pid")
			echo "$h: sampler $pid"
			[[ -z $(session_members "$pid") ]]
			if proc_stat "$pid"; then
				[[ ${ST[0]} == Z ]]
			fi
		fi
	done
	run procs_mentioning "$SYS"
	echo "$output"
	[[ -z $output ]]
	# The samplers we expect did run in the background.
	[[ -f $CYCLE/vmstat.pid && -f $CYCLE/iostat.pid ]]
}

@test "cheap hooks report no trouble" {
	local h

	for h in sysinfo vmstat iostat interrupts diskstats pg-stats hostprobe \
		procstat readprofile lockstat; do
		if [[ -e $SYS/$h.err ]]; then
			echo "$h.err: $(<"$SYS/$h.err")"
			return 1
		fi
	done
}

@test "sysinfo: sections for kernel, CPUs, block devices, sysctls, PostgreSQL" {
	local f=$SYS/sysinfo.txt

	[[ -s $f ]]
	[[ ! -e $SYS/sysinfo.skipped ]]
	grep -qx '== uname ==' "$f"
	grep -qx '== kernel command line ==' "$f"
	grep -qx '== kernel config ==' "$f"
	grep -qx '== CPU ==' "$f"
	grep -q '^logical CPUs: [1-9]' "$f"
	grep -qx '== memory ==' "$f"
	grep -q '^MemTotal:' "$f"
	grep -qx '== block devices (queue settings) ==' "$f"
	grep -qx '== sysctls ==' "$f"
	grep -q '^vm.dirty_ratio = [0-9]' "$f"
	grep -qx '== transparent hugepages ==' "$f"
	if [[ -e /proc/config.gz ]]; then
		grep -q '^CONFIG_HZ=' "$f"
		[[ -s $SYS/kernel-config.txt ]]
	fi
	[[ ! -e $CYCLE/pg-start.failed ]] || skip "throwaway server did not start"
	grep -q '^PostgreSQL [0-9]' "$f"
	grep -q '^shared_buffers|' "$f"
	grep -qx '== PostgreSQL data directory ==' "$f"
	grep -A1 -x '== PostgreSQL data directory ==' "$f" | grep -q "^$OLTPMARK_PGDATA:"
}

@test "sysinfo: the machine is read by oltpmark sysinfo, not by the hook" {
	local dir wrap code

	# No /proc or /sys path, and none of the tools that read them, in
	# the hook's code (its comments may name them).
	code=$(grep -v '^[[:space:]]*#' "$HOOKS/sysinfo")
	run grep -nE '/(proc|sys)(/|\b)|\b(lscpu|findmnt|df|zcat|uname|cat)\b' <<<"$code"
	echo "$output"
	[ "$status" -eq 1 ]

	# The hook's machine sections are what the binary prints: given a
	# binary that reads the fixture tree, sysinfo.txt holds the
	# fixture's kernel, not this machine's.
	dir=$(newdir)
	wrap=$dir/oltpmark-fixture
	printf '#!/usr/bin/env bash\nexec %q "$@" --root %q\n' \
		"$OLTPMARK" "$FIX/fingerprint-vm" >"$wrap"
	chmod +x "$wrap"
	OLTPMARK=$wrap "$HOOKS/sysinfo" start "$dir/sys"
	cat "$dir/sys/sysinfo.txt"
	[[ ! -e $dir/sys/sysinfo.err ]]
	grep -qx 'oltpmark sysinfo 1' "$dir/sys/sysinfo.txt"
	grep -qx '6.18.44-custom #12 SMP PREEMPT_DYNAMIC Tue Nov 24 10:00:00 UTC 2026' \
		"$dir/sys/sysinfo.txt"
	grep -qx 'BOOT_IMAGE=/vmlinuz-6.18.44-custom root=/dev/vda1 ro console=ttyS0' \
		"$dir/sys/sysinfo.txt"
	grep -qx 'current_clocksource = kvm-clock' "$dir/sys/sysinfo.txt"
	grep -qx '== PostgreSQL ==' "$dir/sys/sysinfo.txt"
	[[ ! -e $dir/sys/kernel-config.txt ]]

	# No binary anywhere: a note in place of the machine, PostgreSQL's
	# section still, and the trouble in sysinfo.err.
	mkdir -p "$dir/copy/run/hooks"
	cp "$HOOKS/sysinfo" "$HOOKS/lib.sh" "$dir/copy/run/hooks/"
	cp "$REPO/run/lib.sh" "$dir/copy/run/"
	env -u OLTPMARK PATH=/usr/bin:/bin "$dir/copy/run/hooks/sysinfo" start "$dir/none"
	cat "$dir/none/sysinfo.txt"
	grep -qx '(no oltpmark binary: set OLTPMARK, or put oltpmark on PATH)' \
		"$dir/none/sysinfo.txt"
	grep -qx '== PostgreSQL ==' "$dir/none/sysinfo.txt"
	grep -q 'no oltpmark binary' "$dir/none/sysinfo.err"
}

@test "vmstat: header and data lines with timestamps" {
	local f=$SYS/vmstat.txt

	assert_skipped_or "$SYS" vmstat vmstat.txt
	[[ ! -e $SYS/vmstat.skipped ]] || skip "$(<"$SYS/vmstat.skipped")"
	[[ $(sed -n 1p "$f") == procs* ]]
	[[ $(sed -n 2p "$f") =~ ^\ +r\ +b\  ]]
	# -n: the header once; 3 s gives at least two data lines.
	(($(grep -c '^ *r ' "$f") == 1))
	(($(grep -cE '^ *[0-9]+ +[0-9]+ .* [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}$' "$f") >= 2))
}

@test "iostat: valid JSON with ISO timestamps" {
	local f=$SYS/iostat.json

	assert_skipped_or "$SYS" iostat iostat.json
	[[ ! -e $SYS/iostat.skipped ]] || skip "$(<"$SYS/iostat.skipped")"
	json_ok "$f"
	python3 - "$f" <<-'EOF'
		import json, re, sys
		st = json.load(open(sys.argv[1]))["sysstat"]["hosts"][0]["statistics"]
		assert len(st) >= 1, st
		assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", st[0]["timestamp"]), st[0]
		assert "disk" in st[0]
	EOF
}

@test "interrupts and diskstats: raw snapshots at start and stop" {
	local f

	for f in interrupts.start interrupts.stop diskstats.start \
		diskstats.stop proc-vmstat.start proc-vmstat.stop; do
		[[ -s $SYS/$f ]]
	done
	[[ $(head -1 "$SYS/interrupts.start") =~ ^\ +CPU0 ]]
	grep -q '^nr_free_pages ' "$SYS/proc-vmstat.stop"
}

@test "pg-stats: start and stop snapshots, and wait events every second" {
	local when

	[[ ! -e $CYCLE/pg-start.failed ]] || {
		cat "$CYCLE/pg-start.log"
		return 1
	}
	[[ ! -e $SYS/pg-stats.skipped ]]
	for when in start stop; do
		head -1 "$SYS/pg_stat_database.$when.csv" | grep -q '^ts,datid,datname,.*xact_commit'
		(($(wc -l <"$SYS/pg_stat_database.$when.csv") == 2))
		head -1 "$SYS/pg_stat_bgwriter.$when.csv" | grep -q '^ts,checkpoints_timed,checkpoints_req,'
		(($(wc -l <"$SYS/pg_stat_bgwriter.$when.csv") == 2))
		head -1 "$SYS/pg_stat_wal.$when.csv" | grep -q '^ts,wal_records,'
	done
	[[ $(head -1 "$SYS/pg_wait_events.csv") == ts,wait_event_type,wait_event,state,count ]]
	# About 3 s: at least two distinct sampling times.
	(($(tail -n +2 "$SYS/pg_wait_events.csv" | cut -d, -f1 | sort -u | wc -l) >= 2))
	grep -q ',Activity,CheckpointerMain,,1$' "$SYS/pg_wait_events.csv"
	[[ ! -e $SYS/.pg-stats.sql ]]
}

@test "kernel-cost: snapshots per query id at start and stop, with the wait profile" {
	local when

	[[ ! -e $CYCLE/pg-start.failed ]] || {
		cat "$CYCLE/pg-start.log"
		return 1
	}
	if [[ -e $SYS/kernel-cost.skipped ]]; then
		# Only for want of the extensions, which run/pg preloads when
		# they are installed.
		grep -q '^the server does not preload pg_stat_kcache' "$SYS/kernel-cost.skipped"
		skip "$(<"$SYS/kernel-cost.skipped")"
	fi
	for when in start stop; do
		[[ $(head -1 "$SYS/kcost.$when.csv") == ts,queryid,calls,time_ms,user_s,system_s,reads_bytes,writes_bytes,minflts,majflts,nvcsws,nivcsws,query ]]
		# The hook's own statements at least.
		(($(wc -l <"$SYS/kcost.$when.csv") >= 2))
		if [[ ! -e $SYS/kernel-cost.err ]]; then
			[[ $(head -1 "$SYS/kcost_waits.$when.csv") == ts,queryid,event_type,event,count ]]
		fi
	done
	[[ ! -e $SYS/.kernel-cost.plan && ! -e $SYS/.kernel-cost.pid ]]
}

@test "readprofile: the fixture profile reads exactly as util-linux printed it" {
	[[ ! -e $SYS/readprofile.skipped ]]
	cmp "$SYS/readprofile.txt" "$FIX/readprofile/readprofile-base.txt"
}

@test "lockstat: the fixture is copied" {
	[[ ! -e $SYS/lockstat.skipped ]]
	cmp "$SYS/lock_stat.txt" "$FIX/lock_stat/lock_stat-base.txt"
}

@test "perf-profile: a report by dso and symbol, perf.data removed" {
	assert_skipped_or "$SYS" perf-profile perf-report.txt perf-callgraph.txt
	[[ ! -e $SYS/perf-profile.skipped ]] || skip "$(<"$SYS/perf-profile.skipped")"
	grep -q '^# Overhead  Shared Object' "$SYS/perf-report.txt"
	grep -qE '^ +[0-9.]+%  ' "$SYS/perf-report.txt"
	[[ ! -e $SYS/perf.data && ! -e $SYS/.perf-profile.window ]]
}

@test "perf-lock: a contention table, data removed" {
	assert_skipped_or "$SYS" perf-lock perf-lock.txt
	[[ ! -e $SYS/perf-lock.skipped ]] || skip "$(<"$SYS/perf-lock.skipped")"
	grep -q 'contended' "$SYS/perf-lock.txt"
	[[ ! -e $SYS/perf-lock.data ]]
}

@test "procstat: the CPU counters once a second, wall-clock stamped, then stopped" {
	local f=$SYS/procstat.csv now

	[[ ! -e $SYS/procstat.skipped && ! -e $SYS/.procstat.pid ]]
	[[ $(head -n 1 "$f") == epoch_s,user,nice,system,idle,iowait,irq,softirq,steal,guest,guest_nice ]]
	# samples a second apart for the ~3 s of the cycle (and the other
	# hooks' start and stop), plus the one taken at stop; every row whole, times rising, counters never behind the row before
	# (iowait may go back, see proc(5), so it is not checked).
	now=${EPOCHREALTIME/,/.}
	awk -F, -v now="$now" -v last="$(wc -l <"$f")" 'NR == 1 { next }
		NF != 11 || $1 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ { print "bad row " NR; bad = 1 }
		$1 > now || $1 < now - 600 { print "time " $1 " not of this test"; bad = 1 }
		NR > 2 && $1 <= t { print "time back at row " NR; bad = 1 }
		NR > 2 && ($2 < u || $9 < st) { print "counter back at row " NR; bad = 1 }
		NR > 2 && $1 - t > 1.5 { print "a gap of " $1 - t " s at row " NR; bad = 1 }
		NR > 2 && NR < last && $1 - t < 0.5 { print "rows too close at " NR; bad = 1 }
		{ t = $1; u = $2; st = $9; n++ }
		END { if (n < 4) { print n " samples"; bad = 1 }; exit bad }' "$f" >&2
	# the sampler is gone, or a zombie where PID 1 does not reap (its
	# PID may not be reused this soon)
	[[ -f $CYCLE/procstat.pid ]]
	state=$(sed 's/.*) //' "/proc/$(<"$CYCLE/procstat.pid")/stat" 2>/dev/null | cut -d' ' -f1)
	[[ -z $state || $state == Z ]]
}

@test "procstat: sample-procstat refuses a bad source and a bad interval" {
	run "$OLTPMARK" sample-procstat --source "$BATS_TEST_TMPDIR/none" --count 1
	((status == 1))
	printf 'intr 1 2 3\n' >"$BATS_TEST_TMPDIR/stat"
	run "$OLTPMARK" sample-procstat --source "$BATS_TEST_TMPDIR/stat" --count 1
	((status == 1))
	run "$OLTPMARK" sample-procstat --interval 0
	((status == 2))
	# an old kernel's four columns: the rest written as 0
	printf 'cpu  10 20 30 40\ncpu0 10 20 30 40\n' >"$BATS_TEST_TMPDIR/stat"
	run "$OLTPMARK" sample-procstat --source "$BATS_TEST_TMPDIR/stat" --count 2 --interval 0.05
	((status == 0))
	[[ ${#lines[@]} == 3 && ${lines[2]} == *,10,20,30,40,0,0,0,0,0,0 ]]
}

# probe_field FILE EXPR: a value of the probe's JSON (python3 expression
# on j), printed.
probe_field() {
	python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

@test "hostprobe: the probe before and after, fsync beside the data directory" {
	local a

	[[ ! -e $SYS/hostprobe.skipped ]]
	for a in start stop; do
		[[ $(probe_field "$SYS/hostprobe.$a.json" 'j["format"]') == oltpmark-probe/1 ]]
		python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert j["cpu"]["ns_per_op"] > 0 and j["memory"]["ns_per_op"] > 0
assert j["cpu"]["ns_per_op_min"] <= j["cpu"]["ns_per_op"]' "$SYS/hostprobe.$a.json"
	done
	# The throwaway server's data directory is known: the synced file went
	# beside it and is gone.
	if [[ -n ${PGTEST_DIR-} ]]; then
		[[ $(probe_field "$SYS/hostprobe.stop.json" 'j["fsync"]["dir"]') == "$(cd "$PGTEST_DIR" && pwd)" ]]
		(($(probe_field "$SYS/hostprobe.stop.json" 'int(j["fsync"]["us_median"] > 0)') == 1))
		[[ -z $(find "$PGTEST_DIR" -maxdepth 1 -name '.oltpmark-probe.*') ]]
	fi
	[[ ! -e $SYS/hostprobe.start.json.tmp && ! -e $SYS/hostprobe.stop.json.tmp ]]
}

@test "hostprobe: without a data directory, CPU and memory only; no binary: skipped" {
	local dir bin

	dir=$(newdir)
	env -u OLTPMARK_PGDATA "$HOOKS/hostprobe" start "$dir"
	env -u OLTPMARK_PGDATA "$HOOKS/hostprobe" stop "$dir"
	[[ -s $dir/hostprobe.start.json && -s $dir/hostprobe.stop.json ]]
	[[ $(probe_field "$dir/hostprobe.stop.json" '"fsync" in j') == False ]]
	[[ ! -e $dir/hostprobe.err ]]

	# A copy of the hooks with no oltpmark beside them, none on PATH.
	bin=$(mktemp -d "$BATS_TEST_TMPDIR/bin.XXXXXX")
	mkdir -p "$bin/run/hooks"
	cp "$HOOKS/hostprobe" "$HOOKS/lib.sh" "$bin/run/hooks/"
	cp "$REPO/run/lib.sh" "$bin/run/"
	ln -s "$(command -v bash)" "$bin/bash"
	dir=$(newdir)
	env -u OLTPMARK PATH="$bin" "$bin/run/hooks/hostprobe" start "$dir"
	env -u OLTPMARK PATH="$bin" "$bin/run/hooks/hostprobe" stop "$dir"
	grep -q '^no oltpmark binary' "$dir/hostprobe.skipped"
	[[ ! -e $dir/hostprobe.start.json ]]
}

@test "a hook whose tools are missing writes NAME.skipped and exits 0" {
	local bin dir h

	bin=$(mktemp -d "$BATS_TEST_TMPDIR/bin.XXXXXX")
	ln -s "$(command -v bash)" "$bin/bash"
	dir=$(newdir)
	for h in "${ALL_HOOKS[@]}"; do
		PATH=$bin OLTPMARK_CONNINFO='host=/nonexistent' \
			"$HOOKS/$h" start "$dir"
		PATH=$bin "$HOOKS/$h" stop "$dir"
	done
	for h in vmstat iostat interrupts diskstats pg-stats kernel-cost \
		readprofile lockstat perf-profile perf-lock; do
		echo "$h: $(cat "$dir/$h.skipped")"
		grep -q 'not found (Debian package ' "$dir/$h.skipped"
		[[ ! -e $dir/.$h.pid ]]
	done
	grep -q 'vmstat not found (Debian package procps)' "$dir/vmstat.skipped"
	grep -q 'iostat not found (Debian package sysstat)' "$dir/iostat.skipped"
	# sysinfo needs no tool: oltpmark reads the machine.
	[[ ! -e $dir/sysinfo.skipped ]]
	grep -qx '== kernel command line ==' "$dir/sysinfo.txt"
	grep -q '^logical CPUs: [1-9]' "$dir/sysinfo.txt"
	grep -qx '(psql not installed)' "$dir/sysinfo.txt"
}

@test "pg-stats without a server: skipped with the reason" {
	local dir

	dir=$(newdir)
	env -u OLTPMARK_CONNINFO "$HOOKS/pg-stats" start "$dir"
	env -u OLTPMARK_CONNINFO "$HOOKS/pg-stats" stop "$dir"
	grep -q 'OLTPMARK_CONNINFO not set' "$dir/pg-stats.skipped"

	dir=$(newdir)
	OLTPMARK_CONNINFO="host=$dir port=1 user=nobody" "$HOOKS/pg-stats" start "$dir"
	"$HOOKS/pg-stats" stop "$dir"
	grep -q '^cannot reach the server: ' "$dir/pg-stats.skipped"
	[[ ! -e $dir/.pg-stats.pid && ! -e $dir/pg_wait_events.csv ]]
}

@test "readprofile and lockstat without their kernel features: skipped" {
	local dir

	dir=$(newdir)
	OLTPMARK_SYSTEM_MAP=$dir/no-such-map "$HOOKS/readprofile" start "$dir"
	"$HOOKS/readprofile" stop "$dir"
	grep -q 'no-such-map is not readable' "$dir/readprofile.skipped"
	[[ ! -e $dir/readprofile.txt ]]
	if [[ ! -e /proc/profile ]]; then
		env -u OLTPMARK_PROFILE "$HOOKS/readprofile" start "$dir"
		grep -q '^no /proc/profile (boot the kernel with profile=2)' "$dir/readprofile.skipped"
	fi
	if [[ ! -e /proc/lock_stat ]]; then
		env -u OLTPMARK_LOCK_STAT "$HOOKS/lockstat" start "$dir"
		"$HOOKS/lockstat" stop "$dir"
		grep -q 'CONFIG_LOCK_STAT' "$dir/lockstat.skipped"
		[[ ! -e $dir/lock_stat.txt ]]
	fi
}

@test "a sampler ends by itself at the safety timeout" {
	local dir pid t0

	command -v vmstat >/dev/null || skip "vmstat not installed"
	dir=$(newdir)
	t0=$SECONDS
	OLTPMARK_HOOK_MAX_S=2 "$HOOKS/vmstat" start "$dir"
	pid=$(<"$dir/.vmstat.pid")
	# running (its session leader is): kill -0, not a scan of /proc, which
	# on a busy host can outlast the 2 s
	kill -0 "$pid"
	# gone by itself well before stop: wait for that, not a fixed time
	while [[ -n $(session_members "$pid") ]] && ((SECONDS - t0 < 30)); do
		sleep 0.2
	done
	[[ -z $(session_members "$pid") ]]
	"$HOOKS/vmstat" stop "$dir"
	grep -q 'ended before stop' "$dir/vmstat.err"
	[[ ! -e $dir/.vmstat.pid ]]
}

@test "iostat killed mid-stream: stop closes its JSON" {
	local dir pid p

	command -v iostat >/dev/null || skip "iostat not installed"
	dir=$(newdir)
	"$HOOKS/iostat" start "$dir"
	pid=$(<"$dir/.iostat.pid")
	# a record written, the stream still open
	wait_for 30 grep -q '"timestamp"' "$dir/iostat.json"
	# SIGTERM to iostat itself, not SIGINT: it dies without closing.
	for p in $(session_members "$pid"); do
		[[ $(<"/proc/$p/comm") == iostat ]] && kill -TERM "$p"
	done
	wait_for 10 ! session_has iostat "$pid"
	[[ $(tail -c 3 "$dir/iostat.json") != *'}}'* ]]
	run json_ok "$dir/iostat.json"
	((status != 0))
	"$HOOKS/iostat" stop "$dir"
	json_ok "$dir/iostat.json"
	grep -q 'cut after the last complete record' "$dir/iostat.err"
	[[ -z $(session_members "$pid") ]]
}

@test "a profiling window the run never reached: skipped, nothing left" {
	local dir pid

	dir=$(newdir)
	OLTPMARK_RAMP_UP_S=600 OLTPMARK_DURATION_S=600 OLTPMARK_PERF_WINDOW_S=10 \
		"$HOOKS/perf-profile" start "$dir"
	[[ ! -e $dir/perf-profile.skipped ]] ||
		skip "$(<"$dir/perf-profile.skipped")"
	pid=$(<"$dir/.perf-profile.pid")
	"$HOOKS/perf-profile" stop "$dir"
	grep -qx 'run ended before the profiling window (it was to open 895s after start)' \
		"$dir/perf-profile.skipped"
	[[ -z $(session_members "$pid") ]]
	[[ ! -e $dir/perf.data && ! -e $dir/perf-report.txt ]]
	run procs_mentioning "$dir"
	[[ -z $output ]]
}

@test "a sampler that ignores SIGTERM is killed after the grace period" {
	local dir pid

	dir=$(newdir)
	# shellcheck disable=SC2016 # for the inner shell
	bash -c '. "$1/lib.sh"; hook_init fake start "$2"
		hook_spawn "$2/fake.out" bash -c "trap \"\" TERM; echo up; while :; do sleep 0.2; done"' \
		_ "$HOOKS" "$dir"
	pid=$(<"$dir/.fake.pid")
	# up: its trap is set
	wait_for 10 grep -qx up "$dir/fake.out"
	[[ -n $(session_members "$pid") ]]
	# shellcheck disable=SC2016
	run bash -c '. "$1/lib.sh"; hook_init fake stop "$2"; hook_stop_sampler TERM 1; echo "rc=$?"' \
		_ "$HOOKS" "$dir"
	echo "$output"
	[[ $output == *rc=0* ]]
	grep -q 'still running 1s after SIGTERM; killing it' "$dir/fake.err"
	[[ -z $(session_members "$pid") ]]
	grep -qx up "$dir/fake.out"
}

@test "stop never signals a PID that now belongs to another process" {
	local dir

	dir=$(newdir)
	setsid sleep 60 </dev/null >/dev/null 2>&1 &
	SLEEP_PID=$!
	wait_for 10 grep -qx sleep "/proc/$SLEEP_PID/comm"
	echo "$SLEEP_PID" >"$dir/.vmstat.pid"
	echo 1 >"$dir/.vmstat.pid.stime"
	"$HOOKS/vmstat" stop "$dir"
	grep -q "PID $SLEEP_PID now belongs to another process" "$dir/vmstat.err"
	kill -0 "$SLEEP_PID"
	[[ ! -e $dir/.vmstat.pid ]]
}

@test "start twice runs one sampler; stop without start is noted" {
	local dir pid

	command -v vmstat >/dev/null || skip "vmstat not installed"
	dir=$(newdir)
	"$HOOKS/vmstat" start "$dir"
	pid=$(<"$dir/.vmstat.pid")
	"$HOOKS/vmstat" start "$dir"
	[[ $(<"$dir/.vmstat.pid") == "$pid" ]]
	grep -q 'already started' "$dir/vmstat.err"
	"$HOOKS/vmstat" stop "$dir"
	[[ -z $(session_members "$pid") ]]

	dir=$(newdir)
	"$HOOKS/vmstat" stop "$dir"
	grep -q 'no sampler to stop' "$dir/vmstat.err"
}

@test "bad usage exits 2 with a usage line" {
	run "$HOOKS/vmstat"
	((status == 2))
	[[ $output == 'usage: vmstat start|stop DIR' ]]
	run "$HOOKS/iostat" begin /tmp
	((status == 2))
	run "$HOOKS/run-all" start
	((status == 2))
}

@test "run-all: groups, reverse order at stop, a log, never fails" {
	local dir

	run "$HOOKS/run-all" list
	((status == 0))
	[[ ${lines[0]} == 'cheap: sysinfo vmstat iostat interrupts diskstats pg-stats hostprobe procstat kernel-cost' ]]
	[[ ${lines[1]} == 'diagnostic: readprofile lockstat perf-profile perf-lock' ]]

	dir=$(newdir)/sys
	run "$HOOKS/run-all" start "$dir" interrupts diskstats no-such-hook ../run-all
	((status == 0))
	[[ -z $output ]]
	run "$HOOKS/run-all" stop "$dir" interrupts diskstats no-such-hook ../run-all
	((status == 0))
	[[ -s $dir/interrupts.stop && -s $dir/diskstats.stop ]]
	grep -q 'start no-such-hook: no such hook' "$dir/hooks.log"
	grep -q 'start ../run-all: no such hook' "$dir/hooks.log"
	grep -q 'start interrupts: status 0 ' "$dir/hooks.log"
	grep -o 'stop [a-z]*: status' "$dir/hooks.log" | tr '\n' ' ' |
		grep -qx 'stop diskstats: status stop interrupts: status '

	# A skipped hook is logged with its reason.
	OLTPMARK_LOCK_STAT=$dir/none run "$HOOKS/run-all" start "$dir" lockstat
	grep -q "start lockstat: skipped: $dir/none is not readable" "$dir/hooks.log"
}
