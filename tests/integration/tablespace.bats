#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of `oltpmark load --tablespace-dir` against a throwaway server:
# W=3 loaded over three directories in the table layout and in the
# warehouse layout (reloaded with --drop over the same directories), each
# holding exactly the rows of a single-directory load of the same seed,
# passing all twelve consistency conditions, with data files under every
# directory, recorded in oltpmark_meta and meta.json, and serving a short
# run whose committed New-Orders are in the database. Bad input (a
# directory that is missing, a file, not empty, given twice, on a device
# shared with another, not owned by or not reachable for the server's
# user; more directories than warehouses; no superuser) exits 2 with one
# line and leaves no tablespace and no table; a failure after CREATE
# TABLESPACE drops it again.
#
# The directories are plain directories of one filesystem (so the loads
# pass --allow-shared-device), under a directory of their own in /tmp
# that the server's user can enter. Each test runs in its own subshell,
# and the variables of setup_file reach the tests: what the linter
# cannot see.
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

# db_settings DB: the settings ALTER DATABASE gave database DB (for
# every role), as PostgreSQL's array text; empty when none.
db_settings() {
	q "$1" "SELECT s.setconfig FROM pg_db_role_setting s
		  JOIN pg_database d ON d.oid = s.setdatabase
		 WHERE d.datname = current_database() AND s.setrole = 0"
}

# newdir NAME: an empty directory TS_TOP/NAME owned by the server's user;
# prints its path.
newdir() {
	local d=$TS_TOP/$1

	rm -rf -- "$d"
	mkdir -- "$d"
	chown -- "$SERVER_USER" "$d"
	printf '%s\n' "$d"
}

# ts_count: tablespaces of ours in the cluster.
ts_count() {
	psql_value "SELECT count(*) FROM pg_tablespace
		     WHERE spcname LIKE 'oltpmark_%'"
}

# our_tables DB: how many of the nine tables (and oltpmark_meta) DB holds.
our_tables() {
	q "$1" "SELECT count(*) FROM unnest('{warehouse,district,customer,
		history,new_order,orders,order_line,item,stock,oltpmark_meta}'
		::text[]) n WHERE to_regclass(n) IS NOT NULL"
}

# fresh_db NAME: an empty database NAME (dropped first if it exists).
fresh_db() {
	psql_value "DROP DATABASE IF EXISTS $1 WITH (FORCE)"
	psql_value "CREATE DATABASE $1"
}

# reset_cluster: no database of these tests but an empty pop, and no
# tablespace of ours, whatever the tests before left.
reset_cluster() {
	local d

	for d in pop bad clash taken; do
		psql_value "DROP DATABASE IF EXISTS $d WITH (FORCE)"
	done
	for d in $(psql_value "SELECT spcname FROM pg_tablespace
				WHERE spcname LIKE 'oltpmark_%'"); do
		psql_value "DROP TABLESPACE $d"
	done
	psql_value "CREATE DATABASE pop"
}

# table_sums DB: "table|md5" of every row of the nine tables as text, the
# date columns (which hold the load's start) as NOW.
table_sums() {
	q "$1" "$(table_sums_sql)"
}

# assert_population DB: the W=3 population of clause 4.3.3.1 (the checks
# of load.bats), and row for row the single-directory load of setup_file.
assert_population() {
	run q "$1" "SELECT t, n FROM (
		          SELECT 1, 'warehouse', count(*) FROM warehouse
		UNION ALL SELECT 2, 'district', count(*) FROM district
		UNION ALL SELECT 3, 'customer', count(*) FROM customer
		UNION ALL SELECT 4, 'history', count(*) FROM history
		UNION ALL SELECT 5, 'new_order', count(*) FROM new_order
		UNION ALL SELECT 6, 'orders', count(*) FROM orders
		UNION ALL SELECT 7, 'item', count(*) FROM item
		UNION ALL SELECT 8, 'stock', count(*) FROM stock) c(k, t, n)
		ORDER BY k"
	[ "$output" = "warehouse|3
district|30
customer|90000
history|90000
new_order|27000
orders|90000
item|100000
stock|300000" ]
	run q "$1" "SELECT count(*) BETWEEN 891000 AND 909000
			 AND count(*) = (SELECT sum(o_ol_cnt) FROM orders)
		    FROM order_line"
	[ "$output" = t ]
	run q "$1" "SELECT count(*) FROM customer
		   WHERE c_id <= 1000 AND c_last <>
		     (SELECT string_agg((ARRAY['BAR','OUGHT','ABLE','PRI',
			'PRES','ESE','ANTI','CALLY','ATION','EING'])
			[substr(lpad((c_id - 1)::text, 3, '0'), k, 1)::int + 1],
			'' ORDER BY k) FROM generate_series(1, 3) k)"
	[ "$output" = 0 ]
	run q "$1" "SELECT count(*) FILTER (WHERE (o_id < 2101) <>
					  (o_carrier_id IS NOT NULL)),
			 count(*) FILTER (WHERE o_carrier_id NOT BETWEEN 1 AND 10)
		    FROM orders"
	[ "$output" = "0|0" ]
	run q "$1" "SELECT count(*) FROM order_line
		   WHERE (ol_o_id < 2101) <> (ol_delivery_d IS NOT NULL)
		      OR (ol_o_id < 2101 AND ol_amount <> 0)
		      OR (ol_o_id >= 2101 AND ol_amount NOT BETWEEN 0.01 AND 9999.99)"
	[ "$output" = 0 ]
	run q "$1" "SELECT (SELECT avg((i_data LIKE '%ORIGINAL%')::int)
			   BETWEEN 0.09 AND 0.11 FROM item),
			 (SELECT avg((s_data LIKE '%ORIGINAL%')::int)
			   BETWEEN 0.09 AND 0.11 FROM stock),
			 (SELECT avg((c_credit = 'BC')::int)
			   BETWEEN 0.08 AND 0.12 FROM customer)"
	[ "$output" = "t|t|t" ]
	# the same seed on one device: the same rows in every table
	[ "$(table_sums "$1")" = "$(cat "$BATS_FILE_TMPDIR/one.sums")" ]
	# keys, indexes, functions and statistics are in place; COPY FREEZE
	# left every page of every table (or partition) all-visible
	# (in the tables' schema: the warehouse layout's routes have copies)
	run q "$1" "SELECT count(*) FROM pg_proc
		   WHERE proname IN ('new_order', 'payment', 'order_status',
				     'delivery', 'stock_level')
		     AND pronamespace = current_schema()::regnamespace"
	[ "$output" = 5 ]
	run q "$1" "SELECT count(*) FROM pg_class
		   WHERE relkind = 'r' AND relname ~ '^(stock|customer|item)'
		     AND relallvisible <> relpages"
	[ "$output" = 0 ]
	# statistics of every table, or of every partition of one
	run q "$1" "SELECT count(*) FROM pg_class c
		   WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace
		     AND c.relname NOT IN ('oltpmark_meta', 'oltpmark_routes')
		     AND NOT EXISTS (SELECT 1 FROM pg_stats s
				      WHERE s.tablename = c.relname)"
	[ "$output" = 0 ]
}

# assert_checks DB: all twelve consistency conditions pass.
assert_checks() {
	run "$OLTPMARK" check --conninfo "$(db "$1")"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^C[0-9]* *PASS  ' <<<"$output")" -eq 12 ]
}

# assert_files DIR...: each DIR holds data files of PostgreSQL
# (PG_<version>_<catalog>/<database>/<file>).
assert_files() {
	local d n

	for d in "$@"; do
		n=$(find "$d" -mindepth 3 -maxdepth 3 -path "$d/PG_*" -type f |
			wc -l)
		echo "$d: $n files"
		((n > 0))
	done
}

# assert_run DB LAYOUT MODE SECONDS: a paced run (PACE) of SECONDS commits,
# the database gained exactly its committed New-Orders, and meta.json
# records the layout with our directories.
assert_run() {
	local out=$BATS_TEST_TMPDIR/run-$3 before after ok

	before=$(q "$1" "SELECT sum(d_next_o_id) FROM district")
	run "$OLTPMARK" run -w 3 -d "$4" --ramp-up 0 "${PACE[@]}" -c 2 \
		--progress 0 --tx-mode "$3" --conninfo "$(db "$1")" --out "$out"
	echo "$output"
	[ "$status" -eq 0 ]
	after=$(q "$1" "SELECT sum(d_next_o_id) FROM district")
	ok=$(awk -F, '$3 == "new_order" && $4 == "ok" { n++ } END { print n + 0 }' \
		"$out/mix.csv")
	echo "committed New-Orders: $ok, gained: $((after - before))"
	((ok > 0 && ok == after - before))
	run jq -r '.server.layout.layout,
		   (.server.layout.tablespaces[] | select(.name | startswith("oltpmark_ts")) | .directory)' \
		"$out/meta.json"
	echo "$output"
	[ "${lines[0]}" = "$2" ]
	[ "${lines[1]}" = "$(realpath "$D1")" ]
	[ "${lines[3]}" = "$(realpath "$D3")" ]
	[ "$(jq '[.server.layout.tablespaces[].relations[]] | length' \
		"$out/meta.json")" -ge 19 ]
	# the data directory's own device, beside the tablespaces'
	run jq -r '.server.layout.data_directory |
		(.directory, (has("device") or has("device_error")))' "$out/meta.json"
	[ "${lines[0]}" = "$(jq -r .server.data_directory "$out/meta.json")" ]
	[ "${lines[1]}" = true ]
	# the plan settings the run had, recorded
	run jq -r '.server.settings | .plan_cache_mode, .jit, .random_page_cost' \
		"$out/meta.json"
	if [[ $2 == warehouse ]]; then
		[ "$output" = $'force_generic_plan\noff\n1.1' ]
	else
		[ "$output" = $'auto\non\n4' ]
	fi
}

setup_file() {
	# track_functions: which schema's functions the runs called
	pg_throwaway_start -c fsync=off -c full_page_writes=off \
		-c track_functions=pl
	SERVER_USER=$(stat -c %U "$PGTEST_DIR/data")
	TS_TOP=$(mktemp -d /tmp/oltpmark-ts.XXXXXX)
	chmod 755 "$TS_TOP"
	export SERVER_USER TS_TOP
	D1=$(newdir d1)
	D2=$(newdir d2)
	D3=$(newdir d3)
	export D1 D2 D3
	psql_value "CREATE DATABASE one"
	"$OLTPMARK" load -w 3 --seed 42 --conninfo "$(db one)"
	table_sums one >"$BATS_FILE_TMPDIR/one.sums"
	psql_value "CREATE DATABASE pop"
}

teardown_file() {
	pg_throwaway_stop
	if [[ -n ${TS_TOP:-} && -d $TS_TOP ]]; then
		rm -rf -- "$TS_TOP"
	fi
}

@test "table layout, W=3 over 3 directories: each relation in its tablespace, the same rows, check and a run pass" {
	run "$OLTPMARK" load -w 3 --seed 42 --drop --tablespace-dir "$D1" \
		--tablespace-dir "$D2" --tablespace-dir "$D3" \
		--allow-shared-device --conninfo "$(db pop)"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"share a device (--allow-shared-device)"* ]]
	[[ ${lines[-1]} == "loaded 3 warehouses in "*"; layout table over 3 tablespaces" ]]
	# nine tables and ten indexes, each in one of our tablespaces, no
	# index in its table's
	run q pop "SELECT count(*) FROM pg_class c
		     JOIN pg_tablespace t ON t.oid = c.reltablespace
		    WHERE t.spcname IN ('oltpmark_ts1', 'oltpmark_ts2',
					'oltpmark_ts3')
		      AND c.relnamespace = 'public'::regnamespace"
	[ "$output" = 19 ]
	run q pop "SELECT count(*) FROM pg_index x
		     JOIN pg_class i ON i.oid = x.indexrelid
		     JOIN pg_class r ON r.oid = x.indrelid
		    WHERE i.reltablespace = r.reltablespace
		      AND r.relnamespace = 'public'::regnamespace"
	[ "$output" = 0 ]
	run q pop "SELECT spcname FROM pg_class c JOIN pg_tablespace t
		     ON t.oid = c.reltablespace WHERE relname = 'stock'"
	[ "$output" = oltpmark_ts1 ]
	run q pop "SELECT pg_tablespace_location(oid) FROM pg_tablespace
		    WHERE spcname = 'oltpmark_ts3'"
	[ "$output" = "$(realpath "$D3")" ]
	assert_files "$D1" "$D2" "$D3"
	assert_population pop
	assert_checks pop
	# recorded in oltpmark_meta
	run "$OLTPMARK" check --meta --conninfo "$(db pop)"
	[ "$status" -eq 0 ]
	[[ $output == *$'\nlayout=table\n'* ]]
	jq -e '.layout == "table" and (.tablespaces | map(.name) |
		index("oltpmark_ts2") != null)' <<<"$(sed -n 's/^layout_map=//p' <<<"$output")"
	assert_run pop table procedure 3
}

@test "warehouse layout, W=3 over the same 3 directories after --drop: partitions, the same rows, check and runs pass" {
	run "$OLTPMARK" load -w 3 --seed 42 --drop --layout warehouse \
		--tablespace-dir "$D1" --tablespace-dir "$D2" \
		--tablespace-dir "$D3" --allow-shared-device \
		--conninfo "$(db pop)"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[-1]} == *"; layout warehouse over 3 tablespaces" ]]
	[ "$(ts_count)" -eq 3 ]
	# eight tables of three partitions, partition k in tablespace k
	run q pop "SELECT count(*) FROM pg_inherits i
		     JOIN pg_class p ON p.oid = i.inhrelid
		     JOIN pg_tablespace t ON t.oid = p.reltablespace
		    WHERE p.relkind = 'r'
		      AND t.spcname = 'oltpmark_ts' || substring(
				p.relnamespace::regnamespace::text
				FROM '^oltpmark_p([0-9]+)$')
		      AND p.relname = i.inhparent::regclass::text"
	[ "$output" = 24 ]
	run q pop "SELECT pg_get_expr(relpartbound, oid) FROM pg_class
		    WHERE oid IN ('oltpmark_p1.stock'::regclass,
				  'oltpmark_p2.order_line'::regclass,
				  'oltpmark_p3.history'::regclass)
		    ORDER BY relname"
	[ "$output" = "FOR VALUES FROM (3) TO (4)
FOR VALUES FROM (2) TO (3)
FOR VALUES FROM (1) TO (2)" ]
	run q pop "SELECT string_agg(c.oid::regclass || '@' || t.spcname, ' '
				  ORDER BY c.oid::regclass::text)
		     FROM pg_class c JOIN pg_tablespace t
		       ON t.oid = c.reltablespace
		    WHERE c.oid IN ('item'::regclass, 'item_pkey'::regclass,
				    'oltpmark_p2.stock_pkey'::regclass,
				    'oltpmark_p3.customer_name_idx'::regclass)"
	[ "$output" = "item@oltpmark_ts1 item_pkey@oltpmark_ts1 oltpmark_p2.stock_pkey@oltpmark_ts2 oltpmark_p3.customer_name_idx@oltpmark_ts3" ]
	# the keys of the whole tables adopted the partitions' ones
	run q pop "SELECT count(*) FROM pg_constraint
		    WHERE contype = 'p' AND conparentid = 0
		      AND connamespace = 'public'::regnamespace"
	[ "$output" = 8 ]
	run q pop "SELECT count(*) FROM pg_class WHERE relkind = 'I'"
	[ "$output" = 9 ]
	# generic plans without JIT for the database (docs/layout.md)
	[ "$(db_settings pop)" = "{plan_cache_mode=force_generic_plan,jit=off,random_page_cost=1.1}" ]
	[ "$(q pop "SHOW plan_cache_mode")" = force_generic_plan ]
	assert_files "$D1" "$D2" "$D3"
	assert_population pop
	assert_checks pop
	run "$OLTPMARK" check --meta --conninfo "$(db pop)"
	[[ $output == *$'\nlayout=warehouse\n'* ]]
	# the routes: per partition a home schema and a remote one
	run q pop "SELECT string_agg(concat_ws(':', w_first, w_last,
					       home_schema, remote_schema), ' '
				  ORDER BY w_first) FROM oltpmark_routes"
	[ "$output" = "1:1:oltpmark_p1:oltpmark_p1_remote 2:2:oltpmark_p2:oltpmark_p2_remote 3:3:oltpmark_p3:oltpmark_p3_remote" ]
	# the partitions are at home under their tables' names
	run q pop "SELECT string_agg(DISTINCT c.relname, ',') FROM pg_class c
		    WHERE c.relnamespace = 'oltpmark_p2'::regnamespace
		      AND c.relkind = 'r'"
	[ "$output" = "customer,district,history,new_order,order_line,orders,stock,warehouse" ]
	# the copies name their tables: the partition's, the parents' of
	# STOCK and CUSTOMER for the remote one; no view, no search_path
	run q pop "SELECT prosrc FROM pg_proc
		    WHERE oid = 'oltpmark_p2.new_order'::regproc"
	[[ $output == *"UPDATE oltpmark_p2.stock"* ]]
	[[ $output == *'JOIN "public".item'* ]]
	run q pop "SELECT prosrc FROM pg_proc
		    WHERE oid = 'oltpmark_p2_remote.new_order'::regproc"
	[[ $output == *'UPDATE "public".stock'* ]]
	[[ $output == *"UPDATE oltpmark_p2.district"* ]]
	[ "$(q pop "SELECT count(*) FROM information_schema.views
		     WHERE table_schema LIKE 'oltpmark\_p%'")" = 0 ]
	[ "$(q pop "SELECT count(*) FROM pg_proc
		     WHERE pronamespace::regnamespace::text LIKE 'oltpmark\_p%'
		       AND proconfig IS NOT NULL")" = 0 ]
	# the transactions, in both modes, on the partitions
	assert_run pop warehouse procedure 3
	[ "$(jq .server.routes "$BATS_TEST_TMPDIR/run-procedure/meta.json")" = 3 ]
	# meta.json names a partition with its schema, in its tablespace
	[ "$(jq -r '.server.layout.tablespaces[]
		    | select(.relations | index("oltpmark_p2.stock")) | .name' \
		"$BATS_TEST_TMPDIR/run-procedure/meta.json")" = oltpmark_ts2 ]
	assert_run pop warehouse sql 3
	run "$OLTPMARK" check --conninfo "$(db pop)"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^C[0-9]* *PASS  ' <<<"$output")" -ge 11 ]
	# procedure mode called the partitions' copies, never the parents';
	# W=3 over 3 makes every remote payment another partition's
	run q pop "SELECT string_agg(schemaname || '.' || funcname, ' '
				  ORDER BY 1)
		     FROM (SELECT schemaname, funcname, sum(calls)
			     FROM pg_stat_user_functions
			    GROUP BY 1, 2) f
		    WHERE funcname IN ('new_order', 'payment')"
	echo "$output"
	[[ " $output " == *" oltpmark_p1.new_order "* ]]
	[[ " $output " == *" oltpmark_p3.payment "* ]]
	[[ " $output " == *" oltpmark_p"[123]"_remote.payment "* ]]
	[[ " $output " != *" public."* ]]
	# a damaged oltpmark_routes (overlapping ranges) stops the run at
	# its start with one line, instead of calling wrong copies
	q pop "UPDATE oltpmark_routes SET w_last = 2 WHERE w_first = 1"
	run "$OLTPMARK" run -w 3 -d 2 --ramp-up 0 "${PACE[@]}" -c 1 \
		--progress 0 --conninfo "$(db pop)" --out "$BATS_TEST_TMPDIR/bad-routes"
	echo "$output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"oltpmark_routes: bad row 2"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/bad-routes/mix.csv" ]
	q pop "UPDATE oltpmark_routes SET w_last = 1 WHERE w_first = 1"
}

@test "--drop into a single directory drops our tablespaces and empties the directories" {
	run "$OLTPMARK" load -w 2 --seed 42 --drop --layout warehouse \
		--tablespace-dir "$D1" --tablespace-dir "$D2" \
		--allow-shared-device --conninfo "$(db pop)"
	[ "$status" -eq 0 ]
	[ "$(ts_count)" -eq 2 ]
	# as a load that failed before its routes leaves it: the partitions'
	# schemas, found through the partitions alone, must go too
	q pop "DROP SCHEMA oltpmark_p1_remote, oltpmark_p2_remote CASCADE;
	       DROP TABLE oltpmark_routes"
	run "$OLTPMARK" load -w 1 --drop --conninfo "$(db pop)"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(ts_count)" -eq 0 ]
	[ -z "$(find "$D1" "$D2" "$D3" -mindepth 1)" ]
	# the warehouse load's plan settings and routes went with its layout
	[ -z "$(db_settings pop)" ]
	[ "$(q pop "SELECT count(*) FROM pg_namespace
		     WHERE nspname LIKE 'oltpmark\_p%'")" = 0 ]
	[ "$(q pop "SELECT to_regclass('oltpmark_routes') IS NULL")" = t ]
	run "$OLTPMARK" check --meta --conninfo "$(db pop)"
	[[ $output == *$'\nlayout=single\n'* ]]
	[[ $output == *'"name":"pg_default"'* ]]
	run "$OLTPMARK" check --quick --conninfo "$(db pop)"
	[ "$status" -eq 0 ]
}

@test "bad input: one line naming the problem, exit 2, no tablespace and no table left" {
	local full file empty shut nobody
	local -a cases

	reset_cluster
	fresh_db bad
	full=$(newdir full)
	touch "$full/something"
	file=$TS_TOP/file
	touch "$file"
	empty=$(newdir empty)
	cases=(
		"-w 3 --tablespace-dir $TS_TOP/missing|does not exist"
		"-w 3 --tablespace-dir $file|is not a directory"
		"-w 3 --tablespace-dir $full|is not empty"
		"-w 3 --tablespace-dir $empty --tablespace-dir $empty/|given twice"
		"-w 3 --tablespace-dir $empty --tablespace-dir $D2|same device"
		"-w 2 --layout warehouse --tablespace-dir $D1 --tablespace-dir $D2 --tablespace-dir $D3 --allow-shared-device|3 tablespace directories for 2 warehouses"
		"-w 3 --layout warehouse|--layout needs --tablespace-dir"
		"-w 3 --allow-shared-device|--allow-shared-device needs --tablespace-dir"
		"-w 3 --layout striped --tablespace-dir $empty|--layout"
	)
	if ((EUID == 0)); then
		# owned by root, not by the server's user
		nobody=$TS_TOP/rootowned
		mkdir "$nobody"
		cases+=("-w 3 --tablespace-dir $nobody|is owned by root")
		# the server's user cannot get in
		shut=$TS_TOP/shut
		mkdir -m 700 "$shut"
		mkdir "$shut/in"
		chown "$SERVER_USER" "$shut/in"
		cases+=("-w 3 --tablespace-dir $shut/in|the server cannot use")
	fi
	local c args want

	for c in "${cases[@]}"; do
		IFS='|' read -r args want <<<"$c"
		# shellcheck disable=SC2086
		run "$OLTPMARK" load $args --conninfo "$(db bad)"
		echo "$args -> $status: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"$want"* ]]
		[ "$(ts_count)" -eq 0 ]
		[ "$(our_tables bad)" -eq 0 ]
	done
	# the directories are as they were
	[ -z "$(ls -A "$empty")" ]
	[ "$(ls -A "$full")" = something ]
}

@test "bad input: a role that is not a superuser cannot create tablespaces" {
	reset_cluster
	fresh_db bad
	psql_value "DROP ROLE IF EXISTS plain_role"
	psql_value "CREATE ROLE plain_role LOGIN"
	psql_value "GRANT ALL ON DATABASE bad TO plain_role"
	q bad "GRANT ALL ON SCHEMA public TO plain_role"
	run "$OLTPMARK" load -w 3 --tablespace-dir "$D1" \
		--conninfo "$(db bad) user=plain_role"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"needs a superuser, and role plain_role is not one"* ]]
	[ "$(ts_count)" -eq 0 ]
	[ "$(our_tables bad)" -eq 0 ]
	psql_value "DROP DATABASE bad WITH (FORCE)"
	psql_value "DROP ROLE plain_role"
}

@test "a failure after CREATE TABLESPACE drops the tablespaces again, in both layouts" {
	local layout d

	reset_cluster
	fresh_db clash
	# a type named stock: CREATE TABLE stock fails after the tablespaces
	# exist (the check for our tables looks for relations, not types)
	q clash "CREATE DOMAIN stock AS integer"
	for layout in table warehouse; do
		d=$(newdir clash)
		run "$OLTPMARK" load -w 3 --layout "$layout" \
			--tablespace-dir "$d" --conninfo "$(db clash)"
		echo "$output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"tables.sql"*"stock"* ]]
		[ "$(ts_count)" -eq 0 ]
		[ "$(our_tables clash)" -eq 0 ]
		[ -z "$(ls -A "$d")" ]
	done
}

@test "a tablespace name of another database is refused and left alone" {
	local other

	reset_cluster
	fresh_db taken
	other=$(newdir other)
	psql_value "CREATE TABLESPACE oltpmark_ts1 LOCATION '$other'"
	run "$OLTPMARK" load -w 1 --drop --tablespace-dir "$D1" \
		--conninfo "$(db taken)"
	echo "$output"
	psql_value "DROP TABLESPACE oltpmark_ts1"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"tablespace oltpmark_ts1 already exists (at $other)"* ]]
	[ "$(our_tables taken)" -eq 0 ]
}

@test "--help and the docs name the options" {
	local o

	run "$OLTPMARK" load --help
	[ "$status" -eq 0 ]
	for o in --tablespace-dir --layout --allow-shared-device; do
		[[ $output == *"$o"* ]]
		grep -q -- "$o" "$REPO/docs/layout.md"
	done
}
