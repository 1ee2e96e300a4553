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

#define DEFINE_CONV_LOOPS(T, suffix)                                                              \
/* out (N, C*kh*kw, OH, OW) from in0 (N, C, H, W); tasks are (n, row) pairs */                    \
static void                                                                                       \
im2col_rows_##suffix (gpointer data, gint64 b, gint64 e)                                         \
{                                                                                                 \
  const Geometry *g = data;                                                                       \
  const T *in = g->args->in[0]->data;                                                             \
  T *out = g->args->out->data;                                                                    \
  gint64 rows = g->C * g->kh * g->kw;                                                             \
                                                                                                  \
  for (gint64 t = b; t < e; t++)                                                                  \
    {                                                                                             \
      gint64 n = t / rows, row = t % rows;                                                        \
      gint64 kj = row % g->kw, ki = (row / g->kw) % g->kh, c = row / (g->kw * g->kh);             \
      const T *plane = in + (n * g->C + c) * g->H * g->W;                                         \
      T *dst = out + t * g->OH * g->OW;                                                           \
      /* x = ox · sw + off lies inside the row for ox in [ox0, ox1) */                            \
      const gint64 off = kj * g->dw - g->pw;                                                      \
      const gint64 ox0 = MIN (g->OW, off >= 0 ? 0 : (-off + g->sw - 1) / g->sw);                  \
      const gint64 ox1 = MAX (ox0, MIN (g->OW, g->W - off > 0 ? (g->W - off + g->sw - 1) / g->sw : 0)); \
                                                                                                  \
      for (gint64 oy = 0; oy < g->OH; oy++)                                                       \
        {                                                                                         \
          gint64 y = oy * g->sh - g->ph + ki * g->dh;                                             \
          T *d = dst + oy * g->OW;                                                                \
          const T *src;                                                                           \
                                                                                                  \
          if (y < 0 || y >= g->H)                                                                 \
            {                                                                                     \
              memset (d, 0, sizeof (T) * g->OW);                                                  \
              continue;                                                                           \
            }                                                                                     \
          for (gint64 ox = 0; ox < ox0; ox++)                                                     \
            d[ox] = (T) 0;                                                                        \
          src = plane + y * g->W + off;                                                           \
          if (g->sw == 1)                                                                         \
            memcpy (d + ox0, src + ox0, sizeof (T) * (ox1 - ox0));                                \
          else                                                                                    \
            for (gint64 ox = ox0; ox < ox1; ox++)                                                 \
              d[ox] = src[ox * g->sw];                                                            \
          for (gint64 ox = ox1; ox < g->OW; ox++)                                                 \
            d[ox] = (T) 0;                                                                        \
        }                                                                                         \
    }                                                                                             \
}                                                                                                 \
                                                                                                  \
/* out (N, C, H, W) = col2im (in0 (N, C*kh*kw, OH, OW)); tasks are (n, c) planes */               \
static void                                                                                       \
col2im_planes_##suffix (gpointer data, gint64 b, gint64 e)                                       \
{                                                                                                 \
  const Geometry *g = data;                                                                       \
  const T *in = g->args->in[0]->data;                                                             \
  T *out = g->args->out->data;                                                                    \
  gint64 k = g->kh * g->kw;                                                                       \
                                                                                                  \
  for (gint64 t = b; t < e; t++)                                                                  \
    {                                                                                             \
      T *plane = out + t * g->H * g->W;                                                           \
                                                                                                  \
      memset (plane, 0, sizeof (T) * g->H * g->W);                                                \
      for (gint64 r = 0; r < k; r++)                                                              \
        {                                                                                         \
          gint64 ki = r / g->kw, kj = r % g->kw;                                                  \
          const T *src = in + (t * k + r) * g->OH * g->OW;                                        \
          /* x = ox · sw + off lies inside the row for ox in [ox0, ox1), as in im2col */          \
          const gint64 off = kj * g->dw - g->pw;                                                  \
          const gint64 ox0 = MIN (g->OW, off >= 0 ? 0 : (-off + g->sw - 1) / g->sw);              \
          const gint64 ox1 = MAX (ox0, MIN (g->OW, g->W - off > 0 ? (g->W - off + g->sw - 1) / g->sw : 0)); \
                                                                                                  \
          for (gint64 oy = 0; oy < g->OH; oy++)                                                   \
            {                                                                                     \
              gint64 y = oy * g->sh - g->ph + ki * g->dh;                                         \
              T *row;                                                                             \
              const T *s;                                                                         \
                                                                                                  \
              if (y < 0 || y >= g->H)                                                             \
                continue;                                                                         \
              row = plane + y * g->W + off;                                                       \
              s = src + oy * g->OW;                                                               \
              if (g->sw == 1)                                                                     \
                for (gint64 ox = ox0; ox < ox1; ox++)                                             \
                  row[ox] += s[ox];                                                               \
              else                                                                                \
                for (gint64 ox = ox0; ox < ox1; ox++)                                             \
                  row[ox * g->sw] += s[ox];                                                       \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
}

DEFINE_CONV_LOOPS (float, f32)
DEFINE_CONV_LOOPS (double, f64)

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

#define DEFINE_POOL_LOOPS(T, suffix)                                                              \
GNN_CPU_MULTIVERSION                                                                              \
static void                                                                                       \
max_pool_planes_##suffix (gpointer data, gint64 b, gint64 e)                                     \
{                                                                                                 \
  const Geometry *g = data;                                                                       \
  const T *in = g->args->in[0]->data;                                                             \
  T *out = g->args->out->data;                                                                    \
  gint64 *idx = g->args->out2->data;                                                              \
                                                                                                  \
  /* 2×2 windows, stride 2, inside the plane (the common case): the four values in scan       \
   * order, as the general loop below compares them */                                          \
  if (g->kh == 2 && g->kw == 2 && g->sh == 2 && g->sw == 2 && g->ph == 0 && g->pw == 0 &&         \
      g->dh == 1 && g->dw == 1 && 2 * g->OH <= g->H && 2 * g->OW <= g->W)                         \
    {                                                                                             \
      const gint64 H = g->H, W = g->W, OH = g->OH, OW = g->OW;                                    \
      for (gint64 t = b; t < e; t++)                                                              \
        {                                                                                         \
          const T *restrict plane = in + t * H * W;                                               \
          T *restrict o = out + t * OH * OW;                                                      \
          gint64 *restrict oi = idx + t * OH * OW;                                                \
                                                                                                  \
          for (gint64 oy = 0; oy < OH; oy++)                                                      \
            {                                                                                     \
              const gint64 r0 = 2 * oy * W, r1 = r0 + W;                                          \
              const T *restrict p0 = plane + r0, *restrict p1 = plane + r1;                       \
              for (gint64 ox = 0; ox < OW; ox++)                                                  \
                {                                                                                 \
                  /* without branches (selects): the maxima are data-dependent */              \
                  const T a = p0[2 * ox], b1 = p0[2 * ox + 1], c = p1[2 * ox], d = p1[2 * ox + 1]; \
                  T best = a;                                                                     \
                  gint64 at = r0 + 2 * ox;                                                        \
                  int take = (b1 > best) | (b1 != b1);                                            \
                  best = take ? b1 : best;                                                        \
                  at = take ? r0 + 2 * ox + 1 : at;                                               \
                  take = (c > best) | (c != c);                                                   \
                  best = take ? c : best;                                                         \
                  at = take ? r1 + 2 * ox : at;                                                   \
                  take = (d > best) | (d != d);                                                   \
                  best = take ? d : best;                                                         \
                  at = take ? r1 + 2 * ox + 1 : at;                                               \
                  o[oy * OW + ox] = best;                                                         \
                  oi[oy * OW + ox] = at;                                                          \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
      return;                                                                                     \
    }                                                                                             \
  for (gint64 t = b; t < e; t++)                                                                  \
    {                                                                                             \
      const T *plane = in + t * g->H * g->W;                                                      \
                                                                                                  \
      for (gint64 oy = 0; oy < g->OH; oy++)                                                       \
        for (gint64 ox = 0; ox < g->OW; ox++)                                                     \
          {                                                                                       \
            T best = (T) -INFINITY;                                                               \
            gint64 best_at = -1;                                                                  \
                                                                                                  \
            for (gint64 ki = 0; ki < g->kh; ki++)                                                 \
              {                                                                                   \
                gint64 y = oy * g->sh - g->ph + ki * g->dh;                                       \
                if (y < 0 || y >= g->H)                                                           \
                  continue;                                                                       \
                for (gint64 kj = 0; kj < g->kw; kj++)                                             \
                  {                                                                               \
                    gint64 x = ox * g->sw - g->pw + kj * g->dw;                                   \
                    T v;                                                                          \
                    if (x < 0 || x >= g->W)                                                       \
                      continue;                                                                   \
                    v = plane[y * g->W + x];                                                      \
                    if (best_at < 0 || v > best || isnan (v))                                     \
                      {                                                                           \
                        best = v;                                                                 \
                        best_at = y * g->W + x;                                                   \
                      }                                                                           \
                  }                                                                               \
              }                                                                                   \
            out[(t * g->OH + oy) * g->OW + ox] = best;                                            \
            idx[(t * g->OH + oy) * g->OW + ox] = MAX (best_at, 0);                                \
          }                                                                                       \
    }                                                                                             \
}                                                                                                 \
                                                                                                  \
static void                                                                                       \
max_pool_backward_planes_##suffix (gpointer data, gint64 b, gint64 e)                            \
{                                                                                                 \
  const Geometry *g = data;                                                                       \
  const T *gin = g->args->in[0]->data;                                                            \
  const gint64 *idx = g->args->in[1]->data;                                                       \
  T *out = g->args->out->data;                                                                    \
                                                                                                  \
  for (gint64 t = b; t < e; t++)                                                                  \
    {                                                                                             \
      T *plane = out + t * g->H * g->W;                                                           \
      memset (plane, 0, sizeof (T) * g->H * g->W);                                                \
      for (gint64 l = t * g->OH * g->OW; l < (t + 1) * g->OH * g->OW; l++)                        \
        plane[idx[l]] += gin[l];                                                                  \
    }                                                                                             \
}                                                                                                 \
                                                                                                  \
static void                                                                                       \
avg_pool_planes_##suffix (gpointer data, gint64 b, gint64 e)                                     \
{                                                                                                 \
  const Geometry *g = data;                                                                       \
  gboolean backward = g->args->op == GNN_BACKEND_OP_AVG_POOL2D_BACKWARD;                          \
  const T *pooled_in = g->args->in[0]->data;                                                      \
  T *pooled_out = g->args->out->data;                                                             \
                                                                                                  \
  for (gint64 t = b; t < e; t++)                                                                  \
    {                                                                                             \
      T *image_out = pooled_out + t * g->H * g->W;                                                \
      const T *image_in = pooled_in + t * g->H * g->W;                                            \
                                                                                                  \
      if (backward)                                                                               \
        memset (image_out, 0, sizeof (T) * g->H * g->W);                                          \
      for (gint64 oy = 0; oy < g->OH; oy++)                                                       \
        for (gint64 ox = 0; ox < g->OW; ox++)                                                     \
          {                                                                                       \
            gint64 l = (t * g->OH + oy) * g->OW + ox;                                             \
            gint64 y0 = oy * g->sh - g->ph, x0 = ox * g->sw - g->pw;                              \
            gint64 y1 = MIN (y0 + g->kh, g->H + g->ph), x1 = MIN (x0 + g->kw, g->W + g->pw);      \
            gint64 pool_size = (y1 - y0) * (x1 - x0);                                             \
            double divisor, sum = 0;                                                              \
                                                                                                  \
            y0 = MAX (y0, 0); x0 = MAX (x0, 0); y1 = MIN (y1, g->H); x1 = MIN (x1, g->W);         \
            if (y0 >= y1 || x0 >= x1)                                                             \
              {                                                                                   \
                if (!backward)                                                                    \
                  pooled_out[l] = 0;                                                              \
                continue;                                                                         \
              }                                                                                   \
            divisor = g->args->params.window.divisor > 0 ? g->args->params.window.divisor :       \
                      g->args->params.window.count_include_pad ? (double) pool_size                \
                                                               : (double) ((y1 - y0) * (x1 - x0)); \
            if (backward)                                                                         \
              {                                                                                   \
                T share = (T) (pooled_in[l] / divisor);                                           \
                for (gint64 y = y0; y < y1; y++)                                                  \
                  for (gint64 x = x0; x < x1; x++)                                                \
                    image_out[y * g->W + x] += share;                                             \
              }                                                                                   \
            else                                                                                  \
              {                                                                                   \
                for (gint64 y = y0; y < y1; y++)                                                  \
                  for (gint64 x = x0; x < x1; x++)                                                \
                    sum += image_in[y * g->W + x];                                                \
                pooled_out[l] = (T) (sum / divisor);                                              \
              }                                                                                   \
          }                                                                                       \
    }                                                                                             \
}

DEFINE_POOL_LOOPS (float, f32)
DEFINE_POOL_LOOPS (double, f64)

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

#define DEFINE_ADAPTIVE_LOOPS(T, suffix)                                                          \
static void                                                                                       \
adaptive_planes_##suffix (gpointer data, gint64 b, gint64 e)                                     \
{                                                                                                 \
  const Geometry *g = data;                                                                       \
  gboolean backward = g->args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD;                 \
  const T *in = g->args->in[0]->data;                                                             \
  T *out = g->args->out->data;                                                                    \
                                                                                                  \
  for (gint64 t = b; t < e; t++)                                                                  \
    {                                                                                             \
      if (backward)                                                                               \
        memset (out + t * g->H * g->W, 0, sizeof (T) * g->H * g->W);                              \
      for (gint64 oy = 0; oy < g->OH; oy++)                                                       \
        for (gint64 ox = 0; ox < g->OW; ox++)                                                     \
          {                                                                                       \
            gint64 y0 = oy * g->H / g->OH, y1 = ((oy + 1) * g->H + g->OH - 1) / g->OH;            \
            gint64 x0 = ox * g->W / g->OW, x1 = ((ox + 1) * g->W + g->OW - 1) / g->OW;            \
            gint64 l = (t * g->OH + oy) * g->OW + ox;                                             \
            double area = (double) ((y1 - y0) * (x1 - x0)), sum = 0;                              \
                                                                                                  \
            if (backward)                                                                         \
              {                                                                                   \
                T share = (T) (in[l] / area);                                                     \
                T *plane = out + t * g->H * g->W;                                                 \
                for (gint64 y = y0; y < y1; y++)                                                  \
                  for (gint64 x = x0; x < x1; x++)                                                \
                    plane[y * g->W + x] += share;                                                 \
              }                                                                                   \
            else                                                                                  \
              {                                                                                   \
                const T *plane = in + t * g->H * g->W;                                            \
                for (gint64 y = y0; y < y1; y++)                                                  \
                  for (gint64 x = x0; x < x1; x++)                                                \
                    sum += plane[y * g->W + x];                                                   \
                out[l] = (T) (sum / area);                                                        \
              }                                                                                   \
          }                                                                                       \
    }                                                                                             \
}

DEFINE_ADAPTIVE_LOOPS (float, f32)
DEFINE_ADAPTIVE_LOOPS (double, f64)

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
