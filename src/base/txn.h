/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn.h - the five TPC-C transactions as data: their types, the inputs a
 * terminal generates (clause 2; docs/tpcc.md, Transaction profiles) and
 * the result a driver hands back. Terminals fill a struct txn_input, a
 * driver executes it and fills a struct txn_output; neither knows how the
 * other works.
 */
#ifndef OLTPMARK_TXN_H
#define OLTPMARK_TXN_H

#include <stdbool.h>
#include <stdint.h>

#define TXN_MAX_LINES	15 /* order lines per New-Order: rand[5..15] */
#define TXN_C_LAST_SIZE 17 /* vt16 and its NUL */

/* Transaction types; the order is the one of mix.csv and the reports. */
enum txn_type {
	TXN_NEW_ORDER,	  /* New-Order (2.4) */
	TXN_PAYMENT,	  /* Payment (2.5) */
	TXN_ORDER_STATUS, /* Order-Status (2.6) */
	TXN_DELIVERY,	  /* Delivery (2.7), executed deferred */
	TXN_STOCK_LEVEL,  /* Stock-Level (2.8) */
	TXN_NR
};

/* How a transaction ended; the words are mix.csv's status column. */
enum txn_status {
	TXN_STATUS_OK,	     /* committed ("ok") */
	TXN_STATUS_ROLLBACK, /* rolled back by the profile ("rollback"):
				New-Order with an unused item */
	TXN_STATUS_ERROR,    /* failed ("error"): SQL error, retries used
				up, or connection lost */
	TXN_STATUS_NR
};

/* New-Order input (2.4.1). */
struct txn_new_order {
	int w_id;			   /* home warehouse */
	int d_id;			   /* rand[1..10] */
	int c_id;			   /* NURand(1023,1,3000) */
	int ol_cnt;			   /* rand[5..15] */
	int ol_i_id[TXN_MAX_LINES];	   /* NURand(8191,1,100000); the last
					       is unused when rollback */
	int ol_supply_w_id[TXN_MAX_LINES]; /* home, or 1 % remote */
	int ol_quantity[TXN_MAX_LINES];	   /* rand[1..10] */
	bool rollback;			   /* rbk = 1: last item unused */
	int remote_lines;		   /* lines with a remote supplier */
};

/* Payment input (2.5.1). */
struct txn_payment {
	int w_id;		      /* paying warehouse (home) */
	int d_id;		      /* paying district */
	int c_w_id;		      /* customer's warehouse (15 % remote) */
	int c_d_id;		      /* customer's district */
	int c_id;		      /* customer id, 0 when by_name */
	bool by_name;		      /* 60 %: select by last name */
	char c_last[TXN_C_LAST_SIZE]; /* last name when by_name */
	int64_t h_amount_cents;	      /* rand[1.00..5000.00] in cents */
};

/* Order-Status input (2.6.1). */
struct txn_order_status {
	int w_id;		      /* home warehouse */
	int d_id;		      /* rand[1..10] */
	int c_id;		      /* customer id, 0 when by_name */
	bool by_name;		      /* 60 %: by last name */
	char c_last[TXN_C_LAST_SIZE]; /* last name when by_name */
};

/* Delivery input (2.7.1). */
struct txn_delivery {
	int w_id;	  /* home warehouse */
	int o_carrier_id; /* rand[1..10] */
};

/* Stock-Level input (2.8.1). */
struct txn_stock_level {
	int w_id;      /* home warehouse */
	int d_id;      /* the terminal's fixed district */
	int threshold; /* rand[10..20] */
};

/* One transaction to execute. */
struct txn_input {
	enum txn_type type; /* which member of u is set */
	union {
		struct txn_new_order new_order;
		struct txn_payment payment;
		struct txn_order_status order_status;
		struct txn_delivery delivery;
		struct txn_stock_level stock_level;
	} u;
};

/* What a driver reports back for one transaction. */
struct txn_output {
	enum txn_status status; /* ok, rollback or error */
	int retries;		/* serialization/deadlock retries taken */
	int o_id;		/* New-Order: the order id it got */
	int delivered;		/* Delivery: districts delivered */
	int skipped;	   /* Delivery: districts with nothing to deliver */
	int low_stock;	   /* Stock-Level: the count */
	char sqlstate[6];  /* SQLSTATE of an error, "" otherwise */
	char message[160]; /* first line of the error, "" otherwise */
};

/* "new_order", "payment", ... as in mix.csv; NULL for bad values. */
const char *txn_type_name(enum txn_type type);

#endif
