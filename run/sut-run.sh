# shellcheck shell=bash disable=SC2154 # cfg and state are run/oltpmark-run's
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/sut-run.sh: run/oltpmark-run's options for a system under test on a
# host of its own (--sut, --sut-dir, --sut-listen), sourced by it: their
# checks, the check of the SUT before anything starts, the password of
# the cluster's TCP listener, and the hosts recorded in each run's
# meta.json. The commands themselves go through run/sut.sh, whose ssh
# form (run/sut-ssh.sh) does the rest. docs/experiments.md, "The system
# under test on its own host".

# sut_options: check --sut, --sut-dir, --sut-listen (exit 2 on a bad
# one); with --sut, switch the seam to ssh and check the SUT
# (sut_preflight: exit 1, one line per missing piece, nothing changed).
sut_options() {
	local -a hooks
	if [[ -z ${cfg[sut]} ]]; then
		[[ -z ${cfg[sut_dir]} ]] || bad_value --sut-dir "${cfg[sut_dir]}" "needs --sut"
		[[ -z ${cfg[sut_listen]} ]] || bad_value --sut-listen "${cfg[sut_listen]}" "needs --sut"
		return 0
	fi
	[[ ${cfg[sut]} =~ ^([A-Za-z0-9._-]+@)?[A-Za-z0-9._:-]+$ && ${cfg[sut]} != -* ]] ||
		bad_value --sut "${cfg[sut]}" "is not [USER@]HOST"
	[[ ${cfg[sut_dir]} == /* ]] ||
		bad_value --sut-dir "${cfg[sut_dir]}" "is not an absolute path on the SUT (its oltpmark tree; --sut needs it)"
	[[ ${cfg[sut_dir]} != *[$'\t\n']* ]] ||
		bad_value --sut-dir "${cfg[sut_dir]}" "holds a tab or newline"
	((cfg[recover])) || [[ -n ${cfg[sut_listen]} ]] ||
		om_die_usage "--sut needs --sut-listen ADDR (the SUT's address the terminals connect to)"
	[[ -z ${cfg[sut_listen]} || ${cfg[sut_listen]} =~ ^[A-Za-z0-9.:-]+$ ]] ||
		bad_value --sut-listen "${cfg[sut_listen]}" "is not a host name or an address"
	[[ -z ${cfg[conninfo]} ]] ||
		bad_value --conninfo "${cfg[conninfo]}" "is not for --sut (the cluster is made on the SUT)"
	sut_remote "${cfg[sut]}" "${cfg[sut_dir]}"
	# Closed on any exit; cleanup (run/state.sh) does it once it runs.
	trap sut_close EXIT
	IFS=, read -r -a hooks <<<"${cfg[hooks]}"
	if ((cfg[diagnostic])); then
		read -r -a hooks < <(on_sut_local_groups diagnostic "${hooks[@]}")
	fi
	[[ ${cfg[hooks]} != none ]] || hooks=()
	[[ -z ${cfg[hooks_path]} ]] || export OLTPMARK_HOOKS_DIR=${cfg[hooks_path]}
	sut_preflight "${hooks[@]}"
}

# on_sut_local_groups GROUP HOOK...: HOOK... and the hooks of GROUP of
# run/hooks.tsv (the same tree's as the SUT's), for the check of the SUT.
on_sut_local_groups() {
	local group=$1
	shift
	printf '%s ' "$@"
	sed -n "s/^\([a-z0-9-]*\)	$group	.*/\1/p" "$HERE/hooks.tsv" | tr '\n' ' '
	echo
}

# sut_password: with --sut, a new password for the cluster's TCP
# listener: drawn here, written to a 0600 pgpass file of this host (in
# the control socket's private directory, PGPASSFILE for psql and
# oltpmark run) and to a 0600 one on the SUT (run/pg sets it, the hooks
# read it), never on a command line, in a log or in a result file.
sut_password() {
	local pw pass=$OM_SUT_CTL/pgpass
	[[ -n ${cfg[sut]} ]] || return 0
	pw=$(head -c 1024 /dev/urandom | LC_ALL=C tr -dc 'A-Za-z0-9') || pw=""
	((${#pw} >= 32)) || om_die "cannot draw a password"
	pw=${pw:0:32}
	(umask 077 && printf '*:*:*:*:%s\n' "$pw" >"$pass") ||
		om_die "cannot write $pass"
	export PGPASSFILE=$pass
	export OLTPMARK_PG_PASSWORD_FILE=${cfg[sut_dir]}/var/pgpass
	export OLTPMARK_PG_LISTEN=${cfg[sut_listen]}
	on_sut om_write_private "$OLTPMARK_PG_PASSWORD_FILE" <"$pass" ||
		om_die "cannot write the password file $OLTPMARK_PG_PASSWORD_FILE on ${cfg[sut]}"
}

# sut_machine_args ARRAY RUN_DIR: with --sut, the SUT's machine read
# there now (the variant applied, just before the run) into
# RUN_DIR/sys/sut-machine.json, and --machine-from FILE appended to the
# array named ARRAY, oltpmark run's arguments: meta.json's kernel, cpu,
# memory and fingerprint, and sys/sysctl.txt, then describe the SUT,
# not this host (docs/formats.md, "fingerprint"). OLTPMARK_TEST_SUT_ROOT
# (tests only): the SUT reads /proc and /sys under that directory there.
sut_machine_args() {
	local -n sut_machine_ref=$1
	local f=$2/sys/sut-machine.json
	[[ -n ${cfg[sut]} ]] || return 0
	on_sut om_machine_json "${state[cluster_dir]}/data" "${OLTPMARK_TEST_SUT_ROOT:-}" >"$f" ||
		om_die "cannot read the machine's facts on ${cfg[sut]} (oltpmark sysinfo --format json of ${cfg[sut_dir]})"
	# shellcheck disable=SC2034 # a reference to the caller's array
	sut_machine_ref+=(--machine-from "$f")
}

# sut_host_notes: the --note pairs saying where the terminals ran and
# which hosts were involved (name, kernel, CPUs), for every run's
# meta.json; read once.
sut_host_notes() {
	local -a s d
	if [[ -z ${cfg[sut]} ]]; then
		cfg[host_notes]="terminals=same-host"
		return 0
	fi
	# shellcheck disable=SC2016 # for the SUT's shell
	read -r -a s < <(on_sut sh -c 'echo "$(uname -n) $(uname -r) $(getconf _NPROCESSORS_ONLN)"') ||
		om_die "cannot read the SUT's host name and kernel"
	read -r -a d < <(echo "$(uname -n) $(uname -r) $(getconf _NPROCESSORS_ONLN)")
	cfg[host_notes]="terminals=other-host sut.host=${s[0]} sut.kernel=${s[1]} sut.cpus=${s[2]} driver.host=${d[0]} driver.kernel=${d[1]} driver.cpus=${d[2]}"
}
