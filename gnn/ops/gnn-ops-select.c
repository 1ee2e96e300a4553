/* gnn-ops-select.c: repeating (repeat, tile, repeat_interleave), taking (take,
 * take_along_dim) and selecting with masks (masked_select, masked_scatter, nonzero)
 *
 * Each op is composed of the indexing and shape ops (reshape, expand, index_select,
 * gather, index_copy), so that autograd records their backwards and every backend runs
 * them. Where the size of the result depends on the data (a mask, repeat counts), the
 * counts are read to the host once, as PyTorch must too, and the picked positions go back
 * to the tensor's device as an int64 index.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"

/* ---- helpers ------------------------------------------------------------------------ */

/* An int64 tensor of @shape holding @data, on the device of @like */
static GnnTensor *
index_on (GnnTensor *like, const gint64 *data, gsize n, const gint64 *shape, guint ndim, GError **error)
{
  g_autoptr(GnnTensor) host = gnn_tensor_new_from_int64s (data, n, shape, ndim, error);

  return host ? gnn_tensor_to_device_of (host, like, error) : NULL;
}

/* A one-dimensional int64 index of @n entries on the device of @like */
static GnnTensor *
index_1d (GnnTensor *like, const gint64 *data, gsize n, GError **error)
{
  gint64 shape = (gint64) n;

  return index_on (like, data, n, &shape, 1, error);
}

/* Whether each element of @t (any dtype) is non-zero, read to the host: a new array of
 * numel booleans in row-major order */
static gboolean *
host_nonzero (GnnTensor *t, GError **error)
{
  gint64 n = gnn_tensor_get_numel (t);
  gboolean *out = g_new0 (gboolean, MAX (n, 1));

  if (n == 0)
    return out;
  if (gnn_dtype_is_floating (gnn_tensor_get_dtype (t)))
    {
      g_autofree double *v = gnn_tensor_to_doubles (t, NULL, error);
      if (v == NULL)
        return (g_free (out), NULL);
      for (gint64 i = 0; i < n; i++)
        out[i] = v[i] != 0.0;  /* NaN is non-zero, as in PyTorch */
    }
  else
    {
      g_autofree gint64 *v = gnn_tensor_to_int64s (t, NULL, error);
      if (v == NULL)
        return (g_free (out), NULL);
      for (gint64 i = 0; i < n; i++)
        out[i] = v[i] != 0;
    }
  return out;
}

static const char *
dtype_name (GnnTensor *t)
{
  return gnn_dtype_get_name (gnn_tensor_get_dtype (t));
}

/* @self flattened to one dimension (a view when it can be) */
static GnnTensor *
flat (GnnTensor *self, GError **error)
{
  gint64 minus_one = -1;

  return gnn_tensor_reshape (self, &minus_one, 1, error);
}

/* ---- repeat, tile ------------------------------------------------------------------- */

/**
 * gnn_tensor_repeat:
 * @self: a tensor
 * @repeats: (array length=n_repeats): how many copies along each dimension, at least as
 *   many as @self has dimensions (leading extra ones add dimensions)
 * @n_repeats: the number of entries of @repeats
 * @error: return location for a #GError
 *
 * Tiles @self (`Tensor.repeat (*sizes)`): the result has size `repeats[i] * size[i]` in
 * each dimension, @self's shape being padded with leading ones to @n_repeats dimensions.
 * Composed of reshape, expand and reshape, so that the gradient is expand's (the copies'
 * gradients summed). Fewer repeats than dimensions, or a negative repeat, is an error.
 *
 * Returns: (transfer full): the tiled tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_repeat (GnnTensor *self, const gint64 *repeats, guint n_repeats, GError **error)
{
  guint ndim;
  const gint64 *shape;
  gint64 cur[GNN_MAX_DIMS + 1], wide[GNN_MAX_DIMS + 1], final[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) x = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (repeats != NULL || n_repeats == 0, NULL);
  shape = gnn_tensor_get_shape (self, &ndim);
  if (n_repeats < ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                   "tensor: got %u repeats for %u dimensions", n_repeats, ndim);
      return NULL;
    }
  if (n_repeats > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "repeat: at most %d dimensions are supported, got %u repeats", GNN_MAX_DIMS, n_repeats);
      return NULL;
    }
  for (guint i = 0; i < n_repeats; i++)
    {
      cur[i] = i < n_repeats - ndim ? 1 : shape[i - (n_repeats - ndim)];
      if (__builtin_mul_overflow (repeats[i], cur[i], &final[i]))
        {
          g_autofree char *r = gnn_shape_to_string (n_repeats, repeats);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "repeat: repeats %s: the size of dimension %u (%" G_GINT64_FORMAT " times %"
                       G_GINT64_FORMAT ") overflows int64", r, i, cur[i], repeats[i]);
          return NULL;
        }
    }
  /* the element count of the result, checked before any step builds it (a negative repeat
   * has its own message below) */
  {
    gboolean negative = FALSE;

    for (guint i = 0; i < n_repeats; i++)
      negative |= repeats[i] < 0;
    if (!negative && !gnn_shape_check (NULL, n_repeats, final, gnn_dtype_get_size (gnn_tensor_get_dtype (self)), error))
      return NULL;
  }
  for (guint i = 0; i < n_repeats; i++)
    if (repeats[i] < 0)
      {
        g_autofree char *text = gnn_shape_to_string (n_repeats, final);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": %s "
                     "(repeat %u is %" G_GINT64_FORMAT ")", final[i], text, i, repeats[i]);
        return NULL;
      }
  if (!(x = gnn_tensor_reshape (self, cur, n_repeats, error)))
    return NULL;
  /* one dimension at a time: a new dimension of size 1 before it, expanded to the repeat
   * count and merged into it, so that no step needs more than one extra dimension */
  for (guint i = 0; i < n_repeats; i++)
    {
      g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL;

      if (repeats[i] == 1)
        continue;
      memcpy (wide, cur, i * sizeof (gint64));
      memcpy (wide + i + 1, cur + i, (n_repeats - i) * sizeof (gint64));
      wide[i] = 1;
      if (!(a = gnn_tensor_reshape (x, wide, n_repeats + 1, error)))
        return NULL;
      wide[i] = repeats[i];
      cur[i] = final[i];
      if (!(b = gnn_tensor_expand (a, wide, n_repeats + 1, error)) || !(c = gnn_tensor_contiguous (b, error)))
        return NULL;
      g_clear_object (&x);
      if (!(x = gnn_tensor_reshape (c, cur, n_repeats, error)))
        return NULL;
    }
  /* a result that shares no storage with @self, as PyTorch's */
  if (gnn_tensor_shares_storage (x, self))
    return gnn_tensor_clone (x, error);
  return g_steal_pointer (&x);
}

/**
 * gnn_tensor_tile:
 * @self: a tensor
 * @dims: (array length=n_dims): how many copies along each dimension; with fewer entries
 *   than @self has dimensions, leading ones are assumed
 * @n_dims: the number of entries of @dims
 * @error: return location for a #GError
 *
 * Tiles @self as `torch.tile (input, dims)`: gnn_tensor_repeat() with @dims padded with
 * leading ones to @self's number of dimensions.
 *
 * Returns: (transfer full): the tiled tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tile (GnnTensor *self, const gint64 *dims, guint n_dims, GError **error)
{
  guint ndim;
  g_autofree gint64 *padded = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  ndim = gnn_tensor_get_ndim (self);
  if (n_dims >= ndim)
    return gnn_tensor_repeat (self, dims, n_dims, error);
  padded = g_new (gint64, ndim);
  for (guint i = 0; i < ndim; i++)
    padded[i] = i < ndim - n_dims ? 1 : dims[i - (ndim - n_dims)];
  return gnn_tensor_repeat (self, padded, ndim, error);
}

/* ---- repeat_interleave -------------------------------------------------------------- */

/* The repeat counts of @repeats (an int64 or int32 tensor of 0 or 1 dimension), read to the
 * host; *n gets their number */
static gint64 *
read_repeats (GnnTensor *repeats, gsize *n, GError **error)
{
  GnnDtype dt = gnn_tensor_get_dtype (repeats);
  gint64 *v;

  if (dt != GNN_DTYPE_INT64 && dt != GNN_DTYPE_INT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "repeat_interleave(): expected repeats of dtype int64 or int32, got %s", dtype_name (repeats));
      return NULL;
    }
  if (gnn_tensor_get_ndim (repeats) > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "repeats must be 0-dim or 1-dim tensor, got %u dimensions", gnn_tensor_get_ndim (repeats));
      return NULL;
    }
  *n = (gsize) gnn_tensor_get_numel (repeats);
  v = gnn_tensor_to_int64s (repeats, NULL, error);
  if (v == NULL)
    return NULL;
  for (gsize i = 0; i < *n; i++)
    if (v[i] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "repeats can not be negative: got %" G_GINT64_FORMAT " at position %" G_GSIZE_FORMAT,
                     v[i], i);
        g_free (v);
        return NULL;
      }
  return v;
}

/* The index [0 × r0, 1 × r1, ...] of @n counts (all @r0 when @n_counts is 1 and @size
 * given), checked against @output_size (negative: none); *total gets its length */
static gint64 *
interleave_index (const gint64 *counts, gsize n_counts, gint64 size, gint64 output_size, gint64 *total,
                  GError **error)
{
  gint64 sum = 0, at = 0;
  gint64 *index;

  for (gint64 i = 0; i < size; i++)
    sum += counts[n_counts == 1 ? 0 : i];
  if (output_size >= 0 && output_size != sum)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "allocated size does not match required size: output_size is %" G_GINT64_FORMAT
                   " but the repeats add up to %" G_GINT64_FORMAT, output_size, sum);
      return NULL;
    }
  index = g_new (gint64, MAX (sum, 1));
  for (gint64 i = 0; i < size; i++)
    for (gint64 k = 0; k < counts[n_counts == 1 ? 0 : i]; k++)
      index[at++] = i;
  *total = sum;
  return index;
}

/**
 * gnn_tensor_repeat_interleave:
 * @self: a tensor
 * @repeats: an int64 (or int32) tensor of 0 or 1 dimension: the number of copies of each
 *   slice along @dim (one count for all, or one for each), none negative
 * @dim: the dimension along which to repeat
 * @flatten: whether to repeat the elements of @self flattened, ignoring @dim (PyTorch's
 *   `dim=None`)
 * @output_size: the length of the result along @dim, which must be the sum of the repeats;
 *   negative: not given
 * @error: return location for a #GError
 *
 * Repeats each slice of @self along @dim as many times as @repeats says
 * (`torch.repeat_interleave (input, repeats, dim, output_size=)`): with @repeats [1, 2],
 * the rows [a, b] give [a, b, b]. Composed of index_select, whose backward adds the
 * copies' gradients.
 *
 * Returns: (transfer full): the repeated tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_repeat_interleave (GnnTensor *self, GnnTensor *repeats, int dim, gboolean flatten, gint64 output_size,
                              GError **error)
{
  g_autoptr(GnnTensor) src = NULL, index = NULL;
  g_autofree gint64 *counts = NULL, *picks = NULL;
  gsize n_counts;
  gint64 size, total;
  guint d = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (repeats), NULL);
  if (flatten)
    src = flat (self, error);
  else if (gnn_normalize_dim (dim, MAX (gnn_tensor_get_ndim (self), 1), &d, error))
    src = gnn_tensor_get_ndim (self) == 0 ? flat (self, error) : g_object_ref (self);
  if (src == NULL || !(counts = read_repeats (repeats, &n_counts, error)))
    return NULL;
  size = gnn_tensor_get_shape (src, NULL)[d];
  if (n_counts != 1 && (gint64) n_counts != size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "repeats must have the same size as input along dim: got %" G_GSIZE_FORMAT
                   " repeats for size %" G_GINT64_FORMAT, n_counts, size);
      return NULL;
    }
  if (!(picks = interleave_index (counts, n_counts, size, output_size, &total, error)) ||
      !(index = index_1d (src, picks, (gsize) total, error)))
    return NULL;
  return gnn_tensor_index_select (src, (int) d, index, error);
}

/**
 * gnn_tensor_repeat_interleave_int:
 * @self: a tensor
 * @repeats: the number of copies of each slice, not negative
 * @dim: the dimension along which to repeat
 * @flatten: whether to repeat the elements of @self flattened, ignoring @dim (`dim=None`)
 * @output_size: the length of the result along @dim, which must be @repeats times its
 *   size; negative: not given
 * @error: return location for a #GError
 *
 * gnn_tensor_repeat_interleave() with one count for every slice
 * (`torch.repeat_interleave (input, repeats: int, dim)`).
 *
 * Returns: (transfer full): the repeated tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_repeat_interleave_int (GnnTensor *self, gint64 repeats, int dim, gboolean flatten, gint64 output_size,
                                  GError **error)
{
  g_autoptr(GnnTensor) r = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (repeats < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "repeats can not be negative: got %" G_GINT64_FORMAT, repeats);
      return NULL;
    }
  if (!(r = gnn_tensor_new_from_int64s (&repeats, 1, NULL, 0, error)))
    return NULL;
  return gnn_tensor_repeat_interleave (self, r, dim, flatten, output_size, error);
}

/**
 * gnn_repeat_interleave_counts:
 * @repeats: an int64 (or int32) tensor of 0 or 1 dimension, none negative
 * @output_size: the length of the result, which must be the sum of @repeats; negative: not
 *   given
 * @error: return location for a #GError
 *
 * `torch.repeat_interleave (repeats)`: the int64 indices 0, 1, ... each repeated as
 * @repeats says ([2, 0, 1] gives [0, 0, 2]), on @repeats' device.
 *
 * Returns: (transfer full): the repeated indices, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_repeat_interleave_counts (GnnTensor *repeats, gint64 output_size, GError **error)
{
  g_autofree gint64 *counts = NULL, *picks = NULL;
  gsize n_counts;
  gint64 total;

  g_return_val_if_fail (GNN_IS_TENSOR (repeats), NULL);
  if (!(counts = read_repeats (repeats, &n_counts, error)))
    return NULL;
  if (!(picks = interleave_index (counts, n_counts, (gint64) n_counts, output_size, &total, error)))
    return NULL;
  return index_1d (repeats, picks, (gsize) total, error);
}

/* ---- take, take_along_dim ----------------------------------------------------------- */

/**
 * gnn_tensor_take:
 * @self: a tensor
 * @index: an int64 tensor of any shape: positions in @self flattened, negative ones
 *   counting from the end
 * @error: return location for a #GError
 *
 * The elements of @self, read as one dimension, at @index (`torch.take (input, index)`);
 * the result has @index's shape. An index out of range is an error naming it. The
 * gradient adds back into the picked positions.
 *
 * Returns: (transfer full): the picked elements, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_take (GnnTensor *self, GnnTensor *index, GError **error)
{
  g_autoptr(GnnTensor) f = NULL, idx = NULL, picked = NULL;
  g_autofree gint64 *v = NULL;
  gint64 numel, n;
  guint ndim;
  const gint64 *shape;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (index), NULL);
  if (gnn_tensor_get_dtype (index) != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "take(): Expected a long tensor for index, but got %s", dtype_name (index));
      return NULL;
    }
  if (!gnn_check_same_device ("take", self, index, error))
    return NULL;
  numel = gnn_tensor_get_numel (self);
  n = gnn_tensor_get_numel (index);
  if (!(v = gnn_tensor_to_int64s (index, NULL, error)))
    return NULL;
  for (gint64 i = 0; i < n; i++)
    {
      if (v[i] < -numel || v[i] >= numel)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "out of range: tried to access index %" G_GINT64_FORMAT " on a tensor of %" G_GINT64_FORMAT
                       " elements.", v[i], numel);
          return NULL;
        }
      if (v[i] < 0)
        v[i] += numel;
    }
  shape = gnn_tensor_get_shape (index, &ndim);
  if (!(f = flat (self, error)) || !(idx = index_1d (self, v, (gsize) n, error)) ||
      !(picked = gnn_tensor_index_select (f, 0, idx, error)))
    return NULL;
  return gnn_tensor_reshape (picked, shape, ndim, error);
}

/**
 * gnn_tensor_take_along_dim:
 * @self: a tensor
 * @indices: an int64 tensor: with @flatten, of any shape; otherwise with as many dimensions
 *   as @self, broadcasting with it in every dimension but @dim
 * @dim: the dimension to pick along
 * @flatten: whether to pick from @self flattened, ignoring @dim (PyTorch's `dim=None`)
 * @error: return location for a #GError
 *
 * `torch.take_along_dim (input, indices, dim)`: gnn_tensor_gather() after broadcasting
 * @self and @indices against each other outside @dim (numpy's take_along_axis); with
 * @flatten, the elements of @self flattened at @indices flattened.
 *
 * Returns: (transfer full): the picked elements, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_take_along_dim (GnnTensor *self, GnnTensor *indices, int dim, gboolean flatten, GError **error)
{
  guint ndim, indim, d, nb;
  const gint64 *shape, *ishape;
  gint64 a[GNN_MAX_DIMS], b[GNN_MAX_DIMS], out[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) x = NULL, i = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (indices), NULL);
  if (gnn_tensor_get_dtype (indices) != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "torch.take_along_dim(): dtype of indices should be Long but got %s", dtype_name (indices));
      return NULL;
    }
  if (flatten)
    {
      if (!(x = flat (self, error)) || !(i = flat (indices, error)))
        return NULL;
      return gnn_tensor_gather (x, 0, i, error);
    }
  shape = gnn_tensor_get_shape (self, &ndim);
  ishape = gnn_tensor_get_shape (indices, &indim);
  if (ndim != indim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
                   "%u dimensions for input, and %u dimensions for indices", ndim, indim);
      return NULL;
    }
  if (!gnn_normalize_dim (dim, MAX (ndim, 1), &d, error))
    return NULL;
  if (ndim == 0)
    return gnn_tensor_gather (self, 0, indices, error);
  for (guint k = 0; k < ndim; k++)
    {
      a[k] = k == d ? 1 : shape[k];
      b[k] = k == d ? 1 : ishape[k];
    }
  if (!gnn_broadcast_shapes ("take_along_dim", ndim, a, ndim, b, &nb, out, error))
    return NULL;
  memcpy (a, out, ndim * sizeof (gint64));
  memcpy (b, out, ndim * sizeof (gint64));
  a[d] = shape[d];
  b[d] = ishape[d];
  if (!(x = gnn_tensor_expand (self, a, ndim, error)) || !(i = gnn_tensor_expand (indices, b, ndim, error)))
    return NULL;
  return gnn_tensor_gather (x, (int) d, i, error);
}

/* ---- masks -------------------------------------------------------------------------- */

static gboolean
check_mask (const char *op, GnnTensor *mask, GError **error)
{
  GnnDtype dt = gnn_tensor_get_dtype (mask);

  if (dt == GNN_DTYPE_BOOL || dt == GNN_DTYPE_UINT8)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "%s: expected BoolTensor or ByteTensor for mask, got %s", op, dtype_name (mask));
  return FALSE;
}

/* @self and @mask expanded to their broadcast shape (@self_fixed: to @self's own, which the
 * mask must broadcast to), with the flat positions of the mask's ones read to the host */
static gboolean
broadcast_mask (const char *op, GnnTensor *self, GnnTensor *mask, gboolean self_fixed, GnnTensor **self_out,
                gint64 **picks, gint64 *n_picks, guint *ndim_out, gint64 *shape_out, GError **error)
{
  guint ns, nm, n;
  const gint64 *ss = gnn_tensor_get_shape (self, &ns), *ms = gnn_tensor_get_shape (mask, &nm);
  g_autoptr(GnnTensor) m = NULL;
  g_autofree gboolean *on = NULL;
  gint64 numel, k = 0;

  if (!check_mask (op, mask, error) || !gnn_check_same_device (op, self, mask, error))
    return FALSE;
  if (self_fixed)
    {
      n = ns;
      memcpy (shape_out, ss, ns * sizeof (gint64));
    }
  else if (!gnn_broadcast_shapes (op, ns, ss, nm, ms, &n, shape_out, error))
    return FALSE;
  if (!(m = gnn_tensor_expand (mask, shape_out, n, error)) ||
      !(*self_out = gnn_tensor_expand (self, shape_out, n, error)))
    return FALSE;
  if (!(on = host_nonzero (m, error)))
    {
      g_clear_object (self_out);
      return FALSE;
    }
  numel = gnn_shape_numel (n, shape_out);
  *picks = g_new (gint64, MAX (numel, 1));
  for (gint64 i = 0; i < numel; i++)
    if (on[i])
      (*picks)[k++] = i;
  *n_picks = k;
  *ndim_out = n;
  return TRUE;
}

/**
 * gnn_tensor_masked_select:
 * @self: a tensor
 * @mask: a bool (or uint8) tensor broadcasting with @self
 * @error: return location for a #GError
 *
 * The elements of @self where @mask is true, in row-major order, as a one-dimensional
 * tensor (`torch.masked_select (input, mask)`); @self and @mask broadcast against each
 * other. The gradient goes back to the selected positions.
 *
 * Returns: (transfer full): the selected elements, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_masked_select (GnnTensor *self, GnnTensor *mask, GError **error)
{
  g_autoptr(GnnTensor) x = NULL, f = NULL, idx = NULL;
  g_autofree gint64 *picks = NULL;
  gint64 n, shape[GNN_MAX_DIMS];
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (mask), NULL);
  if (!broadcast_mask ("masked_select", self, mask, FALSE, &x, &picks, &n, &ndim, shape, error) ||
      !(f = flat (x, error)) || !(idx = index_1d (self, picks, (gsize) n, error)))
    return NULL;
  return gnn_tensor_index_select (f, 0, idx, error);
}

/**
 * gnn_tensor_masked_scatter:
 * @self: a tensor
 * @mask: a bool (or uint8) tensor broadcasting with @self
 * @source: a tensor of @self's dtype with at least as many elements as @mask has ones
 * @error: return location for a #GError
 *
 * @self with the positions where @mask is true filled, in row-major order, with the first
 * elements of @source (`torch.masked_scatter (input, mask, source)`); @self and @mask
 * broadcast against each other. Gradients go to @self outside the mask and to the used
 * elements of @source.
 *
 * Returns: (transfer full): the filled tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_masked_scatter (GnnTensor *self, GnnTensor *mask, GnnTensor *source, GError **error)
{
  g_autoptr(GnnTensor) x = NULL, base = NULL, f = NULL, s = NULL, part = NULL, idx = NULL, out = NULL;
  g_autofree gint64 *picks = NULL;
  gint64 n, shape[GNN_MAX_DIMS];
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (mask) && GNN_IS_TENSOR (source), NULL);
  if (gnn_tensor_get_dtype (self) != gnn_tensor_get_dtype (source))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "masked_scatter: expected self and source to have same dtypes but got %s and %s",
                   dtype_name (self), dtype_name (source));
      return NULL;
    }
  if (!gnn_check_same_device ("masked_scatter", self, source, error) ||
      !broadcast_mask ("masked_scatter", self, mask, FALSE, &x, &picks, &n, &ndim, shape, error))
    return NULL;
  if (gnn_tensor_get_numel (source) < n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Number of elements of source < number of ones in mask: %" G_GINT64_FORMAT " < %" G_GINT64_FORMAT,
                   gnn_tensor_get_numel (source), n);
      return NULL;
    }
  if (!(base = gnn_tensor_contiguous (x, error)) || !(f = flat (base, error)) || !(s = flat (source, error)) ||
      !(part = gnn_tensor_narrow (s, 0, 0, n, error)) || !(idx = index_1d (self, picks, (gsize) n, error)) ||
      !(out = gnn_tensor_index_copy (f, 0, idx, part, error)))
    return NULL;
  return gnn_tensor_reshape (out, shape, ndim, error);
}

/* The coordinates of @self's non-zero elements: a new (n, max (ndim, 1)) array, *n set */
static gint64 *
nonzero_coords (GnnTensor *self, gint64 *n_out, GError **error)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (self, &ndim);
  gint64 numel = gnn_tensor_get_numel (self), n = 0, w = MAX (ndim, 1);
  g_autofree gboolean *on = host_nonzero (self, error);
  gint64 *coords;

  if (on == NULL)
    return NULL;
  for (gint64 i = 0; i < numel; i++)
    n += on[i] != 0;
  coords = g_new0 (gint64, MAX (n * w, 1));
  n = 0;
  for (gint64 i = 0; i < numel; i++)
    if (on[i])
      {
        gint64 rest = i;
        for (int k = (int) ndim - 1; k >= 0; k--)
          {
            coords[n * w + k] = rest % shape[k];
            rest /= shape[k];
          }
        n++;
      }
  *n_out = n;
  return coords;
}

/**
 * gnn_tensor_nonzero:
 * @self: a tensor of any dtype
 * @error: return location for a #GError
 *
 * The coordinates of @self's non-zero elements (`torch.nonzero (input)`, also
 * `torch.argwhere`): an int64 tensor of shape (n, ndim), one row per non-zero element in
 * row-major order. NaN counts as non-zero. No gradient.
 *
 * Returns: (transfer full): the coordinates, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nonzero (GnnTensor *self, GError **error)
{
  g_autofree gint64 *coords = NULL;
  gint64 n, shape[2];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!(coords = nonzero_coords (self, &n, error)))
    return NULL;
  shape[0] = n;
  shape[1] = gnn_tensor_get_ndim (self);
  return index_on (self, coords, (gsize) (shape[0] * shape[1]), shape, 2, error);
}

/**
 * gnn_tensor_nonzero_tuple:
 * @self: a tensor of any dtype
 * @error: return location for a #GError
 *
 * `torch.nonzero (input, as_tuple=True)`: one int64 tensor of the coordinates of @self's
 * non-zero elements for each dimension (one for a zero-dimensional @self, read as one
 * dimension), each of shape (n).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the coordinates, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_nonzero_tuple (GnnTensor *self, GError **error)
{
  g_autofree gint64 *coords = NULL, *column = NULL;
  g_autoptr(GPtrArray) out = NULL;
  gint64 n, w;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!(coords = nonzero_coords (self, &n, error)))
    return NULL;
  w = MAX (gnn_tensor_get_ndim (self), 1);
  column = g_new (gint64, MAX (n, 1));
  out = g_ptr_array_new_full ((guint) w, g_object_unref);
  for (gint64 k = 0; k < w; k++)
    {
      GnnTensor *t;
      for (gint64 i = 0; i < n; i++)
        column[i] = coords[i * w + k];
      if (!(t = index_1d (self, column, (gsize) n, error)))
        return NULL;
      g_ptr_array_add (out, t);
    }
  return g_steal_pointer (&out);
}
