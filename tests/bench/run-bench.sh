#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-bench.sh - what `make bench` runs: every benchmark program given on
# the command line (build/bench/bench_*, built from tests/bench/bench_*.c)
# and every script tests/bench/bench_*.sh. Benchmarks print figures, not
# pass/fail; this exits non-zero only when one of them could not run.
# Usage: run-bench.sh [BENCH_BINARY...]
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
failed=()

for bin in "$@"; do
	echo "== $(basename "$bin")"
	"$bin" || failed+=("$(basename "$bin")")
	echo
done
for script in tests/bench/bench_*.sh; do
	[[ -f $script ]] || continue
	echo "== $(basename "$script")"
	bash "$script" || failed+=("$(basename "$script")")
	echo
done
if ((${#failed[@]})); then
	echo "benchmarks that failed: ${failed[*]}" >&2
	exit 1
fi
