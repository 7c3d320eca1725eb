# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Shared helpers for the bats integration tests: paths to the tree and the
# binary under test, and a throwaway PostgreSQL cluster (run/pg: unix socket
# only, a free port, stopped by PID) that a test file starts in setup_file
# and removes in teardown_file. Load with `load helpers`.

# Top of the source tree, from this file's location.
REPO=$(cd -- "${BATS_TEST_DIRNAME:-${BASH_SOURCE[0]%/*}}/../.." && pwd)
# The oltpmark binary under test.
OLTPMARK=${OLTPMARK:-$REPO/oltpmark}
# The cluster manager.
RUN_PG=$REPO/run/pg
export REPO OLTPMARK RUN_PG

# psql from PATH, else from the server's bin directory.
if command -v psql >/dev/null 2>&1; then
	PSQL=psql
elif [[ -n ${OLTPMARK_PG_BINDIR:-} ]]; then
	PSQL=$OLTPMARK_PG_BINDIR/psql
else
	PSQL=$(pg_config --bindir 2>/dev/null)/psql
fi
export PSQL

# pg_mktemp: print the name of a new empty directory for a cluster. It lives
# under BATS_TMPDIR (/tmp), not under bats' own 0700 run directory, which
# user postgres (the server's user when tests run as root) cannot enter, and
# whose long path would not fit in a unix socket address.
pg_mktemp() {
	mktemp -d "${BATS_TMPDIR:-/tmp}/oltpmark-pg.XXXXXX"
}

# pg_discard DIR: stop the cluster in DIR by its PID and remove DIR. A
# directory without the run/pg marker is only removed when empty (a fresh
# pg_mktemp whose init failed early). Safe on a missing DIR.
pg_discard() {
	local dir=$1

	[[ -n $dir && -d $dir ]] || return 0
	if [[ -f $dir/.oltpmark-cluster ]]; then
		"$RUN_PG" stop "$dir" || return 1
		rm -rf -- "$dir"
	else
		rmdir -- "$dir"
	fi
}

# pg_throwaway_start [SERVER-ARGS...]: create, initialize and start a
# cluster in a new temporary directory, with SERVER-ARGS (-c NAME=VALUE ...)
# on the server's command line. Exports PGTEST_DIR, OLTPMARK_CONNINFO and
# PGHOST, PGPORT, PGDATABASE, PGUSER (so plain psql reaches it). For
# setup_file; pair it with pg_throwaway_stop in teardown_file.
pg_throwaway_start() {
	local dir conninfo

	dir=$(pg_mktemp) || return 1
	export PGTEST_DIR=$dir
	if ! "$RUN_PG" init "$dir" || ! "$RUN_PG" start "$dir" -- "$@" ||
	   ! conninfo=$("$RUN_PG" conninfo "$dir"); then
		pg_throwaway_stop
		return 1
	fi
	export OLTPMARK_CONNINFO=$conninfo
	export PGHOST=$dir/socket
	PGPORT=$(<"$dir/port")
	export PGPORT
	export PGDATABASE=oltpmark
	export PGUSER=${conninfo##*user=}
}

# pg_throwaway_stop: stop the cluster of pg_throwaway_start by PID and
# remove its directory. Safe to call twice.
pg_throwaway_stop() {
	if [[ -n ${PGTEST_DIR:-} ]]; then
		pg_discard "$PGTEST_DIR" || return 1
	fi
	unset PGTEST_DIR OLTPMARK_CONNINFO PGHOST PGPORT PGDATABASE PGUSER
}

# psql_value SQL [CONNINFO]: print the single value SQL returns (unaligned,
# no headers); fails on any SQL error. CONNINFO defaults to
# $OLTPMARK_CONNINFO.
psql_value() {
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d "${2:-$OLTPMARK_CONNINFO}" -c "$1"
}

# pg_dir_pids DATADIR: PIDs of live (non-zombie) processes whose working
# directory is DATADIR; a postmaster and all its children work there.
# Builtins only (test -ef, read): one fork per process made this scan take
# seconds on a busy host.
pg_dir_pids() {
	local p line

	for p in /proc/[0-9]*; do
		[[ $p/cwd -ef $1 ]] || continue
		{ read -r line <"$p/stat"; } 2>/dev/null || continue
		[[ ${line##*) } != Z* ]] || continue
		printf '%s\n' "${p#/proc/}"
	done
	return 0
}

# leftover_processes TEXT: /proc/PID of each process whose command line
# (its arguments joined by spaces) holds TEXT, to show that a test left
# nothing running. A process may exit during the scan: it is skipped.
# Builtins only, as pg_dir_pids.
leftover_processes() {
	local f
	local -a args

	for f in /proc/[0-9]*/cmdline; do
		{ mapfile -d '' -t args <"$f"; } 2>/dev/null || continue
		[[ "${args[*]-} " == *"$1"* ]] && echo "${f%/cmdline}"
	done
	return 0
}

# tcp_listening PORT: true if anything listens on TCP port PORT, on any
# IPv4 or IPv6 address (state 0A in /proc/net/tcp and tcp6).
tcp_listening() {
	local hex

	printf -v hex '%04X' "$1"
	awk -v hex="$hex" '
		NR > 1 && $4 == "0A" { split($2, a, ":"); if (a[2] == hex) f = 1 }
		END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# dir_snapshot DIR: names, modes, owners, sizes, times and contents of
# everything under DIR, to show that a command left it untouched.
dir_snapshot() {
	(
		cd -- "$1" &&
		find . -printf '%p %m %u %s %T@\n' | sort &&
		find . -type f -print0 | sort -z | xargs -0 -r sha256sum
	)
}

# array_unavailable: why the array cannot be made here (one line), or
# nothing.
array_unavailable() {
	if ((EUID != 0)); then
		echo "needs root (losetup, mkfs, mount; the server runs as postgres)"
	elif [[ ! -c /dev/loop-control ]]; then
		echo "no loop devices (/dev/loop-control missing)"
	elif ! losetup --find >/dev/null 2>&1; then
		echo "no free loop device (losetup --find failed)"
	elif ! command -v mkfs.ext4 >/dev/null 2>&1; then
		echo "mkfs.ext4 not installed (Debian: e2fsprogs)"
	elif ! id -u postgres >/dev/null 2>&1; then
		echo "no user postgres (install postgresql)"
	fi
}
