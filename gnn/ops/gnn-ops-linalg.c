/* gnn-ops-linalg.c: matmul and linear through the backend's gemm
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"
#include "gnn-autocast-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* A kernel view of a 2-d or 3-d tensor as (batch, rows, cols); copies to @keep when the
 * layout is not one gemm accepts (a unit stride in one of the two matrix dimensions). */
static gboolean
as_gemm_operand (GnnTensor *t, GnnKernelTensor *kt, GnnTensor **keep, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 rs = p->strides[p->ndim - 2], cs = p->strides[p->ndim - 1];
  gint64 rows = p->shape[p->ndim - 2], cols = p->shape[p->ndim - 1];
  gboolean ok = ((cs == 1 || cols <= 1) && rs >= MAX (cols, 1)) || ((rs == 1 || rows <= 1) && cs >= MAX (rows, 1));

  if (!ok)
    {
      *keep = gnn_tensor_clone_contiguous (t, p->dtype, error);
      if (*keep == NULL)
        return FALSE;
      p = gnn_tensor_priv (*keep);
    }
  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = 3;
  if (p->ndim == 2)
    {
      kt->shape[0] = 1;
      kt->strides[0] = 0;
      kt->shape[1] = p->shape[0];
      kt->shape[2] = p->shape[1];
      kt->strides[1] = p->strides[0];
      kt->strides[2] = p->strides[1];
    }
  else
    {
      memcpy (kt->shape, p->shape, sizeof (gint64) * 3);
      memcpy (kt->strides, p->strides, sizeof (gint64) * 3);
    }
  return TRUE;
}

/* out (b, m, n) = alpha · a (b, m, k) · b (b, k, n) + beta · out, batch 1 for 2-d (out is not
 * read when beta is 0). @out must be contiguous with the right shape. No autograd. */
static gboolean
gemm_scaled_into (GnnTensor *out, GnnTensor *a, GnnTensor *b, double alpha, double beta, GError **error)
{
  g_autoptr(GnnTensor) ka = NULL, kb = NULL;
  GnnKernelTensor ta, tb, tc;
  GnnKernelArgs args = { 0 };
  GnnTensorPrivate *op = gnn_tensor_priv (out);

  if (!as_gemm_operand (a, &ta, &ka, error) || !as_gemm_operand (b, &tb, &kb, error) ||
      !as_gemm_operand (out, &tc, NULL, error))
    return FALSE;
  if (op->ndim == 3 && gnn_tensor_priv (a)->ndim == 2)
    {
      ta.shape[0] = tc.shape[0];
    }
  if (op->ndim == 3 && gnn_tensor_priv (b)->ndim == 2)
    tb.shape[0] = tc.shape[0];
  args.op = GNN_BACKEND_OP_GEMM;
  args.out = &tc;
  args.in[0] = &ta;
  args.in[1] = &tb;
  args.n_in = 2;
  args.params.gemm.alpha = alpha;
  args.params.gemm.beta = beta;
  return gnn_run_kernel (out, &args, error);
}

gboolean
gnn_gemm_into (GnnTensor *out, GnnTensor *a, GnnTensor *b, double alpha, double beta, GError **error)
{
  return gemm_scaled_into (out, a, b, alpha, beta, error);
}

static gboolean
gemm_into (GnnTensor *out, GnnTensor *a, GnnTensor *b, double beta, GError **error)
{
  return gemm_scaled_into (out, a, b, 1.0, beta, error);
}

/* mm / bmm of same-batch 2-d or 3-d operands; backward uses the same product */
static GnnTensor *mm_op (const char *name, GnnTensor *a, GnnTensor *b, GError **error);

/* The products of backward formulas record under create_graph (grad mode on), as any mm */
static GnnTensor *
backward_mm (GnnTensor *a, GnnTensor *b, GError **error)
{
  return mm_op (gnn_tensor_priv (a)->ndim == 3 ? "BmmBackward0" : "MmBackward0", a, b, error);
}

static gboolean
mm_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a, *b;
  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) bt = gnn_tensor_transpose (b, -1, -2, error);
      if (!bt || !(gi[0] = backward_mm (go[0], bt, error)))
        return FALSE;
    }
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) at = gnn_tensor_transpose (a, -1, -2, error);
      if (!at || !(gi[1] = backward_mm (at, go[0], error)))
        return FALSE;
    }
  return TRUE;
}

static GnnTensor *
mm_op (const char *name, GnnTensor *a, GnnTensor *b, GError **error)
{
  GnnTensorPrivate *pa = gnn_tensor_priv (a), *pb = gnn_tensor_priv (b);
  gint64 shape[3];
  guint nd = pa->ndim;
  GnnTensor *out;
  GnnTensor *ins[2] = { a, b };
  GnnNode *node;

  if (nd == 3)
    {
      shape[0] = pa->shape[0];
      shape[1] = pa->shape[1];
      shape[2] = pb->shape[2];
    }
  else
    {
      shape[0] = pa->shape[0];
      shape[1] = pb->shape[1];
    }
  out = gnn_tensor_new_like (a, pa->dtype, nd, shape, error);
  if (out == NULL)
    return NULL;
  if (!gemm_into (out, a, b, 0.0, error))
    {
      g_object_unref (out);
      return NULL;
    }
  if (name && (node = gnn_autograd_record (name, mm_backward, ins, 2, &out, 1)))
    {
      gnn_node_save (node, a);
      gnn_node_save (node, b);
    }
  return out;
}


/* shared_left_backward under create_graph, in recording ops: gx = wᵀ · g for each matrix,
 * gw = g (m, N n) · x (N n, k), both g and x folded over the batch */
static gboolean
shared_left_backward_differentiable (GnnNode *node, GnnTensor *w, GnnTensor *x, GnnTensor *g,
                                     GnnTensor **gi, GError **error)
{
  GnnTensorPrivate *px = gnn_tensor_priv (x);

  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) wt = gnn_tensor_transpose (w, 0, 1, error);
      if (!wt || !(gi[1] = gnn_matmul_shared_left (wt, g, error)))
        return FALSE;
    }
  if (NEEDS (0))
    {
      const int gperm[3] = { 1, 0, 2 }, xperm[3] = { 0, 2, 1 };
      gint64 gshape[2] = { gnn_tensor_priv (g)->shape[1], -1 }, xshape[2] = { -1, px->shape[1] };
      g_autoptr(GnnTensor) gp = NULL, g2 = NULL, xp = NULL, x2 = NULL;

      if (!(gp = gnn_tensor_permute (g, gperm, 3, error)) || !(g2 = gnn_tensor_reshape (gp, gshape, 2, error)) ||
          !(xp = gnn_tensor_permute (x, xperm, 3, error)) || !(x2 = gnn_tensor_reshape (xp, xshape, 2, error)) ||
          !(gi[0] = gnn_tensor_matmul (g2, x2, error)))
        return FALSE;
    }
  return TRUE;
}

/* (N, m, n) = w (m, k) · x[i] (k, n) for every i: the gradient of w is Σ_i g[i] · x[i]ᵀ,
 * accumulated by the gemm itself into one (m, k) result instead of N products summed after */
static gboolean
shared_left_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *w, *x;
  g_autoptr(GnnTensor) g = NULL;
  GnnTensorPrivate *px;

  if (go[0] == NULL)
    return TRUE;
  if (!(w = gnn_node_saved (node, 0, error)) || !(x = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (gnn_is_grad_enabled ())
    return shared_left_backward_differentiable (node, w, x, go[0], gi, error);
  if (!(g = gnn_tensor_contiguous_as (go[0], gnn_tensor_priv (go[0])->dtype, error)))
    return FALSE;
  px = gnn_tensor_priv (x);
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) wt = gnn_tensor_transpose (w, 0, 1, error);

      if (!wt || !(gi[1] = gnn_tensor_new_like (x, px->dtype, 3, px->shape, error)) ||
          !gemm_into (gi[1], wt, g, 0.0, error))
        return FALSE;
    }
  if (NEEDS (0))
    {
      GnnTensorPrivate *pw = gnn_tensor_priv (w);

      if (!(gi[0] = gnn_tensor_new_like (w, pw->dtype, 2, pw->shape, error)))
        return FALSE;
      if (px->shape[0] == 0)
        return gnn_tensor_zero_ (gi[0], error);
      for (gint64 i = 0; i < px->shape[0]; i++)
        {
          g_autoptr(GnnTensor) gn = gnn_tensor_select (g, 0, i, error);
          g_autoptr(GnnTensor) xn = gn ? gnn_tensor_select (x, 0, i, error) : NULL;
          g_autoptr(GnnTensor) xt = xn ? gnn_tensor_transpose (xn, 0, 1, error) : NULL;

          if (xt == NULL || !gemm_into (gi[0], gn, xt, i ? 1.0 : 0.0, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* @w (m, k) times each matrix of @x (N, k, n): (N, m, n), as matmul would broadcast it, but
 * with a backward that does not materialise N copies of w's gradient (convolutions). Same
 * dtype and device expected. */
GnnTensor *
gnn_matmul_shared_left (GnnTensor *w, GnnTensor *x, GError **error)
{
  GnnTensorPrivate *pw = gnn_tensor_priv (w), *px = gnn_tensor_priv (x);
  gint64 shape[3];
  GnnTensor *ins[2] = { w, x };
  g_autoptr(GnnTensor) out = NULL;
  GnnNode *node;

  g_return_val_if_fail (pw->ndim == 2 && px->ndim == 3 && pw->shape[1] == px->shape[1], NULL);
  shape[0] = px->shape[0];
  shape[1] = pw->shape[0];
  shape[2] = px->shape[2];
  if (!(out = gnn_tensor_new_like (x, px->dtype, 3, shape, error)) || !gemm_into (out, w, x, 0.0, error))
    return NULL;
  if ((node = gnn_autograd_record ("BmmBackward0", shared_left_backward, ins, 2, &out, 1)))
    {
      gnn_node_save (node, w);
      gnn_node_save (node, x);
    }
  return g_steal_pointer (&out);
}

static gboolean
check_matmul_dtypes (const char *op, GnnTensor *a, GnnTensor *b, GError **error)
{
  GnnDtype da = gnn_tensor_priv (a)->dtype, db = gnn_tensor_priv (b)->dtype;

  if (!gnn_check_same_device (op, a, b, error))
    return FALSE;
  if (da != db)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: expected both operands to have the same dtype, but got %s and %s",
                   op, gnn_dtype_get_name (da), gnn_dtype_get_name (db));
      return FALSE;
    }
  if (da != GNN_DTYPE_FLOAT32 && da != GNN_DTYPE_FLOAT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: only float32 and float64 are supported, got %s", op, gnn_dtype_get_name (da));
      return FALSE;
    }
  return TRUE;
}

static gboolean
shape_error (const char *op, GnnTensor *a, GnnTensor *b, gint64 r, gint64 c, gint64 r2, gint64 c2, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "%s: mat1 and mat2 shapes cannot be multiplied (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
               " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")", op, r, c, r2, c2);
  return FALSE;
}

/**
 * gnn_tensor_matmul:
 * @self: a tensor of at least one dimension
 * @other: a tensor of at least one dimension
 * @error: return location for a #GError
 *
 * The matrix product with `torch.matmul`'s rules: vectors are promoted to matrices and the
 * added dimension removed afterwards, and batch dimensions broadcast. Products run through the
 * backend's gemm (OpenBLAS on the CPU), without copying transposed operands.
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_matmul (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensorPrivate *pa, *pb;
  g_autoptr(GnnTensor) a = NULL, b = NULL, prod = NULL;
  guint na, nb;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_MATMUL, c, gnn_tensor_matmul (c[0], c[1], error), error, self, other);
  GNN_HALF_RETURN (f, gnn_tensor_matmul (f[0], f[1], error), error, self, other);

  pa = gnn_tensor_priv (self);
  pb = gnn_tensor_priv (other);
  na = pa->ndim;
  nb = pb->ndim;
  if (na == 0 || nb == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "both arguments to matmul need to be at least 1D, but they are %uD and %uD", na, nb);
      return NULL;
    }
  if (!check_matmul_dtypes ("matmul", self, other, error))
    return NULL;

  /* vectors become matrices */
  a = na == 1 ? gnn_tensor_unsqueeze (self, 0, error) : g_object_ref (self);
  if (a == NULL)
    return NULL;
  b = nb == 1 ? gnn_tensor_unsqueeze (other, 1, error) : g_object_ref (other);
  if (b == NULL)
    return NULL;
  pa = gnn_tensor_priv (a);
  pb = gnn_tensor_priv (b);
  if (pa->shape[pa->ndim - 1] != pb->shape[pb->ndim - 2])
    {
      shape_error ("matmul", a, b, gnn_shape_numel (pa->ndim - 1, pa->shape), pa->shape[pa->ndim - 1],
                   pb->shape[pb->ndim - 2], pb->shape[pb->ndim - 1], error);
      return NULL;
    }

  if (pa->ndim == 2 && pb->ndim == 2)
    prod = mm_op (na == 1 || nb == 1 ? (na == 1 && nb == 1 ? "DotBackward0" : "MvBackward0") : "MmBackward0",
                  a, b, error);
  else if (pb->ndim == 2)
    {
      /* (..., m, k) · (k, n): fold the batch into the rows */
      gint64 rows[2] = { -1, pa->shape[pa->ndim - 1] };
      gint64 out_shape[GNN_MAX_DIMS];
      g_autoptr(GnnTensor) folded = gnn_tensor_reshape (a, rows, 2, error);
      g_autoptr(GnnTensor) p2 = folded ? mm_op ("MmBackward0", folded, b, error) : NULL;
      if (p2 == NULL)
        return NULL;
      memcpy (out_shape, pa->shape, sizeof (gint64) * pa->ndim);
      out_shape[pa->ndim - 1] = pb->shape[1];
      prod = gnn_tensor_reshape (p2, out_shape, pa->ndim, error);
    }
  else
    {
      /* broadcast the batch dimensions, then one batched product */
      gint64 batch[GNN_MAX_DIMS], ea[GNN_MAX_DIMS], eb[GNN_MAX_DIMS], out_shape[GNN_MAX_DIMS];
      guint nbatch;
      gint64 nb_total, s3a[3], s3b[3];
      g_autoptr(GnnTensor) xa = NULL, xb = NULL, ra = NULL, rb = NULL, p3 = NULL;

      if (!gnn_broadcast_shapes ("matmul", pa->ndim - 2, pa->shape, pb->ndim - 2, pb->shape, &nbatch, batch, error))
        return NULL;
      nb_total = gnn_shape_numel (nbatch, batch);
      memcpy (ea, batch, sizeof (gint64) * nbatch);
      ea[nbatch] = pa->shape[pa->ndim - 2];
      ea[nbatch + 1] = pa->shape[pa->ndim - 1];
      memcpy (eb, batch, sizeof (gint64) * nbatch);
      eb[nbatch] = pb->shape[pb->ndim - 2];
      eb[nbatch + 1] = pb->shape[pb->ndim - 1];
      s3a[0] = nb_total; s3a[1] = ea[nbatch]; s3a[2] = ea[nbatch + 1];
      s3b[0] = nb_total; s3b[1] = eb[nbatch]; s3b[2] = eb[nbatch + 1];
      if (!(xa = gnn_tensor_expand (a, ea, nbatch + 2, error)) ||
          !(xb = gnn_tensor_expand (b, eb, nbatch + 2, error)) ||
          !(ra = gnn_tensor_reshape (xa, s3a, 3, error)) ||
          !(rb = gnn_tensor_reshape (xb, s3b, 3, error)) ||
          !(p3 = mm_op ("BmmBackward0", ra, rb, error)))
        return NULL;
      memcpy (out_shape, batch, sizeof (gint64) * nbatch);
      out_shape[nbatch] = s3a[1];
      out_shape[nbatch + 1] = s3b[2];
      prod = gnn_tensor_reshape (p3, out_shape, nbatch + 2, error);
    }
  if (prod == NULL)
    return NULL;

  /* remove the dimensions added to vectors */
  if (na == 1 && nb == 1)
    return gnn_tensor_reshape (prod, NULL, 0, error);
  if (na == 1)
    return gnn_tensor_squeeze_dim (prod, -2, error);
  if (nb == 1)
    return gnn_tensor_squeeze_dim (prod, -1, error);
  return g_steal_pointer (&prod);
}

/* out (N, out) = x (N, in) · Wᵀ + b:  gx = g · W,  gW = gᵀ · x,  gb = Σ_N g */
static gboolean
addmm_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *x, *w;
  if (go[0] == NULL)
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) || !(w = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (0) && !(gi[0] = backward_mm (go[0], w, error)))
    return FALSE;
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) gt = gnn_tensor_t (go[0], error);
      if (!gt || !(gi[1] = backward_mm (gt, x, error)))
        return FALSE;
    }
  if (node->n_inputs > 2 && NEEDS (2))
    {
      int dim0 = 0;
      if (!(gi[2] = gnn_tensor_sum (go[0], &dim0, 1, FALSE, error)))
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_tensor_linear:
 * @self: the input, of shape `(*, in_features)`
 * @weight: the weight, of shape (out_features, in_features)
 * @bias: (nullable): the bias, of shape (out_features)
 * @error: return location for a #GError
 *
 * Computes @self · @weightᵀ + @bias (`torch.nn.functional.linear`) in one gemm, the bias
 * added by the gemm itself.
 *
 * Returns: (transfer full): the result, of shape `(*, out_features)`, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_linear (GnnTensor *self, GnnTensor *weight, GnnTensor *bias, GError **error)
{
  GnnTensorPrivate *px, *pw;
  g_autoptr(GnnTensor) x2 = NULL, wt = NULL, out = NULL;
  gint64 rows[2], oshape[2], full[GNN_MAX_DIMS];
  GnnTensor *ins[3];
  GnnNode *node;
  gint64 in_f, out_f;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LINEAR, c, gnn_tensor_linear (c[0], c[1], c[2], error),
                       error, self, weight, bias);
  GNN_HALF_RETURN (f, gnn_tensor_linear (f[0], f[1], f[2], error), error, self, weight, bias);

  px = gnn_tensor_priv (self);
  pw = gnn_tensor_priv (weight);
  if (!check_matmul_dtypes ("linear", self, weight, error) ||
      (bias && !check_matmul_dtypes ("linear", self, bias, error)))
    return NULL;
  if (pw->ndim != 2 || px->ndim == 0)
    {
      g_autofree char *ws = gnn_shape_to_string (pw->ndim, pw->shape);
      g_autofree char *xs = gnn_shape_to_string (px->ndim, px->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "linear: expected a 2-D weight and an input of at least 1 dimension, got weight %s and input %s",
                   ws, xs);
      return NULL;
    }
  in_f = pw->shape[1];
  out_f = pw->shape[0];
  if (px->shape[px->ndim - 1] != in_f)
    {
      shape_error ("linear", self, weight, gnn_shape_numel (px->ndim - 1, px->shape), px->shape[px->ndim - 1],
                   in_f, out_f, error);
      return NULL;
    }
  if (bias && (gnn_tensor_priv (bias)->ndim != 1 || gnn_tensor_priv (bias)->shape[0] != out_f))
    {
      g_autofree char *bs = gnn_shape_to_string (gnn_tensor_priv (bias)->ndim, gnn_tensor_priv (bias)->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "linear: expected a bias of shape [%" G_GINT64_FORMAT "], got %s", out_f, bs);
      return NULL;
    }

  rows[0] = -1;
  rows[1] = in_f;
  /* the folded input records a view, so that its gradient reshapes back */
  x2 = px->ndim == 2 ? g_object_ref (self) : gnn_tensor_reshape (self, rows, 2, error);
  if (x2 == NULL)
    return NULL;
  {
    gboolean prev = gnn_set_grad_enabled (FALSE);
    wt = gnn_tensor_t (weight, error);
    gnn_set_grad_enabled (prev);
  }
  if (wt == NULL)
    return NULL;
  oshape[0] = gnn_tensor_priv (x2)->shape[0];
  oshape[1] = out_f;
  out = gnn_tensor_new_like (self, px->dtype, 2, oshape, error);
  if (out == NULL)
    return NULL;
  if (bias)
    {
      if (!gnn_elementwise_into ("linear", GNN_BACKEND_OP_COPY, out, &bias, 1, NULL, error))
        return NULL;
    }
  if (!gemm_into (out, x2, wt, bias ? 1.0 : 0.0, error))
    return NULL;

  ins[0] = x2;
  ins[1] = weight;
  ins[2] = bias;
  node = gnn_autograd_record (bias ? "AddmmBackward0" : "MmBackward0", addmm_backward, ins, bias ? 3 : 2, &out, 1);
  if (node)
    {
      gnn_node_save (node, x2);
      gnn_node_save (node, weight);
    }
  if (px->ndim == 2)
    return g_steal_pointer (&out);
  memcpy (full, px->shape, sizeof (gint64) * px->ndim);
  full[px->ndim - 1] = out_f;
  return gnn_tensor_reshape (out, full, px->ndim, error);
}

/* ---- bmm, addmm, baddbmm, addbmm, mv, dot, outer ----------------------------------------- */

typedef struct {
  double beta, alpha;
  gboolean batch_sum;
} AddmmCtx;

static gboolean
check_rank (const char *op, const char *what, GnnTensor *t, guint ndim, GError **error)
{
  guint nd = gnn_tensor_priv (t)->ndim;

  if (nd == ndim)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: %s must be a %uD tensor, got a %uD tensor",
               op, what, ndim, nd);
  return FALSE;
}

/* out = alpha · a · b [+ beta · c]: ga = alpha · g · bᵀ, gb = alpha · aᵀ · g, gc = beta · g summed
 * to c's shape; for addbmm (batch_sum) g (m, n) broadcasts over the batch of a and b */
static gboolean
addmm_like_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  AddmmCtx *ctx = node->ctx;
  GnnTensor *a, *b;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  for (guint j = 0; j < 2; j++)
    {
      g_autoptr(GnnTensor) other = NULL, prod = NULL;

      if (!NEEDS (j))
        continue;
      if (!(other = gnn_tensor_transpose (j == 0 ? b : a, -1, -2, error)) ||
          !(prod = j == 0 ? gnn_tensor_matmul (go[0], other, error) : gnn_tensor_matmul (other, go[0], error)))
        return FALSE;
      gi[j] = ctx->alpha == 1.0 ? g_steal_pointer (&prod) : gnn_tensor_mul_scalar (prod, ctx->alpha, error);
      if (gi[j] == NULL)
        return FALSE;
    }
  if (node->n_inputs > 2 && NEEDS (2))
    {
      g_autoptr(GnnTensor) scaled = gnn_tensor_mul_scalar (go[0], ctx->beta, error);

      if (!scaled || !(gi[2] = gnn_sum_to (scaled, node->in_ndim[2], node->in_shape[2], error)))
        return FALSE;
    }
  return TRUE;
}

/* The products of addmm (2-d a, b), baddbmm (3-d, batch_sum FALSE) and addbmm (3-d, batch_sum
 * TRUE), bmm (no c), with the shape checks and messages of torch; @c (nullable) broadcasts to
 * the result's shape. */
static GnnTensor *
addmm_like (const char *op, const char *node_name, GnnTensor *c, GnnTensor *a, GnnTensor *b,
            double beta, double alpha, gboolean batch_sum, GError **error)
{
  GnnTensorPrivate *pa = gnn_tensor_priv (a), *pb = gnn_tensor_priv (b);
  guint nd = pa->ndim;
  gint64 shape[3];
  guint out_nd;
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *ins[3] = { a, b, c };
  GnnNode *node;

  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_ADDMM, c,
                       addmm_like (op, node_name, c[0], c[1], c[2], beta, alpha, batch_sum, error),
                       error, c, a, b);
  GNN_HALF_RETURN (f, addmm_like (op, node_name, f[0], f[1], f[2], beta, alpha, batch_sum, error), error, c, a, b);

  if (!check_matmul_dtypes (op, a, b, error) || (c && !check_matmul_dtypes (op, c, a, error)))
    return NULL;
  if (nd == 2)
    {
      if (pa->shape[1] != pb->shape[0])
        {
          shape_error (op, a, b, pa->shape[0], pa->shape[1], pb->shape[0], pb->shape[1], error);
          return NULL;
        }
      shape[0] = pa->shape[0];
      shape[1] = pb->shape[1];
      out_nd = 2;
    }
  else
    {
      if (batch_sum && (pa->shape[0] != pb->shape[0] || pa->shape[2] != pb->shape[1]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: Incompatible matrix sizes for bmm (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                       " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")",
                       op, pa->shape[1], pa->shape[2], pb->shape[1], pb->shape[2]);
          return NULL;
        }
      if (pa->shape[0] != pb->shape[0] || pa->shape[2] != pb->shape[1])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: Expected size for first two dimensions of batch2 tensor to be: [%" G_GINT64_FORMAT
                       ", %" G_GINT64_FORMAT "] but got: [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "].",
                       op, pa->shape[0], pa->shape[2], pb->shape[0], pb->shape[1]);
          return NULL;
        }
      if (batch_sum)
        {
          shape[0] = pa->shape[1];
          shape[1] = pb->shape[2];
          out_nd = 2;
        }
      else
        {
          shape[0] = pa->shape[0];
          shape[1] = pa->shape[1];
          shape[2] = pb->shape[2];
          out_nd = 3;
        }
    }
  if (c)
    {
      GnnTensorPrivate *pc = gnn_tensor_priv (c);
      gboolean fits = pc->ndim <= out_nd;

      for (guint i = 0; fits && i < pc->ndim; i++)
        {
          gint64 want = shape[out_nd - pc->ndim + i];
          fits = pc->shape[i] == want || pc->shape[i] == 1;
        }
      if (!fits)
        {
          g_autofree char *cs = gnn_shape_to_string (pc->ndim, pc->shape);
          g_autofree char *os = gnn_shape_to_string (out_nd, shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: the expanded size of the tensor must match the existing size: input of shape %s "
                       "cannot be broadcast to the product's shape %s", op, cs, os);
          return NULL;
        }
    }

  if (!(out = gnn_tensor_new_like (a, pa->dtype, out_nd, shape, error)))
    return NULL;
  if (c && beta != 0.0 && !gnn_elementwise_into (op, GNN_BACKEND_OP_COPY, out, &c, 1, NULL, error))
    return NULL;
  if (!batch_sum)
    {
      if (!gemm_scaled_into (out, a, b, alpha, c ? beta : 0.0, error))
        return NULL;
    }
  else if (pa->shape[0] == 0)
    {
      if (c == NULL || beta == 0.0)
        {
          if (!gnn_tensor_zero_ (out, error))
            return NULL;
        }
      else if (beta != 1.0 && !gnn_tensor_mul_scalar_ (out, beta, error))
        return NULL;
    }
  else
    {
      /* Σ_i a[i] · b[i] accumulated by the gemm into one (m, n) result */
      for (gint64 i = 0; i < pa->shape[0]; i++)
        {
          g_autoptr(GnnTensor) ai = gnn_tensor_select (a, 0, i, error);
          g_autoptr(GnnTensor) bi = ai ? gnn_tensor_select (b, 0, i, error) : NULL;

          if (bi == NULL || !gemm_scaled_into (out, ai, bi, alpha, i ? 1.0 : (c ? beta : 0.0), error))
            return NULL;
        }
    }

  if ((node = gnn_autograd_record (node_name, addmm_like_backward, ins, c ? 3 : 2, &out, 1)))
    {
      AddmmCtx *ctx = g_new (AddmmCtx, 1);

      ctx->beta = beta;
      ctx->alpha = alpha;
      ctx->batch_sum = batch_sum;
      gnn_node_set_ctx (node, ctx, g_free);
      gnn_node_save (node, a);
      gnn_node_save (node, b);
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_bmm:
 * @self: a batch of matrices (b, n, m)
 * @mat2: a batch of matrices (b, m, p)
 * @error: return location for a #GError
 *
 * The batched matrix product (`torch.bmm`): one gemm over the batch, without broadcasting.
 *
 * Returns: (transfer full): the products (b, n, p), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bmm (GnnTensor *self, GnnTensor *mat2, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (mat2), NULL);
  if (!check_rank ("bmm", "batch1", self, 3, error) || !check_rank ("bmm", "batch2", mat2, 3, error))
    return NULL;
  return addmm_like ("bmm", "BmmBackward0", NULL, self, mat2, 0.0, 1.0, FALSE, error);
}

/**
 * gnn_tensor_addmm:
 * @self: the term added, broadcastable to (n, p)
 * @mat1: a matrix (n, m)
 * @mat2: a matrix (m, p)
 * @beta: the factor of @self (0 ignores its values, NaN included)
 * @alpha: the factor of the product
 * @error: return location for a #GError
 *
 * @beta · @self + @alpha · @mat1 · @mat2 (`torch.addmm`) in one gemm.
 *
 * Returns: (transfer full): the result (n, p), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_addmm (GnnTensor *self, GnnTensor *mat1, GnnTensor *mat2, double beta, double alpha, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (mat1) && GNN_IS_TENSOR (mat2), NULL);
  if (!check_rank ("addmm", "mat1", mat1, 2, error) || !check_rank ("addmm", "mat2", mat2, 2, error))
    return NULL;
  return addmm_like ("addmm", "AddmmBackward0", self, mat1, mat2, beta, alpha, FALSE, error);
}

/**
 * gnn_tensor_baddbmm:
 * @self: the term added, broadcastable to (b, n, p)
 * @batch1: a batch of matrices (b, n, m)
 * @batch2: a batch of matrices (b, m, p)
 * @beta: the factor of @self (0 ignores its values, NaN included)
 * @alpha: the factor of the products
 * @error: return location for a #GError
 *
 * @beta · @self + @alpha · @batch1 · @batch2 for each matrix of the batch (`torch.baddbmm`), in
 * one batched gemm.
 *
 * Returns: (transfer full): the result (b, n, p), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_baddbmm (GnnTensor *self, GnnTensor *batch1, GnnTensor *batch2, double beta, double alpha,
                    GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (batch1) && GNN_IS_TENSOR (batch2), NULL);
  if (!check_rank ("baddbmm", "batch1", batch1, 3, error) || !check_rank ("baddbmm", "batch2", batch2, 3, error))
    return NULL;
  return addmm_like ("baddbmm", "BaddbmmBackward0", self, batch1, batch2, beta, alpha, FALSE, error);
}

/**
 * gnn_tensor_addbmm:
 * @self: the term added, broadcastable to (n, p)
 * @batch1: a batch of matrices (b, n, m)
 * @batch2: a batch of matrices (b, m, p)
 * @beta: the factor of @self (0 ignores its values, NaN included)
 * @alpha: the factor of the summed products
 * @error: return location for a #GError
 *
 * @beta · @self + @alpha · Σ_i @batch1[i] · @batch2[i] (`torch.addbmm`), the sum accumulated by
 * the gemm itself.
 *
 * Returns: (transfer full): the result (n, p), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_addbmm (GnnTensor *self, GnnTensor *batch1, GnnTensor *batch2, double beta, double alpha,
                   GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (batch1) && GNN_IS_TENSOR (batch2), NULL);
  if (!check_rank ("addbmm", "batch1", batch1, 3, error) || !check_rank ("addbmm", "batch2", batch2, 3, error))
    return NULL;
  return addmm_like ("addbmm", "AddbmmBackward0", self, batch1, batch2, beta, alpha, TRUE, error);
}

/* mv (a (n, m), b (m)) and dot (a (n), b (n)) as the product of a as rows (n, m) or (1, n) and b
 * as a column: ga = g · bᵀ, gb = aᵀ · g in those 2-d forms, reshaped to each input's shape */
static gboolean
vector_product_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a, *b;
  g_autoptr(GnnTensor) a2 = NULL, b2 = NULL, g2 = NULL;
  gint64 col[2] = { -1, 1 };

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (!(a2 = gnn_tensor_priv (a)->ndim == 1 ? gnn_tensor_unsqueeze (a, 0, error) : g_object_ref (a)) ||
      !(b2 = gnn_tensor_reshape (b, col, 2, error)) || !(g2 = gnn_tensor_reshape (go[0], col, 2, error)))
    return FALSE;
  for (guint j = 0; j < 2; j++)
    {
      g_autoptr(GnnTensor) t = NULL, prod = NULL;

      if (!NEEDS (j))
        continue;
      if (!(t = gnn_tensor_t (j == 0 ? b2 : a2, error)) ||
          !(prod = j == 0 ? gnn_tensor_matmul (g2, t, error) : gnn_tensor_matmul (t, g2, error)) ||
          !(gi[j] = gnn_tensor_reshape (prod, node->in_shape[j], node->in_ndim[j], error)))
        return FALSE;
    }
  return TRUE;
}

/* mv or dot through matmul without its history, recorded as one node @name */
static GnnTensor *
vector_product (const char *name, GnnTensor *a, GnnTensor *b, GError **error)
{
  GnnTensor *ins[2] = { a, b };
  g_autoptr(GnnTensor) out = NULL;
  gboolean prev = gnn_set_grad_enabled (FALSE);
  GnnNode *node;

  out = gnn_tensor_matmul (a, b, error);
  gnn_set_grad_enabled (prev);
  if (out && (node = gnn_autograd_record (name, vector_product_backward, ins, 2, &out, 1)))
    {
      gnn_node_save (node, a);
      gnn_node_save (node, b);
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_mv:
 * @self: a matrix (n, m)
 * @vec: a vector (m)
 * @error: return location for a #GError
 *
 * The matrix-vector product (`torch.mv`).
 *
 * Returns: (transfer full): the product (n), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mv (GnnTensor *self, GnnTensor *vec, GError **error)
{
  GnnTensorPrivate *pa, *pv;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (vec), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_MV, c, gnn_tensor_mv (c[0], c[1], error), error, self, vec);
  GNN_HALF_RETURN (f, gnn_tensor_mv (f[0], f[1], error), error, self, vec);

  pa = gnn_tensor_priv (self);
  pv = gnn_tensor_priv (vec);
  if (pa->ndim != 2 || pv->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "mv: vector + matrix @ vector expected, got a %uD matrix and a %uD vector", pa->ndim, pv->ndim);
      return NULL;
    }
  if (pa->shape[1] != pv->shape[0])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "mv: size mismatch, got mat (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "), vec (%" G_GINT64_FORMAT ")",
                   pa->shape[0], pa->shape[1], pv->shape[0]);
      return NULL;
    }
  if (!check_matmul_dtypes ("mv", self, vec, error))
    return NULL;
  return vector_product ("MvBackward0", self, vec, error);
}

/**
 * gnn_tensor_dot:
 * @self: a vector (n)
 * @other: a vector (n) of the same dtype
 * @error: return location for a #GError
 *
 * The inner product of two vectors (`torch.dot`).
 *
 * Returns: (transfer full): the 0-d product, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dot (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensorPrivate *pa, *pb;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_DOT, c, gnn_tensor_dot (c[0], c[1], error), error, self, other);
  GNN_HALF_RETURN (f, gnn_tensor_dot (f[0], f[1], error), error, self, other);

  pa = gnn_tensor_priv (self);
  pb = gnn_tensor_priv (other);
  if (pa->ndim != 1 || pb->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "dot: 1D tensors expected, but got %uD and %uD tensors",
                   pa->ndim, pb->ndim);
      return NULL;
    }
  if (pa->dtype != pb->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "dot: expected both vectors to have same dtype, but found %s and %s",
                   gnn_dtype_get_name (pa->dtype), gnn_dtype_get_name (pb->dtype));
      return NULL;
    }
  if (pa->shape[0] != pb->shape[0])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "dot: inconsistent tensor size, expected tensor [%" G_GINT64_FORMAT "] and src [%" G_GINT64_FORMAT
                   "] to have the same number of elements", pa->shape[0], pb->shape[0]);
      return NULL;
    }
  if (!check_matmul_dtypes ("dot", self, other, error))
    return NULL;
  return vector_product ("DotBackward0", self, other, error);
}

/**
 * gnn_tensor_outer:
 * @self: a vector (n)
 * @vec2: a vector (m)
 * @error: return location for a #GError
 *
 * The outer product (`torch.outer`): @self as a column times @vec2, with the dtype promotion of
 * a product.
 *
 * Returns: (transfer full): the product (n, m), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_outer (GnnTensor *self, GnnTensor *vec2, GError **error)
{
  g_autoptr(GnnTensor) col = NULL;
  guint na, nb;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (vec2), NULL);
  na = gnn_tensor_priv (self)->ndim;
  nb = gnn_tensor_priv (vec2)->ndim;
  if (na != 1 || nb != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "outer: Expected 1-D argument %s, but got %u-D",
                   na != 1 ? "self" : "vec2", na != 1 ? na : nb);
      return NULL;
    }
  if (!(col = gnn_tensor_unsqueeze (self, 1, error)))
    return NULL;
  return gnn_tensor_mul (col, vec2, error);
}
