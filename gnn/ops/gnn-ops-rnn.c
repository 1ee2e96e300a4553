/* gnn-ops-rnn.c: one direction of an LSTM or GRU layer as one op, forward and backward
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The layer's input projection xp = x W_ihᵀ + b_ih (T, B, G · H) comes in as an ordinary
 * tensor (one product for the whole sequence, made by the caller with autograd). This op
 * runs the steps: per step one GEMM of the state by W_hh straight into a preallocated buffer
 * and one LSTM_CELL or GRU_CELL kernel. The states live in one (T + 1, B, ·) buffer, slot
 * o(t) the state after step t and p(t) the one before it (forward: o(t) = t + 1, p(t) = t;
 * reverse: o(t) = t, p(t) = t + 1), so that the previous states of all steps are one
 * contiguous range of slots. The backward walks the steps back with one cell-backward kernel
 * and one GEMM each, then forms the gradients of W_hh and b_hh with one GEMM and one sum over
 * the whole sequence, as cuDNN does. The node saves xp, W_hh, h0 (and c0), so that a change in
 * place of one of them between forward and backward fails as torch's composed layers do. Under
 * create_graph the backward instead recomputes the steps with composed ops (the function nn/
 * sets with gnn_rnn_layer_set_recompute) and differentiates those, so that the gradients have
 * a graph of their own and a second backward works.
 */
#include "config.h"

#include "gnn-ops-private.h"
#include "autograd/graph/gnn-graph-private.h"
#include "autograd/graph/gnn-grad-mode.h"
#include "backend/gnn-backend-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  gboolean lstm, reverse;
  gint64 T, B, H;
  GnnTensor *pre;     /* LSTM: xp + b_hh + h W_hhᵀ of every step (T, B, 4H); GRU: h W_hhᵀ + b_hh (T, B, 3H) */
  GnnTensor *states;  /* (T + 1, B, S): LSTM S = 2H, [h | c]; GRU S = H */
  GnnTensor *xp;      /* GRU: the input projection (T, B, 3H) */
  GnnTensor *w_hh;
  gboolean has_bias;
  GnnTensor *b_hh;    /* the b_hh given, with its history, for the backward under create_graph */
} RnnCtx;

static void
rnn_ctx_free (gpointer data)
{
  RnnCtx *ctx = data;

  g_clear_object (&ctx->pre);
  g_clear_object (&ctx->states);
  g_clear_object (&ctx->xp);
  g_clear_object (&ctx->w_hh);
  g_clear_object (&ctx->b_hh);
  g_free (ctx);
}

/* the kernel's view of @t, a 2-d tensor whose rows are contiguous */
static void
kt_of (GnnTensor *t, GnnKernelTensor *kt)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = 2;
  kt->shape[0] = p->shape[0];
  kt->shape[1] = p->shape[1];
  kt->strides[0] = p->strides[0];
  kt->strides[1] = 1;
}

static gboolean
run_cell (GnnBackendOp op, GnnTensor *out, GnnTensor *out2, GnnTensor *a, GnnTensor *b, GnnTensor *c,
          GError **error)
{
  GnnKernelTensor kout, kout2, kin[3];
  GnnKernelArgs args = { 0 };
  GnnTensor *in[3] = { a, b, c };

  args.op = op;
  kt_of (out, &kout);
  args.out = &kout;
  if (out2)
    {
      kt_of (out2, &kout2);
      args.out2 = &kout2;
    }
  for (guint k = 0; k < 3 && in[k]; k++)
    {
      kt_of (in[k], &kin[k]);
      args.in[k] = &kin[k];
      args.n_in = k + 1;
    }
  return gnn_run_kernel (out, &args, error);
}

/* rows [@col, @col + @n) of slot @s of a (T + 1, B, S) or (T, B, ·) buffer: a (B, n) view */
static GnnTensor *
slot (GnnTensor *buf, gint64 s, gint64 col, gint64 n, GError **error)
{
  g_autoptr(GnnTensor) row = gnn_tensor_select (buf, 0, s, error);

  return row ? gnn_tensor_narrow (row, 1, col, n, error) : NULL;
}

/* slots [@s, @s + @n) of @buf seen as one (n · B, width) matrix of columns [@col, @col + @width) */
static GnnTensor *
slots_matrix (GnnTensor *buf, gint64 s, gint64 n, gint64 col, gint64 width, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (buf);
  gint64 shape[2] = { n * p->shape[1], p->shape[2] };
  g_autoptr(GnnTensor) range = gnn_tensor_narrow (buf, 0, s, n, error);
  g_autoptr(GnnTensor) flat = range ? gnn_tensor_view (range, shape, 2, error) : NULL;

  return flat ? gnn_tensor_narrow (flat, 1, col, width, error) : NULL;
}

static gint64
out_slot (const RnnCtx *ctx, gint64 t)
{
  return ctx->reverse ? t : t + 1;
}

static gint64
prev_slot (const RnnCtx *ctx, gint64 t)
{
  return ctx->reverse ? t + 1 : t;
}

static GnnTensor *
new_buffer (GnnTensor *like, gint64 d0, gint64 d1, gint64 d2, gboolean zero, GError **error)
{
  gint64 shape[3] = { d0, d1, d2 };
  GnnTensorPrivate *p = gnn_tensor_priv (like);

  if (zero)
    return gnn_tensor_new_zeros (shape, 3, p->dtype, gnn_tensor_get_device (like), error);
  return gnn_tensor_new_like (like, p->dtype, 3, shape, error);
}

static GnnRnnLayerRecomputeFunc recompute_func;

void
gnn_rnn_layer_set_recompute (GnnRnnLayerRecomputeFunc func)
{
  recompute_func = func;
}

/* create_graph: the gradients as a graph of their own, by the composed ops of nn/ */
static gboolean
recompute_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  RnnCtx *ctx = node->ctx;
  GnnTensor *in[5] = { NULL };
  gboolean needs[5] = { FALSE };
  GnnTensor *full[5] = { NULL };
  guint map[5], n = 0;

  if (recompute_func == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: double backward (create_graph=True) is not available", gnn_node_get_name (node));
      return FALSE;
    }
  /* the inputs in the node's order: xp, w_hh, [b_hh], h0, [c0]; all saved but b_hh */
  for (guint j = 0, i = 0; j < 5; j++)
    {
      if ((j == 2 && !ctx->has_bias) || (j == 4 && !ctx->lstm))
        continue;
      map[n] = j;
      if (j == 2)
        in[n] = ctx->b_hh;
      else if (!(in[n] = gnn_node_saved (node, i++, error)))
        return FALSE;
      n++;
    }
  for (guint k = 0; k < n; k++)
    {
      full[map[k]] = in[k];
      needs[map[k]] = NEEDS (k);
    }
  {
    GnnTensor *fgi[5] = { NULL };

    if (!recompute_func (ctx->lstm, ctx->reverse, full, go, needs, fgi, error))
      {
        for (guint j = 0; j < 5; j++)
          g_clear_object (&fgi[j]);
        return FALSE;
      }
    for (guint k = 0; k < n; k++)
      gi[k] = fgi[map[k]];
  }
  return TRUE;
}

/* gradients: inputs xp, w_hh, b_hh, h0, c0 (LSTM) ; outputs y, h_n, c_n (LSTM) */
static gboolean
rnn_layer_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  RnnCtx *ctx = node->ctx;
  const gint64 T = ctx->T, B = ctx->B, H = ctx->H, G = ctx->lstm ? 4 : 3;
  const gint64 init = ctx->reverse ? T : 0, final = ctx->reverse ? 0 : T;
  const gint64 width = 2 * H;   /* the gradient slots: LSTM [dh | dc], GRU [a copy of h | dh] */
  const gint64 dh_col = ctx->lstm ? 0 : H;
  g_autoptr(GnnTensor) grad = NULL, dpre = NULL, extra = NULL, w = NULL;
  g_autoptr(GnnNoGradGuard) guard = NULL;

  if (go[0] == NULL && go[1] == NULL && (!ctx->lstm || go[2] == NULL))
    return TRUE;
  /* the inputs as saved: fails when one was changed in place since the forward */
  for (guint k = 0; k < node->n_saved; k++)
    if (gnn_node_saved (node, k, error) == NULL)
      return FALSE;
  if (gnn_is_grad_enabled ())
    return recompute_backward (node, go, gi, error);
  guard = gnn_no_grad_guard_new ();
  /* the gradient reaching each slot's state: y's gradient, h_n's (and c_n's) at the last */
  if (!(grad = new_buffer (ctx->states, T + 1, B, width, TRUE, error)) ||
      !(dpre = new_buffer (ctx->states, T, B, G * H, FALSE, error)) ||
      (!ctx->lstm && !(extra = new_buffer (ctx->states, T, B, 4 * H, FALSE, error))))
    return FALSE;
  if (go[0])
    {
      g_autoptr(GnnTensor) range = gnn_tensor_narrow (grad, 0, ctx->reverse ? 0 : 1, T, error);
      g_autoptr(GnnTensor) dst = range ? gnn_tensor_narrow (range, 2, dh_col, H, error) : NULL;

      if (dst == NULL || !gnn_tensor_copy_into (dst, go[0], error))
        return FALSE;
    }
  for (guint k = 1; k < (ctx->lstm ? 3u : 2u); k++)
    if (go[k])
      {
        g_autoptr(GnnTensor) dst = slot (grad, final, k == 1 ? dh_col : H, H, error);
        g_autoptr(GnnTensor) sum = dst ? gnn_tensor_add (dst, go[k], 1.0, error) : NULL;

        if (sum == NULL || !gnn_tensor_copy_into (dst, sum, error))
          return FALSE;
      }
  w = g_object_ref (ctx->w_hh);
  for (gint64 s = 0; s < T; s++)
    {
      gint64 t = ctx->reverse ? s : T - 1 - s;
      g_autoptr(GnnTensor) g = slot (grad, out_slot (ctx, t), 0, width, error);
      g_autoptr(GnnTensor) d = slot (dpre, t, 0, G * H, error);
      g_autoptr(GnnTensor) pre = slot (ctx->pre, t, 0, G * H, error);
      g_autoptr(GnnTensor) dh_prev = slot (grad, prev_slot (ctx, t), dh_col, H, error);

      if (g == NULL || d == NULL || pre == NULL || dh_prev == NULL)
        return FALSE;
      if (ctx->lstm)
        {
          g_autoptr(GnnTensor) c_prev = slot (ctx->states, prev_slot (ctx, t), H, H, error);
          g_autoptr(GnnTensor) dc_prev = slot (grad, prev_slot (ctx, t), H, H, error);

          if (c_prev == NULL || dc_prev == NULL ||
              !run_cell (GNN_BACKEND_OP_LSTM_CELL_BACKWARD, d, dc_prev, pre, c_prev, g, error) ||
              !gnn_gemm_into (dh_prev, d, w, 1.0, 1.0, error))
            return FALSE;
        }
      else
        {
          g_autoptr(GnnTensor) h_prev = slot (ctx->states, prev_slot (ctx, t), 0, H, error);
          g_autoptr(GnnTensor) h_dst = slot (grad, out_slot (ctx, t), 0, H, error);
          g_autoptr(GnnTensor) xp = slot (ctx->xp, t, 0, 3 * H, error);
          g_autoptr(GnnTensor) e = slot (extra, t, 0, 4 * H, error);
          g_autoptr(GnnTensor) dhp = slot (extra, t, 0, 3 * H, error);
          g_autoptr(GnnTensor) direct = slot (extra, t, 3 * H, H, error);
          g_autoptr(GnnTensor) sum = NULL;

          if (h_prev == NULL || h_dst == NULL || xp == NULL || e == NULL || dhp == NULL || direct == NULL ||
              !gnn_tensor_copy_into (h_dst, h_prev, error) ||
              !run_cell (GNN_BACKEND_OP_GRU_CELL_BACKWARD, d, e, xp, pre, g, error) ||
              !(sum = gnn_tensor_add (dh_prev, direct, 1.0, error)) ||
              !gnn_tensor_copy_into (dh_prev, sum, error) ||
              !gnn_gemm_into (dh_prev, dhp, w, 1.0, 1.0, error))
            return FALSE;
        }
    }
  /* xp */
  if (NEEDS (0) && !(gi[0] = g_object_ref (dpre)))
    return FALSE;
  /* W_hh and b_hh: one product and one sum over every step */
  if (NEEDS (1) || (ctx->has_bias && NEEDS (2)))
    {
      gint64 flat_shape[2] = { T * B, G * H };
      g_autoptr(GnnTensor) dflat = ctx->lstm ? gnn_tensor_view (dpre, flat_shape, 2, error)
                                             : slots_matrix (extra, 0, T, 0, 3 * H, error);

      if (dflat == NULL)
        return FALSE;
      if (NEEDS (1))
        {
          gint64 wshape[2] = { G * H, H };
          g_autoptr(GnnTensor) hprev = slots_matrix (ctx->states, ctx->reverse ? 1 : 0, T, 0, H, error);
          g_autoptr(GnnTensor) dt = hprev ? gnn_tensor_t (dflat, error) : NULL;
          GnnTensorPrivate *p = gnn_tensor_priv (dpre);

          if (dt == NULL || !(gi[1] = gnn_tensor_new_zeros (wshape, 2, p->dtype, gnn_tensor_get_device (dpre), error)))
            return FALSE;
          if (T > 0 && !gnn_gemm_into (gi[1], dt, hprev, 1.0, 0.0, error))
            return FALSE;
        }
      if (ctx->has_bias && NEEDS (2))
        {
          int dim0 = 0;

          if (!(gi[2] = gnn_tensor_sum (dflat, &dim0, 1, FALSE, error)))
            return FALSE;
        }
    }
  /* h0 (and c0) */
  {
    guint ih = ctx->has_bias ? 3 : 2;

    if (NEEDS (ih) && !(gi[ih] = slot (grad, init, dh_col, H, error)))
      return FALSE;
    if (ctx->lstm && NEEDS (ih + 1) && !(gi[ih + 1] = slot (grad, init, H, H, error)))
      return FALSE;
  }
  return TRUE;
}

gboolean
gnn_rnn_layer_fused_available (GnnTensor *x)
{
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  GnnBackend *backend = p->storage->entry->backend;

  if (p->dtype != GNN_DTYPE_FLOAT32 && p->dtype != GNN_DTYPE_FLOAT64)
    return FALSE;
  return gnn_backend_supports_op (backend, GNN_BACKEND_OP_LSTM_CELL, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_LSTM_CELL_BACKWARD, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_GRU_CELL, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_GRU_CELL_BACKWARD, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_GEMM, p->dtype);
}

/* One direction of an LSTM (@lstm) or GRU layer over the steps of @xp (T, B, G · H), the
 * input projection with b_ih, from the states @h0 (B, H) (and @c0): returns the outputs
 * (T, B, H) and sets *@h_n (and *@c_n). @w_hh (G · H, H), @b_hh (G · H) or %NULL. All of one
 * dtype and device; call only when gnn_rnn_layer_fused_available (@xp). */
GnnTensor *
gnn_rnn_layer_fused (gboolean    lstm,
                     gboolean    reverse,
                     GnnTensor  *xp,
                     GnnTensor  *w_hh,
                     GnnTensor  *b_hh,
                     GnnTensor  *h0,
                     GnnTensor  *c0,
                     GnnTensor **h_n,
                     GnnTensor **c_n,
                     GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (xp);
  const gint64 T = p->shape[0], B = p->shape[1], G = lstm ? 4 : 3, H = p->shape[2] / G;
  const gint64 S = lstm ? 2 * H : H;
  RnnCtx ctx = { lstm, reverse, T, B, H, NULL, NULL, NULL, NULL, b_hh != NULL, NULL };
  g_autoptr(GnnTensor) x = NULL, w = NULL, wt = NULL, b = NULL, y = NULL, hn = NULL, cn = NULL;
  GnnTensor *inputs[5] = { xp, w_hh, b_hh, h0, c0 };
  GnnTensor *outputs[3];
  guint n_in = 0;
  GnnTensor *ins[5];
  GnnNode *node;

  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) s0 = NULL, yr = NULL, last = NULL;

    if (!(x = gnn_tensor_contiguous_as (xp, p->dtype, error)) || !(w = gnn_tensor_detach (w_hh)) ||
        !(wt = gnn_tensor_t (w, error)) ||
        !(ctx.states = new_buffer (x, T + 1, B, S, FALSE, error)))
      goto fail;
    if (b_hh && !(b = gnn_tensor_detach (b_hh)))
      goto fail;
    /* LSTM: pre = xp + b_hh, to which each step adds h W_hhᵀ; GRU: pre = b_hh, likewise */
    if (lstm)
      ctx.pre = b ? gnn_tensor_add (x, b, 1.0, error) : gnn_tensor_clone_contiguous (x, p->dtype, error);
    else if ((ctx.pre = new_buffer (x, T, B, 3 * H, b == NULL, error)) && b && !gnn_tensor_copy_into (ctx.pre, b, error))
      g_clear_object (&ctx.pre);
    if (ctx.pre == NULL)
      goto fail;
    if (!(s0 = slot (ctx.states, reverse ? T : 0, 0, H, error)) || !gnn_tensor_copy_into (s0, h0, error))
      goto fail;
    if (lstm)
      {
        g_clear_object (&s0);
        if (!(s0 = slot (ctx.states, reverse ? T : 0, H, H, error)) || !gnn_tensor_copy_into (s0, c0, error))
          goto fail;
      }
    for (gint64 s = 0; s < T; s++)
      {
        gint64 t = reverse ? T - 1 - s : s;
        g_autoptr(GnnTensor) pre = slot (ctx.pre, t, 0, G * H, error);
        g_autoptr(GnnTensor) h_prev = slot (ctx.states, prev_slot (&ctx, t), 0, H, error);
        g_autoptr(GnnTensor) out = slot (ctx.states, out_slot (&ctx, t), 0, S, error);

        if (pre == NULL || h_prev == NULL || out == NULL || !gnn_gemm_into (pre, h_prev, wt, 1.0, 1.0, error))
          goto fail;
        if (lstm)
          {
            g_autoptr(GnnTensor) c_prev = slot (ctx.states, prev_slot (&ctx, t), H, H, error);

            if (c_prev == NULL || !run_cell (GNN_BACKEND_OP_LSTM_CELL, out, NULL, pre, c_prev, NULL, error))
              goto fail;
          }
        else
          {
            g_autoptr(GnnTensor) xt = slot (x, t, 0, 3 * H, error);

            if (xt == NULL || !run_cell (GNN_BACKEND_OP_GRU_CELL, out, NULL, xt, pre, h_prev, error))
              goto fail;
          }
      }
    /* the outputs: y, h_n (and c_n) as new contiguous tensors */
    if (!(yr = gnn_tensor_narrow (ctx.states, 0, reverse ? 0 : 1, T, error)) ||
        !(last = gnn_tensor_narrow (yr, 2, 0, H, error)) ||
        !(y = gnn_tensor_clone_contiguous (last, p->dtype, error)))
      goto fail;
    g_clear_object (&last);
    if (!(last = slot (ctx.states, reverse ? 0 : T, 0, H, error)) ||
        !(hn = gnn_tensor_clone_contiguous (last, p->dtype, error)))
      goto fail;
    if (lstm)
      {
        g_clear_object (&last);
        if (!(last = slot (ctx.states, reverse ? 0 : T, H, H, error)) ||
            !(cn = gnn_tensor_clone_contiguous (last, p->dtype, error)))
          goto fail;
      }
  }
  for (guint k = 0; k < 5; k++)
    if (inputs[k])
      ins[n_in++] = inputs[k];
  outputs[0] = y;
  outputs[1] = hn;
  outputs[2] = cn;
  if ((node = gnn_autograd_record (lstm ? "LstmLayerBackward0" : "GruLayerBackward0", rnn_layer_backward, ins,
                                   n_in, outputs, lstm ? 3 : 2)))
    {
      RnnCtx *saved = g_memdup2 (&ctx, sizeof ctx);

      /* xp, w_hh, h0 (and c0), checked against in-place changes as torch's composed layers
       * check theirs (b_hh only enters a sum there: it is kept without a check) */
      for (guint k = 0; k < 5; k++)
        if (inputs[k] && k != 2)
          gnn_node_save (node, inputs[k]);
      saved->b_hh = b_hh ? g_object_ref (b_hh) : NULL;

      saved->w_hh = g_object_ref (w);
      saved->xp = lstm ? NULL : g_object_ref (x);
      ctx.pre = NULL;
      ctx.states = NULL;
      gnn_node_set_ctx (node, saved, rnn_ctx_free);
    }
  g_clear_object (&ctx.pre);
  g_clear_object (&ctx.states);
  *h_n = g_steal_pointer (&hn);
  if (c_n)
    *c_n = g_steal_pointer (&cn);
  return g_steal_pointer (&y);

fail:
  g_clear_object (&ctx.pre);
  g_clear_object (&ctx.states);
  return NULL;
}
