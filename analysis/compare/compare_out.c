/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_out.c - choosing the writer of `oltpmark compare`
 * (compare_out.h). Text, Markdown and HTML are one document
 * (compare_content.c) rendered three ways (compare_render.c); CSV
 * (compare_csv.c) and JSON (compare_json.c) are written from the numbers.
 */
#include "analysis/compare/compare_out.h"

#include <errno.h>
#include <string.h>

#include "analysis/compare/compare_content.h"
#include "analysis/compare/compare_csv.h"
#include "analysis/compare/compare_doc.h"
#include "analysis/compare/compare_json.h"
#include "analysis/compare/compare_render.h"

const char *const compare_out_format_names[] = {"text", "md",	"csv", "json",
						"html", "mail", NULL};

const char *compare_out_file_name(enum cout_format fmt)
{
	static const char *const names[COUT_FORMAT_NR] = {
		[COUT_TEXT] = "scores.txt",   [COUT_MD] = "scores.md",
		[COUT_CSV] = "scores.csv",    [COUT_JSON] = "scores.json",
		[COUT_HTML] = "compare.html", [COUT_MAIL] = "scores-mail.txt",
	};

	return (unsigned)fmt < COUT_FORMAT_NR ? names[fmt] : "scores.txt";
}

int compare_out_write(FILE *f, enum cout_format fmt_id,
		      const struct cout_input *in, struct err *err)
{
	struct cdoc d = {0};
	struct cout_input mail = *in;
	int rc = 0;

	switch (fmt_id) {
	case COUT_CSV:
		compare_csv_write(f, in);
		break;
	case COUT_JSON:
		rc = compare_json_write(f, in, err);
		break;
	case COUT_MAIL:
		mail.mail = true;
		compare_content_build(&d, &mail, false);
		if (d.oom) {
			rc = err_set(err, -ENOMEM, "out of memory");
			break;
		}
		rc = compare_render_mail(f, &d);
		if (rc < 0)
			rc = err_set(err, rc, "out of memory");
		break;
	case COUT_TEXT:
	case COUT_MD:
	case COUT_HTML:
	default:
		compare_content_build(&d, in, fmt_id == COUT_HTML);
		if (d.oom) {
			rc = err_set(err, -ENOMEM, "out of memory");
			break;
		}
		if (fmt_id == COUT_MD)
			rc = compare_render_md(f, &d);
		else if (fmt_id == COUT_HTML)
			rc = compare_render_html(f, &d);
		else
			rc = compare_render_text(f, &d);
		if (rc < 0)
			rc = err_set(err, rc, "out of memory");
		break;
	}
	compare_doc_free(&d);
	if (rc == 0 && (fflush(f) != 0 || ferror(f)))
		rc = err_set(err, -EIO, "write failed: %s", strerror(errno));
	return rc;
}
