# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/sut-ssh.sh: the ssh form of run/sut.sh's seam, sourced by it: the
# machine under test on a host of its own (run/oltpmark-run --sut HOST
# --sut-dir DIR; docs/experiments.md, "The system under test on its own
# host"). One ssh control connection (ControlMaster) per experiment, its
# socket in a private directory made here and closed (ssh -O exit) by
# sut_close; ssh always gets the options of OLTPMARK_SSH_OPTS (-F FILE,
# -p PORT, -i KEY) first, so nothing in ~/.ssh needs editing. The SUT's
# oltpmark tree is DIR there; what the experiment makes on the SUT goes
# to DIR/var (clusters, hooks' files until they come back, the variants'
# saved state, the copy of the state file that the guard and --recover
# read there).

# The programs and files the SUT needs, checked by sut_preflight without
# changing anything there: one line "missing on HOST: ..." for each one
# absent. Arguments: the tree, the hooks (names). For the SUT's shell:
# shellcheck disable=SC2016
readonly OM_SUT_PREFLIGHT='
tree=$1; shift
miss() { printf "%s\n" "$*"; bad=1; }
bad=0
for f in run/sut-exec run/lib.sh run/pg run/hooks/run-all run/oltpmark-run; do
	[ -f "$tree/$f" ] || miss "$tree/$f (the oltpmark tree: copy it there, see docs/experiments.md)"
done
[ -x "$tree/oltpmark" ] || miss "$tree/oltpmark (the binary: make in $tree)"
bindir=${OLTPMARK_PG_BINDIR:-}
if [ -z "$bindir" ]; then
	bindir=$(pg_config --bindir 2>/dev/null) || bindir=
	[ -x "$bindir/postgres" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
for p in initdb pg_ctl postgres pg_isready; do
	[ -n "$bindir" ] && [ -x "$bindir/$p" ] || miss "PostgreSQL server program $p (Debian: postgresql; or set OLTPMARK_PG_BINDIR)"
done
for p in bash tar psql timeout setsid; do
	command -v "$p" >/dev/null 2>&1 || miss "program $p"
done
if [ "$(id -u)" = 0 ]; then
	id -u postgres >/dev/null 2>&1 || miss "user postgres (the server runs as postgres when oltpmark runs as root; Debian: postgresql)"
	command -v runuser >/dev/null 2>&1 || miss "program runuser (util-linux)"
fi
for h in "$@"; do
	f=$tree/run/hooks/$h
	[ -n "${OLTPMARK_HOOKS_DIR:-}" ] && [ ! -f "$f" ] && f=$OLTPMARK_HOOKS_DIR/$h
	if [ ! -f "$f" ]; then
		miss "hook $h ($f)"
		continue
	fi
	for p in $(sed -n "s/^[[:space:]]*hook_need \([^#]*\).*/\1/p; s/^[[:space:]]*hook_need_perf.*/perf/p" "$f"); do
		command -v "$p" >/dev/null 2>&1 || miss "program $p (hook $h)"
	done
done
exit $bad
'

# The guard's "PID START_TIME" on the SUT and the descriptor of its
# input here (sut_guard_start).
OM_SUT_GUARD=""
OM_SUT_GUARD_FD=""

# sut_quote WORD: WORD quoted for any POSIX shell (the remote one).
sut_quote() {
	printf "'%s'" "${1//\'/\'\\\'\'}"
}

# sut_remote HOST DIR: from now on the SUT is HOST over ssh, its oltpmark
# tree DIR there. Makes the private directory of the control socket.
sut_remote() {
	OM_SUT_HOST=$1
	OM_SUT_TREE=$2
	OM_SUT_CTL=$(mktemp -d "${TMPDIR:-/tmp}/oltpmark-ssh.XXXXXX") ||
		om_die "cannot make a directory for the ssh control socket"
	chmod 700 -- "$OM_SUT_CTL"
}

# sut_ssh_base ARRAY: ssh and its options (OLTPMARK_SSH_OPTS first: a
# user's -o wins over ours, ssh keeps the first value of an option) into
# the array named ARRAY.
sut_ssh_base() {
	local -n sut_ssh_base_ref=$1
	local -a user=()
	read -r -a user <<<"${OLTPMARK_SSH_OPTS:-}"
	# shellcheck disable=SC2034 # a reference to the caller's array
	sut_ssh_base_ref=(ssh "${user[@]}" -o BatchMode=yes
		-o ControlMaster=auto -o ControlPersist=120
		-o "ControlPath=$OM_SUT_CTL/cm"
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3 "$OM_SUT_HOST")
}

# sut_ssh_argv ARRAY CMD [ARG...]: the ssh command line running CMD on
# the SUT in run/sut-exec of its tree, with the variables of OM_SUT_ENV
# that are set here (OLTPMARK, the binary, is the SUT's own).
sut_ssh_argv() {
	local -n sut_ssh_argv_ref=$1
	local v line="env" w
	shift
	for v in $OM_SUT_ENV; do
		[[ -z ${!v+x} ]] || line+=" $v=$(sut_quote "${!v}")"
	done
	[[ -z ${OLTPMARK_PG_PASSWORD_FILE:-} ]] ||
		line+=" PGPASSFILE=$(sut_quote "$OLTPMARK_PG_PASSWORD_FILE")"
	line+=" OLTPMARK=$(sut_quote "$OM_SUT_TREE/oltpmark")"
	line+=" bash $(sut_quote "$OM_SUT_TREE/run/sut-exec")"
	for w in "$@"; do line+=" $(sut_quote "$w")"; done
	sut_ssh_base sut_ssh_argv_ref
	sut_ssh_argv_ref+=(-- "$line")
}

# sut_preflight HOOK...: open the control connection and check that the
# SUT has what the experiment needs (OM_SUT_PREFLIGHT), changing nothing
# there. Exit 1 with one line per missing piece.
sut_preflight() {
	local out status=0 err line
	local -a argv
	sut_ssh_base argv
	err=$OM_SUT_CTL/preflight.err
	out=$("${argv[@]}" -- "env ${OLTPMARK_PG_BINDIR:+OLTPMARK_PG_BINDIR=$(sut_quote "$OLTPMARK_PG_BINDIR") }${OLTPMARK_HOOKS_DIR:+OLTPMARK_HOOKS_DIR=$(sut_quote "$OLTPMARK_HOOKS_DIR") }sh -c $(sut_quote "$OM_SUT_PREFLIGHT") sh $(sut_quote "$OM_SUT_TREE") $*" 2>"$err") ||
		status=$?
	if ((status == 255)); then
		om_die "--sut $OM_SUT_HOST: cannot connect over ssh: $(tail -n 1 "$err")"
	elif ((status != 0)); then
		while IFS= read -r line; do
			om_warn "missing on $OM_SUT_HOST: $line"
		done <<<"$out"
		om_die "--sut $OM_SUT_HOST: the SUT lacks what is listed above (docs/experiments.md, \"What the SUT needs\"); nothing was changed there"
	fi
}

# sut_close: close the control connection and remove its directory.
sut_close() {
	local -a argv
	[[ -n $OM_SUT_HOST && -d $OM_SUT_CTL ]] || return 0
	sut_guard_stop
	sut_ssh_base argv
	"${argv[@]:0:${#argv[@]}-1}" -O exit "$OM_SUT_HOST" >/dev/null 2>&1 || true
	rm -rf -- "$OM_SUT_CTL"
}

# sut_guard_start VARDIR: start the guard (om_sut_guard of run/lib.sh)
# on the SUT, in a session of its own here (Ctrl-C is for
# run/oltpmark-run, which undoes what it did itself), holding its stdin:
# when it ends, or the connection is lost, the guard undoes on the SUT
# what VARDIR's state file lists. When the guard's ssh ends before
# sut_guard_stop, the connection was lost: SIGTERM to this script, whose
# trap ends the run (marked partial) and reports it (sut_lost).
# OM_SUT_GUARD: the guard's "PID START_TIME" on the SUT, the owner of
# the state file kept there.
sut_guard_start() {
	local -a argv
	local i me=$$ ctl=$OM_SUT_CTL
	sut_ssh_argv argv om_sut_guard "$1"
	exec {OM_SUT_GUARD_FD}> >(
		trap '' INT
		setsid -w "${argv[@]}" >"$ctl/guard.out" 2>"$ctl/guard.err" || true
		if [[ ! -e $ctl/closing ]]; then
			: >"$ctl/lost"
			kill -TERM "$me" 2>/dev/null
		fi
	)
	for ((i = 0; i < 300; i++)); do
		read -r OM_SUT_GUARD 2>/dev/null <"$ctl/guard.out" && break
		[[ ! -e $ctl/lost ]] || break
		sleep 0.1
	done
	[[ $OM_SUT_GUARD =~ ^[0-9]+\ [0-9]+$ ]] ||
		om_die "--sut $OM_SUT_HOST: the guard did not start there ($(tail -n 1 "$ctl/guard.err" 2>/dev/null))"
}

# sut_guard_stop: end the guard's input: the experiment is over (what
# the state file kept on the SUT still lists, the guard undoes).
sut_guard_stop() {
	[[ -n ${OM_SUT_GUARD_FD:-} ]] || return 0
	: >"$OM_SUT_CTL/closing"
	exec {OM_SUT_GUARD_FD}>&-
	OM_SUT_GUARD_FD=""
}

# sut_ctl_remove DIR HOST: the control directory of a killed
# run/oltpmark-run (its state file's ssh_ctl), for --recover: close its
# master connection to HOST (ssh -O exit: ControlPersist keeps one up
# after the last use) and remove DIR with the password file in it. Only
# a directory of ours named as sut_remote names them; 1 when refused.
sut_ctl_remove() {
	local dir=$1 host=$2 uid
	local -a user=()
	if [[ $(basename -- "$dir") != oltpmark-ssh.* ]]; then
		om_warn "recover: not removing $dir: not an ssh control directory of run/oltpmark-run"
		return 1
	fi
	if [[ ! -e $dir ]]; then
		om_log "recover: its ssh control directory $dir is already gone"
		return 0
	fi
	uid=$(stat -c %u -- "$dir")
	if [[ -L $dir || ! -d $dir ]] || ((uid != EUID)); then
		om_warn "recover: not removing $dir: not a directory of yours"
		return 1
	fi
	if [[ -S $dir/cm ]]; then
		read -r -a user <<<"${OLTPMARK_SSH_OPTS:-}"
		ssh "${user[@]}" -o "ControlPath=$dir/cm" -O exit "$host" >/dev/null 2>&1 || true
	fi
	rm -rf -- "$dir"
	om_log "recover: closed the ssh control connection it had left to $host and removed $dir"
}

# sut_lost: whether the guard's connection was lost.
sut_lost() {
	[[ -n $OM_SUT_HOST && -e $OM_SUT_CTL/lost ]]
}
