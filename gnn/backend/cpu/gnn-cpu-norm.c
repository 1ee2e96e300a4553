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

/* the kernels of each floating dtype, stats_f32 to affine_f64 */
#define T float
#define NAME(x) x##_f32
#include "gnn-cpu-norm-tmpl.c"
#define T double
#define NAME(x) x##_f64
#include "gnn-cpu-norm-tmpl.c"

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
