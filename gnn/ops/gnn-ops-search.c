/* gnn-ops-search.c: the ops whose result depends on comparing values with each other (unique,
 * unique_consecutive) or with bins and boundaries (bincount, histc, histogram, searchsorted,
 * bucketize, isin), frexp, and quantile
 *
 * The sizes of unique's and bincount's results depend on the data, so their operands are read
 * to the host once, as PyTorch must too (a counted transfer for a tensor on another device),
 * and the results go back to the operand's device. The other ops here take the same path, so
 * that every backend runs them with no kernel of its own. quantile is composed of sort, gather
 * and arithmetic ops, so that its gradient flows through their backwards.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

/* ---- helpers ------------------------------------------------------------------------ */

/* A tensor's elements on the host, in row-major order: int64 for the integer and boolean
 * dtypes (exact), double for the floating ones (exact too) */
typedef struct
{
  gboolean is_int;
  gint64 n;
  gint64 *i;
  double *d;
} Host;

static void
host_clear (Host *h)
{
  g_clear_pointer (&h->i, g_free);
  g_clear_pointer (&h->d, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Host, host_clear)

static gboolean
host_read (GnnTensor *t, Host *h, GError **error)
{
  h->n = gnn_tensor_get_numel (t);
  h->is_int = !gnn_dtype_is_floating (gnn_tensor_get_dtype (t));
  if (h->is_int)
    h->i = h->n > 0 ? gnn_tensor_to_int64s (t, NULL, error) : g_new0 (gint64, 1);
  else
    h->d = h->n > 0 ? gnn_tensor_to_doubles (t, NULL, error) : g_new0 (double, 1);
  return h->i != NULL || h->d != NULL;
}

/* -1, 0 or 1 as element a of @h sorts before, with or after element b; NaN is the largest */
static int
host_cmp (const Host *h, gint64 a, gint64 b)
{
  if (h->is_int)
    return h->i[a] < h->i[b] ? -1 : h->i[a] > h->i[b];
  else
    {
      double x = h->d[a], y = h->d[b];
      if (isnan (x) || isnan (y))
        return isnan (x) - isnan (y);
      return x < y ? -1 : x > y;
    }
}

/* whether elements a and b are equal (NaN equals nothing, as in PyTorch's unique) */
static gboolean
host_eq (const Host *h, gint64 a, gint64 b)
{
  return h->is_int ? h->i[a] == h->i[b] : h->d[a] == h->d[b];
}

static const char *
dtype_name (GnnTensor *t)
{
  return gnn_dtype_get_name (gnn_tensor_get_dtype (t));
}

/* A tensor of @dtype on @like's device from host values: int64s when @ints, else doubles */
static GnnTensor *
tensor_from_host (GnnTensor *like, GnnDtype dtype, const gint64 *ints, const double *doubles, gint64 n,
                  const gint64 *shape, guint ndim, GError **error)
{
  g_autoptr(GnnTensor) host = NULL, cast = NULL;
  gint64 one = 0;

  /* gnn_tensor_new_from_* read at least one element */
  if (n == 0)
    {
      ints = &one;
      doubles = NULL;
    }
  host = ints ? gnn_tensor_new_from_int64s (ints, n, shape, ndim, error)
              : gnn_tensor_new_from_doubles (doubles, n, shape, ndim, error);
  if (!host || !(cast = gnn_tensor_cast (host, dtype, error)))
    return NULL;
  return like ? gnn_tensor_to_device_of (cast, like, error) : g_steal_pointer (&cast);
}

/* elements of @h picked at @pick (@n_pick of them), as a tensor of @like's dtype and device */
static GnnTensor *
host_pick (GnnTensor *like, const Host *h, const gint64 *pick, gint64 n_pick, const gint64 *shape, guint ndim,
           GError **error)
{
  g_autofree gint64 *ints = h->is_int ? g_new (gint64, MAX (n_pick, 1)) : NULL;
  g_autofree double *doubles = h->is_int ? NULL : g_new (double, MAX (n_pick, 1));

  for (gint64 k = 0; k < n_pick; k++)
    if (ints)
      ints[k] = h->i[pick[k]];
    else
      doubles[k] = h->d[pick[k]];
  return tensor_from_host (like, gnn_tensor_get_dtype (like), ints, doubles, n_pick, shape, ndim, error);
}

/* The backward of an op that PyTorch 1.13 gives no derivative: its output requires grad (as
 * PyTorch's does), and a backward through it fails with PyTorch's message */
static gboolean
not_implemented_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "the derivative for '%s' is not implemented.",
               (const char *) node->ctx);
  return FALSE;
}

static void
record_not_implemented (const char *grad_name, const char *torch_op, GnnTensor **inputs, guint n_inputs,
                        GnnTensor *output)
{
  GnnNode *node = gnn_autograd_record (grad_name, not_implemented_backward, inputs, n_inputs, &output, 1);

  if (node)
    gnn_node_set_ctx (node, (gpointer) torch_op, NULL);
}

/* ---- unique, unique_consecutive ------------------------------------------------------ */

typedef struct
{
  const Host *h;
  gint64 outer, r, inner;   /* the layout around the dim compared (r 0 for one flat dim) */
} SliceOrder;

/* lexicographic order of slices a and b along the dim (elements o-major, then i) */
static int
slice_cmp (const SliceOrder *s, gint64 a, gint64 b)
{
  for (gint64 o = 0; o < s->outer; o++)
    for (gint64 i = 0; i < s->inner; i++)
      {
        gint64 base = o * s->r * s->inner + i;
        int c = host_cmp (s->h, base + a * s->inner, base + b * s->inner);
        if (c != 0)
          return c;
      }
  return 0;
}

static gboolean
slice_eq (const SliceOrder *s, gint64 a, gint64 b)
{
  for (gint64 o = 0; o < s->outer; o++)
    for (gint64 i = 0; i < s->inner; i++)
      {
        gint64 base = o * s->r * s->inner + i;
        if (!host_eq (s->h, base + a * s->inner, base + b * s->inner))
          return FALSE;
      }
  return TRUE;
}

static gint
slice_qsort_cmp (gconstpointer a, gconstpointer b, gpointer data)
{
  return slice_cmp (data, *(const gint64 *) a, *(const gint64 *) b);
}

/* unique over the slices along @dim of @self (all elements as one flat dim when @whole),
 * sorted (else consecutive runs): the distinct slices
 * in their order, inverse and counts */
static GnnTensor *
unique_impl (const char *op, const char *grad_name, const char *torch_op, GnnTensor *self, gboolean whole,
             int dim, gboolean sort, GnnTensor **inverse, GnnTensor **counts, GError **error)
{
  guint ndim = gnn_tensor_get_ndim (self), d = 0;
  const gint64 *shape = gnn_tensor_get_shape (self, NULL);
  g_auto (Host) h = { 0 };
  SliceOrder s;
  g_autofree gint64 *order = NULL, *first = NULL, *inv = NULL, *cnt = NULL, *pick = NULL;
  gint64 n_runs = 0, out_shape[GNN_MAX_DIMS], inv_shape;
  g_autoptr(GnnTensor) values = NULL, inv_t = NULL, cnt_t = NULL;

  if (whole)   /* all elements as one flat dim */
    {
      s.outer = 1;
      s.r = gnn_tensor_get_numel (self);
      s.inner = 1;
    }
  else
    {
      if (ndim == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "%s: dimension specified as %d but the tensor has no dimensions", op, dim);
          return NULL;
        }
      if (!gnn_normalize_dim (dim, ndim, &d, error))
        return NULL;
      gnn_layout_around (ndim, shape, d, &s.outer, &s.r, &s.inner);
      if (s.r > 0 && s.outer * s.inner == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: there are 0 sized dimensions, and they aren't selected, so unique cannot be "
                       "applied (dim %u of a tensor with %" G_GINT64_FORMAT " elements)", op, d,
                       gnn_tensor_get_numel (self));
          return NULL;
        }
    }
  if (!host_read (self, &h, error))
    return NULL;
  s.h = &h;
  order = g_new (gint64, MAX (s.r, 1));
  for (gint64 k = 0; k < s.r; k++)
    order[k] = k;
  if (sort && s.r > 1)
    g_qsort_with_data (order, s.r, sizeof (gint64), slice_qsort_cmp, &s);   /* stable */
  first = g_new (gint64, MAX (s.r, 1));
  cnt = g_new0 (gint64, MAX (s.r, 1));
  inv = g_new (gint64, MAX (s.r, 1));
  for (gint64 k = 0; k < s.r; k++)
    {
      if (k == 0 || !slice_eq (&s, order[k - 1], order[k]))
        first[n_runs++] = order[k];
      cnt[n_runs - 1]++;
      inv[order[k]] = n_runs - 1;
    }

  /* the distinct slices */
  if (whole)
    {
      out_shape[0] = n_runs;
      values = host_pick (self, &h, first, n_runs, out_shape, 1, error);
    }
  else
    {
      gint64 n = s.outer * n_runs * s.inner, at = 0;
      pick = g_new (gint64, MAX (n, 1));
      for (gint64 o = 0; o < s.outer; o++)
        for (gint64 u = 0; u < n_runs; u++)
          for (gint64 i = 0; i < s.inner; i++)
            pick[at++] = (o * s.r + first[u]) * s.inner + i;
      memcpy (out_shape, shape, ndim * sizeof (gint64));
      out_shape[d] = n_runs;
      values = host_pick (self, &h, pick, n, out_shape, ndim, error);
    }
  if (!values)
    return NULL;
  inv_shape = s.r;
  if (inverse && !(inv_t = whole ? tensor_from_host (self, GNN_DTYPE_INT64, inv, NULL, s.r, shape, ndim, error)
                                           : tensor_from_host (self, GNN_DTYPE_INT64, inv, NULL, s.r, &inv_shape, 1,
                                                               error)))
    return NULL;
  if (counts && !(cnt_t = tensor_from_host (self, GNN_DTYPE_INT64, cnt, NULL, n_runs, &n_runs, 1, error)))
    return NULL;
  record_not_implemented (grad_name, torch_op, &self, 1, values);
  if (inverse)
    *inverse = g_steal_pointer (&inv_t);
  if (counts)
    *counts = g_steal_pointer (&cnt_t);
  return g_steal_pointer (&values);
}

/**
 * gnn_tensor_unique:
 * @self: a tensor
 * @sorted: whether the distinct values come in ascending order; gnn's always do (PyTorch
 *   leaves the order unspecified when it is %FALSE, and sorts on CUDA)
 * @inverse: (out) (optional) (transfer full): return location for the int64 position in the
 *   result of each element of @self, shaped as @self
 * @counts: (out) (optional) (transfer full): return location for the int64 number of times
 *   each distinct value occurs
 * @error: return location for a #GError
 *
 * The distinct elements of @self, flattened, in ascending order (`torch.unique (input,
 * sorted, return_inverse, return_counts)`), with the inverse map and the counts. NaN equals
 * nothing, so each NaN is distinct; NaNs sort last. Computed on the host, the results sent
 * back to @self's device. The values carry no derivative: they require grad when @self does,
 * and a backward through them fails, as in PyTorch.
 *
 * Returns: (transfer full): the one-dimensional tensor of distinct values, of @self's dtype,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unique (GnnTensor *self, gboolean sorted, GnnTensor **inverse, GnnTensor **counts, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unique_impl ("unique", "Unique2Backward0", "_unique2", self, TRUE, 0, TRUE, inverse, counts, error);
}

/**
 * gnn_tensor_unique_dim:
 * @self: a tensor with at least one dimension
 * @dim: the dimension whose slices are compared, negative from the end
 * @sorted: as for [method@Gnn.Tensor.unique] (the slices are always sorted)
 * @inverse: (out) (optional) (transfer full): return location for the int64 position in the
 *   result of each slice of @self, of the size of @dim
 * @counts: (out) (optional) (transfer full): return location for the int64 number of times
 *   each distinct slice occurs
 * @error: return location for a #GError
 *
 * The distinct slices of @self along @dim in lexicographic order (`torch.unique (input,
 * dim=dim)`), with the inverse map and the counts; as [method@Gnn.Tensor.unique] otherwise.
 *
 * Returns: (transfer full): the distinct slices, @self's shape with their number along @dim,
 *   or %NULL with @error set (%GNN_ERROR_INDEX when @dim is out of range, %GNN_ERROR_SHAPE
 *   when another dimension has size 0)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unique_dim (GnnTensor *self, int dim, gboolean sorted, GnnTensor **inverse, GnnTensor **counts,
                       GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unique_impl ("unique", "UniqueDimBackward0", "unique_dim", self, FALSE, dim, TRUE, inverse, counts, error);
}

/**
 * gnn_tensor_unique_consecutive:
 * @self: a tensor
 * @inverse: (out) (optional) (transfer full): return location for the int64 position in the
 *   result of each element of @self, shaped as @self
 * @counts: (out) (optional) (transfer full): return location for the int64 length of each run
 * @error: return location for a #GError
 *
 * @self flattened with each run of equal consecutive elements kept once
 * (`torch.unique_consecutive (input, return_inverse, return_counts)`), with the inverse map
 * and the run lengths. NaN equals nothing. As [method@Gnn.Tensor.unique] for devices and
 * gradients.
 *
 * Returns: (transfer full): the one-dimensional tensor of the runs' values, of @self's dtype,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unique_consecutive (GnnTensor *self, GnnTensor **inverse, GnnTensor **counts, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unique_impl ("unique_consecutive", "UniqueConsecutiveBackward0", "unique_consecutive", self, TRUE, 0,
                      FALSE, inverse, counts, error);
}

/**
 * gnn_tensor_unique_consecutive_dim:
 * @self: a tensor with at least one dimension
 * @dim: the dimension whose slices are compared, negative from the end
 * @inverse: (out) (optional) (transfer full): return location for the int64 position in the
 *   result of each slice of @self, of the size of @dim
 * @counts: (out) (optional) (transfer full): return location for the int64 length of each run
 * @error: return location for a #GError
 *
 * @self with each run of equal consecutive slices along @dim kept once
 * (`torch.unique_consecutive (input, dim=dim)`); as [method@Gnn.Tensor.unique_dim] otherwise.
 *
 * Returns: (transfer full): the runs' slices, @self's shape with their number along @dim, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unique_consecutive_dim (GnnTensor *self, int dim, GnnTensor **inverse, GnnTensor **counts,
                                   GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unique_impl ("unique_consecutive", "UniqueConsecutiveBackward0", "unique_consecutive", self, FALSE, dim,
                      FALSE, inverse, counts, error);
}

/* ---- bincount, histc, histogram ------------------------------------------------------- */

static gboolean
is_integral (GnnDtype dtype)
{
  return !gnn_dtype_is_floating (dtype) && dtype != GNN_DTYPE_BOOL;
}

/**
 * gnn_tensor_bincount:
 * @self: a one-dimensional tensor of non-negative integers
 * @weights: (nullable): a float tensor of @self's length, or %NULL to count
 * @minlength: the least length of the result
 * @error: return location for a #GError
 *
 * How often each value 0, 1, … occurs in @self (`torch.bincount (input, weights, minlength)`),
 * or the sum of @weights at the positions holding it. The result has `max (@self) + 1` entries,
 * at least @minlength. It is int64 without @weights (and, as in PyTorch, for an empty @self);
 * of @weights' dtype when that is float32 or float64, else float64, as in PyTorch (float32
 * weights are summed in float32). Computed on
 * the host. With @weights that require grad it requires grad and has no derivative, as in
 * PyTorch.
 *
 * Returns: (transfer full): the counts, or %NULL with @error set (%GNN_ERROR_DTYPE for a
 *   float or boolean @self, %GNN_ERROR_SHAPE when @self is not one-dimensional or @weights'
 *   shape differs, %GNN_ERROR_INVALID_ARGUMENT for a negative value or @minlength)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bincount (GnnTensor *self, GnnTensor *weights, gint64 minlength, GError **error)
{
  g_auto (Host) h = { 0 };
  g_auto (Host) w = { 0 };
  g_autoptr(GnnTensor) out = NULL;
  gint64 n, size;
  GnnDtype wdtype = GNN_DTYPE_INT64;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (weights == NULL || GNN_IS_TENSOR (weights), NULL);
  if (!is_integral (gnn_tensor_get_dtype (self)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "bincount only supports 1-d non-negative integral inputs: expected an integer tensor, "
                   "got %s", dtype_name (self));
      return NULL;
    }
  if (gnn_tensor_get_ndim (self) != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "bincount only supports 1-d non-negative integral inputs: expected 1 dimension, got %u",
                   gnn_tensor_get_ndim (self));
      return NULL;
    }
  if (minlength < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "minlength should be >= 0, got %" G_GINT64_FORMAT, minlength);
      return NULL;
    }
  n = gnn_tensor_get_numel (self);
  if (weights)
    {
      if (gnn_tensor_get_ndim (weights) != 1 || gnn_tensor_get_numel (weights) != n)
        {
          g_autofree char *found = gnn_shape_to_string (gnn_tensor_get_ndim (weights),
                                                        gnn_tensor_get_shape (weights, NULL));
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "weights should be 1-d and have the same length as input: expected [%" G_GINT64_FORMAT
                       "], got %s", n, found);
          return NULL;
        }
      wdtype = gnn_tensor_get_dtype (weights) == GNN_DTYPE_FLOAT32 ? GNN_DTYPE_FLOAT32 : GNN_DTYPE_FLOAT64;
      if (!gnn_check_same_device ("bincount", self, weights, error) || !host_read (weights, &w, error))
        return NULL;
    }
  if (!host_read (self, &h, error))
    return NULL;
  size = minlength;
  for (gint64 k = 0; k < n; k++)
    {
      if (h.i[k] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "bincount only supports 1-d non-negative integral inputs: found %" G_GINT64_FORMAT
                       " at position %" G_GINT64_FORMAT, h.i[k], k);
          return NULL;
        }
      size = MAX (size, h.i[k] + 1);
    }
  if (size > (G_GINT64_CONSTANT (1) << 40))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_OUT_OF_MEMORY,
                   "bincount: %" G_GINT64_FORMAT " bins do not fit in memory", size);
      return NULL;
    }
  if (!weights || n == 0)   /* PyTorch gives int64 zeros for an empty input, weights or not */
    {
      g_autofree gint64 *c = g_new0 (gint64, MAX (size, 1));
      for (gint64 k = 0; k < n; k++)
        c[h.i[k]]++;
      return tensor_from_host (self, GNN_DTYPE_INT64, c, NULL, size, &size, 1, error);
    }
  else
    {
      g_autofree double *c = g_new0 (double, MAX (size, 1));
      g_autofree float *cf = g_new0 (float, MAX (size, 1));
      for (gint64 k = 0; k < n; k++)
        {
          double wk = w.is_int ? (double) w.i[k] : w.d[k];
          if (wdtype == GNN_DTYPE_FLOAT32)
            cf[h.i[k]] += (float) wk;
          else
            c[h.i[k]] += wk;
        }
      if (wdtype == GNN_DTYPE_FLOAT32)
        for (gint64 k = 0; k < size; k++)
          c[k] = cf[k];
      if (!(out = tensor_from_host (self, wdtype, NULL, c, size, &size, 1, error)))
        return NULL;
      record_not_implemented ("BincountBackward0", "bincount", &weights, 1, out);
      return g_steal_pointer (&out);
    }
}

static gboolean
check_float_input (const char *op, GnnTensor *t, GError **error)
{
  GnnDtype dtype = gnn_tensor_get_dtype (t);

  if (dtype != GNN_DTYPE_FLOAT32 && dtype != GNN_DTYPE_FLOAT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: expected a float32 or float64 tensor, got %s", op,
                   dtype_name (t));
      return FALSE;
    }
  return TRUE;
}

/* the smallest and largest element of @h (NaN when one is NaN, as torch.aminmax) */
static void
host_min_max (const Host *h, double *lo, double *hi)
{
  *lo = *hi = 0;
  for (gint64 k = 0; k < h->n; k++)
    {
      double x = h->d[k];
      if (k == 0 || isnan (x) || x < *lo)
        *lo = isnan (*lo) ? *lo : x;
      if (k == 0 || isnan (x) || x > *hi)
        *hi = isnan (*hi) ? *hi : x;
    }
}

/* torch.linspace (start, end, steps) in float (when @f32) or double: from the start in the
 * first half, from the end in the second */
static void
linspace (double start, double end, gint64 steps, gboolean f32, double *out)
{
  gint64 halfway = steps / 2;

  if (steps == 1)
    {
      out[0] = f32 ? (float) start : start;
      return;
    }
  if (f32)
    {
      float s = (float) start, e = (float) end, step = (e - s) / (float) (steps - 1);
      for (gint64 k = 0; k < steps; k++)
        out[k] = k < halfway ? s + step * (float) k : e - step * (float) (steps - k - 1);
    }
  else
    {
      double step = (end - start) / (double) (steps - 1);
      for (gint64 k = 0; k < steps; k++)
        out[k] = k < halfway ? start + step * (double) k : end - step * (double) (steps - k - 1);
    }
}

/* the first position in @edges[lo, hi) whose edge is above @x */
static gint64
upper_bound (const double *edges, gint64 lo, gint64 hi, double x)
{
  while (lo < hi)
    {
      gint64 mid = lo + (hi - lo) / 2;
      if (!(edges[mid] > x))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

typedef enum
{
  BINS_LINEAR,        /* torch.histc: the position from the linear formula */
  BINS_LINEAR_SEARCH, /* torch.histogram with a bin count: the formula, then a local search */
  BINS_SEARCH         /* torch.histogram with edges: a binary search */
} BinAlgorithm;

/* The histogram of @h into the @n_edges - 1 bins of @edges, with @w's weights when given,
 * accumulated in float when @f32; as PyTorch 1.13's histogramdd kernel */
static void
histogram_fill (const Host *h, const Host *w, const double *edges, gint64 n_edges, BinAlgorithm algorithm,
                gboolean f32, double *hist)
{
  gint64 bins = n_edges - 1;
  double left = edges[0], right = edges[bins];
  g_autofree float *histf = f32 ? g_new0 (float, MAX (bins, 1)) : NULL;

  for (gint64 b = 0; b < bins; b++)
    hist[b] = 0;
  for (gint64 k = 0; k < h->n; k++)
    {
      double x = h->d[k];
      gint64 pos;

      if (!(x >= left && x <= right))
        continue;
      if (algorithm == BINS_SEARCH)
        pos = upper_bound (edges, 0, n_edges, x) - 1;
      else
        {
          if (f32)
            pos = (gint64) (((float) x - (float) left) * (float) bins / ((float) right - (float) left));
          else
            pos = (gint64) ((x - left) * (double) bins / (right - left));
          if (algorithm == BINS_LINEAR_SEARCH)
            {
              gint64 lo = MAX (0, pos - 1), hi = MIN (pos + 2, n_edges);
              pos = upper_bound (edges, lo, hi, x) - 1;
            }
        }
      if (pos == bins)
        pos--;
      if (pos < 0)
        continue;
      if (f32)
        histf[pos] += w ? (float) w->d[k] : 1.0f;
      else
        hist[pos] += w ? w->d[k] : 1.0;
    }
  if (f32)
    for (gint64 b = 0; b < bins; b++)
      hist[b] = histf[b];
}

/**
 * gnn_tensor_histc:
 * @self: a float32 or float64 tensor
 * @bins: the number of bins, at least 1
 * @min: the lower end of the range
 * @max: the upper end of the range; when @min equals @max, the range is that of the data
 *   (widened by 1 on each side when it is one value)
 * @error: return location for a #GError
 *
 * The histogram of @self in @bins bins of equal width between @min and @max
 * (`torch.histc (input, bins, min, max)`): elements outside the range (and NaN) are not
 * counted, and the last bin includes @max. Of @self's dtype; carries no gradient. Computed on
 * the host, bin by bin as PyTorch's kernel.
 *
 * Returns: (transfer full): the counts, of @bins entries, or %NULL with @error set
 *   (%GNN_ERROR_DTYPE for other dtypes, %GNN_ERROR_INVALID_ARGUMENT for @bins below 1,
 *   @min above @max or a range that is not finite)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_histc (GnnTensor *self, gint64 bins, double min, double max, GError **error)
{
  g_auto (Host) h = { 0 };
  g_autofree double *edges = NULL, *hist = NULL;
  gboolean f32;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!check_float_input ("torch.histc", self, error))
    return NULL;
  if (bins <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "torch.histc: bins must be > 0, but got %" G_GINT64_FORMAT,
                   bins);
      return NULL;
    }
  if (min > max)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.histc: max must be larger than min, got min %g and max %g", min, max);
      return NULL;
    }
  if (!host_read (self, &h, error))
    return NULL;
  if (min == max && h.n > 0)
    host_min_max (&h, &min, &max);
  if (min == max)
    {
      min -= 1;
      max += 1;
    }
  if (!isfinite (min) || !isfinite (max))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "torch.histc: range of [%g, %g] is not finite", min,
                   max);
      return NULL;
    }
  f32 = gnn_tensor_get_dtype (self) == GNN_DTYPE_FLOAT32;
  edges = g_new (double, bins + 1);
  hist = g_new (double, bins);
  linspace (min, max, bins + 1, f32, edges);
  histogram_fill (&h, NULL, edges, bins + 1, BINS_LINEAR, f32, hist);
  return tensor_from_host (self, gnn_tensor_get_dtype (self), NULL, hist, bins, &bins, 1, error);
}

/* the histogram of @self over @edges (read from a tensor or made from a range), with
 * density, as a tensor of @self's dtype; @edges_t the edges as a tensor */
static GnnTensor *
histogram_finish (GnnTensor *self, GnnTensor *weight, const double *edges, gint64 n_edges, BinAlgorithm algorithm,
                  gboolean density, GnnTensor **bin_edges, GError **error)
{
  g_auto (Host) h = { 0 };
  g_auto (Host) w = { 0 };
  gint64 bins = n_edges - 1;
  gboolean f32 = gnn_tensor_get_dtype (self) == GNN_DTYPE_FLOAT32;
  g_autofree double *hist = g_new0 (double, MAX (bins, 1));
  g_autoptr(GnnTensor) hist_t = NULL, edges_t = NULL;
  GnnTensor *inputs[2];
  guint n_inputs = 0;

  if (!host_read (self, &h, error) || (weight && !host_read (weight, &w, error)))
    return NULL;
  histogram_fill (&h, weight ? &w : NULL, edges, n_edges, algorithm, f32, hist);
  if (density)
    {
      double sum = 0;
      for (gint64 b = 0; b < bins; b++)
        sum += hist[b];
      for (gint64 b = 0; b < bins; b++)
        if (f32)
          hist[b] = (float) ((float) hist[b] / (float) sum) / (float) ((float) edges[b + 1] - (float) edges[b]);
        else
          hist[b] = hist[b] / sum / (edges[b + 1] - edges[b]);
    }
  if (!(hist_t = tensor_from_host (self, gnn_tensor_get_dtype (self), NULL, hist, bins, &bins, 1, error)) ||
      !(edges_t = tensor_from_host (self, gnn_tensor_get_dtype (self), NULL, edges, n_edges, &n_edges, 1, error)))
    return NULL;
  inputs[n_inputs++] = self;
  if (weight)
    inputs[n_inputs++] = weight;
  record_not_implemented ("HistogramBackward0", "histogram", inputs, n_inputs, hist_t);
  if (bin_edges)
    *bin_edges = g_steal_pointer (&edges_t);
  return g_steal_pointer (&hist_t);
}

static gboolean
check_histogram_weight (GnnTensor *self, GnnTensor *weight, GError **error)
{
  if (weight == NULL)
    return TRUE;
  if (gnn_tensor_get_dtype (weight) != gnn_tensor_get_dtype (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "torch.histogram: the weight tensor should have the input's dtype %s, got %s", dtype_name (self),
                   dtype_name (weight));
      return FALSE;
    }
  if (gnn_tensor_get_ndim (self) != gnn_tensor_get_ndim (weight) ||
      memcmp (gnn_tensor_get_shape (self, NULL), gnn_tensor_get_shape (weight, NULL),
              gnn_tensor_get_ndim (self) * sizeof (gint64)) != 0)
    {
      g_autofree char *want = gnn_shape_to_string (gnn_tensor_get_ndim (self), gnn_tensor_get_shape (self, NULL));
      g_autofree char *got = gnn_shape_to_string (gnn_tensor_get_ndim (weight), gnn_tensor_get_shape (weight, NULL));
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "torch.histogram: the weight tensor should have the input's shape %s, got %s", want, got);
      return FALSE;
    }
  return gnn_check_same_device ("histogram", self, weight, error);
}

/**
 * gnn_tensor_histogram:
 * @self: a float32 or float64 tensor
 * @bins: the number of bins of equal width, at least 1
 * @has_range: whether @range_min and @range_max give the range (else it is the data's)
 * @range_min: the lower end of the range
 * @range_max: the upper end of the range
 * @weight: (nullable): a tensor of @self's shape and dtype weighting each element, or %NULL
 * @density: whether to divide the counts by their sum and the bins' widths
 * @bin_edges: (out) (optional) (transfer full): return location for the @bins + 1 edges
 * @error: return location for a #GError
 *
 * The histogram of @self (`torch.histogram (input, bins, range=, weight=, density=)`): @bins
 * bins between the range's ends (a range of one value widened by 0.5 each side; an empty
 * input's range is [0, 1]), the last including its upper edge; NaN and elements outside are not
 * counted. Of @self's dtype. Computed on the host, as PyTorch's kernel; the result requires grad
 * when an operand does, with no derivative, as in PyTorch.
 *
 * Returns: (transfer full): the @bins counts, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_histogram (GnnTensor *self, gint64 bins, gboolean has_range, double range_min, double range_max,
                      GnnTensor *weight, gboolean density, GnnTensor **bin_edges, GError **error)
{
  double lo = 0, hi = 0;
  g_autofree double *edges = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  if (!check_float_input ("torch.histogram", self, error) || !check_histogram_weight (self, weight, error))
    return NULL;
  if (bins <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.histogram(): bins must be > 0, but got %" G_GINT64_FORMAT " for dimension 0", bins);
      return NULL;
    }
  if (has_range)
    {
      lo = range_min;
      hi = range_max;
    }
  else if (gnn_tensor_get_numel (self) > 0)
    {
      g_auto (Host) h = { 0 };
      if (!host_read (self, &h, error))
        return NULL;
      host_min_max (&h, &lo, &hi);
    }
  else
    hi = 1;
  if (!isfinite (lo) || !isfinite (hi))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.histogramdd: dimension 0's range [%g, %g] is not finite", lo, hi);
      return NULL;
    }
  if (lo > hi)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.histogramdd: min should not exceed max, but got min %g max %g for dimension 0", lo, hi);
      return NULL;
    }
  if (lo == hi)
    {
      lo -= 0.5;
      hi += 0.5;
    }
  edges = g_new (double, bins + 1);
  linspace (lo, hi, bins + 1, gnn_tensor_get_dtype (self) == GNN_DTYPE_FLOAT32, edges);
  return histogram_finish (self, weight, edges, bins + 1, BINS_LINEAR_SEARCH, density, bin_edges, error);
}

/**
 * gnn_tensor_histogram_bins:
 * @self: a float32 or float64 tensor
 * @bins: the one-dimensional tensor of bin edges, of @self's dtype, at least one of them
 * @weight: (nullable): a tensor of @self's shape and dtype weighting each element, or %NULL
 * @density: whether to divide the counts by their sum and the bins' widths
 * @bin_edges: (out) (optional) (transfer full): return location for a copy of @bins
 * @error: return location for a #GError
 *
 * The histogram of @self over the bins between consecutive edges of @bins
 * (`torch.histogram (input, bins_tensor, ...)`); as [method@Gnn.Tensor.histogram] otherwise.
 *
 * Returns: (transfer full): the counts, one fewer than the edges, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_histogram_bins (GnnTensor *self, GnnTensor *bins, GnnTensor *weight, gboolean density,
                           GnnTensor **bin_edges, GError **error)
{
  g_auto (Host) e = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (bins), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  if (!check_float_input ("torch.histogram", self, error) || !check_histogram_weight (self, weight, error) ||
      !gnn_check_same_device ("histogram", self, bins, error))
    return NULL;
  if (gnn_tensor_get_ndim (bins) != 1 || gnn_tensor_get_numel (bins) < 1)
    {
      g_autofree char *got = gnn_shape_to_string (gnn_tensor_get_ndim (bins), gnn_tensor_get_shape (bins, NULL));
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "torch.histogramdd: bins tensor should have one dimension and at least one edge, got shape %s",
                   got);
      return NULL;
    }
  if (gnn_tensor_get_dtype (bins) != gnn_tensor_get_dtype (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input "
                   "with dtype %s and bins with dtype %s", dtype_name (self), dtype_name (bins));
      return NULL;
    }
  if (!host_read (bins, &e, error))
    return NULL;
  return histogram_finish (self, weight, e.d, e.n, BINS_SEARCH, density, bin_edges, error);
}

/* ---- searchsorted, bucketize, isin ----------------------------------------------------- */

/* The elements of two host arrays compared in one type: int64 when both are integers, else
 * double */
static int
cross_cmp (const Host *a, gint64 i, const Host *b, gint64 j)
{
  if (a->is_int && b->is_int)
    return a->i[i] < b->i[j] ? -1 : a->i[i] > b->i[j];
  else
    {
      double x = a->is_int ? (double) a->i[i] : a->d[i];
      double y = b->is_int ? (double) b->i[j] : b->d[j];
      /* 2 where a comparison with NaN is false both ways */
      return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
    }
}

static char *
shape_string (GnnTensor *t)
{
  return gnn_shape_to_string (gnn_tensor_get_ndim (t), gnn_tensor_get_shape (t, NULL));
}

/**
 * gnn_tensor_searchsorted:
 * @sorted_sequence: a tensor sorted ascending along its last dimension (unless @sorter is
 *   given): one-dimensional, or with the leading dimensions of @values
 * @values: the values to place
 * @out_int32: whether the result is int32 (else int64)
 * @right: whether a value equal to boundaries goes after them (else before)
 * @sorter: (nullable): int64 positions that sort @sorted_sequence along its last dimension,
 *   shaped as it, or %NULL
 * @error: return location for a #GError
 *
 * For each value, the position in its row of @sorted_sequence where inserting it keeps the
 * row sorted (`torch.searchsorted (sorted_sequence, values, out_int32=, right=, sorter=)`):
 * the first position whose boundary is not below the value (or, with @right, above it). A
 * NaN value goes last. Integer and floating operands are compared as float64. Computed on the
 * host; carries no gradient.
 *
 * Returns: (transfer full): the positions, shaped as @values, or %NULL with @error set
 *   (%GNN_ERROR_SHAPE when the shapes do not fit, %GNN_ERROR_INDEX for a @sorter position out
 *   of range, %GNN_ERROR_DTYPE for a @sorter that is not int64)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_searchsorted (GnnTensor *sorted_sequence, GnnTensor *values, gboolean out_int32, gboolean right,
                         GnnTensor *sorter, GError **error)
{
  guint bnd = gnn_tensor_get_ndim (sorted_sequence), vnd = gnn_tensor_get_ndim (values);
  const gint64 *bs = gnn_tensor_get_shape (sorted_sequence, NULL), *vs = gnn_tensor_get_shape (values, NULL);
  g_auto (Host) b = { 0 };
  g_auto (Host) v = { 0 };
  g_auto (Host) s = { 0 };
  g_autofree gint64 *out = NULL;
  gint64 m, k, n;

  g_return_val_if_fail (GNN_IS_TENSOR (sorted_sequence) && GNN_IS_TENSOR (values), NULL);
  g_return_val_if_fail (sorter == NULL || GNN_IS_TENSOR (sorter), NULL);
  if (bnd == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension");
      return NULL;
    }
  if (bnd != 1 && vnd == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, "
                   "but we got boundaries tensor dim(%u) and input value's dim(0)", bnd);
      return NULL;
    }
  if (bnd != 1 && (bnd != vnd || memcmp (bs, vs, (bnd - 1) * sizeof (gint64)) != 0))
    {
      g_autofree char *bstr = shape_string (sorted_sequence), *vstr = shape_string (values);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
                   "boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input "
                   "value tensor %s", bstr, vstr);
      return NULL;
    }
  if (!gnn_check_same_device ("searchsorted", sorted_sequence, values, error))
    return NULL;
  if (sorter)
    {
      if (gnn_tensor_get_dtype (sorter) != GNN_DTYPE_INT64)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype %s",
                       dtype_name (sorter));
          return NULL;
        }
      if (gnn_tensor_get_ndim (sorter) != bnd || memcmp (gnn_tensor_get_shape (sorter, NULL), bs, bnd * sizeof (gint64)))
        {
          g_autofree char *bstr = shape_string (sorted_sequence), *sstr = shape_string (sorter);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
                       "tensor %s and got sorter tensor %s", bstr, sstr);
          return NULL;
        }
      if (!gnn_check_same_device ("searchsorted", sorted_sequence, sorter, error) || !host_read (sorter, &s, error))
        return NULL;
    }
  m = bs[bnd - 1];
  for (gint64 j = 0; sorter && j < s.n; j++)
    if (s.i[j] < 0 || s.i[j] >= m)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "torch.searchsorted(): sorter index out of range: %" G_GINT64_FORMAT " is not in [0, %"
                     G_GINT64_FORMAT ")", s.i[j], m);
        return NULL;
      }
  if (!host_read (sorted_sequence, &b, error) || !host_read (values, &v, error))
    return NULL;
  n = v.n;
  k = vnd > 0 ? vs[vnd - 1] : 1;
  out = g_new (gint64, MAX (n, 1));
  for (gint64 j = 0; j < n; j++)
    {
      gint64 row = bnd == 1 || k == 0 ? 0 : j / k, lo = 0, hi = m;
      while (lo < hi)
        {
          gint64 mid = lo + (hi - lo) / 2;
          gint64 at = row * m + (sorter ? s.i[row * m + mid] : mid);
          int c = cross_cmp (&b, at, &v, j);
          /* left: move right while !(boundary >= value); right: while !(boundary > value) */
          gboolean go_right = right ? !(c == 1) : !(c == 1 || c == 0);
          if (go_right)
            lo = mid + 1;
          else
            hi = mid;
        }
      out[j] = lo;
    }
  return tensor_from_host (values, out_int32 ? GNN_DTYPE_INT32 : GNN_DTYPE_INT64, out, NULL, n, vs, vnd, error);
}

/**
 * gnn_tensor_bucketize:
 * @self: the values to place
 * @boundaries: a one-dimensional tensor sorted ascending
 * @out_int32: whether the result is int32 (else int64)
 * @right: whether a value equal to a boundary goes after it (else before)
 * @error: return location for a #GError
 *
 * The bucket of each element of @self among @boundaries (`torch.bucketize (input,
 * boundaries, out_int32=, right=)`): [method@Gnn.Tensor.searchsorted] with the one-dimensional
 * @boundaries.
 *
 * Returns: (transfer full): the positions, shaped as @self, or %NULL with @error set
 *   (%GNN_ERROR_SHAPE when @boundaries is not one-dimensional)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bucketize (GnnTensor *self, GnnTensor *boundaries, gboolean out_int32, gboolean right, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (boundaries), NULL);
  if (gnn_tensor_get_ndim (boundaries) != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "bucketize: boundaries tensor must be 1 dimension, but got dim(%u)",
                   gnn_tensor_get_ndim (boundaries));
      return NULL;
    }
  return gnn_tensor_searchsorted (boundaries, self, out_int32, right, NULL, error);
}

/**
 * gnn_tensor_isin:
 * @self: the elements to test
 * @test_elements: the values to look for
 * @assume_unique: whether both hold distinct values (a hint; the result is the same)
 * @invert: whether to return where elements are not found
 * @error: return location for a #GError
 *
 * Where each element of @self equals some element of @test_elements (`torch.isin (elements,
 * test_elements, assume_unique=, invert=)`); NaN equals nothing. Integer and floating operands
 * are compared as float64. Computed on the host; boolean.
 *
 * Returns: (transfer full): the boolean tensor, shaped as @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isin (GnnTensor *self, GnnTensor *test_elements, gboolean assume_unique, gboolean invert, GError **error)
{
  g_auto (Host) e = { 0 };
  g_auto (Host) t = { 0 };
  g_autofree gint64 *order = NULL, *out = NULL;
  SliceOrder s;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (test_elements), NULL);
  if (!gnn_check_same_device ("isin", self, test_elements, error) || !host_read (self, &e, error) ||
      !host_read (test_elements, &t, error))
    return NULL;
  s = (SliceOrder) { &t, 1, t.n, 1 };
  order = g_new (gint64, MAX (t.n, 1));
  for (gint64 j = 0; j < t.n; j++)
    order[j] = j;
  g_qsort_with_data (order, t.n, sizeof (gint64), slice_qsort_cmp, &s);
  out = g_new (gint64, MAX (e.n, 1));
  for (gint64 j = 0; j < e.n; j++)
    {
      gint64 lo = 0, hi = t.n;
      gboolean found = FALSE;
      while (lo < hi)   /* the first test element not below this element */
        {
          gint64 mid = lo + (hi - lo) / 2;
          int c = cross_cmp (&t, order[mid], &e, j);
          if (c == -1)
            lo = mid + 1;
          else
            hi = mid;
        }
      found = lo < t.n && cross_cmp (&t, order[lo], &e, j) == 0;
      out[j] = found != invert;
    }
  return tensor_from_host (self, GNN_DTYPE_BOOL, out, NULL, e.n, gnn_tensor_get_shape (self, NULL),
                           gnn_tensor_get_ndim (self), error);
}

/* ---- frexp ---------------------------------------------------------------------------- */

/* mantissa's gradient: grad / 2^exponent, the power saved */
static gboolean
frexp_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *p;

  if (go[0] == NULL)
    return TRUE;
  if (!(p = gnn_node_saved (node, 0, error)))
    return FALSE;
  gi[0] = gnn_tensor_div (go[0], p, error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_frexp:
 * @self: a floating-point tensor
 * @exponent: (out) (optional) (transfer full): return location for the int32 exponents
 * @error: return location for a #GError
 *
 * Splits @self into mantissas in (-1, -0.5] ∪ [0.5, 1) (0 for 0) and int32 exponents with
 * `self = mantissa · 2^exponent` (`torch.frexp`, C's frexp: infinities and NaN keep their value
 * with exponent 0). The mantissa's gradient is `grad / 2^exponent`, as in PyTorch.
 *
 * Returns: (transfer full): the mantissas, of @self's dtype, or %NULL with @error set
 *   (%GNN_ERROR_DTYPE for an integer tensor)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_frexp (GnnTensor *self, GnnTensor **exponent, GError **error)
{
  g_auto (Host) h = { 0 };
  g_autofree double *mant = NULL, *pow2 = NULL;
  g_autofree gint64 *ex = NULL;
  g_autoptr(GnnTensor) m = NULL, e = NULL, p = NULL;
  GnnDtype dtype = gnn_tensor_get_dtype (self);
  guint ndim = gnn_tensor_get_ndim (self);
  const gint64 *shape = gnn_tensor_get_shape (self, NULL);
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "torch.frexp() only supports floating-point dtypes: expected a floating-point tensor, got %s",
                   dtype_name (self));
      return NULL;
    }
  if (!host_read (self, &h, error))
    return NULL;
  mant = g_new (double, MAX (h.n, 1));
  pow2 = g_new (double, MAX (h.n, 1));
  ex = g_new (gint64, MAX (h.n, 1));
  for (gint64 k = 0; k < h.n; k++)
    {
      int x = 0;
      mant[k] = frexp (h.d[k], &x);
      if (!isfinite (h.d[k]))
        x = 0;
      ex[k] = x;
      pow2[k] = ldexp (1.0, x);
    }
  if (!(m = tensor_from_host (self, dtype, NULL, mant, h.n, shape, ndim, error)) ||
      !(e = tensor_from_host (self, GNN_DTYPE_INT32, ex, NULL, h.n, shape, ndim, error)))
    return NULL;
  if (gnn_autograd_needed (&self, 1))
    {
      if (!(p = tensor_from_host (self, dtype, NULL, pow2, h.n, shape, ndim, error)))
        return NULL;
      if ((node = gnn_autograd_record ("FrexpBackward0", frexp_backward, &self, 1, &m, 1)))
        gnn_node_save (node, p);
    }
  if (exponent)
    *exponent = g_steal_pointer (&e);
  return g_steal_pointer (&m);
}

/* ---- quantile, nanquantile ------------------------------------------------------------ */

typedef enum { INTERP_LINEAR, INTERP_LOWER, INTERP_HIGHER, INTERP_MIDPOINT, INTERP_NEAREST } Interpolation;

static const char *const interpolation_names[] = { "linear", "lower", "higher", "midpoint", "nearest" };

/* quantile (or, with @ignore_nan, nanquantile), as PyTorch 1.13 computes it: the ranks
 * q · (n - 1) of the sorted rows (the last, NaN, where a row holds NaN; for nanquantile
 * n counts the non-NaN values), adjusted by the interpolation, and the values at the ranks
 * below and above picked with gather and mixed, so that the gradient flows to them */
static GnnTensor *
quantile_impl (const char *op, gboolean ignore_nan, GnnTensor *self, GnnTensor *q, gboolean has_dim, int dim,
               gboolean keepdim, const char *interpolation, GError **error)
{
  guint ndim = gnn_tensor_get_ndim (self), d = 0, n_out = 0, qnd = gnn_tensor_get_ndim (q);
  const gint64 *shape = gnn_tensor_get_shape (self, NULL);
  GnnDtype dtype = gnn_tensor_get_dtype (self);
  gboolean f32 = dtype == GNN_DTYPE_FLOAT32, mixes;
  Interpolation how = INTERP_LINEAR;
  gint64 rows, n, nq, flat_shape[2], out_shape[GNN_MAX_DIMS + 1];
  g_auto (Host) qh = { 0 };
  g_auto (Host) sh = { 0 };
  g_autofree gint64 *below = NULL, *above = NULL;
  g_autofree double *weight = NULL;
  g_autoptr(GnnTensor) moved = NULL, x = NULL, sorted = NULL, ib = NULL, ia = NULL, vb = NULL, va = NULL,
    w = NULL, diff = NULL, step = NULL, mixed = NULL, t = NULL;
  GnnTensor *result;
  int src, dst;
  guint k;

  if (dtype != GNN_DTYPE_FLOAT32 && dtype != GNN_DTYPE_FLOAT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s() input tensor must be either float or double dtype, got %s", op, dtype_name (self));
      return NULL;
    }
  if (gnn_tensor_get_dtype (q) != dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s() q tensor must be same dtype as the input tensor: expected %s, got %s", op,
                   dtype_name (self), dtype_name (q));
      return NULL;
    }
  if (qnd > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s() q must be a scalar or 1D tensor, got %u dimensions", op,
                   qnd);
      return NULL;
    }
  if (gnn_tensor_get_numel (self) == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s() input tensor must be non-empty", op);
      return NULL;
    }
  for (k = 0; k < G_N_ELEMENTS (interpolation_names); k++)
    if (interpolation && g_str_equal (interpolation, interpolation_names[k]))
      break;
  if (k == G_N_ELEMENTS (interpolation_names))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s() interpolation must be one of linear, lower, higher, midpoint or nearest. Got %s", op,
                   interpolation ? interpolation : "(null)");
      return NULL;
    }
  how = (Interpolation) k;
  if (!gnn_check_same_device (op, self, q, error) || !host_read (q, &qh, error))
    return NULL;
  for (gint64 j = 0; j < qh.n; j++)
    if (!(qh.d[j] >= 0 && qh.d[j] <= 1))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s() q values must be in the range [0, 1], got %g", op, qh.d[j]);
        return NULL;
      }
  nq = qh.n;

  /* the output's shape: the quantiles first, then the reduced shape */
  if (qnd == 1)
    out_shape[n_out++] = nq;
  if (has_dim)
    {
      if (ndim == 0 && dim != 0 && dim != -1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "%s: dimension out of range (expected to be in range of [-1, 0], but got %d)", op, dim);
          return NULL;
        }
      if (ndim > 0 && !gnn_normalize_dim (dim, ndim, &d, error))
        return NULL;
      for (guint i = 0; i < ndim; i++)
        if (i != d)
          out_shape[n_out++] = shape[i];
        else if (keepdim)
          out_shape[n_out++] = 1;
      n = ndim == 0 ? 1 : shape[d];
    }
  else
    {
      for (guint i = 0; keepdim && i < ndim; i++)
        out_shape[n_out++] = 1;
      n = gnn_tensor_get_numel (self);
    }
  rows = gnn_tensor_get_numel (self) / n;

  /* the rows to sort, [rows, n] */
  src = (int) d;
  dst = -1;
  flat_shape[0] = rows;
  flat_shape[1] = n;
  if (!(moved = has_dim && ndim > 0 ? gnn_tensor_movedim (self, &src, 1, &dst, 1, error) : g_object_ref (self)) ||
      !(x = gnn_tensor_reshape (moved, flat_shape, 2, error)) ||
      !(sorted = gnn_tensor_sort (x, -1, FALSE, FALSE, NULL, error)) || !host_read (sorted, &sh, error))
    return NULL;

  /* the ranks, in the input's precision as PyTorch computes them */
  below = g_new (gint64, rows * nq);
  above = g_new (gint64, rows * nq);
  weight = g_new (double, rows * nq);
  for (gint64 r = 0; r < rows; r++)
    {
      gint64 non_nan = 0;
      for (gint64 i = 0; i < n; i++)
        non_nan += !isnan (sh.d[r * n + i]);
      for (gint64 j = 0; j < nq; j++)
        {
          double rank, qj = qh.d[j];
          if (ignore_nan)
            {
              rank = f32 ? (double) ((float) qj * (float) (non_nan - 1)) : qj * (double) (non_nan - 1);
              if (rank < 0)
                rank = 0;
            }
          else
            rank = non_nan < n ? (double) (n - 1) : f32 ? (double) ((float) qj * (float) (n - 1)) : qj * (double) (n - 1);
          if (how == INTERP_LOWER)
            rank = floor (rank);
          else if (how == INTERP_HIGHER)
            rank = ceil (rank);
          else if (how == INTERP_NEAREST)
            rank = nearbyint (rank);   /* half to even, as torch.round */
          below[r * nq + j] = (gint64) rank;
          above[r * nq + j] = (gint64) ceil (rank);
          weight[r * nq + j] = how == INTERP_MIDPOINT ? 0.5 : rank - (double) (gint64) rank;
        }
    }
  flat_shape[1] = nq;
  mixes = how == INTERP_LINEAR || how == INTERP_MIDPOINT;
  if (!(ib = tensor_from_host (self, GNN_DTYPE_INT64, below, NULL, rows * nq, flat_shape, 2, error)) ||
      !(vb = gnn_tensor_gather (sorted, 1, ib, error)))
    return NULL;
  if (mixes)
    {
      /* below + weight · (above - below) */
      if (!(ia = tensor_from_host (self, GNN_DTYPE_INT64, above, NULL, rows * nq, flat_shape, 2, error)) ||
          !(va = gnn_tensor_gather (sorted, 1, ia, error)) ||
          !(w = tensor_from_host (self, dtype, NULL, weight, rows * nq, flat_shape, 2, error)) ||
          !(diff = gnn_tensor_sub (va, vb, 1.0, error)) || !(step = gnn_tensor_mul (w, diff, error)) ||
          !(mixed = gnn_tensor_add (vb, step, 1.0, error)))
        return NULL;
    }
  else
    mixed = g_object_ref (vb);

  /* [rows, nq] to [nq, rows] to the output's shape */
  if (!(t = gnn_tensor_transpose (mixed, 0, 1, error)))
    return NULL;
  result = gnn_tensor_reshape (t, out_shape, n_out, error);
  return result;
}

/**
 * gnn_tensor_quantile:
 * @self: a float32 or float64 tensor, not empty
 * @q: the probabilities in [0, 1], of @self's dtype: a 0-d or one-dimensional tensor
 * @has_dim: whether to reduce along @dim (else over all elements)
 * @dim: the dimension to reduce, negative from the end, when @has_dim
 * @keepdim: whether the reduced dimension stays with size 1
 * @interpolation: how a quantile between two values is taken: "linear", "lower", "higher",
 *   "midpoint" or "nearest"
 * @error: return location for a #GError
 *
 * The @q-quantiles of @self (`torch.quantile (input, q, dim, keepdim, interpolation=)`),
 * along @dim or over all elements: for a one-dimensional @q the quantiles stack along a new
 * first dimension. A slice holding NaN has NaN quantiles. Composed of sort, gather and
 * arithmetic ops, so the gradient flows to the one or two values each quantile is taken from.
 *
 * Returns: (transfer full): the quantiles, or %NULL with @error set (%GNN_ERROR_DTYPE for
 *   other dtypes or a @q of another dtype, %GNN_ERROR_SHAPE for an empty @self or a @q of
 *   more dimensions, %GNN_ERROR_INVALID_ARGUMENT for a @q outside [0, 1] or an unknown
 *   @interpolation)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_quantile (GnnTensor *self, GnnTensor *q, gboolean has_dim, int dim, gboolean keepdim,
                     const char *interpolation, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (q), NULL);
  return quantile_impl ("quantile", FALSE, self, q, has_dim, dim, keepdim, interpolation, error);
}

/**
 * gnn_tensor_nanquantile:
 * @self: a float32 or float64 tensor, not empty
 * @q: the probabilities in [0, 1], of @self's dtype: a 0-d or one-dimensional tensor
 * @has_dim: whether to reduce along @dim (else over all elements)
 * @dim: the dimension to reduce, negative from the end, when @has_dim
 * @keepdim: whether the reduced dimension stays with size 1
 * @interpolation: as for [method@Gnn.Tensor.quantile]
 * @error: return location for a #GError
 *
 * As [method@Gnn.Tensor.quantile] with the NaN values left out of each slice
 * (`torch.nanquantile`); a slice of NaN only has NaN quantiles.
 *
 * Returns: (transfer full): the quantiles, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nanquantile (GnnTensor *self, GnnTensor *q, gboolean has_dim, int dim, gboolean keepdim,
                        const char *interpolation, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (q), NULL);
  return quantile_impl ("nanquantile", TRUE, self, q, has_dim, dim, keepdim, interpolation, error);
}
