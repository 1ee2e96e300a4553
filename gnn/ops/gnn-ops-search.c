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
