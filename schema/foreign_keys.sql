-- SPDX-License-Identifier: GPL-2.0-or-later
-- The foreign keys of clause 1.3, for a run that wants them declared. NOT
-- run by default: TPC-C requires the relations to hold, not that the
-- database enforce them (DBT-2 declares none either), and the transactions
-- keep them by construction (checked by schema/checks.sql). Declared keys
-- add work to every insert (a KEY SHARE row lock and an index probe on the
-- parent: ten STOCK probes per New-Order) and so change what a kernel
-- comparison measures; whoever turns them on should say so with the
-- results. Run after indexes.sql: each key needs the parent's primary key.
-- No oltpmark command runs this file, so it is not compiled into the
-- binary: apply it by hand, psql -f schema/foreign_keys.sql.
--
-- Same format as indexes.sql: one statement per group, groups separated by
-- a line holding only "-- next", safe to run in parallel (each statement
-- locks the child table, then the parent, and the key graph has no cycle,
-- so two of them can wait for each other but never deadlock).
ALTER TABLE order_line ADD CONSTRAINT order_line_order_fkey
	FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id)
	REFERENCES orders (o_w_id, o_d_id, o_id);
-- next
ALTER TABLE order_line ADD CONSTRAINT order_line_stock_fkey
	FOREIGN KEY (ol_supply_w_id, ol_i_id) REFERENCES stock (s_w_id, s_i_id);
-- next
ALTER TABLE stock ADD CONSTRAINT stock_warehouse_fkey
	FOREIGN KEY (s_w_id) REFERENCES warehouse (w_id);
-- next
ALTER TABLE stock ADD CONSTRAINT stock_item_fkey
	FOREIGN KEY (s_i_id) REFERENCES item (i_id);
-- next
ALTER TABLE orders ADD CONSTRAINT orders_customer_fkey
	FOREIGN KEY (o_w_id, o_d_id, o_c_id)
	REFERENCES customer (c_w_id, c_d_id, c_id);
-- next
ALTER TABLE new_order ADD CONSTRAINT new_order_order_fkey
	FOREIGN KEY (no_w_id, no_d_id, no_o_id)
	REFERENCES orders (o_w_id, o_d_id, o_id);
-- next
ALTER TABLE history ADD CONSTRAINT history_customer_fkey
	FOREIGN KEY (h_c_w_id, h_c_d_id, h_c_id)
	REFERENCES customer (c_w_id, c_d_id, c_id);
-- next
ALTER TABLE history ADD CONSTRAINT history_district_fkey
	FOREIGN KEY (h_w_id, h_d_id) REFERENCES district (d_w_id, d_id);
-- next
ALTER TABLE customer ADD CONSTRAINT customer_district_fkey
	FOREIGN KEY (c_w_id, c_d_id) REFERENCES district (d_w_id, d_id);
-- next
ALTER TABLE district ADD CONSTRAINT district_warehouse_fkey
	FOREIGN KEY (d_w_id) REFERENCES warehouse (w_id);
