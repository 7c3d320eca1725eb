/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcost_cpu.c - the server processes' CPU between the kernel-cost hook's
 * two process snapshots, split into the terminals' backends (which ran
 * the query ids), other sessions, background processes by kind, and the
 * processes that ended (see kcost.h), so that the CPU check compares the
 * query ids with the processes that ran them.
 */
#include "analysis/parsers/kcost.h"

#include <stdio.h>
#include <string.h>

/* application_name of the terminals' connections (drivers/pgconn.c). */
#define TERMINAL_APP "oltpmark-run"

static const struct kcost_proc *find_postmaster(const struct kcost_procs *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (strcmp(ps->p[i].backend_type, "postmaster") == 0)
			return &ps->p[i];
	return NULL;
}

/* The same process (pid and start time) in ps, or NULL. */
static const struct kcost_proc *find_proc(const struct kcost_procs *ps,
					  const struct kcost_proc *p)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->p[i].pid == p->pid &&
		    ps->p[i].starttime == p->starttime)
			return &ps->p[i];
	return NULL;
}

static double own_cpu(const struct kcost_proc *p)
{
	return p->user_s + p->system_s;
}

/* Add cpu_s to the background kind name (the last slot takes the rest
   when there are more kinds than slots). */
static void add_bg(struct kcost_cpu *c, const char *name, double cpu_s)
{
	size_t i;

	if (!name[0])
		name = "other";
	for (i = 0; i < c->nbg; i++)
		if (strcmp(c->bg[i].name, name) == 0)
			break;
	if (i == c->nbg) {
		if (c->nbg == KCOST_BG_MAX) {
			i = KCOST_BG_MAX - 1;
			snprintf(c->bg[i].name, sizeof(c->bg[i].name), "other");
		} else {
			snprintf(c->bg[i].name, sizeof(c->bg[i].name), "%s",
				 name);
			c->nbg++;
		}
	}
	c->bg[i].cpu_s += cpu_s;
	c->background_s += cpu_s;
}

/* bg by CPU, most first (insertion sort: a handful of entries). */
static void sort_bg(struct kcost_cpu *c)
{
	size_t i, j;

	for (i = 1; i < c->nbg; i++) {
		struct kcost_bg x = c->bg[i];

		for (j = i; j > 0 && c->bg[j - 1].cpu_s < x.cpu_s; j--)
			c->bg[j] = c->bg[j - 1];
		c->bg[j] = x;
	}
}

void kcost_cpu_compute(const struct kcost_procs *start,
		       const struct kcost_procs *stop, struct kcost_cpu *out)
{
	const struct kcost_proc *pa = find_postmaster(start);
	const struct kcost_proc *pb = find_postmaster(stop);
	double gone_s = 0, d;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!pa || !pb || pa->pid != pb->pid || pa->starttime != pb->starttime)
		return;
	for (i = 0; i < stop->n; i++) {
		const struct kcost_proc *b = &stop->p[i], *a;

		if (b == pb)
			continue;
		a = find_proc(start, b);
		d = own_cpu(b) - (a ? own_cpu(a) : 0);
		if (d < 0)
			d = 0;
		if (strcmp(b->backend_type, "client backend") != 0) {
			add_bg(out, b->backend_type, d);
		} else if (strcmp(b->app, TERMINAL_APP) == 0) {
			out->terminals_s += d;
			out->terminals++;
			out->terminals_new += !a;
		} else {
			out->sessions_s += d;
		}
	}
	/* What ended: the postmaster's children's time grew by their whole
	   CPU, of which their part before the start is not the interval's. */
	for (i = 0; i < start->n; i++) {
		const struct kcost_proc *a = &start->p[i];

		if (a == pa || find_proc(stop, a))
			continue;
		gone_s += own_cpu(a);
		out->terminals_gone +=
			strcmp(a->backend_type, "client backend") == 0 &&
			strcmp(a->app, TERMINAL_APP) == 0;
	}
	d = pb->child_s - pa->child_s - gone_s;
	out->ended_s = d > 0 ? d : 0;
	d = own_cpu(pb) - own_cpu(pa);
	add_bg(out, "postmaster", d > 0 ? d : 0);
	sort_bg(out);
	out->total_s = out->terminals_s + out->sessions_s + out->background_s +
		       out->ended_s;
	out->present = true;
}
