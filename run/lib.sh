# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/lib.sh: the helper library of the scripts in run/ (run/hooks/lib.sh
# sources it too), sourced, not executed. Messages and exits, integer
# checks, /proc/PID/stat, the block device and I/O scheduler of a
# directory, whether a script may be trusted to run with our rights; and
# what run/oltpmark-run needs besides the oltpmark binary:
# the memory cgroup of the non-cached configuration (v2 memory.max or v1
# memory.limit_in_bytes), pre-warming, dropping the page cache, and the
# checkpoints a run saw. It only defines functions and OM_PROG; each
# function says what it needs; none of them kills anything by name.
#
# It is the library of the machine under test too: the orchestrator
# (run/oltpmark-run, run/demo) calls a function of it that acts on or
# reads that machine through run/sut.sh (on_sut om_cgroup_create ...),
# which runs it in run/sut-exec, never directly; such a function gets
# all it needs as arguments or exported variables.

# The name messages start with; a script sets its own after sourcing.
OM_PROG=${0##*/}

# om_log MSG...: a progress line on stderr.
om_log() {
	printf '%s: %s\n' "$OM_PROG" "$*" >&2
}

# om_warn MSG...: a warning that must not be missed.
om_warn() {
	printf '%s: WARNING: %s\n' "$OM_PROG" "$*" >&2
}

# om_die MSG...: one error line, exit 1 (failure during the work; an EXIT
# trap still runs).
om_die() {
	printf '%s: %s\n' "$OM_PROG" "$*" >&2
	exit 1
}

# om_die_usage MSG...: one error line, exit 2 (bad usage or input).
om_die_usage() {
	printf '%s: %s\n' "$OM_PROG" "$*" >&2
	exit 2
}

# om_is_uint VALUE: whether VALUE is a whole number written in decimal
# digits (leading zeros allowed: use $((10#VALUE)) in arithmetic).
om_is_uint() {
	[[ $1 =~ ^[0-9]+$ ]]
}

# om_is_count VALUE MIN: whether VALUE is a whole number >= MIN.
om_is_count() {
	om_is_uint "$1" && ((10#$1 >= $2))
}

# om_proc_stat PID ARRAY: the fields of /proc/PID/stat after the command
# name, into the array named ARRAY: [0] state, [1] parent PID, [2] process
# group, [3] session, [19] start time in clock ticks since boot. False
# when PID is gone. Pure bash, no command needed.
om_proc_stat() {
	local line

	{ read -r line <"/proc/$1/stat"; } 2>/dev/null || return 1
	# The command name may hold spaces and parentheses: cut at the last ')'.
	read -r -a "$2" <<<"${line##*) }"
}

# om_proc_alive PID: whether PID is a process that still runs: neither
# gone nor a zombie (exited, waiting for its parent to reap it).
om_proc_alive() {
	local -a st

	om_proc_stat "$1" st || return 1
	[[ ${st[0]} != Z && ${st[0]} != X ]]
}

# om_proc_stime PID: print the start time of PID (clock ticks since boot,
# /proc/PID/stat field 22), which with the PID names one process for the
# whole uptime: a PID alone may be recycled. False when PID is gone.
om_proc_stime() {
	local -a st

	om_proc_stat "$1" st || return 1
	echo "${st[19]}"
}

# om_proc_is PID START_TIME: whether that very process still runs (a PID
# alone may have been recycled).
om_proc_is() {
	local now
	om_is_uint "$1" || return 1
	now=$(om_proc_stime "$1") || return 1
	om_proc_alive "$1" && [[ $now == "$2" ]]
}

# om_abs_dir DIR: print DIR as an absolute path (cd's, symbolic links
# kept); fails when it is not a directory one may enter.
om_abs_dir() {
	(cd -- "$1" 2>/dev/null && pwd)
}

# om_write_file FILE: write stdin to FILE (run/sut.sh's sut_write).
om_write_file() {
	cat >"$1"
}

# om_write_private FILE: write stdin to FILE, readable by its owner only
# (a password file).
om_write_private() {
	(umask 077 && rm -f -- "$1" && cat >"$1")
}

# om_hooks_check HOOKS_DIR NAME...: whether every hook NAME may run: an
# executable file where run/hooks/run-all finds it, run/hooks/NAME, else
# HOOKS_DIR/NAME (--hooks-dir), that om_script_trusted accepts. Prints nothing when all may; else fails printing "NAME<TAB>
# missing" or "NAME<TAB>refused: WHY" for the first that may not. One
# call on the SUT for the whole list: each on_sut of a function is a
# fresh bash there, and run/oltpmark-run checks its hooks at every start.
om_hooks_check() {
	local dir=$1 h hooks why i
	local -a paths names
	shift
	names=("$@")
	hooks=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/hooks
	for h in "$@"; do
		paths+=("$hooks/$h")
		[[ -x ${paths[-1]} || -z $dir ]] || paths[-1]=$dir/$h
		if [[ ! -f ${paths[-1]} || ! -x ${paths[-1]} ]]; then
			printf '%s\tmissing\n' "$h"
			return 1
		fi
	done
	why=$(om_scripts_trusted "${paths[@]}") && return 0
	for ((i = 0; i < ${#paths[@]}; i++)); do
		[[ ${why%%$'\t'*} == "${paths[i]}" ]] || continue
		printf '%s\trefused: %s\n' "${names[i]}" "${why#*$'\t'}"
		return 1
	done
	printf '%s\trefused: %s\n' "${names[0]}" "${why:-could not be checked}"
	return 1
}

# om_machine_json PGDATA [ROOT]: this machine's facts as oltpmark run
# --machine-from reads them on the terminals' host (oltpmark sysinfo
# --format json; the block keys of the disks under the data directory
# PGDATA). ROOT: read /proc and /sys under it instead (tests only).
om_machine_json() {
	"${OLTPMARK:-oltpmark}" sysinfo --format json --pgdata "$1" ${2:+--root "$2"}
}

# om_boot_id: the kernel's boot ID (no process or cgroup outlives it).
om_boot_id() {
	cat /proc/sys/kernel/random/boot_id 2>/dev/null
}

# om_is_root: whether we may write /proc/sys and create cgroups.
om_is_root() {
	((EUID == 0))
}

# om_psql CONNINFO SQL: run SQL, print unaligned tuples, stop on error.
om_psql() {
	PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning" psql "$1" -XAtq -v ON_ERROR_STOP=1 -c "$2"
}

# om_block_device PATH: print the name under /sys/block (e.g. vda) of the
# whole disk holding PATH, whose queue/scheduler the I/O scheduler
# variants switch; fails when there is none. A partition resolves to its
# disk; device-mapper and md to their first underlying device.
om_block_device() {
	local src name
	src=$(df --output=source "$1" | tail -n 1)
	name=$(basename "$(readlink -f "$src")")
	# A partition's sysfs entry sits inside its disk's.
	if [[ -e /sys/class/block/$name/partition ]]; then
		name=$(basename "$(dirname "$(readlink -f "/sys/class/block/$name")")")
	fi
	if [[ ! -e /sys/block/$name/queue/scheduler && -d /sys/block/$name/slaves ]]; then
		name=$(find "/sys/block/$name/slaves/" -mindepth 1 -maxdepth 1 -printf '%f\n' | head -n 1)
		if [[ -e /sys/class/block/$name/partition ]]; then
			name=$(basename "$(dirname "$(readlink -f "/sys/class/block/$name")")")
		fi
	fi
	[[ -e /sys/block/$name/queue/scheduler ]] || return 1
	echo "$name"
}

# om_iosched_current DEV: the I/O scheduler in use on /sys/block/DEV (the
# one in brackets in queue/scheduler); fails when there is none.
om_iosched_current() {
	local current
	current=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler") || return 1
	[[ -n $current ]] || return 1
	echo "$current"
}

# om_iosched_offers DEV SCHEDULER: whether DEV can use SCHEDULER.
om_iosched_offers() {
	grep -qw -- "$2" "/sys/block/$1/queue/scheduler"
}

# om_variant_state NAME: the file in which a variant keeps the value it
# changed until restore (OLTPMARK_VARIANT_STATE_DIR, set by
# run/oltpmark-run; else TMPDIR or /tmp).
om_variant_state() {
	printf '%s/%s\n' "${OLTPMARK_VARIANT_STATE_DIR:-${TMPDIR:-/tmp}}" "$1"
}

# om_cgroup_memory_root: print the directory under which we may create a
# memory cgroup (our own cgroup's, v2 or v1 memory controller), or fail.
om_cgroup_memory_root() {
	local line path
	# cgroup v2: "0::/path" with the memory controller available there.
	if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
		path=$(sed -n 's/^0:://p' /proc/self/cgroup)
		if grep -qw memory "/sys/fs/cgroup${path}/cgroup.controllers" 2>/dev/null; then
			echo "v2 /sys/fs/cgroup${path%/}"
			return 0
		fi
	fi
	# cgroup v1 (or hybrid): the memory hierarchy.
	if [[ -d /sys/fs/cgroup/memory ]]; then
		while IFS= read -r line; do
			case "$line" in
			*:memory:*)
				path=${line#*:memory:}
				echo "v1 /sys/fs/cgroup/memory${path%/}"
				return 0
				;;
			esac
		done </proc/self/cgroup
	fi
	return 1
}

# om_cgroup_create NAME LIMIT_BYTES: create a memory cgroup with that limit
# and print "VERSION DIR". Fails (quietly) when it cannot be arranged.
om_cgroup_create() {
	local name=$1 limit=$2 root version dir
	om_is_root || return 1
	root=$(om_cgroup_memory_root) || return 1
	version=${root%% *}
	dir=${root#* }/$name
	mkdir -p "$dir" 2>/dev/null || return 1
	if [[ $version == v2 ]]; then
		# Child cgroups need the controller enabled in the parent.
		echo +memory >"${root#* }/cgroup.subtree_control" 2>/dev/null
		echo "$limit" >"$dir/memory.max" 2>/dev/null || {
			rmdir "$dir" 2>/dev/null
			return 1
		}
		echo 0 >"$dir/memory.swap.max" 2>/dev/null
	else
		echo "$limit" >"$dir/memory.limit_in_bytes" 2>/dev/null || {
			rmdir "$dir" 2>/dev/null
			return 1
		}
		# No swapping around the limit either, when the kernel has memsw.
		echo "$limit" >"$dir/memory.memsw.limit_in_bytes" 2>/dev/null
	fi
	echo "$version $dir"
}

# om_server_pids POSTMASTER_PID: the postmaster and all its children.
om_server_pids() {
	local pm=$1 f pid
	local -a st
	echo "$pm"
	for f in /proc/[0-9]*; do
		pid=${f#/proc/}
		om_proc_stat "$pid" st || continue
		[[ ${st[1]} == "$pm" ]] && echo "$pid"
	done
	return 0
}

# om_cgroup_add_server "VERSION DIR" POSTMASTER_PID: move the postmaster
# and its current children into the cgroup; backends forked later inherit.
om_cgroup_add_server() {
	local dir=${1#* } pm=$2 pid
	for pid in $(om_server_pids "$pm"); do
		echo "$pid" >"$dir/cgroup.procs" 2>/dev/null || return 1
	done
}

# om_cgroup_limit "VERSION DIR": print the limit in bytes.
om_cgroup_limit() {
	local version=${1%% *} dir=${1#* }
	if [[ $version == v2 ]]; then
		cat "$dir/memory.max"
	else
		cat "$dir/memory.limit_in_bytes"
	fi
}

# om_cgroup_oom_kills "VERSION DIR": how many processes the kernel's OOM
# killer took in the cgroup (v2 memory.events, v1 memory.oom_control on
# kernels that count them); empty when the kernel does not say.
om_cgroup_oom_kills() {
	local version=${1%% *} dir=${1#* } file
	file=$dir/memory.oom_control
	[[ $version == v2 ]] && file=$dir/memory.events
	awk '$1 == "oom_kill" { print $2 }' "$file" 2>/dev/null
}

# om_cgroup_report "VERSION DIR": the cgroup's memory figures, for sys/.
om_cgroup_report() {
	local version=${1%% *} dir=${1#* } f
	echo "cgroup $version $dir"
	for f in memory.max memory.limit_in_bytes memory.max_usage_in_bytes \
		memory.peak memory.failcnt memory.events memory.oom_control; do
		[[ -r $dir/$f ]] && sed "s|^|$f: |" "$dir/$f"
	done
	return 0
}

# om_server_ready CONNINFO SECONDS: wait until the server accepts
# connections (it may be in crash recovery after an OOM kill).
om_server_ready() {
	local i
	for ((i = 0; i < $2; i++)); do
		om_psql "$1" "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 1
	done
	return 1
}

# om_cgroup_destroy "VERSION DIR": move any remaining tasks back to the
# parent, then remove the cgroup.
om_cgroup_destroy() {
	local dir=${1#* } parent pid
	[[ -d $dir ]] || return 0
	parent=$(dirname "$dir")
	while read -r pid; do
		# A task that exited meanwhile cannot be moved: not an error.
		[[ -z $pid ]] || echo "$pid" >"$parent/cgroup.procs" 2>/dev/null || true
	done <"$dir/cgroup.procs"
	rmdir "$dir" 2>/dev/null || true
}

# om_drop_caches: write back dirty pages, then drop the page cache (root).
om_drop_caches() {
	sync
	om_is_root || return 1
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
}

# om_prewarm CONNINFO: load every table and index of the database into
# shared buffers with pg_prewarm; print the number of blocks read.
om_prewarm() {
	om_psql "$1" "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null &&
		om_psql "$1" "SELECT coalesce(sum(pg_prewarm(c.oid::regclass)), 0)
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')"
}

# om_checkpoints LOG SINCE_EPOCH UNTIL_EPOCH: from a server log whose lines
# start with "%m" timestamps (YYYY-MM-DD HH:MM:SS.mmm TZ), print CSV rows
# "start_epoch,end_epoch,kind" of the checkpoints that overlap the window,
# including one already running at its start; one still running at its end
# is cut there and its kind says "unfinished".
om_checkpoints() {
	local log=$1 since=$2 until=$3
	[[ -r $log ]] || return 0
	awk -v since="$since" -v until="$until" '
	# One date(1) per minute of the log, not two per checkpoint: a kept
	# cluster'"'"'s log grows by some five checkpoints a run, and each fork
	# costs on a busy host. A zone'"'"'s offset holds for a whole minute.
	function epoch(d, t, z,   key, cmd, e) {
		key = d " " substr(t, 1, 5) " " z
		if (!(key in minute)) {
			e = ""
			cmd = "date -u -d \"" d " " substr(t, 1, 5) ":00 " z "\" +%s"
			cmd | getline e
			close(cmd)
			minute[key] = e
		}
		if (minute[key] == "")
			return 0
		return minute[key] + substr(t, 7)
	}
	/LOG:  checkpoint starting:/ {
		start = epoch($1, $2, $3)
		kind = $0
		sub(/.*checkpoint starting: /, "", kind)
		gsub(/,/, " ", kind)
		pending = 1
	}
	/LOG:  checkpoint complete:/ {
		if (pending) {
			end = epoch($1, $2, $3)
			if (start <= until && end >= since)
				printf "%.3f,%.3f,%s\n", start, end, kind
		}
		pending = 0
	}
	END {
		if (pending && start <= until)
			printf "%.3f,%.3f,%s unfinished\n", start, until, kind
	}' "$log"
}

# om_script_trusted PATH: whether PATH (a hook, a variant script) may be
# run with our rights, which are often root's: only when nobody else can
# change it. Fails, printing why on stdout, when the file (the target of
# a link) is owned by another user than us or root, is writable by its
# group or others, or lies in a directory owned by another user or that
# others can write without the sticky bit (they could put another file
# in its place).
om_script_trusted() {
	local path=$1 dir st dst
	path=$(readlink -f -- "$path") || {
		echo "$1: cannot resolve the path"
		return 1
	}
	st=$(stat -c '%u %a' -- "$path" 2>/dev/null) || {
		echo "$path: cannot stat it"
		return 1
	}
	dir=$(dirname -- "$path")
	dst=$(stat -c '%u %a' -- "$dir" 2>/dev/null) || {
		echo "$dir: cannot stat it"
		return 1
	}
	om_trust_verdict "$path" "$st" "$dir" "$dst"
}

# om_trust_verdict PATH "UID MODE" DIR "UID MODE": om_script_trusted's
# judgement of the resolved PATH in DIR, from their owners and modes.
om_trust_verdict() {
	local path=$1 dir=$3 uid mode
	read -r uid mode <<<"$2"
	if ((uid != EUID && uid != 0)); then
		echo "$path is owned by uid $uid, neither you (uid $EUID) nor root"
		return 1
	fi
	if ((8#$mode & 8#022)); then
		echo "$path is writable by its group or others (mode $mode; chmod go-w $path)"
		return 1
	fi
	read -r uid mode <<<"$4"
	if ((uid != EUID && uid != 0)); then
		echo "$path is in $dir, owned by uid $uid, who may put another file in its place"
		return 1
	fi
	if ((8#$mode & 8#022 && !(8#$mode & 8#1000))); then
		echo "$path is in $dir, which its group or others may write (mode $mode)"
		return 1
	fi
	return 0
}

# om_scripts_trusted PATH...: om_script_trusted of each PATH, with one
# readlink and one stat for them all (each fork costs on a busy host):
# prints nothing when all are trusted, else fails printing "PATH<TAB>WHY"
# for the first that is not.
om_scripts_trusted() {
	local i n=$# p why
	local -a given=("$@") real dirs st
	# One line each; else one of them does not resolve, or cannot be
	# stat'ed (or a name holds a newline): one at a time, for its message.
	if mapfile -t real < <(readlink -f -- "$@" 2>/dev/null) &&
		((${#real[@]} == n)); then
		for p in "${real[@]}"; do
			p=${p%/*}
			dirs+=("${p:-/}")
		done
		mapfile -t st < <(stat -c '%u %a' -- "${real[@]}" "${dirs[@]}" 2>/dev/null)
	fi
	if ((${#st[@]} != 2 * n)); then
		for p in "$@"; do
			why=$(om_script_trusted "$p") || {
				printf '%s\t%s\n' "$p" "$why"
				return 1
			}
		done
		return 0
	fi
	for ((i = 0; i < n; i++)); do
		why=$(om_trust_verdict "${real[i]}" "${st[i]}" "${dirs[i]}" "${st[n + i]}") || {
			printf '%s\t%s\n' "${given[i]}" "$why"
			return 1
		}
	done
}

# om_cgroup_path NAME: print the "VERSION DIR" that om_cgroup_create NAME
# would create, without creating it, so that a caller can record it first.
om_cgroup_path() {
	local root
	root=$(om_cgroup_memory_root) || return 1
	echo "${root%% *} ${root#* }/$1"
}

# om_sut_guard VARDIR: the far end of run/sut-ssh.sh's guard, on the SUT
# (run/oltpmark-run --sut): prints its PID and start time, then waits
# for the end of its stdin, which comes when the experiment is over or
# when the ssh connection to it is lost (or its run/oltpmark-run was
# killed). Then, when VARDIR still holds the state file (what is done
# on the SUT and not yet undone), it undoes that there by itself, with
# run/oltpmark-run --recover of this tree, so that the SUT is put back
# without the connection. Its output goes to VARDIR/guard.log.
om_sut_guard() {
	local dir=$1 line
	local state=$dir/.oltpmark-run.state
	trap '' HUP PIPE INT TERM
	echo "$$ $(om_proc_stime $$)"
	exec >>"$dir/guard.log" 2>&1
	while IFS= read -r line; do :; done
	[[ -e $state ]] || return 0
	om_log "guard: the experiment's connection ended with $state left: recovering on this host"
	# The state file names this guard as its owner: no longer in use.
	sed -i "s/^owner\t.*/owner\t0\t0/" "$state"
	"$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/oltpmark-run" --recover --results "$dir"
}
