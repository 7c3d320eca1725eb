#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/seam-check.sh [TOP]: the scripts of run/ that orchestrate an
# experiment reach the machine under test only through run/sut.sh
# (on_sut, sut_write, sut_read, sut_argv; docs/hacking.md, "Where a
# command runs: the on_sut seam"). Prints FILE:LINE: WHAT: the line, for
# each command that goes around the seam, and exits 1 when there is one.
#
# Checked: run/oltpmark-run, run/demo and every sourced run/*.sh but
# run/lib.sh (the SUT's library: its functions run inside on_sut) and
# run/sut.sh and run/sut-ssh.sh (the seam). Not checked: the programs that run on the SUT
# themselves (run/pg, run/sut-exec, run/array, run/hooks/*,
# run/variants/*) and run/install-deps (packages of the local host).
#
# A line is read without its comment, heredoc bodies (help texts) are
# skipped, a double-quoted string holding a space (a message) is blanked,
# and each on_sut / sut_* call is cut from the line up to the end of its
# command; whatever is left must not match a rule below.
set -euo pipefail

top=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
files=()
for f in "$top"/run/oltpmark-run "$top"/run/demo "$top"/run/*.sh; do
	case "${f##*/}" in lib.sh | sut.sh | sut-ssh.sh) continue ;; esac
	[[ -f $f ]] && files+=("$f")
done

awk -v top="$top/" '
# A command word: at the line start or after ; & | ! $( then do else.
function cmd(re) { return "(^|[;&|!]|\\$\\(|(^|[ \t])(then|do|else)[ \t])[ \t]*" re }
# blank(LINE): LINE with each double-quoted string that holds a space
# and no command substitution emptied (a message, not a command).
function blank(line,   out, s) {
	out = ""
	while (match(line, /"[^"]*"/)) {
		s = substr(line, RSTART, RLENGTH)
		if (s ~ / / && s !~ /\$\(/) s = "\"\""
		out = out substr(line, 1, RSTART - 1) s
		line = substr(line, RSTART + RLENGTH)
	}
	return out line
}
BEGIN {
	n = 0
	what[++n] = "runs run/pg, a hook or a variant of run/ directly"
	rule[n] = "(^|[^A-Za-z0-9_=])(\\$\\{?(HERE|here|top)\\}?/(run/)?|run/)(pg|hooks/|variants/)"
	what[++n] = "runs run/hooks/run-all directly"
	rule[n] = "hooks/run-all"
	what[++n] = "runs run/pg directly"
	rule[n] = cmd("pg[ \t]")
	what[++n] = "runs pg_ctl"
	rule[n] = "(^|[^A-Za-z0-9_])pg_ctl([^A-Za-z0-9_]|$)"
	what[++n] = "runs sysctl"
	rule[n] = "(^|[^A-Za-z0-9_.])sysctl([^A-Za-z0-9_]|$)"
	what[++n] = "touches cgroup files"
	rule[n] = "/sys/fs/cgroup|cgroup\\.(procs|controllers|subtree_control)|memory\\.(max|limit_in_bytes|events|oom_control)"
	what[++n] = "touches /sys/block or an I/O scheduler"
	rule[n] = "(^|[^A-Za-z0-9_}])/sys/(block|class|devices)(/|[^A-Za-z0-9_.]|$)|queue/scheduler"
	what[++n] = "reads or writes /proc of the machine"
	rule[n] = "/proc/(sys|[0-9$])|postmaster\\.pid"
	what[++n] = "calls a SUT function of run/lib.sh directly"
	rule[n] = "(^|[^A-Za-z0-9_])om_(cgroup_[a-z_]+|drop_caches|block_device|iosched_[a-z]+|checkpoints|server_pids|hook_path|script_trusted|is_root|write_file|abs_dir|boot_id)([^A-Za-z0-9_]|$)"
	what[++n] = "mounts, loop devices or filesystems"
	rule[n] = cmd("(mount|umount|losetup|mkfs[.a-z0-9]*|fallocate|runuser|chown)[ \t]")
	what[++n] = "runs a command held in an array (a variant script?)"
	rule[n] = cmd("([A-Za-z_][A-Za-z0-9_]*=[^ \t]*[ \t]+)*\"\\$\\{[A-Za-z_][A-Za-z0-9_]*\\[@\\]\\}\"")
	bad = 0
}
FNR == 1 { heredoc = ""; held = ""; inarray = 0; file = FILENAME; sub("^" top, "", file) }
heredoc != "" {
	t = $0
	sub(/^\t*/, "", t)
	if (t == heredoc) heredoc = ""
	next
}
{
	line = $0
	if (match(line, /<<-?[ \t]*[\047"]?[A-Za-z_]+[\047"]?/)) {
		heredoc = substr(line, RSTART, RLENGTH)
		gsub(/[<\047" \t-]/, "", heredoc)
	}
	if (line ~ /^[ \t]*#/) next
	sub(/[ \t]#.*$/, "", line)
	# A command continued on the next line is read as one.
	if (line ~ /\\$/) { held = held substr(line, 1, length(line) - 1) " "; next }
	line = held line
	held = ""
	# The lines of an array literal, x=( ... ), are words, not commands.
	was = inarray
	if (line ~ /=\([^)]*$/) inarray = 1
	else if (inarray && line ~ /\)/) inarray = 0
	if (was) line = "words " line
	line = blank(line)
	gsub(/(on_sut|sut_write|sut_read|sut_argv)([ \t][^;&|)]*)?/, "SUT", line)
	for (i = 1; i <= n; i++) {
		if (line ~ rule[i]) {
			printf "%s:%d: %s: %s\n", file, FNR, what[i], $0
			bad = 1
			break
		}
	}
}
END { exit bad }
' "${files[@]}"
