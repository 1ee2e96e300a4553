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
  gint64 numel = gnn_shape_numel (p->ndim, p->shape), known = 1, out_numel;
  gboolean overflow = FALSE;
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
      else if (__builtin_mul_overflow (known, shape[i], &known))
        overflow = TRUE;
      out[i] = shape[i];
    }
  if (!overflow && infer >= 0 && known != 0 && numel % known == 0)
    out[infer] = numel / known;
  if (overflow || !gnn_shape_numel_checked (ndim, out, &out_numel) || out_numel != numel ||
      (infer >= 0 && known == 0))
    {
      g_autofree char *want = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: shape '%s' is invalid for input of size %" G_GINT64_FORMAT "%s", op, want, numel,
                   overflow || (!gnn_shape_numel_checked (ndim, out, NULL) && (infer < 0 || out[infer] >= 0))
                     ? " (its elements overflow int64)" : "");
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
    return make_view ("ReshapeAliasBackward0", reshape_backward, self, ndim, nshape, nstride, p->offset, NULL);
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
                   "permute: number of dimensions in the tensor input does not match the "
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
  len = end > start ? (end - start - 1) / step + 1 : 0;   /* no overflow for a huge step */
  memcpy (shape, p->shape, sizeof shape);
  memcpy (strides, p->strides, sizeof strides);
  shape[d] = len;
  /* stride × step, as torch's; it can overflow only with at most one element, whose stride
   * is never used */
  if (__builtin_mul_overflow (p->strides[d], step, &strides[d]))
    strides[d] = p->strides[d];
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
  if (length < 0 || length > size - start)   /* not start + length: it could overflow */
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
  if (!gnn_shape_check ("expand", ndim, nshape, 0, error))
    return NULL;
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
 * possible; @self itself when @start_dim and @end_dim are one dimension.
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
  if (s == e)
    return g_object_ref (self);   /* as PyTorch: nothing to merge, the tensor itself */
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

/* ---- splitting into views, moving dims, diagonals ------------------------------------ */

typedef struct {
  guint dim;
  guint n;
  gint64 *starts;    /* where each output starts along dim */
  gint64 *lengths;   /* its length along dim; -1 for an output without dim (unbind) */
} PiecesCtx;

static void
pieces_ctx_free (gpointer data)
{
  PiecesCtx *ctx = data;

  g_free (ctx->starts);
  g_free (ctx->lengths);
  g_free (ctx);
}

/* split / unbind: each output's gradient lands in zeros of the input's shape at its place;
 * outputs that got none stay zero */
static gboolean
pieces_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  PiecesCtx *ctx = node->ctx;
  g_autoptr(GnnTensor) z = NULL;
  GnnTensor *like = NULL;

  if (!NEEDS (0))
    return TRUE;
  for (guint i = 0; i < ctx->n && like == NULL; i++)
    like = go[i];
  if (like == NULL)
    return TRUE;
  z = gnn_tensor_new_zeros_like (like, gnn_tensor_priv (like)->dtype, node->in_ndim[0], node->in_shape[0], error);
  if (z == NULL)
    return FALSE;
  for (guint i = 0; i < ctx->n; i++)
    {
      g_autoptr(GnnTensor) part = NULL;

      if (go[i] == NULL)
        continue;
      if (ctx->lengths[i] < 0)
        part = gnn_tensor_select (z, (int) ctx->dim, ctx->starts[i], error);
      else
        part = gnn_tensor_narrow (z, (int) ctx->dim, ctx->starts[i], ctx->lengths[i], error);
      if (part == NULL || !gnn_tensor_copy_ (part, go[i], error))
        return FALSE;
    }
  gi[0] = g_steal_pointer (&z);
  return TRUE;
}

/* @n views of @self along @d (of size dim size), the i-th from @starts[i] of @lengths[i]
 * indices (-1: that one index, the dim removed), all outputs of one node @grad_name */
static GPtrArray *
make_pieces (const char *grad_name, GnnTensor *self, guint d, guint n, const gint64 *starts,
             const gint64 *lengths)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GPtrArray *out = g_ptr_array_new_full (n, g_object_unref);
  GnnNode *node;

  for (guint i = 0; i < n; i++)
    {
      gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
      guint nd = 0;

      for (guint j = 0; j < p->ndim; j++)
        {
          if (j == d && lengths[i] < 0)
            continue;
          shape[nd] = j == d ? lengths[i] : p->shape[j];
          strides[nd] = p->strides[j];
          nd++;
        }
      g_ptr_array_add (out, gnn_tensor_new_view (self, nd, shape, strides, p->offset + starts[i] * p->strides[d]));
    }
  node = gnn_autograd_record (grad_name, pieces_backward, &self, 1, (GnnTensor **) out->pdata, n);
  if (node)
    {
      PiecesCtx *ctx = g_new0 (PiecesCtx, 1);
      ctx->dim = d;
      ctx->n = n;
      ctx->starts = g_memdup2 (starts, sizeof (gint64) * n);
      ctx->lengths = g_memdup2 (lengths, sizeof (gint64) * n);
      gnn_node_set_ctx (node, ctx, pieces_ctx_free);
    }
  return out;
}

/* the dim @dim of @self for @op, which needs at least one dimension */
static gboolean
split_dim (const char *op, GnnTensorPrivate *p, int dim, guint *d, GError **error)
{
  if (p->ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s expects at least a 1-dimensional tensor", op);
      return FALSE;
    }
  return gnn_normalize_dim (dim, p->ndim, d, error);
}

static GPtrArray *
split_sizes (const char *grad_name, GnnTensor *self, guint d, guint n, const gint64 *sizes)
{
  g_autofree gint64 *starts = g_new (gint64, MAX (n, 1));
  gint64 at = 0;

  for (guint i = 0; i < n; i++)
    {
      starts[i] = at;
      at += sizes[i];
    }
  return make_pieces (grad_name, self, d, n, starts, sizes);
}

/**
 * gnn_tensor_split:
 * @self: a tensor of at least one dimension
 * @split_size: the size of each piece along @dim (the last may be smaller); 0 only when
 *   @dim has size 0
 * @dim: the dimension to split
 * @error: return location for a #GError
 *
 * Views of @self in pieces of @split_size indices of @dim (`Tensor.split (int, dim)`): they
 * share its storage and, as in PyTorch, have one grad_fn (`SplitBackward0`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_split (GnnTensor *self, gint64 split_size, int dim, GError **error)
{
  GnnTensorPrivate *p;
  guint d, n;
  gint64 size;
  g_autofree gint64 *sizes = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!split_dim ("split", p, dim, &d, error))
    return NULL;
  size = p->shape[d];
  if (split_size < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "split expects split_size be non-negative, but got split_size=%" G_GINT64_FORMAT, split_size);
      return NULL;
    }
  if (split_size == 0 && size != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "split_size can only be 0 if dimension size is 0, but got dimension size of %" G_GINT64_FORMAT,
                   size);
      return NULL;
    }
  n = split_size == 0 ? 1 : (guint) MAX ((size + split_size - 1) / split_size, 1);
  sizes = g_new (gint64, n);
  for (guint i = 0; i < n; i++)
    sizes[i] = MIN (split_size, size - (gint64) i * split_size);
  if (n == 1)
    sizes[0] = size;
  return split_sizes ("SplitBackward0", self, d, n, sizes);
}

/**
 * gnn_tensor_split_with_sizes:
 * @self: a tensor of at least one dimension
 * @sizes: (array length=n_sizes): the size of each piece along @dim, summing to its size
 * @n_sizes: the number of pieces
 * @dim: the dimension to split
 * @error: return location for a #GError
 *
 * Views of @self in pieces of the given sizes along @dim (`Tensor.split (list, dim)`), with
 * one grad_fn (`SplitWithSizesBackward0`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_split_with_sizes (GnnTensor *self, const gint64 *sizes, guint n_sizes, int dim, GError **error)
{
  GnnTensorPrivate *p;
  guint d;
  gint64 total = 0;
  gboolean negative = FALSE;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  p = gnn_tensor_priv (self);
  if (!split_dim ("split_with_sizes", p, dim, &d, error))
    return NULL;
  for (guint i = 0; i < n_sizes; i++)
    {
      total += sizes[i];
      negative |= sizes[i] < 0;
    }
  if (negative || total != p->shape[d])
    {
      g_autofree char *list = gnn_shape_to_string (n_sizes, sizes);
      if (negative)
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "split_with_sizes expects split_sizes have only non-negative entries, but got "
                     "split_sizes=%s", list);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "split_with_sizes expects split_sizes to sum exactly to %" G_GINT64_FORMAT
                     " (input tensor's size at dimension %u), but got split_sizes=%s", p->shape[d], d, list);
      return NULL;
    }
  return split_sizes ("SplitWithSizesBackward0", self, d, n_sizes, sizes);
}

/**
 * gnn_tensor_chunk:
 * @self: a tensor of at least one dimension
 * @chunks: how many pieces at most, at least 1
 * @dim: the dimension to split
 * @error: return location for a #GError
 *
 * Views of @self in @chunks pieces of equal size along @dim, the last smaller, as
 * PyTorch's `Tensor.chunk` (which may give fewer pieces: a split by the rounded-up size).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_chunk (GnnTensor *self, gint64 chunks, int dim, GError **error)
{
  GnnTensorPrivate *p;
  guint d;
  gint64 size;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!split_dim ("chunk", p, dim, &d, error))
    return NULL;
  if (chunks <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "chunk expects `chunks` to be greater than 0, got: %" G_GINT64_FORMAT, chunks);
      return NULL;
    }
  size = p->shape[d];
  if (size == 0)
    {
      /* as PyTorch: chunks empty pieces, which a split by 0 would lose */
      g_autofree gint64 *sizes = g_new0 (gint64, MIN (chunks, G_MAXUINT16));
      return split_sizes ("SplitWithSizesBackward0", self, d, (guint) MIN (chunks, G_MAXUINT16), sizes);
    }
  return gnn_tensor_split (self, (size + chunks - 1) / chunks, (int) d, error);
}

/* tensor_split: a slice per piece, each its own SliceBackward0 as in PyTorch */
static GPtrArray *
slices_between (GnnTensor *self, guint d, guint n, const gint64 *bounds, GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      GnnTensor *s = gnn_tensor_slice (self, (int) d, bounds[i], bounds[i + 1], 1, error);
      if (s == NULL)
        return NULL;
      g_ptr_array_add (out, s);
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_tensor_split:
 * @self: a tensor of at least one dimension
 * @sections: how many pieces, at least 1
 * @dim: the dimension to split
 * @error: return location for a #GError
 *
 * @sections views of @self along @dim whose sizes differ by at most one, the larger first
 * (`torch.tensor_split (input, sections, dim)`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_tensor_split (GnnTensor *self, gint64 sections, int dim, GError **error)
{
  GnnTensorPrivate *p;
  guint d;
  gint64 size, base, extra;
  g_autofree gint64 *bounds = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  if (sections <= 0 || sections > G_MAXUINT16)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "number of sections must be larger than 0, got %" G_GINT64_FORMAT, sections);
      return NULL;
    }
  size = p->shape[d];
  base = size / sections;
  extra = size % sections;
  bounds = g_new (gint64, sections + 1);
  bounds[0] = 0;
  for (gint64 i = 0; i < sections; i++)
    bounds[i + 1] = bounds[i] + base + (i < extra ? 1 : 0);
  return slices_between (self, d, (guint) sections, bounds, error);
}

/**
 * gnn_tensor_tensor_split_indices:
 * @self: a tensor of at least one dimension
 * @indices: (array length=n_indices): where pieces start along @dim (negative counts from the end)
 * @n_indices: the number of indices; there are @n_indices + 1 pieces
 * @dim: the dimension to split
 * @error: return location for a #GError
 *
 * Views of @self cut before each index of @dim (`torch.tensor_split (input, indices, dim)`):
 * `[:i0]`, `[i0:i1]`, ..., `[in:]`, as Python slices (clamped, empty when reversed).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_tensor_split_indices (GnnTensor *self, const gint64 *indices, guint n_indices, int dim,
                                 GError **error)
{
  GnnTensorPrivate *p;
  guint d;
  g_autofree gint64 *bounds = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  bounds = g_new (gint64, n_indices + 2);
  bounds[0] = 0;
  memcpy (bounds + 1, indices, sizeof (gint64) * n_indices);
  bounds[n_indices + 1] = p->shape[d];
  return slices_between (self, d, n_indices + 1, bounds, error);
}

/**
 * gnn_tensor_unbind:
 * @self: a tensor of at least one dimension
 * @dim: the dimension to remove
 * @error: return location for a #GError
 *
 * A view of each index of @dim, without that dimension (`Tensor.unbind`), with one grad_fn
 * (`UnbindBackward0`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the views, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_unbind (GnnTensor *self, int dim, GError **error)
{
  GnnTensorPrivate *p;
  guint d;
  g_autofree gint64 *starts = NULL;
  g_autofree gint64 *lengths = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "Dimension specified as 0 but tensor has no dimensions");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  starts = g_new (gint64, MAX (p->shape[d], 1));
  lengths = g_new (gint64, MAX (p->shape[d], 1));
  for (gint64 i = 0; i < p->shape[d]; i++)
    {
      starts[i] = i;
      lengths[i] = -1;
    }
  return make_pieces ("UnbindBackward0", self, d, (guint) p->shape[d], starts, lengths);
}

/* "[a, b, c]" */
static char *
dims_to_string (const int *dims, guint n)
{
  GString *s = g_string_new ("[");

  for (guint j = 0; j < n; j++)
    g_string_append_printf (s, "%s%d", j ? ", " : "", dims[j]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* the dims of @dims for movedim, normalised, or an error naming @what if one repeats */
static gboolean
movedim_dims (const char *what, const int *dims, guint n, guint ndim, guint *out, GError **error)
{
  gboolean seen[GNN_MAX_DIMS] = { FALSE };

  for (guint i = 0; i < n; i++)
    {
      if (!gnn_normalize_dim (dims[i], ndim, &out[i], error))
        return FALSE;
      if (seen[out[i]])
        {
          g_autofree char *s = dims_to_string (dims, n);
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "movedim: repeated dim in `%s` (%s)",
                       what, s);
          return FALSE;
        }
      seen[out[i]] = TRUE;
    }
  return TRUE;
}

/**
 * gnn_tensor_movedim:
 * @self: a tensor
 * @source: (array length=n_source): the dimensions to move
 * @n_source: the number of entries in @source
 * @destination: (array length=n_destination): where each goes
 * @n_destination: the number of entries in @destination, equal to @n_source
 * @error: return location for a #GError
 *
 * A view with the dimensions @source at the places @destination, the others keeping their
 * order (`torch.movedim`, `torch.moveaxis`): a permute.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_movedim (GnnTensor *self, const int *source, guint n_source, const int *destination,
                    guint n_destination, GError **error)
{
  GnnTensorPrivate *p;
  guint src[GNN_MAX_DIMS], dst[GNN_MAX_DIMS];
  int order[GNN_MAX_DIMS];
  gboolean taken[GNN_MAX_DIMS] = { FALSE }, placed[GNN_MAX_DIMS] = { FALSE };
  guint next = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (source != NULL || n_source == 0, NULL);
  g_return_val_if_fail (destination != NULL || n_destination == 0, NULL);
  p = gnn_tensor_priv (self);
  if (n_source != n_destination)
    {
      g_autofree char *s = dims_to_string (source, n_source);
      g_autofree char *d = dims_to_string (destination, n_destination);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "movedim: Invalid source or destination dims: source (%s dims) should contain the same "
                   "number of dims as destination (%s dims)", s, d);
      return NULL;
    }
  if (n_source > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "movedim: tensors have at most %d dimensions, got %u dims",
                   GNN_MAX_DIMS, n_source);
      return NULL;
    }
  if (!movedim_dims ("source", source, n_source, p->ndim, src, error) ||
      !movedim_dims ("destination", destination, n_destination, p->ndim, dst, error))
    return NULL;
  if (p->ndim == 0)
    return gnn_tensor_permute (self, NULL, 0, error);
  for (guint i = 0; i < n_source; i++)
    {
      order[dst[i]] = (int) src[i];
      taken[src[i]] = TRUE;
      placed[dst[i]] = TRUE;
    }
  for (guint i = 0; i < p->ndim; i++)
    {
      if (placed[i])
        continue;
      while (taken[next])
        next++;
      order[i] = (int) next++;
    }
  return gnn_tensor_permute (self, order, p->ndim, error);
}

/**
 * gnn_tensor_expand_as:
 * @self: a tensor
 * @other: a tensor whose shape @self is expanded to
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.expand] to the shape of @other (`Tensor.expand_as`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_expand_as (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensorPrivate *o;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (other), NULL);
  o = gnn_tensor_priv (other);
  return gnn_tensor_expand (self, o->shape, o->ndim, error);
}

typedef struct {
  gint64 offset;
  int dim1, dim2;
} DiagonalCtx;

/* diagonal: the gradient lands on the same diagonal of zeros of the input's shape */
static gboolean
diagonal_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  DiagonalCtx *ctx = node->ctx;
  g_autoptr(GnnTensor) z = NULL;
  g_autoptr(GnnTensor) part = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  z = gnn_tensor_new_zeros_like (go[0], gnn_tensor_priv (go[0])->dtype, node->in_ndim[0], node->in_shape[0], error);
  if (z == NULL || !(part = gnn_tensor_diagonal (z, ctx->offset, ctx->dim1, ctx->dim2, error)) ||
      !gnn_tensor_copy_ (part, go[0], error))
    return FALSE;
  gi[0] = g_steal_pointer (&z);
  return TRUE;
}

/**
 * gnn_tensor_diagonal:
 * @self: a tensor of at least two dimensions
 * @offset: which diagonal: 0 the main one, above it when positive, below when negative
 * @dim1: the first dimension of the matrices
 * @dim2: the second dimension of the matrices
 * @error: return location for a #GError
 *
 * A view of the diagonals of the matrices over @dim1 and @dim2, those two dimensions removed
 * and the diagonal appended as the last (`torch.diagonal`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diagonal (GnnTensor *self, gint64 offset, int dim1, int dim2, GError **error)
{
  GnnTensorPrivate *p;
  guint a, b, k = 0;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS], len, at;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_normalize_dim (dim1, p->ndim, &a, error) || !gnn_normalize_dim (dim2, p->ndim, &b, error))
    return NULL;
  if (a == b)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "diagonal dimensions cannot be identical %d, %d", dim1, dim2);
      return NULL;
    }
  at = p->offset;
  if (offset >= 0)
    {
      len = MAX (MIN (p->shape[a], p->shape[b] - offset), 0);
      if (len > 0)
        at += offset * p->strides[b];
    }
  else
    {
      len = MAX (MIN (p->shape[a] + offset, p->shape[b]), 0);
      if (len > 0)
        at -= offset * p->strides[a];
    }
  for (guint i = 0; i < p->ndim; i++)
    if (i != a && i != b)
      {
        shape[k] = p->shape[i];
        strides[k] = p->strides[i];
        k++;
      }
  shape[k] = len;
  strides[k] = p->strides[a] + p->strides[b];
  out = gnn_tensor_new_view (self, k + 1, shape, strides, at);
  node = gnn_autograd_record ("DiagonalBackward0", diagonal_backward, &self, 1, &out, 1);
  if (node)
    {
      DiagonalCtx *ctx = g_new (DiagonalCtx, 1);
      ctx->offset = offset;
      ctx->dim1 = (int) a;
      ctx->dim2 = (int) b;
      gnn_node_set_ctx (node, ctx, g_free);
    }
  return out;
}

/* ---- unfold and as_strided: views of any geometry ----------------------------------- */

/* unfold: dims[0] the dimension, start the window size, step the step. The windows that
 * start at j, j + size, ... never overlap among themselves for a fixed offset j < size, so the
 * gradient is one strided add per offset j. */
static gboolean
unfold_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ViewCtx *ctx = node->ctx;
  g_autoptr(GnnTensor) z = NULL;
  guint nd = node->in_ndim[0];
  int d = ctx->dims[0];
  gint64 count;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (nd == 0)
    {
      gi[0] = gnn_tensor_reshape (go[0], NULL, 0, error);
      return gi[0] != NULL;
    }
  count = gnn_tensor_priv (go[0])->shape[d];
  z = gnn_tensor_new_like (go[0], gnn_tensor_priv (go[0])->dtype, nd, node->in_shape[0], error);
  if (z == NULL || !gnn_tensor_zero_ (z, error))
    return FALSE;
  for (gint64 j = 0; j < ctx->start && count > 0; j++)
    {
      g_autoptr(GnnTensor) part = gnn_tensor_slice (z, d, j, j + (count - 1) * ctx->step + 1, ctx->step, error);
      g_autoptr(GnnTensor) src = part ? gnn_tensor_select (go[0], (int) nd, j, error) : NULL;
      if (src == NULL || !gnn_tensor_add_ (part, src, 1.0, error))
        return FALSE;
    }
  gi[0] = g_steal_pointer (&z);
  return TRUE;
}

/**
 * gnn_tensor_unfold:
 * @self: a tensor
 * @dim: the dimension to take windows of
 * @size: the length of each window
 * @step: the distance between the starts of successive windows, at least 1
 * @error: return location for a #GError
 *
 * A view of every window of @size indices of @dim, @step apart (`Tensor.unfold`): @dim's size
 * becomes the number of windows, `(size (dim) - size) / step + 1`, and a last dimension of
 * @size indexes each window. Windows overlap when @step < @size; their gradients add up.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unfold (GnnTensor *self, int dim, gint64 size, gint64 step, GError **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS], have;
  guint d = 0;
  ViewCtx ctx = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      if (dim != 0 && dim != -1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "Dimension out of range (expected to be in range of [-1, 0], but got %d)", dim);
          return NULL;
        }
    }
  else if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  if (p->ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "unfold: a tensor of %u dimensions has no room for the window dimension (at most %d)",
                   p->ndim, GNN_MAX_DIMS);
      return NULL;
    }
  have = p->ndim == 0 ? 1 : p->shape[d];
  if (size < 0 || size > have)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "maximum size for tensor at dimension %u is %" G_GINT64_FORMAT " but size is %" G_GINT64_FORMAT,
                   d, have, size);
      return NULL;
    }
  if (step <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "step is %" G_GINT64_FORMAT " but must be > 0", step);
      return NULL;
    }
  ctx.dims[0] = (int) d;
  ctx.start = size;
  ctx.step = step;
  if (p->ndim == 0)
    {
      shape[0] = size;
      strides[0] = 1;
      return make_view ("UnfoldBackward0", unfold_backward, self, 1, shape, strides, p->offset, &ctx);
    }
  for (guint i = 0; i < p->ndim; i++)
    {
      shape[i] = p->shape[i];
      strides[i] = p->strides[i];
    }
  shape[d] = (have - size) / step + 1;
  strides[d] = p->strides[d] * step;
  shape[p->ndim] = size;
  strides[p->ndim] = p->strides[d];
  return make_view ("UnfoldBackward0", unfold_backward, self, p->ndim + 1, shape, strides, p->offset, &ctx);
}

typedef struct {
  guint in_ndim, ndim;
  gint64 in_strides[GNN_MAX_DIMS], in_offset;
  gint64 size[GNN_MAX_DIMS], stride[GNN_MAX_DIMS], offset;
} AsStridedCtx;

/* The storage position of each element (row-major order) of a geometry. */
static void
positions (guint ndim, const gint64 *shape, const gint64 *strides, gint64 offset, gint64 *out)
{
  gint64 idx[GNN_MAX_DIMS] = { 0 }, n = gnn_shape_numel (ndim, shape);
  for (gint64 k = 0; k < n; k++)
    {
      gint64 pos = offset;
      for (guint i = 0; i < ndim; i++)
        pos += idx[i] * strides[i];
      out[k] = pos;
      for (int i = (int) ndim - 1; i >= 0; i--)
        {
          if (++idx[i] < shape[i])
            break;
          idx[i] = 0;
        }
    }
}

/* as_strided: each output element's gradient goes to the input element at the same storage
 * position (output positions the input does not cover get none). */
static gboolean
as_strided_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  AsStridedCtx *ctx = node->ctx;
  gint64 n_in = gnn_shape_numel (node->in_ndim[0], node->in_shape[0]);
  gint64 n_out = gnn_shape_numel (ctx->ndim, ctx->size);
  gint64 lo = G_MAXINT64, hi = G_MININT64, n_kept = 0, flat_in = n_in, flat_out = n_out;
  g_autofree gint64 *in_pos = g_new (gint64, MAX (n_in, 1));
  g_autofree gint64 *out_pos = g_new (gint64, MAX (n_out, 1));
  g_autofree gint64 *owner = NULL;
  g_autofree gint64 *target = g_new (gint64, MAX (n_out, 1));
  g_autofree gint64 *kept = g_new (gint64, MAX (n_out, 1));
  g_autoptr(GnnTensor) z = NULL;
  g_autoptr(GnnTensor) src = NULL;
  g_autoptr(GnnTensor) index = NULL;
  g_autoptr(GnnTensor) on_device = NULL;
  g_autoptr(GnnTensor) sum = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  positions (node->in_ndim[0], node->in_shape[0], ctx->in_strides, ctx->in_offset, in_pos);
  positions (ctx->ndim, ctx->size, ctx->stride, ctx->offset, out_pos);
  for (gint64 k = 0; k < n_in; k++)
    {
      lo = MIN (lo, in_pos[k]);
      hi = MAX (hi, in_pos[k]);
    }
  if (n_in > 0)
    {
      owner = g_new (gint64, hi - lo + 1);
      for (gint64 k = 0; k <= hi - lo; k++)
        owner[k] = -1;
      for (gint64 k = n_in - 1; k >= 0; k--)
        owner[in_pos[k] - lo] = k;
    }
  for (gint64 k = 0; k < n_out; k++)
    {
      gint64 pos = out_pos[k];
      if (n_in > 0 && pos >= lo && pos <= hi && owner[pos - lo] >= 0)
        {
          kept[n_kept] = k;
          target[n_kept] = owner[pos - lo];
          n_kept++;
        }
    }
  z = gnn_tensor_new_like (go[0], gnn_tensor_priv (go[0])->dtype, 1, &flat_in, error);
  if (z == NULL || !gnn_tensor_zero_ (z, error))
    return FALSE;
  src = gnn_tensor_reshape (go[0], &flat_out, 1, error);
  if (src == NULL)
    return FALSE;
  if (n_kept < n_out)
    {
      g_autoptr(GnnTensor) which = gnn_tensor_new_from_int64s (kept, n_kept, &n_kept, 1, error);
      g_autoptr(GnnTensor) which_there = which ? gnn_tensor_to_device (which, gnn_tensor_get_device (go[0]), error) : NULL;
      g_autoptr(GnnTensor) taken = which_there ? gnn_tensor_take (src, which_there, error) : NULL;
      if (taken == NULL)
        return FALSE;
      g_clear_object (&src);
      src = g_steal_pointer (&taken);
    }
  index = gnn_tensor_new_from_int64s (target, n_kept, &n_kept, 1, error);
  on_device = index ? gnn_tensor_to_device (index, gnn_tensor_get_device (go[0]), error) : NULL;
  sum = on_device ? gnn_tensor_scatter_add (z, 0, on_device, src, error) : NULL;
  if (sum == NULL)
    return FALSE;
  gi[0] = gnn_tensor_reshape (sum, node->in_shape[0], node->in_ndim[0], error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_as_strided:
 * @self: a tensor
 * @size: (array length=n_size): the shape of the view
 * @n_size: the number of dimensions
 * @stride: (array length=n_stride): the stride of each dimension, in elements, not negative
 * @n_stride: the number of strides, @n_size
 * @storage_offset: the position of the first element in @self's storage, in elements, or a
 *   negative number for @self's own storage offset
 * @error: return location for a #GError
 *
 * A view of @self's storage with the given geometry (`torch.as_strided`): element
 * (i0, i1, ...) is the storage element `storage_offset + i0 * stride[0] + i1 * stride[1] ...`.
 * Every element must lie inside the storage. The gradient of an element goes to the element of
 * @self at the same storage position; elements the view takes more than once add up.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_as_strided (GnnTensor *self, const gint64 *size, guint n_size, const gint64 *stride,
                       guint n_stride, gint64 storage_offset, GError **error)
{
  GnnTensorPrivate *p;
  AsStridedCtx ctx = { 0 };
  GnnTensor *out;
  GnnNode *node;
  gint64 last;
  gsize item;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (n_size != n_stride)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "mismatch in length of strides and shape");
      return NULL;
    }
  if (n_size > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "as_strided: %u dimensions, at most %d are supported",
                   n_size, GNN_MAX_DIMS);
      return NULL;
    }
  if (storage_offset < 0)
    storage_offset = p->offset;
  for (guint i = 0; i < n_size; i++)
    if (stride[i] < 0)
      {
        g_autoptr(GString) s = g_string_new ("[");
        for (guint j = 0; j < n_stride; j++)
          g_string_append_printf (s, "%s%" G_GINT64_FORMAT, j ? ", " : "", stride[j]);
        g_string_append_c (s, ']');
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "as_strided: Negative strides are not supported at the moment, got strides: %s", s->str);
        return NULL;
      }
  if (!gnn_shape_check ("as_strided", n_size, size, 0, error))
    return NULL;
  item = gnn_dtype_get_size (p->dtype);
  last = storage_offset;
  for (guint i = 0; i < n_size; i++)
    last += (size[i] - 1) * stride[i];
  if (gnn_shape_numel (n_size, size) > 0 && (gsize) (last + 1) * item > p->storage->nbytes)
    {
      g_autoptr(GString) s = g_string_new ("[");
      g_autoptr(GString) t = g_string_new ("[");
      for (guint j = 0; j < n_size; j++)
        {
          g_string_append_printf (s, "%s%" G_GINT64_FORMAT, j ? ", " : "", size[j]);
          g_string_append_printf (t, "%s%" G_GINT64_FORMAT, j ? ", " : "", stride[j]);
        }
      g_string_append_c (s, ']');
      g_string_append_c (t, ']');
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "setStorage: sizes %s, strides %s, storage offset %" G_GINT64_FORMAT ", and itemsize %"
                   G_GSIZE_FORMAT " requiring a storage size of %" G_GSIZE_FORMAT " are out of bounds for "
                   "storage of size %" G_GSIZE_FORMAT,
                   s->str, t->str, storage_offset, item, (gsize) (last + 1) * item, p->storage->nbytes);
      return NULL;
    }
  out = gnn_tensor_new_view (self, n_size, size, stride, storage_offset);
  node = gnn_autograd_record ("AsStridedBackward0", as_strided_backward, &self, 1, &out, 1);
  if (node)
    {
      ctx.in_ndim = p->ndim;
      memcpy (ctx.in_strides, p->strides, sizeof (gint64) * p->ndim);
      ctx.in_offset = p->offset;
      ctx.ndim = n_size;
      memcpy (ctx.size, size, sizeof (gint64) * n_size);
      memcpy (ctx.stride, stride, sizeof (gint64) * n_size);
      ctx.offset = storage_offset;
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  return out;
}
