/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_ctx.c - the small writers every part of report.html uses
 * (html_ctx.h): numbers, cells, verdicts, notes, sys/ paths and a text
 * file in <pre>.
 */
#include "analysis/report/html_ctx.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/common/html_page.h"

void html_ctx_num(FILE *f, double v, int decimals)
{
	if (isfinite(v))
		fprintf(f, "%.*f", decimals, v);
	else
		fputs("&ndash;", f);
}

/* A count from run.json, "?" when unknown. */
void html_ctx_count(FILE *f, int64_t v)
{
	if (v < 0)
		fputc('?', f);
	else
		fprintf(f, "%lld", (long long)v);
}

void html_ctx_td_num(FILE *f, double v, int decimals)
{
	fputs("<td>", f);
	html_ctx_num(f, v, decimals);
	fputs("</td>", f);
}

void html_ctx_td_text(FILE *f, const char *s)
{
	fputs("<td class=\"l\">", f);
	html_page_escape(f, s);
	fputs("</td>", f);
}

void html_ctx_td_u64(FILE *f, uint64_t v)
{
	fprintf(f, "<td>%llu</td>", (unsigned long long)v);
}

void html_ctx_verdict(FILE *f, int v, const char *yes, const char *no)
{
	if (v < 0)
		fputs("<span class=\"unk\">unknown</span>", f);
	else if (v)
		fprintf(f, "<span class=\"ok\">%s</span>", yes);
	else
		fprintf(f, "<span class=\"bad\">%s</span>", no);
}

void html_ctx_td_verdict(FILE *f, int v)
{
	fputs("<td class=\"l\">", f);
	html_ctx_verdict(f, v, "ok", "FAILED");
	fputs("</td>", f);
}

/* A paragraph of escaped text with a class. */
void html_ctx_note(FILE *f, const char *cls, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "<p class=\"%s\">", cls);
	html_page_escape(f, buf);
	fputs("</p>\n", f);
}

bool html_ctx_sys_path(const struct html_ctx *c, const char *name, char *out,
		       size_t size)
{
	size_t a = strlen(c->sys), b = strlen(name);

	/* by hand: snprintf("%s/%s") into PATH_MAX draws truncation
	   warnings that the length check cannot silence */
	if (a + 1 + b + 1 > size) {
		if (size)
			out[0] = '\0';
		return false;
	}
	memcpy(out, c->sys, a);
	out[a] = '/';
	memcpy(out + a + 1, name, b + 1);
	return true;
}

bool html_ctx_sys_exists(const struct html_ctx *c, const char *name)
{
	char path[PATH_MAX];

	return html_ctx_sys_path(c, name, path, sizeof(path)) &&
	       access(path, F_OK) == 0;
}

/*
 * Show a text file in <pre>: up to max_lines lines (0: all) and
 * HTML_TEXT_MAX bytes, lines starting with skip_prefix left out.
 */
void html_ctx_pre_file(struct html_ctx *c, const char *path, int max_lines,
		       const char *skip_prefix)
{
	char line[4096];
	size_t bytes = 0;
	int lines = 0;
	bool cut = false;
	FILE *in = fopen(path, "r");

	if (!in) {
		html_ctx_note(c->f, "unk", "cannot read %s: %s", path,
			      strerror(errno));
		return;
	}
	fputs("<pre>", c->f);
	while (fgets(line, sizeof(line), in)) {
		if (skip_prefix &&
		    strncmp(line, skip_prefix, strlen(skip_prefix)) == 0)
			continue;
		if ((max_lines && lines >= max_lines) ||
		    bytes >= HTML_TEXT_MAX) {
			cut = true;
			break;
		}
		html_page_escape(c->f, line);
		bytes += strlen(line);
		lines++;
	}
	fputs("</pre>\n", c->f);
	if (cut)
		fputs("<p class=\"sub\">(cut here; the whole file is in "
		      "sys/)</p>\n",
		      c->f);
	fclose(in);
}

/* Seconds between the modification times of two files, NAN if unknown. */
double html_ctx_mtime_span_s(const char *a, const char *b)
{
	struct stat sa, sb;
	double d;

	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return NAN;
	d = (double)(sb.st_mtim.tv_sec - sa.st_mtim.tv_sec) +
	    (double)(sb.st_mtim.tv_nsec - sa.st_mtim.tv_nsec) / 1e9;
	/* copies (cp, git checkout) give both files about the same time:
	   no rate can be built on that */
	return d >= 1.0 ? d : NAN;
}
