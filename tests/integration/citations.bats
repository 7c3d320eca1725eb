#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Citations of docs/tpcc.md point at sections it has. Comments in code and
# SQL cite a section as the file name, a comma and the section's heading on
# one line; the pages cite it as a link to tpcc.md, a comma and the heading
# in double quotes. The text after the comma must begin with a heading of
# docs/tpcc.md, so renaming a heading without its citations fails here.
# No database is needed.

load helpers

TPCC=$REPO/docs/tpcc.md

# citations FILE_OR_DIR...: one line "FILE:LINE:TEXT" per citation of
# docs/tpcc.md, TEXT being what follows the comma (and the opening quote).
# This file is left out: its own comments describe the forms.
citations() {
	grep -rnHoE --exclude=citations.bats --exclude-dir=golden \
		-e 'docs/tpcc\.md, [^)`]*' -e '\(tpcc\.md\), "[^"]*' "$@" |
		sed -E 's#(docs/tpcc\.md, |\(tpcc\.md\), ")##'
}

# unknown_citations FILE_OR_DIR...: the citations whose text does not
# begin with a heading of docs/tpcc.md (followed by anything but a letter,
# digit or hyphen), as citations prints them.
unknown_citations() {
	local -a heads
	local line text h ok

	mapfile -t heads < <(sed -n 's/^##* //p' "$TPCC")
	((${#heads[@]} >= 10)) || { echo "docs/tpcc.md: too few headings" >&2; return 2; }
	while IFS= read -r line; do
		text=${line#*:*:}
		ok=0
		for h in "${heads[@]}"; do
			if [[ $text == "$h" || $text == "$h"[^A-Za-z0-9-]* ]]; then
				ok=1
				break
			fi
		done
		((ok)) || printf '%s\n' "$line"
	done < <(citations "$@")
}

# Everything in the tree that can hold a citation.
tree() {
	local d
	for d in src drivers terminals analysis schema docs run tests Makefile \
		configure README.md; do
		[[ -e $REPO/$d ]] && printf '%s\n' "$REPO/$d"
	done
}

@test "every citation of docs/tpcc.md names one of its sections" {
	mapfile -t where < <(tree)
	run citations "${where[@]}"
	[ "$status" -eq 0 ]
	# the search really found the citations: code, SQL and pages
	((${#lines[@]} >= 20))
	[[ $output == *"schema/checks.sql:"* ]]
	[[ $output == *"docs/schema.md:"* ]]
	[[ $output == *"terminals/inputs.h:"* ]]
	run unknown_citations "${where[@]}"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "a citation of a missing section is caught" {
	f=$BATS_TEST_TMPDIR/x.c
	printf '%s\n' '/* as TPC-C asks (docs/tpcc.md, Population) */' \
		'/* docs/tpcc.md, Consistency conditions. */' \
		'/* (docs/tpcc.md, No such section) */' \
		'/* (docs/tpcc.md, Populations) */' \
		'See [tpcc.md](tpcc.md), "Tables".' \
		'See [tpcc.md](tpcc.md), "Tablets".' >"$f"
	run citations "$f"
	[ "${#lines[@]}" -eq 6 ]
	run unknown_citations "$f"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "$f:3:No such section" ]
	[ "${lines[1]}" = "$f:4:Populations" ]
	[ "${lines[2]}" = "$f:6:Tablets" ]
}
