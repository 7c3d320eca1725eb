-- SPDX-License-Identifier: GPL-2.0-or-later
-- The twelve TPC-C consistency conditions (clause 3.3.2; in our words in
-- docs/tpcc.md, Consistency conditions), run by `oltpmark check`. Each
-- query returns the keys of the rows that violate its condition, as text
-- columns: zero rows = pass.
--
-- Format, for the C code that splits this file: every condition starts
-- with a line "-- C<n>: <one-line description>", followed by exactly one
-- SQL statement ending in ";" (no comments and no ";" inside it). Lines
-- before "-- C1:" are this header.
--
-- Speed: each query is written as aggregates joined by keys (hash joins
-- and hash or sorted aggregates over one pass of each table) or as one
-- primary-key probe per district, never a correlated scan per row. All
-- twelve take a few seconds at W=10 (docs/schema.md). The conditions hold
-- on every freshly loaded database; C11 holds only until the first
-- Delivery (see oltpmark_deliveries_ran() in functions.sql), because each
-- delivered order removes a NEW-ORDER row while its ORDER stays.
--
-- As in the spec, C2's NEW-ORDER part is waived for a district without
-- NEW-ORDER rows. C5 also reports a NEW-ORDER row without its ORDER. C10
-- and C12 sum the lines with OL_DELIVERY_D set ("delivered").
-- C1: W_YTD = sum(D_YTD) of the warehouse's districts
SELECT w.w_id::text AS w_id
  FROM warehouse w
  LEFT JOIN (SELECT d_w_id, sum(d_ytd) AS ytd FROM district GROUP BY d_w_id) d
    ON d.d_w_id = w.w_id
 WHERE w.w_ytd IS DISTINCT FROM d.ytd;
-- C2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID), per district
SELECT d.d_w_id::text AS w_id, d.d_id::text AS d_id
  FROM district d
  CROSS JOIN LATERAL (SELECT max(o.o_id) AS m FROM orders o
		       WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) o
  CROSS JOIN LATERAL (SELECT max(n.no_o_id) AS m FROM new_order n
		       WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) n
 WHERE o.m IS DISTINCT FROM d.d_next_o_id - 1
    OR (n.m IS NOT NULL AND n.m <> d.d_next_o_id - 1);
-- C3: NO_O_IDs of a district are contiguous (max - min + 1 = count)
SELECT no_w_id::text AS w_id, no_d_id::text AS d_id
  FROM new_order
 GROUP BY no_w_id, no_d_id
HAVING max(no_o_id) - min(no_o_id) + 1 <> count(*);
-- C4: sum(O_OL_CNT) = number of ORDER-LINE rows, per district
SELECT coalesce(o.w, l.w)::text AS w_id, coalesce(o.d, l.d)::text AS d_id
  FROM (SELECT o_w_id AS w, o_d_id AS d, sum(o_ol_cnt) AS n
	  FROM orders GROUP BY o_w_id, o_d_id) o
  FULL JOIN (SELECT ol_w_id AS w, ol_d_id AS d, count(*) AS n
	       FROM order_line GROUP BY ol_w_id, ol_d_id) l
    ON l.w = o.w AND l.d = o.d
 WHERE o.n IS DISTINCT FROM l.n;
-- C5: O_CARRIER_ID is null exactly when the order has a NEW-ORDER row
SELECT coalesce(o.o_w_id, n.no_w_id)::text AS w_id,
       coalesce(o.o_d_id, n.no_d_id)::text AS d_id,
       coalesce(o.o_id, n.no_o_id)::text AS o_id
  FROM orders o
  FULL JOIN new_order n
    ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id
 WHERE o.o_id IS NULL
    OR (o.o_carrier_id IS NULL) <> (n.no_o_id IS NOT NULL);
-- C6: O_OL_CNT = number of the order's ORDER-LINE rows, for every order
SELECT o.o_w_id::text AS w_id, o.o_d_id::text AS d_id, o.o_id::text AS o_id
  FROM orders o
  LEFT JOIN (SELECT ol_w_id AS w, ol_d_id AS d, ol_o_id AS o, count(*) AS n
	       FROM order_line GROUP BY ol_w_id, ol_d_id, ol_o_id) l
    ON l.w = o.o_w_id AND l.d = o.o_d_id AND l.o = o.o_id
 WHERE o.o_ol_cnt <> coalesce(l.n, 0);
-- C7: OL_DELIVERY_D is null exactly when the order's O_CARRIER_ID is null
SELECT l.ol_w_id::text AS w_id, l.ol_d_id::text AS d_id,
       l.ol_o_id::text AS o_id, l.ol_number::text AS ol_number
  FROM order_line l
  JOIN orders o
    ON o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id AND o.o_id = l.ol_o_id
 WHERE (l.ol_delivery_d IS NULL) <> (o.o_carrier_id IS NULL);
-- C8: W_YTD = sum(H_AMOUNT) of the HISTORY rows with H_W_ID = W_ID
SELECT w.w_id::text AS w_id
  FROM warehouse w
  LEFT JOIN (SELECT h_w_id, sum(h_amount) AS s FROM history GROUP BY h_w_id) h
    ON h.h_w_id = w.w_id
 WHERE w.w_ytd <> coalesce(h.s, 0);
-- C9: D_YTD = sum(H_AMOUNT) of the district's HISTORY rows
SELECT d.d_w_id::text AS w_id, d.d_id::text AS d_id
  FROM district d
  LEFT JOIN (SELECT h_w_id, h_d_id, sum(h_amount) AS s
	       FROM history GROUP BY h_w_id, h_d_id) h
    ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id
 WHERE d.d_ytd <> coalesce(h.s, 0);
-- C10: C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT), per customer
SELECT c.c_w_id::text AS w_id, c.c_d_id::text AS d_id, c.c_id::text AS c_id
  FROM customer c
  LEFT JOIN (SELECT o.o_w_id AS w, o.o_d_id AS d, o.o_c_id AS c,
		    sum(l.s) AS s
	       FROM orders o
	       JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, sum(ol_amount) AS s
		       FROM order_line
		      WHERE ol_delivery_d IS NOT NULL
		      GROUP BY ol_w_id, ol_d_id, ol_o_id) l
		 ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id
		AND l.ol_o_id = o.o_id
	      GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) ol
    ON ol.w = c.c_w_id AND ol.d = c.c_d_id AND ol.c = c.c_id
  LEFT JOIN (SELECT h_c_w_id AS w, h_c_d_id AS d, h_c_id AS c,
		    sum(h_amount) AS s
	       FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
    ON h.w = c.c_w_id AND h.d = c.c_d_id AND h.c = c.c_id
 WHERE c.c_balance <> coalesce(ol.s, 0) - coalesce(h.s, 0);
-- C11: count(ORDER) - count(NEW-ORDER) = 2100, per district (until a Delivery)
SELECT o.w::text AS w_id, o.d::text AS d_id
  FROM (SELECT o_w_id AS w, o_d_id AS d, count(*) AS n
	  FROM orders GROUP BY o_w_id, o_d_id) o
  LEFT JOIN (SELECT no_w_id AS w, no_d_id AS d, count(*) AS n
	       FROM new_order GROUP BY no_w_id, no_d_id) n
    ON n.w = o.w AND n.d = o.d
 WHERE o.n - coalesce(n.n, 0) <> 2100;
-- C12: C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT), per customer
SELECT c.c_w_id::text AS w_id, c.c_d_id::text AS d_id, c.c_id::text AS c_id
  FROM customer c
  LEFT JOIN (SELECT o.o_w_id AS w, o.o_d_id AS d, o.o_c_id AS c,
		    sum(l.s) AS s
	       FROM orders o
	       JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, sum(ol_amount) AS s
		       FROM order_line
		      WHERE ol_delivery_d IS NOT NULL
		      GROUP BY ol_w_id, ol_d_id, ol_o_id) l
		 ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id
		AND l.ol_o_id = o.o_id
	      GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) ol
    ON ol.w = c.c_w_id AND ol.d = c.c_d_id AND ol.c = c.c_id
 WHERE c.c_balance + c.c_ytd_payment <> coalesce(ol.s, 0);
