/* bench-util.h: the timing loop the C benchmarks share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define BENCH_N_BATCHES 7

/* Runs the benchmarked code @iterations times; FALSE when it failed (it says why). */
typedef gboolean (*BenchFunc) (gpointer data, gint64 iterations);

/* qsort's comparison of two doubles, ascending */
int      bench_cmp_double  (const void      *a,
                            const void      *b);

/* How many calls of @func take about @seconds: warms @func up on the way; -1 when it failed. */
gint64   bench_calibrate   (BenchFunc        func,
                            gpointer         data,
                            double           seconds);

/* Seconds per call of each of @n (at most 8) functions: batches of the functions alternate
 * (so that a machine busy with something else slows all of them alike), each function gets
 * BENCH_N_BATCHES batches of about @batch_time seconds, each batch after a pause of
 * @settle_us, and the median batch counts (in @result; the fastest in @best, when not NULL). */
gboolean bench_measure_set (int              n,
                            const BenchFunc *funcs,
                            gpointer        *data,
                            double           batch_time,
                            gulong           settle_us,
                            double          *result,
                            double          *best);

G_END_DECLS
