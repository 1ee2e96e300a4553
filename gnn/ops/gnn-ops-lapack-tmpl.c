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

/* out = exp (a) for a (batch, n, n), by scaling and squaring with the [13/13] Padé
 * approximant (Higham, "The scaling and squaring method for the matrix exponential
 * revisited", 2005): A / 2^s has 1-norm at most θ13, exp (A / 2^s) ≈ (V - U)⁻¹ (V + U), then
 * s squarings. U and V are polynomials of A, so they commute, and the solve of the transposed
 * matrices LAPACK sees gives the row-major result directly. */
static void
NAME (matrix_exp) (const T *a, T *out, gint64 batch, int n)
{
  static const double b[14] = { 64764752532480000., 32382376266240000., 7771770303897600.,
                                1187353796428800., 129060195264000., 10559470521600., 670442572800.,
                                33522128640., 1323241920., 40840800., 960960., 16380., 182., 1. };
  const double theta13 = 5.371920351148152;
  gint64 nn = (gint64) n * n;
  int lda = MAX (n, 1), info = 0;
  g_autofree int *ipiv = g_new (int, lda);
  g_autofree T *work = g_new (T, MAX (7 * nn, 1));
  T *A = work, *A2 = A + nn, *A4 = A2 + nn, *A6 = A4 + nn, *U = A6 + nn, *V = U + nn, *W = V + nn;

  for (gint64 i = 0; i < batch; i++)
    {
      const T *ai = a + i * nn;
      T *oi = out + i * nn;
      double norm = 0;
      int s = 0;
      T scale;

      for (int c = 0; c < n; c++)
        {
          double col = 0;

          for (int r = 0; r < n; r++)
            col += fabs ((double) ai[(gint64) r * n + c]);
          norm = MAX (norm, col);
        }
      if (norm > theta13)
        s = (int) ceil (log2 (norm / theta13));
      scale = (T) ldexp (1.0, -s);
      for (gint64 j = 0; j < nn; j++)
        A[j] = ai[j] * scale;
      GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A, lda, A, lda, 0, A2, lda);
      GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A2, lda, A2, lda, 0, A4, lda);
      GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A4, lda, A2, lda, 0, A6, lda);
      /* W = b13 A6 + b11 A4 + b9 A2, U = A (A6 W + b7 A6 + b5 A4 + b3 A2 + b1 I) */
      for (gint64 j = 0; j < nn; j++)
        {
          W[j] = (T) (b[13] * A6[j] + b[11] * A4[j] + b[9] * A2[j]);
          V[j] = (T) (b[7] * A6[j] + b[5] * A4[j] + b[3] * A2[j] + (j % (n + 1) == 0 ? b[1] : 0));
        }
      GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A6, lda, W, lda, 1, V, lda);
      GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A, lda, V, lda, 0, U, lda);
      /* V = A6 (b12 A6 + b10 A4 + b8 A2) + b6 A6 + b4 A4 + b2 A2 + b0 I */
      for (gint64 j = 0; j < nn; j++)
        {
          W[j] = (T) (b[12] * A6[j] + b[10] * A4[j] + b[8] * A2[j]);
          V[j] = (T) (b[6] * A6[j] + b[4] * A4[j] + b[2] * A2[j] + (j % (n + 1) == 0 ? b[0] : 0));
        }
      GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A6, lda, W, lda, 1, V, lda);
      /* (V - U) R = V + U; V - U is never singular for a norm within θ13 */
      for (gint64 j = 0; j < nn; j++)
        {
          T p = V[j] + U[j];

          A[j] = V[j] - U[j];
          oi[j] = p;
        }
      if (n > 0)
        LAPACK (gesv) (&n, &n, A, &lda, ipiv, oi, &lda, &info);
      for (int q = 0; q < s; q++)
        {
          GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, oi, lda, oi, lda, 0, W, lda);
          memcpy (oi, W, sizeof (T) * nn);
        }
    }
}

/* out (batch, m, n) = the first n columns of H_1 ⋯ H_k, H_i = I - tau_i v_i v_iᵀ with v_i the
 * i-th column of a (batch, m, n) below the diagonal and 1 on it (orgqr on the column-major
 * copy); tau is (batch, k). */
static void
NAME (householder_product) (const T *a, const T *tau, T *out, gint64 batch, int m, int n, int k)
{
  int lda = MAX (m, 1), info = 0, lwork = -1;
  g_autofree T *ac = g_new (T, MAX ((gint64) m * n, 1));
  g_autofree T *work = NULL;
  T query = 0;

  if (m == 0 || n == 0)
    return;
  LAPACK (orgqr) (&m, &n, &k, ac, &lda, tau, &query, &lwork, &info);
  lwork = MAX ((int) query, MAX (n, 1));
  work = g_new (T, lwork);
  for (gint64 i = 0; i < batch; i++)
    {
      NAME (transpose) (a + i * m * n, ac, 1, m, n);
      LAPACK (orgqr) (&m, &n, &k, ac, &lda, tau + i * k, work, &lwork, &info);
      NAME (transpose) (ac, out + i * m * n, 1, n, m);
    }
}

/* a (batch, n, n) becomes its Cholesky factor, L (A = L Lᵀ, from A's lower triangle) or U
 * (A = Uᵀ U, from the upper one), the other triangle zero: potrf of the transposed matrix
 * LAPACK sees, with the other triangle. The batch element of the first matrix that is not
 * positive-definite, or -1, with *@order the order of its failing leading minor. */
static gint64
NAME (cholesky) (T *a, gint64 batch, int n, gboolean upper, int *order)
{
  int lda = MAX (n, 1), info = 0;

  for (gint64 i = 0; i < batch; i++)
    {
      T *ai = a + i * n * n;

      if (n > 0)
        LAPACK (potrf) (upper ? "L" : "U", &n, ai, &lda, &info, 1);
      if (info != 0)
        {
          *order = info;
          return i;
        }
      for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
          if (upper ? c < r : c > r)
            ai[(gint64) r * n + c] = 0;
    }
  return -1;
}

/* The QR factorization of a (batch, m, n), k = min (m, n), through geqrf and orgqr on the
 * column-major copy: r (batch, rr, n) gets R (rr = k, or m for @complete), q (batch, m, qc)
 * Q when not NULL (qc = k, or m for @complete). */
static void
NAME (qr) (const T *a, T *q, T *r, gint64 batch, int m, int n, gboolean complete)
{
  int k = MIN (m, n), rr = complete ? m : k, qc = complete ? m : k, lda = MAX (m, 1), info = 0, lwork = -1;
  int cols = MAX (n, qc);
  g_autofree T *ac = g_new0 (T, MAX ((gint64) m * cols, 1));
  g_autofree T *tau = g_new0 (T, MAX (k, 1));
  g_autofree T *work = NULL;
  T query = 0, query2 = 0;

  if (m == 0 || n == 0)
    {
      /* R is empty or zero; Q is the identity of its m columns (none when k = 0 and reduced) */
      memset (r, 0, sizeof (T) * batch * rr * n);
      if (q)
        for (gint64 i = 0; i < batch; i++)
          for (int j = 0; j < m; j++)
            for (int c = 0; c < qc; c++)
              q[(i * m + j) * qc + c] = j == c;
      return;
    }
  LAPACK (geqrf) (&m, &n, ac, &lda, tau, &query, &lwork, &info);
  if (q)
    LAPACK (orgqr) (&m, &qc, &k, ac, &lda, tau, &query2, &lwork, &info);
  lwork = MAX (MAX ((int) query, (int) query2), MAX (cols, 1));
  work = g_new (T, lwork);
  for (gint64 i = 0; i < batch; i++)
    {
      const T *ai = a + i * m * n;
      T *ri = r + i * (gint64) rr * n;

      for (int row = 0; row < m; row++)
        for (int c = 0; c < n; c++)
          ac[(gint64) c * m + row] = ai[(gint64) row * n + c];
      LAPACK (geqrf) (&m, &n, ac, &lda, tau, work, &lwork, &info);
      for (int row = 0; row < rr; row++)
        for (int c = 0; c < n; c++)
          ri[(gint64) row * n + c] = c >= row ? ac[(gint64) c * m + row] : 0;
      if (q)
        {
          T *qi = q + i * (gint64) m * qc;

          LAPACK (orgqr) (&m, &qc, &k, ac, &lda, tau, work, &lwork, &info);
          for (int row = 0; row < m; row++)
            for (int c = 0; c < qc; c++)
              qi[(gint64) row * qc + c] = ac[(gint64) c * m + row];
        }
    }
}

/* The eigenvalues w (batch, n), ascending, of the symmetric a (batch, n, n) read from its
 * lower triangle (its upper one for @upper), through syevd; with @vectors, a becomes the
 * eigenvectors, one a column. LAPACK sees the row-major matrix as its transpose, whose upper
 * triangle is a's lower one; the eigenvectors it returns in columns read back row-major as
 * rows, so they are transposed. The batch element that did not converge, or -1, with *@code
 * LAPACK's info. */
static gint64
NAME (eigh) (T *a, T *w, gint64 batch, int n, gboolean upper, gboolean vectors, int *code)
{
  int lda = MAX (n, 1), info = 0, lwork = -1, liwork = -1, iquery = 0;
  const char *jobz = vectors ? "V" : "N", *uplo = upper ? "L" : "U";
  g_autofree T *work = NULL, *tmp = g_new (T, MAX ((gint64) n * n, 1));
  g_autofree int *iwork = NULL;
  T query = 0;

  if (n == 0)
    return -1;
  LAPACK (syevd) (jobz, uplo, &n, a, &lda, w, &query, &lwork, &iquery, &liwork, &info, 1, 1);
  lwork = MAX ((int) query, 1);
  liwork = MAX (iquery, 1);
  work = g_new (T, lwork);
  iwork = g_new (int, liwork);
  for (gint64 i = 0; i < batch; i++)
    {
      T *ai = a + i * n * n;

      LAPACK (syevd) (jobz, uplo, &n, ai, &lda, w + i * n, work, &lwork, iwork, &liwork, &info, 1, 1);
      if (info != 0)
        {
          *code = info;
          return i;
        }
      if (vectors)
        {
          NAME (transpose) (ai, tmp, 1, n, n);
          memcpy (ai, tmp, sizeof (T) * n * n);
        }
    }
  return -1;
}

/* The singular values s (batch, k), descending, k = min (m, n), of a (batch, m, n)
 * (overwritten), through gesdd; with u and vh (both or neither) U (batch, m, uc) and Vh
 * (batch, vr, n), uc = vr = k, or m and n for @full. LAPACK factors the transpose it sees,
 * Aᵀ = V S Uᵀ: its left vectors (n, ·) column-major are Vh row-major and its right ones
 * (·, m) column-major are U row-major, so nothing is transposed. The batch element that did
 * not converge, or -1, with *@code LAPACK's info. */
static gint64
NAME (svd) (T *a, T *s, T *u, T *vh, gint64 batch, int m, int n, gboolean full, int *code)
{
  int k = MIN (m, n), uc = full ? m : k, vr = full ? n : k, info = 0, lwork = -1;
  int lda = MAX (n, 1), ldu = MAX (n, 1), ldvt = MAX (full ? m : k, 1);
  const char *jobz = u == NULL ? "N" : full ? "A" : "S";
  g_autofree T *work = NULL;
  g_autofree int *iwork = g_new (int, MAX (8 * k, 1));
  T query = 0, dummy = 0;

  if (k == 0)
    {
      if (u)
        {
          for (gint64 i = 0; i < batch; i++)
            {
              for (int j = 0; j < m; j++)
                for (int c = 0; c < uc; c++)
                  u[(i * m + j) * uc + c] = j == c;
              for (int j = 0; j < vr; j++)
                for (int c = 0; c < n; c++)
                  vh[(i * vr + j) * n + c] = j == c;
            }
        }
      return -1;
    }
  /* LAPACK sees the n × m matrix Aᵀ */
  LAPACK (gesdd) (jobz, &n, &m, a, &lda, s, u ? vh : &dummy, &ldu, u ? u : &dummy, &ldvt, &query, &lwork, iwork,
                  &info, 1);
  lwork = MAX ((int) query, 1);
  work = g_new (T, lwork);
  for (gint64 i = 0; i < batch; i++)
    {
      T *ai = a + i * m * n;

      LAPACK (gesdd) (jobz, &n, &m, ai, &lda, s + i * k, u ? vh + i * (gint64) vr * n : &dummy, &ldu,
                      u ? u + i * (gint64) m * uc : &dummy, &ldvt, work, &lwork, iwork, &info, 1);
      if (info != 0)
        {
          *code = info;
          return i;
        }
    }
  return -1;
}

/* The LU factorization with partial pivoting P A = L U of a (batch, m, n), in place as
 * getrf leaves it (L below the diagonal, its unit diagonal implied, U on and above), through
 * getrf on the column-major copy; piv (batch, min (m, n)) the 1-based row swaps and
 * info (batch) getrf's info (> 0: U[info-1, info-1] is zero). */
static void
NAME (lu_factor) (T *a, int *piv, int *infos, gint64 batch, int m, int n)
{
  int k = MIN (m, n), lda = MAX (m, 1);
  g_autofree T *ac = g_new (T, MAX ((gint64) m * n, 1));

  for (gint64 i = 0; i < batch; i++)
    {
      T *ai = a + i * m * n;

      infos[i] = 0;
      if (k == 0)
        continue;
      NAME (transpose) (ai, ac, 1, m, n);
      LAPACK (getrf) (&m, &n, ac, &lda, piv + i * k, &infos[i]);
      NAME (transpose) (ac, ai, 1, n, m);
    }
}

/* b (batch, n, k) becomes T⁻¹ B for the triangle T of a (batch, n, n) that @upper names (its
 * diagonal taken as ones for @unit), through the row-major trsm: no check for a zero on the
 * diagonal, which gives inf or NaN, as torch's solve_triangular does */
static void
NAME (solve_triangular) (const T *a, T *b, gint64 batch, int n, int k, gboolean upper, gboolean unit)
{
  if (n == 0 || k == 0)
    return;
  for (gint64 i = 0; i < batch; i++)
    TRSM (CblasRowMajor, CblasLeft, upper ? CblasUpper : CblasLower, CblasNoTrans, unit ? CblasUnit : CblasNonUnit,
          n, k, 1, a + i * n * n, n, b + i * (gint64) n * k, k);
}
