-- SPDX-License-Identifier: GPL-2.0-or-later
-- Primary keys (clause 1.3; docs/tpcc.md, Tables) and the secondary
-- indexes the transactions need, built after the population is in (one
-- sorted build per index is much cheaper than maintaining them row by row
-- during COPY).
--
-- The loader runs the groups below in parallel, one per connection: each
-- group is ONE statement, groups are separated by a line holding only
-- "-- next". Biggest builds come first so a small pool starts them early.
-- Two groups on the same table do not deadlock: each statement takes one
-- table lock; ALTER TABLE ... ADD PRIMARY KEY (ACCESS EXCLUSIVE) and
-- CREATE INDEX (SHARE) on one table simply run one after the other.
-- HISTORY has no primary key (clause 1.3) and needs no index: it is only
-- ever inserted into.
ALTER TABLE order_line ADD CONSTRAINT order_line_pkey
	PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);
-- next
ALTER TABLE stock ADD CONSTRAINT stock_pkey PRIMARY KEY (s_w_id, s_i_id);
-- next
ALTER TABLE customer ADD CONSTRAINT customer_pkey
	PRIMARY KEY (c_w_id, c_d_id, c_id);
-- next
ALTER TABLE orders ADD CONSTRAINT orders_pkey
	PRIMARY KEY (o_w_id, o_d_id, o_id);
-- next
-- Order-Status: the customer's latest order is the last entry of
-- (o_w_id, o_d_id, o_c_id) in this index, read backwards, no sort.
CREATE INDEX orders_customer_idx ON orders (o_w_id, o_d_id, o_c_id, o_id);
-- next
-- Payment and Order-Status by last name (clause 2.5.2.2): the rows of one
-- (warehouse, district, C_LAST) come out already ordered by C_FIRST.
CREATE INDEX customer_name_idx ON customer (c_w_id, c_d_id, c_last, c_first);
-- next
ALTER TABLE item ADD CONSTRAINT item_pkey PRIMARY KEY (i_id);
-- next
-- Delivery takes the lowest NO_O_ID of a district from the front of this
-- index.
ALTER TABLE new_order ADD CONSTRAINT new_order_pkey
	PRIMARY KEY (no_w_id, no_d_id, no_o_id);
-- next
ALTER TABLE district ADD CONSTRAINT district_pkey PRIMARY KEY (d_w_id, d_id);
-- next
ALTER TABLE warehouse ADD CONSTRAINT warehouse_pkey PRIMARY KEY (w_id);
