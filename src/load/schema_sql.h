/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schema_sql.h - the SQL of schema/ compiled into the binary.
 * The Makefile generates the definitions from schema/NAME.sql with
 * tests/embed-sql.sh, so `oltpmark load` needs no installed data files.
 */
#ifndef OLTPMARK_SCHEMA_SQL_H
#define OLTPMARK_SCHEMA_SQL_H

extern const char schema_tables_sql[];	  /* schema/tables.sql */
extern const char schema_meta_sql[];	  /* schema/meta.sql */
extern const char schema_indexes_sql[];	  /* schema/indexes.sql */
extern const char schema_functions_sql[]; /* schema/functions.sql */
extern const char schema_checks_sql[];	  /* schema/checks.sql */
extern const char schema_analyze_sql[];	  /* schema/analyze.sql */

#endif
