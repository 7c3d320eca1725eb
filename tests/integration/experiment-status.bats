#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The exit status of run/oltpmark-run is the experiment's (docs/experiments.md,
# "Exit status"): 0 when all went well, 1 when a run, a variant or the score
# table failed, with the problems listed at the end; a failed compare.html
# is only a warning. One throwaway server, given with --conninfo, so nothing
# is loaded; a stand-in for the binary copies the golden run directory
# instead of running, and fails where a test asks it to.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	pg_throwaway_start
}

teardown_file() {
	pg_throwaway_stop
}

setup() {
	FAKE=$BATS_TEST_TMPDIR/fake-oltpmark
	# FAKE_RUN_STATUS: the status of `run` (after writing the golden run);
	# FAKE_HTML_STATUS: of `compare --format html`, else the real one's.
	cat >"$FAKE" <<EOF
#!/usr/bin/env bash
if [[ \$1 == run ]]; then
	while (( \$# > 0 )); do
		[[ \$1 == --out ]] && out=\$2
		shift
	done
	mkdir -p "\$out"
	cp "$REPO"/tests/golden/run-basic/{mix.csv,meta.json,run.json} "\$out"
	exit "\${FAKE_RUN_STATUS:-0}"
fi
if [[ \$1 == compare && " \$* " == *" --format html "* && -n \${FAKE_HTML_STATUS-} ]]; then
	exit "\$FAKE_HTML_STATUS"
fi
exec "$OLTPMARK" "\$@"
EOF
	chmod +x "$FAKE"
}

# experiment ARG...: run/oltpmark-run on the throwaway server with the
# stand-in binary, one cached run, no hooks; status and output in bats'
# $status and $output.
experiment() {
	OLTPMARK=$FAKE run "$REPO/run/oltpmark-run" --label kern-s --configs cached \
		--runs 1 -w 1 -d 1 --ramp-up 0 --hooks none \
		--conninfo "$OLTPMARK_CONNINFO" --results "$BATS_TEST_TMPDIR/results" "$@"
	echo "status $status: $output"
}

@test "an experiment whose runs all went well exits 0" {
	experiment
	[ "$status" -eq 0 ]
	[[ $output == *"comparison: $BATS_TEST_TMPDIR/results/compare.html"* ]]
	[[ $output != *problem* ]]
	[ -s "$BATS_TEST_TMPDIR/results/kern-s/cached/run-1/report.html" ]
}

@test "a run that fails makes the experiment exit 1, listed at the end" {
	FAKE_RUN_STATUS=1 experiment
	[ "$status" -eq 1 ]
	[[ ${lines[-2]} == "oltpmark-run: 1 problem(s) in this experiment:" ]]
	[[ ${lines[-1]} == *"/kern-s/cached/run-1 ended with status 1 (kept, marked partial)" ]]
}

@test "a failed compare.html is a warning, not the exit status" {
	FAKE_HTML_STATUS=1 experiment
	[ "$status" -eq 0 ]
	[[ $output == *"WARNING: no compare.html: compare --format html failed"* ]]
}

@test "a variant that does not apply makes the experiment exit 1" {
	local log=$BATS_TEST_TMPDIR/variant.log
	cat >"$BATS_TEST_TMPDIR/bad-variant" <<EOF
#!/usr/bin/env bash
echo "\$1" >>"$log"
[[ \$1 == restore ]]
EOF
	chmod +x "$BATS_TEST_TMPDIR/bad-variant"
	experiment --variant "bad=$BATS_TEST_TMPDIR/bad-variant"
	[ "$status" -eq 1 ]
	[[ $output == *"variant bad: apply failed; restoring and skipping its run"* ]]
	[ "$(cat "$log")" = "$(printf 'apply\nrestore')" ]
	# the baseline ran; the variant's run was skipped
	[ -e "$BATS_TEST_TMPDIR/results/kern-s/cached/run-1/report.html" ]
	[ ! -e "$BATS_TEST_TMPDIR/results/kern-s+bad/cached/run-1" ]
}
