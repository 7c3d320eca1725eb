#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# experiment.bats: run/oltpmark-run end to end on tiny runs: the result
# tree, the score table, variants restored even after a failing run, the
# non-cached memory limit where root and cgroups allow it, the local run
# over TCP (--driver-listen alone), and nothing left running afterwards.
# Each test uses private clusters of its own (run/pg under a temp dir),
# stopped by PID by oltpmark-run itself.

load helpers

setup_file() {
	EXP_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-exp.XXXXXX")
	chmod 755 "$EXP_DIR"
	export EXP_DIR
	# Two labels, cached only, one short paced run each: the shared clusters are
	# loaded by the first and reused by the second. The first runs the
	# default hooks; the second none (the default set costs seconds:
	# hostprobe measures the host), which also shows that a run without
	# hooks still records its fingerprint.
	local label
	local -a hooks
	for label in kern-a kern-b; do
		hooks=()
		[[ $label == kern-a ]] || hooks=(--hooks none)
		"$REPO/run/oltpmark-run" --label "$label" --configs cached --runs 1 \
			-w 1 -d 4 --ramp-up 1 "${PACE[@]}" "${hooks[@]}" --results "$EXP_DIR/results" \
			>"$EXP_DIR/$label.out" 2>&1 || {
			cat "$EXP_DIR/$label.out" >&3
			return 1
		}
	done
}

teardown_file() {
	local c
	for c in "$EXP_DIR"/results/.clusters/*/ "$EXP_DIR"/*/.clusters/*/; do
		[ -e "$c/.oltpmark-cluster" ] && "$REPO/run/pg" stop "$c" >/dev/null 2>&1
	done
	rm -rf "$EXP_DIR"
}

@test "a mini experiment produces the result tree" {
	local l
	for l in kern-a kern-b; do
		d=$EXP_DIR/results/$l/cached/run-1
		[ -s "$d/meta.json" ]
		[ -s "$d/summary.json" ]
		[ -s "$d/mix.csv" ]
		[ -s "$d/report.html" ]
		[ -e "$d/sys/checkpoints.csv" ]
		grep -q '"db_state": "template-copy"' "$d/meta.json"
		grep -q "\"label\": \"$l\"" "$d/meta.json"
		# pre-warmed: the measured interval ran from shared buffers
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["buffer_hit_ratio"]
sys.exit(0 if r is not None and r >= 0.99 else 1)' "$d/meta.json"
	done
	# the second label reused the loaded template
	grep -q "reusing the loaded database" "$EXP_DIR/kern-b.out"
	d=$EXP_DIR/results/kern-a/cached/run-1
	[ -s "$d/sys/vmstat.txt" ] || [ -s "$d/sys/vmstat.skipped" ]
}

@test "OLTPMARK_CLUSTER_FROM: the first label's cluster is a copy whose load is reused" {
	[[ -n ${OLTPMARK_CLUSTER_FROM:-} ]] ||
		skip "OLTPMARK_CLUSTER_FROM not set (make check sets it to its template)"
	grep -q "creating the private cluster for cached in .* (a copy of $OLTPMARK_CLUSTER_FROM)" \
		"$EXP_DIR/kern-a.out"
	grep -q "reusing the loaded database (1 warehouses)" "$EXP_DIR/kern-a.out"
	run grep -c "loading 1 warehouses" "$EXP_DIR/kern-a.out"
	[ "$output" = 0 ]
	# the copy, not the template, ran: the template is stopped and unchanged
	[ ! -e "$OLTPMARK_CLUSTER_FROM/data/postmaster.pid" ]
	grep -qx "copied from $OLTPMARK_CLUSTER_FROM" "$EXP_DIR/results/.clusters/cached/init.log"
}

@test "the fingerprint is recorded with hooks and without (--hooks none)" {
	local l d

	for l in kern-a kern-b; do
		d=$EXP_DIR/results/$l/cached/run-1
		[ "$(json_eval "$d/meta.json" \
			"d['fingerprint']['treatment']['kernel.release']")" = "$(uname -r)" ]
		[ -n "$(json_eval "$d/meta.json" \
			"d['fingerprint']['environment']['cpu.model']")" ]
		grep -q '^vm\.dirty_ratio = [0-9]' "$d/sys/sysctl.txt"
		# the unix socket: no transport key (as before the key)
		[ "$(json_eval "$d/meta.json" "'transport' in d['fingerprint']['workload']")" = False ]
	done
	# kern-b ran no hook at all, kern-a the sysinfo hook, whose text
	# agrees with the fingerprint
	[ ! -e "$EXP_DIR/results/kern-b/cached/run-1/sys/sysinfo.txt" ]
	d=$EXP_DIR/results/kern-a/cached/run-1
	grep -qxF "$(json_eval "$d/meta.json" \
		"d['fingerprint']['treatment']['kernel.cmdline']")" "$d/sys/sysinfo.txt"
	grep -qxF "vm.swappiness = $(json_eval "$d/meta.json" \
		"d['fingerprint']['treatment']['vm.swappiness']")" "$d/sys/sysinfo.txt"
}

@test "the experiment ends with a score table naming both labels" {
	grep -q "kern-a" "$EXP_DIR/kern-b.out"
	grep -q "kern-b" "$EXP_DIR/kern-b.out"
	grep -q "100.00" "$EXP_DIR/kern-b.out"
	run "$OLTPMARK" compare --baseline kern-a "$EXP_DIR/results"
	[ "$status" -eq 0 ]
	[[ $output == *kern-b* ]]
}

@test "no sampler or server is left after the experiment" {
	run leftover_processes "$EXP_DIR"
	echo "left behind: $output"
	[ -z "$output" ]
}

@test "--driver-listen alone: the local run over TCP, recorded, not pooled with the unix socket's" {
	local r=$EXP_DIR/tcp d port
	mkdir -m 700 "$EXP_DIR/tcp-tmp"
	# the loaded cluster of the setup, reused (--work): no load, no copy
	TMPDIR=$EXP_DIR/tcp-tmp "$REPO/run/oltpmark-run" --driver-listen 127.0.0.1 \
		--label kern-tcp --configs cached --runs 1 -w 1 -d 4 --ramp-up 1 "${PACE[@]}" \
		--hooks none --work "$EXP_DIR/results/.clusters" --results "$r" \
		>"$EXP_DIR/tcp.out" 2>&1 || {
		cat "$EXP_DIR/tcp.out"
		false
	}
	grep -q "reusing the loaded database" "$EXP_DIR/tcp.out"
	d=$r/kern-tcp/cached/run-1
	[ -s "$d/summary.json" ]
	# the terminals reached the server over TCP, on this host
	[ "$(json_eval "$d/meta.json" "d['fingerprint']['workload']['transport']")" = tcp ]
	[ "$(json_eval "$d/meta.json" "d['notes']['terminals']")" = same-host ]
	# its password's private directory is gone; the cluster listens on
	# no TCP port once started without the option
	run ls -A "$EXP_DIR/tcp-tmp"
	[ -z "$output" ]
	port=$(<"$EXP_DIR/results/.clusters/cached/port")
	"$REPO/run/pg" start "$EXP_DIR/results/.clusters/cached" >/dev/null
	run "$PSQL" -w "host=127.0.0.1 port=$port dbname=oltpmark user=postgres connect_timeout=5" -c 'SELECT 1'
	"$REPO/run/pg" stop "$EXP_DIR/results/.clusters/cached" >/dev/null
	[ "$status" -ne 0 ]
	# compare does not pool it with the unix socket's run: the transport
	mkdir "$EXP_DIR/mixed"
	cp -a "$EXP_DIR/results/kern-a" "$r/kern-tcp" "$EXP_DIR/mixed/"
	run "$OLTPMARK" compare --baseline kern-a "$EXP_DIR/mixed"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *transport* ]]
	# with --sut or --conninfo it is refused, as before
	run "$REPO/run/oltpmark-run" --driver-listen 127.0.0.1 --conninfo "dbname=x" --results "$r"
	[ "$status" -eq 2 ]
	[[ $output == *"is not for --conninfo"* ]]
}

@test "a variant is restored after a failing run" {
	local log=$EXP_DIR/variant.log fake=$EXP_DIR/fake-oltpmark
	cat >"$EXP_DIR/record-variant" <<EOF
#!/usr/bin/env bash
echo "\$1" >>"$log"
EOF
	chmod +x "$EXP_DIR/record-variant"
	# An oltpmark whose `run` fails: everything else is the real one.
	cat >"$fake" <<EOF
#!/usr/bin/env bash
[ "\$1" = run ] && { echo "simulated failure" >&2; exit 1; }
exec "$OLTPMARK" "\$@"
EOF
	chmod +x "$fake"
	OLTPMARK=$fake run "$REPO/run/oltpmark-run" --label kern-v --configs cached \
		--runs 1 -w 1 -d 3 --ramp-up 1 --no-baseline --hooks none \
		--variant "rec=$EXP_DIR/record-variant" --results "$EXP_DIR/results"
	[ "$(cat "$log")" = "$(printf 'apply\nrestore')" ]
}

@test "a variant is restored when oltpmark-run is interrupted" {
	local log=$EXP_DIR/variant-int.log
	cat >"$EXP_DIR/record-variant-int" <<EOF
#!/usr/bin/env bash
echo "\$1" >>"$log"
EOF
	chmod +x "$EXP_DIR/record-variant-int"
	# Job control: a background job of a shell without it ignores
	# SIGINT, and bash cannot trap a signal ignored on entry, so
	# without it the run would just finish and restore at its end.
	# And when make check itself was started in the background, SIGINT
	# is ignored for the whole tree: env puts its default back before
	# oltpmark-run starts, so that its trap can take it.
	set -m
	env --default-signal=INT "$REPO/run/oltpmark-run" --label kern-i --configs cached --runs 1 -w 1 \
		-d 60 --ramp-up 1 "${PACE[@]}" --no-baseline --hooks none \
		--variant "rec=$EXP_DIR/record-variant-int" \
		--results "$EXP_DIR/results" >"$EXP_DIR/int.out" 2>&1 &
	local pid=$! status=0
	# Interrupted while the run is under way: it has begun its mix.csv.
	for _ in $(seq 1 1200); do
		grep -q "^apply" "$log" 2>/dev/null &&
			[ -e "$EXP_DIR/results/kern-i+rec/cached/run-1/mix.csv.tmp" ] && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid" || status=$?
	set +m
	cat "$EXP_DIR/int.out"
	# stopped by the interrupt (exit 1), not at the end of its 60 s,
	# and the run marked partial
	[ "$status" -eq 1 ]
	grep -q "interrupted" "$EXP_DIR/int.out"
	grep -q '"partial": true' "$EXP_DIR"/results/kern-i+rec/cached/run-*/summary.json
	[ "$(tail -n 1 "$log")" = restore ]
	run leftover_processes "$EXP_DIR/results/.clusters"
	echo "left behind: $output"
	[ -z "$output" ]
}

@test "a pg-setting variant is restored when oltpmark-run is interrupted" {
	local auto pid status=0
	# As the test above: job control, so that the run takes SIGINT.
	# Results of its own, on the cluster setup_file loaded (--work): no
	# second load.
	set -m
	env --default-signal=INT "$REPO/run/oltpmark-run" --label kern-p --configs cached --runs 1 -w 1 \
		-d 60 --ramp-up 1 "${PACE[@]}" --no-baseline --hooks none \
		--variant "wm=$REPO/run/variants/pg-setting work_mem 7MB" \
		--work "$EXP_DIR/results/.clusters" \
		--results "$EXP_DIR/results-p" >"$EXP_DIR/int-p.out" 2>&1 &
	pid=$!
	for _ in $(seq 1 1200); do
		[ -e "$EXP_DIR/results-p/kern-p+wm/cached/run-1/mix.csv.tmp" ] && break
		sleep 0.1
	done
	auto=$EXP_DIR/results/.clusters/cached/data/postgresql.auto.conf
	grep -q 'reusing the loaded database' "$EXP_DIR/int-p.out"
	# applied while the run is under way
	grep -q "^work_mem = '7MB'" "$auto"
	kill -INT "$pid"
	wait "$pid" || status=$?
	set +m
	cat "$EXP_DIR/int-p.out"
	[ "$status" -eq 1 ]
	grep -q "interrupted" "$EXP_DIR/int-p.out"
	# put back exactly: no ALTER SYSTEM entry, as before
	run grep -q '^work_mem' "$auto"
	((status == 1))
	grep -q 'work_mem back to ' "$EXP_DIR/int-p.out"
}

@test "bad options exit 2 with one line" {
	run "$REPO/run/oltpmark-run" --runs 0
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$REPO/run/oltpmark-run" --configs warm
	[ "$status" -eq 2 ]
	run "$REPO/run/oltpmark-run" --variant nonsense
	[ "$status" -eq 2 ]
	run "$REPO/run/oltpmark-run" --bogus
	[ "$status" -eq 2 ]
	# psql's -h is no help here (a silent exit 0 in a script)
	run "$REPO/run/oltpmark-run" -h dbhost -w 1
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *--conninfo* ]]
	# a size error names its option
	run "$REPO/run/oltpmark-run" --noncached-memory-limit "2 GB"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"option --noncached-memory-limit: '2 GB'"* ]]
	run "$REPO/run/oltpmark-run" --cached-shared-buffers 2XB
	[ "$status" -eq 2 ]
	[[ $output == *"option --cached-shared-buffers: '2XB'"* ]]
}

@test "non-cached runs put the server in a memory cgroup (root only)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for cgroups and drop_caches"
	. "$REPO/run/lib.sh"
	om_cgroup_memory_root >/dev/null || skip "no memory cgroup controller here"
	run "$REPO/run/oltpmark-run" --label kern-n --configs noncached --runs 1 \
		-w 1 -d 2 --ramp-up 0 "${PACE[@]}" --hooks none --results "$EXP_DIR/results-nc"
	[ "$status" -eq 0 ]
	meta=$EXP_DIR/results-nc/kern-n/noncached/run-1/meta.json
	grep -q '"noncached_enforced": true' "$meta"
	grep -q '"page_cache_dropped": true' "$meta"
	grep -q '"noncached_memory_limit_bytes": "[0-9]' "$meta"
	# nothing of the run is left, and the cgroup is gone
	run leftover_processes "$EXP_DIR/results-nc"
	echo "left behind: $output"
	[ -z "$output" ]
	cg=$(sed -n 's/.*"noncached_cgroup": "\([^"]*\)".*/\1/p' "$meta")
	echo "cgroup: $cg"
	[ -n "$cg" ]
	[ ! -e "${cg#* }" ]
}

@test "checkpoints overlapping the run are taken from the server log" {
	. "$REPO/run/lib.sh"
	local log=$EXP_DIR/ck.log s e
	cat >"$log" <<'LOG'
2026-11-29 22:00:00.000 UTC [1] LOG:  checkpoint starting: time
2026-11-29 22:00:10.500 UTC [1] LOG:  checkpoint complete: wrote 3 buffers
2026-11-29 21:59:00.000 UTC [1] LOG:  unrelated line
2026-11-29 22:01:00.000 UTC [1] LOG:  checkpoint starting: immediate force wait
2026-11-29 22:01:01.000 UTC [1] LOG:  checkpoint complete: wrote 3 buffers
2026-11-29 22:02:00.000 UTC [1] LOG:  checkpoint starting: wal
LOG
	s=$(date -u -d "2026-11-29 22:00:05" +%s)
	e=$(date -u -d "2026-11-29 22:02:30" +%s)
	run om_checkpoints "$log" "$s.2" "$e.0"
	[ "$status" -eq 0 ]
	# the first was running at the start, the last is cut at the end
	[ "${lines[0]}" = "$((s - 5)).000,$((s + 5)).500,time" ]
	[ "${lines[1]}" = "$((s + 55)).000,$((s + 56)).000,immediate force wait" ]
	[ "${lines[2]}" = "$((s + 115)).000,$e.000,wal unfinished" ]
	[ "${#lines[@]}" -eq 3 ]
	# a window before all of them holds none
	run om_checkpoints "$log" "$((s - 1000))" "$((s - 100))"
	[ -z "$output" ]
}

@test "readprofile and lockstat hooks on the fixtures give tables in the report" {
	local d=$EXP_DIR/evidence fx=$REPO/tests/fixtures
	mkdir -p "$d/sys"
	cp "$REPO"/tests/golden/run-basic/{mix.csv,meta.json,run.json} "$d"
	OLTPMARK_PROFILE=$fx/readprofile/profile-base \
		OLTPMARK_SYSTEM_MAP=$fx/readprofile/System.map \
		OLTPMARK_LOCK_STAT=$fx/lock_stat/lock_stat-base.txt \
		"$REPO/run/hooks/run-all" start "$d/sys" readprofile lockstat
	OLTPMARK_PROFILE=$fx/readprofile/profile-base \
		OLTPMARK_SYSTEM_MAP=$fx/readprofile/System.map \
		OLTPMARK_LOCK_STAT=$fx/lock_stat/lock_stat-base.txt \
		"$REPO/run/hooks/run-all" stop "$d/sys" readprofile lockstat
	[ -s "$d/sys/readprofile.txt" ]
	[ -s "$d/sys/lock_stat.txt" ]
	run "$OLTPMARK" report "$d"
	[ "$status" -eq 0 ]
	# the top kernel function of the fixture profile and the SCSI host lock
	grep -q "default_idle" "$d/report.html"
	grep -q "host_lock" "$d/report.html"
}
