#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# seam.bats - the scripts of run/ that orchestrate an experiment reach the
# machine under test only through run/sut.sh (docs/hacking.md, "Where a
# command runs: the on_sut seam"), and the checker (tests/seam-check.sh)
# does catch each kind of command that goes around it.
# shellcheck disable=SC2016 # the lines given are shell code, unexpanded

bats_require_minimum_version 1.5.0

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	t=$BATS_TEST_TMPDIR/t
	mkdir -p "$t"
	cp -r "$top/run" "$t/"
}

# violates FILE LINE WHAT: LINE appended to run/FILE of a copy of the tree
# makes the check fail, naming FILE and WHAT.
violates() {
	printf '%s\n' "$2" >>"$t/run/$1"
	run bash "$top/tests/seam-check.sh" "$t"
	[ "$status" -eq 1 ]
	[[ $output == *"run/$1:"*"$3"* ]]
}

@test "the tree keeps the seam" {
	run bash "$top/tests/seam-check.sh" "$top"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the same commands through on_sut and sut_write pass" {
	cat >>"$t/run/oltpmark-run" <<'SH'
on_sut pg stop "$dir" >/dev/null || om_warn "could not stop the cluster in $dir"
OLTPMARK_HOOKS_DIR=$x on_sut hooks/run-all stop "$d" "${hooks[@]}"
on_sut "${words[@]}" restore
kills=$(on_sut om_cgroup_oom_kills "$cg")
echo 10 | sut_write /proc/sys/vm/swappiness
pid=$(on_sut head -n 1 -- "$dir/data/postmaster.pid")
SH
	run bash "$top/tests/seam-check.sh" "$t"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "run/pg called directly is caught" {
	violates oltpmark-run '	"$HERE/pg" stop "$dir" >/dev/null' "runs run/pg"
}

@test "run/pg in run/demo is caught" {
	violates demo 'run/pg stop "$c"' "runs run/pg"
}

@test "pg_ctl is caught" {
	violates state.sh '	pg_ctl -D "$dir/data" stop' "runs pg_ctl"
}

@test "sysctl is caught" {
	violates devices.sh '	sysctl -w vm.swappiness=10' "runs sysctl"
}

@test "a write to a cgroup file is caught" {
	violates oltpmark-run '	echo "$pid" >"$dir/cgroup.procs"' "touches cgroup files"
	violates state.sh '	cat /sys/fs/cgroup/cgroup.controllers' "touches cgroup files"
}

@test "a SUT function of run/lib.sh called directly is caught" {
	violates oltpmark-run '	om_cgroup_destroy "$cg"' "calls a SUT function of run/lib.sh directly"
}

@test "an I/O scheduler file is caught" {
	violates demo 'cat "/sys/block/$dev/queue/scheduler"' "/sys/block or an I/O scheduler"
	violates oltpmark-run '	echo bfq >"$q/queue/scheduler"' "/sys/block or an I/O scheduler"
}

@test "/proc of the server is caught" {
	violates oltpmark-run '	echo 3 >/proc/sys/vm/drop_caches' "/proc of the machine"
	violates state.sh '	pid=$(head -n 1 "$dir/data/postmaster.pid")' "/proc of the machine"
}

@test "the hooks run directly are caught" {
	violates oltpmark-run '	"$HERE/hooks/run-all" start "$run_dir/sys" "${hooks[@]}"' "runs run/pg, a hook"
}

@test "a variant's script run directly is caught" {
	violates state.sh '	"${words[@]}" "$2"' "a command held in an array"
}

@test "a mount or a loop device is caught" {
	violates devices.sh '	mount -t ext4 -- "$dev" "$mp"' "mounts, loop devices"
	violates devices.sh '	x=$(losetup --find --show -- "$f")' "mounts, loop devices"
}

@test "a new sourced file of run/ is checked too" {
	printf '# shellcheck shell=bash\nsysctl -w vm.swappiness=1\n' >"$t/run/new.sh"
	run bash "$top/tests/seam-check.sh" "$t"
	[ "$status" -eq 1 ]
	[[ $output == *"run/new.sh:2: runs sysctl"* ]]
}

@test "on_sut runs a function of run/lib.sh without the caller's variables" {
	# What run/sut-exec sees: its arguments and the environment only.
	run bash -c '. "$1/run/lib.sh"; . "$1/run/sut.sh"; hidden=1; on_sut bash -c "echo \${hidden:-unset} \$OLTPMARK_X"; on_sut om_is_uint 12 && echo uint' _ "$top"
	[ "$status" -eq 0 ]
	[ "$output" = "unset"$'\n'"uint" ]
	OLTPMARK_X=seen run bash -c '. "$1/run/sut.sh"; export OLTPMARK_X; on_sut bash -c "echo \$OLTPMARK_X"' _ "$top"
	[ "$output" = seen ]
	run bash -c '. "$1/run/sut.sh"; printf "a b\n" | sut_write "$2"; sut_read "$2"' _ "$top" "$BATS_TEST_TMPDIR/f"
	[ "$output" = "a b" ]
	run -127 "$top/run/sut-exec" no-such-command-here
}
