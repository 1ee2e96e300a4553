/* gnn-cpu-attention.c: the fused scaled dot-product attention kernels of the CPU backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * As flash attention does, ATTENTION never holds the (L, S) scores of a head: each query row
 * runs an online softmax over blocks of ATTN_BLOCK keys (the running maximum m, the running sum
 * l, the Ev accumulators rescaled by exp (m_old - m_new) when the maximum grows), and keeps the
 * row's logsumexp m + log l for the backward. ATTENTION_BACKWARD computes the probabilities
 * again from that logsumexp, p_ij = exp (s_ij - lse_i), in two passes that need no atomics:
 * over query rows for dq (and delta_i = dO_i · O_i, one value per row), then over key rows for
 * dk and dv. A causal call stops each row at its own position, so no future key or value is
 * read. Memory beyond the operands: one block of scores and Ev accumulators per task forward,
 * the (B, L) deltas backward. Results do not depend on the thread count.
 */
#include "config.h"

#include <math.h>

#include "gnn-cpu-private.h"

#define ATTN_BLOCK 64
#define ATTN_LANES 8

typedef struct {
  const GnnKernelArgs *args;
  gint64 L, S, E, Ev;
  double scale;
  gboolean causal;
  gint64 mask_sl, mask_ss;   /* the mask's strides along L and S */
  gpointer delta;            /* backward: (B, L) of the compute dtype */
} AttnCtx;

/* the offset of batch @b of the mask, its batch dims unravelled row-major */
static gint64
attn_mask_batch_offset (const GnnKernelTensor *m, gint64 b)
{
  gint64 offset = 0;

  for (guint d = m->ndim - 2; d-- > 0;)
    {
      offset += (b % m->shape[d]) * m->strides[d];
      b /= m->shape[d];
    }
  return offset;
}

#define T float
#define EXP expf
#define LOG logf
#define NAME(x) x##_f32
#include "gnn-cpu-attention-tmpl.c"
#define T double
#define EXP exp
#define LOG log
#define NAME(x) x##_f64
#include "gnn-cpu-attention-tmpl.c"

static gboolean
check_operands (const GnnKernelArgs *args, GError **error)
{
  const GnnKernelAttention *at = &args->params.attention;
  GnnDtype dt = args->in[0]->dtype;
  const GnnKernelTensor *ops[] = { args->out, args->out2, args->in[1], args->in[2], at->mask,
                                   args->op == GNN_BACKEND_OP_ATTENTION_BACKWARD ? at->v : NULL,
                                   args->op == GNN_BACKEND_OP_ATTENTION_BACKWARD ? at->o : NULL,
                                   args->op == GNN_BACKEND_OP_ATTENTION_BACKWARD ? at->lse : NULL,
                                   args->op == GNN_BACKEND_OP_ATTENTION_BACKWARD ? at->dv : NULL };

  if (dt != GNN_DTYPE_FLOAT32 && dt != GNN_DTYPE_FLOAT64)
    return gnn_cpu_unsupported (args, error);
  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    if ((k < 4 || (k > 4 && args->op == GNN_BACKEND_OP_ATTENTION_BACKWARD)) && ops[k] == NULL)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "cpu backend: %s: an operand is missing", gnn_backend_op_get_nick (args->op));
        return FALSE;
      }
    else if (ops[k] && ops[k]->dtype != dt)
      return gnn_cpu_unsupported (args, error);
  if (at->mask && at->mask->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cpu backend: %s: the mask has %u dimensions, expected at least 2",
                   gnn_backend_op_get_nick (args->op), at->mask->ndim);
      return FALSE;
    }
  return TRUE;
}

static void
ctx_init (AttnCtx *ctx, const GnnKernelArgs *args, const GnnKernelTensor *q, const GnnKernelTensor *k,
          const GnnKernelTensor *v)
{
  const GnnKernelTensor *m = args->params.attention.mask;

  ctx->args = args;
  ctx->L = q->shape[1];
  ctx->E = q->shape[2];
  ctx->S = k->shape[1];
  ctx->Ev = v->shape[2];
  ctx->scale = args->params.attention.scale;
  ctx->causal = args->params.attention.causal;
  ctx->mask_sl = m ? m->strides[m->ndim - 2] : 0;
  ctx->mask_ss = m ? m->strides[m->ndim - 1] : 0;
  ctx->delta = NULL;
}

static gint64
rows_grain (gint64 work_per_row)
{
  return MAX (1, GNN_CPU_GRAIN / MAX (work_per_row, 1));
}

static gboolean
k_attention (const GnnKernelArgs *args, GError **error)
{
  AttnCtx ctx;
  gboolean f32;

  if (!check_operands (args, error))
    return FALSE;
  ctx_init (&ctx, args, args->in[0], args->in[1], args->in[2]);
  f32 = args->in[0]->dtype == GNN_DTYPE_FLOAT32;
  gnn_parallel_for (args->in[0]->shape[0] * ctx.L, rows_grain (ctx.S * (ctx.E + ctx.Ev)),
                    f32 ? attention_rows_f32 : attention_rows_f64, &ctx);
  return TRUE;
}

static gboolean
k_attention_backward (const GnnKernelArgs *args, GError **error)
{
  AttnCtx ctx;
  gboolean f32;
  gint64 B;
  g_autofree gpointer delta = NULL;

  if (!check_operands (args, error))
    return FALSE;
  /* in0 dO (B, L, Ev), in1 q (B, L, E), in2 k (B, S, E), v (B, S, Ev) */
  ctx_init (&ctx, args, args->in[1], args->in[2], args->params.attention.v);
  f32 = args->in[0]->dtype == GNN_DTYPE_FLOAT32;
  B = args->in[1]->shape[0];
  delta = g_malloc (MAX (B * ctx.L, 1) * (f32 ? sizeof (float) : sizeof (double)));
  ctx.delta = delta;
  gnn_parallel_for (B * ctx.L, rows_grain (ctx.S * (ctx.E + ctx.Ev)),
                    f32 ? attention_backward_rows_f32 : attention_backward_rows_f64, &ctx);
  gnn_parallel_for (B * ctx.S, rows_grain (ctx.L * (ctx.E + ctx.Ev)),
                    f32 ? attention_backward_keys_f32 : attention_backward_keys_f64, &ctx);
  return TRUE;
}

void
gnn_cpu_register_attention (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_ATTENTION] = k_attention;
  table[GNN_BACKEND_OP_ATTENTION_BACKWARD] = k_attention_backward;
}
