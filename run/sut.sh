# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/sut.sh: the one seam between the scripts that orchestrate an
# experiment (run/oltpmark-run, run/demo, run/state.sh, run/devices.sh)
# and the machine under test (the SUT): every command that acts on or
# reads that machine (run/pg, the hooks, the variants' scripts, cgroups,
# I/O schedulers, /proc/sys, the cluster's files, mounts) goes through
# on_sut, every file written there through sut_write, every file read
# there through sut_read. tests/seam-check.sh (tests/integration/seam.bats)
# fails when an orchestrator script goes around them.
#
# Today the SUT is this machine: on_sut runs a function of run/lib.sh in
# run/sut-exec here (a fresh bash that sources the library), any other
# command as itself. The two-host work (issue 23) changes only this
# file: on_sut (sut_argv) becomes
#   ssh $OLTPMARK_SSH_OPTS HOST bash SUT_DIR/run/sut-exec CMD ARG...
# So a command given to on_sut must never depend on the caller's shell
# variables or functions: it gets what it needs as arguments or as
# exported variables (OLTPMARK_PGDATA, OLTPMARK_VARIANT_STATE_DIR,
# OLTPMARK_HOOKS_DIR, OLTPMARK_CONNINFO, OLTPMARK_RAMP_UP_S,
# OLTPMARK_DURATION_S, OLTPMARK_VARIANT_SWITCH, OLTPMARK: the ones the
# ssh form must pass on), and its output comes back on stdout and stderr,
# its status as on_sut's.

# run/ beside this file, and its run/sut-exec, found once when sourced.
OM_SUT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly OM_SUT_DIR
readonly OM_SUT_EXEC=$OM_SUT_DIR/sut-exec

# on_sut CMD [ARG...]: run CMD on the machine under test and return its
# status. CMD is a function of run/lib.sh (om_cgroup_create, ...), a
# program of run/ named relative to it (pg, hooks/run-all), or any other
# command (an absolute path, a name on the PATH).
on_sut() {
	local -a argv
	sut_argv argv "$@"
	"${argv[@]}"
}

# sut_argv ARRAY CMD [ARG...]: the command line that runs CMD ARG... on
# the machine under test, into the array named ARRAY: what on_sut runs,
# and what a program that runs it itself is given (oltpmark
# blocks-switch runs a variant's script so). Here a function of
# run/lib.sh (om_*) runs in run/sut-exec, a fresh bash that sources the
# library; a program runs as itself, started as fast as before the seam
# (a variant's switch is timed). Over ssh every command becomes
# ssh ... bash SUT_DIR/run/sut-exec CMD ARG... (run/sut-exec finds a
# program of run/ the same way).
sut_argv() {
	local -n sut_argv_ref=$1
	shift
	# shellcheck disable=SC2034 # a reference to the caller's array
	if [[ $1 == om_* ]]; then
		sut_argv_ref=("$OM_SUT_EXEC" "$@")
	elif [[ $1 != /* && -f $OM_SUT_DIR/$1 && -x $OM_SUT_DIR/$1 ]]; then
		sut_argv_ref=("$OM_SUT_DIR/$1" "${@:2}")
	else
		sut_argv_ref=("$@")
	fi
}

# sut_write FILE: write stdin to FILE on the machine under test.
sut_write() {
	on_sut om_write_file "$1"
}

# sut_read FILE: print FILE of the machine under test; fails when it
# cannot be read.
sut_read() {
	on_sut cat -- "$1"
}
