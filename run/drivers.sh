# shellcheck shell=bash disable=SC2154 # cfg and state are run/oltpmark-run's
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/drivers.sh: run/oltpmark-run --driver-hosts H1,H2,...: the workload
# of each run driven by several load generators, sourced by it. Host k of
# N runs `oltpmark run --warehouse-range k/N`, all with the run's seed and
# one --start-at instant a few seconds ahead; their run directories come
# back into RUN_DIR/.drivers/K-HOST/ and `oltpmark merge` joins them into
# RUN_DIR, which report and compare read as any run. A host is `local`
# (this machine, no ssh) or [USER@]HOST over ssh, one control connection
# (ControlMaster) per host, with the options of OLTPMARK_SSH_OPTS as
# run/sut-ssh.sh does; its oltpmark binary is DIR/oltpmark of
# --driver-dir DIR. docs/experiments.md, "Several load generators".
# --driver-listen ADDR without --driver-hosts is the one local driver
# over TCP: the control for --sut's transport ("The local run over TCP").
#
# A driver's standard input is a FIFO whose writing end only this script
# holds: when it closes (the run is stopped, this script dies, the ssh
# connection is lost), the driver's wrapper sends SIGTERM to its
# `oltpmark run`, which writes its run marked partial. So no driver
# outlives the experiment, whatever ends it, without a state file.
#
# Driver hosts are not the machine under test: they are reached over
# their own ssh connections, never through on_sut.

# The hosts as given ("local" or [USER@]HOST), in range order; empty
# without --driver-hosts.
DRV_HOSTS=()
# The private directory of the control sockets, the FIFOs and (with
# --driver-listen) the password file.
DRV_CTL=""
# Per driver k of the current run: the PID of its process here (the ssh
# client or the local wrapper), the descriptor of its FIFO's writing end,
# and its exit status once it ended.
declare -A DRV_PID=() DRV_FD=() DRV_RC=()
# Seconds from choosing --start-at to the instant itself: enough for
# every driver to start, connect and measure its clock offset (5 s was
# short on a 2-CPU host at a load of 15: a driver over ssh was ready
# 0.7 s after the instant, and its run refused).
DRV_LEAD_S=${OLTPMARK_DRIVER_LEAD_S:-10}

# The wrapper each driver runs (POSIX sh; arguments: the binary, then
# its own: run ...): the run in the background, its standard input
# watched; at its end (EOF) or on SIGTERM/INT/HUP, SIGTERM to the run.
# Exits with the run's status. A background list of a non-interactive
# shell reads /dev/null unless redirected, hence descriptor 3.
# shellcheck disable=SC2016 # for the driver's shell
readonly OM_DRIVER_WRAPPER='
bin=$1; shift
exec 3<&0
"$bin" "$@" </dev/null 3<&- &
pid=$!
trap "kill -TERM $pid 2>/dev/null" TERM INT HUP
(while read -r _; do :; done; kill -TERM "$pid" 2>/dev/null) <&3 >/dev/null 2>&1 &
watch=$!
exec 3<&-
rc=0
wait "$pid" || rc=$?
while kill -0 "$pid" 2>/dev/null; do rc=0; wait "$pid" || rc=$?; done
kill "$watch" 2>/dev/null
exit "$rc"
'

# What a driver host needs, checked without changing anything there:
# one line per missing piece; with none, "info NAME KERNEL CPUS" and
# "version V". Argument: --driver-dir.
# shellcheck disable=SC2016 # for the driver's shell
readonly OM_DRIVER_PREFLIGHT='
dir=$1
bad=0
miss() { printf "%s\n" "$*"; bad=1; }
if [ ! -x "$dir/oltpmark" ]; then
	miss "$dir/oltpmark (the oltpmark binary: build the tree there, or link the binary there)"
elif ! out=$("$dir/oltpmark" run --help 2>&1 >/dev/null); then
	miss "a working $dir/oltpmark: $(printf "%s\n" "$out" | head -n 1)"
fi
for p in sh tar mkdir rm cat uname getconf; do
	command -v "$p" >/dev/null 2>&1 || miss "program $p"
done
if [ -e "$dir/var" ]; then
	[ -d "$dir/var" ] && [ -w "$dir/var" ] || miss "$dir/var, writable (the runs wait there until they are brought back)"
elif [ -d "$dir" ] && [ ! -w "$dir" ]; then
	miss "$dir, writable (for $dir/var)"
fi
[ "$bad" = 0 ] || exit 1
echo "info $(uname -n) $(uname -r) $(getconf _NPROCESSORS_ONLN)"
echo "version $("$dir/oltpmark" --version)"
'

# drivers_on: whether the runs have several drivers (--driver-hosts).
drivers_on() {
	((${#DRV_HOSTS[@]} > 0))
}

# drivers_remote K: whether driver K (1..N) is on another host.
drivers_remote() {
	[[ ${DRV_HOSTS[$1 - 1]} != local ]]
}

# drivers_options: check --driver-hosts, --driver-dir, --driver-listen
# (exit 2 on a bad one); then, unless --recover, open one control
# connection per remote host and check that each has what it needs
# (exit 1, one line per missing piece, nothing changed there).
drivers_options() {
	local h k remote=0
	local -a hosts
	if [[ -z ${cfg[driver_hosts]} ]]; then
		[[ -z ${cfg[driver_dir]} ]] || bad_value --driver-dir "${cfg[driver_dir]}" "needs --driver-hosts"
		# --driver-listen alone: the one local driver over TCP.
		[[ -n ${cfg[driver_listen]} ]] || return 0
		drivers_listen_options
		((cfg[recover] == 0)) || return 0
		drivers_ctl_make
		return 0
	fi
	IFS=, read -r -a hosts <<<"${cfg[driver_hosts]}"
	((${#hosts[@]} >= 2)) ||
		bad_value --driver-hosts "${cfg[driver_hosts]}" "names fewer than two hosts (one driver is the default: leave the option out)"
	for h in "${hosts[@]}"; do
		[[ $h == local || ($h =~ ^([A-Za-z0-9._-]+@)?[A-Za-z0-9._:-]+$ && $h != -*) ]] ||
			bad_value --driver-hosts "$h" "is not local or [USER@]HOST"
		[[ $h == local ]] || remote=1
	done
	# -w is checked later by check_options; K/N needs N <= W.
	! om_is_count "${cfg[warehouses]}" 1 || ((${#hosts[@]} <= 10#${cfg[warehouses]})) ||
		bad_value --driver-hosts "${cfg[driver_hosts]}" "names more hosts than the ${cfg[warehouses]} warehouses of -w"
	if [[ -n ${cfg[connections]} ]] && om_is_count "${cfg[connections]}" 1 &&
		((10#${cfg[connections]} < ${#hosts[@]})); then
		bad_value -c "${cfg[connections]}" "is fewer connections than the ${#hosts[@]} drivers (-c is their total)"
	fi
	[[ ${cfg[design]} != blocks ]] ||
		bad_value --driver-hosts "${cfg[driver_hosts]}" "is not for --design blocks (its switcher follows one oltpmark run)"
	if ((remote)); then
		[[ ${cfg[driver_dir]} == /* && ${cfg[driver_dir]} != *[$'\t\n']* ]] ||
			bad_value --driver-dir "${cfg[driver_dir]}" "is not an absolute path (the drivers' oltpmark directory; a host other than local needs it)"
		if [[ -z ${cfg[conninfo]} && -z ${cfg[sut]} && -z ${cfg[driver_listen]} ]]; then
			om_die_usage "--driver-hosts: a driver on another host needs --driver-listen ADDR (this host's address the private cluster listens on), or --sut with --sut-listen, or --conninfo"
		fi
	else
		[[ -z ${cfg[driver_dir]} ]] || bad_value --driver-dir "${cfg[driver_dir]}" "needs a --driver-hosts host other than local"
	fi
	[[ -z ${cfg[driver_listen]} ]] || drivers_listen_options
	om_is_count "$DRV_LEAD_S" 1 ||
		om_die_usage "OLTPMARK_DRIVER_LEAD_S: '$DRV_LEAD_S' is not a number of seconds >= 1"
	DRV_LEAD_S=$((10#$DRV_LEAD_S))
	DRV_HOSTS=("${hosts[@]}")
	((cfg[recover] == 0)) || { DRV_HOSTS=(); return 0; }
	drivers_ctl_make
	for ((k = 1; k <= ${#DRV_HOSTS[@]}; k++)); do
		drivers_preflight "$k"
	done
	cfg[driver_notes]=$(drivers_notes)
}

# drivers_listen_options: check --driver-listen ADDR (exit 2): not with
# --sut or --conninfo, a host name or an address.
drivers_listen_options() {
	[[ -z ${cfg[sut]} ]] ||
		bad_value --driver-listen "${cfg[driver_listen]}" "is not for --sut (the cluster listens on --sut-listen there)"
	[[ -z ${cfg[conninfo]} ]] ||
		bad_value --driver-listen "${cfg[driver_listen]}" "is not for --conninfo (the server is yours)"
	[[ ${cfg[driver_listen]} =~ ^[A-Za-z0-9.:-]+$ ]] ||
		bad_value --driver-listen "${cfg[driver_listen]}" "is not a host name or an address"
}

# drivers_ctl_make: DRV_CTL, the private directory of the control
# sockets, the FIFOs and the password file, removed on any exit.
drivers_ctl_make() {
	DRV_CTL=$(mktemp -d "${TMPDIR:-/tmp}/oltpmark-drv.XXXXXX") ||
		om_die "cannot make a directory for the drivers' ssh control sockets"
	chmod 700 -- "$DRV_CTL"
	# Closed on any exit; cleanup (run/state.sh) does it once it runs.
	trap 'drivers_close; sut_close' EXIT
}

# drivers_ssh ARRAY HOST: ssh's options for a driver host, the host
# last (OLTPMARK_SSH_OPTS first, as run/sut-ssh.sh), its control socket
# in DRV_CTL (%C: one per host, user and port), into the array named
# ARRAY.
drivers_ssh() {
	local -n drivers_ssh_ref=$1
	local -a user=()
	read -r -a user <<<"${OLTPMARK_SSH_OPTS:-}"
	# shellcheck disable=SC2034 # a reference to the caller's array
	drivers_ssh_ref=("${user[@]}" -o BatchMode=yes
		-o ControlMaster=auto -o ControlPersist=600
		-o "ControlPath=$DRV_CTL/%C"
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3 "$2")
}

# drivers_on_host K CMD...: run CMD on driver K's host (its words
# quoted for the remote shell here), its input /dev/null.
drivers_on_host() {
	drivers_on_host_in "$@" </dev/null
}

# drivers_on_host_in K CMD...: drivers_on_host with this standard input.
drivers_on_host_in() {
	local k=$1 line="" w
	local -a argv
	shift
	for w in "$@"; do line+="${line:+ }$(sut_quote "$w")"; done
	drivers_ssh argv "${DRV_HOSTS[$k - 1]}"
	ssh "${argv[@]}" -- "$line"
}

# drivers_preflight K: driver K has what it needs, else one line per
# missing piece ("missing on driver HOST: ...") and exit 1. Records
# its name, kernel and CPUs in cfg[driver_info.K].
drivers_preflight() {
	local k=$1 h=${DRV_HOSTS[$1 - 1]} out status=0 line version="" err
	if ! drivers_remote "$k"; then
		cfg[driver_info.$k]="$(uname -n) $(uname -r) $(getconf _NPROCESSORS_ONLN)"
		return 0
	fi
	err=$DRV_CTL/preflight.err
	out=$(drivers_on_host "$k" sh -c "$OM_DRIVER_PREFLIGHT" sh "${cfg[driver_dir]}" 2>"$err") ||
		status=$?
	if ((status == 255)); then
		om_die "--driver-hosts $h: cannot connect over ssh: $(tail -n 1 "$err")"
	elif ((status != 0)); then
		while IFS= read -r line; do
			om_warn "missing on driver $h: $line"
		done <<<"$out"
		om_die "--driver-hosts $h: the driver host lacks what is listed above (docs/experiments.md, \"What a driver host needs\"); nothing was changed there"
	fi
	while IFS= read -r line; do
		case "$line" in
		info\ *) cfg[driver_info.$k]=${line#info } ;;
		version\ *) version=${line#version } ;;
		esac
	done <<<"$out"
	[[ $version == "$("$OLTPMARK" --version)" ]] ||
		om_die "--driver-hosts $h: ${cfg[driver_dir]}/oltpmark is '$version', this host's $OLTPMARK '$("$OLTPMARK" --version)': give every driver the same oltpmark"
}

# drivers_notes: the --note pairs of every run's meta.json (the same for
# every part: merge keeps the first part's notes): the hosts in range
# order and each one's name, kernel and CPUs. The ranges, clock offsets
# and shifts are merge's, in meta.json merge.parts.
drivers_notes() {
	local k
	local -a i
	printf 'drivers=%s' "$(IFS=,; echo "${DRV_HOSTS[*]}")"
	for ((k = 1; k <= ${#DRV_HOSTS[@]}; k++)); do
		read -r -a i <<<"${cfg[driver_info.$k]}"
		printf ' drivers.%d.host=%s drivers.%d.kernel=%s drivers.%d.cpus=%s' \
			"$k" "${i[0]}" "$k" "${i[1]}" "$k" "${i[2]}"
	done
	echo
}

# drivers_prepare: after sut_host_notes, before the first cluster starts.
# The notes joined to cfg[host_notes] (terminals=other-host when no
# driver is local: the server has its host to itself); with
# --driver-listen, the private cluster's TCP listener and its password
# (as --sut's: a 0600 file, never on a command line); the password, when
# there is one, copied to each remote driver's DIR/var/pgpass (0600).
drivers_prepare() {
	local k pass
	drivers_on || [[ -n ${cfg[driver_listen]} ]] || return 0
	if drivers_on; then
		if [[ " ${DRV_HOSTS[*]} " != *" local "* ]]; then
			cfg[host_notes]=${cfg[host_notes]/terminals=same-host/terminals=other-host}
		fi
		cfg[host_notes]+=" ${cfg[driver_notes]}"
	fi
	if [[ -n ${cfg[driver_listen]} ]]; then
		pass=$DRV_CTL/pgpass
		drivers_password "$pass"
		export PGPASSFILE=$pass OLTPMARK_PG_PASSWORD_FILE=$pass
		export OLTPMARK_PG_LISTEN=${cfg[driver_listen]}
	fi
	for ((k = 1; k <= ${#DRV_HOSTS[@]}; k++)); do
		drivers_remote "$k" || continue
		drivers_on_host "$k" mkdir -p -- "${cfg[driver_dir]}/var/drivers" ||
			om_die "--driver-hosts ${DRV_HOSTS[$k - 1]}: cannot make ${cfg[driver_dir]}/var/drivers"
		[[ -n ${cfg[conninfo]} || -z ${PGPASSFILE:-} ]] && continue
		# shellcheck disable=SC2016 # for the driver's shell
		drivers_on_host_in "$k" sh -c 'umask 077 && cat >"$1.tmp" && mv -f -- "$1.tmp" "$1"' \
			sh "${cfg[driver_dir]}/var/pgpass" <"$PGPASSFILE" ||
			om_die "--driver-hosts ${DRV_HOSTS[$k - 1]}: cannot write ${cfg[driver_dir]}/var/pgpass"
	done
}

# drivers_password FILE: a new password for the private cluster's TCP
# listener, drawn here, into FILE (0600, as a pgpass line).
drivers_password() {
	local pw
	pw=$(head -c 1024 /dev/urandom | LC_ALL=C tr -dc 'A-Za-z0-9') || pw=""
	((${#pw} >= 32)) || om_die "cannot draw a password"
	(umask 077 && printf '*:*:*:*:%s\n' "${pw:0:32}" >"$1") ||
		om_die "cannot write $1"
}

# drivers_part K: the name of driver K's part, K-HOST (its directory in
# RUN_DIR/.drivers, and of its log beside it).
drivers_part() {
	local h=${DRV_HOSTS[$1 - 1]}
	echo "$1-${h//[@:]/_}"
}

# drivers_args K ARG...: the arguments of one_run's `oltpmark run ...`
# (from its word run) for driver K: without --out, -c and --server-pid (the postmaster is a
# process of this host: only a local driver reads its CPU time), with
# its range, its share of -c and the common --start-at added by
# drivers_run. One argument a line.
drivers_args() {
	local k=$1 n=${#DRV_HOSTS[@]} c
	shift
	while (($# > 0)); do
		case "$1" in
		--out | -c) shift ;;
		--server-pid) drivers_remote "$k" || printf '%s\n' "$1" "$2"; shift ;;
		*) printf '%s\n' "$1" ;;
		esac
		shift
	done
	printf '%s\n' --warehouse-range "$k/$n"
	if [[ -n ${cfg[connections]} ]]; then
		# Near-equal shares of the total, the larger ones first.
		c=$((cfg[connections] / n + (k <= cfg[connections] % n ? 1 : 0)))
		printf '%s\n' -c "$c"
	fi
}

# drivers_remote_out RUN_DIR K: where driver K's run goes on its host
# until it is brought back: DIR/var/drivers/ and the run's path below
# the results, / as _.
drivers_remote_out() {
	local rel=${1#"${cfg[results]}"/}
	echo "${cfg[driver_dir]}/var/drivers/${rel//\//_}-$2"
}

# drivers_start K START RUN_DIR ARG...: start driver K in the background,
# its standard input a FIFO whose writing end is DRV_FD[K], its output in
# RUN_DIR/.drivers/K-HOST.log. Every other driver's FIFO is closed in it,
# so that closing one writing end here stops exactly that driver.
drivers_start() {
	local k=$1 start=$2 run_dir=$3 part fifo out line w f prog
	local -a args argv
	shift 3
	part=$(drivers_part "$k")
	mapfile -t args < <(drivers_args "$k" "$@")
	args+=(--start-at "$start")
	if drivers_remote "$k"; then
		out=$(drivers_remote_out "$run_dir" "$k")
		line="rm -rf -- $(sut_quote "$out") &&"
		[[ -n ${cfg[conninfo]} || -z ${PGPASSFILE:-} ]] ||
			line+=" PGPASSFILE=$(sut_quote "${cfg[driver_dir]}/var/pgpass") && export PGPASSFILE &&"
		line+=" exec sh -c $(sut_quote "$OM_DRIVER_WRAPPER") sh $(sut_quote "${cfg[driver_dir]}/oltpmark")"
		for w in "${args[@]}" --out "$out"; do line+=" $(sut_quote "$w")"; done
		prog="ssh"
		drivers_ssh argv "${DRV_HOSTS[$k - 1]}"
		argv+=(-- "$line")
	else
		prog="sh"
		argv=(-c "$OM_DRIVER_WRAPPER" sh "$OLTPMARK" "${args[@]}"
			--out "$run_dir/.drivers/$part")
	fi
	fifo=$DRV_CTL/fifo-$k
	rm -f -- "$fifo"
	mkfifo -m 600 -- "$fifo" || om_die "cannot make $fifo"
	(
		for f in "${DRV_FD[@]}" ${OM_SUT_GUARD_FD:-}; do exec {f}>&-; done
		exec "$prog" "${argv[@]}" <"$fifo" >"$run_dir/.drivers/$part.log" 2>&1
	) &
	DRV_PID[$k]=$!
	exec {f}>"$fifo"
	DRV_FD[$k]=$f
	rm -f -- "$fifo"
}

# drivers_stop: stop every driver still running (EOF on its FIFO: its
# wrapper sends SIGTERM to its run, which ends marked partial) and wait
# for them. Called when one driver failed, and on a signal.
drivers_stop() {
	local k f
	for k in "${!DRV_FD[@]}"; do
		f=${DRV_FD[$k]}
		exec {f}>&-
		unset "DRV_FD[$k]"
	done
	for k in "${!DRV_PID[@]}"; do
		DRV_RC[$k]=0
		wait "${DRV_PID[$k]}" || DRV_RC[$k]=$?
		unset "DRV_PID[$k]"
	done
}

# drivers_why K: one line on why driver K failed: the connection, or the
# last line of its output.
drivers_why() {
	local k=$1 rc=${DRV_RC[$1]} last
	last=$(tail -n 1 -- "$2/.drivers/$(drivers_part "$k").log" 2>/dev/null) || last=""
	if ((rc == 255)) && drivers_remote "$k"; then
		echo "lost the ssh connection (status 255)${last:+: $last}"
	else
		echo "exited with status $rc${last:+: $last}"
	fi
}

# drivers_run RUN_DIR ARG...: one run of the experiment, driven by every
# driver host (ARG...: one_run's `oltpmark run` arguments): start them
# all at one --start-at instant DRV_LEAD_S ahead, wait; when one fails,
# say which (one line naming its host) and stop the others; bring the
# parts back into RUN_DIR/.drivers and merge them into RUN_DIR. Returns
# 0 when every driver ended normally and the merge is complete, else 1
# (the parts are kept; without every part there is no merged run).
drivers_run() {
	local run_dir=$1 n=${#DRV_HOSTS[@]} k f start done_pid st failed=0 status=0
	local -a parts=() pids
	local -A by_pid=()
	shift
	mkdir -p -- "$run_dir/.drivers" || return 1
	DRV_PID=() DRV_FD=() DRV_RC=()
	start=$(($(date +%s) + DRV_LEAD_S))
	om_log "$n drivers (${DRV_HOSTS[*]}), warehouse ranges 1/$n..$n/$n, start at $(date -d "@$start" +%T); their output in $run_dir/.drivers/"
	for ((k = 1; k <= n; k++)); do
		drivers_start "$k" "$start" "$run_dir" "$@"
		by_pid[${DRV_PID[$k]}]=$k
	done
	while ((${#DRV_PID[@]} > 0)); do
		pids=("${DRV_PID[@]}")
		st=0
		done_pid=""
		wait -n -p done_pid "${pids[@]}" || st=$?
		[[ -n $done_pid ]] || continue
		k=${by_pid[$done_pid]}
		DRV_RC[$k]=$st
		unset "DRV_PID[$k]"
		if [[ -n ${DRV_FD[$k]:-} ]]; then
			f=${DRV_FD[$k]}
			exec {f}>&-
			unset "DRV_FD[$k]"
		fi
		if ((st != 0 && failed == 0)); then
			failed=$k
			count_failure "driver ${DRV_HOSTS[$k - 1]} ($k/$n): $(drivers_why "$k" "$run_dir")"
			((${#DRV_PID[@]} == 0)) || om_log "stopping the other drivers"
			drivers_stop
		fi
	done
	for ((k = 1; k <= n; k++)); do
		((DRV_RC[$k] == 0)) || status=1
		drivers_say_clock "$k" "$run_dir"
		drivers_fetch "$k" "$run_dir" || status=1
		[[ ! -e $run_dir/.drivers/$(drivers_part "$k")/run.json ]] ||
			parts+=(".drivers/$(drivers_part "$k")")
	done
	drivers_merge "$run_dir" "${parts[@]}" || status=1
	return "$status"
}

# drivers_say_clock K RUN_DIR: one line with driver K's range and its
# clock's offset against the server, as its run said them.
drivers_say_clock() {
	local log homes clock
	log=$2/.drivers/$(drivers_part "$1").log
	homes=$(sed -n 's/.*(homes \([0-9-]*\)).*/\1/p' "$log" 2>/dev/null | head -n 1)
	clock=$(sed -n "s/^oltpmark: run: clock \(.*\) off the server's \(.*\)/\1 \2/p" "$log" 2>/dev/null | head -n 1)
	[[ -n $homes$clock ]] || return 0
	om_log "driver ${DRV_HOSTS[$1 - 1]} ($1/${#DRV_HOSTS[@]}): warehouses ${homes:-?}, clock ${clock:-not measured} against the server's"
}

# drivers_fetch K RUN_DIR: bring driver K's run directory back into
# RUN_DIR/.drivers/K-HOST and remove it there; nothing to do for a local
# driver. A run that was never written (refused before it started) is
# no failure of its own: the driver's status said it.
drivers_fetch() {
	local k=$1 run_dir=$2 out local_dir st=0
	local -a argv
	drivers_remote "$k" || return 0
	out=$(drivers_remote_out "$run_dir" "$k")
	local_dir=$run_dir/.drivers/$(drivers_part "$k")
	drivers_on_host "$k" test -d "$out" 2>/dev/null || st=$?
	((st != 1)) || return 0
	if ((st == 0)); then
		drivers_ssh argv "${DRV_HOSTS[$k - 1]}"
		mkdir -p -- "$local_dir" &&
			ssh "${argv[@]}" -- "tar -C $(sut_quote "$out") -cf - ." </dev/null | tar -C "$local_dir" -xf - &&
			drivers_on_host "$k" rm -rf -- "$out" && return 0
	fi
	count_failure "driver ${DRV_HOSTS[$k - 1]}: its run could not be brought back from $out (it stays there)"
	return 1
}

# drivers_merge RUN_DIR PART...: `oltpmark merge` of the parts (paths
# relative to RUN_DIR, as meta.json merge.parts records them) into
# RUN_DIR, beside its sys/. Without every part there is nothing to
# merge: the run has no results of its own (compare skips it, and the
# hidden .drivers, so no part is taken for a run).
drivers_merge() {
	local run_dir=$1 tmp=.drivers/merged st=0 f out
	shift
	if (($# < ${#DRV_HOSTS[@]})); then
		count_failure "$run_dir: $# of ${#DRV_HOSTS[@]} drivers' runs are here (in $run_dir/.drivers): not merged"
		return 1
	fi
	out=$(cd -- "$run_dir" && "$OLTPMARK" merge --out "$tmp" "$@" 2>&1 >/dev/null) || st=$?
	if ((st == 2)) || [[ ! -e $run_dir/$tmp/run.json ]]; then
		count_failure "$run_dir: oltpmark merge refused the drivers' runs (status $st): ${out##*$'\n'}"
		return 1
	fi
	# Its last line names the temporary directory: said as the run's.
	out=${out%; results in*}
	om_log "merged into $run_dir: ${out#oltpmark: merge: }"
	for f in "$run_dir/$tmp"/*; do
		mv -- "$f" "$run_dir/" || return 1
	done
	rmdir -- "$run_dir/$tmp"
	return "$st"
}

# drivers_close: close the control connections and remove DRV_CTL.
drivers_close() {
	local k
	local -a argv
	[[ -n $DRV_CTL && -d $DRV_CTL ]] || return 0
	drivers_stop
	for ((k = 1; k <= ${#DRV_HOSTS[@]}; k++)); do
		drivers_remote "$k" || continue
		drivers_ssh argv "${DRV_HOSTS[$k - 1]}"
		ssh "${argv[@]:0:${#argv[@]}-1}" -O exit "${DRV_HOSTS[$k - 1]}" >/dev/null 2>&1 || true
	done
	rm -rf -- "$DRV_CTL"
	DRV_CTL=""
}
