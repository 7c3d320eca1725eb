#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# extend.bats - docs/hacking.md's "Where to add things" is true for a
# hook: in a copy of the tracked tree, add a trivial hook exactly as the
# table says (its script and its row in run/hooks.tsv), build the copy
# once, and check that run/hooks/run-all runs it in its group and that
# `oltpmark report` shows what it wrote in report.html. A list that
# misses a file (a second list of hooks somewhere) fails here.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	if ! git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
		skip "not a git checkout: no list of tracked files"
	fi
	export TREE=$BATS_FILE_TMPDIR/tree
	mkdir -p "$TREE"
	git -C "$REPO" ls-files -z | (cd "$REPO" && tar --null -T - -cf -) |
		tar -xf - -C "$TREE"

	# The hook: one small file at stop.
	cat >"$TREE/run/hooks/uptime-demo" <<'HOOK'
#!/usr/bin/env bash
# uptime-demo hook: /proc/uptime at stop (DIR/uptime-demo.txt).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${BASH_SOURCE[0]%/*}/lib.sh"
hook_init uptime-demo "$@"
[[ $HOOK_ACTION == stop ]] || exit 0
printf 'uptime-demo says %s\n' "$(cut -d' ' -f1 /proc/uptime)" \
	>"$HOOK_DIR/uptime-demo.txt"
HOOK
	chmod 755 "$TREE/run/hooks/uptime-demo"
	# Its row: hook, group, package, files, title.
	printf 'uptime-demo\tcheap\t-\tuptime-demo.txt\tUptime (demo)\n' \
		>>"$TREE/run/hooks.tsv"

	# The tested tree's build beside it, times kept (tar kept the
	# sources'): make then remakes what the new row reaches, as in a
	# newcomer's own tree, not all 140 objects (35 s of CPU, and make
	# check is CPU-bound). A file of the table that the build would miss
	# still fails: the objects are the tested tree's, without the hook.
	if [[ -d $REPO/build/obj && -d $REPO/build/gen ]]; then
		mkdir -p "$TREE/build"
		cp -a "$REPO/build/obj" "$REPO/build/gen" "$TREE/build/"
		# configure's output, which the objects depend on
		for f in config.mk config.h; do
			[[ ! -f $REPO/$f ]] || cp -a "$REPO/$f" "$TREE/"
		done
	fi
	make -C "$TREE" -j2 >"$BATS_FILE_TMPDIR/build.log" 2>&1 || {
		tail -20 "$BATS_FILE_TMPDIR/build.log" >&3
		return 1
	}
}

@test "extend: run-all lists the new hook in its group" {
	run "$TREE/run/hooks/run-all" list
	[ "$status" -eq 0 ]
	[[ $output == *"cheap: "*"uptime-demo"* ]]
	[[ $output != *"diagnostic: "*"uptime-demo"* ]]
}

@test "extend: the new hook runs through run-all and report.html shows it" {
	local run=$BATS_TEST_TMPDIR/run
	cp -r "$REPO/tests/golden/run-basic" "$run"
	rm -rf "$run/expected"
	"$TREE/run/hooks/run-all" start "$run/sys" uptime-demo
	"$TREE/run/hooks/run-all" stop "$run/sys" uptime-demo
	grep -q 'stop uptime-demo: status 0' "$run/sys/hooks.log"
	grep -q '^uptime-demo says ' "$run/sys/uptime-demo.txt"

	run --separate-stderr "$TREE/oltpmark" report "$run"
	[ "$status" -eq 0 ]
	grep -q '<h3>Uptime (demo) <span class="sub">(hook uptime-demo)</span></h3>' \
		"$run/report.html"
	grep -q 'href="sys/uptime-demo.txt"' "$run/report.html"
	grep -q '<pre>uptime-demo says ' "$run/report.html"
}

@test "extend: a hook the run did not run says so in report.html" {
	local run=$BATS_TEST_TMPDIR/run
	cp -r "$REPO/tests/golden/run-basic" "$run"
	rm -rf "$run/expected"
	"$TREE/oltpmark" report "$run" >/dev/null
	grep -A1 '(hook uptime-demo)' "$run/report.html" |
		grep -q 'No output (the hook did not run)'
}
