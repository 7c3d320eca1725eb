/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_page.c - the page shell and escaper (see html_page.h) that
 * report.html and compare.html share, so both pages look alike and no
 * string from a file reaches either page unescaped.
 */
#include "analysis/common/html_page.h"

#include <string.h>

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;"
	"padding:0 1em;color:#222;line-height:1.35}"
	"h1{font-size:1.6em;margin-bottom:.2em}"
	"h2{border-bottom:1px solid #ccc;margin-top:1.8em}"
	"h3{margin-bottom:.3em}"
	".sub{color:#666;margin-top:0}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #ddd;padding:.2em .6em;text-align:right}"
	"th{background:#f4f4f4}"
	"td.l,th.l{text-align:left}"
	"table.kv th{text-align:left}"
	"table.kv td{text-align:left}"
	".ok{color:#1a7f37;font-weight:bold}"
	".bad{color:#c62828;font-weight:bold}"
	".unk{color:#8a6d00}"
	".banner{background:#fdecea;border:2px solid #c62828;color:#c62828;"
	"padding:.6em 1em;font-weight:bold;font-size:1.1em}"
	".diag{background:#fff8e1;border:2px solid #8a6d00;color:#8a6d00;"
	"padding:.6em 1em;font-weight:bold}"
	".warn{background:#fff3e0;border:2px solid #b35300;color:#b35300;"
	"padding:.6em 1em;font-weight:bold;margin-top:.4em}"
	".skip{color:#8a6d00}"
	"pre{background:#f8f8f8;border:1px solid #eee;padding:.5em;"
	"overflow-x:auto;font-size:.85em}"
	"figure{margin:1em 0}"
	"figure.half{display:inline-block;width:49%;margin:.5em 0;"
	"vertical-align:top}"
	"figure img{max-width:100%;border:1px solid #eee}"
	"figcaption{color:#555;font-size:.9em}"
	"tr.storage td{background:#fff3e0;font-weight:bold}"
	"nav a{margin-right:1em}"
	/* compare.html: captions, column groups, numbers, run lists */
	"caption{text-align:left;font-weight:bold;padding:.2em 0}"
	"th.group{text-align:center;border-left:2px solid #bbb}"
	".n{text-align:right;font-variant-numeric:tabular-nums}"
	"ul.mono li{font-family:monospace}"
	/* compare.html: significant scores, better or worse than the
	   baseline (the star says it in text too), and the links of a
	   score to its runs' report.html */
	"td.better{background:#e6f4ea;color:#1a7f37;font-weight:bold}"
	"td.worse{background:#fdecea;color:#c62828;font-weight:bold}"
	".runs{font-size:.8em;font-weight:normal;white-space:nowrap}"
	/* report.html: the link back to the compare page */
	"a.compare{font-weight:bold}";

void html_page_escape_len(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* keep tabs and newlines for <pre>, drop other
			   controls that would make the page invalid */
			if (c < 0x20 && c != '\n' && c != '\t')
				fputc('?', f);
			else
				fputc(c, f);
		}
	}
}

void html_page_escape(FILE *f, const char *s)
{
	if (s)
		html_page_escape_len(f, s, strlen(s));
}

void html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>",
	      f);
	html_page_escape(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
}

void html_page_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}
