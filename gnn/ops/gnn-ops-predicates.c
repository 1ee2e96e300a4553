/* gnn-ops-predicates.c: isnan, isinf, isposinf, isneginf, isfinite, isreal, nan_to_num,
 * isclose, allclose and equal, written with the comparisons
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* The predicates of a tensor that is not floating point: every element is a finite, real,
 * non-NaN number, so each predicate is the same for all of them (x == x is all true, x != x
 * all false) */
static GnnTensor *
integral_predicate (GnnTensor *self, gboolean value, GError **error)
{
  return value ? gnn_tensor_eq (self, self, error) : gnn_tensor_ne (self, self, error);
}

/**
 * gnn_tensor_isnan:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Where @self is NaN (`torch.isnan`): a bool tensor of @self's shape, all false for integer
 * and bool tensors.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isnan (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_ne (self, self, error);
}

/**
 * gnn_tensor_isinf:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Where @self is positive or negative infinity (`torch.isinf`), as a bool tensor.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isinf (GnnTensor *self, GError **error)
{
  g_autoptr(GnnTensor) a = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (self)))
    return integral_predicate (self, FALSE, error);
  if (!(a = gnn_tensor_abs (self, error)))
    return NULL;
  return gnn_tensor_eq_scalar (a, INFINITY, error);
}

/**
 * gnn_tensor_isposinf:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Where @self is positive infinity (`torch.isposinf`), as a bool tensor.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isposinf (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (self)))
    return integral_predicate (self, FALSE, error);
  return gnn_tensor_eq_scalar (self, INFINITY, error);
}

/**
 * gnn_tensor_isneginf:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Where @self is negative infinity (`torch.isneginf`), as a bool tensor.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isneginf (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (self)))
    return integral_predicate (self, FALSE, error);
  return gnn_tensor_eq_scalar (self, -INFINITY, error);
}

/**
 * gnn_tensor_isfinite:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Where @self is neither infinite nor NaN (`torch.isfinite`), as a bool tensor: x - x is
 * zero exactly for the finite x. All true for integer and bool tensors.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isfinite (GnnTensor *self, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) d = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (self)))
    return integral_predicate (self, TRUE, error);
  guard = gnn_no_grad_guard_new ();
  if (!(d = gnn_tensor_sub (self, self, 1.0, error)))
    return NULL;
  return gnn_tensor_eq_scalar (d, 0.0, error);
}

/**
 * gnn_tensor_isreal:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Where @self has no imaginary part (`torch.isreal`): gnn has no complex dtypes, so every
 * element, NaN and infinity included.
 *
 * Returns: (transfer full): an all-true bool tensor of @self's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isreal (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_new_ones (gnn_tensor_get_shape (self, NULL), gnn_tensor_get_ndim (self), GNN_DTYPE_BOOL,
                              gnn_tensor_get_device (self), error);
}

/* The largest finite value of a floating-point dtype */
static double
dtype_max (GnnDtype dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT64:
      return DBL_MAX;
    case GNN_DTYPE_FLOAT16:
      return 65504.0;
    case GNN_DTYPE_BFLOAT16:
      return 3.3895313892515355e38;
    default:
      return FLT_MAX;
    }
}

/* nan_to_num: the gradient passes where x is finite, zero where it was replaced */
static gboolean
nan_to_num_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *x;
  g_autoptr(GnnTensor) finite = NULL, replaced = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) || !(finite = gnn_tensor_isfinite (x, error)) ||
      !(replaced = gnn_tensor_eq_scalar (finite, 0.0, error)))
    return FALSE;
  gi[0] = gnn_where_scalar (replaced, 0.0, go[0], error);
  return gi[0] != NULL;
}

/* @x with @value where @mask is true (where (mask, value, x) with a number of @x's dtype) */
GnnTensor *
gnn_where_scalar (GnnTensor *mask, double value, GnnTensor *x, GError **error)
{
  g_autoptr(GnnTensor) v = gnn_tensor_new_scalar (value, gnn_tensor_get_dtype (x), gnn_tensor_get_device (x), error);

  return v ? gnn_where (mask, v, x, error) : NULL;
}

/**
 * gnn_tensor_nan_to_num:
 * @self: a tensor
 * @nan: the value for NaN
 * @posinf: the value for positive infinity; NaN for the largest finite value of @self's dtype
 * @neginf: the value for negative infinity; NaN for the lowest finite value of @self's dtype
 * @error: return location for a #GError
 *
 * @self with NaN, positive and negative infinity replaced (`torch.nan_to_num (self, nan,
 * posinf, neginf)`, where posinf and neginf `None` are NaN here). Integer and bool tensors
 * come back as copies. The gradient (`NanToNumBackward0`) passes where @self is finite and
 * is zero where an element was replaced.
 *
 * Returns: (transfer full): the new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nan_to_num (GnnTensor *self, double nan, double posinf, double neginf, GError **error)
{
  GnnDtype dtype;
  g_autoptr(GnnTensor) m1 = NULL, m2 = NULL, m3 = NULL, a = NULL, b = NULL;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  dtype = gnn_tensor_get_dtype (self);
  if (!gnn_dtype_is_floating (dtype))
    return gnn_tensor_clone (self, error);
  if (isnan (posinf))
    posinf = dtype_max (dtype);
  if (isnan (neginf))
    neginf = -dtype_max (dtype);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!(m1 = gnn_tensor_isnan (self, error)) || !(m2 = gnn_tensor_isposinf (self, error)) ||
        !(m3 = gnn_tensor_isneginf (self, error)) || !(a = gnn_where_scalar (m1, nan, self, error)) ||
        !(b = gnn_where_scalar (m2, posinf, a, error)) || !(out = gnn_where_scalar (m3, neginf, b, error)))
      return NULL;
  }
  if ((node = gnn_autograd_record ("NanToNumBackward0", nan_to_num_backward, &self, 1, &out, 1)))
    gnn_node_save (node, self);
  return out;
}

/* ---- closeness ------------------------------------------------------------------------- */

static gboolean
check_tolerance (const char *fn, const char *what, double value, GError **error)
{
  if (value >= 0.0)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s: %s must be greater than or equal to zero, but got %g", fn, what, value);
  return FALSE;
}

/**
 * gnn_tensor_isclose:
 * @self: a tensor
 * @other: a tensor of @self's dtype, broadcastable with it
 * @rtol: the relative tolerance, ≥ 0 (PyTorch's default 1e-05)
 * @atol: the absolute tolerance, ≥ 0 (PyTorch's default 1e-08)
 * @equal_nan: whether two NaNs count as close
 * @error: return location for a #GError
 *
 * Where @self and @other are close (`torch.isclose`): equal, or both finite with
 * |@self − @other| ≤ @atol + @rtol · |@other|, as a bool tensor of the broadcast shape. Equal
 * infinities are close; NaNs only with @equal_nan. Integer and bool tensors are compared
 * exactly when both tolerances are zero, else in float32, as PyTorch does. Not differentiable.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set (dtypes that differ, a negative
 *   tolerance, shapes that do not broadcast)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isclose (GnnTensor *self,
                    GnnTensor *other,
                    double     rtol,
                    double     atol,
                    gboolean   equal_nan,
                    GError   **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) close = NULL, a = NULL, b = NULL, diff = NULL, err = NULL, allowed = NULL;
  g_autoptr(GnnTensor) scaled = NULL, fin = NULL, within = NULL, ok = NULL;
  GnnDtype dtype;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (other), NULL);
  dtype = gnn_tensor_get_dtype (self);
  if (dtype != gnn_tensor_get_dtype (other))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "isclose: expected both tensors to have the same dtype, but got %s and %s",
                   gnn_dtype_get_name (dtype), gnn_dtype_get_name (gnn_tensor_get_dtype (other)));
      return NULL;
    }
  if (!check_tolerance ("isclose", "rtol", rtol, error) || !check_tolerance ("isclose", "atol", atol, error))
    return NULL;
  guard = gnn_no_grad_guard_new ();
  if (!(close = gnn_tensor_eq (self, other, error)))
    return NULL;
  if (equal_nan && gnn_dtype_is_floating (dtype))
    {
      g_autoptr(GnnTensor) na = gnn_tensor_isnan (self, error);
      g_autoptr(GnnTensor) nb = na ? gnn_tensor_isnan (other, error) : NULL;
      g_autoptr(GnnTensor) both = nb ? gnn_tensor_logical_and (na, nb, error) : NULL;
      g_autoptr(GnnTensor) either = both ? gnn_tensor_logical_or (close, both, error) : NULL;
      if (either == NULL)
        return NULL;
      g_set_object (&close, either);
    }
  if (rtol == 0.0 && atol == 0.0)
    return g_steal_pointer (&close);
  /* integers are compared in the default floating dtype, as PyTorch does */
  if (gnn_dtype_is_floating (dtype))
    {
      a = g_object_ref (self);
      b = g_object_ref (other);
    }
  else if (!(a = gnn_tensor_to_dtype (self, GNN_DTYPE_FLOAT32, error)) ||
           !(b = gnn_tensor_to_dtype (other, GNN_DTYPE_FLOAT32, error)))
    return NULL;
  if (!(diff = gnn_tensor_sub (a, b, 1.0, error)) ||
      !(err = gnn_tensor_abs (diff, error)) ||
      !(scaled = gnn_tensor_mul_scalar (b, rtol, error)) ||
      !(allowed = gnn_tensor_abs (scaled, error)) ||
      !gnn_tensor_add_scalar_ (allowed, atol, error) ||
      !(fin = gnn_tensor_isfinite (err, error)) ||
      !(within = gnn_tensor_le (err, allowed, error)) ||
      !(ok = gnn_tensor_logical_and (fin, within, error)))
    return NULL;
  return gnn_tensor_logical_or (close, ok, error);
}

/**
 * gnn_tensor_allclose:
 * @self: a tensor
 * @other: a tensor of @self's dtype, broadcastable with it
 * @rtol: the relative tolerance, ≥ 0 (PyTorch's default 1e-05)
 * @atol: the absolute tolerance, ≥ 0 (PyTorch's default 1e-08)
 * @equal_nan: whether two NaNs count as close
 * @error: return location for a #GError
 *
 * Whether every element of @self is close to @other (`torch.allclose`): all of
 * [method@Gnn.Tensor.isclose].
 *
 * Returns: the answer; %FALSE with @error set on the errors of [method@Gnn.Tensor.isclose]
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_allclose (GnnTensor *self,
                     GnnTensor *other,
                     double     rtol,
                     double     atol,
                     gboolean   equal_nan,
                     GError   **error)
{
  g_autoptr(GnnTensor) close = NULL, all = NULL;
  GError *local = NULL;
  double v;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (other), FALSE);
  if (!(close = gnn_tensor_isclose (self, other, rtol, atol, equal_nan, error)) ||
      !(all = gnn_tensor_all (close, NULL, 0, FALSE, error)))
    return FALSE;
  v = gnn_tensor_item (all, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return v != 0.0;
}

/**
 * gnn_tensor_equal:
 * @self: a tensor
 * @other: a tensor on @self's device
 * @error: return location for a #GError
 *
 * Whether @self and @other have the same shape and the same elements (`torch.equal`): no
 * broadcasting (other shapes give %FALSE); elements of different dtypes are compared after
 * type promotion, as PyTorch 1.13 does; NaN equals nothing.
 *
 * Returns: the answer; %FALSE with @error set when the devices differ
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_equal (GnnTensor *self,
                  GnnTensor *other,
                  GError   **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) eq = NULL, all = NULL;
  const gint64 *sa, *sb;
  guint na, nb;
  GError *local = NULL;
  double v;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (other), FALSE);
  if (g_strcmp0 (gnn_tensor_get_device (self), gnn_tensor_get_device (other)) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "equal: expected both tensors on the same device, got %s and %s",
                   gnn_tensor_get_device (self), gnn_tensor_get_device (other));
      return FALSE;
    }
  sa = gnn_tensor_get_shape (self, &na);
  sb = gnn_tensor_get_shape (other, &nb);
  if (na != nb || (na > 0 && memcmp (sa, sb, na * sizeof (gint64)) != 0))
    return FALSE;
  guard = gnn_no_grad_guard_new ();
  if (!(eq = gnn_tensor_eq (self, other, error)) ||
      !(all = gnn_tensor_all (eq, NULL, 0, FALSE, error)))
    return FALSE;
  v = gnn_tensor_item (all, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return v != 0.0;
}
