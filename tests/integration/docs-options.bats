#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The docs name no option a command does not have, and no dead link
# (docs.bats checks the other way: every option of --help is documented).
# For each subcommand of the binary: the option table of docs/CMD.md
# lists exactly the options of `oltpmark CMD --help`; every option in the
# man page's section for CMD exists; every option on a command line
# `oltpmark CMD ...` anywhere in docs/, README.md or the man page exists
# in CMD's --help. The same for the command lines of run/pg, run/array,
# run/demo and run/install-deps. Every relative Markdown link in docs/ and
# README.md reaches a file, and its #anchor a heading of that file.
# run/oltpmark-run is being rewritten and is left out here. No database.

load helpers

DOCS=$REPO/docs
MAN=$DOCS/oltpmark.1
SUBCOMMANDS=(load check run report merge compare probe calibrate
	iosim-prepare sample-procstat sysinfo blocks-switch)

# help_options CMD...: the long options CMD... --help prints, and --help
# itself (which not every usage text names), sorted.
help_options() {
	local help

	help=$("$@" --help) || return 1
	{
		grep -oE -- '--[a-z][a-z0-9-]*' <<<"$help" | sed 's/-*$//'
		echo --help
	} | sort -u
}

# doc_text: docs/*.md, README.md and the man page as plain text, a
# command line continued with a backslash joined into one line, roff's
# \- and \e turned into - and \.
doc_text() {
	{
		cat "$DOCS"/*.md "$REPO/README.md"
		sed 's/\\-/-/g; s/\\e$/\\/' "$MAN"
	} | sed -e ':a' -e '/\\$/N; s/\\\n */ /; ta'
}

# cmdline_options PROG: the long options on the command lines "PROG ..."
# of the docs (up to the end of the line, a backquote or a table's |),
# sorted. PROG is a regular expression: 'oltpmark run', 'run/pg'.
cmdline_options() {
	doc_text | grep -oE -- "(^|[^a-z/-])$1( +[^ \`|]+)*" |
		grep -oE -- ' --[a-z][a-z0-9-]*' | sed 's/^ //' | sort -u
}

# man_section_options CMD: the long options in the man page's section
# .SS "oltpmark CMD", sorted.
man_section_options() {
	sed 's/\\-/-/g' "$MAN" | awk -v head=".SS \"oltpmark $1\"" '
		$0 == head { on = 1; next }
		on && /^\.S[HS]( |$)/ { exit }
		on { print }' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# table_options FILE: the long options beginning the rows of FILE's
# Markdown tables ("| `-w`, `--warehouses W` | ..."), sorted.
table_options() {
	grep -E '^\| `-' "$1" | cut -d'|' -f2 |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# assert_subset WHAT LIST OF: every line of LIST is a line of OF (both
# sorted); otherwise name the others and fail.
assert_subset() {
	local extra

	extra=$(comm -23 <(printf '%s\n' "$2" | sed '/^$/d') \
		<(printf '%s\n' "$3") | tr '\n' ' ' | sed 's/ $//')
	if [[ -n $extra ]]; then
		echo "$1: $extra" >&2
		return 1
	fi
}

# md_anchors FILE: the anchors GitHub makes of FILE's headings (outside
# code blocks): lower case, backquotes and punctuation dropped, spaces
# to hyphens, "-1", "-2" after a repeated one.
md_anchors() {
	awk '/^```/ { code = !code; next }
		!code && /^#+ / { sub(/^#+ +/, ""); print }' "$1" |
		LC_ALL=C.UTF-8 sed -E 's/`//g; s/[^[:alnum:] _-]//g; s/ /-/g' |
		LC_ALL=C.UTF-8 awk '{ s = tolower($0); n = seen[s]++
			print (n ? s "-" n : s) }'
}

# dead_links FILE...: "FILE: LINK (why)" for each relative link of the
# Markdown FILEs, outside code, to a missing file or a missing anchor.
# shellcheck disable=SC2016 # the backquotes are Markdown's
dead_links() {
	local f dir link path anchor target
	# each file's anchors, made once: a hundred links name an anchor
	local -A anchors_of=()

	for f in "$@"; do
		dir=${f%/*}
		while IFS= read -r link; do
			[[ $link == *://* || $link == mailto:* ]] && continue
			path=${link%%#*}
			anchor=
			[[ $link != *#* ]] || anchor=${link#*#}
			target=$f
			[[ -z $path ]] || target=$dir/$path
			if [[ ! -e $target ]]; then
				echo "${f#"$REPO"/}: $link (no such file)"
			elif [[ -n $anchor && $target == *.md ]]; then
				[[ -v anchors_of[$target] ]] ||
					anchors_of[$target]=$'\n'$(md_anchors "$target")$'\n'
				[[ ${anchors_of[$target]} == *$'\n'"$anchor"$'\n'* ]] ||
					echo "${f#"$REPO"/}: $link (no such heading)"
			fi
		done < <(sed '/^```/,/^```/d' "$f" | grep -oE '\]\([^) ]+\)' |
			sed 's/^](//; s/)$//')
	done
}

@test "each subcommand's page has an option table of exactly its --help" {
	local rc=0 cmd page help table
	for cmd in load check run report merge compare probe sample-procstat sysinfo; do
		page=$DOCS/$cmd.md
		help=$(help_options "$OLTPMARK" "$cmd")
		table=$(table_options "$page")
		assert_subset "docs/$cmd.md names options oltpmark $cmd lacks" \
			"$table" "$help" || rc=1
		assert_subset "docs/$cmd.md's table lacks options of oltpmark $cmd" \
			"$help" "$table" || rc=1
	done
	((rc == 0))
}

@test "the man page names no option its subcommand lacks" {
	local rc=0 cmd
	for cmd in "${SUBCOMMANDS[@]}"; do
		assert_subset "docs/oltpmark.1 (oltpmark $cmd) names options it lacks" \
			"$(man_section_options "$cmd")" \
			"$(help_options "$OLTPMARK" "$cmd")" || rc=1
	done
	((rc == 0))
}

@test "every option on a documented oltpmark command line exists" {
	local rc=0 cmd n=0 opts
	for cmd in "${SUBCOMMANDS[@]}"; do
		opts=$(cmdline_options "oltpmark $cmd")
		[[ -z $opts ]] || n=$((n + $(wc -l <<<"$opts")))
		assert_subset "command lines 'oltpmark $cmd' use options it lacks" \
			"$opts" "$(help_options "$OLTPMARK" "$cmd")" || rc=1
	done
	# the command lines were really found
	((n >= 20)) || { echo "only $n options found on command lines" >&2; false; }
	((rc == 0))
}

@test "run/pg, run/array, run/demo, run/install-deps: documented options exist, and the reverse" {
	local rc=0 s opts help
	for s in pg array demo install-deps; do
		help=$(help_options "$REPO/run/$s")
		opts=$(cmdline_options "run/$s")
		assert_subset "command lines 'run/$s' use options it lacks" \
			"$opts" "$help" || rc=1
	done
	# run/array's options, each in docs/array.md (run/pg's: docs.bats)
	for opt in $(help_options "$REPO/run/array"); do
		grep -qE -- "${opt}([^a-z0-9-]|\$)" "$DOCS/array.md" ||
			{ echo "docs/array.md does not document $opt" >&2; rc=1; }
	done
	((rc == 0))
}

@test "no relative link in docs/ or README.md reaches a missing file or heading" {
	run dead_links "$DOCS"/*.md "$REPO/README.md"
	[ "$status" -eq 0 ]
	if [[ -n $output ]]; then
		echo "$output" >&2
		false
	fi
	# the anchors were really read: a known one resolves
	md_anchors "$DOCS/methodology.md" | grep -qx 'the-demos-resolution'
	md_anchors "$DOCS/iosim.md" | grep -qx 'calibrating-oltpmark-calibrate'
}

@test "the checks above catch a dead anchor and an option a doc invents" {
	local page=$BATS_TEST_TMPDIR/page.md other=$BATS_TEST_TMPDIR/other.md
	# shellcheck disable=SC2016 # the backquotes are Markdown
	printf '# Other\n\n## The `x` part (one)\n\n## Twice\n\n## Twice\n' >"$other"
	printf '[a](other.md#the-x-part-one) [b](other.md#twice-1) [c](other.md#nope) [d](gone.md) [e](#here)\n\n# Here\n' >"$page"
	run dead_links "$page"
	[ "$status" -eq 0 ]
	[[ $output == *"other.md#nope (no such heading)"* ]]
	[[ $output == *"gone.md (no such file)"* ]]
	[ "$(grep -c . <<<"$output")" -eq 2 ]
	run assert_subset what "$(printf '%s\n' --a --invented)" "$(printf '%s\n' --a --b)"
	[ "$status" -eq 1 ]
	[ "$output" = "what: --invented" ]
	# a command line continued over lines counts as one
	DOCS=$BATS_TEST_TMPDIR/docs
	mkdir -p "$DOCS"
	printf '    oltpmark run -w 1 \\\n        --invented x\n' >"$DOCS/x.md"
	: >"$BATS_TEST_TMPDIR/README.md"
	MAN=/dev/null REPO=$BATS_TEST_TMPDIR run cmdline_options 'oltpmark run'
	[ "$output" = "--invented" ]
}
