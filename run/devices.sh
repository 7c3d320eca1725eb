# shellcheck shell=bash disable=SC2154 # cfg and state are run/oltpmark-run's
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/devices.sh: run/oltpmark-run's database spread over devices
# (--tablespace-dir, --layout, --allow-shared-device, --wal-dir), sourced
# by it: the checks of those options before anything is made, and the
# cluster made for each configuration on them and removed at its end.
# It reads cfg and state of run/oltpmark-run; every command on the
# machine under test goes through run/sut.sh.

# The subdirectory a configuration's cluster gets in each directory given.
readonly DEVICE_SUBDIR=oltpmark-

# devices_on: whether the database is spread over devices (a cluster of
# this experiment's own per configuration, removed at its end).
devices_on() {
	((cfg[ts_dirs] > 0)) || [[ -n ${cfg[wal_dir]} ]]
}

# load_check_dirs OPTION PLAIN ARG...: `oltpmark load ARG...` with a
# server that cannot exist, to run the loader's own checks of its
# --tablespace-dir options (exists, a directory, given once, a device of
# its own unless --allow-shared-device, a warehouse per directory), which
# it makes before connecting: one place for those rules, in C, tested by
# tablespace.bats. The unix socket directory is under /dev/null, so the
# connection fails whatever the environment (PGHOSTADDR and PGSERVICE,
# which could name another server, are unset) and nothing is made. Its
# verdict, exit 2, becomes ours, one line naming OPTION; with PLAIN 1
# "tablespace directory" is said "directory" (the WAL's is none).
load_check_dirs() {
	local option=$1 plain=$2 out status=0 line nowhere=/dev/null/oltpmark-run
	shift 2
	out=$(env -u PGHOSTADDR -u PGSERVICE "$OLTPMARK" load -j 1 "$@" \
		--conninfo "host=$nowhere port=1 dbname=oltpmark" 2>&1) || status=$?
	if ((status == 2)); then
		line=$(sed -n 's/^oltpmark: load: //p' <<<"$out" | head -n 1)
		[[ -n $line ]] || line=${out%%$'\n'*}
		if ((plain)); then
			line=${line//tablespace director/director}
			line=${line/ is given twice (also as / is also a --tablespace-dir (}
		fi
		om_die_usage "option $option: $line"
	fi
	# Anything but the failed connection is not a verdict on the
	# directories: say it rather than go on unchecked.
	[[ $status == 1 && $out == *"$nowhere"* ]] ||
		om_die "$option: checking the directories with $OLTPMARK load failed: ${out//$'\n'/ }"
	# The loader says its own warning again when it loads; the WAL's is
	# said here only.
	((plain)) || return 0
	while IFS= read -r line; do
		[[ $line == *"share a device"* ]] || continue
		line=${line#oltpmark: warning: load: }
		om_warn "$option: ${line//tablespace director/director}"
	done <<<"$out"
}

# check_device_dir OPTION DIR: DIR, which exists and is a directory, is
# empty (what we make in it is then all there is, and all we remove), we
# may make a directory in it, and the server's user may pass through it to
# the one we make. As root, run/pg runs the server as user postgres.
check_device_dir() {
	local hint=""
	if [[ -n $(on_sut ls -A -- "$2" 2>/dev/null) ]]; then
		[[ ! -e ${cfg[results]}/$STATE_NAME ]] ||
			hint=" (if a killed run/oltpmark-run left it so: run/oltpmark-run --recover --results ${cfg[results]})"
		bad_value "$1" "$2" "is not empty$hint"
	fi
	on_sut test -w "$2" -a -x "$2" || bad_value "$1" "$2" "is not a directory you may write in"
	if on_sut om_is_root && on_sut id -u postgres >/dev/null 2>&1 &&
		! on_sut runuser -u postgres -- test -x "$2"; then
		bad_value "$1" "$2" "cannot be entered by user postgres, the server's (check the permissions of it and the directories above)"
	fi
}

# check_devices: the options of the devices, one line and exit 2 for the
# first problem, before anything is made; the directories become
# absolute.
check_devices() {
	local i n=${cfg[ts_dirs]} wal=${cfg[wal_dir]}
	local -a args=() shared=()
	if [[ -n ${cfg[conninfo]} ]]; then
		[[ -z $wal ]] ||
			bad_value --wal-dir "$wal" "is refused with --conninfo: the WAL of a server that is already running cannot be moved (give the server's own --waldir to initdb)"
		((n == 0)) ||
			bad_value --tablespace-dir "${cfg[ts_dir.0]}" "is refused with --conninfo: nothing is loaded then (load that database with oltpmark load --tablespace-dir)"
	fi
	case "${cfg[layout]}" in
	"" | table | warehouse) ;;
	*) bad_value --layout "${cfg[layout]}" "is not table or warehouse" ;;
	esac
	if ((n == 0)); then
		[[ -z ${cfg[layout]} ]] || om_die_usage "option --layout needs --tablespace-dir"
		((cfg[allow_shared] == 0)) || om_die_usage "option --allow-shared-device needs --tablespace-dir"
	fi
	((cfg[allow_shared] == 0)) || shared=(--allow-shared-device)
	for ((i = 0; i < n; i++)); do
		# the state file holds them one a line
		[[ ${cfg[ts_dir.$i]} != *[$'\t\n']* ]] ||
			om_die_usage "option --tablespace-dir: a directory name may not hold tabs or newlines"
		args+=(--tablespace-dir "${cfg[ts_dir.$i]}")
	done
	if ((n > 0)); then
		load_check_dirs --tablespace-dir 0 -w "${cfg[warehouses]}" \
			${cfg[layout]:+--layout "${cfg[layout]}"} "${shared[@]}" "${args[@]}"
		for ((i = 0; i < n; i++)); do
			check_device_dir --tablespace-dir "${cfg[ts_dir.$i]}"
		done
	fi
	if [[ -n $wal ]]; then
		[[ $wal != *[$'\t\n']* ]] ||
			om_die_usage "option --wal-dir: a directory name may not hold tabs or newlines"
		on_sut test -e "$wal" || bad_value --wal-dir "$wal" "does not exist"
		on_sut test -d "$wal" || bad_value --wal-dir "$wal" "is not a directory"
		# Against each tablespace directory, as the loader checks
		# those against each other: not the same one, not one device.
		for ((i = 0; i < n; i++)); do
			load_check_dirs --wal-dir 1 -w 1 "${shared[@]}" \
				--tablespace-dir "${cfg[ts_dir.$i]}" --tablespace-dir "$wal"
		done
		check_device_dir --wal-dir "$wal"
		cfg[wal_dir]=$(on_sut realpath -- "$wal")
	fi
	# run/pg and the loader work elsewhere
	for ((i = 0; i < n; i++)); do
		cfg[ts_dir.$i]=$(on_sut realpath -- "${cfg[ts_dir.$i]}")
	done
}

# devices_make_cluster CONFIG DIR: make CONFIG's cluster in DIR with its
# WAL in a subdirectory of --wal-dir, and a subdirectory of each
# --tablespace-dir for its tablespace, each recorded in state[created]
# (and the state file) before it is made.
devices_make_cluster() {
	local config=$1 dir=$2 sub i
	local -a wal=()
	on_sut test ! -e "$dir" ||
		om_die "$dir exists, and this experiment did not make it: remove it (run/pg stop $dir; rm -rf $dir) or give another --work"
	state_add created "$dir"
	if [[ -n ${cfg[wal_dir]} ]]; then
		sub=${cfg[wal_dir]}/$DEVICE_SUBDIR$config
		state_add created "$sub"
		wal=(--wal-dir "$sub")
	fi
	om_log "creating the private cluster for $config in $dir${wal[1]:+, its WAL in ${wal[1]}}"
	on_sut pg init "$dir" "${wal[@]}" >/dev/null ||
		om_die "could not create the $config cluster in $dir"
	for ((i = 0; i < cfg[ts_dirs]; i++)); do
		sub=${cfg[ts_dir.$i]}/$DEVICE_SUBDIR$config
		state_add created "$sub"
		# CREATE TABLESPACE wants it empty and owned by the server's
		# user, who owns the data directory (postgres when root).
		if ! on_sut mkdir -m 700 -- "$sub" ||
			! on_sut chown --reference="$dir/data" -- "$sub"; then
			om_die "cannot make $sub for the tablespace of the $config cluster"
		fi
	done
}

# devices_release: the current configuration is done: stop its cluster
# and remove it with all that was made on the devices for it, so that the
# next configuration finds the directories empty and the space free.
devices_release() {
	local dir=${state[cluster_dir]}
	local -a made
	on_sut pg stop "$dir" >/dev/null || om_die "could not stop the cluster in $dir"
	state_forget_cluster "$dir"
	state_save
	state[cluster_dir]=""
	state[admin_conninfo]=""
	state_list created made
	remove_made "${made[@]}" || om_die "could not remove what was made for the cluster in $dir (see above)"
	state[created]=""
	state_save
}

