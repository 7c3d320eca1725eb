#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# variants.bats: the shipped variant scripts (run/variants/) against a
# throwaway server of this file:
# - cpu-quota moves the server into a cgroup of its own with the quota
#   of PCT % of the online CPUs; a switch inside a block run
#   (OLTPMARK_VARIANT_SWITCH=1) lifts the cap and leaves the processes
#   in the cgroup, the next apply caps them again where they are; the
#   final restore moves every process back and removes the cgroup; a
#   second restore does nothing; bad arguments are refused; with `used`
#   the cap is PCT % of the CPU the busy server used before the first
#   apply, and an idle server is refused;
# - iosched switches every device under the database (the data
#   directory's and a tablespace's on a loop device of run/array), checks
#   them all before it changes any, and restore puts each one back from
#   its saved state, without the server;
# - sysctl puts back the value it found, also after two applies;
# - pg-setting changes a reloadable PostgreSQL setting and puts back
#   exactly what postgresql.auto.conf held, and refuses one that needs a
#   restart or new connections;
# - none changes nothing.
# The cgroup, iosched and sysctl tests need root, cpu-quota a cpu
# controller, iosched loop devices.

load helpers

setup_file() {
	pg_throwaway_start
	export OLTPMARK_PGDATA=$PGTEST_DIR/data
}

teardown_file() {
	pg_throwaway_stop
}

setup() {
	OLTPMARK_VARIANT_STATE_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-var.XXXXXX")
	export OLTPMARK_VARIANT_STATE_DIR
}

teardown() {
	# Whatever a failed test left applied is undone before the next.
	"$REPO/run/variants/cpu-quota" restore 2>/dev/null || true
	"$REPO/run/variants/iosched" none restore 2>/dev/null || true
	if [[ -n ${VAR_ARRAY:-} ]]; then
		psql_value "DROP TABLESPACE IF EXISTS var_ts" >/dev/null || true
		"$REPO/run/array" destroy "$VAR_ARRAY" >/dev/null 2>&1 || true
		rm -rf -- "${VAR_ARRAY%/arr}"
	fi
	if [[ -n ${SYSCTL_SAVED:-} ]]; then
		echo "$SYSCTL_SAVED" >/proc/sys/vm/swappiness
	fi
	rm -rf -- "$OLTPMARK_VARIANT_STATE_DIR"
}

# postmaster: the server's postmaster PID.
postmaster() {
	head -n 1 "$OLTPMARK_PGDATA/postmaster.pid"
}

# cpu_cgroup PID: the directory of PID's cgroup with the cpu controller,
# as run/variants/cpu-quota finds it (v2 unified, v1 the cpu hierarchy).
cpu_cgroup() {
	local line path
	if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
		path=$(sed -n 's/^0:://p' "/proc/$1/cgroup")
		echo "/sys/fs/cgroup${path%/}"
		return
	fi
	while IFS= read -r line; do
		case "$line" in
		*:cpu:* | *:cpu,cpuacct:* | *:cpuacct,cpu:*)
			path=${line#*:*:}
			if [[ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]]; then
				echo "/sys/fs/cgroup/cpu${path%/}"
			else
				echo "/sys/fs/cgroup/cpu,cpuacct${path%/}"
			fi
			return
			;;
		esac
	done <"/proc/$1/cgroup"
	return 1
}

# quota_of DIR: the quota in DIR as "max" or microseconds per period.
quota_of() {
	local q
	if [[ -f $1/cpu.max ]]; then
		read -r q _ <"$1/cpu.max"
	else
		q=$(<"$1/cpu.cfs_quota_us")
		[[ $q != -1 ]] || q=max
	fi
	echo "$q"
}

# all_server_in DIR: every process of the server sits in cgroup DIR.
all_server_in() {
	local pid n=0
	for pid in $(pg_dir_pids "$OLTPMARK_PGDATA"); do
		[[ $(cpu_cgroup "$pid") == "$1" ]] || return 1
		n=$((n + 1))
	done
	((n >= 2))
}

need_cgroup_root() {
	[[ $(id -u) == 0 ]] || skip "cpu-quota needs root to create a cgroup"
	cpu_cgroup "$(postmaster)" >/dev/null ||
		skip "no cgroup with a cpu controller holds the server"
	[[ -f /sys/fs/cgroup/cgroup.controllers || -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ||
		-f /sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us ]] ||
		skip "no cpu controller mounted"
}

@test "cpu-quota: the cap, switched in place, then every process back" {
	local origin dir want
	need_cgroup_root
	origin=$(cpu_cgroup "$(postmaster)")
	run "$REPO/run/variants/cpu-quota" 50 apply
	[ "$status" -eq 0 ]
	dir=$(cpu_cgroup "$(postmaster)")
	[ "$dir" != "$origin" ]
	[[ ${dir##*/} == "oltpmark-cpu-quota-$(postmaster)" ]]
	all_server_in "$dir"
	want=$((50 * $(nproc) * 100000 / 100))
	[ "$(quota_of "$dir")" = "$want" ]

	# a switch inside a block run: no cap, same cgroup
	OLTPMARK_VARIANT_SWITCH=1 run "$REPO/run/variants/cpu-quota" restore
	[ "$status" -eq 0 ]
	[ "$(quota_of "$dir")" = max ]
	all_server_in "$dir"
	# a backend forked meanwhile is in it too
	psql_value "select 1" >/dev/null
	OLTPMARK_VARIANT_SWITCH=1 run "$REPO/run/variants/cpu-quota" apply 80
	[ "$status" -eq 0 ]
	[ "$(cpu_cgroup "$(postmaster)")" = "$dir" ]
	[ "$(quota_of "$dir")" = "$((80 * $(nproc) * 100000 / 100))" ]

	# the final restore: back where they came from, the cgroup gone
	run "$REPO/run/variants/cpu-quota" restore
	[ "$status" -eq 0 ]
	all_server_in "$origin"
	[ ! -d "$dir" ]
	[ -z "$(ls -A "$OLTPMARK_VARIANT_STATE_DIR")" ]
	run "$REPO/run/variants/cpu-quota" restore
	[ "$status" -eq 0 ]
	all_server_in "$origin"
}

@test "cpu-quota used: PCT % of what the busy server used; an idle one is refused" {
	local dir used busy
	need_cgroup_root
	[[ -r /proc/$(postmaster)/schedstat ]] || skip "no /proc/PID/schedstat (CONFIG_SCHED_INFO)"
	run "$REPO/run/variants/cpu-quota" 50 used apply
	[ "$status" -ne 0 ]
	[[ $output == *"'used' needs the load running"* ]]
	[ -z "$(ls -A "$OLTPMARK_VARIANT_STATE_DIR")" ]

	# a backend busy for a while: the server uses about one CPU
	"$PSQL" -XAtq -d "$OLTPMARK_CONNINFO" \
		-c "SELECT count(*) FROM generate_series(1, 400000000)" >/dev/null 2>&1 &
	busy=$!
	wait_for 30 psql_true "SELECT count(*) > 0 FROM pg_stat_activity
		WHERE state = 'active' AND query LIKE '%generate_series(1, 4%'
		  AND pid <> pg_backend_pid()"
	run "$REPO/run/variants/cpu-quota" 50 used apply
	echo "$output"
	[ "$status" -eq 0 ]
	dir=$(cpu_cgroup "$(postmaster)")
	used=$(cat "$OLTPMARK_VARIANT_STATE_DIR/oltpmark-cpu-quota-$(postmaster).used")
	echo "used $used/1000 CPU"
	((used >= 50 && used <= 1000 * $(nproc) + 100))
	[ "$(quota_of "$dir")" = "$((50 * used))" ]
	[[ $output == *"capped at 50 % of the $used/1000 CPU it used"* ]]
	# a switch and a second apply keep the first measure
	OLTPMARK_VARIANT_SWITCH=1 run "$REPO/run/variants/cpu-quota" 50 used restore
	OLTPMARK_VARIANT_SWITCH=1 run "$REPO/run/variants/cpu-quota" 80 used apply
	[ "$status" -eq 0 ]
	[ "$(quota_of "$dir")" = "$((80 * used))" ]
	# the backend keeps counting after its client has gone: cancel it
	psql_value "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity
		     WHERE query LIKE '%generate_series(1, 400000000)%'
		       AND pid <> pg_backend_pid()" >/dev/null
	wait "$busy" 2>/dev/null || true
	run "$REPO/run/variants/cpu-quota" 80 used restore
	[ "$status" -eq 0 ]
	[ ! -d "$dir" ]
	[ -z "$(ls -A "$OLTPMARK_VARIANT_STATE_DIR")" ]
}

@test "cpu-quota: bad arguments and no server are refused" {
	run "$REPO/run/variants/cpu-quota" 0 apply
	[ "$status" -eq 2 ]
	run "$REPO/run/variants/cpu-quota" 101 apply
	[ "$status" -eq 2 ]
	run "$REPO/run/variants/cpu-quota" 50
	[ "$status" -eq 2 ]
	OLTPMARK_PGDATA=$BATS_TEST_TMPDIR run "$REPO/run/variants/cpu-quota" 50 apply
	[ "$status" -ne 0 ]
	[[ $output == *"no running server"* ]]
}

# sched DEV: the scheduler in use on DEV.
sched() {
	sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"
}

@test "iosched: every device under the database, and back from the saved state" {
	local why data_dev loop_dev target s before_data before_loop
	why=$(array_unavailable)
	[[ -z $why ]] || skip "$why"
	data_dev=$(. "$REPO/run/lib.sh" && om_block_device "$OLTPMARK_PGDATA") ||
		skip "the data directory's filesystem has no device with a scheduler"
	VAR_ARRAY=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-var-arr.XXXXXX")/arr
	# the server's user must pass through to the tablespace
	chmod 755 "${VAR_ARRAY%/arr}"
	"$REPO/run/array" create --disks 1 --size 64M --owner postgres "$VAR_ARRAY" >/dev/null
	loop_dev=$(. "$REPO/run/lib.sh" && om_block_device "$VAR_ARRAY/d1")
	[[ $loop_dev == loop* ]]
	mkdir -m 700 "$VAR_ARRAY/d1/ts"
	chown "$(stat -c %U "$OLTPMARK_PGDATA")" "$VAR_ARRAY/d1/ts"
	psql_value "CREATE TABLESPACE var_ts LOCATION '$VAR_ARRAY/d1/ts'" >/dev/null
	before_data=$(sched "$data_dev")
	before_loop=$(sched "$loop_dev")
	# a scheduler both offer, other than the data directory's now
	for s in none mq-deadline; do
		if [[ $s != "$before_data" ]] && grep -qw "$s" "/sys/block/$data_dev/queue/scheduler" &&
			grep -qw "$s" "/sys/block/$loop_dev/queue/scheduler"; then
			target=$s
			break
		fi
	done
	[[ -n ${target:-} ]] || skip "no scheduler offered by both $data_dev and $loop_dev"

	run "$REPO/run/variants/iosched" "$target" apply
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(sched "$data_dev")" = "$target" ]
	[ "$(sched "$loop_dev")" = "$target" ]
	# a second apply keeps the first saved value
	run "$REPO/run/variants/iosched" "$target" apply
	[ "$status" -eq 0 ]
	[ "$(cat "$OLTPMARK_VARIANT_STATE_DIR/oltpmark-iosched-$data_dev.saved")" = "$before_data" ]
	[ "$(cat "$OLTPMARK_VARIANT_STATE_DIR/oltpmark-iosched-$loop_dev.saved")" = "$before_loop" ]
	# restore needs only the saved state, not the server's directory
	OLTPMARK_PGDATA=/nonexistent run "$REPO/run/variants/iosched" "$target" restore
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(sched "$data_dev")" = "$before_data" ]
	[ "$(sched "$loop_dev")" = "$before_loop" ]
	[ -z "$(ls -A "$OLTPMARK_VARIANT_STATE_DIR")" ]
	# a scheduler one device lacks: refused before anything changes
	run "$REPO/run/variants/iosched" no-such-sched apply
	[ "$status" -ne 0 ]
	[[ $output == *"does not offer 'no-such-sched'"* ]]
	[ "$(sched "$data_dev")" = "$before_data" ]
	[ "$(sched "$loop_dev")" = "$before_loop" ]
	[ -z "$(ls -A "$OLTPMARK_VARIANT_STATE_DIR")" ]
}

@test "sysctl: the value found is put back, after two applies too" {
	[[ $(id -u) == 0 ]] || skip "setting a sysctl needs root"
	SYSCTL_SAVED=$(</proc/sys/vm/swappiness)
	local other=$((SYSCTL_SAVED == 10 ? 11 : 10))
	run "$REPO/run/variants/sysctl" "vm.swappiness=$other" apply
	[ "$status" -eq 0 ]
	[ "$(</proc/sys/vm/swappiness)" = "$other" ]
	run "$REPO/run/variants/sysctl" "vm.swappiness=$other" apply
	[ "$status" -eq 0 ]
	run "$REPO/run/variants/sysctl" "vm.swappiness=$other" restore
	[ "$status" -eq 0 ]
	[ "$(</proc/sys/vm/swappiness)" = "$SYSCTL_SAVED" ]
	run "$REPO/run/variants/sysctl" "vm.swappiness=$other" restore
	[ "$status" -eq 0 ]
	[ "$(</proc/sys/vm/swappiness)" = "$SYSCTL_SAVED" ]
	run "$REPO/run/variants/sysctl" "no.such.key=1" apply
	[ "$status" -ne 0 ]
}

@test "none: changes nothing and succeeds both ways" {
	run "$REPO/run/variants/none" apply
	[ "$status" -eq 0 ]
	run "$REPO/run/variants/none" restore
	[ "$status" -eq 0 ]
	[ -z "$(ls -A "$OLTPMARK_VARIANT_STATE_DIR")" ]
}

@test "pg-setting: ALTER SYSTEM and a reload, then exactly what postgresql.auto.conf held" {
	local auto=$OLTPMARK_PGDATA/postgresql.auto.conf

	# no entry before: none after
	run "$REPO/run/variants/pg-setting" work_mem 7MB apply
	((status == 0))
	[[ $(psql_value "SHOW work_mem") == 7MB ]]
	grep -q "^work_mem = '7MB'" "$auto"
	run "$REPO/run/variants/pg-setting" work_mem 7MB restore
	((status == 0))
	run grep -q '^work_mem' "$auto"
	((status == 1))
	[[ $(psql_value "SHOW work_mem") == 4MB ]]
	# an entry before: that entry after, also after two applies; a
	# second restore does nothing
	psql_value "ALTER SYSTEM SET work_mem = '5MB'" >/dev/null
	psql_value "SELECT pg_reload_conf()" >/dev/null
	run "$REPO/run/variants/pg-setting" work_mem 9MB apply
	run "$REPO/run/variants/pg-setting" work_mem 9MB apply
	((status == 0))
	[[ $(psql_value "SHOW work_mem") == 9MB ]]
	run "$REPO/run/variants/pg-setting" work_mem 9MB restore
	((status == 0))
	run "$REPO/run/variants/pg-setting" work_mem 9MB restore
	((status == 0))
	grep -q "^work_mem = '5MB'" "$auto"
	[[ $(psql_value "SHOW work_mem") == 5MB ]]
	psql_value "ALTER SYSTEM RESET work_mem" >/dev/null
	psql_value "SELECT pg_reload_conf()" >/dev/null
	# without OLTPMARK_CONNINFO: the cluster of OLTPMARK_PGDATA
	OLTPMARK_CONNINFO='' run "$REPO/run/variants/pg-setting" work_mem 6MB apply
	((status == 0))
	[[ $(psql_value "SHOW work_mem") == 6MB ]]
	OLTPMARK_CONNINFO='' run "$REPO/run/variants/pg-setting" work_mem 6MB restore
	((status == 0))
	run grep -q '^work_mem' "$auto"
	((status == 1))
}

@test "pg-setting: a setting that needs a restart, or new connections, or none, is refused" {
	run "$REPO/run/variants/pg-setting" shared_buffers 1GB apply
	((status == 2))
	[[ $output == *"shared_buffers needs a server restart (context postmaster)"* ]]
	run "$REPO/run/variants/pg-setting" log_connections on apply
	((status == 2))
	[[ $output == *"new connections"* ]]
	run "$REPO/run/variants/pg-setting" no_such_setting 1 apply
	((status == 2))
	[[ $output == *"no such PostgreSQL setting no_such_setting"* ]]
	run "$REPO/run/variants/pg-setting" "bad name" 1 apply
	((status == 2))
	run "$REPO/run/variants/pg-setting" work_mem apply
	((status == 2))
	run grep -q '^shared_buffers\|^log_connections' "$OLTPMARK_PGDATA/postgresql.auto.conf"
	((status == 1))
}
