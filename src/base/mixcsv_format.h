/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mixcsv_format.h - the one definition of mix.csv's header and of the
 * words of its type and status columns (docs/formats.md, "mix.csv").
 * The writers (terminals/mixlog.c, the run's hot path: it copies each
 * word with its comma; analysis/report/merge.c, the merged file with its
 * host column) and the reader (analysis/report/mixcsv.c) all
 * build on these, and so do the names of src/base/txn.c, so a word
 * changed here changes the file, its reader and run.json together. A
 * header of literals only: both sides keep their own fast code around
 * them.
 */
#ifndef OLTPMARK_MIXCSV_FORMAT_H
#define OLTPMARK_MIXCSV_FORMAT_H

/* The first line, without its newline. */
#define MIXCSV_HEADER "t_ms,terminal,type,status,response_us,service_us"

/*
 * The first line of a merged run's mix.csv (`oltpmark merge`): the same
 * columns and a last one, the driver's host, from its meta.json.
 */
#define MIXCSV_HEADER_HOST MIXCSV_HEADER ",host"

/* The type column: one word per enum txn_type (src/base/txn.h). */
#define MIXCSV_WORD_NEW_ORDER	 "new_order"
#define MIXCSV_WORD_PAYMENT	 "payment"
#define MIXCSV_WORD_ORDER_STATUS "order_status"
#define MIXCSV_WORD_DELIVERY	 "delivery"
#define MIXCSV_WORD_STOCK_LEVEL	 "stock_level"

/* The status column: one word per enum txn_status (src/base/txn.h). */
#define MIXCSV_WORD_OK	     "ok"
#define MIXCSV_WORD_ROLLBACK "rollback"
#define MIXCSV_WORD_ERROR    "error"

#endif
