/* gnn-ops-sample.c: sampling from categorical distributions (torch.multinomial)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-ops-private.h"
#include "core/gnn-generator.h"

/* Whether @mask (bool) holds a true element, read back from its device */
static gboolean
any_true (GnnTensor *mask, gboolean *found, GError **error)
{
  g_autoptr(GnnTensor) count = gnn_tensor_sum_all (mask, error);
  double n;

  if (count == NULL)
    return FALSE;
  n = gnn_tensor_item (count, error);
  if (isnan (n))
    return FALSE;
  *found = n > 0;
  return TRUE;
}

/* With replacement: the category of each sample is the number of cumulative sums at or below
 * u · total for a uniform u. u is drawn in float32, so below 1 - 2^-24, and u · total (in
 * float64) stays strictly below the last cumulative sum: a category of probability zero is
 * never drawn. @probs (n, k) float64, @cdf its cumulative sums; gives (n, @num_samples). */
static GnnTensor *
sample_with_replacement (GnnTensor *cdf, gint64 num_samples, GnnGenerator *generator, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (cdf);
  gint64 n = p->shape[0], k = p->shape[1];
  const gint64 u_shape[2] = { n, num_samples };
  int last = -1;
  g_autoptr(GnnTensor) total = NULL, u32 = NULL, u = NULL, v = NULL, v3 = NULL, c3 = NULL, below = NULL;

  if (!(total = gnn_tensor_narrow (cdf, 1, k - 1, 1, error)) ||
      !(u32 = gnn_tensor_new_rand (u_shape, 2, generator, GNN_DTYPE_FLOAT32, gnn_tensor_get_device (cdf), error)) ||
      !(u = gnn_tensor_to_dtype (u32, GNN_DTYPE_FLOAT64, error)) ||
      !(v = gnn_tensor_mul (u, total, error)) ||
      !(v3 = gnn_tensor_unsqueeze (v, 2, error)) ||
      !(c3 = gnn_tensor_unsqueeze (cdf, 1, error)) ||
      !(below = gnn_tensor_le (c3, v3, error)))
    return NULL;
  return gnn_tensor_sum (below, &last, 1, FALSE, error);
}

/* Without replacement: the @num_samples largest of p / e for exponential e (the exponential
 * race: the first to arrive is drawn with probability p / Σ p, then the next among the rest).
 * e = -log (1 - u) for a float64 uniform u, kept above zero, so a category of probability
 * zero comes only after every other. @probs (n, k) float64, each row summing to one. */
static GnnTensor *
sample_without_replacement (GnnTensor *probs, gint64 num_samples, GnnGenerator *generator, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (probs);
  GnnTensor *indices = NULL;
  g_autoptr(GnnTensor) u = NULL, w = NULL, lw = NULL, e = NULL, ep = NULL, keys = NULL, values = NULL;

  if (!(u = gnn_tensor_new_rand (p->shape, 2, generator, GNN_DTYPE_FLOAT64, gnn_tensor_get_device (probs), error)) ||
      !(w = gnn_tensor_rsub_scalar (u, 1.0, error)) ||
      !(lw = gnn_tensor_log (w, error)) ||
      !(e = gnn_tensor_neg (lw, error)) ||
      !(ep = gnn_tensor_clamp_min (e, 1e-300, error)) ||
      !(keys = gnn_tensor_div (probs, ep, error)) ||
      !(values = gnn_tensor_topk (keys, num_samples, 1, TRUE, TRUE, &indices, error)))
    return NULL;
  return indices;
}

/**
 * gnn_tensor_multinomial:
 * @self: the weights of the categories: a 1-d (k) or 2-d (n, k) floating-point tensor of
 *   finite non-negative values, each row with a positive sum (need not sum to one)
 * @num_samples: how many categories to draw from each row, at least one
 * @replacement: whether a category may be drawn again; without, @num_samples is at most k
 * @generator: (nullable): the generator; %NULL for the default one
 * @error: return location for a #GError
 *
 * Draws @num_samples categories from each row of @self, category j with probability
 * @self[j] / Σ @self (`torch.multinomial (self, num_samples, replacement, generator=generator)`).
 * Without replacement the draws of a row are distinct, each drawn among the categories left
 * with the probabilities of those, as PyTorch's; a category of weight zero is drawn only
 * after every category of positive weight. The sequence of draws is gnn's own (its generator
 * is not PyTorch's), the distribution is PyTorch's. The result carries no gradient.
 *
 * Returns: (transfer full): the int64 categories, (@num_samples) or (n, @num_samples), or
 *   %NULL with @error set: %GNN_ERROR_SHAPE when @self is not 1-d or 2-d, has no
 *   categories or fewer than @num_samples without replacement, or @num_samples is not
 *   positive, %GNN_ERROR_DTYPE for a non-floating @self, %GNN_ERROR_FAILED
 *   for a negative, infinite or NaN weight or a row summing to zero
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_multinomial (GnnTensor *self, gint64 num_samples, gboolean replacement, GnnGenerator *generator,
                        GError **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) probs = NULL, rows = NULL, bad_low = NULL, finite = NULL, bad = NULL, cdf = NULL;
  g_autoptr(GnnTensor) total = NULL, empty = NULL, normalized = NULL, samples = NULL;
  gint64 n, k;
  gboolean found = FALSE;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim != 1 && p->ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "multinomial: prob_dist must be 1 or 2 dim, got a %u-dim tensor", p->ndim);
      return NULL;
    }
  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "multinomial only supports floating-point dtypes for input, got: %s",
                   gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (num_samples <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "multinomial: cannot sample n_sample <= 0 samples, got num_samples %" G_GINT64_FORMAT,
                   num_samples);
      return NULL;
    }
  k = p->shape[p->ndim - 1];
  n = p->ndim == 2 ? p->shape[0] : 1;
  if (!replacement && num_samples > k)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement "
                   "(%" G_GINT64_FORMAT " samples, %" G_GINT64_FORMAT " categories)", num_samples, k);
      return NULL;
    }
  if (k == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "multinomial: prob_dist has no categories (size 0 in its last dim)");
      return NULL;
    }

  guard = gnn_no_grad_guard_new ();
  if (!(probs = gnn_tensor_to_dtype (self, GNN_DTYPE_FLOAT64, error)) ||
      !(rows = gnn_tensor_reshape (probs, (const gint64[]) { n, k }, 2, error)))
    return NULL;
  if (n == 0)
    return gnn_tensor_new_zeros (p->ndim == 2 ? (const gint64[]) { 0, num_samples } : (const gint64[]) { num_samples },
                                 p->ndim, GNN_DTYPE_INT64, gnn_tensor_get_device (self), error);
  /* x < 0, or not below infinity (NaN fails both comparisons) */
  if (!(bad_low = gnn_tensor_lt_scalar (rows, 0.0, error)) ||
      !(finite = gnn_tensor_lt_scalar (rows, INFINITY, error)) ||
      !(bad = gnn_tensor_le (finite, bad_low, error)) ||
      !any_true (bad, &found, error))
    return NULL;
  if (found)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "multinomial: probability tensor contains either `inf`, `nan` or element < 0");
      return NULL;
    }
  if (!(cdf = gnn_tensor_cumsum (rows, 1, error)) ||
      !(total = gnn_tensor_narrow (cdf, 1, k - 1, 1, error)) ||
      !(empty = gnn_tensor_le_scalar (total, 0.0, error)) ||
      !any_true (empty, &found, error))
    return NULL;
  if (found)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "multinomial: invalid multinomial distribution (sum of probabilities <= 0)");
      return NULL;
    }
  if (replacement)
    samples = sample_with_replacement (cdf, num_samples, generator, error);
  else if ((normalized = gnn_tensor_div (rows, total, error)))
    samples = sample_without_replacement (normalized, num_samples, generator, error);
  if (samples == NULL)
    return NULL;
  if (p->ndim == 1)
    return gnn_tensor_reshape (samples, &num_samples, 1, error);
  return g_steal_pointer (&samples);
}
