/* gnn-cpu-norm.c: the batch normalisation kernels of the CPU backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * BATCH_NORM_STATS and BATCH_NORM_BACKWARD_REDUCE reduce a contiguous (N, C, S) tensor per
 * channel: one task per channel walks its N planes of S contiguous elements, accumulating in
 * double in LANES independent partial sums that the compiler keeps in vector registers. The
 * partial sums are added in a fixed order, so results do not depend on the thread count.
 * CHANNEL_AFFINE applies per-channel coefficients plane by plane.
 */
#include "config.h"

#include "gnn-cpu-private.h"

#define LANES 8

typedef struct {
  const GnnKernelArgs *args;
  gint64 n, c, s;
} NormCtx;

static void
ctx_init (NormCtx *ctx, const GnnKernelArgs *args)
{
  ctx->args = args;
  ctx->n = args->params.norm.batch;
  ctx->c = args->params.norm.channels;
  ctx->s = args->params.norm.spatial;
}

/* Σ over the lanes, in a fixed order */
static inline double
lanes_sum (const double acc[LANES])
{
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

#define NORM_KERNELS(SUFFIX, T)                                                               \
/* Σ x and Σ (x - m)² of channel c */                                                        \
GNN_CPU_MULTIVERSION                                                                          \
static void                                                                                   \
stats_##SUFFIX (gpointer data, gint64 b, gint64 e)                                           \
{                                                                                             \
  const NormCtx *ctx = data;                                                                  \
  const T *x = ctx->args->in[0]->data;                                                        \
  T *out = ctx->args->out->data;                                                              \
  const gint64 S = ctx->s, C = ctx->c, body = S - S % LANES;                                 \
  const double count = (double) (ctx->n * S);                                                 \
                                                                                              \
  for (gint64 c = b; c < e; c++)                                                              \
    {                                                                                         \
      double acc[LANES] = { 0 }, tail = 0, mean;                                              \
                                                                                              \
      for (gint64 n = 0; n < ctx->n; n++)                                                     \
        {                                                                                     \
          const T *p = x + (n * C + c) * S;                                                   \
          for (gint64 k = 0; k < body; k += LANES)                                            \
            for (int j = 0; j < LANES; j++)                                                   \
              acc[j] += (double) p[k + j];                                                    \
          for (gint64 k = body; k < S; k++)                                                   \
            tail += (double) p[k];                                                            \
        }                                                                                     \
      mean = (lanes_sum (acc) + tail) / count;                                                \
      for (int j = 0; j < LANES; j++)                                                         \
        acc[j] = 0;                                                                           \
      tail = 0;                                                                               \
      for (gint64 n = 0; n < ctx->n; n++)                                                     \
        {                                                                                     \
          const T *p = x + (n * C + c) * S;                                                   \
          for (gint64 k = 0; k < body; k += LANES)                                            \
            for (int j = 0; j < LANES; j++)                                                   \
              {                                                                               \
                double d = (double) p[k + j] - mean;                                          \
                acc[j] += d * d;                                                              \
              }                                                                               \
          for (gint64 k = body; k < S; k++)                                                   \
            {                                                                                 \
              double d = (double) p[k] - mean;                                                \
              tail += d * d;                                                                  \
            }                                                                                 \
        }                                                                                     \
      out[c] = (T) mean;                                                                      \
      out[C + c] = (T) ((lanes_sum (acc) + tail) / count);                                    \
    }                                                                                         \
}                                                                                             \
                                                                                              \
/* Σ g and Σ g · (x - mean) of channel c */                                                  \
GNN_CPU_MULTIVERSION                                                                          \
static void                                                                                   \
backward_reduce_##SUFFIX (gpointer data, gint64 b, gint64 e)                                 \
{                                                                                             \
  const NormCtx *ctx = data;                                                                  \
  const T *g = ctx->args->in[0]->data;                                                        \
  const T *x = ctx->args->in[1]->data;                                                        \
  const T *mean = ctx->args->in[2]->data;                                                     \
  T *out = ctx->args->out->data;                                                              \
  const gint64 S = ctx->s, C = ctx->c, body = S - S % LANES;                                 \
                                                                                              \
  for (gint64 c = b; c < e; c++)                                                              \
    {                                                                                         \
      double sg[LANES] = { 0 }, sgx[LANES] = { 0 }, tg = 0, tgx = 0;                          \
      const double m = (double) mean[c];                                                      \
                                                                                              \
      for (gint64 n = 0; n < ctx->n; n++)                                                     \
        {                                                                                     \
          const T *pg = g + (n * C + c) * S, *px = x + (n * C + c) * S;                       \
          for (gint64 k = 0; k < body; k += LANES)                                            \
            for (int j = 0; j < LANES; j++)                                                   \
              {                                                                               \
                double gv = (double) pg[k + j];                                               \
                sg[j] += gv;                                                                  \
                sgx[j] += gv * ((double) px[k + j] - m);                                      \
              }                                                                               \
          for (gint64 k = body; k < S; k++)                                                   \
            {                                                                                 \
              double gv = (double) pg[k];                                                     \
              tg += gv;                                                                       \
              tgx += gv * ((double) px[k] - m);                                               \
            }                                                                                 \
        }                                                                                     \
      out[c] = (T) (lanes_sum (sg) + tg);                                                     \
      out[C + c] = (T) (lanes_sum (sgx) + tgx);                                               \
    }                                                                                         \
}                                                                                             \
                                                                                              \
/* planes [b, e) of the N·C planes */                                                        \
GNN_CPU_MULTIVERSION                                                                          \
static void                                                                                   \
affine_##SUFFIX (gpointer data, gint64 b, gint64 e)                                          \
{                                                                                             \
  const NormCtx *ctx = data;                                                                  \
  const T *x = ctx->args->in[0]->data;                                                        \
  const T *k = ctx->args->in[1]->data;                                                        \
  const T *x2 = ctx->args->in[2] ? ctx->args->in[2]->data : NULL;                             \
  T *out = ctx->args->out->data;                                                              \
  const gint64 S = ctx->s, C = ctx->c;                                                        \
                                                                                              \
  for (gint64 plane = b; plane < e; plane++)                                                  \
    {                                                                                         \
      const gint64 c = plane % C;                                                             \
      const T a = k[c], sh = k[C + c];                                                        \
      const T *px = x + plane * S;                                                            \
      T *po = out + plane * S;                                                                \
                                                                                              \
      if (x2 == NULL)                                                                         \
        for (gint64 i = 0; i < S; i++)                                                        \
          po[i] = px[i] * a + sh;                                                             \
      else                                                                                    \
        {                                                                                     \
          const T m2 = k[2 * C + c], d = k[3 * C + c];                                        \
          const T *p2 = x2 + plane * S;                                                       \
          for (gint64 i = 0; i < S; i++)                                                      \
            po[i] = px[i] * a + sh + (p2[i] - m2) * d;                                        \
        }                                                                                     \
    }                                                                                         \
}

NORM_KERNELS (f32, float)
NORM_KERNELS (f64, double)

static gboolean
check_float (const GnnKernelArgs *args, GError **error)
{
  GnnDtype dt = args->out->dtype;

  if (dt != GNN_DTYPE_FLOAT32 && dt != GNN_DTYPE_FLOAT64)
    return gnn_cpu_unsupported (args, error);
  for (guint k = 0; k < G_N_ELEMENTS (args->in); k++)
    if (args->in[k] && args->in[k]->dtype != dt)
      return gnn_cpu_unsupported (args, error);
  return TRUE;
}

static gint64
channel_grain (const NormCtx *ctx)
{
  return MAX (1, GNN_CPU_GRAIN / MAX (ctx->n * ctx->s, 1));
}

static gboolean
k_batch_norm_stats (const GnnKernelArgs *args, GError **error)
{
  NormCtx ctx;

  if (!check_float (args, error))
    return FALSE;
  ctx_init (&ctx, args);
  gnn_parallel_for (ctx.c, channel_grain (&ctx),
                    args->out->dtype == GNN_DTYPE_FLOAT32 ? stats_f32 : stats_f64, &ctx);
  return TRUE;
}

static gboolean
k_batch_norm_backward_reduce (const GnnKernelArgs *args, GError **error)
{
  NormCtx ctx;

  if (!check_float (args, error))
    return FALSE;
  ctx_init (&ctx, args);
  gnn_parallel_for (ctx.c, channel_grain (&ctx),
                    args->out->dtype == GNN_DTYPE_FLOAT32 ? backward_reduce_f32 : backward_reduce_f64,
                    &ctx);
  return TRUE;
}

static gboolean
k_channel_affine (const GnnKernelArgs *args, GError **error)
{
  NormCtx ctx;

  if (!check_float (args, error))
    return FALSE;
  ctx_init (&ctx, args);
  gnn_parallel_for (ctx.n * ctx.c, MAX (1, GNN_CPU_GRAIN / MAX (ctx.s, 1)),
                    args->out->dtype == GNN_DTYPE_FLOAT32 ? affine_f32 : affine_f64, &ctx);
  return TRUE;
}

void
gnn_cpu_register_norm (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_BATCH_NORM_STATS] = k_batch_norm_stats;
  table[GNN_BACKEND_OP_CHANNEL_AFFINE] = k_channel_affine;
  table[GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE] = k_batch_norm_backward_reduce;
}
