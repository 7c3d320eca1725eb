#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of `oltpmark load` and `oltpmark check` against a throwaway server:
# W=1 and W=2 populations with exact row counts, the same rows from binary
# and text COPY, all twelve conditions passing, corruptions caught and
# named, refusal of a second load without --drop, interrupted loads
# refused by check, reproducibility from --seed, and bad options (one
# line, exit 2).
#
# setup_file loads database w1 (W=1, seed 42) and w2 (W=2) once; tests that
# change data work on a copy (CREATE DATABASE ... TEMPLATE w1).
#
# Each test runs in its own subshell; variables set in setup are read in
# teardown of the same test, which is what shellcheck cannot see.
# shellcheck disable=SC2030,SC2031

load helpers

# db NAME: the connection string of database NAME on the test server.
db() {
	printf '%s dbname=%s\n' "$OLTPMARK_CONNINFO" "$1"
}

# q DB SQL: the rows SQL returns in database DB (unaligned, no header).
q() {
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d "$(db "$1")" -c "$2"
}

# copy_db NAME: a fresh copy of w1 called NAME, dropped in teardown.
copy_db() {
	psql_value "CREATE DATABASE $1 TEMPLATE w1"
	COPIES+=("$1")
}

setup_file() {
	pg_throwaway_start -c fsync=off -c full_page_writes=off \
		-c wal_level=minimal -c max_wal_senders=0
	psql_value "CREATE DATABASE w1"
	psql_value "CREATE DATABASE w2"
	"$OLTPMARK" load -w 1 --seed 42 --conninfo "$(db w1)"
	"$OLTPMARK" load -w 2 -j 3 --conninfo "$(db w2)"
}

teardown_file() {
	pg_throwaway_stop
}

setup() {
	COPIES=()
	BG_PID=
}

teardown() {
	local d

	if [[ -n $BG_PID ]]; then
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
	for d in "${COPIES[@]}"; do
		psql_value "DROP DATABASE IF EXISTS $d WITH (FORCE)"
	done
}

# counts DB: "table|rows" for the nine tables but order_line, one per line.
counts() {
	q "$1" "SELECT t, n FROM (
		          SELECT 1, 'warehouse', count(*) FROM warehouse
		UNION ALL SELECT 2, 'district', count(*) FROM district
		UNION ALL SELECT 3, 'customer', count(*) FROM customer
		UNION ALL SELECT 4, 'history', count(*) FROM history
		UNION ALL SELECT 5, 'new_order', count(*) FROM new_order
		UNION ALL SELECT 6, 'orders', count(*) FROM orders
		UNION ALL SELECT 7, 'item', count(*) FROM item
		UNION ALL SELECT 8, 'stock', count(*) FROM stock) c(k, t, n)
		ORDER BY k"
}

@test "load -w 1: exact row counts, order lines within 1 %" {
	run counts w1
	[ "$status" -eq 0 ]
	[ "$output" = "warehouse|1
district|10
customer|30000
history|30000
new_order|9000
orders|30000
item|100000
stock|100000" ]
	run q w1 "SELECT count(*) BETWEEN 297000 AND 303000
			 AND count(*) = (SELECT sum(o_ol_cnt) FROM orders)
		    FROM order_line"
	[ "$output" = t ]
}

@test "load -w 2: exact row counts and the meta row" {
	run counts w2
	[ "$status" -eq 0 ]
	[ "$output" = "warehouse|2
district|20
customer|60000
history|60000
new_order|18000
orders|60000
item|100000
stock|200000" ]
	run q w2 "SELECT status, warehouses, c_load_c_last BETWEEN 0 AND 255,
			 seed >= 0, version <> '', load_finished >= load_started
		    FROM oltpmark_meta"
	[ "$output" = "loaded|2|t|t|t|t" ]
	# keys, indexes, functions and statistics are in place
	run q w2 "SELECT count(*) FROM pg_constraint
		   WHERE contype = 'p' AND connamespace = 'public'::regnamespace"
	[ "$output" = 8 ]
	run q w2 "SELECT count(*) FROM pg_proc
		   WHERE proname IN ('new_order', 'payment', 'order_status',
				     'delivery', 'stock_level',
				     'oltpmark_deliveries_ran')"
	[ "$output" = 6 ]
	run q w2 "SELECT count(*) FROM pg_stats
		   WHERE tablename = 'stock' AND attname = 's_quantity'"
	[ "$output" = 1 ]
	# COPY FREEZE: every page is all-visible right after the load
	run q w2 "SELECT relallvisible = relpages FROM pg_class
		   WHERE relname = 'stock'"
	[ "$output" = t ]
}

@test "load: the population follows clause 4.3.3.1 in the database" {
	# C_LAST of customers 1..1000 follows C_ID; C-Load comes from the seed
	run q w1 "SELECT count(*) FROM customer
		   WHERE c_id <= 1000 AND c_last <>
		     (SELECT string_agg((ARRAY['BAR','OUGHT','ABLE','PRI',
			'PRES','ESE','ANTI','CALLY','ATION','EING'])
			[substr(lpad((c_id - 1)::text, 3, '0'), k, 1)::int + 1],
			'' ORDER BY k) FROM generate_series(1, 3) k)"
	[ "$output" = 0 ]
	# carrier and delivery date only for orders below 2101
	run q w1 "SELECT count(*) FILTER (WHERE (o_id < 2101) <>
					  (o_carrier_id IS NOT NULL)),
			 count(*) FILTER (WHERE o_carrier_id NOT BETWEEN 1 AND 10)
		    FROM orders"
	[ "$output" = "0|0" ]
	run q w1 "SELECT count(*) FROM order_line
		   WHERE (ol_o_id < 2101) <> (ol_delivery_d IS NOT NULL)
		      OR (ol_o_id < 2101 AND ol_amount <> 0)
		      OR (ol_o_id >= 2101 AND ol_amount NOT BETWEEN 0.01 AND 9999.99)"
	[ "$output" = 0 ]
	# about 10 % ORIGINAL and BC (the spec allows 5 % off)
	run q w1 "SELECT (SELECT avg((i_data LIKE '%ORIGINAL%')::int)
			   BETWEEN 0.09 AND 0.11 FROM item),
			 (SELECT avg((s_data LIKE '%ORIGINAL%')::int)
			   BETWEEN 0.09 AND 0.11 FROM stock),
			 (SELECT avg((c_credit = 'BC')::int)
			   BETWEEN 0.08 AND 0.12 FROM customer)"
	[ "$output" = "t|t|t" ]
	# one timestamp for every date column, the load's start
	run q w1 "SELECT count(DISTINCT d) FROM (
		     SELECT c_since d FROM customer UNION ALL
		     SELECT h_date FROM history UNION ALL
		     SELECT o_entry_d FROM orders UNION ALL
		     SELECT ol_delivery_d FROM order_line
		      WHERE ol_delivery_d IS NOT NULL) x"
	[ "$output" = 1 ]
}

# table_sums DB: "table|md5" of every row as text (the date columns, which
# hold the load's start, as NOW), one table a line, then "dates|N": how
# many date values are not the load's start, truncated to the second.
table_sums() {
	q "$1" "$(table_sums_sql) UNION ALL
		SELECT 'dates', count(*)::text FROM (
		SELECT c_since d FROM customer UNION ALL
		SELECT h_date FROM history UNION ALL
		SELECT o_entry_d FROM orders UNION ALL
		SELECT ol_delivery_d FROM order_line
		 WHERE ol_delivery_d IS NOT NULL) x
		WHERE d <> date_trunc('second',
				(SELECT load_started FROM oltpmark_meta)::timestamp)"
}

@test "load: binary and text COPY give the same rows in every table" {
	local fmt binary text

	# Far from UTC: a timestamp must keep the wall-clock time of the
	# load's start in both formats (the psql sessions use it too).
	export PGTZ=Pacific/Chatham
	for fmt in binary text; do
		psql_value "CREATE DATABASE fmt_$fmt"
		COPIES+=("fmt_$fmt")
		OLTPMARK_LOAD_FORMAT=$fmt "$OLTPMARK" load -w 1 --seed 42 \
			--conninfo "$(db "fmt_$fmt")"
	done
	binary=$(table_sums fmt_binary)
	text=$(table_sums fmt_text)
	echo "$binary"
	echo "$text"
	[ "$(wc -l <<<"$binary")" -eq 10 ]
	[[ $binary == *"dates|0" ]]
	[ "$binary" = "$text" ]
	# and the load of setup_file (binary, same seed, the server's time
	# zone) holds the same rows
	[ "$(unset PGTZ; table_sums w1)" = "$binary" ]
	run "$OLTPMARK" check --quick --conninfo "$(db fmt_text)"
	[ "$status" -eq 0 ]
	# a format the loader does not know is refused before it connects
	OLTPMARK_LOAD_FORMAT=csv run "$OLTPMARK" load -w 1 \
		--conninfo "$(db fmt_text)"
	[ "$status" -eq 1 ]
	[[ $output == *"OLTPMARK_LOAD_FORMAT: 'csv' is not text or binary"* ]]
}

@test "check: all twelve conditions pass on W=1 and W=2" {
	local d

	for d in w1 w2; do
		run "$OLTPMARK" check --conninfo "$(db "$d")"
		echo "$output"
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 12 ]
		[ "$(grep -c '^C[0-9]* *PASS  ' <<<"$output")" -eq 12 ]
		[[ ${lines[0]} == "C1  PASS  "* ]]
		[[ ${lines[11]} == "C12 PASS  "* ]]
	done
}

@test "check --quick: C1-C4 only" {
	run "$OLTPMARK" check --quick --conninfo "$(db w2)"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ ${lines[3]} == "C4  PASS  "* ]]
}

@test "check: a corrupted W_YTD fails C1 and C8 and names the warehouse" {
	copy_db bad
	q bad "UPDATE warehouse SET w_ytd = w_ytd + 1"
	run "$OLTPMARK" check --conninfo "$(db bad)"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"C1  FAIL  "*"(1 row; first: (1))"* ]]
	[[ $output == *"C8  FAIL  "*"(1 row; first: (1))"* ]]
	[ "$(grep -c '^C[0-9]* *PASS  ' <<<"$output")" -eq 10 ]
	[[ $output == *"2 of 12 conditions failed"* ]]
	run "$OLTPMARK" check --quick --conninfo "$(db bad)"
	[ "$status" -eq 1 ]
	[[ $output == *"C1  FAIL"* ]]
}

@test "check: a lost order line fails C4 and C6 with the order's key" {
	copy_db bad
	q bad "DELETE FROM order_line
		WHERE (ol_w_id, ol_d_id, ol_o_id, ol_number) = (1, 3, 2245, 1)"
	run "$OLTPMARK" check --conninfo "$(db bad)"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"C4  FAIL  "*"first: (1,3))"* ]]
	[[ $output == *"C6  FAIL  "*"first: (1,3,2245))"* ]]
}

@test "check: C11 is not applicable after a Delivery, the rest holds" {
	copy_db delivered
	q delivered "SELECT * FROM delivery(1, 7)" >/dev/null
	run "$OLTPMARK" check --conninfo "$(db delivered)"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"C11 n/a   "*"(not applicable after Deliveries)"* ]]
	[ "$(grep -c '^C[0-9]* *PASS  ' <<<"$output")" -eq 11 ]
}

@test "load: a second load without --drop is refused and changes nothing" {
	copy_db again
	run "$OLTPMARK" load -w 1 --conninfo "$(db again)"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"already holds warehouse"*"--drop"* ]]
	run q again "SELECT status, warehouses FROM oltpmark_meta"
	[ "$output" = "loaded|1" ]
}

@test "load --drop: replaces the population; the same seed gives the same data" {
	local sums

	copy_db again
	q again "CREATE TABLE foreign_thing (x int)"
	run "$OLTPMARK" load -w 1 -j 1 --drop --seed 42 --conninfo "$(db again)"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "loaded 1 warehouse in "*"seed 42"* ]]
	# only our objects were dropped
	run q again "SELECT to_regclass('foreign_thing') IS NOT NULL"
	[ "$output" = t ]
	# same seed, other job count: the same rows (dates aside)
	sums="SELECT md5(string_agg(s::text, ',' ORDER BY s_w_id, s_i_id))
		FROM stock s;
	      SELECT md5(string_agg(concat_ws(',', c_id, c_d_id, c_last,
			c_first, c_data, c_credit, c_discount), ','
			ORDER BY c_w_id, c_d_id, c_id)) FROM customer;
	      SELECT md5(string_agg(concat_ws(',', ol_o_id, ol_d_id,
			ol_number, ol_i_id, ol_amount, ol_dist_info), ','
			ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number))
		FROM order_line;
	      SELECT md5(string_agg(concat_ws(',', o_id, o_d_id, o_c_id,
			o_carrier_id, o_ol_cnt), ','
			ORDER BY o_w_id, o_d_id, o_id)) FROM orders;
	      SELECT c_load_c_last, seed FROM oltpmark_meta"
	[ "$(q again "$sums")" = "$(q w1 "$sums")" ]
	run "$OLTPMARK" check --quick --conninfo "$(db again)"
	[ "$status" -eq 0 ]
}

@test "check: refuses a database whose load did not finish" {
	copy_db unfinished
	q unfinished "UPDATE oltpmark_meta SET status = 'loading'"
	run "$OLTPMARK" check --conninfo "$(db unfinished)"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"did not finish"*"'loading'"* ]]
}

@test "check: refuses a database that oltpmark did not load" {
	psql_value "CREATE DATABASE empty"
	COPIES+=(empty)
	run "$OLTPMARK" check --conninfo "$(db empty)"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"not an oltpmark database"* ]]
}

@test "load: SIGINT stops the load, leaves 'loading', check refuses it" {
	local rc

	psql_value "CREATE DATABASE cut"
	COPIES+=(cut)
	"$OLTPMARK" load -w 6 --conninfo "$(db cut)" 2>"$BATS_TEST_TMPDIR/err" &
	BG_PID=$!
	# wait until the first transaction has committed the meta row, and
	# the jobs copy rows
	wait_for 30 psql_true "SELECT to_regclass('oltpmark_meta') IS NOT NULL" \
		"$(db cut)"
	wait_for 30 psql_true "SELECT count(*) > 0 FROM pg_stat_activity
		WHERE datname = 'cut' AND state = 'active' AND query LIKE 'COPY %'"
	kill -INT "$BG_PID"
	rc=0
	wait "$BG_PID" || rc=$?
	BG_PID=
	cat "$BATS_TEST_TMPDIR/err"
	[ "$rc" -eq 1 ]
	grep -q "interrupted" "$BATS_TEST_TMPDIR/err"
	run q cut "SELECT status FROM oltpmark_meta"
	[ "$output" = loading ]
	# no backend of the load is left behind (they end within moments)
	wait_for 10 psql_true "SELECT count(*) = 0 FROM pg_stat_activity
		WHERE datname = 'cut' AND pid <> pg_backend_pid()"
	run "$OLTPMARK" check --conninfo "$(db cut)"
	[ "$status" -eq 1 ]
	[[ $output == *"did not finish"* ]]
	# and a new load replaces it with --drop
	run "$OLTPMARK" load -w 1 --drop --conninfo "$(db cut)"
	[ "$status" -eq 0 ]
}

@test "load: a job that fails fails the load, which stays 'loading'" {
	local i rc killed=

	psql_value "CREATE DATABASE broken"
	COPIES+=(broken)
	"$OLTPMARK" load -w 4 --conninfo "$(db broken)" 2>"$BATS_TEST_TMPDIR/err" &
	BG_PID=$!
	# end the backend of the STOCK COPY under the loader's feet
	for ((i = 0; i < 200; i++)); do
		killed=$(q broken "SELECT pg_terminate_backend(pid)
				     FROM pg_stat_activity
				    WHERE datname = 'broken' AND state = 'active'
				      AND query LIKE 'COPY stock%'" 2>/dev/null) || true
		[[ -n $killed ]] && break
		sleep 0.05
	done
	rc=0
	wait "$BG_PID" || rc=$?
	BG_PID=
	cat "$BATS_TEST_TMPDIR/err"
	[ "$killed" = t ]
	[ "$rc" -eq 1 ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/err")" -eq 1 ]
	grep -q "load failed: COPY stock" "$BATS_TEST_TMPDIR/err"
	run q broken "SELECT status FROM oltpmark_meta"
	[ "$output" = loading ]
}

@test "bad options: one line naming option and value, exit 2" {
	local -a cases=(
		"load --drop|--warehouses|required"
		"load -w 0|--warehouses|0"
		"load -w abc|--warehouses|abc"
		"load -w|-w|needs a value"
		"load -j 0|--jobs|0"
		"load --seed -1|--seed|-1"
		"load --nope|--nope|unknown"
		"load -w 1 extra|extra|unexpected"
		"check --nope|--nope|unknown"
		"check -j 0|--jobs|0"
	)
	local c args want1 want2

	for c in "${cases[@]}"; do
		IFS='|' read -r args want1 want2 <<<"$c"
		# shellcheck disable=SC2086
		run "$OLTPMARK" $args
		echo "$args -> $status: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"$want1"* && $output == *"$want2"* ]]
	done
	run "$OLTPMARK" load -w 1 --conninfo "host='unterminated"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"--conninfo"* ]]
}

@test "unreachable server: one line without the password, exit 1" {
	local cmd

	for cmd in "load -w 1" check; do
		# shellcheck disable=SC2086
		run "$OLTPMARK" $cmd --conninfo \
			"host=$BATS_TEST_TMPDIR port=1 password=s3cret"
		echo "$output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"cannot connect"* ]]
		[[ $output != *s3cret* ]]
	done
}

@test "--help: exit 0, every option listed" {
	local o

	run "$OLTPMARK" load --help
	[ "$status" -eq 0 ]
	for o in --warehouses --jobs --drop --seed --conninfo --help; do
		[[ $output == *"$o"* ]]
	done
	run "$OLTPMARK" check --help
	[ "$status" -eq 0 ]
	for o in --quick --jobs --conninfo --help; do
		[[ $output == *"$o"* ]]
	done
}
