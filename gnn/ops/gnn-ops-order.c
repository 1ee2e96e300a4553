/* gnn-ops-order.c: order statistics along one dimension (kthvalue, median, nanmedian, mode,
 * cummax, cummin) and aminmax
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each op here first finds, row by row, the int64 position of the value it returns (a
 * selection, without gradient, over a host copy of the values), then takes the values with
 * gather at those positions. The gradient is therefore gather's: the output's gradient added
 * back at the selected positions only, as torch's kthvalue, median (with dim), mode, cummax
 * and cummin do; it runs on every backend. The whole-tensor median and nanmedian spread the
 * gradient evenly over the entries equal to the result, as torch does.
 *
 * The order is torch's: NaN sorts above every number. Of equal values, kthvalue, median and
 * nanmedian return the position that a stable sort of the row puts at the selected rank;
 * torch leaves that choice unspecified (its CPU selection does not keep any order), so only
 * the values are promised to agree with it.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* what is picked from one row of @r values: a rank in the row's stable ascending sort */
typedef enum
{
  PICK_KTH,
  PICK_MEDIAN,
  PICK_NANMEDIAN,
  PICK_MODE,
} Pick;

/* a and b are positions into the row (data): NaN above everything, NaN equal to NaN */
static gint
compare_positions (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const double *v = data;
  double a = v[*(const gint64 *) pa], b = v[*(const gint64 *) pb];

  if (isnan (a))
    return isnan (b) ? 0 : 1;
  if (isnan (b))
    return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/* the position in @row (@r values) of the value @pick selects; @order is scratch of @r */
static gint64
pick_row (Pick pick, gint64 k, const double *row, gint64 r, gint64 *order)
{
  gint64 n_nan = 0, rank = 0;

  for (gint64 j = 0; j < r; j++)
    {
      order[j] = j;
      n_nan += isnan (row[j]) ? 1 : 0;
    }
  g_qsort_with_data (order, (gint) r, sizeof (gint64), compare_positions, (gpointer) row);
  switch (pick)
    {
    case PICK_KTH:
      rank = k - 1;
      break;
    case PICK_MEDIAN:
      /* NaN propagates: the first NaN of the row */
      rank = n_nan > 0 ? r - n_nan : (r - 1) / 2;
      break;
    case PICK_NANMEDIAN:
      /* the lower middle of the numbers; a row of NaN gives its first NaN */
      rank = r - n_nan > 0 ? (r - n_nan - 1) / 2 : 0;
      break;
    case PICK_MODE:
      {
        /* the first (smallest) of the longest runs of equal values in sorted order, at the
         * last position it has in the row (the last of its run, the sort being stable);
         * NaN equals nothing, so each NaN is a run of one */
        gint64 best_len = 0, best_end = 0;

        for (gint64 j = 0; j < r;)
          {
            gint64 e = j + 1;
            while (e < r && row[order[e]] == row[order[j]])
              e++;
            if (e - j > best_len)
              {
                best_len = e - j;
                best_end = e - 1;
              }
            j = e;
          }
        rank = best_end;
      }
      break;
    default:
      g_assert_not_reached ();
    }
  return order[rank];
}

/* @self's values on the host in its row-major order, without autograd */
static double *
host_values (GnnTensor *self, GError **error)
{
  return gnn_tensor_to_doubles (self, NULL, error);
}

/* an int64 tensor of @shape from @data on @like's device */
static GnnTensor *
index_tensor (GnnTensor *like, const gint64 *data, gsize n, const gint64 *shape, guint ndim, GError **error)
{
  g_autoptr(GnnTensor) host = gnn_tensor_new_from_int64s (data, n, shape, ndim, error);
  const char *device = gnn_tensor_get_device (like);

  if (host == NULL || g_str_equal (device, "cpu"))
    return g_steal_pointer (&host);
  return gnn_tensor_to_device (host, device, error);
}

/* refuses bool (torch's ordering kernels are not implemented for it) */
static gboolean
check_orderable (const char *op, GnnTensor *self, GError **error)
{
  GnnDtype dtype = gnn_tensor_get_dtype (self);

  if (dtype == GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: expected a numeric tensor, got %s", op,
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  return TRUE;
}

/* the dim of @self normalized, and @self as a tensor of at least one dim (a 0-d tensor as
 * shape [1]) */
static gboolean
prepare (const char *op, GnnTensor *self, int dim, guint *d, GnnTensor **x, GError **error)
{
  if (!check_orderable (op, self, error))
    return FALSE;
  if (!gnn_normalize_dim (dim, gnn_tensor_get_ndim (self), d, error))
    {
      g_prefix_error (error, "%s: ", op);
      return FALSE;
    }
  if (gnn_tensor_get_ndim (self) == 0)
    *x = gnn_tensor_reshape (self, (const gint64[]) { 1 }, 1, error);
  else
    *x = g_object_ref (self);
  return *x != NULL;
}

/* the values of @self picked along @dim by @pick, one a row, and their positions */
static GnnTensor *
select_along (const char *op, GnnTensor *self, int dim, gboolean keepdim, Pick pick, gint64 k,
              GnnTensor **indices, GError **error)
{
  g_autoptr(GnnTensor) x = NULL, idx = NULL, picked = NULL;
  g_autofree double *v = NULL;
  g_autofree double *row = NULL;
  g_autofree gint64 *order = NULL, *pos = NULL;
  gint64 shape[GNN_MAX_DIMS];
  const gint64 *xs;
  gint64 outer, r, inner;
  guint d, ndim;

  if (!prepare (op, self, dim, &d, &x, error))
    return NULL;
  ndim = gnn_tensor_get_ndim (x);
  xs = gnn_tensor_get_shape (x, NULL);
  gnn_layout_around (ndim, xs, d, &outer, &r, &inner);
  if (r == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected reduction dim %u to have non-zero size, got a dim of size 0", op, d);
      return NULL;
    }
  if (pick == PICK_KTH && (k < 1 || k > r))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: selected number k out of range for dim %u: expected 1 <= k <= %" G_GINT64_FORMAT
                   ", got %" G_GINT64_FORMAT, op, d, r, k);
      return NULL;
    }
  for (guint j = 0; j < ndim; j++)
    shape[j] = j == d ? 1 : xs[j];
  pos = g_new0 (gint64, MAX (outer * inner, 1));
  if (outer * inner > 0)
    {
      if (!(v = host_values (x, error)))
        return NULL;
      row = g_new (double, r);
      order = g_new (gint64, r);
      for (gint64 o = 0; o < outer; o++)
        for (gint64 i = 0; i < inner; i++)
          {
            for (gint64 j = 0; j < r; j++)
              row[j] = v[(o * r + j) * inner + i];
            pos[o * inner + i] = pick_row (pick, k, row, r, order);
          }
    }
  if (!(idx = index_tensor (x, pos, outer * inner, shape, ndim, error)) ||
      !(picked = gnn_tensor_gather (x, (int) d, idx, error)))
    return NULL;
  if (gnn_tensor_get_ndim (self) == 0 || !keepdim)
    {
      g_autoptr(GnnTensor) vs = NULL, is = NULL;

      if (gnn_tensor_get_ndim (self) == 0)
        {
          vs = gnn_tensor_reshape (picked, NULL, 0, error);
          is = vs ? gnn_tensor_reshape (idx, NULL, 0, error) : NULL;
        }
      else
        {
          vs = gnn_tensor_squeeze_dim (picked, (int) d, error);
          is = vs ? gnn_tensor_squeeze_dim (idx, (int) d, error) : NULL;
        }
      if (is == NULL)
        return NULL;
      g_set_object (&picked, vs);
      g_set_object (&idx, is);
    }
  if (indices)
    *indices = g_steal_pointer (&idx);
  return g_steal_pointer (&picked);
}

/**
 * gnn_tensor_kthvalue:
 * @self: a tensor (not bool)
 * @k: the rank of the value to return, from 1 (the smallest) to the size of @dim
 * @dim: the dimension to select along, negative from the end
 * @keepdim: whether @dim stays in the result with size 1
 * @indices: (out) (transfer full) (optional): return location for the int64 positions of the
 *   values along @dim
 * @error: return location for a #GError
 *
 * The @k-th smallest value of @self along @dim and its position (`torch.kthvalue (self, k,
 * dim, keepdim)`). NaN counts as larger than every number. Of equal values gnn returns the
 * position that a stable sort of the row puts at rank @k (for [2, 1, 2, 1] and @k = 1, the
 * position 1); which of them torch returns is unspecified. The gradient goes to the selected
 * position only.
 *
 * Returns: (transfer full): the values, @self's shape without @dim (or with size 1 there
 *   when @keepdim), or %NULL with @error set (%GNN_ERROR_SHAPE when @k is out of range or
 *   @dim is empty, %GNN_ERROR_INDEX when @dim is out of range, %GNN_ERROR_DTYPE for bool)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_kthvalue (GnnTensor *self, gint64 k, int dim, gboolean keepdim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return select_along ("kthvalue", self, dim, keepdim, PICK_KTH, k, indices, error);
}

/**
 * gnn_tensor_median:
 * @self: a tensor (not bool)
 * @dim: the dimension to reduce, negative from the end
 * @keepdim: whether @dim stays in the result with size 1
 * @indices: (out) (transfer full) (optional): return location for the int64 positions of the
 *   medians along @dim
 * @error: return location for a #GError
 *
 * The median of @self along @dim and its position (`torch.median (self, dim, keepdim)`): of
 * an even number of values the lower of the two middle ones. A row holding NaN gives NaN, at
 * the position of its first NaN (as torch). Of equal values the position is the one a stable
 * sort puts at the middle rank (torch's choice is unspecified). The gradient goes to the
 * selected position only.
 *
 * Returns: (transfer full): the medians, or %NULL with @error set (as
 *   [method@Gnn.Tensor.kthvalue])
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_median (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return select_along ("median", self, dim, keepdim, PICK_MEDIAN, 0, indices, error);
}

/**
 * gnn_tensor_nanmedian:
 * @self: a tensor (not bool)
 * @dim: the dimension to reduce, negative from the end
 * @keepdim: whether @dim stays in the result with size 1
 * @indices: (out) (transfer full) (optional): return location for the int64 positions of the
 *   medians along @dim
 * @error: return location for a #GError
 *
 * As [method@Gnn.Tensor.median], ignoring NaN (`torch.nanmedian (self, dim, keepdim)`): the
 * lower middle of the numbers of each row; a row of NaN only gives NaN at its first position.
 *
 * Returns: (transfer full): the medians, or %NULL with @error set (as
 *   [method@Gnn.Tensor.kthvalue])
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nanmedian (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return select_along ("nanmedian", self, dim, keepdim, PICK_NANMEDIAN, 0, indices, error);
}

/**
 * gnn_tensor_mode:
 * @self: a tensor (not bool)
 * @dim: the dimension to reduce, negative from the end
 * @keepdim: whether @dim stays in the result with size 1
 * @indices: (out) (transfer full) (optional): return location for the int64 positions of the
 *   modes along @dim
 * @error: return location for a #GError
 *
 * The most frequent value of @self along @dim and a position of it (`torch.mode (self, dim,
 * keepdim)`): of values equally frequent the smallest, at its last position in the row, as
 * torch's CPU kernel returns. NaN equals no value, so each NaN counts once. The gradient goes
 * to the returned position only.
 *
 * Returns: (transfer full): the modes, or %NULL with @error set (as
 *   [method@Gnn.Tensor.kthvalue])
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mode (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return select_along ("mode", self, dim, keepdim, PICK_MODE, 0, indices, error);
}

/* the gradient of the whole-tensor median: the output's gradient times the saved weights
 * (1 / count at the entries equal to the median, 0 elsewhere) */
static gboolean
spread_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *w;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(w = gnn_node_saved (node, 0, error)))
    return FALSE;
  gi[0] = gnn_tensor_mul (go[0], w, error);
  return gi[0] != NULL;
}

/* the median of all of @self; its gradient spread evenly over the entries equal to it (NaN
 * entries when it is NaN), as torch's median () and nanmedian () */
static GnnTensor *
median_all (const char *op, const char *grad_name, GnnTensor *self, Pick pick, GError **error)
{
  g_autoptr(GnnTensor) flat = NULL, v = NULL, mask = NULL, w = NULL, n_equal = NULL;
  gint64 n = gnn_tensor_get_numel (self);
  GnnNode *node;
  double value;
  gboolean prev, ok, needed = gnn_autograd_needed (&self, 1);

  if (!check_orderable (op, self, error))
    return NULL;
  if (n == 0)
    {
      if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (self)))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: expected a non-empty %s tensor, got 0 elements", op,
                       gnn_dtype_get_name (gnn_tensor_get_dtype (self)));
          return NULL;
        }
      return gnn_tensor_new_scalar (NAN, gnn_tensor_get_dtype (self), gnn_tensor_get_device (self), error);
    }
  prev = gnn_set_grad_enabled (FALSE);
  ok = (flat = gnn_tensor_reshape (self, (const gint64[]) { n }, 1, error)) != NULL &&
       (v = select_along (op, flat, 0, FALSE, pick, 0, NULL, error)) != NULL;
  if (ok && gnn_dtype_is_floating (gnn_tensor_get_dtype (self)) && needed)
    {
      /* the weights: 1 / count where self equals the median (is NaN when it is NaN) */
      value = gnn_tensor_item (v, error);
      ok = (mask = isnan (value) ? gnn_tensor_isnan (self, error) : gnn_tensor_eq_scalar (self, value, error)) &&
           (n_equal = gnn_tensor_sum_all (mask, error)) &&
           (w = gnn_tensor_to_dtype (mask, gnn_tensor_get_dtype (self), error)) &&
           gnn_tensor_div_scalar_ (w, gnn_tensor_item (n_equal, error), error);
    }
  gnn_set_grad_enabled (prev);
  if (!ok)
    return NULL;
  if (w != NULL && (node = gnn_autograd_record (grad_name, spread_backward, &self, 1, &v, 1)))
    gnn_node_save (node, w);
  return g_steal_pointer (&v);
}

/**
 * gnn_tensor_median_all:
 * @self: a tensor (not bool)
 * @error: return location for a #GError
 *
 * The median of all the elements of @self (`torch.median (self)`): of an even number the
 * lower of the two middle values; NaN when @self holds a NaN, and NaN for an empty
 * floating-point tensor. Its gradient is spread evenly over the elements equal to it (over the
 * NaN elements when it is NaN), as torch's.
 *
 * Returns: (transfer full): the median, a 0-d tensor of @self's dtype, or %NULL with @error
 *   set (%GNN_ERROR_DTYPE for bool, %GNN_ERROR_SHAPE for an empty integer tensor)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_median_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return median_all ("median", "MedianBackward0", self, PICK_MEDIAN, error);
}

/**
 * gnn_tensor_nanmedian_all:
 * @self: a tensor (not bool)
 * @error: return location for a #GError
 *
 * The median of the elements of @self that are not NaN (`torch.nanmedian (self)`), NaN when
 * all of them are; its gradient as [method@Gnn.Tensor.median_all]'s.
 *
 * Returns: (transfer full): the median, a 0-d tensor of @self's dtype, or %NULL with @error
 *   set (as [method@Gnn.Tensor.median_all])
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nanmedian_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return median_all ("nanmedian", "NanmedianBackward0", self, PICK_NANMEDIAN, error);
}

/* the running maximum (@largest) or minimum of @self along @dim and its positions: a value
 * replaces the running one when it is NaN, or when neither is NaN and it is at least as large
 * (small), so that ties and NaN take the later position, as torch */
static GnnTensor *
cumulative (const char *op, GnnTensor *self, int dim, gboolean largest, GnnTensor **indices, GError **error)
{
  g_autoptr(GnnTensor) x = NULL, idx = NULL, picked = NULL;
  g_autofree double *v = NULL;
  g_autofree gint64 *pos = NULL;
  const gint64 *xs;
  gint64 outer, r, inner, n;
  guint d, ndim;

  if (!prepare (op, self, dim, &d, &x, error))
    return NULL;
  ndim = gnn_tensor_get_ndim (x);
  xs = gnn_tensor_get_shape (x, NULL);
  gnn_layout_around (ndim, xs, d, &outer, &r, &inner);
  n = outer * r * inner;
  pos = g_new0 (gint64, MAX (n, 1));
  if (n > 0)
    {
      if (!(v = host_values (x, error)))
        return NULL;
      for (gint64 o = 0; o < outer; o++)
        for (gint64 i = 0; i < inner; i++)
          {
            gint64 best = 0;

            for (gint64 j = 0; j < r; j++)
              {
                gint64 at = (o * r + j) * inner + i;
                double a = v[at], b = v[(o * r + best) * inner + i];

                if (j == 0 || isnan (a) || (!isnan (b) && (largest ? a >= b : a <= b)))
                  best = j;
                pos[at] = best;
              }
          }
    }
  if (!(idx = index_tensor (x, pos, n, xs, ndim, error)) || !(picked = gnn_tensor_gather (x, (int) d, idx, error)))
    return NULL;
  if (gnn_tensor_get_ndim (self) == 0)
    {
      g_autoptr(GnnTensor) vs = gnn_tensor_reshape (picked, NULL, 0, error);
      g_autoptr(GnnTensor) is = vs ? gnn_tensor_reshape (idx, NULL, 0, error) : NULL;

      if (is == NULL)
        return NULL;
      g_set_object (&picked, vs);
      g_set_object (&idx, is);
    }
  if (indices)
    *indices = g_steal_pointer (&idx);
  return g_steal_pointer (&picked);
}

/**
 * gnn_tensor_cummax:
 * @self: a tensor (not bool)
 * @dim: the dimension to scan, negative from the end
 * @indices: (out) (transfer full) (optional): return location for the int64 positions along
 *   @dim of the running maxima
 * @error: return location for a #GError
 *
 * The running maximum of @self along @dim and where it was found (`torch.cummax (self,
 * dim)`): of equal values the later position; a NaN stays the maximum from where it appears
 * (at the position of the latest NaN). The gradient goes to the found positions.
 *
 * Returns: (transfer full): the running maxima, shaped as @self, or %NULL with @error set
 *   (%GNN_ERROR_INDEX when @dim is out of range, %GNN_ERROR_DTYPE for bool)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cummax (GnnTensor *self, int dim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return cumulative ("cummax", self, dim, TRUE, indices, error);
}

/**
 * gnn_tensor_cummin:
 * @self: a tensor (not bool)
 * @dim: the dimension to scan, negative from the end
 * @indices: (out) (transfer full) (optional): return location for the int64 positions along
 *   @dim of the running minima
 * @error: return location for a #GError
 *
 * The running minimum of @self along @dim and where it was found (`torch.cummin (self,
 * dim)`), with [method@Gnn.Tensor.cummax]'s rules for ties and NaN.
 *
 * Returns: (transfer full): the running minima, shaped as @self, or %NULL with @error set
 *   (as [method@Gnn.Tensor.cummax])
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cummin (GnnTensor *self, int dim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return cumulative ("cummin", self, dim, FALSE, indices, error);
}

/**
 * gnn_tensor_aminmax:
 * @self: a tensor (not bool)
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce, negative from the end;
 *   none for all of them
 * @n_dims: the number of @dims
 * @keepdim: whether the reduced dimensions stay with size 1
 * @max: (out) (transfer full) (optional): return location for the maximum
 * @error: return location for a #GError
 *
 * The minimum and the maximum of @self over @dims (`torch.aminmax (self, dim=dim,
 * keepdim=keepdim)`, where torch takes one dim or none), as [method@Gnn.Tensor.amin] and
 * [method@Gnn.Tensor.amax] give them, NaN propagating. Their gradients are amin's and amax's:
 * spread evenly over the entries equal to the result, as PyTorch 2's aminmax (torch 1.13 has
 * no gradient for it).
 *
 * Returns: (transfer full): the minimum, or %NULL with @error set (%GNN_ERROR_SHAPE when a
 *   reduced dimension is empty, %GNN_ERROR_DTYPE for bool)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_aminmax (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GnnTensor **max,
                    GError **error)
{
  g_autoptr(GnnTensor) lo = NULL, hi = NULL;
  const gint64 *shape;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  if (!check_orderable ("aminmax", self, error))
    return NULL;
  shape = gnn_tensor_get_shape (self, &ndim);
  for (guint j = 0; j < n_dims; j++)
    {
      guint d;

      if (!gnn_normalize_dim (dims[j], ndim, &d, error))
        {
          g_prefix_error (error, "aminmax: ");
          return NULL;
        }
      if (ndim > 0 && shape[d] == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "aminmax: cannot reduce over an empty dim (it has no identity): dim %u has size 0", d);
          return NULL;
        }
    }
  if (n_dims == 0 && gnn_tensor_get_numel (self) == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "aminmax: cannot reduce an empty tensor (it has no identity): expected at least one element, got 0");
      return NULL;
    }
  if (!(lo = gnn_tensor_amin (self, dims, n_dims, keepdim, error)) ||
      !(hi = gnn_tensor_amax (self, dims, n_dims, keepdim, error)))
    return NULL;
  if (max)
    *max = g_steal_pointer (&hi);
  return g_steal_pointer (&lo);
}
