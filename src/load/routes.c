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

/*
 * One schema of partition k (0-based): its views, the functions, and
 * each function's search_path fixed to (schema, base). remote: STOCK
 * and CUSTOMER get no view, so the copy finds their parents.
 */
static void add_schema(struct sbuf *t, const struct layout_ddl *ddl, int k,
		       bool remote, const char *base, const char *functions,
		       char (*names)[ROUTES_NAME_MAX], int nnames)
{
	char schema[32];
	int u, i;

	snprintf(schema, sizeof(schema), "oltpmark_p%d%s", k + 1,
		 remote ? "_remote" : "");
	sbuf_printf(t, "CREATE SCHEMA %s;\n", schema);
	/* base is a quoted identifier without a single quote: literal-safe */
	sbuf_printf(t, "SELECT set_config('search_path', '%s, %s', true);\n",
		    schema, base);
	for (u = 0; u < ddl->nunits; u++) {
		const struct layout_ddl_unit *un = &ddl->units[u];

		if (un->tablespace != k ||
		    !load_table_info(un->table)->w_column ||
		    (remote && remote_table(un->table)))
			continue;
		sbuf_printf(t, "CREATE VIEW %s.%s AS SELECT * FROM %s.%s;\n",
			    schema, load_table_info(un->table)->name, base,
			    un->name);
	}
	sbuf_printf(t, "%s\n", functions);
	for (i = 0; i < nnames; i++)
		sbuf_printf(
			t,
			"ALTER ROUTINE %s.%s SET search_path FROM CURRENT;\n",
			schema, names[i]);
}

int routes_sql(const struct layout_ddl *ddl, const char *base_schema,
	       const char *functions_sql, char **out, struct err *err)
{
	char names[64][ROUTES_NAME_MAX];
	struct sbuf t = {0};
	int nnames, k, u;

	*out = NULL;
	if (ddl->layout != LOAD_LAYOUT_WAREHOUSE || ddl->ntablespaces < 1)
		return err_set(err, -EINVAL, "routes: not a warehouse layout");
	if (strchr(base_schema, '\''))
		return err_set(err, -EINVAL,
			       "routes: schema name %s holds a single quote",
			       base_schema);
	nnames = routes_routine_names(functions_sql, names, 64);
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
		add_schema(&t, ddl, k, false, base_schema, functions_sql, names,
			   nnames);
		add_schema(&t, ddl, k, true, base_schema, functions_sql, names,
			   nnames);
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

const char routes_drop_sql[] =
	"DO $oltpmark$ DECLARE s name; BEGIN "
	"IF to_regclass('oltpmark_routes') IS NOT NULL THEN "
	"FOR s IN EXECUTE 'SELECT home_schema FROM oltpmark_routes UNION "
	"SELECT remote_schema FROM oltpmark_routes' LOOP "
	"EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', s); "
	"END LOOP; END IF; END $oltpmark$;";
