/* gnn-ops-compose.c: torch functions composed of other ops (stacking, splitting, grids,
 * broadcasting); their gradients come from the ops they are written with
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "ops/gnn-ops-private.h"
#include "core/gnn-error.h"

static GPtrArray *
tensor_array (void)
{
  return g_ptr_array_new_with_free_func (g_object_unref);
}

static gboolean
check_non_empty (const char *op, guint n, GError **error)
{
  if (n == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s expects a non-empty TensorList", op);
      return FALSE;
    }
  return TRUE;
}

/* @self viewed with @ndim dims: the sizes of @shape, @self's size where @shape holds -1 */
static GnnTensor *
reshaped (GnnTensor *self, const gint64 *shape, guint ndim, GError **error)
{
  return gnn_tensor_reshape (self, shape, ndim, error);
}

/**
 * gnn_tensor_atleast_1d:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * @self with at least one dimension (`torch.atleast_1d`): a 0-d tensor becomes a view of
 * shape `[1]`; any other tensor is returned itself.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atleast_1d (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_get_ndim (self) == 0)
    return reshaped (self, (const gint64[]) { 1 }, 1, error);
  return g_object_ref (self);
}

/**
 * gnn_tensor_atleast_2d:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * @self with at least two dimensions (`torch.atleast_2d`): a 0-d tensor becomes `[1, 1]`, a
 * 1-d tensor of size n the view `[1, n]`; any other tensor is returned itself.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atleast_2d (GnnTensor *self, GError **error)
{
  guint nd;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  nd = gnn_tensor_get_ndim (self);
  if (nd == 0)
    return reshaped (self, (const gint64[]) { 1, 1 }, 2, error);
  if (nd == 1)
    return gnn_tensor_unsqueeze (self, 0, error);
  return g_object_ref (self);
}

/**
 * gnn_tensor_atleast_3d:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * @self with at least three dimensions (`torch.atleast_3d`): a 0-d tensor becomes
 * `[1, 1, 1]`, a 1-d tensor of size n the view `[1, n, 1]`, a 2-d tensor `[m, n]` the view
 * `[m, n, 1]`; any other tensor is returned itself.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atleast_3d (GnnTensor *self, GError **error)
{
  guint nd;
  const gint64 *s;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  nd = gnn_tensor_get_ndim (self);
  s = gnn_tensor_get_shape (self, NULL);
  if (nd == 0)
    return reshaped (self, (const gint64[]) { 1, 1, 1 }, 3, error);
  if (nd == 1)
    return reshaped (self, (const gint64[]) { 1, s[0], 1 }, 3, error);
  if (nd == 2)
    return gnn_tensor_unsqueeze (self, 2, error);
  return g_object_ref (self);
}

typedef GnnTensor *(*AtLeast) (GnnTensor *self, GError **error);

/* each tensor through @fn, then joined along @dim (-1: 0 when the first is 1-d, else 1) */
static GnnTensor *
stack_as (const char *op, AtLeast fn, GnnTensor **tensors, guint n, int dim, GError **error)
{
  g_autoptr(GPtrArray) parts = tensor_array ();

  g_return_val_if_fail (tensors != NULL || n == 0, NULL);
  if (!check_non_empty (op, n, error))
    return NULL;
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *t;
      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      if (!(t = fn (tensors[i], error)))
        return NULL;
      g_ptr_array_add (parts, t);
    }
  if (dim < 0)
    dim = gnn_tensor_get_ndim (g_ptr_array_index (parts, 0)) == 1 ? 0 : 1;
  return gnn_cat ((GnnTensor **) parts->pdata, parts->len, dim, error);
}

/**
 * gnn_hstack:
 * @tensors: (array length=n_tensors): the tensors, at least one
 * @n_tensors: the number of tensors
 * @error: return location for a #GError
 *
 * The tensors joined column-wise (`torch.hstack`): 0-d tensors become 1-d, then 1-d
 * tensors are concatenated along dimension 0 and others along dimension 1.
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_hstack (GnnTensor **tensors, guint n_tensors, GError **error)
{
  return stack_as ("hstack", gnn_tensor_atleast_1d, tensors, n_tensors, -1, error);
}

/**
 * gnn_vstack:
 * @tensors: (array length=n_tensors): the tensors, at least one
 * @n_tensors: the number of tensors
 * @error: return location for a #GError
 *
 * The tensors joined row-wise (`torch.vstack`, also `torch.row_stack`): each made at least
 * 2-d as gnn_tensor_atleast_2d() does, then concatenated along dimension 0.
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vstack (GnnTensor **tensors, guint n_tensors, GError **error)
{
  return stack_as ("vstack", gnn_tensor_atleast_2d, tensors, n_tensors, 0, error);
}

/**
 * gnn_dstack:
 * @tensors: (array length=n_tensors): the tensors, at least one
 * @n_tensors: the number of tensors
 * @error: return location for a #GError
 *
 * The tensors joined depth-wise (`torch.dstack`): each made at least 3-d as
 * gnn_tensor_atleast_3d() does, then concatenated along dimension 2.
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_dstack (GnnTensor **tensors, guint n_tensors, GError **error)
{
  return stack_as ("dstack", gnn_tensor_atleast_3d, tensors, n_tensors, 2, error);
}

static GnnTensor *
as_column (GnnTensor *self, GError **error)
{
  if (gnn_tensor_get_ndim (self) <= 1)
    return reshaped (self, (const gint64[]) { gnn_tensor_get_numel (self), 1 }, 2, error);
  return g_object_ref (self);
}

/**
 * gnn_column_stack:
 * @tensors: (array length=n_tensors): the tensors, at least one
 * @n_tensors: the number of tensors
 * @error: return location for a #GError
 *
 * The tensors side by side as columns (`torch.column_stack`): 0-d and 1-d tensors of n
 * elements become columns `[n, 1]`, then all are concatenated along dimension 1.
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_column_stack (GnnTensor **tensors, guint n_tensors, GError **error)
{
  return stack_as ("column_stack", as_column, tensors, n_tensors, 1, error);
}

/* hsplit (min_dims 1), vsplit (2) and dsplit (3): the dim split, or -1 with @error set */
static int
split_dim (const char *op, GnnTensor *self, guint min_dims, int dim, GError **error)
{
  guint nd = gnn_tensor_get_ndim (self);

  if (nd < min_dims)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "torch.%s requires a tensor with at least %u dimension, but got a tensor with %u dimensions!",
                   op, min_dims, nd);
      return -1;
    }
  return (min_dims == 1 && nd == 1) ? 0 : dim;
}

static GPtrArray *
split_sections (const char *op, GnnTensor *self, guint min_dims, int dim, gint64 sections, GError **error)
{
  gint64 size;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if ((dim = split_dim (op, self, min_dims, dim, error)) < 0)
    return NULL;
  size = gnn_tensor_get_shape (self, NULL)[dim];
  if (sections <= 0 || size % sections != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.%s attempted to split along dimension %d, but the size of the dimension %"
                   G_GINT64_FORMAT " is not divisible by the split_size %" G_GINT64_FORMAT "!",
                   op, dim, size, sections);
      return NULL;
    }
  return gnn_tensor_tensor_split (self, sections, dim, error);
}

static GPtrArray *
split_indices (const char *op, GnnTensor *self, guint min_dims, int dim, const gint64 *indices,
               guint n_indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if ((dim = split_dim (op, self, min_dims, dim, error)) < 0)
    return NULL;
  return gnn_tensor_tensor_split_indices (self, indices, n_indices, dim, error);
}

/**
 * gnn_tensor_hsplit:
 * @self: a tensor of at least one dimension
 * @sections: the number of equal pieces; it must divide the size of the dimension split
 * @error: return location for a #GError
 *
 * Views of @self split column-wise into @sections equal pieces (`torch.hsplit (input,
 * sections)`): along dimension 1, or 0 for a 1-d tensor.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_hsplit (GnnTensor *self, gint64 sections, GError **error)
{
  return split_sections ("hsplit", self, 1, 1, sections, error);
}

/**
 * gnn_tensor_hsplit_indices:
 * @self: a tensor of at least one dimension
 * @indices: (array length=n_indices): where pieces start, as in gnn_tensor_tensor_split_indices()
 * @n_indices: the number of indices
 * @error: return location for a #GError
 *
 * Views of @self cut column-wise before each index (`torch.hsplit (input, indices)`): along
 * dimension 1, or 0 for a 1-d tensor.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_hsplit_indices (GnnTensor *self, const gint64 *indices, guint n_indices, GError **error)
{
  return split_indices ("hsplit", self, 1, 1, indices, n_indices, error);
}

/**
 * gnn_tensor_vsplit:
 * @self: a tensor of at least two dimensions
 * @sections: the number of equal pieces; it must divide the size of dimension 0
 * @error: return location for a #GError
 *
 * Views of @self split row-wise (along dimension 0) into @sections equal pieces
 * (`torch.vsplit (input, sections)`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_vsplit (GnnTensor *self, gint64 sections, GError **error)
{
  return split_sections ("vsplit", self, 2, 0, sections, error);
}

/**
 * gnn_tensor_vsplit_indices:
 * @self: a tensor of at least two dimensions
 * @indices: (array length=n_indices): where pieces start, as in gnn_tensor_tensor_split_indices()
 * @n_indices: the number of indices
 * @error: return location for a #GError
 *
 * Views of @self cut row-wise (along dimension 0) before each index (`torch.vsplit (input,
 * indices)`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_vsplit_indices (GnnTensor *self, const gint64 *indices, guint n_indices, GError **error)
{
  return split_indices ("vsplit", self, 2, 0, indices, n_indices, error);
}

/**
 * gnn_tensor_dsplit:
 * @self: a tensor of at least three dimensions
 * @sections: the number of equal pieces; it must divide the size of dimension 2
 * @error: return location for a #GError
 *
 * Views of @self split depth-wise (along dimension 2) into @sections equal pieces
 * (`torch.dsplit (input, sections)`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_dsplit (GnnTensor *self, gint64 sections, GError **error)
{
  return split_sections ("dsplit", self, 3, 2, sections, error);
}

/**
 * gnn_tensor_dsplit_indices:
 * @self: a tensor of at least three dimensions
 * @indices: (array length=n_indices): where pieces start, as in gnn_tensor_tensor_split_indices()
 * @n_indices: the number of indices
 * @error: return location for a #GError
 *
 * Views of @self cut depth-wise (along dimension 2) before each index (`torch.dsplit (input,
 * indices)`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the pieces, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_dsplit_indices (GnnTensor *self, const gint64 *indices, guint n_indices, GError **error)
{
  return split_indices ("dsplit", self, 3, 2, indices, n_indices, error);
}

/**
 * gnn_meshgrid:
 * @tensors: (array length=n_tensors): 0-d or 1-d tensors of one dtype and device, at least one
 * @n_tensors: the number of tensors
 * @indexing: (nullable): "ij" (matrix indexing, %NULL gives it) or "xy" (Cartesian: the
 *   sizes of the first two tensors swapped in the grids' shape)
 * @error: return location for a #GError
 *
 * Coordinate grids (`torch.meshgrid (*tensors, indexing=)`): with "ij", grid i has the shape
 * of all the sizes in order and holds @tensors[i] along dimension i. Each grid is an
 * expanded view of its tensor.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the grids, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_meshgrid (GnnTensor **tensors, guint n_tensors, const char *indexing, GError **error)
{
  gboolean xy;
  g_autofree gint64 *shape = NULL;
  g_autofree GnnTensor **order = NULL;
  g_autoptr(GPtrArray) out = tensor_array ();

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  if (indexing == NULL)
    indexing = "ij";
  if (strcmp (indexing, "ij") != 0 && strcmp (indexing, "xy") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s", indexing);
      return NULL;
    }
  if (!check_non_empty ("meshgrid", n_tensors, error))
    return NULL;
  xy = strcmp (indexing, "xy") == 0 && n_tensors >= 2;
  order = g_new (GnnTensor *, n_tensors);
  shape = g_new (gint64, n_tensors);
  for (guint i = 0; i < n_tensors; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      if (gnn_tensor_get_ndim (tensors[i]) > 1)
        {
          g_autofree char *s = gnn_shape_to_string (gnn_tensor_get_ndim (tensors[i]),
                                                    gnn_tensor_get_shape (tensors[i], NULL));
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of shape %s",
                       s);
          return NULL;
        }
      if (gnn_tensor_get_dtype (tensors[i]) != gnn_tensor_get_dtype (tensors[0]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "meshgrid expects all tensors to have the same dtype, got %s and %s",
                       gnn_dtype_get_name (gnn_tensor_get_dtype (tensors[0])),
                       gnn_dtype_get_name (gnn_tensor_get_dtype (tensors[i])));
          return NULL;
        }
      if (!gnn_check_same_device ("meshgrid", tensors[0], tensors[i], error))
        return NULL;
    }
  /* "xy" is "ij" of the first two tensors swapped, its first two grids swapped back */
  for (guint i = 0; i < n_tensors; i++)
    order[i] = tensors[i];
  if (xy)
    {
      order[0] = tensors[1];
      order[1] = tensors[0];
    }
  for (guint i = 0; i < n_tensors; i++)
    shape[i] = gnn_tensor_get_numel (order[i]);
  for (guint i = 0; i < n_tensors; i++)
    {
      g_autofree gint64 *vs = g_new (gint64, n_tensors);
      g_autoptr(GnnTensor) v = NULL, e = NULL;
      for (guint j = 0; j < n_tensors; j++)
        vs[j] = j == i ? shape[i] : 1;
      if (!(v = gnn_tensor_reshape (order[i], vs, n_tensors, error)) ||
          !(e = gnn_tensor_expand (v, shape, n_tensors, error)))
        return NULL;
      g_ptr_array_add (out, g_steal_pointer (&e));
    }
  if (xy)
    {
      /* grid k of the answer is the grid of tensors[k], which sits at order's place */
      gpointer first = out->pdata[0];
      out->pdata[0] = out->pdata[1];
      out->pdata[1] = first;
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_broadcast_to:
 * @self: a tensor
 * @shape: (array length=ndim): the shape to broadcast to; -1 keeps a size
 * @ndim: the number of dimensions of @shape, at least @self's
 * @error: return location for a #GError
 *
 * @self broadcast to @shape (`torch.broadcast_to`), an expanded view as
 * gnn_tensor_expand() gives.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_broadcast_to (GnnTensor *self, const gint64 *shape, guint ndim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  return gnn_tensor_expand (self, shape, ndim, error);
}

/**
 * gnn_broadcast_tensors:
 * @tensors: (array length=n_tensors): the tensors
 * @n_tensors: the number of tensors
 * @error: return location for a #GError
 *
 * The tensors expanded to their common broadcast shape (`torch.broadcast_tensors`), each an
 * expanded view.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the views, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_broadcast_tensors (GnnTensor **tensors, guint n_tensors, GError **error)
{
  guint nd = 0;
  gint64 shape[GNN_MAX_DIMS];
  g_autoptr(GPtrArray) out = tensor_array ();

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  for (guint i = 0; i < n_tensors; i++)
    {
      guint n_out;
      gint64 next[GNN_MAX_DIMS];
      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      if (!gnn_broadcast_shapes ("broadcast_tensors", nd, shape, gnn_tensor_get_ndim (tensors[i]),
                                 gnn_tensor_get_shape (tensors[i], NULL), &n_out, next, error))
        return NULL;
      nd = n_out;
      memcpy (shape, next, nd * sizeof (gint64));
    }
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensor *e = gnn_tensor_expand (tensors[i], shape, nd, error);
      if (e == NULL)
        return NULL;
      g_ptr_array_add (out, e);
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_unflatten:
 * @self: a tensor of at least one dimension
 * @dim: the dimension to unflatten (negative counts from the end)
 * @sizes: (array length=n_sizes): the sizes that replace it, their product its size; one may
 *   be -1 (inferred)
 * @n_sizes: the number of sizes, at least 1
 * @error: return location for a #GError
 *
 * A view of @self with dimension @dim expanded into @sizes (`torch.unflatten`,
 * `Tensor.unflatten`).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unflatten (GnnTensor *self, int dim, const gint64 *sizes, guint n_sizes, GError **error)
{
  guint d, nd, infer = G_MAXUINT;
  const gint64 *s;
  gint64 prod = 1;
  g_autofree gint64 *shape = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  nd = gnn_tensor_get_ndim (self);
  s = gnn_tensor_get_shape (self, NULL);
  if (nd == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "unflatten: Dimension specified as 0 but tensor has no dimensions");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, nd, &d, error))
    return NULL;
  if (n_sizes == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "unflatten: sizes must be non-empty");
      return NULL;
    }
  if (nd - 1 + n_sizes > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "unflatten: the result would have %u dims, more than %d",
                   nd - 1 + n_sizes, GNN_MAX_DIMS);
      return NULL;
    }
  for (guint i = 0; i < n_sizes; i++)
    {
      if (sizes[i] == -1)
        {
          if (infer != G_MAXUINT)
            {
              g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                   "unflatten: only one dimension can be inferred");
              return NULL;
            }
          infer = i;
        }
      else if (sizes[i] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "unflatten: invalid size %" G_GINT64_FORMAT " (sizes are non-negative or -1)", sizes[i]);
          return NULL;
        }
      else if (__builtin_mul_overflow (prod, sizes[i], &prod))
        {
          g_autofree char *given = gnn_shape_to_string (n_sizes, sizes);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "unflatten: Provided sizes %s don't multiply up to the size of dim %u (%" G_GINT64_FORMAT
                       ") in the input tensor: their product overflows int64", given, d, s[d]);
          return NULL;
        }
    }
  shape = g_new (gint64, nd - 1 + n_sizes);
  for (guint i = 0; i < d; i++)
    shape[i] = s[i];
  for (guint i = 0; i < n_sizes; i++)
    shape[d + i] = sizes[i];
  for (guint i = d + 1; i < nd; i++)
    shape[i - 1 + n_sizes] = s[i];
  if (infer != G_MAXUINT && prod != 0 && s[d] % prod == 0)
    shape[d + infer] = s[d] / prod;
  else if (infer != G_MAXUINT || prod != s[d])
    {
      g_autofree char *given = gnn_shape_to_string (n_sizes, sizes);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "unflatten: Provided sizes %s don't multiply up to the size of dim %u (%" G_GINT64_FORMAT
                   ") in the input tensor", given, d, s[d]);
      return NULL;
    }
  return gnn_tensor_view (self, shape, nd - 1 + n_sizes, error);
}

/**
 * gnn_cartesian_prod:
 * @tensors: (array length=n_tensors): vectors, all of one dtype
 * @n_tensors: the number of vectors, at least 1
 * @error: return location for a #GError
 *
 * The Cartesian product of @tensors (`torch.cartesian_prod`, Python's itertools.product): one
 * row per combination, the first vector's entries varying slowest; of one vector, that
 * vector itself.
 *
 * Returns: (transfer full): the combinations, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_cartesian_prod (GnnTensor **tensors, guint n_tensors, GError **error)
{
  g_autoptr(GPtrArray) grids = NULL;
  g_autoptr(GPtrArray) flat = tensor_array ();

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  if (!check_non_empty ("cartesian_prod", n_tensors, error))
    return NULL;
  for (guint k = 0; k < n_tensors; k++)
    {
      GnnTensorPrivate *p;

      g_return_val_if_fail (GNN_IS_TENSOR (tensors[k]), NULL);
      p = gnn_tensor_priv (tensors[k]);
      if (p->ndim != 1)
        {
          g_autofree char *shape = gnn_shape_to_string (p->ndim, p->shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "Expect a 1D vector, but got shape %s", shape);
          return NULL;
        }
    }
  if (n_tensors == 1)
    return g_object_ref (tensors[0]);
  if (!(grids = gnn_meshgrid (tensors, n_tensors, "ij", error)))
    return NULL;
  for (guint k = 0; k < grids->len; k++)
    {
      GnnTensor *f = gnn_tensor_flatten (g_ptr_array_index (grids, k), 0, -1, error);

      if (f == NULL)
        return NULL;
      g_ptr_array_add (flat, f);
    }
  return gnn_stack ((GnnTensor **) flat->pdata, flat->len, 1, error);
}
