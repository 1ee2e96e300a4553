/* gnn-ops-lapack.c: linear algebra through LAPACK (torch.linalg)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The factorizations run on the host, in OpenBLAS's LAPACK (gnn-ops-lapack-private.h), over
 * a contiguous host copy of the input: a tensor on another device (CUDA) makes one round trip
 * through host memory per op, its result copied back to its device. The backward formulas are
 * written with ops (these ones included), so they run on every backend and can be
 * differentiated again (create_graph).
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <cblas.h>

#include "gnn-ops-private.h"
#include "gnn-ops-lapack-private.h"

#define T float
#define NAME(x) x##_f32
#define LAPACK(x) s##x##_
#define GEMM cblas_sgemm
#include "gnn-ops-lapack-tmpl.c"
#undef T
#undef NAME
#undef LAPACK
#undef GEMM

#define T double
#define NAME(x) x##_f64
#define LAPACK(x) d##x##_
#define GEMM cblas_dgemm
#include "gnn-ops-lapack-tmpl.c"
#undef T
#undef NAME
#undef LAPACK
#undef GEMM

#define NEEDS(j) (node->edges[(j)].node != NULL)
#define IS_F64(t) (gnn_tensor_priv (t)->dtype == GNN_DTYPE_FLOAT64)

/* ---- shared: checks, host copies ------------------------------------------------------ */

static gboolean
check_linalg_dtype (const char *op, GnnTensor *t, GError **error)
{
  GnnDtype d = gnn_tensor_priv (t)->dtype;

  if (d == GNN_DTYPE_FLOAT32 || d == GNN_DTYPE_FLOAT64)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "%s: Expected a floating point tensor (float32 or float64) as input. Got %s",
               op, gnn_dtype_get_name (d));
  return FALSE;
}

/* @a is a batch of matrices (at least 2 dimensions), square when @square, of a dtype LAPACK
 * takes: torch's messages */
static gboolean
check_matrices (const char *op, GnnTensor *a, gboolean square, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (a);

  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: The input tensor A must have at least 2 dimensions.", op);
      return FALSE;
    }
  if (!check_linalg_dtype (op, a, error))
    return FALSE;
  if (square && p->shape[p->ndim - 1] != p->shape[p->ndim - 2])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: A must be batches of square matrices, but they are %" G_GINT64_FORMAT " by %"
                   G_GINT64_FORMAT " matrices", op, p->shape[p->ndim - 2], p->shape[p->ndim - 1]);
      return FALSE;
    }
  return TRUE;
}

/* The elements of @t in row-major order and its dtype, in host memory (g_free): one copy
 * from the device for a tensor that is not in host memory. */
static gpointer
host_elements (GnnTensor *t, GError **error)
{
  GBytes *bytes = gnn_tensor_get_bytes (t, error);
  gpointer data;
  gsize size;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_unref_to_data (bytes, &size);
  return data ? data : g_malloc0 (1);
}

/* A new contiguous tensor of @like's dtype on @like's device holding the host @data. */
static GnnTensor *
tensor_from_host (GnnTensor *like, guint ndim, const gint64 *shape, gconstpointer data, GError **error)
{
  GnnDtype dtype = gnn_tensor_priv (like)->dtype;
  g_autoptr(GnnTensor) t = gnn_tensor_new_like (like, dtype, ndim, shape, error);
  GnnTensorPrivate *p;
  gsize nbytes;

  if (t == NULL)
    return NULL;
  p = gnn_tensor_priv (t);
  nbytes = (gsize) gnn_shape_numel (ndim, shape) * gnn_dtype_get_size (dtype);
  if (nbytes > 0 &&
      !p->storage->entry->funcs->copy_from_host (p->storage->entry->backend, p->storage->device,
                                                 gnn_tensor_data_ptr (p), data, nbytes, error))
    return NULL;
  return g_steal_pointer (&t);
}

/* "(Batch element i): ", which torch's errors about one matrix of a batch begin with */
static char *
batch_element (gint64 i)
{
  return g_strdup_printf ("(Batch element %" G_GINT64_FORMAT "): ", i);
}

/* @t (…, r, c) with its last two dimensions swapped, recording */
static GnnTensor *
mT (GnnTensor *t, GError **error)
{
  return gnn_tensor_transpose (t, -1, -2, error);
}

/* @t (…) as (…, 1, 1), recording */
static GnnTensor *
as_matrix_scalars (GnnTensor *t, GError **error)
{
  g_autoptr(GnnTensor) u = gnn_tensor_unsqueeze (t, -1, error);

  return u ? gnn_tensor_unsqueeze (u, -1, error) : NULL;
}

/* ---- solve ---------------------------------------------------------------------------- */

/* X = A⁻¹ B, A (…, n, n), X (…, n, k) or, for a vector B, (…, n):
 * gB = A⁻ᵀ gX (a solve, broadcast back to B's shape), gA = -gB Xᵀ (summed to A's shape) */
static gboolean
solve_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gboolean vector = GPOINTER_TO_INT (node->ctx);
  GnnTensor *a, *x;
  g_autoptr(GnnTensor) gx = NULL, xm = NULL, at = NULL, gb = NULL;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(x = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (!(gx = vector ? gnn_tensor_unsqueeze (go[0], -1, error) : g_object_ref (go[0])) ||
      !(xm = vector ? gnn_tensor_unsqueeze (x, -1, error) : g_object_ref (x)) ||
      !(at = mT (a, error)) || !(gb = gnn_linalg_solve (at, gx, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) xt = mT (xm, error);
      g_autoptr(GnnTensor) p = xt ? gnn_tensor_matmul (gb, xt, error) : NULL;
      g_autoptr(GnnTensor) n = p ? gnn_tensor_neg (p, error) : NULL;

      if (n == NULL || !(gi[0] = gnn_sum_to (n, node->in_ndim[0], node->in_shape[0], error)))
        return FALSE;
    }
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) g = vector ? gnn_tensor_squeeze_dim (gb, -1, error) : g_object_ref (gb);

      if (g == NULL || !(gi[1] = gnn_sum_to (g, node->in_ndim[1], node->in_shape[1], error)))
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_linalg_solve:
 * @A: a batch of square matrices (…, n, n)
 * @B: the right-hand sides: a batch of matrices (…, n, k), or of vectors (…, n) when it is
 *   1-D or has the shape of @A without its last dimension
 * @error: return location for a #GError
 *
 * The solution X of A X = B (`torch.linalg.solve`), the batch dimensions of @A and @B
 * broadcast, through LAPACK's gesv (an LU factorization with partial pivoting). @A and @B are
 * float32 or float64, of one dtype. A singular matrix is an error, as in torch.
 *
 * The solve runs on the host: on a device whose memory is not host memory (CUDA) the operands
 * are copied to the host and the result back, one round trip per call.
 *
 * Returns: (transfer full): X, of @B's shape with the broadcast batch dimensions, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_solve (GnnTensor *A, GnnTensor *B, GError **error)
{
  const char *op = "linalg.solve";
  GnnTensorPrivate *pa, *pb;
  g_autoptr(GnnTensor) bm = NULL, ae = NULL, be = NULL, x = NULL, out = NULL;
  g_autofree gpointer ha = NULL, hb = NULL;
  gint64 batch[GNN_MAX_DIMS], sa[GNN_MAX_DIMS], sb[GNN_MAX_DIMS], n, k, nbatch_total, bad;
  guint nbatch;
  gboolean vector, prev;
  GnnTensor *ins[2] = { A, B };
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A) && GNN_IS_TENSOR (B), NULL);
  if (!check_matrices (op, A, TRUE, error) || !gnn_check_same_device (op, A, B, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  pb = gnn_tensor_priv (B);
  if (pb->dtype != pa->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead",
                   op, gnn_dtype_get_name (pa->dtype), gnn_dtype_get_name (pb->dtype));
      return NULL;
    }
  if (pb->ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: The input tensor B must have at least 1 dimensions.", op);
      return NULL;
    }
  n = pa->shape[pa->ndim - 1];
  vector = pb->ndim == 1 ||
           (pb->ndim == pa->ndim - 1 && memcmp (pb->shape, pa->shape, sizeof (gint64) * pb->ndim) == 0);
  prev = gnn_set_grad_enabled (FALSE);
  bm = vector ? gnn_tensor_unsqueeze (B, -1, error) : g_object_ref (B);
  gnn_set_grad_enabled (prev);
  if (bm == NULL)
    return NULL;
  pb = gnn_tensor_priv (bm);
  k = pb->shape[pb->ndim - 1];
  if (pb->shape[pb->ndim - 2] != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Incompatible shapes of A and B for the equation AX = B (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")", op, n, n, pb->shape[pb->ndim - 2], k);
      return NULL;
    }
  if (!gnn_broadcast_shapes (op, pa->ndim - 2, pa->shape, pb->ndim - 2, pb->shape, &nbatch, batch, error))
    return NULL;
  memcpy (sa, batch, sizeof (gint64) * nbatch);
  memcpy (sb, batch, sizeof (gint64) * nbatch);
  sa[nbatch] = sa[nbatch + 1] = sb[nbatch] = n;
  sb[nbatch + 1] = k;
  prev = gnn_set_grad_enabled (FALSE);
  ae = gnn_tensor_expand (A, sa, nbatch + 2, error);
  be = ae ? gnn_tensor_expand (bm, sb, nbatch + 2, error) : NULL;
  gnn_set_grad_enabled (prev);
  if (be == NULL || !(ha = host_elements (ae, error)) || !(hb = host_elements (be, error)))
    return NULL;
  nbatch_total = gnn_shape_numel (nbatch, batch);
  bad = IS_F64 (A) ? solve_f64 (ha, hb, nbatch_total, (int) n, (int) k)
                   : solve_f32 (ha, hb, nbatch_total, (int) n, (int) k);
  if (bad >= 0)
    {
      g_autofree char *where = nbatch > 0 ? batch_element (bad) : g_strdup ("");

      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "torch.linalg.solve: %sThe solver failed because the input matrix is singular.", where);
      return NULL;
    }
  if (!(x = tensor_from_host (A, nbatch + 2, sb, hb, error)))
    return NULL;
  if (vector)
    {
      prev = gnn_set_grad_enabled (FALSE);
      out = gnn_tensor_squeeze_dim (x, -1, error);
      gnn_set_grad_enabled (prev);
      if (out == NULL)
        return NULL;
      /* a plain contiguous result rather than a view of x */
      g_clear_object (&x);
      x = gnn_tensor_contiguous_as (out, pa->dtype, error);
      g_clear_object (&out);
      if (x == NULL)
        return NULL;
    }
  if ((node = gnn_autograd_record ("LinalgSolveExBackward0", solve_backward, ins, 2, &x, 1)))
    {
      gnn_node_set_ctx (node, GINT_TO_POINTER (vector), NULL);
      gnn_node_save (node, A);
      gnn_node_save (node, x);
    }
  return g_steal_pointer (&x);
}

/* ---- inv ------------------------------------------------------------------------------ */

/* Y = A⁻¹: gA = -Yᵀ gY Yᵀ */
static gboolean
inv_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *y;
  g_autoptr(GnnTensor) yt = NULL, p = NULL, q = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(y = gnn_node_saved (node, 0, error)) || !(yt = mT (y, error)) ||
      !(p = gnn_tensor_matmul (yt, go[0], error)) || !(q = gnn_tensor_matmul (p, yt, error)))
    return FALSE;
  return (gi[0] = gnn_tensor_neg (q, error)) != NULL;
}

/**
 * gnn_linalg_inv:
 * @A: a batch of square matrices (…, n, n), float32 or float64
 * @error: return location for a #GError
 *
 * The inverse of each matrix (`torch.linalg.inv`, `torch.inverse`), through LAPACK's getrf
 * and getri. A singular matrix is an error naming the zero diagonal element of its LU
 * factorization, as in torch. Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the inverses, of @A's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_inv (GnnTensor *A, GError **error)
{
  const char *op = "linalg.inv";
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL;
  g_autoptr(GnnTensor) y = NULL;
  gint64 batch, bad;
  int n, diag = 0;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  if (!check_matrices (op, A, TRUE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  n = (int) pa->shape[pa->ndim - 1];
  batch = gnn_shape_numel (pa->ndim - 2, pa->shape);
  if (!(h = host_elements (A, error)))
    return NULL;
  bad = IS_F64 (A) ? inv_f64 (h, batch, n, &diag) : inv_f32 (h, batch, n, &diag);
  if (bad >= 0)
    {
      g_autofree char *where = pa->ndim > 2 ? batch_element (bad) : g_strdup ("");
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "%s: %sThe diagonal element %d is zero, the inversion could not be completed because the "
                   "input matrix is singular.", op, where, diag);
      return NULL;
    }
  if (!(y = tensor_from_host (A, pa->ndim, pa->shape, h, error)))
    return NULL;
  if ((node = gnn_autograd_record ("LinalgInvExBackward0", inv_backward, &A, 1, &y, 1)))
    gnn_node_save (node, y);
  return g_steal_pointer (&y);
}

/* ---- det, slogdet --------------------------------------------------------------------- */

/* d = det A (…): gA = g d A⁻ᵀ; for slogdet (sign, log |det A|) the gradient of the
 * logarithm, g A⁻ᵀ (sign has none). A⁻ᵀ through gnn_linalg_inv, so a singular A is an error
 * in backward (torch 1.13 differentiates det there through an SVD). */
static gboolean
det_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gboolean slog = node->n_outputs == 2;
  GnnTensor *g = slog ? go[1] : go[0], *a;
  g_autoptr(GnnTensor) scale = NULL, s = NULL, inv = NULL, invt = NULL;

  if (g == NULL || !NEEDS (0))
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (slog)
    scale = g_object_ref (g);
  else
    {
      GnnTensor *d = gnn_node_saved (node, 1, error);

      if (d == NULL || !(scale = gnn_tensor_mul (g, d, error)))
        return FALSE;
    }
  if (!(s = as_matrix_scalars (scale, error)) || !(inv = gnn_linalg_inv (a, error)) || !(invt = mT (inv, error)))
    return FALSE;
  return (gi[0] = gnn_tensor_mul (s, invt, error)) != NULL;
}

/* det (or, with @logabs, slogdet's sign) of the batch @A on the host */
static GnnTensor *
det_like (const char *op, GnnTensor *A, GnnTensor **logabs, GError **error)
{
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL, d = NULL, la = NULL;
  g_autoptr(GnnTensor) out = NULL, out2 = NULL;
  GnnTensor *outs[2];
  gint64 batch;
  int n;
  gsize es;
  GnnNode *node;

  if (!check_matrices (op, A, TRUE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  n = (int) pa->shape[pa->ndim - 1];
  batch = gnn_shape_numel (pa->ndim - 2, pa->shape);
  es = gnn_dtype_get_size (pa->dtype);
  if (!(h = host_elements (A, error)))
    return NULL;
  d = g_malloc (MAX (batch, 1) * es);
  la = logabs ? g_malloc (MAX (batch, 1) * es) : NULL;
  if (IS_F64 (A))
    det_f64 (h, batch, n, logabs ? NULL : d, logabs ? d : NULL, la);
  else
    det_f32 (h, batch, n, logabs ? NULL : d, logabs ? d : NULL, la);
  if (!(out = tensor_from_host (A, pa->ndim - 2, pa->shape, d, error)) ||
      (logabs && !(out2 = tensor_from_host (A, pa->ndim - 2, pa->shape, la, error))))
    return NULL;
  outs[0] = out;
  outs[1] = out2;
  if ((node = gnn_autograd_record (logabs ? "LinalgSlogdetBackward0" : "LinalgDetBackward0", det_backward, &A, 1,
                                   outs, logabs ? 2 : 1)))
    {
      gnn_node_save (node, A);
      if (!logabs)
        gnn_node_save (node, out);
    }
  if (logabs)
    *logabs = g_steal_pointer (&out2);
  return g_steal_pointer (&out);
}

/**
 * gnn_linalg_det:
 * @A: a batch of square matrices (…, n, n), float32 or float64
 * @error: return location for a #GError
 *
 * The determinant of each matrix (`torch.linalg.det`, `torch.det`), from its LU
 * factorization (LAPACK's getrf); 1 for an empty matrix. Its gradient needs the inverse, so
 * backward through a singular matrix is an error. Runs on the host, as gnn_linalg_solve()
 * does.
 *
 * Returns: (transfer full): the determinants, of @A's batch shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_det (GnnTensor *A, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  return det_like ("linalg.det", A, NULL, error);
}

/**
 * gnn_linalg_slogdet:
 * @A: a batch of square matrices (…, n, n), float32 or float64
 * @logabsdet: (out) (transfer full) (optional): the logarithms of the absolute values of the
 *   determinants (-inf for a singular matrix)
 * @error: return location for a #GError
 *
 * The sign and the logarithm of the absolute value of the determinant of each matrix
 * (`torch.linalg.slogdet`, which returns the pair (sign, logabsdet)): a determinant too
 * large or too small for the dtype still has a finite logarithm. The sign is -1, 0 or 1 and
 * has no gradient. Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the signs, of @A's batch shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_slogdet (GnnTensor *A, GnnTensor **logabsdet, GError **error)
{
  g_autoptr(GnnTensor) la = NULL;
  GnnTensor *sign;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  sign = det_like ("linalg.slogdet", A, &la, error);
  if (sign && logabsdet)
    *logabsdet = g_steal_pointer (&la);
  return sign;
}
