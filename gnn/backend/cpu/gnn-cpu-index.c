/* gnn-cpu-index.c: index_select, index_add, gather, scatter_add, scatter_reduce and one_hot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every operand is contiguous with the layout the GnnBackendOp documentation gives. Indices
 * are checked before anything is written, so that a bad index is an error, never a stray
 * memory access. The accumulating kernels give each (outer, inner column) pair to one task,
 * which adds in index order: results do not depend on the thread count.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-cpu-private.h"

/* Inner columns per task of the accumulating kernels */
#define COLS 256

/* Checks that the @n indices lie in [0, @size) */
static gboolean
check_indices (const GnnKernelArgs *args, const gint64 *idx, gint64 n, gint64 size, GError **error)
{
  for (gint64 k = 0; k < n; k++)
    if (G_UNLIKELY (idx[k] < 0 || idx[k] >= size))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "%s: index %" G_GINT64_FORMAT " is out of bounds for size %" G_GINT64_FORMAT,
                     gnn_backend_op_get_nick (args->op), idx[k], size);
        return FALSE;
      }
  return TRUE;
}

static gboolean
known_dtype (GnnDtype dt)
{
  return dt == GNN_DTYPE_FLOAT32 || dt == GNN_DTYPE_FLOAT64 || dt == GNN_DTYPE_INT64;
}

/* ---- index_select ------------------------------------------------------------------- */

typedef struct {
  const GnnKernelArgs *args;
  gint64 n_index;
  gsize row_bytes;       /* inner * element size */
  gint64 n_col_blocks;   /* index_add, scatter_add */
} IndexCtx;

static void
index_select_rows (gpointer data, gint64 b, gint64 e)
{
  const IndexCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 src = args->params.index.size, J = ctx->n_index;
  const gint64 *idx = args->in[1]->data;
  const char *in = args->in[0]->data;
  char *out = args->out->data;

  for (gint64 oj = b; oj < e; oj++)
    {
      gint64 o = oj / J, j = oj % J;
      memcpy (out + oj * ctx->row_bytes, in + (o * src + idx[j]) * ctx->row_bytes, ctx->row_bytes);
    }
}

/* out[o, j, i] = in0[o, in1[j], i]: rows are copied whole, so any element type works */
static gboolean
k_index_select (const GnnKernelArgs *args, GError **error)
{
  gint64 outer = args->params.index.outer, inner = args->params.index.inner;
  IndexCtx ctx = { args, gnn_shape_numel (args->in[1]->ndim, args->in[1]->shape), 0, 0 };

  /* rows are copied as bytes: every dtype */
  if ((guint) args->in[0]->dtype >= GNN_N_DTYPES || args->in[0]->dtype != args->out->dtype ||
      args->in[1]->dtype != GNN_DTYPE_INT64)
    return gnn_cpu_unsupported (args, error);
  if (!check_indices (args, args->in[1]->data, ctx.n_index, args->params.index.size, error))
    return FALSE;
  ctx.row_bytes = (gsize) inner * gnn_dtype_get_size (args->out->dtype);
  if (outer * inner <= 0)
    return TRUE;
  gnn_parallel_for (outer * ctx.n_index, MAX (1, GNN_CPU_GRAIN / MAX (inner, 1)), index_select_rows, &ctx);
  return TRUE;
}

/* ---- index_add ---------------------------------------------------------------------- */

/* the accumulating kernels of each dtype, index_add_cols_f32 to scatter_add_cols_i64 */
#define T float
#define NAME(x) x##_f32
#define IS_NAN(x) isnan (x)
#include "gnn-cpu-index-tmpl.c"
#define T double
#define NAME(x) x##_f64
#define IS_NAN(x) isnan (x)
#include "gnn-cpu-index-tmpl.c"
#define T gint64
#define NAME(x) x##_i64
#define IS_NAN(x) FALSE
#include "gnn-cpu-index-tmpl.c"

/* out[o, in1[j], i] += in0[o, j, i] */
static gboolean
k_index_add (const GnnKernelArgs *args, GError **error)
{
  gint64 outer = args->params.index.outer, inner = args->params.index.inner;
  IndexCtx ctx = { args, gnn_shape_numel (args->in[1]->ndim, args->in[1]->shape), 0, (inner + COLS - 1) / COLS };
  GnnParallelFunc func;

  switch (args->out->dtype)
    {
    case GNN_DTYPE_FLOAT32: func = index_add_cols_f32; break;
    case GNN_DTYPE_FLOAT64: func = index_add_cols_f64; break;
    case GNN_DTYPE_INT64: func = index_add_cols_i64; break;
    default: return gnn_cpu_unsupported (args, error);
    }
  if (args->in[0]->dtype != args->out->dtype || args->in[1]->dtype != GNN_DTYPE_INT64)
    return gnn_cpu_unsupported (args, error);
  if (!check_indices (args, args->in[1]->data, ctx.n_index, args->params.index.size, error))
    return FALSE;
  if (outer * inner <= 0 || ctx.n_index == 0)
    return TRUE;
  gnn_parallel_for (outer * ctx.n_col_blocks,
                    MAX (1, GNN_CPU_GRAIN / (ctx.n_index * MIN (inner, COLS))), func, &ctx);
  return TRUE;
}

/* ---- gather ------------------------------------------------------------------------- */

/* in0 is (outer, size, inner), in1 and out (outer, index_size, inner):
 * out[k] = in0[o, in1[k], i] for the elements k = (o, j, i) in [b, e), copied as bits */
static void
gather_range (gpointer data, gint64 b, gint64 e)
{
  const GnnKernelArgs *args = data;
  gint64 src = args->params.index.size, inner = args->params.index.inner, J = args->params.index.index_size;
  const gint64 *idx = args->in[1]->data;

  if (gnn_dtype_get_size (args->out->dtype) == 4)
    {
      const guint32 *in = args->in[0]->data;
      guint32 *out = args->out->data;
      for (gint64 k = b; k < e; k++)
        out[k] = in[(k / inner / J * src + idx[k]) * inner + k % inner];
    }
  else
    {
      const guint64 *in = args->in[0]->data;
      guint64 *out = args->out->data;
      for (gint64 k = b; k < e; k++)
        out[k] = in[(k / inner / J * src + idx[k]) * inner + k % inner];
    }
}

/* out[o, j, i] = in0[o, in1[o, j, i], i]: elements are copied as bits */
static gboolean
k_gather (const GnnKernelArgs *args, GError **error)
{
  gint64 n = args->params.index.outer * args->params.index.index_size * args->params.index.inner;

  if (!known_dtype (args->in[0]->dtype) || args->in[0]->dtype != args->out->dtype ||
      args->in[1]->dtype != GNN_DTYPE_INT64)
    return gnn_cpu_unsupported (args, error);
  if (!check_indices (args, args->in[1]->data, n, args->params.index.size, error))
    return FALSE;
  gnn_parallel_for (n, GNN_CPU_GRAIN, gather_range, (gpointer) args);
  return TRUE;
}

/* ---- scatter_add, scatter_reduce --------------------------------------------------- */

/* out[o, in1[o, j, i], i] += in0[o, j, i] (SCATTER_ADD), or = or combined with it
 * (SCATTER_REDUCE) */
static gboolean
k_scatter (const GnnKernelArgs *args, GError **error)
{
  gint64 outer = args->params.index.outer, inner = args->params.index.inner, J = args->params.index.index_size;
  IndexCtx ctx = { args, J, 0, (inner + COLS - 1) / COLS };
  gboolean add = args->op == GNN_BACKEND_OP_SCATTER_ADD;
  GnnParallelFunc func;

  switch (args->out->dtype)
    {
    case GNN_DTYPE_FLOAT32: func = add ? scatter_add_cols_f32 : scatter_reduce_cols_f32; break;
    case GNN_DTYPE_FLOAT64: func = add ? scatter_add_cols_f64 : scatter_reduce_cols_f64; break;
    case GNN_DTYPE_INT64: func = add ? scatter_add_cols_i64 : scatter_reduce_cols_i64; break;
    default: return gnn_cpu_unsupported (args, error);
    }
  if (args->in[0]->dtype != args->out->dtype || args->in[1]->dtype != GNN_DTYPE_INT64)
    return gnn_cpu_unsupported (args, error);
  if (!check_indices (args, args->in[1]->data, outer * J * inner, args->params.index.size, error))
    return FALSE;
  if (outer * inner <= 0 || J == 0)
    return TRUE;
  gnn_parallel_for (outer * ctx.n_col_blocks, MAX (1, GNN_CPU_GRAIN / (J * MIN (inner, COLS))), func, &ctx);
  return TRUE;
}

/* ---- one_hot ------------------------------------------------------------------------ */

static void
one_hot_rows (gpointer data, gint64 b, gint64 e)
{
  const GnnKernelArgs *args = data;
  gint64 classes = args->params.one_hot.classes;
  const gint64 *in = args->in[0]->data;

  for (gint64 j = b; j < e; j++)
    for (gint64 c = 0; c < classes; c++)
      {
        double v = in[j] == c;
        switch (args->out->dtype)
          {
          case GNN_DTYPE_FLOAT32: ((float *) args->out->data)[j * classes + c] = (float) v; break;
          case GNN_DTYPE_FLOAT64: ((double *) args->out->data)[j * classes + c] = v; break;
          default: ((gint64 *) args->out->data)[j * classes + c] = (gint64) v; break;
          }
      }
}

/* out[j, c] = in0[j] == c for c in [0, one_hot.classes) */
static gboolean
k_one_hot (const GnnKernelArgs *args, GError **error)
{
  gint64 n = gnn_shape_numel (args->in[0]->ndim, args->in[0]->shape), classes = args->params.one_hot.classes;

  if (!known_dtype (args->out->dtype) || args->in[0]->dtype != GNN_DTYPE_INT64)
    return gnn_cpu_unsupported (args, error);
  if (!check_indices (args, args->in[0]->data, n, classes, error))
    return FALSE;
  gnn_parallel_for (n, MAX (1, GNN_CPU_GRAIN / MAX (classes, 1)), one_hot_rows, (gpointer) args);
  return TRUE;
}

void
gnn_cpu_register_index (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_INDEX_SELECT] = k_index_select;
  table[GNN_BACKEND_OP_INDEX_ADD] = k_index_add;
  table[GNN_BACKEND_OP_GATHER] = k_gather;
  table[GNN_BACKEND_OP_SCATTER_ADD] = k_scatter;
  table[GNN_BACKEND_OP_SCATTER_REDUCE] = k_scatter;
  table[GNN_BACKEND_OP_ONE_HOT] = k_one_hot;
}
