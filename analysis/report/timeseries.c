/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeseries.c - per-interval throughput and latency (see timeseries.h).
 */
#include "analysis/report/timeseries.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int timeseries_init(struct ts_series *ts, int64_t interval_ms)
{
	memset(ts, 0, sizeof(*ts));
	if (interval_ms <= 0)
		return -EINVAL;
	ts->interval_ms = interval_ms;
	return 0;
}

void timeseries_free(struct ts_series *ts)
{
	size_t i;
	int t;

	for (i = 0; i < ts->cap && ts->iv; i++)
		for (t = 0; t < TXN_NR; t++) {
			if (ts->iv[i].rt[t]) {
				hist_free(ts->iv[i].rt[t]);
				free(ts->iv[i].rt[t]);
			}
		}
	free(ts->iv);
	ts->iv = NULL;
	ts->n = ts->cap = 0;
}

/* Make intervals 0..want-1 exist. */
static int grow(struct ts_series *ts, size_t want, struct err *err)
{
	size_t cap = ts->cap ? ts->cap : 64;
	struct ts_interval *iv;

	if (want > ts->n && want <= ts->cap) {
		ts->n = want;
		return 0;
	}
	if (want <= ts->n)
		return 0;
	while (cap < want)
		cap *= 2;
	iv = realloc(ts->iv, cap * sizeof(*iv));
	if (!iv)
		return err_set(err, -ENOMEM, "time series: out of memory");
	memset(iv + ts->cap, 0, (cap - ts->cap) * sizeof(*iv));
	ts->iv = iv;
	ts->cap = cap;
	ts->n = want;
	return 0;
}

int timeseries_add(struct ts_series *ts, const struct mixcsv_row *row,
		   struct err *err)
{
	struct ts_interval *iv;
	struct hist *h;
	size_t i;
	int rc;

	if (row->t_ms > TS_MAX_T_MS)
		return err_set(err, -ERANGE,
			       "t_ms %lld is more than 31 days after the start",
			       (long long)row->t_ms);
	i = (size_t)(row->t_ms / ts->interval_ms);
	if (i >= ts->n) {
		rc = grow(ts, i + 1, err);
		if (rc < 0)
			return rc;
	}
	iv = &ts->iv[i];
	if (ts->rows == 0 || row->t_ms > ts->last_t_ms)
		ts->last_t_ms = row->t_ms;
	ts->rows++;
	if (row->status == TXN_STATUS_ERROR) {
		iv->errors++;
	} else {
		iv->completed++;
		if (row->type == TXN_NEW_ORDER)
			iv->new_orders++;
	}
	h = iv->rt[row->type];
	if (!h) {
		h = malloc(sizeof(*h));
		if (!h || hist_init(h, TS_HIST_BITS) < 0) {
			free(h);
			return err_set(err, -ENOMEM,
				       "time series: out of memory");
		}
		iv->rt[row->type] = h;
	}
	hist_record(h, row->response_us);
	return 0;
}

int timeseries_set_end(struct ts_series *ts, int64_t end_ms, struct err *err)
{
	size_t want;

	/* rows completing after the given end keep their intervals */
	if (ts->rows && end_ms <= ts->last_t_ms)
		end_ms = ts->last_t_ms + 1;
	if (end_ms <= 0 || end_ms > TS_MAX_T_MS)
		end_ms = 0;
	want = (size_t)((end_ms + ts->interval_ms - 1) / ts->interval_ms);
	if (want > ts->n) {
		int rc = grow(ts, want, err);

		if (rc < 0)
			return rc;
	}
	ts->end_ms = end_ms;
	return 0;
}

size_t timeseries_count(const struct ts_series *ts)
{
	return ts->n;
}

double timeseries_start_s(const struct ts_series *ts, size_t i)
{
	return (double)((int64_t)i * ts->interval_ms) / 1000.0;
}

double timeseries_length_s(const struct ts_series *ts, size_t i)
{
	int64_t start = (int64_t)i * ts->interval_ms;
	int64_t len = ts->interval_ms;

	if (i + 1 == ts->n && ts->end_ms > start && ts->end_ms - start < len)
		len = ts->end_ms - start;
	if (len < 1000 && ts->interval_ms >= 1000)
		len = 1000;
	return (double)len / 1000.0;
}

double timeseries_notpm(const struct ts_series *ts, size_t i)
{
	return (double)ts->iv[i].new_orders * 60.0 / timeseries_length_s(ts, i);
}

double timeseries_tpm(const struct ts_series *ts, size_t i)
{
	return (double)ts->iv[i].completed * 60.0 / timeseries_length_s(ts, i);
}

double timeseries_p90_ms(const struct ts_series *ts, size_t i,
			 enum txn_type type)
{
	const struct hist *h = ts->iv[i].rt[type];

	if (!h || h->total == 0)
		return NAN;
	return (double)hist_percentile(h, 90.0) / 1000.0;
}

int timeseries_write_csv(const struct ts_series *ts, FILE *f, struct err *err)
{
	size_t i;
	int t;

	fputs("t_s,notpm,tpm", f);
	for (t = 0; t < TXN_NR; t++)
		fprintf(f, ",p90_%s_ms", txn_type_name((enum txn_type)t));
	fputs(",errors\n", f);
	for (i = 0; i < ts->n; i++) {
		fprintf(f, "%.0f,%.2f,%.2f", timeseries_start_s(ts, i),
			timeseries_notpm(ts, i), timeseries_tpm(ts, i));
		for (t = 0; t < TXN_NR; t++) {
			double p90 = timeseries_p90_ms(ts, i, (enum txn_type)t);

			if (isnan(p90))
				fputs(",", f);
			else
				fprintf(f, ",%.3f", p90);
		}
		fprintf(f, ",%llu\n", (unsigned long long)ts->iv[i].errors);
	}
	if (ferror(f))
		return err_set(err, -EIO, "time series: write failed");
	return 0;
}
