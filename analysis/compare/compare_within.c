/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_within.c - is every block score of a configuration within
 * +-PCT (see compare_within.h).
 */
#include "analysis/compare/compare_within.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Whether name is one of the n labels. */
static bool wanted(const char *name, const char *const *labels, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(name, labels[i]) == 0)
			return true;
	return false;
}

/* Append " label" to why, "..." once it is full. */
static void add_missing(char *why, size_t size, const char *label)
{
	size_t len = strlen(why), need = strlen(label) + 1;

	if (len + need + 4 < size) {
		why[len] = ' ';
		memcpy(why + len + 1, label, need);
	} else if (len + 4 < size && strcmp(why + len - 3, "...") != 0) {
		memcpy(why + len, "...", 4);
	}
}

void compare_within_check(const struct score_table *t, const char *config,
			  const char *const *labels, size_t nlabels,
			  double target_pct, struct cwithin *out)
{
	static const char missing_head[] = "no interval yet for";
	int c = score_config_index(t, config);
	bool missing = false;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->widest = NAN;
	memcpy(out->why, missing_head, sizeof(missing_head));
	for (i = 0; c >= 0 && i < t->nlabels; i++) {
		size_t l = score_row_label(t, i);
		const struct score_cell *s = score_cell(t, l, (size_t)c);

		if (!s->blocks || !wanted(t->labels[l], labels, nlabels))
			continue;
		out->cells++;
		if (!isfinite(s->half_width) || s->half_width < 0) {
			missing = true;
			add_missing(out->why, sizeof(out->why), t->labels[l]);
			continue;
		}
		if (isnan(out->widest) || s->half_width > out->widest)
			out->widest = s->half_width;
	}
	if (out->cells == 0 || missing) {
		out->verdict = CWITHIN_NONE;
		out->widest = NAN;
		if (out->cells == 0)
			snprintf(out->why, sizeof(out->why),
				 "no block score of %s yet", config);
		return;
	}
	out->verdict =
		out->widest <= target_pct ? CWITHIN_REACHED : CWITHIN_SHORT;
	out->why[0] = '\0';
}

void compare_within_write(FILE *f, const struct cwithin *w)
{
	if (w->verdict == CWITHIN_NONE)
		fprintf(f, "none %s\n", w->why);
	else
		fprintf(f, "%.2f %s\n", w->widest,
			w->verdict == CWITHIN_REACHED ? "reached" : "short");
}
