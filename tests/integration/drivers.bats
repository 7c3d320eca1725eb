#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# drivers.bats: run/oltpmark-run --driver-hosts, each run driven by
# several load generators (issue 23, point 2): driver 1 `local`, driver 2
# over ssh to a throwaway sshd of this file on 127.0.0.1 (sshd_setup of
# helpers.bash), whose oltpmark is a copy of the built binary in a
# directory of its own (--driver-dir), so nothing is read from this tree
# by accident; the private cluster here listens on 127.0.0.1 for them
# (--driver-listen); the later experiments use that cluster, started
# again, through --conninfo (faster: no restarts, no copy). Tests: the merged run of a two-driver experiment is
# one run (nothing lost, C1-C12, report, compare); a driver's clock off
# the server's refuses the run with one line naming its host; the ssh
# connection to a driver lost mid-run ends the run partial, exit 1, the
# other driver stopped; bad usage and a driver host lacking its binary
# are refused before anything starts.

load helpers

setup_file() {
	local why
	why=$(sshd_unavailable)
	[[ -z $why ]] || skip "$why"
	DRV_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-drv.XXXXXX")
	chmod 755 "$DRV_TMP"
	DRV_TREE=$DRV_TMP/drv-tree
	DRV_OFF=$DRV_TMP/drv-off
	mkdir -m 700 "$DRV_TMP/tmp"
	sshd_setup "$DRV_TMP/ssh" drv
	# The driver host's oltpmark: the built binary, copied. And one
	# whose clock reads 80 ms off (beyond the default bound of 50).
	mkdir -p "$DRV_TREE" "$DRV_OFF"
	cp -a "$REPO/oltpmark" "$DRV_TREE/"
	printf '#!/bin/sh\nOLTPMARK_TEST_CLOCK_OFFSET_MS=80 exec %s/oltpmark "$@"\n' \
		"$DRV_TREE" >"$DRV_OFF/oltpmark"
	chmod 755 "$DRV_OFF/oltpmark"
	export DRV_TMP DRV_TREE DRV_OFF
	export OLTPMARK_SSH_OPTS="-F $SSH_DIR/ssh_config"
	sshd_start
	# The experiment of the first test: W=2, cached, one short run.
	# TMPDIR: where the control sockets' private directory goes.
	TMPDIR=$DRV_TMP/tmp "$REPO/run/oltpmark-run" --driver-hosts local,drv \
		--driver-dir "$DRV_TREE" --driver-listen 127.0.0.1 --label two \
		--configs cached --runs 1 -w 2 -d 4 --ramp-up 1 -c 4 "${PACE[@]}" --hooks vmstat \
		--results "$DRV_TMP/results" >"$DRV_TMP/two.out" 2>&1 || {
		cat "$DRV_TMP/two.out" >&3
		return 1
	}
	# The first test reads the run's database; the others run on it.
	DRV_CLUSTER=$DRV_TMP/results/.clusters/cached
	"$RUN_PG" start "$DRV_CLUSTER" >/dev/null
	DRV_CONNINFO="$("$RUN_PG" conninfo "$DRV_CLUSTER") dbname=oltpmark_run"
	export DRV_CLUSTER DRV_CONNINFO
}

teardown_file() {
	[[ -n ${DRV_TMP:-} ]] || return 0
	[ ! -e "$DRV_TMP/results/.clusters/cached/.oltpmark-cluster" ] ||
		"$RUN_PG" stop "$DRV_TMP/results/.clusters/cached" >/dev/null 2>&1 || true
	if [[ -f $SSH_DIR/sshd.pid ]]; then
		kill "$(<"$SSH_DIR/sshd.pid")" 2>/dev/null || true
	fi
	rm -rf "$DRV_TMP"
}

# experiment NAME DRIVER_DIR [OPTION...]: a two-driver experiment of one
# run of label NAME into DRV_TMP/NAME on the server of DRV_CONNINFO, in
# the foreground; its output in DRV_TMP/NAME.out.
experiment() {
	local name=$1 dir=$2
	shift 2
	TMPDIR=$DRV_TMP/tmp "$REPO/run/oltpmark-run" --driver-hosts local,drv \
		--driver-dir "$dir" --conninfo "$DRV_CONNINFO" --label "$name" \
		--configs cached --runs 1 -w 2 --ramp-up 1 -c 4 "${PACE[@]}" --hooks none \
		--results "$DRV_TMP/$name" "$@" >"$DRV_TMP/$name.out" 2>&1
}

@test "two drivers, one local, one over ssh: one merged run; nothing lost, C1-C12, report, compare" {
	local d=$DRV_TMP/results/two/cached/run-1 conninfo gained
	cat "$DRV_TMP/two.out"
	grep -q "2 drivers (local drv)" "$DRV_TMP/two.out"
	# the parts, kept beside the merged run, each with its log
	[ -s "$d/.drivers/1-local/run.json" ]
	[ -s "$d/.drivers/2-drv/run.json" ]
	[ -s "$d/.drivers/2-drv.log" ]
	# the merged run, with the hooks' files of the run beside it
	[ -s "$d/summary.json" ]
	[ -s "$d/report.html" ]
	[ -s "$d/sys/vmstat.txt" ]
	[ "$(head -1 "$d/mix.csv")" = "t_ms,terminal,type,status,response_us,service_us,host" ]
	[ "$(json_eval "$d/run.json" 'd["partial"]')" = False ]
	[ "$(json_eval "$d/run.json" 'd["terminals"]')" = 20 ]
	[ "$(json_eval "$d/run.json" 'd["connections"]')" = 4 ]
	# the hosts, their ranges and clock offsets in meta.json
	[ "$(json_eval "$d/meta.json" '[p["dir"] for p in d["merge"]["parts"]]')" = "['.drivers/1-local', '.drivers/2-drv']" ]
	[ "$(json_eval "$d/meta.json" '[(p["warehouse_range"]["first"], p["warehouse_range"]["last"]) for p in d["merge"]["parts"]]')" = "[(1, 1), (2, 2)]" ]
	[ "$(json_eval "$d/meta.json" 'all(p["clock"]["measured"] and abs(p["clock"]["offset_ms"]) < 50 for p in d["merge"]["parts"])')" = True ]
	[ "$(json_eval "$d/meta.json" 'd["notes"]["drivers"]')" = local,drv ]
	[ "$(json_eval "$d/meta.json" 'd["notes"]["drivers.2.kernel"]')" = "$(uname -r)" ]
	[ "$(json_eval "$d/meta.json" 'd["notes"]["terminals"]')" = same-host ]
	grep -q "driver drv (2/2): warehouses 2-2, clock .* against the server's" "$DRV_TMP/two.out"
	# nothing left on the driver host, no control socket, no process
	run find "$DRV_TREE/var/drivers" -mindepth 1
	[ -z "$output" ]
	[ "$(stat -c %a "$DRV_TREE/var/pgpass")" = 600 ]
	run ls -A "$DRV_TMP/tmp"
	[ -z "$output" ]
	run leftover_processes "$DRV_TREE"
	[ -z "$output" ]
	# compare reads it
	run "$OLTPMARK" compare "$DRV_TMP/results"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *two* ]]
	# nothing lost: the New-Orders committed over both drivers are the
	# orders the run's database gained over its template; and C1-C12
	conninfo=$("$RUN_PG" conninfo "$DRV_CLUSTER")
	gained=$(psql_value "SELECT sum(d_next_o_id) FROM district" "$conninfo dbname=oltpmark_run")
	gained=$((gained - $(psql_value "SELECT sum(d_next_o_id) FROM district" "$conninfo dbname=oltpmark_loaded")))
	[ "$gained" -gt 0 ]
	[ "$(awk -F, '$3 == "new_order" && $4 == "ok"' "$d/mix.csv" | wc -l)" -eq "$gained" ]
	run "$OLTPMARK" check --conninfo "$DRV_CONNINFO"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c PASS <<<"$output")" -ge 11 ]
}

@test "a driver's clock off the server's: the run refused, one line naming the host" {
	local status=0
	experiment offset "$DRV_OFF" -d 4 || status=$?
	cat "$DRV_TMP/offset.out"
	[ "$status" -eq 1 ]
	# one warning, naming the driver host and the bound
	[ "$(grep -c 'WARNING: driver drv (2/2): exited with status 1: .*--max-clock-offset' "$DRV_TMP/offset.out")" -eq 1 ]
	run grep -c 'WARNING: .*max-clock-offset' "$DRV_TMP/offset.out"
	[ "$output" -eq 1 ]
	# no merged run; the local driver was stopped before its start
	[ ! -e "$DRV_TMP/offset/offset/cached/run-1/meta.json" ]
	run leftover_processes "$DRV_TREE"
	[ -z "$output" ]
}

@test "bad usage and a driver host lacking oltpmark: one line, nothing started" {
	local r=$DRV_TMP/bad
	# --hooks none: the hooks' checks would only make each call slower
	local -a OLTPMARK_RUN=("$REPO/run/oltpmark-run" --hooks none)
	run "${OLTPMARK_RUN[@]}" --driver-hosts drv --driver-dir "$DRV_TREE" --results "$r"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"--driver-hosts: 'drv' names fewer than two hosts"* ]]
	run "${OLTPMARK_RUN[@]}" --driver-hosts local,drv --driver-listen 127.0.0.1 --results "$r"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"option --driver-dir: '' is not an absolute path"* ]]
	run "${OLTPMARK_RUN[@]}" --driver-hosts local,drv --driver-dir "$DRV_TREE" --results "$r"
	[ "$status" -eq 2 ]
	[[ $output == *"needs --driver-listen ADDR"* ]]
	run "${OLTPMARK_RUN[@]}" --driver-hosts local,local,local -w 2 --results "$r"
	[ "$status" -eq 2 ]
	[[ $output == *"names more hosts than the 2 warehouses"* ]]
	run "${OLTPMARK_RUN[@]}" --driver-hosts 'local,-oProxyCommand=x' --results "$r"
	[ "$status" -eq 2 ]
	# alone it is the local run over TCP (experiment.bats), but checked
	run "${OLTPMARK_RUN[@]}" --driver-listen '127.0.0.1;x' --results "$r"
	[ "$status" -eq 2 ]
	[[ $output == *"is not a host name or an address"* ]]
	run "${OLTPMARK_RUN[@]}" --driver-dir "$DRV_TREE" --results "$r"
	[ "$status" -eq 2 ]
	[[ $output == *"needs --driver-hosts"* ]]
	[ ! -e "$r" ]
	# the driver host's directory holds no oltpmark: one line, exit 1
	mkdir -m 755 "$DRV_TMP/empty"
	run env TMPDIR="$DRV_TMP/tmp" "${OLTPMARK_RUN[@]}" --driver-hosts local,drv \
		--driver-dir "$DRV_TMP/empty" --driver-listen 127.0.0.1 --results "$r"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(grep -c 'missing on driver drv' <<<"$output")" -eq 1 ]
	[[ $output == *"$DRV_TMP/empty/oltpmark (the oltpmark binary"* ]]
	[ ! -e "$r" ]
	run ls -A "$DRV_TMP/empty" "$DRV_TMP/tmp"
	[ "$output" = "$(printf '%s:\n\n%s:' "$DRV_TMP/empty" "$DRV_TMP/tmp")" ]
	# unreachable: one line naming it
	run env OLTPMARK_SSH_OPTS="$OLTPMARK_SSH_OPTS -o Port=1 -o ConnectTimeout=5" \
		"${OLTPMARK_RUN[@]}" --driver-hosts local,drv --driver-dir "$DRV_TREE" \
		--driver-listen 127.0.0.1 --results "$r"
	[ "$status" -eq 1 ]
	[[ $output == *"--driver-hosts drv: cannot connect over ssh"* ]]
}

@test "the ssh connection to a driver lost mid-run: partial, exit 1, the other driver stopped" {
	local out=$DRV_TMP/lost.out status=0 pid t0
	experiment lost "$DRV_TREE" -d 60 &
	pid=$!
	wait_for 120 grep -qs "2 drivers (local drv)" "$out"
	# past the start instant (10 s ahead), into the ramp-up and the run
	sleep 13
	t0=$SECONDS
	sshd_kill
	wait "$pid" || status=$?
	cat "$out"
	[ "$status" -eq 1 ]
	# well before the 60 s of the run
	((SECONDS - t0 < 40))
	grep -q "WARNING: driver drv (2/2): lost the ssh connection" "$out"
	[ "$(json_eval "$DRV_TMP/lost/lost/cached/run-1/.drivers/1-local/run.json" 'd["partial"]')" = True ]
	[ ! -e "$DRV_TMP/lost/lost/cached/run-1/meta.json" ]
	# the driver host's wrapper saw its input end and stopped its run
	wait_for 30 test -z "$(leftover_processes "$DRV_TREE")"
	[ ! -e "$DRV_TMP/lost/.oltpmark-run.state" ]
	sshd_start
}
