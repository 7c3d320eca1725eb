#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The documentation agrees with the commands. Every long option that
# `oltpmark CMD --help` prints must appear in the man page's section for
# CMD (docs/oltpmark.1) and in the command's page (docs/CMD.md); the same
# for run/oltpmark-run against docs/experiments.md and run/pg against
# docs/pg.md. So adding an option to an options table without documenting
# it fails here. Also: the man page covers every subcommand and renders
# without warnings, and the map docs/index.md links to pages that exist
# and lists every page. No database is needed.

load helpers

DOCS=$REPO/docs
MAN=$DOCS/oltpmark.1

# long_options COMMAND...: the long options that `COMMAND... --help`
# prints (anything looking like --word, in the table or in the prose),
# one per line, sorted. Fails when --help fails.
long_options() {
	local help

	help=$("$@" --help) || return 1
	grep -oE -- '--[a-z][a-z0-9-]*' <<<"$help" | sed 's/-*$//' | sort -u
}

# man_section CMD: the text of the man page's subsection
# `.SS "oltpmark CMD"`, up to the next section, with roff's \- turned
# into plain hyphens so options read as they are typed.
man_section() {
	sed 's/\\-/-/g' "$MAN" | awk -v head=".SS \"oltpmark $1\"" '
		$0 == head { on = 1; next }
		on && /^\.S[HS]( |$)/ { exit }
		on { print }'
}

# assert_documented FILE WHAT OPTION...: every OPTION occurs in FILE as a
# whole option (--config does not count as --configs); otherwise name the
# missing ones and fail.
assert_documented() {
	local file=$1 what=$2 opt
	local -a missing=()

	shift 2
	for opt in "$@"; do
		grep -qE -- "${opt}([^a-z0-9-]|\$)" "$file" || missing+=("$opt")
	done
	if ((${#missing[@]})); then
		echo "$what does not document: ${missing[*]}" >&2
		return 1
	fi
}

# check_subcommand CMD [PAGE]: the --help of `oltpmark CMD` against the
# man page and docs/PAGE (default CMD.md).
check_subcommand() {
	local cmd=$1 page=${2:-$1.md} section status=0
	local -a opts

	mapfile -t opts < <(long_options "$OLTPMARK" "$cmd")
	# --help itself must be among them: proof that the help was read
	if [[ " ${opts[*]} " != *" --help "* ]]; then
		echo "oltpmark $cmd --help printed no --help line" >&2
		return 1
	fi
	section=$BATS_TEST_TMPDIR/man-$cmd
	man_section "$cmd" >"$section"
	if [[ ! -s $section ]]; then
		echo "docs/oltpmark.1 has no section .SS \"oltpmark $cmd\"" >&2
		return 1
	fi
	assert_documented "$section" "docs/oltpmark.1 (oltpmark $cmd)" \
		"${opts[@]}" || status=1
	if [[ ! -f $DOCS/$page ]]; then
		echo "docs/$page does not exist" >&2
		return 1
	fi
	assert_documented "$DOCS/$page" "docs/$page" "${opts[@]}" ||
		status=1
	return "$status"
}

# md_section FILE HEADING: the lines of the Markdown FILE under the line
# HEADING, up to the next heading of its level or a higher one.
md_section() {
	awk -v head="$2" '
		$0 == head { on = 1; level = index($0, " "); next }
		on && /^#+ / && index($0, " ") <= level { exit }
		on { print }' "$1"
}

# table_options: the long options that begin the rows of the Markdown
# tables on stdin ("| `-w`, `--warehouses W` | ..."), one per line,
# sorted.
table_options() {
	grep -E '^\| `-' | cut -d'|' -f2 | grep -oE -- '--[a-z][a-z0-9-]*' |
		sort -u
}

# assert_same_options WHAT HELP_OPTS TABLE_OPTS: two sorted lists of
# options (one a line) are equal; otherwise say what each lacks and fail.
assert_same_options() {
	local what=$1 only_help only_table

	only_help=$(comm -23 <(printf '%s\n' "$2") <(printf '%s\n' "$3") | xargs)
	only_table=$(comm -13 <(printf '%s\n' "$2") <(printf '%s\n' "$3") | xargs)
	if [[ -n $only_help || -n $only_table ]]; then
		echo "$what: options of --help not in the table: ${only_help:-none}; in the table, not in --help: ${only_table:-none}" >&2
		return 1
	fi
}

# check_option_table CMD PAGE HEADING: the option table under HEADING of
# docs/PAGE lists exactly the long options of `oltpmark CMD --help`, no
# more (an option removed from the command) and no fewer.
check_option_table() {
	local cmd=$1 page=$2 heading=$3 help table

	help=$(long_options "$OLTPMARK" "$cmd") || return 1
	table=$(md_section "$DOCS/$page" "$heading" | table_options)
	if [[ -z $table ]]; then
		echo "docs/$page has no option table under '$heading'" >&2
		return 1
	fi
	assert_same_options "docs/$page ($heading)" "$help" "$table"
}

@test "oltpmark --help lists exactly the documented subcommands" {
	run "$OLTPMARK" --help
	[ "$status" -eq 0 ]
	# command lines: two spaces, a lower-case name, a description
	listed=$(sed -n 's/^  \([a-z][a-z-]*\)  *[a-z].*/\1/p' <<<"$output" |
		sort | tr '\n' ' ')
	[ "$listed" = "blocks-switch calibrate check compare iosim-prepare load merge probe report run sample-procstat sysinfo " ]
}

@test "oltpmark load: every option of --help is in the man page and docs/load.md" {
	check_subcommand load
}

@test "oltpmark check: every option of --help is in the man page and docs/check.md" {
	check_subcommand check
}

@test "oltpmark run: every option of --help is in the man page and docs/run.md" {
	check_subcommand run
}

@test "oltpmark report: every option of --help is in the man page and docs/report.md" {
	check_subcommand report
}

@test "oltpmark merge: every option of --help is in the man page and docs/merge.md" {
	check_subcommand merge
}

@test "oltpmark compare: every option of --help is in the man page and docs/compare.md" {
	check_subcommand compare
}

@test "oltpmark probe: every option of --help is in the man page and docs/probe.md" {
	check_subcommand probe
}

@test "oltpmark sample-procstat: every option of --help is in the man page and docs/sample-procstat.md" {
	check_subcommand sample-procstat
}

@test "oltpmark sysinfo: every option of --help is in the man page and docs/sysinfo.md" {
	check_subcommand sysinfo
}

@test "oltpmark blocks-switch: every option of --help is in the man page and docs/blocks.md" {
	check_subcommand blocks-switch blocks.md
}

@test "oltpmark calibrate: --help and docs/iosim.md's option table agree; the man page has them" {
	check_subcommand calibrate iosim.md
	# shellcheck disable=SC2016 # the backquotes are the heading's Markdown
	check_option_table calibrate iosim.md '## Calibrating (`oltpmark calibrate`)'
}

@test "oltpmark iosim-prepare: --help and docs/iosim.md's option table agree; the man page has them" {
	check_subcommand iosim-prepare iosim.md
	check_option_table iosim-prepare iosim.md '## Preparing and running'
}

@test "run/oltpmark-run: every option of --help is in docs/experiments.md" {
	mapfile -t opts < <(long_options "$REPO/run/oltpmark-run")
	[[ " ${opts[*]} " == *" --help "* ]]
	# more than --help: the option list was really read
	((${#opts[@]} > 10))
	assert_documented "$DOCS/experiments.md" docs/experiments.md "${opts[@]}"
}

@test "run/pg: every option and command of --help is in docs/pg.md" {
	run "$REPO/run/pg" --help
	[ "$status" -eq 0 ]
	[[ $output == "Usage: run/pg "* ]]
	help=$output
	# long options (none today but --NAME=VALUE server settings, which
	# are upper case); any that appear must be documented
	mapfile -t opts < <(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$help" |
		sed 's/-*$//' | sort -u)
	if ((${#opts[@]})); then
		assert_documented "$DOCS/pg.md" docs/pg.md "${opts[@]}"
	fi
	# the commands: lines "  NAME DIR ..." under "Commands:"
	mapfile -t cmds < <(sed -n '/^Commands:/,/^[^ ]/s/^  \([a-z][a-z]*\) DIR.*/\1/p' <<<"$help")
	[ "${#cmds[@]}" -ge 5 ]
	missing=()
	for c in "${cmds[@]}"; do
		grep -qE -- "run/pg $c( |\$)" "$DOCS/pg.md" || missing+=("$c")
	done
	if ((${#missing[@]})); then
		echo "docs/pg.md does not document run/pg ${missing[*]}" >&2
		false
	fi
}

@test "the checks above catch an undocumented option" {
	# a fake command whose help has one option the page does not mention
	fake=$BATS_TEST_TMPDIR/fake
	page=$BATS_TEST_TMPDIR/page.md
	printf '#!/bin/sh\necho "  -w, --warehouses W"\necho "      --no-such-option"\necho "  -h, --help"\n' >"$fake"
	chmod +x "$fake"
	printf '| -w, --warehouses W | |\n| -h, --help | |\n' >"$page"
	mapfile -t opts < <(long_options "$fake")
	[ "${opts[*]}" = "--help --no-such-option --warehouses" ]
	run assert_documented "$page" page.md "${opts[@]}"
	[ "$status" -eq 1 ]
	[ "$output" = "page.md does not document: --no-such-option" ]
	# a prefix is not enough: --config does not document --configs
	printf 'use --config NAME\n' >"$page"
	run assert_documented "$page" page.md --configs
	[ "$status" -eq 1 ]
	run assert_documented "$page" page.md --config
	[ "$status" -eq 0 ]
	# an option table agrees both ways: one the command lost is caught
	# shellcheck disable=SC2016 # the backquotes are Markdown
	printf '# T\n\n## Opts\n\n| `-w`, `--warehouses W` | |\n| `--gone` | |\n| `-h`, `--help` | |\n\n## Next\n\n| `--elsewhere` | |\n' >"$page"
	run bash -c "$(declare -f md_section table_options); md_section '$page' '## Opts' | table_options"
	[ "$output" = $'--gone\n--help\n--warehouses' ]
	run assert_same_options page.md "$(printf '%s\n' --help --no-such-option --warehouses)" "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "page.md: options of --help not in the table: --no-such-option; in the table, not in --help: --gone" ]
	run assert_same_options page.md "$(printf '%s\n' --help --warehouses)" "$(printf '%s\n' --help --warehouses)"
	[ "$status" -eq 0 ]
}

@test "the man page has a section for each subcommand and renders cleanly" {
	for cmd in load check run report merge compare; do
		man_section "$cmd" | grep -q .
	done
	if ! command -v groff >/dev/null 2>&1; then
		skip "groff not installed (Debian: groff-base)"
	fi
	run groff -man -Tutf8 -ww -z "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and the rendering holds the options as typed
	run groff -man -Tascii -P-c "$MAN"
	[ "$status" -eq 0 ]
	[[ $output == *"--keying-think"* ]]
	# the pages it refers to exist
	mapfile -t pages < <(sed 's/\\-/-/g' "$MAN" |
		grep -oE 'docs/[a-z-]+\.md' | sort -u)
	((${#pages[@]} >= 10))
	for p in "${pages[@]}"; do
		[[ -f $REPO/$p ]] || { echo "docs/oltpmark.1 refers to missing $p" >&2; false; }
	done
}

@test "every page docs/index.md links to exists" {
	mapfile -t links < <(grep -oE '\]\([^)#]+' "$DOCS/index.md" |
		sed 's/^](//' | grep -v '://' | sort -u)
	((${#links[@]} >= 10))
	missing=()
	for l in "${links[@]}"; do
		[[ -e $DOCS/$l ]] || missing+=("$l")
	done
	if ((${#missing[@]})); then
		echo "docs/index.md links to missing pages: ${missing[*]}" >&2
		false
	fi
}

@test "every page in docs/ is on the map in docs/index.md" {
	missing=()
	for f in "$DOCS"/*.md "$MAN"; do
		name=${f##*/}
		[[ $name == index.md ]] && continue
		grep -qF "]($name)" "$DOCS/index.md" || missing+=("$name")
	done
	if ((${#missing[@]})); then
		echo "docs/index.md does not list: ${missing[*]}" >&2
		false
	fi
}
