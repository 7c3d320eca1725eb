-- SPDX-License-Identifier: GPL-2.0-or-later
-- The nine TPC-C tables (clause 1.3; docs/tpcc.md, Tables). Column order
-- here is the order the loader streams with COPY: change both together.
-- Keys and indexes are in indexes.sql, built after the data is in.
-- Money is numeric (exact), never real/float (clause 1.3.1).
-- Fixed text (ftN) is varchar(N) marked "-- fixed": every value written is
-- exactly N long. char(N) would hold the same bytes, but in a UTF8
-- database its input counts the characters of every value to pad it,
-- about 5 % of the loader's CPU (docs/schema.md).

CREATE TABLE warehouse (
	w_id       integer       NOT NULL,
	w_name     varchar(10)   NOT NULL,
	w_street_1 varchar(20)   NOT NULL,
	w_street_2 varchar(20)   NOT NULL,
	w_city     varchar(20)   NOT NULL,
	w_state    varchar(2)    NOT NULL, -- fixed
	w_zip      varchar(9)    NOT NULL, -- fixed
	w_tax      numeric(4,4)  NOT NULL,
	w_ytd      numeric(12,2) NOT NULL
);

CREATE TABLE district (
	d_id        integer       NOT NULL,
	d_w_id      integer       NOT NULL,
	d_name      varchar(10)   NOT NULL,
	d_street_1  varchar(20)   NOT NULL,
	d_street_2  varchar(20)   NOT NULL,
	d_city      varchar(20)   NOT NULL,
	d_state     varchar(2)    NOT NULL, -- fixed
	d_zip       varchar(9)    NOT NULL, -- fixed
	d_tax       numeric(4,4)  NOT NULL,
	d_ytd       numeric(12,2) NOT NULL,
	d_next_o_id integer       NOT NULL
);

CREATE TABLE customer (
	c_id           integer       NOT NULL,
	c_d_id         integer       NOT NULL,
	c_w_id         integer       NOT NULL,
	c_first        varchar(16)   NOT NULL,
	c_middle       varchar(2)    NOT NULL, -- fixed
	c_last         varchar(16)   NOT NULL,
	c_street_1     varchar(20)   NOT NULL,
	c_street_2     varchar(20)   NOT NULL,
	c_city         varchar(20)   NOT NULL,
	c_state        varchar(2)    NOT NULL, -- fixed
	c_zip          varchar(9)    NOT NULL, -- fixed
	c_phone        varchar(16)   NOT NULL, -- fixed
	c_since        timestamp     NOT NULL,
	c_credit       varchar(2)    NOT NULL, -- fixed
	c_credit_lim   numeric(12,2) NOT NULL,
	c_discount     numeric(4,4)  NOT NULL,
	c_balance      numeric(12,2) NOT NULL,
	c_ytd_payment  numeric(12,2) NOT NULL,
	c_payment_cnt  integer       NOT NULL,
	c_delivery_cnt integer       NOT NULL,
	c_data         varchar(500)  NOT NULL
);

-- No primary key (clause 1.3); relative addressing is allowed (1.4.10).
CREATE TABLE history (
	h_c_id   integer      NOT NULL,
	h_c_d_id integer      NOT NULL,
	h_c_w_id integer      NOT NULL,
	h_d_id   integer      NOT NULL,
	h_w_id   integer      NOT NULL,
	h_date   timestamp    NOT NULL,
	h_amount numeric(6,2) NOT NULL,
	h_data   varchar(24)  NOT NULL
);

CREATE TABLE new_order (
	no_o_id integer NOT NULL,
	no_d_id integer NOT NULL,
	no_w_id integer NOT NULL
);

CREATE TABLE orders (
	o_id         integer      NOT NULL,
	o_d_id       integer      NOT NULL,
	o_w_id       integer      NOT NULL,
	o_c_id       integer      NOT NULL,
	o_entry_d    timestamp    NOT NULL,
	o_carrier_id integer,
	o_ol_cnt     integer      NOT NULL,
	o_all_local  integer      NOT NULL
);

CREATE TABLE order_line (
	ol_o_id        integer      NOT NULL,
	ol_d_id        integer      NOT NULL,
	ol_w_id        integer      NOT NULL,
	ol_number      integer      NOT NULL,
	ol_i_id        integer      NOT NULL,
	ol_supply_w_id integer      NOT NULL,
	ol_delivery_d  timestamp,
	ol_quantity    integer      NOT NULL,
	ol_amount      numeric(6,2) NOT NULL,
	ol_dist_info   varchar(24)  NOT NULL -- fixed
);

CREATE TABLE item (
	i_id    integer      NOT NULL,
	i_im_id integer      NOT NULL,
	i_name  varchar(24)  NOT NULL,
	i_price numeric(5,2) NOT NULL,
	i_data  varchar(50)  NOT NULL
);

CREATE TABLE stock (
	s_i_id       integer     NOT NULL,
	s_w_id       integer     NOT NULL,
	s_quantity   integer     NOT NULL,
	s_dist_01    varchar(24) NOT NULL, -- fixed
	s_dist_02    varchar(24) NOT NULL, -- fixed
	s_dist_03    varchar(24) NOT NULL, -- fixed
	s_dist_04    varchar(24) NOT NULL, -- fixed
	s_dist_05    varchar(24) NOT NULL, -- fixed
	s_dist_06    varchar(24) NOT NULL, -- fixed
	s_dist_07    varchar(24) NOT NULL, -- fixed
	s_dist_08    varchar(24) NOT NULL, -- fixed
	s_dist_09    varchar(24) NOT NULL, -- fixed
	s_dist_10    varchar(24) NOT NULL, -- fixed
	s_ytd        integer     NOT NULL,
	s_order_cnt  integer     NOT NULL,
	s_remote_cnt integer     NOT NULL,
	s_data       varchar(50) NOT NULL
);
