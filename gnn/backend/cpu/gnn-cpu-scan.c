/* gnn-cpu-scan.c: inclusive scans over the middle dimension of [outer, r, inner]: cumsum,
 * cumprod and logcumsumexp, forwards or (reduce.reverse) backwards
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-cpu-private.h"

/* log (exp (a) + exp (b)) as max + log1p (exp (min - max)): NaN if either is, and a sum of
 * two equal infinities that infinity (PyTorch's _log_add_exp_helper) */
static inline double
log_add_exp (double a, double b)
{
  double lo = MIN (a, b), hi = MAX (a, b);

  if (isnan (a) || isnan (b))
    return NAN;
  if (lo == hi && !isfinite (lo))
    return lo;
  return hi + log1p (exp (lo - hi));
}

/* the kernels of each dtype, scan_cols_f32 to scan_cols_i64 */
#define T float
#define ACC double
#define FLOATING 1
#define NAME(x) x##_f32
#include "gnn-cpu-scan-tmpl.c"
#define T double
#define ACC double
#define FLOATING 1
#define NAME(x) x##_f64
#include "gnn-cpu-scan-tmpl.c"
#define T gint64
#define ACC gint64
#define FLOATING 0
#define NAME(x) x##_i64
#include "gnn-cpu-scan-tmpl.c"

/* out, shaped as in0 (outer, r, inner), the scan of in0 over r */
static gboolean
k_scan (const GnnKernelArgs *args, GError **error)
{
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  GnnCpuColCtx ctx = { args, (inner + GNN_CPU_COLS - 1) / GNN_CPU_COLS };
  GnnParallelFunc func;

  switch (args->in[0]->dtype)
    {
    case GNN_DTYPE_FLOAT32:
      func = scan_cols_f32;
      break;
    case GNN_DTYPE_FLOAT64:
      func = scan_cols_f64;
      break;
    case GNN_DTYPE_INT64:
      if (args->op != GNN_BACKEND_OP_LOGCUMSUMEXP)
        {
          func = scan_cols_i64;
          break;
        }
      G_GNUC_FALLTHROUGH;
    default:
      return gnn_cpu_unsupported (args, error);
    }
  if (outer <= 0 || r <= 0 || inner <= 0)
    return TRUE;
  gnn_parallel_for (outer * ctx.n_col_blocks, MAX (1, GNN_CPU_GRAIN / (r * MIN (inner, GNN_CPU_COLS))), func, &ctx);
  return TRUE;
}

void
gnn_cpu_register_scan (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_CUMSUM] = k_scan;
  table[GNN_BACKEND_OP_CUMPROD] = k_scan;
  table[GNN_BACKEND_OP_LOGCUMSUMEXP] = k_scan;
}
