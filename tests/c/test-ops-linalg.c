/* test-ops-linalg.c: matmul, linear and the matrix products of torch (bmm, addmm, ...), and
 * the linear algebra of torch.linalg (solve, inv, det, ...) */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static void
test_matmul_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, 2, 1, 0, 3), 6, GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) v = gnn_test_tensor_d (GNN_TEST_DATA (1, -1, 2), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) m = NULL, mv = NULL, dot = NULL, at = NULL, tm = NULL;

  OK (m = gnn_tensor_matmul (a, b, &error));
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (2, 2), 2);
  gnn_test_assert_close (m, GNN_TEST_DATA (5, 11, 14, 23), 4, 0, 1e-12);
  OK (mv = gnn_tensor_matmul (a, v, &error));
  gnn_test_assert_shape (mv, GNN_TEST_SHAPE (2), 1);
  gnn_test_assert_close (mv, GNN_TEST_DATA (5, 11), 2, 0, 1e-12);
  OK (dot = gnn_tensor_matmul (v, v, &error));
  g_assert_cmpuint (gnn_tensor_get_ndim (dot), ==, 0);
  gnn_test_assert_close (dot, GNN_TEST_DATA (6), 1, 0, 1e-12);
  /* a transposed operand goes to gemm without a copy */
  OK (at = gnn_tensor_t (a, &error));
  OK (tm = gnn_tensor_matmul (at, a, &error));
  gnn_test_assert_close (tm, GNN_TEST_DATA (17, 22, 27, 22, 29, 36, 27, 36, 45), 9, 0, 1e-12);
}

/* a product of few rows and many columns, which the CPU backend splits into blocks of
 * columns over its threads: the same values as a sum by hand, with B stored either way */
static void
test_matmul_wide (void)
{
  enum { M = 5, K = 200, N = 400 };   /* over the threading grain of 2^18 multiply-adds */
  g_autofree double *da = g_new (double, M * K), *db = g_new (double, K * N), *want = g_new0 (double, M * N);
  int threads = gnn_get_num_threads ();

  for (int i = 0; i < M * K; i++)
    da[i] = (i % 11) - 5;
  for (int i = 0; i < K * N; i++)
    db[i] = (i % 13) * 0.5 - 3;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < K; k++)
        want[i * N + j] += da[i * K + k] * db[k * N + j];
  for (int nt = 1; nt <= 3; nt++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = gnn_test_tensor_d (da, M * K, GNN_TEST_SHAPE (M, K), 2);
      g_autoptr(GnnTensor) b = gnn_test_tensor_d (db, K * N, GNN_TEST_SHAPE (K, N), 2);
      g_autoptr(GnnTensor) bt = NULL, stored = NULL, btt = NULL, m = NULL, mt = NULL;

      gnn_set_num_threads (nt);
      OK (m = gnn_tensor_matmul (a, b, &error));
      gnn_test_assert_close (m, want, M * N, 0, 1e-12);
      /* B stored transposed: (N, K) contiguous, seen through .t () */
      OK (bt = gnn_tensor_t (b, &error));
      OK (stored = gnn_tensor_contiguous (bt, &error));
      OK (btt = gnn_tensor_t (stored, &error));
      OK (mt = gnn_tensor_matmul (a, btt, &error));
      gnn_test_assert_close (mt, want, M * N, 0, 1e-12);
    }
  gnn_set_num_threads (threads);
}

static void
test_linear_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, -1, 2, 1, 0), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -0.5), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, y3 = NULL, x3 = NULL;

  OK (y = gnn_tensor_linear (x, w, b, &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (-1.5, 3.5, -1.5, 12.5), 4, 0, 1e-12);
  OK (x3 = gnn_tensor_reshape (x, GNN_TEST_SHAPE (1, 2, 3), 3, &error));
  OK (y3 = gnn_tensor_linear (x3, w, b, &error));
  gnn_test_assert_shape (y3, GNN_TEST_SHAPE (1, 2, 2), 3);
  gnn_test_assert_close (y3, GNN_TEST_DATA (-1.5, 3.5, -1.5, 12.5), 4, 0, 1e-12);
  g_assert_null (gnn_tensor_linear (w, x3, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

static GnnTensor *
f_matmul (GnnTensor *x, gpointer data, GError **error)
{
  /* x (2, 3, 4) times a slice of itself transposed, batched */
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (x, 1, 2, error);
  g_autoptr(GnnTensor) m = t ? gnn_tensor_matmul (x, t, error) : NULL;
  g_autoptr(GnnTensor) v = m ? gnn_tensor_select (x, 1, 0, error) : NULL;   /* (2, 4) */
  g_autoptr(GnnTensor) w = v ? gnn_tensor_narrow (v, 1, 0, 3, error) : NULL; /* (2, 3) */
  g_autoptr(GnnTensor) wv = w ? gnn_tensor_unsqueeze (w, 2, error) : NULL;  /* (2, 3, 1) */
  return wv ? gnn_tensor_matmul (m, wv, error) : NULL;
}

static GnnTensor *
f_linear (GnnTensor *x, gpointer data, GError **error)
{
  /* x (3, 4) is the input, its first two rows the weight, its last column the bias */
  g_autoptr(GnnTensor) w = gnn_tensor_narrow (x, 0, 0, 2, error);
  g_autoptr(GnnTensor) c = w ? gnn_tensor_select (x, 1, 3, error) : NULL;
  g_autoptr(GnnTensor) b = c ? gnn_tensor_narrow (c, 0, 1, 2, error) : NULL;
  return b ? gnn_tensor_linear (x, w, b, error) : NULL;
}

static void
test_gradcheck (void)
{
  double v[24];
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  for (int i = 0; i < 24; i++)
    v[i] = cos (i * 1.3) * 1.5;
  x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  gnn_test_gradcheck (f_matmul, NULL, x, 1e-6, 1e-6);
  y = gnn_test_tensor_d (v, 12, GNN_TEST_SHAPE (3, 4), 2);
  gnn_test_gradcheck (f_linear, NULL, y, 1e-6, 1e-6);
}

/* x (2, 3, 4): the products of gnn-ops-linalg.c on slices of x, so one gradcheck covers each
 * operand's gradient (the added term included) */
static GnnTensor *
f_products (GnnTensor *x, gpointer data, GError **error)
{
  const char *which = data;
  g_autoptr(GnnTensor) xt = gnn_tensor_transpose (x, 1, 2, error);                 /* (2, 4, 3) */
  g_autoptr(GnnTensor) m0 = xt ? gnn_tensor_select (x, 0, 0, error) : NULL;         /* (3, 4) */
  g_autoptr(GnnTensor) m1 = m0 ? gnn_tensor_select (xt, 0, 1, error) : NULL;        /* (4, 3) */
  g_autoptr(GnnTensor) v = m1 ? gnn_tensor_select (m0, 0, 2, error) : NULL;         /* (4) */
  g_autoptr(GnnTensor) w = v ? gnn_tensor_select (m1, 1, 0, error) : NULL;          /* (4) */
  g_autoptr(GnnTensor) c = w ? gnn_tensor_narrow (m0, 1, 0, 3, error) : NULL;       /* (3, 3) */
  g_autoptr(GnnTensor) cb = c ? gnn_tensor_narrow (xt, 1, 0, 3, error) : NULL;      /* (2, 3, 3) */

  if (cb == NULL)
    return NULL;
  if (g_str_equal (which, "bmm"))
    return gnn_tensor_bmm (x, xt, error);
  if (g_str_equal (which, "baddbmm"))
    return gnn_tensor_baddbmm (c, x, xt, 0.5, -2.0, error);
  if (g_str_equal (which, "baddbmm3"))
    return gnn_tensor_baddbmm (cb, x, xt, 1.5, 1.0, error);
  if (g_str_equal (which, "addmm"))
    return gnn_tensor_addmm (v, m1, m0, -1.0, 0.5, error);
  if (g_str_equal (which, "addbmm"))
    return gnn_tensor_addbmm (c, x, xt, 2.0, 0.25, error);
  if (g_str_equal (which, "mv"))
    return gnn_tensor_mv (m0, w, error);
  if (g_str_equal (which, "dot"))
    return gnn_tensor_dot (v, w, error);
  return gnn_tensor_outer (v, w, error);
}

static void
test_products_gradcheck (void)
{
  const char *ops[] = { "bmm", "baddbmm", "baddbmm3", "addmm", "addbmm", "mv", "dot", "outer" };
  double v[24];
  g_autoptr(GnnTensor) x = NULL;

  for (int i = 0; i < 24; i++)
    v[i] = sin (i * 0.7 + 0.3) * 1.5;
  x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    gnn_test_gradcheck (f_products, (gpointer) ops[i], x, 1e-6, 1e-6);
}

static void
test_products_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, 2, 1, 0, 3), 6, GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) c = gnn_test_tensor_d (GNN_TEST_DATA (1, -1), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) nan = gnn_test_tensor_d (GNN_TEST_DATA (NAN), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) a3 = NULL, b3 = NULL, r = NULL, r0 = NULL, rb = NULL, rs = NULL, o = NULL;

  /* 2 · c + 0.5 · a · b, a · b = [[5, 11], [14, 23]] */
  OK (r = gnn_tensor_addmm (c, a, b, 2.0, 0.5, &error));
  gnn_test_assert_close (r, GNN_TEST_DATA (4.5, 3.5, 9, 9.5), 4, 0, 1e-12);
  /* beta 0 ignores the values of the added term, NaN included */
  OK (r0 = gnn_tensor_addmm (nan, a, b, 0.0, 1.0, &error));
  gnn_test_assert_close (r0, GNN_TEST_DATA (5, 11, 14, 23), 4, 0, 1e-12);
  OK (a3 = gnn_tensor_unsqueeze (a, 0, &error));
  OK (b3 = gnn_tensor_unsqueeze (b, 0, &error));
  OK (rb = gnn_tensor_baddbmm (c, a3, b3, 1.0, -1.0, &error));
  gnn_test_assert_shape (rb, GNN_TEST_SHAPE (1, 2, 2), 3);
  gnn_test_assert_close (rb, GNN_TEST_DATA (-4, -12, -13, -24), 4, 0, 1e-12);
  {
    g_autoptr(GnnTensor) a2 = NULL, b2 = NULL;
    GnnTensor *as[2] = { a3, a3 }, *bs[2] = { b3, b3 };

    OK (a2 = gnn_cat (as, 2, 0, &error));
    OK (b2 = gnn_cat (bs, 2, 0, &error));
    OK (rs = gnn_tensor_addbmm (c, a2, b2, 1.0, 1.0, &error));
    gnn_test_assert_close (rs, GNN_TEST_DATA (11, 21, 29, 45), 4, 0, 1e-12);
    g_assert_null (gnn_tensor_bmm (a2, a2, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_assert_nonnull (strstr (error->message, "[2, 3] but got: [2, 2]"));
    g_clear_error (&error);
  }
  OK (o = gnn_tensor_outer (c, c, &error));
  gnn_test_assert_close (o, GNN_TEST_DATA (1, -1, -1, 1), 4, 0, 1e-12);

  /* shapes and dtypes refused as torch refuses them */
  g_assert_null (gnn_tensor_addmm (c, a, a, 1.0, 1.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "(2x3 and 2x3)"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_addmm (b, a, b, 1.0, 1.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_mv (a, c, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "size mismatch"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_dot (c, a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  {
    g_autoptr(GnnTensor) cf = NULL;

    OK (cf = gnn_tensor_to_dtype (c, GNN_DTYPE_FLOAT32, &error));
    g_assert_null (gnn_tensor_dot (c, cf, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
    g_clear_error (&error);
    g_assert_null (gnn_tensor_bmm (a3, a3, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_clear_error (&error);
  }
  g_assert_null (gnn_tensor_bmm (a, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
}

static GnnTensor *
f_einsum (GnnTensor *x, gpointer data, GError **error)
{
  /* x (2, 3, 4): the attention scores of two slices of it, a trace and a bilinear form */
  const char *which = data;
  g_autoptr(GnnTensor) q = gnn_tensor_narrow (x, 2, 0, 2, error);                   /* (2, 3, 2) */
  g_autoptr(GnnTensor) k = q ? gnn_tensor_narrow (x, 2, 2, 2, error) : NULL;        /* (2, 3, 2) */
  g_autoptr(GnnTensor) m = k ? gnn_tensor_select (x, 2, 3, error) : NULL;           /* (2, 3) */
  g_autoptr(GnnTensor) sq = m ? gnn_tensor_narrow (x, 1, 0, 3, error) : NULL;
  g_autoptr(GnnTensor) sq3 = sq ? gnn_tensor_narrow (sq, 2, 1, 3, error) : NULL;    /* (2, 3, 3) */

  if (sq3 == NULL)
    return NULL;
  if (g_str_equal (which, "scores"))
    {
      GnnTensor *ops[2] = { q, k };
      return gnn_einsum ("bqd,bkd->bqk", ops, 2, error);
    }
  if (g_str_equal (which, "trace"))
    return gnn_einsum ("bii", &sq3, 1, error);
  if (g_str_equal (which, "diagonal"))
    return gnn_einsum ("...ii->...i", &sq3, 1, error);
  {
    GnnTensor *ops[3] = { m, sq3, m };
    return gnn_einsum ("bn,anm,bm->ba", ops, 3, error);
  }
}

static void
test_einsum (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, 2, 1, 0, 3), 6, GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) m = NULL, tr = NULL, d = NULL, e = NULL;
  GnnTensor *ab[2] = { a, b };
  const char *which[] = { "scores", "trace", "diagonal", "bilinear" };
  double v[24];
  g_autoptr(GnnTensor) x = NULL;

  OK (m = gnn_einsum ("ij,jk->ik", ab, 2, &error));
  gnn_test_assert_close (m, GNN_TEST_DATA (5, 11, 14, 23), 4, 0, 1e-12);
  OK (tr = gnn_einsum ("ii", &m, 1, &error));
  g_assert_cmpuint (gnn_tensor_get_ndim (tr), ==, 0);
  gnn_test_assert_close (tr, GNN_TEST_DATA (28), 1, 0, 1e-12);
  OK (d = gnn_einsum ("ii->i", &m, 1, &error));
  gnn_test_assert_close (d, GNN_TEST_DATA (5, 23), 2, 0, 1e-12);
  /* implicit output: the subscripts seen once, in order */
  OK (e = gnn_einsum ("ji,kj", ab, 2, &error));
  gnn_test_assert_shape (e, GNN_TEST_SHAPE (3, 3), 2);
  gnn_test_assert_close (e, GNN_TEST_DATA (1, 6, 12, 2, 9, 15, 3, 12, 18), 9, 0, 1e-12);

  /* syntax errors name the index */
  g_assert_null (gnn_einsum ("ij,j%->ik", ab, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "index 4"));
  g_clear_error (&error);
  g_assert_null (gnn_einsum ("ij,jk-ik", ab, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "index 5"));
  g_clear_error (&error);
  g_assert_null (gnn_einsum ("ij,kl->ik", ab, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_einsum ("ij,ik->jk", ab, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);

  for (int i = 0; i < 24; i++)
    v[i] = cos (i * 0.9 + 0.2);
  x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  for (guint i = 0; i < G_N_ELEMENTS (which); i++)
    gnn_test_gradcheck (f_einsum, (gpointer) which[i], x, 1e-6, 1e-6);
}

/* ---- linear algebra through LAPACK (gnn-ops-lapack.c) ------------------------------------ */

/* x (2, 3, 3), well conditioned: the ops of gnn-ops-lapack.c on it and its slices */
static GnnTensor *
f_lapack (GnnTensor *x, gpointer data, GError **error)
{
  const char *which = data;
  g_autoptr(GnnTensor) x0 = gnn_tensor_select (x, 0, 0, error);                 /* (3, 3) */
  g_autoptr(GnnTensor) b = x0 ? gnn_tensor_narrow (x0, 1, 0, 2, error) : NULL;  /* (3, 2) */
  g_autoptr(GnnTensor) v = b ? gnn_tensor_select (x0, 0, 1, error) : NULL;      /* (3) */
  g_autoptr(GnnTensor) la = NULL, sign = NULL;

  if (v == NULL)
    return NULL;
  if (g_str_equal (which, "solve"))
    return gnn_linalg_solve (x, b, error);
  if (g_str_equal (which, "solve-vector"))
    return gnn_linalg_solve (x, v, error);
  if (g_str_equal (which, "inv"))
    return gnn_linalg_inv (x, error);
  if (g_str_equal (which, "det"))
    return gnn_linalg_det (x, error);
  if (g_str_equal (which, "matrix_exp"))
    return gnn_linalg_matrix_exp (x, error);
  if (g_str_equal (which, "matrix_exp-scaled"))
    {
      /* a 1-norm above the Padé approximant's bound: scaling and squaring */
      g_autoptr(GnnTensor) x3 = gnn_tensor_mul_scalar (x, 3.0, error);

      return x3 ? gnn_linalg_matrix_exp (x3, error) : NULL;
    }
  if (g_str_equal (which, "cholesky") || g_str_equal (which, "cholesky-upper"))
    {
      /* x xᵀ is symmetric positive-definite for the nonsingular x */
      g_autoptr(GnnTensor) xt = gnn_tensor_transpose (x, 1, 2, error);
      g_autoptr(GnnTensor) spd = xt ? gnn_tensor_matmul (x, xt, error) : NULL;

      return spd ? gnn_linalg_cholesky (spd, g_str_equal (which, "cholesky-upper"), error) : NULL;
    }
  if (g_str_equal (which, "householder"))
    {
      /* the first two columns of x (2, 3, 2), and its last column's first two rows as tau */
      g_autoptr(GnnTensor) a = gnn_tensor_narrow (x, 2, 0, 2, error);
      g_autoptr(GnnTensor) c = a ? gnn_tensor_select (x, 2, 2, error) : NULL;
      g_autoptr(GnnTensor) tau = c ? gnn_tensor_narrow (c, 1, 0, 2, error) : NULL;

      return tau ? gnn_linalg_householder_product (a, tau, error) : NULL;
    }
  if (!(sign = gnn_linalg_slogdet (x, &la, error)))
    return NULL;
  return g_steal_pointer (&la);
}

static void
fill_well_conditioned (double *v, int n, int dim, double phase)
{
  for (int i = 0; i < n; i++)
    v[i] = 0.6 * cos (i * 1.1 + phase) + ((i % (dim * dim)) % (dim + 1) == 0 ? 2.5 : 0);
}

static void
test_lapack_gradcheck (void)
{
  const char *ops[] = { "solve", "solve-vector", "inv", "det", "slogdet", "matrix_exp", "matrix_exp-scaled",
                        "householder", "cholesky", "cholesky-upper" };
  double v[18];
  g_autoptr(GnnTensor) x = NULL;

  fill_well_conditioned (v, 18, 3, 0.4);
  v[0] = -v[0];   /* one matrix with a negative determinant */
  x = gnn_test_tensor_d (v, 18, GNN_TEST_SHAPE (2, 3, 3), 3);
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      gnn_test_gradcheck (f_lapack, (gpointer) ops[i], x, 1e-6, 1e-6);
      gnn_test_gradgradcheck (f_lapack, (gpointer) ops[i], x, 1e-6, 1e-5);
    }
}

static void
test_lapack_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (2, 1, 1, 3), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) s = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 2, 4), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) i3 = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) x = NULL, inv = NULL, det = NULL, sign = NULL, la = NULL, sd = NULL, sl = NULL;
  g_autoptr(GnnTensor) a32 = NULL, x32 = NULL;

  OK (x = gnn_linalg_solve (a, b, &error));
  gnn_test_assert_shape (x, GNN_TEST_SHAPE (2), 1);
  gnn_test_assert_close (x, GNN_TEST_DATA (0.2, 0.6), 2, 0, 1e-12);
  OK (inv = gnn_linalg_inv (a, &error));
  gnn_test_assert_close (inv, GNN_TEST_DATA (0.6, -0.2, -0.2, 0.4), 4, 0, 1e-12);
  OK (det = gnn_linalg_det (a, &error));
  g_assert_cmpuint (gnn_tensor_get_ndim (det), ==, 0);
  gnn_test_assert_close (det, GNN_TEST_DATA (5), 1, 0, 1e-12);
  OK (sign = gnn_linalg_slogdet (s, &la, &error));
  gnn_test_assert_close (sign, GNN_TEST_DATA (0), 1, 0, 0);
  g_assert_true (isinf (gnn_tensor_item (la, NULL)) && gnn_tensor_item (la, NULL) < 0);
  OK (a32 = gnn_tensor_to_dtype (a, GNN_DTYPE_FLOAT32, &error));
  OK (x32 = gnn_tensor_to_dtype (b, GNN_DTYPE_FLOAT32, &error));
  g_clear_object (&x);
  OK (x = gnn_linalg_solve (a32, x32, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (x), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (x, GNN_TEST_DATA (0.2, 0.6), 2, 0, 1e-6);

  /* bad input: torch's errors */
  g_assert_null (gnn_linalg_solve (s, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_LINALG);
  g_assert_nonnull (strstr (error->message, "singular"));
  g_clear_error (&error);
  g_assert_null (gnn_linalg_inv (s, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_LINALG);
  g_assert_nonnull (strstr (error->message, "The diagonal element 2 is zero"));
  g_clear_error (&error);
  g_assert_null (gnn_linalg_solve (a, i3, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "2x2 and 3x1"));
  g_clear_error (&error);
  g_assert_null (gnn_linalg_det (i3, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_linalg_solve (a32, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (sd = gnn_linalg_slogdet (i3, &sl, &error));
  g_assert_null (sl);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

/* the decompositions of x (2, 3, 3) (or of a part of it), as a tensor whose weighted sum the
 * gradchecks differentiate; squared vectors for eigh and svd (continuous in x, whatever the
 * signs LAPACK picks) */
static GnnTensor *
f_decomp (GnnTensor *x, gpointer data, GError **error)
{
  const char *op = data;
  g_autoptr(GnnTensor) part = NULL, xt = NULL, sym = NULL, q = NULL, r = NULL, v = NULL, l = NULL, u = NULL;
  g_autoptr(GnnTensor) s = NULL, vh = NULL, piv = NULL, info = NULL;

  if (g_str_has_prefix (op, "qr"))
    {
      gboolean wide = strstr (op, "wide") != NULL, tall = strstr (op, "tall") != NULL;

      if (!(part = wide ? gnn_tensor_narrow (x, 1, 0, 2, error)
                        : tall ? gnn_tensor_narrow (x, 2, 0, 2, error) : g_object_ref (x)))
        return NULL;
      if (!(q = gnn_linalg_qr (part, NULL, &r, error)))
        return NULL;
      return g_str_has_suffix (op, "-r") ? g_steal_pointer (&r) : g_steal_pointer (&q);
    }
  if (g_str_has_prefix (op, "eig"))
    {
      if (!(xt = gnn_tensor_transpose (x, -1, -2, error)) || !(sym = gnn_tensor_add (x, xt, 1.0, error)))
        return NULL;
      if (g_str_equal (op, "eigvalsh"))
        return gnn_linalg_eigvalsh (sym, FALSE, error);
      if (!(l = gnn_linalg_eigh (sym, TRUE, &v, error)))
        return NULL;
      return g_str_equal (op, "eigh-values") ? g_steal_pointer (&l) : gnn_tensor_mul (v, v, error);
    }
  if (g_str_has_prefix (op, "svd"))
    {
      if (!(part = strstr (op, "wide") ? gnn_tensor_narrow (x, 1, 0, 2, error) : g_object_ref (x)))
        return NULL;
      if (g_str_equal (op, "svdvals"))
        return gnn_linalg_svdvals (part, error);
      if (!(u = gnn_linalg_svd (part, strstr (op, "full") != NULL, &s, &vh, error)))
        return NULL;
      if (g_str_has_suffix (op, "-s"))
        return g_steal_pointer (&s);
      if (g_str_has_suffix (op, "-vh"))
        return gnn_tensor_mul (vh, vh, error);
      {
        g_autoptr(GnnTensor) k = gnn_tensor_narrow (u, -1, 0, 2, error);

        return k ? gnn_tensor_mul (k, k, error) : NULL;
      }
    }
  if (g_str_has_prefix (op, "solve_triangular"))
    {
      if (!(part = gnn_tensor_narrow (x, 2, 1, 2, error)))
        return NULL;
      return gnn_linalg_solve_triangular (x, part, strstr (op, "upper") != NULL, strstr (op, "unit") != NULL, error);
    }
  return gnn_linalg_lu_factor_ex (x, &piv, &info, error);
}

static void
test_decompositions_gradcheck (void)
{
  const char *ops[] = { "qr-q", "qr-r", "qr-wide-q", "qr-wide-r", "qr-tall-q", "qr-tall-r", "eigh-values",
                        "eigvalsh", "eigh-vectors", "svd-s", "svd-u", "svd-vh", "svd-wide-vh", "svd-wide-full-u",
                        "svdvals", "lu_factor", "solve_triangular", "solve_triangular-upper",
                        "solve_triangular-upper-unit", "solve_triangular-unit" };
  double v[18];
  g_autoptr(GnnTensor) x = NULL;

  fill_well_conditioned (v, 18, 3, 0.9);
  for (int i = 0; i < 18; i++)
    v[i] += 0.3 * sin (i * 2.3);   /* distinct singular values and eigenvalues */
  x = gnn_test_tensor_d (v, 18, GNN_TEST_SHAPE (2, 3, 3), 3);
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      gnn_test_gradcheck (f_decomp, (gpointer) ops[i], x, 1e-6, 1e-5);
      gnn_test_gradgradcheck (f_decomp, (gpointer) ops[i], x, 1e-6, 1e-4);
    }
}

static void
test_decompositions_values (void)
{
  g_autoptr(GError) error = NULL;
  /* A = [[3, 1], [1, 3]]: eigenvalues 2 and 4, singular values 4 and 2 */
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (3, 1, 1, 3), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) t = gnn_test_tensor_d (GNN_TEST_DATA (3, 4, 0, 5, 0, 0), 6, GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) sing = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 2, 4), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) nan = gnn_test_tensor_d (GNN_TEST_DATA (1, NAN, 0, 1), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) nans = gnn_test_tensor_d (GNN_TEST_DATA (NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN), 9,
                                                 GNN_TEST_SHAPE (3, 3), 2);
  g_autoptr(GnnTensor) q = NULL, r = NULL, qc = NULL, rc = NULL, qr = NULL, l = NULL, v = NULL, lv = NULL;
  g_autoptr(GnnTensor) u = NULL, s = NULL, vh = NULL, sv = NULL, uf = NULL, sf = NULL, vhf = NULL;
  g_autoptr(GnnTensor) lu = NULL, piv = NULL, info = NULL, lu2 = NULL, piv2 = NULL, info2 = NULL, rr = NULL;

  /* QR of [[3, 4], [0, 5], [0, 0]]: LAPACK's reflectors give R = [[-3, -4], [0, ±5]] */
  OK (q = gnn_linalg_qr (t, "reduced", &r, &error));
  gnn_test_assert_shape (q, GNN_TEST_SHAPE (3, 2), 2);
  gnn_test_assert_shape (r, GNN_TEST_SHAPE (2, 2), 2);
  OK (qr = gnn_tensor_matmul (q, r, &error));
  gnn_test_assert_close (qr, GNN_TEST_DATA (3, 4, 0, 5, 0, 0), 6, 0, 1e-12);
  {
    g_autoptr(GnnTensor) row = gnn_tensor_select (r, 0, 1, NULL);
    g_autoptr(GnnTensor) below = gnn_tensor_select (row, 0, 0, NULL);

    g_assert_cmpfloat (fabs (gnn_tensor_item (below, NULL)), <, 1e-12);
  }
  OK (qc = gnn_linalg_qr (t, "complete", &rc, &error));
  gnn_test_assert_shape (qc, GNN_TEST_SHAPE (3, 3), 2);
  gnn_test_assert_shape (rc, GNN_TEST_SHAPE (3, 2), 2);
  g_clear_object (&qc);
  OK (qc = gnn_linalg_qr (t, "r", &rr, &error));
  gnn_test_assert_shape (qc, GNN_TEST_SHAPE (0), 1);
  g_assert_null (gnn_linalg_qr (t, "full", NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  OK (l = gnn_linalg_eigh (a, FALSE, &v, &error));
  gnn_test_assert_close (l, GNN_TEST_DATA (2, 4), 2, 0, 1e-12);
  gnn_test_assert_shape (v, GNN_TEST_SHAPE (2, 2), 2);
  OK (lv = gnn_linalg_eigvalsh (a, TRUE, &error));
  gnn_test_assert_close (lv, GNN_TEST_DATA (2, 4), 2, 0, 1e-12);
  g_assert_null (gnn_linalg_eigh (t, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_linalg_eigvalsh (nans, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_LINALG);
  g_clear_error (&error);

  OK (u = gnn_linalg_svd (a, FALSE, &s, &vh, &error));
  gnn_test_assert_close (s, GNN_TEST_DATA (4, 2), 2, 0, 1e-12);
  OK (sv = gnn_linalg_svdvals (t, &error));
  /* AᵀA = [[9, 12], [12, 41]]: eigenvalues 45 and 5 */
  gnn_test_assert_close (sv, GNN_TEST_DATA (sqrt (45.0), sqrt (5.0)), 2, 1e-12, 0);
  OK (uf = gnn_linalg_svd (t, TRUE, &sf, &vhf, &error));
  gnn_test_assert_shape (uf, GNN_TEST_SHAPE (3, 3), 2);
  gnn_test_assert_shape (vhf, GNN_TEST_SHAPE (2, 2), 2);
  g_assert_null (gnn_linalg_svd (nan, FALSE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_LINALG);
  g_assert_nonnull (strstr (error->message, "non-finite"));
  g_clear_error (&error);

  /* [[1, 2], [2, 4]]: rows swapped, then U[1, 1] = 0 */
  OK (lu = gnn_linalg_lu_factor_ex (sing, &piv, &info, &error));
  gnn_test_assert_close (lu, GNN_TEST_DATA (2, 4, 0.5, 0), 4, 0, 1e-15);
  g_assert_cmpint (gnn_tensor_get_dtype (piv), ==, GNN_DTYPE_INT32);
  g_assert_cmpfloat (gnn_tensor_item (info, NULL), ==, 2);
  OK (lu2 = gnn_linalg_lu_factor_ex (a, &piv2, &info2, &error));
  gnn_test_assert_close (lu2, GNN_TEST_DATA (3, 1, 1.0 / 3, 8.0 / 3), 4, 1e-15, 1e-15);
  g_assert_cmpfloat (gnn_tensor_item (info2, NULL), ==, 0);

  /* [[2, 1], [0, 4]] X = [1, 4]ᵀ: X = [0, 1]; with the diagonal as ones, X = [-3, 4]; the lower
   * triangle of sing, [[1, 0], [2, 4]]: X = [1, 0.5]; a zero on the diagonal gives inf */
  {
    g_autoptr(GnnTensor) up = gnn_test_tensor_d (GNN_TEST_DATA (2, 1, 9, 4), 4, GNN_TEST_SHAPE (2, 2), 2);
    g_autoptr(GnnTensor) rhs = gnn_test_tensor_d (GNN_TEST_DATA (1, 4), 2, GNN_TEST_SHAPE (2, 1), 2);
    g_autoptr(GnnTensor) zero = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 0, 1), 4, GNN_TEST_SHAPE (2, 2), 2);
    g_autoptr(GnnTensor) x1 = NULL, x2 = NULL, x3 = NULL, x4 = NULL;

    OK (x1 = gnn_linalg_solve_triangular (up, rhs, TRUE, FALSE, &error));
    gnn_test_assert_close (x1, GNN_TEST_DATA (0, 1), 2, 0, 1e-15);
    OK (x2 = gnn_linalg_solve_triangular (up, rhs, TRUE, TRUE, &error));
    gnn_test_assert_close (x2, GNN_TEST_DATA (-3, 4), 2, 0, 1e-15);
    OK (x3 = gnn_linalg_solve_triangular (sing, rhs, FALSE, FALSE, &error));
    gnn_test_assert_close (x3, GNN_TEST_DATA (1, 0.5), 2, 0, 1e-15);
    OK (x4 = gnn_linalg_solve_triangular (zero, rhs, TRUE, FALSE, &error));
    {
      g_autofree double *d = gnn_tensor_to_doubles (x4, NULL, &error);

      g_assert_false (isfinite (d[0]));
    }
    g_assert_null (gnn_linalg_solve_triangular (t, rhs, TRUE, FALSE, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_clear_error (&error);
  }
}

static void
test_matrix_exp_householder_values (void)
{
  g_autoptr(GError) error = NULL;
  /* exp of a rotation generator is the rotation; a nilpotent matrix's series ends */
  g_autoptr(GnnTensor) r = gnn_test_tensor_d (GNN_TEST_DATA (0, -1, 1, 0), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) big = gnn_test_tensor_d (GNN_TEST_DATA (0, -20, 20, 0), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) nil = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 0, 0), 4, GNN_TEST_SHAPE (2, 2), 2);
  /* one reflector v = (1, 1), tau = 1: H = I - v vᵀ */
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (7, 1), 2, GNN_TEST_SHAPE (2, 1), 2);
  g_autoptr(GnnTensor) tau = gnn_test_tensor_d (GNN_TEST_DATA (1), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) tau2 = gnn_test_tensor_d (GNN_TEST_DATA (1, 1), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) e = NULL, eb = NULL, en = NULL, q = NULL;

  OK (e = gnn_linalg_matrix_exp (r, &error));
  gnn_test_assert_close (e, GNN_TEST_DATA (cos (1), -sin (1), sin (1), cos (1)), 4, 0, 1e-14);
  OK (eb = gnn_linalg_matrix_exp (big, &error));
  gnn_test_assert_close (eb, GNN_TEST_DATA (cos (20), -sin (20), sin (20), cos (20)), 4, 0, 1e-12);
  OK (en = gnn_linalg_matrix_exp (nil, &error));
  gnn_test_assert_close (en, GNN_TEST_DATA (1, 1, 0, 1), 4, 0, 1e-15);
  OK (q = gnn_linalg_householder_product (a, tau, &error));
  gnn_test_assert_close (q, GNN_TEST_DATA (0, -1), 2, 0, 1e-15);
  g_assert_null (gnn_linalg_householder_product (a, tau2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "tau.shape[-1]"));
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/linalg/matmul", test_matmul_values);
  g_test_add_func ("/ops/linalg/linear", test_linear_values);
  g_test_add_func ("/ops/linalg/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/linalg/products", test_products_values);
  g_test_add_func ("/ops/linalg/products-gradcheck", test_products_gradcheck);
  g_test_add_func ("/ops/linalg/einsum", test_einsum);
  g_test_add_func ("/ops/linalg/lapack", test_lapack_values);
  g_test_add_func ("/ops/linalg/lapack-gradcheck", test_lapack_gradcheck);
  g_test_add_func ("/ops/linalg/matrix-exp-householder", test_matrix_exp_householder_values);
  g_test_add_func ("/ops/linalg/matmul-wide", test_matmul_wide);
  g_test_add_func ("/ops/linalg/decompositions", test_decompositions_values);
  g_test_add_func ("/ops/linalg/decompositions-gradcheck", test_decompositions_gradcheck);
  return g_test_run ();
}
