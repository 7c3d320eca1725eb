# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Shared code for the hooks in run/hooks/ (sourced, never run). A hook is
# called as `NAME start DIR` and `NAME stop DIR`; this file parses that,
# makes sure a hook always exits 0 (a run never fails because evidence is
# missing), writes NAME.skipped / NAME.err, and starts and stops background
# samplers by PID. The contract is in docs/hooks.md.
#
# A sampler runs in its own session (setsid), so stop can signal it and all
# its children at once, under `timeout` so that it ends by itself after
# OLTPMARK_HOOK_MAX_S seconds even when stop is never called. Its session
# id equals the PID in DIR/.NAME.pid; its start time (from /proc) is kept
# beside it so that stop never signals a recycled PID.

# The helpers of run/ (integers, /proc/PID/stat), one directory up.
# shellcheck source=run/lib.sh
. "${BASH_SOURCE[0]%/*}/../lib.sh"

# Why the samplers run under the C locale: the parsers read numbers with
# dots and English words ("total" in readprofile) by the header.
export LC_ALL=C

HOOK_NAME=		# hook name, as in DIR/NAME.skipped
HOOK_ACTION=		# "start" or "stop"
HOOK_DIR=		# the run's sys/ directory
HOOK_ERRFILE=		# DIR/NAME.err: trouble worth a look, never fatal
HOOK_PIDFILE=		# DIR/.NAME.pid: session id of the running sampler
HOOK_MAX_S=14400	# safety timeout of a sampler, seconds
HOOK_FAILED_AT=		# last command that failed, for NAME.err
HOOK_WIN_S=		# length of the profiling window, seconds
HOOK_WIN_DELAY_S=	# from start to the profiling window, seconds
HOOK_OLTPMARK=		# the oltpmark binary, once hook_oltpmark found it

# Package that provides a command on Debian, named in skip reasons.
hook_package_of()
{
	case $1 in
	vmstat | sysctl) echo procps ;;
	iostat) echo sysstat ;;
	perf) echo linux-perf ;;
	psql) echo postgresql-client ;;
	readprofile | setsid | findmnt | lscpu) echo util-linux ;;
	*) echo coreutils ;;
	esac
}

# Append one line to DIR/NAME.err. Never fails.
hook_err()
{
	printf '%s: %s\n' "$HOOK_ACTION" "$*" >>"$HOOK_ERRFILE" 2>/dev/null || true
}

# Write DIR/NAME.skipped with a one-line reason and end the hook (status 0).
hook_skip()
{
	printf '%s\n' "$*" >"$HOOK_DIR/$HOOK_NAME.skipped" 2>/dev/null || true
	exit 0
}

# Remove files if they exist; never fails (not even without rm(1)).
hook_rm()
{
	command -v rm >/dev/null 2>&1 || return 0
	rm -f -- "$@" 2>/dev/null || true
}

# Skip the hook unless every named command is on PATH.
hook_need()
{
	local cmd

	for cmd in "$@"; do
		command -v "$cmd" >/dev/null 2>&1 ||
			hook_skip "$cmd not found (Debian package $(hook_package_of "$cmd"))"
	done
}

# Set HOOK_OLTPMARK to the oltpmark binary: as run/oltpmark-run names it
# ($OLTPMARK), else the one this checkout builds, else the one on PATH.
# Status 1 when there is none.
hook_oltpmark()
{
	HOOK_OLTPMARK=${OLTPMARK:-}
	if [[ -z $HOOK_OLTPMARK ]]; then
		HOOK_OLTPMARK=$(cd -- "${BASH_SOURCE[0]%/*}/../.." && pwd)/oltpmark
		[[ -x $HOOK_OLTPMARK ]] ||
			HOOK_OLTPMARK=$(command -v oltpmark || true)
	fi
	[[ -n $HOOK_OLTPMARK && -x $HOOK_OLTPMARK ]]
}

# Value of environment variable $1 if it is a non-negative integer, else
# $2 (with a note in NAME.err when the variable was set but unusable).
hook_env_uint()
{
	local val=${!1-}

	if [[ -z $val ]]; then
		echo "$2"
	elif om_is_uint "$val"; then
		echo "$((10#$val))"
	else
		hook_err "$1='$val' is not a whole number of seconds; using $2"
		echo "$2"
	fi
}

hook_on_err()
{
	HOOK_FAILED_AT="line $1: $2"
}

# EXIT trap: turn any failure into status 0 with the reason in NAME.err,
# and drop an empty NAME.err (samplers append their stderr to it).
hook_on_exit()
{
	local rc=$?

	if ((rc != 0)); then
		hook_err "failed with status $rc${HOOK_FAILED_AT:+ at $HOOK_FAILED_AT}"
	fi
	if [[ -n $HOOK_ERRFILE && -f $HOOK_ERRFILE && ! -s $HOOK_ERRFILE ]]; then
		hook_rm "$HOOK_ERRFILE"
	fi
	exit 0
}

# hook_usage SCRIPT NAME: the --help of hook NAME on stdout: its calling
# protocol, then the comment at the top of SCRIPT (what it samples and
# where), which is its description: one text, not two to keep in step.
hook_usage()
{
	printf 'Usage: run/hooks/%s start|stop DIR\n\n' "$2"
	# The comment block after the #! line, its "# " taken off.
	awk 'NR == 1 { next } !/^#/ { exit } /SPDX|^# *shellcheck/ { next }
		{ sub(/^# ?/, ""); if (!on && $0 == "") next; on = 1; print }' "$1"
	cat <<'EOF'

A hook is called by run/hooks/run-all (run/oltpmark-run) around the
measured interval. It always exits 0, missing evidence said in
DIR/NAME.skipped or DIR/NAME.err; 2 on bad usage. The files it writes
and the environment it reads: docs/hooks.md and docs/hook-formats.md.
EOF
}

# hook_init NAME ACTION DIR: parse the arguments, create DIR, install the
# traps. On start, clears what an earlier attempt in the same DIR left.
# On stop of a hook that was skipped at start, ends the hook at once.
# --help anywhere prints the usage and exits 0 before anything is made;
# any other word starting with - is a bad option (the caller passes an
# absolute DIR), exit 2 with one line.
hook_init()
{
	local arg

	HOOK_NAME=$1
	shift
	for arg in "$@"; do
		case $arg in
		--help) hook_usage "${BASH_SOURCE[1]}" "$HOOK_NAME"; exit 0 ;;
		-*)
			printf '%s: unknown option %s (usage: %s start|stop DIR; --help)\n' \
				"$HOOK_NAME" "$arg" "$HOOK_NAME" >&2
			exit 2
			;;
		esac
	done
	if (($# != 2)) || [[ $1 != start && $1 != stop ]] || [[ -z $2 ]]; then
		# The one non-zero exit: a caller bug, not missing evidence.
		printf 'usage: %s start|stop DIR\n' "$HOOK_NAME" >&2
		exit 2
	fi
	HOOK_ACTION=$1
	HOOK_DIR=$2
	HOOK_ERRFILE=$HOOK_DIR/$HOOK_NAME.err
	HOOK_PIDFILE=$HOOK_DIR/.$HOOK_NAME.pid

	set -E
	trap 'hook_on_err "$LINENO" "$BASH_COMMAND"' ERR
	trap hook_on_exit EXIT

	if [[ ! -d $HOOK_DIR ]] && ! mkdir -p -- "$HOOK_DIR" 2>/dev/null; then
		printf '%s: cannot create %s\n' "$HOOK_NAME" "$HOOK_DIR" >&2
		HOOK_ERRFILE=
		exit 0
	fi
	HOOK_MAX_S=$(hook_env_uint OLTPMARK_HOOK_MAX_S 14400)
	((HOOK_MAX_S > 0)) || HOOK_MAX_S=14400

	if [[ $HOOK_ACTION == start ]]; then
		if [[ -f $HOOK_PIDFILE ]] && [[ -n $(hook_members "$(<"$HOOK_PIDFILE")") ]]; then
			hook_err "already started (sampler $(<"$HOOK_PIDFILE") is running); not starting another"
			exit 0
		fi
		hook_rm "$HOOK_DIR/$HOOK_NAME.skipped" "$HOOK_ERRFILE" \
			"$HOOK_PIDFILE" "$HOOK_PIDFILE.stime"
	elif [[ -f $HOOK_DIR/$HOOK_NAME.skipped && ! -f $HOOK_PIDFILE ]]; then
		exit 0
	fi
}

# Print the PIDs of live (not zombie) processes in session or process
# group $1, one a line. Zombies do not count: they run nothing, and where
# PID 1 does not reap them they stay forever.
hook_members()
{
	local f pid st

	om_is_uint "$1" || return 0
	for f in /proc/[0-9]*/stat; do
		pid=${f#/proc/}
		pid=${pid%/stat}
		om_proc_stat "$pid" st || continue
		[[ ${st[0]} == Z || ${st[0]} == X ]] && continue
		if [[ ${st[3]} == "$1" || ${st[2]} == "$1" ]]; then
			echo "$pid"
		fi
	done
}

# hook_spawn OUT CMD...: start CMD detached in its own session, under
# timeout(1) with the safety limit, stdout appended to OUT, stderr to
# NAME.err, stdin from /dev/null (so no caller's pipe stays open). Writes
# its PID to DIR/.NAME.pid. $1 may be preceded by `-s SIGNAL`: the signal
# timeout sends at the safety limit (default TERM).
hook_spawn()
{
	local sig=TERM out pid st i

	if [[ $1 == -s ]]; then
		sig=$2
		shift 2
	fi
	out=$1
	shift
	hook_need setsid timeout
	# -k: timeout also arms its SIGKILL when it passes on stop's signal;
	# leave perf the time hook_window_stop allows it to finish its file.
	setsid timeout -s "$sig" -k 30 "$HOOK_MAX_S" "$@" \
		>>"$out" 2>>"$HOOK_ERRFILE" </dev/null &
	pid=$!
	# setsid(1) execs in place (the child of a non-interactive shell is
	# not a group leader); wait until it is its own session, so that a
	# stop that follows at once finds the whole group.
	for ((i = 0; i < 200; i++)); do
		om_proc_stat "$pid" st || break
		[[ ${st[3]} == "$pid" ]] && break
		sleep 0.01
	done
	printf '%s\n' "$pid" >"$HOOK_PIDFILE"
	if om_proc_stat "$pid" st; then
		printf '%s\n' "${st[19]}" >"$HOOK_PIDFILE.stime"
	fi
}

# hook_stop_sampler [SIGNAL [GRACE_S]]: end the sampler of DIR/.NAME.pid
# and everything in its session: SIGNAL (default TERM) to the group, up
# to GRACE_S seconds (default 5) for it to finish, then KILL. Returns 0 if
# it was running and is now gone, 2 if it had ended by itself before,
# 1 on trouble (no PID file, PID recycled, unkillable), noted in NAME.err.
hook_stop_sampler()
{
	local sig=${1:-TERM} grace_s=${2:-5} pid stime st members i

	if [[ ! -f $HOOK_PIDFILE ]]; then
		hook_err "no sampler to stop (no $HOOK_PIDFILE: start was not called or failed)"
		return 1
	fi
	pid=$(<"$HOOK_PIDFILE")
	stime=
	[[ -f $HOOK_PIDFILE.stime ]] && stime=$(<"$HOOK_PIDFILE.stime")
	hook_rm "$HOOK_PIDFILE" "$HOOK_PIDFILE.stime"
	if ! om_is_uint "$pid"; then
		hook_err "bad PID '$pid' in $HOOK_PIDFILE"
		return 1
	fi
	if om_proc_stat "$pid" st && [[ -n $stime && ${st[19]} != "$stime" ]]; then
		hook_err "PID $pid now belongs to another process; not signalled"
		return 1
	fi
	members=$(hook_members "$pid")
	[[ -n $members ]] || return 2

	kill "-$sig" -- "-$pid" 2>/dev/null || true
	for ((i = 0; i < grace_s * 10; i++)); do
		members=$(hook_members "$pid")
		[[ -z $members ]] && return 0
		sleep 0.1
	done
	hook_err "sampler $pid still running ${grace_s}s after SIG$sig; killing it"
	kill -KILL -- "-$pid" 2>/dev/null || true
	# Members that left the process group are still in the session.
	# shellcheck disable=SC2086 # one PID a word
	kill -KILL $members 2>/dev/null || true
	for ((i = 0; i < 20; i++)); do
		[[ -z $(hook_members "$pid") ]] && return 0
		sleep 0.1
	done
	hook_err "sampler $pid survived SIGKILL"
	return 1
}

# hook_stop_simple [SIGNAL]: stop a sampler that should run until stop,
# noting in NAME.err when it had already ended (failed, or the safety
# timeout). Returns as hook_stop_sampler.
hook_stop_simple()
{
	local rc=0

	hook_stop_sampler "${1:-TERM}" || rc=$?
	if ((rc == 2)); then
		hook_err "sampler had ended before stop (failed, or reached the safety timeout OLTPMARK_HOOK_MAX_S=${HOOK_MAX_S}s)"
	fi
	return "$rc"
}

# Skip the hook unless the caller may record system-wide perf events:
# root, or kernel.perf_event_paranoid <= -1.
hook_need_perf()
{
	local paranoid=2

	hook_need perf
	om_is_root && return 0
	[[ -r /proc/sys/kernel/perf_event_paranoid ]] &&
		paranoid=$(</proc/sys/kernel/perf_event_paranoid)
	((paranoid <= -1)) && return 0
	hook_skip "not root and kernel.perf_event_paranoid is $paranoid (system-wide recording needs -1)"
}

# Profiling window in the middle of the steady state: sets HOOK_WIN_S
# (length, OLTPMARK_PERF_WINDOW_S, default 10, at most the measured
# duration) and HOOK_WIN_DELAY_S (from start to the window:
# ramp-up + duration/2 - window/2, at least 0; 0 when the durations are
# not given).
hook_window()
{
	local ramp_s dur_s

	HOOK_WIN_S=$(hook_env_uint OLTPMARK_PERF_WINDOW_S 10)
	((HOOK_WIN_S > 0)) || HOOK_WIN_S=10
	ramp_s=$(hook_env_uint OLTPMARK_RAMP_UP_S 0)
	dur_s=$(hook_env_uint OLTPMARK_DURATION_S 0)
	if ((dur_s > 0 && HOOK_WIN_S > dur_s)); then
		HOOK_WIN_S=$dur_s
	fi
	HOOK_WIN_DELAY_S=0
	if ((dur_s > 0)); then
		HOOK_WIN_DELAY_S=$((ramp_s + dur_s / 2 - HOOK_WIN_S / 2))
		((HOOK_WIN_DELAY_S >= 0)) || HOOK_WIN_DELAY_S=0
	fi
}

# hook_window_spawn CMD...: start CMD after HOOK_WIN_DELAY_S seconds, as
# a sampler. DIR/.NAME.window is created when the window opens, so stop
# can tell a run that ended before it.
hook_window_spawn()
{
	local marker=$HOOK_DIR/.$HOOK_NAME.window

	hook_rm "$marker"
	# The plan, for stop's messages: stop may see another environment.
	printf '%s %s\n' "$HOOK_WIN_DELAY_S" "$HOOK_WIN_S" >"$marker.plan"
	# shellcheck disable=SC2016 # expanded by the inner shell
	hook_spawn -s INT /dev/null "$BASH" -c \
		'sleep "$1" && : >"$2" && shift 2 && exec "$@"' \
		"$HOOK_NAME-window" "$HOOK_WIN_DELAY_S" "$marker" "$@"
}

# First line of file $1 that says something ("Error:" alone does not),
# without the "start: " / "stop: " prefix of hook_err.
hook_first_line()
{
	local line

	while IFS= read -r line; do
		line=${line#start: }
		line=${line#stop: }
		[[ -n ${line//[[:space:]]/} && $line != Error: ]] || continue
		printf '%s\n' "$line"
		return 0
	done <"$1"
	return 1
}

# hook_window_stop DATAFILE: end the windowed recorder; if the window had
# not opened yet, or the recorder wrote nothing, skip the hook (DATAFILE
# removed). SIGINT lets perf finish its file; it may need a while to write
# build ids, hence the long grace.
hook_window_stop()
{
	local data=$1 marker=$HOOK_DIR/.$HOOK_NAME.window rc=0 why line

	hook_stop_sampler INT 30 || rc=$?
	if [[ -f $marker.plan ]]; then
		read -r HOOK_WIN_DELAY_S HOOK_WIN_S <"$marker.plan" || true
		hook_rm "$marker.plan"
	fi
	if [[ ! -e $marker ]]; then
		hook_rm "$data" "$data.old"
		hook_skip "run ended before the profiling window (it was to open ${HOOK_WIN_DELAY_S}s after start)"
	fi
	hook_rm "$marker"
	if [[ ! -s $data ]]; then
		why="recorder wrote no data"
		if [[ -s $HOOK_ERRFILE ]] && line=$(hook_first_line "$HOOK_ERRFILE"); then
			why="recorder failed: $line"
		fi
		hook_rm "$data" "$data.old"
		hook_skip "$why"
	fi
	if ((rc == 0)); then
		hook_err "profiling window cut short by stop (window ${HOOK_WIN_S}s)"
	fi
}

# Remove a perf data file unless OLTPMARK_KEEP_PERF_DATA=1 (they are big).
hook_drop_perf_data()
{
	if [[ ${OLTPMARK_KEEP_PERF_DATA-} != 1 ]]; then
		hook_rm "$1" "$1.old"
	fi
}
