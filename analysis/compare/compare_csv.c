/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_csv.c - compare's CSV writer (compare_csv.h). Numbers are
 * printed with %.10g, enough to round-trip what the tables show.
 */
#include "analysis/compare/compare_csv.h"

#include <math.h>
#include <string.h>

static void csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ",value" with enough digits to round-trip what we print, or ",". */
static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

/*
 * The provenance and the differences as a block of lines starting with
 * '#' above the header, which CSV readers skip as comments (comment="#"
 * in pandas, R's read.csv(comment.char = "#"), gnuplot), so the figures
 * and where they come from travel in one file. A '#' line never holds a
 * newline.
 */
static void csv_head(FILE *f, const struct cout_input *in)
{
	const struct comparable *cp = in->cmp;
	const struct score_table *t = in->t;
	size_t i, r;

	if (!cp)
		return;
	for (i = 0; i < cp->nfacts; i++)
		fprintf(f, "# %s: %s\n", cp->facts[i].name, cp->facts[i].text);
	for (r = 0; r < t->nlabels; r++) {
		size_t l = score_row_label(t, r), n = 0;

		if (l == t->baseline)
			continue;
		if (!cp->label_known || !cp->label_known[l]) {
			fprintf(f, "# differs: %s: not recorded\n",
				t->labels[l]);
			continue;
		}
		for (i = 0; i < cp->ndiffers; i++)
			if (strcmp(cp->differs[i].label, t->labels[l]) == 0) {
				fprintf(f, "# differs: %s: %s %s -> %s\n",
					t->labels[l], cp->differs[i].key,
					cp->differs[i].a, cp->differs[i].b);
				n++;
			}
		if (!n)
			fprintf(f, "# differs: %s: %s\n", t->labels[l],
				comparable_no_difference);
	}
	for (i = 0; i < cp->nallowed; i++)
		fprintf(f, "# allowed to differ: %s %s: %s, %s\n",
			cp->allowed[i].group, cp->allowed[i].key,
			cp->allowed[i].a, cp->allowed[i].b);
	if (cp->nold)
		fprintf(f,
			"# not checked: %zu of %zu scored runs record no "
			"fingerprint\n",
			cp->nold, cp->nold + cp->nchecked);
}

void compare_csv_write(FILE *f, const struct cout_input *in)
{
	const struct score_table *t = in->t;
	size_t i, c;

	csv_head(f, in);
	fputs("label,config,baseline,runs,runs_not_scored,mean,geomean,sd,"
	      "cov_pct,score,ci95_lo,ci95_hi,half_width,df,t,p,p_holm,"
	      "significant,notpm,new_order_p90_ms,new_order_mean_ms,cpu_pct,"
	      "iowait_pct,ratio,host_cpu_ns,host_cpu_cov_pct,host_mem_ns,"
	      "host_mem_cov_pct,host_fsync_ms,host_fsync_cov_pct,design,"
	      "mde_pct,resolve_1pct_runs,resolve_1pct_s,steal_pct,"
	      "steal_coef,steal_var_removed,devices,busiest_device,"
	      "busiest_device_share_pct,kernel_cost_most_changed\n",
	      f);
	for (i = 0; i < t->nlabels; i++) {
		size_t l = score_row_label(t, i);

		for (c = 0; c < t->nconfigs; c++) {
			const struct score_cell *s = score_cell(t, l, c);
			const struct cev_contest *cc =
				compare_evidence_contest_at(in->ev, l, c);
			const struct cdev_row *busiest;
			char most[512];
			size_t ndev = compare_devices_busiest(
				&in->ev->devices, t->labels[l], t->configs[c],
				&busiest);

			csv_str(f, t->labels[l]);
			fputc(',', f);
			csv_str(f, t->configs[c]);
			fprintf(f, ",%d,%zu,%zu", l == t->baseline, s->n,
				s->n_excluded);
			csv_num(f, s->mean);
			csv_num(f, s->gmean);
			csv_num(f, s->sd);
			csv_num(f, 100 * s->cov);
			csv_num(f, s->score);
			csv_num(f, s->ci_lo);
			csv_num(f, s->ci_hi);
			csv_num(f, s->half_width);
			csv_num(f, s->df);
			csv_num(f, s->t);
			csv_num(f, s->p);
			csv_num(f, s->p_holm);
			fprintf(f, ",%d", s->significant);
			csv_num(f, cc->notpm);
			csv_num(f, cc->no_p90_ms);
			csv_num(f, cc->no_mean_ms);
			csv_num(f, cc->cpu_pct);
			csv_num(f, cc->iowait_pct);
			csv_num(f, cc->ratio);
			csv_num(f, cc->host_cpu_ns);
			csv_num(f, 100 * cc->host_cpu_cov);
			csv_num(f, cc->host_mem_ns);
			csv_num(f, 100 * cc->host_mem_cov);
			csv_num(f, cc->host_fsync_ms);
			csv_num(f, 100 * cc->host_fsync_cov);
			fputs(s->blocks ? ",blocks" : ",runs", f);
			csv_num(f, s->mde_pct);
			csv_num(f, s->resolve_runs);
			if (isinf(s->resolve_s))
				fputs(",inf", f);
			else
				csv_num(f, s->resolve_s);
			csv_num(f, s->steal_pct);
			csv_num(f, s->steal_coef);
			csv_num(f, s->var_removed);
			/* the devices under the database, when recorded */
			if (ndev)
				fprintf(f, ",%zu", ndev);
			else
				fputc(',', f);
			fputc(',', f);
			csv_str(f, busiest ? busiest->name : NULL);
			csv_num(f, busiest ? busiest->fig[CDEV_SHARE] : NAN);
			/* the kernel-cost hook's "what changed most" line */
			compare_kcost_most(&in->ev->kcost, t->labels[l],
					   t->configs[c], most, sizeof(most));
			fputc(',', f);
			csv_str(f, most[0] ? most : NULL);
			fputc('\n', f);
		}
	}
}
