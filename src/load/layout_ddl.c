/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_ddl.c - the CREATE TABLE and index statements of the "table"
 * and "warehouse" layouts, generated from schema/tables.sql and
 * schema/indexes.sql (see layout_ddl.h for the contract, docs/layout.md
 * for why the layouts are what they are).
 *
 * The schema files are read with a small tokenizer (words, single
 * punctuation characters, quoted text kept whole, -- comments skipped)
 * that knows only the statement shapes those files use. Column lists
 * are copied verbatim, so the generated tables have exactly the columns,
 * types and constraints of tables.sql.
 */
#include "src/load/layout_ddl.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/base/sbuf.h"
#include "src/load/layout.h"

/* Most statements indexes.sql may hold (as the loader's limit). */
#define MAX_STATEMENTS 64

/* One token of SQL text: a word, a quoted string, or one character. */
struct tok {
	const char *p; /* where it starts in the text */
	size_t len;    /* its length; 0: the end of the text */
};

/*
 * The token at *pos of text, skipping blanks and -- comments; *pos moves
 * past it. A token of length 0 is the end.
 */
static struct tok next_tok(const char *text, size_t *pos)
{
	const char *p = text + *pos;
	struct tok t;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			continue;
		}
		break;
	}
	t.p = p;
	if (!*p) {
		t.len = 0;
	} else if (isalnum((unsigned char)*p) || *p == '_') {
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		t.len = (size_t)(p - t.p);
	} else if (*p == '\'' || *p == '"') {
		char q = *p++;

		/* a doubled quote stays inside */
		while (*p && !(p[0] == q && p[1] != q)) {
			if (p[0] == q)
				p++;
			p++;
		}
		if (*p)
			p++;
		t.len = (size_t)(p - t.p);
	} else {
		t.len = 1;
	}
	*pos = (size_t)(t.p + t.len - text);
	return t;
}

/* Is t the word w (any case)? */
static bool tok_is(struct tok t, const char *w)
{
	return t.len == strlen(w) && strncasecmp(t.p, w, t.len) == 0;
}

/* Is t a plain word (a name we can use unquoted)? */
static bool tok_word(struct tok t)
{
	return t.len > 0 && (isalnum((unsigned char)*t.p) || *t.p == '_');
}

/* Copy word t, lower-cased, into out (LAYOUT_DDL_NAME_MAX): false if too
 * long or not a word. */
static bool tok_name(struct tok t, char *out)
{
	size_t i;

	if (!tok_word(t) || t.len >= LAYOUT_DDL_NAME_MAX)
		return false;
	for (i = 0; i < t.len; i++)
		out[i] = (char)tolower((unsigned char)t.p[i]);
	out[t.len] = '\0';
	return true;
}

/*
 * After the token "(" just read (ending at *pos), move *pos past its
 * matching ")". Returns the end of the ")" or NULL when there is none.
 */
static const char *skip_parens(const char *text, size_t *pos)
{
	int depth = 1;

	while (depth > 0) {
		struct tok t = next_tok(text, pos);

		if (t.len == 0)
			return NULL;
		if (t.len == 1 && *t.p == '(')
			depth++;
		else if (t.len == 1 && *t.p == ')')
			depth--;
	}
	return text + *pos;
}

/* One CREATE TABLE of tables.sql. */
struct parsed_table {
	int table;	  /* enum load_table */
	const char *body; /* "(" ... ")": the column list, verbatim */
	size_t body_len;  /* its length */
};

/*
 * Read tables.sql: nothing but "CREATE TABLE name (...);", one for each
 * of our nine tables. out[] is indexed by enum load_table.
 */
static int parse_tables(const char *sql, struct parsed_table *out,
			struct err *err)
{
	bool seen[LOAD_TABLE_NR] = {false};
	char name[LAYOUT_DDL_NAME_MAX];
	size_t pos = 0;
	int t;

	for (;;) {
		struct tok tk = next_tok(sql, &pos), open;
		const char *end;

		if (tk.len == 0)
			break;
		if (!tok_is(tk, "create") ||
		    !tok_is(next_tok(sql, &pos), "table") ||
		    !tok_name(next_tok(sql, &pos), name))
			return err_set(err, -EINVAL,
				       "tables.sql: a statement that is not "
				       "CREATE TABLE name (...) at '%.20s'",
				       tk.p);
		t = load_table_by_name(name);
		if (t < 0 || seen[t])
			return err_set(err, -EINVAL,
				       "tables.sql: table %s is %s", name,
				       t < 0 ? "not one of ours"
					     : "there twice");
		open = next_tok(sql, &pos);
		if (open.len != 1 || *open.p != '(' ||
		    !(end = skip_parens(sql, &pos)))
			return err_set(
				err, -EINVAL,
				"tables.sql: table %s has no column list",
				name);
		tk = next_tok(sql, &pos);
		if (tk.len != 1 || *tk.p != ';')
			return err_set(err, -EINVAL,
				       "tables.sql: table %s: something after "
				       "the column list",
				       name);
		seen[t] = true;
		out[t] = (struct parsed_table){
			.table = t,
			.body = open.p,
			.body_len = (size_t)(end - open.p),
		};
	}
	for (t = 0; t < LOAD_TABLE_NR; t++)
		if (!seen[t])
			return err_set(err, -EINVAL, "tables.sql: no table %s",
				       load_table_info(t)->name);
	return 0;
}

/* One statement of indexes.sql. */
struct parsed_index {
	bool primary_key;		/* ALTER TABLE ... PRIMARY KEY */
	bool unique;			/* CREATE UNIQUE INDEX */
	char name[LAYOUT_DDL_NAME_MAX]; /* the key's or index's name */
	int table;			/* enum load_table */
	const char *cols;		/* "(" ... ")", verbatim */
	size_t cols_len;		/* its length */
};

/*
 * Read one statement of indexes.sql: "ALTER TABLE t ADD CONSTRAINT name
 * PRIMARY KEY (...)" or "CREATE [UNIQUE] INDEX name ON t (...)", with an
 * optional ';' and nothing after.
 */
static int parse_index(const char *sql, struct parsed_index *pi,
		       struct err *err)
{
	char table[LAYOUT_DDL_NAME_MAX];
	size_t pos = 0;
	struct tok tk = next_tok(sql, &pos), open;
	const char *end;
	bool ok;

	memset(pi, 0, sizeof(*pi));
	if (tok_is(tk, "alter")) {
		pi->primary_key = true;
		ok = tok_is(next_tok(sql, &pos), "table") &&
		     tok_name(next_tok(sql, &pos), table) &&
		     tok_is(next_tok(sql, &pos), "add") &&
		     tok_is(next_tok(sql, &pos), "constraint") &&
		     tok_name(next_tok(sql, &pos), pi->name) &&
		     tok_is(next_tok(sql, &pos), "primary") &&
		     tok_is(next_tok(sql, &pos), "key");
	} else if (tok_is(tk, "create")) {
		tk = next_tok(sql, &pos);
		if (tok_is(tk, "unique")) {
			pi->unique = true;
			tk = next_tok(sql, &pos);
		}
		ok = tok_is(tk, "index") &&
		     tok_name(next_tok(sql, &pos), pi->name) &&
		     tok_is(next_tok(sql, &pos), "on") &&
		     tok_name(next_tok(sql, &pos), table);
	} else {
		ok = false;
	}
	if (ok) {
		open = next_tok(sql, &pos);
		ok = open.len == 1 && *open.p == '(' &&
		     (end = skip_parens(sql, &pos));
	}
	if (ok) {
		tk = next_tok(sql, &pos);
		if (tk.len == 1 && *tk.p == ';')
			tk = next_tok(sql, &pos);
		ok = tk.len == 0;
	}
	if (!ok)
		return err_set(
			err, -EINVAL,
			"indexes.sql: cannot place '%.40s': not "
			"ALTER TABLE t ADD CONSTRAINT k PRIMARY KEY (...) "
			"or CREATE [UNIQUE] INDEX i ON t (...)",
			sql + strspn(sql, " \t\n"));
	pi->table = load_table_by_name(table);
	if (pi->table < 0)
		return err_set(
			err, -EINVAL,
			"indexes.sql: %s is on %s, not one of our tables",
			pi->name, table);
	pi->cols = open.p;
	pi->cols_len = (size_t)(end - open.p);
	return 0;
}

/*
 * The statement of pi on relation rel, named name, in tablespace ts
 * (NULL: no clause). Returns a malloc'ed string or NULL.
 */
static char *index_sql(const struct parsed_index *pi, const char *rel,
		       const char *name, const char *ts)
{
	struct sbuf b = {0};

	if (pi->primary_key)
		sbuf_printf(&b,
			    "ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY %.*s",
			    rel, name, (int)pi->cols_len, pi->cols);
	else
		sbuf_printf(&b, "CREATE %sINDEX %s ON %s %.*s",
			    pi->unique ? "UNIQUE " : "", name, rel,
			    (int)pi->cols_len, pi->cols);
	if (ts)
		sbuf_printf(&b, "%s TABLESPACE %s",
			    pi->primary_key ? " USING INDEX" : "", ts);
	return sbuf_take(&b);
}

void layout_ddl_free(struct layout_ddl *ddl)
{
	int i;

	for (i = 0; i < ddl->nindexes; i++)
		free(ddl->indexes[i].sql);
	free(ddl->indexes);
	for (i = 0; i < ddl->nanalyzes; i++)
		free(ddl->analyzes[i].sql);
	free(ddl->analyzes);
	free(ddl->units);
	free(ddl->tables_sql);
	memset(ddl, 0, sizeof(*ddl));
}

/*
 * Append a statement like proto with sql to list[*n] (room is there);
 * takes sql (NULL: out of memory).
 */
static int add_stmt(struct layout_ddl_stmt *list, int *n, char *sql,
		    const struct layout_ddl_stmt *proto, struct err *err)
{
	struct layout_ddl_stmt *s;

	if (!sql)
		return err_set(err, -ENOMEM, "out of memory");
	s = &list[(*n)++];
	*s = *proto;
	s->sql = sql;
	return 0;
}

/* Append a statement of keys and indexes to ddl (see add_stmt). */
static int add_index(struct layout_ddl *ddl, char *sql,
		     const struct layout_ddl_stmt *proto, struct err *err)
{
	return add_stmt(ddl->indexes, &ddl->nindexes, sql, proto, err);
}

/* Where each table's units start in ddl->units. */
static void first_units(const struct layout_ddl *ddl, int *first)
{
	int i;

	for (i = ddl->nunits - 1; i >= 0; i--)
		first[ddl->units[i].table] = i;
}

/* SINGLE: the files' own text, one unit per table. */
static int build_single(struct layout_ddl *ddl, const char *tables_sql,
			char **stmts, int n, struct err *err)
{
	int t, i;

	ddl->tables_sql = strdup(tables_sql);
	if (!ddl->tables_sql)
		return err_set(err, -ENOMEM, "out of memory");
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		struct layout_ddl_unit *u = &ddl->units[ddl->nunits++];

		snprintf(u->name, sizeof(u->name), "%s",
			 load_table_info(t)->name);
		u->table = t;
		u->w_first = 1;
		u->w_last =
			load_table_info(t)->per_warehouse ? ddl->warehouses : 1;
		u->tablespace = -1;
	}
	for (i = 0; i < n; i++) {
		struct layout_ddl_stmt *s = &ddl->indexes[ddl->nindexes++];
		struct parsed_index pi;

		*s = (struct layout_ddl_stmt){
			.sql = stmts[i],
			.table = load_statement_table(stmts[i]),
			.group = i,
			.tablespace = -1,
		};
		stmts[i] = NULL;
		s->unit = s->table; /* one unit per table, in table order */
		if (parse_index(s->sql, &pi, NULL) == 0)
			snprintf(s->index, sizeof(s->index), "%s", pi.name);
	}
	return 0;
}

/* TABLE: whole relations, placed by layout_table(). */
static int build_table(struct layout_ddl *ddl, const char *const *ts,
		       const struct parsed_table *pt, char **stmts, int n,
		       struct err *err)
{
	struct layout_rel rels[LAYOUT_TPCC_RELS];
	int dir[LAYOUT_TPCC_RELS];
	struct sbuf b = {0};
	int nrels, t, i, r, rc;

	nrels = layout_tpcc_relations(ddl->warehouses, rels, LAYOUT_TPCC_RELS,
				      err);
	if (nrels < 0)
		return nrels;
	rc = layout_table(rels, nrels, ddl->ntablespaces, dir, err);
	if (rc < 0)
		return rc;
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		const struct load_table_info *ti = load_table_info(t);
		struct layout_ddl_unit *u = &ddl->units[ddl->nunits++];

		for (r = 0; r < nrels && strcmp(rels[r].name, ti->name); r++)
			;
		if (r == nrels) {
			free(sbuf_take(&b));
			return err_set(err, -EINVAL,
				       "no expected size of table %s",
				       ti->name);
		}
		sbuf_printf(&b, "CREATE TABLE %s %.*s TABLESPACE %s;\n",
			    ti->name, (int)pt[t].body_len, pt[t].body,
			    ts[dir[r]]);
		snprintf(u->name, sizeof(u->name), "%s", ti->name);
		u->table = t;
		u->w_first = 1;
		u->w_last = ti->per_warehouse ? ddl->warehouses : 1;
		u->tablespace = dir[r];
	}
	ddl->tables_sql = sbuf_take(&b);
	if (!ddl->tables_sql)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		struct parsed_index pi;
		struct layout_ddl_stmt proto;

		if ((rc = parse_index(stmts[i], &pi, err)) < 0)
			return rc;
		for (r = 0; r < nrels && strcmp(rels[r].name, pi.name); r++)
			;
		if (r == nrels || rels[r].kind != LAYOUT_INDEX ||
		    strcmp(rels[r].table, load_table_info(pi.table)->name))
			return err_set(err, -EINVAL,
				       "indexes.sql: no expected size of "
				       "index %s on %s",
				       pi.name,
				       load_table_info(pi.table)->name);
		proto = (struct layout_ddl_stmt){
			.table = pi.table,
			.unit = pi.table,
			.group = i,
			.tablespace = dir[r],
		};
		snprintf(proto.index, sizeof(proto.index), "%s", pi.name);
		rc = add_index(ddl,
			       index_sql(&pi, load_table_info(pi.table)->name,
					 pi.name, ts[dir[r]]),
			       &proto, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* WAREHOUSE: range partitions by warehouse, one per tablespace. */
static int build_warehouse(struct layout_ddl *ddl, const char *const *ts,
			   const struct parsed_table *pt, char **stmts, int n,
			   struct err *err)
{
	struct layout_range ranges[LOAD_TABLESPACES_MAX];
	int first[LOAD_TABLE_NR];
	int d = ddl->ntablespaces, t, k, i, rc;
	struct sbuf b = {0};

	rc = layout_warehouse_ranges(ddl->warehouses, d, ranges, err);
	if (rc < 0)
		return rc;
	for (k = 0; k < d; k++)
		sbuf_printf(&b, "CREATE SCHEMA " LAYOUT_DDL_PART_SCHEMA ";\n",
			    k + 1);
	for (t = 0; t < LOAD_TABLE_NR; t++) {
		const struct load_table_info *ti = load_table_info(t);
		struct layout_ddl_unit *u;

		if (!ti->w_column) {
			sbuf_printf(&b, "CREATE TABLE %s %.*s TABLESPACE %s;\n",
				    ti->name, (int)pt[t].body_len, pt[t].body,
				    ts[0]);
			u = &ddl->units[ddl->nunits++];
			*u = (struct layout_ddl_unit){
				.table = t, .w_first = 1, .w_last = 1};
			snprintf(u->name, sizeof(u->name), "%s", ti->name);
			continue;
		}
		sbuf_printf(&b,
			    "CREATE TABLE %s %.*s PARTITION BY RANGE (%s);\n",
			    ti->name, (int)pt[t].body_len, pt[t].body,
			    ti->w_column);
		for (k = 0; k < d; k++) {
			u = &ddl->units[ddl->nunits++];
			*u = (struct layout_ddl_unit){
				.table = t,
				.w_first = ranges[k].lo,
				.w_last = ranges[k].hi - 1,
				.tablespace = k,
			};
			snprintf(u->name, sizeof(u->name),
				 LAYOUT_DDL_PART_SCHEMA ".%s", k + 1, ti->name);
			sbuf_printf(
				&b,
				"CREATE TABLE %s PARTITION OF %s "
				"FOR VALUES FROM (%d) TO (%d) TABLESPACE %s;\n",
				u->name, ti->name, ranges[k].lo, ranges[k].hi,
				ts[k]);
		}
	}
	ddl->tables_sql = sbuf_take(&b);
	if (!ddl->tables_sql)
		return err_set(err, -ENOMEM, "out of memory");
	first_units(ddl, first);
	for (i = 0; i < n; i++) {
		struct parsed_index pi;
		struct layout_ddl_stmt proto;
		const char *table;

		if ((rc = parse_index(stmts[i], &pi, err)) < 0)
			return rc;
		table = load_table_info(pi.table)->name;
		proto = (struct layout_ddl_stmt){
			.table = pi.table, .group = i, .tablespace = 0};
		if (!load_table_info(pi.table)->w_column) {
			proto.unit = first[pi.table];
			snprintf(proto.index, sizeof(proto.index), "%s",
				 pi.name);
			rc = add_index(ddl,
				       index_sql(&pi, table, pi.name, ts[0]),
				       &proto, err);
			if (rc < 0)
				return rc;
			continue;
		}
		for (k = 0; k < d; k++) {
			const struct layout_ddl_unit *u =
				&ddl->units[first[pi.table] + k];

			/* the index takes its table's schema, so its name
			   is the table's index's */
			if (snprintf(proto.index, sizeof(proto.index),
				     LAYOUT_DDL_PART_SCHEMA ".%s", k + 1,
				     pi.name) >= (int)sizeof(proto.index))
				return err_set(
					err, -EINVAL,
					"index name %s of %s is too long",
					pi.name, u->name);
			proto.unit = first[pi.table] + k;
			proto.tablespace = k;
			rc = add_index(ddl,
				       index_sql(&pi, u->name, pi.name, ts[k]),
				       &proto, err);
			if (rc < 0)
				return rc;
		}
		/* the statement itself adopts the partitions' indexes */
		proto.unit = -1;
		proto.attach = true;
		proto.tablespace = -1;
		snprintf(proto.index, sizeof(proto.index), "%s", pi.name);
		rc = add_index(ddl, stmts[i], &proto, err);
		stmts[i] = NULL;
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * The ANALYZE statements: as they are, or per partition of a partitioned
 * table (see layout_ddl.h). Each must be "ANALYZE table [(columns)]" on
 * one of our tables.
 */
static int build_analyzes(struct layout_ddl *ddl, const char *analyze_sql,
			  struct err *err)
{
	char *stmts[MAX_STATEMENTS];
	int first[LOAD_TABLE_NR];
	int n, i, k, t, d = ddl->ntablespaces, rc = 0;

	n = load_split_statements(analyze_sql, stmts, MAX_STATEMENTS);
	if (n == -E2BIG)
		return err_set(err, n, "analyze.sql: more than %d statements",
			       MAX_STATEMENTS);
	if (n < 0)
		return err_set(err, n, "out of memory");
	ddl->analyzes = calloc((size_t)(n ? n : 1) * (size_t)(d + 1),
			       sizeof(*ddl->analyzes));
	if (!ddl->analyzes)
		rc = err_set(err, -ENOMEM, "out of memory");
	first_units(ddl, first);
	for (i = 0; i < n && rc == 0; i++) {
		struct layout_ddl_stmt proto = {
			.unit = -1, .group = i, .tablespace = -1};
		const char *cols = "";
		size_t pos = 0, cols_len = 0;
		struct tok tk, open;
		char name[LAYOUT_DDL_NAME_MAX];

		t = load_statement_table(stmts[i]);
		proto.table = t;
		if (t < 0) {
			rc = err_set(err, -EINVAL,
				     "analyze.sql: no table of ours in '%s'",
				     stmts[i]);
			break;
		}
		if (ddl->layout != LOAD_LAYOUT_WAREHOUSE ||
		    !load_table_info(t)->w_column) {
			rc = add_stmt(ddl->analyzes, &ddl->nanalyzes, stmts[i],
				      &proto, err);
			stmts[i] = NULL;
			continue;
		}
		/* ANALYZE name [(columns)] [;] */
		if (!tok_is(next_tok(stmts[i], &pos), "analyze") ||
		    !tok_name(next_tok(stmts[i], &pos), name)) {
			rc = err_set(err, -EINVAL,
				     "analyze.sql: cannot place '%s'",
				     stmts[i]);
			break;
		}
		open = next_tok(stmts[i], &pos);
		if (open.len == 1 && *open.p == '(') {
			const char *end = skip_parens(stmts[i], &pos);

			if (!end) {
				rc = err_set(err, -EINVAL,
					     "analyze.sql: cannot place '%s'",
					     stmts[i]);
				break;
			}
			cols = open.p;
			cols_len = (size_t)(end - open.p);
			tk = next_tok(stmts[i], &pos);
		} else {
			tk = open;
		}
		if (tk.len == 1 && *tk.p == ';')
			tk = next_tok(stmts[i], &pos);
		if (tk.len != 0) {
			rc = err_set(err, -EINVAL,
				     "analyze.sql: cannot place '%s'",
				     stmts[i]);
			break;
		}
		for (k = 0; k < d && rc == 0; k++) {
			struct sbuf b = {0};

			proto.unit = first[t] + k;
			proto.tablespace = k;
			/* the partitions sample one table's rows in all */
			sbuf_printf(
				&b,
				"SELECT set_config('default_statistics_target',"
				" greatest(10, ceil(current_setting("
				"'default_statistics_target')::numeric / %d))"
				"::int::text, false);"
				"ANALYZE %s %.*s;"
				"RESET default_statistics_target",
				d, ddl->units[proto.unit].name, (int)cols_len,
				cols);
			rc = add_stmt(ddl->analyzes, &ddl->nanalyzes,
				      sbuf_take(&b), &proto, err);
		}
	}
	for (i = 0; i < n; i++)
		free(stmts[i]);
	return rc;
}

int layout_ddl_build(enum load_layout layout, int warehouses,
		     const char *const *tablespaces, int ntablespaces,
		     const char *tables_sql, const char *indexes_sql,
		     const char *analyze_sql, struct layout_ddl *ddl,
		     struct err *err)
{
	struct parsed_table pt[LOAD_TABLE_NR];
	char *stmts[MAX_STATEMENTS];
	int n, i, rc;

	memset(ddl, 0, sizeof(*ddl));
	if (warehouses < 1)
		return err_set(err, -EINVAL,
			       "warehouses must be at least 1, not %d",
			       warehouses);
	if ((int)layout < 0 || layout >= LOAD_LAYOUT_NR ||
	    (layout == LOAD_LAYOUT_SINGLE) != (ntablespaces == 0) ||
	    ntablespaces < 0 || ntablespaces > LOAD_TABLESPACES_MAX)
		return err_set(err, -EINVAL,
			       "layout %d cannot have %d tablespaces",
			       (int)layout, ntablespaces);
	for (i = 0; i < ntablespaces; i++) {
		char name[LAYOUT_DDL_NAME_MAX];
		size_t pos = 0;
		struct tok tk = next_tok(tablespaces[i], &pos);

		if (!tok_name(tk, name) || strcmp(name, tablespaces[i]))
			return err_set(err, -EINVAL,
				       "tablespace name '%s' is not a plain "
				       "lower-case SQL name",
				       tablespaces[i]);
	}
	rc = parse_tables(tables_sql, pt, err);
	if (rc < 0)
		return rc;
	n = load_split_statements(indexes_sql, stmts, MAX_STATEMENTS);
	if (n == -E2BIG)
		return err_set(err, n, "indexes.sql: more than %d statements",
			       MAX_STATEMENTS);
	if (n < 0)
		return err_set(err, n, "out of memory");

	ddl->layout = layout;
	ddl->warehouses = warehouses;
	ddl->ntablespaces = ntablespaces;
	/* at most: every table partitioned; every statement per partition */
	ddl->units = calloc((size_t)LOAD_TABLE_NR * (size_t)(ntablespaces + 1),
			    sizeof(*ddl->units));
	ddl->indexes = calloc((size_t)(n ? n : 1) * (size_t)(ntablespaces + 1),
			      sizeof(*ddl->indexes));
	if (!ddl->units || !ddl->indexes)
		rc = err_set(err, -ENOMEM, "out of memory");
	else if (layout == LOAD_LAYOUT_SINGLE)
		rc = build_single(ddl, tables_sql, stmts, n, err);
	else if (layout == LOAD_LAYOUT_TABLE)
		rc = build_table(ddl, tablespaces, pt, stmts, n, err);
	else
		rc = build_warehouse(ddl, tablespaces, pt, stmts, n, err);
	for (i = 0; i < n; i++)
		free(stmts[i]);
	if (rc == 0)
		rc = build_analyzes(ddl, analyze_sql, err);
	if (rc < 0)
		layout_ddl_free(ddl);
	return rc;
}
