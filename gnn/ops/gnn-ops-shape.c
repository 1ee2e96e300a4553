/* gnn-ops-shape.c: views (reshape, transpose, permute, narrow, select, slice, expand,
 * squeeze, unsqueeze, flatten), contiguous, clone and conversions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"

typedef struct {
  int dims[GNN_MAX_DIMS];   /* permute: the permutation; narrow/select/slice: dim */
  gint64 start, step;
} ViewCtx;

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* ---- backward functions ------------------------------------------------------------- */

/* reshape-like views: the gradient takes the input's shape */
static gboolean
reshape_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) c = NULL;
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = gnn_tensor_reshape (go[0], node->in_shape[0], node->in_ndim[0], error);
  return gi[0] != NULL;
}

static gboolean
permute_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ViewCtx *ctx = node->ctx;
  int inverse[GNN_MAX_DIMS];
  guint nd = node->in_ndim[0];

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  for (guint i = 0; i < nd; i++)
    inverse[ctx->dims[i]] = (int) i;
  gi[0] = gnn_tensor_permute (go[0], inverse, nd, error);
  return gi[0] != NULL;
}

/* narrow / slice / select: the gradient lands in a zero tensor at the viewed place */
static gboolean
slice_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ViewCtx *ctx = node->ctx;
  g_autoptr(GnnTensor) z = NULL;
  g_autoptr(GnnTensor) part = NULL;
  gboolean is_select = ctx->step == 0;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  z = gnn_tensor_new_like (go[0], gnn_tensor_priv (go[0])->dtype, node->in_ndim[0], node->in_shape[0], error);
  if (z == NULL || !gnn_tensor_zero_ (z, error))
    return FALSE;
  if (is_select)
    part = gnn_tensor_select (z, ctx->dims[0], ctx->start, error);
  else
    {
      gint64 size = node->in_shape[0][ctx->dims[0]];
      part = gnn_tensor_slice (z, ctx->dims[0], ctx->start, size, ctx->step, error);
      if (part && gnn_tensor_priv (part)->shape[ctx->dims[0]] != gnn_tensor_priv (go[0])->shape[ctx->dims[0]])
        {
          g_autoptr(GnnTensor) n = gnn_tensor_narrow (part, ctx->dims[0], 0,
                                                      gnn_tensor_priv (go[0])->shape[ctx->dims[0]], error);
          g_clear_object (&part);
          part = g_steal_pointer (&n);
        }
    }
  if (part == NULL || !gnn_tensor_copy_ (part, go[0], error))
    return FALSE;
  gi[0] = g_steal_pointer (&z);
  return TRUE;
}

static gboolean
expand_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = gnn_sum_to (go[0], node->in_ndim[0], node->in_shape[0], error);
  return gi[0] != NULL;
}

static gboolean
identity_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = g_object_ref (go[0]);
  return TRUE;
}

static gboolean
to_copy_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *src;
  GnnStorage *st;
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  src = node->ctx;   /* a 0-dim tensor on the source device, for its backend */
  st = gnn_tensor_priv (src)->storage;
  if (st != gnn_tensor_priv (go[0])->storage &&
      (st->entry != gnn_tensor_priv (go[0])->storage->entry || st->device != gnn_tensor_priv (go[0])->storage->device))
    {
      const char *ds = gnn_tensor_get_device (src);
      g_autoptr(GnnTensor) moved = gnn_tensor_to_device (go[0], ds, error);
      if (moved == NULL)
        return FALSE;
      gi[0] = gnn_tensor_cast (moved, node->in_dtype[0], error);
    }
  else
    gi[0] = gnn_tensor_cast (go[0], node->in_dtype[0], error);
  return gi[0] != NULL;
}

/* ---- helpers ------------------------------------------------------------------------ */

static GnnTensor *
make_view (const char *grad_name, GnnBackwardFunc backward, GnnTensor *self, guint ndim,
           const gint64 *shape, const gint64 *strides, gint64 offset, ViewCtx *ctx)
{
  GnnTensor *out = gnn_tensor_new_view (self, ndim, shape, strides, offset);
  GnnNode *node = gnn_autograd_record (grad_name, backward, &self, 1, &out, 1);

  if (node && ctx)
    gnn_node_set_ctx (node, g_memdup2 (ctx, sizeof (ViewCtx)), g_free);
  return out;
}

/* PyTorch's infer_size: resolves one -1 and checks the element count */
static gboolean
infer_shape (const char *op, GnnTensorPrivate *p, const gint64 *shape, guint ndim, gint64 *out, GError **error)
{
  gint64 numel = gnn_shape_numel (p->ndim, p->shape), known = 1;
  int infer = -1;

  if (ndim > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: at most %d dimensions, got %u", op, GNN_MAX_DIMS, ndim);
      return FALSE;
    }
  for (guint i = 0; i < ndim; i++)
    {
      if (shape[i] == -1)
        {
          if (infer >= 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: only one dimension can be inferred", op);
              return FALSE;
            }
          infer = (int) i;
        }
      else if (shape[i] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: invalid shape dimension %" G_GINT64_FORMAT, op, shape[i]);
          return FALSE;
        }
      else
        known *= shape[i];
      out[i] = shape[i];
    }
  if (infer >= 0 && known != 0 && numel % known == 0)
    out[infer] = numel / known;
  if (gnn_shape_numel (ndim, out) != numel || (infer >= 0 && known == 0))
    {
      g_autofree char *want = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: shape '%s' is invalid for input of size %" G_GINT64_FORMAT, op, want, numel);
      return FALSE;
    }
  return TRUE;
}

/* PyTorch's computeStride: strides for viewing (oldshape, oldstride) as newshape without a
 * copy, or FALSE when that is impossible. */
static gboolean
compute_view_strides (guint ond, const gint64 *oshape, const gint64 *ostride,
                      guint nnd, const gint64 *nshape, gint64 *nstride)
{
  gint64 numel = gnn_shape_numel (ond, oshape);
  int view_d = (int) nnd - 1;
  gint64 chunk_base_stride, tensor_numel = 1, view_numel = 1;

  if (numel == 0)
    {
      gnn_contiguous_strides (nnd, nshape, nstride);
      return TRUE;
    }
  if (ond == 0)
    {
      for (guint i = 0; i < nnd; i++)
        nstride[i] = 1;
      return TRUE;
    }
  chunk_base_stride = ostride[ond - 1];
  for (int tensor_d = (int) ond - 1; tensor_d >= 0; tensor_d--)
    {
      tensor_numel *= oshape[tensor_d];
      if (tensor_d == 0 ||
          (oshape[tensor_d - 1] != 1 && ostride[tensor_d - 1] != tensor_numel * chunk_base_stride))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || nshape[view_d] == 1))
            {
              nstride[view_d] = view_numel * chunk_base_stride;
              view_numel *= nshape[view_d];
              view_d--;
            }
          if (view_numel != tensor_numel)
            return FALSE;
          if (tensor_d > 0)
            {
              chunk_base_stride = ostride[tensor_d - 1];
              tensor_numel = 1;
              view_numel = 1;
            }
        }
    }
  return view_d == -1;
}

/* ---- views -------------------------------------------------------------------------- */

/**
 * gnn_tensor_view:
 * @self: a tensor
 * @shape: (array length=ndim): the new shape; one size may be -1 to be inferred
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * A view with another shape and the same elements (`Tensor.view`). Fails when the strides do
 * not allow it without a copy; [method@Gnn.Tensor.reshape] copies then.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_view (GnnTensor *self, const gint64 *shape, guint ndim, GError **error)
{
  GnnTensorPrivate *p;
  gint64 nshape[GNN_MAX_DIMS], nstride[GNN_MAX_DIMS];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  p = gnn_tensor_priv (self);
  if (!infer_shape ("view", p, shape, ndim, nshape, error))
    return NULL;
  if (!compute_view_strides (p->ndim, p->shape, p->strides, ndim, nshape, nstride))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "view size is not compatible with input tensor's size and stride (at least "
                           "one dimension spans across two contiguous subspaces). Use reshape instead.");
      return NULL;
    }
  return make_view ("ViewBackward0", reshape_backward, self, ndim, nshape, nstride, p->offset, NULL);
}

/**
 * gnn_tensor_reshape:
 * @self: a tensor
 * @shape: (array length=ndim): the new shape; one size may be -1 to be inferred
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * The same elements in another shape (`Tensor.reshape`): a view when the strides allow, a
 * contiguous copy otherwise.
 *
 * Returns: (transfer full): the reshaped tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_reshape (GnnTensor *self, const gint64 *shape, guint ndim, GError **error)
{
  GnnTensorPrivate *p;
  gint64 nshape[GNN_MAX_DIMS], nstride[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) c = NULL;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  p = gnn_tensor_priv (self);
  if (!infer_shape ("reshape", p, shape, ndim, nshape, error))
    return NULL;
  if (compute_view_strides (p->ndim, p->shape, p->strides, ndim, nshape, nstride))
    return make_view ("ViewBackward0", reshape_backward, self, ndim, nshape, nstride, p->offset, NULL);
  c = gnn_tensor_clone_contiguous (self, p->dtype, error);
  if (c == NULL)
    return NULL;
  gnn_contiguous_strides (ndim, nshape, nstride);
  /* the copy is private to this op: reshape it in place and record one node */
  out = gnn_tensor_new_alias (c);
  {
    GnnTensorPrivate *op = gnn_tensor_priv (out);
    op->ndim = ndim;
    memcpy (op->shape, nshape, sizeof (gint64) * ndim);
    memcpy (op->strides, nstride, sizeof (gint64) * ndim);
  }
  node = gnn_autograd_record ("UnsafeViewBackward0", reshape_backward, &self, 1, &out, 1);
  (void) node;
  return out;
}

/**
 * gnn_tensor_transpose:
 * @self: a tensor
 * @dim0: a dimension
 * @dim1: another dimension
 * @error: return location for a #GError
 *
 * A view with two dimensions swapped (`Tensor.transpose`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_transpose (GnnTensor *self, int dim0, int dim1, GError **error)
{
  GnnTensorPrivate *p;
  guint a, b;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  ViewCtx ctx = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_normalize_dim (dim0, p->ndim, &a, error) || !gnn_normalize_dim (dim1, p->ndim, &b, error))
    return NULL;
  memcpy (shape, p->shape, sizeof shape);
  memcpy (strides, p->strides, sizeof strides);
  for (guint i = 0; i < GNN_MAX_DIMS; i++)
    ctx.dims[i] = (int) i;
  if (p->ndim > 0)
    {
      shape[a] = p->shape[b];
      shape[b] = p->shape[a];
      strides[a] = p->strides[b];
      strides[b] = p->strides[a];
      ctx.dims[a] = (int) b;
      ctx.dims[b] = (int) a;
    }
  return make_view ("TransposeBackward0", permute_backward, self, p->ndim, shape, strides, p->offset, &ctx);
}

/**
 * gnn_tensor_t:
 * @self: a tensor of at most two dimensions
 * @error: return location for a #GError
 *
 * The transpose of a matrix (`Tensor.t`); vectors and scalars come back as they are.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_t (GnnTensor *self, GError **error)
{
  GnnTensorPrivate *p;
  ViewCtx ctx = { { 1, 0 }, 0, 0 };
  gint64 shape[2], strides[2];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim > 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "t() expects a tensor with <= 2 dimensions, but self is %uD", p->ndim);
      return NULL;
    }
  if (p->ndim < 2)
    {
      ctx.dims[0] = 0;
      return make_view ("TBackward0", permute_backward, self, p->ndim, p->shape, p->strides, p->offset, &ctx);
    }
  shape[0] = p->shape[1];
  shape[1] = p->shape[0];
  strides[0] = p->strides[1];
  strides[1] = p->strides[0];
  return make_view ("TBackward0", permute_backward, self, 2, shape, strides, p->offset, &ctx);
}

/**
 * gnn_tensor_permute:
 * @self: a tensor
 * @dims: (array length=n_dims): the new order of the dimensions
 * @n_dims: the number of entries in @dims, equal to the tensor's number of dimensions
 * @error: return location for a #GError
 *
 * A view with the dimensions reordered (`Tensor.permute`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_permute (GnnTensor *self, const int *dims, guint n_dims, GError **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  gboolean seen[GNN_MAX_DIMS] = { FALSE };
  ViewCtx ctx = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (n_dims != p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "permute(sparse_coo): number of dimensions in the tensor input does not match the "
                   "length of the desired ordering of dimensions i.e. input.dim() = %u is not equal to "
                   "len(dims) = %u", p->ndim, n_dims);
      return NULL;
    }
  for (guint i = 0; i < n_dims; i++)
    {
      guint d;
      if (!gnn_normalize_dim (dims[i], p->ndim, &d, error))
        return NULL;
      if (seen[d])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "permute(): duplicate dims are not allowed.");
          return NULL;
        }
      seen[d] = TRUE;
      shape[i] = p->shape[d];
      strides[i] = p->strides[d];
      ctx.dims[i] = (int) d;
    }
  return make_view ("PermuteBackward0", permute_backward, self, p->ndim, shape, strides, p->offset, &ctx);
}

/**
 * gnn_tensor_slice:
 * @self: a tensor
 * @dim: the dimension to slice
 * @start: the first index; negative counts from the end; clamped to the size
 * @end: one past the last index; negative counts from the end; clamped to the size
 * @step: the step, at least 1
 * @error: return location for a #GError
 *
 * A view of every @step-th index in [@start, @end) of @dim: Python's `t[:, start:end:step]`.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_slice (GnnTensor *self, int dim, gint64 start, gint64 end, gint64 step, GError **error)
{
  GnnTensorPrivate *p;
  guint d;
  gint64 size, len;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  ViewCtx ctx = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  if (step <= 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "slice step must be positive");
      return NULL;
    }
  size = p->shape[d];
  if (start < 0)
    start += size;
  if (end < 0)
    end += size;
  start = CLAMP (start, 0, size);
  end = CLAMP (end, start, size);
  len = (end - start + step - 1) / step;
  memcpy (shape, p->shape, sizeof shape);
  memcpy (strides, p->strides, sizeof strides);
  shape[d] = len;
  strides[d] = p->strides[d] * step;
  ctx.dims[0] = (int) d;
  ctx.start = start;
  ctx.step = step;
  return make_view ("SliceBackward0", slice_backward, self, p->ndim, shape, strides,
                    p->offset + start * p->strides[d], &ctx);
}

/**
 * gnn_tensor_narrow:
 * @self: a tensor
 * @dim: the dimension to narrow
 * @start: the first index; negative counts from the end
 * @length: how many indices to keep
 * @error: return location for a #GError
 *
 * A view of @length indices of @dim from @start (`Tensor.narrow`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_narrow (GnnTensor *self, int dim, gint64 start, gint64 length, GError **error)
{
  GnnTensorPrivate *p;
  guint d;
  gint64 size;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "narrow() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  size = p->shape[d];
  if (start < -size || start > size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "start out of range (expected to be in range of [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   "], but got %" G_GINT64_FORMAT ")", -size, size, start);
      return NULL;
    }
  if (start < 0)
    start += size;
  if (length < 0 || start + length > size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "start (%" G_GINT64_FORMAT ") + length (%" G_GINT64_FORMAT ") exceeds dimension size (%"
                   G_GINT64_FORMAT ").", start, length, size);
      return NULL;
    }
  return gnn_tensor_slice (self, (int) d, start, start + length, 1, error);
}

/**
 * gnn_tensor_select:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: the index; negative counts from the end
 * @error: return location for a #GError
 *
 * A view of one index of @dim, without that dimension (`Tensor.select`, Python's `t[i]`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_select (GnnTensor *self, int dim, gint64 index, GError **error)
{
  GnnTensorPrivate *p;
  guint d, k = 0;
  gint64 size, shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  ViewCtx ctx = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "select() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  size = p->shape[d];
  if (index < -size || index >= size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "select(): index %" G_GINT64_FORMAT " out of range for tensor of size %" G_GINT64_FORMAT
                   " at dimension %u", index, size, d);
      return NULL;
    }
  if (index < 0)
    index += size;
  for (guint i = 0; i < p->ndim; i++)
    if (i != d)
      {
        shape[k] = p->shape[i];
        strides[k] = p->strides[i];
        k++;
      }
  ctx.dims[0] = (int) d;
  ctx.start = index;
  ctx.step = 0;
  return make_view ("SelectBackward0", slice_backward, self, p->ndim - 1, shape, strides,
                    p->offset + index * p->strides[d], &ctx);
}

/**
 * gnn_tensor_expand:
 * @self: a tensor
 * @shape: (array length=ndim): the new shape; -1 keeps a size
 * @ndim: the number of dimensions, at least the tensor's
 * @error: return location for a #GError
 *
 * A view repeating size-1 dimensions without copying (`Tensor.expand`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_expand (GnnTensor *self, const gint64 *shape, guint ndim, GError **error)
{
  GnnTensorPrivate *p;
  gint64 nshape[GNN_MAX_DIMS], nstride[GNN_MAX_DIMS];
  guint lead;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (ndim < p->ndim || ndim > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "expand: the number of sizes provided (%u) must be greater or equal to the number of "
                   "dimensions in the tensor (%u)", ndim, p->ndim);
      return NULL;
    }
  lead = ndim - p->ndim;
  for (guint i = 0; i < ndim; i++)
    {
      if (i < lead)
        {
          if (shape[i] < 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "expand: the expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %u", i);
              return NULL;
            }
          nshape[i] = shape[i];
          nstride[i] = 0;
          continue;
        }
      {
        gint64 have = p->shape[i - lead];
        gint64 want = shape[i] == -1 ? have : shape[i];
        if (have != want && have != 1)
          {
            g_autofree char *a = gnn_shape_to_string (ndim, shape);
            g_autofree char *b = gnn_shape_to_string (p->ndim, p->shape);
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "The expanded size of the tensor (%" G_GINT64_FORMAT ") must match the existing size (%"
                         G_GINT64_FORMAT ") at non-singleton dimension %u.  Target sizes: %s.  Tensor sizes: %s",
                         want, have, i, a, b);
            return NULL;
          }
        nshape[i] = want;
        nstride[i] = (have == 1 && want != 1) ? 0 : p->strides[i - lead];
      }
    }
  return make_view ("ExpandBackward0", expand_backward, self, ndim, nshape, nstride, p->offset, NULL);
}

/**
 * gnn_tensor_unsqueeze:
 * @self: a tensor
 * @dim: where to insert a size-1 dimension, in [-ndim-1, ndim]
 * @error: return location for a #GError
 *
 * A view with a new dimension of size one (`Tensor.unsqueeze`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_unsqueeze (GnnTensor *self, int dim, GError **error)
{
  GnnTensorPrivate *p;
  guint d, k = 0;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim >= GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "unsqueeze: tensors have at most %d dimensions", GNN_MAX_DIMS);
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim + 1, &d, error))
    return NULL;
  for (guint i = 0; i <= p->ndim; i++)
    {
      if (i == d)
        {
          shape[i] = 1;
          strides[i] = d < p->ndim ? p->shape[d] * p->strides[d] : 1;
          continue;
        }
      shape[i] = p->shape[k];
      strides[i] = p->strides[k];
      k++;
    }
  return make_view ("UnsqueezeBackward0", reshape_backward, self, p->ndim + 1, shape, strides, p->offset, NULL);
}

/**
 * gnn_tensor_squeeze:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * A view without any size-1 dimension (`Tensor.squeeze ()`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_squeeze (GnnTensor *self, GError **error)
{
  GnnTensorPrivate *p;
  guint k = 0;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  for (guint i = 0; i < p->ndim; i++)
    if (p->shape[i] != 1)
      {
        shape[k] = p->shape[i];
        strides[k] = p->strides[i];
        k++;
      }
  return make_view ("SqueezeBackward0", reshape_backward, self, k, shape, strides, p->offset, NULL);
}

/**
 * gnn_tensor_squeeze_dim:
 * @self: a tensor
 * @dim: the dimension to remove if its size is one
 * @error: return location for a #GError
 *
 * A view without dimension @dim when its size is one, else the same shape
 * (`Tensor.squeeze (dim)`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_squeeze_dim (GnnTensor *self, int dim, GError **error)
{
  GnnTensorPrivate *p;
  guint d, k = 0;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  for (guint i = 0; i < p->ndim; i++)
    if (i != d || p->shape[i] != 1)
      {
        shape[k] = p->shape[i];
        strides[k] = p->strides[i];
        k++;
      }
  return make_view ("SqueezeBackward1", reshape_backward, self, k, shape, strides, p->offset, NULL);
}

/**
 * gnn_tensor_flatten:
 * @self: a tensor
 * @start_dim: the first dimension to flatten
 * @end_dim: the last dimension to flatten (-1 for the last)
 * @error: return location for a #GError
 *
 * Merges dimensions @start_dim to @end_dim into one (`torch.flatten`), as a view when
 * possible.
 *
 * Returns: (transfer full): the flattened tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_flatten (GnnTensor *self, int start_dim, int end_dim, GError **error)
{
  GnnTensorPrivate *p;
  guint s, e, k = 0;
  gint64 shape[GNN_MAX_DIMS];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      gint64 one = 1;
      return gnn_tensor_reshape (self, &one, 1, error);
    }
  if (!gnn_normalize_dim (start_dim, p->ndim, &s, error) || !gnn_normalize_dim (end_dim, p->ndim, &e, error))
    return NULL;
  if (s > e)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "flatten() has invalid args: start_dim cannot come after end_dim");
      return NULL;
    }
  for (guint i = 0; i < s; i++)
    shape[k++] = p->shape[i];
  shape[k] = 1;
  for (guint i = s; i <= e; i++)
    shape[k] *= p->shape[i];
  k++;
  for (guint i = e + 1; i < p->ndim; i++)
    shape[k++] = p->shape[i];
  return gnn_tensor_reshape (self, shape, k, error);
}

/**
 * gnn_tensor_contiguous:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The tensor itself when it is contiguous, else a contiguous copy (`Tensor.contiguous`).
 *
 * Returns: (transfer full): a contiguous tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_contiguous (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_is_contiguous_priv (gnn_tensor_priv (self)))
    return g_object_ref (self);
  return gnn_tensor_clone (self, error);
}

/**
 * gnn_tensor_clone:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * A contiguous copy that keeps the gradient connection (`Tensor.clone`).
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_clone (GnnTensor *self, GError **error)
{
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  out = gnn_tensor_clone_contiguous (self, gnn_tensor_priv (self)->dtype, error);
  if (out)
    gnn_autograd_record ("CloneBackward0", identity_backward, &self, 1, &out, 1);
  return out;
}

/**
 * gnn_tensor_to_dtype:
 * @self: a tensor
 * @dtype: the dtype wanted
 * @error: return location for a #GError
 *
 * The tensor converted to @dtype (`Tensor.to (dtype)`): @self itself when it already has it.
 * Gradients flow back through conversions between floating-point dtypes.
 *
 * Returns: (transfer full): the converted tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_to_dtype (GnnTensor *self, GnnDtype dtype, GError **error)
{
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_priv (self)->dtype == dtype)
    return g_object_ref (self);
  out = gnn_tensor_clone_contiguous (self, dtype, error);
  if (out && gnn_dtype_is_floating (dtype) &&
      (node = gnn_autograd_record ("ToCopyBackward0", to_copy_backward, &self, 1, &out, 1)))
    {
      GnnTensorPrivate *p = gnn_tensor_priv (self);
      gnn_node_set_ctx (node, gnn_tensor_new_on (p->storage->entry, p->storage->device, p->dtype, 0, NULL, NULL),
                        g_object_unref);
    }
  return out;
}

GnnTensor *
gnn_tensor_to_device_of (GnnTensor *self, GnnTensor *like, GError **error)
{
  GnnStorage *s = gnn_tensor_priv (self)->storage;
  GnnStorage *l = gnn_tensor_priv (like)->storage;
  const char *name = NULL;

  if (s->entry == l->entry && s->device == l->device)
    return g_object_ref (self);
  name = gnn_tensor_get_device (like);
  return gnn_tensor_to_device (self, name, error);
}

/**
 * gnn_tensor_to_device:
 * @self: a tensor
 * @device: the device wanted, such as "cpu" or "cuda:0"
 * @error: return location for a #GError
 *
 * The tensor copied to @device (`Tensor.to (device)`): @self itself when it is already there.
 * Gradients flow back to the source device.
 *
 * Returns: (transfer full): the tensor on @device, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_to_device (GnnTensor *self, const char *device, GError **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) src = NULL;
  g_autoptr(GnnTensor) host = NULL;
  GnnTensor *out;
  GnnStorage *ss, *ds;
  gsize nbytes;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (device != NULL, NULL);
  p = gnn_tensor_priv (self);
  out = gnn_tensor_new_empty (p->shape, p->ndim, p->dtype, device, error);
  if (out == NULL)
    return NULL;
  ds = gnn_tensor_priv (out)->storage;
  ss = p->storage;
  if (ds->entry == ss->entry && ds->device == ss->device)
    {
      g_object_unref (out);
      return g_object_ref (self);
    }
  src = gnn_tensor_contiguous_as (self, p->dtype, error);
  if (src == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  nbytes = (gsize) gnn_shape_numel (p->ndim, p->shape) * gnn_dtype_get_size (p->dtype);
  if (nbytes > 0)
    {
      GnnTensorPrivate *sp = gnn_tensor_priv (src);
      gpointer staging = NULL;
      gconstpointer from = gnn_tensor_data_ptr (sp);
      gboolean ok = TRUE;

      if (!sp->storage->entry->funcs->is_host)
        {
          staging = g_malloc (nbytes);
          ok = sp->storage->entry->funcs->copy_to_host (sp->storage->entry->backend, sp->storage->device,
                                                        staging, from, nbytes, error);
          from = staging;
        }
      if (ok)
        ok = ds->entry->funcs->copy_from_host (ds->entry->backend, ds->device, ds->data, from, nbytes, error);
      g_free (staging);
      if (!ok)
        {
          g_object_unref (out);
          return NULL;
        }
    }
  if ((node = gnn_autograd_record ("ToCopyBackward0", to_copy_backward, &self, 1, &out, 1)))
    gnn_node_set_ctx (node, gnn_tensor_new_on (ss->entry, ss->device, p->dtype, 0, NULL, NULL), g_object_unref);
  return out;
}
