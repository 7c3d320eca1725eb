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
# wait_for, free_port and the throwaway sshd, shared with tests/bench.
# shellcheck source=tests/test-lib.sh
source "$REPO/tests/test-lib.sh"

# PACE: the pacing of a test's runs (oltpmark run, run/oltpmark-run) when
# the test looks at what a run writes, not at how fast it went: TPC-C's
# keying and think times at 1/100, about 48 transactions a second from
# W=1's ten terminals (measured: 483 in 10 s, each type at least 21
# times). With --keying-think none every run kept both CPUs of the test
# host busy for its whole length, and make check is CPU-bound there
# (docs/hacking.md, Tests). Tests that need a saturated server (a score,
# a throughput) keep none.
# shellcheck disable=SC2034 # used by the files that load this one
PACE=(--keying-think scale=0.01)

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
	local -a from=()

	dir=$(pg_mktemp) || return 1
	export PGTEST_DIR=$dir
	# a copy of a template (run/pg init --from) where make check made
	# one: 0.3 s of CPU instead of initdb's 1.7
	if [[ -n ${PG_THROWAWAY_FROM:-} ]]; then
		from=(--from "$PG_THROWAWAY_FROM")
	elif [[ -n ${OLTPMARK_TEST_EMPTY_FROM:-} ]]; then
		from=(--from "$OLTPMARK_TEST_EMPTY_FROM")
	fi
	if ! "$RUN_PG" init "$dir" "${from[@]}" || ! "$RUN_PG" start "$dir" -- "$@" ||
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

# pg_throwaway_start_w1 [SERVER-ARGS...]: pg_throwaway_start, then one
# warehouse loaded into its database (two jobs), the load's output on
# bats' fd 3. For setup_file of a file whose tests share that database.
# Under make check the cluster is a copy (run/pg init --from) of the
# template tests/run-tests.sh loaded the same way once
# (OLTPMARK_TEST_W1_FROM): a second instead of 10 s of CPU.
pg_throwaway_start_w1() {
	if [[ -n ${OLTPMARK_TEST_W1_FROM:-} ]]; then
		PG_THROWAWAY_FROM=$OLTPMARK_TEST_W1_FROM pg_throwaway_start "$@"
		return
	fi
	pg_throwaway_start "$@" || return 1
	"$OLTPMARK" load -w 1 -j 2 --conninfo "$OLTPMARK_CONNINFO" >&3 2>&1
}

# psql_value SQL [CONNINFO]: print the single value SQL returns (unaligned,
# no headers); fails on any SQL error. CONNINFO defaults to
# $OLTPMARK_CONNINFO.
psql_value() {
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d "${2:-$OLTPMARK_CONNINFO}" -c "$1"
}

# psql_true SQL [CONNINFO]: SQL, a query of one boolean, gives true (as
# psql_value; an error is false).
psql_true() {
	[[ $(psql_value "$@" 2>/dev/null) == t ]]
}

# The scans of /proc below run in a subshell with bats' DEBUG trap off:
# bats calls its trap handler (a stack trace capture) before every
# command of a test, about a third of a millisecond of CPU each here, and
# a scan is a few commands per process of the machine: 40 ms a scan
# under the trap against 3 ms without, and tests poll them. A failure
# inside is still seen: its status is the function's.

# pg_dir_pids DATADIR: PIDs of live (non-zombie) processes whose working
# directory is DATADIR; a postmaster and all its children work there.
# Builtins only (test -ef, read): one fork per process made this scan take
# seconds on a busy host.
pg_dir_pids() (
	local p line

	trap - DEBUG
	for p in /proc/[0-9]*; do
		[[ $p/cwd -ef $1 ]] || continue
		{ read -r line <"$p/stat"; } 2>/dev/null || continue
		[[ ${line##*) } != Z* ]] || continue
		printf '%s\n' "${p#/proc/}"
	done
	return 0
)

# leftover_processes TEXT: /proc/PID of each process whose command line
# (its arguments joined by spaces) holds TEXT, to show that a test left
# nothing running. A process may exit during the scan: it is skipped.
# Builtins only, as pg_dir_pids.
leftover_processes() (
	local f
	local -a args

	trap - DEBUG
	for f in /proc/[0-9]*/cmdline; do
		{ mapfile -d '' -t args <"$f"; } 2>/dev/null || continue
		[[ "${args[*]-} " == *"$1"* ]] && echo "${f%/cmdline}"
	done
	return 0
)

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

# json_eval FILE EXPR: print the Python expression EXPR over the JSON
# document d read from FILE.
json_eval() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

# mix_count DIR TYPE STATUS: rows of DIR/mix.csv with that type and status.
mix_count() {
	awk -F, -v t="$2" -v s="$3" '$3 == t && $4 == s { n++ } END { print n + 0 }' \
		"$1/mix.csv"
}

# next_o_id_sum: sum of D_NEXT_O_ID of the throwaway server's database,
# which grows by one per committed New-Order.
next_o_id_sum() {
	psql_value "SELECT sum(d_next_o_id) FROM district"
}

# table_sums_sql: a query of one row "table|md5" for each of the nine
# tables: every row as text, in key order, the date columns (which hold
# the load's start) as NOW. To compare two loads row for row.
table_sums_sql() {
	local sql="" t order now

	now="(SELECT c_since::text FROM customer LIMIT 1)"
	for t in warehouse:w_id district:d_w_id,d_id \
		customer:c_w_id,c_d_id,c_id history:h_w_id,h_d_id,h_c_id \
		new_order:no_w_id,no_d_id,no_o_id orders:o_w_id,o_d_id,o_id \
		order_line:ol_w_id,ol_d_id,ol_o_id,ol_number item:i_id \
		stock:s_w_id,s_i_id; do
		order=${t#*:}
		t=${t%%:*}
		sql+="SELECT '$t', md5(string_agg(replace(t::text, $now, 'NOW'),
			',' ORDER BY $order)) FROM $t t UNION ALL "
	done
	printf '%s\n' "${sql% UNION ALL }"
}

