/* test-ops-reduce.c: sum, mean, var, max / min, argmax / argmin, softmax and log_softmax */
#include "config.h"

#include <float.h>

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END
#define DIMS(...) ((const int[]) { __VA_ARGS__ })

/* x (2, 3, 4) = 0 .. 23 */
static GnnTensor *
iota_234 (void)
{
  double v[24];

  for (int i = 0; i < 24; i++)
    v[i] = i;
  return gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
}

static void
assert_error (GError **error, gint code, const char *fragment)
{
  g_assert_error (*error, GNN_ERROR, code);
  if (strstr ((*error)->message, fragment) == NULL)
    g_error ("error message '%s' lacks '%s'", (*error)->message, fragment);
  g_clear_error (error);
}

static void
test_sum_mean (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = iota_234 ();
  g_autoptr(GnnTensor) s0 = NULL, s02 = NULL, s1k = NULL, sall = NULL, m12 = NULL, mneg = NULL, mall = NULL;

  OK (s0 = gnn_tensor_sum (x, DIMS (0), 1, FALSE, &error));
  gnn_test_assert_shape (s0, GNN_TEST_SHAPE (3, 4), 2);
  gnn_test_assert_close (s0, GNN_TEST_DATA (12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34), 12, 0, 0);
  /* non-adjacent dimensions */
  OK (s02 = gnn_tensor_sum (x, DIMS (0, 2), 2, FALSE, &error));
  gnn_test_assert_shape (s02, GNN_TEST_SHAPE (3), 1);
  gnn_test_assert_close (s02, GNN_TEST_DATA (60, 92, 124), 3, 0, 0);
  OK (s1k = gnn_tensor_sum (x, DIMS (1), 1, TRUE, &error));
  gnn_test_assert_shape (s1k, GNN_TEST_SHAPE (2, 1, 4), 3);
  gnn_test_assert_close (s1k, GNN_TEST_DATA (12, 15, 18, 21, 48, 51, 54, 57), 8, 0, 0);
  OK (sall = gnn_tensor_sum_all (x, &error));
  gnn_test_assert_shape (sall, NULL, 0);
  gnn_test_assert_close (sall, GNN_TEST_DATA (276), 1, 0, 0);
  OK (m12 = gnn_tensor_mean (x, DIMS (2, 1), 2, TRUE, &error));
  gnn_test_assert_shape (m12, GNN_TEST_SHAPE (2, 1, 1), 3);
  gnn_test_assert_close (m12, GNN_TEST_DATA (5.5, 17.5), 2, 1e-15, 0);
  OK (mneg = gnn_tensor_mean (x, DIMS (-1), 1, FALSE, &error));
  gnn_test_assert_close (mneg, GNN_TEST_DATA (1.5, 5.5, 9.5, 13.5, 17.5, 21.5), 6, 1e-15, 0);
  OK (mall = gnn_tensor_mean_all (x, &error));
  gnn_test_assert_close (mall, GNN_TEST_DATA (11.5), 1, 1e-15, 0);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (mall), ==, NULL);
}

static void
test_sum_dtypes_and_views (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) i = gnn_tensor_new_from_int64s ((const gint64[]) { 1, 2, 3, 4, 5, 6 }, 6,
                                                       GNN_TEST_SHAPE (2, 3), 2, &error);
  g_autoptr(GnnTensor) b = NULL, si = NULL, sb = NULL, x = iota_234 (), t = NULL, st = NULL;

  OK (b = gnn_tensor_gt_scalar (i, 2.5, &error));
  OK (si = gnn_tensor_sum (i, DIMS (1), 1, FALSE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (si), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (si, GNN_TEST_DATA (6, 15), 2, 0, 0);
  OK (sb = gnn_tensor_sum_all (b, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (sb), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (sb, GNN_TEST_DATA (4), 1, 0, 0);
  /* a non-contiguous input: (4, 3, 2) transposed view */
  OK (t = gnn_tensor_transpose (x, 0, 2, &error));
  OK (st = gnn_tensor_sum (t, DIMS (0), 1, FALSE, &error));
  gnn_test_assert_shape (st, GNN_TEST_SHAPE (3, 2), 2);
  gnn_test_assert_close (st, GNN_TEST_DATA (6, 54, 22, 70, 38, 86), 6, 0, 0);
  g_assert_null (gnn_tensor_mean (i, DIMS (0), 1, FALSE, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "Input dtype must be either a floating point");
}

static void
test_zero_size (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) e = NULL, s0 = NULL, s1 = NULL, m0 = NULL, v0 = NULL, sm = NULL, mx = NULL;
  g_autoptr(GnnTensor) idx = NULL;

  OK (e = gnn_tensor_new_zeros (GNN_TEST_SHAPE (0, 3), 2, GNN_DTYPE_FLOAT32, NULL, &error));
  OK (s0 = gnn_tensor_sum (e, DIMS (0), 1, FALSE, &error));
  gnn_test_assert_shape (s0, GNN_TEST_SHAPE (3), 1);
  gnn_test_assert_close (s0, GNN_TEST_DATA (0, 0, 0), 3, 0, 0);
  OK (s1 = gnn_tensor_sum (e, DIMS (1), 1, TRUE, &error));
  gnn_test_assert_shape (s1, GNN_TEST_SHAPE (0, 1), 2);
  OK (m0 = gnn_tensor_mean (e, DIMS (0), 1, FALSE, &error));
  gnn_test_assert_close (m0, GNN_TEST_DATA (NAN, NAN, NAN), 3, 0, 0);
  OK (v0 = gnn_tensor_var (e, DIMS (0), 1, 1.0, FALSE, &error));
  gnn_test_assert_close (v0, GNN_TEST_DATA (NAN, NAN, NAN), 3, 0, 0);
  OK (sm = gnn_tensor_softmax (e, 0, &error));
  gnn_test_assert_shape (sm, GNN_TEST_SHAPE (0, 3), 2);
  /* reducing the non-empty dimension of an empty tensor is allowed */
  OK (mx = gnn_tensor_max_dim (e, 1, FALSE, &idx, &error));
  gnn_test_assert_shape (mx, GNN_TEST_SHAPE (0), 1);
  gnn_test_assert_shape (idx, GNN_TEST_SHAPE (0), 1);
  /* but not the empty one */
  g_assert_null (gnn_tensor_max_dim (e, 0, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_INDEX, "max(): Expected reduction dim 0 to have non-zero size.");
  g_assert_null (gnn_tensor_argmin (e, 0, TRUE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "argmin(): Expected reduction dim 0 to have non-zero size.");
  g_assert_null (gnn_tensor_max_all (e, &error));
  assert_error (&error, GNN_ERROR_INDEX, "max(): Expected reduction dim to be specified for input.numel() == 0");
  g_assert_null (gnn_tensor_argmax_all (e, &error));
  assert_error (&error, GNN_ERROR_INDEX, "argmax(): Expected reduction dim to be specified");
}

static void
test_var (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 4, 7, 0, 3), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) v1 = NULL, v0 = NULL, vk = NULL, va = NULL, va0 = NULL, one = NULL, vone = NULL;
  g_autoptr(GnnTensor) f = NULL, vf = NULL, i = NULL, c3 = NULL;

  /* rows: mean 7/3, Σd² = 14/3; mean 10/3, Σd² = 74/3 */
  OK (v1 = gnn_tensor_var (x, DIMS (1), 1, 1.0, FALSE, &error));
  gnn_test_assert_close (v1, GNN_TEST_DATA (7.0 / 3, 37.0 / 3), 2, 1e-14, 0);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (v1), ==, NULL);
  OK (v0 = gnn_tensor_var (x, DIMS (1), 1, 0.0, FALSE, &error));
  gnn_test_assert_close (v0, GNN_TEST_DATA (14.0 / 9, 74.0 / 9), 2, 1e-14, 0);
  OK (vk = gnn_tensor_var (x, DIMS (0), 1, 1.0, TRUE, &error));
  gnn_test_assert_shape (vk, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_close (vk, GNN_TEST_DATA (18, 2, 0.5), 3, 1e-14, 0);
  /* all: mean 17/6, Σd² = 79 - 6 (17/6)² = 185/6 */
  OK (va = gnn_tensor_var_all (x, 1.0, &error));
  gnn_test_assert_shape (va, NULL, 0);
  gnn_test_assert_close (va, GNN_TEST_DATA (185.0 / 30), 1, 1e-14, 0);
  OK (va0 = gnn_tensor_var (x, NULL, 0, 0.0, FALSE, &error));
  gnn_test_assert_close (va0, GNN_TEST_DATA (185.0 / 36), 1, 1e-14, 0);
  /* one element with the unbiased estimate: 0/0 */
  OK (one = gnn_tensor_new_scalar (3, GNN_DTYPE_FLOAT64, NULL, &error));
  OK (vone = gnn_tensor_var_all (one, 1.0, &error));
  gnn_test_assert_close (vone, GNN_TEST_DATA (NAN), 1, 0, 0);
  /* correction >= N: Σd² / 0 */
  OK (c3 = gnn_tensor_var (x, DIMS (1), 1, 3.0, FALSE, &error));
  gnn_test_assert_close (c3, GNN_TEST_DATA (INFINITY, INFINITY), 2, 0, 0);
  /* float32 keeps its dtype */
  OK (f = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error));
  OK (vf = gnn_tensor_var (f, DIMS (1), 1, 1.0, FALSE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (vf), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (vf, GNN_TEST_DATA (7.0 / 3, 37.0 / 3), 2, 1e-6, 0);
  OK (i = gnn_tensor_to_dtype (x, GNN_DTYPE_INT64, &error));
  g_assert_null (gnn_tensor_var (i, DIMS (0), 1, 1.0, FALSE, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "std and var only support floating point");
}

static void
test_max_min (void)
{
  g_autoptr(GError) error = NULL;
  /* ties: 3 at (0, 1) and (0, 2); 2 at (1, 0) and (1, 1) */
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 3, 2, 2, 1), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) v = NULL, idx = NULL, vk = NULL, idxk = NULL, mn = NULL, mnidx = NULL;
  g_autoptr(GnnTensor) ma = NULL, mi = NULL, am = NULL, ami = NULL, ama = NULL, v0 = NULL;

  OK (v = gnn_tensor_max_dim (x, 1, FALSE, &idx, &error));
  gnn_test_assert_close (v, GNN_TEST_DATA (3, 2), 2, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (idx), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (idx, GNN_TEST_DATA (1, 0), 2, 0, 0);
  OK (vk = gnn_tensor_max_dim (x, 0, TRUE, &idxk, &error));
  gnn_test_assert_shape (vk, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_shape (idxk, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_close (vk, GNN_TEST_DATA (2, 3, 3), 3, 0, 0);
  gnn_test_assert_close (idxk, GNN_TEST_DATA (1, 0, 0), 3, 0, 0);
  OK (mn = gnn_tensor_min_dim (x, -1, FALSE, &mnidx, &error));
  gnn_test_assert_close (mn, GNN_TEST_DATA (1, 1), 2, 0, 0);
  gnn_test_assert_close (mnidx, GNN_TEST_DATA (0, 2), 2, 0, 0);
  /* indices are optional */
  OK (v0 = gnn_tensor_min_dim (x, 0, FALSE, NULL, &error));
  gnn_test_assert_close (v0, GNN_TEST_DATA (1, 2, 1), 3, 0, 0);
  OK (ma = gnn_tensor_max_all (x, &error));
  gnn_test_assert_shape (ma, NULL, 0);
  gnn_test_assert_close (ma, GNN_TEST_DATA (3), 1, 0, 0);
  OK (mi = gnn_tensor_min_all (x, &error));
  gnn_test_assert_close (mi, GNN_TEST_DATA (1), 1, 0, 0);
  OK (am = gnn_tensor_argmax (x, 1, FALSE, &error));
  gnn_test_assert_close (am, GNN_TEST_DATA (1, 0), 2, 0, 0);
  OK (ami = gnn_tensor_argmin (x, 0, TRUE, &error));
  gnn_test_assert_shape (ami, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_close (ami, GNN_TEST_DATA (0, 1, 1), 3, 0, 0);
  /* flat index of the first maximum */
  OK (ama = gnn_tensor_argmax_all (x, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (ama), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (ama, GNN_TEST_DATA (1), 1, 0, 0);
}

static void
test_max_min_special (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, NAN, 3, NAN, 2, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) v = NULL, idx = NULL, am = NULL, ma = NULL, mn = NULL, mnidx = NULL;
  g_autoptr(GnnTensor) i = NULL, iv = NULL, iidx = NULL, ia = NULL, b = NULL, bv = NULL, s = NULL, sv = NULL, sidx = NULL;

  /* NaN propagates and its first index is returned */
  OK (v = gnn_tensor_max_dim (x, 1, FALSE, &idx, &error));
  gnn_test_assert_close (v, GNN_TEST_DATA (NAN, NAN), 2, 0, 0);
  gnn_test_assert_close (idx, GNN_TEST_DATA (1, 0), 2, 0, 0);
  OK (mn = gnn_tensor_min_dim (x, 0, FALSE, &mnidx, &error));
  gnn_test_assert_close (mn, GNN_TEST_DATA (NAN, NAN, 3), 3, 0, 0);
  gnn_test_assert_close (mnidx, GNN_TEST_DATA (1, 0, 0), 3, 0, 0);
  OK (am = gnn_tensor_argmax_all (x, &error));
  gnn_test_assert_close (am, GNN_TEST_DATA (1), 1, 0, 0);
  OK (ma = gnn_tensor_max_all (x, &error));
  gnn_test_assert_close (ma, GNN_TEST_DATA (NAN), 1, 0, 0);
  /* int64 keeps its dtype */
  OK (i = gnn_tensor_new_from_int64s ((const gint64[]) { 1, 5, 2, 7, 0, 7 }, 6, GNN_TEST_SHAPE (2, 3), 2, &error));
  OK (iv = gnn_tensor_max_dim (i, 1, FALSE, &iidx, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (iv), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (iv, GNN_TEST_DATA (5, 7), 2, 0, 0);
  gnn_test_assert_close (iidx, GNN_TEST_DATA (1, 0), 2, 0, 0);
  OK (ia = gnn_tensor_min_all (i, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (ia), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (ia, GNN_TEST_DATA (0), 1, 0, 0);
  /* bool: max works, argmax is refused as in PyTorch */
  OK (b = gnn_tensor_gt_scalar (i, 4, &error));
  OK (bv = gnn_tensor_max_all (b, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (bv), ==, GNN_DTYPE_BOOL);
  gnn_test_assert_close (bv, GNN_TEST_DATA (1), 1, 0, 0);
  g_assert_null (gnn_tensor_argmax (b, 0, FALSE, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "argmax(): not implemented for bool");
  /* a zero-dimensional tensor reduces over dim 0 or -1 to itself */
  OK (s = gnn_tensor_new_scalar (4, GNN_DTYPE_FLOAT32, NULL, &error));
  OK (sv = gnn_tensor_max_dim (s, -1, TRUE, &sidx, &error));
  gnn_test_assert_shape (sv, NULL, 0);
  gnn_test_assert_close (sv, GNN_TEST_DATA (4), 1, 0, 0);
  gnn_test_assert_close (sidx, GNN_TEST_DATA (0), 1, 0, 0);
}

static void
test_softmax (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 1000, 1001, 1002), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) s = NULL, ls = NULL, s0 = NULL, f = NULL, fs = NULL, sc = NULL, ssc = NULL, inf = NULL, sinf = NULL;
  g_autoptr(GnnTensor) linf = NULL, i = NULL;
  double z = 1 + exp (1) + exp (2);
  double a = 1 / z, b = exp (1) / z, c = exp (2) / z, lz = log (z);

  /* subtracting the maximum keeps large inputs finite */
  OK (s = gnn_tensor_softmax (x, 1, &error));
  gnn_test_assert_close (s, GNN_TEST_DATA (a, b, c, a, b, c), 6, 1e-14, 0);
  OK (ls = gnn_tensor_log_softmax (x, -1, &error));
  gnn_test_assert_close (ls, GNN_TEST_DATA (-lz, 1 - lz, 2 - lz, -lz, 1 - lz, 2 - lz), 6, 1e-13, 1e-12);
  /* along dim 0, the 999 gap underflows to exactly 0 and 1 */
  OK (s0 = gnn_tensor_softmax (x, 0, &error));
  gnn_test_assert_close (s0, GNN_TEST_DATA (0, 0, 0, 1, 1, 1), 6, 0, 0);
  OK (f = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error));
  OK (fs = gnn_tensor_softmax (f, 1, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (fs), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (fs, GNN_TEST_DATA (a, b, c, a, b, c), 6, 1e-6, 0);
  /* zero-dimensional: softmax is one, log_softmax zero */
  OK (sc = gnn_tensor_new_scalar (7, GNN_DTYPE_FLOAT32, NULL, &error));
  OK (ssc = gnn_tensor_softmax (sc, 0, &error));
  gnn_test_assert_close (ssc, GNN_TEST_DATA (1), 1, 0, 0);
  /* -inf entries get probability zero; a row of -inf is NaN as in PyTorch */
  OK (inf = gnn_test_tensor_d (GNN_TEST_DATA (-INFINITY, 0, -INFINITY, -INFINITY), 4, GNN_TEST_SHAPE (2, 2), 2));
  OK (sinf = gnn_tensor_softmax (inf, 1, &error));
  gnn_test_assert_close (sinf, GNN_TEST_DATA (0, 1, NAN, NAN), 4, 0, 0);
  OK (linf = gnn_tensor_log_softmax (inf, 1, &error));
  gnn_test_assert_close (linf, GNN_TEST_DATA (-INFINITY, 0, NAN, NAN), 4, 0, 0);
  OK (i = gnn_tensor_to_dtype (x, GNN_DTYPE_INT64, &error));
  g_assert_null (gnn_tensor_softmax (i, 1, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "softmax: expected a floating-point tensor, got int64");
  g_assert_null (gnn_tensor_log_softmax (x, 2, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = iota_234 ();

  g_assert_null (gnn_tensor_sum (x, DIMS (3), 1, FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  g_assert_null (gnn_tensor_var (x, DIMS (0, -3), 2, 1.0, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "dim 0 appears multiple times in the list of dims");
  g_assert_null (gnn_tensor_mean (x, DIMS (-4), 1, FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "but got -4");
  g_assert_null (gnn_tensor_max_dim (x, 5, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range");
  g_assert_null (gnn_tensor_argmax (x, -4, FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range");
  g_assert_null (gnn_tensor_softmax (x, 3, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range");
}

static void
test_grad_fn_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = iota_234 ();
  struct { GnnTensor *t; const char *name; } cases[9] = { { NULL } };

  gnn_tensor_set_requires_grad (x, TRUE, &error);
  cases[0].t = gnn_tensor_var (x, DIMS (1), 1, 1.0, FALSE, &error), cases[0].name = "VarBackward0";
  cases[1].t = gnn_tensor_var_all (x, 0.0, &error), cases[1].name = "VarBackward0";
  cases[2].t = gnn_tensor_max_dim (x, 1, FALSE, NULL, &error), cases[2].name = "MaxBackward0";
  cases[3].t = gnn_tensor_min_dim (x, 1, FALSE, NULL, &error), cases[3].name = "MinBackward0";
  cases[4].t = gnn_tensor_max_all (x, &error), cases[4].name = "MaxBackward1";
  cases[5].t = gnn_tensor_min_all (x, &error), cases[5].name = "MinBackward1";
  cases[6].t = gnn_tensor_softmax (x, 1, &error), cases[6].name = "SoftmaxBackward0";
  cases[7].t = gnn_tensor_log_softmax (x, 1, &error), cases[7].name = "LogSoftmaxBackward0";
  cases[8].t = gnn_tensor_sum (x, DIMS (0), 1, FALSE, &error), cases[8].name = "SumBackward1";
  g_assert_no_error (error);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_assert_cmpstr (gnn_tensor_get_grad_fn_name (cases[k].t), ==, cases[k].name);
      g_object_unref (cases[k].t);
    }
  {
    /* argmax and the indices carry no history */
    g_autoptr(GnnTensor) idx = NULL, am = NULL;
    g_autoptr(GnnTensor) v = gnn_tensor_max_dim (x, 0, FALSE, &idx, &error);
    am = gnn_tensor_argmax (x, 0, FALSE, &error);
    g_assert_no_error (error);
    g_assert_false (gnn_tensor_get_requires_grad (idx));
    g_assert_false (gnn_tensor_get_requires_grad (am));
    g_assert_cmpstr (gnn_tensor_get_grad_fn_name (idx), ==, NULL);
  }
}

/* The gradient of max over a dim goes to the returned (first) index; max over everything
 * shares it among ties. */
static void
test_max_backward_ties (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 3, 2, 2, 1), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) v = NULL, s = NULL, m = NULL;
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 3, 2, NAN, NAN), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) my = NULL;

  gnn_tensor_set_requires_grad (x, TRUE, &error);
  OK (v = gnn_tensor_max_dim (x, 1, FALSE, NULL, &error));
  OK (s = gnn_tensor_sum_all (v, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (0, 1, 0, 1, 0, 0), 6, 0, 0);
  OK (gnn_tensor_set_grad (x, NULL, &error));
  OK (m = gnn_tensor_max_all (x, &error));
  OK (gnn_tensor_backward (m, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (0, 0.5, 0.5, 0, 0, 0), 6, 0, 0);
  /* a NaN maximum shares the gradient among the NaNs */
  gnn_tensor_set_requires_grad (y, TRUE, &error);
  OK (my = gnn_tensor_max_all (y, &error));
  OK (gnn_tensor_backward (my, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (y), GNN_TEST_DATA (0, 0, 0, 0, 0.5, 0.5), 6, 0, 0);
}

/* amax / amin over dims share each group's gradient among its ties (scale_grad_by_count);
 * a group whose extreme is NaN gets NaN everywhere, as in PyTorch */
static void
test_amax_amin (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 3, 2, 2, 1), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 3, 2, NAN, 0), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) a = NULL, b = NULL, n = NULL, go = NULL, e = NULL, z = NULL;

  gnn_tensor_set_requires_grad (x, TRUE, &error);
  OK (a = gnn_tensor_amax (x, DIMS (1), 1, FALSE, &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (3, 2), 2, 0, 0);
  go = gnn_test_tensor_d (GNN_TEST_DATA (2, 6), 2, GNN_TEST_SHAPE (2), 1);
  OK (gnn_tensor_backward (a, go, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (0, 1, 1, 3, 3, 0), 6, 0, 0);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (a), ==, "AmaxBackward0");
  OK (gnn_tensor_set_grad (x, NULL, &error));
  OK (b = gnn_tensor_amin (x, NULL, 0, TRUE, &error));
  gnn_test_assert_shape (b, GNN_TEST_SHAPE (1, 1), 2);
  OK (gnn_tensor_backward (b, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (0.5, 0, 0, 0, 0, 0.5), 6, 0, 0);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (b), ==, "AminBackward0");
  gnn_tensor_set_requires_grad (y, TRUE, &error);
  OK (n = gnn_tensor_amax (y, DIMS (-1), 1, FALSE, &error));
  OK (gnn_tensor_backward (n, go, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (y), GNN_TEST_DATA (0, 1, 1, NAN, NAN, NAN), 6, 0, 0);
  /* what PyTorch refuses */
  e = gnn_test_tensor_d (NULL, 0, GNN_TEST_SHAPE (2, 0), 2);
  g_assert_null (gnn_tensor_amax (e, DIMS (1), 1, FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Expected reduction dim 1 to have non-zero size");
  g_assert_null (gnn_tensor_amin (e, NULL, 0, FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Expected reduction dim to be specified");
  g_assert_null (gnn_tensor_amax (x, DIMS (0, -2), 2, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "appears multiple times");
  OK (z = gnn_tensor_amax (e, DIMS (0), 1, FALSE, &error));
  gnn_test_assert_shape (z, GNN_TEST_SHAPE (0), 1);
}

/* ---- gradient checks (float64 finite differences) ------------------------------------ */

typedef struct {
  int dims[3];
  guint n_dims;
  gboolean keepdim;
  double correction;
  int which;
} ReduceCase;

enum { F_SUM, F_MEAN, F_VAR, F_MAX_DIM, F_MIN_DIM, F_MAX_ALL, F_SOFTMAX, F_LOG_SOFTMAX, F_AMAX, F_AMIN };

static GnnTensor *
f_reduce (GnnTensor *x, gpointer data, GError **error)
{
  ReduceCase *c = data;

  switch (c->which)
    {
    case F_SUM:
      return gnn_tensor_sum (x, c->dims, c->n_dims, c->keepdim, error);
    case F_MEAN:
      return gnn_tensor_mean (x, c->dims, c->n_dims, c->keepdim, error);
    case F_VAR:
      return gnn_tensor_var (x, c->dims, c->n_dims, c->correction, c->keepdim, error);
    case F_MAX_DIM:
      return gnn_tensor_max_dim (x, c->dims[0], c->keepdim, NULL, error);
    case F_MIN_DIM:
      return gnn_tensor_min_dim (x, c->dims[0], c->keepdim, NULL, error);
    case F_MAX_ALL:
      return gnn_tensor_max_all (x, error);
    case F_SOFTMAX:
      return gnn_tensor_softmax (x, c->dims[0], error);
    case F_AMAX:
      return gnn_tensor_amax (x, c->dims, c->n_dims, c->keepdim, error);
    case F_AMIN:
      return gnn_tensor_amin (x, c->dims, c->n_dims, c->keepdim, error);
    default:
      return gnn_tensor_log_softmax (x, c->dims[0], error);
    }
}

/* a (2, 3, 4) float64 input with distinct values, so that max and min are unique */
static GnnTensor *
distinct_234 (gboolean transposed)
{
  double v[24];
  GnnTensor *t;

  for (int i = 0; i < 24; i++)
    v[i] = sin (1.3 * i + 0.2) * 2 + 0.01 * i;
  t = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  if (transposed)
    {
      g_autoptr(GnnTensor) owned = t;
      g_autoptr(GError) error = NULL;
      t = gnn_tensor_transpose (owned, 0, 2, &error);
      g_assert_no_error (error);
    }
  return t;
}

static void
test_gradcheck (void)
{
  ReduceCase cases[] = {
    { { 0 }, 1, FALSE, 0, F_SUM },
    { { 0, 2 }, 2, TRUE, 0, F_SUM },
    { { 0 }, 0, FALSE, 0, F_SUM },
    { { 1 }, 1, FALSE, 0, F_MEAN },
    { { 2, 0 }, 2, TRUE, 0, F_MEAN },
    { { 1 }, 1, FALSE, 1, F_VAR },
    { { 0, 2 }, 2, TRUE, 1, F_VAR },
    { { 0 }, 0, FALSE, 0, F_VAR },
    { { -1 }, 1, FALSE, 2, F_VAR },
    { { 1 }, 1, FALSE, 0, F_MAX_DIM },
    { { 2 }, 1, TRUE, 0, F_MAX_DIM },
    { { 0 }, 1, FALSE, 0, F_MIN_DIM },
    { { 0 }, 0, FALSE, 0, F_MAX_ALL },
    { { 1 }, 1, FALSE, 0, F_SOFTMAX },
    { { 0 }, 1, FALSE, 0, F_SOFTMAX },
    { { -1 }, 1, FALSE, 0, F_LOG_SOFTMAX },
    { { 1 }, 1, FALSE, 0, F_LOG_SOFTMAX },
    { { 0, 2 }, 2, FALSE, 0, F_AMAX },
    { { 1 }, 1, TRUE, 0, F_AMAX },
    { { 0 }, 0, FALSE, 0, F_AMIN },
    { { -1, 0 }, 2, TRUE, 0, F_AMIN },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    for (int tr = 0; tr < 2; tr++)
      {
        g_autoptr(GnnTensor) x = distinct_234 (FALSE);
        if (tr)
          {
            /* another shape: (4, 3, 2) */
            g_autoptr(GnnTensor) c = NULL;
            g_autoptr(GError) error = NULL;
            OK (c = gnn_tensor_transpose (x, 0, 2, &error));
            g_clear_object (&x);
            OK (x = gnn_tensor_contiguous (c, &error));
          }
        gnn_test_gradcheck (f_reduce, &cases[k], x, 1e-6, 1e-6);
      }
}

/* A non-contiguous leaf (a transposed view's base) gets the gradient */
static GnnTensor *
f_transposed_softmax_var (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (x, 0, 1, error);
  g_autoptr(GnnTensor) s = t ? gnn_tensor_softmax (t, 0, error) : NULL;
  return s ? gnn_tensor_var (s, DIMS (1), 1, 1.0, TRUE, error) : NULL;
}

static void
test_gradcheck_views (void)
{
  g_autoptr(GnnTensor) x = distinct_234 (FALSE);

  gnn_test_gradcheck (f_transposed_softmax_var, NULL, x, 1e-6, 1e-6);
}

/* ---- large inputs: the parallel and blocked paths ------------------------------------ */

static void
test_large_and_thread_independent (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 n = 100003;   /* above the blocked single-reduction threshold */
  g_autofree float *v = g_new (float, n);
  g_autoptr(GnnTensor) x = NULL, r = NULL;
  double mean = 0, m2 = 0, mx = -INFINITY;
  gint64 at = 0;
  int saved = gnn_get_num_threads ();
  double *first[5] = { NULL };

  for (gint64 i = 0; i < n; i++)
    {
      v[i] = (float) (sin (0.37 * (double) i) * 3 + cos (0.011 * (double) i));
      mean += v[i];
      if (v[i] > mx)
        {
          mx = v[i];
          at = i;
        }
    }
  mean /= (double) n;
  for (gint64 i = 0; i < n; i++)
    m2 += (v[i] - mean) * (v[i] - mean);
  OK (x = gnn_tensor_new_from_floats (v, n, GNN_TEST_SHAPE (n), 1, &error));
  {
    g_autoptr(GnnTensor) var = NULL, ma = NULL, am = NULL;
    OK (var = gnn_tensor_var_all (x, 1.0, &error));
    gnn_test_assert_close (var, &(double) { m2 / (double) (n - 1) }, 1, 1e-6, 0);
    OK (ma = gnn_tensor_max_all (x, &error));
    gnn_test_assert_close (ma, &mx, 1, 0, 0);
    OK (am = gnn_tensor_argmax_all (x, &error));
    gnn_test_assert_close (am, &(double) { (double) at }, 1, 0, 0);
  }
  OK (r = gnn_tensor_reshape (x, GNN_TEST_SHAPE (1, 100003), 2, &error));
  {
    /* one long softmax row */
    g_autoptr(GnnTensor) sr = NULL, ssum = NULL;
    OK (sr = gnn_tensor_softmax (r, 1, &error));
    OK (ssum = gnn_tensor_sum_all (sr, &error));
    gnn_test_assert_close (ssum, GNN_TEST_DATA (1), 1, 1e-5, 0);
  }
  /* the same bits whatever the number of threads */
  for (int threads = 1; threads <= 4; threads += 3)
    {
      g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL, e = NULL;
      g_autoptr(GnnTensor) t = NULL, tv = NULL;
      GnnTensor *outs[5];
      gnn_set_num_threads (threads);
      OK (a = gnn_tensor_var_all (x, 1.0, &error));
      OK (b = gnn_tensor_sum_all (x, &error));
      OK (tv = gnn_tensor_narrow (x, 0, 0, 100000, &error));
      OK (t = gnn_tensor_reshape (tv, GNN_TEST_SHAPE (1000, 100), 2, &error));
      OK (c = gnn_tensor_softmax (t, 1, &error));
      OK (d = gnn_tensor_var (t, DIMS (0), 1, 0.0, FALSE, &error));
      OK (e = gnn_tensor_log_softmax (t, 0, &error));
      outs[0] = a, outs[1] = b, outs[2] = c, outs[3] = d, outs[4] = e;
      for (int k = 0; k < 5; k++)
        {
          gsize m;
          double *got = gnn_tensor_to_doubles (outs[k], &m, &error);
          g_assert_no_error (error);
          if (first[k] == NULL)
            first[k] = got;
          else
            {
              g_assert_cmpmem (first[k], m * sizeof (double), got, m * sizeof (double));
              g_free (got);
            }
        }
    }
  gnn_set_num_threads (saved);
  for (int k = 0; k < 5; k++)
    g_free (first[k]);
}

/* Counts of each category in @samples (int64, values in [0, k)) over rows of @n_cols drawn
 * from column @col (every column for -1) */
static void
count_categories (GnnTensor *samples, gint64 n_cols, gint64 col, gint64 k, double *counts)
{
  g_autoptr(GError) error = NULL;
  gint64 numel = gnn_tensor_get_numel (samples);
  g_autofree gint64 *v = NULL;

  OK (v = gnn_tensor_to_int64s (samples, NULL, &error));
  for (gint64 j = 0; j < k; j++)
    counts[j] = 0;
  for (gint64 i = 0; i < numel; i++)
    {
      g_assert_cmpint (v[i], >=, 0);
      g_assert_cmpint (v[i], <, k);
      if (col < 0 || i % n_cols == col)
        counts[v[i]]++;
    }
}

/* Each count within six standard deviations of its binomial mean n p (the draws are fixed by
 * the seed, so this cannot flake; a wrong distribution is off by tens of deviations) */
static void
assert_binomial (const double *counts, const double *p, gint64 k, double n)
{
  for (gint64 j = 0; j < k; j++)
    {
      double sd = sqrt (n * p[j] * (1 - p[j]));

      if (p[j] == 0)
        g_assert_cmpfloat (counts[j], ==, 0);
      else if (fabs (counts[j] - n * p[j]) > 6 * sd)
        g_error ("category %" G_GINT64_FORMAT ": %g draws, expected %g ± %g", j, counts[j], n * p[j], 6 * sd);
    }
}

static void
test_multinomial (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1234);
  /* weights, not summing to one; category 2 of row 0 and 0 of row 1 have weight zero */
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 0, 4, 0, 2, 1, 1), 8, GNN_TEST_SHAPE (2, 4), 2);
  g_autoptr(GnnTensor) w32 = NULL, with = NULL, w1 = NULL, s1 = NULL, again = NULL, rows = NULL, perm = NULL;
  g_autofree gint64 *a = NULL, *b = NULL, *pv = NULL;
  const double p0[4] = { 0.125, 0.375, 0, 0.5 }, p1[4] = { 0, 0.5, 0.25, 0.25 };
  const double q[4] = { 0.1, 0.2, 0.3, 0.4 };
  double counts[4], second[4] = { 0 };
  gint64 n = 20000, n_rows = 5000;

  /* with replacement, float32 weights, 2-d */
  OK (w32 = gnn_tensor_to_dtype (w, GNN_DTYPE_FLOAT32, &error));
  OK (with = gnn_tensor_multinomial (w32, n, TRUE, gen, &error));
  gnn_test_assert_shape (with, GNN_TEST_SHAPE (2, n), 2);
  g_assert_cmpint (gnn_tensor_get_dtype (with), ==, GNN_DTYPE_INT64);
  {
    g_autoptr(GnnTensor) r0 = NULL, r1 = NULL;

    OK (r0 = gnn_tensor_select (with, 0, 0, &error));
    OK (r1 = gnn_tensor_select (with, 0, 1, &error));
    count_categories (r0, n, -1, 4, counts);
    assert_binomial (counts, p0, 4, n);
    count_categories (r1, n, -1, 4, counts);
    assert_binomial (counts, p1, 4, n);
  }

  /* 1-d: (num_samples); the same generator state gives the same draws */
  OK (w1 = gnn_tensor_select (w, 0, 1, &error));
  gnn_generator_manual_seed (gen, 7);
  OK (s1 = gnn_tensor_multinomial (w1, 3, FALSE, gen, &error));
  gnn_test_assert_shape (s1, GNN_TEST_SHAPE (3), 1);
  gnn_generator_manual_seed (gen, 7);
  OK (again = gnn_tensor_multinomial (w1, 3, FALSE, gen, &error));
  OK (a = gnn_tensor_to_int64s (s1, NULL, &error));
  OK (b = gnn_tensor_to_int64s (again, NULL, &error));
  for (int i = 0; i < 3; i++)
    {
      g_assert_cmpint (a[i], ==, b[i]);
      /* three categories have positive weight: the zero one is never among them */
      g_assert_cmpint (a[i], !=, 0);
    }
  g_assert_cmpint (a[0], !=, a[1]);
  g_assert_cmpint (a[0], !=, a[2]);
  g_assert_cmpint (a[1], !=, a[2]);

  /* without replacement: every row a permutation, the first draw distributed as q, the second
   * as Σ_i q_i q_j / (1 - q_i) over i ≠ j */
  {
    g_autoptr(GnnTensor) q1 = gnn_test_tensor_d (q, 4, GNN_TEST_SHAPE (1, 4), 2);

    OK (rows = gnn_tensor_expand (q1, GNN_TEST_SHAPE (n_rows, 4), 2, &error));
  }
  OK (perm = gnn_tensor_multinomial (rows, 4, FALSE, gen, &error));
  gnn_test_assert_shape (perm, GNN_TEST_SHAPE (n_rows, 4), 2);
  OK (pv = gnn_tensor_to_int64s (perm, NULL, &error));
  for (gint64 r = 0; r < n_rows; r++)
    {
      int seen = 0;

      for (int j = 0; j < 4; j++)
        seen |= 1 << pv[r * 4 + j];
      g_assert_cmpint (seen, ==, 15);
    }
  count_categories (perm, 4, 0, 4, counts);
  assert_binomial (counts, q, 4, n_rows);
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 4; i++)
      if (i != j)
        second[j] += q[i] * q[j] / (1 - q[i]);
  count_categories (perm, 4, 1, 4, counts);
  assert_binomial (counts, second, 4, n_rows);
}

static void
test_multinomial_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) neg = gnn_test_tensor_d (GNN_TEST_DATA (-0.1, 0.3), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) inf = gnn_test_tensor_d (GNN_TEST_DATA (INFINITY, 0.3), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) nan = gnn_test_tensor_d (GNN_TEST_DATA (0.3, NAN), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) zero = gnn_test_tensor_d (GNN_TEST_DATA (1, 1, 0, 0), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) ok = gnn_test_tensor_d (GNN_TEST_DATA (0.2, 0.3, 0.5), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) cube = gnn_test_tensor_d (GNN_TEST_DATA (1, 1), 2, GNN_TEST_SHAPE (1, 1, 2), 3);
  g_autoptr(GnnTensor) ints = gnn_tensor_new_from_int64s ((const gint64[]) { 1, 2 }, 2, GNN_TEST_SHAPE (2), 1, &error);

  g_assert_null (gnn_tensor_multinomial (neg, 1, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_FAILED, "contains either `inf`, `nan` or element < 0");
  g_assert_null (gnn_tensor_multinomial (inf, 1, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_FAILED, "contains either `inf`, `nan` or element < 0");
  g_assert_null (gnn_tensor_multinomial (nan, 1, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_FAILED, "contains either `inf`, `nan` or element < 0");
  g_assert_null (gnn_tensor_multinomial (zero, 1, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_FAILED, "sum of probabilities <= 0");
  g_assert_null (gnn_tensor_multinomial (ok, 4, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "(4 samples, 3 categories)");
  g_assert_null (gnn_tensor_multinomial (ok, 0, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "n_sample <= 0");
  g_assert_null (gnn_tensor_multinomial (cube, 1, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "must be 1 or 2 dim, got a 3-dim");
  g_assert_null (gnn_tensor_multinomial (ints, 1, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "floating-point dtypes for input, got: int64");
}

static GnnTensor *
vector_norm_fn (GnnTensor *x, gpointer data, GError **error)
{
  return gnn_linalg_vector_norm (x, *(double *) data, DIMS (1), 1, FALSE, error);
}

static GnnTensor *
cdist_fn (GnnTensor *x, gpointer data, GError **error)
{
  return gnn_tensor_cdist (x, data, 3.0, error);
}

static GnnTensor *
normalize_fn (GnnTensor *x, gpointer data, GError **error)
{
  return gnn_tensor_normalize (x, 2.0, 1, 1e-12, error);
}

/* the norms' gradients against finite differences in float64, the subgradient at zero, and
 * the orders that need singular values refused */
static void
test_norms (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 0.8, 1.5, -0.4, 0.9), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (0.1, 0.7, -0.5, 1.1, 0.2, -0.9, 0.6, 0.4, 1.3, -0.2, 0.5, 0.8),
                                              12, GNN_TEST_SHAPE (4, 3), 2);
  g_autoptr(GnnTensor) zero = gnn_test_tensor_d (GNN_TEST_DATA (0, 0, 0), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) n = NULL, fro = NULL, m = NULL, one = NULL;
  const double ords[] = { 2, 1, 3, 0.5, INFINITY, -INFINITY };

  for (guint i = 0; i < G_N_ELEMENTS (ords); i++)
    gnn_test_gradcheck (vector_norm_fn, (gpointer) &ords[i], x, 1e-6, 1e-6);
  gnn_test_gradcheck (cdist_fn, y, x, 1e-6, 1e-6);
  gnn_test_gradcheck (normalize_fn, NULL, x, 1e-6, 1e-6);

  OK (gnn_tensor_set_requires_grad (zero, TRUE, &error));
  OK (n = gnn_linalg_vector_norm (zero, 2, NULL, 0, FALSE, &error));
  gnn_test_assert_close (n, GNN_TEST_DATA (0), 1, 0, 0);
  OK (gnn_tensor_backward (n, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (zero), GNN_TEST_DATA (0, 0, 0), 3, 0, 0);

  OK (fro = gnn_linalg_matrix_norm_str (x, "fro", -2, -1, FALSE, &error));
  gnn_test_assert_close (fro, GNN_TEST_DATA (sqrt (0.09 + 1.44 + 0.64 + 2.25 + 0.16 + 0.81)), 1, 1e-15, 0);
  /* x requires grad after the gradchecks: amax's node once saved a view of its own output,
   * a cycle that valgrind reported as lost */
  OK (m = gnn_linalg_matrix_norm (x, INFINITY, 0, 1, FALSE, &error));
  gnn_test_assert_close (m, GNN_TEST_DATA (2.8), 1, 1e-15, 0);
  OK (one = gnn_linalg_matrix_norm (x, 1, 0, 1, TRUE, &error));
  gnn_test_assert_shape (one, GNN_TEST_SHAPE (1, 1), 2);
  gnn_test_assert_close (one, GNN_TEST_DATA (1.8), 1, 1e-15, 0);
  /* the singular values of x: 2.10392715, 0.98157554 (numpy.linalg.svd) */
  {
    g_autoptr(GnnTensor) two = NULL, mtwo = NULL, nuc = NULL;

    OK (two = gnn_linalg_matrix_norm (x, 2, 0, 1, FALSE, &error));
    gnn_test_assert_close (two, GNN_TEST_DATA (2.10392715), 1, 1e-8, 0);
    OK (mtwo = gnn_linalg_matrix_norm (x, -2, 1, 0, TRUE, &error));
    gnn_test_assert_shape (mtwo, GNN_TEST_SHAPE (1, 1), 2);
    gnn_test_assert_close (mtwo, GNN_TEST_DATA (0.98157554), 1, 1e-8, 0);
    OK (nuc = gnn_linalg_matrix_norm_str (x, "nuc", 0, 1, FALSE, &error));
    gnn_test_assert_close (nuc, GNN_TEST_DATA (2.10392715 + 0.98157554), 1, 1e-8, 0);
  }
  g_assert_null (gnn_linalg_matrix_norm (zero, 1, 0, 1, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "at least 2 dimensions");
  g_assert_null (gnn_tensor_cdist (x, zero, 2, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "at least 2D");
}

/* ---- logsumexp, prod, nansum, nan_to_num, var_mean / std_mean, the predicates ---------- */

typedef enum { F_LOGSUMEXP, F_PROD, F_PROD_ALL, F_NANSUM, F_NAN_TO_NUM, F_VAR_MEAN, F_STD_MEAN } MoreOp;

/* a scalar of each op's result(s), weighted so that every output element counts differently */
static GnnTensor *
weighted_sum (GnnTensor *t, GError **error)
{
  g_autoptr(GnnTensor) w = NULL, s = NULL;
  gint64 n = gnn_tensor_get_numel (t);

  if (!(w = gnn_tensor_new_arange (1.0, (double) n + 1.0, 1.0, GNN_DTYPE_FLOAT64, NULL, error)))
    return NULL;
  {
    g_autoptr(GnnTensor) ws = gnn_tensor_reshape (w, gnn_tensor_get_shape (t, NULL), gnn_tensor_get_ndim (t), error);
    if (ws == NULL || !(s = gnn_tensor_mul (t, ws, error)))
      return NULL;
  }
  return gnn_tensor_sum_all (s, error);
}

static GnnTensor *
f_more (GnnTensor *x, gpointer data, GError **error)
{
  MoreOp op = GPOINTER_TO_INT (data);
  g_autoptr(GnnTensor) y = NULL, m = NULL, a = NULL, b = NULL;

  switch (op)
    {
    case F_LOGSUMEXP:
      y = gnn_tensor_logsumexp (x, DIMS (0, -1), 2, FALSE, error);
      break;
    case F_PROD:
      y = gnn_tensor_prod (x, 1, TRUE, error);
      break;
    case F_PROD_ALL:
      y = gnn_tensor_prod_all (x, error);
      break;
    case F_NANSUM:
      y = gnn_tensor_nansum (x, DIMS (-1), 1, FALSE, error);
      break;
    case F_NAN_TO_NUM:
      y = gnn_tensor_nan_to_num (x, 0.0, NAN, NAN, error);
      break;
    case F_VAR_MEAN:
    case F_STD_MEAN:
      y = (op == F_VAR_MEAN ? gnn_tensor_var_mean : gnn_tensor_std_mean) (x, DIMS (1), 1, 1.0, FALSE, &m, error);
      if (y == NULL || !(a = weighted_sum (y, error)) || !(b = gnn_tensor_mul_scalar (m, 0.7, error)))
        return NULL;
      g_clear_object (&m);
      if (!(m = weighted_sum (b, error)))
        return NULL;
      return gnn_tensor_add (a, m, 1.0, error);
    }
  return y ? weighted_sum (y, error) : NULL;
}

static void
test_more_gradcheck (void)
{
  /* prod: one zero in a row of dim 1 (exact gradient) and two in another (zero gradient) */
  g_autoptr(GnnTensor) zeros = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 0.0, 1.2, -0.7, 0.0, 0.0, 0.9, 1.1, -1.3, 0.6, 0.8, 1.4),
                                                  12, GNN_TEST_SHAPE (2, 3, 2), 3);
  g_autoptr(GnnTensor) small = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -0.3, 1.2, -0.7, 0.4, 0.2), 6,
                                                  GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) two_zeros = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 0.0, 1.2, -0.7, 0.0, 0.2), 6,
                                                      GNN_TEST_SHAPE (3, 2), 2);
  const MoreOp ops[] = { F_LOGSUMEXP, F_PROD, F_NANSUM, F_NAN_TO_NUM, F_VAR_MEAN, F_STD_MEAN };

  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      g_autoptr(GnnTensor) x = distinct_234 (FALSE);

      gnn_test_gradcheck (f_more, GINT_TO_POINTER (ops[k]), x, 1e-6, 1e-6);
    }
  gnn_test_gradcheck (f_more, GINT_TO_POINTER (F_PROD), zeros, 1e-6, 1e-6);
  gnn_test_gradcheck (f_more, GINT_TO_POINTER (F_PROD_ALL), small, 1e-6, 1e-6);
  /* the backward is written with ops: second derivatives */
  gnn_test_gradgradcheck (f_more, GINT_TO_POINTER (F_LOGSUMEXP), small, 1e-6, 1e-5);
  gnn_test_gradgradcheck (f_more, GINT_TO_POINTER (F_PROD), zeros, 1e-6, 1e-5);
  gnn_test_gradgradcheck (f_more, GINT_TO_POINTER (F_PROD_ALL), small, 1e-6, 1e-5);
  gnn_test_gradgradcheck (f_more, GINT_TO_POINTER (F_PROD_ALL), two_zeros, 1e-6, 1e-5);
  gnn_test_gradgradcheck (f_more, GINT_TO_POINTER (F_STD_MEAN), small, 1e-6, 1e-5);
}

static void
test_more_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) inf = gnn_test_tensor_d (GNN_TEST_DATA (-INFINITY, -INFINITY, 1.0, 2.0, INFINITY, 1.0), 6,
                                                GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) odd = gnn_test_tensor_d (GNN_TEST_DATA (NAN, 1.5, INFINITY, -INFINITY, 0.0, -2.0), 6,
                                                GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) l = NULL, p = NULL, nz = NULL, all = NULL, any = NULL, ns = NULL, nm = NULL, n2n = NULL;
  g_autoptr(GnnTensor) isnan_ = NULL, isinf_ = NULL, fin = NULL, pos = NULL, neg = NULL, real = NULL, v = NULL, m = NULL;
  g_autoptr(GnnTensor) ints = NULL, ip = NULL, lse_int = NULL;

  /* rows of -inf give -inf, a row holding +inf gives +inf */
  OK (l = gnn_tensor_logsumexp (inf, DIMS (1), 1, FALSE, &error));
  gnn_test_assert_close (l, GNN_TEST_DATA (-INFINITY, 2.0 + log1p (exp (-1.0)), INFINITY), 3, 1e-15, 0);
  OK (p = gnn_tensor_prod (odd, 0, FALSE, &error));
  gnn_test_assert_close (p, GNN_TEST_DATA (NAN, 0.0, -INFINITY), 3, 0, 0);
  OK (nz = gnn_tensor_count_nonzero (odd, DIMS (1), 1, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (nz), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (nz, GNN_TEST_DATA (3, 2), 2, 0, 0);
  OK (all = gnn_tensor_all (odd, DIMS (1), 1, TRUE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (all), ==, GNN_DTYPE_BOOL);
  gnn_test_assert_shape (all, GNN_TEST_SHAPE (2, 1), 2);
  gnn_test_assert_close (all, GNN_TEST_DATA (1, 0), 2, 0, 0);
  OK (any = gnn_tensor_any (odd, NULL, 0, FALSE, &error));
  gnn_test_assert_close (any, GNN_TEST_DATA (1), 1, 0, 0);
  OK (ns = gnn_tensor_nansum (odd, DIMS (0), 1, FALSE, &error));
  gnn_test_assert_close (ns, GNN_TEST_DATA (-INFINITY, 1.5, -INFINITY), 3, 0, 0);
  OK (nm = gnn_tensor_nanmean (odd, DIMS (0), 1, FALSE, &error));
  gnn_test_assert_close (nm, GNN_TEST_DATA (-INFINITY, 0.75, -INFINITY), 3, 0, 0);
  OK (n2n = gnn_tensor_nan_to_num (odd, 7.0, NAN, -3.0, &error));
  gnn_test_assert_close (n2n, GNN_TEST_DATA (7.0, 1.5, DBL_MAX, -3.0, 0.0, -2.0), 6, 0, 0);
  OK (isnan_ = gnn_tensor_isnan (odd, &error));
  gnn_test_assert_close (isnan_, GNN_TEST_DATA (1, 0, 0, 0, 0, 0), 6, 0, 0);
  OK (isinf_ = gnn_tensor_isinf (odd, &error));
  gnn_test_assert_close (isinf_, GNN_TEST_DATA (0, 0, 1, 1, 0, 0), 6, 0, 0);
  OK (fin = gnn_tensor_isfinite (odd, &error));
  gnn_test_assert_close (fin, GNN_TEST_DATA (0, 1, 0, 0, 1, 1), 6, 0, 0);
  OK (pos = gnn_tensor_isposinf (odd, &error));
  gnn_test_assert_close (pos, GNN_TEST_DATA (0, 0, 1, 0, 0, 0), 6, 0, 0);
  OK (neg = gnn_tensor_isneginf (odd, &error));
  gnn_test_assert_close (neg, GNN_TEST_DATA (0, 0, 0, 1, 0, 0), 6, 0, 0);
  OK (real = gnn_tensor_isreal (odd, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (real), ==, GNN_DTYPE_BOOL);
  gnn_test_assert_close (real, GNN_TEST_DATA (1, 1, 1, 1, 1, 1), 6, 0, 0);
  OK (v = gnn_tensor_var_mean (inf, DIMS (0), 1, 0.0, TRUE, &m, &error));
  gnn_test_assert_shape (v, GNN_TEST_SHAPE (1, 2), 2);
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (1, 2), 2);

  /* integers: prod in int64, logsumexp in float32 */
  OK (ints = gnn_tensor_new_arange (1, 6, 1, GNN_DTYPE_INT64, NULL, &error));
  OK (ip = gnn_tensor_prod_all (ints, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (ip), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (ip, GNN_TEST_DATA (120), 1, 0, 0);
  OK (lse_int = gnn_tensor_logsumexp (ints, NULL, 0, FALSE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (lse_int), ==, GNN_DTYPE_FLOAT32);

  g_assert_null (gnn_tensor_nanmean (ints, NULL, 0, FALSE, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "nanmean(): expected input to have floating point dtype but got int64");
  g_assert_null (gnn_tensor_var_mean (ints, NULL, 0, 1.0, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "var_mean only support floating point");
  g_assert_null (gnn_tensor_logsumexp (odd, DIMS (2), 1, FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "logsumexp");
  g_assert_null (gnn_tensor_prod (odd, -3, FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "prod");
  g_assert_null (gnn_tensor_count_nonzero (odd, DIMS (1, 1), 2, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "appears multiple times");
}

/* isclose, allclose, equal: torch 1.13's answers (test_ops_closeness.py compares more) */
static void
test_closeness (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (INFINITY, -INFINITY, NAN, 1.0, 1.0, 100.0), 6,
                                              GNN_TEST_SHAPE (6), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (INFINITY, INFINITY, NAN, INFINITY, 1.0 + 1e-9, 100.001), 6,
                                              GNN_TEST_SHAPE (6), 1);
  g_autoptr(GnnTensor) row = gnn_test_tensor_d (GNN_TEST_DATA (1.0, 2.0), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) grid = gnn_test_tensor_d (GNN_TEST_DATA (1.0, 2.0, 1.0, 2.00001), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) c = NULL, c_nan = NULL, c_tol = NULL, ia = NULL, ib = NULL, ic = NULL, f32 = NULL;

  OK (c = gnn_tensor_isclose (a, b, 1e-5, 1e-8, FALSE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_BOOL);
  gnn_test_assert_close (c, GNN_TEST_DATA (1, 0, 0, 0, 1, 1), 6, 0, 0);
  OK (c_nan = gnn_tensor_isclose (a, b, 1e-5, 1e-8, TRUE, &error));
  gnn_test_assert_close (c_nan, GNN_TEST_DATA (1, 0, 1, 0, 1, 1), 6, 0, 0);
  /* zero tolerances: equality only */
  OK (c_tol = gnn_tensor_isclose (a, b, 0.0, 0.0, FALSE, &error));
  gnn_test_assert_close (c_tol, GNN_TEST_DATA (1, 0, 0, 0, 0, 0), 6, 0, 0);
  /* broadcasting */
  g_assert_true (gnn_tensor_allclose (row, grid, 1e-5, 1e-8, FALSE, &error));
  g_assert_no_error (error);
  g_assert_false (gnn_tensor_allclose (row, grid, 1e-7, 1e-8, FALSE, &error));
  g_assert_no_error (error);
  /* integers: exact without tolerance, in floating point with it (|2 - 3| <= 0.4 * 3) */
  ia = gnn_tensor_new_from_int64s ((gint64[]) { 1, 2, 3 }, 3, GNN_TEST_SHAPE (3), 1, &error);
  ib = gnn_tensor_new_from_int64s ((gint64[]) { 1, 3, 3 }, 3, GNN_TEST_SHAPE (3), 1, &error);
  OK (ic = gnn_tensor_isclose (ia, ib, 0.4, 0.0, FALSE, &error));
  gnn_test_assert_close (ic, GNN_TEST_DATA (1, 1, 1), 3, 0, 0);
  g_clear_object (&ic);
  OK (ic = gnn_tensor_isclose (ia, ib, 0.0, 0.0, FALSE, &error));
  gnn_test_assert_close (ic, GNN_TEST_DATA (1, 0, 1), 3, 0, 0);

  /* errors: dtypes, negative tolerances, shapes */
  OK (f32 = gnn_tensor_to_dtype (ia, GNN_DTYPE_FLOAT32, &error));
  g_assert_null (gnn_tensor_isclose (ia, f32, 1e-5, 1e-8, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "int64 and float32"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_isclose (a, b, -1.0, 1e-8, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "rtol must be greater than or equal to zero"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_isclose (a, b, 1e-5, -1.0, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_tensor_allclose (a, row, 1e-5, 1e-8, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);

  /* equal: the same shape and elements, across dtypes; no broadcasting; NaN equals nothing */
  g_assert_true (gnn_tensor_equal (ia, ia, &error));
  g_assert_true (gnn_tensor_equal (ia, f32, &error));
  g_assert_false (gnn_tensor_equal (ia, ib, &error));
  g_assert_false (gnn_tensor_equal (row, grid, &error));
  g_assert_false (gnn_tensor_equal (a, a, &error));
  g_assert_no_error (error);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/reduce/sum-mean", test_sum_mean);
  g_test_add_func ("/ops/reduce/sum-dtypes-views", test_sum_dtypes_and_views);
  g_test_add_func ("/ops/reduce/zero-size", test_zero_size);
  g_test_add_func ("/ops/reduce/var", test_var);
  g_test_add_func ("/ops/reduce/max-min", test_max_min);
  g_test_add_func ("/ops/reduce/max-min-special", test_max_min_special);
  g_test_add_func ("/ops/reduce/softmax", test_softmax);
  g_test_add_func ("/ops/reduce/errors", test_errors);
  g_test_add_func ("/ops/reduce/grad-fn-names", test_grad_fn_names);
  g_test_add_func ("/ops/reduce/max-backward-ties", test_max_backward_ties);
  g_test_add_func ("/ops/reduce/amax-amin", test_amax_amin);
  g_test_add_func ("/ops/reduce/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/reduce/gradcheck-views", test_gradcheck_views);
  g_test_add_func ("/ops/reduce/large-thread-independent", test_large_and_thread_independent);
  g_test_add_func ("/ops/reduce/multinomial", test_multinomial);
  g_test_add_func ("/ops/reduce/multinomial-errors", test_multinomial_errors);
  g_test_add_func ("/ops/reduce/norms", test_norms);
  g_test_add_func ("/ops/reduce/more-gradcheck", test_more_gradcheck);
  g_test_add_func ("/ops/reduce/more-values", test_more_values);
  g_test_add_func ("/ops/reduce/closeness", test_closeness);
  return g_test_run ();
}
