/* gnn-clip-grad.c: gradient clipping and flattening of parameters, as torch.nn.utils
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written with ops under no-grad, so that every backend runs them.
 */
#include "config.h"

#include <math.h>

#include "gnn-clip-grad.h"
#include "autograd/graph/gnn-grad-mode.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops.h"

/* The norm of order @p of @g's elements (torch.linalg.vector_norm), in double. */
static gboolean
grad_norm (GnnTensor *g, double p, double *out, GError **error)
{
  g_autoptr(GnnTensor) a = NULL, t = NULL, s = NULL;

  if (gnn_tensor_get_numel (g) == 0)
    {
      *out = 0.0;
      return TRUE;
    }
  if (p == 0.0)
    {
      if (!(t = gnn_tensor_ne_scalar (g, 0.0, error)) || !(s = gnn_tensor_sum_all (t, error)))
        return FALSE;
      *out = gnn_tensor_item (s, NULL);
      return TRUE;
    }
  if (!(a = gnn_tensor_abs (g, error)))
    return FALSE;
  if (isinf (p))
    {
      if (!(s = p > 0 ? gnn_tensor_max_all (a, error) : gnn_tensor_min_all (a, error)))
        return FALSE;
      *out = gnn_tensor_item (s, NULL);
      return TRUE;
    }
  if (!(t = p == 1.0 ? g_object_ref (a) : gnn_tensor_pow_scalar (a, p, error)) ||
      !(s = gnn_tensor_sum_all (t, error)))
    return FALSE;
  *out = p == 1.0 ? gnn_tensor_item (s, NULL) : pow (gnn_tensor_item (s, NULL), 1.0 / p);
  return TRUE;
}

/* The norm of order @p of @n values (the per-gradient norms), as torch.norm of their stack */
static double
vector_norm (const double *v, guint n, double p)
{
  double acc = 0.0;

  if (isinf (p))
    {
      acc = n ? v[0] : 0.0;
      for (guint i = 0; i < n; i++)
        if (isnan (v[i]) || (p > 0 ? v[i] > acc : v[i] < acc))
          acc = v[i];
      return acc;
    }
  for (guint i = 0; i < n; i++)
    acc += p == 0.0 ? (v[i] != 0.0) : pow (fabs (v[i]), p);
  return p == 0.0 || p == 1.0 ? acc : pow (acc, 1.0 / p);
}

/**
 * gnn_clip_grad_norm_:
 * @parameters: (array length=n_parameters): the parameters whose `grad` to clip (those
 *   without one are skipped)
 * @n_parameters: the number of @parameters
 * @max_norm: the largest norm the gradients may have together
 * @norm_type: the order of the norm: any positive number, 0 (the count of non-zero norms, as
 *   torch 1.13), or `INFINITY` (`float('inf')` in Python) for the largest
 *   absolute value
 * @error_if_nonfinite: whether a total norm that is NaN or infinite is an error instead of
 *   scaling the gradients by it
 * @error: return location for a #GError
 *
 * Scales the gradients of @parameters in place so that their total norm (the norm of the
 * vector of each gradient's norm) is at most @max_norm (`torch.nn.utils.clip_grad_norm_`):
 * each gradient is multiplied by min (1, @max_norm / (total + 1e-6)). Runs under no-grad.
 *
 * Returns: (transfer full): the total norm before clipping, a 0-d tensor of the first
 *   gradient's dtype and device (a float32 zero when no parameter has a gradient), or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_clip_grad_norm_ (GnnTensor **parameters,
                     guint       n_parameters,
                     double      max_norm,
                     double      norm_type,
                     gboolean    error_if_nonfinite,
                     GError    **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autofree double *norms = g_new0 (double, MAX (n_parameters, 1));
  g_autoptr(GPtrArray) grads = g_ptr_array_new ();
  g_autoptr(GnnTensor) total_t = NULL;
  double total, coef;

  g_return_val_if_fail (parameters != NULL || n_parameters == 0, NULL);
  for (guint i = 0; i < n_parameters; i++)
    {
      GnnTensor *g;

      g_return_val_if_fail (GNN_IS_TENSOR (parameters[i]), NULL);
      if ((g = gnn_tensor_get_grad (parameters[i])) == NULL)
        continue;
      if (!grad_norm (g, norm_type, &norms[grads->len], error))
        return NULL;
      g_ptr_array_add (grads, g);
    }
  if (grads->len == 0)
    {
      const double zero = 0.0;
      g_autoptr(GnnTensor) z = gnn_tensor_new_from_doubles (&zero, 1, NULL, 0, error);
      return z ? gnn_tensor_to_dtype (z, GNN_DTYPE_FLOAT32, error) : NULL;
    }
  total = vector_norm (norms, grads->len, norm_type);
  if (error_if_nonfinite && !isfinite (total))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "The total norm of order %g for gradients from `parameters` is non-finite, so it "
                   "cannot be clipped. To disable this error and scale the gradients by the "
                   "non-finite norm anyway, set `error_if_nonfinite=False`", norm_type);
      return NULL;
    }
  if (!(total_t = gnn_tensor_new_like (grads->pdata[0], gnn_tensor_get_dtype (grads->pdata[0]), 0, NULL, error)) ||
      !gnn_tensor_fill_ (total_t, total, error))
    return NULL;
  /* the coefficient in the gradients' dtype, as torch computes it */
  total = gnn_tensor_item (total_t, NULL);
  coef = MIN (max_norm / (total + 1e-6), 1.0);
  if (isnan (total))
    coef = NAN;
  for (guint i = 0; i < grads->len; i++)
    if (!gnn_tensor_mul_scalar_ (grads->pdata[i], coef, error))
      return NULL;
  return g_steal_pointer (&total_t);
}

/**
 * gnn_clip_grad_value_:
 * @parameters: (array length=n_parameters): the parameters whose `grad` to clip
 * @n_parameters: the number of @parameters
 * @clip_value: the bound: gradients are clamped to [−@clip_value, @clip_value]
 * @error: return location for a #GError
 *
 * Clamps every gradient of @parameters in place (`torch.nn.utils.clip_grad_value_`);
 * parameters without a gradient are skipped.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_clip_grad_value_ (GnnTensor **parameters,
                      guint       n_parameters,
                      double      clip_value,
                      GError    **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  g_return_val_if_fail (parameters != NULL || n_parameters == 0, FALSE);
  for (guint i = 0; i < n_parameters; i++)
    {
      GnnTensor *g;
      g_autoptr(GnnTensor) c = NULL;

      g_return_val_if_fail (GNN_IS_TENSOR (parameters[i]), FALSE);
      if ((g = gnn_tensor_get_grad (parameters[i])) == NULL)
        continue;
      if (!(c = gnn_tensor_clamp (g, -clip_value, clip_value, error)) || !gnn_tensor_copy_ (g, c, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_parameters_to_vector:
 * @parameters: (array length=n_parameters): the parameters, all on one device
 * @n_parameters: the number of @parameters
 * @error: return location for a #GError
 *
 * The parameters flattened and concatenated into one vector
 * (`torch.nn.utils.parameters_to_vector`), differentiable as the ops it is made of.
 *
 * Returns: (transfer full): a 1-d tensor of every parameter's elements in order, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_parameters_to_vector (GnnTensor **parameters,
                          guint       n_parameters,
                          GError    **error)
{
  g_autoptr(GPtrArray) flat = g_ptr_array_new_with_free_func (g_object_unref);
  const gint64 minus_one = -1;

  g_return_val_if_fail (parameters != NULL || n_parameters == 0, NULL);
  if (n_parameters == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "parameters_to_vector: expected at least one parameter, got none");
      return NULL;
    }
  for (guint i = 0; i < n_parameters; i++)
    {
      GnnTensor *v;

      g_return_val_if_fail (GNN_IS_TENSOR (parameters[i]), NULL);
      if (i > 0 && (gnn_tensor_priv (parameters[i])->storage->entry != gnn_tensor_priv (parameters[0])->storage->entry ||
          gnn_tensor_priv (parameters[i])->storage->device != gnn_tensor_priv (parameters[0])->storage->device))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                       "Found two parameters on different devices, this is currently not supported. "
                       "(parameter %u is not on the device of parameter 0)", i);
          return NULL;
        }
      if (!(v = gnn_tensor_reshape (parameters[i], &minus_one, 1, error)))
        return NULL;
      g_ptr_array_add (flat, v);
    }
  return gnn_cat ((GnnTensor **) flat->pdata, flat->len, 0, error);
}

/**
 * gnn_vector_to_parameters:
 * @vec: a 1-d tensor with as many elements as the parameters together
 * @parameters: (array length=n_parameters): the parameters to overwrite
 * @n_parameters: the number of @parameters
 * @error: return location for a #GError
 *
 * Copies consecutive slices of @vec into the parameters, in order
 * (`torch.nn.utils.vector_to_parameters`), under no-grad.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_vector_to_parameters (GnnTensor  *vec,
                          GnnTensor **parameters,
                          guint       n_parameters,
                          GError    **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  gint64 offset = 0, total = 0;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (vec), FALSE);
  g_return_val_if_fail (parameters != NULL || n_parameters == 0, FALSE);
  gnn_tensor_get_shape (vec, &ndim);
  for (guint i = 0; i < n_parameters; i++)
    total += gnn_tensor_get_numel (parameters[i]);
  if (ndim != 1 || gnn_tensor_get_numel (vec) != total)
    {
      g_autofree char *shape = gnn_shape_to_string (gnn_tensor_priv (vec)->ndim, gnn_tensor_priv (vec)->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "vector_to_parameters: expected a 1-d vector of %" G_GINT64_FORMAT
                   " elements (the parameters' total), got %s", total, shape);
      return FALSE;
    }
  for (guint i = 0; i < n_parameters; i++)
    {
      gint64 n = gnn_tensor_get_numel (parameters[i]);
      guint pnd;
      const gint64 *pshape = gnn_tensor_get_shape (parameters[i], &pnd);
      g_autoptr(GnnTensor) part = gnn_tensor_narrow (vec, 0, offset, n, error);
      g_autoptr(GnnTensor) shaped = part ? gnn_tensor_reshape (part, pshape, pnd, error) : NULL;

      if (shaped == NULL || !gnn_tensor_copy_ (parameters[i], shaped, error))
        return FALSE;
      offset += n;
    }
  return TRUE;
}
