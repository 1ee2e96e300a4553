/* test-ops-linalg.c: matmul and linear */
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

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/linalg/matmul", test_matmul_values);
  g_test_add_func ("/ops/linalg/linear", test_linear_values);
  g_test_add_func ("/ops/linalg/gradcheck", test_gradcheck);
  return g_test_run ();
}
