/* gnn-cpu-sort.c: a stable sort along the middle dimension of [outer, r, inner], with the
 * positions of the sorted values
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-cpu-private.h"

/* the kernels of each dtype, sort_cols_f32 to sort_cols_i64 */
#define T float
#define NAME(x) x##_f32
#include "gnn-cpu-sort-tmpl.c"
#define T double
#define NAME(x) x##_f64
#include "gnn-cpu-sort-tmpl.c"
#define T gint64
#define NAME(x) x##_i64
#include "gnn-cpu-sort-tmpl.c"

/* out and out2 (int64), shaped as in0 (outer, r, inner): in0 sorted over r and the positions */
static gboolean
k_sort (const GnnKernelArgs *args, GError **error)
{
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  GnnParallelFunc func;

  switch (args->in[0]->dtype)
    {
    case GNN_DTYPE_FLOAT32: func = sort_cols_f32; break;
    case GNN_DTYPE_FLOAT64: func = sort_cols_f64; break;
    case GNN_DTYPE_INT64:   func = sort_cols_i64; break;
    default:                return gnn_cpu_unsupported (args, error);
    }
  if (args->out2 == NULL || args->out2->dtype != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "cpu: sort: expected int64 indices (out2)");
      return FALSE;
    }
  if (r > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cpu: sort: at most %d elements along the sorted dimension, got %" G_GINT64_FORMAT, G_MAXINT, r);
      return FALSE;
    }
  if (outer <= 0 || r <= 0 || inner <= 0)
    return TRUE;
  gnn_parallel_for (outer * inner, MAX (1, GNN_CPU_GRAIN / (r * 8)), func, (gpointer) args);
  return TRUE;
}

void
gnn_cpu_register_sort (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_SORT] = k_sort;
}
