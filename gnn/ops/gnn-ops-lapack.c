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

/* ---- matrix_exp ----------------------------------------------------------------------- */

/* E = exp A (…, n, n): gA = the upper right block of exp ([[Aᵀ, G], [0, Aᵀ]]), the
 * derivative of exp at Aᵀ in the direction G, computed by this op itself so that it can be
 * differentiated again */
static gboolean
matrix_exp_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a;
  GnnTensorPrivate *pa;
  g_autoptr(GnnTensor) at = NULL, zeros = NULL, top = NULL, bottom = NULL, block = NULL, e = NULL, rows = NULL;
  GnnTensor *pair[2];
  guint nd;
  gint64 n;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(at = mT (a, error)))
    return FALSE;
  pa = gnn_tensor_priv (a);
  nd = pa->ndim;
  n = pa->shape[nd - 1];
  if (!(zeros = gnn_tensor_new_zeros_like (a, pa->dtype, nd, pa->shape, error)))
    return FALSE;
  pair[0] = at;
  pair[1] = go[0];
  if (!(top = gnn_cat (pair, 2, (int) nd - 1, error)))
    return FALSE;
  pair[0] = zeros;
  pair[1] = at;
  if (!(bottom = gnn_cat (pair, 2, (int) nd - 1, error)))
    return FALSE;
  pair[0] = top;
  pair[1] = bottom;
  if (!(block = gnn_cat (pair, 2, (int) nd - 2, error)) || !(e = gnn_linalg_matrix_exp (block, error)) ||
      !(rows = gnn_tensor_narrow (e, (int) nd - 2, 0, n, error)))
    return FALSE;
  return (gi[0] = gnn_tensor_narrow (rows, (int) nd - 1, n, n, error)) != NULL;
}

/**
 * gnn_linalg_matrix_exp:
 * @A: a batch of square matrices (…, n, n), float32 or float64
 * @error: return location for a #GError
 *
 * The matrix exponential of each matrix (`torch.linalg.matrix_exp`, `torch.matrix_exp`), by
 * scaling and squaring with the [13/13] Padé approximant (Higham 2005), the products through
 * cblas and the final solve through LAPACK's gesv, in @A's dtype. Its gradient is the upper
 * right block of the exponential of the block matrix [[Aᵀ, G], [0, Aᵀ]], so that it too can
 * be differentiated. Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the exponentials, of @A's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_matrix_exp (GnnTensor *A, GError **error)
{
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL, e = NULL;
  g_autoptr(GnnTensor) out = NULL;
  gint64 batch;
  int n;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  if (!check_matrices ("linalg.matrix_exp", A, TRUE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  n = (int) pa->shape[pa->ndim - 1];
  batch = gnn_shape_numel (pa->ndim - 2, pa->shape);
  if (!(h = host_elements (A, error)))
    return NULL;
  e = g_malloc (MAX (batch * n * n, 1) * gnn_dtype_get_size (pa->dtype));
  if (IS_F64 (A))
    matrix_exp_f64 (h, e, batch, n);
  else
    matrix_exp_f32 (h, e, batch, n);
  if (!(out = tensor_from_host (A, pa->ndim, pa->shape, e, error)))
    return NULL;
  if ((node = gnn_autograd_record ("LinalgMatrixExpBackward0", matrix_exp_backward, &A, 1, &out, 1)))
    gnn_node_save (node, A);
  return g_steal_pointer (&out);
}

/* ---- householder_product -------------------------------------------------------------- */

/* A vector (@m) of @like's dtype on its device: 1 at i (@unit) or below it (else), 0 elsewhere */
static GnnTensor *
indicator (GnnTensor *like, gint64 m, gint64 i, gboolean unit, GError **error)
{
  g_autofree double *d = g_new0 (double, MAX (m, 1));
  g_autoptr(GnnTensor) host = NULL, typed = NULL;

  for (gint64 j = 0; j < m; j++)
    d[j] = unit ? j == i : j > i;
  if (!(host = gnn_tensor_new_from_doubles (d, m, &m, 1, error)) ||
      !(typed = gnn_tensor_cast (host, gnn_tensor_priv (like)->dtype, error)))
    return NULL;
  return gnn_tensor_to_device_of (typed, like, error);
}

/* the reflector v_i (…, m, 1) of column i of @a (…, m, n): 1 at i, a's column below, 0 above */
static GnnTensor *
reflector (GnnTensor *a, gint64 i, GError **error)
{
  GnnTensorPrivate *pa = gnn_tensor_priv (a);
  gint64 m = pa->shape[pa->ndim - 2];
  g_autoptr(GnnTensor) col = NULL, below = NULL, unit = NULL, masked = NULL, v = NULL;

  if (!(col = gnn_tensor_select (a, (int) pa->ndim - 1, i, error)) ||
      !(below = indicator (a, m, i, FALSE, error)) || !(unit = indicator (a, m, i, TRUE, error)) ||
      !(masked = gnn_tensor_mul (col, below, error)) || !(v = gnn_tensor_add (masked, unit, 1.0, error)))
    return NULL;
  return gnn_tensor_unsqueeze (v, -1, error);
}

/* H y = y - τ v (vᵀ y), with v (…, m, 1) and τ (…, 1, 1) */
static GnnTensor *
reflect (GnnTensor *v, GnnTensor *tau, GnnTensor *y, GError **error)
{
  g_autoptr(GnnTensor) vt = NULL, w = NULL, tv = NULL, p = NULL;

  if (!(vt = mT (v, error)) || !(w = gnn_tensor_matmul (vt, y, error)) || !(tv = gnn_tensor_mul (tau, v, error)) ||
      !(p = gnn_tensor_matmul (tv, w, error)))
    return NULL;
  return gnn_tensor_sub (y, p, 1.0, error);
}

/* Q = H_0 ⋯ H_{k-1} E (E the first n columns of I), H_i = I - τ_i v_i v_iᵀ. With
 * X_i = H_{i+1} ⋯ H_{k-1} E and M_i = H_{i-1} ⋯ H_0 G (the H are symmetric), the gradient
 * reaching H_i is G_i = M_i X_iᵀ, and from dH_i = -dτ v vᵀ - τ (dv vᵀ + v dvᵀ):
 *   gτ_i = -vᵀ G_i v = -(X_iᵀ v) · (M_iᵀ v),   gv_i = -τ_i (M_i X_iᵀ v + X_i M_iᵀ v),
 * gv_i below the diagonal being column i of gA (columns from k on are not read). */
static gboolean
householder_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a, *tau;
  GnnTensorPrivate *pa;
  guint nd;
  gint64 m, n, k;
  g_autoptr(GPtrArray) vs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) ts = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) xs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) gcols = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) gtaus = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) e = NULL, mi = NULL;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(tau = gnn_node_saved (node, 1, error)))
    return FALSE;
  pa = gnn_tensor_priv (a);
  nd = pa->ndim;
  m = pa->shape[nd - 2];
  n = pa->shape[nd - 1];
  k = gnn_tensor_priv (tau)->shape[nd - 2];
  if (k == 0)
    {
      if (NEEDS (0) && !(gi[0] = gnn_tensor_new_zeros_like (a, pa->dtype, nd, pa->shape, error)))
        return FALSE;
      if (NEEDS (1) && !(gi[1] = gnn_tensor_new_zeros_like (a, pa->dtype, nd - 1, gnn_tensor_priv (tau)->shape,
                                                              error)))
        return FALSE;
      return TRUE;
    }
  for (gint64 i = 0; i < k; i++)
    {
      g_autoptr(GnnTensor) ti = gnn_tensor_select (tau, (int) nd - 2, i, error);
      GnnTensor *v = ti ? reflector (a, i, error) : NULL, *t3 = v ? as_matrix_scalars (ti, error) : NULL;

      if (t3 == NULL)
        {
          g_clear_object (&v);
          return FALSE;
        }
      g_ptr_array_add (vs, v);
      g_ptr_array_add (ts, t3);
    }
  /* X_{k-1} = E, X_{i-1} = H_i X_i */
  if (!(e = gnn_tensor_new_eye (m, n, pa->dtype, gnn_tensor_get_device (a), error)))
    return FALSE;
  g_ptr_array_set_size (xs, k);
  xs->pdata[k - 1] = g_object_ref (e);
  for (gint64 i = k - 1; i > 0; i--)
    if (!(xs->pdata[i - 1] = reflect (vs->pdata[i], ts->pdata[i], xs->pdata[i], error)))
      return FALSE;
  mi = g_object_ref (go[0]);
  for (gint64 i = 0; i < k; i++)
    {
      GnnTensor *v = vs->pdata[i], *t3 = ts->pdata[i], *x = xs->pdata[i];
      g_autoptr(GnnTensor) xt = NULL, mt = NULL, av = NULL, bv = NULL, ab = NULL, s = NULL, p1 = NULL, p2 = NULL;
      g_autoptr(GnnTensor) sum = NULL, scaled = NULL, gv = NULL, below = NULL, next = NULL;
      int dims[2] = { (int) nd - 2, (int) nd - 1 };
      GnnTensor *gt, *gc;

      if (!(xt = mT (x, error)) || !(mt = mT (mi, error)) || !(av = gnn_tensor_matmul (xt, v, error)) ||
          !(bv = gnn_tensor_matmul (mt, v, error)) || !(ab = gnn_tensor_mul (av, bv, error)) ||
          !(s = gnn_tensor_sum (ab, dims, 2, FALSE, error)) || !(gt = gnn_tensor_neg (s, error)))
        return FALSE;
      g_ptr_array_add (gtaus, gt);
      if (!(p1 = gnn_tensor_matmul (mi, av, error)) || !(p2 = gnn_tensor_matmul (x, bv, error)) ||
          !(sum = gnn_tensor_add (p1, p2, 1.0, error)) || !(scaled = gnn_tensor_mul (t3, sum, error)) ||
          !(gv = gnn_tensor_squeeze_dim (scaled, -1, error)) || !(below = indicator (a, m, i, FALSE, error)) ||
          !(gc = gnn_tensor_mul (gv, below, error)))
        return FALSE;
      g_ptr_array_add (gcols, gc);
      if (i + 1 < k)
        {
          if (!(next = reflect (v, t3, mi, error)))
            return FALSE;
          g_clear_object (&mi);
          mi = g_steal_pointer (&next);
        }
    }
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) cols = gnn_stack ((GnnTensor **) gcols->pdata, k, (int) nd - 1, error);
      g_autoptr(GnnTensor) neg = cols ? gnn_tensor_neg (cols, error) : NULL;

      if (neg == NULL)
        return FALSE;
      if (k == n)
        gi[0] = g_steal_pointer (&neg);
      else
        {
          gint64 zshape[GNN_MAX_DIMS];
          g_autoptr(GnnTensor) z = NULL;
          GnnTensor *pair[2];

          memcpy (zshape, pa->shape, sizeof (gint64) * nd);
          zshape[nd - 1] = n - k;
          if (!(z = gnn_tensor_new_zeros_like (a, pa->dtype, nd, zshape, error)))
            return FALSE;
          pair[0] = neg;
          pair[1] = z;
          if (!(gi[0] = gnn_cat (pair, 2, (int) nd - 1, error)))
            return FALSE;
        }
    }
  if (NEEDS (1) && !(gi[1] = gnn_stack ((GnnTensor **) gtaus->pdata, k, (int) nd - 2, error)))
    return FALSE;
  return TRUE;
}

/**
 * gnn_linalg_householder_product:
 * @A: a batch of matrices (…, m, n), m ≥ n, float32 or float64: column i below the diagonal
 *   is the i-th Householder vector (its 1 on the diagonal implied)
 * @tau: the scale factors (…, k), k ≤ n, of @A's dtype and batch dimensions
 * @error: return location for a #GError
 *
 * The first n columns of the product H_0 ⋯ H_{k-1} of Householder reflections
 * H_i = I - τ_i v_i v_iᵀ (`torch.linalg.householder_product`, `torch.orgqr`), through
 * LAPACK's orgqr: the orthogonal Q of a QR factorization stored as geqrf stores it, and
 * the orthogonal parametrization of `torch.nn.utils.parametrizations.orthogonal`. The
 * gradient is written with ops. Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): Q, of @A's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_householder_product (GnnTensor *A, GnnTensor *tau, GError **error)
{
  const char *op = "torch.linalg.householder_product";
  GnnTensorPrivate *pa, *pt;
  g_autofree gpointer ha = NULL, ht = NULL, q = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *ins[2] = { A, tau };
  gint64 batch, m, n, k;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A) && GNN_IS_TENSOR (tau), NULL);
  pa = gnn_tensor_priv (A);
  pt = gnn_tensor_priv (tau);
  if (pa->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: input must have at least 2 dimensions.", op);
      return NULL;
    }
  if (!check_linalg_dtype (op, A, error) || !gnn_check_same_device (op, A, tau, error))
    return NULL;
  m = pa->shape[pa->ndim - 2];
  n = pa->shape[pa->ndim - 1];
  if (m < n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input.shape[-2] must be greater than or equal to input.shape[-1]", op);
      return NULL;
    }
  if (pt->ndim != pa->ndim - 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Expected tau to have one dimension less than input, but got tau.ndim equal to %u and "
                   "input.ndim is equal to %u", op, pt->ndim, pa->ndim);
      return NULL;
    }
  if (memcmp (pt->shape, pa->shape, sizeof (gint64) * (pt->ndim - 1)) != 0)
    {
      g_autofree char *ts = gnn_shape_to_string (pt->ndim - 1, pt->shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Expected batch dimensions of tau to be equal to input.shape[:-2], but got %s", op, ts);
      return NULL;
    }
  k = pt->shape[pt->ndim - 1];
  if (n < k)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input.shape[-1] must be greater than or equal to tau.shape[-1]", op);
      return NULL;
    }
  if (pt->dtype != pa->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: tau dtype %s does not match input dtype %s", op,
                   gnn_dtype_get_name (pt->dtype), gnn_dtype_get_name (pa->dtype));
      return NULL;
    }
  batch = gnn_shape_numel (pa->ndim - 2, pa->shape);
  if (!(ha = host_elements (A, error)) || !(ht = host_elements (tau, error)))
    return NULL;
  q = g_malloc0 (MAX (batch * m * n, 1) * gnn_dtype_get_size (pa->dtype));
  if (IS_F64 (A))
    householder_product_f64 (ha, ht, q, batch, (int) m, (int) n, (int) k);
  else
    householder_product_f32 (ha, ht, q, batch, (int) m, (int) n, (int) k);
  if (!(out = tensor_from_host (A, pa->ndim, pa->shape, q, error)))
    return NULL;
  if ((node = gnn_autograd_record ("LinalgHouseholderProductBackward0", householder_backward, ins, 2, &out, 1)))
    {
      gnn_node_save (node, A);
      gnn_node_save (node, tau);
    }
  return g_steal_pointer (&out);
}

/* ---- cholesky ------------------------------------------------------------------------- */

/* A = L Lᵀ (upper: A = Uᵀ U, L = Uᵀ): with Φ = P + tril (P, -1)ᵀ halved, P = tril (Lᵀ gL),
 * gA = L⁻ᵀ Φ L⁻¹, as torch 1.13's cholesky_backward, the triangular solves done by solve */
static gboolean
cholesky_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gboolean upper = GPOINTER_TO_INT (node->ctx);
  GnnTensor *f;
  g_autoptr(GnnTensor) l = NULL, gl = NULL, lt = NULL, p0 = NULL, p = NULL, below = NULL, belowt = NULL;
  g_autoptr(GnnTensor) sum = NULL, phi = NULL, y = NULL, yt = NULL, z = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(f = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (!(l = upper ? mT (f, error) : g_object_ref (f)) || !(gl = upper ? mT (go[0], error) : g_object_ref (go[0])) ||
      !(lt = mT (l, error)) || !(p0 = gnn_tensor_matmul (lt, gl, error)) || !(p = gnn_tensor_tril (p0, 0, error)) ||
      !(below = gnn_tensor_tril (p, -1, error)) || !(belowt = mT (below, error)) ||
      !(sum = gnn_tensor_add (p, belowt, 1.0, error)) || !(phi = gnn_tensor_mul_scalar (sum, 0.5, error)) ||
      !(y = gnn_linalg_solve (lt, phi, error)) || !(yt = mT (y, error)) || !(z = gnn_linalg_solve (lt, yt, error)))
    return FALSE;
  return (gi[0] = mT (z, error)) != NULL;
}

/**
 * gnn_linalg_cholesky:
 * @A: a batch of symmetric positive-definite matrices (…, n, n), float32 or float64
 * @upper: whether to return the upper triangular factor U (A = Uᵀ U) rather than the lower L
 *   (A = L Lᵀ)
 * @error: return location for a #GError
 *
 * The Cholesky factor of each matrix (`torch.linalg.cholesky`), through LAPACK's potrf,
 * reading @A's lower triangle (its upper one for @upper), the other triangle of the result
 * zero. A matrix that is not positive-definite is an error naming the order of its first
 * leading minor that is not, as in torch. Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the factors, of @A's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_cholesky (GnnTensor *A, gboolean upper, GError **error)
{
  const char *op = "linalg.cholesky";
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL;
  g_autoptr(GnnTensor) out = NULL;
  gint64 batch, bad;
  int n, order = 0;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  if (!check_matrices (op, A, TRUE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  n = (int) pa->shape[pa->ndim - 1];
  batch = gnn_shape_numel (pa->ndim - 2, pa->shape);
  if (!(h = host_elements (A, error)))
    return NULL;
  bad = IS_F64 (A) ? cholesky_f64 (h, batch, n, upper, &order) : cholesky_f32 (h, batch, n, upper, &order);
  if (bad >= 0)
    {
      g_autofree char *where = pa->ndim > 2 ? batch_element (bad) : g_strdup ("");

      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "%s: %sThe factorization could not be completed because the input is not positive-definite "
                   "(the leading minor of order %d is not positive-definite).", op, where, order);
      return NULL;
    }
  if (!(out = tensor_from_host (A, pa->ndim, pa->shape, h, error)))
    return NULL;
  if ((node = gnn_autograd_record ("LinalgCholeskyExBackward0", cholesky_backward, &A, 1, &out, 1)))
    {
      gnn_node_set_ctx (node, GINT_TO_POINTER (upper), NULL);
      gnn_node_save (node, out);
    }
  return g_steal_pointer (&out);
}
