/* gnn-ops-lapack-tmpl.c: the host loops of gnn-ops-lapack.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-ops-lapack.c once per floating-point dtype, with T the element type,
 * NAME (x) the name x for that dtype (x##_f32), LAPACK (x) the LAPACK routine x of that
 * precision (sgetrf_ for LAPACK (getrf)) and GEMM its cblas gemm; not compiled on its own.
 * Every buffer holds @batch matrices in row-major order, contiguous; LAPACK reads a row-major
 * matrix as its transpose, which the comments say where it matters.
 */

/* dst[b] = src[b]ᵀ: src (batch, rows, cols) into dst (batch, cols, rows) */
static void
NAME (transpose) (const T *src, T *dst, gint64 batch, int rows, int cols)
{
  for (gint64 b = 0; b < batch; b++, src += (gint64) rows * cols, dst += (gint64) rows * cols)
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++)
        dst[(gint64) j * rows + i] = src[(gint64) i * cols + j];
}

/* a (batch, n, n), b (batch, n, k): b becomes X = A⁻¹ B, a its LU factors (gesv on the
 * transposed copies LAPACK expects). The batch element of the first singular A, or -1. */
static gint64
NAME (solve) (T *a, T *b, gint64 batch, int n, int k)
{
  int lda = MAX (n, 1), info = 0;
  g_autofree int *ipiv = g_new (int, lda);
  g_autofree T *at = g_new (T, MAX ((gint64) n * n, 1));
  g_autofree T *bt = g_new (T, MAX ((gint64) n * k, 1));

  for (gint64 i = 0; i < batch; i++)
    {
      T *ai = a + i * n * n, *bi = b + i * (gint64) n * k;

      NAME (transpose) (ai, at, 1, n, n);
      NAME (transpose) (bi, bt, 1, n, k);
      LAPACK (gesv) (&n, &k, at, &lda, ipiv, bt, &lda, &info);
      if (info != 0)
        return i;
      NAME (transpose) (bt, bi, 1, k, n);
    }
  return -1;
}

/* a (batch, n, n) becomes A⁻¹: getrf and getri of Aᵀ (what LAPACK sees) give (Aᵀ)⁻¹ =
 * (A⁻¹)ᵀ, which read back row-major is A⁻¹. torch factors a row-major matrix the same way,
 * so a singular matrix fails at the same diagonal element. The batch element of the first
 * singular A, or -1, with *@diag the order (from 1) of the zero diagonal element of its U. */
static gint64
NAME (inv) (T *a, gint64 batch, int n, int *diag)
{
  int lda = MAX (n, 1), info = 0, lwork = -1;
  g_autofree int *ipiv = g_new (int, lda);
  g_autofree T *work = NULL;
  T query = 0;

  if (n == 0)
    return -1;
  LAPACK (getri) (&n, a, &lda, ipiv, &query, &lwork, &info);
  lwork = MAX ((int) query, n);
  work = g_new (T, lwork);
  for (gint64 i = 0; i < batch; i++)
    {
      T *ai = a + i * n * n;

      LAPACK (getrf) (&n, &n, ai, &lda, ipiv, &info);
      if (info == 0)
        LAPACK (getri) (&n, ai, &lda, ipiv, work, &lwork, &info);
      if (info != 0)
        {
          *diag = info;
          return i;
        }
    }
  return -1;
}

/* The determinants of a (batch, n, n) from the LU factors of Aᵀ (det Aᵀ = det A), a
 * overwritten: each of @det (the product of U's diagonal, signed by the row swaps), @sign
 * (0 when singular) and @logabs (log |det|, -inf when singular) may be NULL. */
static void
NAME (det) (T *a, gint64 batch, int n, T *det, T *sign, T *logabs)
{
  int lda = MAX (n, 1), info = 0;
  g_autofree int *ipiv = g_new (int, lda);

  for (gint64 i = 0; i < batch; i++)
    {
      T *ai = a + i * n * n;
      T prod = 1, s = 1;
      double la = 0;
      gboolean zero = FALSE;

      if (n > 0)
        LAPACK (getrf) (&n, &n, ai, &lda, ipiv, &info);
      for (int j = 0; j < n; j++)
        {
          T d = ai[(gint64) j * n + j];

          prod *= d;
          if (ipiv[j] != j + 1)
            {
              prod = -prod;
              s = -s;
            }
          if (d < 0)
            s = -s;
          zero |= d == 0;
          la += log (fabs ((double) d));
        }
      if (det)
        det[i] = prod;
      if (sign)
        sign[i] = zero ? 0 : s;
      if (logabs)
        logabs[i] = zero ? (T) -INFINITY : (T) la;
    }
}
