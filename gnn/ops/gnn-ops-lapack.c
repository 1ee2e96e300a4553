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
#define TRSM cblas_strsm
#include "gnn-ops-lapack-tmpl.c"
#undef T
#undef NAME
#undef LAPACK
#undef GEMM
#undef TRSM

#define T double
#define NAME(x) x##_f64
#define LAPACK(x) d##x##_
#define GEMM cblas_dgemm
#define TRSM cblas_dtrsm
#include "gnn-ops-lapack-tmpl.c"
#undef T
#undef NAME
#undef LAPACK
#undef GEMM
#undef TRSM

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

/* A new contiguous tensor of @dtype on @like's device holding the host @data */
static GnnTensor *
tensor_from_host_typed (GnnTensor *like, GnnDtype dtype, guint ndim, const gint64 *shape, gconstpointer data,
                        GError **error)
{
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

/* A new contiguous tensor of @like's dtype on @like's device holding the host @data. */
static GnnTensor *
tensor_from_host (GnnTensor *like, guint ndim, const gint64 *shape, gconstpointer data, GError **error)
{
  return tensor_from_host_typed (like, gnn_tensor_priv (like)->dtype, ndim, shape, data, error);
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

/* For AX = B with A (…, n, n) and B (…, n, k): checks B's rows against n, broadcasts the
 * batch dimensions into @batch, writes B's expanded shape into @sb, and gives both operands
 * expanded (with grad off) in @ae and @be and their host elements in @ha and @hb. */
static gboolean
expand_solve_operands (const char *op, GnnTensor *A, GnnTensor *B, gint64 n, guint *nbatch, gint64 *batch,
                       gint64 *sb, GnnTensor **ae, GnnTensor **be, gpointer *ha, gpointer *hb, GError **error)
{
  GnnTensorPrivate *pa = gnn_tensor_priv (A), *pb = gnn_tensor_priv (B);
  gint64 sa[GNN_MAX_DIMS], k = pb->shape[pb->ndim - 1];
  guint nb;
  gboolean prev;

  if (pb->shape[pb->ndim - 2] != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Incompatible shapes of A and B for the equation AX = B (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")", op, n, n, pb->shape[pb->ndim - 2], k);
      return FALSE;
    }
  if (!gnn_broadcast_shapes (op, pa->ndim - 2, pa->shape, pb->ndim - 2, pb->shape, nbatch, batch, error))
    return FALSE;
  nb = *nbatch;
  memcpy (sa, batch, sizeof (gint64) * nb);
  memcpy (sb, batch, sizeof (gint64) * nb);
  sa[nb] = sa[nb + 1] = sb[nb] = n;
  sb[nb + 1] = k;
  prev = gnn_set_grad_enabled (FALSE);
  *ae = gnn_tensor_expand (A, sa, nb + 2, error);
  *be = *ae ? gnn_tensor_expand (B, sb, nb + 2, error) : NULL;
  gnn_set_grad_enabled (prev);
  return *be != NULL && (*ha = host_elements (*ae, error)) != NULL && (*hb = host_elements (*be, error)) != NULL;
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
  gint64 batch[GNN_MAX_DIMS], sb[GNN_MAX_DIMS], n, k, nbatch_total, bad;
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
  if (!expand_solve_operands (op, A, bm, n, &nbatch, batch, sb, &ae, &be, &ha, &hb, error))
    return NULL;
  k = sb[nbatch + 1];
  nbatch_total = gnn_shape_numel (nbatch, batch);
  bad = IS_F64 (A) ? solve_f64 (ha, hb, nbatch_total, (int) n, (int) k)
                   : solve_f32 (ha, hb, nbatch_total, (int) n, (int) k);
  if (bad >= 0)
    {
      g_autofree char *where = nbatch > 0 ? batch_element (bad) : g_strdup ("");

      g_set_error (error, GNN_ERROR, GNN_ERROR_LINALG,
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
      g_set_error (error, GNN_ERROR, GNN_ERROR_LINALG,
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

      g_set_error (error, GNN_ERROR, GNN_ERROR_LINALG,
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

/* ---- shared by the decompositions ----------------------------------------------------- */

/* @shape (@ndim) with its last two sizes replaced by @r and @c (@c < 0: the last dropped) */
static guint
matrix_shape (const gint64 *shape, guint ndim, gint64 r, gint64 c, gint64 *out)
{
  memcpy (out, shape, sizeof (gint64) * (ndim - 2));
  out[ndim - 2] = r;
  if (c < 0)
    return ndim - 1;
  out[ndim - 1] = c;
  return ndim;
}

/* *@t + diag_embed (@d), replacing *@t */
static gboolean
add_diag_embed (GnnTensor **t, GnnTensor *d, GError **error)
{
  g_autoptr(GnnTensor) dg = gnn_tensor_diag_embed (d, 0, -2, -1, error);
  GnnTensor *sum = dg ? gnn_tensor_add (*t, dg, 1.0, error) : NULL;

  if (sum == NULL)
    return FALSE;
  g_clear_object (t);
  *t = sum;
  return TRUE;
}

/* I (n, n) of @like's dtype on its device */
static GnnTensor *
eye_like (GnnTensor *like, gint64 n, GError **error)
{
  return gnn_tensor_new_eye (n, n, gnn_tensor_priv (like)->dtype, gnn_tensor_get_device (like), error);
}

/* X B⁻¹ for square B: the solve Bᵀ Xᵀ = Yᵀ, recording */
static GnnTensor *
solve_right (GnnTensor *y, GnnTensor *b, GError **error)
{
  g_autoptr(GnnTensor) bt = mT (b, error);
  g_autoptr(GnnTensor) yt = bt ? mT (y, error) : NULL;
  g_autoptr(GnnTensor) x = yt ? gnn_linalg_solve (bt, yt, error) : NULL;

  return x ? mT (x, error) : NULL;
}

/* whether all elements of the host @data (@count, of @dtype) are finite */
static gboolean
host_all_finite (gconstpointer data, gint64 count, gboolean f64)
{
  for (gint64 i = 0; i < count; i++)
    if (!isfinite (f64 ? ((const double *) data)[i] : ((const float *) data)[i]))
      return FALSE;
  return TRUE;
}

/* ---- qr ------------------------------------------------------------------------------- */

typedef enum { QR_REDUCED, QR_COMPLETE, QR_R } QrMode;

/* The gradient of A = Q R for a tall or square A (m ≥ n, R square): with
 * M = R gRᵀ - gQᵀ Q and copyltu (M) = tril (M) + tril (M, -1)ᵀ,
 * gA = (gQ + Q copyltu (M)) R⁻ᵀ; either of gQ, gR may be NULL. */
static GnnTensor *
qr_backward_tall (GnnTensor *gq, GnnTensor *gr, GnnTensor *q, GnnTensor *r, GError **error)
{
  g_autoptr(GnnTensor) m = NULL, lo = NULL, below = NULL, belowt = NULL, sym = NULL, qs = NULL, b = NULL, rt = NULL;

  if (gr)
    {
      g_autoptr(GnnTensor) grt = mT (gr, error);

      if (grt == NULL || !(m = gnn_tensor_matmul (r, grt, error)))
        return NULL;
    }
  if (gq)
    {
      g_autoptr(GnnTensor) gqt = mT (gq, error);
      g_autoptr(GnnTensor) p = gqt ? gnn_tensor_matmul (gqt, q, error) : NULL;

      if (p == NULL)
        return NULL;
      if (m)
        {
          GnnTensor *d = gnn_tensor_sub (m, p, 1.0, error);

          g_clear_object (&m);
          m = d;
        }
      else
        m = gnn_tensor_neg (p, error);
      if (m == NULL)
        return NULL;
    }
  if (!(lo = gnn_tensor_tril (m, 0, error)) || !(below = gnn_tensor_tril (m, -1, error)) ||
      !(belowt = mT (below, error)) || !(sym = gnn_tensor_add (lo, belowt, 1.0, error)) ||
      !(qs = gnn_tensor_matmul (q, sym, error)))
    return NULL;
  if (!(b = gq ? gnn_tensor_add (qs, gq, 1.0, error) : g_object_ref (qs)) || !(rt = mT (r, error)))
    return NULL;
  return solve_right (b, rt, error);
}

/* A = Q R. m ≥ n: qr_backward_tall. m < n: A = [X | Y], R = [U | V] with X = Q U,
 * Y = Q V: gY = Q gV and gX the tall gradient of X = Q U with gQ + Y gVᵀ for gQ. */
static gboolean
qr_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  QrMode mode = GPOINTER_TO_INT (node->ctx);
  GnnTensor *q, *r, *gq = go[0], *gr = go[1];
  GnnTensorPrivate *pq, *pr;
  gint64 m, n;
  guint nd;

  if ((gq == NULL && gr == NULL) || !NEEDS (0))
    return TRUE;
  if (mode == QR_R)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                   "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
      return FALSE;
    }
  if (!(q = gnn_node_saved (node, 0, error)) || !(r = gnn_node_saved (node, 1, error)))
    return FALSE;
  pq = gnn_tensor_priv (q);
  pr = gnn_tensor_priv (r);
  nd = pr->ndim;
  m = pq->shape[nd - 2];
  n = pr->shape[nd - 1];
  if (mode == QR_COMPLETE && m > n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
      return FALSE;
    }
  if (m >= n)
    return (gi[0] = qr_backward_tall (gq, gr, q, r, error)) != NULL;
  else
    {
      g_autoptr(GnnTensor) u = NULL, v = NULL, gu = NULL, gv = NULL, y = NULL, gq2 = NULL, gx = NULL, gy = NULL;
      GnnTensor *pair[2];

      if (!(u = gnn_tensor_narrow (r, (int) nd - 1, 0, m, error)) ||
          !(v = gnn_tensor_narrow (r, (int) nd - 1, m, n - m, error)))
        return FALSE;
      if (gr)
        {
          g_autoptr(GnnTensor) gvt = NULL, ygv = NULL;

          if (!(gu = gnn_tensor_narrow (gr, (int) nd - 1, 0, m, error)) ||
              !(gv = gnn_tensor_narrow (gr, (int) nd - 1, m, n - m, error)) || !(y = gnn_tensor_matmul (q, v, error)) ||
              !(gvt = mT (gv, error)) || !(ygv = gnn_tensor_matmul (y, gvt, error)))
            return FALSE;
          gq2 = gq ? gnn_tensor_add (ygv, gq, 1.0, error) : g_object_ref (ygv);
          if (gq2 == NULL || !(gy = gnn_tensor_matmul (q, gv, error)))
            return FALSE;
        }
      else
        {
          gint64 shape[GNN_MAX_DIMS];

          gq2 = g_object_ref (gq);
          matrix_shape (pr->shape, nd, m, n - m, shape);
          if (!(gy = gnn_tensor_new_zeros_like (r, pr->dtype, nd, shape, error)))
            return FALSE;
        }
      if (!(gx = qr_backward_tall (gq2, gu, q, u, error)))
        return FALSE;
      pair[0] = gx;
      pair[1] = gy;
      return (gi[0] = gnn_cat (pair, 2, (int) nd - 1, error)) != NULL;
    }
}

/**
 * gnn_linalg_qr:
 * @A: a batch of matrices (…, m, n), float32 or float64
 * @mode: (nullable): "reduced" (the default, for %NULL): Q (…, m, k) and R (…, k, n) with
 *   k = min (m, n); "complete": Q (…, m, m) and R (…, m, n); "r": R (…, k, n) only, Q an empty
 *   tensor
 * @R: (out) (transfer full) (optional): the upper triangular factor R
 * @error: return location for a #GError
 *
 * The QR factorization A = Q R of each matrix (`torch.linalg.qr`), Q with orthonormal
 * columns and R upper triangular, through LAPACK's geqrf and orgqr, so that the signs of the
 * diagonal of R are LAPACK's, as torch's are. The gradient is written with ops for
 * "reduced", and for "complete" when m ≤ n; backward through "r", or through "complete" with
 * m > n, is an error, as in torch. Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): Q, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_qr (GnnTensor *A, const char *mode, GnnTensor **R, GError **error)
{
  const char *op = "linalg.qr";
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL, q = NULL, r = NULL;
  g_autoptr(GnnTensor) tq = NULL, tr = NULL;
  GnnTensor *outs[2];
  gint64 batch, m, n, k, rr, qc, shape[GNN_MAX_DIMS];
  QrMode qm;
  gsize es;
  guint nd;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  if (mode == NULL || strcmp (mode, "reduced") == 0)
    qm = QR_REDUCED;
  else if (strcmp (mode, "complete") == 0)
    qm = QR_COMPLETE;
  else if (strcmp (mode, "r") == 0)
    qm = QR_R;
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or 'complete'",
                   mode);
      return NULL;
    }
  if (!check_matrices (op, A, FALSE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  nd = pa->ndim;
  m = pa->shape[nd - 2];
  n = pa->shape[nd - 1];
  k = MIN (m, n);
  rr = qm == QR_COMPLETE ? m : k;
  qc = qm == QR_COMPLETE ? m : k;
  batch = gnn_shape_numel (nd - 2, pa->shape);
  es = gnn_dtype_get_size (pa->dtype);
  if (!(h = host_elements (A, error)))
    return NULL;
  r = g_malloc0 (MAX (batch * rr * n, 1) * es);
  q = qm == QR_R ? NULL : g_malloc0 (MAX (batch * m * qc, 1) * es);
  if (IS_F64 (A))
    qr_f64 (h, q, r, batch, (int) m, (int) n, qm == QR_COMPLETE);
  else
    qr_f32 (h, q, r, batch, (int) m, (int) n, qm == QR_COMPLETE);
  matrix_shape (pa->shape, nd, rr, n, shape);
  if (!(tr = tensor_from_host (A, nd, shape, r, error)))
    return NULL;
  if (qm == QR_R)
    {
      gint64 zero = 0;

      tq = tensor_from_host (A, 1, &zero, NULL, error);
    }
  else
    {
      matrix_shape (pa->shape, nd, m, qc, shape);
      tq = tensor_from_host (A, nd, shape, q, error);
    }
  if (tq == NULL)
    return NULL;
  outs[0] = tq;
  outs[1] = tr;
  if ((node = gnn_autograd_record ("LinalgQrBackward0", qr_backward, &A, 1, outs, 2)))
    {
      gnn_node_set_ctx (node, GINT_TO_POINTER (qm), NULL);
      gnn_node_save (node, tq);
      gnn_node_save (node, tr);
    }
  if (R)
    *R = g_steal_pointer (&tr);
  return g_steal_pointer (&tq);
}

/* ---- eigh, eigvalsh ------------------------------------------------------------------- */

/* A = V diag (L) Vᵀ: with S = (Vᵀ gV - gVᵀ V) / 2 and E_ij = L_j - L_i off the diagonal (1 on
 * it), gA = V (S / E + diag (gL)) Vᵀ; repeated eigenvalues divide by zero, as in torch */
static gboolean
eigh_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *gl = go[0], *gv = go[1], *l, *v;
  g_autoptr(GnnTensor) inner = NULL, vt = NULL, p = NULL;

  if ((gl == NULL && gv == NULL) || !NEEDS (0))
    return TRUE;
  if (!(l = gnn_node_saved (node, 0, error)) || !(v = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (gv)
    {
      g_autoptr(GnnTensor) vtgv = NULL, t = NULL, d = NULL, s = NULL, row = NULL, col = NULL, e0 = NULL;
      g_autoptr(GnnTensor) eye = NULL, e = NULL;
      GnnTensorPrivate *pl = gnn_tensor_priv (l);

      if (!(vt = mT (v, error)) || !(vtgv = gnn_tensor_matmul (vt, gv, error)) || !(t = mT (vtgv, error)) ||
          !(d = gnn_tensor_sub (vtgv, t, 1.0, error)) || !(s = gnn_tensor_mul_scalar (d, 0.5, error)) ||
          !(row = gnn_tensor_unsqueeze (l, -2, error)) || !(col = gnn_tensor_unsqueeze (l, -1, error)) ||
          !(e0 = gnn_tensor_sub (row, col, 1.0, error)) ||
          !(eye = eye_like (l, pl->shape[pl->ndim - 1], error)) || !(e = gnn_tensor_add (e0, eye, 1.0, error)) ||
          !(inner = gnn_tensor_div (s, e, error)))
        return FALSE;
      if (gl && !add_diag_embed (&inner, gl, error))
        return FALSE;
    }
  else if (!(vt = mT (v, error)) || !(inner = gnn_tensor_diag_embed (gl, 0, -2, -1, error)))
    return FALSE;
  if (!(p = gnn_tensor_matmul (v, inner, error)))
    return FALSE;
  return (gi[0] = gnn_tensor_matmul (p, vt, error)) != NULL;
}

static GnnTensor *
eigh_like (const char *op, GnnTensor *A, gboolean upper, GnnTensor **eigenvectors, GError **error)
{
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL, w = NULL;
  g_autoptr(GnnTensor) tl = NULL, tv = NULL;
  GnnTensor *outs[2];
  gboolean vectors = eigenvectors != NULL || gnn_autograd_needed (&A, 1);
  gint64 batch, bad;
  int n, code = 0;
  GnnNode *node;

  if (!check_matrices (op, A, TRUE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  n = (int) pa->shape[pa->ndim - 1];
  batch = gnn_shape_numel (pa->ndim - 2, pa->shape);
  if (!(h = host_elements (A, error)))
    return NULL;
  w = g_malloc0 (MAX (batch * n, 1) * gnn_dtype_get_size (pa->dtype));
  bad = IS_F64 (A) ? eigh_f64 (h, w, batch, n, upper, vectors, &code)
                   : eigh_f32 (h, w, batch, n, upper, vectors, &code);
  if (bad >= 0)
    {
      g_autofree char *where = pa->ndim > 2 ? batch_element (bad) : g_strdup ("");

      g_set_error (error, GNN_ERROR, GNN_ERROR_LINALG,
                   "%s: %sThe algorithm failed to converge because the input matrix is ill-conditioned or has too "
                   "many repeated eigenvalues (error code: %d).", op, where, code);
      return NULL;
    }
  if (!(tl = tensor_from_host (A, pa->ndim - 1, pa->shape, w, error)) ||
      (vectors && !(tv = tensor_from_host (A, pa->ndim, pa->shape, h, error))))
    return NULL;
  outs[0] = tl;
  outs[1] = tv;
  /* eigvalsh too records both outputs, so that the eigenvectors its gradient reads carry
   * their history into a double backward */
  if (vectors && (node = gnn_autograd_record ("LinalgEighBackward0", eigh_backward, &A, 1, outs, 2)))
    {
      gnn_node_save (node, tl);
      gnn_node_save (node, tv);
    }
  if (eigenvectors)
    *eigenvectors = g_steal_pointer (&tv);
  return g_steal_pointer (&tl);
}

/**
 * gnn_linalg_eigh:
 * @A: a batch of symmetric matrices (…, n, n), float32 or float64
 * @upper: whether to read the upper triangle of @A (torch's `UPLO='U'`) rather than the lower
 * @eigenvectors: (out) (transfer full) (optional): the orthonormal eigenvectors (…, n, n), one a
 *   column, in the order of the eigenvalues
 * @error: return location for a #GError
 *
 * The eigenvalues and eigenvectors of each symmetric matrix (`torch.linalg.eigh`), through
 * LAPACK's syevd, reading one triangle of @A only. Each eigenvector is determined up to its
 * sign. The gradient is written with ops; it is infinite or NaN where eigenvalues repeat, as
 * in torch. An iteration that does not converge is an error. Runs on the host, as
 * gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the eigenvalues (…, n) in ascending order, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_eigh (GnnTensor *A, gboolean upper, GnnTensor **eigenvectors, GError **error)
{
  g_autoptr(GnnTensor) v = NULL;
  GnnTensor *l;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  l = eigh_like ("linalg.eigh", A, upper, &v, error);
  if (l && eigenvectors)
    *eigenvectors = g_steal_pointer (&v);
  return l;
}

/**
 * gnn_linalg_eigvalsh:
 * @A: a batch of symmetric matrices (…, n, n), float32 or float64
 * @upper: whether to read the upper triangle of @A (torch's `UPLO='U'`) rather than the lower
 * @error: return location for a #GError
 *
 * The eigenvalues of each symmetric matrix (`torch.linalg.eigvalsh`), through LAPACK's syevd.
 * The eigenvectors are computed too when a gradient is to be recorded: it is V diag (gL) Vᵀ.
 * Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the eigenvalues (…, n) in ascending order, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_eigvalsh (GnnTensor *A, gboolean upper, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  return eigh_like ("linalg.eigvalsh", A, upper, NULL, error);
}

/* ---- svd, svdvals --------------------------------------------------------------------- */

/* A = U diag (S) Vh (full_matrices: the first k columns of U and rows of Vh taken). With
 * V = Vhᵀ, skew (X) = X - Xᵀ and E_jk = S_k² - S_j² off the diagonal (1 on it):
 *   G = (skew (Uᵀ gU) S + S skew (Vᵀ gV)) / E + diag (gS),
 * gA = U G Vh, plus (I - U Uᵀ) gU S⁻¹ Vh when m > k and U S⁻¹ gVh (I - V Vᵀ) when n > k. Only
 * gS: gA = U diag (gS) Vh. Repeated singular values divide by zero, as in torch. */
static gboolean
svd_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *gs = go[1], *gu0 = go[0], *gvh0 = go[2];
  GnnTensor *u0, *s, *vh0;
  GnnTensorPrivate *pu, *pv;
  g_autoptr(GnnTensor) u = NULL, vh = NULL, gu = NULL, gvh = NULL, g = NULL, srow = NULL, scol = NULL;
  gint64 m, n, k;
  guint nd;

  if ((gs == NULL && gu0 == NULL && gvh0 == NULL) || !NEEDS (0))
    return TRUE;
  if (!(u0 = gnn_node_saved (node, 0, error)) || !(s = gnn_node_saved (node, 1, error)) ||
      !(vh0 = gnn_node_saved (node, 2, error)))
    return FALSE;
  pu = gnn_tensor_priv (u0);
  pv = gnn_tensor_priv (vh0);
  nd = pu->ndim;
  m = pu->shape[nd - 2];
  n = pv->shape[nd - 1];
  k = gnn_tensor_priv (s)->shape[nd - 2];
  if (!(u = gnn_tensor_narrow (u0, (int) nd - 1, 0, k, error)) || !(vh = gnn_tensor_narrow (vh0, (int) nd - 2, 0, k, error)))
    return FALSE;
  if ((gu0 && !(gu = gnn_tensor_narrow (gu0, (int) nd - 1, 0, k, error))) ||
      (gvh0 && !(gvh = gnn_tensor_narrow (gvh0, (int) nd - 2, 0, k, error))))
    return FALSE;
  if (!(srow = gnn_tensor_unsqueeze (s, -2, error)) || !(scol = gnn_tensor_unsqueeze (s, -1, error)))
    return FALSE;
  if (gu == NULL && gvh == NULL)
    {
      g_autoptr(GnnTensor) gsr = gnn_tensor_unsqueeze (gs, -2, error);
      g_autoptr(GnnTensor) ug = gsr ? gnn_tensor_mul (u, gsr, error) : NULL;

      return ug && (gi[0] = gnn_tensor_matmul (ug, vh, error)) != NULL;
    }
  {
    g_autoptr(GnnTensor) s2r = NULL, s2c = NULL, e0 = NULL, eye = NULL, e = NULL, num = NULL;

    if (gu)
      {
        g_autoptr(GnnTensor) ut = mT (u, error);
        g_autoptr(GnnTensor) x = ut ? gnn_tensor_matmul (ut, gu, error) : NULL;
        g_autoptr(GnnTensor) xt = x ? mT (x, error) : NULL;
        g_autoptr(GnnTensor) sk = xt ? gnn_tensor_sub (x, xt, 1.0, error) : NULL;

        if (sk == NULL || !(num = gnn_tensor_mul (sk, srow, error)))
          return FALSE;
      }
    if (gvh)
      {
        /* Vᵀ gV = Vh gVhᵀ */
        g_autoptr(GnnTensor) gv = mT (gvh, error);
        g_autoptr(GnnTensor) x = gv ? gnn_tensor_matmul (vh, gv, error) : NULL;
        g_autoptr(GnnTensor) xt = x ? mT (x, error) : NULL;
        g_autoptr(GnnTensor) sk = xt ? gnn_tensor_sub (x, xt, 1.0, error) : NULL;
        g_autoptr(GnnTensor) t = sk ? gnn_tensor_mul (scol, sk, error) : NULL;
        GnnTensor *sum;

        if (t == NULL)
          return FALSE;
        sum = num ? gnn_tensor_add (num, t, 1.0, error) : g_object_ref (t);
        g_clear_object (&num);
        if (!(num = sum))
          return FALSE;
      }
    if (!(s2r = gnn_tensor_mul (srow, srow, error)) || !(s2c = gnn_tensor_mul (scol, scol, error)) ||
        !(e0 = gnn_tensor_sub (s2r, s2c, 1.0, error)) || !(eye = eye_like (s, k, error)) ||
        !(e = gnn_tensor_add (e0, eye, 1.0, error)) || !(g = gnn_tensor_div (num, e, error)))
      return FALSE;
  }
  if (gs && !add_diag_embed (&g, gs, error))
    return FALSE;
  if (m > k && gu)
    {
      g_autoptr(GnnTensor) ug = NULL, gusinv = NULL, ut = NULL, p = NULL, up = NULL, a1 = NULL, a2 = NULL;

      if (!(ug = gnn_tensor_matmul (u, g, error)) || !(gusinv = gnn_tensor_div (gu, srow, error)) ||
          !(ut = mT (u, error)) || !(p = gnn_tensor_matmul (ut, gusinv, error)) ||
          !(up = gnn_tensor_matmul (u, p, error)) || !(a1 = gnn_tensor_add (ug, gusinv, 1.0, error)) ||
          !(a2 = gnn_tensor_sub (a1, up, 1.0, error)))
        return FALSE;
      return (gi[0] = gnn_tensor_matmul (a2, vh, error)) != NULL;
    }
  if (n > k && gvh)
    {
      g_autoptr(GnnTensor) gv2 = NULL, sinvgvh = NULL, v = NULL, p = NULL, pv2 = NULL, a1 = NULL, a2 = NULL;

      if (!(gv2 = gnn_tensor_matmul (g, vh, error)) || !(sinvgvh = gnn_tensor_div (gvh, scol, error)) ||
          !(v = mT (vh, error)) || !(p = gnn_tensor_matmul (sinvgvh, v, error)) ||
          !(pv2 = gnn_tensor_matmul (p, vh, error)) || !(a1 = gnn_tensor_add (gv2, sinvgvh, 1.0, error)) ||
          !(a2 = gnn_tensor_sub (a1, pv2, 1.0, error)))
        return FALSE;
      return (gi[0] = gnn_tensor_matmul (u, a2, error)) != NULL;
    }
  {
    g_autoptr(GnnTensor) ug = gnn_tensor_matmul (u, g, error);

    return ug && (gi[0] = gnn_tensor_matmul (ug, vh, error)) != NULL;
  }
}

/* the SVD of @A: S, and U and Vh when @u is not NULL or a gradient is recorded */
static GnnTensor *
svd_like (const char *op, GnnTensor *A, gboolean full, GnnTensor **u_out, GnnTensor **vh_out, GError **error)
{
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL, s = NULL, u = NULL, vh = NULL;
  g_autoptr(GnnTensor) ts = NULL, tu = NULL, tvh = NULL;
  gboolean vals = u_out == NULL, vectors = !vals || gnn_autograd_needed (&A, 1);
  gint64 batch, m, n, k, uc, vr, bad, shape[GNN_MAX_DIMS];
  int code = 0;
  gsize es;
  guint nd;
  GnnNode *node;

  if (!check_matrices (op, A, FALSE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  nd = pa->ndim;
  m = pa->shape[nd - 2];
  n = pa->shape[nd - 1];
  k = MIN (m, n);
  if (vals)
    full = FALSE;
  uc = full ? m : k;
  vr = full ? n : k;
  batch = gnn_shape_numel (nd - 2, pa->shape);
  es = gnn_dtype_get_size (pa->dtype);
  if (!(h = host_elements (A, error)))
    return NULL;
  if (!host_all_finite (h, batch * m * n, IS_F64 (A)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_LINALG,
                   "%s: The algorithm failed to converge because the input matrix contained non-finite values.", op);
      return NULL;
    }
  s = g_malloc0 (MAX (batch * k, 1) * es);
  if (vectors)
    {
      u = g_malloc0 (MAX (batch * m * uc, 1) * es);
      vh = g_malloc0 (MAX (batch * vr * n, 1) * es);
    }
  bad = IS_F64 (A) ? svd_f64 (h, s, u, vh, batch, (int) m, (int) n, full, &code)
                   : svd_f32 (h, s, u, vh, batch, (int) m, (int) n, full, &code);
  if (bad >= 0)
    {
      g_autofree char *where = nd > 2 ? batch_element (bad) : g_strdup ("");

      g_set_error (error, GNN_ERROR, GNN_ERROR_LINALG,
                   "%s: %sThe algorithm failed to converge because the input matrix is ill-conditioned or has too "
                   "many repeated singular values (error code: %d).", op, where, code);
      return NULL;
    }
  matrix_shape (pa->shape, nd, k, -1, shape);
  if (!(ts = tensor_from_host (A, nd - 1, shape, s, error)))
    return NULL;
  if (vectors)
    {
      matrix_shape (pa->shape, nd, m, uc, shape);
      if (!(tu = tensor_from_host (A, nd, shape, u, error)))
        return NULL;
      matrix_shape (pa->shape, nd, vr, n, shape);
      if (!(tvh = tensor_from_host (A, nd, shape, vh, error)))
        return NULL;
    }
  if (vectors)
    {
      GnnTensor *outs[3] = { tu, ts, tvh };

      /* svdvals too records the three outputs, so that the vectors its gradient reads carry
       * their history into a double backward */
      if ((node = gnn_autograd_record ("LinalgSvdBackward0", svd_backward, &A, 1, outs, 3)))
        {
          gnn_node_save (node, tu);
          gnn_node_save (node, ts);
          gnn_node_save (node, tvh);
        }
    }
  if (u_out)
    *u_out = g_steal_pointer (&tu);
  if (vh_out)
    *vh_out = g_steal_pointer (&tvh);
  return g_steal_pointer (&ts);
}

/**
 * gnn_linalg_svd:
 * @A: a batch of matrices (…, m, n), float32 or float64
 * @full_matrices: whether U is (…, m, m) and Vh (…, n, n) rather than (…, m, k) and
 *   (…, k, n), k = min (m, n)
 * @S: (out) (transfer full) (optional): the singular values (…, k), descending
 * @Vh: (out) (transfer full) (optional): the right singular vectors, one a row
 * @error: return location for a #GError
 *
 * The singular value decomposition A = U diag (S) Vh of each matrix (`torch.linalg.svd`),
 * through LAPACK's gesdd (torch's default driver on the CPU). Each pair of singular vectors is
 * determined up to its sign. The gradient is written with ops (with @full_matrices, of the
 * first k columns of U and rows of Vh, as torch's); it is infinite or NaN where singular values
 * repeat, as in torch. A non-finite input is an error. Runs on the host, as gnn_linalg_solve()
 * does.
 *
 * Returns: (transfer full): U, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_svd (GnnTensor *A, gboolean full_matrices, GnnTensor **S, GnnTensor **Vh, GError **error)
{
  g_autoptr(GnnTensor) u = NULL, vh = NULL, s = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  if (!(s = svd_like ("linalg.svd", A, full_matrices, &u, &vh, error)))
    return NULL;
  if (S)
    *S = g_steal_pointer (&s);
  if (Vh)
    *Vh = g_steal_pointer (&vh);
  return g_steal_pointer (&u);
}

/**
 * gnn_linalg_svdvals:
 * @A: a batch of matrices (…, m, n), float32 or float64
 * @error: return location for a #GError
 *
 * The singular values of each matrix (`torch.linalg.svdvals`), through LAPACK's gesdd. The
 * singular vectors are computed too when a gradient is to be recorded: it is U diag (gS) Vh.
 * Runs on the host, as gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the singular values (…, min (m, n)), descending, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_svdvals (GnnTensor *A, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  return svd_like ("linalg.svdvals", A, FALSE, NULL, NULL, error);
}

/* ---- lu_factor ------------------------------------------------------------------------ */

/* The permutation matrices P (batch, m, m) with A = P L U, from getrf's 1-based row swaps
 * piv (batch, k) of @like's dtype on its device: the swaps applied in order to the rows
 * 0 … m-1 give perm, with (Pᵀ A)[i] = A[perm[i]], so P[perm[i], i] = 1. */
static GnnTensor *
permutations (GnnTensor *like, const int *piv, gint64 batch, gint64 m, gint64 k, guint ndim, const gint64 *shape,
              GError **error)
{
  g_autofree double *p = g_new0 (double, MAX (batch * m * m, 1));
  g_autofree gint64 *perm = g_new (gint64, MAX (m, 1));
  g_autoptr(GnnTensor) host = NULL, typed = NULL;
  gint64 pshape[GNN_MAX_DIMS];

  for (gint64 b = 0; b < batch; b++)
    {
      for (gint64 i = 0; i < m; i++)
        perm[i] = i;
      for (gint64 i = 0; i < k; i++)
        {
          gint64 j = piv[b * k + i] - 1, t = perm[i];

          perm[i] = perm[j];
          perm[j] = t;
        }
      for (gint64 i = 0; i < m; i++)
        p[(b * m + perm[i]) * m + i] = 1;
    }
  matrix_shape (shape, ndim, m, m, pshape);
  if (!(host = gnn_tensor_new_from_doubles (p, batch * m * m, pshape, ndim, error)) ||
      !(typed = gnn_tensor_cast (host, gnn_tensor_priv (like)->dtype, error)))
    return NULL;
  return gnn_tensor_to_device_of (typed, like, error);
}

/* A = P L U (square): with φ = tril (Lᵀ gL, -1) + triu (gU Uᵀ), gL = tril (gLU, -1) and
 * gU = triu (gLU), gA = P L⁻ᵀ φ U⁻ᵀ; L and U are read from the saved LU, so that this
 * differentiates again */
static gboolean
lu_factor_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *lu, *p = node->ctx;
  GnnTensorPrivate *pl;
  g_autoptr(GnnTensor) l0 = NULL, eye = NULL, l = NULL, u = NULL, gl = NULL, gu = NULL, lt = NULL, ut = NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL, pa = NULL, pb = NULL, phi = NULL, x = NULL, y = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(lu = gnn_node_saved (node, 0, error)))
    return FALSE;
  pl = gnn_tensor_priv (lu);
  if (!(l0 = gnn_tensor_tril (lu, -1, error)) || !(eye = eye_like (lu, pl->shape[pl->ndim - 1], error)) ||
      !(l = gnn_tensor_add (l0, eye, 1.0, error)) || !(u = gnn_tensor_triu (lu, 0, error)) ||
      !(gl = gnn_tensor_tril (go[0], -1, error)) || !(gu = gnn_tensor_triu (go[0], 0, error)) ||
      !(lt = mT (l, error)) || !(ut = mT (u, error)) || !(a = gnn_tensor_matmul (lt, gl, error)) ||
      !(pa = gnn_tensor_tril (a, -1, error)) || !(b = gnn_tensor_matmul (gu, ut, error)) ||
      !(pb = gnn_tensor_triu (b, 0, error)) || !(phi = gnn_tensor_add (pa, pb, 1.0, error)) ||
      !(x = gnn_linalg_solve (lt, phi, error)) || !(y = solve_right (x, ut, error)))
    return FALSE;
  return (gi[0] = gnn_tensor_matmul (p, y, error)) != NULL;
}

/**
 * gnn_linalg_lu_factor_ex:
 * @A: a batch of matrices (…, m, n), float32 or float64
 * @pivots: (out) (transfer full) (optional): the 1-based row interchanges (…, min (m, n)),
 *   int32, as LAPACK's getrf gives them (row i was swapped with row pivots[i] - 1)
 * @info: (out) (transfer full) (optional): getrf's info for each matrix (…), int32: 0, or
 *   i > 0 when U[i-1, i-1] is exactly zero
 * @error: return location for a #GError
 *
 * The LU factorization with partial pivoting A = P L U of each matrix
 * (`torch.linalg.lu_factor_ex`), through LAPACK's getrf: L (unit lower triangular, its
 * diagonal implied) and U packed in one matrix. A singular matrix is no error: its @info says
 * so. The gradient (square matrices) is written with ops. Runs on the host, as
 * gnn_linalg_solve() does.
 *
 * Returns: (transfer full): the packed factors LU, of @A's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_lu_factor_ex (GnnTensor *A, GnnTensor **pivots, GnnTensor **info, GError **error)
{
  const char *op = "linalg.lu_factor_ex";
  GnnTensorPrivate *pa;
  g_autofree gpointer h = NULL;
  g_autofree int *piv = NULL, *infos = NULL;
  g_autoptr(GnnTensor) tlu = NULL, tpiv = NULL, tinfo = NULL;
  gint64 batch, m, n, k, shape[GNN_MAX_DIMS];
  guint nd;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A), NULL);
  if (!check_matrices (op, A, FALSE, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  nd = pa->ndim;
  m = pa->shape[nd - 2];
  n = pa->shape[nd - 1];
  k = MIN (m, n);
  batch = gnn_shape_numel (nd - 2, pa->shape);
  if (!(h = host_elements (A, error)))
    return NULL;
  piv = g_new0 (int, MAX (batch * k, 1));
  infos = g_new0 (int, MAX (batch, 1));
  if (IS_F64 (A))
    lu_factor_f64 (h, piv, infos, batch, (int) m, (int) n);
  else
    lu_factor_f32 (h, piv, infos, batch, (int) m, (int) n);
  matrix_shape (pa->shape, nd, k, -1, shape);
  if (!(tlu = tensor_from_host (A, nd, pa->shape, h, error)) ||
      !(tpiv = tensor_from_host_typed (A, GNN_DTYPE_INT32, nd - 1, shape, piv, error)) ||
      !(tinfo = tensor_from_host_typed (A, GNN_DTYPE_INT32, nd - 2, pa->shape, infos, error)))
    return NULL;
  if (m == n && gnn_autograd_needed (&A, 1))
    {
      GnnTensor *p = permutations (A, piv, batch, m, k, nd, pa->shape, error);

      if (p == NULL)
        return NULL;
      if ((node = gnn_autograd_record ("LinalgLuFactorExBackward0", lu_factor_backward, &A, 1, &tlu, 1)))
        {
          gnn_node_set_ctx (node, p, g_object_unref);
          gnn_node_save (node, tlu);
        }
      else
        g_object_unref (p);
    }
  else if (gnn_autograd_needed (&A, 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: the gradient of the LU factorization of a matrix that is not square (%" G_GINT64_FORMAT
                   " by %" G_GINT64_FORMAT ") is not implemented", op, m, n);
      return NULL;
    }
  if (pivots)
    *pivots = g_steal_pointer (&tpiv);
  if (info)
    *info = g_steal_pointer (&tinfo);
  return g_steal_pointer (&tlu);
}

/* ---- solve_triangular ----------------------------------------------------------------- */

typedef struct {
  gboolean upper, unit;
} TriangularCtx;

/* X = T⁻¹ B, T the triangle of A: gB = T⁻ᵀ gX (the solve with Aᵀ, whose triangle is the other
 * one), gA = -gB Xᵀ on T's triangle (without the diagonal when it is taken as ones), each
 * summed to its input's shape */
static gboolean
solve_triangular_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  TriangularCtx *c = node->ctx;
  GnnTensor *a, *x;
  g_autoptr(GnnTensor) at = NULL, gb = NULL;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(x = gnn_node_saved (node, 1, error)) || !(at = mT (a, error)) ||
      !(gb = gnn_linalg_solve_triangular (at, go[0], !c->upper, c->unit, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) xt = mT (x, error);
      g_autoptr(GnnTensor) p = xt ? gnn_tensor_matmul (gb, xt, error) : NULL;
      g_autoptr(GnnTensor) n = p ? gnn_tensor_neg (p, error) : NULL;
      g_autoptr(GnnTensor) t = NULL;

      if (n == NULL)
        return FALSE;
      t = c->upper ? gnn_tensor_triu (n, c->unit ? 1 : 0, error) : gnn_tensor_tril (n, c->unit ? -1 : 0, error);
      if (t == NULL || !(gi[0] = gnn_sum_to (t, node->in_ndim[0], node->in_shape[0], error)))
        return FALSE;
    }
  if (NEEDS (1) && !(gi[1] = gnn_sum_to (gb, node->in_ndim[1], node->in_shape[1], error)))
    return FALSE;
  return TRUE;
}

/**
 * gnn_linalg_solve_triangular:
 * @A: a batch of square matrices (…, n, n), float32 or float64, of which only the triangle
 *   that @upper names is read
 * @B: the right-hand sides (…, n, k), of @A's dtype; the batch dimensions broadcast
 * @upper: whether the triangle is the upper one
 * @unitriangular: whether to take the diagonal of the triangle as ones (it is not read)
 * @error: return location for a #GError
 *
 * The solution X of T X = B for the triangle T of @A (`torch.linalg.solve_triangular` with
 * left=True), through cblas's trsm. A zero on the diagonal is no error: it gives inf or NaN,
 * as in torch. The gradient is written with ops. Runs on the host, as gnn_linalg_solve()
 * does.
 *
 * Returns: (transfer full): X (…, n, k) with the broadcast batch dimensions, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linalg_solve_triangular (GnnTensor *A, GnnTensor *B, gboolean upper, gboolean unitriangular, GError **error)
{
  const char *op = "linalg.solve_triangular";
  GnnTensorPrivate *pa, *pb;
  g_autoptr(GnnTensor) ae = NULL, be = NULL, x = NULL;
  g_autofree gpointer ha = NULL, hb = NULL;
  gint64 batch[GNN_MAX_DIMS], sb[GNN_MAX_DIMS], n, k;
  guint nbatch;
  GnnTensor *ins[2] = { A, B };
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (A) && GNN_IS_TENSOR (B), NULL);
  if (!check_matrices (op, A, TRUE, error) || !gnn_check_same_device (op, A, B, error))
    return NULL;
  pa = gnn_tensor_priv (A);
  pb = gnn_tensor_priv (B);
  if (pb->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: The input tensor B must have at least 2 dimensions.", op);
      return NULL;
    }
  if (pb->dtype != pa->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead",
                   op, gnn_dtype_get_name (pa->dtype), gnn_dtype_get_name (pb->dtype));
      return NULL;
    }
  n = pa->shape[pa->ndim - 1];
  if (!expand_solve_operands (op, A, B, n, &nbatch, batch, sb, &ae, &be, &ha, &hb, error))
    return NULL;
  k = sb[nbatch + 1];
  if (IS_F64 (A))
    solve_triangular_f64 (ha, hb, gnn_shape_numel (nbatch, batch), (int) n, (int) k, upper, unitriangular);
  else
    solve_triangular_f32 (ha, hb, gnn_shape_numel (nbatch, batch), (int) n, (int) k, upper, unitriangular);
  if (!(x = tensor_from_host (A, nbatch + 2, sb, hb, error)))
    return NULL;
  if ((node = gnn_autograd_record ("LinalgSolveTriangularBackward0", solve_triangular_backward, ins, 2, &x, 1)))
    {
      TriangularCtx *c = g_new (TriangularCtx, 1);

      c->upper = upper;
      c->unit = unitriangular;
      gnn_node_set_ctx (node, c, g_free);
      gnn_node_save (node, A);
      gnn_node_save (node, x);
    }
  return g_steal_pointer (&x);
}
