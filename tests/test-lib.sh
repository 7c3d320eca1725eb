# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# test-lib.sh - what both the bats files (through helpers.bash) and the
# benchmarks of tests/bench need: bounded polls, a free port, and a
# throwaway sshd standing in for a second host. Sourced, never run; it
# sets no shell options of its own.

# wait_for SECONDS [!] CMD...: run CMD every 0.1 s until it succeeds
# (with the !, until it fails); after SECONDS (whole) without, print what was
# waited for and fail. For what a busy host may make late, instead of a
# fixed sleep that is either too short there or too long everywhere else.
# The polls run in a subshell without bats' DEBUG trap (a stack trace
# capture before every command of a test: a third of a millisecond of
# CPU each here, every 0.1 s of every wait); elsewhere that is a no-op.
wait_for() (
	local limit=$1 t=${EPOCHREALTIME/,/.} end now neg=

	trap - DEBUG
	shift
	if [[ $1 == '!' ]]; then
		neg=1
		shift
	fi
	end=$((10#${t%.*} * 10 + 10#${t#*.} / 100000 + limit * 10))
	until if [[ -n $neg ]]; then ! "$@"; else "$@"; fi; do
		t=${EPOCHREALTIME/,/.}
		now=$((10#${t%.*} * 10 + 10#${t#*.} / 100000))
		if ((now >= end)); then
			echo "wait_for: still not true after $limit s: ${neg:+! }$*" >&2
			return 1
		fi
		sleep 0.1
	done
)

# --- a throwaway sshd (sut.bats, drivers.bats, tests/bench/bench_sut.sh): a free
# port of 127.0.0.1, a host key and a user key made by the test, and an
# ssh config given by OLTPMARK_SSH_OPTS (-F), so nothing of ~/.ssh is
# read. SSH_DIR holds it all, SSH_ALIAS is the config's host name.

# sshd_unavailable: why a test file cannot run its own sshd, or nothing.
sshd_unavailable() {
	if [[ ! -x /usr/sbin/sshd ]]; then
		echo "no /usr/sbin/sshd (Debian: openssh-server; run/install-deps check)"
	elif ! command -v ssh-keygen >/dev/null 2>&1 || ! command -v ssh >/dev/null 2>&1; then
		echo "no ssh or ssh-keygen (Debian: openssh-client)"
	elif ((EUID != 0)); then
		echo "needs root (sshd's privilege separation; the server runs as postgres)"
	fi
}

# free_port: a TCP port of 127.0.0.1 nobody listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# sshd_setup DIR ALIAS: the keys, sshd_config and ssh_config (host ALIAS
# is 127.0.0.1 on a free port) in DIR, made 0700; exports SSH_DIR=DIR
# and SSH_ALIAS=ALIAS for sshd_start and sshd_kill.
sshd_setup() {
	local port
	export SSH_DIR=$1 SSH_ALIAS=$2
	mkdir -m 700 "$SSH_DIR"
	mkdir -p /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$SSH_DIR/host_key"
	ssh-keygen -q -t ed25519 -N '' -f "$SSH_DIR/user_key"
	cp "$SSH_DIR/user_key.pub" "$SSH_DIR/authorized_keys"
	port=$(free_port)
	# AcceptEnv SHLVL / SetEnv SHLVL=1: bash, the remote login shell,
	# reads ~/.bashrc for a command run by sshd unless it is nested; on
	# a machine whose ~/.bashrc is slow every command would pay for it.
	cat >"$SSH_DIR/sshd_config" <<-EOF
		Port $port
		ListenAddress 127.0.0.1
		HostKey $SSH_DIR/host_key
		AuthorizedKeysFile $SSH_DIR/authorized_keys
		PidFile none
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		PermitRootLogin prohibit-password
		UsePAM no
		StrictModes no
		PrintMotd no
		PrintLastLog no
		MaxSessions 64
		AcceptEnv SHLVL
	EOF
	cat >"$SSH_DIR/ssh_config" <<-EOF
		Host $SSH_ALIAS
		  HostName 127.0.0.1
		  Port $port
		  User $(id -un)
		  IdentityFile $SSH_DIR/user_key
		  IdentitiesOnly yes
		  UserKnownHostsFile $SSH_DIR/known_hosts
		  StrictHostKeyChecking accept-new
		  LogLevel ERROR
		  SetEnv SHLVL=1
	EOF
}

# sshd_start: the sshd of sshd_setup's SSH_DIR; its PID in
# SSH_DIR/sshd.pid.
sshd_start() {
	/usr/sbin/sshd -D -f "$SSH_DIR/sshd_config" -E "$SSH_DIR/sshd.log" &
	echo $! >"$SSH_DIR/sshd.pid"
	# killed on purpose by some tests: no job message from bats
	disown
	wait_for 30 sshd_answers
}

# sshd_answers: whether the sshd of SSH_DIR takes a command (its refusals
# while it starts are not the caller's business).
sshd_answers() {
	ssh -F "$SSH_DIR/ssh_config" "$SSH_ALIAS" true 2>/dev/null
}

# sshd_kill: kill the sshd of sshd_start and the sshd processes of its
# connections (their PIDs: the descendants of its PID that are sshd),
# never the commands they run: the connection is lost, as when a host's
# network goes. SIGKILL: nothing of theirs says goodbye.
sshd_kill() {
	local top p ppid exe f line
	local -a pids=() queue
	top=$(<"$SSH_DIR/sshd.pid")
	queue=("$top")
	while ((${#queue[@]} > 0)); do
		p=${queue[0]}
		queue=("${queue[@]:1}")
		pids+=("$p")
		for f in /proc/[0-9]*/stat; do
			# builtins only: a scan with a fork per process is slow
			{ read -r line <"$f"; } 2>/dev/null || continue
			line=${line##*) }
			read -r _ ppid _ <<<"$line"
			[[ $ppid == "$p" ]] || continue
			f=${f%/stat}
			exe=$(readlink "$f/exe" 2>/dev/null) || continue
			[[ $exe == /usr/sbin/sshd ]] && queue+=("${f#/proc/}")
		done
	done
	kill -KILL "${pids[@]}" 2>/dev/null || true
	wait_for 10 ! ssh -F "$SSH_DIR/ssh_config" -o ConnectTimeout=2 "$SSH_ALIAS" true
}
