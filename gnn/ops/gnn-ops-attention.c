/* gnn-ops-attention.c: scaled dot-product attention, as one fused kernel and its backward
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * softmax (q · kᵀ · scale + mask) · v over the last two dimensions of q (…, L, E), k (…, S, E)
 * and v (…, S, Ev). On a backend with the ATTENTION kernels (the CPU one; the table documents
 * them in gnn-backend-ops.def) the scores are never materialised: the kernel runs an online
 * softmax over blocks of keys and keeps the logsumexp of each query row, from which
 * ATTENTION_BACKWARD computes the probabilities again. The composed formula, written with
 * matmul, softmax and dropout, serves the rest: a dropout_p > 0 (the dropped probabilities must
 * be materialised to be dropped), a float mask that requires grad (its gradient is the (L, S)
 * gradient of the scores), the half dtypes and backends without the kernels (CUDA for now).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"
#include "backend/gnn-backend-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  GnnTensor *out;    /* the output, detached, (B, L, Ev) */
  GnnTensor *lse;    /* (B, L) */
  GnnTensor *mask;   /* the additive mask, of the compute dtype, or NULL */
  guint batch_ndim;
  gint64 batch_shape[GNN_MAX_DIMS];
  gint64 B, L, S, E, Ev;
  double scale;
  gboolean causal;
} AttentionCtx;

static void
attention_ctx_free (gpointer data)
{
  AttentionCtx *ctx = data;

  g_clear_object (&ctx->out);
  g_clear_object (&ctx->lse);
  g_clear_object (&ctx->mask);
  g_free (ctx);
}

/* the kernel view of the additive mask: broadcast to (batch…, L, S) */
static void
mask_kernel_tensor (const AttentionCtx *ctx, GnnKernelTensor *kt)
{
  gint64 shape[GNN_MAX_DIMS];

  memcpy (shape, ctx->batch_shape, sizeof (gint64) * ctx->batch_ndim);
  shape[ctx->batch_ndim] = ctx->L;
  shape[ctx->batch_ndim + 1] = ctx->S;
  gnn_kernel_tensor_broadcast (ctx->mask, ctx->batch_ndim + 2, shape, kt);
}

static GnnTensor *
new_3d (GnnTensor *like, gint64 d0, gint64 d1, gint64 d2, GError **error)
{
  return gnn_tensor_new_like (like, gnn_tensor_priv (like)->dtype, 3, (const gint64[]) { d0, d1, d2 }, error);
}

/* @t (…, rows, cols) as the contiguous (B, rows, cols) of the compute dtype */
static GnnTensor *
as_3d (GnnTensor *t, GnnDtype dtype, gint64 B, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  g_autoptr(GnnTensor) c = gnn_tensor_contiguous_as (t, dtype, error);

  if (c == NULL)
    return NULL;
  return gnn_tensor_new_view (c, 3, (const gint64[]) { B, p->shape[p->ndim - 2], p->shape[p->ndim - 1] },
                              (const gint64[]) { p->shape[p->ndim - 2] * p->shape[p->ndim - 1],
                                                 p->shape[p->ndim - 1], 1 }, 0);
}

/* @t (B, rows, cols) shaped back as the batch dims and (rows, cols) */
static GnnTensor *
from_3d (GnnTensor *t, const AttentionCtx *ctx, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 shape[GNN_MAX_DIMS];

  memcpy (shape, ctx->batch_shape, sizeof (gint64) * ctx->batch_ndim);
  shape[ctx->batch_ndim] = p->shape[1];
  shape[ctx->batch_ndim + 1] = p->shape[2];
  return gnn_tensor_reshape (t, shape, ctx->batch_ndim + 2, error);
}

/* the call of an attention kernel on @in0 .. @in2 into @out and @out2, with @ctx's parameters
 * (@kmask: where the mask's kernel view goes) */
static void
attention_args (GnnKernelArgs *args, GnnBackendOp op, GnnKernelTensor *out, GnnKernelTensor *out2,
                const GnnKernelTensor *in0, const GnnKernelTensor *in1, const GnnKernelTensor *in2,
                const AttentionCtx *ctx, GnnKernelTensor *kmask)
{
  memset (args, 0, sizeof *args);
  args->op = op;
  args->out = out;
  args->out2 = out2;
  args->in[0] = in0;
  args->in[1] = in1;
  args->in[2] = in2;
  args->n_in = 3;
  args->params.attention.scale = ctx->scale;
  args->params.attention.causal = ctx->causal;
  if (ctx->mask)
    {
      mask_kernel_tensor (ctx, kmask);
      args->params.attention.mask = kmask;
    }
}

static gboolean
attention_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  AttentionCtx *ctx = node->ctx;
  GnnDtype dt = gnn_tensor_priv (ctx->out)->dtype;
  GnnTensor *saved[3];
  g_autoptr(GnnTensor) g = NULL, q = NULL, k = NULL, v = NULL, dq = NULL, dk = NULL, dv = NULL;
  GnnKernelTensor kg, kq, kk, kv, ko, klse, kmask, kdq, kdk, kdv;
  GnnKernelArgs args;
  GnnTensor *grads[3];

  if (go[0] == NULL)
    return TRUE;
  /* the backward kernel is not written with ops: it cannot record a graph of its own */
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  for (guint j = 0; j < 3; j++)
    if (!(saved[j] = gnn_node_saved (node, j, error)))
      return FALSE;
  if (!(g = as_3d (go[0], dt, ctx->B, error)) ||
      !(q = as_3d (saved[0], dt, ctx->B, error)) ||
      !(k = as_3d (saved[1], dt, ctx->B, error)) ||
      !(v = as_3d (saved[2], dt, ctx->B, error)) ||
      !(dq = new_3d (q, ctx->B, ctx->L, ctx->E, error)) ||
      !(dk = new_3d (q, ctx->B, ctx->S, ctx->E, error)) ||
      !(dv = new_3d (q, ctx->B, ctx->S, ctx->Ev, error)))
    return FALSE;
  gnn_tensor_to_kernel (g, &kg);
  gnn_tensor_to_kernel (q, &kq);
  gnn_tensor_to_kernel (k, &kk);
  gnn_tensor_to_kernel (v, &kv);
  gnn_tensor_to_kernel (ctx->out, &ko);
  gnn_tensor_to_kernel (ctx->lse, &klse);
  gnn_tensor_to_kernel (dq, &kdq);
  gnn_tensor_to_kernel (dk, &kdk);
  gnn_tensor_to_kernel (dv, &kdv);
  attention_args (&args, GNN_BACKEND_OP_ATTENTION_BACKWARD, &kdq, &kdk, &kg, &kq, &kk, ctx, &kmask);
  args.params.attention.v = &kv;
  args.params.attention.o = &ko;
  args.params.attention.lse = &klse;
  args.params.attention.dv = &kdv;
  if (!gnn_run_kernel (dq, &args, error))
    return FALSE;
  grads[0] = dq;
  grads[1] = dk;
  grads[2] = dv;
  for (guint j = 0; j < 3; j++)
    if (NEEDS (j))
      {
        g_autoptr(GnnTensor) r = from_3d (grads[j], ctx, error);

        if (r == NULL || !(gi[j] = gnn_tensor_to_dtype (r, node->in_dtype[j], error)))
          return FALSE;
      }
  return TRUE;
}

/* The fused forward: @mask is the additive mask (compute dtype, broadcasting to (…, L, S)) or
 * NULL. */
static GnnTensor *
attention_fused (GnnTensor *query, GnnTensor *key, GnnTensor *value, GnnTensor *mask,
                 AttentionCtx *ctx, GError **error)
{
  GnnDtype dt = gnn_tensor_priv (query)->dtype;
  g_autoptr(GnnTensor) q = NULL, k = NULL, v = NULL, out = NULL, lse = NULL, y = NULL;
  GnnKernelTensor kq, kk, kv, kout, klse, kmask;
  GnnKernelArgs args;
  GnnTensor *inputs[3] = { query, key, value };
  GnnNode *node;

  if (!(q = as_3d (query, dt, ctx->B, error)) ||
      !(k = as_3d (key, dt, ctx->B, error)) ||
      !(v = as_3d (value, dt, ctx->B, error)) ||
      !(out = new_3d (q, ctx->B, ctx->L, ctx->Ev, error)) ||
      !(lse = gnn_tensor_new_like (q, dt, 2, (const gint64[]) { ctx->B, ctx->L }, error)))
    return NULL;
  gnn_tensor_to_kernel (q, &kq);
  gnn_tensor_to_kernel (k, &kk);
  gnn_tensor_to_kernel (v, &kv);
  gnn_tensor_to_kernel (out, &kout);
  gnn_tensor_to_kernel (lse, &klse);
  ctx->mask = mask ? g_object_ref (mask) : NULL;
  attention_args (&args, GNN_BACKEND_OP_ATTENTION, &kout, &klse, &kq, &kk, &kv, ctx, &kmask);
  if (!gnn_run_kernel (out, &args, error) || !(y = from_3d (out, ctx, error)))
    {
      g_clear_object (&ctx->mask);
      return NULL;
    }
  if ((node = gnn_autograd_record ("ScaledDotProductAttentionBackward0", attention_backward, inputs, 3,
                                   &y, 1)))
    {
      AttentionCtx *saved = g_memdup2 (ctx, sizeof *ctx);

      saved->out = gnn_tensor_new_alias (out);
      saved->lse = g_steal_pointer (&lse);
      saved->mask = ctx->mask ? g_object_ref (ctx->mask) : NULL;
      for (guint j = 0; j < 3; j++)
        gnn_node_save (node, inputs[j]);
      gnn_node_set_ctx (node, saved, attention_ctx_free);
    }
  g_clear_object (&ctx->mask);
  return g_steal_pointer (&y);
}

/* softmax (q · kᵀ · scale + mask (+ the causal mask)) with dropout, then · v, with ops */
static GnnTensor *
attention_composed (GnnTensor *query, GnnTensor *key, GnnTensor *value, GnnTensor *mask,
                    double dropout_p, const AttentionCtx *ctx, GError **error)
{
  guint nd = gnn_tensor_priv (key)->ndim;
  g_autoptr(GnnTensor) kt = NULL, qk = NULL, scores = NULL, masked = NULL, causal = NULL, full = NULL,
    p = NULL, dropped = NULL;

  if (!(kt = gnn_tensor_transpose (key, (int) nd - 2, (int) nd - 1, error)) ||
      !(qk = gnn_tensor_matmul (query, kt, error)) ||
      !(scores = gnn_tensor_mul_scalar (qk, ctx->scale, error)))
    return NULL;
  if (mask)
    {
      if (!(masked = gnn_tensor_add (scores, mask, 1.0, error)))
        return NULL;
      g_object_unref (scores);
      scores = g_steal_pointer (&masked);
    }
  if (ctx->causal)
    {
      /* -inf above the diagonal (keys after the query), 0 elsewhere */
      if (!(full = gnn_tensor_new_like (scores, gnn_tensor_priv (scores)->dtype, 2,
                                        (const gint64[]) { ctx->L, ctx->S }, error)) ||
          !gnn_tensor_fill_kernel (full, -INFINITY, error) ||
          !(causal = gnn_tensor_triu (full, 1, error)) ||
          !(masked = gnn_tensor_add (scores, causal, 1.0, error)))
        return NULL;
      g_object_unref (scores);
      scores = g_steal_pointer (&masked);
    }
  if (!(p = gnn_tensor_softmax (scores, -1, error)))
    return NULL;
  if (dropout_p > 0)
    {
      /* inverted dropout of the weights, as nn.Dropout: kept ones scaled by 1 / (1 - p) */
      GnnTensorPrivate *pp = gnn_tensor_priv (p);
      g_autoptr(GnnTensor) u = gnn_tensor_new_rand (pp->shape, pp->ndim, NULL, pp->dtype,
                                                    gnn_tensor_get_device (p), error);
      g_autoptr(GnnTensor) keep = u ? gnn_tensor_lt_scalar (u, 1 - dropout_p, error) : NULL;
      g_autoptr(GnnTensor) mask = keep ? gnn_tensor_to_dtype (keep, pp->dtype, error) : NULL;
      g_autoptr(GnnTensor) noise = mask ? gnn_tensor_div_scalar (mask, 1 - dropout_p, error) : NULL;

      if (noise == NULL || !(dropped = gnn_tensor_mul (p, noise, error)))
        return NULL;
    }
  return gnn_tensor_matmul (dropped ? dropped : p, value, error);
}

static gboolean
attention_error (GError **error, const char *what, GnnTensor *a, const char *a_name, GnnTensor *b,
                 const char *b_name)
{
  GnnTensorPrivate *pa = gnn_tensor_priv (a), *pb = gnn_tensor_priv (b);
  g_autofree char *sa = gnn_shape_to_string (pa->ndim, pa->shape);
  g_autofree char *sb = gnn_shape_to_string (pb->ndim, pb->shape);

  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "scaled_dot_product_attention: %s (%s of shape %s, %s of shape %s)", what, a_name, sa,
               b_name, sb);
  return FALSE;
}

/* Checks the operands' ranks, sizes and dtypes, and fills @ctx's geometry. */
static gboolean
check_operands (GnnTensor *query, GnnTensor *key, GnnTensor *value, GnnTensor *attn_mask,
                AttentionCtx *ctx, GError **error)
{
  GnnTensorPrivate *pq = gnn_tensor_priv (query), *pk = gnn_tensor_priv (key), *pv = gnn_tensor_priv (value);

  if (!gnn_check_same_device ("scaled_dot_product_attention", query, key, error) ||
      !gnn_check_same_device ("scaled_dot_product_attention", query, value, error) ||
      (attn_mask && !gnn_check_same_device ("scaled_dot_product_attention", query, attn_mask, error)))
    return FALSE;
  if (!gnn_dtype_is_floating (pq->dtype) || pk->dtype != pq->dtype || pv->dtype != pq->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "scaled_dot_product_attention: expected query, key and value to have one floating "
                   "dtype, got query %s, key %s and value %s", gnn_dtype_get_name (pq->dtype),
                   gnn_dtype_get_name (pk->dtype), gnn_dtype_get_name (pv->dtype));
      return FALSE;
    }
  if (pq->ndim < 2 || pk->ndim != pq->ndim || pv->ndim != pq->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "scaled_dot_product_attention: expected query, key and value of one rank, at least "
                   "2 (…, L, E), (…, S, E), (…, S, Ev), got ranks %u, %u and %u", pq->ndim, pk->ndim, pv->ndim);
      return FALSE;
    }
  for (guint d = 0; d + 2 < pq->ndim; d++)
    if (pk->shape[d] != pq->shape[d] || pv->shape[d] != pq->shape[d])
      return attention_error (error, "the batch dimensions of query, key and value differ",
                              query, "query", pk->shape[d] != pq->shape[d] ? key : value,
                              pk->shape[d] != pq->shape[d] ? "key" : "value");
  if (pk->shape[pk->ndim - 1] != pq->shape[pq->ndim - 1])
    return attention_error (error, "query and key must have the same embedding size E", query, "query",
                            key, "key");
  if (pv->shape[pv->ndim - 2] != pk->shape[pk->ndim - 2])
    return attention_error (error, "key and value must have the same sequence length S", key, "key",
                            value, "value");
  ctx->batch_ndim = pq->ndim - 2;
  memcpy (ctx->batch_shape, pq->shape, sizeof (gint64) * ctx->batch_ndim);
  ctx->B = gnn_shape_numel (ctx->batch_ndim, pq->shape);
  ctx->L = pq->shape[pq->ndim - 2];
  ctx->E = pq->shape[pq->ndim - 1];
  ctx->S = pk->shape[pk->ndim - 2];
  ctx->Ev = pv->shape[pv->ndim - 1];
  if (attn_mask)
    {
      GnnTensorPrivate *pm = gnn_tensor_priv (attn_mask);
      gint64 want[GNN_MAX_DIMS], got[GNN_MAX_DIMS];
      guint n_got;
      g_autoptr(GError) local = NULL;

      memcpy (want, pq->shape, sizeof (gint64) * ctx->batch_ndim);
      want[ctx->batch_ndim] = ctx->L;
      want[ctx->batch_ndim + 1] = ctx->S;
      if (pm->dtype != GNN_DTYPE_BOOL && pm->dtype != pq->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "scaled_dot_product_attention: expected attn_mask of dtype bool or %s (the query's), "
                       "got %s", gnn_dtype_get_name (pq->dtype), gnn_dtype_get_name (pm->dtype));
          return FALSE;
        }
      if (pm->ndim > pq->ndim ||
          !gnn_broadcast_shapes ("scaled_dot_product_attention", pm->ndim, pm->shape, pq->ndim, want,
                                 &n_got, got, &local) ||
          memcmp (got, want, sizeof (gint64) * pq->ndim) != 0)
        {
          g_autofree char *sm = gnn_shape_to_string (pm->ndim, pm->shape);
          g_autofree char *sw = gnn_shape_to_string (pq->ndim, want);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "scaled_dot_product_attention: attn_mask of shape %s does not broadcast to the "
                       "scores' shape %s", sm, sw);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * gnn_scaled_dot_product_attention:
 * @query: the queries, (…, L, E), floating-point
 * @key: the keys, (…, S, E), of @query's dtype and batch dimensions
 * @value: the values, (…, S, Ev), likewise
 * @attn_mask: (nullable): a mask broadcasting to (…, L, S): bool (%TRUE: the query attends the
 *   key) or of @query's dtype (added to the scores); %NULL for none
 * @dropout_p: the probability of dropping an attention weight, in [0, 1)
 * @is_causal: query i attends only the keys j ≤ i (no mask tensor is made); not with @attn_mask
 * @scale: the factor of the scores; ≤ 0 or NaN for the default 1 / √E
 * @error: return location for a #GError
 *
 * Scaled dot-product attention, `torch.nn.functional.scaled_dot_product_attention` of PyTorch
 * 2: softmax (@query · @keyᵀ · @scale + mask) · @value over the last two dimensions, the leading
 * ones batch dimensions. On the CPU backend, in float32 and float64 without dropout, one
 * fused kernel computes it without materialising the (L, S) scores (an online softmax over
 * blocks of keys, flash attention's scheme) and its backward computes them again from the
 * saved logsumexp of each row; that backward is differentiable once (a double backward is an
 * error). With @dropout_p > 0, a float mask that requires grad, or elsewhere, the composed
 * formula runs, differentiable any number of times. A query row with every key masked out
 * gives NaN, as softmax does.
 *
 * Returns: (transfer full): the attention output, (…, L, Ev), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_scaled_dot_product_attention (GnnTensor *query,
                                  GnnTensor *key,
                                  GnnTensor *value,
                                  GnnTensor *attn_mask,
                                  double     dropout_p,
                                  gboolean   is_causal,
                                  double     scale,
                                  GError   **error)
{
  AttentionCtx ctx = { 0 };
  GnnDtype dt;
  GnnBackend *backend;
  g_autoptr(GnnTensor) mask = NULL;
  gboolean fused;

  g_return_val_if_fail (GNN_IS_TENSOR (query) && GNN_IS_TENSOR (key) && GNN_IS_TENSOR (value), NULL);
  g_return_val_if_fail (attn_mask == NULL || GNN_IS_TENSOR (attn_mask), NULL);

  if (!check_operands (query, key, value, attn_mask, &ctx, error))
    return NULL;
  if (!(dropout_p >= 0 && dropout_p < 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "scaled_dot_product_attention: dropout_p must be in [0, 1), got %g", dropout_p);
      return NULL;
    }
  if (is_causal && attn_mask)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "scaled_dot_product_attention: an explicit attn_mask should not be set when is_causal=True");
      return NULL;
    }
  dt = gnn_tensor_priv (query)->dtype;
  ctx.scale = scale > 0 ? scale : 1.0 / sqrt ((double) ctx.E);
  ctx.causal = is_causal;

  /* the additive mask: 0 where a bool mask attends, -inf where it does not */
  if (attn_mask && gnn_tensor_priv (attn_mask)->dtype == GNN_DTYPE_BOOL)
    {
      GnnTensorPrivate *pm = gnn_tensor_priv (attn_mask);
      g_autoptr(GnnTensor) neg = gnn_tensor_new_like (query, dt, pm->ndim, pm->shape, error);

      if (neg == NULL || !gnn_tensor_fill_kernel (neg, -INFINITY, error) ||
          !(mask = gnn_tensor_masked_fill (neg, attn_mask, 0.0, error)))
        return NULL;
    }
  else if (attn_mask)
    mask = g_object_ref (attn_mask);

  backend = gnn_tensor_priv (query)->storage->entry->backend;
  fused = (dt == GNN_DTYPE_FLOAT32 || dt == GNN_DTYPE_FLOAT64) && dropout_p == 0 &&
          !(mask && gnn_tensor_get_requires_grad (mask)) &&
          gnn_backend_supports_op (backend, GNN_BACKEND_OP_ATTENTION, dt) &&
          gnn_backend_supports_op (backend, GNN_BACKEND_OP_ATTENTION_BACKWARD, dt);
  if (fused)
    return attention_fused (query, key, value, mask, &ctx, error);
  return attention_composed (query, key, value, mask, dropout_p, &ctx, error);
}
