/* gnn-ops-norm.c: batch normalisation of a training batch as three backend kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Composed from generic ops, a training step of BatchNorm reads its input about ten times
 * (mean and variance through permuted copies, the normalisation, the affine transform, and
 * as many passes again in backward). The fused form reads it twice forward and three times
 * backward, as PyTorch's native batch norm: BATCH_NORM_STATS gives the per-channel mean and
 * biased variance, CHANNEL_AFFINE applies y = x · a + b with a = weight / √(var + eps) and
 * b = bias - mean · a, and backward reduces Σ g and Σ g · (x - mean) per channel
 * (BATCH_NORM_BACKWARD_REDUCE) before one more CHANNEL_AFFINE gives the input's gradient.
 * The per-channel coefficients are computed with ordinary ops on (C) tensors, on the
 * input's device. Backends without the kernels keep the composed form (gnn-norm.c).
 */
#include "config.h"

#include "gnn-ops-private.h"
#include "autograd/graph/gnn-graph-private.h"
#include "backend/gnn-backend-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  GnnTensor *mean;     /* (C) */
  GnnTensor *invstd;   /* (C): 1 / √(var + eps) */
  GnnTensor *weight;   /* (C) detached, or NULL */
  gint64 n, c, s;
} BatchNormCtx;

static void
batch_norm_ctx_free (gpointer data)
{
  BatchNormCtx *ctx = data;

  g_clear_object (&ctx->mean);
  g_clear_object (&ctx->invstd);
  g_clear_object (&ctx->weight);
  g_free (ctx);
}

/* Whether the backend of @x has the three kernels for @x's dtype (float32 or float64 only:
 * the half types keep the composed form, which computes in float32). */
gboolean
gnn_batch_norm_fused_available (GnnTensor *x)
{
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  GnnBackend *backend = p->storage->entry->backend;

  if (p->dtype != GNN_DTYPE_FLOAT32 && p->dtype != GNN_DTYPE_FLOAT64)
    return FALSE;
  return gnn_backend_supports_op (backend, GNN_BACKEND_OP_BATCH_NORM_STATS, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_CHANNEL_AFFINE, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE, p->dtype);
}

/* A new (rows, C) tensor whose rows are @parts, on the device of @like. */
static GnnTensor *
stack_rows (GnnTensor *like, GnnTensor **parts, guint rows, gint64 c, GError **error)
{
  gint64 shape[2] = { rows, c };
  g_autoptr(GnnTensor) out = gnn_tensor_new_like (like, gnn_tensor_priv (like)->dtype, 2, shape, error);

  if (out == NULL)
    return NULL;
  for (guint r = 0; r < rows; r++)
    {
      g_autoptr(GnnTensor) row = gnn_tensor_select (out, 0, r, error);

      if (row == NULL || !gnn_tensor_copy_ (row, parts[r], error))
        return NULL;
    }
  return g_steal_pointer (&out);
}

/* A kernel operand: a batch seen as (N, C, S), or per-channel rows (R, C) seen as (1, R, C). */
typedef struct {
  GnnTensor *t;
  gboolean per_channel;
} NormOperand;

/* Runs @op on the batch geometry of @ctx (params.norm: N, C, S) into @out from @n_in inputs. */
static gboolean
run_norm_kernel (GnnBackendOp op, NormOperand out, const NormOperand *in, guint n_in,
                 const BatchNormCtx *ctx, GError **error)
{
  GnnKernelTensor kout, kin[3];
  GnnKernelArgs args = { 0 };

  for (guint k = 0; k <= n_in; k++)
    {
      const NormOperand *o = k < n_in ? &in[k] : &out;
      GnnKernelTensor *kt = k < n_in ? &kin[k] : &kout;

      if (o->per_channel)
        gnn_kernel_tensor_3d (o->t, 1, gnn_tensor_get_numel (o->t) / ctx->c, ctx->c, kt);
      else
        gnn_kernel_tensor_3d (o->t, ctx->n, ctx->c, ctx->s, kt);
      if (k < n_in)
        args.in[k] = kt;
    }
  args.op = op;
  args.out = &kout;
  args.n_in = n_in;
  args.params.norm.batch = ctx->n;
  args.params.norm.channels = ctx->c;
  args.params.norm.spatial = ctx->s;
  return gnn_run_kernel (out.t, &args, error);
}

/* out (shaped as @shape) = x · k[0] + k[1] (+ (x2 - k[2]) · k[3]) per channel */
static GnnTensor *
channel_affine (GnnTensor *x, GnnTensor *coef, GnnTensor *x2, const BatchNormCtx *ctx,
                guint ndim, const gint64 *shape, GError **error)
{
  NormOperand in[3] = { { x, FALSE }, { coef, TRUE }, { x2, FALSE } };
  g_autoptr(GnnTensor) out = gnn_tensor_new_like (x, gnn_tensor_priv (x)->dtype, ndim, shape, error);

  if (out == NULL ||
      !run_norm_kernel (GNN_BACKEND_OP_CHANNEL_AFFINE, (NormOperand) { out, FALSE }, in, x2 ? 3 : 2, ctx, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* (2, C) per-channel sums: BATCH_NORM_STATS of x, or BATCH_NORM_BACKWARD_REDUCE of g, x, mean */
static GnnTensor *
channel_sums (GnnBackendOp op, GnnTensor *x, GnnTensor *g, GnnTensor *mean, const BatchNormCtx *ctx,
              GError **error)
{
  gint64 shape[2] = { 2, ctx->c };
  NormOperand stats_in[1] = { { x, FALSE } };
  NormOperand reduce_in[3] = { { g, FALSE }, { x, FALSE }, { mean, TRUE } };
  g_autoptr(GnnTensor) out = gnn_tensor_new_like (x, gnn_tensor_priv (x)->dtype, 2, shape, error);

  if (out == NULL ||
      !run_norm_kernel (op, (NormOperand) { out, TRUE }, g ? reduce_in : stats_in, g ? 3 : 1, ctx, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* dx = a · (g - Σg / m) - a · invstd² · Σg(x - mean) / m · (x - mean), a = weight · invstd;
 * dweight = Σg(x - mean) · invstd; dbias = Σg */
static gboolean
batch_norm_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  BatchNormCtx *ctx = node->ctx;
  GnnTensor *x;
  g_autoptr(GnnTensor) g = NULL, sums = NULL, sum_g = NULL, sum_gx = NULL;
  double m = (double) (ctx->n * ctx->s);

  if (go[0] == NULL)
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  if (!(x = gnn_node_saved (node, 0, error)) ||
      !(g = gnn_tensor_contiguous_as (go[0], gnn_tensor_priv (x)->dtype, error)) ||
      !(sums = channel_sums (GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE, x, g, ctx->mean, ctx, error)) ||
      !(sum_g = gnn_tensor_select (sums, 0, 0, error)) ||
      !(sum_gx = gnn_tensor_select (sums, 0, 1, error)))
    return FALSE;
  if (node->n_inputs > 1 && NEEDS (1) && !(gi[1] = gnn_tensor_mul (sum_gx, ctx->invstd, error)))
    return FALSE;
  if (node->n_inputs > 2 && NEEDS (2) && !(gi[2] = gnn_tensor_clone_contiguous (sum_g, gnn_tensor_priv (sum_g)->dtype, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) a = NULL, b = NULL, d = NULL, inv2 = NULL, t = NULL, coef = NULL;
      GnnTensor *parts[4];

      a = ctx->weight ? gnn_tensor_mul (ctx->weight, ctx->invstd, error) : g_object_ref (ctx->invstd);
      if (a == NULL ||
          !(t = gnn_tensor_mul (a, sum_g, error)) ||
          !(b = gnn_tensor_mul_scalar (t, -1.0 / m, error)) ||
          !(inv2 = gnn_tensor_mul (ctx->invstd, ctx->invstd, error)))
        return FALSE;
      g_clear_object (&t);
      if (!(t = gnn_tensor_mul (a, inv2, error)))
        return FALSE;
      g_clear_object (&inv2);
      if (!(inv2 = gnn_tensor_mul (t, sum_gx, error)) ||
          !(d = gnn_tensor_mul_scalar (inv2, -1.0 / m, error)))
        return FALSE;
      parts[0] = a;
      parts[1] = b;
      parts[2] = ctx->mean;
      parts[3] = d;
      if (!(coef = stack_rows (x, parts, 4, ctx->c, error)) ||
          !(gi[0] = channel_affine (g, coef, x, ctx, node->in_ndim[0], node->in_shape[0], error)))
        return FALSE;
    }
  return TRUE;
}

/* Batch normalisation of @input (N, C, ...) with its own statistics, as
 * `torch.batch_norm (training=True)`; @mean_out and @var_out get the batch's mean and biased
 * variance per channel, (C), without history, for the running statistics. @weight and
 * @bias ((C) or %NULL) must have @input's dtype and device. Call only when
 * gnn_batch_norm_fused_available (@input). */
GnnTensor *
gnn_batch_norm_train_fused (GnnTensor  *input,
                            GnnTensor  *weight,
                            GnnTensor  *bias,
                            double      eps,
                            GnnTensor **mean_out,
                            GnnTensor **var_out,
                            GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) x = NULL, stats = NULL, mean = NULL, var = NULL, invstd = NULL, a = NULL,
    b = NULL, t = NULL, coef = NULL, y = NULL, w = NULL;
  GnnTensor *parts[2];
  GnnTensor *inputs[3] = { input, weight, bias };
  BatchNormCtx ctx = { 0 };
  GnnNode *node;

  ctx.n = p->shape[0];
  ctx.c = p->shape[1];
  ctx.s = 1;
  for (guint d = 2; d < p->ndim; d++)
    ctx.s *= p->shape[d];

  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!(x = gnn_tensor_contiguous_as (input, p->dtype, error)) ||
        !(stats = channel_sums (GNN_BACKEND_OP_BATCH_NORM_STATS, x, NULL, NULL, &ctx, error)) ||
        !(mean = gnn_tensor_select (stats, 0, 0, error)) ||
        !(var = gnn_tensor_select (stats, 0, 1, error)) ||
        !(t = gnn_tensor_add_scalar (var, eps, error)) ||
        !(invstd = gnn_tensor_pow_scalar (t, -0.5, error)))
      return NULL;
    g_clear_object (&t);
    if (weight)
      {
        if (!(w = gnn_tensor_detach (weight)) || !(a = gnn_tensor_mul (w, invstd, error)))
          return NULL;
      }
    else
      a = g_object_ref (invstd);
    if (!(t = gnn_tensor_mul (mean, a, error)))
      return NULL;
    b = bias ? gnn_tensor_sub (bias, t, 1.0, error) : gnn_tensor_neg (t, error);
    if (b == NULL)
      return NULL;
    parts[0] = a;
    parts[1] = b;
    if (!(coef = stack_rows (x, parts, 2, ctx.c, error)) ||
        !(y = channel_affine (x, coef, NULL, &ctx, p->ndim, p->shape, error)))
      return NULL;
  }

  if ((node = gnn_autograd_record ("NativeBatchNormBackward0", batch_norm_backward, inputs,
                                   bias ? 3 : weight ? 2 : 1, &y, 1)))
    {
      BatchNormCtx *saved = g_memdup2 (&ctx, sizeof ctx);

      saved->mean = g_object_ref (mean);
      saved->invstd = g_object_ref (invstd);
      saved->weight = w ? g_object_ref (w) : NULL;
      gnn_node_save (node, x);
      gnn_node_set_ctx (node, saved, batch_norm_ctx_free);
    }
  if (mean_out)
    *mean_out = g_steal_pointer (&mean);
  if (var_out)
    *var_out = g_steal_pointer (&var);
  return g_steal_pointer (&y);
}
