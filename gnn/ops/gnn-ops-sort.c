/* gnn-ops-sort.c: sort, argsort and topk along one dimension
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One kernel row, SORT: a stable sort of [outer, r, inner] along r giving the values and their
 * int64 positions. topk keeps the first k of a sort. The gradient of every op here adds the
 * output's gradient back at the positions its values came from (the SCATTER_ADD kernel, as
 * max over a dim does), so it runs on every backend.
 */
#include "config.h"

#include "gnn-ops-private.h"

/* @self sorted along @dim on the backend that owns it: the values (of @self's compute dtype)
 * and their positions, new contiguous tensors; no autograd */
static gboolean
sort_run (GnnTensor *self, guint dim, gboolean descending, GnnTensor **values, GnnTensor **indices, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnDtype compute = gnn_compute_dtype (p->dtype);
  g_autoptr(GnnTensor) in = NULL, out = NULL, idx = NULL;
  gint64 outer, r, inner;
  GnnKernelTensor kin, kout, kidx;
  GnnKernelArgs args = { 0 };

  gnn_layout_around (p->ndim, p->shape, dim, &outer, &r, &inner);
  if (!(in = gnn_tensor_contiguous_as (self, compute, error)) ||
      !(out = gnn_tensor_new_like (self, compute, p->ndim, p->shape, error)) ||
      !(idx = gnn_tensor_new_like (self, GNN_DTYPE_INT64, p->ndim, p->shape, error)))
    return FALSE;
  if (outer * r * inner > 0)
    {
      gnn_kernel_tensor_3d (in, outer, r, inner, &kin);
      gnn_kernel_tensor_3d (out, outer, r, inner, &kout);
      gnn_kernel_tensor_3d (idx, outer, r, inner, &kidx);
      args.op = GNN_BACKEND_OP_SORT;
      args.in[0] = &kin;
      args.n_in = 1;
      args.out = &kout;
      args.out2 = &kidx;
      args.params.reduce = (GnnKernelReduce) { outer, r, inner, 0, descending };
      if (!gnn_run_kernel (out, &args, error))
        return FALSE;
    }
  *values = g_steal_pointer (&out);
  *indices = g_steal_pointer (&idx);
  return TRUE;
}

/* sort_run, through the CPU backend (a copy to the host and back) when the backend of @self
 * declares that it has no sort kernel; @values in @self's dtype */
static gboolean
sort_kernel (GnnTensor *self, guint dim, gboolean descending, GnnTensor **values, GnnTensor **indices,
             GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  const char *device = gnn_tensor_get_device (self);
  g_autoptr(GnnTensor) host = NULL, v = NULL, i = NULL;
  gboolean prev, ok;

  prev = gnn_set_grad_enabled (FALSE);
  if (gnn_backend_supports_op (p->storage->entry->backend, GNN_BACKEND_OP_SORT, gnn_compute_dtype (p->dtype)) ||
      g_str_equal (device, "cpu"))
    ok = sort_run (self, dim, descending, &v, &i, error) &&
         (*values = gnn_tensor_cast (v, p->dtype, error)) != NULL &&
         (*indices = g_steal_pointer (&i)) != NULL;
  else
    {
      g_autoptr(GnnTensor) vd = NULL;
      ok = (host = gnn_tensor_to_device (self, "cpu", error)) != NULL &&
           sort_run (host, dim, descending, &v, &i, error) &&
           (vd = gnn_tensor_to_device (v, device, error)) != NULL &&
           (*values = gnn_tensor_cast (vd, p->dtype, error)) != NULL &&
           (*indices = gnn_tensor_to_device (i, device, error)) != NULL;
    }
  gnn_set_grad_enabled (prev);
  return ok;
}

/* the gradient added back at the saved positions along the dim in the node's ctx */
static gboolean
picked_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  return gnn_index_add_backward (node, GNN_BACKEND_OP_SCATTER_ADD, GPOINTER_TO_UINT (node->ctx), go, gi, error);
}

/* records @values, picked from @self along @dim at @indices, with the node @grad_name */
static void
record_picked (const char *grad_name, GnnTensor *self, guint dim, GnnTensor *values, GnnTensor *indices)
{
  GnnNode *node = gnn_autograd_record (grad_name, picked_backward, &self, 1, &values, 1);

  if (node)
    {
      gnn_node_save (node, indices);
      gnn_node_set_ctx (node, GUINT_TO_POINTER (dim), NULL);
    }
}

/* the first @k of @self sorted along @dim (all of them when @k < 0), values and positions */
static GnnTensor *
sorted_prefix (const char *op, const char *grad_name, GnnTensor *self, int dim, gboolean descending, gint64 k,
               GnnTensor **indices, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) v = NULL, i = NULL;
  GnnTensor *values;
  guint d;

  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    {
      g_prefix_error (error, "%s: ", op);
      return NULL;
    }
  if (k > (p->ndim == 0 ? 1 : p->shape[d]))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: selected index k out of range: k is %" G_GINT64_FORMAT " but dim %u has size %" G_GINT64_FORMAT,
                   op, k, d, p->ndim == 0 ? 1 : p->shape[d]);
      return NULL;
    }
  if (!sort_kernel (self, d, descending, &v, &i, error))
    return NULL;
  if (k >= 0 && p->ndim > 0 && k < p->shape[d])
    {
      gboolean prev = gnn_set_grad_enabled (FALSE);
      g_autoptr(GnnTensor) vn = gnn_tensor_narrow (v, (int) d, 0, k, error);
      g_autoptr(GnnTensor) in_ = vn ? gnn_tensor_narrow (i, (int) d, 0, k, error) : NULL;

      g_clear_object (&v);
      g_clear_object (&i);
      v = in_ ? gnn_tensor_contiguous (vn, error) : NULL;
      i = v ? gnn_tensor_contiguous (in_, error) : NULL;
      gnn_set_grad_enabled (prev);
      if (i == NULL)
        return NULL;
    }
  values = g_steal_pointer (&v);
  record_picked (grad_name, self, d, values, i);
  if (indices)
    *indices = g_steal_pointer (&i);
  return values;
}

/**
 * gnn_tensor_sort:
 * @self: a tensor
 * @dim: the dimension to sort along, negative from the end
 * @descending: whether the largest value comes first
 * @stable: whether equal values must keep their order; gnn's sort always does, so this
 *   only says what the caller relies on (`torch.sort`'s `stable=`)
 * @indices: (out) (transfer full) (optional): return location for the int64 positions along
 *   @dim in @self of the sorted values
 * @error: return location for a #GError
 *
 * @self sorted along @dim (`torch.sort (self, dim, descending, stable=stable)`): NaN sorts as
 * the largest value (last ascending, first descending), and equal values keep the order they
 * have in @self, in every dtype. The gradient goes back to the position each value came from.
 *
 * Returns: (transfer full): the sorted values, shaped as @self and of its dtype, or %NULL
 *   with @error set (%GNN_ERROR_INDEX when @dim is out of range)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sort (GnnTensor *self, int dim, gboolean descending, gboolean stable, GnnTensor **indices,
                 GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return sorted_prefix ("sort", "SortBackward0", self, dim, descending, -1, indices, error);
}

/**
 * gnn_tensor_argsort:
 * @self: a tensor
 * @dim: the dimension to sort along, negative from the end
 * @descending: whether the position of the largest value comes first
 * @stable: as for [method@Gnn.Tensor.sort] (the sort is always stable)
 * @error: return location for a #GError
 *
 * The int64 positions that sort @self along @dim (`torch.argsort`), the indices of
 * [method@Gnn.Tensor.sort]. They carry no gradient.
 *
 * Returns: (transfer full): the positions, shaped as @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_argsort (GnnTensor *self, int dim, gboolean descending, gboolean stable, GError **error)
{
  GnnTensor *indices = NULL;
  gboolean prev;
  g_autoptr(GnnTensor) values = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  prev = gnn_set_grad_enabled (FALSE);
  values = gnn_tensor_sort (self, dim, descending, stable, &indices, error);
  gnn_set_grad_enabled (prev);
  return values ? indices : NULL;
}

/**
 * gnn_tensor_topk:
 * @self: a tensor
 * @k: how many values to keep, 0 to the size of @dim
 * @dim: the dimension to select along, negative from the end
 * @largest: whether to keep the largest values (else the smallest)
 * @sorted: whether the values must come in sorted order; gnn's always do
 * @indices: (out) (transfer full) (optional): return location for their int64 positions
 * @error: return location for a #GError
 *
 * The @k largest (or smallest) values of @self along @dim, in sorted order, and their
 * positions (`torch.topk (self, k, dim, largest, sorted)`); NaN counts as the largest value.
 * Of equal values the first in @self comes first.
 *
 * Returns: (transfer full): the values, @self's shape with @k along @dim, or %NULL with
 *   @error set (%GNN_ERROR_SHAPE when @k is negative or above the size of @dim,
 *   %GNN_ERROR_INDEX when @dim is out of range)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_topk (GnnTensor *self, gint64 k, int dim, gboolean largest, gboolean sorted, GnnTensor **indices,
                 GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (k < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "topk: selected index k out of range: k is %" G_GINT64_FORMAT,
                   k);
      return NULL;
    }
  return sorted_prefix ("topk", "TopkBackward0", self, dim, largest, k, indices, error);
}
