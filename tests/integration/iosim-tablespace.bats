#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The iosim driver on a database loaded over tablespaces (docs/iosim.md,
# "Tablespaces"): W = 1 loaded over two directories in the table layout
# on a throwaway server; `oltpmark calibrate` records which directory
# each relation is in, numbered as the loader numbers its tablespaces,
# and each directory's location; `oltpmark iosim-prepare` with --data-dir
# once per directory puts each relation's file in the directory of its
# tablespace, linked from the first, and a run given the first directory
# replays on them; one --data-dir takes them all; a count the profile
# does not take is one line, exit 2. The directories are on one file
# system (--allow-shared-device). The tests share the profile and run in
# file order; the variables of setup_file reach them, which the linter
# cannot see.
# shellcheck disable=SC2030,SC2031

load helpers

setup_file() {
	pg_throwaway_start -c fsync=off -c full_page_writes=off
	SERVER_USER=$(stat -c %U "$PGTEST_DIR/data")
	TOP=$(mktemp -d /var/tmp/oltpmark-iosim-ts.XXXXXX)
	chmod 755 "$TOP"
	mkdir "$TOP/ts1" "$TOP/ts2"
	chown "$SERVER_USER" "$TOP/ts1" "$TOP/ts2"
	export SERVER_USER TOP
	export PROFILE=$TOP/profile.json
	"$OLTPMARK" load -w 1 -j 2 --conninfo "$OLTPMARK_CONNINFO" \
		--tablespace-dir "$TOP/ts1" --tablespace-dir "$TOP/ts2" \
		--layout table --allow-shared-device >&3 2>&1
}

teardown_file() {
	pg_throwaway_stop
	if [[ -n ${TOP:-} && -d $TOP ]]; then
		rm -rf -- "$TOP"
	fi
}

@test "calibrate records each relation's tablespace directory and where it is" {
	run "$OLTPMARK" calibrate --conninfo "$OLTPMARK_CONNINFO" \
		--profile "$PROFILE" --out "$TOP/calibration" \
		--phase 1 -d 5 --keying-think none -c 2
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_eval "$PROFILE" "d['layout']['kind']")" = table ]
	[ "$(json_eval "$PROFILE" "d['layout']['directories']")" = 2 ]
	[ "$(json_eval "$PROFILE" "d['layout']['paths']")" = "['$TOP/ts1', '$TOP/ts2']" ]
	# every relation is in the directory of its tablespace, oltpmark_tsK
	# being directory K - 1
	want=$(psql_value "SELECT string_agg(c.relname || '=' ||
			(substr(t.spcname, 12)::int - 1), ' ' ORDER BY c.relname)
		FROM pg_class c JOIN pg_tablespace t ON t.oid = c.reltablespace
		WHERE c.relkind IN ('r', 'i') AND t.spcname LIKE 'oltpmark_ts%'
		AND c.relnamespace = 'public'::regnamespace
		AND c.relname NOT LIKE 'oltpmark_meta%'")
	got=$(json_eval "$PROFILE" "' '.join('%s=%d' % (k, v) for k, v in sorted(d['layout']['placement'].items()))")
	echo "pg_class: $want"
	echo "profile:  $got"
	[ "$got" = "$want" ]
	# both directories hold some
	[ "$(json_eval "$PROFILE" "sorted(set(d['layout']['placement'].values()))")" = "[0, 1]" ]
}

@test "iosim-prepare over the two directories, and a run on them" {
	[ -f "$PROFILE" ] || skip "no profile (the calibration failed)"
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" \
		--data-dir "$TOP/d1" --data-dir "$TOP/d2"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"$TOP/d2 for the calibration's $TOP/ts2"* ]]
	for rel in $(json_eval "$PROFILE" "' '.join(d['relations'])"); do
		k=$(json_eval "$PROFILE" "d['layout']['placement']['$rel']")
		if ((k == 0)); then
			[ -f "$TOP/d1/$rel" ] && [ ! -L "$TOP/d1/$rel" ]
			[ ! -e "$TOP/d2/$rel" ]
		else
			[ -f "$TOP/d2/$rel" ] && [ ! -L "$TOP/d2/$rel" ]
			[ "$(readlink "$TOP/d1/$rel")" = "$TOP/d2/$rel" ]
		fi
	done
	[ -f "$TOP/d1/wal" ]
	run "$OLTPMARK" run --driver iosim --profile "$PROFILE" \
		--data-dir "$TOP/d1" -w 1 -d 3 --ramp-up 0 --keying-think none \
		-c 2 --progress 0 --out "$TOP/run"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_eval "$TOP/run/run.json" "d['server_stats']['blks_read'] > 0")" = True ]
	# prepared again: nothing to do
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" \
		--data-dir "$TOP/d1" --data-dir "$TOP/d2"
	[ "$status" -eq 0 ]
}

@test "one --data-dir takes every file; three are refused in one line" {
	[ -f "$PROFILE" ] || skip "no profile (the calibration failed)"
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$TOP/one"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"relations were in 2 directories (table layout); all go to $TOP/one"* ]]
	[ -f "$TOP/one/stock" ] && [ ! -L "$TOP/one/stock" ]
	run "$OLTPMARK" iosim-prepare --profile "$PROFILE" --data-dir "$TOP/x1" \
		--data-dir "$TOP/x2" --data-dir "$TOP/x3"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"3 data directories for a profile of 2"* ]]
	[ ! -e "$TOP/x1" ]
}
