/* test-ops-order.c: kthvalue, median, nanmedian, mode, cummax, cummin and aminmax */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

/* x (2, 5) = [[3, 1, 3, 1, 2], [2, 2, 5, 5, 1]] */
static GnnTensor *
small (void)
{
  return gnn_test_tensor_d (GNN_TEST_DATA (3, 1, 3, 1, 2, 2, 2, 5, 5, 1), 10, GNN_TEST_SHAPE (2, 5), 2);
}

static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = small ();
  g_autoptr(GnnTensor) k = NULL, ki = NULL, m = NULL, mi = NULL, mo = NULL, moi = NULL, all = NULL, c = NULL,
    ci = NULL, lo = NULL, hi = NULL;

  OK (k = gnn_tensor_kthvalue (x, 2, 1, FALSE, &ki, &error));
  gnn_test_assert_close (k, GNN_TEST_DATA (1, 2), 2, 0, 0);
  gnn_test_assert_close (ki, GNN_TEST_DATA (3, 0), 2, 0, 0);
  OK (m = gnn_tensor_median (x, 1, TRUE, &mi, &error));
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (2, 1), 2);
  gnn_test_assert_close (m, GNN_TEST_DATA (2, 2), 2, 0, 0);
  OK (mo = gnn_tensor_mode (x, -1, FALSE, &moi, &error));
  gnn_test_assert_close (mo, GNN_TEST_DATA (1, 2), 2, 0, 0);
  gnn_test_assert_close (moi, GNN_TEST_DATA (3, 1), 2, 0, 0);
  OK (all = gnn_tensor_median_all (x, &error));
  gnn_test_assert_close (all, GNN_TEST_DATA (2), 1, 0, 0);
  OK (c = gnn_tensor_cummax (x, 1, &ci, &error));
  gnn_test_assert_close (c, GNN_TEST_DATA (3, 3, 3, 3, 3, 2, 2, 5, 5, 5), 10, 0, 0);
  gnn_test_assert_close (ci, GNN_TEST_DATA (0, 0, 2, 2, 2, 0, 1, 2, 3, 3), 10, 0, 0);
  OK (lo = gnn_tensor_aminmax (x, NULL, 0, FALSE, &hi, &error));
  gnn_test_assert_close (lo, GNN_TEST_DATA (1), 1, 0, 0);
  gnn_test_assert_close (hi, GNN_TEST_DATA (5), 1, 0, 0);
}

static GnnTensor *
kth_fn (GnnTensor *x, gpointer data, GError **error)
{
  return gnn_tensor_kthvalue (x, 2, 1, FALSE, NULL, error);
}

static GnnTensor *
median_fn (GnnTensor *x, gpointer data, GError **error)
{
  return gnn_tensor_median_all (x, error);
}

static GnnTensor *
cummin_fn (GnnTensor *x, gpointer data, GError **error)
{
  return gnn_tensor_cummin (x, 0, NULL, error);
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 2.5, 0.7, 1.9, -0.4), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);

  gnn_test_gradcheck (kth_fn, NULL, x, 1e-6, 1e-6);
  gnn_test_gradcheck (median_fn, NULL, x, 1e-6, 1e-6);
  gnn_test_gradcheck (cummin_fn, NULL, x, 1e-6, 1e-6);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = small ();
  g_autoptr(GnnTensor) empty = gnn_test_tensor_d (NULL, 0, GNN_TEST_SHAPE (2, 0), 2);
  g_autoptr(GnnTensor) b = NULL;

  g_assert_null (gnn_tensor_kthvalue (x, 6, 1, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_median (empty, 1, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_mode (x, 2, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  OK (b = gnn_tensor_gt_scalar (x, 1.5, &error));
  g_assert_null (gnn_tensor_cummax (b, 0, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops-order/values", test_values);
  g_test_add_func ("/ops-order/gradcheck", test_gradcheck);
  g_test_add_func ("/ops-order/errors", test_errors);
  return g_test_run ();
}
