#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sut.bats: run/oltpmark-run --sut, the system under test on a host of its
# own over ssh (issue 23), against a throwaway sshd of this file on a free
# port of 127.0.0.1, with a host key and a user key made here and given
# by OLTPMARK_SSH_OPTS (-F a config written here: nothing of ~/.ssh is
# read; sshd_setup and the others of helpers.bash). The SUT's oltpmark
# tree is a copy of the built tree's run/ and binary in a directory of
# its own, so nothing is read from this tree by accident. Tests: a full experiment whose hooks' files come back and
# which compare reads; the password nowhere in the results or the logs;
# the check of the SUT (one line per missing piece, nothing changed);
# the ssh connection lost mid-run; --recover from the state file kept on
# the SUT, and the ssh control directory a killed run leaves. The SUT
# being this machine, its /proc and /sys are read under the fixture tree
# tests/fixtures/fingerprint-vm (OLTPMARK_TEST_SUT_ROOT), so that a
# meta.json describing the driver's host instead of the SUT is caught.

load helpers

setup_file() {
	local why
	why=$(sshd_unavailable)
	[[ -z $why ]] || skip "$why"
	SUT_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-sut.XXXXXX")
	chmod 755 "$SUT_TMP"
	SSH_DIR=$SUT_TMP/ssh
	SUT_TREE=$SUT_TMP/sut-tree
	mkdir -m 700 "$SUT_TMP/tmp"
	sshd_setup "$SSH_DIR" sut
	# The SUT's tree: the built tree's run/ and binary, copied.
	mkdir -p "$SUT_TREE"
	cp -a "$REPO/run" "$REPO/oltpmark" "$SUT_TREE/"
	chmod -R go-w "$SUT_TREE"
	export SUT_TMP SSH_DIR SUT_TREE
	export OLTPMARK_SSH_OPTS="-F $SSH_DIR/ssh_config"
	sshd_start
	# The experiment of the first tests: two labels, cached, one short
	# run each, the default hooks on the first; the SUT's machine read
	# from the fixture tree.
	local label
	local -a hooks
	for label in sut-a sut-b; do
		hooks=()
		[[ $label == sut-a ]] || hooks=(--hooks vmstat)
		# TMPDIR: where the control socket's private directory goes
		TMPDIR=$SUT_TMP/tmp OLTPMARK_TEST_SUT_ROOT=$REPO/tests/fixtures/fingerprint-vm \
			"$REPO/run/oltpmark-run" --sut sut \
			--sut-dir "$SUT_TREE" --sut-listen 127.0.0.1 --label "$label" --configs cached \
			--runs 1 -w 1 -d 3 --ramp-up 1 "${PACE[@]}" "${hooks[@]}" \
			--results "$SUT_TMP/results" >"$SUT_TMP/$label.out" 2>&1 || {
			cat "$SUT_TMP/$label.out" >&3
			return 1
		}
	done
}

teardown_file() {
	local c
	[[ -n ${SUT_TMP:-} ]] || return 0
	for c in "$SUT_TREE"/var/.clusters/*/; do
		[ -e "$c/.oltpmark-cluster" ] && "$SUT_TREE/run/pg" stop "$c" >/dev/null 2>&1
	done
	if [[ -f $SSH_DIR/sshd.pid ]]; then
		kill "$(<"$SSH_DIR/sshd.pid")" 2>/dev/null || true
	fi
	rm -rf "$SUT_TMP"
}

# sut_postmasters: the servers running in the SUT's clusters.
sut_postmasters() {
	local c
	for c in "$SUT_TREE"/var/.clusters/*/; do
		[ -e "$c/.oltpmark-cluster" ] || continue
		"$SUT_TREE/run/pg" status "$c" 2>/dev/null | grep running || true
	done
}

# ctl_processes DIR: the PIDs of processes whose command line names DIR
# (an ssh master's ControlPath).
ctl_processes() {
	local f line
	for f in /proc/[0-9]*/cmdline; do
		# compared in bash: a grep would find its own command line
		line=$(tr '\0' ' ' 2>/dev/null <"$f") || continue
		[[ $line != *"$1/"* ]] || { f=${f#/proc/}; echo "${f%/cmdline}"; }
	done
	return 0
}

@test "an experiment on the SUT over ssh: runs, hooks' files back, compare" {
	local d=$SUT_TMP/results/sut-a/cached/run-1
	[ -s "$d/meta.json" ]
	[ -s "$d/summary.json" ]
	[ -s "$d/report.html" ]
	# the hooks ran there and their files are here
	[ -s "$d/sys/vmstat.txt" ]
	[ -s "$d/sys/hooks.log" ]
	[ -s "$d/sys/pg_stat_database.start.csv" ]
	[ -s "$d/sys/hostprobe.start.json" ] || [ -s "$d/sys/hostprobe.skipped" ]
	[ -e "$d/sys/checkpoints.csv" ]
	[ -s "$SUT_TMP/results/sut-b/cached/run-1/sys/vmstat.txt" ]
	# nothing of them is left on the SUT
	run find "$SUT_TREE/var/runs" -mindepth 1
	[ -z "$output" ]
	[ "$(json_eval "$d/meta.json" 'd["notes"]["terminals"]')" = other-host ]
	[ "$(json_eval "$d/meta.json" 'd["fingerprint"]["workload"]["terminals"]')" = other-host ]
	# over TCP, a workload key of its own (not pooled with unix-socket runs)
	[ "$(json_eval "$d/meta.json" 'd["fingerprint"]["workload"]["transport"]')" = tcp ]
	[ "$(json_eval "$d/meta.json" 'd["notes"]["sut.kernel"]')" = "$(uname -r)" ]
	[ -n "$(json_eval "$d/meta.json" 'd["notes"]["driver.host"]')" ]
	# the machine recorded is the SUT's, read there (the fixture tree),
	# the driver's apart
	[ -s "$d/sys/sut-machine.json" ]
	[ "$(json_eval "$d/meta.json" 'd["fingerprint"]["treatment"]["kernel.release"]')" = 6.18.44-custom ]
	[ "$(json_eval "$d/meta.json" 'd["fingerprint"]["treatment"]["block.vdb.scheduler"]')" = mq-deadline ]
	[ "$(json_eval "$d/meta.json" 'd["fingerprint"]["environment"]["cpu.model"]')" = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" ]
	[ "$(json_eval "$d/meta.json" 'd["kernel"]["release"]')" = 6.18.44-custom ]
	[ "$(json_eval "$d/meta.json" 'd["driver_host"]["kernel"]["release"]')" = "$(uname -r)" ]
	grep -qx "kernel.osrelease = 6.18.44-custom" "$d/sys/sysctl.txt"
	grep -q "reusing the loaded database" "$SUT_TMP/sut-b.out"
	# make check's template, named by OLTPMARK_CLUSTER_FROM, is copied
	# on the SUT (the SUT being this machine here) and its load reused
	if [[ -n ${OLTPMARK_CLUSTER_FROM:-} ]]; then
		grep -q "a copy of $OLTPMARK_CLUSTER_FROM" "$SUT_TMP/sut-a.out"
		grep -q "reusing the loaded database" "$SUT_TMP/sut-a.out"
	fi
	run "$OLTPMARK" compare --baseline sut-a "$SUT_TMP/results"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *sut-b* ]]
	[[ $output == *"terminals on another host"* ]]
	[[ $output == *"the terminals reached the server over TCP"* ]]
	# the cluster is stopped, the control connection closed
	[ -z "$(sut_postmasters)" ]
	run ls -A "$SUT_TMP/tmp"
	[ -z "$output" ]
	[ ! -e "$SUT_TMP/results/.oltpmark-run.state" ]
	[ ! -e "$SUT_TREE/var/.oltpmark-run.state" ]
}

@test "the cluster's password is in no result file and no log" {
	local f pw
	f=$SUT_TREE/var/pgpass
	[ -f "$f" ]
	[ "$(stat -c %a "$f")" = 600 ]
	pw=$(sed -n 's/^\*:\*:\*:\*://p' "$f")
	[ "${#pw}" -ge 32 ]
	run grep -rlF -- "$pw" "$SUT_TMP/results" "$SUT_TMP"/*.out \
		"$SUT_TREE/var/.clusters" "$SUT_TREE/var/guard.log"
	echo "$output"
	[ "$status" -eq 1 ]
	# the server asks it over TCP
	port=$(<"$SUT_TREE/var/.clusters/cached/port")
	run env PGPASSFILE=/dev/null "$PSQL" -w "host=127.0.0.1 port=$port dbname=oltpmark user=postgres connect_timeout=5" -c 'SELECT 1'
	[ "$status" -ne 0 ]
}

@test "runs with the terminals on the SUT and on another host are not pooled" {
	local d=$SUT_TMP/mixed
	mkdir -p "$d/sut-a/cached"
	cp -a "$SUT_TMP/results/sut-a/cached/run-1" "$d/sut-a/cached/run-1"
	cp -a "$SUT_TMP/results/sut-a/cached/run-1" "$d/sut-a/cached/run-2"
	python3 - "$d/sut-a/cached/run-2/meta.json" <<-'EOF'
		import json, sys
		p = sys.argv[1]
		m = json.load(open(p))
		m["notes"]["terminals"] = "same-host"
		m["fingerprint"]["workload"]["terminals"] = "same-host"
		json.dump(m, open(p, "w"))
	EOF
	run "$OLTPMARK" compare "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *terminals* ]]
}

@test "a missing piece on the SUT: one line, nothing changed there" {
	local hookdir=$SUT_TMP/needy-hooks before after
	mkdir -m 755 "$hookdir"
	# shellcheck disable=SC2016 # the hook's own text
	printf '#!/usr/bin/env bash\n. "$(dirname "$0")/../lib.sh"\nhook_need om-no-such-tool\n' >"$hookdir/needy"
	chmod 755 "$hookdir/needy"
	before=$(dir_snapshot "$SUT_TREE")
	run "$REPO/run/oltpmark-run" --sut sut --sut-dir "$SUT_TREE" --sut-listen 127.0.0.1 \
		--label needy --configs cached --runs 1 -w 1 -d 3 --ramp-up 1 \
		--hooks vmstat,needy --hooks-dir "$hookdir" --results "$SUT_TMP/needy"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(grep -c 'missing on sut' <<<"$output")" -eq 1 ]
	[[ $output == *"om-no-such-tool (hook needy)"* ]]
	after=$(dir_snapshot "$SUT_TREE")
	[ "$before" = "$after" ]
	[ -z "$(sut_postmasters)" ]
}

@test "the SUT unreachable: one line naming it" {
	run env OLTPMARK_SSH_OPTS="$OLTPMARK_SSH_OPTS -o Port=1 -o ConnectTimeout=5" \
		"$REPO/run/oltpmark-run" --sut sut --sut-dir "$SUT_TREE" --sut-listen 127.0.0.1 \
		--configs cached --runs 1 -w 1 -d 3 --results "$SUT_TMP/unreachable"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"--sut sut: cannot connect over ssh"* ]]
}

@test "--recover puts the SUT back from the state file kept there" {
	local out=$SUT_TMP/killed.out pid guard ctl=$SUT_TMP/tmp-killed
	mkdir -m 700 "$ctl"
	# TMPDIR: the control directory the killed run leaves is seen here
	TMPDIR=$ctl "$REPO/run/oltpmark-run" --sut sut --sut-dir "$SUT_TREE" --sut-listen 127.0.0.1 \
		--label killed --configs cached --runs 1 -w 1 -d 60 --ramp-up 1 "${PACE[@]}" \
		--hooks vmstat --results "$SUT_TMP/killed" >"$out" 2>&1 &
	pid=$!
	wait_for 300 grep -q "run [0-9]* of [0-9]*: killed cached" "$out"
	wait_for 30 test -s "$SUT_TREE/var/.oltpmark-run.state"
	[ -n "$(sut_postmasters)" ]
	# Its guard on the SUT too: nothing puts the SUT back but --recover.
	guard=$(awk -F'\t' '$1 == "owner" { print $2 }' "$SUT_TREE/var/.oltpmark-run.state")
	kill -KILL "$guard" "$pid"
	wait "$pid" || true
	[ -n "$(sut_postmasters)" ]
	# its ssh control directory, master and password file are left
	run ls -A "$ctl"
	[[ $output == oltpmark-ssh.* ]]
	[ -n "$(ctl_processes "$ctl")" ]
	run env TMPDIR="$ctl" "$REPO/run/oltpmark-run" --recover --results "$SUT_TMP/killed"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"state file kept on sut"* ]]
	[[ $output == *"closed the ssh control connection"* ]]
	# closed and removed, with the recovery's own
	run ls -A "$ctl"
	[ -z "$output" ]
	[ -z "$(ctl_processes "$ctl")" ]
	[ -z "$(sut_postmasters)" ]
	[ ! -e "$SUT_TREE/var/.oltpmark-run.state" ]
	[ ! -e "$SUT_TMP/killed/.oltpmark-run.state" ]
	run leftover_processes "$SUT_TREE/var/runs"
	[ -z "$output" ]
}

@test "the ssh connection lost mid-run: partial run, exit 1, the SUT put back" {
	local out=$SUT_TMP/lost.out status=0
	"$REPO/run/oltpmark-run" --sut sut --sut-dir "$SUT_TREE" --sut-listen 127.0.0.1 \
		--label lost --configs cached --runs 1 -w 1 -d 60 --ramp-up 1 "${PACE[@]}" \
		--hooks vmstat --results "$SUT_TMP/lost" >"$out" 2>&1 &
	pid=$!
	wait_for 300 grep -q "run [0-9]* of [0-9]*: lost cached" "$out"
	sleep 3
	sshd_kill
	wait "$pid" || status=$?
	cat "$out"
	[ "$status" -eq 1 ]
	grep -q "lost the ssh connection to sut" "$out"
	[ "$(json_eval "$SUT_TMP/lost/lost/cached/run-1/run.json" 'd["partial"]')" = True ]
	# the guard on the SUT put it back by itself
	wait_for 120 test ! -e "$SUT_TREE/var/.oltpmark-run.state"
	[ -z "$(sut_postmasters)" ]
	run leftover_processes "$SUT_TREE/var/runs"
	[ -z "$output" ]
	grep -q "recover: done" "$SUT_TREE/var/guard.log"
	# what the hooks wrote there is kept, not lost with the connection
	[ -s "$SUT_TREE/var/runs/lost_cached_run-1_sys/hooks.log" ]
	# and --recover, once the SUT is reachable again, finds nothing left
	sshd_start
	run "$REPO/run/oltpmark-run" --recover --results "$SUT_TMP/lost"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"nothing left on sut"* ]]
}

# Last: its two warehouses replace the kept one-warehouse load that the
# tests before reuse (a reload is seconds of CPU, and make check is
# CPU-bound).
@test "--sut with two drivers, one here and one on another host: one merged run" {
	local out=$SUT_TMP/two.out d=$SUT_TMP/two/two/cached/run-1 before
	# (the lost run's hooks' files are there already)
	before=$(find "$SUT_TREE/var/runs" "$SUT_TREE/var/drivers" -mindepth 1 2>/dev/null || true)
	# The SUT's host is the second driver host too: its tree holds the
	# binary; the terminals of range 2/2 run there, over ssh.
	run env TMPDIR="$SUT_TMP/tmp" "$REPO/run/oltpmark-run" --sut sut --sut-dir "$SUT_TREE" \
		--sut-listen 127.0.0.1 --driver-hosts local,sut --driver-dir "$SUT_TREE" \
		--label two --configs cached --runs 1 -w 2 -d 3 --ramp-up 1 -c 2 "${PACE[@]}" \
		--hooks vmstat --results "$SUT_TMP/two"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_eval "$d/meta.json" 'len(d["merge"]["parts"])')" = 2 ]
	[ "$(json_eval "$d/meta.json" 'd["notes"]["drivers"]')" = local,sut ]
	[ "$(json_eval "$d/meta.json" 'd["notes"]["terminals"]')" = other-host ]
	[ "$(json_eval "$d/run.json" 'd["partial"]')" = False ]
	# both ranges' transactions are in the merged run, the hooks' files
	# came back from the SUT, nothing is left of either driver's run
	[ "$(json_eval "$d/meta.json" 'sorted((p["warehouse_range"]["first"], p["warehouse_range"]["last"]) for p in d["merge"]["parts"])')" = "[(1, 1), (2, 2)]" ]
	[ -s "$d/sys/vmstat.txt" ]
	[ "$(find "$SUT_TREE/var/runs" "$SUT_TREE/var/drivers" -mindepth 1 2>/dev/null)" = "$before" ]
	[ -z "$(sut_postmasters)" ]
	run ls -A "$SUT_TMP/tmp"
	[ -z "$output" ]
}
