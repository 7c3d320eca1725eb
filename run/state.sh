# shellcheck shell=bash disable=SC2154 # cfg is run/oltpmark-run's
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/state.sh: run/oltpmark-run's run-time state and what it undoes on
# every exit path, sourced by it: the state array and its file
# (RESULTS/.oltpmark-run.state, written before each change so that a
# killed experiment can be undone by the next one or by --recover), the
# recovery from such a file, the EXIT and INT/TERM traps, and the
# background child the experiment waits for. It reads cfg and HERE of
# run/oltpmark-run; every command on the machine under test goes through
# run/sut.sh.

# shellcheck disable=SC2034 # run/oltpmark-run and run/devices.sh use it
readonly STATE_NAME=.oltpmark-run.state
readonly STATE_FORMAT=oltpmark-run-state/1

# directory i (0 .. cfg[ts_dirs] - 1) is cfg[ts_dir.i], absolute once
# checked.
declare -A cfg=()

# state: what the experiment is doing now. A list holds one entry a line.
#   child           PID of the oltpmark process we wait for
#   hooks_dir       the sys/ directory whose hooks are started
#   hooks           those hooks, comma-separated
#   variant         index of the variant that may be applied
#   clusters        private cluster directories started (list)
#   cgroups         memory cgroups created, "VERSION DIR" (list)
#   cluster_dir     the current configuration's private cluster
#   admin_conninfo  its conninfo (database oltpmark)
#   failures        what went wrong, for the exit status (list)
#   file            RESULTS/.oltpmark-run.state, "" until it may be written
#   owner_stime     our start time (with $$ it names this process)
#   child_stime     start time of state[child]
#   postmasters     "PID<TAB>START_TIME<TAB>DIR" of each cluster we
#                   started (list)
#   cleaning        1 while cleanup runs
#   switcher        PID of a block run's switcher (oltpmark blocks-switch)
#   created         directories we make for a cluster on the devices:
#                   the cluster's own, the subdirectories of --wal-dir
#                   and --tablespace-dir (list); removed when done
#   boot            the machine under test's boot ID, once read
declare -A state=([child]="" [hooks_dir]="" [hooks]="" [variant]=""
	[clusters]="" [cgroups]="" [cluster_dir]="" [admin_conninfo]=""
	[failures]="" [file]="" [owner_stime]="" [child_stime]=""
	[postmasters]="" [cleaning]=0 [switcher]="" [created]="" [boot]="")


# state_add KEY VALUE: append VALUE to the list state[KEY], and save the
# state file: what is added is about to be done.
state_add() {
	state[$1]+=$2$'\n'
	state_save
}

# state_save: write what must be undone to the state file (through a
# temporary and a rename: a reader never sees half of it), readable and
# writable by us only, since --recover runs the variant script it names.
# One record a line, fields between tabs:
#   format   oltpmark-run-state/1
#   owner    PID START_TIME        this process; alive means "in use"
#   boot     BOOT_ID               the SUT's: no server or cgroup of ours
#                                  survives its reboot
#   results  DIR
#   sut      HOST DIR              --sut, --sut-dir (not in the SUT's copy)
#   ssh_ctl  DIR                   --sut: the ssh control socket's private
#                                  directory here (not in the SUT's copy)
#   pgdata   DIR                   the data directory variants act on
#   hooks_path DIR                 --hooks-dir
#   child    PID START_TIME        the oltpmark process we wait for
#   hooks    SYS_DIR HOOK,...      started and not yet stopped
#   variant  NAME SCRIPT ARGS      maybe applied
#   cluster  DIR                   a private cluster we (re)start
#   postmaster PID START_TIME DIR  its server, as we started it
#   cgroup   VERSION DIR           a memory cgroup we create
#   created  DIR                   a directory made for a cluster on the
#                                  devices (its own, its WAL's, a
#                                  tablespace's), removed with all in it
# A write that fails stops the experiment (cleanup still runs): a change
# that could not be recorded could not be undone after a kill. During
# cleanup it is only a warning.
state_save() {
	local f=${state[file]} sut_copy
	[[ -n $f ]] || return 0
	[[ -n ${state[boot]} ]] || state[boot]=$(on_sut om_boot_id) || true
	if ! (
		umask 077
		state_text "$$ ${state[owner_stime]}" "${cfg[results]}" child >"$f.tmp" &&
			mv -f -- "$f.tmp" "$f"
	); then
		rm -f -- "$f.tmp"
		((state[cleaning])) && { om_warn "could not update $f"; return 0; }
		om_die "cannot write $f: stopping before a change that could not be undone after a kill"
	fi
	# On a SUT of its own (--sut), a copy there, which its guard and
	# --recover read: the guard is its owner, the results are DIR/var.
	[[ -n ${cfg[sut]:-} && -n $OM_SUT_GUARD ]] || return 0
	sut_copy=${cfg[sut_var]}/$STATE_NAME
	if ! state_text "$OM_SUT_GUARD" "${cfg[sut_var]}" "" | on_sut om_write_private "$sut_copy.tmp" ||
		! on_sut mv -f -- "$sut_copy.tmp" "$sut_copy"; then
		((state[cleaning])) && { om_warn "could not update $sut_copy on ${cfg[sut]}"; return 0; }
		om_die "cannot write $sut_copy on ${cfg[sut]}: stopping before a change that could not be undone after a kill"
	fi
}

# state_text "OWNER_PID OWNER_STIME" RESULTS [child]: the state file's
# records (state_save); with "child", the oltpmark process we wait for
# (of this host: not in the SUT's copy).
state_text() {
	local line
	local -a items
	printf 'format\t%s\n' "$STATE_FORMAT"
	printf 'owner\t%s\t%s\n' "${1% *}" "${1#* }"
	printf 'boot\t%s\n' "${state[boot]}"
	printf 'results\t%s\n' "$2"
	[[ -z ${cfg[sut]:-} || $3 != child ]] || printf 'sut\t%s\t%s\n' "${cfg[sut]}" "${cfg[sut_dir]}"
	[[ -z ${cfg[sut]:-} || -z $OM_SUT_CTL || $3 != child ]] || printf 'ssh_ctl\t%s\n' "$OM_SUT_CTL"
	[[ -z ${OLTPMARK_PGDATA:-} ]] || printf 'pgdata\t%s\n' "$OLTPMARK_PGDATA"
	[[ -z ${cfg[hooks_path]} ]] || printf 'hooks_path\t%s\n' "${cfg[hooks_path]}"
	[[ -z ${state[child]} || $3 != child ]] ||
		printf 'child\t%s\t%s\n' "${state[child]}" "${state[child_stime]}"
	[[ -z ${state[hooks_dir]} ]] ||
		printf 'hooks\t%s\t%s\n' "${state[hooks_dir]}" "${state[hooks]}"
	[[ -z ${state[variant]} ]] ||
		printf 'variant\t%s\t%s\n' "${cfg[variant_name.${state[variant]}]}" \
			"${cfg[variant_script.${state[variant]}]}"
	state_list clusters items
	for line in "${items[@]}"; do printf 'cluster\t%s\n' "$line"; done
	state_list postmasters items
	for line in "${items[@]}"; do printf 'postmaster\t%s\n' "$line"; done
	state_list cgroups items
	for line in "${items[@]}"; do printf 'cgroup\t%s\n' "$line"; done
	state_list created items
	for line in "${items[@]}"; do printf 'created\t%s\n' "$line"; done
}

# state_forget KEY VALUE: remove VALUE from the list state[KEY].
state_forget() {
	local -a items
	local item rest=""
	state_list "$1" items
	for item in "${items[@]}"; do
		[[ $item == "$2" ]] || rest+=$item$'\n'
	done
	state[$1]=$rest
}

# state_forget_cluster DIR: cluster DIR is stopped: forget it and its
# postmaster.
state_forget_cluster() {
	local line
	local -a items
	state_forget clusters "$1"
	state_list postmasters items
	for line in "${items[@]}"; do
		[[ ${line#*$'\t'*$'\t'} != "$1" ]] || state_forget postmasters "$line"
	done
}

# state_postmaster DIR: record the postmaster now running in cluster DIR
# (from its postmaster.pid) with its start time, replacing an older one.
state_postmaster() {
	local dir=$1 pid stime line
	local -a items
	pid=$(on_sut head -n 1 -- "$dir/data/postmaster.pid" 2>/dev/null) || return 0
	stime=$(on_sut om_proc_stime "$pid") || return 0
	state_list postmasters items
	for line in "${items[@]}"; do
		[[ ${line#*$'\t'*$'\t'} != "$dir" ]] || state_forget postmasters "$line"
	done
	state_add postmasters "$pid"$'\t'"$stime"$'\t'"$dir"
}

# state_cgroup_create NAME LIMIT_BYTES VAR: om_cgroup_create, recorded
# before it is made; "VERSION DIR" into the variable named VAR.
state_cgroup_create() {
	local path made
	path=$(on_sut om_cgroup_path "$1") || return 1
	on_sut om_is_root || return 1
	state_add cgroups "$path"
	if ! made=$(on_sut om_cgroup_create "$1" "$2"); then
		state_forget cgroups "$path"
		state_save
		return 1
	fi
	printf -v "$3" '%s' "$made"
}

# state_has KEY VALUE: whether the list state[KEY] holds VALUE.
state_has() {
	[[ $'\n'${state[$1]} == *$'\n'"$2"$'\n'* ]]
}

# state_list KEY ARRAY: the list state[KEY] into the array named ARRAY.
state_list() {
	mapfile -t "$2" < <(printf '%s' "${state[$1]}")
}

# count_failure MSG...: a warning now, a line in the list of problems at
# the end, and exit status 1.
count_failure() {
	om_warn "$*"
	state_add failures "$*"
}

# --- what a killed run/oltpmark-run left behind

# recover_trusted FILE: whether FILE, a state file, may be acted on: a
# regular file of ours that nobody else may write (--recover runs the
# variant script it names). Prints why not.
recover_trusted() {
	local uid mode
	[[ -f $1 && ! -L $1 ]] || { echo "$1 is not a regular file"; return 1; }
	read -r uid mode < <(stat -c '%u %a' -- "$1")
	((uid == EUID)) || { echo "$1 belongs to uid $uid, not to you (uid $EUID)"; return 1; }
	((!(8#$mode & 8#022))) || { echo "$1 may be written by others (mode $mode)"; return 1; }
}

# recover_alive PID START_TIME: whether that very process of this host
# (ours, or the oltpmark one we started) still runs.
recover_alive() {
	om_proc_is "$1" "$2"
}

# recover_stop_child PID START_TIME: the oltpmark process a killed
# experiment left: SIGTERM, as Ctrl-C would (it writes its run, marked
# partial), up to 60 s, then SIGKILL.
recover_stop_child() {
	local i
	recover_alive "$1" "$2" || return 0
	kill -TERM "$1" 2>/dev/null
	for ((i = 0; i < 600; i++)); do
		recover_alive "$1" "$2" || break
		sleep 0.1
	done
	if recover_alive "$1" "$2"; then
		kill -KILL "$1" 2>/dev/null
		om_log "recover: killed the oltpmark process it had started (PID $1): it did not end within 60 s of SIGTERM"
	else
		om_log "recover: stopped the oltpmark process it had started (PID $1); its run directory is kept, marked partial"
	fi
}

# recover_cluster DIR OWNER_STIME SAME_BOOT POSTMASTER_RECORDS: stop the
# private server in DIR if it is the one the experiment started: the
# postmaster recorded for DIR, by PID and start time; or, when it was
# killed before it could record one, a server of DIR that started after
# the experiment did (nobody else uses a cluster directory while its
# state file says it is in use). Any other server is left alone.
recover_cluster() {
	local dir=$1 owner_stime=$2 same_boot=$3 records=$4 line pid="" stime="" now
	while IFS= read -r line; do
		[[ -n $line && ${line#*$'\t'*$'\t'} == "$dir" ]] || continue
		pid=${line%%$'\t'*}
		stime=${line#*$'\t'}
		stime=${stime%%$'\t'*}
	done <<<"$records"
	if ((!same_boot)); then
		om_log "recover: the server in $dir cannot still be the one it started (the machine rebooted)"
		return 0
	fi
	if [[ -z $pid ]]; then
		pid=$(on_sut head -n 1 -- "$dir/data/postmaster.pid" 2>/dev/null) || pid=""
		if ! om_is_uint "$owner_stime" || ! now=$(on_sut om_proc_stime "$pid") ||
			((now < owner_stime)); then
			om_log "recover: no server of its own runs in $dir"
			return 0
		fi
		stime=$now
	fi
	if ! on_sut om_proc_is "$pid" "$stime"; then
		om_log "recover: the server it started in $dir (PID $pid) is no longer running"
		return 0
	fi
	if on_sut pg stop "$dir" >/dev/null; then
		om_log "recover: stopped the private server it had started in $dir (PID $pid)"
	else
		om_warn "recover: could not stop the server in $dir (PID $pid)"
		return 1
	fi
}

# recover_state FILE: undo what the experiment that wrote FILE left, in
# cleanup's order, saying each thing done; remove FILE when all is undone.
# Refuses (exit 1) when FILE's owner still runs: then it is in use.
# Returns 1 when something could not be undone (FILE kept).
recover_state() {
	local file=$1 key a b c why line left=0 same_boot=1
	local owner="" owner_stime="" boot="" pgdata="" hooks_path="" child="" child_stime=""
	local hooks_dir="" hook_list="" variant_name="" variant_script="" postmasters=""
	local sut_host="" sut_dir="" ssh_ctl="" variant_state=${cfg[sut_var]}/.variant-state
	local -a clusters=() cgroups=() created=() hooks words
	why=$(recover_trusted "$file") || om_die "not acting on $file: $why"
	while IFS=$'\t' read -r key a b c; do
		case "$key" in
		format) [[ $a == "$STATE_FORMAT" ]] || om_die "$file: unknown format '$a'" ;;
		owner) owner=$a owner_stime=$b ;;
		boot) boot=$a ;;
		pgdata) pgdata=$a ;;
		hooks_path) hooks_path=$a ;;
		child) child=$a child_stime=$b ;;
		hooks) hooks_dir=$a hook_list=$b ;;
		variant) variant_name=$a variant_script=$b ;;
		cluster) clusters+=("$a") ;;
		postmaster) postmasters+=$a$'\t'$b$'\t'$c$'\n' ;;
		cgroup) cgroups+=("$a") ;;
		created) created+=("$a") ;;
		sut) sut_host=$a sut_dir=$b ;;
		ssh_ctl) ssh_ctl=$a ;;
		esac
	done <"$file"
	# Of an experiment on a SUT of its own: over ssh, as it ran.
	if [[ -n $sut_host && -z $OM_SUT_HOST ]]; then
		sut_remote "$sut_host" "$sut_dir"
		trap sut_close EXIT
	fi
	[[ -z $sut_host ]] || variant_state=$sut_dir/var/.variant-state
	[[ $boot == "$(on_sut om_boot_id)" ]] || same_boot=0
	if ((same_boot)) && recover_alive "$owner" "$owner_stime"; then
		om_die "${cfg[results]} is in use by run/oltpmark-run PID $owner (its $file); wait for it or stop it (Ctrl-C, kill $owner)"
	fi
	if [[ $owner == 0 ]]; then
		om_log "recover: $file was left by run/oltpmark-run --sut on another host, whose connection ended; undoing what it recorded"
	else
		om_log "recover: $file was left by run/oltpmark-run PID $owner, which no longer runs; undoing what it recorded"
	fi
	((same_boot)) || om_log "recover: the machine has rebooted since: its processes and cgroups are gone"
	# Its ssh control connection, kept up by ControlPersist, and the
	# directory with the cluster's password file: of this host.
	[[ -z $ssh_ctl || -z $sut_host ]] || sut_ctl_remove "$ssh_ctl" "$sut_host" || left=1
	if ((same_boot)) && [[ -n $child ]]; then
		recover_stop_child "$child" "$child_stime"
	fi
	if [[ -n $hooks_dir ]]; then
		IFS=, read -r -a hooks <<<"$hook_list"
		OLTPMARK_HOOKS_DIR=$hooks_path on_sut hooks/run-all stop "$hooks_dir" "${hooks[@]}"
		om_log "recover: stopped the hooks $hook_list of $hooks_dir"
	fi
	if [[ -n $variant_name ]]; then
		read -r -a words <<<"$variant_script"
		if ! why=$(on_sut om_script_trusted "${words[0]}"); then
			om_warn "recover: variant $variant_name not restored: $why"
			left=1
		elif OLTPMARK_VARIANT_STATE_DIR=$variant_state OLTPMARK_PGDATA=$pgdata \
			on_sut "${words[@]}" restore; then
			om_log "recover: restored variant $variant_name ($variant_script restore)"
		else
			om_warn "recover: variant $variant_name: '$variant_script restore' failed"
			left=1
		fi
	fi
	for a in "${clusters[@]}"; do
		recover_cluster "$a" "$owner_stime" "$same_boot" "$postmasters" || left=1
	done
	for line in "${cgroups[@]}"; do
		if ! on_sut test -d "${line#* }"; then
			om_log "recover: the cgroup ${line#* } is already gone"
			continue
		fi
		on_sut om_cgroup_destroy "$line"
		if on_sut test -d "${line#* }"; then
			om_warn "recover: could not remove the cgroup ${line#* }"
			left=1
		else
			om_log "recover: removed the memory cgroup ${line#* }"
		fi
	done
	if ((${#created[@]} > 0)); then
		if remove_made "${created[@]}"; then
			om_log "recover: removed what it had made for its clusters on the devices: ${created[*]}"
		else
			left=1
		fi
	fi
	if ((left)); then
		om_warn "recover: not everything could be undone (see above); $file is kept for another --recover"
		return 1
	fi
	rm -f -- "$file"
	om_log "recover: done; removed $file"
	[[ -z $sut_host ]] || sut_recover "$sut_dir/var"
}

# sut_recover VARDIR: on a SUT of its own, what the state file kept
# there lists (the guard may have done it already): run/oltpmark-run
# --recover of the SUT's tree, there.
sut_recover() {
	if on_sut test -e "$1/$STATE_NAME"; then
		om_log "recover: the state file kept on $OM_SUT_HOST, $1/$STATE_NAME:"
		on_sut oltpmark-run --recover --results "$1"
	else
		om_log "recover: nothing left on $OM_SUT_HOST (no $1/$STATE_NAME)"
	fi
}

# cleanup: the EXIT trap. Best effort, each step whatever the others did:
# stop the hooks, restore a variant, stop the private clusters (by PID, in
# run/pg), remove the memory cgroups, then what was made on the devices
# (not while its server runs); keep the exit status. Each step done
# leaves the state file; when all are, the file goes. When one fails, the
# file stays for --recover to try again.
cleanup() {
	local status=$? dir cg left=0
	local -a hooks dirs cgs made
	trap - EXIT INT TERM
	set +e
	state[cleaning]=1
	if sut_lost; then
		om_warn "the ssh connection to ${cfg[sut]} was lost: its guard undoes there what ${cfg[sut_var]}/$STATE_NAME lists; to check, once it is reachable: run/oltpmark-run --recover --results ${cfg[results]}"
		drivers_close
		sut_close
		exit 1
	fi
	if [[ -n ${state[hooks_dir]} ]]; then
		IFS=, read -r -a hooks <<<"${state[hooks]}"
		on_sut hooks/run-all stop "${state[hooks_dir]}" "${hooks[@]}"
		state[hooks_dir]=""
		state_save
	fi
	blocks_stop_switcher
	if [[ -n ${state[variant]} ]]; then
		om_log "restoring variant ${cfg[variant_name.${state[variant]}]}"
		if variant_run "${state[variant]}" restore; then
			state[variant]=""
			state_save
		else
			om_warn "variant ${cfg[variant_name.${state[variant]}]}: restore failed"
			left=1
		fi
	fi
	state_list clusters dirs
	for dir in "${dirs[@]}"; do
		if on_sut pg stop "$dir" >/dev/null 2>&1; then
			state_forget_cluster "$dir"
			state_save
		else
			om_warn "could not stop the cluster in $dir"
			left=1
		fi
	done
	state_list cgroups cgs
	for cg in "${cgs[@]}"; do
		on_sut om_cgroup_destroy "$cg"
		if on_sut test -d "${cg#* }"; then
			om_warn "could not remove the cgroup ${cg#* }"
			left=1
		else
			state_forget cgroups "$cg"
			state_save
		fi
	done
	state_list created made
	if ((${#made[@]} > 0)); then
		if remove_made "${made[@]}"; then
			state[created]=""
			state_save
		else
			left=1
		fi
	fi
	if [[ -n ${state[file]} ]]; then
		if ((left)); then
			om_warn "kept ${state[file]}: run/oltpmark-run --recover --results ${cfg[results]}${cfg[sut]:+ --sut ${cfg[sut]} --sut-dir ${cfg[sut_dir]}} tries again"
		else
			rm -f -- "${state[file]}"
			[[ -z ${cfg[sut]} ]] || on_sut rm -f -- "${cfg[sut_var]}/$STATE_NAME"
		fi
	fi
	drivers_close
	sut_close
	exit "$status"
}

# on_signal: the INT and TERM trap. The workload runs as a background
# child we wait for, so that a signal reaches this script at once (bash
# runs traps only between commands) and is forwarded: the child then
# finishes its in-flight transactions and writes a partial run before we
# clean up. Exit 1, as an interrupted `oltpmark run` does.
on_signal() {
	if sut_lost; then
		om_warn "lost the ssh connection to ${cfg[sut]}: stopping the run"
	else
		om_warn "interrupted"
	fi
	if [[ -n ${state[child]} ]]; then
		kill -TERM "${state[child]}" 2>/dev/null || true
		while kill -0 "${state[child]}" 2>/dev/null; do
			wait "${state[child]}" 2>/dev/null || true
		done
	fi
	# Several drivers (run/drivers.sh): each stopped by the end of its
	# input, and waited for.
	drivers_stop
	exit 1
}

# run_child CMD...: run CMD in the background and wait for it; it is in
# the state file while it runs, so that --recover can stop it.
run_child() {
	local status=0
	"$@" &
	state[child]=$!
	state[child_stime]=$(om_proc_stime "${state[child]}") || state[child_stime]=""
	state_save
	wait "${state[child]}" || status=$?
	state[child]=""
	return "$status"
}

# variant_run INDEX apply|restore: the state file names the variant
# before its script runs (state[variant] is set by then).
variant_run() {
	local -a words
	state_save
	read -r -a words <<<"${cfg[variant_script.$1]}"
	on_sut "${words[@]}" "$2"
}

# --- the server of one configuration

# remove_made DIR...: remove these directories, which we made, with all
# in them, last first; none while a server runs in a cluster among them
# (its files would go from under it). Stays on each one's filesystem
# (--one-file-system). Returns 1, with a warning, when something stays.
remove_made() {
	local i d
	for d in "$@"; do
		if on_sut test -e "$d/.oltpmark-cluster" && on_sut pg status "$d" >/dev/null 2>&1; then
			om_warn "not removing $d and what was made with it: its server still runs"
			return 1
		fi
	done
	for ((i = $#; i >= 1; i--)); do
		d=${!i}
		on_sut rm -rf --one-file-system -- "$d" || {
			om_warn "could not remove $d"
			return 1
		}
	done
}
