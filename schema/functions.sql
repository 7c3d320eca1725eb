-- SPDX-License-Identifier: GPL-2.0-or-later
-- The five TPC-C transactions (clause 2; docs/tpcc.md, Transaction profiles)
-- as PL/pgSQL functions, one call = one database transaction, plus
-- oltpmark_deliveries_ran() for `oltpmark check`. docs/schema.md describes
-- the interface; this file says why each step is written as it is.
--
-- Isolation: the functions are written for READ COMMITTED (PostgreSQL's
-- default). Every row a writing transaction reads and depends on is either
-- never changed by the workload (W_TAX, ITEM, C_LAST, C_DISCOUNT, ...) or
-- read by the UPDATE ... RETURNING that locks it, which in READ COMMITTED
-- waits for a concurrent writer and then works on the newest committed
-- version, so no update is ever lost. The read-only transactions are STABLE
-- functions: all their statements share the snapshot of the calling query.
-- They are also correct under REPEATABLE READ and SERIALIZABLE (where the
-- driver retries SQLSTATE 40001/40P01).
--
-- Deadlocks: every transaction takes its row locks in one global order:
-- CUSTOMER, then DISTRICT, then WAREHOUSE (Payment); DISTRICT, then STOCK
-- sorted by (S_W_ID, S_I_ID) (New-Order); per district in ascending D_ID,
-- NEW-ORDER, ORDER, ORDER-LINE, CUSTOMER (Delivery). No transaction waits
-- for a lock while holding one that comes later in another's order.
--
-- Names: input parameters are prefixed in_, so they never collide with
-- column names; RETURNS TABLE columns carry the plain column names the
-- driver reads, and #variable_conflict use_column makes an unqualified name
-- inside SQL always mean the table column.
--
-- CREATE OR REPLACE makes the file re-runnable; changing a function's
-- result columns needs a DROP FUNCTION first (PostgreSQL refuses to change
-- the return type in place).

-- New-Order (clause 2.4.2.2). Lines are given as three arrays of equal
-- length (5..15): item, supplying warehouse, quantity; OL_NUMBER is the
-- 1-based position in the arrays. An item id absent from ITEM raises
-- SQLSTATE OM001 "Item number is not valid" after every valid line has been
-- processed (2.4.2.3), which rolls the whole transaction back; the DETAIL
-- carries O_ID, C_LAST and C_CREDIT, which the terminal still shows.
CREATE OR REPLACE FUNCTION new_order(in_w_id integer, in_d_id integer,
	in_c_id integer, in_ol_i_id integer[], in_ol_supply_w_id integer[],
	in_ol_quantity integer[])
RETURNS TABLE (o_id integer, total_amount numeric, c_last text,
	c_credit text, c_discount numeric, w_tax numeric, d_tax numeric,
	o_ol_cnt integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
	v_ol_cnt integer := cardinality(in_ol_i_id);
	v_entry_d timestamp := localtimestamp;
	v_o_id integer;
	v_w_tax numeric;
	v_d_tax numeric;
	v_c_discount numeric;
	v_c_last text;
	v_c_credit text;
	v_all_local integer;
	v_sum numeric := 0;	-- sum of OL_AMOUNT of the valid lines
	v_bad_i_id integer;	-- first item id found missing in ITEM
	v_amount numeric;
	v_s_quantity integer;
	v_s_dist text;
	v_s_data text;
	-- The ORDER-LINE rows, gathered in the stock loop and inserted by one
	-- statement; indexed by loop step, not by OL_NUMBER.
	v_ol_number integer[] := '{}';
	v_ol_i_id integer[] := '{}';
	v_ol_supply_w_id integer[] := '{}';
	v_ol_quantity integer[] := '{}';
	v_ol_amount numeric[] := '{}';
	v_ol_dist_info text[] := '{}';
	-- brand-generic per OL_NUMBER (2.4.2.2): part of the profile's work and
	-- of the terminal's output; the driver displays no per-line output, so
	-- it is computed and not returned (docs/schema.md, deviations).
	v_brand_generic char(1)[];
	r record;
BEGIN
	-- Input checks (2.2.2.4: input is valid before the transaction starts;
	-- these only catch a broken driver, with SQLSTATE 22023).
	IF v_ol_cnt IS NULL OR v_ol_cnt < 1 OR v_ol_cnt > 15
	   OR cardinality(in_ol_supply_w_id) IS DISTINCT FROM v_ol_cnt
	   OR cardinality(in_ol_quantity) IS DISTINCT FROM v_ol_cnt
	   OR array_position(in_ol_i_id, NULL) IS NOT NULL
	   OR array_position(in_ol_supply_w_id, NULL) IS NOT NULL
	   OR array_position(in_ol_quantity, NULL) IS NOT NULL THEN
		RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value',
			MESSAGE = 'new_order: need 1..15 lines with equal, '
				  'non-null item, supply warehouse and '
				  'quantity arrays';
	END IF;
	IF in_d_id IS NULL OR in_d_id NOT BETWEEN 1 AND 10 THEN
		RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value',
			MESSAGE = format('new_order: district %s not in 1..10',
					 in_d_id);
	END IF;

	v_brand_generic := array_fill('G'::char(1), ARRAY[v_ol_cnt]);

	SELECT w.w_tax INTO v_w_tax FROM warehouse w WHERE w.w_id = in_w_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION USING ERRCODE = 'no_data_found',
			MESSAGE = format('new_order: no warehouse %s', in_w_id);
	END IF;

	-- O_ID is D_NEXT_O_ID before the increment. The row lock taken here
	-- serialises the New-Orders of one district, so O_IDs are consecutive
	-- and a rolled-back order gives its O_ID back.
	UPDATE district SET d_next_o_id = d_next_o_id + 1
	 WHERE d_w_id = in_w_id AND d_id = in_d_id
	RETURNING d_next_o_id - 1, d_tax INTO v_o_id, v_d_tax;
	IF NOT FOUND THEN
		RAISE EXCEPTION USING ERRCODE = 'no_data_found',
			MESSAGE = format('new_order: no district %s/%s',
					 in_w_id, in_d_id);
	END IF;

	-- No lock: the workload never changes these three columns.
	SELECT c.c_discount, c.c_last, c.c_credit
	  INTO v_c_discount, v_c_last, v_c_credit
	  FROM customer c
	 WHERE c.c_w_id = in_w_id AND c.c_d_id = in_d_id AND c.c_id = in_c_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION USING ERRCODE = 'no_data_found',
			MESSAGE = format('new_order: no customer %s/%s/%s',
					 in_w_id, in_d_id, in_c_id);
	END IF;

	v_all_local := CASE WHEN in_w_id = ALL (in_ol_supply_w_id)
			    THEN 1 ELSE 0 END;
	INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d,
			    o_carrier_id, o_ol_cnt, o_all_local)
	VALUES (v_o_id, in_d_id, in_w_id, in_c_id, v_entry_d, NULL,
		v_ol_cnt, v_all_local);
	INSERT INTO new_order (no_o_id, no_d_id, no_w_id)
	VALUES (v_o_id, in_d_id, in_w_id);

	-- All ITEM rows in one read (one snapshot, so an item ordered twice
	-- shows one price), then the lines in (supply warehouse, item) order:
	-- two New-Orders lock their common STOCK rows in the same order and
	-- cannot deadlock. A missing item is noted and skipped, so every
	-- valid line is processed before the rollback (2.4.2.3).
	FOR r IN
		SELECT l.pos::integer AS pos, l.i_id, l.supply_w_id, l.quantity,
		       i.i_price, i.i_data
		  FROM unnest(in_ol_i_id, in_ol_supply_w_id, in_ol_quantity)
		       WITH ORDINALITY AS l(i_id, supply_w_id, quantity, pos)
		  LEFT JOIN item i ON i.i_id = l.i_id
		 ORDER BY l.supply_w_id, l.i_id, l.pos
	LOOP
		IF r.i_price IS NULL THEN
			v_bad_i_id := coalesce(v_bad_i_id, r.i_id);
			CONTINUE;
		END IF;

		-- Stock at the SUPPLYING warehouse; restock when fewer than
		-- 10 would remain (2.4.2.2: S_QUANTITY - OL_QUANTITY >= 10).
		UPDATE stock
		   SET s_quantity = CASE
				WHEN s_quantity - r.quantity >= 10
				THEN s_quantity - r.quantity
				ELSE s_quantity - r.quantity + 91 END,
		       s_ytd = s_ytd + r.quantity,
		       s_order_cnt = s_order_cnt + 1,
		       s_remote_cnt = s_remote_cnt +
				CASE WHEN r.supply_w_id <> in_w_id
				     THEN 1 ELSE 0 END
		 WHERE s_w_id = r.supply_w_id AND s_i_id = r.i_id
		RETURNING s_quantity,
			  CASE in_d_id
				WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02
				WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
				WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
				WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
				WHEN 9 THEN s_dist_09 ELSE s_dist_10 END,
			  s_data
		     INTO v_s_quantity, v_s_dist, v_s_data;
		IF NOT FOUND THEN
			RAISE EXCEPTION USING ERRCODE = 'no_data_found',
				MESSAGE = format('new_order: no stock for '
						 'item %s at warehouse %s',
						 r.i_id, r.supply_w_id);
		END IF;

		-- No tax or discount on the line (2.4.2.2).
		v_amount := r.quantity * r.i_price;
		v_sum := v_sum + v_amount;
		IF strpos(r.i_data, 'ORIGINAL') > 0
		   AND strpos(v_s_data, 'ORIGINAL') > 0 THEN
			v_brand_generic[r.pos] := 'B';
		END IF;

		v_ol_number := v_ol_number || r.pos;
		v_ol_i_id := v_ol_i_id || r.i_id;
		v_ol_supply_w_id := v_ol_supply_w_id || r.supply_w_id;
		v_ol_quantity := v_ol_quantity || r.quantity;
		v_ol_amount := v_ol_amount || v_amount;
		v_ol_dist_info := v_ol_dist_info || v_s_dist;
	END LOOP;

	INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,
				ol_supply_w_id, ol_delivery_d, ol_quantity,
				ol_amount, ol_dist_info)
	SELECT v_o_id, in_d_id, in_w_id, l.num, l.i_id, l.supply_w_id, NULL,
	       l.quantity, l.amount, l.dist_info
	  FROM unnest(v_ol_number, v_ol_i_id, v_ol_supply_w_id, v_ol_quantity,
		      v_ol_amount, v_ol_dist_info)
	       AS l(num, i_id, supply_w_id, quantity, amount, dist_info);

	IF v_bad_i_id IS NOT NULL THEN
		RAISE EXCEPTION USING ERRCODE = 'OM001',
			MESSAGE = 'Item number is not valid',
			DETAIL = format('o_id=%s c_last=%s c_credit=%s i_id=%s',
					v_o_id, v_c_last, v_c_credit,
					v_bad_i_id);
	END IF;

	o_id := v_o_id;
	-- 2.4.2.2: sum(OL_AMOUNT) * (1 - C_DISCOUNT) * (1 + W_TAX + D_TAX),
	-- exact, rounded to cents for display only.
	total_amount := round(v_sum * (1 - v_c_discount)
			      * (1 + v_w_tax + v_d_tax), 2);
	c_last := v_c_last;
	c_credit := v_c_credit;
	c_discount := v_c_discount;
	w_tax := v_w_tax;
	d_tax := v_d_tax;
	o_ol_cnt := v_ol_cnt;
	RETURN NEXT;
END;
$$;

-- Payment (clause 2.5.2.2). The customer is (in_c_w_id, in_c_d_id,
-- in_c_id), or, when in_c_id is NULL or 0, the row at position ceil(n/2)
-- of the n customers named in_c_last in that district ordered by C_FIRST.
-- W_YTD and D_YTD grow at the paying warehouse and district (in_w_id,
-- in_d_id). Returns one row: the customer (c_data = the first 200
-- characters of the new C_DATA for a BC customer, else NULL), the paying
-- warehouse's and district's name and address, and H_DATE.
CREATE OR REPLACE FUNCTION payment(in_w_id integer, in_d_id integer,
	in_c_w_id integer, in_c_d_id integer, in_c_id integer,
	in_c_last text, in_h_amount numeric)
RETURNS TABLE (c_id integer, c_balance numeric, c_credit text,
	c_first text, c_middle text, c_last text, c_street_1 text,
	c_street_2 text, c_city text, c_state text, c_zip text, c_phone text,
	c_since timestamp, c_credit_lim numeric, c_discount numeric,
	c_data text, w_name text, w_street_1 text, w_street_2 text,
	w_city text, w_state text, w_zip text, d_name text, d_street_1 text,
	d_street_2 text, d_city text, d_state text, d_zip text,
	h_date timestamp)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
	-- H_AMOUNT is snum(6,2); the cast makes "12.5" read "12.50" in C_DATA.
	v_h_amount numeric(6,2) := in_h_amount;
	v_h_date timestamp := localtimestamp;
	v_c_id integer := in_c_id;
	c record;
	d record;
	w record;
BEGIN
	-- By last name: one pass over the (C_W_ID, C_D_ID, C_LAST) range of
	-- customer_name_idx; row number (n + 1) / 2 is ceil(n/2), i.e.
	-- ORDER BY c_first OFFSET (n - 1) / 2 LIMIT 1. C_ID breaks ties in
	-- C_FIRST so the choice is reproducible. No lock: C_LAST and C_FIRST
	-- never change and no customer is ever added or removed.
	IF v_c_id IS NULL OR v_c_id = 0 THEN
		SELECT s.c_id INTO v_c_id
		  FROM (SELECT x.c_id,
			       row_number() OVER (ORDER BY x.c_first,
							x.c_id) AS pos,
			       count(*) OVER () AS n
			  FROM customer x
			 WHERE x.c_w_id = in_c_w_id AND x.c_d_id = in_c_d_id
			   AND x.c_last = in_c_last) s
		 WHERE s.pos = (s.n + 1) / 2;
		IF NOT FOUND THEN
			RAISE EXCEPTION USING ERRCODE = 'no_data_found',
				MESSAGE = format('payment: no customer named '
						 '%s in %s/%s', in_c_last,
						 in_c_w_id, in_c_d_id);
		END IF;
	END IF;

	-- The customer first and the warehouse last: every Payment of a
	-- warehouse updates its one WAREHOUSE row, the hottest row of TPC-C,
	-- so it is locked for as short a time as possible (operation order
	-- within the transaction is free, 2.3.1). Bad credit: the payment is
	-- put in front of C_DATA and the oldest text falls off at 500
	-- characters (2.5.2.2).
	UPDATE customer x
	   SET c_balance = x.c_balance - v_h_amount,
	       c_ytd_payment = x.c_ytd_payment + v_h_amount,
	       c_payment_cnt = x.c_payment_cnt + 1,
	       c_data = CASE WHEN x.c_credit = 'BC'
			THEN left(format('%s %s %s %s %s %s|', x.c_id,
					 x.c_d_id, x.c_w_id, in_d_id, in_w_id,
					 v_h_amount) || x.c_data, 500)
			ELSE x.c_data END
	 WHERE x.c_w_id = in_c_w_id AND x.c_d_id = in_c_d_id
	   AND x.c_id = v_c_id
	RETURNING x.* INTO c;
	IF NOT FOUND THEN
		RAISE EXCEPTION USING ERRCODE = 'no_data_found',
			MESSAGE = format('payment: no customer %s/%s/%s',
					 in_c_w_id, in_c_d_id, v_c_id);
	END IF;

	UPDATE district x SET d_ytd = x.d_ytd + v_h_amount
	 WHERE x.d_w_id = in_w_id AND x.d_id = in_d_id
	RETURNING x.* INTO d;
	IF NOT FOUND THEN
		RAISE EXCEPTION USING ERRCODE = 'no_data_found',
			MESSAGE = format('payment: no district %s/%s',
					 in_w_id, in_d_id);
	END IF;

	UPDATE warehouse x SET w_ytd = x.w_ytd + v_h_amount
	 WHERE x.w_id = in_w_id
	RETURNING x.* INTO w;
	IF NOT FOUND THEN
		RAISE EXCEPTION USING ERRCODE = 'no_data_found',
			MESSAGE = format('payment: no warehouse %s', in_w_id);
	END IF;

	INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id,
			     h_date, h_amount, h_data)
	VALUES (v_c_id, in_c_d_id, in_c_w_id, in_d_id, in_w_id, v_h_date,
		v_h_amount, w.w_name || '    ' || d.d_name);

	c_id := c.c_id;
	c_balance := c.c_balance;
	c_credit := c.c_credit;
	c_first := c.c_first;
	c_middle := c.c_middle;
	c_last := c.c_last;
	c_street_1 := c.c_street_1;
	c_street_2 := c.c_street_2;
	c_city := c.c_city;
	c_state := c.c_state;
	c_zip := c.c_zip;
	c_phone := c.c_phone;
	c_since := c.c_since;
	c_credit_lim := c.c_credit_lim;
	c_discount := c.c_discount;
	c_data := CASE WHEN c.c_credit = 'BC' THEN left(c.c_data, 200) END;
	w_name := w.w_name;
	w_street_1 := w.w_street_1;
	w_street_2 := w.w_street_2;
	w_city := w.w_city;
	w_state := w.w_state;
	w_zip := w.w_zip;
	d_name := d.d_name;
	d_street_1 := d.d_street_1;
	d_street_2 := d.d_street_2;
	d_city := d.d_city;
	d_state := d.d_state;
	d_zip := d.d_zip;
	h_date := v_h_date;
	RETURN NEXT;
END;
$$;

-- Order-Status (clause 2.6.2.2), read-only. The customer is chosen as in
-- Payment (in_c_id NULL or 0: by in_c_last) in the home warehouse. Returns
-- one row per ORDER-LINE of the customer's latest order, in OL_NUMBER
-- order, each repeating the customer and order columns; a customer without
-- an order gives one row with NULL order and line columns. STABLE: all
-- reads share the calling statement's snapshot, so the order and its lines
-- are seen as of one instant (no half-delivered order).
CREATE OR REPLACE FUNCTION order_status(in_w_id integer, in_d_id integer,
	in_c_id integer, in_c_last text)
RETURNS TABLE (c_id integer, c_first text, c_middle text, c_last text,
	c_balance numeric, o_id integer, o_entry_d timestamp,
	o_carrier_id integer, ol_number integer, ol_i_id integer,
	ol_supply_w_id integer, ol_quantity integer, ol_amount numeric,
	ol_delivery_d timestamp)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
	v_c_id integer := in_c_id;
BEGIN
	IF v_c_id IS NULL OR v_c_id = 0 THEN
		SELECT s.c_id INTO v_c_id
		  FROM (SELECT x.c_id,
			       row_number() OVER (ORDER BY x.c_first,
							x.c_id) AS pos,
			       count(*) OVER () AS n
			  FROM customer x
			 WHERE x.c_w_id = in_w_id AND x.c_d_id = in_d_id
			   AND x.c_last = in_c_last) s
		 WHERE s.pos = (s.n + 1) / 2;
		IF NOT FOUND THEN
			RAISE EXCEPTION USING ERRCODE = 'no_data_found',
				MESSAGE = format('order_status: no customer '
						 'named %s in %s/%s', in_c_last,
						 in_w_id, in_d_id);
		END IF;
	END IF;

	RETURN QUERY
	SELECT c.c_id, c.c_first::text, c.c_middle::text, c.c_last::text,
	       c.c_balance, o.o_id, o.o_entry_d, o.o_carrier_id, l.ol_number,
	       l.ol_i_id, l.ol_supply_w_id, l.ol_quantity, l.ol_amount,
	       l.ol_delivery_d
	  FROM customer c
	  LEFT JOIN LATERAL (
		SELECT y.o_id, y.o_entry_d, y.o_carrier_id
		  FROM orders y
		 WHERE y.o_w_id = c.c_w_id AND y.o_d_id = c.c_d_id
		   AND y.o_c_id = c.c_id
		 ORDER BY y.o_id DESC
		 LIMIT 1) o ON true
	  LEFT JOIN order_line l
		 ON l.ol_w_id = c.c_w_id AND l.ol_d_id = c.c_d_id
		AND l.ol_o_id = o.o_id
	 WHERE c.c_w_id = in_w_id AND c.c_d_id = in_d_id AND c.c_id = v_c_id
	 ORDER BY l.ol_number;
	IF NOT FOUND THEN
		RAISE EXCEPTION USING ERRCODE = 'no_data_found',
			MESSAGE = format('order_status: no customer %s/%s/%s',
					 in_w_id, in_d_id, v_c_id);
	END IF;
END;
$$;

-- Delivery (clause 2.7.4.2), all ten districts in one transaction (allowed
-- by the 2.7.4.1 Comment). For each district the oldest NEW-ORDER row is
-- deleted, its ORDER gets in_o_carrier_id, its lines OL_DELIVERY_D = now,
-- and the customer C_BALANCE += sum(OL_AMOUNT), C_DELIVERY_CNT += 1. A
-- district without an undelivered order is skipped, the others go on.
-- Returns how many districts delivered an order and how many were skipped.
--
-- Concurrency: two Deliveries of one warehouse may run at once. The oldest
-- row is picked with FOR UPDATE SKIP LOCKED, so a Delivery passes over the
-- row another one is deleting and takes the next oldest, which is exactly
-- what it would take had the other one committed first; no order is ever
-- delivered twice (the row lock) and none is skipped while older ones wait
-- (only Deliveries lock NEW-ORDER rows; New-Order inserts them unlocked
-- and nothing updates them). Under READ COMMITTED a row whose deletion
-- commits while we look is passed over too (LockRows moves to the next
-- row), so no retry loop is needed.
CREATE OR REPLACE FUNCTION delivery(in_w_id integer, in_o_carrier_id integer)
RETURNS TABLE (delivered integer, skipped integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
	v_delivery_d timestamp := localtimestamp;
	v_d_id integer;
	v_o_id integer;
	v_c_id integer;
	v_sum numeric;
BEGIN
	delivered := 0;
	skipped := 0;
	FOR v_d_id IN 1..10 LOOP
		DELETE FROM new_order
		 WHERE no_w_id = in_w_id AND no_d_id = v_d_id
		   AND no_o_id = (SELECT n.no_o_id FROM new_order n
				   WHERE n.no_w_id = in_w_id
				     AND n.no_d_id = v_d_id
				   ORDER BY n.no_o_id
				   LIMIT 1
				   FOR UPDATE SKIP LOCKED)
		RETURNING no_o_id INTO v_o_id;
		IF NOT FOUND THEN
			skipped := skipped + 1;
			CONTINUE;
		END IF;

		UPDATE orders SET o_carrier_id = in_o_carrier_id
		 WHERE o_w_id = in_w_id AND o_d_id = v_d_id AND o_id = v_o_id
		RETURNING o_c_id INTO v_c_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION USING ERRCODE = 'no_data_found',
				MESSAGE = format('delivery: NEW-ORDER %s/%s/%s '
						 'has no ORDER row', in_w_id,
						 v_d_id, v_o_id);
		END IF;

		-- The plain sum of the line amounts (not amount * quantity).
		WITH l AS (
			UPDATE order_line SET ol_delivery_d = v_delivery_d
			 WHERE ol_w_id = in_w_id AND ol_d_id = v_d_id
			   AND ol_o_id = v_o_id
			RETURNING ol_amount)
		SELECT coalesce(sum(l.ol_amount), 0) INTO v_sum FROM l;

		UPDATE customer
		   SET c_balance = c_balance + v_sum,
		       c_delivery_cnt = c_delivery_cnt + 1
		 WHERE c_w_id = in_w_id AND c_d_id = v_d_id AND c_id = v_c_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION USING ERRCODE = 'no_data_found',
				MESSAGE = format('delivery: order %s/%s/%s has '
						 'no customer %s', in_w_id,
						 v_d_id, v_o_id, v_c_id);
		END IF;
		delivered := delivered + 1;
	END LOOP;
	RETURN NEXT;
END;
$$;

-- Stock-Level (clause 2.8.2.2), read-only: how many DISTINCT items of the
-- district's last 20 orders (D_NEXT_O_ID - 20 <= OL_O_ID < D_NEXT_O_ID)
-- have S_QUANTITY < in_threshold in the HOME warehouse's stock, whatever
-- warehouse supplied the line. One statement, so one snapshot (2.8.2.3
-- asks only for committed reads).
CREATE OR REPLACE FUNCTION stock_level(in_w_id integer, in_d_id integer,
	in_threshold integer)
RETURNS integer
LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN (
		SELECT count(DISTINCT s.s_i_id)::integer
		  FROM district d
		  JOIN order_line l
		    ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id
		   AND l.ol_o_id >= d.d_next_o_id - 20
		   AND l.ol_o_id < d.d_next_o_id
		  JOIN stock s
		    ON s.s_w_id = d.d_w_id AND s.s_i_id = l.ol_i_id
		 WHERE d.d_w_id = in_w_id AND d.d_id = in_d_id
		   AND s.s_quantity < in_threshold);
END;
$$;

-- Has any Delivery run since the load? The load leaves O_ID 2101 as the
-- oldest undelivered order of every district (4.3.3.1: O_CARRIER_ID is
-- null from O_ID 2101 on), and the first Delivery in a district delivers
-- it. One primary-key probe per district; C11 only holds while this is
-- false (docs/tpcc.md, Consistency conditions).
CREATE OR REPLACE FUNCTION oltpmark_deliveries_ran()
RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT EXISTS (
		SELECT 1
		  FROM district d
		  JOIN orders o
		    ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
		   AND o.o_id = 2101
		 WHERE o.o_carrier_id IS NOT NULL);
$$;
