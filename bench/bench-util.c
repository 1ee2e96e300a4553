/* bench-util.c: the timing loop the C benchmarks share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "bench-util.h"

int
bench_cmp_double (const void *a,
                  const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

gint64
bench_calibrate (BenchFunc func,
                 gpointer  data,
                 double    seconds)
{
  gint64 iterations = 1;

  for (;;)
    {
      gint64 t0 = g_get_monotonic_time ();
      double dt;

      if (!func (data, iterations))
        return -1;
      dt = (g_get_monotonic_time () - t0) / 1e6;
      if (dt >= seconds * 0.5 || iterations >= (G_GINT64_CONSTANT (1) << 40))
        return dt > 0 ? MAX (1, (gint64) (iterations * seconds / dt)) : iterations;
      iterations *= dt > 0 ? MIN (10, MAX (2, (gint64) (seconds / dt))) : 10;
    }
}

gboolean
bench_measure_set (int              n,
                   const BenchFunc *funcs,
                   gpointer        *data,
                   double           batch_time,
                   gulong           settle_us,
                   double          *result,
                   double          *best)
{
  double times[8][BENCH_N_BATCHES];
  gint64 iterations[8];

  g_assert (n <= 8);
  for (int f = 0; f < n; f++)
    if ((iterations[f] = bench_calibrate (funcs[f], data[f], batch_time)) < 0)
      return FALSE;
  for (int b = 0; b < BENCH_N_BATCHES; b++)
    for (int f = 0; f < n; f++)
      {
        gint64 t0;

        /* let spinning BLAS / OpenMP threads of the previous batch go to sleep */
        g_usleep (settle_us);
        t0 = g_get_monotonic_time ();
        if (!funcs[f] (data[f], iterations[f]))
          return FALSE;
        times[f][b] = (g_get_monotonic_time () - t0) / 1e6 / (double) iterations[f];
      }
  for (int f = 0; f < n; f++)
    {
      qsort (times[f], BENCH_N_BATCHES, sizeof (double), bench_cmp_double);
      result[f] = times[f][BENCH_N_BATCHES / 2];
      if (best)
        best[f] = times[f][0];
    }
  return TRUE;
}
