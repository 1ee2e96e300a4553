/* gnn-cpu-conv.c: im2col and col2im, the data movement of convolution, and 2-d pooling
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Both operands are contiguous with the layouts the GnnBackendOp documentation gives:
 * the image (N, C, H, W) and the columns (N, C * kh * kw, OH, OW). im2col gives each
 * (n, column row) pair to one task; col2im gives each (n, c) image plane to one task, which
 * adds its kh * kw column rows in order, so results do not depend on the thread count.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-cpu-private.h"

typedef struct {
  const GnnKernelArgs *args;
  gint64 N, C, H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw;
} Geometry;

static gboolean
is_contiguous (const GnnKernelTensor *t)
{
  gint64 expected = 1;

  for (guint d = t->ndim; d-- > 0;)
    {
      if (t->shape[d] != 1 && t->strides[d] != expected)
        return FALSE;
      expected *= t->shape[d];
    }
  return TRUE;
}

static gboolean
read_geometry (const GnnKernelArgs *args, Geometry *g, GError **error)
{
  gboolean to_cols = args->op == GNN_BACKEND_OP_IM2COL;
  const GnnKernelTensor *image = to_cols ? args->in[0] : args->out;
  const GnnKernelTensor *cols = to_cols ? args->out : args->in[0];
  const GnnKernelWindow *w = &args->params.window;

  if (image == NULL || cols == NULL || image->ndim != 4 || cols->ndim != 4 ||
      image->dtype != cols->dtype ||
      (image->dtype != GNN_DTYPE_FLOAT32 && image->dtype != GNN_DTYPE_FLOAT64) ||
      !is_contiguous (image) || !is_contiguous (cols))
    return gnn_cpu_unsupported (args, error);
  g->args = args;
  g->kh = w->kernel[0]; g->kw = w->kernel[1]; g->sh = w->stride[0]; g->sw = w->stride[1];
  g->ph = w->padding[0]; g->pw = w->padding[1]; g->dh = w->dilation[0]; g->dw = w->dilation[1];
  g->N = image->shape[0]; g->C = image->shape[1]; g->H = image->shape[2]; g->W = image->shape[3];
  g->OH = cols->shape[2]; g->OW = cols->shape[3];
  if (g->kh < 1 || g->kw < 1 || g->sh < 1 || g->sw < 1 || g->dh < 1 || g->dw < 1 ||
      cols->shape[0] != g->N || cols->shape[1] != g->C * g->kh * g->kw)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cpu %s kernel: the columns do not match the image and the geometry of params.window",
                   to_cols ? "im2col" : "col2im");
      return FALSE;
    }
  return TRUE;
}

/* the loops of each dtype, im2col_rows_f32 to adaptive_planes_f64 */
#define T float
#define NAME(x) x##_f32
#include "gnn-cpu-conv-tmpl.c"
#define T double
#define NAME(x) x##_f64
#include "gnn-cpu-conv-tmpl.c"

static gint64
grain_for (gint64 work_per_task)
{
  return MAX (1, GNN_CPU_GRAIN / MAX (work_per_task, 1));
}

static gboolean
k_im2col (const GnnKernelArgs *args, GError **error)
{
  Geometry g;

  if (!read_geometry (args, &g, error))
    return FALSE;
  gnn_parallel_for (g.N * g.C * g.kh * g.kw, grain_for (g.OH * g.OW),
                    args->out->dtype == GNN_DTYPE_FLOAT32 ? im2col_rows_f32 : im2col_rows_f64, &g);
  return TRUE;
}

static gboolean
k_col2im (const GnnKernelArgs *args, GError **error)
{
  Geometry g;

  if (!read_geometry (args, &g, error))
    return FALSE;
  gnn_parallel_for (g.N * g.C, grain_for (g.kh * g.kw * g.OH * g.OW),
                    args->out->dtype == GNN_DTYPE_FLOAT32 ? col2im_planes_f32 : col2im_planes_f64, &g);
  return TRUE;
}

/* ---- pooling: one task per (n, c) plane; params.window as IM2COL (avg: no dilation, and
 * the count_include_pad flag and the divisor override) ------------------------------------ */

static gboolean
read_pool_geometry (const GnnKernelArgs *args, Geometry *g, GError **error)
{
  gboolean backward = args->op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD || args->op == GNN_BACKEND_OP_AVG_POOL2D_BACKWARD;
  gboolean is_max = args->op == GNN_BACKEND_OP_MAX_POOL2D || args->op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD;
  const GnnKernelTensor *image = backward ? args->out : args->in[0];
  const GnnKernelTensor *pooled = backward ? args->in[0] : args->out;
  const GnnKernelWindow *w = &args->params.window;

  if (image == NULL || pooled == NULL || image->ndim != 4 || pooled->ndim != 4 ||
      image->dtype != pooled->dtype ||
      (image->dtype != GNN_DTYPE_FLOAT32 && image->dtype != GNN_DTYPE_FLOAT64) ||
      !is_contiguous (image) || !is_contiguous (pooled) ||
      (args->op == GNN_BACKEND_OP_MAX_POOL2D &&
       (args->out2 == NULL || args->out2->dtype != GNN_DTYPE_INT64 || !is_contiguous (args->out2))) ||
      (args->op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD &&
       (args->in[1] == NULL || args->in[1]->dtype != GNN_DTYPE_INT64 || !is_contiguous (args->in[1]))))
    return gnn_cpu_unsupported (args, error);
  g->args = args;
  g->kh = w->kernel[0]; g->kw = w->kernel[1]; g->sh = w->stride[0]; g->sw = w->stride[1];
  g->ph = w->padding[0]; g->pw = w->padding[1];
  g->dh = is_max ? w->dilation[0] : 1;
  g->dw = is_max ? w->dilation[1] : 1;
  g->N = image->shape[0]; g->C = image->shape[1]; g->H = image->shape[2]; g->W = image->shape[3];
  g->OH = pooled->shape[2]; g->OW = pooled->shape[3];
  if (g->kh < 1 || g->kw < 1 || g->sh < 1 || g->sw < 1 || g->dh < 1 || g->dw < 1 ||
      pooled->shape[0] != g->N || pooled->shape[1] != g->C)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cpu pooling kernel: the operands do not match the geometry of params.window");
      return FALSE;
    }
  return TRUE;
}

static gboolean
k_pool2d (const GnnKernelArgs *args, GError **error)
{
  Geometry g;
  GnnParallelFunc f;
  gboolean f32;

  if (!read_pool_geometry (args, &g, error))
    return FALSE;
  f32 = args->out->dtype == GNN_DTYPE_FLOAT32;
  if (args->op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD)
    {
      const gint64 *idx = args->in[1]->data;
      gint64 n = g.N * g.C * g.OH * g.OW;
      for (gint64 l = 0; l < n; l++)
        if (G_UNLIKELY (idx[l] < 0 || idx[l] >= g.H * g.W))
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                         "max_pool2d_backward: index %" G_GINT64_FORMAT " is out of bounds for size %" G_GINT64_FORMAT,
                         idx[l], g.H * g.W);
            return FALSE;
          }
    }
  switch (args->op)
    {
    case GNN_BACKEND_OP_MAX_POOL2D:
      f = f32 ? max_pool_planes_f32 : max_pool_planes_f64;
      break;
    case GNN_BACKEND_OP_MAX_POOL2D_BACKWARD:
      f = f32 ? max_pool_backward_planes_f32 : max_pool_backward_planes_f64;
      break;
    default:
      f = f32 ? avg_pool_planes_f32 : avg_pool_planes_f64;
      break;
    }
  gnn_parallel_for (g.N * g.C, grain_for (g.OH * g.OW * g.kh * g.kw + g.H * g.W), f, &g);
  return TRUE;
}

/* ---- adaptive average pooling: one task per (n, c) plane ---------------------------- */

static gboolean
k_adaptive_avg_pool2d (const GnnKernelArgs *args, GError **error)
{
  gboolean backward = args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD;
  const GnnKernelTensor *image = backward ? args->out : args->in[0];
  const GnnKernelTensor *pooled = backward ? args->in[0] : args->out;
  Geometry g = { 0 };

  if (image == NULL || pooled == NULL || image->ndim != 4 || pooled->ndim != 4 ||
      image->dtype != pooled->dtype ||
      (image->dtype != GNN_DTYPE_FLOAT32 && image->dtype != GNN_DTYPE_FLOAT64) ||
      !is_contiguous (image) || !is_contiguous (pooled) ||
      image->shape[0] != pooled->shape[0] || image->shape[1] != pooled->shape[1])
    return gnn_cpu_unsupported (args, error);
  g.args = args;
  g.N = image->shape[0]; g.C = image->shape[1]; g.H = image->shape[2]; g.W = image->shape[3];
  g.OH = pooled->shape[2]; g.OW = pooled->shape[3];
  gnn_parallel_for (g.N * g.C, grain_for (g.H * g.W + g.OH * g.OW),
                    image->dtype == GNN_DTYPE_FLOAT32 ? adaptive_planes_f32 : adaptive_planes_f64, &g);
  return TRUE;
}

void
gnn_cpu_register_conv (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_IM2COL] = k_im2col;
  table[GNN_BACKEND_OP_COL2IM] = k_col2im;
  table[GNN_BACKEND_OP_MAX_POOL2D] = k_pool2d;
  table[GNN_BACKEND_OP_MAX_POOL2D_BACKWARD] = k_pool2d;
  table[GNN_BACKEND_OP_AVG_POOL2D] = k_pool2d;
  table[GNN_BACKEND_OP_AVG_POOL2D_BACKWARD] = k_pool2d;
  table[GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D] = k_adaptive_avg_pool2d;
  table[GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD] = k_adaptive_avg_pool2d;
}
