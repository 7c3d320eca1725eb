-- SPDX-License-Identifier: GPL-2.0-or-later
-- ANALYZE after the load, one statement per table (groups separated by a
-- line holding only "-- next", as in indexes.sql; the loader runs each
-- once its table's COPY is done, in parallel with the others).
--
-- The wide tables are analyzed on the columns a plan of this workload can
-- use: those the transactions (functions.sql, the sql mode) and the
-- consistency checks (checks.sql) search, join, group or sort on. The
-- statistics of the other columns (addresses, S_DIST_xx, C_DATA, ...)
-- would never be read, and computing them was about 0.8 of the load's
-- CPU seconds at W=10 (docs/load.md). Every statement still sets the
-- table's row and page counts. Autovacuum later analyzes whole tables as
-- they change, as it would anyway.
ANALYZE warehouse;
-- next
ANALYZE district;
-- next
ANALYZE item (i_id);
-- next
ANALYZE customer (c_w_id, c_d_id, c_id, c_last, c_first);
-- next
ANALYZE history (h_c_w_id, h_c_d_id, h_c_id, h_w_id, h_d_id);
-- next
ANALYZE new_order;
-- next
ANALYZE orders (o_w_id, o_d_id, o_id, o_c_id, o_carrier_id);
-- next
ANALYZE order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id,
	ol_delivery_d);
-- next
ANALYZE stock (s_w_id, s_i_id, s_quantity);
