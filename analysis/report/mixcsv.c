/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mixcsv.c - the mix.csv reader (see mixcsv.h for the contract).
 *
 * Summary: the buffer holds whole lines from pos to the last newline read
 * so far; a line cut by the end of the buffer is moved to its start before
 * the next read(). Each line is found with memchr() and parsed field by
 * field with hand-written integer parsing: strtoull() and sscanf() would
 * cost more than the 50 MB/s the report has to reach on big runs.
 */
#include "analysis/report/mixcsv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Longest decimal accepted: 19 digits cannot overflow 64 bits. */
#define MIXCSV_DIGITS_MAX 19
/* How much of a bad line a message quotes. */
#define MIXCSV_QUOTE_MAX 60

/* Copy up to MIXCSV_QUOTE_MAX bytes of a line, escaping non-printables. */
static void quote_line(const char *p, const char *e, char *out, size_t size)
{
	size_t n = 0;

	while (p < e && n + 5 < size && n < MIXCSV_QUOTE_MAX) {
		unsigned char c = (unsigned char)*p++;

		if (c >= 0x20 && c < 0x7f)
			out[n++] = (char)c;
		else
			n += (size_t)snprintf(out + n, size - n, "\\x%02x", c);
	}
	if (p < e && n + 4 < size) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
}

static int bad_line(struct mixcsv_reader *r, const char *line, const char *end,
		    const char *what, struct err *err)
{
	char q[MIXCSV_QUOTE_MAX * 4 + 8];

	quote_line(line, end, q, sizeof(q));
	return err_set(err, -EBADMSG, "%s: line %llu: %s in '%s'", r->path,
		       (unsigned long long)r->line, what, q);
}

/*
 * Parse an unsigned decimal at *pp that ends at stop (a ',' or the end
 * of the line). Moves *pp to stop. 0, or -1 when empty, not digits or too
 * long.
 */
static inline int parse_u64(const char **pp, const char *e, char stop,
			    uint64_t *out)
{
	const char *p = *pp, *start = p;
	uint64_t v = 0;

	while (p < e && (unsigned)(*p - '0') < 10) {
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	if (p == start || p - start > MIXCSV_DIGITS_MAX)
		return -1;
	if (stop ? (p >= e || *p != stop) : p != e)
		return -1;
	*out = v;
	*pp = stop ? p + 1 : p;
	return 0;
}

/* Whether the n bytes at p are the word w (a string literal). */
#define IS_WORD(p, n, w) \
	((n) == sizeof(w) - 1 && memcmp(p, w, sizeof(w) - 1) == 0)
/* A case of a switch on a word's length, then the word itself. */
#define CASE_WORD(p, w, value, out)                   \
	case sizeof(w) - 1:                           \
		if (memcmp(p, w, sizeof(w) - 1) == 0) \
			out = value;                  \
		break

/*
 * The type word between p and the next ','; -1 when unknown. The words
 * are src/base/mixcsv_format.h's. A switch on the length, then one
 * memcmp of a constant length (inlined): the same code as when the
 * words were spelled out here. The five lengths differ; two words of one
 * length would be a duplicate case, a compile error, not a slow path.
 */
static inline int parse_type(const char **pp, const char *e)
{
	const char *p = *pp;
	const char *comma = memchr(p, ',', (size_t)(e - p));
	int type = -1;

	if (!comma)
		return -1;
	switch ((size_t)(comma - p)) {
		CASE_WORD(p, MIXCSV_WORD_PAYMENT, TXN_PAYMENT, type);
		CASE_WORD(p, MIXCSV_WORD_DELIVERY, TXN_DELIVERY, type);
		CASE_WORD(p, MIXCSV_WORD_NEW_ORDER, TXN_NEW_ORDER, type);
		CASE_WORD(p, MIXCSV_WORD_STOCK_LEVEL, TXN_STOCK_LEVEL, type);
		CASE_WORD(p, MIXCSV_WORD_ORDER_STATUS, TXN_ORDER_STATUS, type);
	}
	*pp = comma + 1;
	return type;
}

/* The status word between p and the next ','; -1 when unknown. */
static inline int parse_status(const char **pp, const char *e)
{
	const char *p = *pp;
	const char *comma = memchr(p, ',', (size_t)(e - p));
	size_t n;
	int status = -1;

	if (!comma)
		return -1;
	n = (size_t)(comma - p);
	if (IS_WORD(p, n, MIXCSV_WORD_OK))
		status = TXN_STATUS_OK;
	else if (IS_WORD(p, n, MIXCSV_WORD_ROLLBACK))
		status = TXN_STATUS_ROLLBACK;
	else if (IS_WORD(p, n, MIXCSV_WORD_ERROR))
		status = TXN_STATUS_ERROR;
	*pp = comma + 1;
	return status;
}

/* Parse one row between line and end (no newline, no CR). */
static int parse_row(struct mixcsv_reader *r, const char *line, const char *end,
		     struct mixcsv_row *row, struct err *err)
{
	const char *p = line;
	uint64_t v;
	int k;

	if (p == end)
		return bad_line(r, line, end, "empty line", err);
	if (parse_u64(&p, end, ',', &v) || v > INT64_MAX)
		return bad_line(r, line, end, "bad t_ms", err);
	row->t_ms = (int64_t)v;
	if (parse_u64(&p, end, ',', &v) || v > INT64_MAX)
		return bad_line(r, line, end, "bad terminal", err);
	row->terminal = (int64_t)v;
	k = parse_type(&p, end);
	if (k < 0)
		return bad_line(r, line, end, "unknown type", err);
	row->type = (enum txn_type)k;
	k = parse_status(&p, end);
	if (k < 0)
		return bad_line(r, line, end, "unknown status", err);
	row->status = (enum txn_status)k;
	if (parse_u64(&p, end, ',', &row->response_us))
		return bad_line(r, line, end, "bad response_us", err);
	if (r->has_host) {
		if (parse_u64(&p, end, ',', &row->service_us))
			return bad_line(r, line, end, "bad service_us", err);
		if (p == end || memchr(p, ',', (size_t)(end - p)))
			return bad_line(r, line, end,
					"bad host (or extra fields)", err);
		return 0;
	}
	if (parse_u64(&p, end, '\0', &row->service_us))
		return bad_line(r, line, end,
				"bad service_us (or extra fields)", err);
	return 0;
}

/*
 * Make room and read more input after the unparsed tail. 0 (possibly
 * setting eof), -EBADMSG when one line fills the whole buffer, -EIO.
 */
static int fill(struct mixcsv_reader *r, struct err *err)
{
	ssize_t n;

	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->len == MIXCSV_BUF_SIZE)
		return err_set(err, -EBADMSG,
			       "%s: line %llu: longer than %d bytes", r->path,
			       (unsigned long long)r->line + 1,
			       MIXCSV_BUF_SIZE);
	do
		n = read(r->fd, r->buf + r->len, MIXCSV_BUF_SIZE - r->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return err_set(err, -EIO, "%s: read: %s", r->path,
			       strerror(errno));
	if (n == 0)
		r->eof = true;
	r->len += (size_t)n;
	return 0;
}

/*
 * Find the next complete line: *line and *end (CR and LF stripped).
 * 1 with a line, 0 at the end of the input (a cut last line is then
 * counted in truncated_lines and dropped), negative on error.
 */
static int next_line(struct mixcsv_reader *r, const char **line,
		     const char **end, struct err *err)
{
	for (;;) {
		char *start = r->buf + r->pos;
		char *nl = memchr(start, '\n', r->len - r->pos);
		int rc;

		if (nl) {
			r->bytes += (uint64_t)(nl + 1 - start);
			r->pos = (size_t)(nl + 1 - r->buf);
			r->line++;
			if (nl > start && nl[-1] == '\r')
				nl--;
			*line = start;
			*end = nl;
			return 1;
		}
		if (r->eof) {
			if (r->pos < r->len) {
				r->truncated_lines++;
				r->bytes += r->len - r->pos;
				r->pos = r->len;
			}
			return 0;
		}
		rc = fill(r, err);
		if (rc < 0)
			return rc;
	}
}

int mixcsv_open(struct mixcsv_reader *r, const char *path, struct err *err)
{
	const char *line, *end;
	struct stat st;
	size_t hlen = strlen(MIXCSV_HEADER);
	size_t hhlen = strlen(MIXCSV_HEADER_HOST);
	int rc;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return err_set(err, -errno, "%s: %s", path, strerror(errno));
	if (fstat(r->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		mixcsv_close(r);
		return err_set(err, -EISDIR, "%s: is a directory", path);
	}
	posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	r->buf = malloc(MIXCSV_BUF_SIZE);
	if (!r->buf) {
		mixcsv_close(r);
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	}
	rc = next_line(r, &line, &end, err);
	if (rc == 0) {
		rc = err_set(err, -EBADMSG,
			     r->truncated_lines ? "%s: line 1: header cut short"
						: "%s: empty file (no header)",
			     path);
	} else if (rc > 0 && (size_t)(end - line) == hhlen &&
		   memcmp(line, MIXCSV_HEADER_HOST, hhlen) == 0) {
		r->has_host = true;
	} else if (rc > 0 && ((size_t)(end - line) != hlen ||
			      memcmp(line, MIXCSV_HEADER, hlen) != 0)) {
		char q[MIXCSV_QUOTE_MAX * 4 + 8];

		quote_line(line, end, q, sizeof(q));
		rc = err_set(err, -EBADMSG,
			     "%s: line 1: '%s' is not the mix.csv header '%s'",
			     path, q, MIXCSV_HEADER);
	}
	if (rc < 0) {
		mixcsv_close(r);
		return rc;
	}
	return 0;
}

int mixcsv_next(struct mixcsv_reader *r, struct mixcsv_row *row,
		struct err *err)
{
	const char *line, *end;
	int rc;

	rc = next_line(r, &line, &end, err);
	if (rc <= 0)
		return rc;
	rc = parse_row(r, line, end, row, err);
	if (rc < 0)
		return rc;
	r->rows++;
	return 1;
}

void mixcsv_close(struct mixcsv_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->buf);
	r->buf = NULL;
}
