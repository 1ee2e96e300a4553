/* gnn-ops-index.c: joining (cat, stack), indexing (index_select, gather, one_hot) and masks
 * (masked_fill, tril, triu)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* ---- helpers ------------------------------------------------------------------------ */

/* A contiguous one-dimensional kernel view of @t's @n elements */
static void
kernel_1d (GnnTensor *t, gint64 n, GnnKernelTensor *kt)
{
  gnn_kernel_tensor_contiguous (t, 1, &n, kt);
}

/* The smallest and largest entry of a non-empty int64 @index, through the backend */
static gboolean
index_range (GnnTensor *index, gint64 *lo, gint64 *hi, GError **error)
{
  g_autoptr(GnnTensor) mn = gnn_tensor_min_all (index, error);
  g_autoptr(GnnTensor) mx = mn ? gnn_tensor_max_all (index, error) : NULL;

  if (mx == NULL)
    return FALSE;
  *lo = (gint64) gnn_tensor_item (mn, NULL);
  *hi = (gint64) gnn_tensor_item (mx, NULL);
  return TRUE;
}

/* Checks that every entry of @index lies in [0, @size) (in [-@size, @size) where @wraps: a
 * negative index counts from the end); the error names the first offending extreme, the
 * dimension and its size. Only for indices in host memory: reading a device's
 * indices would copy them to the host and wait for the device at every step, so there an
 * out-of-range index is not reported (the kernels read 0 and skip the write instead), as
 * PyTorch's CUDA kernels only assert on the device. */
gboolean
gnn_check_index_bounds (const char *op, GnnTensor *index, guint dim, gint64 size, gboolean wraps, GError **error)
{
  gint64 lo, hi, bad;

  if (gnn_tensor_get_numel (index) == 0 || !gnn_tensor_priv (index)->storage->entry->funcs->is_host)
    return TRUE;
  if (!index_range (index, &lo, &hi, error))
    return FALSE;
  if (lo >= (wraps ? -size : 0) && hi < size)
    return TRUE;
  bad = lo < (wraps ? -size : 0) ? lo : hi;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
               "%s(): index %" G_GINT64_FORMAT " is out of bounds for dimension %u with size %" G_GINT64_FORMAT,
               op, bad, dim, size);
  return FALSE;
}

/* Checks the dtype of @index as PyTorch 1.13 does: int64, or int32 too where @int32 (index_select
 * takes both; gather and scatter int64 only). */
gboolean
gnn_check_index_dtype (const char *op, GnnTensor *index, gboolean int32, GError **error)
{
  GnnDtype d = gnn_tensor_priv (index)->dtype;

  if (d == GNN_DTYPE_INT64 || (int32 && d == GNN_DTYPE_INT32))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s(): Expected dtype %s for index, got %s",
               op, int32 ? "int32 or int64" : "int64", gnn_dtype_get_name (d));
  return FALSE;
}

/* ---- cat ---------------------------------------------------------------------------- */

typedef struct {
  guint dim;
  guint n;
  gint64 *offsets;   /* where each input starts along dim; -1 for a skipped empty vector */
} CatCtx;

static void
cat_ctx_free (gpointer data)
{
  CatCtx *ctx = data;

  g_free (ctx->offsets);
  g_free (ctx);
}

/* cat: each input's gradient is its slice of the output gradient */
static gboolean
cat_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  CatCtx *ctx = node->ctx;

  if (go[0] == NULL)
    return TRUE;
  for (guint j = 0; j < ctx->n; j++)
    {
      g_autoptr(GnnTensor) part = NULL;

      if (!NEEDS (j))
        continue;
      if (ctx->offsets[j] < 0)
        part = gnn_tensor_new_zeros_like (go[0], node->in_dtype[j], node->in_ndim[j], node->in_shape[j], error);
      else
        part = gnn_tensor_narrow (go[0], (int) ctx->dim, ctx->offsets[j], node->in_shape[j][ctx->dim], error);
      if (part == NULL || !(gi[j] = gnn_tensor_cast (part, node->in_dtype[j], error)))
        return FALSE;
    }
  return TRUE;
}

/* PyTorch skips one-dimensional empty tensors in cat, whatever the other shapes */
static gboolean
cat_skips (GnnTensorPrivate *p)
{
  return p->ndim == 1 && p->shape[0] == 0;
}

/* Whether @tensors holds @n_tensors tensors, at least one: an empty list is an error with
 * PyTorch's message @empty. */
static gboolean
check_tensor_list (GnnTensor  **tensors,
                   guint        n_tensors,
                   const char  *empty,
                   GError     **error)
{
  g_return_val_if_fail (tensors != NULL || n_tensors == 0, FALSE);
  for (guint i = 0; i < n_tensors; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), FALSE);
  if (n_tensors == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, empty);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_cat:
 * @tensors: (array length=n_tensors): the tensors to join
 * @n_tensors: the number of tensors, at least one
 * @dim: the dimension to join along
 * @error: return location for a #GError
 *
 * Joins tensors along an existing dimension (`torch.cat (tensors, dim)`). All the shapes must
 * match except along @dim; as in PyTorch, one-dimensional empty tensors are skipped. The
 * result has the promoted dtype of all the inputs.
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 */
GnnTensor *
gnn_cat (GnnTensor **tensors, guint n_tensors, int dim, GError **error)
{
  GnnTensorPrivate *rp;
  GnnTensor *ref = NULL, *out;
  GnnDtype dtype;
  gint64 shape[GNN_MAX_DIMS], offset = 0;
  CatCtx *ctx;
  GnnNode *node;
  guint d;

  if (!check_tensor_list (tensors, n_tensors, "torch.cat(): expected a non-empty list of Tensors", error))
    return NULL;
  dtype = gnn_tensor_priv (tensors[0])->dtype;
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);
      if (p->ndim == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "zero-dimensional tensor (at position %u) cannot be concatenated", i);
          return NULL;
        }
      if (!gnn_check_same_device ("cat", tensors[0], tensors[i], error))
        return NULL;
      dtype = gnn_dtype_promote (dtype, p->dtype);
      if (ref == NULL && !cat_skips (p))
        ref = tensors[i];
    }
  if (ref == NULL)
    ref = tensors[0];
  rp = gnn_tensor_priv (ref);
  if (!gnn_normalize_dim (dim, rp->ndim, &d, error))
    return NULL;
  memcpy (shape, rp->shape, sizeof shape);
  shape[d] = 0;
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);
      if (cat_skips (p) && tensors[i] != ref)
        continue;
      if (p->ndim != rp->ndim)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Tensors must have same number of dimensions: got %u and %u", rp->ndim, p->ndim);
          return NULL;
        }
      for (guint k = 0; k < p->ndim; k++)
        if (k != d && p->shape[k] != rp->shape[k])
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "Sizes of tensors must match except in dimension %u. Expected size %" G_GINT64_FORMAT
                         " but got size %" G_GINT64_FORMAT " for tensor number %u in the list.",
                         d, rp->shape[k], p->shape[k], i);
            return NULL;
          }
      shape[d] += p->shape[d];
    }

  out = gnn_tensor_new_like (ref, dtype, rp->ndim, shape, error);
  if (out == NULL)
    return NULL;
  ctx = g_new0 (CatCtx, 1);
  ctx->dim = d;
  ctx->n = n_tensors;
  ctx->offsets = g_new (gint64, n_tensors);
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);
      GnnTensorPrivate *op = gnn_tensor_priv (out);
      gint64 vshape[GNN_MAX_DIMS];
      g_autoptr(GnnTensor) view = NULL;

      if (cat_skips (p) && tensors[i] != ref)
        {
          ctx->offsets[i] = -1;
          continue;
        }
      ctx->offsets[i] = offset;
      memcpy (vshape, op->shape, sizeof vshape);
      vshape[d] = p->shape[d];
      view = gnn_tensor_new_view (out, op->ndim, vshape, op->strides, op->offset + offset * op->strides[d]);
      if (!gnn_tensor_copy_into (view, tensors[i], error))
        {
          cat_ctx_free (ctx);
          g_object_unref (out);
          return NULL;
        }
      offset += p->shape[d];
    }
  node = gnn_autograd_record ("CatBackward0", cat_backward, tensors, n_tensors, &out, 1);
  if (node)
    gnn_node_set_ctx (node, ctx, cat_ctx_free);
  else
    cat_ctx_free (ctx);
  return out;
}

/* ---- stack -------------------------------------------------------------------------- */

/* stack: each input's gradient is its index of the output gradient along dim */
static gboolean
stack_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  int dim = GPOINTER_TO_INT (node->ctx);

  if (go[0] == NULL)
    return TRUE;
  for (guint j = 0; j < node->n_inputs; j++)
    {
      g_autoptr(GnnTensor) part = NULL;

      if (!NEEDS (j))
        continue;
      if (!(part = gnn_tensor_select (go[0], dim, j, error)) ||
          !(gi[j] = gnn_tensor_cast (part, node->in_dtype[j], error)))
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_stack:
 * @tensors: (array length=n_tensors): the tensors to stack, all of one shape
 * @n_tensors: the number of tensors, at least one
 * @dim: where the new dimension goes, in [-ndim-1, ndim]
 * @error: return location for a #GError
 *
 * Joins tensors of equal shape along a new dimension (`torch.stack (tensors, dim)`). The
 * result has the promoted dtype of all the inputs.
 *
 * Returns: (transfer full): the stacked tensor, or %NULL with @error set
 */
GnnTensor *
gnn_stack (GnnTensor **tensors, guint n_tensors, int dim, GError **error)
{
  GnnTensorPrivate *p0;
  g_autoptr(GPtrArray) views = NULL;
  GnnTensor *out;
  GnnNode *node;
  gboolean prev;
  guint d;

  if (!check_tensor_list (tensors, n_tensors, "stack expects a non-empty TensorList", error))
    return NULL;
  p0 = gnn_tensor_priv (tensors[0]);
  for (guint i = 1; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);
      if (p->ndim != p0->ndim || memcmp (p->shape, p0->shape, sizeof (gint64) * p->ndim) != 0)
        {
          g_autofree char *s0 = gnn_shape_to_string (p0->ndim, p0->shape);
          g_autofree char *si = gnn_shape_to_string (p->ndim, p->shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %u",
                       s0, si, i);
          return NULL;
        }
      if (!gnn_check_same_device ("stack", tensors[0], tensors[i], error))
        return NULL;
    }
  if (p0->ndim >= GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "stack: tensors have at most %d dimensions", GNN_MAX_DIMS);
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p0->ndim + 1, &d, error))
    return NULL;

  views = g_ptr_array_new_with_free_func (g_object_unref);
  prev = gnn_set_grad_enabled (FALSE);
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensor *v = gnn_tensor_unsqueeze (tensors[i], (int) d, error);
      if (v == NULL)
        break;
      g_ptr_array_add (views, v);
    }
  out = views->len == n_tensors ? gnn_cat ((GnnTensor **) views->pdata, n_tensors, (int) d, error) : NULL;
  gnn_set_grad_enabled (prev);
  if (out == NULL)
    return NULL;
  node = gnn_autograd_record ("StackBackward0", stack_backward, tensors, n_tensors, &out, 1);
  if (node)
    gnn_node_set_ctx (node, GINT_TO_POINTER ((int) d), NULL);
  return out;
}

/* ---- index_select ------------------------------------------------------------------- */

void
gnn_layout_around (guint ndim, const gint64 *shape, guint dim, gint64 *outer, gint64 *size, gint64 *inner)
{
  *outer = 1;
  *size = ndim ? shape[dim] : 1;
  *inner = 1;
  for (guint i = 0; i < ndim; i++)
    {
      if (i < dim)
        *outer *= shape[i];
      else if (i > dim)
        *inner *= shape[i];
    }
}

gboolean
gnn_run_index_kernel (GnnBackendOp op, int reduce, GnnTensor *out, GnnTensor *in, GnnTensor *index,
                      gint64 outer, gint64 size, gint64 inner, gint64 n_index, GError **error)
{
  gboolean adds = op == GNN_BACKEND_OP_INDEX_ADD || op == GNN_BACKEND_OP_SCATTER_ADD ||
                  op == GNN_BACKEND_OP_SCATTER_REDUCE;
  gboolean per_element = op == GNN_BACKEND_OP_GATHER || op == GNN_BACKEND_OP_SCATTER_ADD ||
                         op == GNN_BACKEND_OP_SCATTER_REDUCE;
  GnnKernelTensor kin0, kin1, kout;
  GnnKernelArgs args = { 0 };

  gnn_kernel_tensor_3d (in, outer, adds ? n_index : size, inner, &kin0);
  if (per_element)
    gnn_kernel_tensor_3d (index, outer, n_index, inner, &kin1);
  else
    kernel_1d (index, n_index, &kin1);
  gnn_kernel_tensor_3d (out, outer, adds ? size : n_index, inner, &kout);
  args.op = op;
  args.out = &kout;
  args.in[0] = &kin0;
  args.in[1] = &kin1;
  args.n_in = 2;
  args.params.index = (GnnKernelIndex) { outer, size, inner, per_element ? n_index : 0, reduce };
  return gnn_run_kernel (out, &args, error);
}

gboolean
gnn_index_add_backward (GnnNode      *node,
                        GnnBackendOp  op,
                        guint         dim,
                        GnnTensor   **go,
                        GnnTensor   **gi,
                        GError      **error)
{
  GnnDtype compute = gnn_compute_dtype (node->in_dtype[0]);
  gint64 outer, size, inner, n_index;
  GnnTensor *index;
  g_autoptr(GnnTensor) g = NULL, idx = NULL, z = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  if (!(index = gnn_node_saved (node, 0, error)))
    return FALSE;
  gnn_layout_around (node->in_ndim[0], node->in_shape[0], dim, &outer, &size, &inner);
  /* SCATTER_ADD: one index per (outer, inner) column (max and min over a dim), or as many as
   * the index has along @dim when it keeps the input's dimensions (sort, topk) */
  if (op == GNN_BACKEND_OP_INDEX_ADD)
    n_index = gnn_tensor_get_numel (index);
  else if (gnn_tensor_priv (index)->ndim == node->in_ndim[0] && node->in_ndim[0] > 0)
    n_index = gnn_tensor_priv (index)->shape[dim];
  else
    n_index = 1;
  if (!(g = gnn_tensor_contiguous_as (go[0], compute, error)) ||
      !(idx = gnn_tensor_contiguous_as (index, GNN_DTYPE_INT64, error)) ||
      !(z = gnn_tensor_new_zeros_like (go[0], compute, node->in_ndim[0], node->in_shape[0], error)))
    return FALSE;
  if (outer * inner * n_index > 0 &&
      !gnn_run_index_kernel (op, 0, z, g, idx, outer, size, inner, n_index, error))
    return FALSE;
  gi[0] = gnn_tensor_cast (z, node->in_dtype[0], error);
  return gi[0] != NULL;
}

/* index_select: the gradient rows are added back at the selected indices */
static gboolean
index_select_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  guint dim = GPOINTER_TO_UINT (node->ctx);

  /* create_graph: the same sum as scatter_add, which records, so that it is differentiated
   * again (the reordering of packed sequences' states, for one) */
  if (go[0] && NEEDS (0) && gnn_is_grad_enabled () && gnn_tensor_priv (go[0])->requires_grad &&
      gnn_tensor_priv (go[0])->ndim > 0)
    {
      GnnTensorPrivate *gp = gnn_tensor_priv (go[0]);
      GnnTensor *index = gnn_node_saved (node, 0, error);
      gint64 shape[GNN_MAX_DIMS];
      g_autoptr(GnnTensor) iv = NULL, ie = NULL, z = NULL;

      if (index == NULL)
        return FALSE;
      for (guint k = 0; k < gp->ndim; k++)
        shape[k] = k == dim ? gnn_tensor_get_numel (index) : 1;
      if (!(iv = gnn_tensor_reshape (index, shape, gp->ndim, error)) ||
          !(ie = gnn_tensor_expand (iv, gp->shape, gp->ndim, error)) ||
          !(z = gnn_tensor_new_zeros_like (go[0], gp->dtype, node->in_ndim[0], node->in_shape[0], error)))
        return FALSE;
      gi[0] = gnn_tensor_scatter_add (z, dim, ie, go[0], error);
      return gi[0] != NULL;
    }
  return gnn_index_add_backward (node, GNN_BACKEND_OP_INDEX_ADD, GPOINTER_TO_UINT (node->ctx), go, gi, error);
}

/* The result of an indexing op on @self: @out cast back to @self's dtype, recorded with
 * @backward, which finds @index saved and @dim as its context. */
static GnnTensor *
record_indexing (const char      *name,
                 GnnBackwardFunc  backward,
                 GnnTensor       *self,
                 GnnTensor       *out,
                 GnnTensor       *index,
                 guint            dim,
                 GError         **error)
{
  GnnTensor *result = gnn_tensor_cast (out, gnn_tensor_priv (self)->dtype, error);
  GnnNode *node;

  if (result == NULL)
    return NULL;
  node = gnn_autograd_record (name, backward, &self, 1, &result, 1);
  if (node)
    {
      gnn_node_save (node, index);
      gnn_node_set_ctx (node, GUINT_TO_POINTER (dim), NULL);
    }
  return result;
}

/**
 * gnn_tensor_index_select:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 or int32 tensor of at most one dimension: the indices to pick, each in
 *   [0, size of @dim)
 * @error: return location for a #GError
 *
 * Picks the entries of @self at @index along @dim (`torch.index_select (self, dim, index)`):
 * the result has @self's shape with the size of @dim replaced by the number of indices.
 * Indices may repeat; their gradients add up. An index out of range is an error naming it.
 * A zero-dimensional @self takes an index of one element and gives a zero-dimensional
 * result.
 *
 * Returns: (transfer full): the selected entries, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_index_select (GnnTensor *self, int dim, GnnTensor *index, GError **error)
{
  GnnTensorPrivate *p, *ip;
  GnnDtype compute;
  gint64 outer, size, inner, n_index, shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) in = NULL, idx = NULL, out = NULL;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  p = gnn_tensor_priv (self);
  ip = gnn_tensor_priv (index);
  if (!gnn_check_index_dtype ("index_select", index, TRUE, error))
    return NULL;
  if (ip->ndim > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "index_select(): Index is supposed to be a vector, got %u dimensions", ip->ndim);
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  if (!gnn_check_same_device ("index_select", self, index, error))
    return NULL;
  gnn_layout_around (p->ndim, p->shape, d, &outer, &size, &inner);
  n_index = gnn_tensor_get_numel (index);
  if (p->ndim == 0 && n_index != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "index_select(): a zero-dimensional tensor takes an index of one element, got %"
                   G_GINT64_FORMAT, n_index);
      return NULL;
    }
  if (!gnn_check_index_bounds ("index_select", index, d, size, FALSE, error))
    return NULL;

  /* a backend that selects rows of the stored dtype (the CPU's, for any dtype) spares a
   * conversion of the whole source, a uint8 dataset's images to int64 say, to the compute dtype */
  compute = gnn_backend_supports_op (p->storage->entry->backend, GNN_BACKEND_OP_INDEX_SELECT, p->dtype)
            ? p->dtype : gnn_compute_dtype (p->dtype);
  memcpy (shape, p->shape, sizeof shape);
  if (p->ndim)
    shape[d] = n_index;
  if (!(in = gnn_tensor_contiguous_as (self, compute, error)) ||
      !(idx = gnn_tensor_contiguous_as (index, GNN_DTYPE_INT64, error)) ||
      !(out = gnn_tensor_new_like (self, compute, p->ndim, shape, error)))
    return NULL;
  if (outer * inner * n_index > 0 &&
      !gnn_run_index_kernel (GNN_BACKEND_OP_INDEX_SELECT, 0, out, in, idx, outer, size, inner, n_index, error))
    return NULL;
  return record_indexing ("IndexSelectBackward0", index_select_backward, self, out, index, d, error);
}

/* ---- gather ------------------------------------------------------------------------- */

/* The shape of the part of @self that gather reads: @index's sizes, except @self's along
 * @dim; zero-dimensional tensors count as one-dimensional of size one. */
static guint
gather_source_shape (GnnTensorPrivate *p, GnnTensorPrivate *ip, guint dim, gint64 *shape)
{
  guint nd = MAX (ip->ndim, 1);

  for (guint i = 0; i < nd; i++)
    shape[i] = ip->ndim ? ip->shape[i] : 1;
  shape[dim] = p->ndim ? p->shape[dim] : 1;
  return nd;
}

/* gather: the gradient is scattered (added) back to where each element came from, by
 * scatter_add, so that it can be differentiated again */
static gboolean
gather_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  guint dim = GPOINTER_TO_UINT (node->ctx);
  GnnTensor *index;
  g_autoptr(GnnTensor) z = NULL, g = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(index = gnn_node_saved (node, 0, error)) ||
      !(z = gnn_tensor_new_zeros_like (go[0], gnn_tensor_priv (go[0])->dtype, node->in_ndim[0], node->in_shape[0],
                                       error)) ||
      !(g = gnn_tensor_scatter_add (z, (int) dim, index, go[0], error)))
    return FALSE;
  gi[0] = gnn_tensor_cast (g, node->in_dtype[0], error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_gather:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor with as many dimensions as @self, no larger than @self in any
 *   dimension but @dim, each entry in [0, size of @dim)
 * @error: return location for a #GError
 *
 * Picks, for every position of @index, the entry of @self at that position with the
 * coordinate along @dim replaced by the index (`torch.gather (self, dim, index)`):
 * out[i][j][k] = self[index[i][j][k]][j][k] for @dim 0. The result has @index's shape.
 * An index out of range is an error naming it.
 *
 * Returns: (transfer full): the gathered entries, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_gather (GnnTensor *self, int dim, GnnTensor *index, GError **error)
{
  GnnTensorPrivate *p, *ip;
  GnnDtype compute;
  gint64 src_shape[GNN_MAX_DIMS], src_strides[GNN_MAX_DIMS];
  gint64 outer, size, inner, n_index;
  g_autoptr(GnnTensor) src = NULL, in = NULL, idx = NULL, out = NULL;
  guint d, nd;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  p = gnn_tensor_priv (self);
  ip = gnn_tensor_priv (index);
  if (!gnn_check_index_dtype ("gather", index, FALSE, error))
    return NULL;
  if (MAX (p->ndim, 1) != MAX (ip->ndim, 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "gather(): Index tensor must have the same number of dimensions as input tensor "
                   "(got %u and %u)", ip->ndim, p->ndim);
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  if (!gnn_check_same_device ("gather", self, index, error))
    return NULL;
  for (guint i = 0; i < ip->ndim && p->ndim; i++)
    if (i != d && ip->shape[i] > p->shape[i])
      {
        g_autofree char *is = gnn_shape_to_string (ip->ndim, ip->shape);
        g_autofree char *ss = gnn_shape_to_string (p->ndim, p->shape);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "gather(): Size does not match at dimension %u expected index %s to be smaller "
                     "than self %s apart from dimension %u", i, is, ss, d);
        return NULL;
      }
  nd = gather_source_shape (p, ip, d, src_shape);
  if (!gnn_check_index_bounds ("gather", index, d, src_shape[d], FALSE, error))
    return NULL;

  compute = gnn_compute_dtype (p->dtype);
  gnn_layout_around (nd, src_shape, d, &outer, &size, &inner);
  n_index = ip->ndim ? ip->shape[d] : 1;
  if (!(out = gnn_tensor_new_like (self, compute, ip->ndim, ip->shape, error)))
    return NULL;
  if (outer * inner * n_index > 0)
    {
      /* the part of self that the index covers, as a view without history */
      for (guint i = 0; i < nd; i++)
        src_strides[i] = p->ndim ? p->strides[i] : 1;
      src = gnn_tensor_new_view (self, nd, src_shape, src_strides, p->offset);
      if (!(in = gnn_tensor_contiguous_as (src, compute, error)) ||
          !(idx = gnn_tensor_contiguous_as (index, GNN_DTYPE_INT64, error)))
        return NULL;
      if (!gnn_run_index_kernel (GNN_BACKEND_OP_GATHER, 0, out, in, idx, outer, size, inner, n_index, error))
        return NULL;
    }
  return record_indexing ("GatherBackward0", gather_backward, self, out, index, d, error);
}

/* ---- one_hot ------------------------------------------------------------------------ */

/**
 * gnn_tensor_one_hot:
 * @self: an int64 tensor of class indices
 * @num_classes: the number of classes, or -1 for the largest index plus one
 * @error: return location for a #GError
 *
 * One-hot encodes class indices (`torch.nn.functional.one_hot (self, num_classes)`): the
 * result has @self's shape plus a last dimension of @num_classes, one where the class is
 * and zero elsewhere.
 *
 * Returns: (transfer full): an int64 tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_one_hot (GnnTensor *self, gint64 num_classes, GError **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], n, lo, hi;
  g_autoptr(GnnTensor) idx = NULL;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->dtype != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "one_hot is only applicable to index tensor (int64), got %s", gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (p->ndim >= GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "one_hot: tensors have at most %d dimensions", GNN_MAX_DIMS);
      return NULL;
    }
  n = gnn_shape_numel (p->ndim, p->shape);
  memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
  if (n == 0)
    {
      if (num_classes <= 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "Can not infer total number of classes from empty tensor.");
          return NULL;
        }
      shape[p->ndim] = num_classes;
      return gnn_tensor_new_like (self, GNN_DTYPE_INT64, p->ndim + 1, shape, error);
    }
  if (!index_range (self, &lo, &hi, error))
    return NULL;
  if (lo < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Class values must be non-negative, got %" G_GINT64_FORMAT, lo);
      return NULL;
    }
  if (num_classes == -1)
    num_classes = hi + 1;
  else if (num_classes <= hi)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Class values must be smaller than num_classes, got %" G_GINT64_FORMAT
                   " with num_classes %" G_GINT64_FORMAT, hi, num_classes);
      return NULL;
    }
  shape[p->ndim] = num_classes;
  if (!(idx = gnn_tensor_contiguous_as (self, GNN_DTYPE_INT64, error)) ||
      !(out = gnn_tensor_new_like (self, GNN_DTYPE_INT64, p->ndim + 1, shape, error)))
    return NULL;
  {
    GnnKernelTensor kin, kout;
    GnnKernelArgs args = { 0 };

    kernel_1d (idx, n, &kin);
    gnn_kernel_tensor_3d (out, n, num_classes, 1, &kout);
    kout.ndim = 2;
    args.op = GNN_BACKEND_OP_ONE_HOT;
    args.out = &kout;
    args.in[0] = &kin;
    args.n_in = 1;
    args.params.one_hot.classes = num_classes;
    if (!gnn_run_kernel (out, &args, error))
      {
        g_object_unref (out);
        return NULL;
      }
  }
  return out;
}

/* ---- masks: masked_fill, tril, triu -------------------------------------------------- */

/* A 0-dim tensor of @value in @like's dtype on its device */
static GnnTensor *
scalar_like (GnnTensor *like, double value, GError **error)
{
  return gnn_tensor_new_scalar (value, gnn_tensor_priv (like)->dtype, gnn_tensor_get_device (like), error);
}

/* masked_fill: self's gradient where the mask is false (summed to self's shape), the value's
 * (MaskedFillBackward1) the sum of the gradient where it is true */
static gboolean
masked_fill_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *mask;   /* borrowed from the node */
  g_autoptr(GnnTensor) zero = NULL;

  if (go[0] == NULL)
    return TRUE;
  if (!(mask = gnn_node_saved (node, 0, error)) || !(zero = scalar_like (go[0], 0, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) kept = gnn_where (mask, zero, go[0], error);
      if (kept == NULL || !(gi[0] = gnn_sum_to (kept, node->in_ndim[0], node->in_shape[0], error)))
        return FALSE;
    }
  if (node->n_inputs > 1 && NEEDS (1))
    {
      g_autoptr(GnnTensor) filled = gnn_where (mask, go[0], zero, error);
      g_autoptr(GnnTensor) total = filled ? gnn_tensor_sum_all (filled, error) : NULL;
      if (total == NULL || !(gi[1] = gnn_tensor_cast (total, node->in_dtype[1], error)))
        return FALSE;
    }
  return TRUE;
}

/* The mask as bool: bool as it is; uint8 and int64 masks of zeros and ones as torch 1.13
 * takes them (a deprecated form there); anything else an error naming @op. */
static GnnTensor *
bool_mask (const char *op, GnnTensor *mask, GError **error)
{
  GnnDtype d = gnn_tensor_priv (mask)->dtype;
  gint64 lo = 0, hi = 0;

  if (d == GNN_DTYPE_BOOL)
    return g_object_ref (mask);
  if (d != GNN_DTYPE_UINT8 && d != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s only supports boolean masks, but got mask with dtype %s",
                   op, gnn_dtype_get_name (d));
      return NULL;
    }
  if (gnn_tensor_get_numel (mask) > 0 && gnn_tensor_priv (mask)->storage->entry->funcs->is_host)
    {
      g_autoptr(GnnTensor) m64 = gnn_tensor_cast (mask, GNN_DTYPE_INT64, error);
      if (m64 == NULL || !index_range (m64, &lo, &hi, error))
        return NULL;
      if (lo < 0 || hi > 1)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Mask tensor can take 0 and 1 values only");
          return NULL;
        }
    }
  return gnn_tensor_ne_scalar (mask, 0, error);
}

/* @tensor_form: @value came as a tensor (MaskedFillBackward1, with an edge to it) */
static GnnTensor *
masked_fill (GnnTensor *self, GnnTensor *mask, GnnTensor *value, gboolean tensor_form, GError **error)
{
  g_autoptr(GnnTensor) m = NULL;
  g_autoptr(GnnTensor) v = NULL;
  GnnTensor *out;
  GnnNode *node;
  GnnTensor *inputs[2] = { self, value };

  if (!gnn_check_same_device ("masked_fill", self, mask, error) || !(m = bool_mask ("masked_fill_", mask, error)))
    return NULL;
  if (gnn_tensor_priv (value)->ndim != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %u dimension(s).",
                   gnn_tensor_priv (value)->ndim);
      return NULL;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) vd = gnn_tensor_to_device_of (value, self, error);
    if (vd == NULL || !(v = gnn_tensor_cast (vd, gnn_tensor_priv (self)->dtype, error)))
      return NULL;
    out = gnn_where (m, v, self, error);
  }
  if (out == NULL)
    return NULL;
  /* a value made from a number needs no gradient: MaskedFillBackward0 has self only */
  node = gnn_autograd_record (tensor_form ? "MaskedFillBackward1" : "MaskedFillBackward0",
                              masked_fill_backward, inputs, tensor_form ? 2 : 1, &out, 1);
  if (node)
    gnn_node_save (node, m);
  return out;
}

/**
 * gnn_tensor_masked_fill:
 * @self: a tensor
 * @mask: a bool mask broadcasting with @self
 * @value: the value written where @mask is true (cast to @self's dtype)
 * @error: return location for a #GError
 *
 * @self with @value where @mask is true (`Tensor.masked_fill (mask, value)`); the result has
 * the broadcast shape of @self and @mask, as PyTorch's. Masks of dtype uint8 or int64 holding
 * only zeros and ones are taken as torch 1.13 takes them.
 *
 * Returns: (transfer full): the filled tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_masked_fill (GnnTensor *self, GnnTensor *mask, double value, GError **error)
{
  g_autoptr(GnnTensor) v = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (mask), NULL);
  if (!(v = scalar_like (self, value, error)))
    return NULL;
  return masked_fill (self, mask, v, FALSE, error);
}

/**
 * gnn_tensor_masked_fill_tensor:
 * @self: a tensor
 * @mask: a bool mask broadcasting with @self
 * @value: a 0-dim tensor whose value is written where @mask is true
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.masked_fill] with the value a 0-dim tensor, which gets the sum of the
 * gradient where @mask is true (`MaskedFillBackward1`).
 *
 * Returns: (transfer full): the filled tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_masked_fill_tensor (GnnTensor *self, GnnTensor *mask, GnnTensor *value, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (mask), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (value), NULL);
  return masked_fill (self, mask, value, TRUE, error);
}

typedef struct {
  gint64 diagonal;
  gboolean upper;
} TriCtx;

static GnnTensor *triangle (GnnTensor *self, gint64 diagonal, gboolean upper, GError **error);

/* tril / triu: the gradient is the same triangle of the output's gradient */
static gboolean
triangle_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  TriCtx *ctx = node->ctx;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = triangle (go[0], ctx->diagonal, ctx->upper, error);
  return gi[0] != NULL;
}

/* tril (upper FALSE) or triu of the last two dims: a where on the mask column - row <= k
 * (>= k for triu), built from two aranges. A kernel row would save the mask's (rows, cols)
 * bools and one pass, but this runs on every backend as it is. */
static GnnTensor *
triangle (GnnTensor *self, gint64 diagonal, gboolean upper, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  const char *device = gnn_tensor_get_device (self);
  gint64 rows, cols, rshape[2], cshape[2];
  g_autoptr(GnnTensor) r = NULL, c = NULL, rr = NULL, cc = NULL, diff = NULL, mask = NULL, zero = NULL;
  GnnTensor *out;
  GnnNode *node;

  if (p->ndim < 2)
    {
      int n = (int) MAX (p->ndim, 1);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "%s: Dimension out of range (expected to be in range of [%d, %d], but got -2)",
                   upper ? "triu" : "tril", -n, n - 1);
      return NULL;
    }
  rows = p->shape[p->ndim - 2];
  cols = p->shape[p->ndim - 1];
  rshape[0] = rows, rshape[1] = 1;
  cshape[0] = 1, cshape[1] = cols;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    if (!(r = gnn_tensor_new_arange (0, rows, 1, GNN_DTYPE_INT64, device, error)) ||
        !(c = gnn_tensor_new_arange (0, cols, 1, GNN_DTYPE_INT64, device, error)) ||
        !(rr = gnn_tensor_reshape (r, rshape, 2, error)) || !(cc = gnn_tensor_reshape (c, cshape, 2, error)) ||
        !(diff = gnn_tensor_sub (cc, rr, 1, error)) ||
        !(mask = upper ? gnn_tensor_ge_scalar (diff, (double) diagonal, error)
                       : gnn_tensor_le_scalar (diff, (double) diagonal, error)) ||
        !(zero = scalar_like (self, 0, error)))
      return NULL;
    out = gnn_where (mask, self, zero, error);
  }
  if (out == NULL)
    return NULL;
  node = gnn_autograd_record (upper ? "TriuBackward0" : "TrilBackward0", triangle_backward, &self, 1, &out, 1);
  if (node)
    {
      TriCtx *ctx = g_new (TriCtx, 1);
      ctx->diagonal = diagonal;
      ctx->upper = upper;
      gnn_node_set_ctx (node, ctx, g_free);
    }
  return out;
}

/**
 * gnn_tensor_tril:
 * @self: a tensor of at least two dimensions (a batch of matrices over the last two)
 * @diagonal: the last diagonal kept: 0 the main one, above it when positive, below when negative
 * @error: return location for a #GError
 *
 * The lower triangle of each matrix, the rest zero (`torch.tril`).
 *
 * Returns: (transfer full): the lower triangles, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tril (GnnTensor *self, gint64 diagonal, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return triangle (self, diagonal, FALSE, error);
}

/**
 * gnn_tensor_triu:
 * @self: a tensor of at least two dimensions (a batch of matrices over the last two)
 * @diagonal: the first diagonal kept: 0 the main one, above it when positive, below when negative
 * @error: return location for a #GError
 *
 * The upper triangle of each matrix, the rest zero (`torch.triu`).
 *
 * Returns: (transfer full): the upper triangles, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_triu (GnnTensor *self, gint64 diagonal, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return triangle (self, diagonal, TRUE, error);
}
