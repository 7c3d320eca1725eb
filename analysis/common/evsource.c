/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evsource.c - the evidence sources (evsource.h): run/hooks.tsv, embedded
 * as evsource_tsv, split once into rows. The text is copied and cut in
 * place; the rows point into the copy for the life of the process.
 */
#include "analysis/common/evsource.h"

#include <stdlib.h>
#include <string.h>

#define EVSOURCE_MAX 64 /* rows the table holds */

static struct evsource rows[EVSOURCE_MAX];
static size_t nrows, nbad;
static bool parsed;

/* Next tab- (or end-) delimited field of *p, cut in place; NULL at end. */
static char *field(char **p)
{
	char *s = *p, *tab;

	if (!s)
		return NULL;
	tab = strchr(s, '\t');
	if (tab) {
		*tab = '\0';
		*p = tab + 1;
	} else {
		*p = NULL;
	}
	return s;
}

/* One line into a row; false when it is malformed. */
static bool parse_row(char *line, struct evsource *r)
{
	char *p = line, *hook = field(&p), *group = field(&p),
	     *package = field(&p), *files = field(&p), *title = field(&p);
	char *save = NULL, *f;
	size_t k = 0;

	if (!title || p || !hook[0] || !files[0] || !title[0])
		return false;
	if (strcmp(group, "cheap") && strcmp(group, "diagnostic"))
		return false;
	memset(r, 0, sizeof(*r));
	r->hook = hook;
	r->diagnostic = strcmp(group, "diagnostic") == 0;
	r->package = package;
	r->title = strcmp(title, "-") ? title : NULL;
	for (f = strtok_r(files, ",", &save); f;
	     f = strtok_r(NULL, ",", &save)) {
		if (k == EVSOURCE_FILES_MAX)
			return false;
		r->files[k++] = f;
	}
	return k > 0;
}

static void parse_all(void)
{
	char *text, *line, *next;

	parsed = true;
	text = strdup(evsource_tsv);
	if (!text)
		return;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (nrows < EVSOURCE_MAX && parse_row(line, &rows[nrows]))
			nrows++;
		else
			nbad++;
	}
	/* text stays: the rows point into it */
}

const struct evsource *evsource_table(size_t *n)
{
	if (!parsed)
		parse_all();
	*n = nrows;
	return rows;
}

const struct evsource *evsource_find(const char *hook)
{
	size_t i, n;
	const struct evsource *t = evsource_table(&n);

	for (i = 0; i < n; i++)
		if (strcmp(t[i].hook, hook) == 0)
			return &t[i];
	return NULL;
}

bool evsource_has_file(const struct evsource *s, const char *file)
{
	size_t k;

	for (k = 0; s && s->files[k]; k++)
		if (strcmp(s->files[k], file) == 0)
			return true;
	return false;
}

size_t evsource_bad_rows(void)
{
	size_t n;

	evsource_table(&n);
	return nbad;
}
