/* gnn-ops-norms.c: vector and matrix norms, normalize, dist and cdist, written with other ops
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* What a norm over @dims keeps: the normalised dims and the shape of its output with keepdim */
typedef struct {
  double ord;
  int dims[GNN_MAX_DIMS];
  guint n_dims;                     /* 0: every dim */
  guint ndim;
  gboolean reduced[GNN_MAX_DIMS];
  gint64 keep_shape[GNN_MAX_DIMS];
} NormCtx;

static gboolean
norm_plan (const char *op, GnnTensor *x, double ord, const int *dims, guint n_dims, NormCtx *ctx,
           GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  gboolean *reduced = ctx->reduced;

  memset (ctx, 0, sizeof *ctx);
  ctx->ord = ord;
  ctx->ndim = p->ndim;
  for (guint i = 0; i < n_dims; i++)
    {
      guint d;

      if (!gnn_normalize_dim (dims[i], p->ndim, &d, error))
        {
          g_prefix_error (error, "%s: ", op);
          return FALSE;
        }
      if (p->ndim == 0)
        continue;
      if (reduced[d])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: dim %u appears multiple times in the list of dims", op, d);
          return FALSE;
        }
      reduced[d] = TRUE;
      ctx->dims[ctx->n_dims++] = (int) d;
    }
  for (guint i = 0; i < p->ndim; i++)
    {
      reduced[i] |= n_dims == 0;
      ctx->keep_shape[i] = reduced[i] ? 1 : p->shape[i];
    }
  return TRUE;
}

/* The norm's value without autograd, with keepdim */
static GnnTensor *
norm_value (GnnTensor *x, const NormCtx *ctx, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) a = NULL, t = NULL, s = NULL;
  double ord = ctx->ord;

  if (ord == 0)
    {
      g_autoptr(GnnTensor) nz = gnn_tensor_ne_scalar (x, 0.0, error);

      if (nz == NULL || !(s = gnn_tensor_sum (nz, ctx->dims, ctx->n_dims, TRUE, error)))
        return NULL;
      return gnn_tensor_to_dtype (s, gnn_tensor_get_dtype (x), error);
    }
  if (!(a = gnn_tensor_abs (x, error)))
    return NULL;
  if (isinf (ord))
    return (ord > 0 ? gnn_tensor_amax : gnn_tensor_amin) (a, ctx->dims, ctx->n_dims, TRUE, error);
  if (ord == 1)
    return gnn_tensor_sum (a, ctx->dims, ctx->n_dims, TRUE, error);
  if (ord == 2)
    {
      if (!(t = gnn_tensor_mul (a, a, error)) || !(s = gnn_tensor_sum (t, ctx->dims, ctx->n_dims, TRUE, error)))
        return NULL;
      return gnn_tensor_sqrt (s, error);
    }
  if (!(t = gnn_tensor_pow_scalar (a, ord, error)) || !(s = gnn_tensor_sum (t, ctx->dims, ctx->n_dims, TRUE, error)))
    return NULL;
  return gnn_tensor_pow_scalar (s, 1.0 / ord, error);
}

/* @t where @t is not zero, one where it is */
static GnnTensor *
nonzero_or_one (GnnTensor *t, GError **error)
{
  g_autoptr(GnnTensor) zero = gnn_tensor_eq_scalar (t, 0.0, error);
  g_autoptr(GnnTensor) one = NULL;

  if (zero == NULL ||
      !(one = gnn_tensor_new_scalar (1.0, gnn_tensor_get_dtype (t), gnn_tensor_get_device (t), error)))
    return NULL;
  return gnn_where (zero, one, t, error);
}

/* The gradient of the norm n of x over the dims, for a gradient g (both with keepdim):
 *   finite p ≠ 0: g · sign (x) · |x|^(p-1) / n^(p-1), zero where x is zero (p < 1) and where
 *     n is zero (so 0 at x = 0 for p = 2, torch's subgradient): |x| and n are replaced by
 *     one where they are zero before the powers, and sign (x) is zero there;
 *   ±inf: g · sign (x) shared evenly among the elements whose |x| is the extreme (torch's
 *     choice with ties);
 *   0: none (torch's norm of order 0 has no gradient).
 * Written with ops, so that it has its own gradient under create_graph. */
static gboolean
norm_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  NormCtx *ctx = node->ctx;
  GnnTensor *x;
  g_autoptr(GnnTensor) n = NULL, g = NULL, sgn = NULL, a = NULL, t = NULL, u = NULL;
  double p = ctx->ord;

  if (go[0] == NULL || !NEEDS (0) || p == 0)
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) ||
      !(n = gnn_linalg_vector_norm (x, p, ctx->dims, ctx->n_dims, TRUE, error)) ||
      !(g = gnn_tensor_reshape (go[0], ctx->keep_shape, ctx->ndim, error)) ||
      !(sgn = gnn_tensor_sign (x, error)) ||
      !(a = gnn_tensor_abs (x, error)))
    return FALSE;
  if (isinf (p))
    {
      g_autoptr(GnnTensor) hit = NULL, mask = NULL, count = NULL;

      if (!(hit = gnn_tensor_eq (a, n, error)) ||
          !(mask = gnn_tensor_to_dtype (hit, gnn_tensor_get_dtype (x), error)) ||
          !(count = gnn_tensor_sum (mask, ctx->dims, ctx->n_dims, TRUE, error)) ||
          !(t = gnn_tensor_div (mask, count, error)) ||
          !(u = gnn_tensor_mul (t, sgn, error)))
        return FALSE;
    }
  else if (p == 1)
    u = g_object_ref (sgn);
  else
    {
      g_autoptr(GnnTensor) a1 = NULL, n1 = NULL, ap = NULL, np = NULL, q = NULL;

      if (!(a1 = nonzero_or_one (a, error)) || !(n1 = nonzero_or_one (n, error)) ||
          !(ap = gnn_tensor_pow_scalar (a1, p - 1, error)) || !(np = gnn_tensor_pow_scalar (n1, p - 1, error)) ||
          !(q = gnn_tensor_div (ap, np, error)) || !(u = gnn_tensor_mul (q, sgn, error)))
        return FALSE;
    }
  gi[0] = gnn_tensor_mul (u, g, error);
  return gi[0] != NULL;
}

/* The norm of @self over @dims recorded as @grad_name (LinalgVectorNormBackward0 for
 * linalg.vector_norm, NormBackward1 for torch.norm, DistBackward0 / CdistBackward0 for the
 * distances, whose input is the difference). */
static GnnTensor *
norm_impl (const char *op, const char *grad_name, GnnTensor *self, double ord, const int *dims, guint n_dims,
           gboolean keepdim, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  NormCtx ctx;
  g_autoptr(GnnTensor) kept = NULL;
  GnnTensor *out;
  GnnNode *node;

  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Expected a floating point or complex tensor as input. Got %s", op,
                   gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (isnan (ord))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: the order of the norm is NaN", op);
      return NULL;
    }
  if (!norm_plan (op, self, ord, dims, n_dims, &ctx, error) ||
      !(kept = norm_value (self, &ctx, error)))
    return NULL;
  if (keepdim)
    out = g_steal_pointer (&kept);
  else
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      gint64 out_shape[GNN_MAX_DIMS];
      guint k = 0;

      for (guint i = 0; i < p->ndim; i++)
        if (!ctx.reduced[i])
          out_shape[k++] = p->shape[i];
      out = gnn_tensor_reshape (kept, out_shape, k, error);
      if (out == NULL)
        return NULL;
    }
  if ((node = gnn_autograd_record (grad_name, norm_backward, &self, 1, &out, 1)))
    {
      gnn_node_save (node, self);
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  return out;
}

/**
 * gnn_linalg_vector_norm:
 * @self: a floating-point tensor
 * @ord: the order: any number, `INFINITY` (the largest |x|), `-INFINITY` (the smallest), 0
 *   (the count of non-zero elements)
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * The vector norm (Σ |x|^@ord)^(1 / @ord) over @dims (`torch.linalg.vector_norm (self, ord,
 * dims, keepdim)`), of @self's dtype. Its gradient is PyTorch's, zero where the norm is zero
 * (the subgradient at x = 0) and, for the infinity norms, shared evenly among the elements
 * that tie for the extreme; order 0 has no gradient. Pass `dtype=` by converting @self first.
 *
 * Returns: (transfer full): the norm, or %NULL with @error set (%GNN_ERROR_DTYPE for an
 *   integer or bool @self, %GNN_ERROR_INDEX for a dim out of range)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_vector_norm (GnnTensor *self, double ord, const int *dims, guint n_dims, gboolean keepdim,
                        GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return norm_impl ("linalg.vector_norm", "LinalgVectorNormBackward0", self, ord, dims, n_dims, keepdim, error);
}

/**
 * gnn_tensor_norm:
 * @self: a floating-point tensor
 * @p: the order, as for [func@Gnn.linalg_vector_norm] (`'fro'` is 2)
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * `torch.norm (self, p, dims, keepdim)` with a number @p: the vector norm of
 * [func@Gnn.linalg_vector_norm] over @dims (PyTorch's `torch.norm` with a number is that
 * norm; its node is `NormBackward1`).
 *
 * Returns: (transfer full): the norm, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_norm (GnnTensor *self, double p, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return norm_impl ("norm", "NormBackward1", self, p, dims, n_dims, keepdim, error);
}

static gboolean
matrix_dims (const char *op, GnnTensor *self, int dim0, int dim1, guint *d0, guint *d1, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: The input tensor A must have at least 2 dimensions, got %u", op, p->ndim);
      return FALSE;
    }
  if (!gnn_normalize_dim (dim0, p->ndim, d0, error) || !gnn_normalize_dim (dim1, p->ndim, d1, error))
    {
      g_prefix_error (error, "%s: ", op);
      return FALSE;
    }
  if (*d0 == *d1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: dims must be different. Got (%d, %d)", op, dim0, dim1);
      return FALSE;
    }
  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Expected a floating point or complex tensor as input. Got %s", op,
                   gnn_dtype_get_name (p->dtype));
      return FALSE;
    }
  return TRUE;
}

/* The norms of order 2 (the largest singular value), -2 (the smallest) or, for @nuc, the
 * nuclear norm (their sum) of the matrices over (d0, d1): the singular values of the matrices
 * moved last (gnn_linalg_svdvals, differentiable), reduced, the two dimensions put back with
 * size one for @keepdim */
static GnnTensor *
singular_norm (GnnTensor *self, double ord, gboolean nuc, guint d0, guint d1, gboolean keepdim, GError **error)
{
  int src[2] = { (int) d0, (int) d1 }, dst[2] = { -2, -1 }, last = -1;
  g_autoptr(GnnTensor) moved = NULL, s = NULL, r = NULL, k1 = NULL;

  if (!(moved = gnn_tensor_movedim (self, src, 2, dst, 2, error)) || !(s = gnn_linalg_svdvals (moved, error)))
    return NULL;
  r = nuc ? gnn_tensor_sum (s, &last, 1, FALSE, error)
          : (ord > 0 ? gnn_tensor_amax : gnn_tensor_amin) (s, &last, 1, FALSE, error);
  if (r == NULL || !keepdim)
    return g_steal_pointer (&r);
  if (!(k1 = gnn_tensor_unsqueeze (r, (int) MIN (d0, d1), error)))
    return NULL;
  return gnn_tensor_unsqueeze (k1, (int) MAX (d0, d1), error);
}

/**
 * gnn_linalg_matrix_norm:
 * @self: a floating-point tensor of at least two dimensions, a batch of matrices
 * @ord: `INFINITY` (the largest sum of |x| along a row), `-INFINITY` (the smallest), 1
 *   (the largest sum along a column) or -1 (the smallest)
 * @dim0: the dimension of the rows
 * @dim1: the dimension of the columns
 * @keepdim: whether to keep @dim0 and @dim1 with size one
 * @error: return location for a #GError
 *
 * The matrix norm of order @ord of each matrix over (@dim0, @dim1)
 * (`torch.linalg.matrix_norm (self, ord, (dim0, dim1), keepdim)`): the sums of |x| along
 * one dimension, then their maximum or minimum along the other, with those ops' gradients.
 * The orders 2 and -2 are the largest and smallest singular values (gnn_linalg_svdvals(),
 * through LAPACK on the host, with its gradient).
 *
 * Returns: (transfer full): the norms, or %NULL with @error set (%GNN_ERROR_INVALID_ARGUMENT
 *   for an order other than ±1, ±2 and ±inf)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_matrix_norm (GnnTensor *self, double ord, int dim0, int dim1, gboolean keepdim, GError **error)
{
  guint d0, d1, sum_dim, ext_dim;
  g_autoptr(GnnTensor) a = NULL, s = NULL;
  int sd, ed;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!matrix_dims ("linalg.matrix_norm", self, dim0, dim1, &d0, &d1, error))
    return NULL;
  if (fabs (ord) == 2)
    return singular_norm (self, ord, FALSE, d0, d1, keepdim, error);
  if (!isinf (ord) && fabs (ord) != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "linalg.matrix_norm: Order %g not supported.", ord);
      return NULL;
    }
  /* inf: the sum along each row (over the columns), then the extreme over the rows */
  sum_dim = isinf (ord) ? d1 : d0;
  ext_dim = isinf (ord) ? d0 : d1;
  sd = (int) sum_dim;
  ed = (int) ext_dim - (!keepdim && sum_dim < ext_dim);
  if (!(a = gnn_tensor_abs (self, error)) || !(s = gnn_tensor_sum (a, &sd, 1, keepdim, error)))
    return NULL;
  return (ord > 0 ? gnn_tensor_amax : gnn_tensor_amin) (s, &ed, 1, keepdim, error);
}

/**
 * gnn_linalg_matrix_norm_str:
 * @self: a floating-point tensor of at least two dimensions, a batch of matrices
 * @ord: "fro" (the Frobenius norm) or "nuc" (the nuclear norm)
 * @dim0: the dimension of the rows
 * @dim1: the dimension of the columns
 * @keepdim: whether to keep @dim0 and @dim1 with size one
 * @error: return location for a #GError
 *
 * `torch.linalg.matrix_norm (self, ord, (dim0, dim1), keepdim)` with a string @ord: "fro" is
 * the vector 2-norm over the two dimensions (node `LinalgVectorNormBackward0`, as PyTorch's).
 * "nuc" is the sum of the singular values (gnn_linalg_svdvals(), through LAPACK on the host,
 * with its gradient).
 *
 * Returns: (transfer full): the norms, or %NULL with @error set (%GNN_ERROR_INVALID_ARGUMENT
 *   for a string other than "fro" and "nuc")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_matrix_norm_str (GnnTensor *self, const char *ord, int dim0, int dim1, gboolean keepdim,
                            GError **error)
{
  guint d0, d1;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (ord != NULL, NULL);
  if (!matrix_dims ("linalg.matrix_norm", self, dim0, dim1, &d0, &d1, error))
    return NULL;
  if (g_str_equal (ord, "nuc"))
    return singular_norm (self, 0, TRUE, d0, d1, keepdim, error);
  if (!g_str_equal (ord, "fro"))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "linalg.matrix_norm: Order %s not supported.", ord);
      return NULL;
    }
  return gnn_linalg_vector_norm (self, 2.0, (const int[]) { (int) d0, (int) d1 }, 2, keepdim, error);
}

/**
 * gnn_tensor_normalize:
 * @self: a floating-point tensor
 * @p: the order of the norm
 * @dim: the dimension to normalise along
 * @eps: the smallest norm divided by
 * @error: return location for a #GError
 *
 * @self divided by its @p-norm along @dim, at least @eps
 * (`torch.nn.functional.normalize (self, p, dim, eps)`), with the gradient of those ops.
 *
 * Returns: (transfer full): the normalised tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_normalize (GnnTensor *self, double p, int dim, double eps, GError **error)
{
  g_autoptr(GnnTensor) n = NULL, c = NULL, e = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!(n = norm_impl ("normalize", "LinalgVectorNormBackward0", self, p, &dim, 1, TRUE, error)) ||
      !(c = gnn_tensor_clamp_min (n, eps, error)) || !(e = gnn_tensor_expand_as (c, self, error)))
    return NULL;
  return gnn_tensor_div (self, e, error);
}

/**
 * gnn_tensor_dist:
 * @self: a floating-point tensor
 * @other: a tensor that broadcasts with @self
 * @p: the order of the norm
 * @error: return location for a #GError
 *
 * The @p-norm of @self - @other over every element (`torch.dist (self, other, p)`).
 *
 * Returns: (transfer full): a zero-dimensional distance, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dist (GnnTensor *self, GnnTensor *other, double p, GError **error)
{
  g_autoptr(GnnTensor) d = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  if (!(d = gnn_tensor_sub (self, other, 1.0, error)))
    return NULL;
  return norm_impl ("dist", "DistBackward0", d, p, NULL, 0, FALSE, error);
}

/**
 * gnn_tensor_cdist:
 * @x1: a floating-point tensor (B..., P, M)
 * @x2: a floating-point tensor (B..., R, M), its batch dimensions broadcasting with @x1's
 * @p: the order of the norm, at least 0
 * @error: return location for a #GError
 *
 * The @p-norm distance between each row of @x1 and each row of @x2
 * (`torch.cdist (x1, x2, p)`), (B..., P, R), computed from the differences (as PyTorch's
 * `compute_mode='donot_use_mm_for_euclid_dist'`), so (B, P, R, M) elements at a time. The
 * gradient at a zero distance is zero.
 *
 * Returns: (transfer full): the distances, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cdist (GnnTensor *x1, GnnTensor *x2, double p, GError **error)
{
  GnnTensorPrivate *p1, *p2;
  g_autoptr(GnnTensor) a = NULL, b = NULL, d = NULL;
  int last = -1;

  g_return_val_if_fail (GNN_IS_TENSOR (x1) && GNN_IS_TENSOR (x2), NULL);
  p1 = gnn_tensor_priv (x1);
  p2 = gnn_tensor_priv (x2);
  if (p1->ndim < 2 || p2->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "cdist only supports at least 2D tensors, X1 got: %uD, X2 got: %uD", p1->ndim, p2->ndim);
      return NULL;
    }
  if (p1->shape[p1->ndim - 1] != p2->shape[p2->ndim - 1])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "cdist: X1 and X2 must have the same number of columns. X1: %" G_GINT64_FORMAT
                   " X2: %" G_GINT64_FORMAT, p1->shape[p1->ndim - 1], p2->shape[p2->ndim - 1]);
      return NULL;
    }
  if (!(p >= 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cdist only supports non-negative p values, got %g", p);
      return NULL;
    }
  if (!gnn_check_floating ("cdist", x1, error) || !gnn_check_floating ("cdist", x2, error))
    return NULL;
  if (!(a = gnn_tensor_unsqueeze (x1, -2, error)) || !(b = gnn_tensor_unsqueeze (x2, -3, error)) ||
      !(d = gnn_tensor_sub (a, b, 1.0, error)))
    return NULL;
  return norm_impl ("cdist", "CdistBackward0", d, p, &last, 1, FALSE, error);
}
