/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * routes.c - the SQL of the warehouse layout's per-partition functions
 * (see routes.h for why they exist and what they are).
 */
#include "src/load/routes.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/base/sbuf.h"
#include "src/load/layout.h"

/* Tables a remote transaction reaches in another warehouse's partition:
 * New-Order's supplying STOCK, Payment's CUSTOMER. */
static bool remote_table(enum load_table t)
{
	return t == LOAD_STOCK || t == LOAD_CUSTOMER;
}

/* Skip blanks; return where the next word starts. */
static const char *skip_blank(const char *q)
{
	while (isspace((unsigned char)*q))
		q++;
	return q;
}

/* Does q start with the word w (any case), followed by a blank? */
static bool word_blank(const char *q, const char *w)
{
	size_t n = strlen(w);

	return strncasecmp(q, w, n) == 0 && isspace((unsigned char)q[n]);
}

int routes_routine_names(const char *functions_sql,
			 char (*names)[ROUTES_NAME_MAX], int max)
{
	const char *p = functions_sql;
	int n = 0;

	while (n < max && (p = strcasestr(p, "create"))) {
		const char *q = p + 6;
		size_t len = 0;

		p = q;
		if (!isspace((unsigned char)*q))
			continue;
		q = skip_blank(q);
		if (word_blank(q, "or")) {
			q = skip_blank(q + 2);
			if (!word_blank(q, "replace"))
				continue;
			q = skip_blank(q + 7);
		}
		if (word_blank(q, "function"))
			q += 8;
		else if (word_blank(q, "procedure"))
			q += 9;
		else
			continue;
		q = skip_blank(q);
		while (isalnum((unsigned char)q[len]) || q[len] == '_')
			len++;
		if (len == 0 || len >= ROUTES_NAME_MAX)
			continue;
		memcpy(names[n], q, len);
		names[n][len] = '\0';
		n++;
	}
	return n;
}

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* Is [w, w + len) the word kw (lower case), in any case? */
static bool word_is(const char *w, size_t len, const char *kw)
{
	return strlen(kw) == len && strncasecmp(w, kw, len) == 0;
}

/* Which of our tables [w, w + len) names, any case; -1: none. */
static int table_named(const char *w, size_t len)
{
	int t;

	for (t = 0; t < LOAD_TABLE_NR; t++)
		if (word_is(w, len, load_table_info(t)->name))
			return t;
	return -1;
}

int routes_qualify(const char *sql, const char *const *schemas,
		   struct sbuf *out)
{
	const char *p = sql, *copied = sql;
	bool after_keyword = false;
	int n = 0;

	while (*p) {
		if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			char q = *p++;

			/* a doubled quote stands for itself */
			while (*p && (*p != q || p[1] == q))
				p += *p == q ? 2 : 1;
			if (*p)
				p++;
			after_keyword = false;
			continue;
		}
		if (ident_start(*p) && (p == sql || !ident_char(p[-1]))) {
			const char *w = p;
			size_t len;
			int t;

			while (ident_char(*p))
				p++;
			len = (size_t)(p - w);
			t = table_named(w, len);
			if (after_keyword && t >= 0 && *p != '.' &&
			    (w == sql || w[-1] != '.')) {
				sbuf_printf(out, "%.*s%s.", (int)(w - copied),
					    copied, schemas[t]);
				copied = w;
				n++;
			}
			after_keyword = word_is(w, len, "from") ||
					word_is(w, len, "join") ||
					word_is(w, len, "update") ||
					word_is(w, len, "into");
			continue;
		}
		if (!isspace((unsigned char)*p))
			after_keyword = false;
		p++;
	}
	sbuf_printf(out, "%s", copied);
	return n;
}

/*
 * One route of partition k (0-based): the schema (made here for the
 * remote route; the partition's own came with its tables) and in it a
 * copy of the functions whose every table reference names its schema.
 * Home: the partition's tables (its schema holds them under their
 * parents' names, layout_ddl.h), and ITEM. Remote: the same but STOCK
 * and CUSTOMER, which it reaches through their parents.
 */
static int add_route(struct sbuf *t, int k, bool remote, const char *base,
		     const char *functions)
{
	char home[32], schema[40];
	const char *schemas[LOAD_TABLE_NR];
	int u, n;

	snprintf(home, sizeof(home), LAYOUT_DDL_PART_SCHEMA, k + 1);
	snprintf(schema, sizeof(schema), "%s%s", home, remote ? "_remote" : "");
	for (u = 0; u < LOAD_TABLE_NR; u++) {
		bool in_base = !load_table_info(u)->w_column ||
			       (remote && remote_table(u));

		schemas[u] = in_base ? base : home;
	}
	if (remote)
		sbuf_printf(t, "CREATE SCHEMA %s;\n", schema);
	/* where CREATE FUNCTION puts them; base holds no single quote */
	sbuf_printf(t, "SELECT set_config('search_path', '%s, %s', true);\n",
		    schema, base);
	n = routes_qualify(functions, schemas, t);
	sbuf_printf(t, "\n");
	return n;
}

int routes_sql(const struct layout_ddl *ddl, const char *base_schema,
	       const char *functions_sql, char **out, struct err *err)
{
	struct sbuf t = {0};
	int k, u;

	*out = NULL;
	if (ddl->layout != LOAD_LAYOUT_WAREHOUSE || ddl->ntablespaces < 1)
		return err_set(err, -EINVAL, "routes: not a warehouse layout");
	if (strchr(base_schema, '\''))
		return err_set(err, -EINVAL,
			       "routes: schema name %s holds a single quote",
			       base_schema);
	sbuf_printf(&t,
		    "BEGIN;\n"
		    "CREATE TABLE %s.oltpmark_routes (\n"
		    "\tw_first integer NOT NULL,\n"
		    "\tw_last integer NOT NULL,\n"
		    "\thome_schema name NOT NULL,\n"
		    "\tremote_schema name NOT NULL);\n",
		    base_schema);
	for (k = 0; k < ddl->ntablespaces; k++) {
		const struct layout_ddl_unit *w = NULL;

		/* the WAREHOUSE table's unit k gives the range */
		for (u = 0; u < ddl->nunits && !w; u++)
			if (ddl->units[u].table == LOAD_WAREHOUSE &&
			    ddl->units[u].tablespace == k)
				w = &ddl->units[u];
		if (!w) {
			free(sbuf_take(&t));
			return err_set(err, -EINVAL,
				       "routes: no warehouse partition %d",
				       k + 1);
		}
		if (add_route(&t, k, false, base_schema, functions_sql) < 1 ||
		    add_route(&t, k, true, base_schema, functions_sql) < 1) {
			free(sbuf_take(&t));
			return err_set(err, -EINVAL,
				       "routes: the functions name no table");
		}
		sbuf_printf(
			&t,
			"INSERT INTO %s.oltpmark_routes VALUES "
			"(%d, %d, 'oltpmark_p%d', 'oltpmark_p%d_remote');\n",
			base_schema, w->w_first, w->w_last, k + 1, k + 1);
	}
	sbuf_printf(&t, "COMMIT;\n");
	*out = sbuf_take(&t);
	return *out ? 0 : err_set(err, -ENOMEM, "routes: out of memory");
}

/*
 * The remote schemas from oltpmark_routes, then the partitions' own
 * schemas, found through the partitions of our tables: a load that
 * failed before its routes were made leaves those without a route. Run
 * before the tables are dropped (the partitions go with their schema).
 */
const char routes_drop_sql[] =
	"DO $oltpmark$ DECLARE s name; BEGIN "
	"IF to_regclass('oltpmark_routes') IS NOT NULL THEN "
	"FOR s IN EXECUTE 'SELECT remote_schema FROM oltpmark_routes' LOOP "
	"EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', s); "
	"END LOOP; END IF; "
	"FOR s IN SELECT DISTINCT n.nspname FROM pg_inherits i "
	"JOIN pg_class c ON c.oid = i.inhrelid "
	"JOIN pg_namespace n ON n.oid = c.relnamespace "
	"WHERE i.inhparent IN (SELECT to_regclass(t) FROM unnest("
	"'{warehouse,district,customer,history,new_order,orders,"
	"order_line,stock}'::text[]) t) "
	"AND n.nspname ~ '^oltpmark_p[0-9]+$' LOOP "
	"EXECUTE format('DROP SCHEMA %I CASCADE', s); "
	"END LOOP; END $oltpmark$;";
