/* gnn-loss.c: the losses of torch.nn, as functions and as modules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-loss.h"
#include "gnn-loss-private.h"
#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "ops/gnn-autocast-private.h"

/* Every loss is composed of differentiable ops, so autograd comes from the ops. The formulas
 * are PyTorch 1.13's (aten/src/ATen/native/Loss.cpp, LossNLL.cpp). */

/* ---- helpers --------------------------------------------------------------------------- */

static gboolean
check_reduction (GnnReduction reduction,
                 gboolean     allow_batchmean,
                 GError     **error)
{
  if (reduction == GNN_REDUCTION_NONE || reduction == GNN_REDUCTION_MEAN ||
      reduction == GNN_REDUCTION_SUM || (allow_batchmean && reduction == GNN_REDUCTION_BATCHMEAN))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%d is not a valid value for reduction", (int) reduction);
  return FALSE;
}

static gboolean
check_floating (GnnTensor  *t,
                const char *what,
                GError    **error)
{
  if (gnn_dtype_is_floating (gnn_tensor_get_dtype (t)))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected a floating-point %s, got %s",
               what, gnn_dtype_get_name (gnn_tensor_get_dtype (t)));
  return FALSE;
}

/* input and target: floating, the same dtype and the same shape */
static gboolean
check_pair (GnnTensor *input,
            GnnTensor *target,
            GError   **error)
{
  const gint64 *si, *st;
  guint ni, nt;

  if (!check_floating (input, "input", error))
    return FALSE;
  if (gnn_tensor_get_dtype (input) != gnn_tensor_get_dtype (target))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "input (%s) and target (%s) have different dtypes",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (input)),
                   gnn_dtype_get_name (gnn_tensor_get_dtype (target)));
      return FALSE;
    }
  si = gnn_tensor_get_shape (input, &ni);
  st = gnn_tensor_get_shape (target, &nt);
  if (ni != nt || (ni > 0 && memcmp (si, st, ni * sizeof (gint64)) != 0))
    {
      g_autofree char *is = gnn_shape_to_string (ni, si);
      g_autofree char *ts = gnn_shape_to_string (nt, st);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "target shape %s differs from input shape %s", ts, is);
      return FALSE;
    }
  return TRUE;
}

/* Reduces @loss (transfer full) to none, mean or sum. */
static GnnTensor *
reduce (GnnTensor    *loss,
        GnnReduction  reduction,
        GError      **error)
{
  g_autoptr(GnnTensor) owned = loss;

  if (loss == NULL)
    return NULL;
  switch (reduction)
    {
    case GNN_REDUCTION_MEAN:
      return gnn_tensor_mean_all (loss, error);
    case GNN_REDUCTION_SUM:
      return gnn_tensor_sum_all (loss, error);
    case GNN_REDUCTION_NONE:
    case GNN_REDUCTION_BATCHMEAN:
    default:
      return g_steal_pointer (&owned);
    }
}

/* Returns @result, prefixing @error with the loss's name when it is %NULL. */
static GnnTensor *
named (GnnTensor  *result,
       const char *name,
       GError    **error)
{
  if (result == NULL)
    g_prefix_error (error, "%s: ", name);
  return result;
}

/* ---- elementwise losses ---------------------------------------------------------------- */

static GnnTensor *
mse_loss (GnnTensor *input, GnnTensor *target, GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) d = NULL;

  if (!check_reduction (reduction, FALSE, error) || !check_pair (input, target, error))
    return NULL;
  if ((d = gnn_tensor_sub (input, target, 1.0, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_mul (d, d, error), reduction, error);
}

/**
 * gnn_tensor_mse_loss:
 * @input: the predictions
 * @target: the targets, of the shape and dtype of @input
 * @reduction: how the squared errors are reduced
 * @error: return location for a #GError
 *
 * The mean squared error (`torch.nn.functional.mse_loss`): (input − target)², reduced.
 * Unlike PyTorch, @target does not broadcast: a shape other than @input's is an error.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_mse_loss (GnnTensor    *input,
                     GnnTensor    *target,
                     GnnReduction  reduction,
                     GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_mse_loss (c[0], c[1], reduction, error),
                       error, input, target);
  return named (mse_loss (input, target, reduction, error), "MSELoss", error);
}

static GnnTensor *
l1_loss (GnnTensor *input, GnnTensor *target, GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) d = NULL;

  if (!check_reduction (reduction, FALSE, error) || !check_pair (input, target, error))
    return NULL;
  if ((d = gnn_tensor_sub (input, target, 1.0, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_abs (d, error), reduction, error);
}

/**
 * gnn_tensor_l1_loss:
 * @input: the predictions
 * @target: the targets, of the shape and dtype of @input
 * @reduction: how the absolute errors are reduced
 * @error: return location for a #GError
 *
 * The mean absolute error (`torch.nn.functional.l1_loss`): |input − target|, reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_l1_loss (GnnTensor    *input,
                    GnnTensor    *target,
                    GnnReduction  reduction,
                    GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_l1_loss (c[0], c[1], reduction, error),
                       error, input, target);
  return named (l1_loss (input, target, reduction, error), "L1Loss", error);
}

/* where (|d| < threshold, quad_scale × d², lin_scale × (|d| − threshold / 2)) */
static GnnTensor *
piecewise_loss (GnnTensor *input, GnnTensor *target, GnnReduction reduction,
                double threshold, double quad_scale, double lin_scale, GError **error)
{
  g_autoptr(GnnTensor) d = NULL, ad = NULL, d2 = NULL, quad = NULL, shifted = NULL;
  g_autoptr(GnnTensor) lin = NULL, below = NULL;

  if ((d = gnn_tensor_sub (input, target, 1.0, error)) == NULL ||
      (ad = gnn_tensor_abs (d, error)) == NULL ||
      (d2 = gnn_tensor_mul (d, d, error)) == NULL ||
      (quad = gnn_tensor_mul_scalar (d2, quad_scale, error)) == NULL ||
      (shifted = gnn_tensor_sub_scalar (ad, 0.5 * threshold, error)) == NULL ||
      (lin = gnn_tensor_mul_scalar (shifted, lin_scale, error)) == NULL ||
      (below = gnn_tensor_lt_scalar (ad, threshold, error)) == NULL)
    return NULL;
  return reduce (gnn_where (below, quad, lin, error), reduction, error);
}

static GnnTensor *
smooth_l1_loss (GnnTensor *input, GnnTensor *target, GnnReduction reduction, double beta,
                GError **error)
{
  if (!check_reduction (reduction, FALSE, error) || !check_pair (input, target, error))
    return NULL;
  if (beta < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "beta must be non-negative, got %g", beta);
      return NULL;
    }
  if (beta == 0)
    return l1_loss (input, target, reduction, error);
  return piecewise_loss (input, target, reduction, beta, 0.5 / beta, 1.0, error);
}

/**
 * gnn_tensor_smooth_l1_loss:
 * @input: the predictions
 * @target: the targets, of the shape and dtype of @input
 * @reduction: how the losses are reduced
 * @beta: where the loss changes from quadratic to linear; PyTorch's default is 1.0; 0 gives
 *   the L1 loss
 * @error: return location for a #GError
 *
 * The smooth L1 loss (`torch.nn.functional.smooth_l1_loss`): with z = |input − target|,
 * 0.5 z² / beta where z < beta, z − 0.5 beta elsewhere, reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_smooth_l1_loss (GnnTensor    *input,
                           GnnTensor    *target,
                           GnnReduction  reduction,
                           double        beta,
                           GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_smooth_l1_loss (c[0], c[1], reduction, beta, error),
                       error, input, target);
  return named (smooth_l1_loss (input, target, reduction, beta, error), "SmoothL1Loss", error);
}

static GnnTensor *
huber_loss (GnnTensor *input, GnnTensor *target, GnnReduction reduction, double delta,
            GError **error)
{
  if (!check_reduction (reduction, FALSE, error) || !check_pair (input, target, error))
    return NULL;
  if (!(delta > 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "delta must be positive, got %g", delta);
      return NULL;
    }
  return piecewise_loss (input, target, reduction, delta, 0.5, delta, error);
}

/**
 * gnn_tensor_huber_loss:
 * @input: the predictions
 * @target: the targets, of the shape and dtype of @input
 * @reduction: how the losses are reduced
 * @delta: where the loss changes from quadratic to linear, positive; PyTorch's default is 1.0
 * @error: return location for a #GError
 *
 * The Huber loss (`torch.nn.functional.huber_loss`): with z = |input − target|, 0.5 z² where
 * z < delta, delta (z − 0.5 delta) elsewhere, reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_huber_loss (GnnTensor    *input,
                       GnnTensor    *target,
                       GnnReduction  reduction,
                       double        delta,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_huber_loss (c[0], c[1], reduction, delta, error),
                       error, input, target);
  return named (huber_loss (input, target, reduction, delta, error), "HuberLoss", error);
}

/* Multiplies @loss (transfer full) by @weight when there is one, keeping @loss's shape. */
static GnnTensor *
apply_weight (GnnTensor *loss,
              GnnTensor *weight,
              GError   **error)
{
  g_autoptr(GnnTensor) owned = loss;
  g_autoptr(GnnTensor) weighted = NULL;
  const gint64 *sl, *sw;
  guint nl, nw;

  if (loss == NULL || weight == NULL)
    return g_steal_pointer (&owned);
  if ((weighted = gnn_tensor_mul (loss, weight, error)) == NULL)
    return NULL;
  sl = gnn_tensor_get_shape (loss, &nl);
  sw = gnn_tensor_get_shape (weighted, &nw);
  if (nl != nw || (nl > 0 && memcmp (sl, sw, nl * sizeof (gint64)) != 0))
    {
      g_autofree char *ls = gnn_shape_to_string (nl, sl);
      g_autofree char *ws = gnn_shape_to_string (gnn_tensor_get_ndim (weight),
                                                 gnn_tensor_get_shape (weight, NULL));

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "weight of shape %s does not broadcast to input shape %s", ws, ls);
      return NULL;
    }
  return g_steal_pointer (&weighted);
}

/* torch refuses an input outside [0, 1], NaN included, instead of a NaN loss */
static gboolean
check_probabilities (GnnTensor *input, GError **error)
{
  g_autoptr(GnnTensor) x = gnn_tensor_detach (input);
  g_autoptr(GnnTensor) clamped = NULL, same = NULL, all = NULL;
  g_autoptr(GError) local = NULL;
  double ok;

  if (gnn_tensor_get_numel (x) == 0)
    return TRUE;
  if ((clamped = gnn_tensor_clamp (x, 0.0, 1.0, error)) == NULL ||
      (same = gnn_tensor_eq (clamped, x, error)) == NULL ||   /* false where x is NaN too */
      (all = gnn_tensor_all (same, NULL, 0, FALSE, error)) == NULL)
    return FALSE;
  ok = gnn_tensor_item (all, &local);
  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (ok == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "all elements of input should be between 0 and 1");
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
binary_cross_entropy (GnnTensor *input, GnnTensor *target, GnnTensor *weight,
                      GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) lx = NULL, lxc = NULL, one_minus_x = NULL, l1x = NULL, l1xc = NULL;
  g_autoptr(GnnTensor) one_minus_t = NULL, a = NULL, b = NULL, s = NULL, loss = NULL;

  if (!check_reduction (reduction, FALSE, error) || !check_pair (input, target, error) ||
      !check_probabilities (input, error))
    return NULL;
  /* -(t log x + (1 − t) log (1 − x)), each log clamped at −100 */
  if ((lx = gnn_tensor_log (input, error)) == NULL ||
      (lxc = gnn_tensor_clamp_min (lx, -100, error)) == NULL ||
      (one_minus_x = gnn_tensor_rsub_scalar (input, 1.0, error)) == NULL ||
      (l1x = gnn_tensor_log (one_minus_x, error)) == NULL ||
      (l1xc = gnn_tensor_clamp_min (l1x, -100, error)) == NULL ||
      (one_minus_t = gnn_tensor_rsub_scalar (target, 1.0, error)) == NULL ||
      (a = gnn_tensor_mul (target, lxc, error)) == NULL ||
      (b = gnn_tensor_mul (one_minus_t, l1xc, error)) == NULL ||
      (s = gnn_tensor_add (a, b, 1.0, error)) == NULL ||
      (loss = gnn_tensor_neg (s, error)) == NULL)
    return NULL;
  return reduce (apply_weight (g_steal_pointer (&loss), weight, error), reduction, error);
}

/**
 * gnn_tensor_binary_cross_entropy:
 * @input: the probabilities, in [0, 1] (another value, NaN too, is an error as in torch:
 *   %GNN_ERROR_INVALID_ARGUMENT "all elements of input should be between 0 and 1")
 * @target: the targets, of the shape and dtype of @input
 * @weight: (nullable): a weight for each element, broadcast to @input's shape
 * @reduction: how the losses are reduced
 * @error: return location for a #GError
 *
 * The binary cross entropy (`torch.nn.functional.binary_cross_entropy`):
 * −weight (target log input + (1 − target) log (1 − input)), each logarithm clamped at −100
 * as PyTorch does, reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_binary_cross_entropy (GnnTensor    *input,
                                 GnnTensor    *target,
                                 GnnTensor    *weight,
                                 GnnReduction  reduction,
                                 GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_BINARY_CROSS_ENTROPY, c,
                       gnn_tensor_binary_cross_entropy (c[0], c[1], c[2], reduction, error),
                       error, input, target, weight);
  return named (binary_cross_entropy (input, target, weight, reduction, error), "BCELoss", error);
}

static GnnTensor *
bce_with_logits (GnnTensor *input, GnnTensor *target, GnnTensor *weight, GnnTensor *pos_weight,
                 GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) ax = NULL, nax = NULL, e = NULL, e1 = NULL, lg = NULL, nx = NULL;
  g_autoptr(GnnTensor) max_val = NULL, softplus = NULL, one_minus_t = NULL, lin = NULL;
  g_autoptr(GnnTensor) pw1 = NULL, pwt = NULL, log_weight = NULL, term = NULL, loss = NULL;

  if (!check_reduction (reduction, FALSE, error) || !check_pair (input, target, error))
    return NULL;
  /* (1 − t) x + lw (log (1 + exp (−|x|)) + max (−x, 0)), lw = 1 + (pos_weight − 1) t:
   * the second factor is log (1 + exp (−x)) without overflow */
  if ((ax = gnn_tensor_abs (input, error)) == NULL ||
      (nax = gnn_tensor_neg (ax, error)) == NULL ||
      (e = gnn_tensor_exp (nax, error)) == NULL ||
      (e1 = gnn_tensor_add_scalar (e, 1.0, error)) == NULL ||
      (lg = gnn_tensor_log (e1, error)) == NULL ||
      (nx = gnn_tensor_neg (input, error)) == NULL ||
      (max_val = gnn_tensor_clamp_min (nx, 0.0, error)) == NULL ||
      (softplus = gnn_tensor_add (lg, max_val, 1.0, error)) == NULL ||
      (one_minus_t = gnn_tensor_rsub_scalar (target, 1.0, error)) == NULL ||
      (lin = gnn_tensor_mul (one_minus_t, input, error)) == NULL)
    return NULL;
  if (pos_weight != NULL)
    {
      if ((pw1 = gnn_tensor_sub_scalar (pos_weight, 1.0, error)) == NULL ||
          (pwt = gnn_tensor_mul (pw1, target, error)) == NULL ||
          (log_weight = gnn_tensor_add_scalar (pwt, 1.0, error)) == NULL ||
          (term = gnn_tensor_mul (log_weight, softplus, error)) == NULL)
        return NULL;
    }
  else
    term = g_object_ref (softplus);
  if ((loss = gnn_tensor_add (lin, term, 1.0, error)) == NULL)
    return NULL;
  return reduce (apply_weight (g_steal_pointer (&loss), weight, error), reduction, error);
}

/**
 * gnn_tensor_binary_cross_entropy_with_logits:
 * @input: the logits
 * @target: the targets, of the shape and dtype of @input
 * @weight: (nullable): a weight for each element, broadcast to @input's shape
 * @pos_weight: (nullable): a weight of the positive examples, broadcast along the last
 *   dimension (one per class)
 * @reduction: how the losses are reduced
 * @error: return location for a #GError
 *
 * The binary cross entropy of sigmoid (input)
 * (`torch.nn.functional.binary_cross_entropy_with_logits`), computed in PyTorch's
 * numerically stable form: (1 − t) x + (1 + (pos_weight − 1) t) (log (1 + e^−|x|) +
 * max (−x, 0)), times @weight, reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_binary_cross_entropy_with_logits (GnnTensor    *input,
                                             GnnTensor    *target,
                                             GnnTensor    *weight,
                                             GnnTensor    *pos_weight,
                                             GnnReduction  reduction,
                                             GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (pos_weight == NULL || GNN_IS_TENSOR (pos_weight), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c,
                       gnn_tensor_binary_cross_entropy_with_logits (c[0], c[1], c[2], c[3], reduction, error),
                       error, input, target, weight, pos_weight);
  return named (bce_with_logits (input, target, weight, pos_weight, reduction, error),
                "BCEWithLogitsLoss", error);
}

/* ---- class-index losses ---------------------------------------------------------------- */

/* The targets of NLLLoss / CrossEntropyLoss, read once: the class of each (0 where ignored)
 * as an index for gather along the class dimension, its weight (0 where ignored) and the
 * sum of the weights of the targets not ignored. */
typedef struct {
  int        class_dim;
  gint64     n_classes;
  GnnTensor *index;   /* int64, target's shape with 1 inserted at class_dim */
  GnnTensor *weights; /* input's dtype, target's shape */
  GnnTensor *kept;    /* input's dtype, target's shape: 1 where not ignored */
  double     weight_sum;
  GnnTensor *weight_sum_t; /* on a device: the sum of the weights, 0-d, instead of weight_sum */
} ClassTargets;

static void
class_targets_clear (ClassTargets *ct)
{
  g_clear_object (&ct->index);
  g_clear_object (&ct->weights);
  g_clear_object (&ct->kept);
  g_clear_object (&ct->weight_sum_t);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ClassTargets, class_targets_clear)

static gboolean
check_class_weight (GnnTensor *input,
                    GnnTensor *weight,
                    gint64     n_classes,
                    GError   **error)
{
  const gint64 *sw;
  guint nw;

  if (weight == NULL)
    return TRUE;
  sw = gnn_tensor_get_shape (weight, &nw);
  if (nw != 1 || sw[0] != n_classes)
    {
      g_autofree char *ws = gnn_shape_to_string (nw, sw);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "weight of shape %s should have one element per class (%" G_GINT64_FORMAT ")",
                   ws, n_classes);
      return FALSE;
    }
  if (gnn_tensor_get_dtype (weight) != gnn_tensor_get_dtype (input))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "weight (%s) and input (%s) have different dtypes",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (weight)),
                   gnn_dtype_get_name (gnn_tensor_get_dtype (input)));
      return FALSE;
    }
  return TRUE;
}

/* *@t replaced by its copy on @like's device: targets are read on the host, the tensors made
 * from them used with the input */
static gboolean
to_device_of (GnnTensor **t,
              GnnTensor  *like,
              GError    **error)
{
  GnnTensor *moved = gnn_tensor_to_device_of (*t, like, error);

  if (moved == NULL)
    return FALSE;
  g_object_unref (*t);
  *t = moved;
  return TRUE;
}

/* The targets of a tensor on a device, read there with device ops so a training step copies
 * nothing to the host: targets equal to @ignore_index get weight 0 and index 0. Out-of-range
 * targets are not detected (the gather then reads 0), as CUDA kernels cannot report them
 * without a synchronisation; PyTorch asserts on the device instead. */
static gboolean
class_targets_init_on_device (ClassTargets *ct,
                              GnnTensor    *input,
                              GnnTensor    *target,
                              GnnTensor    *weight,
                              gint64        ignore_index,
                              guint         nt,
                              GError      **error)
{
  GnnDtype dtype = gnn_tensor_get_dtype (input);
  g_autoptr(GnnTensor) keep = NULL, keep64 = NULL, safe = NULL, flat = NULL, picked = NULL,
    picked_shaped = NULL;
  guint n_st;
  const gint64 *st = gnn_tensor_get_shape (target, &n_st);

  if ((keep = gnn_tensor_ne_scalar (target, (double) ignore_index, error)) == NULL ||
      (keep64 = gnn_tensor_to_dtype (keep, GNN_DTYPE_INT64, error)) == NULL ||
      (safe = gnn_tensor_mul (target, keep64, error)) == NULL ||
      (ct->index = gnn_tensor_unsqueeze (safe, ct->class_dim, error)) == NULL ||
      (ct->kept = gnn_tensor_to_dtype (keep, dtype, error)) == NULL)
    goto fail;
  if (weight == NULL)
    ct->weights = g_object_ref (ct->kept);
  else if ((flat = gnn_tensor_reshape (safe, (const gint64[]) { -1 }, 1, error)) == NULL ||
           (picked = gnn_tensor_index_select (weight, 0, flat, error)) == NULL ||
           (picked_shaped = gnn_tensor_reshape (picked, st, nt, error)) == NULL ||
           (ct->weights = gnn_tensor_mul (picked_shaped, ct->kept, error)) == NULL)
    goto fail;
  if ((ct->weight_sum_t = gnn_tensor_sum_all (ct->weights, error)) == NULL)
    goto fail;
  return TRUE;

fail:
  class_targets_clear (ct);
  return FALSE;
}

static gboolean
class_targets_init (ClassTargets *ct,
                    GnnTensor    *input,
                    GnnTensor    *target,
                    GnnTensor    *weight,
                    gint64        ignore_index,
                    GError      **error)
{
  const gint64 *si, *st;
  guint ni, nt, k;
  gint64 ishape[GNN_MAX_DIMS];
  g_autofree gint64 *cls = NULL;
  g_autofree double *wd = NULL, *w = NULL, *kept = NULL;
  gsize n = 0;
  gboolean match;
  GnnDtype dtype = gnn_tensor_get_dtype (input);
  g_autoptr(GnnTensor) w64 = NULL, k64 = NULL;

  memset (ct, 0, sizeof *ct);
  if (!check_floating (input, "input", error))
    return FALSE;
  if (gnn_tensor_get_dtype (target) != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected int64 class indices as target, got %s",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (target)));
      return FALSE;
    }
  si = gnn_tensor_get_shape (input, &ni);
  st = gnn_tensor_get_shape (target, &nt);
  /* input (C) with target (), or input (N, C, d1...) with target (N, d1...) */
  match = ni >= 1 && nt + 1 == ni;
  if (match && ni >= 2)
    {
      match = st[0] == si[0];
      for (k = 2; match && k < ni; k++)
        match = st[k - 1] == si[k];
    }
  if (!match)
    {
      g_autofree char *is = gnn_shape_to_string (ni, si);
      g_autofree char *ts = gnn_shape_to_string (nt, st);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "expected target shape (N, d1, ...) for input shape (N, C, d1, ...), "
                   "got target shape %s for input shape %s", ts, is);
      return FALSE;
    }
  ct->class_dim = ni == 1 ? 0 : 1;
  ct->n_classes = si[ct->class_dim];
  if (!check_class_weight (input, weight, ct->n_classes, error))
    return FALSE;
  if (!gnn_tensor_priv (target)->storage->entry->funcs->is_host)
    return class_targets_init_on_device (ct, input, target, weight, ignore_index, nt, error);
  if (weight != NULL && (wd = gnn_tensor_to_doubles (weight, NULL, error)) == NULL)
    return FALSE;
  if ((cls = gnn_tensor_to_int64s (target, &n, error)) == NULL && n > 0)
    return FALSE;
  w = g_new0 (double, MAX (n, 1));
  kept = g_new0 (double, MAX (n, 1));
  ct->weight_sum = 0;
  for (gsize i = 0; i < n; i++)
    {
      if (cls[i] == ignore_index)
        {
          cls[i] = 0;
          continue;
        }
      if (cls[i] < 0 || cls[i] >= ct->n_classes)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "target %" G_GINT64_FORMAT " is out of bounds for %" G_GINT64_FORMAT
                       " classes", cls[i], ct->n_classes);
          return FALSE;
        }
      w[i] = wd != NULL ? wd[cls[i]] : 1.0;
      kept[i] = 1.0;
      ct->weight_sum += w[i];
    }
  for (k = 0; k < nt; k++)
    ishape[k + (k >= (guint) ct->class_dim ? 1 : 0)] = st[k];
  ishape[ct->class_dim] = 1;
  if ((ct->index = gnn_tensor_new_from_int64s (cls, n, ishape, nt + 1, error)) == NULL ||
      (w64 = gnn_tensor_new_from_doubles (w, n, st, nt, error)) == NULL ||
      (k64 = gnn_tensor_new_from_doubles (kept, n, st, nt, error)) == NULL ||
      (ct->weights = gnn_tensor_to_dtype (w64, dtype, error)) == NULL ||
      (ct->kept = gnn_tensor_to_dtype (k64, dtype, error)) == NULL ||
      !to_device_of (&ct->index, input, error) ||
      !to_device_of (&ct->weights, input, error) ||
      !to_device_of (&ct->kept, input, error))
    {
      class_targets_clear (ct);
      return FALSE;
    }
  return TRUE;
}

/* sum (@loss) / @weight_sum; when every target is ignored, NaN as in PyTorch, but with a
 * zero gradient (dividing by zero would spread NaN into the gradient) */
static GnnTensor *
weighted_mean (GnnTensor *loss,
               double     weight_sum,
               GError   **error)
{
  g_autoptr(GnnTensor) total = gnn_tensor_sum_all (loss, error);

  if (total == NULL)
    return NULL;
  if (weight_sum == 0)
    return gnn_tensor_add_scalar (total, NAN, error);
  return gnn_tensor_div_scalar (total, weight_sum, error);
}

/* the sum of @loss divided by a 0-d tensor of weights (NaN when it is 0, as 0 / 0) */
static GnnTensor *
weighted_mean_t (GnnTensor *loss,
                 GnnTensor *weight_sum,
                 GError   **error)
{
  g_autoptr(GnnTensor) total = gnn_tensor_sum_all (loss, error);

  return total ? gnn_tensor_div (total, weight_sum, error) : NULL;
}

/* the NLL loss of log-probabilities @logp for read targets @ct */
static GnnTensor *
nll_from_targets (GnnTensor    *logp,
                  ClassTargets *ct,
                  GnnReduction  reduction,
                  GError      **error)
{
  g_autoptr(GnnTensor) picked = NULL, picked1 = NULL, weighted = NULL, loss = NULL;

  if ((picked1 = gnn_tensor_gather (logp, ct->class_dim, ct->index, error)) == NULL ||
      (picked = gnn_tensor_squeeze_dim (picked1, ct->class_dim, error)) == NULL ||
      (weighted = gnn_tensor_mul (picked, ct->weights, error)) == NULL ||
      (loss = gnn_tensor_neg (weighted, error)) == NULL)
    return NULL;
  switch (reduction)
    {
    case GNN_REDUCTION_MEAN:
      /* divided by the weights of the targets used */
      return ct->weight_sum_t ? weighted_mean_t (loss, ct->weight_sum_t, error)
                              : weighted_mean (loss, ct->weight_sum, error);
    case GNN_REDUCTION_SUM:
      return gnn_tensor_sum_all (loss, error);
    default:
      return g_steal_pointer (&loss);
    }
}

static GnnTensor *
nll_loss (GnnTensor *input, GnnTensor *target, GnnTensor *weight, gint64 ignore_index,
          GnnReduction reduction, GError **error)
{
  g_auto(ClassTargets) ct = { 0, };

  if (!check_reduction (reduction, FALSE, error) ||
      !class_targets_init (&ct, input, target, weight, ignore_index, error))
    return NULL;
  return nll_from_targets (input, &ct, reduction, error);
}

/**
 * gnn_tensor_nll_loss:
 * @input: log-probabilities, of shape (C), (N, C) or (N, C, d1, ...)
 * @target: int64 class indices in [0, C) or @ignore_index, of shape (), (N) or (N, d1, ...)
 * @weight: (nullable): a weight for each class, of shape (C) and @input's dtype
 * @ignore_index: a target value that contributes neither loss nor weight; PyTorch's default
 *   is -100
 * @reduction: how the losses are reduced; the mean divides by the sum of the weights of the
 *   targets not ignored
 * @error: return location for a #GError
 *
 * The negative log-likelihood loss (`torch.nn.functional.nll_loss`):
 * −weight[target] × input[target] for each target, reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_nll_loss (GnnTensor    *input,
                     GnnTensor    *target,
                     GnnTensor    *weight,
                     gint64        ignore_index,
                     GnnReduction  reduction,
                     GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_nll_loss (c[0], c[1], c[2], ignore_index, reduction, error),
                       error, input, target, weight);
  return named (nll_loss (input, target, weight, ignore_index, reduction, error), "NLLLoss", error);
}

/* @weight viewed as (1, C, 1, ...) to broadcast along the class dimension of @input */
static GnnTensor *
class_weight_view (GnnTensor *weight,
                   guint      ndim,
                   int        class_dim,
                   GError   **error)
{
  gint64 shape[GNN_MAX_DIMS];

  for (guint k = 0; k < ndim; k++)
    shape[k] = 1;
  shape[class_dim] = gnn_tensor_get_size (weight, 0, NULL);
  return gnn_tensor_reshape (weight, shape, ndim, error);
}

static GnnTensor *
cross_entropy_indices (GnnTensor *input, GnnTensor *target, GnnTensor *weight,
                       gint64 ignore_index, GnnReduction reduction, double label_smoothing,
                       GError **error)
{
  g_auto(ClassTargets) ct = { 0, };
  g_autoptr(GnnTensor) logp = NULL, nll = NULL, wv = NULL, wlogp = NULL, s = NULL;
  g_autoptr(GnnTensor) smooth = NULL, kept = NULL, red = NULL, scaled = NULL;

  if (!class_targets_init (&ct, input, target, weight, ignore_index, error) ||
      (logp = gnn_tensor_log_softmax (input, ct.class_dim, error)) == NULL ||
      (nll = nll_from_targets (logp, &ct, reduction, error)) == NULL)
    return NULL;
  if (label_smoothing <= 0)
    return g_steal_pointer (&nll);

  /* (1 − ε) nll + ε / C × smooth, smooth = −Σ_c weight_c logp_c, zero where ignored */
  if (weight != NULL)
    {
      if ((wv = class_weight_view (weight, gnn_tensor_get_ndim (input), ct.class_dim, error)) == NULL ||
          (wlogp = gnn_tensor_mul (logp, wv, error)) == NULL)
        return NULL;
    }
  else
    wlogp = g_object_ref (logp);
  if ((s = gnn_tensor_sum (wlogp, &ct.class_dim, 1, FALSE, error)) == NULL ||
      (smooth = gnn_tensor_neg (s, error)) == NULL ||
      (kept = gnn_tensor_mul (smooth, ct.kept, error)) == NULL)
    return NULL;
  switch (reduction)
    {
    case GNN_REDUCTION_MEAN:
      red = ct.weight_sum_t ? weighted_mean_t (kept, ct.weight_sum_t, error)
                            : weighted_mean (kept, ct.weight_sum, error);
      break;
    case GNN_REDUCTION_SUM:
      red = gnn_tensor_sum_all (kept, error);
      break;
    default:
      red = g_object_ref (kept);
    }
  if (red == NULL || (scaled = gnn_tensor_mul_scalar (nll, 1 - label_smoothing, error)) == NULL)
    return NULL;
  return gnn_tensor_add (scaled, red, label_smoothing / (double) ct.n_classes, error);
}

static GnnTensor *
cross_entropy_probabilities (GnnTensor *input, GnnTensor *target, GnnTensor *weight,
                             gint64 ignore_index, GnnReduction reduction,
                             double label_smoothing, GError **error)
{
  guint ndim = gnn_tensor_get_ndim (input);
  int class_dim = ndim == 1 ? 0 : 1;
  gint64 n_classes;
  g_autoptr(GnnTensor) t = NULL, logp = NULL, prod = NULL, wv = NULL, wprod = NULL;
  g_autoptr(GnnTensor) s = NULL;

  if (!check_pair (input, target, error))
    return NULL;
  if (ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "expected an input with a class dimension, got shape []");
      return NULL;
    }
  if (ignore_index >= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ignore_index is not supported for floating point target");
      return NULL;
    }
  n_classes = gnn_tensor_get_size (input, class_dim, NULL);
  if (!check_class_weight (input, weight, n_classes, error))
    return NULL;
  if (label_smoothing > 0)
    {
      g_autoptr(GnnTensor) st = gnn_tensor_mul_scalar (target, 1 - label_smoothing, error);

      if (st == NULL ||
          (t = gnn_tensor_add_scalar (st, label_smoothing / (double) n_classes, error)) == NULL)
        return NULL;
    }
  else
    t = g_object_ref (target);
  if ((logp = gnn_tensor_log_softmax (input, class_dim, error)) == NULL ||
      (prod = gnn_tensor_mul (logp, t, error)) == NULL)
    return NULL;
  if (weight != NULL)
    {
      if ((wv = class_weight_view (weight, ndim, class_dim, error)) == NULL ||
          (wprod = gnn_tensor_mul (prod, wv, error)) == NULL)
        return NULL;
    }
  else
    wprod = g_object_ref (prod);
  switch (reduction)
    {
    case GNN_REDUCTION_MEAN:
      {
        /* divided by the number of samples, input.numel () / C */
        if ((s = gnn_tensor_sum_all (wprod, error)) == NULL)
          return NULL;
        return gnn_tensor_div_scalar (s, -(double) (gnn_tensor_get_numel (input) / n_classes),
                                      error);
      }
    case GNN_REDUCTION_SUM:
      if ((s = gnn_tensor_sum_all (wprod, error)) == NULL)
        return NULL;
      return gnn_tensor_neg (s, error);
    default:
      if ((s = gnn_tensor_sum (wprod, &class_dim, 1, FALSE, error)) == NULL)
        return NULL;
      return gnn_tensor_neg (s, error);
    }
}

static GnnTensor *
cross_entropy (GnnTensor *input, GnnTensor *target, GnnTensor *weight, gint64 ignore_index,
               GnnReduction reduction, double label_smoothing, GError **error)
{
  if (!check_reduction (reduction, FALSE, error))
    return NULL;
  if (!(label_smoothing >= 0 && label_smoothing <= 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "label_smoothing must be between 0.0 and 1.0, got %g", label_smoothing);
      return NULL;
    }
  if (gnn_dtype_is_floating (gnn_tensor_get_dtype (target)))
    return cross_entropy_probabilities (input, target, weight, ignore_index, reduction,
                                        label_smoothing, error);
  return cross_entropy_indices (input, target, weight, ignore_index, reduction,
                                label_smoothing, error);
}

/**
 * gnn_tensor_cross_entropy:
 * @input: unnormalised logits, of shape (C), (N, C) or (N, C, d1, ...)
 * @target: int64 class indices of shape (), (N) or (N, d1, ...), or class probabilities of
 *   @input's shape and dtype
 * @weight: (nullable): a weight for each class, of shape (C) and @input's dtype
 * @ignore_index: a class-index target that contributes neither loss nor weight; PyTorch's
 *   default is -100; must be negative with probability targets
 * @reduction: how the losses are reduced; with class indices the mean divides by the sum of
 *   the weights of the targets not ignored, with probabilities by the number of samples
 * @label_smoothing: in [0, 1]: the share of the target spread uniformly over the classes;
 *   PyTorch's default is 0
 * @error: return location for a #GError
 *
 * The cross entropy between softmax (@input) along the class dimension and @target
 * (`torch.nn.functional.cross_entropy`). An int64 @target holds class indices; a
 * floating-point one holds class probabilities.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_cross_entropy (GnnTensor    *input,
                          GnnTensor    *target,
                          GnnTensor    *weight,
                          gint64        ignore_index,
                          GnnReduction  reduction,
                          double        label_smoothing,
                          GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c,
                       gnn_tensor_cross_entropy (c[0], c[1], c[2], ignore_index, reduction, label_smoothing, error),
                       error, input, target, weight);
  return named (cross_entropy (input, target, weight, ignore_index, reduction, label_smoothing,
                               error), "CrossEntropyLoss", error);
}

/* ---- KL divergence --------------------------------------------------------------------- */

static GnnTensor *
kl_div (GnnTensor *input, GnnTensor *target, GnnReduction reduction, gboolean log_target,
        GError **error)
{
  g_autoptr(GnnTensor) loss = NULL, total = NULL;

  if (!check_reduction (reduction, TRUE, error) || !check_pair (input, target, error))
    return NULL;
  if (log_target)
    {
      /* exp (t) (t − x) */
      g_autoptr(GnnTensor) et = NULL, d = NULL;

      if ((et = gnn_tensor_exp (target, error)) == NULL ||
          (d = gnn_tensor_sub (target, input, 1.0, error)) == NULL ||
          (loss = gnn_tensor_mul (et, d, error)) == NULL)
        return NULL;
    }
  else
    {
      /* xlogy (t, t) − t x: t log t, 0 where t = 0 (NaN below 0, as PyTorch) */
      g_autoptr(GnnTensor) zero = NULL, one = NULL, safe = NULL, lt = NULL, xlogy = NULL;
      g_autoptr(GnnTensor) tx = NULL;

      if ((zero = gnn_tensor_eq_scalar (target, 0.0, error)) == NULL ||
          (one = gnn_tensor_new_scalar (1.0, gnn_tensor_get_dtype (target), NULL, error)) == NULL ||
          (safe = gnn_where (zero, one, target, error)) == NULL ||
          (lt = gnn_tensor_log (safe, error)) == NULL ||
          (xlogy = gnn_tensor_mul (target, lt, error)) == NULL ||
          (tx = gnn_tensor_mul (target, input, error)) == NULL ||
          (loss = gnn_tensor_sub (xlogy, tx, 1.0, error)) == NULL)
        return NULL;
    }
  if (reduction != GNN_REDUCTION_BATCHMEAN)
    return reduce (g_steal_pointer (&loss), reduction, error);
  if ((total = gnn_tensor_sum_all (loss, error)) == NULL)
    return NULL;
  if (gnn_tensor_get_ndim (input) == 0)
    return g_steal_pointer (&total);
  return gnn_tensor_div_scalar (total, (double) gnn_tensor_get_size (input, 0, NULL), error);
}

/**
 * gnn_tensor_kl_div:
 * @input: log-probabilities
 * @target: probabilities, or log-probabilities when @log_target is set, of the shape and
 *   dtype of @input
 * @reduction: how the losses are reduced; %GNN_REDUCTION_BATCHMEAN divides the sum by the
 *   size of the first dimension, which gives the true KL divergence;
 *   %GNN_REDUCTION_MEAN averages over all elements, as PyTorch does
 * @log_target: whether @target holds log-probabilities
 * @error: return location for a #GError
 *
 * The Kullback-Leibler divergence loss (`torch.nn.functional.kl_div`):
 * target (log target − input) for each element (exp (target) (target − input) with
 * @log_target), reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_kl_div (GnnTensor    *input,
                   GnnTensor    *target,
                   GnnReduction  reduction,
                   gboolean      log_target,
                   GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_kl_div (c[0], c[1], reduction, log_target, error),
                       error, input, target);
  return named (kl_div (input, target, reduction, log_target, error), "KLDivLoss", error);
}

/* ---- modules --------------------------------------------------------------------------- */

/* The two positional inputs of a loss module's forward. */
static gboolean
loss_inputs (GnnArgs    *input,
             const char *name,
             GnnTensor **x,
             GnnTensor **t,
             GError    **error)
{
  if ((*x = gnn_args_get_tensor (input, 0, error)) == NULL ||
      (*t = gnn_args_get_tensor (input, 1, error)) == NULL)
    {
      g_prefix_error (error, "%s: expected (input, target): ", name);
      return FALSE;
    }
  return TRUE;
}

/* a buffer registered in setup from a construct property, or %NULL (None) */
static GnnTensor *
optional_buffer (GnnModule  *module,
                 const char *name)
{
  return gnn_module_get_buffer (module, name, NULL);
}

static gboolean
register_optional_buffer (GnnModule  *module,
                          const char *name,
                          GnnTensor  *tensor,
                          GError    **error)
{
  return gnn_module_register_buffer (module, name, tensor, TRUE, error);
}

/* a weight property reads the buffer of its name (which module.to () may have moved), or
 * %NULL for none: the getter of GNN_LOSS_WEIGHT_PROP (gnn-loss-private.h) */
void
gnn_loss_weight_buffer_get (GObject    *object,
                            GParamSpec *pspec,
                            GValue     *value)
{
  g_autofree char *name = gnn_prop_python_name (pspec);

  g_value_set_object (value, optional_buffer (GNN_MODULE (object), name));
}

/**
 * GnnLoss:
 *
 * The base class of the loss modules, as `torch.nn.modules.loss._Loss`: it holds
 * [property@Gnn.Loss:reduction]. A loss module's forward takes (input, target) positionally
 * and returns the loss. Loss modules print as PyTorch's do, without arguments:
 * "MSELoss()".
 */
typedef struct
{
  GnnReduction reduction;
} GnnLossPrivate;

enum {
  LOSS_PROP_0,
  LOSS_PROP_REDUCTION,
  LOSS_N_PROPS
};

static GnnProp loss_props[LOSS_N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnLoss, gnn_loss, GNN_TYPE_MODULE)

static void
gnn_loss_class_init (GnnLossClass *klass)
{
  /**
   * GnnLoss:reduction:
   *
   * How the losses of the elements are reduced (`reduction`); PyTorch's default is
   * %GNN_REDUCTION_MEAN. %GNN_REDUCTION_BATCHMEAN is valid for [class@Gnn.KLDivLoss] only;
   * other losses fail in forward with it.
   */
  loss_props[LOSS_PROP_REDUCTION] = (GnnProp) {
    g_param_spec_enum ("reduction", NULL, NULL, GNN_TYPE_REDUCTION, GNN_REDUCTION_MEAN,
                       GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_PRIVATE_OFFSET (GnnLoss, reduction) };
  gnn_props_install (G_OBJECT_CLASS (klass), loss_props, LOSS_N_PROPS);
}

static void
gnn_loss_init (GnnLoss *self)
{
}

/**
 * gnn_loss_get_reduction:
 * @self: a loss module
 *
 * Gets [property@Gnn.Loss:reduction].
 *
 * Returns: how the losses are reduced
 */
GnnReduction
gnn_loss_get_reduction (GnnLoss *self)
{
  GnnLossPrivate *priv;

  g_return_val_if_fail (GNN_IS_LOSS (self), GNN_REDUCTION_MEAN);
  priv = gnn_loss_get_instance_private (self);
  return priv->reduction;
}

/**
 * gnn_loss_set_reduction:
 * @self: a loss module
 * @reduction: how the losses are reduced
 *
 * Sets [property@Gnn.Loss:reduction]; the next forward uses it.
 */
void
gnn_loss_set_reduction (GnnLoss      *self,
                        GnnReduction  reduction)
{
  g_return_if_fail (GNN_IS_LOSS (self));
  gnn_prop_set (self, &loss_props[LOSS_PROP_REDUCTION], reduction);
}

#define REDUCTION(module) gnn_loss_get_reduction (GNN_LOSS (module))

/* ---- MSELoss --------------------------------------------------------------------------- */

/**
 * GnnMSELoss:
 *
 * The mean squared error as a module (`torch.nn.MSELoss`); see [method@Gnn.Tensor.mse_loss].
 */
struct _GnnMSELoss
{
  GnnLoss parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnMSELoss, gnn_mse_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_mse_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "MSELoss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_mse_loss (x, t, REDUCTION (module), error));
}

static void
gnn_mse_loss_class_init (GnnMSELossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_mse_loss_forward;
}

static void
gnn_mse_loss_init (GnnMSELoss *self)
{
}

/**
 * gnn_mse_loss_new:
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates an MSELoss module (`nn.MSELoss (reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnMSELoss *
gnn_mse_loss_new (GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_MSE_LOSS, "reduction", reduction, NULL);
}

/* ---- L1Loss ---------------------------------------------------------------------------- */

/**
 * GnnL1Loss:
 *
 * The mean absolute error as a module (`torch.nn.L1Loss`); see [method@Gnn.Tensor.l1_loss].
 */
struct _GnnL1Loss
{
  GnnLoss parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnL1Loss, gnn_l1_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_l1_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "L1Loss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_l1_loss (x, t, REDUCTION (module), error));
}

static void
gnn_l1_loss_class_init (GnnL1LossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_l1_loss_forward;
}

static void
gnn_l1_loss_init (GnnL1Loss *self)
{
}

/**
 * gnn_l1_loss_new:
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates an L1Loss module (`nn.L1Loss (reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnL1Loss *
gnn_l1_loss_new (GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_L1_LOSS, "reduction", reduction, NULL);
}

/* ---- SmoothL1Loss ---------------------------------------------------------------------- */

/**
 * GnnSmoothL1Loss:
 *
 * The smooth L1 loss as a module (`torch.nn.SmoothL1Loss`); see [method@Gnn.Tensor.smooth_l1_loss].
 */
struct _GnnSmoothL1Loss
{
  GnnLoss parent_instance;

  double beta;
};

enum {
  SMOOTH_PROP_0,
  SMOOTH_PROP_BETA,
  SMOOTH_N_PROPS
};

static GnnProp smooth_props[SMOOTH_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnSmoothL1Loss, gnn_smooth_l1_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_smooth_l1_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "SmoothL1Loss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_smooth_l1_loss (x, t, REDUCTION (module),
                                                      GNN_SMOOTH_L1_LOSS (module)->beta, error));
}

static void
gnn_smooth_l1_loss_class_init (GnnSmoothL1LossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_smooth_l1_loss_forward;

  /**
   * GnnSmoothL1Loss:beta:
   *
   * Where the loss changes from quadratic to linear (`beta`), non-negative; PyTorch's
   * default is 1.0.
   */
  smooth_props[SMOOTH_PROP_BETA] = (GnnProp) {
    g_param_spec_double ("beta", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1.0, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnSmoothL1Loss, beta), gnn_prop_check_non_negative };
  gnn_props_install (G_OBJECT_CLASS (klass), smooth_props, SMOOTH_N_PROPS);
}

static void
gnn_smooth_l1_loss_init (GnnSmoothL1Loss *self)
{
}

/**
 * gnn_smooth_l1_loss_new:
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 * @beta: where the loss changes from quadratic to linear; PyTorch's default is 1.0
 *
 * Creates a SmoothL1Loss module (`nn.SmoothL1Loss (reduction=..., beta=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnSmoothL1Loss *
gnn_smooth_l1_loss_new (GnnReduction reduction,
                        double       beta)
{
  return g_object_new (GNN_TYPE_SMOOTH_L1_LOSS, "reduction", reduction, "beta", beta, NULL);
}

/**
 * gnn_smooth_l1_loss_get_beta:
 * @self: a SmoothL1Loss module
 *
 * Gets [property@Gnn.SmoothL1Loss:beta].
 *
 * Returns: where the loss changes from quadratic to linear
 */
double
gnn_smooth_l1_loss_get_beta (GnnSmoothL1Loss *self)
{
  g_return_val_if_fail (GNN_IS_SMOOTH_L1_LOSS (self), 0.0);
  return self->beta;
}

/**
 * gnn_smooth_l1_loss_set_beta:
 * @self: a SmoothL1Loss module
 * @beta: where the loss changes from quadratic to linear, non-negative
 *
 * Sets [property@Gnn.SmoothL1Loss:beta].
 */
void
gnn_smooth_l1_loss_set_beta (GnnSmoothL1Loss *self,
                             double           beta)
{
  g_return_if_fail (GNN_IS_SMOOTH_L1_LOSS (self));
  g_return_if_fail (beta >= 0);
  gnn_prop_set (self, &smooth_props[SMOOTH_PROP_BETA], beta);
}

/* ---- HuberLoss ------------------------------------------------------------------------- */

/**
 * GnnHuberLoss:
 *
 * The Huber loss as a module (`torch.nn.HuberLoss`); see [method@Gnn.Tensor.huber_loss].
 */
struct _GnnHuberLoss
{
  GnnLoss parent_instance;

  double delta;
};

enum {
  HUBER_PROP_0,
  HUBER_PROP_DELTA,
  HUBER_N_PROPS
};

static GnnProp huber_props[HUBER_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnHuberLoss, gnn_huber_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_huber_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "HuberLoss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_huber_loss (x, t, REDUCTION (module),
                                                  GNN_HUBER_LOSS (module)->delta, error));
}

static void
gnn_huber_loss_class_init (GnnHuberLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_huber_loss_forward;

  /**
   * GnnHuberLoss:delta:
   *
   * Where the loss changes from quadratic to linear (`delta`), positive; PyTorch's default
   * is 1.0.
   */
  huber_props[HUBER_PROP_DELTA] = (GnnProp) {
    g_param_spec_double ("delta", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1.0, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnHuberLoss, delta), gnn_prop_check_positive };
  gnn_props_install (G_OBJECT_CLASS (klass), huber_props, HUBER_N_PROPS);
}

static void
gnn_huber_loss_init (GnnHuberLoss *self)
{
}

/**
 * gnn_huber_loss_new:
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 * @delta: where the loss changes from quadratic to linear; PyTorch's default is 1.0
 *
 * Creates a HuberLoss module (`nn.HuberLoss (reduction=..., delta=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnHuberLoss *
gnn_huber_loss_new (GnnReduction reduction,
                    double       delta)
{
  return g_object_new (GNN_TYPE_HUBER_LOSS, "reduction", reduction, "delta", delta, NULL);
}

/**
 * gnn_huber_loss_get_delta:
 * @self: a HuberLoss module
 *
 * Gets [property@Gnn.HuberLoss:delta].
 *
 * Returns: where the loss changes from quadratic to linear
 */
double
gnn_huber_loss_get_delta (GnnHuberLoss *self)
{
  g_return_val_if_fail (GNN_IS_HUBER_LOSS (self), 0.0);
  return self->delta;
}

/**
 * gnn_huber_loss_set_delta:
 * @self: a HuberLoss module
 * @delta: where the loss changes from quadratic to linear, positive
 *
 * Sets [property@Gnn.HuberLoss:delta].
 */
void
gnn_huber_loss_set_delta (GnnHuberLoss *self,
                          double        delta)
{
  g_return_if_fail (GNN_IS_HUBER_LOSS (self));
  g_return_if_fail (delta > 0);
  gnn_prop_set (self, &huber_props[HUBER_PROP_DELTA], delta);
}

/* ---- BCELoss --------------------------------------------------------------------------- */

/**
 * GnnBCELoss:
 *
 * The binary cross entropy as a module (`torch.nn.BCELoss`); see
 * [method@Gnn.Tensor.binary_cross_entropy]. The optional weight is the buffer `weight`, as in PyTorch.
 */
struct _GnnBCELoss
{
  GnnLoss parent_instance;

  GnnTensor *weight; /* the construct value, registered as a buffer in setup */
};

enum {
  BCE_PROP_0,
  BCE_PROP_WEIGHT,
  BCE_N_PROPS
};

static GnnProp bce_props[BCE_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnBCELoss, gnn_bce_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_bce_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "BCELoss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_binary_cross_entropy (x, t, optional_buffer (module, "weight"),
                                                            REDUCTION (module), error));
}

static gboolean
gnn_bce_loss_setup (GnnModule *module, GError **error)
{
  if (!GNN_MODULE_CLASS (gnn_bce_loss_parent_class)->setup (module, error))
    return FALSE;
  return register_optional_buffer (module, "weight", GNN_BCE_LOSS (module)->weight, error);
}

static void
gnn_bce_loss_class_init (GnnBCELossClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_bce_loss_forward;
  module_class->setup = gnn_bce_loss_setup;

  /**
   * GnnBCELoss:weight:
   *
   * A weight for each element, broadcast to the input's shape (`weight`), or %NULL;
   * held as the buffer `weight`.
   */
  bce_props[BCE_PROP_WEIGHT] = GNN_LOSS_WEIGHT_PROP (GnnBCELoss, weight, "weight");
  gnn_props_install (G_OBJECT_CLASS (klass), bce_props, BCE_N_PROPS);
}

static void
gnn_bce_loss_init (GnnBCELoss *self)
{
}

/**
 * gnn_bce_loss_new:
 * @weight: (nullable): a weight for each element, broadcast to the input's shape
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a BCELoss module (`nn.BCELoss (weight=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnBCELoss *
gnn_bce_loss_new (GnnTensor    *weight,
                  GnnReduction  reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  return g_object_new (GNN_TYPE_BCE_LOSS, "weight", weight, "reduction", reduction, NULL);
}

/**
 * gnn_bce_loss_get_weight:
 * @self: a BCELoss module
 *
 * Gets [property@Gnn.BCELoss:weight].
 *
 * Returns: (transfer none) (nullable): the buffer `weight`, or %NULL
 */
GnnTensor *
gnn_bce_loss_get_weight (GnnBCELoss *self)
{
  g_return_val_if_fail (GNN_IS_BCE_LOSS (self), NULL);
  return self->weight != NULL ? optional_buffer (GNN_MODULE (self), "weight") : NULL;
}

/* ---- BCEWithLogitsLoss ----------------------------------------------------------------- */

/**
 * GnnBCEWithLogitsLoss:
 *
 * The binary cross entropy of logits as a module (`torch.nn.BCEWithLogitsLoss`); see
 * [method@Gnn.Tensor.binary_cross_entropy_with_logits]. The optional weights are the buffers
 * `weight` and `pos_weight`, as in PyTorch.
 */
struct _GnnBCEWithLogitsLoss
{
  GnnLoss parent_instance;

  GnnTensor *weight;
  GnnTensor *pos_weight;
};

enum {
  BCEL_PROP_0,
  BCEL_PROP_WEIGHT,
  BCEL_PROP_POS_WEIGHT,
  BCEL_N_PROPS
};

static GnnProp bcel_props[BCEL_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnBCEWithLogitsLoss, gnn_bce_with_logits_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_bce_with_logits_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "BCEWithLogitsLoss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_binary_cross_entropy_with_logits (x, t,
                                                                        optional_buffer (module, "weight"),
                                                                        optional_buffer (module, "pos_weight"),
                                                                        REDUCTION (module), error));
}

static gboolean
gnn_bce_with_logits_loss_setup (GnnModule *module, GError **error)
{
  GnnBCEWithLogitsLoss *self = GNN_BCE_WITH_LOGITS_LOSS (module);

  if (!GNN_MODULE_CLASS (gnn_bce_with_logits_loss_parent_class)->setup (module, error))
    return FALSE;
  return register_optional_buffer (module, "weight", self->weight, error) &&
         register_optional_buffer (module, "pos_weight", self->pos_weight, error);
}

static void
gnn_bce_with_logits_loss_class_init (GnnBCEWithLogitsLossClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_bce_with_logits_loss_forward;
  module_class->setup = gnn_bce_with_logits_loss_setup;

  /**
   * GnnBCEWithLogitsLoss:weight:
   *
   * A weight for each element, broadcast to the input's shape (`weight`), or %NULL;
   * held as the buffer `weight`.
   */
  bcel_props[BCEL_PROP_WEIGHT] = GNN_LOSS_WEIGHT_PROP (GnnBCEWithLogitsLoss, weight, "weight");
  /**
   * GnnBCEWithLogitsLoss:pos-weight:
   *
   * A weight of the positive examples, broadcast along the last dimension (`pos_weight`),
   * or %NULL; held as the buffer `pos_weight`.
   */
  bcel_props[BCEL_PROP_POS_WEIGHT] = GNN_LOSS_WEIGHT_PROP (GnnBCEWithLogitsLoss, pos_weight, "pos-weight");
  gnn_props_install (G_OBJECT_CLASS (klass), bcel_props, BCEL_N_PROPS);
}

static void
gnn_bce_with_logits_loss_init (GnnBCEWithLogitsLoss *self)
{
}

/**
 * gnn_bce_with_logits_loss_new:
 * @weight: (nullable): a weight for each element, broadcast to the input's shape
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 * @pos_weight: (nullable): a weight of the positive examples, one per class
 *
 * Creates a BCEWithLogitsLoss module
 * (`nn.BCEWithLogitsLoss (weight=..., reduction=..., pos_weight=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnBCEWithLogitsLoss *
gnn_bce_with_logits_loss_new (GnnTensor    *weight,
                              GnnReduction  reduction,
                              GnnTensor    *pos_weight)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (pos_weight == NULL || GNN_IS_TENSOR (pos_weight), NULL);
  return g_object_new (GNN_TYPE_BCE_WITH_LOGITS_LOSS, "weight", weight, "reduction", reduction,
                       "pos-weight", pos_weight, NULL);
}

/**
 * gnn_bce_with_logits_loss_get_weight:
 * @self: a BCEWithLogitsLoss module
 *
 * Gets [property@Gnn.BCEWithLogitsLoss:weight].
 *
 * Returns: (transfer none) (nullable): the buffer `weight`, or %NULL
 */
GnnTensor *
gnn_bce_with_logits_loss_get_weight (GnnBCEWithLogitsLoss *self)
{
  g_return_val_if_fail (GNN_IS_BCE_WITH_LOGITS_LOSS (self), NULL);
  return self->weight != NULL ? optional_buffer (GNN_MODULE (self), "weight") : NULL;
}

/**
 * gnn_bce_with_logits_loss_get_pos_weight:
 * @self: a BCEWithLogitsLoss module
 *
 * Gets [property@Gnn.BCEWithLogitsLoss:pos-weight].
 *
 * Returns: (transfer none) (nullable): the buffer `pos_weight`, or %NULL
 */
GnnTensor *
gnn_bce_with_logits_loss_get_pos_weight (GnnBCEWithLogitsLoss *self)
{
  g_return_val_if_fail (GNN_IS_BCE_WITH_LOGITS_LOSS (self), NULL);
  return self->pos_weight != NULL ? optional_buffer (GNN_MODULE (self), "pos_weight") : NULL;
}

/* ---- NLLLoss --------------------------------------------------------------------------- */

/**
 * GnnNLLLoss:
 *
 * The negative log-likelihood loss as a module (`torch.nn.NLLLoss`); see
 * [method@Gnn.Tensor.nll_loss]. The optional class weights are the buffer `weight`, as in PyTorch.
 */
struct _GnnNLLLoss
{
  GnnLoss parent_instance;

  GnnTensor *weight;
  gint64 ignore_index;
};

enum {
  NLL_PROP_0,
  NLL_PROP_WEIGHT,
  NLL_PROP_IGNORE_INDEX,
  NLL_N_PROPS
};

static GnnProp nll_props[NLL_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnNLLLoss, gnn_nll_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_nll_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "NLLLoss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_nll_loss (x, t, optional_buffer (module, "weight"),
                                                GNN_NLL_LOSS (module)->ignore_index,
                                                REDUCTION (module), error));
}

static gboolean
gnn_nll_loss_setup (GnnModule *module, GError **error)
{
  if (!GNN_MODULE_CLASS (gnn_nll_loss_parent_class)->setup (module, error))
    return FALSE;
  return register_optional_buffer (module, "weight", GNN_NLL_LOSS (module)->weight, error);
}

static void
gnn_nll_loss_class_init (GnnNLLLossClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_nll_loss_forward;
  module_class->setup = gnn_nll_loss_setup;

  /**
   * GnnNLLLoss:weight:
   *
   * A weight for each class, of shape (C) (`weight`), or %NULL; held as the buffer
   * `weight`.
   */
  nll_props[NLL_PROP_WEIGHT] = GNN_LOSS_WEIGHT_PROP (GnnNLLLoss, weight, "weight");
  /**
   * GnnNLLLoss:ignore-index:
   *
   * A target value that contributes neither loss nor weight (`ignore_index`); PyTorch's
   * default is -100.
   */
  nll_props[NLL_PROP_IGNORE_INDEX] = (GnnProp) {
    g_param_spec_int64 ("ignore-index", NULL, NULL, G_MININT64, G_MAXINT64, -100, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnNLLLoss, ignore_index) };
  gnn_props_install (G_OBJECT_CLASS (klass), nll_props, NLL_N_PROPS);
}

static void
gnn_nll_loss_init (GnnNLLLoss *self)
{
}

/**
 * gnn_nll_loss_new:
 * @weight: (nullable): a weight for each class, of shape (C)
 * @ignore_index: a target value that contributes neither loss nor weight; PyTorch's default
 *   is -100
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates an NLLLoss module (`nn.NLLLoss (weight=..., ignore_index=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnNLLLoss *
gnn_nll_loss_new (GnnTensor    *weight,
                  gint64        ignore_index,
                  GnnReduction  reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  return g_object_new (GNN_TYPE_NLL_LOSS, "weight", weight, "ignore-index", ignore_index,
                       "reduction", reduction, NULL);
}

/**
 * gnn_nll_loss_get_weight:
 * @self: an NLLLoss module
 *
 * Gets [property@Gnn.NLLLoss:weight].
 *
 * Returns: (transfer none) (nullable): the buffer `weight`, or %NULL
 */
GnnTensor *
gnn_nll_loss_get_weight (GnnNLLLoss *self)
{
  g_return_val_if_fail (GNN_IS_NLL_LOSS (self), NULL);
  return self->weight != NULL ? optional_buffer (GNN_MODULE (self), "weight") : NULL;
}

/**
 * gnn_nll_loss_get_ignore_index:
 * @self: an NLLLoss module
 *
 * Gets [property@Gnn.NLLLoss:ignore-index].
 *
 * Returns: the target value that is ignored
 */
gint64
gnn_nll_loss_get_ignore_index (GnnNLLLoss *self)
{
  g_return_val_if_fail (GNN_IS_NLL_LOSS (self), -100);
  return self->ignore_index;
}

/**
 * gnn_nll_loss_set_ignore_index:
 * @self: an NLLLoss module
 * @ignore_index: the target value to ignore
 *
 * Sets [property@Gnn.NLLLoss:ignore-index].
 */
void
gnn_nll_loss_set_ignore_index (GnnNLLLoss *self,
                               gint64      ignore_index)
{
  g_return_if_fail (GNN_IS_NLL_LOSS (self));
  gnn_prop_set (self, &nll_props[NLL_PROP_IGNORE_INDEX], ignore_index);
}

/* ---- CrossEntropyLoss ------------------------------------------------------------------ */

/**
 * GnnCrossEntropyLoss:
 *
 * The cross entropy as a module (`torch.nn.CrossEntropyLoss`); see
 * [method@Gnn.Tensor.cross_entropy]. The optional class weights are the buffer `weight`, as in
 * PyTorch.
 */
struct _GnnCrossEntropyLoss
{
  GnnLoss parent_instance;

  GnnTensor *weight;
  gint64 ignore_index;
  double label_smoothing;
};

enum {
  CE_PROP_0,
  CE_PROP_WEIGHT,
  CE_PROP_IGNORE_INDEX,
  CE_PROP_LABEL_SMOOTHING,
  CE_N_PROPS
};

static GnnProp ce_props[CE_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCrossEntropyLoss, gnn_cross_entropy_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_cross_entropy_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnCrossEntropyLoss *self = GNN_CROSS_ENTROPY_LOSS (module);
  GnnTensor *x, *t;

  if (!loss_inputs (input, "CrossEntropyLoss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_cross_entropy (x, t, optional_buffer (module, "weight"),
                                                     self->ignore_index, REDUCTION (module),
                                                     self->label_smoothing, error));
}

static gboolean
gnn_cross_entropy_loss_setup (GnnModule *module, GError **error)
{
  if (!GNN_MODULE_CLASS (gnn_cross_entropy_loss_parent_class)->setup (module, error))
    return FALSE;
  return register_optional_buffer (module, "weight", GNN_CROSS_ENTROPY_LOSS (module)->weight,
                                   error);
}

static gboolean
check_label_smoothing (GParamSpec *pspec, const GValue *value, GError **error)
{
  double v = g_value_get_double (value);
  g_autofree char *repr = NULL;

  if (v >= 0 && v <= 1)
    return TRUE;
  repr = gnn_python_float_repr (v);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "label_smoothing must be between 0.0 and 1.0. Got: %s", repr);
  return FALSE;
}

static void
gnn_cross_entropy_loss_class_init (GnnCrossEntropyLossClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_cross_entropy_loss_forward;
  module_class->setup = gnn_cross_entropy_loss_setup;

  /**
   * GnnCrossEntropyLoss:weight:
   *
   * A weight for each class, of shape (C) (`weight`), or %NULL; held as the buffer
   * `weight`.
   */
  ce_props[CE_PROP_WEIGHT] = GNN_LOSS_WEIGHT_PROP (GnnCrossEntropyLoss, weight, "weight");
  /**
   * GnnCrossEntropyLoss:ignore-index:
   *
   * A class-index target that contributes neither loss nor weight (`ignore_index`);
   * PyTorch's default is -100.
   */
  ce_props[CE_PROP_IGNORE_INDEX] = (GnnProp) {
    g_param_spec_int64 ("ignore-index", NULL, NULL, G_MININT64, G_MAXINT64, -100, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnCrossEntropyLoss, ignore_index) };
  /**
   * GnnCrossEntropyLoss:label-smoothing:
   *
   * The share of the target spread uniformly over the classes (`label_smoothing`), in
   * [0, 1]; PyTorch's default is 0.
   */
  ce_props[CE_PROP_LABEL_SMOOTHING] = (GnnProp) {
    g_param_spec_double ("label-smoothing", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnCrossEntropyLoss, label_smoothing), check_label_smoothing };
  gnn_props_install (G_OBJECT_CLASS (klass), ce_props, CE_N_PROPS);
}

static void
gnn_cross_entropy_loss_init (GnnCrossEntropyLoss *self)
{
}

/**
 * gnn_cross_entropy_loss_new:
 * @weight: (nullable): a weight for each class, of shape (C)
 * @ignore_index: a class-index target that contributes neither loss nor weight; PyTorch's
 *   default is -100
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 * @label_smoothing: in [0, 1]; PyTorch's default is 0
 *
 * Creates a CrossEntropyLoss module (`nn.CrossEntropyLoss (weight=..., ignore_index=...,
 * reduction=..., label_smoothing=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnCrossEntropyLoss *
gnn_cross_entropy_loss_new (GnnTensor    *weight,
                            gint64        ignore_index,
                            GnnReduction  reduction,
                            double        label_smoothing)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  return g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS, "weight", weight,
                       "ignore-index", ignore_index, "reduction", reduction,
                       "label-smoothing", label_smoothing, NULL);
}

/**
 * gnn_cross_entropy_loss_get_weight:
 * @self: a CrossEntropyLoss module
 *
 * Gets [property@Gnn.CrossEntropyLoss:weight].
 *
 * Returns: (transfer none) (nullable): the buffer `weight`, or %NULL
 */
GnnTensor *
gnn_cross_entropy_loss_get_weight (GnnCrossEntropyLoss *self)
{
  g_return_val_if_fail (GNN_IS_CROSS_ENTROPY_LOSS (self), NULL);
  return self->weight != NULL ? optional_buffer (GNN_MODULE (self), "weight") : NULL;
}

/**
 * gnn_cross_entropy_loss_get_ignore_index:
 * @self: a CrossEntropyLoss module
 *
 * Gets [property@Gnn.CrossEntropyLoss:ignore-index].
 *
 * Returns: the class-index target that is ignored
 */
gint64
gnn_cross_entropy_loss_get_ignore_index (GnnCrossEntropyLoss *self)
{
  g_return_val_if_fail (GNN_IS_CROSS_ENTROPY_LOSS (self), -100);
  return self->ignore_index;
}

/**
 * gnn_cross_entropy_loss_set_ignore_index:
 * @self: a CrossEntropyLoss module
 * @ignore_index: the class-index target to ignore
 *
 * Sets [property@Gnn.CrossEntropyLoss:ignore-index].
 */
void
gnn_cross_entropy_loss_set_ignore_index (GnnCrossEntropyLoss *self,
                                         gint64               ignore_index)
{
  g_return_if_fail (GNN_IS_CROSS_ENTROPY_LOSS (self));
  gnn_prop_set (self, &ce_props[CE_PROP_IGNORE_INDEX], ignore_index);
}

/**
 * gnn_cross_entropy_loss_get_label_smoothing:
 * @self: a CrossEntropyLoss module
 *
 * Gets [property@Gnn.CrossEntropyLoss:label-smoothing].
 *
 * Returns: the label smoothing, in [0, 1]
 */
double
gnn_cross_entropy_loss_get_label_smoothing (GnnCrossEntropyLoss *self)
{
  g_return_val_if_fail (GNN_IS_CROSS_ENTROPY_LOSS (self), 0.0);
  return self->label_smoothing;
}

/**
 * gnn_cross_entropy_loss_set_label_smoothing:
 * @self: a CrossEntropyLoss module
 * @label_smoothing: the label smoothing, in [0, 1]
 *
 * Sets [property@Gnn.CrossEntropyLoss:label-smoothing].
 */
void
gnn_cross_entropy_loss_set_label_smoothing (GnnCrossEntropyLoss *self,
                                            double               label_smoothing)
{
  g_return_if_fail (GNN_IS_CROSS_ENTROPY_LOSS (self));
  g_return_if_fail (label_smoothing >= 0 && label_smoothing <= 1);
  gnn_prop_set (self, &ce_props[CE_PROP_LABEL_SMOOTHING], label_smoothing);
}

/* ---- KLDivLoss ------------------------------------------------------------------------- */

/**
 * GnnKLDivLoss:
 *
 * The Kullback-Leibler divergence loss as a module (`torch.nn.KLDivLoss`); see
 * [method@Gnn.Tensor.kl_div]. It accepts [property@Gnn.Loss:reduction] %GNN_REDUCTION_BATCHMEAN.
 */
struct _GnnKLDivLoss
{
  GnnLoss parent_instance;

  gboolean log_target;
};

enum {
  KL_PROP_0,
  KL_PROP_LOG_TARGET,
  KL_N_PROPS
};

static GnnProp kl_props[KL_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnKLDivLoss, gnn_kl_div_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_kl_div_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x, *t;

  if (!loss_inputs (input, "KLDivLoss", &x, &t, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_kl_div (x, t, REDUCTION (module),
                                              GNN_KL_DIV_LOSS (module)->log_target, error));
}

static void
gnn_kl_div_loss_class_init (GnnKLDivLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_kl_div_loss_forward;

  /**
   * GnnKLDivLoss:log-target:
   *
   * Whether the target holds log-probabilities (`log_target`); PyTorch's default is
   * %FALSE.
   */
  kl_props[KL_PROP_LOG_TARGET] = GNN_LOSS_BOOLEAN_PROP (GnnKLDivLoss, log_target, "log-target", FALSE);
  gnn_props_install (G_OBJECT_CLASS (klass), kl_props, KL_N_PROPS);
}

static void
gnn_kl_div_loss_init (GnnKLDivLoss *self)
{
}

/**
 * gnn_kl_div_loss_new:
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN,
 *   %GNN_REDUCTION_BATCHMEAN gives the true KL divergence
 * @log_target: whether the target holds log-probabilities
 *
 * Creates a KLDivLoss module (`nn.KLDivLoss (reduction=..., log_target=...)`).
 *
 * Returns: (transfer full): the loss module
 */
GnnKLDivLoss *
gnn_kl_div_loss_new (GnnReduction reduction,
                     gboolean     log_target)
{
  return g_object_new (GNN_TYPE_KL_DIV_LOSS, "reduction", reduction, "log-target", log_target,
                       NULL);
}

/**
 * gnn_kl_div_loss_get_log_target:
 * @self: a KLDivLoss module
 *
 * Gets [property@Gnn.KLDivLoss:log-target].
 *
 * Returns: whether the target holds log-probabilities
 */
gboolean
gnn_kl_div_loss_get_log_target (GnnKLDivLoss *self)
{
  g_return_val_if_fail (GNN_IS_KL_DIV_LOSS (self), FALSE);
  return self->log_target;
}

/**
 * gnn_kl_div_loss_set_log_target:
 * @self: a KLDivLoss module
 * @log_target: whether the target holds log-probabilities
 *
 * Sets [property@Gnn.KLDivLoss:log-target].
 */
void
gnn_kl_div_loss_set_log_target (GnnKLDivLoss *self,
                                gboolean      log_target)
{
  g_return_if_fail (GNN_IS_KL_DIV_LOSS (self));
  gnn_prop_set (self, &kl_props[KL_PROP_LOG_TARGET], log_target);
}

/* ---- shared with gnn-loss-more.c (gnn-loss-private.h) ---------------------------------- */

gboolean
gnn_loss_check_reduction (GnnReduction reduction,
                          GError     **error)
{
  return check_reduction (reduction, FALSE, error);
}

gboolean
gnn_loss_check_floating (GnnTensor  *t,
                         const char *what,
                         GError    **error)
{
  return check_floating (t, what, error);
}

GnnTensor *
gnn_loss_reduce (GnnTensor    *loss,
                 GnnReduction  reduction,
                 GError      **error)
{
  return reduce (loss, reduction, error);
}

GnnTensor *
gnn_loss_named (GnnTensor  *result,
                const char *name,
                GError    **error)
{
  return named (result, name, error);
}
