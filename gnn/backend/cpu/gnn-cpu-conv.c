/* gnn-cpu-conv.c: im2col and col2im, the data movement of convolution, and pooling, in 2-d
 * and 3-d (vol2col, col2vol: the same loops with a depth)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Both operands are contiguous with the layouts the GnnBackendOp documentation gives:
 * the image (N, C, [D,] H, W) and the columns (N, C * [kd *] kh * kw, [OD,] OH, OW); a 2-d kernel
 * is the 3-d loop with D = OD = kd = 1. im2col gives each
 * (n, column row) pair to one task; col2im gives each (n, c) image plane to one task, which
 * adds its kh * kw column rows in order, so results do not depend on the thread count.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-cpu-private.h"

typedef struct {
  const GnnKernelArgs *args;
  gint64 N, C, D, H, W, OD, OH, OW, kd, kh, kw, sd, sh, sw, pd, ph, pw, dd, dh, dw;
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

/* whether @op is one of the 3-d kernels, whose operands are 5-d and whose geometry is
 * params.volume */
static gboolean
is_3d (GnnBackendOp op)
{
  return op == GNN_BACKEND_OP_VOL2COL || op == GNN_BACKEND_OP_COL2VOL || op == GNN_BACKEND_OP_MAX_POOL3D ||
         op == GNN_BACKEND_OP_MAX_POOL3D_BACKWARD || op == GNN_BACKEND_OP_AVG_POOL3D ||
         op == GNN_BACKEND_OP_AVG_POOL3D_BACKWARD || op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D ||
         op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD || op == GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D;
}

/* Fills the sizes of @g from the image (N, C, [D,] H, W) and the other operand (columns or
 * pooled, (N, ·, [OD,] OH, OW)), and the window from params.window (a 2-d kernel: a unit depth)
 * or params.volume. Checks only the ranks. */
static gboolean
fill_geometry (const GnnKernelArgs *args, const GnnKernelTensor *image, const GnnKernelTensor *other,
               gboolean read_window, gboolean dilated, Geometry *g)
{
  gboolean three = is_3d (args->op);
  guint rank = three ? 5 : 4;

  if (image->ndim != rank || other->ndim != rank)
    return FALSE;
  g->args = args;
  g->N = image->shape[0]; g->C = image->shape[1];
  g->D = three ? image->shape[2] : 1; g->H = image->shape[rank - 2]; g->W = image->shape[rank - 1];
  g->OD = three ? other->shape[2] : 1; g->OH = other->shape[rank - 2]; g->OW = other->shape[rank - 1];
  g->kd = g->kh = g->kw = g->sd = g->sh = g->sw = g->dd = g->dh = g->dw = 1;
  g->pd = g->ph = g->pw = 0;
  if (!read_window)
    return TRUE;
  if (three)
    {
      const GnnKernelVolume *v = &args->params.volume;
      g->kd = v->kernel[0]; g->kh = v->kernel[1]; g->kw = v->kernel[2];
      g->sd = v->stride[0]; g->sh = v->stride[1]; g->sw = v->stride[2];
      g->pd = v->padding[0]; g->ph = v->padding[1]; g->pw = v->padding[2];
      if (dilated)
        {
          g->dd = v->dilation[0]; g->dh = v->dilation[1]; g->dw = v->dilation[2];
        }
    }
  else
    {
      const GnnKernelWindow *w = &args->params.window;
      g->kh = w->kernel[0]; g->kw = w->kernel[1]; g->sh = w->stride[0]; g->sw = w->stride[1];
      g->ph = w->padding[0]; g->pw = w->padding[1];
      if (dilated)
        {
          g->dh = w->dilation[0]; g->dw = w->dilation[1];
        }
    }
  return TRUE;
}

static gboolean
window_is_valid (const Geometry *g)
{
  return g->kd >= 1 && g->kh >= 1 && g->kw >= 1 && g->sd >= 1 && g->sh >= 1 && g->sw >= 1 &&
         g->dd >= 1 && g->dh >= 1 && g->dw >= 1;
}

static gboolean
read_geometry (const GnnKernelArgs *args, Geometry *g, GError **error)
{
  gboolean to_cols = args->op == GNN_BACKEND_OP_IM2COL || args->op == GNN_BACKEND_OP_VOL2COL;
  const GnnKernelTensor *image = to_cols ? args->in[0] : args->out;
  const GnnKernelTensor *cols = to_cols ? args->out : args->in[0];

  if (image == NULL || cols == NULL || image->dtype != cols->dtype ||
      (image->dtype != GNN_DTYPE_FLOAT32 && image->dtype != GNN_DTYPE_FLOAT64) ||
      !is_contiguous (image) || !is_contiguous (cols) || !fill_geometry (args, image, cols, TRUE, TRUE, g))
    return gnn_cpu_unsupported (args, error);
  if (!window_is_valid (g) || cols->shape[0] != g->N || cols->shape[1] != g->C * g->kd * g->kh * g->kw)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cpu %s kernel: the columns do not match the image and the geometry of params.%s",
                   gnn_backend_op_get_nick (args->op), is_3d (args->op) ? "volume" : "window");
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
  gnn_parallel_for (g.N * g.C * g.kd * g.kh * g.kw, grain_for (g.OD * g.OH * g.OW),
                    args->out->dtype == GNN_DTYPE_FLOAT32 ? im2col_rows_f32 : im2col_rows_f64, &g);
  return TRUE;
}

static gboolean
k_col2im (const GnnKernelArgs *args, GError **error)
{
  Geometry g;

  if (!read_geometry (args, &g, error))
    return FALSE;
  gnn_parallel_for (g.N * g.C, grain_for (g.kd * g.kh * g.kw * g.OD * g.OH * g.OW),
                    args->out->dtype == GNN_DTYPE_FLOAT32 ? col2im_planes_f32 : col2im_planes_f64, &g);
  return TRUE;
}

/* ---- pooling: one task per (n, c) plane or volume; params.window (2-d) or params.volume
 * (3-d) as IM2COL (avg: no dilation, and the count_include_pad flag and the divisor override) */

static gboolean
is_pool_backward (GnnBackendOp op)
{
  return op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD || op == GNN_BACKEND_OP_AVG_POOL2D_BACKWARD ||
         op == GNN_BACKEND_OP_MAX_POOL3D_BACKWARD || op == GNN_BACKEND_OP_AVG_POOL3D_BACKWARD;
}

static gboolean
is_max_forward (GnnBackendOp op)
{
  return op == GNN_BACKEND_OP_MAX_POOL2D || op == GNN_BACKEND_OP_MAX_POOL3D;
}

static gboolean
is_max_backward (GnnBackendOp op)
{
  return op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD || op == GNN_BACKEND_OP_MAX_POOL3D_BACKWARD;
}

static gboolean
read_pool_geometry (const GnnKernelArgs *args, Geometry *g, GError **error)
{
  gboolean backward = is_pool_backward (args->op);
  gboolean is_max = is_max_forward (args->op) || is_max_backward (args->op);
  const GnnKernelTensor *image = backward ? args->out : args->in[0];
  const GnnKernelTensor *pooled = backward ? args->in[0] : args->out;

  if (image == NULL || pooled == NULL || image->dtype != pooled->dtype ||
      (image->dtype != GNN_DTYPE_FLOAT32 && image->dtype != GNN_DTYPE_FLOAT64) ||
      !is_contiguous (image) || !is_contiguous (pooled) ||
      (is_max_forward (args->op) &&
       (args->out2 == NULL || args->out2->dtype != GNN_DTYPE_INT64 || !is_contiguous (args->out2))) ||
      (is_max_backward (args->op) &&
       (args->in[1] == NULL || args->in[1]->dtype != GNN_DTYPE_INT64 || !is_contiguous (args->in[1]))) ||
      !fill_geometry (args, image, pooled, TRUE, is_max, g))
    return gnn_cpu_unsupported (args, error);
  if (!window_is_valid (g) || pooled->shape[0] != g->N || pooled->shape[1] != g->C)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cpu pooling kernel: the operands do not match the geometry of params.%s",
                   is_3d (args->op) ? "volume" : "window");
      return FALSE;
    }
  return TRUE;
}

static gboolean
k_pool (const GnnKernelArgs *args, GError **error)
{
  Geometry g;
  GnnParallelFunc f;
  gboolean f32;

  if (!read_pool_geometry (args, &g, error))
    return FALSE;
  f32 = args->out->dtype == GNN_DTYPE_FLOAT32;
  if (is_max_backward (args->op))
    {
      const gint64 *idx = args->in[1]->data;
      gint64 n = g.N * g.C * g.OD * g.OH * g.OW;
      for (gint64 l = 0; l < n; l++)
        if (G_UNLIKELY (idx[l] < 0 || idx[l] >= g.D * g.H * g.W))
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                         "%s: index %" G_GINT64_FORMAT " is out of bounds for size %" G_GINT64_FORMAT,
                         is_3d (args->op) ? "max_pool3d_backward" : "max_pool2d_backward", idx[l],
                         g.D * g.H * g.W);
            return FALSE;
          }
    }
  if (is_max_forward (args->op))
    f = f32 ? max_pool_planes_f32 : max_pool_planes_f64;
  else if (is_max_backward (args->op))
    f = f32 ? max_pool_backward_planes_f32 : max_pool_backward_planes_f64;
  else
    f = f32 ? avg_pool_planes_f32 : avg_pool_planes_f64;
  gnn_parallel_for (g.N * g.C, grain_for (g.OD * g.OH * g.OW * g.kd * g.kh * g.kw + g.D * g.H * g.W), f, &g);
  return TRUE;
}

/* ---- adaptive average pooling: one task per (n, c) plane or volume ------------------- */

static gboolean
k_adaptive_avg_pool (const GnnKernelArgs *args, GError **error)
{
  gboolean backward = args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD ||
                      args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD;
  const GnnKernelTensor *image = backward ? args->out : args->in[0];
  const GnnKernelTensor *pooled = backward ? args->in[0] : args->out;
  Geometry g = { 0 };

  gboolean is_max = args->op == GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D;

  if (image == NULL || pooled == NULL || image->dtype != pooled->dtype ||
      (image->dtype != GNN_DTYPE_FLOAT32 && image->dtype != GNN_DTYPE_FLOAT64) ||
      !is_contiguous (image) || !is_contiguous (pooled) || !fill_geometry (args, image, pooled, FALSE, FALSE, &g) ||
      image->shape[0] != pooled->shape[0] || image->shape[1] != pooled->shape[1] ||
      (is_max && (args->out2 == NULL || args->out2->dtype != GNN_DTYPE_INT64 || !is_contiguous (args->out2))))
    return gnn_cpu_unsupported (args, error);
  if (is_max)
    gnn_parallel_for (g.N * g.C, grain_for (g.D * g.H * g.W + g.OD * g.OH * g.OW),
                      image->dtype == GNN_DTYPE_FLOAT32 ? adaptive_max_planes_f32 : adaptive_max_planes_f64, &g);
  else
    gnn_parallel_for (g.N * g.C, grain_for (g.D * g.H * g.W + g.OD * g.OH * g.OW),
                      image->dtype == GNN_DTYPE_FLOAT32 ? adaptive_planes_f32 : adaptive_planes_f64, &g);
  return TRUE;
}

void
gnn_cpu_register_conv (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_IM2COL] = k_im2col;
  table[GNN_BACKEND_OP_COL2IM] = k_col2im;
  table[GNN_BACKEND_OP_MAX_POOL2D] = k_pool;
  table[GNN_BACKEND_OP_MAX_POOL2D_BACKWARD] = k_pool;
  table[GNN_BACKEND_OP_AVG_POOL2D] = k_pool;
  table[GNN_BACKEND_OP_AVG_POOL2D_BACKWARD] = k_pool;
  table[GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D] = k_adaptive_avg_pool;
  table[GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD] = k_adaptive_avg_pool;
  /* the 3-d kernels are the same loops with a depth (the 2-d ones run them with a unit one) */
  table[GNN_BACKEND_OP_VOL2COL] = k_im2col;
  table[GNN_BACKEND_OP_COL2VOL] = k_col2im;
  table[GNN_BACKEND_OP_MAX_POOL3D] = k_pool;
  table[GNN_BACKEND_OP_MAX_POOL3D_BACKWARD] = k_pool;
  table[GNN_BACKEND_OP_AVG_POOL3D] = k_pool;
  table[GNN_BACKEND_OP_AVG_POOL3D_BACKWARD] = k_pool;
  table[GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D] = k_adaptive_avg_pool;
  table[GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD] = k_adaptive_avg_pool;
  table[GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D] = k_adaptive_avg_pool;
}
