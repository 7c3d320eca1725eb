#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# layers.bats - the include rules of docs/hacking.md hold on the tree, and
# the checker (tests/include-rules.sh) does catch a broken one; no product
# file is over 1,200 lines.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
}

@test "the tree keeps its include rules" {
	run bash "$top/tests/include-rules.sh" "$top"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

# long_files DIR: "FILE: N lines" for each product file of DIR over
# 1,200 lines (docs/hacking.md, "Style"): C of the source folders, the
# scripts of run/.
long_files() {
	local f n
	for f in "$1"/{src,drivers,terminals,analysis}/**/*.[ch] "$1"/run/* "$1"/run/*/*; do
		[[ -f $f ]] || continue
		n=$(wc -l <"$f")
		((n <= 1200)) || echo "${f#"$1"/}: $n lines"
	done
}

@test "no product file is over 1,200 lines" {
	shopt -s globstar
	run long_files "$top"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and one that is, is named
	mkdir -p "$BATS_TEST_TMPDIR/t/analysis/report"
	seq 1201 >"$BATS_TEST_TMPDIR/t/analysis/report/big.c"
	seq 1200 >"$BATS_TEST_TMPDIR/t/analysis/report/fits.c"
	run long_files "$BATS_TEST_TMPDIR/t"
	[ "$output" = "analysis/report/big.c: 1201 lines" ]
}

# copy_tree DIR: the source folders of the tree into DIR.
copy_tree() {
	local dir=$1
	mkdir -p "$dir"
	cp -r "$top/src" "$top/drivers" "$top/terminals" "$top/analysis" "$dir/"
}

@test "base including another layer is caught" {
	copy_tree "$BATS_TEST_TMPDIR/t"
	printf '#include "drivers/driver.h"\n' >>"$BATS_TEST_TMPDIR/t/src/base/err.c"
	run bash "$top/tests/include-rules.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[[ $output == *"src/base/err.c:"*"src/base may not include drivers/driver.h"* ]]
}

@test "including the command layer is caught" {
	copy_tree "$BATS_TEST_TMPDIR/t"
	printf '#include "src/cmd/cmd.h"\n' >>"$BATS_TEST_TMPDIR/t/terminals/run.c"
	run bash "$top/tests/include-rules.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[[ $output == *"terminals may not include src/cmd/cmd.h"* ]]
}

@test "analysis including drivers or terminals is caught" {
	copy_tree "$BATS_TEST_TMPDIR/t"
	printf '#include "terminals/run.h"\n' >>"$BATS_TEST_TMPDIR/t/analysis/report/report.c"
	printf '#include "drivers/driver.h"\n' >>"$BATS_TEST_TMPDIR/t/analysis/compare/score.c"
	run bash "$top/tests/include-rules.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[[ $output == *"analysis/report may not include terminals/run.h"* ]]
	[[ $output == *"analysis/compare may not include drivers/driver.h"* ]]
}

@test "drivers including terminals or analysis is caught" {
	copy_tree "$BATS_TEST_TMPDIR/t"
	printf '#include "terminals/run.h"\n' >>"$BATS_TEST_TMPDIR/t/drivers/null.c"
	run bash "$top/tests/include-rules.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[[ $output == *"drivers may not include terminals/run.h"* ]]
}

@test "a file in a folder with no rule is caught" {
	copy_tree "$BATS_TEST_TMPDIR/t"
	mkdir -p "$BATS_TEST_TMPDIR/t/analysis/new"
	printf 'int x;\n' >"$BATS_TEST_TMPDIR/t/analysis/new/x.c"
	run bash "$top/tests/include-rules.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[[ $output == *"analysis/new/x.c: in no layer"* ]]
}

@test "libpq included outside the access layer and the pgsql driver is caught" {
	copy_tree "$BATS_TEST_TMPDIR/t"
	printf '#include <libpq-fe.h>\n' >>"$BATS_TEST_TMPDIR/t/src/load/load.c"
	printf '#include <libpq/libpq-fs.h>\n' >>"$BATS_TEST_TMPDIR/t/drivers/pglayout.c"
	printf '#  include <libpq-fe.h>\n' >>"$BATS_TEST_TMPDIR/t/src/cmd/cmd_load.c"
	run bash "$top/tests/include-rules.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[[ $output == *"src/load/load.c:"*"may include <libpq-fe.h>"* ]]
	[[ $output == *"drivers/pglayout.c:"*"may include <libpq/libpq-fs.h>"* ]]
	[[ $output == *"src/cmd/cmd_load.c:"*"may include <libpq-fe.h>"* ]]
}

@test "libpq in the access layer and the pgsql driver is allowed" {
	copy_tree "$BATS_TEST_TMPDIR/t"
	printf '#include <libpq-fe.h>\n' >>"$BATS_TEST_TMPDIR/t/drivers/pgsql_route.c"
	run bash "$top/tests/include-rules.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
