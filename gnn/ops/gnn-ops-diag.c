/* gnn-ops-diag.c: matrices made of and reduced to their diagonals (diag, diag_embed, diagflat,
 * trace, block_diag), quarter turns (rot90), finite differences (diff) and the index pairs of
 * a triangle (tril_indices, triu_indices), as torch 1.13
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * diag, diag_embed, trace, rot90 and block_diag have nodes of their own, named as PyTorch's
 * (DiagBackward0, DiagEmbedBackward0, TraceBackward0, Rot90Backward0, BlockDiagBackward0): each computes its value
 * with other ops under no-grad and writes its gradient with ops, so that it runs on every
 * backend and is differentiable again. diff is composed of narrow and sub, as PyTorch's.
 */
#include "config.h"

#include "ops/gnn-ops-private.h"
#include "autograd/graph/gnn-grad-mode.h"
#include "core/gnn-error.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  gint64 offset;
  int dim1, dim2;
} DiagCtx;

/* zeros of @like's device and dtype, of the shape @ndim, @shape, with @src copied into their
 * diagonal (@offset, @dim1, @dim2); no node */
static GnnTensor *
zeros_with_diagonal (GnnTensor    *like,
                     guint         ndim,
                     const gint64 *shape,
                     GnnTensor    *src,
                     gint64        offset,
                     int           dim1,
                     int           dim2,
                     GError      **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) z = gnn_tensor_new_zeros_like (like, gnn_tensor_priv (src)->dtype, ndim, shape, error);
  g_autoptr(GnnTensor) part = NULL;

  if (z == NULL || !(part = gnn_tensor_diagonal (z, offset, dim1, dim2, error)) || !gnn_tensor_copy_ (part, src, error))
    return NULL;
  return g_steal_pointer (&z);
}

/* the copy of the diagonal (@offset, @dim1, @dim2) of @self, contiguous; no node */
static GnnTensor *
diagonal_copy (GnnTensor *self, gint64 offset, int dim1, int dim2, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) d = gnn_tensor_diagonal (self, offset, dim1, dim2, error);

  return d ? gnn_tensor_clone (d, error) : NULL;
}

/* diag_embed: the gradient is the output's diagonal */
static gboolean
diag_embed_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const DiagCtx *ctx = node->ctx;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = gnn_tensor_diagonal (go[0], ctx->offset, ctx->dim1, ctx->dim2, error);
  return gi[0] != NULL;
}

static void
record_diag (const char *name, GnnBackwardFunc backward, GnnTensor *self, GnnTensor *out, gint64 offset, int dim1,
             int dim2)
{
  GnnNode *node = gnn_autograd_record (name, backward, &self, 1, &out, 1);

  if (node)
    {
      DiagCtx *ctx = g_new (DiagCtx, 1);

      ctx->offset = offset;
      ctx->dim1 = dim1;
      ctx->dim2 = dim2;
      gnn_node_set_ctx (node, ctx, g_free);
    }
}

/**
 * gnn_tensor_diag_embed:
 * @self: a tensor of at least one dimension, whose last holds the diagonals
 * @offset: which diagonal: 0 the main one, above it when positive, below when negative
 * @dim1: the first dimension of the matrices in the result (-2 in PyTorch's default)
 * @dim2: the second dimension of the matrices in the result (-1 in PyTorch's default)
 * @error: return location for a #GError
 *
 * Matrices whose diagonal @offset over @dim1 and @dim2 is @self's last dimension, zeros
 * elsewhere (`torch.diag_embed`): the result has one dimension more than @self, those two of
 * size n + |@offset|. Its gradient is the diagonal of the output's.
 *
 * Returns: (transfer full): the matrices, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diag_embed (GnnTensor *self, gint64 offset, int dim1, int dim2, GError **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], n;
  guint a, b, ndim, k = 0;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0 || p->ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "diag_embed: expected a tensor of 1 to %d dimensions, got %u", GNN_MAX_DIMS - 1, p->ndim);
      return NULL;
    }
  ndim = p->ndim + 1;
  if (!gnn_normalize_dim (dim1, ndim, &a, error) || !gnn_normalize_dim (dim2, ndim, &b, error))
    return NULL;
  if (a == b)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "diagonal dimensions cannot be identical %d, %d", dim1, dim2);
      return NULL;
    }
  n = p->shape[p->ndim - 1] + (offset < 0 ? -offset : offset);
  for (guint i = 0; i < ndim; i++)
    shape[i] = i == a || i == b ? n : p->shape[k++];
  if (!(out = zeros_with_diagonal (self, ndim, shape, self, offset, (int) a, (int) b, error)))
    return NULL;
  record_diag ("DiagEmbedBackward0", diag_embed_backward, self, out, offset, (int) a, (int) b);
  return out;
}

/* @v on the diagonal @offset of a @rows × @cols matrix of zeros, with ops (differentiable
 * again): diag_embed's square, padded or cropped to the matrix (the rows and columns it adds or
 * removes hold zeros only) */
static GnnTensor *
on_diagonal (GnnTensor *v, gint64 offset, gint64 rows, gint64 cols, GError **error)
{
  g_autoptr(GnnTensor) square = gnn_tensor_diag_embed (v, offset, 0, 1, error);
  gint64 s, pad[4];

  if (square == NULL)
    return NULL;
  s = gnn_tensor_priv (square)->shape[0];
  pad[0] = 0;
  pad[1] = cols - s;
  pad[2] = 0;
  pad[3] = rows - s;
  return gnn_tensor_pad (square, pad, 4, "constant", 0.0, error);
}

/* diag: a vector's gradient is the output's diagonal, a matrix's the output on its diagonal */
static gboolean
diag_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const DiagCtx *ctx = node->ctx;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (node->in_ndim[0] == 1)
    gi[0] = gnn_tensor_diagonal (go[0], ctx->offset, 0, 1, error);
  else
    gi[0] = on_diagonal (go[0], ctx->offset, node->in_shape[0][0], node->in_shape[0][1], error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_diag:
 * @self: a vector or a matrix
 * @diagonal: which diagonal: 0 the main one, above it when positive, below when negative
 * @error: return location for a #GError
 *
 * `torch.diag`: of a vector, the square matrix with @self on its diagonal @diagonal and zeros
 * elsewhere; of a matrix, a copy of its diagonal @diagonal (empty when it lies outside).
 *
 * Returns: (transfer full): the matrix or the vector, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diag (GnnTensor *self, gint64 diagonal, GError **error)
{
  GnnTensorPrivate *p;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 1)
    {
      gint64 n = p->shape[0] + (diagonal < 0 ? -diagonal : diagonal), shape[2] = { n, n };
      out = zeros_with_diagonal (self, 2, shape, self, diagonal, 0, 1, error);
    }
  else if (p->ndim == 2)
    out = diagonal_copy (self, diagonal, 0, 1, error);
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "diag: matrix or a vector expected; got a tensor of %u dimensions", p->ndim);
      return NULL;
    }
  if (out)
    record_diag ("DiagBackward0", diag_backward, self, out, diagonal, 0, 1);
  return out;
}

/**
 * gnn_tensor_diagflat:
 * @self: a tensor
 * @offset: which diagonal: 0 the main one, above it when positive, below when negative
 * @error: return location for a #GError
 *
 * The square matrix with @self flattened on its diagonal @offset and zeros elsewhere
 * (`torch.diagflat`): [method@Gnn.Tensor.diag] of the flattened tensor.
 *
 * Returns: (transfer full): the matrix, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diagflat (GnnTensor *self, gint64 offset, GError **error)
{
  g_autoptr(GnnTensor) flat = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!(flat = gnn_tensor_flatten (self, 0, -1, error)))
    return NULL;
  return gnn_tensor_diag (flat, offset, error);
}

/* trace: the output's gradient on the input's diagonal, zeros elsewhere */
static gboolean
trace_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const gint64 *shape = node->in_shape[0];
  gint64 n = MIN (shape[0], shape[1]);
  g_autoptr(GnnTensor) along = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(along = gnn_tensor_expand (go[0], &n, 1, error)))
    return FALSE;
  gi[0] = on_diagonal (along, 0, shape[0], shape[1], error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_trace:
 * @self: a matrix
 * @error: return location for a #GError
 *
 * The sum of @self's main diagonal (`torch.trace`), a 0-d tensor; integer matrices give an
 * int64 sum, as [method@Gnn.Tensor.sum] does. Bool matrices are refused, as in PyTorch.
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_trace (GnnTensor *self, GError **error)
{
  GnnTensorPrivate *p;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "trace: expected a matrix, but got tensor with dim %u", p->ndim);
      return NULL;
    }
  if (p->dtype == GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE, "trace: not implemented for 'Bool'");
      return NULL;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) d = gnn_tensor_diagonal (self, 0, 0, 1, error);

    if (d == NULL || !(out = gnn_tensor_sum (d, NULL, 0, FALSE, error)))
      return NULL;
  }
  gnn_autograd_record ("TraceBackward0", trace_backward, &self, 1, &out, 1);
  return out;
}

typedef struct {
  int k, dims[2];
} Rot90Ctx;

/* @self turned @k quarter turns from @dims[0] toward @dims[1] (checked), with ops */
static GnnTensor *
rotate (GnnTensor *self, int k, const int *dims, GError **error)
{
  int d0[1] = { dims[0] }, d1[1] = { dims[1] };
  g_autoptr(GnnTensor) flipped = NULL;

  switch (((k % 4) + 4) % 4)
    {
    case 1:
      return (flipped = gnn_tensor_flip (self, d1, 1, error)) ?
             gnn_tensor_contiguous (flipped, error) : NULL;
    case 2:
      return gnn_tensor_flip (self, dims, 2, error);
    case 3:
      return (flipped = gnn_tensor_flip (self, d0, 1, error)) ?
             gnn_tensor_contiguous (flipped, error) : NULL;
    default:
      return gnn_tensor_clone (self, error);
    }
}

/* one quarter turn is a flip and a transpose; the transpose is applied after rotate's flip */
static GnnTensor *
rot90_value (GnnTensor *self, int k, const int *dims, GError **error)
{
  int r = ((k % 4) + 4) % 4;
  g_autoptr(GnnTensor) t = rotate (self, k, dims, error);
  g_autoptr(GnnTensor) tr = NULL;

  if (t == NULL)
    return NULL;
  if (r == 1 || r == 3)
    return (tr = gnn_tensor_transpose (t, dims[0], dims[1], error)) ? gnn_tensor_contiguous (tr, error) : NULL;
  return g_steal_pointer (&t);
}

/* rot90: the output's gradient turned back */
static gboolean
rot90_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const Rot90Ctx *ctx = node->ctx;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = gnn_tensor_rot90 (go[0], -ctx->k, ctx->dims, 2, error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_rot90:
 * @self: a tensor of at least two dimensions
 * @k: the number of quarter turns (negative: the other way)
 * @dims: (array length=n_dims): the plane of the turn, two different dimensions
 * @n_dims: the length of @dims, 2
 * @error: return location for a #GError
 *
 * @self turned by @k times 90 degrees in the plane of @dims, from the first dimension toward
 * the second (`torch.rot90`; PyTorch's default plane is (0, 1)). The result is a new tensor.
 *
 * Returns: (transfer full): the turned tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rot90 (GnnTensor *self, int k, const int *dims, guint n_dims, GError **error)
{
  GnnTensorPrivate *p;
  guint a, b;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  p = gnn_tensor_priv (self);
  if (n_dims != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "rot90: expected total rotation dims == 2, but got dims = %u", n_dims);
      return NULL;
    }
  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "rot90: expected total dims >= 2, but got total dims = %u",
                   p->ndim);
      return NULL;
    }
  if (!gnn_normalize_dim (dims[0], p->ndim, &a, error) || !gnn_normalize_dim (dims[1], p->ndim, &b, error))
    return NULL;
  if (a == b)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "rot90: expected rotation dims to be different, but got dim0 = %d and dim1 = %d", dims[0], dims[1]);
      return NULL;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    int plane[2] = { (int) a, (int) b };

    if (!(out = rot90_value (self, k, plane, error)))
      return NULL;
  }
  if ((node = gnn_autograd_record ("Rot90Backward0", rot90_backward, &self, 1, &out, 1)))
    {
      Rot90Ctx *ctx = g_new (Rot90Ctx, 1);

      ctx->k = k;
      ctx->dims[0] = (int) a;
      ctx->dims[1] = (int) b;
      gnn_node_set_ctx (node, ctx, g_free);
    }
  return out;
}

/**
 * gnn_tensor_diff:
 * @self: a tensor of at least one dimension
 * @n: how many times to take the difference (0 gives a copy)
 * @dim: the dimension along which
 * @prepend: (nullable): values put before @self along @dim, of @self's dimensions
 * @append: (nullable): values put after @self along @dim, of @self's dimensions
 * @error: return location for a #GError
 *
 * The @n-th forward difference along @dim (`torch.diff`): out[i] = in[i + 1] − in[i], applied
 * @n times, each time one shorter; bool tensors give their exclusive or, as in PyTorch.
 *
 * Returns: (transfer full): the differences, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diff (GnnTensor *self, int n, int dim, GnnTensor *prepend, GnnTensor *append, GError **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) cur = NULL;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (prepend == NULL || GNN_IS_TENSOR (prepend), NULL);
  g_return_val_if_fail (append == NULL || GNN_IS_TENSOR (append), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "diff expects input to be at least one-dimensional");
      return NULL;
    }
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    return NULL;
  for (guint k = 0; k < 2; k++)
    {
      GnnTensor *extra = k == 0 ? prepend : append;

      if (extra && gnn_tensor_priv (extra)->ndim != p->ndim)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "diff expects prepend or append to be the same dimension as input; got %u and %u dimensions",
                       gnn_tensor_priv (extra)->ndim, p->ndim);
          return NULL;
        }
    }
  if (prepend || append)
    {
      GnnTensor *parts[3];
      guint m = 0;

      if (prepend)
        parts[m++] = prepend;
      parts[m++] = self;
      if (append)
        parts[m++] = append;
      if (!(cur = gnn_cat (parts, m, (int) d, error)))
        return NULL;
    }
  else
    cur = g_object_ref (self);
  if (n <= 0)
    return gnn_tensor_clone (cur, error);
  for (int i = 0; i < n; i++)
    {
      gint64 len = gnn_tensor_priv (cur)->shape[d];
      g_autoptr(GnnTensor) hi = NULL, lo = NULL;
      GnnTensor *next;

      if (len == 0)
        break;
      if (!(hi = gnn_tensor_narrow (cur, (int) d, 1, len - 1, error)) ||
          !(lo = gnn_tensor_narrow (cur, (int) d, 0, len - 1, error)))
        return NULL;
      next = gnn_tensor_priv (cur)->dtype == GNN_DTYPE_BOOL ? gnn_tensor_logical_xor (hi, lo, error)
                                                             : gnn_tensor_sub (hi, lo, 1.0, error);
      if (next == NULL)
        return NULL;
      g_object_unref (cur);
      cur = next;
    }
  return g_steal_pointer (&cur);
}

/* the (row, column) pairs of the lower (@lower) or upper triangle with @offset of a @rows by
 * @cols matrix, in row-major order, as a 2 × N int64 tensor */
static GnnTensor *
triangle_indices (const char *name, gint64 rows, gint64 cols, gint64 offset, gboolean lower, GError **error)
{
  g_autoptr(GArray) r = NULL, c = NULL;
  gint64 shape[2];

  if (rows < 0 || cols < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %s must be non-negative, got %" G_GINT64_FORMAT,
                   name, rows < 0 ? "row" : "col", rows < 0 ? rows : cols);
      return NULL;
    }
  if (rows > 0 && cols > G_MAXINT64 / rows)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %" G_GINT64_FORMAT " × %" G_GINT64_FORMAT
                   " entries overflow", name, rows, cols);
      return NULL;
    }
  r = g_array_new (FALSE, FALSE, sizeof (gint64));
  c = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (gint64 i = 0; i < rows; i++)
    {
      /* lower: j ≤ i + offset; upper: j ≥ i + offset */
      gint64 from = lower ? 0 : MAX (0, MIN (cols, i + offset));
      gint64 to = lower ? MAX (0, MIN (cols, i + offset + 1)) : cols;

      for (gint64 j = from; j < to; j++)
        {
          g_array_append_val (r, i);
          g_array_append_val (c, j);
        }
    }
  shape[0] = 2;
  shape[1] = r->len;
  g_array_append_vals (r, c->data, c->len);   /* the rows, then the columns */
  return gnn_tensor_new_from_int64s ((const gint64 *) r->data, r->len, shape, 2, error);
}

/**
 * gnn_tril_indices:
 * @row: the number of rows
 * @col: the number of columns
 * @offset: the diagonal that bounds the triangle: 0 the main one, above it when positive
 * @error: return location for a #GError
 *
 * The indices of the lower triangle of a @row × @col matrix, on and below the diagonal
 * @offset (`torch.tril_indices`): a 2 × N int64 tensor of row indices and column indices, in
 * row-major order.
 *
 * Returns: (transfer full): the indices, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tril_indices (gint64 row, gint64 col, gint64 offset, GError **error)
{
  return triangle_indices ("tril_indices", row, col, offset, TRUE, error);
}

/**
 * gnn_triu_indices:
 * @row: the number of rows
 * @col: the number of columns
 * @offset: the diagonal that bounds the triangle: 0 the main one, above it when positive
 * @error: return location for a #GError
 *
 * The indices of the upper triangle of a @row × @col matrix, on and above the diagonal
 * @offset (`torch.triu_indices`): a 2 × N int64 tensor of row indices and column indices, in
 * row-major order.
 *
 * Returns: (transfer full): the indices, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_triu_indices (gint64 row, gint64 col, gint64 offset, GError **error)
{
  return triangle_indices ("triu_indices", row, col, offset, FALSE, error);
}

typedef struct {
  guint n;
  gint64 *rows, *cols;   /* each input's block: its row and column counts */
} BlockDiagCtx;

static void
block_diag_ctx_free (gpointer data)
{
  BlockDiagCtx *ctx = data;

  g_free (ctx->rows);
  g_free (ctx->cols);
  g_free (ctx);
}

/* block_diag: each input's gradient is its block of the output's, in its own shape */
static gboolean
block_diag_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const BlockDiagCtx *ctx = node->ctx;
  gint64 r = 0, c = 0;

  if (go[0] == NULL)
    return TRUE;
  for (guint k = 0; k < ctx->n; k++)
    {
      if (NEEDS (k))
        {
          g_autoptr(GnnTensor) rows = gnn_tensor_narrow (go[0], 0, r, ctx->rows[k], error);
          g_autoptr(GnnTensor) block = rows ? gnn_tensor_narrow (rows, 1, c, ctx->cols[k], error) : NULL;

          if (block == NULL || !(gi[k] = gnn_tensor_reshape (block, node->in_shape[k], node->in_ndim[k], error)))
            return FALSE;
        }
      r += ctx->rows[k];
      c += ctx->cols[k];
    }
  return TRUE;
}

/**
 * gnn_block_diag:
 * @tensors: (array length=n_tensors): the blocks: each 0-d (1 × 1), 1-d (one row) or 2-d
 * @n_tensors: the number of blocks
 * @error: return location for a #GError
 *
 * The block-diagonal matrix of @tensors, in order from the top left, zeros elsewhere
 * (`torch.block_diag`), of their promoted dtype; no blocks give a 1 × 0 matrix, as in PyTorch.
 *
 * Returns: (transfer full): the matrix, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_block_diag (GnnTensor **tensors, guint n_tensors, GError **error)
{
  g_autofree gint64 *rows = g_new0 (gint64, MAX (n_tensors, 1));
  g_autofree gint64 *cols = g_new0 (gint64, MAX (n_tensors, 1));
  gint64 shape[2] = { 0, 0 };
  GnnDtype dtype = GNN_DTYPE_FLOAT32;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  for (guint k = 0; k < n_tensors; k++)
    {
      GnnTensorPrivate *p;

      g_return_val_if_fail (GNN_IS_TENSOR (tensors[k]), NULL);
      p = gnn_tensor_priv (tensors[k]);
      if (p->ndim > 2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %u has %u dimensions",
                       k, p->ndim);
          return NULL;
        }
      rows[k] = p->ndim == 2 ? p->shape[0] : 1;
      cols[k] = p->ndim == 2 ? p->shape[1] : p->ndim == 1 ? p->shape[0] : 1;
      shape[0] += rows[k];
      shape[1] += cols[k];
      dtype = k == 0 ? p->dtype : gnn_dtype_promote (dtype, p->dtype);
    }
  if (n_tensors == 0)
    {
      shape[0] = 1;
      return gnn_tensor_new_zeros (shape, 2, dtype, NULL, error);
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    gint64 r = 0, c = 0;

    if (!(out = gnn_tensor_new_zeros_like (tensors[0], dtype, 2, shape, error)))
      return NULL;
    for (guint k = 0; k < n_tensors; k++)
      {
        g_autoptr(GnnTensor) band = gnn_tensor_narrow (out, 0, r, rows[k], error);
        g_autoptr(GnnTensor) block = band ? gnn_tensor_narrow (band, 1, c, cols[k], error) : NULL;
        gint64 bshape[2] = { rows[k], cols[k] };
        g_autoptr(GnnTensor) src = block ? gnn_tensor_reshape (tensors[k], bshape, 2, error) : NULL;

        if (src == NULL || !gnn_tensor_copy_ (block, src, error))
          {
            g_object_unref (out);
            return NULL;
          }
        r += rows[k];
        c += cols[k];
      }
  }
  if ((node = gnn_autograd_record ("BlockDiagBackward0", block_diag_backward, tensors, n_tensors, &out, 1)))
    {
      BlockDiagCtx *ctx = g_new (BlockDiagCtx, 1);

      ctx->n = n_tensors;
      ctx->rows = g_steal_pointer (&rows);
      ctx->cols = g_steal_pointer (&cols);
      gnn_node_set_ctx (node, ctx, block_diag_ctx_free);
    }
  return out;
}
