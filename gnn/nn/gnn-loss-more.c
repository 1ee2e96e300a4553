/* gnn-loss-more.c: the margin, embedding, multi-label and likelihood losses of torch.nn, as
 * functions and as modules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-loss-more.h"
#include "gnn-loss-private.h"
#include "gnn-distance.h"
#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "ops/gnn-autocast-private.h"

/* Every loss is composed of differentiable ops, so autograd comes from the ops, as in
 * gnn-loss.c. The formulas and checks are PyTorch 1.13's (aten/src/ATen/native/Loss.cpp,
 * LossMultiMargin.cpp, LossMultiLabelMargin.cpp, torch/nn/functional.py). */

#define reduce gnn_loss_reduce
#define named gnn_loss_named

static char *
shape_of (GnnTensor *t)
{
  guint n;
  const gint64 *s = gnn_tensor_get_shape (t, &n);

  return gnn_shape_to_string (n, s);
}

static gboolean
same_shape (GnnTensor *a, GnnTensor *b)
{
  guint na, nb;
  const gint64 *sa = gnn_tensor_get_shape (a, &na), *sb = gnn_tensor_get_shape (b, &nb);

  return na == nb && (na == 0 || memcmp (sa, sb, na * sizeof (gint64)) == 0);
}

/* the value of a 0-d reduction such as all () or max_all (), as a double */
static gboolean
item_of (GnnTensor *t, double *value, GError **error)
{
  GError *local = NULL;

  if (t == NULL)
    return FALSE;
  *value = gnn_tensor_item (t, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_int64_target (GnnTensor *target, GError **error)
{
  if (gnn_tensor_get_dtype (target) == GNN_DTYPE_INT64)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected int64 class indices as target, got %s",
               gnn_dtype_get_name (gnn_tensor_get_dtype (target)));
  return FALSE;
}

/* targets in [lo, hi): false with @error saying so otherwise */
static gboolean
check_target_range (GnnTensor *target, gint64 lo, gint64 hi, GError **error)
{
  g_autoptr(GnnTensor) mn = NULL, mx = NULL;
  double vmin, vmax;

  if (gnn_tensor_get_numel (target) == 0)
    return TRUE;
  if (!item_of ((mn = gnn_tensor_min_all (target, error)), &vmin, error) ||
      !item_of ((mx = gnn_tensor_max_all (target, error)), &vmax, error))
    return FALSE;
  if (vmin < lo || vmax >= hi)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "target out of range: expected values in [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   "), found values in [%.0f, %.0f]", lo, hi, vmin, vmax);
      return FALSE;
    }
  return TRUE;
}

/* torch's shape rule of the multi-class margin losses: (C) or (N, C), or a 0-d input */
static gboolean
check_margin_input (GnnTensor *input, gint64 *nframe, gint64 *dim, GError **error)
{
  guint n;
  const gint64 *s = gnn_tensor_get_shape (input, &n);

  if (!gnn_loss_check_floating (input, "input", error))
    return FALSE;
  if (!((n == 2 && s[1] != 0) || (n == 1 && s[0] != 0) || n == 0))
    {
      g_autofree char *is = gnn_shape_to_string (n, s);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s", is);
      return FALSE;
    }
  *nframe = n == 2 ? s[0] : 1;
  *dim = n == 0 ? 1 : s[n - 1];
  return TRUE;
}

/* value + detach (clamp_min (value, min) − value): the forward value clamped, the gradient
 * that of @value, as PyTorch clamps under no_grad */
static GnnTensor *
clamp_min_no_grad (GnnTensor *value, double min, GError **error)
{
  g_autoptr(GnnTensor) c = NULL, d = NULL, dd = NULL;

  if ((c = gnn_tensor_clamp_min (value, min, error)) == NULL ||
      (d = gnn_tensor_sub (c, value, 1.0, error)) == NULL)
    return NULL;
  dd = gnn_tensor_detach (d);
  return gnn_tensor_add (value, dd, 1.0, error);
}

/* ---- CosineEmbeddingLoss --------------------------------------------------------------- */

static GnnTensor *
cosine_embedding_loss (GnnTensor *x1, GnnTensor *x2, GnnTensor *target, double margin,
                       GnnReduction reduction, GError **error)
{
  int tdim = (int) gnn_tensor_get_ndim (target);
  guint n1 = gnn_tensor_get_ndim (x1), n2 = gnn_tensor_get_ndim (x2);
  g_autoptr(GnnTensor) p = NULL, ps = NULL, q1 = NULL, s1 = NULL, m1 = NULL, q2 = NULL, s2 = NULL;
  g_autoptr(GnnTensor) m2 = NULL, mm = NULL, den = NULL, cos = NULL, pos = NULL, cm = NULL, neg = NULL;
  g_autoptr(GnnTensor) not_pos = NULL, not_neg = NULL, out_pos = NULL, out_neg = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !gnn_loss_check_floating (x1, "input1", error) ||
      !gnn_loss_check_floating (x2, "input2", error))
    return NULL;
  if (tdim > 1)
    {
      g_autofree char *ts = shape_of (target);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "0D or 1D target tensor expected, multi-target not supported; got target shape %s", ts);
      return NULL;
    }
  if ((guint) tdim + 1 != n1 || (guint) tdim + 1 != n2)
    {
      g_autofree char *s1s = shape_of (x1);
      g_autofree char *s2s = shape_of (x2);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%dD target tensor expects %dD input tensors, but found inputs with sizes %s and %s.",
                   tdim, tdim + 1, s1s, s2s);
      return NULL;
    }
  /* cos = Σ x1 x2 / sqrt ((Σ x1² + ε) (Σ x2² + ε)), ε = 1e-12, over the last dimension */
  if ((p = gnn_tensor_mul (x1, x2, error)) == NULL ||
      (ps = gnn_tensor_sum (p, &tdim, 1, FALSE, error)) == NULL ||
      (q1 = gnn_tensor_mul (x1, x1, error)) == NULL ||
      (s1 = gnn_tensor_sum (q1, &tdim, 1, FALSE, error)) == NULL ||
      (m1 = gnn_tensor_add_scalar (s1, 1e-12, error)) == NULL ||
      (q2 = gnn_tensor_mul (x2, x2, error)) == NULL ||
      (s2 = gnn_tensor_sum (q2, &tdim, 1, FALSE, error)) == NULL ||
      (m2 = gnn_tensor_add_scalar (s2, 1e-12, error)) == NULL ||
      (mm = gnn_tensor_mul (m1, m2, error)) == NULL ||
      (den = gnn_tensor_sqrt (mm, error)) == NULL ||
      (cos = gnn_tensor_div (ps, den, error)) == NULL)
    return NULL;
  /* 1 − cos where target is 1, max (0, cos − margin) where it is −1, 0 elsewhere */
  if ((pos = gnn_tensor_rsub_scalar (cos, 1.0, error)) == NULL ||
      (cm = gnn_tensor_sub_scalar (cos, margin, error)) == NULL ||
      (neg = gnn_tensor_clamp_min (cm, 0.0, error)) == NULL ||
      (not_pos = gnn_tensor_ne_scalar (target, 1.0, error)) == NULL ||
      (not_neg = gnn_tensor_ne_scalar (target, -1.0, error)) == NULL ||
      (out_pos = gnn_where_scalar (not_pos, 0.0, pos, error)) == NULL ||
      (out_neg = gnn_where_scalar (not_neg, 0.0, neg, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_add (out_pos, out_neg, 1.0, error), reduction, error);
}

/**
 * gnn_tensor_cosine_embedding_loss:
 * @input1: the first embeddings, (N, D), or (D) with a 0-d @target
 * @input2: the second embeddings, of @input1's shape
 * @target: 1 where the pair should be similar, −1 where not, (N) or 0-d
 * @margin: the cosine below which a dissimilar pair costs nothing; PyTorch's default is 0
 * @reduction: how the losses of the pairs are reduced
 * @error: return location for a #GError
 *
 * The cosine embedding loss (`torch.nn.functional.cosine_embedding_loss`): with cos the
 * cosine similarity of the rows (the squared norms offset by 1e-12 as PyTorch does),
 * 1 − cos where @target is 1, max (0, cos − @margin) where it is −1, reduced. A target of
 * more than one dimension, or inputs of other than one dimension more than @target, is
 * %GNN_ERROR_SHAPE naming the shapes found.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cosine_embedding_loss (GnnTensor    *input1,
                                  GnnTensor    *input2,
                                  GnnTensor    *target,
                                  double        margin,
                                  GnnReduction  reduction,
                                  GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input2), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c,
                       gnn_tensor_cosine_embedding_loss (c[0], c[1], c[2], margin, reduction, error),
                       error, input1, input2, target);
  return named (cosine_embedding_loss (input1, input2, target, margin, reduction, error),
                "CosineEmbeddingLoss", error);
}

/* ---- GaussianNLLLoss ------------------------------------------------------------------- */

static GnnTensor *
gaussian_nll_loss (GnnTensor *input, GnnTensor *target, GnnTensor *var, gboolean full, double eps,
                   GnnReduction reduction, GError **error)
{
  guint ni, nv;
  const gint64 *si = gnn_tensor_get_shape (input, &ni), *sv = gnn_tensor_get_shape (var, &nv);
  g_autoptr(GnnTensor) v = NULL, neg = NULL, any = NULL, vc = NULL, lv = NULL, d = NULL, d2 = NULL;
  g_autoptr(GnnTensor) q = NULL, s = NULL, loss = NULL;
  double found;

  if (!gnn_loss_check_reduction (reduction, error) || !gnn_loss_check_floating (input, "input", error) ||
      !gnn_loss_check_floating (var, "var", error))
    return NULL;
  /* var of input's shape (heteroscedastic), or one value per row: input's shape without its
   * last size, or with a last size 1 (homoscedastic) */
  if (same_shape (input, var))
    v = g_object_ref (var);
  else if (ni >= 1 && nv + 1 == ni && (nv == 0 || memcmp (si, sv, nv * sizeof (gint64)) == 0))
    {
      if ((v = gnn_tensor_unsqueeze (var, -1, error)) == NULL)
        return NULL;
    }
  else if (ni >= 1 && nv == ni && sv[nv - 1] == 1 && memcmp (si, sv, (nv - 1) * sizeof (gint64)) == 0)
    v = g_object_ref (var);
  else
    {
      g_autofree char *is = gnn_shape_to_string (ni, si);
      g_autofree char *vs = gnn_shape_to_string (nv, sv);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "var is of incorrect size: expected the input shape %s, or it without or with 1 as "
                   "its last size, got %s", is, vs);
      return NULL;
    }
  if (gnn_tensor_get_numel (v) > 0)
    {
      g_autoptr(GnnTensor) vd = gnn_tensor_detach (v);

      if ((neg = gnn_tensor_lt_scalar (vd, 0.0, error)) == NULL ||
          !item_of ((any = gnn_tensor_any (neg, NULL, 0, FALSE, error)), &found, error))
        return NULL;
      if (found != 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "var has negative entry/entries");
          return NULL;
        }
    }
  /* 0.5 (log v + (input − target)² / v), v clamped at eps without stopping its gradient */
  if ((vc = clamp_min_no_grad (v, eps, error)) == NULL ||
      (lv = gnn_tensor_log (vc, error)) == NULL ||
      (d = gnn_tensor_sub (input, target, 1.0, error)) == NULL ||
      (d2 = gnn_tensor_mul (d, d, error)) == NULL ||
      (q = gnn_tensor_div (d2, vc, error)) == NULL ||
      (s = gnn_tensor_add (lv, q, 1.0, error)) == NULL ||
      (loss = gnn_tensor_mul_scalar (s, 0.5, error)) == NULL)
    return NULL;
  if (full)
    {
      GnnTensor *with_const = gnn_tensor_add_scalar (loss, 0.5 * log (2 * G_PI), error);

      g_clear_object (&loss);
      if ((loss = with_const) == NULL)
        return NULL;
    }
  return reduce (g_steal_pointer (&loss), reduction, error);
}

/**
 * gnn_tensor_gaussian_nll_loss:
 * @input: the predicted means
 * @target: the samples, broadcast with @input
 * @var: the predicted variances, non-negative: of @input's shape, or of @input's shape
 *   without its last size or with 1 as its last size (one variance shared along the last
 *   dimension)
 * @full: whether the constant 0.5 log (2π) is added
 * @eps: the least variance used, for stability; PyTorch's default is 1e-6
 * @reduction: how the losses are reduced
 * @error: return location for a #GError
 *
 * The Gaussian negative log likelihood (`torch.nn.functional.gaussian_nll_loss`):
 * 0.5 (log max (var, eps) + (input − target)² / max (var, eps)), reduced. As in PyTorch
 * the clamp at @eps does not stop the gradient of @var. A @var of another shape, or a
 * negative variance, is %GNN_ERROR_INVALID_ARGUMENT (PyTorch's ValueError).
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_gaussian_nll_loss (GnnTensor    *input,
                              GnnTensor    *target,
                              GnnTensor    *var,
                              gboolean      full,
                              double        eps,
                              GnnReduction  reduction,
                              GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (var), NULL);
  return named (gaussian_nll_loss (input, target, var, full, eps, reduction, error), "GaussianNLLLoss", error);
}

/* ---- HingeEmbeddingLoss ---------------------------------------------------------------- */

static GnnTensor *
hinge_embedding_loss (GnnTensor *input, GnnTensor *target, double margin, GnnReduction reduction,
                      GError **error)
{
  g_autoptr(GnnTensor) mx = NULL, mc = NULL, is_pos = NULL, is_neg = NULL, out_margin = NULL;
  g_autoptr(GnnTensor) out_self = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !gnn_loss_check_floating (input, "input", error))
    return NULL;
  /* max (0, margin − input) where target is not 1, plus input where target is not −1 */
  if ((mx = gnn_tensor_rsub_scalar (input, margin, error)) == NULL ||
      (mc = gnn_tensor_clamp_min (mx, 0.0, error)) == NULL ||
      (is_pos = gnn_tensor_eq_scalar (target, 1.0, error)) == NULL ||
      (is_neg = gnn_tensor_eq_scalar (target, -1.0, error)) == NULL ||
      (out_margin = gnn_where_scalar (is_pos, 0.0, mc, error)) == NULL ||
      (out_self = gnn_where_scalar (is_neg, 0.0, input, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_add (out_margin, out_self, 1.0, error), reduction, error);
}

/**
 * gnn_tensor_hinge_embedding_loss:
 * @input: the distances (or other scores)
 * @target: 1 or −1 for each element, broadcast with @input
 * @margin: the distance beyond which a dissimilar pair costs nothing; PyTorch's default is 1.0
 * @reduction: how the losses are reduced
 * @error: return location for a #GError
 *
 * The hinge embedding loss (`torch.nn.functional.hinge_embedding_loss`): @input where
 * @target is 1, max (0, @margin − @input) where it is −1, reduced (a target of another
 * value gets both terms, as in PyTorch).
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hinge_embedding_loss (GnnTensor    *input,
                                 GnnTensor    *target,
                                 double        margin,
                                 GnnReduction  reduction,
                                 GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_hinge_embedding_loss (c[0], c[1], margin, reduction, error),
                       error, input, target);
  return named (hinge_embedding_loss (input, target, margin, reduction, error), "HingeEmbeddingLoss", error);
}

/* ---- MarginRankingLoss ----------------------------------------------------------------- */

static GnnTensor *
margin_ranking_loss (GnnTensor *x1, GnnTensor *x2, GnnTensor *target, double margin,
                     GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) d = NULL, nt = NULL, p = NULL, m = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !gnn_loss_check_floating (x1, "input1", error) ||
      !gnn_loss_check_floating (x2, "input2", error))
    return NULL;
  if (gnn_tensor_get_ndim (x1) != gnn_tensor_get_ndim (x2) ||
      gnn_tensor_get_ndim (x1) != gnn_tensor_get_ndim (target))
    {
      g_autofree char *s1 = shape_of (x1);
      g_autofree char *s2 = shape_of (x2);
      g_autofree char *st = shape_of (target);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "All input tensors should have same dimension but got sizes: input1: %s, input2: %s, "
                   "target: %s", s1, s2, st);
      return NULL;
    }
  /* max (0, −target (input1 − input2) + margin) */
  if ((d = gnn_tensor_sub (x1, x2, 1.0, error)) == NULL ||
      (nt = gnn_tensor_neg (target, error)) == NULL ||
      (p = gnn_tensor_mul (nt, d, error)) == NULL ||
      (m = gnn_tensor_add_scalar (p, margin, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_clamp_min (m, 0.0, error), reduction, error);
}

/**
 * gnn_tensor_margin_ranking_loss:
 * @input1: the first scores
 * @input2: the second scores, with as many dimensions as @input1
 * @target: 1 where @input1 should rank higher, −1 where @input2 should, with as many
 *   dimensions as the inputs
 * @margin: the least difference that costs nothing; PyTorch's default is 0
 * @reduction: how the losses are reduced
 * @error: return location for a #GError
 *
 * The margin ranking loss (`torch.nn.functional.margin_ranking_loss`):
 * max (0, −target (input1 − input2) + margin), the three broadcast, reduced. Tensors of
 * different numbers of dimensions are %GNN_ERROR_SHAPE naming the three shapes, as in PyTorch.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_margin_ranking_loss (GnnTensor    *input1,
                                GnnTensor    *input2,
                                GnnTensor    *target,
                                double        margin,
                                GnnReduction  reduction,
                                GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input2), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c,
                       gnn_tensor_margin_ranking_loss (c[0], c[1], c[2], margin, reduction, error),
                       error, input1, input2, target);
  return named (margin_ranking_loss (input1, input2, target, margin, reduction, error),
                "MarginRankingLoss", error);
}

/* ---- MultiLabelMarginLoss -------------------------------------------------------------- */

/* the per-sample losses (nframe) reshaped as PyTorch returns them unreduced: (N) for a
 * matrix input, 0-d otherwise */
static GnnTensor *
margin_output (GnnTensor *per_sample, guint input_ndim, GnnTensor *target, gboolean like_target,
               GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) owned = per_sample;
  guint nt;
  const gint64 *st;

  if (per_sample == NULL)
    return NULL;
  if (reduction != GNN_REDUCTION_NONE)
    return reduce (g_steal_pointer (&owned), reduction, error);
  if (input_ndim == 2)
    return g_steal_pointer (&owned);
  st = gnn_tensor_get_shape (target, &nt);
  return like_target ? gnn_tensor_reshape (per_sample, st, nt, error)
                     : gnn_tensor_reshape (per_sample, NULL, 0, error);
}

static GnnTensor *
multilabel_margin_loss (GnnTensor *input, GnnTensor *target, GnnReduction reduction, GError **error)
{
  gint64 nframe, dim, shape2[2];
  guint ni = gnn_tensor_get_ndim (input), nt = gnn_tensor_get_ndim (target);
  const gint64 *si = gnn_tensor_get_shape (input, NULL), *st = gnn_tensor_get_shape (target, NULL);
  int dims12[2] = { 1, 2 };
  g_autoptr(GnnTensor) x = NULL, t = NULL, is_end = NULL, not_end = NULL, nef = NULL, valid = NULL;
  g_autoptr(GnnTensor) idx = NULL, zeros = NULL, count = NULL, is_target = NULL, xy = NULL;
  g_autoptr(GnnTensor) xy3 = NULL, x3 = NULL, m = NULL, h = NULL, hc = NULL, valid_b = NULL;
  g_autoptr(GnnTensor) valid3 = NULL, other = NULL, other3 = NULL, keep = NULL, drop = NULL;
  g_autoptr(GnnTensor) hk = NULL, s = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !check_margin_input (input, &nframe, &dim, error) ||
      !check_int64_target (target, error))
    return NULL;
  if ((ni <= 1 && !(nt <= 1 && gnn_tensor_get_numel (target) == dim)) ||
      (ni == 2 && !(nt == 2 && st[0] == si[0] && st[1] == si[1])))
    {
      g_autofree char *ts = shape_of (target);
      g_autofree char *is = shape_of (input);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "inconsistent size %s for target: expected the input shape %s", ts, is);
      return NULL;
    }
  if (!check_target_range (target, -1, dim, error))
    return NULL;
  shape2[0] = nframe;
  shape2[1] = dim;
  /* the targets of a sample are its entries before the first −1 */
  if ((x = gnn_tensor_reshape (input, shape2, 2, error)) == NULL ||
      (t = gnn_tensor_reshape (target, shape2, 2, error)) == NULL ||
      (is_end = gnn_tensor_eq_scalar (t, -1.0, error)) == NULL ||
      (not_end = gnn_tensor_logical_not (is_end, error)) == NULL ||
      (nef = gnn_tensor_to_dtype (not_end, gnn_tensor_get_dtype (input), error)) == NULL ||
      (valid = gnn_tensor_cumprod (nef, 1, error)) == NULL ||
      (idx = gnn_where_scalar (is_end, 0.0, t, error)) == NULL ||
      (zeros = gnn_tensor_new_zeros_like (x, gnn_tensor_get_dtype (input), 2, shape2, error)) == NULL ||
      (count = gnn_tensor_scatter_add (zeros, 1, idx, valid, error)) == NULL ||
      (is_target = gnn_tensor_gt_scalar (count, 0.0, error)) == NULL)
    return NULL;
  /* h[n, j, i] = max (0, 1 − x[n, y_j] + x[n, i]) over the targets j and the other classes i */
  if ((xy = gnn_tensor_gather (x, 1, idx, error)) == NULL ||
      (xy3 = gnn_tensor_unsqueeze (xy, 2, error)) == NULL ||
      (x3 = gnn_tensor_unsqueeze (x, 1, error)) == NULL ||
      (m = gnn_tensor_rsub_scalar (xy3, 1.0, error)) == NULL ||
      (h = gnn_tensor_add (m, x3, 1.0, error)) == NULL ||
      (hc = gnn_tensor_clamp_min (h, 0.0, error)) == NULL ||
      (valid_b = gnn_tensor_gt_scalar (valid, 0.0, error)) == NULL ||
      (valid3 = gnn_tensor_unsqueeze (valid_b, 2, error)) == NULL ||
      (other = gnn_tensor_logical_not (is_target, error)) == NULL ||
      (other3 = gnn_tensor_unsqueeze (other, 1, error)) == NULL ||
      (keep = gnn_tensor_logical_and (valid3, other3, error)) == NULL ||
      (drop = gnn_tensor_logical_not (keep, error)) == NULL ||
      (hk = gnn_where_scalar (drop, 0.0, hc, error)) == NULL ||
      (s = gnn_tensor_sum (hk, dims12, 2, FALSE, error)) == NULL)
    return NULL;
  return margin_output (gnn_tensor_div_scalar (s, (double) dim, error), ni, target, FALSE, reduction, error);
}

/**
 * gnn_tensor_multilabel_margin_loss:
 * @input: the scores, (C) or (N, C) (or 0-d, one class)
 * @target: int64 class indices of @input's shape: the targets of each sample are its
 *   entries before the first −1
 * @reduction: how the losses of the samples are reduced; unreduced they are (N) for a
 *   matrix input, 0-d for a vector
 * @error: return location for a #GError
 *
 * The multi-label margin loss (`torch.nn.functional.multilabel_margin_loss`): for each
 * sample, the sum over its targets j and the classes i that are not targets of
 * max (0, 1 − (input[y_j] − input[i])), divided by C, reduced. A target of another shape
 * or dtype is a %GNN_ERROR_SHAPE or %GNN_ERROR_DTYPE error, a target out of [−1, C)
 * %GNN_ERROR_INDEX.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_multilabel_margin_loss (GnnTensor    *input,
                                   GnnTensor    *target,
                                   GnnReduction  reduction,
                                   GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_multilabel_margin_loss (c[0], c[1], reduction, error),
                       error, input, target);
  return named (multilabel_margin_loss (input, target, reduction, error), "MultiLabelMarginLoss", error);
}

/* ---- MultiLabelSoftMarginLoss ---------------------------------------------------------- */

static GnnTensor *
multilabel_soft_margin_loss (GnnTensor *input, GnnTensor *target, GnnTensor *weight,
                             GnnReduction reduction, GError **error)
{
  guint ni = gnn_tensor_get_ndim (input);
  int class_dim;
  gint64 c;
  g_autoptr(GnnTensor) ls = NULL, nx = NULL, lsn = NULL, a = NULL, omt = NULL, b = NULL, s = NULL;
  g_autoptr(GnnTensor) loss = NULL, weighted = NULL, per = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !gnn_loss_check_floating (input, "input", error))
    return NULL;
  if (ni == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "expected an input of at least one dimension (..., C), got a 0-d tensor");
      return NULL;
    }
  class_dim = (int) ni - 1;
  c = gnn_tensor_get_shape (input, NULL)[class_dim];
  /* −(t log σ(x) + (1 − t) log σ(−x)), weighted, summed over the classes and divided by C */
  if ((ls = gnn_tensor_logsigmoid (input, error)) == NULL ||
      (nx = gnn_tensor_neg (input, error)) == NULL ||
      (lsn = gnn_tensor_logsigmoid (nx, error)) == NULL ||
      (a = gnn_tensor_mul (target, ls, error)) == NULL ||
      (omt = gnn_tensor_rsub_scalar (target, 1.0, error)) == NULL ||
      (b = gnn_tensor_mul (omt, lsn, error)) == NULL ||
      (s = gnn_tensor_add (a, b, 1.0, error)) == NULL ||
      (loss = gnn_tensor_neg (s, error)) == NULL)
    return NULL;
  if (weight != NULL && (weighted = gnn_tensor_mul (loss, weight, error)) == NULL)
    return NULL;
  if ((per = gnn_tensor_sum (weighted ? weighted : loss, &class_dim, 1, FALSE, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_div_scalar (per, (double) c, error), reduction, error);
}

/**
 * gnn_tensor_multilabel_soft_margin_loss:
 * @input: the logits, (..., C)
 * @target: 1 where a class applies, 0 where not, broadcast with @input
 * @weight: (nullable): a weight for each class, broadcast with @input
 * @reduction: how the losses of the samples are reduced; unreduced they have @input's shape
 *   without its last dimension
 * @error: return location for a #GError
 *
 * The multi-label soft margin loss (`torch.nn.functional.multilabel_soft_margin_loss`):
 * −(target log σ(input) + (1 − target) log σ(−input)), times @weight, summed over the last
 * dimension and divided by C, reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_multilabel_soft_margin_loss (GnnTensor    *input,
                                        GnnTensor    *target,
                                        GnnTensor    *weight,
                                        GnnReduction  reduction,
                                        GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  return named (multilabel_soft_margin_loss (input, target, weight, reduction, error),
                "MultiLabelSoftMarginLoss", error);
}

/* ---- MultiMarginLoss ------------------------------------------------------------------- */

static gboolean
check_multi_margin_p (int p, GError **error)
{
  if (p == 1 || p == 2)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "only p == 1 and p == 2 supported, got p = %d", p);
  return FALSE;
}

static GnnTensor *
multi_margin_loss (GnnTensor *input, GnnTensor *target, int p, double margin, GnnTensor *weight,
                   GnnReduction reduction, GError **error)
{
  gint64 nframe, dim, shape2[2], shape_col[2];
  int one = 1;
  g_autoptr(GnnTensor) x = NULL, t = NULL, tcol = NULL, xy = NULL, m = NULL, z = NULL, zc = NULL;
  g_autoptr(GnnTensor) zp = NULL, wy = NULL, wcol = NULL, zw = NULL, oh = NULL, self = NULL;
  g_autoptr(GnnTensor) zm = NULL, s = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !check_multi_margin_p (p, error) ||
      !check_margin_input (input, &nframe, &dim, error) || !check_int64_target (target, error))
    return NULL;
  if (weight != NULL && gnn_tensor_get_ndim (weight) != 1)
    {
      g_autofree char *ws = shape_of (weight);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "weight must be one-dimensional, got shape %s", ws);
      return NULL;
    }
  if (weight != NULL && gnn_tensor_get_numel (weight) != dim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "expected a weight of %" G_GINT64_FORMAT " elements (one per class), got %" G_GINT64_FORMAT,
                   dim, gnn_tensor_get_numel (weight));
      return NULL;
    }
  if (gnn_tensor_get_ndim (target) > 1 || gnn_tensor_get_numel (target) != nframe)
    {
      g_autofree char *ts = shape_of (target);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "inconsistent target size, expected %" G_GINT64_FORMAT " class indices, got: %s", nframe, ts);
      return NULL;
    }
  if (!check_target_range (target, 0, dim, error))
    return NULL;
  shape2[0] = nframe;
  shape2[1] = dim;
  shape_col[0] = nframe;
  shape_col[1] = 1;
  /* z[n, i] = max (0, margin − x[n, y] + x[n, i])^p w[y], over i ≠ y, summed and divided by C */
  if ((x = gnn_tensor_reshape (input, shape2, 2, error)) == NULL ||
      (t = gnn_tensor_reshape (target, &nframe, 1, error)) == NULL ||
      (tcol = gnn_tensor_reshape (target, shape_col, 2, error)) == NULL ||
      (xy = gnn_tensor_gather (x, 1, tcol, error)) == NULL ||
      (m = gnn_tensor_rsub_scalar (xy, margin, error)) == NULL ||
      (z = gnn_tensor_add (m, x, 1.0, error)) == NULL ||
      (zc = gnn_tensor_clamp_min (z, 0.0, error)) == NULL)
    return NULL;
  if (p == 2 && (zp = gnn_tensor_mul (zc, zc, error)) == NULL)
    return NULL;
  if (weight != NULL &&
      ((wy = gnn_tensor_index_select (weight, 0, t, error)) == NULL ||
       (wcol = gnn_tensor_unsqueeze (wy, 1, error)) == NULL ||
       (zw = gnn_tensor_mul (zp ? zp : zc, wcol, error)) == NULL))
    return NULL;
  if ((oh = gnn_tensor_one_hot (t, dim, error)) == NULL ||
      (self = gnn_tensor_eq_scalar (oh, 1.0, error)) == NULL ||
      (zm = gnn_where_scalar (self, 0.0, zw ? zw : zp ? zp : zc, error)) == NULL ||
      (s = gnn_tensor_sum (zm, &one, 1, FALSE, error)) == NULL)
    return NULL;
  return margin_output (gnn_tensor_div_scalar (s, (double) dim, error), gnn_tensor_get_ndim (input), target,
                        TRUE, reduction, error);
}

/**
 * gnn_tensor_multi_margin_loss:
 * @input: the scores, (C) or (N, C) (or 0-d, one class)
 * @target: the int64 class index of each sample, (N) (0-d or (1) for a vector input)
 * @p: 1 or 2, the power of the hinge; PyTorch's default is 1
 * @margin: the margin; PyTorch's default is 1.0
 * @weight: (nullable): a weight for each class, (C)
 * @reduction: how the losses of the samples are reduced; unreduced they are (N) for a
 *   matrix input, of @target's shape for a vector
 * @error: return location for a #GError
 *
 * The multi-class margin loss (`torch.nn.functional.multi_margin_loss`): for each sample,
 * the sum over the classes i other than its target y of
 * max (0, @margin − input[y] + input[i])^@p × weight[y], divided by C, reduced (the mean is
 * over the samples, unweighted, as in PyTorch). A @p other than 1 or 2, or a @weight of
 * other than one dimension, is %GNN_ERROR_INVALID_ARGUMENT (PyTorch's ValueError); a
 * target of another size %GNN_ERROR_SHAPE, out of [0, C) %GNN_ERROR_INDEX.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_multi_margin_loss (GnnTensor    *input,
                              GnnTensor    *target,
                              int           p,
                              double        margin,
                              GnnTensor    *weight,
                              GnnReduction  reduction,
                              GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c,
                       gnn_tensor_multi_margin_loss (c[0], c[1], p, margin, c[2], reduction, error),
                       error, input, target, weight);
  return named (multi_margin_loss (input, target, p, margin, weight, reduction, error), "MultiMarginLoss", error);
}

/* ---- PoissonNLLLoss -------------------------------------------------------------------- */

static GnnTensor *
poisson_nll_loss (GnnTensor *input, GnnTensor *target, gboolean log_input, gboolean full, double eps,
                  GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) e = NULL, tx = NULL, xe = NULL, lx = NULL, loss = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !gnn_loss_check_floating (input, "input", error))
    return NULL;
  if (log_input)
    {
      /* exp (input) − target input */
      if ((e = gnn_tensor_exp (input, error)) == NULL || (tx = gnn_tensor_mul (target, input, error)) == NULL ||
          (loss = gnn_tensor_sub (e, tx, 1.0, error)) == NULL)
        return NULL;
    }
  else
    {
      /* input − target log (input + eps) */
      if ((xe = gnn_tensor_add_scalar (input, eps, error)) == NULL || (lx = gnn_tensor_log (xe, error)) == NULL ||
          (tx = gnn_tensor_mul (target, lx, error)) == NULL || (loss = gnn_tensor_sub (input, tx, 1.0, error)) == NULL)
        return NULL;
    }
  if (full)
    {
      /* Stirling's term t log t − t + 0.5 log (2π t), where target > 1 */
      g_autoptr(GnnTensor) lt = NULL, tlt = NULL, a = NULL, t2 = NULL, l2 = NULL, h = NULL, st = NULL;
      g_autoptr(GnnTensor) small = NULL, stm = NULL;
      GnnTensor *sum;

      if ((lt = gnn_tensor_log (target, error)) == NULL || (tlt = gnn_tensor_mul (target, lt, error)) == NULL ||
          (a = gnn_tensor_sub (tlt, target, 1.0, error)) == NULL ||
          (t2 = gnn_tensor_mul_scalar (target, 2 * G_PI, error)) == NULL ||
          (l2 = gnn_tensor_log (t2, error)) == NULL || (h = gnn_tensor_mul_scalar (l2, 0.5, error)) == NULL ||
          (st = gnn_tensor_add (a, h, 1.0, error)) == NULL ||
          (small = gnn_tensor_le_scalar (target, 1.0, error)) == NULL ||
          (stm = gnn_where_scalar (small, 0.0, st, error)) == NULL)
        return NULL;
      sum = gnn_tensor_add (loss, stm, 1.0, error);
      g_clear_object (&loss);
      if ((loss = sum) == NULL)
        return NULL;
    }
  return reduce (g_steal_pointer (&loss), reduction, error);
}

/**
 * gnn_tensor_poisson_nll_loss:
 * @input: the predicted rates, or their logarithms when @log_input is %TRUE
 * @target: the counts, broadcast with @input
 * @log_input: whether @input holds log rates; PyTorch's default is %TRUE
 * @full: whether Stirling's approximation of log (target!) is added where target > 1
 * @eps: added to @input before its logarithm when @log_input is %FALSE; PyTorch's default
 *   is 1e-8
 * @reduction: how the losses are reduced
 * @error: return location for a #GError
 *
 * The Poisson negative log likelihood (`torch.nn.functional.poisson_nll_loss`):
 * exp (input) − target × input with @log_input, input − target × log (input + @eps)
 * without; with @full, target log target − target + 0.5 log (2π target) is added where
 * target > 1; reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_poisson_nll_loss (GnnTensor    *input,
                             GnnTensor    *target,
                             gboolean      log_input,
                             gboolean      full,
                             double        eps,
                             GnnReduction  reduction,
                             GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c,
                       gnn_tensor_poisson_nll_loss (c[0], c[1], log_input, full, eps, reduction, error),
                       error, input, target);
  return named (poisson_nll_loss (input, target, log_input, full, eps, reduction, error), "PoissonNLLLoss", error);
}

/* ---- SoftMarginLoss -------------------------------------------------------------------- */

static GnnTensor *
soft_margin_loss (GnnTensor *input, GnnTensor *target, GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) p = NULL, np = NULL, e = NULL;

  if (!gnn_loss_check_reduction (reduction, error) || !gnn_loss_check_floating (input, "input", error))
    return NULL;
  /* log (1 + exp (−target input)) */
  if ((p = gnn_tensor_mul (input, target, error)) == NULL || (np = gnn_tensor_neg (p, error)) == NULL ||
      (e = gnn_tensor_exp (np, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_log1p (e, error), reduction, error);
}

/**
 * gnn_tensor_soft_margin_loss:
 * @input: the scores
 * @target: 1 or −1 for each element, broadcast with @input
 * @reduction: how the losses are reduced
 * @error: return location for a #GError
 *
 * The two-class logistic loss (`torch.nn.functional.soft_margin_loss`):
 * log (1 + exp (−target × input)), reduced.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_soft_margin_loss (GnnTensor    *input,
                             GnnTensor    *target,
                             GnnReduction  reduction,
                             GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c, gnn_tensor_soft_margin_loss (c[0], c[1], reduction, error),
                       error, input, target);
  return named (soft_margin_loss (input, target, reduction, error), "SoftMarginLoss", error);
}

/* ---- TripletMarginLoss and TripletMarginWithDistanceLoss ------------------------------- */

/* max (0, margin + d_ap − d_an) from the three distances (d_pn %NULL without swap) */
static GnnTensor *
triplet_from_distances (GnnTensor *d_ap, GnnTensor *d_an, GnnTensor *d_pn, double margin,
                        GnnReduction reduction, GError **error)
{
  g_autoptr(GnnTensor) dn = NULL, d = NULL, m = NULL;

  if (d_pn != NULL)
    {
      if ((dn = gnn_tensor_minimum (d_an, d_pn, error)) == NULL)
        return NULL;
    }
  else
    dn = g_object_ref (d_an);
  if ((d = gnn_tensor_sub (d_ap, dn, 1.0, error)) == NULL || (m = gnn_tensor_add_scalar (d, margin, error)) == NULL)
    return NULL;
  return reduce (gnn_tensor_clamp_min (m, 0.0, error), reduction, error);
}

static GnnTensor *
triplet_margin_loss (GnnTensor *a, GnnTensor *p, GnnTensor *n, double margin, double norm, double eps,
                     gboolean swap, GnnReduction reduction, GError **error)
{
  guint na = gnn_tensor_get_ndim (a), np = gnn_tensor_get_ndim (p), nn = gnn_tensor_get_ndim (n);
  g_autoptr(GnnTensor) d_ap = NULL, d_an = NULL, d_pn = NULL;

  if (!gnn_loss_check_reduction (reduction, error))
    return NULL;
  if (na != np || np != nn)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "All inputs should have same dimension but got %uD, %uD and %uD inputs.", na, np, nn);
      return NULL;
    }
  if ((d_ap = gnn_tensor_pairwise_distance (a, p, norm, eps, FALSE, error)) == NULL ||
      (d_an = gnn_tensor_pairwise_distance (a, n, norm, eps, FALSE, error)) == NULL ||
      (swap && (d_pn = gnn_tensor_pairwise_distance (p, n, norm, eps, FALSE, error)) == NULL))
    return NULL;
  return triplet_from_distances (d_ap, d_an, d_pn, margin, reduction, error);
}

/**
 * gnn_tensor_triplet_margin_loss:
 * @anchor: the anchors, (N, D) or (D)
 * @positive: the positive examples, with as many dimensions as @anchor
 * @negative: the negative examples, with as many dimensions as @anchor
 * @margin: the margin; PyTorch's default is 1.0
 * @p: the norm of the pairwise distance; PyTorch's default is 2
 * @eps: added to the differences before the norm; PyTorch's default is 1e-6
 * @swap: whether the distance of @negative to @positive replaces its distance to @anchor
 *   when smaller (the distance swap)
 * @reduction: how the losses of the triplets are reduced
 * @error: return location for a #GError
 *
 * The triplet margin loss (`torch.nn.functional.triplet_margin_loss`):
 * max (0, @margin + d (anchor, positive) − d (anchor, negative)) with d
 * [method@Gnn.Tensor.pairwise_distance], reduced. Inputs of different numbers of
 * dimensions are %GNN_ERROR_SHAPE naming them.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_triplet_margin_loss (GnnTensor    *anchor,
                                GnnTensor    *positive,
                                GnnTensor    *negative,
                                double        margin,
                                double        p,
                                double        eps,
                                gboolean      swap,
                                GnnReduction  reduction,
                                GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (anchor), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (positive), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (negative), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_LOSS, c,
                       gnn_tensor_triplet_margin_loss (c[0], c[1], c[2], margin, p, eps, swap, reduction, error),
                       error, anchor, positive, negative);
  return named (triplet_margin_loss (anchor, positive, negative, margin, p, eps, swap, reduction, error),
                "TripletMarginLoss", error);
}

/* the distance of @x1 and @x2 by @func, or by the module @child, or the pairwise distance */
static GnnTensor *
distance_of (GnnDistanceFunc func, gpointer user_data, GnnModule *child, GnnTensor *x1, GnnTensor *x2,
             GError **error)
{
  GnnTensor *d;

  if (func == NULL && child != NULL)
    {
      g_autoptr(GnnArgs) in = gnn_args_new ();
      g_autoptr(GnnArgs) out = NULL;

      gnn_args_add_tensor (in, x1);
      gnn_args_add_tensor (in, x2);
      if ((out = gnn_module_forward (child, in, error)) == NULL || (d = gnn_args_get_tensor (out, 0, error)) == NULL)
        return NULL;
      return g_object_ref (d);
    }
  if (func == NULL)
    return gnn_tensor_pairwise_distance (x1, x2, 2.0, 1e-6, FALSE, error);
  d = func (x1, x2, user_data);
  if (d == NULL || !GNN_IS_TENSOR (d))
    {
      g_clear_object (&d);
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FAILED,
                           "expected a tensor from distance_function, got none");
    }
  return d;
}

static GnnTensor *
triplet_margin_with_distance_loss (GnnTensor *a, GnnTensor *p, GnnTensor *n, GnnDistanceFunc func,
                                   gpointer user_data, GnnModule *child, double margin, gboolean swap, GnnReduction reduction,
                                   GError **error)
{
  g_autoptr(GnnTensor) d_ap = NULL, d_an = NULL, d_pn = NULL;

  if (!gnn_loss_check_reduction (reduction, error))
    return NULL;
  if ((d_ap = distance_of (func, user_data, child, a, p, error)) == NULL ||
      (d_an = distance_of (func, user_data, child, a, n, error)) == NULL ||
      (swap && (d_pn = distance_of (func, user_data, child, p, n, error)) == NULL))
    return NULL;
  return triplet_from_distances (d_ap, d_an, d_pn, margin, reduction, error);
}

/**
 * gnn_tensor_triplet_margin_with_distance_loss:
 * @anchor: the anchors
 * @positive: the positive examples
 * @negative: the negative examples
 * @distance_function: (scope call) (nullable): the distance of two tensors of examples;
 *   %NULL for [method@Gnn.Tensor.pairwise_distance] with p = 2, as PyTorch's default
 * @user_data: (closure distance_function): data for @distance_function
 * @margin: the margin; PyTorch's default is 1.0
 * @swap: whether the distance of @negative to @positive replaces its distance to @anchor
 *   when smaller
 * @reduction: how the losses of the triplets are reduced
 * @error: return location for a #GError
 *
 * The triplet margin loss with a distance function
 * (`torch.nn.functional.triplet_margin_with_distance_loss`):
 * max (0, @margin + d (anchor, positive) − d (anchor, negative)), reduced. A
 * @distance_function returning %NULL fails with %GNN_ERROR_FAILED.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_triplet_margin_with_distance_loss (GnnTensor       *anchor,
                                              GnnTensor       *positive,
                                              GnnTensor       *negative,
                                              GnnDistanceFunc  distance_function,
                                              gpointer         user_data,
                                              double           margin,
                                              gboolean         swap,
                                              GnnReduction     reduction,
                                              GError         **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (anchor), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (positive), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (negative), NULL);
  return named (triplet_margin_with_distance_loss (anchor, positive, negative, distance_function, user_data,
                                                   NULL, margin, swap, reduction, error),
                "TripletMarginWithDistanceLoss", error);
}

/* ---- modules --------------------------------------------------------------------------- */

#define REDUCTION(module) gnn_loss_get_reduction (GNN_LOSS (module))

/* the @n positional tensors of a loss module's forward, named in @what for the error */
static gboolean
loss_inputs (GnnArgs    *input,
             const char *name,
             const char *what,
             GnnTensor **t,
             guint       n,
             GError    **error)
{
  for (guint i = 0; i < n; i++)
    if ((t[i] = gnn_args_get_tensor (input, i, error)) == NULL)
      {
        g_prefix_error (error, "%s: expected %s: ", name, what);
        return FALSE;
      }
  return TRUE;
}

#define MARGIN_PROP(TypeName, default_value) GNN_LOSS_DOUBLE_PROP (TypeName, margin, "margin", default_value)

/* ---- CosineEmbeddingLoss --------------------------------------------------------------- */

/**
 * GnnCosineEmbeddingLoss:
 *
 * The cosine embedding loss as a module (`torch.nn.CosineEmbeddingLoss`); its forward
 * takes (input1, input2, target). See [method@Gnn.Tensor.cosine_embedding_loss].
 *
 * Since: 0.1
 */
struct _GnnCosineEmbeddingLoss
{
  GnnLoss parent_instance;

  double margin;
};

enum { COSINE_PROP_0, COSINE_PROP_MARGIN, COSINE_N_PROPS };
static GnnProp cosine_props[COSINE_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCosineEmbeddingLoss, gnn_cosine_embedding_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_cosine_embedding_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *t[3];

  if (!loss_inputs (input, "CosineEmbeddingLoss", "(input1, input2, target)", t, 3, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_cosine_embedding_loss (t[0], t[1], t[2],
                                                                 GNN_COSINE_EMBEDDING_LOSS (module)->margin,
                                                                 REDUCTION (module), error));
}

static void
gnn_cosine_embedding_loss_class_init (GnnCosineEmbeddingLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_cosine_embedding_loss_forward;

  /**
   * GnnCosineEmbeddingLoss:margin:
   *
   * The cosine below which a dissimilar pair costs nothing (`margin`); PyTorch's default is 0.
   *
   * Since: 0.1
   */
  cosine_props[COSINE_PROP_MARGIN] = MARGIN_PROP (GnnCosineEmbeddingLoss, 0.0);
  gnn_props_install (G_OBJECT_CLASS (klass), cosine_props, COSINE_N_PROPS);
}

static void
gnn_cosine_embedding_loss_init (GnnCosineEmbeddingLoss *self)
{
}

/**
 * gnn_cosine_embedding_loss_new:
 * @margin: the margin; PyTorch's default is 0
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a CosineEmbeddingLoss module (`nn.CosineEmbeddingLoss (margin=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnCosineEmbeddingLoss *
gnn_cosine_embedding_loss_new (double       margin,
                               GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_COSINE_EMBEDDING_LOSS, "margin", margin, "reduction", reduction, NULL);
}

/* ---- GaussianNLLLoss ------------------------------------------------------------------- */

/**
 * GnnGaussianNLLLoss:
 *
 * The Gaussian negative log likelihood as a module (`torch.nn.GaussianNLLLoss`); its
 * forward takes (input, target, var). See [method@Gnn.Tensor.gaussian_nll_loss].
 *
 * Since: 0.1
 */
struct _GnnGaussianNLLLoss
{
  GnnLoss parent_instance;

  gboolean full;
  double eps;
};

enum { GAUSSIAN_PROP_0, GAUSSIAN_PROP_FULL, GAUSSIAN_PROP_EPS, GAUSSIAN_N_PROPS };
static GnnProp gaussian_props[GAUSSIAN_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnGaussianNLLLoss, gnn_gaussian_nll_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_gaussian_nll_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnGaussianNLLLoss *self = GNN_GAUSSIAN_NLL_LOSS (module);
  GnnTensor *t[3];

  if (!loss_inputs (input, "GaussianNLLLoss", "(input, target, var)", t, 3, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_gaussian_nll_loss (t[0], t[1], t[2], self->full, self->eps,
                                                             REDUCTION (module), error));
}

static void
gnn_gaussian_nll_loss_class_init (GnnGaussianNLLLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_gaussian_nll_loss_forward;

  /**
   * GnnGaussianNLLLoss:full:
   *
   * Whether the constant 0.5 log (2π) is added (`full`); PyTorch's default is %FALSE.
   *
   * Since: 0.1
   */
  gaussian_props[GAUSSIAN_PROP_FULL] = GNN_LOSS_BOOLEAN_PROP (GnnGaussianNLLLoss, full, "full", FALSE);
  /**
   * GnnGaussianNLLLoss:eps:
   *
   * The least variance used (`eps`); PyTorch's default is 1e-6.
   *
   * Since: 0.1
   */
  gaussian_props[GAUSSIAN_PROP_EPS] = GNN_LOSS_DOUBLE_PROP (GnnGaussianNLLLoss, eps, "eps", 1e-6);
  gnn_props_install (G_OBJECT_CLASS (klass), gaussian_props, GAUSSIAN_N_PROPS);
}

static void
gnn_gaussian_nll_loss_init (GnnGaussianNLLLoss *self)
{
}

/**
 * gnn_gaussian_nll_loss_new:
 * @full: whether the constant term is added; PyTorch's default is %FALSE
 * @eps: the least variance used; PyTorch's default is 1e-6
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a GaussianNLLLoss module (`nn.GaussianNLLLoss (full=..., eps=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnGaussianNLLLoss *
gnn_gaussian_nll_loss_new (gboolean     full,
                           double       eps,
                           GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_GAUSSIAN_NLL_LOSS, "full", full, "eps", eps, "reduction", reduction, NULL);
}

/* ---- HingeEmbeddingLoss ---------------------------------------------------------------- */

/**
 * GnnHingeEmbeddingLoss:
 *
 * The hinge embedding loss as a module (`torch.nn.HingeEmbeddingLoss`); see
 * [method@Gnn.Tensor.hinge_embedding_loss].
 *
 * Since: 0.1
 */
struct _GnnHingeEmbeddingLoss
{
  GnnLoss parent_instance;

  double margin;
};

enum { HINGE_PROP_0, HINGE_PROP_MARGIN, HINGE_N_PROPS };
static GnnProp hinge_props[HINGE_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnHingeEmbeddingLoss, gnn_hinge_embedding_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_hinge_embedding_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *t[2];

  if (!loss_inputs (input, "HingeEmbeddingLoss", "(input, target)", t, 2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_hinge_embedding_loss (t[0], t[1], GNN_HINGE_EMBEDDING_LOSS (module)->margin,
                                                                REDUCTION (module), error));
}

static void
gnn_hinge_embedding_loss_class_init (GnnHingeEmbeddingLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_hinge_embedding_loss_forward;

  /**
   * GnnHingeEmbeddingLoss:margin:
   *
   * The distance beyond which a dissimilar pair costs nothing (`margin`); PyTorch's default
   * is 1.0.
   *
   * Since: 0.1
   */
  hinge_props[HINGE_PROP_MARGIN] = MARGIN_PROP (GnnHingeEmbeddingLoss, 1.0);
  gnn_props_install (G_OBJECT_CLASS (klass), hinge_props, HINGE_N_PROPS);
}

static void
gnn_hinge_embedding_loss_init (GnnHingeEmbeddingLoss *self)
{
}

/**
 * gnn_hinge_embedding_loss_new:
 * @margin: the margin; PyTorch's default is 1.0
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a HingeEmbeddingLoss module (`nn.HingeEmbeddingLoss (margin=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnHingeEmbeddingLoss *
gnn_hinge_embedding_loss_new (double       margin,
                              GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_HINGE_EMBEDDING_LOSS, "margin", margin, "reduction", reduction, NULL);
}

/* ---- MarginRankingLoss ----------------------------------------------------------------- */

/**
 * GnnMarginRankingLoss:
 *
 * The margin ranking loss as a module (`torch.nn.MarginRankingLoss`); its forward takes
 * (input1, input2, target). See [method@Gnn.Tensor.margin_ranking_loss].
 *
 * Since: 0.1
 */
struct _GnnMarginRankingLoss
{
  GnnLoss parent_instance;

  double margin;
};

enum { RANKING_PROP_0, RANKING_PROP_MARGIN, RANKING_N_PROPS };
static GnnProp ranking_props[RANKING_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnMarginRankingLoss, gnn_margin_ranking_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_margin_ranking_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *t[3];

  if (!loss_inputs (input, "MarginRankingLoss", "(input1, input2, target)", t, 3, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_margin_ranking_loss (t[0], t[1], t[2],
                                                               GNN_MARGIN_RANKING_LOSS (module)->margin,
                                                               REDUCTION (module), error));
}

static void
gnn_margin_ranking_loss_class_init (GnnMarginRankingLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_margin_ranking_loss_forward;

  /**
   * GnnMarginRankingLoss:margin:
   *
   * The least difference that costs nothing (`margin`); PyTorch's default is 0.
   *
   * Since: 0.1
   */
  ranking_props[RANKING_PROP_MARGIN] = MARGIN_PROP (GnnMarginRankingLoss, 0.0);
  gnn_props_install (G_OBJECT_CLASS (klass), ranking_props, RANKING_N_PROPS);
}

static void
gnn_margin_ranking_loss_init (GnnMarginRankingLoss *self)
{
}

/**
 * gnn_margin_ranking_loss_new:
 * @margin: the margin; PyTorch's default is 0
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a MarginRankingLoss module (`nn.MarginRankingLoss (margin=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnMarginRankingLoss *
gnn_margin_ranking_loss_new (double       margin,
                             GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_MARGIN_RANKING_LOSS, "margin", margin, "reduction", reduction, NULL);
}

/* ---- MultiLabelMarginLoss -------------------------------------------------------------- */

/**
 * GnnMultiLabelMarginLoss:
 *
 * The multi-label margin loss as a module (`torch.nn.MultiLabelMarginLoss`); see
 * [method@Gnn.Tensor.multilabel_margin_loss].
 *
 * Since: 0.1
 */
struct _GnnMultiLabelMarginLoss
{
  GnnLoss parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnMultiLabelMarginLoss, gnn_multi_label_margin_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_multi_label_margin_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *t[2];

  if (!loss_inputs (input, "MultiLabelMarginLoss", "(input, target)", t, 2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_multilabel_margin_loss (t[0], t[1], REDUCTION (module), error));
}

static void
gnn_multi_label_margin_loss_class_init (GnnMultiLabelMarginLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_multi_label_margin_loss_forward;
}

static void
gnn_multi_label_margin_loss_init (GnnMultiLabelMarginLoss *self)
{
}

/**
 * gnn_multi_label_margin_loss_new:
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a MultiLabelMarginLoss module (`nn.MultiLabelMarginLoss (reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnMultiLabelMarginLoss *
gnn_multi_label_margin_loss_new (GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_MULTI_LABEL_MARGIN_LOSS, "reduction", reduction, NULL);
}

/* ---- MultiLabelSoftMarginLoss ---------------------------------------------------------- */

/**
 * GnnMultiLabelSoftMarginLoss:
 *
 * The multi-label soft margin loss as a module (`torch.nn.MultiLabelSoftMarginLoss`); see
 * [method@Gnn.Tensor.multilabel_soft_margin_loss]. The optional weight is the buffer
 * `weight`, as in PyTorch.
 *
 * Since: 0.1
 */
struct _GnnMultiLabelSoftMarginLoss
{
  GnnLoss parent_instance;

  GnnTensor *weight; /* the construct value, registered as a buffer in setup */
};

enum { MLSM_PROP_0, MLSM_PROP_WEIGHT, MLSM_N_PROPS };
static GnnProp mlsm_props[MLSM_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnMultiLabelSoftMarginLoss, gnn_multi_label_soft_margin_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_multi_label_soft_margin_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *t[2];

  if (!loss_inputs (input, "MultiLabelSoftMarginLoss", "(input, target)", t, 2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_multilabel_soft_margin_loss (t[0], t[1],
                                                                       gnn_module_get_buffer (module, "weight", NULL),
                                                                       REDUCTION (module), error));
}

static gboolean
gnn_multi_label_soft_margin_loss_setup (GnnModule *module, GError **error)
{
  if (!GNN_MODULE_CLASS (gnn_multi_label_soft_margin_loss_parent_class)->setup (module, error))
    return FALSE;
  return gnn_module_register_buffer (module, "weight", GNN_MULTI_LABEL_SOFT_MARGIN_LOSS (module)->weight,
                                     TRUE, error);
}

static void
gnn_multi_label_soft_margin_loss_class_init (GnnMultiLabelSoftMarginLossClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_multi_label_soft_margin_loss_forward;
  module_class->setup = gnn_multi_label_soft_margin_loss_setup;

  /**
   * GnnMultiLabelSoftMarginLoss:weight:
   *
   * A weight for each class (`weight`), or %NULL; held as the buffer `weight`.
   *
   * Since: 0.1
   */
  mlsm_props[MLSM_PROP_WEIGHT] = GNN_LOSS_WEIGHT_PROP (GnnMultiLabelSoftMarginLoss, weight, "weight");
  gnn_props_install (G_OBJECT_CLASS (klass), mlsm_props, MLSM_N_PROPS);
}

static void
gnn_multi_label_soft_margin_loss_init (GnnMultiLabelSoftMarginLoss *self)
{
}

/**
 * gnn_multi_label_soft_margin_loss_new:
 * @weight: (nullable): a weight for each class
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a MultiLabelSoftMarginLoss module (`nn.MultiLabelSoftMarginLoss (weight=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnMultiLabelSoftMarginLoss *
gnn_multi_label_soft_margin_loss_new (GnnTensor    *weight,
                                      GnnReduction  reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  return g_object_new (GNN_TYPE_MULTI_LABEL_SOFT_MARGIN_LOSS, "weight", weight, "reduction", reduction, NULL);
}

/* ---- MultiMarginLoss ------------------------------------------------------------------- */

/**
 * GnnMultiMarginLoss:
 *
 * The multi-class margin loss as a module (`torch.nn.MultiMarginLoss`); see
 * [method@Gnn.Tensor.multi_margin_loss]. The optional weight is the buffer `weight`, as in
 * PyTorch.
 *
 * Since: 0.1
 */
struct _GnnMultiMarginLoss
{
  GnnLoss parent_instance;

  int p;
  double margin;
  GnnTensor *weight;
};

enum { MULTI_PROP_0, MULTI_PROP_P, MULTI_PROP_MARGIN, MULTI_PROP_WEIGHT, MULTI_N_PROPS };
static GnnProp multi_props[MULTI_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnMultiMarginLoss, gnn_multi_margin_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_multi_margin_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnMultiMarginLoss *self = GNN_MULTI_MARGIN_LOSS (module);
  GnnTensor *t[2];

  if (!loss_inputs (input, "MultiMarginLoss", "(input, target)", t, 2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_multi_margin_loss (t[0], t[1], self->p, self->margin,
                                                             gnn_module_get_buffer (module, "weight", NULL),
                                                             REDUCTION (module), error));
}

static gboolean
gnn_multi_margin_loss_setup (GnnModule *module, GError **error)
{
  GnnMultiMarginLoss *self = GNN_MULTI_MARGIN_LOSS (module);

  if (!GNN_MODULE_CLASS (gnn_multi_margin_loss_parent_class)->setup (module, error))
    return FALSE;
  if (self->weight != NULL && gnn_tensor_get_ndim (self->weight) != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "MultiMarginLoss: weight must be one-dimensional, got %u dimensions",
                   gnn_tensor_get_ndim (self->weight));
      return FALSE;
    }
  return gnn_module_register_buffer (module, "weight", self->weight, TRUE, error);
}

static gboolean
check_p (GParamSpec *pspec, const GValue *value, GError **error)
{
  return check_multi_margin_p (g_value_get_int (value), error);
}

static void
gnn_multi_margin_loss_class_init (GnnMultiMarginLossClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_multi_margin_loss_forward;
  module_class->setup = gnn_multi_margin_loss_setup;

  /**
   * GnnMultiMarginLoss:p:
   *
   * The power of the hinge (`p`), 1 or 2; PyTorch's default is 1.
   *
   * Since: 0.1
   */
  multi_props[MULTI_PROP_P] = (GnnProp) {
    g_param_spec_int ("p", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnMultiMarginLoss, p), check_p };
  /**
   * GnnMultiMarginLoss:margin:
   *
   * The margin (`margin`); PyTorch's default is 1.0.
   *
   * Since: 0.1
   */
  multi_props[MULTI_PROP_MARGIN] = MARGIN_PROP (GnnMultiMarginLoss, 1.0);
  /**
   * GnnMultiMarginLoss:weight:
   *
   * A weight for each class (`weight`), one-dimensional, or %NULL; held as the buffer `weight`.
   *
   * Since: 0.1
   */
  multi_props[MULTI_PROP_WEIGHT] = GNN_LOSS_WEIGHT_PROP (GnnMultiMarginLoss, weight, "weight");
  gnn_props_install (G_OBJECT_CLASS (klass), multi_props, MULTI_N_PROPS);
}

static void
gnn_multi_margin_loss_init (GnnMultiMarginLoss *self)
{
}

/**
 * gnn_multi_margin_loss_new:
 * @p: 1 or 2; PyTorch's default is 1
 * @margin: the margin; PyTorch's default is 1.0
 * @weight: (nullable): a weight for each class
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a MultiMarginLoss module (`nn.MultiMarginLoss (p=..., margin=..., weight=...,
 * reduction=...)`); a @p other than 1 or 2 fails at setup (gnn_module_setup ()).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnMultiMarginLoss *
gnn_multi_margin_loss_new (int           p,
                           double        margin,
                           GnnTensor    *weight,
                           GnnReduction  reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  return g_object_new (GNN_TYPE_MULTI_MARGIN_LOSS, "p", p, "margin", margin, "weight", weight,
                       "reduction", reduction, NULL);
}

/* ---- PoissonNLLLoss -------------------------------------------------------------------- */

/**
 * GnnPoissonNLLLoss:
 *
 * The Poisson negative log likelihood as a module (`torch.nn.PoissonNLLLoss`); see
 * [method@Gnn.Tensor.poisson_nll_loss].
 *
 * Since: 0.1
 */
struct _GnnPoissonNLLLoss
{
  GnnLoss parent_instance;

  gboolean log_input;
  gboolean full;
  double eps;
};

enum { POISSON_PROP_0, POISSON_PROP_LOG_INPUT, POISSON_PROP_FULL, POISSON_PROP_EPS, POISSON_N_PROPS };
static GnnProp poisson_props[POISSON_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnPoissonNLLLoss, gnn_poisson_nll_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_poisson_nll_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnPoissonNLLLoss *self = GNN_POISSON_NLL_LOSS (module);
  GnnTensor *t[2];

  if (!loss_inputs (input, "PoissonNLLLoss", "(log_input, target)", t, 2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_poisson_nll_loss (t[0], t[1], self->log_input, self->full, self->eps,
                                                            REDUCTION (module), error));
}

static void
gnn_poisson_nll_loss_class_init (GnnPoissonNLLLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_poisson_nll_loss_forward;

  /**
   * GnnPoissonNLLLoss:log-input:
   *
   * Whether the input holds log rates (`log_input`); PyTorch's default is %TRUE.
   *
   * Since: 0.1
   */
  poisson_props[POISSON_PROP_LOG_INPUT] = GNN_LOSS_BOOLEAN_PROP (GnnPoissonNLLLoss, log_input, "log-input", TRUE);
  /**
   * GnnPoissonNLLLoss:full:
   *
   * Whether Stirling's term is added (`full`); PyTorch's default is %FALSE.
   *
   * Since: 0.1
   */
  poisson_props[POISSON_PROP_FULL] = GNN_LOSS_BOOLEAN_PROP (GnnPoissonNLLLoss, full, "full", FALSE);
  /**
   * GnnPoissonNLLLoss:eps:
   *
   * Added to the input before its logarithm when [property@Gnn.PoissonNLLLoss:log-input]
   * is %FALSE (`eps`); PyTorch's default is 1e-8.
   *
   * Since: 0.1
   */
  poisson_props[POISSON_PROP_EPS] = GNN_LOSS_DOUBLE_PROP (GnnPoissonNLLLoss, eps, "eps", 1e-8);
  gnn_props_install (G_OBJECT_CLASS (klass), poisson_props, POISSON_N_PROPS);
}

static void
gnn_poisson_nll_loss_init (GnnPoissonNLLLoss *self)
{
}

/**
 * gnn_poisson_nll_loss_new:
 * @log_input: whether the input holds log rates; PyTorch's default is %TRUE
 * @full: whether Stirling's term is added; PyTorch's default is %FALSE
 * @eps: PyTorch's default is 1e-8
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a PoissonNLLLoss module (`nn.PoissonNLLLoss (log_input=..., full=..., eps=...,
 * reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnPoissonNLLLoss *
gnn_poisson_nll_loss_new (gboolean     log_input,
                          gboolean     full,
                          double       eps,
                          GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_POISSON_NLL_LOSS, "log-input", log_input, "full", full, "eps", eps,
                       "reduction", reduction, NULL);
}

/* ---- SoftMarginLoss -------------------------------------------------------------------- */

/**
 * GnnSoftMarginLoss:
 *
 * The two-class logistic loss as a module (`torch.nn.SoftMarginLoss`); see
 * [method@Gnn.Tensor.soft_margin_loss].
 *
 * Since: 0.1
 */
struct _GnnSoftMarginLoss
{
  GnnLoss parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnSoftMarginLoss, gnn_soft_margin_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_soft_margin_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *t[2];

  if (!loss_inputs (input, "SoftMarginLoss", "(input, target)", t, 2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_soft_margin_loss (t[0], t[1], REDUCTION (module), error));
}

static void
gnn_soft_margin_loss_class_init (GnnSoftMarginLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_soft_margin_loss_forward;
}

static void
gnn_soft_margin_loss_init (GnnSoftMarginLoss *self)
{
}

/**
 * gnn_soft_margin_loss_new:
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a SoftMarginLoss module (`nn.SoftMarginLoss (reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnSoftMarginLoss *
gnn_soft_margin_loss_new (GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_SOFT_MARGIN_LOSS, "reduction", reduction, NULL);
}

/* ---- TripletMarginLoss ----------------------------------------------------------------- */

/**
 * GnnTripletMarginLoss:
 *
 * The triplet margin loss as a module (`torch.nn.TripletMarginLoss`); its forward takes
 * (anchor, positive, negative). See [method@Gnn.Tensor.triplet_margin_loss].
 *
 * Since: 0.1
 */
struct _GnnTripletMarginLoss
{
  GnnLoss parent_instance;

  double margin;
  double p;
  double eps;
  gboolean swap;
};

enum { TRIPLET_PROP_0, TRIPLET_PROP_MARGIN, TRIPLET_PROP_P, TRIPLET_PROP_EPS, TRIPLET_PROP_SWAP,
       TRIPLET_N_PROPS };
static GnnProp triplet_props[TRIPLET_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnTripletMarginLoss, gnn_triplet_margin_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_triplet_margin_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTripletMarginLoss *self = GNN_TRIPLET_MARGIN_LOSS (module);
  GnnTensor *t[3];

  if (!loss_inputs (input, "TripletMarginLoss", "(anchor, positive, negative)", t, 3, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_triplet_margin_loss (t[0], t[1], t[2], self->margin, self->p, self->eps,
                                                               self->swap, REDUCTION (module), error));
}

static void
gnn_triplet_margin_loss_class_init (GnnTripletMarginLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_triplet_margin_loss_forward;

  /**
   * GnnTripletMarginLoss:margin:
   *
   * The margin (`margin`); PyTorch's default is 1.0.
   *
   * Since: 0.1
   */
  triplet_props[TRIPLET_PROP_MARGIN] = MARGIN_PROP (GnnTripletMarginLoss, 1.0);
  /**
   * GnnTripletMarginLoss:p:
   *
   * The norm of the pairwise distance (`p`); PyTorch's default is 2.
   *
   * Since: 0.1
   */
  triplet_props[TRIPLET_PROP_P] = GNN_LOSS_DOUBLE_PROP (GnnTripletMarginLoss, p, "p", 2.0);
  /**
   * GnnTripletMarginLoss:eps:
   *
   * Added to the differences before the norm (`eps`); PyTorch's default is 1e-6.
   *
   * Since: 0.1
   */
  triplet_props[TRIPLET_PROP_EPS] = GNN_LOSS_DOUBLE_PROP (GnnTripletMarginLoss, eps, "eps", 1e-6);
  /**
   * GnnTripletMarginLoss:swap:
   *
   * Whether the distance swap is used (`swap`); PyTorch's default is %FALSE.
   *
   * Since: 0.1
   */
  triplet_props[TRIPLET_PROP_SWAP] = GNN_LOSS_BOOLEAN_PROP (GnnTripletMarginLoss, swap, "swap", FALSE);
  gnn_props_install (G_OBJECT_CLASS (klass), triplet_props, TRIPLET_N_PROPS);
}

static void
gnn_triplet_margin_loss_init (GnnTripletMarginLoss *self)
{
}

/**
 * gnn_triplet_margin_loss_new:
 * @margin: PyTorch's default is 1.0
 * @p: the norm; PyTorch's default is 2
 * @eps: PyTorch's default is 1e-6
 * @swap: whether the distance swap is used; PyTorch's default is %FALSE
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a TripletMarginLoss module (`nn.TripletMarginLoss (margin=..., p=..., eps=...,
 * swap=..., reduction=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnTripletMarginLoss *
gnn_triplet_margin_loss_new (double       margin,
                             double       p,
                             double       eps,
                             gboolean     swap,
                             GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_TRIPLET_MARGIN_LOSS, "margin", margin, "p", p, "eps", eps, "swap", swap,
                       "reduction", reduction, NULL);
}

/* ---- TripletMarginWithDistanceLoss ----------------------------------------------------- */

/**
 * GnnTripletMarginWithDistanceLoss:
 *
 * The triplet margin loss with a distance function as a module
 * (`torch.nn.TripletMarginWithDistanceLoss`); its forward takes (anchor, positive,
 * negative). See [method@Gnn.Tensor.triplet_margin_with_distance_loss]. Without a
 * distance function set, it holds a [class@Gnn.PairwiseDistance] as its child
 * `distance_function` and uses it, as PyTorch does.
 *
 * Since: 0.1
 */
struct _GnnTripletMarginWithDistanceLoss
{
  GnnLoss parent_instance;

  double margin;
  gboolean swap;
  GnnDistanceFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
};

enum { TMWD_PROP_0, TMWD_PROP_MARGIN, TMWD_PROP_SWAP, TMWD_N_PROPS };
static GnnProp tmwd_props[TMWD_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnTripletMarginWithDistanceLoss, gnn_triplet_margin_with_distance_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_triplet_margin_with_distance_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTripletMarginWithDistanceLoss *self = GNN_TRIPLET_MARGIN_WITH_DISTANCE_LOSS (module);
  GnnTensor *t[3];
  GnnModule *child;

  if (!loss_inputs (input, "TripletMarginWithDistanceLoss", "(anchor, positive, negative)", t, 3, error))
    return NULL;
  child = self->func != NULL ? NULL : gnn_module_get_submodule (module, "distance_function", NULL);
  return gnn_args_take_tensor (named (triplet_margin_with_distance_loss (t[0], t[1], t[2], self->func,
                                                                         self->user_data, child, self->margin,
                                                                         self->swap, REDUCTION (module), error),
                                      "TripletMarginWithDistanceLoss", error));
}

static gboolean
gnn_triplet_margin_with_distance_loss_setup (GnnModule *module, GError **error)
{
  g_autoptr(GnnPairwiseDistance) distance = NULL;

  if (!GNN_MODULE_CLASS (gnn_triplet_margin_with_distance_loss_parent_class)->setup (module, error))
    return FALSE;
  distance = gnn_pairwise_distance_new (2.0, 1e-6, FALSE);
  return gnn_module_register_module (module, "distance_function", GNN_MODULE (distance), error);
}

static void
gnn_triplet_margin_with_distance_loss_finalize (GObject *object)
{
  GnnTripletMarginWithDistanceLoss *self = GNN_TRIPLET_MARGIN_WITH_DISTANCE_LOSS (object);

  if (self->destroy != NULL)
    self->destroy (self->user_data);
  G_OBJECT_CLASS (gnn_triplet_margin_with_distance_loss_parent_class)->finalize (object);
}

static void
gnn_triplet_margin_with_distance_loss_class_init (GnnTripletMarginWithDistanceLossClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gnn_triplet_margin_with_distance_loss_finalize;
  module_class->forward = gnn_triplet_margin_with_distance_loss_forward;
  module_class->setup = gnn_triplet_margin_with_distance_loss_setup;

  /**
   * GnnTripletMarginWithDistanceLoss:margin:
   *
   * The margin (`margin`); PyTorch's default is 1.0.
   *
   * Since: 0.1
   */
  tmwd_props[TMWD_PROP_MARGIN] = MARGIN_PROP (GnnTripletMarginWithDistanceLoss, 1.0);
  /**
   * GnnTripletMarginWithDistanceLoss:swap:
   *
   * Whether the distance swap is used (`swap`); PyTorch's default is %FALSE.
   *
   * Since: 0.1
   */
  tmwd_props[TMWD_PROP_SWAP] = GNN_LOSS_BOOLEAN_PROP (GnnTripletMarginWithDistanceLoss, swap, "swap", FALSE);
  gnn_props_install (G_OBJECT_CLASS (klass), tmwd_props, TMWD_N_PROPS);
}

static void
gnn_triplet_margin_with_distance_loss_init (GnnTripletMarginWithDistanceLoss *self)
{
}

/**
 * gnn_triplet_margin_with_distance_loss_new:
 * @margin: PyTorch's default is 1.0
 * @swap: whether the distance swap is used; PyTorch's default is %FALSE
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 *
 * Creates a TripletMarginWithDistanceLoss module (`nn.TripletMarginWithDistanceLoss
 * (margin=..., swap=..., reduction=...)`), with the pairwise distance until
 * gnn_triplet_margin_with_distance_loss_set_distance_function () sets another.
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnTripletMarginWithDistanceLoss *
gnn_triplet_margin_with_distance_loss_new (double       margin,
                                           gboolean     swap,
                                           GnnReduction reduction)
{
  return g_object_new (GNN_TYPE_TRIPLET_MARGIN_WITH_DISTANCE_LOSS, "margin", margin, "swap", swap,
                       "reduction", reduction, NULL);
}

/**
 * gnn_triplet_margin_with_distance_loss_set_distance_function:
 * @self: a TripletMarginWithDistanceLoss module
 * @func: (scope notified) (nullable): the distance function, or %NULL for the child
 *   `distance_function`
 * @user_data: (closure func): data for @func
 * @destroy: (destroy func) (nullable): frees @user_data when @func is replaced or the
 *   module finalized
 *
 * Sets the distance function (`distance_function`) the next forward uses. A function
 * removes the child `distance_function`; %NULL gives the module a [class@Gnn.PairwiseDistance]
 * child again when it has none (gnn_module_register_module () replaces the child with another
 * distance module).
 *
 * Since: 0.1
 */
void
gnn_triplet_margin_with_distance_loss_set_distance_function (GnnTripletMarginWithDistanceLoss *self,
                                                             GnnDistanceFunc                   func,
                                                             gpointer                          user_data,
                                                             GDestroyNotify                    destroy)
{
  g_return_if_fail (GNN_IS_TRIPLET_MARGIN_WITH_DISTANCE_LOSS (self));
  if (self->destroy != NULL)
    self->destroy (self->user_data);
  self->func = func;
  self->user_data = func != NULL ? user_data : NULL;
  self->destroy = func != NULL ? destroy : NULL;
  if (func == NULL && destroy != NULL)
    destroy (user_data);
  /* a function replaces the child, as assigning one in PyTorch leaves no PairwiseDistance */
  if (func != NULL)
    gnn_module_remove (GNN_MODULE (self), "distance_function");
  else if (gnn_module_get_submodule (GNN_MODULE (self), "distance_function", NULL) == NULL)
    {
      g_autoptr(GnnPairwiseDistance) distance = gnn_pairwise_distance_new (2.0, 1e-6, FALSE);

      gnn_module_register_module (GNN_MODULE (self), "distance_function", GNN_MODULE (distance), NULL);
    }
}

/* ---- CTCLoss --------------------------------------------------------------------------- */

static GnnTensor *
ctc_loss (GnnTensor *log_probs, GnnTensor *targets, const gint64 *input_lengths, guint n_input_lengths,
          const gint64 *target_lengths, guint n_target_lengths, gint64 blank, GnnReduction reduction,
          gboolean zero_infinity, GError **error)
{
  g_autoptr(GnnTensor) nll = NULL, lengths64 = NULL, lengths = NULL, per = NULL;
  g_autofree double *clamped = NULL;
  gint64 n = n_target_lengths;

  if (!gnn_loss_check_reduction (reduction, error) ||
      (nll = gnn_tensor_ctc_loss_nll (log_probs, targets, input_lengths, n_input_lengths, target_lengths,
                                      n_target_lengths, blank, zero_infinity, error)) == NULL)
    return NULL;
  if (reduction == GNN_REDUCTION_NONE)
    return g_steal_pointer (&nll);
  if (reduction == GNN_REDUCTION_SUM)
    return gnn_tensor_sum_all (nll, error);
  /* the mean of the losses, each divided by its target length (at least 1) */
  clamped = g_new (double, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    clamped[i] = (double) MAX (target_lengths[i], 1);
  if ((lengths64 = gnn_tensor_new_from_doubles (clamped, n, &n, gnn_tensor_get_ndim (nll), error)) == NULL ||
      (lengths = gnn_tensor_to_dtype (lengths64, gnn_tensor_get_dtype (nll), error)) == NULL ||
      (per = gnn_tensor_div (nll, lengths, error)) == NULL)
    return NULL;
  return gnn_tensor_mean_all (per, error);
}

/**
 * gnn_tensor_ctc_loss:
 * @log_probs: the log probabilities of the classes, (T, N, C), or (T, C) for one sequence
 * @targets: the int64 labels: (N, S) padded, or the labels of the batch concatenated
 * @input_lengths: (array length=n_input_lengths): the length of each input sequence, at most T
 * @n_input_lengths: N
 * @target_lengths: (array length=n_target_lengths): the length of each target
 * @n_target_lengths: N
 * @blank: the class of the blank; PyTorch's default is 0
 * @reduction: how the losses are reduced; %GNN_REDUCTION_MEAN divides each loss by its target
 *   length (at least 1) before the mean over the batch, as PyTorch does
 * @zero_infinity: whether infinite losses (an input too short for its target) and their
 *   gradients become zero; PyTorch's default is %FALSE
 * @error: return location for a #GError
 *
 * The connectionist temporal classification loss (`torch.nn.functional.ctc_loss`), over
 * [method@Gnn.Tensor.ctc_loss_nll] (forward and backward in C).
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ctc_loss (GnnTensor    *log_probs,
                     GnnTensor    *targets,
                     const gint64 *input_lengths,
                     guint         n_input_lengths,
                     const gint64 *target_lengths,
                     guint         n_target_lengths,
                     gint64        blank,
                     GnnReduction  reduction,
                     gboolean      zero_infinity,
                     GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (log_probs), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (targets), NULL);
  return named (ctc_loss (log_probs, targets, input_lengths, n_input_lengths, target_lengths, n_target_lengths,
                          blank, reduction, zero_infinity, error), "CTCLoss", error);
}

/**
 * GnnCTCLoss:
 *
 * The connectionist temporal classification loss as a module (`torch.nn.CTCLoss`); its
 * forward takes (log_probs, targets, input_lengths, target_lengths), the lengths as int64
 * tensors. See [method@Gnn.Tensor.ctc_loss].
 *
 * Since: 0.1
 */
struct _GnnCTCLoss
{
  GnnLoss parent_instance;

  gint64 blank;
  gboolean zero_infinity;
};

enum { CTC_PROP_0, CTC_PROP_BLANK, CTC_PROP_ZERO_INFINITY, CTC_N_PROPS };
static GnnProp ctc_props[CTC_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCTCLoss, gnn_ctc_loss, GNN_TYPE_LOSS)

static GnnArgs *
gnn_ctc_loss_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnCTCLoss *self = GNN_CTC_LOSS (module);
  GnnTensor *t[4];
  g_autofree gint64 *il = NULL, *tl = NULL;
  gsize nil = 0, ntl = 0;

  if (!loss_inputs (input, "CTCLoss", "(log_probs, targets, input_lengths, target_lengths)", t, 4, error))
    return NULL;
  if (((il = gnn_tensor_to_int64s (t[2], &nil, error)) == NULL && gnn_tensor_get_numel (t[2]) > 0) ||
      ((tl = gnn_tensor_to_int64s (t[3], &ntl, error)) == NULL && gnn_tensor_get_numel (t[3]) > 0))
    {
      g_prefix_error (error, "CTCLoss: ");
      return NULL;
    }
  return gnn_args_take_tensor (gnn_tensor_ctc_loss (t[0], t[1], il, nil, tl, ntl, self->blank, REDUCTION (module),
                                                    self->zero_infinity, error));
}

static void
gnn_ctc_loss_class_init (GnnCTCLossClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_ctc_loss_forward;

  /**
   * GnnCTCLoss:blank:
   *
   * The class of the blank (`blank`); PyTorch's default is 0.
   *
   * Since: 0.1
   */
  ctc_props[CTC_PROP_BLANK] = (GnnProp) {
    g_param_spec_int64 ("blank", NULL, NULL, G_MININT64, G_MAXINT64, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnCTCLoss, blank) };
  /**
   * GnnCTCLoss:zero-infinity:
   *
   * Whether infinite losses and their gradients become zero (`zero_infinity`); PyTorch's
   * default is %FALSE.
   *
   * Since: 0.1
   */
  ctc_props[CTC_PROP_ZERO_INFINITY] = GNN_LOSS_BOOLEAN_PROP (GnnCTCLoss, zero_infinity, "zero-infinity", FALSE);
  gnn_props_install (G_OBJECT_CLASS (klass), ctc_props, CTC_N_PROPS);
}

static void
gnn_ctc_loss_init (GnnCTCLoss *self)
{
}

/**
 * gnn_ctc_loss_new:
 * @blank: the class of the blank; PyTorch's default is 0
 * @reduction: how the losses are reduced; PyTorch's default is %GNN_REDUCTION_MEAN
 * @zero_infinity: PyTorch's default is %FALSE
 *
 * Creates a CTCLoss module (`nn.CTCLoss (blank=..., reduction=..., zero_infinity=...)`).
 *
 * Returns: (transfer full): the loss module
 *
 * Since: 0.1
 */
GnnCTCLoss *
gnn_ctc_loss_new (gint64       blank,
                  GnnReduction reduction,
                  gboolean     zero_infinity)
{
  return g_object_new (GNN_TYPE_CTC_LOSS, "blank", blank, "reduction", reduction, "zero-infinity", zero_infinity,
                       NULL);
}
