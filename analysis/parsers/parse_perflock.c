/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse_perflock.c - `perf lock contention` output to a list of rows (see
 * parse_perflock.h for the layout).
 *
 * The header fixes the columns: a count, times of two tokens each (a
 * number and a unit), the type and the caller. A row is read column by
 * column from its tokens; the caller is what is left of the line, cut
 * from an untouched copy so that it is kept as printed.
 */
#include "analysis/parsers/parse_perflock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parsers/symbols.h"
#include "analysis/parsers/textline.h"

#define PERFLOCK_TOKENS_MAX 64 /* 9 in a default row */

/* The columns perf lock contention prints, by header name. */
enum perflock_col {
	PL_CONTENDED, /* "contended": a count */
	PL_TOTAL,     /* "total wait": a time */
	PL_MAX,	      /* "max wait" */
	PL_MIN,	      /* "min wait" (-F wait_min) */
	PL_AVG,	      /* "avg wait" */
	PL_TYPE,      /* "type": one token */
	PL_CALLER,    /* "caller": the rest of the line */
	PL_NR,
};

/* First word of the two-word time columns ("total" of "total wait"). */
static const char *const perflock_wait_words[PL_NR] = {
	[PL_TOTAL] = "total",
	[PL_MAX] = "max",
	[PL_MIN] = "min",
	[PL_AVG] = "avg",
};

/*
 * The units perf prints times in (lock_stat_key_print_time() in perf's
 * builtin-lock.c picks one per value) and microseconds per unit.
 */
static const struct {
	const char *unit; /* as printed */
	double us;	  /* microseconds in one */
} perflock_units[] = {
	{"ns", 1e-3}, {"us", 1.0}, {"ms", 1e3},
	{"s", 1e6},   {"m", 60e6}, {"h", 3600e6},
};

/*
 * Callers on the storage path, by the prefix of their function name: the
 * call sites storage people follow, as lock_stat's host_lock and queue
 * locks (parse_lockstat.c). perf lock names the function that waited,
 * not the lock, so the list names code, not lock classes. Documented in
 * docs/compare.md and docs/hook-formats.md; keep them in step.
 */
static const char *const perflock_storage[] = {
	"scsi_",	   /* SCSI midlayer: scsi_queue_rq, scsi_end_request */
	"__scsi_",	   /* its helpers: __scsi_queue_insert */
	"blk_",		   /* block layer and blk-mq: blk_mq_submit_bio */
	"__blk_",	   /* its helpers: __blk_mq_sched_dispatch_requests */
	"bfq_",		   /* BFQ scheduler */
	"dd_",		   /* mq-deadline scheduler: dd_dispatch_request */
	"kyber_",	   /* Kyber scheduler */
	"nvme_",	   /* NVMe driver */
	"virtblk_",	   /* virtio-blk driver */
	"virtio_queue_rq", /* virtio-blk's queue_rq */
	"ata_",		   /* libata */
	"sd_setup_",	   /* SCSI disk driver; not all of sd_: the
			      scheduler's sched-domain code is sd_ too */
	"sd_init_command", /* ... its command setup */
};

/* Parser state between lines. */
struct perflock_state {
	size_t ncols;		      /* columns in the header; 0 before it */
	enum perflock_col col[PL_NR]; /* header position -> column */
	bool footer;		      /* past "=== output for debug ===" */
};

/* Copy of copy[from, to) without blanks at either end; NULL on ENOMEM. */
static char *perflock_trimmed(const char *copy, size_t from, size_t to)
{
	while (from < to && (copy[from] == ' ' || copy[from] == '\t'))
		from++;
	while (to > from && (copy[to - 1] == ' ' || copy[to - 1] == '\t' ||
			     copy[to - 1] == '\r'))
		to--;
	return strndup(copy + from, to - from);
}

/* The column header: fill st; true if it is one. */
static bool perflock_header(struct perflock_state *st, char **tok, size_t ntok)
{
	bool seen[PL_NR] = {false};
	size_t i = 0, n = 0;
	int c, k;

	while (i < ntok) {
		c = -1;
		if (strcmp(tok[i], "contended") == 0)
			c = PL_CONTENDED;
		else if (strcmp(tok[i], "type") == 0)
			c = PL_TYPE;
		else if (strcmp(tok[i], "caller") == 0)
			c = PL_CALLER;
		else if (i + 1 < ntok && strcmp(tok[i + 1], "wait") == 0)
			for (k = 0; k < PL_NR; k++)
				if (perflock_wait_words[k] &&
				    strcmp(tok[i], perflock_wait_words[k]) == 0)
					c = k;
		if (c < 0 || seen[c])
			return false;
		seen[c] = true;
		st->col[n++] = (enum perflock_col)c;
		i += perflock_wait_words[c] ? 2 : 1;
	}
	if (!seen[PL_CONTENDED] || !seen[PL_CALLER] ||
	    st->col[n - 1] != PL_CALLER)
		return false;
	st->ncols = n;
	return true;
}

/* A time printed as number and unit into microseconds. */
static bool perflock_time(const char *num, const char *unit, double *us)
{
	double v;
	size_t i;

	if (!textline_decimal(num, false, &v))
		return false;
	for (i = 0; i < sizeof(perflock_units) / sizeof(perflock_units[0]); i++)
		if (strcmp(unit, perflock_units[i].unit) == 0) {
			*us = v * perflock_units[i].us;
			return true;
		}
	return false;
}

static int perflock_add(struct perflock_data *d, const struct perflock_row *r)
{
	struct perflock_row *nr;
	size_t cap;

	if (d->n == d->cap) {
		cap = d->cap ? d->cap * 2 : 64;
		nr = reallocarray(d->rows, cap, sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		d->rows = nr;
		d->cap = cap;
	}
	d->rows[d->n++] = *r;
	return 0;
}

static void perflock_row_free(struct perflock_row *r)
{
	free(r->caller);
	free(r->func);
	free(r->type);
}

/* A row: 0 stored, 1 not a row, or -ENOMEM. */
static int perflock_row_line(const struct perflock_state *st,
			     struct perflock_data *d, const char *copy,
			     const char *line, char **tok, size_t ntok)
{
	struct perflock_row r = {
		.total_us = NAN, .max_us = NAN, .min_us = NAN, .avg_us = NAN};
	const char *type = "";
	double *t = NULL;
	size_t c, i = 0, len;

	for (c = 0; c + 1 < st->ncols; c++) {
		if (i >= ntok)
			return 1;
		switch (st->col[c]) {
		case PL_CONTENDED:
			if (!textline_uint(tok[i++], 10, &r.contended))
				return 1;
			continue;
		case PL_TYPE:
			type = tok[i++];
			continue;
		case PL_TOTAL:
			t = &r.total_us;
			break;
		case PL_MAX:
			t = &r.max_us;
			break;
		case PL_MIN:
			t = &r.min_us;
			break;
		case PL_AVG:
			t = &r.avg_us;
			break;
		default:
			return 1;
		}
		if (i + 1 >= ntok || !perflock_time(tok[i], tok[i + 1], t))
			return 1;
		i += 2;
	}
	if (i >= ntok)
		return 1; /* no caller: the line ended early */
	r.caller =
		perflock_trimmed(copy, (size_t)(tok[i] - line), strlen(copy));
	if (!r.caller)
		return -ENOMEM;
	len = strchr(r.caller, '+') ? (size_t)(strchr(r.caller, '+') - r.caller)
				    : strcspn(r.caller, " \t");
	len = symbols_base_len(r.caller, len);
	if (len == 0) {
		free(r.caller);
		return 1;
	}
	r.func = strndup(r.caller, len);
	r.type = strdup(type);
	if (!r.func || !r.type)
		goto nomem;
	r.storage = parse_perflock_is_storage_caller(r.func);
	if (perflock_add(d, &r))
		goto nomem;
	return 0;
nomem:
	perflock_row_free(&r);
	return -ENOMEM;
}

/* A -v call-stack line: "\t\t\t0xffffffff81234567  func+0x12". */
static bool perflock_stack_line(const char *line, char **tok, size_t ntok)
{
	uint64_t ip;

	return (line[0] == ' ' || line[0] == '\t') && ntok >= 1 &&
	       strncmp(tok[0], "0x", 2) == 0 &&
	       textline_uint(tok[0] + 2, 16, &ip);
}

int parse_perflock(FILE *f, struct perflock_data *out, struct err *err)
{
	struct textline tl = {0};
	struct perflock_state st = {.ncols = 0};
	char *tok[PERFLOCK_TOKENS_MAX];
	char *copy = NULL;
	size_t nonblank = 0, ntok;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((rc = textline_read(&tl, f, err)) > 0) {
		char *line = tl.line;
		bool nul = textline_has_nul(&tl);

		if (!nul) {
			free(copy);
			copy = strdup(line);
			if (!copy)
				goto nomem;
		}
		ntok = nul ? 1 : textline_split(line, tok, PERFLOCK_TOKENS_MAX);
		if (ntok == 0)
			continue;
		nonblank++;
		if (st.footer)
			continue;
		if (st.ncols == 0) {
			if (nul || !tl.complete || ntok == SIZE_MAX ||
			    !perflock_header(&st, tok, ntok))
				out->preamble_lines++;
			continue;
		}
		if (nul || !tl.complete || ntok == SIZE_MAX) {
			out->bad_lines++;
			continue;
		}
		if (strncmp(tok[0], "===", 3) == 0) {
			st.footer = out->debug_footer = true;
			continue;
		}
		if (perflock_stack_line(copy, tok, ntok)) {
			out->stack_lines++;
			continue;
		}
		rc = perflock_row_line(&st, out, copy, line, tok, ntok);
		if (rc < 0)
			goto nomem;
		if (rc == 1)
			out->bad_lines++;
		rc = 0;
	}
	if (rc < 0)
		goto fail;
	if (nonblank == 0) {
		rc = err_set(err, -ENODATA,
			     "empty perf lock contention output");
		goto fail;
	}
	if (st.ncols == 0) {
		rc = err_set(
			err, -EINVAL,
			"no perf lock contention header (\"contended ... caller\")");
		goto fail;
	}
	textline_free(&tl);
	free(copy);
	return 0;
nomem:
	rc = err_set(err, -ENOMEM, "line %zu: out of memory", tl.lineno);
fail:
	textline_free(&tl);
	free(copy);
	parse_perflock_free(out);
	return rc;
}

/* parse_perflock() with the out that textline_parse_file() hands on. */
static int perflock_parse_stream(FILE *f, void *out, struct err *err)
{
	return parse_perflock(f, out, err);
}

int parse_perflock_file(const char *path, struct perflock_data *out,
			struct err *err)
{
	memset(out, 0, sizeof(*out));
	return textline_parse_file(path, perflock_parse_stream, out, err);
}

void parse_perflock_free(struct perflock_data *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		perflock_row_free(&d->rows[i]);
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

bool parse_perflock_is_storage_caller(const char *func)
{
	size_t i;

	for (i = 0; i < sizeof(perflock_storage) / sizeof(perflock_storage[0]);
	     i++)
		if (strncmp(func, perflock_storage[i],
			    strlen(perflock_storage[i])) == 0)
			return true;
	return false;
}

const char *parse_perflock_storage_prefix(size_t i)
{
	if (i >= sizeof(perflock_storage) / sizeof(perflock_storage[0]))
		return NULL;
	return perflock_storage[i];
}

const struct perflock_row *parse_perflock_find(const struct perflock_data *d,
					       const char *func)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].func, func) == 0)
			return &d->rows[i];
	return NULL;
}
