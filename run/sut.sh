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
# By default the SUT is this machine: on_sut runs a function of run/lib.sh
# in run/sut-exec here (a fresh bash that sources the library), any other
# command as itself. After sut_remote HOST DIR (run/oltpmark-run --sut,
# docs/experiments.md "The system under test on its own host") it is
# another host, reached over one ssh control connection (ControlMaster):
# every command becomes
#   ssh $OLTPMARK_SSH_OPTS -o ControlPath=... HOST 'env VAR=... bash DIR/run/sut-exec CMD ARG...'
# with each word quoted for the remote shell (ssh joins its arguments
# into one command line). So a command given to on_sut must never depend
# on the caller's shell variables or functions: it gets what it needs as
# arguments or as exported variables (the ones in OM_SUT_ENV, which the
# ssh form passes on), and its output comes back on stdout and stderr,
# its status as on_sut's (255: the connection failed).

# run/ beside this file, and its run/sut-exec, found once when sourced.
OM_SUT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly OM_SUT_DIR
readonly OM_SUT_EXEC=$OM_SUT_DIR/sut-exec
# The variables a command on the SUT may read, passed on by the ssh form.
readonly OM_SUT_ENV="OLTPMARK_PGDATA OLTPMARK_VARIANT_STATE_DIR OLTPMARK_HOOKS_DIR
OLTPMARK_CONNINFO OLTPMARK_RAMP_UP_S OLTPMARK_DURATION_S OLTPMARK_VARIANT_SWITCH
OLTPMARK_HOOK_CALL_S OLTPMARK_HOOK_MAX_S OLTPMARK_PERF_WINDOW_S OLTPMARK_PG_BINDIR
OLTPMARK_PG_LISTEN OLTPMARK_PG_PASSWORD_FILE OLTPMARK_PG_START_TIMEOUT
OLTPMARK_PG_STOP_TIMEOUT"
# The SUT's host ("" for this machine), its oltpmark tree there, and the
# private directory of the ssh control socket (run/sut-ssh.sh).
OM_SUT_HOST=""
OM_SUT_TREE=""
OM_SUT_CTL=""

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
	if [[ -n $OM_SUT_HOST ]]; then
		sut_ssh_argv sut_argv_ref "$@"
	elif [[ $1 == om_* ]]; then
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

# sut_path LOCAL_DIR REL: where a directory of this host's results (a
# run's sys/, REL its path below the results) is on the SUT: itself
# here, DIR/var/runs/REL of the SUT's tree over ssh. sut_fetch brings
# its files back.
sut_path() {
	if [[ -n $OM_SUT_HOST ]]; then
		echo "$OM_SUT_TREE/var/runs/${2//\//_}"
	else
		echo "$1"
	fi
}

# sut_fetch SUT_DIR LOCAL_DIR: copy the files of SUT_DIR (sut_path's)
# into LOCAL_DIR and remove SUT_DIR; nothing to do here.
sut_fetch() {
	[[ -n $OM_SUT_HOST && $1 != "$2" ]] || return 0
	local -a argv
	mkdir -p -- "$2" || return 1
	sut_argv argv tar -C "$1" -cf - . || return 1
	"${argv[@]}" | tar -C "$2" -xf - || return 1
	on_sut rm -rf -- "$1"
}

# shellcheck source=run/sut-ssh.sh
. "$OM_SUT_DIR/sut-ssh.sh"
