/* gnn-ops-numeric.c: numerical compositions of torch 1.13: cov and corrcoef, inner, vander
 * and the trapezoid rule, each written with other ops as PyTorch writes it, so that its
 * gradient comes from theirs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "ops/gnn-ops-private.h"
#include "autograd/graph/gnn-grad-mode.h"
#include "core/gnn-error.h"

/* checks cov's weights: 1-d, one per observation, integral for @frequency, not negative */
static gboolean
check_weights (GnnTensor *w, const char *what, gboolean frequency, gint64 n_obs, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (w);
  g_autoptr(GnnTensor) negative = NULL, any = NULL;

  if (p->ndim > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "cov(): expected %s to have one or fewer dimensions but got %s with %u dimensions", what, what,
                   p->ndim);
      return FALSE;
    }
  if (frequency && gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "cov(): expected fweights to have integral dtype but got fweights with %s dtype",
                   gnn_dtype_get_name (p->dtype));
      return FALSE;
    }
  if (!frequency && !gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "cov(): expected aweights to have floating point dtype but got aweights with %s dtype",
                   gnn_dtype_get_name (p->dtype));
      return FALSE;
    }
  if (gnn_tensor_get_numel (w) != n_obs)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "cov(): expected %s to have the same numel as there are observations in the input but got %"
                   G_GINT64_FORMAT " != %" G_GINT64_FORMAT, what, gnn_tensor_get_numel (w), n_obs);
      return FALSE;
    }
  if (!(negative = gnn_tensor_lt_scalar (w, 0.0, error)) || !(any = gnn_tensor_any (negative, NULL, 0, FALSE, error)))
    return FALSE;
  if (gnn_tensor_item (any, NULL) != 0.0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "cov(): %s cannot be negative", what);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_tensor_cov:
 * @self: a vector of observations, or a matrix of variables (rows) by observations (columns)
 * @correction: the difference between the observations and the degrees of freedom (1: Bessel's
 *   unbiased estimate, 0: the maximum-likelihood one)
 * @fweights: (nullable): integral frequency weights, one per observation
 * @aweights: (nullable): floating-point observation weights, one per observation
 * @error: return location for a #GError
 *
 * The covariance matrix of @self's variables (`torch.cov`), weighted as NumPy's and PyTorch's:
 * a 0-d tensor for one variable. Where the degrees of freedom are 0 or fewer the result is
 * divided by 0 (inf or NaN), as in PyTorch (which also warns).
 *
 * Returns: (transfer full): the covariance, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cov (GnnTensor *self, gint64 correction, GnnTensor *fweights, GnnTensor *aweights, GError **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) x = NULL, w = NULL, avg = NULL, w_sum = NULL, xm = NULL, xmw = NULL, xt = NULL, c = NULL;
  g_autoptr(GnnTensor) norm = NULL, scaled = NULL;
  int obs_dim[1] = { 1 };
  gint64 n_obs;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (fweights == NULL || GNN_IS_TENSOR (fweights), NULL);
  g_return_val_if_fail (aweights == NULL || GNN_IS_TENSOR (aweights), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim > 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "cov(): expected input to have two or fewer dimensions but got an input with %u dimensions", p->ndim);
      return NULL;
    }
  if (p->ndim < 2)
    {
      gint64 row[2] = { 1, -1 };
      if (!(x = gnn_tensor_reshape (self, row, 2, error)))
        return NULL;
    }
  else
    x = g_object_ref (self);
  n_obs = gnn_tensor_priv (x)->shape[1];
  if ((fweights && !check_weights (fweights, "fweights", TRUE, n_obs, error)) ||
      (aweights && !check_weights (aweights, "aweights", FALSE, n_obs, error)))
    return NULL;
  if (fweights && aweights)
    w = gnn_tensor_mul (fweights, aweights, error);
  else if (fweights || aweights)
    w = g_object_ref (fweights ? fweights : aweights);
  if ((fweights || aweights) && w == NULL)
    return NULL;
  if (!gnn_dtype_is_floating (gnn_tensor_priv (x)->dtype))
    {
      GnnTensor *f = gnn_tensor_cast (x, GNN_DTYPE_FLOAT32, error);
      if (f == NULL)
        return NULL;
      g_object_unref (x);
      x = f;
    }
  if (w == NULL)
    {
      if (!(avg = gnn_tensor_mean (x, obs_dim, 1, TRUE, error)) || !(xm = gnn_tensor_sub (x, avg, 1.0, error)))
        return NULL;
      g_autoptr(GnnTensor) zero = NULL;

      xmw = g_object_ref (xm);
      if ((zero = gnn_tensor_new_zeros_like (x, gnn_tensor_priv (x)->dtype, 0, NULL, error)))
        norm = gnn_tensor_add_scalar (zero, (double) (n_obs - correction), error);
    }
  else
    {
      g_autoptr(GnnTensor) xw = NULL, xw_sum = NULL;

      if (!(w_sum = gnn_tensor_sum (w, NULL, 0, FALSE, error)) || !(xw = gnn_tensor_mul (x, w, error)) ||
          !(xw_sum = gnn_tensor_sum (xw, obs_dim, 1, TRUE, error)) || !(avg = gnn_tensor_div (xw_sum, w_sum, error)) ||
          !(xm = gnn_tensor_sub (x, avg, 1.0, error)) || !(xmw = gnn_tensor_mul (xm, w, error)))
        return NULL;
      if (correction == 0)
        norm = g_object_ref (w_sum);
      else if (aweights == NULL)
        norm = gnn_tensor_sub_scalar (w_sum, (double) correction, error);
      else
        {
          g_autoptr(GnnTensor) wa = NULL, wa_sum = NULL, q = NULL, k = NULL;

          if (!(wa = gnn_tensor_mul (w, aweights, error)) || !(wa_sum = gnn_tensor_sum (wa, NULL, 0, FALSE, error)) ||
              !(q = gnn_tensor_div (wa_sum, w_sum, error)) || !(k = gnn_tensor_mul_scalar (q, (double) correction, error)))
            return NULL;
          norm = gnn_tensor_sub (w_sum, k, 1.0, error);
        }
    }
  if (norm == NULL)
    return NULL;
  /* degrees of freedom at or below 0 divide by 0, as PyTorch clamps them */
  {
    g_autoptr(GnnTensor) clamped = gnn_tensor_clamp (norm, 0.0, INFINITY, error);

    if (clamped == NULL || !(xt = gnn_tensor_t (xmw, error)) || !(c = gnn_tensor_matmul (xm, xt, error)) ||
        !(scaled = gnn_tensor_div (c, clamped, error)))
      return NULL;
  }
  return gnn_tensor_squeeze (scaled, error);
}

/**
 * gnn_tensor_corrcoef:
 * @self: a vector of observations, or a matrix of variables (rows) by observations (columns)
 * @error: return location for a #GError
 *
 * The Pearson correlation coefficients of @self's variables (`torch.corrcoef`): the
 * covariance scaled by the standard deviations and clamped to [−1, 1], as PyTorch computes it.
 *
 * Returns: (transfer full): the coefficients, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_corrcoef (GnnTensor *self, GError **error)
{
  g_autoptr(GnnTensor) c = NULL, d = NULL, sd = NULL, col = NULL, row = NULL, a = NULL, b = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!(c = gnn_tensor_cov (self, 1, NULL, NULL, error)))
    return NULL;
  if (gnn_tensor_priv (c)->ndim == 0)
    return gnn_tensor_div (c, c, error);
  if (!(d = gnn_tensor_diag (c, 0, error)) || !(sd = gnn_tensor_sqrt (d, error)) ||
      !(col = gnn_tensor_unsqueeze (sd, 1, error)) || !(row = gnn_tensor_unsqueeze (sd, 0, error)) ||
      !(a = gnn_tensor_div (c, col, error)) || !(b = gnn_tensor_div (a, row, error)))
    return NULL;
  return gnn_tensor_clamp (b, -1.0, 1.0, error);
}

/**
 * gnn_tensor_inner:
 * @self: a tensor
 * @other: a tensor whose last dimension matches @self's
 * @error: return location for a #GError
 *
 * The inner product over the last dimension (`torch.inner`): the result has @self's leading
 * dimensions, then @other's; either 0-d multiplies instead.
 *
 * Returns: (transfer full): the inner product, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_inner (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensorPrivate *a, *b;
  int da[1], db[1];

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  a = gnn_tensor_priv (self);
  b = gnn_tensor_priv (other);
  if (a->ndim == 0 || b->ndim == 0)
    return gnn_tensor_mul (self, other, error);
  if (a->shape[a->ndim - 1] != b->shape[b->ndim - 1])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "inner() the last dimension must match on both input tensors but got shapes with last sizes %"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT, a->shape[a->ndim - 1], b->shape[b->ndim - 1]);
      return NULL;
    }
  da[0] = (int) a->ndim - 1;
  db[0] = (int) b->ndim - 1;
  return gnn_tensordot (self, other, da, 1, db, 1, error);
}

/**
 * gnn_tensor_vander:
 * @self: a vector
 * @n: the number of columns; -1 for as many as @self has entries
 * @increasing: whether the powers rise from left to right (PyTorch's default is %FALSE)
 * @error: return location for a #GError
 *
 * The Vandermonde matrix of @self (`torch.vander`): column j holds @self to the power
 * n − 1 − j, or j when @increasing. Integer and bool vectors give int64, as in PyTorch.
 *
 * Returns: (transfer full): the matrix, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_vander (GnnTensor *self, gint64 n, gboolean increasing, GError **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) x = NULL, col = NULL, ones = NULL, result = NULL;
  gint64 len;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "x must be a one-dimensional tensor; got %u dimensions", p->ndim);
      return NULL;
    }
  len = p->shape[0];
  if (n < -1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "N must be non-negative; got %" G_GINT64_FORMAT, n);
      return NULL;
    }
  if (n == -1)
    n = len;
  if (!(x = gnn_dtype_is_floating (p->dtype) ? g_object_ref (self) : gnn_tensor_cast (self, GNN_DTYPE_INT64, error)) ||
      !(col = gnn_tensor_unsqueeze (x, 1, error)))
    return NULL;
  {
    gint64 shape[2] = { len, MIN (n, 1) };
    if (!(ones = gnn_tensor_new_zeros_like (x, gnn_tensor_priv (x)->dtype, 2, shape, error)) ||
        !gnn_tensor_fill_ (ones, 1.0, error))
      return NULL;
  }
  if (n > 1)
    {
      gint64 shape[2] = { len, n - 1 };
      g_autoptr(GnnTensor) wide = gnn_tensor_expand (col, shape, 2, error);
      g_autoptr(GnnTensor) powers = wide ? gnn_tensor_cumprod (wide, 1, error) : NULL;
      GnnTensor *parts[2] = { ones, powers };

      if (powers == NULL || !(result = gnn_cat (parts, 2, 1, error)))
        return NULL;
    }
  else
    result = g_object_ref (ones);
  if (!increasing)
    {
      int flip[1] = { 1 };
      return gnn_tensor_flip (result, flip, 1, error);
    }
  return g_steal_pointer (&result);
}

/**
 * gnn_tensor_trapezoid:
 * @self: the values y of a function at the sample points
 * @x: (nullable): the sample points along @dim (1-d, or of @self's shape); %NULL for spacing @dx
 * @dx: the spacing of the sample points where @x is %NULL
 * @dim: the dimension along which to integrate
 * @error: return location for a #GError
 *
 * The integral of @self along @dim by the trapezoid rule (`torch.trapezoid`,
 * `torch.trapz`): Σ (x[i+1] − x[i]) (y[i] + y[i+1]) / 2, or with a constant spacing @dx
 * (Σ y − (y[0] + y[n−1]) / 2) · @dx, as PyTorch computes it; 0 along an empty dimension.
 *
 * Returns: (transfer full): the integral, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_trapezoid (GnnTensor *self, GnnTensor *x, double dx, int dim, GError **error)
{
  GnnTensorPrivate *p;
  gint64 len;
  guint d;
  int dims[1];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (x == NULL || GNN_IS_TENSOR (x), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_normalize_dim (dim, MAX (p->ndim, 1), &d, error))
    return NULL;
  dims[0] = (int) d;
  len = p->ndim == 0 ? 1 : p->shape[d];
  if (len == 0)
    {
      g_autoptr(GnnTensor) s = gnn_tensor_sum (self, dims, 1, FALSE, error);
      return s ? gnn_tensor_mul_scalar (s, 0.0, error) : NULL;
    }
  if (x == NULL)
    {
      g_autoptr(GnnTensor) s = gnn_tensor_sum (self, dims, 1, FALSE, error);
      g_autoptr(GnnTensor) first = s ? gnn_tensor_select (self, (int) d, 0, error) : NULL;
      g_autoptr(GnnTensor) last = first ? gnn_tensor_select (self, (int) d, len - 1, error) : NULL;
      g_autoptr(GnnTensor) ends = last ? gnn_tensor_add (first, last, 1.0, error) : NULL;
      g_autoptr(GnnTensor) half = ends ? gnn_tensor_mul_scalar (ends, 0.5, error) : NULL;
      g_autoptr(GnnTensor) inner = half ? gnn_tensor_sub (s, half, 1.0, error) : NULL;

      return inner ? gnn_tensor_mul_scalar (inner, dx, error) : NULL;
    }
  {
    GnnTensorPrivate *px = gnn_tensor_priv (x);
    g_autoptr(GnnTensor) spacing = NULL, hi = NULL, lo = NULL, sum = NULL, prod = NULL, total = NULL;

    if (px->ndim == 1)
      {
        if (px->shape[0] != len)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "trapezoid: There must be one `x` value for each sample point; got %" G_GINT64_FORMAT
                         " values for %" G_GINT64_FORMAT " points", px->shape[0], len);
            return NULL;
          }
        {
          g_autoptr(GnnTensor) dxs = gnn_tensor_diff (x, 1, 0, NULL, NULL, error);
          gint64 shape[GNN_MAX_DIMS];

          if (dxs == NULL)
            return NULL;
          /* along dim: (len − 1) spacings, 1 elsewhere */
          for (guint i = 0; i < p->ndim; i++)
            shape[i] = i == d ? len - 1 : 1;
          if (!(spacing = gnn_tensor_reshape (dxs, shape, p->ndim, error)))
            return NULL;
        }
      }
    else if (!(spacing = gnn_tensor_diff (x, 1, (int) d, NULL, NULL, error)))
      return NULL;
    if (!(hi = gnn_tensor_narrow (self, (int) d, 1, len - 1, error)) ||
        !(lo = gnn_tensor_narrow (self, (int) d, 0, len - 1, error)) ||
        !(sum = gnn_tensor_add (hi, lo, 1.0, error)) || !(prod = gnn_tensor_mul (spacing, sum, error)) ||
        !(total = gnn_tensor_sum (prod, dims, 1, FALSE, error)))
      return NULL;
    return gnn_tensor_div_scalar (total, 2.0, error);
  }
}
