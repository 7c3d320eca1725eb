#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of schema/: the keys (indexes.sql, run in parallel as the loader
# does), the five transaction functions (functions.sql) and the consistency
# checks (checks.sql), on a tiny hand-made population: 2 warehouses of 2
# districts, 8 customers per district, 20 items, about 2,100 orders per
# district (C11 needs count(ORDER) - count(NEW-ORDER) = 2100). setup_file
# builds it once into database "tmpl"; every test works on its own copy.
#
# Each test runs in its own subshell; variables set in setup are read in
# teardown of the same test, which is what shellcheck cannot see.
# shellcheck disable=SC2030,SC2031

load helpers

# The population. Known values the tests rely on:
# - W_TAX 0.1000 (w1) and 0.0500 (w2), D_TAX 0.0500, C_DISCOUNT 0.1000;
#   W_YTD 160.00, D_YTD 80.00, one HISTORY row of 10.00 per customer.
# - D_NEXT_O_ID: (1,1) 2104, (1,2) 2101, (2,1) 2103, (2,2) 2102. Orders
#   1..2100 are delivered (OL_AMOUNT 0), later ones undelivered with a
#   NEW-ORDER row, OL_AMOUNT = OL_NUMBER * 1.00, OL_QUANTITY 5; district
#   (1,2) has no NEW-ORDER row. O_C_ID = (O_ID - 1) % 8 + 1, O_OL_CNT =
#   1 + O_ID % 3 for delivered orders (fewer rows, faster copies) and
#   5 + O_ID % 3 for the others; order lines use items 11..20.
# - Customers 1..4 are BARBARBAR (C_FIRST Dave, Bob, Alice, Carol: ceil(4/2)
#   -> Bob, c_id 2), 5..7 OUGHTOUGHTOUGHT (Zed, Xena, Yann: ceil(3/2) ->
#   Yann, c_id 7), 8 ABLEABLEABLE with bad credit and a 495-char C_DATA.
# - I_PRICE = I_ID + 0.50. Stock 50 everywhere except w1 item 2 (12) and
#   w1 item 4 (15); S_DIST_xx = "w<W>-i<I>-d<xx>".
population_sql() {
	cat <<'EOF'
INSERT INTO warehouse VALUES
	(1, 'WH-one', 'street 1', 'street 2', 'city', 'ST', '123411111', 0.1000, 160.00),
	(2, 'WH-two', 'street 1', 'street 2', 'city', 'ST', '567811111', 0.0500, 160.00);
INSERT INTO district
SELECT d, w, format('D-%s-%s', w, d), 'street 1', 'street 2', 'city', 'ST',
       '123411111', 0.0500, 80.00,
       CASE w * 10 + d WHEN 11 THEN 2104 WHEN 12 THEN 2101
		       WHEN 21 THEN 2103 ELSE 2102 END
  FROM generate_series(1, 2) w, generate_series(1, 2) d;
INSERT INTO customer
SELECT c.id, d.d_id, d.d_w_id, c.first, 'OE', c.last, 'street 1', 'street 2',
       'city', 'ST', '123411111', '0123456789012345',
       timestamp '2026-01-01 00:00', c.credit, 50000.00, 0.1000, -10.00,
       10.00, 1, 0,
       CASE c.credit WHEN 'BC' THEN rpad('OLD-', 495, 'abcdefghij')
		     ELSE 'good credit data' END
  FROM district d,
       (VALUES (1, 'Dave', 'BARBARBAR', 'GC'), (2, 'Bob', 'BARBARBAR', 'GC'),
	       (3, 'Alice', 'BARBARBAR', 'GC'), (4, 'Carol', 'BARBARBAR', 'GC'),
	       (5, 'Zed', 'OUGHTOUGHTOUGHT', 'GC'),
	       (6, 'Xena', 'OUGHTOUGHTOUGHT', 'GC'),
	       (7, 'Yann', 'OUGHTOUGHTOUGHT', 'GC'),
	       (8, 'Hank', 'ABLEABLEABLE', 'BC'))
	AS c(id, first, last, credit);
INSERT INTO history
SELECT c_id, c_d_id, c_w_id, c_d_id, c_w_id, timestamp '2026-01-01 00:00',
       10.00, 'load history'
  FROM customer;
INSERT INTO item
SELECT i, i, format('item %s', i), i + 0.50,
       CASE i WHEN 1 THEN 'item ORIGINAL data' ELSE 'plain item data' END
  FROM generate_series(1, 20) i;
INSERT INTO stock
SELECT i, w, CASE WHEN w = 1 AND i = 2 THEN 12
		  WHEN w = 1 AND i = 4 THEN 15 ELSE 50 END,
       format('w%s-i%s-d01', w, i), format('w%s-i%s-d02', w, i),
       format('w%s-i%s-d03', w, i), format('w%s-i%s-d04', w, i),
       format('w%s-i%s-d05', w, i), format('w%s-i%s-d06', w, i),
       format('w%s-i%s-d07', w, i), format('w%s-i%s-d08', w, i),
       format('w%s-i%s-d09', w, i), format('w%s-i%s-d10', w, i),
       0, 0, 0,
       CASE WHEN w = 1 AND i = 1 THEN 'stock ORIGINAL data'
	    ELSE 'plain stock data' END
  FROM generate_series(1, 2) w, generate_series(1, 20) i;
INSERT INTO orders
SELECT o, d.d_id, d.d_w_id, (o - 1) % 8 + 1, timestamp '2026-01-01 00:00',
       CASE WHEN o < 2101 THEN 1 + o % 10 END,
       CASE WHEN o < 2101 THEN 1 ELSE 5 END + o % 3, 1
  FROM district d, generate_series(1, d.d_next_o_id - 1) o;
INSERT INTO order_line
SELECT o_id, o_d_id, o_w_id, n, 11 + (o_id + n) % 10, o_w_id,
       CASE WHEN o_carrier_id IS NOT NULL THEN o_entry_d END, 5,
       CASE WHEN o_carrier_id IS NULL THEN n * 1.00 ELSE 0.00 END,
       'load dist info'
  FROM orders, generate_series(1, o_ol_cnt) n;
INSERT INTO new_order
SELECT o_id, o_d_id, o_w_id FROM orders WHERE o_carrier_id IS NULL;
EOF
}

# run_groups DB FILE: run the "-- next" groups of FILE at once, one psql
# each, as the loader does; fail if any group fails.
run_groups() {
	local db=$1 file=$2 dir pids=() p f rc=0

	dir=$(mktemp -d "$BATS_FILE_TMPDIR/groups.XXXXXX")
	awk -v dir="$dir" '
		BEGIN { f = sprintf("%s/%03d.sql", dir, n) }
		/^-- next$/ { n++; f = sprintf("%s/%03d.sql", dir, n); next }
		{ print > f }' "$file"
	for f in "$dir"/*.sql; do
		"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d "$db" -f "$f" 3>&- &
		pids+=("$!")
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	return "$rc"
}

setup_file() {
	local s=$REPO/schema

	pg_throwaway_start -c fsync=off -c full_page_writes=off \
		-c synchronous_commit=off
	psql_value "CREATE DATABASE tmpl"
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d tmpl -f "$s/tables.sql" \
		-f "$s/meta.sql"
	population_sql | "$PSQL" -XAtq -v ON_ERROR_STOP=1 -d tmpl
	run_groups tmpl "$s/indexes.sql"
	# Twice: the file must be re-runnable.
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d tmpl -f "$s/functions.sql" \
		-f "$s/functions.sql"
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d tmpl -c "VACUUM ANALYZE"
}

teardown_file() {
	pg_throwaway_stop
}

setup() {
	DB=t$BATS_TEST_NUMBER
	BG_PID=
	psql_value "CREATE DATABASE $DB TEMPLATE tmpl"
}

# The test's database is left for teardown_file, which removes the whole
# cluster: dropping each one would only cost time.
teardown() {
	if [[ -n $BG_PID ]]; then
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
}

# q SQL...: run the statements in the test's database, print the rows
# unaligned (columns separated by |); fail on any SQL error. Errors are
# printed with their SQLSTATE.
q() {
	local args=() s

	for s in "$@"; do
		args+=(-c "$s")
	done
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -d "$DB" \
		"${args[@]}"
}

# expect SQL WANT: the output of SQL is exactly WANT.
expect() {
	local got

	got=$(q "$1") || return 1
	if [[ $got != "$2" ]]; then
		printf 'query: %s\nwant: %s\ngot:  %s\n' "$1" "$2" "$got" >&2
		return 1
	fi
}

# check_sql N: the statement of condition C<N> in checks.sql.
check_sql() {
	awk -v n="$1" '
		/^-- C[0-9]+: / { c = substr($2, 2, length($2) - 2); next }
		c == n { print }' "$REPO/schema/checks.sql"
}

@test "indexes.sql and foreign_keys.sql: one statement per group" {
	local f

	for f in indexes.sql foreign_keys.sql; do
		awk '
			/^-- next$/ { if (n != 1) bad = 1; n = 0; next }
			/^[^-].*;[ \t]*$/ { n++ }
			END { if (n != 1) bad = 1; exit bad }' \
			"$REPO/schema/$f" || { echo "bad groups in $f"; return 1; }
	done
	expect "SELECT count(*) FROM pg_constraint
		 WHERE contype = 'p' AND connamespace = 'public'::regnamespace" 8
	expect "SELECT count(*) FROM pg_indexes
		 WHERE indexname IN ('customer_name_idx', 'orders_customer_idx')" 2
}

@test "checks.sql: C1..C12 in order, one statement each" {
	local markers n sql

	markers=$(grep -E '^-- C[0-9]+: ' "$REPO/schema/checks.sql" |
		sed -E 's/^-- (C[0-9]+):.*/\1/' | paste -sd' ')
	[[ $markers == "C1 C2 C3 C4 C5 C6 C7 C8 C9 C10 C11 C12" ]]
	for n in {1..12}; do
		sql=$(check_sql "$n")
		# Exactly one ";", at the end, and no comment inside.
		[[ $(grep -o ';' <<<"$sql" | wc -l) -eq 1 ]]
		[[ $sql == *";" ]]
		if grep -q -- '--' <<<"$sql"; then
			echo "C$n has a comment inside"
			return 1
		fi
	done
}

# checks_failing N...: print "C<n>: <row>" for each row the conditions
# report, all in one session; fail if any query fails.
checks_failing() {
	local args=() n out

	for n in "$@"; do
		args+=("\\echo C$n" "$(check_sql "$n")")
	done
	out=$(q "${args[@]}") || return 1
	awk '/^C[0-9]+$/ { c = $0; next } { print c ": " $0 }' <<<"$out"
}

@test "checks: every condition holds on the loaded population" {
	local rows

	rows=$(checks_failing {1..12})
	[[ -z $rows ]] || { echo "$rows"; return 1; }
	expect "SELECT oltpmark_deliveries_ran()" f
}

@test "checks: each condition reports the row a corruption breaks" {
	# condition | corruption | the rows the condition must report
	local cases=(
		"1|UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 2|2"
		"2|UPDATE district SET d_next_o_id = 2102 WHERE d_w_id = 1 AND d_id = 2|1|2"
		"3|DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = 2102|1|1"
		"4|DELETE FROM order_line WHERE ol_w_id = 2 AND ol_d_id = 2 AND ol_o_id = 7 AND ol_number = 1|2|2"
		"5|UPDATE orders SET o_carrier_id = 3 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 2103|1|1|2103"
		"6|UPDATE orders SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 2 AND o_id = 5|1|2|5"
		"7|UPDATE order_line SET ol_delivery_d = NULL WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 5 AND ol_number = 2|1|1|5|2"
		"8|INSERT INTO history VALUES (1, 1, 1, 1, 2, now(), 0.01, 'x')|2"
		"9|UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 2 AND d_id = 2|2|2"
		"10|UPDATE customer SET c_balance = c_balance - 1, c_ytd_payment = c_ytd_payment + 1 WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 4|1|2|4"
		"11|INSERT INTO new_order VALUES (2100, 2, 1)|1|2"
		"12|UPDATE customer SET c_ytd_payment = c_ytd_payment + 1 WHERE c_w_id = 2 AND c_d_id = 2 AND c_id = 8|2|2|8"
	)
	local c n corrupt want got

	for c in "${cases[@]}"; do
		n=${c%%|*}
		c=${c#*|}
		corrupt=${c%%|*}
		want=${c#*|}
		got=$(q "BEGIN" "$corrupt" "$(check_sql "$n")" "ROLLBACK")
		if [[ $got != "$want" ]]; then
			printf 'C%s after %s\nwant: %s\ngot:  %s\n' "$n" \
				"$corrupt" "$want" "$got"
			return 1
		fi
	done
}

@test "new_order: O_ID, stock at the supplying warehouse, restock rule, counters" {
	# Line 1 is remote (item 3 from w2); w1 item 2 goes 12 -> 7 < 10 so
	# it is restocked to 98; w1 item 4 goes 15 -> 10, not restocked;
	# item 5 is ordered twice (50 - 3 - 4).
	expect "SELECT o_id, total_amount, c_last, c_credit, c_discount, w_tax,
		       d_tax, o_ol_cnt
		  FROM new_order(1, 1, 3, '{3,1,2,4,5,5}', '{2,1,1,1,1,1}',
				 '{4,5,5,5,3,4}')" \
		"2104|98.33|BARBARBAR|GC|0.1000|0.1000|0.0500|6"
	expect "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1" \
		2105
	expect "SELECT o_c_id, o_carrier_id IS NULL, o_ol_cnt, o_all_local
		  FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 2104" \
		"3|t|6|0"
	expect "SELECT count(*) FROM new_order
		 WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = 2104" 1
	expect "SELECT s_w_id, s_i_id, s_quantity, s_ytd, s_order_cnt,
		       s_remote_cnt
		  FROM stock WHERE s_i_id <= 5 ORDER BY s_w_id, s_i_id" \
		"1|1|45|5|1|0
1|2|98|5|1|0
1|3|50|0|0|0
1|4|10|5|1|0
1|5|43|7|2|0
2|1|50|0|0|0
2|2|50|0|0|0
2|3|46|4|1|1
2|4|50|0|0|0
2|5|50|0|0|0"
	# OL_NUMBER is the input position; OL_AMOUNT = quantity * price.
	expect "SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity,
		       ol_amount, ol_delivery_d IS NULL, trim(ol_dist_info)
		  FROM order_line
		 WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 2104
		 ORDER BY ol_number" \
		"1|3|2|4|14.00|t|w2-i3-d01
2|1|1|5|7.50|t|w1-i1-d01
3|2|1|5|12.50|t|w1-i2-d01
4|4|1|5|22.50|t|w1-i4-d01
5|5|1|3|16.50|t|w1-i5-d01
6|5|1|4|22.00|t|w1-i5-d01"
	# S_DIST_xx follows the district; an all-home order is all-local.
	expect "SELECT o_id FROM new_order(2, 2, 1, '{6}', '{2}', '{1}')" 2102
	expect "SELECT o_all_local, trim(ol_dist_info)
		  FROM orders JOIN order_line ON (ol_w_id, ol_d_id, ol_o_id) =
						 (o_w_id, o_d_id, o_id)
		 WHERE o_w_id = 2 AND o_d_id = 2 AND o_id = 2102" "1|w2-i6-d02"
}

@test "new_order: an unused item raises OM001 and leaves no trace" {
	local before after

	before=$(q "SELECT sum(s_quantity), sum(s_ytd), sum(s_order_cnt),
			   sum(s_remote_cnt) FROM stock")
	run q "SELECT * FROM new_order(1, 1, 3, '{1,3,99}', '{1,2,1}',
				       '{5,5,5}')"
	[ "$status" -ne 0 ]
	[[ $output == *"ERROR:  OM001: Item number is not valid"* ]]
	[[ $output == *"o_id=2104 c_last=BARBARBAR c_credit=GC"* ]]
	after=$(q "SELECT sum(s_quantity), sum(s_ytd), sum(s_order_cnt),
			  sum(s_remote_cnt) FROM stock")
	[[ $before == "$after" ]]
	expect "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1" \
		2104
	expect "SELECT (SELECT count(*) FROM orders WHERE o_id = 2104)
		     + (SELECT count(*) FROM new_order WHERE no_o_id = 2104)
		     + (SELECT count(*) FROM order_line WHERE ol_o_id = 2104)" 0
	# The O_ID given back is used by the next order.
	expect "SELECT o_id FROM new_order(1, 1, 3, '{1}', '{1}', '{1}')" 2104
}

@test "payment: by last name takes ceil(n/2), YTDs, customer and HISTORY" {
	expect "SELECT c_id, c_first, c_balance, c_credit, c_data IS NULL,
		       w_name, d_name
		  FROM payment(1, 1, 1, 1, NULL, 'BARBARBAR', 100.00)" \
		"2|Bob|-110.00|GC|t|WH-one|D-1-1"
	expect "SELECT c_id, c_first FROM payment(1, 1, 1, 1, 0,
						   'OUGHTOUGHTOUGHT', 1.00)" \
		"7|Yann"
	expect "SELECT c_id FROM payment(1, 1, 1, 1, 0, 'ABLEABLEABLE', 1.00)" 8
	expect "SELECT c_balance, c_ytd_payment, c_payment_cnt FROM customer
		 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 2" "-110.00|110.00|2"
	# Remote customer: the YTDs and H_W_ID/H_D_ID are the paying side.
	expect "SELECT c_id, c_balance FROM payment(1, 2, 2, 1, 5, NULL, 50)" \
		"5|-60.00"
	expect "SELECT w_ytd FROM warehouse ORDER BY w_id" "312.00
160.00"
	expect "SELECT d_w_id, d_id, d_ytd FROM district ORDER BY 1, 2" \
		"1|1|182.00
1|2|130.00
2|1|80.00
2|2|80.00"
	expect "SELECT h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_amount,
		       h_data
		  FROM history WHERE h_data <> 'load history'
		 ORDER BY h_amount DESC, h_c_id" \
		"2|1|1|1|1|100.00|WH-one    D-1-1
5|1|2|2|1|50.00|WH-one    D-1-2
7|1|1|1|1|1.00|WH-one    D-1-1
8|1|1|1|1|1.00|WH-one    D-1-1"
	local rows
	rows=$(checks_failing 1 8 9 10 12)
	[[ -z $rows ]] || { echo "$rows"; return 1; }
}

@test "payment: bad credit puts the payment in front of C_DATA, cut to 500" {
	local prefix='8 1 1 2 1 12.50|'

	# 12.5 must show as 12.50; the returned c_data is the first 200.
	expect "SELECT c_data FROM payment(1, 2, 1, 1, 8, NULL, 12.5)" \
		"$(q "SELECT left('$prefix' || rpad('OLD-', 495, 'abcdefghij'),
				  200)")"
	expect "SELECT length(c_data),
		       c_data = left('$prefix' || rpad('OLD-', 495,
						       'abcdefghij'), 500)
		  FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 8" \
		"500|t"
	# Good credit: C_DATA untouched.
	q "SELECT * FROM payment(1, 1, 1, 1, 3, NULL, 5)" >/dev/null
	expect "SELECT c_data FROM customer
		 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 3" "good credit data"
}

@test "order_status: the customer's latest order with its lines" {
	# Customer 5 of (1,1): latest order 2101, undelivered, 6 lines.
	expect "SELECT c_id, c_last, c_balance, o_id, o_carrier_id IS NULL,
		       count(*), sum(ol_amount), bool_and(ol_delivery_d IS NULL)
		  FROM order_status(1, 1, 5, NULL)
		 GROUP BY 1, 2, 3, 4, 5" "5|OUGHTOUGHTOUGHT|-10.00|2101|t|6|21.00|t"
	expect "SELECT string_agg(ol_number::text, ',')
		  FROM order_status(1, 1, 5, NULL)" "1,2,3,4,5,6"
	# By name: Bob (c_id 2); his latest order 2098 is delivered.
	expect "SELECT DISTINCT c_id, c_first, o_id, o_carrier_id,
		       ol_delivery_d IS NOT NULL
		  FROM order_status(1, 1, 0, 'BARBARBAR')" "2|Bob|2098|9|t"
	# A new order becomes the latest.
	q "SELECT * FROM new_order(1, 1, 2, '{7,8}', '{1,1}', '{1,1}')" \
		>/dev/null
	expect "SELECT DISTINCT o_id, o_carrier_id IS NULL
		  FROM order_status(1, 1, 0, 'BARBARBAR')" "2104|t"
}

@test "delivery: oldest order per district, empty districts skipped, sum(OL_AMOUNT) credited" {
	expect "SELECT * FROM delivery(1, 7)" "1|9"
	expect "SELECT oltpmark_deliveries_ran()" t
	expect "SELECT o_carrier_id FROM orders
		 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 2101" 7
	expect "SELECT count(*), count(ol_delivery_d) FROM order_line
		 WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 2101" "6|6"
	expect "SELECT string_agg(no_o_id::text, ',' ORDER BY no_o_id)
		  FROM new_order WHERE no_w_id = 1" "2102,2103"
	# Order 2101 is customer 5's: six lines of 1.00..6.00 (21.00, not
	# 21.00 * OL_QUANTITY).
	expect "SELECT c_balance, c_delivery_cnt FROM customer
		 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 5" "11.00|1"
	expect "SELECT * FROM delivery(1, 3)" "1|9"
	expect "SELECT c_balance, c_delivery_cnt FROM customer
		 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 6" "18.00|1"
	# Warehouse 2 has work in both districts.
	expect "SELECT * FROM delivery(2, 1)" "2|8"
	local rows
	rows=$(checks_failing {1..12} | sort)
	[[ $rows == $'C11: 1|1\nC11: 2|1\nC11: 2|2' ]] || {
		echo "$rows"
		return 1
	}
}

@test "delivery: two at once on one warehouse never deliver an order twice" {
	local out=$BATS_TEST_TMPDIR/first.out

	# The first Delivery holds its transaction open for 3 s after taking
	# (2,1) order 2101 and (2,2) order 2101.
	"$PSQL" -XAtq -v ON_ERROR_STOP=1 -d "$DB" -c "BEGIN" \
		-c "SELECT * FROM delivery(2, 1)" -c "SELECT pg_sleep(3)" \
		-c "COMMIT" >"$out" 2>&1 3>&- &
	BG_PID=$!
	for _ in {1..100}; do
		[[ $(q "SELECT count(*) FROM pg_stat_activity
			 WHERE wait_event = 'PgSleep'") == 1 ]] && break
		sleep 0.05
	done
	# The second passes over the locked rows instead of waiting: it takes
	# the next order of (2,1) and skips (2,2), whose only order is taken.
	[[ $(q "SET lock_timeout = '2s'" "SELECT * FROM delivery(2, 2)") == \
	   "1|9" ]]
	# ... and it did so while the first still held its rows (had the
	# first committed already, the second would give the same answer).
	kill -0 "$BG_PID"
	wait "$BG_PID"
	BG_PID=
	[[ $(<"$out") == "2|8" ]] || { cat "$out"; return 1; }
	expect "SELECT o_d_id, o_id, o_carrier_id FROM orders
		 WHERE o_w_id = 2 AND o_id > 2100 ORDER BY 1, 2" "1|2101|1
1|2102|2
2|2101|1"
	expect "SELECT c_d_id, c_id, c_balance, c_delivery_cnt FROM customer
		 WHERE c_w_id = 2 AND c_delivery_cnt > 0 ORDER BY 1, 2" \
		"1|5|11.00|1
1|6|18.00|1
2|5|11.00|1"
	expect "SELECT count(*) FROM new_order WHERE no_w_id = 2" 0
	[[ -z $(checks_failing 10 12) ]]
}

@test "stock_level: distinct items of the last 20 orders low in home stock" {
	# District (1,1): the last 20 orders are 2084..2103. Items 1 (twice),
	# 2 and 3 (supplied by w2, but the home stock counts) are in them and
	# low at w1; item 4 is low but only in order 2083; item 11 fills the
	# rest, low only at w2.
	q "UPDATE order_line SET ol_i_id = 11
	    WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id >= 2083" \
	  "UPDATE order_line SET ol_i_id = 1
	    WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_number = 1
	      AND ol_o_id IN (2084, 2090)" \
	  "UPDATE order_line SET ol_i_id = 2
	    WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 2103
	      AND ol_number = 1" \
	  "UPDATE order_line SET ol_i_id = 3, ol_supply_w_id = 2
	    WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 2100
	      AND ol_number = 1" \
	  "UPDATE order_line SET ol_i_id = 4
	    WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 2083
	      AND ol_number = 1" \
	  "UPDATE stock SET s_quantity = 5 WHERE s_w_id = 1 AND s_i_id <= 4" \
	  "UPDATE stock SET s_quantity = 1 WHERE s_w_id = 2 AND s_i_id = 11"
	expect "SELECT stock_level(1, 1, 10)" 3
	# Strictly below the threshold.
	expect "SELECT stock_level(1, 1, 5)" 0
	expect "SELECT stock_level(1, 1, 51)" 4
	# The window ends before D_NEXT_O_ID: with 2103, order 2103 (item 2)
	# is out and 2083 (item 4, made plentiful here) is in.
	q "UPDATE district SET d_next_o_id = 2103
	    WHERE d_w_id = 1 AND d_id = 1" \
	  "UPDATE stock SET s_quantity = 50 WHERE s_w_id = 1 AND s_i_id = 4"
	expect "SELECT stock_level(1, 1, 10)" 2
}

@test "foreign_keys.sql applies in parallel and the transactions keep it" {
	run_groups "$DB" "$REPO/schema/foreign_keys.sql"
	expect "SELECT count(*) FROM pg_constraint
		 WHERE contype = 'f' AND connamespace = 'public'::regnamespace" 10
	expect "SELECT o_id FROM new_order(1, 2, 1, '{1,2}', '{1,2}', '{1,1}')" \
		2101
	expect "SELECT c_id FROM payment(2, 1, 1, 2, 0, 'BARBARBAR', 9)" 2
	expect "SELECT * FROM delivery(1, 1)" "2|8"
}
